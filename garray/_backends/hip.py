"""HIP backend: AMD GPUs through hip-python 7.2.x, see Note [Backend interface].

Lazy-loading rule: this module must import without hip-python, ROCm or a GPU.
``hip`` (hip-python) is imported *inside* functions, never at module level, and
hip-python itself only dlopens ``libamdhip64.so`` on its first call -- where a
missing library surfaces as ``RuntimeError("failed to dlopen ...")``.  ``probe()``
turns every such failure into one cached ``BackendUnavailableError`` reason.

hip-python calls return tuples ``(hipError_t, value...)``; ``_check`` unpacks them
and raises ``BackendError`` (``MemoryError`` for hipErrorOutOfMemory).  Pointers,
streams and events cross this module's boundary as Python ints (0 = default
stream); hip-python accepts ints wherever it takes a pointer or a handle.
"""

import sys
import operator

from . import DriverLaunch, cached_probe, check_result, probe_availability
from .._errors import BackendUnavailableError

KIND = "hip"
_NOT_INSTALLED = "hip: hip-python is not installed (pip install 'garray[hip]')"
_NO_LIBRARY = "hip: libamdhip64.so not found"

_probe_cache = None  # (device count, None) or (0, reason)
_hip_module = None


def _import_hip():
    """hip-python's ``hip`` module (imported on first use), or BackendUnavailableError."""
    global _hip_module
    if _hip_module is None:
        try:
            from hip import hip
        except ModuleNotFoundError as e:
            if e.name in ("hip", "hip.hip"):
                raise BackendUnavailableError(_NOT_INSTALLED) from e
            raise BackendUnavailableError(f"hip: hip-python failed to import: {e}") from e
        except ImportError as e:
            raise BackendUnavailableError(f"hip: hip-python failed to import: {e}") from e
        _hip_module = hip
    return _hip_module


def _error_name(hip, err):
    try:
        name = hip.hipGetErrorName(err)[1]
    except Exception:
        name = None
    if name is None:
        return getattr(err, "name", str(err))
    return name.decode() if hasattr(name, "decode") else str(name)


def _check(result, call):
    """Unpack a hip-python result tuple: raise on error, else return the value(s)."""
    hip = _import_hip()
    return check_result("hip", result, call, hip.hipError_t.hipSuccess,
                        hip.hipError_t.hipErrorOutOfMemory, lambda err: _error_name(hip, err))


def _probe():
    try:
        hip = _import_hip()
    except BackendUnavailableError as e:
        return 0, str(e)
    try:
        err, count = hip.hipGetDeviceCount()
    except RuntimeError as e:  # hip-python: "failed to dlopen 'b'libamdhip64.so'': ..."
        if "dlopen" in str(e) or "libamdhip64" in str(e):
            return 0, _NO_LIBRARY
        return 0, f"hip: hipGetDeviceCount raised RuntimeError: {e}"
    except Exception as e:
        return 0, f"hip: hipGetDeviceCount raised {type(e).__name__}: {e}"
    if err != hip.hipError_t.hipSuccess:
        return 0, f"hip: no AMD GPU found (hipGetDeviceCount: {_error_name(hip, err)})"
    if count <= 0:
        return 0, "hip: no AMD GPU found (hipGetDeviceCount: 0 devices)"
    return count, None


def probe():
    """Number of AMD GPUs; raises BackendUnavailableError (cached) when unusable."""
    return cached_probe(sys.modules[__name__])


def availability():
    return probe_availability(probe)


def _text(value):
    if isinstance(value, (bytes, bytearray)):
        value = bytes(value).split(b"\0", 1)[0].decode(errors="replace")
    return str(value)


