# where(condition, x1, x2): a ternary elementwise launcher on the iterator
# (_kernels/elementwise.hip where_s).  x1 and x2 promote like a binary op's inputs.

cdef _Kernels _where_kernels():
    return _table("where", _optable_mod.where_table)


cdef ndarray _where_operand(object x, int code, object device):
    cdef _Scalar sv
    if isinstance(x, ndarray):
        return _cast_to(<ndarray>x, code)
    if not _is_pyscalar(x):
        raise TypeError(f"where: expected an array or a Python scalar, got {type(x).__name__}")
    _pack_scalar(x, code, &sv, "where")
    return _scalar_array(&sv, code, device)


def where(condition, x1, x2, /):
    """Elements of x1 where condition is True, else of x2 (broadcast together).

    See also numpy.where (the three-argument form)."""
    cdef ndarray c, a, b, o
    cdef Py_ssize_t shape[MAX_NDIM]
    cdef _Iter it
    cdef void* args[6]
    cdef int nd, code
    c = _cast_to(_array_input(condition, "where: condition"), 0)
    # sequences become arrays, as NumPy's array-likes; of two Python scalars the first
    # takes its default dtype and the second promotes with it (numpy.where(c, 1, 0.5)
    # is float64)
    # NumPy scalars are strong (NEP 50): 0-d arrays of their dtype
    if isinstance(x1, (list, tuple, numpy.ndarray, numpy.generic)):
        x1 = _array_input(x1, "where: x1").to_device(c._device)
    if isinstance(x2, (list, tuple, numpy.ndarray, numpy.generic)):
        x2 = _array_input(x2, "where: x2").to_device(c._device)
    if not isinstance(x1, ndarray) and not isinstance(x2, ndarray):
        if not _is_pyscalar(x1):
            raise TypeError(f"where: expected an array or a Python scalar, got "
                            f"{type(x1).__name__}")
        x1 = asarray(x1, device=c._device)
    if _time_operand(x1, x2):
        return _time_mod().where(c, x1, x2)
    if isinstance(x1, ndarray) and isinstance(x2, ndarray):
        code = _promote[(<ndarray>x1)._code][(<ndarray>x2)._code]
    elif isinstance(x1, ndarray):
        code = _scalar_code(x2, (<ndarray>x1)._code)
    else:
        code = _scalar_code(x1, (<ndarray>x2)._code)
    a = _where_operand(x1, code, c._device)
    b = _where_operand(x2, code, c._device)
    for arr in (a, b):
        if (<ndarray>arr)._device is not c._device:
            raise ValueError(f"where: arrays are on different devices ({c._device} and "
                             f"{(<ndarray>arr)._device})")
    nd = _broadcast_shape(shape, c, a, b)
    o = _new_array(_code_dtype[code], nd, shape, c._device)
    if o._size == 0:
        return o
    _iter_init(&it, o, c, a, b, False)        # where_s: strided form only
    _iter_args(&it, args, _cpu_wide_index(o))
    _iter_launch(_where_kernels(), o, code, it.layout, &it, args)
    return o
