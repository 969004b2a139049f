"""NumPy's signatures, so NumPy code runs unchanged: positional creation forms, order=,
dtype objects and scalar type names, ndarray subclasses, NumPy's ndarray methods
(item, tolist, fill, astype, view, tobytes, copy) and small namespace functions
(copy, asarray(order=), ascontiguousarray, isscalar, ndim ...), each against NumPy.
Printing and error state: tests/test_printing.py."""

import pickle

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, make, xp_compare
from xp import kind as xp_kind

# complex -> real casts are part of what is compared; NumPy warns on them
pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")


def _layout(a, layout):
    """A view of 2-d ``a``: contiguous, transposed (F), reversed or strided."""
    return {"c": a, "t": a.T, "neg": a[::-1, ::-1], "step": a[::2, 1::2]}[layout]


LAYOUTS = ("c", "t", "neg", "step")


def _strides_of(x):
    """Strides of the axes longer than one (the others carry no layout)."""
    return tuple(s for s, n in zip(x.strides, x.shape) if n > 1)


# ---- positional creation forms --------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_positional_dtype_creation(xp, dtype):
    return [xp.zeros((2, 3), dtype), xp.ones(4, dtype), xp.full((2, 2), 1, dtype),
            xp.empty((3, 0), dtype), xp.zeros((), dtype), xp.identity(3, dtype),
            xp.eye(3, 4, 1, dtype), xp.eye(4, 3, -2, dtype)]


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16", "float32", "float64",
                                   "complex64"])
@xp_compare(rtol=0, atol=0)
def test_arange_positional_dtype(xp, dtype):
    return [xp.arange(1, 10, 2, dtype), xp.arange(0, 5, 1, dtype)]


@pytest.mark.parametrize("args", [(0, 1, 5), (0, 1, 5, False), (-2, 3, 6, True, False),
                                  (1, 10, 10, True, False, int), (0, 1, 0), (2, 2, 1),
                                  (0, 1, 4, True, False, numpy.float32, 0),
                                  (0, 1, 4, False, False, None, -1)], ids=str)
@xp_compare()
def test_linspace_positional(xp, args):
    return xp.linspace(*args)


@pytest.mark.parametrize("args", [(0, 1, 5), (0, 1, 5, False), (0, 1, 1), (3, -3, 4),
                                  (1j, 2, 3)], ids=str)
def test_linspace_retstep(args):
    got, gstep = garray.linspace(*args, retstep=True)
    want, nstep = numpy.linspace(*args, retstep=True)
    assert_xp_close(got, want)
    assert type(gstep) is type(nstep)
    numpy.testing.assert_allclose(gstep, nstep, equal_nan=True)


def test_linspace_default_num_and_bad_axis():
    assert_xp_close(garray.linspace(0, 1), numpy.linspace(0, 1))
    with pytest.raises(numpy.exceptions.AxisError):
        garray.linspace(0, 1, 5, axis=1)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "complex64"])
@pytest.mark.parametrize("kwargs", [{}, {"num": 4, "endpoint": False}, {"axis": 1},
                                    {"axis": -1}, {"num": 1}, {"num": 0},
                                    {"dtype": "int64"}, {"num": 3, "axis": 2}], ids=str)
@xp_compare()
def test_linspace_array_bounds(xp, dtype, kwargs):
    start = make(xp, (2, 3), dtype)
    stop = make(xp, (3,), dtype, start=10)
    kwargs = dict({"num": 5}, **kwargs)
    out = [xp.linspace(start, stop, **kwargs), xp.linspace(0, stop, **kwargs),
           xp.linspace(start[::-1, ::2], 2.5, **kwargs)]
    y, step = xp.linspace(start, stop, retstep=True, **kwargs)
    return out + [y, step if numpy.ndim(step) else float(step)]


