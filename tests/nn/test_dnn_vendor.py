"""The GPU devices' vendor DNN path (garray/_vendor/dnn.py: cuDNN, MIOpen) against NumPy.

Every function of the contract (Note [Vendor DNN]) is compared with a small NumPy
reference below, written from Note [Convolution geometry]: output element ``o`` reads
input ``o * stride - pad_lo + t * dilation`` for kernel tap ``t``.  These run on GPU
devices (GARRAY_DEVICE=cuda|hip: the stub cuDNN/MIOpen in CI); on the CPU device only the
library-search, table and argument tests run.
"""

import ctypes
import itertools
import threading

import numpy
import pytest

import garray
from garray._vendor import dnn
from garray.nn._params import conv_geometry, transposed_geometry
from isolated import run_isolated
from xp import assert_xp_close, sample

DEV = garray.default_device()
GPU = DEV.kind in ("cuda", "hip")
gpu_only = pytest.mark.skipif(
    not GPU, reason=f"the vendor DNN libraries of GPU devices; the default device is {DEV} "
                    f"(GARRAY_DEVICE=cuda or hip runs these)")
# The vendors' own names, not dnn's tables.
PACKAGES = {"cuda": ("nvidia-cudnn-cu13", "GARRAY_CUDNN_LIBRARY"),
            "hip": ("MIOpen", "GARRAY_MIOPEN_LIBRARY")}
# MIOpen computes float32 only: float64 on hip is the NotImplementedError test below
DTYPES = ("float32",) if DEV.kind == "hip" else ("float32", "float64")


# ---- NumPy references -------------------------------------------------------------


def _taps(g):
    return itertools.product(*(range(k) for k in g.kernel))


def _window(g, t):
    """The slice of the padded input that kernel tap ``t`` reads for all outputs."""
    return tuple(slice(ti * d, ti * d + (o - 1) * s + 1, s)
                 for ti, d, o, s in zip(t, g.dilation, g.out, g.stride))


def _padded_shape(g):
    return tuple(s + lo + max(hi, 0) for s, lo, hi in zip(g.size, g.pad_lo, g.pad_hi))


def ref_forward(x, w, g):
    xp = numpy.zeros((g.n, g.c_in) + _padded_shape(g), dtype=numpy.float64)
    xp[(slice(None), slice(None)) + tuple(slice(lo, lo + s) for lo, s in
                                          zip(g.pad_lo, g.size))] = x
    y = numpy.zeros(g.output_shape)
    cg, kg = g.c_in // g.groups, g.c_out // g.groups
    for gi in range(g.groups):
        for t in _taps(g):
            win = xp[(slice(None), slice(gi * cg, (gi + 1) * cg)) + _window(g, t)]
            wt = w[(slice(gi * kg, (gi + 1) * kg), slice(None)) + t]
            y[:, gi * kg:(gi + 1) * kg] += numpy.tensordot(wt, win, axes=([1], [1])).swapaxes(0, 1)
    return y


def ref_backward_data(dy, w, g):
    dxp = numpy.zeros((g.n, g.c_in) + _padded_shape(g))
    cg, kg = g.c_in // g.groups, g.c_out // g.groups
    for gi in range(g.groups):
        for t in _taps(g):
            wt = w[(slice(gi * kg, (gi + 1) * kg), slice(None)) + t]       # (kg, cg)
            part = numpy.tensordot(dy[:, gi * kg:(gi + 1) * kg], wt, axes=([1], [0]))
            dxp[(slice(None), slice(gi * cg, (gi + 1) * cg)) + _window(g, t)] += \
                numpy.moveaxis(part, -1, 1)
    return dxp[(slice(None), slice(None)) + tuple(slice(lo, lo + s) for lo, s in
                                                  zip(g.pad_lo, g.size))]


def ref_backward_filter(x, dy, g):
    xp = numpy.zeros((g.n, g.c_in) + _padded_shape(g))
    xp[(slice(None), slice(None)) + tuple(slice(lo, lo + s) for lo, s in
                                          zip(g.pad_lo, g.size))] = x
    dw = numpy.zeros(g.weight_shape)
    cg, kg = g.c_in // g.groups, g.c_out // g.groups
    sp = tuple(range(2, 2 + g.nd))
    for gi in range(g.groups):
        for t in _taps(g):
            win = xp[(slice(None), slice(gi * cg, (gi + 1) * cg)) + _window(g, t)]
            d = dy[:, gi * kg:(gi + 1) * kg]
            dw[(slice(gi * kg, (gi + 1) * kg), slice(None)) + t] = numpy.tensordot(
                d, win, axes=((0,) + sp, (0,) + sp))
    return dw


