"""The on-disk kernel cache under damage, unusable directories and concurrent builders.

Every case runs garray in a subprocess with its own ``GARRAY_CACHE_DIR``: a damaged
library can kill a process (SIGBUS, SIGSEGV, a dynamic-loader assertion), and here that
is a failed test, not a dead test session.  The subprocesses count compiles by wrapping
the compiler functions, so "rebuilt once" and "not rebuilt per call" are exact counts.
"""

import json
import os
import random
import shutil
import subprocess
import sys
import textwrap
import threading
import time

import pytest

# Runs first in every subprocess: record every warning, count compiles, and report
# what happened as one JSON line.
_PRELUDE = r'''
import json, os, sys, warnings
warnings.simplefilter("always")
_catcher = warnings.catch_warnings(record=True)
_warned = _catcher.__enter__()
import numpy, garray
from garray._compiler import gxx
_builds = []
_build_tu = gxx._build_tu
def _counted_build(*a, **k):
    _builds.append(1)
    return _build_tu(*a, **k)

def report(**extra):
    warned = [f"{w.category.__name__}: {w.message}" for w in _warned]
    print("RESULT " + json.dumps(dict(builds=len(_builds), warnings=warned, **extra)))

gxx._build_tu = _counted_build
'''

# The op every CPU case runs: one kernel unit (negative, among the quickest to build),
# checked against NumPy.
_OP = '''
x = numpy.arange(4.0) - 2
assert (-garray.asarray(x)).get().tolist() == (-x).tolist()
'''


def _run(cache, body, timeout=600):
    """Run ``_PRELUDE + body`` with GARRAY_CACHE_DIR=cache on the CPU device; returns
    the subprocess's report.  A crash or an exception fails the test with its stderr."""
    proc = _start(cache, body)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"garray hung for {timeout} s:\n{err[-3000:]}")
    return _result(proc, out, err)


