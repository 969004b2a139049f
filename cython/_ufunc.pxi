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

# Note [Temporary elision]
# ~~~~~~~~~~~~~~~~~~~~~~~~
# In `a * b + c` the product is a temporary: the interpreter's value stack holds its only
# reference and drops it after the addition.  As NumPy does (temp_elide.c), an operator
# writes its result into such an operand instead of a new array, when
#   1. its reference count is 1 and the interpreter called the operator directly
#      (cython/_elide.h: no other C code on the stack, which may hold an object with one
#      reference and use it afterwards);
#   2. it is a plain ndarray on the CPU device that owns its memory (no view, no wrapped
#      host buffer: a view holds a reference to its owner, so none exists), C-contiguous,
#      writeable, at least _ELIDE_MIN_BYTES;
#   3. it is an operand as given (not a cast copy), of the result's dtype and shape.
# The result is the one a new array would get (out= aliasing an input exactly is
# elementwise-safe), and no one can see the old value.  What it saves on the CPU is the
# new array's first write, which reads each line in before writing it: one thread,
# 2**22 float32, `t + a` 1.11 ms into a new array, 0.64 ms into t.  GPUs allocate from
# their pool without that cost, so only the CPU device elides.
cdef extern from "_elide.h":
    int ga_called_by_interpreter()

cdef enum:
    _ELIDE_MIN_BYTES = 1 << 18      # NumPy's threshold: below it backtrace() dominates


cdef inline object _temporary(object x):
    """x, when an operator may write its result into it (Note [Temporary elision] 1-2)."""
    cdef ndarray a
    if Py_REFCNT(x) != 1 or type(x) is not ndarray:
        return None
    a = <ndarray>x
    if (not a._is_cpu or a._pool is None or a._base is not None
            or (a._flags & (FLAG_C | FLAG_READONLY)) != FLAG_C
            or a._size * a._itemsize < _ELIDE_MIN_BYTES):
        return None
    return a if ga_called_by_interpreter() else None


cdef object _binary_op(_Kernels k, object x1, object x2):
    """An operator's x1 op x2: _binary, into a temporary operand where one is."""
    # (the counts first: a small operator call pays two compares and no call for this)
    if Py_REFCNT(x1) != 1 and Py_REFCNT(x2) != 1:
        return _binary_t(k, x1, x2, None, None)
    cdef object t = _temporary(x1)
    if t is None:
        t = _temporary(x2)
    return _binary_t(k, x1, x2, None, t)


cdef object _unary_op(_Kernels k, object x):
    """An operator's op x: _unary, into x where it is a temporary."""
    if Py_REFCNT(x) != 1:
        return _unary_t(k, x, None, None)
    return _unary_t(k, x, None, _temporary(x))


cdef Py_ssize_t _elisions = 0


def _debug_elisions():
    """Test hook: how many operator results went into a temporary operand so far."""
    return _elisions


cdef object _elide_into(ndarray t, ndarray a, ndarray b, int out_code):
    """t as the output of a op b (b None: a scalar operand), or None (Note [Temporary
    elision] 3)."""
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef int nd, i
    global _elisions
    if t._code != out_code or not (t is a or t is b):
        return None
    if b is not None:
        nd = _broadcast_shape(shape, a, b)
        if nd != t._nd:
            return None
        for i in range(nd):
            if shape[i] != t._shape[i]:
                return None
    _elisions += 1
    return t


# ---- binary ------------------------------------------------------------------------
cdef inline object _binary(_Kernels k, object x1, object x2, object out):
    return _binary_t(k, x1, x2, out, None)


cdef object _binary_t(_Kernels k, object x1, object x2, object out, object temp):
    """x1 op x2 (into out=, or into `temp`, an operand that is a temporary)."""
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
    if (a is not None and _labelled(a)) or (b is not None and _labelled(b)):
        return _time_mod().binary(k.name, x1, x2, out)
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
            if _time_scalar(s):
                return _time_mod().binary(k.name, s if s_first else ref,
                                          ref if s_first else s, out)
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
            pa = _F64 if type(s) is float else (_C128 if type(s) is complex else _F16)
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
        o2 = _power_special(ref, s, code, out, temp)
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
    if temp is not None and out is None:
        out = _elide_into(<ndarray>temp, ref if s is not None else a,
                          None if s is not None else b, out_code)
    return _binary_into(k, a, b, ref, s is not None, s_first, &sv, code, out_code, out)


cdef object _power_special(ndarray x, object e, int code, object out, object temp):
    """x ** e for the scalar exponents NumPy computes apart (its operator's
    fast_scalar_power and its float power loops with a scalar exponent), or None:
    2 is x * x (one multiply, not a pow per element), and 0.5 on a real float loop is
    sqrt, whose values NumPy gives at -0.0 and -inf (-0.0 and nan; pow gives +0 and
    inf); -1 on a real float loop is 1 / x (pow's values, 8x faster).  An exponent
    array takes pow, as in NumPy."""
    cdef str cat = _CATEGORY[code]
    if e == 2 and cat != "b":
        x = _cast_to(x, code)
        return _binary_t(_op_kernels("multiply"), x, x, out, temp)
    if e == 0.5 and cat == "f":
        return _unary_t(_op_kernels("sqrt"), _cast_to(x, code), out, temp)
    if e == -1 and cat == "f":
        return _unary_t(_op_kernels("reciprocal"), _cast_to(x, code), out, temp)
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
    if _is_narrow(code):
        return _narrow_binary(k, a, b, ref, scalar, s_first, sv, code, out_code, out)
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
    _iter_launch(k, o, code, it.layout, &it, args)
    return o


