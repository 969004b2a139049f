# Note [Basic indexing]
# ~~~~~~~~~~~~~~~~~~~~~
# 1. The key becomes a tuple of ints, slices, Ellipsis and None (0-d integer arrays
#    and NumPy integers count as ints through __index__).
# 2. One pass counts the axes the key consumes, so the Ellipsis expands to the rest;
#    a second pass builds the view's shape/strides and moves the data pointer.
# 3. Out-of-range integers raise IndexError (garray never wraps silently), a zero
#    slice step ValueError, too many indices IndexError, as NumPy does.
# 4. A key holding an integer or boolean array, a list or a bool (advanced indexing)
#    makes _basic_index return None; the caller hands it to garray/_index/advanced.py, which
#    runs the gather/scatter kernels (cython/_gather.pxi).
from cpython.slice cimport PySlice_Unpack, PySlice_AdjustIndices

cdef object _ellipsis = Ellipsis


cdef inline bint _is_int_key(object k):
    """An integer index: int, NumPy integers, or any object with __index__ (as NumPy
    takes them); bools and arrays are not (boolean and advanced indexing)."""
    return type(k) is int or (
        not isinstance(k, (bool, numpy.bool_, ndarray, numpy.ndarray)) and
        (isinstance(k, (int, numpy.integer)) or hasattr(type(k), "__index__")))


cdef ndarray _basic_index(ndarray a, object key):
    cdef ndarray r
    cdef Py_ssize_t n, idx
    cdef int consumed = 0, i, ax = 0, out = 0, n_ell = 0
    cdef tuple keys
    if type(key) is tuple:
        keys = <tuple>key
    else:
        keys = (key,)
    for k in keys:
        if k is None:
            continue
        if k is _ellipsis:
            n_ell += 1
            continue
        if type(k) is slice:
            consumed += 1
            continue
        if _is_int_key(k):
            try:                    # every integer is read before any slice is applied,
                idx = k if type(k) is int else operator.index(k)    # as NumPy does
            except OverflowError:
                raise IndexError(f"index {operator.index(k)} is out of bounds for axis "
                                 f"{consumed} (beyond the largest index)") from None
            consumed += 1
            continue
        if isinstance(k, ndarray) and (<ndarray>k)._nd == 0 and 1 <= (<ndarray>k)._code <= 8:
            consumed += 1
            continue
        if _is_advanced_key(k):
            return None
        _bad_key(k)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consumed > a._nd:
        raise IndexError(f"too many indices for array: array is {a._nd}-dimensional, "
                         f"but {consumed} were indexed")
    if a._nd - consumed + len(keys) - n_ell > MAX_NDIM:
        raise IndexError(f"the index makes more than {MAX_NDIM} dimensions")
    r = _view(a)
    _reserve_nd(r, a._nd - consumed + len(keys) - n_ell)
    for k in keys:
        if type(k) is slice:
            _slice_axis(r, out, a, ax, k)
            out += 1
            ax += 1
        elif k is None:
            r._shape[out] = 1
            r._strides[out] = 0
            out += 1
        elif k is _ellipsis:
            for i in range(a._nd - consumed):
                r._shape[out] = a._shape[ax]
                r._strides[out] = a._strides[ax]
                out += 1
                ax += 1
        else:
            n = a._shape[ax]
            try:
                idx = k if type(k) is int else operator.index(k)
            except OverflowError:           # beyond Py_ssize_t: out of range all the same
                raise IndexError(f"index {operator.index(k)} is out of bounds for axis "
                                 f"{ax} with size {n}") from None
            if idx < -n or idx >= n:
                raise IndexError(f"index {idx} is out of bounds for axis {ax} with size {n}")
            if idx < 0:
                idx += n
            r._ptr += idx * a._strides[ax]
            ax += 1
    while ax < a._nd:
        r._shape[out] = a._shape[ax]
        r._strides[out] = a._strides[ax]
        out += 1
        ax += 1
    r._nd = out
    _update_flags(r)
    return r


cdef ndarray _int_index(ndarray a, object key):
    """a[i] for a Python int i: the view without the first axis (_basic_index's result
    for that key, without parsing it)."""
    cdef Py_ssize_t n = a._shape[0], idx
    cdef ndarray r
    cdef int i
    try:
        idx = PyLong_AsSsize_t(key)
    except OverflowError:           # beyond Py_ssize_t: out of range all the same
        raise IndexError(f"index {key} is out of bounds for axis 0 with size {n}") from None
    if idx < -n or idx >= n:
        raise IndexError(f"index {idx} is out of bounds for axis 0 with size {n}")
    if idx < 0:
        idx += n
    r = _view(a)
    _reserve_nd(r, a._nd - 1)
    for i in range(1, a._nd):
        r._shape[i - 1] = a._shape[i]
        r._strides[i - 1] = a._strides[i]
    r._ptr += idx * a._strides[0]
    r._nd = a._nd - 1
    _update_flags(r)
    return r


cdef int _slice_axis(ndarray r, int out, ndarray a, int ax, object k) except -1:
    """Axis `out` of the view r: axis `ax` of a narrowed by the slice k."""
    cdef Py_ssize_t start, stop, step, n
    if PySlice_Unpack(k, &start, &stop, &step) < 0:
        raise
    if step == 0:
        raise ValueError("slice step cannot be zero")
    n = PySlice_AdjustIndices(a._shape[ax], &start, &stop, step)
    if n:
        r._ptr += start * a._strides[ax]
    r._shape[out] = n
    r._strides[out] = a._strides[ax] * step
    return 0


cdef ndarray _slice_index(ndarray a, object key):
    """a[s] for a slice s: the view along the first axis (_basic_index's result for that
    key, without building a key tuple and walking it)."""
    cdef ndarray r = _view(a)
    cdef int i
    _reserve_nd(r, a._nd)
    _slice_axis(r, 0, a, 0, key)
    for i in range(1, a._nd):
        r._shape[i] = a._shape[i]
        r._strides[i] = a._strides[i]
    r._nd = a._nd
    _update_flags(r)
    return r


cdef object _indexing_mod = None


cdef object _advanced(str name):
    """garray/_index/advanced.py's getitem or setitem (imported on first use)."""
    global _indexing_mod
    if _indexing_mod is None:
        from garray._index import advanced as _indexing
        _indexing_mod = _indexing
    return getattr(_indexing_mod, name)


cdef inline bint _is_advanced_key(object k):
    """An index entry of advanced indexing: an array (garray or NumPy), a list or a
    nested tuple (read as arrays), or a bool."""
    return isinstance(k, (ndarray, numpy.ndarray, list, tuple, bool, numpy.bool_))


cdef int _bad_key(object k) except -1:
    raise IndexError(f"only integers, slices (`:`), ellipsis (`...`) and None are valid "
                     f"indices, got {type(k).__name__}")
