"""The CPU sanitizer (GARRAY_CPU_SANITIZE, garray.kernels.sanitizer): planted bugs, each
caught by its check, and each fixed twin clean and right against NumPy.

The sanitizer runs CPU kernels only; on a GPU device these tests are skipped (the stub
drivers run the CPU build of each kernel without the sanitizer)."""

import numpy
import pytest

import garray
from garray.kernels import RawKernel, SanitizerError, sanitizer
from xp import assert_xp_close

ON_CPU = garray.default_device().kind == "cpu"
pytestmark = pytest.mark.skipif(not ON_CPU, reason="the sanitizer checks CPU kernels")

N = 256          # one block of N threads unless a case says otherwise

# Each case: (name, buggy source, fixed source, check, expected output from inp).
# Kernels take (float* out, const float* inp, int n).
CASES = {
    # a neighbour's element read with no barrier after it was overwritten
    "missing_barrier": (r"""
extern "C" __global__ void k(float* out, const float* inp, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = inp[t];
    __syncthreads();
    s[t] = 2 * s[t];
    %s
    out[t] = s[(t + 1) %% 256];
}""", "race", lambda x: 2 * numpy.roll(x, -1)),
    # half the block writes shared memory, every thread reads its own element
    "unwritten_shared": (r"""
extern "C" __global__ void k(float* out, const float* inp, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    if (t < 128 %s) s[t] = inp[t];
    __syncthreads();
    out[t] = s[t];
}""", "init", lambda x: x),
    # a barrier only some threads reach
    "divergent_barrier": (r"""
extern "C" __global__ void k(float* out, const float* inp, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = inp[t];
    if (t < 100 %s) __syncthreads();
    __syncthreads();
    out[t] = s[255 - t];
}""", "sync", lambda x: x[::-1]),
    # a shuffle whose mask leaves out half of the calling lanes
    "warp_mask_too_small": (r"""
extern "C" __global__ void k(float* out, const float* inp, int n) {
    int t = threadIdx.x;
    unsigned long long mask = %s;
    float v = __shfl_xor_sync(mask, inp[t], 1);
    out[t] = v;
}""", "sync", lambda x: x.reshape(-1, 2)[:, ::-1].ravel()),
    # one element past the end of the input
    "past_the_end": (r"""
extern "C" __global__ void k(float* out, const float* inp, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) out[t] = inp[t + 1 %s];
}""", "bounds", lambda x: x),
    # two threads write one output element
    "two_writers": (r"""
extern "C" __global__ void k(float* out, const float* inp, int n) {
    int t = threadIdx.x;
    out[t / %s] = inp[t];
}""", "race", lambda x: x),
    # lanes of a warp exchange through shared memory as if in lock-step
    "warp_synchronous": (r"""
extern "C" __global__ void k(float* out, const float* inp, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = inp[t];
    __syncthreads();
    s[t] = 2 * s[t];
    %s
    out[t] = s[t ^ 1];
}""", "race", lambda x: 2 * x.reshape(-1, 2)[:, ::-1].ravel()),
    # lanes of one warp at two different __syncwarp calls
    "mismatched_syncwarp": (r"""
extern "C" __global__ void k(float* out, const float* inp, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = inp[t];
    if (t %% 2 %s)
        __syncwarp();
    else
        __syncwarp();
    out[t] = s[t ^ 1];
}""", "sync", lambda x: x.reshape(-1, 2)[:, ::-1].ravel()),
    # a block writes what another block reads: blocks are never ordered
    "across_blocks": (r"""
extern "C" __global__ void k(float* out, const float* inp, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = inp[t];
    if (blockIdx.x == 1 %s) out[t - 128] = out[t - 128] + 0;
}""", "race", lambda x: x),
}
# What each case's placeholder becomes: (buggy, fixed)
FILL = {
    "missing_barrier": ("", "__syncthreads();"),
    "unwritten_shared": ("", "+ 128"),
    "divergent_barrier": ("", "+ 156"),
    "warp_mask_too_small": ("0xffffull", "0xffffffffull"),
    "past_the_end": ("", "- 1"),
    "two_writers": ("2", "1"),
    "warp_synchronous": ("", "__syncwarp();"),
    "mismatched_syncwarp": ("== 0", "== 0 && false"),
    "across_blocks": ("", "&& false"),
}


