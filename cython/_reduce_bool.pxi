# all / any: boolean reductions over any set of axes (_kernels/reduce_bool.hip).
# The kept axes (strides of out and x) and the reduced axes (strides of x) are each
# collapsed by the iterator's _pack_strided; one thread per output element.

cdef _Kernels _reduce_kernels(str reducer):
    return _table(reducer[:-2], _optable_mod.bool_reduce_table, reducer)


cdef object _bool_reduce(str reducer, object x, object axis, bint keepdims):
    cdef ndarray a, o
    cdef _Strided po, pr
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
    n_out = o._size
    if n_out == 0:
        return o
    # kept axes: the output's strides (skipping keepdims' size-1 axes) with x's
    cdef int oi = 0
    for i in range(a._nd):
        if keepdims and i in axes:
            oi += 1
            continue
        if i not in axes:
            kshape[nk] = a._shape[i]
            kst[0][nk] = o._strides[oi]
            kst[1][nk] = a._strides[i]
            nk += 1
            oi += 1
    lay = _pack_strided(&po, nk, kshape, 2, kst, n_out)
    if _pack_strided(&pr, nr, rshape, 1, rst, n_red) == L_S64 or a._size >= (<int64_t>1 << 31):
        lay = L_S64
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
