# Note [ndarray layout]
# ~~~~~~~~~~~~~~~~~~~~~
# 1. Shape and strides (in bytes, as NumPy) are C arrays inside the object: a view
#    costs one allocation.  ``_ptr`` is the address of element 0 on the array's
#    device (a device pointer for GPUs), so a view only moves ``_ptr``.
# 2. Ownership: an array that allocated its memory holds ``_pool`` and returns the
#    block in __dealloc__.  A view holds the owner in ``_base`` (never a chain of
#    views); an array wrapping foreign memory (a NumPy array, a DLPack capsule)
#    holds the exporter in ``_base`` and no pool.
# 3. ``_flags`` caches C/F contiguity; every constructor of shape/strides calls
#    _update_flags.  READONLY is inherited by views.
# 4. Note [Checked sizes]: a shape that does not come from an existing array (a
#    constructor, reshape, broadcast, a DLPack import) passes _checked_size (_shape.pxi), which
#    raises NumPy's ValueError when its bytes overflow a Py_ssize_t.  Views of a checked
#    array cannot grow it, so sizes, offsets and strides never wrap.
# 5. A bare ``ndarray.__new__(ndarray)`` (which Python code can make) is a valid empty
#    float64 array on the CPU device: __cinit__ fills the fields every constructor
#    overwrites, so no operation meets a NULL dtype or device.
# 6. Up to MAX_NDIM (64, NumPy 2's limit) axes.  ``_shape``/``_strides`` point into the
#    object's own ``_dims`` for up to _INLINE_NDIM (23) axes, the common case (no
#    allocation, and the object stays a pymalloc block of 496 bytes, as it was with 24
#    inline axes and no pointers); an array of more axes gets room for
#    MAX_NDIM on the heap (_reserve_nd, called by every constructor before it writes
#    its axes).  A launch carries at most _KERNEL_NDIM axes after collapsing
#    (ga::Strided<N>): the iterator walks the leading axes past that on the host, one
#    launch per index (_split_outer, _iter_launch); reductions and scans of a
#    non-contiguous array of more than _KERNEL_NDIM axes reduce a contiguous copy; what
#    still does not fit (tril/triu, reductions alternating kept and reduced axes more
#    than 24 times, user kernels) is a NotImplementedError naming the case.

cdef enum:
    MAX_NDIM = 64         # NumPy 2's NPY_MAXDIMS (Note [ndarray layout], 6)
    _INLINE_NDIM = 23     # axes kept inside the ndarray (496 bytes: a pymalloc block)
    _KERNEL_NDIM = 24     # axes a launch's ga::Strided<N> carries (GA_MAX_NDIM, indexer.h)
    FLAG_C = 1
    FLAG_F = 2
    FLAG_READONLY = 4

cdef object _dtype_cache = {}

cdef object _norm_dtype(object dtype):
    cdef object d
    try:
        d = _dtype_cache.get(dtype)
    except TypeError:
        return _register_time(_dtypes.normalize_dtype(dtype))
    if d is None:
        d = _register_time(_dtypes.normalize_dtype(dtype))
        if isinstance(dtype, (type, str, numpy.dtype)):
            # only spellings: a NumPy scalar taken as its dtype (float32(1.0)) equals and
            # hashes as 1, True and 1.0
            _dtype_cache[dtype] = d
    return d

cdef object _code_of = {}
cdef set _time_dtypes = set()    # the time dtypes in _code_of (_time.pxi)

cdef inline int _dtype_code(object dt) except -1:
    return _code_of[dt]


cdef object _ctx_device = _devmod._current
cdef object _default_dev = None
cdef object _cpu_device = None
cdef MemoryPool _cpu_pool = None

cdef inline object _resolve_device(object device):
    global _default_dev
    if device is None:
        d = cvar_get_value(_ctx_device, None)
        if d is not None:
            return d
        if _default_dev is None:
            _default_dev = _devmod.default_device()
        return _default_dev
    if type(device) is Device:
        return device
    return _devmod.get_device(device)


