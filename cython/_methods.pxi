# The ndarray methods that NumPy also offers as functions (x.sum(), x.argmax(axis=1),
# x.take(...), x.sort() ...): NumPy's method signatures, calling garray's function of the
# same name, bound once per name (_array_function).  The docstrings are short and name the
# function, which documents the parameters (as NumPy's method docs refer to numpy.sum).
# A base class of _ArrayOperators, so of ndarray, to keep _ndarray.pxi about the type.

cdef dict _method_impls = {}


cdef object _array_function(str name):
    """garray.<name>, looked up in the namespace once per name and kept: the methods call
    their family's function directly after the first call."""
    f = _method_impls.get(name)
    if f is None:
        import garray   # the namespace imports this module: resolved on first call
        f = getattr(garray, name, None)
        if f is None:
            raise NotImplementedError(f"ndarray.{name}: garray.{name} is not available")
        _method_impls[name] = f
    return f


cdef object _matmul_operator(object a, object b):
    """``a @ b`` with one operand possibly not an array: NotImplemented for what garray
    does not take (so Python tries the other operand), as NumPy's operators do."""
    if not isinstance(a, ndarray) and not _is_operand(a):
        return NotImplemented
    if not isinstance(b, ndarray) and not _is_operand(b):
        return NotImplemented
    if type(a) is ndarray and type(b) is ndarray:
        r = _matmul_fast(<ndarray>a, <ndarray>b)        # cython/_gemm.pxi
        if r is not None:
            return r
    return _array_function("matmul")(a, b)


cdef inline bint _is_operand(object x):
    return isinstance(x, (numpy.ndarray, list, tuple, int, float, complex, bool,
                          numpy.generic))


cdef tuple _ALL_AXES = tuple(tuple(range(i)) for i in range(MAX_NDIM + 1))


cdef inline bint _whole(object self):
    """Whether a reduction method with every argument at its default may run the
    reduction directly (the function's per-call path without its argument parsing): a
    plain, non-empty ndarray (an empty one goes to the function, which raises where the
    reduction has no identity)."""
    return type(self) is ndarray and (<ndarray>self)._size > 0


cdef inline object _initial_arg(object initial):
    return None if initial is numpy._NoValue else initial


cdef dict _given(dict kw):
    """The keyword arguments that differ from NumPy's defaults (numpy._NoValue: not
    given), so functions with narrower signatures still take the common calls."""
    return {k: v for k, v in kw.items() if v is not numpy._NoValue}


