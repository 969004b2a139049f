"""The reduction family against NumPy: every row, dtype and schedule, layouts, scans,
empty and 0-d input, NaN rules, accuracy and bad input.

Schedules are forced with ``_core._debug_reduce_strategy`` ("nb", "cols", "tree";
"auto" is what users get), so each kernel of ``_kernels/reduce.hip`` runs on every
device the suite runs on, at the warp size CI gives it.  Data comes from
``xp.sample`` (multiples of 0.5, small integers): float sums are exact whatever the
summation order, so values compare exactly across schedules.
"""

import math
import threading

import numpy
import pytest
from numpy.exceptions import AxisError

import garray
from garray import _core
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, sample, xp_compare
from xp import kind as xp_kind

STRATEGIES = ("auto", "nb", "cols", "tree")
ROWS = ("sum", "prod", "max", "min", "argmax", "argmin", "count_nonzero", "all", "any")
# (shape, axis, keepdims): axis sets after collapse of 0, 1, 2 and 3 dims
CASES = [((7,), None, False), ((5, 6), 0, False), ((5, 6), 1, True), ((5, 6), (0, 1), False),
         ((3, 4, 5), (0, 2), False), ((3, 4, 5), -1, True), ((3, 4, 5), (1,), False),
         ((), None, False), ((2, 40, 3), 1, False), ((4, 1, 3), (0, 1), True)]


@pytest.fixture(params=STRATEGIES)
def strategy(request):
    old = _core._debug_reduce_strategy(request.param)
    yield request.param
    _core._debug_reduce_strategy(old)


def _call(xp, name, x, axis, keepdims):
    if name.startswith("arg"):
        if isinstance(axis, tuple):
            axis = axis[0] if len(axis) == 1 else None
            keepdims = False if axis is None else keepdims
        return getattr(xp, name)(x, axis=axis, keepdims=keepdims)
    if name == "count_nonzero" and xp is numpy:
        return numpy.asarray(numpy.count_nonzero(x, axis=axis, keepdims=keepdims),
                             dtype=numpy.int64)
    return getattr(xp, name)(x, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("name", ROWS)
@for_all_dtypes()
def test_rows_every_dtype_and_axis_set(strategy, name, dtype):
    for shape, axis, keepdims in CASES:
        h = sample(shape, dtype, small=name == "prod")
        expected = _call(numpy, name, h, axis, keepdims)
        got = _call(garray, name, garray.asarray(h), axis, keepdims)
        assert_xp_close(got, numpy.asarray(expected),
                        err_msg=f"{name} {shape} axis={axis} keepdims={keepdims}")


def _views(h):
    g = garray.asarray(h)
    return [(h.T, g.T), (h[::-1, ::2], g[::-1, ::2]), (h[1:, 3:-1], g[1:, 3:-1]),
            (numpy.broadcast_to(h[:1], (4,) + h.shape[1:]),
             garray.broadcast_to(g[:1], (4,) + h.shape[1:]))]


@pytest.mark.parametrize("name", ["sum", "max", "argmin", "any"])
@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64"])
def test_strided_and_broadcast_inputs(strategy, name, dtype):
    h = sample((9, 37), dtype)
    for n, g in _views(h):
        for axis in (None, 0, 1):
            assert_xp_close(_call(garray, name, g, axis, False),
                            numpy.asarray(_call(numpy, name, n, axis, False)),
                            err_msg=f"{name} view {n.strides} axis={axis}")


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128", "uint8"])
@pytest.mark.parametrize("shape, axis", [((5000,), None), ((3, 4500), -1), ((4500, 3), 0),
                                         ((2, 3000, 2), 1)])
def test_long_reductions_use_several_segments(strategy, dtype, shape, axis):
    """Past 2048 elements per output the block tree splits the reduction into segments
    and reduces their partials in a second launch."""
    h = sample(shape, dtype)
    g = garray.asarray(h)
    for name in ("sum", "max", "argmax"):
        ax = axis if name != "argmax" or axis is not None else None
        assert_xp_close(getattr(garray, name)(g, axis=ax),
                        numpy.asarray(getattr(numpy, name)(h, axis=ax)),
                        err_msg=f"{name} {shape} axis={ax}")


def test_tree_results_are_deterministic():
    old = _core._debug_reduce_strategy("tree")
    try:
        h = numpy.random.default_rng(1).standard_normal(20000).astype(numpy.float32)
        g = garray.asarray(h)
        a, b = garray.sum(g).get(), garray.sum(g).get()
        assert a.tobytes() == b.tobytes()
        numpy.testing.assert_allclose(a, h.astype(numpy.float64).sum(), rtol=1e-5)
    finally:
        _core._debug_reduce_strategy(old)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint16", "bool",
                                   "complex64"])
