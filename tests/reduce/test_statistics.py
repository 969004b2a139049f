"""Statistics (garray/_reduce/moments.py, nan.py, statistics.py, comparisons.py) against
NumPy: mean, var, std, the nan* functions, ptp, average, diff, allclose, array_equal,
array_equiv."""

import warnings

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.exceptions import AxisError

import garray
from xp import (ALL_DTYPES, assert_xp_close, for_all_dtypes, sample, tolerance,
                xp_compare)
from xp import kind as xp_kind, numpy_via_float32

FLOATS = ("float32", "float64", "complex64", "complex128")
NUMERIC = tuple(d for d in ALL_DTYPES if d != "bool")
AXES = (None, 1, -1, (0, 2), (2, 0, 1))


def arr(xp, h):
    """NumPy data h in namespace xp (a garray-owned copy for garray)."""
    return h if xp is numpy else garray.asarray(h, copy=True)


def loose(dtype):
    """Tolerances for two-pass statistics: float32/complex64 lose a few more bits."""
    return (1e-4, 1e-5) if numpy.dtype(dtype).name in ("float32", "complex64") else \
        tolerance(dtype)


def with_nans(shape, dtype, where):
    """sample() data with NaN at the flat positions ``where`` (complex: NaN in the
    real part at even positions, in the imaginary part at odd ones)."""
    h = sample(shape, dtype).reshape(-1)
    for i in where:
        h[i] = complex(numpy.nan, 1) if xp_kind(h.dtype) == "c" and i % 2 == 0 else \
            (complex(1, numpy.nan) if xp_kind(h.dtype) == "c" else numpy.nan)
    return h.reshape(shape)


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


# ---- mean, var, std ------------------------------------------------------------------

@pytest.mark.parametrize("fn", ["mean", "var", "std"])
@for_all_dtypes()
def test_mean_var_std_dtypes_axes(fn, dtype):
    h = sample((2, 3, 4), dtype)
    for axis in AXES:
        for keepdims in (False, True):
            want = numpy_via_float32(getattr(numpy, fn), h, axis=axis, keepdims=keepdims)
            got = getattr(garray, fn)(arr(garray, h), axis=axis, keepdims=keepdims)
            rtol, atol = loose(want.dtype)
            assert_xp_close(got, want, rtol=rtol, atol=atol, err_msg=f"{fn} axis={axis}")


