"""Creation functions (asarray, empty/zeros/ones/full, *_like, arange, linspace, eye,
identity, meshgrid, tril/triu) against NumPy, and their errors."""

import array
import re

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, make, xp_compare

SHAPES = [(), (0,), (3,), (2, 3), (2, 0, 3), (2, 3, 4)]
LAYOUTS = ["c", "t", "neg", "step"]


def _on_cpu():
    return garray.default_device().kind == "cpu"


def _layout(a, layout):
    """A non-contiguous (or contiguous) view of a 2-d or higher array ``a``."""
    if layout == "t":
        return a.T
    if layout == "neg":
        return a[::-1, ::-1]
    if layout == "step":
        return a[::2, 1::2]
    return a


def _host(shape, dtype, layout="c"):
    """NumPy data of ``shape`` seen through ``layout`` (a view of a bigger array)."""
    big = (shape[0] * 2, shape[1] * 2) + tuple(shape[2:]) if layout == "step" else shape
    h = make(numpy, big, dtype)
    return _layout(h, layout)


# ---- asarray ------------------------------------------------------------------------


@pytest.mark.parametrize("obj", [
    [1, 2, 3], [[1.5, 2.0], [3.0, -4.25]], [[1 + 2j, 3], [0, -1j]], [True, False, True],
    [[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [], [[]], [[], []], [1, 2.5], [True, 2],
    (1, 2, (3)), [[1, 2], (3, 4)], [numpy.int8(1), numpy.int8(2)],
    [numpy.float32(1.5), 2.5], [2**63 - 1, -2**63], [2**63], [2**64 - 1],
], ids=repr)
@xp_compare()
def test_asarray_nested_sequences(xp, obj):
    return xp.asarray(obj)


@pytest.mark.parametrize("obj", [True, False, 0, -7, 2**62, 1.5, -0.0, float("inf"),
                                 float("nan"), 1 + 2j, complex(0, -1)], ids=repr)
@xp_compare()
def test_asarray_python_scalars(xp, obj):
    return xp.asarray(obj)


@pytest.mark.parametrize("obj, dtype", [(True, numpy.bool_), (3, numpy.int64),
                                        (3.5, numpy.float64), (3 - 1j, numpy.complex128)])
def test_asarray_python_scalar_default_dtypes(obj, dtype):
    a = garray.asarray(obj)
    assert a.ndim == 0 and a.shape == ()
    assert a.dtype == numpy.dtype(dtype)
    assert a.item() == obj and type(a.item()) is type(obj)


@pytest.mark.parametrize("obj", [2**64, -2**63 - 1])
def test_asarray_python_int_out_of_range(obj):
    # NumPy falls back to an object array, which garray does not support.
    assert numpy.asarray(obj).dtype == object
    with pytest.raises((OverflowError, TypeError)):
        garray.asarray(obj)


@for_all_dtypes()
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@xp_compare()
def test_asarray_numpy_contiguous(xp, dtype, shape):
    return xp.asarray(make(numpy, shape, dtype))


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_asarray_numpy_noncontiguous(xp, dtype, layout):
    return xp.asarray(_host((4, 6), dtype, layout))


@for_all_dtypes()
def test_asarray_numpy_noncontiguous_3d(dtype):
    h = make(numpy, (3, 4, 5), dtype)
    for v in (h.transpose(2, 0, 1), h[::-1, :, ::-2], h[:, 1:3, ::3].T, h[1], h[..., 0]):
        assert_xp_close(garray.asarray(v), numpy.asarray(v))
        assert_xp_close(garray.asarray(v, copy=True), numpy.asarray(v, copy=True))


@pytest.mark.parametrize("bo", [">f4", ">i2", ">u8", ">c16", ">f8", "<i4"])
@pytest.mark.parametrize("layout", ["c", "neg"])
def test_asarray_numpy_byte_order(bo, layout):
    h = numpy.arange(-3, 9).reshape(3, 4).astype(bo)
    if layout == "neg":
        h = h[::-1, ::-2]
    g = garray.asarray(h)
    native = h.astype(numpy.dtype(bo).newbyteorder("="))
    assert g.dtype == native.dtype and g.dtype.isnative
    assert_xp_close(g, native)
    # an explicit dtype converts from the swapped layout too
    target = "complex64" if h.dtype.kind == "c" else "float64"
    assert_xp_close(garray.asarray(h, dtype=target), h.astype(target))


def test_asarray_byte_order_copy_false_raises():
    h = numpy.arange(4, dtype=">f4")
    with pytest.raises(ValueError):
        garray.asarray(h, copy=False)


@for_all_dtypes()
@xp_compare()
def test_asarray_numpy_scalars(xp, dtype):
    s = make(numpy, (), dtype)[()]
    assert isinstance(s, numpy.generic)
    return xp.asarray(s)


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_asarray_garray_arrays(xp, dtype, layout):
    a = _layout(make(xp, (4, 6), dtype), layout)
    return [xp.asarray(a), xp.asarray(a, copy=True), xp.asarray(a[1:, ::-1])]


@for_all_dtypes()
def test_asarray_garray_array_is_returned_unchanged(dtype):
    a = make(garray, (2, 3), dtype)
    assert garray.asarray(a) is a
    assert garray.asarray(a, dtype=dtype) is a
    assert garray.asarray(a, copy=False) is a
    assert garray.asarray(a, device=a.device) is a
    c = garray.asarray(a, copy=True)
    assert c is not a
    assert_xp_close(c, make(numpy, (2, 3), dtype))


@pytest.mark.parametrize("typecode, np_dtype", [("d", "float64"), ("f", "float32"),
                                                ("b", "int8"), ("B", "uint8"),
                                                ("h", "int16"), ("i", "int32"),
                                                ("q", "int64"), ("Q", "uint64")])
def test_asarray_array_module(typecode, np_dtype):
    buf = array.array(typecode, [1, 2, 3, 4, 5])
    g = garray.asarray(buf)
    assert_xp_close(g, numpy.asarray(buf))
    assert g.dtype == numpy.dtype(np_dtype)
    assert_xp_close(garray.asarray(buf, dtype="complex64"), numpy.asarray(buf, dtype="complex64"))


def test_asarray_memoryview():
    data = array.array("d", [0.5, -1.5, 2.5, 4.0, 8.0, 16.0])
    m = memoryview(data)
    assert_xp_close(garray.asarray(m), numpy.asarray(m))
    m2 = memoryview(data).cast("B").cast("d", (2, 3))
    assert_xp_close(garray.asarray(m2), numpy.asarray(m2))
    mb = memoryview(b"\x01\x02\xff")
    assert_xp_close(garray.asarray(mb), numpy.asarray(mb))
    assert_xp_close(garray.asarray(bytearray(b"ab")), numpy.asarray(bytearray(b"ab")))
    # a strided memoryview
    ms = memoryview(numpy.arange(10, dtype="int32"))[::3]
    assert_xp_close(garray.asarray(ms), numpy.asarray(ms))


@for_all_dtypes("target")
@pytest.mark.parametrize("source", ["bool", "int8", "uint16", "int64", "float32", "float64",
                                    "complex128"])
@xp_compare()
def test_asarray_dtype_numpy_source(xp, source, target):
    h = make(numpy, (2, 3), source)
    if numpy.dtype(source).kind == "c" and target.kind != "c":
        h = h.real.copy()   # complex -> real warns in NumPy
    return xp.asarray(h[:, ::-1], dtype=target)


@for_all_dtypes("target")
@xp_compare()
def test_asarray_dtype_list_and_scalar(xp, target):
    return [xp.asarray([[1, 0], [3, 4]], dtype=target), xp.asarray(1, dtype=target),
            xp.asarray([], dtype=target), xp.asarray(True, dtype=target)]


@for_all_dtypes("target")
@pytest.mark.parametrize("source", ["bool", "int32", "uint8", "float64", "complex64"])
@xp_compare()
def test_asarray_dtype_garray_source(xp, source, target):
    a = make(xp, (3, 4), source)
    if numpy.dtype(source).kind == "c" and target.kind != "c":
        a = xp.asarray(make(numpy, (3, 4), source).real.copy())
    return xp.asarray(a.T, dtype=target)


@for_all_dtypes()
@pytest.mark.parametrize("kind", ["list", "numpy", "numpy_t", "garray", "garray_t", "scalar"])
def test_asarray_copy_true_is_independent(dtype, kind):
    h = make(numpy, (3, 4), dtype)
    if kind == "list":
        src = h.tolist()
    elif kind.startswith("numpy"):
        src = h.T if kind == "numpy_t" else h
    elif kind.startswith("garray"):
        src = make(garray, (3, 4), dtype)
        src = src.T if kind == "garray_t" else src
    else:
        src = h[1, 2]
    expected = numpy.array(src.get() if isinstance(src, garray.ndarray) else src, copy=True)
    g = garray.asarray(src, copy=True)
    assert_xp_close(g, expected)
    assert g.flags.writeable
    # overwrite every element of the copy with a value different from the first one
    new = numpy.logical_not(expected.flat[0]) if dtype.kind == "b" else expected.flat[0] + 1
    g[...] = new
    assert numpy.all(g.get() == new)
    # the source is unchanged
    if isinstance(src, garray.ndarray):
        assert_xp_close(src, expected)
    elif isinstance(src, numpy.ndarray):
        numpy.testing.assert_array_equal(src, expected, strict=True)
    else:
        assert numpy.asarray(src).tolist() == expected.tolist()


def test_asarray_copy_true_then_write_does_not_leak_back():
    h = numpy.arange(12.0).reshape(3, 4)
    g = garray.asarray(h, copy=True)
    g[0, 0] = -100.0
    h[1, 1] = 555.0
    assert h[0, 0] == 0.0
    assert g[1, 1].item() == 5.0 and g[0, 0].item() == -100.0
    a = make(garray, (5,), "int32")
    b = garray.asarray(a, copy=True)
    b[:] = 0
    assert_xp_close(a, make(numpy, (5,), "int32"))


@pytest.mark.skipif(not _on_cpu(), reason="memory sharing with NumPy only on the cpu device")
@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
def test_asarray_copy_none_shares_numpy_memory_on_cpu(dtype, layout):
    h = _host((4, 6), dtype, layout)
    g = garray.asarray(h)
    first = h.flat[0]
    new = numpy.asarray(1 if dtype.kind != "b" else not first, dtype=dtype)
    new = new + first if dtype.kind != "b" else new
    h[(0,) * h.ndim] = new
    assert g[(0,) * h.ndim].item() == new.item()
    # and the other way round
    last = (-1,) * h.ndim
    g[last] = h[(0,) * h.ndim]
    assert h[last] == h[(0,) * h.ndim]
    assert_xp_close(g, h)
    # copy=False also shares, and dtype equal to the source's does not copy
    g2 = garray.asarray(h, copy=False, dtype=dtype)
    h[(1,) * h.ndim] = h[(0,) * h.ndim]
    assert g2[(1,) * h.ndim].item() == h[(0,) * h.ndim].item()


@pytest.mark.skipif(not _on_cpu(), reason="memory sharing with NumPy only on the cpu device")
def test_asarray_copy_none_buffer_shares_on_cpu():
    buf = array.array("d", [1.0, 2.0, 3.0])
    assert numpy.shares_memory(numpy.asarray(buf), numpy.asarray(buf))
    g = garray.asarray(buf)
    buf[1] = 42.0
    assert g[1].item() == 42.0


@pytest.mark.skipif(not _on_cpu(), reason="memory sharing with NumPy only on the cpu device")
def test_asarray_copy_false_buffer_shares_on_cpu():
    # numpy.asarray(buffer, copy=False) shares the buffer: no copy is needed, so the
    # Array API's copy=False must not raise.
    buf = array.array("d", [1.0, 2.0, 3.0])
    n = numpy.asarray(buf, copy=False)
    buf[0] = -1.0
    assert n[0] == -1.0
    g = garray.asarray(buf, copy=False)
    buf[2] = 9.0
    assert g[2].item() == 9.0


@pytest.mark.skipif(not _on_cpu(), reason="memory sharing with NumPy only on the cpu device")
def test_asarray_readonly_numpy_stays_readonly_on_cpu():
    h = numpy.arange(6.0)
    h.flags.writeable = False
    g = garray.asarray(h)
    assert not g.flags.writeable
    with pytest.raises(ValueError):
        g[0] = 1.0
    c = garray.asarray(h, copy=True)
    c[0] = 1.0
    assert h[0] == 0.0


@pytest.mark.parametrize("obj", [[1, 2, 3], [[1.0]], (1, 2), 5, 2.5, True, 1j],
                         ids=repr)
@xp_compare()
def test_asarray_copy_false_python_objects_raise(xp, obj):
    return xp.asarray(obj, copy=False)


@pytest.mark.parametrize("source, target", [("int64", "float64"), ("float64", "float32"),
                                            ("int32", "int64"), ("bool", "uint8"),
                                            ("complex64", "complex128")])
@xp_compare()
def test_asarray_copy_false_dtype_change_raises(xp, source, target):
    return xp.asarray(make(xp, (3,), source), dtype=target, copy=False)


@pytest.mark.parametrize("source, target", [("int64", "float64"), ("float64", "float32")])
def test_asarray_copy_false_dtype_change_numpy_source_raises(source, target):
    h = make(numpy, (3,), source)
    with pytest.raises(ValueError):
        numpy.asarray(h, dtype=target, copy=False)
    with pytest.raises(ValueError, match="copy"):
        garray.asarray(h, dtype=target, copy=False)


@pytest.mark.parametrize("obj, name", [
    (numpy.zeros(3, numpy.clongdouble), "complex256|clongdouble"),
    (numpy.zeros((2, 2), numpy.longdouble)[:, ::-1], "float128|longdouble"),
    (numpy.longdouble(1.0), "float128|longdouble"),
    (["a", "bc"], "<U2"),
    (numpy.array([b"x", b"yz"]), "S2"),
    ([1, None], "object"),
    (numpy.array([1, "a"], dtype=object), "object"),
    (numpy.zeros(2, numpy.longdouble), "float128|longdouble"),
], ids=lambda v: v if isinstance(v, str) else type(v).__name__)
def test_asarray_unsupported_dtypes(obj, name):
    if name.startswith("float128") and numpy.dtype(numpy.longdouble).itemsize == 8:
        pytest.skip("longdouble is float64 here")
    with pytest.raises(TypeError, match=name if "|" in name else re.escape(name)):
        garray.asarray(obj)


@pytest.mark.parametrize("dtype", ["f16", numpy.clongdouble, "U3", object, "S1"], ids=str)
def test_unsupported_dtype_argument(dtype):
    name = re.escape(str(numpy.dtype(dtype)) if dtype is not object else "object")
    name = f"({name}|{re.escape(numpy.dtype(dtype).name)})"
    for fn in (lambda: garray.asarray([1, 2], dtype=dtype),
               lambda: garray.zeros(3, dtype=dtype),
               lambda: garray.empty((2,), dtype=dtype),
               lambda: garray.full(2, 1, dtype=dtype)):
        with pytest.raises(TypeError, match=name):
            fn()


# ---- empty / zeros / ones / full ------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("shape", SHAPES + [5, 0, [2, 2], (numpy.int64(2), 3)], ids=str)
def test_empty(dtype, shape):
    g = garray.empty(shape, dtype=dtype)
    n = numpy.empty(shape, dtype=dtype)
    assert isinstance(g, garray.ndarray)
    assert g.shape == n.shape and g.dtype == n.dtype
    assert g.strides == n.strides and g.flags.c_contiguous and g.flags.writeable
    assert g.device == garray.default_device()


@pytest.mark.parametrize("shape", [(), 3, (2, 3)], ids=str)
def test_default_dtype_is_float64(shape):
    for fn in (garray.empty, garray.zeros, garray.ones):
        assert fn(shape).dtype == numpy.float64
    assert_xp_close(garray.zeros(shape), numpy.zeros(shape))
    assert_xp_close(garray.ones(shape), numpy.ones(shape))


@for_all_dtypes()
@pytest.mark.parametrize("shape", SHAPES + [7, 0], ids=str)
@xp_compare()
def test_zeros_ones(xp, dtype, shape):
    return [xp.zeros(shape, dtype=dtype), xp.ones(shape, dtype=dtype)]


@for_all_dtypes()
def test_zeros_ones_large_and_reused_memory(dtype):
    # big enough to leave the small-block cache, and written before so that a
    # reused block is dirty
    for _ in range(2):
        junk = garray.full((300, 129), 7, dtype=dtype)
        del junk
        assert_xp_close(garray.zeros((300, 129), dtype=dtype), numpy.zeros((300, 129), dtype))
        assert_xp_close(garray.ones((129, 300), dtype=dtype), numpy.ones((129, 300), dtype))


@pytest.mark.parametrize("fill", [True, False, 0, 5, -3, 2**40, 1.5, -0.0, float("nan"),
                                  float("-inf"), 2 + 3j, -1j,
                                  numpy.bool_(True), numpy.int8(-5), numpy.uint16(7),
                                  numpy.int32(9), numpy.uint64(2**63), numpy.float32(0.25),
                                  numpy.float64(-2.5), numpy.complex64(1 - 1j),
                                  numpy.complex128(3j)], ids=repr)
@pytest.mark.parametrize("shape", [(), (4,), (2, 0), (3, 5)], ids=str)
@xp_compare()
def test_full_infers_dtype(xp, fill, shape):
    return xp.full(shape, fill)


@pytest.mark.parametrize("fill, dtype", [(True, "bool"), (1, "int64"), (1.0, "float64"),
                                         (1j, "complex128")])
def test_full_python_scalar_default_dtypes(fill, dtype):
    assert garray.full(3, fill).dtype == numpy.dtype(dtype)


@for_all_dtypes()
@pytest.mark.parametrize("fill", [0, 1, 7, True, False, 2.0, numpy.int8(3)], ids=repr)
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (0, 4)], ids=str)
@xp_compare()
def test_full_explicit_dtype(xp, dtype, fill, shape):
    return xp.full(shape, fill, dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("fill", [1.25, -3.5e10, float("nan"), float("inf"), 1e-300],
                         ids=repr)
@xp_compare()
def test_full_float_values(xp, dtype, fill):
    return xp.full((3, 2), fill, dtype=dtype)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@xp_compare()
def test_full_complex_values(xp, dtype):
    return [xp.full(4, 1.5 - 2.5j, dtype=dtype), xp.full((), complex("nan+1j"), dtype=dtype)]


@pytest.mark.parametrize("fill, dtype", [(2**8, "uint8"), (-1, "uint32"), (2**31, "int32"),
                                         (2**64, "uint64")])
@xp_compare()
def test_full_out_of_range_python_int(xp, fill, dtype):
    return xp.full(3, fill, dtype=dtype)


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_like_functions(xp, dtype, layout):
    src = _layout(make(xp, (4, 6), dtype), layout)
    e = xp.empty_like(src)
    assert e.shape == src.shape and e.dtype == src.dtype
    return [xp.zeros_like(src), xp.ones_like(src), xp.full_like(src, 1),
            xp.full_like(src, True), xp.full_like(src, 0), e.shape, str(e.dtype)]


@for_all_dtypes("target")
@pytest.mark.parametrize("source", ["bool", "int16", "uint32", "float32", "complex128"])
@xp_compare()
def test_like_functions_dtype_override(xp, source, target):
    src = make(xp, (3, 4), source)[::-1, ::2]
    e = xp.empty_like(src, dtype=target)
    return [xp.zeros_like(src, dtype=target), xp.ones_like(src, dtype=target),
            xp.full_like(src, 3, dtype=target), e.shape, str(e.dtype)]


@for_all_dtypes()
@pytest.mark.parametrize("shape", [(), (0,), (0, 3), (5,)], ids=str)
@xp_compare()
def test_like_functions_0d_and_empty(xp, dtype, shape):
    src = make(xp, shape, dtype)
    return [xp.zeros_like(src), xp.ones_like(src), xp.full_like(src, 2),
            xp.empty_like(src).shape]


@pytest.mark.parametrize("fill", [2.75, -1.5, 1 + 0j], ids=repr)
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex64"])
@xp_compare()
def test_full_like_casts_fill_to_source_dtype(xp, fill, dtype):
    src = make(xp, (2, 3), dtype)
    if isinstance(fill, complex) and numpy.dtype(dtype).kind != "c":
        fill = fill.real
    return xp.full_like(src, fill)


def test_like_functions_are_new_memory():
    src = make(garray, (3, 3), "float64")
    for fn in (garray.empty_like, garray.zeros_like, garray.ones_like,
               lambda x: garray.full_like(x, 2.0)):
        r = fn(src)
        r[...] = 0.0
        assert_xp_close(src, make(numpy, (3, 3), "float64"))
        assert r.flags.c_contiguous


@xp_compare()
def test_like_functions_take_array_likes(xp):
    # NumPy's *_like take any array-like (garray's tests of NumPy's signatures:
    # tests/test_numpy_signatures.py)
    return [xp.zeros_like([1, 2, 3]), xp.ones_like([[1.5]]), xp.full_like([1, 2], 0),
            xp.empty_like([True]).shape]


def test_like_functions_reject_unsupported_dtypes():
    for fn in (garray.empty_like, garray.zeros_like, garray.ones_like):
        with pytest.raises(TypeError):
            fn(["a", "b"])
    with pytest.raises(TypeError):
        garray.full_like(object(), 0)


# ---- arange -----------------------------------------------------------------------


@pytest.mark.parametrize("args", [(5,), (0,), (-3,), (2, 9), (9, 2), (2, 9, 2), (9, 2, -2),
                                  (10, -10, -3), (0, 10, 3), (5, 5), (5, 5, -1), (-4, 4, 1),
                                  (2.5,), (0.5, 3.5), (1, 2, 0.25), (3.0, -1.0, -0.5),
                                  (0, 1, 0.1), (1e-3,), (-1.5, -1.5), (0.0, 1.0, -0.1),
                                  (2, 10, 3.5), (True, 5)], ids=str)
@xp_compare(rtol=0, atol=0)
def test_arange(xp, args):
    return xp.arange(*args)


@pytest.mark.parametrize("args", [(-1045179, 224838964661, -2**63), (5, 0, 2**63 - 1),
                                  (0, 5, 2**63 - 1), (5, 0, -2**63), (2**63 - 2, 2**63 - 1, 7),
                                  (-2**63, -2**63 + 1, -2**63)], ids=str)
@xp_compare(rtol=0, atol=0)
def test_arange_steps_at_the_int64_limits(xp, args):
    # at most one value: start + step need not fit int64 (array-api-tests, seed 1)
    return xp.arange(*args)


@pytest.mark.parametrize("kwargs", [dict(stop=5), dict(step=2, stop=7), dict(stop=3.0)],
                         ids=str)
@xp_compare(rtol=0, atol=0)
def test_arange_keywords(xp, kwargs):
    return xp.arange(1, **kwargs)


@for_all_dtypes(dtypes=[d for d in ALL_DTYPES if d != "bool"])
@pytest.mark.parametrize("args", [(5,), (1, 7, 2), (6, 0, -1), (0,), (3, 3)], ids=str)
@xp_compare(rtol=0, atol=0)
def test_arange_dtype(xp, dtype, args):
    return xp.arange(*args, dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@xp_compare(rtol=0, atol=0)
def test_arange_float_dtype(xp, dtype):
    return [xp.arange(0.5, 4, 0.5, dtype=dtype), xp.arange(3, dtype=dtype),
            xp.arange(2, -1, -0.75, dtype=dtype)]


@pytest.mark.parametrize("args", [(0, 5, 0), (5, 0, 0), (1.0, 2.0, 0.0), (3, 4, -0.0)],
                         ids=str)
def test_arange_zero_step(args):
    with pytest.raises(ValueError, match="step"):
        garray.arange(*args)


@pytest.mark.parametrize("bad", [1j, "3", [3], None])
def test_arange_bad_argument_types(bad):
    with pytest.raises(TypeError):
        garray.arange(bad)
    if bad is not None:
        with pytest.raises(TypeError):
            garray.arange(0, 5, bad)
        with pytest.raises(TypeError):
            garray.arange(0, bad)


# ---- linspace ---------------------------------------------------------------------


@pytest.mark.parametrize("start, stop", [(0, 1), (2, -3), (0.5, 0.5), (-1e3, 1e3),
                                         (1, 1.0 + 2**-30)], ids=str)
@pytest.mark.parametrize("num", [0, 1, 2, 5, 50, 101])
@pytest.mark.parametrize("endpoint", [True, False])
@xp_compare(rtol=0, atol=0)
def test_linspace(xp, start, stop, num, endpoint):
    return xp.linspace(start, stop, num=num, endpoint=endpoint)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int32",
                                   "int64", "uint8", "int8"])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 7])
