"""The CPU device at native speed: ahead-of-time kernels and the launch pool.

- Ahead-of-time kernels (garray/_compiler/aot.py): every built-in kernel unit is in the
  library the build made, for both warp sizes, so a fresh process with no C++ compiler
  and an empty kernel cache runs every built-in op.
- The launch pool (cython/_cpu_pool.h): a launch split over several OS threads gives the
  serial result bit for bit, for every layout and family; Python threads computing at
  once (the GIL released around large launches) get correct results.
- GARRAY_CPU_THREADS: a bad value is a ValueError naming it.
"""

import os

import numpy
import pytest

import garray
from garray import _core
from isolated import run_isolated
from xp import assert_xp_close, run_in_threads, sample

on_cpu = garray.default_device().kind == "cpu"
cpu_only = pytest.mark.skipif(not on_cpu, reason="the CPU device's own build and launch pool")


# ---- ahead-of-time kernels ------------------------------------------------------------------

@cpu_only
def test_the_library_holds_every_builtin_unit_for_both_warp_sizes():
    from garray._tables import ops as _optable
    from garray._compiler import gxx, prebuilt
    from garray._tables.family import barrier_kernels
    path, count, why = prebuilt.status()
    if path is None and why == "GARRAY_CPU_AOT=0":
        pytest.skip("GARRAY_CPU_AOT=0: the ahead-of-time library is switched off")
    assert path is not None, why
    missing = []
    for relpath, exprs in _optable.all_units():
        fibers = frozenset(e for e in exprs if e.startswith(barrier_kernels()))
        for warp in (32, 64):
            w = warp if fibers else 32
            flags = " ".join(gxx._CXX_FLAGS + gxx._defines(w, ()))
            if prebuilt.lookup(relpath, gxx.cpu_unit(exprs)[0], w, fibers, flags) is None:
                missing.append((relpath, exprs[0], warp))
    assert not missing, f"{len(missing)} units not in {path}: {missing[:3]}"


# Every family once, in a process with no compiler on PATH and an empty cache: a JIT
# compile would fail (CompileError) or leave a file in the cache.
_EVERY_FAMILY = r'''
import os, numpy, garray
from garray._tables import ops as _optable
from garray._compiler import gxx
def no_compiler(*a, **k):
    raise AssertionError("the C++ compiler was invoked")
gxx._build_tu = no_compiler
x = garray.arange(10) + 1
assert x.get().tolist() == list(range(1, 11))
for name, op in _optable.OPS.items():
    for code in op.compute_codes():
        dt = numpy.dtype(_optable.RECORDS[code].dtype)
        a = garray.asarray(numpy.ones(6, dtype=dt))
        f = getattr(garray, name)
        # an op whose second operand has its own type (ldexp's int exponent) gets one
        b = a if op.in2 is None else garray.asarray(numpy.ones(6, dtype=op.in2))
        r = f(a) if op.nin == 1 else f(a, b[::-1])
        if op.nin == 2:
            f(a[::2], b[1::2]); f(a, b.dtype.type(1))
            if op.in2 is None:
                f(dt.type(1), a)
        else:
            f(a[::2])
for code in range(13):
    src = garray.asarray(numpy.ones((3, 4), dtype=_optable.RECORDS[code].dtype))
    for to in range(13):
        src.astype(_optable.RECORDS[to].dtype); src.T.astype(_optable.RECORDS[to].dtype)
    garray.where(src > 0, src, src.T.T)
    garray.zeros(3, dtype=src.dtype); garray.eye(3, dtype=src.dtype); garray.tril(src)
for sched in ("nb", "cols", "tree"):
    os.environ["GARRAY_REDUCE"] = sched
    for dt in ("bool", "int8", "uint64", "float32", "complex128"):
        m = garray.asarray(numpy.arange(24).reshape(4, 6).astype(dt))
        for red in (garray.sum, garray.prod, garray.max, garray.argmin, garray.any, garray.mean):
            red(m); red(m, axis=0); red(m, axis=1)
        garray.cumsum(m, axis=1); garray.cumprod(m, axis=0)
garray.linspace(0, 1, 7); garray.arange(0.5, 3.0, 0.25)
leftover = os.listdir(os.environ["GARRAY_CACHE_DIR"])
assert not leftover, leftover
print("OK")
'''


@cpu_only
def test_every_builtin_family_runs_with_no_compiler_and_a_fresh_cache(tmp_path):
    from garray._compiler import prebuilt
    if prebuilt.status()[0] is None:
        pytest.skip(f"no ahead-of-time library: {prebuilt.status()[2]}")
    empty = tmp_path / "bin"
    empty.mkdir()
    cache = tmp_path / "cache"
    cache.mkdir()
    env = {"PATH": str(empty), "CXX": str(empty / "no-such-compiler"),
           "GARRAY_CACHE_DIR": str(cache), "GARRAY_DEVICE": "cpu"}
    _, out, _ = run_isolated(_EVERY_FAMILY, env=env, timeout=600)
    assert out.strip().endswith("OK")


