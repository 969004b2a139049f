"""garray.special: SciPy's ``scipy.special`` error, gamma and logistic functions on garray
arrays (docs/ecosystem.md).

SciPy 1.17, with ``SCIPY_ARRAY_API=1``, looks for a ``special`` namespace on an array's
library before it falls back to computing on the host with NumPy: with this module,
``scipy.special.erf(x)`` on a garray array runs ``garray.special.erf`` on the array's
device.  Every function computes in double precision from the input's value, then rounds
to the result dtype, as SciPy's float32 loops do (its Cephes/xsf code is double), and
returns SciPy's values at the special points (infinities, NaN, poles).

Dtypes, as SciPy's ufunc loops: float32 in gives float32; bool, integer and float16 inputs
give float64 (SciPy has no float16 loop); float64 stays.  Complex input: ``erf``, ``erfc`` and ``ndtr`` raise
NotImplementedError (SciPy has complex loops; garray has no Faddeeva function yet);
``gammaln``, ``expit`` and ``logit`` raise TypeError, as SciPy's (no complex loop).

The kernels are garray ElementwiseKernels over the device's libm (glibc on the CPU
device, CUDA's and HIP's device math on GPUs), compiled on first use per dtype and
device and kept in the kernel cache.  Accuracy: within a few ulps of SciPy's (the libm's
``erf``/``erfc``/``lgamma`` against Cephes).
"""

from .. import _dtypes
from .._dtypes import kind_of as _kind_of
from .._args import as_array
from .._core import asarray, ndarray
from ..kernels._elementwise import ElementwiseKernel

__all__ = ["erf", "erfc", "ndtr", "gammaln", "expit", "logit"]

_PREAMBLE = r"""
GA_DEVICE double _ga_sp_lgamma(double x) {
    if (x < -1.7976931348623157e308) return x;      // SciPy: gammaln(-inf) = -inf
#if defined(GARRAY_HOST)
    int sign;
    return lgamma_r(x, &sign);                      // glibc's lgamma writes signgam
#else
    return lgamma(x);
#endif
}
GA_DEVICE double _ga_sp_ndtr(double a) {     // Cephes' ndtr, as SciPy's
    if (a != a) return a;
    const double x = a * 0.70710678118654752440;
    const double z = fabs(x);
    if (z < 0.70710678118654752440) return 0.5 + 0.5 * erf(x);
    const double y = 0.5 * erfc(z);
    return x > 0 ? 1.0 - y : y;
}
GA_DEVICE double _ga_sp_logit(double x) {    // SciPy's: log1p form near 1/2
    if (x < 0.3 || x > 0.65) return log(x / (1.0 - x));
    const double s = 2.0 * (x - 0.5);
    return log1p(s) - log1p(-s);
}
"""

_OPS = {
    "erf": "erf(v)",
    "erfc": "erfc(v)",
    "ndtr": "_ga_sp_ndtr(v)",
    "gammaln": "_ga_sp_lgamma(v)",
    "expit": "1.0 / (1.0 + exp(-v))",
    "logit": "_ga_sp_logit(v)",
}
_COMPLEX_IN_SCIPY = ("erf", "erfc", "ndtr")
_kernels = {}


def _kernel(name):
    k = _kernels.get(name)
    if k is None:
        k = ElementwiseKernel("T x", "T y", f"const double v = (double)x; y = (T)({_OPS[name]})",
                              f"garray_special_{name}", preamble=_PREAMBLE)
        _kernels[name] = k
    return k


def _apply(name, x):
    x = as_array(x, f"{name}: x")
    kind = _kind_of(x.dtype)
    if _dtypes.is_ml_format(x.dtype):
        # SciPy's ufuncs refuse ml_dtypes' types
        raise TypeError(f"garray.special.{name}: x has dtype {x.dtype}; only boolean and "
                        f"numerical dtypes are supported (as SciPy)")
    if kind == "c":
        if name in _COMPLEX_IN_SCIPY:
            raise NotImplementedError(f"garray.special.{name}: complex input ({x.dtype}) is "
                                      "not implemented (real floating, integer and bool only)")
        raise TypeError(f"garray.special.{name}: x: complex input ({x.dtype}) is not "
                        "supported (SciPy has no complex loop for it)")
    if kind != "f" or x.dtype.itemsize < 4:
        x = x.astype("float64")       # SciPy has no float16 loop: float16 computes as float64
    return _kernel(name)(x)


