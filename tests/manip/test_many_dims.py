"""Arrays of up to 64 dimensions (NumPy 2's limit; Note [ndarray layout], 6 in
cython/_ndarray.pxi): 24 axes inside the ndarray, more on the heap, launches of more than
24 axes that do not merge split over their leading axes.  Each compared with NumPy."""

import os
import sys

import numpy
import pytest

import garray

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from xp import assert_xp_close, xp_compare  # noqa: E402


def _shape(nd, big=(2, 3)):
    """nd axes, mostly of length 1, with the axes in ``big`` spread over it."""
    s = [1] * nd
    for i, n in enumerate(big):
        s[(i * 7 + 3) % nd] = n
    return tuple(s)


@pytest.mark.parametrize("nd", [24, 25, 40, 64])
@xp_compare()
def test_creation_and_elementwise(xp, nd):
    s = _shape(nd)
    a = xp.arange(6, dtype="float64").reshape(s)
    return (xp.zeros(s, dtype="int16"), xp.ones(s), xp.full(s, 2.5), a * 2 + 1,
            xp.sqrt(a), xp.where(a > 2, a, -a), a.astype("float32"), xp.empty(s).shape)


@pytest.mark.parametrize("nd", [25, 64])
@xp_compare()
def test_views(xp, nd):
    a = xp.arange(6, dtype="int32").reshape(_shape(nd))
    return (a.T, xp.squeeze(a), a[..., 0], a[0, ...], a.reshape(-1), a.reshape(_shape(nd, (3, 2))),
            xp.moveaxis(a, 0, -1), xp.transpose(a), a.mT, xp.broadcast_to(a, a.shape),
            xp.swapaxes(a, 1, nd - 2), a[..., None].shape if nd < 64 else a.shape)


@pytest.mark.parametrize("nd", [25, 63])
@xp_compare()
def test_growing_views(xp, nd):
    a = xp.arange(6, dtype="float32").reshape(2, 3)
    return (a[(None,) * (nd - 2)], xp.expand_dims(a, tuple(range(nd - 2))),
            xp.broadcast_to(a, (1,) * (nd - 2) + (2, 3)), a.reshape((1,) * (nd - 2) + (6, 1)))


@pytest.mark.parametrize("axis", [None, 3, (0, 3, 17, 29), -1])
@pytest.mark.parametrize("keepdims", [False, True])
@xp_compare()
def test_reductions(xp, axis, keepdims):
    a = xp.arange(24, dtype="float64").reshape(_shape(30, (2, 3, 4)))
    return (xp.sum(a, axis=axis, keepdims=keepdims), xp.max(a, axis=axis, keepdims=keepdims),
            xp.argmax(a, axis=axis if not isinstance(axis, tuple) else None))


@xp_compare()
def test_scan_and_sort(xp):
    a = (xp.arange(24, dtype="int64") * 7 % 11).reshape(_shape(30, (2, 3, 4)))
    return xp.cumsum(a, axis=17), xp.sort(a, axis=3), xp.argsort(a, axis=24)


def test_more_than_64_dimensions_is_refused():
    for make in (lambda: garray.zeros((1,) * 65), lambda: garray.ones(1).reshape((1,) * 65),
                 lambda: garray.ones((1,) * 64)[None]):
        with pytest.raises((ValueError, IndexError), match="64|dimensions"):
            make()
    with pytest.raises(ValueError):
        numpy.zeros((1,) * 65)


@pytest.mark.parametrize("nd", [30, 64])
def test_host_and_dlpack_round_trips(nd):
    h = numpy.arange(6.0).reshape(_shape(nd))
    for g in (garray.asarray(h), garray.from_dlpack(h) if garray.default_device().kind == "cpu"
              else garray.asarray(h)):
        assert g.shape == h.shape and g.ndim == nd
        numpy.testing.assert_array_equal(g.get(), h)
    if garray.default_device().kind == "cpu":      # export: NumPy reads the DLPack tensor
        numpy.testing.assert_array_equal(numpy.from_dlpack(g.T), h.T)
    assert garray.__array_namespace_info__().capabilities()["max dimensions"] == 64


