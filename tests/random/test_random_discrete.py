"""garray.random's discrete distributions against NumPy (shapes, dtypes, errors) and
scipy.stats (laws).

Statistical checks draw 10**5 values at a fixed seed (SEED; it passes, and any seed
should: the thresholds are not tuned to it) and require a chi-square p-value above 1e-4
against scipy's pmf plus mean and variance within 5 standard errors.  Cases cover both
branches of each sampler (inversion and rejection) and the edges of the parameters.
"""

import os
import re

import numpy
import pytest
import scipy.stats

import garray
from garray.random import _draw
from garray.random._discrete import KINDS

SEED = 20261204
N = 10**5
rng = garray.random.default_rng


# ---- the kinds ------------------------------------------------------------------------


def test_kinds_match_the_c_enum():
    path = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "_kernels", "garray",
                        "rand_discrete.h")
    with open(path) as f:
        enum = dict(re.findall(r"^\s+D_(\w+) = (\d+),", f.read(), re.M))
    assert {k.lower(): int(v) for k, v in enum.items()} == KINDS
    assert all(64 <= v < 128 for v in KINDS.values())


# ---- laws -------------------------------------------------------------------------------


def _check_law(x, dist):
    """Chi-square of the draws ``x`` (a garray array) against the frozen scipy
    distribution ``dist``, tails pooled into the end bins so every bin expects >= 5;
    then mean and variance within 5 standard errors."""
    v = garray.asnumpy(x).ravel()
    n = v.size
    lo, hi = dist.ppf(1e-9), dist.ppf(1 - 1e-9)
    keep = numpy.arange(lo, hi + 1) if hi - lo < 10**5 else numpy.array([])
    keep = keep[n * dist.pmf(keep) >= 5]
    if keep.size >= 2:          # one bin per value
        a, b = keep[0], keep[-1]
        inner = numpy.arange(a + 1, b)
        expected = numpy.concatenate([[dist.cdf(a)], dist.pmf(inner), [dist.sf(b - 1)]])
        observed = numpy.concatenate([
            [numpy.sum(v <= a)],
            numpy.bincount((v[(v > a) & (v < b)] - a - 1).astype(int), minlength=inner.size),
            [numpy.sum(v >= b)]])
    else:                       # a wide law: 50 bins of about equal probability
        edges = numpy.unique(dist.ppf(numpy.linspace(0, 1, 51)[1:-1]))
        cdf = numpy.concatenate([[0.0], dist.cdf(edges), [1.0]])
        expected = numpy.diff(cdf)
        observed = numpy.bincount(numpy.searchsorted(edges, v, side="left"),
                                  minlength=edges.size + 1)
    expected = expected * (n / expected.sum())     # the pmf sums to 1 up to rounding
    pvalue = scipy.stats.chisquare(observed, expected).pvalue
    assert pvalue > 1e-4, (pvalue, dist.args)
    mean, var, kurt = (float(s) for s in dist.stats(moments="mvk"))
    assert abs(v.mean() - mean) < 5 * numpy.sqrt(var / n), (v.mean(), mean)
    if var > 0:
        se_var = var * numpy.sqrt((kurt + 2) / n)
        assert abs(v.var() - var) < 5 * se_var, (v.var(), var)


LAWS = [
    ("poisson", (0.5,), scipy.stats.poisson(0.5)),
    ("poisson", (9.99,), scipy.stats.poisson(9.99)),            # inversion's largest
    ("poisson", (10.0,), scipy.stats.poisson(10.0)),            # PTRS from here on
    ("poisson", (1234.5,), scipy.stats.poisson(1234.5)),
    ("poisson", (3e7,), scipy.stats.poisson(3e7)),
    ("binomial", (20, 0.3), scipy.stats.binom(20, 0.3)),        # inversion
    ("binomial", (100, 1e-4), scipy.stats.binom(100, 1e-4)),    # p near 0
    ("binomial", (100, 0.9), scipy.stats.binom(100, 0.9)),      # n - inversion(1 - p)
    ("binomial", (1000, 0.3), scipy.stats.binom(1000, 0.3)),    # BTRS
    ("binomial", (10**6, 0.999), scipy.stats.binom(10**6, 0.999)),  # n - BTRS(1 - p)
    ("binomial", (2**40, 0.5), scipy.stats.binom(2**40, 0.5)),
    ("geometric", (0.02,), scipy.stats.geom(0.02)),
    ("geometric", (0.5,), scipy.stats.geom(0.5)),
    ("geometric", (0.999,), scipy.stats.geom(0.999)),           # p near 1
    ("negative_binomial", (3, 0.4), scipy.stats.nbinom(3, 0.4)),
    ("negative_binomial", (0.5, 0.3), scipy.stats.nbinom(0.5, 0.3)),  # gamma shape < 1
    ("negative_binomial", (200, 0.9), scipy.stats.nbinom(200, 0.9)),
    ("logseries", (0.3,), scipy.stats.logser(0.3)),
    ("logseries", (0.95,), scipy.stats.logser(0.95)),
    ("hypergeometric", (5, 20, 7), scipy.stats.hypergeom(25, 5, 7)),      # one by one
    ("hypergeometric", (30, 20, 45), scipy.stats.hypergeom(50, 30, 45)),  # 5 left out
    ("hypergeometric", (300, 200, 100), scipy.stats.hypergeom(500, 300, 100)),  # HRUA
    ("hypergeometric", (10**6, 10**7, 5 * 10**6),
     scipy.stats.hypergeom(11 * 10**6, 10**6, 5 * 10**6)),
]


