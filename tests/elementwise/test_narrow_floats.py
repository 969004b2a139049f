"""bfloat16, float8_e4m3fn and float8_e5m2 (ml_dtypes' formats) against NumPy with
ml_dtypes: casts bit for bit from and to every dtype, the formats' NaN and overflow rules,
promotion, weak and strong scalars, every elementwise op, reductions, sorting, GEMM,
FFT, creation and transfers of ml_dtypes arrays.

garray computes these dtypes as it computes float16: float32's kernels on the widened
values, each result rounded once (Note [Narrow floats] in _kernels/garray/types.h), which
is what ml_dtypes' own ufunc loops do.  Where garray's answer differs on purpose the test
says so: sums accumulate in float32 (ml_dtypes' loops round after every addition), sinc
rounds once (NumPy's sinc is Python code running in the narrow dtype step by step),
floor_divide of an infinity follows garray's float32 rule, sign(-0.0) is 0.0 as float32's
(ml_dtypes gives -0.0), float_power computes in float64 (ml_dtypes: float32) and rounds
once to the narrow dtype, and a Python float operand is rounded to the narrow
dtype once (ml_dtypes' ufunc loops take it through float32 while its astype and item
assignment round once: 1 + 2**-8 + 2**-30 gives bfloat16 1.0 in ``x - v`` but 1.0078125 in
``x[0] = v``).
"""

import warnings

import ml_dtypes
import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close

NARROW = ("bfloat16", "float8_e4m3fn", "float8_e5m2")
BITS = {"bfloat16": numpy.uint16, "float8_e4m3fn": numpy.uint8, "float8_e5m2": numpy.uint8}
# one unit in the last place of each format, relative
ULP = {"bfloat16": 2.0 ** -7, "float8_e4m3fn": 2.0 ** -3, "float8_e5m2": 2.0 ** -2}

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning",
                                        "ignore::numpy.exceptions.ComplexWarning")


def _dt(name):
    return numpy.dtype(getattr(ml_dtypes, name) if name in NARROW else name)


def _host(x):
    return x.get() if isinstance(x, garray.ndarray) else numpy.asarray(x)


def _assert_bits(got, expected):
    """Bit for bit, every NaN the same as any NaN (NaN payloads are not compared)."""
    g = _host(got)
    assert g.dtype == expected.dtype, (g.dtype, expected.dtype)
    assert g.shape == expected.shape, (g.shape, expected.shape)
    if expected.dtype.name in NARROW or expected.dtype.kind in "fc":
        gf = g.astype(numpy.complex128 if g.dtype.kind == "c" else numpy.float64)
        ef = expected.astype(gf.dtype)
        gn, en = numpy.isnan(gf), numpy.isnan(ef)
        assert (gn == en).all(), (g[gn != en], expected[gn != en])
        if expected.dtype.name in NARROW:
            ok = g[~gn].view(BITS[g.dtype.name]) == expected[~en].view(BITS[g.dtype.name])
        else:
            ok = (gf[~gn] == ef[~en]) & (numpy.signbit(gf[~gn].real) == numpy.signbit(
                ef[~en].real))
        assert ok.all(), (g[~gn][~ok][:8], expected[~en][~ok][:8])
    else:
        numpy.testing.assert_array_equal(g, expected, strict=True)


def _hostile(name):
    """Every bit pattern of a float8 format; for bfloat16 every 37th pattern and the
    special ones (zeros, the extremes, infinities, NaNs, subnormals)."""
    if name != "bfloat16":
        return numpy.arange(256, dtype=numpy.uint8).view(_dt(name))
    bits = numpy.concatenate([numpy.arange(0, 65536, 37), [0, 0x8000, 0x7F7F, 0xFF7F, 0x7F80,
                                                           0xFF80, 0x7FC0, 0xFFC1, 1, 0x807F]])
    return bits.astype(numpy.uint16).view(_dt(name))


