"""garray.random's continuous distributions against scipy.stats and NumPy's Generator.

Streams are not NumPy's, so values are checked in law: a Kolmogorov-Smirnov test against
the scipy.stats distribution at a fixed seed (deterministic: the seeds below pass, the
threshold 1e-4 is not tuned), and the sample mean and variance within a few standard
errors where those moments exist.  Shapes, dtypes, ``out=``, broadcasting and errors
are compared with numpy.random.Generator directly.  Results reach the host only through
garray.asnumpy (the stub GPU drivers' memory is unreadable otherwise).
"""

import pathlib
import re

import numpy
import pytest
import scipy.stats as st

import garray
import garray.random
from garray.random import _draw
from garray.random._continuous import KINDS
from xp import check_law

N = 100_000
SEED = 20261204


def rng(seed=SEED):
    return garray.random.default_rng(seed)


def host(x):
    return garray.asnumpy(x)


# (method, args, scipy distribution, check moments).  Shapes below and above 1 take
# gamma's two paths; beta(0.5, 0.3) its log-space path.
LAWS = [
    ("standard_exponential", (), st.expon(), True),
    ("exponential", (2.5,), st.expon(scale=2.5), True),
    ("standard_gamma", (0.3,), st.gamma(0.3), True),
    ("standard_gamma", (1.0,), st.gamma(1.0), True),
    ("standard_gamma", (7.5,), st.gamma(7.5), True),
    ("gamma", (2.5, 3.0), st.gamma(2.5, scale=3.0), True),
    ("beta", (2.0, 3.0), st.beta(2.0, 3.0), True),
    ("beta", (0.5, 0.3), st.beta(0.5, 0.3), True),
    ("chisquare", (3.0,), st.chi2(3.0), True),
    ("chisquare", (0.7,), st.chi2(0.7), True),
    ("standard_t", (6.0,), st.t(6.0), True),
    ("standard_t", (1.5,), st.t(1.5), False),
    ("f", (5.0, 12.0), st.f(5.0, 12.0), False),
    ("lognormal", (0.5, 0.8), st.lognorm(0.8, scale=numpy.exp(0.5)), True),
    ("laplace", (1.0, 2.0), st.laplace(1.0, 2.0), True),
    ("logistic", (1.0, 2.0), st.logistic(1.0, 2.0), True),
    ("gumbel", (1.0, 2.0), st.gumbel_r(1.0, 2.0), True),
    ("weibull", (1.5,), st.weibull_min(1.5), True),
    ("pareto", (6.0,), st.lomax(6.0), False),
    ("rayleigh", (2.0,), st.rayleigh(scale=2.0), True),
    ("standard_cauchy", (), st.cauchy(), False),
    ("power", (3.0,), st.powerlaw(3.0), True),
    ("vonmises", (0.0, 0.5), st.vonmises(0.5), True),
    ("vonmises", (0.0, 4.0), st.vonmises(4.0), True),
]


@pytest.mark.parametrize("method,args,dist,moments", LAWS,
                         ids=[f"{m}{a}" for m, a, _, _ in LAWS])
def test_law(method, args, dist, moments):
    n = N // 5 if method == "vonmises" else N    # scipy's vonmises cdf is slow
    x = getattr(rng(), method)(*args, size=n)
    assert x.dtype == numpy.float64 and x.shape == (n,)
    check_law(host(x), dist, moments)


def test_kinds_match_the_kernel_enum():
    header = pathlib.Path(__file__).parents[2] / "_kernels" / "garray" / "rand_continuous.h"
    enum = {name.lower().replace("std_", "standard_"): int(v)
            for name, v in re.findall(r"^\s*D_(\w+)\s*=\s*(\d+),", header.read_text(), re.M)}
    assert enum == KINDS
    assert all(0 <= v < 64 for v in KINDS.values())


@pytest.mark.parametrize("method", sorted(set(KINDS) - {"log_standard_gamma"}) + ["dirichlet"])
def test_signature_is_numpys(method):
    import inspect
    assert inspect.signature(getattr(garray.random.Generator, method)) == \
        inspect.signature(getattr(numpy.random.Generator, method))


# ---- array parameters -----------------------------------------------------------------


