"""garray.nn's max and average pooling against a NumPy reference of PyTorch's rules
(docs/pooling.md): values, indices, dtypes, shapes, views, empty batches and errors."""

import numpy
import pytest

import garray
import garray.nn as gnn
from garray.nn import _pool
from nn_reference import (avg_pool_backward_nd, avg_pool_nd, max_pool_backward_nd,
                          max_pool_nd, pool_output_size)
from xp import assert_xp_close

DTYPES = ("float32", "float64")


# ---- helpers ----------------------------------------------------------------------------


def data(shape, dtype, seed=0, ties=True):
    r = numpy.random.default_rng(seed)
    x = r.standard_normal(shape)
    if ties:                      # equal maxima test the first-wins rule
        x = numpy.round(x * 2) / 2
    return x.astype(dtype)


def tup(v, nd):
    return (v,) * nd if isinstance(v, int) else tuple(v)


def tol(dtype):
    return dict(rtol=1e-5, atol=1e-5) if dtype == "float32" else {}


MAXF = {1: gnn.max_pool1d, 2: gnn.max_pool2d, 3: gnn.max_pool3d}
AVGF = {1: gnn.avg_pool1d, 2: gnn.avg_pool2d, 3: gnn.avg_pool3d}
SHAPES = {1: (2, 3, 13), 2: (2, 3, 9, 8), 3: (1, 2, 6, 7, 5)}

# (kernel, stride, padding, dilation, ceil_mode)
MAX_CASES = {
    1: [(3, None, 0, 1, False), (2, 1, 1, 1, False), (4, 3, 2, 2, True), (3, 5, 1, 3, True),
        (1, 1, 0, 1, False), (5, 2, 2, 1, True)],
    2: [(2, None, 0, 1, False), ((3, 2), (2, 1), (1, 1), 1, True), (3, 2, 1, (2, 1), False),
        ((2, 3), 3, (1, 0), (1, 2), True), (1, 4, 0, 1, True), (4, 1, 2, 2, False)],
    3: [(2, None, 0, 1, False), ((3, 2, 2), (2, 1, 2), (1, 1, 1), 1, True),
        (2, 1, 1, (2, 1, 2), False), ((1, 3, 2), 2, (0, 1, 1), 1, True)],
}
# (kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
AVG_CASES = {
    1: [(3, None, 0, False, True, None), (2, 1, 1, False, False, None),
        (4, 3, 2, True, True, None), (4, 3, 2, True, False, None), (5, 2, 2, True, True, None)],
    2: [(2, None, 0, False, True, None), ((3, 2), (2, 1), (1, 1), True, True, None),
        ((3, 2), (2, 1), (1, 1), True, False, None), (3, 2, 1, False, False, 5),
        (4, 3, 2, True, True, -3), (1, 1, 0, False, True, None)],
    3: [(2, None, 0, False, True, None), ((3, 2, 2), (2, 1, 2), (1, 1, 1), True, True, None),
        ((3, 2, 2), (2, 1, 2), (1, 1, 1), True, False, None), (2, 1, 1, False, True, 7)],
}


def _max_case(nd, case):
    k, s, p, d, c = case
    return tup(k, nd), tup(k if s is None else s, nd), tup(p, nd), tup(d, nd), c


