"""hiprtc, AMD's runtime compiler, through ctypes: HIP kernel source -> AMDGPU code object.

Needs no GPU and no driver, so CI compiles every kernel for AMD on a plain machine.  Same
API as ``garray._compiler.nvrtc``::

    available() -> (bool, reason)         never raises
    version() -> (major, minor)           HIP's version, e.g. (5, 2)
    identity() -> str                     hiprtc/HIP/comgr versions and library path
    supported_archs() -> list[str]        e.g. ["gfx900", ..., "gfx90a", ..., "gfx1030"]
    compile(source, name, name_expressions, options, arch="gfx90a", include_dirs=())
        -> CompiledModule(binary, lowered, log, arch, format="hsaco", options, seconds)

Options added here: ``--offload-arch=<arch>``, ``-std=c++17`` (unless ``options`` names a
``-std``) and ``-I<dir>`` per include dir.  ``binary`` is what ``hiprtcGetCode`` returns: an
ELF code object for that one arch, loadable with ``hipModuleLoadData``.  ``lowered`` maps
each name expression to its mangled name (the same names NVRTC gives).

The library is looked for, in order: ``$GARRAY_HIPRTC_LIBRARY`` (a path), else
``libhiprtc.so``, ``libhiprtc.so.{7,6,5}``, ``libamdhip64.so.5``, ``libamdhip64.so`` in
``$ROCM_PATH/lib``, ``$HIP_PATH/lib``, ``/opt/rocm/lib`` and then the system's search path;
the first one that exports ``hiprtcCompileProgram`` wins.

Debian 12 (hiprtc from ROCm 5.2.3; ``ci/install-gpu-compilers.sh`` installs it), checked here:

- hiprtc's symbols live in ``libamdhip64.so.5`` (there is no ``libhiprtc.so``); it dlopens
  ``libamd_comgr.so.2`` (which links ``libLLVM-15.so.1``) and needs the device bitcode
  from ``rocm-device-libs``; all come as dependencies of ``libamdhip64-5``.
  ``libhiprtc-builtins.so.5`` is never loaded by hiprtc 5.2 (its preamble is built into
  ``libamdhip64``).  No symlink is needed for this module; hip-python looks for
  ``libhiprtc.so`` and needs ``ln -s libamdhip64.so.5 libhiprtc.so`` to find hiprtc.
- No environment variable is needed: ``HIP_PLATFORM=amd`` matters to ``hipcc`` only (it
  picks NVIDIA when ``nvcc`` is on PATH); hiprtc works with or without it, nvcc on PATH.
- The arch option is mandatory: without one hiprtc asks the (absent) GPU and fails with
  HIPRTC_ERROR_COMPILATION and an *empty* log.  ``--offload-arch=gfx90a`` and
  ``--gpu-architecture=gfx90a`` both work; ``-arch=gfx90a`` fails the same silent way.
- An arch that comgr does not know (``gfx942``, ``gfx1100`` on 5.2, ``gfx90a:foo``,
  ``GFX90A``, ``sm_90``) *aborts the process* inside hiprtc ("munmap_chunk(): invalid
  pointer").  So ``compile`` checks the arch against comgr's ISA list
  (``amd_comgr_get_isa_name``) and its syntax (``gfxNNN`` plus ``:sramecc±``/``:xnack±``)
  first and raises ``CompileError`` (unknown arch) or ``ValueError`` (malformed) instead.
  5.2 knows gfx600..gfx90c and gfx1010..gfx1036.
- hiprtcVersion() returns a placeholder (9, 0) in ROCm 5.x; ``version()`` then answers
  ``hipRuntimeGetVersion`` (5.2 here), which needs no GPU.
- Predefined: ``__HIPCC_RTC__``, ``__HIPCC__``, ``__HIP__``, ``__HIP_DEVICE_COMPILE__``,
  ``__AMDGCN__``, ``__gfx90a__``-style arch macros, ``__AMDGCN_WAVEFRONT_SIZE`` (64 on gfx9,
  32 on gfx10), ``HIP_VERSION_MAJOR/MINOR``, ``__clang__`` (15).  *Not* defined:
  ``__HIP_PLATFORM_AMD__`` (nor ``__HIP_PLATFORM_HCC__``), ``__CUDACC__``, ``__CUDACC_RTC__``.
  A platform header must key on ``__HIPCC_RTC__``/``__HIP__``, not ``__HIP_PLATFORM_AMD__``.
- The HIP runtime API, ``__half``/``__float2half`` and a few ``std::`` names
  (``std::is_same``, ``int64_t``) come pre-included; ``#include`` of ``<limits>``,
  ``<climits>``, ``<cfloat>`` and ``<hip/hip_runtime.h>`` works, but ``<hip/hip_fp16.h>``
  (redefinitions),
  ``<hip/hip_bfloat16.h>``, ``<cstdint>``, ``<stdint.h>``, ``<type_traits>`` and
  ``<cmath>`` fail: the system's ``/usr/include`` is visible and clashes with the preamble.
- The log names the source ``/tmp/comgr-XXXX/input/CompileSource:LINE:COL``; ``compile``
  rewrites that to ``<name>:LINE:COL``.
- hiprtcGetLoweredName fails (HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID) for an expression
  that names a type through a typedef (``k<ga::int32>``), starts with ``::`` or is
  parenthesised, since it compares demangled text; ``compile`` still finds those names
  (see the comment above ``_with_markers``).  A repeated expression fails to compile
  ("redefinition of '__hiprtc_1'"), so expressions are passed once each.
- A small templated kernel takes ~0.25-0.5 s (NVRTC: ~0.05-0.09 s); a unit of 65
  elementwise instantiations ~1-1.5 s (NVRTC, sm_90 CUBIN: ~1-2 s).  Compiles are
  serialised by a lock: hiprtc 5.2's thread safety is undocumented.
"""