@xp_compare(rtol=0, atol=0)
def test_linspace_dtype(xp, dtype, endpoint, num):
    return xp.linspace(0, 10, num=num, endpoint=endpoint, dtype=dtype)


@pytest.mark.parametrize("start, stop", [(0, 1 + 1j), (1j, -1j), (2 + 3j, 2 + 3j),
                                         (1 - 1j, 5), (0j, 0j)], ids=str)
@pytest.mark.parametrize("num", [0, 1, 4])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("dtype", [None, "complex64", "complex128"])
@xp_compare(rtol=0, atol=0)
def test_linspace_complex(xp, start, stop, num, endpoint, dtype):
    return xp.linspace(start, stop, num=num, endpoint=endpoint, dtype=dtype)


def test_linspace_positional_num_and_device():
    assert_xp_close(garray.linspace(1, 2, 3), numpy.linspace(1, 2, 3), rtol=0, atol=0)
    assert garray.linspace(1, 2, 3, device=garray.default_device()).device == \
        garray.default_device()


@pytest.mark.parametrize("num", [-1, -10])
def test_linspace_negative_num(num):
    with pytest.raises(ValueError):
        numpy.linspace(0, 1, num)
    with pytest.raises(ValueError, match="num"):
        garray.linspace(0, 1, num)


