"""``nditer`` and ``nested_iters`` (garray/_index/nditer.py, nditer_engine.py,
nditer_layout.py) against ``numpy.nditer``: the sequences of values, multi-indices,
indices and external-loop chunks in C, F, A and K order over contiguous, transposed,
sliced and negative-stride views; writes through 'readwrite' / 'writeonly' / allocated
operands; reductions; buffering with casts; every dtype; empty and 0-d operands; NumPy's
errors.  Each body runs with xp=numpy and xp=garray (tests/xp.py)."""

import gc
import warnings

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, make, run_in_threads, xp_compare

# complex -> real casts in op_dtypes tests are deliberate; NumPy warns on them
pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")


def view(xp, layout, dtype="int64"):
    """A view in one of the layouts nditer's K order reads from the strides."""
    if layout == "c":
        return make(xp, (3, 4), dtype)
    if layout == "t":
        return make(xp, (3, 4), dtype).T
    if layout == "neg":
        return make(xp, (3, 4), dtype)[::-1, ::-1]
    if layout == "neg_t":
        return make(xp, (3, 4), dtype).T[::-1]
    if layout == "step":
        return make(xp, (6, 8), dtype)[::2, 1::3]
    if layout == "slice":
        return make(xp, (3, 5), dtype)[:, 1:4]
    if layout == "perm3":
        return make(xp, (2, 3, 4), dtype).transpose(2, 0, 1)
    if layout == "mixed3":
        return make(xp, (3, 4, 5), dtype)[::-1, 1:, ::2].transpose(1, 2, 0)
    if layout == "bcast":
        return xp.broadcast_to(make(xp, (4,), dtype), (3, 4))
    raise ValueError(layout)


LAYOUTS = ("c", "t", "neg", "neg_t", "step", "slice", "perm3", "mixed3", "bcast")
ORDERS = ("C", "F", "A", "K")


def ints(it):
    return [int(x) for x in it]


def grab(it):
    """The values of a loop, copied: a buffered iterator reuses its buffer, so NumPy's
    (and garray's) values of one step are overwritten by the next."""
    return [tuple(v.copy() for v in x) if isinstance(x, tuple) else x.copy() for x in it]


# ---- order, multi-index, index ------------------------------------------------------


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_values_in_order(xp, layout, order):
    a = view(xp, layout)
    it = xp.nditer(a, order=order)
    return [ints(it), it.itersize, it.ndim]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_multi_index_sequence(xp, layout, order):
    it = xp.nditer(view(xp, layout), ["multi_index"], order=order)
    seq = [(it.multi_index, it.iterindex, int(x)) for x in it]
    return [seq, it.itersize, it.ndim]


@pytest.mark.parametrize("flag", ["c_index", "f_index"])
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_index_sequence(xp, layout, order, flag):
    it = xp.nditer(view(xp, layout), [flag], order=order)
    return [(it.index, int(x)) for x in it]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_shape_after_coalescing(xp, layout, order):
    it = xp.nditer(view(xp, layout), order=order)
    mi = xp.nditer(view(xp, layout), ["multi_index"], order=order)
    return [it.shape, it.ndim, mi.shape, mi.ndim]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@xp_compare()
def test_external_loop_chunks(xp, layout, order):
    return list(xp.nditer(view(xp, layout), ["external_loop"], order=order))


@pytest.mark.parametrize("buffersize", [0, 3, 5, 7])
@pytest.mark.parametrize("layout", ["c", "slice", "mixed3", "perm3", "step"])
@pytest.mark.parametrize("extra", [[], ["grow_inner"]], ids=["plain", "grow_inner"])
@xp_compare()
def test_buffered_external_loop_chunks(xp, layout, buffersize, extra):
    a = view(xp, layout)
    plain = grab(xp.nditer(a, ["external_loop", "buffered"] + extra, buffersize=buffersize))
    cast = grab(xp.nditer(a, ["external_loop", "buffered"] + extra, buffersize=buffersize,
                          op_dtypes=["float64"]))
    return plain + cast