@xp_compare()
def test_launch_of_25_axes_that_do_not_merge(xp):
    # 2**25 int8 outputs: x (2, 1, 2, 1, ...) + y (1, 2, 1, 2, ...) broadcast to (2,)*25,
    # whose 25 axes merge in no operand: the iterator walks the leading one on the host.
    x = xp.asarray(numpy.arange(2**13, dtype=numpy.int8).reshape((2, 1) * 12 + (2,)))
    y = xp.asarray((numpy.arange(2**12, dtype=numpy.int8) * 3).reshape((1, 2) * 12 + (1,)))
    z = x + y
    return z[(slice(None),) * 20 + (0,) * 5], z.sum(axis=(0, 24), dtype="int64")[(0,) * 23]


def test_tril_of_more_than_24_dimensions_is_refused_by_name():
    with pytest.raises(NotImplementedError, match="tril/triu of 25 dimensions"):
        garray.tril(garray.ones((1,) * 23 + (2, 2)))
    assert_xp_close(garray.tril(garray.ones((1,) * 22 + (2, 2))),
                    numpy.tril(numpy.ones((1,) * 22 + (2, 2))))


def _unmergeable(xp, nd, dtype="float64"):
    """nd axes of length 2, reversed: no two axes merge, so a launch sees all of them."""
    return xp.arange(2.0 ** nd, dtype=dtype).reshape((2,) * nd).transpose(
        tuple(range(nd - 1, -1, -1)))


def test_user_kernels_flatten_past_the_indexer():
    """The threshold is the kernels' indexer size (GA_MAX_NDIM); the test below lowers it,
    as 25 axes that do not merge need 2**25 elements."""
    from garray.kernels import _elementwise  # noqa: PLC0415 - optional family
    assert _elementwise._FLAT_NDIM == _elementwise._MAX_NDIM == 24


@pytest.mark.parametrize("nd, flat, dtype", [(5, 3, "float64"), (5, 3, "int32"),
                                             (4, 3, "int8"), (4, 2, "complex64")])
def test_user_kernels_past_24_axes(nd, flat, dtype, monkeypatch):
    """ElementwiseKernel and ReductionKernel over more axes than their indexer keeps
    (24): flattened copies (inputs broadcast, outputs written back through strided
    views), reached with a lowered threshold."""
    # the kernels module is imported on first use (an optional family)
    from garray.kernels import ElementwiseKernel, ReductionKernel, _elementwise  # noqa: PLC0415
    monkeypatch.setattr(_elementwise, "_FLAT_NDIM", flat)
    ew = ElementwiseKernel("T x, T y", "T z", "z = x + x + y", "many_dims_ew")
    red = ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "many_dims_sum")
    g, h = _unmergeable(garray, nd, dtype), _unmergeable(numpy, nd, dtype)
    row = numpy.arange(2, dtype=dtype).reshape((2,) + (1,) * (nd - 1))
    assert_xp_close(ew(g, garray.asarray(row)), h * 2 + row)
    out = garray.zeros((2,) * nd, dtype=dtype).transpose(tuple(range(nd - 1, -1, -1)))
    assert ew(g, g, out) is out
    assert_xp_close(out, h * 3)
    for axis in (None, 0, (1, nd - 1), tuple(range(0, nd, 2))):
        for keepdims in (False, True):
            want = h.sum(axis=axis, keepdims=keepdims, dtype=dtype)
            assert_xp_close(red(g, axis=axis, keepdims=keepdims), numpy.asarray(want))
    kept = garray.zeros(h.sum(axis=0).shape, dtype=dtype)
    assert red(g, axis=0, out=kept) is kept
    assert_xp_close(kept, h.sum(axis=0, dtype=dtype))


def test_user_kernel_keeping_its_axes_past_24_is_refused(monkeypatch):
    from garray.kernels import ElementwiseKernel, _elementwise  # noqa: PLC0415 - optional family
    monkeypatch.setattr(_elementwise, "_FLAT_NDIM", 3)
    k = ElementwiseKernel("T x", "T z", "z = x", "many_dims_keep", reduce_dims=False)
    with pytest.raises(NotImplementedError, match="many_dims_keep: reduce_dims=False with 4"):
        k(_unmergeable(garray, 4))
