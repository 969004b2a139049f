"""Every elementwise op against NumPy: every dtype, every layout (tests/xp.py LAYOUTS).

The op table (garray._tables.ops.OPS) only lists the ops under test (name, arity, NumPy
name).  Every expectation comes from NumPy run on the same inputs: which dtypes an op
accepts (NumPy raises TypeError -> garray must raise TypeError naming the op), the result
dtype and shape, and the values, except for the deliberate differences listed below,
each with its reason: ``DIFFERENCES`` (pairs garray does not implement
yet), integer ``pow`` with negative exponents, ``floor_divide`` with infinities, and the
sign of zero returned by maximum/minimum/fmax/fmin (``ZERO_SIGN_UNSPECIFIED``).
``reference`` and ``check_op`` are shared with the other elementwise test modules
(test_elementwise_mixed, test_elementwise_paths, test_elementwise_props).
"""

import numpy
import pytest

import garray
from garray._tables import ops as _optable
from xp import (ALL_DTYPES, LAYOUTS, UNARY_LAYOUTS, assert_xp_close, expected_exception,
                layout_operands, make, sample, tolerance, xp_compare)
from xp import NARROW_DTYPES, kind as xp_kind

OPS = _optable.OPS
NAMES = sorted(OPS)
KINDS = {"b": "bool", "i": "signed integer", "u": "unsigned integer", "f": "real floating",
         "c": "complex floating"}

# ---- deliberate differences from NumPy --------------------------------------------------
#

# Tested apart, in dedicated tests below:
#  - pow on integers with a negative integer exponent raises ValueError as NumPy does
#    (test_integer_pow_negative_exponent; the general tests use exponents 0..3);
#  - floor_divide with an infinite operand follows the Array API special cases
#    (floor(x1 / x2)); NumPy gives NaN (test_special_values_binary);
#  - which of two equal zeros maximum/minimum/fmax/fmin return is not compared
#    (ZERO_SIGN_UNSPECIFIED, test_special_values_binary).
#
# DIFFERENCES: (op, category of the promoted input dtype) pairs that NumPy accepts and
# garray refuses with a TypeError naming the op: not implemented yet.  The Array API
# restricts many ops to certain dtype categories (exp2 and sinc on real floating dtypes
# only), and garray started from the Array API's categories; NumPy accepts more, and
# garray follows it where the entries below are gone (bool arithmetic computes in int8,
# floor/ceil/trunc of bool are bool, reciprocal of an integer is integer division).
# Each entry is checked: when garray starts accepting the pair, check_op fails and the
# entry must be removed (and then NumPy's result is what garray must give).
# Categories: b bool, i signed integer, u unsigned integer, f real floating, c complex.
DIFFERENCES = {
    ("angle", "b"): "NumPy gives float64 (arctan2(0, x)); garray raises TypeError: not "
                    "implemented yet",
    ("exp2", "c"): "NumPy accepts complex; garray raises TypeError: not implemented yet",
    ("sinc", "c"): "NumPy accepts complex; garray raises TypeError: not implemented yet",
}


def numpy_func(name):
    return getattr(numpy, OPS[name].numpy_name)


def _category(n_args):
    """The category (b, i, u, f, c) of NumPy's promoted dtype of the inputs (scalars weak)."""
    return numpy.result_type(*n_args).kind


def difference(name, n_args):
    """The DIFFERENCES reason for op ``name`` on these NumPy inputs, or None."""
    return DIFFERENCES.get((name, _category(n_args)))


# Ops where garray's float16 is deliberately more accurate than NumPy's: the reference
# is NumPy on the inputs in float32, rounded once to float16 (the op's notes say so).
F16_VIA_FLOAT32 = {
    "sinc": "numpy.sinc is Python code that computes pi * x and the quotient in float16 "
            "steps (off by up to 2e-3 near the integers); garray's kernel rounds once",
}


