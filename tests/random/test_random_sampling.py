"""garray.random's sampling methods against NumPy: permutation, permuted, shuffle,
choice, multivariate_normal.

Shapes, dtypes and errors are compared with ``numpy.random.default_rng(0)``; the laws
statistically at fixed seeds (chi-square or moments, p-value threshold 1e-4; every seed
here passes at that threshold and was not searched for).  Values are read back only
through ``garray.asnumpy`` (device-to-host copies), so the file runs on stub GPU devices.
"""

import hashlib
import itertools
import math

import numpy
import pytest
from scipy import stats

import garray
from garray.random import _draw
from xp import for_all_dtypes, make

P_MIN = 1e-4
ga_rng = garray.random.default_rng
np_rng = numpy.random.default_rng


def host(x):
    return garray.asnumpy(x)


def raises_alike(fn_np, fn_g):
    """NumPy's ``fn_np(rng)`` raises; garray's ``fn_g(rng)`` raises the same type."""
    with pytest.raises(Exception) as info:
        fn_np(np_rng(0))
    with pytest.raises(type(info.value)):
        fn_g(ga_rng(0))
    return info.value


def _xp(rng):
    """numpy for NumPy's Generator, garray for garray's: each is given its own arrays."""
    return garray if isinstance(rng, garray.random.Generator) else numpy


def chisq_p(observed, expected):
    return stats.chisquare(observed, expected).pvalue


# ---- permutation -----------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 7, 1000, -3])
def test_permutation_int(n):
    g = ga_rng(1).permutation(n)
    e = np_rng(1).permutation(n)
    assert isinstance(g, garray.ndarray) and g.dtype == e.dtype and g.shape == e.shape
    numpy.testing.assert_array_equal(numpy.sort(host(g)), numpy.arange(max(n, 0)))


def _views(dtype):
    """(name, numpy array, garray array): contiguous, transposed, negative strides."""
    base_n = make(numpy, (5, 6), dtype)
    base_g = make(garray, (5, 6), dtype)
    return [("contiguous", base_n, base_g), ("transposed", base_n.T, base_g.T),
            ("negative", base_n[::-1, ::-2], base_g[::-1, ::-2])]


@for_all_dtypes()
def test_permutation_array_every_dtype_and_layout(dtype):
    for name, xn, xg in _views(dtype):
        for axis in (0, 1, -1):
            n = xn.shape[axis]
            perm = host(ga_rng(7).permutation(n))       # the same draw as below
            got = ga_rng(7).permutation(xg, axis=axis)
            assert got.dtype == xn.dtype and got.shape == xn.shape, name
            numpy.testing.assert_array_equal(host(got), numpy.take(xn, perm, axis=axis),
                                             err_msg=f"{name} axis {axis}")


def test_permutation_copies_and_leaves_input():
    x = garray.arange(10)
    y = ga_rng(3).permutation(x)
    numpy.testing.assert_array_equal(host(x), numpy.arange(10))
    assert not garray.may_share_memory(x, y)
    # a list is sampled from the current device
    numpy.testing.assert_array_equal(numpy.sort(host(ga_rng(3).permutation([3, 1, 2]))),
                                     [1, 2, 3])


@pytest.mark.parametrize("case", ["0-d", "float", "axis"])
def test_permutation_errors(case):
    f = {"0-d": lambda r, xp: r.permutation(xp.asarray(5)),
         "float": lambda r, xp: r.permutation(5.0),
         "axis": lambda r, xp: r.permutation(xp.zeros((2, 3)), axis=2)}[case]
    raises_alike(lambda r: f(r, numpy), lambda r: f(r, garray))


def test_permutation_empty_axis():
    got = ga_rng(0).permutation(garray.zeros((0, 3)))
    assert got.shape == (0, 3)
    got = ga_rng(0).permutation(garray.zeros((2, 0)), axis=1)
    assert got.shape == (2, 0)


def test_permutations_of_4_equally_likely():
    # permuted: 24000 independent rows in one call; permutation: 1200 calls
    rows = host(ga_rng(2024).permuted(garray.broadcast_to(garray.arange(4), (24000, 4)),
                                      axis=1))
    perms = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    codes = [perms[tuple(r)] for r in rows.tolist()]
    assert chisq_p(numpy.bincount(codes, minlength=24), None) > P_MIN
    r = ga_rng(99)
    codes = [perms[tuple(host(r.permutation(4)).tolist())] for _ in range(1200)]
    assert chisq_p(numpy.bincount(codes, minlength=24), None) > P_MIN


