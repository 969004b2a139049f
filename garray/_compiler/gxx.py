"""The CPU device's compiler: kernel units and user sources -> shared libraries, via g++.

The CPU device runs the same HIP-dialect kernels as the GPUs.  A unit becomes a C++
translation unit that includes the kernel file with ``GARRAY_HOST`` defined and one
``GA_HOST_ENTRY`` per instantiation (an ``extern "C" int entry(grid, block, void** args)``
that runs the launch loops); g++ builds a shared library, loaded with ctypes once to read
the entry addresses.  The Cython launch path calls those addresses directly, so no ctypes
call happens per launch.
"""

import copy
import ctypes
import os
import re
import shlex
import subprocess
import tempfile

from .._errors import CompileError
from .cache import (cache_key, kernel_dir, load_library, memoized, read_entry, source_hash,
                    write_entry)
from .progress import compiling, source_label
from . import prebuilt
from .. import _env, _sanitizer
from .._tables.family import barrier_kernels
from .._tables.ops import cpu_alias

_CXX = os.environ.get("CXX", "g++")
# -fvisibility=hidden: a user kernel named like a libc function (`sync`, `send` ...) must
# not be interposed by libc's symbol; only the GA_HOST_ENTRY entries are exported.
# -fvect-cost-model=cheap: -O2's default model (very-cheap) vectorises no loop that needs a
# run-time alias check, which is every out = f(a, b) loop (garray/loops.h, Note [CPU inner
# loops]); -O3 vectorises the same loops at a longer compile.
_CXX_FLAGS = ["-O2", "-fvect-cost-model=cheap", "-std=c++17", "-shared", "-fPIC", "-fno-math-errno", "-w",
              "-fvisibility=hidden"]


_CXX_LIBS = []     # after the source on the command line (the linker's --as-needed)


def _libmvec_flags():
    """-DGA_CPU_LIBMVEC=1 (and -lmvec) where glibc has the vector math library with every
    function garray declares (glibc 2.35 or later on x86-64): the loops then call its AVX2
    exp, log, sin ... (garray/cpu_vector_math.h, Note [CPU vector math]; docs/performance.md).
    Only for x86-64-v3 builds: the baseline ISA keeps the scalar libm calls.  Decided from
    the C library's version, without running the compiler: the ahead-of-time kernels
    (aot.py) must find the same flags in a process where no compiler is installed."""
    try:
        name, version = os.confstr("CS_GNU_LIBC_VERSION").split()
        ok = name == "glibc" and tuple(int(v) for v in version.split(".")[:2]) >= (2, 35)
    except (AttributeError, ValueError, OSError):
        ok = False
    if not ok:
        return []
    _CXX_LIBS.append("-lmvec")
    return ["-DGA_CPU_LIBMVEC=1"]


def link_flags():
    """Libraries a CPU kernel library links (after its objects)."""
    return list(_CXX_LIBS)


def _host_isa_flags():
    """The instruction set to build CPU kernels for: x86-64-v3 (AVX2, FMA) where this CPU
    has it, as NumPy's own loops dispatch at run time; the baseline otherwise.  Kernels
    are built on the machine that runs them, and the flags are part of the cache key.
    -ffp-contract=off keeps a * b + c two roundings (NumPy's results), not one FMA.
    x86-64-v3 builds also call libmvec's vector math where glibc has it (_libmvec_flags),
    and where the CPU has AVX-512F, the Philox rounds on 16-lane vectors (-DGA_CPU_AVX512:
    one function built for it, rng::blocks16 in philox.h; the same words).
    GARRAY_CPU_ISA=avx2 leaves AVX-512 out, =baseline all three."""
    isa = _env.choice("GARRAY_CPU_ISA", ("native", "avx2", "baseline"), "native")
    if isa == "baseline":
        return []
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    have = set(line.split(":", 1)[1].split())
                    if {"avx2", "fma", "bmi2", "movbe"} <= have:
                        wide = isa == "native" and "avx512f" in have
                        return ["-march=x86-64-v3", "-ffp-contract=off", *_libmvec_flags(),
                                *(["-DGA_CPU_AVX512=1"] if wide else [])]
                    break
    except OSError:
        pass
    return []