def test_array_parameters_per_column():
    """Each column of a (n, 3) draw follows its own shape parameter, given as a
    reversed (negative-stride) array broadcast against size."""
    shapes = garray.asarray([4.0, 1.0, 0.4])[::-1]
    x = host(rng().standard_gamma(shapes, size=(N // 4, 3)))
    for j, k in enumerate([0.4, 1.0, 4.0]):
        check_law(x[:, j], st.gamma(k))


def test_array_parameters_two_dims():
    a = garray.asarray(numpy.array([[0.5, 2.0], [3.0, 0.8]]).T)   # transposed
    b = garray.asarray([1.5, 0.4])
    x = host(rng().beta(a, b, size=(N // 8, 2, 2)))
    for i, j in numpy.ndindex(2, 2):
        check_law(x[:, i, j], st.beta([[0.5, 3.0], [2.0, 0.8]][i][j], [1.5, 0.4][j]))


@pytest.mark.parametrize("method,kw,scalar,scaled", [
    ("exponential", "scale", "standard_exponential", lambda s, v: s * v),
    ("rayleigh", "scale", "rayleigh", lambda s, v: s * v),
    ("laplace", "scale", "laplace", lambda s, v: s * v),
])
def test_array_scale_equals_scalar_draw(method, kw, scalar, scaled):
    """An array scale uses element i's stream exactly as the scalar call does: same
    variates, scaled (the kernel's own multiply, so bit for bit)."""
    s = numpy.linspace(0.5, 3.0, 40).reshape(5, 8)
    g = garray.asarray(s.T).T                                   # non-contiguous
    got = host(getattr(rng(7), method)(**{kw: g}))
    base = host(getattr(rng(7), scalar)(size=(5, 8)))
    numpy.testing.assert_array_equal(got, scaled(s, base))


def test_gamma_array_scale_bits():
    s = numpy.array([0.5, 1.0, 2.0, 4.0])
    got = host(rng(3).gamma(0.7, garray.asarray(s), size=(3, 4)))
    base = host(rng(3).standard_gamma(0.7, size=(3, 4)))
    numpy.testing.assert_array_equal(got, s * base)


@pytest.mark.parametrize("size", [None, 3, (2, 3), (4, 2, 3), (0, 3), (3, 0)])
def test_broadcast_shapes_as_numpy(size):
    a = numpy.array([1.0, 2.0, 3.0])
    b = numpy.array([[1.0], [2.0]])
    try:
        want = numpy.random.default_rng(0).gamma(a, b, size=size)
    except ValueError:
        with pytest.raises(ValueError):
            rng().gamma(garray.asarray(a), garray.asarray(b), size=size)
        return
    got = rng().gamma(garray.asarray(a), garray.asarray(b), size=size)
    assert got.shape == want.shape and got.dtype == want.dtype


def test_zero_d_and_list_parameters():
    got = rng().exponential(garray.asarray(2.0))
    assert got.shape == () and got.dtype == numpy.float64
    assert rng().beta([1.0, 2.0], 3.0).shape == (2,)
    assert rng().laplace(garray.zeros((2, 1)), [1.0, 2.0, 3.0]).shape == (2, 3)


# ---- sizes, dtypes, out= --------------------------------------------------------------

SIMPLE = [("exponential", ()), ("standard_gamma", (2.0,)), ("gamma", (0.5, 2.0)),
          ("beta", (0.5, 2.0)), ("chisquare", (2.0,)), ("standard_t", (3.0,)),
          ("f", (2.0, 3.0)), ("lognormal", ()), ("laplace", ()), ("logistic", ()),
          ("gumbel", ()), ("weibull", (2.0,)), ("pareto", (2.0,)), ("rayleigh", ()),
          ("standard_cauchy", ()), ("power", (2.0,)), ("standard_exponential", ()),
          ("vonmises", (0.5, 2.0))]


@pytest.mark.parametrize("method,args", SIMPLE, ids=[m for m, _ in SIMPLE])
@pytest.mark.parametrize("size", [None, 5, (2, 3), (0,), (2, 0, 3)], ids=str)
def test_size_and_dtype(method, args, size):
    want = numpy.asarray(getattr(numpy.random.default_rng(0), method)(*args, size=size))
    got = getattr(rng(), method)(*args, size=size)
    assert isinstance(got, garray.ndarray)
    assert got.shape == want.shape and got.dtype == want.dtype


@pytest.mark.parametrize("method,args", [("standard_gamma", (0.6,)),
                                         ("standard_exponential", ())])
def test_float32_is_the_float64_value_rounded(method, args):
    x32 = getattr(rng(5), method)(*args, size=1000, dtype=numpy.float32)
    x64 = getattr(rng(5), method)(*args, size=1000)
    assert x32.dtype == numpy.float32
    numpy.testing.assert_array_equal(host(x32), host(x64).astype(numpy.float32))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_out(dtype):
    out = garray.empty((3, 4), dtype=dtype)
    r = rng(9).standard_gamma(garray.asarray([0.5, 1.0, 2.0, 3.0]), dtype=dtype, out=out)
    assert r is out
    want = rng(9).standard_gamma(garray.asarray([0.5, 1.0, 2.0, 3.0]), size=(3, 4),
                                 dtype=dtype)
    numpy.testing.assert_array_equal(host(out), host(want))


@pytest.mark.parametrize("case", ["dtype", "size", "shape"])
def test_standard_gamma_out_errors_as_numpy(case):
    def call(xp, r):
        dt = "float32" if case == "dtype" else "float64"
        out = xp.empty((3, 4), dtype=dt)
        if case == "dtype":
            return r.standard_gamma(1.0, out=out)
        if case == "size":
            return r.standard_gamma(1.0, size=(4, 3), out=out)
        return r.standard_gamma(xp.ones(5), out=out)
    with pytest.raises(Exception) as e_np:
        call(numpy, numpy.random.default_rng(0))
    with pytest.raises(e_np.type):
        call(garray, rng())


@pytest.mark.parametrize("dtype", ["int64", "float16"])
def test_unsupported_dtype(dtype):
    with pytest.raises(TypeError):
        numpy.random.default_rng(0).standard_gamma(1.0, dtype=dtype)
    with pytest.raises(TypeError, match="standard_gamma"):
        rng().standard_gamma(1.0, dtype=dtype)


# ---- edge values ------------------------------------------------------------------------


def test_zero_parameters_as_numpy():
    r = rng()
    for got in (r.standard_gamma(0.0, size=4), r.gamma(0.0, 2.0, size=4),
                r.weibull(0.0, size=4), r.exponential(0.0, size=4),
                r.gamma(2.0, 0.0, size=4), r.rayleigh(0.0, size=4)):
        numpy.testing.assert_array_equal(host(got), numpy.zeros(4))


@pytest.mark.parametrize("kappa", [1e-9, 1e-6, 1e7])
def test_vonmises_cutoffs(kappa):
    """NumPy's three special regimes: uniform, Taylor s, wrapped normal."""
    x = host(rng().vonmises(3.0, kappa, size=20000))
    assert (numpy.abs(x) <= numpy.pi).all()
    if kappa > 1:
        d = numpy.angle(numpy.exp(1j * (x - 3.0)))
        assert abs(d.std() - kappa ** -0.5) < 5 * kappa ** -0.5 / numpy.sqrt(2 * x.size)
    else:
        check_law(x, st.uniform(-numpy.pi, 2 * numpy.pi))


def test_tiny_shapes_stay_finite():
    """Beta and dirichlet with parameters far below 1 (where the gammas underflow)."""
    x = host(rng().beta(1e-3, 2e-3, size=20000))
    assert ((x >= 0) & (x <= 1)).all()
    assert abs(x.mean() - 1 / 3) < 5 * numpy.sqrt((1 / 3) * (2 / 3) / 1.003 / x.size)
    d = host(rng().dirichlet([0.01, 0.02], size=20000))
    numpy.testing.assert_allclose(d.sum(axis=1), 1.0, rtol=1e-12)
    assert abs(d[:, 0].mean() - 1 / 3) < 5 * numpy.sqrt((1 / 3) * (2 / 3) / 1.03 / 20000)


# ---- errors ---------------------------------------------------------------------------

BAD = [("exponential", (-1.0,), "scale < 0"), ("standard_gamma", (-0.5,), "shape < 0"),
       ("gamma", (-1.0, 1.0), "shape < 0"), ("gamma", (1.0, -1.0), "scale < 0"),
       ("beta", (0.0, 1.0), "a <= 0"), ("beta", (1.0, -2.0), "b <= 0"),
       ("chisquare", (0.0,), "df <= 0"), ("standard_t", (-1.0,), "df <= 0"),
       ("f", (0.0, 1.0), "dfnum <= 0"), ("f", (1.0, 0.0), "dfden <= 0"),
       ("lognormal", (0.0, -1.0), "sigma < 0"), ("laplace", (0.0, -1.0), "scale < 0"),
       ("logistic", (0.0, -1.0), "scale < 0"), ("gumbel", (0.0, -1.0), "scale < 0"),
       ("weibull", (-1.0,), "a < 0"), ("pareto", (0.0,), "a <= 0"),
       ("rayleigh", (-1.0,), "scale < 0"), ("power", (0.0,), "a <= 0"),
       ("vonmises", (0.0, -1.0), "kappa < 0")]


@pytest.mark.parametrize("array", [False, True], ids=["scalar", "array"])
@pytest.mark.parametrize("method,args,msg", BAD, ids=[f"{m}{a}" for m, a, _ in BAD])
def test_bad_parameters_as_numpy(method, args, msg, array):
    np_args = [numpy.array([1.0, 1.0, v]) if array and v <= 0 else v for v in args]
    g_args = [garray.asarray(a) if isinstance(a, numpy.ndarray) else a for a in np_args]
    with pytest.raises(ValueError, match=re.escape(msg)):
        getattr(numpy.random.default_rng(0), method)(*np_args)
    with pytest.raises(ValueError, match=re.escape(msg)):
        getattr(rng(), method)(*g_args)


def test_nan_parameter_passes_as_numpy():
    assert numpy.isnan(numpy.random.default_rng(0).exponential(numpy.nan))
    assert numpy.isnan(host(rng().exponential(numpy.nan)))
    assert numpy.isnan(host(rng().standard_gamma(numpy.nan, size=3))).all()


def test_complex_parameter():
    with pytest.raises(TypeError):
        numpy.random.default_rng(0).exponential(numpy.array([1j]))
    with pytest.raises(TypeError, match="scale"):
        rng().exponential(garray.asarray([1j]))


# ---- dirichlet ----------------------------------------------------------------------------


def test_dirichlet_law():
    alpha = [0.5, 1.0, 2.5]
    x = host(rng().dirichlet(alpha, size=N // 2))
    assert x.shape == (N // 2, 3)
    numpy.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    for j, a in enumerate(alpha):
        check_law(x[:, j], st.beta(a, sum(alpha) - a))


@pytest.mark.parametrize("alpha,size", [([1.0, 2.0], None), ([1.0, 2.0], 3),
                                        ([1.0, 2.0], (2, 3)), ([], 2), ([1.0], (0,)),
                                        (numpy.array([3.0, 2.0, 1.0])[::-1], 4)])
def test_dirichlet_shapes(alpha, size):
    want = numpy.random.default_rng(0).dirichlet(alpha, size=size)
    a = garray.asarray(alpha) if isinstance(alpha, numpy.ndarray) else alpha
    got = rng().dirichlet(a, size=size)
    assert got.shape == want.shape and got.dtype == want.dtype


def test_dirichlet_zero_alphas_as_numpy():
    numpy.testing.assert_array_equal(host(rng().dirichlet([0.0, 0.0], size=3)),
                                     numpy.zeros((3, 2)))
    x = host(rng().dirichlet([0.0, 1.0, 2.0], size=100))
    assert (x[:, 0] == 0).all()
    numpy.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)


@pytest.mark.parametrize("alpha,exc", [([1.0, -1.0], ValueError), (1.0, TypeError),
                                       ([[1.0, 2.0]], ValueError)])
def test_dirichlet_errors_as_numpy(alpha, exc):
    with pytest.raises(exc):
        numpy.random.default_rng(0).dirichlet(alpha)
    with pytest.raises(exc, match="alpha"):
        rng().dirichlet(alpha)


# ---- reproducibility --------------------------------------------------------------------

# The gamma kinds: the first try of 16 elements at once, the rest redrawn one by one
# (note 6 of rand_continuous.h); per = 1 takes every value the one-by-one way.
_SHAPES = numpy.concatenate([[0.0], numpy.linspace(1e-3, 4.0, 1000)])
REPRO = [("standard_gamma", (0.3,)), ("standard_gamma", (2.0,)), ("chisquare", (0.7,)),
         ("chisquare", (5.0,)), ("standard_gamma", (_SHAPES,)),
         ("gamma", (_SHAPES[::-1], _SHAPES + 0.5)),
         ("gamma", (4.0, 2.0)), ("beta", (0.5, 2.0)),
         ("gumbel", ()), ("standard_t", (3.0,)), ("logistic", ()), ("laplace", ()),
         ("vonmises", (1.0, 3.0))]


@pytest.mark.parametrize("method,args", REPRO,
                         ids=[f"{m}-{i}" for i, (m, _) in enumerate(REPRO)])
def test_same_bits_at_any_launch_shape(method, args):
    args = tuple(garray.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args)
    want = host(getattr(rng(11), method)(*args, size=1001))
    old = _draw._debug_per(1)
    try:
        got = host(getattr(rng(11), method)(*args, size=1001))
    finally:
        _draw._debug_per(old)
    numpy.testing.assert_array_equal(got, want)
    if not any(isinstance(a, garray.ndarray) for a in args):
        # value i is a function of element i's stream: a shorter draw is a prefix
        numpy.testing.assert_array_equal(host(getattr(rng(11), method)(*args, size=37)),
                                         want[:37])


def test_successive_calls_differ():
    r = rng()
    a, b = host(r.standard_gamma(2.0, size=64)), host(r.standard_gamma(2.0, size=64))
    assert not numpy.array_equal(a, b)