def _run(case, fixed, seed=0):
    src, _, _ = CASES[case]
    code = src % FILL[case][1 if fixed else 0]
    grid = 2 if case == "across_blocks" else 1
    n = N * grid
    with sanitizer("all", seed=seed):
        # arrays garray allocates inside the block: the sanitizer knows their bounds
        # (asarray of a NumPy array would wrap NumPy's memory, which it does not judge)
        inp = garray.arange(1, n + 1, dtype="float32")
        out = garray.zeros(n, dtype="float32")
        RawKernel(code, "k")((grid,), (N,), (out, inp, numpy.int32(n)))
    return out, numpy.arange(n, dtype=numpy.float32) + 1


@pytest.mark.parametrize("case", sorted(CASES))
def test_planted_bug_is_caught(case):
    check = CASES[case][1]
    with pytest.raises(SanitizerError, match=f"^GARRAY_CPU_SANITIZE {check}: kernel k: ") as e:
        _run(case, fixed=False)
    assert e.value.check == check and e.value.kernel == "k"
    assert "GARRAY_CPU_SANITIZE_SEED=" in str(e.value)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_fixed_twin_is_clean(case, seed):
    out, x = _run(case, fixed=True, seed=seed)
    assert_xp_close(out, CASES[case][2](x))


def test_missing_barrier_is_caught_under_every_seed():
    # race or init whatever the order: a write of the neighbour before the read is a
    # race, after it the read is of the block's first value: also a race (the write
    # before the barrier happened), so every schedule reports it
    for seed in range(20):
        with pytest.raises(SanitizerError) as e:
            _run("missing_barrier", fixed=False, seed=seed)
        assert e.value.check == "race"


def test_message_names_threads_and_memory():
    with pytest.raises(SanitizerError) as e:
        _run("two_writers", fixed=False)
    msg = str(e.value)
    assert "thread" in msg and "global memory at offset" in msg and "-byte array" in msg
    with pytest.raises(SanitizerError) as e:
        _run("past_the_end", fixed=False)
    assert "byte 1024 of a 1024-byte array passed to it (past its end)" in str(e.value)


def test_access_to_an_array_not_passed():
    # the kernel reaches another live array through pointer arithmetic
    src = r"""
extern "C" __global__ void k(float* out, const float* inp, long long delta) {
    int t = threadIdx.x;
    out[t] = inp[t + delta];
}"""
    a = garray.ones(64, dtype="float32")
    with sanitizer("bounds"):
        b = garray.ones(64, dtype="float32")
        other = garray.full(64, 3.0, dtype="float32")
        delta = other.ptr - b.ptr
        out = garray.zeros(64, dtype="float32")
        with pytest.raises(SanitizerError, match="not passed to it"):
            RawKernel(src, "k")((1,), (64,), (out, b, numpy.int64(delta // 4)))
    del a


def test_checks_select():
    # with only `bounds` on, a race is not reported (and the result is whatever it is)
    src = CASES["two_writers"][0] % "2"
    out = garray.zeros(N, dtype="float32")
    with sanitizer("bounds,sync"):
        RawKernel(src, "k")((1,), (N,), (out, garray.ones(N, dtype="float32"), numpy.int32(N)))
    with pytest.raises(SanitizerError):
        with sanitizer("race"):
            RawKernel(src, "k")((1,), (N,), (out, garray.ones(N, dtype="float32"),
                                            numpy.int32(N)))


def test_bad_checks_and_seed():
    with pytest.raises(ValueError, match="checks: expected a comma list"):
        with sanitizer("race,speed"):
            pass
    with pytest.raises(ValueError, match="seed"):
        with sanitizer("all", seed=-1):
            pass


def test_off_after_the_block():
    # outside the block kernels run from the fast build again: the buggy kernel is not
    # reported there
    src = CASES["two_writers"][0] % "2"
    out = garray.zeros(N, dtype="float32")
    RawKernel(src, "k")((1,), (N,), (out, garray.ones(N, dtype="float32"), numpy.int32(N)))
    assert garray._sanitizer.mask == 0