def reference(name, n_args):
    """NumPy's result for op ``name`` on ``n_args`` (as an ndarray).  NumPy's exception
    propagates."""
    f = numpy_func(name)
    with numpy.errstate(all="ignore"):
        r = f(*n_args)
        if isinstance(r, tuple):        # divmod, frexp, modf: a tuple of results
            return tuple(numpy.asarray(x) for x in r)
        r = numpy.asarray(r)
        if name in F16_VIA_FLOAT32 and r.dtype.name in NARROW_DTYPES:    # and bfloat16
            wide = [a.astype(numpy.float32) if isinstance(a, (numpy.ndarray, numpy.generic))
                    else a for a in n_args]
            r = numpy.asarray(f(*wide)).astype(r.dtype)
    return r


def check_op(name, n_args, g_args, out=None, rtol=None, atol=None):
    """garray.<name>(*g_args) against NumPy on ``n_args`` (same data), DIFFERENCES honoured.

    NumPy raises TypeError -> garray must raise TypeError naming the op; a listed
    difference -> garray must still raise it (else: remove the entry); otherwise garray's
    result must match ``reference``.  With ``out`` (a garray array), the result is
    written there and compared after a NumPy-side cast to out's dtype.
    """
    fn = getattr(garray, name)
    reason = difference(name, n_args)
    try:
        expected = reference(name, n_args)
    except Exception as e:  # noqa: BLE001 - garray must raise the same type
        match = name if isinstance(e, TypeError) else None
        with pytest.raises(expected_exception(e), match=match):
            fn(*g_args)
        if reason:
            pytest.fail(f"stale DIFFERENCES entry {(name, _category(n_args))}: NumPy "
                        f"raises {type(e).__name__} itself")
        return None
    if reason:
        try:
            got = fn(*g_args)
        except TypeError as e:
            assert name in str(e), f"TypeError does not name the op: {e}"
            return None
        pytest.fail(f"{name} on {KINDS[_category(n_args)]} now works (gives {got.dtype}): "
                    f"remove ({name!r}, {_category(n_args)!r}) from DIFFERENCES "
                    f"({reason})")
    kw = {} if out is None else {"out": out}
    got = fn(*g_args, **kw)
    if out is not None:
        assert got is out
        # the tolerance of the dtype the op computes in: a float32 result written into
        # a float64 out keeps float32's precision
        rtol, atol = tolerance(expected.dtype, rtol, atol)
        with numpy.errstate(all="ignore"):
            expected = expected.astype(out.dtype)
    assert_xp_close(got, expected, rtol=rtol, atol=atol,
                    err_msg=f"{name}{tuple(_describe(a) for a in n_args)}")
    return got


def _describe(a):
    if isinstance(a, numpy.ndarray):
        return f"{a.dtype}{list(a.shape)} strides {a.strides}"
    return repr(a)


# Ops whose second operand is an exponent or a shift count: 0..3 for integers, so that
# results never depend on overflow or shift-width rules.
SMALL_SECOND = {"pow", "float_power", "bitwise_left_shift", "bitwise_right_shift"}


def small_operands(name):
    return (1,) if name in SMALL_SECOND else ()


CASES = [(name, dtype, layout) for name in NAMES for dtype in ALL_DTYPES
         for layout in (LAYOUTS if OPS[name].nin == 2 else UNARY_LAYOUTS)]


@pytest.mark.parametrize("name, dtype, layout", CASES)
def test_op_matches_numpy(name, dtype, layout):
    op = OPS[name]
    positions = (1, 0) if layout == "scalar" else (None,)
    for pos in positions:
        n_args, g_args = layout_operands(layout, [dtype] * op.nin, small=small_operands(name),
                                         scalar_pos=pos)
        check_op(name, n_args, g_args)


