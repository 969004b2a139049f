"""Advanced indexing (integer arrays, boolean masks) and nonzero against NumPy."""

import threading

import numpy
import pytest

import garray
from xp import assert_xp_close, for_all_dtypes, make, run_in_threads, xp_compare


def ia(xp, v, dtype="int64"):
    return xp.asarray(numpy.asarray(v, dtype=dtype))


# Keys as functions of the namespace, on a (4, 5, 6) array.
KEYS = {
    "1d": lambda xp: ia(xp, [0, 3, 1, 1]),
    "negative": lambda xp: ia(xp, [-1, -4, 2]),
    "2d-array": lambda xp: ia(xp, [[0, 1], [3, 2]]),
    "list": lambda xp: [2, 0],
    "empty": lambda xp: ia(xp, []),
    "second-axis": lambda xp: (slice(None), ia(xp, [4, 0, 4])),
    "last-axis": lambda xp: (Ellipsis, ia(xp, [5, 0])),
    "two-adjacent": lambda xp: (ia(xp, [0, 3]), ia(xp, [1, 4])),
    "broadcast-pair": lambda xp: (ia(xp, [[0], [3]]), ia(xp, [1, 2, 4])),
    "separated": lambda xp: (ia(xp, [0, 3]), slice(None), ia(xp, [1, 5])),
    "int-then-array": lambda xp: (1, slice(None), ia(xp, [2, 3])),
    "slice-int-array": lambda xp: (slice(None), 0, ia(xp, [2, 3])),
    "array-int": lambda xp: (ia(xp, [2, 3]), 0),
    "three-arrays": lambda xp: (ia(xp, [0, 1]), ia(xp, [2, 3]), ia(xp, [4, 5])),
    "with-none": lambda xp: (None, ia(xp, [1, 2]), None, slice(1, 3)),
    "with-steps": lambda xp: (slice(None, None, -1), ia(xp, [1, 3]), slice(None, None, 2)),
    "int8-index": lambda xp: ia(xp, [3, 0], "int8"),
    "uint16-index": lambda xp: (slice(None), ia(xp, [4, 1], "uint16")),
    "mask-1d": lambda xp: ia(xp, [True, False, True, True], "bool"),
    "mask-2d": lambda xp: ia(xp, numpy.arange(20).reshape(4, 5) % 3 == 0, "bool"),
    "mask-full": lambda xp: ia(xp, numpy.arange(120).reshape(4, 5, 6) % 7 < 3, "bool"),
    "mask-axis1": lambda xp: (slice(None), ia(xp, [True, False, False, True, True], "bool")),
    "mask-and-array": lambda xp: (ia(xp, [True, False, True, False], "bool"),
                                  ia(xp, [0, 4])),
    "mask-none-true": lambda xp: ia(xp, [False] * 4, "bool"),
    "bool-true": lambda xp: True,
    "bool-false": lambda xp: False,
    "bool-with-int": lambda xp: (True, 1),
    "ellipsis-mask": lambda xp: (Ellipsis, ia(xp, [True, False, True, False, True, False],
                                             "bool")),
}

BASES = {
    "contiguous": lambda a: a,
    "transposed": lambda a: a.transpose(1, 0, 2)[:4, :5] if a.shape[0] >= 4 else a,
    "reversed": lambda a: a[::-1, :, ::-1],
    "strided": lambda a: a[:, :, :],
}


def base(xp, kind, dtype="float64"):
    if kind == "transposed":
        return make(xp, (5, 4, 6), dtype).transpose(1, 0, 2)
    if kind == "strided":
        return make(xp, (8, 5, 12), dtype)[::2, :, ::2]
    a = make(xp, (4, 5, 6), dtype)
    return a[::-1, :, ::-1] if kind == "reversed" else a


@pytest.mark.parametrize("key", list(KEYS))
@pytest.mark.parametrize("kind", ["contiguous", "transposed", "reversed", "strided"])
@xp_compare()
def test_getitem(xp, key, kind):
    return base(xp, kind)[KEYS[key](xp)]


@for_all_dtypes()
@xp_compare()
def test_getitem_every_dtype(xp, dtype):
    a = make(xp, (4, 5, 6), dtype)
    return [a[ia(xp, [3, 0, 3])], a[:, ia(xp, [1, 4])], a[a > a.flatten()[40]],
            a[ia(xp, [0, 1]), :, ia(xp, [5, 2])]]


@pytest.mark.parametrize("key", list(KEYS))
@xp_compare()
def test_setitem_scalar(xp, key):
    a = make(xp, (4, 5, 6), "int32")
    a[KEYS[key](xp)] = -7
    return a


