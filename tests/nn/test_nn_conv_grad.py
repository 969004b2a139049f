"""garray.nn's transposed convolutions and convolution gradients against the NumPy
references in tests/nn_reference.py (float64 einsum per tap), on the default device.

Both paths are forced ('kernel': garray's gather kernels; 'vendor': the GEMM lowering
on the CPU device, cuDNN/MIOpen on GPUs, skipped where the vendor module is missing).
The adjoint identity <conv(x, w), dy> == <x, dx> == <w, dw> and central differences in
float64 tie the three functions to the forward convolution.
"""

import numpy
import pytest

import garray
import nn_reference as ref
from xp import assert_xp_close

from garray import nn
from garray.nn import _conv_grad

DTYPES = ("float32", "float64")
ALGOS = ("kernel", "vendor")


def _skip_vendor(algo, dtype="float64"):
    """The vendor path on a GPU needs garray._vendor.dnn and a library that computes
    ``dtype`` (MIOpen: float32 only; test_vendor_refusals checks the refusal)."""
    dev = garray.default_device()
    if algo != "vendor" or dev.kind == "cpu":
        return
    try:
        from garray._vendor import dnn
    except ImportError:
        pytest.skip("garray._vendor.dnn is not there")
    if not dnn.available(dev.kind)[0]:
        pytest.skip(f"no DNN library for {dev.kind}")
    if not dnn.supports(dev.kind, numpy.dtype(dtype), "conv"):
        pytest.skip(f"the {dev.kind} DNN library does not compute {dtype}")


def _data(shape, dtype, seed):
    rng = numpy.random.default_rng(seed)
    # multiples of 1/8 in [-2, 2]: products and short sums are exact in float32
    return (rng.integers(-16, 17, size=shape) / 8.0).astype(dtype)


def _tol(dtype, ref_values):
    scale = float(numpy.abs(ref_values).max()) if ref_values.size else 1.0
    if dtype == "float32":
        return dict(rtol=1e-5, atol=1e-5 * max(scale, 1.0))
    return dict(rtol=1e-12, atol=1e-12 * max(scale, 1.0))


def _close(got, expected, dtype):
    expected = numpy.asarray(expected)
    assert_xp_close(got, expected.astype(dtype), **_tol(dtype, expected))


# (nd, N, C_in, C_out, size, kernel, stride, padding, dilation, groups, output_padding)
# forward geometry (for the transposed conv: C_in/C_out are the transposed conv's)
CASES = [
    (1, 2, 3, 4, 9, 3, 1, 0, 1, 1, 0),
    (1, 2, 4, 6, 11, 3, 2, 1, 2, 2, 1),
    (1, 1, 2, 2, 5, 1, 3, 0, 1, 1, 2),          # 1-wide kernel, stride 3
    (2, 2, 3, 2, (6, 7), (3, 2), (2, 1), (1, 0), (1, 2), 1, (1, 0)),
    (2, 1, 4, 4, (5, 5), 3, 1, 1, 1, 4, 0),      # depthwise
    (2, 2, 2, 3, (4, 6), (2, 3), (3, 2), (0, 2), (2, 1), 1, (2, 1)),
    (3, 1, 2, 4, (4, 5, 3), (2, 3, 1), (1, 2, 1), (1, 1, 0), 1, 2, (0, 1, 0)),
    (3, 2, 2, 2, (3, 3, 4), 2, 2, 0, (1, 1, 2), 1, 1),
]


def _case_id(c):
    return f"{c[0]}d-n{c[1]}-c{c[2]}x{c[3]}-g{c[9]}-s{c[6]}-p{c[7]}-d{c[8]}"


def _nt(v, nd):
    return (v,) * nd if isinstance(v, int) else tuple(v)


def _fn(kind, nd):
    return getattr(nn, {"t": f"conv_transpose{nd}d", "i": f"conv{nd}d_backward_input",
                        "w": f"conv{nd}d_backward_weight"}[kind])