@xp_compare()
def test_large_buffered_chunks(xp):
    a = xp.arange(20000)
    return [[len(x) for x in xp.nditer(a, ["external_loop", "buffered"])],
            [len(x) for x in xp.nditer(a, ["external_loop"])]]


# ---- several operands ---------------------------------------------------------------


@pytest.mark.parametrize("order", ORDERS)
@xp_compare()
def test_two_operands_broadcast(xp, order):
    a, b = make(xp, (3, 1), "int32"), make(xp, (4,), "float32")[::-1]
    it = xp.nditer([a, b], ["multi_index"], order=order)
    seq = [(it.multi_index, int(x), float(y)) for x, y in it]
    chunks = list(xp.nditer([a, b.T], ["external_loop"], order=order))
    return [seq, chunks, it.dtypes]


@xp_compare()
def test_three_operands_with_scalars(xp):
    a = make(xp, (2, 3), "int64").T
    return [(int(x), float(y), int(z)) for x, y, z in xp.nditer([a, 2.5, [10, 20]])]


@xp_compare()
def test_sequence_of_lists_is_several_operands(xp):
    return [(int(x), int(y)) for x, y in xp.nditer([[1, 2], [3, 4]])]


@pytest.mark.parametrize("shapes", [((2, 3), (4,)), ((2, 3), (3, 2)), ((5,), (2, 4))],
                         ids=str)
@xp_compare()
def test_broadcast_error(xp, shapes):
    return xp.nditer([make(xp, s, "int64") for s in shapes])


@xp_compare()
def test_no_broadcast_error(xp):
    return xp.nditer([make(xp, (3,), "int64"), make(xp, (2, 3), "int64")],
                     op_flags=[["readonly", "no_broadcast"], ["readonly"]])


# ---- writing ------------------------------------------------------------------------


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("layout", [lay for lay in LAYOUTS if lay != "bcast"])
@xp_compare()
def test_readwrite_writes_the_array(xp, layout, order):
    a = view(xp, layout)
    with xp.nditer(a, op_flags=["readwrite"], order=order) as it:
        for i, x in enumerate(it):
            x[...] = 2 * x + i
    return a


@pytest.mark.parametrize("layout", ["c", "t", "neg", "slice"])
@xp_compare()
def test_writeonly_and_cstyle_assignment(xp, layout):
    src = view(xp, layout, "float32")
    out = xp.zeros(src.shape, dtype="float64")
    it = xp.nditer([src, out], [], [["readonly"], ["writeonly"]])
    while not it.finished:
        it[1] = it[0] * 3
        it.iternext()
    return out


@xp_compare()
def test_external_loop_writes(xp):
    a = view(xp, "mixed3")
    with xp.nditer(a, ["external_loop"], [["readwrite"]]) as it:
        for x in it:
            x[...] = x * 10 + 1
    return a


@xp_compare()
def test_slice_assignment(xp):
    a, b = make(xp, (3,), "int64"), make(xp, (3,), "int64")
    it = xp.nditer([a, b], op_flags=["readwrite"])
    next(it)
    it[0:2] = (7, 8)
    return [a, b, list(it[:])]


@xp_compare()
def test_readonly_value_rejects_writes(xp):
    for x in xp.nditer(make(xp, (2, 2), "int64")):
        x[...] = 1


@xp_compare()
def test_readonly_operand_rejects_item_assignment(xp):
    it = xp.nditer([make(xp, (2,), "int64"), make(xp, (2,), "int64")],
                   op_flags=[["readwrite"], ["readonly"]])
    it[1] = 3


@xp_compare()
def test_read_only_array_with_write_flag(xp):
    return xp.nditer(view(xp, "bcast"), op_flags=["readwrite"])


