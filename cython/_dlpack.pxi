# DLPack (https://dmlc.github.io/dlpack/): zero-copy exchange with NumPy, PyTorch,
# JAX, CuPy.  Export: __dlpack__ builds a (versioned when asked) managed tensor
# that keeps the array alive; import: from_dlpack wraps the producer's memory and
# calls its deleter when the last garray view of it dies.
from cpython.pycapsule cimport (PyCapsule_New, PyCapsule_IsValid, PyCapsule_GetPointer,
                                PyCapsule_SetName)
from cpython.ref cimport Py_DECREF, PyObject
from libc.stdint cimport int32_t, uint16_t, uint32_t, uint64_t

cdef extern from *:
    """
    typedef struct { int32_t device_type; int32_t device_id; } garray_DLDevice;
    typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } garray_DLDataType;
    typedef struct {
        void* data; garray_DLDevice device; int32_t ndim; garray_DLDataType dtype;
        int64_t* shape; int64_t* strides; uint64_t byte_offset;
    } garray_DLTensor;
    typedef struct garray_DLManagedTensor {
        garray_DLTensor dl_tensor; void* manager_ctx;
        void (*deleter)(struct garray_DLManagedTensor*);
    } garray_DLManagedTensor;
    typedef struct { uint32_t major; uint32_t minor; } garray_DLPackVersion;
    typedef struct garray_DLManagedTensorVersioned {
        garray_DLPackVersion version; void* manager_ctx;
        void (*deleter)(struct garray_DLManagedTensorVersioned*);
        uint64_t flags; garray_DLTensor dl_tensor;
    } garray_DLManagedTensorVersioned;
    """
    ctypedef struct garray_DLDevice:
        int32_t device_type
        int32_t device_id
    ctypedef struct garray_DLDataType:
        uint8_t code
        uint8_t bits
        uint16_t lanes
    ctypedef struct garray_DLTensor:
        void* data
        garray_DLDevice device
        int32_t ndim
        garray_DLDataType dtype
        int64_t* shape
        int64_t* strides
        uint64_t byte_offset
    ctypedef struct garray_DLManagedTensor:
        garray_DLTensor dl_tensor
        void* manager_ctx
        void (*deleter)(garray_DLManagedTensor*) noexcept nogil
    ctypedef struct garray_DLPackVersion:
        uint32_t major
        uint32_t minor
    ctypedef struct garray_DLManagedTensorVersioned:
        garray_DLPackVersion version
        void* manager_ctx
        void (*deleter)(garray_DLManagedTensorVersioned*) noexcept nogil
        uint64_t flags
        garray_DLTensor dl_tensor

cdef enum:
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLROCM = 10
    DL_READ_ONLY = 1

# dtype code -> (DLPack type code, bits): kDLBfloat 4, kDLFloat8_e4m3fn 10, kDLFloat8_e5m2 12
cdef int[_NCODES][2] _DL_TYPES = [[6, 8], [0, 8], [0, 16], [0, 32], [0, 64], [1, 8], [1, 16],
                             [1, 32], [1, 64], [2, 32], [2, 64], [5, 64], [5, 128],
                                   [2, 16], [4, 16], [10, 8], [12, 8]]
_DL_KIND = {"cpu": kDLCPU, "cuda": kDLCUDA, "hip": kDLROCM}


cdef tuple _dlpack_device(ndarray a):
    return (_DL_KIND[a._device.kind], a._device.index)


cdef void _fill_dltensor(garray_DLTensor* t, ndarray a, int64_t* shape_strides) noexcept:
    cdef int i
    t.data = <void*>a._ptr
    t.device.device_type = _DL_KIND_C(a)
    t.device.device_id = a._device.index
    t.ndim = a._nd
    t.dtype.code = _DL_TYPES[a._code][0]
    t.dtype.bits = _DL_TYPES[a._code][1]
    t.dtype.lanes = 1
    t.shape = shape_strides
    t.strides = shape_strides + a._nd
    t.byte_offset = 0
    for i in range(a._nd):
        shape_strides[i] = a._shape[i]
        shape_strides[a._nd + i] = a._strides[i] // a._itemsize


