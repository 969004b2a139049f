"""NumPy's legacy random API (``RandomState`` and the module-level functions) against
``numpy.random``'s legacy ones: shapes, dtypes, supports, seeding, state, errors.

garray's streams are not NumPy's (Philox, not the Mersenne Twister), so values are
checked by support and in law (scipy.stats at fixed seeds), and reproducibility by
comparing garray with itself.  Methods whose Generator counterpart lives on another
branch are tested behind ``needs(...)`` guards and run once those branches merge.
"""

import inspect
import threading
import warnings

import numpy
import pytest
import scipy.stats

import garray
from garray.random import _draw, _legacy
from garray.random._generator import Generator, default_rng
from garray.random._legacy import RandomState

P_MIN = 1e-4   # KS / chi-square p-value floor; the seeds are fixed, so this is deterministic


def needs(*names):
    """Skip until garray.random.Generator has every method in ``names``."""
    missing = [n for n in names if not hasattr(Generator, n)]
    return pytest.mark.skipif(bool(missing), reason=f"Generator.{', '.join(missing)} "
                              "not on this branch yet")


HAS_STATE = hasattr(type(default_rng(0).bit_generator), "state")


@pytest.fixture
def fresh_global(monkeypatch):
    """A fresh global RandomState for the test, the previous one restored after."""
    monkeypatch.setattr(_legacy, "_instance", None)


def host(x):
    return garray.asnumpy(x)


# ---- names ---------------------------------------------------------------------------

def test_names_cover_numpy_legacy():
    classes = {"BitGenerator", "Generator", "MT19937", "PCG64", "PCG64DXSM", "Philox",
               "SFC64", "SeedSequence", "default_rng"}
    want = set(numpy.random.__all__) - classes
    assert want <= set(_legacy.__all__), want - set(_legacy.__all__)
    assert all(callable(getattr(_legacy, n)) for n in _legacy.__all__)
    methods = {n for n in dir(numpy.random.RandomState) if not n.startswith("_")}
    assert methods <= set(dir(RandomState)), methods - set(dir(RandomState))
    for n in methods:
        doc = getattr(RandomState, n).__doc__
        assert "See also numpy.random" in doc or "See Also" in doc and "numpy.random" in doc, n


# ---- shape, dtype and support of every method, against NumPy's legacy ones ------------

# (legacy method, parameters, the Generator method it needs, support of the values)
CASES = [
    ("random_sample", (), "random", lambda v: (v >= 0) & (v < 1)),
    ("random", (), "random", lambda v: (v >= 0) & (v < 1)),
    ("uniform", (-2.0, 3.0), "uniform", lambda v: (v >= -2) & (v < 3)),
    ("normal", (1.0, 2.0), "normal", numpy.isfinite),
    ("standard_normal", (), "standard_normal", numpy.isfinite),
    ("standard_exponential", (), "standard_exponential", lambda v: v >= 0),
    ("randint", (-3, 7), "integers", lambda v: (v >= -3) & (v < 7)),
    ("tomaxint", (), "integers", lambda v: v >= 0),
    ("exponential", (2.0,), "exponential", lambda v: v >= 0),
    ("standard_gamma", (2.5,), "standard_gamma", lambda v: v >= 0),
    ("gamma", (2.0, 1.5), "gamma", lambda v: v >= 0),
    ("beta", (2.0, 3.0), "beta", lambda v: (v >= 0) & (v <= 1)),
    ("chisquare", (3.0,), "chisquare", lambda v: v >= 0),
    ("noncentral_chisquare", (3.0, 1.0), "noncentral_chisquare", lambda v: v >= 0),
    ("f", (3.0, 4.0), "f", lambda v: v >= 0),
    ("noncentral_f", (3.0, 4.0, 1.0), "noncentral_f", lambda v: v >= 0),
    ("standard_t", (5.0,), "standard_t", numpy.isfinite),
    ("standard_cauchy", (), "standard_cauchy", lambda v: ~numpy.isnan(v)),
    ("vonmises", (0.5, 2.0), "vonmises", lambda v: numpy.abs(v) <= numpy.pi),
    ("pareto", (3.0,), "pareto", lambda v: v >= 0),
    ("weibull", (2.0,), "weibull", lambda v: v >= 0),
    ("power", (2.0,), "power", lambda v: (v >= 0) & (v <= 1)),
    ("laplace", (1.0, 2.0), "laplace", numpy.isfinite),
    ("gumbel", (1.0, 2.0), "gumbel", numpy.isfinite),
    ("logistic", (1.0, 2.0), "logistic", numpy.isfinite),
    ("lognormal", (0.0, 1.0), "lognormal", lambda v: v >= 0),
    ("rayleigh", (2.0,), "rayleigh", lambda v: v >= 0),
    ("wald", (1.0, 2.0), "wald", lambda v: v > 0),
    ("triangular", (0.0, 1.0, 3.0), "triangular", lambda v: (v >= 0) & (v <= 3)),
    ("poisson", (3.0,), "poisson", lambda v: v >= 0),
    ("binomial", (10, 0.3), "binomial", lambda v: (v >= 0) & (v <= 10)),
    ("negative_binomial", (3, 0.4), "negative_binomial", lambda v: v >= 0),
    ("geometric", (0.3,), "geometric", lambda v: v >= 1),
    ("hypergeometric", (5, 7, 4), "hypergeometric", lambda v: (v >= 0) & (v <= 4)),
    ("logseries", (0.5,), "logseries", lambda v: v >= 1),
    ("zipf", (2.0,), "zipf", lambda v: v >= 1),
]