@cpu_only
def test_aot_off_builds_through_the_cache(tmp_path):
    code = r'''
import garray
from garray._compiler import prebuilt
assert prebuilt.status() == (None, 0, "GARRAY_CPU_AOT=0"), prebuilt.status()
import os
assert (-garray.arange(3.0)).get().tolist() == [-0.0, -1.0, -2.0]
assert any(n.endswith(".so") for n in os.listdir(os.environ["GARRAY_CACHE_DIR"]))
print("OK")
'''
    _, out, _ = run_isolated(code, env={"GARRAY_CPU_AOT": "0", "GARRAY_CACHE_DIR": str(tmp_path),
                                        "GARRAY_DEVICE": "cpu"})
    assert out.strip().endswith("OK")


# ---- the launch pool -----------------------------------------------------------------------

@pytest.fixture
def pool():
    """Run with the pool at `threads` and every launch split (min_work 0); restored after."""
    old = _core._debug_cpu_pool()

    def use(threads, min_work=0):
        _core._debug_cpu_pool(threads, min_work)
    yield use
    _core._debug_cpu_pool(*old)


def _cases():
    n = 70_000       # several 16K-element blocks
    big = sample((2 * n,), "float32")
    m = sample((300, 257), "float64")
    row = sample((257,), "float64")
    col = sample((300, 1), "float64")
    ints = (numpy.arange(3 * n) % 251).astype("int16")
    return {
        "contiguous": lambda xp: xp.add(xp.asarray(big[:n]), xp.asarray(big[n:])),
        "scalar": lambda xp: xp.multiply(xp.asarray(big), numpy.float32(1.5)),
        "strided": lambda xp: xp.subtract(xp.asarray(big)[::2], xp.asarray(big)[1::2]),
        "broadcast": lambda xp: xp.asarray(m) + xp.asarray(row) * xp.asarray(col),
        "transposed": lambda xp: xp.exp(xp.asarray(m).T),
        "where": lambda xp: xp.where(xp.asarray(m) > 0, xp.asarray(m), xp.asarray(row)),
        "cast": lambda xp: xp.asarray(ints)[::3].astype("float32"),
        "sum-all": lambda xp: xp.sum(xp.asarray(m)),
        "sum-axis0": lambda xp: xp.sum(xp.asarray(m), axis=0),
        "max-axis1": lambda xp: xp.max(xp.asarray(m), axis=1),
        "argmin-axis0": lambda xp: xp.argmin(xp.asarray(m), axis=0),
        "cumsum-axis1": lambda xp: xp.cumsum(xp.asarray(m), axis=1),
        "int-sum": lambda xp: xp.sum(xp.asarray(ints).reshape(3, -1), axis=1),
        "arange": lambda xp: xp.arange(3.0, 3.0 + n, dtype="float64"),
        "linspace": lambda xp: xp.linspace(-1.0, 1.0, n),
        "tril": lambda xp: xp.tril(xp.asarray(m).T),
    }


@cpu_only
@pytest.mark.parametrize("schedule", ["auto", "tree"])
@pytest.mark.parametrize("case", sorted(_cases()))
def test_a_split_launch_is_the_serial_launch_bit_for_bit(pool, case, schedule, monkeypatch):
    monkeypatch.setenv("GARRAY_REDUCE", schedule)
    fn = _cases()[case]
    pool(1)
    serial = fn(garray).get()
    for threads in (2, 3, 8):
        pool(threads)
        got = fn(garray)
        assert got.get().tobytes() == serial.tobytes(), f"{threads} threads"
    assert_xp_close(got, fn(numpy), rtol=1e-5 if got.dtype == numpy.float32 else 1e-12)


@cpu_only
def test_a_launch_too_small_for_the_pool_stays_serial_and_correct(pool):
    pool(4, 1 << 16)
    a = garray.asarray(numpy.arange(1000.0))
    assert_xp_close(a * 2 + 1, numpy.arange(1000.0) * 2 + 1)


