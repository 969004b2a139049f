"""ndarray's diagonal, trace, resize (in place), byteswap, getfield/setfield, data and
ctypes, against NumPy's methods (cython/_extra_methods.pxi)."""

import ctypes
import gc

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, make, xp_compare

ON_CPU = garray.asarray(0).device.kind == "cpu"


@for_all_dtypes()
@pytest.mark.parametrize("args", [(), (1,), (-1,), (0, 1, 2), (1, 2, 0), (5,), (0, 0, 1),
                                  (0, 3, 1)], ids=repr)
@xp_compare()
def test_diagonal_and_trace(xp, dtype, args):
    a = make(xp, (3, 4, 2), dtype)
    if args[1:] == (0, 1) and len(args) == 3 and args[0] == 0:
        a = a[0]
    d = a.diagonal(*args)
    t = a.trace(*args) if dtype != numpy.float16 else a.trace(*args, dtype="float32")
    return d, t


@xp_compare()
def test_trace_dtype_out_and_1d(xp):
    a = make(xp, (3, 3), "int8")
    o = xp.zeros((), dtype="float64")
    r = a.trace(dtype="int16"), a.trace(out=o), o
    xp.ones(3).diagonal()
    return r


@xp_compare()
def test_diagonal_is_read_only(xp):
    d = make(xp, (3, 3), "float32").diagonal()
    d[0] = 1
    return d


# ---- resize ------------------------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("shape", [(6,), (2, 3), (2,), (0,), (3, 0), (1, 1, 1, 1), (4,), 9,
                                   ()], ids=repr)
@pytest.mark.parametrize("order", ["C", "F"])
@xp_compare()
def test_resize_in_place(xp, dtype, shape, order):
    a = xp.asarray(make(numpy, (2, 2), dtype), order=order) if xp is numpy else (
        garray.asarray(make(numpy, (2, 2), dtype), order=order))
    a.resize(shape, refcheck=False)
    return a


@xp_compare()
def test_resize_spellings(xp):
    a = make(xp, (4,), "int32")
    a.resize(2, 3, refcheck=False)
    b = make(xp, (4,), "int32")
    b.resize(refcheck=False)
    c = make(xp, (4,), "int32")
    c.resize(None, refcheck=False)
    return a, b, c


@pytest.mark.parametrize("bad", ["negative", "view-grow", "strided", "float", "huge"])
@xp_compare()
def test_resize_refusals(xp, bad):
    a = make(xp, (6,), "float64")
    if bad == "negative":
        a.resize(-1, refcheck=False)
    elif bad == "view-grow":
        a[:3].resize(5, refcheck=False)
    elif bad == "strided":
        a[::2].resize(3, refcheck=False)
    elif bad == "float":
        a.resize(2.5, refcheck=False)
    else:
        a.resize(2**62, 2**62, refcheck=False)
    return a


def test_resize_refcheck_counts_references_as_numpy():
    for xp in (numpy, garray):
        a = xp.arange(4.0)
        a.resize(6)                            # only this name: allowed
        assert a.shape == (6,)

        def inner():
            b = xp.arange(4.0)
            b.resize((2, 3))                   # a local name: allowed
            return b
        assert inner().shape == (2, 3)
        c = xp.arange(4.0)
        other = c                              # noqa: F841 - the second reference
        with pytest.raises(ValueError, match="referenced"):
            c.resize(6)
        d = xp.arange(4.0)
        v = d[:2]
        with pytest.raises(ValueError, match="referenced"):
            d.resize(6)
        del v
        gc.collect()
        d.resize(6)
        assert d.shape == (6,)


def test_resize_without_refcheck_keeps_old_views_valid():
    a = garray.arange(4.0)
    v = a[1:3]
    a.resize(1000, refcheck=False)
    a[:] = -1.0
    garray.empty(10**5)                        # reuse of freed blocks would show in v
    assert_xp_close(v, numpy.array([1.0, 2.0]))
    assert_xp_close(a[:3], -numpy.ones(3))
    del a
    gc.collect()
    assert_xp_close(v, numpy.array([1.0, 2.0]))