@pytest.mark.parametrize("method,args,dist", LAWS,
                         ids=[f"{m}{a}" for m, a, _ in LAWS])
def test_law(method, args, dist):
    x = getattr(rng(SEED), method)(*args, size=N)
    assert x.dtype == numpy.int64 and x.shape == (N,)
    _check_law(x, dist)


@pytest.mark.parametrize("method,args,value", [
    ("poisson", (0.0,), 0), ("binomial", (0, 0.5), 0), ("binomial", (7, 0.0), 0),
    ("binomial", (7, 1.0), 7), ("binomial", (7.9, 1.0), 7), ("geometric", (1.0,), 1),
    ("logseries", (0.0,), 1), ("negative_binomial", (5, 1.0), 0),
    ("hypergeometric", (5, 0, 3), 3), ("hypergeometric", (0, 5, 3), 0),
    ("hypergeometric", (40, 30, 70), 40), ("hypergeometric", (40, 30, 0), 0),
])
def test_degenerate_parameters(method, args, value):
    x = getattr(rng(SEED), method)(*args, size=1000)
    numpy.testing.assert_array_equal(garray.asnumpy(x), numpy.full(1000, value))


def test_geometric_tiny_p_saturates():
    # NumPy gives int64 max; garray the largest double below 2**63 (kernel returns doubles).
    x = garray.asnumpy(rng(SEED).geometric(1e-300, size=8))
    assert (x == 9223372036854774784).all()


# ---- shapes, dtypes, parameters as arrays ---------------------------------------------

SHAPE_CASES = [("poisson", (4.0,)), ("binomial", (10, 0.4)), ("geometric", (0.3,)),
               ("negative_binomial", (2, 0.5)), ("logseries", (0.5,)),
               ("hypergeometric", (30, 20, 15))]


@pytest.mark.parametrize("method,args", SHAPE_CASES, ids=[m for m, _ in SHAPE_CASES])
@pytest.mark.parametrize("size", [None, 0, 5, (2, 3), (3, 0)])
def test_shape_and_dtype(method, args, size):
    g = getattr(rng(SEED), method)(*args, size=size)
    e = getattr(numpy.random.default_rng(0), method)(*args, size=size)
    assert isinstance(g, garray.ndarray)
    assert g.dtype == numpy.int64 and g.shape == numpy.shape(e)


def test_array_parameters_broadcast():
    lam = numpy.array([[1.0], [100.0], [1e4]])
    g = rng(SEED).poisson(garray.asarray(lam), size=(3, 20000))
    assert g.shape == numpy.random.default_rng(0).poisson(lam, size=(3, 20000)).shape
    means = garray.asnumpy(g).mean(axis=1)
    assert (abs(means - lam[:, 0]) < 5 * numpy.sqrt(lam[:, 0] / 2e4)).all(), means
    # size None: the parameters' broadcast shape; a Python list works as in NumPy
    g = rng(SEED).binomial(garray.asarray([[5], [50]]), [0.1, 0.5, 0.9])
    assert g.shape == (2, 3) and g.dtype == numpy.int64
    assert (garray.asnumpy(g) <= numpy.array([[5], [50]])).all()
    with pytest.raises(ValueError):
        numpy.random.default_rng(0).poisson(lam, size=(2, 5))
    with pytest.raises(ValueError):
        rng(SEED).poisson(garray.asarray(lam), size=(2, 5))


