"""Elementwise functions built from the ufuncs (garray/_elementwise/ufuncs.py, generated from the
op table): clip, isclose, nan_to_num; and where (cython/_where.pxi).
"""

from .. import _dtype_time as _time
from .._dtypes import kind_of as _kind_of
import numpy

from .._core import asarray, ndarray, where  # noqa: F401
from .._args import as_array
from .ufuncs import (abs, add, equal, greater, imag, isfinite, isinf, isnan, less,
                      less_equal, logical_and, logical_or, maximum, minimum, multiply, real,
                      subtract)
from .._dtypes import finfo, isdtype

def clip(x, /, min=None, max=None, *, out=None):
    """Clamp x to [min, max] (either may be None).

    Parameters
    ----------
    x : ndarray
        Input array.
    min : scalar or ndarray, optional
        Lower bound (None: none).
    max : scalar or ndarray, optional
        Upper bound (None: none).
    out : ndarray, optional
        A garray array of the result's shape to write into.

    Returns
    -------
    ndarray
        In x's dtype.

    See Also
    --------
    numpy.clip
    """
    x = r = as_array(x, "x")
    if min is not None:
        r = maximum(r, min)
    if max is not None:
        r = minimum(r, max)
    if r is x:
        r = x.copy()
    if out is not None:
        out[...] = r
        return out
    return r


def _inexact(v, name, weak=False):
    """Bool and integer operands as float64 (NumPy's isclose: no integer wrap-around in
    a - b, e.g. int8 -128 and 127); a Python float or complex stays a weak scalar, as in
    NumPy (isclose(float16 [1.3], 1.3) compares 1.3 rounded to float16) when ``weak``."""
    if weak and isinstance(v, (float, complex)) and not isinstance(v, numpy.generic):
        return v
    v = as_array(v, name)
    return v.astype("float64") if _kind_of(v.dtype) in "biu" else v


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol * |b|`` where ``b`` is finite, or ``a == b``.

    Parameters
    ----------
    a, b : ndarray or array_like
        The arrays to compare, broadcast together (integers are compared as floats).
    rtol : float, optional
        Relative tolerance.
    atol : float, optional
        Absolute tolerance.
    equal_nan : bool, optional
        Whether NaN compares equal to NaN.

    Returns
    -------
    ndarray
        Bool array of the broadcast shape, on the operands' device.

    See Also
    --------
    numpy.isclose
    """
    _time.refuse("isclose", a, b)
    a, b = _inexact(a, "a"), _inexact(b, "b", weak=True)
    close = less_equal(abs(subtract(a, b)), add(atol, multiply(rtol, abs(b))))
    close = logical_or(logical_and(close, isfinite(b)), equal(a, b))
    if equal_nan:
        close = logical_or(close, logical_and(isnan(a), isnan(b)))
    return close


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf, -inf -> neginf (dtype limits by default).

    Parameters
    ----------
    x : ndarray
        Input (a garray array).
    copy : bool, optional
        False: replace in x itself (a garray array).
    nan : float, optional
        NaN's replacement.
    posinf : float, optional
        +inf's replacement (the dtype's max by default).
    neginf : float, optional
        -inf's replacement (the dtype's min by default).

    Returns
    -------
    ndarray
        In x's dtype (x itself with copy=False).
    """
    x = as_array(x, "x")
    if isinstance(copy, (str, bytes)):          # NumPy's rule for copy= (would be true)
        raise ValueError(f"nan_to_num: copy: strings are not allowed ({copy!r})")
    if not isdtype(x.dtype, ("real floating", "complex floating")):
        return x.copy() if copy else x
    fi = finfo(x.dtype)
    hi = fi.max if posinf is None else posinf
    lo = fi.min if neginf is None else neginf
    if isdtype(x.dtype, "complex floating"):
        re = nan_to_num(real(x), nan=nan, posinf=posinf, neginf=neginf)
        im = nan_to_num(imag(x), nan=nan, posinf=posinf, neginf=neginf)
        r = add(re, multiply(im, 1j))
    else:
        r = where(isnan(x), nan, x)
        r = where(logical_and(isinf(r), greater(r, 0)), hi, r)
        r = where(logical_and(isinf(r), less(r, 0)), lo, r)
    if not copy:
        x[...] = r
        return x
    return r


__all__ = ["clip", "isclose", "nan_to_num", "where"]