import ctypes
import os
import re
import struct
import threading

from .._errors import CompileError
from .._loader import Once
from .rtc import CompiledModule, RtcLoader, build_options

__all__ = ["CompiledModule", "available", "version", "identity", "compile",
           "library_path", "supported_archs"]

KIND = "hiprtc"
DEFAULT_ARCH = "gfx90a"
# gfx90a, gfx90a:xnack-, gfx942:sramecc+:xnack-, and newer ROCm's generic gfx9-4-generic
_ARCH_RE = re.compile(r"^gfx[0-9][0-9a-f]*(-[0-9a-f]+)*(-generic)?((:sramecc|:xnack)[+-])*$")
_ARCH_OPTIONS = ("--offload-arch", "--gpu-architecture", "-arch", "--amdgpu-target",
                 "-offload-arch")
_LIB_NAMES = ("libhiprtc.so", "libhiprtc.so.7", "libhiprtc.so.6", "libhiprtc.so.5",
              "libamdhip64.so.5", "libamdhip64.so")
_COMGR_NAMES = ("libamd_comgr.so.3", "libamd_comgr.so.2", "libamd_comgr.so")
_LOG_SOURCE_RE = re.compile(r"[^\s:]*CompileSource(?=:\d)")
_PLACEHOLDER_VERSION = (9, 0)   # what hiprtcVersion() says in ROCm 5.x


def _dirs():
    out = []
    for d in (os.environ.get("ROCM_PATH"), os.environ.get("HIP_PATH"), "/opt/rocm"):
        if d:
            out.append(os.path.join(d, "lib"))
    return list(dict.fromkeys(out))


def _candidates(names):
    out = []
    for d in _dirs():
        out += [os.path.join(d, n) for n in names if os.path.exists(os.path.join(d, n))]
    return out + list(names)  # bare sonames: the dynamic loader's search path


def _runtime_version(rtc):
    """HIP's (major, minor, patch) from ``hipRuntimeGetVersion`` (libamdhip64), or None."""
    libs = [rtc.lib]
    if not hasattr(rtc.lib, "hipRuntimeGetVersion"):
        sibling = os.path.join(os.path.dirname(rtc.path), "libamdhip64.so")
        for name in (sibling, "libamdhip64.so.5", "libamdhip64.so"):
            try:
                libs.append(ctypes.CDLL(name))
                break
            except OSError:
                pass
    for lib in libs:
        fn = getattr(lib, "hipRuntimeGetVersion", None)
        if fn is None:
            continue
        v = ctypes.c_int()
        try:
            if fn(ctypes.byref(v)) == 0 and v.value > 0:
                n = v.value  # HIP_VERSION = major * 10_000_000 + minor * 100_000 + patch
                return n // 10_000_000, (n // 100_000) % 100, n % 100_000
        except Exception:  # pragma: no cover - defensive
            pass
    return None


def _version(rtc):
    v = rtc.raw_version()
    if v == _PLACEHOLDER_VERSION:
        rv = _runtime_version(rtc)
        if rv is not None:
            return rv[:2]
    return v


