"""CUDA backend: NVIDIA GPUs through cuda-bindings 13.x (driver API), see Note [Backend interface].

Lazy-loading rule: this module must import without cuda-bindings, a driver or a
GPU.  ``cuda.bindings.driver`` is imported *inside* functions, never at module
level.  cuda-bindings looks for ``libcuda.so`` only on its first call, and when the
driver is missing that call *raises* (cuda.pathfinder's ``DynamicLibNotFoundError``,
a RuntimeError subclass) instead of returning an error code.  ``probe()`` turns
every such failure into one cached ``BackendUnavailableError`` reason.

Each ``Runtime`` retains the device's primary context (kept until the process
exits) and makes it current before every call.  cuda-bindings calls return tuples
``(CUresult, value...)``; ``_check`` unpacks them and raises ``BackendError``
(``MemoryError`` for CUDA_ERROR_OUT_OF_MEMORY).  Pointers, streams and events cross
this module's boundary as Python ints (0 = default stream); cuda-bindings accepts
ints wherever it takes a CUdeviceptr, a host pointer or a handle.
"""

import sys
import operator

from . import DriverLaunch, cached_probe, check_result, probe_availability
from .._errors import BackendUnavailableError

KIND = "cuda"
_NOT_INSTALLED = "cuda: cuda-bindings is not installed (pip install 'garray[cuda]')"
_NO_DRIVER = "cuda: no NVIDIA driver (libcuda.so not found)"

_probe_cache = None  # (device count, None) or (0, reason)
_driver_module = None


def _import_driver():
    """cuda-bindings' ``driver`` module (imported on first use), or BackendUnavailableError."""
    global _driver_module
    if _driver_module is None:
        try:
            from cuda.bindings import driver
        except ModuleNotFoundError as e:
            if e.name in ("cuda", "cuda.bindings", "cuda.bindings.driver"):
                raise BackendUnavailableError(_NOT_INSTALLED) from e
            raise BackendUnavailableError(f"cuda: cuda-bindings failed to import: {e}") from e
        except ImportError as e:
            raise BackendUnavailableError(f"cuda: cuda-bindings failed to import: {e}") from e
        _driver_module = driver
    return _driver_module


def _error_name(driver, err):
    try:
        name = driver.cuGetErrorName(err)[1]
    except Exception:
        name = None
    if not name:
        return getattr(err, "name", str(err))
    return name.decode() if hasattr(name, "decode") else str(name)


def _check(result, call):
    """Unpack a cuda-bindings result tuple: raise on error, else return the value(s)."""
    driver = _import_driver()
    return check_result("cuda", result, call, driver.CUresult.CUDA_SUCCESS,
                        driver.CUresult.CUDA_ERROR_OUT_OF_MEMORY,
                        lambda err: _error_name(driver, err))


def _driver_missing(exc):
    """Whether ``exc``, raised by a driver call, means libcuda.so could not be loaded."""
    if any(cls.__name__ == "DynamicLibNotFoundError" for cls in type(exc).__mro__):
        return True  # cuda-bindings >= 12.9 (cuda.pathfinder)
    return isinstance(exc, (OSError, RuntimeError)) and "libcuda" in str(exc)  # older releases


def _probe():
    try:
        driver = _import_driver()
    except BackendUnavailableError as e:
        return 0, str(e)
    try:
        (err,) = driver.cuInit(0)
    except Exception as e:
        if _driver_missing(e):
            return 0, _NO_DRIVER
        return 0, f"cuda: cuInit raised {type(e).__name__}: {e}"
    if err == driver.CUresult.CUDA_ERROR_NO_DEVICE:
        return 0, "cuda: no NVIDIA GPU found (cuInit: CUDA_ERROR_NO_DEVICE)"
    if err != driver.CUresult.CUDA_SUCCESS:
        return 0, f"cuda: cuInit failed: {_error_name(driver, err)}"
    err, count = driver.cuDeviceGetCount()
    if err != driver.CUresult.CUDA_SUCCESS:
        return 0, f"cuda: cuDeviceGetCount failed: {_error_name(driver, err)}"
    if count <= 0:
        return 0, "cuda: no NVIDIA GPU found"
    return count, None


def probe():
    """Number of NVIDIA GPUs; raises BackendUnavailableError (cached) when unusable."""
    return cached_probe(sys.modules[__name__])


def availability():
    return probe_availability(probe)


