"""What the GPU vendor families share: gpublas.py (cuBLAS, hipBLAS), gpufft.py (cuFFT,
hipFFT), gpusolver.py (cuSOLVER, hipSOLVER) and dnn.py (cuDNN, MIOpen).

Note [Vendor families]
~~~~~~~~~~~~~~~~~~~~~~
1. A family is one job done by one vendor library per GPU device kind.  Each vendor is
   a ``Vendor`` record (a family subclasses it for its own names and enum values);
   everything that differs between two vendors of a family is data in their records,
   and the code below is written once for all of them.
2. Libraries: one ``VendorLibrary`` per vendor (Note [Vendor libraries]), found on
   first use, never at import; ``$GARRAY_<NAME>_LIBRARY`` overrides the search, and a
   missing library is a ``BackendUnavailableError`` naming the package and the
   variable.  ``available(kind)`` never raises.
3. Functions: a symbol is ``prefix + name`` (cuSOLVER's ``cusolverDn`` + ``Dgetrf``;
   an empty prefix where the families spell symbols in full); its ctypes function is
   made once per (kind, symbol).  Entry points return a status; a nonzero one is a
   ``BackendError`` "<device>: <vendor> <symbol> failed: <status name><what>", the name
   from the library itself where it has a function for it (``error_string``), else from
   the record; the DNN family also gives the number and the library's reason for this
   thread's last failure (``last_error``).
4. Handles: a vendor whose record names ``create``/``destroy``/``set_stream`` has one
   handle per (device, thread) (Note [Vendor handles]); ``FAMILY.handle(device,
   vendor)`` is the one place a call gets it, with the device current and on the
   device's stream.
5. ``reset()`` forgets the libraries, the functions and every thread's handles (tests
   point a ``GARRAY_*_LIBRARY`` elsewhere and look again).
"""

import ctypes
import functools
import itertools
import threading
from dataclasses import dataclass, field
from typing import Callable

from . import VendorLibrary, _handles
from .._errors import BackendError

__all__ = ["Vendor", "VendorFamily"]

_P, _I = ctypes.c_void_p, ctypes.c_int
_PP = ctypes.POINTER(ctypes.c_void_p)


@dataclass(frozen=True, kw_only=True)
class Vendor:
    """One vendor library of a family: how it is found, named and called."""

    kind: str                    # the garray device kind: "cuda" or "hip"
    name: str                    # as messages name it: "cuBLAS"
    env: str                     # GARRAY_*_LIBRARY: a path that overrides the search
    install: str                 # how to get the library
    candidates: Callable[[], list]
    required: tuple              # symbols (after prefix) a library must export to be taken
    prefix: str = ""             # in front of every symbol name
    statuses: dict = field(default_factory=dict)   # status -> name
    error_string: str | None = None   # (status) -> const char*: the library's own names
    last_error: str | None = None     # (char*, size_t): this thread's last failure
    create: str | None = None    # (handle*) -> status; None: no per-thread handles
    destroy: str | None = None   # (handle) -> status
    set_stream: str | None = None     # (handle, stream) -> status
    create_with_stream: bool = False  # create takes (handle*, stream) (MIOpen)