def test_eight_python_threads_computing_large_ops_at_once(pool):
    if on_cpu:
        pool(2, 1 << 14)
    n = 1 << 17

    def work(seed):
        rng = numpy.random.default_rng(seed)
        for _ in range(4):
            h = rng.standard_normal(n)
            g = garray.asarray(h)
            r = garray.sqrt(garray.abs(g) * 3.0 + 1.0) - g[::-1]
            s = float(garray.sum(r))
            expected = numpy.sqrt(numpy.abs(h) * 3.0 + 1.0) - h[::-1]
            numpy.testing.assert_allclose(r.get(), expected, rtol=1e-12)
            assert abs(s - expected.sum()) <= 1e-9 * numpy.abs(expected).sum()

    run_in_threads(work, 8)


@cpu_only
@pytest.mark.parametrize("value", ["0", "-3", "two", "1.5", " "])
def test_a_bad_thread_count_is_a_value_error_naming_the_variable(value):
    code = r'''
import garray
try:
    garray.ones(1 << 20) + 1
except ValueError as e:
    print("ERR", e)
else:
    print("RAN")
'''
    _, out, _ = run_isolated(code, env={"GARRAY_CPU_THREADS": value, "GARRAY_DEVICE": "cpu"})
    if value.strip():
        assert "ERR GARRAY_CPU_THREADS" in out and "positive integer" in out, out
    else:
        assert "RAN" in out, out          # empty: the default


@cpu_only
def test_the_thread_count_is_read_from_the_environment():
    code = r'''
import garray
from garray import _core
garray.ones(1 << 20) + 1
print("THREADS", _core._debug_cpu_pool()[0])
'''
    _, out, _ = run_isolated(code, env={"GARRAY_CPU_THREADS": "3", "GARRAY_DEVICE": "cpu"})
    assert "THREADS 3" in out, out


@cpu_only
def test_the_pool_leaves_the_cores_other_processes_hold(pool):
    """With another process's thread runnable, a launch takes at most the other cores
    (Note [CPU launch pool] 5): the count the pool reads, and the same bits as a forced
    split (which blocks compute what never changes)."""
    import subprocess
    import sys
    import time
    cores = os.cpu_count()
    assert 1 <= _core._debug_pool_free_cores() <= cores
    h = numpy.random.default_rng(3).standard_normal(1 << 20)
    g = garray.asarray(h)
    pool(cores)                       # forced: every launch split over every core
    forced = [float(garray.sum(g)), garray.exp(g).get()]
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)               # past the pool's 20 ms between readings
        free = _core._debug_pool_free_cores()
        _core._debug_cpu_pool(adapt=True)
        adapted = [float(garray.sum(g)), garray.exp(g).get()]
    finally:
        busy.kill()
        busy.wait()
    assert free <= max(1, cores - 1)
    assert adapted[0] == forced[0]
    numpy.testing.assert_array_equal(adapted[1], forced[1])


@cpu_only
def test_a_forked_child_launches_on_its_own_pool():
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    code = r'''
import os, numpy, garray
from garray import _core
_core._debug_cpu_pool(2, 0)
a = garray.asarray(numpy.arange(200_000.0))
assert float((a + 1).sum()) == float((numpy.arange(200_000.0) + 1).sum())
pid = os.fork()
if pid == 0:
    ok = float((a * 2).sum()) == float((numpy.arange(200_000.0) * 2).sum())
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
print("CHILD", os.waitstatus_to_exitcode(status))
'''
    _, out, _ = run_isolated(code, env={"GARRAY_DEVICE": "cpu"}, timeout=120)
    assert "CHILD 0" in out, out


# A built-in-style barrier kernel with a bug: thread 0 of block 5 skips the barrier.
_DIVERGENT = r'''
#include "garray/platform.h"
__global__ void divergent(int* out) {
    if (blockIdx.x == 5 && threadIdx.x == 0) return;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
GA_HOST_FIBER_ENTRY(ga_entry_0, divergent)
'''


@cpu_only
@pytest.mark.parametrize("threads", [1, 2, 4])
def test_a_divergent_barrier_in_a_split_launch_is_reported_not_a_hang(threads):
    import ctypes
    from garray._compiler import cache, gxx
    lib = cache.load_library(gxx._build_tu(_DIVERGENT, gxx._defines(32, ()), "divergent"),
                             "divergent")
    grid, block = 16, 32
    out = (ctypes.c_int * (grid * block))()
    ptr = ctypes.c_void_p(ctypes.addressof(out))
    args = (ctypes.c_void_p * 1)(ctypes.addressof(ptr))
    entry = ctypes.cast(lib.ga_entry_0_r, ctypes.c_void_p).value
    err = _core._debug_pool_run(entry, grid, block, ctypes.addressof(args), threads)
    assert err == 1                                    # KERNEL_BUG
    what = lib.ga_host_error_what
    what.restype = ctypes.c_char_p
    assert b"__syncthreads not reached" in what()
    # the other blocks ran (or were stopped): never past the grid
    assert all(v in (0, 1) for v in out)
