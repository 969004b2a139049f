# Note [The iterator]
# ~~~~~~~~~~~~~~~~~~~
# Every launcher (ufuncs, casts, where, copies, creation, all/any, user kernels)
# describes its loop the same way, as PyTorch's TensorIterator does:
#   1. operands: the output first, then the inputs; inputs broadcast to the output's
#      shape by stride 0 (no view objects are made);
#   2. contiguous: every operand C-contiguous with the output's size -> layout L_C, and
#      the kernel gets (pointers..., n);
#   3. otherwise axes are collapsed (size-1 axes dropped, axes contiguous in every
#      operand merged: MLX's collapse_contiguous_dims), and the index width is picked:
#      32-bit when the element count and every operand's byte extent fit in 2**31,
#      else 64-bit (L_S32 / L_S64); the kernel gets (pointers..., Strided<N>, n).
# _Strided mirrors ga::Strided<N> (_kernels/garray/indexer.h) for N <= 4: strides is
# row-major [operand][axis], so a kernel reading Strided<2> reads the first two rows
# of the same memory.  Sizes: _KERNEL_NDIM axes after collapsing (an array has up to
# MAX_NDIM), _MAX_OPERANDS operands.

cdef enum:
    _MAX_OPERANDS = 4

cdef struct _Strided:
    int ndim
    int64_t shape[_KERNEL_NDIM]
    int64_t strides[_MAX_OPERANDS][_KERNEL_NDIM]

cdef struct _Iter:
    int nop
    int layout
    int64_t n
    int32_t n32
    intptr_t ptr[_MAX_OPERANDS]
    _Strided p
    # Axes past _KERNEL_NDIM that do not collapse: the leading ones, walked on the host
    # with one launch per index (_iter_launch); NULL in every other case, so the
    # iterator stays small on the hot path.
    _Outer* outer

cdef struct _Outer:
    int nd
    int64_t shape[MAX_NDIM - _KERNEL_NDIM]
    int64_t st[_MAX_OPERANDS][MAX_NDIM - _KERNEL_NDIM]

cdef bint _force_index64 = False


def _debug_force_index64(bint flag):
    """Test hook: every strided launch uses 64-bit indexing.  Returns the previous
    setting."""
    global _force_index64
    cdef bint old = _force_index64
    _force_index64 = flag
    return old


cdef int _collapse_n(int nd, Py_ssize_t* shape, int narr, Py_ssize_t st[][MAX_NDIM]) noexcept nogil:
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


cdef int _index_layout(int nd, Py_ssize_t* shape, int narr, Py_ssize_t st[][MAX_NDIM],
                       int64_t n) noexcept:
    """L_S32 when n and every operand's byte extent fit in 31 bits, else L_S64."""
    cdef int i, a
    cdef int64_t ext
    if n >= (<int64_t>1 << 31) or _force_index64:
        return L_S64
    for a in range(narr):
        ext = 0
        for i in range(nd):
            ext += (shape[i] - 1) * (st[a][i] if st[a][i] >= 0 else -st[a][i])
        if ext >= (<int64_t>1 << 31):
            return L_S64
    return L_S32


cdef int _pack_strided(_Strided* p, int nd, Py_ssize_t* shape, int narr,
                       Py_ssize_t st[][MAX_NDIM], int64_t n, bint cpu) except -1:
    """Collapse (shape, st) into p; returns the index layout (L_S32 / L_S64).  For a
    GPU (`cpu` false) every byte the kernel's ga::Strided<narr> holds is written (unused
    axes and the padding after ndim are zeros): the parameter block a GPU launch copies
    never carries stale stack words, which the stub drivers' conservative hazard and
    peer-access checks would take for pointers.  A CPU launch reads its arguments in
    place and only the axes below ndim (clearing the 1-1.5 KB of a reduction's two
    blocks was a tenth of a 16-element argmax); the sanitizer build clears them too."""
    nd = _collapse_n(nd, shape, narr, st)
    if nd > _KERNEL_NDIM:
        _too_many_axes(nd)
    return _pack_collapsed(p, nd, shape, narr, st, n, cpu)


