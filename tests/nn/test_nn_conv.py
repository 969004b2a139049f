"""garray.nn.conv1d/2d/3d and im2col against the NumPy reference (tests/nn_reference.py).

Every case runs each path: the vendor path (im2col + BLAS on the CPU device, cuDNN /
MIOpen on GPUs), the kernel path's heuristic and each of its variants forced through
``garray.nn._conv._debug_variant`` (the GPU's tiled kernel runs on fibers on the CPU
device, so sizes stay tiny).
"""

import numpy
import pytest
from numpy.lib.stride_tricks import sliding_window_view

import garray
import garray.nn as gnn
from garray.nn import _conv
from garray.nn._params import conv_geometry

import nn_reference as ref
from xp import assert_xp_close

FLOATS = ("float32", "float64")
PATHS = [("vendor", None), ("kernel", None), ("kernel", "direct"), ("kernel", "rt"),
         ("kernel", "tiled")]
PATH_IDS = ["vendor", "kernel", "direct", "rt", "tiled"]
FN = {1: gnn.conv1d, 2: gnn.conv2d, 3: gnn.conv3d}


def _vendor_ok(dtype):
    """Whether the vendor path computes ``dtype`` on the default device."""
    dev = garray.default_device()
    if dev.kind == "cpu":
        return True
    try:
        from garray._vendor import dnn
    except ImportError:
        return False
    return dnn.supports(dev.kind, numpy.dtype(dtype), "conv") and dnn.available(dev.kind)[0]


def _skip_without_vendor(algorithm, dtype):
    if algorithm == "vendor" and not _vendor_ok(dtype):
        pytest.skip(f"no vendor convolution for {dtype} on {garray.default_device()}")


@pytest.fixture(params=PATHS, ids=PATH_IDS)
def path(request, monkeypatch):
    algorithm, variant = request.param
    monkeypatch.setitem(_conv._debug, "variant", variant)
    return algorithm


def _tol(dtype, k):
    # float32 accumulates in float32: error grows with the reduction length k
    if numpy.dtype(dtype) == numpy.float32:
        return dict(rtol=1e-5 * max(4, k), atol=1e-5 * max(4, k))
    return dict(rtol=1e-12, atol=1e-12 * max(4, k))


def _pads(padding, nd, kernel, dilation):
    if padding == "valid":
        return 0, 0
    if padding == "same":
        return ref.same_padding(kernel, (dilation,) * nd if numpy.ndim(dilation) == 0
                                else dilation)
    return padding, padding


def _data(shape, dtype, seed):
    rng = numpy.random.default_rng(seed)
    return rng.uniform(-1, 1, shape).astype(dtype)


def _check(nd, xshape, wshape, stride, padding, dilation, groups, bias, dtype, algorithm,
           xview=None):
    _skip_without_vendor(algorithm, dtype)
    xh = _data(xshape, dtype, 1)
    wh = _data(wshape, dtype, 2)
    bh = _data((wshape[0],), dtype, 3) if bias else None
    x = garray.asarray(xh)
    if xview is not None:
        xh, x = xview(xh), xview(x)
    w = garray.asarray(wh)
    b = None if bh is None else garray.asarray(bh)
    lo, hi = _pads(padding, nd, wshape[2:], dilation)
    expected = ref.conv_nd(xh, wh, bh, stride, lo, hi, dilation, groups).astype(dtype)
    if algorithm == "vendor" and garray.default_device().kind != "cpu" and \
            numpy.any(numpy.asarray(lo) != numpy.asarray(hi)):
        # cuDNN and MIOpen take one padding per side: forced, they refuse by name;
        # 'auto' (the path=None runs) takes the kernel
        with pytest.raises(NotImplementedError, match="pad"):
            FN[nd](x, w, b, stride, padding, dilation, groups, algorithm=algorithm)
        algorithm = None
    got = FN[nd](x, w, b, stride, padding, dilation, groups, algorithm=algorithm)
    k = int(numpy.prod(wshape[1:]))
    assert_xp_close(got, expected, **_tol(dtype, k))