class Runtime(DriverLaunch):
    """One AMD GPU; every call first makes it the thread's current device."""

    kind = KIND
    _launch_library = "libamdhip64.so"
    _launch_symbol = "hipModuleLaunchKernel"

    def __init__(self, index=0):
        index = operator.index(index)
        count = probe()
        if not 0 <= index < count:
            raise ValueError(f"device: hip:{index} does not exist; {count} hip device(s) found")
        self.index = index
        self._hip = _import_hip()

    def __repr__(self):
        return f"<garray hip runtime hip:{self.index}>"

    def _api(self):
        hip = self._hip
        _check(hip.hipSetDevice(self.index), "hipSetDevice")
        return hip

    def properties(self):
        hip = self._api()
        prop = hip.hipDeviceProp_t()
        _check(hip.hipGetDeviceProperties(prop, self.index), "hipGetDeviceProperties")
        return {
            "name": _text(prop.name),
            "warp_size": int(prop.warpSize),
            "multiprocessor_count": int(prop.multiProcessorCount),
            "shared_memory_per_block": int(prop.sharedMemPerBlock),
            "total_memory": int(prop.totalGlobalMem),
            "arch": _text(prop.gcnArchName),
        }

    # -- memory ----------------------------------------------------------
    def malloc(self, nbytes):
        nbytes = operator.index(nbytes)
        if nbytes < 0:
            raise ValueError(f"hip: malloc: negative size {nbytes}")
        hip = self._api()
        ptr = _check(hip.hipMalloc(nbytes), f"hipMalloc({nbytes} bytes) on hip:{self.index}")
        return 0 if ptr is None else int(ptr)  # hipMalloc(0) gives NULL

    def free(self, ptr):
        if ptr:
            _check(self._api().hipFree(ptr), "hipFree")

    def _memcpy(self, dst, src, nbytes, kind, stream):
        hip = self._api()
        kind = getattr(hip.hipMemcpyKind, kind)
        if stream is None:
            _check(hip.hipMemcpy(dst, src, nbytes, kind), "hipMemcpy")
        else:
            _check(hip.hipMemcpyAsync(dst, src, nbytes, kind, stream), "hipMemcpyAsync")

    def memcpy_htod(self, dst, src_host, nbytes, stream=None):
        self._memcpy(dst, src_host, nbytes, "hipMemcpyHostToDevice", stream)

    def memcpy_dtoh(self, dst_host, src, nbytes, stream=None):
        self._memcpy(dst_host, src, nbytes, "hipMemcpyDeviceToHost", stream)

    def memcpy_dtod(self, dst, src, nbytes, stream=None):
        self._memcpy(dst, src, nbytes, "hipMemcpyDeviceToDevice", stream)

    def memset(self, ptr, byte, nbytes, stream=None):
        if not 0 <= byte <= 255:
            raise ValueError(f"hip: memset: byte must be in 0..255; got {byte}")
        hip = self._api()
        if stream is None:
            _check(hip.hipMemset(ptr, byte, nbytes), "hipMemset")
        else:
            _check(hip.hipMemsetAsync(ptr, byte, nbytes, stream), "hipMemsetAsync")

    # -- streams and events -----------------------------------------------
    def stream_create(self):
        return int(_check(self._api().hipStreamCreate(), "hipStreamCreate"))

    def stream_destroy(self, h):
        _check(self._api().hipStreamDestroy(h), "hipStreamDestroy")

    def stream_synchronize(self, h):
        _check(self._api().hipStreamSynchronize(h), "hipStreamSynchronize")

    def event_create(self):
        return int(_check(self._api().hipEventCreate(), "hipEventCreate"))

    def event_destroy(self, h):
        _check(self._api().hipEventDestroy(h), "hipEventDestroy")

    def event_record(self, h, stream=None):
        _check(self._api().hipEventRecord(h, stream), "hipEventRecord")

    def event_synchronize(self, h):
        _check(self._api().hipEventSynchronize(h), "hipEventSynchronize")

    def event_elapsed_ms(self, start, end):
        return float(_check(self._api().hipEventElapsedTime(start, end), "hipEventElapsedTime"))

    def synchronize(self):
        _check(self._api().hipDeviceSynchronize(), "hipDeviceSynchronize")

    # ---- modules and launches (kernels compiled by hiprtc; see garray._compile) ----
    def module_load(self, binary):
        """Load a code object; returns a module handle."""
        return _check(self._api().hipModuleLoadData(binary), "hipModuleLoadData")

    def module_function(self, module, name):
        """The kernel ``name`` (a lowered/mangled name) of a loaded module."""
        return _check(self._api().hipModuleGetFunction(module, name.encode()),
                      "hipModuleGetFunction")

    def activate(self):
        """Make this device current on the calling thread (before a raw launch)."""
        self._api()
