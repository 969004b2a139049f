"""Sorting and searching (garray/_sorting.py, garray/_quantiles.py) against NumPy: sort,
argsort (stable, descending), searchsorted, lexsort, partition, argpartition, median,
quantile, percentile and their nan forms, digitize; both radix paths."""

import warnings

import numpy
import pytest
from numpy.exceptions import AxisError

import garray
from garray import _sorting
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, run_in_threads, xp_compare

REAL = tuple(d for d in ALL_DTYPES if not d.startswith("complex"))
NUMERIC = tuple(d for d in REAL if d != "bool")


@pytest.fixture(params=["auto", "rows", "chunks"])
def path(request):
    """Each radix path; the chunked one with chunks of 16 so small rows span many."""
    p = request.param
    old = _sorting._debug_sort(None if p == "auto" else p, 16 if p == "chunks" else None)
    yield p
    _sorting._debug_sort(*old)


def data(shape, dtype, seed=0, ties=True):
    """Random data of ``dtype`` with many ties and, for floats, NaN, +-inf, +-0.0."""
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    size = int(numpy.prod(shape))
    if dtype.kind == "b":
        return (rng.integers(0, 2, size) == 1).reshape(shape)
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        h = rng.integers(-6 if dtype.kind == "i" else 0, 7, size) if ties else \
            rng.integers(info.min, info.max, size, dtype=dtype, endpoint=True)
        if size > 4 and not ties:
            h[:2] = [info.min, info.max]
        return h.astype(dtype).reshape(shape)
    real = numpy.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
    special = numpy.array([numpy.nan, numpy.inf, -numpy.inf, -0.0, 0.0, -numpy.nan])

    def part():
        v = rng.integers(-4, 5, size).astype(real) * real.type(0.5)
        pick = rng.random(size) < 0.2
        v[pick] = rng.choice(special, pick.sum()).astype(real)
        return v
    if dtype.kind == "f":
        return part().astype(dtype).reshape(shape)
    h = numpy.empty(size, dtype)
    h.real, h.imag = part(), part()          # NaN/inf in either part, independently
    return h.reshape(shape)


def assert_same_sort(got, expected):
    assert_xp_close(got, expected)
    if expected.dtype.kind == "f":      # -0.0 and 0.0 keep their input order (stable)
        numpy.testing.assert_array_equal(numpy.signbit(got.get()), numpy.signbit(expected))


@for_all_dtypes()
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_sort_and_argsort_match_numpy_stable(dtype, axis, path):
    h = data((3, 5, 37), dtype)
    g = garray.asarray(h)
    assert_same_sort(garray.sort(g, axis=axis), numpy.sort(h, axis=axis, kind="stable"))
    assert_xp_close(garray.argsort(g, axis=axis), numpy.argsort(h, axis=axis, kind="stable"))


@for_all_dtypes()
def test_descending_is_the_array_api_stable_reverse(dtype, path):
    h = data((4, 50), dtype, seed=3)
    g = garray.asarray(h)
    # the Array API's descending stable sort, as array-api-strict defines it from NumPy
    exp = numpy.flip(numpy.sort(numpy.flip(h, -1), -1, kind="stable"), -1)
    exp_i = h.shape[-1] - 1 - numpy.flip(numpy.argsort(numpy.flip(h, -1), -1, kind="stable"), -1)
    assert_same_sort(garray.sort(g, descending=True), exp)
    assert_xp_close(garray.argsort(g, descending=True), exp_i)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "uint64", "int64"])
def test_full_integer_range(dtype, path):
    h = data((2, 300), dtype, seed=5, ties=False)
    assert_xp_close(garray.sort(garray.asarray(h)), numpy.sort(h))
    assert_xp_close(garray.argsort(garray.asarray(h)), numpy.argsort(h, kind="stable"))


@for_all_dtypes(dtypes=("bool", "int16", "float32", "float64", "complex64", "complex128"))
@pytest.mark.parametrize("view", ["transposed", "strided", "reversed"])
def test_non_contiguous_inputs(dtype, view):
    h = data((20, 30), dtype, seed=2)
    g = garray.asarray(h)
    pick = {"transposed": lambda x: x.T, "strided": lambda x: x[::2, 1::3],
            "reversed": lambda x: x[::-1, ::-1]}[view]
    for axis in (0, -1):
        assert_same_sort(garray.sort(pick(g), axis=axis), numpy.sort(pick(h), axis=axis,
                                                                      kind="stable"))
        assert_xp_close(garray.argsort(pick(g), axis=axis),
                        numpy.argsort(pick(h), axis=axis, kind="stable"))