def test_reference_by_hand():
    # the reference itself, on values worked out by hand (PyTorch's rules)
    x = numpy.array([[[1.0, 3.0, 3.0, -1.0, 5.0]]])
    y, i = max_pool_nd(x, (2,), (2,), (1,), (1,), True)      # windows [-1,1), [1,3), [3,5)
    assert y.tolist() == [[[1.0, 3.0, 5.0]]] and i.tolist() == [[[0, 1, 4]]]
    y, i = max_pool_nd(numpy.array([[[2.0, numpy.nan, 7.0, numpy.nan]]]), (4,), (4,), (0,),
                       (1,), False)
    assert numpy.isnan(y[0, 0, 0]) and i[0, 0, 0] == 3
    # avg, ceil_mode: windows [-1, 2), [1, 4), [3, 6) clipped to [-1, 6) then to [0, 5)
    x = numpy.array([[[1.0, 2.0, 3.0, 4.0, 5.0]]])
    assert avg_pool_nd(x, (3,), (2,), (1,), True, True).tolist() == [[[1.0, 3.0, 3.0]]]
    assert avg_pool_nd(x, (3,), (2,), (1,), True, False).tolist() == [[[1.5, 3.0, 4.5]]]
    assert avg_pool_nd(x, (3,), (2,), (1,), True, True, 2).tolist() == [[[1.5, 4.5, 4.5]]]
    g = avg_pool_backward_nd(numpy.array([[[3.0, 6.0, 9.0]]]), (1, 1, 5), (3,), (2,), (1,),
                             True)
    assert g.tolist() == [[[1.0, 3.0, 2.0, 5.0, 3.0]]]
    g = max_pool_backward_nd(numpy.array([[[1.0, 2.0, 4.0]]]), numpy.array([[[1, 1, 4]]]),
                             (1, 1, 5))
    assert g.tolist() == [[[0.0, 3.0, 0.0, 0.0, 4.0]]]