@pytest.mark.parametrize("num", [2.0, "3", None])
def test_linspace_bad_num_type(num):
    with pytest.raises(TypeError):
        garray.linspace(0, 1, num)


# ---- eye / identity -------------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("args, k", [((3,), 0), ((4,), 1), ((4,), -1), ((3, 5), 0),
                                     ((3, 5), 2), ((3, 5), -2), ((5, 3), 1), ((5, 3), -3),
                                     ((3,), 3), ((3,), -3), ((3, 4), 4), ((3, 4), -5),
                                     ((3, 4), 100), ((0,), 0), ((0, 3), 0), ((3, 0), 1),
                                     ((1,), 0), ((1, 1), -1), ((2, 7), 6), ((7, 2), -6)],
                         ids=str)
@xp_compare()
def test_eye(xp, dtype, args, k):
    return xp.eye(*args, k=k, dtype=dtype)


@xp_compare()
def test_eye_default_dtype(xp):
    return [xp.eye(3), xp.eye(2, 4, k=1), xp.eye(4, 2, k=-1), xp.eye(numpy.int64(2))]


def test_eye_is_contiguous_and_writeable():
    e = garray.eye(4, 3, k=1)
    assert e.flags.c_contiguous and e.flags.writeable and e.base is None
    e[0, 0] = 5.0
    assert_xp_close(e, numpy.where(numpy.eye(4, 3, k=1) > 0, 1.0,
                                   numpy.array([[5.0, 0, 0]] + [[0.0] * 3] * 3)))


