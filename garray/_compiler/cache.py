"""Where compiled kernels are kept, and when a kept one may be reused.

Note [The kernel cache]
~~~~~~~~~~~~~~~~~~~~~~~
A compile takes seconds and garray compiles one unit per op, so results persist on disk
across processes and in memory within one.

1. Keys.  A key must change whenever anything that could change the binary does: the
   kernel file and every header it includes (transitively, so editing one header
   invalidates only the units that include it), the instantiations, the options, the
   compiler's exact version, the target arch, and ``FORMAT`` (the entry layout below).
2. Entries.  An entry is one file, ``<name>``: the payload (a shared library, a GPU
   image, a names table) followed by a 48-byte trailer: 8 magic bytes, the payload's
   size (8 bytes, little-endian) and its SHA-256 (32 bytes).  One file, so one rename
   publishes payload and checksum together; a trailer rather than a header, so a cached
   ``.so`` is still an ELF file that ``nm`` and ``objdump`` can read.
3. Verification.  ``read_entry`` reads the whole file into memory and checks the trailer
   before anything else sees a byte: a short, truncated, overwritten or foreign file is
   reported (one ``KernelCacheWarning`` naming the file) and treated as missing, so the
   caller rebuilds it and ``write_entry`` replaces it.  Nothing is ever mapped from the
   cache file itself: a CPU library is loaded from a private copy of the verified bytes
   (``load_library``), a GPU image is handed to the driver as bytes.
4. Writes go to a temporary name in the same directory and are renamed into place, so a
   reader sees the old entry or the new one, never half of one.  Two processes building
   the same entry both succeed; the last rename wins, and both wrote the same bytes.
   Temporary files of killed processes are removed an hour later (``_sweep``).
5. Fallback.  When ``GARRAY_CACHE_DIR`` (default ``~/.cache/garray/kernels``) cannot be
   created, written or loaded from (read-only, full, ``noexec``, a file in the way), the
   process warns once, naming the directory and the reason, and writes to a private
   temporary directory removed at exit; entries already in the configured directory are
   still read.  If even that fails, entries live in memory for the rest of the process.
   Either way nothing is rebuilt twice in one process.

Limits: the checksum finds damage, not tampering (whoever can write the cache directory
can write a valid entry); an entry damaged while another process is loading it makes
that process rebuild it too.
"""

import atexit
import ctypes
import hashlib
import itertools
import os
import re
import shutil
import stat
import tempfile
import threading
import time
import warnings

from .._errors import CompileError

# garray/_compiler/ -> garray/: the kernels ship inside the package when installed
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
_file_hashes = {}

# The in-memory caches.  The launch layer keeps its own per-op C tables, so these dicts
# are off the hot path.  One lock per key keeps two threads from building the same unit
# twice while letting threads build different units at once (precompile's --jobs).
_lock = threading.Lock()
_key_locks = {}
_loaded = {}
_failed = {}      # cache key -> CompileError: a failing unit is not recompiled per call

FORMAT = "entry-v2"                 # the entry layout; part of every key
_MAGIC = b"gakc\x00\x02\r\n"        # 8 bytes; \r\n catches text-mode rewrites
_TRAILER = 48                       # magic, size, sha256
_MAX_ENTRY = 1 << 30                # a bigger file under an entry's name is not ours


class KernelCacheWarning(RuntimeWarning):
    """The kernel cache found a damaged entry or cannot use its directory; garray keeps
    working (it rebuilds, or caches elsewhere) and says so once."""


def kernel_dir():
    """Directory holding the kernel sources (installed copy, else the source tree)."""
    for cand in (os.path.join(_PACKAGE, "_kernels"),
                 os.path.join(os.path.dirname(_PACKAGE), "_kernels")):
        if os.path.isdir(cand):
            return cand
    raise CompileError("garray's kernel sources (_kernels/) were not found next to the package")


# ---- directories ----------------------------------------------------------------------
# State per configured directory, so that a test (or a program) that changes
# GARRAY_CACHE_DIR gets the new directory, and each unusable one is reported once.

_dir_lock = threading.RLock()
_usable = set()          # configured directories created (or found) as directories
_fallen_back = {}        # configured directory -> the reason it is not written to
_private = []            # [this process's fallback directory], made on first need
_memory = {}             # entry name -> payload, when no directory could take it
_warned = set()          # paths already reported damaged
_copies = itertools.count()   # temporary names: pid, this count, random
_swept = set()           # directories cleared of orphaned temporary files
_ORPHAN_AGE = 3600       # seconds


