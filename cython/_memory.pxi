# Note [Memory pools]
# ~~~~~~~~~~~~~~~~~~~
# 1. One MemoryPool per device.  Requests are rounded up to 512-byte units; freed
#    blocks are cached per rounded size and reused without going back to the driver.
# 2. Sizes up to _N_SMALL units live in C stacks (the hot path for small arrays costs
#    no dict lookup); larger sizes in a dict of lists.
# 3. ``limit`` (GARRAY_MEMORY_LIMIT, bytes or e.g. "2GiB") caps used + cached bytes.
#    On failure (limit or the driver) the pool frees its cached blocks and retries
#    once; then OutOfMemoryError names the size asked for and what the pool holds.
# 4. Stream order: every queue here is the device's default stream, so a block freed
#    is safe to hand out again at once.  Per-stream free lists come with streams.
# The CPU device allocates with aligned_alloc directly; GPU devices call their
# backend runtime (a Python call, off the hot path once the cache is warm).

cdef extern from "stdlib.h":
    void* aligned_alloc(size_t alignment, size_t size) nogil

cdef enum:
    _UNIT = 512
    _N_SMALL = 64        # rounded sizes up to 64 * 512 B = 32 KiB use C stacks
    _STACK = 32          # cached blocks per small size class

_SIZE_SUFFIX = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1000**2,
                "mb": 1000**2, "mib": 1024**2, "g": 1000**3, "gb": 1000**3,
                "gib": 1024**3, "t": 1000**4, "tb": 1000**4, "tib": 1024**4}


def parse_size(value, argname="limit"):
    """Bytes from an int or a string like '512MiB', '2GB', '1e9'. 0 or None: no limit."""
    if value is None:
        return 0
    if isinstance(value, int):
        n = value
    else:
        s = str(value).strip().lower().replace(" ", "")
        i = len(s)
        while i and not (s[i - 1].isdigit() or s[i - 1] == "."):
            i -= 1
        try:
            n = int(float(s[:i]) * _SIZE_SUFFIX[s[i:]])
        except (ValueError, KeyError):
            raise ValueError(f"{argname}: cannot read a size from {value!r}; "
                             f"use bytes or a suffix like '512MiB' or '2GB'") from None
    if n < 0:
        raise ValueError(f"{argname}: must be >= 0, got {value!r}")
    return n


