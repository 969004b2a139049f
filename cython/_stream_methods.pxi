# The transfer and stream methods of ndarray (x.get, x.set, x.record_stream): a base
# class of ndarray, so _ndarray.pxi stays about the type itself; the work is in
# _copy.pxi and _stream.pxi.

cdef class _ArrayStreamMethods:
    """The host-transfer and stream methods of ndarray."""

    def get(self, stream=None, out=None, blocking=True):
        """A NumPy copy of this array on the host (any strides).

        Parameters
        ----------
        stream : Stream or int, optional
            The stream that copies (default: the current one); the call returns
            when that stream has run the copy.
        out : numpy.ndarray, optional
            Where to copy (C-contiguous, of this shape and dtype).
        blocking : bool, optional
            False: return with the copy still queued (``out`` must be pinned host
            memory, ``garray.empty_pinned``; wait for the stream before reading it).

        Returns
        -------
        numpy.ndarray
            A host copy.

        See Also
        --------
        garray.asnumpy
        """
        cdef ndarray a = <ndarray>self
        if out is None:
            if not blocking:
                raise ValueError("blocking: False needs out= in pinned host memory "
                                 "(garray.empty_pinned)")
            if stream is None:
                return _to_numpy(a, True)
            with _stream_scope(stream, a._device):
                return _to_numpy(a, True)
        with _stream_scope(stream, a._device):
            return _get_into(a, out, blocking)

    def record_stream(self, stream):
        """Mark this array's memory as used by work on ``stream`` (PyTorch's
        ``Tensor.record_stream``): when the array is freed, its memory is reused only
        after that stream's work queued so far has run.  Needed for an array allocated
        on one stream and used on another that is not otherwise synchronised before
        the array goes.

        Parameters
        ----------
        stream : Stream
            A stream of the array's device.

        Returns
        -------
        None
        """
        cdef ndarray a = <ndarray>self
        from garray._streams import Stream      # here: garray._streams imports the core
        if not isinstance(stream, Stream):
            raise TypeError(f"stream: expected a garray.Stream, got {type(stream).__name__}")
        if stream.device is not a._device:
            raise ValueError(f"stream: a stream of {stream.device}, the array is on "
                             f"{a._device}")
        _record_stream(a, stream)

    def set(self, arr, stream=None):
        """Copy the host array ``arr`` into this array (CuPy's ``ndarray.set``).

        Parameters
        ----------
        arr : numpy.ndarray
            Of this array's shape and dtype.
        stream : Stream or int, optional
            The stream that copies (default: the current one).  From pinned host
            memory (``garray.empty_pinned``) the copy stays queued on it; from other
            memory the call returns when the stream has run it.

        Returns
        -------
        None
        """
        cdef ndarray a = <ndarray>self
        if not isinstance(arr, numpy.ndarray):
            raise TypeError(f"arr: expected a numpy.ndarray, got {type(arr).__name__}")
        if arr.shape != a.shape:
            raise ValueError(f"arr: shape {arr.shape} does not match the array's {a.shape}")
        if arr.dtype != a._dtype:
            raise TypeError(f"arr: dtype {arr.dtype} does not match the array's {a._dtype}")
        if a._flags & FLAG_READONLY:
            raise ValueError("assignment destination is read-only")
        with _stream_scope(stream, a._device):
            if not _set_pinned(a, arr):
                _upload_into(a, arr)

