"""garray.ElementwiseKernel (CuPy's user elementwise kernels) against NumPy."""

import ctypes
import types

import numpy
import pytest

import garray
from garray.kernels._elementwise import _collapse, _common_device, _strided_type
from xp import assert_xp_close, for_all_dtypes, make, xp_compare

ADD_F32 = garray.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x + y", "add_f32")
# +, -, * and == are defined for ga::complex (no division): fine for every placeholder test
MULADD = garray.ElementwiseKernel("T x, T y", "T z", "z = x * y + x - y", "muladd")
AXPY = garray.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 z",
                                "z = a * x + y", "axpy")
REVERSE = garray.ElementwiseKernel("raw T x, int64 n", "T y", "y = x[n - 1 - i]", "reverse")


# ---- basics ----------------------------------------------------------------------------
@xp_compare()
def test_add_float32(xp):
    x = make(xp, (3, 4), "float32")
    y = make(xp, (3, 4), "float32", start=7)
    return x + y if xp is numpy else ADD_F32(x, y)


def test_output_passed_positionally_is_written_and_returned():
    x = make(garray, (5,), "float32")
    y = make(garray, (5,), "float32", start=3)
    z = garray.zeros(5, dtype="float32")
    r = ADD_F32(x, y, z)
    assert r is z
    assert_xp_close(z, make(numpy, (5,), "float32") + make(numpy, (5,), "float32", start=3))


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "float64", "complex64",
                                   "complex128"])
@xp_compare()
def test_type_placeholder(xp, dtype):
    x = make(xp, (3, 5), dtype)
    y = make(xp, (3, 5), dtype, start=4)
    return x * y + x - y if xp is numpy else MULADD(x, y)


def test_one_kernel_compiles_once_per_binding():
    k = garray.ElementwiseKernel("T x", "T y", "y = x + x", "twice")
    for dtype in ("float32", "float64", "float32"):
        assert_xp_close(k(make(garray, (4,), dtype)), 2 * make(numpy, (4,), dtype))
    assert len(k.cached_codes) == 2


@for_all_dtypes()
@xp_compare()
def test_copy_every_dtype_strided(xp, dtype):
    k = garray.ElementwiseKernel("T x", "T y", "y = x", "copy_t")
    x = make(xp, (4, 6), dtype)[::-1, 1::2]
    return xp.asarray(x, copy=True) if xp is numpy else k(x)


@for_all_dtypes()
@xp_compare()
def test_equality_to_bool_output(xp, dtype):
    k = garray.ElementwiseKernel("T x, T y", "bool z", "z = x == y", "eq_t")
    x = make(xp, (2, 6), dtype)
    y = x[:, ::-1]
    return x == y if xp is numpy else k(x, y)


@xp_compare()
def test_multiple_outputs(xp):
    k = garray.ElementwiseKernel("T x, T y", "T s, T d", "s = x + y; d = x - y", "sumdiff")
    x = make(xp, (2, 3), "float64")
    y = make(xp, (2, 3), "float64", start=5)
    return (x + y, x - y) if xp is numpy else k(x, y)


@xp_compare()
def test_preamble_and_typedefs(xp):
    k = garray.ElementwiseKernel(
        "T x", "T y", "y = sq(x) + (T)i", "with_preamble",
        preamble="template <class U> GA_DEVICE U sq(U v) { return v * v; }")
    x = make(xp, (3, 4), "int32")
    return x * x + numpy.arange(12, dtype="int32").reshape(3, 4) if xp is numpy else k(x)


@xp_compare()
def test_loop_prep_after_loop_and_options(xp):
    k = garray.ElementwiseKernel("T x", "T y", "y = x * factor", "prep",
                                 loop_prep="const T factor = (T)GA_TEST_FACTOR",
                                 after_loop="(void)factor", options=("-DGA_TEST_FACTOR=3",))
    x = make(xp, (2, 3), "int64")
    return x * 3 if xp is numpy else k(x)


def test_arguments_after_name_are_keyword_only():
    with pytest.raises(TypeError):
        garray.ElementwiseKernel("T x", "T y", "y = x", "k", ("-O2",))


@xp_compare()
def test_many_elements_span_many_blocks(xp):
    x = make(xp, (1000, 37), "float32")
    y = make(xp, (37,), "float32", start=3)
    return x + y if xp is numpy else ADD_F32(x, y)