@pytest.mark.parametrize("layout", ["transposed", "reversed", "0-d", "empty"])
def test_parameter_layouts(layout):
    base = garray.asarray(numpy.arange(1.0, 13.0).reshape(3, 4) * 2.5)
    p = {"transposed": base.T, "reversed": base[::-1, ::-2], "0-d": base[1, 2],
         "empty": base[:0]}[layout]
    contiguous = garray.ascontiguousarray(p)
    a = rng(SEED).poisson(p)
    b = rng(SEED).poisson(contiguous)
    assert a.shape == p.shape and a.dtype == numpy.int64
    numpy.testing.assert_array_equal(garray.asnumpy(a), garray.asnumpy(b))


# ---- bad input: NumPy's exception and message ---------------------------------------------

BAD = [
    ("poisson", (-1.0,)), ("poisson", (float("nan"),)), ("poisson", (1e19,)),
    ("poisson", ([1.0, -2.0],)),
    ("binomial", (-1, 0.5)), ("binomial", (5, -0.1)), ("binomial", (5, 1.1)),
    ("binomial", (5, float("nan"))), ("binomial", ([3, -3], 0.5)),
    ("geometric", (0.0,)), ("geometric", (1.1,)), ("geometric", (float("nan"),)),
    ("geometric", ([0.5, 0.0],)),
    ("negative_binomial", (0, 0.5)), ("negative_binomial", (float("nan"), 0.5)),
    ("negative_binomial", (1, 0.0)), ("negative_binomial", (1, 1.5)),
    ("negative_binomial", (1e20, 1e-10)),
    ("logseries", (1.0,)), ("logseries", (-0.1,)), ("logseries", (float("nan"),)),
    ("multinomial", (-1, [0.5, 0.5])), ("multinomial", (5, [-0.1, 1.1])),
    ("multinomial", (5, [0.5, float("nan")])), ("multinomial", (5, [0.7, 0.7, 0.1])),
    ("multinomial", (5, 0.5)), ("multinomial", (5, [])), ("multinomial", (-1, [1.5, 0.5])),
    ("multinomial", (5, [[0.5, 0.5, 0.0], [0.9, 0.9, 0.0]])), ("multinomial", (5, [[0.5], [-0.5]])),
    ("multinomial", ([3, -1], [0.5, 0.5])), ("logseries", ([0.5, 1.0],)),
    ("binomial", (3, [0.5, float("nan")])), ("negative_binomial", ([float("nan"), 1.0], 0.5)),
    ("negative_binomial", ([1e20], [1e-10])),
    ("hypergeometric", (-1, -1, -1)), ("hypergeometric", (2, -1, -1)),
    ("hypergeometric", (2, 2, -1)), ("hypergeometric", (-1, 5, 1)),
    ("hypergeometric", (10**9, -1, 1)), ("hypergeometric", (5, 5, 11)),
    ("hypergeometric", ([5, 10**9], 2, 1)), ("binomial", (-1, 1.5)),
    ("binomial", (float("nan"), 0.5)), ("multinomial", (float("nan"), [-1.0, 2.0])),
    ("hypergeometric", (float("nan"), -1, 1)),
]


@pytest.mark.parametrize("method,args", [
    ("binomial", (float("inf"), 0.5)), ("binomial", (2.0**63, 0.5)),
    ("binomial", (numpy.array([1.5, 2.0]), 0.5)), ("multinomial", (float("inf"), [1.0])),
    ("hypergeometric", (numpy.array([2.5]), 1, 1)),
])
def test_integer_parameters_convert_as_numpy(method, args):
    # NumPy casts n (and the hypergeometric counts) to int64 before anything else
    with pytest.raises((OverflowError, TypeError)) as e_np:
        getattr(numpy.random.default_rng(0), method)(*args)
    gargs = [garray.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args]
    with pytest.raises(e_np.type):
        getattr(rng(SEED), method)(*gargs)


@pytest.mark.parametrize("method,args", BAD, ids=[f"{m}{a}" for m, a in BAD])
def test_bad_parameters(method, args):
    with pytest.raises(ValueError) as e_np:
        getattr(numpy.random.default_rng(0), method)(*args)
    # list parameters go in as garray arrays (multinomial's pvals as a list)
    gargs = [garray.asarray(a) if isinstance(a, list) and not (method == "multinomial" and i)
             else a for i, a in enumerate(args)]
    with pytest.raises(ValueError) as e_g:
        getattr(rng(SEED), method)(*gargs)
    assert str(e_g.value) == str(e_np.value)


# ---- multinomial ---------------------------------------------------------------------


