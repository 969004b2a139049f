# Note [Elementwise launch path]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# `a + b` -> ndarray.__add__ (cython/_operators.pxi) -> _binary(table of `add`, a, b):
#   1. operands: ndarrays, or Python scalars kept weak (NEP 50); NumPy scalars are
#      0-d arrays of their dtype; anything else -> NotImplemented / TypeError;
#   2. promotion: a C table lookup (arrays) or the weak-scalar rule, then the op's
#      compute dtype (per-op C array built from the op table); -1 -> TypeError;
#   3. inputs of another dtype are cast first by the cast kernels; scalars are packed
#      by value in the compute dtype (ints out of range -> OverflowError, as NumPy);
#   4. broadcast; the result (or `out=`) is allocated; inputs that partially overlap
#      the output are copied first;
#   5. one contiguous array and one scalar -> the *_cs/*_sc kernels; everything else is
#      described by the iterator (cython/_iter.pxi): contiguous or strided, 32/64-bit;
#   6. the kernel comes from the op's C table [compute dtype][layout] and is launched
#      on the array's device (cython/_launch.pxi).

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
cdef str _CATEGORY = "biiiiuuuuffccf"


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
        return 4 if cat == "b" else arr_code
    if type(s) is float:
        return 10 if cat in "biu" else arr_code
    if arr_code == 9 or arr_code == 11 or arr_code == _F16:   # complex: keeps the precision
        return 11
    return 12


cdef int _pack_scalar(object s, int code, _Scalar* out, str opname) except -1:
    cdef object v
    cdef str cat = _CATEGORY[code]
    if code == 0:
        out.b = bool(s)
    elif cat in "iu":
        if type(s) is float or type(s) is complex:
            raise TypeError(f"{opname}: cannot use a Python {type(s).__name__} with an "
                            f"integer computation")
        v = int(s)
        if v < _int_lo[code] or v > _int_hi[code]:
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
    elif cat == "f":
        if type(s) is complex:
            raise TypeError(f"{opname}: cannot use a Python complex with a real computation")
        if code == 9:
            out.f32 = float(s)
        elif code == _F16:
            # a float16 operand: the value rounded to float16 (as NumPy casts the weak
            # scalar to the loop's dtype), held as the float32 the kernel computes in
            out.f32 = _round_f16(float(s))
        else:
            out.f64 = float(s)
    else:
        v = complex(s)
        if code == 11:
            out.c64[0] = v.real
            out.c64[1] = v.imag
        else:
            out.c128[0] = v.real
            out.c128[1] = v.imag
    return 0


cdef double _round_f16(double v):
    """v rounded to float16 (directly, no double rounding), as a double."""
    with numpy.errstate(over="ignore"):
        return float(numpy.float16(v))


cdef int _write_scalar(ndarray a, _Scalar* sv) except -1:
    cdef _Scalar h
    if a._code == _F16:     # packed as float32 (_pack_scalar): store its float16 bits
        with numpy.errstate(over="ignore"):
            h.u16 = int(numpy.float32(sv.f32).astype(numpy.float16).view(numpy.uint16))
        sv = &h
    if a._is_cpu:
        memcpy(<void*>a._ptr, sv, a._itemsize)
    else:
        a._device.runtime.memcpy_htod(a._ptr, <intptr_t>sv, a._itemsize)
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


