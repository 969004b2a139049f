"""Adding and removing elements along an axis: NumPy's append, insert and delete, on the
joining functions (garray/_manip/joining.py) and take (garray/_index/routines.py)."""

from .._dtypes import kind_of as _kind_of
import numpy

from .._args import as_array, as_arrays, normalize_axis
from .._core import asarray, broadcast_to, empty, ndarray
from .._index.routines import take
from .joining import _at, join
from .views import moveaxis

__all__ = ["append", "insert", "delete"]


def _flat_axis(arr, axis):
    """(arr, axis) as NumPy's insert/delete take them: axis None flattens."""
    if axis is None:
        return (arr.reshape(-1) if arr.ndim != 1 else arr), 0
    return arr, normalize_axis(axis, arr.ndim)


def append(arr, values, axis=None):
    """``values`` appended to the end of ``arr`` (both flattened when ``axis`` is None).

    Parameters
    ----------
    arr : ndarray or array_like
        The array to append to.
    values : ndarray or array_like
        Values to append (of arr's shape but along axis, when axis is given).
    axis : int or None, optional
        The axis (None: both flattened).

    Returns
    -------
    ndarray
        A new array, in the inputs' result_type.

    See Also
    --------
    numpy.append
    """
    arr = as_array(arr, "arr")
    values = as_array(values, "values", arr.device)
    if axis is not None and not hasattr(type(axis), "__index__"):   # NumPy's order
        raise TypeError(f"axis: {type(axis).__name__!r} object cannot be interpreted as "
                        f"an integer")
    if axis is None:
        arr = arr.reshape(-1) if arr.ndim != 1 else arr
        values = values.reshape(-1)
        axis = arr.ndim - 1
    return join(as_arrays((arr, values), "arrays"), axis)


def _host_index(obj, argname):
    """``obj`` (positions along an axis: metadata) as a host NumPy array."""
    if isinstance(obj, ndarray):
        return obj.get()
    if isinstance(obj, numpy.ndarray):
        return obj
    return numpy.asarray(obj)


def _runs(keep):
    """[start, stop) runs of True in a host boolean vector."""
    runs, start = [], None
    for i, k in enumerate(keep.tolist()):
        if k and start is None:
            start = i
        elif not k and start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, len(keep)))
    return runs


# Past this many runs of kept positions, delete gathers (garray.take, when this build has
# it) instead of joining one slice per run: each slice copy is a launch.
GATHER_RUNS = 64


def _take_runs(arr, axis, keep):
    """arr restricted to the True positions of ``keep`` along ``axis``: a copy joined
    from one slice per run, or one gather when there are many runs."""
    runs = _runs(keep)
    if len(runs) > GATHER_RUNS:
        idx = asarray(numpy.flatnonzero(keep).astype(numpy.int64), device=arr.device)
        return take(arr, idx, axis=axis)
    pieces = [arr[_at(axis, slice(a, b))] for a, b in runs]
    if not pieces:
        return arr[_at(axis, slice(0, 0))].copy()
    return join(pieces, axis)


