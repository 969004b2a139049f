# The reduction family's launch layer: reductions over any set of axes and scans along
# one axis, on the kernels of _kernels/reduce.hip (Note [Reduction strategies] there).
# The Python functions (garray/_reduce/reductions.py) parse arguments, casts, out= and
# initial=; this file collapses axes, picks the schedule and launches.
#
# Note [Choosing a reduction schedule]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# 1. CPU device: reduce_cols when the innermost kept axis is contiguous in x (each
#    reduced row is then a contiguous run; the compiler vectorises across up to
#    COLS_WIDTH outputs, and memory streams as in NumPy's row-by-row loop), else
#    reduce_nb; scans scan_nb.  The block tree runs on fibers there, a correctness path only.
# 2. GPUs: the block tree when the reduced elements are contiguous in memory (a warp
#    then reads consecutive addresses) and there are enough of them (>= 64); segments
#    per output so that the grid has about _BT_TARGET_BLOCKS blocks.  Otherwise
#    reduce_nb, whose threads read adjacent outputs' elements together.  Scans: the
#    three-pass block scan for few long lines, scan_nb otherwise.
# 3. GARRAY_REDUCE=auto|nb|cols|tree (or the test hook _debug_reduce_strategy) forces a
#    schedule where it applies, so tests run every kernel on every device it serves.
# 4. The column schedule is the CPU device's only: its strip of _COLS_W (4096) outputs per
#    thread keeps an accumulator array per thread, which a GPU would hold in local memory
#    (64 to 96 KiB per thread, reserved for the whole device at each launch).  On GPUs
#    `cols` runs reduce_nb (python -m garray resources lists reduce_cols as never
#    launched there).

cdef enum:
    # Slots of the reduce and scan families (garray/_tables/reduce.py), checked at import
    # by _init_launch; the column schedule, the block trees and scan_bt index in 64 bits
    # only.
    R_NB32 = 0
    R_NB64 = 1
    R_COLS = 2
    R_BT = 3
    R_BTP = 4
    S_NB32 = 0
    S_NB64 = 1
    S_BT = 2
    S_PART = 3
    _COLS_W = 4096
    _BT_TARGET_BLOCKS = 1024
    _BT_MIN_PER_BLOCK = 2048

_STRATEGIES = ("auto", "nb", "cols", "tree")
cdef int _red_strategy = _STRATEGIES.index(_env.choice("GARRAY_REDUCE", _STRATEGIES, "auto"))
cdef object _redtable_mod = None
# (name, scan, code) -> (barrier-free table, block-tree table or None, out code,
#                        identity, identity's dtype code, ordered)
cdef dict _red_info = {}


def _debug_reduce_strategy(str strategy):
    """Test hook: force a reduction schedule ("auto", "nb", "cols", "tree") where it
    applies.  Returns the previous one."""
    global _red_strategy
    old = _STRATEGIES[_red_strategy]
    if strategy not in _STRATEGIES:
        raise ValueError(f"strategy: expected one of {_STRATEGIES}, got {strategy!r}")
    _red_strategy = _STRATEGIES.index(strategy)
    return old


