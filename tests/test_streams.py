"""Streams and events (garray/_streams.py, Note [Current streams] in cython/_stream.pxi).

Every device: the API, results computed on streams against NumPy's, the current stream
per thread, the memory pool per stream.  On the stub GPU drivers, child processes run in
the stubs' asynchronous mode with the hazard checker (../shared/gpu-stub/README.md), so a
missing wait shows as a hazard or a wrong value: the tests of the tests remove the wait
and expect exactly that.
"""

import os
import threading

import numpy
import pytest

import garray
from isolated import run_isolated
from xp import assert_xp_close, run_in_threads, xp_compare

DEV = garray.default_device()
GPU = DEV.kind != "cpu"
STUB = GPU and os.environ.get("GARRAY_GPU_STUB") == "1"
on_stub = pytest.mark.skipif(not STUB, reason="needs the stub GPU drivers' async mode")


# ---- the API, on every device ---------------------------------------------------------

def test_default_stream_is_current_until_a_stream_is_entered():
    s0 = garray.get_current_stream()
    assert s0 == garray.get_current_stream(DEV) and s0.ptr == 0
    s = garray.Stream()
    with s as entered:
        assert entered is s and garray.get_current_stream() is s
        with garray.Stream(non_blocking=True) as inner:
            assert garray.get_current_stream() is inner
        assert garray.get_current_stream() is s
    assert garray.get_current_stream() == s0
    s.use()
    try:
        assert garray.get_current_stream() is s
    finally:
        s0.use()
    assert garray.get_current_stream() == s0


def test_the_current_stream_is_per_thread():
    s = garray.Stream()
    seen = []
    with s:
        t = threading.Thread(target=lambda: seen.append(garray.get_current_stream()))
        t.start()
        t.join()
    assert seen[0].ptr == 0 and seen[0] != s


@xp_compare()
def test_work_on_streams_matches_numpy(xp):
    a = xp.arange(3000, dtype=xp.float32).reshape(30, 100)
    if xp is numpy:
        b = a * 2 + 1
        return [b.sum(axis=1), xp.sqrt(b)[:, ::3], b @ b.T, xp.fft.fft(b[0]), b.copy()]
    s1, s2 = garray.Stream(), garray.Stream(non_blocking=True)
    with s1:
        b = a * 2 + 1
    done = s1.record()
    s2.wait_event(done)
    with s2:
        r = [b.sum(axis=1), xp.sqrt(b)[:, ::3], b @ b.T, xp.fft.fft(b[0]), b.copy()]
    s2.synchronize()
    return r


def test_host_transfers_take_a_stream():
    s = garray.Stream(non_blocking=True)
    h = numpy.arange(24, dtype=numpy.int32).reshape(4, 6)
    x = garray.empty((4, 6), dtype=garray.int32)
    x.set(h, stream=s)
    assert_xp_close(garray.asarray(x.get(stream=s)), h)
    assert_xp_close(garray.asarray(garray.asnumpy(x[:, ::2], stream=s)), h[:, ::2])
    y = x.to_device(DEV, stream=s)
    assert y is x
    with pytest.raises(ValueError, match="shape"):
        x.set(h.T)
    with pytest.raises(TypeError, match="dtype"):
        x.set(h.astype(numpy.int64))
    with pytest.raises(TypeError, match="arr"):
        x.set([1, 2])
    with pytest.raises(TypeError, match="stream"):
        x.get(stream="s")


def test_events_time_and_order():
    s = garray.Stream()
    start, end = garray.Event(), garray.Event()
    start.record(s)
    with s:
        garray.sqrt(garray.arange(1 << 16, dtype=garray.float32)).sum()
    end.record(s)
    ms = garray.get_elapsed_time(start, end)
    assert isinstance(ms, float) and ms >= 0.0 and start.elapsed_time(end) == ms
    assert end.done and end.query() and s.done
    end.synchronize()
    e = s.record()
    assert isinstance(e, garray.Event)
    with pytest.raises(ValueError, match="never recorded"):
        garray.get_elapsed_time(garray.Event(), end)
    quiet = garray.Event(disable_timing=True)
    quiet.record()
    with pytest.raises(ValueError, match="disable_timing"):
        garray.get_elapsed_time(start, quiet)
    with pytest.raises(NotImplementedError, match="interprocess"):
        garray.Event(interprocess=True)
    with pytest.raises(TypeError, match="event"):
        s.wait_event("e")
    with pytest.raises(TypeError, match="stream"):
        end.record(stream=0)