@for_all_dtypes()
@pytest.mark.parametrize("n", [0, 1, 4])
@xp_compare()
def test_identity(xp, dtype, n):
    return [xp.identity(n, dtype=dtype), xp.identity(n)]


@pytest.mark.parametrize("args, kwargs", [((2.0,), {}), ((2, 3.0), {}), ((3,), {"k": 1.0}),
                                          (("3",), {}), ((None,), {})], ids=str)
def test_eye_bad_types(args, kwargs):
    with pytest.raises(TypeError):
        numpy.eye(*args, **kwargs)
    with pytest.raises(TypeError):
        garray.eye(*args, **kwargs)


def test_eye_negative_size():
    with pytest.raises(ValueError):
        numpy.eye(-1)
    with pytest.raises(ValueError):
        garray.eye(-1)
    with pytest.raises(ValueError):
        garray.eye(2, -3)


# ---- meshgrid -----------------------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("lens", [(3,), (2, 3), (3, 2), (2, 3, 4), (0, 3), (1, 1, 1),
                                  (4, 0, 2)], ids=str)
@pytest.mark.parametrize("indexing", ["xy", "ij"])
@xp_compare()
def test_meshgrid(xp, dtype, lens, indexing):
    arrays = [make(xp, (n,), dtype, start=10 * i + 1) for i, n in enumerate(lens)]
    return list(xp.meshgrid(*arrays, indexing=indexing))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@xp_compare()
