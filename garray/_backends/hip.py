"""HIP backend: AMD GPUs through hip-python 7.2.x, see Note [Backend interface] and
Note [Vendor tables] (garray/_backends/_gpu.py).

hip-python dlopens ``libamdhip64.so`` on its first call, and a missing library
surfaces there as ``RuntimeError("failed to dlopen ...")``.  hip-python accepts ints
wherever it takes a pointer or a handle, so they cross this module as ints.
"""

from ._gpu import Calls, GpuRuntime, Vendor, c_string
from .._errors import BackendUnavailableError

KIND = "hip"

_probe_cache = None  # (device count, None) or (0, reason)
_hip_module = None

VENDOR = Vendor(
    kind=KIND,
    binding="hip.hip",
    binding_global="_hip_module",
    distribution="hip-python",
    no_library="hip: libamdhip64.so not found",
    no_device="hip: no AMD GPU found (hipGetDeviceCount: 0 devices)",
    success="hipError_t.hipSuccess",
    out_of_memory="hipError_t.hipErrorOutOfMemory",
    not_ready="hipError_t.hipErrorNotReady",
    error_name="hipGetErrorName",
    malloc="hipMalloc",
    free="hipFree",
    malloc_async="hipMallocAsync",
    free_async="hipFreeAsync",
    host_alloc="hipHostMalloc",
    host_free="hipHostFree",
    memcpy_htod=Calls("hipMemcpy", "hipMemcpyAsync", "hipMemcpyKind.hipMemcpyHostToDevice"),
    memcpy_dtoh=Calls("hipMemcpy", "hipMemcpyAsync", "hipMemcpyKind.hipMemcpyDeviceToHost"),
    memcpy_dtod=Calls("hipMemcpy", "hipMemcpyAsync", "hipMemcpyKind.hipMemcpyDeviceToDevice"),
    memset=Calls("hipMemset", "hipMemsetAsync"),
    stream_create="hipStreamCreateWithFlags",
    stream_create_priority="hipStreamCreateWithPriority",
    stream_destroy="hipStreamDestroy",
    stream_synchronize="hipStreamSynchronize",
    stream_query="hipStreamQuery",
    stream_wait_event="hipStreamWaitEvent",
    event_create="hipEventCreateWithFlags",
    event_query="hipEventQuery",
    event_destroy="hipEventDestroy",
    event_record="hipEventRecord",
    event_synchronize="hipEventSynchronize",
    event_elapsed_ms="hipEventElapsedTime",
    synchronize="hipDeviceSynchronize",
    module_load="hipModuleLoadData",
    module_function="hipModuleGetFunction",
    launch_library="libamdhip64.so",
    launch_symbol="hipModuleLaunchKernel",
    func_attribute=("hipFuncGetAttribute", "hipFunction_attribute", "HIP_FUNC_ATTRIBUTE_"),
)


class Runtime(GpuRuntime):
    """One AMD GPU; every call first makes it the thread's current device."""

    vendor = VENDOR

    @classmethod
    def _count_devices(cls, hip):
        err, count = cls._probe_call(hip, "hipGetDeviceCount")
        if err != hip.hipError_t.hipSuccess:
            raise BackendUnavailableError(
                f"hip: no AMD GPU found (hipGetDeviceCount: {cls.error_name(err)})")
        return count

    @staticmethod
    def _library_missing(exc):
        return isinstance(exc, RuntimeError) and ("dlopen" in str(exc) or "libamdhip64" in str(exc))

    def _api(self):
        hip = self._binding
        self.check(hip.hipSetDevice(self.index), "hipSetDevice")
        return hip

    def memcpy_peer(self, dst, src, src_runtime, nbytes, stream=None):
        """Copy nbytes from ``src`` on ``src_runtime``'s GPU to ``dst`` on this one."""
        if stream is None:
            self._call("hipMemcpyPeer", dst, self.index, src, src_runtime.index, nbytes)
        else:
            self._call("hipMemcpyPeerAsync", dst, self.index, src, src_runtime.index, nbytes,
                       stream)

    def properties(self):
        hip = self._api()
        prop = hip.hipDeviceProp_t()
        self.check(hip.hipGetDeviceProperties(prop, self.index), "hipGetDeviceProperties")
        return {
            "name": c_string(prop.name),
            "warp_size": int(prop.warpSize),
            "multiprocessor_count": int(prop.multiProcessorCount),
            "shared_memory_per_block": int(prop.sharedMemPerBlock),
            "total_memory": int(prop.totalGlobalMem),
            "arch": c_string(prop.gcnArchName),
        }


probe = Runtime.probe
availability = Runtime.availability
_check = Runtime.check