# ---- binary ------------------------------------------------------------------------
cdef object _binary(_Kernels k, object x1, object x2, object out):
    cdef ndarray a = None, b = None, ref, tmp
    cdef object o2
    cdef int pa, code, out_code, sc
    cdef str cat
    cdef _Scalar sv
    cdef object s = None
    cdef bint s_first = False, np_scalar = False
    if isinstance(x1, ndarray):
        a = <ndarray>x1
    if isinstance(x2, ndarray):
        b = <ndarray>x2
    if a is None:
        if b is None:
            raise TypeError(f"{k.name}: at least one argument must be a garray.ndarray")
        o2 = _as_operand(x1, b)
        if o2 is None:
            return _foreign_operand(k, x1, b, out)
        x1 = o2
        if isinstance(x1, ndarray):
            a = <ndarray>x1
        else:
            s, s_first = x1, True
    if b is None:
        o2 = _as_operand(x2, a)
        if o2 is None:
            return _foreign_operand(k, x2, a, out)
        x2 = o2
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
        code = k.compute2[a._code][b._code]
    elif isinstance(s, numpy.generic):
        # A NumPy scalar is strong (NEP 50): promoted by its dtype like a 0-d array,
        # then packed by value in the compute dtype (no device allocation).
        sc = _scalar_type_code.get(type(s), -1)
        if sc < 0:              # another type of a known dtype (numpy.longlong ...)
            sc = _code_of.get(s.dtype, -1)
        if sc < 0:
            raise TypeError(f"{k.name}: unsupported NumPy scalar type {s.dtype}")
        pa = _promote[sc][ref._code]
        code = k.compute2[sc][ref._code] if s_first else k.compute2[ref._code][sc]
        np_scalar = True
        cat = _CATEGORY[sc]     # the value as a Python scalar (cheaper than .item())
        s = bool(s) if cat == "b" else (int(s) if cat in "iu" else (
            float(s) if cat == "f" else complex(s)))
    else:
        pa = _scalar_code(s, ref._code)
        if k.has_in2 and s_first:
            # ldexp(3, e): x1 alone picks the loop, as in NumPy: a Python float takes
            # float64, a Python int or bool the smallest float (float16)
            pa = 10 if type(s) is float else (12 if type(s) is complex else _F16)
        code = k.compute[pa]
    if code < 0:
        raise TypeError(f"{k.name}: unsupported dtype {_code_dtype[pa]}"
                        + (f" (from {a._dtype} and {b._dtype})"
                           if s is None and a._code != b._code else ""))
    if k.has_in2 and s is not None and not np_scalar:
        # a Python scalar with an op whose second operand is integer (ldexp): the arrays'
        # case is in compute2 (garray/_tables/ops.py, in2_ok)
        if not (k.op.in2_ok(ref._code) if s_first else (type(s) is int or type(s) is bool)):
            raise TypeError(f"{k.name}: the second operand must be bool or an integer "
                            f"(not uint64), got "
                            f"{ref._dtype if s_first else type(s).__name__}")
        if not s_first and not -(1 << 31) <= s < (1 << 31):
            # NumPy takes a Python int exponent through its int32 loop (ldexp's "fi")
            raise OverflowError(f"{k.name}: Python integer {s} out of bounds for int32 "
                                f"(the exponent of a Python int)")
    out_code = k.out[code]
    if s is not None and type(s) is int and _CATEGORY[pa] in "iu":
        if s < _int_lo[pa] or s > _int_hi[pa]:
            # NumPy 2: comparisons answer exactly; otherwise the int must fit the loop's
            # input type: the compute dtype when that is an integer (_pack_scalar raises),
            # else a bool loop takes it through a C long (NumPy raises past int64), a
            # float loop through a double (any size).
            if k.compare is not None:
                return _compare_out_of_range(k, ref, s > _int_hi[pa], s_first, out)
    if (s is not None and type(s) is int and _CATEGORY[code] == "b"
            and not -(1 << 63) <= s < (1 << 63)):
        raise OverflowError(f"{k.name}: Python integer {s} too large for a C long "
                            f"(the bool loop takes it through one, as NumPy's)")
    if k.power and _CATEGORY[code] == "i":
        _check_int_exponent(s, b if s is None or s_first else None)
    if k.power and s is not None and not s_first and (s == 2 or s == 0.5 or s == -1):
        o2 = _power_special(ref, s, code, out)
        if o2 is not None:
            return o2
    # the second operand in its own dtype (k.in2: ldexp's int64), else the compute dtype
    if s is not None:
        _pack_scalar(s, code if s_first else k.in2[code], &sv, k.name)
        ref = _cast_to(ref, k.in2[code] if s_first else code)
    else:
        a = _cast_to(a, code)
        b = _cast_to(b, k.in2[code])
    if k.nout == 2:
        if s is not None:
            if s_first:
                a, b = _scalar_array(&sv, code, ref._device), ref
            else:
                a, b = ref, _scalar_array(&sv, k.in2[code], ref._device)
        return _two_out(k, a, b, code, out)
    if isinstance(out, ndarray) and (<ndarray>out)._code != out_code:
        _check_same_kind(out_code, <ndarray>out, k.name)     # NumPy: before shapes
        tmp = _binary_into(k, a, b, ref, s is not None, s_first, &sv, code, out_code, None)
        _prepare_out(out, (<ndarray>out)._code, tmp._nd, tmp._shape, ref._device, k.name)
        return _finish_out(tmp, out, k.name)
    return _binary_into(k, a, b, ref, s is not None, s_first, &sv, code, out_code, out)


