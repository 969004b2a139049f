"""NumPy's legacy random API: ``RandomState`` and the module-level functions (``seed``,
``rand``, ``randn``, ``randint`` ...) on one global ``RandomState``.

Note [Legacy API on the Generator]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
1. A ``RandomState`` holds a garray ``Generator`` on a Philox bit generator.  Each legacy
   method is written out with NumPy's legacy signature and hands its arguments to the
   Generator method of NumPy's name through one helper (``_delegate``), so a distribution
   works here as soon as ``Generator`` has it; until then the call raises
   ``NotImplementedError`` naming the method.  Values are never computed here.
2. Seeds follow NumPy's legacy rules (an integer in [0, 2**32), or a non-empty 1-d
   sequence of them; else NumPy's ValueError or TypeError) and reach Philox through
   ``default_rng``, so ``RandomState(s)`` draws exactly what ``default_rng(s)`` draws.
   The streams are not NumPy's Mersenne Twister streams: equal in law, not in bits.
3. State is the bit generator's state dict (``{'bit_generator': 'Philox', 'state':
   ...}``) plus NumPy's ``has_gauss``/``gauss`` keys (always 0: Box-Muller here uses
   both values of a pair, nothing is cached).  ``get_state(legacy=True)`` cannot give
   NumPy's ('MT19937', ...) tuple, and ``set_state`` of such a tuple raises ValueError:
   a Mersenne Twister position has no Philox equivalent.
4. ``size=None`` gives a 0-d garray array, not a Python scalar (garray's convention);
   ``rand()`` and ``randn()`` too.
5. The module-level functions use one global ``RandomState``, made on first use under a
   lock.  ``seed`` reseeds it in place, so a function object taken earlier (``f =
   garray.random.rand``) keeps drawing from the reseeded stream.
"""

import builtins
import copy
import functools
import inspect
import numbers
import operator
import threading
import warnings

import numpy

from .._core import ndarray
from ._generator import Generator, default_rng

__all__ = [
    "RandomState", "seed", "get_state", "set_state", "get_bit_generator",
    "set_bit_generator", "rand", "randn", "randint", "random_integers", "random",
    "random_sample", "ranf", "sample", "bytes", "choice", "shuffle", "permutation",
    "uniform", "normal", "standard_normal", "standard_exponential", "exponential",
    "standard_gamma", "gamma", "beta", "chisquare", "noncentral_chisquare", "f",
    "noncentral_f", "standard_t", "standard_cauchy", "vonmises", "pareto", "weibull",
    "power", "laplace", "gumbel", "logistic", "lognormal", "rayleigh", "wald",
    "triangular", "poisson", "binomial", "negative_binomial", "geometric",
    "hypergeometric", "logseries", "zipf", "multinomial", "dirichlet",
    "multivariate_normal",
]

_SEED_LIMIT = 1 << 32


def _legacy_seed(seed):
    """NumPy's legacy seed rules: None, an int in [0, 2**32) or a non-empty 1-d sequence
    of them.  Returns what ``default_rng`` takes (None, an int or a tuple of ints)."""
    if seed is None:
        return None
    if isinstance(seed, (numbers.Integral, numpy.integer)):
        s = int(seed)
        if not 0 <= s < _SEED_LIMIT:
            raise ValueError("seed: Seed must be between 0 and 2**32 - 1")
        return s
    if isinstance(seed, (str, builtins.bytes, numbers.Number, numpy.generic)):
        raise TypeError(f"seed: expected an integer or a sequence of integers, got "
                        f"{type(seed).__name__} {seed!r}")
    if isinstance(seed, ndarray):
        import garray
        seed = garray.asnumpy(seed)   # a seed is host metadata, like a shape
    arr = numpy.asarray(seed)
    if arr.ndim != 1:
        raise ValueError("seed: Seed array must be 1-d")
    if arr.size == 0:
        raise ValueError("seed: Seed must be non-empty")
    if arr.dtype.kind not in "biu" and not (arr.dtype == object and all(
            isinstance(v, (numbers.Integral, numpy.integer)) for v in arr)):
        raise TypeError(f"seed: expected integers, got an array of {arr.dtype}")
    words = tuple(int(v) for v in arr)
    if any(not 0 <= w < _SEED_LIMIT for w in words):
        raise ValueError("seed: Seed values must be between 0 and 2**32 - 1")
    return words


