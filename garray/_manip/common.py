"""Argument checks shared by the manipulation modules (_manipulation, _joining, _shaping,
_pad, _diagonal): arrays, axes, casting rules.  Host work on metadata only."""

import operator

import numpy

from .._core import asarray, ndarray


def axis_error(msg):
    from numpy.exceptions import AxisError
    return AxisError(msg)


def norm_axis(axis, ndim, argname="axis"):
    """``axis`` as an index in [0, ndim): TypeError for non-integers, AxisError out of range."""
    if isinstance(axis, bool) or not hasattr(type(axis), "__index__"):
        raise TypeError(f"{argname}: expected an integer, got {type(axis).__name__}")
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise axis_error(f"{argname}: axis {a} is out of bounds for array of dimension {ndim}")
    return a % ndim


def norm_axis_tuple(axis, ndim, argname="axis", allow_duplicate=False):
    """An int or a sequence of ints as a tuple of axes in [0, ndim) (NumPy's
    normalize_axis_tuple)."""
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    axes = tuple(norm_axis(a, ndim, argname) for a in axis)
    if not allow_duplicate and len(set(axes)) != len(axes):
        raise ValueError(f"{argname}: repeated axis in {tuple(axis)}")
    return axes


def as_array(x, argname, device=None):
    """``x`` as a garray array: garray arrays as they are, Python scalars and (nested)
    sequences converted onto ``device``; a NumPy array is refused (TypeError) so that no
    host array crosses to a device unseen (use garray.asarray)."""
    if isinstance(x, ndarray):
        return x
    if isinstance(x, numpy.ndarray):
        raise TypeError(f"{argname}: expected a garray.ndarray, got numpy.ndarray "
                        f"(use garray.asarray to copy it to a device)")
    try:
        return asarray(x, device=device)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{argname}: {e}") from None


def as_arrays(arrays, argname, allow_empty=False):
    """A sequence of array-likes as garray arrays on one device (ValueError naming the
    devices when they differ; Python sequences go to the first array's device)."""
    if isinstance(arrays, ndarray):
        arrays = list(arrays)
    arrays = tuple(arrays)
    if not arrays and not allow_empty:
        raise ValueError(f"{argname}: need at least one array to concatenate")
    dev = next((a.device for a in arrays if isinstance(a, ndarray)), None)
    out = tuple(as_array(a, f"{argname}[{i}]", dev) for i, a in enumerate(arrays))
    devs = {a.device for a in out}
    if len(devs) > 1:
        raise ValueError(f"{argname}: arrays are on different devices {sorted(map(str, devs))}")
    return out


def check_cast(from_dtype, to_dtype, casting, what="array data"):
    """TypeError as NumPy's when ``casting`` forbids from_dtype -> to_dtype (a rule on two
    dtypes: NumPy's table, no values involved)."""
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting: must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         f"'unsafe', got {casting!r}")
    if not numpy.can_cast(from_dtype, to_dtype, casting):
        raise TypeError(f"Cannot cast {what} from {numpy.dtype(from_dtype)!r} to "
                        f"{numpy.dtype(to_dtype)!r} according to the rule {casting!r}")


def int_tuple(v, argname):
    """An int or a sequence of ints as a tuple of Python ints."""
    try:
        seq = tuple(v)
    except TypeError:
        seq = (v,)
    out = []
    for s in seq:
        if isinstance(s, bool) or not hasattr(type(s), "__index__"):
            raise TypeError(f"{argname}: expected integers, got {type(s).__name__}")
        out.append(operator.index(s))
    return tuple(out)