def _forward_setup(case, dtype, seed=0):
    nd, n, cin, cout, size, k, s, p, d, groups, _ = case
    x = _data((n, cin) + _nt(size, nd), dtype, seed)
    w = _data((cout, cin // groups) + _nt(k, nd), dtype, seed + 1)
    y = ref.conv_nd(x, w, None, s, p, p, d, groups)
    dy = _data(y.shape, dtype, seed + 2)
    return x, w, dy


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_backward_input(case, dtype, algo):
    _skip_vendor(algo, dtype)
    nd, _, _, _, _, _, s, p, d, groups, _ = case
    x, w, dy = _forward_setup(case, dtype)
    got = _fn("i", nd)(x.shape, garray.asarray(w), garray.asarray(dy), s, p, d, groups,
                       algorithm=algo)
    _close(got, ref.conv_backward_input_nd(dy, w, x.shape, s, p, p, d, groups), dtype)


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_backward_weight(case, dtype, algo):
    _skip_vendor(algo, dtype)
    nd, _, _, _, _, _, s, p, d, groups, _ = case
    x, w, dy = _forward_setup(case, dtype)
    got = _fn("w", nd)(garray.asarray(x), w.shape, garray.asarray(dy), s, p, d, groups,
                       algorithm=algo)
    _close(got, ref.conv_backward_weight_nd(x, dy, w.shape, s, p, p, d, groups), dtype)


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_conv_transpose(case, bias, dtype, algo):
    _skip_vendor(algo, dtype)
    nd, n, cin, cout, size, k, s, p, d, groups, op = case
    x = _data((n, cin) + _nt(size, nd), dtype, 3)
    w = _data((cin, cout // groups) + _nt(k, nd), dtype, 4)
    b = _data((cout,), dtype, 5) if bias else None
    got = _fn("t", nd)(garray.asarray(x), garray.asarray(w),
                       None if b is None else garray.asarray(b), s, p, op, groups, d,
                       algorithm=algo)
    _close(got, ref.conv_transpose_nd(x, w, b, s, p, op, groups, d), dtype)


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("nd", [1, 2, 3])
def test_adjoint_identity(nd, algo):
    """<conv(x, w), dy> == <x, backward_input(dy)> == <w, backward_weight(x, dy)>."""
    _skip_vendor(algo)
    rng = numpy.random.default_rng(nd)
    x = rng.standard_normal((2, 4) + (6,) * nd)
    w = rng.standard_normal((6, 2) + (3,) * nd)
    s, p, d, groups = 2, 1, 1, 2
    y = ref.conv_nd(x, w, None, s, p, p, d, groups)
    dy = rng.standard_normal(y.shape)
    dx = _fn("i", nd)(x.shape, garray.asarray(w), garray.asarray(dy), s, p, d, groups,
                      algorithm=algo).get()
    dw = _fn("w", nd)(garray.asarray(x), w.shape, garray.asarray(dy), s, p, d, groups,
                      algorithm=algo).get()
    a = float((y * dy).sum())
    assert abs(a - float((x * dx).sum())) <= 1e-10 * (1 + abs(a))
    assert abs(a - float((w * dw).sum())) <= 1e-10 * (1 + abs(a))


@pytest.mark.parametrize("algo", ALGOS)
def test_finite_differences(algo):
    """Central differences of L(x, w) = <conv(x, w), dy> (float64, tiny sizes)."""
    _skip_vendor(algo)
    rng = numpy.random.default_rng(11)
    x = rng.standard_normal((1, 2, 4, 5))
    w = rng.standard_normal((3, 2, 2, 3))
    kw = dict(stride=(1, 2), padding=(1, 0), dilation=(2, 1))
    dy = rng.standard_normal(ref.conv_nd(x, w, None, (1, 2), (1, 0), (1, 0), (2, 1)).shape)

    def loss(xv, wv):
        return float((ref.conv_nd(xv, wv, None, (1, 2), (1, 0), (1, 0), (2, 1)) * dy).sum())
    dx = nn.conv2d_backward_input(x.shape, garray.asarray(w), garray.asarray(dy), **kw,
                                  algorithm=algo).get()
    dw = nn.conv2d_backward_weight(garray.asarray(x), w.shape, garray.asarray(dy), **kw,
                                   algorithm=algo).get()
    eps = 1e-4
    for idx in [(0, 0, 0, 0), (0, 1, 2, 3), (0, 1, 3, 4), (0, 0, 1, 2)]:
        e = numpy.zeros_like(x)
        e[idx] = eps
        fd = (loss(x + e, w) - loss(x - e, w)) / (2 * eps)
        assert abs(fd - dx[idx]) < 1e-7, (idx, fd, dx[idx])
    for idx in [(0, 0, 0, 0), (2, 1, 1, 2), (1, 0, 1, 1)]:
        e = numpy.zeros_like(w)
        e[idx] = eps
        fd = (loss(x, w + e) - loss(x, w - e)) / (2 * eps)
        assert abs(fd - dw[idx]) < 1e-7, (idx, fd, dw[idx])


def test_reference_self_test():
    assert ref.grad_self_test()


@pytest.mark.parametrize("algo", ALGOS)
def test_non_contiguous_operands(algo):
    """Negative-stride, offset and transposed views give the contiguous results."""
    _skip_vendor(algo)
    dtype = "float64"
    x = _data((2, 3, 7, 8), dtype, 20)
    w = _data((4, 3, 3, 2), dtype, 21)
    gx = garray.asarray(numpy.ascontiguousarray(x[:, :, ::-1, :]))[:, :, ::-1, :]
    gw = garray.asarray(numpy.ascontiguousarray(w.transpose(0, 1, 3, 2))).transpose(0, 1, 3, 2)
    y = ref.conv_nd(x, w, None, 2, 1, 1, 1, 1)
    dy = _data(y.shape, dtype, 22)
    big = garray.asarray(numpy.zeros((y.shape[0], y.shape[1], y.shape[2] + 1, 2 * y.shape[3])))
    big[:, :, 1:, ::2] = garray.asarray(dy)
    gdy = big[:, :, 1:, ::2]
    assert not gdy.flags.c_contiguous and not gx.flags.c_contiguous
    _close(nn.conv2d_backward_input(x.shape, gw, gdy, 2, 1, algorithm=algo),
           ref.conv_backward_input_nd(dy, w, x.shape, 2, 1, 1, 1, 1), dtype)
    _close(nn.conv2d_backward_weight(gx, w.shape, gdy, 2, 1, algorithm=algo),
           ref.conv_backward_weight_nd(x, dy, w.shape, 2, 1, 1, 1, 1), dtype)
    wt = _data((3, 2, 2, 2), dtype, 23)
    gwt = garray.asarray(numpy.ascontiguousarray(wt[::-1]))[::-1]
    _close(nn.conv_transpose2d(gx, gwt, None, 2, 1, 1, algorithm=algo),
           ref.conv_transpose_nd(x, wt, None, 2, 1, 1), dtype)


@pytest.mark.parametrize("algo", ALGOS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_empty_batch(dtype, algo):
    _skip_vendor(algo, dtype)
    x = garray.zeros((0, 2, 5, 5), dtype=dtype)
    w = garray.asarray(_data((3, 2, 3, 3), dtype, 1))
    dy = garray.zeros((0, 3, 3, 3), dtype=dtype)
    dx = nn.conv2d_backward_input((0, 2, 5, 5), w, dy, algorithm=algo)
    assert dx.shape == (0, 2, 5, 5) and dx.dtype == dtype
    dw = nn.conv2d_backward_weight(x, (3, 2, 3, 3), dy, algorithm=algo)
    assert_xp_close(dw, numpy.zeros((3, 2, 3, 3), dtype=dtype))
    wt = garray.asarray(_data((2, 3, 3, 3), dtype, 2))
    y = nn.conv_transpose2d(x, wt, garray.ones((3,), dtype=dtype), stride=2, algorithm=algo)
    assert y.shape == (0, 3, 11, 11) and y.dtype == dtype
    assert_xp_close(nn.conv_backward_bias(dy), numpy.zeros((3,), dtype=dtype))


@pytest.mark.parametrize("algo", ALGOS)
def test_one_element_sizes(algo):
    _skip_vendor(algo)
    dtype = "float64"
    x = _data((1, 1, 1), dtype, 30)
    w = _data((1, 1, 1), dtype, 31)
    dy = _data((1, 1, 1), dtype, 32)
    _close(nn.conv1d_backward_input((1, 1, 1), garray.asarray(w), garray.asarray(dy),
                                    algorithm=algo), dy * w, dtype)
    _close(nn.conv1d_backward_weight(garray.asarray(x), (1, 1, 1), garray.asarray(dy),
                                     algorithm=algo), x * dy, dtype)
    _close(nn.conv_transpose1d(garray.asarray(x), garray.asarray(w), algorithm=algo),
           x * w, dtype)


@pytest.mark.parametrize("algo", ALGOS)
def test_large_strides_and_dilations(algo):
    _skip_vendor(algo)
    dtype = "float64"
    case = (2, 1, 2, 3, (13, 40), (2, 3), (5, 17), (2, 9), (9, 13), 1, 0)
    nd, _, _, _, _, _, s, p, d, groups, _ = case
    x, w, dy = _forward_setup(case, dtype, 40)
    _close(nn.conv2d_backward_input(x.shape, garray.asarray(w), garray.asarray(dy), s, p, d,
                                    algorithm=algo),
           ref.conv_backward_input_nd(dy, w, x.shape, s, p, p, d, groups), dtype)
    _close(nn.conv2d_backward_weight(garray.asarray(x), w.shape, garray.asarray(dy), s, p, d,
                                     algorithm=algo),
           ref.conv_backward_weight_nd(x, dy, w.shape, s, p, p, d, groups), dtype)
    xt = _data((1, 2, 3, 2), dtype, 41)
    wt = _data((2, 1, 2, 3), dtype, 42)
    _close(nn.conv_transpose2d(garray.asarray(xt), garray.asarray(wt), None, (7, 11), (1, 2),
                               (6, 10), 1, (3, 4), algorithm=algo),
           ref.conv_transpose_nd(xt, wt, None, (7, 11), (1, 2), (6, 10), 1, (3, 4)), dtype)


@pytest.mark.parametrize("per", [None, 1])
def test_big_kernel_extent(per):
    """Kernel axes longer than the data kernel's per-axis tap table (16) take its slow
    path, and W axes longer than the weight kernel's tap block (8) several blocks, with
    the same values."""
    dtype = "float64"
    old = _conv_grad._debug_shape(per, None)
    try:
        case = (1, 2, 2, 2, 40, 20, 2, 3, 1, 1, 0)
        x, w, dy = _forward_setup(case, dtype, 50)
        _close(nn.conv1d_backward_input(x.shape, garray.asarray(w), garray.asarray(dy), 2, 3,
                                        algorithm="kernel"),
               ref.conv_backward_input_nd(dy, w, x.shape, 2, 3, 3), dtype)
        _close(nn.conv1d_backward_weight(garray.asarray(x), w.shape, garray.asarray(dy), 2, 3,
                                         algorithm="kernel"),
               ref.conv_backward_weight_nd(x, dy, w.shape, 2, 3, 3), dtype)
        case = (2, 1, 2, 2, (30, 12), (17, 11), (2, 1), (1, 4), (1, 1), 2, 0)
        nd, _, _, _, _, _, s, p, d, groups, _ = case
        x, w, dy = _forward_setup(case, dtype, 51)
        _close(nn.conv2d_backward_input(x.shape, garray.asarray(w), garray.asarray(dy), s, p,
                                        d, groups, algorithm="kernel"),
               ref.conv_backward_input_nd(dy, w, x.shape, s, p, p, d, groups), dtype)
        _close(nn.conv2d_backward_weight(garray.asarray(x), w.shape, garray.asarray(dy), s, p,
                                         d, groups, algorithm="kernel"),
               ref.conv_backward_weight_nd(x, dy, w.shape, s, p, p, d, groups), dtype)
    finally:
        _conv_grad._debug_shape(*old)


def test_auto_takes_the_kernel_for_depthwise(monkeypatch):
    if garray.default_device().kind != "cpu":
        pytest.skip("the CPU device's choice")
    monkeypatch.delenv("GARRAY_CONV", raising=False)
    g = nn._params.conv_geometry("f", 2, (1, 8, 5, 5), (8, 1, 3, 3), groups=8)
    dev, f64 = garray.default_device(), numpy.dtype("float64")
    assert _conv_grad._path("f", None, dev, f64, g) == "kernel"
    assert _conv_grad._path("f", "vendor", dev, f64, g) == "vendor"
    g = nn._params.conv_geometry("f", 2, (1, 8, 5, 5), (8, 4, 3, 3), groups=2)
    assert _conv_grad._path("f", None, dev, f64, g) == "vendor"


def test_same_and_valid_padding():
    dtype = "float64"
    x = _data((1, 2, 7, 6), dtype, 60)
    w = _data((2, 2, 4, 3), dtype, 61)
    lo, hi = ref.same_padding((4, 3), (1, 2))
    y = ref.conv_nd(x, w, None, 1, lo, hi, (1, 2))
    dy = _data(y.shape, dtype, 62)
    for algo in ALGOS:
        _skip_vendor(algo)
        if algo == "vendor" and garray.default_device().kind != "cpu":
            # cuDNN/MIOpen take one padding per axis: the forced vendor refuses by name
            with pytest.raises(NotImplementedError, match="padding"):
                nn.conv2d_backward_input(x.shape, garray.asarray(w), garray.asarray(dy), 1,
                                         "same", (1, 2), algorithm=algo)
            # and 'auto' takes the kernel
            _close(nn.conv2d_backward_input(x.shape, garray.asarray(w), garray.asarray(dy),
                                            1, "same", (1, 2), algorithm="auto"),
                   ref.conv_backward_input_nd(dy, w, x.shape, 1, lo, hi, (1, 2)), dtype)
            continue
        _close(nn.conv2d_backward_input(x.shape, garray.asarray(w), garray.asarray(dy), 1,
                                        "same", (1, 2), algorithm=algo),
               ref.conv_backward_input_nd(dy, w, x.shape, 1, lo, hi, (1, 2)), dtype)
        _close(nn.conv2d_backward_weight(garray.asarray(x), w.shape, garray.asarray(dy), 1,
                                         "same", (1, 2), algorithm=algo),
               ref.conv_backward_weight_nd(x, dy, w.shape, 1, lo, hi, (1, 2)), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_launch_shape_does_not_change_values(dtype):
    """Elements per thread and the weight gradient's chunks change no value's terms
    beyond the chunked sum's grouping."""
    case = (2, 3, 2, 4, (6, 5), 3, 1, 1, 1, 2, 0)
    nd, _, _, _, _, _, s, p, d, groups, _ = case
    x, w, dy = _forward_setup(case, dtype, 70)
    gx, gw, gdy = garray.asarray(x), garray.asarray(w), garray.asarray(dy)
    base_i = nn.conv2d_backward_input(x.shape, gw, gdy, s, p, d, groups, algorithm="kernel")
    base_w = nn.conv2d_backward_weight(gx, w.shape, gdy, s, p, d, groups, algorithm="kernel")
    for per, length in ((1, 1), (3, 7), (1000, 4)):
        old = _conv_grad._debug_shape(per, length)
        try:
            got_i = nn.conv2d_backward_input(x.shape, gw, gdy, s, p, d, groups,
                                             algorithm="kernel")
            got_w = nn.conv2d_backward_weight(gx, w.shape, gdy, s, p, d, groups,
                                              algorithm="kernel")
        finally:
            _conv_grad._debug_shape(*old)
        assert_xp_close(got_i, base_i.get(), rtol=0, atol=0)
        _close(got_w, base_w.get(), dtype)
    _close(base_w, ref.conv_backward_weight_nd(x, dy, w.shape, s, p, p, d, groups), dtype)


def test_gemm_lowering_batch_chunks(monkeypatch):
    """The CPU device's GEMM lowering splits the batch when the column matrix is big."""
    if garray.default_device().kind != "cpu":
        pytest.skip("the GEMM lowering is the CPU device's vendor path")
    monkeypatch.setattr(_conv_grad, "_COL_BYTES", 1000)
    dtype = "float64"
    case = (2, 5, 4, 2, (5, 6), 3, 1, 1, 1, 2, 0)
    nd, _, _, _, _, _, s, p, d, groups, _ = case
    x, w, dy = _forward_setup(case, dtype, 80)
    _close(nn.conv2d_backward_input(x.shape, garray.asarray(w), garray.asarray(dy), s, p, d,
                                    groups, algorithm="vendor"),
           ref.conv_backward_input_nd(dy, w, x.shape, s, p, p, d, groups), dtype)
    _close(nn.conv2d_backward_weight(garray.asarray(x), w.shape, garray.asarray(dy), s, p, d,
                                     groups, algorithm="vendor"),
           ref.conv_backward_weight_nd(x, dy, w.shape, s, p, p, d, groups), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("nd", [1, 2, 3])
def test_backward_bias(nd, dtype):
    dy = _data((3, 4) + (3,) * nd, dtype, 90)
    got = nn.conv_backward_bias(garray.asarray(dy))
    _close(got, dy.astype("float64").sum(axis=(0,) + tuple(range(2, 2 + nd))), dtype)


# ---- errors -------------------------------------------------------------------------

def _ops(dtype="float64"):
    return (garray.asarray(_data((2, 4, 6, 6), dtype, 1)),
            garray.asarray(_data((6, 2, 3, 3), dtype, 2)),
            garray.asarray(_data((2, 6, 4, 4), dtype, 3)))


def test_error_output_padding_too_large():
    x = garray.asarray(_data((1, 2, 4), "float64", 1))
    w = garray.asarray(_data((2, 3, 3), "float64", 2))
    with pytest.raises(ValueError, match="conv_transpose1d.*output_padding"):
        nn.conv_transpose1d(x, w, stride=2, output_padding=2)
    with pytest.raises(ValueError, match="output_padding"):
        nn.conv_transpose1d(x, w, stride=1, output_padding=1)
    nn.conv_transpose1d(x, w, stride=1, dilation=2, output_padding=1)   # allowed: < dilation


def test_error_shape_mismatch():
    x, w, dy = _ops()
    with pytest.raises(ValueError, match=r"conv2d_backward_input.*\(2, 6, 4, 4\).*\(2, 6, 3, 3\)"):
        nn.conv2d_backward_input((2, 4, 5, 5), w, dy, groups=2)
    with pytest.raises(ValueError, match=r"conv2d_backward_weight.*grad_output.*\(2, 6, 4, 4\)"):
        nn.conv2d_backward_weight(x, (6, 2, 2, 2), dy, groups=2)
    with pytest.raises(ValueError, match="conv2d_backward_input"):
        nn.conv2d_backward_input((2, 4, 6, 6), w, dy)        # groups=1: weight wants 2 ch
    with pytest.raises(ValueError, match="conv2d_backward_weight.*dimensions"):
        nn.conv2d_backward_weight(x, (6, 2, 3), dy, groups=2)
    with pytest.raises(ValueError, match=r"conv_transpose2d: weight shape \(6, 2, 3, 3\)"):
        nn.conv_transpose2d(x, w)                  # weight (C_in=6, ...) but x has 4
    wt = garray.asarray(_data((6, 2, 3, 3), "float64", 4))
    with pytest.raises(ValueError, match=r"conv_transpose2d: bias must have shape \(4,\)"):
        nn.conv_transpose2d(dy, wt, garray.zeros((5,)), groups=2)
    with pytest.raises(ValueError, match="conv_transpose3d.*input"):
        nn.conv_transpose3d(dy[0], wt)
    with pytest.raises(ValueError, match="conv_backward_bias.*shape"):
        nn.conv_backward_bias(garray.zeros((2, 3)))


def test_error_dtypes_and_types():
    x, w, dy = _ops()
    with pytest.raises(TypeError, match="conv2d_backward_input.*int64"):
        nn.conv2d_backward_input((2, 4, 6, 6), garray.zeros((6, 2, 3, 3), dtype="int64"),
                                 garray.zeros((2, 6, 4, 4), dtype="int64"), groups=2)
    with pytest.raises(ValueError, match="conv2d_backward_weight.*float32.*float64|"
                                         "conv2d_backward_weight.*float64.*float32"):
        nn.conv2d_backward_weight(x.astype("float32"), (6, 2, 3, 3), dy, groups=2)
    with pytest.raises(TypeError, match="conv2d_backward_weight: input: expected a garray.ndarray.*garray.asarray"):
        nn.conv2d_backward_weight(x.get(), (6, 2, 3, 3), dy, groups=2)
    with pytest.raises(TypeError, match="conv_transpose2d: weight: expected a garray.ndarray.*garray.asarray"):
        nn.conv_transpose2d(dy, w.get())
    with pytest.raises(ValueError, match="algorithm"):
        nn.conv2d_backward_input((2, 4, 6, 6), w, dy, groups=2, algorithm="fast")
    with pytest.raises(TypeError, match="conv_backward_bias"):
        nn.conv_backward_bias(garray.zeros((2, 3, 4), dtype="int32"))
    with pytest.raises(ValueError, match="stride"):
        nn.conv2d_backward_input((2, 4, 6, 6), w, dy, stride=0, groups=2)


def test_public_names_documented():
    for name in _conv_grad.__all__:
        f = getattr(nn, name)
        assert f.__doc__ and "Parameters" in f.__doc__ and "Raises" in f.__doc__, name


def test_error_bias_operand():
    x = garray.asarray(_data((1, 2, 4), "float64", 1))
    w = garray.asarray(_data((2, 3, 3), "float64", 2))
    with pytest.raises(ValueError, match="conv_transpose1d: bias has dtype float32"):
        nn.conv_transpose1d(x, w, garray.zeros((3,), dtype="float32"))
    with pytest.raises(TypeError, match="conv_transpose1d: bias: expected a garray.ndarray.*garray.asarray"):
        nn.conv_transpose1d(x, w, numpy.zeros(3))
    with pytest.raises(ValueError, match=r"bias must have shape \(3,\)"):
        nn.conv_transpose1d(x, w, garray.zeros((1, 3)))


def test_garray_conv_environment(monkeypatch):
    """GARRAY_CONV picks the path when algorithm is None; a bad value is a ValueError
    naming the variable."""
    case = (2, 2, 4, 4, (5, 6), 3, 2, 1, 1, 2, 1)
    nd, _, _, _, _, _, s, p, d, groups, op = case
    x = _data((2, 4, 5, 6), "float64", 7)
    w = _data((4, 2, 3, 3), "float64", 8)
    b = _data((4,), "float64", 9)
    expected = ref.conv_transpose_nd(x, w, b, s, p, op, groups, d)
    for value in ("kernel", "vendor", "auto"):
        if value == "vendor":
            _skip_vendor(value)
        monkeypatch.setenv("GARRAY_CONV", value)
        _close(nn.conv_transpose2d(garray.asarray(x), garray.asarray(w), garray.asarray(b),
                                   s, p, op, groups, d), expected, "float64")
    monkeypatch.setenv("GARRAY_CONV", "fastest")
    with pytest.raises(ValueError, match="GARRAY_CONV"):
        nn.conv_transpose2d(garray.asarray(x), garray.asarray(w), None, s, p, op, groups, d)


def test_vendor_refusals():
    """On a GPU whose DNN library lacks a dtype, the forced vendor path raises
    NotImplementedError naming it, and 'auto' takes the kernel."""
    dev = garray.default_device()
    if dev.kind == "cpu":
        pytest.skip("GPU vendor libraries only")
    try:
        from garray._vendor import dnn
    except ImportError:
        pytest.skip("garray._vendor.dnn is not there")
    if not dnn.available(dev.kind)[0] or dnn.supports(dev.kind, numpy.dtype("float64"), "conv"):
        pytest.skip("the library computes float64 (or is missing)")
    x, w, dy = _forward_setup(CASES[0], "float64", 3)
    with pytest.raises(NotImplementedError, match="float64"):
        nn.conv1d_backward_input(x.shape, garray.asarray(w), garray.asarray(dy),
                                 algorithm="vendor")
    _close(nn.conv1d_backward_weight(garray.asarray(x), w.shape, garray.asarray(dy),
                                     algorithm="auto"),
           ref.conv_backward_weight_nd(x, dy, w.shape), "float64")