_CXX_FLAGS += _host_isa_flags()
# GARRAY_CXXFLAGS: extra flags for every CPU kernel (part of the cache key), e.g.
# -fsanitize=address for ci/asan.sh (docs/reliability.md).
_CXX_FLAGS += shlex.split(os.environ.get("GARRAY_CXXFLAGS", ""))
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
    """A compiled CPU unit: entry addresses by name expression (``functions``: the whole
    grid; ``ranges``: blocks [b0, b1), for the launch pool; built-in units only).

    Holding ``lib`` keeps the shared library loaded for as long as the addresses are used.
    """

    def __init__(self, lib, entries, ranges=None, prefix="", symbols=None):
        self.lib = lib
        self.functions = entries
        self.ranges = ranges or {}
        self._symbols = symbols or {}       # name expression -> its entry's symbol
        self._what = getattr(lib, prefix + "ga_host_error_what")
        self._what.restype = ctypes.c_char_p

    def error_what(self):
        return self._what().decode()

    def param_info(self, expr):
        """(sizes, kinds) of the parameters of entry ``expr`` in a build with
        ``GA_PARAM_INFO=1`` (the GPU stubs' stand-ins): each parameter's bytes, and its
        kind, ``b"r"`` a pointer to const, ``b"x"`` another pointer, ``b"s"`` a value
        (cpu_entries.h, GA_HOST_PARAM_INFO)."""
        fn = getattr(self.lib, self._symbols[expr] + "_p")
        sizes, kinds = (ctypes.c_ulonglong * 64)(), ctypes.create_string_buffer(64)
        n = fn(sizes, kinds, 64)
        if not 0 <= n <= 64:
            raise ValueError(f"{expr}: {n} parameters (at most 64 can be described)")
        return tuple(sizes[:n]), kinds.raw[:n]


def _defines(warp_size, extra):
    # Extra macros may come with or without their "-D"; either way they reach the key.
    out = [f"-DGA_WARP_SIZE={warp_size}", "-DGARRAY_HOST=1",
           *(d if d.startswith("-D") else f"-D{d}" for d in extra)]
    return _with_sanitizer(out)


def _with_sanitizer(flags):
    """The sanitizer build's instrumentation after its define (Note [CPU sanitizer]):
    part of the flags, so of the cache key."""
    if "-D" + _sanitizer.DEFINE in flags:
        return flags + _sanitizer.FLAGS
    return flags


def cpu_unit(name_expressions, defines=()):
    """(expressions to build, {expression: the built one serving it}) for a built-in unit:
    without extra defines, instantiations whose CPU code is another's are not built
    again (garray/_tables/ops.py, cpu_alias)."""
    if defines:
        return list(name_expressions), {}
    names = set(name_expressions)
    alias = {e: a for e in name_expressions if (a := cpu_alias(e)) != e and a in names}
    return [e for e in name_expressions if e not in alias], alias


def _with_aliases(mod, alias):
    if not alias:
        return mod
    out = copy.copy(mod)
    out.functions = {**mod.functions, **{e: mod.functions[a] for e, a in alias.items()}}
    out.ranges = {**mod.ranges, **{e: mod.ranges[a] for e, a in alias.items() if a in mod.ranges}}
    out._symbols = {**mod._symbols, **{e: mod._symbols[a] for e, a in alias.items()
                                       if a in mod._symbols}}
    return out


