"""Regression tests for what tests/fuzz_sorting.py found: each case is run with NumPy and
with garray (xp_compare) and must give the same result or the same exception class."""

import os
import sys
import warnings

import numpy
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from xp import xp_compare  # noqa: E402


# ---- sort, argsort, lexsort, sort_complex ----------------------------------------------

@pytest.mark.parametrize("kw", [{"kind": 3}, {"kind": "quicksort", "stable": False},
                                {"kind": "stable", "stable": True}, {"kind": "bogus"},
                                {"axis": 1.0}, {"axis": "0", "kind": "heapsort"},
                                {"stable": "yes"}, {"kind": "mergesort"}])
@pytest.mark.parametrize("name", ["sort", "argsort"])
@xp_compare()
def test_sort_kind_stable_axis_checks(xp, name, kw):
    return getattr(xp, name)(xp.asarray([3, 1, 2]), **kw)


@pytest.mark.parametrize("axis", [0, -1, 1, None, 1.0])
@pytest.mark.parametrize("name", ["sort", "argsort"])
@xp_compare()
def test_sort_0d(xp, name, axis):
    return getattr(xp, name)(xp.asarray(2.5), axis=axis)


@xp_compare()
def test_argsort_huge_axis_before_kind(xp):
    try:
        return xp.argsort(xp.asarray([1.0, 2.0]), axis=2**63, kind=3)
    except OverflowError:
        raise ValueError("NumPy's OverflowError; garray's AxisError") from None


@pytest.mark.parametrize("keys,axis", [("0d", -1), ("one0d", -1), ("one0d", 0),
                                       ("one0d", 1), ("one0d", -2), ("1d", None)])
@xp_compare()
def test_lexsort_0d_keys_and_axis(xp, keys, axis):
    k = {"0d": xp.asarray(1.0), "one0d": xp.asarray([1.0]),
         "1d": xp.asarray([[2, 1]])}[keys]
    return xp.lexsort(k, axis=axis)


@xp_compare()
def test_sort_complex_0d(xp):
    return xp.sort_complex(xp.asarray(3))


# ---- partition -------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [1.0, (0,), 0, -1, None])
@pytest.mark.parametrize("name", ["partition", "argpartition"])
@xp_compare()
def test_partition_0d_axis(xp, name, axis):
    return getattr(xp, name)(xp.asarray(1.5), 0, axis=axis)


@xp_compare()
def test_argpartition_empty_skips_kth_range(xp):
    return xp.argpartition(xp.zeros((0, 0, 1), dtype="float32"), 1, axis=-1)


# ---- searching and sets ----------------------------------------------------------------

@pytest.mark.parametrize("bins", [[], [1 + 0j, 2 + 0j]])
@xp_compare()
def test_digitize_complex_bins(xp, bins):
    return xp.digitize(xp.asarray([1, 2]), xp.asarray(numpy.asarray(bins, complex)))


@pytest.mark.parametrize("d1,d2", [("int8", "uint64"), ("uint8", "uint64"),
                                   ("complex64", "float64"), ("float16", "int32")])
@pytest.mark.parametrize("return_indices", [False, True])
@xp_compare()
def test_intersect1d_promotes(xp, d1, d2, return_indices):
    r = xp.intersect1d(xp.asarray(numpy.array([1, 2, 3], d1)),
                       xp.asarray(numpy.array([2, 3, 4], d2)), return_indices=return_indices)
    return tuple(r) if return_indices else r


@xp_compare()
def test_isin_table_needs_integers(xp):
    return xp.isin(xp.asarray([1.0, 2.0]), xp.asarray([1, 3]), kind="table")


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((0,), -1), ((0, 2, 2), 0),
                                        ((4, 0, 0), 1)])
@xp_compare()
def test_unique_axis_empty(xp, shape, axis):
    r = xp.unique(xp.zeros(shape, dtype="int32"), axis=axis, return_index=True,
                  return_inverse=True, return_counts=True)
    return tuple(r)


# ---- quantiles -------------------------------------------------------------------------

@pytest.mark.parametrize("name,args", [("median", ()), ("nanmedian", ()),
                                       ("quantile", (0.5,)), ("nanpercentile", (50.0,))])
