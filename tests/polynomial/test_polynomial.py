"""NumPy's legacy polynomial API against NumPy: poly, roots, polyint, polyder, polyadd,
polysub, polymul, polydiv, polyval, polyfit and the poly1d class (values, dtypes, shapes,
printing, errors), over every dtype and strided inputs."""

import warnings

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, sample, xp_compare

NUMERIC = [d for d in ALL_DTYPES if d != "bool"]
FLOATS = ["float32", "float64", "complex64", "complex128"]


def _arr(xp, h, strided=False):
    """``h`` (NumPy data) in ``xp``; ``strided`` gives a step-2 view of a larger array."""
    h = numpy.asarray(h)
    if strided:
        big = numpy.zeros((2 * h.shape[0],) + h.shape[1:], h.dtype)
        big[::2] = h
        a = xp.asarray(big) if xp is numpy else garray.asarray(big)
        return a[::2]
    return xp.asarray(h) if xp is numpy else garray.asarray(h)


# ---- evaluation and arithmetic -------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("strided", [False, True])
@xp_compare()
def test_polyval(xp, dtype, strided):
    p = _arr(xp, sample((4,), dtype, small=True), strided)
    x = _arr(xp, sample((3, 5), dtype, start=2, small=True), strided)
    return [xp.polyval(p, x), xp.polyval(p, x[0, 0]), xp.polyval(p[:0], x),
            xp.polyval(p, x[:, :0])]


@for_all_dtypes("pdtype", ["int64", "float32", "float64", "complex128"])
@for_all_dtypes("xdtype", ["int8", "uint16", "float16", "float32", "complex64"])
@xp_compare()
def test_polyval_mixed_dtypes(xp, pdtype, xdtype):
    # each Horner step is y * x + p[i] with p[i] a 0-d array: NumPy's promotion
    p = _arr(xp, sample((3,), pdtype, small=True))
    x = _arr(xp, sample((4,), xdtype, start=1, small=True))
    return [xp.polyval(p, x), xp.polyval([1.5, -2.0], x), xp.polyval(p, 2),
            xp.polyval(p, 0.5), xp.polyval(p, numpy.dtype(xdtype).type(1)),
            xp.polyval(p, numpy.float32(0.5))]


def test_polyval_of_a_poly1d_composes():
    got = garray.polyval(garray.poly1d([1, 2, 3]), garray.poly1d([3, 4]))
    want = numpy.polyval(numpy.poly1d([1, 2, 3]), numpy.poly1d([3, 4]))
    assert isinstance(got, garray.poly1d)
    assert_xp_close(got.coeffs, want.coeffs)


@xp_compare()
def test_polyval_0d_coefficients_raise(xp):
    return xp.polyval(xp.asarray(2.0), xp.asarray([1.0]))


@for_all_dtypes()
@pytest.mark.parametrize("fn", ["polyadd", "polysub", "polymul"])
@pytest.mark.parametrize("lengths", [(3, 5), (5, 3), (4, 4), (1, 1), (0, 3), (3, 0)],
                         ids=str)
@xp_compare()
def test_binary_arithmetic(xp, dtype, fn, lengths):
    a = _arr(xp, sample((lengths[0],), dtype), strided=True)
    b = _arr(xp, sample((lengths[1],), dtype, start=3))
    return getattr(xp, fn)(a, b)


@pytest.mark.parametrize("fn", ["polyadd", "polysub", "polymul"])
@xp_compare()
def test_binary_arithmetic_mixed_and_scalars(xp, fn):
    a = xp.asarray([0, 1, 2], dtype=xp.int16)        # a leading zero (polymul drops it)
    b = xp.asarray([1.5, -2.0], dtype=xp.float32)
    return [getattr(xp, fn)(a, b), getattr(xp, fn)(b, a), getattr(xp, fn)(a, [3]),
            getattr(xp, fn)([1, 2], [3.5, 4, 5])]


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("uv", [([3, 5, 2], [2, 1]), ([1, 0, 0, -1], [1, -1]),
                                ([1, 2], [1, 2, 3]), ([4, 2, 0, 8], [2]),
                                ([1, 3, 3, 1], [1, 1])], ids=str)
@xp_compare()
def test_polydiv(xp, dtype, uv):
    u = xp.asarray(numpy.asarray(uv[0]).astype(dtype))
    v = xp.asarray(numpy.asarray(uv[1]).astype(dtype))
    return list(xp.polydiv(u, v))


@for_all_dtypes("dtype", NUMERIC)
@pytest.mark.parametrize("m", [0, 1, 2, 5])
@xp_compare()
def test_polyder(xp, dtype, m):
    p = _arr(xp, sample((4,), dtype), strided=True)
    return xp.polyder(p, m)


@for_all_dtypes("dtype", NUMERIC)
@pytest.mark.parametrize("m,k", [(1, None), (0, None), (2, None), (2, 3), (3, [1, 2, 3]),
                                 (2, [1.5j, 2])], ids=str)