def _generator_for(seed):
    """A Generator for a RandomState seed: a legacy seed, or a bit generator to wrap."""
    if hasattr(seed, "_reserve"):
        return Generator(seed)
    return default_rng(_legacy_seed(seed))


def _explain_mt19937():
    return ValueError(
        "set_state: an MT19937 state cannot be restored: garray's RandomState runs on "
        "Philox streams and has no Mersenne Twister, so NumPy's legacy state has no "
        "equivalent here; pass a state dict from garray.random.get_state() instead")


def _any_true(x, test):
    """``test(x)`` for a host scalar, or whether it holds anywhere in an array (one bool
    read back, as the Generator's own parameter checks do)."""
    if isinstance(x, (numbers.Number, numpy.generic)):
        return bool(test(x))
    import garray
    return bool(garray.any(test(garray.asarray(x))))


class RandomState:
    """NumPy's legacy ``RandomState`` interface on garray's Philox streams.

    ``RandomState(seed=None)``: ``seed`` is None (fresh OS entropy), an integer in
    [0, 2**32), a 1-d sequence of them, or a garray bit generator to draw from.  The
    methods are NumPy's legacy ones; each hands its work to a ``garray.random.Generator``
    (see ``garray/random/_legacy.py``, Note [Legacy API on the Generator]).  Results are
    garray arrays on the current device; ``size=None`` gives a 0-d array.  The streams
    are not NumPy's: each distribution matches NumPy's in law, and the same seed gives
    the same values on every garray device.

    >>> rs = RandomState(5)
    >>> rs.rand(2, 3).shape
    (2, 3)

    Parameters
    ----------
    seed : None, int, sequence of int or Philox, optional
        The seed (see above).

    See Also
    --------
    numpy.random.RandomState
    """

    def __init__(self, seed=None):
        self._gen = _generator_for(seed)

    def __repr__(self):
        return f"RandomState({type(self._gen.bit_generator).__name__})"

    @property
    def _bit_generator(self):
        return self._gen.bit_generator

    def _delegate(self, name, *args, **kwargs):
        """Call ``Generator.<name>`` (the one path every legacy method takes)."""
        method = getattr(self._gen, name, None)
        if method is None:
            raise NotImplementedError(
                f"RandomState: garray.random.Generator.{name} is not implemented yet, so "
                f"the legacy {name} is not available")
        return method(*args, **kwargs)

    # ---- seeding and state -------------------------------------------------------------

    def seed(self, seed=None):
        """Reseed in place (NumPy's legacy seed rules; None draws OS entropy).

        Parameters
        ----------
        seed : None, int, sequence of int, SeedSequence or bit generator, optional
            Seed; None draws fresh entropy.

        Returns
        -------
        None

        See Also
        --------
        numpy.random.RandomState.seed
        """
        self._gen = _generator_for(seed)

    def get_state(self, legacy=True):
        """The bit generator's state dict plus ``has_gauss``/``gauss`` (always 0).
        ``legacy=True`` cannot give NumPy's ('MT19937', ...) tuple: garray has no
        Mersenne Twister, so both settings return the dict.

        Parameters
        ----------
        legacy : bool, optional
            Accepted for NumPy's signature; a Philox state has no legacy MT19937 tuple form.

        Returns
        -------
        dict
            The bit generator's state with NumPy's has_gauss/gauss keys.

        See Also
        --------
        numpy.random.RandomState.get_state
        """
        bg = self._gen.bit_generator
        if not hasattr(type(bg), "state"):
            raise NotImplementedError(
                f"get_state: the bit generator {type(bg).__name__} has no state property "
                "yet (it comes with SeedSequence seeding)")
        st = copy.deepcopy(dict(bg.state))
        st["has_gauss"] = 0
        st["gauss"] = 0.0
        return st

    def set_state(self, state):
        """Restore a state dict from ``get_state``.  NumPy's MT19937 tuple (or dict)
        raises ValueError: it has no Philox equivalent.

        Parameters
        ----------
        state : dict
            A state from get_state.

        Returns
        -------
        None

        See Also
        --------
        numpy.random.RandomState.set_state
        """
        if isinstance(state, tuple):
            if state and isinstance(state[0], str) and state[0] == "MT19937":
                raise _explain_mt19937()
            raise ValueError("set_state: state tuples are NumPy's legacy MT19937 states; "
                             "garray takes only state dicts from its get_state()")
        if not isinstance(state, dict):
            raise TypeError(f"set_state: state must be a dict or a tuple, got "
                            f"{type(state).__name__}")
        if "bit_generator" not in state or "state" not in state:
            raise ValueError("set_state: state dictionary is not valid (it needs "
                             "'bit_generator' and 'state')")
        bg = self._gen.bit_generator
        name = type(bg).__name__
        if state["bit_generator"] == "MT19937":
            raise _explain_mt19937()
        if state["bit_generator"] != name:
            raise ValueError(f"set_state: state must be for a {name} PRNG, got "
                             f"{state['bit_generator']!r}")
        if state.get("has_gauss", 0):
            raise ValueError("set_state: has_gauss must be 0: garray's RandomState keeps "
                             "no cached Gaussian")
        if not hasattr(type(bg), "state"):
            raise NotImplementedError(
                f"set_state: the bit generator {name} has no state property yet (it "
                "comes with SeedSequence seeding)")
        bg.state = {k: v for k, v in state.items() if k not in ("has_gauss", "gauss")}

    # ---- uniform floats and integers ---------------------------------------------------

    def random_sample(self, size=None):
        """Floats uniform in [0, 1) (float64).

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
        numpy.random.RandomState.random_sample
        """
        return self._delegate("random", size)

    def random(self, size=None):
        """Floats uniform in [0, 1) (float64).

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
        numpy.random.RandomState.random
        """
        return self._delegate("random", size)

    def rand(self, *args):
        """Floats uniform in [0, 1) of shape ``args`` (``rand()``: a 0-d array).

        Parameters
        ----------
        *args : int
            The result's shape (none: a 0-d array).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.RandomState.rand
        """
        return self._delegate("random", args)

    def randn(self, *args):
        """Standard normal floats of shape ``args`` (``randn()``: a 0-d array).

        Parameters
        ----------
        *args : int
            The result's shape (none: a 0-d array).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.RandomState.randn
        """
        return self._delegate("standard_normal", args)

    def randint(self, low, high=None, size=None, dtype=int):
        """Integers in [low, high) (``high=None``: [0, low)); ``dtype=int`` is int64.

        Parameters
        ----------
        low : int or array_like of ints
            Lowest integer drawn (or, with high=None, one above the highest, the lowest
            being 0).
        high : int or array_like of ints, optional
            One above the highest integer drawn (the highest with endpoint=True).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        dtype : dtype, optional
            The integer dtype of the result (int64 by default).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.RandomState.randint
        """
        if high is None:
            low, high = 0, low
        return self._delegate("integers", low, high, size, dtype, False)

    def random_integers(self, low, high=None, size=None):
        """Integers in [low, high] (``high=None``: [1, low]); deprecated, as in NumPy.

        Parameters
        ----------
        low : int or array_like of ints
            Lowest integer drawn (or, with high=None, one above the highest, the lowest
            being 0).
        high : int or array_like of ints, optional
            One above the highest integer drawn (the highest with endpoint=True).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.RandomState.random_integers
        """
        if high is None:
            warnings.warn(f"This function is deprecated. Please call randint(1, {low} + 1) "
                          "instead", DeprecationWarning, stacklevel=2)
            low, high = 1, low
        else:
            warnings.warn(f"This function is deprecated. Please call randint({low}, {high} "
                          "+ 1) instead", DeprecationWarning, stacklevel=2)
        return self._delegate("integers", low, high, size, numpy.int64, True)

    def tomaxint(self, size=None):
        """Integers in [0, 2**63 - 1] (int64).

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.RandomState.tomaxint
        """
        return self._delegate("integers", 0, (1 << 63) - 1, size, numpy.int64, True)

    def bytes(self, length):
        """``length`` random bytes.

        Parameters
        ----------
        length : int
            Number of bytes.

        Returns
        -------
        bytes

        See Also
        --------
        numpy.random.RandomState.bytes
        """
        return self._delegate("bytes", length)

    # ---- sampling ----------------------------------------------------------------------

    def choice(self, a, size=None, replace=True, p=None):
        """A sample from the 1-d ``a`` (or ``arange(a)``), with or without replacement,
        with probabilities ``p``.

        Parameters
        ----------
        a : int or array_like
            The population: arange(a) for an integer, else the array (sampled along axis;
            RandomState: 1-d only).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        replace : bool, optional
            Draw with replacement (default).
        p : array_like of floats, optional
            Probabilities of the population's entries (uniform by default).

        Returns
        -------
        ndarray
            On the generator's device; the dtype of a (int64 for an integer a).

        See Also
        --------
        numpy.random.RandomState.choice
        """
        ndim = a.ndim if isinstance(a, (ndarray, numpy.ndarray)) else numpy.ndim(a)
        if ndim > 1:
            raise ValueError("a must be 1-dimensional")
        if ndim == 0:
            try:
                a = operator.index(a)
            except TypeError:
                raise ValueError("a must be 1-dimensional or an integer") from None
        return self._delegate("choice", a, size, replace, p)

    def shuffle(self, x):
        """Shuffle ``x`` in place along its first axis.

        Parameters
        ----------
        x : ndarray
            A garray array, shuffled in place.

        Returns
        -------
        None

        See Also
        --------
        numpy.random.RandomState.shuffle
        """
        return self._delegate("shuffle", x)

    def permutation(self, x):
        """A permuted ``arange(x)``, or a copy of ``x`` shuffled along its first axis.

        Parameters
        ----------
        x : int or array_like
            An integer n (a permutation of arange(n)) or an array (permuted along an axis).

        Returns
        -------
        ndarray
            On the generator's device; the dtype of a (int64 for an integer a).

        See Also
        --------
        numpy.random.RandomState.permutation
        """
        return self._delegate("permutation", x)

    # ---- continuous distributions ------------------------------------------------------

    def uniform(self, low=0.0, high=1.0, size=None):
        """Uniform on [low, high).

        Parameters
        ----------
        low : float or array_like of floats
            Lower bound (included).
        high : float or array_like of floats
            Upper bound (excluded).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.RandomState.uniform
        """
        return self._delegate("uniform", low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        """Normal (Gaussian).

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
        numpy.random.RandomState.normal
        """
        return self._delegate("normal", loc, scale, size)

    def standard_normal(self, size=None):
        """Standard normal.

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
        numpy.random.RandomState.standard_normal
        """
        return self._delegate("standard_normal", size)

    def standard_exponential(self, size=None):
        """Exponential of mean 1.

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
        numpy.random.RandomState.standard_exponential
        """
        return self._delegate("standard_exponential", size)

    def exponential(self, scale=1.0, size=None):
        """Exponential of mean ``scale``.

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
        numpy.random.RandomState.exponential
        """
        return self._delegate("exponential", scale, size)

    def standard_gamma(self, shape, size=None):
        """Gamma of scale 1.

        Parameters
        ----------
        shape : float or array_like of floats
            Shape (k), non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.RandomState.standard_gamma
        """
        return self._delegate("standard_gamma", shape, size)

    def gamma(self, shape, scale=1.0, size=None):
        """Gamma.

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
        numpy.random.RandomState.gamma
        """
        return self._delegate("gamma", shape, scale, size)

    def beta(self, a, b, size=None):
        """Beta.

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
        numpy.random.RandomState.beta
        """
        return self._delegate("beta", a, b, size)

    def chisquare(self, df, size=None):
        """Chi-square.

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
        numpy.random.RandomState.chisquare
        """
        return self._delegate("chisquare", df, size)

    def noncentral_chisquare(self, df, nonc, size=None):
        """Noncentral chi-square.

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
        numpy.random.RandomState.noncentral_chisquare
        """
        return self._delegate("noncentral_chisquare", df, nonc, size)

    def f(self, dfnum, dfden, size=None):
        """F (Fisher-Snedecor).

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
        numpy.random.RandomState.f
        """
        return self._delegate("f", dfnum, dfden, size)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        """Noncentral F.

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
        numpy.random.RandomState.noncentral_f
        """
        return self._delegate("noncentral_f", dfnum, dfden, nonc, size)

    def standard_t(self, df, size=None):
        """Student's t.

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
        numpy.random.RandomState.standard_t
        """
        return self._delegate("standard_t", df, size)

    def standard_cauchy(self, size=None):
        """Standard Cauchy.

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
        numpy.random.RandomState.standard_cauchy
        """
        return self._delegate("standard_cauchy", size)

    def vonmises(self, mu, kappa, size=None):
        """Von Mises on [-pi, pi].

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
        numpy.random.RandomState.vonmises
        """
        return self._delegate("vonmises", mu, kappa, size)

    def pareto(self, a, size=None):
        """Pareto II (Lomax).

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
        numpy.random.RandomState.pareto
        """
        return self._delegate("pareto", a, size)

    def weibull(self, a, size=None):
        """Weibull.

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
        numpy.random.RandomState.weibull
        """
        return self._delegate("weibull", a, size)

    def power(self, a, size=None):
        """Power distribution on [0, 1].

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
        numpy.random.RandomState.power
        """
        return self._delegate("power", a, size)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        """Laplace.

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
        numpy.random.RandomState.laplace
        """
        return self._delegate("laplace", loc, scale, size)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        """Gumbel.

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
        numpy.random.RandomState.gumbel
        """
        return self._delegate("gumbel", loc, scale, size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        """Logistic.

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
        numpy.random.RandomState.logistic
        """
        return self._delegate("logistic", loc, scale, size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        """Log-normal.

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
        numpy.random.RandomState.lognormal
        """
        return self._delegate("lognormal", mean, sigma, size)

    def rayleigh(self, scale=1.0, size=None):
        """Rayleigh.

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
        numpy.random.RandomState.rayleigh
        """
        return self._delegate("rayleigh", scale, size)

    def wald(self, mean, scale, size=None):
        """Wald (inverse Gaussian).

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
        numpy.random.RandomState.wald
        """
        return self._delegate("wald", mean, scale, size)

    def triangular(self, left, mode, right, size=None):
        """Triangular.

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
        numpy.random.RandomState.triangular
        """
        return self._delegate("triangular", left, mode, right, size)

    def dirichlet(self, alpha, size=None):
        """Dirichlet; legacy NumPy rejects ``alpha <= 0`` (the Generator allows 0).

        Parameters
        ----------
        alpha : sequence of floats
            Concentration parameters, positive; the last axis of the result.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64, of shape size + (len(alpha),).

        See Also
        --------
        numpy.random.RandomState.dirichlet
        """
        if _any_true(alpha, lambda x: x <= 0):
            raise ValueError("alpha <= 0")
        return self._delegate("dirichlet", alpha, size)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        """Multivariate normal.

        Parameters
        ----------
        mean : array_like
            Mean vector (1-d, of length N).
        cov : array_like
            Covariance matrix, symmetric positive semi-definite.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        check_valid : {'warn', 'raise', 'ignore'}, optional
            What to do when cov is not positive semi-definite.
        tol : float, optional
            Tolerance of that check.

        Returns
        -------
        ndarray
            float64, of shape size + (N,).

        See Also
        --------
        numpy.random.RandomState.multivariate_normal
        """
        return self._delegate("multivariate_normal", mean, cov, size, check_valid, tol)

    # ---- discrete distributions --------------------------------------------------------

    def poisson(self, lam=1.0, size=None):
        """Poisson (int64).

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
        numpy.random.RandomState.poisson
        """
        return self._delegate("poisson", lam, size)

    def binomial(self, n, p, size=None):
        """Binomial (int64).

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
        numpy.random.RandomState.binomial
        """
        return self._delegate("binomial", n, p, size)

    def negative_binomial(self, n, p, size=None):
        """Negative binomial (int64).

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
        numpy.random.RandomState.negative_binomial
        """
        return self._delegate("negative_binomial", n, p, size)

    def geometric(self, p, size=None):
        """Geometric on 1, 2, ... (int64).

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
        numpy.random.RandomState.geometric
        """
        return self._delegate("geometric", p, size)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        """Hypergeometric (int64); legacy NumPy rejects ``nsample < 1`` (the Generator
        allows 0).

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
        numpy.random.RandomState.hypergeometric
        """
        if _any_true(nsample, lambda x: x < 1):
            raise ValueError("nsample < 1 or nsample is NaN")
        return self._delegate("hypergeometric", ngood, nbad, nsample, size)

    def logseries(self, p, size=None):
        """Logarithmic series (int64).

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
        numpy.random.RandomState.logseries
        """
        return self._delegate("logseries", p, size)

    def zipf(self, a, size=None):
        """Zipf (int64).

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
        numpy.random.RandomState.zipf
        """
        return self._delegate("zipf", a, size)

    def multinomial(self, n, pvals, size=None):
        """Multinomial counts (int64).

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
        numpy.random.RandomState.multinomial
        """
        return self._delegate("multinomial", n, pvals, size)


# ---- the global RandomState and the module-level functions ------------------------------

_instance = None
_instance_lock = threading.Lock()


def _global():
    """The RandomState behind the module-level functions, made on first use (once, even
    when threads race for it)."""
    global _instance
    inst = _instance
    if inst is None:
        with _instance_lock:
            if _instance is None:
                _instance = RandomState()
            inst = _instance
    return inst


def get_bit_generator():
    """The bit generator (a ``Philox``) of the global ``RandomState``.

    Returns
    -------
    Philox

    See Also
    --------
    numpy.random.get_bit_generator
    """
    return _global()._gen.bit_generator


def set_bit_generator(bitgen):
    """Make the global ``RandomState`` draw from ``bitgen``.

    Parameters
    ----------
    bitgen : Philox
        A garray Philox bit generator (others raise TypeError).

    Returns
    -------
    None

    See Also
    --------
    numpy.random.set_bit_generator
    """
    if not hasattr(bitgen, "_reserve"):
        raise TypeError(f"bitgen: expected a garray.random.Philox, got "
                        f"{type(bitgen).__name__}")
    _global()._gen = Generator(bitgen)


def _on_global(name, alias=None):
    """The module-level ``alias or name``: ``RandomState.<name>`` on the global
    instance, with that method's docstring and signature (less ``self``)."""
    method = getattr(RandomState, name)

    @functools.wraps(method)
    def fn(*args, **kwargs):
        return getattr(_global(), name)(*args, **kwargs)

    sig = inspect.signature(method)
    fn.__signature__ = sig.replace(parameters=list(sig.parameters.values())[1:])
    fn.__module__ = __name__
    if alias is not None:
        fn.__name__ = fn.__qualname__ = alias
    return fn


seed = _on_global("seed")
get_state = _on_global("get_state")
set_state = _on_global("set_state")
rand = _on_global("rand")
randn = _on_global("randn")
randint = _on_global("randint")
random_integers = _on_global("random_integers")
random = _on_global("random")
random_sample = _on_global("random_sample", "sample")
ranf = _on_global("random_sample", "ranf")
sample = _on_global("random_sample", "sample")
bytes = _on_global("bytes")   # noqa: A001 - NumPy's module-level name
choice = _on_global("choice")
shuffle = _on_global("shuffle")
permutation = _on_global("permutation")
uniform = _on_global("uniform")
normal = _on_global("normal")
standard_normal = _on_global("standard_normal")
standard_exponential = _on_global("standard_exponential")
exponential = _on_global("exponential")
standard_gamma = _on_global("standard_gamma")
gamma = _on_global("gamma")
beta = _on_global("beta")
chisquare = _on_global("chisquare")
noncentral_chisquare = _on_global("noncentral_chisquare")
f = _on_global("f")
noncentral_f = _on_global("noncentral_f")
standard_t = _on_global("standard_t")
standard_cauchy = _on_global("standard_cauchy")
vonmises = _on_global("vonmises")
pareto = _on_global("pareto")
weibull = _on_global("weibull")
power = _on_global("power")
laplace = _on_global("laplace")
gumbel = _on_global("gumbel")
logistic = _on_global("logistic")
lognormal = _on_global("lognormal")
rayleigh = _on_global("rayleigh")
wald = _on_global("wald")
triangular = _on_global("triangular")
poisson = _on_global("poisson")
binomial = _on_global("binomial")
negative_binomial = _on_global("negative_binomial")
geometric = _on_global("geometric")
hypergeometric = _on_global("hypergeometric")
logseries = _on_global("logseries")
zipf = _on_global("zipf")
multinomial = _on_global("multinomial")
dirichlet = _on_global("dirichlet")
multivariate_normal = _on_global("multivariate_normal")
