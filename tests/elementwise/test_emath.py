"""garray.emath against numpy.emath (NumPy 2's numpy/lib/_scimath_impl.py): values and
result dtypes on every dtype, with and without elements outside the real domain (the
whole array goes complex: complex64 for float32/int8/int16/uint8/uint16, complex128 for
the other real dtypes), NaN, infinities, -0.0, empty, 0-d, strided and Python-scalar
input (garray gives a 0-d array where NumPy gives a scalar)."""

import warnings

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, sample, xp_compare

UNARY = ("sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh")
DOMAIN_1 = ("arccos", "arcsin", "arctanh")        # real for |x| <= 1


@pytest.fixture(autouse=True)
def _quiet():
    # NumPy warns for log(0), arctanh(1) ...; the comparison is of values
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _on(xp, h):
    return h if xp is numpy else garray.asarray(h)


def _inside(name, dtype):
    """NumPy data on which ``name`` stays real."""
    dtype = numpy.dtype(dtype)
    if name in DOMAIN_1:
        if dtype.kind in "iu":
            v = [0, 1, 1, 0] if dtype.kind == "u" else [-1, 0, 1, 0]
        elif dtype.kind == "b":
            v = [True, False, True, False]
        else:
            v = [-1.0, -0.5, 0.25, 0.75]
        return numpy.asarray(v * 3).reshape(3, 4).astype(dtype)
    h = sample((3, 4), dtype)
    if dtype.kind in "if":
        h = abs(h)
    return h


def _outside(name, dtype):
    """NumPy data with elements outside ``name``'s real domain (for signed and float
    dtypes; unsigned ones only for |x| > 1); mixed with in-domain ones."""
    dtype = numpy.dtype(dtype)
    if name in DOMAIN_1:
        if dtype.kind == "u":
            v = [0, 1, 2, 7]
        elif dtype.kind == "i":
            v = [-3, 0, 1, 2]
        else:
            v = [-2.5, -0.5, 0.25, 1.5]
        return numpy.asarray(v * 3).reshape(3, 4).astype(dtype)
    return sample((3, 4), dtype)      # signed in [-8, 8], floats in [-4, 4]


@for_all_dtypes()
@pytest.mark.parametrize("name", UNARY)
@xp_compare()
def test_unary_inside_domain(xp, name, dtype):
    return getattr(xp.emath, name)(_on(xp, _inside(name, dtype)))


@for_all_dtypes()
@pytest.mark.parametrize("name", UNARY)
@xp_compare()
def test_unary_outside_domain(xp, name, dtype):
    return getattr(xp.emath, name)(_on(xp, _outside(name, dtype)))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64", "float16", "float32", "float64"])
@pytest.mark.parametrize("name", UNARY)
def test_result_dtype_rule(name, dtype):
    """The documented conversion: float32/int8/int16/uint8/uint16 to complex64, the
    other real dtypes to complex128, when any element needs it."""
    h = _outside(name, dtype)
    r = getattr(garray.emath, name)(garray.asarray(h))
    if numpy.dtype(dtype).kind == "u" and name not in DOMAIN_1:
        assert r.dtype.kind == "f"
    else:
        want = "complex64" if dtype in ("float32", "int8", "int16", "uint8",
                                        "uint16") else "complex128"
        assert r.dtype == want
    assert r.dtype == getattr(numpy.emath, name)(h).dtype


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("vals", [[numpy.nan, 0.5], [numpy.nan, -0.5], [numpy.nan, -2.0],
                                  [-0.0, 0.0], [numpy.inf, 0.5], [-numpy.inf, 0.5],
                                  [1.0, -1.0], [0.0, 1.0]],
                         ids=["nan", "nan-neg", "nan-neg2", "signed-zero", "inf", "-inf",
                              "one", "zero"])
@xp_compare()
def test_unary_special_values(xp, name, dtype, vals):
    return getattr(xp.emath, name)(_on(xp, numpy.asarray(vals, dtype=dtype)))


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "complex64"])
@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("vals", [[complex(numpy.nan, 0), 2 + 0j], [-1 + 0j, 0.5 - 0j],
                                  [-2 + 0j, -3 + 1j], [complex(0, numpy.inf), 1j]],
                         ids=["nan", "neg-real", "neg-mixed", "inf-imag"])
