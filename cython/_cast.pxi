# Casts: every conversion between the 14 dtypes runs the cast kernels
# (_kernels/cast.hip, NumPy's unsafe-cast semantics); astype, mixed-dtype assignment,
# promotion of ufunc inputs and GPU strided copies (a cast to the same dtype) use them.

cdef list _cast_tables = [None] * _NCODES


cdef _Kernels _cast_kernels(int to):
    cdef _Kernels k = <_Kernels>_cast_tables[to]
    if k is None:
        k = _table(f"astype({_dtypes.dtype_name(_code_dtype[to])})",
                   _optable_mod.cast_table, to)
        _cast_tables[to] = k
    return k


cdef ndarray _cast_to(ndarray a, int code):
    """a converted to dtype code by the cast kernels (a itself when already there)."""
    if a._code == code:
        return a
    cdef ndarray r = _new_array(_code_dtype[code], a._nd, a._shape, a._device)
    _cast_into(r, a)
    return r


cdef int _cast_into(ndarray dst, ndarray src) except -1:
    """dst[...] = src with dst's dtype; src broadcastable to dst.shape; same device."""
    cdef _Iter it
    cdef void* args[4]
    if dst._size == 0:
        return 0
    if dst._dtype is not src._dtype and (_labelled(dst) or _labelled(src)):
        return _time_mod().cast_into(dst, src)      # to or from a time dtype
    if _overlap(dst, src) and not _same_view(dst, src):
        src = _copy_array(src)
    _iter_init(&it, dst, src, None, None, True)
    _iter_args(&it, args, _cpu_wide_index(dst))
    return _iter_launch(_cast_kernels(dst._code), dst, src._code, it.layout, &it, args)


cdef bint _same_view(ndarray a, ndarray b) noexcept:
    cdef int i
    if a._ptr != b._ptr or a._nd != b._nd or a._itemsize != b._itemsize:
        return False
    for i in range(a._nd):
        if a._shape[i] != b._shape[i] or a._strides[i] != b._strides[i]:
            return False
    return True


def astype(x, dtype, /, *, copy=True, device=None):
    """``x`` converted to ``dtype`` (Array API): ``copy=False`` may return ``x``.

    Parameters
    ----------
    x : ndarray
        Input array.
    dtype : dtype
        The target dtype.
    copy : bool, optional
        False: may return x.
    device : Device or str, optional
        Where the result lives.

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.ndarray.astype
    """
    if not isinstance(x, ndarray):
        if isinstance(x, numpy.ndarray):
            raise _numpy_input_error("astype: x")
        raise TypeError(f"astype: x must be a garray.ndarray, got {type(x).__name__}")
    return _astype(<ndarray>x, _norm_dtype(dtype), copy, device)