CASES = [
    # nd, x shape, w shape, stride, padding, dilation, groups, bias
    (1, (2, 3, 11), (4, 3, 3), 1, 0, 1, 1, True),
    (1, (2, 4, 13), (6, 2, 3), 2, 1, 2, 2, False),
    (1, (1, 4, 9), (4, 1, 5), 1, "same", 1, 4, True),            # depthwise
    (1, (3, 2, 10), (5, 2, 4), 1, "same", 2, 1, False),           # even kernel: pad (3, 3)
    (1, (2, 5, 40), (9, 5, 7), 3, "valid", 1, 1, True),
    (2, (2, 3, 7, 8), (5, 3, 3, 3), 1, 1, 1, 1, True),
    (2, (2, 4, 9, 7), (6, 2, 3, 2), (2, 1), (1, 0), (1, 2), 2, True),
    (2, (1, 6, 8, 8), (6, 1, 3, 3), 1, 1, 1, 6, True),            # depthwise
    (2, (2, 8, 5, 5), (16, 8, 1, 1), 1, 0, 1, 1, True),           # 1x1
    (2, (2, 3, 6, 20), (17, 3, 3, 3), 1, "valid", 1, 1, False),   # partial tiles
    (2, (1, 2, 5, 5), (3, 2, 5, 5), 1, 0, 1, 1, True),            # one output
    (2, (1, 2, 12, 12), (2, 2, 2, 2), 5, 2, 4, 1, False),         # large stride/dilation
    (2, (2, 4, 6, 6), (8, 2, 2, 3), 1, "same", (2, 1), 2, True),  # 'same', groups 2
    (2, (1, 2, 5, 6), (3, 2, 2, 4), 1, "same", 1, 1, True),       # 'same', uneven pads
    (3, (2, 2, 5, 6, 4), (4, 2, 3, 3, 2), 1, 1, 1, 1, True),
    (3, (1, 4, 4, 5, 5), (4, 2, 2, 3, 3), (1, 2, 1), (0, 1, 2), (2, 1, 1), 2, False),
    (3, (1, 3, 4, 4, 4), (6, 1, 3, 3, 3), 1, 1, 1, 3, True),      # channel multiplier 2
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}d-{i}" for i, c in enumerate(CASES)])
def test_conv_against_reference(case, dtype, path):
    _check(*case, dtype, path)


def test_reference_self_test():
    assert ref.self_test()


VIEWS = {
    "strided": lambda a: a[:, ::2, ..., 1::2],
    "negative": lambda a: a[::-1, :, ..., ::-1],
    "transposed": lambda a: a.swapaxes(-1, -2).swapaxes(-1, -2)[..., ::-1, :],
}


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_non_contiguous_input(view, path):
    # x (2, 6, 7, 12) viewed: channels 0, 2, 4 -> 3 channels (or all 6)
    _skip_without_vendor(path, "float64")
    f = VIEWS[view]
    c_in = 3 if view == "strided" else 6
    xh = _data((2, 6, 7, 12), "float64", 4)
    wh = _data((4, c_in, 3, 2), "float64", 5)
    x = f(garray.asarray(xh))
    # a non-contiguous weight: every other output channel of a larger one
    wbig = garray.asarray(numpy.repeat(wh, 2, axis=0))[::2]
    got = gnn.conv2d(x, wbig, None, 1, 1, algorithm=path)
    assert_xp_close(got, ref.conv_nd(f(xh), wh, None, 1, 1), **_tol("float64", 24))


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_empty_batch(nd, path):
    x = garray.zeros((0, 4) + (5,) * nd, dtype="float32")
    w = garray.ones((6, 2) + (3,) * nd, dtype="float32")
    b = garray.ones((6,), dtype="float32")
    y = FN[nd](x, w, b, 1, 1, 1, 2, algorithm=path)
    assert isinstance(y, garray.ndarray)
    assert y.shape == (0, 6) + (5,) * nd and y.dtype == numpy.float32


