"""numpy.pad (every mode), diagonals (diagonal, diag, diagflat, trace, fill_diagonal),
vander, tri, mask_indices and garray.lib.stride_tricks against NumPy."""

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, make, xp_compare

REAL_NUM = tuple(d for d in ALL_DTYPES if d not in ("bool", "complex64", "complex128"))


def _x(xp, dtype):
    """A non-contiguous (3, 4) view and a 1-d view."""
    return make(xp, (6, 4), dtype)[::2, ::-1], make(xp, (5,), dtype)[::-1]


# ---- pad ---------------------------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_pad_copy_modes(xp, dtype):
    a, v = _x(xp, dtype)
    z = make(xp, (), dtype)
    return [xp.pad(a, 1), xp.pad(a, (1, 2)), xp.pad(a, ((0, 1), (3, 2))),
            xp.pad(a, {1: (2, 0)}), xp.pad(v, 2, constant_values=1),
            xp.pad(a, 2, constant_values=((1, 0), (0, 1))), xp.pad(a, (2, 3), mode="edge"),
            xp.pad(a, ((3, 7), (1, 9)), mode="wrap"), xp.pad(v, (12, 3), mode="wrap"),
            xp.pad(a, ((2, 5), (3, 7)), mode="reflect"), xp.pad(v, (9, 11), mode="reflect"),
            xp.pad(a, ((2, 5), (4, 9)), mode="symmetric"),
            xp.pad(v, (11, 6), mode="symmetric"), xp.pad(a[:1], 3, mode="reflect"),
            xp.pad(z, 2), xp.pad(make(xp, (0, 2), dtype), 1),
            xp.pad(make(xp, (0, 2), dtype), ((0, 0), (1, 1)), mode="edge"),
            xp.pad(a, 0, mode="wrap")]


@for_all_dtypes(dtypes=REAL_NUM + ("complex128",))
@xp_compare()
def test_pad_odd_reflect(xp, dtype):
    a, v = _x(xp, dtype)
    if numpy.dtype(dtype).kind == "u":       # 2 * edge - x wraps: compare small pads only
        return [xp.pad(v, 1, mode="reflect", reflect_type="odd")]
    return [xp.pad(a, ((2, 5), (3, 7)), mode="reflect", reflect_type="odd"),
            xp.pad(v, (7, 4), mode="symmetric", reflect_type="odd")]


@for_all_dtypes()
@xp_compare()
def test_pad_statistics(xp, dtype):
    a, v = _x(xp, dtype)
    return [xp.pad(a, 2, mode="maximum"), xp.pad(a, (1, 3), mode="minimum"),
            xp.pad(a, ((1, 2), (2, 1)), mode="mean"), xp.pad(v, 3, mode="mean", stat_length=2),
            xp.pad(a, 2, mode="maximum", stat_length=((1, 2), (3, 1))),
            xp.pad(v, (2, 4), mode="minimum", stat_length=(1, 3))]


@for_all_dtypes(dtypes=REAL_NUM + ("complex128", "bool"))
@xp_compare()
def test_pad_linear_ramp(xp, dtype):
    a, v = _x(xp, dtype)
    return [xp.pad(v, (4, 3), mode="linear_ramp"),
            xp.pad(a, ((2, 1), (3, 2)), mode="linear_ramp", end_values=((1, 2), (3, 4))),
            xp.pad(v, 5, mode="linear_ramp", end_values=(5, 1))]


def test_pad_empty_callable_median():
    g, n = make(garray, (2, 3), "int32"), make(numpy, (2, 3), "int32")
    e = garray.pad(g, ((1, 2), (0, 3)), mode="empty")
    assert e.shape == (5, 6) and e.dtype == numpy.int32
    assert_xp_close(e[1:3, :3], n)

    def ten(vector, width, iaxis, kwargs):
        vector[:width[0]] = kwargs.get("value", 10)
        if width[1]:
            vector[-width[1]:] = -1

    assert_xp_close(garray.pad(g, (1, 2), ten, value=7), numpy.pad(n, (1, 2), ten, value=7))
    assert_xp_close(garray.pad(g, 2, mode="median"), numpy.pad(n, 2, mode="median"))


@pytest.mark.parametrize("case", ["mode", "kwarg", "negative", "float", "shape",
                                  "empty_axis", "stat0", "uint"])
@xp_compare()
def test_pad_bad_input(xp, case):
    a = make(xp, (2, 3), "float32")
    calls = {"mode": lambda: xp.pad(a, 1, mode="nope"),
             "kwarg": lambda: xp.pad(a, 1, mode="edge", constant_values=1),
             "negative": lambda: xp.pad(a, -1),
             "float": lambda: xp.pad(a, 1.5),
             "shape": lambda: xp.pad(a, ((1, 2, 3),)),
             "empty_axis": lambda: xp.pad(make(xp, (0, 3), "float32"), 1, mode="wrap"),
             "stat0": lambda: xp.pad(a, 1, mode="maximum", stat_length=0),
             "uint": lambda: xp.pad(a, numpy.uint8(1))}
    return calls[case]()


# ---- diagonals ---------------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_diagonals(xp, dtype):
    a, v = _x(xp, dtype)
    c = make(xp, (2, 3, 4), dtype)[:, ::-1]
    return [xp.diagonal(a), xp.diagonal(a, 1), xp.diagonal(a, -2), xp.diagonal(a, 9),
            xp.diagonal(c, 1, 2, 0), xp.diagonal(c, -1, -1, -2), xp.diag(a), xp.diag(a, -1),
            xp.diag(v), xp.diag(v, 2), xp.diag(v, -3), xp.diagflat(a), xp.diagflat(v, 1),
            xp.diag(make(xp, (0,), dtype)), xp.diagonal(make(xp, (0, 3), dtype))]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@for_all_dtypes(dtypes=REAL_NUM + ("complex64", "bool"))
