# Note [Copies between layouts]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# 1. _copy_into(dst, src): same dtype, same shape (src may broadcast with 0 strides).
#    Adjacent axes that are contiguous in both arrays are merged first, so the
#    common cases become one memcpy or one strided inner loop.
# 2. If src and dst memory overlap (x[1:] = x[:-1]), src is first copied to a
#    contiguous temporary: the result is as if src were read whole before writing.
# 3. CPU device: garray's own strided loop below.  GPU devices: contiguous copies are
#    one device-to-device memcpy; other layouts run the strided cast kernel (same
#    dtype), and host transfers of non-contiguous arrays go through a contiguous
#    device temporary.
# 4. Casts (astype, assignment of another dtype) run the cast kernels of
#    _kernels/cast.hip (NumPy's unsafe-cast semantics).

# How implicit GPU -> host conversions behave (numpy.asarray(gpu_array)).
_implicit_transfer = [_env.choice("GARRAY_IMPLICIT_TRANSFER", ("allow", "warn", "raise"),
                                  "allow")]


def set_implicit_transfer(mode):
    """How implicit GPU -> host conversions (``numpy.asarray(x)``) behave.

    ``"allow"`` (default) copies to the host, as JAX does, so SciPy/matplotlib
    fallbacks work; ``"warn"`` copies and warns; ``"raise"`` raises ``TypeError``
    naming ``garray.asnumpy`` (CuPy's behaviour), for finding hidden transfers.
    ``GARRAY_IMPLICIT_TRANSFER`` sets the initial mode.  Returns the previous mode.

    Parameters
    ----------
    mode : {'allow', 'warn', 'raise'}
        The behaviour.

    Returns
    -------
    str
        The previous mode.
    """
    if mode not in ("allow", "raise", "warn"):
        raise ValueError(f"mode: expected 'allow', 'warn' or 'raise', got {mode!r}")
    old = _implicit_transfer[0]
    _implicit_transfer[0] = mode
    return old


cdef void _strided_copy(char* dst, Py_ssize_t* ds, const char* src, Py_ssize_t* ss,
                        Py_ssize_t* shape, int nd, Py_ssize_t itemsize) noexcept nogil:
    """Copy an nd block of itemsize elements between two strided layouts (host memory)."""
    cdef Py_ssize_t idx[MAX_NDIM]
    cdef Py_ssize_t i, n, dst_step, src_step
    cdef int k
    if nd == 0:
        memcpy(dst, src, itemsize)
        return
    n = shape[nd - 1]
    dst_step = ds[nd - 1]
    src_step = ss[nd - 1]
    if nd == 1 and dst_step == itemsize and src_step == itemsize:
        memcpy(dst, src, n * itemsize)
        return
    for k in range(nd):
        idx[k] = 0
    while True:
        if dst_step == itemsize and src_step == itemsize:
            memcpy(dst, src, n * itemsize)
        elif itemsize == 8:
            for i in range(n):
                (<int64_t*>(dst + i * dst_step))[0] = (<const int64_t*>(src + i * src_step))[0]
        elif itemsize == 4:
            for i in range(n):
                (<int*>(dst + i * dst_step))[0] = (<const int*>(src + i * src_step))[0]
        elif itemsize == 1:
            for i in range(n):
                dst[i * dst_step] = src[i * src_step]
        else:
            for i in range(n):
                memcpy(dst + i * dst_step, src + i * src_step, itemsize)
        k = nd - 2
        while k >= 0:
            idx[k] += 1
            dst += ds[k]
            src += ss[k]
            if idx[k] < shape[k]:
                break
            dst -= ds[k] * shape[k]
            src -= ss[k] * shape[k]
            idx[k] = 0
            k -= 1
        if k < 0:
            return


cdef void _extent(ndarray a, intptr_t* lo, intptr_t* hi) noexcept:
    """Byte range [lo, hi) touched by a (non-empty) array."""
    cdef int i
    cdef intptr_t l = a._ptr, h = a._ptr
    for i in range(a._nd):
        if a._strides[i] > 0:
            h += a._strides[i] * (a._shape[i] - 1)
        else:
            l += a._strides[i] * (a._shape[i] - 1)
    lo[0] = l
    hi[0] = h + a._itemsize


cdef bint _overlap(ndarray a, ndarray b) noexcept:
    cdef intptr_t alo, ahi, blo, bhi
    if a._size == 0 or b._size == 0 or a._device is not b._device:
        return False
    _extent(a, &alo, &ahi)
    _extent(b, &blo, &bhi)
    return alo < bhi and blo < ahi