def test_writes_land_on_the_device():
    a = garray.arange(6, dtype=garray.float32).reshape(2, 3)
    with garray.nditer(a, op_flags=["readwrite"]) as it:
        for x in it:
            assert isinstance(x, garray.ndarray) and x.shape == ()
            x[...] = x * x
    assert a.device == garray.arange(1).device
    numpy.testing.assert_array_equal(a.get(), numpy.arange(6, dtype="float32").reshape(2, 3) ** 2)


# ---- allocation and reductions ------------------------------------------------------


@pytest.mark.parametrize("layout", ["c", "t", "neg", "perm3"])
@xp_compare()
def test_allocate_output(xp, layout):
    a = view(xp, layout, "int32")
    it = xp.nditer([a, 1.5, None])
    with it:
        for x, y, z in it:
            z[...] = x * y
        out, dtypes = it.operands[2], it.dtypes
    return [out, dtypes, out.shape]


@xp_compare()
def test_allocate_with_op_dtypes_and_order(xp):
    a = view(xp, "t", "int16")
    it = xp.nditer([a, None], op_dtypes=[None, "float32"], order="F")
    for x, y in it:
        y[...] = x + 0.5
    return [it.operands[1], it.dtypes]


@xp_compare()
def test_allocate_reduce(xp):
    a = make(xp, (3, 4), "int64")
    it = xp.nditer([a, None], ["reduce_ok"], [["readonly"], ["readwrite", "allocate"]],
                   op_axes=[[0, 1], [0, -1]])
    with it:
        it.operands[1][...] = 0
        for x, y in it:
            y[...] += x
        return it.operands[1]


@pytest.mark.parametrize("keep", [[0, 1, -1], [0, -1, 1], [-1, 0, 1]], ids=str)
@xp_compare()
def test_buffered_reduce_external_loop(xp, keep):
    x = make(xp, (2, 3, 4), "int64")
    it = xp.nditer([x, None], ["reduce_ok", "external_loop", "buffered", "delay_bufalloc"],
                   [["readonly"], ["readwrite", "allocate"]], op_axes=[None, keep],
                   op_dtypes=[None, "float64"])
    with it:
        it.operands[1][...] = 0
        it.reset()
        chunks = []
        for a, b in it:
            chunks.append(a.copy())
            b[...] = b + a      # elementwise: independent of how a stride-0 b is written
        return [it.operands[1], chunks]


@xp_compare()
def test_reduce_with_stride0_chunk(xp):
    x = make(xp, (2, 3, 4), "int64")
    it = xp.nditer([x, None], ["reduce_ok", "external_loop", "buffered", "delay_bufalloc"],
                   [["readonly"], ["readwrite", "allocate"]], op_axes=[None, [0, 1, -1]])
    it.operands[1][...] = 0
    it.reset()
    for a, b in it:
        b[...] = b + a.sum()
    return it.operands[1]


@pytest.mark.parametrize("flags,op_flags", [
    ([], [["readonly"], ["readwrite"]]),
    (["reduce_ok"], [["readonly"], ["writeonly"]]),
], ids=["no_reduce_ok", "writeonly"])
@xp_compare()
def test_reduce_errors(xp, flags, op_flags):
    return xp.nditer([make(xp, (2, 3), "int64"), make(xp, (3,), "int64")], flags, op_flags)


@xp_compare()
def test_outer_product_with_op_axes(xp):
    x, y = make(xp, (2,), "int64"), make(xp, (3,), "int64")
    it = xp.nditer([x, y, None], ["external_loop"],
                   [["readonly"], ["readonly"], ["writeonly", "allocate"]],
                   op_axes=[[0, -1], [-1, 0], None])
    with it:
        for a, b, c in it:
            xp.multiply(a, b, out=c)
        return it.operands[2]


@xp_compare()
def test_itershape_with_allocated_output(xp):
    a = make(xp, (3,), "int64")
    it = xp.nditer([a, None], ["reduce_ok"], [["readonly"], ["readwrite", "allocate"]],
                   op_axes=[[0, -1], [-1, 0]], itershape=(-1, 4))
    return [it.operands[1].shape, it.itersize]


