"""NumPy reference convolutions for garray.nn's tests (float64, numpy arrays in and out).

Built from ``numpy.lib.stride_tricks.sliding_window_view`` and ``numpy.einsum`` only, so
they share no code with garray.  The geometry is garray/nn/_params.py's Note
[Convolution geometry]: output element ``o`` reads input ``o * stride - pad_lo + t *
dilation`` for tap ``t``; outside the input is zero.  ``pad_hi`` may be negative (a
transposed geometry with output_padding): the padded input is then cropped.

``conv_nd(x, w, bias, stride, pad_lo, pad_hi, dilation, groups)`` works for any number of
spatial axes (``conv1d``/``conv2d``/``conv3d`` are aliases that check the rank);
``stride``, ``pad_lo``, ``pad_hi`` and ``dilation`` are ints or tuples of ``nd`` ints.
``self_test()`` checks it on a hand-computed 1-d case.
"""

import numpy
from numpy.lib.stride_tricks import sliding_window_view

__all__ = ["conv_nd", "conv1d", "conv2d", "conv3d", "pad_input", "self_test", "same_padding",
           "conv_backward_input_nd", "conv_backward_weight_nd", "conv_transpose_nd",
           "grad_self_test"]

_LETTERS = "abdefhik"           # einsum letters for spatial axes (outputs; not n, g, c, j) ...
_KLETTERS = "pqrstuvw"          # ... and kernel taps


def _tuple(v, nd):
    if numpy.ndim(v) == 0:
        return (int(v),) * nd
    v = tuple(int(e) for e in v)
    assert len(v) == nd, (v, nd)
    return v