@xp_compare()
def test_zero_dim(xp):
    x = make(xp, (), "float32")
    y = make(xp, (), "float32", start=4)
    return x + y if xp is numpy else ADD_F32(x, y)


# ---- broadcasting and layouts ---------------------------------------------------------
@xp_compare()
def test_broadcasting(xp):
    x = make(xp, (3, 4), "float32")
    y = make(xp, (4,), "float32", start=10)
    return x + y if xp is numpy else ADD_F32(x, y)


@xp_compare()
def test_broadcasting_both_ways(xp):
    x = make(xp, (3, 1, 5), "float64")
    y = make(xp, (4, 1), "float64", start=2)
    return x * y + x - y if xp is numpy else MULADD(x, y)


@xp_compare()
def test_transposed_input(xp):
    x = make(xp, (4, 3), "float32").T
    y = make(xp, (3, 4), "float32", start=2)
    return x + y if xp is numpy else ADD_F32(x, y)


@xp_compare()
def test_negative_strides(xp):
    x = make(xp, (3, 4), "float32")[::-1, ::-1]
    y = make(xp, (6, 8), "float32", start=5)[::2, ::-2]
    return x + y if xp is numpy else ADD_F32(x, y)


@xp_compare()
def test_three_d_permuted(xp):
    base = make(xp, (2, 3, 4), "complex128")
    x = xp.permute_dims(base, (2, 0, 1)) if xp is garray else base.transpose(2, 0, 1)
    y = make(xp, (4, 2, 3), "complex128", start=9)[:, ::-1]
    return x * y + x - y if xp is numpy else MULADD(x, y)


@xp_compare()
def test_preallocated_noncontiguous_output(xp):
    x = make(xp, (3, 4), "float32")
    y = make(xp, (4,), "float32", start=2)
    buf = xp.zeros((8, 6), dtype="float32")
    out = buf[::2, 4:1:-1].T                       # (3, 4), strides negative and transposed
    if xp is numpy:
        out[...] = x + y
    else:
        assert ADD_F32(x, y, out) is out
    return buf


@xp_compare()
def test_output_broadcasts_inputs(xp):
    x = make(xp, (4,), "float32")
    y = make(xp, (4,), "float32", start=3)
    out = xp.zeros((2, 4), dtype="float32")
    if xp is numpy:
        out[...] = x + y
    else:
        ADD_F32(x, y, out)
    return out


def test_collapse_merges_contiguous_axes():
    # (2, 3, 4) contiguous with a (4,) broadcast over the first two axes
    assert _collapse([2, 3, 4], [[48, 16, 4], [0, 0, 4]]) == ([6, 4], [[16, 4], [0, 4]])
    assert _collapse([2, 3, 4], [[48, 16, 4], [96, 32, 8]]) == ([24], [[4], [8]])
    assert _collapse([3, 4], [[4, 12]]) == ([3, 4], [[4, 12]])
    assert _collapse([2, 1, 3], [[12, 12, 4]]) == ([6], [[4]])
    assert _collapse([1, 1], [[8, 8]]) == ([1], [[0]])


def test_strided_struct_layout_matches_indexer_h():
    t = _strided_type(3)
    assert t.ndim.offset == 0 and t.shape.offset == 8
    assert t.strides.offset == 8 + 8 * 24
    assert ctypes.sizeof(t) == 8 + 8 * 24 * 4


# ---- scalars ------------------------------------------------------------------------------
@xp_compare()
def test_scalar_param_from_python_float(xp):
    x = make(xp, (3, 4), "float32")
    y = make(xp, (3, 4), "float32", start=3)
    return numpy.float32(2.5) * x + y if xp is numpy else AXPY(2.5, x, y)


@xp_compare()
def test_scalar_param_from_numpy_scalar_of_another_type(xp):
    x = make(xp, (5,), "float32")
    y = make(xp, (5,), "float32", start=3)
    return numpy.float32(-3) * x + y if xp is numpy else AXPY(numpy.int16(-3), x, y)


@pytest.mark.parametrize("dtype", ["int8", "float64", "complex128"])
@xp_compare()
def test_placeholder_scalar_takes_the_array_type(xp, dtype):
    k = garray.ElementwiseKernel("T x, T a", "T y", "y = x * a", "scale_t")
    x = make(xp, (2, 5), dtype)
    return x * numpy.dtype(dtype).type(3) if xp is numpy else k(x, 3)


