"""float16, NumPy's 14th dtype, against NumPy: casts, promotion, scalars, the float16
compute rule, reductions, sorting, GEMM and the families that refuse it.

The op-by-op and dtype-pair tests cover float16 through ``ALL_DTYPES``
(test_elementwise, test_elementwise_mixed, test_reductions ...); this file holds what is
float16's own: rounding (one rounding from every source, never through float32 from a
float64), the range edges, weak scalars rounded to float16 first, and the deliberate
difference of the scans (garray accumulates in float32 and rounds once; NumPy rounds at
every step).
"""

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, xp_compare

F16 = numpy.float16
MAX = 65504.0
# Values that stress float16's rounding and range: the largest finite value and the
# rounding boundary to inf (65520), the subnormals and below them, ties to even, NaN,
# infinities, signed zeros.
HOSTILE64 = numpy.array([
    0.0, -0.0, 1.0, -1.5, MAX, -MAX, 65519.99, 65520.0, -65520.0, 1e10, -1e300,
    6e-8, 2.9e-8, 3.0e-8, 5.96e-8, 1e-8, 6.1e-5, 6.103515625e-05,
    1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -11 + 2 ** -40, 2049.0, 4097.0,
    numpy.inf, -numpy.inf, numpy.nan, 0.1, -2.675, 1 / 3])


def _g(h):
    return garray.asarray(h, copy=True)


def _bits_equal(got, expected):
    """Exact float16 comparison (NaN equal to NaN, -0.0 apart from 0.0)."""
    g = got.get() if isinstance(got, garray.ndarray) else numpy.asarray(got)
    assert g.dtype == expected.dtype, (g.dtype, expected.dtype)
    assert g.shape == expected.shape
    gn, en = numpy.isnan(g), numpy.isnan(expected)
    assert (gn == en).all(), (g, expected)
    assert (g[~gn].view(numpy.uint16) == expected[~en].view(numpy.uint16)).all(), (g, expected)


# ---- casts ------------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning")
@for_all_dtypes()
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_cast_into_float16_from_every_dtype(dtype, layout):
    """One rounding from every source, as NumPy (float64 directly, not via float32:
    1 + 2**-11 + 2**-40 rounds up; through float32 it would tie to 1.0)."""
    with numpy.errstate(all="ignore"):
        if dtype.kind in "iu":
            info = numpy.iinfo(dtype)
            h = numpy.array([0, 1, 2049, 4097, 65519, 65520, 70000, -1, -70000, info.max,
                             info.min], dtype=object)
            h = numpy.array([int(v) % (1 << (8 * dtype.itemsize)) if dtype.kind == "u"
                             else max(min(int(v), info.max), info.min) for v in h], dtype)
        elif dtype.kind == "b":
            h = numpy.array([True, False, True])
        elif dtype.kind == "c":
            h = (HOSTILE64 - 1j * HOSTILE64[::-1]).astype(dtype)
        else:
            h = HOSTILE64.astype(dtype)
        expected = h.astype(F16)
    g = _g(h)
    if layout == "strided":
        h2, g2 = h[::-2], g[::-2]
        expected = h2.astype(F16)
        _bits_equal(g2.astype(F16), expected)
    else:
        _bits_equal(g.astype(F16), expected)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@for_all_dtypes()
def test_cast_from_float16_to_every_dtype(dtype):
    h = HOSTILE64.astype(F16)
    if dtype.kind in "iu":          # NumPy leaves out-of-range float -> int undefined
        h = h[numpy.isfinite(h) & (numpy.abs(h) < 100)]
        if dtype.kind == "u":
            h = numpy.abs(h)
    with numpy.errstate(all="ignore"):
        expected = h.astype(dtype)
    got = _g(h).astype(dtype)
    assert_xp_close(got, expected, rtol=0, atol=0)


def test_double_rounding_is_avoided():
    x = numpy.array([1 + 2 ** -11 + 2 ** -40, -(1 + 2 ** -11 + 2 ** -40)])
    assert x.astype(F16)[0] != x.astype(numpy.float32).astype(F16)[0]   # the hazard
    _bits_equal(_g(x).astype(F16), x.astype(F16))
    _bits_equal(garray.asarray(x, dtype=F16), x.astype(F16))