@xp_compare()
def test_polyint(xp, dtype, m, k):
    p = _arr(xp, sample((3,), dtype), strided=True)
    if isinstance(k, list):
        k = xp.asarray(k)
    return xp.polyint(p, m, k)


@pytest.mark.parametrize("call", [lambda xp: xp.polyint(xp.asarray([1.0, 2]), -1),
                                  lambda xp: xp.polyint(xp.asarray([1.0]), 3,
                                                        xp.asarray([1, 2])),
                                  lambda xp: xp.polyder(xp.asarray([1.0, 2]), -2)])
@xp_compare()
def test_polyint_polyder_errors(xp, call):
    return call(xp)


# ---- roots ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex64",
                                   "complex128", "bool"])
@pytest.mark.parametrize("p", [[1, -3, 2], [0, 0, 1, -6, 11, -6, 0, 0], [2, 0, 0],
                               [5], [0, 0], [1, 0, 1], [1, 2, 3, 4]], ids=str)
@xp_compare(rtol=1e-4, atol=1e-5)
def test_roots(xp, dtype, p):
    r = xp.roots(xp.asarray(numpy.asarray(p).astype(dtype)))
    # eigenvalue order is LAPACK's on both sides; sort to compare as sets
    return xp.sort_complex(r) if r.dtype.kind == "c" else xp.sort(r)


def test_roots_real_when_every_root_is_real():
    assert garray.roots(garray.asarray([1.0, -3, 2])).dtype == numpy.float64
    assert garray.roots(garray.asarray([1.0, 0, 1])).dtype == numpy.complex128
    # complex coefficients keep complex roots even when real (NumPy's)
    assert garray.roots(garray.asarray([1.0 + 0j, -3, 2])).dtype == numpy.complex128


@xp_compare()
def test_roots_of_2d_raises(xp):
    return xp.roots(xp.asarray([[1.0, 2.0]]))


def test_roots_of_a_scalar_is_empty():
    # NumPy's roots(0-d) fails in its __array_function__ dispatcher (a TypeError that
    # names no argument); a constant polynomial has no roots
    assert_xp_close(garray.roots(garray.asarray(3.0)), numpy.roots([3.0]))


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128", "bool"])
@pytest.mark.parametrize("z", [[1, 2, 3], [1j, -1j], [1j, 2], [], [2.5], [[1, 2], [3, 4]],
                               [[1, 2]], [[]]], ids=str)
@xp_compare(rtol=1e-4, atol=1e-5)
def test_poly(xp, dtype, z):
    z = numpy.asarray(z)
    if z.dtype.kind == "c" and numpy.dtype(dtype).kind != "c":
        pytest.skip("complex roots need a complex dtype")
    return xp.poly(xp.asarray(z.astype(dtype)))


def test_poly_and_roots_round_trip():
    r = garray.asarray([-1.0, 0.5, 2.0, 3.0])
    back = garray.sort(garray.roots(garray.poly(r)))
    assert_xp_close(back, numpy.sort(numpy.roots(numpy.poly(r.get()))), rtol=1e-10,
                    atol=1e-10)


# ---- fitting ----------------------------------------------------------------------------

X = numpy.linspace(-1, 2, 25)
Y = 2 * X ** 3 - X + 0.5 + numpy.sin(7 * X) * 0.05


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
@pytest.mark.parametrize("kw", [{}, {"full": True}, {"w": X + 2}, {"cov": True},
                                {"cov": "unscaled"}, {"rcond": 1e-3},
                                {"w": X + 2, "cov": True}], ids=str)
@pytest.mark.parametrize("deg", [0, 1, 3])
@xp_compare(rtol=1e-4, atol=1e-5)
def test_polyfit(xp, dtype, kw, deg):
    x, y = xp.asarray(X.astype(dtype)), xp.asarray(Y.astype(dtype))
    kw = {k: xp.asarray(v) if isinstance(v, numpy.ndarray) else v for k, v in kw.items()}
    return xp.polyfit(x, y, deg, **kw)


@pytest.mark.parametrize("kw", [{}, {"cov": True}, {"full": True}, {"w": X + 1}], ids=str)
@xp_compare(rtol=1e-8, atol=1e-10)
def test_polyfit_2d_y_and_strided(xp, kw):
    x = xp.asarray(numpy.repeat(X, 2))[::2]
    y = xp.asarray(numpy.stack([Y, 2 * Y, -Y], 1))
    kw = {k: xp.asarray(v) if isinstance(v, numpy.ndarray) else v for k, v in kw.items()}
    return xp.polyfit(x, y, 2, **kw)


@xp_compare(rtol=1e-8, atol=1e-10)
def test_polyfit_complex(xp):
    x = xp.asarray(X)
    return xp.polyfit(x, xp.asarray(Y + 1j * X), 2)