@xp_compare()
def test_complex_scalar(xp):
    k = garray.ElementwiseKernel("complex128 a, T x", "T y", "y = a * x - x", "cscale")
    x = make(xp, (4,), "complex128")
    return (1 - 2j) * x - x if xp is numpy else k(1 - 2j, x)


def test_scalar_only_placeholder_uses_the_scalar_type():
    k = garray.ElementwiseKernel("T a, float64 x", "float64 y", "y = x + (double)a",
                                 "scalar_t")
    x = make(garray, (3,), "float64")
    assert_xp_close(k(numpy.int8(5), x), make(numpy, (3,), "float64") + 5)
    assert_xp_close(k(0.25, x), make(numpy, (3,), "float64") + 0.25)


# ---- raw parameters ----------------------------------------------------------------------
@xp_compare()
def test_raw_reverse_with_output_passed(xp):
    x = make(xp, (10,), "float64")
    if xp is numpy:
        return x[::-1].copy()
    y = garray.empty(10, dtype="float64")
    return REVERSE(x, 10, y)


@xp_compare()
def test_raw_reverse_with_size(xp):
    x = make(xp, (7,), "int16")
    return x[::-1].copy() if xp is numpy else REVERSE(x, 7, size=7)


@xp_compare()
def test_raw_noncontiguous_input_is_indexed_in_c_order(xp):
    x = make(xp, (4, 6), "float32")[::-1, ::2]        # 12 elements, negative strides
    if xp is numpy:
        return x.reshape(-1)[::-1].copy()
    return REVERSE(x, 12, size=12)


@xp_compare()
def test_raw_output_and_ind_size(xp):
    k = garray.ElementwiseKernel("T x", "raw T y", "y[_ind.size() - 1 - i] = x", "rev_out")
    x = make(xp, (3, 4), "float32")
    if xp is numpy:
        return x.reshape(-1)[::-1].copy()
    y = garray.zeros(12, dtype="float32")
    k(x, y)
    return y


@xp_compare()
def test_raw_noncontiguous_output_is_written_back(xp):
    k = garray.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] * x[i]", "sq_raw")
    x = make(xp, (2, 3), "float64")
    buf = xp.zeros((2, 6), dtype="float64")
    y = buf[:, ::2]
    if xp is numpy:
        y[...] = x * x
    else:
        k(x, y, size=6)
    return buf


# ---- 0-size ---------------------------------------------------------------------------
@xp_compare()
def test_zero_size_inputs(xp):
    x = make(xp, (0, 3), "float32")
    y = make(xp, (3,), "float32")
    return x + y if xp is numpy else ADD_F32(x, y)


def test_zero_size_with_output_and_size():
    out = garray.empty((0,), dtype="float32")
    assert ADD_F32(garray.empty(0, dtype="float32"), garray.empty(0, dtype="float32"),
                   out) is out
    y = REVERSE(garray.empty(0, dtype="float32"), 0, size=0)
    assert y.shape == (0,) and y.dtype == numpy.float32


# ---- errors ---------------------------------------------------------------------------
def test_wrong_number_of_arguments_names_the_kernel():
    x = garray.ones(3, dtype="float32")
    with pytest.raises(TypeError, match="add_f32"):
        ADD_F32(x)
    with pytest.raises(TypeError, match="add_f32"):
        ADD_F32(x, x, x, x)


def test_shape_mismatch_names_the_shapes():
    with pytest.raises(ValueError, match=r"\(3, 4\).*\(3,\)"):
        ADD_F32(garray.ones((3, 4), dtype="float32"), garray.ones(3, dtype="float32"))
    with pytest.raises(ValueError, match=r"\(4,\).*\(3, 4\)"):
        ADD_F32(garray.ones((3, 4), dtype="float32"), garray.ones(4, dtype="float32"),
                garray.empty(4, dtype="float32"))


def test_dtype_mismatch():
    x = garray.ones(3, dtype="float32")
    with pytest.raises(TypeError, match="mismatched"):
        ADD_F32(x, garray.ones(3, dtype="float64"))
    with pytest.raises(TypeError, match="mismatched"):
        MULADD(x, garray.ones(3, dtype="int32"))
    with pytest.raises(TypeError, match="mismatched"):
        ADD_F32(x, x, garray.empty(3, dtype="float64"))


