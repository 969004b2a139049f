"""Launch annotations for the stub drivers' hazard checker (Note [Stub launch
annotations] in cython/_stub_annotate.pxi; garray/testing/gpu_stub.py).

On the CPU device: the parameter descriptions a GA_PARAM_INFO build exports.  On the stub
GPU drivers: built-in launches on two unordered streams writing neighbouring arrays of one
pool segment are race-free once annotated, and reported under the stubs' conservative
rule (the test of the test); a real conflict is still reported with annotations on.
"""

import os

import numpy
import pytest

import garray
from garray import _dtypes
from garray._compiler import compile_cpu
from garray._tables import ops
from isolated import run_isolated

DEV = garray.default_device()
STUB = DEV.kind != "cpu" and os.environ.get("GARRAY_GPU_STUB") == "1"
on_stub = pytest.mark.skipif(not STUB, reason="needs the stub GPU drivers' hazard checker")


def _entry(op, slot, code):
    return dict(ops.OPS[op].table()[1])[(code, slot)]


@pytest.mark.parametrize("warp_size", [32, 64])
def test_param_info_describes_pointers_and_values(warp_size):
    f32 = next(r.code for r in _dtypes.RECORDS if r.name == "float32")
    exprs = [_entry("add", 0, f32), _entry("add", 1, f32), _entry("sqrt", 3, f32)]
    mod = compile_cpu("elementwise.hip", exprs, warp_size, ("GA_PARAM_INFO=1",))
    sizes, kinds = mod.param_info(exprs[0])       # ew2_c(To* out, const T* a, const T2* b, int64 n)
    assert (sizes, kinds) == ((8, 8, 8, 8), b"xrrs")
    sizes, kinds = mod.param_info(exprs[1])       # ew2_cs(To* out, const T* a, T2 b, int64 n)
    assert (sizes, kinds) == ((8, 8, 4, 8), b"xrss")
    sizes, kinds = mod.param_info(exprs[2])       # ew1_s(char*, const char*, Strided<2>, int32)
    assert kinds == b"xrss" and sizes[:2] == (8, 8) and sizes[3] == 4
    assert sizes[2] > 8 * 24                      # Strided<2>: shape and two stride rows
    plain = compile_cpu("elementwise.hip", exprs[:1], warp_size)
    with pytest.raises(AttributeError):           # exported by GA_PARAM_INFO builds only
        plain.param_info(exprs[0])


_ASYNC = {"FAKE_GPU_ASYNC": "1", "FAKE_GPU_HAZARDS": "1", "FAKE_GPU_DELAY_US": "500"}

_PRELUDE = """
import ctypes, numpy, garray
from garray.testing import gpu_stub
dev = garray.default_device()
drv = gpu_stub.stub_library(dev.kind)
def hazards():
    n = ctypes.c_ulonglong(0)
    drv.fake_hazards(ctypes.byref(n))
    return n.value
"""

# Each stream writes its own outputs through built-in kernels of several families (a
# contiguous and a strided elementwise op, where, a cast, a reduction, a scan, a fill,
# a gather), all reading one input; every output was made on the default stream first,
# so the two streams' outputs are neighbours in one pool segment.
_WORK = """
h = numpy.arange(4096, dtype=numpy.float32) % 97 - 40
a = garray.asarray(h)
outs = {k: [garray.zeros(n, dtype=dt) for _ in range(2)] for k, n, dt in [
    ("add", 4096, "float32"), ("sqrt", 2048, "float32"), ("where", 4096, "float32"),
    ("cast", 4096, "int64"), ("sum", 64, "float32"), ("cumsum", 4096, "float32"),
    ("fill", 4096, "float32"), ("take", 100, "float32")]}
idx = garray.asarray(numpy.arange(100) * 37 % 4096)
garray.get_current_stream().synchronize()
streams = [garray.Stream(non_blocking=True), garray.Stream(non_blocking=True)]
for i, s in enumerate(streams):
    with s:
        o = {k: v[i] for k, v in outs.items()}
        garray.add(a, i, out=o["add"])
        garray.sqrt(abs(a[::2]), out=o["sqrt"])
        o["where"][...] = garray.where(a > i, a, -a)
        o["cast"][...] = a
        garray.sum(a.reshape(64, 64), axis=1, out=o["sum"])
        garray.cumsum(a, out=o["cumsum"])
        o["fill"].fill(i + 0.5)
        garray.take(a, idx, out=o["take"])
for s in streams:
    s.synchronize()
want = {"add": [h, h + 1], "sqrt": [numpy.sqrt(abs(h[::2]))] * 2,
        "where": [numpy.where(h > i, h, -h) for i in range(2)], "cast": [h.astype("int64")] * 2,
        "sum": [h.reshape(64, 64).sum(axis=1)] * 2, "cumsum": [numpy.cumsum(h)] * 2,
        "fill": [numpy.full(4096, i + 0.5, "float32") for i in range(2)],
        "take": [h[numpy.arange(100) * 37 % 4096]] * 2}
bad = [k for k in outs for i in range(2)
       if not numpy.allclose(outs[k][i].get(), want[k][i], rtol=1e-5)]
print("BAD", bad, "HAZARDS", hazards(), "COUNTS", *gpu_stub.annotation_counts())
"""


@on_stub
@pytest.mark.parametrize("annotated", [True, False], ids=["annotated", "conservative"])
def test_builtin_launches_on_neighbouring_arrays(annotated):
    _, out, err = run_isolated(_PRELUDE + f"gpu_stub.annotate_launches({annotated})\n" + _WORK,
                               env=_ASYNC)
    line = [ln for ln in out.splitlines() if ln.startswith("BAD")][0]
    bad, rest = line.split(" HAZARDS ")
    n_hazards, _, annotated_n, left = rest.split()
    assert bad == "BAD []", line + err[-2000:]
    if annotated:
        assert n_hazards == "0" and int(annotated_n) >= 16 and left == "0", line + err[-3000:]
    else:       # the test of the test: the conservative rule reports the neighbours
        assert int(n_hazards) > 0 and annotated_n == "0", line + err[-2000:]


@on_stub
@pytest.mark.parametrize("wait", [True, False], ids=["waits", "no-wait"])
def test_annotated_launches_still_report_a_real_conflict(wait):
    # Stream 2 reads what stream 1 writes: ordered by an event, no hazard; without the
    # wait, a read-after-write hazard, annotations or not.
    _, out, err = run_isolated(_PRELUDE + f"""
gpu_stub.annotate_launches(True)
a = garray.arange(4096, dtype=garray.float32)
b = garray.zeros(4096, dtype=garray.float32)
c = garray.zeros(4096, dtype=garray.float32)
garray.get_current_stream().synchronize()
s1, s2 = garray.Stream(non_blocking=True), garray.Stream(non_blocking=True)
with s1:
    garray.add(a, 1, out=b)
if {wait}:
    s2.wait_event(s1.record())
with s2:
    garray.multiply(b, 2, out=c)
s1.synchronize(); s2.synchronize()
ok = numpy.array_equal(c.get(), (numpy.arange(4096, dtype=numpy.float32) + 1) * 2)
print("RESULT", ok if {wait} else "-", "HAZARDS", hazards(), "COUNTS", *gpu_stub.annotation_counts())
""", env=_ASYNC)
    line = [ln for ln in out.splitlines() if ln.startswith("RESULT")][0]
    assert line.split()[6] == "0", line + err[-2000:]           # none left unannotated
    if wait:
        assert line.startswith("RESULT True HAZARDS 0 "), line + err[-2000:]
    else:
        assert line.split()[3] != "0", line + err[-2000:]
