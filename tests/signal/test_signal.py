"""garray.convolve / garray.correlate against NumPy, garray.signal against scipy.signal
(the direct correlation kernel, _kernels/signal.hip; docs/signal.md)."""

import numpy
import pytest
import scipy.signal

import garray
from garray.signal import _direct as _signal
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, same_or_raises_alike
from xp import kind as xp_kind

MODES = ("full", "same", "valid")


def data(shape, dtype, seed=0):
    """Deterministic values of ``dtype``: mixed signs, small (float sums exact)."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if xp_kind(dt) == "b":
        return rng.random(shape) < 0.5
    if xp_kind(dt) == "u":
        return rng.integers(0, 6, shape).astype(dt)
    if xp_kind(dt) == "i":
        return rng.integers(-5, 6, shape).astype(dt)
    re = rng.integers(-8, 9, shape) / 2
    if xp_kind(dt) == "c":
        return (re + 1j * (rng.integers(-8, 9, shape) / 2)).astype(dt)
    return re.astype(dt)


def g(x):
    return garray.asarray(x)


def both(fn_np, fn_g, **kw):
    same_or_raises_alike(fn_np, fn_g, **kw)


class _Copying:
    """A garray module whose functions get NumPy array arguments as garray arrays, so one
    call written for SciPy runs on both (garray refuses NumPy arrays)."""

    def __init__(self, mod):
        self._mod = mod

    def __getattr__(self, name):
        f = getattr(self._mod, name)

        def dev(v):
            return garray.asarray(v) if isinstance(v, numpy.ndarray) else v

        return lambda *a, **k: f(*map(dev, a), **{n: dev(v) for n, v in k.items()})


# ---- numpy.convolve / numpy.correlate --------------------------------------------------

PAIRS_1D = ((5, 3), (3, 5), (4, 4), (1, 1), (1, 6), (6, 1), (7, 2), (2, 7), (8, 5))


@for_all_dtypes()
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_numpy_1d_every_dtype_mode_length(fn, dtype):
    for i, (m, n) in enumerate(PAIRS_1D):
        a, v = data(m, dtype, i), data(n, dtype, 100 + i)
        for mode in MODES:
            expected = getattr(numpy, fn)(a, v, mode)
            got = getattr(garray, fn)(g(a), g(v), mode)
            assert_xp_close(got, expected, err_msg=f"{fn} {m} {n} {mode}")


@pytest.mark.parametrize("d1,d2", [("int8", "uint8"), ("uint64", "int64"),
                                   ("float32", "complex64"), ("bool", "int8"),
                                   ("float32", "float64"), ("int32", "float32"),
                                   ("uint16", "complex128"), ("bool", "float32")])
def test_numpy_mixed_dtypes(d1, d2):
    a, v = data(6, d1, 1), data(4, d2, 2)
    for fn in ("convolve", "correlate"):
        for mode in MODES:
            assert_xp_close(getattr(garray, fn)(g(a), g(v), mode),
                            getattr(numpy, fn)(a, v, mode))


def test_numpy_integers_wrap():
    a = numpy.array([100, 100, -128, 127], numpy.int8)
    v = numpy.array([100, 3, -1], numpy.int8)
    assert_xp_close(garray.convolve(g(a), g(v)), numpy.convolve(a, v))
    u = numpy.array([2**63, 2**64 - 1, 12345678901234567], numpy.uint64)
    w = numpy.array([3, 2**62 + 1], numpy.uint64)
    assert_xp_close(garray.convolve(g(u), g(w)), numpy.convolve(u, w))
    assert_xp_close(garray.correlate(g(u), g(w), "full"), numpy.correlate(u, w, "full"))
    b = numpy.array([2**31 - 1, -2**31, 7], numpy.int32)
    assert_xp_close(garray.convolve(g(b), g(b)), numpy.convolve(b, b))


def test_numpy_complex_conjugation_and_order():
    a = numpy.array([1, 2j, 3 - 1j])
    v = numpy.array([1j, 2, 3, 1 + 1j, -2j])
    for mode in MODES:
        for x, y in ((a, v), (v, a)):
            assert_xp_close(garray.correlate(g(x), g(y), mode), numpy.correlate(x, y, mode))
            assert_xp_close(garray.convolve(g(x), g(y), mode), numpy.convolve(x, y, mode))


def test_numpy_floats_random():
    rng = numpy.random.default_rng(5)
    for dt in ("float32", "float64", "complex64"):
        a = rng.standard_normal(1000).astype(dt)
        v = rng.standard_normal(37).astype(dt)
        tol = 1e-4 if dt != "float64" else None
        for mode in MODES:
            assert_xp_close(garray.convolve(g(a), g(v), mode), numpy.convolve(a, v, mode),
                            rtol=tol, atol=tol)
            assert_xp_close(garray.correlate(g(v), g(a), mode), numpy.correlate(v, a, mode),
                            rtol=tol, atol=tol)


def test_numpy_lists_scalars_and_modes():
    assert_xp_close(garray.convolve(3, 4), numpy.convolve(3, 4))
    assert_xp_close(garray.convolve([1, 2, 3], [0, 1, 0.5]), numpy.convolve([1, 2, 3], [0, 1, 0.5]))
    assert_xp_close(garray.convolve(garray.asarray(numpy.array([1, 2], numpy.float32)), 2.0),
                    numpy.convolve(numpy.array([1, 2], numpy.float32), 2.0))
    for mode in (0, 1, 2, numpy.int64(1)):
        assert_xp_close(garray.convolve([1, 2, 3], [1, 1], mode),
                        numpy.convolve([1, 2, 3], [1, 1], mode))
        assert_xp_close(garray.correlate([1, 2, 3], [1, 1], mode),
                        numpy.correlate([1, 2, 3], [1, 1], mode))


@pytest.mark.parametrize("args", [
    ([], [1]), ([1], []), ([[1, 2]], [1]), ([1, 2], [[1]]), (3, 4), ([1, 2], 4),
    ([1, 2, 3], [1, 1], "bad"), ([1, 2, 3], [1, 1], 5), ([1, 2, 3], [1, 1], -1),
    ([1, 2, 3], [1, 1], True), ([1, 2, 3], [1, 1], None), ([1, 2, 3], [1, 1], 1.0),
])
def test_numpy_errors(args):
    for fn in ("convolve", "correlate"):
        both(lambda: getattr(numpy, fn)(*args), lambda: getattr(garray, fn)(*args))


def test_numpy_views_non_contiguous_negative_strides():
    a = data(40, "float64", 3)
    v = data(9, "complex128", 4)
    ga, gv = g(a), g(v)
    for sa, sv in ((slice(None, None, 2), slice(None, None, -1)),
                   (slice(None, None, -3), slice(1, None, 2)),
                   (slice(30, 2, -1), slice(None))):
        for mode in MODES:
            assert_xp_close(garray.convolve(ga[sa], gv[sv], mode),
                            numpy.convolve(a[sa], v[sv], mode))
            assert_xp_close(garray.correlate(ga[sa], gv[sv], mode),
                            numpy.correlate(a[sa], v[sv], mode))


@pytest.mark.parametrize("per", [1, 3, 7, 1000])
def test_numpy_thread_split_does_not_change_values(per):
    a, v = data(300, "int64", 8), data(21, "int64", 9)
    old = _signal._debug_per(per)
    try:
        for mode in MODES:
            assert_xp_close(garray.convolve(g(a), g(v), mode), numpy.convolve(a, v, mode))
            assert_xp_close(garray.correlate(g(v), g(a), mode), numpy.correlate(v, a, mode))
    finally:
        _signal._debug_per(old)


def test_long_signal_many_taps():
    a, v = data(3000, "float64", 10), data(300, "float64", 11)
    assert_xp_close(garray.convolve(g(a), g(v)), numpy.convolve(a, v))
    assert_xp_close(garray.convolve(g(v), g(a), "same"), numpy.convolve(v, a, "same"))


# ---- scipy.signal.convolve / correlate (N-d) ---------------------------------------------

SHAPES_ND = [((7,), (4,)), ((4,), (7,)), ((1,), (1,)), ((5, 6), (3, 2)), ((3, 2), (5, 6)),
             ((4, 4), (4, 4)), ((1, 1), (1, 1)), ((2, 5), (4, 3)), ((6, 1), (2, 1)),
             ((4, 3, 5), (2, 3, 2)), ((2, 2, 3), (3, 4, 3))]


@for_all_dtypes()
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_scipy_nd_every_dtype(fn, dtype):
    for i, (s1, s2) in enumerate(SHAPES_ND):
        a, b = data(s1, dtype, i), data(s2, dtype, 50 + i)
        for mode in MODES:
            if dtype == numpy.float16:
                # SciPy's direct N-d kernel has no float16 ("Unsupported type"); garray
                # computes in float32 and rounds once, as NumPy's float16 correlate
                a32, b32 = a.astype(numpy.float32), b.astype(numpy.float32)
                both(lambda: getattr(scipy.signal, fn)(a32, b32, mode,
                                                       method="direct").astype(dtype),
                     lambda: getattr(garray.signal, fn)(g(a), g(b), mode))
                continue
            both(lambda: getattr(scipy.signal, fn)(a, b, mode, method="direct"),
                 lambda: getattr(garray.signal, fn)(g(a), g(b), mode))
            both(lambda: getattr(scipy.signal, fn)(a, b, mode, method="direct"),
                 lambda: getattr(garray.signal, fn)(g(a), g(b), mode, method="direct"))


def test_scipy_nd_views_and_0d():
    a = data((9, 8), "complex64", 1)
    b = data((4, 3), "float32", 2)
    ga, gb = g(a), g(b)
    rev = slice(None, None, -1)
    for sa, sb in (((slice(None, None, 2), rev), (slice(None), slice(None))),
                   ((rev, slice(1, None, 3)), (slice(None, None, -2), rev))):
        for fn in ("convolve", "correlate"):
            for mode in MODES:
                both(lambda: getattr(scipy.signal, fn)(a[sa], b[sb], mode, method="direct"),
                     lambda: getattr(garray.signal, fn)(ga[sa], gb[sb], mode))
    # a transposed view
    both(lambda: scipy.signal.correlate(a.T, b.T, method="direct"),
         lambda: garray.signal.correlate(ga.T, gb.T))
    both(lambda: scipy.signal.convolve(3, 4), lambda: garray.signal.convolve(3, 4))
    both(lambda: scipy.signal.correlate(3 + 1j, 4j), lambda: garray.signal.correlate(3 + 1j, 4j))


@pytest.mark.parametrize("call", [
    lambda m: m.convolve([1, 2], [[1]]),
    lambda m: m.correlate([1, 2], [[1]]),
    lambda m: m.convolve(3, [4]),
    lambda m: m.convolve([1, 2], [1], mode="x"),
    lambda m: m.correlate([1, 2], [1], mode="x"),
    lambda m: m.convolve([1, 2], [1], mode=1),
    lambda m: m.correlate([1, 2], [1], mode=2),
    lambda m: m.convolve([1, 2], [1], method="x"),
    lambda m: m.correlate([1, 2], [1], method="x"),
    lambda m: m.convolve(numpy.ones((2, 3)), numpy.ones((3, 2)), "valid"),
    lambda m: m.correlate(numpy.ones((2, 3)), numpy.ones((3, 2)), "valid"),
    lambda m: m.convolve(numpy.ones((2, 2), bool), numpy.ones((2, 2), bool)),
    lambda m: m.correlate(numpy.ones(2, bool), numpy.ones(3, bool), "same"),
    lambda m: m.convolve([], [1.0]),
    lambda m: m.correlate([1.0], []),
    lambda m: m.convolve(numpy.ones((0, 2)), numpy.ones((2, 2))),
])
def test_scipy_nd_errors(call):
    both(lambda: call(scipy.signal), lambda: call(_Copying(garray.signal)))


def test_scipy_bool_1d_goes_through_numpy():
    a, b = data(7, "bool", 1), data(3, "bool", 2)
    for fn in ("convolve", "correlate"):
        for mode in MODES:
            both(lambda: getattr(scipy.signal, fn)(a, b, mode),
                 lambda: getattr(garray.signal, fn)(g(a), g(b), mode))


FFT_SHAPES = [((9,), (4,)), ((4,), (9,)), ((1,), (1,)), ((6, 7), (3, 2)), ((5, 3), (2, 6)),
              ((3, 4, 5), (2, 3, 2)), ((17,), (17,))]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int16"])
@pytest.mark.parametrize("s1,s2", FFT_SHAPES)
@pytest.mark.parametrize("mode", MODES)
def test_fftconvolve_as_scipy(s1, s2, mode, dtype):
    a, b = data(s1, dtype, 1), data(s2, dtype, 2)
    tol = 1e-4 if numpy.dtype(dtype) in (numpy.float32, numpy.complex64) else 1e-10
    for fn in ("fftconvolve", "oaconvolve"):
        both(lambda: getattr(scipy.signal, fn)(a, b, mode),
             lambda: getattr(garray.signal, fn)(g(a), g(b), mode), rtol=tol, atol=tol)


@pytest.mark.parametrize("axes", [0, 1, -1, (0,), [1, 0], None])
@pytest.mark.parametrize("mode", MODES)
def test_fftconvolve_axes_and_broadcasting(axes, mode):
    a = data((6, 5), "float64", 3)
    for bshape in ((3, 5), (1, 4), (6, 1), (2, 2)):
        b = data(bshape, "float64", 4)
        both(lambda: scipy.signal.fftconvolve(a, b, mode, axes=axes),
             lambda: garray.signal.fftconvolve(g(a), g(b), mode, axes=axes),
             rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("dtype", ["float64", "complex128", "int32", "uint8"])
@pytest.mark.parametrize("mode", MODES)
def test_convolve_correlate_method_fft_as_scipy(mode, dtype):
    # SciPy casts the FFT result back to result_type, integers rounded
    for s1, s2 in (((8,), (3,)), ((3,), (8,)), ((5, 6), (2, 3))):
        a, b = data(s1, dtype, 5), data(s2, dtype, 6)
        for fn in ("convolve", "correlate"):
            both(lambda: getattr(scipy.signal, fn)(a, b, mode, method="fft"),
                 lambda: getattr(garray.signal, fn)(g(a), g(b), mode, method="fft"),
                 rtol=1e-10, atol=1e-10)


def test_fft_methods_errors_and_edges():
    x, e = numpy.ones((3, 4)), numpy.ones((0, 2))
    for args, kw in [((x, numpy.ones(3)), {}), ((x, x), {"mode": "x"}),
                     ((x, x), {"axes": []}), ((x, x), {"axes": (0, 0)}),
                     ((x, x), {"axes": 2}), ((x, numpy.ones((2, 3))), {"axes": 0}),
                     ((x, numpy.ones((5, 2))), {"mode": "valid"}),
                     ((x, e), {}), ((numpy.float64(2), numpy.float64(3)), {}),
                     ((x, x), {"axes": 0.0})]:
        both(lambda: scipy.signal.fftconvolve(*args, **kw),
             lambda: garray.signal.fftconvolve(*(g(v) for v in args), **kw))
    xg = g(numpy.ones(4))
    with pytest.raises(NotImplementedError, match="measure"):
        garray.signal.choose_conv_method(xg, xg, measure=True)
    assert garray.signal.choose_conv_method(xg, xg) == "direct"
    with pytest.raises(ValueError):
        garray.signal.choose_conv_method(xg, xg, mode="x")


# ---- scipy.signal.convolve2d / correlate2d ----------------------------------------------

SHAPES_2D = [((5, 6), (3, 2)), ((3, 2), (5, 6)), ((4, 5), (4, 5)), ((2, 3), (5, 7)),
             ((1, 1), (1, 1)), ((1, 7), (1, 4)), ((6, 2), (3, 3))]
BOUNDARIES = ("fill", "wrap", "symm")


@for_all_dtypes()
@pytest.mark.parametrize("fn", ["convolve2d", "correlate2d"])
def test_scipy_2d_every_dtype_mode_boundary(fn, dtype):
    fills = (0, 2) if numpy.dtype(dtype).kind in "biu" else (0, 2.5)
    if numpy.dtype(dtype).kind == "c":
        fills = (0, 1.5 - 2j)
    for i, (s1, s2) in enumerate(SHAPES_2D):
        a, b = data(s1, dtype, i), data(s2, dtype, 70 + i)
        for mode in MODES:
            for boundary in BOUNDARIES:
                for fill in (fills if boundary == "fill" else (0,)):
                    both(lambda: getattr(scipy.signal, fn)(a, b, mode, boundary, fill),
                         lambda: getattr(garray.signal, fn)(g(a), g(b), mode, boundary, fill))


def test_scipy_2d_aliases_views_fill_casts():
    a = data((7, 6), "float64", 1)
    b = data((3, 4), "complex128", 2)
    ga, gb = g(a), g(b)
    for boundary in ("pad", "circular", "symmetric"):
        for fn in ("convolve2d", "correlate2d"):
            both(lambda: getattr(scipy.signal, fn)(a, b, "same", boundary),
                 lambda: getattr(garray.signal, fn)(ga, gb, "same", boundary))
    sa, sb = (slice(None, None, -2), slice(None, None, -1)), (slice(None, None, -1), slice(1, None))
    for boundary in BOUNDARIES:
        for mode in MODES:
            both(lambda: scipy.signal.correlate2d(a[sa], b[sb], mode, boundary, 1 + 1j),
                 lambda: garray.signal.correlate2d(ga[sa], gb[sb], mode, boundary, 1 + 1j))
            both(lambda: scipy.signal.convolve2d(a.T, b.T, mode, boundary),
                 lambda: garray.signal.convolve2d(ga.T, gb.T, mode, boundary))
    i = data((4, 4), "int16", 3)
    for fill in (2.7, -3, numpy.array([[5]]), numpy.float32(1.5)):
        both(lambda: scipy.signal.convolve2d(i, i, fillvalue=fill),
             lambda: garray.signal.convolve2d(g(i), g(i), fillvalue=fill))


def test_scipy_2d_large_filter_boundaries():
    a = data((2, 3), "float64", 4)
    b = data((9, 11), "float64", 5)
    for fn in ("convolve2d", "correlate2d"):
        for boundary in BOUNDARIES:
            for mode in ("same", "full"):
                both(lambda: getattr(scipy.signal, fn)(a, b, mode, boundary, 3.0),
                     lambda: getattr(garray.signal, fn)(g(a), g(b), mode, boundary, 3.0))


@pytest.mark.parametrize("call", [
    lambda m: m.convolve2d(numpy.ones(2), numpy.ones(2)),
    lambda m: m.correlate2d(numpy.ones((2, 2, 1)), numpy.ones((2, 2, 1))),
    lambda m: m.convolve2d(numpy.ones((2, 2)), numpy.ones((2, 2)), boundary="x"),
    lambda m: m.convolve2d(numpy.ones((2, 2)), numpy.ones((2, 2)), boundary="reflect"),
    lambda m: m.convolve2d(numpy.ones((2, 2)), numpy.ones((2, 2)), mode="x"),
    lambda m: m.convolve2d(numpy.ones((2, 2)), numpy.ones((2, 2)), mode=1),
    lambda m: m.correlate2d(numpy.ones((2, 3)), numpy.ones((3, 2)), mode="valid"),
    lambda m: m.convolve2d(numpy.ones((2, 2)), numpy.ones((2, 2)), fillvalue=1j),
    lambda m: m.convolve2d(numpy.ones((2, 2)), numpy.ones((2, 2)), fillvalue=[1, 2]),
    lambda m: m.convolve2d(numpy.ones((2, 2)), numpy.ones((2, 2)), fillvalue=numpy.array([])),
    lambda m: m.convolve2d(numpy.ones((2, 2), numpy.int8), numpy.ones((2, 2), numpy.int8),
                           fillvalue=300),
    lambda m: m.convolve2d(numpy.ones((2, 2), numpy.uint8), numpy.ones((2, 2), numpy.uint8),
                           fillvalue=-1),
    lambda m: m.convolve2d(numpy.ones((2, 2), int), numpy.ones((2, 2), int),
                           fillvalue=numpy.nan),
    lambda m: m.correlate2d(numpy.ones((2, 2), bool), numpy.ones((2, 2), bool)),
])
def test_scipy_2d_errors(call):
    both(lambda: call(scipy.signal), lambda: call(_Copying(garray.signal)))


def test_empty_2d_raises():
    # SciPy returns zeros of the full shape here; garray raises (docs/signal.md)
    with pytest.raises(ValueError, match="empty"):
        garray.signal.convolve2d(g(numpy.ones((0, 2))), g(numpy.ones((2, 2))))


def test_dtypes_list_is_complete():
    # every garray dtype, the two float8 formats sampled by bfloat16 (they share its paths;
    # tests/elementwise/test_narrow_floats.py runs them through every family)
    names = {r.name for r in garray._dtypes.RECORDS}
    assert set(ALL_DTYPES) == names - {"float8_e4m3fn", "float8_e5m2"}


# ---- hostile layouts, thread splits, ranks ----------------------------------------------


def test_large_strides_and_reversed_views():
    a = data(2000, "float32", 20)
    v = data(60, "float32", 21)
    ga, gv = g(a), g(v)
    for sa, sv in ((slice(None, None, 37), slice(None, None, -5)),
                   (slice(None, None, -101), slice(None, None, 7))):
        for mode in MODES:
            assert_xp_close(garray.convolve(ga[sa], gv[sv], mode),
                            numpy.convolve(a[sa], v[sv], mode))
    m = data((30, 40, 6), "int16", 22)
    k = data((3, 5, 2), "int16", 23)
    gm, gk = g(m), g(k)
    sm = (slice(None, None, -7), slice(3, None, 9), slice(None, None, -1))
    sk = (slice(None, None, -1), slice(None, None, 2), slice(None))
    for fn in ("convolve", "correlate"):
        for mode in MODES:
            both(lambda: getattr(scipy.signal, fn)(m[sm], k[sk], mode, method="direct"),
                 lambda: getattr(garray.signal, fn)(gm[sm], gk[sk], mode))


@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_thread_split_exact_with_boundaries(dtype):
    """The run length changes which thread computes an output, never its value (every
    path sums in tap order): results are bitwise equal for any ``per``."""
    rng = numpy.random.default_rng(30)
    a = rng.standard_normal((9, 70)).astype(dtype)
    b = rng.standard_normal((4, 13)).astype(dtype)
    if numpy.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(a.shape).astype(dtype)
    ga, gb = g(a), g(b)
    calls = [(mode, boundary) for mode in MODES for boundary in BOUNDARIES]
    base = [garray.signal.correlate2d(ga, gb, mo, bo, 0.5).get() for mo, bo in calls]
    base1 = garray.convolve(ga[0], gb[0]).get()
    for per in (1, 5, 33):
        old = _signal._debug_per(per)
        try:
            for (mo, bo), ref in zip(calls, base):
                got = garray.signal.correlate2d(ga, gb, mo, bo, 0.5).get()
                numpy.testing.assert_array_equal(got, ref)
            numpy.testing.assert_array_equal(garray.convolve(ga[0], gb[0]).get(), base1)
        finally:
            _signal._debug_per(old)
    for (mo, bo), ref in zip(calls, base):
        assert_xp_close(g(ref), scipy.signal.correlate2d(a, b, mo, bo, 0.5),
                        rtol=1e-4 if dtype == "complex64" else None,
                        atol=1e-4 if dtype == "complex64" else None)


def test_rank_4_and_rank_limit():
    a = data((3, 2, 4, 3), "float64", 40)
    b = data((2, 2, 3, 2), "float64", 41)
    for mode in MODES:
        both(lambda: scipy.signal.convolve(a, b, mode, method="direct"),
             lambda: garray.signal.convolve(g(a), g(b), mode))
    x = g(numpy.ones((1,) * 9))
    with pytest.raises(NotImplementedError, match="8 dimensions"):
        garray.signal.convolve(x, x)


def test_garray_0d_and_numpy_scalar_inputs():
    assert_xp_close(garray.convolve(g(numpy.float32(3)), g(numpy.float32(2))),
                    numpy.convolve(numpy.float32(3), numpy.float32(2)))
    assert_xp_close(garray.convolve(numpy.int8(3), [1, 2]),
                    numpy.convolve(numpy.int8(3), [1, 2]))
    both(lambda: numpy.correlate(numpy.int8(3), [1, 2]),
         lambda: garray.correlate(numpy.int8(3), [1, 2]))


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_numpy_empty_messages(fn):
    # NumPy checks a, then v, before any swap: the message names the empty operand
    for a, v in ((numpy.empty(0), numpy.ones(2)), (numpy.ones(2), numpy.empty(0))):
        with pytest.raises(ValueError) as e_np:
            getattr(numpy, fn)(a, v)
        with pytest.raises(ValueError, match=str(e_np.value)):
            getattr(garray, fn)(g(a), g(v))
