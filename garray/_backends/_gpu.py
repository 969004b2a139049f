"""The GPU runtime shared by the hip and cuda backends, see Note [Backend interface].

Note [Vendor tables]
~~~~~~~~~~~~~~~~~~~~
HIP and the CUDA driver API offer the same operations under different names, so a
backend module is data plus the little code a table cannot hold:

- ``VENDOR = Vendor(...)``: the names of the vendor's binding module, calls and status
  codes, and its reasons for being unavailable.  A name is looked up on the binding
  module when it is called, and may be dotted to reach an enum member
  ("hipMemcpyKind.hipMemcpyHostToDevice").
- ``class Runtime(GpuRuntime)``: ``_api()`` (make the device current),
  ``properties()``, ``_count_devices()`` and ``_library_missing()``.
- ``probe``, ``availability`` and ``_check``: the class's methods, at module level.

Everything else -- the lazy import, the cached probe, status checking, memory, copies,
streams, events, modules, the launch entry point -- is written once, here.

Lazy loading: a backend module imports without its vendor package.  The binding is
imported on first use and cached, with the probe's result, in the backend module's
globals (``_probe_cache`` and the global ``Vendor.binding_global`` names), where a test
can reset them.

Another vendor library (BLAS, FFT, solver, DNN) is added the same way: a frozen record
of that library's names (binding module, status members, the calls it needs) in each
backend module next to ``VENDOR``, and one class here, driven by such a record, that
imports the binding with ``import_binding`` on its first call, unpacks results with
``check_result`` and makes the device current with ``Runtime._api()`` before each call.
The driver table does not change, and the library is loaded only when a feature uses it.
"""

import operator
import sys
from dataclasses import dataclass
from importlib import import_module
from typing import NamedTuple

from . import DriverLaunch
from .._errors import BackendError, BackendUnavailableError


class Calls(NamedTuple):
    """A call with a blocking form and a form that takes a stream as its last argument."""

    sync: str
    on_stream: str
    kind: str | None = None  # an argument after the size (HIP's hipMemcpyKind member)


@dataclass(frozen=True)
class Vendor:
    """One vendor's names for what ``GpuRuntime`` calls."""

    kind: str
    binding: str          # module of the vendor's Python binding
    binding_global: str   # the backend module's global that caches it
    distribution: str     # the binding's package name on PyPI
    no_library: str       # reason: the binding is there but the vendor library is not
    no_device: str        # reason: the driver counts zero devices
    success: str          # status codes
    out_of_memory: str
    not_ready: str        # what a query answers while work is pending
    error_name: str       # status -> (status, name)
    malloc: str
    free: str
    malloc_async: str     # (nbytes, stream): the driver's stream-ordered allocator
    free_async: str       # (ptr, stream)
    host_alloc: str       # (nbytes, 0) -> page-locked host memory
    host_free: str
    memcpy_htod: Calls
    memcpy_dtoh: Calls
    memcpy_dtod: Calls
    memset: Calls         # byte-wise
    stream_create: str    # (flags) -> stream; flag 1: non-blocking
    stream_create_priority: str   # (flags, priority) -> stream
    stream_destroy: str
    stream_synchronize: str
    stream_query: str     # success, or not_ready while work is queued
    stream_wait_event: str  # (stream, event, 0)
    event_create: str     # (flags) -> event; 1: blocking sync, 2: no timing
    event_query: str
    event_destroy: str
    event_record: str
    event_synchronize: str
    event_elapsed_ms: str
    synchronize: str      # the whole device
    module_load: str
    module_function: str
    launch_library: str   # see DriverLaunch
    launch_symbol: str
    # (call, attribute member) raising a function's dynamic shared memory limit past the
    # default 48 KiB (CUDA); None where no call is needed (HIP: 64 KiB of LDS as is).
    max_dynamic_shared: tuple | None = None
    # (call, attribute enum, member prefix) reading a loaded function's attributes
    # (cuFuncGetAttribute / hipFuncGetAttribute; CUDA's numbering on both)
    func_attribute: tuple | None = None


def import_binding(kind, module, distribution):
    """Import a vendor binding module; a missing or broken package is BackendUnavailableError."""
    try:
        return import_module(module)
    except ModuleNotFoundError as e:
        # the binding or a package above it is missing, not something the binding imports
        if e.name is not None and (module + ".").startswith(e.name + "."):
            raise BackendUnavailableError(
                f"{kind}: {distribution} is not installed (pip install 'garray[{kind}]')") from e
        raise BackendUnavailableError(f"{kind}: {distribution} failed to import: {e}") from e
    except ImportError as e:
        raise BackendUnavailableError(f"{kind}: {distribution} failed to import: {e}") from e