cdef inline MemoryPool _pool_of(object device):
    global _cpu_device, _cpu_pool
    if device is _cpu_device:
        return _cpu_pool
    if _n_deferred:
        _release_deferred()            # blocks that waited for other streams
    if _streams_on and device.kind != "cpu":
        e = _stream_entry(device)      # the current stream's pool (Note [Current streams])
        if e is not None:
            return <MemoryPool>(<tuple>e)[1]
    pool = device.pool
    if device.kind == "cpu":
        _cpu_device, _cpu_pool = device, pool
    return pool


cdef class _Flags:
    """Array flags: c_contiguous, f_contiguous, owndata, writeable (NumPy names);
    ``writeable`` can be set, as ``x.setflags(write=...)``."""
    cdef readonly bint c_contiguous, f_contiguous, owndata
    cdef ndarray _a

    @property
    def writeable(self):
        return (self._a._flags & FLAG_READONLY) == 0

    @writeable.setter
    def writeable(self, value):
        self._a.setflags(write=value)

    def __getitem__(self, key):
        k = str(key).upper()
        if k in ("C_CONTIGUOUS", "C", "CONTIGUOUS"):
            return self.c_contiguous
        if k in ("F_CONTIGUOUS", "F", "FORTRAN"):
            return self.f_contiguous
        if k in ("OWNDATA", "O"):
            return self.owndata
        if k in ("WRITEABLE", "W"):
            return self.writeable
        raise KeyError(f"unknown flag {key!r}")

    def __setitem__(self, key, value):
        if str(key).upper() not in ("WRITEABLE", "W"):
            raise KeyError(f"flag {key!r} cannot be set")
        self.writeable = value

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  OWNDATA : {self.owndata}\n  WRITEABLE : {self.writeable}")


cdef class _HostBuffer:
    """Exposes CPU-device memory to NumPy through __array_interface__ (keeps it alive)."""
    cdef readonly object array
    cdef dict _iface

    @property
    def __array_interface__(self):
        return self._iface