def test_bad_stream_arguments():
    with pytest.raises(ValueError, match="null, ptds"):
        garray.Stream(null=True, ptds=True)
    with pytest.raises(ValueError, match="non_blocking"):
        garray.Stream(null=True, non_blocking=True)
    with pytest.raises(TypeError, match="priority"):
        garray.Stream(priority=1.5)
    with pytest.raises(TypeError, match="ptr"):
        garray.ExternalStream("0")
    with pytest.raises(ValueError, match="ptr"):
        garray.ExternalStream(-1, device=DEV)
    s = garray.Stream()
    s.close()
    s.close()
    with pytest.raises(ValueError, match="closed"):
        s.synchronize()
    with pytest.raises(ValueError, match="closed"):
        with s:
            pass
    if not GPU:
        with pytest.raises(ValueError, match="CPU device"):
            garray.ExternalStream(5)


def test_priority_is_accepted():
    if DEV.kind == "hip" and STUB:
        pytest.skip("the stub HIP driver has no hipStreamCreateWithPriority")
    s = garray.Stream(priority=-1)
    with s:
        r = garray.arange(10) * 3
    assert_xp_close(r, numpy.arange(10) * 3)


def test_external_stream_shares_a_handle():
    if not GPU:
        pytest.skip("the CPU device has no driver streams")
    own = garray.Stream()
    ext = garray.ExternalStream(own.ptr)
    assert ext == own
    with ext:
        r = garray.arange(8, dtype=garray.int64) + 1
    ext.synchronize()
    assert_xp_close(r, numpy.arange(8) + 1)
    del ext                       # never destroys the handle it was given
    own.synchronize()


# ---- pinned host memory ------------------------------------------------------------------

def test_pinned_host_memory_and_asynchronous_copies():
    h = garray.zeros_pinned((4, 6), dtype=numpy.int32)
    assert isinstance(h, numpy.ndarray) and h.dtype == numpy.int32 and not h.any()
    f = garray.empty_pinned(5, order="F")
    assert f.shape == (5,) and f.dtype == numpy.float64
    src = numpy.arange(24, dtype=numpy.int32).reshape(4, 6)
    s = garray.Stream(non_blocking=True)
    x = garray.empty((4, 6), dtype=garray.int32)
    h[...] = src
    x.set(h, stream=s)                      # queued: h must live until s has run it
    out = garray.empty_pinned((4, 6), dtype=numpy.int32)
    with s:
        y = x * 2
    r = y.get(stream=s, out=out, blocking=False)
    assert r is out
    s.synchronize()
    assert_xp_close(garray.asarray(out), src * 2)
    t = garray.empty_pinned((3, 4), dtype=numpy.int32)
    y[1:, ::-1][:, 1:5].get(out=t, stream=s)      # a strided view: gathered, then copied
    assert_xp_close(garray.asarray(t), (src * 2)[1:, ::-1][:, 1:5])
    with pytest.raises(ValueError, match="blocking"):
        y.get(blocking=False)
    with pytest.raises(ValueError, match="blocking"):
        y.get(out=numpy.empty((4, 6), numpy.int32), blocking=False)
    with pytest.raises(ValueError, match="out"):
        y.get(out=garray.empty_pinned((6, 4), dtype=numpy.int32))
    with pytest.raises(TypeError, match="out"):
        y.get(out=garray.empty_pinned((4, 6), dtype=numpy.int64))
    with pytest.raises(ValueError, match="shape"):
        garray.empty_pinned((-1, 2))
    with pytest.raises(ValueError, match="order"):
        garray.empty_pinned(3, order="K")


# ---- memory: one pool per stream ------------------------------------------------------

def test_each_stream_allocates_from_its_own_pool():
    if not GPU:
        pytest.skip("the CPU device has one pool (its streams run in order at once)")
    pool = garray.get_default_memory_pool()
    s = garray.Stream()
    before = pool.used_bytes()
    with s:
        a = garray.empty(1000, dtype=garray.float64)
        own = s._pool
        assert own is not pool and own.used_bytes() >= 8000
        # the device's pool counts its streams' pools (tests/test_stream_pools.py)
        assert pool.used_bytes() == before + own.used_bytes()
        del a
        hits = own.n_hits
        b = garray.empty(1000, dtype=garray.float64)   # the freed block, same stream
        assert own.n_hits == hits + 1
    del b
    s.close()
    assert own.used_bytes() == 0


