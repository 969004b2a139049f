"""garray.linalg norms and the Array API linalg products (garray/linalg/_norms.py) against
numpy.linalg."""

import numpy
import pytest

import garray
from xp import for_all_dtypes, sample, xp_compare

INF = float("inf")
# ord 2, -2 and 'nuc' use garray.linalg.svdvals (LAPACK on the CPU device, cuSOLVER /
# hipSOLVER on GPUs): skipped only where the device has no SVD
NEEDS_SVD = pytest.mark.skipif(
    garray.default_device().kind != "cpu"
    and "svdvals" not in garray.linalg._common.GPU_FUNCTIONS,
    reason="ord 2, -2 and 'nuc' use garray.linalg.svdvals, which has no path on this "
           "device")


def data(xp, shape, dtype="float64", start=0):
    h = sample(shape, dtype, start)
    return h if xp is numpy else garray.asarray(h, copy=True)


def la(xp):
    return xp.linalg


# ---- vector_norm --------------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_vector_norm_dtypes(xp, dtype):
    x = data(xp, (3, 4), dtype)
    return [la(xp).vector_norm(x), la(xp).vector_norm(x, ord=1, axis=0)]


@pytest.mark.parametrize("ord", [2, 1, 0, INF, -INF, 3, 0.5, -1, -2])
@xp_compare()
def test_vector_norm_ords(xp, ord):
    x = data(xp, (3, 4), "complex128", 2)
    return [la(xp).vector_norm(x, ord=ord), la(xp).vector_norm(x, ord=ord, axis=1),
            la(xp).vector_norm(x[::-1, ::2].real, ord=ord, axis=0, keepdims=True)]


@pytest.mark.parametrize("shape, axis, keepdims", [
    ((2, 3, 4), None, True), ((2, 3, 4), (0, 2), False), ((2, 3, 4), (2, 0), True),
    ((2, 3, 4), -1, False), ((), None, False), ((0, 3), 0, False), ((0, 3), None, True),
])
@xp_compare()
def test_vector_norm_axes(xp, shape, axis, keepdims):
    x = data(xp, shape, "float32")
    return la(xp).vector_norm(x, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("kw", [{"ord": "fro"}, {"axis": 2}, {"axis": (0, 0)},
                                {"ord": -INF, "axis": 0}, {"ord": INF, "axis": 0}])
@xp_compare()
def test_vector_norm_errors_and_empty(xp, kw):
    return la(xp).vector_norm(data(xp, (0, 3)), **kw)


# ---- matrix_norm --------------------------------------------------------------------


@pytest.mark.parametrize("ord", ["fro", 1, -1, INF, -INF])
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int16", "bool"])
@xp_compare()
def test_matrix_norm(xp, ord, dtype):
    x = data(xp, (2, 3, 4), dtype)
    return [la(xp).matrix_norm(x, ord=ord), la(xp).matrix_norm(x, ord=ord, keepdims=True),
            la(xp).matrix_norm(x.mT[..., ::-1, :], ord=ord)]


@NEEDS_SVD
@pytest.mark.parametrize("ord", [2, -2, "nuc"])
@xp_compare()
def test_matrix_norm_svd(xp, ord):
    x = data(xp, (2, 3, 4), "float64")
    return [la(xp).matrix_norm(x, ord=ord), la(xp).norm(x[0], ord=ord),
            la(xp).norm(x, ord=ord, axis=(2, 0), keepdims=True)]


@pytest.mark.parametrize("shape, ord", [((3,), "fro"), ((2, 2), 3), ((2, 2), None)])
@xp_compare()
def test_matrix_norm_errors(xp, shape, ord):
    return la(xp).matrix_norm(data(xp, shape), ord=ord)


# ---- norm ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape, ord, axis", [
    ((2, 3, 4), None, None), ((3,), None, None), ((3,), 1, None), ((3,), INF, None),
    ((3,), 0, None), ((3, 4), None, None), ((3, 4), "fro", None), ((3, 4), 1, None),
    ((3, 4), -INF, None), ((2, 3, 4), 3, 1), ((2, 3, 4), None, -1),
    ((2, 3, 4), INF, (2, 0)), ((2, 3, 4), "fro", (0, 1)), ((2, 3, 4), -1, (-1, -2)),
    ((), None, None),
])
@pytest.mark.parametrize("keepdims", [False, True])
@xp_compare()
def test_norm(xp, shape, ord, axis, keepdims):
    x = data(xp, shape, "float64", 1)
    return la(xp).norm(x, ord=ord, axis=axis, keepdims=keepdims)


@for_all_dtypes()
@xp_compare()
def test_norm_dtypes(xp, dtype):
    return la(xp).norm(data(xp, (2, 3), dtype)[::-1])


@pytest.mark.parametrize("shape, ord, axis", [
    ((2, 2, 2), 1, None), ((2, 2), 3, None), ((3,), "fro", None), ((2, 3), None, (0, 0)),
    ((2, 3, 4), None, (0, 1, 2)), ((2, 3), None, 2), ((2, 3), "nuc", 0),
])
@xp_compare()
def test_norm_errors(xp, shape, ord, axis):
    return la(xp).norm(data(xp, shape), ord=ord, axis=axis)


# ---- Array API linalg products ------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_linalg_products_dtypes(xp, dtype):
    a = data(xp, (2, 3, 3), dtype)
    v = data(xp, (3,), dtype, 2)
    return [la(xp).outer(v, v[::-1]), la(xp).trace(a), la(xp).trace(a, offset=-1),
            la(xp).diagonal(a, offset=1), la(xp).vecdot(a, v),
            la(xp).tensordot(a, v, axes=1), la(xp).matrix_transpose(a),
            la(xp).matmul(a, v)]


@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
@xp_compare()
def test_linalg_cross(xp, dtype):
    a = data(xp, (4, 1, 3), dtype)
    b = data(xp, (5, 3), dtype, 3)
    return [la(xp).cross(a, b), la(xp).cross(a.mT, b.T[None], axis=-2)]


@pytest.mark.parametrize("dtype", ["int64", "float32"])
@xp_compare()
def test_linalg_trace_dtype(xp, dtype):
    return la(xp).trace(data(xp, (2, 3, 4), "int8"), dtype=dtype, offset=1)


@pytest.mark.parametrize("fn, shapes", [
    ("outer", [(2, 2), (2,)]), ("cross", [(2,), (2,)]), ("cross", [(3,), (4,)]),
    ("trace", [(3,)]), ("diagonal", [(3,)]),
])
@xp_compare()
def test_linalg_errors(xp, fn, shapes):
    return getattr(la(xp), fn)(*[data(xp, s) for s in shapes])
