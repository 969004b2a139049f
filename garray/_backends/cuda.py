"""CUDA backend: NVIDIA GPUs through cuda-bindings 13.x (driver API), see Note [Backend
interface] and Note [Vendor tables] (garray/_backends/_gpu.py).

cuda-bindings looks for ``libcuda.so`` on its first call, and when the driver is
missing that call raises cuda.pathfinder's ``DynamicLibNotFoundError`` instead of
returning a status.  The driver API has no current device, only current contexts: each
``Runtime`` retains the device's primary context (kept until the process exits, as the
runtime API does) and makes it current before every call.  cuda-bindings accepts ints
wherever it takes a CUdeviceptr, a host pointer or a handle, so they cross this module
as ints.
"""

from ._gpu import Calls, GpuRuntime, Vendor, c_string
from .._errors import BackendUnavailableError

KIND = "cuda"

_probe_cache = None  # (device count, None) or (0, reason)
_driver_module = None

VENDOR = Vendor(
    kind=KIND,
    binding="cuda.bindings.driver",
    binding_global="_driver_module",
    distribution="cuda-bindings",
    no_library="cuda: no NVIDIA driver (libcuda.so not found)",
    no_device="cuda: no NVIDIA GPU found",
    success="CUresult.CUDA_SUCCESS",
    out_of_memory="CUresult.CUDA_ERROR_OUT_OF_MEMORY",
    not_ready="CUresult.CUDA_ERROR_NOT_READY",
    error_name="cuGetErrorName",
    malloc="cuMemAlloc",
    free="cuMemFree",
    malloc_async="cuMemAllocAsync",
    free_async="cuMemFreeAsync",
    host_alloc="cuMemHostAlloc",
    host_free="cuMemFreeHost",
    memcpy_htod=Calls("cuMemcpyHtoD", "cuMemcpyHtoDAsync"),
    memcpy_dtoh=Calls("cuMemcpyDtoH", "cuMemcpyDtoHAsync"),
    memcpy_dtod=Calls("cuMemcpyDtoD", "cuMemcpyDtoDAsync"),
    memset=Calls("cuMemsetD8", "cuMemsetD8Async"),
    stream_create="cuStreamCreate",
    stream_create_priority="cuStreamCreateWithPriority",
    stream_destroy="cuStreamDestroy",
    stream_synchronize="cuStreamSynchronize",
    stream_query="cuStreamQuery",
    stream_wait_event="cuStreamWaitEvent",
    event_create="cuEventCreate",
    event_query="cuEventQuery",
    event_destroy="cuEventDestroy",
    event_record="cuEventRecord",
    event_synchronize="cuEventSynchronize",
    event_elapsed_ms="cuEventElapsedTime",
    synchronize="cuCtxSynchronize",
    module_load="cuModuleLoadData",
    module_function="cuModuleGetFunction",
    launch_library="libcuda.so.1",
    launch_symbol="cuLaunchKernel",
    max_dynamic_shared=("cuFuncSetAttribute",
                        "CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES"),
    func_attribute=("cuFuncGetAttribute", "CUfunction_attribute", "CU_FUNC_ATTRIBUTE_"),
)


class Runtime(GpuRuntime):
    """One NVIDIA GPU; every call first makes its primary context current."""

    vendor = VENDOR

    @classmethod
    def _count_devices(cls, driver):
        (err,) = cls._probe_call(driver, "cuInit", 0)
        if err == driver.CUresult.CUDA_ERROR_NO_DEVICE:
            raise BackendUnavailableError(
                "cuda: no NVIDIA GPU found (cuInit: CUDA_ERROR_NO_DEVICE)")
        if err != driver.CUresult.CUDA_SUCCESS:
            raise BackendUnavailableError(f"cuda: cuInit failed: {cls.error_name(err)}")
        err, count = cls._probe_call(driver, "cuDeviceGetCount")
        if err != driver.CUresult.CUDA_SUCCESS:
            raise BackendUnavailableError(f"cuda: cuDeviceGetCount failed: {cls.error_name(err)}")
        return count

    @staticmethod
    def _library_missing(exc):
        if any(cls.__name__ == "DynamicLibNotFoundError" for cls in type(exc).__mro__):
            return True  # cuda-bindings >= 12.9 (cuda.pathfinder)
        return isinstance(exc, (OSError, RuntimeError)) and "libcuda" in str(exc)  # older releases

    def __init__(self, index=0):
        super().__init__(index)
        self._device = self.check(self._binding.cuDeviceGet(self.index), "cuDeviceGet")
        self._context = self.check(self._binding.cuDevicePrimaryCtxRetain(self._device),
                                   "cuDevicePrimaryCtxRetain")

    def _api(self):
        driver = self._binding
        self.check(driver.cuCtxSetCurrent(self._context), "cuCtxSetCurrent")
        return driver

    def memcpy_peer(self, dst, src, src_runtime, nbytes, stream=None):
        """Copy nbytes from ``src`` on ``src_runtime``'s GPU to ``dst`` on this one."""
        if stream is None:
            self._call("cuMemcpyPeer", dst, self._context, src, src_runtime._context, nbytes)
        else:
            self._call("cuMemcpyPeerAsync", dst, self._context, src, src_runtime._context,
                       nbytes, stream)

    def properties(self):
        driver = self._api()
        dev = self._device

        def get(name):
            attr = getattr(driver.CUdevice_attribute, name)
            return int(self.check(driver.cuDeviceGetAttribute(attr, dev),
                                  f"cuDeviceGetAttribute({name})"))

        major = get("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR")
        minor = get("CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR")
        return {
            "name": c_string(self.check(driver.cuDeviceGetName(256, dev), "cuDeviceGetName")),
            "warp_size": get("CU_DEVICE_ATTRIBUTE_WARP_SIZE"),
            "multiprocessor_count": get("CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT"),
            "shared_memory_per_block": get("CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK"),
            "total_memory": int(self.check(driver.cuDeviceTotalMem(dev), "cuDeviceTotalMem")),
            "arch": f"sm_{major}{minor}",
        }


probe = Runtime.probe
availability = Runtime.availability
_check = Runtime.check