cdef object _power_special(ndarray x, object e, int code, object out):
    """x ** e for the scalar exponents NumPy computes apart (its operator's
    fast_scalar_power and its float power loops with a scalar exponent), or None:
    2 is x * x (one multiply, not a pow per element), and 0.5 on a real float loop is
    sqrt, whose values NumPy gives at -0.0 and -inf (-0.0 and nan; pow gives +0 and
    inf); -1 on a real float loop is 1 / x (pow's values, 8x faster).  An exponent
    array takes pow, as in NumPy."""
    cdef str cat = _CATEGORY[code]
    if e == 2 and cat != "b":
        x = _cast_to(x, code)
        return _binary(_op_kernels("multiply"), x, x, out)
    if e == 0.5 and cat == "f":
        return _unary(_op_kernels("sqrt"), _cast_to(x, code), out)
    if e == -1 and cat == "f":
        return _unary(_op_kernels("reciprocal"), _cast_to(x, code), out)
    return None


cdef ndarray _binary_into(_Kernels k, ndarray a, ndarray b, ndarray ref, bint scalar,
                          bint s_first, _Scalar* sv, int code, int out_code, object out):
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef int nd
    cdef ndarray o
    cdef _Iter it
    cdef void* args[6]
    cdef intptr_t po, pr
    cdef int64_t n
    if code == _F16:
        return _f16_binary(k, a, b, ref, scalar, s_first, sv, out_code, out)
    if scalar:
        o = _prepare_out(out, out_code, ref._nd, ref._shape, ref._device, k.name)
        ref = _unalias(o, ref)
        if (o._flags & FLAG_C) and (ref._flags & FLAG_C) and ref._size == o._size:
            po, pr, n = o._ptr, ref._ptr, o._size
            args[0] = &po
            args[1] = <void*>sv if s_first else <void*>&pr
            args[2] = <void*>&pr if s_first else <void*>sv
            args[3] = &n
            k.launch(o, code, L_SC if s_first else L_CS, n, args)
            return o
        if s_first:
            a, b = _scalar_array(sv, code, ref._device), ref
        else:
            a, b = ref, _scalar_array(sv, k.in2[code], ref._device)
    else:
        nd = _broadcast_shape(shape, a, b)
        o = _prepare_out(out, out_code, nd, shape, ref._device, k.name)
        a = _unalias(o, a)
        b = _unalias(o, b)
    _iter_init(&it, o, a, b, None, True)
    _iter_args(&it, args, _cpu_wide_index(o))
    k.launch(o, code, it.layout, it.n, args)
    return o


cdef ndarray _f16_binary(_Kernels k, ndarray a, ndarray b, ndarray ref, bint scalar,
                         bint s_first, _Scalar* sv, int out_code, object out):
    """A binary op computing in float16 (Note [Dtype rules] 6 in garray/_tables/ops.py): the
    float32 kernel on the operands widened to float32 (exact), the result rounded once to
    float16, as NumPy's float16 loops.  A Python scalar is already packed as float32."""
    cdef ndarray tmp, o
    cdef int out32 = k.out[_F32]
    if k.f16 is not None:       # an op on the float16 grid itself (garray/_elementwise/f16.py)
        if scalar:
            a, b = (_scalar_array(sv, _F16, ref._device), ref) if s_first else (
                ref, _scalar_array(sv, _F16, ref._device))
        tmp = k.f16(a, b)
        o = _prepare_out(out, _F16, tmp._nd, tmp._shape, tmp._device, k.name)
        _cast_into(o, tmp)
        return o
    if scalar:
        ref = _cast_to(ref, k.in2[_F32] if s_first else _F32)
        a = b = None
    else:
        a = _cast_to(a, _F32)
        b = _cast_to(b, k.in2[_F32])
        ref = a
    if out_code != _F16:        # bool results: straight into the output
        return _binary_into(k, a, b, ref, scalar, s_first, sv, _F32, out32, out)
    tmp = _binary_into(k, a, b, ref, scalar, s_first, sv, _F32, out32, None)
    o = _prepare_out(out, _F16, tmp._nd, tmp._shape, tmp._device, k.name)
    _cast_into(o, tmp)
    return o


