"""User kernels launched wrongly on purpose: every case must end in a Python exception
(or a correct result), never a dead process.

Each case that could crash runs in a child interpreter: a crash there is a failure of
this test with the child's stderr in the message, not the end of the pytest run.
"""

import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import garray

ON_CPU = garray.default_device().kind == "cpu"
cpu_only = pytest.mark.skipif(not ON_CPU, reason="guard pages and fiber stacks are the CPU "
                                                 "device's; a GPU has its own limits")

COPY = r"""
extern "C" __global__ void copy(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
"""

SCALE = r"""
extern "C" __global__ void scale(double* y, float a, unsigned char b, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = (double)a * b;
}
"""

# Each thread writes one float of dynamic shared memory, then reads its neighbour's.
SHARED = r"""
extern "C" __global__ void shift(float* y, int n) {
    extern __shared__ float s[];
    unsigned t = threadIdx.x;
    s[t] = (float)(t + n);
    __syncthreads();
    y[blockIdx.x * blockDim.x + t] = s[(t + 1) % blockDim.x];
}
"""

# A barrier-free kernel reading dynamic shared memory (a loop launch on the CPU).
SHARED_LOOP = r"""
extern "C" __global__ void fill(float* y, int n) {
    extern __shared__ float s[];
    s[threadIdx.x] = 1.0f;
    if (threadIdx.x < (unsigned)n) y[threadIdx.x] = s[threadIdx.x];
}
"""

BIG_LOCAL = r"""
extern "C" __global__ void big(float* y) {
    volatile float a[NFLOATS];
    for (int j = 0; j < NFLOATS; ++j) a[j] = (float)j;
    __syncthreads();
    y[threadIdx.x] = a[threadIdx.x * 3];
}
"""


def run_child(body, env=None):
    """Run ``body`` (after ``import garray, numpy``) in a new interpreter; returns its
    stdout, and fails with the child's stderr when it dies of a signal."""
    src = "import garray, numpy\n" + textwrap.dedent(body)
    full_env = dict(os.environ)
    full_env.update(env or {})
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True,
                       env=full_env, timeout=600)
    if r.returncode < 0 or r.returncode > 1:
        pytest.fail(f"the child process died (status {r.returncode}):\n{r.stderr[-4000:]}")
    if r.returncode:
        pytest.fail(f"the child process failed:\n{r.stderr[-4000:]}")
    return r.stdout


def expect_in_child(body, exc, match, env=None):
    """``body`` must raise ``exc`` (a name) with ``match`` in its message, in a child."""
    out = run_child(f"""
try:
{textwrap.indent(textwrap.dedent(body), "    ")}
except {exc} as e:
    print("RAISED", repr(str(e)))
else:
    print("NO EXCEPTION")
""", env)
    assert "RAISED" in out, out
    assert match in out, out
    return out


# ---- arguments against the signature ---------------------------------------------

def test_missing_and_extra_arguments():
    k = garray.RawKernel(COPY, "copy")
    x = garray.ones(8, dtype="float32")
    with pytest.raises(TypeError, match=r"'copy' takes 3 arguments .*got 2"):
        k(1, 32, (x, numpy.int32(8)))
    with pytest.raises(TypeError, match=r"'copy' takes 3 arguments .*got 4"):
        k(1, 32, (x, x, numpy.int32(8), numpy.int32(1)))


def test_missing_pointer_argument_does_not_crash():
    expect_in_child(f"""
k = garray.RawKernel({COPY!r}, "copy")
k(1, 32, (garray.ones(8, dtype="float32"),))
""", "TypeError", "takes 3 arguments")


def test_array_for_a_value_and_scalar_for_a_pointer():
    k = garray.RawKernel(COPY, "copy")
    x = garray.ones(8, dtype="float32")
    with pytest.raises(TypeError, match=r"args\[2\].*not a pointer"):
        k(1, 32, (x, x, x))
    with pytest.raises(TypeError, match=r"args\[1\].*is a pointer"):
        k(1, 32, (x, numpy.float32(1), numpy.int32(8)))
    with pytest.raises(TypeError, match=r"args\[0\].*is a pointer"):
        k(1, 32, (3, x, numpy.int32(8)))


