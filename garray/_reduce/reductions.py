"""Reductions: the Array API and NumPy signatures over the reduction family, and the
argument parsing and ``out=`` handling the scans (garray/_reduce/scans.py) share.

The kernels and their schedules are in ``_kernels/reduce.hip`` and
``cython/_reduce.pxi``; the rows (reducer, accepted dtypes, accumulator dtype, identity)
in ``garray/_tables/reduce.py``.  This module parses arguments the way NumPy does: ``axis``
(int, tuple or None; negative axes; ``AxisError`` when out of range or repeated),
``keepdims``, ``dtype`` (casts the input first), ``out=`` (NumPy's shape check, unsafe
cast into it), ``initial=`` and ``where=``.
"""

import numpy

from .._args import as_array, reduction_axes
from .. import _core, _dtypes, _dtype_time as _time
from .._core import ndarray
from .._tables.reduce import ROWS
from .._elementwise import ufuncs as _ufuncs
from .._elementwise.functions import where as _where
from .._creation.ranges import arange

_builtin_sum = sum


def _norm_dtype(dtype, name):
    return _dtypes.normalize_dtype(dtype, f"{name}: dtype")


def _with_dtype(x, dtype, api):
    """(x cast to ``dtype`` when given and different, the normalised dtype or None)."""
    if dtype is None:
        return x, None
    dt = _norm_dtype(dtype, api)
    return (x if x.dtype == dt else x.astype(dt)), dt


def _code(dt):
    return _dtypes.DTYPE_CODE[dt]


def _store(r, out, name):
    """Put result r into out= (NumPy's shape rule, unsafe cast) and return out."""
    if out is None:
        return r
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"{name}: out must be an array or a tuple of one array")
        out = out[0]
    if not isinstance(out, ndarray):
        raise TypeError(f"{name}: out must be a garray.ndarray, got {type(out).__name__}")
    if out.shape != r.shape:
        raise ValueError(f"{name}: out has shape {out.shape}, the result has shape {r.shape}")
    out[...] = r.astype(out.dtype, copy=False) if r.dtype != out.dtype else r
    return out


def reduce(name, x, axis=None, keepdims=False, dtype=None, out=None, initial=None,
           where=True, combine=None, api=None):
    """Run row ``name`` of the reduction table over ``axis``.

    ``combine`` is the binary ufunc (or its name, looked up only when needed) that folds
    ``initial=`` into the result (add for sums, maximum for max ...); ``api`` is the
    public name for messages.
    """
    if (type(x) is ndarray and axis is None and dtype is None and out is None
            and initial is None and where is True and x.size):
        # the per-call path of sum(x), max(x), argmax(x): every axis, NumPy's defaults
        return _core._reduce(name, x, tuple(range(x.ndim)), bool(keepdims))
    api = api or name
    x = x if type(x) is ndarray else as_array(x, f"{api}: x")
    if _time.is_time(x.dtype):      # datetime64/timedelta64: garray/_datetime
        if dtype is not None or initial is not None or where is not True:
            raise NotImplementedError(f"{api}: dtype=, initial= and where= with {x.dtype}")
        axes = reduction_axes(axis, x.ndim, api)
        return _store(_core._reduce(name, x, axes, bool(keepdims)), out, api)
    x, dt = _with_dtype(x, dtype, api)
    row = ROWS[name]
    code = _code(x.dtype)   # (an unsupported dtype: the launch layer's TypeError)
    axes = reduction_axes(axis, x.ndim, api)
    if where is not True:
        if initial is None and row.nonempty:
            raise ValueError(f"{api}: a where= mask needs initial= (the reduction has no "
                             f"identity)")
        fill = row.identity(code)       # masked elements drop out; initial is added once
        x = _where(as_array(where, f"{api}: where"), x,
                   _core.asarray(fill, dtype=x.dtype, device=x.device)
                   if not isinstance(fill, ndarray) else fill)
        code = _code(x.dtype)
    if row.nonempty and initial is None:
        for a in axes:
            if x.shape[a] == 0:
                raise ValueError(f"{api}: zero-size array to reduction operation {api} "
                                 f"which has no identity")
    r = _core._reduce(name, x, axes, bool(keepdims))
    if initial is not None:
        if combine is None:
            raise TypeError(f"{api}: initial= is not supported")
        if isinstance(combine, str):
            combine = _ufunc(combine)
        r = combine(r, _core.full((), initial, dtype=r.dtype, device=r.device))
    if dt is not None and r.dtype != dt:
        r = r.astype(dt)
    return _store(r, out, api)


