"""Regression tests for what tests/fuzz_numeric.py found in linalg, the products, fft,
signal, random and polynomials: each case compared with NumPy (or scipy.signal) through
``xp_compare`` (the same result, or the same exception class)."""

import numpy
import pytest

import garray
from xp import xp_compare


def _shape_of(r):
    """A random draw's dtype and shape (the streams differ from NumPy's by design)."""
    return (numpy.dtype(r.dtype).name, tuple(r.shape))


# ---- fft ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["irfft", "hfft", "irfftn"])
@xp_compare()
def test_real_output_of_float16_input_is_float16(xp, name):
    # NumPy's irfft/hfft (and irfftn over one axis) keep a float16 input's precision
    return getattr(xp.fft, name)(xp.asarray(numpy.arange(4, dtype=numpy.float16)))


@xp_compare()
def test_irfftn_float16_over_two_axes_is_float32(xp):
    return xp.fft.irfftn(xp.asarray(numpy.ones((2, 3), dtype=numpy.float16)))


@pytest.mark.parametrize("n", [2**63, 2**64, True])
@xp_compare()
def test_fftfreq_refuses_huge_or_bool_n(xp, n):
    return xp.fft.fftfreq(n)


@xp_compare()
def test_rfftfreq_takes_bool_n(xp):
    return xp.fft.rfftfreq(True)


@pytest.mark.parametrize("kw", [{"axis": 5}, {"norm": "bad"}, {"n": 0}])
@xp_compare()
def test_rfft_of_complex_checks_axis_n_norm_first(xp, kw):
    return xp.fft.rfft(xp.asarray(numpy.ones((2, 3), dtype=numpy.complex128)), **kw)


@xp_compare()
def test_rfftn_of_complex_0d_is_index_error(xp):
    return xp.fft.rfftn(xp.asarray(numpy.complex128(1)))


@xp_compare()
def test_rfft2_of_complex_checks_dtype_before_other_lengths(xp):
    return xp.fft.rfft2(xp.asarray(numpy.ones((0, 3), dtype=numpy.complex128)))


@pytest.mark.parametrize("name", ["fft2", "fftn", "rfftn"])
@xp_compare()
def test_s_and_axes_lengths_checked_before_s_values(xp, name):
    return getattr(xp.fft, name)(xp.asarray(numpy.ones((2, 2))), s=(2.0,), axes=(0, 1))


@pytest.mark.parametrize("name", ["hfft", "ihfft"])
@xp_compare()
def test_hermitian_ffts_check_axis_before_norm(xp, name):
    return getattr(xp.fft, name)(xp.asarray(numpy.float64(1)), norm="bad")


# ---- linalg and products -----------------------------------------------------------


@pytest.mark.parametrize("axis", [1.0, "0", True, 1.5, [0, 1], (0.0, 1), 2**63, "1.5"])
@xp_compare()
def test_norm_single_axis_goes_through_int(xp, axis):
    return xp.linalg.norm(xp.asarray(numpy.arange(4.0).reshape(2, 2)), axis=axis)


@pytest.mark.parametrize("name", ["eigvals", "eig"])
@pytest.mark.parametrize("value", [numpy.nan, numpy.inf, 1.0])
@xp_compare()
def test_eig_checks_finiteness_before_float16(xp, name, value):
    h = numpy.array([[value, 1], [1, 1]], dtype=numpy.float16)
    return getattr(xp.linalg, name)(xp.asarray(h))


@pytest.mark.parametrize("shape", [(0, 1, 1), (0, 2, 3), (2, 0, 3), (0, 0)])
@pytest.mark.parametrize("dtype", ["int64", "bool", "float32", "complex64"])
@xp_compare()
def test_pinv_of_an_empty_stack_of_matrices(xp, shape, dtype):
    # NumPy keeps the dtype of empty matrices alone: an empty stack of non-empty
    # matrices takes its SVD path's float64 for bool and integers
    return xp.linalg.pinv(xp.asarray(numpy.ones(shape, dtype=dtype)))