cdef ndarray _narrow_binary(_Kernels k, ndarray a, ndarray b, ndarray ref, bint scalar,
                            bint s_first, _Scalar* sv, int code, int out_code, object out):
    """A binary op computing in a narrow float (Note [Dtype rules] 6 in
    garray/_tables/ops.py): float32's kernel (the kernel float32 runs: float64's for
    float_power) on the operands widened to it (exact), the result rounded once to the
    narrow dtype, as NumPy's float16 loops and ml_dtypes' loops.  A Python scalar is
    already packed as float32."""
    cdef ndarray tmp, o
    cdef int w = k.compute[_F32]
    cdef int out32 = k.out[w]
    cdef _Scalar wide
    if k.f16 is not None:       # an op on the format's grid itself (garray/_elementwise/f16.py)
        if scalar:
            a, b = (_scalar_array(sv, code, ref._device), ref) if s_first else (
                ref, _scalar_array(sv, code, ref._device))
        tmp = k.f16(_cast_to(a, code), _cast_to(b, code))
        o = _prepare_out(out, code, tmp._nd, tmp._shape, tmp._device, k.name)
        _cast_into(o, tmp)
        return o
    if scalar:
        if w == _F64:           # the packed float32 scalar, widened with its operand
            wide.f64 = sv.f32
            sv = &wide
        ref = _cast_to(ref, k.in2[w] if s_first else w)
        a = b = None
    else:
        a = _cast_to(a, w)
        b = _cast_to(b, k.in2[w])
        ref = a
    if out_code != code:        # bool results: straight into the output
        return _binary_into(k, a, b, ref, scalar, s_first, sv, w, out32, out)
    tmp = _binary_into(k, a, b, ref, scalar, s_first, sv, w, out32, None)
    o = _prepare_out(out, code, tmp._nd, tmp._shape, tmp._device, k.name)
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
cdef inline object _unary(_Kernels k, object x, object out):
    return _unary_t(k, x, out, None)


cdef object _unary_t(_Kernels k, object x, object out, object temp):
    """op x (into out=, or into `temp`: x itself when it is a temporary)."""
    cdef ndarray a, o
    cdef int code, out_code
    cdef _Iter it
    cdef void* args[4]
    if not isinstance(x, ndarray):
        if isinstance(x, numpy.ndarray):
            raise _numpy_input_error(f"{k.name}: x")
        try:            # NumPy/Python scalars and sequences, as numpy.sin(0.5)
            x = asarray(x)
        except (TypeError, ValueError):
            raise TypeError(f"{k.name}: x must be a garray.ndarray or array-like, got "
                            f"{type(x).__name__}") from None
    a = <ndarray>x
    if _labelled(a):
        return _time_mod().unary(k.name, a, out)
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
    if _is_narrow(code):    # Note [Dtype rules] 6: float32's kernel, rounded once
        if k.f16 is not None:
            tmp = k.f16(_cast_to(a, code))
        elif out_code != code:
            return _unary(k, _cast_to(a, _F32), out)
        else:
            tmp = _unary(k, _cast_to(a, _F32), None)
        if temp is not None and out is None:
            out = _elide_into(<ndarray>temp, a, None, code)
        o = _prepare_out(out, code, a._nd, a._shape, a._device, k.name)
        _cast_into(o, <ndarray>tmp)
        return o
    a = _cast_to(a, code)
    if temp is not None and out is None:
        out = _elide_into(<ndarray>temp, a, None, out_code)
    o = _prepare_out(out, out_code, a._nd, a._shape, a._device, k.name)
    a = _unalias(o, a)
    _iter_init(&it, o, a, None, None, True)
    _iter_args(&it, args, _cpu_wide_index(o))
    _iter_launch(k, o, code, it.layout, &it, args)
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
    if _is_narrow(code):
        return _narrow_two_out(k, a, b, code, out)
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
    _iter_launch(k, o1, code, it.layout, &it, args)
    for i in range(2):      # outs of another dtype: cast into them
        if users[i] is not None and users[i] is not res[i]:
            res[i] = _finish_out(<ndarray>res[i], users[i], k.name)
    return (res[0], res[1])


cdef tuple _narrow_two_out(_Kernels k, ndarray a, ndarray b, int code, object out):
    """divmod/frexp/modf computing in a narrow float: float32's kernel, each float result
    rounded once to the narrow dtype (frexp's int32 exponent is exact)."""
    users = _out_pair(out, k.name)
    codes = (k.out[code], k.out2[code])
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