cdef int _DL_KIND_C(ndarray a) noexcept:
    if a._is_cpu:
        return kDLCPU
    return kDLCUDA if a._device.kind == "cuda" else kDLROCM


cdef void _deleter_unversioned(garray_DLManagedTensor* m) noexcept nogil:
    with gil:
        Py_DECREF(<object>m.manager_ctx)
    free(m)


cdef void _deleter_versioned(garray_DLManagedTensorVersioned* m) noexcept nogil:
    with gil:
        Py_DECREF(<object>m.manager_ctx)
    free(m)


cdef void _capsule_unversioned(object cap) noexcept:
    cdef garray_DLManagedTensor* m
    if PyCapsule_IsValid(cap, b"dltensor"):   # never consumed
        m = <garray_DLManagedTensor*>PyCapsule_GetPointer(cap, b"dltensor")
        m.deleter(m)


cdef void _capsule_versioned(object cap) noexcept:
    cdef garray_DLManagedTensorVersioned* m
    if PyCapsule_IsValid(cap, b"dltensor_versioned"):
        m = <garray_DLManagedTensorVersioned*>PyCapsule_GetPointer(cap, b"dltensor_versioned")
        m.deleter(m)


cdef int _dlpack_stream_order(ndarray a, object stream) except -1:
    """The consumer's ``stream`` must see garray's work on the array (DLPack's stream
    semantics): work is queued on the producing thread's current stream (Note [Current
    streams]); unless the consumer's stream is that one, or both are blocking default
    streams (the legacy one and a per-thread one order each other), an event recorded
    on it is made the consumer stream's wait -- no host or device synchronisation.
    None means the legacy default stream (CUDA 1, HIP 0); -1 asks for no ordering."""
    cdef intptr_t producer, consumer
    if a._is_cpu:
        return 0
    kind = a._device.kind
    if stream is None:
        consumer = 0
    else:
        if not isinstance(stream, int) or isinstance(stream, bool):
            raise TypeError(f"stream: expected an int or None, got {type(stream).__name__}")
        if stream == -1:
            return 0
        if kind == "cuda" and stream == 0:
            raise ValueError("stream: 0 is ambiguous for CUDA and not allowed by DLPack; use 1 "
                             "(legacy default stream) or 2 (per-thread default stream)")
        if stream < 0:
            raise ValueError(f"stream: expected a stream handle, 1, 2 or -1; got {stream}")
        consumer = 0 if (kind == "cuda" and stream == 1) else stream
    producer = _stream_of(a._device)
    if consumer == producer or ((consumer == 0 or consumer == 2) and
                                (producer == 0 or producer == 2)):
        return 0
    _cross_wait(a._device.runtime, producer, a._device.runtime, consumer)
    return 0


cdef object _dlpack_args(object stream, object max_version, object dl_device, object copy):
    """The keywords of ``__dlpack__`` checked as NumPy checks them (the exception class
    naming the keyword): ``stream`` None or an int; ``max_version`` None or two ints;
    ``dl_device`` None or (device type, index) ints; ``copy`` as every copy= keyword
    (_check_copy).  Returns
    (max_version, dl_device) as tuples or None."""
    if stream is not None and (not isinstance(stream, int) or isinstance(stream, bool)):
        raise TypeError(f"stream: expected an int or None, got {type(stream).__name__}")
    if max_version is not None:
        if not isinstance(max_version, (tuple, list)) or len(max_version) != 2 or not all(
                isinstance(v, int) for v in max_version):
            raise TypeError(f"max_version must be None or a tuple of two ints (major, "
                            f"minor), got {max_version!r}")
        max_version = tuple(max_version)
    if dl_device is not None:
        if not isinstance(dl_device, (tuple, list)) or len(dl_device) != 2 or not all(
                isinstance(v, int) for v in dl_device):
            raise TypeError(f"dl_device must be None or a tuple of two ints (device type, "
                            f"device index), got {dl_device!r}")
        dl_device = tuple(dl_device)
    _check_copy(copy)
    return max_version, dl_device


