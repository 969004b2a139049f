"""Every op-table entry against NumPy, for every dtype, in every layout.

The op table (garray._optable) is the list of ops under test; NumPy is the reference.
Where NumPy picks float16 (float ops on 8-bit ints and bool) garray gives float32.
"""

import numpy
import pytest

import garray
from garray import _optable
from xp import ALL_DTYPES, assert_xp_equal, make

OPS = sorted(_optable.OPS)
CATEGORY = _optable.CATEGORY
CODES = {d: i for i, d in enumerate(ALL_DTYPES)}


def _numpy_func(op):
    return getattr(numpy, op.numpy_name)


def _small_nonneg(xp, shape, dtype, start, flip=False):
    """Shift amounts / integer exponents: 0..3, so results match without overflow rules."""
    b = make(xp, shape, dtype, start=start)
    if flip:
        b = b[:, ::-1]
    if CATEGORY[CODES[dtype]] in "iu":
        b = b % 4 if xp is numpy else garray.remainder(b, 4)
    return b


def _inputs(xp, op, dtype, layout):
    small = op.name in ("bitwise_left_shift", "bitwise_right_shift", "pow", "float_power")
    if layout == "strided":
        a = make(xp, (4, 6), dtype)[::-1, ::2][:3]                    # (3, 3), negative stride
        b = (_small_nonneg(xp, (3, 3), dtype, 0, flip=True) if small
             else make(xp, (3, 4), dtype, start=3)[:, 1:])             # (3, 3), offset rows
    else:
        a = make(xp, (3, 4), dtype)
        b = _small_nonneg(xp, (3, 4), dtype, 0) if small else make(xp, (3, 4), dtype, start=3)
        if layout == "broadcast":
            b = b[1:2]
    return (a, b)[:op.nin]


def _expected(op, np_inputs):
    with numpy.errstate(all="ignore"):
        r = _numpy_func(op)(*np_inputs)
        if numpy.asarray(r).dtype == numpy.float16:   # garray computes these in float32
            r = _numpy_func(op)(*[numpy.asarray(x).astype(numpy.float32) for x in np_inputs])
        return r


def _compare(g, n, dtype_code):
    if isinstance(n, numpy.ndarray) and n.dtype == numpy.float16:
        n = n.astype(numpy.float32)
    assert g.shape == n.shape
    assert g.dtype == n.dtype, f"dtype {g.dtype} != numpy's {n.dtype}"
    if n.dtype.kind in "fc":
        tol = 5e-6 if n.dtype in (numpy.float32, numpy.complex64) else 1e-12
        numpy.testing.assert_allclose(g.get(), n, rtol=tol, atol=tol, equal_nan=True)
    else:
        numpy.testing.assert_array_equal(g.get(), n)


CASES = [(name, dtype, layout) for name in OPS for dtype in ALL_DTYPES
         for layout in ("contiguous", "strided", "broadcast")
         if layout != "broadcast" or _optable.OPS[name].nin == 2]


@pytest.mark.parametrize("name, dtype, layout", CASES)
def test_op_matches_numpy(name, dtype, layout):
    op = _optable.OPS[name]
    fn = getattr(garray, name)
    g_in = _inputs(garray, op, dtype, layout)
    n_in = _inputs(numpy, op, dtype, layout)
    if op.compute_code(CODES[dtype]) < 0:
        with pytest.raises(TypeError, match=name):
            fn(*g_in)
        return
    try:
        n = _expected(op, n_in)
    except TypeError:
        with pytest.raises(TypeError):
            fn(*g_in)
        return
    _compare(fn(*g_in), numpy.asarray(n), CODES[dtype])


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32", "float64",
                                   "complex64", "bool"])
@pytest.mark.parametrize("scalar", [2, 2.5, True, 1 + 2j])
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "equal", "less",
                                  "maximum", "pow"])
def test_python_scalars_are_weak(name, dtype, scalar):
    op = _optable.OPS[name]
    g, n = make(garray, (2, 3), dtype), make(numpy, (2, 3), dtype)
    gfn, nfn = getattr(garray, name), _numpy_func(op)
    for order in (0, 1):
        g_args = (g, scalar) if order == 0 else (scalar, g)
        n_args = (n, scalar) if order == 0 else (scalar, n)
        try:
            with numpy.errstate(all="ignore"):
                expected = numpy.asarray(nfn(*n_args))
        except (TypeError, OverflowError) as e:
            with pytest.raises(type(e)):
                gfn(*g_args)
            continue
        try:
            got = gfn(*g_args)
        except TypeError:
            # garray's op table is stricter than NumPy for this dtype.
            assert op.compute_code(_optable.CODES[numpy.result_type(n, scalar)]) < 0 or \
                isinstance(scalar, complex)
            continue
        _compare(got, expected, None)