class VendorFamily:
    """The vendors of one job, by device kind (Note [Vendor families]).

    ``job`` names the job in messages ("vendor FFT"); ``missing`` formats the
    missing-library message from a vendor's fields (``{kind}``, ``{name}``,
    ``{install}``); ``numbered`` adds each status's number to its name.
    """

    def __init__(self, vendors, *, job, missing, numbered=False):
        self.vendors = {v.kind: v for v in vendors}
        self.job = job
        self.numbered = numbered
        self.library = {v.kind: VendorLibrary(
            v.name, env=v.env, candidates=v.candidates, prefix=v.prefix,
            missing=missing.format(kind=v.kind, name=v.name, install=v.install),
            required=v.required) for v in vendors}
        self._functions = {}     # (kind, symbol) -> ctypes function
        self._lock = threading.Lock()
        self._pools = {v.kind: _handles.HandlePool(functools.partial(self._create, v),
                                                   functools.partial(self._destroy, v),
                                                   functools.partial(self._set_stream, v))
                       for v in vendors if v.create is not None}

    def available(self, kind):
        """``(True, library path)`` when ``kind``'s library loads, else ``(False,
        reason)``; never raises."""
        try:
            lib = self.library.get(kind)
            if lib is None:
                listed = ", ".join(f"{v.kind}: {v.name}" for v in self.vendors.values())
                return False, f"{kind}: no {self.job} for this device kind ({listed})"
            return lib.available()
        except Exception as e:  # a broken install must not break the caller's fallback
            return False, f"{kind}: {type(e).__name__}: {e}"

    def vendor_of(self, device, does):
        """The vendor of ``device``'s kind; ValueError "device: <does> cuda and hip
        devices, got <device>" for any other device."""
        vendor = self.vendors.get(getattr(device, "kind", None))
        if vendor is None:
            kinds = " and ".join(self.vendors)
            raise ValueError(f"device: {does} {kinds} devices, got {device!r}")
        return vendor

    def reset(self):
        """Forget the libraries found, their functions and every thread's handles."""
        with self._lock:
            for lib in self.library.values():
                lib.reset()
            self._functions.clear()
            for pool in self._pools.values():
                pool.reset()

    # ---- calls ----------------------------------------------------------------------

    def function(self, vendor, symbol, argtypes, restype=_I):
        """The ctypes function of ``vendor.prefix + symbol`` (made once)."""
        key = (vendor.kind, symbol)
        fn = self._functions.get(key)
        if fn is None:
            fn = self._functions[key] = self.library[vendor.kind].function(
                symbol, restype, *argtypes)
        return fn

    def call(self, vendor, device, symbol, argtypes, *args, what=""):
        """Call ``symbol``; a nonzero status is a BackendError (``status_error``)."""
        status = self.function(vendor, symbol, argtypes)(*args)
        if status:
            raise self.status_error(vendor, device, symbol, status, what)

    def status_error(self, vendor, device, symbol, status, what=""):
        """The BackendError of ``symbol``'s ``status``; ``what`` (the sizes) follows."""
        name = self._status_name(vendor, status)
        if self.numbered:
            name = f"{name} ({status})"
        return BackendError(f"{device}: {vendor.name} {vendor.prefix}{symbol} failed: "
                            f"{name}{what}{self._last_error(vendor)}")

    def _status_name(self, vendor, status):
        if vendor.error_string is not None:
            try:
                name = self.function(vendor, vendor.error_string, (_I,),
                                     ctypes.c_char_p)(status)
                if name and not name.startswith(b"Unknown") and b"UNKNOWN" not in name:
                    return name.decode()
            except Exception:  # the name is a courtesy: the record's or the number follows
                pass
        return vendor.statuses.get(status, f"status {status}")

    def _last_error(self, vendor):
        if vendor.last_error is None:
            return ""
        try:
            fn = self.function(vendor, vendor.last_error,
                               (ctypes.c_char_p, ctypes.c_size_t), None)
            buf = ctypes.create_string_buffer(512)
            fn(buf, 512)
            text = buf.value.decode(errors="replace").strip()
            return f"; {text}" if text else ""
        except Exception:  # a courtesy too: the status already says what failed
            return ""

    def finish(self, vendor, device, symbol):
        """After a queued call: under ``GARRAY_SYNC_LAUNCHES=1`` wait for it, so a fault
        is reported by the call that made it."""
        if _handles.sync_calls:
            try:
                device.synchronize()
            except Exception as e:
                raise BackendError(f"{device}: {vendor.name} {vendor.prefix}{symbol} "
                                   f"failed: {e}") from None

    # ---- handles and streams ----------------------------------------------------------

    def stream_of(self, device):
        """The stream ``device``'s vendor calls are queued on: the one garray queues the
        device's kernels and copies on (``_handles.stream_of``)."""
        return _handles.stream_of(device)

    def handle(self, device, vendor):
        """This thread's ``_handles.Handle`` of ``device``, with the device current,
        bound to the device's stream.

        Streams: this is where a handle is bound to the stream of the call, the
        thread's current stream (``stream_of``); ``use_stream`` tells the vendor only
        when it changes.  Every family's handle reaches its calls through this method
        (the FFT's plans through ``stream_of``)."""
        h = self._pools[vendor.kind].get(device)
        h.use_stream(self.stream_of(device))
        return h

    def _create(self, vendor, device):
        out = _P()
        if vendor.create_with_stream:
            self.call(vendor, device, vendor.create, (_PP, _P), ctypes.byref(out), None)
        else:
            self.call(vendor, device, vendor.create, (_PP,), ctypes.byref(out))
        return out.value

    def _destroy(self, vendor, device, ptr):
        self.function(vendor, vendor.destroy, (_P,))(ptr)

    def _set_stream(self, vendor, device, ptr, stream):
        self.call(vendor, device, vendor.set_stream, (_P, _P), ptr, stream)


def pointers(batch, *bufs):
    """For each batch item of a stacked LAPACK or solver call (Note [LAPACK buffers] in
    garray/linalg/_lapack.py), the tuple of the buffers' item pointers (ranges zipped in
    C: a Python expression per item costs as much as a small LAPACK call)."""
    cols = []
    for buf in bufs:
        step = buf.nbytes // batch if batch else 0
        cols.append(range(buf.ptr, buf.ptr + batch * step, step) if step
                    else itertools.repeat(buf.ptr, batch))
    return zip(*cols)