cdef object _to_dlpack(ndarray a, object stream, object max_version, object dl_device,
                       object copy):
    cdef garray_DLManagedTensor* m
    cdef garray_DLManagedTensorVersioned* mv
    cdef size_t extra = 2 * a._nd * sizeof(int64_t)
    cdef int i
    max_version, dl_device = _dlpack_args(stream, max_version, dl_device, copy)
    _dlpack_stream_order(a, stream)
    if dl_device is not None and dl_device != _dlpack_device(a):
        if copy is False:
            raise BufferError(f"dl_device: {dl_device} differs from the array's device "
                              f"{_dlpack_device(a)} and copy=False")
        target = {kDLCPU: "cpu", kDLCUDA: "cuda", kDLROCM: "hip"}.get(dl_device[0])
        if target is None:
            raise BufferError(f"dl_device: unsupported device type {dl_device[0]}")
        try:
            dev = Device(target, dl_device[1])
        except (ValueError, RuntimeError) as e:      # no such device, or no driver
            raise BufferError(f"dl_device: cannot export to {dl_device}: {e}") from e
        a = _transfer(a, dev)
    elif copy:
        a = _copy_array(a)
    for i in range(a._nd):
        if a._strides[i] % a._itemsize:
            raise BufferError(f"__dlpack__: stride {a._strides[i]} of axis {i} is not a "
                              f"multiple of the itemsize {a._itemsize}; DLPack counts "
                              f"strides in elements (copy the array first)")
    owner = a
    if max_version is not None and max_version[0] >= 1:
        mv = <garray_DLManagedTensorVersioned*>malloc(sizeof(garray_DLManagedTensorVersioned) + extra)
        if mv == NULL:
            raise MemoryError()
        mv.version.major = 1
        mv.version.minor = 0
        mv.flags = DL_READ_ONLY if a._flags & FLAG_READONLY else 0
        _fill_dltensor(&mv.dl_tensor, a, <int64_t*>(mv + 1))
        mv.manager_ctx = <void*>owner
        mv.deleter = _deleter_versioned
        Py_INCREF(owner)
        return PyCapsule_New(mv, b"dltensor_versioned", _capsule_versioned)
    if a._flags & FLAG_READONLY:
        raise BufferError("__dlpack__: a read-only array needs a DLPack >= 1.0 consumer "
                          "(max_version=(1, 0)) to carry the read-only flag")
    m = <garray_DLManagedTensor*>malloc(sizeof(garray_DLManagedTensor) + extra)
    if m == NULL:
        raise MemoryError()
    _fill_dltensor(&m.dl_tensor, a, <int64_t*>(m + 1))
    m.manager_ctx = <void*>owner
    m.deleter = _deleter_unversioned
    Py_INCREF(owner)
    return PyCapsule_New(m, b"dltensor", _capsule_unversioned)


cdef class _DLPackOwner:
    """Keeps an imported DLPack tensor alive; calls the producer's deleter at the end."""
    cdef void* _m
    cdef bint _versioned
    cdef object _capsule

    def __dealloc__(self):
        if self._m == NULL:
            return
        if self._versioned:
            if (<garray_DLManagedTensorVersioned*>self._m).deleter != NULL:
                (<garray_DLManagedTensorVersioned*>self._m).deleter(
                    <garray_DLManagedTensorVersioned*>self._m)
        elif (<garray_DLManagedTensor*>self._m).deleter != NULL:
            (<garray_DLManagedTensor*>self._m).deleter(<garray_DLManagedTensor*>self._m)


cdef dict _dlpack_consumer_stream(object x):
    """``{"stream": h}``: garray's current stream on the producer's GPU, which DLPack
    asks the producer to order its work before (CUDA's legacy stream is 1 there);
    ``{}`` for host memory, or when the device is not one garray can use."""
    cdef intptr_t h
    try:
        dl_type, dl_id = x.__dlpack_device__()
        if dl_type == kDLCUDA:
            dev = Device("cuda", int(dl_id))
        elif dl_type == kDLROCM:
            dev = Device("hip", int(dl_id))
        else:
            return {}
    except Exception:     # no __dlpack_device__, or a device garray cannot open
        return {}
    h = _stream_of(dev)
    if dl_type == kDLCUDA and h == 0:
        h = 1
    return {"stream": h}