cdef tuple _reduction_info(str name, bint scan, int code):
    """(table, tree table, output code, identity, identity code, ordered, the identity
    packed as bytes) of reduction row ``name`` for an input of dtype ``code``; cached
    per name in a list by code and scan (no key tuple per call)."""
    global _redtable_mod
    cdef list per = _red_info.get(name)
    if per is None:
        per = _red_info[name] = [None] * (2 * _NCODES)
    info = per[2 * code + scan]
    if info is not None:
        return info
    if _redtable_mod is None:
        from garray._tables import reduce as _redtable
        _redtable_mod = _redtable
    row = _redtable_mod.ROWS[name]
    if row.acc_code(code) < 0 or (scan and not row.scan):
        raise TypeError(f"{name}: unsupported dtype {_dtypes.dtype_name(_code_dtype[code])}")
    tab = _redtable_mod.scan_table if scan else _redtable_mod.table
    k = _table(("scan:" if scan else "") + name, tab, name, True)
    kt = None
    if not row.ordered:
        tab = _redtable_mod.scan_tree_table if scan else _redtable_mod.tree_table
        kt = _table(("scan-tree:" if scan else "tree:") + name, tab, name, True)
    cdef _Scalar ident
    ident_v, ident_code = row.identity(code), row.ident_code(code)
    packed = None
    if ident_v is not None:
        _pack_scalar(ident_v, ident_code, &ident, name)
        packed = (<char*>&ident)[:sizeof(_Scalar)]
    info = (k, kt, row.out_code(code), ident_v, ident_code, row.ordered, packed)
    per[2 * code + scan] = info
    return info


cdef ndarray _scratch(Py_ssize_t nbytes, object device):
    cdef Py_ssize_t n = nbytes if nbytes > 0 else 1
    return _new_array(_code_dtype[5], 1, &n, device)


