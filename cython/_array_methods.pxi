# NumPy's ndarray methods that take more than a line: the constructor, view(dtype,
# type), item(*index), tobytes(order), astype(order, casting), real/imag, repr under
# garray's print options, and subclasses (class A(garray.ndarray)).
# The ndarray class (_ndarray.pxi) holds one-line methods that call these.
#
# Note [Subclasses]
# ~~~~~~~~~~~~~~~~~
# 1. ``class A(garray.ndarray)`` works as NumPy's: ``A(shape)`` allocates and calls
#    ``__array_finalize__(None)``; ``x.view(A)`` gives an A sharing x's memory and
#    calls ``__array_finalize__(x)``.
# 2. The methods that make a view or a copy of an instance of A (indexing, reshape, T,
#    mT, transpose, ravel, flatten, squeeze, swapaxes, copy, astype, view) return an A,
#    finalized from the instance, as NumPy does.  ufuncs, operators, reductions and the
#    module functions return a plain garray.ndarray (NumPy keeps the subclass there
#    through __array_wrap__; garray does not yet).
# 3. A subclass instance is a view of the plain array the method made (_retype), so the
#    memory has one owner and no ownership moves between objects.

def _ndarray_init(ndarray self, shape, dtype=None, buffer=None, offset=0, strides=None,
                  order=None, *, device=None):
    if buffer is not None or strides is not None or offset:
        raise NotImplementedError("ndarray(buffer=, offset=, strides=): wrapping existing "
                                  "memory is not supported; use garray.asarray")
    cdef int nd = _read_shape(shape, self._shape, "shape", self)
    _init_owner(self, _float64 if dtype is None else _norm_dtype(dtype), nd,
                _resolve_device(device))
    if order is not None:
        _apply_order(self, _order_code(order, ORDER_C, False), None)
    if type(self) is not ndarray:
        self.__array_finalize__(None)


cdef object _retype(ndarray r, type t, object obj):
    """``r`` seen as an instance of subclass ``t`` (a view), finalized from ``obj``."""
    if type(r) is t:
        return r
    cdef ndarray n = ndarray.__new__(t)     # NumPy, too, skips the subclass's __new__
    cdef int i
    n._dtype = r._dtype
    n._code = r._code
    n._itemsize = r._itemsize
    n._device = r._device
    n._is_cpu = r._is_cpu
    n._ptr = r._ptr
    n._base = r if r._pool is not None else r._base
    _reserve_nd(n, r._nd)
    n._nd = r._nd
    for i in range(r._nd):
        n._shape[i] = r._shape[i]
        n._strides[i] = r._strides[i]
    n._size = r._size
    n._flags = r._flags
    n.__array_finalize__(obj)
    return n


cdef inline object _keep_type(ndarray self, object r):
    """The result of a method of ``self``: of self's subclass when it has one."""
    if type(self) is ndarray or not isinstance(r, ndarray):
        return r
    return _retype(<ndarray>r, type(self), self)


cdef str _CASTINGS = "'no', 'equiv', 'safe', 'same_kind', 'unsafe'"


cdef int _check_casting(object src, object dst, object casting) except -1:
    if casting == "unsafe":
        return 0
    if casting not in ("no", "equiv", "safe", "same_kind"):
        if casting == "same_value":
            raise NotImplementedError("astype: casting='same_value' (a check of every value "
                                      "on the device) is not implemented")
        raise ValueError(f"casting: must be one of {_CASTINGS} (got {casting!r})")
    if not _dtypes.can_cast(src, dst, casting=casting):
        raise TypeError(f"astype: cannot cast array data from {src!r} to {dst!r} according "
                        f"to the rule {casting!r}")
    return 0


cdef object _astype_method(ndarray a, object dtype, object order, object casting,
                           object copy, object device):
    """ndarray.astype: NumPy's casting check, the layout of ``order`` ('K': a's)."""
    cdef object dt = _norm_dtype(dtype)
    cdef int code
    _check_casting(a._dtype, dt, casting)
    if order == "K" and (a._flags & FLAG_C):
        return _astype(a, dt, copy, device)
    code = _order_code(order, ORDER_K, True)
    if device is not None and _resolve_device(device) is not a._device:
        a = _transfer(a, _resolve_device(device))
        copy = False                # the transfer was the copy
    if not copy and dt is a._dtype and _has_order(a, _resolve_order(code, a)):
        return a
    return _copy_order(a, code, dt)