def ref_pool(x, mode, kernel, stride, pad):
    nd = len(kernel)
    width = [(0, 0), (0, 0)] + [(p, p) for p in pad]
    fill = -numpy.inf if mode == "max" else 0.0
    xp = numpy.pad(x.astype(numpy.float64), width, constant_values=fill)
    ones = numpy.pad(numpy.ones(x.shape[2:]), width[2:])
    out = tuple((s + 2 * p - k) // st + 1 for s, p, k, st in zip(x.shape[2:], pad, kernel, stride))
    y = numpy.full(x.shape[:2] + out, fill)
    count = numpy.zeros(out)
    for t in itertools.product(*(range(k) for k in kernel)):
        win = tuple(slice(ti, ti + (o - 1) * st + 1, st) for ti, o, st in zip(t, out, stride))
        v = xp[(slice(None), slice(None)) + win]
        y = numpy.maximum(y, v) if mode == "max" else y + v
        count += ones[win]
    if mode == "avg_include_pad":
        y = y / numpy.prod(kernel)
    elif mode == "avg_exclude_pad":
        y = y / count
    assert y.ndim == nd + 2
    return y


# ---- cases --------------------------------------------------------------------------

# (id, nd, input shape, weight shape, keyword arguments of conv_geometry)
CONV_CASES = [
    ("1d", 1, (2, 3, 9), (4, 3, 3), dict(stride=2, padding=1)),
    ("1d-dilated-groups", 1, (1, 4, 11), (6, 2, 3), dict(dilation=3, groups=2)),
    ("1d-large-stride-dilation", 1, (2, 2, 40), (3, 2, 3), dict(stride=7, dilation=9,
                                                                 padding=4)),
    ("2d", 2, (2, 3, 6, 5), (4, 3, 3, 2), dict(padding=(1, 0))),
    ("2d-stride-dilation", 2, (1, 2, 9, 8), (3, 2, 2, 3), dict(stride=(2, 3), dilation=(2, 1),
                                                             padding=2)),
    ("2d-depthwise", 2, (2, 4, 5, 5), (4, 1, 3, 3), dict(padding="same", groups=4)),
    ("2d-1x1", 2, (1, 1, 1, 1), (1, 1, 1, 1), {}),
    ("3d", 3, (1, 2, 4, 5, 3), (3, 2, 2, 3, 2), dict(padding=(1, 0, 1), stride=(1, 2, 1))),
    ("3d-groups", 3, (2, 4, 3, 4, 4), (2, 2, 1, 2, 3), dict(groups=2, dilation=(1, 2, 1))),
]


def _geometry(case):
    _, nd, ishape, wshape, kw = case
    return conv_geometry("test", nd, ishape, wshape, **kw)


def _operands(g, dtype):
    x = sample(g.input_shape, dtype, start=1)
    w = sample(g.weight_shape, dtype, start=2)
    dy = sample(g.output_shape, dtype, start=3)
    return x, w, dy


def _tol(dtype):
    return dict(rtol=1e-5, atol=1e-5) if numpy.dtype(dtype) == numpy.float32 else {}


def _nan(shape, dtype):
    """An output full of NaN: beta = 0 must not read it."""
    return garray.full(shape, numpy.nan, dtype=dtype, device=DEV)


@gpu_only
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CONV_CASES, ids=[c[0] for c in CONV_CASES])
def test_conv_forward(case, dtype):
    g = _geometry(case)
    x, w, _ = _operands(g, dtype)
    y = _nan(g.output_shape, dtype)
    dnn.conv_forward(garray.asarray(x, device=DEV), garray.asarray(w, device=DEV), y, g)
    assert_xp_close(y, ref_forward(x, w, g).astype(dtype), **_tol(dtype))