def _sources(dtype):
    """Values of ``dtype`` that stress a narrow format's rounding and range, in range of
    every target (no float -> int overflow, whose result C leaves undefined)."""
    dtype = numpy.dtype(dtype)
    f64 = numpy.array([0.0, -0.0, 1.0, -1.5, 448.0, 464.0, 465.0, 480.0, 57344.0, 61439.0,
                       61440.0, 1e10, -1e30, 3.4e38, 3.39e38, 1e300, 2.0 ** -9, 2.0 ** -10,
                       2.0 ** -10 * 1.01, 2.0 ** -16, 2.0 ** -17, 2.0 ** -17 * 1.0001,
                       1e-40, 9.2e-41, 1 + 2.0 ** -8, 1 + 2.0 ** -8 + 2.0 ** -30,
                       1 + 3 * 2.0 ** -8, 0.1, -2.675, 1 / 3, numpy.inf, -numpy.inf,
                       numpy.nan, -numpy.nan])
    if dtype.kind == "b":
        return numpy.array([True, False, True])
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        vals = [0, 1, 3, 7, 17, 127, 255, 257, 449, 465, 4097, 65519, 70001, info.max,
                info.min, (1 << 40) + (1 << 32) + 1, (1 << 62) + (1 << 54) + 1, -5, -449]
        return numpy.array([v for v in vals if info.min <= v <= info.max], dtype)
    if dtype.kind == "c":
        return (f64 + 1j * f64[::-1]).astype(dtype)
    with numpy.errstate(all="ignore"):
        return f64.astype(dtype)


# ---- dtypes -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", NARROW)
def test_dtype_objects_are_ml_dtypes(name):
    dt = getattr(garray, name)
    assert dt is getattr(ml_dtypes, name)
    assert garray.zeros(2, dtype=name).dtype == numpy.dtype(dt)
    assert garray.zeros(2, dtype=dt).dtype == numpy.dtype(dt)
    assert garray.zeros(2, dtype=numpy.dtype(dt)).dtype == numpy.dtype(dt)
    fi, ref = garray.finfo(dt), ml_dtypes.finfo(dt)
    assert (fi.bits, fi.eps, fi.max, fi.min, fi.smallest_normal) == (
        ref.bits, float(ref.eps), float(ref.max), float(ref.min), float(ref.smallest_normal))
    assert garray.isdtype(dt, "real floating") and not garray.isdtype(dt, "integral")
    assert garray._dtypes.is_ml_format(numpy.dtype(dt)) and garray._dtypes.is_narrow(
        numpy.dtype(dt))
    assert not garray._dtypes.is_ml_format(numpy.dtype("float16"))


def test_structured_and_void_dtypes_stay_refused():
    for spec in ("V2", "V1", [("x", "f4")]):
        with pytest.raises(TypeError, match="does not support"):
            garray.zeros(2, dtype=spec)


@pytest.mark.parametrize("a", NARROW + ALL_DTYPES)
@pytest.mark.parametrize("b", NARROW)
def test_promotion_as_numpy_with_ml_dtypes(a, b):
    expected = numpy.promote_types(_dt(a), _dt(b))
    assert garray.promote_types(_dt(a), _dt(b)) == expected
    x = garray.ones(2, dtype=_dt(a))
    y = garray.ones(2, dtype=_dt(b))
    if expected.kind == "b":
        return
    assert (x + y).dtype == (numpy.ones(2, _dt(a)) + numpy.ones(2, _dt(b))).dtype


