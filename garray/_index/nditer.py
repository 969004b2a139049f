"""``nditer`` and ``nested_iters``: NumPy's iterator, host-side over garray arrays.

Note [nditer]
~~~~~~~~~~~~~
A loop for porting NumPy code, not for speed: the iterator runs on the host and every
element it yields is a device read (and every ``x[...] = v`` a device write, a kernel
launch each).  Prefer whole-array operations; use ``nditer`` where a NumPy loop must run
unchanged.

1. Construction follows NumPy's ``NpyIter_AdvancedNew`` (``nditer_constr.c``) step by
   step: flags and op_axes checked; operands converted (garray arrays as they are,
   Python scalars and sequences with ``asarray``, NumPy arrays refused); shapes
   broadcast (op_axes, itershape); the axis order chosen (C, F, A, or K: NumPy's stable
   insertion sort on the operands' byte strides, then axes flipped where every operand
   steps backwards -- NumPy's rule exactly, since garray views carry byte strides as
   NumPy's do); dtypes settled (op_dtypes, common_dtype, result_type for allocated
   outputs) and casts checked; outputs and copies allocated in the iteration's memory
   order; axes coalesced when no multi-index is tracked; NumPy's buffer core and size
   found when buffered.  So shapes, orders, indices, external-loop chunks and error
   types are NumPy's.  The plan (shapes, strides, flags; no device memory) is in
   ``nditer_layout.py``, the state and stepping in ``nditer_engine.py``,
   ``nested_iters``' linking in ``nditer_nested.py``.
2. A position is an iteration index: its internal coordinates (innermost axis first)
   give the multi-index (through the axis order and flips), which gives each operand's
   index (op_axes; broadcast axes stay at 0).  A value is a garray view of that element
   (0-d) or of the chunk (1-d with external_loop), writeable only for operands flagged
   for writing: writing a read-only operand raises NumPy's ValueError.
3. Buffering shows where NumPy's would: an operand cast by op_dtypes or common_dtype,
   and with external_loop a chunk that is not one strided run, is gathered into a garray
   buffer of NumPy's transfer size; written operands are scattered back when the buffer
   is left, at the end of the loop, at reset() and at close().  Operands without a cast
   are viewed directly (NumPy buffers some of those too; there a write shows at the
   flush, here at once).
4. 'copy' / 'updateifcopy': a cast copy in iteration order is ``operands[k]``, written
   back at close() or the end of a ``with`` block; an iterator collected without either
   writes back with NumPy's RuntimeWarning.
Differences and limits:
- with 'buffered', ``multi_index`` and ``index`` are each element's own; NumPy 2.4
  reports the first element of the buffer for every element of it;
- with external_loop, where a reduction operand's chunk is a stride-0 view (the
  reduced axis innermost), what ``y[...] += x`` leaves in it depends on the elementwise
  machinery (NumPy 2.4 copies the overlapping input and keeps the last sum; the CPU
  device accumulates; GPU threads race): write ``y[...] = y + x.sum()`` there, or
  iterate without external_loop;
- 'writemasked', 'arraymask' and 'virtual' operands raise NotImplementedError after
  NumPy's own checks; 'nbo', 'aligned', 'no_subtype' and 'refs_ok' change nothing
  (garray arrays are native, aligned, of one class, and hold no objects);
- ``debug_print`` prints garray's own summary; ``iterationneedsapi`` is False.
"""

import warnings

import numpy

from . import nditer_layout as _lay
from .nditer_engine import IterEngine, convert
from .nditer_nested import build_nested

__all__ = ["nditer", "nested_iters"]

_PAST_END = "Iterator is past the end"
_INVALID = "Iterator is invalid"
_DELAYED = ("Iterator construction used delayed buffer allocation, and no reset has been "
            "done yet")
_WRITEBACK_WARNING = ("Temporary data has not been written back to one of the operands. "
                      "Typically nditer is used as a context manager otherwise 'close' must "
                      "be called before reading iteration results.")