def test_differences_list_is_current():
    """Every DIFFERENCES entry names an op under test, and NumPy really accepts the pair."""
    for (name, kind), reason in DIFFERENCES.items():
        assert name in OPS, f"DIFFERENCES names {name!r}, which garray no longer has"
        dtype = next(d for d in ALL_DTYPES if numpy.dtype(d).kind == kind)
        n_args, _ = layout_operands("contiguous", [dtype] * OPS[name].nin)
        reference(name, n_args)     # raises if NumPy does not accept it either
        assert "not implemented yet" in reason


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_integer_pow_negative_exponent(dtype):
    """NumPy raises ValueError for a negative integer exponent, in every form: array or
    scalar exponent, one negative element among others, the operator, in place."""
    base = numpy.arange(-3, 4, dtype=dtype)[:, None]
    exp = numpy.array([[2, 0, -1]], dtype=dtype)
    gb, ge = garray.asarray(base, copy=True), garray.asarray(exp, copy=True)
    for f in (lambda b, e: b ** e, lambda b, e: b ** -2, lambda b, e: 2 ** e,
              lambda b, e: b.__ipow__(e[:, 2:]), lambda b, e: b ** numpy.int8(-1)):
        with pytest.raises(ValueError):
            f(base.copy(), exp)
        with pytest.raises(ValueError, match="negative integer powers"):
            f(gb, ge)
    assert_xp_close(gb ** ge[:, :2], base ** exp[:, :2])       # non-negative: computed
    assert_xp_close(gb ** garray.asarray(exp[:, :2].astype("uint8")),
                    base ** exp[:, :2].astype("uint8"))


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32", "float64",
                                   "complex64", "bool"])
@pytest.mark.parametrize("scalar", [2, 2.5, True, 1 + 2j])
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "equal", "less",
                                  "maximum", "pow"])
def test_python_scalars_are_weak(name, dtype, scalar):
    n = sample((2, 3), dtype, small=name == "pow")    # pow: no negative integer exponents
    g = garray.asarray(n, copy=True)
    for n_args, g_args in (((n, scalar), (g, scalar)), ((scalar, n), (scalar, g))):
        check_op(name, n_args, g_args)


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
            assert_xp_close(f(g, g[::-1]), f(n, n[::-1]))
            assert_xp_close(f(gi, gi[:, ::-1]), f(ni, ni[:, ::-1]))
    for f in [(lambda x, y: x & y), (lambda x, y: x | 3), (lambda x, y: x ^ y),
              (lambda x, y: x << 2), (lambda x, y: x >> 1), (lambda x, y: ~x),
              (lambda x, y: 6 & x)]:
        assert_xp_close(f(gi, gi.T.T), f(ni, ni.T.T))


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
    assert_xp_close(g, n)
    gi, ni = make(garray, (4,), "int32"), make(numpy, (4,), "int32")
    gi += gi[::-1]
    ni += ni[::-1]
    assert_xp_close(gi, ni)
    with pytest.raises(TypeError):
        ni += 1.5
    with pytest.raises(TypeError, match="same_kind"):
        gi += 1.5                       # NumPy: UFuncTypeError (a TypeError)


def test_out_argument():
    a, b = make(garray, (3, 4), "float64"), make(garray, (3, 4), "float64", start=7)
    na, nb = make(numpy, (3, 4), "float64"), make(numpy, (3, 4), "float64", start=7)
    out = garray.empty((3, 4))
    r = garray.multiply(a, b, out=out)
    assert r is out
    assert_xp_close(out, na * nb)
    out_t = garray.empty((4, 3)).T
    garray.add(a, 1, out=out_t)
    assert_xp_close(out_t, na + 1)
    with pytest.raises(ValueError):
        numpy.add(na, nb, out=numpy.empty((4, 3)))
    with pytest.raises(ValueError, match="shape"):
        garray.add(a, b, out=garray.empty((4, 3)))
    with pytest.raises(TypeError, match="out"):
        garray.add(a, b, out=numpy.empty((3, 4)))
    out_c = garray.empty((3, 4), dtype="complex128")
    n_out_c = numpy.empty((3, 4), dtype="complex128")
    garray.sin(a, out=out_c)
    assert_xp_close(out_c, numpy.sin(na, out=n_out_c))


