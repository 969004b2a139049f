# The reduction methods of ndarray (x.sum(), x.argmax(axis=1), x.cumsum() ...): NumPy's
# method signatures, forwarded to the module-level functions (garray.sum ...), looked up
# by name at call time (garray.mean, var, std and ptp live in garray/_reduce/statistics.py).
# A base class of _ArrayOperators, so of ndarray, to keep _ndarray.pxi about the type.

cdef object _garray_namespace = None


cdef object _array_function(str name):
    global _garray_namespace
    if _garray_namespace is None:
        import garray
        _garray_namespace = garray
    f = getattr(_garray_namespace, name, None)
    if f is None:
        raise NotImplementedError(f"ndarray.{name}: garray.{name} is not available")
    return f


cdef object _matmul_operator(object a, object b):
    """``a @ b`` with one operand possibly not an array: NotImplemented for what garray
    does not take (so Python tries the other operand), as NumPy's operators do."""
    if not isinstance(a, ndarray) and not _is_operand(a):
        return NotImplemented
    if not isinstance(b, ndarray) and not _is_operand(b):
        return NotImplemented
    return _array_function("matmul")(a, b)


cdef inline bint _is_operand(object x):
    return isinstance(x, (numpy.ndarray, list, tuple, int, float, complex, bool,
                          numpy.generic))


cdef inline object _initial_arg(object initial):
    return None if initial is numpy._NoValue else initial


cdef dict _given(dict kw):
    """The keyword arguments that differ from NumPy's defaults (numpy._NoValue: not
    given), so functions with narrower signatures still take the common calls."""
    return {k: v for k, v in kw.items() if v is not numpy._NoValue}


