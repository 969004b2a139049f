"""Array manipulation: views where the layout allows, garray's copies otherwise.

``flip``, ``moveaxis``, ``unstack`` and ``broadcast_arrays`` are views; ``concat``,
``stack`` and ``roll`` allocate the result and fill it slice by slice with garray's
strided copies (and casts, when the inputs' dtypes differ).  NumPy's other manipulation
functions live beside this module: _joining (concatenate, the stacks, block, insert,
delete), _shaping (tile, splits, ravel, flips, copyto ...), _pad, _diagonal and
garray.lib.stride_tricks.
"""

import operator

from ._core import broadcast_shapes, broadcast_to, ndarray, permute_dims
from ._joining import join
from ._manip_common import norm_axis

__all__ = ["flip", "moveaxis", "unstack", "broadcast_arrays", "concat", "stack", "roll"]


def _arrays(arrays, argname):
    arrays = tuple(arrays)
    for i, a in enumerate(arrays):
        if not isinstance(a, ndarray):
            raise TypeError(f"{argname}[{i}]: expected a garray.ndarray, got {type(a).__name__}")
    if not arrays:
        raise ValueError(f"{argname}: need at least one array")
    devs = {a.device for a in arrays}
    if len(devs) > 1:
        raise ValueError(f"{argname}: arrays are on different devices {sorted(map(str, devs))}")
    return arrays


_axis = norm_axis


def flip(x, /, axis=None):
    """Reverse the order of elements along ``axis`` (all axes by default); a view.
    ``axis`` may be given by position, as NumPy's. See also numpy.flip."""
    axes = range(x.ndim) if axis is None else (
        axis if isinstance(axis, tuple) else (axis,))
    axes = {_axis(a, x.ndim) for a in axes}
    return x[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))]


def moveaxis(x, source, destination, /):
    """Move axes to new positions (a view). See also numpy.moveaxis."""
    src = source if isinstance(source, tuple) else (source,)
    dst = destination if isinstance(destination, tuple) else (destination,)
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of axes")
    src = [_axis(a, x.ndim, "source") for a in src]
    dst = [_axis(a, x.ndim, "destination") for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("repeated axis in source or destination")
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute_dims(x, tuple(order))


def unstack(x, /, *, axis=0):
    """Split ``x`` along ``axis`` into a tuple of views."""
    a = _axis(axis, x.ndim)
    return tuple(x[(slice(None),) * a + (i,)] for i in range(x.shape[a]))


def broadcast_arrays(*arrays):
    """Views of ``arrays`` broadcast to one shape."""
    arrays = _arrays(arrays, "arrays")
    shape = broadcast_shapes(*[a.shape for a in arrays])
    return tuple(broadcast_to(a, shape) for a in arrays)


def concat(arrays, /, *, axis=0):
    """Join arrays along an existing axis (``axis=None`` flattens first); the result
    dtype is the arrays' result_type. See also garray.concatenate (NumPy's form)."""
    return join(_arrays(arrays, "arrays"), axis)


def stack(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays of one shape along a new axis (NumPy's ``out``, ``dtype`` and
    ``casting`` as in concatenate). See also numpy.stack."""
    if out is not None and dtype is not None:
        raise TypeError("stack() only takes `out` or `dtype` as an argument, but both "
                        "were provided.")
    arrays = _arrays(arrays, "arrays")
    shape = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.shape != shape:
            raise ValueError(f"arrays[{i}]: shape {a.shape} differs from {shape}")
    ax = _axis(axis, len(shape) + 1)
    expanded = [a[(slice(None),) * ax + (None,)] for a in arrays]
    return join(expanded, ax, out, dtype, casting)


def roll(x, /, shift, axis=None):
    """Roll elements along ``axis`` (flattened when None). See also numpy.roll."""
    if axis is None:
        return roll(x.reshape(-1), shift, axis=0).reshape(x.shape)
    shifts = shift if isinstance(shift, tuple) else (shift,)
    axes = axis if isinstance(axis, tuple) else (axis,)
    if len(shifts) != len(axes):
        shifts, axes = (shifts * len(axes) if len(shifts) == 1 else shifts), axes
        if len(shifts) != len(axes):
            raise ValueError("shift and axis must have the same length")
    out = x
    for s, a in zip(shifts, axes):
        a = _axis(a, x.ndim)
        n = out.shape[a]
        if n == 0:
            continue
        s = operator.index(s) % n
        if s == 0:
            out = out.copy() if out is x else out
            continue
        pre = (slice(None),) * a
        out = concat([out[pre + (slice(n - s, None),)], out[pre + (slice(0, n - s),)]], axis=a)
    return out