@xp_compare()
def test_linspace_array_bounds_zero_step_and_lists(xp):
    same = xp.asarray([1.0, 2.0])
    return [xp.linspace(same, same, 4), xp.linspace([0, 1], [1, 3], 3),
            xp.linspace(same, [3.0, 2.0], 3)]


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_like_positional_dtype_and_order(xp, dtype, layout):
    src = _layout(make(xp, (4, 6), dtype), layout)
    out = []
    for order in ("K", "A", "C", "F"):
        for r in (xp.zeros_like(src, "float32", order), xp.ones_like(src, dtype, order),
                  xp.full_like(src, 1, None, order), xp.empty_like(src, dtype, order)):
            out += [r.flags.c_contiguous, r.flags.f_contiguous, _strides_of(r)]
    return out + [xp.zeros_like(src, "float32"), xp.ones_like(src, int),
                  xp.full_like(src, 2, "int16", "F")]


@xp_compare()
def test_like_shape_and_array_likes(xp):
    a = make(xp, (2, 3), "float64")
    return [xp.zeros_like(a, shape=(4, 5)), xp.ones_like(a, int, "C", True, (3,)),
            xp.zeros_like([1, 2]), xp.ones_like([[1.5]]), xp.full_like([1, 2], 7)]


# ---- order= --------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F", "c", "f", None])
@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (0, 3), (5,), ()], ids=str)
@xp_compare()
def test_creation_order(xp, order, shape):
    out = []
    for r in (xp.zeros(shape, "int32", order), xp.ones(shape, order=order),
              xp.full(shape, 2.5, None, order), xp.empty(shape, order=order)):
        out += [r.flags.c_contiguous, r.flags.f_contiguous, r.strides if r.size else ()]
    return out + [xp.zeros(shape, "int32", order), xp.ones(shape, order=order),
                  xp.full(shape, 2.5, None, order)]


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("args", [(3,), (3, 4), (4, 3, 1), (4, 3, -2), (0,), (2, 0)], ids=str)
@xp_compare()
def test_eye_order(xp, order, args):
    r = xp.eye(*args, order=order)
    return [r, r.flags.c_contiguous, r.flags.f_contiguous]


@pytest.mark.parametrize("k", [2**63, -2**63 - 5, 2**70, 4, -3, 3, -2])
@xp_compare()
def test_eye_far_diagonals(xp, k):
    return [xp.eye(3, 4, k), xp.eye(0, None, k), xp.eye(2, 5, k, order="F")]


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "full", "eye"])
@pytest.mark.parametrize("order", ["K", "A", "X", "", 1])
@xp_compare()
def test_creation_bad_order(xp, fn, order):
    if fn == "full":
        return xp.full((2, 2), 1.0, None, order)
    if fn == "eye":
        return xp.eye(2, order=order)
    return getattr(xp, fn)((2, 2), order=order)


def test_ndarray_constructor_order_and_buffer():
    a = garray.ndarray((2, 3), garray.float32, order="F")
    assert a.flags.f_contiguous and not a.flags.c_contiguous and a.strides == (4, 8)
    with pytest.raises(NotImplementedError, match="buffer"):
        garray.ndarray((2,), buffer=b"12345678")
    with pytest.raises(ValueError):
        garray.ndarray((2, 2), order="K")


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ["K", "A", "C", "F", None])
@xp_compare()
def test_copy_asarray_array_order(xp, dtype, layout, order):
    src = _layout(make(xp, (4, 6), dtype), layout)
    out = []
    for r in (xp.copy(src, order=order or "K"), xp.asarray(src, order=order),
              xp.array(src, order=order or "K"), xp.asarray(src, None, order, copy=True),
              src.copy(order or "C"), src.astype(dtype, order or "K")):
        out += [r, r.flags.c_contiguous, r.flags.f_contiguous]
    return out


