"""Transcendental functions on the CPU device, whose loops call glibc's libmvec on
x86-64-v3 builds (garray/cpu_vector_math.h, Note [CPU vector math]; docs/performance.md,
"Vector math on the CPU device"): values against NumPy in every loop shape (the 8/4-wide
AVX2 calls, the 16-byte epilogue, the scalar tail, strided rows), special values exactly
(NaN positions, infinities, signed zeros), and a ULP bound against a higher-precision
reference.  Without libmvec (GARRAY_CPU_ISA=baseline, other platforms) the same checks
hold for the scalar libm calls."""

import numpy
import pytest

import garray
from garray.testing.vector_math import BINARY, REF, UNARY, ulp_error
from xp import assert_xp_close, xp_compare

DEV = garray.default_device()
pytestmark = pytest.mark.skipif(DEV.kind != "cpu", reason="the CPU device's math loops")

FUNCS = [*UNARY, *BINARY]
DTYPES = ("float32", "float64")
# Max ULP error against the reference, for every function and both dtypes: libmvec's
# documented bound; measured max 3.76 (log float32), docs/performance.md.
ULP_BOUND = 4.0


def special_values(dt):
    f = numpy.finfo(dt)
    base = [0.0, 1.0, 0.5, 2.0, numpy.pi / 2, numpy.pi, 88.72283935546875, 89.0, 103.0,
            709.782712893384, 710.0, 745.2, 1e5, 1e22, 2.0 ** 60, float(f.max),
            float(f.tiny), float(f.smallest_subnormal), 1e-30]
    with numpy.errstate(all="ignore"):
        v = numpy.array(base, dtype=dt)
        v = numpy.concatenate([v, numpy.nextafter(v, numpy.inf, dtype=dt),
                               numpy.nextafter(v, -numpy.inf, dtype=dt)])
    return numpy.concatenate([v, -v, numpy.array([numpy.nan, numpy.inf, -numpy.inf], dt)])


def values(name, dt, n, seed=0):
    """n inputs: the domain's uniform sample, random bit patterns (huge arguments,
    subnormals) and the special values, shuffled so every loop lane sees each kind."""
    rng = numpy.random.default_rng(seed + FUNCS.index(name))
    lo, hi = UNARY.get(name) or BINARY[name]
    it = numpy.dtype(dt).itemsize
    bits = rng.integers(0, 2 ** (8 * it) - 1, n, dtype=numpy.uint64 if it == 8 else numpy.uint32)
    with numpy.errstate(all="ignore"):
        v = numpy.concatenate([rng.uniform(lo, hi, n).astype(dt), bits.view(dt),
                               special_values(dt)])
    return rng.permutation(v)[:n]


def operands(name, dt, n):
    return [values(name, dt, n, seed) for seed in range(1 if name in UNARY else 2)]


def call(xp, name, args):
    with numpy.errstate(all="ignore"):
        return getattr(xp, name)(*args)


def on(xp, a):
    return garray.asarray(a) if xp is garray else a


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("n", [1, 7, 4 * 256 + 13])   # scalar tail, epilogue, full chunks
@xp_compare()
def test_contiguous(xp, name, dtype, n):
    return call(xp, name, [on(xp, a) for a in operands(name, dtype, n)])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("view", ["step", "reversed", "rows4", "rows2", "rows11"])
@xp_compare()
def test_strided(xp, name, dtype, view):
    args = []
    for a in operands(name, dtype, 2 * 600):
        a = on(xp, a)
        if view == "step":
            a = a[::2]
        elif view == "reversed":
            a = a[::-1]
        else:   # short unit-stride rows of a wider array (the loops' epilogue and tail)
            k = int(view[4:])
            a = a.reshape(-1, 20)[:, 3:3 + k]
        args.append(a)
    return call(xp, name, args)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
def test_special_values_exact(name, dtype):
    """Where NumPy's or garray's result is NaN, infinite or zero, garray's is NumPy's
    exactly, signed zeros included (a NaN's sign bit is not compared: neither NumPy nor
    C fixes it); contiguous and strided."""
    args = operands(name, dtype, 4 * 256 + 13)
    if name in BINARY:   # every special against every special
        s = special_values(dtype)
        args = [numpy.repeat(s, s.size), numpy.tile(s, s.size)]
    else:
        args = [numpy.concatenate([args[0], special_values(dtype)])]
    n_res = call(numpy, name, args)
    g_res = call(garray, name, [garray.asarray(a) for a in args]).get()
    pick = ~numpy.isfinite(n_res) | (n_res == 0) | ~numpy.isfinite(g_res) | (g_res == 0)
    if name == "exp2" and dtype == "float32":   # test_exp2_float32_underflow
        pick &= ~((args[0] > -150) & (args[0] < -149))
    sub = [a[pick] for a in args]
    for layout in ("contiguous", "step"):
        def run(xp):
            xs = [on(xp, a) for a in sub]
            if layout == "step":
                xs = [on(xp, numpy.repeat(a, 2))[::2] for a in sub]
            r = call(xp, name, xs)
            return r, xp.signbit(r) & ~xp.isnan(r)   # zeros' and infinities' signs
        assert_xp_close(run(garray), run(numpy), rtol=0, atol=0,
                        err_msg=f"{name} {dtype} {layout}")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
def test_ulp_bound(name, dtype):
    """Max ULP error against the function in higher precision (float64 for float32,
    long double for float64) within ULP_BOUND; results non-finite exactly where the
    reference's are."""
    ref_dt = REF[dtype]
    args = operands(name, dtype, 1 << 14)
    with numpy.errstate(all="ignore"):
        ref = call(numpy, name, [a.astype(ref_dt) for a in args])
    for layout in ("contiguous", "rows4"):
        if layout == "contiguous":
            got = call(garray, name, [garray.asarray(a) for a in args]).get()
        else:
            wide = [garray.asarray(numpy.pad(a.reshape(-1, 4), ((0, 0), (0, 1))))[:, :4]
                    for a in args]
            got = numpy.ascontiguousarray(call(garray, name, wide).get()).reshape(-1)
        with numpy.errstate(all="ignore"):
            assert numpy.array_equal(numpy.isfinite(got), numpy.isfinite(ref.astype(dtype)))
        err = ulp_error(got, ref, dtype, not_finite=0)
        worst = int(numpy.argmax(err))
        assert err[worst] <= ULP_BOUND, \
            (f"{name} {dtype} {layout}: {err[worst]:.2f} ulp at "
             f"{[a[worst] for a in args]}: {got[worst]!r} vs {ref[worst]!r}")


def test_libmvec_linked_when_enabled():
    """Kernels built with -DGA_CPU_LIBMVEC=1 load glibc's libmvec (the loops call it)."""
    from garray._compiler import gxx
    garray.exp(garray.ones(64, dtype="float32")).get()
    with open("/proc/self/maps") as f:
        mapped = "libmvec" in f.read()
    if "-DGA_CPU_LIBMVEC=1" in gxx._CXX_FLAGS:
        assert mapped


def test_exp2_float32_underflow():
    """The one special-value difference found: NumPy's float32 exp2 flushes results in
    (2**-150, 2**-149.5) to 0; glibc (libmvec and the scalar exp2f alike) rounds them to
    the smallest subnormal, as the float64 function rounded does."""
    x = numpy.array([-149.57684, -149.9], dtype="float32")
    want = numpy.exp2(x.astype("float64")).astype("float32")
    assert_xp_close(garray.exp2(garray.asarray(x)), want, rtol=0, atol=0)