def test_placeholder_only_in_outputs_needs_the_output():
    k = garray.ElementwiseKernel("float32 x", "U y", "y = (U)x", "to_u")
    x = make(garray, (4,), "float32")
    with pytest.raises(ValueError, match="U"):
        k(x)
    y = garray.empty(4, dtype="int32")
    assert k(x, y) is y
    assert_xp_close(y, make(numpy, (4,), "float32").astype("int32"))


def test_bad_call_arguments():
    x = garray.ones(3, dtype="float32")
    with pytest.raises(TypeError, match="'x'"):
        ADD_F32([1.0, 2.0], x)
    with pytest.raises(TypeError, match="'x'"):
        ADD_F32(numpy.ones(3, dtype="float32"), x)
    with pytest.raises(TypeError, match="output"):
        ADD_F32(x, x, 1.0)
    with pytest.raises(TypeError, match="raw"):
        REVERSE(1.0, 3, size=3)
    with pytest.raises(ValueError, match="size"):
        ADD_F32(x, x, size=3)
    with pytest.raises(ValueError, match="undecided"):
        REVERSE(x, 3)
    with pytest.raises(TypeError):
        ADD_F32(x, x, bogus=1)


def test_bad_definitions():
    with pytest.raises(ValueError, match="'i'"):
        garray.ElementwiseKernel("T i", "T y", "y = i")
    with pytest.raises(ValueError, match="duplicate"):
        garray.ElementwiseKernel("T x", "T x", "x = x")
    with pytest.raises(ValueError, match="flaot32"):
        garray.ElementwiseKernel("flaot32 x", "T y", "y = x")
    with pytest.raises(ValueError, match="float8_e4m3fnuz"):   # ml_dtypes has it, garray not
        garray.ElementwiseKernel("float8_e4m3fnuz x", "T y", "y = x")
    with pytest.raises(ValueError, match="keyword"):
        garray.ElementwiseKernel("const T x", "T y", "y = x")
    with pytest.raises(ValueError, match="name"):
        garray.ElementwiseKernel("T x", "T y", "y = x", name="bad name")


def test_arrays_on_different_devices():
    devs = garray.__array_namespace_info__().devices()
    if len(devs) >= 2:
        x = garray.ones(3, dtype="float32", device=devs[0])
        y = garray.ones(3, dtype="float32", device=devs[1])
        with pytest.raises(ValueError, match="different devices"):
            ADD_F32(x, y)
    # the check itself, with stand-ins for arrays on two devices
    a = types.SimpleNamespace(device="dev:a")
    b = types.SimpleNamespace(device="dev:b")
    assert _common_device([a, a], "k") == "dev:a"
    assert _common_device([], "k") is None
    with pytest.raises(ValueError, match="k: arrays are on different devices"):
        _common_device([a, b], "k")


def test_compile_error_propagates_with_log():
    k = garray.ElementwiseKernel("T x", "T y", "y = x + undefined_name_42", "broken")
    with pytest.raises(garray.CompileError) as info:
        k(garray.ones(3, dtype="float32"))
    assert "undefined_name_42" in info.value.log
    assert "broken operation" in info.value.log


@pytest.mark.parametrize("dtype", ["bfloat16", "float8_e4m3fn", "float8_e5m2"])
def test_narrow_float_parameters_compute_in_float(dtype):
    """A bfloat16 or float8 parameter converts to float and back (ga::bfloat16 ...), one
    rounding per assignment, as the built-in ops."""
    import ml_dtypes
    dt = numpy.dtype(getattr(ml_dtypes, dtype))
    h = numpy.array([1.5, 3.0, -0.25, 0.0, 7.0], dt)
    named = garray.ElementwiseKernel(f"{dtype} x", f"{dtype} y", "y = x * 2.0f + 0.1f",
                                     f"narrow_{dtype}")
    expected = (h.astype(numpy.float32) * 2 + numpy.float32(0.1)).astype(dt)
    got = named(garray.asarray(h))
    assert got.dtype == dt
    assert (got.get().view(numpy.uint8) == expected.view(numpy.uint8)).all()
    generic = garray.ElementwiseKernel("T x", "T y", "y = x * 2.0f", "narrow_generic")
    got = generic(garray.asarray(h))
    assert (got.get().view(numpy.uint8) == (h.astype(numpy.float32) * 2).astype(dt).view(
        numpy.uint8)).all()
