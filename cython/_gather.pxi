# Advanced indexing on the device: the offset arithmetic, gathers, scatters and the
# mask compaction of _kernels/index.hip (Note [Advanced indexing kernels] there).
# garray/_index/advanced.py parses the key and calls these with the view basic indexing left
# (V), the V axes the integer arrays index, and where the broadcast index shape goes.

cdef enum:
    # Slots of the index family (garray/_tables/ops.py, INDEX), checked at import by
    # _init_launch (_cython_slots) and by tests/test_registry.py.
    IX_GATHER32 = 0
    IX_GATHER64 = 1
    IX_SCATTER32 = 2
    IX_SCATTER64 = 3
    IX_STEP32 = 4
    IX_STEP64 = 5
    IX_TAKE = 6
    IX_PUT = 7
    IX_REPEAT = 8
    IX_WINNER = 0
    IX_KEEP = 1
    IX_NZ_COUNT = 2
    IX_NZ_WRITE = 3
    IX_CHECK = 4
    # mask elements per thread of nonzero's count and write passes, per device kind: a
    # CPU thread streams a long run; on GPUs a 2048-byte piece per thread left a 2**22
    # mask 2,048 threads (8 blocks), so they take 32 (131,072 threads).
    _NZ_PIECE_CPU = 2048
    _NZ_PIECE_GPU = 32

cdef int64_t _nz_piece_forced = 0


def _debug_nonzero_piece(int64_t piece):
    """Test hook: mask elements per thread of nonzero's passes (0: the device's).
    Returns the previous setting."""
    global _nz_piece_forced
    if piece < 0:
        raise ValueError(f"piece: expected 0 or a positive count, got {piece}")
    old = _nz_piece_forced
    _nz_piece_forced = piece
    return old


cdef _Kernels _ix_kernels = None       # the table, once made (tables live for the process)


cdef inline _Kernels _index_kernels():
    global _ix_kernels
    if _ix_kernels is None:
        _ix_kernels = _kernel_tables.get(("table", "index"))
        if _ix_kernels is None:
            _ix_kernels = _table("index", _optable_mod.index_table)
            _ix_kernels.element_per_thread = True
    return _ix_kernels


cdef inline int _move_code(Py_ssize_t itemsize) except -1:
    """The dtype code a gather/scatter of this item size moves (index_table)."""
    if itemsize == 1:
        return _U8
    if itemsize == 2:
        return _U16
    if itemsize == 4:
        return _U32
    if itemsize == 8:
        return _U64
    if itemsize == 16:
        return _C128
    raise TypeError(f"indexing: no gather kernel for items of {itemsize} bytes")


def _index_step(ndarray acc, ndarray idx, int64_t size, int64_t stride, ndarray err,
                int64_t err_at):
    """acc += normalise(idx) * stride elementwise (idx broadcast to acc's shape), where
    normalise maps [-size, size) onto [0, size); an index outside records a flag and its
    value in err[err_at:err_at + 2] (on the device: the caller reads err once)."""
    cdef _Iter it
    cdef void* args[8]
    cdef intptr_t pe = err._ptr + err_at * 8
    if acc._size == 0:
        return
    if _CATEGORY[idx._code] not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if idx._device is not acc._device:
        raise ValueError(f"index: array on {idx._device} cannot index an array on "
                         f"{acc._device}")
    _iter_init(&it, acc, idx, acc, None, False)
    _iter_args(&it, args)
    args[5] = &size
    args[6] = &stride
    args[7] = &pe
    _iter_launch(_index_kernels(), acc, idx._code,
                 IX_STEP32 if it.layout == L_S32 else IX_STEP64, &it, args)


cdef ndarray _spread(ndarray a, int nd, Py_ssize_t* shape, int first, int count,
                     bint inner):
    """A view of ``a`` with shape ``shape``: ``inner`` -- a's axes fill the axes
    [first, first + count) and every other axis has stride 0; else a's axes fill the
    others in order and [first, first + count) have stride 0."""
    cdef ndarray r = _view(a)
    cdef int i, j = 0
    _reserve_nd(r, nd)
    for i in range(nd):
        r._shape[i] = shape[i]
        if (first <= i < first + count) == inner:
            r._strides[i] = a._strides[j]
            j += 1
        else:
            r._strides[i] = 0
    r._nd = nd
    _update_flags(r)
    return r


