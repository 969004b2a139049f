"""Products on matmul (garray/_gemm/contract.py, garray/_gemm/einsum.py) against NumPy: tensordot,
vecdot, dot, vdot, inner, outer, kron, cross, einsum, einsum_path."""

import warnings

import numpy
import pytest

import garray
from xp import assert_xp_close, for_all_dtypes, sample, xp_compare

NUM = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
       "float32", "float64", "complex64", "complex128")


def data(xp, shape, dtype="float64", start=0):
    """Mixed-sign test data (tests/xp.py ``sample``) in namespace ``xp``."""
    h = sample(shape, dtype, start)
    return h if xp is numpy else garray.asarray(h, copy=True)


# ---- tensordot ----------------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_tensordot_dtypes(xp, dtype):
    a = data(xp, (2, 3, 4), dtype)
    b = data(xp, (4, 3, 2), dtype, 5)
    return xp.tensordot(a, b, axes=([1, 2], [1, 0]))


@pytest.mark.parametrize("sa, sb, axes", [
    ((2, 3), (3, 4), 1), ((2, 3, 4), (3, 4, 5), 2), ((2, 3), (4,), 0),
    ((3, 4), (3, 4), 2), ((2, 3), (2, 4), (0, 0)), ((2, 3, 4), (4, 2), ([0, 2], [1, 0])),
    ((2, 3), (3, 2), ([-1], [-2])), ((0, 3), (3, 4), 1), ((2, 0), (0, 4), 1),
    ((), (), 0), ((3,), (), 0),
])
@xp_compare()
def test_tensordot_axes(xp, sa, sb, axes):
    return xp.tensordot(data(xp, sa), data(xp, sb, start=3), axes=axes)


@xp_compare()
def test_tensordot_noncontiguous(xp):
    a = data(xp, (4, 6), "complex128")[::-1, ::2]       # (4, 3), negative and step
    b = data(xp, (5, 3), "complex128", 2).T             # (3, 5), transposed
    return xp.tensordot(a, b, axes=1) + xp.tensordot(a.T, b.T, axes=([0], [1])).T


@pytest.mark.parametrize("sa, sb, axes", [
    ((2, 3), (4, 5), 1), ((2, 3), (2, 3), ([0, 1], [0])), ((2, 3), (3,), ([2], [0])),
    ((2,), (2,), 2), ((2, 3), (2, 3), ([0, 1], [0, 1], [0])), ((2, 3), (3,), 1.5),
])
@xp_compare()
def test_tensordot_errors(xp, sa, sb, axes):
    return xp.tensordot(data(xp, sa), data(xp, sb), axes=axes)


def test_tensordot_error_names_shapes():
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4, 5\)"):
        garray.tensordot(garray.ones((2, 3)), garray.ones((4, 5)), axes=1)


# ---- vecdot -------------------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_vecdot_dtypes(xp, dtype):
    return xp.vecdot(data(xp, (2, 3), dtype), data(xp, (3,), dtype, 4))


@pytest.mark.parametrize("sa, sb, axis", [
    ((3,), (3,), -1), ((2, 1, 3), (4, 3), -1), ((3, 2), (3, 2), 0), ((4, 3), (3, 4), 0),
    ((2, 3, 4), (3, 4), -2), ((0, 3), (3,), -1), ((2, 0), (2, 0), -1),
])
@xp_compare()
def test_vecdot_shapes(xp, sa, sb, axis):
    return xp.vecdot(data(xp, sa, "complex64"), data(xp, sb, "complex64", 2), axis=axis)


@xp_compare()
def test_vecdot_noncontiguous(xp):
    a = data(xp, (3, 8), "complex128")[::-1, ::2]
    return xp.vecdot(a, data(xp, (4, 3), "complex128").T)


@pytest.mark.parametrize("sa, sb, axis", [((2, 3), (4,), -1), ((2, 3), (2, 3), 2),
                                          ((), (3,), -1)])
@xp_compare()
def test_vecdot_errors(xp, sa, sb, axis):
    return xp.vecdot(data(xp, sa), data(xp, sb), axis=axis)


# ---- matvec, vecmat ----------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_matvec_vecmat_dtypes(xp, dtype):
    m = data(xp, (2, 3, 4), dtype)
    return [xp.matvec(m, data(xp, (4,), dtype, 2)), xp.vecmat(data(xp, (3,), dtype, 2), m)]


