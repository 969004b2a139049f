"""NVRTC, NVIDIA's runtime compiler, through ctypes: HIP-dialect kernel source -> CUBIN or PTX.

Needs no GPU and no driver, only ``libnvrtc``, so CI compiles every kernel for NVIDIA on a
plain machine.  The library is looked for, in order:

1. ``$GARRAY_NVRTC_LIBRARY`` (a path to ``libnvrtc.so*``), when set;
2. the ``nvidia-cuda-nvrtc`` wheel (``pip install 'nvidia-cuda-nvrtc>=13,<14'``):
   ``nvidia/cu13/lib/libnvrtc.so.13`` (13.x layout) or ``nvidia/cuda_nvrtc/lib/libnvrtc.so.12``
   (12.x layout) under the ``nvidia`` namespace package, newest major first;
3. the system: ``ctypes.util.find_library("nvrtc")``, then ``$CUDA_HOME``/``$CUDA_PATH``
   and ``/usr/local/cuda`` (``lib64``, ``lib``).

API (the same in ``garray._compiler.hiprtc``)::

    available() -> (bool, reason)         never raises
    version() -> (major, minor)           NVRTC's version, e.g. (13, 5)
    identity() -> str                     compiler name, version and library path (cache keys)
    compile(source, name, name_expressions, options, arch="sm_90", include_dirs=())
        -> CompiledModule(binary, lowered, log, arch, format, options, seconds)

``arch="sm_XX"`` gives a CUBIN (``nvrtcGetCUBIN``); ``arch="compute_XX"`` gives PTX (with its
terminating NUL, as ``cuModuleLoadData`` wants); ``sm_90a``-style archs work too.  Options
added here: ``-arch=<arch>``, ``-std=c++17`` (unless ``options`` names a ``-std``) and
``-I<dir>`` per include dir; nothing vendor-specific beyond the arch.  Templates are
instantiated by name expression (``nvrtcAddNameExpression`` before compiling,
``nvrtcGetLoweredName`` after); ``lowered`` maps each expression to its mangled name, the
same name hiprtc gives.  Failure raises ``garray.CompileError`` whose ``log`` is NVRTC's.

What NVRTC predefines (13.5, checked): ``__CUDACC__``, ``__CUDACC_RTC__``, ``__CUDA_ARCH__``,
``__CUDACC_VER_MAJOR__``; not ``__NVCC__``, ``__clang__``, ``__GNUC__``, nor any ``__HIP*``.
It has no standard headers built in: ``<cstdint>``, ``<type_traits>``, ``<limits>``,
``<cmath>`` fail with "could not open source file" unless CCCL's ``<cuda/std/...>`` is on the
include path, so kernel headers must define their own integer types and traits.
``<cuda_fp16.h>``/``<cuda_bf16.h>`` are not built in either: they need the CUDA headers on
the include path (``cuda_include_dirs()`` finds them).  NVRTC is thread-safe per program and
ctypes releases the GIL during the call, so compiles in different threads overlap.
"""

import ctypes
import ctypes.util
import glob
import importlib.util
import os
import re

from .rtc import CompiledModule, RtcLoader, build_options

__all__ = ["CompiledModule", "available", "version", "identity", "compile",
           "library_path", "supported_archs", "cuda_include_dirs"]

KIND = "nvrtc"
DEFAULT_ARCH = "sm_90"
_ARCH_RE = re.compile(r"^(sm|compute)_(\d+)([af]?)$")
_ARCH_OPTIONS = ("-arch", "--gpu-architecture")


# ---- locating and loading libnvrtc -----------------------------------------------------

def _so_version_key(path):
    """Sort key, newest first when reversed: the CUDA major in the path (``/cu13/``) or else
    the soname's major, then the soname's version numbers."""
    m = re.search(r"\.so((?:\.\d+)*)$", path)
    nums = tuple(int(x) for x in m.group(1).split(".")[1:]) if m else ()
    cu = re.search(r"/cu(\d+)/", path)
    return (int(cu.group(1)) if cu else (nums[0] if nums else 0)), nums


