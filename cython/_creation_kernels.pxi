# Creation kernels (_kernels/creation.hip): fills, arange, linspace, eye, tril/triu.
# The host computes only the defining scalars (NumPy's arithmetic for the first values
# and the step); every element is written on the array's device.

cdef enum:
    # Slots of garray._tables.ops.creation_table (tests/test_registry.py checks them).
    C_FILL = 0
    C_ARANGE = 1
    C_LINSPACE = 2
    C_EYE = 3
    C_TRI32 = 4
    C_TRI64 = 5


cdef _Kernels _creation_kernels():
    cdef _Kernels k = _table("creation", _optable_mod.creation_table)
    k.element_per_thread = True     # one per GPU thread; GA_CPU_CHUNK per CPU thread
    return k


cdef int _host_scalar(object value, ndarray like, _Scalar* out) except -1:
    """A value converted to like's dtype with NumPy's casting (setitem semantics)."""
    raw = numpy.asarray(value, dtype=like._dtype).tobytes()
    memcpy(out, <char*>raw, like._itemsize)
    return 0


cdef int _fill_kernel(ndarray a, object value) except -1:
    """Fill a C-contiguous array with one value, on its device."""
    cdef _Scalar sv
    cdef void* args[3]
    cdef intptr_t po = a._ptr
    cdef int64_t n = a._size
    if n == 0:
        return 0
    _host_scalar(value, a, &sv)
    args[0] = &po
    args[1] = &sv
    args[2] = &n
    return _creation_kernels().launch(a, a._code, C_FILL, n, args)


def _arange_kernel(int64_t n, start, second, dtype, device):
    cdef ndarray a = empty((n,), dtype=dtype, device=device)
    cdef _Scalar sc[3]
    cdef void* args[5]
    cdef intptr_t po = a._ptr
    cdef int i
    first_h = numpy.asarray(start, dtype=a._dtype)
    second_h = numpy.asarray(second, dtype=a._dtype)
    with numpy.errstate(all="ignore"):
        if _is_narrow(a._code):     # in float, not rounded (creation.hip, arange_c)
            delta_h = second_h.astype(numpy.float32) - first_h.astype(numpy.float32)
        else:
            delta_h = numpy.asarray(second_h - first_h, dtype=a._dtype)
    args[0] = &po
    for i, h in enumerate((first_h, second_h, delta_h)):
        raw = h.tobytes()
        memcpy(&sc[i], <char*>raw, len(raw))
        args[1 + i] = &sc[i]
    args[4] = &n
    _creation_kernels().launch(a, a._code, C_ARANGE, n, args)
    return a


def _linspace_kernel(int64_t n, start, step, stop, delta, double div, int flags, dtype, device):
    cdef ndarray a = empty((n,), dtype=dtype, device=device)
    cdef _Scalar sc[4]
    cdef void* args[8]
    cdef intptr_t po = a._ptr
    cdef int code_c = 12 if _is_complex_code(a._code) else 10, i
    args[0] = &po
    for i, v in enumerate((start, step, stop, delta)):
        v = complex(v) if code_c == _C128 else float(v.real if isinstance(v, complex) else v)
        _pack_scalar(v, code_c, &sc[i], "linspace")
        args[1 + i] = &sc[i]
    args[5] = &div
    args[6] = &n
    args[7] = &flags
    _creation_kernels().launch(a, a._code, C_LINSPACE, n, args)
    return a


def _eye_kernel(int64_t n_rows, int64_t n_cols, int64_t k, dtype, device):
    cdef ndarray a = empty((n_rows, n_cols), dtype=dtype, device=device)
    cdef void* args[4]
    cdef intptr_t po = a._ptr
    cdef int64_t n = a._size
    args[0] = &po
    args[1] = &n_cols
    args[2] = &k
    args[3] = &n
    _creation_kernels().launch(a, a._code, C_EYE, n, args)
    return a


def _tri_kernel(ndarray x, int64_t k, bint lower):
    cdef ndarray o = _new_array(x._dtype, x._nd, x._shape, x._device)
    cdef _Iter it
    cdef void* args[8]
    cdef int64_t n = o._size, rows = x._shape[x._nd - 2], cols = x._shape[x._nd - 1]
    cdef int32_t r32, c32, k32
    cdef int i, low = lower, slot
    if n == 0:
        return o
    if x._nd > _KERNEL_NDIM:
        raise NotImplementedError(f"tril/triu of {x._nd} dimensions: garray's kernel takes "
                                  f"at most {_KERNEL_NDIM} (reshape the batch axes into one)")
    _iter_init(&it, o, x, None, None, False)
    # tri_s computes row/col from the flat index: it needs the full (uncollapsed) shape.
    it.p.ndim = x._nd
    for i in range(x._nd):
        it.p.shape[i] = x._shape[i]
        it.p.strides[0][i] = o._strides[i]
        it.p.strides[1][i] = x._strides[i]
    _iter_args(&it, args)
    if it.layout == L_S32 and -(1 << 30) < k < (1 << 30):
        r32, c32, k32 = <int32_t>rows, <int32_t>cols, <int32_t>k
        args[4], args[5], args[6] = &r32, &c32, &k32
        slot = C_TRI32
    else:
        args[3] = &it.n
        args[4], args[5], args[6] = &rows, &cols, &k
        slot = C_TRI64
    args[7] = &low
    _creation_kernels().launch(o, o._code, slot, n, args)
    return o
