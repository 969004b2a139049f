"""around (round to decimals), fix, real_if_close and trapezoid against NumPy, on every
dtype, non-contiguous, empty and 0-d inputs; the Array API's special cases of complex tanh
and tan where NumPy (glibc's ctanh) differs."""

import numpy
import pytest

import garray
from xp import assert_xp_close, for_all_dtypes, make, sample, xp_compare
from xp import kind as xp_kind


def _data(xp, dtype, layout):
    h = {"c": sample((3, 4), dtype), "t": sample((4, 3), dtype),
         "0d": sample((), dtype, 5), "empty": sample((2, 0), dtype)}[layout]
    if xp_kind(h.dtype) in "fc" and h.size:
        h = h * 1.37                     # digits past the decimal point
    a = h if xp is numpy else garray.asarray(h)
    return a.T if layout == "t" else a


LAYOUTS = ("c", "t", "0d", "empty")


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("decimals", [0, 1, 2, -1])
@xp_compare()
def test_around(xp, dtype, layout, decimals):
    if numpy.dtype(dtype).kind == "b":
        return None              # NumPy: float16 (garray has none), or a casting error
    a = _data(xp, dtype, layout)
    return xp.around(a, decimals)


def test_around_bool():
    """NumPy: float16 at 0 decimals (its round loop for bool); other decimals cannot cast
    back to bool."""
    with pytest.raises(TypeError, match="decimals"):
        garray.around(garray.asarray([True]), 1)
    assert_xp_close(garray.around(garray.asarray([True, False])),
                    numpy.around(numpy.array([True, False])))
    with pytest.raises(TypeError, match="same_kind"):
        garray.round(garray.asarray([True]), out=garray.zeros(1, dtype=bool))


@xp_compare()
def test_around_values_and_out(xp):
    a = xp.asarray([1.25, 2.675, -0.5, 1234.5, 15.0, 25.0])
    out = xp.empty(6)
    r = xp.around(a, 1, out)
    assert r is out
    return [out, xp.around(a, -1), xp.around(a.astype("float32"), -2),
            xp.around(xp.asarray([15, 25, 149, -15]), -1),
            xp.around(xp.asarray([15, 25], "uint8"), -1), xp.around(xp.asarray([1 + 2.55j]), 1)]


@xp_compare()
def test_around_bad_decimals(xp):
    return xp.around(xp.asarray([1.5]), 1.5)


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_fix(xp, dtype, layout):
    if numpy.dtype(dtype).kind == "c":
        return None
    return xp.fix(_data(xp, dtype, layout))


@xp_compare()
def test_fix_out(xp):
    a = xp.asarray([-1.5, 2.5, -0.2])
    out = xp.zeros(3)
    assert xp.fix(a, out) is out
    return out


@pytest.mark.parametrize("case", ["close", "far", "real", "abs-tol", "f32", "empty"])
@xp_compare()
def test_real_if_close(xp, case):
    if case == "close":
        return xp.real_if_close(xp.asarray([1 + 1e-16j, 2 - 3e-15j]))
    if case == "far":
        return xp.real_if_close(xp.asarray([1 + 1e-3j]))
    if case == "real":
        return xp.real_if_close(make(xp, (2, 3), "int16"))
    if case == "abs-tol":
        return xp.real_if_close(xp.asarray([1 + 1e-3j]), tol=0.01)
    if case == "f32":
        return xp.real_if_close(xp.asarray([1 + 1e-6j], "complex64"))
    return xp.real_if_close(xp.zeros((0, 2), "complex128"))


@for_all_dtypes()
@pytest.mark.parametrize("axis", [-1, 0, 1])
@xp_compare()
def test_trapezoid(xp, dtype, axis):
    if numpy.dtype(dtype).kind == "b":
        return None
    y = make(xp, (3, 5), dtype)[::-1]
    x1 = xp.asarray([0.0, 1.0, 3.0, 3.5, 6.0][:y.shape[axis]])
    return [xp.trapezoid(y, axis=axis), xp.trapezoid(y, dx=0.5, axis=axis),
            xp.trapezoid(y, x1, axis=axis), xp.trapezoid(y, make(xp, (3, 5), "float64"),
                                                         axis=axis)]


