"""The modified Bessel function of order 0 (i0) and the Kaiser window.

i0 is Cephes' Chebyshev expansion, as NumPy's (its coefficients below): exp(x) times a
30-term series in x/2 - 2 for |x| <= 8, a 25-term series in 32/x - 2 divided by
sqrt(x) beyond.  Both series are evaluated elementwise on the device and ``where``
picks one per element.
"""

from .._dtypes import kind_of as _kind_of
from .._args import as_array
from . import ufuncs as _ufuncs
from .. import _dtypes
from .. import _dtype_time as _time
from .._core import ones
from .._creation.ranges import arange
from .functions import where

__all__ = ["i0", "kaiser"]

_I0_A = (
    -4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16,
    1.715391285555133e-15, -1.1685332877993451e-14, 7.676185498604936e-14,
    -4.856446783111929e-13, 2.95505266312964e-12, -1.726826291441556e-11,
    9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
    -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07,
    1.1173875391201037e-06, -4.4167383584587505e-06, 1.6448448070728896e-05,
    -5.754195010082104e-05, 0.00018850288509584165, -0.0005763755745385824,
    0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
    -0.02373741480589947, 0.04930528423967071, -0.09490109704804764, 0.17162090152220877,
    -0.3046826723431984, 0.6767952744094761,
)

_I0_B = (
    -7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17,
    3.461222867697461e-17, -2.8276239805165836e-16, -3.425485619677219e-16,
    1.7725601330565263e-15, 3.8116806693526224e-15, -9.554846698828307e-15,
    -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
    7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
    -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10,
    3.3962320257083865e-09, 2.266668990498178e-08, 2.0489185894690638e-07,
    2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
    0.8044904110141088,
)



def _chbevl(x, coeffs):
    # Clenshaw's recurrence, NumPy's order of operations.
    b0, b1, b2 = coeffs[0], 0.0, 0.0
    for c in coeffs[1:]:
        b2, b1 = b1, b0
        b0 = _ufuncs.add(_ufuncs.subtract(_ufuncs.multiply(x, b1), b2), c)
    return _ufuncs.multiply(0.5, _ufuncs.subtract(b0, b2))


def i0(x):
    """The modified Bessel function of the first kind, order 0, elementwise (float
    results; integers give float64).

    >>> garray.i0(garray.asarray([0.0, 1.0]))
    array([1.        , 1.26606588])

    Parameters
    ----------
    x : ndarray or array_like
        Real input.

    Returns
    -------
    ndarray
        float64 for integer input, else x's dtype.

    See Also
    --------
    numpy.i0
    """
    _time.refuse("i0", x)
    a = as_array(x, "x")
    if _kind_of(a.dtype) == "c":
        raise TypeError("i0 not supported for complex values")
    if _kind_of(a.dtype) != "f":
        a = a.astype(_dtypes.float64)
    a = _ufuncs.abs(a)
    e = _ufuncs.exp(a)
    small = _ufuncs.multiply(e, _chbevl(_ufuncs.subtract(_ufuncs.divide(a, 2.0), 2), _I0_A))
    big = _ufuncs.divide(
        _ufuncs.multiply(e, _chbevl(_ufuncs.subtract(_ufuncs.divide(32.0, a), 2.0), _I0_B)),
        _ufuncs.sqrt(a))
    return where(_ufuncs.less_equal(a, 8.0), small, big)


def kaiser(M, beta):
    """The Kaiser window of M points with shape parameter ``beta``.

    Parameters
    ----------
    M : int
        Number of points.
    beta : float
        Shape parameter.

    Returns
    -------
    ndarray
        float64.

    See Also
    --------
    numpy.kaiser
    """
    if isinstance(M, bool) or not isinstance(M, (int, float)) and not hasattr(M, "__float__"):
        raise TypeError(f"kaiser: M must be a number, got {type(M).__name__}")
    M, beta = float(M), float(beta)
    if M == 1:
        return ones(1, _dtypes.float64)
    n = arange(0, M)
    alpha = (M - 1) / 2.0
    t = _ufuncs.pow(_ufuncs.divide(_ufuncs.subtract(n, alpha), alpha), 2.0)
    w = i0(_ufuncs.multiply(beta, _ufuncs.sqrt(_ufuncs.subtract(1, t))))
    return _ufuncs.divide(w, i0(beta))
