"""NumPy's indexing routines (garray/_index/routines.py, where.py, index_arrays.py,
iterators.py) against NumPy."""

import numpy
import pytest

import garray
from xp import assert_xp_close, for_all_dtypes, make, xp_compare


def ia(xp, v, dtype="int64"):
    return xp.asarray(numpy.asarray(v, dtype=dtype))


@for_all_dtypes()
@xp_compare()
def test_take(xp, dtype):
    a = make(xp, (4, 5), dtype)
    return [xp.take(a, ia(xp, [3, 0, -1])), xp.take(a, ia(xp, [4, 1]), axis=1),
            xp.take(a, ia(xp, [[1, 2], [0, 0]]), axis=0), a.take(ia(xp, [19])),
            xp.take(a, ia(xp, [7, -9]), axis=1, mode="wrap"),
            xp.take(a, ia(xp, [7, -9]), axis=0, mode="clip"),
            xp.take(a[::-1, ::2], ia(xp, [2, 0]), axis=1)]


def test_take_out_and_errors():
    a = make(garray, (4, 5), "float32")
    out = garray.empty((4, 2), dtype=garray.float32)
    r = garray.take(a, ia(garray, [4, 1]), axis=1, out=out)
    assert r is out
    assert_xp_close(out, numpy.take(make(numpy, (4, 5), "float32"), [4, 1], axis=1))
    with pytest.raises(IndexError, match="out of bounds"):
        garray.take(a, ia(garray, [20]))
    with pytest.raises(ValueError):
        garray.take(a, ia(garray, [0]), mode="bad")
    with pytest.raises(numpy.exceptions.AxisError):
        garray.take(a, ia(garray, [0]), axis=2)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
@xp_compare()
def test_take_along_axis(xp, axis):
    a = make(xp, (3, 4), "float64")
    if axis is None:
        idx = ia(xp, [11, 0, 5])
    elif axis == 0:
        idx = ia(xp, [[2, 0, 1, 1]])
    else:
        idx = ia(xp, [[3, 0], [1, 1], [0, 2]])
    return xp.take_along_axis(a, idx, axis=axis)


@xp_compare()
def test_put_along_axis(xp):
    a = make(xp, (3, 4), "int32")
    xp.put_along_axis(a, ia(xp, [[1], [3], [0]]), ia(xp, [[-1], [-2], [-3]], "int32"), 1)
    return a


@xp_compare()
def test_put_place_putmask(xp):
    a = make(xp, (3, 4), "float64")
    xp.put(a, ia(xp, [0, 5, 11]), ia(xp, [-1.0, -2.0], "float64"))
    b = make(xp, (3, 4), "int16")
    xp.place(b, b % 3 == 0, ia(xp, [7, 8], "int16"))
    c = make(xp, (3, 4), "int64")
    xp.putmask(c, c > 5, ia(xp, [100, 200, 300]))
    d = make(xp, (4, 6), "int32")[:, ::2]
    xp.put(d, ia(xp, [1, -1]), ia(xp, [0], "int32"))
    e = make(xp, (5,), "uint8")
    xp.put(e, ia(xp, [7, -8]), ia(xp, [9], "uint8"), mode="wrap")
    return [a, b, c, d, e]


@xp_compare()
def test_compress_extract(xp):
    a = make(xp, (3, 4), "float32")
    c = ia(xp, [True, False, True], "bool")
    return [xp.compress(c, a, axis=0), xp.compress(ia(xp, [False, True], "bool"), a, axis=1),
            xp.compress(ia(xp, [True, True, False], "bool"), a), xp.extract(a > 5, a),
            a.compress(ia(xp, [False, True, True], "bool"), axis=0)]


@xp_compare()
def test_choose_select(xp):
    idx = ia(xp, [[0, 1, 2], [2, 1, 0]])
    ch = [make(xp, (2, 3), "int32"), make(xp, (2, 3), "int32", start=10),
          make(xp, (3,), "int32", start=100)]
    a = make(xp, (2, 3), "float64")
    return [xp.choose(idx, ch), xp.choose(ia(xp, [3, -1, 4]), ch[2:] + ch[2:] * 0 + [ch[2]],
                                          mode="wrap"),
            xp.select([a < 2, a > 4], [a, -a], default=7.5),
            xp.select([a < 3], [a])]


def test_choose_out_of_range():
    with pytest.raises(ValueError):
        garray.choose(ia(garray, [0, 3]), [garray.zeros(2), garray.ones(2)])


@pytest.mark.parametrize("shape", [(6,), (2, 3), (2, 0), ()])
@xp_compare()
def test_flatnonzero_argwhere_where1(xp, shape):
    a = make(xp, shape, "int32") % 3
    out = [xp.flatnonzero(a), xp.argwhere(a)]
    if a.ndim:
        out += list(xp.where(a))
    return out


