# Shapes: reading them from user input with checked sizes, and manipulation as views:
# reshape (NumPy's no-copy rule), permute_dims, broadcast_to, squeeze, expand_dims.

# ---- shapes from user input: checked sizes (Note [Checked sizes]) ---------------------

cdef extern from *:
    Py_ssize_t PY_SSIZE_T_MAX
    bint _mul_overflow "__builtin_mul_overflow"(Py_ssize_t, Py_ssize_t, Py_ssize_t*) nogil

_TOO_BIG = ("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
            "possible size")


cdef Py_ssize_t _checked_size(const Py_ssize_t* shape, int nd, Py_ssize_t itemsize) except -1:
    """The element count of ``shape``; ValueError (NumPy's) when the bytes of the nonzero
    dimensions do not fit a Py_ssize_t, so no size, offset or stride derived from a
    shape can wrap.  Every place that makes a shape not taken from an existing array
    calls this (Note [Checked sizes])."""
    cdef Py_ssize_t nbytes = itemsize if itemsize > 0 else 1
    cdef bint empty = False
    cdef int i
    for i in range(nd):
        if shape[i] == 0:
            empty = True
        elif _mul_overflow(nbytes, shape[i], &nbytes):
            raise ValueError(_TOO_BIG)
    if empty:
        return 0
    return nbytes // (itemsize if itemsize > 0 else 1)


cdef Py_ssize_t _dim(object s, str argname) except? -1:
    """One dimension (or index) given as any integer: TypeError for non-integers,
    ValueError (NumPy's) past the largest Py_ssize_t instead of OverflowError."""
    if isinstance(s, bool) or not hasattr(type(s), "__index__"):
        raise TypeError(f"{argname}: {type(s).__name__!r} object cannot be "
                        f"interpreted as an integer")
    v = operator.index(s)
    if not -PY_SSIZE_T_MAX <= v <= PY_SSIZE_T_MAX:
        raise ValueError(f"{argname}: maximum allowed dimension exceeded ({v})")
    return v


cdef int _read_shape(object shape, Py_ssize_t* out, str argname,
                     ndarray owner=None) except -1:
    """Shape from an int or a sequence of ints into ``out``; returns ndim.  ``owner``:
    ``out`` is that array's own shape, which makes room for the axes first."""
    cdef Py_ssize_t n
    cdef int nd = 0
    if isinstance(shape, int):
        shape = (shape,)
    elif not isinstance(shape, (tuple, list)):
        try:
            shape = (operator.index(shape),)
        except TypeError:
            try:
                shape = tuple(shape)
            except TypeError:
                raise TypeError(f"{argname}: expected an int or a sequence of ints, "
                                f"got {type(shape).__name__}") from None
    if len(shape) > MAX_NDIM:
        raise ValueError(f"{argname}: at most {MAX_NDIM} dimensions are supported, "
                         f"got {len(shape)}")
    if owner is not None and len(shape) > _INLINE_NDIM:
        _reserve_nd(owner, len(shape))
        out = owner._shape
    for s in shape:
        n = _dim(s, argname)
        if n < 0:
            raise ValueError(f"{argname}: negative dimensions are not allowed, got {tuple(shape)}")
        out[nd] = n
        nd += 1
    return nd


cdef int _norm_axis(object axis, int nd, str argname) except -1:
    if isinstance(axis, bool) or not hasattr(type(axis), "__index__"):
        raise TypeError(f"{argname}: expected an integer axis, got {type(axis).__name__}")
    cdef Py_ssize_t a = operator.index(axis)
    if a < -nd or a >= nd:
        from numpy.exceptions import AxisError
        raise AxisError(f"{argname}: axis {a} is out of bounds for array of dimension {nd}")
    return a + nd if a < 0 else a


cdef bint _nocopy_strides(ndarray a, int new_nd, Py_ssize_t* new_shape,
                          Py_ssize_t* new_strides) noexcept:
    """Strides giving ``new_shape`` over a's memory in C order, if such exist.

    NumPy's rule (_attempt_nocopy_reshape): group old and new axes into runs with
    equal element counts; each old run must be contiguous within itself.
    """
    cdef Py_ssize_t od[MAX_NDIM]
    cdef Py_ssize_t os_[MAX_NDIM]
    cdef int oldnd = 0, i, oi, oj, ni, nj, ok, nk
    cdef Py_ssize_t np_, op
    for i in range(a._nd):
        if a._shape[i] != 1:
            od[oldnd] = a._shape[i]
            os_[oldnd] = a._strides[i]
            oldnd += 1
    oi = 0; oj = 1; ni = 0; nj = 1
    while ni < new_nd and oi < oldnd:
        np_ = new_shape[ni]
        op = od[oi]
        while np_ != op:
            if np_ < op:
                np_ *= new_shape[nj]
                nj += 1
            else:
                op *= od[oj]
                oj += 1
        for ok in range(oi, oj - 1):
            if os_[ok] != od[ok + 1] * os_[ok + 1]:
                return False
        new_strides[nj - 1] = os_[oj - 1]
        nk = nj - 1
        while nk > ni:
            new_strides[nk - 1] = new_strides[nk] * new_shape[nk]
            nk -= 1
        ni = nj
        nj += 1
        oi = oj
        oj += 1
    last = new_strides[ni - 1] if ni >= 1 else a._itemsize
    for nk in range(ni, new_nd):
        new_strides[nk] = last
    return True


