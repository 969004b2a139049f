"""apply_along_axis, apply_over_axes, fromfunction and the broadcast object against NumPy
(a Python function runs per slice on the host; the slices and values are garray's)."""

import pytest

from xp import for_all_dtypes, make, xp_compare


def _reverse(xp):
    return lambda v: v[::-1]


def _outer(xp):
    return lambda v: xp.multiply(v[:, None], v[None, :])


def _scalar(xp):
    return lambda v: xp.sum(v)


def _with_args(xp):
    return lambda v, k, scale=1: v[:k] * scale


@pytest.mark.parametrize("fn", [_reverse, _outer, _scalar], ids=lambda f: f.__name__)
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
@for_all_dtypes(dtypes=("int32", "float64", "complex64", "uint8"))
@xp_compare()
def test_apply_along_axis(xp, fn, axis, dtype):
    a = make(xp, (2, 3, 4), dtype)[:, ::-1]
    return xp.apply_along_axis(fn(xp), axis, a)


@xp_compare()
def test_apply_along_axis_args_and_edges(xp):
    a = make(xp, (3, 4), "float32")
    return [xp.apply_along_axis(_with_args(xp), 1, a, 2, scale=3),
            xp.apply_along_axis(_scalar(xp), 0, make(xp, (3,), "int64")),
            xp.apply_along_axis(_scalar(xp), 0, xp.zeros((0, 3)))]


@pytest.mark.parametrize("case", ["empty-outer", "bad-axis", "0d"])
@xp_compare()
def test_apply_along_axis_errors(xp, case):
    if case == "empty-outer":
        return xp.apply_along_axis(_scalar(xp), 1, xp.zeros((0, 3)))
    if case == "bad-axis":
        return xp.apply_along_axis(_scalar(xp), 2, xp.zeros((2, 3)))
    return xp.apply_along_axis(_scalar(xp), 0, xp.asarray(1.0))


@pytest.mark.parametrize("axes", [0, [0, 2], (1,), [-1, 0]], ids=str)
@xp_compare()
def test_apply_over_axes(xp, axes):
    a = make(xp, (3, 2, 4), "float64")
    return [xp.apply_over_axes(xp.sum, a, axes),
            xp.apply_over_axes(lambda x, ax: xp.sum(x, axis=ax, keepdims=True), a, axes)]


@xp_compare()
def test_apply_over_axes_bad_function(xp):
    return xp.apply_over_axes(lambda x, ax: xp.sum(x), make(xp, (3, 2), "int8"), [0])


# ---- fromfunction, broadcast ---------------------------------------------------------------


@pytest.mark.parametrize("dtype", [float, int, "float32", "int16"], ids=str)
@pytest.mark.parametrize("shape", [(2, 3), (4,), (2, 0, 3), ()], ids=str)
@xp_compare()
def test_fromfunction(xp, dtype, shape):
    return [xp.fromfunction(lambda *c: sum(c) if c else xp.asarray(7, dtype), shape,
                            dtype=dtype),
            xp.fromfunction(lambda *c, k: c[0] * k if c else xp.asarray(k), shape,
                            dtype=dtype, k=3)]


def _bcast_args(xp):
    return [xp.arange(3), xp.arange(2)[:, None], 5]


@xp_compare()
def test_broadcast_object(xp):
    b = xp.broadcast(*_bcast_args(xp))
    first = next(b)
    out = [b.shape, b.ndim, b.nd, b.size, b.numiter, b.index, first, list(b)]
    b.reset()
    return out + [b.index, xp.broadcast().shape, xp.broadcast(make(xp, (2, 1), "float32"),
                                                                 make(xp, (), "int8")).shape]


@xp_compare()
def test_broadcast_mismatch(xp):
    return xp.broadcast(xp.arange(3), xp.arange(2)).shape