def test_bad_input_errors():
    f, i = make(garray, (3,), "float32"), make(garray, (3,), "int32")
    nf = make(numpy, (3,), "float32")
    with pytest.raises(TypeError):
        numpy.bitwise_and(nf, nf)
    with pytest.raises(TypeError, match="bitwise_and.*float32"):
        garray.bitwise_and(f, f)
    with pytest.raises(TypeError):
        numpy.floor(make(numpy, (2,), "complex64"))
    with pytest.raises(TypeError, match="floor.*complex"):
        garray.floor(make(garray, (2,), "complex64"))
    with pytest.raises(ValueError, match=r"\(3,\) \(4,\)"):
        f + garray.ones(4, dtype="float32")
    with pytest.raises(OverflowError):
        make(numpy, (2,), "int8") + 300
    with pytest.raises(OverflowError, match="300"):
        make(garray, (2,), "int8") + 300
    assert_xp_close(garray.add(1, 2.5), numpy.add(1, 2.5))     # scalars: as NumPy
    assert_xp_close(garray.sin(0.5), numpy.sin(0.5))
    with pytest.raises(TypeError):
        f + "a"
    ni, nz = make(numpy, (3,), "int32"), numpy.zeros(3, dtype="int64")
    z = garray.zeros(3, dtype="int64")
    with numpy.errstate(all="ignore"):           # integer division by zero: NumPy's 0
        assert_xp_close(i // z, ni // nz)
        assert_xp_close(i % z, ni % nz)


def test_where_and_clip():
    n = make(numpy, (3, 4), "float64")
    g = make(garray, (3, 4), "float64")
    assert_xp_close(garray.where(g > 0, g, -g[0]), numpy.where(n > 0, n, -n[0]))
    assert_xp_close(garray.where(g > 0, 1.0, g), numpy.where(n > 0, 1.0, n))
    gi, ni = make(garray, (4,), "int16"), make(numpy, (4,), "int16")
    assert_xp_close(garray.where(gi > 2, gi, garray.zeros(4, dtype="int64")),
                    numpy.where(ni > 2, ni, numpy.zeros(4, "int64")))
    assert_xp_close(garray.clip(g, -1, 2), numpy.clip(n, -1, 2))
    assert_xp_close(garray.clip(g, max=0.5), numpy.clip(n, None, 0.5))
    assert_xp_close(garray.isclose(g, g + 1e-9), numpy.isclose(n, n + 1e-9))
    x = numpy.array([numpy.nan, numpy.inf, -numpy.inf, 1.0])
    assert_xp_close(garray.nan_to_num(garray.asarray(x)), numpy.nan_to_num(x))


@pytest.mark.parametrize("a, b", [
    ([numpy.inf, numpy.inf, -numpy.inf, numpy.nan], [-numpy.inf, numpy.inf, 1.0, numpy.nan]),
    (numpy.array([-128, 127, 5], numpy.int8), numpy.array([127, -128, 5], numpy.int8)),
    (numpy.array([0, 2**63 - 1], numpy.int64), numpy.array([2**63 - 1, 2**63 - 1], numpy.int64)),
    (numpy.array([True, False]), numpy.array([1.0, 1e-9])),
    ([1 + 1j, numpy.inf + 0j], [1 + 1.000001j, numpy.inf + 0j])])
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_special_values(a, b, equal_nan):
    """NumPy's isclose: infinities equal only to themselves, integers compared as floats
    (no wrap-around in a - b), NaN equal to NaN only with equal_nan."""
    na, nb = numpy.asarray(a), numpy.asarray(b)
    assert_xp_close(garray.isclose(garray.asarray(na), garray.asarray(nb), equal_nan=equal_nan),
                    numpy.isclose(na, nb, equal_nan=equal_nan))


# Real special values: signed zeros, infinities, NaN, halves, huge, tiny (subnormal in
# float32) and overflowing (exp(88) in float32, 3e9 past int32).
SPECIAL = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1.0, -1.0, 0.5, -2.5,
                       1e30, -3e38, 1e-40, 88.0, -100.0, 7.0, 3e9])
