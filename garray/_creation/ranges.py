"""Creation functions: argument checks and NumPy's arithmetic for the few scalars that
define the result (lengths, first values, steps) here; every element is written by the
creation kernels of ``_kernels/elementwise.hip`` on the target device.
"""

from .._dtypes import kind_of as _kind_of
import math
import operator

import numpy

from .._elementwise import ufuncs as _ufuncs
from .. import _core, _dtypes
from .. import _dtype_time as _time
from .._datetime.values import arange as _time_arange
from .._core import asarray, empty, ndarray, zeros
from .._args import as_array, check_array, refuse_numpy
from .._manip.views import moveaxis

__all__ = ["arange", "linspace", "eye", "meshgrid", "tril", "triu", "identity"]


def _check_scalar(v, argname):
    if isinstance(v, ndarray):
        if v.size != 1:
            raise TypeError(f"{argname}: expected a scalar, got an array of shape {v.shape}")
        return v.item()
    if not isinstance(v, (int, float, numpy.integer, numpy.floating, bool)) or isinstance(
            v, complex):
        raise TypeError(f"{argname}: expected a real number, got {type(v).__name__}")
    return v


def _time_range(start, stop, step, dtype):
    if any(isinstance(v, (numpy.datetime64, numpy.timedelta64)) for v in (start, stop, step)):
        return True         # (strings only with a time dtype, as NumPy)
    return dtype is not None and _time.is_time(_dtypes.normalize_dtype(dtype))


