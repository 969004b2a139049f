# NumPy's ndarray methods that are neither forwarded functions nor shape methods:
# diagonal and trace (functions too, kept here for room), resize in place, byteswap,
# getfield/setfield, and the host-memory views data and ctypes.  A base class of ndarray,
# so _ndarray.pxi stays about the type itself; the work is in _array_methods.pxi.

#
# Note [0-d arrays for NumPy scalars]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# Where NumPy returns a scalar (a reduction, ``x[i]``, ``unravel_index``), garray returns
# a 0-d array, as the Array API and CuPy do: the value stays on the device, so no call
# waits for it.  The 0-d array then answers Python's scalar protocols as a NumPy scalar
# does: ``int``, ``float``, ``complex``, ``bool``, ``operator.index``, ``format`` and
# ``%`` formatting, comparisons, ``round(x)`` (a Python int) and ``round(x, n)``, and
# sequence repetition (``[0] * n`` and ``"ab" * n`` repeat for an integer n and raise
# TypeError otherwise, where elementwise arithmetic would make an array).  What differs
# is the repr (``array(3)``, not ``np.int64(3)``), that results of arithmetic on it stay
# 0-d arrays, and hashing (arrays are unhashable; NumPy's 0-d arrays are too).
# docs/numpy-compatibility.md states it for users.

cdef inline bint _is_sequence(object o):
    """Python sequences that ``*`` repeats (the right operand of ``x * [0]``)."""
    cdef type t = type(o)
    return t is list or t is tuple or t is str or t is bytes


cdef class _ArrayExtraMethods(_ArrayStreamMethods):
    """ndarray's in-place resize, byte and field views, and host-memory views."""

    def __round__(self, ndigits=None):
        """round(x): a one-element array as a Python int (NumPy scalars' rule); round(x, n)
        is ``garray.around(x, n)``, an array of x's dtype.

        Parameters
        ----------
        ndigits : int, optional
            Decimals to keep (negative: tens, hundreds ...).

        Returns
        -------
        int or ndarray
        """
        if (<ndarray>self)._code == 0:
            raise TypeError("type numpy.bool doesn't define __round__ method")
        if ndigits is None:
            return round(float(self)) if (<ndarray>self)._code > 8 else int(self)
        return _array_function("around")(self, ndigits)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        """The diagonal of the (axis1, axis2) planes, a read-only view
        (``garray.diagonal``).

        Parameters
        ----------
        offset : int, optional
            The diagonal's offset from the main one.
        axis1 : int, optional
            The first axis of the planes.
        axis2 : int, optional
            The second axis of the planes.

        Returns
        -------
        ndarray
            A view.

        See Also
        --------
        numpy.ndarray.diagonal
        """
        return _array_function("diagonal")(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        """The sum along the diagonal of the (axis1, axis2) planes (``garray.trace``).

        Parameters
        ----------
        offset : int, optional
            The diagonal's offset from the main one.
        axis1 : int, optional
            The first axis of the planes.
        axis2 : int, optional
            The second axis of the planes.
        dtype : dtype, optional
            The accumulation and result dtype.
        out : ndarray, optional
            Where to write the result.

        Returns
        -------
        ndarray

        See Also
        --------
        numpy.ndarray.trace
        """
        return _array_function("trace")(self, offset, axis1, axis2, dtype, out)

    def resize(self, *new_shape, refcheck=True):
        """Change the shape and size of this array in place (NumPy's method; the
        function ``garray.resize`` returns a new array instead).

        The array must own its memory and be contiguous.  Its values keep their memory
        order; new elements are zeros.  With ``refcheck`` (the default) an array that
        other names or views reference is refused, as in NumPy.  With
        ``refcheck=False`` views made before keep reading the old memory, which stays
        allocated while they live (NumPy's would dangle).

        Parameters
        ----------
        *new_shape : int or tuple of int
            The new shape (``a.resize(2, 3)`` or ``a.resize((2, 3))``); none keeps it.
        refcheck : bool, optional
            Refuse when the array is referenced elsewhere.

        Returns
        -------
        None

        See Also
        --------
        numpy.ndarray.resize
        """
        _resize_in_place(<ndarray>self, new_shape, refcheck, Py_REFCNT(self))

    def byteswap(self, inplace=False):
        """Swap the bytes of each element (of each part of a complex one); the dtype is
        unchanged, as NumPy's.

        Parameters
        ----------
        inplace : bool, optional
            Swap this array's bytes and return it, instead of a new array.

        Returns
        -------
        ndarray

        See Also
        --------
        numpy.ndarray.byteswap
        """
        return _byteswap(<ndarray>self, inplace)

    def getfield(self, dtype, offset=0):
        """A view of each element's bytes from ``offset`` read as ``dtype``
        (``c.getfield(float64, 8)`` is the imaginary part of complex128 ``c``).

        Parameters
        ----------
        dtype : dtype
            The field's dtype; offset plus its size must fit in an element.
        offset : int, optional
            The field's byte offset in each element.

        Returns
        -------
        ndarray
            A view of this array's memory.

        See Also
        --------
        numpy.ndarray.getfield
        """
        return _field_view(<ndarray>self, dtype, offset)

    def setfield(self, val, dtype, offset=0):
        """Write ``val`` into each element's field (``self.getfield(dtype, offset)[...]
        = val``).

        Parameters
        ----------
        val : array_like or scalar
            The values, broadcast to this array's shape.
        dtype : dtype
            The field's dtype.
        offset : int, optional
            The field's byte offset in each element.

        Returns
        -------
        None

        See Also
        --------
        numpy.ndarray.setfield
        """
        _field_view(<ndarray>self, dtype, offset)[...] = val

    @property
    def data(self):
        """A memoryview of this CPU-device array's memory (no copy); a BufferError (and
        AttributeError) for an array on a GPU, whose memory the host cannot read.
        See numpy.ndarray.data."""
        return _host_memory(<ndarray>self, "data").data

    @property
    def ctypes(self):
        """NumPy's ctypes interface (``.data``, ``.shape``, ``.strides``,
        ``.data_as``) to this CPU-device array's memory; a BufferError on a GPU.
        See numpy.ndarray.ctypes."""
        return _host_memory(<ndarray>self, "ctypes").ctypes