def delete(arr, obj, axis=None):
    """``arr`` without the sub-arrays at ``obj`` along ``axis`` (flattened when None).

    ``obj``: an int, a slice, a sequence of ints or a boolean mask of the axis length.

    Parameters
    ----------
    arr : ndarray or array_like
        Input array.
    obj : int, slice, sequence of int or bool array
        What to delete along axis.
    axis : int or None, optional
        The axis (None: flattened).

    Returns
    -------
    ndarray
        A new array.

    See Also
    --------
    numpy.delete
    """
    arr = as_array(arr, "arr")
    arr, axis = _flat_axis(arr, axis)
    n = arr.shape[axis]
    keep = numpy.ones(n, dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
    elif isinstance(obj, (int, numpy.integer)) and not isinstance(obj, (bool, numpy.bool_)):
        if not -n <= obj < n:
            raise IndexError(f"obj: index {obj} is out of bounds for axis {axis} with "
                             f"size {n}")
        keep[obj] = False
    else:
        h = _host_index(obj, "obj")
        if h.size == 0 and not isinstance(obj, (numpy.ndarray, ndarray)):
            h = h.astype(numpy.intp)
        if h.dtype == bool:
            if h.shape != (n,):
                raise ValueError(f"obj: boolean array argument obj to delete must be one "
                                 f"dimensional and match the axis length of {n}")
            keep = ~h
        else:
            keep[h,] = False     # NumPy's own IndexError for bad positions
    return _take_runs(arr, axis, keep)


def _values_for(arr, values):
    """``values`` as a garray array of arr's dtype on arr's device (NumPy's checked
    conversion for host values: 300 into uint8 raises there too)."""
    if isinstance(values, ndarray):
        if values.device != arr.device:
            raise ValueError(f"values: on {values.device}, arr is on {arr.device}")
        return values.astype(arr.dtype, copy=False)
    if isinstance(values, numpy.ndarray):
        raise TypeError("values: expected a garray.ndarray or Python values, got "
                        "numpy.ndarray (use garray.asarray to copy it to a device)")
    return asarray(numpy.asarray(values, dtype=arr.dtype), device=arr.device)


def insert(arr, obj, values, axis=None):
    """``values`` inserted before the positions ``obj`` along ``axis`` (flattened when
    None).  ``obj``: an int, a slice or a sequence of ints.

    >>> garray.insert(garray.asarray([1, 2, 3]), 1, 9)
    array([1, 9, 2, 3])

    Parameters
    ----------
    arr : ndarray or array_like
        Input array.
    obj : int, slice or sequence of int
        Positions before which to insert.
    values : ndarray, array_like or scalar
        The values to insert (broadcast; cast to arr's dtype).
    axis : int or None, optional
        The axis (None: flattened).

    Returns
    -------
    ndarray
        A new array in arr's dtype.

    See Also
    --------
    numpy.insert
    """
    arr = as_array(arr, "arr")
    arr, axis = _flat_axis(arr, axis)
    n = arr.shape[axis]
    vals = _values_for(arr, values)
    if isinstance(obj, slice):
        idx = numpy.arange(*obj.indices(n), dtype=numpy.intp)
    else:
        idx = _host_index(obj, "obj")
        if idx.dtype == bool:
            if idx.ndim != 1:
                raise ValueError("obj: boolean array argument obj to insert must be one "
                                 "dimensional")
            idx = numpy.flatnonzero(idx)
        elif idx.ndim > 1:
            raise ValueError("obj: index array argument obj to insert must be one "
                             "dimensional or scalar")
    if idx.size == 1:
        index = idx.item()
        if index < -n or index > n:         # NumPy's order (NaN passes to the next)
            raise IndexError(f"obj: index {index} is out of bounds for axis {axis} with "
                             f"size {n}")
        if not isinstance(index, int):      # NumPy: slice()'s TypeError
            raise TypeError(f"obj: slice indices must be integers or None or have an "
                            f"__index__ method, got {index!r}")
        if index < 0:
            index += n
        if vals.ndim < arr.ndim:
            vals = vals[(None,) * (arr.ndim - vals.ndim)]
        if idx.ndim == 0:
            # NumPy: a scalar position inserts values[...] as a[:, i:i+1] = values would
            vals = moveaxis(vals, 0, axis)
        numnew = vals.shape[axis]
        shape = list(arr.shape)
        shape[axis] += numnew
        new = empty(tuple(shape), dtype=arr.dtype, device=arr.device)
        new[_at(axis, slice(None, index))] = arr[_at(axis, slice(None, index))]
        new[_at(axis, slice(index, index + numnew))] = vals
        new[_at(axis, slice(index + numnew, None))] = arr[_at(axis, slice(index, None))]
        return new
    if idx.size == 0 and not isinstance(obj, (numpy.ndarray, ndarray)):
        idx = idx.astype(numpy.intp)
    if _kind_of(idx.dtype) not in "iu":
        raise IndexError("obj: arrays used as indices must be of integer (or boolean) type")
    idx = idx.astype(numpy.intp)
    if ((idx < -n) | (idx > n)).any():
        bad = idx[(idx < -n) | (idx > n)][0]
        raise IndexError(f"obj: index {bad} is out of bounds for axis {axis} with size {n}")
    idx = numpy.where(idx < 0, idx + n, idx)
    numnew = len(idx)
    shape = list(arr.shape)
    shape[axis] = numnew
    vals = _broadcast_values(vals, tuple(shape))
    # value j goes before old position idx[j]; ties keep their order (NumPy's stable sort)
    order = numpy.argsort(idx, kind="stable").tolist()
    pieces, prev = [], 0
    for j in order:
        p = int(idx[j])
        if p > prev:
            pieces.append(arr[_at(axis, slice(prev, p))])
        pieces.append(vals[_at(axis, slice(j, j + 1))])
        prev = p
    if prev < n:
        pieces.append(arr[_at(axis, slice(prev, n))])
    return join(pieces, axis) if pieces else arr.copy()


def _broadcast_values(vals, shape):
    while vals.ndim > len(shape) and vals.shape[0] == 1:
        vals = vals[0]
    return broadcast_to(vals, shape)