@pytest.mark.parametrize("fn, sa, sb", [
    ("matvec", (3, 1, 2, 3), (4, 3)), ("matvec", (2, 0), (0,)), ("matvec", (0, 3), (3,)),
    ("vecmat", (4, 1, 3), (2, 3, 2)), ("vecmat", (0,), (0, 2)),
    ("matvec", (2, 3), (4,)), ("matvec", (3,), (3,)), ("vecmat", (3,), (3,)),
    ("vecmat", (3,), (2, 3)),
])
@xp_compare()
def test_matvec_vecmat_shapes(xp, fn, sa, sb):
    a = data(xp, sa, "complex64")
    return getattr(xp, fn)(a[..., ::-1], data(xp, sb, "complex64", 1))


@pytest.mark.parametrize("kw", [{"dtype": "float32"}, {"out": "float32"}, {"out": "int32"}])
@xp_compare()
def test_matvec_dtype_out(xp, kw):
    if "out" in kw:
        kw = {"out": xp.zeros(2, dtype=kw["out"])}
    r = xp.matvec(data(xp, (2, 3), "int8"), data(xp, (3,), "float64"), **kw)
    assert "out" not in kw or r is kw["out"]
    return r


# ---- dot, vdot, inner ---------------------------------------------------------------

DOT_SHAPES = [((), (2, 3)), ((2, 3), ()), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)),
              ((2, 3), (3, 4)), ((2, 2, 3), (3,)), ((2, 2, 3), (4, 3, 5)),
              ((3,), (2, 3, 4)), ((0, 3), (3, 2)), ((2, 0), (0,)), ((2, 3), (4,)),
              ((2, 3), (2, 3))]


@for_all_dtypes()
@xp_compare()
def test_dot_dtypes(xp, dtype):
    return xp.dot(data(xp, (2, 3), dtype), data(xp, (3, 2), dtype, 1))


@pytest.mark.parametrize("sa, sb", DOT_SHAPES)
@xp_compare()
def test_dot_shapes(xp, sa, sb):
    return xp.dot(data(xp, sa, "int32"), data(xp, sb, "int32", 3))


@xp_compare()
def test_dot_noncontiguous_and_method(xp):
    a = data(xp, (3, 4), "float32").T[::-1]     # (4, 3)
    b = data(xp, (6, 2), "float32")[::2]        # (3, 2)
    return a.dot(b)


@pytest.mark.parametrize("dtype, shape, transposed", [
    ("float64", (2, 4), False), ("float32", (2, 4), False), ("float64", (4, 2), False),
    ("float64", (4, 2), True)])
@xp_compare()
def test_dot_out(xp, dtype, shape, transposed):
    out = xp.zeros(shape, dtype=dtype)
    out = out.T if transposed else out
    r = xp.dot(data(xp, (2, 3)), data(xp, (3, 4)), out=out)
    assert r is out
    return out


@for_all_dtypes()
@xp_compare()
def test_vdot_dtypes(xp, dtype):
    return xp.vdot(data(xp, (2, 3), dtype), data(xp, (3, 2), dtype, 7))


@pytest.mark.parametrize("sa, sb", [((3,), (3,)), ((2, 3), (6,)), ((0,), (0,)),
                                    ((), ()), ((2, 3), (4,))])
@xp_compare()
def test_vdot_shapes(xp, sa, sb):
    return xp.vdot(data(xp, sa, "complex128")[..., ::-1], data(xp, sb, "complex128", 2))


@for_all_dtypes()
@xp_compare()
def test_inner_dtypes(xp, dtype):
    return xp.inner(data(xp, (2, 3), dtype), data(xp, (4, 3), dtype, 1))


@pytest.mark.parametrize("sa, sb", [((3,), (3,)), ((), (2, 3)), ((2, 2, 3), (4, 3)),
                                    ((2, 0), (0,)), ((2, 3), (2,))])
@xp_compare()
def test_inner_shapes(xp, sa, sb):
    return xp.inner(data(xp, sa, "float32"), data(xp, sb, "float32", 1))


# ---- outer, kron --------------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_outer_dtypes(xp, dtype):
    return xp.outer(data(xp, (2, 2), dtype)[:, ::-1], data(xp, (3,), dtype, 3))


@pytest.mark.parametrize("sa, sb", [((), (3,)), ((0,), (3,)), ((2,), (1, 2))])
@xp_compare()
def test_outer_shapes(xp, sa, sb):
    return xp.outer(data(xp, sa, "int16"), data(xp, sb, "int16", 1))