class nditer(IterEngine):
    """NumPy's multi-dimensional iterator over garray arrays, run on the host.

    Yields garray views: 0-d arrays of one element of each operand (``int(x)``,
    ``float(x)``, ``x + 1`` work as on NumPy's), or 1-d chunks with 'external_loop';
    ``x[...] = v`` writes the operand on its device when it is flagged 'readwrite' or
    'writeonly'.  Each element is a device read: a loop for porting NumPy code, not
    for speed (Note [nditer]).

    Parameters
    ----------
    op : ndarray or sequence of array_like
        The array(s) to iterate over; None entries are allocated outputs.  NumPy arrays
        are refused (TypeError); copy them with ``garray.asarray``.
    flags : sequence of str, optional
        'buffered', 'c_index', 'f_index', 'multi_index', 'external_loop', 'common_dtype',
        'copy_if_overlap', 'delay_bufalloc', 'grow_inner', 'ranged', 'refs_ok',
        'reduce_ok', 'zerosize_ok'.
    op_flags : list of list of str, optional
        Per operand: 'readonly' (default), 'readwrite' or 'writeonly', and 'allocate',
        'no_broadcast', 'copy', 'updateifcopy', 'contig', 'nbo', 'aligned',
        'no_subtype', 'overlap_assume_elementwise'.
    op_dtypes : dtype or tuple of dtype, optional
        The dtypes the values are given in (a cast needs 'buffered', 'copy' or
        'updateifcopy').
    order : {'C', 'F', 'A', 'K'}, optional
        Iteration order; 'K' follows the operands' memory order.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        The rule for casts to and from op_dtypes.
    op_axes : list of list of int, optional
        For each operand, the operand axis for each iterator axis (-1: new axis).
    itershape : tuple of int, optional
        The iterator's shape (with op_axes, for allocated outputs).
    buffersize : int, optional
        Buffer size in elements when buffering (0: NumPy's 8192).

    See Also
    --------
    numpy.nditer

    Examples
    --------
    >>> a = garray.arange(6).reshape(2, 3)
    >>> [int(x) for x in garray.nditer(a.T)]          # memory order
    [0, 1, 2, 3, 4, 5]
    >>> with garray.nditer(a, op_flags=['readwrite']) as it:
    ...     for x in it:
    ...         x[...] = 2 * x
    """

    def __init__(self, op, flags=None, op_flags=None, op_dtypes=None, order="K",
                 casting="safe", op_axes=None, itershape=None, buffersize=0):
        self._ready = False
        flags = _lay.global_flags(flags)
        order, casting = _lay.order_casting(order, casting)
        objs = _lay.op_list(op)
        opf = _lay.op_flags_list(op_flags, objs)
        arrays = convert(objs)
        req = _lay.op_dtypes_list(op_dtypes, len(objs))
        axes, oa_ndim = _lay.op_axes_list(op_axes, len(objs))
        if itershape is not None:
            itershape = ((int(itershape),) if isinstance(itershape, (int, numpy.integer))
                         else tuple(int(s) for s in itershape))
            if oa_ndim == -1:
                oa_ndim, axes = len(itershape), [None] * len(objs)
            elif oa_ndim != len(itershape):
                raise ValueError("'op_axes' and 'itershape' must have the same number of "
                                 "entries equal to the iterator ndim")
        self._setup(arrays, flags, opf, req, order, casting, axes, oa_ndim, itershape,
                    int(buffersize))

    def __iter__(self):
        return self

    def __next__(self):
        if self._closed or self._finished:
            raise StopIteration
        if self._started:
            if not self._advance():
                self._finished = True
                raise StopIteration
            self._reset_child()
        self._started = True
        return self.value

    def iternext(self):
        """Advance one step (one chunk with external_loop).

        Returns
        -------
        bool
            Whether there are iterations left.
        """
        if not self._closed and not self._finished and self._advance():
            self._reset_child()
            return True
        self._finished = True
        return False

    def reset(self):
        """Reset the iterator to its first position (and allocate delayed buffers).

        Returns
        -------
        None
        """
        self._check_open()
        self._restart()
        self._reset_child()

    def copy(self):
        """A copy of the iterator in its current state (the nesting is not copied).

        Returns
        -------
        nditer
        """
        self._check_open()
        return self._copy_state(object.__new__(nditer))

    __copy__ = copy

    def close(self):
        """Write back buffered and copied operands and invalidate the iterator (what a
        ``with`` block does at its end).

        Returns
        -------
        None
        """
        if not getattr(self, "_ready", False) or self._closed:
            return
        self._closed = True
        self._child = None
        if self._buffered:
            self._flush()
        for tmp, orig in self._writeback:
            orig[...] = tmp.astype(orig.dtype)
        self._writeback = []

    def __enter__(self):
        if self._closed:
            raise RuntimeError("operation on non-initialized iterator")
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            if getattr(self, "_ready", False) and not self._closed:
                if self._writeback:
                    warnings.warn(_WRITEBACK_WARNING, RuntimeWarning, stacklevel=2)
                self.close()
        except Exception:   # noqa: BLE001 - a destructor must not raise
            pass

    # ---- values ----------------------------------------------------------------------

    def _check_open(self):
        if self._closed:
            raise ValueError(_INVALID)

    def _check_current(self):
        if self._closed or self._finished:
            raise ValueError(_PAST_END)
        if self._delayed:
            raise ValueError(_DELAYED)

    def _item(self, k):
        if self._exloop:
            return self._chunk(k, self._iterindex, self._chunk_size())
        return self._element(k, self._iterindex)

    def _operand_index(self, i):
        k = i + self._nop if i < 0 else i
        if not 0 <= k < self._nop:
            raise IndexError(f"Iterator operand index {i} is out of bounds")
        return k

    @property
    def value(self):
        """The current element of each operand: a 0-d view (a 1-d chunk with
        external_loop), or a tuple of them for several operands."""
        self._check_current()
        if self._nop == 1:
            return self._item(0)
        return tuple(self._item(k) for k in range(self._nop))

    def __len__(self):
        return 0 if self._closed else self._nop

    def _slice(self, key):
        start, stop, step = key.indices(self._nop)
        if step != 1:
            raise ValueError("Iterator slicing only supports a step of 1")
        return range(start, max(start, stop))

    def __getitem__(self, key):
        self._check_current()
        if isinstance(key, slice):
            return tuple(self._item(k) for k in self._slice(key))
        if isinstance(key, (int, numpy.integer)) and not isinstance(key, bool):
            return self._item(self._operand_index(int(key)))
        raise TypeError("invalid index type for iterator indexing")

    def __setitem__(self, key, value):
        self._check_current()
        if isinstance(key, slice):
            ks = self._slice(key)
            if not hasattr(value, "__len__") or len(value) != len(ks):
                raise ValueError("Wrong size to assign to iterator slice")
            for k, v in zip(ks, value):
                self._assign(k, k, v)
            return
        if isinstance(key, (int, numpy.integer)) and not isinstance(key, bool):
            self._assign(self._operand_index(int(key)), int(key), value)
            return
        raise TypeError("invalid index type for iterator indexing")

    def _assign(self, k, label, value):
        if not self._rw[k][1]:
            raise RuntimeError(f"Iterator operand {label} is not writeable")
        self._item(k)[...] = value

    def __delitem__(self, key):
        raise TypeError("Cannot delete iterator elements")

    # ---- positions and their setters -----------------------------------------------

    @property
    def multi_index(self):
        """The current multi-index (with the 'multi_index' flag); settable."""
        if self._closed or self._finished:
            raise ValueError(_PAST_END)
        if not self._has_mi:
            raise ValueError("Iterator is not tracking a multi-index")
        if self._delayed:
            raise ValueError(_DELAYED)
        return tuple(self._multi_index_at(self._iterindex))

    @multi_index.setter
    def multi_index(self, value):
        self._check_open()
        if not self._has_mi:
            raise ValueError("Iterator is not tracking a multi-index")
        if not hasattr(value, "__len__") or not hasattr(value, "__getitem__"):
            raise ValueError("multi_index must be set with a sequence")
        if len(value) != self._ndim:
            raise ValueError("Wrong number of indices")
        m = [int(v) for v in value]
        if self._buffered:
            raise ValueError("Cannot call GotoMultiIndex on an iterator which is buffered")
        if self._exloop:
            raise ValueError("Cannot call GotoMultiIndex on an iterator which has the flag "
                             "EXTERNAL_LOOP")
        self._goto(self._iterindex_of(m, "GotoMultiIndex called with an out-of-bounds "
                                         "multi-index", "GotoMultiIndex called with a "
                                         "multi-index outside the restricted iteration "
                                         "range"))

    @property
    def index(self):
        """The current C or Fortran flat index (with 'c_index' or 'f_index'); settable."""
        if self._closed or self._finished:
            raise ValueError(_PAST_END)
        if self._index is None:
            raise ValueError("Iterator does not have an index")
        m = self._multi_index_at(self._iterindex)
        return int(numpy.ravel_multi_index(m, self._shape,
                                           order="C" if self._index == "c_index" else "F")
                   ) if self._ndim else 0

    @index.setter
    def index(self, value):
        self._check_open()
        if self._index is None:
            raise ValueError("Iterator does not have an index")
        flat = int(value)
        if self._buffered:
            raise ValueError("Cannot call GotoIndex on an iterator which is buffered")
        if self._exloop:
            raise ValueError("Cannot call GotoIndex on an iterator which has the flag "
                             "EXTERNAL_LOOP")
        if not 0 <= flat < self._itersize:
            raise IndexError("Iterator GotoIndex called with an out-of-bounds index")
        m = ([int(c) for c in numpy.unravel_index(
            flat, self._shape, order="C" if self._index == "c_index" else "F")]
             if self._ndim else [])
        self._goto(self._iterindex_of(m, "GotoIndex called with an out-of-bounds index",
                                      "GotoIndex called with an index outside the "
                                      "restricted iteration range."))

    @property
    def iterindex(self):
        """The current position in iteration order; settable."""
        if self._closed or self._finished:
            raise ValueError(_PAST_END)
        return self._iterindex

    @iterindex.setter
    def iterindex(self, value):
        self._check_open()
        i = int(value)
        if self._exloop:
            raise ValueError("Cannot call GotoIterIndex on an iterator which has the flag "
                             "EXTERNAL_LOOP")
        if not self._iterstart <= i < self._iterend:
            raise IndexError("Iterator GotoIterIndex called with an iterindex outside the "
                             "iteration range.")
        self._goto(i)

    @property
    def iterrange(self):
        """The (start, end) iteration-index range; settable with the 'ranged' flag."""
        self._check_open()
        return (self._iterstart, self._iterend)

    @iterrange.setter
    def iterrange(self, value):
        self._check_open()
        start, end = (int(v) for v in value)
        if "ranged" not in self._flags:
            raise ValueError("Cannot call ResetToIterIndexRange on an iterator without "
                             "requesting ranged iteration support in the constructor")
        if start < 0 or end > self._itersize:
            raise ValueError(f"Out-of-bounds range [{start}, {end}) passed to "
                             f"ResetToIterIndexRange")
        if end < start:
            raise ValueError(f"Invalid range [{start}, {end}) passed to "
                             f"ResetToIterIndexRange")
        self._iterstart, self._iterend = start, end
        self.reset()

    # ---- properties ------------------------------------------------------------------

    @property
    def shape(self):
        """The iterator's shape: in the operands' axis order with multi_index, else the
        coalesced axes innermost first (as NumPy reports them)."""
        if self._closed or self._finished:
            raise ValueError(_PAST_END)
        if self._has_mi:
            return tuple(self._shape)
        return tuple(self._cshape)

    @property
    def ndim(self):
        """The number of iterator dimensions (after coalescing without multi_index)."""
        self._check_open()
        return len(self._cshape)

    @property
    def nop(self):
        """The number of operands."""
        self._check_open()
        return self._nop

    @property
    def itersize(self):
        """The number of elements iterated over."""
        self._check_open()
        return self._itersize

    @property
    def finished(self):
        """Whether the iteration is over."""
        return not self._closed and self._finished

    @property
    def operands(self):
        """The operands: the arrays given, allocated outputs and 'copy' temporaries."""
        self._check_open()
        return tuple(self._arrays)

    @property
    def dtypes(self):
        """The dtypes of the values (op_dtypes where given)."""
        self._check_open()
        return tuple(self._dtypes)

    @property
    def itviews(self):
        """Views of the operands in iteration order (coalesced axes, C order)."""
        self._check_open()
        return self._views()

    @property
    def has_multi_index(self):
        self._check_open()
        return self._has_mi

    @property
    def has_index(self):
        self._check_open()
        return self._index is not None

    @property
    def has_delayed_bufalloc(self):
        self._check_open()
        return self._delayed

    @property
    def iterationneedsapi(self):
        self._check_open()
        return False

    # ---- changing the iteration ----------------------------------------------------

    def remove_axis(self, i, /):
        """Remove iterator axis ``i`` (needs 'multi_index', no index, no buffering); the
        operands stay at index 0 along it.  Resets the iterator.

        Parameters
        ----------
        i : int
            The axis, in the multi-index's order.

        Returns
        -------
        None
        """
        self._check_open()
        if not self._has_mi:
            raise RuntimeError("Iterator RemoveAxis may only be called if a multi-index is "
                               "being tracked")
        if self._index is not None:
            raise RuntimeError("Iterator RemoveAxis may not be called on an index is being "
                               "tracked")
        if self._buffered:
            raise RuntimeError("Iterator RemoveAxis may not be called on a buffered "
                               "iterator")
        i = int(i)
        if not 0 <= i < self._ndim:
            raise ValueError("axis out of bounds in iterator RemoveAxis")
        self._drop_axis(i)

    def remove_multi_index(self):
        """Stop tracking the multi-index, so axes may coalesce.  Resets the iterator.

        Returns
        -------
        None
        """
        self._check_open()
        self._restart()
        if self._has_mi:
            self._has_mi = False
            self._coalesce()
            if self._buffered:
                self._setup_buffering(self._buffersize)
                self._restart()

    def enable_external_loop(self):
        """Yield 1-d chunks from now on, as the 'external_loop' flag does.  Resets the
        iterator.

        Returns
        -------
        None
        """
        self._check_open()
        if self._has_mi or self._index is not None:
            raise ValueError("Iterator flag EXTERNAL_LOOP cannot be used if an index or "
                             "multi-index is being tracked")
        if "ranged" in self._flags and not self._buffered:
            raise ValueError("Iterator flag EXTERNAL_LOOP cannot be used with ranged "
                             "iteration unless buffering is also enabled")
        self._exloop = True
        self._restart()

    def debug_print(self):
        """Print the iterator's layout (garray's own summary, not NumPy's dump).

        Returns
        -------
        None
        """
        if self._closed:
            print("Iterator: (nil)")
            return
        print(f"garray nditer: shape {tuple(self._shape)}, internal axes (innermost first) "
              f"{self._axes}, flipped {self._flips}, coalesced {self._cshape}, "
              f"iterindex {self._iterindex} of [{self._iterstart}, {self._iterend}), "
              f"flags {sorted(self._flags)}")
        for k, a in enumerate(self._arrays):
            print(f"  op {k}: shape {a.shape}, strides {a.strides}, dtype {self._dtypes[k]}, "
                  f"flags {sorted(self._opf[k])}")


def nested_iters(op, axes, flags=None, op_flags=None, op_dtypes=None, order="K",
                 casting="safe", buffersize=0):
    """Iterators for nested loops, one per entry of ``axes``, outermost first: advancing
    one moves the iterators inside it to its current element (NumPy's semantics).

    Parameters
    ----------
    op : ndarray or sequence of array_like
        The array(s) to iterate over.
    axes : list of list of int
        The iterator axes of each loop (each used as op_axes for every operand).
    flags, op_flags, op_dtypes, order, casting, buffersize
        As for ``nditer``; buffering and external_loop apply to the innermost loop.

    Returns
    -------
    tuple of nditer
        Outermost first.

    See Also
    --------
    numpy.nested_iters

    Examples
    --------
    >>> a = garray.arange(6).reshape(2, 3)
    >>> i, j = garray.nested_iters(a, [[1], [0]])
    >>> [[int(y) for y in j] for x in i]
    [[0, 3], [1, 4], [2, 5]]
    """
    return build_nested(nditer, op, axes, flags, op_flags, op_dtypes, order, casting,
                        buffersize)
