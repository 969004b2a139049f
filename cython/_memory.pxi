# Note [Memory pools]
# ~~~~~~~~~~~~~~~~~~~
# One MemoryPool per device; the CPU device and the GPUs share all of this logic and
# differ only in _raw_alloc/_raw_free (mmap or aligned_alloc, or the backend runtime).
# 1. Size classes.  A request is rounded up to a multiple of 512 bytes up to 1 MiB, and
#    above that to one of 8 steps per power of two (2 MiB, 2.25 MiB, 2.5 MiB ...), so
#    rounding wastes at most 1/8 and nearby sizes share a class.
# 2. Segments and blocks.  Memory comes from the device in segments: requests up to
#    1 MiB ("small") are carved from 2 MiB segments, larger ones from 20 MiB segments,
#    requests over 10 MiB get a segment of their own size (PyTorch's caching allocator
#    uses the same three tiers).  A segment is a chain of blocks in address order; a
#    request takes the smallest free block that fits (bins per size class, a bitmap of
#    non-empty bins) and splits off the rest when it is worth keeping (any remainder in
#    small segments, over 1 MiB in large ones, so large segments do not fill with
#    slivers).  A freed block merges with free neighbours; only a wholly free segment
#    can go back to the device.  Small and large requests never share a segment.
# 3. The hot path.  Freed blocks up to 32 KiB first go to per-class C stacks (a push;
#    the next request of that class is a pop): no bin, no pointer lookup.  Those blocks
#    count as cached.  Everything else finds its block through a C hash table keyed by
#    address (allocated blocks only).
# 4. Bounds.  ``pool_limit`` (GARRAY_POOL_LIMIT; default 256 MiB on the CPU device, 50%
#    of device memory on GPUs) bounds cached bytes: past it, wholly free segments go back
#    to the device at once (under a bound smaller than a segment, segments are made
#    just big enough).  Free pieces of segments that still hold live blocks stay (they
#    cannot be returned alone), so cached bytes can exceed the bound while such
#    segments live.  ``limit`` (GARRAY_MEMORY_LIMIT) caps used + cached; on failure (the
#    limit or the device) the pool returns its free segments and retries once, then
#    raises OutOfMemoryError naming the size asked for and what the pool holds.
# 5. Stream order: a pool serves one stream (Note [Current streams], 3), so a freed
#    block may go at once to that stream's next request.  A non-blocking stream's pool
#    synchronises its stream before giving a segment back to the driver.  The streams'
#    pools of a GPU belong to the device's pool (Note [Stream pools] in
#    _memory_family.pxi).
# 6. Threads.  The pool relies on the GIL: allocation and release run with it held
#    (kernel launches may release it later; allocation will not).  Its only calls into
#    Python are the GPU runtime's malloc/free and building an error, and every one is
#    made with the pool's C state consistent (a segment is unlinked before it is freed,
#    linked only after the device returned it), so another thread taking the GIL there,
#    or an ndarray freed re-entrantly from that Python code, finds a valid pool.  A
#    free-threaded build would need a lock here.

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc

include "_memory_map.pxi"
include "_memory_sizes.pxi"

