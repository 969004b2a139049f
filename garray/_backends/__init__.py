"""Device backends: one runtime module per vendor, loaded lazily.

Note [Backend interface]
~~~~~~~~~~~~~~~~~~~~~~~~
Every backend module (``cpu``, ``hip``, ``cuda``) exposes a class ``Runtime`` whose
instances serve *one* device index.  ``load(kind)`` imports the module on first
use and returns it; a GPU module whose vendor package, library or driver is missing
raises ``BackendUnavailableError`` from ``probe()`` / ``Runtime(index)`` with a message
naming what is missing -- never at ``import garray``.

Module-level functions::

    probe() -> int                 number of devices; raises BackendUnavailableError
    availability() -> (bool, str)  (True, "N device(s)") or (False, reason); never raises

``Runtime(index)`` attributes and methods (pointers are Python ints, sizes in bytes)::

    kind: str                      "cpu" | "hip" | "cuda"
    index: int
    properties() -> dict           name, warp_size, multiprocessor_count,
                                   shared_memory_per_block, total_memory, arch
    malloc(nbytes) -> int          raises MemoryError when the device is out of memory
    free(ptr) -> None
    host_alloc(nbytes) -> int      page-locked host memory (GPU); host memory (cpu)
    host_free(ptr) -> None
    memcpy_htod(dst, src_host, nbytes, stream=None)
    memcpy_dtoh(dst_host, src, nbytes, stream=None)
    memcpy_dtod(dst, src, nbytes, stream=None)
    memset(ptr, byte, nbytes, stream=None)
    memcpy_peer(dst, src, src_runtime, nbytes, stream=None)   (GPU) from another GPU of
                                   the same vendor
    stream_create(non_blocking=False, priority=None) -> handle
    stream_destroy(h);  stream_synchronize(h);  stream_query(h) -> bool (all done)
    stream_wait_event(stream, event)
    event_create(timing=True, blocking=False) -> handle;  event_destroy(h)
    event_record(h, stream=None);  event_query(h) -> bool;  event_synchronize(h)
    event_elapsed_ms(start, end) -> float
    synchronize()                  wait for all work on the device
    module_load(binary) -> handle  (GPU) load a CUBIN / code object
    module_function(module, lowered_name) -> handle
    activate()                     (GPU) make the device current on the calling thread
    launch_address() -> int        (GPU) address of the driver's launch entry point, which
                                   the Cython launch path calls directly (DriverLaunch)

Copies with ``stream=None`` use the default stream and are synchronous with
respect to the host; with a stream they are queued on it (garray/_streams.py decides
which stream a call uses; a runtime only passes it on).  Errors from the vendor runtime raise ``BackendError`` naming
the call and the vendor's error name.

Threads: driver calls are made from any thread without a lock of garray's, as the
vendors' drivers allow.  (The stub drivers CI runs the GPU paths on were not
thread-safe once, and garray held one process-wide lock around every driver call while
they were installed; they are now, and the lock is gone.)
"""

import importlib

from .._errors import BackendUnavailableError

KINDS = ("cpu", "hip", "cuda")
_modules = {}


def load(kind):
    """Import and return the backend module for ``kind`` (cached)."""
    mod = _modules.get(kind)
    if mod is None:
        if kind not in KINDS:
            raise ValueError(f"device: unknown device kind {kind!r}; expected one of {KINDS}")
        mod = importlib.import_module(f"{__name__}.{kind}")
        _modules[kind] = mod
    return mod


def availability(kind):
    """(available, reason) for a backend kind; never raises."""
    try:
        return load(kind).availability()
    except BackendUnavailableError as e:  # pragma: no cover - availability() catches
        return False, str(e)
    except Exception as e:  # a broken vendor install must not break `import garray`
        return False, f"{kind}: {type(e).__name__}: {e}"


class DriverLaunch:
    """Mixin for GPU runtimes: raw kernel launches through the vendor driver's own entry
    point, resolved once with dlsym.

    The Cython launch path calls ``launch_address()`` directly (a binding call per launch
    would cost microseconds); cuLaunchKernel and hipModuleLaunchKernel share one C
    signature: (function, grid xyz, block xyz, shared bytes, stream, void** params,
    void** extra).  Subclasses provide ``_launch_library`` / ``_launch_symbol`` (GpuRuntime
    takes them from its vendor table) and ``activate()``, which the caller runs first.
    """

    _launch_library = None
    _launch_symbol = None
    _launch_addresses = {}

    def launch_address(self):
        key = (self._launch_library, self._launch_symbol)
        addr = DriverLaunch._launch_addresses.get(key)
        if addr is None:
            import ctypes
            lib = ctypes.CDLL(self._launch_library)
            addr = ctypes.cast(getattr(lib, self._launch_symbol), ctypes.c_void_p).value
            DriverLaunch._launch_addresses[key] = addr
        return addr
