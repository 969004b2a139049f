"""ufunc.at and ufunc.reduceat against NumPy (garray/_reduce/ufunc_methods.py, Note [reduceat
and at]): every binary ufunc over every dtype, the unary ufuncs, NumPy's index forms,
repeated indices, non-contiguous arrays, empty and 0-d cases, and NumPy's errors.

The deliberate differences are those of the elementwise ops (elementwise/test_elementwise.py
DIFFERENCES: garray refuses arithmetic on bool with a TypeError) and of ufunc.reduce
(reduce/test_ufunc_methods.py), whose ``check`` runs reduceat here.
"""

import numpy
import pytest

import garray
from garray._tables import ops as _optable
from garray._reduce import ufunc_methods as _ufunc_methods
from test_elementwise import DIFFERENCES
from test_ufunc_methods import BINARY, NUMPY_REDUCE_BUG, _tol, check, data, garray_copy
from xp import ALL_DTYPES, assert_xp_close, expected_exception, for_all_dtypes, sample
from xp import kind as xp_kind

OPS = _optable.OPS
# The ops that are ufuncs in NumPy too (numpy.round, real, imag, angle, sinc are not)
UNARY = sorted(n for n, op in OPS.items() if op.nin == 1 and op.nout == 1
               and isinstance(getattr(numpy, op.numpy_name), numpy.ufunc))
AT_BINARY = [n for n in BINARY if OPS[n].nout == 1]


def npf(name):
    return getattr(numpy, OPS[name].numpy_name)


def check_at(name, h, indices, b=None, g_indices=None, g_b=None, view=None):
    """``name.at`` on a garray copy of ``h`` (or of ``view(h)``) against NumPy's on a
    NumPy copy: the same array afterwards, or the same exception type."""
    nh, gh = h.copy(), garray.asarray(h, copy=True)
    nv, gv = (nh, gh) if view is None else (view(nh), view(gh))
    g_indices = indices if g_indices is None else g_indices
    g_b = b if g_b is None else g_b
    args = () if b is None else (b,)
    g_args = () if b is None else (g_b,)
    reason = DIFFERENCES.get((name, numpy.result_type(h, *args).kind))
    try:
        with numpy.errstate(all="ignore"):
            npf(name).at(nv, indices, *args)
    except Exception as e:  # noqa: BLE001 - garray must raise the same type
        with pytest.raises((expected_exception(e), TypeError) if reason
                           else expected_exception(e)):
            getattr(garray, name).at(gv, g_indices, *g_args)
        return
    if reason:
        with pytest.raises(TypeError):
            getattr(garray, name).at(gv, g_indices, *g_args)
        return
    assert getattr(garray, name).at(gv, g_indices, *g_args) is None
    assert_xp_close(gh, nh, **_tol(name), err_msg=f"{name}.at({h.dtype}, {indices!r})")


# ---- at -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", AT_BINARY)
@for_all_dtypes()
def test_at_binary(name, dtype):
    """Repeated indices accumulate in order: [0, 2, 0, 5, 0, -1] updates element 0 three
    times; b an array of the index shape, and a scalar."""
    h = data(name, (8,), dtype)
    idx = [0, 2, 0, 5, 0, -1]
    b = data(name, (6,), dtype, start=3)
    check_at(name, h, idx, b, g_b=garray_copy(b))
    s = b[1].item()
    check_at(name, h, numpy.array(idx), s, g_indices=garray.asarray(idx))


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ["int16", "float32", "float64", "complex128"])
def test_at_unary(name, dtype):
    """A unary ufunc applied once per occurrence (negative twice is the identity)."""
    h = sample((6,), dtype)
    check_at(name, h, [1, 1, 4, 1])


@pytest.mark.parametrize("indices", [
    2, -1, [2, 2, 2], slice(0, 3, 2), (slice(None), [0, 0, 3]), ([2, 0, 2], [1, 1, 1]),
    (1, slice(None)), (Ellipsis, 0), numpy.array([[0, 1], [1, 2]]),
    ([True, False, True],), (), [],
])
def test_at_index_forms(indices):
    """NumPy's index forms, on a (3, 4) float64 array with b broadcast to a[indices]."""
    h = sample((3, 4), "float64")
    shape = h[indices].shape
    b = sample(shape, "float64", start=1) + 1
    check_at("add", h, indices, b, g_b=garray_copy(b))
    check_at("subtract", h, indices, 2.5)
    check_at("maximum", h, indices, b[..., :1] if b.ndim else b,
             g_b=garray_copy(b[..., :1] if b.ndim else b))