@xp_compare()
def test_unary_complex_input(xp, name, dtype, vals):
    if numpy.dtype(dtype).kind == "f":
        vals = [v.real for v in vals]
    return getattr(xp.emath, name)(_on(xp, numpy.asarray(vals).astype(dtype)))


@for_all_dtypes()
@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("layout", ["empty", "0d", "0d-out", "strided"])
@xp_compare()
def test_unary_layouts(xp, name, dtype, layout):
    if layout == "empty":
        a = _on(xp, sample((2, 0), dtype))
    elif layout == "0d":
        a = _on(xp, numpy.asarray(_inside(name, dtype)[1, 2]))
    elif layout == "0d-out":
        a = _on(xp, numpy.asarray(_outside(name, dtype)[0, 0]))
    else:
        a = _on(xp, sample((4, 8), dtype))[::-1, ::3]
    return getattr(xp.emath, name)(a)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("x", [4, -4, 0, 2.25, -2.25, -0.0, 0.5, -0.5, 3, True, False,
                               2 - 3j, -1 + 0j, numpy.float32(-2.0), numpy.int8(-3),
                               numpy.uint8(5), numpy.float16(-0.5)],
                         ids=str)
@xp_compare()
def test_unary_python_and_numpy_scalars(xp, name, x):
    """NumPy returns a NumPy scalar, garray a 0-d array of the same dtype."""
    return getattr(xp.emath, name)(x)


@pytest.mark.parametrize("name", UNARY)
def test_scalar_input_gives_a_0d_array(name):
    r = getattr(garray.emath, name)(-4)
    assert isinstance(r, garray.ndarray) and r.shape == ()
    assert r.dtype == numpy.complex128


def test_int8_min_arccos_stays_real():
    """NumPy's test is ``abs(x) > 1``, and abs(int8 -128) wraps to -128: no conversion."""
    h = numpy.asarray([-128, 0], dtype="int8")
    assert_xp_close(garray.emath.arccos(garray.asarray(h)), numpy.emath.arccos(h))
    assert garray.emath.arccos(garray.asarray(h)).dtype == numpy.float16


@pytest.mark.parametrize("name", UNARY)
@xp_compare()
def test_lists(xp, name):
    return getattr(xp.emath, name)([[-1, 2], [3, -0.5]])


# ---- logn ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, -2, 10.0, 0.5, -0.5, 2 + 1j, numpy.float32(3),
                               "arr-int8", "arr-f32-neg", "arr-u8"], ids=str)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@xp_compare()
def test_logn(xp, n, dtype):
    if isinstance(n, str):
        n = {"arr-int8": numpy.asarray([2, 3, 4, 5], dtype="int8"),
             "arr-f32-neg": numpy.asarray([2, -3, 4, 0.5], dtype="float32"),
             "arr-u8": numpy.asarray([2, 3, 4, 5], dtype="uint8")}[n]
        n = _on(xp, n)
    x = _on(xp, sample((3, 4), dtype, 1))
    return xp.emath.logn(n, x)


@xp_compare()
def test_logn_scalars_and_0d(xp):
    return [xp.emath.logn(2, 8), xp.emath.logn(-2, 8), xp.emath.logn(2, -8.0),
            xp.emath.logn(xp.asarray(3.0, dtype="float32"), xp.asarray(9.0, dtype="float32")),
            xp.emath.logn(2, xp.asarray([], dtype="float32"))]


# ---- power --------------------------------------------------------------------------

_EXPONENTS = [2, -1, 0, 0.5, -0.5, 2.0, 1 + 1j, True, numpy.float32(0.5), numpy.int8(-2),
              "arr-int", "arr-int-neg", "arr-u8", "arr-f16", "arr-f32-neg"]