@gpu_only
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CONV_CASES, ids=[c[0] for c in CONV_CASES])
def test_conv_backward_data(case, dtype):
    g = _geometry(case)
    _, w, dy = _operands(g, dtype)
    dx = _nan(g.input_shape, dtype)
    dnn.conv_backward_data(garray.asarray(dy, device=DEV), garray.asarray(w, device=DEV), dx, g)
    assert_xp_close(dx, ref_backward_data(dy, w, g).astype(dtype), **_tol(dtype))


@gpu_only
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CONV_CASES, ids=[c[0] for c in CONV_CASES])
def test_conv_backward_filter(case, dtype):
    g = _geometry(case)
    x, _, dy = _operands(g, dtype)
    dw = _nan(g.weight_shape, dtype)
    dnn.conv_backward_filter(garray.asarray(x, device=DEV), garray.asarray(dy, device=DEV), dw, g)
    assert_xp_close(dw, ref_backward_filter(x, dy, g).astype(dtype), **_tol(dtype))


@gpu_only
@pytest.mark.parametrize("opad", [1, (1, 0)])
def test_transposed_output_padding_is_backward_data(opad):
    """A transposed convolution with output_padding: pad_hi = pad_lo - output_padding;
    the vendor computes dx of the descriptor's (larger) size exactly."""
    g = transposed_geometry("test", 2, (2, 4, 3, 4), (4, 3, 3, 2), stride=2, padding=1,
                            output_padding=opad)
    assert g.pad_hi != g.pad_lo and dnn.supports_geometry(DEV.kind, g)
    _, w, dy = _operands(g, "float32")
    dx = _nan(g.input_shape, "float32")
    dnn.conv_backward_data(garray.asarray(dy, device=DEV), garray.asarray(w, device=DEV), dx, g)
    assert_xp_close(dx, ref_backward_data(dy, w, g).astype("float32"), **_tol("float32"))


def test_output_padding_of_a_stride_or_more_is_not_expressible():
    """output_padding may reach the stride when the dilation is larger; the vendor's
    output for symmetric pad_lo is then longer than the geometry's."""
    g = transposed_geometry("test", 1, (1, 2, 5), (2, 1, 3), stride=1, padding=1,
                            output_padding=1, dilation=2)
    assert not dnn.supports_geometry("cuda", g) and not dnn.supports_geometry("hip", g)
    if GPU:
        dy, w, dx = (garray.zeros(s, dtype="float32", device=DEV)
                     for s in (g.output_shape, g.weight_shape, g.input_shape))
        with pytest.raises(NotImplementedError, match="conv_backward_data: .*asymmetric"):
            dnn.conv_backward_data(dy, w, dx, g)


def test_same_padding_with_an_even_kernel_is_not_expressible():
    g = conv_geometry("test", 2, (1, 2, 5, 5), (3, 2, 2, 3), padding="same")
    assert g.pad_hi != g.pad_lo
    assert not dnn.supports_geometry("cuda", g) and not dnn.supports_geometry("hip", g)
    odd = conv_geometry("t", 1, (1, 1, 4), (1, 1, 3), padding="same")
    assert dnn.supports_geometry("cuda", odd)
    if GPU:
        x = garray.zeros(g.input_shape, dtype="float32", device=DEV)
        w = garray.zeros(g.weight_shape, dtype="float32", device=DEV)
        y = garray.zeros(g.output_shape, dtype="float32", device=DEV)
        with pytest.raises(NotImplementedError, match="conv_forward: .*asymmetric padding"):
            dnn.conv_forward(x, w, y, g)


@gpu_only
def test_auto_takes_the_kernel_path_for_what_the_vendor_cannot_express():
    """resolve_algorithm(..., g=g) under 'auto' asks supports_geometry."""
    from garray.nn._params import resolve_algorithm
    same_even = conv_geometry("test", 2, (1, 2, 5, 5), (3, 2, 2, 2), padding="same")
    plain = conv_geometry("test", 2, (1, 2, 5, 5), (3, 2, 3, 3), padding="same")
    f32 = numpy.dtype("float32")
    assert resolve_algorithm("t", "auto", DEV, f32, "conv", g=same_even) == "kernel"
    assert resolve_algorithm("t", "auto", DEV, f32, "conv", g=plain) == "vendor"
    assert resolve_algorithm("t", "auto", DEV, f32, "conv") == "vendor"
    assert resolve_algorithm("t", "vendor", DEV, f32, "conv", g=same_even) == "vendor"


