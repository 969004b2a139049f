"""Array manipulation: views where the layout allows, garray's copies otherwise.

``flip`` and ``unstack`` are views; ``concat``,
``stack`` and ``roll`` allocate the result and fill it slice by slice with garray's
strided copies (and casts, when the inputs' dtypes differ).  NumPy's other manipulation
functions live beside this module: joining (concatenate, the stacks, block, insert,
delete), shaping (tile, ravel, flips, copyto ...), splitting (the splits), pad, diagonal
and garray.lib.stride_tricks.
"""

import operator

from .._args import as_array, as_arrays, normalize_axis
from .._core import ndarray
from .joining import join

__all__ = ["flip", "unstack", "concat", "stack", "roll"]


def flip(x, /, axis=None):
    """Reverse the order of elements along ``axis`` (all axes by default); a view.
    ``axis`` may be given by position, as NumPy's.

    Parameters
    ----------
    x : ndarray
        Input array.
    axis : int, tuple of int or None, optional
        The axes to reverse (all by default).

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.flip
    """
    x = as_array(x, "x")
    axes = range(x.ndim) if axis is None else (
        axis if isinstance(axis, tuple) else (axis,))
    axes = [normalize_axis(a, x.ndim) for a in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("axis: repeated axis")
    return x[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))]


def unstack(x, /, *, axis=0):
    """Split ``x`` along ``axis`` into a tuple of views.

    Parameters
    ----------
    x : ndarray
        Input array.
    axis : int, optional
        The axis to split along.

    Returns
    -------
    tuple of ndarray
        Views, one per index along axis.
    """
    x = as_array(x, "x")
    a = normalize_axis(axis, x.ndim)
    return tuple(x[(slice(None),) * a + (i,)] for i in range(x.shape[a]))


def concat(arrays, /, *, axis=0):
    """Join arrays along an existing axis (``axis=None`` flattens first); the result
    dtype is the arrays' result_type (garray.concatenate is NumPy's form).

    Parameters
    ----------
    arrays : sequence of ndarray
        The arrays to join (all on one device).
    axis : int or None, optional
        The axis to join along (None: flatten first).

    Returns
    -------
    ndarray
        A new array in the arrays' result_type.

    See Also
    --------
    garray.concatenate
    """
    return join(as_arrays(arrays, "arrays"), axis)


def stack(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays of one shape along a new axis (NumPy's ``out``, ``dtype`` and
    ``casting`` as in concatenate).

    Parameters
    ----------
    arrays : sequence of ndarray
        The arrays to join (all on one device).
    axis : int, optional
        The position of the new axis in the result.
    out : ndarray, optional
        A garray array of the result's shape to write into.
    dtype : dtype, optional
        The result's dtype (not with out).
    casting : str, optional
        NumPy's casting rule for the inputs' conversion.

    Returns
    -------
    ndarray
        A new array with one more axis.

    See Also
    --------
    numpy.stack
    """
    if out is not None and dtype is not None:
        raise TypeError("stack() only takes `out` or `dtype` as an argument, but both "
                        "were provided.")
    arrays = as_arrays(arrays, "arrays")
    shape = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.shape != shape:
            raise ValueError(f"arrays[{i}]: shape {a.shape} differs from {shape}")
    ax = normalize_axis(axis, len(shape) + 1)
    expanded = [a[(slice(None),) * ax + (None,)] for a in arrays]
    return join(expanded, ax, out, dtype, casting)


def roll(x, /, shift, axis=None):
    """Roll elements along ``axis`` (flattened when None).

    Parameters
    ----------
    x : ndarray
        Input array.
    shift : int or tuple of int
        Positions to roll by (per axis when a tuple).
    axis : int, tuple of int or None, optional
        The axes (None: the flattened array, reshaped back).

    Returns
    -------
    ndarray
        A new array.

    See Also
    --------
    numpy.roll
    """
    x = as_array(x, "x")
    if axis is None:
        return roll(x.reshape(-1), shift, axis=0).reshape(x.shape)
    shifts = shift if isinstance(shift, tuple) else (shift,)
    axes = axis if isinstance(axis, tuple) else (axis,)
    axes = tuple(normalize_axis(a, x.ndim) for a in axes)     # NumPy's order: axes first
    if len(shifts) != len(axes):        # NumPy broadcasts them (an axis's shifts add)
        if len(shifts) == 1:
            shifts = shifts * len(axes)
        elif len(axes) == 1:
            axes = axes * len(shifts)
        else:
            raise ValueError("shift and axis must have the same length")
    out = x
    for s, a in zip(shifts, axes):
        a = normalize_axis(a, x.ndim)
        n = out.shape[a]
        if n == 0:
            continue
        s = operator.index(s) % n
        if s == 0:
            out = out.copy() if out is x else out
            continue
        pre = (slice(None),) * a
        out = concat([out[pre + (slice(n - s, None),)], out[pre + (slice(0, n - s),)]], axis=a)
    return out.copy() if out is x else out