# Complex: NaN and infinity in either part, signed zeros, ordinary numbers, and parts
# whose products overflow.
SPECIAL_COMPLEX = numpy.array([complex(r, i) for r, i in [
    (0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (numpy.nan, 0.0), (0.0, numpy.nan),
    (numpy.nan, numpy.nan), (numpy.inf, 0.0), (-numpy.inf, 1.0), (1.0, numpy.inf),
    (1.0, -numpy.inf), (numpy.inf, numpy.nan), (1.0, 1.0), (-2.5, 0.5), (0.0, -100.0),
    (-1e30, -1e30), (3e9, 0.0)]])
SPECIAL_DTYPES = ["float32", "float64", "complex64", "complex128"]


def _special(dtype):
    return (SPECIAL_COMPLEX if dtype.startswith("complex") else SPECIAL).astype(dtype)


# Which of two equal values maximum/minimum/fmax/fmin return (0.0 or -0.0) is unspecified
# (Array API), and NumPy's own float32 and float64 loops differ: signs not compared.
ZERO_SIGN_UNSPECIFIED = {"maximum", "minimum", "fmax", "fmin"}


def _check_signs(name, got, n_args):
    """Real results: the sign bits (of zeros and infinities) too, where not NaN."""
    if isinstance(got, tuple):      # two outputs: each against NumPy's
        expected = reference(name, n_args)
        for g, e in zip(got, expected):
            if xp_kind(g.dtype) == "f":
                numbers = ~numpy.isnan(e)
                numpy.testing.assert_array_equal(numpy.signbit(g.get()[numbers]),
                                                 numpy.signbit(e[numbers]),
                                                 err_msg=f"{name}: signs")
        return
    if got is not None and xp_kind(got.dtype) == "f" and name not in ZERO_SIGN_UNSPECIFIED:
        expected = reference(name, n_args)
        numbers = ~numpy.isnan(expected)
        numpy.testing.assert_array_equal(numpy.signbit(got.get()[numbers]),
                                         numpy.signbit(expected[numbers]),
                                         err_msg=f"{name}: signs")


@pytest.mark.parametrize("dtype", SPECIAL_DTYPES)
@pytest.mark.parametrize("name", [n for n in NAMES if OPS[n].nin == 1])
def test_special_values_unary(name, dtype):
    x = _special(dtype)
    if name == "expm1" and dtype.startswith("complex"):
        # Non-finite input follows the Array API's special cases (those of exp(x) - 1);
        # NumPy differs there (expm1(inf+0j) is inf+nanj).  Finite input: NumPy's value.
        with numpy.errstate(all="ignore"):
            finite = numpy.isfinite(x)
            special = numpy.where(x.imag == 0, numpy.expm1(x.real) + 1j * x.imag,
                                  numpy.exp(x) - 1)
            expected = numpy.where(finite, numpy.expm1(x), special).astype(x.dtype)
        assert_xp_close(garray.expm1(garray.asarray(x, copy=True)), expected)
        return
    _check_signs(name, check_op(name, [x], [garray.asarray(x, copy=True)]), [x])


@pytest.mark.parametrize("dtype", SPECIAL_DTYPES)
@pytest.mark.parametrize("name", [n for n in NAMES if OPS[n].nin == 2])
def test_special_values_binary(name, dtype):
    """Every pair of special values (an outer product by broadcasting)."""
    x = _special(dtype)
    a, b = x[:, None], x[None, :]
    ga, gb = garray.asarray(a, copy=True), garray.asarray(b, copy=True)
    if name != "floor_divide" or dtype.startswith("complex"):
        _check_signs(name, check_op(name, [a, b], [ga, gb]), [a, b])
        return
    # floor_divide: the Array API's special cases where an operand is infinite
    # (floor(x1 / x2)); NumPy gives NaN there.  Elsewhere NumPy's value.
    with numpy.errstate(all="ignore"):
        expected = numpy.floor_divide(a, b)
        inf = (numpy.isinf(a) | numpy.isinf(b)) & (b != 0)
        expected = numpy.where(inf, numpy.floor(a / b), expected)
    assert_xp_close(garray.floor_divide(ga, gb), expected)


# Points on the branch cuts of the complex inverse functions, with either signed zero:
# the sign of the zero picks the side (C99 Annex G, which NumPy follows).
BRANCH_CUTS = numpy.array([complex(r, i) for r, i in [
    (2.0, 0.0), (2.0, -0.0), (-2.0, 0.0), (-2.0, -0.0), (0.0, 2.0), (-0.0, 2.0),
    (0.0, -2.0), (-0.0, -2.0), (-0.5, 0.0), (-0.5, -0.0), (0.5, 0.0), (0.5, -0.0)]])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", ["sqrt", "log", "log2", "log10", "log1p", "acos", "asin",
                                  "atan", "acosh", "asinh", "atanh"])