cdef int _result_shape(ndarray v, tuple adv_axes, ndarray off, int insert_at,
                       Py_ssize_t* shape) except -1:
    """The shape of v[advanced]: v's axes less adv_axes, off's shape inserted at
    insert_at; returns its ndim."""
    cdef int nd = v._nd - len(adv_axes) + off._nd, i, j = 0, k
    if nd > MAX_NDIM:
        raise IndexError(f"the index makes more than {MAX_NDIM} dimensions")
    for i in range(v._nd):
        if i in adv_axes:
            continue
        if j == insert_at:
            j += off._nd
        shape[j] = v._shape[i]
        j += 1
    for k in range(off._nd):
        shape[insert_at + k] = off._shape[k]
    return nd


cdef ndarray _rest_view(ndarray v, tuple adv_axes):
    """v without the axes adv_axes (their offsets come from the offset array)."""
    cdef ndarray r = _view(v)
    cdef int i, j = 0
    _reserve_nd(r, v._nd)
    for i in range(v._nd):
        if i not in adv_axes:
            r._shape[j] = v._shape[i]
            r._strides[j] = v._strides[i]
            j += 1
    r._nd = j
    _update_flags(r)
    return r


cdef int _raise_bad_index(ndarray err, int64_t size, bint unsigned_idx) except -1:
    """Read err's flag once (one host copy on GPUs); IndexError naming the value an
    out-of-range index left in it (its bits as uint64 for a uint64 index)."""
    cdef int64_t flags[2]
    cdef object bad
    if err._is_cpu:
        memcpy(flags, <void*>err._ptr, 16)
    else:
        _copy_dtoh(err._device, <intptr_t>flags, err._ptr, 16)
    if flags[0]:
        bad = flags[1]
        if unsigned_idx:                # the flag holds the value's bits
            bad = <uint64_t>flags[1]
        raise IndexError(f"index {bad} is out of bounds for axis 0 with size {size}")
    return 0


cdef ndarray _take_first(ndarray x, ndarray idx):
    """x[idx] for one integer garray array idx (ndim >= 1, x's device) on x's first
    axis, the per-call fast path of advanced indexing: the offsets with their bounds
    check, one read of the error flag, the gather (garray/_index/advanced.py's
    _offsets and getitem, without parsing a key)."""
    cdef Py_ssize_t two = 2
    cdef ndarray err = _new_array(_code_dtype[_I64], 1, &two, x._device), i64
    if (idx._code == _I64 and idx._flags & FLAG_C and x._shape[0]
            and idx._nd + x._nd - 1 <= MAX_NDIM and _rows_contiguous(x)):
        return _take_rows(x, idx, err)
    i64 = _new_array(_code_dtype[_I64], idx._nd, idx._shape, x._device)
    _zero_fill(i64)
    _zero_fill(err)
    _index_step(i64, idx, x._shape[0], x._strides[0], err, 0)
    if i64._size:
        _raise_bad_index(err, x._shape[0], idx._code == _U64)
    return _gather(x, i64, (0,), 0)


cdef bint _rows_contiguous(ndarray x) noexcept:
    """Whether x's axes after the first are C-contiguous and hold at least one item."""
    cdef Py_ssize_t step = x._itemsize
    cdef int d
    for d in range(x._nd - 1, 0, -1):
        if x._shape[d] == 0:
            return False
        if x._shape[d] != 1 and x._strides[d] != step:
            return False
        step *= x._shape[d]
    return True


cdef ndarray _take_rows(ndarray x, ndarray idx, ndarray err):
    """x[idx] in one launch (Note [Advanced indexing kernels] 5 in _kernels/index.hip):
    idx C-contiguous int64, x's rows (its other axes) C-contiguous and not empty."""
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef int d, nd = idx._nd + x._nd - 1
    cdef int64_t row = 1, size = x._shape[0], stride = x._strides[0], n
    cdef intptr_t po, ps = x._ptr, pi = idx._ptr, pe = err._ptr
    cdef void* args[8]
    cdef ndarray o
    for d in range(idx._nd):
        shape[d] = idx._shape[d]
    for d in range(1, x._nd):
        shape[idx._nd + d - 1] = x._shape[d]
        row *= x._shape[d]
    o = _new_array(x._dtype, nd, shape, x._device)
    n = o._size
    if n == 0:
        return o
    po = o._ptr
    _zero_fill(err)
    args[0], args[1], args[2], args[3] = &po, &ps, &pi, &n
    args[4], args[5], args[6], args[7] = &row, &size, &stride, &pe
    _index_kernels().launch(o, _move_code(x._itemsize), IX_TAKE, n, args)
    _raise_bad_index(err, size, False)
    return o


