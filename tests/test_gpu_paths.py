"""Paths a GPU user hits first, on every device (run the suite with GARRAY_DEVICE=cuda or
hip on the stub drivers to exercise the GPU side): host data onto the device, user
kernels in either dialect, launch errors, DLPack streams, precompile."""

import numpy
import pytest

import garray
from xp import assert_xp_close

DEV = garray.default_device()
on_gpu = pytest.mark.skipif(DEV.kind == "cpu", reason="a GPU (or stub GPU) device only")


@pytest.mark.parametrize("obj", [[1.0, 2.0], [[1, 2], [3, 4]], 3, 2.5, True, 1 + 2j,
                                 numpy.float32(1.5), numpy.int16(-3), (1, 2, 3)])
def test_asarray_of_host_data_on_the_default_device(obj):
    g = garray.asarray(obj)
    assert g.device == DEV
    assert_xp_close(g, numpy.asarray(obj))


def test_operators_and_ufuncs_with_host_operands():
    x = garray.arange(2.0)
    assert_xp_close(x + [1, 2], numpy.arange(2.0) + [1, 2])
    assert_xp_close(garray.sin(numpy.float64(1)), numpy.asarray(numpy.sin(numpy.float64(1))))


def test_copy_false_still_refuses_a_copy_it_would_need():
    h = numpy.arange(3.0)
    if DEV.kind == "cpu":
        assert garray.asarray(h, copy=False).get().tolist() == [0.0, 1.0, 2.0]
    else:
        with pytest.raises(ValueError, match="copy=False"):
            garray.asarray(h, copy=False)


@pytest.mark.parametrize("name", ["ballot", "all", "any", "isfinite"])
def test_raw_kernels_named_like_compiler_builtins(name):
    k = garray.RawKernel(f'''
    extern "C" __global__ void {name}(float* x, int n) {{
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] = 2 * x[i];
    }}''', name)
    x = garray.arange(5, dtype="float32")
    k((1,), (32,), (x, numpy.int32(5)))
    assert_xp_close(x, numpy.arange(5, dtype="float32") * 2)


_SHFL_CUDA = r'''
extern "C" __global__ void warp_sum(const float* x, float* out, int* votes) {
    float v = x[threadIdx.x];
    for (int d = warpSize / 2; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    int any_big = __any_sync(0xffffffffu, x[threadIdx.x] > 10.0f);
    int all_pos = __all_sync(0xffffffffu, x[threadIdx.x] >= 0.0f);
    __syncwarp();
    if (threadIdx.x == 0) { out[0] = v; votes[0] = any_big; votes[1] = all_pos; }
}'''
_SHFL_HIP = _SHFL_CUDA.replace("__shfl_down_sync(0xffffffffu, v, d)", "__shfl_down(v, d)") \
    .replace("__any_sync(0xffffffffu, ", "__any(").replace("__all_sync(0xffffffffu, ", "__all(") \
    .replace("__syncwarp();", "")


@pytest.mark.parametrize("dialect, src", [("cuda", _SHFL_CUDA), ("hip", _SHFL_HIP)])
def test_warp_intrinsics_in_either_dialect(dialect, src):
    ws = DEV.warp_size
    h = numpy.arange(ws, dtype="float32")
    x, out, votes = garray.asarray(h), garray.zeros(1, dtype="float32"), garray.zeros(2, dtype="int32")
    garray.RawKernel(src, "warp_sum")((1,), (ws,), (x, out, votes))
    assert_xp_close(out, numpy.asarray([h.sum()], dtype="float32"))
    assert_xp_close(votes, numpy.asarray([int((h > 10).any()), int((h >= 0).all())], "int32"))


@on_gpu
def test_a_failed_launch_names_the_kernel_and_the_status():
    import ctypes
    from garray._core import _launch_raw
    k = garray.RawKernel('extern "C" __global__ void too_wide(float* x) { x[0] = 1; }',
                         "too_wide")
    x = garray.zeros(1, dtype="float32")
    with pytest.raises(ValueError, match=r"block: 2048"):       # RawKernel checks first
        k((1,), (2048,), (x,))
    # the driver's own refusal, through the launch primitive under RawKernel
    mod = k.compile(DEV)
    ptr = ctypes.c_void_p(x.ptr)
    with pytest.raises(garray.BackendError, match=r"too_wide.*block 2048"):
        _launch_raw(DEV, mod, mod.functions["too_wide"], 1, 2048,
                    (ctypes.addressof(ptr),), 0, "too_wide")


@on_gpu
def test_dlpack_stream_arguments():
    x = garray.arange(4.0)
    other = garray.Stream(non_blocking=True)    # a consumer's own stream: waits on an event
    for s in (None, -1, 1 if DEV.kind == "cuda" else 0, 2, other.ptr):
        x.__dlpack__(stream=s)
    if DEV.kind == "cuda":
        with pytest.raises(ValueError, match="stream"):
            x.__dlpack__(stream=0)
    with pytest.raises(TypeError, match="stream"):
        x.__dlpack__(stream="default")


@on_gpu
def test_module_load_observers_see_every_gpu_load():
    from garray import _compiler
    seen = []
    _compiler.add_load_observer(seen.append)
    try:
        garray.RawKernel('extern "C" __global__ void observed(float* x) { x[0] = 3; }',
                         "observed")((1,), (1,), (garray.zeros(1, dtype="float32"),))
    finally:
        _compiler.remove_load_observer(seen.append)
    assert [sorted(s.functions) for s in seen] == [["observed"]]
    assert seen[0].source is not None and seen[0].device == DEV


def test_precompile_builds_every_unit(monkeypatch, tmp_path, capsys):
    from garray._tables import ops as _optable
    from garray import __main__ as cli
    units = _optable.all_units()
    picked = [u for u in units if u[0] == "creation.hip"] + \
             [_optable.OPS["add"].unit(), _optable.OPS["sin"].unit()]
    monkeypatch.setattr(_optable, "all_units", lambda: picked)
    assert cli.precompile(["--device", str(DEV), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert f"precompiling {len(picked)} units for {DEV}" in out
    assert f"{len(picked)} of {len(picked)} units ready" in out


def test_precompile_reports_a_failing_unit(monkeypatch, capsys):
    from garray._tables import ops as _optable
    from garray import __main__ as cli
    monkeypatch.setattr(_optable, "all_units",
                        lambda: [("elementwise.hip", ["ga::no_such_kernel<float>"])])
    assert cli.precompile(["--device", str(DEV), "--jobs", "1"]) == 1
    assert "FAILED elementwise.hip" in capsys.readouterr().out


def test_dynamic_shared_memory_past_48k_sets_the_cuda_attribute(monkeypatch):
    """cuFuncSetAttribute is called once a launch asks for more than 48 KiB (checked with
    a recording stand-in for the binding: the stub driver has no such call)."""
    import types
    from garray._backends import cuda
    calls = []
    api = types.SimpleNamespace(
        CUfunction_attribute=types.SimpleNamespace(
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES="ATTR"),
        cuFuncSetAttribute=lambda f, a, n: calls.append((f, a, n)) or (0,))
    rt = cuda.Runtime.__new__(cuda.Runtime)
    monkeypatch.setattr(cuda.Runtime, "_api", lambda self: api)
    monkeypatch.setattr(cuda.Runtime, "check", classmethod(lambda cls, r, call: None))
    rt.allow_dynamic_shared("F", 48 * 1024)
    assert calls == []
    rt.allow_dynamic_shared("F", 96 * 1024)
    assert calls == [("F", "ATTR", 96 * 1024)]
