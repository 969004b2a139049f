"""Statistics and comparisons over the reduction family: mean, var, std, the nan*
functions, ptp, average, diff, allclose, array_equal, array_equiv.

Everything runs garray's kernels: the rows of ``garray/_tables/reduce.py`` through
``garray/_reduce/reductions.py`` and the elementwise ufuncs.  The semantics (result dtypes,
warnings, errors) follow NumPy's ``_methods.py``, ``_nanfunctions_impl.py`` and
``_function_base_impl.py``:

* ``mean``: bool and integers sum in float64; ``dtype=`` casts the input first; an empty
  slice gives NaN with RuntimeWarning "Mean of empty slice".
* ``var``/``std``: two passes (the mean with keepdims, then the sum of squared
  deviations, ``|x - m|**2`` for complex, so the result is real); the divisor is
  ``max(n - ddof, 0)`` (0/0 -> NaN, s/0 -> inf) with RuntimeWarning "Degrees of freedom
  <= 0 for slice".  ``correction`` (Array API) and ``ddof`` (NumPy) are both accepted;
  a nonzero ``ddof`` together with ``correction`` is NumPy's ValueError.
* ``nan*``: integers and bool have no NaN (plain reductions); floats skip NaN.  All-NaN
  slices: nanmin/nanmax give NaN and warn, nanargmin/nanargmax raise ValueError,
  nanmean/nanvar give NaN and warn.  One difference: nanargmin/nanargmax skip NaN in
  the reduction (row ``nanargmin``), where NumPy replaces NaN by +inf/-inf first, so
  NumPy can answer the index of a NaN that ties with an infinity (``[nan, inf]``: NumPy
  0, garray 1; complex: any value with an infinite real part).
"""

import math
import numbers
import operator
import warnings

from .. import _core, _dtypes
from .._core import ndarray
from .reductions import _array, _store, normalize_axes, reduce
from . import reductions as _red
from .._elementwise import ufuncs as _u


class _NoValue:
    """Sentinel for arguments where None is a meaningful value (diff's prepend)."""

    def __repr__(self):
        return "<no value>"


_NOVALUE = _NoValue()
_F64 = _dtypes.normalize_dtype("float64", "float64")


def _kind(x):
    return x.dtype.kind


def _inexact(x):
    return x.dtype.kind in "fc"


def _norm_dtype(dtype, name):
    return None if dtype is None else _dtypes.normalize_dtype(dtype, f"{name}: dtype")


def _cast(x, dt):
    return x if dt is None or x.dtype == dt else x.astype(dt)


def _as_dtype(r, dt):
    """r in dtype dt (NumPy's ``true_divide(..., out=ret, casting='unsafe')``)."""
    return r if r.dtype == dt else r.astype(dt)


def _any(x):
    """Python bool: some element of garray array x is nonzero (one reduction)."""
    return bool(_red.any(x))


def _count(x, axes, where, keepdims, name):
    """Elements per slice over ``axes``: a Python int when ``where`` is True, else an
    int64 garray array (the ``where`` mask broadcast to x, counted)."""
    if where is True:
        return math.prod(x.shape[a] for a in axes)
    w = _core.broadcast_to(_array(where, name), x.shape)
    return reduce("count_nonzero", w, axes, keepdims, api=name)


def _warn(msg, depth=0):
    """RuntimeWarning attributed to the caller of the public function (``depth``: the
    helpers between it and here)."""
    warnings.warn(msg, RuntimeWarning, stacklevel=3 + depth)


def _squared_magnitude(d, magnitude):
    """``magnitude``: |d|**2 = re**2 + im**2 (a real dtype); else d*d."""
    if magnitude and _kind(d) == "c":
        re, im = _u.real(d), _u.imag(d)
        return _u.add(_u.multiply(re, re), _u.multiply(im, im))
    return _u.multiply(d, d)


def _squeeze_axes(c, axes, keepdims):
    """A count computed with keepdims=True, reshaped to the result's shape."""
    if keepdims or not isinstance(c, ndarray):
        return c
    return c.reshape(tuple(s for i, s in enumerate(c.shape) if i not in axes))


# ---- mean, var, std ------------------------------------------------------------------

def _mean_dtype(x, dtype, name):
    dt = _norm_dtype(dtype, name)
    if dt is None and _kind(x) in "biu":
        dt = _F64
    return dt