def test_meshgrid_noncontiguous_inputs(xp, indexing):
    a = make(xp, (8,), "float32")[::-2]
    b = make(xp, (3, 4), "float32")[1, ::-1]
    c = make(xp, (2, 5), "float32")[:, 3]
    return list(xp.meshgrid(a, b, c, indexing=indexing))


@xp_compare()
def test_meshgrid_default_indexing_is_xy(xp):
    return list(xp.meshgrid(make(xp, (2,), "int64"), make(xp, (5,), "int64")))


def test_meshgrid_no_inputs():
    assert list(numpy.meshgrid()) == []
    assert list(garray.meshgrid()) == []


def test_meshgrid_outputs_are_independent():
    a, b = make(garray, (3,), "int32"), make(garray, (2,), "int32")
    x, y = garray.meshgrid(a, b)
    x[0, 0] = 100
    assert_xp_close(a, make(numpy, (3,), "int32"))
    assert x[1, 0].item() == 1 and y[1, 0].item() == 2 and y[0, 0].item() == 1


@pytest.mark.parametrize("shape", [(2, 3), (), (1, 1)], ids=str)
def test_meshgrid_rejects_non_1d(shape):
    with pytest.raises(ValueError, match="1-dimensional|1-d|ndim"):
        garray.meshgrid(make(garray, (3,), "float64"), make(garray, shape, "float64"))


