"""NumPy's indexing routines on garray's advanced indexing (garray/_index/advanced.py).

Each is a composition of gathers, scatters, nonzero and elementwise kernels on the
array's device; the host handles only shapes, axes and the few counts that size a
result (the number of set elements of a mask, the total of ``repeat``'s counts).
"""

import itertools
import operator

import numpy

from .. import _core
from .._core import ndarray
from .advanced import nonzero
from .._manip.common import as_array, norm_axis as _norm_axis

__all__ = ["take", "take_along_axis", "put", "put_along_axis", "place", "putmask",
           "compress", "extract", "choose", "select", "flatnonzero", "argwhere", "where",
           "ix_", "unravel_index", "ravel_multi_index", "indices", "diag_indices",
           "diag_indices_from", "tril_indices", "tril_indices_from", "triu_indices",
           "triu_indices_from", "repeat", "ndindex", "ndenumerate", "flatiter"]


def _array(x, name):
    return as_array(x, name)


def _index_array(indices, like, name="indices"):
    """indices as an integer garray array on like's device."""
    if isinstance(indices, ndarray):
        if indices.dtype.kind not in "iu":
            raise IndexError(f"{name}: arrays used as indices must be of integer type, "
                             f"got {indices.dtype}")
        return indices
    h = numpy.asarray(indices)
    if h.size == 0 and h.dtype.kind not in "iu":
        h = h.astype(numpy.int64)
    if h.dtype.kind not in "iu":
        raise IndexError(f"{name}: arrays used as indices must be of integer type, got "
                         f"{h.dtype}")
    return _core.asarray(h, device=like.device)


def _apply_mode(idx, n, mode, name="mode"):
    if mode == "raise":
        return idx
    if n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode == "wrap":
        return idx % n
    if mode == "clip":
        from .._elementwise.functions import clip
        return clip(idx, 0, n - 1)
    raise ValueError(f"{name}: must be one of 'raise', 'wrap' or 'clip', got {mode!r}")


def _write_out(result, out, name):
    if out is None:
        return result
    _array(out, "out")
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
    a = _array(a, "take")
    if axis is None:
        a, ax = a.reshape(-1), 0
    else:
        ax = _norm_axis(axis, a.ndim)
    idx = _apply_mode(_index_array(indices, a), a.shape[ax], mode)
    return _write_out(a[(slice(None),) * ax + (idx,)], out, "take")


def _along_axis_key(arr, indices, axis, name):
    arr = _array(arr, name)
    indices = _index_array(indices, arr)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError(f"{name}: indices must be 1-d when axis is None")
        return arr.reshape(-1), (indices,)
    ax = _norm_axis(axis, arr.ndim)
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


def _arange(n, device):
    from .._creation.ranges import arange
    return arange(n, dtype=numpy.int64, device=device)


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
    target, key = _along_axis_key(arr, indices, axis, "put_along_axis")
    if axis is None and not arr.flags.c_contiguous:
        raise NotImplementedError("put_along_axis: axis=None needs a C-contiguous array")
    target[key] = values


def _cycled(values, n, like):
    """values flattened and repeated cyclically to n elements (NumPy's put/place)."""
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
    a = _array(a, "put")
    idx = _apply_mode(_index_array(ind, a, "ind"), a.size, mode).reshape(-1)
    vals = _cycled(v, idx.size, a)
    if a.flags.c_contiguous:
        a.reshape(-1)[idx] = vals
        return
    from .._reduce.reductions import any as _any
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
    arr = _array(arr, "place")
    m = _as_bool(mask, arr, "mask")
    if m.shape != arr.shape:
        m = m.reshape(arr.shape)
    from .._reduce.reductions import count_nonzero
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
    from .._elementwise.functions import where as _where3
    a = _array(a, "putmask")
    m = _as_bool(mask, a, "mask")
    vals = _cycled(values, a.size, a).reshape(a.shape)
    a[...] = _where3(m, vals, a)


