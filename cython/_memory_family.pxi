# Note [Stream pools]
# ~~~~~~~~~~~~~~~~~~~
# 1. The streams' pools of a GPU (Note [Current streams], 3) belong to the device's pool
#    (``_root``; None in the device's pool itself), which keeps weak references to them
#    and the device-wide figures (``_fam_*``, kept as blocks and segments come and go).
# 2. ``limit`` is the device's, checked against the bytes all of its pools hold; a
#    segment refused by the limit or by the driver first makes every pool of the device
#    return its free segments (each stream's pool after its stream), then is tried again.
# 3. The device pool's byte counts, peaks and free_all_blocks cover every pool of the
#    device, as CuPy's one pool per device; set_pool_limit bounds each pool's cache.
# 4. Backends.  Segments come from the driver's plain allocator (cuMemAlloc / hipMalloc)
#    or, under GARRAY_POOL_BACKEND=stream, from its stream-ordered allocator on the
#    pool's stream (cuMemAllocAsync / hipMallocAsync, given back by cuMemFreeAsync /
#    hipFreeAsync): a segment then goes back in its stream's order, without the host
#    waiting for a non-blocking stream, and the driver may hand it to another stream
#    once that order allows.
# The pool's module-level helpers live here too (one file under 600 lines each).


cdef int _release_family(MemoryPool self) except -1:
    """Return the free segments of every pool of the device (a limit or the device
    refused a segment; each stream's pool orders its frees after its stream)."""
    cdef MemoryPool r = self._r()
    r._release_cached()
    for m in list(r._members):
        (<MemoryPool>m)._release_cached()
    return 0


cdef void _pool_destroy(MemoryPool self) noexcept:
    """Free every segment of a pool that is going away, in use or not: collect the
    segment heads from the allocated blocks and the bins, then walk each chain."""
    cdef size_t i, n = 0
    cdef int k, j
    cdef _Block* b
    cdef _Block* nxt
    cdef _Block* head
    cdef intptr_t p
    if self._map.keys == NULL:
        return
    heads = []
    for i in range(<size_t>1 << self._map.bits):
        if self._map.keys[i]:
            b = <_Block*>self._map.vals[i]
            if b.prev == NULL:
                heads.append(<intptr_t>b)
    for k in range(2):
        for j in range(_N_BINS):
            b = self._head[k][j]
            while b != NULL:
                if b.prev == NULL:
                    heads.append(<intptr_t>b)
                b = b.fnext
    for h in heads:
        head = <_Block*><intptr_t>h
        p = head.ptr
        n = 0
        b = head
        while b != NULL:
            n += b.size
            nxt = b.next
            free(b)
            b = nxt
        try:
            self._raw_free(p, n)
        except Exception:
            pass          # the device may be gone at interpreter exit
    _pm_free(&self._map)


cdef dict _pool_stats(MemoryPool self):
    """MemoryPool.stats()."""
    root = self._root is None
    return {
        "used_bytes": self.used_bytes(),
        "cached_bytes": self.cached_bytes(),
        "total_bytes": self.total_bytes(),
        "peak_used_bytes": self._fam_peak_used if root else self._peak_used,
        "peak_total_bytes": self._fam_peak_total if root else self._peak_total,
        "requests": self.n_hits + self.n_allocs,
        "cache_hits": self.n_hits,
        "device_allocs": self.n_allocs,
        "device_frees": self._n_frees,
        "segments": self._n_segments,
        "free_segments": self._n_whole_free,
        "splits": self._n_splits,
        "merges": self._n_merges,
        "limit": self._r()._limit or None,
        "pool_limit": self.get_pool_limit(),
        "stream_pools": len(self._members),
    }


cdef int _set_pool_limits(MemoryPool self, size_t bound) except -1:
    """set_pool_limit: ``bound`` for this pool and the streams' pools that belong to it."""
    cdef MemoryPool m
    for p in [self, *self._members]:
        m = <MemoryPool>p
        m._pool_limit = bound
        if m._total - m._used > m._pool_limit:
            m._release_cached()
    return 0


cdef int _pool_free_ptr(MemoryPool self, intptr_t p, object size) except -1:
    """MemoryPool.free_ptr."""
    cdef _Block* b = <_Block*>_pm_get(&self._map, p) if p else NULL
    cdef int u, i
    if b == NULL:
        raise ValueError(f"free_ptr: {p:#x} is not a block allocated from this pool")
    for u in range(_N_SMALL):      # not cached already (freed twice)?
        for i in range(self._nsmall[u]):
            if self._small[u][i] == p:
                raise ValueError(f"free_ptr: {p:#x} was already freed")
    if size is not None and size != b.size:
        raise ValueError(f"free_ptr: {p:#x} has size {b.size}, not {size}")
    self._used -= b.size
    cdef MemoryPool r = self._r()
    r._fam_used -= b.size
    self._free_block(b)
    return 0


cdef _Block* _whole_free_segment(MemoryPool self) noexcept:
    """A free block that is a whole segment, the largest first; NULL if none."""
    cdef int k, i
    cdef _Block* b
    if not self._n_whole_free:
        return NULL
    for k in range(1, -1, -1):
        for i in range(_N_BINS - 1, -1, -1):
            if not (self._mask[k][i >> 6] >> (i & 63)) & 1:
                continue
            b = self._head[k][i]
            while b != NULL:
                if b.prev == NULL and b.next == NULL:
                    return b
                b = b.fnext
    return NULL
