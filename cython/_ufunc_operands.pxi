# Operands of the elementwise launchers (Note [Elementwise launch path] in _ufunc.pxi,
# steps 1-4): scalars packed by value, promotion tables, out= checks and aliasing.

from libc.stdint cimport int8_t, int16_t, int32_t, uint16_t, uint32_t, uint64_t

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


cdef dict _scalar_type_code = {}    # NumPy scalar type (numpy.float32 ...) -> dtype code
cdef tuple _int_lo = ()     # per dtype code: the integer range (None for bool/float/complex)
cdef tuple _int_hi = ()
cdef signed char _promote[_NCODES][_NCODES]
cdef bint _same_kind[_NCODES][_NCODES]        # NumPy's can_cast(from, to, "same_kind")
cdef str _CATEGORY = "".join(r.kind for r in _dtypes.RECORDS)   # kind letter by code


cdef int _init_ufuncs() except -1:
    global _CATEGORY, _int_lo, _int_hi
    _CATEGORY = _optable_mod.CATEGORY
    infos = [_dtypes.iinfo(d) if _CATEGORY[c] in "iu" else None
             for c, d in enumerate(_code_dtype)]
    _int_lo = tuple(None if i is None else i.min for i in infos)
    _int_hi = tuple(None if i is None else i.max for i in infos)
    for c, d in enumerate(_code_dtype):
        _scalar_type_code[numpy.dtype(d).type] = c
    for i in range(_NCODES):
        for j in range(_NCODES):
            _promote[i][j] = _code_of[_dtypes.promote_types(_code_dtype[i], _code_dtype[j])]
            _same_kind[i][j] = numpy.can_cast(_code_dtype[i], _code_dtype[j], "same_kind")
    return 0


# ---- operands ------------------------------------------------------------------------
cdef inline bint _is_pyscalar(object x):
    cdef type t = type(x)
    return t is float or t is int or t is bool or t is complex


cdef int _default_int_fits(object x, str name) except -1:
    """A Python int with no array beside it takes the default int64 (NumPy 2's weak
    scalars): OverflowError past it, as NumPy's, rather than asarray's uint64."""
    if type(x) is int and not -(1 << 63) <= <object>x < (1 << 63):
        raise OverflowError(f"{name}: Python integer {x} out of bounds for int64 (the "
                            f"default integer of Python scalars with no array)")
    return 0


cdef object _as_operand(object x, ndarray like):
    """ndarray, weak Python scalar or strong NumPy scalar (numpy.generic, kept as is);
    sequences become arrays on like's device; anything else None (the caller returns
    NotImplemented)."""
    if isinstance(x, ndarray) or _is_pyscalar(x) or isinstance(x, numpy.generic):
        # numpy.float64 and numpy.complex128 subclass float and complex: the generic
        # test keeps them strong (NEP 50), before the subclass test below
        return x
    if isinstance(x, (bool, int, float, complex)):      # subclasses, e.g. IntEnum
        return complex(x) if isinstance(x, complex) else (
            float(x) if isinstance(x, float) else (bool(x) if isinstance(x, bool) else int(x)))
    if isinstance(x, (list, tuple)):
        return asarray(x, device=like._device)
    return None


cdef int _scalar_code(object s, int arr_code) except -1:
    """NEP 50: the dtype a weak Python scalar takes next to an array of arr_code."""
    cdef str cat = _CATEGORY[arr_code]
    if type(s) is bool:
        return arr_code
    if type(s) is int:
        return _I64 if cat == "b" else arr_code
    if type(s) is float:
        return _F64 if cat in "biu" else arr_code
    if arr_code == _F32 or arr_code == _C64 or _is_narrow(arr_code):  # complex keeps precision
        return _C64
    return _C128


cdef int _pack_scalar(object s, int code, _Scalar* out, str opname) except -1:
    cdef object v
    cdef str cat = _CATEGORY[code]
    if code == _BOOL:
        out.b = bool(s)
    elif cat in "iu":
        if type(s) is float or type(s) is complex:
            raise TypeError(f"{opname}: cannot use a Python {type(s).__name__} with an "
                            f"integer computation")
        v = int(s)
        if v < _int_lo[code] or v > _int_hi[code]:
            raise OverflowError(f"{opname}: Python integer {v} out of bounds for "
                                f"{_dtypes.dtype_name(_code_dtype[code])}")
        if code == _I8: out.i8 = v
        elif code == _I16: out.i16 = v
        elif code == _I32: out.i32 = v
        elif code == _I64: out.i64 = v
        elif code == _U8: out.u8 = v
        elif code == _U16: out.u16 = v
        elif code == _U32: out.u32 = v
        else: out.u64 = v
    elif cat == "f":
        if type(s) is complex:
            raise TypeError(f"{opname}: cannot use a Python complex with a real computation")
        if code == _F32:
            out.f32 = float(s)
        elif _is_narrow(code):
            # a narrow float operand: the value rounded to its dtype (as NumPy casts the
            # weak scalar to the loop's dtype), held as the float32 the kernel computes in
            out.f32 = _round_narrow(float(s), code)
        else:
            out.f64 = float(s)
    else:
        v = complex(s)
        if code == _C64:
            out.c64[0] = v.real
            out.c64[1] = v.imag
        else:
            out.c128[0] = v.real
            out.c128[1] = v.imag
    return 0