@xp_compare()
def test_trapezoid_edges(xp):
    return [xp.trapezoid(xp.asarray([1, 2, 3])), xp.trapezoid(xp.asarray([2.5])),
            xp.trapezoid(xp.zeros((2, 0))), xp.trapezoid([1.0, 2.0], [0.0, 3.0])]


@pytest.mark.parametrize("axis", [2, -3])
@xp_compare()
def test_trapezoid_bad_axis(xp, axis):
    return xp.trapezoid(make(xp, (2, 3), "float64"), axis=axis)


# ---- the ndarray methods round, clip, conj, conjugate, dumps, dump, tofile ------------


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_round_clip_conj_methods(xp, dtype, layout):
    a = _data(xp, dtype, layout)
    out = [a.conj(), a.conjugate()]
    if xp_kind(a.dtype) != "b":
        out += [a.round(), a.round(1)]
    if xp_kind(a.dtype) not in "bc":
        clipped = [a.clip(1, 3), a.clip(None, 2), a.clip(min=0)]
        if xp is numpy and garray._dtypes.is_ml_format(a.dtype):   # NumPy's clip of
            clipped = [c.astype(a.dtype) for c in clipped]   # bfloat16 by ints: float32
        out += clipped
    return out


@xp_compare()
def test_method_out_arguments(xp):
    a = xp.asarray([-1.25, 2.5, 7.0])
    o1, o2 = xp.empty(3), xp.empty(3)
    assert a.round(1, o1) is o1 and a.clip(0, 3, o2) is o2
    return [o1, o2]


def test_dumps_dump_tofile(tmp_path):
    g = make(garray, (3, 4), "float32")[:, ::2]
    n = make(numpy, (3, 4), "float32")[:, ::2]
    import pickle
    assert pickle.loads(g.dumps()).tolist() == n.tolist()
    g.dump(tmp_path / "g.pkl")
    with open(tmp_path / "g.pkl", "rb") as f:
        assert pickle.load(f).tolist() == n.tolist()
    g.tofile(tmp_path / "g.bin")
    n.tofile(tmp_path / "n.bin")
    assert (tmp_path / "g.bin").read_bytes() == (tmp_path / "n.bin").read_bytes()
    g.tofile(tmp_path / "g.txt", sep=",", format="%.2f")
    n.tofile(tmp_path / "n.txt", sep=",", format="%.2f")
    assert (tmp_path / "g.txt").read_text() == (tmp_path / "n.txt").read_text()


# ---- unwrap ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int16", "int64", "uint8", "float32", "float64"])
@pytest.mark.parametrize("kwargs", [{}, {"discont": 4}, {"period": 6}, {"period": 7},
                                    {"axis": 0}], ids=str)
@xp_compare()
def test_unwrap(xp, dtype, kwargs):
    h = numpy.array([[0, 3, 7, 1, 12, 5], [2, 9, 4, 4, 0, 11]]).astype(dtype)
    if numpy.dtype(dtype).kind == "f":
        h = h * 0.9
    a = h if xp is numpy else garray.asarray(h)
    return [xp.unwrap(a, **kwargs), xp.unwrap(a[:, ::-2], **kwargs),
            xp.unwrap(a[:, :1], **kwargs)]


@xp_compare()
def test_unwrap_edge_and_errors(xp):
    out = [xp.unwrap(xp.asarray([0.0, numpy.pi, 2 * numpy.pi, -numpy.pi])),
           xp.unwrap(xp.zeros((2, 0)))]
    xp.unwrap(xp.asarray(1.5))
    return out


# ---- gradient ------------------------------------------------------------------------------


@for_all_dtypes(dtypes=("int16", "uint8", "int64", "float32", "float64", "complex64",
                        "complex128", "bool"))
