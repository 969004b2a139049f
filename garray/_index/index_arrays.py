"""Index arrays built from shapes: ``ix_``, ``unravel_index``, ``ravel_multi_index``,
``indices`` and the diagonal and triangle index sets (``diag_indices``,
``tril_indices``, ``triu_indices`` and their ``*_from`` forms).
"""

from .._dtypes import kind_of as _kind_of
import operator

import numpy

from .._args import as_array
from .. import _core
from .._core import ndarray, broadcast_to
from .advanced import nonzero
from .common import _apply_mode, _arange, _index_array
from .._creation.ranges import arange, tril, triu
from .._manip.manipulation import stack
from .._reduce.reductions import any as _any

__all__ = ["ix_", "unravel_index", "ravel_multi_index", "indices", "diag_indices",
           "diag_indices_from", "tril_indices", "tril_indices_from", "triu_indices",
           "triu_indices_from"]

_INTP_MAX = 2**63 - 1


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
    # NumPy parses order first (None: 'C'; any case), but refuses 'A' and 'K' only after
    # checking the indices
    order = "C" if order is None else order
    if not isinstance(order, str) or order.upper() not in ("C", "F", "A", "K"):
        raise ValueError(f"order: must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    order = order.upper()
    shape = _shape_arg(shape, "shape")
    # NumPy's order: the shape, then the indices (a 'safe' cast to intp: bool passes)
    if any(s > _INTP_MAX for s in shape):
        raise ValueError("shape: Maximum allowed dimension exceeded")
    size = 1
    for s in shape:
        size *= s
    if size > _INTP_MAX:
        raise ValueError("shape: dimensions are too large; arrays and shapes with a total "
                         "size greater than 'intp' are not supported.")
    idx = indices if isinstance(indices, ndarray) else _core.asarray(
        numpy.asarray(indices))
    if idx.dtype == numpy.bool_:
        idx = idx.astype(numpy.int64)
    if _kind_of(idx.dtype) not in "iu":
        raise TypeError("indices: only int indices permitted")
    if order not in ("C", "F"):
        raise ValueError("order: only 'C' or 'F' order is permitted")
    if not shape and idx.ndim:
        raise ValueError("indices: multiple indices are not supported for 0d arrays")
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
    dims = _shape_arg(dims, "dims")
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    for m in (mode,) if isinstance(mode, str) else modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"mode: clipmode must be one of 'clip', 'raise', or 'wrap' "
                             f"(got {m!r})")
    if any(d > _INTP_MAX for d in dims):
        raise ValueError("dims: Maximum allowed dimension exceeded")
    if order not in ("C", "F"):
        raise ValueError(f"order: only 'C' or 'F' order is permitted, got {order!r}")
    strides, acc = [], 1
    for s in (reversed(dims) if order == "C" else dims):
        strides.append(acc)
        acc *= s
    if acc > _INTP_MAX:      # a stride would wrap in int64
        raise ValueError("invalid dims: array size defined by dims is larger than the "
                         "maximum possible size.")
    # NumPy casts the coordinates to intp by the 'safe' rule: bool passes
    coords = [_index_array(c.astype(numpy.int64) if getattr(c, "dtype", None) == numpy.bool_
                           else c, c if isinstance(c, ndarray) else _core.asarray(0),
                           "multi_index", error=(TypeError, "multi_index: only int indices "
                                                            "permitted")
                           ).astype(numpy.int64, copy=False)
              for c in multi_index]
    if order == "C":
        strides.reverse()
    flat = None
    for c, n, st, m in zip(coords, dims, strides, modes):
        if n == 0 and c.size:
            raise ValueError("dims: cannot unravel if shape has zero entries (is empty).")
        if m == "raise":
            if c.size and bool(_any((c < 0) | (c >= n))):
                raise ValueError("invalid entry in coordinates array")
        elif c.size:
            c = _apply_mode(c, n, m)
        term = c * st
        flat = term if flat is None else flat + term
    if flat is None:            # dims (): NumPy's flat index of the 0-d array
        return _core.asarray(numpy.int64(0))
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
    dimensions = _shape_arg(dimensions, "dimensions")
    nd = len(dimensions)
    parts = []
    for k, n in enumerate(dimensions):
        a = arange(n, dtype=dtype).reshape((1,) * k + (n,) + (1,) * (nd - k - 1))
        parts.append(a)
    if sparse:
        return tuple(parts)
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
    arr = as_array(arr, "diag_indices_from: arr")
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    idx = _arange(arr.shape[0], arr.device)
    return (idx,) * arr.ndim


def _tri_mask(n, k, m, lower, device=None):
    if k < -2**63:          # NumPy converts k to a C long
        raise OverflowError("k: Python int too large to convert to C long")
    n = max(n, 0)           # NumPy: a negative size is an empty triangle
    m = None if m is None else max(m, 0)
    k = min(max(k, -n - 1), (n if m is None else m) + 1)    # beyond: all or nothing
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
    arr = as_array(arr, "tril_indices_from: arr")
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
    arr = as_array(arr, "triu_indices_from: arr")
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return nonzero(_tri_mask(arr.shape[0], k, arr.shape[1], False, arr.device))