def test_meshgrid_bad_indexing_and_mixed_dtypes():
    a = make(garray, (3,), "float64")
    with pytest.raises(ValueError):
        numpy.meshgrid(a.get(), indexing="xyz")
    with pytest.raises(ValueError, match="indexing"):
        garray.meshgrid(a, indexing="xyz")
    with pytest.raises(TypeError):
        garray.meshgrid(a, make(garray, (2,), "int32"))


# ---- tril / triu --------------------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("k", [-2, -1, 0, 1, 2])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (3, 4, 2),
                                   (2, 2, 3, 3), (0, 3), (2, 0, 2), (1, 1)], ids=str)
@xp_compare()
def test_tril_triu(xp, dtype, k, shape):
    a = make(xp, shape, dtype)
    return [xp.tril(a, k=k), xp.triu(a, k=k)]


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("k", [-1, 0, 2])
@xp_compare()
def test_tril_triu_noncontiguous(xp, dtype, layout, k):
    a = _layout(make(xp, (6, 8), dtype), layout)
    b = make(xp, (3, 4, 5), dtype).transpose(2, 0, 1)[::-1]
    return [xp.tril(a, k=k), xp.triu(a, k=k), xp.tril(b, k=k), xp.triu(b, k=k)]


@pytest.mark.parametrize("k", [-10, 10])
@xp_compare()
def test_tril_triu_k_out_of_range(xp, k):
    a = make(xp, (3, 4), "int16")
    return [xp.tril(a, k=k), xp.triu(a, k=k)]


