"""Comparisons of whole arrays returning a Python bool: ``allclose``, ``array_equal``
and ``array_equiv`` (an elementwise comparison and one ``all`` reduction).
"""

import numpy

from .._args import as_array, refuse_numpy
from .. import _core, _dtype_time as _time
from . import reductions as _red
from .._elementwise import ufuncs as _u
from .common import _F64, _inexact
from .._elementwise.functions import isclose

__all__ = ["allclose", "array_equal", "array_equiv"]


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when every ``|a - b| <= atol + rtol * |b|`` (``isclose``, broadcast).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    b : ndarray or array_like
        Reference array, broadcast against a.
    rtol : float, optional
        Relative tolerance.
    atol : float, optional
        Absolute tolerance.
    equal_nan : bool, optional
        Whether NaN compares equal to NaN.

    Returns
    -------
    bool
        A Python bool (the one value read back from the device).

    See Also
    --------
    numpy.allclose
    """
    weak = type(b) in (float, complex)     # NumPy's isclose keeps a Python float weak
    a = as_array(a, "allclose: a")
    b = b if weak else as_array(b, "allclose: b")
    _time.refuse("allclose", a, b)
    # NumPy compares in floating point: integers cannot wrap in a - b.
    if not _inexact(a):
        a = a.astype(_F64)
    if not weak and not _inexact(b):
        b = b.astype(_F64)
    close = isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    # NumPy: an infinite b is close only to itself (atol + rtol * inf admits anything).
    close = _u.logical_and(close, _u.logical_or(_u.isfinite(b), _u.equal(a, b)))
    if equal_nan:
        close = _u.logical_or(close, _u.logical_and(_u.isnan(a), _u.isnan(b)))
    return bool(_red.all(close))


def array_equal(a1, a2, equal_nan=False):
    """True when a1 and a2 have the same shape and elements (``equal_nan``: NaN equals
    NaN).

    Parameters
    ----------
    a1 : ndarray or array_like
        First array.
    a2 : ndarray or array_like
        Second array.
    equal_nan : bool, optional
        Whether NaN compares equal to NaN.

    Returns
    -------
    bool
        A Python bool.

    See Also
    --------
    numpy.array_equal
    """
    for name, x in (("a1", a1), ("a2", a2)):
        if isinstance(x, numpy.ndarray):    # refused, not "not equal" (Note [NumPy input])
            raise refuse_numpy(f"array_equal: {name}")
    try:
        a1, a2 = as_array(a1, "array_equal: a1"), as_array(a2, "array_equal: a2")
    except Exception:  # noqa: BLE001 - NumPy: what cannot be an array is not equal
        return False
    if a1.shape != a2.shape:
        return False
    eq = _u.equal(a1, a2)
    if equal_nan and (_inexact(a1) or _inexact(a2)):
        if a1 is a2:
            return True
        n1, n2 = _u.isnan(a1), _u.isnan(a2)
        if not bool(_red.all(_u.equal(n1, n2))):
            return False
        eq = _u.logical_or(eq, n1)
    return bool(_red.all(eq))


def array_equiv(a1, a2):
    """True when a1 and a2 broadcast to one shape and are equal there.

    Parameters
    ----------
    a1 : ndarray or array_like
        First array.
    a2 : ndarray or array_like
        Second array.

    Returns
    -------
    bool
        A Python bool.

    See Also
    --------
    numpy.array_equiv
    """
    for name, x in (("a1", a1), ("a2", a2)):
        if isinstance(x, numpy.ndarray):    # refused, not "not equal" (Note [NumPy input])
            raise refuse_numpy(f"array_equiv: {name}")
    try:
        a1, a2 = as_array(a1, "array_equiv: a1"), as_array(a2, "array_equiv: a2")
    except Exception:  # noqa: BLE001
        return False
    try:
        _core.broadcast_shapes(a1.shape, a2.shape)
    except Exception:  # noqa: BLE001 - shapes that do not broadcast are not equivalent
        return False
    return bool(_red.all(_u.equal(a1, a2)))