def test_pools_of_streams_under_threads():
    # Each thread on its own stream allocates, computes and frees; blocks go back to the
    # stream that used them, so a value never changes under another thread's work.
    def work(i):
        s = garray.Stream(non_blocking=bool(i % 2))
        with s:
            for k in range(20):
                x = garray.full((257 + i,), float(k + i), dtype=garray.float32)
                y = (x * 2).sum()
                assert float(y.get(stream=s)) == 2.0 * (k + i) * (257 + i)
                del x, y
        s.close()
    run_in_threads(work, n=4)


# ---- DLPack ---------------------------------------------------------------------------

def test_dlpack_orders_the_consumer_stream():
    x = garray.arange(6.0)
    consumer = garray.Stream()
    s = garray.Stream(non_blocking=True)
    s.wait_event(garray.get_current_stream().record())      # x was made on the default
    with s:
        y = x * 2
        cap = y.__dlpack__(stream=consumer.ptr if GPU else None)
    del cap
    z = garray.from_dlpack(y)
    assert_xp_close(z, numpy.arange(6.0) * 2)


# ---- asynchronous stub drivers: ordering that a missing wait breaks ---------------------

_ASYNC = {"FAKE_GPU_ASYNC": "1", "FAKE_GPU_HAZARDS": "1", "FAKE_GPU_DELAY_US": "2000"}

_PRELUDE = """
import ctypes, numpy, garray
dev = garray.default_device()
drv = ctypes.CDLL("libcuda.so.1" if dev.kind == "cuda" else "libamdhip64.so")
def hazards():
    n = ctypes.c_ulonglong(0)
    drv.fake_hazards(ctypes.byref(n))
    return n.value
"""


@on_stub
@pytest.mark.parametrize("wait", [True, False], ids=["waits", "no-wait"])
def test_two_streams_share_a_buffer_through_an_event(wait):
    _, out, err = run_isolated(_PRELUDE + f"""
a, b = garray.Stream(non_blocking=True), garray.Stream(non_blocking=True)
with a:
    x = garray.zeros(4096, dtype=garray.float32)
    for _ in range(10):
        x += 1
ev = a.record()
if {wait}:
    b.wait_event(ev)
with b:
    total = x.sum()
print("VALUE", float(total.get(stream=b)), "HAZARDS", hazards())
""", env=_ASYNC)
    line = [ln for ln in out.splitlines() if ln.startswith("VALUE")][0].split()
    value, n = float(line[1]), int(line[3])
    if wait:
        assert (value, n) == (40960.0, 0), err[-2000:]
    else:
        assert n > 0, "the hazard checker saw no race without the wait"


@on_stub
def test_a_host_read_waits_for_its_stream_only():
    # Stream b holds ~1 s of queued work (500 operations of 2 ms); a read of an array
    # made on stream a returns while b still runs.  A read that synchronised the device
    # would find b done.
    _, out, err = run_isolated(_PRELUDE + """
a, b = garray.Stream(non_blocking=True), garray.Stream(non_blocking=True)
with b:
    y = garray.zeros(64, dtype=garray.float32)
    for _ in range(500):
        y += 1
with a:
    x = garray.arange(16, dtype=garray.float32) + 1
    v = x.get()
print("READ", v.sum(), "B_BUSY", not b.query())
b.synchronize()
with b:
    print("B", float(y.sum().get()), "HAZARDS", hazards())
""", env=_ASYNC, timeout=300)
    assert "READ 136.0 B_BUSY True" in out, out + err[-2000:]
    assert "B 32000.0 HAZARDS 0" in out, out + err[-2000:]


@on_stub
def test_pool_reuse_across_streams_is_ordered():
    # A block freed on stream a while a's work still reads it must not serve stream b.
    _, out, err = run_isolated(_PRELUDE + """
a, b = garray.Stream(non_blocking=True), garray.Stream(non_blocking=True)
for i in range(20):
    with a:
        x = garray.full(1024, 1.0, dtype=garray.float32)
        s = x.sum()
        del x
    with b:
        y = garray.full(1024, 2.0, dtype=garray.float32)
        t = y.sum()
        del y
    assert float(s.get(stream=a)) == 1024.0 and float(t.get(stream=b)) == 2048.0
print("HAZARDS", hazards())
""", env=_ASYNC, timeout=300)
    assert "HAZARDS 0" in out, out + err[-2000:]