def test_tril_triu_do_not_modify_input_and_return_new_memory():
    a = make(garray, (3, 3), "float64")
    lo, up = garray.tril(a), garray.triu(a)
    lo[...] = -1.0
    up[...] = -1.0
    assert_xp_close(a, make(numpy, (3, 3), "float64"))


def test_tril_triu_reject_0d():
    # 1-d input is NumPy's (n, n) of repeated rows (tests/manip/test_hostile_fuzzed_manip.py)
    a = make(garray, (), "float64")
    for fn in (garray.tril, garray.triu):
        with pytest.raises(ValueError, match="dimension"):
            fn(a)


@pytest.mark.parametrize("k", [1.5, "1", None])
def test_tril_triu_bad_k(k):
    a = make(garray, (3, 3), "float64")
    for fn in (garray.tril, garray.triu):
        with pytest.raises(TypeError):
            fn(a, k=k)


# ---- bad shapes, dtypes and devices ----------------------------------------------


@pytest.mark.parametrize("shape", [-1, (-1,), (2, -1), (3, -2, 0), [0, -5]], ids=str)
def test_negative_shape(shape):
    with pytest.raises(ValueError):
        numpy.zeros(shape)
    for fn in (garray.empty, garray.zeros, garray.ones, lambda s: garray.full(s, 1.0)):
        with pytest.raises(ValueError, match="shape"):
            fn(shape)