cdef int _check_int_exponent(object s, ndarray e) except -1:
    """NumPy refuses integer powers with negative integer exponents (the result is not
    an integer): checked on the scalar, or on the exponent array by a comparison and an
    any() (a device round trip, paid only by signed integer powers of arrays)."""
    if e is None:
        neg = s < 0
    elif _CATEGORY[e._code] != "i":
        return 0
    else:
        neg = _reduce("any", _binary(_op_kernels("less"), e, 0, None), tuple(range(e._nd)), False)
    if neg:
        raise ValueError("pow: integers to negative integer powers are not allowed")
    return 0


cdef object _foreign_operand(_Kernels k, object other, ndarray x, object out):
    """x OP other for an operand garray cannot take (None, a string, any object):
    == and != answer elementwise as NumPy does (all False / all True); other operators
    return NotImplemented (so Python raises TypeError, or another array library that
    knows garray takes over)."""
    if k.compare not in ("eq", "ne") or hasattr(other, "__array_namespace__") or hasattr(
            other, "__array_ufunc__") or hasattr(other, "__array_function__"):
        return NotImplemented
    o = _prepare_out(out, 0 if out is None else (<ndarray>out)._code, x._nd, x._shape,
                     x._device, k.name)
    _assign(o, k.compare == "ne")
    return o


cdef object _compare_out_of_range(_Kernels k, ndarray x, bint above, bint s_first, object out):
    """x OP v for a Python int v outside x's integer dtype: the same answer everywhere, as
    NumPy 2 gives (uint8 == -1 is all False, uint8 < 300 all True)."""
    cdef str stem = k.compare
    if s_first:              # v OP x is x OP' v
        stem = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}.get(stem, stem)
    value = stem == "ne" or (stem in ("lt", "le") and above) or (
        stem in ("gt", "ge") and not above)
    o = _prepare_out(out, 0 if out is None else (<ndarray>out)._code, x._nd, x._shape,
                     x._device, k.name)
    _assign(o, value)
    return o


# ---- unary -------------------------------------------------------------------------
cdef object _unary(_Kernels k, object x, object out):
    cdef ndarray a, o
    cdef int code, out_code
    cdef _Iter it
    cdef void* args[4]
    if not isinstance(x, ndarray):
        try:            # NumPy/Python scalars and sequences, as numpy.sin(0.5)
            x = asarray(x)
        except (TypeError, ValueError):
            raise TypeError(f"{k.name}: x must be a garray.ndarray or array-like, got "
                            f"{type(x).__name__}") from None
    a = <ndarray>x
    code = k.compute[a._code]
    if code < 0:
        raise TypeError(f"{k.name}: unsupported dtype {a._dtype}")
    if k.nout == 2:
        return _two_out(k, _cast_to(a, code), None, code, out)
    out_code = k.out[code]
    if out is not None and isinstance(out, ndarray) and (<ndarray>out)._code != out_code:
        _check_same_kind(out_code, <ndarray>out, k.name)
        tmp = _unary(k, x, None)
        _prepare_out(out, (<ndarray>out)._code, a._nd, a._shape, a._device, k.name)
        return _finish_out(tmp, out, k.name)
    if code == _F16:        # Note [Dtype rules] 6: float32's kernel, rounded once
        if k.f16 is not None:
            tmp = k.f16(_cast_to(a, _F16))
        elif out_code != _F16:
            return _unary(k, _cast_to(a, _F32), out)
        else:
            tmp = _unary(k, _cast_to(a, _F32), None)
        o = _prepare_out(out, _F16, a._nd, a._shape, a._device, k.name)
        _cast_into(o, <ndarray>tmp)
        return o
    a = _cast_to(a, code)
    o = _prepare_out(out, out_code, a._nd, a._shape, a._device, k.name)
    a = _unalias(o, a)
    _iter_init(&it, o, a, None, None, True)
    _iter_args(&it, args, _cpu_wide_index(o))
    k.launch(o, code, it.layout, it.n, args)
    return o