@xp_compare()
def test_ix(xp):
    a = make(xp, (4, 5), "int64")
    k = xp.ix_(ia(xp, [0, 3]), ia(xp, [True, False, True, False, True], "bool"))
    return [a[k]] + list(k)


@xp_compare()
def test_unravel_ravel(xp):
    idx = ia(xp, [0, 5, 11, 7])
    return (list(xp.unravel_index(idx, (3, 4))) + list(xp.unravel_index(idx, (3, 4), order="F"))
            + [xp.ravel_multi_index((ia(xp, [2, 0]), ia(xp, [3, 1])), (3, 4)),
               xp.ravel_multi_index((ia(xp, [2, 0]), ia(xp, [3, 1])), (3, 4), order="F"),
               xp.ravel_multi_index((ia(xp, [5, -1]), ia(xp, [3, 9])), (3, 4),
                                    mode=("wrap", "clip"))])


def test_unravel_ravel_errors():
    with pytest.raises(ValueError):
        garray.unravel_index(ia(garray, [12]), (3, 4))
    with pytest.raises(ValueError):
        garray.ravel_multi_index((ia(garray, [3]), ia(garray, [0])), (3, 4))


@xp_compare()
def test_indices_and_triangles(xp):
    return ([xp.indices((2, 3)), *xp.indices((2, 3), sparse=True)]
            + list(xp.diag_indices(3)) + list(xp.tril_indices(4)) + list(xp.tril_indices(3, 1, 5))
            + list(xp.triu_indices(4, -1)) + list(xp.triu_indices_from(make(xp, (3, 5), "int8")))
            + list(xp.tril_indices_from(make(xp, (4, 2), "int8"), k=-1))
            + list(xp.diag_indices_from(make(xp, (3, 3, 3), "int8"))))


@for_all_dtypes()
@xp_compare()
def test_repeat(xp, dtype):
    a = make(xp, (3, 4), dtype)
    return [xp.repeat(a, 2), xp.repeat(a, 3, axis=1), xp.repeat(a, ia(xp, [1, 0, 2]), axis=0),
            xp.repeat(a, ia(xp, [0, 2, 0, 1]), axis=-1), xp.repeat(a[::-1], ia(xp, [2]), axis=0),
            a.repeat(2, axis=0), xp.repeat(make(xp, (), dtype), 3),
            xp.repeat(a, ia(xp, [0, 0, 0]), axis=0), xp.repeat(a, 0)]


@pytest.mark.parametrize("shape, axis", [((5,), None), ((3, 4), 0), ((3, 4), 1),
                                         ((2, 3, 4), 1), ((2, 3, 4), -1), ((0, 3), 1),
                                         ((3, 0), 0), ((1 << 17,), None), ((300, 7), 0)])
@pytest.mark.parametrize("r", [0, 1, 3])
@xp_compare()
def test_repeat_one_count_layouts(xp, shape, axis, r):
    """repeat by one count: a C-contiguous array in one launch (repeat_c), split over the
    pool when large; views the general way; int8 to complex128 item sizes."""
    out = []
    for dt in ("int8", "float16", "float32", "complex128"):
        with numpy.errstate(over="ignore"):     # long int8/float16 data wraps: fine
            a = make(xp, shape, dt)
        out.append(xp.repeat(a, r, axis=axis))
        if a.ndim > 1:
            out.append(xp.repeat(a[:, ::-1], r, axis=axis))
    return out


def test_repeat_errors():
    a = make(garray, (3,), "int32")
    with pytest.raises(ValueError):
        garray.repeat(a, -1)
    with pytest.raises(ValueError):
        garray.repeat(a, ia(garray, [1, -1, 1]))
    with pytest.raises(ValueError):
        garray.repeat(a, ia(garray, [1, 1]))


def test_flat_and_ndenumerate():
    n = make(numpy, (3, 4), "float64")
    g = garray.asarray(n)
    assert_xp_close(g.flat[ia(garray, [0, 5])], n.flat[[0, 5]])
    assert list(g.flat) == list(n.flat)
    assert len(g.flat) == 12
    gt, nt = g.T, n.T
    gt.flat[ia(garray, [1, 2])] = -1.0
    nt.flat[[1, 2]] = -1.0
    assert_xp_close(g, n)
    assert [(i, float(v)) for i, v in garray.ndenumerate(g)] == \
        [(i, float(v)) for i, v in numpy.ndenumerate(n)]
    assert list(garray.ndindex(2, 3)) == list(numpy.ndindex(2, 3))
    assert list(garray.ndindex((2, 1))) == list(numpy.ndindex((2, 1)))
