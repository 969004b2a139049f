"""NumPy's take/put family on garray's advanced indexing (garray/_index/advanced.py):
``take``, ``take_along_axis``, ``put``, ``put_along_axis``, ``place``, ``putmask``,
``compress``, ``extract``, ``choose``, ``select`` and ``repeat``.

Each is a composition of gathers, scatters, nonzero and elementwise kernels on the
array's device; the host handles only shapes, axes and the few counts that size a
result (the number of set elements of a mask, the total of ``repeat``'s counts).
"""

from .._dtypes import kind_of as _kind_of
import operator

import numpy

from .. import _core
from .._core import ndarray, broadcast_to
from .advanced import nonzero
from .common import _apply_mode, _arange, _index_array
from .index_arrays import unravel_index
from .._args import as_array, check_array, normalize_axis, refuse_numpy
from .._dtypes import result_type
from .._elementwise.functions import where as _where3
from .._elementwise.ufuncs import maximum
from .._manip.manipulation import stack
from .._manip.views import broadcast_arrays
from .._reduce.reductions import any as _any, count_nonzero
from .._reduce.scans import cumsum

__all__ = ["take", "take_along_axis", "put", "put_along_axis", "place", "putmask",
           "compress", "extract", "choose", "select", "repeat"]


def _check_mode(mode):
    """NumPy checks put's and choose's mode before anything else."""
    if mode not in (None, "raise", "wrap", "clip"):
        raise ValueError(f"mode: clipmode must be one of 'clip', 'raise', or 'wrap' "
                         f"(got {mode!r})")


def _check_index_safe(ind, name, lists=False):
    """NumPy casts put's index arrays (choose's: any indices) to intp by the 'safe'
    rule: uint64 (and, for choose, floats) are refused."""
    if isinstance(ind, (ndarray, numpy.ndarray)):
        dt = ind.dtype
    elif lists:
        dt = numpy.asarray(ind).dtype
    else:
        return
    if _kind_of(dt) in "fcuO" and not numpy.can_cast(dt, numpy.int64, "safe"):
        raise TypeError(f"{name}: Cannot cast array data from dtype('{dt}') to "
                        f"dtype('int64') according to the rule 'safe'")


def _write_out(result, out, name):
    if out is None:
        return result
    as_array(out, "out")
    if out.shape != result.shape:
        raise ValueError(f"{name}: out has shape {out.shape}, the result {result.shape}")
    out[...] = result
    return out