def _wheel_candidates():
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    found = []
    for root in spec.submodule_search_locations:
        for pattern in ("*/lib/libnvrtc.so*", "*/lib64/libnvrtc.so*"):
            found += [p for p in glob.glob(os.path.join(root, pattern))
                      if re.search(r"/libnvrtc\.so(\.\d+)*$", p)]
    found = sorted(set(found), key=_so_version_key, reverse=True)
    # one library per directory: prefer the versioned soname over the bare .so
    seen, out = set(), []
    for p in found:
        d = os.path.dirname(p)
        if d not in seen:
            seen.add(d)
            out.append(p)
    return out


def _system_candidates():
    out = []
    name = ctypes.util.find_library("nvrtc")
    if name:
        out.append(name)
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root:
            for sub in ("lib64", "lib"):
                out += sorted(glob.glob(os.path.join(root, sub, "libnvrtc.so*")),
                              key=_so_version_key, reverse=True)
    return [p for p in out if "builtins" not in p and ".alt." not in p]


def _identity(rtc):
    major, minor = rtc.raw_version()
    return f"nvrtc {major}.{minor} {os.path.realpath(rtc.path)}"


_loader = RtcLoader(
    KIND, env="GARRAY_NVRTC_LIBRARY",
    candidates=lambda: _wheel_candidates() + _system_candidates(), output="CUBIN",
    found="NVRTC {major}.{minor} from {path}",
    missing=("nvrtc: libnvrtc not found; pip install 'nvidia-cuda-nvrtc>=13,<14' "
             "or set GARRAY_NVRTC_LIBRARY"),
    identity_of=_identity)
_library = _loader.library
available = _loader.available        # (True, "NVRTC 13.5 from <path>") or (False, reason)
library_path = _loader.library_path
version = _loader.version            # NVRTC's own (major, minor), e.g. (13, 5)
identity = _loader.identity


def supported_archs():
    """The SM numbers this NVRTC compiles for, e.g. ``[75, 80, ..., 90, 100, 120]``."""
    rtc = _library()
    n = ctypes.c_int()
    if rtc.lib.nvrtcGetNumSupportedArchs(ctypes.byref(n)) != 0:
        return []
    archs = (ctypes.c_int * n.value)()
    if rtc.lib.nvrtcGetSupportedArchs(archs) != 0:
        return []
    return list(archs)


def cuda_include_dirs():
    """Directories holding ``cuda_fp16.h`` (needed only by kernels that include CUDA headers):
    an ``include/`` under the ``nvidia`` wheels (``nvidia-cuda-runtime``), ``$CUDA_HOME``,
    ``$CUDA_PATH`` or ``/usr/local/cuda``.  May be empty."""
    roots = []
    try:
        spec = importlib.util.find_spec("nvidia")
        roots += list(spec.submodule_search_locations or []) if spec else []
    except (ImportError, ValueError):
        pass
    dirs = []
    for r in roots:
        dirs += sorted(os.path.dirname(p) for p in glob.glob(os.path.join(r, "*", "include",
                                                                          "cuda_fp16.h")))
    for r in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if r and os.path.exists(os.path.join(r, "include", "cuda_fp16.h")):
            dirs.append(os.path.join(r, "include"))
    return list(dict.fromkeys(dirs))


def compile(source, name, name_expressions, options=(), arch=DEFAULT_ARCH, include_dirs=()):
    """Compile ``source`` (HIP/CUDA kernel dialect) with NVRTC.

    ``name`` names the program in the log (e.g. ``"elementwise.hip"``);
    ``name_expressions`` are the template instantiations to emit, e.g. ``["axpy<float>"]``;
    ``arch`` is ``sm_XX`` (CUBIN) or ``compute_XX`` (PTX).  Raises ``CompileError`` (with
    NVRTC's log) when compilation fails, ``BackendUnavailableError`` when NVRTC is missing,
    ``ValueError`` for a malformed arch.
    """
    m = _ARCH_RE.match(arch)
    if not m:
        raise ValueError(f"nvrtc: arch must look like 'sm_90' (CUBIN) or 'compute_90' (PTX), "
                         f"got {arch!r}")
    rtc = _library()
    opts = build_options(options, f"-arch={arch}", include_dirs, _ARCH_OPTIONS, KIND)
    if m.group(1) == "sm":
        fmt, outputs = "cubin", ["CUBIN"]
    else:
        fmt, outputs = "ptx", ["PTX"]
    return rtc.compile(source, name, list(name_expressions), opts, arch, fmt, outputs)