@gpu_only
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 5), (3, 2, 4, 3), (1, 2, 2, 3, 2)])
def test_conv_backward_bias(shape, dtype):
    dy = sample(shape, dtype, start=4)
    db = _nan((shape[1],), dtype)
    dnn.conv_backward_bias(garray.asarray(dy, device=DEV), db)
    axes = (0,) + tuple(range(2, len(shape)))
    assert_xp_close(db, dy.astype(numpy.float64).sum(axis=axes).astype(dtype), **_tol(dtype))


POOL_CASES = [
    ("1d", (2, 3, 9), (3,), (2,), (1,)),
    ("2d", (2, 3, 6, 7), (2, 3), (2, 2), (0, 1)),
    ("2d-overlap", (1, 2, 5, 5), (3, 3), (1, 1), (1, 1)),
    ("3d", (1, 2, 4, 5, 4), (2, 2, 3), (2, 1, 2), (1, 0, 1)),
]


@gpu_only
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", dnn.POOL_MODES)
@pytest.mark.parametrize("case", POOL_CASES, ids=[c[0] for c in POOL_CASES])
def test_pool_forward(case, mode, dtype):
    _, shape, kernel, stride, pad = case
    x = sample(shape, dtype, start=5)
    want = ref_pool(x, mode, kernel, stride, pad)
    y = _nan(want.shape, dtype)
    dnn.pool_forward(garray.asarray(x, device=DEV), y, mode, kernel, stride, pad, pad)
    assert_xp_close(y, want.astype(dtype), **_tol(dtype))


@gpu_only
def test_max_pool_propagates_nan_on_cudnn():
    if DEV.kind != "cuda":
        pytest.skip("MIOpen has no NaN-propagation option")
    x = sample((1, 1, 4, 4), "float32")
    x[0, 0, 1, 2] = numpy.nan
    y = garray.zeros((1, 1, 2, 2), dtype="float32", device=DEV)
    dnn.pool_forward(garray.asarray(x, device=DEV), y, "max", (2, 2), (2, 2), (0, 0), (0, 0))
    assert_xp_close(y, ref_pool(x, "max", (2, 2), (2, 2), (0, 0)).astype("float32"))


# ---- empty operands, dtypes ----------------------------------------------------------


@gpu_only
def test_empty_batch():
    """N = 0: forward and backward data have empty outputs; the filter and bias
    gradients are zeros (nothing summed), written over NaN."""
    g = conv_geometry("test", 2, (0, 2, 4, 4), (3, 2, 2, 2), padding=1)
    x = garray.zeros(g.input_shape, dtype="float32", device=DEV)
    w = garray.asarray(sample(g.weight_shape, "float32"), device=DEV)
    y = garray.zeros(g.output_shape, dtype="float32", device=DEV)
    dnn.conv_forward(x, w, y, g)
    dnn.conv_backward_data(y, w, x, g)
    dw = _nan(g.weight_shape, "float32")
    dnn.conv_backward_filter(x, y, dw, g)
    assert_xp_close(dw, numpy.zeros(g.weight_shape, "float32"))
    db = _nan((3,), "float32")
    dnn.conv_backward_bias(y, db)
    assert_xp_close(db, numpy.zeros(3, "float32"))
    p = garray.zeros((0, 2, 2, 2), dtype="float32", device=DEV)
    dnn.pool_forward(x, p, "max", (2, 2), (2, 2), (0, 0), (0, 0))


@gpu_only
def test_no_input_channels_gives_zeros():
    g = conv_geometry("test", 1, (2, 0, 5), (3, 0, 2))
    y = _nan(g.output_shape, "float32")
    dnn.conv_forward(garray.zeros(g.input_shape, dtype="float32", device=DEV),
                     garray.zeros(g.weight_shape, dtype="float32", device=DEV), y, g)
    assert_xp_close(y, numpy.zeros(g.output_shape, "float32"))