def test_no_input_channels(path):
    # C_in = 0: the reduction is empty, the output is the bias
    _skip_without_vendor(path, "float64")
    x = garray.zeros((2, 0, 5), dtype="float64")
    w = garray.zeros((3, 0, 2), dtype="float64")
    b = garray.asarray(numpy.array([1.0, -2.0, 0.5]))
    y = gnn.conv1d(x, w, b, algorithm=path)
    assert_xp_close(y, numpy.broadcast_to(numpy.array([1.0, -2.0, 0.5])[None, :, None],
                                          (2, 3, 4)).copy())


def test_one_element_sizes(path):
    _skip_without_vendor(path, "float64")
    x = garray.asarray(numpy.array([[[3.0]]]))
    w = garray.asarray(numpy.array([[[2.0]]]))
    y = gnn.conv1d(x, w, garray.asarray(numpy.array([1.0])), algorithm=path)
    assert_xp_close(y, numpy.array([[[7.0]]]))


def test_vendor_chunks(monkeypatch):
    # a tiny col budget: one sample per chunk, and both batch orders of the group GEMM
    monkeypatch.setattr(_conv, "COL_BYTES", 1)
    _check(2, (3, 4, 5, 6), (6, 2, 3, 3), 1, 1, 1, 2, True, "float64", "vendor")
    monkeypatch.setattr(_conv, "COL_BYTES", 10 ** 9)
    _check(2, (5, 4, 5, 6), (6, 2, 3, 3), 1, 1, 1, 2, True, "float64", "vendor")
    _check(2, (5, 4, 5, 6), (4, 1, 3, 3), 1, 1, 1, 4, False, "float32", "vendor")


def test_env_selects_path(monkeypatch):
    seen = []
    monkeypatch.setattr(_conv, "_kernel_path", lambda *a: seen.append("kernel"))
    monkeypatch.setattr(_conv, "_vendor_path", lambda *a: seen.append("vendor"))
    x = garray.ones((1, 2, 5), dtype="float32")
    w = garray.ones((2, 2, 3), dtype="float32")
    monkeypatch.setenv("GARRAY_CONV", "kernel")
    gnn.conv1d(x, w)
    monkeypatch.setenv("GARRAY_CONV", "vendor")
    gnn.conv1d(x, w)
    gnn.conv1d(x, w, algorithm="kernel")
    assert seen == ["kernel", "vendor", "kernel"]
    if garray.default_device().kind == "cpu":
        monkeypatch.setenv("GARRAY_CONV", "auto")
        gnn.conv1d(x, w)
        assert seen[-1] == "vendor"
        # depthwise under 'auto' on the CPU device: the direct kernel
        gnn.conv1d(x, garray.ones((4, 1, 3), dtype="float32"), groups=2)
        assert seen[-1] == "kernel"
        gnn.conv1d(x, garray.ones((4, 1, 3), dtype="float32"), groups=2, algorithm="vendor")
        assert seen[-1] == "vendor"


# ---- im2col ----------------------------------------------------------------------------