def test_operators_and_reflected_forms():
    g, n = make(garray, (3, 4), "float64"), make(numpy, (3, 4), "float64")
    gi, ni = make(garray, (3, 4), "int32"), make(numpy, (3, 4), "int32")
    cases = [
        (lambda x, y: x + y), (lambda x, y: x - y), (lambda x, y: x * y), (lambda x, y: x / y),
        (lambda x, y: x // y), (lambda x, y: x % y), (lambda x, y: x ** 2), (lambda x, y: 2 ** x),
        (lambda x, y: 1.5 - x), (lambda x, y: x < y), (lambda x, y: x >= 3), (lambda x, y: -x),
        (lambda x, y: +x), (lambda x, y: abs(x)), (lambda x, y: x == y.T.T), (lambda x, y: x != 1),
        (lambda x, y: 7 / x), (lambda x, y: 7 // x), (lambda x, y: 7 % x),
    ]
    for f in cases:
        with numpy.errstate(all="ignore"):
            assert_xp_equal(f(g, g[::-1]), f(n, n[::-1]))
            assert_xp_equal(f(gi, gi[:, ::-1]), f(ni, ni[:, ::-1]))
    for f in [(lambda x, y: x & y), (lambda x, y: x | 3), (lambda x, y: x ^ y),
              (lambda x, y: x << 2), (lambda x, y: x >> 1), (lambda x, y: ~x), (lambda x, y: 6 & x)]:
        assert_xp_equal(f(gi, gi.T.T), f(ni, ni.T.T))


def test_inplace_and_aliasing():
    g, n = make(garray, (4, 5), "float32"), make(numpy, (4, 5), "float32")
    g += 1
    n += 1
    g *= g
    n *= n
    g[1:] -= g[:-1]          # overlapping views: NumPy semantics (copy first)
    n[1:] -= n[:-1]
    g[:, ::2] /= 2
    n[:, ::2] /= 2
    assert_xp_equal(g, n)
    gi, ni = make(garray, (4,), "int32"), make(numpy, (4,), "int32")
    gi += gi[::-1]
    ni += ni[::-1]
    assert_xp_equal(gi, ni)
    with pytest.raises(TypeError, match="same_kind"):
        gi += 1.5                       # NumPy: UFuncTypeError (a TypeError)
    with pytest.raises(TypeError):
        ni += 1.5


def test_out_argument():
    a, b = make(garray, (3, 4), "float64"), make(garray, (3, 4), "float64", start=7)
    out = garray.empty((3, 4))
    r = garray.multiply(a, b, out=out)
    assert r is out
    assert_xp_equal(out, make(numpy, (3, 4), "float64") * make(numpy, (3, 4), "float64", start=7))
    out_t = garray.empty((4, 3)).T
    garray.add(a, 1, out=out_t)
    assert_xp_equal(out_t, make(numpy, (3, 4), "float64") + 1)
    with pytest.raises(ValueError, match="shape"):
        garray.add(a, b, out=garray.empty((4, 3)))
    with pytest.raises(TypeError, match="out"):
        garray.add(a, b, out=numpy.empty((3, 4)))
    out_c = garray.empty((3, 4), dtype="complex128")
    garray.sin(a, out=out_c)
    assert_xp_equal(out_c, numpy.sin(make(numpy, (3, 4), "float64")).astype("complex128"))


def test_bad_input_errors():
    f, i = make(garray, (3,), "float32"), make(garray, (3,), "int32")
    with pytest.raises(TypeError, match="bitwise_and.*float32"):
        garray.bitwise_and(f, f)
    with pytest.raises(TypeError, match="floor.*complex"):
        garray.floor(make(garray, (2,), "complex64"))
    with pytest.raises(ValueError, match=r"\(3,\) \(4,\)"):
        f + garray.ones(4, dtype="float32")
    with pytest.raises(OverflowError, match="300"):
        make(garray, (2,), "int8") + 300
    with pytest.raises(TypeError):
        garray.add(1, 2)
    with pytest.raises(TypeError):
        f + "a"
    z = garray.zeros(3, dtype="int64")
    assert_xp_equal(i // z, numpy.zeros(3, "int64"))       # integer division by zero: 0
    assert_xp_equal(i % z, numpy.zeros(3, "int64"))


def test_where_and_clip():
    n = make(numpy, (3, 4), "float64")
    g = make(garray, (3, 4), "float64")
    assert_xp_equal(garray.where(g > 0, g, -g[0]), numpy.where(n > 0, n, -n[0]))
    assert_xp_equal(garray.where(g > 0, 1.0, g), numpy.where(n > 0, 1.0, n))
    gi, ni = make(garray, (4,), "int16"), make(numpy, (4,), "int16")
    assert_xp_equal(garray.where(gi > 2, gi, garray.zeros(4, dtype="int64")),
                    numpy.where(ni > 2, ni, numpy.zeros(4, "int64")))
    assert_xp_equal(garray.clip(g, -1, 2), numpy.clip(n, -1, 2))
    assert_xp_equal(garray.clip(g, max=0.5), numpy.clip(n, None, 0.5))
    assert_xp_equal(garray.isclose(g, g + 1e-9), numpy.isclose(n, n + 1e-9))
    x = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 1.0])
    assert_xp_equal(garray.nan_to_num(garray.asarray(x)), numpy.nan_to_num(x))


def test_special_values():
    x = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, -1.0])
    g = garray.asarray(x, copy=True)
    for name in ["sign", "floor", "ceil", "trunc", "round", "sqrt", "exp", "log", "signbit",
                 "isnan", "isinf", "isfinite", "abs", "negative"]:
        op = _optable.OPS[name]
        with numpy.errstate(all="ignore"):
            expected = _numpy_func(op)(x)
        got = getattr(garray, name)(g)
        assert got.dtype == expected.dtype
        numpy.testing.assert_array_equal(got.get(), expected, err_msg=name)
        if expected.dtype.kind == "f":   # signed zeros too
            numpy.testing.assert_array_equal(numpy.signbit(got.get()), numpy.signbit(expected),
                                             err_msg=name)
    with numpy.errstate(all="ignore"):
        for name in ["maximum", "minimum", "floor_divide", "remainder", "copysign", "atan2"]:
            op = _optable.OPS[name]
            a, b = x[:, None], x[None, :]
            expected = _numpy_func(op)(a, b)
            if name == "floor_divide":   # Array API table: inf operands -> floor(a / b)
                inf = (numpy.isinf(a) | numpy.isinf(b)) & (b != 0)
                expected = numpy.where(inf, numpy.floor(a / b), expected)
            got = getattr(garray, name)(garray.asarray(a), garray.asarray(b))
            numpy.testing.assert_array_equal(got.get(), expected, err_msg=name)