@pytest.mark.parametrize("key", list(KEYS))
@xp_compare()
def test_setitem_array(xp, key):
    a = make(xp, (4, 5, 6), "float32")
    shape = a[KEYS[key](xp)].shape
    a[KEYS[key](xp)] = xp.reshape(xp.arange(numpy.prod(shape), dtype=xp.float32), shape)
    return a


@for_all_dtypes()
@xp_compare()
def test_setitem_every_dtype(xp, dtype):
    a = make(xp, (6, 7), dtype)
    b = make(xp, (3, 7), dtype, start=50)
    a[ia(xp, [5, 0, 2])] = b
    a[a == a[1, 1]] = a[2, 2]
    a[:, ia(xp, [-1])] = make(xp, (6, 1), dtype, start=9)
    return a


@xp_compare()
def test_setitem_repeated_indices_last_wins(xp):
    a = xp.zeros((10,), dtype=xp.int64)
    idx = ia(xp, [1, 3, 1, 1, 3, 7, 1])
    a[idx] = xp.arange(7, dtype=xp.int64)
    b = xp.zeros((4, 5), dtype=xp.int64)
    b[ia(xp, [[0, 0], [2, 0]]), ia(xp, [1, 1])] = ia(xp, [[1, 2], [3, 4]])
    c = xp.zeros((3, 4), dtype=xp.float64)
    c[ia(xp, [2, 2, 0]), :] = xp.reshape(xp.arange(12, dtype=xp.float64), (3, 4))
    return [a, b, c]


@xp_compare()
def test_setitem_many_repeats(xp):
    # many threads / chunks write the same few targets: the last in C order wins
    n = 1 << 16
    a = xp.zeros((5,), dtype=xp.int64)
    idx = xp.asarray(numpy.arange(n) % 5)
    a[idx] = xp.arange(n, dtype=xp.int64)
    return a


@xp_compare()
def test_setitem_broadcast_value_and_casts(xp):
    a = make(xp, (4, 5), "int16")
    a[ia(xp, [0, 2])] = make(xp, (5,), "int16", start=30)
    a[:, ia(xp, [1, 3])] = 2.9       # setitem casts unsafely, as NumPy
    a[ia(xp, [True, False, True, False], "bool"), 0] = ia(xp, [100, 200], "int64")
    return a


@xp_compare()
def test_setitem_aliasing_value(xp):
    a = make(xp, (10,), "float64")
    a[ia(xp, [1, 2, 3])] = a[0:3]
    b = make(xp, (5, 5), "int32")
    b[ia(xp, [4, 0])] = b[ia(xp, [0, 4])]
    return [a, b]


@xp_compare()
def test_empty_and_zero_size(xp):
    a = make(xp, (0, 3), "float32")
    e = make(xp, (4, 0), "int32")
    return [a[ia(xp, [], "int64")], a[:, ia(xp, [2, 0])], e[ia(xp, [1, 3])],
            make(xp, (3,), "int8")[ia(xp, [False] * 3, "bool")],
            make(xp, (), "float64")[True], make(xp, (), "float64")[False],
            make(xp, (), "int32")[ia(xp, True, "bool")]]


@pytest.mark.parametrize("key, match", [
    (lambda xp: ia(xp, [0, 4]), "index 4 is out of bounds for axis 0 with size 4"),
    (lambda xp: ia(xp, [-5]), "index -5 is out of bounds for axis 0 with size 4"),
    (lambda xp: (slice(None), ia(xp, [9])), "axis 1 with size 5"),
    (lambda xp: (0, slice(None), ia(xp, [6])), "axis 2 with size 6"),
    (lambda xp: ia(xp, [4], "uint64"), "axis 0 with size 4"),
    (lambda xp: ia(xp, [True, False], "bool"), "boolean index did not match"),
    (lambda xp: (ia(xp, [0, 1]), ia(xp, [0, 1, 2])), "shape mismatch"),
    (lambda xp: ia(xp, [0.0], "float64"), "integer"),
    (lambda xp: (ia(xp, [0]), ia(xp, [0]), ia(xp, [0]), ia(xp, [0])), "too many indices"),
])
def test_bad_keys(key, match):
    n = make(numpy, (4, 5, 6), "float64")
    g = make(garray, (4, 5, 6), "float64")
    with pytest.raises(IndexError):
        n[key(numpy)]
    with pytest.raises(IndexError, match=match):
        g[key(garray)]
    with pytest.raises(IndexError, match=match):
        g[key(garray)] = 1.0