# ---- creation, dtype objects, transfer --------------------------------------------------

def test_dtype_objects_and_info():
    assert garray.float16 is numpy.float16 and garray.half is numpy.half
    assert garray.dtype("f2") == numpy.dtype(F16) and garray.dtype("e").itemsize == 2
    fi = garray.finfo(garray.float16)
    assert (fi.bits, fi.eps, fi.max, fi.smallest_normal) == (16, 2 ** -10, MAX, 2 ** -14)
    assert garray.isdtype(garray.float16, "real floating")
    assert garray.can_cast(garray.int8, garray.float16)
    assert not garray.can_cast(garray.int16, garray.float16)
    # the Array API's namespace info lists the standard's dtypes only
    assert "float16" not in garray.__array_namespace_info__().dtypes()


@xp_compare()
def test_creation_functions(xp):
    return [xp.zeros((2, 3), F16), xp.ones(3, dtype="f2"), xp.full(4, 1 / 3, dtype=F16),
            xp.arange(0, 2, 0.25, dtype=F16), xp.linspace(0, 1, 7, dtype=F16),
            xp.eye(3, k=1, dtype=F16), xp.asarray([1.5, 70000.0], dtype=F16),
            xp.empty(0, dtype=F16), xp.tri(3, dtype=F16)]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_host_round_trips_and_dlpack():
    h = HOSTILE64.astype(F16)
    g = _g(h)
    _bits_equal(g, h)
    assert g.tolist() == h.tolist() or numpy.isnan(h).any()
    assert g[2].item() == float(h[2]) and type(g[2].item()) is float
    _bits_equal(garray.from_dlpack(g), h)
    if g.device.kind == "cpu":          # NumPy reads host memory only
        _bits_equal(numpy.from_dlpack(g), h)
        _bits_equal(garray.from_dlpack(h), h)
    assert g.tobytes() == h.tobytes()
    assert repr(_g(numpy.array([0.5, -2.0], F16))).endswith("dtype=float16)")


# ---- promotion and scalars --------------------------------------------------------------

@for_all_dtypes()
@xp_compare()
def test_promotion_with_every_dtype(xp, dtype):
    a = xp.asarray(numpy.array([1.5, -2.25, 3.0], F16))
    b = xp.asarray(numpy.array([2, 0, 1]).astype(dtype))
    return [a + b, b * a, a < b]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("scalar", [0.1, 1e-4, 1e10, -1e-9, 3, 70000, True, 1.5j,
                                    numpy.float32(0.1), numpy.float64(0.1), numpy.int8(3),
                                    numpy.float16(0.1)], ids=repr)
@xp_compare()
def test_scalars(xp, scalar):
    """NEP 50: a Python float is rounded to float16 before the op (1 + 1e-4 is 1),
    1e10 overflows to inf; NumPy scalars are strong."""
    a = xp.asarray(numpy.array([1.0, -0.5, 2048.0, 0.1], F16))
    return [a + scalar, scalar * a, a == scalar, a - scalar]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8"])
@xp_compare()
def test_float_rule_gives_float16(xp, dtype):
    """Float ops on bool and 8-bit integers give float16, as NumPy's loop choice."""
    x = xp.asarray(numpy.array([0, 1, 1, 0, 1]).astype(dtype))
    return [xp.sin(x), xp.sqrt(x), xp.exp(x), x / x, xp.arctan2(x, x), xp.frexp(x)]


@xp_compare()
def test_out_and_aliasing(xp):
    a = xp.asarray(numpy.linspace(-3, 3, 12).astype(F16)).reshape(3, 4)
    o = xp.zeros((3, 4), F16)
    xp.multiply(a, 3.5, out=o)
    b = a.copy()
    b[1:] += b[:-1]                       # overlapping in-place
    w = xp.zeros((3, 4), xp.float32)
    xp.add(a, a, out=w)                   # float16 result cast into float32
    t = a.T.copy()
    xp.subtract(t, 1, out=t)
    return [o, b, w, t]