def _im2col_ref(xh, g, n0, n1):
    lo, hi = g.pad_lo, g.pad_hi
    xp = ref.pad_input(xh[n0:n1], lo, hi)
    nd = g.nd
    span = tuple(d * (k - 1) + 1 for k, d in zip(g.kernel, g.dilation))
    win = sliding_window_view(xp, span, axis=tuple(range(2, 2 + nd)))
    sl = ((slice(None), slice(None))
          + tuple(slice(None, (o - 1) * s + 1, s) for o, s in zip(g.out, g.stride))
          + tuple(slice(None, None, d) for d in g.dilation))
    win = win[sl]                                       # (nb, C, *out, *kernel)
    nb = n1 - n0
    cg = g.c_in // g.groups
    win = win.reshape((nb, g.groups, cg) + g.out + g.kernel)
    axes = (0, 1, 2) + tuple(range(3 + nd, 3 + 2 * nd)) + tuple(range(3, 3 + nd))
    taps = int(numpy.prod(g.kernel))
    return numpy.ascontiguousarray(win.transpose(axes)).reshape(
        nb, g.groups, cg * taps, int(numpy.prod(g.out)))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("nd,xshape,wshape,stride,padding,dilation,groups", [
    (1, (3, 4, 9), (2, 2, 3), 2, 1, 1, 2),
    (2, (3, 2, 6, 7), (4, 2, 3, 2), (1, 2), (2, 1), (2, 1), 1),
    (2, (2, 3, 5, 5), (3, 1, 3, 3), 1, "same", 1, 3),
    (3, (2, 2, 4, 5, 3), (2, 2, 2, 3, 2), 1, (1, 0, 1), 1, 1),
])
@pytest.mark.parametrize("whole", [None, 0, 1], ids=["device", "elements", "rows"])
def test_im2col(nd, xshape, wshape, stride, padding, dilation, groups, dtype, whole,
                monkeypatch):
    monkeypatch.setitem(_conv._debug, "im2col_whole", whole)
    g = conv_geometry("test", nd, xshape, wshape, stride, padding, dilation, groups)
    xh = _data(xshape, dtype, 6)
    x = garray.asarray(xh)
    for n0, n1 in ((0, xshape[0]), (1, 2), (1, 1)):
        col = _conv.im2col(x, g, n0, n1)
        assert_xp_close(col, _im2col_ref(xh, g, n0, n1), rtol=0, atol=0)


def test_im2col_errors():
    g = conv_geometry("test", 2, (2, 2, 5, 5), (3, 2, 3, 3))
    x = garray.zeros((2, 2, 5, 5))
    with pytest.raises(ValueError, match="samples"):
        _conv.im2col(x, g, 1, 3)
    with pytest.raises(ValueError, match="shape"):
        _conv.im2col(garray.zeros((2, 2, 5, 6)), g, 0, 2)
    with pytest.raises(ValueError, match="C-contiguous"):
        _conv.im2col(garray.zeros((2, 2, 5, 10))[..., ::2], g, 0, 2)


# ---- errors ------------------------------------------------------------------------------


def _ops(xshape=(2, 4, 8, 8), wshape=(6, 2, 3, 3), dtype="float32", wdtype=None):
    return (garray.zeros(xshape, dtype=dtype),
            garray.zeros(wshape, dtype=wdtype or dtype))


@pytest.mark.parametrize("call,exc,match", [
    (lambda x, w: gnn.conv2d(x[0, 0], w, groups=2), ValueError, "input must have 4"),
    (lambda x, w: gnn.conv1d(x, w, groups=2), ValueError, "input must have 3"),
    (lambda x, w: gnn.conv2d(x, w, groups=3), ValueError, "groups=3"),
    (lambda x, w: gnn.conv2d(x, w), ValueError, "expects 2 input channels"),
    (lambda x, w: gnn.conv2d(x, w, garray.zeros((5,), dtype="float32"), groups=2),
     ValueError, r"bias must have shape \(6,\)"),
    (lambda x, w: gnn.conv2d(x, w, groups=2, stride=0), ValueError, "stride"),
    (lambda x, w: gnn.conv2d(x, w, groups=2, padding=-1), ValueError, "padding"),
    (lambda x, w: gnn.conv2d(x, w, groups=2, stride=2, padding="same"), ValueError, "same"),
    (lambda x, w: gnn.conv2d(x, w, groups=2, padding="full"), ValueError, "padding"),
    (lambda x, w: gnn.conv2d(x, w, groups=2, dilation=5), ValueError, "larger than"),
    (lambda x, w: gnn.conv2d(x, w, groups=2, algorithm="fast"), ValueError, "algorithm"),
    (lambda x, w: gnn.conv2d(x, w.astype("float64"), groups=2), ValueError, "dtype"),
    (lambda x, w: gnn.conv2d(x.astype("int32"), w.astype("int32"), groups=2), TypeError,
     "dtype"),
    (lambda x, w: gnn.conv2d(numpy.zeros((2, 4, 8, 8), numpy.float32), w, groups=2),
     TypeError, r"input: expected a garray\.ndarray.*garray\.asarray"),
    (lambda x, w: gnn.conv2d(x, w, groups=0), ValueError, "groups"),
    (lambda x, w: gnn.conv2d(x, w, groups=2.0), TypeError, "groups"),
])
def test_errors(call, exc, match):
    x, w = _ops()
    with pytest.raises(exc, match=match):
        call(x, w)