# ---- two outputs (divmod, frexp, modf) ---------------------------------------------
cdef list _out_pair(object out, str opname):
    """out= of a two-output op as [out1, out2] (entries None or ndarray): NumPy's tuple of
    one entry per output."""
    if out is None:
        return [None, None]
    if not isinstance(out, tuple):
        raise TypeError(f"{opname}: 'out' must be a tuple of arrays (one per output, None "
                        f"to allocate), got {type(out).__name__}")
    if len(out) != 2:
        raise ValueError(f"{opname}: the 'out' tuple must have exactly one entry per ufunc "
                         f"output (2), got {len(out)}")
    for o in out:
        if o is not None and not isinstance(o, ndarray):
            raise TypeError(f"{opname}: out must hold garray.ndarray or None, got "
                            f"{type(o).__name__}")
    return list(out)


cdef tuple _two_out(_Kernels k, ndarray a, ndarray b, int code, object out):
    """A two-output op on inputs already in the compute dtype (b None: unary), both
    results from one launch of ew1x2_* / ew2x2_* (Note [Two-output ops] in
    _kernels/garray/functors.h).  The second output takes the iterator's first input
    slot, so the launch is described as out = f(out2, a[, b])."""
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef int nd, i
    cdef int codes[2]
    cdef ndarray o1, o2, given = None
    cdef _Iter it
    cdef void* args[7]
    if code == _F16:
        return _f16_two_out(k, a, b, out)
    codes[0] = k.out[code]
    codes[1] = k.out2[code]
    users = _out_pair(out, k.name)
    for i in range(2):      # NumPy checks the casts before the shapes
        if users[i] is not None and (<ndarray>users[i])._code != codes[i]:
            _check_same_kind(codes[i], <ndarray>users[i], k.name)
    if b is None:
        nd = a._nd
        for i in range(nd):
            shape[i] = a._shape[i]
    else:
        nd = _broadcast_shape(shape, a, b)
    for u in users:         # an out larger than the inputs' shape sets the result's
        if u is not None:
            _prepare_out(u, codes[0], nd, shape, a._device, k.name)
            if given is None:
                given = <ndarray>u
            elif (<ndarray>u).shape != given.shape:
                raise ValueError(f"{k.name}: the outputs have shapes {given.shape} and "
                                 f"{(<ndarray>u).shape}; they must be the same")
    if given is not None:
        nd = given._nd
        for i in range(nd):
            shape[i] = given._shape[i]
    res = [u if u is not None and (<ndarray>u)._code == codes[i] else
           _new_array(_code_dtype[codes[i]], nd, shape, a._device)
           for i, u in enumerate(users)]
    o1, o2 = res[0], res[1]
    for o in res:
        a = _unalias(<ndarray>o, a)
        if b is not None:
            b = _unalias(<ndarray>o, b)
    _iter_init(&it, o1, o2, a, b, True)
    _iter_args(&it, args, _cpu_wide_index(o1))
    k.launch(o1, code, it.layout, it.n, args)
    for i in range(2):      # outs of another dtype: cast into them
        if users[i] is not None and users[i] is not res[i]:
            res[i] = _finish_out(<ndarray>res[i], users[i], k.name)
    return (res[0], res[1])