def test_at_bool_mask_and_index_arrays_on_the_device():
    h = sample((3, 4), "int32")
    m = h > 0
    check_at("multiply", h, m, 3, g_indices=garray_copy(m))
    i, j = numpy.array([0, 2, 0]), numpy.array([[1], [1]])
    check_at("add", h, (i, j), 1, g_indices=(garray_copy(i), garray_copy(j)))


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64"])
def test_at_views(dtype):
    """A non-contiguous a (negative and step strides, a transpose) is updated in place:
    the base array sees the writes."""
    h = sample((4, 6), dtype)
    b = sample((5,), dtype, start=2)
    for view in (lambda x: x[::-1, ::2], lambda x: x.T, lambda x: x[1:, 1::2]):
        shape = view(h).shape
        check_at("add", h, ([0, 1, 0, 0, 1], [0, 1, 0, 1, 1]), b, g_b=garray_copy(b),
                 view=view)
        check_at("subtract", h, (Ellipsis, [shape[-1] - 1, 0]), 1, view=view)


def test_at_many_repeats_and_casts():
    """One target indexed 300 times (300 ordered rounds: float rounding as NumPy's loop),
    unsafe casts into a (int array, float operand), a b of another dtype."""
    h = numpy.zeros(4, "float32")
    idx = numpy.arange(600) % 2
    b = numpy.linspace(0.1, 7.3, 600)
    check_at("add", h, idx, b, g_indices=garray_copy(idx), g_b=garray_copy(b))
    check_at("subtract", numpy.full(3, 100.0), idx, b, g_indices=garray_copy(idx),
             g_b=garray_copy(b))
    check_at("add", numpy.arange(5), [0, 0, 3], 1.5)
    check_at("divide", numpy.arange(5), [1, 1], 2)
    check_at("add", numpy.arange(5, dtype="uint8"), [0, 0], numpy.int64(300))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "maximum",
                                  "fmin", "bitwise_xor", "floor_divide", "remainder"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8", "complex128"])
@pytest.mark.parametrize("sorted_at", [False, True])
def test_at_folds_in_numpy_order(name, dtype, sorted_at, monkeypatch):
    """Where the op computes in a's dtype, one kernel folds each target's run of operands
    in their order of occurrence (ew2_at): the values are NumPy's bit for bit, the order
    of float rounding included (operands spanning 1e-3 .. 1e12, 3000 occurrences over 7
    targets plus one run of 2000).  Both paths: the sorted runs of GPUs, and the CPU
    device's one unsorted run (NumPy's loop)."""
    monkeypatch.setitem(_ufunc_methods._debug, "sorted_at", sorted_at)
    op = OPS[name]
    code = _optable.CODES[numpy.dtype(dtype)]
    if op.compute_code(code) != code or op.out_code(code) != code:
        pytest.skip(f"{name} does not compute {dtype} in {dtype}")
    rng = numpy.random.default_rng(7)
    idx = numpy.concatenate([rng.integers(0, 7, 3000), numpy.full(2000, 3)])
    rng.shuffle(idx)
    if numpy.dtype(dtype).kind in "iu":
        b = rng.integers(1, 90, idx.size).astype(dtype)
    else:
        b = (10.0 ** rng.uniform(-3, 12, idx.size) * rng.choice([-1, 1], idx.size))
        b = (b + 1j * b[::-1] if dtype == "complex128" else b).astype(dtype)
    h = (numpy.arange(9) + 5).astype(dtype)
    calls = []
    real = garray._core._ufunc_at_fold
    monkeypatch.setattr(garray._core, "_ufunc_at_fold",
                        lambda *a: calls.append(a[0]) or real(*a))
    g = garray.asarray(h)
    with numpy.errstate(all="ignore"):
        npf(name).at(h, idx, b)
        getattr(garray, name).at(g, garray.asarray(idx), garray.asarray(b))
    assert calls == [name]
    numpy.testing.assert_array_equal(g.get(), h)


def test_at_falls_back_where_the_op_computes_wider(monkeypatch):
    """float32 a with float64 b computes in float64 and rounds every step into a: the
    ordered rounds, not the fold kernel."""
    fold = garray._core._ufunc_at_fold

    def no_float32_fold(name, flat, *rest):     # bincount's int64 counts may fold
        if flat.dtype == numpy.float32:
            pytest.fail("the fold ran for a wider computation")
        return fold(name, flat, *rest)
    monkeypatch.setattr(garray._core, "_ufunc_at_fold", no_float32_fold)
    check_at("add", numpy.zeros(3, "float32"), [0, 0, 1], numpy.array([1e-8, 1.0, 2.0]),
             g_b=garray.asarray([1e-8, 1.0, 2.0]))


def test_at_zero_d_and_empty():
    check_at("add", numpy.array(2.0), (), 3.0)
    check_at("add", numpy.zeros((0, 3)), [], 1.0)
    check_at("add", numpy.zeros((2, 0)), (slice(None), []), 1.0)
    check_at("negative", numpy.arange(3.0), [])