class Runtime(DriverLaunch):
    """One NVIDIA GPU; every call first makes its primary context current."""

    kind = KIND
    _launch_library = "libcuda.so.1"
    _launch_symbol = "cuLaunchKernel"

    def __init__(self, index=0):
        index = operator.index(index)
        count = probe()
        if not 0 <= index < count:
            raise ValueError(f"device: cuda:{index} does not exist; {count} cuda device(s) found")
        self.index = index
        self._driver = driver = _import_driver()
        self._device = _check(driver.cuDeviceGet(index), "cuDeviceGet")
        self._context = _check(driver.cuDevicePrimaryCtxRetain(self._device), "cuDevicePrimaryCtxRetain")

    def __repr__(self):
        return f"<garray cuda runtime cuda:{self.index}>"

    def _api(self):
        driver = self._driver
        _check(driver.cuCtxSetCurrent(self._context), "cuCtxSetCurrent")
        return driver

    def properties(self):
        driver = self._api()
        dev = self._device
        attr = driver.CUdevice_attribute

        def get(name):
            return int(_check(driver.cuDeviceGetAttribute(getattr(attr, name), dev), f"cuDeviceGetAttribute({name})"))

        name = _check(driver.cuDeviceGetName(256, dev), "cuDeviceGetName")
        major = get("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR")
        minor = get("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR")
        return {
            "name": bytes(name).split(b"\0", 1)[0].decode(errors="replace"),
            "warp_size": get("CU_DEVICE_ATTRIBUTE_WARP_SIZE"),
            "multiprocessor_count": get("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT"),
            "shared_memory_per_block": get("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK"),
            "total_memory": int(_check(driver.cuDeviceTotalMem(dev), "cuDeviceTotalMem")),
            "arch": f"sm_{major}{minor}",
        }

    # -- memory ----------------------------------------------------------
    def malloc(self, nbytes):
        nbytes = operator.index(nbytes)
        if nbytes < 0:
            raise ValueError(f"cuda: malloc: negative size {nbytes}")
        if nbytes == 0:
            return 0  # cuMemAlloc rejects 0 bytes; hip and cpu give NULL too
        ptr = _check(self._api().cuMemAlloc(nbytes), f"cuMemAlloc({nbytes} bytes) on cuda:{self.index}")
        return int(ptr)

    def free(self, ptr):
        if ptr:
            _check(self._api().cuMemFree(ptr), "cuMemFree")

    def memcpy_htod(self, dst, src_host, nbytes, stream=None):
        driver = self._api()
        if stream is None:
            _check(driver.cuMemcpyHtoD(dst, src_host, nbytes), "cuMemcpyHtoD")
        else:
            _check(driver.cuMemcpyHtoDAsync(dst, src_host, nbytes, stream), "cuMemcpyHtoDAsync")

    def memcpy_dtoh(self, dst_host, src, nbytes, stream=None):
        driver = self._api()
        if stream is None:
            _check(driver.cuMemcpyDtoH(dst_host, src, nbytes), "cuMemcpyDtoH")
        else:
            _check(driver.cuMemcpyDtoHAsync(dst_host, src, nbytes, stream), "cuMemcpyDtoHAsync")

    def memcpy_dtod(self, dst, src, nbytes, stream=None):
        driver = self._api()
        if stream is None:
            _check(driver.cuMemcpyDtoD(dst, src, nbytes), "cuMemcpyDtoD")
        else:
            _check(driver.cuMemcpyDtoDAsync(dst, src, nbytes, stream), "cuMemcpyDtoDAsync")

    def memset(self, ptr, byte, nbytes, stream=None):
        if not 0 <= byte <= 255:
            raise ValueError(f"cuda: memset: byte must be in 0..255; got {byte}")
        driver = self._api()
        if stream is None:
            _check(driver.cuMemsetD8(ptr, byte, nbytes), "cuMemsetD8")
        else:
            _check(driver.cuMemsetD8Async(ptr, byte, nbytes, stream), "cuMemsetD8Async")

    # -- streams and events -----------------------------------------------
    def stream_create(self):
        return int(_check(self._api().cuStreamCreate(0), "cuStreamCreate"))

    def stream_destroy(self, h):
        _check(self._api().cuStreamDestroy(h), "cuStreamDestroy")

    def stream_synchronize(self, h):
        _check(self._api().cuStreamSynchronize(h), "cuStreamSynchronize")

    def event_create(self):
        return int(_check(self._api().cuEventCreate(0), "cuEventCreate"))  # CU_EVENT_DEFAULT: timed

    def event_destroy(self, h):
        _check(self._api().cuEventDestroy(h), "cuEventDestroy")

    def event_record(self, h, stream=None):
        _check(self._api().cuEventRecord(h, 0 if stream is None else stream), "cuEventRecord")

    def event_synchronize(self, h):
        _check(self._api().cuEventSynchronize(h), "cuEventSynchronize")

    def event_elapsed_ms(self, start, end):
        return float(_check(self._api().cuEventElapsedTime(start, end), "cuEventElapsedTime"))

    def synchronize(self):
        _check(self._api().cuCtxSynchronize(), "cuCtxSynchronize")

    # ---- modules and launches (kernels compiled by NVRTC; see garray._compile) ----
    def module_load(self, binary):
        """Load a CUBIN; returns a module handle."""
        return _check(self._api().cuModuleLoadData(binary), "cuModuleLoadData")

    def module_function(self, module, name):
        """The kernel ``name`` (a lowered/mangled name) of a loaded module."""
        return _check(self._api().cuModuleGetFunction(module, name.encode()),
                      "cuModuleGetFunction")

    def activate(self):
        """Make this device current on the calling thread (before a raw launch)."""
        self._api()