def test_out_refuses_unsafe_kind():
    a = garray.ones(3, garray.float16)
    with pytest.raises(TypeError, match="same_kind"):
        garray.add(a, a, out=garray.zeros(3, garray.int32))


# ---- the float16 grid -------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_spacing_and_nextafter_on_the_float16_grid():
    h = HOSTILE64.astype(F16)
    g = _g(h)
    _bits_equal(garray.spacing(g), numpy.spacing(h))
    for y in (0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, -MAX):
        _bits_equal(garray.nextafter(g, F16(y)), numpy.nextafter(h, F16(y)))
        _bits_equal(garray.nextafter(g, _g(numpy.full(h.shape, y, F16))),
                    numpy.nextafter(h, numpy.full(h.shape, y, F16)))
    _bits_equal(garray.nextafter(g[:5], g[5:10]), numpy.nextafter(h[:5], h[5:10]))


# ---- reductions, scans, sorting, GEMM -----------------------------------------------------

@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@xp_compare(rtol=2e-3, atol=1e-3)
def test_reductions(xp, axis):
    a = xp.asarray((numpy.arange(60).reshape(6, 10) * 0.37 - 9).astype(F16))
    r = [xp.sum(a, axis=axis), xp.max(a, axis=axis), xp.min(a, axis=axis),
         xp.mean(a, axis=axis), xp.prod(a / 8, axis=axis), xp.any(a, axis=axis),
         xp.var(a, axis=axis), xp.std(a, axis=axis)]
    if axis is None or isinstance(axis, int):
        r += [xp.argmax(a, axis=axis), xp.argmin(a, axis=axis)]
    return r


def test_sum_accumulates_in_float32():
    """NumPy's float16 sum accumulates in float: 3000 ones sum to 3000, not 2048."""
    h = numpy.ones(3000, F16)
    assert_xp_close(garray.sum(_g(h)), h.sum())
    assert float(garray.sum(_g(h))) == 3000.0


def test_scans_round_once():
    """Deliberate difference: garray's float16 cumsum/cumprod accumulate in float32 and
    round each output once; NumPy rounds the running value to float16 at every step (its
    cumsum of 3000 ones stalls at 2048).  Where no step rounds, the two agree."""
    h = numpy.ones(3000, F16)
    got = garray.cumsum(_g(h))
    assert got.dtype == F16
    assert_xp_close(got, numpy.cumsum(h.astype(numpy.float32)).astype(F16))
    assert numpy.cumsum(h)[-1] == 2048          # NumPy's per-step rounding
    small = (numpy.arange(12) % 5 - 2).astype(F16)
    assert_xp_close(garray.cumsum(_g(small)), numpy.cumsum(small))
    assert_xp_close(garray.cumprod(_g(small[:6] + 3)), numpy.cumprod(small[:6] + 3))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@xp_compare()
def test_sorting_and_sets(xp):
    h = numpy.concatenate([HOSTILE64.astype(F16), HOSTILE64[::3].astype(F16)])
    a = xp.asarray(h)
    s = xp.sort(a)
    return [s, xp.argsort(a, stable=True), xp.unique(a), xp.searchsorted(s, xp.asarray(h[:7])),
            xp.searchsorted(s, 0.1), xp.partition(a, 5)[5], xp.median(a[xp.isfinite(a)])]


@xp_compare(rtol=2e-3, atol=1e-3)
def test_matmul_and_friends(xp):
    a = xp.asarray((numpy.arange(24).reshape(4, 6) / 7 - 1).astype(F16))
    b = xp.asarray((numpy.arange(18).reshape(6, 3) / 5 - 2).astype(F16))
    return [a @ b, xp.matmul(a[None], b), xp.dot(a[0], a[1]), xp.tensordot(a, b, 1),
            xp.einsum("ij,jk->ik", a, b)]


def test_linalg_refuses_float16_as_numpy():
    with pytest.raises(TypeError, match="float16 is unsupported in linalg"):
        garray.linalg.inv(garray.eye(2, dtype=garray.float16))


