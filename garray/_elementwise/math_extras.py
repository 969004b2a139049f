"""NumPy's numeric functions built from garray's ufuncs and reductions: around (round to
``decimals``), fix, real_if_close, trapezoid, unwrap, gradient.  Every value is computed
on the device.
"""

from .._dtypes import kind_of as _kind_of
import operator

from .._args import as_array
from . import ufuncs as _ufuncs
from .. import _dtypes
from .. import _dtype_time as _time
from .._core import asarray, empty_like, ndarray
import math

from .functions import where
from .._reduce.statistics import diff
from .._reduce.reductions import all as _all, sum as _sum
from .._reduce.scans import cumsum

__all__ = ["around", "round", "fix", "real_if_close", "trapezoid", "unwrap", "gradient"]


def around(a, decimals=0, out=None):
    """Round to ``decimals`` decimal places, halves to even (NumPy's ``round(a,
    decimals)``): x * 10**decimals is rounded and scaled back (negative decimals round
    to tens, hundreds ...; integers go through float64, as NumPy's).

    >>> garray.around(garray.asarray([1.25, 2.675, 15.0]), 1)
    array([ 1.2,  2.7, 15. ])

    Parameters
    ----------
    a : ndarray or array_like
        Input array.
    decimals : int, optional
        Number of decimal places (negative: tens, hundreds...).
    out : ndarray, optional
        A garray array of the result's shape to write into.

    Returns
    -------
    ndarray
        In a's dtype.

    See Also
    --------
    numpy.around
    numpy.round
    """
    if isinstance(decimals, bool) or not hasattr(type(decimals), "__index__"):
        raise TypeError(f"decimals: expected an integer, got {type(decimals).__name__}")
    d = operator.index(decimals)
    x = as_array(a, "a")
    kind = _kind_of(x.dtype)
    if kind == "b":
        # NumPy: float16 (its round loop for bool) at 0 decimals, else a casting error
        if d != 0:
            raise TypeError(f"around: cannot round a bool array to {d} decimals (NumPy "
                            f"cannot cast the float result back to bool)")
        r = x.astype(_dtypes.float16)
        if out is None:
            return r
        if not _dtypes.can_cast(_dtypes.float16, out.dtype, "same_kind"):
            raise TypeError(f"around: cannot cast the result from float16 to out's "
                            f"{out.dtype} with casting rule 'same_kind'")
        out[...] = r
        return out
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
    if tuple(out.shape) != tuple(r.shape):      # NumPy: out is not broadcast into
        raise ValueError(f"around: invalid output shape {out.shape} for a result of "
                         f"shape {r.shape}")
    out[...] = r
    return out


def round(x, decimals=0, out=None):  # noqa: A001 - NumPy's and the Array API's name
    """Round to the nearest integer, halves to even (the Array API's ``round(x)``), or
    to ``decimals`` decimal places (NumPy's ``round(a, decimals, out)``: ``around``).

    Parameters
    ----------
    x : ndarray or array_like
        Input array.
    decimals : int, optional
        Number of decimal places (negative: tens, hundreds...).
    out : ndarray, optional
        A garray array of the result's shape to write into.

    Returns
    -------
    ndarray
        In x's dtype (bool: float16, as NumPy).

    See Also
    --------
    numpy.round
    """
    return around(x, decimals, out)


def fix(x, out=None):
    """Round towards zero (floats; integers and bools are kept).

    Parameters
    ----------
    x : ndarray or array_like
        Input.
    out : ndarray, optional
        A garray array of the result's shape to write into.

    Returns
    -------
    ndarray
        In x's dtype.

    See Also
    --------
    numpy.fix
    """
    a = as_array(x, "x")
    if _kind_of(a.dtype) in "biu":
        if out is None:
            return a.copy()
        out[...] = a
        return out
    return _ufuncs.trunc(a, out=out)