@xp_compare()
def test_trace(xp, dtype):
    a, _ = _x(xp, dtype)
    c = make(xp, (3, 3, 2), dtype)
    return [xp.trace(a), xp.trace(a, 1), xp.trace(c, -1), xp.trace(c, 0, 0, 2),
            xp.trace(a, dtype="float64")]


def test_diagonal_is_readonly_view():
    g = make(garray, (3, 3), "float32")
    d = garray.diagonal(g)
    assert not d.flags.writeable and d.base is not None
    with pytest.raises(ValueError):
        d[0] = 1


@for_all_dtypes()
def test_fill_diagonal(dtype):
    out = []
    for xp in (numpy, garray):
        tall = make(xp, (11, 3), dtype)
        wide_t = make(xp, (5, 4), dtype).T
        cube = make(xp, (3, 3, 3), dtype)
        vals = make(xp, (2,), dtype, start=50)
        xp.fill_diagonal(tall, vals, wrap=True)
        t2 = make(xp, (7, 3), dtype)
        xp.fill_diagonal(t2, vals)
        xp.fill_diagonal(wide_t, 1)
        xp.fill_diagonal(cube, vals[:1])
        out.append([tall, t2, wide_t, cube])
    assert_xp_close(out[1], out[0])


@pytest.mark.parametrize("case", ["ndim", "axes", "diag3", "fill1", "fillshape",
                                  "offset"])
@xp_compare()
def test_diagonal_bad_input(xp, case):
    a = make(xp, (3, 3), "int64")
    calls = {"ndim": lambda: xp.diagonal(make(xp, (3,), "int64")),
             "axes": lambda: xp.diagonal(a, 0, 1, -1),
             "diag3": lambda: xp.diag(make(xp, (2, 2, 2), "int64")),
             "fill1": lambda: xp.fill_diagonal(make(xp, (3,), "int64"), 1),
             "fillshape": lambda: xp.fill_diagonal(make(xp, (2, 3, 3), "int64"), 1),
             "offset": lambda: xp.diagonal(a, 1.5)}
    return calls[case]()


# ---- vander, tri, mask_indices ---------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_vander(xp, dtype):
    _, v = _x(xp, dtype)
    return [xp.vander(v), xp.vander(v, 3), xp.vander(v, 1, increasing=True),
            xp.vander(v[:3], 4, increasing=True), xp.vander(v, 0),
            xp.vander(make(xp, (0,), dtype))]


@xp_compare()
def test_tri(xp):
    return [xp.tri(3), xp.tri(2, 4, 1), xp.tri(4, 3, -1, dtype="int32"),
            xp.tri(3, dtype=bool), xp.tri(0, 2)]


def test_mask_indices():
    assert_xp_close(list(garray.mask_indices(4, garray.triu, 1)),
                    list(numpy.mask_indices(4, numpy.triu, 1)))


# ---- stride tricks ---------------------------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_sliding_window_view(xp, dtype):
    st = xp.lib.stride_tricks
    a, v = _x(xp, dtype)
    return [st.sliding_window_view(v, 3), st.sliding_window_view(a, (2, 2)),
            st.sliding_window_view(a, 2, axis=-1), st.sliding_window_view(a, (2, 1), axis=(1, 1)),
            st.sliding_window_view(v, 5), st.sliding_window_view(v, 0)]


@for_all_dtypes()
@xp_compare()
def test_as_strided(xp, dtype):
    st = xp.lib.stride_tricks
    b = make(xp, (12,), dtype)
    s = b.itemsize
    a = b.reshape(3, 4)[:, ::-1]
    return [st.as_strided(b, (5, 3), (2 * s, s)), st.as_strided(b, (3,), (0,)),
            st.as_strided(a), st.as_strided(a, (2, 2), (4 * s, -s)),
            st.as_strided(b[4:], (4, 2), (-s, 4 * s))]


def test_stride_tricks_checks_and_flags():
    st = garray.lib.stride_tricks
    b = make(garray, (12,), "float32")
    w = st.sliding_window_view(b, 4)
    assert not w.flags.writeable
    assert st.sliding_window_view(b, 4, writeable=True).flags.writeable
    v = st.as_strided(b, (3, 2), (16, 4))
    v[1, 1] = 100
    assert float(b[5]) == 100.0
    assert not st.as_strided(b, writeable=False).flags.writeable
    with pytest.raises(ValueError, match="outside"):
        st.as_strided(b, (13,), (4,))
    with pytest.raises(ValueError, match="outside"):
        st.as_strided(b[1:], (3,), (-4,))
    with pytest.raises(ValueError, match="multiples"):
        st.as_strided(b, (3,), (6,))
    with pytest.raises(ValueError, match="larger"):
        st.sliding_window_view(b, 13)
    with pytest.raises(ValueError, match="negative"):
        st.sliding_window_view(b, -1)
    with pytest.raises(ValueError, match="window_shape"):
        st.sliding_window_view(b.reshape(3, 4), 2)
    # a view of a view reaches the whole owning allocation, as NumPy's does
    assert_xp_close(st.as_strided(b[6:], (3,), (-8,)),
                    numpy.lib.stride_tricks.as_strided(make(numpy, (12,), "float32")[6:],
                                                       (3,), (-8,)))
