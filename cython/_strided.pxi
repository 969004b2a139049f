# Views with caller-given strides: as_strided, sliding_window_view, diagonal and
# fill_diagonal (garray/lib/stride_tricks.py, garray/_manip/diagonal.py).
#
# Note [Strided views]
# ~~~~~~~~~~~~~~~~~~~~
# 1. Every other view takes its strides from an existing array, so it cannot reach
#    memory its base does not own (Note [Checked sizes]).  Here the caller chooses them,
#    so this is the one place that checks the bytes a view can touch.
# 2. The reachable range is the owning pool block's array ([alloc_ptr, alloc_ptr +
#    owner.nbytes)) when garray owns the memory, else the source array's own extent
#    (foreign memory: a NumPy array, a DLPack import).  NumPy's as_strided checks
#    nothing and can read freed memory; garray raises ValueError instead, because a
#    kernel reading past an allocation crashes a GPU process.
# 3. Strides and the offset must be multiples of the itemsize: the kernels assume
#    element-aligned pointers (an unaligned load faults on GPUs).
# 4. Read-only sources give read-only views; ``writeable=False`` makes the view
#    read-only (NumPy's flag), as sliding_window_view does by default.


cdef tuple _reach(ndarray x):
    """The byte range (lo, hi) a strided view of ``x`` may touch (Note [Strided views] 2)."""
    cdef ndarray owner = None
    cdef intptr_t l, h
    if x._pool is not None:
        owner = x
    elif isinstance(x._base, ndarray) and (<ndarray>x._base)._pool is not None:
        owner = <ndarray>x._base
    if owner is not None:
        return owner._alloc_ptr, owner._alloc_ptr + owner._size * owner._itemsize
    if x._size == 0:
        return x._ptr, x._ptr
    _extent(x, &l, &h)
    return l, h


def _strided_view(ndarray x, shape, strides, offset=0, writeable=True):
    """A view of ``x``'s memory: element 0 at ``x.ptr + offset`` bytes, ``shape`` and byte
    ``strides`` as given.  ValueError when the view could touch a byte outside the memory
    ``x`` can reach, or a stride or the offset is not a multiple of the itemsize
    (Note [Strided views])."""
    cdef Py_ssize_t s[MAX_NDIM]
    cdef int nd = _read_shape(shape, s, "shape")
    cdef int i
    cdef ndarray r
    strides = _as_tuple(strides)
    if len(strides) != nd:
        raise ValueError(f"strides: expected {nd} strides for shape {_shape_tuple(s, nd)}, "
                         f"got {len(strides)}")
    st = [_dim(v, "strides") for v in strides]
    off = _dim(offset, "offset")
    for v in st + [off]:
        if v % x._itemsize:
            raise ValueError(f"strides: {tuple(st)} and offset {off} must be multiples of "
                             f"the itemsize {x._itemsize} (garray's kernels need aligned "
                             f"elements)")
    size = _checked_size(s, nd, x._itemsize)
    if size:
        lo = hi = <object>x._ptr + off
        for i in range(nd):
            if st[i] > 0:
                hi += st[i] * (s[i] - 1)
            else:
                lo += st[i] * (s[i] - 1)
        hi += x._itemsize
        rlo, rhi = _reach(x)
        if lo < rlo or hi > rhi:
            raise ValueError(f"strides: a view of shape {_shape_tuple(s, nd)} with strides "
                             f"{tuple(st)} at offset {off} reaches bytes [{lo - rlo}, "
                             f"{hi - rlo}) outside the {rhi - rlo} bytes of memory this "
                             f"array can reach")
    r = _view(x)
    _reserve_nd(r, nd)
    r._nd = nd
    r._ptr = x._ptr + (off if size else 0)
    for i in range(nd):
        r._shape[i] = s[i]
        r._strides[i] = st[i]
    _update_flags(r)
    if not writeable:
        r._flags |= FLAG_READONLY
    return r
