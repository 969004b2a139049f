"""garray.ReductionKernel (CuPy's user reduction kernels) against NumPy."""

import numpy
import pytest
from numpy.exceptions import AxisError

import garray
from xp import assert_xp_close, make, sample

SUM = garray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "my_sum")
L2NORM = garray.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
MAX = garray.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "my_max")
# two broadcast inputs and a scalar: sum((x - y) * s)
WDIFF = garray.ReductionKernel("T x, T y, T s", "T z", "(x - y) * s", "a + b", "z = a", "0",
                               "wdiff")


def _np(x):
    return numpy.asarray(x)


def test_cupy_docs_example_l2norm():
    x = numpy.arange(10, dtype=numpy.float32).reshape(2, 5)
    got = L2NORM(garray.asarray(x), axis=1)
    assert_xp_close(got, numpy.sqrt((x * x).sum(axis=1)))


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1, -2, (0, 2), (2, 0), (0, 1, 2), ()])
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_axes(axis, keepdims):
    h = sample((3, 4, 5), "float64")
    got = SUM(garray.asarray(h), axis=axis, keepdims=keepdims)
    assert_xp_close(got, _np(h.sum(axis=axis, keepdims=keepdims)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8"])
def test_placeholders_follow_dtype(dtype):
    h = make(numpy, (6, 7), dtype)
    got = SUM(garray.asarray(h), axis=0)
    assert_xp_close(got, h.sum(axis=0, dtype=dtype))
    got = MAX(garray.asarray(h), axis=1)
    assert_xp_close(got, h.max(axis=1))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_sum(dtype):
    h = sample((3, 5), dtype)
    assert_xp_close(SUM(garray.asarray(h), axis=1), h.sum(axis=1))


def test_one_compile_per_binding():
    k = garray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "bind_count")
    for dtype in ("float32", "float64", "float32"):
        k(garray.asarray(make(numpy, (3,), dtype)))
    assert len(k.cached_codes) == 2


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_l2norm(dtype):
    h = sample((4, 33), dtype)
    got = L2NORM(garray.asarray(h), axis=1)
    assert_xp_close(got, numpy.sqrt((h * h).sum(axis=1)))


def test_max_negative_values_and_axis_tuple():
    h = sample((5, 6, 7), "float64") - 100
    got = MAX(garray.asarray(h), axis=(0, 2))
    assert_xp_close(got, h.max(axis=(0, 2)))


def test_long_reduction_is_pairwise():
    # 2**20 float32 values of 0.1: a sequential float32 sum is off by ~1%, pairwise not
    n = 1 << 20
    x = garray.full(n, 0.1, dtype="float32")
    got = float(SUM(x).get())
    assert abs(got - n * 0.1) / (n * 0.1) < 1e-5


@pytest.mark.parametrize("n", [1, 5, 128, 129, 1000])
def test_reduce_expr_sees_elements_in_order(n):
    # 'a' always holds earlier elements than 'b': keep-first and keep-last reductions
    first = garray.ReductionKernel("T x", "T y", "x", "a", "y = a", None, "first")
    last = garray.ReductionKernel("T x", "T y", "x", "b", "y = a", None, "last")
    h = sample((3, n), "int64", start=2)
    g = garray.asarray(h)
    assert_xp_close(first(g, axis=1), h[:, 0])
    assert_xp_close(last(g, axis=1), h[:, -1])
    assert_xp_close(first(g.T, axis=0), h[:, 0])


@pytest.mark.parametrize("shape", [(1000, 3), (3, 1000), (300, 301)])
def test_sizes(shape):
    h = sample(shape, "float64")
    for axis in (0, 1, None):
        assert_xp_close(SUM(garray.asarray(h), axis=axis), _np(h.sum(axis=axis)))


def test_multiple_inputs_broadcast_and_scalar():
    x = sample((4, 5), "float64")
    y = sample((5,), "float64", start=3)
    got = WDIFF(garray.asarray(x), garray.asarray(y), 2.0, axis=0)
    assert_xp_close(got, ((x - y) * 2.0).sum(axis=0))
    got = WDIFF(garray.asarray(x[:, :1]), garray.asarray(y), 0.5)
    assert_xp_close(got, _np(((x[:, :1] - y) * 0.5).sum()))


def test_scalar_inputs_only():
    k = garray.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "mul_s")
    assert_xp_close(k(2.0, 3.0), _np(numpy.float64(6.0)))
    assert_xp_close(k(numpy.float32(2), numpy.float32(3), keepdims=True),
                    _np(numpy.float32(6)))


