"""The helper routines of ``numpy.fft``: the sample frequencies ``fftfreq`` and
``rfftfreq``, and ``fftshift``/``ifftshift``, which move the zero-frequency term to the
centre and back.
"""

from .._dtypes import kind_of as _kind_of
import operator

import numpy

from .. import _dtypes
from .._args import as_array, normalize_axis
from .._core import where
from .._creation.ranges import arange
from .._manip.manipulation import roll

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _freq_dtype(dtype):
    if dtype is None:
        return numpy.dtype(_dtypes.float64)
    dt = numpy.dtype(dtype)
    if _kind_of(dt) != "f":
        raise ValueError(f"fftfreq: dtype must be a real floating-point dtype, got {dt}")
    return dt


def _freq_n(n, fname):
    # as NumPy: fftfreq refuses a bool n (its rfftfreq takes one)
    if fname == "fftfreq" and isinstance(n, (bool, numpy.bool_)):
        raise TypeError("fftfreq: n: an integer is required, got a bool")
    try:
        n = operator.index(n)
    except TypeError:
        raise ValueError(f"{fname}: n should be an integer, got {n!r}") from None
    if n >= 2**63:      # NumPy: "Maximum allowed dimension exceeded"
        raise ValueError(f"{fname}: n={n} exceeds the maximum allowed dimension")
    if n == 0:          # NumPy divides by n * d first
        raise ZeroDivisionError(f"{fname}: float division by zero (n is 0)")
    if n < 1:
        raise ValueError(f"{fname}: n must be positive, got {n}")
    return n


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """Sample frequencies of a length-``n`` DFT (``numpy.fft.fftfreq``; the Array API's
    ``dtype=`` and ``device=`` keywords): ``[0, 1, ..., (n-1)//2, -(n//2), ..., -1] /
    (d n)``.

    Parameters
    ----------
    n : int
        The transform length.
    d : float, optional
        Sample spacing.
    dtype : dtype, optional
        A real floating dtype (float64 by default).
    device : Device or str, optional
        Where the result lives.

    Returns
    -------
    ndarray
        1-d of length n.

    Raises
    ------
    ValueError
        ``n`` not an integer, ``n < 1`` (NumPy divides by zero for n = 0); a dtype that
        is not a real floating dtype.
    """
    n = _freq_n(n, "fftfreq")
    dt = _freq_dtype(dtype)
    k = arange(n, dtype=_dtypes.int64, device=device)
    k = where(k < (n - 1) // 2 + 1, k, k - n)
    return (k * (1.0 / (n * d))).astype(dt)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """Sample frequencies of ``rfft`` (``numpy.fft.rfftfreq``): ``[0, 1, ..., n//2] /
    (d n)``; ``dtype=`` and ``device=`` as the Array API.

    Parameters
    ----------
    n : int
        The transform length.
    d : float, optional
        Sample spacing.
    dtype : dtype, optional
        A real floating dtype (float64 by default).
    device : Device or str, optional
        Where the result lives.

    Returns
    -------
    ndarray
        1-d of length n//2 + 1.
    """
    n = _freq_n(n, "rfftfreq")
    dt = _freq_dtype(dtype)
    k = arange(n // 2 + 1, dtype=_dtypes.int64, device=device)
    return (k * (1.0 / (n * d))).astype(dt)


def _shift(x, axes, sign):
    x = as_array(x, "x")
    if axes is None:
        if x.ndim == 0:     # NumPy's roll has no axis to take
            raise ValueError("fftshift: x: a 0-d array has no axis to shift")
        axes = tuple(range(x.ndim))
        shift = tuple(sign * (dim // 2) for dim in x.shape)
    elif isinstance(axes, (int, numpy.integer)):
        shift = sign * (x.shape[normalize_axis(axes, x.ndim)] // 2)
    else:
        axes = tuple(axes)
        shift = tuple(sign * (x.shape[normalize_axis(ax, x.ndim)] // 2) for ax in axes)
    if x.ndim == 0 or (isinstance(axes, tuple) and not axes):
        return x.copy()           # a new array, as NumPy's roll gives
    return roll(x, shift, axes)


def fftshift(x, axes=None):
    """Shift the zero-frequency term to the centre (``numpy.fft.fftshift``): a roll by
    ``n//2`` along each of ``axes`` (all by default).

    Parameters
    ----------
    x : ndarray or array_like
        Input array.
    axes : int or sequence of int, optional
        The axes to shift (all by default).

    Returns
    -------
    ndarray
        A new array.
    """
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """Inverse of ``fftshift`` (``numpy.fft.ifftshift``): a roll by ``-(n//2)``.

    Parameters
    ----------
    x : ndarray or array_like
        Input array.
    axes : int or sequence of int, optional
        The axes to shift (all by default).

    Returns
    -------
    ndarray
        A new array.
    """
    return _shift(x, axes, -1)