@pytest.mark.parametrize("shape", [(2, 3), (3, 2)])
@xp_compare()
def test_outer_out(xp, shape):
    out = xp.zeros(shape)
    assert xp.outer(data(xp, (2,)), data(xp, (3,)), out=out) is out
    return out


@for_all_dtypes()
@xp_compare()
def test_kron_dtypes(xp, dtype):
    return xp.kron(data(xp, (2, 2), dtype), data(xp, (3, 2), dtype, 2))


@pytest.mark.parametrize("sa, sb", [((), ()), ((2,), ()), ((2,), (3,)), ((2, 3), (4,)),
                                    ((2,), (2, 3, 2)), ((0, 2), (3, 1))])
@xp_compare()
def test_kron_shapes(xp, sa, sb):
    return xp.kron(data(xp, sa, "float32")[..., ::-1], data(xp, sb, "float32", 1))


# ---- cross --------------------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_cross_dtypes(xp, dtype):
    return xp.cross(data(xp, (2, 3), dtype), data(xp, (3,), dtype, 4))


@pytest.mark.parametrize("sa, sb, kw", [
    ((3,), (3,), {}), ((2,), (2,), {}), ((2,), (3,), {}), ((3,), (2,), {}),
    ((4, 1, 3), (5, 3), {}), ((3, 4), (4, 3), {"axisa": 0}),
    ((3, 4), (3, 4), {"axis": 0}), ((2, 3, 4), (3, 4), {"axisa": 1, "axisb": 0, "axisc": 1}),
    ((4, 2), (4, 3), {"axisc": 0}), ((0, 3), (3,), {}), ((4,), (3,), {}),
    ((2, 3), (4, 3), {}), ((3,), (3,), {"axisc": 2}),
])
@xp_compare()
def test_cross_shapes(xp, sa, sb, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)   # 2-vectors, NumPy 2.0
        return xp.cross(data(xp, sa, "int64"), data(xp, sb, "int64", 2)[..., ::-1], **kw)


# ---- einsum -------------------------------------------------------------------------

