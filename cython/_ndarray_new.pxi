# Making ndarrays and views: owners, strides and flags, _new_array and _view, the
# helpers every launcher calls (inlined: one module, Note in _core.pyx).

cdef inline tuple _shape_tuple(Py_ssize_t* v, int nd):
    cdef int i
    cdef tuple t = PyTuple_New(nd)
    for i in range(nd):
        _tuple_set_new(t, i, PyLong_FromSsize_t(v[i]))   # the tuple takes the new ref
    return t


cdef bint _may_be_writeable(ndarray a):
    """Whether a read-only array may become writeable (NumPy's rule): no element aliases
    another (a zero stride on a longer axis: broadcasts; NumPy allows those), and the
    memory it views is writeable: its own, a writeable garray owner's, or a writeable
    NumPy array's."""
    cdef int i
    if a._size:
        for i in range(a._nd):
            if a._strides[i] == 0 and a._shape[i] > 1:
                return False
    b = a._base
    if isinstance(b, ndarray):
        if (<ndarray>b)._flags & FLAG_READONLY:
            return False
        b = (<ndarray>b)._base
    if b is None:
        return True
    if isinstance(b, numpy.ndarray):
        return b.flags.writeable
    return False            # foreign memory (DLPack) exported read-only


cdef int _update_flags(ndarray a) noexcept:
    """Recompute size and the C/F contiguity flags (NumPy's rules)."""
    cdef int i, nd = a._nd
    cdef Py_ssize_t size = 1, acc
    cdef const Py_ssize_t* shape = a._shape       # once: stores below may alias fields
    cdef const Py_ssize_t* strides = a._strides
    cdef bint c = True, f = True
    cdef int flags = a._flags & FLAG_READONLY
    for i in range(nd):
        size *= shape[i]
    a._size = size
    if size == 0:
        a._flags = flags | FLAG_C | FLAG_F
        return 0
    acc = a._itemsize
    for i in range(nd - 1, -1, -1):
        if shape[i] != 1:
            if strides[i] != acc:
                c = False
                break
            acc *= shape[i]
    acc = a._itemsize
    for i in range(nd):
        if shape[i] != 1:
            if strides[i] != acc:
                f = False
                break
            acc *= shape[i]
    if c:
        flags |= FLAG_C
    if f:
        flags |= FLAG_F
    a._flags = flags
    return 0


cdef int _set_c_strides(ndarray a) noexcept:
    cdef int i
    cdef Py_ssize_t acc = a._itemsize
    cdef const Py_ssize_t* shape = a._shape
    cdef Py_ssize_t* strides = a._strides
    for i in range(a._nd - 1, -1, -1):
        strides[i] = acc
        acc *= shape[i] if shape[i] > 0 else 1
    return 0


cdef int _init_owner(ndarray a, object dtype, int nd, object device) except -1:
    """Fill metadata for a fresh C-contiguous array of a._shape[:nd] and allocate it."""
    cdef int i, code = -1
    cdef Py_ssize_t itemsize
    for i in range(len(_code_dtype)):   # the canonical dtype objects: no hash, no getattr
        if (<tuple>_code_dtype)[i] is dtype:
            code = i
            break
    if code < 0:
        code = _code_of[dtype]
    itemsize = _code_itemsize[code] or dtype.itemsize
    cdef Py_ssize_t size = _checked_size(a._shape, nd, itemsize)
    cdef size_t rounded
    a._nd = nd
    a._dtype = dtype
    a._code = code
    a._itemsize = itemsize
    cdef MemoryPool pool = _pool_of(device)
    a._device = device
    a._is_cpu = device is _cpu_device
    _set_c_strides(a)
    if size == 0:   # NumPy 2.4 gives fresh empty arrays all-zero strides
        for i in range(nd):
            a._strides[i] = 0
    _update_flags(a)
    if ga_san_on and a._is_cpu:
        # the CPU sanitizer: a redzone after the array, so that an access just past
        # its end never lands in the next array (Note [CPU sanitizer], 5)
        a._alloc_ptr = pool.malloc(size * itemsize + 64, &rounded)
        ga_san_insert(ga_san_allocs_ptr, <size_t>a._alloc_ptr, size * itemsize, rounded)
    else:
        a._alloc_ptr = pool.malloc(size * itemsize, &rounded)
        if ga_stub_on and not a._is_cpu:      # the stub hook's registry (_stub_annotate.pxi)
            ga_san_insert(ga_stub_allocs_ptr, <size_t>a._alloc_ptr, size * itemsize, rounded)
    a._alloc_size = rounded
    a._pool = pool
    a._ptr = a._alloc_ptr
    return 0


cdef inline int _reserve_nd(ndarray a, int nd) except -1:
    """Room for ``nd`` axes in a's shape and strides, its first a._nd axes kept (Note
    [ndarray layout], 6): past _INLINE_NDIM, MAX_NDIM axes on the heap, once."""
    if nd <= _INLINE_NDIM or a._shape != a._dims:
        return 0
    return _grow_nd(a, nd)


cdef int _grow_nd(ndarray a, int nd) except -1:
    cdef Py_ssize_t* p
    if nd > MAX_NDIM:
        raise ValueError(f"at most {MAX_NDIM} dimensions are supported, got {nd}")
    p = <Py_ssize_t*>malloc(2 * MAX_NDIM * sizeof(Py_ssize_t))
    if p == NULL:
        raise MemoryError()
    memcpy(p, a._shape, a._nd * sizeof(Py_ssize_t))
    memcpy(p + MAX_NDIM, a._strides, a._nd * sizeof(Py_ssize_t))
    a._shape = p
    a._strides = p + MAX_NDIM
    return 0


cdef ndarray _new_array(object dtype, int nd, Py_ssize_t* shape, object device):
    cdef ndarray a = ndarray.__new__(ndarray)
    cdef int i
    _reserve_nd(a, nd)
    for i in range(nd):
        a._shape[i] = shape[i]
    _init_owner(a, dtype, nd, device)
    return a


cdef ndarray _view(ndarray src):
    """A new array sharing src's memory, dtype and device; the caller sets shape."""
    cdef ndarray r = ndarray.__new__(ndarray)
    r._dtype = src._dtype
    r._code = src._code
    r._itemsize = src._itemsize
    r._device = src._device
    r._is_cpu = src._is_cpu
    r._ptr = src._ptr
    r._flags = src._flags & FLAG_READONLY
    r._base = src if src._pool is not None else src._base
    return r


cdef ndarray _view_same(ndarray src):
    cdef ndarray r = _view(src)
    cdef int i
    _reserve_nd(r, src._nd)
    r._nd = src._nd
    for i in range(src._nd):
        r._shape[i] = src._shape[i]
        r._strides[i] = src._strides[i]
    r._size = src._size
    r._flags = src._flags
    return r


cdef int _need_one(ndarray a, str what) except -1:
    if a._size != 1:
        raise TypeError(f"{what}(): only arrays with one element can be converted to "
                        f"Python scalars, got shape {a.shape}")
    return 0


cdef object _item(ndarray a):
    return _to_numpy(a, False).reshape(()).item() if a._nd else _to_numpy(a, False).item()


def _rebuild(h, device):
    return asarray(h, device=Device(device))


from cpython.tuple cimport PyTuple_New
from cpython.contextvars cimport get_value as cvar_get_value
from cpython.ref cimport Py_INCREF, PyObject

cdef extern from "Python.h":
    PyObject* PyLong_FromSsize_t(Py_ssize_t) except NULL
    void _tuple_set_new "PyTuple_SET_ITEM"(object, Py_ssize_t, PyObject*)