def test_arg_first_occurrence_and_nan(strategy, name, dtype):
    n = 5000
    h = numpy.zeros(n, dtype=dtype)
    big = numpy.ones((), dtype) if name == "argmax" else numpy.zeros((), dtype)
    if name == "argmin":
        h[:] = 1
    h[[700, 1300, 4999]] = big            # ties across chunk and segment boundaries
    g = garray.asarray(h)
    assert_xp_close(getattr(garray, name)(g), getattr(numpy, name)(h))
    if numpy.dtype(dtype).kind in "fc":
        h[[900, 3000]] = numpy.nan        # the first NaN wins, as NumPy
        g = garray.asarray(h)
        assert_xp_close(getattr(garray, name)(g), getattr(numpy, name)(h))
        h2 = numpy.stack([h, h[::-1]])
        assert_xp_close(getattr(garray, name)(garray.asarray(h2), axis=1),
                        getattr(numpy, name)(h2, axis=1))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_max_min_propagate_nan(strategy, dtype):
    h = sample((6, 300), dtype)
    h[2, 17] = numpy.nan
    h[4, 299] = numpy.nan
    for name in ("max", "min"):
        for axis in (None, 0, 1):
            got = getattr(garray, name)(garray.asarray(h), axis=axis)
            assert_xp_close(got, numpy.asarray(getattr(numpy, name)(h, axis=axis)))


@for_all_dtypes()
@xp_compare()
def test_empty_reductions_give_the_identity(xp, dtype):
    x = xp.zeros((3, 0, 2), dtype=dtype)
    return [xp.sum(x, axis=1), xp.prod(x, axis=(0, 1)), xp.all(x, axis=1),
            xp.any(x), xp.max(x, axis=1, initial=5) if xp_kind(dtype) != "c" else xp.sum(x)]


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
@xp_compare()
def test_empty_axis_without_identity_raises(xp, name):
    return getattr(xp, name)(xp.zeros((3, 0)), axis=1)


@xp_compare()
def test_empty_kept_axes(xp):
    x = xp.ones((0, 4))
    return [xp.sum(x, axis=1), xp.max(x, axis=1), xp.argmax(x, axis=1)]


@pytest.mark.parametrize("axis", [2, -3, (0, 0), (1, -1), (0, 5), [0], [0, 1]])
@xp_compare()
def test_bad_axes_raise_axis_error(xp, axis):
    return xp.sum(xp.ones((2, 3)), axis=axis)


def test_axis_error_is_value_and_index_error():
    with pytest.raises(ValueError, match="axis"):
        garray.max(garray.ones(3), axis=1)
    with pytest.raises(IndexError):
        garray.sum(garray.ones(3), axis=(0, 0))
    with pytest.raises(TypeError, match="axis"):
        garray.sum(garray.ones(3), axis=0.5)
    with pytest.raises(TypeError, match="axis"):
        garray.argmax(garray.ones((2, 2)), axis=(0, 1))