@pytest.mark.parametrize("op_axes", [[[0, 0]], [[0, 5]], [[0, 1, 2]], [[0], [1]]], ids=str)
@xp_compare()
def test_op_axes_errors(xp, op_axes):
    return xp.nditer(make(xp, (2, 3), "int64"), op_axes=op_axes)


# ---- dtypes and casting -------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_every_dtype(xp, dtype):
    a = make(xp, (2, 3), dtype).T
    values = list(xp.nditer(a))
    chunks = list(xp.nditer(a[::-1], ["external_loop"]))
    b = make(xp, (3, 2), dtype)
    with xp.nditer([a, b], op_flags=[["readonly"], ["writeonly"]]) as it:
        for x, y in it:
            y[...] = x
    return [values, chunks, b]


@for_all_dtypes()
@xp_compare()
def test_op_dtypes_buffered(xp, dtype):
    a = view(xp, "neg", dtype)
    target = "complex128" if numpy.dtype(dtype).kind == "c" else "float64"
    it = xp.nditer(a, ["buffered"], op_dtypes=[target])
    values = grab(it)
    chunks = grab(xp.nditer(a, ["buffered", "external_loop"], op_dtypes=[target],
                            buffersize=5))
    return [values, chunks, it.dtypes]


@for_all_dtypes()
@xp_compare()
def test_op_dtypes_readwrite_written_back(xp, dtype):
    a = view(xp, "slice", dtype)
    with xp.nditer(a, ["buffered"], [["readwrite"]], op_dtypes=["float64"],
                   casting="unsafe") as it:
        for x in it:
            x[...] = x + 1
    return a


@xp_compare()
def test_buffered_writes_land_at_each_flush(xp):
    # a cast operand is written back when its buffer is left (NumPy's copy_from_buffers)
    a = make(xp, (2, 3), "int64")
    states = []
    for i, x in enumerate(xp.nditer(a, ["buffered"], [["readwrite"]], op_dtypes=["float64"],
                                    casting="unsafe", buffersize=4)):
        x[...] = x * 2
        states.append(a.copy())
    return [states, a]


@xp_compare()
def test_cast_needs_buffering(xp):
    return xp.nditer(make(xp, (2, 3), "int64"), op_dtypes=["float64"])


@pytest.mark.parametrize("casting,op_flags,dtype", [
    ("safe", ["readonly"], "int32"), ("safe", ["readwrite"], "float64"),
    ("same_kind", ["readwrite"], "float32"), ("no", ["readonly"], "int32"),
    ("equiv", ["readonly"], "float64")], ids=str)
@xp_compare()
def test_casting_rules(xp, casting, op_flags, dtype):
    return xp.nditer(make(xp, (3,), "int64"), ["buffered"], [op_flags], op_dtypes=[dtype],
                     casting=casting)


@xp_compare()
def test_updateifcopy_writes_back_at_exit(xp):
    a = make(xp, (6,), "int32")[::-2]
    with xp.nditer(a, [], [["readwrite", "updateifcopy"]], op_dtypes=["float64"],
                   casting="same_kind") as it:
        for x in it:
            x[...] = x * 2.5
        during = a.copy()
        tmp = it.operands[0]
    return [during, a, tmp]


@xp_compare()
def test_copy_makes_a_readonly_copy(xp):
    a = view(xp, "t", "int16")
    it = xp.nditer(a, [], [["readonly", "copy"]], op_dtypes=["float32"])
    return [list(it), it.operands[0], it.dtypes]


@xp_compare()
def test_common_dtype(xp):
    a, b = make(xp, (2, 3), "int8"), make(xp, (3,), "float32")
    it = xp.nditer([a, b], ["common_dtype", "buffered"])
    return [it.dtypes, grab(it)]


@xp_compare()
def test_common_dtype_without_buffering(xp):
    return xp.nditer([make(xp, (3,), "int8"), make(xp, (3,), "float32")], ["common_dtype"])


