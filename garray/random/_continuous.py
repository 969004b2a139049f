"""Continuous distributions of ``Generator`` on the element-stream kernel (kinds 0-63 of
``_kernels/garray/rand_continuous.h``; ``KINDS`` numbers them as its enum does, with the
enum's ``D_STD_`` read as ``standard_``).

Every method draws with one ``rng_dist`` launch: parameters are Python floats or float64
garray arrays broadcast to the result (NumPy's rules), checked as NumPy checks them
(``scale < 0``, ``a <= 0`` ...; an array check reads one bool back).  Results are
float64, or float32 (the float64 value rounded) where NumPy has ``dtype=``.
``dirichlet`` draws kind ``log_standard_gamma`` from ``_multivariate.py``.
"""

import numpy

from .._core import ndarray
from .._reduce import reductions
from . import _draw
from ._generator_base import (_F64, _broadcast_shape, _check_nonneg, _float_dtype, _param,
                              _shape, _target)

KINDS = {
    "standard_exponential": 0, "exponential": 1, "standard_gamma": 2, "gamma": 3,
    "beta": 4, "chisquare": 5, "standard_t": 6, "f": 7, "lognormal": 8, "laplace": 9,
    "logistic": 10, "gumbel": 11, "weibull": 12, "pareto": 13, "rayleigh": 14,
    "standard_cauchy": 15, "power": 16, "log_standard_gamma": 17, "vonmises": 18,
    "triangular": 19, "wald": 20,
}


def _check_positive(x, name):
    """NumPy's ``name <= 0`` ValueError (NaN passes, as in NumPy)."""
    bad = x <= 0 if isinstance(x, float) else bool(reductions.any(x <= 0))
    if bad:
        raise ValueError(f"{name} <= 0")


_CHECKS = {"nonneg": _check_nonneg, "positive": _check_positive, None: None}