@pytest.mark.parametrize("obj", [[[1, 2], [3, 4]], 5, [], [[1.5], [2.5]]], ids=str)
@xp_compare()
def test_asarray_order_from_host_data(xp, obj):
    out = []
    for r in (xp.asarray(obj, order="F"), xp.asarray(obj, "float32", "C"),
              xp.ascontiguousarray(obj), xp.asfortranarray(obj),
              xp.asfortranarray(obj, "int64"), xp.array(obj, ndmin=3)):
        out += [r, r.flags.c_contiguous, r.flags.f_contiguous]
    return out


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_ascontiguous_asfortran(xp, dtype, layout):
    src = _layout(make(xp, (4, 6), dtype), layout)
    c, f = xp.ascontiguousarray(src), xp.asfortranarray(src)
    return [c, f, c.flags.c_contiguous, f.flags.f_contiguous,
            xp.ascontiguousarray(make(xp, (), dtype)), xp.asfortranarray(src.real, "float64")]


def test_asarray_order_copy_rules():
    f = garray.asfortranarray(make(garray, (3, 4), "float32"))
    assert garray.asarray(f, order="F") is f
    assert garray.asarray(f, order="K") is f
    assert garray.asfortranarray(f) is f
    with pytest.raises(ValueError):
        garray.asarray(f, order="C", copy=False)
    with pytest.raises(ValueError):
        garray.asarray(f, order="Q")
    with pytest.raises(TypeError):
        garray.asarray(f, order=3)
    c = garray.copy(f)
    c[0, 0] = 100
    assert float(f[0, 0]) != 100


def test_array_copies_by_default():
    x = make(garray, (3,), "int32")
    y = garray.array(x)
    y[0] = 99
    assert int(x[0]) == 1
    assert garray.array(x, copy=None) is x
    with pytest.raises(ValueError):
        garray.array(x, dtype="float64", copy=False)
    with pytest.raises(TypeError):
        garray.array(x, ndmin=1.5)


# ---- dtype objects and scalar type names ----------------------------------------------


@pytest.mark.parametrize("spec", ["f4", "float32", "i8", "int32", "u2", "?", "c16", "b1",
                                  "complex", "<f8", ">i4", numpy.float32, numpy.int16,
                                  int, float, complex, bool, numpy.dtype("uint64"),
                                  numpy.intp, numpy.double, numpy.csingle, None])
def test_dtype_constructor(spec):
    got, want = garray.dtype(spec), numpy.dtype(spec).newbyteorder("=")
    assert got == want and isinstance(got, numpy.dtype) and got.isnative
    assert isinstance(got, garray.dtype)
    assert (got.itemsize, got.kind, got.name) == (want.itemsize, want.kind, want.name)


@pytest.mark.parametrize("spec, name", [
    ("f16", "float128"), (numpy.clongdouble, "complex256"), ("U3", "<U3"), ("S2", "|S2"),
    (object, "object"),
    ([("a", "f4"), ("b", "i4")], "('a', '<f4')"), (numpy.longdouble, "float128"),
    ("V8", "|V8"), ((numpy.float32, (2,)), "(2,)")], ids=str)
def test_dtype_rejects_unsupported(spec, name):
    with pytest.raises(TypeError, match="garray does not support") as info:
        garray.dtype(spec)
    assert name in str(info.value)
    with pytest.raises(TypeError):
        garray.zeros(2, spec)


def test_dtype_class_behaviour():
    assert isinstance(numpy.dtype("f4"), garray.dtype)
    assert not isinstance(numpy.float32, garray.dtype)
    assert issubclass(type(numpy.dtype("i4")), garray.dtype)
    assert garray.dtype[numpy.float64] == numpy.dtype[numpy.float64]
    with pytest.raises(TypeError):
        garray.dtype("not a dtype")
    x = garray.zeros(3, "f4")
    assert x.dtype == garray.dtype("f4") and x.dtype.itemsize == 4 and xp_kind(x.dtype) == "f"


NUMPY_TYPE_NAMES = ["intp", "uintp", "int_", "double", "single", "cdouble", "csingle",
                    "longlong", "ulonglong", "short", "ushort", "byte", "ubyte", "intc",
                    "uintc", "long", "ulong", "bool_", "uint", "generic", "number", "integer",
                    "signedinteger", "unsignedinteger", "floating", "complexfloating",
                    "inexact", "bool", "int8", "float32", "complex128"]