def arange(start, /, stop=None, step=1, dtype=None, *, device=None):
    """Evenly spaced values in [start, stop); ``dtype`` may be given by position, as
    NumPy's ``arange(start, stop, step, dtype)``.

    >>> garray.arange(3)
    array([0, 1, 2])

    Parameters
    ----------
    start : int or float
        Start (or, without stop, the stop, starting from 0).
    stop : int or float, optional
        End (excluded).
    step : int or float, optional
        Spacing.
    dtype : dtype, optional
        The result's dtype (int64 for integer arguments, float64 otherwise).
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        1-d, of ceil((stop - start) / step) elements.

    See Also
    --------
    numpy.arange
    """
    if _time_range(start, stop, step, dtype):       # datetime64/timedelta64 values
        return _time_arange(start, stop, step, dtype, device)
    start = _check_scalar(start, "start")
    if stop is not None:
        stop = _check_scalar(stop, "stop")
    step = 1 if step is None else _check_scalar(step, "step")     # None: 1, as NumPy
    if step == 0:
        raise ValueError("step: must not be zero")
    dt = None if dtype is None else _dtypes.normalize_dtype(dtype)
    if dt is None:
        vals = (start, stop, step) if stop is not None else (start, step)
        dt = (_dtypes.default_float if any(isinstance(v, (float, numpy.floating)) for v in vals)
              else _dtypes.default_int)
        ints = [int(v) for v in vals if isinstance(v, (int, numpy.integer))]
        if dt == _dtypes.default_int and any(not -2**63 <= v < 2**63 for v in ints):
            # NumPy: Python ints past int64 but within uint64 give float64; past uint64
            # its object dtype
            if any(not -2**63 <= v < 2**64 for v in ints):
                raise TypeError("arange: integers outside [-2**63, 2**64) make NumPy's "
                                "object dtype, which garray does not have")
            dt = _dtypes.default_float
        dt = numpy.dtype(dt)
    if stop is None:
        start, stop = 0, start
    # Length and the first two values as NumPy computes them (PyArray_ArangeObj):
    # out[0] = start, out[1] = start + step, out[i] = start + i * (out[1] - out[0]).
    span = ((stop - start) / step if _kind_of(dt) in "fc" or isinstance(stop - start, float)
            else None)
    if span is None:
        n = max(0, -((start - stop) // step)) if step > 0 else max(0, -((stop - start) // -step))
    else:
        n = max(0, math.ceil(span)) if span == span else 0
    if _kind_of(dt) == "b" and n > 2:
        raise TypeError("arange: only supported for booleans when the result has at most "
                        "length 2")   # NumPy 2's TypeError
    if _kind_of(dt) == "b":      # at most the two first values, which the host computes anyway
        return asarray([bool(start), bool(start + step)][:n], dtype=dt, device=device)
    # the second value only matters when there is one (start + step may not fit the dtype)
    return _core._arange_kernel(n, start, start + step if n > 1 else start, dt, device)


def linspace(start, stop, /, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """``num`` evenly spaced samples over [start, stop] (or [start, stop) without
    ``endpoint``), NumPy's positional signature and the Array API's keywords.

    ``retstep`` also returns the spacing (NumPy's float64 for scalar bounds).  Array
    bounds give one sequence per element (shape ``(num, *broadcast shape)``, the
    samples along ``axis``), as NumPy's.

    >>> garray.linspace(0, 1, 5)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])

    Parameters
    ----------
    start : scalar or array_like
        First sample.
    stop : scalar or array_like
        Last sample (excluded without endpoint).
    num : int, optional
        Number of samples.
    endpoint : bool, optional
        Whether stop is included.
    retstep : bool, optional
        Also return the spacing.
    dtype : dtype, optional
        The result's dtype (float64 by default).
    axis : int, optional
        The samples' axis for array bounds.
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray or tuple
        The samples (and the step with retstep).

    See Also
    --------
    numpy.linspace
    """
    _time.refuse("linspace", start, stop, error=NotImplementedError)
    for name, v in (("start", start), ("stop", stop)):
        if isinstance(v, numpy.ndarray) and v.ndim:
            raise refuse_numpy(name)
    if any(v.ndim > 0 if isinstance(v, ndarray) else
           isinstance(v, (list, tuple)) for v in (start, stop)):
        return _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, device)
    if isinstance(axis, bool) or not hasattr(type(axis), "__index__"):
        raise TypeError(f"axis: expected an integer, got {type(axis).__name__}")
    if operator.index(axis) not in (0, -1):
        raise numpy.exceptions.AxisError(
            f"axis: axis {axis} is out of bounds for array of dimension 1")
    out = _linspace(start, stop, num, dtype, device, endpoint)
    if not retstep:
        return out
    div = (num - 1) if endpoint else num
    calc = complex if isinstance(start, complex) or isinstance(stop, complex) else float
    if div <= 0:
        return out, float("nan")            # NumPy's: a Python float
    step = (calc(stop) - calc(start)) / div
    return out, numpy.float64(step) if calc is float else numpy.complex128(step)


def _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, device):
    """linspace with array bounds, NumPy's algorithm; every sample computed on the
    device: y = arange(num) * step + start along a new first axis, the last row exactly
    ``stop`` with ``endpoint``."""
    if isinstance(num, bool) or not hasattr(type(num), "__index__"):
        raise TypeError(f"num: expected an integer, got {type(num).__name__}")
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"num: must be non-negative, got {num}")
    if device is None:
        device = next((v.device for v in (start, stop) if isinstance(v, ndarray)), None)
    dt = _dtypes.result_type(*(asarray(v) if isinstance(v, (list, tuple)) else v
                               for v in (start, stop)))
    if _kind_of(dt) not in "fc":
        dt = numpy.dtype(_dtypes.default_float)      # NumPy: the samples are inexact
    a = asarray(start, dtype=dt, device=device)
    b = asarray(stop, dtype=dt, device=device)
    delta = _ufuncs.subtract(b, a)
    y = arange(0, num, dtype=dt, device=device).reshape((-1,) + (1,) * delta.ndim)
    div = (num - 1) if endpoint else num
    if div > 0:
        step = _ufuncs.divide(delta, div)
        if bool(_ufuncs.equal(step, 0).any()):
            y = _ufuncs.multiply(_ufuncs.divide(y, div), delta)
        else:
            y = _ufuncs.multiply(y, step)
    else:
        step = float("nan")
        y = _ufuncs.multiply(y, delta)
    y = _ufuncs.add(y, a)
    if endpoint and num > 1:
        y[-1, ...] = b
    if operator.index(axis) != 0:
        y = moveaxis(y, 0, axis)
    if dtype is not None:
        dtype = _dtypes.normalize_dtype(dtype)
        if _kind_of(dtype) in "iu":
            y = _ufuncs.floor(y)
        y = y.astype(dtype, copy=False)
    return (y, step) if retstep else y