def test_non_contiguous_inputs():
    h = sample((6, 8, 10), "float32")
    g = garray.asarray(h)
    for sl in (numpy.s_[::2, :, ::-3], numpy.s_[:, 1:7, 2], numpy.s_[::-1]):
        v, hv = g[sl], h[sl]
        for axis in (None, 0, -1):
            assert_xp_close(SUM(v, axis=axis), _np(hv.sum(axis=axis)))
    t, ht = g.transpose(2, 0, 1), h.transpose(2, 0, 1)
    assert_xp_close(L2NORM(t, axis=(1, 2)), numpy.sqrt((ht * ht).sum(axis=(1, 2))))


def test_concrete_types_and_reduce_type():
    # int8 input, accumulated in int64 (reduce_type), mean written as float64
    mean = garray.ReductionKernel("int8 x", "float64 y", "x", "a + b",
                                  "y = (double)a / (_in_ind.size() / _out_ind.size())", "0",
                                  "mean_i8", reduce_type="int64")
    h = (numpy.arange(600) % 120).astype("int8").reshape(3, 200)
    assert_xp_close(mean(garray.asarray(h), axis=1), h.mean(axis=1, dtype="float64"))
    with pytest.raises(TypeError):
        mean(garray.asarray(h.astype("int16")))
    # without reduce_type the int8 sum would wrap; a C type name works too
    s = garray.ReductionKernel("T x", "int64 y", "x", "a + b", "y = a", "0", "sum_ll",
                               reduce_type="long long")
    assert_xp_close(s(garray.asarray(h)), _np(h.sum(dtype="int64")))


def test_two_outputs():
    minmax = garray.ReductionKernel(
        "T x", "T lo, T hi", "x", "a + b", "lo = -a; hi = a", "0", "neg_pos")
    h = sample((3, 4), "float64")
    lo, hi = minmax(garray.asarray(h), axis=1)
    assert_xp_close(lo, -h.sum(axis=1))
    assert_xp_close(hi, h.sum(axis=1))


def test_out_argument():
    h = sample((4, 6), "float64")
    out = garray.zeros(4, dtype="float64")
    r = SUM(garray.asarray(h), axis=1, out=out)
    assert r is out
    assert_xp_close(out, h.sum(axis=1))
    out2 = garray.zeros((4, 1), dtype="float64")
    r = SUM(garray.asarray(h), out2, axis=1, keepdims=True)         # positional output
    assert r is out2
    assert_xp_close(out2, h.sum(axis=1, keepdims=True))
    # a strided output view
    big = garray.zeros((4, 2), dtype="float64")
    SUM(garray.asarray(h), axis=1, out=big[:, 1])
    assert_xp_close(big, numpy.stack([numpy.zeros(4), h.sum(axis=1)], axis=1))
    with pytest.raises(ValueError):
        SUM(garray.asarray(h), axis=1, out=garray.zeros(5, dtype="float64"))
    with pytest.raises(TypeError):
        SUM(garray.asarray(h), axis=1, out=garray.zeros(4, dtype="float32"))
    with pytest.raises(ValueError):
        SUM(garray.asarray(h), out, axis=1, out=out)


def test_output_overlapping_input_is_refused():
    g = garray.asarray(sample((4, 4), "float64"))
    with pytest.raises(NotImplementedError):
        SUM(g, axis=1, out=g[:, 0])


def test_empty_reductions():
    h = numpy.zeros((3, 0), dtype="float64")
    assert_xp_close(SUM(garray.asarray(h), axis=1), h.sum(axis=1))
    assert_xp_close(SUM(garray.asarray(h)), _np(h.sum()))
    assert_xp_close(SUM(garray.asarray(h), axis=0), h.sum(axis=0))    # empty output
    with pytest.raises(ValueError):
        MAX(garray.asarray(h), axis=1)
    assert_xp_close(MAX(garray.asarray(h), axis=0), h.max(axis=0))    # no element reduced
    ident = garray.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", -1, "max_id")
    assert_xp_close(ident(garray.asarray(h), axis=1), numpy.full(3, -1.0))