@xp_compare()
def test_readonly_zero_d_cast_is_copied(xp):
    return list(xp.nditer(make(xp, (), "int32"), op_dtypes=["float64"]))


@xp_compare()
def test_contig_flag(xp):
    a = make(xp, (3, 4), "int64")[:, ::2]
    return grab(xp.nditer(a, ["buffered", "external_loop"], [["readonly", "contig"]]))


@xp_compare()
def test_contig_flag_needs_buffering(xp):
    return xp.nditer(make(xp, (4,), "int64")[::2], op_flags=["readonly", "contig"])


@xp_compare()
def test_delay_bufalloc(xp):
    a = make(xp, (6,), "int64")
    b = xp.zeros(1, dtype="float32")
    it = xp.nditer([a, b], ["buffered", "delay_bufalloc", "multi_index", "reduce_ok"],
                   ["readwrite"], casting="unsafe", op_dtypes="float32")
    delayed = it.has_delayed_bufalloc
    with pytest.raises(ValueError):
        it.value
    it.reset()
    with it:
        first = [it.has_delayed_bufalloc, it.multi_index, float(it[0])]
        it[1] = 1
        rows = [(float(x), float(y)) for x, y in it]
    return [delayed, first, rows, a, b]


@xp_compare()
def test_copy_if_overlap(xp):
    a = make(xp, (6,), "int64")
    with xp.nditer([a[1:], a[:-1]], ["copy_if_overlap"], [["readonly"], ["writeonly"]]) as it:
        for x, y in it:
            y[...] = x
    return a


# ---- empty and 0-d ------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)], ids=str)
@xp_compare()
def test_empty_needs_zerosize_ok(xp, shape):
    return xp.nditer(make(xp, shape, "float64"))


@pytest.mark.parametrize("flags", [[], ["external_loop"], ["multi_index"], ["buffered"]],
                         ids=str)
@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)], ids=str)
@xp_compare()
def test_empty_with_zerosize_ok(xp, shape, flags):
    it = xp.nditer(make(xp, shape, "float64"), ["zerosize_ok"] + flags)
    return [grab(it), it.itersize, it.finished, it.iternext()]


@pytest.mark.parametrize("flags", [[], ["external_loop"], ["multi_index", "c_index"],
                                   ["buffered", "external_loop"]], ids=str)
@xp_compare()
def test_zero_d(xp, flags):
    it = xp.nditer(make(xp, (), "float32"), flags)
    return [grab(it), it.itersize, it.ndim]


@xp_compare()
def test_zero_d_with_array(xp):
    a = make(xp, (), "int64")
    b = make(xp, (2, 2), "int64")
    with xp.nditer([a, b], ["reduce_ok"], [["readwrite"], ["readonly"]]) as it:
        for x, y in it:
            x[...] += y
    return a


# ---- errors -------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", [
    {"flags": ["foo"]}, {"flags": "buffered"}, {"flags": ["readonly"]},
    {"op_flags": ["foo"]}, {"op_flags": ["buffered"]}, {"op_flags": []},
    {"op_flags": ["readonly", "readwrite"]}, {"op_flags": ["readwrite", "writeonly"]},
    {"op_flags": ["readwrite", "copy"]}, {"flags": ["c_index", "f_index"]},
    {"flags": ["external_loop", "multi_index"]}, {"flags": ["external_loop", "c_index"]},
    {"flags": ["ranged", "external_loop"]}, {"order": "X"}, {"order": "Fortran"},
    {"casting": "foo"}, {"op_axes": [[0]]}, {"op_axes": [0, 1]},
    {"op_axes": [[0, 1]], "itershape": (2,)}, {"itershape": (4, 3)},
    {"op_dtypes": ["int64", "int64"]},
], ids=str)
@xp_compare()
def test_bad_arguments(xp, kwargs):
    return grab(xp.nditer(make(xp, (2, 3), "int64"), **kwargs))


