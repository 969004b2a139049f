"""Argument handling shared by the Generator's methods (NumPy's rules for ``size``,
``dtype``, ``out`` and distribution parameters)."""

from .._dtypes import kind_of as _kind_of
import numbers
import operator

import numpy

from .._args import as_array
from .._core import broadcast_shapes, ndarray
from .._reduce import reductions

_F32, _F64 = numpy.dtype("float32"), numpy.dtype("float64")


def _shape(size):
    """NumPy's ``size``: None (a 0-d result), an int or a sequence of ints."""
    if size is None:
        return ()
    if isinstance(size, (bool, numpy.bool_)) or (
            isinstance(size, (tuple, list)) and any(isinstance(d, (bool, numpy.bool_))
                                                    for d in size)):
        raise TypeError(f"size: expected a sequence of integers or a single integer, "
                        f"got {size!r} (a bool is not a size, as in NumPy)")
    try:
        dims = (operator.index(size),)
    except TypeError:
        try:
            dims = tuple(operator.index(d) for d in size)
        except TypeError:
            raise TypeError("size: expected a sequence of integers or a single integer, "
                            f"got {size!r}") from None
    if any(d < 0 for d in dims):
        raise ValueError("size: negative dimensions are not allowed")
    return dims


def _float_dtype(dtype, method):
    dt = numpy.dtype(dtype)
    if dt not in (_F32, _F64):
        raise TypeError(f"Unsupported dtype {dt!r} for {method}")
    return dt


def _target(size, dtype, out):
    """(shape, out): ``out`` checked against ``size`` and ``dtype`` as NumPy does."""
    if out is None:
        return _shape(size), None
    if not isinstance(out, ndarray):
        raise TypeError(f"out: expected a garray array, got {type(out).__name__}")
    if size is not None and _shape(size) != out.shape:
        raise ValueError("size must match out.shape when used together")
    if out.dtype != dtype:
        raise TypeError(f"out: expected a {dtype} array, got {out.dtype}")
    if not out.flags.c_contiguous:
        raise ValueError("out: supplied output array must be contiguous, writable, "
                         "aligned, and in machine byte-order")
    return out.shape, out


def _param(x, name):
    """A distribution parameter: a Python float, or a float64 garray array."""
    if isinstance(x, (numbers.Real, numpy.floating, numpy.integer)) and not isinstance(x, bool):
        return float(x)
    if isinstance(x, numpy.ndarray) and x.ndim == 0:
        return float(x)
    a = as_array(x, name)
    if _kind_of(a.dtype) not in "biuf":
        raise TypeError(f"{name}: expected real numbers, got {a.dtype}")
    return a.astype("float64")


def _broadcast_shape(size, *params):
    shapes = [p.shape for p in params if isinstance(p, ndarray)]
    full = broadcast_shapes(*shapes) if shapes else ()
    if size is None:
        return full
    shape = _shape(size)
    if broadcast_shapes(shape, full) != shape:
        raise ValueError(f"size: shape {shape} does not hold the parameters' broadcast "
                         f"shape {full}")
    return shape


def _check_nonneg(x, name):
    """NumPy's ``name < 0`` ValueError, for a float or a garray array (NaN passes, as in
    NumPy; the array check reads one bool back)."""
    bad = x < 0 if isinstance(x, float) else bool(reductions.any(x < 0))
    if bad:
        raise ValueError(f"{name} < 0")