cdef ndarray _reshape(ndarray a, object shape, object order, object copy):
    cdef Py_ssize_t new_shape[MAX_NDIM]
    cdef Py_ssize_t new_strides[MAX_NDIM]
    cdef int nd, i, unknown = -1
    cdef Py_ssize_t known = 1, v
    cdef ndarray r
    _check_copy(copy)
    if order is not "C" and order == "F":
        return _reshape(a.T, tuple(reversed(_as_tuple(shape))), "C", copy).T
    if order != "C" and order not in ("A", None):
        raise ValueError(f"order: must be 'C' or 'F', got {order!r}")
    if type(shape) is not tuple:
        shape = _as_tuple(shape)
    if len(shape) > MAX_NDIM:
        raise ValueError(f"shape: at most {MAX_NDIM} dimensions are supported")
    nd = 0
    for s in shape:
        v = -2
        if type(s) is int:
            try:
                v = PyLong_AsSsize_t(s)
            except OverflowError:
                pass
        new_shape[nd] = v if v >= -1 else _dim(s, "shape")
        if new_shape[nd] == -1:
            if unknown >= 0:
                raise ValueError("shape: can only specify one unknown dimension")
            unknown = nd
        elif new_shape[nd] < 0:     # the Array API's rule; NumPy takes any negative as -1
            raise ValueError(f"shape: negative dimensions are not allowed, got {tuple(shape)}")
        nd += 1
    if unknown >= 0:
        new_shape[unknown] = 1
    known = _checked_size(new_shape, nd, a._itemsize)
    if unknown >= 0:
        if known == 0 or a._size % known:
            raise ValueError(f"cannot reshape array of size {a._size} into shape "
                             f"{tuple(shape)}")
        new_shape[unknown] = a._size // known
        known *= new_shape[unknown]
    if known != a._size:
        raise ValueError(f"cannot reshape array of size {a._size} into shape {tuple(shape)}")
    if not copy and (a._size == 0 or _nocopy_strides(a, nd, new_shape, new_strides)):
        r = _view(a)
        _reserve_nd(r, nd)
        r._nd = nd
        for i in range(nd):
            r._shape[i] = new_shape[i]
        if a._size == 0:
            _set_c_strides(r)
        else:
            for i in range(nd):
                r._strides[i] = new_strides[i]
        _update_flags(r)
        return r
    if copy is False:
        raise ValueError(f"reshape: copy=False, but a view of shape {tuple(shape)} is "
                         f"impossible for this memory layout; a copy is needed")
    if a._flags & FLAG_C and not copy:
        r = _view(a)
    else:
        r = _copy_array(a)      # a fresh owner: reshaped in place below
    _reserve_nd(r, nd)
    r._nd = nd
    for i in range(nd):
        r._shape[i] = new_shape[i]
    _set_c_strides(r)
    _update_flags(r)
    return r