@cython.final
cdef class MemoryPool:
    """The memory pool of one device (``garray.get_default_memory_pool()``).

    Freed memory is cached and reused for later requests of similar size; large cached
    blocks are split to serve smaller requests and freed neighbours merge again.

    ``used_bytes()``: bytes held by live arrays; ``cached_bytes()``: bytes kept for
    reuse; ``total_bytes()``: both, i.e. what the pool holds from the device.
    ``free_all_blocks()`` returns every wholly free segment to the device.
    ``set_limit(size)`` caps ``total_bytes`` (``GARRAY_MEMORY_LIMIT`` at start);
    ``set_pool_limit(size)`` bounds ``cached_bytes`` (``GARRAY_POOL_LIMIT``; default
    256 MiB on the CPU device, half the memory of a GPU).  ``stats()`` returns counters.
    Sizes are bytes or strings like '2GiB' or '25%' (of the device's memory).

    On a GPU each stream allocates from a pool of its own, which belongs to the
    device's pool: there the byte counts, ``free_all_blocks()`` and the limit cover
    every stream's pool of the device (as CuPy's one pool per device), and
    ``set_pool_limit`` bounds each stream's pool's cache.  The other ``stats()``
    counters are the device pool's own.

    See also cupy.cuda.MemoryPool, torch.cuda.memory_stats.
    """
    cdef readonly object device
    cdef object _runtime
    cdef bint _is_cpu
    cdef size_t _used, _total, _limit, _pool_limit, _peak_used, _peak_total
    cdef size_t _device_bytes
    # hot path: per-class stacks of cached small blocks
    cdef intptr_t _small[_N_SMALL][_STACK]
    cdef int _nsmall[_N_SMALL]
    # free blocks by bin, per segment kind
    cdef _Block* _head[2][_N_BINS]
    cdef uint64_t _mask[2][_N_WORDS]
    cdef size_t _n_whole_free        # free blocks that are a whole segment
    cdef _PtrMap _map                # allocated blocks by address
    cdef readonly size_t n_allocs, n_hits
    cdef readonly object _stream     # the stream's handle (0: the default stream)
    # Note [Stream pools] (_memory_family.pxi): the device's pool (None for itself),
    # and, in that one, the device-wide figures and the streams' pools.
    cdef MemoryPool _root
    cdef object _members             # weakref.WeakSet of the streams' pools (root only)
    cdef size_t _fam_used, _fam_total, _fam_peak_used, _fam_peak_total
    cdef object __weakref__
    cdef bint _sync_free             # a non-blocking stream: synchronise before a free
    cdef bint _ordered               # segments from the driver's stream-ordered allocator
    cdef size_t _n_frees, _n_segments, _n_splits, _n_merges

    def __cinit__(self, device, stream=0, non_blocking=False):
        self.device = device
        self._stream = stream
        self._sync_free = bool(non_blocking)
        self._runtime = device.runtime
        self._is_cpu = device.kind == "cpu"
        self._ordered = (not self._is_cpu and
                         _env.choice("GARRAY_POOL_BACKEND", ("device", "stream"),
                                     "device") == "stream")
        memset(self._nsmall, 0, sizeof(self._nsmall))
        memset(self._head, 0, sizeof(self._head))
        memset(self._mask, 0, sizeof(self._mask))
        self._pool_limit = _NO_BOUND
        self._device_bytes = 0
        try:
            self._device_bytes = int(device.properties.get("total_memory") or 0)
        except Exception:     # a runtime that cannot say: percentages are refused
            pass
        dev_bytes = self._device_bytes or None
        self._limit = _env_size("GARRAY_MEMORY_LIMIT", None, dev_bytes)
        default = "256MiB" if self._is_cpu else ("50%" if dev_bytes else None)
        if default is not None or os.environ.get("GARRAY_POOL_LIMIT", "").strip():
            self._pool_limit = _env_size("GARRAY_POOL_LIMIT", default, dev_bytes)
        _pm_init(&self._map, 10)
        self._members = weakref.WeakSet()
        if stream != 0 and not self._is_cpu:
            root = device.pool
            if root is not self:
                self._root = <MemoryPool>root
                self._root._members.add(self)
                self._pool_limit = self._root._pool_limit

    def __dealloc__(self):
        # Nothing references the pool any more, so no array lives in it; blocks handed
        # out by malloc_ptr and never freed die with it.
        if self._root is not None:
            self._root._fam_used -= self._used
            self._root._fam_total -= self._total
        _pool_destroy(self)

    cdef inline MemoryPool _r(self):
        """The device's pool this pool belongs to (itself for the device's pool)."""
        cdef MemoryPool r = self._root
        return self if r is None else r

    cdef inline void _fam_use(self, size_t size) noexcept:
        cdef MemoryPool r = self._r()
        r._fam_used += size
        if r._fam_used > r._fam_peak_used:
            r._fam_peak_used = r._fam_used


    # ---- the device ------------------------------------------------------------------
    cdef intptr_t _raw_alloc(self, size_t nbytes) except? 0:
        if not self._is_cpu:
            if self._ordered:
                return self._runtime.malloc(nbytes, stream=self._stream)
            return self._runtime.malloc(nbytes)
        return _cpu_raw_alloc(nbytes)

    cdef int _raw_free(self, intptr_t p, size_t nbytes) except -1:
        if not self._is_cpu:
            if self._ordered:      # freed in the stream's order: no host wait
                self._runtime.free(p, stream=self._stream)
                return 0
            if self._sync_free and self._stream:
                self._runtime.stream_synchronize(self._stream)
            self._runtime.free(p)
        else:
            _cpu_raw_free(p, nbytes)
        return 0

    # ---- bins of free blocks ---------------------------------------------------------
    cdef void _bin_insert(self, _Block* b) noexcept:
        cdef int i = _bin_of(b.size), k = b.kind
        b.bin = i
        b.fprev = NULL
        b.fnext = self._head[k][i]
        if b.fnext != NULL:
            b.fnext.fprev = b
        self._head[k][i] = b
        self._mask[k][i >> 6] |= (<uint64_t>1) << (i & 63)
        if b.prev == NULL and b.next == NULL:
            self._n_whole_free += 1

    cdef void _bin_remove(self, _Block* b) noexcept:
        cdef int i = b.bin, k = b.kind
        if b.fprev != NULL:
            b.fprev.fnext = b.fnext
        else:
            self._head[k][i] = b.fnext
            if b.fnext == NULL:
                self._mask[k][i >> 6] &= ~((<uint64_t>1) << (i & 63))
        if b.fnext != NULL:
            b.fnext.fprev = b.fprev
        b.bin = -1
        if b.prev == NULL and b.next == NULL:
            self._n_whole_free -= 1

    cdef _Block* _best_fit(self, int k, size_t size) noexcept:
        # Bin i holds sizes in [class i, class i+1), so every block in the first
        # non-empty bin at or above size's own bin fits.
        cdef int i = _bin_of(size)
        cdef int w = i >> 6
        cdef uint64_t m = self._mask[k][w] & (~(<uint64_t>0) << (i & 63))
        while not m:
            w += 1
            if w == _N_WORDS:
                return NULL
            m = self._mask[k][w]
        return self._head[k][(w << 6) + __builtin_ctzll(m)]

    cdef int _split(self, _Block* b, size_t size) except -1:
        """Cut b (allocated, not binned) to size bytes when the rest is worth keeping."""
        cdef size_t rest = b.size - size
        cdef _Block* r
        if rest < _UNIT or (b.kind == 1 and rest <= _SMALL_MAX):
            return 0
        r = <_Block*>malloc(sizeof(_Block))
        if r == NULL:
            return 0          # hand out the whole block rather than fail
        r.ptr = b.ptr + size
        r.size = rest
        r.kind = b.kind
        r.prev = b
        r.next = b.next
        if b.next != NULL:
            b.next.prev = r
        b.next = r
        b.size = size
        self._bin_insert(r)
        self._n_splits += 1
        return 0

    # ---- allocation ------------------------------------------------------------------
    cdef intptr_t malloc(self, size_t nbytes, size_t* rounded) except? 0:
        """A block of at least nbytes (nbytes <= 2**62); its size goes to rounded[0]."""
        cdef size_t units = (nbytes + _UNIT - 1) >> 9
        cdef size_t size
        cdef intptr_t p
        if units <= _N_SMALL:
            if units == 0:
                units = 1
            if self._nsmall[units - 1]:
                self._nsmall[units - 1] -= 1
                p = self._small[units - 1][self._nsmall[units - 1]]
                size = units * _UNIT
                self._used += size
                self._fam_use(size)
                if self._used > self._peak_used:
                    self._peak_used = self._used
                self.n_hits += 1
                rounded[0] = size
                return p
        return self._malloc_block(nbytes, rounded)

    cdef intptr_t _malloc_block(self, size_t nbytes, size_t* rounded) except? 0:
        cdef size_t size = _round_size(nbytes)
        cdef int kind = 0 if size <= _SMALL_MAX else 1
        cdef _Block* b = self._best_fit(kind, size)
        if b != NULL:
            self._bin_remove(b)
            self.n_hits += 1
        else:
            b = self._new_segment(kind, size, nbytes)
        self._split(b, size)
        try:
            _pm_put(&self._map, b.ptr, b)
        except MemoryError:
            self._free_block(b)
            raise
        self._used += b.size
        if self._used > self._peak_used:
            self._peak_used = self._used
        self._fam_use(b.size)
        rounded[0] = b.size
        if self._total - self._used > self._pool_limit:   # a new segment's free rest
            self._trim(self._pool_limit)
        return b.ptr

    cdef _Block* _new_segment(self, int kind, size_t size, size_t asked) except NULL:
        """A fresh segment holding at least size bytes, as one allocated block."""
        cdef size_t seg
        cdef intptr_t p = 0
        cdef _Block* b
        cdef MemoryPool r = self._r()
        if kind == 0:
            seg = _SMALL_SEGMENT
        else:
            seg = _LARGE_SEGMENT if size <= _OWN_SEGMENT else size
        if seg > self._pool_limit:
            seg = size          # a bound that small could not keep the rest cached anyway
        if r._limit and r._fam_total + seg > r._limit:   # the device-wide limit
            seg = size                       # a segment just big enough may still fit
            if r._fam_total + seg > r._limit:
                _release_family(self)
                if r._fam_total + seg > r._limit:
                    self._oom(asked, "the pool limit")
        try:
            p = self._raw_alloc(seg)
        except MemoryError:
            pass
        if p == 0:
            _release_family(self)
            seg = size
            try:
                p = self._raw_alloc(seg)
            except MemoryError:
                self._oom(asked, "the device")
        b = <_Block*>malloc(sizeof(_Block))
        if b == NULL:
            self._raw_free(p, seg)
            raise MemoryError()
        b.ptr = p
        b.size = seg
        b.kind = kind
        b.prev = b.next = b.fprev = b.fnext = NULL
        b.bin = -1
        self._total += seg
        if self._total > self._peak_total:
            self._peak_total = self._total
        r._fam_total += seg
        if r._fam_total > r._fam_peak_total:
            r._fam_peak_total = r._fam_total
        self._n_segments += 1
        self.n_allocs += 1
        return b

    cdef _oom(self, size_t asked, str who):
        cdef MemoryPool r = self._r()
        limit = f"{r._limit:,}" if r._limit else "none"
        raise OutOfMemoryError(
            f"out of memory allocating {asked:,} bytes on {self.device} (refused by "
            f"{who}; pool holds {r._fam_used:,} bytes in use, "
            f"{r._fam_total - r._fam_used:,} cached, limit {limit})")

    # ---- release ---------------------------------------------------------------------
    cdef void release(self, intptr_t p, size_t size) noexcept:
        """Take back the block p of size bytes (as malloc rounded it).  Called from
        ndarray.__dealloc__: never raises."""
        cdef size_t units = size >> 9
        cdef _Block* b
        self._used -= size
        cdef MemoryPool r = self._r()
        r._fam_used -= size
        if (units <= _N_SMALL and self._nsmall[units - 1] < _STACK
                and self._total - self._used <= self._pool_limit):
            self._small[units - 1][self._nsmall[units - 1]] = p
            self._nsmall[units - 1] += 1
            return
        b = <_Block*>_pm_get(&self._map, p)
        if b != NULL:
            self._free_block(b)

    cdef void _free_block(self, _Block* b) noexcept:
        """Return the allocated block b to its bin, merged with free neighbours; give
        wholly free segments back while cached bytes exceed the pool limit."""
        cdef _Block* n
        _pm_remove(&self._map, b.ptr)
        n = b.prev
        if n != NULL and n.bin >= 0:
            self._bin_remove(n)
            n.size += b.size
            n.next = b.next
            if b.next != NULL:
                b.next.prev = n
            free(b)
            b = n
            self._n_merges += 1
        n = b.next
        if n != NULL and n.bin >= 0:
            self._bin_remove(n)
            b.size += n.size
            b.next = n.next
            if n.next != NULL:
                n.next.prev = b
            free(n)
            self._n_merges += 1
        self._bin_insert(b)
        if self._total - self._used > self._pool_limit:
            if b.prev == NULL and b.next == NULL:
                self._drop_segment(b)
            self._trim(self._pool_limit)

    cdef void _drop_segment(self, _Block* b) noexcept:
        """Give the wholly free segment b back to the device."""
        cdef intptr_t p = b.ptr
        cdef size_t n = b.size
        self._bin_remove(b)
        free(b)
        self._total -= n
        cdef MemoryPool r = self._r()
        r._fam_total -= n
        self._n_segments -= 1
        self._n_frees += 1
        # Last, so the pool is consistent while Python runs; a failure is reported as
        # unraisable (this runs from ndarray.__dealloc__).
        self._raw_free(p, n)

    cdef void _trim(self, size_t target) noexcept:
        cdef _Block* b
        while self._total - self._used > target:
            b = _whole_free_segment(self)
            if b == NULL:
                return
            self._drop_segment(b)

    cdef void _drain_stacks(self) noexcept:
        cdef int u
        cdef _Block* b
        for u in range(_N_SMALL):
            while self._nsmall[u]:
                self._nsmall[u] -= 1
                b = <_Block*>_pm_get(&self._map, self._small[u][self._nsmall[u]])
                if b != NULL:
                    self._free_block(b)

    cdef int _release_cached(self) except -1:
        self._drain_stacks()
        self._trim(0)
        return 0


    # ---- Python API ------------------------------------------------------------------
    def _stream_closed(self):   # the stream was synchronised and destroyed
        self._sync_free = False
        self._stream = 0

    def free_all_blocks(self):
        """Return every wholly free segment to the device (on the device's pool: of
        every stream's pool too).

        Free pieces of segments that still hold live arrays stay cached: a device
        allocation can only be returned whole.

        Returns
        -------
        None
        """
        if self._root is None:
            _release_family(self)
        else:
            self._release_cached()

    def used_bytes(self):
        """Bytes held by live arrays (each rounded to its size class).

        Returns
        -------
        int
        """
        return self._fam_used if self._root is None else self._used

    def cached_bytes(self):
        """Bytes held from the device but not in use (kept for reuse).

        Returns
        -------
        int
        """
        if self._root is None:
            return self._fam_total - self._fam_used
        return self._total - self._used

    def total_bytes(self):
        """Bytes held from the device: used plus cached.

        Returns
        -------
        int
        """
        return self._fam_total if self._root is None else self._total

    def get_limit(self):
        """The limit on total_bytes in bytes, 0 meaning none.

        Returns
        -------
        int
        """
        return self._r()._limit

    def set_limit(self, size=None):
        """Cap total_bytes; ``size`` in bytes or a string like '1GiB' or '50%'; None/0
        lifts it.

        Parameters
        ----------
        size : int, str or None, optional
            The limit.

        Returns
        -------
        None
        """
        self._r()._limit = parse_size(size, "size", self._device_bytes or None)

    def get_pool_limit(self):
        """The bound on cached_bytes in bytes, None meaning none.

        Returns
        -------
        int or None
        """
        return None if self._pool_limit == _NO_BOUND else self._pool_limit

    def set_pool_limit(self, size):
        """Bound cached_bytes: past it, wholly free segments go back to the device
        (now and on later frees).  ``size`` as for set_limit; 0 caches nothing that
        can be returned; None lifts the bound.

        Parameters
        ----------
        size : int, str or None
            The bound.

        Returns
        -------
        None
        """
        _set_pool_limits(self, _NO_BOUND if size is None
                         else parse_size(size, "size", self._device_bytes or None))

    def stats(self):
        """Counters of the pool, as a dict.

        ``used_bytes``, ``cached_bytes``, ``total_bytes`` as the methods;
        ``peak_used_bytes``, ``peak_total_bytes``: their highest values;
        ``requests``: allocations asked for; ``cache_hits``: those served from cached
        memory; ``device_allocs`` / ``device_frees``: segments taken from and given
        back to the device; ``segments``: segments held now; ``free_segments``: those
        wholly free; ``splits`` / ``merges``: blocks cut and joined;
        ``limit`` and ``pool_limit`` (None: none).

        Returns
        -------
        dict
        """
        return _pool_stats(self)

    def malloc_ptr(self, size_t nbytes):
        """Allocate raw device bytes: returns (ptr, size), size being what the pool
        reserved.  Pair with free_ptr.

        Parameters
        ----------
        nbytes : int
            Bytes wanted.

        Returns
        -------
        tuple of int
            (ptr, size).
        """
        cdef size_t rounded
        if nbytes > _MAX_REQUEST:
            self._oom(nbytes, "the pool (larger than 2**62 bytes)")
        p = self.malloc(nbytes, &rounded)
        return p, rounded

    def free_ptr(self, intptr_t p, size=None):
        """Give back a block from malloc_ptr (``size``, if given, must be its size).

        Parameters
        ----------
        p : int
            The address malloc_ptr returned.
        size : int, optional
            Its size, checked.

        Returns
        -------
        None
        """
        _pool_free_ptr(self, p, size)

    def __repr__(self):
        pl = self.get_pool_limit()
        return (f"<garray.MemoryPool {self.device}: used {self.used_bytes():,} B, cached "
                f"{self.cached_bytes():,} B in {self._n_segments} segments, "
                f"limit {self._r()._limit or 'none'}, pool limit {'none' if pl is None else pl}>")


include "_memory_family.pxi"