@pytest.mark.parametrize("shapes", [((2, 2), (2, 2)), ((3,), (3, 2)), ((2, 3, 4), (4, 1))])
@xp_compare()
def test_matmul_refuses_a_read_only_out(xp, shapes):
    # garray's gemm wrote through a read-only out= (NumPy: ValueError)
    a = xp.asarray(numpy.ones(shapes[0]))
    b = xp.asarray(numpy.ones(shapes[1]))
    out = xp.zeros(numpy.matmul(numpy.ones(shapes[0]), numpy.ones(shapes[1])).shape)
    out.flags.writeable = False
    xp.matmul(a, b, out=out)
    return out


@pytest.mark.parametrize("fn", ["tensordot", "linalg.tensordot"])
@xp_compare()
def test_tensordot_axes_past_ssize_t_overflows(xp, fn):
    mod = xp.linalg if fn.startswith("linalg.") else xp
    a = xp.asarray(numpy.ones((2, 2)))
    return getattr(mod, fn.split(".")[-1])(a, a, axes=2**63)


# ---- signal -----------------------------------------------------------------------


def _signal(xp):
    if xp is numpy:
        import scipy.signal  # noqa: PLC0415 - the reference, needed by these tests alone
        return scipy.signal
    return xp.signal


@pytest.mark.parametrize("boundary", ["wrap", "symm", "fill"])
@pytest.mark.parametrize("fill", [[1, 2], "x", []])
@pytest.mark.parametrize("name", ["convolve2d", "correlate2d"])
@xp_compare()
def test_fillvalue_is_read_for_the_fill_boundary_alone(xp, boundary, fill, name):
    a = xp.asarray(numpy.arange(4.0).reshape(2, 2))
    return getattr(_signal(xp), name)(a, a, boundary=boundary, fillvalue=fill)


# ---- random -----------------------------------------------------------------------


@pytest.mark.parametrize("size", [True, False, numpy.bool_(True), (2, True)])
@pytest.mark.parametrize("method", ["random", "normal", "integers", "binomial"])
@xp_compare()
def test_bool_size_is_a_type_error(xp, size, method):
    g = xp.random.default_rng(0)
    args = {"integers": (5,), "binomial": (3, 0.5)}.get(method, ())
    return _shape_of(getattr(g, method)(*args, size=size))


@pytest.mark.parametrize("call", [
    ("binomial", ([2.5, 3.0], 0.5)), ("hypergeometric", (5, [0.5, 2.0], 3)),
    ("hypergeometric", ([5.5, 6.0], 2, 3)), ("multinomial", ([3.5], [0.5, 0.5])),
    ("negative_binomial", ([2.5], 0.5)), ("binomial", ([numpy.nan], 0.5)),
    ("binomial", ([2**64], 0.5)), ("binomial", (["x"], 0.5))])
@xp_compare()
def test_integer_parameter_sequences_truncate_as_numpy(xp, call):
    name, args = call
    return _shape_of(getattr(xp.random.default_rng(0), name)(*args))


@pytest.mark.parametrize("bounds", [
    ([0.5, 2.0], 2**63), ([0.5, 2.0], float("inf")), (float("nan"), [0.5, 2.0]),
    ([1, 2], 2**64), (-2**63 - 1, [3]), ([3], 2**63, True), ([0, 1], 2**63 - 1)])
@xp_compare()
def test_integers_scalar_bound_beside_an_array_bound(xp, bounds):
    low, high, *endpoint = bounds
    r = xp.random.default_rng(0).integers(low, high, endpoint=bool(endpoint))
    return _shape_of(r)


@xp_compare()
def test_integers_uint64_up_to_2_64(xp):
    return _shape_of(xp.random.default_rng(0).integers([1, 2], 2**64, dtype=numpy.uint64))


@xp_compare()
def test_integer_parameter_float_array_is_refused(xp):
    n = xp.asarray(numpy.array([2.5, 3.0]))
    return _shape_of(xp.random.default_rng(0).binomial(n, 0.5))


# ---- polynomials --------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int8", "float32", "bool"])
@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("m", [3, 4, 5, 6, 50])
@xp_compare()
def test_polyder_past_the_degree(xp, dtype, n, m):
    return xp.polyder(xp.asarray(numpy.arange(1, n + 1).astype(dtype)), m=m)


def test_polyder_huge_order_finishes():
    # NumPy recurses m times (RecursionError); garray stops at the empty derivative
    r = garray.polyder(garray.asarray([1.0, 2.0, 3.0]), m=2**63)
    assert r.shape == (0,) and r.dtype == numpy.float64
