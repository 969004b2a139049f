"""interp and sort_complex: compositions of garray's sort, searchsorted and
elementwise kernels."""

from .._dtypes import kind_of as _kind_of
import numpy

from .._args import as_array
from .._elementwise.functions import clip, where
from .._manip.joining import concatenate
from .sorting import argsort, searchsorted, sort

__all__ = ["interp", "sort_complex"]


def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional piecewise-linear interpolation of (xp, fp) at x; xp increasing.
    ``left``/``right``: values below/above the range (fp's ends by default); ``period``
    for angles.

    Parameters
    ----------
    x : ndarray or array_like
        Where to evaluate.
    xp : ndarray or array_like
        Increasing sample points (1-d).
    fp : ndarray or array_like
        Sample values (real or complex).
    left : scalar, optional
        Value below xp[0].
    right : scalar, optional
        Value above xp[-1].
    period : float, optional
        Period of xp (angles).

    Returns
    -------
    ndarray
        Of x's shape, float64 (complex128 for complex fp).

    See Also
    --------
    numpy.interp
    """
    xp_ = as_array(xp, "xp")
    dev = xp_.device
    x_ = as_array(x, "x", dev)
    fp_ = as_array(fp, "fp", dev)
    if xp_.ndim != 1 or fp_.ndim != 1:
        raise ValueError("interp: xp and fp must be 1-d sequences")
    if xp_.shape[0] != fp_.shape[0]:
        raise ValueError("interp: fp and xp are not of the same length")
    if xp_.shape[0] == 0:
        raise ValueError("interp: array of sample points is empty")
    for name, a in (("x", x_), ("xp", xp_)):    # NumPy converts both with the safe rule
        if not numpy.can_cast(a.dtype, numpy.float64, "safe"):
            raise TypeError(f"interp: {name}: Cannot cast array data from "
                            f"dtype('{a.dtype}') to dtype('float64') according to the "
                            f"rule 'safe'")
    complex_out = _kind_of(fp_.dtype) == "c"
    ft = numpy.complex128 if complex_out else numpy.float64
    xq = x_.astype(numpy.float64, copy=False)
    xs = xp_.astype(numpy.float64, copy=False)
    fs = fp_.astype(ft, copy=False)
    if period is not None:
        if period == 0:
            raise ValueError("interp: period must be a non-zero value")
        period = abs(float(period))
        left = right = None
        xq = xq % period
        xs = xs % period
        order = argsort(xs)
        xs, fs = xs[order], fs[order]
        xs = concatenate([xs[-1:] - period, xs, xs[:1] + period])
        fs = concatenate([fs[-1:], fs, fs[:1]])
    n = xs.shape[0]
    j = clip(searchsorted(xs, xq, side="right") - 1, 0, max(n - 2, 0))
    x0, f0 = xs[j], fs[j]
    if n > 1:
        x1, f1 = xs[j + 1], fs[j + 1]
        slope = (f1 - f0) / (x1 - x0)
        y = slope * (xq - x0) + f0
        # NumPy: at a sample point the value is fp there (no 0 * inf from a vertical step)
        y = where(xq == x1, f1, y)
        y = where(xq == x0, f0, y)
    else:
        y = f0 + 0 * xq
    lo = fs[0] if left is None else left
    hi = fs[n - 1] if right is None else right
    if period is None:
        y = where(xq < xs[0], lo, y)
        y = where(xq > xs[n - 1], hi, y)
    return y


def sort_complex(a):
    """Sort by real part, then imaginary part; the result is complex.

    Parameters
    ----------
    a : ndarray or array_like
        Input.

    Returns
    -------
    ndarray
        Complex: complex input keeps its dtype; 8/16-bit integers give complex64, other
        real dtypes complex128 (NumPy's rule).

    See Also
    --------
    numpy.sort_complex
    """
    a = as_array(a, "sort_complex: a")
    s = sort(a, axis=-1)                   # a 0-d a is an AxisError, as in NumPy
    if _kind_of(s.dtype) == "c":
        return s
    # NumPy: 8- and 16-bit integers become complex64, everything else complex128
    small = _kind_of(s.dtype) in "iu" and s.dtype.itemsize <= 2
    return s.astype(numpy.complex64 if small else numpy.complex128)
