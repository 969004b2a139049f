"""Diagonals and triangles: diagonal (a strided view), diag, diagflat, trace,
fill_diagonal, vander, tri, mask_indices.

A diagonal is a view whose stride is the sum of two axes' strides, made by the checked
strided-view primitive (cython/_strided.pxi, Note [Strided views]); writing into one
(diag, fill_diagonal) is a strided copy.  vander's powers are garray's cumprod; tri is
garray's tril of ones.  Nothing but shapes and offsets is computed on the host.
"""

import operator

import numpy

from .. import _core, _dtypes
from .._core import broadcast_to, ndarray, zeros
from .._args import as_array, check_array, normalize_axis
from .._creation.ranges import tril
from .._index.advanced import nonzero
from .._reduce.reductions import sum as _sum
from .._reduce.scans import cumprod
from .shaping import resize

__all__ = ["diagonal", "diag", "diagflat", "trace", "fill_diagonal", "vander", "tri",
           "mask_indices"]


def _int(v, argname):
    if isinstance(v, bool) or not hasattr(type(v), "__index__"):
        raise TypeError(f"{argname}: expected an integer, got {type(v).__name__}")
    return operator.index(v)


def _diagonal_view(a, offset, axis1, axis2, writeable):
    # NumPy's order: the integers (a bool offset is one; a C int), then the dimensions
    offset = operator.index(offset) if isinstance(offset, bool) else _int(offset, "offset")
    if not -2**31 <= offset < 2**31:
        raise OverflowError("offset: Python int too large to convert to C int")
    for name, ax in (("axis1", axis1), ("axis2", axis2)):
        if not hasattr(type(ax), "__index__"):
            raise TypeError(f"{name}: {type(ax).__name__!r} object cannot be interpreted "
                            f"as an integer")
        if not -2**63 <= operator.index(ax) < 2**63:
            raise OverflowError(f"{name}: Python int too large to convert to C long")
    if a.ndim < 2:
        raise ValueError("a: diag requires an array of at least two dimensions")
    i = normalize_axis(axis1, a.ndim, "axis1")
    j = normalize_axis(axis2, a.ndim, "axis2")
    if i == j:
        raise ValueError("axis1 and axis2 cannot be the same")
    rest = [d for d in range(a.ndim) if d not in (i, j)]
    if offset >= 0:
        n = max(0, min(a.shape[i], a.shape[j] - offset))
        start = offset * a.strides[j]
    else:
        n = max(0, min(a.shape[i] + offset, a.shape[j]))
        start = -offset * a.strides[i]
    shape = tuple(a.shape[d] for d in rest) + (n,)
    strides = tuple(a.strides[d] for d in rest) + (a.strides[i] + a.strides[j],)
    size = n
    for d in rest:
        size *= a.shape[d]
    return _core._strided_view(a, shape, strides, start if size else 0, writeable)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal ``offset`` of the plane (axis1, axis2), as a read-only view whose
    last axis runs along the diagonal (NumPy's layout and flag).

    >>> garray.diagonal(garray.eye(3) * 2)
    array([2., 2., 2.])

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    offset : int, optional
        Offset of the diagonal from the main one (positive: above).
    axis1 : int, optional
        First axis of the 2-d sub-arrays.
    axis2 : int, optional
        Second axis of the 2-d sub-arrays.

    Returns
    -------
    ndarray
        A read-only view.

    See Also
    --------
    numpy.diagonal
    """
    return _diagonal_view(as_array(a, "a"), offset, axis1, axis2, False)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along a diagonal (garray.sum of diagonal(...) over its last axis).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    offset : int, optional
        Offset of the diagonal from the main one (positive: above).
    axis1 : int, optional
        First axis of the 2-d sub-arrays.
    axis2 : int, optional
        Second axis of the 2-d sub-arrays.
    dtype : dtype, optional
        The dtype of the sum (as garray.sum).
    out : ndarray, optional
        A garray array of the result's shape to write into.

    Returns
    -------
    ndarray
        The sums along the diagonals (dtypes as garray.sum); 0-d for 2-d input.

    See Also
    --------
    numpy.trace
    """
    return _sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


def diag(v, k=0):
    """The k-th diagonal of a 2-d array (a view), or a 2-d array with the 1-d ``v`` on
    its k-th diagonal.

    Parameters
    ----------
    v : ndarray or array_like
        A 2-d array (its diagonal is returned) or a 1-d array (placed on a diagonal).
    k : int, optional
        The diagonal: 0 the main one, positive above, negative below.

    Returns
    -------
    ndarray
        A 1-d view for 2-d input, a new 2-d array for 1-d input.

    See Also
    --------
    numpy.diag
    """
    v = as_array(v, "v")
    if v.ndim not in (1, 2):
        raise ValueError("v: Input must be 1- or 2-d.")
    k = _int(k, "k")
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("v: Input must be 1- or 2-d.")
    n = v.shape[0] + abs(k)
    res = zeros((n, n), dtype=v.dtype, device=v.device)
    _diagonal_view(res, k, 0, 1, True)[...] = v
    return res


def diagflat(v, k=0):
    """A 2-d array with the flattened ``v`` on its k-th diagonal.

    Parameters
    ----------
    v : ndarray or array_like
        Values, flattened.
    k : int, optional
        The diagonal: 0 the main one, positive above, negative below.

    Returns
    -------
    ndarray
        A new 2-d array in v's dtype.

    See Also
    --------
    numpy.diagflat
    """
    return diag(as_array(v, "v").reshape(-1), k)


def fill_diagonal(a, val, wrap=False):
    """Write ``val`` (a scalar, or values used cyclically) into the main diagonal of
    ``a`` in place: a[i, i, ..., i].  2-d arrays taller than wide with ``wrap`` restart
    the diagonal every ncols + 1 rows, as NumPy's flat-index definition does.

    Parameters
    ----------
    a : ndarray
        A garray array of at least 2 axes, all of one length for more than 2; written in
        place.
    val : scalar or array_like
        The value(s), used cyclically.
    wrap : bool, optional
        For tall 2-d arrays, restart the diagonal after N columns (NumPy's rule).

    Returns
    -------
    None

    See Also
    --------
    numpy.fill_diagonal
    """
    check_array(a, "a")
    if a.ndim < 2:
        raise ValueError("a: array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise ValueError("a: All dimensions of input must be of equal length")
    if not a.flags.writeable:
        raise ValueError("a: assignment destination is read-only")
    if isinstance(val, (str, bytes)):       # NumPy parses text into a's dtype, even for
        try:                                # an empty a (ValueError if it cannot)
            val = numpy.asarray(val, dtype=a.dtype).item()
        except ValueError as e:
            raise ValueError(f"val: {e}") from None
    rows, cols = (a.shape[0], a.shape[1]) if a.ndim == 2 else (a.shape[0], a.shape[0])
    # blocks of rows that each hold one run of the diagonal (one block without wrap)
    blocks = []
    r = 0
    while r < rows and cols:
        blocks.append((r, min(cols, rows - r)))
        if not (wrap and a.ndim == 2):
            break
        r += cols + 1
    total = sum(n for _, n in blocks)
    if not total:
        return
    if a.ndim > 2:
        views = [_core._strided_view(a, (rows,), (sum(a.strides),), 0, True)]
    else:
        views = [_diagonal_view(a[r0:], 0, 0, 1, True) for r0, _ in blocks]
    if isinstance(val, (bool, int, float, complex)):
        for v in views:
            v[...] = val
        return
    vals = as_array(val, "val", a.device)
    if vals.size == 0:          # NumPy: a.flat[...] = [] writes nothing
        return
    vals = resize(vals, total)
    start = 0
    for v in views:
        n = v.shape[0]
        v[...] = vals[start:start + n]
        start += n


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-d ``x``: columns are powers of ``x``, decreasing
    from N-1 (increasing from 0 with ``increasing``); dtype promote_types(x.dtype,
    int64). Powers are garray's cumprod along the row.

    Parameters
    ----------
    x : ndarray or array_like
        1-d input.
    N : int, optional
        Number of columns (len(x) by default).
    increasing : bool, optional
        Powers increasing from 0 left to right.

    Returns
    -------
    ndarray
        A new 2-d array of dtype promote_types(x.dtype, int64).

    See Also
    --------
    numpy.vander
    """
    x = as_array(x, "x")
    if x.ndim != 1:
        raise ValueError("x: x must be a one-dimensional array or sequence.")
    n = x.shape[0]
    N = n if N is None else _int(N, "N")
    if N < 0:
        raise ValueError(f"N: negative dimensions are not allowed, got {N}")
    dt = numpy.promote_types(x.dtype, numpy.int64)    # NumPy's rule (uint64 -> float64)
    v = _core.empty((n, N), dtype=dt, device=x.device)
    tmp = v if increasing else v[:, ::-1]
    if N > 0:
        tmp[:, 0] = 1
    if N > 1:
        cols = broadcast_to(x.astype(dt)[:, None], (n, N - 1))
        tmp[:, 1:] = cumprod(cols, axis=1)
    return v


def tri(N, M=None, k=0, dtype=float, *, device=None):
    """An N x M array with ones at and below the k-th diagonal, zeros elsewhere.

    Parameters
    ----------
    N : int
        Number of rows.
    M : int, optional
        Number of columns (N by default).
    k : int, optional
        The diagonal: 0 the main one, positive above, negative below.
    dtype : dtype, optional
        The result's dtype (float64 by default).
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        A new N x M array.

    See Also
    --------
    numpy.tri
    """
    N = _int(N, "N")
    M = N if M is None else _int(M, "M")
    k = _int(k, "k")
    dt = _dtypes.normalize_dtype("float64" if dtype is float else
                                 "int64" if dtype is int else
                                 "complex128" if dtype is complex else
                                 "bool" if dtype is bool else dtype)
    for name, v in (("N", N), ("M", M)):
        if v < 0:
            raise ValueError(f"{name}: negative dimensions are not allowed")
    return tril(_core.ones((N, M), dtype=dt, device=device), k=k)


def mask_indices(n, mask_func, k=0):
    """The indices where ``mask_func(ones((n, n)), k)`` is nonzero (e.g. mask_func=triu
    gives the upper triangle).

    Parameters
    ----------
    n : int
        The size of the square mask.
    mask_func : callable
        Called as mask_func(ones((n, n)), k), e.g. garray.triu.
    k : scalar, optional
        The second argument of mask_func.

    Returns
    -------
    tuple of ndarray
        The row and column indices (int64) where the mask is nonzero.

    See Also
    --------
    numpy.mask_indices
    """
    m = _core.ones((_int(n, "n"),) * 2, dtype=_dtypes.normalize_dtype("int64"))
    try:
        a = mask_func(m, k)
    except TypeError:
        a = mask_func(m, k=k)     # garray's Array API tril/triu take k by keyword
    return nonzero(a != 0)