def test_permutation_positions_uniform_large_n():
    # element 0's position in a permutation of 1000, over the positions of all draws
    n = 1000
    p = host(ga_rng(5).permutation(n))
    assert len(set(p.tolist())) == n
    # rows of a (2000, 50) permuted: where each value lands is uniform over 50 slots
    rows = host(ga_rng(5).permuted(garray.broadcast_to(garray.arange(50), (2000, 50)),
                                   axis=1))
    where0 = numpy.argmax(rows == 0, axis=1)
    assert chisq_p(numpy.bincount(where0, minlength=50), None) > P_MIN


# ---- permuted ----------------------------------------------------------------------


@for_all_dtypes(dtypes=("bool", "int8", "uint64", "float32", "complex128"))
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_permuted_slices_are_permutations(dtype, axis):
    for name, xn, xg in _views(dtype):
        got = ga_rng(11).permuted(xg, axis=axis)
        assert got.dtype == xn.dtype and got.shape == xn.shape, name
        g = host(got)
        if axis is None:
            numpy.testing.assert_array_equal(numpy.sort(g, axis=None),
                                             numpy.sort(xn, axis=None), err_msg=name)
        else:
            numpy.testing.assert_array_equal(numpy.sort(g, axis=axis),
                                             numpy.sort(xn, axis=axis), err_msg=name)
        numpy.testing.assert_array_equal(host(xg), xn)   # the input is untouched


def test_permuted_slices_independent():
    x = garray.broadcast_to(garray.arange(20), (6, 20))
    rows = host(ga_rng(8).permuted(x, axis=1))
    assert len({tuple(r) for r in rows.tolist()}) == 6
    cols = host(ga_rng(8).permuted(x.T, axis=0))
    assert len({tuple(c) for c in cols.T.tolist()}) == 6


def test_permuted_out_aliasing_and_cast():
    x = garray.arange(12).reshape(3, 4)
    y = ga_rng(4).permuted(x, axis=1)
    r = ga_rng(4).permuted(x, axis=1, out=x)
    assert r is x
    numpy.testing.assert_array_equal(host(x), host(y))
    out = garray.zeros((3, 4), dtype="float64")
    assert ga_rng(4).permuted(garray.arange(12).reshape(3, 4), axis=1, out=out) is out
    numpy.testing.assert_array_equal(host(out), host(y).astype(numpy.float64))


@pytest.mark.parametrize("case", ["cast", "shape", "axis", "axis-0d"])
def test_permuted_errors(case):
    f = {"cast": lambda r, xp: r.permuted(xp.arange(4.0), out=xp.zeros(4, dtype="int64")),
         "shape": lambda r, xp: r.permuted(xp.arange(4), out=xp.zeros(3, dtype="int64")),
         "axis": lambda r, xp: r.permuted(xp.arange(4), axis=1),
         "axis-0d": lambda r, xp: r.permuted(xp.asarray(3), axis=0)}[case]
    raises_alike(lambda r: f(r, numpy), lambda r: f(r, garray))


def test_permuted_empty_and_0d():
    assert ga_rng(0).permuted(garray.zeros((0, 4)), axis=1).shape == (0, 4)
    with pytest.raises(TypeError):          # NumPy: len() of unsized object
        ga_rng(0).permuted(garray.asarray(2.5))
    with pytest.raises(TypeError):
        numpy.random.default_rng(0).permuted(numpy.asarray(2.5))


# ---- shuffle -----------------------------------------------------------------------


@for_all_dtypes(dtypes=("bool", "int16", "uint32", "float64", "complex64"))
def test_shuffle_in_place_keeps_multiset(dtype):
    for name, xn, xg in _views(dtype):
        x = xg.copy() if name == "contiguous" else xg   # views shuffle their base
        before = host(x)
        for axis in (0, 1):
            assert ga_rng(21).shuffle(x, axis=axis) is None
            after = host(x)
            perm = host(ga_rng(21).permutation(before.shape[axis]))
            numpy.testing.assert_array_equal(after, numpy.take(before, perm, axis=axis),
                                             err_msg=f"{name} axis {axis}")
            before = after