def test_pointer_dtype_must_match_the_declared_pointee():
    k = garray.RawKernel(COPY, "copy")
    x64 = garray.ones(8, dtype="float64")
    y = garray.zeros(8, dtype="float32")
    with pytest.raises(TypeError, match=r"args\[0\].*points to float32.*float64"):
        k(1, 32, (x64, y, numpy.int32(8)))
    with pytest.raises(TypeError, match=r"args\[1\].*int32"):
        k(1, 32, (y, garray.zeros(8, dtype="int32"), numpy.int32(8)))


def test_void_and_char_pointers_take_any_dtype():
    k = garray.RawKernel(r'''
extern "C" __global__ void zero(void* p, unsigned char* b, int n) {
    if ((int)threadIdx.x < n) { ((char*)p)[threadIdx.x] = 0; b[threadIdx.x] = 7; }
}''', "zero")
    a = garray.ones(4, dtype="int32")
    b = garray.zeros(4, dtype="float32")
    k(1, 16, (a, b, 16))
    assert a.get().tolist() == [0, 0, 0, 0]
    assert b.get().view("uint8").tolist() == [7] * 16


def test_python_scalars_take_the_declared_type():
    k = garray.RawKernel(SCALE, "scale")
    y = garray.zeros(5, dtype="float64")
    k(1, 32, (y, 0.1, 3, 5))        # float -> float32, int -> unsigned char / long long
    expected = numpy.float64(numpy.float32(0.1)) * 3
    assert y.get().tolist() == [expected] * 5
    k(1, 32, (y, numpy.float64(2.5), numpy.int64(2), numpy.int32(5)))
    assert y.get().tolist() == [5.0] * 5


def test_scalars_that_do_not_fit_raise():
    k = garray.RawKernel(SCALE, "scale")
    y = garray.zeros(5, dtype="float64")
    with pytest.raises(OverflowError, match=r"args\[2\].*256.*uint8"):
        k(1, 32, (y, 1.0, 256, 5))
    with pytest.raises(OverflowError, match=r"args\[2\]"):
        k(1, 32, (y, 1.0, -1, 5))
    with pytest.raises(OverflowError, match=r"args\[1\].*float32"):
        k(1, 32, (y, 1e300, 1, 5))
    with pytest.raises(TypeError, match=r"args\[3\].*2.5"):
        k(1, 32, (y, 1.0, 1, 2.5))
    with pytest.raises(TypeError, match=r"args\[1\]"):
        k(1, 32, (y, 1j, 1, 5))
    with pytest.raises(OverflowError, match=r"args\[3\]"):
        k(1, 32, (y, 1.0, 1, 2 ** 70))
    with pytest.raises(OverflowError, match=r"args\[1\]"):
        k(1, 32, (y, 10 ** 400, 1, 5))


def test_templates_skip_the_signature_check():
    mod = garray.RawModule(code=r'''
template <class T> __global__ void fill(T* out, T v) { out[threadIdx.x] = v; }''',
                           name_expressions=("fill<float>",))
    k = mod.get_function("fill<float>")
    assert k.num_args is None
    out = garray.zeros(4, dtype="float32")
    k(1, 4, (out, numpy.float32(2)))
    assert out.get().tolist() == [2.0] * 4
    assert garray.RawKernel(COPY, "copy").num_args == 3


# ---- launch shapes and shared memory -----------------------------------------------

def test_block_and_grid_limits():
    k = garray.RawKernel(COPY, "copy")
    x = garray.ones(4096, dtype="float32")
    args = (x, x, numpy.int32(4096))
    with pytest.raises(ValueError, match="block: 2048 threads per block.*at most 1024"):
        k(2, 2048, args)
    with pytest.raises(ValueError, match="block"):
        k(2, 0, args)
    with pytest.raises(ValueError, match="grid"):
        k(0, 32, args)
    with pytest.raises(ValueError, match="grid"):
        k(2 ** 31, 32, args)
    k(4, 1024, args)                 # the largest block runs