cdef bint _put_first(ndarray x, ndarray idx, object value) except -1:
    """x[idx] = value for one integer garray array idx on x's first axis in two launches
    (Note [Advanced indexing kernels] 5 in _kernels/index.hip); False where the key or
    value needs the general path (garray/_index/advanced.py's setitem)."""
    cdef Py_ssize_t shape[MAX_NDIM], two = 2
    cdef int d, nd = idx._nd + x._nd - 1
    cdef int64_t row = 1, size = x._shape[0], stride = x._strides[0], n, vstep
    cdef intptr_t px = x._ptr, pv, pi, pe
    cdef void* args[8]
    cdef ndarray val, err
    cdef _Scalar sv
    if not (idx._code == _I64 and idx._flags & FLAG_C and size and nd <= MAX_NDIM
            and idx._device is x._device and _rows_contiguous(x)):
        return False
    for d in range(idx._nd):
        shape[d] = idx._shape[d]
    for d in range(1, x._nd):
        shape[idx._nd + d - 1] = x._shape[d]
        row *= x._shape[d]
    if _pack_item(value, x._code, &sv):        # a Python scalar: no NumPy round trip
        val = _broadcast_view(_scalar_array(&sv, x._code, x._device), shape, nd, "value")
    else:
        val = _value_for(value, x._dtype, x._device, nd, shape)
    n = idx._size * row
    vstep = 0
    for d in range(nd):
        if val._strides[d] and val._shape[d] > 1:
            vstep = 1
    if vstep and not (val._flags & FLAG_C and x._is_cpu):
        return False                # GPUs resolve repeated targets by the general path
    if n == 0:
        return True
    if _overlap(x, idx):
        idx = _copy_array(idx)
    if vstep and _overlap(x, val):
        val = _copy_array(val)
    err = _new_array(_code_dtype[_I64], 1, &two, x._device)
    _zero_fill(err)
    pi, pe, pv = idx._ptr, err._ptr, val._ptr
    n = idx._size
    args[0], args[1], args[2], args[3] = &pi, &n, &size, &pe
    _index_kernels().launch(idx, 0, IX_CHECK, n, args)
    _raise_bad_index(err, size, False)
    n = idx._size * row
    args[0], args[1], args[2], args[3] = &px, &pv, &vstep, &pi
    args[4], args[5], args[6], args[7] = &n, &row, &size, &stride
    # a value array is written in C order by one thread (a launch of one), so the last
    # of repeated targets wins
    _index_kernels().launch(x, _move_code(x._itemsize), IX_PUT, 1 if vstep else n, args,
                            0 if vstep else -1)
    return True


def _repeat_rows(ndarray a, int axis, int64_t r):
    """repeat(a, r, axis) of a C-contiguous ``a`` by one count r >= 0, in one launch
    (repeat_c in _kernels/index.hip)."""
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef int64_t m = 1, inner = 1, n
    cdef intptr_t po, ps = a._ptr
    cdef void* args[5]
    cdef int d
    cdef ndarray o
    if not (a._flags & FLAG_C) or not 0 <= axis < a._nd or r < 0:
        raise ValueError("_repeat_rows: a C-contiguous array, an axis and a count >= 0")
    for d in range(a._nd):
        shape[d] = a._shape[d]
        if d <= axis:
            m *= a._shape[d]
        else:
            inner *= a._shape[d]
    if _mul_overflow(a._shape[axis], r, &shape[axis]):
        raise ValueError(_TOO_BIG)
    o = _new_array(a._dtype, a._nd, shape, a._device)
    if o._size == 0:
        return o
    po = o._ptr
    args[0], args[1], args[2], args[3], args[4] = &po, &ps, &m, &r, &inner
    _index_kernels().launch(o, _move_code(a._itemsize), IX_REPEAT, m, args, o._size)
    return o


def _gather(ndarray v, ndarray off, tuple adv_axes, int insert_at):
    """v[advanced]: out[r] = v's element at (its other axes of r) + off[b(r)]."""
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef int nd = _result_shape(v, adv_axes, off, insert_at, shape)
    cdef ndarray o = _new_array(v._dtype, nd, shape, v._device)
    cdef ndarray rest = _rest_view(v, adv_axes)
    cdef _Iter it
    cdef void* args[5]
    if o._size == 0:
        return o
    _iter_init(&it, o, _spread(rest, nd, shape, insert_at, off._nd, False),
               _spread(off, nd, shape, insert_at, off._nd, True), None, False)
    _iter_args(&it, args)
    _iter_launch(_index_kernels(), o, _move_code(v._itemsize),
                 IX_GATHER32 if it.layout == L_S32 else IX_GATHER64, &it, args)
    return o