@pytest.mark.parametrize("edge_order", [1, 2])
@xp_compare()
def test_gradient(xp, dtype, edge_order):
    f = make(xp, (4, 5), dtype)
    if numpy.dtype(dtype).kind in "fc":
        f = f * f                         # not linear: the edge formulas matter
    out = [xp.gradient(f, edge_order=edge_order),
           xp.gradient(f[::-1, ::2], 0.5, edge_order=edge_order),
           xp.gradient(f, 2.0, 3, edge_order=edge_order),
           xp.gradient(f, axis=1, edge_order=edge_order),
           xp.gradient(f, axis=(-1, 0), edge_order=edge_order)]
    return out


@pytest.mark.parametrize("edge_order", [1, 2])
@xp_compare()
def test_gradient_coordinates(xp, edge_order):
    f = xp.asarray([[1.0, 2.0, 4.0, 7.0, 11.0], [0.5, -1.0, 3.0, 3.5, 2.0]])
    x = xp.asarray([0.0, 1.0, 1.5, 3.5, 4.0])
    uniform = xp.asarray([0, 2, 4, 6, 8])
    return [xp.gradient(f, xp.asarray([0.0, 2.0]), x, edge_order=edge_order),
            xp.gradient(f, [1, 3], uniform, edge_order=edge_order),
            xp.gradient(f, x, axis=1, edge_order=edge_order),
            xp.gradient(f.astype("float32"), 1.0, x, edge_order=edge_order),
            xp.gradient(xp.asarray([1.0, 2.0, 4.0, 7.0]), edge_order=edge_order)]


@pytest.mark.parametrize("case", ["small", "edge3", "args", "2d-coords", "coord-len",
                                  "axis", "dup-axis"])
@xp_compare()
def test_gradient_errors(xp, case):
    f = make(xp, (3, 4), "float64")
    if case == "small":
        return xp.gradient(xp.asarray([1.0, 2.0]), edge_order=2)
    if case == "edge3":
        return xp.gradient(f, edge_order=3)
    if case == "args":
        return xp.gradient(f, 1.0, 2.0, 3.0)
    if case == "2d-coords":
        return xp.gradient(f, f, f)
    if case == "coord-len":
        return xp.gradient(f, xp.asarray([0.0, 1.0]), 1.0)
    if case == "axis":
        return xp.gradient(f, axis=2)
    return xp.gradient(f, axis=(0, 0))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_tanh_of_infinite_real_part_takes_the_sign_of_y(dtype):
    """Array API: tanh(+inf + iy) is 1 + 0j for finite y > 0, and conjugate-symmetric;
    NumPy (glibc's ctanh) gives the zero the sign of sin(2y) when |y| > 1, so the
    reference is built from the rule, and NumPy agrees where |y| <= 1.  tan(z) is
    -i tanh(iz) (the Array API's definition of its special cases)."""
    ys = numpy.array([0.5, 1.0, 2.0, 5.0, 1e30, -0.5, -2.0, -5.0, 0.0, -0.0])
    for sx in (1.0, -1.0):
        z = numpy.empty(ys.shape, dtype)
        z.real, z.imag = sx * numpy.inf, ys          # (1j * -0.0 would lose the zero's sign)
        got = garray.tanh(garray.asarray(z)).get()
        assert got.dtype == z.dtype and got.shape == z.shape
        numpy.testing.assert_array_equal(got.real, numpy.full(ys.shape, sx))
        numpy.testing.assert_array_equal(got.imag, 0.0)
        numpy.testing.assert_array_equal(numpy.signbit(got.imag), numpy.signbit(ys))
        small = numpy.abs(ys) <= 1
        with numpy.errstate(all="ignore"):
            ref = numpy.tanh(z[small])
        numpy.testing.assert_array_equal(numpy.signbit(got.imag[small]), numpy.signbit(ref.imag))
        iz = numpy.empty(ys.shape, dtype)
        iz.real, iz.imag = -ys, sx * numpy.inf
        w = garray.tan(garray.asarray(iz)).get()     # tan(iz) = i tanh(z)
        numpy.testing.assert_array_equal(w.imag, numpy.full(ys.shape, sx))
        numpy.testing.assert_array_equal(numpy.signbit(w.real), numpy.signbit(-ys))
