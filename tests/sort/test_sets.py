"""Set routines (garray/_sort/sets.py) against NumPy.

NumPy 2.3+ returns unique_values unordered (the Array API leaves the order open); the
tests sort it before comparing."""

import numpy
import pytest

import garray
from xp import assert_xp_close, for_all_dtypes, make, xp_compare

SETS_DTYPES = ("bool", "int8", "uint8", "int32", "int64", "uint64", "float32", "float64",
               "complex64", "complex128")


def data(xp, dtype, shape=(4, 6)):
    a = make(xp, shape, dtype) % 5 if dtype != "bool" else make(xp, shape, dtype)
    return a if dtype != "bool" else a


def with_nan(xp, dtype):
    h = (numpy.arange(12) % 4).astype(dtype)
    h[[2, 7, 9]] = numpy.nan
    return xp.asarray(h.reshape(3, 4))


@for_all_dtypes(dtypes=SETS_DTYPES)
@xp_compare()
def test_unique_family(xp, dtype):
    a = data(xp, dtype)
    r = xp.unique_all(a)
    return [xp.sort(xp.unique_values(a)), *xp.unique_counts(a), *xp.unique_inverse(a), *r,
            *xp.unique(a, return_index=True, return_inverse=True, return_counts=True),
            xp.unique(a[::-1, ::2])]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@xp_compare()
def test_unique_nan(xp, dtype):
    a = with_nan(xp, dtype)
    return [xp.sort(xp.unique_values(a)), *xp.unique_all(a), xp.unique(a),
            *xp.unique(a, return_counts=True, return_inverse=True),
            xp.unique(a, equal_nan=False)]


@pytest.mark.parametrize("axis", [0, 1, -1])
@xp_compare()
def test_unique_axis(xp, axis):
    a = xp.asarray(numpy.array([[1, 0, 1, 1], [0, 1, 0, 0], [1, 0, 1, 1]], dtype="int32"))
    return list(xp.unique(a, axis=axis, return_index=True, return_inverse=True,
                          return_counts=True))


@xp_compare()
def test_unique_empty_and_0d(xp):
    e = xp.zeros((0,), dtype=xp.float32)
    z = xp.asarray(numpy.float64(3.0))
    return [xp.unique(e), *xp.unique_all(e), xp.sort(xp.unique_values(z)) if z.ndim else xp.unique_values(z), *xp.unique_inverse(z)]


@for_all_dtypes(dtypes=SETS_DTYPES)
@xp_compare()
def test_isin_and_1d_sets(xp, dtype):
    a = data(xp, dtype, (3, 5))
    b = data(xp, dtype, (4,)) + (xp.ones((4,), dtype=dtype) if dtype != "bool" else False)
    return [xp.isin(a, b), xp.isin(a, b, invert=True), xp.intersect1d(a, b),
            *xp.intersect1d(a, b, return_indices=True), xp.union1d(a, b),
            xp.setdiff1d(a, b), xp.setxor1d(a, b),
            xp.isin(a, xp.zeros((0,), dtype=dtype))]


@xp_compare()
def test_assume_unique(xp):
    a = xp.asarray(numpy.array([5, 1, 3], dtype="int64"))
    b = xp.asarray(numpy.array([3, 7, 5], dtype="int64"))
    return [xp.intersect1d(a, b, assume_unique=True), xp.setdiff1d(a, b, assume_unique=True),
            xp.setxor1d(a, b, assume_unique=True)]


def test_isin_nan_never_found():
    a = garray.asarray(numpy.array([numpy.nan, 1.0]))
    assert_xp_close(garray.isin(a, a), numpy.isin(numpy.array([numpy.nan, 1.0]),
                                                  numpy.array([numpy.nan, 1.0])))


def test_bad_input():
    with pytest.raises(ValueError):
        garray.isin(garray.asarray([1]), garray.asarray([1]), kind="bad")
    with pytest.raises(numpy.exceptions.AxisError):
        garray.unique(garray.zeros((2, 2)), axis=2)


# ---- interp, sort_complex, histogram_bin_edges ----------------------------------------


@pytest.mark.parametrize("case", ["plain", "outside", "left-right", "period", "complex",
                                  "single", "nan", "float32-points"])
@xp_compare()
def test_interp(xp, case):
    xq = xp.asarray(numpy.array([-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, 7.0]))
    xs = xp.asarray(numpy.array([0.0, 1.0, 2.0, 3.0]))
    fs = xp.asarray(numpy.array([1.0, 3.0, -2.0, 0.5]))
    if case == "plain":
        return xp.interp(xq, xs, fs)
    if case == "outside":
        return xp.interp(xp.asarray(numpy.array([-5.0, 10.0])), xs, fs)
    if case == "left-right":
        return xp.interp(xq, xs, fs, left=-9.0, right=9.0)
    if case == "period":
        return xp.interp(xq, xp.asarray(numpy.array([350.0, 10.0, 90.0])),
                         xp.asarray(numpy.array([1.0, 2.0, 4.0])), period=360)
    if case == "complex":
        return xp.interp(xq, xs, fs * (1 + 2j))
    if case == "single":
        return xp.interp(xq, xs[:1], fs[:1])
    if case == "nan":
        return xp.interp(xp.asarray(numpy.array([numpy.nan, 1.5])), xs, fs)
    return xp.interp(xp.asarray(numpy.array([0.25, 2.75], dtype="float32")), xs, fs)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32", "float64",
                                   "complex64", "bool"])
@xp_compare()
def test_sort_complex(xp, dtype):
    return xp.sort_complex(make(xp, (7,), dtype)[::-1])


@xp_compare()
def test_histogram_bin_edges(xp):
    a = xp.asarray(numpy.array([0.5, 2.0, 3.5, 1.0]))
    return [xp.histogram_bin_edges(a), xp.histogram_bin_edges(a, bins=3, range=(0, 6)),
            xp.histogram_bin_edges(a, bins=xp.asarray(numpy.array([0.0, 1.0, 4.0])))]