@pytest.mark.parametrize("shape", [(0,), (0, 4), (4, 0), (1,), (2,), (5, 1), (7, 2)])
@xp_compare()
def test_small_and_empty(xp, shape):
    h = data(shape, "float64", seed=1)
    x = xp.asarray(h)
    return [xp.sort(x), xp.argsort(x, kind="stable"), xp.sort(x, axis=0)]


@xp_compare()
def test_0d_axis_minus_one_is_an_axis_error(xp):
    return xp.sort(xp.asarray(1.5))


@xp_compare()
def test_0d_axis_none_flattens(xp):
    return [xp.sort(xp.asarray(1.5), axis=None), xp.argsort(xp.asarray(2), axis=None)]


@xp_compare()
def test_axis_out_of_range(xp):
    return xp.sort(xp.ones((2, 3)), axis=2)


def test_order_and_kind_arguments():
    g = garray.asarray([3, 1, 2])
    with pytest.raises(NotImplementedError, match="order"):
        garray.sort(g, order="x")
    with pytest.raises(ValueError, match="kind"):
        garray.sort(g, kind="bogus")
    for kind in ("quicksort", "mergesort", "heapsort", "stable"):
        assert garray.sort(g, kind=kind).get().tolist() == [1, 2, 3]


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex128", "uint8"])
def test_long_rows_automatic_path_and_many_ties(dtype):
    n = 5 * _sorting._CHUNK["cpu" if garray.asarray([1]).device.kind == "cpu" else "gpu"] + 7
    h = data((n,), dtype, seed=7)
    g = garray.asarray(h)
    assert_same_sort(garray.sort(g), numpy.sort(h, kind="stable"))
    assert_xp_close(garray.argsort(g), numpy.argsort(h, kind="stable"))


def test_many_short_rows(path):
    h = data((500, 3), "int32", seed=9)
    assert_xp_close(garray.argsort(garray.asarray(h)), numpy.argsort(h, kind="stable"))


def test_ndarray_methods_sort_in_place():
    h = data((6, 9), "float64", seed=4)
    g = garray.asarray(h)
    assert_xp_close(g.argsort(axis=0), h.argsort(axis=0, kind="stable"))
    g.sort(axis=0)
    h.sort(axis=0, kind="stable")
    assert_same_sort(g, h)
    g.partition(3)
    assert g.shape == h.shape


def test_threads():
    h = data((8, 333), "float32", seed=11)
    exp = numpy.argsort(h, kind="stable")

    def work(i):
        assert_xp_close(garray.argsort(garray.asarray(h)), exp)
    run_in_threads(work, 4)


# ---- searchsorted, digitize -------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(dtype, side):
    a = numpy.sort(data((200,), dtype, seed=12), kind="stable")
    v = data((7, 11), dtype, seed=13)
    assert_xp_close(garray.searchsorted(garray.asarray(a), garray.asarray(v), side=side),
                    numpy.searchsorted(a, v, side=side))
    perm = numpy.random.default_rng(1).permutation(200)
    u = a[perm]
    sorter = numpy.argsort(u, kind="stable")
    assert_xp_close(garray.searchsorted(garray.asarray(u), garray.asarray(v), side=side,
                                        sorter=garray.asarray(sorter)),
                    numpy.searchsorted(u, v, side=side, sorter=sorter))


@xp_compare()
def test_searchsorted_scalar_and_empty(xp):
    a = xp.asarray([1.0, 2.0, 2.0, 3.0, numpy.nan])
    return [xp.searchsorted(a, 2.0), xp.searchsorted(a, numpy.nan, side="left"),
            xp.searchsorted(a, xp.asarray([], dtype=xp.float64)),
            xp.searchsorted(xp.asarray([], dtype=xp.float64), xp.asarray([1.0]))]


def test_searchsorted_errors():
    a = garray.asarray([1, 2, 3])
    with pytest.raises(ValueError, match="side"):
        garray.searchsorted(a, 1, side="middle")
    with pytest.raises(ValueError):
        garray.searchsorted(garray.ones((2, 2)), 1)


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("bins", [[0.0, 1.0, 1.0, 2.5], [3.0, 2.0, 2.0, -1.0]])
@xp_compare()
def test_digitize(xp, bins, right):
    x = xp.asarray(data((40,), "float64", seed=14))
    return xp.digitize(x, xp.asarray(bins), right=right)


@xp_compare()
def test_digitize_not_monotonic(xp):
    return xp.digitize(xp.asarray([1.0]), xp.asarray([1.0, 3.0, 2.0]))


# ---- lexsort, partition -------------------------------------------------------------