def _scatter(ndarray v, ndarray off, ndarray keep, tuple adv_axes, int insert_at,
             object value, bint in_order=False):
    """v[advanced] = value where keep[b] (keep: the winners among repeated targets, or
    None); value is cast to v's dtype and broadcast (NumPy's setitem rules).
    ``in_order``: a CPU-device launch runs serially in C order."""
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef int nd = _result_shape(v, adv_axes, off, insert_at, shape)
    cdef ndarray rest = _rest_view(v, adv_axes), dst, val
    cdef _Iter it
    cdef void* args[6]
    cdef _Scalar one
    dst = _spread(rest, nd, shape, insert_at, off._nd, False)
    val = _value_array(value, dst)
    if dst._size == 0:
        return
    if keep is None:
        one.b = True
        keep = _scalar_array(&one, 0, v._device)
    if _overlap(v, val):
        val = _copy_array(val)
    _iter_init(&it, dst, val, _spread(off, nd, shape, insert_at, off._nd, True),
               _spread(keep, nd, shape, insert_at, keep._nd, True) if keep._nd else keep,
               False)
    _iter_args(&it, args)
    # in_order: one CPU thread walks the targets in C order, so the last of repeated
    # targets is written last (no winners needed); work 0 keeps the launch serial
    _iter_launch(_index_kernels(), dst, _move_code(v._itemsize),
                 IX_SCATTER32 if it.layout == L_S32 else IX_SCATTER64, &it, args,
                 0 if in_order else -1)


cdef ndarray _value_array(object value, ndarray dst):
    """value as an array of dst's dtype and device, broadcastable to dst's shape."""
    return _value_for(value, dst._dtype, dst._device, dst._nd, dst._shape)


cdef ndarray _value_for(object value, object dtype, object device, int nd,
                        Py_ssize_t* shape):
    """value as a view of dtype on device with the given shape (NumPy's setitem rules:
    cast, broadcast)."""
    cdef ndarray src
    if isinstance(value, ndarray):
        src = <ndarray>value
        if src._device is not device:
            raise ValueError(f"value: array on {src._device} cannot be assigned into an "
                             f"array on {device}; use to_device() first")
        if src._dtype is not dtype:
            src = _astype(src, dtype, False, None)
    else:
        h = numpy.ascontiguousarray(_host_value(value, dtype, nd))
        # the CPU device reads the host value in place (as _upload_into does)
        src = (_wrap_numpy(h, device, True) if device.kind == "cpu"
               else asarray(h, device=device))
    if src._nd > nd:                # NumPy drops leading length-1 axes of the value
        src = _drop_leading_ones(src, nd)
    return _broadcast_view(src, shape, nd, "value")


def _keep_last(ndarray lin, int64_t targets):
    """keep[b]: whether b is the last position of lin (C order) holding its value;
    lin's values lie in [0, targets)."""
    cdef ndarray win = zeros((targets,), dtype=numpy.uint64, device=lin._device)
    cdef ndarray keep = _new_array(_code_dtype[0], lin._nd, lin._shape, lin._device)
    cdef intptr_t pw = win._ptr, pl = lin._ptr, pk = keep._ptr
    cdef int64_t n = lin._size
    cdef void* args[4]
    if n == 0:
        return keep
    args[0], args[1], args[2] = &pw, &pl, &n
    _index_kernels().launch(lin, 0, IX_WINNER, n, args)
    args[0], args[1], args[2], args[3] = &pk, &pw, &pl, &n
    _index_kernels().launch(lin, 0, IX_KEEP, n, args)
    return keep


def _flat_nonzero(ndarray mask):
    """The flat indices of the set elements of a C-contiguous bool ``mask`` (int64);
    only the total comes to the host."""
    cdef int64_t n = mask._size, total
    cdef int64_t per = _nz_piece_forced or (_NZ_PIECE_CPU if mask._is_cpu else _NZ_PIECE_GPU)
    cdef int64_t pieces = (n + per - 1) // per
    cdef ndarray o, counts, ends
    cdef intptr_t po, pm = mask._ptr, pc, pe
    cdef void* args[6]
    if n == 0:
        return empty((0,), dtype=numpy.int64, device=mask._device)
    counts = empty((pieces,), dtype=numpy.int64, device=mask._device)
    pc = counts._ptr
    args[0], args[1], args[2], args[3], args[4] = &pc, &pm, &n, &per, &pieces
    _index_kernels().launch(mask, 0, IX_NZ_COUNT, pieces, args, n)
    ends = _array_function("cumsum")(counts)
    total = int(ends[pieces - 1].get())
    o = empty((total,), dtype=numpy.int64, device=mask._device)
    po, pe = o._ptr, ends._ptr
    if total:
        args[0], args[1], args[2], args[3], args[4], args[5] = &po, &pm, &pe, &n, &per, &pieces
        _index_kernels().launch(mask, 0, IX_NZ_WRITE, pieces, args, n)
    return o