# ---- casts ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("src", ALL_DTYPES + NARROW)
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_cast_into_narrow_from_every_dtype(name, src, layout):
    """One rounding from every source, as ml_dtypes: float64 directly (1 + 2**-8 + 2**-30
    rounds up in bfloat16; through float32 it would tie to 1.0), each format's overflow
    (float8_e4m3fn: NaN past 464, no inf; float8_e5m2: inf past 61440)."""
    h = _sources(src)
    if layout == "strided":
        h = numpy.repeat(h, 2)
    x = garray.asarray(h)
    if layout == "strided":
        x, h = x[::2], h[::2]
    _assert_bits(x.astype(_dt(name)), h.astype(_dt(name)))


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("dst", ALL_DTYPES + NARROW)
def test_cast_from_narrow_into_every_dtype(name, dst):
    h = _hostile(name)
    dst_dt = _dt(dst)
    if dst_dt.kind in "iu":     # values in the target's range only (C leaves the rest open)
        f = h.astype(numpy.float64)
        info = numpy.iinfo(dst_dt)
        h = h[numpy.isfinite(f) & (f > info.min - 1) & (f < info.max + 1)]
    _assert_bits(garray.asarray(h).astype(dst_dt), h.astype(dst_dt))


@pytest.mark.parametrize("name", NARROW)
def test_transfers_keep_every_bit_pattern(name):
    h = _hostile(name)
    g = garray.asarray(h)
    assert g.dtype == h.dtype
    assert (g.get().view(BITS[name]) == h.view(BITS[name])).all()
    # a strided NumPy view, and a garray view back
    v = garray.asarray(h[::3])
    assert (v.get().view(BITS[name]) == h[::3].view(BITS[name])).all()
    assert (numpy.asarray(g[1::2]).view(BITS[name]) == h[1::2].view(BITS[name])).all()
    assert garray.asnumpy(g).dtype == h.dtype


# ---- scalars ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", NARROW)
def test_python_scalars_are_weak_and_rounded_first(name):
    h = numpy.array([1.0, 2.5, -3.0, 0.0], _dt(name))
    x = garray.asarray(h, copy=True)
    for s in (1, 2.5, 0.1, 1 / 3, 1e6, True, -7):
        for got, exp in ((x + s, h + s), (s * x, s * h), (x - s, h - s), (x / s, h / s)):
            _assert_bits(got, exp)
    _assert_bits(x + 1j, h + 1j)          # complex64, as NumPy
    _assert_bits(x * numpy.float32(0.1), h * numpy.float32(0.1))   # strong: float32
    _assert_bits(x + getattr(ml_dtypes, name)(1.5), h + getattr(ml_dtypes, name)(1.5))
    x[1] = 0.1
    h[1] = 0.1
    _assert_bits(x, h)
    assert float(x[1]) == float(h[1])


# ---- elementwise ------------------------------------------------------------------------

def _operands(name, n=96, seed=0):
    rng = numpy.random.default_rng(seed)
    top = 200.0 if name == "float8_e4m3fn" else 1000.0
    vals = numpy.concatenate([rng.standard_normal(n - 12) * 4,
                              [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, top, -top, 1e-3, 3.0,
                               numpy.nan, numpy.inf]])
    return vals.astype(numpy.float32).astype(_dt(name))


_ROUNDS_ONCE = ("sinc",)        # NumPy's sinc rounds at every step of its Python code


def _op_cases():
    from garray._tables.ops import OPS
    return sorted(OPS)


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("op", _op_cases())
def test_every_op_as_ml_dtypes(name, op):
    """Every elementwise op against NumPy's loop for the dtype (ml_dtypes': float32
    inside, rounded once): bit for bit, or within one unit in the last place where
    garray's float32 function may differ from the C library's by a float32 ulp."""
    from garray._tables.ops import OPS
    o = OPS[op]
    x, y = _operands(name), _operands(name, seed=1)[::-1].copy()
    if o.in2 is not None:
        y = numpy.arange(x.size, dtype=numpy.int64) % 7 - 3
    args = (x,) if o.nin == 1 else (x, y)
    if op == "floor_divide":            # garray: inf // finite is the IEEE quotient's floor
        args = tuple(numpy.where(numpy.isinf(a.astype(numpy.float32)), 1.0, a).astype(a.dtype)
                     if a.dtype == x.dtype else a for a in args)
    fn_np, fn_g = getattr(numpy, o.numpy_name), getattr(garray, op)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = fn_np(*args)
    except TypeError:
        with pytest.raises(TypeError):
            fn_g(*(garray.asarray(a) for a in args))
        return
    got = fn_g(*(garray.asarray(a) for a in args))
    if op in _ROUNDS_ONCE:
        expected = fn_np(*(a.astype(numpy.float32) for a in args)).astype(x.dtype)
    exp_t = expected if isinstance(expected, tuple) else (expected,)
    got_t = got if isinstance(got, tuple) else (got,)
    for g, e in zip(got_t, exp_t):
        if o.functor in _EXACT or e.dtype.kind == "b" or e.dtype.kind in "iu":
            _assert_bits(g, e)
        else:
            gv, ev = _host(g), e
            assert gv.dtype == ev.dtype and gv.shape == ev.shape
            numpy.testing.assert_allclose(gv.astype(numpy.float64), ev.astype(numpy.float64),
                                          rtol=ULP[name] * 1.01, atol=1e-30, equal_nan=True)