def test_shuffle_list_and_sequences():
    items = list(range(50))
    x = list(items)
    ga_rng(6).shuffle(x)
    assert sorted(x) == items and x != items
    y = list(items)
    ga_rng(6).shuffle(y)
    assert x == y      # the same seed, the same order
    one = [5]
    ga_rng(0).shuffle(one)
    assert one == [5]
    e = garray.zeros((0, 3))
    ga_rng(0).shuffle(e)
    with pytest.raises(TypeError, match="garray.asarray"):
        ga_rng(0).shuffle(numpy.arange(3))


@pytest.mark.parametrize("case", ["tuple", "list-axis", "0-d", "axis"])
def test_shuffle_errors(case):
    f = {"tuple": lambda r, xp: r.shuffle((1, 2, 3)),
         "list-axis": lambda r, xp: r.shuffle([1, 2, 3], axis=1),
         "0-d": lambda r, xp: r.shuffle(xp.asarray(5)),
         "axis": lambda r, xp: r.shuffle(xp.zeros((2, 3)), axis=2)}[case]
    raises_alike(lambda r: f(r, numpy), lambda r: f(r, garray))


def test_shuffle_read_only():
    x = garray.arange(4)
    x.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ga_rng(0).shuffle(x)


# ---- choice ------------------------------------------------------------------------


P5 = [0.1, 0.0, 0.3, 0.6, 0.0]
CHOICE_CASES = [
    (5, None, True, None, 0), (5, 3, True, None, 0), (5, (2, 2), False, None, 0),
    (5, 0, False, None, 0), (5, (), True, None, 0), (5, 4, True, P5, 0),
    (5, (2,), False, P5, 0), (5, None, False, P5, 0), (0, 0, True, None, 0),
    ("1d", 4, True, None, 0), ("1d", None, False, None, 0), ("1d", (2, 2), True, P5, 0),
    ("2d", 2, False, None, 0), ("2d", (3, 2), True, None, 1), ("2d", 3, False, None, -1),
    ("2d", None, True, None, 1), ("empty", 0, True, None, 0),
]


def _pool(a, xp, dtype="float64"):
    if a == "1d":
        return make(xp, (5,), dtype)
    if a == "2d":
        return make(xp, (4, 5), dtype)[:, ::-1]
    if a == "empty":
        return xp.zeros((0,), dtype=dtype)
    return a


@pytest.mark.parametrize("a, size, replace, p, axis", CHOICE_CASES)
def test_choice_shapes_dtypes(a, size, replace, p, axis):
    e = numpy.asarray(np_rng(0).choice(_pool(a, numpy), size, replace, p, axis))
    g = ga_rng(0).choice(_pool(a, garray), size, replace, p, axis)
    assert isinstance(g, garray.ndarray)
    assert g.dtype == e.dtype and g.shape == e.shape
    h = host(g)
    if a == "1d" or a == 5:
        allowed = numpy.arange(5) if a == 5 else make(numpy, (5,), "float64")
        if p is not None:
            allowed = allowed[numpy.asarray(P5) > 0]
        assert numpy.isin(h, allowed).all()
    if not replace and h.size:
        flat = h.reshape(-1) if a in (5, "1d") else numpy.moveaxis(h, axis, 0).reshape(
            h.shape[axis], -1)
        assert len({tuple(numpy.atleast_1d(v)) for v in flat}) == len(flat)


@for_all_dtypes()
def test_choice_every_dtype(dtype):
    x = make(garray, (6,), dtype)[::-1]
    idx = host(ga_rng(9).choice(6, 4, replace=False))
    got = ga_rng(9).choice(x, 4, replace=False)
    assert got.dtype == numpy.dtype(dtype)
    numpy.testing.assert_array_equal(host(got), make(numpy, (6,), dtype)[::-1][idx])


@pytest.mark.parametrize("case", [
    "a<=0", "a-neg", "a-float", "p-scalar", "p-2d", "p-len", "p-neg", "p-nan", "p-sum",
    "too-many", "few-nonzero", "empty-pool", "axis", "size-neg"])