@pytest.mark.parametrize("name,params,gen_name,support", [
    pytest.param(*c, marks=needs(c[2]), id=c[0]) for c in CASES])
def test_shape_dtype_support(name, params, gen_name, support):
    rs, ref = RandomState(3), numpy.random.RandomState(3)
    for size in (None, 4, (2, 3), (0, 3)):
        got = getattr(rs, name)(*params, size=size)
        want = numpy.asarray(getattr(ref, name)(*params, size=size))
        assert isinstance(got, garray.ndarray), (name, size)
        assert (got.dtype, got.shape) == (want.dtype, want.shape), (name, size)
    v = host(getattr(rs, name)(*params, size=500))
    assert support(v).all(), (name, v[~support(v)][:5])


VECTOR_CASES = [("multinomial", (10, [0.2, 0.3, 0.5])), ("dirichlet", ([1.0, 2.0, 3.0],)),
                ("multivariate_normal", ([0.0, 1.0], [[1.0, 0.5], [0.5, 2.0]]))]


@pytest.mark.parametrize("name,params", [
    pytest.param(*c, marks=[needs(c[0])], id=c[0]) for c in VECTOR_CASES])
def test_vector_valued_shapes(name, params):
    rs, ref = RandomState(4), numpy.random.RandomState(4)
    for size in (None, 3, (2, 2), 0):
        got = getattr(rs, name)(*params, size=size)
        want = numpy.asarray(getattr(ref, name)(*params, size=size))
        assert (got.dtype, got.shape) == (want.dtype, want.shape), (name, size)


def test_missing_generator_methods_raise_not_implemented():
    missing = [(n, p) for n, p, g, _ in CASES if not hasattr(Generator, g)]
    if not missing:
        pytest.skip("every delegated Generator method exists")
    for name, params in missing:
        with pytest.raises(NotImplementedError, match=name):
            getattr(RandomState(0), name)(*params, size=2)


# ---- rand, randn, randint, random_integers ---------------------------------------------

@pytest.mark.parametrize("name", ["rand", "randn"])
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (0,), (3, 0)])
def test_rand_randn_shapes(name, shape):
    got = getattr(RandomState(1), name)(*shape)
    want = numpy.asarray(getattr(numpy.random.RandomState(1), name)(*shape))
    assert isinstance(got, garray.ndarray)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)