def compile_cpu(relpath, name_expressions, warp_size, defines=(), fibers=None):
    """Compile a unit for the CPU device; returns a CpuModule.

    ``defines`` are extra macros (``"GA_CPU_VECTOR_LOADS=1"``) for variants of a unit;
    they are part of the cache key, so each variant is built and kept separately.
    ``fibers`` are the name expressions of kernels with barriers or warp operations
    (the reduction family's block trees): their entries launch each block on fibers.
    By default the families' barrier slots decide (garray/_tables/family.py).
    """
    if fibers is None:
        fibers = [e for e in name_expressions if e.startswith(barrier_kernels())]
    fibers = frozenset(fibers)
    if not fibers:
        # Built-in kernels without barriers use no warp operation (the reduction family
        # keeps its block trees in separate units), so their code does not depend on the
        # warp size: one build serves every warp size.
        warp_size = 32
    flags = _defines(warp_size, defines)
    name_expressions, alias = cpu_unit(name_expressions, defines)
    if not defines:
        # the ahead-of-time library (aot.py), when it holds this very build
        hit = prebuilt.lookup(relpath, name_expressions, warp_size, fibers,
                              " ".join(_CXX_FLAGS + flags))
        if hit is not None:
            key, lib, entries, prefix = hit

            def make():
                e, r = entries()
                return CpuModule(lib, e, r, prefix=prefix)
            return _with_aliases(memoized(key, make), alias)
    key = cache_key([source_hash(relpath), _compiler_version(), " ".join(_CXX_FLAGS + flags),
                     *name_expressions, "fibers:", *sorted(fibers)])

    def text():
        lines = [f'#include "{relpath}"']
        lines += [f"GA_HOST_FIBER_ENTRY(ga_entry_{i}, {expr})" if expr in fibers else
                  f"GA_HOST_ENTRY(ga_entry_{i}, {expr})"
                  for i, expr in enumerate(name_expressions)]
        lines += [f"GA_HOST_PARAM_INFO(ga_entry_{i}, {expr})"
                  for i, expr in enumerate(name_expressions)]
        return "\n".join(lines) + "\n"

    return _with_aliases(
        _load_unit(f"cpu-{key}.so", key, text, flags, name_expressions,
                   f"{relpath} ({len(name_expressions)} instantiations)", ranges=True), alias)


def compile_cpu_source(source, names, warp_size, options=()):
    """Compile a user's HIP-dialect source for the CPU device (RawModule / RawKernel).

    ``names`` are the kernels (or name expressions) to expose; returns a CpuModule.
    """
    # -fstack-clash-protection: a large frame probes its pages in order, so a fiber's
    # stack overflow hits the guard below the stack rather than a neighbour's stack.
    flags = _with_sanitizer([f"-DGA_WARP_SIZE={warp_size}", "-DGARRAY_HOST=1",
                             "-fstack-clash-protection", *options])
    key = cache_key([source, _compiler_version(), " ".join(_CXX_FLAGS + flags),
                     source_hash("garray/platform.h"), *names])

    def text():
        lines = ['#include "garray/platform.h"', "#line 1 \"<RawModule source>\"",
                 host_source(source, "-D" + _sanitizer.DEFINE in flags)]
        fibers = uses_barriers(source)
        guarded = fibers or uses_dynamic_shared(source)
        lines += [f"GA_HOST_USER_ENTRY(ga_entry_{i}, {int(fibers)}, {int(guarded)}, {n})"
                  for i, n in enumerate(names)]
        return "\n".join(lines) + "\n"

    return _load_unit(f"cpu-raw-{key}.so", key, text, flags, names, "RawModule source",
                      label=source_label(names))


def _load_unit(filename, key, text, flags, names, what, ranges=False, label=None):
    """The CpuModule for ``key``: loaded once per process, built by g++ only when the
    cache has no verified library for it.  ``text()`` is called only to build.

    The library is loaded from the verified bytes (``cache.load_library``), never from the
    cache file: a damaged entry is rebuilt and replaced instead of crashing the loader.
    A real build shows in a notebook's progress display (progress.py, ``label``: what it
    names, ``what`` by default).
    """
    def make():
        payload = read_entry(filename)
        if payload is None:
            with compiling(label or what, "cpu"):
                payload = _build_tu(text(), flags, what)
            write_entry(filename, payload)
        lib = load_library(payload, what)
        def address(name):
            return ctypes.cast(getattr(lib, name), ctypes.c_void_p).value
        entries = {n: address(f"ga_entry_{i}") for i, n in enumerate(names)}
        return CpuModule(lib, entries, {n: address(f"ga_entry_{i}_r")
                                        for i, n in enumerate(names)} if ranges else None,
                         symbols={n: f"ga_entry_{i}" for i, n in enumerate(names)})

    return memoized(key, make)