# ---- the public reductions -----------------------------------------------------------

def _ufunc(name):
    return getattr(_ufuncs, name)


def sum(x, /, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum of the elements over ``axis``.

    Booleans and signed integers sum in int64, unsigned integers in uint64, floats and
    complex in their own dtype (pairwise, as NumPy); ``dtype=`` casts the input first.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        The sums (int64 for bool and signed integers, uint64 for unsigned, the input's
        dtype otherwise, or dtype), on the input's device; 0-d when every axis is
        reduced.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.sum(x, 0)`` as
    ``numpy.sum``), with the Array API's keywords.

    See Also
    --------
    numpy.sum
    """
    return reduce("sum", x, axis, keepdims, dtype, out, initial, where, "add", "sum")


def prod(x, /, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product of the elements over ``axis`` (dtypes as ``sum``).

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        The products (dtypes as sum), on the input's device; 0-d when every axis is
        reduced.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.prod(x, 0)`` as
    ``numpy.prod``), with the Array API's keywords.

    See Also
    --------
    numpy.prod
    """
    return reduce("prod", x, axis, keepdims, dtype, out, initial, where, "multiply",
                  "prod")


def max(x, /, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Largest element over ``axis``; NaN propagates; an empty axis raises ValueError
    unless ``initial`` is given.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        The maxima, in the input's dtype, on its device; 0-d when every axis is reduced.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.max(x, 0)`` as
    ``numpy.max``), with the Array API's keywords.

    See Also
    --------
    numpy.max
    """
    return reduce("max", x, axis, keepdims, None, out, initial, where, "maximum", "max")


def min(x, /, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Smallest element over ``axis``; NaN propagates.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        The minima, in the input's dtype, on its device; 0-d when every axis is reduced.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.min(x, 0)`` as
    ``numpy.min``), with the Array API's keywords.

    See Also
    --------
    numpy.min
    """
    return reduce("min", x, axis, keepdims, None, out, initial, where, "minimum", "min")


amax, amin = max, min


def _out_array(out):
    return out[0] if isinstance(out, tuple) and len(out) == 1 else out


def _check_index_out(out, name):
    """argmax/argmin's out= receives int64 indices: NumPy refuses an out whose dtype
    does not cast safely to intp (a float out, uint64)."""
    o = _out_array(out)
    if isinstance(o, ndarray) and not numpy.can_cast(o.dtype, numpy.int64, "safe"):
        raise TypeError(f"{name}: Cannot cast scalar from dtype('{o.dtype}') to "
                        f"dtype('int64') according to the rule 'safe'")


def _check_ufunc_out(r, out, ufunc, name):
    """A result that NumPy computes with a final ufunc into out= (std's sqrt) follows
    that ufunc's same_kind rule: a float result does not go into an integer out."""
    o = _out_array(out)
    if isinstance(o, ndarray) and not numpy.can_cast(r.dtype, o.dtype, "same_kind"):
        raise TypeError(f"{name}: Cannot cast ufunc '{ufunc}' output from "
                        f"dtype('{r.dtype}') to dtype('{o.dtype}') with casting rule "
                        f"'same_kind'")


_SPLIT_SEG, _SPLIT_MIN = _core._SPLIT_SIZES   # the split of the other reductions