@pytest.mark.parametrize("name", ["rand", "randn"])
@pytest.mark.parametrize("args", [(-1,), (2.5,), ((2, 3),), (2, -3)])
def test_rand_randn_errors_as_numpy(name, args):
    with pytest.raises(Exception) as np_err:
        getattr(numpy.random.RandomState(0), name)(*args)
    with pytest.raises(type(np_err.value)):
        getattr(RandomState(0), name)(*args)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32",
                                   "uint32", "int64", "uint64", int])
def test_randint_dtypes(dtype):
    info = (0, 1) if dtype == "bool" else (int(numpy.iinfo(dtype).min),
                                           int(numpy.iinfo(dtype).max))
    lo, hi = max(info[0], -5), min(info[1], 100)
    got = RandomState(2).randint(lo, hi + 1, size=(40, 5), dtype=dtype)
    want = numpy.random.RandomState(2).randint(lo, hi + 1, size=(40, 5), dtype=dtype)
    assert got.dtype == want.dtype and got.shape == want.shape
    v = host(got).astype(numpy.int64)
    assert v.min() >= lo and v.max() <= hi
    full = host(RandomState(2).randint(info[0], info[1] + 1, size=2000, dtype=dtype))
    assert full.min() >= info[0] and full.max() <= info[1]


def test_randint_one_bound_is_high():
    v = host(RandomState(0).randint(7, size=3000))
    assert v.dtype == numpy.int64 and v.min() == 0 and v.max() == 6


@pytest.mark.parametrize("args,kw", [
    ((5, 5), {}), ((0,), {}), ((6, 2), {}), ((0, 10), {"dtype": float}),
    ((0, 2 ** 40), {"dtype": "int32"}), ((-1, 2), {"dtype": "uint8"}),
    ((0, 3), {"dtype": bool}), ((0, 10), {"size": -1}), ((0, 10), {"size": 2.5})])
def test_randint_errors_as_numpy(args, kw):
    with pytest.raises(Exception) as np_err:
        numpy.random.RandomState(0).randint(*args, **kw)
    with pytest.raises(type(np_err.value)):
        RandomState(0).randint(*args, **kw)


@pytest.mark.parametrize("args", [(5,), (-2, 3)])
def test_random_integers_inclusive_and_deprecated(args):
    with pytest.warns(DeprecationWarning) as np_w:
        want = numpy.random.RandomState(0).random_integers(*args, size=3000)
    with pytest.warns(DeprecationWarning) as g_w:
        got = host(RandomState(0).random_integers(*args, size=3000))
    assert str(g_w[0].message) == str(np_w[0].message)
    assert got.dtype == want.dtype
    assert (got.min(), got.max()) == (want.min(), want.max())


# ---- in law (scipy.stats at fixed seeds; garray's streams are not NumPy's) ------------

N = 1 << 16


def test_rand_randn_uniform_normal_in_law():
    rs = RandomState(12345)
    for v, dist, args in ((rs.rand(N), "uniform", ()),
                          (rs.randn(N), "norm", ()),
                          (rs.uniform(-2.0, 3.0, N), "uniform", (-2.0, 5.0)),
                          (rs.normal(1.0, 2.0, N), "norm", (1.0, 2.0))):
        x = host(v)
        p = scipy.stats.kstest(x, dist, args=args).pvalue
        assert p > P_MIN, (dist, args, p)
        law = getattr(scipy.stats, dist)(*args)
        se = law.std() / numpy.sqrt(N)
        assert abs(x.mean() - law.mean()) < 5 * se, (dist, args)
        assert abs(x.var() / law.var() - 1) < 5 * numpy.sqrt(2.0 / N), (dist, args)


def test_randint_uniform_over_seven():
    v = host(RandomState(2024).randint(3, 10, size=7 * 10000))
    counts = numpy.bincount(v - 3, minlength=7)
    assert len(counts) == 7
    assert scipy.stats.chisquare(counts).pvalue > P_MIN, counts


