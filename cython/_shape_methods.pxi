# The shape and copy methods of ndarray (x.reshape, x.transpose, x.ravel, x.flatten,
# x.squeeze, x.swapaxes, x.copy, x.astype, x.view): a base class of ndarray, so _ndarray.pxi stays about the type itself.
# Each casts self once; the work is _shape.pxi's, _copy.pxi's and _array_methods.pxi's.

cdef class _ArrayShapeMethods(_ArrayExtraMethods):
    """The shape and copy methods of ndarray."""

    def reshape(self, *shape, order="C", copy=None):
        """A view with a new shape when the layout allows, else a copy.

        ``copy=True`` always copies, ``copy=False`` raises ValueError when a view is
        impossible (Array API).

        Parameters
        ----------
        *shape : int or tuple of int
            The new shape (one entry may be -1).
        order : {'C', 'F'}, optional
            The index order.
        copy : bool, optional
            True: always copy; False: raise ValueError when a view is impossible.

        Returns
        -------
        ndarray
            A view when the layout allows, else a copy.

        See Also
        --------
        numpy.reshape
        """
        cdef ndarray a = <ndarray>self
        if len(shape) == 1 and type(shape[0]) is not int:
            shape = shape[0]
        return _keep_type(a, _reshape(a, shape, order, copy))

    def transpose(self, *axes):
        """Permute the axes (a view); no axes reverses them.

        Parameters
        ----------
        *axes : int or tuple of int
            The permutation (none: reversed axes).

        Returns
        -------
        ndarray
            A view.

        See Also
        --------
        numpy.transpose
        """
        cdef ndarray a = <ndarray>self
        if not axes or (len(axes) == 1 and axes[0] is None):
            return a.T
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = axes[0]
        return _keep_type(a, _permute(a, axes))

    def ravel(self, order="C"):
        """The elements as a 1-d array: a view when the layout allows, else a copy.

        Parameters
        ----------
        order : {'C', 'F', 'A', 'K'}, optional
            The order the elements are read in.

        Returns
        -------
        ndarray
            1-d: a view when the layout allows, else a copy.
        """
        cdef ndarray a = <ndarray>self
        return _keep_type(a, _reshape(a, (-1,), order, None))

    def flatten(self, order="C"):
        """A 1-d copy of the elements (NumPy's ``ndarray.flatten``).

        Parameters
        ----------
        order : {'C', 'F', 'A', 'K'}, optional
            The order the elements are read in.

        Returns
        -------
        ndarray
            A new 1-d array.
        """
        cdef ndarray a = <ndarray>self
        return _keep_type(a, _reshape(a, (-1,), order, True))

    def squeeze(self, axis=None):
        """This array without length-1 axes (a view).

        Parameters
        ----------
        axis : int or tuple of int, optional
            The length-1 axes to remove (all by default).

        Returns
        -------
        ndarray
            A view.
        """
        cdef ndarray a = <ndarray>self
        return _keep_type(a, _squeeze(a, axis))

    def swapaxes(self, axis1, axis2):
        """This array with two axes interchanged (a view).

        Parameters
        ----------
        axis1 : int
            First axis.
        axis2 : int
            Second axis.

        Returns
        -------
        ndarray
            A view.
        """
        cdef ndarray a = <ndarray>self
        perm = list(range(a._nd))
        a1 = _norm_axis(axis1, a._nd, "axis1")
        a2 = _norm_axis(axis2, a._nd, "axis2")
        perm[a1], perm[a2] = perm[a2], perm[a1]
        return _keep_type(a, _permute(a, perm))

    def copy(self, order="C"):
        """A copy on the same device in ``order`` ('C', 'F', 'A', 'K': this array's
        layout).

        Parameters
        ----------
        order : {'C', 'F', 'A', 'K'}, optional
            The copy's layout.

        Returns
        -------
        ndarray
            A new array on the same device.

        See Also
        --------
        numpy.ndarray.copy
        """
        cdef ndarray a = <ndarray>self
        if order == "C":
            return _keep_type(a, _copy_array(a))
        return _keep_type(a, _copy_order(a, _order_code(order, ORDER_K, True), None))

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True, *,
               device=None):
        """This array cast to ``dtype``: NumPy's ``order`` (layout of the result, 'K' this
        array's) and ``casting`` check ('safe', 'same_kind', ...: TypeError when the cast
        is not allowed); ``copy=False`` may return self (Array API).

        Parameters
        ----------
        dtype : dtype
            The target dtype.
        order : {'K', 'A', 'C', 'F'}, optional
            The result's layout.
        casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
            Which casts are allowed.
        subok : bool, optional
            Keep a subclass.
        copy : bool, optional
            False: return self when no cast is needed.
        device : Device or str, optional
            Where the result lives (this array's device by default).

        Returns
        -------
        ndarray

        See Also
        --------
        numpy.ndarray.astype
        """
        cdef ndarray a = <ndarray>self
        r = _astype_method(a, dtype, order, casting, copy, device)
        if not subok and type(r) is not ndarray:
            return _retype(<ndarray>r, ndarray, a)
        return _keep_type(a, r) if subok else r

    def view(self, dtype=None, type=None):
        """A view of the same memory: read as ``dtype`` (NumPy's rules; a different
        itemsize rescales the contiguous last axis) and/or as the ndarray subclass
        ``type`` (``x.view(A)``).

        Parameters
        ----------
        dtype : dtype or type, optional
            The dtype to read the memory as (or a subclass).
        type : type, optional
            An ndarray subclass.

        Returns
        -------
        ndarray
            A view.

        See Also
        --------
        numpy.ndarray.view
        """
        cdef ndarray a = <ndarray>self
        return _view_method(a, dtype, type)