def test_block_2048_in_a_child():
    expect_in_child(f"""
k = garray.RawKernel({COPY!r}, "copy")
x = garray.ones(4096, dtype="float32")
k(1, 2048, (x, x, numpy.int32(4096)))
""", "ValueError", "at most 1024")


def test_shared_mem_limit():
    k = garray.RawKernel(SHARED, "shift")
    y = garray.zeros(64, dtype="float32")
    limit = 64 * 1024 if ON_CPU else None
    with pytest.raises(ValueError, match="shared_mem"):
        k(1, 64, (y, 0), shared_mem=-1)
    if limit is not None:
        with pytest.raises(ValueError, match="max_dynamic_shared_size_bytes"):
            k(1, 64, (y, 0), shared_mem=limit + 1)
        k.max_dynamic_shared_size_bytes = 4 * limit
        k(1, 64, (y, 0), shared_mem=limit + 1)
    with pytest.raises(ValueError, match="shared_mem"):
        k(1, 64, (y, 0), shared_mem=1 << 40)


@cpu_only
@pytest.mark.parametrize("src, name", [(SHARED, "shift"), (SHARED_LOOP, "fill")])
def test_extern_shared_with_shared_mem_unset(src, name):
    out = expect_in_child(f"""
k = garray.RawKernel({src!r}, {name!r})
y = garray.zeros(64, dtype="float32")
try:
    k(1, 64, (y, numpy.int32(64)))
finally:
    k(1, 64, (y, numpy.int32(64)), shared_mem=256)     # the process still works
    print("after", y.get()[:2].tolist())
""", "RuntimeError", "dynamic shared memory (shared_mem=0 bytes)")
    assert "after [" in out


@cpu_only
@pytest.mark.parametrize("src, name", [(SHARED, "shift"), (SHARED_LOOP, "fill")])
def test_shared_overrun_is_an_error(src, name):
    expect_in_child(f"""
k = garray.RawKernel({src!r}, {name!r})
y = garray.zeros(1024, dtype="float32")
k(1, 1024, (y, numpy.int32(1024)), shared_mem=1024)   # 4096 bytes needed
""", "RuntimeError", "past the end of its dynamic shared memory (shared_mem=1024")


def test_shared_memory_results():
    k = garray.RawKernel(SHARED, "shift")
    y = garray.zeros(2 * 64, dtype="float32")
    k(2, 64, (y, numpy.int32(5)), shared_mem=64 * 4)
    t = numpy.arange(64)
    assert y.get().tolist() == ((t + 1) % 64 + 5).astype("float32").tolist() * 2


# ---- fiber stacks ------------------------------------------------------------------

BIG = BIG_LOCAL.replace("NFLOATS", str(256 * 1024))      # 1 MiB of locals per thread


@cpu_only
def test_large_local_array_on_a_fiber_is_an_error():
    out = expect_in_child(f"""
k = garray.RawKernel({BIG!r}, "big")
y = garray.zeros(32, dtype="float32")
try:
    k(1, 32, (y,))
finally:
    ok = garray.RawKernel({SHARED!r}, "shift")
    z = garray.zeros(32, dtype="float32")
    ok(1, 32, (z, numpy.int32(0)), shared_mem=128)
    print("after", z.get()[:3].tolist())
""", "RuntimeError", "GARRAY_CPU_FIBER_STACK")
    assert "stack overflowed" in out
    assert "after [1.0, 2.0, 3.0]" in out


@cpu_only
def test_fiber_stack_setting_raises_the_limit():
    out = run_child(f"""
k = garray.RawKernel({BIG!r}, "big")
y = garray.zeros(32, dtype="float32")
k(1, 32, (y,))
print(y.get()[:3].tolist())
""", env={"GARRAY_CPU_FIBER_STACK": "2M"})
    assert "[0.0, 3.0, 6.0]" in out