def test_complex_branch_cuts(name, dtype):
    x = BRANCH_CUTS.astype(dtype)
    check_op(name, [x], [garray.asarray(x, copy=True)])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_out_casting_is_same_kind(dtype):
    """``out=`` of every dtype for a result of ``dtype``: garray accepts exactly the
    casts NumPy's ufuncs accept (casting='same_kind'), with NumPy's values."""
    h = sample((2, 3), dtype)
    g = garray.asarray(h, copy=True)
    failures = []
    for out_dtype in ALL_DTYPES:
        n_out = numpy.zeros((2, 3), out_dtype)
        g_out = garray.zeros((2, 3), dtype=out_dtype)
        try:
            with numpy.errstate(all="ignore"):
                numpy.add(h, h, out=n_out)
        except TypeError:
            try:
                garray.add(g, g, out=g_out)
                failures.append(f"add({dtype}) into out {out_dtype}: NumPy raises "
                                f"TypeError (same_kind), garray accepts")
            except TypeError as e:
                assert "add" in str(e)
            continue
        try:
            garray.add(g, g, out=g_out)
        except TypeError as e:
            failures.append(f"add({dtype}) into out {out_dtype}: NumPy accepts, "
                            f"garray raises {e}")
            continue
        assert_xp_close(g_out, n_out, err_msg=f"add({dtype}) into out {out_dtype}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d[0] in "iu"])
def test_compare_with_out_of_range_python_int(dtype):
    """NumPy compares an integer array with any Python int exactly (NEP 50 exempts
    comparisons from the out-of-bounds OverflowError); arithmetic still raises."""
    info = numpy.iinfo(dtype)
    h = sample((2, 3), dtype)
    g = garray.asarray(h, copy=True)
    failures = []
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        for s in (info.min - 1, info.max + 1, -2**64, 2**64):
            for n_args, g_args in (([h, s], [g, s]), ([s, h], [s, g])):
                try:
                    check_op(name, n_args, g_args)
                except (AssertionError, pytest.fail.Exception, OverflowError) as e:
                    failures.append(f"{name}({', '.join(_describe(a) for a in n_args)}): "
                                    f"{type(e).__name__}: {str(e).splitlines()[0]}")
    with pytest.raises(OverflowError):
        garray.add(g, info.max + 1)
    assert not failures, "\n".join(failures)


def test_empty_and_0d():
    for shape in [(0,), (2, 0), ()]:
        g, n = make(garray, shape, "float32"), make(numpy, shape, "float32")
        assert_xp_close(garray.add(g, g), numpy.asarray(n + n))
        assert_xp_close(garray.sin(g), numpy.asarray(numpy.sin(n)))


def test_astype_uses_cast_kernels():
    h = make(numpy, (3, 4), "float64")[:, ::-1] * 3.3
    g = garray.asarray(h, copy=True)
    for d in ALL_DTYPES:
        if numpy.dtype(d).kind in "iub":
            h2 = numpy.abs(h)          # avoid C-undefined float -> unsigned conversions
            expected = h2.astype(d)
            got = garray.abs(g).astype(d)
        else:
            expected = h.astype(d)
            got = g.astype(d)
        assert_xp_close(got, expected)


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
                assert_xp_close(gf(gx, axis=axis, keepdims=keepdims),
                                numpy.asarray(nf(nx, axis=axis, keepdims=keepdims)))
    assert_xp_close(gf(garray.zeros((0, 3), dtype=dtype), axis=0),
                    nf(numpy.zeros((0, 3), dtype=dtype), axis=0))
    with pytest.raises(numpy.exceptions.AxisError):
        gf(g, axis=3)
    with pytest.raises(ValueError, match="repeated"):
        gf(g, axis=(0, 0))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint64"])
@xp_compare()
def test_gcd_lcm_at_the_minimum(xp, dtype):
    # |min| does not fit the type: NumPy takes the magnitudes wider, so gcd(5, -128) is 1
    # for int8 (found by tests/elementwise/test_elementwise_props.py on the stub CUDA device).
    info = numpy.iinfo(dtype)
    neg = -6 if info.min < 0 else 6
    a = xp.asarray([5, info.min, info.min, 0, 12, info.max, neg], dtype=dtype)
    b = xp.asarray([info.min, 5, info.min, info.min, 18, 3, 4], dtype=dtype)
    return xp.gcd(a, b), xp.gcd(b[::-1], a[::-1])


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16"])
@xp_compare()
def test_lcm_overflow(xp, dtype):
    # lcm past the type's range: NumPy takes 8/16-bit magnitudes in C int before cutting
    # to the type (lcm(8, 17) is -120 in int8), wider ones after the product wraps
    # (found by tests/elementwise/test_elementwise_props.py: int8 lcm of [8, 17] and [17, 8])
    info = numpy.iinfo(dtype)
    big = int(numpy.sqrt(float(info.max))) + 1
    vals = [8, 17, 16, big, big + 2, info.max, 3, -7 if info.min < 0 else 7]
    a = xp.asarray(vals, dtype=dtype)
    b = xp.asarray(vals[::-1], dtype=dtype)
    return xp.lcm(a, b), xp.lcm(b, a), xp.lcm(a, a[::-1])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "int64", "uint16",
                                   "complex64", "complex128"])
