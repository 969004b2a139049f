"""The engine behind ``nditer``: construction (NumPy's ``NpyIter_AdvancedNew``), positions,
the garray views it yields, buffers and stepping (Note [nditer] in ``nditer.py``).  The
public methods and properties live on ``nditer``, which derives from ``IterEngine``.
"""

import numpy

from .. import _core, _dtypes
from .._args import as_array
from .._core import empty, ndarray
from .._inquiry import may_share_memory
from . import nditer_layout as _lay

__all__ = ["IterEngine", "convert"]


def convert(objs):
    """Operands as garray arrays on one device (None kept)."""
    dev = next((o.device for o in objs if isinstance(o, ndarray)), None)
    out = [None if o is None else as_array(o, f"nditer: op[{k}]", dev)
           for k, o in enumerate(objs)]
    devs = {a.device for a in out if a is not None}
    if len(devs) > 1:
        raise ValueError(f"nditer: operands are on different devices "
                         f"{sorted(map(str, devs))}")
    return out


def _in_order(shape, drive, axes, dtype, device):
    """A new array of ``shape`` whose memory follows the iteration: axes moved by inner
    iterator axes vary fastest, unmoved axes fastest of all (NumPy's
    ``npyiter_new_temp_array``)."""
    rank = {d: r for r, d in enumerate(axes)}
    moved = sorted((j for j, d in enumerate(drive) if d is not None),
                   key=lambda j: -rank[drive[j]])
    order = moved + [j for j, d in enumerate(drive) if d is None]
    base = empty(tuple(shape[j] for j in order), dtype=dtype, device=device)
    inverse = [order.index(j) for j in range(len(shape))]
    return base.transpose(inverse) if len(shape) > 1 else base