@pytest.mark.parametrize("name", NUMPY_TYPE_NAMES)
def test_scalar_type_names_are_numpys(name):
    assert getattr(garray, name) is getattr(numpy, name)


@pytest.mark.parametrize("t", [int, float, complex, bool, numpy.float32, numpy.uint8, "f8",
                               "int32", garray.intc, garray.double, garray.csingle],
                         ids=str)
@xp_compare()
def test_scalar_types_as_dtypes_everywhere(xp, t):
    a = make(xp, (2, 3), "int16")
    return [xp.zeros(2, t), xp.full((2,), 1, t), xp.asarray([1, 0, 2], t), a.astype(t),
            xp.sum(a, dtype=t), a.sum(axis=0, dtype=t), xp.arange(2, dtype=t),
            xp.ones_like(a, t), xp.asarray(a, dtype=t)]


@pytest.mark.parametrize("pair", [(garray.float32, garray.floating),
                                  (garray.int8, garray.signedinteger),
                                  (garray.uint8, garray.signedinteger), ("f8", garray.inexact),
                                  (garray.complex64, garray.number), (int, garray.integer),
                                  (garray.bool_, garray.generic)], ids=str)
def test_issubdtype(pair):
    assert garray.issubdtype(*pair) == numpy.issubdtype(*pair)


@pytest.mark.parametrize("args", [(["d", "f", "S"],), ("abceh", "GDFgdf", "G"), ("if",),
                                  ("",), (["f", "D"],), ("Fd",), ("bh", "GDFgdfQqLlIiHhBb?")],
                         ids=str)
def test_mintypecode(args):
    assert garray.mintypecode(*args) == numpy.mintypecode(*args)
    arrays = [garray.zeros(1, "float32"), garray.zeros(1, "complex128")]
    assert garray.mintypecode(arrays) == numpy.mintypecode(
        [numpy.zeros(1, "float32"), numpy.zeros(1, "complex128")])


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_rules_every_pair(casting):
    for a in ALL_DTYPES:
        for b in ALL_DTYPES:
            assert garray.can_cast(a, b, casting) == numpy.can_cast(a, b, casting), (a, b)
    x = garray.zeros(2, "int16")
    assert garray.can_cast(x, "int8", casting=casting) == numpy.can_cast(
        numpy.zeros(2, "int16"), "int8", casting=casting)


def test_can_cast_bad_input():
    with pytest.raises(ValueError):
        garray.can_cast("f4", "f8", "bogus")
    with pytest.raises(TypeError):
        garray.can_cast(1, "f8")


@xp_compare()
def test_result_type_promote_types_with_numpy_arguments(xp):
    return [str(xp.result_type(numpy.float32, numpy.int64, 1.0)),
            str(xp.result_type(numpy.zeros(2, numpy.int8), numpy.uint8)),
            str(xp.result_type(numpy.dtype("i2"), numpy.float32(1))),
            str(xp.promote_types(numpy.int8, "u1")), str(xp.promote_types(int, float))]


# ---- subclasses ------------------------------------------------------------------------


class Tagged(garray.ndarray):
    """A NumPy-style subclass: ``info`` travels through views via __array_finalize__."""

    finalized = []

    def __array_finalize__(self, obj):
        Tagged.finalized.append(type(obj).__name__)
        self.info = getattr(obj, "info", "default")


def test_subclass_construction_and_view():
    Tagged.finalized.clear()
    a = Tagged((2, 3), garray.float32)
    assert type(a) is Tagged and a.shape == (2, 3) and a.dtype == numpy.float32
    assert a.info == "default" and Tagged.finalized == ["NoneType"]
    x = garray.arange(6.0).reshape(2, 3)
    v = x.view(Tagged)
    assert type(v) is Tagged and v.info == "default" and Tagged.finalized[-1] == "ndarray"
    assert_xp_close(v.view(garray.ndarray), numpy.arange(6.0).reshape(2, 3))
    v[0, 0] = 42.0                       # a view: shares x's memory
    assert float(x[0, 0]) == 42.0
    assert type(x.view(dtype=garray.int64, type=Tagged)) is Tagged
    with pytest.raises(TypeError):
        x.view(type=numpy.ndarray)