def test_resize_same_size_reshapes_a_view():
    a = garray.arange(6.0)
    v = a[:]
    v.resize(2, 3)
    assert v.shape == (2, 3) and a.shape == (6,)
    w = garray.asarray(numpy.arange(6.0))
    w.resize(3, 2)
    assert_xp_close(w, numpy.arange(6.0).reshape(3, 2))


def test_resize_of_wrapped_host_memory_moves_to_device_memory():
    # garray.asarray may wrap host memory (the CPU device): resizing takes a block of
    # garray's own, and the host array keeps its values
    h = numpy.arange(4.0)
    g = garray.asarray(h, copy=False) if ON_CPU else garray.asarray(h)
    g.resize(6, refcheck=False)
    g[:] = 9.0
    numpy.testing.assert_array_equal(h, numpy.arange(4.0))
    assert_xp_close(g, numpy.full(6, 9.0))
    v = garray.arange(6.0)[2:]
    with pytest.raises(ValueError, match="own its data"):
        v.resize(8, refcheck=False)


# ---- byteswap ----------------------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("layout", ["c", "strided", "0-d", "empty", "f"])
@xp_compare()
def test_byteswap(xp, dtype, layout):
    a = make(xp, (3, 4), dtype)
    a = {"c": a, "strided": a[:, ::-2], "0-d": a[1, 1], "empty": a[:0],
         "f": a.T}[layout]
    return a.byteswap()


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128", "float16", "uint64"])
@xp_compare()
def test_byteswap_in_place(xp, dtype):
    a = make(xp, (3, 4), dtype)
    v = a[:, 1::2]
    r = v.byteswap(inplace=True)
    assert r is v
    return a


@xp_compare()
def test_byteswap_read_only(xp):
    a = make(xp, (3,), "int32")
    a.flags.writeable = False
    return a.byteswap(), a.byteswap(True)


# ---- getfield / setfield -----------------------------------------------------------


@pytest.mark.parametrize("src, field, offset", [
    ("complex128", "float64", 0), ("complex128", "float64", 8), ("complex64", "float32", 4),
    ("int64", "int32", 0), ("int64", "int32", 4), ("int64", "uint8", 7), ("float32", "int16", 2),
    ("uint32", "float16", 2), ("float64", "float64", 0), ("int16", "bool", 1),
    ("int32", "int64", 0), ("int64", "int32", 6), ("int64", "int8", -1), ("int8", "int8", 1),
])
@xp_compare()
def test_getfield(xp, src, field, offset):
    a = make(xp, (2, 3), src)
    return a.getfield(field, offset), a[:, ::2].getfield(field, offset)


@pytest.mark.parametrize("src, field, offset", [
    ("complex128", "float64", 8), ("int64", "int32", 4), ("float32", "uint16", 0),
    ("int32", "int8", 3)])
@xp_compare()
def test_setfield(xp, src, field, offset):
    a = make(xp, (2, 3), src)
    a.setfield(xp.asarray([7, 8, 9]).astype(field), field, offset)
    a[0].setfield(1, field, offset)
    return a


def test_unaligned_field_is_not_implemented():
    # NumPy reads an int32 two bytes into an int64; garray's kernels never load unaligned
    with pytest.raises(NotImplementedError, match="unaligned"):
        garray.arange(4).getfield("int32", 2)


# ---- data / ctypes -----------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_data_and_ctypes_share_cpu_memory(dtype):
    g = garray.asarray(make(numpy, (3, 4), dtype), device="cpu")
    h = make(numpy, (3, 4), dtype)
    if dtype == "bfloat16":     # no buffer format for ml_dtypes' types: NumPy's error
        with pytest.raises(ValueError, match="buffer"):
            h.data
        with pytest.raises(ValueError, match="buffer"):
            g.data
        assert g.ctypes.data == g.ptr
        return
    for x, y in ((g, h), (g[:, ::2], h[:, ::2]), (g.T, h.T)):
        m = x.data
        assert isinstance(m, memoryview)
        assert (m.shape, m.strides, m.format, m.readonly) == (
            y.data.shape, y.data.strides, y.data.format, y.data.readonly)
        assert m.tobytes() == y.data.tobytes()
        c = x.ctypes
        assert c.shape[:] == y.ctypes.shape[:] and c.strides[:] == y.ctypes.strides[:]
        assert c.data == x.__array_interface__["data"][0] if hasattr(
            x, "__array_interface__") else isinstance(c.data, int)
    # writes through the memoryview and the pointer reach the array
    f = garray.zeros(4, dtype="float64", device="cpu")
    f.data.cast("B").cast("d")[1] = 5.0
    ctypes.cast(f.ctypes.data, ctypes.POINTER(ctypes.c_double))[2] = 7.0
    assert_xp_close(f, numpy.array([0.0, 5.0, 7.0, 0.0]))
    p = f.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    assert p[2] == 7.0


