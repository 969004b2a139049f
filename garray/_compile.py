"""The compile layer: kernel sources in ``_kernels/`` -> loaded modules, with caches.

Note [Kernel compilation]
~~~~~~~~~~~~~~~~~~~~~~~~~
1. A *unit* is one kernel file plus a list of template instantiations, given as
   name expressions (``ga::ew2_c<ga::op::add, float, float>``).  One compiler call
   builds every instantiation of a unit, so an op costs one compile for all dtypes.
2. CPU: the unit becomes a C++ translation unit that includes the file with
   ``GARRAY_HOST`` defined and one ``GA_HOST_ENTRY`` per instantiation (an
   ``extern "C" int entry(grid, block, void** args)`` that runs the launch loops);
   g++ builds a shared library, loaded with ctypes once to read the entry addresses.
   The Cython launch path calls those addresses directly (no ctypes per call).
   NVIDIA/AMD: NVRTC/hiprtc compile the same file by name expression.
3. The on-disk cache key hashes the kernel file and every header it includes
   (transitively, so editing one header invalidates only the units that include it),
   the instantiations, the options, the compiler's version and the target arch.
   Files are written to a temporary name and renamed, so concurrent processes never
   see a partial file.  ``GARRAY_CACHE_DIR`` overrides the location.
4. An in-memory dict maps cache keys to loaded modules; the launch layer keeps its
   own per-op C tables, so this dict is off the hot path.
"""

import ctypes
import hashlib
import os
import re
import subprocess
import tempfile
import threading

from ._errors import CompileError

_HERE = os.path.dirname(os.path.abspath(__file__))
_INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
_lock = threading.Lock()
_loaded = {}
_failed = {}      # cache key -> CompileError: a failing unit is not recompiled per call
_file_hashes = {}


def kernel_dir():
    """Directory holding the kernel sources (installed copy, else the source tree)."""
    for cand in (os.path.join(_HERE, "_kernels"), os.path.join(os.path.dirname(_HERE), "_kernels")):
        if os.path.isdir(cand):
            return cand
    raise CompileError("garray's kernel sources (_kernels/) were not found next to the package")


def cache_dir():
    d = os.environ.get("GARRAY_CACHE_DIR")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "garray", "kernels")
    os.makedirs(d, exist_ok=True)
    return d


def source_hash(relpath):
    """Hash of a kernel file and, transitively, every header it includes."""
    h = _file_hashes.get(relpath)
    if h is not None:
        return h
    root = kernel_dir()
    seen, digest = set(), hashlib.sha256()

    def visit(rel, base):
        path = os.path.normpath(os.path.join(base, rel))
        if not os.path.exists(path):
            path = os.path.normpath(os.path.join(root, rel))
        if path in seen:
            return
        seen.add(path)
        with open(path, "rb") as f:
            text = f.read()
        digest.update(os.path.relpath(path, root).encode() + b"\0" + text + b"\0")
        for inc in _INCLUDE_RE.findall(text.decode("utf-8", "replace")):
            visit(inc, os.path.dirname(path))

    visit(relpath, root)
    h = _file_hashes[relpath] = digest.hexdigest()
    return h


def _atomic_write(path, data):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ---- CPU (g++) -------------------------------------------------------------------
_CXX = os.environ.get("CXX", "g++")
# -fvisibility=hidden: a user kernel named like a libc function (`sync`, `send` ...) must
# not be interposed by libc's symbol; only the GA_HOST_ENTRY entries are exported.
_CXX_FLAGS = ["-O2", "-std=c++17", "-shared", "-fPIC", "-fno-math-errno", "-w",
              "-fvisibility=hidden"]
_cxx_version = None


def _compiler_version():
    global _cxx_version
    if _cxx_version is None:
        try:
            out = subprocess.run([_CXX, "--version"], capture_output=True, text=True, timeout=30)
            _cxx_version = out.stdout.splitlines()[0] if out.stdout else _CXX
        except (OSError, subprocess.SubprocessError) as e:
            raise CompileError(f"cpu: the C++ compiler {_CXX!r} could not be run ({e}); "
                               f"install g++ or set CXX") from None
    return _cxx_version


class CpuModule:
    """A compiled CPU unit: entry addresses by name expression (keeps the library loaded)."""

    def __init__(self, lib, entries):
        self.lib = lib
        self.functions = entries
        self._what = lib.ga_host_error_what
        self._what.restype = ctypes.c_char_p

    def error_what(self):
        return self._what().decode()


def compile_cpu(relpath, name_expressions, warp_size):
    """Compile a unit for the CPU device; returns a CpuModule."""
    defines = [f"-DGA_WARP_SIZE={warp_size}", "-DGARRAY_HOST=1"]
    key_src = "\n".join([source_hash(relpath), _compiler_version(), " ".join(_CXX_FLAGS + defines),
                         *name_expressions])
    key = hashlib.sha256(key_src.encode()).hexdigest()[:40]
    mod = _loaded.get(key)
    if mod is not None:
        return mod
    with _lock:
        mod = _loaded.get(key)
        if mod is not None:
            return mod
        if key in _failed:
            raise _failed[key]
        path = os.path.join(cache_dir(), f"cpu-{key}.so")
        if not os.path.exists(path):
            try:
                _build_cpu(relpath, name_expressions, defines, path)
            except CompileError as e:
                _failed[key] = e
                raise
        lib = ctypes.CDLL(path)
        entries = {}
        for i, expr in enumerate(name_expressions):
            entries[expr] = ctypes.cast(getattr(lib, f"ga_entry_{i}"), ctypes.c_void_p).value
        mod = _loaded[key] = CpuModule(lib, entries)
    return mod


