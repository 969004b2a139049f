# Note [Stub launch annotations]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# The stub GPU drivers check stream order (FAKE_GPU_HAZARDS; their README).  Without help
# they take a kernel to read and write from each pointer in its parameters to the end of
# that pointer's driver allocation: a pool segment, which holds many arrays, so two
# unordered streams touching neighbouring arrays would be reported.  In stub mode only
# (garray/testing/gpu_stub.py turns it on; the product path pays one C int test per GPU
# launch and per allocation):
# 1. The core keeps a registry of every GPU array's allocation (ga_stub_allocs in
#    _san_registry.h, the CPU sanitizer's structure): base, bytes asked, block size.
# 2. Each built-in function handle has its parameters' sizes and kinds, read from the
#    stand-in's CPU build (GA_HOST_PARAM_INFO in cpu_entries.h): 'r' a pointer to const,
#    'x' another pointer, 's' a value.
# 3. Right before the driver launch, every pointer parameter, and every 8-byte word of a
#    value parameter, that lies in a registered allocation gives one annotated range: the
#    whole allocation (a view with negative strides starts past its first byte), 'r' or
#    'x' by the parameter's kind ('x' for words of values).  A word in the driver's arena
#    outside every registered allocation (scratch from malloc_ptr, foreign DLPack memory)
#    leaves the launch to the conservative rule, and is counted.  Null and host words
#    (pinned memory, which the stub does not track) are skipped.
# User kernels are annotated by their own hook (garray/kernels/_raw.py's launch
# observer), which knows their arrays; their handles have no entry here.

ctypedef void (*_stub_annotate_fn)(int, const unsigned long long*, const unsigned long long*,
                                   const char*) noexcept nogil
ctypedef int (*_stub_is_device_fn)(const void*) noexcept nogil

cdef dict _stub_params = {}          # function handle -> (sizes tuple, kinds bytes)
cdef dict _stub_fns = {}             # device kind -> (annotate, is-device-pointer) addresses
cdef unsigned long long _stub_counts[2]     # launches annotated, left to the stub's rule
cdef list _stub_missed = []          # (function handle, address) of the first launches left


def _debug_stub_annotations(dict fns):
    """Test hook (garray/testing/gpu_stub.py): ``fns`` maps a device kind to the stub
    driver's (fake_annotate_next_launch, fake_is_device_ptr) addresses, and turns on the
    registry of GPU allocations and the annotation of built-in launches; an empty dict
    turns them off.  Returns whether they were on."""
    global ga_stub_on
    cdef bint old = ga_stub_on != 0
    _stub_fns.clear()
    _stub_fns.update(fns)
    ga_stub_on = 1 if fns else 0
    if not fns:
        ga_stub_clear()     # releases are no longer recorded
    return old


def _debug_stub_params(intptr_t func, tuple sizes, bytes kinds):
    """Test hook: the parameters of the built-in GPU function ``func`` (sizes in bytes,
    kinds as GA_HOST_PARAM_INFO gives them)."""
    if len(sizes) != len(kinds) or len(sizes) > 64:
        raise ValueError(f"{len(sizes)} sizes and {len(kinds)} kinds (at most 64 each)")
    _stub_params[func] = (sizes, kinds)


def _debug_stub_annotation_counts():
    """(built-in launches annotated, built-in launches left to the stub's conservative
    rule) since the process started, and the (function handle, unregistered address) of
    the first 16 left."""
    return _stub_counts[0], _stub_counts[1], list(_stub_missed)


cdef int _stub_miss(object func, size_t w) except -1:
    _stub_counts[1] += 1
    if len(_stub_missed) < 16:
        _stub_missed.append((int(func), w))
    return 0


cdef int _stub_range(size_t w, char mode, unsigned long long* ptrs, unsigned long long* sizes,
                     char* modes, int* n, _stub_is_device_fn is_dev) noexcept:
    """Add the registered allocation holding address w (0: added, or nothing to add;
    -1: w is device memory garray did not register)."""
    cdef const ga_san_range* r
    cdef int i
    if w < 4096:
        return 0
    r = ga_san_find(ga_stub_allocs_ptr, w)
    if r == NULL:
        return -1 if is_dev(<const void*>w) else 0
    if w - r.base >= r.len:      # an empty array, or one past the end: no bytes touched
        return 0
    for i in range(n[0]):
        if ptrs[i] == r.base:
            if mode != modes[i]:
                modes[i] = c'x'
            return 0
    if n[0] == 64:
        return -1
    ptrs[n[0]], sizes[n[0]], modes[n[0]] = r.base, r.len, mode
    n[0] += 1
    return 0


cdef int _stub_annotate(object dev, object func, void** args) except -1:
    """Annotate the next launch of this thread with the ranges of Note [Stub launch
    annotations], when ``func`` is a built-in function the stub hook described."""
    cdef unsigned long long ptrs[64]
    cdef unsigned long long sizes[64]
    cdef char modes[64]
    cdef int n = 0, i
    cdef size_t off, w
    cdef char kind
    desc = _stub_params.get(int(func))
    fns = _stub_fns.get(dev.kind)
    if desc is None or fns is None:
        return 0
    psizes, kinds = desc
    cdef _stub_is_device_fn is_dev = <_stub_is_device_fn><intptr_t>fns[1]
    for i in range(len(kinds)):
        kind = kinds[i]
        if kind != c's':
            memcpy(&w, args[i], 8)
            if _stub_range(w, kind, ptrs, sizes, modes, &n, is_dev):
                return _stub_miss(func, w)
            continue
        off = 0
        while off + 8 <= <size_t>psizes[i]:
            memcpy(&w, <char*>args[i] + off, 8)
            if _stub_range(w, c'x', ptrs, sizes, modes, &n, is_dev):
                return _stub_miss(func, w)
            off += 8
    (<_stub_annotate_fn><intptr_t>fns[0])(n, ptrs, sizes, modes)
    _stub_counts[0] += 1
    return 0