# (subscripts, operand shapes): every form NumPy accepts
EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ij,kj->ik", [(2, 3), (4, 3)]),
    ("i,i->", [(3,), (3,)]),
    ("i,i", [(3,), (3,)]),
    ("i,j->ij", [(2,), (3,)]),
    ("i,j", [(2,), (3,)]),
    ("ij->ji", [(2, 3)]),
    ("ba", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->i", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iij->ji", [(2, 2, 3)]),
    ("iji->j", [(2, 3, 2)]),
    ("iii->i", [(2, 2, 2)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("bij,bjk->ik", [(2, 2, 3), (2, 3, 4)]),
    ("bij,bjk->b", [(2, 2, 3), (2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 4)]),
    ("...ij,...jk", [(5, 1, 2, 3), (4, 3, 2)]),
    ("ij...,jk...->ik...", [(2, 3, 5), (3, 4, 5)]),
    ("...i,...i->...", [(2, 3), (3,)]),
    ("i...->...", [(2, 3, 4)]),
    ("...", [(2, 3)]),
    ("...->...", [()]),
    ("a...b,b...->a...", [(2, 4, 3), (3, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,kl", [(2, 3), (3, 4), (4, 2)]),
    ("i,ij,j->", [(2,), (2, 3), (3,)]),
    ("ijk,jil->kl", [(3, 2, 4), (2, 3, 5)]),
    ("ab,cd->abcd", [(2, 2), (2, 3)]),
    ("ab,ab->ab", [(2, 3), (2, 3)]),
    ("ab,ab,ab->", [(2, 3), (2, 3), (2, 3)]),
    ("i,i", [(1,), (3,)]),
    ("ij,j", [(2, 1), (3,)]),
    ("ii,i->i", [(3, 3), (3,)]),
    ("ij,jk->ki", [(0, 3), (3, 4)]),
    ("ij,jk->ik", [(2, 0), (0, 4)]),
    ("", [()]),
    (",", [(), ()]),
    (",ij->ij", [(), (2, 3)]),
    ("Ab,bC->AC", [(2, 3), (3, 2)]),
    (" i j , j k -> i k ", [(2, 3), (3, 4)]),
]


@pytest.mark.parametrize("subscripts, shapes", EINSUM_CASES,
                         ids=[c[0] or "empty" for c in EINSUM_CASES])
@xp_compare()
def test_einsum_table(xp, subscripts, shapes):
    ops = [data(xp, s, "float64", 3 * k) for k, s in enumerate(shapes)]
    return xp.einsum(subscripts, *ops)


@for_all_dtypes()
@xp_compare()
def test_einsum_dtypes(xp, dtype):
    a = data(xp, (3, 3), dtype)
    b = data(xp, (3, 2), dtype, 3)
    return [xp.einsum("ij,jk->ik", a, b), xp.einsum("ii->i", a), xp.einsum("ij->", b),
            xp.einsum("ii", a)]


@xp_compare()
def test_einsum_noncontiguous(xp):
    a = data(xp, (4, 6), "complex64")[::-1, ::2]      # (4, 3)
    b = data(xp, (3, 5), "complex64").T[::-1]          # (5, 3)
    return [xp.einsum("ij,kj->ik", a, b), xp.einsum("ij,kj", a, b[:3]).T,
            xp.einsum("ii->i", a[:3])]


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal", ("greedy", 100)])
@xp_compare()
def test_einsum_optimize(xp, optimize):
    ops = [data(xp, (2, 3)), data(xp, (3, 4), start=1), data(xp, (4, 5), start=2)]
    return xp.einsum("ij,jk,kl->il", *ops, optimize=optimize)


@xp_compare()
def test_einsum_optimize_path(xp):
    ops = [data(xp, (2, 3)), data(xp, (3, 4), start=1), data(xp, (4, 5), start=2)]
    path, _ = xp.einsum_path("ij,jk,kl->il", *ops)
    return xp.einsum("ij,jk,kl->il", *ops, optimize=path)


@pytest.mark.parametrize("args", [
    lambda a, b: (a, [0, 1], b, [1, 2], [0, 2]),
    lambda a, b: (a, [0, 1], b, [1, 2]),
    lambda a, b: (a, [Ellipsis, 1], b, [1, 2], [Ellipsis, 2]),
    lambda a, b: (a, [0, 0]),
    lambda a, b: (a, [51, 25], [25]),
], ids=["explicit", "implicit", "ellipsis", "trace", "letters"])
@xp_compare()
def test_einsum_sublists(xp, args):
    a = data(xp, (3, 3))
    b = data(xp, (3, 2), start=1)
    return xp.einsum(*args(a, b))


@pytest.mark.parametrize("dtype, out_dtype", [(None, "float64"), ("float64", "float64"),
                                               ("complex128", "complex128"),
                                               (None, "complex128")])
@xp_compare()
def test_einsum_dtype_out(xp, dtype, out_dtype):
    a = data(xp, (2, 3), "float32")
    out = xp.zeros((2, 2), dtype=out_dtype)
    r = xp.einsum("ij,kj->ik", a, a, dtype=dtype, out=out)
    assert r is out
    return out


@pytest.mark.parametrize("subscripts, shapes, kw", [
    ("ij,jk->ik", [(2, 3), (2, 3)], {}),          # mismatched contraction size
    ("ii->i", [(2, 3)], {}),                      # diagonal of unequal axes
    ("i->ii", [(3,)], {}),                        # repeated output subscript
    ("ij->k", [(2, 3)], {}),                      # output subscript not in inputs
    ("i1", [(3,)], {}),                           # not a letter
    ("ij", [(2, 3), (2, 3)], {}),                 # more operands than terms
    ("ij,jk", [(2, 3)], {}),                      # fewer operands than terms
    ("ijk", [(2, 3)], {}),                        # too many subscripts
    ("i", [(2, 3)], {}),                          # too few, no ellipsis
    ("i.j", [(2, 3)], {}),                        # a lone '.'
    ("ij->i->j", [(2, 3)], {}),                   # two arrows
    ("...i->", [(2, 3)], {}),                     # ellipsis dims dropped from output
    ("ij->", [(2, 3)], {"dtype": "float32"}),     # unsafe dtype cast
    ("ij->i", [(2, 3)], {"out": (3,)}),           # wrong out shape
])
@xp_compare()
def test_einsum_errors(xp, subscripts, shapes, kw):
    if "out" in kw:
        kw = {"out": xp.zeros(kw["out"])}
    return xp.einsum(subscripts, *[data(xp, s) for s in shapes], **kw)


def test_einsum_sublist_errors():
    a = garray.ones((2, 2))
    for e, args in [(ValueError, (a, [0, 60])), (TypeError, (a, [0, "x"]))]:
        with pytest.raises(e):
            garray.einsum(*args)
        with pytest.raises(e):
            numpy.einsum(numpy.ones((2, 2)), *args[1:])
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(2, 3\)"):
        garray.einsum("ij,jk", garray.ones((2, 3)), garray.ones((2, 3)))


@pytest.mark.parametrize("subscripts, shapes, optimize", [
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], "greedy"),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], False),
    ("ij,jk", [(2, 3), (3, 4)], "greedy"),
    ("ij", [(2, 3)], "greedy"),
    ("ij,jk,kl->il", [(5, 4), (4, 3), (3, 2)], True),
])
def test_einsum_path(subscripts, shapes, optimize):
    expected, _ = numpy.einsum_path(subscripts, *[numpy.ones(s) for s in shapes],
                                    optimize=optimize)
    path, text = garray.einsum_path(subscripts, *[garray.ones(s) for s in shapes],
                                    optimize=optimize)
    assert path == expected
    assert isinstance(text, str) and "Complete contraction" in text


