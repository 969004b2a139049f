"""Basic indexing, views and __setitem__ against NumPy."""

import numpy
import pytest

import garray
from xp import assert_xp_close, for_all_dtypes, make, xp_compare

KEYS = [
    0, -1, 3, (1, 2), (1, 2, 3), (-1, -2, -3), slice(None), slice(1, 3), slice(None, None, 2),
    slice(None, None, -1), slice(3, 0, -2), slice(10, 20), slice(-100, 100, 3), Ellipsis,
    (Ellipsis, 0), (0, Ellipsis), (None,), (None, 0, None), (slice(None), None, 1),
    (Ellipsis, None), (1, Ellipsis, slice(None, None, -1)), (slice(2, 2),), (),
    (numpy.int64(1), numpy.intp(-2)), (slice(None, None, -3), slice(1, None, 2), 4),
]

BASES = {
    "contiguous": lambda a: a,
    "transposed": lambda a: a.T,
    "reversed": lambda a: a[::-1, :, ::-2],
    "sliced": lambda a: a[1:, 1:4, ::2],
}


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("base", list(BASES))
@xp_compare()
def test_getitem_views(xp, key, base):
    a = BASES[base](make(xp, (4, 5, 6), "float64"))
    r = a[key]
    return r


@for_all_dtypes()
@xp_compare()
def test_getitem_every_dtype(xp, dtype):
    a = make(xp, (3, 4), dtype)
    return [a[1], a[:, ::-2], a[-1, 2], a[None, ..., 1:3]]


def test_getitem_is_a_view_of_the_owner():
    a = make(garray, (4, 5), "int32")
    v = a[1:, ::2][1]
    assert v.base is a
    assert not v.flags.owndata and a.flags.owndata
    v[...] = -7
    assert (a.get()[2, ::2] == -7).all()


@pytest.mark.parametrize("key, exc", [
    (4, IndexError), (-5, IndexError), ((0, 0, 0, 0), IndexError), ((0, 6), IndexError),
    ((Ellipsis, Ellipsis), IndexError), (slice(None, None, 0), ValueError),
    (1.5, IndexError), ("a", IndexError),
])
def test_getitem_bad_keys(key, exc):
    a = make(garray, (4, 5, 6), "float32")
    n = make(numpy, (4, 5, 6), "float32")
    with pytest.raises(exc):
        n[key]
    with pytest.raises(exc):
        a[key]


def test_out_of_range_message_names_axis():
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 1 with size 5"):
        make(garray, (4, 5), "int8")[0, 7]


def test_0d_integer_array_as_index():
    a = make(garray, (4, 3), "int64")
    assert_xp_close(a[garray.asarray(2)], make(numpy, (4, 3), "int64")[2])


def test_0d_and_empty():
    a = make(garray, (), "float32")
    assert_xp_close(a[()], make(numpy, (), "float32")[()] * numpy.ones((), "float32"))
    assert a[...].shape == () and a[None].shape == (1,)
    e = garray.zeros((0, 3))
    assert e[:, 1].shape == (0,) and e[::-1].shape == (0, 3)


SET_CASES = [
    ((1,), 5), ((slice(None), 0), 3), ((Ellipsis, slice(None, None, -2)), 1),
    ((slice(1, 3), slice(None)), "row"), ((), 0), ((slice(None, None, -1),), "full"),
    ((None, 1), "row"),
]


@for_all_dtypes()
@pytest.mark.parametrize("key, value", SET_CASES, ids=repr)
@xp_compare()
def test_setitem(xp, dtype, key, value):
    a = make(xp, (4, 5), dtype)
    if value == "row":
        value = make(xp, (5,), dtype, start=40)
    elif value == "full":
        value = make(xp, (4, 5), dtype, start=20)
    a[key] = value
    return a


@xp_compare()
def test_setitem_noncontiguous_target_and_source(xp):
    a = make(xp, (6, 8), "int16")
    b = make(xp, (8, 6), "int16", start=100)
    a[::-2, 1::3] = b.T[1:4, ::-3]
    return a


@xp_compare()
def test_setitem_overlapping(xp):
    a = make(xp, (10,), "float64")
    a[1:] = a[:-1]
    b = make(xp, (4, 4), "int32")
    b[...] = b.T
    return [a, b]


@xp_compare()
def test_setitem_casts_value(xp):
    a = make(xp, (5,), "int32")
    a[1] = 7.9
    a[2:4] = make(xp, (2,), "float64")
    b = make(xp, (3,), "float32")
    b[...] = make(xp, (3,), "int64", start=-1)
    return [a, b]


def test_setitem_bad_values():
    a = make(garray, (3, 4), "float64")
    with pytest.raises(ValueError, match="broadcast"):
        a[...] = make(garray, (3,), "float64")
    with pytest.raises(ValueError, match="broadcast"):
        a[0] = [1.0, 2.0]
    with pytest.raises(OverflowError):
        make(garray, (3,), "int8")[0] = 1000
    ro = garray.asarray(numpy.arange(3.0), copy=None)
    assert ro.flags.writeable
    if garray.default_device().kind != "cpu":
        return          # below: a read-only NumPy array shared without a copy (CPU only)
    h = numpy.arange(3.0)
    h.flags.writeable = False
    r = garray.asarray(h, copy=False)
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 1.0
