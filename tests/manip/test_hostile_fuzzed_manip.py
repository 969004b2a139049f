"""Regressions found by tests/fuzz_index_manip.py (the hostile fuzzer's indexing and
manipulation classes): each compared with NumPy through ``xp_compare``."""

import os
import sys

import numpy
import pytest

import garray

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from xp import xp_compare  # noqa: E402


def _a(xp, shape, dtype="float64"):
    return xp.asarray(numpy.arange(1, 1 + int(numpy.prod(shape))).reshape(shape)
                      .astype(dtype))


@pytest.mark.parametrize("mask", [[True, False], True, [[True], [False], [True]]])
@xp_compare()
def test_putmask_mask_size(xp, mask):
    a = _a(xp, (3, 1))
    xp.putmask(a, xp.asarray(mask), 9.0)
    return a


@pytest.mark.parametrize("vdtype", ["int16", "float64", "float32", "int8"])
@xp_compare()
def test_putmask_place_safe_cast(xp, vdtype):
    a = _a(xp, (3,), "float16")
    xp.putmask(a, xp.asarray([True, False, True]), xp.asarray(numpy.array([1, 2], vdtype)))
    b = _a(xp, (3,), "int8")
    xp.place(b, xp.asarray([True, False, True]), xp.asarray(numpy.array([1], vdtype)))
    return a, b


@xp_compare()
def test_place_mask_size(xp):
    a = _a(xp, (3,))
    xp.place(a, xp.asarray([True, False]), xp.asarray([1.0]))
    return a


@pytest.mark.parametrize("a, mode", [([1.0, 0.0], "raise"), (numpy.nan, "clip"),
                                     (numpy.array([1, 0], numpy.uint64), "raise"),
                                     (numpy.array([1, 0]), "bogus"),
                                     (-2**63 - 1, "clip")])
@xp_compare()
def test_choose_refusals(xp, a, mode):
    idx = xp.asarray(a) if isinstance(a, numpy.ndarray) else a
    return xp.choose(idx, [_a(xp, (2,)), _a(xp, (2,))], mode=mode)


@xp_compare()
def test_choose_out_shape(xp):
    return xp.choose(xp.asarray([0]), [_a(xp, (1,))], out=xp.zeros(3))


@pytest.mark.parametrize("ind, mode, size", [([0], "bogus", 3), ([0], "raise", 0),
                                             (numpy.array([0], numpy.uint64), "raise", 3)])
@xp_compare()
def test_put_order_of_checks(xp, ind, mode, size):
    a = _a(xp, (size,))
    xp.put(a, xp.asarray(ind) if isinstance(ind, numpy.ndarray) else ind, [], mode=mode)
    return a


@pytest.mark.parametrize("axis", [(0,), 5])
@xp_compare()
def test_take_axis_before_mode(xp, axis):
    return xp.take(_a(xp, (2, 2)), 1, axis=axis, mode="bogus")


@pytest.mark.parametrize("axis", [None, (0,), 0])
@xp_compare()
def test_along_axis_order_of_checks(xp, axis):
    return xp.take_along_axis(_a(xp, (2, 2)), xp.asarray(numpy.ones((2, 2), bool)),
                              axis=axis)


@pytest.mark.parametrize("cond, axis", [([[1]], 5), ([1], (0,)), ([1], 1.0)])
@xp_compare()
def test_compress_axis_first(xp, cond, axis):
    return xp.compress(xp.asarray(cond), _a(xp, (3,)), axis=axis)


@pytest.mark.parametrize("multi, dims, kw", [
    ((), (), {}), ((numpy.array([1]),), (0,), {"mode": "wrap"}),
    ((numpy.array([], int),), (0,), {"mode": "wrap"}),
    ((numpy.array([1]),), (3,), {"mode": "bogus"}), ((), (), {"mode": "bogus"}),
    ((numpy.array([1.0]),), (3,), {"order": "X"}),
    ((numpy.array([True, False]),), (3,), {}),
    ((numpy.array([1]), numpy.array([1])), (0, 2**63), {})])
@xp_compare()
def test_ravel_multi_index(xp, multi, dims, kw):
    return xp.ravel_multi_index(tuple(xp.asarray(m) for m in multi), dims, **kw)


@pytest.mark.parametrize("idx, shape, kw", [
    (numpy.array([], int), (), {}), (numpy.array([1.0]), (4,), {"order": "X"}),
    (numpy.array([True]), (4,), {}), (numpy.array([1.0]), (2**63,), {}),
    (numpy.array([1.0]), (2**62, 4), {})])
@xp_compare()
def test_unravel_index(xp, idx, shape, kw):
    return xp.unravel_index(xp.asarray(idx), shape, **kw)


@pytest.mark.parametrize("n, k, m", [(-1, 0, 3), (-2, 0, None), (3, 2**63, 3),
                                     (3, -2**62, None), (3, -2**63 - 5, 3)])
@xp_compare()
def test_tri_indices_sizes(xp, n, k, m):
    return xp.tril_indices(n, k, m), xp.triu_indices(n, k, m)


@pytest.mark.parametrize("shape, offset, axis1, axis2", [
    ((3,), 1.5, 0, 1), ((3,), 0, (0,), 1), ((2, 2), 2**31, 0, 1), ((3,), 2**63, 0, 1),
    ((2, 2), True, 0, 1), ((2, 2), 0, -2**63 - 1, (0,)), ((2, 2), 2**31, (0,), 0)])
