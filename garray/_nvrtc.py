"""NVRTC, NVIDIA's runtime compiler, through ctypes: HIP-dialect kernel source -> CUBIN or PTX.

Needs no GPU and no driver, only ``libnvrtc`` (DESIGN.md section 3), so CI compiles every
kernel for NVIDIA on a plain machine.  The library is looked for, in order:

1. ``$GARRAY_NVRTC_LIBRARY`` (a path to ``libnvrtc.so*``), when set;
2. the ``nvidia-cuda-nvrtc`` wheel (``pip install 'nvidia-cuda-nvrtc>=13,<14'``):
   ``nvidia/cu13/lib/libnvrtc.so.13`` (13.x layout) or ``nvidia/cuda_nvrtc/lib/libnvrtc.so.12``
   (12.x layout) under the ``nvidia`` namespace package, newest major first;
3. the system: ``ctypes.util.find_library("nvrtc")``, then ``$CUDA_HOME``/``$CUDA_PATH``
   and ``/usr/local/cuda`` (``lib64``, ``lib``).

API (the same in ``garray._hiprtc``)::

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
import threading
import time
from dataclasses import dataclass, field

from ._errors import BackendUnavailableError, CompileError

__all__ = ["CompiledModule", "available", "version", "identity", "compile",
           "library_path", "supported_archs", "cuda_include_dirs"]

KIND = "nvrtc"
DEFAULT_ARCH = "sm_90"
_ARCH_RE = re.compile(r"^(sm|compute)_(\d+)([af]?)$")
_ARCH_OPTIONS = ("-arch", "--gpu-architecture")


@dataclass(frozen=True)
class CompiledModule:
    """The result of one runtime compilation.

    binary: the loadable image (CUBIN or PTX for NVRTC, an AMDGPU code object for hiprtc);
    lowered: name expression -> lowered (mangled) kernel name, for module function lookup;
    log: the compiler's log (warnings; usually empty); arch: the target;
    format: "cubin", "ptx" or "hsaco"; options: every option passed to the compiler;
    seconds: wall time of the compile call.
    """

    binary: bytes
    lowered: dict
    log: str
    arch: str
    format: str
    options: tuple = ()
    seconds: float = field(default=0.0, compare=False)


# ---- a runtime-compiler library (NVRTC and hiprtc have the same C API shape) -----------

class _RtcLibrary:
    """ctypes bindings for ``<prefix>CreateProgram`` ... ``<prefix>DestroyProgram``.

    ``prefix`` is "nvrtc" or "hiprtc"; both APIs return an int result code (0 = success)
    and share the signatures used here.  Shared with ``garray._hiprtc``.
    """

    def __init__(self, prefix, path, lib):
        self.prefix = prefix
        self.path = path
        self.lib = lib
        vp, cp, sz = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
        P = ctypes.POINTER
        self._fn = {}
        for name, argtypes in (
                ("GetErrorString", [ctypes.c_int]),
                ("Version", [P(ctypes.c_int), P(ctypes.c_int)]),
                ("CreateProgram", [P(vp), cp, cp, ctypes.c_int, P(cp), P(cp)]),
                ("DestroyProgram", [P(vp)]),
                ("AddNameExpression", [vp, cp]),
                ("CompileProgram", [vp, ctypes.c_int, P(cp)]),
                ("GetProgramLogSize", [vp, P(sz)]),
                ("GetProgramLog", [vp, ctypes.c_char_p]),
                ("GetLoweredName", [vp, cp, P(cp)])):
            fn = getattr(lib, prefix + name)  # AttributeError: not this library
            fn.argtypes = argtypes
            fn.restype = ctypes.c_char_p if name == "GetErrorString" else ctypes.c_int
            self._fn[name] = fn

    def output_getter(self, what):
        """``(size_fn, get_fn)`` for ``<prefix>Get<what>Size`` / ``<prefix>Get<what>``."""
        size_fn = getattr(self.lib, f"{self.prefix}Get{what}Size")
        get_fn = getattr(self.lib, f"{self.prefix}Get{what}")
        size_fn.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
        size_fn.restype = ctypes.c_int
        get_fn.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        get_fn.restype = ctypes.c_int
        return size_fn, get_fn

    def error_string(self, code):
        try:
            s = self._fn["GetErrorString"](code)
        except Exception:  # pragma: no cover - defensive
            s = None
        return s.decode(errors="replace") if s else f"error {code}"

    def raw_version(self):
        major, minor = ctypes.c_int(), ctypes.c_int()
        rc = self._fn["Version"](ctypes.byref(major), ctypes.byref(minor))
        if rc != 0:
            raise BackendUnavailableError(
                f"{self.prefix}: {self.prefix}Version failed: {self.error_string(rc)}")
        return major.value, minor.value

    def compile(self, source, name, name_expressions, options, arch, fmt, outputs,
                fix_log=None, lowered_fallback=None):
        """Create, compile, read back and destroy one program.

        ``outputs`` is a list of names for ``output_getter`` tried in order (the first
        that gives a non-empty result wins).  ``fix_log(log)`` rewrites the log;
        ``lowered_fallback(binary, expressions)`` returns ``{expression: lowered}`` for
        expressions whose ``GetLoweredName`` failed.  Returns a ``CompiledModule``; raises
        ``CompileError`` with the program log on failure.
        """
        f = self._fn
        src = source.encode() if isinstance(source, str) else bytes(source)
        # each expression once: hiprtc 5.2 fails on a repeated one ("redefinition of
        # '__hiprtc_1'")
        exprs = [e.encode() for e in dict.fromkeys(
            e if isinstance(e, str) else bytes(e).decode() for e in name_expressions)]
        opts = [o.encode() for o in options]
        fix_log = fix_log or (lambda s: s)
        prog = ctypes.c_void_p()
        start = time.perf_counter()
        rc = f["CreateProgram"](ctypes.byref(prog), src, name.encode(), 0, None, None)
        if rc != 0:
            raise CompileError(f"{self.prefix}: {self.prefix}CreateProgram({name}) failed: "
                               f"{self.error_string(rc)}")
        try:
            for e in exprs:
                rc = f["AddNameExpression"](prog, e)
                if rc != 0:
                    raise CompileError(f"{self.prefix}: name expression {e.decode()!r} in "
                                       f"{name}: {self.error_string(rc)}")
            c_opts = (ctypes.c_char_p * len(opts))(*opts)
            rc = f["CompileProgram"](prog, len(opts), c_opts)
            seconds = time.perf_counter() - start
            log = fix_log(self._log(prog))
            if rc != 0:
                hint = "" if log.strip() else " (the compiler wrote no log)"
                raise CompileError(f"{self.prefix}: compiling {name} for {arch} failed: "
                                   f"{self.error_string(rc)}{hint}; options {options}", log)
            binary = b""
            for what in outputs:
                binary = self._output(prog, what)
                if binary:
                    break
            if not binary:
                raise CompileError(f"{self.prefix}: compiling {name} for {arch} gave no "
                                   f"{' or '.join(outputs)}", log)
            lowered, failed = {}, {}
            for e in exprs:
                out = ctypes.c_char_p()
                rc = f["GetLoweredName"](prog, e, ctypes.byref(out))
                if rc != 0 or not out.value:
                    failed[e.decode()] = self.error_string(rc)
                else:
                    lowered[e.decode()] = out.value.decode()
            if failed and lowered_fallback is not None:
                found = lowered_fallback(binary, list(failed))
                lowered.update(found)
                failed = {e: why for e, why in failed.items() if e not in found}
            if failed:
                e, why = next(iter(failed.items()))
                raise CompileError(f"{self.prefix}: no lowered name for {e!r} in {name}: {why}"
                                   + (f" (and {len(failed) - 1} more)" if len(failed) > 1
                                      else ""), log)
            lowered = {e.decode(): lowered[e.decode()] for e in exprs}  # in the given order
        finally:
            f["DestroyProgram"](ctypes.byref(prog))
        return CompiledModule(binary=binary, lowered=lowered, log=log, arch=arch,
                              format=fmt, options=tuple(options), seconds=seconds)

    def _log(self, prog):
        n = ctypes.c_size_t()
        if self._fn["GetProgramLogSize"](prog, ctypes.byref(n)) != 0 or n.value <= 1:
            return ""
        buf = ctypes.create_string_buffer(n.value + 1)
        if self._fn["GetProgramLog"](prog, buf) != 0:
            return ""
        return buf.value.decode(errors="replace")

    def _output(self, prog, what):
        size_fn, get_fn = self.output_getter(what)
        n = ctypes.c_size_t()
        rc = size_fn(prog, ctypes.byref(n))
        if rc != 0 or n.value == 0:
            return b""
        buf = ctypes.create_string_buffer(n.value)
        rc = get_fn(prog, buf)
        if rc != 0:
            return b""
        return buf.raw  # PTX keeps its terminating NUL, as cuModuleLoadData wants


def build_options(options, arch_option, include_dirs, arch_names, kind):
    """The option list passed to the compiler: ``arch_option``, ``-std=c++17`` unless
    ``options`` has a ``-std``, ``options`` themselves, then ``-I<dir>`` per include dir.

    An arch in ``options`` (any of ``arch_names``) is a ``ValueError``: use ``arch=``.
    """
    options = [str(o) for o in options]
    for o in options:
        if any(o == a or o.startswith(a + "=") for a in arch_names):
            raise ValueError(f"{kind}: pass the target as arch=, not as option {o!r}")
    out = [arch_option]
    if not any(o.startswith(("-std=", "--std=")) for o in options):
        out.append("-std=c++17")
    out += options
    out += [f"-I{os.fspath(d)}" for d in include_dirs]
    return out


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


def _resolved_path(lib, symbol, default):
    """The file ``lib`` was loaded from (``dladdr`` on ``symbol``), e.g. for a bare soname."""
    try:
        info = (ctypes.c_void_p * 4)()  # Dl_info: dli_fname, dli_fbase, dli_sname, dli_saddr
        dladdr = ctypes.CDLL(None).dladdr
        dladdr.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        addr = ctypes.cast(getattr(lib, symbol), ctypes.c_void_p)
        if dladdr(addr, info) and info[0]:
            return os.path.realpath(ctypes.string_at(info[0]).decode())
    except Exception:  # pragma: no cover - no dladdr: keep what we asked for
        pass
    return default


def load_first(prefix, candidates, tried, check=None):
    """The first of ``candidates`` (paths or sonames) that loads, exports the ``prefix``
    API and passes ``check(rtc)`` (which raises to reject it), as an ``_RtcLibrary``;
    else None.  Why each was rejected is appended to ``tried``.  Shared with _hiprtc."""
    for path in candidates:
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(str(e) if path in str(e) else f"{path}: {e}")
            continue
        try:
            rtc = _RtcLibrary(prefix, path, lib)
            rtc.path = _resolved_path(lib, prefix + "CompileProgram", path)
            if check is not None:
                check(rtc)
            return rtc
        except (AttributeError, BackendUnavailableError) as e:
            tried.append(f"{path}: not a usable {prefix} library ({e})")
    return None


_lock = threading.Lock()
_state = None  # (_RtcLibrary or None, reason)


def _load():
    global _state
    if _state is None:
        with _lock:
            if _state is None:
                _state = _find()
    return _state


def _check(rtc):
    rtc.raw_version()
    rtc.output_getter("CUBIN")


def _find():
    tried = []
    override = os.environ.get("GARRAY_NVRTC_LIBRARY")
    candidates = [override] if override else _wheel_candidates() + _system_candidates()
    rtc = load_first("nvrtc", candidates, tried, _check)
    if rtc is not None:
        major, minor = rtc.raw_version()
        return rtc, f"NVRTC {major}.{minor} from {rtc.path}"
    detail = f" (tried: {'; '.join(tried)})" if tried else ""
    return None, ("nvrtc: libnvrtc not found; pip install 'nvidia-cuda-nvrtc>=13,<14' "
                  f"or set GARRAY_NVRTC_LIBRARY{detail}")


def _library():
    rtc, reason = _load()
    if rtc is None:
        raise BackendUnavailableError(reason)
    return rtc


def available():
    """``(True, "NVRTC 13.5 from <path>")`` or ``(False, reason)``; never raises."""
    try:
        rtc, reason = _load()
    except Exception as e:  # a broken install must not break callers
        return False, f"nvrtc: {type(e).__name__}: {e}"
    return rtc is not None, reason


def library_path():
    """Path of the loaded libnvrtc; raises BackendUnavailableError."""
    return _library().path


def version():
    """NVRTC's ``(major, minor)``; raises BackendUnavailableError when it is missing."""
    return _library().raw_version()


def identity():
    """A string naming this compiler exactly, for compile-cache keys."""
    rtc = _library()
    major, minor = rtc.raw_version()
    return f"nvrtc {major}.{minor} {os.path.realpath(rtc.path)}"


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
