"""Shared libraries opened on first use: the one loader under the vendor libraries
(``garray/_vendor``: BLAS, FFT, solvers, DNN) and the runtime compilers
(``garray/_compiler/nvrtc.py``, ``hiprtc.py``).  It imports nothing of garray but its
error types, so either side may use it without depending on the other.

Note [Library search]
~~~~~~~~~~~~~~~~~~~~~
1. Importing garray must not touch a vendor library (a missing or broken one would
   break the import), so every lookup is deferred to first use and computed once,
   however many threads race to it (``Once``).
2. ``LibraryLoader``: when ``$env`` is set (a path), it is the only candidate; otherwise
   ``candidates()`` lists paths or sonames, tried in order.  A candidate that does not
   load, or that ``accept`` rejects (``Rejected``: a wrong library on the path), is
   skipped and its reason kept, so the "not found" message says what was wrong with
   every library that was there.  The outcome, found or not, is kept too: every later
   call reports the same cause, until ``reset()`` (tests change ``$env`` and look
   again).
3. What differs per user is in the subclass: ``accept`` (the symbols a library must
   export), ``found`` (the success line ``available()`` gives) and ``missing`` (the
   start of the "not found" message).
"""

import ctypes
import os
import threading

from ._errors import BackendUnavailableError

__all__ = ["LibraryLoader", "Once", "Rejected"]


class Once:
    """A value computed on first use, exactly once, however many threads race to it."""

    def __init__(self, compute, lock=None):
        self._compute = compute
        self._lock = lock if lock is not None else threading.Lock()
        self._state = None  # tests reset this to force a fresh lookup

    def get(self):
        if self._state is None:
            with self._lock:
                if self._state is None:
                    self._state = self._compute()
        return self._state


class Rejected(Exception):
    """A candidate that loads but is not the library looked for; the message says why."""


class LibraryLoader(Once):
    """One shared library, looked for on first use (Note [Library search]).

    ``name`` starts the messages; ``env`` names the variable that overrides the search;
    ``candidates()`` lists what is tried otherwise; ``lock`` may be shared with other
    state of the caller (hiprtc serialises its compiles on the same lock).
    """

    def __init__(self, name, *, env, candidates, lock=None):
        super().__init__(self._find, lock)
        self.name = name
        self.env = env
        self._candidates = candidates

    def accept(self, lib, path):
        """What ``library()`` returns for the loaded ``ctypes.CDLL`` ``lib``; raises
        ``Rejected`` when ``lib`` is not the library looked for."""
        return lib

    def found(self, loaded, path):
        """The success line of ``available()``."""
        return path

    def missing(self, override):
        """The "not found" message, before the list of what was tried; ``override`` is
        ``$env`` ("" when unset)."""
        return f"{self.name}: not found; set {self.env} to the library's path"

    def _find(self):
        """``(loaded or None, success line or reason)``."""
        tried = []
        override = os.environ.get(self.env, "").strip()
        for path in [override] if override else list(self._candidates()):
            try:
                lib = ctypes.CDLL(path)
            except OSError as e:
                tried.append(str(e) if path in str(e) else f"{path}: {e}")
                continue
            try:
                loaded = self.accept(lib, path)
            except Rejected as e:
                tried.append(f"{path}: {e}")
                continue
            return loaded, self.found(loaded, path)
        detail = f" (tried: {'; '.join(tried)})" if tried else ""
        return None, f"{self.missing(override)}{detail}"

    def library(self):
        """What ``accept`` made of the library; raises BackendUnavailableError with the
        reason it was not found."""
        loaded, info = self.get()
        if loaded is None:
            raise BackendUnavailableError(info)
        return loaded

    def available(self):
        """``(True, success line)`` or ``(False, reason)``; never raises, because callers
        use it to choose a path or to skip, not to fail."""
        try:
            loaded, info = self.get()
        except Exception as e:  # a broken install must not break callers
            return False, f"{self.name}: {type(e).__name__}: {e}"
        return loaded is not None, info

    def reset(self):
        """Forget the lookup (tests change ``$env`` and look again)."""
        with self._lock:
            self._state = None