@pytest.mark.parametrize("fn", ["mean", "var", "std", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("layout", ["transposed", "strided", "broadcast"])
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
def test_layouts(fn, layout, dtype):
    h = sample((4, 6), dtype, start=3)
    if layout == "transposed":
        def view(xp, a):
            return a.T
    elif layout == "strided":
        def view(xp, a):
            return a[::-2, 1::2]
    else:
        h = h[:1]

        def view(xp, a):
            return xp.broadcast_to(a, (5, 6))
    for axis in (None, 0, 1):
        want = getattr(numpy, fn)(view(numpy, h), axis=axis)
        got = getattr(garray, fn)(view(garray, arr(garray, h)), axis=axis)
        assert_xp_close(got, want, rtol=loose(want.dtype)[0], err_msg=f"axis={axis}")


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex128"])
@pytest.mark.parametrize("out_dtype", ["float32", "float64", "complex128"])
def test_mean_var_dtype_argument(dtype, out_dtype):
    h = sample((3, 5), dtype)
    for fn in ("mean", "var", "std"):
        with warnings.catch_warnings():   # complex input, real dtype: NumPy drops imag
            warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
            want = getattr(numpy, fn)(h, axis=1, dtype=out_dtype)
        got = getattr(garray, fn)(arr(garray, h), axis=1, dtype=out_dtype)
        assert_xp_close(got, want, rtol=loose(want.dtype)[0], err_msg=fn)


def test_mean_integer_dtype_truncates():
    h = numpy.array([[1, 2], [3, 5]], dtype=numpy.int16)
    assert_xp_close(garray.mean(arr(garray, h), axis=0, dtype="int32"),
                    numpy.mean(h, axis=0, dtype="int32"))


@pytest.mark.parametrize("ddof", [0, 1, 2.5])
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128"])
@xp_compare(rtol=1e-4)
def test_ddof(xp, dtype, ddof):
    a = arr(xp, sample((3, 4), dtype))
    return [xp.var(a, axis=0, ddof=ddof), xp.std(a, axis=1, ddof=ddof),
            xp.var(a, ddof=ddof, keepdims=True)]


@pytest.mark.parametrize("correction", [0, 1, 1.5])
def test_correction(correction):
    h = sample((3, 4), "float64")
    for fn in ("var", "std"):
        want = getattr(numpy, fn)(h, axis=1, correction=correction)
        assert_xp_close(getattr(garray, fn)(arr(garray, h), axis=1, correction=correction),
                        want)
        # NumPy allows ddof=0 with correction; both nonzero is a ValueError
        assert_xp_close(getattr(garray, fn)(arr(garray, h), axis=1, ddof=0,
                                            correction=correction), want)
    with pytest.raises(ValueError, match="ddof and correction"):
        garray.var(arr(garray, h), ddof=1, correction=1)
    with pytest.raises(TypeError, match="var"):
        garray.var(arr(garray, h), ddof="1")


@pytest.mark.parametrize("fn", ["var", "std"])
def test_ddof_too_large(fn):
    h = sample((2, 3), "float64")
    for ddof in (3, 4):
        with pytest.warns(RuntimeWarning, match="Degrees of freedom <= 0"):
            got = getattr(garray, fn)(arr(garray, h), axis=1, ddof=ddof)
        assert_xp_close(got, quiet(getattr(numpy, fn), h, axis=1, ddof=ddof))  # inf/NaN


@pytest.mark.parametrize("fn", ["mean", "var", "std"])
@pytest.mark.parametrize("shape,axis", [((0,), None), ((3, 0), 1), ((0, 0), 0),
                                        ((0, 3), (0, 1))])
def test_empty_slices_warn(fn, shape, axis):
    h = numpy.zeros(shape, dtype=numpy.float32)
    want = quiet(getattr(numpy, fn), h, axis=axis)
    match = "Mean of empty slice" if fn == "mean" else "Degrees of freedom"
    with pytest.warns(RuntimeWarning, match=match):
        got = getattr(garray, fn)(arr(garray, h), axis=axis)
    assert_xp_close(got, want)


@pytest.mark.parametrize("fn", ["mean", "var", "std", "nanmean", "nanvar", "nanstd"])
def test_empty_result_no_warning(fn):
    h = numpy.zeros((0, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = getattr(garray, fn)(arr(garray, h), axis=1)
    assert_xp_close(got, getattr(numpy, fn)(h, axis=1))


@pytest.mark.parametrize("fn", ["mean", "var", "std", "nanmean", "nanvar", "ptp",
                                "nansum", "nanmin", "nanargmax"])
@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64"])
def test_zero_d(fn, dtype):
    h = sample((), dtype, start=4)
    want = quiet(getattr(numpy, fn), h)
    got = quiet(getattr(garray, fn), arr(garray, h))
    assert_xp_close(got, want, rtol=loose(want.dtype)[0])


@pytest.mark.parametrize("fn", ["mean", "var", "std", "nanmean", "nanvar", "nanstd"])
def test_where(fn):
    h = sample((3, 4), "float64")
    w = numpy.array([True, False, True, True])
    want = getattr(numpy, fn)(h, axis=1, where=w)
    got = getattr(garray, fn)(arr(garray, h), axis=1, where=arr(garray, w))
    assert_xp_close(got, want)
    # a slice with no selected element
    w2 = numpy.array([[True], [False], [True]])
    want = quiet(getattr(numpy, fn), h, axis=1, where=w2)
    with pytest.warns(RuntimeWarning):
        got = getattr(garray, fn)(arr(garray, h), axis=1, where=arr(garray, w2))
    assert_xp_close(got, want)


@pytest.mark.parametrize("fn", ["mean", "var", "std", "nanmean", "nanvar", "nanstd",
                                "nansum", "nanprod", "nanmin", "nanmax", "ptp"])
def test_out(fn):
    h = sample((3, 4), "float64")
    out = garray.zeros((4,), dtype="float64")
    got = getattr(garray, fn)(arr(garray, h), axis=0, out=out)
    assert got is out
    assert_xp_close(out, getattr(numpy, fn)(h, axis=0))
    with pytest.raises(ValueError):
        getattr(garray, fn)(arr(garray, h), axis=0, out=garray.zeros((3,)))
    with pytest.raises(ValueError):   # NumPy's error for a wrong-shape out
        getattr(numpy, fn)(h, axis=0, out=numpy.zeros((3,)))


def test_out_casts_and_inexact_checks():
    h = sample((3, 4), "float64")
    out = garray.zeros((3,), dtype="float32")
    garray.var(arr(garray, h), axis=1, out=out)
    assert_xp_close(out, numpy.var(h, axis=1).astype(numpy.float32))
    for fn in ("nanmean", "nanvar"):
        for kw in ({"dtype": "int64"}, {"out": garray.zeros((3,), dtype="int64")}):
            with pytest.raises(TypeError, match=fn):
                getattr(garray, fn)(arr(garray, h), axis=1, **kw)


@pytest.mark.parametrize("fn", ["mean", "var", "std", "nanmean", "nanvar", "nansum",
                                "nanmin", "ptp"])
@xp_compare()
def test_axis_errors(xp, fn):
    a = arr(xp, sample((2, 3), "float64"))
    for axis in (2, -3, (0, 0), 1.0):
        try:
            getattr(xp, fn)(a, axis=axis)
        except (AxisError, TypeError, ValueError) as e:
            last = type(e)
        else:
            raise AssertionError(f"axis={axis} accepted")
    return last.__name__


# ---- the nan* functions ----------------------------------------------------------------

NAN_FUNCS = ("nansum", "nanprod", "nanmin", "nanmax", "nanmean", "nanvar", "nanstd")


@pytest.mark.parametrize("fn", NAN_FUNCS)
@for_all_dtypes()
def test_nan_functions_no_nan(fn, dtype):
    h = sample((3, 4), dtype)
    for axis in (None, 0, (0, 1), -1):
        want = quiet(getattr(numpy, fn), h, axis=axis)
        got = getattr(garray, fn)(arr(garray, h), axis=axis)
        assert_xp_close(got, want, rtol=loose(want.dtype)[0], err_msg=f"axis={axis}")


@pytest.mark.parametrize("fn", NAN_FUNCS + ("nanargmin", "nanargmax"))
@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_placement(fn, dtype):
    # NaN first, last, in the middle of rows; no row all-NaN
    h = with_nans((3, 5), dtype, [0, 4, 7, 9, 12])
    for axis in (None, 0, 1):
        if fn in ("nanargmin", "nanargmax") and axis == 0:
            continue
        want = getattr(numpy, fn)(h, axis=axis)
        got = getattr(garray, fn)(arr(garray, h), axis=axis)
        assert_xp_close(got, want, rtol=loose(want.dtype)[0], err_msg=f"axis={axis}")
    if fn not in ("nanargmin", "nanargmax"):
        want = getattr(numpy, fn)(h, axis=0, keepdims=True)
        got = getattr(garray, fn)(arr(garray, h), axis=0, keepdims=True)
        assert_xp_close(got, want, rtol=loose(want.dtype)[0])


@pytest.mark.parametrize("fn,match", [("nanmin", "All-NaN slice"), ("nanmax", "All-NaN"),
                                      ("nanmean", "Mean of empty slice"),
                                      ("nanvar", "Degrees of freedom"),
                                      ("nanstd", "Degrees of freedom")])
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_all_nan_slices_warn(fn, match, dtype):
    h = with_nans((3, 4), dtype, [4, 5, 6, 7, 0])   # row 1 all NaN
    for axis in (1, None, (0, 1)) if fn != "nanmin" else (1,):
        want = quiet(getattr(numpy, fn), h, axis=axis)
        if axis == 1:
            with pytest.warns(RuntimeWarning, match=match):
                got = getattr(garray, fn)(arr(garray, h), axis=axis)
        else:
            got = getattr(garray, fn)(arr(garray, h), axis=axis)
        assert_xp_close(got, want, rtol=loose(want.dtype)[0], err_msg=f"axis={axis}")
    everything = numpy.full((2, 2), numpy.nan, dtype=dtype)
    with pytest.warns(RuntimeWarning, match=match):
        got = getattr(garray, fn)(arr(garray, everything))
    assert_xp_close(got, quiet(getattr(numpy, fn), everything))


def test_nan_functions_pass_sums_through():
    h = with_nans((2, 3), "float64", [1, 5])
    assert_xp_close(garray.nansum(arr(garray, h), axis=1, keepdims=True, initial=10.0),
                    numpy.nansum(h, axis=1, keepdims=True, initial=10.0))
    assert_xp_close(garray.nanprod(arr(garray, h), dtype="complex128"),
                    numpy.nanprod(h, dtype="complex128"))
    assert_xp_close(garray.nanmax(arr(garray, h), axis=0, initial=2.0),
                    numpy.nanmax(h, axis=0, initial=2.0))
    with pytest.raises(ValueError):
        garray.nanmin(garray.zeros((0, 2)))
    assert_xp_close(garray.nanmin(garray.zeros((0, 2)), axis=0, initial=1.0),
                    numpy.nanmin(numpy.zeros((0, 2)), axis=0, initial=1.0))


@pytest.mark.parametrize("fn", ["nanargmin", "nanargmax"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@xp_compare()
def test_nanarg_all_dtypes(xp, fn, dtype):
    a = arr(xp, sample((3, 4), dtype, start=2))
    return [getattr(xp, fn)(a), getattr(xp, fn)(a, axis=0),
            getattr(xp, fn)(a.T, axis=-1, keepdims=True)]


@pytest.mark.parametrize("fn", ["nanargmin", "nanargmax"])
@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_nanarg_all_nan(fn, dtype):
    h = with_nans((3, 4), dtype, [4, 5, 6, 7])
    assert_xp_close(getattr(garray, fn)(arr(garray, h), axis=0),
                    getattr(numpy, fn)(h, axis=0))
    for axis in (1, None):
        hh = h if axis == 1 else numpy.full(3, numpy.nan, dtype)
        with pytest.raises(ValueError, match="All-NaN slice"):
            getattr(garray, fn)(arr(garray, hh), axis=axis)
        with pytest.raises(ValueError, match="All-NaN slice"):
            getattr(numpy, fn)(hh, axis=axis)
    with pytest.raises(ValueError):
        getattr(garray, fn)(garray.zeros((0,), dtype=dtype))
    with pytest.raises(TypeError):
        getattr(garray, fn)(arr(garray, h), axis=(0, 1))
    out = garray.zeros((4,), dtype="int64")
    assert getattr(garray, fn)(arr(garray, h), axis=0, out=out) is out


# ---- ptp, average, diff ------------------------------------------------------------------

@for_all_dtypes()
@xp_compare()
def test_ptp(xp, dtype):
    a = arr(xp, sample((3, 4, 2), dtype))
    return [xp.ptp(a), xp.ptp(a, axis=1), xp.ptp(a, axis=(0, 2), keepdims=True),
            xp.ptp(a.T, axis=-1)]


def test_ptp_wraps_and_empty():
    h = numpy.array([-128, 127], dtype=numpy.int8)
    assert_xp_close(garray.ptp(arr(garray, h)), numpy.ptp(h))
    with pytest.raises(ValueError):
        garray.ptp(garray.zeros((2, 0)), axis=1)
    assert_xp_close(garray.ptp(garray.zeros((2, 0)), axis=0), numpy.ptp(numpy.zeros((2, 0)),
                                                                         axis=0))


@pytest.mark.parametrize("dtype", ["bool", "int32", "uint8", "float32", "float64",
                                   "complex64"])
@pytest.mark.parametrize("wdtype", ["int64", "float32", "float64"])
@xp_compare(rtol=1e-5)
def test_average_weights(xp, dtype, wdtype):
    a = arr(xp, sample((2, 3, 4), dtype))
    w_full = arr(xp, sample((2, 3, 4), wdtype, small=True) + 1)
    w_ax = arr(xp, sample((4, 2), wdtype, start=1, small=True) + 1)
    return [xp.average(a), xp.average(a, weights=w_full),
            xp.average(a, axis=1, weights=w_full, returned=True),
            xp.average(a, axis=(2, 0), weights=w_ax, returned=True),
            xp.average(a, axis=(2, 0), weights=w_ax, keepdims=True),
            xp.average(a, axis=-1, returned=True, keepdims=True),
            xp.average(a, axis=0, returned=True)]


@xp_compare()
def test_average_1d_weights_and_scalar_returned(xp):
    a = arr(xp, sample((3, 4), "float64"))
    return [xp.average(a, axis=1, weights=arr(xp, numpy.array([1.0, 2, 3, 4]))),
            xp.average(a, returned=True)]


@pytest.mark.parametrize("case", ["no_axis", "bad_shape", "zero_sum", "bad_axis"])
@xp_compare()
def test_average_errors(xp, case):
    a = arr(xp, sample((3, 4), "float64"))
    if case == "no_axis":
        return xp.average(a, weights=arr(xp, numpy.ones(4)))
    if case == "bad_shape":
        return xp.average(a, axis=1, weights=arr(xp, numpy.ones(3)))
    if case == "zero_sum":
        return xp.average(a, axis=1, weights=arr(xp, numpy.array([1.0, -1, 0, 0])))
    return xp.average(a, axis=2)


@for_all_dtypes()
@xp_compare()
def test_diff(xp, dtype):
    a = arr(xp, sample((3, 5), dtype))
    return [xp.diff(a), xp.diff(a, axis=0), xp.diff(a, n=2), xp.diff(a, n=0),
            xp.diff(a.T, n=3, axis=1), xp.diff(a[:, ::2], axis=-1)]


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex128"])
@xp_compare()
def test_diff_prepend_append(xp, dtype):
    a = arr(xp, sample((2, 4), dtype))
    edge = arr(xp, sample((2, 1), dtype, start=3))
    return [xp.diff(a, prepend=edge), xp.diff(a, append=edge, n=2),
            xp.diff(a, axis=0, prepend=arr(xp, sample((), dtype)), append=a),
            xp.diff(a, prepend=edge, append=edge)]


@pytest.mark.parametrize("case", ["neg", "zero_d", "axis", "too_many", "empty"])
@xp_compare()
def test_diff_edges(xp, case):
    a = arr(xp, sample((2, 3), "int32"))
    if case == "neg":
        return xp.diff(a, n=-1)
    if case == "zero_d":
        return xp.diff(arr(xp, sample((), "float64")))
    if case == "axis":
        return xp.diff(a, axis=2)
    if case == "too_many":
        return xp.diff(a, n=5)
    return xp.diff(arr(xp, numpy.zeros((0, 3))), axis=0)


# ---- allclose, array_equal, array_equiv ---------------------------------------------

@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float32", "float64",
                                   "complex64"])
@xp_compare()
def test_allclose(xp, dtype):
    h = sample((3, 4), dtype)
    a = arr(xp, h)
    return [xp.allclose(a, a), xp.allclose(a, arr(xp, h[::-1])),
            xp.allclose(a, a[0]), xp.allclose(a.T, a.T, rtol=0, atol=0),
            xp.allclose(xp.broadcast_to(a[:1], (3, 4)), a[:1])]


@xp_compare()
def test_allclose_special_values(xp):
    inf, nan = numpy.inf, numpy.nan
    x = arr(xp, numpy.array([1.0, inf, -inf, nan]))
    y = arr(xp, numpy.array([1.0 + 1e-9, inf, -inf, nan]))
    return [xp.allclose(x, y), xp.allclose(x, y, equal_nan=True),
            xp.allclose(arr(xp, numpy.array([inf])), arr(xp, numpy.array([-inf]))),
            xp.allclose(arr(xp, numpy.array([1.0])), arr(xp, numpy.array([inf]))),
            xp.allclose(arr(xp, numpy.array([-128], numpy.int8)),
                        arr(xp, numpy.array([127], numpy.int8)), rtol=0.01),
            xp.allclose(arr(xp, numpy.array([1.0, 2.0])), 1.0, atol=1.0),
            xp.allclose(arr(xp, numpy.zeros((0, 2))), arr(xp, numpy.ones(2)))]


@xp_compare()
def test_allclose_shape_mismatch(xp):
    return xp.allclose(arr(xp, numpy.ones(3)), arr(xp, numpy.ones(2)))


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint64", "float64", "complex128"])
@xp_compare()
def test_array_equal_equiv(xp, dtype):
    h = sample((2, 3), dtype)
    a = arr(xp, h)
    other = h.copy()
    other[1, 2] = 1 - other[1, 2] if dtype != "bool" else not other[1, 2]
    return [xp.array_equal(a, a), xp.array_equal(a, arr(xp, h.copy())),
            xp.array_equal(a, arr(xp, other)), xp.array_equal(a, a[0]),
            xp.array_equal(a.T, arr(xp, h.T.copy())), xp.array_equal(a, a, equal_nan=True),
            xp.array_equiv(a, a), xp.array_equiv(a[:1], xp.broadcast_to(a[:1], (4, 3))),
            xp.array_equiv(a, a[0]), xp.array_equiv(a, a[:, :2]),
            xp.array_equiv(a, arr(xp, other))]


@xp_compare()
def test_array_equal_nan(xp):
    h = with_nans((2, 3), "float64", [1, 4])
    g = h.copy()
    g[0, 0] = numpy.nan
    c = with_nans((3,), "complex128", [0, 1])
    return [xp.array_equal(arr(xp, h), arr(xp, h)),
            xp.array_equal(arr(xp, h), arr(xp, h.copy()), equal_nan=True),
            xp.array_equal(arr(xp, h), arr(xp, g), equal_nan=True),
            xp.array_equal(arr(xp, c), arr(xp, c.copy()), equal_nan=True),
            xp.array_equal(arr(xp, h), arr(xp, h.astype(numpy.float32)), equal_nan=True),
            xp.array_equal(arr(xp, numpy.zeros((0, 2))), arr(xp, numpy.zeros((0, 2)))),
            xp.array_equal(arr(xp, numpy.zeros(2)), [0, 0]),
            xp.array_equiv(arr(xp, numpy.zeros(2)), 0)]


@pytest.mark.parametrize("fn", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", ["float32", "complex64", "complex128"])
@pytest.mark.parametrize("out_dtype", ["float64", "complex128"])
def test_nan_dtype_argument(fn, dtype, out_dtype):
    h = with_nans((3, 4), dtype, [1, 6])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        want = getattr(numpy, fn)(h, axis=1, dtype=out_dtype)
    got = getattr(garray, fn)(arr(garray, h), axis=1, dtype=out_dtype)
    assert_xp_close(got, want, rtol=1e-5)


# ---- hostile cases ------------------------------------------------------------------

def test_hostile_inputs():
    big = numpy.array([2**63 - 1, 2**63 - 1, 2**62], dtype=numpy.int64)   # sum would wrap
    for fn in ("mean", "var", "std", "nanmean"):
        assert_xp_close(getattr(garray, fn)(arr(garray, big)), getattr(numpy, fn)(big))
    u = numpy.array([0, 2**64 - 1], dtype=numpy.uint64)
    assert_xp_close(garray.mean(arr(garray, u)), numpy.mean(u))
    # NumPy scalars and Python sequences as input; NumPy integers as ddof
    assert_xp_close(garray.mean(numpy.float32(2.5)), numpy.mean(numpy.float32(2.5)))
    assert_xp_close(garray.var([1, 2, 4], ddof=numpy.int64(1)),
                    numpy.var([1, 2, 4], ddof=1))
    assert_xp_close(garray.nanmax([1.0, numpy.nan]), numpy.nanmax([1.0, numpy.nan]))
    # out= that is a view of the input
    h = sample((3, 4), "float64")
    a = arr(garray, h)
    garray.nanmax(a, axis=0, out=a[0])
    want = h.copy()
    numpy.nanmax(want, axis=0, out=want[0])
    assert_xp_close(a, want)
    # infinities: var of inf is NaN, as NumPy's inf - inf
    inf = numpy.array([1.0, numpy.inf])
    assert_xp_close(quiet(garray.var, arr(garray, inf)), quiet(numpy.var, inf))
    assert_xp_close(garray.nanmean(arr(garray, inf)), numpy.nanmean(inf))


FLOAT_STATS = ("mean", "var", "std", "nansum", "nanmean", "nanvar", "nanstd", "nanmax",
               "nanmin", "ptp")


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_against_numpy(data):
    dtype = data.draw(st.sampled_from(["float32", "float64", "complex128"]))
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    n = int(numpy.prod(shape))
    values = st.sampled_from([-2.0, -0.5, 0.0, 1.0, 3.5, numpy.nan])
    h = numpy.array(data.draw(st.lists(values, min_size=n, max_size=n)),
                    dtype=dtype).reshape(shape)
    if dtype == "complex128":
        h = h + 1j * h[::-1].reshape(shape)
    axes = data.draw(st.lists(st.integers(0, len(shape) - 1), unique=True, max_size=3))
    axis = data.draw(st.sampled_from([None, tuple(axes)] + axes[:1]))
    transpose = data.draw(st.booleans())
    fn = data.draw(st.sampled_from(FLOAT_STATS))
    keepdims = data.draw(st.booleans())
    a = arr(garray, h)
    if transpose:
        h, a = h.T, a.T
    try:
        want = quiet(getattr(numpy, fn), h, axis=axis, keepdims=keepdims)
    except ValueError:
        with pytest.raises(ValueError):
            quiet(getattr(garray, fn), a, axis=axis, keepdims=keepdims)
        return
    got = quiet(getattr(garray, fn), a, axis=axis, keepdims=keepdims)
    assert_xp_close(got, want, rtol=loose(want.dtype)[0], atol=1e-5,
                    err_msg=f"{fn} axis={axis}")
