"""Creation functions built on the core's empty/asarray/fills.

Until the kernel system lands (issue 3), ``arange``, ``linspace`` and the ``tril``/
``triu`` masks compute their values on the host and copy them to the device; ``eye``
and ``meshgrid`` use garray's own fills and strided copies.
"""

import math
import operator

import numpy

from . import _core, _dtypes
from ._core import asarray, empty, ndarray, zeros

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


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Evenly spaced values in [start, stop). See also numpy.arange.

    >>> garray.arange(3)
    array([0, 1, 2])
    """
    start = _check_scalar(start, "start")
    if stop is not None:
        stop = _check_scalar(stop, "stop")
    step = _check_scalar(step, "step")
    if step == 0:
        raise ValueError("step: must not be zero")
    dt = None if dtype is None else _dtypes.normalize_dtype(dtype)
    if dt is None:
        vals = (start, stop, step) if stop is not None else (start, step)
        dt = (_dtypes.default_float if any(isinstance(v, (float, numpy.floating)) for v in vals)
              else _dtypes.default_int)
        dt = numpy.dtype(dt)
    h = numpy.arange(start, stop, step, dtype=dt) if stop is not None else \
        numpy.arange(start, step=step, dtype=dt)
    return asarray(h, device=device, copy=True)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    """``num`` evenly spaced samples over [start, stop]. See also numpy.linspace."""
    if isinstance(num, bool) or not hasattr(type(num), "__index__"):
        raise TypeError(f"num: expected an integer, got {type(num).__name__}")
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"num: must be non-negative, got {num}")
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    dt = (_dtypes.normalize_dtype(dtype) if dtype is not None else
          numpy.dtype(_dtypes.default_complex if is_complex else _dtypes.default_float))
    h = numpy.linspace(start, stop, num, endpoint=endpoint, dtype=dt)
    return asarray(h, device=device, copy=True)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """A 2-d array with ones on the k-th diagonal. See also numpy.eye."""
    for name, v in (("n_rows", n_rows), ("n_cols", n_cols), ("k", k)):
        if v is not None and (isinstance(v, bool) or not hasattr(type(v), "__index__")):
            raise TypeError(f"{name}: expected an integer, got {type(v).__name__}")
    n_cols = n_rows if n_cols is None else n_cols
    a = zeros((n_rows, n_cols), dtype=dtype, device=device)
    k = operator.index(k)
    if -n_rows < k < n_cols:
        # The diagonal as a strided 1-d view of the flat array: step n_cols + 1.
        flat = a.reshape(-1)
        start = k if k >= 0 else -k * n_cols
        length = min(n_rows - max(-k, 0), n_cols - max(k, 0))
        flat[start:start + length * (n_cols + 1):n_cols + 1] = 1
    return a


def identity(n, /, *, dtype=None, device=None):
    """The n x n identity. See also numpy.identity."""
    return eye(n, dtype=dtype, device=device)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate matrices from 1-d coordinate arrays. See also numpy.meshgrid."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing: must be 'xy' or 'ij', got {indexing!r}")
    for i, a in enumerate(arrays):
        if not isinstance(a, ndarray):
            raise TypeError(f"arrays[{i}]: expected a garray.ndarray, got {type(a).__name__}")
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


def _tri_mask(x, k, lower, argname="x"):
    if not isinstance(x, ndarray):
        raise TypeError(f"{argname}: expected a garray.ndarray, got {type(x).__name__}")
    if x.ndim < 2:
        raise ValueError(f"{argname}: must have at least 2 dimensions, got {x.ndim}")
    if isinstance(k, bool) or not hasattr(type(k), "__index__"):
        raise TypeError(f"k: expected an integer, got {type(k).__name__}")
    m, n = x.shape[-2:]
    rows = numpy.arange(m)[:, None]
    cols = numpy.arange(n)[None, :]
    keep = (cols - rows <= k) if lower else (cols - rows >= k)
    return keep


def tril(x, /, *, k=0):
    """The lower triangle of the last two axes (zeros above diagonal k). See numpy.tril."""
    keep = _tri_mask(x, k, True)
    h = numpy.where(keep, x.get(), numpy.zeros((), x.dtype))
    return asarray(h, device=x.device, copy=True)


def triu(x, /, *, k=0):
    """The upper triangle of the last two axes (zeros below diagonal k). See numpy.triu."""
    keep = _tri_mask(x, k, False)
    h = numpy.where(keep, x.get(), numpy.zeros((), x.dtype))
    return asarray(h, device=x.device, copy=True)