def _as_bool(mask, like, name):
    m = mask if isinstance(mask, ndarray) else _core.asarray(
        numpy.asarray(mask), device=like.device)
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
    a = _array(a, "compress")
    c = _as_bool(condition, a, "condition").reshape(-1)
    if axis is None:
        a, ax = a.reshape(-1), 0
    else:
        ax = _norm_axis(axis, a.ndim)
    if c.size > a.shape[ax]:
        raise IndexError(f"index {a.shape[ax]} is out of bounds for axis {ax} with size "
                         f"{a.shape[ax]}")
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
    arr = _array(arr, "extract")
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
    from .._manip.manipulation import broadcast_arrays, stack
    if not len(choices):
        raise ValueError("choices: need at least one array")
    like = next((c for c in (a, *choices) if isinstance(c, ndarray)), None)
    like = like if like is not None else _core.asarray(0)
    a = _index_array(a, like, "a")
    chs = [c if isinstance(c, ndarray) else _core.asarray(c, device=like.device)
           for c in choices]
    from .._dtypes import result_type
    dt = result_type(*chs)
    bs = broadcast_arrays(a, *chs)
    idx = _apply_mode(bs[0], len(chs), mode)
    stacked = stack([c.astype(dt, copy=False) for c in bs[1:]], axis=0)
    try:
        r = take_along_axis(stacked, idx[None], axis=0)[0]
    except IndexError:
        raise ValueError("invalid entry in choice array") from None
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
    from .._elementwise.functions import where as _where3
    from .._dtypes import result_type
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    conds = [c if isinstance(c, ndarray) else _core.asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != numpy.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    chs = [c if isinstance(c, ndarray) else _core.asarray(c, device=conds[0].device)
           for c in choicelist]
    dt = result_type(*chs, default)
    out = default if isinstance(default, ndarray) else _core.asarray(
        numpy.asarray(default, dtype=dt), device=conds[0].device)
    out = out.astype(dt, copy=False)
    for c, v in zip(reversed(conds), reversed(chs)):
        out = _where3(c, v.astype(dt, copy=False), out)
    return out


def flatnonzero(a):
    """Indices of the nonzero elements of the flattened ``a``.

    Parameters
    ----------
    a : ndarray
        Input array (a garray array).

    Returns
    -------
    ndarray
        1-d int64 indices.

    See Also
    --------
    numpy.flatnonzero
    """
    return nonzero(_array(a, "flatnonzero").reshape(-1))[0]


def argwhere(a):
    """Indices of the nonzero elements, one row per element.

    Parameters
    ----------
    a : ndarray
        Input array (a garray array).

    Returns
    -------
    ndarray
        int64, of shape (number of nonzero elements, a.ndim).

    See Also
    --------
    numpy.argwhere
    """
    from .._manip.manipulation import stack
    a = _array(a, "argwhere")
    if a.ndim == 0:
        return _core.zeros((int(bool(a != 0)), 0), dtype=numpy.int64, device=a.device)
    return stack(nonzero(a), axis=-1)


def where(condition, x=None, y=None, /):
    """``where(condition, x, y)``: elements of x where condition else of y; with one
    argument, ``nonzero(condition)``.

    Parameters
    ----------
    condition : array_like
        Booleans (a garray array, or a sequence converted onto the default device).
    x : array_like or scalar, optional
        Values where condition holds.
    y : array_like or scalar, optional
        Values elsewhere.  Two Python scalars promote as NumPy's (``where(c, 1, 0.5)``
        is float64).  A NumPy array is refused (TypeError): copy it with asarray.

    Returns
    -------
    ndarray or tuple of ndarray
        The selected values (x and y's result_type, broadcast), or nonzero(condition)
        for one argument.

    See Also
    --------
    numpy.where
    """
    if x is None and y is None:
        return nonzero(condition if isinstance(condition, ndarray)
                       else _core.asarray(condition))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    from .._elementwise.functions import where as _where3
    return _where3(condition, x, y)


def ix_(*args):
    """Open meshes from 1-d index sequences (booleans as their nonzero indices).

    Parameters
    ----------
    *args : ndarray or sequence
        1-d integer or boolean index sequences.

    Returns
    -------
    tuple of ndarray
        One array per input, of ``len(args)`` dimensions, each of length 1 but along its
        own axis.

    See Also
    --------
    numpy.ix_
    """
    out = []
    nd = len(args)
    for k, s in enumerate(args):
        a = s if isinstance(s, ndarray) else _core.asarray(
            numpy.asarray(s) if numpy.asarray(s).size else numpy.asarray(s, numpy.intp))
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.dtype == numpy.bool_:
            a = nonzero(a)[0]
        out.append(a.reshape((1,) * k + (a.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _shape_arg(shape, name):
    if isinstance(shape, (int, numpy.integer)):
        shape = (shape,)
    shape = tuple(operator.index(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"{name}: dimensions must be non-negative, got {shape}")
    return shape


def unravel_index(indices, shape, order="C"):
    """Flat indices into a tuple of coordinate arrays for ``shape``.

    Parameters
    ----------
    indices : int or array_like
        Flat indices.
    shape : tuple of int
        The shape.
    order : {'C', 'F'}, optional
        Index order.

    Returns
    -------
    tuple of ndarray
        One int64 array per dimension.

    See Also
    --------
    numpy.unravel_index
    """
    from .._reduce.reductions import any as _any
    shape = _shape_arg(shape, "shape")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    idx = indices if isinstance(indices, ndarray) else _core.asarray(
        numpy.asarray(indices))
    if idx.dtype.kind not in "iu":
        raise TypeError("only int indices permitted")
    size = 1
    for s in shape:
        size *= s
    if idx.size and bool(_any((idx < 0) | (idx >= size))):
        raise ValueError(f"index out of bounds for array with size {size}")
    idx = idx.astype(numpy.int64, copy=False)
    dims = shape if order == "C" else shape[::-1]
    out, rest = [], idx
    for s in reversed(dims[1:]):
        out.append(rest % s)
        rest = rest // s
    out.append(rest)
    out.reverse()
    return tuple(out if order == "C" else out[::-1])


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Coordinate arrays into flat indices for ``dims``.

    Parameters
    ----------
    multi_index : tuple of array_like
        One integer array per dimension.
    dims : tuple of int
        The shape.
    mode : str or tuple of str, optional
        'raise', 'wrap' or 'clip' (per dimension).
    order : {'C', 'F'}, optional
        Index order.

    Returns
    -------
    ndarray
        int64 flat indices.

    See Also
    --------
    numpy.ravel_multi_index
    """
    from .._reduce.reductions import any as _any
    dims = _shape_arg(dims, "dims")
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    coords = [_index_array(c, c if isinstance(c, ndarray) else _core.asarray(0),
                           "multi_index").astype(numpy.int64, copy=False)
              for c in multi_index]
    strides, acc = [], 1
    for s in (reversed(dims) if order == "C" else dims):
        strides.append(acc)
        acc *= s
    if order == "C":
        strides.reverse()
    flat = None
    for c, n, st, m in zip(coords, dims, strides, modes):
        if m == "raise":
            if c.size and bool(_any((c < 0) | (c >= n))):
                raise ValueError("invalid entry in coordinates array")
        else:
            c = _apply_mode(c, n, m)
        term = c * st
        flat = term if flat is None else flat + term
    return flat


def indices(dimensions, dtype=int, sparse=False):
    """A grid of the indices of an array of shape ``dimensions``.

    Parameters
    ----------
    dimensions : sequence of int
        The grid's shape.
    dtype : dtype, optional
        The integer dtype (int64 by default).
    sparse : bool, optional
        Return broadcastable arrays instead of a dense grid.

    Returns
    -------
    ndarray or tuple of ndarray
        An array of shape ``(len(dimensions), *dimensions)``, or one array per
        axis when sparse.

    See Also
    --------
    numpy.indices
    """
    from .._creation.ranges import arange
    dimensions = _shape_arg(dimensions, "dimensions")
    nd = len(dimensions)
    parts = []
    for k, n in enumerate(dimensions):
        a = arange(n, dtype=dtype).reshape((1,) * k + (n,) + (1,) * (nd - k - 1))
        parts.append(a)
    if sparse:
        return tuple(parts)
    from .._manip.manipulation import stack
    from .._core import broadcast_to
    if nd == 0:
        return _core.empty((0,), dtype=dtype)
    return stack([broadcast_to(p, dimensions) for p in parts], axis=0)


def diag_indices(n, ndim=2):
    """Indices of the main diagonal of an ``ndim``-d array of side ``n``.

    Parameters
    ----------
    n : int
        The side of the array.
    ndim : int, optional
        Its number of axes.

    Returns
    -------
    tuple of ndarray
        ndim int64 index arrays.

    See Also
    --------
    numpy.diag_indices
    """
    idx = _arange(operator.index(n), None)
    return (idx,) * ndim


def diag_indices_from(arr):
    """diag_indices for ``arr`` (every side equal).

    Parameters
    ----------
    arr : ndarray
        An array of at least 2 axes, all of one length.

    Returns
    -------
    tuple of ndarray
        arr.ndim int64 index arrays.

    See Also
    --------
    numpy.diag_indices_from
    """
    arr = _array(arr, "diag_indices_from")
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    idx = _arange(arr.shape[0], arr.device)
    return (idx,) * arr.ndim


def _tri_mask(n, k, m, lower, device=None):
    from .._creation.ranges import tril, triu
    ones = _core.ones((n, n if m is None else m), dtype=numpy.bool_, device=device)
    return tril(ones, k=k) if lower else triu(ones, k=k)


def tril_indices(n, k=0, m=None):
    """Indices of the lower triangle of an (n, m) array.

    Parameters
    ----------
    n : int
        Number of rows.
    k : int, optional
        Diagonal offset.
    m : int, optional
        Number of columns (n by default).

    Returns
    -------
    tuple of ndarray
        Row and column int64 indices.

    See Also
    --------
    numpy.tril_indices
    """
    return nonzero(_tri_mask(operator.index(n), operator.index(k),
                             None if m is None else operator.index(m), True))


def triu_indices(n, k=0, m=None):
    """Indices of the upper triangle of an (n, m) array.

    Parameters
    ----------
    n : int
        Number of rows.
    k : int, optional
        Diagonal offset.
    m : int, optional
        Number of columns (n by default).

    Returns
    -------
    tuple of ndarray
        Row and column int64 indices.

    See Also
    --------
    numpy.triu_indices
    """
    return nonzero(_tri_mask(operator.index(n), operator.index(k),
                             None if m is None else operator.index(m), False))


def tril_indices_from(arr, k=0):
    """tril_indices for a 2-d ``arr``.

    Parameters
    ----------
    arr : ndarray
        A 2-d array.
    k : int, optional
        Diagonal offset.

    Returns
    -------
    tuple of ndarray
        Row and column int64 indices.

    See Also
    --------
    numpy.tril_indices_from
    """
    arr = _array(arr, "tril_indices_from")
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return nonzero(_tri_mask(arr.shape[0], k, arr.shape[1], True, arr.device))


def triu_indices_from(arr, k=0):
    """triu_indices for a 2-d ``arr``.

    Parameters
    ----------
    arr : ndarray
        A 2-d array.
    k : int, optional
        Diagonal offset.

    Returns
    -------
    tuple of ndarray
        Row and column int64 indices.

    See Also
    --------
    numpy.triu_indices_from
    """
    arr = _array(arr, "triu_indices_from")
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return nonzero(_tri_mask(arr.shape[0], k, arr.shape[1], False, arr.device))


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
    from .._core import broadcast_to
    from .._elementwise.ufuncs import maximum
    a = _array(a, "repeat")
    if axis is None:
        a, ax = a.reshape(-1), 0
    else:
        ax = _norm_axis(axis, a.ndim)
    n = a.shape[ax]
    if isinstance(repeats, (int, numpy.integer)) and not isinstance(repeats, bool):
        r = operator.index(repeats)
        if r < 0:
            raise ValueError("repeats may not contain negative values")
        shape = a.shape[:ax + 1] + (r,) + a.shape[ax + 1:]
        out = broadcast_to(a[(slice(None),) * (ax + 1) + (None,)], shape)
        return out.reshape(a.shape[:ax] + (n * r,) + a.shape[ax + 1:])
    rep = repeats if isinstance(repeats, ndarray) else _core.asarray(
        numpy.asarray(repeats), device=a.device)
    if rep.dtype.kind not in "iu" or rep.ndim > 1:
        raise TypeError("repeats: expected an integer or a 1-d array of integers, got "
                        f"{rep.dtype} with shape {rep.shape}")
    if rep.size == 1:
        return repeat(a, int(rep.reshape(-1)[0]), axis=ax)
    if rep.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                         f"({rep.size},)")
    from .._reduce.reductions import any as _any, cumsum
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


def ndindex(*shape):
    """An iterator over the index tuples of an array of ``shape`` (C order).

    Parameters
    ----------
    *shape : int
        The shape (or one tuple).

    Returns
    -------
    iterator
        Of index tuples.

    See Also
    --------
    numpy.ndindex
    """
    if len(shape) == 1 and not isinstance(shape[0], (int, numpy.integer)):
        shape = tuple(shape[0])
    return itertools.product(*(range(operator.index(s)) for s in shape))


def ndenumerate(arr):
    """(index, value) pairs of ``arr`` in C order; the values come to the host in one
    copy, as NumPy scalars.

    Parameters
    ----------
    arr : ndarray
        Input array.

    Returns
    -------
    iterator
        Of (index tuple, NumPy scalar) pairs.

    See Also
    --------
    numpy.ndenumerate
    """
    h = _core.asnumpy(_array(arr, "ndenumerate"))
    return numpy.ndenumerate(h)


class flatiter:
    """``x.flat``: a 1-d view of x in C order for reading, writing and iterating.
    Indexing reads or writes x's elements through garray's indexing (a flattened copy
    is taken for reads of a non-contiguous x); iteration brings the values to the host
    once.

    Parameters
    ----------
    base : ndarray
        The array to iterate over.

    See Also
    --------
    numpy.flatiter
    """

    def __init__(self, base):
        self.base = base

    def __len__(self):
        return self.base.size

    def _flat(self):
        return self.base.reshape(-1)

    def __getitem__(self, key):
        return self._flat()[key]

    def __setitem__(self, key, value):
        b = self.base
        if b.flags.c_contiguous:
            b.reshape(-1)[key] = value
            return
        idx = _arange(b.size, b.device)[key]
        if not isinstance(idx, ndarray) or idx.ndim == 0:
            idx = idx.reshape((1,))
        b[unravel_index(idx, b.shape)] = value

    def __iter__(self):
        return iter(_core.asnumpy(self._flat()))

    def copy(self):
        """A 1-d copy of the array's elements in C order (``x.flatten()``).

        Returns
        -------
        ndarray
            A new 1-d array on the array's device.
        """
        return self._flat().copy()

    def __array__(self, dtype=None, copy=None):
        return numpy.asarray(_core.asnumpy(self._flat()), dtype=dtype)
