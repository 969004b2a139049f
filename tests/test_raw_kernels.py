"""User kernels (RawKernel / RawModule): HIP-dialect source strings run by garray."""

import numpy
import pytest

import garray
from xp import assert_xp_equal

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
    assert_xp_equal(y, 2.5 * numpy.arange(n, dtype="float32") + 1)


@pytest.mark.parametrize("dtype, cpp", [("int16", "short"), ("float64", "double")])
def test_raw_module_name_expressions(dtype, cpp):
    mod = garray.RawModule(code=TEMPLATED, name_expressions=(f"fill_index<{cpp}>",))
    out = garray.empty(37, dtype=dtype)
    mod.get_function(f"fill_index<{cpp}>")(1, 64, (out, numpy.int64(37)))
    assert_xp_equal(out, (numpy.arange(37) * 2).astype(dtype))


def test_compile_error_carries_the_log():
    k = garray.RawKernel('extern "C" __global__ void bad(float* x) { x[0] = undefined_name; }',
                         "bad")
    with pytest.raises(garray.CompileError) as info:
        k.compile()
    assert "undefined_name" in info.value.log


def test_barrier_in_a_loop_launched_kernel_is_an_error_not_a_hang():
    k = garray.RawKernel(r'''
extern "C" __global__ void sync(float* x) {
    x[threadIdx.x] = 1.0f;
    __syncthreads();
}''', "sync")
    with pytest.raises(RuntimeError, match="__syncthreads"):
        k(1, 32, (garray.zeros(32, dtype="float32"),))


def test_bad_arguments():
    k = garray.RawKernel(SAXPY, "saxpy")
    y = garray.ones(4, dtype="float32")
    with pytest.raises(TypeError, match="numpy.int32"):
        k(1, 32, (y, y, 2.0, 4))
    with pytest.raises(NotImplementedError, match="1-d"):
        k((1, 2), 32, (y, y, numpy.float32(2), numpy.int32(4)))
    with pytest.raises(ValueError, match="grid"):
        k(0, 32, (y, y, numpy.float32(2), numpy.int32(4)))
    with pytest.raises(TypeError, match="code"):
        garray.RawModule(code=b"bytes")