cdef object _view_method(ndarray a, object dtype, object type_):
    """ndarray.view(dtype, type): reinterpret the bytes and/or change the class."""
    if type_ is None and isinstance(dtype, type) and issubclass(<type>dtype, ndarray):
        dtype, type_ = None, dtype
    if type_ is not None and not (isinstance(type_, type) and issubclass(<type>type_, ndarray)):
        raise TypeError(f"view: type must be a subclass of garray.ndarray, got {type_!r}")
    cdef ndarray r = _view_same(a) if dtype is None else _view_dtype(a, _norm_dtype(dtype))
    if type_ is None:
        return _keep_type(a, r)
    return _retype(r, <type>type_, a)


cdef ndarray _view_dtype(ndarray a, object dt):
    """a's bytes read as dtype ``dt`` (NumPy's rules: a different itemsize rescales the
    last axis, which must be contiguous)."""
    cdef Py_ssize_t new_isz = dt.itemsize, old_isz = a._itemsize, nbytes, align
    cdef int last = a._nd - 1, i
    cdef ndarray r = _view_same(a)
    r._dtype = dt
    r._code = _code_of[dt]
    r._itemsize = new_isz
    if new_isz != old_isz:
        if a._nd == 0:
            raise ValueError("view: changing the dtype of a 0d array is only supported if "
                             "the itemsize is unchanged")
        if a._size and a._shape[last] != 1 and a._strides[last] != old_isz:
            raise ValueError("view: to change to a dtype of a different size, the last axis "
                             "must be contiguous")
        nbytes = a._shape[last] * old_isz
        if nbytes % new_isz:
            if new_isz > old_isz:
                raise ValueError("view: when changing to a larger dtype, its size must be a "
                                 "divisor of the total size in bytes of the last axis of "
                                 "the array")
            raise ValueError("view: when changing to a smaller dtype, its size must be a "
                             "divisor of the size of original dtype")
        r._shape[last] = nbytes // new_isz
        r._strides[last] = new_isz
    # Kernels index with whole elements and aligned loads: NumPy's unaligned views are
    # refused rather than read wrongly on a GPU.
    align = new_isz // 2 if dt.kind == "c" else new_isz
    if r._size and a._size:
        bad = r._ptr % align != 0
        for i in range(r._nd):
            if r._shape[i] > 1 and r._strides[i] % new_isz:
                bad = True
        if bad:
            raise NotImplementedError(
                f"view: viewing {a._dtype} data at this offset/strides as {dt} gives "
                f"unaligned elements, which garray's kernels do not support")
    _update_flags(r)
    return r


cdef object _item_method(ndarray a, tuple args):
    """ndarray.item(): no index (one element), a flat index, or one index per axis."""
    cdef Py_ssize_t flat, n
    cdef int i
    if not args:
        if a._size != 1:
            raise ValueError("item: can only convert an array of size 1 to a Python scalar")
        return _item(a)
    if len(args) == 1 and isinstance(args[0], tuple):
        args = <tuple>args[0]
    if len(args) == 1 and a._nd != 1:
        flat = _dim(args[0], "item index")
        if flat < 0:
            flat += a._size
        if not 0 <= flat < a._size:
            raise IndexError(f"item: index {args[0]} is out of bounds for size {a._size}")
        idx = [0] * a._nd
        for i in range(a._nd - 1, -1, -1):
            n = a._shape[i]
            idx[i] = flat % n
            flat //= n
        args = tuple(idx)
    if len(args) != a._nd:
        raise ValueError(f"item: incorrect number of indices for array: got {len(args)}, "
                         f"the array has {a._nd} dimensions")
    for i in range(a._nd):
        _dim(args[i], "item index")        # TypeError for floats, as NumPy
    return _item(<ndarray>_basic_index(a, args))