def test_choice_errors(case):
    f = {"a<=0": lambda r: r.choice(0),
         "a-neg": lambda r: r.choice(-2, 3),
         "a-float": lambda r: r.choice(5.0),
         "p-scalar": lambda r: r.choice(5, p=0.2),
         "p-2d": lambda r: r.choice(2, p=[[0.5, 0.5]]),
         "p-len": lambda r: r.choice(3, p=[0.5, 0.5]),
         "p-neg": lambda r: r.choice(3, p=[0.5, 0.6, -0.1]),
         "p-nan": lambda r: r.choice(3, p=[0.5, numpy.nan, 0.5]),
         "p-sum": lambda r: r.choice(3, p=[0.5, 0.2, 0.2]),
         "too-many": lambda r: r.choice(5, 6, replace=False),
         "few-nonzero": lambda r: r.choice(5, 3, replace=False, p=[0.5, 0.5, 0, 0, 0]),
         "empty-pool": lambda r: r.choice([], 2),
         "axis": lambda r: r.choice([[1, 2]], 1, axis=2),
         "size-neg": lambda r: r.choice(5, -1)}[case]
    e = raises_alike(f, f)
    with pytest.raises(type(e), match=_MSG.get(case)):
        f(ga_rng(0))


_MSG = {"a<=0": "positive integer", "p-sum": "do not sum to 1", "p-neg": "non-negative",
        "too-many": "larger sample than population", "few-nonzero": "Fewer non-zero",
        "p-2d": "1-dimensional", "p-len": "same size"}


def test_choice_p_float32_tolerance():
    # NumPy widens the sum tolerance to sqrt(eps) of p's float dtype
    p = numpy.full(3, numpy.float32(1 / 3 + 1e-5))
    numpy.asarray(np_rng(0).choice(3, 2, p=p))
    assert ga_rng(0).choice(3, 2, p=garray.asarray(p)).shape == (2,)


def test_choice_uniform_and_weighted_laws():
    n = 10**5
    g = host(ga_rng(31).choice(7, n))
    assert chisq_p(numpy.bincount(g, minlength=7), None) > P_MIN
    p = numpy.array([0.05, 0.0, 0.25, 0.4, 0.3])
    g = host(ga_rng(32).choice(5, n, p=garray.asarray(p)))
    counts = numpy.bincount(g, minlength=5)
    assert counts[1] == 0
    keep = p > 0
    assert chisq_p(counts[keep], n * p[keep]) > P_MIN


def test_choice_without_replacement_weighted_law():
    # ordered pairs (i, j) of a draw of 2 from 4 weighted items: p_i * p_j / (1 - p_i)
    p = numpy.array([0.1, 0.2, 0.3, 0.4])
    pairs = [(i, j) for i in range(4) for j in range(4) if i != j]
    expect = numpy.array([p[i] * p[j] / (1 - p[i]) for i, j in pairs])
    r = ga_rng(41)
    pg = garray.asarray(p)
    trials = 1500
    codes = {pr: k for k, pr in enumerate(pairs)}
    got = [codes[tuple(host(r.choice(4, 2, replace=False, p=pg)).tolist())]
           for _ in range(trials)]
    assert chisq_p(numpy.bincount(got, minlength=12), trials * expect) > P_MIN


def test_choice_without_replacement_uniform_law():
    # choice(10, 3, replace=False): each of the 10 items is in the sample w.p. 3/10 and
    # each slot holds each item w.p. 1/10
    r = ga_rng(43)
    draws = numpy.array([host(r.choice(10, 3, replace=False)) for _ in range(1000)])
    for slot in range(3):
        assert chisq_p(numpy.bincount(draws[:, slot], minlength=10), None) > P_MIN


# ---- multivariate normal ---------------------------------------------------------------

MEAN = [1.0, -2.0, 0.5]
COV = [[2.0, 0.6, 0.0], [0.6, 1.0, -0.3], [0.0, -0.3, 0.5]]


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_moments(method):
    n = 40000
    x = ga_rng(51).multivariate_normal(garray.asarray(MEAN), COV, size=n, method=method)
    assert x.dtype == numpy.float64 and x.shape == (n, 3)
    h = host(x)
    se = numpy.sqrt(numpy.diag(COV) / n)
    assert (numpy.abs(h.mean(axis=0) - MEAN) < 5 * se).all()
    # sample covariance: each entry within 5 standard errors (normal fourth moments)
    c = numpy.asarray(COV)
    se_cov = numpy.sqrt((c * c + numpy.outer(numpy.diag(c), numpy.diag(c))) / n)
    assert (numpy.abs(numpy.cov(h, rowvar=False) - c) < 5 * se_cov).all()
    # a linear projection is normal: KS of the standardised first coordinate
    z = (h[:, 0] - MEAN[0]) / math.sqrt(COV[0][0])
    assert stats.kstest(z, "norm").pvalue > P_MIN