cdef int _pack_collapsed(_Strided* p, int nd, Py_ssize_t* shape, int narr,
                         Py_ssize_t st[][MAX_NDIM], int64_t n, bint cpu) noexcept:
    """_pack_strided for (shape, st) already collapsed to at most _KERNEL_NDIM axes."""
    cdef int i, a
    if not cpu or _cpu_sanitize:
        memset(p, 0, <size_t>(<char*>&p.strides[narr][0] - <char*>p))
    p.ndim = nd
    for i in range(nd):
        p.shape[i] = shape[i]
        for a in range(narr):
            p.strides[a][i] = st[a][i]
    return _index_layout(nd, shape, narr, st, n)


cdef int _too_many_axes(int nd) except -1:
    raise NotImplementedError(
        f"a launch over {nd} axes that cannot be merged (each longer than 1 and not "
        f"contiguous with the next in every operand): garray's kernels take at most "
        f"{_KERNEL_NDIM}; copy the operands to contiguous memory first")


cdef int _operand_strides(Py_ssize_t* st, ndarray x, int nd, Py_ssize_t* shape,
                          str argname) except -1:
    """x's byte strides broadcast to shape (stride 0 on broadcast axes)."""
    cdef int i, j
    if x._nd > nd:
        raise ValueError(f"{argname}: cannot broadcast shape {x.shape} to "
                         f"{_shape_tuple(shape, nd)}")
    for i in range(nd):
        j = i - (nd - x._nd)
        if j < 0 or (x._shape[j] == 1 and shape[i] != 1):
            st[i] = 0
        elif x._shape[j] == shape[i]:
            st[i] = x._strides[j]
        else:
            raise ValueError(f"{argname}: cannot broadcast shape {x.shape} to "
                             f"{_shape_tuple(shape, nd)}")
    return 0


cdef int _iter_init(_Iter* it, ndarray o, ndarray a, ndarray b, ndarray c,
                    bint allow_contiguous) except -1:
    """Describe the loop out = f(a[, b[, c]]) with the inputs broadcast to o's shape."""
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef Py_ssize_t st[_MAX_OPERANDS][MAX_NDIM]
    cdef int i, nd = o._nd
    cdef int64_t n = o._size
    cdef ndarray x
    cdef bint contiguous = allow_contiguous and (o._flags & FLAG_C) != 0
    it.nop = 2 if b is None else (3 if c is None else 4)
    it.outer = NULL
    it.n = n
    it.n32 = <int32_t>n
    it.ptr[0] = o._ptr
    for i in range(1, it.nop):
        x = a if i == 1 else (b if i == 2 else c)
        it.ptr[i] = x._ptr
        if contiguous and not ((x._flags & FLAG_C) and x._size == n):
            contiguous = False
    if contiguous:
        it.layout = L_C
        return 0
    for i in range(nd):
        shape[i] = o._shape[i]
        st[0][i] = o._strides[i]
    for i in range(1, it.nop):
        x = a if i == 1 else (b if i == 2 else c)
        _operand_strides(st[i], x, nd, shape, ("x", "x1", "x2", "x3")[i] if it.nop > 2 else "x")
    nd = _collapse_n(nd, shape, it.nop, st)
    if nd > _KERNEL_NDIM:
        nd = _split_outer(it, nd, shape, st)      # allocates it.outer
    it.layout = _pack_collapsed(&it.p, nd, shape, it.nop, st, it.n, o._is_cpu)
    return 0


cdef int _split_outer(_Iter* it, int nd, Py_ssize_t* shape,
                      Py_ssize_t st[][MAX_NDIM]) except -1:
    """Collapsed axes past _KERNEL_NDIM: the leading nd - _KERNEL_NDIM go to the
    iterator's outer axes (one launch per index; _iter_launch frees them), the rest stay
    in (shape, st), shifted down; it.n becomes one launch's count.  Returns the kept
    ndim."""
    cdef int k = nd - _KERNEL_NDIM, i, a
    cdef _Outer* o = <_Outer*>malloc(sizeof(_Outer))
    if o == NULL:
        raise MemoryError()
    it.outer = o
    o.nd = k
    for i in range(k):
        o.shape[i] = shape[i]
        for a in range(it.nop):
            o.st[a][i] = st[a][i]
    it.n = 1
    for i in range(_KERNEL_NDIM):
        shape[i] = shape[k + i]
        it.n *= shape[i]
        for a in range(it.nop):
            st[a][i] = st[a][k + i]
    it.n32 = <int32_t>it.n
    return _KERNEL_NDIM