@pytest.mark.parametrize("op_flags", [[["readonly"], ["readonly"]],
                                      [["readonly"], ["readonly", "allocate"]],
                                      [["readonly"], ["writeonly"]]], ids=str)
@xp_compare()
def test_none_operand_errors(xp, op_flags):
    return xp.nditer([make(xp, (2,), "int64"), None], op_flags=op_flags)


@xp_compare()
def test_no_operands(xp):
    return xp.nditer([])


@xp_compare()
def test_allocate_without_inputs(xp):
    return xp.nditer([make(xp, (3,), "int64"), None],
                     op_flags=[["writeonly"], ["writeonly", "allocate"]])


def test_numpy_arrays_are_refused():
    with pytest.raises(TypeError, match="garray.asarray"):
        garray.nditer(numpy.arange(3))
    with pytest.raises(TypeError):
        garray.nditer([garray.arange(3), numpy.arange(3)])
    with pytest.raises(TypeError):
        garray.nested_iters(numpy.arange(6).reshape(2, 3), [[0], [1]])


def test_masked_operands_not_implemented():
    a = garray.arange(3)
    m = garray.ones(3, dtype=garray.bool)
    with pytest.raises(ValueError):     # NumPy's check first: no ARRAYMASK operand
        garray.nditer(a, op_flags=["readwrite", "writemasked"])
    with pytest.raises(NotImplementedError, match="writemasked"):
        garray.nditer([a, m], ["buffered"], [["readwrite", "writemasked"],
                                             ["readonly", "arraymask"]])


# ---- properties, protocol, state ----------------------------------------------------


@xp_compare()
def test_properties(xp):
    a = view(xp, "t", "float32")
    it = xp.nditer([a, None], ["c_index"])
    before = [it.nop, it.ndim, it.itersize, it.shape, it.dtypes, it.finished,
              it.has_index, it.has_multi_index, it.has_delayed_bufalloc, len(it),
              it.iterindex, it.index, it.value]
    first = next(it)
    second = next(it)
    return [before, first, second, it.iterindex, it.index, it.operands[0]]


@xp_compare()
def test_past_the_end(xp):
    it = xp.nditer(make(xp, (2,), "int64"), ["multi_index", "c_index"])
    list(it)
    out = [it.finished, it.itersize, it.iternext(), list(it)]
    for name in ("value", "iterindex", "multi_index", "index", "shape"):
        with pytest.raises(ValueError):
            getattr(it, name)
    return out


@xp_compare()
def test_closed(xp):
    it = xp.nditer(make(xp, (2,), "int64"))
    it.close()
    it.close()
    out = [it.finished, list(it), it.iternext(), len(it)]
    for name in ("operands", "itersize", "dtypes", "ndim", "nop"):
        with pytest.raises(ValueError):
            getattr(it, name)
    with pytest.raises(ValueError):
        it.value
    with pytest.raises(ValueError):
        it.reset()
    with pytest.raises(RuntimeError):
        it.__enter__()
    return out


@xp_compare()
def test_indexing_the_iterator(xp):
    it = xp.nditer([make(xp, (2,), "int64"), make(xp, (2,), "float64")])
    out = [it[0], it[-1], it[0:2], it[1:]]
    for key, exc in ((2, IndexError), ("a", TypeError), (slice(0, 2, 2), ValueError)):
        with pytest.raises(exc):
            it[key]
    with pytest.raises(TypeError):
        del it[0]
    return out


@xp_compare()
def test_cstyle_loop_and_reset(xp):
    a, b = make(xp, (2, 3), "int64"), make(xp, (3,), "int64")
    it = xp.nditer([a, b], ["f_index"])
    seq = []
    while not it.finished:
        seq.append((it.index, int(it[0]), int(it[1])))
        it.iternext()
    it.reset()
    return [seq, [(it.index, int(x)) for x, _ in it]]


@xp_compare()
def test_copy_of_iterator(xp):
    x = make(xp, (5,), "int64")
    it = xp.nditer([x, x + 1])
    next(it)
    it2 = it.copy()
    return [[(int(a), int(b)) for a, b in it2], [(int(a), int(b)) for a, b in it]]