def erf(x):
    """The error function, elementwise: 2/sqrt(pi) times the integral of exp(-t**2) from 0
    to x (``scipy.special.erf``).

    Parameters
    ----------
    x : ndarray or array_like
        Real input (float32, float64; bool, integers and float16 are computed as float64).

    Returns
    -------
    ndarray
        erf(x) on ``x``'s device; float32 for float32 input, else float64.  erf(+-inf) is
        +-1, NaN propagates.

    Raises
    ------
    NotImplementedError
        For complex input (SciPy's complex erf is not implemented in garray).

    See Also
    --------
    erfc, ndtr
    """
    return _apply("erf", x)


def erfc(x):
    """The complementary error function ``1 - erf(x)``, elementwise, accurate where erf(x)
    is close to 1 (``scipy.special.erfc``).

    Parameters
    ----------
    x : ndarray or array_like
        Real input (float32, float64; bool, integers and float16 are computed as float64).

    Returns
    -------
    ndarray
        erfc(x) on ``x``'s device; float32 for float32 input, else float64.  erfc(-inf) is
        2, erfc(inf) is 0.

    Raises
    ------
    NotImplementedError
        For complex input.

    See Also
    --------
    erf, ndtr
    """
    return _apply("erfc", x)


def ndtr(x):
    """The standard normal cumulative distribution function, elementwise
    (``scipy.special.ndtr``), by Cephes' formula: ``(1 + erf(x/sqrt 2)) / 2`` for
    ``|x| < 1``, ``erfc`` beyond.

    Parameters
    ----------
    x : ndarray or array_like
        Real input (float32, float64; bool, integers and float16 are computed as float64).

    Returns
    -------
    ndarray
        Phi(x) on ``x``'s device; float32 for float32 input, else float64.

    Raises
    ------
    NotImplementedError
        For complex input.

    See Also
    --------
    erf, erfc
    """
    return _apply("ndtr", x)


def gammaln(x):
    """The logarithm of the absolute value of the gamma function, elementwise
    (``scipy.special.gammaln``).

    Parameters
    ----------
    x : ndarray or array_like
        Real input (float32, float64; bool, integers and float16 are computed as float64).

    Returns
    -------
    ndarray
        log|Gamma(x)| on ``x``'s device; float32 for float32 input, else float64.  +inf at
        the poles (0 and the negative integers) and at +inf; -inf at -inf, as SciPy's.

    Raises
    ------
    TypeError
        For complex input (SciPy's gammaln has no complex loop either).

    See Also
    --------
    expit, erf
    """
    return _apply("gammaln", x)


def expit(x):
    """The logistic sigmoid ``1 / (1 + exp(-x))``, elementwise (``scipy.special.expit``).

    Parameters
    ----------
    x : ndarray or array_like
        Real input (float32, float64; bool, integers and float16 are computed as float64).

    Returns
    -------
    ndarray
        expit(x) on ``x``'s device; float32 for float32 input, else float64.

    Raises
    ------
    TypeError
        For complex input, as SciPy's.

    See Also
    --------
    logit
    """
    return _apply("expit", x)


def logit(x):
    """The logit function ``log(x / (1 - x))``, elementwise (``scipy.special.logit``; SciPy's
    ``log1p`` form for x in [0.3, 0.65], where the quotient loses precision).

    Parameters
    ----------
    x : ndarray or array_like
        Real input (float32, float64; bool, integers and float16 are computed as float64).

    Returns
    -------
    ndarray
        logit(x) on ``x``'s device; float32 for float32 input, else float64.  -inf at 0,
        inf at 1, NaN outside [0, 1].

    Raises
    ------
    TypeError
        For complex input, as SciPy's.

    See Also
    --------
    expit
    """
    return _apply("logit", x)
