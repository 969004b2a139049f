"""NumPy's legacy module-level random functions (``seed``, ``rand``, ``randn``,
``randint`` ...) on one global ``RandomState`` (``_random_state.py``).

The global is made on first use under a lock.  ``seed`` reseeds it in place, so a
function object taken earlier (``f = garray.random.rand``) keeps drawing from the
reseeded stream.  Each function is the ``RandomState`` method of its name, with that
method's docstring and signature.
"""

import functools
import inspect
import threading

from ._generator import Generator
from ._random_state import RandomState

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