def test_data_keeps_the_array_alive_and_respects_read_only():
    g = garray.arange(5.0, device="cpu")
    m = g.data
    del g
    gc.collect()
    garray.empty(10**5, device="cpu")
    assert m.cast("B").cast("d").tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    r = garray.arange(3.0, device="cpu")
    r.flags.writeable = False
    assert r.data.readonly


def test_data_and_ctypes_on_a_gpu_raise():
    if ON_CPU:
        pytest.skip("the default device is the CPU; the GPU refusal runs on the GPU suites")
    g = garray.arange(3.0)
    for what in ("data", "ctypes"):
        with pytest.raises(BufferError, match="asnumpy"):
            getattr(g, what)
        assert not hasattr(g, what)         # probing code sees it absent, not an error
        assert getattr(g, what, None) is None


def test_numpy_has_no_other_public_ndarray_attribute():
    missing = [n for n in dir(numpy.ndarray) if not n.startswith("_")
               and not hasattr(garray.ndarray, n)]
    assert missing == []


# ---- 0-d arrays where NumPy gives scalars (Note [0-d arrays for NumPy scalars]) -----------

_SCALAR_USES = {
    "float": float, "int": int, "bool": bool, "format": lambda x: format(x, ".2f"),
    "format-d": lambda x: format(x, "d"), "f-string": lambda x: f"{x}", "str": str,
    "pct-d": lambda x: "%d" % x, "pct-f": lambda x: "%.3f" % x, "pct-s": lambda x: "%s" % x,
    "index": lambda x: [10, 20, 30, 40, 50, 60][x], "range": lambda x: list(range(x)),
    "round": round, "round-1": lambda x: float(round(x, 1)), "round-neg": lambda x: int(
        round(x, -1)) if not isinstance(x, float) else 0, "floor": __import__("math").floor,
    "eq": lambda x: bool(x == 1), "lt": lambda x: bool(x < 3), "in": lambda x: x in [1, 2.5],
    "repeat-list": lambda x: [0] * x, "repeat-list-right": lambda x: x * [7, 8],
    "repeat-str": lambda x: "ab" * x, "repeat-tuple": lambda x: (1,) * x,
    "sqrt": lambda x: __import__("math").sqrt(x), "sorted": lambda x: [float(v) for v in
                                                                        sorted([x, 0])],
    "max": lambda x: float(max(x, 0)), "complex": complex,
}


@pytest.mark.parametrize("use", sorted(_SCALAR_USES))
@pytest.mark.parametrize("case", ["int64", "uint8", "float64", "float32", "float16", "bool"])
def test_zero_d_results_behave_as_numpy_scalars(case, use):
    h = {"int64": numpy.array([4, 1, 9]), "uint8": numpy.array([4, 1, 9], dtype="uint8"),
         "float64": numpy.array([1.5, 2.25]), "float32": numpy.array([2.5], "float32"),
         "float16": numpy.array([0.5, 1.5], "float16"),
         "bool": numpy.array([False, True])}[case]
    g = garray.asarray(h)
    xn, xg = (h.sum(), g.sum()) if case not in ("bool", "uint8") else (h[1], g[1])
    assert isinstance(xg, garray.ndarray) and xg.ndim == 0
    f = _SCALAR_USES[use]
    try:
        want = f(xn)
    except (TypeError, ValueError, IndexError) as e:
        with pytest.raises(type(e)):
            f(xg)
        return
    got = f(xg)
    assert type(got) is type(want) and got == want, (got, want)
