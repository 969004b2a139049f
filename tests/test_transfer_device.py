"""Host transfers (asnumpy/get/__array__), devices, the namespace info, DLPack exchange
with NumPy and ``python -m garray`` (the memory pool: test_memory_pool.py)."""

import os
import pickle
import subprocess
import sys
import warnings

import numpy
import pytest

import garray
from xp import ALL_DTYPES, API_DTYPES, assert_xp_close, for_all_dtypes, make
from xp import kind as xp_kind
# NumPy's DLPack has no bfloat16 or float8 (numpy.from_dlpack raises "Unsupported dtype in
# DLTensor"; garray's own exchange of them is tested in tests/elementwise/test_narrow_floats.py)
NUMPY_DLPACK_DTYPES = tuple(d for d in ALL_DTYPES if d not in ("bfloat16",))

ON_CPU = garray.default_device().kind == "cpu"
cpu_only = pytest.mark.skipif(not ON_CPU, reason="memory sharing with NumPy only on cpu")

VIEWS = {
    "c": lambda a: a,
    "t": lambda a: a.T,
    "neg": lambda a: a[::-1, ::-2],
    "step": lambda a: a[1::2, ::3],
    "3d_perm": lambda a: a.reshape(2, 3, 4).transpose(1, 2, 0)[:, ::-1],
    "0d": lambda a: a[1, 2, ...],
    "row": lambda a: a[2],
    "col": lambda a: a[:, 1],
    "empty": lambda a: a[3:3],
    "empty_t": lambda a: a[:, 5:2].T,
}


def _pair(dtype, view):
    """The same view of the same data as a garray array and a NumPy array."""
    return VIEWS[view](make(garray, (4, 6), dtype)), VIEWS[view](make(numpy, (4, 6), dtype))


def _different(h):
    """A value of h's dtype different from h.flat[0]."""
    v = h.flat[0]
    return numpy.logical_not(v) if xp_kind(h.dtype) == "b" else v + 1


# ---- asnumpy / get -------------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("view", list(VIEWS))
def test_asnumpy_and_get(dtype, view):
    g, n = _pair(dtype, view)
    for h in (garray.asnumpy(g), g.get()):
        assert type(h) is numpy.ndarray
        numpy.testing.assert_array_equal(h, n, strict=True)
        assert h.dtype == n.dtype and h.shape == n.shape
        assert h.flags.writeable


@for_all_dtypes()
@pytest.mark.parametrize("view", [v for v in VIEWS if not v.startswith("empty")])
def test_asnumpy_and_get_are_copies(dtype, view):
    g, n = _pair(dtype, view)
    for h in (garray.asnumpy(g), g.get()):
        new = _different(h)
        h[...] = new
        assert_xp_close(g, n)   # x unchanged
    a = garray.asnumpy(g)
    b = garray.asnumpy(g)
    if a.size:
        assert not numpy.shares_memory(a, b)


def test_asnumpy_of_non_garray_inputs():
    h = numpy.arange(5)
    assert_xp_close(garray.asarray(garray.asnumpy([1, 2, 3])), numpy.asarray([1, 2, 3]))
    numpy.testing.assert_array_equal(garray.asnumpy(h), h, strict=True)
    numpy.testing.assert_array_equal(garray.asnumpy(3.5), numpy.asarray(3.5), strict=True)


# ---- numpy.asarray / __array__ ----------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("view", list(VIEWS))
def test_numpy_asarray_values(dtype, view):
    g, n = _pair(dtype, view)
    for h in (numpy.asarray(g), g.__array__(), numpy.array(g)):
        assert type(h) is numpy.ndarray
        numpy.testing.assert_array_equal(h, n, strict=True)


@cpu_only
@for_all_dtypes()
@pytest.mark.parametrize("view", [v for v in VIEWS if not v.startswith("empty")])
def test_numpy_asarray_shares_memory_on_cpu(dtype, view):
    g, n = _pair(dtype, view)
    for h in (numpy.asarray(g), g.__array__()):
        new = _different(h)
        h[(0,) * h.ndim] = new
        assert g[(0,) * g.ndim].item() == numpy.asarray(new).item()
    # the other way round: writes to g are seen through the NumPy view
    h = numpy.asarray(g)
    g[...] = 0
    assert not h.any()


