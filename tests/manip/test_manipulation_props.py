"""Property tests for the manipulation family: random shapes, views, widths, positions
and modes against NumPy (pad, tile, insert/delete, splits, sliding windows, diagonals).

Hypothesis draws arrays of 0 to 3 axes with sides 0 to 5 as reversed or step views, and
the arguments each function takes; NumPy's result (or its exception type) is the
reference, compared with tests/xp.py ``assert_xp_close``.  The settings profile is fixed
(small ``max_examples``, no deadline, derandomized) so CI runs the same examples.
"""

import numpy
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import garray
from xp import same_or_raises_alike, make

settings.register_profile(
    "garray-manipulation", max_examples=60, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PROFILE = settings.get_profile("garray-manipulation")

DTYPES = ("bool", "int8", "uint16", "int64", "float32", "float64", "complex64")


@st.composite
def arrays(draw, min_dims=0, max_dims=3):
    """(numpy array, garray array): the same view (reversed/step axes) of the same data."""
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=min_dims, max_size=max_dims)))
    dtype = draw(st.sampled_from(DTYPES))
    steps = [draw(st.sampled_from([1, -1, 2])) for _ in shape]
    base = tuple(s * abs(k) for s, k in zip(shape, steps))
    key = tuple(slice(None, None, k) for k in steps)
    return make(numpy, base, dtype)[key], make(garray, base, dtype)[key]


def same(fn_np, fn_g):
    same_or_raises_alike(fn_np, fn_g)


@PROFILE
@given(arrays(), st.data())
def test_pad(ab, data):
    n, g = ab
    widths = data.draw(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)),
                                min_size=n.ndim, max_size=n.ndim))
    mode = data.draw(st.sampled_from(["constant", "edge", "wrap", "reflect", "symmetric",
                                      "maximum", "minimum", "mean", "linear_ramp"]))
    kw = {}
    if mode in ("reflect", "symmetric") and n.dtype.kind in "ifc":
        kw["reflect_type"] = data.draw(st.sampled_from(["even", "odd"]))
    if mode in ("maximum", "minimum", "mean"):
        kw["stat_length"] = data.draw(st.sampled_from([None, 1, 2, (1, 3)]))
    same(lambda: numpy.pad(n, widths, mode, **kw), lambda: garray.pad(g, widths, mode, **kw))


@PROFILE
@given(arrays(), st.lists(st.integers(0, 3), max_size=4))
def test_tile_resize(ab, reps):
    n, g = ab
    same(lambda: numpy.tile(n, reps), lambda: garray.tile(g, reps))
    shape = tuple(reps) or (3,)
    same(lambda: numpy.resize(n, shape), lambda: garray.resize(g, shape))


@PROFILE
@given(arrays(min_dims=1), st.data())
def test_insert_delete(ab, data):
    n, g = ab
    axis = data.draw(st.sampled_from([None] + list(range(-n.ndim, n.ndim))))
    size = n.size if axis is None else n.shape[axis]
    pos = data.draw(st.one_of(st.integers(-size - 1, size + 1),
                              st.lists(st.integers(-size, max(size, 0)), max_size=4)))
    same(lambda: numpy.delete(n, pos, axis), lambda: garray.delete(g, pos, axis))
    sl = slice(*data.draw(st.tuples(st.integers(-6, 6), st.integers(-6, 6),
                                    st.sampled_from([1, 2, -1]))))
    same(lambda: numpy.delete(n, sl, axis), lambda: garray.delete(g, sl, axis))
    value = data.draw(st.sampled_from([0, 1]))
    same(lambda: numpy.insert(n, pos, value, axis), lambda: garray.insert(g, pos, value, axis))


@PROFILE
@given(arrays(min_dims=1), st.data())
def test_splits_and_windows(ab, data):
    n, g = ab
    axis = data.draw(st.integers(-n.ndim, n.ndim - 1))
    sections = data.draw(st.one_of(st.integers(1, 4), st.lists(st.integers(-6, 8),
                                                                max_size=3)))
    same(lambda: numpy.array_split(n, sections, axis),
         lambda: garray.array_split(g, sections, axis))
    window = data.draw(st.integers(0, 6))
    same(lambda: numpy.lib.stride_tricks.sliding_window_view(n, window, axis),
         lambda: garray.lib.stride_tricks.sliding_window_view(g, window, axis))


@PROFILE
@given(arrays(min_dims=2), st.integers(-6, 6), st.data())
def test_diagonal_trim(ab, offset, data):
    n, g = ab
    a1, a2 = data.draw(st.permutations(range(n.ndim)))[:2]
    same(lambda: numpy.diagonal(n, offset, a1, a2), lambda: garray.diagonal(g, offset, a1, a2))
    trim = data.draw(st.sampled_from(["f", "b", "fb"]))
    same(lambda: numpy.trim_zeros(n, trim), lambda: garray.trim_zeros(g, trim))