def mean(x, /, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean over ``axis``: bool and integers in float64, other dtypes in
    their own (``dtype=`` casts the input first); an empty slice is NaN with a
    RuntimeWarning.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        float64 for bool and integer input, the input's (or dtype's) dtype otherwise;
        0-d when every axis is reduced.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.mean(x, 0)`` as
    ``numpy.mean``), with the Array API's keywords.

    See Also
    --------
    numpy.mean
    """
    x = _array(x, "mean")
    axes = normalize_axes(axis, x.ndim, "mean")
    dt = _mean_dtype(x, dtype, "mean")
    n = _count(x, axes, where, keepdims, "mean")
    if (n == 0) if isinstance(n, int) else _any(_u.equal(n, 0)):
        _warn("Mean of empty slice.")
    s = reduce("sum", x, axes, keepdims, dt, where=where, api="mean")
    return _store(_as_dtype(_u.divide(s, n), s.dtype), out, "mean")


def _ddof(ddof, correction, name):
    if correction is not None:
        if ddof != 0:
            raise ValueError(f"{name}: ddof and correction can't be provided "
                             f"simultaneously.")
        ddof = correction
    if not isinstance(ddof, numbers.Real):
        raise TypeError(f"{name}: ddof/correction must be a real number, got "
                        f"{type(ddof).__name__}")
    return ddof


def _var(x, axis, dtype, out, ddof, keepdims, where, correction, name, sqrt):
    x = _array(x, name)
    ddof = _ddof(ddof, correction, name)
    axes = normalize_axes(axis, x.ndim, name)
    dt = _mean_dtype(x, dtype, name)
    n = _count(x, axes, where, True, name)
    # NumPy's _var: the mean in dt, deviations of the uncast input, squares by the
    # input's kind (|d|**2 for complex input; d*d otherwise, complex when dt is)
    s1 = reduce("sum", x, axes, True, dt, where=where, api=name)
    m = _as_dtype(_u.divide(s1, n), s1.dtype)
    sq = _squared_magnitude(_u.subtract(x, m), _kind(x) == "c")
    s = reduce("sum", sq, axes, keepdims, dt, where=where, api=name)
    n = _squeeze_axes(n, axes, keepdims)
    if isinstance(n, int):
        if ddof >= n:
            _warn("Degrees of freedom <= 0 for slice", 1)
        dof = n - ddof if n - ddof > 0 else 0
    else:
        if _any(_u.less_equal(n, ddof)):
            _warn("Degrees of freedom <= 0 for slice", 1)
        dof = _u.maximum(_u.subtract(n, ddof), 0)
    r = _as_dtype(_u.divide(s, dof), s.dtype)
    if sqrt:
        r = _u.sqrt(r)
    return _store(r, out, name)


def var(x, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        correction=None):
    """Variance ``sum(|x - mean|**2) / (n - ddof)`` over ``axis`` (``correction`` is
    the Array API spelling of ``ddof``); complex input gives a real result.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    correction : int or float, optional
        The Array API's name for ddof (not both).
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Real: float64 for bool and integers, the real dtype of floating and complex
        input.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.var(x, 0)`` as
    ``numpy.var``), with the Array API's keywords.

    See Also
    --------
    numpy.var
    """
    return _var(x, axis, dtype, out, ddof, keepdims, where, correction, "var", False)


def std(x, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        correction=None):
    """Standard deviation: the square root of ``var``.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    correction : int or float, optional
        The Array API's name for ddof (not both).
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Real: float64 for bool and integers, the real dtype of floating and complex
        input.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.std(x, 0)`` as
    ``numpy.std``), with the Array API's keywords.

    See Also
    --------
    numpy.std
    """
    return _var(x, axis, dtype, out, ddof, keepdims, where, correction, "std", True)


# ---- the NaN-skipping reductions ----------------------------------------------------

def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum treating NaN as zero (dtypes as ``sum``).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Dtypes as sum.

    See Also
    --------
    numpy.nansum
    """
    return reduce("nansum", a, axis, keepdims, dtype, out, initial, where, _u.add, "nansum")


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product treating NaN as one (dtypes as ``prod``).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Dtypes as prod.

    See Also
    --------
    numpy.nanprod
    """
    return reduce("nanprod", a, axis, keepdims, dtype, out, initial, where, _u.multiply,
                  "nanprod")


def _nanminmax(name, combine, a, axis, out, keepdims, initial, where):
    x = _array(a, name)
    r = reduce(name, x, axis, keepdims, None, None, initial, where, combine, name)
    if _inexact(r) and _any(_u.isnan(r)):
        _warn("All-NaN slice encountered", 1)
    return _store(r, out, name)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Smallest element ignoring NaN; an all-NaN slice gives NaN and a RuntimeWarning.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        In a's dtype.

    See Also
    --------
    numpy.nanmin
    """
    return _nanminmax("nanmin", _u.fmin, a, axis, out, keepdims, initial, where)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Largest element ignoring NaN; an all-NaN slice gives NaN and a RuntimeWarning.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        In a's dtype.

    See Also
    --------
    numpy.nanmax
    """
    return _nanminmax("nanmax", _u.fmax, a, axis, out, keepdims, initial, where)


def _nanarg(name, a, axis, out, keepdims):
    x = _array(a, name)
    if isinstance(axis, (tuple, list)):
        raise TypeError(f"{name}: axis must be an integer or None, got "
                        f"{type(axis).__name__}")
    if axis is None:
        r = reduce(name, x.reshape(-1), None, False, api=name)
        if keepdims:
            r = r.reshape((1,) * x.ndim)
    else:
        r = reduce(name, x, axis, keepdims, api=name)
    if _inexact(x) and r.size and _any(_u.equal(r, -1)):
        raise ValueError(f"{name}: All-NaN slice encountered")
    return _store(r, out, name)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the smallest element ignoring NaN; an all-NaN slice is a ValueError.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        int64 indices.

    See Also
    --------
    numpy.nanargmin
    """
    return _nanarg("nanargmin", a, axis, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the largest element ignoring NaN; an all-NaN slice is a ValueError.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        int64 indices.

    See Also
    --------
    numpy.nanargmax
    """
    return _nanarg("nanargmax", a, axis, out, keepdims)


def _nan_dtype(x, dtype, out, name):
    dt = _norm_dtype(dtype, name)
    if dt is not None and dt.kind not in "fc":
        raise TypeError(f"{name}: if a is inexact, then dtype must be inexact")
    if out is not None and isinstance(out, ndarray) and _kind(out) not in "fc":
        raise TypeError(f"{name}: if a is inexact, then out must be inexact")
    return dt


def _nan_prepare(x, axes, where, name):
    """(x with NaN -> 0, the NaN mask, non-NaN count per slice with keepdims)."""
    mask = _u.isnan(x)
    keep = _u.logical_not(mask)
    if where is not True:
        keep = _u.logical_and(keep, _array(where, name))
        keep = _core.broadcast_to(keep, x.shape) if keep.shape != x.shape else keep
    cnt = reduce("count_nonzero", keep, axes, True, api=name)
    return _core.where(mask, _core.zeros((), dtype=x.dtype, device=x.device), x), mask, cnt


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Mean ignoring NaN; an all-NaN slice is NaN with a RuntimeWarning.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Dtypes as mean.

    See Also
    --------
    numpy.nanmean
    """
    x = _array(a, "nanmean")
    if not _inexact(x):
        return mean(x, axis=axis, keepdims=keepdims, dtype=dtype, out=out, where=where)
    dt = _nan_dtype(x, dtype, out, "nanmean")
    axes = normalize_axes(axis, x.ndim, "nanmean")
    xz, _, cnt = _nan_prepare(x, axes, where, "nanmean")
    tot = reduce("sum", xz, axes, keepdims, dt, where=where, api="nanmean")
    cnt = _squeeze_axes(cnt, axes, keepdims)
    r = _as_dtype(_u.divide(tot, cnt), tot.dtype)
    if _any(_u.equal(cnt, 0)):
        _warn("Mean of empty slice")
    return _store(r, out, "nanmean")


def _nanvar(a, axis, dtype, out, ddof, keepdims, where, correction, name, sqrt):
    x = _array(a, name)
    if not _inexact(x):
        return _var(x, axis, dtype, out, ddof, keepdims, where, correction, name, sqrt)
    ddof = _ddof(ddof, correction, name)
    dt = _nan_dtype(x, dtype, out, name)
    axes = normalize_axes(axis, x.ndim, name)
    xz, mask, cnt = _nan_prepare(x, axes, where, name)
    # NumPy's _nanvar: the mean in dt, deviations stored in the input's dtype
    s1 = reduce("sum", xz, axes, True, dt, where=where, api=name)
    m = _as_dtype(_u.divide(s1, cnt), s1.dtype)
    d = _as_dtype(_u.subtract(xz, m), x.dtype)
    d = _core.where(mask, _core.zeros((), dtype=d.dtype, device=d.device), d)
    s = reduce("sum", _squared_magnitude(d, True), axes, keepdims, dt, where=where,
               api=name)
    dof = _u.subtract(_squeeze_axes(cnt, axes, keepdims), ddof)
    r = _as_dtype(_u.divide(s, dof), s.dtype)
    bad = _u.less_equal(dof, 0)
    if _any(bad):
        _warn("Degrees of freedom <= 0 for slice.", 1)
        r = _core.where(bad, _core.full((), math.nan, dtype=r.dtype, device=r.device), r)
    if sqrt:
        r = _u.sqrt(r)
    return _store(r, out, name)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           correction=None):
    """Variance ignoring NaN; slices with ``n - ddof <= 0`` non-NaN elements are NaN
    with a RuntimeWarning.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.
    correction : int or float, optional
        The Array API's name for ddof (not both).

    Returns
    -------
    ndarray
        Dtypes as var.

    See Also
    --------
    numpy.nanvar
    """
    return _nanvar(a, axis, dtype, out, ddof, keepdims, where, correction, "nanvar", False)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           correction=None):
    """Standard deviation ignoring NaN: the square root of ``nanvar``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.
    correction : int or float, optional
        The Array API's name for ddof (not both).

    Returns
    -------
    ndarray
        Dtypes as std.

    See Also
    --------
    numpy.nanstd
    """
    return _nanvar(a, axis, dtype, out, ddof, keepdims, where, correction, "nanstd", True)