def take(a, indices, /, axis=None, out=None, mode="raise"):
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened array when
    None). ``mode``: 'raise' (IndexError), 'wrap' or 'clip'.

    Parameters
    ----------
    a : ndarray
        Input array (a garray array).
    indices : int or array_like
        Integer indices.
    axis : int or None, optional
        The axis (None: the flattened array).
    out : ndarray, optional
        A garray array of the result's shape to write into.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-range indices are handled.

    Returns
    -------
    ndarray
        In a's dtype.

    See Also
    --------
    numpy.take
    """
    a = as_array(a, "take: a")
    if axis is None:
        a, ax = a.reshape(-1), 0
    else:
        ax = normalize_axis(axis, a.ndim)
    _check_mode(mode)           # NumPy's order: axis, mode, indices
    idx = _apply_mode(_index_array(indices, a, take=True), a.shape[ax], mode)
    # axis 0 takes x[idx]'s one-launch path (cython/_gather.pxi, _take_first)
    return _write_out(a[idx] if ax == 0 else a[(slice(None),) * ax + (idx,)], out, "take")


def _along_axis_key(arr, indices, axis, name):
    arr = as_array(arr, f"{name}: arr")
    # NumPy's order: the axis (and a 1-d indices for None), then the indices' dtype
    if axis is None:
        if numpy.ndim(indices) != 1:
            raise ValueError(f"{name}: indices must be 1-d when axis is None")
        return arr.reshape(-1), (_index_array(indices, arr),)
    ax = normalize_axis(axis, arr.ndim)
    indices = _index_array(indices, arr)
    if indices.ndim != arr.ndim:
        raise ValueError(f"{name}: `indices` and `arr` must have the same number of "
                         f"dimensions")
    key = []
    for d in range(arr.ndim):
        if d == ax:
            key.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            key.append(_arange(arr.shape[d], arr.device).reshape(shape))
    return arr, tuple(key)


def take_along_axis(arr, indices, /, axis=-1):
    """Values of ``arr`` at ``indices`` along ``axis`` (indices as argsort or argmax
    with keepdims give them).

    Parameters
    ----------
    arr : ndarray
        Input array.
    indices : ndarray
        Integer indices along axis, broadcast against arr.
    axis : int or None, optional
        The axis (None: the flattened array).

    Returns
    -------
    ndarray
        In arr's dtype.

    See Also
    --------
    numpy.take_along_axis
    """
    arr, key = _along_axis_key(arr, indices, axis, "take_along_axis")
    return arr[key]


def put_along_axis(arr, indices, values, axis):
    """arr[...] = values at ``indices`` along ``axis``.

    Parameters
    ----------
    arr : ndarray
        A garray array, changed in place.
    indices : ndarray
        Integer indices along axis, broadcast against arr.
    values : ndarray, array_like or scalar
        The values, broadcast against indices.
    axis : int or None
        The axis (None: the flattened array, which must be C-contiguous).

    Returns
    -------
    None

    See Also
    --------
    numpy.put_along_axis
    """
    arr = check_array(arr, "put_along_axis: arr")   # written in place: not a copy
    target, key = _along_axis_key(arr, indices, axis, "put_along_axis")
    if axis is None and not arr.flags.c_contiguous:
        raise NotImplementedError("put_along_axis: axis=None needs a C-contiguous array")
    target[key] = values


def _size(values):
    return values.size if isinstance(values, (ndarray, numpy.ndarray)) else \
        numpy.size(numpy.asarray(values, dtype=object))


def _cycled(values, n, like):
    """values flattened and repeated cyclically to n elements (NumPy's put/place)."""
    if isinstance(values, numpy.ndarray):
        raise refuse_numpy("values")
    v = values if isinstance(values, ndarray) else _core.asarray(
        numpy.asarray(values, dtype=like.dtype), device=like.device)
    v = v.reshape(-1)
    if v.size == n:
        return v
    if v.size == 0:
        if n == 0:
            return v
        raise ValueError("cannot replace elements of an array with an empty set of values")
    return v[_arange(n, like.device) % v.size]


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v, v repeated when shorter.

    Parameters
    ----------
    a : ndarray
        A garray array, changed in place.
    ind : int or array_like
        Flat indices.
    v : scalar or array_like
        Values, repeated when shorter than ind.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-range indices are handled.

    Returns
    -------
    None

    See Also
    --------
    numpy.put
    """
    a = check_array(a, "put: a")           # written in place: an array, not a copy
    _check_mode(mode)
    # NumPy's order: mode, ind (a 'safe' cast: uint64 refused), an empty a, empty v
    _check_index_safe(ind, "ind")
    idx = _index_array(ind, a, "ind", take=True)
    if a.size == 0 and idx.size:
        raise IndexError("a: cannot replace elements of an empty array")
    if _size(v) == 0:           # NumPy: nothing to put, nothing changes
        return
    idx = _apply_mode(idx, a.size, mode).reshape(-1)
    vals = _cycled(v, idx.size, a)
    if a.flags.c_contiguous:
        a.reshape(-1)[idx] = vals
        return
    if idx.size and bool(_any((idx < -a.size) | (idx >= a.size))):
        raise IndexError(f"ind: index out of range for array of size {a.size}")
    a[unravel_index(idx % a.size if a.size else idx, a.shape)] = vals


def place(arr, mask, vals):
    """arr[mask] = vals, vals repeated cyclically.

    Parameters
    ----------
    arr : ndarray
        A garray array, changed in place.
    mask : ndarray or array_like
        Booleans of arr's size.
    vals : array_like
        Values, used cyclically.

    Returns
    -------
    None

    See Also
    --------
    numpy.place
    """
    arr = check_array(arr, "place: arr")   # written in place: an array, not a copy
    m = _as_bool(mask, arr, "mask")
    if m.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    m = m.reshape(arr.shape)
    _check_safe(vals, arr.dtype, "vals")
    k = int(count_nonzero(m))
    if k == 0:
        return
    arr[m] = _cycled(vals, k, arr)


def putmask(a, mask, values):
    """a[i] = values[i % len(values)] where mask[i] (flat positions).

    Parameters
    ----------
    a : ndarray
        A garray array, changed in place.
    mask : ndarray or array_like
        Booleans of a's shape.
    values : array_like
        Values, used cyclically.

    Returns
    -------
    None

    See Also
    --------
    numpy.putmask
    """
    a = check_array(a, "putmask: a")       # written in place: an array, not a copy
    m = _as_bool(mask, a, "mask")
    if m.size != a.size:        # NumPy: flat positions, any shape of a's size
        raise ValueError("putmask: mask and data must be the same size")
    m = m.reshape(a.shape)
    _check_safe(values, a.dtype, "values")
    if _size(values) == 0:      # NumPy: nothing to put, nothing changes
        return
    vals = _cycled(values, a.size, a).reshape(a.shape)
    a[...] = _where3(m, vals, a)


def _check_safe(values, dtype, name):
    """NumPy's putmask/place cast array values by the 'safe' rule (Python and NumPy
    scalars convert as in assignment)."""
    if isinstance(values, (ndarray, numpy.ndarray)) and not numpy.can_cast(
            values.dtype, dtype, "safe"):
        raise TypeError(f"{name}: Cannot cast array data from dtype('{values.dtype}') to "
                        f"dtype('{numpy.dtype(dtype)}') according to the rule 'safe'")


def _as_bool(mask, like, name):
    m = as_array(mask, name, like.device)
    return m if m.dtype == numpy.bool_ else (m != 0)


def compress(condition, a, /, axis=None, out=None):
    """Slices of ``a`` along ``axis`` where ``condition`` is true.

    Parameters
    ----------
    condition : ndarray or array_like
        1-d booleans (shorter than the axis: the rest is false).
    a : ndarray
        Input array (a garray array).
    axis : int or None, optional
        The axis (None: the flattened array).
    out : ndarray, optional
        A garray array of the result's shape to write into.

    Returns
    -------
    ndarray
        A new array.

    See Also
    --------
    numpy.compress
    """
    a = as_array(a, "compress: a")
    if axis is not None and not hasattr(type(axis), "__index__"):     # NumPy's order
        raise TypeError(f"axis: {type(axis).__name__!r} object cannot be interpreted as "
                        f"an integer")
    c = _as_bool(condition, a, "condition")
    if c.ndim != 1:
        raise ValueError("compress: condition must be a 1-d array")
    if axis is None:
        a, ax = a.reshape(-1), 0
    else:
        ax = normalize_axis(axis, a.ndim)
    # NumPy: a longer condition is fine while its extra entries are false (take raises
    # on a true one past the axis)
    return take(a, nonzero(c)[0], axis=ax, out=out)


def extract(condition, arr):
    """The elements of ``arr`` where ``condition`` is true, flattened.

    Parameters
    ----------
    condition : ndarray or array_like
        Booleans (nonzero: true) of arr's size.
    arr : ndarray
        The values (a garray array).

    Returns
    -------
    ndarray
        1-d.

    See Also
    --------
    numpy.extract
    """
    arr = as_array(arr, "extract: arr")
    c = _as_bool(condition, arr, "condition").reshape(-1)
    return take(arr.reshape(-1), nonzero(c)[0])


def choose(a, choices, out=None, mode="raise"):
    """result[i] = choices[a[i]][i], everything broadcast.

    Parameters
    ----------
    a : ndarray or array_like
        Integer indices into choices.
    choices : sequence of ndarray
        The arrays to choose from (broadcast with a).
    out : ndarray, optional
        A garray array of the result's shape to write into.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-range indices are handled.

    Returns
    -------
    ndarray
        In the choices' result_type.

    See Also
    --------
    numpy.choose
    """
    _check_mode(mode)
    if not len(choices):
        raise ValueError("choices: need at least one array")
    _check_index_safe(a, "a", lists=True)
    like = next((c for c in (a, *choices) if isinstance(c, ndarray)), None)
    like = like if like is not None else _core.asarray(0)
    a = _index_array(a, like, "a", take=True)
    chs = [as_array(c, f"choices[{i}]", like.device) for i, c in enumerate(choices)]
    dt = result_type(*chs)
    bs = broadcast_arrays(a, *chs)
    idx = _apply_mode(bs[0], len(chs), mode)
    # mode='raise': NumPy refuses negative entries too (take_along_axis would wrap them)
    if mode in (None, "raise") and idx.size and bool(_any(idx < 0)):
        raise ValueError("invalid entry in choice array")
    stacked = stack([c.astype(dt, copy=False) for c in bs[1:]], axis=0)
    try:
        r = take_along_axis(stacked, idx[None], axis=0)[0]
    except IndexError:
        raise ValueError("invalid entry in choice array") from None
    if out is not None and getattr(out, "shape", None) != r.shape:
        raise TypeError("out: choose: invalid shape for output array.")
    return _write_out(r, out, "choose")


def select(condlist, choicelist, default=0):
    """The element of the first choice whose condition holds, else ``default``.

    Parameters
    ----------
    condlist : sequence of ndarray
        Boolean conditions.
    choicelist : sequence of ndarray
        The arrays to choose from, one per condition.
    default : scalar, optional
        The value where no condition holds.

    Returns
    -------
    ndarray
        In the choices' result_type.

    See Also
    --------
    numpy.select
    """
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    conds = [as_array(c, f"condlist[{i}]") for i, c in enumerate(condlist)]
    for i, c in enumerate(conds):
        if c.dtype != numpy.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    chs = [as_array(c, f"choicelist[{i}]", conds[0].device) for i, c in enumerate(choicelist)]
    dt = result_type(*chs, default)
    if isinstance(default, numpy.ndarray):
        raise refuse_numpy("default")
    out = default if isinstance(default, ndarray) else _core.asarray(
        numpy.asarray(default, dtype=dt), device=conds[0].device)
    out = out.astype(dt, copy=False)
    for c, v in zip(reversed(conds), reversed(chs)):
        out = _where3(c, v.astype(dt, copy=False), out)
    return out


def repeat(a, repeats, /, axis=None):
    """Repeat each element of ``a`` (along ``axis``; of the flattened array when None)
    ``repeats`` times, a count or one count per element.

    Parameters
    ----------
    a : ndarray
        Input array (a garray array).
    repeats : int or array_like
        A count, or one count per element along axis.
    axis : int or None, optional
        The axis (None: the flattened array).

    Returns
    -------
    ndarray
        A new array in a's dtype.

    See Also
    --------
    numpy.repeat
    """
    a = as_array(a, "repeat: a")
    # NumPy's order: axis an integer (a C long), repeats cast 'safe' to intp, axis range
    if axis is not None and not hasattr(type(axis), "__index__"):
        raise TypeError(f"axis: {type(axis).__name__!r} object cannot be interpreted as "
                        f"an integer")
    if axis is not None and not -2**63 <= operator.index(axis) < 2**63:
        raise OverflowError("axis: Python int too large to convert to C long")
    _check_index_safe(repeats, "repeats")
    if axis is None:
        a, ax = a.reshape(-1), 0
    else:
        ax = normalize_axis(axis, a.ndim)
    n = a.shape[ax]
    if isinstance(repeats, (int, numpy.integer)) and not isinstance(repeats, bool):
        r = operator.index(repeats)
        if r < 0:
            raise ValueError("repeats may not contain negative values")
        if a.flags.c_contiguous:        # one pass (cython/_gather.pxi)
            return _core._repeat_rows(a, ax, r)
        shape = a.shape[:ax + 1] + (r,) + a.shape[ax + 1:]
        out = broadcast_to(a[(slice(None),) * (ax + 1) + (None,)], shape)
        return out.reshape(a.shape[:ax] + (n * r,) + a.shape[ax + 1:])
    rep = repeats if isinstance(repeats, ndarray) else _core.asarray(
        numpy.asarray(repeats), device=a.device)
    if _kind_of(rep.dtype) not in "iu" or rep.ndim > 1:
        raise TypeError("repeats: expected an integer or a 1-d array of integers, got "
                        f"{rep.dtype} with shape {rep.shape}")
    if rep.size == 1:
        return repeat(a, int(rep.reshape(-1)[0]), axis=ax)
    if rep.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                         f"({rep.size},)")
    rep = rep.astype(numpy.int64, copy=False)
    if n and bool(_any(rep < 0)):
        raise ValueError("repeats may not contain negative values")
    ends = cumsum(rep)
    total = int(ends[-1]) if n else 0
    # source index of every output position: mark each used element's first slot with
    # its index, then carry it forward (a running maximum)
    src = _core.zeros((total,), dtype=numpy.int64, device=a.device)
    used = nonzero(rep > 0)[0]
    if total:
        src[(ends - rep)[used]] = used
        src = maximum.accumulate(src)
    return a[(slice(None),) * ax + (src,)]