cdef tuple _f16_two_out(_Kernels k, ndarray a, ndarray b, object out):
    """divmod/frexp/modf computing in float16: float32's kernel, each float result
    rounded once to float16 (frexp's int32 exponent is exact)."""
    users = _out_pair(out, k.name)
    codes = (k.out[_F16], k.out2[_F16])
    for i in range(2):
        if users[i] is not None and (<ndarray>users[i])._code != codes[i]:
            _check_same_kind(codes[i], <ndarray>users[i], k.name)
    r = _two_out(k, _cast_to(a, _F32), None if b is None else _cast_to(b, _F32), _F32, None)
    res = []
    for i in range(2):
        t = <ndarray>r[i]
        if users[i] is not None:
            _prepare_out(users[i], codes[i], t._nd, t._shape, t._device, k.name)
            _cast_into(<ndarray>users[i], t)
            res.append(users[i])
        else:
            res.append(_cast_to(t, codes[i]))
    return (res[0], res[1])


cdef object _inplace(_Kernels k, ndarray self, object other):
    if self._flags & FLAG_READONLY:
        raise ValueError("output array is read-only")
    r = _binary(k, self, other, self)
    if r is NotImplemented:
        return r
    return self


cdef object _ufunc_methods_mod = None


cdef object _ufunc_methods():
    global _ufunc_methods_mod
    if _ufunc_methods_mod is None:
        from garray._reduce import ufunc_methods as _ufunc_methods
        _ufunc_methods_mod = _ufunc_methods
    return _ufunc_methods_mod


