"""User kernels (RawKernel / RawModule): HIP-dialect source strings run by garray."""

import numpy
import pytest

import garray
from xp import assert_xp_close

SAXPY = r"""
extern "C" __global__ void saxpy(float* y, const float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

TEMPLATED = r"""
template <class T>
__global__ void fill_index(T* out, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (T)(i * 2);
}
"""


def test_raw_kernel_runs_garrays_own_code():
    n = 1000
    x = garray.arange(n, dtype="float32")
    y = garray.ones(n, dtype="float32")
    k = garray.RawKernel(SAXPY, "saxpy")
    k(((n + 127) // 128,), (128,), (y, x, numpy.float32(2.5), numpy.int32(n)))
    assert_xp_close(y, 2.5 * numpy.arange(n, dtype="float32") + 1)


@pytest.mark.parametrize("dtype, cpp", [("int16", "short"), ("float64", "double")])
def test_raw_module_name_expressions(dtype, cpp):
    mod = garray.RawModule(code=TEMPLATED, name_expressions=(f"fill_index<{cpp}>",))
    out = garray.empty(37, dtype=dtype)
    mod.get_function(f"fill_index<{cpp}>")(1, 64, (out, numpy.int64(37)))
    assert_xp_close(out, (numpy.arange(37) * 2).astype(dtype))


def test_compile_error_carries_the_log():
    k = garray.RawKernel('extern "C" __global__ void bad(float* x) { x[0] = undefined_name; }',
                         "bad")
    with pytest.raises(garray.CompileError) as info:
        k.compile()
    assert "undefined_name" in info.value.log


def test_kernel_named_like_libc_is_not_interposed():
    k = garray.RawKernel(r'''
extern "C" __global__ void sync(float* x) {
    x[threadIdx.x] = 1.0f;
    __syncthreads();
}''', "sync")
    x = garray.zeros(32, dtype="float32")
    k(1, 32, (x,))
    assert_xp_close(x, numpy.ones(32, dtype="float32"))


def test_bad_arguments():
    k = garray.RawKernel(SAXPY, "saxpy")
    y = garray.ones(4, dtype="float32")
    # a template's parameter types are unknown: Python scalars are refused there
    fill = garray.RawModule(code=TEMPLATED, name_expressions=("fill_index<float>",))
    with pytest.raises(TypeError, match="numpy.int32"):
        fill.get_function("fill_index<float>")(1, 32, (y, 4))
    with pytest.raises(NotImplementedError, match="1-d"):
        k((1, 2), 32, (y, y, numpy.float32(2), numpy.int32(4)))
    with pytest.raises(ValueError, match="grid"):
        k(0, 32, (y, y, numpy.float32(2), numpy.int32(4)))
    with pytest.raises(TypeError, match="code"):
        garray.RawModule(code=b"bytes")


BLOCK_SUM = r"""
// A classic block reduction: shared-memory tree, then warp shuffles.
extern "C" __global__ void block_sum(const float* x, float* out, int n) {
    extern __shared__ float buf[];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    float v = i < (unsigned)n ? x[i] : 0.0f;
    buf[t] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s >= warpSize; s /= 2) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t < warpSize) {
        v = buf[t];
        for (int d = warpSize / 2; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
        if (t == 0) out[blockIdx.x] = v;
    }
}
"""


def test_fiber_runtime_runs_barrier_and_warp_kernels():
    """__syncthreads + warp shuffles on the CPU device, at GARRAY_CPU_WARP_SIZE (32 or 64)."""
    n, block = 1000, 256
    grid = (n + block - 1) // block
    h = numpy.arange(n, dtype="float32") % 7
    x = garray.asarray(h, copy=True)
    out = garray.zeros(grid, dtype="float32")
    k = garray.RawKernel(BLOCK_SUM, "block_sum")
    k(grid, block, (x, out, numpy.int32(n)), shared_mem=block * 4)
    expected = numpy.add.reduceat(h, numpy.arange(0, n, block))
    assert_xp_close(out, expected, rtol=1e-6)


def test_ballot_and_warp_size():
    ws = garray.default_device().warp_size
    k = garray.RawKernel(r'''
extern "C" __global__ void ballot(unsigned long long* out) {
    unsigned long long m = __ballot_sync(0xffffffffu, threadIdx.x % 3 == 0);
    if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = m;
}''', "ballot")
    out = garray.zeros(2, dtype="uint64")
    k(1, 2 * ws, (out,))
    lanes = numpy.arange(2 * ws).reshape(2, ws)
    expected = [sum(1 << int(l) for l in numpy.nonzero(row % 3 == 0)[0]) for row in lanes]
    assert out.get().tolist() == expected


@pytest.mark.skipif(garray.default_device().kind != "cpu",
                    reason="a divergent __syncthreads is undefined behaviour on a GPU; the CPU "
                           "device reports it")
def test_divergent_barrier_is_reported_not_hung():
    k = garray.RawKernel(r'''
extern "C" __global__ void bad(float* x) {
    if (threadIdx.x < 16) { __syncthreads(); }
    x[threadIdx.x] = 1.0f;
}''', "bad")
    with pytest.raises(RuntimeError, match="__syncthreads"):
        k(1, 64, (garray.zeros(64, dtype="float32"),))


def test_portable_platform_macros_on_the_cpu():
    """GA_SYNCTHREADS / GA_SHFL_DOWN / GA_DYNAMIC_SHARED: the spelling that compiles for
    NVIDIA, AMD and the CPU alike (tests/test_gpu_compilers.py compiles it for GPUs)."""
    from test_gpu_compilers import PORTABLE_BLOCK_SUM
    ws = garray.default_device().warp_size
    n = 3 * ws
    h = numpy.arange(n, dtype="float32")
    out = garray.zeros(3, dtype="float32")
    garray.RawKernel(PORTABLE_BLOCK_SUM, "block_sum")(3, ws, (garray.asarray(h, copy=True), out,
                                                          numpy.int32(n)), shared_mem=ws * 4)
    assert_xp_close(out, h.reshape(3, ws).sum(axis=1))