def _exponent(xp, p):
    if not isinstance(p, str):
        return p
    h = {"arr-int": numpy.asarray([0, 1, 2, 3], dtype="int64"),
         "arr-int-neg": numpy.asarray([0, -1, 2, -2], dtype="int16"),
         "arr-u8": numpy.asarray([0, 1, 2, 3], dtype="uint8"),
         "arr-f16": numpy.asarray([0.5, 1, 2, 1.5], dtype="float16"),
         "arr-f32-neg": numpy.asarray([-0.5, 1, 2, -1.5], dtype="float32")}[p]
    return _on(xp, h)


@pytest.mark.parametrize("p", _EXPONENTS, ids=str)
@for_all_dtypes()
@xp_compare()
def test_power(xp, dtype, p):
    x = sample((3, 4), dtype, small=True)      # non-negative
    return xp.emath.power(_on(xp, x), _exponent(xp, p))


@pytest.mark.parametrize("p", _EXPONENTS, ids=str)
@for_all_dtypes()
@xp_compare()
def test_power_negative_base(xp, dtype, p):
    x = sample((3, 4), dtype)                  # negative elements where signed
    if numpy.dtype(dtype).kind in "iu" and not isinstance(p, (float, complex, str)) \
            and not isinstance(p, numpy.floating):
        x = numpy.clip(x, -3, 3).astype(dtype)  # small integer powers do not overflow
    return xp.emath.power(_on(xp, x), _exponent(xp, p))


@xp_compare()
def test_power_scalars(xp):
    return [xp.emath.power(-2, 2), xp.emath.power(2, -1), xp.emath.power(-8, 1 / 3),
            xp.emath.power(2, 3), xp.emath.power(True, True), xp.emath.power(-2.0, 0.5),
            xp.emath.power(xp.asarray([True, False]), xp.asarray([True, True])),
            xp.emath.power(xp.asarray([], dtype="int8"), -1),
            xp.emath.power(xp.asarray([-0.0, numpy.nan, numpy.inf, -numpy.inf]), 2.0),
            xp.emath.power(xp.asarray([numpy.nan, -1.0]), 0.5),
            xp.emath.power(xp.asarray([2, 4], dtype="float32"), 2)]


def test_power_documented_rules():
    # a negative base goes complex even for an integer power
    assert garray.emath.power(garray.asarray([-2, 2]), 2).dtype == numpy.complex128
    # a negative integer exponent becomes float64
    r = garray.emath.power(garray.asarray([2, 4], dtype="int8"), garray.asarray([-1, 1]))
    assert r.dtype == numpy.float64
    numpy.testing.assert_array_equal(r.get(), [0.5, 4.0])
    # a Python scalar is a 0-d array (strong), as NumPy's asarray makes it
    assert garray.emath.power(garray.asarray([2.0], dtype="float32"), 2).dtype == \
        numpy.float64


# ---- arguments, devices -------------------------------------------------------------


@pytest.mark.parametrize("name", UNARY)
def test_numpy_array_is_refused(name):
    with pytest.raises(TypeError, match=r"expected a garray\.ndarray.*garray\.asarray"):
        getattr(garray.emath, name)(numpy.ones(3))


def test_numpy_array_is_refused_binary():
    for call in (lambda: garray.emath.logn(numpy.ones(2), garray.ones(2)),
                 lambda: garray.emath.logn(2, numpy.ones(2)),
                 lambda: garray.emath.power(numpy.ones(2), 2),
                 lambda: garray.emath.power(garray.ones(2), numpy.ones(2))):
        with pytest.raises(TypeError, match="garray.asarray"):
            call()


@xp_compare()
def test_bad_input(xp):
    return xp.emath.sqrt("abc")


def test_module_names():
    assert sorted(garray.emath.__all__) == sorted(numpy.emath.__all__)
    for name in garray.emath.__all__:
        assert callable(getattr(garray.emath, name))


def test_result_stays_on_the_input_device():
    a = garray.asarray([-4.0, 4.0])
    for f in (garray.emath.sqrt, garray.emath.log, garray.emath.arccos):
        assert f(a).device == a.device
    assert garray.emath.power(a, 0.5).device == a.device