def check_result(kind, result, call, success, out_of_memory, error_name):
    """Unpack a vendor binding's ``(status, value...)`` tuple: raise on error (MemoryError
    for out-of-memory, else BackendError naming the call), else return the value(s)."""
    err = result[0]
    if err != success:
        exc = MemoryError if err == out_of_memory else BackendError
        raise exc(f"{kind}: {call} failed: {error_name(err)}")
    if len(result) == 1:
        return None
    return result[1] if len(result) == 2 else tuple(result[1:])


def c_string(value):
    """A NUL-terminated name from a binding (bytes or str) as str."""
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).split(b"\0", 1)[0].decode(errors="replace")
    return str(value)


# Launch limits as each vendor's device-attribute call names them (Note [Vendor tables]):
# (call, attribute enum, {limit: member}).  A limit the driver does not report (0, an
# unknown member, a failed call) keeps its default in GpuRuntime.launch_limits.
_LIMIT_ATTRIBUTES = {
    "cuda": ("cuDeviceGetAttribute", "CUdevice_attribute", {
        "max_threads_per_block": "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
        "max_grid_x": "CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X",
        "max_shared_optin": "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN",
    }),
    "hip": ("hipDeviceGetAttribute", "hipDeviceAttribute_t", {
        "max_threads_per_block": "hipDeviceAttributeMaxThreadsPerBlock",
        "max_grid_x": "hipDeviceAttributeMaxGridDimX",
        "max_shared_optin": "hipDeviceAttributeSharedMemPerBlockOptin",
    }),
}