@pytest.mark.parametrize("args", [
    ([0.0, 1, 2], [1.0, 2], 1), ([0.0, 1, 2], [1.0, 2, 3], -1), ([[0.0, 1]], [1.0, 2], 1),
    ([], [], 1), ([0.0, 1], [[[1.0]], [[2.0]]], 1), ([0.0, 1, 2], [1.0, 2, 3], 1, None,
                                                     False, [1.0, 2]),
    ([0.0, 1, 2], [1.0, 2, 3], 1, None, False, [[1.0, 2, 3]]),
    ([0.0, 1], [1.0, 2], 1, None, False, None, True)], ids=str)
@xp_compare()
def test_polyfit_errors(xp, args):
    x, y, deg, *rest = args
    rest = [xp.asarray(r) if isinstance(r, list) else r for r in rest]
    return xp.polyfit(xp.asarray(x), xp.asarray(y), deg, *rest)


def test_polyfit_rank_warning():
    x, y = garray.asarray([0.0, 1, 2]), garray.asarray([1.0, 2, 3])
    with pytest.warns(numpy.exceptions.RankWarning, match="poorly conditioned"):
        garray.polyfit(x, y, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c, *_ = garray.polyfit(x, y, 5, full=True)    # full: no warning, as NumPy
    assert c.shape == (6,)


# ---- poly1d ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", NUMERIC)
@xp_compare()
def test_poly1d_arithmetic(xp, dtype):
    p = xp.poly1d(xp.asarray(sample((3,), dtype, start=1)))
    q = xp.poly1d(xp.asarray(sample((2,), dtype, start=4)))
    out = [p.coeffs, (p + q).coeffs, (p - q).coeffs, (p * q).coeffs, (-p).coeffs,
           (+p).coeffs, (p * 2).coeffs, (3 * p).coeffs, (p + 1).coeffs, (1 - p).coeffs,
           (p ** 2).coeffs, (p ** 0).coeffs, p.deriv().coeffs, p.integ().coeffs,
           p.integ(2, 1).coeffs, p(xp.asarray(sample((4,), dtype, small=True)))]
    if numpy.dtype(dtype).kind in "fc":
        out += [(p / 2).coeffs, (2 / q).coeffs, [r.coeffs for r in p / q]]
    return out


@xp_compare()
def test_poly1d_construction_and_access(xp):
    p = xp.poly1d([0, 0, 1, 2, 3])                 # leading zeros dropped
    r = xp.poly1d([1, 2], r=True)
    z = xp.poly1d([0, 0.0])
    return [p.coeffs, p.c, p.coef, p.coefficients, p.order, p.o, len(p), r.coeffs,
            z.coeffs, z.order, p[0], p[2], p[7], p[-1], xp.poly1d(p).coeffs,
            [float(c) for c in p], xp.sort(xp.poly1d([1, -3, 2]).roots),
            xp.sort(xp.poly1d([1, -3, 2]).r), p == xp.poly1d([1, 2, 3]),
            p != xp.poly1d([1, 2, 3]), p == xp.poly1d([1, 2]), p.variable,
            xp.poly1d(p, variable="t").variable]


def test_poly1d_setitem_and_coeffs():
    for xp in (numpy, garray):
        p = xp.poly1d([1.0, 2, 3])
        p[4] = 7          # grows the polynomial
        p[0] = 1.5
        c = p.coeffs
        p.coeffs *= 2     # in place: the same object, so allowed
        with pytest.raises(AttributeError):
            p.coeffs = c[:2]
        with pytest.raises(ValueError):
            p[-1] = 2
        if xp is numpy:
            want = p.coeffs
        else:
            assert_xp_close(p.coeffs, want)


@pytest.mark.parametrize("coeffs", [[1, 2, 3], [1.5, 0, -2.25, 0.0001, 3], [1j, 2 + 3j, 0],
                                    [0, 0], [-1, 0, 0], [7], [1e-5, 123456.0, -1],
                                    list(range(1, 30))], ids=str)
@pytest.mark.parametrize("variable", [None, "z"])
def test_poly1d_str_and_repr(coeffs, variable):
    want = numpy.poly1d(coeffs, variable=variable)
    got = garray.poly1d(garray.asarray(coeffs), variable=variable)
    assert str(got) == str(want)
    assert repr(got) == repr(want)


@pytest.mark.parametrize("call", [lambda xp: xp.poly1d([[1, 2]]),
                                  lambda xp: xp.poly1d([1, 2]) ** -1,
                                  lambda xp: xp.poly1d([1, 2]) ** 1.5,
                                  lambda xp: hash(xp.poly1d([1, 2])),
                                  lambda xp: xp.poly([[1.0, 2.0]])], ids=str)
@xp_compare()
def test_poly1d_errors(xp, call):
    return call(xp)


def test_poly1d_to_numpy_and_back():
    p = garray.poly1d([1.0, 2, 3])
    assert numpy.array_equal(numpy.asarray(p), [1.0, 2, 3])
    assert garray.polyval(p, 2.0).get() == 11.0
    assert numpy.asarray(p, dtype=numpy.float32).dtype == numpy.float32
