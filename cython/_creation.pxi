from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_RECORDS_RO

# Creation hot paths: empty, asarray and the fills.  The slower, rarer creation
# functions (arange, linspace, eye, meshgrid, tril/triu) are in garray/_creation/ranges.py.

def empty(shape, dtype=None, order="C", *, device=None):
    """An uninitialised array.

    ``dtype`` and ``order`` may be given by position, as NumPy's; ``order`` is 'C'
    (row-major) or 'F' (column-major: the same memory block, F strides).

    >>> garray.empty((2, 3), garray.float32).shape
    (2, 3)

    Parameters
    ----------
    shape : int or tuple of int
        The shape.
    dtype : dtype, optional
        The dtype (float64 by default).
    order : {'C', 'F'}, optional
        Memory layout.
    device : Device or str, optional
        Where the array lives (the current device by default).

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.empty
    """
    cdef ndarray a = ndarray.__new__(ndarray)
    cdef int nd
    if type(shape) is int and 0 <= <object>shape <= PY_SSIZE_T_MAX:
        a._shape[0] = shape
        nd = 1
    else:
        nd = _read_shape(shape, a._shape, "shape", a)
    _init_owner(a, _float64 if dtype is None else _norm_dtype(dtype), nd,
                _resolve_device(device))
    if order is not "C":        # the default, by identity: no cost on the hot path
        _apply_order(a, _order_code(order, ORDER_C, False), None)
    return a


def zeros(shape, dtype=None, order="C", *, device=None):
    """An array of zeros (``dtype`` and ``order`` as NumPy's).

    Parameters
    ----------
    shape : int or tuple of int
        The shape.
    dtype : dtype, optional
        The dtype (float64 by default).
    order : {'C', 'F'}, optional
        Memory layout.
    device : Device or str, optional
        Where the array lives (the current device by default).

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.zeros
    """
    cdef ndarray a = empty(shape, dtype, order, device=device)
    _zero_fill(a)
    return a


cdef int _zero_fill(ndarray a) except -1:
    """Every byte of a (a new, contiguous array) set to zero on its device."""
    if a._size:
        if a._is_cpu:
            memset(<void*>a._ptr, 0, a._size * a._itemsize)
        else:
            _fill_bytes(a._device, a._ptr, 0, a._size * a._itemsize)
    return 0


def ones(shape, dtype=None, order="C", *, device=None):
    """An array of ones (``dtype`` and ``order`` as NumPy's).

    Parameters
    ----------
    shape : int or tuple of int
        The shape.
    dtype : dtype, optional
        The dtype (float64 by default).
    order : {'C', 'F'}, optional
        Memory layout.
    device : Device or str, optional
        Where the array lives (the current device by default).

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.ones
    """
    cdef ndarray a = empty(shape, dtype, order, device=device)
    _fill_kernel(a, 1)          # the memory is dense in either order
    return a


cdef object _scalar_dtype(object v, str argname):
    if isinstance(v, ndarray):
        return (<ndarray>v)._dtype
    if isinstance(v, bool) or isinstance(v, numpy.bool_):
        return _code_dtype[_BOOL]
    if isinstance(v, int):
        return _code_dtype[_I64]
    if isinstance(v, float):
        return _float64
    if isinstance(v, complex):
        return _code_dtype[_C128]
    if isinstance(v, numpy.generic):
        return _norm_dtype(v.dtype)
    raise TypeError(f"{argname}: expected a Python or NumPy scalar, got {type(v).__name__}")


def full(shape, fill_value, dtype=None, order="C", *, device=None):
    """An array filled with ``fill_value``; dtype inferred from it when not given
    (``dtype`` and ``order`` as NumPy's).

    Parameters
    ----------
    shape : int or tuple of int
        The shape.
    fill_value : scalar
        The value.
    dtype : dtype, optional
        The dtype (inferred from fill_value by default).
    order : {'C', 'F'}, optional
        Memory layout.
    device : Device or str, optional
        Where the array lives (the current device by default).

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.full
    """
    if isinstance(fill_value, ndarray):
        if (<ndarray>fill_value)._size != 1:
            raise ValueError("fill_value: must be a scalar or a one-element array")
        if device is None:
            device = (<ndarray>fill_value)._device
        fill_value = (<ndarray>fill_value).item()
    cdef object dt = _scalar_dtype(fill_value, "fill_value") if dtype is None else _norm_dtype(dtype)
    cdef ndarray a = empty(shape, dt, order, device=device)
    _fill_kernel(a, fill_value)
    return a


