"""``nested_iters``: NumPy's nested loops as linked ``nditer`` objects (NumPy's
``NpyIter_NestedIters`` in nditer_pywrap.c).  Each loop is an iterator over its own
axes, given as op_axes to every operand; only the innermost one buffers or yields
external-loop chunks; when one moves, the next starts again at its element
(``IterEngine._reset_child``).
"""

from . import nditer_layout as _lay
from .nditer_engine import convert

__all__ = ["build_nested"]


def _nested_axes(axes):
    if not isinstance(axes, (list, tuple)):
        raise ValueError("axes must be a tuple of axis arrays")
    if len(axes) < 2:
        raise ValueError("axes must have at least 2 entries for nested iteration")
    nested, used = [], set()
    for item in axes:
        if not isinstance(item, (list, tuple)):
            raise ValueError("Each item in axes must be an integer tuple")
        if len(used) + len(item) > _lay.MAXDIMS:
            raise ValueError("Too many axes given")
        row = []
        for v in item:
            ax = int(v)
            if not 0 <= ax < _lay.MAXDIMS:
                raise ValueError("An axis is out of bounds")
            if ax in used:
                raise ValueError("An axis is used more than once")
            used.add(ax)
            row.append(ax)
        nested.append(row)
    return nested


def build_nested(cls, op, axes, flags, op_flags, op_dtypes, order, casting, buffersize):
    """The linked iterators (instances of ``cls``, ``nditer``) of ``nested_iters``,
    outermost first."""
    objs = _lay.op_list(op)
    arrays = convert(objs)      # a NumPy operand is refused first, whatever else is wrong
    flags = _lay.global_flags(flags)
    order, casting = _lay.order_casting(order, casting)
    nested = _nested_axes(axes)
    nop = len(objs)
    opf = [set(f) for f in _lay.op_flags_list(op_flags, objs)]
    req = _lay.op_dtypes_list(op_dtypes, nop)
    # NumPy: copies and allocation happen in the outermost iterator; with buffering the
    # requested dtypes go to the innermost one only
    req_inner = [None] * nop
    inner_opf = []
    copying = {"copy", "updateifcopy", "allocate"}
    for k in range(nop):
        if "allocate" in opf[k] and arrays[k] is not None:
            opf[k].discard("allocate")
        inner_opf.append(frozenset(opf[k] - copying))
        if "buffered" in flags and not opf[k] & copying:
            opf[k] -= {"nbo", "aligned", "contig"}
            req_inner[k], req[k] = req[k], None
    flags_inner = flags - {"common_dtype"}
    flags_outer = flags - {"external_loop", "buffered"}
    iters = []
    for inest, row in enumerate(nested):
        # an allocated output has the outermost loop's axes and is broadcast in the others
        op_axes = [(None if inest == 0 else [-1] * len(row)) if "allocate" in opf[k]
                   else list(row) for k in range(nop)]
        it = object.__new__(cls)
        if inest < len(nested) - 1:
            it._setup(list(arrays), flags_outer, [frozenset(f) for f in opf], req, order,
                      casting, op_axes, len(row), None, 0)
        else:
            it._setup(list(arrays), flags_inner, inner_opf, req_inner, order, casting,
                      op_axes, len(row), None, int(buffersize))
        iters.append(it)
        if inest == 0:
            arrays = list(it._arrays)
            for f in opf:
                f -= {"copy", "updateifcopy"}
            flags_outer = flags_outer - {"common_dtype"}
    for parent, child in zip(iters, iters[1:]):
        parent._child = child
    iters[0]._reset_child()
    return tuple(iters)