# ---- max pooling ---------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nd,case", [(nd, c) for nd in (1, 2, 3) for c in MAX_CASES[nd]])
def test_max_pool(nd, case, dtype):
    x = data(SHAPES[nd], dtype, seed=nd)
    k, s, p, d, c = _max_case(nd, case)
    want, want_i = max_pool_nd(x, k, s, p, d, c)
    got, got_i = MAXF[nd](garray.asarray(x), case[0], case[1], case[2], case[3], c,
                          return_indices=True)
    assert_xp_close(got, want, rtol=0, atol=0)
    assert_xp_close(got_i, want_i)
    plain = MAXF[nd](garray.asarray(x), case[0], stride=case[1], padding=case[2],
                     dilation=case[3], ceil_mode=c)
    assert_xp_close(plain, want, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_max_pool_nan_and_inf(dtype):
    x = data((2, 2, 7, 6), dtype, seed=3)
    x[0, 0, 1, 1] = numpy.nan
    x[0, 0, 2, 2] = numpy.nan          # two NaN in one window: the last one's index
    x[1, 1, 4, 3] = numpy.nan
    x[0, 1] = -numpy.inf               # a plane of -inf: value -inf, first tap's index
    x[1, 0, :3, :3] = numpy.inf
    for args in ((3, 2, 1), (2, 1, 0), (3, 3, 1)):
        k = tup(args[0], 2)
        want, want_i = max_pool_nd(x, k, tup(args[1], 2), tup(args[2], 2), (1, 1), True)
        got, got_i = gnn.max_pool2d(garray.asarray(x), *args, ceil_mode=True,
                                    return_indices=True)
        assert_xp_close(got, want, rtol=0, atol=0)
        assert_xp_close(got_i, want_i)


def test_max_pool_window_without_taps():
    # a dilated window that straddles the input: -inf and PyTorch's first-tap index
    x = numpy.array([[[1.0, 2.0]]])
    want, want_i = max_pool_nd(x, (2,), (1,), (1,), (3,), False)
    got, got_i = gnn.max_pool1d(garray.asarray(x), 2, 1, 1, 3, return_indices=True)
    assert want[0, 0, 0] == -numpy.inf and want_i[0, 0, 0] == 2
    assert_xp_close(got, want)
    assert_xp_close(got_i, want_i)


@pytest.mark.parametrize("per", [1, 3, 64])
def test_per_thread_chunk_never_changes_results(per):
    x = data((2, 2, 5, 70), "float64", seed=5)
    old = _pool._debug_per(per)
    try:
        got, got_i = gnn.max_pool2d(garray.asarray(x), 3, (1, 2), 1, (1, 2), True, True)
        avg = gnn.avg_pool2d(garray.asarray(x), 3, (1, 2), 1, True, False)
    finally:
        _pool._debug_per(old)
    want, want_i = max_pool_nd(x, (3, 3), (1, 2), (1, 1), (1, 2), True)
    assert_xp_close(got, want)
    assert_xp_close(got_i, want_i)
    assert_xp_close(avg, avg_pool_nd(x, (3, 3), (1, 2), (1, 1), True, False))


# ---- average pooling -------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nd,case", [(nd, c) for nd in (1, 2, 3) for c in AVG_CASES[nd]])
def test_avg_pool(nd, case, dtype):
    x = data(SHAPES[nd], dtype, seed=10 + nd, ties=False)
    k, s, p, c, inc, div = case
    want = avg_pool_nd(x, tup(k, nd), tup(k if s is None else s, nd), tup(p, nd), c, inc, div)
    kw = {} if div is None else {"divisor_override": div}
    got = AVGF[nd](garray.asarray(x), k, s, p, c, inc, **kw)
    assert_xp_close(got, want, **tol(dtype))


def test_avg_pool_defaults_and_keywords():
    x = data((1, 2, 6, 6), "float64", seed=2, ties=False)
    want = avg_pool_nd(x, (2, 2), (2, 2), (0, 0), False, True)
    assert_xp_close(gnn.avg_pool2d(garray.asarray(x), 2), want)
    assert_xp_close(gnn.avg_pool2d(garray.asarray(x), kernel_size=(2, 2), stride=[]), want)
    want = avg_pool_nd(x, (3, 3), (2, 2), (1, 1), True, True, 2)
    got = gnn.avg_pool2d(garray.asarray(x), 3, 2, 1, ceil_mode=True, divisor_override=2)
    assert_xp_close(got, want)


# ---- layouts: unbatched, views, empty batch -----------------------------------------------


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_unbatched(nd):
    x = data(SHAPES[nd][1:], "float32", seed=20)
    xb = x[None]
    k = (2,) * nd
    want, want_i = max_pool_nd(xb, k, k, (1,) * nd, (1,) * nd, True)
    got, got_i = MAXF[nd](garray.asarray(x), 2, padding=1, ceil_mode=True, return_indices=True)
    assert_xp_close(got, want[0])
    assert_xp_close(got_i, want_i[0])
    want = avg_pool_nd(xb, k, k, (1,) * nd, False, False)
    assert_xp_close(AVGF[nd](garray.asarray(x), 2, padding=1, count_include_pad=False),
                    want[0], **tol("float32"))


VIEWS = {
    "transposed": lambda a: a.transpose(1, 0, 3, 2),
    "negative": lambda a: a[::-1, :, ::-1, ::-2],
    "sliced": lambda a: a[:, 1:, 1::2, ::3],
}


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_views_read_in_place(view, dtype):
    x = data((3, 4, 11, 12), dtype, seed=30)
    gx = VIEWS[view](garray.asarray(x))
    nx = VIEWS[view](x)
    assert not gx.flags.c_contiguous
    want, want_i = max_pool_nd(numpy.ascontiguousarray(nx), (3, 2), (2, 1), (1, 1), (1, 1),
                               True)
    got, got_i = gnn.max_pool2d(gx, (3, 2), (2, 1), 1, ceil_mode=True, return_indices=True)
    assert_xp_close(got, want)
    assert_xp_close(got_i, want_i)
    want = avg_pool_nd(numpy.ascontiguousarray(nx), (3, 2), (2, 1), (1, 1), True, True)
    assert_xp_close(gnn.avg_pool2d(gx, (3, 2), (2, 1), 1, True), want, **tol(dtype))


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_empty_batch(nd):
    shape = (0,) + SHAPES[nd][1:]
    x = garray.zeros(shape, dtype="float64")
    got, got_i = MAXF[nd](x, 2, return_indices=True)
    want = max_pool_nd(numpy.zeros(shape), (2,) * nd, (2,) * nd, (0,) * nd, (1,) * nd,
                       False)
    assert_xp_close(got, want[0])
    assert_xp_close(got_i, want[1])
    assert_xp_close(AVGF[nd](x, 2), numpy.zeros((0,) + want[0].shape[1:]))


def test_one_element_sizes():
    x = numpy.array([[[[2.5]]]], dtype="float32")
    got, got_i = gnn.max_pool2d(garray.asarray(x), 1, return_indices=True)
    assert_xp_close(got, x)
    assert_xp_close(got_i, numpy.zeros((1, 1, 1, 1), dtype=numpy.int64))
    assert_xp_close(gnn.avg_pool2d(garray.asarray(x), 1), x)
    # a kernel larger than the input along W, padded
    x = data((1, 1, 1, 3), "float64", seed=4)
    want = avg_pool_nd(x, (1, 4), (1, 4), (0, 2), False, True)
    assert_xp_close(gnn.avg_pool2d(garray.asarray(x), (1, 4), padding=(0, 2)), want)


def test_large_stride_and_dilation():
    x = data((1, 2, 40, 33), "float32", seed=6)
    want, want_i = max_pool_nd(x, (3, 2), (17, 11), (1, 1), (9, 15), True)
    got, got_i = gnn.max_pool2d(garray.asarray(x), (3, 2), (17, 11), 1, (9, 15), True, True)
    assert_xp_close(got, want)
    assert_xp_close(got_i, want_i)


# ---- errors -------------------------------------------------------------------------------


def _x(shape=(1, 2, 6, 6), dtype="float32"):
    return garray.zeros(shape, dtype=dtype)


@pytest.mark.parametrize("call,exc,words", [
    (lambda: gnn.max_pool2d(_x(), 3, padding=2), ValueError, "padding"),
    (lambda: gnn.avg_pool2d(_x(), (4, 2), padding=(2, 2)), ValueError, "padding"),
    (lambda: gnn.max_pool2d(_x(), 0), ValueError, "kernel_size"),
    (lambda: gnn.max_pool2d(_x(), (2, -1)), ValueError, "kernel_size"),
    (lambda: gnn.avg_pool2d(_x(), 2, stride=0), ValueError, "stride"),
    (lambda: gnn.max_pool2d(_x(), 2, dilation=0), ValueError, "dilation"),
    (lambda: gnn.max_pool2d(_x(), 2, padding=-1), ValueError, "padding"),
    (lambda: gnn.max_pool2d(_x(), (2, 2, 2)), ValueError, "kernel_size"),
    (lambda: gnn.max_pool2d(_x((1, 1, 2, 2)), 3, padding=1, dilation=2), ValueError,
     "output size"),
    (lambda: gnn.avg_pool2d(_x((1, 1, 2, 5)), 3), ValueError, "output size"),
    (lambda: gnn.max_pool2d(_x((6,)), 2), ValueError, "input"),
    (lambda: gnn.max_pool1d(_x((1, 1, 1, 6)), 2), ValueError, "(N, C, W)"),
    (lambda: gnn.max_pool2d(_x((1, 0, 4, 4)), 2), ValueError, "(1, 0, 4, 4)"),
    (lambda: gnn.avg_pool3d(_x((0, 4, 4)), 2), ValueError, "(0, 4, 4)"),
    (lambda: gnn.max_pool2d(_x(dtype="int32"), 2), TypeError, "int32"),
    (lambda: gnn.avg_pool2d(numpy.zeros((1, 1, 4, 4)), 2), TypeError, "garray"),
    (lambda: gnn.max_pool2d(_x(), 2.0), TypeError, "kernel_size"),
    (lambda: gnn.avg_pool2d(_x(), 2, divisor_override=0), ValueError, "divisor_override"),
    (lambda: gnn.avg_pool2d(_x(), 2, divisor_override=1.5), TypeError, "divisor_override"),
    (lambda: gnn.max_pool2d(_x(), 2, algorithm="fast"), ValueError, "algorithm"),
])
def test_errors(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    assert words in str(info.value)


def test_error_messages_name_function_and_shapes():
    with pytest.raises(ValueError, match=r"avg_pool2d: .*\(1, 1, 2, 5\)"):
        gnn.avg_pool2d(_x((1, 1, 2, 5)), 3)
    with pytest.raises(ValueError, match=r"max_pool3d: expected a 4-d .* got shape \(2, 3\)"):
        gnn.max_pool3d(_x((2, 3)), 2)


def test_algorithm_choice():
    x = data((1, 2, 6, 6), "float32", seed=8)
    want = avg_pool_nd(x, (2, 2), (2, 2), (0, 0), False, True)
    assert_xp_close(gnn.avg_pool2d(garray.asarray(x), 2, algorithm="kernel"), want)
    dev = garray.asarray(x).device
    if dev.kind == "cpu":
        assert_xp_close(gnn.avg_pool2d(garray.asarray(x), 2, algorithm="auto"), want)
        with pytest.raises(NotImplementedError, match="CPU device"):
            gnn.max_pool2d(garray.asarray(x), 2, algorithm="vendor")
    else:
        with pytest.raises(NotImplementedError, match="dilation"):
            gnn.max_pool2d(garray.asarray(x), 2, dilation=2, algorithm="vendor")
        with pytest.raises(NotImplementedError, match="return_indices"):
            gnn.max_pool2d(garray.asarray(x), 2, return_indices=True, algorithm="vendor")


@pytest.mark.parametrize("dtype", DTYPES)
def test_vendor_path_matches_the_reference(dtype):
    dev = garray.asarray(numpy.zeros(1)).device
    if dev.kind == "cpu":
        pytest.skip("the CPU device has no vendor pooling")
    try:
        from garray._vendor import dnn
    except ImportError:
        pytest.skip("garray._vendor.dnn is not on this branch")
    if not (dnn.supports(dev.kind, numpy.dtype(dtype), "pool") and dnn.available(dev.kind)[0]):
        pytest.skip(f"no vendor pooling for {dtype} on {dev.kind}")
    for nd in (1, 2, 3):
        x = data(SHAPES[nd], dtype, seed=70 + nd)
        k, s, p = (3,) * nd, (2,) * nd, (1,) * nd
        want, _ = max_pool_nd(x, k, s, p, (1,) * nd, False)
        got = MAXF[nd](garray.asarray(x), 3, 2, 1, algorithm="vendor")
        assert_xp_close(got, want)
        for inc in (True, False):
            want = avg_pool_nd(x, k, s, p, False, inc)
            got = AVGF[nd](garray.asarray(x), 3, 2, 1, False, inc, algorithm="vendor")
            assert_xp_close(got, want, **tol(dtype))
            # auto takes the vendor here and the kernel for ceil_mode's extra window
            got = AVGF[nd](garray.asarray(x), 3, 2, 1, True, inc)
            assert_xp_close(got, avg_pool_nd(x, k, s, p, True, inc), **tol(dtype))


def test_env_vendor_falls_back_to_the_kernel(monkeypatch):
    monkeypatch.setenv("GARRAY_CONV", "vendor")
    x = data((1, 2, 7, 7), "float64", seed=9)
    want, want_i = max_pool_nd(x, (3, 3), (2, 2), (1, 1), (2, 2), True)
    got, got_i = gnn.max_pool2d(garray.asarray(x), 3, 2, 1, 2, True, True)
    assert_xp_close(got, want)
    assert_xp_close(got_i, want_i)


def test_output_size_rule():
    # PyTorch's documented examples of the ceil_mode rule
    assert _pool.output_size(5, 2, 2, 0, 1, False) == 2
    assert _pool.output_size(5, 2, 2, 0, 1, True) == 3
    # the last window would start in the right padding: dropped
    assert _pool.output_size(5, 2, 2, 1, 1, True) == 3
    assert _pool.output_size(4, 3, 3, 1, 1, True) == 2
    assert _pool.output_size(10, 3, 1, 0, 4, False) == 2


# ---- the vendor path's plumbing (cuDNN / MIOpen themselves: tests/nn/test_dnn_vendor.py) ----


def test_vendor_expressible_cases():
    ok = _pool._vendor_ok
    assert ok(2, (8, 8), (2, 2), (2, 2), (0, 0), (1, 1), (4, 4))
    # ceil_mode that adds a partial window: symmetric padding cannot express it
    out = tuple(_pool.output_size(7, 2, 2, 0, 1, True) for _ in range(2))
    assert out == (4, 4) and not ok(2, (7, 7), (2, 2), (2, 2), (0, 0), (1, 1), out)
    # ceil_mode that changes nothing
    out = tuple(_pool.output_size(8, 2, 2, 0, 1, True) for _ in range(2))
    assert ok(2, (8, 8), (2, 2), (2, 2), (0, 0), (1, 1), out)
    assert not ok(2, (8, 8), (2, 2), (2, 2), (0, 0), (2, 1), (3, 4))


def test_vendor_call_arguments(monkeypatch):
    import types
    calls = []
    fake = types.ModuleType("garray._vendor.dnn")

    def pool_forward(x, y, mode, kernel, stride, pad_lo, pad_hi):
        calls.append((tuple(x.shape), tuple(y.shape), mode, kernel, stride, pad_lo, pad_hi,
                      bool(x.flags.c_contiguous)))
    fake.pool_forward = pool_forward
    monkeypatch.setattr(_pool, "dnn", fake)      # the module _pool calls
    x = garray.zeros((2, 3, 18), dtype="float32")[..., ::-2]
    y = garray.empty((2, 3, 4), dtype="float32")
    _pool._vendor_pool(x, y, 1, "avg", (3,), (2,), (1,), False)
    _pool._vendor_pool(x[..., None], y[..., None], 2, "max", (3, 1), (2, 1), (1, 0), True)
    assert calls == [
        ((2, 3, 1, 9), (2, 3, 1, 4), "avg_exclude_pad", (1, 3), (1, 2), (0, 1), (0, 1), True),
        ((2, 3, 9, 1), (2, 3, 4, 1), "max", (3, 1), (2, 1), (1, 0), (1, 0), True)]


# ---- gradients -----------------------------------------------------------------------------


MAX_BWD = {1: gnn.max_pool1d_backward, 2: gnn.max_pool2d_backward,
           3: gnn.max_pool3d_backward}
AVG_BWD = {1: gnn.avg_pool1d_backward, 2: gnn.avg_pool2d_backward,
           3: gnn.avg_pool3d_backward}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nd,case", [(nd, c) for nd in (1, 2, 3) for c in MAX_CASES[nd][:4]])
def test_max_pool_backward(nd, case, dtype):
    x = data(SHAPES[nd], dtype, seed=40 + nd)
    x.flat[::7] = numpy.nan
    k, s, p, d, c = _max_case(nd, case)
    _, idx = max_pool_nd(x, k, s, p, d, c)
    gy = data(idx.shape, dtype, seed=41, ties=False)
    want = max_pool_backward_nd(gy, idx, x.shape)
    got = MAX_BWD[nd](garray.asarray(gy), garray.asarray(idx), x.shape, case[0], case[1],
                      case[2], case[3], c)
    assert_xp_close(got, want)
    # the forward's own indices, unbatched
    _, gidx = MAXF[nd](garray.asarray(x[0]), case[0], case[1], case[2], case[3], c, True)
    got = MAX_BWD[nd](garray.asarray(gy[0]), gidx, x.shape[1:], case[0], case[1], case[2],
                      case[3], c)
    assert_xp_close(got, max_pool_backward_nd(gy[:1], idx[:1], (1,) + x.shape[1:])[0])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nd,case", [(nd, c) for nd in (1, 2, 3) for c in AVG_CASES[nd]])
def test_avg_pool_backward(nd, case, dtype):
    k, s, p, c, inc, div = case
    kt, st, pt = tup(k, nd), tup(k if s is None else s, nd), tup(p, nd)
    out = tuple(pool_output_size(SHAPES[nd][2 + i], kt[i], st[i], pt[i], 1, c) for i in range(nd))
    gy = data(SHAPES[nd][:2] + out, dtype, seed=50 + nd, ties=False)
    want = avg_pool_backward_nd(gy, SHAPES[nd], kt, st, pt, inc, div)
    kw = {} if div is None else {"divisor_override": div}
    got = AVG_BWD[nd](garray.asarray(gy), SHAPES[nd], k, s, p, c, inc, **kw)
    assert_xp_close(got, want, **tol(dtype))


def test_backward_views_and_empty_batch():
    x = data((2, 3, 8, 9), "float64", seed=60)
    _, idx = max_pool_nd(x, (3, 3), (2, 2), (1, 1), (1, 1), True)
    gy = data(idx.shape, "float64", seed=61, ties=False)
    big = numpy.zeros(gy.shape[:3] + (2 * gy.shape[3],))
    big[..., ::2] = gy
    gbig = garray.asarray(big)[..., ::2]               # a strided grad_output
    got = gnn.max_pool2d_backward(gbig, garray.asarray(idx), x.shape, 3, 2, 1, 1, True)
    assert_xp_close(got, max_pool_backward_nd(gy, idx, x.shape))
    got = gnn.avg_pool2d_backward(gbig, x.shape, 3, 2, 1, True)
    assert_xp_close(got, avg_pool_backward_nd(gy, x.shape, (3, 3), (2, 2), (1, 1), True))
    e = garray.zeros((0, 3, 4, 4), dtype="float32")
    assert_xp_close(gnn.avg_pool2d_backward(e, (0, 3, 8, 9), 2),
                    numpy.zeros((0, 3, 8, 9), dtype="float32"))


def test_backward_errors():
    gy = garray.zeros((1, 2, 3, 3), dtype="float32")
    idx = garray.zeros((1, 2, 3, 3), dtype="int64")
    with pytest.raises(ValueError, match=r"max_pool2d_backward: grad_output has shape "
                                         r"\(1, 2, 3, 3\).*\(1, 2, 4, 4\)"):
        gnn.max_pool2d_backward(gy, idx, (1, 2, 8, 8), 2)
    with pytest.raises(TypeError, match="int64"):
        gnn.max_pool2d_backward(gy, idx.astype("int32"), (1, 2, 6, 6), 2)
    with pytest.raises(TypeError, match="indices"):
        gnn.max_pool2d_backward(gy, numpy.zeros((1, 2, 3, 3), dtype="int64"), (1, 2, 6, 6), 2)
    with pytest.raises(ValueError, match="indices has shape"):
        gnn.max_pool2d_backward(gy, idx[:, :1], (1, 2, 6, 6), 2)
    with pytest.raises(ValueError, match="padding"):
        gnn.avg_pool2d_backward(gy, (1, 2, 6, 6), 2, padding=2)
    with pytest.raises(TypeError, match="input_shape"):
        gnn.avg_pool2d_backward(gy, (1, 2, 6.0, 6), 2)
    with pytest.raises(TypeError, match="float32"):
        gnn.avg_pool2d_backward(gy.astype("int32"), (1, 2, 6, 6), 2)
    with pytest.raises(ValueError, match="divisor_override"):
        gnn.avg_pool2d_backward(gy, (1, 2, 6, 6), 2, divisor_override=0)


def test_random_geometries():
    # seeded random rank, sizes, kernel, stride, padding, dilation, ceil_mode, NaN
    r = numpy.random.default_rng(123)
    done = 0
    while done < 24:
        nd = int(r.integers(1, 4))
        k = tuple(int(v) for v in r.integers(1, 4, nd))
        s = tuple(int(v) for v in r.integers(1, 4, nd))
        p = tuple(int(r.integers(0, kk // 2 + 1)) for kk in k)
        d = tuple(int(v) for v in r.integers(1, 3, nd))
        c, inc = bool(r.integers(0, 2)), bool(r.integers(0, 2))
        shape = (int(r.integers(1, 3)), 2) + tuple(int(v) for v in r.integers(3, 8, nd))
        if min(pool_output_size(shape[2 + i], k[i], s[i], p[i], d[i], c)
               for i in range(nd)) < 1:
            continue
        done += 1
        x = numpy.round(r.standard_normal(shape) * 2) / 2
        x.flat[r.integers(0, x.size, 2)] = numpy.nan
        want, want_i = max_pool_nd(x, k, s, p, d, c)
        got, got_i = MAXF[nd](garray.asarray(x), k, s, p, d, c, True)
        assert_xp_close(got, want, err_msg=f"max {shape} {k} {s} {p} {d} {c}")
        assert_xp_close(got_i, want_i, err_msg=f"indices {shape} {k} {s} {p} {d} {c}")
        x = numpy.nan_to_num(x)
        gy = r.standard_normal(want.shape)
        want_i = max_pool_nd(x, k, s, p, d, c)[1]
        got = MAX_BWD[nd](garray.asarray(gy), garray.asarray(want_i), shape, k, s, p, d, c)
        assert_xp_close(got, max_pool_backward_nd(gy, want_i, shape))
        want = avg_pool_nd(x, k, s, p, c, inc)
        assert_xp_close(AVGF[nd](garray.asarray(x), k, s, p, c, inc), want,
                        err_msg=f"avg {shape} {k} {s} {p} {c} {inc}")
        gy = r.standard_normal(want.shape)
        got = AVG_BWD[nd](garray.asarray(gy), shape, k, s, p, c, inc)
        assert_xp_close(got, avg_pool_backward_nd(gy, shape, k, s, p, inc))


def test_explicit_auto_takes_the_kernel_where_the_vendor_cannot():
    # algorithm='auto' (as None) falls back to garray's kernel for what cuDNN/MIOpen
    # cannot express (indices, dilation, divisor_override); only 'vendor' refuses
    x = garray.asarray(numpy.random.default_rng(3).uniform(-1, 1, (2, 3, 8, 9)))
    for kw in ({"return_indices": True}, {"dilation": 2}):
        got = gnn.max_pool2d(x, 2, algorithm="auto", **kw)
        want = gnn.max_pool2d(x, 2, algorithm="kernel", **kw)
        for a, b in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            assert_xp_close(a, garray.asnumpy(b))
    got = gnn.avg_pool2d(x, (2,), divisor_override=3, algorithm="auto")
    assert_xp_close(got, garray.asnumpy(gnn.avg_pool2d(x, 2, divisor_override=3,
                                                       algorithm="kernel")))


@pytest.mark.parametrize("fn, key", [(f, k) for f in ("max_pool1d", "avg_pool1d", "max_pool2d",
                                                      "avg_pool3d")
                                      for k in ("kernel_size", "stride", "padding", "dilation")
                                      if not (f.startswith("avg") and k == "dilation")])
def test_geometry_past_int64_is_a_value_error(fn, key):
    """An entry of 2**63 (past the kernels' int64 window arithmetic) is a ValueError
    naming the function and the argument, not an OverflowError from inside."""
    nd = int(fn[-2])
    kw = {"kernel_size": 1, key: 2**63}
    if key == "padding":
        kw["kernel_size"] = 2**64          # padding at most half the kernel
    with pytest.raises(ValueError, match=f"{fn}: .*too large"):
        getattr(garray.nn, fn)(garray.ones((1, 1) + (4,) * nd), **kw)


def test_huge_stride_that_fits_pools_and_backpropagates():
    x = garray.asarray([[[3.0, 1.0, 2.0, 4.0]]])
    y, idx = garray.nn.max_pool1d(x, 1, stride=2**62, return_indices=True)
    assert_xp_close(y, numpy.array([[[3.0]]]))
    g = garray.nn.max_pool1d_backward(y, idx, (1, 1, 4), 1, stride=2**62)
    assert_xp_close(g, numpy.array([[[3.0, 0.0, 0.0, 0.0]]]))