cdef int64_t _segments(int64_t n_lines, int64_t n, int64_t* per_blk) noexcept:
    """Segments per line for a block-tree launch, and the elements per segment."""
    cdef int64_t nblk = _BT_TARGET_BLOCKS // n_lines if n_lines < _BT_TARGET_BLOCKS else 1
    cdef int64_t most = (n + _BT_MIN_PER_BLOCK - 1) // _BT_MIN_PER_BLOCK
    if nblk > most:
        nblk = most
    if nblk < 1:
        nblk = 1
    per_blk[0] = (n + nblk - 1) // nblk
    per_blk[0] = ((per_blk[0] + _BLOCK - 1) // _BLOCK) * _BLOCK
    if per_blk[0] == 0:                         # an empty axis: one segment, no elements
        per_blk[0] = _BLOCK
        return 1
    return (n + per_blk[0] - 1) // per_blk[0]


# Note [Splitting whole reductions on the CPU]
# A whole-array reduction has one output, so reduce_nb gave it to one thread.  Rows whose
# partial results combine by a reduction of the same kind (a sum of sums, a max of maxima,
# counts summed) split a large C-contiguous input into segments of _SPLIT_SEG elements
# (512 of the kernels' 128-element chunks), reduce the segments as the rows of one
# (segments, _SPLIT_SEG) launch over the launch pool, then the partials in a second
# launch.  The partition depends on the size only, never on the thread count, so a
# result is the same from run to run and machine to machine; each segment keeps the
# pairwise order inside it.  A forced schedule (GARRAY_REDUCE) runs unsplit.
cdef int64_t _SPLIT_SEG = 1 << 16
cdef int64_t _SPLIT_MIN = 1 << 18
_SPLIT_SIZES = (_SPLIT_SEG, _SPLIT_MIN)      # for argmax/argmin's split (reductions.py)
cdef dict _SPLIT_ROWS = {"sum": "sum", "prod": "prod", "max": "max", "min": "min",
                         "all": "all", "any": "any", "count_nonzero": "sum"}


cdef ndarray _split_reduce(str name, ndarray a, str combine, bint keepdims):
    cdef int64_t n = a._size, nseg = n // _SPLIT_SEG, head = nseg * _SPLIT_SEG
    cdef Py_ssize_t m = nseg + 1
    flat = _reshape(a, (n,), "C", None)
    parts = _reduce(name, _reshape(flat[:head], (nseg, _SPLIT_SEG), "C", None), (1,), False)
    if head < n:
        tail = _reduce(name, flat[head:], (0,), False)
        joined = _new_array(parts.dtype, 1, &m, a._device)
        joined[:nseg] = parts
        joined[nseg:] = tail
        parts = joined
    r = _reduce(combine, parts, (0,), False)
    return _reshape(r, (1,) * a._nd, "C", None) if keepdims else r


# any/all of a whole C-contiguous CPU array from _SHORT_MIN elements: the first
# _SHORT_HEAD elements alone, then the rest only when those did not decide the answer,
# as NumPy stops at the first True (any) or False (all).  Two pieces, not a geometric
# series: each launch costs ~10 us when nothing stops early.  Each piece is a one-row
# 2-d reduction or _split_reduce's segments, which the whole-array test in _reduce
# does not match again.
cdef int64_t _SHORT_MIN = 1 << 16
cdef int64_t _SHORT_HEAD = 1 << 15


cdef ndarray _short_circuit(str name, ndarray a, bint keepdims):
    cdef int64_t n = a._size, m = n - _SHORT_HEAD
    flat = _reshape(a, (n,), "C", None)
    r = _reduce(name, _reshape(flat[:_SHORT_HEAD], (1, _SHORT_HEAD), "C", None), (1,), False)
    if bool(r) != (name == "any"):
        rest = flat[_SHORT_HEAD:]
        r = (_split_reduce(name, rest, name, False) if m >= _SPLIT_MIN
             else _reduce(name, _reshape(rest, (1, m), "C", None), (1,), False))
    return _reshape(r, (1,) * a._nd if keepdims else (), "C", None)


cpdef ndarray _reduce(str name, ndarray a, tuple axes, bint keepdims):
    """Reduce a over ``axes`` (normalised, distinct) with the reduction table's row
    ``name``; returns a new array of the row's output dtype."""
    cdef _Kernels k, kt
    cdef ndarray o, part = None
    cdef _Strided po, pr
    cdef _Scalar ident
    cdef Py_ssize_t kshape[MAX_NDIM]
    cdef Py_ssize_t kst[2][MAX_NDIM]
    cdef Py_ssize_t rshape[MAX_NDIM]
    cdef Py_ssize_t rst[1][MAX_NDIM]
    cdef Py_ssize_t oshape[MAX_NDIM]
    cdef bint red[MAX_NDIM]
    cdef int i, nk = 0, nr = 0, no = 0, oi = 0, wide, strat
    cdef int64_t n_out, n_red = 1, nblk = 1, per_blk = 0, n64[4], threads
    cdef int32_t n32[4]
    cdef void* args[9]
    cdef intptr_t op_, pa, pp
    if _labelled(a):
        return _time_mod().reduce(name, a, axes, keepdims)
    if _is_narrow(a._code):
        # Note [Narrow floats]: reduce in float32, round once (NumPy's float16 reductions
        # accumulate in float too)
        o = _reduce(name, _cast_to(a, _F32), axes, keepdims)
        return _cast_to(o, a._code) if o._code == _F32 else o
    if (a._is_cpu and a._size >= _SHORT_MIN and _red_strategy == 0 and (a._flags & FLAG_C)
            and len(axes) == a._nd):
        if name == "any" or name == "all":
            return _short_circuit(name, a, keepdims)
        if a._size >= _SPLIT_MIN and name in _SPLIT_ROWS:
            return _split_reduce(name, a, _SPLIT_ROWS[name], keepdims)
    k, kt, out_code, ident_v, ident_code, _, packed = _reduction_info(name, False, a._code)
    if a._nd > _KERNEL_NDIM and not (a._flags & FLAG_C):
        a = _copy_array(a)      # its kept and reduced axes then merge (Note [ndarray layout], 6)
    for i in range(a._nd):
        red[i] = False
    for ax in axes:
        red[<int>ax] = True
    for i in range(a._nd):
        if red[i]:
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
    o = _new_array(_code_dtype[out_code], no, oshape, a._device)
    n_out = o._size
    if n_out == 0:
        return o
    for i in range(a._nd):
        if red[i]:
            oi += keepdims
            continue
        kshape[nk] = a._shape[i]
        kst[0][nk] = o._strides[oi]
        kst[1][nk] = a._strides[i]
        nk += 1
        oi += 1
    wide = _pack_strided(&po, nk, kshape, 2, kst, n_out, a._is_cpu) == L_S64
    if (_pack_strided(&pr, nr, rshape, 1, rst, n_red, a._is_cpu) == L_S64
            or a._size >= (<int64_t>1 << 31)):
        wide = True
    if packed is None:          # every reduction row has an identity (garray/_tables/reduce.py)
        raise TypeError(f"{name}: no identity for {_code_dtype[a._code]}")
    memcpy(&ident, <char*>packed, sizeof(_Scalar))
    strat = _red_strategy
    if strat == 0:                              # auto (Note [Choosing a reduction schedule])
        if a._is_cpu:
            strat = 2
        elif pr.ndim >= 1 and pr.strides[0][pr.ndim - 1] == a._itemsize and n_red >= 64:
            strat = 3
        else:
            strat = 1
    if strat == 2 and not (a._is_cpu and po.ndim >= 1
                           and po.strides[1][po.ndim - 1] == a._itemsize
                           and po.shape[po.ndim - 1] >= 2 and n_red > 1):
        strat = 1                               # reduce_cols is the CPU's (note 4)
    op_, pa = o._ptr, a._ptr
    args[0] = &op_
    if strat == 3:                              # block tree, maybe two passes
        nblk = _segments(n_out, n_red, &per_blk)
        if nblk > 1:
            part = _scratch(n_out * nblk * (_code_itemsize[ident_code] + 16), a._device)
        pp = part._ptr if part is not None else 0
        n64[0], n64[1], n64[2] = n_red, per_blk, nblk
        args[1] = &pp
        args[2] = &pa
        args[3] = &po
        args[4] = &pr
        for i in range(3):                      # block trees index in 64 bits
            args[5 + i] = &n64[i]
        args[8] = &ident
        kt.launch(o, a._code, R_BT, n_out * nblk * _BLOCK, args, a._size)
        if nblk > 1:
            args[1] = &pp
            args[2] = &po
            args[3] = &n64[2]
            args[4] = &ident
            kt.launch(o, a._code, R_BTP, n_out * _BLOCK, args)
        return o
    n64[0], n64[1] = n_out, n_red
    n32[0], n32[1] = <int32_t>n_out, <int32_t>n_red
    args[1] = &pa
    args[2] = &po
    args[3] = &pr
    args[4] = <void*>&n64[0] if wide else <void*>&n32[0]
    args[5] = <void*>&n64[1] if wide else <void*>&n32[1]
    args[6] = &ident
    if strat == 2:                              # 64-bit indices only (a CPU schedule)
        threads = (n_out // po.shape[po.ndim - 1]) * ((po.shape[po.ndim - 1] + _COLS_W - 1) // _COLS_W)
        args[4] = &n64[0]
        args[5] = &n64[1]
        k.launch(o, a._code, R_COLS, threads, args, a._size)
    else:
        k.launch(o, a._code, R_NB64 if wide else R_NB32, n_out, args, a._size)
    return o


def _scan(str name, ndarray a, int axis, ndarray o):
    """Inclusive scan of a along ``axis`` into o (a new array of a's shape in the row's
    accumulator dtype, or a view of one, laid out like it or not)."""
    cdef _Kernels k, kt, kr
    cdef ndarray part
    cdef _Strided po
    cdef _Scalar ident
    cdef Py_ssize_t kshape[MAX_NDIM]
    cdef Py_ssize_t kst[2][MAX_NDIM]
    cdef int i, nk = 0, wide
    cdef int64_t n_lines = 1, n = a._shape[axis], nblk, per_blk = 0, so, sx, n64[6]
    cdef int32_t n32[6]
    cdef void* args[11]
    cdef intptr_t op_, pa, pp
    cdef _Strided pr
    if _labelled(a):
        raise TypeError(f"{name}: scans of {a._dtype} run in garray/_reduce/scans.py")
    if _is_narrow(a._code):
        # Note [Narrow floats]: the scan in float32 into a float32 buffer, rounded once
        part = _new_array(_code_dtype[_F32] if _is_narrow(o._code) else o._dtype, o._nd,
                          o._shape, o._device)
        _scan(name, _cast_to(a, _F32), axis, part)
        _cast_into(o, part)
        return o
    k, kt, out_code, ident_v, ident_code, ordered, _ = _reduction_info(name, True, a._code)
    if a._size == 0:
        return o
    if a._nd > _KERNEL_NDIM and not (a._flags & FLAG_C):
        a = _copy_array(a)      # its other axes then merge (Note [ndarray layout], 6)
    for i in range(a._nd):
        if i == axis:
            continue
        kshape[nk] = a._shape[i]
        kst[0][nk] = o._strides[i]
        kst[1][nk] = a._strides[i]
        n_lines *= a._shape[i]
        nk += 1
    so, sx = o._strides[axis], a._strides[axis]
    wide = _pack_strided(&po, nk, kshape, 2, kst, n_lines, a._is_cpu) == L_S64
    wide = wide or a._size >= (<int64_t>1 << 31) or _force_index64
    wide = wide or (n - 1) * (so if so >= 0 else -so) >= (<int64_t>1 << 31)
    wide = wide or (n - 1) * (sx if sx >= 0 else -sx) >= (<int64_t>1 << 31)
    if ident_v is not None:
        _pack_scalar(ident_v, ident_code, &ident, name)
    op_, pa = o._ptr, a._ptr
    cdef bint tree = not ordered and (_red_strategy == 3 or (
        _red_strategy == 0 and not a._is_cpu and n_lines < _BT_TARGET_BLOCKS and n >= 4096))
    if not tree:
        n64[:4] = [n_lines, n, so, sx]
        for i in range(4):
            n32[i] = <int32_t>n64[i]
        args[0] = &op_
        args[1] = &pa
        args[2] = &po
        for i in range(4):
            args[3 + i] = <void*>&n64[i] if wide else <void*>&n32[i]
        args[7] = &ident
        k.launch(o, a._code, S_NB64 if wide else S_NB32, n_lines, args, a._size)
        return o
    # reduce-then-scan: segment totals, their exclusive scan per line, the segment scans
    nblk = _segments(n_lines, n, &per_blk)
    part = _scratch(n_lines * nblk * (_code_itemsize[out_code] + 16), a._device)
    pp = part._ptr
    memset(&pr, 0, <size_t>(<char*>&pr.strides[1][0] - <char*>&pr))   # as _pack_strided
    pr.ndim = 1
    pr.shape[0] = n
    pr.strides[0][0] = sx
    n64[:6] = [n, per_blk, nblk, n_lines, so, sx]
    args[0] = &op_
    args[1] = &pp
    args[2] = &pa
    args[3] = &po
    args[4] = &pr
    for i in range(3):
        args[5 + i] = &n64[i]
    args[8] = &ident
    # the first pass is the reduction's block tree (its table holds reduce_bt)
    kr = <_Kernels>_reduction_info(name, False, a._code)[1]
    kr.launch(o, a._code, R_BT, n_lines * nblk * _BLOCK, args, a._size)
    args[0] = &pp
    args[1] = &n64[3]
    args[2] = &n64[2]
    args[3] = &ident
    kt.launch(o, a._code, S_PART, n_lines, args)
    # scan_bt(out, x, part, po, n, so, sx, per_blk, nblk, p)
    args[0] = &op_
    args[1] = &pa
    args[2] = &pp
    args[3] = &po
    args[4] = &n64[0]
    args[5] = &n64[4]
    args[6] = &n64[5]
    args[7] = &n64[1]
    args[8] = &n64[2]
    args[9] = &ident
    kt.launch(o, a._code, S_BT, n_lines * nblk * _BLOCK, args, a._size)
    return o