# Ops whose float32 result is exact or correctly rounded, so one rounding to the narrow
# format gives ml_dtypes' bits.
_EXACT = ("add", "subtract", "multiply", "divide", "sqrt", "negative", "positive", "absolute",
          "floor", "ceil", "trunc", "rint", "maximum", "minimum", "fmax", "fmin",
          "copysign", "square", "reciprocal", "fabs", "remainder", "fmod", "floor_divide",
          "ldexp", "frexp", "modf", "divmod", "conjugate", "heaviside", "isnan", "isinf",
          "isfinite", "signbit", "equal", "not_equal", "less", "less_equal", "greater",
          "greater_equal", "logical_and", "logical_or", "logical_xor", "logical_not",
          "spacing", "nextafter")


@pytest.mark.parametrize("name", NARROW)
def test_spacing_and_nextafter_on_every_bit_pattern(name):
    """The format's own grid, as ml_dtypes: every float8 pattern (bfloat16's sample),
    stepped towards +-inf, zero, itself and NaN; spacing signed as x, inf (float8_e4m3fn:
    NaN) past the largest value."""
    h = _hostile(name)
    x = garray.asarray(h)
    _assert_bits(garray.spacing(x), numpy.spacing(h))
    for t in (numpy.inf, -numpy.inf, 0.0, -0.0, numpy.nan, 1.0):
        y = numpy.full(h.shape, t, numpy.float32).astype(h.dtype)
        _assert_bits(garray.nextafter(x, garray.asarray(y)), numpy.nextafter(h, y))
    _assert_bits(garray.nextafter(x, x), numpy.nextafter(h, h))
    _assert_bits(garray.nextafter(x, 1.0), numpy.nextafter(h, h.dtype.type(1.0)))


@pytest.mark.parametrize("name", NARROW)
def test_out_and_inplace(name):
    h = _operands(name)
    x = garray.asarray(h, copy=True)
    o = garray.empty(h.shape, dtype=h.dtype)
    garray.add(x, x, out=o)
    _assert_bits(o, h + h)
    x *= 3
    h = h * getattr(ml_dtypes, name)(3)
    _assert_bits(x, h)
    f32 = garray.empty(h.shape, dtype="float32")
    garray.multiply(x, x, out=f32)          # computed in the narrow dtype, then cast
    _assert_bits(f32, (h * h).astype(numpy.float32))


# ---- reductions, sorting, GEMM, FFT, creation ----------------------------------------------

@pytest.mark.parametrize("name", NARROW)
def test_reductions_accumulate_in_float32(name):
    """Sums and products in float32, rounded once (ml_dtypes' loops round after every
    addition, so the reference is the float32 reduction rounded); max, min and argmax
    are exact; mean is NumPy's (a float32 sum)."""
    h = numpy.abs(_operands(name))[:90].reshape(10, 9)
    x = garray.asarray(h)
    h32 = h.astype(numpy.float32)
    for axis in (None, 0, 1):
        _assert_bits(garray.sum(x, axis=axis), h32.sum(axis=axis).astype(h.dtype))
        _assert_bits(garray.max(x, axis=axis), h.max(axis=axis))
        _assert_bits(garray.min(x, axis=axis), h.min(axis=axis))
        _assert_bits(garray.argmax(x, axis=axis), numpy.argmax(h, axis=axis))
        _assert_bits(garray.mean(x, axis=axis), (h32.sum(axis=axis, dtype=numpy.float64) /
                                                 (h.size if axis is None else h.shape[axis])
                                                 ).astype(numpy.float32).astype(h.dtype))
        _assert_bits(garray.cumsum(x, axis=axis),
                     numpy.cumsum(h32, axis=axis).astype(h.dtype))
    _assert_bits(x.sum(dtype=garray.float32), h32.sum(dtype=numpy.float32))