def test_multinomial_joint_law():
    pvals = [0.05, 0.3, 0.65]
    x = garray.asnumpy(rng(SEED).multinomial(5, pvals, size=N))
    assert x.shape == (N, 3) and x.dtype == numpy.int64
    assert (x.sum(axis=1) == 5).all()
    cells = [(i, j, 5 - i - j) for i in range(6) for j in range(6 - i)]
    code = x[:, 0] * 6 + x[:, 1]
    observed = numpy.bincount(code, minlength=36)[[i * 6 + j for i, j, _ in cells]]
    expected = N * scipy.stats.multinomial(5, pvals).pmf(numpy.array(cells))
    pooled = expected >= 5      # the rare cells (if any) go to one bin
    obs, exp = observed[pooled], expected[pooled]
    if not pooled.all():
        obs = numpy.append(obs, observed[~pooled].sum())
        exp = numpy.append(exp, expected[~pooled].sum())
    assert scipy.stats.chisquare(obs, exp * N / exp.sum()).pvalue > 1e-4


def test_multinomial_large_n_marginals():
    # category 0 takes BTRS (n p = 100), category 1 the p > 1/2 side (0.6 / 0.9)
    pvals = [0.1, 0.6, 0.3]
    x = rng(SEED).multinomial(1000, pvals, size=N)
    assert (garray.asnumpy(x).sum(axis=1) == 1000).all()
    _check_law(x[:, 0], scipy.stats.binom(1000, 0.1))
    _check_law(x[:, 2], scipy.stats.binom(1000, 0.3))


def test_multinomial_shapes_and_arrays():
    g = rng(SEED)
    for size in [None, 4, (2, 3), (0, 2)]:
        e = numpy.random.default_rng(0).multinomial(7, [0.25, 0.75], size=size)
        r = g.multinomial(7, [0.25, 0.75], size=size)
        assert r.shape == e.shape and r.dtype == numpy.int64
    n = garray.asarray([0, 10, 1000])
    r = garray.asnumpy(g.multinomial(n, garray.asarray([0.3, 0.3, 0.4, 0.0])[::-1]))
    assert r.shape == (3, 4)
    numpy.testing.assert_array_equal(r.sum(axis=1), [0, 10, 1000])
    assert (r[:, 0] == 0).all()                 # the zero category (reversed pvals)
    r = garray.asnumpy(g.multinomial(9, [1.0]))
    numpy.testing.assert_array_equal(r, [9])
    r = garray.asnumpy(g.multinomial(50, [0.6, 0.6], size=100))     # NumPy accepts it
    numpy.testing.assert_array_equal(r.sum(axis=1), 50)

    # rows of pvals broadcast with n and size, as in NumPy
    pv = numpy.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    for n_, size in [(4, None), ([[3], [5]], None), (4, (3, 2)), ([1, 2], (4, 2))]:
        e = numpy.random.default_rng(0).multinomial(n_, pv, size=size)
        r = g.multinomial(garray.asarray(n_) if isinstance(n_, list) else n_,
                          garray.asarray(pv)[:, ::-1][:, ::-1], size=size)
        numpy.testing.assert_array_equal(garray.asnumpy(r), e)    # the laws are certain
    r = garray.asnumpy(g.multinomial(10, [[0.2, 0.8], [0.7, 0.3]], size=(20000, 2)))
    se = numpy.sqrt(10 * 0.21 / 20000)
    assert abs(r[:, 0, 0].mean() - 2) < 5 * se and abs(r[:, 1, 0].mean() - 7) < 5 * se
    with pytest.raises(ValueError):
        numpy.random.default_rng(0).multinomial(4, pv, size=(3,))
    with pytest.raises(ValueError):
        g.multinomial(4, garray.asarray(pv), size=(3,))


# ---- same bits at any launch shape -------------------------------------------------------

DRAWS = [("poisson", (3.0,)), ("poisson", (500.0,)), ("binomial", (50, 0.3)),
         ("binomial", (5000, 0.7)), ("geometric", (0.1,)), ("negative_binomial", (2.5, 0.2)),
         ("logseries", (0.9,)), ("hypergeometric", (300, 200, 100)),
         ("hypergeometric", (5, 20, 7)), ("multinomial", (300, [0.2, 0.5, 0.3]))]


def _all_draws():
    g = rng(SEED)
    return [garray.asnumpy(getattr(g, m)(*a, size=1001)) for m, a in DRAWS]


def test_same_bits_at_any_launch_shape():
    ref = _all_draws()
    for per in (1, 7):
        old = _draw._debug_per(per)
        try:
            got = _all_draws()
        finally:
            _draw._debug_per(old)
        for (m, _), r, x in zip(DRAWS, ref, got):
            numpy.testing.assert_array_equal(x, r, err_msg=f"{m} per={per}")
    # a size-k draw is the first k values of a size-n one (one element stream each)
    k = garray.asnumpy(rng(SEED).poisson(3.0, size=10))
    numpy.testing.assert_array_equal(k, ref[0][:10])
