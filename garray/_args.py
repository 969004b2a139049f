"""Argument toolbox for garray's Python functions: array arguments and axes.

Note [NumPy input]
~~~~~~~~~~~~~~~~~~
A ``numpy.ndarray`` passed to a garray function is a TypeError naming the argument and
saying to call ``garray.asarray``, on every device.  Code written on the CPU device must
run unchanged on a GPU, where taking a host array would be a transfer nobody sees in
the code; CuPy refuses them for the same reason.  Python scalars, NumPy scalars
(``numpy.float32(1)``) and (nested) sequences are converted as NumPy converts
array-likes.  The Cython core applies the same rule to its entry points
(``_array_input`` and ``_numpy_input_error`` in cython/_creation.pxi, used for the ufunc
operands); NumPy's own dispatch (``numpy.sum(garray_array)``) reaches garray with
garray arrays and is unaffected.  ``garray.asarray``/``array``/``asnumpy``/
``from_dlpack`` are where host data crosses, so they take NumPy arrays; index arrays
(``take``'s indices) are host metadata, taken as ``g[numpy_index]`` takes them.

Axes follow NumPy's ``normalize_axis_index``/``normalize_axis_tuple``: TypeError for
non-integers, ``numpy.exceptions.AxisError`` (a ValueError and an IndexError) out of
range, with the argument's name as the message prefix.
"""

import operator

import numpy
from numpy.exceptions import AxisError

from ._core import asarray, ndarray

__all__ = ["AxisError", "as_array", "as_arrays", "check_array", "normalize_axis",
           "normalize_axis_tuple", "reduction_axes", "refuse_numpy"]


def refuse_numpy(name):
    """The TypeError for a NumPy array given as argument ``name`` (Note [NumPy input])."""
    return TypeError(f"{name}: expected a garray.ndarray, got numpy.ndarray "
                     f"(use garray.asarray to copy it to a device)")


def as_array(x, name, device=None):
    """``x`` as a garray array: garray arrays as they are; Python and NumPy scalars and
    (nested) sequences converted onto ``device`` (default: the current device); a NumPy
    array is refused (Note [NumPy input])."""
    if type(x) is ndarray or isinstance(x, ndarray):
        return x
    if isinstance(x, numpy.ndarray):
        raise refuse_numpy(name)
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name}: expected an array_like, got {type(x).__name__}")
    try:
        return asarray(x, device=device)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{name}: {e}") from None


def check_array(x, name):
    """``x`` itself, for an argument that must already be a garray array (an output, an
    array written in place): TypeError otherwise, with the NumPy array's message for
    one."""
    if isinstance(x, ndarray):
        return x
    if isinstance(x, numpy.ndarray):
        raise refuse_numpy(name)
    raise TypeError(f"{name}: expected a garray.ndarray, got {type(x).__name__}")


def as_arrays(arrays, name, allow_empty=False):
    """A sequence of array arguments as garray arrays on one device (ValueError naming
    the devices when they differ; sequences go to the first array's device)."""
    if isinstance(arrays, numpy.ndarray):
        raise refuse_numpy(name)
    if isinstance(arrays, ndarray):
        arrays = list(arrays)
    arrays = tuple(arrays)
    if not arrays and not allow_empty:
        raise ValueError(f"{name}: need at least one array")
    dev = next((a.device for a in arrays if isinstance(a, ndarray)), None)
    out = tuple(as_array(a, f"{name}[{i}]", dev) for i, a in enumerate(arrays))
    devs = {a.device for a in out}
    if len(devs) > 1:
        raise ValueError(f"{name}: arrays are on different devices {sorted(map(str, devs))}")
    return out


def normalize_axis(axis, ndim, name="axis"):
    """``axis`` as an index in [0, ndim): TypeError for a non-integer (bool included),
    AxisError out of range."""
    if type(axis) is int and -ndim <= axis < ndim:      # the common case, checked first
        return axis % ndim
    if isinstance(axis, (bool, numpy.bool_)) or not hasattr(type(axis), "__index__"):
        raise TypeError(f"{name}: axis must be an integer, got {type(axis).__name__}")
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise AxisError(a, ndim, name)
    return a % ndim


def normalize_axis_tuple(axis, ndim, name="axis", *, allow_duplicate=False,
                         allow_list=True, sort=False, scalar_on_0d=False):
    """``axis`` (None: every axis, an integer, or a tuple of them) as a tuple of axes in
    [0, ndim), in the given order unless ``sort``.

    ``allow_list=False``: a list is a TypeError, as in NumPy's reductions.
    ``scalar_on_0d``: axis 0 or -1 of a 0-d array means no axis, as NumPy's reductions
    read it.  A repeated axis is an AxisError unless ``allow_duplicate``."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, list):
        if not allow_list:
            raise TypeError(f"{name}: axis must be an integer, a tuple of integers or None, "
                            f"not a list")
        axis = tuple(axis)
    if not isinstance(axis, tuple):
        if scalar_on_0d and ndim == 0 and not isinstance(axis, bool) \
                and hasattr(type(axis), "__index__") and operator.index(axis) in (0, -1):
            return ()
        axis = (axis,)
    out = tuple(normalize_axis(a, ndim, name) for a in axis)
    if not allow_duplicate and len(set(out)) != len(out):
        raise AxisError(f"{name}: repeated axis in axis={axis!r}")
    return tuple(sorted(out)) if sort else out


def reduction_axes(axis, ndim, name):
    """``axis`` as NumPy's reductions read it: None for every axis, no lists, axis 0 or
    -1 of a 0-d array for none; sorted."""
    # the per-call cost of every reduction: None and one in-range int answered here
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int and -ndim <= axis < ndim:
        return (axis % ndim,)
    if type(axis) is tuple:
        # already normalised (the moments pass their axes on to the sums): kept as is
        prev = -1
        for a in axis:
            if type(a) is not int or not prev < a < ndim:
                break
            prev = a
        else:
            return axis
    return normalize_axis_tuple(axis, ndim, name, allow_list=False, sort=True,
                                scalar_on_0d=True)
