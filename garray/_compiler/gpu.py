"""GPU units: one kernel file and its instantiations -> a binary for one arch, cached on disk.

NVRTC and hiprtc compile the same HIP-dialect file by name expression, so one compiler
call builds every instantiation of a unit (an op costs one compile for all dtypes).  The
binary is loaded by the device runtime, not here, so only the bytes and the lowered names
are kept.
"""

from .cache import cache_key, kernel_dir, read_entry, source_hash, write_entry
from .progress import compiling
from .spills import amdgpu_spills, ptxas_spills
from .._tables import ops as _optable

# NVRTC passes -v to ptxas, whose report gives each function's spills (spills.py).
_OPTIONS = {"cuda": ["-std=c++17", "-Xptxas=-v"], "hip": ["-std=c++17"]}


def gpu_source(relpath, warp_size):
    """The NVRTC/hiprtc program text for a kernel file."""
    return f"#define GA_WARP_SIZE {warp_size}\n#include \"{relpath}\"\n"


def gpu_compiler(kind):
    """The runtime compiler module for a GPU kind: ``nvrtc`` or ``hiprtc``.

    Imported on demand so that a CPU-only process never loads vendor bindings.
    """
    if kind == "cuda":
        from . import nvrtc as rtc    # here: a CPU-only process never loads a GPU compiler
    elif kind == "hip":
        from . import hiprtc as rtc   # here: a CPU-only process never loads a GPU compiler
    else:
        raise ValueError(f"kind: expected 'cuda' or 'hip', got {kind!r}")
    return rtc


def _entry(kind, relpath, name_expressions, arch, warp_size):
    rtc = gpu_compiler(kind)
    key = cache_key([kind, source_hash(relpath), repr(rtc.identity()), arch, str(warp_size),
                     " ".join(_OPTIONS[kind]), *name_expressions])
    return rtc, f"{kind}-{arch}-{key}"


def _table(raw):
    return dict(line.split("\t", 1) for line in raw.decode().splitlines() if "\t" in line)


def compile_gpu(kind, relpath, name_expressions, arch, warp_size):
    """Compile a unit with NVRTC (kind='cuda') or hiprtc (kind='hip'), cached on disk.

    Returns (binary bytes, {name_expression: lowered name}).
    """
    rtc, name = _entry(kind, relpath, name_expressions, arch, warp_size)
    # Three entries, each verified on its own (cache.read_entry); a missing or damaged
    # one rebuilds all (hip's spills come back from the binary).  The image goes to the
    # driver as these verified bytes.
    binary, names = read_entry(name + ".bin"), read_entry(name + ".names")
    if binary is not None and names is not None:
        lowered = _table(names)
        if all(e in lowered for e in name_expressions):
            if read_entry(name + ".spills") is not None:
                return binary, lowered
            if kind == "hip":       # an entry from before spills were kept: they are in it
                _write_spills(name, amdgpu_spills(binary))
                return binary, lowered
    # The program must not share the included file's name (NVRTC: "includes itself").
    with compiling(f"{relpath} ({len(name_expressions)} instantiations)", f"{kind} {arch}"):
        mod = rtc.compile(gpu_source(relpath, warp_size), relpath + ".unit",
                          list(name_expressions), _OPTIONS[kind], arch=arch,
                          include_dirs=[kernel_dir()])
    write_entry(name + ".bin", mod.binary)
    write_entry(name + ".names", "".join(f"{k}\t{v}\n" for k, v in mod.lowered.items()).encode())
    _write_spills(name, ptxas_spills(mod.log) if kind == "cuda" else amdgpu_spills(mod.binary))
    return mod.binary, mod.lowered


def _write_spills(name, spills):
    write_entry(name + ".spills", "".join(f"{k}\t{v}\n" for k, v in spills.items()).encode())


def unit_spills(kind, relpath, name_expressions, arch, warp_size):
    """{lowered name: spill bytes per thread, at most} of a unit (spills.py), compiling
    it if the cache does not hold it."""
    compile_gpu(kind, relpath, name_expressions, arch, warp_size)
    _, name = _entry(kind, relpath, name_expressions, arch, warp_size)
    raw = read_entry(name + ".spills")
    return {k: int(v) for k, v in _table(raw or b"").items()}


def name_expressions_for_ci():
    """Every (kernel file, [name expressions]) garray instantiates, for CI compile checks."""
    return _optable.all_units()