class GpuRuntime(DriverLaunch):
    """One GPU of the vendor named by ``vendor``, which a subclass sets."""

    vendor: Vendor

    # ---- the backend module's entry points --------------------------------
    @classmethod
    def binding(cls):
        """The vendor's binding module, imported on first use (else BackendUnavailableError)."""
        v, g = cls.vendor, sys.modules[cls.__module__]
        api = getattr(g, v.binding_global)
        if api is None:
            api = import_binding(v.kind, v.binding, v.distribution)
            setattr(g, v.binding_global, api)
        return api

    @classmethod
    def error_name(cls, err):
        try:
            name = getattr(cls.binding(), cls.vendor.error_name)(err)[1]
        except Exception:  # an unknown status must still produce a message
            name = None
        if not name:
            return getattr(err, "name", str(err))
        return name.decode() if hasattr(name, "decode") else str(name)

    @classmethod
    def status_name(cls, code):
        """The vendor's name for an integer status (what a raw launch returns)."""
        try:
            enum = operator.attrgetter(cls.vendor.success.rsplit(".", 1)[0])(cls.binding())
            return cls.error_name(enum(code))
        except Exception:  # a status the binding does not know
            return f"error {code}"

    _statuses = None  # (binding, success, out_of_memory): resolving them costs more than a call

    @classmethod
    def check(cls, result, call):
        """Unpack a binding's result tuple: raise on error, else return the value(s)."""
        api, statuses = cls.binding(), cls._statuses
        if statuses is None or statuses[0] is not api:
            v = cls.vendor
            statuses = cls._statuses = (api, operator.attrgetter(v.success)(api),
                                        operator.attrgetter(v.out_of_memory)(api))
        return check_result(cls.vendor.kind, result, call, statuses[1], statuses[2], cls.error_name)

    @classmethod
    def probe(cls):
        """Number of devices; raises BackendUnavailableError (cached) when unusable."""
        g = sys.modules[cls.__module__]
        if g._probe_cache is None:
            g._probe_cache = cls._probe()
        count, reason = g._probe_cache
        if reason is not None:
            raise BackendUnavailableError(reason)
        return count

    @classmethod
    def availability(cls):
        """(True, "N device(s)") or (False, reason); never raises for an unusable backend."""
        try:
            return True, f"{cls.probe()} device(s)"
        except BackendUnavailableError as e:
            return False, str(e)

    @classmethod
    def _probe(cls):
        try:
            count = cls._count_devices(cls.binding())
        except BackendUnavailableError as e:
            return 0, str(e)
        if count <= 0:
            return 0, cls.vendor.no_device
        return count, None

    @classmethod
    def _probe_call(cls, api, name, *args):
        """``api.name(*args)`` while probing.  Bindings load the vendor library on their first
        call and raise, rather than return a status, when it is missing: that becomes the
        reason."""
        try:
            return getattr(api, name)(*args)
        except Exception as e:
            if cls._library_missing(e):
                raise BackendUnavailableError(cls.vendor.no_library) from e
            raise BackendUnavailableError(
                f"{cls.vendor.kind}: {name} raised {type(e).__name__}: {e}") from e

    # ---- per vendor ---------------------------------------------------------
    @classmethod
    def _count_devices(cls, api):
        """Device count (through ``_probe_call``); BackendUnavailableError with a reason."""
        raise NotImplementedError

    @staticmethod
    def _library_missing(exc):
        """Whether ``exc``, raised by a binding call, means the vendor library is missing."""
        raise NotImplementedError

    def _api(self):
        """Make this device current on the calling thread; return the binding."""
        raise NotImplementedError

    def properties(self):
        """See Note [Backend interface]; each vendor reports them its own way."""
        raise NotImplementedError

    # ---- the Runtime interface ----------------------------------------------
    @property
    def kind(self):
        return self.vendor.kind

    @property
    def _launch_library(self):
        return self.vendor.launch_library

    @property
    def _launch_symbol(self):
        return self.vendor.launch_symbol

    def __init__(self, index=0):
        index = operator.index(index)
        count = self.probe()
        if not 0 <= index < count:
            raise ValueError(f"device: {self.kind}:{index} does not exist; "
                             f"{count} {self.kind} device(s) found")
        self.index = index
        self._binding = self.binding()

    def __repr__(self):
        return f"<garray {self.kind} runtime {self.kind}:{self.index}>"

    def _call(self, name, *args, label=None):
        return self.check(getattr(self._api(), name)(*args), label or name)

    def _sync_or_stream(self, calls, args, stream):
        api = self._api()
        if calls.kind is not None:
            args += (operator.attrgetter(calls.kind)(api),)
        if stream is None:
            name = calls.sync
        else:
            name, args = calls.on_stream, args + (stream,)
        self.check(getattr(api, name)(*args), name)

    # -- memory ----------------------------------------------------------
    def malloc(self, nbytes, stream=None):
        """Device memory; with ``stream`` (a handle) from the driver's stream-ordered
        allocator (cuMemAllocAsync / hipMallocAsync), usable in that stream's order."""
        nbytes = operator.index(nbytes)
        if nbytes < 0:
            raise ValueError(f"{self.kind}: malloc: negative size {nbytes}")
        if nbytes == 0:
            return 0  # cuMemAlloc rejects 0 bytes; NULL, as hipMalloc(0) and the cpu give
        name = self.vendor.malloc if stream is None else self.vendor.malloc_async
        label = f"{name}({nbytes} bytes) on {self.kind}:{self.index}"
        if stream is None:
            return int(self._call(name, nbytes, label=label))
        return int(self._call(name, nbytes, stream, label=label))

    def free(self, ptr, stream=None):
        """Give back ``malloc``'s memory; with ``stream``, in that stream's order (memory
        from the stream-ordered allocator)."""
        if ptr:
            if stream is None:
                self._call(self.vendor.free, ptr)
            else:
                self._call(self.vendor.free_async, ptr, stream)

    def host_alloc(self, nbytes):
        """Page-locked host memory (what asynchronous copies need); 0 for 0 bytes."""
        nbytes = operator.index(nbytes)
        if nbytes < 0:
            raise ValueError(f"{self.kind}: host_alloc: negative size {nbytes}")
        if nbytes == 0:
            return 0
        name = self.vendor.host_alloc
        return int(self._call(name, nbytes, 0, label=f"{name}({nbytes} bytes)"))

    def host_free(self, ptr):
        if ptr:
            self._call(self.vendor.host_free, ptr)

    def memcpy_htod(self, dst, src_host, nbytes, stream=None):
        self._sync_or_stream(self.vendor.memcpy_htod, (dst, src_host, nbytes), stream)

    def memcpy_dtoh(self, dst_host, src, nbytes, stream=None):
        self._sync_or_stream(self.vendor.memcpy_dtoh, (dst_host, src, nbytes), stream)

    def memcpy_dtod(self, dst, src, nbytes, stream=None):
        self._sync_or_stream(self.vendor.memcpy_dtod, (dst, src, nbytes), stream)

    def memset(self, ptr, byte, nbytes, stream=None):
        if not 0 <= byte <= 255:
            raise ValueError(f"{self.kind}: memset: byte must be in 0..255; got {byte}")
        self._sync_or_stream(self.vendor.memset, (ptr, byte, nbytes), stream)

    # -- streams and events (garray/_streams.py) ---------------------------
    def stream_create(self, non_blocking=False, priority=None):
        """A new stream: ``non_blocking`` takes it out of the legacy default stream's
        order; ``priority`` (lower is more urgent; the driver clamps it to its range)."""
        flags = 1 if non_blocking else 0
        if priority is None:
            return int(self._call(self.vendor.stream_create, flags))
        return int(self._call(self.vendor.stream_create_priority, flags, int(priority)))

    def stream_destroy(self, h):
        self._call(self.vendor.stream_destroy, h)

    def stream_synchronize(self, h):
        self._call(self.vendor.stream_synchronize, h)

    def _query(self, name, h):
        api = self._api()
        result = getattr(api, name)(h)
        if result[0] == operator.attrgetter(self.vendor.not_ready)(api):
            return False
        self.check(result, name)
        return True

    def stream_query(self, h):
        """Whether all work queued on stream ``h`` has finished."""
        return self._query(self.vendor.stream_query, h)

    def stream_wait_event(self, stream, event):
        """Work queued on ``stream`` after this waits for ``event``'s recorded work."""
        self._call(self.vendor.stream_wait_event, stream, event, 0)

    def event_create(self, timing=True, blocking=False):
        return int(self._call(self.vendor.event_create,
                              (0 if timing else 2) | (1 if blocking else 0)))

    def event_destroy(self, h):
        self._call(self.vendor.event_destroy, h)

    def event_record(self, h, stream=None):
        self._call(self.vendor.event_record, h, 0 if stream is None else stream)

    def event_query(self, h):
        """Whether the work before the event's record has finished (True if never
        recorded, as the drivers answer)."""
        return self._query(self.vendor.event_query, h)

    def event_synchronize(self, h):
        self._call(self.vendor.event_synchronize, h)

    def event_elapsed_ms(self, start, end):
        return float(self._call(self.vendor.event_elapsed_ms, start, end))

    def synchronize(self):
        self._call(self.vendor.synchronize)

    # -- modules (kernels compiled by NVRTC / hiprtc, see garray._compiler) --
    def module_load(self, binary):
        """Load a CUBIN / code object; returns a module handle."""
        return self._call(self.vendor.module_load, binary)

    def module_function(self, module, name):
        """The kernel ``name`` (a lowered/mangled name) of a loaded module."""
        return self._call(self.vendor.module_function, module, name.encode())

    def activate(self):
        """Make this device current on the calling thread (before a raw launch)."""
        self._api()

    def allow_dynamic_shared(self, function, nbytes):
        """Let ``function`` launch with ``nbytes`` of dynamic shared memory (CUDA needs an
        attribute past 48 KiB; the launch itself reports a size the device lacks)."""
        if self.vendor.max_dynamic_shared is None or nbytes <= 48 * 1024:
            return
        call, attr = self.vendor.max_dynamic_shared
        api = self._api()
        self.check(getattr(api, call)(function, operator.attrgetter(attr)(api), nbytes),
                   f"{call}(max dynamic shared memory = {nbytes} bytes)")

    # what function_attributes reports: key -> the attribute's member suffix
    FUNCTION_ATTRIBUTES = {"max_threads": "MAX_THREADS_PER_BLOCK", "registers": "NUM_REGS",
                           "shared": "SHARED_SIZE_BYTES", "local": "LOCAL_SIZE_BYTES",
                           "max_dynamic_shared": "MAX_DYNAMIC_SHARED_SIZE_BYTES"}

    def function_attributes(self, function):
        """The driver's account of a loaded kernel: {"max_threads" (the largest block it
        can launch), "registers" (per thread), "shared" (static shared bytes), "local"
        (local/private bytes per thread), "max_dynamic_shared"}.  A failing query raises
        BackendError; a driver without the call gives {}."""
        if self.vendor.func_attribute is None:
            return {}
        call, enum, prefix = self.vendor.func_attribute
        api = self._api()
        out = {}
        for key, member in self.FUNCTION_ATTRIBUTES.items():
            attr = getattr(getattr(api, enum), prefix + member)
            out[key] = int(self.check(getattr(api, call)(attr, function), f"{call}({member})"))
        return out

    _limits = None

    def launch_limits(self):
        """{"max_threads_per_block", "max_grid_x", "max_shared"}: what one launch may ask
        for (max_shared: dynamic shared bytes after the opt-in of allow_dynamic_shared),
        queried once per runtime; defaults (1024, 2**31 - 1, the per-block shared memory)
        where the driver does not say."""
        if self._limits is None:
            shared = int(self.properties().get("shared_memory_per_block") or 48 * 1024)
            limits = {"max_threads_per_block": 1024, "max_grid_x": 2 ** 31 - 1,
                      "max_shared_optin": shared}
            call, enum, members = _LIMIT_ATTRIBUTES.get(self.kind, (None, None, {}))
            dev = getattr(self, "_device", self.index)     # CUDA: a CUdevice; HIP: the index
            for key, member in members.items():
                try:
                    api = self._api()
                    attr = getattr(getattr(api, enum), member)
                    value = int(self.check(getattr(api, call)(attr, dev), call))
                except Exception:  # an older driver or binding without this attribute
                    continue
                if value > 0:
                    limits[key] = value
            self._limits = {"max_threads_per_block": limits["max_threads_per_block"],
                            "max_grid_x": limits["max_grid_x"],
                            "max_shared": max(shared, limits["max_shared_optin"])}
        return self._limits