@for_all_dtypes()
@pytest.mark.parametrize("target", ["float64", "int32", "complex64", "bool", "uint8"])
def test_numpy_asarray_dtype(dtype, target):
    g, n = _pair(dtype, "t")
    with warnings.catch_warnings():   # complex -> real discards the imaginary part
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        want = n.astype(target)
        for h in (numpy.asarray(g, dtype=target), g.__array__(dtype=target),
                  g.__array__(numpy.dtype(target))):
            numpy.testing.assert_array_equal(h, want, strict=True)
    if numpy.dtype(target) != dtype and xp_kind(dtype) != "c":
        h = numpy.asarray(g, dtype=target)
        h[...] = 0
        assert_xp_close(g, n)   # a dtype change gives new memory


@for_all_dtypes()
@pytest.mark.parametrize("view", ["c", "t", "0d"])
def test_numpy_asarray_copy_true(dtype, view):
    g, n = _pair(dtype, view)
    for h in (numpy.asarray(g, copy=True), g.__array__(copy=True), numpy.array(g)):
        numpy.testing.assert_array_equal(h, n, strict=True)
        h[...] = _different(h)
        assert_xp_close(g, n)


@cpu_only
def test_array_copy_false_on_cpu():
    g = make(garray, (3, 4), "float64")
    h = g.__array__(copy=False)
    h[0, 0] = 99.0
    assert g[0, 0].item() == 99.0
    with pytest.raises(ValueError):
        g.__array__(dtype="float32", copy=False)
    with pytest.raises(ValueError):
        numpy.asarray(g, dtype="float32", copy=False)


@cpu_only
def test_numpy_asarray_of_readonly_view_is_readonly():
    h = numpy.arange(6.0)
    h.flags.writeable = False
    g = garray.asarray(h)
    assert not g.flags.writeable
    assert not numpy.asarray(g).flags.writeable


def test_set_implicit_transfer_returns_previous_mode():
    old = garray.set_implicit_transfer("raise")
    try:
        assert old in ("allow", "warn", "raise")
        assert garray.set_implicit_transfer("warn") == "raise"
        assert garray.set_implicit_transfer("allow") == "warn"
        assert garray.set_implicit_transfer("raise") == "allow"
    finally:
        assert garray.set_implicit_transfer(old) == "raise"


@cpu_only
@pytest.mark.parametrize("mode", ["raise", "warn"])
def test_implicit_transfer_mode_does_not_affect_cpu(mode, recwarn):
    g = make(garray, (2, 3), "int32")
    old = garray.set_implicit_transfer(mode)
    try:
        h = numpy.asarray(g)   # not a transfer on the CPU device: no error, no warning
        numpy.testing.assert_array_equal(h, make(numpy, (2, 3), "int32"), strict=True)
        h2 = numpy.asarray(g, dtype="float32")
        numpy.testing.assert_array_equal(h2, make(numpy, (2, 3), "int32").astype("float32"),
                                         strict=True)
    finally:
        garray.set_implicit_transfer(old)
    assert not [w for w in recwarn if "transfer" in str(w.message)]


@pytest.mark.skipif(ON_CPU, reason="needs a GPU default device")
def test_implicit_transfer_raise_on_gpu():
    g = make(garray, (2, 3), "int32")
    old = garray.set_implicit_transfer("raise")
    try:
        with pytest.raises(TypeError, match="asnumpy"):
            numpy.asarray(g)
        assert_xp_close(g, make(numpy, (2, 3), "int32"))
    finally:
        garray.set_implicit_transfer(old)


@pytest.mark.parametrize("mode", ["bogus", "", "ALLOW ", None, 1])
def test_set_implicit_transfer_bad_mode(mode):
    before = garray.set_implicit_transfer("allow")
    try:
        with pytest.raises(ValueError, match="mode"):
            garray.set_implicit_transfer(mode)
        assert garray.set_implicit_transfer("allow") == "allow"   # unchanged
    finally:
        garray.set_implicit_transfer(before)


# ---- devices ------------------------------------------------------------------------


@for_all_dtypes()
def test_to_device(dtype):
    x = make(garray, (2, 3), dtype)
    assert x.to_device(x.device) is x
    assert x.to_device(str(x.device)) is x
    c = x.to_device("cpu")
    assert c.device == garray.Device("cpu") and c.device.kind == "cpu"
    assert_xp_close(c, make(numpy, (2, 3), dtype))
    back = c.to_device(x.device)
    assert back.device is x.device
    assert_xp_close(back, make(numpy, (2, 3), dtype))
    t = x.T[::-1].to_device("cpu")
    assert_xp_close(t, make(numpy, (2, 3), dtype).T[::-1])