cdef inline int _iter_launch(_Kernels k, ndarray ref, int code, int slot, _Iter* it,
                             void** args, int64_t work=-1) except -1:
    """k.launch over the iterator: one launch, or one per index of its outer axes
    (_split_outer, _iter_launch_outer)."""
    if it.outer == NULL:
        return k.launch(ref, code, slot, it.n, args, work)
    return _iter_launch_outer(k, ref, code, slot, it, args, work)


cdef int _iter_launch_outer(_Kernels k, ndarray ref, int code, int slot, _Iter* it,
                            void** args, int64_t work) except -1:
    """One launch per index of the iterator's outer axes, the operands' pointers moved in
    place between launches (the kernel arguments point at them; a launch copies its
    arguments)."""
    cdef int64_t idx[MAX_NDIM - _KERNEL_NDIM]
    cdef intptr_t base[_MAX_OPERANDS]
    cdef int d, i
    cdef _Outer* o = it.outer
    for i in range(it.nop):
        base[i] = it.ptr[i]
    for d in range(o.nd):
        idx[d] = 0
    try:
        while True:
            k.launch(ref, code, slot, it.n, args, work)
            d = o.nd - 1                 # an odometer, the last outer axis fastest
            while d >= 0:
                idx[d] += 1
                if idx[d] < o.shape[d]:
                    break
                idx[d] = 0
                d -= 1
            if d < 0:
                break
            for i in range(it.nop):
                it.ptr[i] = base[i]
                for d in range(o.nd):
                    it.ptr[i] += idx[d] * o.st[i][d]
    finally:
        for i in range(it.nop):
            it.ptr[i] = base[i]
        it.outer = NULL
        free(o)
    return 0


cdef int _iter_args(_Iter* it, void** args, bint wide_n=False) noexcept:
    """Kernel arguments (pointers..., n) or (pointers..., Strided<N>, n); returns how
    many were written, so a launcher can append its own.  ``wide_n``: the kernel takes
    n as int64 in the 32-bit-index slot too (the CPU device serves that slot of the
    elementwise families with the int64 build: garray/_tables/ops.py, cpu_alias)."""
    cdef int i
    for i in range(it.nop):
        args[i] = &it.ptr[i]
    if it.layout == L_C:
        args[it.nop] = &it.n
        return it.nop + 1
    args[it.nop] = &it.p
    args[it.nop + 1] = <void*>&it.n32 if it.layout == L_S32 and not wide_n else <void*>&it.n
    return it.nop + 2


cdef int _broadcast_shape(Py_ssize_t* out, ndarray a, ndarray b, ndarray c=None) except -1:
    """The broadcast shape of a, b (and c) into out; returns its ndim (ValueError naming
    the shapes when they do not broadcast)."""
    cdef int nd = a._nd, i, j, k
    cdef Py_ssize_t s
    cdef ndarray x
    if b._nd > nd:
        nd = b._nd
    if c is not None and c._nd > nd:
        nd = c._nd
    for i in range(nd):
        out[i] = 1
    for k in range(3 if c is not None else 2):
        x = a if k == 0 else (b if k == 1 else c)
        for j in range(x._nd):
            i = j + nd - x._nd
            s = x._shape[j]
            if s == out[i] or s == 1:
                continue
            if out[i] == 1:
                out[i] = s
            else:
                raise ValueError("operands could not be broadcast together with shapes "
                                 + " ".join(str(y.shape) for y in (a, b, c) if y is not None))
    return nd


def _collapse_axes(shape, strides):
    """The iterator's axis collapse for Python callers (ElementwiseKernel): ``strides``
    is one list of byte strides per operand.  Returns (shape, strides) as lists with at
    least one axis."""
    cdef Py_ssize_t sh[MAX_NDIM]
    cdef Py_ssize_t st[64][MAX_NDIM]
    cdef int nd = len(shape), narr = len(strides), i, a
    if nd > MAX_NDIM or narr > 64:
        raise ValueError(f"at most {MAX_NDIM} axes and 64 operands, got {nd} and {narr}")
    for i in range(nd):
        sh[i] = shape[i]
        for a in range(narr):
            st[a][i] = strides[a][i]
    nd = _collapse_n(nd, sh, narr, st)
    if nd == 0:
        return [1], [[0] for _ in range(narr)]
    return [sh[i] for i in range(nd)], [[st[a][i] for i in range(nd)] for a in range(narr)]
