# The memory pool's table of allocated blocks by address (included by _memory.pxi).
# Open addressing with linear probing and backward-shift deletion (no tombstones, so
# lookups stay short however many blocks come and go); keys are block addresses, never 0,
# and at least 256-byte aligned, so the low bits are dropped before hashing.

ctypedef struct _PtrMap:
    intptr_t* keys
    void** vals
    int bits              # capacity 2**bits, kept at most half full
    size_t count


cdef inline size_t _pm_slot(intptr_t p, int bits) noexcept nogil:
    return <size_t>(((<uint64_t>p >> 8) * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - bits))


cdef int _pm_init(_PtrMap* m, int bits) except -1:
    m.bits = bits
    m.count = 0
    m.keys = <intptr_t*>calloc(<size_t>1 << bits, sizeof(intptr_t))
    m.vals = <void**>calloc(<size_t>1 << bits, sizeof(void*))
    if m.keys == NULL or m.vals == NULL:
        _pm_free(m)
        raise MemoryError()
    return 0


cdef void _pm_free(_PtrMap* m) noexcept:
    free(m.keys)
    free(m.vals)
    m.keys = NULL
    m.vals = NULL


cdef void* _pm_get(_PtrMap* m, intptr_t p) noexcept:
    cdef size_t mask = (<size_t>1 << m.bits) - 1
    cdef size_t i = _pm_slot(p, m.bits)
    while m.keys[i]:
        if m.keys[i] == p:
            return m.vals[i]
        i = (i + 1) & mask
    return NULL


cdef int _pm_put(_PtrMap* m, intptr_t p, void* v) except -1:
    cdef size_t i, mask
    cdef _PtrMap grown
    if (m.count + 1) * 2 > (<size_t>1 << m.bits):
        _pm_init(&grown, m.bits + 1)     # raises with m untouched
        for i in range(<size_t>1 << m.bits):
            if m.keys[i]:
                _pm_put(&grown, m.keys[i], m.vals[i])
        _pm_free(m)
        m[0] = grown
    mask = (<size_t>1 << m.bits) - 1
    i = _pm_slot(p, m.bits)
    while m.keys[i]:
        i = (i + 1) & mask
    m.keys[i] = p
    m.vals[i] = v
    m.count += 1
    return 0


cdef void _pm_remove(_PtrMap* m, intptr_t p) noexcept:
    cdef size_t mask = (<size_t>1 << m.bits) - 1
    cdef size_t i = _pm_slot(p, m.bits), j, h
    while m.keys[i] != p:
        if not m.keys[i]:
            return
        i = (i + 1) & mask
    j = i
    while True:           # shift back every later entry of the chain whose home is <= i
        j = (j + 1) & mask
        if not m.keys[j]:
            break
        h = _pm_slot(m.keys[j], m.bits)
        if ((j - h) & mask) >= ((j - i) & mask):
            m.keys[i] = m.keys[j]
            m.vals[i] = m.vals[j]
            i = j
    m.keys[i] = 0
    m.count -= 1