def test_supports_table():
    for op in ("conv", "pool"):
        assert dnn.supports("cuda", "float32", op) and dnn.supports("cuda", numpy.float64, op)
        assert dnn.supports("hip", "float32", op) and not dnn.supports("hip", "float64", op)
        for kind in ("cuda", "hip"):
            assert not dnn.supports(kind, "float16", op) and not dnn.supports(kind, "int32", op)
    assert not dnn.supports("cpu", "float32") and not dnn.supports("cuda", "float32", "lstm")
    assert dnn.supports("cuda", "not a dtype") is False      # never raises


@gpu_only
@pytest.mark.parametrize("dtype", ["float64", "int32", "complex64"])
def test_unsupported_dtype_names_library_and_dtype(dtype):
    if dtype == "float64" and DEV.kind == "cuda":
        pytest.skip("cuDNN computes float64")
    name = "cuDNN" if DEV.kind == "cuda" else "MIOpen"
    g = conv_geometry("test", 2, (1, 1, 3, 3), (1, 1, 2, 2))
    x, w, y = (garray.zeros(s, dtype=dtype, device=DEV)
               for s in (g.input_shape, g.weight_shape, g.output_shape))
    with pytest.raises(NotImplementedError, match=f"conv_forward: {name} .*{dtype}"):
        dnn.conv_forward(x, w, y, g)
    with pytest.raises(NotImplementedError, match=f"pool_forward: {name} .*{dtype}"):
        dnn.pool_forward(x, garray.zeros((1, 1, 1, 1), dtype=dtype, device=DEV), "max",
                         (2, 2), (2, 2), (0, 0), (0, 0))


# ---- argument errors ----------------------------------------------------------------


def _bad_operands():
    g = conv_geometry("test", 2, (1, 2, 4, 4), (3, 2, 2, 2))
    x, w, y = (garray.zeros(s, dtype="float32", device=DEV)
               for s in (g.input_shape, g.weight_shape, g.output_shape))
    return g, x, w, y


@pytest.mark.parametrize("case", ["shape", "dtype", "noncontiguous", "negative-stride", "numpy",
                                  "geometry"])
def test_bad_operands_name_the_argument(case):
    g, x, w, y = _bad_operands()
    if case == "shape":
        y = garray.zeros((1, 3, 3, 2), dtype="float32", device=DEV)
        exc, msg = ValueError, (r"conv_forward: y has shape \(1, 3, 3, 2\), the geometry "
                                r"expects \(1, 3, 3, 3\)")
    elif case == "dtype":
        w = garray.zeros(g.weight_shape, dtype="float64", device=DEV)
        exc, msg = ValueError, "conv_forward: w has dtype float64 but x has float32"
    elif case == "noncontiguous":
        x = garray.zeros((1, 2, 4, 8), dtype="float32", device=DEV)[..., ::2]
        exc, msg = ValueError, "conv_forward: x .* must be C-contiguous"
    elif case == "negative-stride":
        w = garray.zeros(g.weight_shape, dtype="float32", device=DEV)[:, :, ::-1]
        exc, msg = ValueError, "conv_forward: w .* must be C-contiguous"
    elif case == "numpy":
        x = numpy.zeros(g.input_shape, dtype="float32")
        exc, msg = TypeError, "conv_forward: x must be a garray array"
    else:
        g = (1, 2, 3)
        exc, msg = TypeError, "conv_forward: g must be a garray.nn._params.Geometry"
    with pytest.raises(exc, match=msg):
        dnn.conv_forward(x, w, y, g)


@pytest.mark.skipif(GPU, reason="arrays on the CPU device")
def test_cpu_arrays_are_refused():
    g, x, w, y = _bad_operands()
    with pytest.raises(ValueError, match="conv_forward: the vendor DNN path runs on cuda"):
        dnn.conv_forward(x, w, y, g)