cdef ndarray _like(object x, object dtype, object order, object shape, object device):
    """The fresh array of the *_like functions: x's shape (or ``shape``), dtype, device
    and layout (``order`` 'K', NumPy's default: x's axis order)."""
    cdef ndarray x_ = x if isinstance(x, ndarray) else _array_input(x, "x")
    cdef int code = ORDER_K if order is "K" else _order_code(order, ORDER_K, True)
    cdef tuple shp = x_.shape if shape is None else _as_tuple(shape)
    cdef ndarray a
    dt = x_._dtype if dtype is None else dtype
    dev = x_._device if device is None else device
    if code == ORDER_C or (code == ORDER_K and x_._flags & FLAG_C):
        a = empty(shp, dtype=dt, device=dev)
    else:
        a = _empty_layout(shp, dt, code, x_, dev)
    return a


cdef inline object _like_result(object x, ndarray a, object subok):
    # subok (NumPy's default True): the result takes x's ndarray subclass
    if subok and type(x) is not ndarray and isinstance(x, ndarray):
        return _retype(a, type(x), x)
    return a


def empty_like(x, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """An uninitialised array with the shape, dtype, device and layout of ``x``.

    NumPy's positional ``dtype``, ``order`` ('K': x's layout, 'A', 'C', 'F') and
    ``shape`` are taken; ``x`` may be any array-like.

    Parameters
    ----------
    x : ndarray or array_like
        The prototype.
    dtype : dtype, optional
        The dtype (x's by default).
    order : {'K', 'A', 'C', 'F'}, optional
        The layout ('K': x's).
    subok : bool, optional
        Keep a subclass.
    shape : int or tuple of int, optional
        Overrides x's shape.
    device : Device or str, optional
        Where the array lives (x's device by default).

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.empty_like
    """
    return _like_result(x, _like(x, dtype, order, shape, device), subok)


def zeros_like(x, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """Zeros with the shape (and dtype, device, layout) of ``x``.

    Parameters
    ----------
    x : ndarray or array_like
        The prototype.
    dtype : dtype, optional
        The dtype (x's by default).
    order : {'K', 'A', 'C', 'F'}, optional
        The layout ('K': x's).
    subok : bool, optional
        Keep a subclass.
    shape : int or tuple of int, optional
        Overrides x's shape.
    device : Device or str, optional
        Where the array lives (x's device by default).

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.zeros_like
    """
    cdef ndarray a = _like(x, dtype, order, shape, device)
    _zero_fill(a)
    return _like_result(x, a, subok)


def ones_like(x, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """Ones with the shape (and dtype, device, layout) of ``x``.

    Parameters
    ----------
    x : ndarray or array_like
        The prototype.
    dtype : dtype, optional
        The dtype (x's by default).
    order : {'K', 'A', 'C', 'F'}, optional
        The layout ('K': x's).
    subok : bool, optional
        Keep a subclass.
    shape : int or tuple of int, optional
        Overrides x's shape.
    device : Device or str, optional
        Where the array lives (x's device by default).

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.ones_like
    """
    cdef ndarray a = _like(x, dtype, order, shape, device)
    _fill_kernel(a, 1)
    return _like_result(x, a, subok)


def full_like(x, /, fill_value, dtype=None, order="K", subok=True, shape=None, *,
              device=None):
    """``fill_value`` with the shape (and dtype, device, layout) of ``x``.

    Parameters
    ----------
    x : ndarray or array_like
        The prototype.
    fill_value : scalar
        The value.
    dtype : dtype, optional
        The dtype (x's by default).
    order : {'K', 'A', 'C', 'F'}, optional
        The layout ('K': x's).
    subok : bool, optional
        Keep a subclass.
    shape : int or tuple of int, optional
        Overrides x's shape.
    device : Device or str, optional
        Where the array lives (x's device by default).

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.full_like
    """
    if isinstance(fill_value, ndarray):
        if (<ndarray>fill_value)._size != 1:
            raise ValueError("fill_value: must be a scalar or a one-element array")
        fill_value = (<ndarray>fill_value).item()
    cdef ndarray a = _like(x, dtype, order, shape, device)
    _fill_kernel(a, fill_value)
    return _like_result(x, a, subok)


cdef object _numpy_input_error(str argname):
    """garray._args.refuse_numpy's TypeError, for the core's entry points (Note [NumPy
    input] in garray/_args.py)."""
    return TypeError(f"{argname}: expected a garray.ndarray, got numpy.ndarray (use "
                     f"garray.asarray to copy it to a device)")


cdef ndarray _array_input(object x, str argname):
    """An array argument: a garray array as it is, a Python scalar or (nested) sequence
    converted onto the default device as NumPy converts array-likes; a NumPy array is
    refused (TypeError) so that no host array crosses to a device unseen (use
    garray.asarray), as everywhere in garray."""
    if isinstance(x, ndarray):
        return <ndarray>x
    if isinstance(x, numpy.ndarray):
        raise _numpy_input_error(argname)
    try:
        return asarray(x)
    except (TypeError, ValueError) as e:
        raise type(e)(f"{argname}: {e}") from None




cdef inline int _check_copy(object copy) except -1:
    """NumPy's rule for every ``copy=`` keyword: a string is a ValueError (it would be
    true), anything else is taken by truth value or None."""
    if copy is None or copy is True or copy is False:   # the per-call case: no type test
        return 0
    if isinstance(copy, (str, bytes)):
        raise ValueError(f"copy: strings are not allowed ({copy!r}); use True, False or "
                         f"None")
    return 0


def asarray(obj, /, dtype=None, order=None, *, device=None, copy=None):
    """Convert ``obj`` to a garray array.

    ``obj``: a garray array, a NumPy array or scalar, a (nested) sequence, a Python
    scalar, an object with ``__dlpack__`` or the buffer protocol.  ``copy=True``
    always copies; ``copy=False`` never does and raises ValueError when it would have
    to; ``None`` copies only when needed.  On the CPU device a NumPy array of a
    supported dtype is wrapped without copying, as ``numpy.asarray`` does.

    >>> garray.asarray([1, 2, 3]).dtype
    dtype('int64')

    ``dtype`` and ``order`` may be given by position, as NumPy's.  ``order`` 'C' or
    'F' returns an array in that memory order (a copy when ``obj`` is not; ValueError
    with ``copy=False``); 'A', 'K' and None keep the layout (a copy keeps x's axis
    order, 'A': F order for F-contiguous input, else C).

    Parameters
    ----------
    obj : any
        The input (see above).
    dtype : dtype, optional
        The result's dtype (the input's by default).
    order : {'C', 'F', 'A', 'K', None}, optional
        The layout (see above).
    device : Device or str, optional
        Where the result lives (the input's, else the current device).
    copy : bool or None, optional
        See above.

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.asarray
    """
    cdef ndarray a
    cdef int code
    if order is None and not (copy and isinstance(obj, ndarray)):
        return _asarray(obj, dtype, device, copy)
    _check_copy(copy)
    code = _order_code(order, ORDER_K, True)
    if isinstance(obj, ndarray) and copy and (device is None or
                                             _resolve_device(device) is (<ndarray>obj)._device):
        return _copy_order(<ndarray>obj, code, None if dtype is None else _norm_dtype(dtype))
    a = _asarray(obj, dtype, device, copy)
    if _has_order(a, code):
        return a
    if copy is False:
        raise ValueError(f"copy=False: an array in order {order!r} needs a copy")
    return _copy_order(a, code, None)


cdef ndarray _flat_list(list obj, object dev):
    """A non-empty flat list of Python ints and floats on a CPU device, read here: int64
    when every item is an int (each within int64), float64 when one is a float (an int
    converted correctly rounded, as NumPy converts it); None for anything else (bools,
    NumPy scalars, nesting, larger ints: NumPy parses those)."""
    cdef Py_ssize_t n = len(obj), i
    cdef int kinds = 0
    cdef ndarray a
    cdef int64_t* pi
    cdef double* pf
    if n == 0:
        return None
    for v in obj:
        if type(v) is float:
            kinds |= 2
        elif type(v) is int:
            kinds |= 1
        else:
            return None
    a = _new_array(_code_dtype[_F64 if kinds & 2 else _I64], 1, &n, dev)
    pi = <int64_t*>a._ptr
    pf = <double*>a._ptr
    try:
        for i in range(n):
            v = obj[i]
            if kinds & 2:
                pf[i] = <double>v if type(v) is float else <double>(<int64_t>v)
            else:
                pi[i] = <int64_t>v
    except OverflowError:
        return None
    return a


cdef ndarray _asarray(object obj, object dtype, object device, object copy):
    cdef ndarray a
    cdef object dt = None if dtype is None else _norm_dtype(dtype)
    _check_copy(copy)
    if type(obj) is list and dt is None and copy is not False:
        # Hot path: a list on the CPU device -> NumPy parses it, garray wraps the result.
        dev = _resolve_device(device)
        if dev is _cpu_device or dev.kind == "cpu":
            a = _flat_list(<list>obj, dev)
            if a is not None:
                return a
            h = numpy.asarray(obj)
            if h.dtype in _code_of and h.ndim <= MAX_NDIM:
                return _wrap_numpy(h, dev, False)
    if isinstance(obj, ndarray):
        a = <ndarray>obj
        dev = a._device if device is None else _resolve_device(device)
        if (dt is None or dt is a._dtype) and dev is a._device:
            return _copy_array(a) if copy else a
        if copy is False:
            raise ValueError("copy=False: converting the array to another "
                             f"{'device' if dev is not a._device else 'dtype'} needs a copy")
        return _astype(a, a._dtype if dt is None else dt, True, dev)
    dev = _resolve_device(device)
    fresh = False          # h is a host array made here: never copied a second time
    if isinstance(obj, numpy.ndarray):
        h = obj
    elif (not isinstance(obj, (list, tuple, int, float, complex, bool, numpy.generic))
          and hasattr(obj, "__dlpack__")):
        a = from_dlpack(obj, copy=copy)
        return asarray(a, dtype=dt, device=dev, copy=False if copy is False else None)
    else:
        try:
            h = numpy.asarray(obj, dtype=dt, copy=False if copy is False else None)
        except OverflowError as e:
            raise OverflowError(f"obj: {e}") from None
        except ValueError:
            if copy is False:
                raise ValueError(f"copy=False: converting a {type(obj).__name__} to an "
                                 f"array needs a copy") from None
            raise
        if dt is None and h.dtype not in _code_of:
            h = numpy.asarray(h, dtype=_norm_obj_dtype(h))
        if isinstance(obj, (list, tuple, int, float, complex, bool, numpy.generic)):
            fresh = True
    if dt is None:
        dt = _norm_obj_dtype(h)
    if h.dtype != dt or not h.dtype.isnative:
        if copy is False:
            raise ValueError(f"copy=False: converting {h.dtype} to {dt} needs a copy")
        h = h.astype(dt)
        fresh = True
    if dt in _time_dtypes:      # generic datetime64: the unit NumPy parsed
        dt = _norm_dtype(h.dtype)
    if (dev is _cpu_device or dev.kind == "cpu") and (fresh or not copy) and h.ndim <= MAX_NDIM:
        if copy is False and not _numpy_wrappable(h):
            raise ValueError("copy=False: the NumPy array is unaligned or has strides that "
                             "are not a multiple of its itemsize; using it needs a copy")
        return _wrap_numpy(h, dev, False)
    if copy is False and not fresh:
        raise ValueError(f"copy=False: moving host data to {dev} needs a copy")
    a = empty(h.shape, dtype=dt, device=dev)
    _upload_into(a, h)
    return a


cdef object _norm_obj_dtype(object h):
    try:
        return _norm_dtype(h.dtype)
    except TypeError:
        raise TypeError(f"obj: garray does not support arrays of dtype {h.dtype}; "
                        f"supported: {', '.join(_dtypes.dtype_name(d) for d in _dtypes.DTYPES)}"
                        ) from None


def asnumpy(a, stream=None):
    """A NumPy copy of ``a`` on the host; non-garray inputs go through numpy.asarray.

    Parameters
    ----------
    a : ndarray or array_like
        The array.
    stream : Stream or int, optional
        The stream that copies (default: the current one).

    Returns
    -------
    numpy.ndarray
        A host copy.

    See Also
    --------
    ndarray.get
    """
    if isinstance(a, ndarray):
        return (<ndarray>a).get(stream)
    return numpy.asarray(a)


cdef object _float64 = None
cdef object _bare_device = None
cdef tuple _code_dtype = ()

def _init_tables():
    global _float64, _code_dtype, _bare_device
    _bare_device = _devmod.Device("cpu")
    _code_dtype = tuple(_dtypes.DTYPES)
    _float64 = _code_dtype[_F64]
    for i, d in enumerate(_code_dtype):
        _code_of[d] = i

_init_tables()
