"""What NVRTC and hiprtc share: one C API shape, one option layout, one way to be found.

Both vendors ship a runtime compiler with the same program API under a different prefix
(``nvrtcCreateProgram`` / ``hiprtcCreateProgram`` ...), so the ctypes bindings, the
compile sequence and the checks of a found library live here once; ``nvrtc.py`` and
``hiprtc.py`` hold only what the vendors do differently (where the library is, the arch
syntax, the output format, hiprtc's workarounds).  The search itself is
``garray/_loader.py``'s, the same loader the vendor libraries use.
"""

import ctypes
import os
import time
from dataclasses import dataclass, field

from .._errors import BackendUnavailableError, CompileError
from .._loader import LibraryLoader, Rejected


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


class _RtcLibrary:
    """ctypes bindings for ``<prefix>CreateProgram`` ... ``<prefix>DestroyProgram``.

    ``prefix`` is "nvrtc" or "hiprtc"; both APIs return an int result code (0 = success)
    and share the signatures used here.
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

    An arch in ``options`` (any of ``arch_names``) is a ``ValueError``: the arch also goes
    into cache keys and output formats, so it must come through ``arch=`` alone.
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


# ---- finding and loading a vendor's library -------------------------------------------

def _resolved_path(lib, symbol, default):
    """The file ``lib`` was loaded from (``dladdr`` on ``symbol``): a bare soname says
    nothing about which install answered, and cache keys must tell installs apart."""
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


class RtcLoader(LibraryLoader):
    """A vendor's runtime compiler, found on first use (Note [Library search] in
    ``garray/_loader.py``): the module-level ``available``, ``version``, ``library_path``
    and ``identity`` of ``nvrtc.py`` and ``hiprtc.py``.

    What differs per vendor comes in as arguments: ``env`` names the variable that
    overrides the search; ``candidates()`` lists the paths or sonames to try otherwise;
    ``output`` is the binary getter a real library must export (``"CUBIN"``, ``"Code"``);
    ``found`` formats the success line from ``major``, ``minor`` and ``path``;
    ``missing`` starts the "not found" message (what was tried is appended);
    ``version_of(rtc)`` and ``identity_of(rtc)`` exist because hiprtc's own version is a
    placeholder in ROCm 5.x.
    """

    def __init__(self, kind, *, env, candidates, output, found, missing, identity_of,
                 version_of=None, lock=None):
        super().__init__(kind, env=env, candidates=candidates, lock=lock)
        self.kind = kind
        self._output = output
        self._found = found
        self._missing = missing
        self._identity_of = identity_of
        self._version_of = version_of or _RtcLibrary.raw_version

    def accept(self, lib, path):
        """The ``_RtcLibrary`` of ``lib``, when it exports the ``kind`` API, answers its
        version call and has the binary getter."""
        try:
            rtc = _RtcLibrary(self.kind, path, lib)
            rtc.path = _resolved_path(lib, self.kind + "CompileProgram", path)
            rtc.raw_version()
            rtc.output_getter(self._output)
        except (AttributeError, BackendUnavailableError) as e:
            raise Rejected(f"not a usable {self.kind} library ({e})") from None
        return rtc

    def found(self, rtc, path):
        major, minor = self._version_of(rtc)
        return self._found.format(major=major, minor=minor, path=rtc.path)

    def missing(self, override):
        return self._missing

    def library_path(self):
        """Path (or soname) of the loaded library; raises BackendUnavailableError."""
        return self.library().path

    def version(self):
        """The compiler's ``(major, minor)``; raises BackendUnavailableError when missing."""
        return self._version_of(self.library())

    def identity(self):
        """A string naming this compiler exactly: part of every GPU compile-cache key, so a
        changed compiler never serves binaries built by another."""
        return self._identity_of(self.library())