class IterEngine:
    """The state of an ``nditer``: NumPy's AXISDATA as Python lists.

    Invariants: ``_axes`` holds the iterator axes innermost first and ``_flips`` which
    run backwards; ``_drive[k][j]`` is the iterator axis moving axis j of operand k
    (None: fixed at ``_base[k][j]``, which a parent of ``nested_iters`` sets); an
    iteration index is a mixed-radix number over ``_axes``; ``_cshape`` / ``_cstrides``
    are the coalesced internal axes (innermost first), ``_buf`` the buffered transfer.
    """

    # ---- construction (NumPy's NpyIter_AdvancedNew) ----------------------------------

    def _setup(self, arrays, flags, opf, req, order, casting, op_axes, oa_ndim, itershape,
               buffersize):
        self._ready = False
        _lay.check_op_axes(op_axes)
        _lay.check_global_flags(flags)
        nop = len(arrays)
        ndim = oa_ndim if oa_ndim >= 0 else max((a.ndim for a in arrays if a is not None),
                                                default=0)
        buffered = "buffered" in flags
        rw = []
        for k, a in enumerate(arrays):
            read, write = _lay.check_op_flags(opf[k])
            rw.append((read, write))
            if a is None:
                if not opf[k] & {"allocate", "virtual"}:
                    raise ValueError("Iterator operand was NULL, but neither the ALLOCATE nor "
                                     "the VIRTUAL flag was specified")
                if "allocate" not in opf[k]:
                    continue
                if not write:
                    raise ValueError("Automatic allocation was requested for an iterator "
                                     "operand, but it wasn't flagged for writing")
                if buffered and "delay_bufalloc" not in flags and read:
                    raise ValueError("Automatic allocation was requested for an iterator "
                                     "operand, and it was flagged as readable, but buffering "
                                     " without delayed allocation was enabled")
                continue
            if write and not a.flags.writeable:
                raise ValueError("operand array with iterator write flag set is read-only")
            if "zerosize_ok" not in flags and a.size == 0:
                raise ValueError("Iteration of zero-sized operands is not enabled")
        _lay.check_masks(arrays, opf)
        shape, drive, reduce_ = _lay.broadcast(arrays, op_axes, itershape, ndim, flags, opf,
                                               rw)
        self._nop, self._ndim, self._shape = nop, ndim, shape
        self._flags, self._opf, self._rw, self._reduce = flags, opf, rw, reduce_
        self._drive = drive
        self._index = ("c_index" if "c_index" in flags else
                       "f_index" if "f_index" in flags else None)
        self._has_mi = "multi_index" in flags
        self._exloop = "external_loop" in flags
        self._buffered = buffered
        self._itersize = 1
        for n in shape:
            self._itersize *= n

        # axis order (NumPy: forced C/F/A, else the best order and flips for K)
        strides = [_lay.dim_strides(a, drive[k], shape) for k, a in enumerate(arrays)]
        per_axis = [[strides[k][d] for k in range(nop)] for d in range(ndim)]
        axes = list(range(ndim - 1, -1, -1))
        if order == "F" or (order == "A" and all(a is None or a.flags.f_contiguous
                                                 for a in arrays)):
            axes.reverse()
        elif order == "K" and ndim > 1:
            axes = _lay.best_axis_order(per_axis, ndim)
        any_allocate = any(a is None for a in arrays)
        self._axes = axes
        self._flips = (_lay.flipped_axes(axes, per_axis) if order == "K" and not any_allocate
                       else [False] * ndim)

        # dtypes (NumPy: result_type of the inputs for allocated outputs, or of all for
        # common_dtype) and the casts they need
        dts = [req[k] if req[k] is not None or a is None else a.dtype
               for k, a in enumerate(arrays)]
        if "common_dtype" in flags or any(d is None for d in dts):
            cands = [d for k, d in enumerate(dts)
                     if d is not None and ("common_dtype" in flags or rw[k][0])]
            if not cands:
                raise TypeError("no arrays or types available to calculate result type")
            common = _dtypes.result_type(*cands)
            dts = [common if "common_dtype" in flags or d is None else d for d in dts]
        cast = [False] * nop
        for k, a in enumerate(arrays):
            if a is None or a.dtype == dts[k]:
                continue
            read, write = rw[k]
            if read and not _dtypes.can_cast(a.dtype, dts[k], casting):
                raise TypeError(f"Iterator operand {k} dtype could not be cast from "
                                f"{a.dtype!r} to {dts[k]!r} according to the rule "
                                f"'{casting}'")
            if write and not _dtypes.can_cast(dts[k], a.dtype, casting):
                raise TypeError(f"Iterator requested dtype could not be cast from "
                                f"{dts[k]!r} to {a.dtype!r}, the operand {k} dtype, "
                                f"according to the rule '{casting}'")
            cast[k] = True
        self._dtypes = dts
        self._arrays = list(arrays)
        self._writeback = []
        self._allocate(op_axes, cast)

        # coalescing (no multi-index), then NumPy's buffer layout
        self._base = [[0] * a.ndim for a in self._arrays]
        self._cast = cast
        self._coalesce()
        self._iterstart, self._iterend = 0, self._itersize
        self._iterindex = 0
        self._buf = None
        self._delayed = buffered and "delay_bufalloc" in flags
        self._child = None
        self._closed = False
        self._ready = True
        self._buffersize = buffersize
        if buffered:
            self._setup_buffering(buffersize)
            if not self._delayed:
                self._fill()
        self._started = self._finished = self._itersize == 0

    def _allocate(self, op_axes, cast):
        """NumPy's ``npyiter_allocate_arrays``: outputs, copies and the contig check."""
        arrays, dts, rw = self._arrays, self._dtypes, self._rw
        dev = next((a.device for a in arrays if a is not None), None)
        force = [False] * len(arrays)
        if "copy_if_overlap" in self._flags:
            for k, a in enumerate(arrays):
                if a is None or not rw[k][1]:
                    continue
                for o, b in enumerate(arrays):
                    if o == k or b is None or not rw[o][0] or force[o]:
                        continue
                    if ("overlap_assume_elementwise" in self._opf[k]
                            and "overlap_assume_elementwise" in self._opf[o]
                            and _same_view(a, b)):
                        continue
                    if may_share_memory(a, b):
                        force[k] = True
                        break
        for k, a in enumerate(arrays):
            read, write = rw[k]
            axes = None if op_axes is None else op_axes[k]
            if a is None:
                shp, drv = _lay.allocated_shape(self._shape, axes, self._ndim)
                arrays[k] = _in_order(shp, drv, self._axes, dts[k], dev)
                self._drive[k] = drv
                cast[k] = False
            elif cast[k] and read and not write and a.ndim == 0:
                arrays[k] = a.astype(dts[k])
                cast[k] = False
            elif (cast[k] and self._opf[k] & {"copy", "updateifcopy"}) or force[k]:
                tmp = _in_order(a.shape, self._drive[k], self._axes, dts[k], a.device)
                if read:
                    tmp[...] = a
                if write:
                    self._writeback.append((tmp, a))
                arrays[k] = tmp
                cast[k] = False
            elif cast[k] and not self._buffered:
                raise TypeError("Iterator operand required copying or buffering, but neither "
                                "copying nor buffering was enabled")
            if "contig" in self._opf[k]:
                inner = self._internal_strides(k)[0] if self._ndim else 0
                if inner != dts[k].itemsize:
                    cast[k] = True
                    if not self._buffered:
                        raise TypeError("Iterator operand required buffering, to be "
                                        "contiguous as requested, but buffering is not "
                                        "enabled")

    def _internal_strides(self, k):
        """Operand k's byte strides along the internal axes, flips applied."""
        st = _lay.dim_strides(self._arrays[k], self._drive[k], self._shape)
        return [-st[d] if f else st[d] for d, f in zip(self._axes, self._flips)]

    def _coalesce(self):
        nd = self._ndim
        ishape = [self._shape[d] for d in self._axes]
        table = [self._internal_strides(k) for k in range(self._nop)]
        if self._index is not None:
            ist = _lay.index_strides(self._shape, self._index)
            table.append([-ist[d] if f else ist[d] for d, f in zip(self._axes, self._flips)])
        per_idim = [[col[i] for col in table] for i in range(nd)]
        if self._has_mi or nd <= 1:
            self._groups = [[i] for i in range(nd)]
            self._cshape, self._cstrides = ishape, per_idim
        else:
            self._groups, self._cshape, self._cstrides = _lay.coalesce(ishape, per_idim)

    def _setup_buffering(self, buffersize):
        cshape = self._cshape or [1]
        cstr = [s[:self._nop] for s in self._cstrides] or [[0] * self._nop]
        self._coresize, self._outerdim, self._bufsize, self._using_reduce = \
            _lay.buffer_setup(cshape, cstr, self._cast, self._reduce,
                              ["contig" in f for f in self._opf], [w for _, w in self._rw],
                              buffersize, "grow_inner" in self._flags)

    # ---- positions -----------------------------------------------------------------

    def _multi_index_at(self, i):
        m = [0] * self._ndim
        for d, f in zip(self._axes, self._flips):
            n = self._shape[d]
            i, c = divmod(i, n)
            m[d] = n - 1 - c if f else c
        return m

    def _coords(self, k, m):
        a, base = self._arrays[k], self._base[k]
        return tuple(m[d] if d is not None and a.shape[j] != 1 else base[j]
                     for j, d in enumerate(self._drive[k]))

    def _offset(self, k, coords):
        return sum(c * s for c, s in zip(coords, self._arrays[k].strides))

    def _coord_arrays(self, start, n):
        """Multi-indices of iteration indices [start, start + n), one array per axis."""
        i = numpy.arange(start, start + n, dtype=numpy.int64)
        m = [None] * self._ndim
        for d, f in zip(self._axes, self._flips):
            s = self._shape[d]
            i, c = numpy.divmod(i, s)
            m[d] = s - 1 - c if f else c
        return m

    def _op_coord_arrays(self, k, m, n):
        a, base = self._arrays[k], self._base[k]
        return tuple(m[d] if d is not None and a.shape[j] != 1
                     else numpy.full(n, base[j], dtype=numpy.int64)
                     for j, d in enumerate(self._drive[k]))

    def _element(self, k, i):
        """A 0-d view of operand k at iteration index i."""
        buf = self._buf
        if buf is not None and k in buf["ops"]:
            data, slots, _ = buf["ops"][k]
            slot = int(slots[i - buf["start"]])
            return _core._strided_view(data, (), (), slot * data.itemsize, self._rw[k][1])
        off = self._offset(k, self._coords(k, self._multi_index_at(i)))
        return _core._strided_view(self._arrays[k], (), (), off, self._rw[k][1])

    def _chunk(self, k, i, n):
        """A 1-d view of operand k over iteration indices [i, i + n) (external_loop)."""
        w = self._rw[k][1]
        buf = self._buf
        if buf is not None and k in buf["ops"]:
            data, slots, _ = buf["ops"][k]
            s = slots[i - buf["start"]:i - buf["start"] + n]
            step = _progression(s)
            if step is None:
                raise NotImplementedError("nditer: a buffered external-loop chunk that is "
                                          "not one strided run of its buffer")
            return _core._strided_view(data, (n,), (step * data.itemsize,),
                                       int(s[0]) * data.itemsize, w)
        if buf is not None:
            offs = buf["offsets"][k][i - buf["start"]:i - buf["start"] + n]
            return _core._strided_view(self._arrays[k], (n,), (_progression(offs),),
                                       int(offs[0]), w)
        off0 = self._offset(k, self._coords(k, self._multi_index_at(i)))
        step = 0
        if n > 1:
            step = self._offset(k, self._coords(k, self._multi_index_at(i + 1))) - off0
        return _core._strided_view(self._arrays[k], (n,), (step,), off0, w)

    def _chunk_size(self):
        if self._buffered:
            return self._buf["size"] if self._buf is not None else 0
        return self._cshape[0] if self._cshape else 1

    # ---- buffers (NumPy's copy_to_buffers / copy_from_buffers) ---------------------

    def _fill(self):
        """Buffer the transfer starting at the current iteration index."""
        it, core = self._iterindex, self._coresize
        cshape = self._cshape or [1]
        below = 1
        for n in cshape[:self._outerdim]:
            below *= n
        outer_n = cshape[self._outerdim]
        remaining = outer_n - (it // below) % outer_n if outer_n else 0
        transfer = self._bufsize
        if it % core:
            transfer = core - it % core
        elif transfer > core * remaining:
            transfer = core * remaining
        transfer = min(transfer, self._iterend - it)
        if transfer <= 0:
            self._buf = None
            return
        size, end = transfer, it + transfer
        if self._using_reduce and transfer // core > 1:
            size, end = core, it + core * (transfer // core)
        n = end - it
        m = self._coord_arrays(it, n)
        ops, offsets = {}, {}
        for k, a in enumerate(self._arrays):
            if not self._cast[k] and not self._exloop:
                continue        # viewed directly, element by element
            coords = self._op_coord_arrays(k, m, n)
            offs = sum((c * s for c, s in zip(coords, a.strides)),
                       numpy.zeros(n, dtype=numpy.int64))
            if not self._cast[k] and _runs(offs, size):
                offsets[k] = offs
                continue
            ops[k] = self._gather(k, coords, offs, n)
        self._buf = {"start": it, "end": end, "size": size, "ops": ops, "offsets": offsets}

    def _gather(self, k, coords, offs, n):
        a, dt = self._arrays[k], self._dtypes[k]
        if self._rw[k][1]:     # written: one slot per element, in first-seen order
            _, first, inv = numpy.unique(offs, return_index=True, return_inverse=True)
            order = numpy.argsort(first, kind="stable")
            rank = numpy.empty_like(order)
            rank[order] = numpy.arange(order.size)
            slots = rank[inv.reshape(-1)]
            keep = first[order]
            coords = tuple(c[keep] for c in coords)
            count = keep.size
        else:
            slots, count = numpy.arange(n), n
        if a.ndim == 0:
            data = empty((count,), dtype=dt, device=a.device)
            data[...] = a
            idx = None
        else:
            idx = tuple(_core.asarray(c, device=a.device) for c in coords)
            data = a[idx].astype(dt)
        return data, slots, idx

    def _flush(self):
        """Write the written operands' buffers back (NumPy's copy_from_buffers)."""
        buf, self._buf = self._buf, None
        if buf is None:
            return
        for k, (data, _, idx) in buf["ops"].items():
            if not self._rw[k][1]:
                continue
            a = self._arrays[k]
            if idx is None:
                a[...] = data[-1]
            else:
                a[idx] = data.astype(a.dtype)

    def _iterindex_of(self, m, oob, outside):
        i, factor = 0, 1
        for d, f in zip(self._axes, self._flips):
            n = self._shape[d]
            c = n - 1 - m[d] if f else m[d]
            if not 0 <= c < n:
                raise IndexError(f"Iterator {oob}")
            i += factor * c
            factor *= n
        if not self._iterstart <= i < self._iterend:
            raise IndexError(f"Iterator {outside}")
        return i

    def _copy_state(self, new):
        """``new`` (a bare object) as a copy of this iterator, buffers copied, no nesting."""
        new.__dict__.update(self.__dict__)
        for name in ("_arrays", "_axes", "_flips", "_shape", "_cast", "_writeback",
                     "_cshape", "_groups", "_dtypes", "_opf", "_rw", "_reduce"):
            setattr(new, name, list(getattr(self, name)))
        new._drive = [None if d is None else list(d) for d in self._drive]
        new._base = [list(b) for b in self._base]
        new._cstrides = [list(c) for c in self._cstrides]
        new._child = None
        if self._buf is not None:
            new._buf = dict(self._buf, ops={k: (d.copy(), s, i)
                                            for k, (d, s, i) in self._buf["ops"].items()})
        return new

    def _views(self):
        """NumPy's itviews: each operand over the coalesced axes, C order."""
        if self._buffered:
            raise ValueError("cannot provide an iterator view when buffering is enabled")
        views = []
        shape = tuple(reversed(self._cshape))
        for k, a in enumerate(self._arrays):
            off = self._offset(k, self._coords(k, self._multi_index_at(0)))
            st = tuple(reversed([s[k] for s in self._cstrides]))
            views.append(_core._strided_view(a, shape, st, off, self._rw[k][1]))
        return tuple(views)

    def _drop_axis(self, i):
        """NumPy's RemoveAxis once checked: operands stay at index 0 along axis i."""
        pos = self._axes.index(i)
        del self._axes[pos], self._flips[pos], self._shape[i]
        self._axes = [d - (d > i) for d in self._axes]
        for k, drive in enumerate(self._drive):
            self._drive[k] = [None if d is None or d == i else d - (d > i) for d in drive]
        self._ndim -= 1
        self._itersize = 1
        for n in self._shape:
            self._itersize *= n
        self._iterend = self._itersize
        self._coalesce()
        self._restart()

    # ---- iteration -----------------------------------------------------------------

    def _advance(self):
        """NumPy's iternext: False at the end."""
        step = self._chunk_size() if self._exloop else 1
        self._iterindex += step
        if not self._buffered:
            return self._iterindex < self._iterend
        if self._buf is not None and self._iterindex < self._buf["end"]:
            return True
        self._flush()
        if self._iterindex >= self._iterend:
            return False
        self._fill()
        return True

    def _goto(self, i):
        """Move to iteration index i (NumPy's GotoIterIndex), refilling buffers."""
        buf = self._buf
        if (self._buffered and not (buf is not None and not self._using_reduce
                                    and buf["start"] <= i < buf["end"])):
            self._flush()
            self._iterindex = i
            self._fill()
        else:
            self._iterindex = i
        self._started = self._finished = False
        self._reset_child()

    def _reset_child(self):
        child = self._child
        if child is None or self._finished:
            return
        m = self._multi_index_at(self._iterindex)
        child._base = [list(self._coords(k, m)) for k in range(self._nop)]
        child._restart()
        child._reset_child()

    def _restart(self):
        if self._buffered:
            self._flush()
            self._delayed = False
        self._iterindex = self._iterstart
        if self._buffered:
            self._fill()
        self._started = self._finished = self._iterstart >= self._iterend


def _progression(v):
    """The common difference of the integer sequence ``v`` (0 for one element), or None
    when it is not an arithmetic progression."""
    if len(v) < 2:
        return 0
    d = int(v[1]) - int(v[0])
    if len(v) > 2 and numpy.any(numpy.diff(numpy.asarray(v)) != d):
        return None
    return d


def _runs(offs, size):
    """Whether every chunk of ``size`` consecutive offsets is one strided run."""
    if size < 3:
        return True
    rows = offs.reshape(-1, size)
    return bool((numpy.diff(rows, axis=1) == (rows[:, 1] - rows[:, 0])[:, None]).all())


def _same_view(a, b):
    return (a.ptr == b.ptr and a.shape == b.shape and a.strides == b.strides
            and a.dtype == b.dtype)
