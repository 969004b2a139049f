"""Vendor math libraries (BLAS, LAPACK, solvers, FFT, DNN), found lazily per device kind.

Note [Vendor libraries]
~~~~~~~~~~~~~~~~~~~~~~~
garray is built without any vendor header: each library is opened with ``ctypes`` on first
use and its entry points are read as addresses (``VendorLibrary.address``), which the
Cython layer casts to typed function pointers, so a call costs what a C call costs.  A
library is looked for in a documented order that one environment variable overrides (a
path to the shared object), so a stub can stand in for tests; when it is missing, the
error names the package to install and the variable, and nothing falls back to NumPy.
The search is ``garray/_loader.py``'s (Note [Library search]), shared with the runtime
compilers; what the GPU families (GEMM, FFT, solver, DNN) share beyond it is
``_base.py``'s (Note [Vendor families]).

``VendorLibrary(name, env=..., candidates=..., missing=..., prefix=..., required=...)``:
``candidates()`` lists paths or sonames tried in order after ``$env``; ``prefix`` is put
in front of every symbol name (the scipy-openblas wheels export ``scipy_cblas_sgemm``);
``required`` names symbols a candidate must export to be accepted (a wrong library on the
path is skipped with its reason, not used).
"""

import ctypes
import os

from .._loader import LibraryLoader, Rejected

__all__ = ["VendorLibrary", "nvidia_candidates", "rocm_candidates"]


def nvidia_candidates(libname, *sonames):
    """A ``candidates`` function for an NVIDIA library: cuda-pathfinder first (the
    ``nvidia-*`` wheel in site-packages, then what it finds on the system), then
    ``sonames`` through the dynamic loader."""
    def candidates():
        found = []
        try:
            # an optional package, imported on the first search, never by import garray
            from cuda.pathfinder import load_nvidia_dynamic_lib
            path = load_nvidia_dynamic_lib(libname).abs_path
            if path:
                found.append(path)
        except Exception:  # pathfinder absent, or it found nothing: the sonames are next
            pass
        return found + list(sonames)
    return candidates


def rocm_candidates(*names):
    """A ``candidates`` function for a ROCm library: ``names`` through the dynamic loader
    (``LD_LIBRARY_PATH``, the cache), then the first in ``$ROCM_PATH/lib``."""
    def candidates():
        rocm = os.environ.get("ROCM_PATH", "/opt/rocm")
        return list(names) + [os.path.join(rocm, "lib", names[0])]
    return candidates


class VendorLibrary(LibraryLoader):
    """One vendor shared library, opened on first use, exactly once (the search is
    ``garray/_loader.py``'s, Note [Library search])."""

    def __init__(self, name, *, env, candidates, missing, prefix="", required=()):
        super().__init__(name, env=env, candidates=candidates)
        self.prefix = prefix
        self._missing = missing
        self._required = tuple(required)
        self._addresses = {}

    def accept(self, lib, path):
        lacking = [s for s in self._required if not hasattr(lib, self.prefix + s)]
        if lacking:
            raise Rejected(f"not {self.name} (no {self.prefix + lacking[0]})")
        return lib

    def missing(self, override):
        how = f"set {self.env} to the library's path" if not override else \
            f"check {self.env}={override!r}"
        return f"{self.name}: {self._missing}, or {how}"

    def path(self):
        self.library()
        return self.get()[1]

    def function(self, symbol, restype, *argtypes):
        """A typed ctypes function for ``prefix + symbol`` (AttributeError if absent)."""
        fn = getattr(self.library(), self.prefix + symbol)
        fn.restype = restype
        fn.argtypes = list(argtypes)
        return fn

    def address(self, symbol):
        """The entry point of ``prefix + symbol`` as an int (cached)."""
        addr = self._addresses.get(symbol)
        if addr is None:
            fn = getattr(self.library(), self.prefix + symbol)
            addr = self._addresses[symbol] = ctypes.cast(fn, ctypes.c_void_p).value
        return addr

    def reset(self):
        """Forget the lookup and the addresses read (tests change ``$env`` and look
        again)."""
        with self._lock:
            self._state = None
            self._addresses = {}
