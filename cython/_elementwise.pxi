# Note [Elementwise launch path]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# `a + b` -> ndarray.__add__ -> _binary(kernel table of `add`, a, b, out):
#   1. operands: ndarrays, or Python scalars kept weak (NEP 50); NumPy scalars are
#      0-d arrays of their dtype; anything else -> NotImplemented / TypeError;
#   2. promotion: a C table lookup (arrays) or the weak-scalar rule, then the op's
#      compute dtype (per-op C array built from the op table); -1 -> TypeError;
#   3. inputs of another dtype are cast first by the cast kernels; scalars are packed
#      by value in the compute dtype (ints out of range -> OverflowError, as NumPy);
#   4. broadcast; the result (or `out=`) is allocated; inputs that partially overlap
#      the output are copied first;
#   5. layout: all contiguous with the output's shape -> *_c; one contiguous array and
#      one scalar -> *_cs/*_sc; else strided with axes collapsed and 32-bit indexing
#      when every byte offset fits, 64-bit otherwise;
#   6. the kernel comes from the op's C table [compute dtype][layout]; a miss compiles
#      the op's unit (every dtype at once) and fills the table;
#   7. launch: on the CPU a direct call of the entry address, on GPUs the backend's
#      launch.

from libc.stdint cimport int8_t, int16_t, int32_t, uint16_t, uint32_t, uint64_t

ctypedef int (*_host_entry)(unsigned int, unsigned int, void**) noexcept nogil
# cuLaunchKernel and hipModuleLaunchKernel share this C signature.
ctypedef int (*_drv_launch)(void*, unsigned int, unsigned int, unsigned int, unsigned int,
                            unsigned int, unsigned int, unsigned int, void*, void**,
                            void**) noexcept nogil

cdef struct _Strided2:
    int ndim
    int64_t shape[MAX_NDIM]
    int64_t strides[2][MAX_NDIM]

cdef struct _Strided3:
    int ndim
    int64_t shape[MAX_NDIM]
    int64_t strides[3][MAX_NDIM]

cdef struct _Strided4:
    int ndim
    int64_t shape[MAX_NDIM]
    int64_t strides[4][MAX_NDIM]

cdef union _Scalar:
    unsigned char b
    int8_t i8
    int16_t i16
    int32_t i32
    int64_t i64
    uint8_t u8
    uint16_t u16
    uint32_t u32
    uint64_t u64
    float f32
    double f64
    float c64[2]
    double c128[2]

cdef enum:
    L_C = 0
    L_CS = 1
    L_SC = 2
    L_S32 = 3
    L_S64 = 4
    _BLOCK = 256


cdef signed char _promote[13][13]
cdef object _optable_mod = None
cdef object _compile_mod = None
cdef dict _kernel_tables = {}
cdef list _cast_tables = [None] * 13


cdef _Kernels _K_add, _K_sub, _K_mul, _K_div, _K_floordiv, _K_mod, _K_pow, _K_and, _K_or
cdef _Kernels _K_xor, _K_lshift, _K_rshift, _K_eq, _K_ne, _K_lt, _K_le, _K_gt, _K_ge
cdef _Kernels _K_neg, _K_pos, _K_abs, _K_invert


def _init_elementwise():
    global _optable_mod, _compile_mod, _K_add, _K_sub, _K_mul, _K_div, _K_floordiv, _K_mod
    global _K_pow, _K_and, _K_or, _K_xor, _K_lshift, _K_rshift, _K_eq, _K_ne, _K_lt, _K_le
    global _K_gt, _K_ge, _K_neg, _K_pos, _K_abs, _K_invert
    from garray import _optable, _compile
    _optable_mod, _compile_mod = _optable, _compile
    _K_add, _K_sub, _K_mul = _op_kernels("add"), _op_kernels("subtract"), _op_kernels("multiply")
    _K_div, _K_floordiv = _op_kernels("divide"), _op_kernels("floor_divide")
    _K_mod, _K_pow = _op_kernels("remainder"), _op_kernels("pow")
    _K_and, _K_or = _op_kernels("bitwise_and"), _op_kernels("bitwise_or")
    _K_xor, _K_lshift = _op_kernels("bitwise_xor"), _op_kernels("bitwise_left_shift")
    _K_rshift, _K_eq = _op_kernels("bitwise_right_shift"), _op_kernels("equal")
    _K_ne, _K_lt, _K_le = _op_kernels("not_equal"), _op_kernels("less"), _op_kernels("less_equal")
    _K_gt, _K_ge = _op_kernels("greater"), _op_kernels("greater_equal")
    _K_neg, _K_pos = _op_kernels("negative"), _op_kernels("positive")
    _K_abs, _K_invert = _op_kernels("abs"), _op_kernels("bitwise_invert")
    for i in range(13):
        for j in range(13):
            _promote[i][j] = _code_of[_dtypes.promote_types(_code_dtype[i], _code_dtype[j])]


cdef int _cpu_warp_size():
    from garray._backends import cpu
    return cpu.warp_size()


cdef object _launch_error(object module):
    raise RuntimeError(f"kernel error on the CPU device: {module.error_what()} inside a kernel "
                       f"launched as barrier-free (a kernel bug, reported instead of a hang)")