@cython.final
cdef class MemoryPool:
    """The memory pool of one device.

    ``used_bytes()``: bytes held by live arrays; ``total_bytes()``: used plus cached;
    ``free_all_blocks()`` returns cached blocks to the device; ``set_limit(size)``
    caps ``total_bytes`` (``GARRAY_MEMORY_LIMIT`` sets it at start).
    """
    cdef readonly object device
    cdef object _runtime
    cdef bint _is_cpu
    cdef size_t _used, _cached, _limit
    cdef intptr_t _small[_N_SMALL][_STACK]
    cdef int _nsmall[_N_SMALL]
    cdef dict _large            # rounded size -> list of pointers
    cdef readonly size_t n_allocs, n_hits

    def __cinit__(self, device):
        self.device = device
        self._runtime = device.runtime
        self._is_cpu = device.kind == "cpu"
        self._large = {}
        memset(self._nsmall, 0, sizeof(self._nsmall))
        self._limit = parse_size(os.environ.get("GARRAY_MEMORY_LIMIT") or None,
                                 "GARRAY_MEMORY_LIMIT")

    def __dealloc__(self):
        self._release_cached()

    cdef intptr_t _raw_alloc(self, size_t nbytes) except? 0:
        cdef void* p
        if self._is_cpu:
            p = aligned_alloc(_UNIT, nbytes)
            if p == NULL:
                raise MemoryError()
            return <intptr_t>p
        return self._runtime.malloc(nbytes)

    cdef int _raw_free(self, intptr_t p) except -1:
        if self._is_cpu:
            free(<void*>p)
        else:
            self._runtime.free(p)
        return 0

    cdef intptr_t malloc(self, size_t nbytes, size_t* rounded) except? 0:
        cdef size_t units = (nbytes + _UNIT - 1) // _UNIT
        if units == 0:
            units = 1
        cdef size_t size = units * _UNIT
        cdef intptr_t p
        cdef list lst
        rounded[0] = size
        if units <= _N_SMALL and self._nsmall[units - 1] > 0:
            self._nsmall[units - 1] -= 1
            p = self._small[units - 1][self._nsmall[units - 1]]
            self._cached -= size
            self._used += size
            self.n_hits += 1
            return p
        if units > _N_SMALL:
            lst = self._large.get(size)
            if lst:
                p = lst.pop()
                self._cached -= size
                self._used += size
                self.n_hits += 1
                return p
        p = self._alloc_new(size, nbytes)
        self._used += size
        self.n_allocs += 1
        return p

    cdef intptr_t _alloc_new(self, size_t size, size_t asked) except? 0:
        if self._limit and self._used + self._cached + size > self._limit:
            self._release_cached()
            if self._used + size > self._limit:
                self._oom(asked, "the pool limit")
        try:
            return self._raw_alloc(size)
        except MemoryError:
            pass
        self._release_cached()
        try:
            return self._raw_alloc(size)
        except MemoryError:
            self._oom(asked, "the device")
        return 0

    cdef _oom(self, size_t asked, str who):
        raise OutOfMemoryError(
            f"out of memory allocating {asked:,} bytes on {self.device} (refused by "
            f"{who}; pool holds {self._used:,} bytes in use, "
            f"{self._cached:,} cached, limit {self._limit or 'none'})")

    cdef void release(self, intptr_t p, size_t size) noexcept:
        # Called from ndarray.__dealloc__: must not raise.
        cdef size_t units = size // _UNIT
        self._used -= size
        if units <= _N_SMALL and self._nsmall[units - 1] < _STACK:
            self._small[units - 1][self._nsmall[units - 1]] = p
            self._nsmall[units - 1] += 1
            self._cached += size
            return
        if units <= _N_SMALL:
            try:
                self._raw_free(p)
            except BaseException:
                pass
            return
        try:
            lst = self._large.get(size)
            if lst is None:
                self._large[size] = [p]
            else:
                lst.append(p)
            self._cached += size
        except BaseException:
            pass

    cdef int _release_cached(self) except -1:
        cdef int u, k
        for u in range(_N_SMALL):
            for k in range(self._nsmall[u]):
                self._raw_free(self._small[u][k])
            self._nsmall[u] = 0
        if self._large:
            for size, lst in self._large.items():
                for p in lst:
                    self._raw_free(p)
            self._large.clear()
        self._cached = 0
        return 0

    def free_all_blocks(self):
        """Return every cached (unused) block to the device."""
        self._release_cached()

    def used_bytes(self):
        """Bytes held by live arrays (rounded to 512-byte units)."""
        return self._used

    def cached_bytes(self):
        """Bytes cached for reuse."""
        return self._cached

    def total_bytes(self):
        """Bytes held from the device: used plus cached."""
        return self._used + self._cached

    def get_limit(self):
        """The limit on total_bytes in bytes, 0 meaning none."""
        return self._limit

    def set_limit(self, size=None):
        """Cap total_bytes; ``size`` in bytes or a string like '1GiB'; None/0 lifts it."""
        self._limit = parse_size(size, "size")

    def malloc_ptr(self, size_t nbytes):
        """Allocate raw bytes (returns (ptr, rounded_size)); pair with free_ptr."""
        cdef size_t rounded
        p = self.malloc(nbytes, &rounded)
        return p, rounded

    def free_ptr(self, intptr_t p, size_t rounded):
        self.release(p, rounded)

    def __repr__(self):
        return (f"<garray.MemoryPool {self.device}: used {self._used} B, "
                f"cached {self._cached} B, limit {self._limit or 'none'}>")