@xp_compare()
def test_diagonal_trace_order_of_checks(xp, shape, offset, axis1, axis2):
    a = _a(xp, shape)
    return xp.diagonal(a, offset, axis1, axis2), xp.trace(a, offset, axis1, axis2)


@xp_compare()
def test_diag_ndim_first(xp):
    return xp.diag(_a(xp, (2, 2, 2)), 1.5)


@xp_compare()
def test_fill_diagonal_empty_values(xp):
    a = _a(xp, (3, 3))
    xp.fill_diagonal(a, xp.asarray([]))
    return a


@pytest.mark.parametrize("shift, axis", [((1, 2, -3), None), ((), None), ((1, 2), 0),
                                         ((), 0), (1, 3), ((1, 2, 3), (0, 1))])
@xp_compare()
def test_roll_shift_axis_broadcast(xp, shift, axis):
    return xp.roll(_a(xp, (2, 3)), shift, axis=axis)


@pytest.mark.parametrize("axis1, axis2", [(-4, None), (4, "0"), (-2**63 - 1, None)])
@xp_compare()
def test_swapaxes_types_first(xp, axis1, axis2):
    return xp.swapaxes(_a(xp, (2,)), axis1, axis2)


@xp_compare()
def test_moveaxis_ranges_first(xp):
    return xp.moveaxis(_a(xp, (3,)), 5, (0, 1))


@pytest.mark.parametrize("axis", [(0, 0), (0, -2)])
@xp_compare()
def test_flip_repeated_axis(xp, axis):
    return xp.flip(_a(xp, (2, 2)), axis=axis)


@pytest.mark.parametrize("obj", [1.0, 1.5, numpy.nan])
@pytest.mark.parametrize("n", [0, 3])
@xp_compare()
def test_insert_float_position(xp, obj, n):
    return xp.insert(_a(xp, (n,)), obj, 9)


@pytest.mark.parametrize("fn", ["concatenate", "append"])
@xp_compare()
def test_join_axis_type_first(xp, fn):
    return getattr(xp, fn)(_a(xp, ()), _a(xp, ()), axis="0") if fn == "append" else \
        xp.concatenate([_a(xp, ()), _a(xp, ())], axis="0")


@pytest.mark.parametrize("reps, axis", [(numpy.array([1, 1, 1], numpy.uint64), None),
                                        (numpy.array([], float), -3),
                                        (numpy.array([1, 1, 1], numpy.uint64), 2**63)])
@xp_compare()
def test_repeat_counts_cast(xp, reps, axis):
    return xp.repeat(_a(xp, (3,)), xp.asarray(reps), axis=axis)


@pytest.mark.parametrize("shape", [(0, 3), (2, 3)])
@xp_compare()
def test_concatenate_into_read_only_out(xp, shape):
    # NumPy refuses a read-only out= even when the result is empty
    o = xp.zeros((2 * shape[0], 3))
    o.flags.writeable = False
    return xp.concatenate([xp.zeros(shape), xp.ones(shape)], out=o)


# ---- the leftovers of the first fuzzing round (tril/triu, squeeze, fill_diagonal,
# unravel_index, vecdot): NumPy computes, or refuses with another class ----------------

@pytest.mark.parametrize("fn", ["tril", "triu"])
@pytest.mark.parametrize("k", [0, 2, -1, True, 1.0, -2.0, numpy.float32(1.0), numpy.int8(-1),
                               numpy.nan, numpy.inf], ids=repr)
@pytest.mark.parametrize("shape", [(4,), (0,), (3, 4), (2, 3, 3)], ids=str)
@xp_compare()
def test_tri_of_1d_and_integral_float_k(xp, fn, k, shape):
    return getattr(xp, fn)(_a(xp, shape, "int16"), k)


@pytest.mark.parametrize("fn", ["tril", "triu"])
def test_tri_refuses_a_non_integral_k(fn):
    # NumPy truncates arange(-k, ...) into an integer dtype unevenly (triu(x, 1.5) is all
    # zeros while tril(x, 1.5) is tril(x, 1)): garray refuses (docs/reliability.md).
    with pytest.raises(TypeError, match="k: expected an integer diagonal"):
        getattr(garray, fn)(garray.ones((3, 3)), 1.5)


@pytest.mark.parametrize("axis", [0, -1, 1, (0,), (), None, True])
@xp_compare()
def test_squeeze_of_0d(xp, axis):
    return xp.squeeze(xp.asarray(5.0), axis=axis), xp.asarray(2.5).squeeze(axis=axis)


@pytest.mark.parametrize("val", ["x", "7", b"3"])
@pytest.mark.parametrize("shape", [(0, 0), (2, 3)], ids=str)
@xp_compare()
def test_fill_diagonal_parses_text(xp, val, shape):
    a = xp.zeros(shape, dtype="int32")
    xp.fill_diagonal(a, val)
    return a


@pytest.mark.parametrize("order", ["K", "A", "c", "X", None])
@pytest.mark.parametrize("indices", [[1.0], [4], numpy.array([5], numpy.uint8)], ids=str)
@xp_compare()
def test_unravel_index_checks_indices_before_order(xp, order, indices):
    return xp.unravel_index(xp.asarray(indices), (2, 3), order=order)


@pytest.mark.parametrize("out_dtype", ["float64", "float32", "int64"])
@xp_compare()
def test_vecdot_out(xp, out_dtype):
    a, b = _a(xp, (2, 3)), _a(xp, (2, 3)) * 0.5
    out = xp.zeros(2, dtype=out_dtype)
    r = xp.vecdot(a, b, out=out)
    return r, out, xp.vecdot(a, b, axis=0, dtype="float32")