@xp_compare()
def test_position_setters(xp):
    a = view(xp, "neg", "int64")
    it = xp.nditer(a, ["multi_index"])
    it.multi_index = (1, 2)
    seq = [(it.multi_index, it.iterindex, int(x)) for x in it]
    it.iterindex = 5
    seq.append((it.multi_index, int(it.value)))
    with pytest.raises(IndexError):
        it.multi_index = (3, 0)
    with pytest.raises(IndexError):
        it.iterindex = 12
    with pytest.raises(ValueError):
        it.multi_index = (1,)
    f = xp.nditer(view(xp, "t"), ["f_index"])
    f.index = 7
    seq.append([(f.index, int(x)) for x in f])
    return seq


@xp_compare()
def test_setter_errors(xp):
    a = make(xp, (2, 3), "int64")
    with pytest.raises(ValueError):
        xp.nditer(a).multi_index = (0, 0)
    with pytest.raises(ValueError):
        xp.nditer(a).index = 0
    with pytest.raises(ValueError):
        xp.nditer(a, ["buffered", "multi_index"]).multi_index = (0, 0)
    with pytest.raises(ValueError):
        xp.nditer(a, ["external_loop"]).iterindex = 0
    with pytest.raises(ValueError):
        xp.nditer(a).iterrange = (0, 2)


@pytest.mark.parametrize("flags", [["ranged", "multi_index"],
                                   ["ranged", "buffered", "external_loop"]], ids=str)
@xp_compare()
def test_ranged(xp, flags):
    it = xp.nditer(view(xp, "t"), flags, buffersize=3)
    it.iterrange = (2, 9)
    values = grab(it)
    with pytest.raises(ValueError):
        it.iterrange = (5, 13)
    return [it.iterrange, values]


@xp_compare()
def test_remove_axis_and_external_loop(xp):
    it = xp.nditer(make(xp, (2, 3, 4), "int64"), ["multi_index"])
    it.remove_axis(1)
    seq = [(it.multi_index, int(x)) for x in it]
    it.remove_multi_index()
    shape = (it.shape, it.ndim, it.itersize, it.has_multi_index)
    it.enable_external_loop()
    return [seq, shape, list(it)]


@xp_compare()
def test_remove_axis_errors(xp):
    a = make(xp, (2, 3), "int64")
    with pytest.raises(RuntimeError):
        xp.nditer(a).remove_axis(0)
    with pytest.raises(RuntimeError):
        xp.nditer(a, ["multi_index", "c_index"]).remove_axis(0)
    with pytest.raises(ValueError):
        xp.nditer(a, ["multi_index"]).remove_axis(2)
    with pytest.raises(ValueError):
        xp.nditer(a, ["multi_index"]).enable_external_loop()


@xp_compare()
def test_itviews(xp):
    a = make(xp, (2, 3, 4), "int64").transpose(2, 0, 1)[::-1]
    b = make(xp, (4,), "int64")[:, None, None]
    views = xp.nditer([a, b]).itviews
    with pytest.raises(ValueError):
        xp.nditer(a, ["buffered"]).itviews
    return [views, [v.strides for v in views]]


@xp_compare()
def test_updateifcopy_without_close_warns(xp):
    a = make(xp, (3,), "int64")
    it = xp.nditer(a, [], [["readwrite", "updateifcopy"]], op_dtypes=["float64"],
                   casting="same_kind")
    for x in it:
        x[...] = -x
    with pytest.warns(RuntimeWarning, match="written back"):
        del it
        gc.collect()
    return a


# ---- nested_iters -------------------------------------------------------------------


@xp_compare()
def test_nested_iters_docs_example(xp):
    a = make(xp, (2, 3, 2), "int64")
    i, j = xp.nested_iters(a, [[1], [0, 2]], flags=["multi_index"])
    return [(i.multi_index, [(j.multi_index, int(y)) for y in j]) for _ in i]


