"""NumPy's inquiry and checking functions (iscomplex, isreal, iscomplexobj, isrealobj,
isfortran, isneginf, isposinf, asarray_chkfinite, may_share_memory, shares_memory,
common_type, require) against NumPy, on every dtype, non-contiguous, empty and 0-d inputs."""

import numpy
import pytest

import garray
from xp import for_all_dtypes, make, sample, xp_compare

LAYOUTS = ("c", "t", "neg", "0d", "empty")


def _data(xp, dtype, layout):
    if layout == "0d":
        h = sample((), dtype, 3)
    elif layout == "empty":
        h = sample((2, 0), dtype)
    else:
        h = sample((3, 4), dtype)
    h = h.copy()
    if h.dtype.kind in "fc" and h.size:
        h.flat[0], h.flat[-1] = numpy.inf, -numpy.inf
        if h.size > 2:
            h.flat[1] = numpy.nan
    if h.dtype.kind == "c" and h.size > 3:
        h.flat[2] = 2.0                   # a complex number with zero imaginary part
    a = h if xp is numpy else garray.asarray(h)
    if layout == "t":
        return a.T
    if layout == "neg":
        return a[::-1, ::-1]
    return a


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_elementwise_inquiries(xp, dtype, layout):
    a = _data(xp, dtype, layout)
    out = [xp.iscomplex(a), xp.isreal(a), xp.iscomplexobj(a), xp.isrealobj(a)]
    if a.dtype.kind != "c":
        out += [xp.isneginf(a), xp.isposinf(a)]
    return out


@pytest.mark.parametrize("fn", ["isneginf", "isposinf"])
@xp_compare()
def test_signed_inf_rejects_complex_and_takes_out(xp, fn):
    a = _data(xp, "float32", "c")
    out = xp.zeros(a.shape, bool)
    r = getattr(xp, fn)(a, out=out)
    assert r is out
    getattr(xp, fn)(_data(xp, "complex64", "c"))
    return out


@pytest.mark.parametrize("obj", [[1, 2], [1 + 0j], 3.0, 2j], ids=str)
def test_obj_inquiries_on_host_data(obj):
    assert garray.iscomplexobj(obj) == numpy.iscomplexobj(obj)
    assert garray.isrealobj(obj) == numpy.isrealobj(obj)


@xp_compare()
def test_isfortran(xp):
    a = make(xp, (3, 4), "float64")
    return [xp.isfortran(a), xp.isfortran(a.T), xp.isfortran(make(xp, (5,), "int8")),
            xp.isfortran(xp.asfortranarray(a)), xp.isfortran(a[:, ::2])]


@for_all_dtypes()
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_asarray_chkfinite(xp, dtype, layout):
    return xp.asarray_chkfinite(_data(xp, dtype, layout))


@xp_compare()
def test_asarray_chkfinite_finite_and_lists(xp):
    return [xp.asarray_chkfinite([1.0, 2.0]), xp.asarray_chkfinite([[1, 2]], "float32", "F"),
            xp.asarray_chkfinite(make(xp, (2, 3), "float64").T)]


def test_may_share_memory():
    x = make(garray, (4, 6), "float32")
    assert garray.may_share_memory(x, x[1:])
    assert garray.may_share_memory(x[:, ::2], x[:, 1::2])     # interleaved: NumPy says True
    assert not garray.may_share_memory(x[:2], x[2:])
    assert not garray.may_share_memory(x, x.copy())
    assert not garray.may_share_memory(x, garray.zeros(0))
    assert not garray.may_share_memory(x, [1, 2])
    h = numpy.arange(6.0)
    if garray.default_device().kind == "cpu":
        w = garray.asarray(h)                 # wraps NumPy's memory on the CPU device
        assert garray.may_share_memory(w, h) and not garray.may_share_memory(w, h.copy())
    n = numpy.arange(24.0, dtype=numpy.float32).reshape(4, 6)
    for a, b in ((slice(None), slice(1, None)), (slice(0, 2), slice(2, None))):
        assert garray.may_share_memory(x[a], x[b]) == numpy.may_share_memory(n[a], n[b])


@pytest.mark.parametrize("pair", ["same", "shifted", "interleaved", "disjoint", "transposed",
                                  "reversed", "column-row", "bytes-overlap", "empty", "copy"])
def test_shares_memory(pair):
    def views(xp):
        x = xp.arange(48, dtype="int32").reshape(6, 8) if xp is numpy else \
            garray.asarray(numpy.arange(48, dtype="int32").reshape(6, 8), copy=True)
        return {"same": (x, x), "shifted": (x[1:], x[:-1]),
                "interleaved": (x[:, ::2], x[:, 1::2]), "disjoint": (x[:3], x[3:]),
                "transposed": (x.T, x[2:4]), "reversed": (x[::-1], x[0]),
                "column-row": (x[:, 3], x[5, :3]), "bytes-overlap": (x[:, :4], x[:, 4:]),
                "empty": (x[:0], x), "copy": (x, x.copy())}[pair]
    g, n = views(garray), views(numpy)
    assert garray.shares_memory(*g) == numpy.shares_memory(*n)
    assert garray.shares_memory(*g, max_work=-1) == numpy.shares_memory(*n, max_work=-1)


def test_shares_memory_bytes_of_different_itemsizes():
    x = garray.zeros(16, "uint8")
    a, b = x[1:9].view("uint8"), x[::4]
    h = numpy.zeros(16, "uint8")
    assert garray.shares_memory(a, b) == numpy.shares_memory(h[1:9], h[::4])
    assert not garray.shares_memory(x[1::4], x[::4])


@pytest.mark.parametrize("dtypes", [("int8",), ("float32",), ("int8", "float32"),
                                    ("complex64", "float64"), ("uint64", "complex64"),
                                    ("float32", "complex64"), ("bool",)], ids=str)
@xp_compare()
def test_common_type(xp, dtypes):
    return str(xp.common_type(*[make(xp, (2,), d) for d in dtypes]))


@pytest.mark.parametrize("reqs", [None, "C", "F", ["F", "W"], ["O"], ["C", "A", "E"],
                                  ["CONTIGUOUS", "OWNDATA"], "CF", ["Z"]], ids=str)
@pytest.mark.parametrize("layout", ["c", "t", "step"])
@xp_compare()
def test_require(xp, reqs, layout):
    a = make(xp, (4, 6), "int32")
    a = {"c": a, "t": a.T, "step": a[::2, 1::2]}[layout]
    r = xp.require(a, "float64" if layout == "step" else None, reqs)
    return [r, r.flags.c_contiguous, r.flags.f_contiguous, r.flags.owndata]


def test_require_read_only_needs_writeable_copy():
    a = garray.zeros((2, 2))
    a.setflags(write=False)
    r = garray.require(a, requirements="W")
    assert r.flags.writeable and r is not a
    assert garray.require(a) is a
