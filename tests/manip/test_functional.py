"""apply_along_axis, apply_over_axes, fromfunction, piecewise and the broadcast object
against NumPy (a Python function runs per slice on the host; the slices and values are
garray's)."""

import numpy
import pytest

from xp import ALL_DTYPES, for_all_dtypes, make, sample, xp_compare


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


# ---- piecewise ------------------------------------------------------------------------


def _pieces(xp, kind):
    """(condlist builder, funclist) of each kind of piecewise call."""
    return {
        "values": (lambda x: [x < 0, x >= 0], [-1, 1]),
        "functions": (lambda x: [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2]),
        "default": (lambda x: [x < -1, x > 1], [lambda v: v * 0, lambda v: v + 1, 3]),
        "overlap": (lambda x: [x < 2, x > -2], [lambda v: v - 1, 5]),     # later wins
        "lone-cond": (lambda x: x < 0, [lambda v: -v, lambda v: v * v]),
        "lone-list": (lambda x: [x != 0], [lambda v, k=2: v * k]),
        "args": (lambda x: [x > 0], [lambda v, a, b=1: v * a + b]),
        "none-true": (lambda x: [x > 100], [lambda v: v / 0]),    # never called: empty
        "int-cond": (lambda x: [xp.astype(x > 0, xp.int8)], [7]),   # cast to bool
    }[kind]


@pytest.mark.parametrize("kind", ["values", "functions", "default", "overlap", "lone-cond",
                                  "lone-list", "args", "none-true", "int-cond"])
@for_all_dtypes(dtypes=[d for d in ALL_DTYPES if d not in ("bool", "complex64",
                                                            "complex128")])
@pytest.mark.parametrize("layout", ["c", "strided", "empty"])
@xp_compare()
def test_piecewise(xp, kind, dtype, layout):
    h = sample((3, 8), dtype)
    x = xp.asarray(h)
    x = {"c": x, "strided": x[::-1, ::3], "empty": x[:, :0]}[layout]
    conds, funcs = _pieces(xp, kind)
    extra = ((3,), {"b": 2}) if kind == "args" else ((), {})
    return xp.piecewise(x, conds(x), funcs, *extra[0], **extra[1])


@pytest.mark.parametrize("case", ["0d-list", "0d-array-cond", "stacked-array",
                                  "too-few", "too-many", "scalar-x", "numpy-scalar-x"])
@xp_compare()
def test_piecewise_forms_and_errors(xp, case):
    x = xp.asarray([-2.0, -0.5, 0.0, 1.5])
    if case == "0d-list":
        return xp.piecewise(xp.asarray(3.0), [True, False], [lambda v: v + 1, 0])
    if case == "0d-array-cond":
        z = xp.asarray(-3.0)
        return xp.piecewise(z, z < 0, [lambda v: v + 1, 0])
    if case == "stacked-array":     # one 2-d array holding both conditions
        return xp.piecewise(x, xp.stack([x < 0, x > 1]), [1, 2])
    if case == "too-few":
        return xp.piecewise(x, [x < 0, x > 0, x == 0], [1])
    if case == "too-many":
        return xp.piecewise(x, [x < 0], [1, 2, 3])
    if case == "numpy-scalar-x":
        return xp.piecewise(numpy.float32(-1.5), [True], [lambda v: v * 2])
    return xp.piecewise(2.5, [True], [lambda v: v * 2])