def from_dlpack(x, /, *, device=None, copy=None):
    """A garray array sharing the memory of any DLPack producer (NumPy, PyTorch ...).

    ``copy=True`` copies; ``device=`` moves it after import.

    Parameters
    ----------
    x : object
        A DLPack producer.
    device : Device or str, optional
        Move the result there after import.
    copy : bool or None, optional
        True: copy; False: never copy; None: only when needed.

    Returns
    -------
    ndarray
        Sharing x's memory unless copied.

    See Also
    --------
    numpy.from_dlpack
    """
    cdef garray_DLTensor* t
    cdef _DLPackOwner owner
    cdef ndarray r
    cdef int i
    cdef bint readonly = False
    _check_copy(copy)
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"x: {type(x).__name__} does not support the DLPack protocol "
                        f"(no __dlpack__ method)")
    kw = _dlpack_consumer_stream(x)
    try:
        cap = x.__dlpack__(max_version=(1, 0), **kw)
    except TypeError:
        cap = x.__dlpack__(**kw)
    owner = _DLPackOwner.__new__(_DLPackOwner)
    if PyCapsule_IsValid(cap, b"dltensor_versioned"):
        owner._m = PyCapsule_GetPointer(cap, b"dltensor_versioned")
        owner._versioned = True
        PyCapsule_SetName(cap, b"used_dltensor_versioned")
        t = &(<garray_DLManagedTensorVersioned*>owner._m).dl_tensor
        readonly = ((<garray_DLManagedTensorVersioned*>owner._m).flags & DL_READ_ONLY) != 0
        if (<garray_DLManagedTensorVersioned*>owner._m).version.major > 1:
            raise BufferError("x: DLPack major version > 1 is not supported")
    elif PyCapsule_IsValid(cap, b"dltensor"):
        owner._m = PyCapsule_GetPointer(cap, b"dltensor")
        PyCapsule_SetName(cap, b"used_dltensor")
        t = &(<garray_DLManagedTensor*>owner._m).dl_tensor
    else:
        raise TypeError("x: __dlpack__ did not return a DLPack capsule")
    if t.device.device_type in (kDLCPU, kDLCUDAHost):
        src_dev = Device("cpu")
    elif t.device.device_type == kDLCUDA:
        src_dev = Device("cuda", t.device.device_id)
    elif t.device.device_type == kDLROCM:
        src_dev = Device("hip", t.device.device_id)
    else:
        raise BufferError(f"x: unsupported DLPack device type {t.device.device_type}")
    code = None
    for i in range(_NCODES):
        if _DL_TYPES[i][0] == t.dtype.code and _DL_TYPES[i][1] == t.dtype.bits:
            code = i
    if code is None or t.dtype.lanes != 1:
        raise TypeError(f"x: unsupported DLPack dtype (code {t.dtype.code}, "
                        f"bits {t.dtype.bits}, lanes {t.dtype.lanes})")
    if t.ndim > MAX_NDIM:
        raise ValueError(f"x: at most {MAX_NDIM} dimensions are supported")
    r = ndarray.__new__(ndarray)
    _reserve_nd(r, t.ndim)
    r._nd = t.ndim
    r._dtype = _code_dtype[code]
    r._code = code
    r._itemsize = r._dtype.itemsize
    r._device = src_dev
    r._is_cpu = src_dev.kind == "cpu"
    r._ptr = <intptr_t>t.data + <intptr_t>t.byte_offset
    r._base = owner
    for i in range(t.ndim):
        if t.shape[i] < 0:
            raise BufferError(f"x: negative DLPack shape {t.shape[i]} on axis {i}")
        r._shape[i] = t.shape[i]
    _checked_size(r._shape, t.ndim, r._itemsize)
    if t.strides == NULL:
        _set_c_strides(r)
    else:
        for i in range(t.ndim):
            r._strides[i] = t.strides[i] * r._itemsize
    r._flags = FLAG_READONLY if readonly else 0
    _update_flags(r)
    if device is not None and _resolve_device(device) is not src_dev:
        if copy is False:
            raise ValueError(f"copy=False: moving the data to {device} needs a copy")
        return _transfer(r, _resolve_device(device))
    if copy:
        return _copy_array(r)
    return r