cdef bytes _tobytes_method(ndarray a, object order):
    """The raw bytes in C or F order; the reordering runs on the device, then one copy."""
    cdef int code = _order_code(order, ORDER_C, True)
    if code == ORDER_K:
        raise ValueError(f"order: must be 'C', 'F' or 'A' (got {order!r})")
    code = _resolve_order(code, a) if code == ORDER_A else code
    if code == ORDER_F and a._nd > 1:
        if not (a._flags & FLAG_F):
            a = _copy_order(a, ORDER_F, None)
        a = <ndarray>a.T                     # F order of a is C order of a.T
    if not (a._flags & FLAG_C):
        a = _copy_array(a)
    return _to_numpy(a, False).tobytes()


cdef ndarray _component(ndarray a, bint imag):
    """x.real / x.imag: for complex arrays a view of the float parts (strides unchanged,
    the imaginary part half an element further); for real arrays a view of x and a
    read-only zero array, as NumPy."""
    cdef ndarray r
    if not _is_complex_code(a._code):
        if not imag:
            return _view_same(a)
        r = zeros(a.shape, a._dtype, device=a._device)
        r._flags |= FLAG_READONLY
        return r
    r = _view_same(a)
    r._dtype = _code_dtype[_dtypes.RECORDS[a._code].real]
    r._code = _code_of[r._dtype]
    r._itemsize = a._itemsize // 2
    if imag:
        r._ptr += r._itemsize
    _update_flags(r)
    return r


cdef object _printing = None


cdef object _format(ndarray a, bint is_repr):
    # Host I/O: NumPy's printer under garray's print options (garray/_printing.py).
    global _printing
    if _printing is None:
        from garray import _printing as p
        _printing = p
    s = _printing.format_array(_to_numpy(a, False), is_repr)
    if not is_repr:
        return s
    if a._device is not _devmod.default_device() and s.endswith(")"):
        s = f"{s[:-1]}, device={a._device})"
    return s


# ---- resize, byteswap, fields, host memory (_extra_methods.pxi) ------------------------

# Py_REFCNT(self) inside x.resize(...) when only the caller's name holds x: the name, the
# interpreter's stack entry of the method call and the call's argument (measured, and
# tested by tests/test_ndarray_methods.py both ways).
cdef Py_ssize_t _RESIZE_BASE_REFS = 3


cdef int _resize_in_place(ndarray a, tuple new_shape, bint refcheck,
                          Py_ssize_t refs) except -1:
    """x.resize(*new_shape): NumPy's in-place resize (values kept in memory order, new
    elements zero).  The new block is swapped into ``a``; the old one (or the wrapped
    host memory's exporter) goes with a holder array, freed at once unless views may
    still read it (refcheck=False).  A view of another garray array is refused."""
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef int nd, i
    cdef ndarray n, src
    cdef Py_ssize_t keep, size
    if not new_shape or (len(new_shape) == 1 and new_shape[0] is None):
        return 0                                     # a.resize(): nothing to do
    if len(new_shape) == 1 and type(new_shape[0]) is not int:
        new_shape = tuple(new_shape[0])
    nd = _read_shape(new_shape, shape, "new_shape")
    if not (a._flags & (FLAG_C | FLAG_F)):
        raise ValueError("resize only works on single-segment arrays")
    # NumPy's order: an F-contiguous array keeps F strides, any other C strides
    fortran = not (a._flags & FLAG_C)
    try:
        size = _checked_size(shape, nd, a._itemsize)
    except ValueError as e:           # NumPy's resize: a MemoryError
        raise MemoryError(f"resize: {e}") from None
    if size == a._size:
        _set_layout(a, nd, shape, fortran)          # the same memory, a new shape
        return 0
    if isinstance(a._base, ndarray):
        raise ValueError("cannot resize this array: it does not own its data")
    if refcheck and refs > _RESIZE_BASE_REFS:
        raise ValueError("cannot resize an array that references or is referenced by "
                         "another array in this way. Use the np.resize function or "
                         "refcheck=False")
    n = _new_array(a._dtype, 1, &size, a._device)   # the new block, in memory order
    if size:
        _fill_bytes(n._device, n._ptr, 0, <size_t>(size * n._itemsize))
    keep = min(size, a._size)
    if keep:
        n[:keep] = a.reshape(-1, order="F" if fortran else "C")[:keep]
    # swap the blocks: a takes the new one and layout; n frees the old one
    a._ptr, n._ptr = n._ptr, a._ptr
    a._pool, n._pool = n._pool, a._pool
    a._alloc_ptr, n._alloc_ptr = n._alloc_ptr, a._alloc_ptr
    a._alloc_size, n._alloc_size = n._alloc_size, a._alloc_size
    a._base, n._base = n._base, a._base      # wrapped host memory: n keeps its exporter
    a._size = size
    _set_layout(a, nd, shape, fortran)
    if refs > _RESIZE_BASE_REFS:
        a._base = n          # views made before keep the old block alive through a
    return 0