def real_if_close(a, tol=100):
    """The real part of a complex array whose imaginary parts are all within ``tol``
    machine epsilons of zero (``tol`` <= 1: an absolute tolerance); else ``a``.

    Parameters
    ----------
    a : ndarray or array_like
        Input.
    tol : float, optional
        Tolerance in machine epsilons (an absolute one when at most 1).

    Returns
    -------
    ndarray
        Real when close enough, else a.

    See Also
    --------
    numpy.real_if_close
    """
    x = as_array(a, "a")
    if _kind_of(x.dtype) != "c":
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

    Parameters
    ----------
    y : ndarray or array_like
        Samples.
    x : ndarray or array_like, optional
        Sample points.
    dx : float, optional
        Spacing when x is None.
    axis : int, optional
        The axis to integrate along.

    Returns
    -------
    ndarray
        float64 for integer input; 0-d for 1-d input.

    See Also
    --------
    numpy.trapezoid
    """
    y = as_array(y, "y")
    nd = y.ndim
    if nd == 0:
        raise ValueError("trapezoid: y must have at least one dimension")
    axis = operator.index(axis)
    if not -nd <= axis < nd:
        import numpy
        raise numpy.exceptions.AxisError(
            f"axis: axis {axis} is out of bounds for array of dimension {nd}")
    x_axis = axis          # x is differenced along the axis as given (NumPy's), which
    axis %= nd             # differs from y's when x has another number of dimensions
    if x is None:
        d = dx
    else:
        xa = as_array(x, "x", y.device)
        if xa.ndim == 1:
            d = diff(xa)
            d = d.reshape(tuple(d.shape[0] if i == axis else 1 for i in range(nd)))
        else:
            d = diff(xa, axis=x_axis)
    hi = tuple(slice(1, None) if i == axis else slice(None) for i in range(nd))
    lo = tuple(slice(None, -1) if i == axis else slice(None) for i in range(nd))
    mid = _ufuncs.divide(_ufuncs.add(y[hi], y[lo]), 2.0)
    return _sum(_ufuncs.multiply(d, mid), axis=axis)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """Undo jumps larger than ``discont`` (period/2 by default) along ``axis`` by adding
    multiples of ``period`` (phase unwrapping).

    Parameters
    ----------
    p : ndarray or array_like
        Input.
    discont : float, optional
        Largest jump left alone (period / 2 by default).
    axis : int, optional
        The axis.
    period : float, optional
        The period.

    Returns
    -------
    ndarray
        float.

    See Also
    --------
    numpy.unwrap
    """
    a = as_array(p, "p")
    nd = a.ndim
    dd = diff(a, axis=axis)
    axis = operator.index(axis) % nd
    if discont is None:
        discont = period / 2
    dtype = _dtypes.result_type(dd, period)
    if _kind_of(dtype) in "iu":
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


def _spacings(f, axes, varargs):
    """NumPy's spacing arguments per axis: a scalar, or the differences of 1-d sample
    coordinates (a scalar again when they are uniform)."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and getattr(varargs[0], "ndim", 0) == 0 and not isinstance(varargs[0],
                                                                          (list, tuple)):
        return list(varargs) * len(axes)
    if n != len(axes):
        raise TypeError("gradient: invalid number of arguments (one spacing, or one per "
                        "axis)")
    dx = []
    for i, d in enumerate(varargs):
        if getattr(d, "ndim", None) == 0 or isinstance(d, (int, float)):
            dx.append(d)
            continue
        d = asarray(d, device=f.device)
        if d.ndim != 1:
            raise ValueError("gradient: distances must be either scalars or 1d")
        if d.shape[0] != f.shape[axes[i]]:
            raise ValueError("gradient: when 1d, distances must match the length of the "
                             "corresponding dimension")
        if _kind_of(d.dtype) in "iub":
            d = d.astype(_dtypes.float64)
        dd = diff(d)
        dx.append(dd[0] if dd.size and bool(_all(_ufuncs.equal(dd, dd[0]))) else dd)
    return dx


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of ``f`` by second-order central differences inside and first- or
    second-order (``edge_order``) one-sided differences at the boundaries; spacings
    as scalars or 1-d sample coordinates per axis (NumPy's formulas).

    >>> garray.gradient(garray.asarray([1.0, 2.0, 4.0, 7.0]))
    array([1. , 1.5, 2.5, 3. ])

    Parameters
    ----------
    f : ndarray or array_like
        Samples of the function.
    *varargs : scalar or ndarray
        Spacings: none (1), one for every axis, or one per axis (scalar or 1-d
        coordinates).
    axis : int, tuple of int or None, optional
        The axes (all by default).
    edge_order : {1, 2}, optional
        Accuracy at the boundaries.

    Returns
    -------
    ndarray or tuple of ndarray
        One gradient per axis (an array for one axis).

    See Also
    --------
    numpy.gradient
    """
    _time.refuse("gradient", f, error=NotImplementedError)
    f = as_array(f, "f")
    nd = f.ndim
    if axis is None:
        axes = tuple(range(nd))
    else:
        axes = axis if isinstance(axis, tuple) else (axis,)
        axes = tuple(operator.index(a) for a in axes)
        for a in axes:
            if not -nd <= a < nd:
                import numpy
                raise numpy.exceptions.AxisError(
                    f"axis: axis {a} is out of bounds for array of dimension {nd}")
        axes = tuple(a % nd for a in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("axis: repeated axis")
    dx = _spacings(f, axes, varargs)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    if _kind_of(f.dtype) == "b":
        raise TypeError("gradient: boolean subtraction is not supported (NumPy's error)")
    if _kind_of(f.dtype) in "iu":
        f = f.astype(_dtypes.float64)       # NumPy: integers give float64
    add, mul, sub, div = _ufuncs.add, _ufuncs.multiply, _ufuncs.subtract, _ufuncs.divide

    def at(ax, s):
        return tuple(s if i == ax else slice(None) for i in range(nd))

    def combine(a, b, c, fa, fb, fc):
        return add(add(mul(a, fa), mul(b, fb)), mul(c, fc))

    outs = []
    for ax, h in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        out = empty_like(f)           # every element is written below
        uniform = getattr(h, "ndim", 0) == 0
        f2, f3, f4 = f[at(ax, slice(None, -2))], f[at(ax, slice(1, -1))], f[at(ax, slice(2, None))]
        if uniform:
            out[at(ax, slice(1, -1))] = div(sub(f4, f2), mul(2.0, h))
        else:
            dx1, dx2 = h[:-1], h[1:]
            shape = tuple(-1 if i == ax else 1 for i in range(nd))
            a = div(_ufuncs.negative(dx2), mul(dx1, add(dx1, dx2))).reshape(shape)
            b = div(sub(dx2, dx1), mul(dx1, dx2)).reshape(shape)
            c = div(dx1, mul(dx2, add(dx1, dx2))).reshape(shape)
            out[at(ax, slice(1, -1))] = combine(a, b, c, f2, f3, f4)
        if edge_order == 1:
            d0, dn = (h, h) if uniform else (h[0], h[-1])
            out[at(ax, 0)] = div(sub(f[at(ax, 1)], f[at(ax, 0)]), d0)
            out[at(ax, -1)] = div(sub(f[at(ax, -1)], f[at(ax, -2)]), dn)
        else:
            if uniform:
                a, b, c = div(-1.5, h), div(2.0, h), div(-0.5, h)
            else:
                dx1, dx2 = h[0], h[1]
                a = div(_ufuncs.negative(add(mul(2.0, dx1), dx2)), mul(dx1, add(dx1, dx2)))
                b = div(add(dx1, dx2), mul(dx1, dx2))
                c = div(_ufuncs.negative(dx1), mul(dx2, add(dx1, dx2)))
            out[at(ax, 0)] = combine(a, b, c, f[at(ax, 0)], f[at(ax, 1)], f[at(ax, 2)])
            if uniform:
                a, b, c = div(0.5, h), div(-2.0, h), div(1.5, h)
            else:
                dx1, dx2 = h[-2], h[-1]
                a = div(dx2, mul(dx1, add(dx1, dx2)))
                b = div(_ufuncs.negative(add(dx2, dx1)), mul(dx1, dx2))
                c = div(add(mul(2.0, dx2), dx1), mul(dx2, add(dx1, dx2)))
            out[at(ax, -1)] = combine(a, b, c, f[at(ax, -3)], f[at(ax, -2)], f[at(ax, -1)])
        outs.append(out)
    return outs[0] if len(axes) == 1 else tuple(outs)