def test_to_device_bad():
    x = make(garray, (2,), "float32")
    with pytest.raises(ValueError, match="device"):
        x.to_device("tpu")
    with pytest.raises(TypeError):
        x.to_device(1.5)


def test_device_interning_and_protocols():
    d = garray.Device("cpu")
    assert d is garray.Device("cpu", 0)
    assert d is garray.Device("cpu:0") is garray.Device(" CPU ")
    assert d is garray.Device(d)
    assert str(d) == "cpu" and repr(d) == "Device('cpu')"
    assert d == garray.Device("cpu", 0) and not (d != garray.Device("cpu"))
    assert hash(d) == hash(garray.Device("cpu", 0))
    assert {d: 1}[garray.Device("cpu:0")] == 1
    assert d.kind == "cpu" and d.index == 0
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(d, protocol=proto)) is d
    assert eval(repr(d), {"Device": garray.Device}) is d


def test_device_bad_specs():
    for spec in ("tpu", "cpu:1", "cpu:x", "cpu:-1"):
        with pytest.raises(ValueError, match="device"):
            garray.Device(spec)
    with pytest.raises(ValueError):
        garray.Device("cpu", 1)
    with pytest.raises(ValueError):
        garray.Device("cpu:0", 1)
    with pytest.raises(TypeError):
        garray.Device(0)


def test_device_context_manager():
    cpu = garray.Device("cpu")
    with cpu as d:
        assert d is cpu
        for fn in (lambda: garray.zeros(2), lambda: garray.ones((2, 2)),
                   lambda: garray.empty(3), lambda: garray.full(2, 1.0),
                   lambda: garray.asarray([1, 2]), lambda: garray.arange(3),
                   lambda: garray.linspace(0, 1, 3), lambda: garray.eye(2)):
            assert fn().device is cpu
        assert garray.__array_namespace_info__().default_device() is cpu
        with garray.Device("cpu:0"):
            assert garray.zeros(2).device is cpu
        assert garray.zeros(2).device is cpu
    assert garray.zeros(2).device is garray.default_device()


def test_device_context_manager_restores_after_exception():
    before = garray.__array_namespace_info__().default_device()
    with pytest.raises(RuntimeError):
        with garray.Device("cpu"):
            raise RuntimeError("boom")
    assert garray.__array_namespace_info__().default_device() is before


def test_array_device_attribute():
    x = garray.zeros(2, device="cpu")
    assert x.device is garray.Device("cpu")
    assert garray.zeros(2, device=garray.Device("cpu")).device is x.device
    assert x[::-1].device is x.device and x.T.device is x.device


# ---- __array_namespace_info__ ---------------------------------------------------


def test_namespace_info():
    info = garray.__array_namespace_info__()
    devs = info.devices()
    assert garray.Device("cpu") in devs
    assert all(isinstance(d, garray.Device) for d in devs)
    assert len(set(devs)) == len(devs)
    assert info.default_device() == garray.default_device()
    assert info.default_device() in devs
    dd = info.default_dtypes()
    assert dd == {"real floating": numpy.dtype("float64"),
                  "complex floating": numpy.dtype("complex128"),
                  "integral": numpy.dtype("int64"), "indexing": numpy.dtype("int64")}
    assert info.default_dtypes(device=garray.Device("cpu")) == dd
    assert info.default_dtypes(device="cpu") == dd
    caps = info.capabilities()
    assert isinstance(caps.get("max dimensions"), int) and caps["max dimensions"] >= 8
    assert isinstance(caps.get("boolean indexing"), bool)
    assert isinstance(caps.get("data-dependent shapes"), bool)