cdef bint _pack_item(object value, int code, _Scalar* sv) except -1:
    """A Python scalar packed as an item of dtype ``code`` for an assignment, where NumPy's
    item assignment converts it without a check or a warning: a float into float32,
    float64 or complex128 (float32: unless it overflows), an int in range into an
    integer dtype (into float64 within 2**53, float32 within 2**24), a bool into bool.
    False leaves the value to NumPy's own assignment (_host_value), with its errors."""
    cdef type t = type(value)
    cdef double d
    if t is float:
        d = value
        if code == _F64:
            sv.f64 = d
        elif code == _C128:
            sv.c128[0] = d
            sv.c128[1] = 0
        elif code == _F32 and (-3.4028234663852886e38 <= d <= 3.4028234663852886e38
                               or not (d * 0.0 == 0.0)):      # inf and nan stay
            sv.f32 = <float>d
        else:
            return False
        return True
    if t is int:
        if _CATEGORY[code] in "iu":
            if not (_int_lo[code] <= value <= _int_hi[code]):
                return False
            if code == _I8: sv.i8 = value
            elif code == _I16: sv.i16 = value
            elif code == _I32: sv.i32 = value
            elif code == _I64: sv.i64 = value
            elif code == _U8: sv.u8 = value
            elif code == _U16: sv.u16 = value
            elif code == _U32: sv.u32 = value
            else: sv.u64 = value
            return True
        if code == _F64 and -(1 << 53) <= value <= (1 << 53):
            sv.f64 = <double><int64_t>value
            return True
        if code == _F32 and -(1 << 24) <= value <= (1 << 24):
            sv.f32 = <float><int64_t>value
            return True
        return False
    if t is bool and code == _BOOL:
        sv.b = value is True
        return True
    return False


cdef double _round_narrow(double v, int code):
    """v rounded to the narrow float ``code`` (directly, no double rounding), as a
    double; NumPy's (and ml_dtypes') conversion of a Python float."""
    with numpy.errstate(over="ignore", invalid="ignore"):
        if code == _F16:        # the NumPy scalar: the per-call path of float16 ops
            return float(numpy.float16(v))
        return float(numpy.array(v).astype(_code_dtype[code]).astype(numpy.float64))


cdef int _write_scalar(ndarray a, _Scalar* sv) except -1:
    cdef _Scalar h
    if _is_narrow(a._code):     # packed as float32 (_pack_scalar): store the format's bits
        with numpy.errstate(over="ignore", invalid="ignore"):
            bits = int(numpy.array(sv.f32, numpy.float32).astype(_code_dtype[a._code]).view(
                numpy.uint16 if a._itemsize == 2 else numpy.uint8))
        if a._itemsize == 2:
            h.u16 = bits
        else:
            h.u8 = bits
        sv = &h
    if a._is_cpu:
        memcpy(<void*>a._ptr, sv, a._itemsize)
    else:
        _copy_htod(a._device, a._ptr, <intptr_t>sv, a._itemsize)
    return 0


cdef ndarray _scalar_array(_Scalar* sv, int code, object device):
    """A 0-d array holding a packed scalar (for strided layouts, where the scalar is an
    operand with no extent)."""
    cdef ndarray r = _new_array(_code_dtype[code], 0, NULL, device)
    _write_scalar(r, sv)
    return r


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
    # NumPy broadcasts the inputs to out's shape: out may be larger than the inputs'
    # broadcast shape, never smaller
    bad = o._nd < nd
    if not bad:
        for i in range(nd):
            if shape[i] != 1 and o._shape[o._nd - nd + i] != shape[i]:
                bad = True
    if bad:
        raise ValueError(f"{opname}: out has shape {o.shape}, the result has shape "
                         f"{_shape_tuple(shape, nd)}, which does not broadcast to it")
    return o


cdef int _check_same_kind(int code, ndarray o, str opname) except -1:
    if not _same_kind[code][o._code]:
        raise TypeError(f"{opname}: cannot cast the result from {_code_dtype[code]} to "
                        f"out's {o._dtype} with casting rule 'same_kind'")
    return 0


cdef object _finish_out(ndarray tmp, object out, str opname):
    """Cast a result computed in its own dtype into a user `out=` of another dtype."""
    cdef ndarray o = <ndarray>out
    _check_same_kind(tmp._code, o, opname)
    _cast_into(o, tmp)
    return o


cdef inline ndarray _unalias(ndarray o, ndarray x):
    """x, or a copy of it when it partially overlaps the output (exact aliasing is
    safe: each element is read before it is written)."""
    if _overlap(o, x) and not _same_view(o, x):
        return _copy_array(x)
    return x