def _linspace(start, stop, num, dtype, device, endpoint):
    if isinstance(num, bool) or not hasattr(type(num), "__index__"):
        raise TypeError(f"num: expected an integer, got {type(num).__name__}")
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"num: must be non-negative, got {num}")
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    dt = (_dtypes.normalize_dtype(dtype) if dtype is not None else
          numpy.dtype(_dtypes.default_complex if is_complex else _dtypes.default_float))
    # NumPy's algorithm in float64/complex128: y = i * step + start (or i / div * delta
    # when step underflows), the last sample exactly stop when endpoint is set.
    calc = complex if (is_complex or _kind_of(dt) == "c") else float
    start_c, stop_c = calc(start), calc(stop)
    div = (num - 1) if endpoint else num
    delta = stop_c - start_c
    flags = 1 if endpoint else 0
    if div > 0:
        step = delta / div
        if step == 0:
            flags |= 2
    else:                       # NumPy: y = i * delta (+ start)
        step = calc("nan") if calc is float else complex("nan+nanj")
        flags |= 2
    if _kind_of(dt) in "iu":
        # NumPy samples in floating point, floors, then casts (-1.5 -> -2, not -1)
        if calc is complex:
            raise TypeError(f"linspace: cannot floor complex samples into {dt}")
        y = _core._linspace_kernel(num, start_c, step, stop_c, delta, float(div or 1), flags,
                                   numpy.dtype(numpy.float64), device)
        return _ufuncs.floor(y).astype(dt)
    return _core._linspace_kernel(num, start_c, step, stop_c, delta, float(div or 1), flags,
                                  dt, device)


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None):
    """A 2-d array with ones on the k-th diagonal: N rows, M columns (N by default).

    NumPy's positional ``eye(N, M, k, dtype, order)``; the Array API's ``eye(n_rows,
    n_cols, *, k, dtype, device)`` calls are the same calls.  ``order`` 'C' or 'F'.

    >>> garray.eye(2, dtype=int)
    array([[1, 0],
           [0, 1]])

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
    order : {'C', 'F'}, optional
        Memory layout.
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        A new N x M array.

    See Also
    --------
    numpy.eye
    """
    code = _core._order_code_py(order)
    if code == "F":
        # eye(N, M, k) in F order is the transpose of the C-ordered eye(M, N, -k).
        k_ = k if isinstance(k, bool) or not hasattr(type(k), "__index__") else -operator.index(k)
        return eye(N if M is None else M, N, k_, dtype, device=device).T
    n_rows, n_cols = N, M
    for name, v in (("N", n_rows), ("M", n_cols), ("k", k)):
        if v is not None and (isinstance(v, bool) or not hasattr(type(v), "__index__")):
            raise TypeError(f"{name}: expected an integer, got {type(v).__name__}")
    n_cols = n_rows if n_cols is None else n_cols
    for name, v in (("N", n_rows), ("M", n_cols)):
        if operator.index(v) < 0:
            raise ValueError(f"{name}: negative dimensions are not allowed, got {v}")
    dt = _dtypes.normalize_dtype(dtype) if dtype is not None else numpy.dtype(_dtypes.default_float)
    # A diagonal outside the matrix gives zeros however far out: clamped so that any
    # Python int (2**63 ...) reaches the kernel as a C integer.
    k = max(-operator.index(n_rows), min(operator.index(k), operator.index(n_cols)))
    return _core._eye_kernel(operator.index(n_rows), operator.index(n_cols), k,
                             dt, device)