# ---- ptp, average, diff ----------------------------------------------------------------

def ptp(a, axis=None, out=None, keepdims=False):
    """Range ``max - min`` over ``axis`` (integers wrap as NumPy's; bool is a
    TypeError).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        In a's dtype.

    See Also
    --------
    numpy.ptp
    """
    x = _array(a, "ptp")
    hi = reduce("max", x, axis, keepdims, api="ptp")   # empty: NumPy's ValueError first
    lo = reduce("min", x, axis, keepdims, api="ptp")
    if _kind(x) == "b":
        raise TypeError("ptp: numpy boolean subtract is not supported for bool input")
    return _store(_u.subtract(hi, lo), out, "ptp")


def _axis_tuple(axis, ndim, name):
    """NumPy's normalize_axis_tuple: validated, non-negative, in the given order."""
    normalize_axes(axis, ndim, name)
    seq = axis if isinstance(axis, (tuple, list)) else (axis,)
    return tuple(operator.index(a) % ndim if ndim else 0 for a in seq)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted mean over ``axis``: ``sum(a * w) / sum(w)``; ``returned`` also gives the
    sum of the weights.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    weights : ndarray or array_like, optional
        Weights, of a's shape or 1-d along a single axis; equal weights by default.
    returned : bool, optional
        Also return the sum of the weights.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray or tuple of ndarray
        The weighted mean (float64 for integer input), and with returned the weight sums
        broadcast to its shape.

    See Also
    --------
    numpy.average
    """
    x = _array(a, "average")
    if axis is not None:
        axis = _axis_tuple(axis, x.ndim, "average")
    if weights is None:
        avg = mean(x, axis=axis, keepdims=keepdims)
        scl_value = x.size / avg.size if avg.size else None
        if scl_value is None:
            raise ZeroDivisionError("average: division by zero (empty result)")
        scl = _core.full(avg.shape, scl_value, dtype=avg.dtype, device=avg.device)
    else:
        w = _array(weights, "average")
        if x.dtype.kind in "biu":
            rd = _dtypes.result_type(x.dtype, w.dtype, _F64)
        else:
            rd = _dtypes.result_type(x.dtype, w.dtype)
        if x.shape != w.shape:
            if axis is None:
                raise TypeError("average: Axis must be specified when shapes of a and "
                                "weights differ.")
            if w.shape != tuple(x.shape[ax] for ax in axis):
                raise ValueError("average: Shape of weights must be consistent with "
                                 "shape of a along specified axis.")
            order = sorted(range(len(axis)), key=lambda i: axis[i])
            w = _core.permute_dims(w, tuple(order))
            w = w.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(x.shape)))
        scl = _red.sum(w, axis=axis, dtype=rd, keepdims=keepdims)
        if _any(_u.equal(scl, 0)):
            raise ZeroDivisionError("average: Weights sum to zero, can't be normalized")
        num = _red.sum(_u.multiply(_cast(x, rd), _cast(w, rd)), axis=axis,
                       keepdims=keepdims)
        avg = _u.divide(num, scl)
    if returned:
        if scl.shape != avg.shape:
            scl = _core.broadcast_to(scl, avg.shape).copy()
        return avg, scl
    return avg


def diff(a, n=1, axis=-1, prepend=_NOVALUE, append=_NOVALUE):
    """The n-th discrete difference along ``axis`` (``not_equal`` for bool), after
    joining ``prepend`` and ``append``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    n : int, optional
        Number of times to difference.
    axis : int, optional
        The axis (the last by default).
    prepend : array_like, optional
        Values joined before a along axis first (scalars broadcast).
    append : array_like, optional
        Values joined after a along axis first.

    Returns
    -------
    ndarray
        Of a's shape less n along axis, in a's dtype.

    See Also
    --------
    numpy.diff
    """
    x = _array(a, "diff")
    if n == 0:
        return x
    if n < 0:
        raise ValueError(f"diff: order must be non-negative but got {n!r}")
    if x.ndim == 0:
        raise ValueError("diff: requires input that is at least one dimensional")
    ax, = normalize_axes(axis, x.ndim, "diff")
    parts = []
    for extra in (prepend, x, append):
        if extra is _NOVALUE:
            continue
        if extra is not x:
            extra = _array(extra, "diff")
            if extra.ndim == 0:
                shape = list(x.shape)
                shape[ax] = 1
                extra = _core.broadcast_to(extra, tuple(shape))
        parts.append(extra)
    if len(parts) > 1:
        x = _red_concat(parts, ax)
    head = (slice(None),) * ax
    op = _u.not_equal if x.dtype.kind == "b" else _u.subtract
    for _ in range(n):
        x = op(x[head + (slice(1, None),)], x[head + (slice(None, -1),)])
    return x


def _red_concat(parts, ax):
    from .._manip.manipulation import concat
    return concat(parts, axis=ax)


# ---- comparisons returning Python bool --------------------------------------------

def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every ``|a - b| <= atol + rtol * |b|`` (``isclose``, broadcast).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    b : ndarray or array_like
        Reference array, broadcast against a.
    rtol : float, optional
        Relative tolerance.
    atol : float, optional
        Absolute tolerance.
    equal_nan : bool, optional
        Whether NaN compares equal to NaN.

    Returns
    -------
    bool
        A Python bool (the one value read back from the device).

    See Also
    --------
    numpy.allclose
    """
    from .._elementwise.functions import isclose
    weak = type(b) in (float, complex)     # NumPy's isclose keeps a Python float weak
    a = _array(a, "allclose")
    b = b if weak else _array(b, "allclose")
    # NumPy compares in floating point: integers cannot wrap in a - b.
    if not _inexact(a):
        a = a.astype(_F64)
    if not weak and not _inexact(b):
        b = b.astype(_F64)
    close = isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    # NumPy: an infinite b is close only to itself (atol + rtol * inf admits anything).
    close = _u.logical_and(close, _u.logical_or(_u.isfinite(b), _u.equal(a, b)))
    if equal_nan:
        close = _u.logical_or(close, _u.logical_and(_u.isnan(a), _u.isnan(b)))
    return bool(_red.all(close))