@pytest.mark.parametrize("kind, names", [
    (None, API_DTYPES),
    ("bool", ("bool",)),
    ("signed integer", ("int8", "int16", "int32", "int64")),
    ("unsigned integer", ("uint8", "uint16", "uint32", "uint64")),
    ("integral", ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")),
    ("real floating", ("float32", "float64")),
    ("complex floating", ("complex64", "complex128")),
    ("numeric", tuple(d for d in API_DTYPES if d != "bool")),
    (("bool", "real floating"), ("bool", "float32", "float64")),
], ids=str)
def test_namespace_info_dtypes(kind, names):
    info = garray.__array_namespace_info__()
    got = info.dtypes(kind=kind)
    assert set(got) == set(names)
    for name, dt in got.items():
        assert dt == numpy.dtype(name)
    assert info.dtypes(kind=kind, device="cpu") == got


@pytest.mark.parametrize("kind", ["bogus", "float", ("bool", "nope")], ids=str)
def test_namespace_info_dtypes_bad_kind(kind):
    with pytest.raises(ValueError):
        garray.__array_namespace_info__().dtypes(kind=kind)


def test_namespace_info_bad_device():
    info = garray.__array_namespace_info__()
    with pytest.raises(ValueError):
        info.dtypes(device="tpu")
    with pytest.raises(ValueError):
        info.default_dtypes(device="cpu:7")


# ---- DLPack -------------------------------------------------------------------------


def _numpy_from_dlpack(g):
    """NumPy reads only host memory: a GPU array is asked for a CPU copy (dl_device)."""
    return numpy.from_dlpack(g) if ON_CPU else numpy.from_dlpack(g, device="cpu")


@pytest.mark.skipif(ON_CPU, reason="a GPU array handed to NumPy without device='cpu'")
def test_numpy_from_dlpack_of_a_gpu_array_needs_device_cpu():
    with pytest.raises((BufferError, RuntimeError, ValueError)):
        numpy.from_dlpack(garray.arange(3.0))


@for_all_dtypes(dtypes=NUMPY_DLPACK_DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_numpy_from_dlpack(dtype, view):
    g, n = _pair(dtype, view)
    h = _numpy_from_dlpack(g)
    assert type(h) is numpy.ndarray
    numpy.testing.assert_array_equal(h, g.get(), strict=True)
    numpy.testing.assert_array_equal(h, n, strict=True)
    if ON_CPU and h.size:
        assert h.strides == n.strides   # a view, not a re-laid-out copy
        h[(0,) * h.ndim] = _different(h)
        assert g[(0,) * g.ndim].item() == h[(0,) * h.ndim].item()


@for_all_dtypes(dtypes=NUMPY_DLPACK_DTYPES)
def test_numpy_from_dlpack_keeps_producer_alive(dtype):
    g = make(garray, (50, 7), dtype)
    h = _numpy_from_dlpack(g[::-1])
    del g
    numpy.testing.assert_array_equal(h, make(numpy, (50, 7), dtype)[::-1], strict=True)


@pytest.mark.skipif(not ON_CPU, reason="checks the CPU dlpack device")
def test_dlpack_device():
    x = make(garray, (2, 3), "float32")
    assert x.__dlpack_device__() == (1, 0)
    assert x.T.__dlpack_device__() == (1, 0)
    assert garray.zeros(()).__dlpack_device__() == (1, 0)


@for_all_dtypes(dtypes=NUMPY_DLPACK_DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_garray_from_dlpack(dtype, view):
    n = VIEWS[view](make(numpy, (4, 6), dtype))
    expected = n.copy()
    g = garray.from_dlpack(n)
    assert g.device == garray.Device("cpu")
    assert_xp_close(g, expected)
    if n.size:
        assert g.strides == n.strides
        n[(0,) * n.ndim] = _different(n)     # shares memory with the producer
        assert g[(0,) * g.ndim].item() == n[(0,) * n.ndim].item()
        g[(-1,) * g.ndim] = n[(0,) * n.ndim]
        assert n[(-1,) * n.ndim] == n[(0,) * n.ndim]


@for_all_dtypes(dtypes=NUMPY_DLPACK_DTYPES)
def test_garray_from_dlpack_copy(dtype):
    n = make(numpy, (3, 4), dtype)[:, ::-1]
    expected = n.copy()
    g = garray.from_dlpack(n, copy=True)
    n[...] = _different(n)
    assert_xp_close(g, expected)


def test_garray_from_dlpack_keeps_producer_alive():
    g = garray.from_dlpack(numpy.arange(1000.0)[::-3])
    junk = [numpy.full(1000, -1.0) for _ in range(20)]
    assert_xp_close(g, numpy.arange(1000.0)[::-3])
    del junk


@pytest.mark.parametrize("obj", [[1, 2], 3.0, "abc", object(), memoryview(b"ab")],
                         ids=lambda o: type(o).__name__)
def test_garray_from_dlpack_without_protocol(obj):
    with pytest.raises(TypeError, match="dlpack|DLPack"):
        garray.from_dlpack(obj)


def test_garray_from_dlpack_unsupported_dtype():
    with pytest.raises((TypeError, BufferError)):
        garray.from_dlpack(numpy.zeros(3, numpy.clongdouble))


def test_from_dlpack_readonly_numpy():
    h = numpy.arange(6.0).reshape(2, 3)
    h.flags.writeable = False
    try:
        h.__dlpack__(max_version=(1, 0))
        numpy_exports = True
    except BufferError:
        numpy_exports = False
    if not numpy_exports:
        with pytest.raises(BufferError):
            garray.from_dlpack(h)
        return
    g = garray.from_dlpack(h)
    assert not g.flags.writeable
    assert_xp_close(g, h.copy())
    with pytest.raises(ValueError):
        g[0, 0] = 1.0
    with pytest.raises(ValueError):
        g[...] = 0.0
    with pytest.raises(ValueError):
        g.fill(2.0)
    assert h[0, 0] == 0.0
    # a read-only garray array exports read-only to NumPy as well
    back = numpy.from_dlpack(g)
    assert not back.flags.writeable
    numpy.testing.assert_array_equal(back, h, strict=True)


# keyword, value, the class NumPy's own __dlpack__ raises for it (a CPU array); for a
# stream of the wrong type garray's TypeError (NumPy's RuntimeError refuses any stream)
DLPACK_BAD_KEYWORDS = [("stream", "x", TypeError), ("stream", True, TypeError),
                       ("max_version", (1,), TypeError), ("max_version", "x", TypeError),
                       ("max_version", (1.0, 0), TypeError), ("dl_device", "x", TypeError),
                       ("dl_device", (1,), TypeError), ("dl_device", (1.0, 0), TypeError),
                       ("dl_device", (1, 1), BufferError), ("dl_device", (99, 0), BufferError),
                       ("copy", "x", ValueError)]


@pytest.mark.parametrize("key, value, exc", DLPACK_BAD_KEYWORDS, ids=str)
def test_dlpack_bad_keywords(key, value, exc):
    """Each keyword of __dlpack__ checked as NumPy checks it, the message naming it (a
    CPU array; a CUDA or HIP device asks for a device NumPy cannot export to, so NumPy's
    class is checked on its own array)."""
    with pytest.raises(RuntimeError if key == "stream" else exc):
        numpy.arange(3.0).__dlpack__(**{key: value})
    with pytest.raises(exc, match=key):
        garray.arange(3.0).__dlpack__(**{key: value})


def test_dlpack_to_a_missing_device_is_a_buffer_error():
    """dl_device naming a device index that does not exist: BufferError (the Array API's
    class for an export the producer cannot make), the cause chained."""
    n = garray.arange(3.0).__dlpack_device__()
    with pytest.raises(BufferError, match="dl_device") as info:
        garray.arange(3.0).__dlpack__(dl_device=(n[0], 64))
    assert info.value.__cause__ is not None


@for_all_dtypes(dtypes=NUMPY_DLPACK_DTYPES)
@pytest.mark.parametrize("view", ["c", "t", "neg", "0d", "empty"])
def test_dlpack_round_trip(dtype, view):
    g, n = _pair(dtype, view)
    h = _numpy_from_dlpack(g)
    g2 = garray.from_dlpack(h)
    assert_xp_close(g2, n)
    assert_xp_close(garray.from_dlpack(g), n)   # garray -> garray
    # numpy -> garray -> numpy
    assert_xp_close(garray.asarray(numpy.from_dlpack(garray.from_dlpack(n))), n)
    if ON_CPU and g.size:
        g2[(0,) * g2.ndim] = _different(n)
        assert g[(0,) * g.ndim].item() == g2[(0,) * g2.ndim].item()


# ---- python -m garray ----------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists(os.path.join(os.path.dirname(garray.__file__),
                                                    "__main__.py")), reason="no __main__ yet")
def test_python_m_garray():
    r = subprocess.run([sys.executable, "-m", "garray"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "cpu" in r.stdout.lower()