def test_subclass_kept_by_views_and_copies():
    v = garray.arange(12.0).reshape(3, 4).view(Tagged)
    v.info = "mine"
    for r in (v[1:], v[0], v.T, v.mT, v.reshape(4, 3), v.transpose(1, 0), v.ravel(),
              v.flatten(), v[None].squeeze(0), v.swapaxes(0, 1), v.copy(), v.astype("f4"),
              v.view(), v.copy("F")):
        assert type(r) is Tagged and r.info == "mine", r
    assert_xp_close(v[1:].view(garray.ndarray), numpy.arange(12.0).reshape(3, 4)[1:])
    # ufuncs, operators and module functions give plain arrays (Note [Subclasses]).
    assert type(v + 1) is garray.ndarray and type(garray.sum(v)) is garray.ndarray
    assert type(garray.array(v)) is garray.ndarray
    assert type(garray.array(v, subok=True)) is Tagged
    assert type(garray.copy(v, subok=True)) is Tagged
    for r in (garray.zeros_like(v), garray.ones_like(v), garray.empty_like(v),
              garray.full_like(v, 2)):
        assert type(r) is Tagged and r.info == "mine"
    assert type(garray.zeros_like(v, subok=False)) is garray.ndarray
    assert type(v.astype("f4", subok=False)) is garray.ndarray


def test_subclass_with_own_new_and_pickle_free_of_crash():
    class WithNew(garray.ndarray):
        def __new__(cls, data, unit="m"):
            obj = garray.asarray(data).view(cls)
            obj.unit = unit
            return obj

        def __array_finalize__(self, obj):
            self.unit = getattr(obj, "unit", None)

    w = WithNew([1.0, 2.0], unit="s")
    assert type(w) is WithNew and w.unit == "s" and w[1:].unit == "s"
    assert_xp_close(w.view(garray.ndarray) * 2, numpy.array([2.0, 4.0]))
    assert pickle.loads(pickle.dumps(garray.asarray([1, 2]))).tolist() == [1, 2]
    del w   # the subclass's instance dict is freed with it


# ---- ndarray methods ---------------------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_tolist_item(xp, dtype, layout):
    a = _layout(make(xp, (4, 6), dtype), layout)
    return [a.tolist(), a.item(3), a.item(-1), a.item(1, 2), a.item((0, 1)),
            make(xp, (), dtype).item(), make(xp, (1, 1), dtype).item(),
            make(xp, (5,), dtype).item(2), make(xp, (), dtype).tolist()]


@pytest.mark.parametrize("args", [(), (24,), (-25,), (1, 9), (4, 0), (1, 2, 3), (1.5,),
                                  ((1,),)], ids=str)
@xp_compare()
def test_item_errors(xp, args):
    return make(xp, (4, 6), "int32").item(*args)


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_fill(xp, dtype, layout):
    a = make(xp, (4, 6), dtype)
    v = _layout(a, layout)
    v.fill(1)
    e = make(xp, (0, 3), dtype)
    e.fill(2)
    z = make(xp, (), dtype)
    z.fill(True)
    return [a, e, z]


@for_all_dtypes("src")
@pytest.mark.parametrize("casting", ["no", "safe", "same_kind", "unsafe"])
@xp_compare()
def test_astype_casting(xp, src, casting):
    a = make(xp, (2, 3), src)
    if src == "bfloat16":   # a negative float into uint16 is C's undefined case (ml_dtypes
        a = abs(a)          # gives 0, NumPy's float16 65535): left out
    return [a.astype(t, casting=casting) for t in ("int8", "uint16", "int64", "float32",
                                                    "float64", "complex64", "bool")]


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@xp_compare()
def test_astype_order_and_copy(xp, dtype, layout, order):
    a = _layout(make(xp, (4, 6), dtype), layout)
    out = []
    for t in (dtype, "float64", "int32"):
        r = a.astype(t, order, copy=False)
        out += [r, r.flags.c_contiguous, r.flags.f_contiguous, r is a]
    return out