def _load_comgr(rtc_dir):
    """comgr and its ISA list; the one beside the hiprtc library first (the one it uses)."""
    beside = [os.path.join(rtc_dir, n) for n in _COMGR_NAMES
              if rtc_dir and os.path.exists(os.path.join(rtc_dir, n))]
    for path in beside + _candidates(_COMGR_NAMES):
        try:
            lib = ctypes.CDLL(path)
            count, get_name = lib.amd_comgr_get_isa_count, lib.amd_comgr_get_isa_name
        except (OSError, AttributeError):
            continue
        count.argtypes = [ctypes.POINTER(ctypes.c_size_t)]
        get_name.argtypes = [ctypes.c_size_t, ctypes.POINTER(ctypes.c_char_p)]
        n = ctypes.c_size_t()
        if count(ctypes.byref(n)) != 0:
            continue
        isas = []
        for i in range(n.value):
            s = ctypes.c_char_p()
            if get_name(i, ctypes.byref(s)) == 0 and s.value:
                # "amdgcn-amd-amdhsa--gfx90a" (newer comgr may add ":sramecc+:xnack-")
                isa = s.value.decode().rsplit("--", 1)[-1].split(":", 1)[0]
                isas.append(isa)
        return lib, list(dict.fromkeys(isas))
    return None, None


def _comgr_version():
    lib, _ = _comgr()
    if lib is None or not hasattr(lib, "amd_comgr_get_version"):
        return None
    major, minor = ctypes.c_size_t(), ctypes.c_size_t()
    lib.amd_comgr_get_version(ctypes.byref(major), ctypes.byref(minor))
    return major.value, minor.value


def _identity(rtc):
    raw = rtc.raw_version()
    rv = _runtime_version(rtc)
    hip = ".".join(map(str, rv)) if rv else "%d.%d" % raw
    cv = _comgr_version()
    comgr = f" comgr {cv[0]}.{cv[1]}" if cv else ""
    return f"hiprtc {raw[0]}.{raw[1]} HIP {hip}{comgr} {os.path.realpath(rtc.path)}"


# Re-entrant: finding comgr needs the library (same lock, same thread), and compiles are
# serialised on it too, because hiprtc 5.2's thread safety is undocumented.
_lock = threading.RLock()
_loader = RtcLoader(
    KIND, env="GARRAY_HIPRTC_LIBRARY", candidates=lambda: _candidates(_LIB_NAMES),
    output="Code", found="hiprtc (HIP {major}.{minor}) from {path}",
    missing=("hiprtc: libhiprtc.so / libamdhip64.so.5 not found; on Debian 12 run "
             "ci/install-gpu-compilers.sh, or set GARRAY_HIPRTC_LIBRARY"),
    identity_of=_identity, version_of=_version, lock=_lock)
_library = _loader.library
available = _loader.available        # (True, "hiprtc (HIP 5.2) from <path>") or (False, reason)
library_path = _loader.library_path
version = _loader.version            # HIP's (major, minor), not hiprtc's placeholder
identity = _loader.identity
# (comgr library or None, list of ISA names such as "gfx90a" or None)
_comgr = Once(lambda: _load_comgr(os.path.dirname(_library().path)), _lock).get


def supported_archs():
    """The gfx targets this hiprtc's comgr knows, or [] when comgr cannot be asked."""
    _library()
    return list(_comgr()[1] or [])


def _check_arch(arch):
    if not isinstance(arch, str) or not _ARCH_RE.match(arch):
        raise ValueError(f"hiprtc: arch must look like 'gfx90a' (optionally with "
                         f"':sramecc+'/':xnack-'), got {arch!r}")
    isas = _comgr()[1]
    base = arch.split(":", 1)[0]
    if isas and base not in isas:
        raise CompileError(f"hiprtc: this hiprtc cannot compile for {base} (asked, it would "
                           f"abort the process); it knows {', '.join(isas)}")


# ---- lowered names that hiprtc 5.2 cannot give -----------------------------------------
# hiprtc 5.2 finds a lowered name by demangling the code object's symbols and comparing
# the text with the name expression, so an expression that spells a type through a typedef
# (``k<ga::int32>``; the symbol demangles to ``k<int>``), starts with ``::`` or is
# parenthesised fails with HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID although the kernel was
# built.  ``compile`` therefore appends one marker per expression,
#     extern "C" __device__ const void* __garray_lowered_<i> = (const void*)&(<expr>);
# and, for the expressions hiprtc cannot name, reads the marker's relocation in the code
# object: it points at the kernel's symbol, whose name is the lowered name.  The markers
# are appended after the source, so line numbers in the log are unchanged.
_MARKER = "__garray_lowered_"