@xp_compare()
def test_lexsort(xp):
    a = xp.asarray(data((3, 60), "int16", seed=15))
    b = xp.asarray(data((3, 60), "float64", seed=16))
    return [xp.lexsort((b, a)), xp.lexsort((a[0], b[1], a[2])), xp.lexsort(a, axis=0)]


@for_all_dtypes(dtypes=("bool", "int32", "uint8", "float32", "float64", "complex128"))
@pytest.mark.parametrize("kth", [0, 4, -1, (1, 7)])
def test_partition_contract(dtype, kth):
    h = data((5, 23), dtype, seed=17)
    g = garray.asarray(h)
    p = garray.partition(g, kth).get()
    ip = garray.argpartition(g, kth).get()
    s = numpy.sort(h, axis=-1)
    for k in numpy.atleast_1d(kth):
        numpy.testing.assert_array_equal(p[:, k], s[:, k])
        numpy.testing.assert_array_equal(numpy.take_along_axis(h, ip, -1)[:, k], s[:, k])
    numpy.testing.assert_array_equal(numpy.sort(numpy.take_along_axis(h, ip, -1), -1), s)


@xp_compare()
def test_partition_kth_out_of_bounds(xp):
    return xp.partition(xp.asarray([1, 2, 3]), 3)


# ---- median, quantiles ----------------------------------------------------------------


QAXES = (None, 0, -1, (0, 2))


@for_all_dtypes(dtypes=NUMERIC)
@pytest.mark.parametrize("axis", QAXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_median(dtype, axis, keepdims):
    h = data((4, 5, 6), dtype, seed=18)
    if h.dtype.kind == "f":
        h[0, 0, :] = numpy.nan_to_num(h[0, 0, :], nan=1.0)
    g = garray.asarray(h)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_xp_close(garray.median(g, axis=axis, keepdims=keepdims),
                        numpy.median(h, axis=axis, keepdims=keepdims))
        assert_xp_close(garray.nanmedian(g, axis=axis, keepdims=keepdims),
                        numpy.nanmedian(h, axis=axis, keepdims=keepdims))


@for_all_dtypes(dtypes=NUMERIC)
@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("axis", [None, 1, (0, 1)])
def test_quantile_methods(dtype, method, axis):
    h = numpy.nan_to_num(data((4, 7, 3), dtype, seed=19), nan=2.0, posinf=9.0, neginf=-9.0)
    g = garray.asarray(h)
    for q in (0.3, [0.0, 0.25, 0.5, 1.0], numpy.array([[0.1, 0.9]])):
        qg = garray.asarray(q) if isinstance(q, numpy.ndarray) else q
        assert_xp_close(garray.quantile(g, qg, axis=axis, method=method),
                        numpy.quantile(h, q, axis=axis, method=method))
        assert_xp_close(garray.percentile(g, numpy.multiply(q, 100).tolist()
                                          if not isinstance(q, float) else 100 * q,
                                          axis=axis, method=method, keepdims=True),
                        numpy.percentile(h, numpy.multiply(q, 100).tolist()
                                         if not isinstance(q, float) else 100 * q,
                                         axis=axis, method=method, keepdims=True))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("method", ["linear", "lower", "midpoint"])
def test_nan_quantiles(dtype, method):
    h = data((6, 9), dtype, seed=20)
    h[2, :] = numpy.nan                      # an all-NaN row
    h[3, :3] = numpy.inf
    g = garray.asarray(h)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for f in ("quantile", "nanquantile"):
            assert_xp_close(getattr(garray, f)(g, [0.2, 0.5], axis=1, method=method),
                            getattr(numpy, f)(h, [0.2, 0.5], axis=1, method=method))
        assert_xp_close(garray.nanpercentile(g, 40, axis=0, method=method),
                        numpy.nanpercentile(h, 40, axis=0, method=method))
    with pytest.warns(RuntimeWarning, match="All-NaN"):
        garray.nanmedian(g, axis=1)


@pytest.mark.parametrize("q", [1.5, -0.1, [0.5, 2.0]])
@xp_compare()
def test_quantile_out_of_range(xp, q):
    return xp.quantile(xp.asarray([1.0, 2.0]), q)


def test_quantile_refusals():
    g = garray.asarray([1.0, 2.0])
    with pytest.raises(TypeError):
        garray.quantile(garray.asarray([1j, 2j]), 0.5)
    with pytest.raises(NotImplementedError, match="hazen"):
        garray.quantile(g, 0.5, method="hazen")
    with pytest.raises(ValueError):
        garray.quantile(g, 0.5, method="bogus")
    with pytest.raises(AxisError):
        garray.median(g, axis=1)