cdef class _ArrayMethods:
    """The reduction methods of ndarray: NumPy's signatures, garray's functions."""

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=numpy._NoValue,
            where=True):
        """Sum over ``axis``. See garray.sum and numpy.ndarray.sum.

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        dtype : dtype, optional
            The dtype to accumulate in and return; the input is cast to it first.
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        initial : scalar, optional
            Starting value of the reduction, included in every slice.
        where : array_like of bool, optional
            Elements to include (broadcast against the input); NumPy's rule.

        Returns
        -------
        ndarray
            The sums (int64 for bool and signed integers, uint64 for unsigned, the input's
            dtype otherwise, or dtype), on the input's device; 0-d when every axis is
            reduced.
        """
        return _array_function("sum")(self, axis=axis, dtype=dtype, out=out,
                                      keepdims=keepdims, initial=_initial_arg(initial),
                                      where=where)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=numpy._NoValue,
             where=True):
        """Product over ``axis``. See garray.prod and numpy.ndarray.prod.

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        dtype : dtype, optional
            The dtype to accumulate in and return; the input is cast to it first.
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        initial : scalar, optional
            Starting value of the reduction, included in every slice.
        where : array_like of bool, optional
            Elements to include (broadcast against the input); NumPy's rule.

        Returns
        -------
        ndarray
            The products (dtypes as sum), on the input's device; 0-d when every axis is
            reduced.
        """
        return _array_function("prod")(self, axis=axis, dtype=dtype, out=out,
                                       keepdims=keepdims, initial=_initial_arg(initial),
                                       where=where)

    def max(self, axis=None, out=None, keepdims=False, initial=numpy._NoValue, where=True):
        """Largest element over ``axis``. See garray.max and numpy.ndarray.max.

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        initial : scalar, optional
            Starting value of the reduction, included in every slice.
        where : array_like of bool, optional
            Elements to include (broadcast against the input); NumPy's rule.

        Returns
        -------
        ndarray
            The maxima, in the input's dtype, on its device; 0-d when every axis is reduced.
        """
        return _array_function("max")(self, axis=axis, out=out, keepdims=keepdims,
                                      initial=_initial_arg(initial), where=where)

    def min(self, axis=None, out=None, keepdims=False, initial=numpy._NoValue, where=True):
        """Smallest element over ``axis``. See garray.min and numpy.ndarray.min.

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        initial : scalar, optional
            Starting value of the reduction, included in every slice.
        where : array_like of bool, optional
            Elements to include (broadcast against the input); NumPy's rule.

        Returns
        -------
        ndarray
            The minima, in the input's dtype, on its device; 0-d when every axis is reduced.
        """
        return _array_function("min")(self, axis=axis, out=out, keepdims=keepdims,
                                      initial=_initial_arg(initial), where=where)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        """Index of the first largest element. See numpy.ndarray.argmax.

        Parameters
        ----------
        axis : int or None, optional
            The axis (None: the flattened array); may be given by position.
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.

        Returns
        -------
        ndarray
            int64 indices, on the input's device; 0-d for axis=None.
        """
        return _array_function("argmax")(self, axis=axis, out=out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        """Index of the first smallest element. See numpy.ndarray.argmin.

        Parameters
        ----------
        axis : int or None, optional
            The axis (None: the flattened array); may be given by position.
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.

        Returns
        -------
        ndarray
            int64 indices, on the input's device; 0-d for axis=None.
        """
        return _array_function("argmin")(self, axis=axis, out=out, keepdims=keepdims)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        """True where every element over ``axis`` is nonzero. See numpy.ndarray.all.

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        where : array_like of bool, optional
            Elements to include (broadcast against the input); NumPy's rule.

        Returns
        -------
        ndarray
            bool, on the input's device; 0-d when every axis is reduced.
        """
        return _array_function("all")(self, axis=axis, out=out, keepdims=keepdims,
                                      where=where)

    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        """True where some element over ``axis`` is nonzero. See numpy.ndarray.any.

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        where : array_like of bool, optional
            Elements to include (broadcast against the input); NumPy's rule.

        Returns
        -------
        ndarray
            bool, on the input's device; 0-d when every axis is reduced.
        """
        return _array_function("any")(self, axis=axis, out=out, keepdims=keepdims,
                                      where=where)

    def cumsum(self, axis=None, dtype=None, out=None):
        """Running sum (of the flattened array when ``axis`` is None). See
        numpy.ndarray.cumsum.

        Parameters
        ----------
        axis : int or None, optional
            The axis (None: the flattened array).
        dtype : dtype, optional
            The dtype to accumulate in and return; the input is cast to it first.
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.

        Returns
        -------
        ndarray
            The running sums (dtypes as sum), of the input's shape (1-d for axis=None).
        """
        return _array_function("cumsum")(self, axis=axis, dtype=dtype, out=out)

    def cumprod(self, axis=None, dtype=None, out=None):
        """Running product. See numpy.ndarray.cumprod.

        Parameters
        ----------
        axis : int or None, optional
            The axis (None: the flattened array).
        dtype : dtype, optional
            The dtype to accumulate in and return; the input is cast to it first.
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.

        Returns
        -------
        ndarray
            The running products (dtypes as sum), of the input's shape (1-d for axis=None).
        """
        return _array_function("cumprod")(self, axis=axis, dtype=dtype, out=out)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *,
             where=numpy._NoValue):
        """Arithmetic mean over ``axis``. See garray.mean and numpy.ndarray.mean.

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        dtype : dtype, optional
            The dtype to accumulate in and return; the input is cast to it first.
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        where : array_like of bool, optional
            Elements to include (broadcast against the input); NumPy's rule.

        Returns
        -------
        ndarray
            float64 for bool and integer input, the input's (or dtype's) dtype otherwise;
            0-d when every axis is reduced.
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
        """Range (maximum - minimum) over ``axis``. See garray.ptp and numpy.ptp (NumPy 2
        dropped the method; garray keeps NumPy 1's).

        Parameters
        ----------
        axis : int, tuple of int or None, optional
            Axes to reduce (all axes by default).
        out : ndarray, optional
            A garray array of the result's shape that receives the result (cast to its
            dtype); returned.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.

        Returns
        -------
        ndarray
            In a's dtype.
        """
        return _array_function("ptp")(self, axis=axis, out=out, keepdims=keepdims)

    # ---- indexing methods (garray/_index/routines.py) ----------------------------
    # ---- linear algebra (garray/_gemm/matmul.py, garray/_gemm/contract.py) -------------------
    def __matmul__(self, other):
        return _matmul_operator(self, other)

    def __rmatmul__(self, other):
        return _matmul_operator(other, self)

    def __imatmul__(self, other):
        """``a @= b``: ``matmul(a, b, out=a)``; NumPy's error when the shape would change."""
        return _array_function("_matmul_inplace")(self, other)

    def dot(self, b, out=None):
        """Dot product. See garray.dot and numpy.ndarray.dot.

        Parameters
        ----------
        b : ndarray or array_like
            Second operand.
        out : ndarray, optional
            A garray array of exactly the result's dtype and shape.

        Returns
        -------
        ndarray
            The product (out when given).
        """
        return _array_function("dot")(self, b, out=out)

    def nonzero(self):
        """Indices of the nonzero elements. See garray.nonzero and numpy.ndarray.nonzero.

        Returns
        -------
        tuple of ndarray
            One 1-d int64 array per axis.
        """
        return _array_function("nonzero")(self)

    def take(self, indices, axis=None, out=None, mode="raise"):
        """Elements at ``indices``. See garray.take and numpy.ndarray.take.

        Parameters
        ----------
        indices : int or array_like
            Integer indices.
        axis : int or None, optional
            The axis (None: the flattened array).
        out : ndarray, optional
            A garray array of the result's shape to write into.
        mode : {'raise', 'wrap', 'clip'}, optional
            How out-of-range indices are handled.

        Returns
        -------
        ndarray
            In a's dtype.
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
        """Repeat elements. See garray.repeat and numpy.ndarray.repeat.

        Parameters
        ----------
        repeats : int or array_like
            A count, or one count per element along axis.
        axis : int or None, optional
            The axis (None: the flattened array).

        Returns
        -------
        ndarray
            A new array in a's dtype.
        """
        return _array_function("repeat")(self, repeats, axis=axis)

    def compress(self, condition, axis=None, out=None):
        """Slices where ``condition`` holds. See garray.compress and numpy.ndarray.compress.

        Parameters
        ----------
        condition : ndarray or array_like
            1-d booleans (shorter than the axis: the rest is false).
        axis : int or None, optional
            The axis (None: the flattened array).
        out : ndarray, optional
            A garray array of the result's shape to write into.

        Returns
        -------
        ndarray
            A new array.
        """
        return _array_function("compress")(condition, self, axis=axis, out=out)

    def choose(self, choices, out=None, mode="raise"):
        """Pick from ``choices`` by this index array. See garray.choose.

        Parameters
        ----------
        choices : sequence of ndarray
            The arrays to choose from (broadcast with a).
        out : ndarray, optional
            A garray array of the result's shape to write into.
        mode : {'raise', 'wrap', 'clip'}, optional
            How out-of-range indices are handled.

        Returns
        -------
        ndarray
            In the choices' result_type.
        """
        return _array_function("choose")(self, choices, out=out, mode=mode)

    @property
    def flat(self):
        """A flat (C order) iterator and index over the array. See numpy.ndarray.flat."""
        from garray._index.routines import flatiter
        return flatiter(self)

    @flat.setter
    def flat(self, value):
        from garray._index.routines import flatiter
        flatiter(self)[...] = value

    # ---- NumPy's elementwise and I/O methods (garray/_elementwise/math_extras.py, garray/_io.py) ----

    def round(self, decimals=0, out=None):
        """Round to ``decimals`` places, halves to even. See garray.around and
        numpy.ndarray.round.

        Parameters
        ----------
        decimals : int, optional
            Number of decimal places (negative: tens, hundreds...).
        out : ndarray, optional
            A garray array of the result's shape to write into.

        Returns
        -------
        ndarray
            In a's dtype.
        """
        return _array_function("around")(self, decimals, out)

    def clip(self, min=None, max=None, out=None):
        """Limit the values to [min, max]. See garray.clip and numpy.ndarray.clip.

        Parameters
        ----------
        min : scalar or ndarray, optional
            Lower bound (None: none).
        max : scalar or ndarray, optional
            Upper bound (None: none).
        out : ndarray, optional
            A garray array of the result's shape to write into.

        Returns
        -------
        ndarray
            In x's dtype.
        """
        return _array_function("clip")(self, min, max, out=out)

    def conj(self):
        """The complex conjugate (a copy for real dtypes, bool included, as NumPy's).
        See garray.conj and numpy.ndarray.conj.

        Returns
        -------
        ndarray
            A new array in this array's dtype.
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
        """Sort in place along ``axis``. See garray.sort and numpy.ndarray.sort.

        Parameters
        ----------
        axis : int or None, optional
            The axis (None: the flattened array).
        kind : str, optional
            Accepted for NumPy's signature (always a stable radix sort).
        order : None
            Structured arrays are not supported; must be None.
        stable : bool, optional
            Accepted for the Array API (always stable).

        Returns
        -------
        None
            The array is sorted in place.
        """
        r = _array_function("sort")(self, axis=axis, kind=kind, order=order, stable=stable)
        self[...] = r

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        """Indices that sort the array. See garray.argsort and numpy.ndarray.argsort.

        Parameters
        ----------
        axis : int or None, optional
            The axis (None: the flattened array).
        kind : str, optional
            Accepted for NumPy's signature (always a stable sort).
        order : None
            Structured arrays are not supported; must be None.
        stable : bool, optional
            Accepted for the Array API (always stable).

        Returns
        -------
        ndarray
            int64 indices of a's shape.
        """
        return _array_function("argsort")(self, axis=axis, kind=kind, order=order,
                                          stable=stable)

    def searchsorted(self, v, side="left", sorter=None):
        """Insertion points of v. See garray.searchsorted and numpy.ndarray.searchsorted.

        Parameters
        ----------
        v : ndarray, array_like or scalar
            The values to insert.
        side : {'left', 'right'}, optional
            Before or after equal elements.
        sorter : ndarray, optional
            int64 indices that sort a.

        Returns
        -------
        ndarray
            int64 indices of v's shape (0-d for a scalar v).
        """
        return _array_function("searchsorted")(self, v, side=side, sorter=sorter)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        """Partition in place. See garray.partition and numpy.ndarray.partition.

        Parameters
        ----------
        kth : int or sequence of int
            The position(s) to partition at.
        axis : int or None, optional
            The axis (None: the flattened array).
        kind : str, optional
            Accepted for NumPy's signature (garray sorts the whole axis).
        order : None
            Structured arrays are not supported; must be None.

        Returns
        -------
        None
            The array is partitioned in place.
        """
        self[...] = _array_function("partition")(self, kth, axis=axis, kind=kind, order=order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        """Indices that partition the array. See numpy.ndarray.argpartition.

        Parameters
        ----------
        kth : int or sequence of int
            The position(s) to partition at.
        axis : int or None, optional
            The axis (None: the flattened array).
        kind : str, optional
            Accepted for NumPy's signature (garray sorts the whole axis).
        order : None
            Structured arrays are not supported; must be None.

        Returns
        -------
        ndarray
            int64 indices of a's shape.
        """
        return _array_function("argpartition")(self, kth, axis=axis, kind=kind, order=order)