@pytest.mark.parametrize("e", [2, 2.0, 0.5, numpy.float64(0.5), numpy.float32(2), -1, -1.0])
@pytest.mark.parametrize("form", ["operator", "ufunc", "ufunc-out"])
def test_power_with_the_scalar_exponents_numpy_computes_apart(dtype, e, form):
    # x ** 2 is x * x and, on a real float loop, x ** 0.5 is sqrt (NumPy's values at
    # -0.0 and -inf: -0.0 and nan, where pow gives +0 and inf) and x ** -1 is 1 / x;
    # complex ** 0.5 stays pow, as numpy.power (NumPy's operator alone takes csqrt there)
    if numpy.dtype(dtype).kind in "iu" and e < 0:
        pytest.skip("negative integer powers raise: test_integer_pow_negative_exponent")
    if numpy.dtype(dtype).kind in "iu":
        h = numpy.array([0, 1, 2, 3, 7, 100], dtype=dtype)
    else:
        h = numpy.array([-0.0, 0.0, -numpy.inf, numpy.inf, numpy.nan, -2.0, 3.0, 1e-30],
                        dtype=dtype)
    if numpy.dtype(dtype).kind == "c" and form == "operator" and e in (0.5, -1):
        pytest.skip("NumPy's operator takes csqrt / reciprocal for complex ** 0.5 / -1 "
                    "(at infinities they differ), numpy.power pow; garray's operator is "
                    "numpy.power (documented)")
    g = garray.asarray(h)
    with numpy.errstate(all="ignore"):
        if form == "operator":
            got, want = g ** e, h ** e
        elif form == "ufunc":
            got, want = garray.power(g, e), numpy.power(h, e)
        else:
            want = numpy.power(h, e)
            got = garray.empty(want.shape, dtype=want.dtype)
            assert garray.power(g, e, out=got) is got
    assert_xp_close(got, want)
    if xp_kind(want.dtype) == "f":
        numpy.testing.assert_array_equal(numpy.signbit(got.get()), numpy.signbit(want))
