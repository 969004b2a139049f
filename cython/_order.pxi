# Memory order (NumPy's order= on creation and copies) and zero-copy wrapping of host
# buffers on the CPU device: shared by the creation functions (_creation.pxi) and
# copies (_copy.pxi).

cdef bint _numpy_wrappable(object h):
    """Whether garray's kernels can use NumPy array h's memory in place: aligned, and
    every stride a multiple of the itemsize (as_strided and packed-record views may
    break both; kernels and DLPack consumers assume them)."""
    cdef Py_ssize_t isz = h.itemsize
    if not h.flags.aligned:
        return False
    for st in h.strides:
        if st % isz:
            return False
    return True


cdef ndarray _wrap_numpy(object h, object device, bint readonly):
    """A CPU-device array sharing the memory of NumPy array ``h`` (kept alive); a copy
    of h when its layout is not one the kernels can use (_numpy_wrappable)."""
    cdef ndarray r = ndarray.__new__(ndarray)
    cdef Py_buffer view
    cdef int i
    cdef bint ok
    cdef object dt = h.dtype
    if dt in _code_of and dt not in _time_dtypes:
        r._dtype = _code_dtype[_code_of[dt]]
    else:
        r._dtype = _norm_dtype(dt)
    r._code = _code_of[r._dtype]
    # The buffer protocol hands over pointer, shape and strides without building
    # __array_interface__'s dict; h itself (in _base) keeps the memory alive.  ml_dtypes'
    # dtypes have no buffer format: their bits are exported as unsigned integers; time
    # dtypes none either: their int64 storage.
    if _labelled(r):
        PyObject_GetBuffer(h.view(_code_dtype[r._code]), &view, PyBUF_RECORDS_RO)
    elif _is_ml_format(r._code):
        PyObject_GetBuffer(h.view(_code_dtype[_U8 if r._dtype.itemsize == 1 else _U16]), &view,
                           PyBUF_RECORDS_RO)
    else:
        PyObject_GetBuffer(h, &view, PyBUF_RECORDS_RO)
    try:
        if view.ndim > MAX_NDIM:
            raise ValueError(f"at most {MAX_NDIM} dimensions are supported, got {view.ndim}")
        _reserve_nd(r, view.ndim)
        r._nd = view.ndim
        for i in range(view.ndim):
            r._shape[i] = view.shape[i]
            r._strides[i] = view.strides[i]
        r._ptr = <intptr_t>view.buf
        ok = r._ptr % view.itemsize == 0
        for i in range(view.ndim):
            if view.strides[i] % view.itemsize:
                ok = False
        if readonly or view.readonly:
            r._flags = FLAG_READONLY
    finally:
        PyBuffer_Release(&view)
    if not ok:
        return _wrap_numpy(numpy.array(h, order="C"), device, readonly)
    r._itemsize = r._dtype.itemsize
    r._device = device
    r._is_cpu = True
    r._base = h
    _update_flags(r)
    return r


# ---- memory order (NumPy's order=) ---------------------------------------------------

cdef enum:
    ORDER_C = 0
    ORDER_F = 1
    ORDER_A = 2
    ORDER_K = 3


cdef int _order_code(object order, object none_is, bint keep_ok) except -1:
    """NumPy's ``order=`` as ORDER_*: ``none_is`` is the code of None; A and K are
    ValueErrors where only C and F make sense (``keep_ok`` False: a fresh array of a
    shape has no layout to keep), as NumPy."""
    if order is None:
        return none_is
    if not isinstance(order, str):
        raise TypeError(f"order: must be str, not {type(order).__name__}")
    o = (<str>order).upper()
    if o == "C":
        return ORDER_C
    if o == "F":
        return ORDER_F
    if o == "A" or o == "K":
        if not keep_ok:
            raise ValueError(f"order: only 'C' or 'F' order is permitted, got {order!r}")
        return ORDER_A if o == "A" else ORDER_K
    raise ValueError(f"order: must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


cdef int _resolve_order(int order, ndarray proto) except -1:
    """A and K against a prototype: A is F for an F- but not C-contiguous prototype,
    else C; K stays K (the prototype's axis order) unless the prototype is C- or
    F-contiguous already."""
    if order == ORDER_A or order == ORDER_K:
        if proto is None or proto._flags & FLAG_C:
            return ORDER_C
        if proto._flags & FLAG_F:
            return ORDER_F
        return ORDER_C if order == ORDER_A else ORDER_K
    return order


cdef int _apply_order(ndarray a, int order, ndarray proto) except -1:
    """Rewrite the strides of a fresh, dense, C-ordered array ``a`` to ``order``: F, or
    K (the axis order of ``proto``, by decreasing absolute stride; same ndim).  The
    memory is one dense block whatever the order, so only strides change."""
    cdef int i, j, k
    cdef int perm[MAX_NDIM]
    cdef Py_ssize_t acc = a._itemsize
    if order == ORDER_C or a._size == 0 or a._nd < 2:
        return 0
    if order == ORDER_F:
        for i in range(a._nd):
            perm[i] = a._nd - 1 - i
    else:
        # Stable insertion sort of the axes by decreasing |stride| of the prototype.
        for i in range(a._nd):
            perm[i] = i
        for i in range(1, a._nd):
            k = perm[i]
            j = i - 1
            while j >= 0 and _abs_stride(proto, perm[j]) < _abs_stride(proto, k):
                perm[j + 1] = perm[j]
                j -= 1
            perm[j + 1] = k
    # perm lists the axes from outermost (largest stride) to innermost.
    for i in range(a._nd - 1, -1, -1):
        a._strides[perm[i]] = acc
        acc *= a._shape[perm[i]]
    _update_flags(a)
    return 0


cdef inline Py_ssize_t _abs_stride(ndarray a, int i) noexcept:
    # A length-1 axis has no meaningful stride: treated as the outermost.
    if a._shape[i] == 1:
        return PY_SSIZE_T_MAX
    return a._strides[i] if a._strides[i] >= 0 else -a._strides[i]


cdef ndarray _empty_layout(tuple shape, object dtype, int order, ndarray proto,
                           object device):
    """A fresh array of ``shape`` in ``order`` (ORDER_K: the layout of ``proto``)."""
    cdef ndarray a = empty(shape, dtype=dtype, device=device)
    order = _resolve_order(order, proto)
    if order == ORDER_K and (proto is None or proto._nd != a._nd):
        order = ORDER_C
    _apply_order(a, order, proto)
    return a


cdef ndarray _copy_order(ndarray a, int order, object dtype):
    """A copy of ``a`` (cast to ``dtype`` when given) in ``order``, on its device."""
    cdef ndarray r = _empty_layout(a.shape, a._dtype if dtype is None else dtype, order,
                                   a, a._device)
    if r._dtype is a._dtype:
        _copy_into(r, a)
    else:
        _cast_into(r, a)
    return r


cdef bint _has_order(ndarray a, int order) noexcept:
    if order == ORDER_C:
        return (a._flags & FLAG_C) != 0
    if order == ORDER_F:
        return (a._flags & FLAG_F) != 0
    return True


def _order_code_py(order, keep_ok=False):
    """'C', 'F', 'A' or 'K' for NumPy's ``order`` argument (None: 'C'); NumPy's errors."""
    return "CFAK"[_order_code(order, ORDER_C, keep_ok)]


def _copy_with_order(x, order="K", dtype=None):
    """A copy of x in ``order`` ('K' keeps x's axis order): garray.copy
    (garray/_array_utils.py)."""
    return _copy_order(<ndarray?>x, _order_code(order, ORDER_K, True),
                       None if dtype is None else _norm_dtype(dtype))