def test_zero_dim_input():
    g = garray.asarray(numpy.float64(3.5))
    assert_xp_close(SUM(g), _np(numpy.float64(3.5)))
    assert_xp_close(SUM(g, axis=()), _np(numpy.float64(3.5)))


def test_preamble_and_identity_expressions():
    k = garray.ReductionKernel("T x", "T y", "sq(x)", "a + b", "y = a", "zero<T>()",
                               "with_preamble",
                               preamble="template <class U> GA_DEVICE U zero() { return U(0); }\n"
                                        "GA_DEVICE double sq(double v) { return v * v; }")
    h = sample((2, 9), "float64")
    assert_xp_close(k(garray.asarray(h), axis=1), (h * h).sum(axis=1))
    assert_xp_close(k(garray.asarray(h[:, :0]), axis=1), numpy.zeros(2))


def test_bad_calls():
    g = garray.asarray(sample((3, 4), "float64"))
    with pytest.raises(TypeError):
        SUM()
    with pytest.raises(TypeError):
        SUM(g, g, g)
    with pytest.raises(AxisError):
        SUM(g, axis=2)
    with pytest.raises(AxisError):
        SUM(g, axis=-3)
    with pytest.raises(AxisError):
        SUM(g, axis=(0, -2))
    with pytest.raises(TypeError):
        SUM(g, axis=1.0)
    with pytest.raises(TypeError):
        SUM([1.0, 2.0])
    with pytest.raises(ValueError):
        WDIFF(g, garray.asarray(sample((3,), "float64")), 1.0)   # shapes do not broadcast
    with pytest.raises(TypeError):
        WDIFF(g, garray.asarray(sample((4,), "float32")), 1.0)   # T bound twice


@pytest.mark.parametrize("args, exc", [
    (("T", "T y", "x", "a + b", "y = a", "0"), ValueError),             # no name
    (("T x, T x", "T y", "x", "a + b", "y = a", "0"), ValueError),      # duplicate
    (("T x", "T y", "x", "a + b", "y = a", "0", "bad name"), ValueError),
    (("T x", "", "x", "a + b", "y = a", "0"), ValueError),              # no output
    (("T x", "T a", "x", "a + b", "a = a", "0"), ValueError),           # output named a
    (("float128x x", "T y", "x", "a + b", "y = a", "0"), ValueError),   # unknown type
    (("T x", "T y", "", "a + b", "y = a", "0"), ValueError),            # empty map
    (("T x", "T y", "x", "a + b", "y = a", ""), ValueError),            # empty identity
    (("T x", "T y", 3, "a + b", "y = a", "0"), TypeError),
    (("T x", "T y", "x", "a + b", "y = a", float("inf")), ValueError),
    (("T x", "T y", "x", "a + b", "y = a", object()), TypeError),
    (("raw T x", "T y", "x[0]", "a + b", "y = a", "0"), NotImplementedError),
])
def test_bad_specs(args, exc):
    with pytest.raises(exc):
        garray.ReductionKernel(*args)


@pytest.mark.parametrize("reduce_type, exc", [("", ValueError), (object, ValueError),
                                               ("float128", ValueError), (3.5, TypeError)])
def test_bad_reduce_type(reduce_type, exc):
    with pytest.raises(exc):
        garray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0",
                               reduce_type=reduce_type)


@pytest.mark.parametrize("reduce_type", [numpy.float64, "float64", "double"])
def test_reduce_type_spellings(reduce_type):
    k = garray.ReductionKernel("float32 x", "float32 y", "x", "a + b", "y = a", "0",
                               "sum_f32_in_f64", reduce_type=reduce_type)
    h = sample((5, 300), "float32")
    assert_xp_close(k(garray.asarray(h), axis=1), h.astype("float64").sum(axis=1)
                    .astype("float32"))


def test_compile_error_names_the_expression():
    k = garray.ReductionKernel("T x", "T y", "x +* 1", "a + b", "y = a", "0", "broken")
    with pytest.raises(garray.CompileError, match="map_expr"):
        k(garray.asarray(sample((3,), "float64")))


def test_exported():
    assert garray.ReductionKernel is garray.kernels.ReductionKernel
    assert "ReductionKernel" in garray.kernels.__all__
    assert "l2norm" in repr(L2NORM)
