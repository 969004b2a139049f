"""Joining and cutting along an axis: NumPy's concatenate, the stacks, block, append,
insert and delete.

Every result is allocated once and filled slice by slice with garray's strided copies
(casting on the device when dtypes differ).  Host work is on metadata only: shapes,
and the positions of ``insert``/``delete`` (``obj``), which index the array's axis and
so are metadata; no element of the data leaves the device.
"""

import warnings

import numpy

from .. import _dtypes
from .._core import empty, ndarray
from .._args import as_array, as_arrays, check_array, normalize_axis
from .common import check_cast
from .shaping import atleast_1d, atleast_2d, atleast_3d

__all__ = ["concatenate", "vstack", "row_stack", "hstack", "dstack", "column_stack", "block"]


def _at(axis, sl):
    return (slice(None),) * axis + (sl,)


def join(arrays, axis, out=None, dtype=None, casting="same_kind"):
    """The concatenation of garray ``arrays`` (one device, checked) along ``axis``."""
    if axis is None:
        arrays = tuple(a.reshape(-1) for a in arrays)
        axis = 0
    if not hasattr(type(axis), "__index__"):       # NumPy's order: the axis first
        raise TypeError(f"axis: {type(axis).__name__!r} object cannot be interpreted as "
                        f"an integer")
    first = arrays[0]
    nd = first.ndim
    if nd == 0:
        raise ValueError("arrays: zero-dimensional arrays cannot be concatenated")
    ax = normalize_axis(axis, nd)
    for i, a in enumerate(arrays):
        if a.ndim != nd:
            raise ValueError(f"arrays[{i}]: all the input arrays must have same number of "
                             f"dimensions, but arrays[0] has {nd} dimension(s) and "
                             f"arrays[{i}] has {a.ndim}")
        if any(a.shape[d] != first.shape[d] for d in range(nd) if d != ax):
            raise ValueError(f"arrays[{i}]: shape {a.shape} does not match {first.shape} "
                             f"outside axis {ax}")
    shape = list(first.shape)
    shape[ax] = sum(a.shape[ax] for a in arrays)
    if out is not None:
        check_array(out, "out")
        if out.shape != tuple(shape):
            raise ValueError(f"out: Output array is the wrong shape: {out.shape}, the "
                             f"result has shape {tuple(shape)}")
        if out.device != first.device:
            raise ValueError(f"out: on {out.device}, the arrays are on {first.device}")
        if not out.flags.writeable:        # NumPy: even when nothing would be written
            raise ValueError("out: assignment destination is read-only")
        dt = out.dtype
    else:
        dt = _dtypes.result_type(*arrays) if dtype is None else _dtypes.normalize_dtype(dtype)
    for a in arrays:
        check_cast(a.dtype, dt, casting)
    res = empty(tuple(shape), dtype=dt, device=first.device) if out is None else out
    start = 0
    for a in arrays:
        stop = start + a.shape[ax]
        if stop > start:
            res[_at(ax, slice(start, stop))] = a
        start = stop
    return res


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays along an existing axis (``axis=None``: flattened first).

    ``out`` receives the result (its dtype is the result's); ``dtype`` sets the result
    dtype (not both); ``casting`` limits the casts of the inputs (NumPy's rules).

    >>> garray.concatenate([garray.zeros(2), garray.ones(1)])
    array([0., 0., 1.])

    Parameters
    ----------
    arrays : sequence of ndarray
        The arrays to join (all on one device).
    axis : int or None, optional
        The axis to join along (None: flatten first).
    out : ndarray, optional
        A garray array of the result's shape to write into.
    dtype : dtype, optional
        The result's dtype (not with out).
    casting : str, optional
        NumPy's casting rule for the inputs' conversion.

    Returns
    -------
    ndarray
        A new array (out when given).

    See Also
    --------
    numpy.concatenate
    """
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but "
                        "both were provided.")
    return join(as_arrays(arrays, "arrays"), axis, out, dtype, casting)


def _sequence(tup, name):
    if not hasattr(tup, "__getitem__"):
        raise TypeError(f"{name}: arrays to stack must be passed as a sequence type such as "
                        f"list or tuple.")
    return as_arrays(tup, "tup")


def _atleast(a, nd):
    """``a`` with leading length-1 axes up to ``nd`` axes (a view)."""
    return a[(None,) * (nd - a.ndim)] if a.ndim < nd else a


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays vertically (1-d arrays become rows).

    Parameters
    ----------
    tup : sequence of ndarray
        The arrays to stack (all on one device).
    dtype : dtype, optional
        The result's dtype.
    casting : str, optional
        NumPy's casting rule for the inputs' conversion.

    Returns
    -------
    ndarray
        A new array.

    See Also
    --------
    numpy.vstack
    """
    arrs = [atleast_2d(a) for a in _sequence(tup, "vstack")]
    return join(arrs, 0, None, dtype, casting)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays vertically: NumPy 2's deprecated alias of ``vstack``.

    Parameters
    ----------
    tup : sequence of ndarray
        The arrays to stack (all on one device).
    dtype : dtype, optional
        The result's dtype.
    casting : str, optional
        NumPy's casting rule for the inputs' conversion.

    Returns
    -------
    ndarray
        A new array, ``vstack(tup, dtype=dtype, casting=casting)``.

    Notes
    -----
    Warns with NumPy's DeprecationWarning ("`row_stack` alias is deprecated. Use
    `np.vstack` directly."), attributed to the caller.

    See Also
    --------
    numpy.row_stack, vstack
    """
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays horizontally (along axis 1; axis 0 for 1-d).

    Parameters
    ----------
    tup : sequence of ndarray
        The arrays to stack (all on one device).
    dtype : dtype, optional
        The result's dtype.
    casting : str, optional
        NumPy's casting rule for the inputs' conversion.

    Returns
    -------
    ndarray
        A new array.

    See Also
    --------
    numpy.hstack
    """
    arrs = [atleast_1d(a) for a in _sequence(tup, "hstack")]
    if arrs and arrs[0].ndim == 1:
        return join(arrs, 0, None, dtype, casting)
    return join(arrs, 1, None, dtype, casting)


def dstack(tup):
    """Stack arrays along the third axis.

    Parameters
    ----------
    tup : sequence of ndarray
        The arrays to stack (all on one device).

    Returns
    -------
    ndarray
        A new array of at least three axes.

    See Also
    --------
    numpy.dstack
    """
    return join([atleast_3d(a) for a in _sequence(tup, "dstack")], 2)


def column_stack(tup):
    """Stack 1-d arrays as columns of a 2-d array (2-d arrays as they are).

    Parameters
    ----------
    tup : sequence of ndarray
        The arrays to stack (all on one device).

    Returns
    -------
    ndarray
        A new 2-d array.

    See Also
    --------
    numpy.column_stack
    """
    arrs = []
    for a in _sequence(tup, "column_stack"):
        if a.ndim < 2:
            a = _atleast(a, 2).T
        arrs.append(a)
    return join(arrs, 1)


# ---- block -----------------------------------------------------------------------------


def _block_index(index):
    return "arrays" + "".join(f"[{i}]" for i in index)


def _block_depths(arrays, parent=()):
    """(index of the first deepest element, largest array ndim) of a nested list; the
    checks and messages of numpy.block."""
    if type(arrays) is tuple:
        raise TypeError(f"{_block_index(parent)} is a tuple. Only lists can be used to "
                        f"arrange blocks, and np.block does not allow implicit conversion "
                        f"from tuple to ndarray.")
    if type(arrays) is list and arrays:
        found = [_block_depths(a, parent + (i,)) for i, a in enumerate(arrays)]
        first, max_nd = found[0]
        for index, nd in found[1:]:
            max_nd = max(max_nd, nd)
            if len(index) != len(first):
                raise ValueError(f"List depths are mismatched. First element was at depth "
                                 f"{len(first)}, but there is an element at depth "
                                 f"{len(index)} ({_block_index(index)})")
            if index[-1] is None:
                first = index
        return first, max_nd
    if type(arrays) is list:
        return parent + (None,), 0
    return parent, (arrays.ndim if isinstance(arrays, ndarray) else numpy.ndim(arrays))


def _block(arrays, depth, max_depth, nd, dev):
    if depth < max_depth:
        parts = [_block(a, depth + 1, max_depth, nd, dev) for a in arrays]
        return join(as_arrays(parts, "arrays"), -(max_depth - depth))
    return _atleast(as_array(arrays, "arrays", dev), nd)


def _first_device(arrays):
    if isinstance(arrays, ndarray):
        return arrays.device
    if type(arrays) is list:
        for a in arrays:
            d = _first_device(a)
            if d is not None:
                return d
    return None


def block(arrays):
    """Assemble an array from nested lists of blocks: the innermost lists join along the
    last axis, the next along the second last, and so on.

    >>> garray.block([[garray.eye(2), garray.zeros((2, 1))]]).shape
    (2, 3)

    Parameters
    ----------
    arrays : nested list of ndarray
        The blocks (arrays or scalars), nested as deep as the result has axes.

    Returns
    -------
    ndarray
        A new array in the blocks' result_type.

    See Also
    --------
    numpy.block
    """
    index, arr_nd = _block_depths(arrays)
    if index and index[-1] is None:
        raise ValueError(f"List at {_block_index(index[:-1])} cannot be empty")
    depth = len(index)
    nd = max(arr_nd, depth)
    r = _block(arrays, 0, depth, nd, _first_device(arrays))
    return r.copy() if depth == 0 else r


# ---- append / insert / delete -------------------------------------------------------