cdef int _set_layout(ndarray a, int nd, Py_ssize_t* shape, bint fortran) except -1:
    """a (contiguous, of this size) takes ``shape`` with C or F strides over its memory."""
    cdef int i, k
    cdef Py_ssize_t step = a._itemsize
    _reserve_nd(a, nd)
    a._nd = nd
    for k in range(nd):
        i = k if fortran else nd - 1 - k
        a._shape[i] = shape[i]
        a._strides[i] = step
        step *= shape[i]
    _update_flags(a)
    return 0


cdef object _byteswap(ndarray a, bint inplace):
    """x.byteswap(): each element's bytes reversed (each half of a complex one)."""
    cdef Py_ssize_t w = a._itemsize // 2 if _is_complex_code(a._code) else a._itemsize
    if w == 1 or a._size == 0:
        return a if inplace else _copy_array(a)
    if inplace and a._flags & FLAG_READONLY:
        raise ValueError("byteswap: array to be byte-swapped is read-only")
    c = _copy_array(a) if not (a._flags & FLAG_C) else a
    u = c.reshape(-1).view(_code_dtype[_U8]).reshape(a._size * a._itemsize // w, w)
    r = u[:, ::-1].copy().reshape(-1).view(a._dtype).reshape(a.shape)
    if not inplace:
        return r
    a[...] = r
    return a


cdef ndarray _field_view(ndarray a, object dtype, object offset):
    """x.getfield(dtype, offset): each element's bytes from ``offset`` as ``dtype`` (a
    view, a's shape and strides)."""
    dt = _norm_dtype(dtype)
    off = _dim(offset, "offset")
    if off < 0:
        raise ValueError(f"getfield: offset is negative ({off})")
    if off + dt.itemsize > a._itemsize:
        raise ValueError(f"getfield: new type plus offset is larger than original type "
                         f"({dt} at offset {off} in {a._dtype})")
    cdef ndarray r = _view_same(a)
    r._dtype = dt
    r._code = _code_of[dt]
    r._itemsize = dt.itemsize
    r._ptr += off
    align = dt.itemsize // 2 if dt.kind == "c" else dt.itemsize
    if r._size and (r._ptr % align or any(
            r._shape[i] > 1 and r._strides[i] % align for i in range(r._nd))):
        raise NotImplementedError(
            f"getfield: {dt} at offset {off} of {a._dtype} elements is unaligned, which "
            f"garray's kernels do not read")
    _update_flags(r)
    return r


class NotHostMemoryError(BufferError, AttributeError):
    """x.data / x.ctypes of an array on a GPU: a BufferError, and an AttributeError so that
    ``hasattr(x, "ctypes")`` and ``getattr(x, "data", None)`` probe it as absent."""


cdef object _host_memory(ndarray a, str what):
    """A NumPy array over a CPU-device array's memory, for x.data and x.ctypes."""
    if not a._is_cpu:
        raise NotHostMemoryError(f"ndarray.{what}: the array lives on {a._device}, whose memory "
                          f"the host cannot address; copy it with garray.asnumpy(x) (or "
                          f"share it with DLPack) first")
    return _host_view(a)