@pytest.mark.parametrize("bad,exc,msg", [
    (dict(mode="min"), ValueError, "pool_forward: mode must be one of"),
    (dict(kernel=(0, 2)), ValueError, "pool_forward: kernel must be positive"),
    (dict(stride=(1, 1, 1)), ValueError, "pool_forward: stride must have 2 entries"),
    (dict(y_shape=(1, 2, 3, 3)), ValueError, r"pool_forward: y has shape \(1, 2, 3, 3\)"),
    (dict(kernel=(6, 2)), ValueError, "pool_forward: the window"),
    (dict(pad_hi=(1, 1)), NotImplementedError,
     "pool_forward: asymmetric padding"),
])
def test_pool_bad_arguments(bad, exc, msg):
    args = dict(mode="max", kernel=(2, 2), stride=(2, 2), pad_lo=(0, 0), pad_hi=(0, 0))
    y_shape = bad.pop("y_shape", (1, 2, 2, 2))
    args.update(bad)
    x = garray.zeros((1, 2, 4, 4), dtype="float32", device=DEV)
    y = garray.zeros(y_shape, dtype="float32", device=DEV)
    if not GPU and exc is NotImplementedError:
        exc, msg = ValueError, "pool_forward: the vendor DNN path runs on cuda"
    with pytest.raises(exc, match=msg):
        dnn.pool_forward(x, y, **args)


# ---- library, handles, statuses ---------------------------------------------------


@pytest.mark.parametrize("kind", ["cuda", "hip"])
def test_missing_library_names_package_and_variable(kind, monkeypatch, tmp_path):
    package, var = PACKAGES[kind]
    bad = str(tmp_path / "no-such-dnn.so")
    monkeypatch.setenv(var, bad)
    dnn.reset()
    try:
        ok, reason = dnn.available(kind)
        assert not ok and package in reason and var in reason and bad in reason, reason
        if DEV.kind == kind:
            g, x, w, y = _bad_operands()
            with pytest.raises(garray.BackendUnavailableError, match=var) as info:
                dnn.conv_forward(x, w, y, g)
            assert package in str(info.value)
    finally:
        monkeypatch.undo()
        dnn.reset()
    if DEV.kind == kind:
        assert dnn.available(kind)[0]
        test_conv_forward(CONV_CASES[2], "float32")     # found again, with a fresh handle


def test_available_never_raises():
    assert dnn.available("cpu")[0] is False
    for kind in ("cuda", "hip"):
        ok, reason = dnn.available(kind)
        assert isinstance(ok, bool) and isinstance(reason, str)


@gpu_only
def test_vendor_status_is_a_backend_error():
    """A vendor status becomes a BackendError naming the device, the call and the status
    (a group count of 0 on a NULL descriptor: cuDNN BAD_PARAM 2000, MIOpen BadParm 3)."""
    vendor = dnn.VENDORS[DEV.kind]
    symbol = ("cudnn" if DEV.kind == "cuda" else "miopen") + "SetConvolutionGroupCount"
    status = "CUDNN_STATUS_BAD_PARAM" if DEV.kind == "cuda" else "miopenStatusBadParm"
    with pytest.raises(garray.BackendError, match=f"{symbol} failed: {status}") as info:
        dnn.FAMILY.call(vendor, DEV, symbol, (ctypes.c_void_p, ctypes.c_int), None, 0,
                        what=" (sizes)")
    assert str(DEV) in str(info.value) and "(sizes)" in str(info.value)


@gpu_only
def test_handles_per_thread():
    """Each thread gets its own handle, made with the device current on that thread; the
    threads run one after the other (the stub's memory protection is not thread-safe).
    MIOpen's Find results live on the handle, so a new thread's handle runs Find again."""
    mine = dnn.handle(DEV)
    assert dnn.handle(DEV) == mine
    seen, errors = [], []

    def work():
        try:
            seen.append(dnn.handle(DEV))
            test_conv_forward(CONV_CASES[0], "float32")
            test_conv_backward_bias((2, 3, 5), "float32")
            seen.append(dnn.handle(DEV))
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    for _ in range(2):
        t = threading.Thread(target=work)
        t.start()
        t.join()
    assert not errors, errors
    assert seen[0] == seen[1] and seen[2] == seen[3] and mine not in seen
    test_conv_forward(CONV_CASES[0], "float32")      # this thread's handle still works


