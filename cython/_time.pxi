# datetime64 and timedelta64 arrays (garray/_dtype_time.py, docs/datetimes.md): stored
# as int64 (_code is _I64) with the time dtype as _dtype.  Kernels that would read the
# int64 values as numbers never see such an array: the ufunc, reduction, scan and cast
# entries hand it to garray/_datetime, which computes on int64 views of it.

cdef object _time_module = None


cdef object _time_mod():
    global _time_module
    if _time_module is None:
        from garray import _datetime
        _time_module = _datetime
    return _time_module


cdef inline bint _labelled(ndarray a) noexcept:
    """Whether a's dtype is not its storage code's (a datetime64/timedelta64 array)."""
    return a._dtype is not _code_dtype[a._code]


cdef inline bint _time_operand(object x1, object x2):
    return ((isinstance(x1, ndarray) and _labelled(<ndarray>x1))
            or (isinstance(x2, ndarray) and _labelled(<ndarray>x2)))


cdef inline bint _time_scalar(object s):
    return isinstance(s, (numpy.datetime64, numpy.timedelta64))


cdef object _register_time(object d):
    """A normalised dtype; a time dtype is registered with int64 storage on first sight."""
    if d not in _code_of:
        _code_of[d] = _I64
        _time_dtypes.add(d)
    return d


def _relabel(ndarray a, object dtype):
    """A view of ``a`` (int64 storage) read as the time or int64 dtype ``dtype``."""
    cdef object d = _register_time(_norm_dtype(dtype))
    if _code_of[d] != a._code:
        raise TypeError(f"_relabel: {a._dtype} is not stored as {d}")
    cdef ndarray r = _view_same(a)
    r._dtype = d
    return r