cdef int _copy_into(ndarray dst, ndarray src) except -1:
    """dst[...] = src for equal dtype and shape, any strides, same device."""
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef Py_ssize_t st[2][MAX_NDIM]
    cdef int i, nd
    if dst._size == 0:
        return 0
    if dst._dtype is not src._dtype and (_labelled(dst) or _labelled(src)):
        return _time_mod().cast_into(dst, src)      # a time unit to another
    if _overlap(dst, src):
        src = _copy_array(src)
    if not dst._is_cpu:
        return _copy_into_gpu(dst, src)
    for i in range(dst._nd):
        shape[i] = dst._shape[i]
        st[0][i] = dst._strides[i]
        st[1][i] = src._strides[i]
    nd = _collapse_n(dst._nd, shape, 2, st)       # the iterator's collapse (cython/_iter.pxi)
    with nogil:
        _strided_copy(<char*>dst._ptr, st[0], <const char*>src._ptr, st[1], shape, nd,
                      dst._itemsize)
    return 0


cdef int _copy_into_gpu(ndarray dst, ndarray src) except -1:
    if (dst._flags & FLAG_C) and (src._flags & FLAG_C) and src._size == dst._size:
        _copy_dtod(dst._device, dst._ptr, src._ptr, dst._size * dst._itemsize)
        return 0
    _cast_into(dst, src)          # same dtype: the strided cast kernel is a strided copy
    return 0


cdef object _host_view(ndarray a):
    """A NumPy array sharing the memory of a CPU-device array (keeps ``a`` alive)."""
    cdef _HostBuffer hb = _HostBuffer.__new__(_HostBuffer)
    # ml_dtypes' dtypes have no type string NumPy reads back: their bits, then a view
    cdef bint bits = _is_ml_format(a._code)
    hb.array = a
    hb._iface = {
        "version": 3,
        "data": (a._ptr, bool(a._flags & FLAG_READONLY)),
        "shape": a.shape,
        "strides": a.strides,
        "typestr": f"<u{a._itemsize}" if bits else a._dtype.str,
    }
    return numpy.asarray(hb).view(a._dtype) if bits else numpy.asarray(hb)


cdef object _to_numpy(ndarray a, bint copy):
    """The array's values as a NumPy array on the host (a copy if ``copy`` or GPU)."""
    if a._is_cpu:
        h = _host_view(a)
        return h.copy() if copy else h
    out = numpy.empty(a.shape, a._dtype)
    if a._size == 0:
        return out
    if a._flags & FLAG_C:
        _copy_dtoh(a._device, out.ctypes.data, a._ptr, a._size * a._itemsize)
        return out
    c = _copy_array(a)            # gather on the device (strided copy kernel), then one copy
    _copy_dtoh(a._device, out.ctypes.data, (<ndarray>c)._ptr, a._size * a._itemsize)
    return out


cdef int _upload_into(ndarray dst, object h) except -1:
    """dst[...] = h, h a host NumPy array of dst's dtype broadcastable to dst.shape."""
    cdef ndarray hv
    if dst._size == 0:
        return 0
    if dst._is_cpu:
        hv = _wrap_numpy(h, dst._device, False)
        _copy_into(dst, _broadcast_view(hv, dst._shape, dst._nd, "value"))
        return 0
    if dst._flags & FLAG_C:
        hc = numpy.ascontiguousarray(numpy.broadcast_to(h, dst.shape))
        _copy_htod(dst._device, dst._ptr, hc.ctypes.data, dst._size * dst._itemsize)
        return 0
    hc = numpy.ascontiguousarray(numpy.broadcast_to(h, dst.shape))
    tmp = _new_array(dst._dtype, dst._nd, dst._shape, dst._device)
    _copy_htod(dst._device, (<ndarray>tmp)._ptr, hc.ctypes.data, dst._size * dst._itemsize)
    _copy_into(dst, tmp)          # scatter on the device
    return 0


cdef ndarray _copy_array(ndarray a):
    """A C-contiguous copy of ``a`` on its device."""
    cdef ndarray r = _new_array(a._dtype, a._nd, a._shape, a._device)
    _copy_into(r, a)
    return r


cdef ndarray _transfer(ndarray a, object device):
    """A copy of ``a`` on another device (through the host)."""
    cdef ndarray r = _new_array(a._dtype, a._nd, a._shape, device)
    if r._size == 0:
        return r
    if a._is_cpu and not r._is_cpu and (a._flags & FLAG_C):
        _copy_htod(device, r._ptr, a._ptr, r._size * r._itemsize)
        return r
    if not a._is_cpu and a._device.kind == device.kind:
        _copy_peer(r, a if a._flags & FLAG_C else _copy_array(a))
        return r
    _upload_into(r, _to_numpy(a, not a._is_cpu))
    return r


