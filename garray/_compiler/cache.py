"""Where compiled kernels are kept, and when a kept one may be reused.

A compile takes seconds and garray compiles one unit per op, so results persist on disk
across processes and in memory within one.  A key must change whenever anything that could
change the binary does: the kernel file and every header it includes (transitively, so
editing one header invalidates only the units that include it), the instantiations, the
options, the compiler's exact version and the target arch.  Files are written to a
temporary name and renamed, so concurrent processes never see a partial file.
``GARRAY_CACHE_DIR`` overrides the location.
"""

import hashlib
import os
import re
import tempfile
import threading

from .._errors import CompileError

# garray/_compiler/ -> garray/: the kernels ship inside the package when installed
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
_file_hashes = {}

# The in-memory caches.  The launch layer keeps its own per-op C tables, so these dicts
# are off the hot path; one lock keeps two threads from building the same unit twice.
_lock = threading.Lock()
_loaded = {}
_failed = {}      # cache key -> CompileError: a failing unit is not recompiled per call


def kernel_dir():
    """Directory holding the kernel sources (installed copy, else the source tree)."""
    for cand in (os.path.join(_PACKAGE, "_kernels"),
                 os.path.join(os.path.dirname(_PACKAGE), "_kernels")):
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


def cache_key(parts):
    """The key naming a compile result: 40 hex digits over ``parts`` (strings), which must
    list everything the result depends on."""
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:40]


def atomic_write(path, data):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def memoized(key, make):
    """The module for ``key``, made by ``make()`` at most once per process.

    A ``CompileError`` from ``make`` is remembered and raised again for the same key:
    a broken unit would otherwise rerun the compiler on every call that needs it.
    """
    mod = _loaded.get(key)
    if mod is not None:
        return mod
    with _lock:
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