def test_empty_and_0d():
    for shape in [(0,), (2, 0), ()]:
        g, n = make(garray, shape, "float32"), make(numpy, shape, "float32")
        assert_xp_equal(garray.add(g, g), numpy.asarray(n + n))
        assert_xp_equal(garray.sin(g), numpy.asarray(numpy.sin(n)))


def test_astype_uses_cast_kernels():
    h = make(numpy, (3, 4), "float64")[:, ::-1] * 3.3
    g = garray.asarray(h, copy=True)
    for d in ALL_DTYPES:
        with numpy.errstate(all="ignore"):
            expected = h.astype(d)
        if numpy.dtype(d).kind in "iub":
            h2 = numpy.abs(h)          # avoid C-undefined float -> unsigned conversions
            expected = h2.astype(d)
            got = garray.abs(g).astype(d)
        else:
            got = g.astype(d)
        assert_xp_equal(got, expected)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", ["all", "any"])
def test_all_any(name, dtype):
    n = make(numpy, (3, 4, 2), dtype)
    n = numpy.where(numpy.arange(24).reshape(3, 4, 2) % 3 == 0, numpy.zeros((), dtype), n)
    g = garray.asarray(n, copy=True)
    gf, nf = getattr(garray, name), getattr(numpy, name)
    for axis in [None, 0, 1, -1, (0, 2), ()]:
        for keepdims in (False, True):
            for gx, nx in ((g, n), (g[::-1, 1:], n[::-1, 1:]), (g.T, n.T)):
                assert_xp_equal(gf(gx, axis=axis, keepdims=keepdims),
                                numpy.asarray(nf(nx, axis=axis, keepdims=keepdims)))
    assert_xp_equal(gf(garray.zeros((0, 3), dtype=dtype), axis=0),
                    nf(numpy.zeros((0, 3), dtype=dtype), axis=0))
    with pytest.raises(numpy.exceptions.AxisError):
        gf(g, axis=3)
    with pytest.raises(ValueError, match="repeated"):
        gf(g, axis=(0, 0))
