"""NumPy's shape functions: views where NumPy gives views (ravel of contiguous arrays,
swapaxes, rollaxis, rot90, flips, atleast_*d, trim_zeros), garray's strided copies
where it copies (tile and resize copy a stride-0 broadcast view), and the in-place
``copyto``.  Host work is on shapes only; ``trim_zeros`` brings one index per axis to
the host, found on the device by reductions.  The splits are in
garray/_manip/splitting.py.
"""

import operator

from .. import _dtypes
from .._core import broadcast_shapes, broadcast_to, ndarray, permute_dims, zeros
from .._args import as_array, check_array, normalize_axis, normalize_axis_tuple
from .common import axis_error, check_cast, int_tuple
from .._elementwise.functions import where as _where
from .._reduce import reductions as _reductions

__all__ = ["tile", "resize", "atleast_1d", "atleast_2d", "atleast_3d", "ravel", "swapaxes",
           "rollaxis", "rot90", "fliplr", "flipud", "trim_zeros", "copyto",
           "matrix_transpose"]


def tile(A, reps, /):
    """``A`` repeated ``reps`` times along each axis (``reps`` may have more entries than
    ``A`` has axes: ``A`` gains leading axes; fewer: leading axes are not repeated).

    >>> garray.tile(garray.asarray([1, 2]), 2)
    array([1, 2, 1, 2])
     Array API's tile(x, repetitions).

    Parameters
    ----------
    A : ndarray or array_like
        Input array.
    reps : int or tuple of int
        Repetitions per axis.

    Returns
    -------
    ndarray
        A new array in A's dtype.

    See Also
    --------
    numpy.tile : NumPy's; the Array API's is ``tile(x, repetitions)``, the same call.
    """
    A = as_array(A, "A")
    reps = int_tuple(reps, "reps")
    for r in reps:
        if r < 0:
            raise ValueError(f"reps: negative dimensions are not allowed, got {reps}")
    nd = max(A.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    shape = (1,) * (nd - A.ndim) + A.shape
    # (r0, s0, r1, s1, ...) as a broadcast of A with a length-1 axis before each of its
    # axes; one strided copy writes every repetition at once
    inter = A.reshape(shape)[(None, slice(None)) * nd] if nd else A
    full = broadcast_to(inter, tuple(v for r, s in zip(reps, shape) for v in (r, s)))
    return full.copy().reshape(tuple(r * s for r, s in zip(reps, shape)))


def resize(a, new_shape):
    """A new array of ``new_shape`` filled with ``a``'s elements repeated cyclically (C
    order); zeros when ``a`` is empty (this is numpy.resize, not ndarray.resize).

    Parameters
    ----------
    a : ndarray or array_like
        Input array.
    new_shape : int or tuple of int
        The result's shape.

    Returns
    -------
    ndarray
        A new array in a's dtype.

    See Also
    --------
    numpy.resize
    """
    a = as_array(a, "a")
    shape = int_tuple(new_shape, "new_shape")
    size = 1
    for s in shape:
        if s < 0:
            raise ValueError("new_shape: all elements of `new_shape` must be non-negative")
        size *= s
    if a.size == 0 or size == 0:
        return zeros(shape, dtype=a.dtype, device=a.device)
    flat = a.reshape(-1)
    reps = -(-size // a.size)
    return tile(flat, reps)[:size].reshape(shape)


def _atleast(arys, nd, place):
    res = []
    for x in arys:
        x = as_array(x, "arys")
        if x.ndim < nd:
            x = x[place[x.ndim]]
        res.append(x)
    return res[0] if len(res) == 1 else tuple(res)


_S = slice(None)


def atleast_1d(*arys):
    """Views with at least one axis (0-d -> shape (1,)).

    Parameters
    ----------
    *arys : ndarray or array_like
        One or more arrays.

    Returns
    -------
    ndarray or tuple of ndarray
        One view per input (a single array for one input).

    See Also
    --------
    numpy.atleast_1d
    """
    return _atleast(arys, 1, {0: (None,)})


def atleast_2d(*arys):
    """Views with at least two axes (1-d (N,) -> (1, N)).

    Parameters
    ----------
    *arys : ndarray or array_like
        One or more arrays.

    Returns
    -------
    ndarray or tuple of ndarray
        One view per input (a single array for one input).

    See Also
    --------
    numpy.atleast_2d
    """
    return _atleast(arys, 2, {0: (None, None), 1: (None, _S)})


def atleast_3d(*arys):
    """Views with at least three axes ((N,) -> (1, N, 1), (M, N) -> (M, N, 1)).

    Parameters
    ----------
    *arys : ndarray or array_like
        One or more arrays.

    Returns
    -------
    ndarray or tuple of ndarray
        One view per input (a single array for one input).

    See Also
    --------
    numpy.atleast_3d
    """
    return _atleast(arys, 3, {0: (None, None, None), 1: (None, _S, None),
                              2: (_S, _S, None)})


def ravel(a, order="C"):
    """The elements as a 1-d array: a view when the layout allows, else a copy.

    ``order``: 'C' (row-major), 'F' (column-major), 'A' (F when ``a`` is
    Fortran-contiguous and not C-contiguous), 'K' (axes by decreasing absolute stride,
    each read in its own direction, as NumPy does).

    Parameters
    ----------
    a : ndarray or array_like
        Input array.
    order : {'C', 'F', 'A', 'K'}, optional
        The order the elements are read in.

    Returns
    -------
    ndarray
        1-d: a view when the layout allows, else a copy.

    See Also
    --------
    numpy.ravel
    """
    a = as_array(a, "a")
    if order not in ("C", "F", "A", "K", None):
        raise ValueError(f"order: must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order == "A":
        order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    if order == "K":
        if a.flags.c_contiguous:
            order = "C"
        elif a.flags.f_contiguous:
            order = "F"
        else:
            perm = sorted(range(a.ndim), key=lambda i: -abs(a.strides[i]))
            a = permute_dims(a, tuple(perm))
            order = "C"
    return a.reshape(-1, order=order or "C")


def swapaxes(a, axis1, axis2):
    """``a`` with two axes interchanged (a view).

    Parameters
    ----------
    a : ndarray
        Input array.
    axis1 : int
        First axis.
    axis2 : int
        Second axis.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.swapaxes
    """
    a = as_array(a, "a")
    for name, ax in (("axis1", axis1), ("axis2", axis2)):     # NumPy's order: types first
        if not hasattr(type(ax), "__index__"):
            raise TypeError(f"{name}: {type(ax).__name__!r} object cannot be interpreted "
                            f"as an integer")
        if not -2**63 <= operator.index(ax) < 2**63:
            raise OverflowError(f"{name}: Python int too large to convert to C long")
    i = normalize_axis(axis1, a.ndim, "axis1")
    j = normalize_axis(axis2, a.ndim, "axis2")
    perm = list(range(a.ndim))
    perm[i], perm[j] = j, i
    return permute_dims(a, tuple(perm))


def rollaxis(a, axis, start=0):
    """Move ``axis`` backwards until it lies before position ``start`` (a view; prefer
    moveaxis).

    Parameters
    ----------
    a : ndarray
        Input array.
    axis : int
        The axis to move.
    start : int, optional
        The position it moves before.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.rollaxis
    """
    a = as_array(a, "a")
    n = a.ndim
    axis = normalize_axis(axis, n)
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise axis_error(f"start: 'start' arg requires {-n} <= start < {n + 1}, but "
                         f"{start} was passed in")
    if axis < start:
        start -= 1
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return permute_dims(a, tuple(axes))


def _flip(m, axis):
    return m[(_S,) * axis + (slice(None, None, -1),)]


def rot90(m, k=1, axes=(0, 1)):
    """``m`` rotated by 90 degrees ``k`` times in the plane of ``axes``, from the first
    towards the second (a view).

    Parameters
    ----------
    m : ndarray or array_like
        Input array.
    k : int, optional
        Number of quarter turns.
    axes : tuple of two int, optional
        The plane of the rotation.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.rot90
    """
    m = as_array(m, "m")
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("axes: len(axes) must be 2.")
    a0, a1 = (operator.index(v) for v in axes)
    if a0 == a1 or abs(a0 - a1) == m.ndim:
        raise ValueError("axes: Axes must be different.")
    if not (-m.ndim <= a0 < m.ndim and -m.ndim <= a1 < m.ndim):
        raise ValueError(f"axes: Axes={axes} out of range for array of ndim={m.ndim}.")
    a0, a1 = a0 % m.ndim, a1 % m.ndim
    k = operator.index(k) % 4
    if k == 0:
        return m[...]
    if k == 2:
        return _flip(_flip(m, a0), a1)
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return permute_dims(_flip(m, a1), tuple(perm))
    return _flip(permute_dims(m, tuple(perm)), a1)


def fliplr(m):
    """Reverse the columns (axis 1) of an array with >= 2 axes (a view).

    Parameters
    ----------
    m : ndarray or array_like
        Input array.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.fliplr
    """
    m = as_array(m, "m")
    if m.ndim < 2:
        raise ValueError("m: Input must be >= 2-d.")
    return _flip(m, 1)


def flipud(m):
    """Reverse the rows (axis 0) of an array with >= 1 axis (a view).

    Parameters
    ----------
    m : ndarray or array_like
        Input array.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.flipud
    """
    m = as_array(m, "m")
    if m.ndim < 1:
        raise ValueError("m: Input must be >= 1-d.")
    return _flip(m, 0)


# ---- trim_zeros ------------------------------------------------------------------


def trim_zeros(filt, trim="fb", axis=None):
    """``filt`` without its leading ('f') and/or trailing ('b') zeros along ``axis``
    (all axes when None): the slice of the bounding box of the nonzero elements (a view).

    The box is found on the device: per axis, argmax of the any-nonzero mask from each
    end; only those indices come to the host.  A 1-d list or tuple gives a list or tuple,
    as NumPy's.

    Parameters
    ----------
    filt : ndarray, list or tuple
        Input.
    trim : str, optional
        'f' (leading), 'b' (trailing) or 'fb' (both).
    axis : int, tuple of int or None, optional
        The axes to trim (all by default).

    Returns
    -------
    ndarray, list or tuple
        A view (a list or tuple for a list or tuple input).

    See Also
    --------
    numpy.trim_zeros
    """
    x = as_array(filt, "filt")
    trim = str(trim).lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"trim: unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(x.ndim)) if axis is None else normalize_axis_tuple(axis, x.ndim)
    if not axes:
        return filt
    # a 1-d Python sequence is sliced itself (NumPy: list in, list out)
    as_seq = isinstance(filt, (list, tuple)) and x.ndim == 1
    mask = x if x.dtype == _dtypes.normalize_dtype("bool") else x != 0
    if x.size == 0 or not bool(_reductions.any(mask)):
        key = tuple(slice(0, 0) if ax in axes else _S for ax in range(x.ndim))
        return filt[key[0]] if as_seq else x[key]
    key = []
    for ax in range(x.ndim):
        if ax not in axes:
            key.append(_S)
            continue
        others = tuple(i for i in range(x.ndim) if i != ax)
        line = _reductions.any(mask, axis=others) if others else mask
        start = int(_reductions.argmax(line)) if "f" in trim else None
        stop = x.shape[ax] - int(_reductions.argmax(line[::-1])) if "b" in trim else None
        key.append(slice(start, stop))
    return filt[key[0]] if as_seq else x[tuple(key)]


# ---- copyto ------------------------------------------------------------------------


def copyto(dst, src, casting="same_kind", where=True):
    """Copy ``src`` (broadcast) into ``dst`` in place, where ``where`` is True.

    ``casting`` limits the cast from src's dtype to dst's (NumPy's rules; Python scalars
    are checked by value as NumPy 2 does).

    Parameters
    ----------
    dst : ndarray
        The garray array written in place.
    src : ndarray, array_like or scalar
        The values, broadcast to dst's shape.
    casting : str, optional
        NumPy's rule for the cast from src's dtype to dst's.
    where : array_like of bool, optional
        Where to copy (broadcast to dst's shape).

    Returns
    -------
    None

    See Also
    --------
    numpy.copyto
    """
    check_array(dst, "dst")
    if not dst.flags.writeable:
        raise ValueError("dst: assignment destination is read-only")
    if isinstance(src, ndarray):
        if src.device != dst.device:
            raise ValueError(f"src: on {src.device}, dst is on {dst.device}")
        check_cast(src.dtype, dst.dtype, casting)
    elif isinstance(src, (bool, int, float, complex)):
        kind = _dtypes.result_type_scalar(dst.dtype, src)
        check_cast(_dtypes.normalize_dtype(kind), dst.dtype, casting)
    else:
        src = as_array(src, "src", dst.device)
        check_cast(src.dtype, dst.dtype, casting)
    if isinstance(src, ndarray):
        shape = broadcast_shapes(src.shape, dst.shape)
        lead = len(shape) - dst.ndim
        if shape[lead:] != dst.shape or any(n != 1 for n in shape[:lead]):
            raise ValueError(f"src: could not broadcast input array from shape "
                             f"{src.shape} into shape {dst.shape}")
    if where is True:
        dst[...] = src
        return
    w = as_array(where, "where", dst.device)
    if w.dtype != _dtypes.normalize_dtype("bool"):
        check_cast(w.dtype, "bool", "safe", "where")
    if broadcast_shapes(w.shape, dst.shape) != dst.shape:
        raise ValueError(f"where: could not broadcast where mask from shape {w.shape} "
                         f"into shape {dst.shape}")
    if isinstance(src, ndarray) and src.dtype != dst.dtype:
        src = src.astype(dst.dtype)
    dst[...] = _where(w, src, dst)


def matrix_transpose(x, /):
    """Transpose the last two axes (a view; at least 2 axes).

    Parameters
    ----------
    x : ndarray
        An array of at least two axes.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.matrix_transpose
    """
    x = as_array(x, "x")
    if x.ndim < 2:
        raise ValueError(f"x: matrix_transpose needs at least 2 axes, got shape {x.shape}")
    return x.mT