def test_astype_bad_arguments():
    a = make(garray, (2, 2), "float64")
    with pytest.raises(ValueError):
        a.astype("f4", casting="bogus")
    with pytest.raises(NotImplementedError, match="same_value"):
        a.astype("f4", casting="same_value")
    with pytest.raises(ValueError):
        a.astype("f4", order="X")
    with pytest.raises(TypeError, match="float64.*int64.*'safe'"):
        a.astype("i8", casting="safe")


@for_all_dtypes("src")
@pytest.mark.parametrize("shape", [(4, 8), (2, 0), (3, 16)], ids=str)
@xp_compare()
def test_view_dtype_every_pair(xp, src, shape):
    a = make(xp, shape, src)
    if numpy.dtype(src).kind == "b":
        a = a.view("uint8")          # bytes 0/1 only: every view is well defined
    out = []
    for t in ALL_DTYPES:
        if t == "bool":
            continue                 # a bool view of arbitrary bytes is not 0/1
        v = a.view(t)
        out += [v.shape, v.dtype.name]
        if numpy.dtype(t).kind not in "fc":
            out.append(v)            # floats: NaN payloads differ in bits, compare ints
    return out


@pytest.mark.parametrize("case", ["0d", "noncontig-last", "larger-misfit", "smaller-ok",
                                  "transposed-same-size", "neg-strides-same-size",
                                  "step-last-larger"])
@xp_compare()
def test_view_dtype_rules(xp, case):
    a = make(xp, (4, 6), "int16")
    if case == "0d":
        return make(xp, (), "int32").view("int16")
    if case == "noncontig-last":
        return a.T.view("int8")
    if case == "larger-misfit":
        return a[:, :3].view("int32")
    if case == "smaller-ok":
        return a[::2].view("uint8")
    if case == "transposed-same-size":
        return a.T.view("uint16")
    if case == "neg-strides-same-size":
        return a[::-1, ::-1].view("uint16")
    return a[:, ::2].view("int32")


def test_view_unaligned_is_refused():
    a = make(garray, (2, 9), "uint8")
    with pytest.raises(NotImplementedError, match="unaligned"):
        a[:, 1:].view("int32")          # each row's bytes 1..8: not 4-byte aligned


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS + ("0d", "empty"))
@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_tobytes(dtype, layout, order):
    if layout == "0d":
        g, n = make(garray, (), dtype), make(numpy, (), dtype)
    elif layout == "empty":
        g, n = make(garray, (0, 3), dtype), make(numpy, (0, 3), dtype)
    else:
        g, n = (_layout(make(xp, (4, 6), dtype), layout) for xp in (garray, numpy))
    assert g.tobytes(order) == n.tobytes(order)
    assert g.tobytes() == n.tobytes()


def test_tobytes_bad_order():
    with pytest.raises(ValueError):
        garray.zeros(2).tobytes("X")


# ---- namespace functions ------------------------------------------------------------------


@pytest.mark.parametrize("obj", [3, 2.5, 1j, True, "s", b"b", numpy.float32(1), None, [1],
                                 (1,), numpy.array(3)], ids=repr)
def test_isscalar(obj):
    assert garray.isscalar(obj) == numpy.isscalar(obj)


@xp_compare()
def test_isscalar_of_arrays(xp):
    return [xp.isscalar(make(xp, (), "float32")), xp.isscalar(make(xp, (2,), "int8"))]


@pytest.mark.parametrize("obj", [[[1, 2], [3, 4]], 5, [], (1, 2, 3)], ids=str)
def test_ndim_shape_size_iterable_host_data(obj):
    for name in ("ndim", "shape", "size", "iterable"):
        assert getattr(garray, name)(obj) == getattr(numpy, name)(obj), name