cdef class _ArrayMethods(_ArrayShapeMethods):
    """The ndarray methods that forward to garray's functions."""

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=numpy._NoValue,
            where=True):
        """Sum over ``axis`` (``garray.sum``).

        See Also
        --------
        garray.sum : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.sum
        """
        if (axis is None and dtype is None and out is None and keepdims is False and
                initial is numpy._NoValue and where is True):
            if _whole(self):
                return _reduce("sum", <ndarray>self, _ALL_AXES[(<ndarray>self)._nd], False)
            return _array_function("sum")(self)   # no keyword dict to build
        return _array_function("sum")(self, axis=axis, dtype=dtype, out=out,
                                      keepdims=keepdims, initial=_initial_arg(initial),
                                      where=where)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=numpy._NoValue,
             where=True):
        """Product over ``axis`` (``garray.prod``).

        See Also
        --------
        garray.prod : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.prod
        """
        if (axis is None and dtype is None and out is None and keepdims is False and
                initial is numpy._NoValue and where is True):
            if _whole(self):
                return _reduce("prod", <ndarray>self, _ALL_AXES[(<ndarray>self)._nd], False)
            return _array_function("prod")(self)   # no keyword dict to build
        return _array_function("prod")(self, axis=axis, dtype=dtype, out=out,
                                       keepdims=keepdims, initial=_initial_arg(initial),
                                       where=where)

    def max(self, axis=None, out=None, keepdims=False, initial=numpy._NoValue, where=True):
        """Largest element over ``axis`` (``garray.max``).

        See Also
        --------
        garray.max : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.max
        """
        if (axis is None and out is None and keepdims is False and
                initial is numpy._NoValue and where is True):
            if _whole(self):
                return _reduce("max", <ndarray>self, _ALL_AXES[(<ndarray>self)._nd], False)
            return _array_function("max")(self)   # no keyword dict to build
        return _array_function("max")(self, axis=axis, out=out, keepdims=keepdims,
                                      initial=_initial_arg(initial), where=where)

    def min(self, axis=None, out=None, keepdims=False, initial=numpy._NoValue, where=True):
        """Smallest element over ``axis`` (``garray.min``).

        See Also
        --------
        garray.min : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.min
        """
        if (axis is None and out is None and keepdims is False and
                initial is numpy._NoValue and where is True):
            if _whole(self):
                return _reduce("min", <ndarray>self, _ALL_AXES[(<ndarray>self)._nd], False)
            return _array_function("min")(self)   # no keyword dict to build
        return _array_function("min")(self, axis=axis, out=out, keepdims=keepdims,
                                      initial=_initial_arg(initial), where=where)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        """Index of the first largest element (``garray.argmax``).

        See Also
        --------
        garray.argmax : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.argmax
        """
        if axis is None and out is None and keepdims is False:
            # (large arrays: the function splits them over the launch pool)
            if _whole(self) and (<ndarray>self)._nd == 1 and (<ndarray>self)._size < _SPLIT_MIN:
                return _reduce("argmax", <ndarray>self, _ALL_AXES[1], False)
            return _array_function("argmax")(self)   # no keyword dict to build
        return _array_function("argmax")(self, axis=axis, out=out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        """Index of the first smallest element (``garray.argmin``).

        See Also
        --------
        garray.argmin : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.argmin
        """
        if axis is None and out is None and keepdims is False:
            # (large arrays: the function splits them over the launch pool)
            if _whole(self) and (<ndarray>self)._nd == 1 and (<ndarray>self)._size < _SPLIT_MIN:
                return _reduce("argmin", <ndarray>self, _ALL_AXES[1], False)
            return _array_function("argmin")(self)   # no keyword dict to build
        return _array_function("argmin")(self, axis=axis, out=out, keepdims=keepdims)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        """True where every element over ``axis`` is nonzero (``garray.all``).

        See Also
        --------
        garray.all : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.all
        """
        if axis is None and out is None and keepdims is False and where is True:
            if _whole(self):
                return _reduce("all", <ndarray>self, _ALL_AXES[(<ndarray>self)._nd], False)
            return _array_function("all")(self)   # no keyword dict to build
        return _array_function("all")(self, axis=axis, out=out, keepdims=keepdims,
                                      where=where)

    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        """True where some element over ``axis`` is nonzero (``garray.any``).

        See Also
        --------
        garray.any : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.any
        """
        if axis is None and out is None and keepdims is False and where is True:
            if _whole(self):
                return _reduce("any", <ndarray>self, _ALL_AXES[(<ndarray>self)._nd], False)
            return _array_function("any")(self)   # no keyword dict to build
        return _array_function("any")(self, axis=axis, out=out, keepdims=keepdims,
                                      where=where)

    def cumsum(self, axis=None, dtype=None, out=None):
        """Running sum (of the flattened array when ``axis`` is None) (``garray.cumsum``).

        See Also
        --------
        garray.cumsum : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.cumsum
        """
        return _array_function("cumsum")(self, axis=axis, dtype=dtype, out=out)

    def cumprod(self, axis=None, dtype=None, out=None):
        """Running product (``garray.cumprod``).

        See Also
        --------
        garray.cumprod : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.cumprod
        """
        return _array_function("cumprod")(self, axis=axis, dtype=dtype, out=out)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *,
             where=numpy._NoValue):
        """Arithmetic mean over ``axis`` (``garray.mean``).

        See Also
        --------
        garray.mean : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.mean
        """
        return _array_function("mean")(self, **_given(dict(
            axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)))

    def var(self, axis=None, dtype=None, out=None, ddof=numpy._NoValue, keepdims=False, *,
            where=numpy._NoValue, mean=numpy._NoValue, correction=numpy._NoValue):
        """Variance over ``axis``. See garray.var and numpy.ndarray.var.

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        dtype : dtype, optional
            The dtype to accumulate in and return; the input is cast to it first.
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        ddof : int or float, optional
            Delta degrees of freedom: the divisor is n - ddof.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        where : array_like of bool, optional
            Elements to include (broadcast against the input); NumPy's rule.
        mean : ndarray, optional
            NumPy 2's precomputed mean (accepted as NumPy's).
        correction : int or float, optional
            The Array API's name for ddof (not both).

        Returns
        -------
        ndarray
            Real: float64 for bool and integers, the real dtype of floating and complex
            input.
        """
        return _array_function("var")(self, **_given(dict(
            axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims, where=where,
            mean=mean, correction=correction)))

    def std(self, axis=None, dtype=None, out=None, ddof=numpy._NoValue, keepdims=False, *,
            where=numpy._NoValue, mean=numpy._NoValue, correction=numpy._NoValue):
        """Standard deviation over ``axis``. See garray.std and numpy.ndarray.std.

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        dtype : dtype, optional
            The dtype to accumulate in and return; the input is cast to it first.
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        ddof : int or float, optional
            Delta degrees of freedom: the divisor is n - ddof.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        where : array_like of bool, optional
            Elements to include (broadcast against the input); NumPy's rule.
        mean : ndarray, optional
            NumPy 2's precomputed mean (accepted as NumPy's).
        correction : int or float, optional
            The Array API's name for ddof (not both).

        Returns
        -------
        ndarray
            Real: float64 for bool and integers, the real dtype of floating and complex
            input.
        """
        return _array_function("std")(self, **_given(dict(
            axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims, where=where,
            mean=mean, correction=correction)))

    def ptp(self, axis=None, out=None, keepdims=False):
        """Range (maximum - minimum) over ``axis`` (``garray.ptp``).

        See Also
        --------
        garray.ptp : the parameters, the result and where garray differs from NumPy.
        numpy.ptp : NumPy 2 dropped the method; garray keeps NumPy 1's.
        """
        return _array_function("ptp")(self, axis=axis, out=out, keepdims=keepdims)

    # ---- linear algebra (garray/_gemm/matmul.py, garray/_gemm/contract.py) -------------------
    def __matmul__(self, other):
        return _matmul_operator(self, other)

    def __rmatmul__(self, other):
        return _matmul_operator(other, self)

    def __imatmul__(self, other):
        """``a @= b``: ``matmul(a, b, out=a)``; NumPy's error when the shape would change."""
        return _array_function("_matmul_inplace")(self, other)

    def dot(self, b, out=None):
        """Dot product (``garray.dot``).

        See Also
        --------
        garray.dot : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.dot
        """
        return _array_function("dot")(self, b, out=out)

    def nonzero(self):
        """Indices of the nonzero elements (``garray.nonzero``).

        See Also
        --------
        garray.nonzero : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.nonzero
        """
        return _array_function("nonzero")(self)

    def take(self, indices, axis=None, out=None, mode="raise"):
        """Elements at ``indices`` (``garray.take``).

        See Also
        --------
        garray.take : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.take
        """
        return _array_function("take")(self, indices, axis=axis, out=out, mode=mode)

    def put(self, indices, values, mode="raise"):
        """self.flat[indices] = values. See garray.put and numpy.ndarray.put.

        Parameters
        ----------
        indices : int or array_like
            Flat indices.
        values : scalar or array_like
            Values, repeated when shorter than indices.
        mode : {'raise', 'wrap', 'clip'}, optional
            How out-of-range indices are handled.

        Returns
        -------
        None
        """
        return _array_function("put")(self, indices, values, mode=mode)

    def repeat(self, repeats, axis=None):
        """Repeat elements (``garray.repeat``).

        See Also
        --------
        garray.repeat : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.repeat
        """
        return _array_function("repeat")(self, repeats, axis=axis)

    def compress(self, condition, axis=None, out=None):
        """Slices where ``condition`` holds (``garray.compress``).

        See Also
        --------
        garray.compress : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.compress
        """
        return _array_function("compress")(condition, self, axis=axis, out=out)

    def choose(self, choices, out=None, mode="raise"):
        """Pick from ``choices`` by this index array (``garray.choose``).

        See Also
        --------
        garray.choose : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.choose
        """
        return _array_function("choose")(self, choices, out=out, mode=mode)

    @property
    def flat(self):
        """A flat (C order) iterator and index over the array. See numpy.ndarray.flat."""
        from garray._index.iterators import flatiter
        return flatiter(self)

    @flat.setter
    def flat(self, value):
        from garray._index.iterators import flatiter
        flatiter(self)[...] = value

    # ---- NumPy's elementwise and I/O methods (garray/_elementwise/, garray/_io.py) ------

    def round(self, decimals=0, out=None):
        """Round to ``decimals`` places, halves to even (``garray.around``).

        See Also
        --------
        garray.around : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.round
        """
        return _array_function("around")(self, decimals, out)

    def clip(self, min=None, max=None, out=None):
        """Limit the values to [min, max] (``garray.clip``).

        See Also
        --------
        garray.clip : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.clip
        """
        return _array_function("clip")(self, min, max, out=out)

    def conj(self):
        """The complex conjugate (a copy for real dtypes, bool included, as NumPy's)
        (``garray.conj``).

        See Also
        --------
        garray.conj : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.conj
        """
        if self.dtype.kind != "c":
            return self.copy()
        return _array_function("conj")(self)

    def conjugate(self):
        """The complex conjugate. See ndarray.conj and numpy.ndarray.conjugate.

        Returns
        -------
        ndarray
            A new array in this array's dtype.
        """
        return self.conj()

    def dumps(self):
        """The pickle of the array (its values travel through the host).
        See numpy.ndarray.dumps.

        Returns
        -------
        bytes
        """
        import pickle
        return pickle.dumps(self)

    def dump(self, file):
        """Pickle the array into ``file`` (a path or an open binary file).
        See numpy.ndarray.dump.

        Parameters
        ----------
        file : str, path or file
            Where to write the pickle.

        Returns
        -------
        None
        """
        import pickle
        if isinstance(file, (str, os.PathLike)):
            with open(file, "wb") as f:
                pickle.dump(self, f)
        else:
            pickle.dump(self, file)

    def tofile(self, fid, sep="", format="%s"):
        """Write the values to a file as raw bytes (C order) or text (``sep``) from a
        host copy. See numpy.ndarray.tofile.

        Parameters
        ----------
        fid : str, path or file
            The file.
        sep : str, optional
            '' for raw bytes, else the text separator.
        format : str, optional
            The text format of each element.

        Returns
        -------
        None
        """
        _array_function("asnumpy")(self).tofile(fid, sep, format)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        """Sort in place along ``axis`` (``garray.sort``).

        See Also
        --------
        garray.sort : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.sort
        """
        r = _array_function("sort")(self, axis=axis, kind=kind, order=order, stable=stable)
        self[...] = r

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        """Indices that sort the array (``garray.argsort``).

        See Also
        --------
        garray.argsort : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.argsort
        """
        return _array_function("argsort")(self, axis=axis, kind=kind, order=order,
                                          stable=stable)

    def searchsorted(self, v, side="left", sorter=None):
        """Insertion points of v (``garray.searchsorted``).

        See Also
        --------
        garray.searchsorted : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.searchsorted
        """
        return _array_function("searchsorted")(self, v, side=side, sorter=sorter)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        """Partition in place (``garray.partition``).

        See Also
        --------
        garray.partition : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.partition
        """
        self[...] = _array_function("partition")(self, kth, axis=axis, kind=kind, order=order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        """Indices that partition the array (``garray.argpartition``).

        See Also
        --------
        garray.argpartition : the parameters, the result and where garray differs from NumPy.
        numpy.ndarray.argpartition
        """
        return _array_function("argpartition")(self, kth, axis=axis, kind=kind, order=order)