@gpu_only
def test_handles_per_device():
    """A second device gets its own handle (and MIOpen its own Find), and calls alternate
    between the two.  Needs two devices (the stubs: FAKE_CUDA_NDEV / FAKE_HIP_NDEV=2)."""
    if DEV.runtime.probe() < 2:
        pytest.skip(f"one {DEV.kind} device")
    other = garray.Device(DEV.kind, 1 - DEV.index if DEV.index < 2 else 0)
    assert dnn.handle(other) != dnn.handle(DEV)
    g = _geometry(CONV_CASES[2])
    x, w, _ = _operands(g, "float32")
    for dev in (other, DEV, other):
        y = garray.full(g.output_shape, numpy.nan, dtype="float32", device=dev)
        dnn.conv_forward(garray.asarray(x, device=dev), garray.asarray(w, device=dev), y, g)
        assert_xp_close(y, ref_forward(x, w, g).astype("float32"), err_msg=str(dev),
                        **_tol("float32"))


@gpu_only
def test_algorithm_choice_is_cached_per_handle():
    """cuDNN's recommended algorithm and MIOpen's Find result are kept on the handle: a
    second call of the same problem reuses them (MIOpen: no second Find)."""
    g = _geometry(CONV_CASES[3])
    cache = dnn.FAMILY.handle(DEV, dnn.VENDORS[DEV.kind]).cache
    cache.clear()
    test_conv_forward(CONV_CASES[3], "float32")
    keys = [k for k in cache if k[1] == dnn.FWD and k[2] == g]
    assert len(keys) == 1
    lib = dnn.library[DEV.kind].library()
    if hasattr(lib, "fake_dnn_stats"):
        stats = (ctypes.c_ulonglong * 4)()
        lib.fake_dnn_stats(stats)
        calls = stats[0]
        test_conv_forward(CONV_CASES[3], "float32")
        lib.fake_dnn_stats(stats)
        assert stats[0] - calls == 1          # the convolution only, no Find again
    assert len(cache) == 1


@gpu_only
def test_allow_tf32_selects_the_math_type(monkeypatch):
    """cuDNN: CUDNN_FMA_MATH (3, float32 exact) unless garray.config.allow_tf32, then
    CUDNN_DEFAULT_MATH (0, TF32 on A100 and later)."""
    if DEV.kind != "cuda":
        pytest.skip("MIOpen has no math type")
    seen, real = [], dnn.FAMILY.call

    def spy(vendor, device, symbol, argtypes, *args, what=""):
        if symbol == "cudnnSetConvolutionMathType":
            seen.append(args[1])
        return real(vendor, device, symbol, argtypes, *args, what=what)

    monkeypatch.setattr(dnn.FAMILY, "call", spy)
    try:
        garray.config.allow_tf32 = True
        test_conv_forward(CONV_CASES[0], "float32")
    finally:
        garray.config.allow_tf32 = False
    test_conv_forward(CONV_CASES[0], "float32")
    assert seen == [0, 3]


@gpu_only
def test_sync_launches_synchronises_after_the_call():
    out = run_isolated("""
        import garray, numpy
        from garray._vendor import dnn, _handles
        from garray.nn._params import conv_geometry
        assert _handles.sync_calls
        d = garray.default_device()
        g = conv_geometry("t", 1, (1, 1, 4), (1, 1, 2))
        x = garray.asarray(numpy.arange(4.0, dtype="float32").reshape(1, 1, 4), device=d)
        w = garray.asarray(numpy.ones((1, 1, 2), dtype="float32"), device=d)
        y = garray.zeros((1, 1, 3), dtype="float32", device=d)
        dnn.conv_forward(x, w, y, g)
        print(y.get().ravel().tolist())
    """, env={"GARRAY_SYNC_LAUNCHES": "1"})[1]
    assert out.strip().splitlines()[-1] == "[1.0, 3.0, 5.0]", out


@gpu_only
def test_calls_reach_the_vendor_library():
    """On the stub libraries (which export fake_dnn_stats), each convolution is counted
    there: the results above came from the vendor call."""
    lib = dnn.library[DEV.kind].library()
    if not hasattr(lib, "fake_dnn_stats"):
        pytest.skip("a real vendor library: no call counter")
    stats = (ctypes.c_ulonglong * 4)()

    def computations():
        lib.fake_dnn_stats(stats)
        return stats[3]

    before = computations()
    test_conv_forward(CONV_CASES[2], "float32")
    test_conv_backward_filter(CONV_CASES[2], "float32")
    test_pool_forward(POOL_CASES[1], "max", "float32")
    assert computations() - before >= 3