@pytest.mark.parametrize("shape", [2.0, (2, 3.0), (numpy.float64(2),), [1.5], "3", None,
                                   (None,), (2, "3")], ids=str)
def test_non_integer_shape(shape):
    with pytest.raises(TypeError):
        numpy.zeros(shape) if shape is not None else numpy.zeros((None,))
    for fn in (garray.empty, garray.zeros, garray.ones, lambda s: garray.full(s, 1.0)):
        with pytest.raises(TypeError):
            fn(shape)


def test_too_many_dimensions_matches_capabilities():
    nmax = garray.__array_namespace_info__().capabilities()["max dimensions"]
    assert isinstance(nmax, int) and nmax >= 8
    assert garray.zeros((1,) * nmax).ndim == nmax
    with pytest.raises(ValueError, match="dimensions"):
        garray.zeros((1,) * (nmax + 1))


@pytest.mark.parametrize("dtype", ["foo", "float1", "int128", 3, "complex32"], ids=str)
def test_unknown_dtype(dtype):
    for fn in (lambda: garray.zeros(3, dtype=dtype), lambda: garray.empty(2, dtype=dtype),
               lambda: garray.ones((), dtype=dtype), lambda: garray.asarray([1], dtype=dtype),
               lambda: garray.arange(3, dtype=dtype), lambda: garray.eye(2, dtype=dtype)):
        with pytest.raises(TypeError):
            fn()


@pytest.mark.parametrize("device", ["tpu", "cpu:1", "cpu:x", "gpu", "", "cuda:-1"])
def test_nonexistent_device(device):
    for fn in (lambda: garray.zeros(2, device=device), lambda: garray.asarray([1], device=device),
               lambda: garray.arange(3, device=device), lambda: garray.Device(device),
               lambda: garray.eye(2, device=device)):
        with pytest.raises(ValueError, match="device"):
            fn()


def test_bad_device_type():
    with pytest.raises(TypeError):
        garray.zeros(2, device=3.5)


def _cuda_available():
    try:
        garray.Device("cuda:0")
    except garray.BackendUnavailableError:
        return False
    return True


@pytest.mark.skipif(_cuda_available(), reason="cuda is available on this machine")
@pytest.mark.parametrize("device", ["cuda:0", "cuda", "cuda:3"])
def test_cuda_unavailable(device):
    for fn in (lambda: garray.zeros(2, device=device),
               lambda: garray.asarray([1.0], device=device),
               lambda: garray.Device(device)):
        with pytest.raises(garray.BackendUnavailableError) as info:
            fn()
        msg = str(info.value)
        assert "cuda" in msg
        assert re.search(r"cuda-bindings|libcuda|driver|not installed|not found", msg), msg
    assert issubclass(garray.BackendUnavailableError, RuntimeError)