class _ContinuousMethods:
    """Mixed into ``Generator``."""

    def _continuous(self, method, size, params, dtype=_F64, out=None):
        """One draw of kind KINDS[method]: ``params`` is ((value, name, check), ...)
        with check 'nonneg', 'positive' or None."""
        vals = []
        for value, name, check in params:
            p = _param(value, name)
            if _CHECKS[check] is not None:
                _CHECKS[check](p, name)
            vals.append(p)
        arrays = [p for p in vals if isinstance(p, ndarray)]
        if out is not None:
            shape, out = _target(size, dtype, out)
            if arrays:     # the parameters must broadcast to out's shape
                _broadcast_shape(shape, *arrays)
        elif arrays:
            shape = _broadcast_shape(size, *arrays)
        else:
            shape = _shape(size)
        return _draw.dist(self._bit_generator, KINDS[method], shape, dtype, *vals,
                          out=out)

    # ---- exponential family ----------------------------------------------------------

    def standard_exponential(self, size=None, dtype=numpy.float64, method="zig", out=None):
        """Exponential variates of mean 1 (``-log(u)``, u in (0, 1]; float32 is the
        float64 value rounded).  ``method`` is accepted for NumPy's signature ('zig' or
        'inv'); both give the same draws here.

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        dtype : dtype, optional
            float64 (default) or float32 (the float64 draw rounded).
        method : str, optional
            Accepted for NumPy's signature.
        out : ndarray, optional
            A garray array of the result's shape and dtype to fill (on the generator's
            device).

        Returns
        -------
        ndarray
            float64 draws (float32 with dtype=float32) of the result shape, on the
            generator's device.

        See Also
        --------
        numpy.random.Generator.standard_exponential
        """
        if method not in ("zig", "inv"):
            raise ValueError(f"method: expected 'zig' or 'inv', got {method!r}")
        dt = _float_dtype(dtype, "standard_exponential")
        shape, out = _target(size, dt, out)
        return _draw.exponential(self._bit_generator, shape, dt, out=out)

    def exponential(self, scale=1.0, size=None):
        """Exponential variates ``scale * E`` (E standard exponential; float64).

        >>> garray.random.default_rng(0).exponential(2.0, size=3).shape
        (3,)

        Parameters
        ----------
        scale : float or array_like of floats
            Scale, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.exponential
        """
        # Packed like standard_exponential (its draws times scale, bit for bit); an array
        # scale multiplies the standard draws with garray's own multiply.
        s = _param(scale, "scale")
        _CHECKS["nonneg"](s, "scale")
        if isinstance(s, float):
            return _draw.exponential(self._bit_generator, _shape(size), _F64, s)
        shape = _broadcast_shape(size, s)
        return _draw.exponential(self._bit_generator, shape, _F64) * s

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None):
        """Gamma variates of scale 1 (Marsaglia-Tsang; shape < 1 by the u**(1/shape)
        boost; shape 0 gives 0).  float32 is the float64 value rounded.

        Parameters
        ----------
        shape : float or array_like of floats
            Shape (k), non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        dtype : dtype, optional
            float64 (default) or float32 (the float64 draw rounded).
        out : ndarray, optional
            A garray array of the result's shape and dtype to fill (on the generator's
            device).

        Returns
        -------
        ndarray
            float64 draws (float32 with dtype=float32) of the result shape, on the
            generator's device.

        See Also
        --------
        numpy.random.Generator.standard_gamma
        """
        dt = _float_dtype(dtype, "standard_gamma")
        return self._continuous("standard_gamma", size, ((shape, "shape", "nonneg"),),
                                dt, out)

    def gamma(self, shape, scale=1.0, size=None):
        """Gamma variates ``scale * G(shape)`` (float64).

        Parameters
        ----------
        shape : float or array_like of floats
            Shape (k), non-negative.
        scale : float or array_like of floats
            Scale, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.gamma
        """
        return self._continuous("gamma", size, ((shape, "shape", "nonneg"),
                                                (scale, "scale", "nonneg")))

    def beta(self, a, b, size=None):
        """Beta variates ``X / (X + Y)`` for gammas X ~ G(a), Y ~ G(b) (from their
        logarithms when a or b is below 1, so tiny parameters do not give 0 / 0).

        Parameters
        ----------
        a : float or array_like of floats
            Alpha, positive.
        b : float or array_like of floats
            Beta, positive.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.beta
        """
        return self._continuous("beta", size, ((a, "a", "positive"), (b, "b", "positive")))

    def chisquare(self, df, size=None):
        """Chi-square variates ``2 * G(df / 2)``.

        Parameters
        ----------
        df : float or array_like of floats
            Degrees of freedom, positive.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.chisquare
        """
        return self._continuous("chisquare", size, ((df, "df", "positive"),))

    def standard_t(self, df, size=None):
        """Student's t variates ``Z / sqrt(chi2(df) / df)``.

        Parameters
        ----------
        df : float or array_like of floats
            Degrees of freedom, positive.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.standard_t
        """
        return self._continuous("standard_t", size, ((df, "df", "positive"),))

    def f(self, dfnum, dfden, size=None):
        """F variates ``(chi2(dfnum) / dfnum) / (chi2(dfden) / dfden)``.

        Parameters
        ----------
        dfnum : float or array_like of floats
            Degrees of freedom of the numerator, positive.
        dfden : float or array_like of floats
            Degrees of freedom of the denominator, positive.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.f
        """
        return self._continuous("f", size, ((dfnum, "dfnum", "positive"),
                                            (dfden, "dfden", "positive")))

    # ---- location-scale and simple transforms ---------------------------------------

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        """``exp(mean + sigma * Z)``, Z standard normal.

        Parameters
        ----------
        mean : float or array_like of floats
            Mean (of the underlying normal for lognormal), positive for wald.
        sigma : float or array_like of floats
            Standard deviation of the underlying normal, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.lognormal
        """
        return self._continuous("lognormal", size, ((mean, "mean", None),
                                                    (sigma, "sigma", "nonneg")))

    def laplace(self, loc=0.0, scale=1.0, size=None):
        """Double-exponential variates ``loc +- scale * E``.

        Parameters
        ----------
        loc : float or array_like of floats
            Location (the mean for normal, logistic, laplace; the mode for gumbel).
        scale : float or array_like of floats
            Scale, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.laplace
        """
        return self._continuous("laplace", size, ((loc, "loc", None),
                                                  (scale, "scale", "nonneg")))

    def logistic(self, loc=0.0, scale=1.0, size=None):
        """Logistic variates ``loc + scale * log(u / (1 - u))``, u in (0, 1).

        Parameters
        ----------
        loc : float or array_like of floats
            Location (the mean for normal, logistic, laplace; the mode for gumbel).
        scale : float or array_like of floats
            Scale, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.logistic
        """
        return self._continuous("logistic", size, ((loc, "loc", None),
                                                   (scale, "scale", "nonneg")))

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        """Gumbel variates ``loc - scale * log(-log(u))``, u in (0, 1).

        Parameters
        ----------
        loc : float or array_like of floats
            Location (the mean for normal, logistic, laplace; the mode for gumbel).
        scale : float or array_like of floats
            Scale, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.gumbel
        """
        return self._continuous("gumbel", size, ((loc, "loc", None),
                                                 (scale, "scale", "nonneg")))

    def weibull(self, a, size=None):
        """Weibull variates ``E**(1/a)`` (a = 0 gives 0, as NumPy).

        Parameters
        ----------
        a : float or array_like of floats
            Shape, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.weibull
        """
        return self._continuous("weibull", size, ((a, "a", "nonneg"),))

    def pareto(self, a, size=None):
        """Pareto II (Lomax) variates ``exp(E / a) - 1``, NumPy's convention.

        Parameters
        ----------
        a : float or array_like of floats
            Shape, positive.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.pareto
        """
        return self._continuous("pareto", size, ((a, "a", "positive"),))

    def rayleigh(self, scale=1.0, size=None):
        """Rayleigh variates ``scale * sqrt(-2 log u)``.

        Parameters
        ----------
        scale : float or array_like of floats
            Scale, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.rayleigh
        """
        return self._continuous("rayleigh", size, ((scale, "scale", "nonneg"),))

    def standard_cauchy(self, size=None):
        """Cauchy variates, the ratio of two standard normals.

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.standard_cauchy
        """
        return self._continuous("standard_cauchy", size, ())

    def power(self, a, size=None):
        """Power-function variates ``u**(1/a)`` in (0, 1].

        Parameters
        ----------
        a : float or array_like of floats
            Shape, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.power
        """
        return self._continuous("power", size, ((a, "a", "positive"),))

    def vonmises(self, mu, kappa, size=None):
        """von Mises variates on [-pi, pi] (NumPy's Best-Fisher sampler and its cut-offs:
        uniform below kappa 1e-8, wrapped normal above 1e6).

        Parameters
        ----------
        mu : float or array_like of floats
            Mode (centre) in radians.
        kappa : float or array_like of floats
            Concentration, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.vonmises
        """
        return self._continuous("vonmises", size, ((mu, "mu", None),
                                                   (kappa, "kappa", "nonneg")))

    def triangular(self, left, mode, right, size=None):
        """Triangular variates on [left, right] peaking at ``mode``, by NumPy's inversion
        of the cdf on one uniform.

        >>> garray.random.default_rng(0).triangular(0.0, 1.0, 3.0, size=2).shape
        (2,)

        Parameters
        ----------
        left : float or array_like of floats
            Lower limit.
        mode : float or array_like of floats
            Peak, between left and right.
        right : float or array_like of floats
            Upper limit, above left.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.triangular
        """
        vals = [_param(v, n) for v, n in ((left, "left"), (mode, "mode"), (right, "right"))]
        lo, mo, hi = vals
        # NumPy's checks, in its order (NaN passes, as there)
        for bad, message in ((lambda: lo > mo, "left > mode"),
                             (lambda: mo > hi, "mode > right"),
                             (lambda: lo == hi, "left == right")):
            b = bad()
            if b if isinstance(b, bool) else bool(reductions.any(b)):
                raise ValueError(message)
        return self._continuous("triangular", size, ((lo, "left", None), (mo, "mode", None),
                                                     (hi, "right", None)))

    def wald(self, mean, scale, size=None):
        """Wald (inverse Gaussian) variates of mean ``mean``, by NumPy's
        Michael-Schucany-Haas method (its root rearranged to avoid cancellation).

        >>> garray.random.default_rng(0).wald(1.0, 2.0, size=2).dtype
        dtype('float64')

        Parameters
        ----------
        mean : float or array_like of floats
            Mean (of the underlying normal for lognormal), positive for wald.
        scale : float or array_like of floats
            Scale, positive.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.wald
        """
        return self._continuous("wald", size, ((mean, "mean", "positive"),
                                               (scale, "scale", "positive")))