@pytest.mark.parametrize("shape", [(), (0,), (2, 3), (2, 0, 4)], ids=str)
@xp_compare()
def test_ndim_shape_size_iterable(xp, shape):
    a = make(xp, shape, "float64")
    out = [xp.ndim(a), xp.shape(a), xp.size(a), xp.iterable(a)]
    if a.ndim:
        out += [xp.size(a, 0), xp.size(a, -1), xp.size(a, (0, a.ndim - 1) if a.ndim > 1 else 0)]
    return out


@pytest.mark.parametrize("axis", [2, -3, 1.0, (0, -2), (1, 5)], ids=str)
@xp_compare()
def test_size_bad_axis(xp, axis):
    return xp.size(make(xp, (2, 3), "int8"), axis)


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_real_imag_attributes(xp, dtype, layout):
    a = _layout(make(xp, (4, 6), dtype), layout)
    out = [a.real, a.imag, a.imag.flags.writeable]
    b = make(xp, (4, 6), dtype)
    b.real = 3
    if xp_kind(b.dtype) == "c":
        b.imag = -1
        v = _layout(b, layout).imag
        v[...] = 7                  # a view: writes through
    return out + [b]


@xp_compare()
def test_imag_of_real_array_cannot_be_set(xp):
    a = make(xp, (3,), "float32")
    a.imag = 1.0


# The reductions take NumPy's positional order beside the Array API's keywords:
# numpy.sum(a, axis, dtype, out, keepdims, initial, where) and the like.
_POSITIONAL_REDUCTIONS = [
    ("sum", (1,)), ("sum", (0, "float32")), ("sum", (None, None, None, True)),
    ("sum", (1, None, None, False, 10.0)),
    ("prod", (0,)), ("prod", (1, "float64", None, True)),
    ("mean", (0,)), ("mean", (1, "float32", None, True)),
    ("std", (0,)), ("std", (1, None, None, 1)), ("std", (None, None, None, 1, True)),
    ("var", (0,)), ("var", (0, "float32", None, 2)),
    ("max", (0,)), ("max", (1, None, True)), ("max", (None, None, False, 100.0)),
    ("min", (1,)), ("min", (0, None, True, -5.0)),
    ("argmax", (0,)), ("argmin", (1,)),
    ("all", (0,)), ("all", (1, None, True)), ("any", (0,)), ("any", (None, None, True)),
    ("count_nonzero", (0,)),
]


@pytest.mark.parametrize("name, args", _POSITIONAL_REDUCTIONS,
                         ids=[f"{n}{a}" for n, a in _POSITIONAL_REDUCTIONS])
@pytest.mark.parametrize("dtype", ["int32", "float64"])
@xp_compare()
def test_reductions_take_numpys_positional_arguments(xp, name, args, dtype):
    a = make(xp, (3, 4), dtype)
    if name in ("all", "any", "count_nonzero"):
        a = a > 5
    return getattr(xp, name)(a, *args)


@pytest.mark.parametrize("name", ["sum", "max", "mean", "std", "argmax", "all"])
def test_reductions_positional_out(name):
    h = make(numpy, (3, 4), "float64")
    want = getattr(numpy, name)(h, 0)
    o = garray.empty(want.shape, dtype=want.dtype)
    pos = {"sum": (0, None, o), "max": (0, o), "mean": (0, None, o), "std": (0, None, o),
           "argmax": (0, o), "all": (0, o)}[name]
    r = getattr(garray, name)(garray.asarray(h), *pos)
    assert r is o
    assert_xp_close(o, want)


def test_reductions_still_take_the_array_api_keywords():
    x = make(garray, (3, 4), "float64")
    h = make(numpy, (3, 4), "float64")
    assert_xp_close(garray.sum(x, axis=1, keepdims=True), h.sum(axis=1, keepdims=True))
    assert_xp_close(garray.std(x, axis=0, correction=1), h.std(axis=0, ddof=1))
    assert_xp_close(garray.var(x, correction=0.5), numpy.var(h, ddof=0.5))
    with pytest.raises(TypeError):
        garray.argmax(x, 0, None, True)         # keepdims is keyword-only, as in NumPy
