"""``RandomState``: NumPy's legacy random methods on a garray ``Generator``.  The
module-level functions (``seed``, ``rand`` ...) are in ``_legacy.py``.

Note [Legacy API on the Generator]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
1. A ``RandomState`` holds a garray ``Generator`` on a Philox bit generator.  Each legacy
   method is written out with NumPy's legacy signature and hands its arguments to the
   Generator method of NumPy's name through one helper (``_delegate``).  Values are
   never computed here, and neither are docstrings: a legacy method takes its
   Generator method's (``_shares_doc``), cut to the legacy parameters, with one line
   saying how the legacy form differs.
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
"""

from .._dtypes import kind_of as _kind_of
import builtins
import copy
import inspect
import numbers
import operator
import warnings

import numpy

from .._core import asarray, asnumpy, ndarray
from .._reduce import reductions
from ._generator import Generator, default_rng

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
        seed = asnumpy(seed)   # a seed is host metadata, like a shape
    arr = numpy.asarray(seed)
    if arr.ndim != 1:
        raise ValueError("seed: Seed array must be 1-d")
    if arr.size == 0:
        raise ValueError("seed: Seed must be non-empty")
    if _kind_of(arr.dtype) not in "biu" and not (arr.dtype == object and all(
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
    return bool(reductions.any(test(asarray(x))))


# Parameters of legacy methods that the Generator's methods do not have.
_OWN_PARAMS = {"args": ["*args : int", "    The result's shape (none: a 0-d array)."]}


def _shares_doc(name=None, note=None):
    """Give a legacy method the docstring of ``Generator.<name>`` (default: its own name),
    as NumPy's ``_add_newdocs`` keeps one text per function: its Parameters cut to the
    legacy signature, one line after the summary on how the legacy form differs (the
    Generator parameters it lacks, then ``note``), its See Also pointed at
    ``numpy.random.RandomState``."""
    def decorate(method):
        gen_name = name or method.__name__
        doc = inspect.getdoc(getattr(Generator, gen_name))
        if doc is not None:    # None under ``python -OO``
            method.__doc__ = _legacy_doc(doc, gen_name, method, note)
        return method
    return decorate


def _legacy_doc(doc, gen_name, method, note):
    lines = doc.splitlines()
    start = lines.index("Parameters") + 2
    end = lines.index("", start)
    entries = {}
    for line in lines[start:end]:
        if not line.startswith(" "):
            entry = entries.setdefault(line.split(" : ")[0], [])
        entry.append(line)
    legacy = list(inspect.signature(method).parameters)[1:]
    params = [ln for p in legacy for ln in entries.get(p) or _OWN_PARAMS[p]]
    missing = [f"``{p}``" for p in entries if p not in legacy]
    differs = f"Legacy form of ``Generator.{gen_name}`` (the same draws)"
    if missing:
        differs += " without its " + ", ".join(missing)
    if note:
        differs += "; " + note
    see = lines.index(f"numpy.random.Generator.{gen_name}")
    summary = lines.index("")
    lines[see] = f"numpy.random.RandomState.{method.__name__}"
    return "\n".join(lines[:summary] + ["", differs + "."] + lines[summary:start] + params
                     + lines[end:])


class RandomState:
    """NumPy's legacy ``RandomState`` interface on garray's Philox streams.

    ``RandomState(seed=None)``: ``seed`` is None (fresh OS entropy), an integer in
    [0, 2**32), a 1-d sequence of them, or a garray bit generator to draw from.  The
    methods are NumPy's legacy ones; each hands its work to a ``garray.random.Generator``
    and shares its docstring (see ``garray/random/_random_state.py``, Note [Legacy API
    on the Generator]).  Results are garray arrays on the current device; ``size=None``
    gives a 0-d array.  The streams are not NumPy's: each distribution matches NumPy's
    in law, and the same seed gives the same values on every garray device.

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

    @_shares_doc("random")
    def random_sample(self, size=None):
        return self._delegate("random", size)

    @_shares_doc()
    def random(self, size=None):
        return self._delegate("random", size)

    @_shares_doc("random", "the shape is given as separate integers")
    def rand(self, *args):
        return self._delegate("random", args)

    @_shares_doc("standard_normal", "the shape is given as separate integers")
    def randn(self, *args):
        return self._delegate("standard_normal", args)

    @_shares_doc("integers", "``high`` is excluded, and ``dtype=int`` is int64")
    def randint(self, low, high=None, size=None, dtype=int):
        if high is None:
            low, high = 0, low
        return self._delegate("integers", low, high, size, dtype, False)

    @_shares_doc("integers", "int64 in [low, high] (``high=None``: [1, low]); deprecated, "
                 "as in NumPy")
    def random_integers(self, low, high=None, size=None):
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
            Output shape (None: a 0-d array).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.RandomState.tomaxint
        """
        return self._delegate("integers", 0, (1 << 63) - 1, size, numpy.int64, True)

    @_shares_doc()
    def bytes(self, length):
        return self._delegate("bytes", length)

    # ---- sampling ----------------------------------------------------------------------

    @_shares_doc(note="``a`` must be 1-d or an integer")
    def choice(self, a, size=None, replace=True, p=None):
        ndim = a.ndim if isinstance(a, (ndarray, numpy.ndarray)) else numpy.ndim(a)
        if ndim > 1:
            raise ValueError("a must be 1-dimensional")
        if ndim == 0:
            try:
                a = operator.index(a)
            except TypeError:
                raise ValueError("a must be 1-dimensional or an integer") from None
        return self._delegate("choice", a, size, replace, p)

    @_shares_doc(note="the first axis is shuffled")
    def shuffle(self, x):
        return self._delegate("shuffle", x)

    @_shares_doc(note="the first axis is permuted")
    def permutation(self, x):
        return self._delegate("permutation", x)

    # ---- continuous distributions ------------------------------------------------------

    @_shares_doc()
    def uniform(self, low=0.0, high=1.0, size=None):
        return self._delegate("uniform", low, high, size)

    @_shares_doc()
    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._delegate("normal", loc, scale, size)

    @_shares_doc()
    def standard_normal(self, size=None):
        return self._delegate("standard_normal", size)

    @_shares_doc()
    def standard_exponential(self, size=None):
        return self._delegate("standard_exponential", size)

    @_shares_doc()
    def exponential(self, scale=1.0, size=None):
        return self._delegate("exponential", scale, size)

    @_shares_doc()
    def standard_gamma(self, shape, size=None):
        return self._delegate("standard_gamma", shape, size)

    @_shares_doc()
    def gamma(self, shape, scale=1.0, size=None):
        return self._delegate("gamma", shape, scale, size)

    @_shares_doc()
    def beta(self, a, b, size=None):
        return self._delegate("beta", a, b, size)

    @_shares_doc()
    def chisquare(self, df, size=None):
        return self._delegate("chisquare", df, size)

    @_shares_doc()
    def noncentral_chisquare(self, df, nonc, size=None):
        return self._delegate("noncentral_chisquare", df, nonc, size)

    @_shares_doc()
    def f(self, dfnum, dfden, size=None):
        return self._delegate("f", dfnum, dfden, size)

    @_shares_doc()
    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        return self._delegate("noncentral_f", dfnum, dfden, nonc, size)

    @_shares_doc()
    def standard_t(self, df, size=None):
        return self._delegate("standard_t", df, size)

    @_shares_doc()
    def standard_cauchy(self, size=None):
        return self._delegate("standard_cauchy", size)

    @_shares_doc()
    def vonmises(self, mu, kappa, size=None):
        return self._delegate("vonmises", mu, kappa, size)

    @_shares_doc()
    def pareto(self, a, size=None):
        return self._delegate("pareto", a, size)

    @_shares_doc()
    def weibull(self, a, size=None):
        return self._delegate("weibull", a, size)

    @_shares_doc()
    def power(self, a, size=None):
        return self._delegate("power", a, size)

    @_shares_doc()
    def laplace(self, loc=0.0, scale=1.0, size=None):
        return self._delegate("laplace", loc, scale, size)

    @_shares_doc()
    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return self._delegate("gumbel", loc, scale, size)

    @_shares_doc()
    def logistic(self, loc=0.0, scale=1.0, size=None):
        return self._delegate("logistic", loc, scale, size)

    @_shares_doc()
    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return self._delegate("lognormal", mean, sigma, size)

    @_shares_doc()
    def rayleigh(self, scale=1.0, size=None):
        return self._delegate("rayleigh", scale, size)

    @_shares_doc()
    def wald(self, mean, scale, size=None):
        return self._delegate("wald", mean, scale, size)

    @_shares_doc()
    def triangular(self, left, mode, right, size=None):
        return self._delegate("triangular", left, mode, right, size)

    @_shares_doc(note="``alpha <= 0`` is a ValueError (the Generator allows 0)")
    def dirichlet(self, alpha, size=None):
        if _any_true(alpha, lambda x: x <= 0):
            raise ValueError("alpha <= 0")
        return self._delegate("dirichlet", alpha, size)

    @_shares_doc()
    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        return self._delegate("multivariate_normal", mean, cov, size, check_valid, tol)

    # ---- discrete distributions --------------------------------------------------------

    @_shares_doc()
    def poisson(self, lam=1.0, size=None):
        return self._delegate("poisson", lam, size)

    @_shares_doc()
    def binomial(self, n, p, size=None):
        return self._delegate("binomial", n, p, size)

    @_shares_doc()
    def negative_binomial(self, n, p, size=None):
        return self._delegate("negative_binomial", n, p, size)

    @_shares_doc()
    def geometric(self, p, size=None):
        return self._delegate("geometric", p, size)

    @_shares_doc(note="``nsample < 1`` is a ValueError (the Generator allows 0)")
    def hypergeometric(self, ngood, nbad, nsample, size=None):
        if _any_true(nsample, lambda x: x < 1):
            raise ValueError("nsample < 1 or nsample is NaN")
        return self._delegate("hypergeometric", ngood, nbad, nsample, size)

    @_shares_doc()
    def logseries(self, p, size=None):
        return self._delegate("logseries", p, size)

    @_shares_doc()
    def zipf(self, a, size=None):
        return self._delegate("zipf", a, size)

    @_shares_doc()
    def multinomial(self, n, pvals, size=None):
        return self._delegate("multinomial", n, pvals, size)