def test_user_kernels_take_a_stream():
    k = garray.ElementwiseKernel("T x", "T y", "y = x * 3 + 1", "streams_triple")
    s = garray.Stream(non_blocking=True)
    with s:
        x = garray.arange(100, dtype=garray.float32)
    y = k(x, stream=s)
    assert_xp_close(garray.asarray(y.get(stream=s)),
                    numpy.arange(100, dtype=numpy.float32) * 3 + 1)
    r = garray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "streams_sum")
    t = r(x, stream=s)
    assert float(t.get(stream=s)) == 4950.0


@on_stub
@pytest.mark.parametrize("wait", [True, False], ids=["waits", "no-wait"])
def test_an_asynchronous_copy_into_pinned_memory_is_read_after_synchronize(wait):
    _, out, err = run_isolated(_PRELUDE + f"""
s = garray.Stream(non_blocking=True)
with s:
    x = garray.zeros(256, dtype=garray.float32)
    for _ in range(20):
        x += 1
h = garray.zeros_pinned(256, dtype=numpy.float32)
x.get(out=h, stream=s, blocking=False)
if {wait}:
    s.synchronize()
print("SUM", float(h.sum()))
s.synchronize()
""", env=_ASYNC)
    total = float([ln for ln in out.splitlines() if ln.startswith("SUM")][0].split()[1])
    if wait:
        assert total == 5120.0, err[-2000:]
    else:
        assert total < 5120.0, "the copy had run before the host read it: not asynchronous"


def test_record_stream_arguments():
    x = garray.arange(10.0)
    s = garray.Stream()
    x.record_stream(s)
    x[2:5].record_stream(s)                 # a view marks its base's memory
    with pytest.raises(TypeError, match="stream"):
        x.record_stream(0)
    del x


@on_stub
@pytest.mark.parametrize("record", [True, False], ids=["recorded", "not-recorded"])
def test_record_stream_keeps_a_block_from_early_reuse(record):
    # x is allocated on stream a and read on stream b; freed while b still reads it, its
    # block would serve a's next allocation at once and a's write would race b's reads.
    # 12 MiB arrays have segments of their own, so the stubs' conservative rule for
    # kernels (a pointer argument covers the rest of its driver allocation) sees only
    # the real overlap.
    _, out, err = run_isolated(_PRELUDE + f"""
a, b = garray.Stream(non_blocking=True), garray.Stream(non_blocking=True)
with a:
    x = garray.full(3 << 20, 1.0, dtype=garray.float32)
b.wait_event(a.record())
with b:
    sums = [x.sum() for _ in range(4)]
if {record}:
    x.record_stream(b)
del x
with a:
    y = garray.full(3 << 20, 5.0, dtype=garray.float32)
b.synchronize()
a.synchronize()
print("HAZARDS", hazards(), "SUMS", sorted({{float(s.get(stream=b)) for s in sums}}))
""", env=_ASYNC)
    line = [ln for ln in out.splitlines() if ln.startswith("HAZARDS")][0]
    if record:
        assert line == "HAZARDS 0 SUMS [3145728.0]", line + err[-2000:]
    else:
        assert not line.startswith("HAZARDS 0"), "no race without record_stream: " + line


def test_per_thread_default_streams():
    # GARRAY_STREAM_PER_THREAD=1: each thread's default stream is its own (handle 2 on
    # GPUs) with a pool of its own; threads computing at once stay correct and, on the
    # asynchronous stub, race-free.
    env = dict(_ASYNC) if STUB else {}
    env["GARRAY_STREAM_PER_THREAD"] = "1"
    _, out, err = run_isolated("""
import threading, numpy, garray
dev = garray.default_device()
errors, handles = [], set()
def work(i):
    try:
        handles.add(garray.get_current_stream().ptr)
        for k in range(10):
            x = garray.full(1000 + i, float(i + k), dtype=garray.float64)
            v = float((x * 2).sum().get())
            assert v == 2.0 * (i + k) * (1000 + i), (i, k, v)
    except Exception as e:
        errors.append(repr(e))
ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
[t.start() for t in ts]
[t.join() for t in ts]
print("ERRORS", errors, "HANDLES", sorted(handles))
""" + ("""
import ctypes
drv = ctypes.CDLL("libcuda.so.1" if dev.kind == "cuda" else "libamdhip64.so")
n = ctypes.c_ulonglong(0)
drv.fake_hazards(ctypes.byref(n))
print("HAZARDS", n.value)
""" if STUB else ""), env=env)
    assert "ERRORS []" in out, out + err[-2000:]
    assert ("HANDLES [2]" if GPU else "HANDLES [0]") in out, out
    if STUB:
        assert "HAZARDS 0" in out, out + err[-2000:]