def array_equal(a1, a2, equal_nan=False):
    """True when a1 and a2 have the same shape and elements (``equal_nan``: NaN equals
    NaN).

    Parameters
    ----------
    a1 : ndarray or array_like
        First array.
    a2 : ndarray or array_like
        Second array.
    equal_nan : bool, optional
        Whether NaN compares equal to NaN.

    Returns
    -------
    bool
        A Python bool.

    See Also
    --------
    numpy.array_equal
    """
    try:
        a1, a2 = _array(a1, "array_equal"), _array(a2, "array_equal")
    except Exception:  # noqa: BLE001 - NumPy: what cannot be an array is not equal
        return False
    if a1.shape != a2.shape:
        return False
    eq = _u.equal(a1, a2)
    if equal_nan and (_inexact(a1) or _inexact(a2)):
        if a1 is a2:
            return True
        n1, n2 = _u.isnan(a1), _u.isnan(a2)
        if not bool(_red.all(_u.equal(n1, n2))):
            return False
        eq = _u.logical_or(eq, n1)
    return bool(_red.all(eq))


def array_equiv(a1, a2):
    """True when a1 and a2 broadcast to one shape and are equal there.

    Parameters
    ----------
    a1 : ndarray or array_like
        First array.
    a2 : ndarray or array_like
        Second array.

    Returns
    -------
    bool
        A Python bool.

    See Also
    --------
    numpy.array_equiv
    """
    try:
        a1, a2 = _array(a1, "array_equiv"), _array(a2, "array_equiv")
    except Exception:  # noqa: BLE001
        return False
    try:
        _core.broadcast_shapes(a1.shape, a2.shape)
    except Exception:  # noqa: BLE001 - shapes that do not broadcast are not equivalent
        return False
    return bool(_red.all(_u.equal(a1, a2)))


__all__ = ["mean", "var", "std", "nansum", "nanprod", "nanmin", "nanmax", "nanargmin",
           "nanargmax", "nanmean", "nanvar", "nanstd", "ptp", "average", "diff",
           "allclose", "array_equal", "array_equiv"]
