"""Whole reductions of large arrays split over the CPU launch pool (Note [Splitting whole
reductions on the CPU] in cython/_reduce.pxi): NumPy's values, dtypes and shapes; the
same bits whatever the thread count; the unsplit schedule (GARRAY_REDUCE=nb) agrees."""

import numpy
import pytest

import garray
from garray import _core
from xp import assert_xp_close

# The split is the CPU device's (GPUs reduce with block trees): other devices run one size
ON_CPU = garray.ones(1).device.kind == "cpu"
SIZES = (1 << 18, (1 << 18) + 77, 3 * (1 << 16) + (1 << 17) + 5) if ON_CPU else (1 << 18,)
ROWS = ("sum", "prod", "max", "min", "all", "any", "count_nonzero")


def _data(dtype, n, rng):
    if dtype == "bool":
        return rng.random(n) < 0.5
    if numpy.dtype(dtype).kind in "iu":       # small values: the products stay readable
        return rng.integers(0, 2, n).astype(dtype) if dtype.startswith("u") else (
            rng.integers(-2, 3, n).astype(dtype))
    h = (1 + 1e-6 * rng.standard_normal(n)).astype(dtype)
    return h if numpy.dtype(dtype).kind == "f" else h + 1e-7j


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32", "float64",
                                   "complex64", "float16"] if ON_CPU else ["float32"])
@pytest.mark.parametrize("n", SIZES)
def test_split_matches_numpy(dtype, n):
    rng = numpy.random.default_rng(n)
    h = _data(dtype, n, rng)
    g = garray.asarray(h)
    # products of +-1 (and 0 for integers) are exact in every dtype and every order
    signs = numpy.where(rng.random(n) < 0.5, -1, 1).astype(h.dtype) if dtype != "bool" else h
    gs = garray.asarray(signs)
    for name in ROWS:
        if name in ("max", "min") and h.dtype.kind == "c":
            continue
        src, gsrc = (signs, gs) if name == "prod" else (h, g)
        with numpy.errstate(over="ignore"):     # float16 sums overflow, as garray's
            want = getattr(numpy, name)(src)
        got = getattr(garray, name)(gsrc)
        rtol = 1e-3 if dtype in ("float32", "complex64", "float16") else 1e-9
        assert_xp_close(got, numpy.asarray(want) if name == "count_nonzero" else want,
                        rtol=rtol if h.dtype.kind in "fc" else None)
    assert_xp_close(garray.sum(garray.asarray(h.reshape(-1, 1)), keepdims=True),
                    numpy.sum(h.reshape(-1, 1), keepdims=True),
                    rtol=1e-3 if h.dtype.kind in "fc" else None)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_split_is_the_same_for_every_thread_count(dtype):
    """The partition depends on the size only: 1, 2 and 3 threads give the same bits,
    and the unsplit schedule agrees within the sum's error."""
    if garray.ones(1).device.kind != "cpu":
        pytest.skip("the CPU device's launch pool")
    h = numpy.random.default_rng(5).standard_normal((1 << 18) + 13).astype(dtype) * 7
    g = garray.asarray(h)
    old = _core._debug_cpu_pool(threads=1)
    try:
        ref = [garray.sum(g).get(), garray.max(g).get(), garray.prod(g[:300000] * 0 + 1).get()]
        for t in (2, 3):
            _core._debug_cpu_pool(threads=t)
            got = [garray.sum(g).get(), garray.max(g).get(),
                   garray.prod(g[:300000] * 0 + 1).get()]
            for a, b in zip(got, ref):
                numpy.testing.assert_array_equal(a, b)
    finally:
        _core._debug_cpu_pool(*old)
    prev = _core._debug_reduce_strategy("nb")
    try:
        unsplit = garray.sum(g).get()
    finally:
        _core._debug_reduce_strategy(prev)
    numpy.testing.assert_allclose(unsplit, ref[0], rtol=1e-4 if dtype == "float32" else 1e-10)


def test_split_keeps_nan_and_views():
    h = numpy.random.default_rng(1).standard_normal(1 << 19)
    h[300001] = numpy.nan
    g = garray.asarray(h)
    for name in ("sum", "max", "min", "prod"):
        assert_xp_close(getattr(garray, name)(g), getattr(numpy, name)(h))
    # a strided view is not split (not C-contiguous): same values
    assert_xp_close(garray.sum(g[::2]), numpy.sum(h[::2]))
    assert_xp_close(garray.count_nonzero(g[1::3] > 0), numpy.asarray(
        numpy.count_nonzero(h[1::3] > 0)))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "bool", "complex64"]
                         if ON_CPU else ["float64"])
@pytest.mark.parametrize("n", SIZES)
def test_split_argmax_argmin(dtype, n):
    """argmax/argmin of large arrays split by segments: NumPy's first index, NaN first,
    ties (all equal, the extreme in several segments) to the lowest index."""
    rng = numpy.random.default_rng(n + 1)
    if dtype == "bool":
        h = rng.random(n) < 0.001
    else:
        h = (rng.standard_normal(n) * 3).astype(dtype)
    cases = [h, numpy.zeros(n, dtype), numpy.tile(h[:1000], n // 1000 + 1)[:n]]
    if dtype.startswith("float"):
        nan = h.copy()
        nan[[n - 3, n // 2, n // 3]] = numpy.nan
        cases.append(nan)
    for c in cases:
        g = garray.asarray(c)
        for name in ("argmax", "argmin"):
            want = getattr(numpy, name)(c)
            assert_xp_close(getattr(garray, name)(g), numpy.asarray(want))
            assert_xp_close(getattr(g, name)(), numpy.asarray(want))
            assert_xp_close(getattr(garray, name)(g.reshape(1, -1), keepdims=True),
                            getattr(numpy, name)(c.reshape(1, -1), keepdims=True))