def configured_dir():
    """The directory the user asked for: ``GARRAY_CACHE_DIR``, else the user cache dir."""
    d = os.environ.get("GARRAY_CACHE_DIR")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "garray", "kernels")
    try:
        return os.path.abspath(os.path.expanduser(d))
    except OSError:             # a relative path and a deleted working directory
        return d


def _private_dir():
    """This process's fallback directory (made once, removed at exit), or None."""
    with _dir_lock:
        if not _private:
            try:
                d = tempfile.mkdtemp(prefix="garray-kernels-")
            except OSError:
                d = None
            else:
                atexit.register(_remove_private, d, os.getpid())
            _private.append(d)
        return _private[0]


def _remove_private(d, owner):
    if os.getpid() == owner:         # not from a forked child that exits normally
        shutil.rmtree(d, ignore_errors=True)


def _fall_back(conf, reason):
    """Stop writing to ``conf`` for the rest of the process, with one warning."""
    with _dir_lock:
        if conf in _fallen_back:
            return
        _fallen_back[conf] = reason
        private = _private_dir()
    where = (f"{private} (private to this process, removed at exit)" if private else
             "memory only (no temporary directory was writable either)")
    warnings.warn(f"garray: the kernel cache directory {conf} cannot be used ({reason}); "
                  f"kernels compiled by this process are kept in {where}. Set "
                  f"GARRAY_CACHE_DIR to a writable directory to keep them across runs.",
                  KernelCacheWarning, stacklevel=3)


def _reason(e):
    if isinstance(e, OSError) and e.strerror:
        return f"{e.strerror}: {e.filename}" if e.filename else e.strerror
    return f"{type(e).__name__}: {e}"


def _dirs():
    """``(configured dir or None, write dir or None)``: where entries are read first and
    where new ones go (None: in memory)."""
    conf = configured_dir()
    if conf not in _usable and conf not in _fallen_back:
        try:
            os.makedirs(conf, exist_ok=True)
            if not os.path.isdir(conf):
                raise NotADirectoryError(20, "not a directory", conf)
        except (OSError, ValueError) as e:     # ValueError: a NUL byte in the path
            _fall_back(conf, _reason(e))
        else:
            _usable.add(conf)
    readable = conf if conf in _usable else None
    if conf in _fallen_back:
        return readable, _private_dir()
    return readable, conf


def cache_dir():
    """The directory new cache entries are written to: ``GARRAY_CACHE_DIR`` (default
    ``~/.cache/garray/kernels``), or this process's private fallback when that cannot be
    created or written (with one ``KernelCacheWarning``).  None when no directory works
    and entries are kept in memory."""
    return _dirs()[1]


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


def cache_key(parts):
    """The key naming a compile result: 40 hex digits over ``parts`` (strings), which must
    list everything the result depends on."""
    return hashlib.sha256("\n".join([FORMAT, *parts]).encode()).hexdigest()[:40]


# ---- entries --------------------------------------------------------------------------

def seal(payload):
    """``payload`` as an entry: followed by its trailer (magic, size, SHA-256)."""
    payload = bytes(payload)
    return (payload + _MAGIC + len(payload).to_bytes(8, "little")
            + hashlib.sha256(payload).digest())


def unseal(data):
    """The payload of an entry's bytes; raises ValueError saying what is wrong."""
    if len(data) < _TRAILER:
        raise ValueError(f"{len(data)} bytes, shorter than the {_TRAILER}-byte trailer")
    end = len(data) - _TRAILER
    if data[end:end + 8] != _MAGIC:
        raise ValueError("no garray trailer at its end (truncated, or not written by garray)")
    size = int.from_bytes(data[end + 8:end + 16], "little")
    if size != end:
        raise ValueError(f"{end} bytes of payload where its trailer says {size}")
    payload = data[:end]
    if hashlib.sha256(payload).digest() != data[end + 16:]:
        raise ValueError("SHA-256 mismatch (the bytes were changed after they were written)")
    return payload


def _damaged(path, why):
    with _dir_lock:
        if path in _warned:
            return
        _warned.add(path)
    warnings.warn(f"garray: the kernel cache entry {path} is damaged ({why}); "
                  f"rebuilding it", KernelCacheWarning, stacklevel=3)