def test_bad_index_leaves_target_unchanged():
    g = make(garray, (5,), "int64")
    with pytest.raises(IndexError):
        g[ia(garray, [0, 1, 9])] = 0
    assert_xp_close(g, make(numpy, (5,), "int64"))


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4), (0, 3), (1,)])
@for_all_dtypes()
@xp_compare()
def test_nonzero(xp, shape, dtype):
    a = make(xp, shape, dtype)
    a = a * (a % 3 == 0) if dtype != numpy.bool_ else a
    return list(xp.nonzero(a)) + list(a.nonzero())


def test_nonzero_0d_raises():
    with pytest.raises(ValueError):
        garray.nonzero(garray.asarray(1.0))


@pytest.fixture(params=[0, 32, 7, 300])
def nonzero_piece(request):
    """nonzero's mask elements per thread: the device's, the GPUs' (32), an odd one and
    one past the count's 256-byte blocks with a tail (the CPU's 8-byte words and the
    scalar loop both in one piece), on every device."""
    from garray import _core
    old = _core._debug_nonzero_piece(request.param)
    yield request.param
    _core._debug_nonzero_piece(old)


@xp_compare()
def test_nonzero_large_and_noncontiguous(xp, nonzero_piece):
    a = xp.asarray(numpy.arange(3 * 70001) % 11 == 0).reshape(3, 70001)
    return list(xp.nonzero(a[:, ::-3])) + [a[a]]


@pytest.mark.parametrize("density", [0.0, 0.01, 0.5, 0.97, 1.0])
@pytest.mark.parametrize("n", [1, 9, 4103, 70001])
@xp_compare()
def test_nonzero_densities(xp, nonzero_piece, density, n):
    """Sparse, dense and full masks of lengths around the pieces and the 8-byte words:
    the CPU writes a word's set positions as 8 slots while its piece has room for them,
    then one by one."""
    m = numpy.random.default_rng(n).random(n) < density
    return [xp.flatnonzero(xp.asarray(m)), xp.count_nonzero(xp.asarray(m))]


@xp_compare()
def test_nonzero_noncanonical_bool_bytes(xp, nonzero_piece):
    """A bool array whose bytes are not 0 or 1 (NumPy's frombuffer, views): a nonzero
    byte is set, in the count and the write alike (a piece writes exactly the slots it
    counted).  (Other bool kernels still take such bytes as they are: sum, logical_not
    and count_nonzero on GPUs disagree with NumPy there.)"""
    m = numpy.frombuffer(bytes([0, 2, 0, 255, 1, 0, 4, 0, 0, 8, 16, 0] * 700), dtype=bool)
    a = xp.asarray(m)
    return [xp.flatnonzero(a), xp.nonzero(a.reshape(12, 700))[1]]


def test_gather_forced_index64():
    from garray import _core
    old = _core._debug_force_index64(True)
    try:
        a = make(garray, (6, 7), "complex128")
        n = make(numpy, (6, 7), "complex128")
        assert_xp_close(a[:, ia(garray, [6, 0])], n[:, [6, 0]])
        a[ia(garray, [1, 1])] = 3j
        n[[1, 1]] = 3j
        assert_xp_close(a, n)
    finally:
        _core._debug_force_index64(old)


def test_threads():
    n = make(numpy, (64, 33), "float32")
    g = garray.asarray(n)
    idx = numpy.arange(64)[::-3]

    def body(i):
        assert_xp_close(g[ia(garray, idx), i % 33], n[idx, i % 33])
        assert_xp_close(g[g > float(i)], n[n > float(i)])

    run_in_threads(body, 8)


@pytest.fixture
def gpu_winners():
    """Resolve repeated scatter targets the GPU way (marked winners) on every device."""
    from garray._index import advanced as _indexing
    old = _indexing._debug["winners"]
    _indexing._debug["winners"] = True
    yield
    _indexing._debug["winners"] = old


@pytest.mark.usefixtures("gpu_winners")
@xp_compare()
def test_setitem_repeats_through_winners(xp):
    n = 1 << 17                          # large enough for the launch pool's threads
    a = xp.zeros((7,), dtype=xp.int64)
    a[xp.asarray(numpy.arange(n) % 7)] = xp.arange(n, dtype=xp.int64)
    b = xp.zeros((4, 5), dtype=xp.float32)
    b[ia(xp, [[0, 0], [2, 0]]), ia(xp, [1, 1])] = xp.asarray(
        numpy.array([[1, 2], [3, 4]], dtype=numpy.float32))
    c = make(xp, (3, 4), "complex128")
    c[:, ia(xp, [3, 3, 0])] = make(xp, (3, 3), "complex128", start=20)
    return [a, b, c]