def _split_arg(name, flat):
    """argmax/argmin of a large contiguous 1-d array over the CPU launch pool (Note
    [Splitting whole reductions on the CPU] in cython/_reduce.pxi): each segment's first
    extreme, then the first segment whose extreme wins (NaN first, as the kernel)."""
    n = flat.shape[0]
    nseg = n // _SPLIT_SEG
    head = nseg * _SPLIT_SEG
    loc = _core._reduce(name, flat[:head].reshape((nseg, _SPLIT_SEG)), (1,), False)
    idx = _core.empty((nseg + (head < n),), dtype=numpy.int64, device=flat.device)
    _ufuncs.add(loc, arange(0, head, _SPLIT_SEG, dtype=numpy.int64, device=flat.device),
                out=idx[:nseg])
    if head < n:
        idx[nseg:] = _core._reduce(name, flat[head:], (0,), False) + head
    return idx[int(_core._reduce(name, flat[idx], (0,), False))]


def _arg(name, x, axis, keepdims, out):
    if (axis is None and out is None and type(x) is ndarray and x.ndim == 1 and x.size
            and not keepdims):
        if x.size >= _SPLIT_MIN and x.device.kind == "cpu" and x.flags.c_contiguous:
            return _split_arg(name, x)
        return _core._reduce(name, x, (0,), False)      # the per-call path
    _check_index_out(out, name)
    x = (x if type(x) is ndarray else as_array(x, f"{name}: x"))
    if axis is None:
        if x.size >= _SPLIT_MIN and x.device.kind == "cpu" and x.flags.c_contiguous:
            r = _split_arg(name, x.reshape(-1))
            if keepdims:
                r = r.reshape((1,) * x.ndim)
            return _store(r, out, name)
        r = reduce(name, x.reshape(-1), None, False, api=name)
        if keepdims:
            r = r.reshape((1,) * x.ndim)
        return _store(r, out, name)
    if isinstance(axis, (tuple, list)):
        raise TypeError(f"{name}: axis must be an integer or None, got {type(axis).__name__}")
    return reduce(name, x, axis, keepdims, out=out, api=name)


def argmax(x, /, axis=None, out=None, *, keepdims=False):
    """Index of the first largest element along ``axis`` (of the flattened array when
    None); NaN counts as largest.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.

    Returns
    -------
    ndarray
        int64 indices, on the input's device; 0-d for axis=None.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.argmax(x, 0)`` as
    ``numpy.argmax``), with the Array API's keywords.

    See Also
    --------
    numpy.argmax
    """
    return _arg("argmax", x, axis, keepdims, out)


def argmin(x, /, axis=None, out=None, *, keepdims=False):
    """Index of the first smallest element along ``axis``; NaN counts as smallest.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.

    Returns
    -------
    ndarray
        int64 indices, on the input's device; 0-d for axis=None.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.argmin(x, 0)`` as
    ``numpy.argmin``), with the Array API's keywords.

    See Also
    --------
    numpy.argmin
    """
    return _arg("argmin", x, axis, keepdims, out)


def count_nonzero(x, /, axis=None, *, keepdims=False):
    """Number of nonzero elements over ``axis`` (int64).

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        int64 counts, on the input's device; 0-d when every axis is reduced (NumPy: a
        Python int).

    Notes
    -----
    Arguments in NumPy's positional order (``garray.count_nonzero(x, 0)`` as
    ``numpy.count_nonzero``), with the Array API's keywords.

    See Also
    --------
    numpy.count_nonzero
    """
    return reduce("count_nonzero", x, axis, keepdims, api="count_nonzero")


def all(x, /, axis=None, out=None, keepdims=False, *, where=True):
    """True where every element over ``axis`` is nonzero.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        bool, on the input's device; 0-d when every axis is reduced.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.all(x, 0)`` as
    ``numpy.all``), with the Array API's keywords.

    See Also
    --------
    numpy.all
    """
    return reduce("all", x, axis, keepdims, None, out, None, where, api="all")


def any(x, /, axis=None, out=None, keepdims=False, *, where=True):
    """True where some element over ``axis`` is nonzero.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        bool, on the input's device; 0-d when every axis is reduced.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.any(x, 0)`` as
    ``numpy.any``), with the Array API's keywords.

    See Also
    --------
    numpy.any
    """
    return reduce("any", x, axis, keepdims, None, out, None, where, api="any")