# ---- parameters as arrays (broadcast against size as NumPy) ----------------------------

@pytest.mark.parametrize("size", [None, (2, 3, 4), (4,)])
def test_array_parameters_broadcast_as_numpy(size):
    lo = numpy.arange(3.0).reshape(3, 1)
    hi = numpy.arange(4.0) + 10.0
    try:
        want = numpy.random.RandomState(0).uniform(lo, hi, size=size)
    except ValueError:
        with pytest.raises(ValueError):
            RandomState(0).uniform(garray.asarray(lo), garray.asarray(hi), size=size)
        return
    got = RandomState(0).uniform(garray.asarray(lo), garray.asarray(hi), size=size)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    v = host(got)
    assert ((v >= lo) & (v < hi)).all()


def test_non_contiguous_and_0d_parameters():
    base = numpy.arange(12.0).reshape(3, 4)
    for loc in (garray.asarray(base).T, garray.asarray(base)[:, ::-1]):
        a = RandomState(8).normal(loc, 1e-9)
        b = RandomState(8).normal(garray.ascontiguousarray(loc), 1e-9)
        assert a.shape == loc.shape
        numpy.testing.assert_array_equal(host(a), host(b))
        numpy.testing.assert_allclose(host(a), host(loc), atol=1e-6)
    z = RandomState(8).uniform(garray.asarray(1.0), 2.0)
    assert z.shape == () and 1.0 <= float(host(z)) < 2.0


# ---- seeding ------------------------------------------------------------------------

def test_seed_reproducible(fresh_global):
    _legacy.seed(5)
    a = host(_legacy.rand(3))
    _legacy.seed(5)
    b = host(_legacy.rand(3))
    numpy.testing.assert_array_equal(a, b)
    _legacy.seed(6)
    assert not numpy.array_equal(host(_legacy.rand(3)), a)
    numpy.testing.assert_array_equal(host(RandomState(5).rand(3)), a)
    # RandomState(s) is default_rng(s) behind the legacy names (note 2).
    numpy.testing.assert_array_equal(host(default_rng(5).random(3)), a)


def test_seed_in_place_keeps_bound_functions(fresh_global):
    f = _legacy.randint
    _legacy.seed(9)
    a = host(f(0, 1000, size=10))
    _legacy.seed(9)
    numpy.testing.assert_array_equal(host(_legacy.randint(0, 1000, size=10)), a)


@pytest.mark.parametrize("seed", [0, 2 ** 32 - 1, numpy.int64(3), True, numpy.uint32(7)])
def test_seed_accepted_as_numpy(seed):
    numpy.random.RandomState(seed)
    a = host(RandomState(seed).rand(4))
    numpy.testing.assert_array_equal(host(RandomState(int(seed)).rand(4)), a)


@pytest.mark.parametrize("seed", [-1, 2 ** 32, 1.5, "a", [], [[1, 2]], [1, -1],
                                  numpy.float64(2.0), [1.5, 2.0]])
def test_seed_errors_as_numpy(seed):
    with pytest.raises(Exception) as np_err:
        numpy.random.RandomState().seed(seed)
    with pytest.raises(type(np_err.value), match="seed|Seed"):
        RandomState().seed(seed)
    with pytest.raises(type(np_err.value)):
        RandomState(seed)


@pytest.mark.skipif(not HAS_STATE, reason="sequence seeds arrive with SeedSequence seeding")
def test_sequence_seed():
    a = host(RandomState([1, 2, 3]).rand(5))
    numpy.testing.assert_array_equal(host(RandomState([1, 2, 3]).rand(5)), a)
    assert not numpy.array_equal(host(RandomState([1, 2, 4]).rand(5)), a)