def _with_markers(source, name_expressions):
    lines = [f'extern "C" __device__ __attribute__((used)) const void* {_MARKER}{i} = '
             f"(const void*)&({e});" for i, e in enumerate(name_expressions)]
    return source + ("\n" if not source.endswith("\n") else "") + "\n".join(lines) + "\n"


def _elf_symbols_and_relocations(image):
    """(symbols, relocations) of an ELF64 little-endian image: symbols as
    ``(name, value, type)``, relocations as ``(offset, symbol name or None, addend)``."""
    if image[:4] != b"\x7fELF" or image[4] != 2 or image[5] != 1:
        return [], []
    shoff, = struct.unpack_from("<Q", image, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", image, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", image, shoff + i * shentsize)
                for i in range(shnum)]

    def strings(index):
        _, _, _, _, off, size, *_ = sections[index]
        return image[off:off + size]

    def cstr(table, at):
        return table[at:table.index(b"\0", at)].decode(errors="replace")

    tables, symbols, relocations = {}, [], []
    for i, (_, kind, _, _, off, size, link, _, _, entsize) in enumerate(sections):
        if kind in (2, 11):  # SHT_SYMTAB, SHT_DYNSYM
            names, table = strings(link), []
            for k in range(size // (entsize or 24)):
                st_name, st_info, _, _, value, _ = struct.unpack_from("<IBBHQQ", image,
                                                                      off + k * 24)
                table.append((cstr(names, st_name), value, st_info & 0xF))
            tables[i] = table
            symbols += table
    for _, kind, _, _, off, size, link, _, _, entsize in sections:
        if kind == 4:  # SHT_RELA
            table = tables.get(link, [])
            for k in range(size // (entsize or 24)):
                r_offset, r_info, addend = struct.unpack_from("<QQq", image, off + k * 24)
                sym = r_info >> 32
                relocations.append((r_offset, table[sym][0] if 0 < sym < len(table) else None,
                                    addend))
    return symbols, relocations


def _lowered_from_markers(name_expressions, binary, wanted):
    """``{expression: lowered}`` for the expressions in ``wanted``, read from the markers."""
    try:
        symbols, relocations = _elf_symbols_and_relocations(binary)
    except (struct.error, ValueError, IndexError):
        return {}
    marker_at = {n: v for n, v, _ in symbols if n.startswith(_MARKER)}
    funcs = {}
    for n, v, t in symbols:
        if t == 2 and not n.startswith(_MARKER):  # STT_FUNC: kernels
            funcs.setdefault(v, n)
    target = {}
    for offset, sym, addend in relocations:
        target[offset] = sym if sym and not sym.startswith(_MARKER) else funcs.get(addend)
    index = {e: i for i, e in enumerate(name_expressions)}
    out = {}
    for e in wanted:
        at = marker_at.get(f"{_MARKER}{index[e]}")
        lowered = target.get(at) if at is not None else None
        if lowered:
            out[e] = lowered
    return out


def compile(source, name, name_expressions, options=(), arch=DEFAULT_ARCH, include_dirs=()):
    """Compile ``source`` (HIP kernel dialect) with hiprtc for one gfx ``arch``.

    ``name`` names the program in the log; ``name_expressions`` are the template
    instantiations to emit, e.g. ``["axpy<float>"]``.  Raises ``CompileError`` (with
    hiprtc's log) when compilation fails or ``arch`` is one this hiprtc does not know,
    ``BackendUnavailableError`` when hiprtc is missing, ``ValueError`` for a malformed arch.
    """
    rtc = _library()
    _check_arch(arch)
    opts = build_options(options, f"--offload-arch={arch}", include_dirs, _ARCH_OPTIONS, KIND)
    exprs = list(dict.fromkeys(name_expressions))
    if exprs:
        source = _with_markers(source, exprs)

    def fix_log(log):
        return _LOG_SOURCE_RE.sub(lambda m: name, log)

    def fallback(binary, wanted):
        return _lowered_from_markers(exprs, binary, wanted)

    with _lock:
        return rtc.compile(source, name, exprs, opts, arch, "hsaco", ["Code"],
                           fix_log=fix_log, lowered_fallback=fallback)