@xp_compare()
def test_dtype_argument(xp):
    x = xp.asarray(numpy.full(300, 100, numpy.int8))
    return [xp.sum(x, dtype=xp.int8), xp.sum(x), xp.prod(x[:3], dtype=xp.float32),
            xp.sum(xp.ones(5, dtype=xp.float32), dtype=xp.float64),
            xp.sum(xp.ones(3, dtype=xp.uint8)), xp.sum(xp.ones(3, dtype=xp.bool))]


def test_out_argument():
    h = sample((4, 5), "float64")
    g = garray.asarray(h)
    out = garray.zeros(5)
    r = garray.sum(g, axis=0, out=out)
    assert r is out
    assert_xp_close(out, h.sum(axis=0))
    out_i = garray.zeros((4,), dtype=garray.int32)       # unsafe cast into out, as NumPy
    garray.max(g, axis=1, out=out_i)
    assert_xp_close(out_i, h.max(axis=1).astype(numpy.int32))
    with pytest.raises(ValueError, match="shape"):
        garray.sum(g, axis=0, out=garray.zeros(4))
    with pytest.raises(TypeError, match="out"):
        garray.sum(g, out=numpy.zeros(()))


@xp_compare()
def test_initial_and_where(xp):
    x = xp.asarray(sample((4, 6), "float64"))
    m = xp.asarray(numpy.arange(24).reshape(4, 6) % 3 == 0)
    return [xp.sum(x, axis=1, initial=10.0), xp.max(x, axis=0, initial=3.0),
            xp.sum(x, axis=1, where=m), xp.max(x, axis=1, where=m, initial=-100.0),
            xp.prod(x, where=m), xp.any(x > 3, axis=0, where=m)]


@xp_compare()
def test_where_without_initial_for_max_raises(xp):
    return xp.max(xp.ones(3), where=xp.asarray([True, False, True]))


def test_pairwise_accuracy_at_2_24_float32():
    """The summation error on 2**24 float32 values is no worse than NumPy's pairwise
    summation (measured against a float64 reference of the same values)."""
    h = numpy.random.default_rng(7).random(2**24, dtype=numpy.float32)
    ref = math.fsum(h.astype(numpy.float64))
    g = garray.asarray(h)
    err_np = abs(float(h.sum()) - ref)
    for strategy in ("nb", "tree"):
        old = _core._debug_reduce_strategy(strategy)
        try:
            err = abs(float(garray.sum(g).get()) - ref)
        finally:
            _core._debug_reduce_strategy(old)
        assert err <= 2 * err_np + 4 * numpy.spacing(numpy.float32(ref)), (strategy, err, err_np)


def test_index64_paths_match():
    h = sample((3, 70), "float32")
    old = _core._debug_force_index64(True)
    try:
        for s in STRATEGIES:
            prev = _core._debug_reduce_strategy(s)
            try:
                g = garray.asarray(h)
                assert_xp_close(garray.sum(g, axis=1), h.sum(axis=1))
                assert_xp_close(garray.argmax(g, axis=0), h.argmax(axis=0))
                assert_xp_close(garray.cumsum(g, axis=1), numpy.cumsum(h, axis=1))
            finally:
                _core._debug_reduce_strategy(prev)
    finally:
        _core._debug_force_index64(old)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "uint16", "int64", "float16",
                                   "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 31, 8159, 8160, 8161, 32768, 32769, 100003])
def test_count_nonzero_contiguous_blocks(strategy, dtype, n):
    """Contiguous counts run a block loop (2**15 elements per 32-bit count; one-byte
    types count in 32 byte lanes for 255 steps of 32, 8160 bytes): block ends, -0.0
    (zero), NaN, complex values with only an imaginary part (nonzero), negative and
    wrapped integers."""
    rng = numpy.random.default_rng(n)
    h = (rng.random(n) < 0.3).astype(dtype)
    if xp_kind(h.dtype) in "iu":
        h = rng.integers(-2, 3, n).astype(dtype)
    if xp_kind(h.dtype) in "fc":
        h[::7] = -0.0
        h[3::11] = numpy.nan
    if xp_kind(h.dtype) == "c":
        h[5::13] = 2j
    h[-1] = 1
    g = garray.asarray(h)
    assert_xp_close(garray.count_nonzero(g), numpy.int64(numpy.count_nonzero(h)))
    h2, g2 = h[: n - n % 4].reshape(4, -1), g[: n - n % 4].reshape(4, -1)
    assert_xp_close(garray.count_nonzero(g2, axis=1),
                    numpy.count_nonzero(h2, axis=1).astype(numpy.int64))


