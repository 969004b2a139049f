"""Discrete distributions of ``Generator`` on the element-stream kernel (kinds 64-127 of
``_kernels/garray/rand_discrete.h``; ``KINDS`` numbers them as its enum does).

Parameters are checked here with NumPy's exceptions and messages; a parameter that is an
array is checked on its device (one bool read back per check).  The samplers and their
limits are described in ``docs/random-discrete.md``.
"""

from .._dtypes import kind_of as _kind_of
import math
import numbers

import numpy

from .._args import as_array
from .._array_utils import ascontiguousarray
from .._core import broadcast_to, empty, ndarray
from .._elementwise.ufuncs import isnan, sqrt
from .._reduce import reductions
from .._tables.random import R_MULTINOMIAL
from . import _draw
from ._generator_base import _broadcast_shape, _param

KINDS = {"poisson": 64, "binomial": 65, "geometric": 66, "negative_binomial": 67,
         "logseries": 68, "hypergeometric": 69, "noncentral_chisquare": 70,
         "noncentral_f": 71, "zipf": 72}

_I64, _F64 = numpy.dtype("int64"), numpy.dtype("float64")

# NumPy's POISSON_LAM_MAX: int64 max - 10 sqrt(int64 max), so that a draw (mean + many
# standard deviations) still fits in int64.
_LAM_MAX = 9.223372006484771e18


def _any(x, test):
    """``test`` (a predicate on floats / garray arrays) holds somewhere in x."""
    if isinstance(x, float):
        return bool(test(x))
    return bool(reductions.any(test(x)))


def _isnan(x):
    return x != x if isinstance(x, float) else isnan(x)


def _check(x, name, bad, message):
    if _any(x, bad):
        raise ValueError(message)


def _is_nan_words(x):
    """NumPy says 'is NaN' of a scalar parameter and 'contains NaNs' of an array."""
    return "is NaN" if isinstance(x, float) else "contains NaNs"


def _p_closed(x, name):
    """NumPy's CONS_BOUNDED_0_1: 0 <= p <= 1, not NaN."""
    _check(x, name, lambda v: (v < 0) | (v > 1) | _isnan(v),
           f"{name} < 0, {name} > 1 or {name} {_is_nan_words(x)}")


def _p_gt0(x, name):
    """NumPy's CONS_BOUNDED_GT_0_1: 0 < p <= 1, not NaN."""
    _check(x, name, lambda v: (v <= 0) | (v > 1) | _isnan(v),
           f"{name} <= 0, {name} > 1 or {name} contains NaNs")


def _count(x, name):
    """An integer parameter (binomial's n, ...) as NumPy converts it to int64: a Python
    or NumPy scalar truncates (NaN, infinity and values past int64 raise as Python's
    int() and NumPy's C long conversion do); an array must have an integer or bool
    dtype (NumPy refuses to cast float arrays), a sequence is built as int64 (its floats
    truncate).  Returns a float or a float64 array."""
    if isinstance(x, (numbers.Real, numpy.generic)) and not isinstance(x, ndarray) or (
            isinstance(x, numpy.ndarray) and x.ndim == 0):
        v = float(x) if not isinstance(x, (int, numpy.integer)) else None
        if v is not None and math.isnan(v):
            raise ValueError("cannot convert float NaN to integer")
        if v is not None and math.isinf(v):
            raise OverflowError("cannot convert float infinity to integer")
        i = int(x)
        if not -2**63 <= i < 2**63:
            raise OverflowError("Python int too large to convert to C long")
        return float(i)
    if isinstance(x, (list, tuple)):
        # NumPy builds a sequence straight as int64: floats truncate, NaN and inf raise
        x = numpy.array(x, dtype=numpy.int64).tolist()
    a = as_array(x, name)
    if _kind_of(a.dtype) not in "biu":
        raise TypeError(f"{name}: Cannot cast array data from dtype({str(a.dtype)!r}) to "
                        "dtype('int64') according to the rule 'safe'")
    return a.astype("float64")


