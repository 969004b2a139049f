# The ``garray.ufunc`` type: one object per op-table row, calling the launchers of
# _ufunc.pxi; its methods (reduce, accumulate, reduceat, at, outer) are in
# garray/_reduce/ufunc_methods.py.

cdef object _ufunc_methods_mod = None


cdef object _ufunc_methods():
    global _ufunc_methods_mod
    if _ufunc_methods_mod is None:
        from garray._reduce import ufunc_methods as _ufunc_methods
        _ufunc_methods_mod = _ufunc_methods
    return _ufunc_methods_mod


cdef object _ufunc_keywords_mod = None
cdef str _SAME_KIND = "same_kind"        # the call's defaults, compared by identity first
cdef str _ORDER_K = "K"


cdef object _ufunc_keywords():
    global _ufunc_keywords_mod
    if _ufunc_keywords_mod is None:
        from garray._elementwise import keywords as _keywords
        _ufunc_keywords_mod = _keywords
    return _ufunc_keywords_mod


@cython.final
cdef class ufunc:
    """An elementwise function of garray (``garray.add``, ``garray.sin`` ...).

    Built from one row of the op table (garray._tables.ops); its docstring says what it
    computes, the dtypes it accepts and where it differs from NumPy.
    """
    cdef readonly str __name__
    cdef readonly int nin
    cdef readonly int nout
    cdef _Kernels _k
    cdef readonly str __doc__

    def __cinit__(self, str name):
        self._k = _op_kernels(name)
        self.__name__ = name
        self.nin = self._k.nin
        self.nout = self._k.nout
        self.__doc__ = self._k.op.docstring()

    def __call__(self, *args, out=None, where=True, casting=_SAME_KIND, order=_ORDER_K,
                 dtype=None, subok=True, signature=None):
        if self.nin < len(args) <= self.nin + self.nout:
            # NumPy's positional outputs: add(a, b, o), divmod(a, b, q, r)
            if out is not None:
                raise TypeError(f"{self.__name__}: cannot specify 'out' as both a "
                                f"positional and keyword argument")
            out = tuple(args[self.nin:]) + (None,) * (self.nin + self.nout - len(args))
            args = args[:self.nin]
            for o in out:
                if o is not None and not isinstance(o, ndarray):
                    raise TypeError(f"{self.__name__}: return arrays must be of ArrayType "
                                    f"(a positional output is a {type(o).__name__})")
            if self.nout == 1:
                out = out[0]
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional argument"
                            f"{'s' if self.nin > 1 else ''} but {len(args)} were given")
        if (where is not True or dtype is not None or signature is not None
                or subok is not True or (casting is not _SAME_KIND and casting != _SAME_KIND)
                or (order is not _ORDER_K and order != _ORDER_K)):
            # Note [ufunc keywords] (garray/_elementwise/keywords.py)
            return _ufunc_keywords().call(self, args, out, where, casting, order, dtype,
                                          subok, signature)
        if out is not None and self.nout == 1 and type(out) is tuple:
            if len(out) != 1:
                raise ValueError(f"{self.__name__}: The 'out' tuple must have exactly one "
                                 f"entry per ufunc output (1), got {len(out)}")
            out = out[0]
        elif out is Ellipsis:
            out = None
        if self.nin == 1:
            return _unary(self._k, args[0], out)
        if not isinstance(args[0], ndarray) and not isinstance(args[1], ndarray):
            if (type(args[1]) is int or type(args[1]) is bool) and self._k.compare is None:
                # two Python ints compute in the default int64 (NumPy 2's weak scalars;
                # comparisons answer exactly)
                _default_int_fits(args[0], self.__name__)
            elif type(args[0]) is int and (type(args[1]) is float or
                                           type(args[1]) is complex):
                args = (float(args[0]), args[1])    # int with float: float64, any size
            # two scalars or sequences, as numpy.add(1, 2): one becomes an array on the
            # current device, the other keeps its kind: a NumPy scalar or a sequence is
            # the strong one; of two Python scalars the first takes its default dtype
            if _is_pyscalar(args[0]) and not _is_pyscalar(args[1]):
                args = (args[0], _array_input(args[1], f"{self.__name__}: x2"))
            else:
                args = (_array_input(args[0], f"{self.__name__}: x1"), args[1])
        r = _binary(self._k, args[0], args[1], out)
        if r is NotImplemented:
            for i in range(2):
                if isinstance(args[i], numpy.ndarray):
                    raise _numpy_input_error(f"{self.__name__}: x{i + 1}")
            raise TypeError(f"{self.__name__}: unsupported operand types "
                            f"{type(args[0]).__name__} and {type(args[1]).__name__}")
        return r

    # ---- methods (garray/_reduce/ufunc_methods.py, Note [ufunc reductions]) -----------------
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
               initial=numpy._NoValue, where=True):
        """Reduce ``array`` over ``axis`` (int, tuple or None) by repeated application
        of this binary ufunc.

        Parameters
        ----------
        array : ndarray
            Input array.
        axis : int, tuple of int or None, optional
            The axes to reduce.
        dtype : dtype, optional
            The accumulation dtype.
        out : ndarray, optional
            A garray array of the result's shape to write into.
        keepdims : bool, optional
            Keep the reduced axes as axes of length one.
        initial : scalar, optional
            Starting value.
        where : array_like of bool, optional
            Elements to include.

        Returns
        -------
        ndarray

        See Also
        --------
        numpy.ufunc.reduce
        """
        return _ufunc_methods().reduce(self, array, axis, dtype, out, keepdims, initial,
                                       where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """The running reduction along ``axis``.

        Parameters
        ----------
        array : ndarray
            Input array.
        axis : int, optional
            The axis.
        dtype : dtype, optional
            The accumulation dtype.
        out : ndarray, optional
            A garray array of the result's shape to write into.

        Returns
        -------
        ndarray
            Of array's shape.

        See Also
        --------
        numpy.ufunc.accumulate
        """
        return _ufunc_methods().accumulate(self, array, axis, dtype, out)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """Reduce ``array`` over the segments of ``axis`` that ``indices`` start.

        For each ``i``, the result's element ``i`` along ``axis`` is
        ``self.reduce(array[indices[i]:indices[i + 1]])`` (the last segment runs to the
        end); where ``indices[i] >= indices[i + 1]`` it is ``array[indices[i]]``.

        Parameters
        ----------
        array : ndarray
            Input array (at least 1-d).
        indices : sequence of int
            Segment starts, each in ``[0, array.shape[axis])`` (IndexError otherwise).
        axis : int, optional
            The axis.
        dtype : dtype, optional
            The accumulation dtype, as for ``reduce``.
        out : ndarray, optional
            A garray array of the result's shape (cast into unsafely, as NumPy).

        Returns
        -------
        ndarray
            Of array's shape with ``len(indices)`` along ``axis``.

        Notes
        -----
        Each segment longer than one element is one reduction launch (one-element
        segments are gathered together): the cost grows with ``len(indices)``.

        See Also
        --------
        numpy.ufunc.reduceat
        """
        return _ufunc_methods().reduceat(self, array, indices, axis, dtype, out)

    def at(self, a, indices, b=None, /):
        """Apply this ufunc in place at ``a[indices]``, unbuffered: an element indexed k
        times is updated k times, in order (``garray.add.at(a, [0, 0], 1)`` adds 2).

        Parameters
        ----------
        a : ndarray
            The array to update (writable).
        indices : index
            Any index NumPy takes for ``a[indices]``: integers, integer arrays or lists,
            slices, tuples of those, boolean masks.
        b : ndarray or scalar, optional
            The second operand of a binary ufunc, broadcast to ``a[indices].shape``;
            omitted for a unary one.

        Returns
        -------
        None

        Notes
        -----
        Results are cast into ``a``'s dtype unsafely, as NumPy's ``at``.  The work is a
        few launches per round, and there are as many rounds as the largest number of
        times one element is indexed.  Two-output ufuncs raise ValueError (as NumPy).

        See Also
        --------
        numpy.ufunc.at
        """
        return _ufunc_methods().at(self, a, indices, b)

    def outer(self, A, B, /, *, out=None, **kwargs):
        """This ufunc on every pair (a, b) of A's and B's elements; the result has shape
        A.shape + B.shape.

        Parameters
        ----------
        A : ndarray or scalar
            First operand.
        B : ndarray or scalar
            Second operand.
        out : ndarray, optional
            A garray array of the result's shape to write into.
        **kwargs
            The call's other keywords (``where``, ``casting``, ``order``, ``dtype``,
            ``subok``, ``signature``), as for ``self(A, B)``.

        Returns
        -------
        ndarray
            Of shape A.shape + B.shape.

        See Also
        --------
        numpy.ufunc.outer
        """
        return _ufunc_methods().outer(self, A, B, out, kwargs)

    @property
    def identity(self):
        """NumPy's identity of this ufunc (0 for add, 1 for multiply, None when it has
        none)."""
        return _ufunc_methods().identity(self.__name__)

    def __repr__(self):
        return f"<garray.ufunc '{self.__name__}'>"

    def __reduce__(self):
        return (ufunc, (self.__name__,))


def _ufunc_at_fold(str name, ndarray flat, ndarray pos, ndarray vals, ndarray starts):
    """ufunc.at's fold (ew2_at, Note [Elementwise kernels] 6): for each run of equal
    targets in ``pos`` (C-contiguous int64, sorted stably; ``starts``: each run's first
    position), fold the run's ``vals`` (flat's dtype, C-contiguous, in pos's order) into
    flat[target] in order with op ``name``, which computes in flat's dtype."""
    cdef _Kernels k = _op_kernels(name)
    cdef intptr_t pf = flat._ptr, pp = pos._ptr, pv = vals._ptr, ps = starts._ptr
    cdef int64_t runs = starts._size, n = pos._size
    cdef void* args[6]
    if runs == 0:
        return None
    args[0], args[1], args[2], args[3], args[4], args[5] = &pf, &pp, &pv, &ps, &runs, &n
    k.launch(flat, flat._code, L_AT, runs, args, n)
    return None


def _ufunc_reduceat_fold(str name, ndarray res, ndarray x, ndarray idx, ndarray ends):
    """ufunc.reduceat's segments (ew2_reduceat, Note [Elementwise kernels] 7): res is a
    C-contiguous (R, k) array, x a C-contiguous (R, n) array of res's dtype, idx and
    ends C-contiguous int64 (k,) with idx[s] < ends[s] <= n; res[r, s] is
    x[r, idx[s]] folded with x[r, idx[s] + 1:ends[s]] in order with op ``name``."""
    cdef _Kernels k = _op_kernels(name)
    cdef intptr_t pr = res._ptr, px = x._ptr, pi = idx._ptr, pe = ends._ptr
    cdef int64_t nk = idx._size, total = res._size
    cdef int64_t row = x._shape[1] if x._nd == 2 else 0
    cdef void* args[7]
    if total == 0:
        return None
    args[0], args[1], args[2], args[3] = &pr, &px, &pi, &pe
    args[4], args[5], args[6] = &nk, &row, &total
    k.launch(res, res._code, L_RAT, total, args, x._size)
    return None