@cpu_only
@pytest.mark.parametrize("value", ["lots", "12Q", "100", "-5"])
def test_bad_fiber_stack_setting(value):
    expect_in_child(f"""
garray.RawKernel({SHARED!r}, "shift")(1, 32, (garray.zeros(32, dtype="float32"),
                                            numpy.int32(0)), shared_mem=128)
""", "ValueError", "GARRAY_CPU_FIBER_STACK", env={"GARRAY_CPU_FIBER_STACK": value})


@cpu_only
def test_stack_overflow_in_a_second_thread():
    out = run_child(f"""
import threading
k = garray.RawKernel({BIG!r}, "big")
seen = []
def run():
    try:
        k(1, 32, (garray.zeros(32, dtype="float32"),))
    except RuntimeError as e:
        seen.append(str(e))
t = threading.Thread(target=run)
t.start(); t.join()
print("seen", len(seen), "stack overflowed" in seen[0])
""")
    assert "seen 1 True" in out


@cpu_only
def test_shared_size_does_not_outlive_its_launch():
    """A launch gets the shared_mem it was given, not a buffer left by an earlier one."""
    expect_in_child(f"""
k = garray.RawKernel({SHARED_LOOP!r}, "fill")
y = garray.zeros(64, dtype="float32")
k(1, 64, (y, numpy.int32(64)), shared_mem=4096)
k(1, 64, (y, numpy.int32(64)))
""", "RuntimeError", "shared_mem=0 bytes")


# ---- threads -----------------------------------------------------------------------

def test_threads_launch_one_kernel_with_different_shared_mem():
    """Two threads, one RawKernel, different dynamic shared sizes, 200 launches each
    (the sizes also change from launch to launch, and switching threads is frequent)."""
    out = run_child(f"""
import sys, threading
sys.setswitchinterval(1e-6)
k = garray.RawKernel(r'''
extern "C" __global__ void rev(float* y, int m) {{
    extern __shared__ float s[];
    for (int j = threadIdx.x; j < m; j += blockDim.x) s[j] = (float)j;
    __syncthreads();
    y[threadIdx.x] = s[m - 1 - threadIdx.x];
}}''', "rev")
bad = []
def run(m):
    y = garray.zeros(64, dtype="float32")
    for it in range(200):
        mm = m + it % 7
        k(1, 64, (y, numpy.int32(mm)), shared_mem=4 * mm)
        got = y.get()
        if got[0] != mm - 1 or got[63] != mm - 64:
            bad.append((m, it, got[0]))
ts = [threading.Thread(target=run, args=(m,)) for m in (64, 11000)]   # <= 44 KiB
for t in ts: t.start()
for t in ts: t.join()
print("bad", bad[:3])
""")
    assert "bad []" in out


# ---- ElementwiseKernel ---------------------------------------------------------------

def test_elementwise_block_size_limit():
    k = garray.ElementwiseKernel("float32 x", "float32 y", "y = x * 2", "twice")
    x = garray.ones(10, dtype="float32")
    with pytest.raises(ValueError, match="1024"):
        k(x, block_size=2048)
    with pytest.raises(ValueError, match="block_size"):
        k(x, block_size=0)
    assert k(x, block_size=1024).get().tolist() == [2.0] * 10


def test_elementwise_block_size_in_a_child():
    expect_in_child("""
k = garray.ElementwiseKernel("float32 x", "float32 y", "y = x * 2", "twice")
k(garray.ones(4096, dtype="float32"), block_size=2048)
""", "ValueError", "1024")


@cpu_only
def test_elementwise_large_local_array_with_a_barrier():
    expect_in_child(r"""
k = garray.ElementwiseKernel("float32 x", "float32 y",
    "volatile float a[262144]; a[i % 7] = x; __syncwarp(); y = a[i % 7]", "big")
k(garray.ones(64, dtype="float32"))
""", "RuntimeError", "GARRAY_CPU_FIBER_STACK")