def _draw_kind(gen, kind, size, *params, dtype=_I64):
    shape = _broadcast_shape(size, *params)
    return _draw.dist(gen._bit_generator, KINDS[kind], shape, dtype, *params)


class _DiscreteMethods:
    """Mixed into ``Generator``."""

    def poisson(self, lam=1.0, size=None):
        """Poisson counts of mean ``lam`` (int64): inversion below lam = 10, Hormann's
        PTRS rejection above (NumPy's split).  ``lam`` may be an array (broadcast
        against ``size``).

        >>> garray.random.default_rng(0).poisson(3.0, size=4).dtype
        dtype('int64')

        Parameters
        ----------
        lam : float or array_like of floats
            Expected number of events, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.poisson
        """
        lam = _param(lam, "lam")
        _check(lam, "lam", lambda v: (v < 0) | _isnan(v),
               f"lam < 0 or lam {_is_nan_words(lam)}")
        _check(lam, "lam", lambda v: v > _LAM_MAX, "lam value too large")
        return _draw_kind(self, "poisson", size, lam)

    def binomial(self, n, p, size=None):
        """Successes in ``n`` trials of probability ``p`` (int64; a scalar ``n`` truncated to
        an integer as NumPy's int64 cast does).  Inversion where ``min(p, 1 - p) * n <=
        30``, Hormann's BTRS rejection above; p > 1/2 draws n - binomial(n, 1 - p).

        >>> garray.random.default_rng(0).binomial(10, 0.5, size=3).shape
        (3,)

        Parameters
        ----------
        n : int or array_like of ints (float for negative_binomial)
            Number of trials (successes for negative_binomial), non-negative.
        p : float or array_like of floats
            Probability of success, in [0, 1] ((0, 1] for geometric, (0, 1) for logseries).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.binomial
        """
        n, p = _count(n, "n"), _param(p, "p")
        _p_closed(p, "p")                       # NumPy's order: p before n
        _check(n, "n", lambda v: v < 0, "n < 0")
        return _draw_kind(self, "binomial", size, n, p)

    def geometric(self, p, size=None):
        """Trials up to the first success, each of probability ``p`` (int64, >= 1), by
        inversion: ``ceil(log(u) / log1p(-p))``.  Counts past 2**63 are capped at the
        largest double below 2**63 (NumPy gives int64 max).

        >>> int(garray.random.default_rng(0).geometric(1.0))
        1

        Parameters
        ----------
        p : float or array_like of floats
            Probability of success, in [0, 1] ((0, 1] for geometric, (0, 1) for logseries).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.geometric
        """
        p = _param(p, "p")
        _p_gt0(p, "p")
        return _draw_kind(self, "geometric", size, p)

    def negative_binomial(self, n, p, size=None):
        """Failures before the ``n``-th success (int64; ``n`` > 0 may be fractional) as
        NumPy draws them: ``poisson(gamma(n, (1 - p) / p))`` (Marsaglia-Tsang gamma).

        >>> garray.random.default_rng(0).negative_binomial(3, 0.5, size=2).dtype
        dtype('int64')

        Parameters
        ----------
        n : int or array_like of ints (float for negative_binomial)
            Number of trials (successes for negative_binomial), non-negative.
        p : float or array_like of floats
            Probability of success, in [0, 1] ((0, 1] for geometric, (0, 1) for logseries).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.negative_binomial
        """
        n, p = _param(n, "n"), _param(p, "p")
        _check(n, "n", _isnan, "n must not be NaN")
        _check(n, "n", lambda v: v <= 0, "n <= 0")
        _p_gt0(p, "p")
        sq = math.sqrt if isinstance(n, float) else sqrt
        # The largest mean the poisson step may see (NumPy's bound, mean + 10 sd).
        max_lam = (1 - p) / p * (n + 10 * sq(n))
        _check(max_lam, "n", lambda v: v > _LAM_MAX,
               "n too large or p too small, see Generator.negative_binomial Notes")
        return _draw_kind(self, "negative_binomial", size, n, p)

    def logseries(self, p, size=None):
        """Logarithmic-series counts (int64, >= 1) by NumPy's method (Kemp's LK).

        >>> int(garray.random.default_rng(0).logseries(0.0))
        1

        Parameters
        ----------
        p : float or array_like of floats
            Probability of success, in [0, 1] ((0, 1] for geometric, (0, 1) for logseries).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.logseries
        """
        p = _param(p, "p")
        _check(p, "p", lambda v: (v < 0) | (v >= 1) | _isnan(v),
               f"p < 0, p >= 1 or p {_is_nan_words(p)}")
        return _draw_kind(self, "logseries", size, p)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        """Good items among ``nsample`` drawn without replacement from ``ngood`` good
        and ``nbad`` bad ones (int64; the counts truncated to integers).  NumPy's
        methods: one draw at a time when nsample or ngood + nbad - nsample is below 10,
        Stadlober's ratio-of-uniforms (HRUA) otherwise.

        >>> int(garray.random.default_rng(0).hypergeometric(5, 0, 3))
        3

        Parameters
        ----------
        ngood : int or array_like of ints
            Number of good items, non-negative.
        nbad : int or array_like of ints
            Number of bad items, non-negative.
        nsample : int or array_like of ints
            Number of items drawn, at most ngood + nbad.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.hypergeometric
        """
        good, bad, ns = (_count(x, name) for x, name in
                         ((ngood, "ngood"), (nbad, "nbad"), (nsample, "nsample")))
        # NumPy's order of checks; its sampler limits ngood and nbad to 10**9.
        _check(good, "ngood", lambda v: v >= 10**9, "both ngood and nbad must be less "
               "than 1000000000")
        _check(bad, "nbad", lambda v: v >= 10**9, "both ngood and nbad must be less "
               "than 1000000000")
        _check(good + bad - ns, "nsample", lambda v: v < 0, "ngood + nbad < nsample")
        _check(good, "ngood", lambda v: v < 0, "ngood < 0")
        _check(bad, "nbad", lambda v: v < 0, "nbad < 0")
        _check(ns, "nsample", lambda v: v < 0, "nsample < 0")
        return _draw_kind(self, "hypergeometric", size, good, bad, ns)

    def noncentral_chisquare(self, df, nonc, size=None):
        """Noncentral chi-square variates (float64) by NumPy's method: ``chisquare(df)``
        when nonc is 0; ``chisquare(df - 1) + (Z + sqrt(nonc))**2`` when df > 1; else
        ``chisquare(df + 2 poisson(nonc / 2))``.

        >>> garray.random.default_rng(0).noncentral_chisquare(3.0, 2.0, size=2).dtype
        dtype('float64')

        Parameters
        ----------
        df : float or array_like of floats
            Degrees of freedom, positive.
        nonc : float or array_like of floats
            Non-centrality, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.noncentral_chisquare
        """
        df, nonc = _param(df, "df"), _param(nonc, "nonc")
        _check(df, "df", lambda v: v <= 0, "df <= 0")
        _check(nonc, "nonc", lambda v: v < 0, "nonc < 0")
        return _draw_kind(self, "noncentral_chisquare", size, df, nonc, dtype=_F64)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        """Noncentral F variates (float64): ``(X / dfnum) / (Y / dfden)`` for X
        noncentral chi-square(dfnum, nonc) and Y chi-square(dfden), as NumPy.

        >>> garray.random.default_rng(0).noncentral_f(3.0, 10.0, 1.0, size=2).shape
        (2,)

        Parameters
        ----------
        dfnum : float or array_like of floats
            Degrees of freedom of the numerator, positive.
        dfden : float or array_like of floats
            Degrees of freedom of the denominator, positive.
        nonc : float or array_like of floats
            Non-centrality, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.noncentral_f
        """
        dfnum, dfden, nonc = (_param(x, name) for x, name in
                              ((dfnum, "dfnum"), (dfden, "dfden"), (nonc, "nonc")))
        _check(dfnum, "dfnum", lambda v: v <= 0, "dfnum <= 0")
        _check(dfden, "dfden", lambda v: v <= 0, "dfden <= 0")
        _check(nonc, "nonc", lambda v: v < 0, "nonc < 0")
        return _draw_kind(self, "noncentral_f", size, dfnum, dfden, nonc, dtype=_F64)

    def zipf(self, a, size=None):
        """Zipf counts (int64, >= 1) of exponent ``a`` > 1 by NumPy's rejection method;
        like NumPy's, the law is truncated below 2**63, and a >= 1025 gives 1.

        >>> int(garray.random.default_rng(0).zipf(2000.0))
        1

        Parameters
        ----------
        a : float or array_like of floats
            Exponent, greater than 1.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.zipf
        """
        a = _param(a, "a")
        _check(a, "a", lambda v: (v <= 1) | _isnan(v), f"a <= 1 or a {_is_nan_words(a)}")
        return _draw_kind(self, "zipf", size, a)

    def multinomial(self, n, pvals, size=None):
        """Counts of ``n`` draws over ``k = pvals.shape[-1]`` categories (int64; each
        row sums to its n), by conditional binomials: category j gets
        binomial(left, pvals[j] / (1 - sum(pvals[:j]))), the last what remains (NumPy's
        method).  ``n`` and the rows of ``pvals`` (its leading axes) broadcast together
        and against ``size``; the result has shape ``size + (k,)`` (``size`` None: their
        broadcast shape + (k,)).

        >>> garray.random.default_rng(0).multinomial(20, [0.5, 0.5], size=3).shape
        (3, 2)

        Parameters
        ----------
        n : int or array_like of ints (float for negative_binomial)
            Number of trials (successes for negative_binomial), non-negative.
        pvals : sequence of floats
            Probabilities of the categories (summing to 1); the last axis of the result.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 counts, of shape size + (len(pvals),).

        See Also
        --------
        numpy.random.Generator.multinomial
        """
        n = _count(n, "n")
        pv = as_array(pvals, "pvals")
        if pv.ndim == 0 or pv.shape[-1] == 0:
            raise ValueError("pvals must have at least 1 dimension and the last "
                             "dimension of pvals must be greater than 0.")
        if _kind_of(pv.dtype) not in "biuf":
            raise TypeError(f"pvals: expected real numbers, got {pv.dtype}")
        pv = pv.astype("float64")
        _check(pv, "pvals", lambda v: (v < 0) | (v > 1) | isnan(v),
               "pvals < 0, pvals > 1 or pvals contains NaNs")
        k = pv.shape[-1]
        if k > 1 and _any(reductions.sum(pv[..., :-1], axis=-1), lambda v: v > 1.0 + 1e-12):
            raise ValueError("sum(pvals[:-1]) > 1.0" if pv.ndim == 1 else
                             "sum(pvals[...,:-1]) > 1.0")
        _check(n, "n", lambda v: v < 0, "n < 0")
        prow = empty(pv.shape[:-1], dtype="float64", device=pv.device)
        rows = _broadcast_shape(size, n, prow)
        out = empty(rows + (k,), dtype=_I64, device=pv.device)
        nrows = out.size // k
        if nrows == 0:
            return out
        if isinstance(n, ndarray):
            n = ascontiguousarray(broadcast_to(n, rows), dtype="float64")
            args = (n, 0.0)
        else:
            args = (None, n)
        if pv.ndim == 1:        # one vector for every row
            args += (ascontiguousarray(pv), 0)
        else:
            args += (ascontiguousarray(broadcast_to(pv, rows + (k,))), k)
        return _draw._launch(out, R_MULTINOMIAL, nrows, (self._bit_generator, nrows),
                             (k,) + args)