def test_at_errors():
    g = garray.arange(5.0)
    with pytest.raises(IndexError):
        garray.add.at(g, [0, 9], 1.0)
    with pytest.raises(IndexError):
        garray.add.at(g, [-6], 1.0)
    with pytest.raises(ValueError, match="second operand needed"):
        garray.add.at(g, [0])
    with pytest.raises(ValueError, match="unary"):
        garray.negative.at(g, [0], 1.0)
    with pytest.raises(ValueError, match="broadcast"):
        garray.add.at(g, [0, 1], garray.asarray([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="single output"):
        garray.divmod.at(g, [0], 1.0)
    with pytest.raises(TypeError, match="first operand"):
        garray.add.at([1.0, 2.0], [0], 1.0)
    with pytest.raises(TypeError, match="bitwise_and"):
        garray.bitwise_and.at(g, [0], 1)
    ro = garray.broadcast_to(garray.arange(3.0), (2, 3))
    with pytest.raises(ValueError):
        garray.add.at(ro, [0], 1.0)
    assert (g == garray.arange(5.0)).all()      # nothing written by a refused call


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_at_casts_unsafely():
    """NumPy's at casts the result into a unsafely: a complex result into a float array
    keeps the real part, an int64 result wraps into int8."""
    b = numpy.array([1 + 2j])
    check_at("add", numpy.arange(5.0), [0], b, g_b=garray.asarray(b))
    check_at("add", numpy.arange(5, dtype="int8"), [0, 0], 1000)


def test_numpy_dispatch():
    """numpy.add.at / numpy.add.reduceat on garray arrays run garray's."""
    h = numpy.arange(6.0)
    g = garray_copy(h)
    numpy.add.at(h, [0, 0, 2], 1.5)
    numpy.add.at(g, [0, 0, 2], 1.5)
    assert_xp_close(g, h)
    assert_xp_close(numpy.add.reduceat(g, [0, 3, 1]), numpy.add.reduceat(h, [0, 3, 1]))


# ---- reduceat ----------------------------------------------------------------------------

IDX = [0, 4, 1, 5, 5, 7, 2]


@pytest.mark.parametrize("name", AT_BINARY)
@for_all_dtypes()
def test_reduceat(name, dtype):
    """Increasing, equal and decreasing neighbours (a one-element segment), the last to
    the end; axis 0 and 1 of a (8, 3) array."""
    h = data(name, (8, 3), dtype)
    g = garray_copy(h)
    if name in NUMPY_REDUCE_BUG:    # NumPy's reduce (and reduceat) of these is wrong
        _check_reduceat_by_accumulate(name, h, g, dtype)
        return
    check(name, "reduceat", h, g, IDX, **_tol(name))
    check(name, "reduceat", h.T, g.T, [0, 2, 1], axis=1, **_tol(name))
    check(name, "reduceat", h[:, 0], g[:, 0], [3], **_tol(name))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "maximum",
                                  "fmin", "logical_and", "bitwise_or"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int8", "bool"])
def test_reduceat_many_segments_folds(name, dtype, monkeypatch):
    """2,000 segments of 0 to 9 elements (CSR row sums' shape), decreasing neighbours
    and the last to the end, over axis 0 and 1 of 3-d arrays: one fold launch
    (ew2_reduceat), NumPy's values (exact for integers)."""
    rng = numpy.random.default_rng(3)
    lens = rng.integers(0, 10, 2000)
    idx = numpy.concatenate([[0], numpy.cumsum(lens)[:-1]])
    idx[5], idx[6] = idx[6] + 2, idx[5]                     # a decreasing pair
    n = int(lens.sum())
    h = data(name, (n, 2, 3), dtype) if dtype != "bool" else rng.random((n, 2, 3)) > 0.3
    g = garray_copy(h)
    calls = []
    real = garray._core._ufunc_reduceat_fold
    monkeypatch.setattr(garray._core, "_ufunc_reduceat_fold",
                        lambda *a: calls.append(a[0]) or real(*a))
    try:
        with numpy.errstate(all="ignore"):
            want = npf(name).reduceat(h, idx)
            want1 = npf(name).reduceat(numpy.moveaxis(h, 0, 1), idx, axis=1)
    except Exception as e:  # noqa: BLE001 - garray must refuse it too
        with pytest.raises((expected_exception(e), TypeError)):
            getattr(garray, name).reduceat(g, idx)
        return
    if (name, numpy.result_type(h).kind) in DIFFERENCES:
        with pytest.raises(TypeError):
            getattr(garray, name).reduceat(g, idx)
        return
    got = getattr(garray, name).reduceat(g, idx)
    got1 = getattr(garray, name).reduceat(garray.moveaxis(g, 0, 1), idx, axis=1)
    assert calls == [name, name]
    assert_xp_close(got, want, **_tol(name))
    assert_xp_close(got1, want1, **_tol(name))


def test_reduceat_long_float_add_segments_sum_pairwise(monkeypatch):
    """A float add segment past _FOLD_ADD_MAX is reduced, not folded (NumPy sums it
    pairwise): the call takes the per-segment path."""
    from garray._reduce import ufunc_methods as _ufunc_methods
    monkeypatch.setattr(garray._core, "_ufunc_at_fold",
                        lambda *a: pytest.fail("a long float add segment was folded"))
    h = numpy.linspace(0, 1, _ufunc_methods._FOLD_ADD_MAX + 50, dtype="float32")
    check("add", "reduceat", h, garray_copy(h), [0, 3, 4], **_tol("add"))


def _check_reduceat_by_accumulate(name, h, g, dtype):
    """The reference of reduceat as the last element of NumPy's accumulate per segment
    (NumPy's own reduce of atan2 and power does not carry the accumulator)."""
    try:
        npf(name).accumulate(h[:2])
    except Exception:  # noqa: BLE001 - garray refuses the dtype too
        with pytest.raises(TypeError):
            getattr(garray, name).reduceat(g, IDX)
        return
    if (name, xp_kind(h.dtype)) in DIFFERENCES:
        with pytest.raises(TypeError):
            getattr(garray, name).reduceat(g, IDX)
        return
    ends = IDX[1:] + [len(h)]
    with numpy.errstate(all="ignore"):
        hh = h
        expected = numpy.stack([npf(name).accumulate(hh[i:e])[-1] if i < e else hh[i]
                                for i, e in zip(IDX, ends)])
    assert_xp_close(getattr(garray, name).reduceat(g, IDX), expected, **_tol(name))


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")   # dtype=float64
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "subtract", "divide",
                                  "logical_or", "bitwise_xor", "minimum"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32",
                                   "complex128"])