@cython.final
cdef class ufunc:
    """An elementwise function of garray (``garray.add``, ``garray.sin`` ...).

    Built from one row of the op table (garray._tables.ops); its docstring says what it
    computes, the dtypes it accepts and where it differs from NumPy.
    """
    cdef readonly str __name__
    cdef readonly int nin
    cdef readonly int nout
    cdef _Kernels _k
    cdef readonly str __doc__

    def __cinit__(self, str name):
        self._k = _op_kernels(name)
        self.__name__ = name
        self.nin = self._k.nin
        self.nout = self._k.nout
        self.__doc__ = self._k.op.docstring()

    def __call__(self, *args, out=None):
        if self.nout == 2 and self.nin < len(args) <= self.nin + 2:
            # NumPy's positional outputs: divmod(a, b, q, r)
            if out is not None:
                raise TypeError(f"{self.__name__}: cannot specify 'out' as both a "
                                f"positional and keyword argument")
            out = tuple(args[self.nin:]) + (None,) * (self.nin + 2 - len(args))
            args = args[:self.nin]
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional argument"
                            f"{'s' if self.nin > 1 else ''} but {len(args)} were given")
        if self.nin == 1:
            return _unary(self._k, args[0], out)
        if not isinstance(args[0], ndarray) and not isinstance(args[1], ndarray):
            # two scalars or sequences, as numpy.add(1, 2): one becomes an array on the
            # current device, the other keeps its kind: a NumPy scalar or a sequence is
            # the strong one; of two Python scalars the first takes its default dtype
            if _is_pyscalar(args[0]) and not _is_pyscalar(args[1]):
                args = (args[0], asarray(args[1]))
            else:
                args = (asarray(args[0]), args[1])
        r = _binary(self._k, args[0], args[1], out)
        if r is NotImplemented:
            raise TypeError(f"{self.__name__}: unsupported operand types "
                            f"{type(args[0]).__name__} and {type(args[1]).__name__}")
        return r

    # ---- methods (garray/_reduce/ufunc_methods.py, Note [ufunc reductions]) -----------------
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
               initial=numpy._NoValue, where=True):
        """Reduce ``array`` over ``axis`` (int, tuple or None) by repeated application
        of this binary ufunc.

        Parameters
        ----------
        array : ndarray
            Input array.
        axis : int, tuple of int or None, optional
            The axes to reduce.
        dtype : dtype, optional
            The accumulation dtype.
        out : ndarray, optional
            A garray array of the result's shape to write into.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        initial : scalar, optional
            Starting value.
        where : array_like of bool, optional
            Elements to include.

        Returns
        -------
        ndarray

        See Also
        --------
        numpy.ufunc.reduce
        """
        return _ufunc_methods().reduce(self, array, axis, dtype, out, keepdims, initial,
                                       where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """The running reduction along ``axis``.

        Parameters
        ----------
        array : ndarray
            Input array.
        axis : int, optional
            The axis.
        dtype : dtype, optional
            The accumulation dtype.
        out : ndarray, optional
            A garray array of the result's shape to write into.

        Returns
        -------
        ndarray
            Of array's shape.

        See Also
        --------
        numpy.ufunc.accumulate
        """
        return _ufunc_methods().accumulate(self, array, axis, dtype, out)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """Reduce ``array`` over the segments of ``axis`` that ``indices`` start.

        For each ``i``, the result's element ``i`` along ``axis`` is
        ``self.reduce(array[indices[i]:indices[i + 1]])`` (the last segment runs to the
        end); where ``indices[i] >= indices[i + 1]`` it is ``array[indices[i]]``.

        Parameters
        ----------
        array : ndarray
            Input array (at least 1-d).
        indices : sequence of int
            Segment starts, each in ``[0, array.shape[axis])`` (IndexError otherwise).
        axis : int, optional
            The axis.
        dtype : dtype, optional
            The accumulation dtype, as for ``reduce``.
        out : ndarray, optional
            A garray array of the result's shape (cast into unsafely, as NumPy).

        Returns
        -------
        ndarray
            Of array's shape with ``len(indices)`` along ``axis``.

        Notes
        -----
        Each segment longer than one element is one reduction launch (one-element
        segments are gathered together): the cost grows with ``len(indices)``.

        See Also
        --------
        numpy.ufunc.reduceat
        """
        return _ufunc_methods().reduceat(self, array, indices, axis, dtype, out)

    def at(self, a, indices, b=None, /):
        """Apply this ufunc in place at ``a[indices]``, unbuffered: an element indexed k
        times is updated k times, in order (``garray.add.at(a, [0, 0], 1)`` adds 2).

        Parameters
        ----------
        a : ndarray
            The array to update (writable).
        indices : index
            Any index NumPy takes for ``a[indices]``: integers, integer arrays or lists,
            slices, tuples of those, boolean masks.
        b : ndarray or scalar, optional
            The second operand of a binary ufunc, broadcast to ``a[indices].shape``;
            omitted for a unary one.

        Returns
        -------
        None

        Notes
        -----
        Results are cast into ``a``'s dtype unsafely, as NumPy's ``at``.  The work is a
        few launches per round, and there are as many rounds as the largest number of
        times one element is indexed.  Two-output ufuncs raise ValueError (as NumPy).

        See Also
        --------
        numpy.ufunc.at
        """
        return _ufunc_methods().at(self, a, indices, b)

    def outer(self, A, B, /, *, out=None):
        """This ufunc on every pair (a, b) of A's and B's elements; the result has shape
        A.shape + B.shape.

        Parameters
        ----------
        A : ndarray or scalar
            First operand.
        B : ndarray or scalar
            Second operand.
        out : ndarray, optional
            A garray array of the result's shape to write into.

        Returns
        -------
        ndarray
            Of shape A.shape + B.shape.

        See Also
        --------
        numpy.ufunc.outer
        """
        return _ufunc_methods().outer(self, A, B, out)

    @property
    def identity(self):
        """NumPy's identity of this ufunc (0 for add, 1 for multiply, None when it has
        none)."""
        return _ufunc_methods().identity(self.__name__)

    def __repr__(self):
        return f"<garray.ufunc '{self.__name__}'>"

    def __reduce__(self):
        return (ufunc, (self.__name__,))


def _ufunc_at_fold(str name, ndarray flat, ndarray pos, ndarray vals, ndarray starts):
    """ufunc.at's fold (ew2_at, Note [Elementwise kernels] 6): for each run of equal
    targets in ``pos`` (C-contiguous int64, sorted stably; ``starts``: each run's first
    position), fold the run's ``vals`` (flat's dtype, C-contiguous, in pos's order) into
    flat[target] in order with op ``name``, which computes in flat's dtype."""
    cdef _Kernels k = _op_kernels(name)
    cdef intptr_t pf = flat._ptr, pp = pos._ptr, pv = vals._ptr, ps = starts._ptr
    cdef int64_t runs = starts._size, n = pos._size
    cdef void* args[6]
    if runs == 0:
        return None
    args[0], args[1], args[2], args[3], args[4], args[5] = &pf, &pp, &pv, &ps, &runs, &n
    k.launch(flat, flat._code, L_AT, runs, args, n)
    return None