@pytest.mark.parametrize("axis", [0, -1, (0,), ()])
@xp_compare()
def test_quantile_0d_axis(xp, name, args, axis):
    return getattr(xp, name)(xp.asarray(4.0), *args, axis=axis)


@pytest.mark.parametrize("dtype", ["int16", "float16", "float32"])
@pytest.mark.parametrize("q", [0.5, [0.5, 1.0]])
@xp_compare()
def test_nanquantile_empty_is_nanmean(xp, dtype, q):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return xp.nanquantile(xp.zeros((0,), dtype=dtype), q, method="lower")


@xp_compare()
def test_nanquantile_empty_axis(xp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return xp.nanquantile(xp.zeros((0, 2)), 0.5, axis=0)


@pytest.mark.parametrize("shape,axis", [((), None), ((2, 2), 0)])
@xp_compare()
def test_quantile_empty_q(xp, shape, axis):
    return xp.quantile(xp.ones(shape), [], axis=axis)


@xp_compare()
def test_quantile_empty_axis_is_index_error(xp):
    return xp.percentile(xp.zeros((0, 0)), 100.0, axis=0)


@xp_compare()
def test_quantile_axis_checked_before_method(xp):
    return xp.quantile(xp.asarray([1.0, 2.0]), 0.5, axis=1.0, method="bogus")


# ---- histograms ------------------------------------------------------------------------

@pytest.mark.parametrize("x,weights,minlength", [
    ([], [0.5], 0), ([], None, 3), ([2, -1], [1j, 1j], 0), ([], [1j], 0)])
@xp_compare()
def test_bincount_order_of_checks(xp, x, weights, minlength):
    w = None if weights is None else xp.asarray(numpy.asarray(weights))
    return xp.bincount(xp.asarray(numpy.asarray(x, dtype=numpy.int64)), weights=w,
                       minlength=minlength)


@pytest.mark.parametrize("bins", ["bogus", 2.5, numpy.int64(3)])
@xp_compare()
def test_histogram_bins_types(xp, bins):
    return tuple(xp.histogram(xp.asarray([1.0, 2.0, 4.0]), bins=bins))


@pytest.mark.parametrize("n", [0, 3])
@xp_compare()
def test_histogram_density_complex_weights(xp, n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return tuple(xp.histogram(xp.ones((n,), dtype="int16"), bins=[0, 1, 3], density=True,
                                  weights=xp.asarray(numpy.arange(n) * (1 + 2j))))


@xp_compare()
def test_histogram_bin_edges_checks_weights(xp):
    return xp.histogram_bin_edges(xp.asarray([1, 2, 3]), weights=xp.ones(2))


@pytest.mark.parametrize("bins", ["sqrt", []])
@xp_compare()
def test_histogram2d_bad_bins(xp, bins):
    x = xp.asarray([1.0, 2.0])
    return tuple(xp.histogram2d(x, x, bins=bins))


@pytest.mark.parametrize("rng", [None, [(2, 2)], [(0, 3)]])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
@xp_compare()
def test_histogramdd_edge_dtypes(xp, rng, dtype):
    x = xp.asarray(numpy.array([[1], [2], [4]], dtype))
    h, edges = xp.histogramdd(x, bins=2, range=rng)
    return (h,) + tuple(edges)


@xp_compare()
def test_histogram2d_array_bins_keep_dtype(xp):
    x = xp.zeros((0,), dtype="int32")
    return tuple(xp.histogram2d(x, x, bins=[0, 1, 3]))


# ---- statistics ------------------------------------------------------------------------

@pytest.mark.parametrize("out", ["float64", "complex128"])
@xp_compare()
def test_ptp_complex_out_casting(xp, out):
    o = xp.zeros((), dtype=out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        xp.ptp(xp.asarray([1 + 1j, 2 - 1j]), out=o)
    return o


@pytest.mark.parametrize("shape,rowvar", [((0, 0), True), ((4, 0), False)])
@pytest.mark.parametrize("name", ["cov", "corrcoef"])
@xp_compare()
def test_cov_no_variables_is_float64(xp, name, shape, rowvar):
    return getattr(xp, name)(xp.zeros(shape, dtype="complex64"), rowvar=rowvar)


@xp_compare()
def test_cov_complex_with_fweights(xp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return xp.cov(xp.asarray(1 + 2j, dtype="complex64"), fweights=xp.asarray([1]))