def _build_cpu(relpath, name_expressions, defines, path):
    lines = [f'#include "{relpath}"']
    lines += [f"GA_HOST_ENTRY(ga_entry_{i}, {expr})" for i, expr in enumerate(name_expressions)]
    _build_tu("\n".join(lines) + "\n", defines, path,
              f"{relpath} ({len(name_expressions)} instantiations)")


# ---- GPU (NVRTC / hiprtc) -------------------------------------------------------------
def gpu_source(relpath, warp_size):
    """The NVRTC/hiprtc program text for a kernel file."""
    return f"#define GA_WARP_SIZE {warp_size}\n#include \"{relpath}\"\n"


def gpu_compiler(kind):
    """The runtime compiler module for a GPU kind: garray._nvrtc or garray._hiprtc."""
    if kind == "cuda":
        from . import _nvrtc as rtc
    elif kind == "hip":
        from . import _hiprtc as rtc
    else:
        raise ValueError(f"kind: expected 'cuda' or 'hip', got {kind!r}")
    return rtc


def compile_gpu(kind, relpath, name_expressions, arch, warp_size):
    """Compile a unit with NVRTC (kind='cuda') or hiprtc (kind='hip'), cached on disk.

    Returns (binary bytes, {name_expression: lowered name}).
    """
    rtc = gpu_compiler(kind)
    opts = ["-std=c++17"]
    key_src = "\n".join([kind, source_hash(relpath), repr(rtc.identity()), arch, str(warp_size),
                         " ".join(opts), *name_expressions])
    key = hashlib.sha256(key_src.encode()).hexdigest()[:40]
    path = os.path.join(cache_dir(), f"{kind}-{arch}-{key}")
    if os.path.exists(path + ".bin") and os.path.exists(path + ".names"):
        with open(path + ".bin", "rb") as f:
            binary = f.read()
        with open(path + ".names") as f:
            lowered = dict(line.rstrip("\n").split("\t", 1) for line in f if "\t" in line)
        return binary, lowered
    # The program must not share the included file's name (NVRTC: "includes itself").
    mod = rtc.compile(gpu_source(relpath, warp_size), relpath + ".unit", list(name_expressions), opts,
                      arch=arch, include_dirs=[kernel_dir()])
    _atomic_write(path + ".bin", mod.binary)
    _atomic_write(path + ".names", "".join(f"{k}\t{v}\n" for k, v in mod.lowered.items()).encode())
    return mod.binary, mod.lowered


def name_expressions_for_ci():
    """Every (kernel file, [name expressions]) garray instantiates, for CI compile checks."""
    from . import _optable
    return _optable.all_units()


def compile_cpu_source(source, names, warp_size, options=()):
    """Compile a user's HIP-dialect source for the CPU device (RawModule / RawKernel).

    ``names`` are the kernels (or name expressions) to expose; returns a CpuModule.
    """
    defines = [f"-DGA_WARP_SIZE={warp_size}", "-DGARRAY_HOST=1", *options]
    digest = hashlib.sha256("\n".join([source, _compiler_version(), " ".join(_CXX_FLAGS + defines),
                                       source_hash("garray/platform.h"), *names]).encode())
    key = digest.hexdigest()[:40]
    mod = _loaded.get(key)
    if mod is not None:
        return mod
    with _lock:
        if key in _failed:
            raise _failed[key]
        path = os.path.join(cache_dir(), f"cpu-raw-{key}.so")
        if not os.path.exists(path):
            lines = ['#include "garray/platform.h"', "#line 1 \"<RawModule source>\"",
                     host_source(source)]
            entry = "GA_HOST_FIBER_ENTRY" if uses_barriers(source) else "GA_HOST_ENTRY"
            lines += [f"{entry}(ga_entry_{i}, {n})" for i, n in enumerate(names)]
            try:
                _build_tu("\n".join(lines) + "\n", defines, path, "RawModule source")
            except CompileError as e:
                _failed[key] = e
                raise
        lib = ctypes.CDLL(path)
        entries = {n: ctypes.cast(getattr(lib, f"ga_entry_{i}"), ctypes.c_void_p).value
                   for i, n in enumerate(names)}
        mod = _loaded[key] = CpuModule(lib, entries)
    return mod


_BARRIER_RE = re.compile(r"__syncthreads|__syncwarp|__shfl|__ballot|GA_SHFL|GA_BALLOT|"
                         r"GA_SYNCTHREADS")


_EXTERN_SHARED_RE = re.compile(r"extern\s+__shared__\s+([^;\[]+?)\s+(\w+)\s*\[\s*\]\s*;")


def host_source(source):
    """A user kernel source adapted to the CPU runtime: ``extern __shared__ T x[];`` (dynamic
    shared memory, which C++ cannot express) becomes a pointer to the launch's buffer."""
    return _EXTERN_SHARED_RE.sub(r"\1* \2 = (\1*)ga_host::dynamic_shared();", source)


def uses_barriers(source):
    """Whether a kernel source needs the fiber runtime on the CPU (barriers, warp ops)."""
    return _BARRIER_RE.search(source) is not None


def _build_tu(text, defines, path, what):
    root = kernel_dir()
    with tempfile.TemporaryDirectory(prefix="garray-build-") as tmp:
        src = os.path.join(tmp, "unit.cpp")
        with open(src, "w") as f:
            f.write(text)
        out = os.path.join(tmp, "unit.so")
        cmd = [_CXX, *_CXX_FLAGS, *defines, "-I", root, src, "-o", out]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as e:
            raise CompileError(f"cpu: running {_CXX} failed: {e}") from None
        if r.returncode != 0:
            raise CompileError(f"cpu: compiling {what} failed", r.stderr[-20000:])
        with open(out, "rb") as f:
            _atomic_write(path, f.read())