def identity(n, dtype=None, *, device=None):
    """The n x n identity; ``dtype`` may be given by position.

    Parameters
    ----------
    n : int
        Number of rows and columns.
    dtype : dtype, optional
        The result's dtype (float64 by default).
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        A new n x n array.

    See Also
    --------
    numpy.identity
    """
    return eye(n, dtype=dtype, device=device)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate matrices from 1-d coordinate arrays.

    Parameters
    ----------
    *arrays : ndarray
        1-d coordinate arrays.
    indexing : {'xy', 'ij'}, optional
        Cartesian ('xy', the first two axes swapped) or matrix ('ij') indexing.

    Returns
    -------
    tuple of ndarray
        One array per input (NumPy 2 returns a tuple too).

    See Also
    --------
    numpy.meshgrid
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing: must be 'xy' or 'ij', got {indexing!r}")
    arrays = tuple(as_array(a, f"arrays[{i}]") for i, a in enumerate(arrays))
    for i, a in enumerate(arrays):
        if a.ndim != 1:
            raise ValueError(f"arrays[{i}]: must be 1-dimensional, got ndim={a.ndim}")
    if not arrays:
        return ()
    devs = {a.device for a in arrays}
    if len(devs) > 1:
        raise ValueError(f"arrays: all must be on one device, got {sorted(map(str, devs))}")
    dts = {a.dtype for a in arrays}
    if len(dts) > 1:
        raise TypeError(f"arrays: all must have one dtype, got {sorted(map(str, dts))}")
    n = len(arrays)
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        axis = i
        if indexing == "xy" and n >= 2 and i < 2:
            axis = 1 - i
        key = tuple(slice(None) if j == axis else None for j in range(n))
        out.append(_core.broadcast_to(a[key], tuple(shape)).copy())
    return tuple(out)


def _check_tri(x, k, argname="x"):
    """(x, k) for tril/triu: a 1-d x is NumPy's (n, n) of repeated rows; k an integer
    (bool, or a float with an integral value, as NumPy takes them)."""
    check_array(x, argname)
    if x.ndim < 1:
        raise ValueError(f"{argname}: must have at least 1 dimension, got 0")
    if x.ndim == 1:
        x = _core.broadcast_to(x, (x.shape[0], x.shape[0]))
    if isinstance(k, (float, numpy.floating)):
        if not math.isfinite(k):
            raise ValueError(f"k: must be finite, got {k}")
        if k != int(k):
            # NumPy takes it through arange(-k, ...) in an integer dtype, which truncates
            # unevenly (triu(x, 1.5) is all zeros, tril(x, 1.5) is tril(x, 1)).
            raise TypeError(f"k: expected an integer diagonal, got {k}")
        k = int(k)
    if not hasattr(type(k), "__index__"):
        raise TypeError(f"k: expected an integer, got {type(k).__name__}")
    return x, operator.index(k)


def tril(x, /, k=0):
    """The lower triangle of the last two axes (zeros above diagonal k). See numpy.tril.

    Parameters
    ----------
    x : ndarray
        At least 1 axis (a 1-d x is taken as its row repeated, as NumPy does).
    k : int, optional
        The diagonal.

    Returns
    -------
    ndarray
        A new array.
    """
    x, k = _check_tri(as_array(x, "x"), k)
    return _core._tri_kernel(x, k, True)


def triu(x, /, k=0):
    """The upper triangle of the last two axes (zeros below diagonal k). See numpy.triu.

    Parameters
    ----------
    x : ndarray
        At least 1 axis (a 1-d x is taken as its row repeated, as NumPy does).
    k : int, optional
        The diagonal.

    Returns
    -------
    ndarray
        A new array.
    """
    x, k = _check_tri(as_array(x, "x"), k)
    return _core._tri_kernel(x, k, False)