def test_reduction_past_2_31_elements():
    """A stride-0 view of 2**31 + 3 elements: 64-bit indexing chosen from the size."""
    g = garray.broadcast_to(garray.asarray([True]), (2**31 + 3,))
    assert_xp_close(garray.count_nonzero(g), numpy.int64(2**31 + 3))


# ---- scans ---------------------------------------------------------------------------

SCAN_CASES = [((10,), 0), ((5, 7), 0), ((5, 7), 1), ((3, 4, 5), 1), ((6000,), 0),
              ((2, 5000), 1), ((0, 3), 1), ((4, 0), 1)]


@pytest.fixture(params=["auto", "nb", "tree"])
def scan_strategy(request):
    old = _core._debug_reduce_strategy(request.param)
    yield request.param
    _core._debug_reduce_strategy(old)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@for_all_dtypes()
def test_scans_every_dtype(scan_strategy, name, dtype):
    for shape, axis in SCAN_CASES:
        h = sample(shape, dtype, small=name == "cumprod")
        if name == "cumprod" and h.size > 100:
            h = (h != 0).astype(dtype)    # products of 0/1: exact in every dtype
        expected = getattr(numpy, name)(h, axis=axis)
        assert_xp_close(getattr(garray, name)(garray.asarray(h), axis=axis), expected,
                        err_msg=f"{name} {shape} axis={axis}")


@xp_compare()
def test_scan_variants(xp):
    h = sample((4, 6), "int16")
    x = xp.asarray(h)
    return [xp.cumsum(x), xp.cumsum(x.T, axis=0), xp.cumsum(x[::-1, ::2], axis=1),
            xp.cumsum(x, axis=-1, dtype=xp.int16), xp.cumprod(x[:, :3] % 3, axis=0),
            xp.cumulative_sum(x, axis=1, include_initial=True),
            xp.cumulative_prod(x[0], include_initial=True),
            xp.cumulative_sum(xp.asarray(h.astype(numpy.float32)), axis=0)]


@xp_compare()
def test_cumulative_sum_needs_axis_for_2d(xp):
    return xp.cumulative_sum(xp.ones((2, 2)))


@xp_compare()
def test_cumsum_of_0d(xp):
    return xp.cumsum(xp.asarray(3.0))


def test_scan_into_out_and_in_place():
    h = sample((3, 300), "float64")
    g = garray.asarray(h)
    out = garray.empty((3, 300))
    assert garray.cumsum(g, axis=1, out=out) is out
    assert_xp_close(out, numpy.cumsum(h, axis=1))
    for s in ("nb", "tree"):
        old = _core._debug_reduce_strategy(s)
        try:
            g2 = garray.asarray(h, copy=True)
            garray.cumsum(g2, axis=1, out=g2)           # aliasing out=: NumPy's result
            assert_xp_close(g2, numpy.cumsum(h, axis=1))
        finally:
            _core._debug_reduce_strategy(old)


def test_threads_reduce_concurrently():
    hs = [sample((50, 64), d) for d in ("float32", "int64", "complex128", "uint8")] * 2
    errors = []

    def work(h):
        try:
            g = garray.asarray(h)
            for _ in range(20):
                assert_xp_close(garray.sum(g, axis=0), h.sum(axis=0))
                assert_xp_close(garray.argmax(g, axis=1), h.argmax(axis=1))
                assert_xp_close(garray.cumsum(g, axis=1), numpy.cumsum(h, axis=1))
        except Exception as e:   # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(h,)) for h in hs]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors[0]