@pytest.mark.parametrize("size, shape", [(None, (3,)), (4, (4, 3)), ((2, 0), (2, 0, 3)),
                                         ((2, 2), (2, 2, 3))])
def test_multivariate_normal_shapes(size, shape):
    e = np_rng(0).multivariate_normal(MEAN, COV, size=size)
    g = ga_rng(0).multivariate_normal(MEAN, COV, size=size)
    assert e.shape == shape and g.shape == shape and g.dtype == e.dtype


def test_multivariate_normal_check_valid():
    bad = [[1.0, 2.0], [2.0, 1.0]]
    for method in ("svd", "eigh"):
        with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
            ga_rng(0).multivariate_normal([0, 0], bad, size=2, method=method)
        with pytest.raises(ValueError, match="positive-semidefinite"):
            ga_rng(0).multivariate_normal([0, 0], bad, check_valid="raise", method=method)
        x = ga_rng(0).multivariate_normal([0, 0], bad, size=2, check_valid="ignore",
                                          method=method)
        assert x.shape == (2, 2)
    # a singular PSD cov passes (degenerate: both coordinates equal)
    x = host(ga_rng(0).multivariate_normal([0, 0], [[1, 1], [1, 1]], size=50,
                                           check_valid="raise"))
    numpy.testing.assert_allclose(x[:, 0], x[:, 1], atol=1e-7)


@pytest.mark.parametrize("case", ["method", "mean-2d", "len", "cov-1d", "cov-rect",
                                  "complex", "check_valid", "empty", "cholesky-bad"])
def test_multivariate_normal_errors(case):
    eye = [[1.0, 0.0], [0.0, 1.0]]
    f = {"method": lambda r: r.multivariate_normal([0, 0], eye, method="qr"),
         "mean-2d": lambda r: r.multivariate_normal([[0, 0]], eye),
         "len": lambda r: r.multivariate_normal([0, 0, 0], eye),
         "cov-1d": lambda r: r.multivariate_normal([0, 0], [1, 0]),
         "cov-rect": lambda r: r.multivariate_normal([0, 0], [[1, 0, 0], [0, 1, 0]]),
         "complex": lambda r: r.multivariate_normal([0j, 0], eye),
         "check_valid": lambda r: r.multivariate_normal([0, 0], eye, check_valid="x"),
         "empty": lambda r: r.multivariate_normal(_xp(r).zeros(0), _xp(r).zeros((0, 0))),
         "cholesky-bad": lambda r: r.multivariate_normal(
             [0, 0], [[1, 2], [2, 1]], method="cholesky")}[case]
    raises_alike(f, f)


# ---- same bits at every launch shape -----------------------------------------------------


DIGEST = "849c21f935700983"


def _draws():
    r = ga_rng(2027)
    out = [r.permutation(300), r.permuted(garray.arange(60).reshape(6, 10), axis=1),
           r.choice(50, 20, replace=False), r.choice(5, 30, p=P5),
           r.choice(5, 3, replace=False, p=P5)]
    x = garray.arange(40)
    r.shuffle(x)
    return [host(v) for v in out + [x]]


def test_same_bits_any_launch_shape():
    base = _draws()
    old = _draw._debug_per(1)
    try:
        other = _draws()
    finally:
        _draw._debug_per(old)
    for a, b in zip(base, other):
        numpy.testing.assert_array_equal(a, b)
    # recorded once on the CPU device at warp size 32: every device and warp size
    # (GARRAY_CPU_WARP_SIZE=64, the stub GPUs) must draw these same bits
    digest = hashlib.sha256(b"".join(v.tobytes() for v in base)).hexdigest()[:16]
    assert digest == DIGEST


# ---- integers with array bounds ---------------------------------------------------------