def same_padding(kernel, dilation):
    """PyTorch's padding='same' (stride 1): (pad_lo, pad_hi), the odd element at the end."""
    total = [d * (k - 1) for k, d in zip(kernel, dilation)]
    lo = tuple(t // 2 for t in total)
    return lo, tuple(t - a for t, a in zip(total, lo))


def pad_input(x, pad_lo, pad_hi):
    """x (N, C, *spatial) zero-padded by pad_lo before and pad_hi after each spatial axis
    (a negative pad crops)."""
    nd = x.ndim - 2
    pad_lo, pad_hi = _tuple(pad_lo, nd), _tuple(pad_hi, nd)
    width = [(0, 0), (0, 0)] + [(max(lo, 0), max(hi, 0)) for lo, hi in zip(pad_lo, pad_hi)]
    xp = numpy.pad(x, width)
    sl = [slice(None), slice(None)]
    for lo, hi, n in zip(pad_lo, pad_hi, xp.shape[2:]):
        sl.append(slice(-lo if lo < 0 else 0, n + hi if hi < 0 else n))
    return xp[tuple(sl)]


def conv_nd(x, w, bias=None, stride=1, pad_lo=0, pad_hi=None, dilation=1, groups=1):
    """Forward convolution (cross-correlation, PyTorch's conv) in float64.

    x: (N, C_in, *size); w: (C_out, C_in // groups, *kernel); bias: (C_out,) or None.
    ``pad_hi`` None means ``pad_lo``.  Returns (N, C_out, *out) float64."""
    x = numpy.asarray(x, dtype=numpy.float64)
    w = numpy.asarray(w, dtype=numpy.float64)
    nd = x.ndim - 2
    assert w.ndim == nd + 2, (x.shape, w.shape)
    stride, dilation = _tuple(stride, nd), _tuple(dilation, nd)
    pad_lo = _tuple(pad_lo, nd)
    pad_hi = pad_lo if pad_hi is None else _tuple(pad_hi, nd)
    n, c_in = x.shape[:2]
    c_out, c_per = w.shape[:2]
    kernel = w.shape[2:]
    assert c_in == c_per * groups and c_out % groups == 0, (x.shape, w.shape, groups)
    xp = pad_input(x, pad_lo, pad_hi)
    span = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    out = tuple((p - s) // st + 1 for p, s, st in zip(xp.shape[2:], span, stride))
    assert all(o >= 1 for o in out), (x.shape, w.shape, out)
    if n == 0 or c_out == 0:
        return numpy.zeros((n, c_out) + out)
    # windows: (N, C_in, *pos, *span) -> taps every `dilation`, outputs every `stride`
    win = sliding_window_view(xp, span, axis=tuple(range(2, 2 + nd)))
    sl = ((slice(None), slice(None))
          + tuple(slice(None, (o - 1) * st + 1, st) for o, st in zip(out, stride))
          + tuple(slice(None, None, d) for d in dilation))
    win = win[sl]
    win = win.reshape((n, groups, c_per) + out + kernel)
    wg = w.reshape((groups, c_out // groups, c_per) + kernel)
    o, k = _LETTERS[:nd], _KLETTERS[:nd]
    y = numpy.einsum(f"ngc{o}{k},gjc{k}->ngj{o}", win, wg, optimize=True)
    y = y.reshape((n, c_out) + out)
    if bias is not None:
        y = y + numpy.asarray(bias, dtype=numpy.float64).reshape((1, c_out) + (1,) * nd)
    return y


def _ranked(nd):
    def conv(x, w, bias=None, stride=1, pad_lo=0, pad_hi=None, dilation=1, groups=1):
        assert numpy.ndim(x) == nd + 2, numpy.shape(x)
        return conv_nd(x, w, bias, stride, pad_lo, pad_hi, dilation, groups)
    conv.__name__ = f"conv{nd}d"
    conv.__doc__ = f"conv_nd for {nd} spatial axes."
    return conv


conv1d, conv2d, conv3d = _ranked(1), _ranked(2), _ranked(3)


def self_test():
    """conv_nd on hand-computed 1-d cases (run by tests/nn/test_nn_conv.py)."""
    x = numpy.array([[[1.0, 2.0, 3.0, 4.0, 5.0]]])          # (1, 1, 5)
    w = numpy.array([[[1.0, 0.0, -1.0]]])                    # (1, 1, 3)
    # y[o] = x[o] - x[o + 2]
    assert numpy.array_equal(conv_nd(x, w), [[[-2.0, -2.0, -2.0]]])
    # pad 1: x = [0, 1, 2, 3, 4, 5, 0]; y = [0-2, 1-3, 2-4, 3-5, 4-0]
    assert numpy.array_equal(conv_nd(x, w, pad_lo=1), [[[-2.0, -2.0, -2.0, -2.0, 4.0]]])
    # stride 2, pad 1: outputs 0, 2, 4 of the previous
    assert numpy.array_equal(conv_nd(x, w, stride=2, pad_lo=1), [[[-2.0, -2.0, 4.0]]])
    # dilation 2, taps 0, 2, 4: y[0] = x[0] - x[4]
    assert numpy.array_equal(conv_nd(x, w, dilation=2), [[[-4.0]]])
    # asymmetric padding (lo 0, hi 2) and a bias
    assert numpy.array_equal(conv_nd(x, w, numpy.array([10.0]), pad_lo=0, pad_hi=2),
                             [[[8.0, 8.0, 8.0, 14.0, 15.0]]])
    # groups 2: channel 0 by w0 (sum), channel 1 by w1 (difference); 2 outputs per group
    x2 = numpy.array([[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]])   # (1, 2, 3)
    w2 = numpy.array([[[1.0, 1.0]], [[2.0, 0.0]], [[1.0, -1.0]], [[0.0, 1.0]]])
    assert numpy.array_equal(conv_nd(x2, w2, groups=2),
                             [[[3.0, 5.0], [2.0, 4.0], [-10.0, -10.0], [20.0, 30.0]]])
    # two input channels summed: (1, 2, 3) by (1, 2, 1)
    w3 = numpy.array([[[1.0], [0.5]]])
    assert numpy.array_equal(conv_nd(x2, w3), [[[6.0, 12.0, 18.0]]])
    # negative pad_hi crops the input's end
    assert numpy.array_equal(conv_nd(x, w, pad_lo=0, pad_hi=-1), [[[-2.0, -2.0]]])
    return True


# ---- gradients and the transposed convolution (helper "grad") ------------------------
# Tap by tap: the forward adds x_pad[n, ci, o*stride + t*dilation] * w[co, ci, t] into
# y[n, co, o]; the input gradient is the scatter-add adjoint of that (a strided slice +=
# per tap), the weight gradient the same slices contracted with dy.

def _tap_slices(t, dilation, stride, out):
    return tuple(slice(ti * d, ti * d + (o - 1) * s + 1, s)
                 for ti, d, s, o in zip(t, dilation, stride, out))


def _geometry(nd, stride, pad_lo, pad_hi, dilation):
    stride, dilation = _tuple(stride, nd), _tuple(dilation, nd)
    pad_lo = _tuple(pad_lo, nd)
    pad_hi = pad_lo if pad_hi is None else _tuple(pad_hi, nd)
    return stride, pad_lo, pad_hi, dilation


def conv_backward_input_nd(dy, w, input_shape, stride=1, pad_lo=0, pad_hi=None, dilation=1,
                           groups=1):
    """The gradient wrt the input (of ``input_shape``) of conv_nd(x, w, ...) given the
    output gradient dy; float64."""
    dy = numpy.asarray(dy, dtype=numpy.float64)
    w = numpy.asarray(w, dtype=numpy.float64)
    nd = dy.ndim - 2
    stride, pad_lo, pad_hi, dilation = _geometry(nd, stride, pad_lo, pad_hi, dilation)
    n, c_in = input_shape[:2]
    size = tuple(input_shape[2:])
    c_out, c_per = w.shape[:2]
    kernel = w.shape[2:]
    out = dy.shape[2:]
    ext = tuple(lo + s + max(hi, 0) for lo, s, hi in zip(pad_lo, size, pad_hi))
    xp = numpy.zeros((n, c_in) + ext)
    xg = xp.reshape((n, groups, c_per) + ext)
    dyg = dy.reshape((n, groups, c_out // groups) + out)
    wg = w.reshape((groups, c_out // groups, c_per) + kernel)
    o = "ABC"[:nd]
    for t in numpy.ndindex(*kernel):
        sl = (slice(None),) * 3 + _tap_slices(t, dilation, stride, out)
        xg[sl] += numpy.einsum(f"ngj{o},gjc->ngc{o}", dyg, wg[(Ellipsis,) + t])
    crop = (slice(None),) * 2 + tuple(slice(lo, lo + s) for lo, s in zip(pad_lo, size))
    return xp[crop].copy()


def conv_backward_weight_nd(x, dy, weight_shape, stride=1, pad_lo=0, pad_hi=None,
                            dilation=1, groups=1):
    """The gradient wrt the weight (of ``weight_shape``) of conv_nd(x, w, ...) given the
    output gradient dy; float64."""
    x = numpy.asarray(x, dtype=numpy.float64)
    dy = numpy.asarray(dy, dtype=numpy.float64)
    nd = x.ndim - 2
    stride, pad_lo, pad_hi, dilation = _geometry(nd, stride, pad_lo, pad_hi, dilation)
    n, c_in = x.shape[:2]
    c_out, c_per = weight_shape[:2]
    kernel = tuple(weight_shape[2:])
    out = dy.shape[2:]
    xp = pad_input(x, pad_lo, pad_hi)
    xg = xp.reshape((n, groups, c_per) + xp.shape[2:])
    dyg = dy.reshape((n, groups, c_out // groups) + out)
    dw = numpy.zeros((groups, c_out // groups, c_per) + kernel)
    o = "ABC"[:nd]
    for t in numpy.ndindex(*kernel):
        sl = (slice(None),) * 3 + _tap_slices(t, dilation, stride, out)
        dw[(Ellipsis,) + t] = numpy.einsum(f"ngc{o},ngj{o}->gjc", xg[sl], dyg)
    return dw.reshape((c_out, c_per) + kernel)


def conv_transpose_nd(x, w, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                      dilation=1):
    """PyTorch's conv_transpose (x (N, C_in, *size), w (C_in, C_out // groups, *kernel));
    float64."""
    x = numpy.asarray(x, dtype=numpy.float64)
    nd = x.ndim - 2
    stride, dilation = _tuple(stride, nd), _tuple(dilation, nd)
    padding, output_padding = _tuple(padding, nd), _tuple(output_padding, nd)
    kernel = numpy.shape(w)[2:]
    c_out = numpy.shape(w)[1] * groups
    size = tuple((i - 1) * s - 2 * p + d * (k - 1) + op + 1 for i, s, p, d, k, op in
                 zip(x.shape[2:], stride, padding, dilation, kernel, output_padding))
    hi = tuple(p - op for p, op in zip(padding, output_padding))
    y = conv_backward_input_nd(x, w, (x.shape[0], c_out) + size, stride, padding, hi,
                               dilation, groups)
    if bias is not None:
        y = y + numpy.asarray(bias, dtype=numpy.float64).reshape((1, c_out) + (1,) * nd)
    return y


def grad_self_test():
    """The gradient references on hand-computed 1-d cases and the adjoint identity
    <conv(x, w), dy> == <x, dx> == <w, dw> against conv_nd (run by
    tests/nn/test_nn_conv_grad.py)."""
    # 1 channel, kernel [1, 2], stride 1: y[o] = x[o] + 2 x[o+1]; dx = [dy0, 2dy0 + dy1, 2dy1]
    dy = numpy.array([[[1.0, 10.0]]])
    w = numpy.array([[[1.0, 2.0]]])
    assert numpy.array_equal(conv_backward_input_nd(dy, w, (1, 1, 3)), [[[1.0, 12.0, 20.0]]])
    x = numpy.array([[[1.0, 2.0, 3.0]]])
    # dw[t] = sum_o x[o + t] dy[o] = [1 + 20, 2 + 30]
    assert numpy.array_equal(conv_backward_weight_nd(x, dy, (1, 1, 2)), [[[21.0, 32.0]]])
    # transposed conv, stride 2, kernel [1, 2]: out = [x0, 2x0, x1, 2x1] (+ output_padding)
    xt = numpy.array([[[3.0, 5.0]]])
    assert numpy.array_equal(conv_transpose_nd(xt, w, stride=2), [[[3.0, 6.0, 5.0, 10.0]]])
    assert numpy.array_equal(conv_transpose_nd(xt, w, stride=2, output_padding=1),
                             [[[3.0, 6.0, 5.0, 10.0, 0.0]]])
    rng = numpy.random.default_rng(5)
    for nd, groups, stride, lo, hi, dil in ((1, 1, 2, 1, 0, 1), (2, 2, (2, 1), 1, 2, (1, 2)),
                                            (3, 1, 1, 0, 1, 2)):
        x = rng.standard_normal((2, 4) + (7,) * nd)
        w = rng.standard_normal((6, 4 // groups) + (3,) * nd)
        y = conv_nd(x, w, None, stride, lo, hi, dil, groups)
        dy = rng.standard_normal(y.shape)
        dx = conv_backward_input_nd(dy, w, x.shape, stride, lo, hi, dil, groups)
        dw = conv_backward_weight_nd(x, dy, w.shape, stride, lo, hi, dil, groups)
        a, b, c = (y * dy).sum(), (x * dx).sum(), (w * dw).sum()
        assert abs(a - b) <= 1e-9 * abs(a) + 1e-9 and abs(a - c) <= 1e-9 * abs(a) + 1e-9, \
            (nd, a, b, c)
    return True


# ---- pooling (garray.nn's max_pool*/avg_pool* and their gradients) ---------------------
# PyTorch's rules written out with loops over the output positions; x is (N, C, *spatial),
# kernel, stride, pad and dil tuples of one int per spatial axis.

import itertools  # noqa: E402

__all__ += ["pool_output_size", "max_pool_nd", "avg_pool_nd", "max_pool_backward_nd",
            "avg_pool_backward_nd"]


def pool_output_size(size, k, s, p, d, ceil_mode):
    """PyTorch's pooling output size along one axis (ceil_mode: the last window must
    start inside the input or the left padding)."""
    o = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (o - 1) * s >= size + p:
        o -= 1
    return o


def _flat(pos, sizes):
    f = 0
    for p, s in zip(pos, sizes):
        f = f * s + p
    return f


def max_pool_nd(x, kernel, stride, pad, dil, ceil_mode):
    """(values, int64 indices) of PyTorch's max pooling of x (N, C, *spatial)."""
    sp = x.shape[2:]
    nd = len(sp)
    out = tuple(pool_output_size(sp[i], kernel[i], stride[i], pad[i], dil[i], ceil_mode)
                for i in range(nd))
    y = numpy.empty(x.shape[:2] + out, dtype=x.dtype)
    ind = numpy.empty(x.shape[:2] + out, dtype=numpy.int64)
    for o in numpy.ndindex(*out):
        starts = [o[i] * stride[i] - pad[i] for i in range(nd)]
        taps = [[st + t * dil[i] for t in range(kernel[i]) if 0 <= st + t * dil[i] < sp[i]]
                for i, st in enumerate(starts)]
        first = []
        for i, st in enumerate(starts):
            while st < 0:
                st += dil[i]
            first.append(st)
        m = numpy.full(x.shape[:2], -numpy.inf, dtype=x.dtype)
        mi = numpy.full(x.shape[:2], _flat(first, sp), dtype=numpy.int64)
        for pos in itertools.product(*taps):
            v = x[(slice(None), slice(None)) + pos]
            take = (v > m) | numpy.isnan(v)
            m = numpy.where(take, v, m)
            mi = numpy.where(take, _flat(pos, sp), mi)
        y[(slice(None), slice(None)) + o] = m
        ind[(slice(None), slice(None)) + o] = mi
    return y, ind


def avg_pool_nd(x, kernel, stride, pad, ceil_mode, count_include_pad, divisor=None):
    """PyTorch's average pooling of x (N, C, *spatial), summed in float64."""
    sp = x.shape[2:]
    nd = len(sp)
    out = tuple(pool_output_size(sp[i], kernel[i], stride[i], pad[i], 1, ceil_mode)
                for i in range(nd))
    y = numpy.empty(x.shape[:2] + out, dtype=x.dtype)
    for o in numpy.ndindex(*out):
        lo = [o[i] * stride[i] - pad[i] for i in range(nd)]
        hi = [min(lo[i] + kernel[i], sp[i] + pad[i]) for i in range(nd)]
        pool = int(numpy.prod([h - l for l, h in zip(lo, hi)]))
        lo = [max(v, 0) for v in lo]
        hi = [min(hi[i], sp[i]) for i in range(nd)]
        at = (slice(None), slice(None)) + o
        if any(l >= h for l, h in zip(lo, hi)):
            y[at] = 0
            continue
        win = x[(slice(None), slice(None)) + tuple(slice(l, h) for l, h in zip(lo, hi))]
        s = win.astype(numpy.float64).sum(axis=tuple(range(2, 2 + nd)))
        div = divisor if divisor is not None else \
            pool if count_include_pad else int(numpy.prod([h - l for l, h in zip(lo, hi)]))
        y[at] = s / div
    return y


def max_pool_backward_nd(gy, idx, input_shape):
    """PyTorch's CPU scatter: output by output, grad_input[idx] += grad_output."""
    n, c = input_shape[:2]
    gx = numpy.zeros((n, c, int(numpy.prod(input_shape[2:]))), dtype=gy.dtype)
    nn_, cc = numpy.meshgrid(numpy.arange(n), numpy.arange(c), indexing="ij")
    for o in numpy.ndindex(*gy.shape[2:]):
        at = (slice(None), slice(None)) + o
        flat = idx[at]
        ok = (flat >= 0) & (flat < gx.shape[2])
        gx[nn_[ok], cc[ok], flat[ok]] += gy[at][ok]
    return gx.reshape(input_shape)


def avg_pool_backward_nd(gy, input_shape, kernel, stride, pad, count_include_pad,
                          divisor=None):
    sp = input_shape[2:]
    nd = len(sp)
    gx = numpy.zeros(input_shape, dtype=gy.dtype)
    for o in numpy.ndindex(*gy.shape[2:]):
        lo = [o[i] * stride[i] - pad[i] for i in range(nd)]
        hi = [min(lo[i] + kernel[i], sp[i] + pad[i]) for i in range(nd)]
        pool = int(numpy.prod([h - l for l, h in zip(lo, hi)]))
        lo = [max(v, 0) for v in lo]
        hi = [min(hi[i], sp[i]) for i in range(nd)]
        if any(l >= h for l, h in zip(lo, hi)):
            continue
        cnt = int(numpy.prod([h - l for l, h in zip(lo, hi)]))
        div = divisor if divisor is not None else pool if count_include_pad else cnt
        win = (slice(None), slice(None)) + tuple(slice(l, h) for l, h in zip(lo, hi))
        gx[win] += (gy[(slice(None), slice(None)) + o] / gy.dtype.type(div))[
            (...,) + (None,) * nd]
    return gx