def test_every_dtype_is_listed():
    # every garray dtype, the two float8 formats sampled by bfloat16 (they share its paths;
    # tests/elementwise/test_narrow_floats.py runs them through every family)
    names = {r.name for r in garray._dtypes.RECORDS}
    assert set(ALL_DTYPES) == names - {"float8_e4m3fn", "float8_e5m2"}


@xp_compare()
def test_0d_reduced_over_axis_0_as_numpy(xp):
    x = xp.asarray(3.5)
    return [xp.sum(x, axis=0), xp.max(x, axis=-1), xp.argmax(x, axis=0), xp.cumsum(x, axis=0),
            xp.prod(x, axis=())]


@pytest.mark.parametrize("axis", [1, (0,), ()])
@xp_compare()
def test_cumsum_bad_axis(xp, axis):
    return xp.cumsum(xp.ones(3), axis=axis)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64", "uint64", "float16",
                                   "float32", "float64"])
@pytest.mark.parametrize("n", [1, 7, 31, 32, 33, 127, 128, 129, 255, 257, 1000, 4099])
def test_minmax_whole_ranges(dtype, n):
    """max/min of contiguous ranges (red::range_minmax: one extreme over four vector
    registers of lanes on the CPU device, 8-lane chunks elsewhere) at lengths around the
    lane and chunk sizes, the extreme at each end and in the tail, NaNs (the first one is
    the result) and infinities: NumPy's values."""
    rng = numpy.random.default_rng(n)
    kind = numpy.dtype(dtype).kind
    if kind == "f":
        base = rng.standard_normal(n).astype(dtype)
    else:
        info = numpy.iinfo(dtype)
        base = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    cases = [base]
    for pos in {0, n - 1, n // 2, max(n - 3, 0)}:
        for v in ((numpy.inf, -numpy.inf) if kind == "f" else
                  (numpy.iinfo(dtype).max, numpy.iinfo(dtype).min)):
            c = base.copy()
            c[pos] = v
            cases.append(c)
        if kind == "f":
            c = base.copy()
            c[pos] = numpy.nan
            c[-1] = -numpy.nan
            cases.append(c)
    for h in cases:
        g = garray.asarray(h)
        for name in ("max", "min"):
            assert_xp_close(getattr(g, name)(), getattr(h, name)(), rtol=0, atol=0)
            if n > 1:                   # a range that starts off the alignment
                assert_xp_close(getattr(garray, name)(g[1:]), getattr(numpy, name)(h[1:]),
                                rtol=0, atol=0)


@pytest.mark.parametrize("n", [2**16, 2**16 + 1, 3 * 2**15, 2**20 + 7])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float64"])
def test_any_all_stop_early_same_answer(n, dtype):
    """any/all of a large whole CPU array look at the first 2**15 elements first and stop
    when they decide (cython/_reduce.pxi _short_circuit): the one deciding element
    before, at and after that boundary, or none, with and without keepdims, 2-d too."""
    for pos in (None, 0, 2**15 - 1, 2**15, n - 1):
        z, o = numpy.zeros(n, dtype), numpy.ones(n, dtype)
        if pos is not None:
            z[pos], o[pos] = 1, 0
        for h in (z, o, z.reshape(-1, 1) if n % 2 else z.reshape(2, -1)):
            g = garray.asarray(h)
            for kd in (False, True):
                for fn in ("any", "all"):
                    got = garray.asnumpy(getattr(garray, fn)(g, keepdims=kd))
                    want = getattr(numpy, fn)(h, keepdims=kd)
                    assert got.dtype == want.dtype and got.shape == want.shape
                    assert (got == want).all(), (pos, fn, kd)
                    assert bool(getattr(g, fn)()) == bool(getattr(h, fn)())   # the method