INT_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64")


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integers_array_bounds_every_dtype(dtype):
    info = (0, 1) if dtype == "bool" else (int(numpy.iinfo(dtype).min),
                                           int(numpy.iinfo(dtype).max))
    bdt = "int64" if dtype == "bool" else dtype
    lows = numpy.array([info[0], info[0], max(info[0], 0)], dtype=bdt)
    highs = numpy.array([info[1], info[0] + 1, max(info[0], 0) + 1], dtype=bdt)
    for endpoint in (False, True):
        e = np_rng(0).integers(lows, highs, size=(200, 3), dtype=dtype, endpoint=endpoint)
        g = ga_rng(0).integers(lows.tolist(), garray.asarray(highs), size=(200, 3),
                               dtype=dtype, endpoint=endpoint)
        assert g.dtype == e.dtype and g.shape == e.shape
        h = host(g).astype(object)
        lo, top = lows.astype(object), highs.astype(object) - (0 if endpoint else 1)
        assert ((h >= lo) & (h <= top)).all()
        if not endpoint:
            assert (h[:, 1] == lo[1]).all()   # a span of one


def test_integers_array_bounds_full_uint64_range():
    g = host(ga_rng(0).integers(garray.asarray([0, 0], dtype="uint64"),
                                garray.asarray([2**64 - 1, 7], dtype="uint64"),
                                size=(500, 2), dtype="uint64", endpoint=True))
    assert g[:, 0].max() > 2**63 and g[:, 1].max() <= 7   # span 2**64 reaches the top half


@pytest.mark.parametrize("low, high, size", [
    ([0, 1], [3, 3], None), ([0, 1], [3, 3], (4, 2)), ([[0], [1]], [3, 4], None),
    ("array", 9, (3,)), ([], 2, None), (0, [[2, 3]], (2, 1, 2))])
def test_integers_array_bounds_shapes(low, high, size):
    e = np_rng(0).integers(numpy.asarray([5]) if low == "array" else low, high, size=size)
    g = ga_rng(0).integers(garray.asarray([5]) if low == "array" else low, high, size=size)
    assert g.shape == e.shape and g.dtype == e.dtype


@pytest.mark.parametrize("case", ["low>=high", "low>high", "low-bound", "high-bound",
                                  "u-neg-low", "u-neg-high", "size", "float-dtype"])
def test_integers_array_bounds_errors(case):
    f = {"low>=high": lambda r: r.integers([0, 1], [3, 1]),
         "low>high": lambda r: r.integers([0, 2], [3, 1], endpoint=True),
         "low-bound": lambda r: r.integers([0, -200], [3, 1], dtype="int8"),
         "high-bound": lambda r: r.integers([0, 1], [3, 300], dtype="int8"),
         "u-neg-low": lambda r: r.integers([-1, 2], 5, dtype="uint64"),
         "u-neg-high": lambda r: r.integers(0, [-1, 2], dtype="uint64"),
         "size": lambda r: r.integers([0, 1], [3, 3], size=(4, 3)),
         "float-dtype": lambda r: r.integers([0, 1], 3, dtype="float64")}[case]
    raises_alike(f, f)


def test_integers_array_bounds_law():
    # three ranges in one call: 3 (power of two plus one rejects often), 1000, 2**33 + 5
    n = 30000
    lows = [-1, 10, 0]
    highs = [2, 1010, 2**33 + 5]
    g = host(ga_rng(61).integers(lows, highs, size=(n, 3)))
    assert chisq_p(numpy.bincount(g[:, 0] + 1, minlength=3), None) > P_MIN
    assert chisq_p(numpy.bincount(g[:, 1] - 10, minlength=1000), None) > P_MIN
    # the 64-bit path: 20 equal bins of [0, 2**33 + 5)
    bins = (g[:, 2].astype(numpy.float64) / (2**33 + 5) * 20).astype(numpy.int64)
    assert chisq_p(numpy.bincount(bins, minlength=20), None) > P_MIN


def test_integers_array_bounds_same_bits():
    def draw():
        return host(ga_rng(77).integers(garray.asarray([0, -5, 7]), [3, 2**40, 8],
                                        size=(40, 3)))
    a = draw()
    old = _draw._debug_per(1)
    try:
        b = draw()
    finally:
        _draw._debug_per(old)
    numpy.testing.assert_array_equal(a, b)
    assert hashlib.sha256(a.tobytes()).hexdigest()[:16] == INT_DIGEST


INT_DIGEST = "45297c9d8c6cdd7d"