@cython.final
cdef class _Kernels:
    """The kernels of one op (or one cast target) on the CPU, by [dtype][layout]."""
    cdef readonly str name
    cdef readonly object op
    cdef int nin
    cdef signed char compute[13]
    cdef signed char out[13]
    cdef void* cpu[13][6]
    cdef bint one_per_thread  # creation kernels: never vectorised
    cdef bint cpu_ready
    cdef object cpu_module
    cdef object unit
    cdef dict gpu            # device -> (module handle, {(code, layout): function})

    cdef list slots          # non-op tables: layout slot of each expression of a dtype group

    cdef list entries(self):
        """((dtype code, layout slot), name expression) for every kernel of the table."""
        f, exprs = self.unit
        if self.op is not None:
            return [((code, lay), expr) for code in self.op.compute_codes()
                    for lay, expr in enumerate(self.op.kernels(code)) if expr is not None]
        per = len(self.slots)
        return [((code, lay), exprs[per * code + j])
                for code in range(13) for j, lay in enumerate(self.slots)]

    cdef int _load_cpu(self) except -1:
        f, exprs = self.unit
        mod = _compile_mod.compile_cpu(f, exprs, _cpu_warp_size())
        for (code, lay), expr in self.entries():
            self.cpu[<int>code][<int>lay] = <void*><intptr_t>mod.functions[expr]
        self.cpu_module = mod
        self.cpu_ready = True
        return 0

    cdef int launch(self, ndarray ref, int code, int lay, int64_t n, void** args) except -1:
        cdef _host_entry fn
        cdef int err
        cdef unsigned int grid
        if n == 0:
            return 0
        if not ref._is_cpu:
            return _launch_gpu(self, ref, code, lay, _threads_for(self, ref, code, lay, n), args)
        if not self.cpu_ready:
            self._load_cpu()
        fn = <_host_entry>self.cpu[code][lay]
        if fn == NULL:
            raise TypeError(f"{self.name}: no kernel for {_code_dtype[code]} (layout {lay})")
        grid = <unsigned int>((n + _BLOCK - 1) // _BLOCK)   # CPU: one element per thread
        err = fn(grid, _BLOCK, args)
        if err:
            _launch_error(self.cpu_module)
        return 0


cdef inline int64_t _threads_for(_Kernels k, ndarray out, int code, int lay, int64_t n) noexcept:
    """Threads to launch: contiguous kernels handle vec_width elements per thread (the
    rule of elementwise.hip: 1 for 16-byte types, 2 for 8-byte, else 4, taking the larger
    of the compute and output item sizes)."""
    cdef Py_ssize_t isz
    if lay == L_S32 or lay == L_S64 or lay < 0 or out._is_cpu or k.one_per_thread:
        return n
    isz = _code_dtype_itemsize[code]
    if out._itemsize > isz:
        isz = out._itemsize
    if isz >= 16:
        return n
    if isz >= 8:
        return (n + 1) // 2
    return (n + 3) // 4


cdef Py_ssize_t _code_dtype_itemsize[13]
for _i in range(13):
    _code_dtype_itemsize[_i] = (1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16)[_i]


cdef int _launch_gpu(_Kernels k, ndarray ref, int code, int lay, int64_t threads,
                     void** args) except -1:
    """Launch on a GPU: the unit is compiled by NVRTC/hiprtc for the device's arch (disk
    cache), loaded once per device, and launched through the backend (not yet run on a
    GPU: no device was available while this was written)."""
    dev = ref._device
    entry = k.gpu.get(dev) if k.gpu is not None else None
    funcs = entry[1] if entry is not None else _load_gpu_unit(k, dev)
    func = funcs.get((code, lay))
    if func is None:
        raise TypeError(f"{k.name}: no kernel for {_code_dtype[code]} (layout {lay}) on {dev}")
    _raw_gpu_launch(dev, func, <unsigned int>((threads + _BLOCK - 1) // _BLOCK), _BLOCK, args, 0)
    return 0


cdef int _raw_gpu_launch(object dev, object func, unsigned int grid, unsigned int block,
                         void** args, unsigned int shared) except -1:
    """Launch through the driver's own entry point (resolved once by dlsym)."""
    cdef _drv_launch fn
    cdef int err
    rt = dev.runtime
    fn = <_drv_launch><intptr_t>rt.launch_address()
    rt.activate()
    err = fn(<void*><intptr_t>int(func), grid, 1, 1, block, 1, 1, shared, NULL, args, NULL)
    if err:
        from garray._errors import BackendError
        raise BackendError(f"{dev}: kernel launch failed with error {err}")
    return 0


cdef dict _load_gpu_unit(_Kernels k, object dev):
    props = dev.properties
    arch = str(props.get("arch", "")).split(":")[0]
    f, exprs = k.unit
    binary, lowered = _compile_mod.compile_gpu(dev.kind, f, exprs, arch, props["warp_size"])
    rt = dev.runtime
    module = rt.module_load(binary)
    funcs = {key: rt.module_function(module, lowered[expr]) for key, expr in k.entries()}
    if k.gpu is None:
        k.gpu = {}
    k.gpu[dev] = (module, funcs)
    return funcs


cdef _Kernels _op_kernels(str name):
    cdef _Kernels k = _kernel_tables.get(name)
    cdef int p
    if k is None:
        op = _optable_mod.OPS[name]
        k = _Kernels.__new__(_Kernels)
        k.name, k.op, k.nin = name, op, op.nin
        for p in range(13):
            k.compute[p] = op.compute_code(p)
            k.out[p] = op.out_code(p)
        k.unit = op.unit()
        _kernel_tables[name] = k
    return k


cdef _Kernels _table(str name, object unit, list slots, bint one_per_thread=False):
    """A kernel table that is not an op (casts, where, reductions, creation): ``unit``
    lists ``len(slots)`` expressions per dtype code, ``slots`` their layout slots."""
    cdef _Kernels k = _kernel_tables.get(("table", name))
    if k is None:
        k = _Kernels.__new__(_Kernels)
        k.name, k.unit, k.slots, k.one_per_thread = name, unit, slots, one_per_thread
        _kernel_tables[("table", name)] = k
    return k


cdef _Kernels _cast_kernels(int to):
    cdef _Kernels k = <_Kernels>_cast_tables[to]
    if k is None:
        k = _table(f"astype({_dtypes.dtype_name(_code_dtype[to])})",
                   _optable_mod.cast_unit(to), [L_C, L_S32, L_S64])
        _cast_tables[to] = k
    return k


# ---- operands ------------------------------------------------------------------------
cdef inline bint _is_pyscalar(object x):
    cdef type t = type(x)
    return t is float or t is int or t is bool or t is complex


cdef object _as_operand(object x, ndarray like, str opname, bint reflected_ok):
    """ndarray or weak Python scalar; NumPy scalars/0-d become arrays; else None."""
    if isinstance(x, ndarray) or _is_pyscalar(x):
        return x
    if isinstance(x, (bool, int, float, complex)):      # subclasses, e.g. IntEnum
        return complex(x) if isinstance(x, complex) else (
            float(x) if isinstance(x, float) else (bool(x) if isinstance(x, bool) else int(x)))
    if isinstance(x, numpy.generic):
        return asarray(x, device=like._device)
    if isinstance(x, (list, tuple)):
        return asarray(x, device=like._device)
    return None


cdef int _scalar_code(object s, int arr_code) except -1:
    """NEP 50: the dtype a weak Python scalar takes next to an array of arr_code."""
    cdef str cat = "biiiiuuuuffcc"[arr_code]
    if type(s) is bool:
        return arr_code
    if type(s) is int:
        return 4 if cat == "b" else arr_code
    if type(s) is float:
        return 10 if cat in "biu" else arr_code
    # complex
    if arr_code == 9 or arr_code == 11:
        return 11
    return 12


cdef int _pack_scalar(object s, int code, _Scalar* out, str opname) except -1:
    cdef object v
    if code == 0:
        out.b = bool(s)
    elif code <= 8:
        if type(s) is float or type(s) is complex:
            raise TypeError(f"{opname}: cannot use a Python {type(s).__name__} with an "
                            f"integer computation")
        v = int(s)
        info = _dtypes.iinfo(_code_dtype[code])
        if v < info.min or v > info.max:
            raise OverflowError(f"{opname}: Python integer {v} out of bounds for "
                                f"{_dtypes.dtype_name(_code_dtype[code])}")
        if code == 1: out.i8 = v
        elif code == 2: out.i16 = v
        elif code == 3: out.i32 = v
        elif code == 4: out.i64 = v
        elif code == 5: out.u8 = v
        elif code == 6: out.u16 = v
        elif code == 7: out.u32 = v
        else: out.u64 = v
    elif code == 9:
        if type(s) is complex:
            raise TypeError(f"{opname}: cannot use a Python complex with a real computation")
        out.f32 = float(s)
    elif code == 10:
        if type(s) is complex:
            raise TypeError(f"{opname}: cannot use a Python complex with a real computation")
        out.f64 = float(s)
    elif code == 11:
        v = complex(s)
        out.c64[0] = v.real
        out.c64[1] = v.imag
    else:
        v = complex(s)
        out.c128[0] = v.real
        out.c128[1] = v.imag
    return 0


cdef ndarray _cast_to(ndarray a, int code):
    """a converted to dtype code by the cast kernels (a itself when already there)."""
    if a._code == code:
        return a
    cdef ndarray r = _new_array(_code_dtype[code], a._nd, a._shape, a._device)
    _cast_into(r, a)
    return r


cdef int _cast_into(ndarray dst, ndarray src) except -1:
    """dst[...] = src with dst's dtype; src broadcastable to dst.shape; same device."""
    cdef _Kernels k = _cast_kernels(dst._code)
    cdef _Strided2 p
    cdef void* args[4]
    cdef intptr_t po, pa
    cdef int64_t n = dst._size
    cdef int lay
    if n == 0:
        return 0
    src = _broadcast_view(src, dst._shape, dst._nd, "x")
    if _overlap(dst, src) and not _same_view(dst, src):
        src = _copy_array(src)
    po, pa = dst._ptr, src._ptr
    args[0] = &po
    args[1] = &pa
    if (dst._flags & FLAG_C) and (src._flags & FLAG_C):
        args[2] = &n
        return k.launch(dst, src._code, L_C, n, args)
    lay = _strided_params2(&p, dst, src)
    args[2] = &p
    cdef int32_t n32 = <int32_t>n
    args[3] = <void*>&n32 if lay == L_S32 else <void*>&n
    return k.launch(dst, src._code, lay, n, args)


cdef bint _same_view(ndarray a, ndarray b) noexcept:
    cdef int i
    if a._ptr != b._ptr or a._nd != b._nd or a._itemsize != b._itemsize:
        return False
    for i in range(a._nd):
        if a._shape[i] != b._shape[i] or a._strides[i] != b._strides[i]:
            return False
    return True


cdef int _collapse_n(int nd, Py_ssize_t* shape, int narr, Py_ssize_t st[][MAX_NDIM]) noexcept:
    """Drop size-1 axes, merge axes contiguous in all narr stride sets; returns ndim."""
    cdef int i, k = 0, a
    cdef bint merge
    for i in range(nd):
        if shape[i] == 1:
            continue
        if k > 0:
            merge = True
            for a in range(narr):
                if st[a][k - 1] != shape[i] * st[a][i]:
                    merge = False
                    break
            if merge:
                shape[k - 1] *= shape[i]
                for a in range(narr):
                    st[a][k - 1] = st[a][i]
                continue
        shape[k] = shape[i]
        for a in range(narr):
            st[a][k] = st[a][i]
        k += 1
    return k


cdef int _pick_index(int nd, Py_ssize_t* shape, int narr, Py_ssize_t st[][MAX_NDIM],
                     int64_t n) noexcept:
    cdef int i, a
    cdef int64_t ext
    if n >= (<int64_t>1 << 31):
        return L_S64
    for a in range(narr):
        ext = 0
        for i in range(nd):
            ext += (shape[i] - 1) * (st[a][i] if st[a][i] >= 0 else -st[a][i])
        if ext >= (<int64_t>1 << 31):
            return L_S64
    return L_S32


cdef int _strided_params2(_Strided2* p, ndarray o, ndarray a) noexcept:
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef Py_ssize_t st[2][MAX_NDIM]
    cdef int i, nd
    for i in range(o._nd):
        shape[i] = o._shape[i]
        st[0][i] = o._strides[i]
        st[1][i] = a._strides[i]
    nd = _collapse_n(o._nd, shape, 2, st)
    p.ndim = nd
    for i in range(nd):
        p.shape[i] = shape[i]
        p.strides[0][i] = st[0][i]
        p.strides[1][i] = st[1][i]
    return _pick_index(nd, shape, 2, st, o._size)


cdef int _strided_params3(_Strided3* p, ndarray o, ndarray a, ndarray b) noexcept:
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef Py_ssize_t st[3][MAX_NDIM]
    cdef int i, nd
    for i in range(o._nd):
        shape[i] = o._shape[i]
        st[0][i] = o._strides[i]
        st[1][i] = a._strides[i]
        st[2][i] = b._strides[i]
    nd = _collapse_n(o._nd, shape, 3, st)
    p.ndim = nd
    for i in range(nd):
        p.shape[i] = shape[i]
        p.strides[0][i] = st[0][i]
        p.strides[1][i] = st[1][i]
        p.strides[2][i] = st[2][i]
    return _pick_index(nd, shape, 3, st, o._size)


cdef int _broadcast_nd(Py_ssize_t* out, ndarray a, ndarray b) except -1:
    cdef int nd = a._nd if a._nd > b._nd else b._nd
    cdef int i, ia, ib
    cdef Py_ssize_t sa, sb
    for i in range(nd):
        ia = i - (nd - a._nd)
        ib = i - (nd - b._nd)
        sa = a._shape[ia] if ia >= 0 else 1
        sb = b._shape[ib] if ib >= 0 else 1
        if sa == sb or sb == 1:
            out[i] = sa
        elif sa == 1:
            out[i] = sb
        else:
            raise ValueError(f"operands could not be broadcast together with shapes "
                             f"{a.shape} {b.shape}")
    return nd


cdef ndarray _prepare_out(object out, int out_code, int nd, Py_ssize_t* shape, object device,
                          str opname):
    cdef ndarray o
    cdef int i
    if out is None:
        return _new_array(_code_dtype[out_code], nd, shape, device)
    if not isinstance(out, ndarray):
        raise TypeError(f"{opname}: out must be a garray.ndarray, got {type(out).__name__}")
    o = <ndarray>out
    if o._device is not device:
        raise ValueError(f"{opname}: out is on {o._device}, the inputs on {device}")
    if o._flags & FLAG_READONLY:
        raise ValueError(f"{opname}: out is read-only")
    bad = o._nd != nd
    if not bad:
        for i in range(nd):
            if o._shape[i] != shape[i]:
                bad = True
    if bad:
        raise ValueError(f"{opname}: out has shape {o.shape}, the result has shape "
                         f"{_shape_tuple(shape, nd)}")
    return o


cdef object _finish_out(ndarray tmp, object out, str opname):
    """Cast a result computed in its own dtype into a user `out=` of another dtype."""
    cdef ndarray o = <ndarray>out
    if not _dtypes.can_cast(tmp._dtype, o._dtype) and not (
            "biiiiuuuuffcc"[tmp._code] == "biiiiuuuuffcc"[o._code] or
            ("biiiiuuuuffcc"[tmp._code] in "iu" and "biiiiuuuuffcc"[o._code] in "iu")):
        raise TypeError(f"{opname}: cannot cast the result from {tmp._dtype} to out's "
                        f"{o._dtype} with casting rule 'same_kind'")
    _cast_into(o, tmp)
    return o


# ---- binary ------------------------------------------------------------------------
cdef object _binary(_Kernels k, object x1, object x2, object out):
    cdef ndarray a = None, b = None, ref
    cdef int pa, code, out_code, lay, nd
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef _Scalar sv
    cdef object s = None
    cdef bint s_first = False
    if isinstance(x1, ndarray):
        a = <ndarray>x1
    if isinstance(x2, ndarray):
        b = <ndarray>x2
    if a is None:
        if b is None:
            raise TypeError(f"{k.name}: at least one argument must be a garray.ndarray")
        x1 = _as_operand(x1, b, k.name, True)
        if x1 is None:
            return NotImplemented
        if isinstance(x1, ndarray):
            a = <ndarray>x1
        else:
            s, s_first = x1, True
    if b is None:
        x2 = _as_operand(x2, a, k.name, True)
        if x2 is None:
            return NotImplemented
        if isinstance(x2, ndarray):
            b = <ndarray>x2
        else:
            s = x2
    ref = a if a is not None else b
    if s is None:
        if a._device is not b._device:
            raise ValueError(f"{k.name}: arrays are on different devices ({a._device} and "
                             f"{b._device}); move one with to_device()")
        pa = _promote[a._code][b._code]
    else:
        pa = _scalar_code(s, ref._code)
    code = k.compute[pa]
    if code < 0:
        raise TypeError(f"{k.name}: unsupported dtype {_code_dtype[pa]}"
                        + (f" (from {a._dtype} and {b._dtype})" if s is None and a._code != b._code else ""))
    out_code = k.out[code]
    if s is not None:
        _pack_scalar(s, code, &sv, k.name)
        ref = _cast_to(ref, code)
        nd = ref._nd
        for lay in range(nd):
            shape[lay] = ref._shape[lay]
    else:
        a = _cast_to(a, code)
        b = _cast_to(b, code)
        nd = _broadcast_nd(shape, a, b)
    if isinstance(out, ndarray) and (<ndarray>out)._code != out_code:
        tmp = _binary_into(k, a, b, ref, s, s_first, &sv, code, out_code, nd, shape, None)
        _prepare_out(out, (<ndarray>out)._code, nd, shape, ref._device, k.name)
        return _finish_out(tmp, out, k.name)
    return _binary_into(k, a, b, ref, s, s_first, &sv, code, out_code, nd, shape, out)


cdef ndarray _binary_into(_Kernels k, ndarray a, ndarray b, ndarray ref, object s, bint s_first,
                          _Scalar* sv, int code, int out_code, int nd, Py_ssize_t* shape,
                          object out):
    cdef ndarray o = _prepare_out(out, out_code, nd, shape, ref._device, k.name)
    cdef _Strided3 p
    cdef void* args[5]
    cdef intptr_t po, pa_, pb
    cdef int64_t n = o._size
    cdef int32_t n32
    cdef int lay
    cdef ndarray sa
    if s is not None:
        if _overlap(o, ref) and not _same_view(o, ref):
            ref = _copy_array(ref)
        if (o._flags & FLAG_C) and (ref._flags & FLAG_C):
            po, pa_ = o._ptr, ref._ptr
            args[0] = &po
            args[1] = <void*>sv if s_first else <void*>&pa_
            args[2] = <void*>&pa_ if s_first else <void*>sv
            args[3] = &n
            k.launch(o, code, L_SC if s_first else L_CS, n, args)
            return o
        # Strided with a scalar: the scalar becomes a 0-stride one-element array.
        sa = _new_array(_code_dtype[code], 0, shape, ref._device)
        _write_scalar(sa, sv)
        if s_first:
            a, b = sa, ref
        else:
            a, b = ref, sa
    else:
        if _overlap(o, a) and not _same_view(o, a):
            a = _copy_array(a)
        if _overlap(o, b) and not _same_view(o, b):
            b = _copy_array(b)
        if (o._flags & FLAG_C) and (a._flags & FLAG_C) and (b._flags & FLAG_C) and \
                a._size == n and b._size == n:
            po, pa_, pb = o._ptr, a._ptr, b._ptr
            args[0] = &po
            args[1] = &pa_
            args[2] = &pb
            args[3] = &n
            k.launch(o, code, L_C, n, args)
            return o
    a = _broadcast_view(a, o._shape, o._nd, "x1")
    b = _broadcast_view(b, o._shape, o._nd, "x2")
    lay = _strided_params3(&p, o, a, b)
    po, pa_, pb = o._ptr, a._ptr, b._ptr
    n32 = <int32_t>n
    args[0] = &po
    args[1] = &pa_
    args[2] = &pb
    args[3] = &p
    args[4] = <void*>&n32 if lay == L_S32 else <void*>&n
    k.launch(o, code, lay, n, args)
    return o


cdef int _write_scalar(ndarray a, _Scalar* sv) except -1:
    if a._is_cpu:
        memcpy(<void*>a._ptr, sv, a._itemsize)
    else:
        a._device.runtime.memcpy_htod(a._ptr, <intptr_t>sv, a._itemsize)
    return 0


# ---- unary -------------------------------------------------------------------------
cdef object _unary(_Kernels k, object x, object out):
    cdef ndarray a, o
    cdef int code, out_code, lay
    cdef _Strided2 p
    cdef void* args[4]
    cdef intptr_t po, pa
    cdef int64_t n
    cdef int32_t n32
    if not isinstance(x, ndarray):
        if isinstance(x, numpy.generic):
            x = asarray(x)
        else:
            raise TypeError(f"{k.name}: x must be a garray.ndarray, got {type(x).__name__}")
    a = <ndarray>x
    code = k.compute[a._code]
    if code < 0:
        raise TypeError(f"{k.name}: unsupported dtype {a._dtype}")
    out_code = k.out[code]
    if out is not None and isinstance(out, ndarray) and (<ndarray>out)._code != out_code:
        tmp = _unary(k, x, None)
        _prepare_out(out, (<ndarray>out)._code, a._nd, a._shape, a._device, k.name)
        return _finish_out(tmp, out, k.name)
    a = _cast_to(a, code)
    o = _prepare_out(out, out_code, a._nd, a._shape, a._device, k.name)
    if _overlap(o, a) and not _same_view(o, a):
        a = _copy_array(a)
    n = o._size
    po, pa = o._ptr, a._ptr
    args[0] = &po
    args[1] = &pa
    if (o._flags & FLAG_C) and (a._flags & FLAG_C):
        args[2] = &n
        k.launch(o, code, L_C, n, args)
        return o
    lay = _strided_params2(&p, o, a)
    n32 = <int32_t>n
    args[2] = &p
    args[3] = <void*>&n32 if lay == L_S32 else <void*>&n
    k.launch(o, code, lay, n, args)
    return o


@cython.final
cdef class ufunc:
    """An elementwise function of garray (``garray.add``, ``garray.sin`` ...).

    Call with arrays or Python scalars (at least one array); ``out=`` writes into an
    existing array.  The op table in ``garray._optable`` defines its dtype rules.
    """
    cdef readonly str __name__
    cdef readonly int nin
    cdef _Kernels _k
    cdef readonly str __doc__

    def __cinit__(self, str name, str doc=""):
        self._k = _op_kernels(name)
        self.__name__ = name
        self.nin = self._k.nin
        self.__doc__ = doc

    def __call__(self, *args, out=None):
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional argument"
                            f"{'s' if self.nin > 1 else ''} but {len(args)} were given")
        if self.nin == 1:
            return _unary(self._k, args[0], out)
        r = _binary(self._k, args[0], args[1], out)
        if r is NotImplemented:
            raise TypeError(f"{self.__name__}: unsupported operand types "
                            f"{type(args[0]).__name__} and {type(args[1]).__name__}")
        return r

    def __repr__(self):
        return f"<garray.ufunc '{self.__name__}'>"


def where(condition, x1, x2, /):
    """Elements of x1 where condition is True, else of x2 (broadcast). See numpy.where."""
    cdef ndarray c, a, b, o
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef Py_ssize_t st[4][MAX_NDIM]
    cdef _Strided4 p
    cdef void* args[6]
    cdef intptr_t pp[4]
    cdef int nd, i, code, lay
    cdef int64_t n
    cdef int32_t n32
    if not isinstance(condition, ndarray):
        raise TypeError(f"where: condition must be a garray.ndarray, got "
                        f"{type(condition).__name__}")
    c = <ndarray>condition
    if c._code != 0:
        c = _cast_to(c, 0)
    if not isinstance(x1, ndarray) and not isinstance(x2, ndarray):
        raise TypeError("where: at least one of x1, x2 must be a garray.ndarray")
    if isinstance(x1, ndarray) and isinstance(x2, ndarray):
        code = _promote[(<ndarray>x1)._code][(<ndarray>x2)._code]
    elif isinstance(x1, ndarray):
        code = _scalar_code(x2, (<ndarray>x1)._code)
    else:
        code = _scalar_code(x1, (<ndarray>x2)._code)
    a = _where_operand(x1, code, c._device)
    b = _where_operand(x2, code, c._device)
    for arr in (a, b):
        if (<ndarray>arr)._device is not c._device:
            raise ValueError(f"where: arrays are on different devices ({c._device} and "
                             f"{(<ndarray>arr)._device})")
    nd = _broadcast_nd(shape, c, a)
    tmp = _new_array(_code_dtype[0], nd, shape, c._device)
    nd = _broadcast_nd(shape, tmp, b)
    o = _new_array(_code_dtype[code], nd, shape, c._device)
    n = o._size
    if n == 0:
        return o
    c = _broadcast_view(c, shape, nd, "condition")
    a = _broadcast_view(a, shape, nd, "x1")
    b = _broadcast_view(b, shape, nd, "x2")
    for i in range(nd):
        st[0][i] = o._strides[i]
        st[1][i] = c._strides[i]
        st[2][i] = a._strides[i]
        st[3][i] = b._strides[i]
        shape[i] = o._shape[i]
    nd = _collapse_n(nd, shape, 4, st)
    p.ndim = nd
    for i in range(nd):
        p.shape[i] = shape[i]
        for lay in range(4):
            p.strides[lay][i] = st[lay][i]
    lay = _pick_index(nd, shape, 4, st, n)
    pp[0], pp[1], pp[2], pp[3] = o._ptr, c._ptr, a._ptr, b._ptr
    for i in range(4):
        args[i] = &pp[i]
    args[4] = &p
    n32 = <int32_t>n
    args[5] = <void*>&n32 if lay == L_S32 else <void*>&n
    _where_kernels().launch(o, code, lay, n, args)
    return o


cdef _Kernels _where_kernels():
    return _table("where", _optable_mod.where_unit(), [L_S32, L_S64])


cdef ndarray _where_operand(object x, int code, object device):
    cdef ndarray r
    cdef _Scalar sv
    if isinstance(x, ndarray):
        return _cast_to(<ndarray>x, code)
    if not _is_pyscalar(x):
        raise TypeError(f"where: expected an array or a Python scalar, got {type(x).__name__}")
    _pack_scalar(x, code, &sv, "where")
    r = _new_array(_code_dtype[code], 0, NULL, device)
    _write_scalar(r, &sv)
    return r


# ---- boolean reductions (all, any) ------------------------------------------------------
cdef struct _Strided1:
    int ndim
    int64_t shape[MAX_NDIM]
    int64_t strides[1][MAX_NDIM]

cdef _Kernels _reduce_kernels(str reducer):
    return _table(reducer[:-2], _optable_mod.reduce_unit(reducer), [L_S32, L_S64])


cdef object _bool_reduce(str reducer, object x, object axis, bint keepdims):
    cdef ndarray a, o
    cdef _Strided2 po
    cdef _Strided1 pr
    cdef Py_ssize_t kshape[MAX_NDIM]
    cdef Py_ssize_t kst[2][MAX_NDIM]
    cdef Py_ssize_t rshape[MAX_NDIM]
    cdef Py_ssize_t rst[1][MAX_NDIM]
    cdef Py_ssize_t oshape[MAX_NDIM]
    cdef int i, nk = 0, nr = 0, no = 0, lay
    cdef int64_t n_out, n_red = 1, n_out64, n_red64
    cdef int32_t n_out32, n_red32
    cdef void* args[6]
    cdef intptr_t po_, pa
    name = reducer[:-2]
    if not isinstance(x, ndarray):
        raise TypeError(f"{name}: x must be a garray.ndarray, got {type(x).__name__}")
    a = <ndarray>x
    if axis is None:
        axes = set(range(a._nd))
    else:
        axes = set()
        for ax in ((axis,) if not isinstance(axis, (tuple, list)) else axis):
            i = _norm_axis(ax, a._nd, "axis")
            if i in axes:
                raise ValueError(f"{name}: axis: repeated axis {ax}")
            axes.add(i)
    for i in range(a._nd):
        if i in axes:
            rshape[nr] = a._shape[i]
            rst[0][nr] = a._strides[i]
            n_red *= a._shape[i]
            nr += 1
            if keepdims:
                oshape[no] = 1
                no += 1
        else:
            oshape[no] = a._shape[i]
            no += 1
    o = _new_array(_code_dtype[0], no, oshape, a._device)
    # kept axes: pair the output's non-reduced strides with x's
    cdef int j = 0
    for i in range(a._nd):
        if i not in axes:
            kshape[nk] = a._shape[i]
            kst[1][nk] = a._strides[i]
            nk += 1
    cdef int oi = 0
    for i in range(o._nd):
        if keepdims and o._shape[i] == 1 and (i in axes):
            continue
        if oi < nk:
            kst[0][oi] = o._strides[i]
            oi += 1
    n_out = o._size
    if n_out == 0:
        return o
    nk = _collapse_n(nk, kshape, 2, kst)
    nr = _collapse_n(nr, rshape, 1, rst)
    po.ndim = nk
    for i in range(nk):
        po.shape[i] = kshape[i]
        po.strides[0][i] = kst[0][i]
        po.strides[1][i] = kst[1][i]
    pr.ndim = nr
    for i in range(nr):
        pr.shape[i] = rshape[i]
        pr.strides[0][i] = rst[0][i]
    lay = L_S64 if (_pick_index(nk, kshape, 2, kst, n_out) == L_S64 or
                    _pick_index(nr, rshape, 1, rst, n_red) == L_S64 or
                    a._size >= (<int64_t>1 << 31)) else L_S32
    po_, pa = o._ptr, a._ptr
    args[0] = &po_
    args[1] = &pa
    args[2] = &po
    args[3] = &pr
    n_out32, n_red32 = <int32_t>n_out, <int32_t>n_red
    n_out64, n_red64 = n_out, n_red
    args[4] = <void*>&n_out32 if lay == L_S32 else <void*>&n_out64
    args[5] = <void*>&n_red32 if lay == L_S32 else <void*>&n_red64
    _reduce_kernels(reducer).launch(o, a._code, lay, n_out, args)
    return o


def all_(x, /, *, axis=None, keepdims=False):
    """True where every element along ``axis`` is nonzero. See also numpy.all."""
    return _bool_reduce("all_r", x, axis, keepdims)


def any_(x, /, *, axis=None, keepdims=False):
    """True where some element along ``axis`` is nonzero. See also numpy.any."""
    return _bool_reduce("any_r", x, axis, keepdims)


def astype(x, dtype, /, *, copy=True, device=None):
    """``x`` converted to ``dtype`` (Array API): ``copy=False`` may return ``x``."""
    if not isinstance(x, ndarray):
        raise TypeError(f"astype: x must be a garray.ndarray, got {type(x).__name__}")
    return _astype(<ndarray>x, _norm_dtype(dtype), copy, device)


# ---- user kernels -----------------------------------------------------------------------
cdef object _kernel_arg(object v, list keep, int i):
    """One RawKernel argument as (ctypes value kept alive, its address)."""
    import ctypes
    if isinstance(v, ndarray):
        c = ctypes.c_void_p((<ndarray>v)._ptr)
    elif isinstance(v, numpy.generic) and v.dtype in _code_of:
        c = ctypes.create_string_buffer(v.tobytes(), v.dtype.itemsize)
    elif isinstance(v, (ctypes.Structure, ctypes._SimpleCData)):
        c = v      # a by-value struct parameter (e.g. ga::Strided<N>) laid out by ctypes
    else:
        raise TypeError(
            f"args[{i}]: expected a garray.ndarray or a NumPy scalar with the kernel "
            f"parameter's exact type (e.g. numpy.int32(n)), got {type(v).__name__}; Python "
            f"scalars are refused because their C type would be a guess")
    keep.append(c)
    return ctypes.addressof(c)


cdef unsigned int _dim_x(object d, str argname) except 0:
    if isinstance(d, tuple):
        if len(d) == 0 or len(d) > 3:
            raise ValueError(f"{argname}: expected 1 to 3 dimensions, got {d}")
        for extra in d[1:]:
            if extra != 1:
                raise NotImplementedError(f"{argname}: the CPU device runs 1-d grids and "
                                          f"blocks only; got {d}")
        d = d[0]
    d = operator.index(d)
    if d <= 0:
        raise ValueError(f"{argname}: must be positive, got {d}")
    return d


class _GpuRawModule:
    """A user source compiled by NVRTC/hiprtc for one GPU and loaded there."""

    def __init__(self, device, code, names, options):
        props = device.properties
        arch = str(props.get("arch", "")).split(":")[0]
        rtc = _compile_mod.gpu_compiler(device.kind)
        src = f"#define GA_WARP_SIZE {props['warp_size']}\n#include \"garray/platform.h\"\n{code}"
        compiled = rtc.compile(src, "raw_module.hip", list(names), ["-std=c++17", *options],
                               arch=arch, include_dirs=[_compile_mod.kernel_dir()])
        rt = device.runtime
        self.module = rt.module_load(compiled.binary)
        self.functions = {n: rt.module_function(self.module, compiled.lowered.get(n, n))
                          for n in names}


class RawModule:
    """A module of HIP-dialect kernels from a source string (CuPy's RawModule).

    ``RawModule(code=src, name_expressions=("k<float>",))``; ``get_function(name)``
    returns a ``RawKernel``.  On the CPU device a source that uses ``__syncthreads`` or
    warp operations runs each block's threads as fibers (warp size GARRAY_CPU_WARP_SIZE).
    """

    def __init__(self, *, code, options=(), name_expressions=()):
        if not isinstance(code, str):
            raise TypeError(f"code: expected a str, got {type(code).__name__}")
        self.code = code
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions)
        self._modules = {}

    def _module(self, device, names):
        key = (device, tuple(names))      # a module is built per device (arch, warp size)
        mod = self._modules.get(key)
        if mod is None:
            if device.kind == "cpu":
                mod = _compile_mod.compile_cpu_source(self.code, list(names), _cpu_warp_size(),
                                                      self.options)
            else:
                mod = _GpuRawModule(device, self.code, names, self.options)
            self._modules[key] = mod
        return mod

    def get_function(self, name):
        return RawKernel(self.code, name, self.options, _module=self)


class RawKernel:
    """One kernel from a HIP-dialect source string, launched as
    ``kernel(grid, block, args)`` with ``args`` garray arrays and NumPy scalars.

    >>> k = garray.RawKernel(r'''
    ... extern "C" __global__ void scale(float* x, float a, int n) {
    ...     int i = blockIdx.x * blockDim.x + threadIdx.x;
    ...     if (i < n) x[i] *= a;
    ... }''', "scale")
    >>> x = garray.ones(5, dtype="float32")
    >>> k((1,), (32,), (x, numpy.float32(3), numpy.int32(5)))
    """

    def __init__(self, code, name, options=(), *, _module=None):
        self.name = name
        self._raw = _module if _module is not None else RawModule(code=code, options=options)

    def compile(self, device=None):
        """Compile now (else on first launch); raises garray.CompileError with the log."""
        return self._raw._module(_resolve_device(device), (self.name,))

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        cdef _host_entry fn
        cdef void* argv[64]
        cdef unsigned int g = _dim_x(grid, "grid"), b = _dim_x(block, "block")
        cdef int i, err
        args = tuple(args)
        if len(args) > 64:
            raise ValueError(f"args: at most 64 kernel arguments, got {len(args)}")
        devs = {(<ndarray>a)._device for a in args if isinstance(a, ndarray)}
        if len(devs) > 1:
            raise ValueError(f"args: arrays are on different devices {sorted(map(str, devs))}")
        device = devs.pop() if devs else _resolve_device(None)
        mod = self._raw._module(device, (self.name,))
        if shared_mem and device.kind == "cpu":
            import ctypes
            if mod.lib.ga_host_set_dynamic_shared(ctypes.c_size_t(shared_mem)):
                raise MemoryError(f"shared_mem: cannot allocate {shared_mem} bytes")
        keep = []
        for i, a in enumerate(args):
            argv[i] = <void*><intptr_t>_kernel_arg(a, keep, i)
        if device.kind != "cpu":
            _raw_gpu_launch(device, mod.functions[self.name], g, b, argv, shared_mem)
            return
        fn = <_host_entry><intptr_t>mod.functions[self.name]
        err = fn(g, b, argv)
        if err:
            _launch_error(mod)



# ---- creation kernels (fill, arange, linspace, eye, tril/triu) ---------------------------
cdef _Kernels _creation_kernels():
    # Slots 0..5 in creation_unit() order: fill, arange, linspace, eye, tri<int32>, tri<int64>.
    return _table("creation", _optable_mod.creation_unit(), [0, 1, 2, 3, 4, 5], True)


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
    return _creation_kernels().launch(a, a._code, 0, n, args)


def _arange_kernel(int64_t n, start, second, dtype, device):
    cdef ndarray a = empty((n,), dtype=dtype, device=device)
    cdef _Scalar s0, s1, sd
    cdef void* args[5]
    cdef intptr_t po = a._ptr
    first_h = numpy.asarray(start, dtype=a._dtype)
    second_h = numpy.asarray(second, dtype=a._dtype)
    with numpy.errstate(all="ignore"):
        delta_h = numpy.asarray(second_h - first_h, dtype=a._dtype)
    r0, r1, rd = first_h.tobytes(), second_h.tobytes(), delta_h.tobytes()
    memcpy(&s0, <char*>r0, a._itemsize)
    memcpy(&s1, <char*>r1, a._itemsize)
    memcpy(&sd, <char*>rd, a._itemsize)
    args[0] = &po
    args[1] = &s0
    args[2] = &s1
    args[3] = &sd
    args[4] = &n
    _creation_kernels().launch(a, a._code, 1, n, args)
    return a


def _linspace_kernel(int64_t n, start, step, stop, delta, double div, int flags, dtype, device):
    cdef ndarray a = empty((n,), dtype=dtype, device=device)
    cdef _Scalar c0, c1, c2, c3
    cdef void* args[8]
    cdef intptr_t po = a._ptr
    cdef int code_c = 12 if a._code >= 11 else 10
    vals = [complex(v) if code_c == 12 else float(v.real if isinstance(v, complex) else v)
            for v in (start, step, stop, delta)]
    _pack_scalar(vals[0], code_c, &c0, "linspace")
    _pack_scalar(vals[1], code_c, &c1, "linspace")
    _pack_scalar(vals[2], code_c, &c2, "linspace")
    _pack_scalar(vals[3], code_c, &c3, "linspace")
    args[0] = &po
    args[1] = &c0
    args[2] = &c1
    args[3] = &c2
    args[4] = &c3
    args[5] = &div
    args[6] = &n
    args[7] = &flags
    _creation_kernels().launch(a, a._code, 2, n, args)
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
    _creation_kernels().launch(a, a._code, 3, n, args)
    return a


def _tri_kernel(ndarray x, int64_t k, bint lower):
    cdef ndarray o = _new_array(x._dtype, x._nd, x._shape, x._device)
    cdef _Strided2 p
    cdef void* args[8]
    cdef intptr_t po = o._ptr, px = x._ptr
    cdef int64_t n = o._size, rows = x._shape[x._nd - 2], cols = x._shape[x._nd - 1]
    cdef int32_t n32, r32, c32, k32
    cdef int lay, i, low = lower
    if n == 0:
        return o
    lay = _strided_params2(&p, o, x)
    # tri_s computes row/col from the flat index: keep the full (uncollapsed) shape.
    p.ndim = x._nd
    for i in range(x._nd):
        p.shape[i] = x._shape[i]
        p.strides[0][i] = o._strides[i]
        p.strides[1][i] = x._strides[i]
    cdef int slot
    if lay == L_S32 and -(1 << 30) < k < (1 << 30):
        n32, r32, c32, k32 = <int32_t>n, <int32_t>rows, <int32_t>cols, <int32_t>k
        args[3] = &n32
        args[4] = &r32
        args[5] = &c32
        args[6] = &k32
        slot = 4
    else:
        args[3] = &n
        args[4] = &rows
        args[5] = &cols
        args[6] = &k
        slot = 5
    args[0] = &po
    args[1] = &px
    args[2] = &p
    args[7] = &low
    _creation_kernels().launch(o, o._code, slot, n, args)
    return o