@xp_compare()
def test_data_movement(xp):
    a = xp.asarray((numpy.arange(20).reshape(4, 5) * 0.5 - 3).astype(F16))
    idx = xp.asarray([3, 0, 0, 2])
    b = a.copy()
    b[idx, 1] = xp.asarray(numpy.array([7, 8, 9, 10], F16))
    return [a[a > 0], a[idx], a[:, ::-2].T, xp.where(a > 1, a, -a), xp.concat([a, a], axis=1),
            xp.stack([a, a]), xp.flip(a), xp.roll(a, 3), xp.tile(a, (1, 2)), b,
            xp.repeat(a, 2, axis=0), xp.take(a, idx, axis=0), xp.nonzero(a)[1]]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_ufunc_at_and_reduceat(dtype):
    """ufunc.at on float16 targets runs in ordered rounds (no fold kernel for float16);
    values as NumPy's, each step rounded to float16."""
    h = numpy.zeros(5, F16)
    idx = numpy.array([0, 1, 1, 4, 0, 0])
    vals = numpy.array([1, 2, 3, 1, 1, 1]).astype(dtype)
    with numpy.errstate(all="ignore"):
        try:
            numpy.add.at(h, idx, vals)
        except TypeError:
            with pytest.raises(TypeError):
                garray.add.at(garray.zeros(5, garray.float16), _g(idx), _g(vals))
            return
    g = garray.zeros(5, garray.float16)
    garray.add.at(g, _g(idx), _g(vals))
    assert_xp_close(g, h)


# ---- dtype inquiry ----------------------------------------------------------------------

@pytest.mark.parametrize("value", [True, 0, 255, 256, -1, -129, 2 ** 63, 2 ** 64 - 1, 1.0,
                                   65000.0, 64999.0, -65000.0, 1e38, 3.5e38, -3.5e38,
                                   float("nan"), float("inf"), -float("inf"), 1e-10, 1j,
                                   1e39j, 3 + 1e39j, numpy.float32(1), numpy.int64(5),
                                   numpy.float64(1e5), numpy.uint8(7), numpy.bool_(False)],
                         ids=repr)
def test_min_scalar_type(value):
    assert garray.min_scalar_type(value) == numpy.min_scalar_type(value)


def test_min_scalar_type_arrays_and_errors():
    assert garray.min_scalar_type(garray.asarray([1, 2])) == numpy.dtype("int64")
    assert garray.min_scalar_type(garray.asarray(5.0)) == numpy.dtype("float16")
    assert garray.min_scalar_type(garray.asarray(-3)) == numpy.dtype("int8")
    with pytest.raises(TypeError, match="object"):
        garray.min_scalar_type(2 ** 64)
    with pytest.raises(TypeError, match="number"):
        garray.min_scalar_type("abc")


@pytest.mark.parametrize("dtypes", [(), ("float16",), ("float16", "complex64"),
                                    ("float16", "int8"), ("float16", "float32")], ids=str)
def test_common_type(dtypes):
    arrays = [numpy.ones(2, d) for d in dtypes]
    assert garray.common_type(*[_g(a) for a in arrays]) is numpy.common_type(*arrays)


@xp_compare()
def test_round_takes_decimals(xp):
    """NumPy's round(a, decimals) on every float dtype and bool (float16 at 0 decimals)."""
    a = xp.asarray([1.25, -2.675, 15.5, 0.05])
    return [xp.round(a, 1), xp.round(a.astype(F16), 1), xp.round(a, -1),
            xp.round(xp.asarray([True, False])), xp.round(a.astype(xp.float32))]


@xp_compare()
def test_isclose_keeps_a_python_float_weak(xp):
    """NumPy's isclose keeps a Python float b weak: beside float16 it is rounded to
    float16 first (1.3 is close to float16 1.3, which is 1.2998)."""
    a = xp.asarray(numpy.array([1.3, 2.0, numpy.inf], F16))
    return [xp.isclose(a, 1.3), xp.isclose(a, numpy.inf), xp.isclose(a, a[0]),
            xp.isclose(a.astype(xp.float32), 1.3), xp.isclose(xp.asarray([1, 2]), 1),
            xp.allclose(a[:1], 1.3), xp.allclose(a[2:], numpy.inf), xp.allclose(a, 1.3)]