def _start(cache, body):
    # GARRAY_CPU_AOT=0: built-in ops compile through the cache (the JIT under test here)
    # instead of coming from the ahead-of-time library
    e = dict(os.environ, GARRAY_CACHE_DIR=str(cache), GARRAY_DEVICE="cpu", GARRAY_CPU_AOT="0")
    return subprocess.Popen([sys.executable, "-c", _PRELUDE + textwrap.dedent(body)],
                            env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _result(proc, out, err):
    how = (f"was killed by signal {-proc.returncode}" if proc.returncode < 0 else
           f"exited with status {proc.returncode}")
    assert proc.returncode == 0, f"garray {how}:\n{err[-3000:]}"
    lines = [ln for ln in out.splitlines() if ln.startswith("RESULT ")]
    assert lines, f"no report from the subprocess:\n{out[-2000:]}\n{err[-2000:]}"
    return json.loads(lines[-1][len("RESULT "):])


def _cache_warnings(result):
    return [w for w in result["warnings"] if w.startswith("KernelCacheWarning")]


def _entries(cache, suffix):
    return sorted(os.path.join(cache, n) for n in os.listdir(cache) if n.endswith(suffix))


@pytest.fixture(scope="module")
def cpu_cache(tmp_path_factory):
    """A cache directory holding one op's library, built once for this module."""
    d = tmp_path_factory.mktemp("cpu-cache")
    r = _run(d, _OP + "report()")
    assert r["builds"] == 1 and not _cache_warnings(r), r
    assert len(_entries(d, ".so")) == 1
    return d


def _copy(src, dst):
    shutil.copytree(src, dst)
    return dst


# ---- damaged entries --------------------------------------------------------------------

def _truncate(data):
    return data[:len(data) // 2]


def _zero(data):
    return b""


def _flip(data):
    rng, out = random.Random(7), bytearray(data)
    for _ in range(64):
        out[rng.randrange(len(data) // 4, 3 * len(data) // 4)] ^= 0xFF
    return bytes(out)


def _garbage(data):
    return random.Random(11).randbytes(len(data))


def _flip_one_bit(data):
    out = bytearray(data)
    out[len(data) // 2] ^= 0x10
    return bytes(out)


DAMAGE = {"truncated": _truncate, "zero-length": _zero, "bytes-flipped": _flip,
          "garbage": _garbage, "one-bit": _flip_one_bit}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_library_is_rebuilt_and_replaced(cpu_cache, tmp_path, damage):
    """A damaged .so is never handed to dlopen: one warning naming it, one rebuild, the
    entry replaced by a good one, and the next process loads that without a warning."""
    cache = _copy(cpu_cache, tmp_path / "cache")
    (path,) = _entries(cache, ".so")
    with open(path, "rb") as f:
        good = f.read()
    with open(path, "wb") as f:
        f.write(DAMAGE[damage](good))

    r = _run(cache, _OP + "report()")
    warned = _cache_warnings(r)
    assert r["builds"] == 1, r
    assert len(warned) == 1 and path in warned[0] and "damaged" in warned[0], r

    again = _run(cache, _OP + "report()")     # the entry was replaced by a good one
    assert again["builds"] == 0 and not _cache_warnings(again), again


def test_a_directory_in_place_of_an_entry_is_survived(cpu_cache, tmp_path):
    """An entry's name taken by a directory: rebuilt, kept elsewhere, no crash."""
    cache = _copy(cpu_cache, tmp_path / "cache")
    (path,) = _entries(cache, ".so")
    os.unlink(path)
    os.mkdir(path)
    r = _run(cache, _OP + _OP + "report()")
    assert r["builds"] == 1, r
    assert any(path in w for w in _cache_warnings(r)), r


def test_a_library_truncated_in_place_while_loaded_keeps_running(cpu_cache, tmp_path):
    """Truncating a mapped file unmaps its pages from every process using it (SIGBUS at
    the next instruction fetched from them); a library loaded from its own private copy
    does not share the cache file's pages."""
    cache = _copy(cpu_cache, tmp_path / "cache")
    body = _OP + textwrap.dedent('''
        for path in os.listdir(os.environ["GARRAY_CACHE_DIR"]):
            with open(os.path.join(os.environ["GARRAY_CACHE_DIR"], path), "r+b") as f:
                f.truncate(0)
        for dtype in ("float64", "float32", "int64", "int8"):
            y = numpy.arange(100, dtype=dtype)
            assert (-garray.asarray(y)).get().tolist() == (-y).tolist()
        report()
        ''')
    r = _run(cache, body)
    assert r["builds"] == 0, r


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_in_place_of_an_entry_does_not_hang(cpu_cache, tmp_path):
    """Opening a FIFO for reading blocks until a writer comes: garray must not wait."""
    cache = _copy(cpu_cache, tmp_path / "cache")
    (path,) = _entries(cache, ".so")
    os.unlink(path)
    os.mkfifo(path)
    r = _run(cache, _OP + "report()", timeout=120)
    assert r["builds"] == 1 and any(path in w for w in _cache_warnings(r)), r
    again = _run(cache, _OP + "report()")     # the pipe was replaced by a good entry
    assert again["builds"] == 0 and not _cache_warnings(again), again


def test_a_library_replaced_at_the_same_path_in_one_process_is_reloaded(tmp_path):
    """dlopen hands back an already-loaded library for a path it has seen, so loading the
    cache file by its path would keep running the old code after the entry is replaced.
    Two builds under one entry name in one process must give two libraries."""
    body = r'''
    import ctypes
    from garray._compiler import cache
    src = ('#include "garray/platform.h"\n'
           'extern "C" __global__ void k(int* out) {{ *out = {v}; }}\n'
           'GA_HOST_ENTRY(ga_entry_0, k)\n')
    def run(mod):
        out = ctypes.c_int(0)
        ptr = ctypes.c_void_p(ctypes.addressof(out))
        args = (ctypes.c_void_p * 1)(ctypes.addressof(ptr))
        fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p)(
            mod.functions["k"])
        assert fn(1, 1, args) == 0
        return out.value
    flags = ["-DGA_WARP_SIZE=32", "-DGARRAY_HOST=1"]
    first = gxx._load_unit("cpu-raw-same-name.so", "test-key-1", lambda: src.format(v=1),
                           flags, ["k"], "first")
    os.unlink(os.path.join(cache.cache_dir(), "cpu-raw-same-name.so"))
    second = gxx._load_unit("cpu-raw-same-name.so", "test-key-2", lambda: src.format(v=2),
                            flags, ["k"], "second")
    report(values=[run(first), run(second)])
    '''
    r = _run(tmp_path / "cache", body)
    assert r["builds"] == 2 and r["values"] == [1, 2], r


def test_files_orphaned_by_killed_writers_are_removed(tmp_path):
    """A process killed between writing its temporary file and renaming (or unlinking)
    it leaves the file behind; an hour later the next writer removes it."""
    cache = tmp_path / "cache"
    cache.mkdir()
    orphans = [cache / ".tmp-123-0-deadbeef", cache / ".load-123-1-abcdefgh.so"]
    live = cache / ".tmp-456-0-cafecafe"
    for p in orphans + [live]:
        p.write_bytes(b"partial")
    old = time.time() - 2 * 3600
    for p in orphans:
        os.utime(p, (old, old))
    r = _run(cache, _OP + "report()")
    assert r["builds"] == 1, r
    assert not any(p.exists() for p in orphans) and live.exists(), os.listdir(cache)


# ---- directories that cannot be used ------------------------------------------------------

def _under_a_file(tmp_path):
    (tmp_path / "file").write_text("not a directory")
    return str(tmp_path / "file" / "cache"), str(tmp_path / "file")


def _is_a_file(tmp_path):
    (tmp_path / "file").write_text("not a directory")
    return str(tmp_path / "file"), str(tmp_path / "file")


def _under_proc(tmp_path):
    # /proc refuses new directories even to root, for whom chmod proves nothing
    return "/proc/garray-kernel-cache", "/proc/garray-kernel-cache"


def _exists_unwritable(tmp_path):
    # a directory that exists (makedirs succeeds) but takes no files: only writes fail
    return "/proc/self", "/proc/self"


BAD_DIRS = {"under-a-file": _under_a_file, "is-a-file": _is_a_file,
            "under-proc": _under_proc, "exists-unwritable": _exists_unwritable}


@pytest.mark.parametrize("where", list(BAD_DIRS))
def test_an_unusable_cache_dir_falls_back_with_one_warning(tmp_path, where):
    """Kernels still compile and run, one warning names the directory and the reason, and
    a failed write does not make every call compile again."""
    cache, shown = BAD_DIRS[where](tmp_path)
    if cache.startswith("/proc/") and not os.path.isdir("/proc/self"):
        pytest.skip("no /proc here")
    body = '''
    x = numpy.arange(4.0) - 2
    for _ in range(3):
        assert (-garray.asarray(x)).get().tolist() == (-x).tolist()
        assert garray.abs(garray.asarray(x)).get().tolist() == numpy.abs(x).tolist()
    from garray._compiler import cache
    report(write_dir=cache.cache_dir())
    '''
    r = _run(cache, body)
    warned = _cache_warnings(r)
    assert r["builds"] == 2, r          # negative and abs, once each
    assert len(warned) == 1, r
    assert shown in warned[0] and "cannot be used" in warned[0], warned
    assert r["write_dir"] and not r["write_dir"].startswith(shown), r
    assert not os.path.exists(r["write_dir"]), "the private fallback outlived its process"


def test_gpu_images_are_kept_in_memory_when_no_directory_is_writable(tmp_path):
    """No usable cache dir and no temporary dir: the image is compiled once and kept."""
    kind, arch = _gpu_compiler()
    body = f'''
    import tempfile
    tempfile.tempdir = "/proc/garray-no-tmp"
    from garray import _compiler
    from garray._tables import ops as _optable
    rtc = _compiler.gpu_compiler("{kind}")
    compiles = []
    real = rtc.compile
    rtc.compile = lambda *a, **k: compiles.append(1) or real(*a, **k)
    f, exprs = _optable.OPS["multiply"].unit()
    results = [_compiler.compile_gpu("{kind}", f, exprs[:2], "{arch}", 64) for _ in range(3)]
    assert all(r == results[0] for r in results)
    report(compiles=len(compiles), write_dir=_compiler.cache_dir())
    '''
    r = _run("/proc/garray-kernel-cache", body)
    warned = _cache_warnings(r)
    assert r["compiles"] == 1 and r["write_dir"] is None, r
    assert len(warned) == 1 and "memory" in warned[0], r


# ---- concurrent builders ------------------------------------------------------------------

@pytest.mark.parametrize("start", ["empty", "damaged"])
def test_two_processes_building_one_entry_both_succeed(cpu_cache, tmp_path, start):
    """Two processes that find the entry missing (or damaged) at the same moment both
    build it, both publish it by rename, and both run; the entry ends up verified."""
    if start == "empty":
        cache = tmp_path / "cache"
        cache.mkdir()
    else:
        cache = _copy(cpu_cache, tmp_path / "cache")
        (path,) = _entries(cache, ".so")
        with open(path, "r+b") as f:
            f.truncate(os.path.getsize(path) // 3)
    go = tmp_path / "go"
    body = textwrap.dedent(f'''
        import time
        while not os.path.exists({str(go)!r}):
            time.sleep(0.005)
        ''') + _OP + "report()"
    procs = [_start(cache, body) for _ in range(2)]
    time.sleep(1.0)             # both past their imports, waiting at the line
    go.write_text("")
    results = [_result(p, *p.communicate(timeout=600)) for p in procs]
    assert all(r["builds"] == 1 for r in results), results
    assert len(_entries(cache, ".so")) == 1
    assert not [n for n in os.listdir(cache) if n.startswith(".")], os.listdir(cache)
    again = _run(cache, _OP + "report()")     # what the race left behind is good
    assert again["builds"] == 0 and not _cache_warnings(again), again


# ---- GPU images (compile-only: no GPU needed) ----------------------------------------------

def _gpu_compiler():
    """(kind, arch) of a runtime compiler present here, else skip."""
    from garray._compiler import hiprtc, nvrtc
    for kind, arch, rtc in (("hip", "gfx90a", hiprtc), ("cuda", "sm_90", nvrtc)):
        if rtc.available()[0]:
            return kind, arch
    pytest.skip("neither hiprtc nor NVRTC is installed: " + nvrtc.available()[1])


_GPU_UNIT = '''
from garray import _compiler
from garray._tables import ops as _optable
rtc = _compiler.gpu_compiler("{kind}")
compiles = []
real = rtc.compile
rtc.compile = lambda *a, **k: compiles.append(1) or real(*a, **k)
f, exprs = _optable.OPS["multiply"].unit()
binary, lowered = _compiler.compile_gpu("{kind}", f, exprs[:2], "{arch}", 64)
import hashlib
report(compiles=len(compiles), binary=hashlib.sha256(binary).hexdigest(), lowered=lowered)
'''


@pytest.fixture(scope="module")
def gpu_cache(tmp_path_factory):
    kind, arch = _gpu_compiler()
    d = tmp_path_factory.mktemp("gpu-cache")
    r = _run(d, _GPU_UNIT.format(kind=kind, arch=arch))
    assert r["compiles"] == 1, r
    return d, kind, arch, r


@pytest.mark.parametrize("damage", ["bin-truncated", "bin-bytes-flipped", "bin-zero-length",
                                    "names-garbage"])
def test_a_damaged_gpu_image_is_rebuilt_and_replaced(gpu_cache, tmp_path, damage):
    """A damaged image or names table never reaches the driver: the unit is compiled
    again, the entries replaced, and what comes back is what a fresh compile gives."""
    good_dir, kind, arch, good = gpu_cache
    cache = _copy(good_dir, tmp_path / "cache")
    which, how = damage.split("-", 1)
    (path,) = _entries(cache, "." + which)
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(DAMAGE[how](data))

    r = _run(cache, _GPU_UNIT.format(kind=kind, arch=arch))
    warned = _cache_warnings(r)
    assert r["compiles"] == 1, r
    assert len(warned) == 1 and path in warned[0], r
    assert r["lowered"] == good["lowered"]

    again = _run(cache, _GPU_UNIT.format(kind=kind, arch=arch))
    assert again["compiles"] == 0 and not _cache_warnings(again), again
    assert again["binary"] == r["binary"]


# ---- threads ------------------------------------------------------------------------------

def test_threads_build_different_units_at_once_and_one_unit_once():
    """memoized: builds of different units overlap (each waits for the other here, so a
    single lock around every build deadlocks into a broken barrier), and threads asking
    for one unit share a single build."""
    from garray._compiler import cache
    tag = f"test-threads-{os.getpid()}-{time.monotonic_ns()}"
    both = threading.Barrier(2, timeout=20)
    made, errors = [], []

    def make(name):
        def build():
            made.append(name)
            both.wait()
            return name
        return build

    def ask(key, name):
        try:
            assert cache.memoized(key, make(name)) == name
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=ask, args=(f"{tag}-{n}", n)) for n in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and sorted(made) == ["a", "b"], errors

    started, release, made = threading.Event(), threading.Event(), []

    def slow():
        made.append(1)
        started.set()
        release.wait(20)
        return "unit"

    results = []
    first = threading.Thread(target=lambda: results.append(cache.memoized(tag, slow)))
    first.start()
    started.wait(20)
    second = threading.Thread(target=lambda: results.append(cache.memoized(tag, slow)))
    second.start()
    release.set()
    first.join()
    second.join()
    assert results == ["unit", "unit"] and made == [1]
