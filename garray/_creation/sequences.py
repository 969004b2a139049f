"""Sequences and windows: logspace, geomspace, bartlett, blackman, hamming, hanning,
ediff1d.

As in ``linspace``, the host computes only the few scalars that define a sequence
(its bounds' logarithms and signs); every element is computed on the device by
garray's kernels (arange, linspace, power, cos, subtract, concat).
"""

from .._dtypes import kind_of as _kind_of
import math

import numpy

from .._args import as_array
from .._elementwise import ufuncs as _ufuncs
from .. import _dtypes
from .._core import empty, ndarray, ones
from .ranges import arange, linspace
from .._manip.manipulation import concat

__all__ = ["logspace", "geomspace", "bartlett", "blackman", "hamming", "hanning", "ediff1d"]


def _check_bound(v, name):
    if isinstance(v, (ndarray, numpy.ndarray)) and v.ndim > 0:
        raise NotImplementedError(f"{name}: array bounds (a sequence per element) are not "
                                  "implemented; pass scalars")
    if isinstance(v, complex) or (hasattr(v, "dtype") and _kind_of(v.dtype) == "c"):
        raise NotImplementedError(f"{name}: complex bounds are not implemented")
    return float(v)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *,
             device=None):
    """``base ** linspace(start, stop, num, endpoint)``: samples evenly spaced on a log
    scale. Scalar bounds and base.

    >>> garray.logspace(0, 3, 4)
    array([   1.,   10.,  100., 1000.])

    Parameters
    ----------
    start : float
        base ** start is the first sample.
    stop : float
        base ** stop is the last sample.
    num : int, optional
        Number of samples.
    endpoint : bool, optional
        Whether the last sample is included.
    base : float, optional
        The log base.
    dtype : dtype, optional
        The result's dtype.
    axis : int, optional
        Accepted for NumPy's signature (scalar bounds: 0).
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        1-d.

    See Also
    --------
    numpy.logspace
    """
    _check_bound(start, "start")
    _check_bound(stop, "stop")
    _check_bound(base, "base")
    y = linspace(start, stop, num, endpoint, axis=axis, device=device)
    r = _ufuncs.pow(float(base), y)
    return r if dtype is None else r.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    """Samples evenly spaced on a log scale between ``start`` and ``stop`` themselves
    (the endpoints exact; negative bounds give negative samples). Real scalar bounds.

    >>> garray.geomspace(1, 1000, 4)
    array([   1.,   10.,  100., 1000.])

    Parameters
    ----------
    start : float
        First sample.
    stop : float
        Last sample (excluded without endpoint).
    num : int, optional
        Number of samples.
    endpoint : bool, optional
        Whether stop is included.
    dtype : dtype, optional
        The result's dtype.
    axis : int, optional
        Accepted for NumPy's signature (scalar bounds: 0).
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        1-d.

    See Also
    --------
    numpy.geomspace
    """
    lo, hi = _check_bound(start, "start"), _check_bound(stop, "stop")
    if lo == 0 or hi == 0:
        raise ValueError("geomspace: a geometric sequence cannot include zero")
    sign = math.copysign(1.0, lo)
    lo, hi = lo / sign, hi / sign
    log_lo = math.log10(lo)
    log_hi = math.log10(hi) if hi > 0 else math.nan    # NumPy's NaN for mixed signs
    r = logspace(log_lo, log_hi, num, endpoint, axis=axis, device=device)
    if r.size > 0:
        r[0] = lo
        if r.size > 1 and endpoint:
            r[-1] = hi
    r = _ufuncs.multiply(r, sign)
    return r if dtype is None else r.astype(dtype, copy=False)


def _window_n(M, name):
    """arange(1 - M, M, 2), or the empty/one-element window (NumPy's special cases)."""
    if isinstance(M, bool) or not isinstance(M, (int, float, numpy.integer, numpy.floating)):
        raise TypeError(f"{name}: M must be a number, got {type(M).__name__}")
    if M < 1:
        return None, empty(0, _dtypes.float64)
    if M == 1:
        return None, ones(1, _dtypes.float64)
    return arange(1 - M, M, 2), None


def _cos_window(M, name, coeffs):
    n, special = _window_n(M, name)
    if special is not None:
        return special
    r = None
    for k, c in enumerate(coeffs):
        if k == 0:
            term = c
        else:     # NumPy's order of rounding: c * cos(k * pi * n / (M - 1))
            x = _ufuncs.divide(_ufuncs.multiply(n, k * math.pi), M - 1)
            term = _ufuncs.multiply(_ufuncs.cos(x), c)
        r = term if r is None else _ufuncs.add(r, term)
    return r


def hanning(M):
    """The Hann window of M points.

    Parameters
    ----------
    M : int
        Number of points (an empty array for M < 1).

    Returns
    -------
    ndarray
        float64.

    See Also
    --------
    numpy.hanning
    """
    return _cos_window(M, "hanning", (0.5, 0.5))


def hamming(M):
    """The Hamming window of M points.

    Parameters
    ----------
    M : int
        Number of points (an empty array for M < 1).

    Returns
    -------
    ndarray
        float64.

    See Also
    --------
    numpy.hamming
    """
    return _cos_window(M, "hamming", (0.54, 0.46))


def blackman(M):
    """The Blackman window of M points.

    Parameters
    ----------
    M : int
        Number of points (an empty array for M < 1).

    Returns
    -------
    ndarray
        float64.

    See Also
    --------
    numpy.blackman
    """
    return _cos_window(M, "blackman", (0.42, 0.5, 0.08))


def bartlett(M):
    """The Bartlett (triangular) window of M points.

    Parameters
    ----------
    M : int
        Number of points (an empty array for M < 1).

    Returns
    -------
    ndarray
        float64.

    See Also
    --------
    numpy.bartlett
    """
    n, special = _window_n(M, "bartlett")
    if special is not None:
        return special
    t = _ufuncs.divide(n, M - 1)
    return _ufuncs.subtract(1.0, _ufuncs.abs(t))


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences between consecutive elements of the flattened array, with optional
    values before and after.

    >>> garray.ediff1d(garray.asarray([1, 2, 4]), to_begin=-9)
    array([-9,  1,  2])

    Parameters
    ----------
    ary : ndarray or array_like
        Input (flattened).
    to_end : scalar or array_like, optional
        Values appended.
    to_begin : scalar or array_like, optional
        Values prepended.

    Returns
    -------
    ndarray
        1-d, in ary's dtype.

    See Also
    --------
    numpy.ediff1d
    """
    a = as_array(ary, "ary").reshape(-1)
    parts = [_ufuncs.subtract(a[1:], a[:-1])]
    for name, extra in (("to_begin", to_begin), ("to_end", to_end)):
        if extra is None:
            continue
        e = as_array(extra, name, a.device).reshape(-1)
        if not _dtypes.can_cast(e.dtype, a.dtype, casting="same_kind"):
            raise TypeError(f"ediff1d: dtype of `{name}` must be compatible with input "
                            "`ary` under the `same_kind` rule.")
        e = e.astype(a.dtype, copy=False)
        parts = [e] + parts if name == "to_begin" else parts + [e]
    return parts[0] if len(parts) == 1 else concat(parts)