def test_error_names_function():
    x, w = _ops((2, 4, 8), (6, 4, 3))
    with pytest.raises(ValueError, match="conv1d"):
        gnn.conv1d(x, w, garray.zeros((2,), dtype="float32"))


def test_tiled_kernel_refuses_a_reduction_past_32_bits(monkeypatch):
    # the geometry alone (no 8 GiB operands): the check comes before any launch
    monkeypatch.setitem(_conv._debug, "variant", "tiled")
    g = conv_geometry("conv1d", 1, (1, 2 ** 31, 1), (1, 2 ** 31, 1))
    y = garray.zeros((1, 1, 1), dtype="float32")
    with pytest.raises(NotImplementedError, match="32 bits"):
        _conv._kernel_path(y, y, None, y, g)


def test_unbatched_input_and_one_element_tuples_as_pytorch():
    # PyTorch: an input without N gives an output without N; a one-element sequence for
    # a size argument is repeated over the spatial axes
    xh, wh = _data((2, 3, 9, 8), "float64", 7), _data((4, 3, 3, 2), "float64", 8)
    x, w = garray.asarray(xh), garray.asarray(wh)
    expected = ref.conv_nd(xh, wh, None, 2, 1, 1, 1, 1)
    assert_xp_close(gnn.conv2d(x[0], w, stride=2, padding=1), expected[0])
    assert_xp_close(gnn.conv2d(x, w, stride=(2,), padding=[1], dilation=(1,)), expected)
    wt = garray.asarray(_data((3, 2, 3, 3), "float64", 9))
    full = gnn.conv_transpose2d(x, wt, stride=2, output_padding=1)
    assert_xp_close(gnn.conv_transpose2d(x[1], wt, stride=2, output_padding=(1,)),
                    garray.asnumpy(full[1]))


@pytest.mark.parametrize("fn, kw", [("conv1d", dict(padding=2**63)),
                                    ("conv2d", dict(padding=2**62)),
                                    ("conv_transpose1d", dict(stride=2**62, dilation=2**62))],
                         ids=str)
def test_output_too_large_for_an_array(fn, kw):
    """A geometry whose output could not exist (its bytes past an int64) is a ValueError
    naming the function, even for an empty batch, never an allocation error."""
    nd = int(fn[-2])
    x = garray.zeros((0, 1) + (2,) * nd)
    w = garray.ones((1, 1) + (1,) * nd)
    big = max(kw.values()) > 2**62      # refused before the output is sized
    with pytest.raises(ValueError, match=f"{fn}: (padding {2**63} is too large|the output "
                                         f"would have shape)" if big else
                       f"{fn}: the output would have shape"):
        getattr(garray.nn, fn)(x, w, **kw)


@pytest.mark.parametrize("name", ["stride", "padding", "dilation"])
def test_geometry_past_2_62_refused(name):
    """Entries past 2**62 are a ValueError naming the argument, also where the kernel
    of one tap makes the dilation irrelevant (it reached the int64 packing before)."""
    x = garray.ones((1, 1, 4))
    w = garray.ones((1, 1, 1))
    for v in (2**62 + 1, 2**63, 2**64):
        with pytest.raises(ValueError, match=f"conv1d: {name} .* too large"):
            garray.nn.conv1d(x, w, **{name: v})


def test_huge_stride_and_padding_that_fit():
    """Padding and stride of 2**31 whose output fits: outputs at -2**31, 0 and 2**31 of
    the input (only the middle one inside it)."""
    x = garray.asarray([[[5.0, 6.0, 7.0]]])
    w = garray.ones((1, 1, 1))
    y = garray.nn.conv1d(x, w, padding=2**31, stride=2**31)
    assert_xp_close(y, numpy.array([[[0.0, 5.0, 0.0]]]))