def read_entry(name):
    """The verified payload of entry ``name``, or None when it is missing or damaged (a
    damaged one is reported once, and the caller's rebuild replaces it)."""
    payload = _memory.get(name)
    if payload is not None:
        return payload
    conf, write = _dirs()
    for d in dict.fromkeys((write, conf)):   # this process's fallback first
        if d is None:
            continue
        path = os.path.join(d, name)
        try:
            # O_NONBLOCK: a FIFO under an entry's name must not block the open
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            with os.fdopen(fd, "rb") as f:
                st = os.fstat(fd)
                ok = stat.S_ISREG(st.st_mode) and st.st_size <= _MAX_ENTRY
                data = f.read() if ok else b""
        except FileNotFoundError:
            continue
        except OSError as e:
            _damaged(path, f"unreadable: {_reason(e)}")
            continue
        if not stat.S_ISREG(st.st_mode):
            _damaged(path, "not a regular file")
            continue
        if st.st_size > _MAX_ENTRY:
            _damaged(path, f"{st.st_size} bytes, more than any kernel")
            continue
        try:
            return unseal(data)
        except ValueError as e:
            _damaged(path, str(e))
    return None


def atomic_write(path, data):
    """Write ``data`` to ``path`` through a temporary file in the same directory and a
    rename: readers see the old file or the new one, never a part."""
    # Not mkstemp: its mode 0600 would hide entries from a group sharing the directory;
    # 0666 here is narrowed by the umask as for any file the user creates.
    tmp = os.path.join(os.path.dirname(path),
                       f".tmp-{os.getpid()}-{next(_copies)}-{os.urandom(4).hex()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_entry(name, payload):
    """Store ``payload`` as entry ``name``, replacing what is there.  Never raises for
    the directory's sake: an unwritable one is reported once and the process falls back
    (section 5 of the note); returns where it went (a path, or None for memory)."""
    data = seal(payload)
    while True:
        conf, write = _dirs()
        if write is None:
            _memory[name] = bytes(payload)
            return None
        path = os.path.join(write, name)
        try:
            atomic_write(path, data)
            _sweep(write)
            return path
        except OSError as e:
            if write != conf:                  # the private directory failed too
                with _dir_lock:
                    _private[:] = [None]
                _memory[name] = bytes(payload)
                return None
            _fall_back(conf, _reason(e))


def _sweep(d):
    """Remove temporary files left in ``d`` by processes killed mid-write, once per
    directory per process.  A live writer renames or removes its own within milliseconds,
    so an hour-old one is an orphan."""
    if d in _swept:
        return
    _swept.add(d)
    cutoff = time.time() - _ORPHAN_AGE
    try:
        with os.scandir(d) as it:
            for e in it:
                if e.name.startswith((".tmp-", ".load-")):
                    try:
                        if (e.is_file(follow_symlinks=False)
                                and e.stat(follow_symlinks=False).st_mtime < cutoff):
                            os.unlink(e.path)
                    except OSError:
                        pass
    except OSError:
        pass


def load_library(payload, what):
    """``ctypes.CDLL`` of a shared library given as verified bytes.

    The loader reads a private copy, written under a name used once and unlinked once
    loaded: the cache file may be replaced or damaged by another process at any time,
    and the dynamic loader hands back an already-loaded library for a path it has seen
    before, so loading the cache path itself could map bytes nobody checked, or keep
    the old library after a rebuild.  The copy goes to the cache directory, whose
    filesystem must allow executable mappings anyway; when that fails (a ``noexec``
    mount, no space) and the fallback directory works, the cache directory is given up
    as in section 5 of the note.
    """
    conf, write = _dirs()
    error = None
    if write is not None:
        try:
            return _load_copy(payload, write)
        except OSError as e:
            if write != conf:
                raise CompileError(f"cpu: loading {what} failed: {e}") from None
            error = e
    private = _private_dir()
    if private is None:
        raise CompileError(f"cpu: loading {what} failed: "
                           f"{error or 'no directory to load it from was writable'}")
    try:
        lib = _load_copy(payload, private)
    except OSError as e:        # not the directory's fault, then: report the first error
        raise CompileError(f"cpu: loading {what} failed: {error or e}") from None
    if error is not None:
        _fall_back(conf, f"loading a library from it failed: {error}")
    return lib


def _load_copy(payload, d):
    fd, tmp = tempfile.mkstemp(dir=d, suffix=".so",
                               prefix=f".load-{os.getpid()}-{next(_copies)}-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        return ctypes.CDLL(tmp)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def memoized(key, make):
    """The module for ``key``, made by ``make()`` at most once per process.

    A ``CompileError`` from ``make`` is remembered and raised again for the same key:
    a broken unit would otherwise rerun the compiler on every call that needs it.
    """
    mod = _loaded.get(key)
    if mod is not None:
        return mod
    with _lock:
        key_lock = _key_locks.setdefault(key, threading.Lock())
    with key_lock:
        mod = _loaded.get(key)
        if mod is not None:
            return mod
        if key in _failed:
            raise _failed[key]
        try:
            mod = make()
        except CompileError as e:
            _failed[key] = e
            raise
        _loaded[key] = mod
    return mod