@on_stub
def test_copies_between_two_gpus():
    # to_device between two GPUs of one vendor is a peer copy on the drivers (stubs with
    # two devices), on the default streams and on a stream of the target.
    ndev = "FAKE_CUDA_NDEV" if DEV.kind == "cuda" else "FAKE_HIP_NDEV"
    _, out, err = run_isolated(_PRELUDE + """
kind = dev.kind
d0, d1 = garray.Device(kind, 0), garray.Device(kind, 1)
rt_class = type(d1.runtime)
peer_calls, peer = [], rt_class.memcpy_peer
rt_class.memcpy_peer = lambda self, *a, **k: (peer_calls.append(1), peer(self, *a, **k))[1]
x = garray.arange(1000, dtype=garray.float32, device=d0) * 3
y = x.to_device(d1)
z = x[::-3].to_device(d1)                 # strided: gathered on d0 first
s = garray.Stream(non_blocking=True, device=d1)
w = (x + 1).to_device(d1, stream=s)
back = w.to_device(d0)
ok = (y.device == d1 and numpy.array_equal(y.get(), numpy.arange(1000, dtype=numpy.float32) * 3)
      and numpy.array_equal(z.get(), (numpy.arange(1000, dtype=numpy.float32) * 3)[::-3])
      and numpy.array_equal(back.get(), numpy.arange(1000, dtype=numpy.float32) * 3 + 1))
print("OK", ok, "HAZARDS", hazards(), "PEER", len(peer_calls))
""", env={**_ASYNC, ndev: "2"})
    assert "OK True HAZARDS 0 PEER 4" in out, out + err[-3000:]


@on_stub
@pytest.mark.parametrize("annotated", [True, False], ids=["annotated", "conservative"])
def test_user_kernel_launches_are_annotated(annotated):
    # Two unordered streams each write their own array, both arrays in one pool segment
    # of the default stream: with the launches annotated (each array's own bytes) the
    # checker sees no conflict; under its conservative rule (a pointer argument covers
    # the rest of its driver allocation) it reports one.
    _, out, err = run_isolated(_PRELUDE + f"""
import garray.kernels._raw as raw
if not {annotated}:
    raw._launch_observer = None
k = garray.RawKernel(r'''
extern "C" __global__ void fill7(const float* src, float* dst, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i] + 7.0f;
}}''', "fill7")
src = garray.ones(256, dtype=garray.float32)
x = garray.zeros(256, dtype=garray.float32)
y = garray.zeros(256, dtype=garray.float32)
garray.get_current_stream().synchronize()
a, b = garray.Stream(non_blocking=True), garray.Stream(non_blocking=True)
k((1,), (256,), (src, x, numpy.int32(256)), stream=a)
k((1,), (256,), (src, y, numpy.int32(256)), stream=b)
a.synchronize(); b.synchronize()
print("SUMS", float(x.sum().get()), float(y.sum().get()), "HAZARDS", hazards())
""", env=_ASYNC)
    line = [ln for ln in out.splitlines() if ln.startswith("SUMS")][0]
    assert line.startswith("SUMS 2048.0 2048.0"), line + err[-2000:]
    assert (line.endswith("HAZARDS 0") if annotated else not line.endswith("HAZARDS 0")), \
        line + err[-2000:]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32",
                                   "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (5,), (4, 6)], ids=str)
def test_stream_transfers_of_every_dtype_and_empty_and_0d(dtype, shape):
    # set / get(out=pinned, blocking=False) / asnumpy / to_device on a stream, compared
    # with NumPy, for 0-d, empty and strided arrays.
    h = (numpy.arange(int(numpy.prod(shape)), dtype=numpy.int64) % 7).astype(dtype)
    h = h.reshape(shape)
    s = garray.Stream(non_blocking=True)
    x = garray.empty(shape, dtype=dtype)
    pinned = garray.empty_pinned(shape, dtype)
    pinned[...] = h
    x.set(pinned, stream=s)
    out = garray.zeros_pinned(shape, dtype)
    x.get(out=out, stream=s, blocking=False)
    s.synchronize()
    numpy.testing.assert_array_equal(out, h)
    assert out.dtype == h.dtype and out.shape == h.shape
    with s:
        y = x * 1 if x.ndim == 0 else x[..., ::-1]
    assert_xp_close(garray.asarray(garray.asnumpy(y, stream=s)),
                    h * 1 if h.ndim == 0 else h[..., ::-1])
    z = y.to_device(DEV, stream=s)
    assert z is y
    y.record_stream(garray.Stream())
    del y, z