def test_einsum_path_text():
    ops = [numpy.ones((2, 3)), numpy.ones((3, 4)), numpy.ones((4, 5))]
    _, expected = numpy.einsum_path("ij,jk,kl->il", *ops)
    _, text = garray.einsum_path("ij,jk,kl->il", *[garray.asarray(o) for o in ops])
    head = [line.split(":")[0] for line in expected.splitlines()[:7]]
    assert [line.split(":")[0] for line in text.splitlines()[:7]] == head
    for key in ("Naive FLOP count", "Optimized FLOP count", "Largest intermediate"):
        e = [line for line in expected.splitlines() if key in line]
        assert e and e[0] in text, key


EDGE_CASES = {
    "einsum-mixed-dtypes": lambda xp: xp.einsum("i,i", data(xp, (3,), "int8"),
                                                data(xp, (3,), "float32")),
    "einsum-dtype-int64": lambda xp: xp.einsum("i->", data(xp, (5,), "int8"), dtype="int64"),
    "einsum-python-scalar": lambda xp: xp.einsum(",i", 2.0, data(xp, (3,))),
    "einsum-four-operands": lambda xp: xp.einsum(
        "ab,bc,cd,da->", data(xp, (2, 3)), data(xp, (3, 4)), data(xp, (4, 2)),
        data(xp, (2, 2)), optimize=True),
    "einsum-ellipsis-diagonal": lambda xp: xp.einsum("...ii->...i", data(xp, (2, 3, 3))),
    "einsum-ellipsis-between": lambda xp: xp.einsum("i...i", data(xp, (3, 2, 3))),
    "einsum-out-aliases-input": lambda xp: (lambda a: xp.einsum("ij->ji", a, out=a))(
        data(xp, (3, 3))),
    "einsum-unsafe-out": lambda xp: xp.einsum("i->", data(xp, (3,)), casting="unsafe",
                                              out=xp.zeros((), dtype="float32")),
    "einsum-safe-out": lambda xp: xp.einsum("i->", data(xp, (3,)),
                                            out=xp.zeros((), dtype="int64")),
    "vecdot-int8-bool": lambda xp: xp.vecdot(data(xp, (2, 3), "int8"), data(xp, (3,), "bool")),
    "kron-3d": lambda xp: xp.kron(data(xp, (2, 1, 2)), data(xp, (2, 3))),
    "inner-0d": lambda xp: xp.inner(data(xp, ()), data(xp, ())),
    "dot-0d-out": lambda xp: xp.dot(data(xp, ()), data(xp, (2,)), out=xp.zeros(2)),
    "cross-uint8-2x3": lambda xp: xp.cross(data(xp, (3,), "uint8"), data(xp, (2,), "uint8")),
    "cross-0d": lambda xp: xp.cross(data(xp, ()), data(xp, (3,))),
}


@pytest.mark.parametrize("case", list(EDGE_CASES))
@xp_compare()
def test_edge_cases(xp, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return EDGE_CASES[case](xp)


# ---- namespace ----------------------------------------------------------------------


def test_namespace():
    for name in ("vecdot", "tensordot", "dot", "vdot", "inner", "outer", "kron", "cross",
                 "einsum", "einsum_path", "matrix_transpose"):
        assert callable(getattr(garray, name)), name
        assert getattr(garray, name).__doc__, name
    assert_xp_close(garray.matrix_transpose(garray.ones((2, 3))),
                    numpy.matrix_transpose(numpy.ones((2, 3))))