_BARRIER_RE = re.compile(r"__syncthreads|__syncwarp|__shfl|__ballot|\b__any(_sync)?\s*\(|"
                         r"\b__all(_sync)?\s*\(|GA_SHFL|GA_BALLOT|GA_SYNCTHREADS")
_EXTERN_SHARED_RE = re.compile(r"extern\s+__shared__\s+([^;\[]+?)\s+(\w+)\s*\[\s*\]\s*;")


_STATIC_SHARED_RE = re.compile(r"(\b__shared__\s+[^;{}()=]*?\b(\w+)\s*(?:\[[^\]]*\]\s*)*;)")


def host_source(source, sanitize=False):
    """A user kernel source adapted to the CPU runtime: ``extern __shared__ T x[];`` (dynamic
    shared memory, which C++ cannot express) becomes a pointer to the launch's buffer.
    For the sanitizer build each static ``__shared__`` declaration is followed by
    ``GA_SHARED_VAR(name);`` (Note [CPU sanitizer], 4; the last name of a declaration
    with several)."""
    source = _EXTERN_SHARED_RE.sub(r"\1* \2 = (\1*)ga_host::dynamic_shared();", source)
    if sanitize:
        source = _STATIC_SHARED_RE.sub(r"\1 GA_SHARED_VAR(\2);", source)
    return source


_DYNAMIC_SHARED_RE = re.compile(r"\bextern\s+__shared__\b|\bGA_DYNAMIC_SHARED\b|"
                                r"\bga_host::dynamic_shared\b")


def uses_dynamic_shared(source):
    """Whether a kernel source reads dynamic shared memory: its launches on the CPU then
    place the buffer against a guard page, so an overrun is reported, not heap damage."""
    return _DYNAMIC_SHARED_RE.search(source) is not None


def uses_barriers(source):
    """Whether a kernel source needs the fiber runtime on the CPU: barriers and warp
    operations need every thread of a block alive at once, which plain loops cannot give,
    and fibers cost enough that barrier-free kernels should not pay for them."""
    return _BARRIER_RE.search(source) is not None


def _build_tu(text, defines, what):
    """g++ on one translation unit; returns the shared library's bytes."""
    root = kernel_dir()
    try:
        tmp_dir = tempfile.TemporaryDirectory(prefix="garray-build-")
    except OSError as e:
        raise CompileError(f"cpu: no temporary directory for {_CXX} to build {what} in: "
                           f"{e}") from None
    with tmp_dir as tmp:
        src = os.path.join(tmp, "unit.cpp")
        with open(src, "w") as f:
            f.write(text)
        out = os.path.join(tmp, "unit.so")
        cmds = [[_CXX, *_CXX_FLAGS, *defines, "-I", root, src, "-o", out, *_CXX_LIBS]]
        if "-D" + _sanitizer.DEFINE in defines:
            # The sanitizer build compiles with -fsanitize=thread and links without it:
            # its hooks are the runtime's own, not the TSan runtime (Note [CPU sanitizer]).
            obj = os.path.join(tmp, "unit.o")
            cmds = [[_CXX, *_CXX_FLAGS, *defines, "-I", root, "-c", src, "-o", obj],
                    [_CXX, "-shared", obj, "-o", out, *_CXX_LIBS]]
        for cmd in cmds:
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            except (OSError, subprocess.SubprocessError) as e:
                raise CompileError(f"cpu: running {_CXX} failed: {e}") from None
            if r.returncode != 0:
                raise CompileError(f"cpu: compiling {what} failed", r.stderr[-20000:])
        with open(out, "rb") as f:
            return f.read()