def test_bit_generator_seed_and_global_bit_generator(fresh_global):
    bg = default_rng(7).bit_generator
    numpy.testing.assert_array_equal(host(RandomState(bg).rand(3)),
                                     host(default_rng(7).random(3)))
    _legacy.set_bit_generator(default_rng(7).bit_generator)
    numpy.testing.assert_array_equal(host(_legacy.random_sample(3)),
                                     host(default_rng(7).random(3)))
    assert _legacy.get_bit_generator() is _legacy._global()._gen.bit_generator
    with pytest.raises(TypeError, match="bitgen"):
        _legacy.set_bit_generator(numpy.random.PCG64(0))


def test_global_made_once_across_threads(fresh_global):
    got, barrier = [], threading.Barrier(8)

    def grab():
        barrier.wait()
        got.append(_legacy._global())

    threads = [threading.Thread(target=grab) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(g is got[0] for g in got)


def test_module_aliases_draw_from_the_global(fresh_global):
    outs = []
    for fn in (_legacy.random_sample, _legacy.random, _legacy.ranf, _legacy.sample):
        _legacy.seed(4)
        outs.append(host(fn(6)))
    for o in outs[1:]:
        numpy.testing.assert_array_equal(o, outs[0])
    assert _legacy.ranf.__name__ == "ranf"


def test_module_functions_forward_to_the_global(fresh_global):
    for name, params, gen_name, _ in CASES:
        if name not in _legacy.__all__ or not hasattr(Generator, gen_name):
            continue
        _legacy.seed(13)
        a = host(getattr(_legacy, name)(*params, size=5))
        numpy.testing.assert_array_equal(
            a, host(getattr(RandomState(13), name)(*params, size=5)), err_msg=name)
    for name in _legacy.__all__:
        method = getattr(RandomState, {"ranf": "random_sample", "sample": "random_sample"}
                         .get(name, name), None)
        if method is None:
            continue
        want = list(inspect.signature(method).parameters.values())[1:]
        assert list(inspect.signature(getattr(_legacy, name)).parameters.values()) == want
        assert getattr(_legacy, name).__doc__ == method.__doc__, name


# ---- the same bits at every launch shape (run once with GARRAY_CPU_WARP_SIZE=64) ------

def test_same_bits_at_any_launch_shape():
    def draw():
        rs = RandomState(11)
        return [host(rs.rand(1001)), host(rs.randn(999)), host(rs.randint(0, 1000, 1003)),
                host(rs.uniform(-1.0, 1.0, 17)), host(rs.standard_exponential(515))]
    default = draw()
    old = _draw._debug_per(1)
    try:
        per1 = draw()
    finally:
        _draw._debug_per(old)
    for a, b in zip(default, per1):
        numpy.testing.assert_array_equal(a, b)


# ---- state ------------------------------------------------------------------------

@pytest.mark.skipif(not HAS_STATE, reason="Philox.state arrives with SeedSequence seeding")
@pytest.mark.parametrize("legacy", [True, False])
def test_state_round_trip(fresh_global, legacy):
    _legacy.seed(21)
    _legacy.rand(5)
    st = _legacy.get_state(legacy=legacy)
    assert isinstance(st, dict) and st["bit_generator"] == "Philox"
    assert st["has_gauss"] == 0 and st["gauss"] == 0.0
    a = host(_legacy.rand(7))
    b = host(_legacy.randn(3))
    _legacy.set_state(st)
    numpy.testing.assert_array_equal(host(_legacy.rand(7)), a)
    numpy.testing.assert_array_equal(host(_legacy.randn(3)), b)
    rs = RandomState(0)
    rs.set_state(st)
    numpy.testing.assert_array_equal(host(rs.rand(7)), a)


@pytest.mark.skipif(HAS_STATE, reason="the bit generator has its state property")
def test_state_needs_the_seeding_branch():
    with pytest.raises(NotImplementedError, match="state"):
        RandomState(0).get_state()


def test_set_state_mt19937_explains():
    with pytest.raises(ValueError, match="MT19937.*Philox"):
        RandomState(0).set_state(numpy.random.RandomState(0).get_state())
    with pytest.raises(ValueError, match="MT19937"):
        RandomState(0).set_state(numpy.random.RandomState(0).get_state(legacy=False))


@pytest.mark.parametrize("state", [("PCG64",), {"foo": 1}, 42,
                                   {"bit_generator": "PCG64", "state": {}}])
def test_set_state_errors_as_numpy(state):
    with pytest.raises(Exception) as np_err:
        numpy.random.RandomState(0).set_state(state)
    with pytest.raises(type(np_err.value), match="state"):
        RandomState(0).set_state(state)


# ---- errors of the other methods, as NumPy --------------------------------------------

ERRORS = [
    ("normal", (0.0, -1.0), "normal"), ("uniform", (0.0, numpy.inf), "uniform"),
    ("uniform", (-1e308, 1e308), "uniform"), ("random_sample", (-1,), "random"),
    ("standard_normal", ((2, -1),), "standard_normal"),
    ("standard_exponential", (-1,), "standard_exponential"),
    ("choice", ([[1, 2]],), "random"), ("choice", (2.5,), "random"),
    ("dirichlet", ([0.0, 1.0],), "random"), ("hypergeometric", (5, 5, 0), "random"),
    ("exponential", (-1.0,), "exponential"), ("poisson", (-1.0,), "poisson"),
    ("binomial", (-1, 0.5), "binomial"), ("binomial", (5, 1.5), "binomial"),
    ("gamma", (-1.0,), "gamma"), ("beta", (0.0, 1.0), "beta"),
    ("choice", (5, 6, False), "choice"), ("choice", (0,), "choice"),
    ("choice", (5, None, True, [0.5, 0.5]), "choice"),
    ("choice", (2, None, True, [0.4, 0.4]), "choice"),
]


@pytest.mark.parametrize("name,args,gen_name", [
    pytest.param(*e, marks=needs(e[2]), id=f"{e[0]}{e[1]}") for e in ERRORS])
def test_errors_as_numpy(name, args, gen_name):
    with pytest.raises(Exception) as np_err:
        getattr(numpy.random.RandomState(0), name)(*args)
    with pytest.raises(type(np_err.value)):
        getattr(RandomState(0), name)(*args)


# ---- sampling (choice, shuffle, permutation) -------------------------------------------

@needs("choice")
def test_choice():
    rs, ref = RandomState(5), numpy.random.RandomState(5)
    for args in ((5,), (5, 3), (5, (2, 2)), ([1.5, 2.5, 3.5], 4), (5, 0)):
        got, want = rs.choice(*args), numpy.asarray(ref.choice(*args))
        assert (got.dtype, got.shape) == (want.dtype, want.shape), args
    assert sorted(host(rs.choice(6, 6, replace=False))) == list(range(6))
    v = host(rs.choice(3, 3000, p=[0.0, 0.5, 0.5]))
    assert set(numpy.unique(v)) == {1, 2}


@needs("shuffle")
def test_shuffle_in_place(fresh_global):
    x = garray.arange(20).reshape(10, 2)
    assert _legacy.shuffle(x) is None
    v = host(x)
    assert sorted(v[:, 0]) == list(range(0, 20, 2))
    numpy.testing.assert_array_equal(v[:, 1], v[:, 0] + 1)   # rows move whole


@needs("permutation")
def test_permutation(fresh_global):
    p = _legacy.permutation(10)
    assert p.dtype == numpy.asarray(numpy.random.permutation(10)).dtype
    assert sorted(host(p)) == list(range(10))
    x = garray.arange(12.0).reshape(6, 2)
    q = host(_legacy.permutation(x))
    assert q.shape == (6, 2) and sorted(q[:, 0]) == list(range(0, 12, 2))
    numpy.testing.assert_array_equal(host(x), numpy.arange(12.0).reshape(6, 2))


def test_repr_and_signatures():
    assert repr(RandomState(0)) == "RandomState(Philox)"
    assert str(inspect.signature(_legacy.randint)) == \
        "(low, high=None, size=None, dtype=<class 'int'>)"
    assert str(inspect.signature(_legacy.rand)) == "(*args)"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RandomState(0).rand(2)
