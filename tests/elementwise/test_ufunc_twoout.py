"""The two-output ufuncs (divmod, frexp, modf) and ldexp's float-by-integer signature
against NumPy (garray/_tables/ops.py rows with ``nout=2`` / ``in2``; one kernel launch
computes both outputs: Note [Two-output ops] in _kernels/garray/functors.h).

elementwise/test_elementwise.py runs these ops over every dtype and layout with the other ops; here:
out= tuples (None entries, aliasing an input, another dtype), positional outputs, the
operators, special values (zeros, infinities, NaN, subnormals, integer division by zero),
ldexp's type resolution, and the ufunc attributes and methods.
"""

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, sample, xp_compare

FLOATS = ("float32", "float64")
REAL = tuple(d for d in ALL_DTYPES if numpy.dtype(d).kind in "iuf")
INTS = tuple(d for d in ALL_DTYPES if numpy.dtype(d).kind in "iu")


def _g(h):
    return garray.asarray(numpy.ascontiguousarray(h), copy=True)


def _divisors(dtype, shape=(4,), start=3):
    """Nonzero divisors of both signs (positive for unsigned)."""
    h = sample(shape, dtype, start)
    return numpy.where(h == 0, numpy.ones((), dtype), h).astype(dtype)


# ---- divmod ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", REAL)
@xp_compare()
def test_divmod_broadcast_and_strided(xp, dtype):
    a = xp.asarray(sample((3, 8), dtype))[::-1, ::2]          # negative and step strides
    b = xp.asarray(_divisors(dtype))
    with numpy.errstate(all="ignore"):
        return xp.divmod(a, b), xp.divmod(b[:, None], a[:, ::-1])


@pytest.mark.parametrize("dtype", REAL)
@xp_compare()
def test_divmod_by_zero(xp, dtype):
    """Integers: (0, 0) for a zero divisor, the minimum // -1 wraps; floats: NumPy's."""
    h = sample((17,), dtype)
    if numpy.dtype(dtype).kind == "i":
        h[0] = numpy.iinfo(dtype).min
    zero_and_minus_one = numpy.array([0, 0 if dtype.startswith("u") else -1] * 8 + [1],
                                     dtype)
    with numpy.errstate(all="ignore"):
        return xp.divmod(xp.asarray(h), xp.asarray(zero_and_minus_one))


SPECIAL = numpy.array([0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 1e-300, 7.0, -7.0, numpy.inf,
                       -numpy.inf, numpy.nan, 5e-324, 1e300])


@pytest.mark.parametrize("dtype", FLOATS)
def test_divmod_special_values(dtype):
    """Every pair of special values: NumPy's quotient and remainder with their signs
    (infinite operands give NaN as in NumPy, unlike garray.floor_divide)."""
    with numpy.errstate(all="ignore"):      # 1e300 is inf in float32
        a = SPECIAL.astype(dtype)[:, None]
        b = SPECIAL.astype(dtype)[None, :]
        q, r = numpy.divmod(a, b)
    gq, gr = garray.divmod(_g(a), _g(b))
    assert_xp_close((gq, gr), (q, r), rtol=0, atol=0)
    for g, e in ((gq, q), (gr, r)):
        keep = ~numpy.isnan(e)
        numpy.testing.assert_array_equal(numpy.signbit(g.get()[keep]),
                                         numpy.signbit(e[keep]))


