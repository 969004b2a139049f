"""NumPy's numeric functions built from garray's ufuncs and reductions: around (round to
``decimals``), fix, real_if_close, trapezoid.  Every value is computed on the device.
"""

import operator

from . import _dtypes, _ufuncs
from ._core import asarray, ndarray
import math

from ._elementwise import where
from ._statistics import diff
from ._reductions import all as _all, cumsum, sum as _sum

__all__ = ["around", "fix", "real_if_close", "trapezoid", "unwrap"]


def around(a, decimals=0, out=None):
    """Round to ``decimals`` decimal places, halves to even (NumPy's ``round(a,
    decimals)``): x * 10**decimals is rounded and scaled back (negative decimals round
    to tens, hundreds ...; integers go through float64, as NumPy's).

    >>> garray.around(garray.asarray([1.25, 2.675, 15.0]), 1)
    array([ 1.2,  2.7, 15. ])

    See also numpy.around, numpy.round.
    """
    if isinstance(decimals, bool) or not hasattr(type(decimals), "__index__"):
        raise TypeError(f"decimals: expected an integer, got {type(decimals).__name__}")
    d = operator.index(decimals)
    x = asarray(a)
    kind = x.dtype.kind
    if kind == "b":
        # NumPy gives float16 (decimals=0) or a casting error: garray has no float16
        raise TypeError("around: bool arrays are not supported (NumPy rounds them to "
                        "float16, which garray lacks)")
    if d == 0:
        return _ufuncs.round(x, out=out)
    if kind in "iu":
        if d > 0:
            r = x.copy()
        else:
            f = float(10 ** -d)
            r = _ufuncs.multiply(_ufuncs.round(_ufuncs.divide(x, f)), f).astype(x.dtype)
    elif d > 0:
        f = 10.0 ** d
        r = _ufuncs.divide(_ufuncs.round(_ufuncs.multiply(x, f)), f)
    else:
        f = 10.0 ** -d
        r = _ufuncs.multiply(_ufuncs.round(_ufuncs.divide(x, f)), f)
    if out is None:
        return r
    out[...] = r
    return out


def fix(x, out=None):
    """Round towards zero (floats; integers and bools are kept).

    See also numpy.fix."""
    a = asarray(x)
    if a.dtype.kind in "biu":
        if out is None:
            return a.copy()
        out[...] = a
        return out
    return _ufuncs.trunc(a, out=out)


def real_if_close(a, tol=100):
    """The real part of a complex array whose imaginary parts are all within ``tol``
    machine epsilons of zero (``tol`` <= 1: an absolute tolerance); else ``a``.

    See also numpy.real_if_close."""
    x = asarray(a)
    if x.dtype.kind != "c":
        return x
    if tol > 1:
        tol = _dtypes.finfo(x.dtype).eps * tol
    if bool(_all(_ufuncs.less(_ufuncs.abs(x.imag), tol))):
        return x.real
    return x


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral of ``y`` along ``axis`` by the trapezoidal rule, over sample points ``x``
    (1-d along the axis, or y's shape) or spacing ``dx``.

    >>> float(garray.trapezoid(garray.asarray([1, 2, 3])))
    4.0

    See also numpy.trapezoid.
    """
    y = asarray(y)
    nd = y.ndim
    if nd == 0:
        raise ValueError("trapezoid: y must have at least one dimension")
    axis = operator.index(axis)
    if not -nd <= axis < nd:
        import numpy
        raise numpy.exceptions.AxisError(
            f"axis: axis {axis} is out of bounds for array of dimension {nd}")
    axis %= nd
    if x is None:
        d = dx
    else:
        xa = x if isinstance(x, ndarray) else asarray(x, device=y.device)
        if xa.ndim == 1:
            d = diff(xa)
            d = d.reshape(tuple(d.shape[0] if i == axis else 1 for i in range(nd)))
        else:
            d = diff(xa, axis=axis)
    hi = tuple(slice(1, None) if i == axis else slice(None) for i in range(nd))
    lo = tuple(slice(None, -1) if i == axis else slice(None) for i in range(nd))
    mid = _ufuncs.divide(_ufuncs.add(y[hi], y[lo]), 2.0)
    return _sum(_ufuncs.multiply(d, mid), axis=axis)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """Undo jumps larger than ``discont`` (period/2 by default) along ``axis`` by adding
    multiples of ``period`` (phase unwrapping).

    See also numpy.unwrap.
    """
    a = asarray(p)
    nd = a.ndim
    dd = diff(a, axis=axis)
    axis = operator.index(axis) % nd
    if discont is None:
        discont = period / 2
    dtype = _dtypes.result_type(dd, period)
    if dtype.kind in "iu":
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = _ufuncs.add(_ufuncs.remainder(_ufuncs.subtract(dd, low), period), low)
    if ambiguous:       # NumPy: a jump of exactly +period/2 stays +period/2
        edge = _ufuncs.logical_and(_ufuncs.equal(ddmod, low), _ufuncs.greater(dd, 0))
        ddmod = where(edge, high, ddmod)
    correct = _ufuncs.subtract(ddmod, dd)
    correct = where(_ufuncs.less(_ufuncs.abs(dd), discont), 0, correct)
    up = a.astype(dtype, copy=True)
    tail = tuple(slice(1, None) if i == axis else slice(None) for i in range(nd))
    up[tail] = _ufuncs.add(a[tail], cumsum(correct, axis=axis))
    return up