def test_reduceat_noncontiguous_axes_and_dtype(name, dtype):
    h = data(name, (5, 8, 4), dtype)
    g = garray_copy(h)
    hv, gv = h[::-1, ::2, 1:], g[::-1, ::2, 1:]
    for axis in (0, 1, -1):
        check(name, "reduceat", hv, gv, [0, 2, 2, 1], axis=axis)
    check(name, "reduceat", hv, gv, numpy.array([1, 0], "uint8"), axis=2, dtype="float64")


def test_reduceat_out_and_errors():
    h = numpy.arange(12.0).reshape(3, 4)
    g = garray_copy(h)
    o = garray.zeros((3, 2), "int32")
    r = garray.add.reduceat(g, [0, 2], axis=1, out=o)
    assert r is o
    assert_xp_close(o, numpy.add.reduceat(h, [0, 2], axis=1, out=numpy.zeros((3, 2), "i4")))
    assert_xp_close(garray.add.reduceat(g, garray.asarray([0, 2]), axis=1),
                    numpy.add.reduceat(h, [0, 2], axis=1))
    assert_xp_close(garray.add.reduceat(g, []), numpy.add.reduceat(h, []))
    assert_xp_close(garray.add.reduceat(g, [0.0, 2], axis=1),
                    numpy.add.reduceat(h, [0.0, 2], axis=1))
    for bad in ([4], [-1], [0, 9]):
        with pytest.raises(IndexError, match="out-of-bounds"):
            garray.add.reduceat(g, bad, axis=1)
        with pytest.raises(IndexError):
            numpy.add.reduceat(h, bad, axis=1)
    with pytest.raises(IndexError):
        garray.add.reduceat(garray.zeros(0), [0])
    with pytest.raises(TypeError):
        garray.add.reduceat(garray.asarray(3.0), [0])
    with pytest.raises(ValueError):
        garray.add.reduceat(g, [[0, 1]])
    with pytest.raises(ValueError):
        garray.add.reduceat(g, [0], out=garray.zeros(3))
    with pytest.raises(ValueError, match="single value"):
        garray.divmod.reduceat(g, [0])
    with pytest.raises(ValueError):
        garray.negative.reduceat(g, [0])
    assert_xp_close(garray.add.reduceat(garray.zeros((0, 3)), [0], axis=1),
                    numpy.add.reduceat(numpy.zeros((0, 3)), [0], axis=1))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_reduceat_every_index_pattern(dtype):
    """Random index lists (with repeats and descents) over a 1-d array: add and maximum."""
    rng = numpy.random.default_rng(7)
    h = sample((20,), dtype)
    g = garray_copy(h)
    for _ in range(3):
        idx = rng.integers(0, 20, size=rng.integers(1, 9))
        for name in ("add", "maximum"):
            check(name, "reduceat", h, g, idx)