cdef ndarray _astype(ndarray a, object dtype, object copy, object device):
    cdef ndarray r
    dev = a._device if device is None else _resolve_device(device)
    if dev is not a._device:
        a = _transfer(a, dev)
        if dtype is a._dtype:
            return a
    if dtype is a._dtype:
        return _copy_array(a) if copy else a
    r = _new_array(dtype, a._nd, a._shape, dev)
    _cast_into(r, a)          # the cast kernels (_kernels/cast.hip)
    return r


cdef object _host_value(object value, object dtype, int nd):
    """A host value for an assignment into an array of ``dtype``, converted by NumPy's
    own item assignment, so garray raises where NumPy does (NaN into an integer array,
    300 into uint8, None into int) instead of storing what an unchecked cast gives."""
    if isinstance(value, numpy.ndarray):
        return numpy.asarray(value, dtype=dtype)      # array to array: NumPy's cast
    if isinstance(value, (list, tuple)):       # at most the destination's ndim, as NumPy
        return numpy.array(value, dtype=dtype, ndmax=max(nd, 1))
    h = numpy.empty((), dtype=dtype)
    h[...] = value
    return h


cdef bint _is_element_key(ndarray a, object key):
    """Whether key picks one element (an integer per axis): NumPy then assigns an item,
    which takes no sequence, instead of broadcasting into a view."""
    if type(key) is not tuple:
        return a._nd == 1 and _is_int_key(key)
    if len(<tuple>key) != a._nd:
        return False
    for k in <tuple>key:
        if not _is_int_key(k):
            return False
    return True


cdef object _element_value(object value, object dtype):
    """The value for an item assignment, checked by NumPy's item assignment (a list or an
    array with axes is an error there); a 0-d garray array is read as is."""
    if isinstance(value, ndarray):
        if not (<ndarray>value)._nd:
            return value
        # NumPy's rules differ by dtype and by size (none, one, more): NumPy decides, on
        # at most two elements brought to the host
        value = _to_numpy(<ndarray>(value.reshape(-1)[:2]), False)
    h = numpy.empty((), dtype=dtype)
    h[()] = value
    return h


cdef ndarray _drop_leading_ones(ndarray a, int nd):
    """a without leading length-1 axes beyond ``nd`` axes (a view; a unchanged when an
    extra axis is longer than 1, so the broadcast that follows reports the shapes)."""
    cdef int extra = a._nd - nd, i
    for i in range(extra):
        if a._shape[i] != 1:
            return a
    cdef ndarray r = _view(a)
    _reserve_nd(r, nd)
    r._nd = nd
    for i in range(nd):
        r._shape[i] = a._shape[extra + i]
        r._strides[i] = a._strides[extra + i]
    _update_flags(r)
    return r


cdef int _assign(ndarray dst, object value) except -1:
    """dst[...] = value: a garray array (broadcast, cast) or anything NumPy reads."""
    cdef ndarray src
    cdef _Scalar sv
    if _pack_item(value, dst._code, &sv):       # a Python scalar: no NumPy round trip
        if dst._nd == 0:
            _write_scalar(dst, &sv)
        elif dst._size:
            _copy_into(dst, _broadcast_view(_scalar_array(&sv, dst._code, dst._device),
                                            dst._shape, dst._nd, "value"))
        return 0
    if isinstance(value, ndarray):
        src = <ndarray>value
        if src._device is not dst._device:
            raise ValueError(f"value: array on {src._device} cannot be assigned into an "
                             f"array on {dst._device}; use to_device() first")
        if src._dtype is not dst._dtype:
            src = _astype(src, dst._dtype, False, None)
        if src._nd > dst._nd:       # NumPy drops leading length-1 axes of the value
            src = _drop_leading_ones(src, dst._nd)
        _copy_into(dst, _broadcast_view(src, dst._shape, dst._nd, "value"))
        return 0
    h = _host_value(value, dst._dtype, dst._nd)
    while h.ndim > dst._nd and h.shape[0] == 1:
        h = h[0]
    if h.ndim > dst._nd or any(s != 1 and s != t for s, t in
                                zip(reversed(h.shape), reversed(dst.shape))):
        raise ValueError(f"could not broadcast input array from shape {h.shape} into "
                         f"shape {dst.shape}")
    _upload_into(dst, h)
    return 0
