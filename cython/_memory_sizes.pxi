# The memory pool's C-level pieces (Note [Memory pools] in _memory.pxi, 1 and 4): the
# allocators it calls, size parsing (GARRAY_MEMORY_LIMIT, GARRAY_POOL_LIMIT) and the
# size classes.

cdef extern from "stdlib.h":
    void* aligned_alloc(size_t alignment, size_t size) nogil

cdef extern from "sys/mman.h":
    void* mmap(void* addr, size_t length, int prot, int flags, int fd, long offset) nogil
    int munmap(void* addr, size_t length) nogil
    int madvise(void* addr, size_t length, int advice) nogil
    int PROT_READ, PROT_WRITE, MAP_PRIVATE, MAP_ANONYMOUS, MADV_HUGEPAGE
    void* MAP_FAILED

cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef enum:
    _UNIT = 512
    _N_SMALL = 64             # classes up to 64 * 512 B = 32 KiB have C stacks
    _STACK = 32               # cached blocks per stacked class
    _N_BINS = 2400            # 2048 classes to 1 MiB, then 8 per power of two to 2**62
    _N_WORDS = 38             # 64-bit words of the bins' bitmap
    _SMALL_MAX = 1 << 20      # requests up to this use small segments
    _SMALL_SEGMENT = 2 << 20
    _LARGE_SEGMENT = 20 << 20 # for requests up to _OWN_SEGMENT
    _OWN_SEGMENT = 10 << 20   # larger requests get a segment of their own

cdef size_t _MAX_REQUEST = <size_t>1 << 62
cdef size_t _HUGE_MIN = 4 << 20     # segments from which huge pages are asked for
cdef size_t _NO_BOUND = <size_t>-1

_SIZE_SUFFIX = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1000**2,
                "mb": 1000**2, "mib": 1024**2, "g": 1000**3, "gb": 1000**3,
                "gib": 1024**3, "t": 1000**4, "tb": 1000**4, "tib": 1024**4}


def parse_size(value, argname="limit", device_bytes=None):
    """Bytes from an int or a string like '512MiB', '2GB', '1e9' or '25%' (of
    ``device_bytes``, the device's memory).  None gives 0.

    Errors are ValueErrors naming ``argname`` and the value.
    """
    if value is None:
        return 0
    if isinstance(value, bool):
        raise ValueError(f"{argname}: expected a size in bytes, got {value!r}")
    if isinstance(value, int):
        n = value
    else:
        s = str(value).strip().lower().replace(" ", "")
        try:
            if s.endswith("%") and device_bytes is not None:
                frac = float(s[:-1])
                if not 0 <= frac <= 100:
                    raise ValueError
                n = int(device_bytes * frac / 100)
            else:
                i = len(s)
                while i and not (s[i - 1].isdigit() or s[i - 1] == "."):
                    i -= 1
                n = int(float(s[:i]) * _SIZE_SUFFIX[s[i:]])
        except (ValueError, KeyError, OverflowError):
            pct = ", a percentage of device memory like '25%'" if device_bytes else ""
            raise ValueError(f"{argname}: cannot read a size from {value!r}; use bytes, a "
                             f"suffix like '512MiB' or '2GB'{pct}") from None
    if n < 0:
        raise ValueError(f"{argname}: must be >= 0, got {value!r}")
    if n >= 1 << 63:
        raise ValueError(f"{argname}: {value!r} is too large (at most 2**63 - 1 bytes)")
    return n


def _env_size(name, default, device_bytes):
    v = os.environ.get(name, "").strip()
    return parse_size(v if v else default, name, device_bytes)


ctypedef struct _Block:
    intptr_t ptr
    size_t size
    _Block* prev          # address neighbours in the segment; NULL at its ends
    _Block* next
    _Block* fprev         # the bin's list, while free
    _Block* fnext
    int bin               # bin index while free, -1 while allocated
    int kind              # 0: a small segment, 1: a large one


cdef inline size_t _round_size(size_t n) noexcept nogil:
    """The size class of an n-byte request (n <= _MAX_REQUEST)."""
    cdef size_t step
    if n <= _SMALL_MAX:
        return ((n + _UNIT - 1) & ~(<size_t>_UNIT - 1)) if n else _UNIT
    step = (<size_t>1) << (60 - __builtin_clzll(n))      # 1/8 of n's power of two
    return (n + step - 1) & ~(step - 1)


cdef inline int _bin_of(size_t s) noexcept nogil:
    """The bin of a free block of s bytes: the largest size class <= s."""
    cdef int e
    if s <= _SMALL_MAX:
        return <int>(s >> 9) - 1
    e = 63 - __builtin_clzll(s)
    return 2047 + (e - 20) * 8 + <int>((s >> (e - 3)) & 7)


# The CPU sanitizer's registry of allocations (Note [CPU sanitizer]): filled while
# ga_san_on (set by _debug_cpu_sanitize in _launch.pxi).
cdef extern from "_san_registry.h":
    int ga_san_on
    intptr_t ga_san_lookup_address()
    int ga_san_insert(void* s, size_t base, size_t length, size_t cap)
    void ga_san_remove(void* s, size_t base)
    void ga_san_clear()
    void* ga_san_allocs_ptr "(&ga_san_allocs)"
    void* ga_san_segments_ptr "(&ga_san_segments)"
    int ga_stub_on
    void ga_stub_clear()
    void* ga_stub_allocs_ptr "(&ga_stub_allocs)"
    ctypedef struct ga_san_range:
        size_t base
        size_t len
        size_t cap
    const ga_san_range* ga_san_find(void* s, size_t p)


cdef intptr_t _cpu_raw_alloc(size_t nbytes) except? 0:
    """A CPU segment: mmap for large ones (munmap gives the pages back to the OS),
    aligned_alloc for the rest; registered with the sanitizer while it is on."""
    cdef void* p
    if nbytes >= _SMALL_MAX:
        p = mmap(NULL, nbytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if p == MAP_FAILED:
            raise MemoryError()
        if nbytes >= _HUGE_MIN:
            # transparent huge pages where the system gives them on request (its
            # "madvise" mode, as NumPy asks for its large arrays): a stream over 32 MiB
            # of 4 KiB pages ran at two thirds of the speed (TLB misses)
            madvise(p, nbytes, MADV_HUGEPAGE)
    else:
        p = aligned_alloc(_UNIT, nbytes)
        if p == NULL:
            raise MemoryError()
    if ga_san_on:
        ga_san_insert(ga_san_segments_ptr, <size_t>p, nbytes, nbytes)
    return <intptr_t>p


cdef void _cpu_raw_free(intptr_t p, size_t nbytes) noexcept:
    ga_san_remove(ga_san_segments_ptr, <size_t>p)
    if nbytes >= _SMALL_MAX:
        munmap(<void*>p, nbytes)
    else:
        free(<void*>p)
