"""The streams' memory pools belong to their device's pool (Note [Memory pools], 5 and 7
in cython/_memory.pxi): the device pool's byte counts, its limit, free_all_blocks and the
out-of-memory retry cover every stream's pool of the device, as CuPy's one pool per
device does.  GPU devices only (the CPU device's streams share its one pool); on the
stub drivers these run in CI.
"""

import gc
import os

import pytest

import garray
from garray._errors import OutOfMemoryError
from isolated import run_isolated

DEV = garray.default_device()
pytestmark = pytest.mark.skipif(DEV.kind == "cpu", reason="the CPU device has one pool")
MiB = 2**20


@pytest.fixture
def root():
    pool = garray.get_default_memory_pool()
    limit = pool.get_limit()
    pool_limit = pool.get_pool_limit()
    gc.collect()
    pool.free_all_blocks()
    yield pool
    pool.set_limit(limit)
    pool.set_pool_limit(pool_limit)
    gc.collect()
    pool.free_all_blocks()


def test_device_pool_counts_every_stream(root):
    used, total = root.used_bytes(), root.total_bytes()
    s = garray.Stream(non_blocking=True)
    with s:
        a = garray.empty(3 * MiB, dtype=garray.uint8)
    own = s._pool
    assert own.used_bytes() >= 3 * MiB
    assert root.used_bytes() == used + own.used_bytes()
    assert root.total_bytes() == total + own.total_bytes()
    st = root.stats()
    assert st["stream_pools"] >= 1 and st["used_bytes"] == root.used_bytes()
    assert st["peak_used_bytes"] >= root.used_bytes()
    del a
    assert root.used_bytes() == used
    assert root.cached_bytes() >= own.cached_bytes() > 0
    root.free_all_blocks()                 # the stream's free segments go back too
    assert own.total_bytes() == 0
    s.close()
    del s, own
    gc.collect()
    assert root.total_bytes() == total and root.stats()["stream_pools"] == 0


def test_limit_covers_the_streams_pools(root):
    root.set_limit(root.total_bytes() + 8 * MiB)
    s = garray.Stream()
    assert s._pool_for_use().get_limit() == root.get_limit()     # one limit per device
    with s:
        a = garray.empty(6 * MiB, dtype=garray.uint8)
        with pytest.raises(OutOfMemoryError, match="pool limit"):
            garray.empty(6 * MiB, dtype=garray.uint8)
    with pytest.raises(OutOfMemoryError, match="pool limit"):
        garray.empty(6 * MiB, dtype=garray.uint8)             # the default stream too
    del a
    s.synchronize()
    b = garray.empty(6 * MiB, dtype=garray.uint8)   # the stream's cache is given back first
    assert s._pool.total_bytes() == 0 and b.nbytes == 6 * MiB
    s.close()


def test_pool_limit_reaches_the_streams_pools(root):
    s = garray.Stream(non_blocking=True)
    with s:
        a = garray.empty(4 * MiB, dtype=garray.uint8)
    del a
    own = s._pool
    assert own.cached_bytes() > 0
    root.set_pool_limit(0)
    assert own.get_pool_limit() == 0 and own.cached_bytes() == 0
    s2 = garray.Stream()
    assert s2._pool_for_use().get_pool_limit() == 0           # a later stream's pool too
    s.close()
    s2.close()


STUB = os.environ.get("GARRAY_GPU_STUB") == "1"
_ASYNC = {"FAKE_GPU_ASYNC": "1", "FAKE_GPU_HAZARDS": "1", "FAKE_GPU_DELAY_US": "500"}


@pytest.mark.skipif(not STUB, reason="needs the stub GPU drivers' async mode")
def test_stream_ordered_backend():
    # GARRAY_POOL_BACKEND=stream: every segment comes from and goes back to the driver's
    # stream-ordered allocator, so a non-blocking stream's pool returns its segments
    # without a host wait, and the work stays race-free on the async stub.
    _, out, err = run_isolated("""
import ctypes, numpy, garray
from garray.testing import gpu_stub
dev = garray.default_device()
cls, calls = type(dev.runtime), []
def spy(name):
    orig = getattr(cls, name)
    def call(self, *a, **k):
        calls.append((name, k.get("stream") is not None))
        return orig(self, *a, **k)
    setattr(cls, name, call)
for name in ("malloc", "free", "stream_synchronize"):
    spy(name)
s = garray.Stream(non_blocking=True)
with s:
    x = garray.arange(3000, dtype=garray.float32)
    y = (x * 2).sum()
v = float(y.get(stream=s))
del x, y
before = len(calls)
s._pool.free_all_blocks()
frees = calls[before:]
n = ctypes.c_ulonglong()
gpu_stub.stub_library(dev.kind).fake_hazards(ctypes.byref(n))
print("VALUE", v, "ORDERED", all(o for c, o in calls if c != "stream_synchronize"),
      "FREES", [c for c, _ in frees], "HAZARDS", n.value)
""", env={**_ASYNC, "GARRAY_POOL_BACKEND": "stream"})
    line = [ln for ln in out.splitlines() if ln.startswith("VALUE")][0]
    assert line.startswith("VALUE 8997000.0 ORDERED True FREES ['free'"), line + err[-2000:]
    assert "stream_synchronize" not in line and line.endswith("HAZARDS 0"), line + err[-2000:]


def test_bad_pool_backend_is_named():
    _, out, err = run_isolated("""
import garray
try:
    garray.Stream(non_blocking=True).use()
    garray.empty(10)
except ValueError as e:
    print("ERROR", e)
""", env={"GARRAY_POOL_BACKEND": "bogus"})
    assert "ERROR GARRAY_POOL_BACKEND: expected one of 'device', 'stream'" in out, out + err