@pytest.mark.parametrize("axes", [[[0], [1], [2]], [[2], [0], [1]], [[1, 2], [0]],
                                  [[0], [2, 1]]], ids=str)
@pytest.mark.parametrize("layout", ["c", "neg", "perm"])
@xp_compare()
def test_nested_iters_three_levels(xp, axes, layout):
    a = make(xp, (2, 3, 4), "int64")
    a = {"c": a, "neg": a[:, ::-1], "perm": a.transpose(1, 2, 0)}[layout]
    its = xp.nested_iters(a, axes, flags=["multi_index"], op_flags=["readwrite"])
    out = []

    def walk(level):
        for x in its[level]:
            out.append((level, its[level].multi_index, int(x)))
            if level + 1 < len(its):
                walk(level + 1)
            else:
                x[...] = x * 2 + level
    walk(0)
    return [out, a]


@xp_compare()
def test_nested_iters_buffered_external_loop(xp):
    a = make(xp, (3, 4), "int64")
    i, j = xp.nested_iters(a, [[1], [0]], flags=["buffered", "external_loop"],
                           op_dtypes=["float32"], casting="same_kind")
    return [[(int(x), grab(j)) for x in i], i.dtypes, j.dtypes]


@xp_compare()
def test_nested_iters_reduce(xp):
    a = make(xp, (3, 4), "int64")
    i, j = xp.nested_iters([a, None], [[0], [1]], flags=["reduce_ok"],
                           op_flags=[["readonly"], ["readwrite", "allocate"]])
    i.operands[1][...] = 0
    for _ in i:
        for y, z in j:
            z[...] += y
    return [i.operands[1], j.operands[1]]


@pytest.mark.parametrize("axes", [[[0]], [[0], [0]], [[0], [2]], 0, [[0], 1], [[-1], [0]]],
                         ids=str)
@xp_compare()
def test_nested_iters_errors(xp, axes):
    return xp.nested_iters(make(xp, (2, 3), "int64"), axes)


# ---- garray's own -------------------------------------------------------------------


def test_buffered_multi_index_is_each_elements():
    # NumPy 2.4 reports the buffer's first multi-index for every element of a buffer;
    # garray reports each element's own (Note [nditer], differences).
    a = make(garray, (3, 4), "int64").T
    it = garray.nditer(a, ["buffered", "multi_index", "c_index"], buffersize=5)
    got = [(it.multi_index, it.index, int(x)) for x in it]
    ref = numpy.nditer(make(numpy, (3, 4), "int64").T, ["multi_index", "c_index"])
    assert got == [(ref.multi_index, ref.index, int(x)) for x in ref]


def test_values_are_views_of_their_operand():
    a = garray.arange(6).reshape(2, 3)
    it = garray.nditer(a, op_flags=["readwrite"])
    x = next(it)
    assert x.shape == () and x.dtype == a.dtype
    assert x.flags.writeable
    assert int(x + 1) == 1 and float(x) == 0.0
    r = next(garray.nditer(a))
    assert not r.flags.writeable


def test_threads_iterate_independently():
    a = make(garray, (4, 5), "int64").T
    expected = [int(x) for x in numpy.nditer(make(numpy, (4, 5), "int64").T, order="C")]

    def work(i):
        assert [int(x) for x in garray.nditer(a, order="C")] == expected
    run_in_threads(work)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_buffered_cast_chunks_are_garray_buffers(dtype):
    a = make(garray, (3, 5), dtype)[:, 1:4]
    chunks = list(garray.nditer(a, ["buffered", "external_loop"], op_dtypes=["complex128"],
                                casting="unsafe"))
    assert all(isinstance(c, garray.ndarray) and c.dtype == numpy.complex128 for c in chunks)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_xp_close(garray.concatenate(chunks),
                        make(numpy, (3, 5), dtype)[:, 1:4].ravel().astype("complex128"))