@pytest.mark.parametrize("dtype", REAL)
def test_divmod_matches_floor_divide_and_remainder(dtype):
    """The pair is garray's floor_divide and remainder (finite values)."""
    a, b = _g(sample((5, 7), dtype)), _g(_divisors(dtype, (7,)))
    q, r = garray.divmod(a, b)
    assert (q == a // b).all() and (r == a % b).all()


@pytest.mark.parametrize("dtype", REAL)
def test_divmod_operators(dtype):
    """Python's divmod(): __divmod__ and __rdivmod__ with arrays, Python and NumPy
    scalars, and numpy.divmod on garray arrays."""
    h, d = sample((2, 3), dtype), _divisors(dtype, (3,))
    g, gd = _g(h), _g(d)
    s = 3
    with numpy.errstate(all="ignore"):
        assert_xp_close(divmod(g, gd), divmod(h, d))
        assert_xp_close(divmod(g, s), divmod(h, s))
        assert_xp_close(divmod(s, gd), divmod(s, d))
        assert_xp_close(divmod(g, numpy.dtype(dtype).type(2)),
                        divmod(h, numpy.dtype(dtype).type(2)))
        assert_xp_close(numpy.divmod(g, gd), numpy.divmod(h, d))
        assert_xp_close(g.__divmod__(gd), h.__divmod__(d))
        assert_xp_close(gd.__rdivmod__(g), d.__rdivmod__(h))


def test_divmod_scalar_kinds():
    """NEP 50: a Python float makes an integer divmod float64; a NumPy scalar is strong."""
    h = sample((6,), "int16")
    g = _g(h)
    for s in (2.5, -1.5, numpy.float32(1.5), numpy.int64(4)):
        assert_xp_close(garray.divmod(g, s), numpy.divmod(h, s))
        assert_xp_close(garray.divmod(s, _g(_divisors("int16", (6,)))),
                        numpy.divmod(s, _divisors("int16", (6,))))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_divmod_refused_dtypes(dtype):
    """Complex: TypeError as NumPy."""
    g = _g(sample((3,), dtype))
    with pytest.raises(TypeError, match="divmod"):
        garray.divmod(g, g)


def test_divmod_of_bool_computes_in_int8():
    """NumPy 2's bool loop: int8 quotient and remainder (0 and 0 for a False divisor)."""
    a = numpy.array([True, False, True, False])
    b = numpy.array([True, True, False, False])
    with numpy.errstate(all="ignore"):
        want = numpy.divmod(a, b)
    assert_xp_close(garray.divmod(_g(a), _g(b)), want)


# ---- frexp, modf ----------------------------------------------------------------------

UNARY_SPECIAL = numpy.array([0.0, -0.0, 1.0, -1.0, 0.75, -2.5, 8.0, 1e300, -1e-300,
                             5e-324, -5e-324, numpy.inf, -numpy.inf, numpy.nan, 3.0e38,
                             1.0e-45, 2.0 ** -149, 123456.789])


@pytest.mark.parametrize("name", ["frexp", "modf"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_unary_special_values(name, dtype):
    with numpy.errstate(all="ignore"):
        x = UNARY_SPECIAL.astype(dtype)
    expected = getattr(numpy, name)(x)
    got = getattr(garray, name)(_g(x))
    assert_xp_close(got, expected, rtol=0, atol=0)
    for g, e in zip(got, expected):
        if e.dtype.kind == "f":
            keep = ~numpy.isnan(e)
            numpy.testing.assert_array_equal(numpy.signbit(g.get()[keep]),
                                             numpy.signbit(e[keep]))


@pytest.mark.parametrize("name", ["frexp", "modf"])
@for_all_dtypes()
def test_unary_every_dtype(name, dtype):
    """Floats keep their dtype; integers and bool compute in float16 (8-bit), float32
    (16-bit) or float64; complex raises TypeError."""
    h = sample((2, 5), dtype)
    g = _g(h)
    if dtype.kind == "c":
        with pytest.raises(TypeError, match=name):
            getattr(garray, name)(g)
        return
    f = getattr(numpy, name)
    expected = f(h)
    assert_xp_close(getattr(garray, name)(g), expected)
    assert_xp_close(getattr(garray, name)(g.T[::-1]), f(h.T[::-1].astype(expected[0].dtype)))


@pytest.mark.parametrize("name", ["frexp", "modf"])
@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (1,), (3, 1, 2)])
@xp_compare()
def test_unary_shapes(xp, name, shape):
    h = sample(shape, "float64")
    return getattr(xp, name)(xp.asarray(h))


def test_unary_scalars():
    """Python and NumPy scalars as input, as numpy.frexp(0.75)."""
    for s in (0.75, numpy.float32(-3.5), 6):
        assert_xp_close(garray.frexp(s), numpy.frexp(s))
        assert_xp_close(garray.modf(s), numpy.modf(s))


def test_frexp_values_reconstruct():
    """m * 2**e gives x back over every binade of float32 and float64."""
    for dtype in FLOATS:
        fi = numpy.finfo(dtype)
        h = numpy.geomspace(float(fi.smallest_subnormal), float(fi.max) / 2, 500,
                            dtype=dtype) * numpy.where(numpy.arange(500) % 2, -1, 1)
        m, e = garray.frexp(_g(h))
        assert_xp_close(garray.ldexp(m, e), h, rtol=0, atol=0)


# ---- out= -----------------------------------------------------------------------------

@pytest.mark.parametrize("name, args", [
    ("divmod", lambda xp: (xp.asarray(sample((3, 4), "float64")), 1.5)),
    ("divmod", lambda xp: (xp.asarray(sample((3, 4), "int32")),
                           xp.asarray(_divisors("int32")))),
    ("frexp", lambda xp: (xp.asarray(sample((3, 4), "float32")),)),
    ("modf", lambda xp: (xp.asarray(sample((3, 4), "float64")),)),
])
@pytest.mark.parametrize("which", ["both", "first", "second", "none", "positional"])
def test_out_tuple(name, args, which):
    """out=(o1, o2) with None entries allocated; positional outputs; the results are the
    given arrays."""
    results = {}
    for xp in (numpy, garray):
        a = args(xp)
        shape = numpy.broadcast_shapes(*[numpy.shape(x) for x in a])
        with numpy.errstate(all="ignore"):
            ref = getattr(numpy, name)(*[x.get() if isinstance(x, garray.ndarray) else x
                                         for x in a])
        o = [xp.zeros(shape, r.dtype) for r in ref]
        out = {"both": tuple(o), "first": (o[0], None), "second": (None, o[1]),
               "none": (None, None), "positional": None}[which]
        f = getattr(xp, name)
        with numpy.errstate(all="ignore"):
            r = f(*a, *o) if which == "positional" else f(*a, out=out)
        if which in ("both", "positional"):
            assert r[0] is o[0] and r[1] is o[1]
        elif which == "first":
            assert r[0] is o[0]
        elif which == "second":
            assert r[1] is o[1]
        results[xp] = r
    assert_xp_close(results[garray], results[numpy])


@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_out_aliases_inputs(dtype):
    """divmod(a, b, out=(a, b)): each element is read before it is written; an output
    that overlaps an input partly gets a copy of the input first."""
    h, d = sample((4, 6), dtype), _divisors(dtype, (4, 6))
    q, r = numpy.divmod(h, d)
    g, gd = _g(h), _g(d)
    res = garray.divmod(g, gd, out=(g, gd))
    assert res[0] is g and res[1] is gd
    assert_xp_close((g, gd), (q, r))
    g, gd = _g(h), _g(d)
    garray.divmod(g, gd, out=(gd, g))
    assert_xp_close((gd, g), (q, r))
    # overlapping, not the same view: the quotient written one row down
    hh = numpy.concatenate([h, h[:1]])
    g = _g(hh)
    garray.divmod(g[:-1], _g(d), out=(g[1:], None))
    assert_xp_close(g[1:], numpy.divmod(hh[:-1], d)[0])
    x = sample((5,), "float64")
    gx = _g(x)
    garray.modf(gx, out=(None, gx))
    assert_xp_close(gx, numpy.modf(x)[1])


def test_out_casting_and_shapes():
    """Outputs of another dtype take same-kind casts (the exponent into int64 or
    float64); an unsafe one raises TypeError before anything is written; out larger than
    the inputs broadcasts them; wrong out= forms raise as NumPy."""
    h = sample((2, 3), "float64")
    g = _g(h)
    m, e = numpy.frexp(h)
    om, oe = garray.zeros((2, 3), "float32"), garray.zeros((2, 3), "int64")
    r = garray.frexp(g, out=(om, oe))
    assert r[0] is om and r[1] is oe
    assert_xp_close((om, oe), (m.astype("float32"), e.astype("int64")))
    for d1, d2 in ((None, "int8"), ("int32", None), ("float32", "float64"), (None, "bool")):
        n_out = tuple(None if d is None else numpy.zeros((2, 3), d) for d in (d1, d2))
        g_out = tuple(None if d is None else garray.zeros((2, 3), d) for d in (d1, d2))
        try:
            expected = numpy.frexp(h, out=n_out)
        except TypeError:
            with pytest.raises(TypeError, match="frexp"):
                garray.frexp(g, out=g_out)
            assert all(o is None or not o.any() for o in g_out)    # nothing written
            continue
        assert_xp_close(garray.frexp(g, out=g_out), expected)
    big = garray.zeros((4, 2, 3))
    q, _ = garray.divmod(g, 2.0, out=(big, None))
    assert q is big and _.shape == (4, 2, 3)
    assert_xp_close(big, numpy.broadcast_to(numpy.divmod(h, 2.0)[0], (4, 2, 3)))
    with pytest.raises(TypeError, match="tuple"):
        garray.divmod(g, 2.0, out=garray.zeros((2, 3)))
    with pytest.raises(ValueError, match="one entry per ufunc output"):
        garray.divmod(g, 2.0, out=(None,))
    with pytest.raises(ValueError):
        garray.divmod(g, 2.0, out=(garray.zeros((3,)), None))
    with pytest.raises(TypeError, match="both"):
        garray.divmod(g, 2.0, garray.zeros((2, 3)), out=(None, None))
    with pytest.raises(TypeError, match="divmod"):
        garray.divmod(g, 2.0, out=(numpy.zeros((2, 3)), None))


# ---- ldexp ------------------------------------------------------------------------------

@pytest.mark.parametrize("x1", ["float32", "float64", "int8", "int16", "int32", "int64",
                                "uint8", "uint32", "bool"])
@pytest.mark.parametrize("x2", ["bool", "int8", "int16", "int32", "int64", "uint8",
                                "uint16", "uint32", "uint64", "float32", "float64"])
def test_ldexp_type_resolution(x1, x2):
    """NumPy's loops (ei, fi, fl, di, dl ...): x1 alone picks the float; exponents are
    bool or integers that cast safely to int64 (uint64 and floats raise TypeError)."""
    h1 = sample((2, 5), x1)
    h2 = sample((5,), x2, small=True)
    g1, g2 = _g(h1), _g(h2)
    try:
        expected = numpy.ldexp(h1, h2)
    except TypeError:
        with pytest.raises(TypeError, match="ldexp"):
            garray.ldexp(g1, g2)
        return
    assert_xp_close(garray.ldexp(g1, g2), expected)


@pytest.mark.parametrize("dtype", FLOATS)
def test_ldexp_overflow_underflow(dtype):
    """Overflow to inf, gradual underflow through the subnormals to 0 (one rounding),
    signs kept, huge exponents clamped as NumPy's long loops do."""
    fi = numpy.finfo(dtype)
    x = numpy.array([1.0, -1.0, 1.5, 0.75, -0.0, numpy.inf, numpy.nan, float(fi.tiny),
                     float(fi.max), 3.0], dtype)[:, None]
    e = numpy.array([0, 1, -1, fi.maxexp, fi.maxexp - 1, fi.minexp, fi.minexp - fi.nmant,
                     fi.minexp - fi.nmant - 1, fi.minexp - fi.nmant - 2, -1100, 2000,
                     2 ** 40, -(2 ** 40), 2 ** 62], numpy.int64)[None, :]
    with numpy.errstate(all="ignore"):
        expected = numpy.ldexp(x, e)
    got = garray.ldexp(_g(x), _g(e))
    assert_xp_close(got, expected, rtol=0, atol=0)
    keep = ~numpy.isnan(expected)
    numpy.testing.assert_array_equal(numpy.signbit(got.get()[keep]),
                                     numpy.signbit(expected[keep]))
    for s in (5, -1080, 2 ** 31 - 1, -2 ** 31):   # a Python int exponent: the *_cs kernel
        with numpy.errstate(all="ignore"):
            expected = numpy.ldexp(x, s)
        assert_xp_close(garray.ldexp(_g(x), s), expected, rtol=0, atol=0)
    for s in (2 ** 31, -2 ** 31 - 1):   # NumPy's weak int takes the int32 loop
        with pytest.raises(OverflowError):
            numpy.ldexp(x, s)
        with pytest.raises(OverflowError, match="ldexp"):
            garray.ldexp(_g(x), s)


def test_ldexp_scalars():
    """Python and NumPy scalars on either side, as NumPy resolves them; a float
    exponent or an int64 overflow raise as in NumPy."""
    e = sample((6,), "int32", small=True)
    x = sample((6,), "float32")
    ge, gx = _g(e), _g(x)
    assert_xp_close(garray.ldexp(2.5, ge), numpy.ldexp(2.5, e))
    assert_xp_close(garray.ldexp(3, ge), numpy.ldexp(3, e))   # float16, as NumPy
    assert_xp_close(garray.ldexp(numpy.float32(3), ge), numpy.ldexp(numpy.float32(3), e))
    assert_xp_close(garray.ldexp(gx, numpy.int64(3)), numpy.ldexp(x, numpy.int64(3)))
    assert_xp_close(garray.ldexp(gx, True), numpy.ldexp(x, True))
    for bad in (2.0, numpy.float64(2), 1j):
        with pytest.raises(TypeError, match="ldexp"):
            garray.ldexp(gx, bad)
    with pytest.raises(TypeError, match="ldexp"):
        garray.ldexp(3, gx)
    with pytest.raises(OverflowError):
        garray.ldexp(gx, 2 ** 70)


@pytest.mark.parametrize("shape1, shape2", [((), ()), ((0,), ()), ((3, 0), (0,)),
                                            ((3, 1), (4,)), ((), (2, 2))])
@xp_compare()
def test_ldexp_shapes(xp, shape1, shape2):
    return xp.ldexp(xp.asarray(sample(shape1, "float64")),
                    xp.asarray(sample(shape2, "int16", small=True)))


def test_ldexp_out_aliasing():
    x = sample((3, 4), "float64")
    e = sample((3, 4), "int64", small=True)
    gx, ge = _g(x), _g(e)
    r = garray.ldexp(gx, ge, out=gx)
    assert r is gx
    assert_xp_close(gx, numpy.ldexp(x, e))
    gx = _g(x)
    garray.ldexp(gx.T, _g(e).T, out=gx.T)
    assert_xp_close(gx, numpy.ldexp(x, e))


# ---- the ufunc objects --------------------------------------------------------------

def test_ufunc_attributes_and_methods():
    for name, nin, nout in (("divmod", 2, 2), ("frexp", 1, 2), ("modf", 1, 2),
                            ("ldexp", 2, 1)):
        uf = getattr(garray, name)
        assert (uf.nin, uf.nout) == (nin, nout) == (getattr(numpy, name).nin,
                                                      getattr(numpy, name).nout)
        assert uf.__doc__ and "Returns" in uf.__doc__
    g = _g(sample((4,), "float64"))
    for method in ("reduce", "accumulate"):
        with pytest.raises(ValueError, match="single value"):
            getattr(garray.divmod, method)(g)
    a, b = sample((2,), "float64"), _divisors("float64", (3,))
    assert_xp_close(garray.divmod.outer(_g(a), _g(b)), numpy.divmod.outer(a, b))
    with pytest.raises(ValueError):
        garray.frexp.outer(g, g)


def test_numpy_dispatch_where_and_dtype():
    """numpy.divmod / numpy.frexp on garray arrays (__array_ufunc__), with out= tuples,
    where= and dtype=."""
    h, d = sample((3, 4), "float64"), _divisors("float64", (3, 4))
    m = (numpy.arange(12) % 3 == 0).reshape(3, 4)
    g, gd, gm = _g(h), _g(d), _g(m)
    q0, r0 = numpy.full((3, 4), 7.0), numpy.full((3, 4), 7.0)
    numpy.divmod(h, d, out=(q0, r0), where=m)
    gq, gr = garray.full((3, 4), 7.0), garray.full((3, 4), 7.0)
    res = numpy.divmod(g, gd, out=(gq, gr), where=gm)
    assert res[0] is gq and res[1] is gr
    assert_xp_close((gq, gr), (q0, r0))
    assert_xp_close(numpy.divmod(g, gd, dtype="float32"),
                    numpy.divmod(h, d, dtype="float32"))


@pytest.mark.parametrize("dtype", ["int16", "float32"])
def test_out_noncontiguous_and_readonly(dtype):
    """Outputs that are strided views (a step, a transpose) are written in place; a
    read-only output or one on another shape raises before anything is written."""
    h, d = sample((4, 3), dtype), _divisors(dtype, (3,))
    q, r = numpy.divmod(h, d)
    bq, br = garray.zeros((8, 3), dtype), garray.zeros((3, 4), dtype)
    res = garray.divmod(_g(h), _g(d), out=(bq[::2], br.T))
    assert_xp_close((bq[::2], br.T), (q, r))
    assert_xp_close(res, (q, r))
    assert not bq[1::2].any()
    ro = garray.broadcast_to(garray.zeros(3, dtype), (4, 3))
    with pytest.raises(ValueError):
        garray.divmod(_g(h), _g(d), out=(None, ro))
    x = sample((5, 2), "float64")
    m, e = garray.zeros((2, 5)), garray.zeros((5, 2), "int32")
    garray.frexp(_g(x)[::-1], out=(m.T, e[::-1]))
    em, ee = numpy.frexp(x[::-1])
    assert_xp_close((m.T, e[::-1]), (em, ee))