@pytest.mark.parametrize("name", NARROW)
def test_sort_argsort_unique_searchsorted(name):
    h = _operands(name)
    h[h == 0] = 0       # no -0.0: NumPy's unstable sort may put it after 0.0
    x = garray.asarray(h)
    _assert_bits(garray.sort(x), numpy.sort(h))
    _assert_bits(garray.argsort(x, stable=True), numpy.argsort(h, stable=True))
    # NaNs collapse into one, as for every float dtype (NumPy's unique keeps each NaN of
    # an ml_dtypes array: it takes kind "V" as not inexact)
    _assert_bits(garray.unique(x), numpy.unique(h.astype(numpy.float32)).astype(h.dtype))
    s = numpy.sort(h)
    _assert_bits(garray.searchsorted(garray.asarray(s), x), numpy.searchsorted(s, h))
    _assert_bits(garray.sort(x.reshape(8, 12), axis=0), numpy.sort(h.reshape(8, 12), axis=0))


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("shape", [((5, 7), (7, 3)), ((2, 4, 6), (6, 5)), ((9,), (9,))])
def test_matmul_gives_float32_sums(name, shape):
    """ml_dtypes' matmul: the float32 sums of the widened values (not rounded back)."""
    rng = numpy.random.default_rng(2)
    a = (rng.standard_normal(shape[0]) * 2).astype(numpy.float32).astype(_dt(name))
    b = (rng.standard_normal(shape[1]) * 2).astype(numpy.float32).astype(_dt(name))
    got = garray.asarray(a) @ garray.asarray(b)
    expected = numpy.matmul(a, b)
    assert expected.dtype == numpy.float32
    assert_xp_close(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", NARROW)
def test_fft_computes_in_complex64(name):
    h = _operands(name)[:84].reshape(6, 14)
    assert_xp_close(garray.fft.fft(garray.asarray(h)), numpy.fft.fft(h), rtol=1e-4, atol=1e-4)
    assert_xp_close(garray.fft.rfft(garray.asarray(h)), numpy.fft.rfft(h), rtol=1e-4,
                    atol=1e-4)
    # NumPy scales these dtypes in their own dtype, which has no reciprocal loop: every
    # scaled transform raises its TypeError; the unscaled real outputs keep the dtype
    for fn, norm in (("ifft", None), ("fft", "ortho"), ("irfft", None), ("rfftn", "forward"),
                     ("ifft2", "ortho")):
        with pytest.raises(TypeError):
            getattr(numpy.fft, fn)(h, norm=norm)
        with pytest.raises(TypeError, match="reciprocal"):
            getattr(garray.fft, fn)(garray.asarray(h), norm=norm)
    for fn in ("irfft", "hfft"):
        norm = "forward" if fn == "irfft" else None
        assert_xp_close(getattr(garray.fft, fn)(garray.asarray(h), norm=norm),
                        getattr(numpy.fft, fn)(h, norm=norm), rtol=2 * ULP[name], atol=0.5)


@pytest.mark.parametrize("name", NARROW)
def test_creation_as_numpy(name):
    dt = _dt(name)
    _assert_bits(garray.arange(0.1, 3, 0.3, dtype=dt), numpy.arange(0.1, 3, 0.3, dtype=dt))
    _assert_bits(garray.arange(40, dtype=dt), numpy.arange(40, dtype=dt))
    _assert_bits(garray.linspace(-3, 5, 37, dtype=dt), numpy.linspace(-3, 5, 37, dtype=dt))
    _assert_bits(garray.full((3, 4), 0.1, dtype=dt), numpy.full((3, 4), 0.1, dtype=dt))
    _assert_bits(garray.eye(4, 5, k=1, dtype=dt), numpy.eye(4, 5, k=1, dtype=dt))
    _assert_bits(garray.tril(garray.ones((4, 4), dtype=dt)), numpy.tril(numpy.ones((4, 4), dt)))
    _assert_bits(garray.zeros(0, dtype=dt), numpy.zeros(0, dt))
    _assert_bits(garray.asarray([1.5, 0.1, 1e9], dtype=dt),
                 numpy.asarray([1.5, 0.1, 1e9], dtype=dt))


@pytest.mark.parametrize("name", NARROW)
def test_where_indexing_concatenate(name):
    h = _operands(name)
    x = garray.asarray(h)
    _assert_bits(garray.where(x > 1, x, 0.5), numpy.where(h > 1, h, h.dtype.type(0.5)))
    idx = numpy.array([3, 0, 95, 7, 7])
    _assert_bits(x[idx], h[idx])
    _assert_bits(x[x > 0], h[h > 0])
    _assert_bits(garray.concatenate([x, x[::-2]]), numpy.concatenate([h, h[::-2]]))
    y = garray.asarray(h.copy())
    y[idx] = x[:5]
    h2 = h.copy()
    h2[idx] = h[:5]
    _assert_bits(y, h2)
    _assert_bits(x.reshape(8, 12).T.copy(), h.reshape(8, 12).T.copy())


@pytest.mark.parametrize("name", NARROW)
def test_printing_matches_numpy(name):
    h = numpy.array([1.5, -0.1, numpy.nan, 3e4 if name != "float8_e4m3fn" else 448], _dt(name))
    x = garray.asarray(h)
    assert repr(x) == repr(h)
    assert str(x) == str(h)


@pytest.mark.parametrize("name", NARROW)
def test_dlpack_round_trip(name):
    h = _operands(name)
    x = garray.asarray(h)
    y = garray.from_dlpack(x)
    _assert_bits(y, h)


@pytest.mark.parametrize("name", NARROW)
def test_functions_that_branch_on_the_kind_take_narrow_as_float(name):
    """NumPy gives bfloat16 and float8_e4m3fn kind "V", and its own Python functions then
    miss their NaNs (numpy.nansum of a bfloat16 array with a NaN is NaN, numpy.median
    ignores it) and their negatives (numpy.emath.sqrt): garray takes them as floats,
    as float32 with the result rounded once."""
    h = numpy.array([3.5, -1.25, 0.0, 2.0, numpy.nan, 7.0, -0.5, 1.0], _dt(name))
    x, f = garray.asarray(h), garray.asarray(h.astype(numpy.float32))
    for fn in (garray.nansum, garray.nanmax, garray.nanmin, garray.median, garray.nanmedian):
        got, ref = fn(x), fn(f).astype(h.dtype)
        assert got.dtype == h.dtype, fn
        _assert_bits(got, ref.get())
    # nanmean rounds the sum to the dtype before dividing, as NumPy's _nanmean
    got = garray.nanmean(x)
    assert got.dtype == h.dtype
    assert float(got) == pytest.approx(11.75 / 7, rel=2 * ULP[name])
    assert bool(garray.array_equal(x, x, equal_nan=True))
    assert not bool(garray.array_equal(x, x))
    _assert_bits(garray.nan_to_num(x), numpy.nan_to_num(h.astype(numpy.float32)).astype(h.dtype))
    r = garray.emath.sqrt(x[:4])
    assert r.dtype.kind == "c" and float(r[1].imag) == pytest.approx(1.25 ** 0.5, rel=1e-2)
    c = garray.convolve(x[:4], x[5:8])
    _assert_bits(c, garray.convolve(f[:4], f[5:8]).astype(h.dtype).get())