@cython.no_gc
cdef class ndarray(_ArrayOperators):
    """An N-dimensional array on a garray device (AMD GPU, NVIDIA GPU or CPU).

    Create arrays with ``garray.asarray``, ``garray.empty``, ``garray.zeros`` ...;
    ``garray.ndarray(shape, dtype=float64, order=None, device=None)`` allocates
    uninitialised memory like ``numpy.ndarray``.  Basic indexing and reshape return
    views.  Python classes may derive from it (Note [Subclasses], _array_methods.pxi).

    See also numpy.ndarray.
    """
    cdef int _nd
    cdef int _flags
    cdef int _code
    cdef Py_ssize_t _itemsize
    cdef Py_ssize_t _size
    cdef intptr_t _ptr
    cdef Py_ssize_t* _shape          # _dims, or room for MAX_NDIM axes on the heap
    cdef Py_ssize_t* _strides
    cdef Py_ssize_t _dims[2 * _INLINE_NDIM]
    cdef object _dtype
    cdef object _device
    cdef object _base
    cdef MemoryPool _pool
    cdef intptr_t _alloc_ptr
    cdef size_t _alloc_size
    cdef bint _is_cpu

    def __cinit__(self, *args, **kwargs):
        self._shape = self._dims
        self._strides = self._dims + _INLINE_NDIM
        self._nd = 1            # Note [ndarray layout] 5: shape (0,), float64, CPU
        self._dtype = _float64
        self._code = 10         # float64
        self._itemsize = 8
        self._flags = FLAG_C | FLAG_F
        self._device = _bare_device
        self._is_cpu = True

    def __init__(self, *args, **kwargs):
        # NumPy's signature: ndarray(shape, dtype=None, buffer=None, offset=0,
        # strides=None, order=None, *, device=None) (_ndarray_init)
        if self._pool is not None or self._base is not None:
            if type(self) is not ndarray:
                # A subclass's __new__ made it (NumPy's pattern: ``asarray(data).view(cls)``);
                # Python then calls __init__ with __new__'s arguments, which NumPy ignores.
                return
            raise TypeError("ndarray.__init__: the array is already initialised")
        _ndarray_init(self, *args, **kwargs)

    def __array_finalize__(self, obj):
        """Called on a new instance of a subclass (NumPy's hook); nothing to do here."""

    def __dealloc__(self):
        if self._shape != self._dims:
            free(self._shape)
        if self._pool is not None:
            if ga_san_on:
                ga_san_remove(ga_san_allocs_ptr, <size_t>self._alloc_ptr)
            if ga_stub_on:
                ga_san_remove(ga_stub_allocs_ptr, <size_t>self._alloc_ptr)
            if _n_recorded and _defer_release(self):
                return              # used on other streams: released after them
            self._pool.release(self._alloc_ptr, self._alloc_size)

    # ---- metadata -------------------------------------------------------------
    @property
    def shape(self):
        """Tuple of dimension sizes."""
        return _shape_tuple(self._shape, self._nd)

    @property
    def strides(self):
        """Tuple of byte steps per dimension (NumPy convention)."""
        return _shape_tuple(self._strides, self._nd)

    @property
    def ndim(self):
        return self._nd

    @property
    def size(self):
        return self._size

    @property
    def itemsize(self):
        return self._itemsize

    @property
    def nbytes(self):
        return self._size * self._itemsize

    @property
    def dtype(self):
        return self._dtype

    @property
    def real(self):
        """The real part (a view for complex arrays). See also numpy.ndarray.real."""
        return _keep_type(self, _component(self, False))

    @real.setter
    def real(self, value):
        _component(self, False)[...] = value

    @property
    def imag(self):
        """The imaginary part (a view for complex arrays; read-only zeros for real ones).
        See also numpy.ndarray.imag."""
        return _keep_type(self, _component(self, True))

    @imag.setter
    def imag(self, value):
        if not _is_complex_code(self._code):
            raise TypeError("array does not have imaginary part to set")
        _component(self, True)[...] = value

    @property
    def device(self):
        """The ``garray.Device`` this array lives on."""
        return self._device

    @property
    def base(self):
        """The array (or foreign exporter) owning the memory of a view; None for owners."""
        return self._base

    @property
    def ptr(self):
        """Address of element 0 on the array's device."""
        return self._ptr

    @property
    def offset(self):
        """Byte offset of element 0 from the start of the owning allocation."""
        cdef ndarray owner
        if self._pool is not None:
            return self._ptr - self._alloc_ptr
        if isinstance(self._base, ndarray):
            owner = <ndarray>self._base
            if owner._pool is not None:
                return self._ptr - owner._alloc_ptr
        return 0

    @property
    def flags(self):
        cdef _Flags f = _Flags.__new__(_Flags)
        f.c_contiguous = (self._flags & FLAG_C) != 0
        f.f_contiguous = (self._flags & FLAG_F) != 0
        f.owndata = self._base is None
        f._a = self
        return f

    def setflags(self, write=None, align=None, uic=None):
        """Make the array read-only (``write=False``) or writeable again (NumPy's rule:
        only when its memory is writeable and no two elements share it, so never a
        broadcast view).  ``align`` and ``uic`` are accepted for NumPy's signature.

        Parameters
        ----------
        write : bool, optional
            Writeable or not.
        align : bool, optional
            Accepted for NumPy's signature.
        uic : bool, optional
            Accepted for NumPy's signature.

        Returns
        -------
        None
        """
        if uic:
            raise ValueError("setflags: cannot set WRITEBACKIFCOPY flag to True")
        if write is None:
            return
        if not write:
            self._flags |= FLAG_READONLY
            return
        if self._flags & FLAG_READONLY and not _may_be_writeable(self):
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        self._flags &= ~FLAG_READONLY

    @property
    def T(self):
        """The array with its axes reversed (a view). See also numpy.ndarray.T."""
        cdef int i
        cdef ndarray r = _view(self)
        _reserve_nd(r, self._nd)
        r._nd = self._nd
        for i in range(self._nd):
            r._shape[i] = self._shape[self._nd - 1 - i]
            r._strides[i] = self._strides[self._nd - 1 - i]
        _update_flags(r)
        return r if type(self) is ndarray else _keep_type(self, r)

    @property
    def mT(self):
        """The last two axes swapped (a view); needs ndim >= 2."""
        if self._nd < 2:
            raise ValueError(f"mT: array must have at least 2 dimensions, got {self._nd}")
        cdef ndarray r = _view_same(self)
        cdef int a = self._nd - 2, b = self._nd - 1
        r._shape[a], r._shape[b] = self._shape[b], self._shape[a]
        r._strides[a], r._strides[b] = self._strides[b], self._strides[a]
        _update_flags(r)
        return _keep_type(self, r)

    # ---- views and shape ---------------------------------------------------------
    def __getitem__(self, key):
        if (type(key) is ndarray and 1 <= (<ndarray>key)._code <= 8 and self._nd
                and (<ndarray>key)._nd and (<ndarray>key)._device is self._device):
            r = _take_first(self, <ndarray>key)     # x[idx]: no key to parse
            return r if type(self) is ndarray else _keep_type(self, r)
        if type(key) is int and self._nd:
            r = _int_index(self, key)               # x[i]: one axis dropped
            return r if type(self) is ndarray else _keep_type(self, r)
        if type(key) is slice and self._nd:
            r = _slice_index(self, key)             # x[a:b:c]: the first axis narrowed
            return r if type(self) is ndarray else _keep_type(self, r)
        r = _basic_index(self, key)
        if r is None:
            r = _advanced("getitem")(self, key)
        return r if type(self) is ndarray else _keep_type(self, r)

    def __setitem__(self, key, value):
        if self._flags & FLAG_READONLY:
            raise ValueError("assignment destination is read-only")
        if (type(key) is ndarray and (<ndarray>key)._code == _I64 and self._nd
                and (<ndarray>key)._nd and _put_first(self, <ndarray>key, value)):
            return                              # x[idx] = v: no key to parse
        dst = _basic_index(self, key)           # IndexError first, as NumPy
        if dst is None:
            _advanced("setitem")(self, key, value)
            return
        if not _is_pyscalar(value) and _is_element_key(self, key):
            value = _element_value(value, self._dtype)
        _assign(dst, value)

    def fill(self, value):
        """Set every element to the scalar ``value``.

        Parameters
        ----------
        value : scalar
            The value (cast to the array's dtype).

        Returns
        -------
        None
        """
        if self._flags & FLAG_READONLY:
            raise ValueError("assignment destination is read-only")
        _assign(self, value)

    # ---- transfers -----------------------------------------------------------------
    def to_device(self, device, /, *, stream=None):
        """This array on ``device`` (the same array when it is already there).

        Parameters
        ----------
        device : Device or str
            The target device.
        stream : Stream or int, optional
            A stream of the target device that the copy is queued on (default: its
            current stream).

        Returns
        -------
        ndarray
            On device (this array itself when it is already there).
        """
        dev = _resolve_device(device)
        if stream is None:
            return self if dev is self._device else _transfer(self, dev)
        with _stream_scope(stream, dev):          # checks stream even when no copy is made
            return self if dev is self._device else _transfer(self, dev)

    def __array__(self, dtype=None, copy=None):
        _check_copy(copy)
        if not self._is_cpu:
            mode = _implicit_transfer[0]
            if mode == "raise":
                raise TypeError(
                    f"implicit conversion of a garray array on {self._device} to a NumPy "
                    "array is disabled (GARRAY_IMPLICIT_TRANSFER=raise); use "
                    "garray.asnumpy(x) or x.get() to copy it to the host explicitly")
            if copy is False:
                raise ValueError(f"__array__: copy=False is impossible for an array on "
                                 f"{self._device}; the data must be copied to the host")
            if mode == "warn":
                import warnings
                warnings.warn(f"implicit transfer of a {self.shape} array from "
                              f"{self._device} to the host", stacklevel=2)
            h = _to_numpy(self, True)
            return h if dtype is None else h.astype(dtype, copy=False)
        h = _host_view(self)
        if dtype is not None and numpy.dtype(dtype) != self._dtype:
            if copy is False:
                raise ValueError("__array__: copy=False is impossible with a dtype change")
            return h.astype(dtype)
        if copy:
            return h.copy()
        return h

    # Above NumPy's 0.0, as CuPy's 100: Dask picks the chunk library of a mixed pair by
    # it (dask.array.routines._tensordot reads it without a default).
    __array_priority__ = 100

    def __array_function__(self, func, types, args, kwargs):
        # numpy.<f>(..., garray arrays ...) runs garray.<f> (Note [NumPy protocols] in
        # garray/_protocols.py); a function garray lacks is a TypeError naming it.
        return _protomod.array_function(self, func, types, args, kwargs)

    def __reduce__(self):
        return (_rebuild, (_to_numpy(self, True), str(self._device)))

    def __array_namespace__(self, *, api_version=None):
        if api_version is not None and api_version not in (
                "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
            raise ValueError(f"api_version: garray does not support {api_version!r}")
        import garray
        return garray

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if _labelled(self):     # NumPy's rule: DLPack has no time types
            raise BufferError(f"DLPack only supports signed/unsigned integers, float and "
                              f"complex dtypes, not {self._dtype}")
        return _to_dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        return _dlpack_device(self)

    # ---- Python protocols ----------------------------------------------------------
    def __len__(self):
        if self._nd == 0:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        if self._nd == 0:
            raise TypeError("iteration over a 0-d array")
        return (_basic_index(self, i) for i in range(self._shape[0]))

    def __bool__(self):
        if self._size != 1:
            if self._size == 0:
                raise ValueError("The truth value of an empty array is ambiguous")
            raise ValueError("The truth value of an array with more than one element is "
                             "ambiguous. Use a.any() or a.all()")
        return bool(_item(self))

    def __int__(self):
        _need_one(self, "int")
        v = _item(self)
        if isinstance(v, complex):
            raise TypeError("int() argument must not be a complex array")
        return int(v)

    def __float__(self):
        _need_one(self, "float")
        v = _item(self)
        if isinstance(v, complex):
            raise TypeError("float() argument must not be a complex array")
        return float(v)

    def __complex__(self):
        _need_one(self, "complex")
        return complex(_item(self))

    def __index__(self):
        if self._code < 1 or self._code > 8:
            raise TypeError(f"only integer arrays can be used as an index, not {self._dtype}")
        if self._nd != 0:               # NumPy: a 1-element 1-d array is not an index
            raise TypeError(f"only integer scalar arrays can be converted to a scalar "
                            f"index (got shape {self.shape})")
        return int(_item(self))

    def item(self, *args):
        """One element as a Python scalar: the only one, ``item(flat_index)`` or
        ``item(i, j, ...)``.

        Parameters
        ----------
        *args : int
            None (a one-element array), a flat index, or one index per axis.

        Returns
        -------
        bool, int, float or complex
            A Python scalar (host copy).

        See Also
        --------
        numpy.ndarray.item
        """
        return _item_method(self, args)

    def tolist(self):
        """The values as nested Python lists (host copy).

        Returns
        -------
        list or scalar
            Nested lists of Python scalars (a scalar for 0-d).

        See Also
        --------
        numpy.ndarray.tolist
        """
        return _to_numpy(self, True).tolist()

    def tobytes(self, order="C"):
        """The raw bytes of the values in C or F order ('A': F for an F-contiguous
        array).

        Parameters
        ----------
        order : {'C', 'F', 'A'}, optional
            The order of the elements.

        Returns
        -------
        bytes

        See Also
        --------
        numpy.ndarray.tobytes
        """
        return _tobytes_method(self, order)

    # The operators come from the op table: cython/_operators.pxi (_ArrayOperators).

    def __repr__(self):
        return _format(self, True)

    def __str__(self):
        return _format(self, False)

    def __format__(self, spec):
        if self._nd == 0 and spec:
            return format(_item(self), spec)
        return str(self)

    def __copy__(self):
        return _copy_array(self)

    def __deepcopy__(self, memo):
        return _copy_array(self)