cdef tuple _as_tuple(object shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


cdef ndarray _permute(ndarray a, object axes):
    cdef ndarray r
    cdef int i, ax
    cdef list seen
    axes = tuple(axes)
    if len(axes) != a._nd:
        raise ValueError(f"axes: {axes} don't match array of dimension {a._nd}")
    seen = [False] * a._nd
    r = _view(a)
    _reserve_nd(r, a._nd)
    r._nd = a._nd
    for i in range(a._nd):
        ax = _norm_axis(axes[i], a._nd, "axes")
        if seen[ax]:
            raise ValueError(f"axes: repeated axis in {axes}")
        seen[ax] = True
        r._shape[i] = a._shape[ax]
        r._strides[i] = a._strides[ax]
    _update_flags(r)
    return r


cdef ndarray _broadcast_view(ndarray a, Py_ssize_t* shape, int nd, str argname):
    """A read-only-safe view of ``a`` broadcast to ``shape`` (0 strides on new axes)."""
    cdef ndarray r
    cdef int i, j
    if a._nd == nd:
        for i in range(nd):
            if a._shape[i] != shape[i]:
                break
        else:
            return a
    if a._nd > nd:
        raise ValueError(f"{argname}: could not broadcast input array from shape "
                         f"{a.shape} into shape {_shape_tuple(shape, nd)}")
    r = _view(a)
    _reserve_nd(r, nd)
    r._nd = nd
    for i in range(nd):
        j = i - (nd - a._nd)
        r._shape[i] = shape[i]
        if j < 0:
            r._strides[i] = 0
        elif a._shape[j] == shape[i]:
            r._strides[i] = a._strides[j]
        elif a._shape[j] == 1:
            r._strides[i] = 0
        else:
            raise ValueError(f"{argname}: could not broadcast input array from shape "
                             f"{a.shape} into shape {_shape_tuple(shape, nd)}")
    _update_flags(r)
    return r


def broadcast_to(x, /, shape):
    """``x`` broadcast to ``shape`` as a read-only view (as NumPy's: its elements
    alias each other).

    Parameters
    ----------
    x : ndarray
        Input array.
    shape : tuple of int
        The target shape.

    Returns
    -------
    ndarray
        A read-only view.

    See Also
    --------
    numpy.broadcast_to
    """
    cdef ndarray a = _array_input(x, "x")
    cdef Py_ssize_t s[MAX_NDIM]
    cdef int nd = _read_shape(shape, s, "shape")
    _checked_size(s, nd, a._itemsize)
    cdef ndarray r = _broadcast_view(a, s, nd, "x")
    if r is a:
        r = _view_same(a)
    r._flags |= FLAG_READONLY
    return r


def broadcast_shapes(*shapes):
    """The shape that ``shapes`` broadcast to (ValueError naming them when impossible).

    Parameters
    ----------
    *shapes : tuple of int
        The shapes.

    Returns
    -------
    tuple of int
    """
    cdef int nd = 0
    try:
        shapes = [(operator.index(s),) if hasattr(s, "__index__") and not isinstance(
                      s, (tuple, list)) and getattr(s, "ndim", 0) == 0
                  else tuple(operator.index(n) for n in s) for s in shapes]
    except TypeError as e:      # a float, a bool array...: NumPy's TypeError
        raise TypeError(f"broadcast_shapes: a shape must be a tuple of integers ({e})") \
            from None
    for s in shapes:
        nd = max(nd, len(s))
    out = [1] * nd
    for s in shapes:
        for i, n in enumerate(s):
            j = nd - len(s) + i
            if n == 1:
                continue
            if out[j] != 1 and out[j] != n:
                raise ValueError(f"shape mismatch: objects cannot be broadcast to a single "
                                 f"shape; shapes {', '.join(map(str, shapes))}")
            out[j] = n
    return tuple(out)


cdef ndarray _squeeze(ndarray a, object axis):
    cdef ndarray r
    cdef int i, out = 0
    if axis is None:
        drop = {i for i in range(a._nd) if a._shape[i] == 1}
    elif a._nd == 0 and not isinstance(axis, (tuple, list)):
        _norm_axis(axis, 1, "axis")     # NumPy: a 0-d array takes axis 0 or -1 alone
        drop = set()
    else:
        axes = (axis,) if not isinstance(axis, (tuple, list)) else axis
        drop = set()
        for ax in axes:
            i = _norm_axis(ax, a._nd, "axis")
            if i in drop:
                raise ValueError("axis: repeated axis")
            if a._shape[i] != 1:
                raise ValueError(f"axis: cannot select an axis to squeeze out which has "
                                 f"size not equal to one (axis {i} has size {a._shape[i]})")
            drop.add(i)
    r = _view(a)
    _reserve_nd(r, a._nd)
    for i in range(a._nd):
        if i not in drop:
            r._shape[out] = a._shape[i]
            r._strides[out] = a._strides[i]
            out += 1
    r._nd = out
    _update_flags(r)
    return r


def permute_dims(x, /, axes):
    """Permute the axes of ``x`` (a view).

    Parameters
    ----------
    x : ndarray
        Input array.
    axes : tuple of int
        The permutation.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.permute_dims
    """
    return _permute(_array_input(x, "x"), axes)


def reshape(x, /, shape, *, copy=None, order="C"):
    """``x`` with a new shape: a view when possible (Array API ``copy=`` semantics).

    Parameters
    ----------
    x : ndarray
        Input array.
    shape : tuple of int
        The new shape (one entry may be -1).
    copy : bool or None, optional
        True: always copy; False: raise ValueError when a view is impossible.
    order : {'C', 'F'}, optional
        The index order.

    Returns
    -------
    ndarray
        A view when possible, else a copy.
    """
    return _reshape(_array_input(x, "x"), shape, order, copy)


def squeeze(x, /, axis=None):
    """``x`` without length-1 axes (a view; ValueError for an axis whose length is not 1).

    Parameters
    ----------
    x : ndarray
        Input array.
    axis : int or tuple of int, optional
        The length-1 axes to remove (all by default).

    Returns
    -------
    ndarray
        A view.
    """
    return _squeeze(_array_input(x, "x"), axis)


def expand_dims(x, /, axis=0):
    """Insert size-1 axes at ``axis`` (an int, or a tuple or list of ints; a view).

    Parameters
    ----------
    x : ndarray
        Input array.
    axis : int or sequence of int, optional
        Where the new axes go.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.expand_dims
    """
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)   # NumPy takes lists
    cdef ndarray arr = _array_input(x, "x")
    cdef int nd = arr._nd + len(axes)
    new = sorted(_norm_axis(a, nd, "axis") for a in axes)
    if len(set(new)) != len(new):
        raise ValueError(f"axis: repeated axis in {axis}")
    key, src = [], 0
    for i in range(nd):
        if i in new:
            key.append(None)
        else:
            key.append(slice(None))
            src += 1
    return _basic_index(arr, tuple(key))
