"""Transposed convolutions and the gradients of the forward convolution.

PyTorch's functions and argument orders: ``conv_transpose1d/2d/3d`` are
``torch.nn.functional``'s, ``conv{1,2,3}d_backward_input`` / ``_backward_weight`` are
``torch.nn.grad.conv{1,2,3}d_input`` / ``_weight``, ``conv_backward_bias`` sums the output
gradient over the batch and the spatial axes.

Every function describes its work as ONE forward geometry (garray/nn/_params.py's Note
[Convolution geometry]): a gradient wrt the input is that geometry's backward-data pass,
a transposed convolution is the backward-data pass of the geometry
``transposed_geometry`` returns.  Two paths (``algorithm``; None reads ``GARRAY_CONV``,
'auto' by default):

- 'kernel': garray's gather kernels in ``_kernels/conv_grad.hip`` (Note [Gather-form
  convolution gradients] there): one thread per input element for the data gradient, one
  per (chunk, weight element) for the weight gradient, chunks reduced by garray's sum;
- 'vendor': on the CPU device a GEMM lowering (``garray._gemm.engine.gemm``, OpenBLAS): the
  weight gradient as ``dy @ im2col(x)^T`` per group, the data gradient as
  ``col2im(W^T @ dy)``; on cuda/hip devices cuDNN/MIOpen through
  ``garray._vendor.dnn``.

The design is docs/convolution-gradients.md.
"""


from .._args import check_array
from .. import _env
from .._core import _family_launch, empty
from .._tables.conv_grad import CG_COL2IM, CG_DATA, CG_WEIGHT, CONV_GRAD
from ._conv import im2col
from ._params import (check_operands, conv_geometry, device_geometry, resolve_algorithm,
                      transposed_geometry)
from .._array_utils import ascontiguousarray
from .._gemm.engine import gemm
from .._vendor import dnn

__all__ = ["conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
           "conv1d_backward_input", "conv2d_backward_input", "conv3d_backward_input",
           "conv1d_backward_weight", "conv2d_backward_weight", "conv3d_backward_weight",
           "conv_backward_bias"]

# input elements per thread of the data-gradient kernels (note 3 of the kernel file)
_PER = {"cpu": 64, "gpu": 1}
# the weight gradient's reduction is split into chunks of rows (n, od, oh) of at least
# _MIN_LEN output positions until about _TARGET threads run
_MIN_LEN = {"cpu": 2048, "gpu": 256}
_TARGET = {"cpu": 64, "gpu": 65536}
# kw taps one weight-gradient thread computes (KW_BLOCK in the kernel file)
_KW_BLOCK = 8
# bytes of column matrix one GEMM-lowering step may hold (batches are chunked to fit)
_COL_BYTES = 64 << 20

_debug = {"per": None, "len": None}


def _debug_shape(per=None, length=None):
    """Test hook: elements per thread of the data kernels and the weight gradient's chunk
    length in output rows (None: the device's defaults).  Returns the previous (per, length)."""
    old = (_debug["per"], _debug["len"])
    _debug["per"], _debug["len"] = per, length
    return old


def _kind(device):
    return "cpu" if device.kind == "cpu" else "gpu"


def _contig(a):
    return ascontiguousarray(a)


def _size(shape):
    s = 1
    for v in shape:
        s *= v
    return s


def _path(fn, algorithm, device, dtype, g):
    """resolve_algorithm's answer (given ``g``: on GPUs 'auto' takes the kernel for a
    geometry the DNN library cannot express), except that 'auto' on the CPU device takes
    the kernel for (nearly) depthwise convolutions (at most 4 channel pairs per group),
    where the GEMM lowering is a batch of tiny products (docs/convolution-gradients.md)."""
    path = resolve_algorithm(fn, algorithm, device, dtype, g=g)
    if path != "vendor" or device.kind != "cpu":
        return path
    requested = algorithm if algorithm is not None else \
        _env.choice("GARRAY_CONV", ("auto", "kernel", "vendor"), "auto")
    if requested == "auto" and (g.c_in // g.groups) * (g.c_out // g.groups) <= 4:
        return "kernel"
    return path


def _dnn():
    return dnn


# ---- the data gradient (and the transposed convolution) -----------------------------

def _bwd_data_kernel(dy, w, bias, g, dx):
    total = dx.size
    per = _debug["per"] or _PER[_kind(dx.device)]
    threads = -(-total // per)
    geom = device_geometry(g, dx.device)
    _family_launch(CONV_GRAD, dx.dtype, CG_DATA, threads, (dx, dy, w, bias, geom, per, total),
                   dx, max(total, g.macs()))


def _col2im(dx, col, g, n0, n1, s_n, s_g, s_r):
    total = (n1 - n0) * g.c_in * _size(g.size)
    per = _debug["per"] or _PER[_kind(dx.device)]
    threads = -(-total // per)
    geom = device_geometry(g, dx.device)
    _family_launch(CONV_GRAD, dx.dtype, CG_COL2IM, threads,
                   (dx, col, geom, n0, s_n, s_g, s_r, per, total), dx, total * _size(g.kernel))


def _batch_chunk(g, itemsize):
    """Batches per GEMM-lowering step: the column matrix of one step within _COL_BYTES."""
    per_batch = g.c_in * _size(g.kernel) * _size(g.out) * itemsize
    return max(1, min(g.n, _COL_BYTES // max(per_batch, 1)))


def _bwd_data_gemm(dy, w, g, dx):
    """col2im(W_g^T @ dy) per group, batches in chunks (CPU device)."""
    G, cout_g, cin_g = g.groups, g.c_out // g.groups, g.c_in // g.groups
    K, O = cin_g * _size(g.kernel), _size(g.out)
    wt = w.reshape((G, cout_g, K)).swapaxes(-1, -2)             # (G, K, cout_g)
    dyv = dy.reshape((g.n, G, cout_g, O))
    step = _batch_chunk(g, dx.itemsize)
    for n0 in range(0, g.n, step):
        n1 = min(g.n, n0 + step)
        nb = n1 - n0
        # dy of these batches as (G, cout_g, nb*O): one GEMM per group
        dyt = _contig(dyv[n0:n1].transpose((1, 2, 0, 3))).reshape((G, cout_g, nb * O))
        col = empty((G, K, nb * O), dtype=dx.dtype, device=dx.device)
        gemm(col, wt, dyt)
        # col[g, row, b*O + o]: batch stride O, group stride K*nb*O, row stride nb*O
        _col2im(dx, col, g, n0, n1, O, K * nb * O, nb * O)


def _bwd_data(fn, dy, w, bias, g, algorithm):
    """dx (g.input_shape) = the gradient wrt the input of the forward geometry g, plus
    ``bias`` per input channel when given."""
    dtype, device = check_operands(fn, grad_output=dy, weight=w, bias=bias)
    path = _path(fn, algorithm, device, dtype, g)
    dx = empty(g.input_shape, dtype=dtype, device=device)
    if dx.size == 0:
        return dx
    dy, w = _contig(dy), _contig(w)
    if bias is not None:
        bias = _contig(bias)
    if path == "kernel":
        _bwd_data_kernel(dy, w, bias, g, dx)
        return dx
    if device.kind == "cpu":
        _bwd_data_gemm(dy, w, g, dx)
    else:
        _dnn().conv_backward_data(dy, w, dx, g)
    if bias is not None:
        dx += bias.reshape((1, g.c_in) + (1,) * g.nd)
    return dx


# ---- the weight gradient ------------------------------------------------------------

def _bwd_weight_kernel(x, dy, g, dw):
    kind = _kind(dw.device)
    wtotal = dw.size
    kw = g.kernel[-1]
    # threads per chunk: one per (co, ci, kd, kh, block of _KW_BLOCK kw taps)
    per_chunk = wtotal // kw * -(-kw // _KW_BLOCK)
    rows = g.n * _size(g.out[:-1])          # the reduction's rows (n, od, oh)
    if _debug["len"]:
        length = _debug["len"]
    else:
        min_rows = max(1, _MIN_LEN[kind] // g.out[-1])
        nchunks = max(1, min(-(-rows // min_rows), -(-_TARGET[kind] // per_chunk)))
        length = -(-rows // nchunks)
    nchunks = -(-rows // length)
    geom = device_geometry(g, dw.device)
    out = dw if nchunks == 1 else empty((nchunks,) + dw.shape, dtype=dw.dtype,
                                        device=dw.device)
    _family_launch(CONV_GRAD, dw.dtype, CG_WEIGHT, nchunks * per_chunk,
                   (out, x, dy, geom, length, nchunks, wtotal), dw, max(g.macs(), 1))
    if nchunks > 1:
        dw[...] = out.sum(axis=0)


def _bwd_weight_gemm(x, dy, g, dw):
    """sum over batches of dy_g @ im2col(x)_g^T (CPU device)."""
    G, cout_g, cin_g = g.groups, g.c_out // g.groups, g.c_in // g.groups
    K, O = cin_g * _size(g.kernel), _size(g.out)
    dyv = dy.reshape((g.n, G, cout_g, O))
    dwv = dw.reshape((G, cout_g, K))
    step = _batch_chunk(g, dw.itemsize)
    first = True
    for n0 in range(0, g.n, step):
        n1 = min(g.n, n0 + step)
        nb = n1 - n0
        col = im2col(x, g, n0, n1)                    # (nb, G, K, O)
        part = empty((nb, G, cout_g, K), dtype=dw.dtype, device=dw.device)
        gemm(part, dyv[n0:n1], col.swapaxes(-1, -2))
        s = part[0] if nb == 1 else part.sum(axis=0)
        if first:
            dwv[...] = s
            first = False
        else:
            dwv += s


def _bwd_weight(fn, x, dy, g, algorithm):
    dtype, device = check_operands(fn, input=x, grad_output=dy)
    path = _path(fn, algorithm, device, dtype, g)
    dw = empty(g.weight_shape, dtype=dtype, device=device)
    if dw.size == 0:
        return dw
    if g.n == 0:
        dw[...] = 0
        return dw
    x, dy = _contig(x), _contig(dy)
    if path == "kernel":
        _bwd_weight_kernel(x, dy, g, dw)
    elif device.kind == "cpu":
        _bwd_weight_gemm(x, dy, g, dw)
    else:
        _dnn().conv_backward_filter(x, dy, dw, g)
    return dw


# ---- public functions ---------------------------------------------------------------

def _check_grad_shape(fn, g, grad_output, what, shape):
    if tuple(grad_output.shape) != g.output_shape:
        raise ValueError(f"{fn}: grad_output has shape {tuple(grad_output.shape)} but the "
                         f"convolution of {what} {tuple(shape)} gives an output of shape "
                         f"{g.output_shape}")


def _need_array(fn, name, a):
    check_array(a, f"{fn}: {name}")


def _conv_transpose(nd, input, weight, bias, stride, padding, output_padding, groups,
                    dilation, algorithm):
    fn = f"conv_transpose{nd}d"
    _need_array(fn, "input", input)
    _need_array(fn, "weight", weight)
    if input.ndim == nd + 1:      # PyTorch's unbatched (C_in, *spatial)
        return _conv_transpose(nd, input[None], weight, bias, stride, padding,
                               output_padding, groups, dilation, algorithm)[0]
    check_operands(fn, input=input, weight=weight, bias=bias)
    g = transposed_geometry(fn, nd, input.shape, weight.shape, stride, padding,
                            output_padding, groups, dilation)
    if bias is not None and tuple(bias.shape) != (g.c_in,):
        raise ValueError(f"{fn}: bias must have shape ({g.c_in},) (the output channels), "
                         f"got {tuple(bias.shape)}; weight shape {tuple(weight.shape)}")
    return _bwd_data(fn, input, weight, bias, g, algorithm)


def _backward_input(nd, input_shape, weight, grad_output, stride, padding, dilation, groups,
                    algorithm):
    fn = f"conv{nd}d_backward_input"
    _need_array(fn, "weight", weight)
    _need_array(fn, "grad_output", grad_output)
    check_operands(fn, grad_output=grad_output, weight=weight)
    g = conv_geometry(fn, nd, input_shape, weight.shape, stride, padding, dilation, groups)
    _check_grad_shape(fn, g, grad_output, "an input of shape", g.input_shape)
    return _bwd_data(fn, grad_output, weight, None, g, algorithm)


def _backward_weight(nd, input, weight_shape, grad_output, stride, padding, dilation, groups,
                     algorithm):
    fn = f"conv{nd}d_backward_weight"
    _need_array(fn, "input", input)
    _need_array(fn, "grad_output", grad_output)
    check_operands(fn, input=input, grad_output=grad_output)
    g = conv_geometry(fn, nd, input.shape, weight_shape, stride, padding, dilation, groups)
    _check_grad_shape(fn, g, grad_output, f"input {tuple(input.shape)} by a weight of shape",
                      g.weight_shape)
    return _bwd_weight(fn, input, grad_output, g, algorithm)


_TRANSPOSE_DOC = """The {nd}-d transposed convolution ("deconvolution") of ``input`` by
    ``weight`` (``torch.nn.functional.conv_transpose{nd}d``).

    Parameters
    ----------
    input : garray.ndarray
        ``(N, C_in, {sp})``, float32 or float64.
    weight : garray.ndarray
        ``(C_in, C_out / groups, {k})``, the same dtype and device.
    bias : garray.ndarray, optional
        ``(C_out,)``, added to every output position.
    stride, padding, output_padding, dilation : int or tuple of {nd} ints
        PyTorch's meanings; ``output_padding`` (smaller than stride or dilation) adds
        that many positions at the end of each output axis.  ``padding`` takes no
        strings (as in PyTorch).
    groups : int
        Divides ``C_in`` and ``C_out``.
    algorithm : {{None, 'auto', 'kernel', 'vendor'}}
        None reads ``GARRAY_CONV`` (default 'auto').  'kernel' runs garray's gather
        kernel, 'vendor' the GEMM lowering on the CPU device and cuDNN/MIOpen on GPUs.

    Returns
    -------
    garray.ndarray
        ``(N, C_out, {osp})`` with ``out = (in - 1) * stride - 2 * padding + dilation *
        (kernel - 1) + output_padding + 1``, the input's dtype and device.

    Raises
    ------
    ValueError
        Wrong ranks, channel counts that do not match or that ``groups`` does not
        divide, ``output_padding`` not smaller than ``stride`` or ``dilation``, an empty
        output, a bias of the wrong shape, mixed dtypes or devices.
    TypeError
        A dtype other than float32/float64, or a non-garray operand.

    Notes
    -----
    It is the gradient wrt the input of ``conv{nd}d`` with the same weight, stride,
    padding, dilation and groups.  Unlike PyTorch, mixed dtypes are not promoted.  An
    unbatched input (rank {nd1}, no N) gives an unbatched result, as PyTorch.
    """

_INPUT_DOC = """The gradient of ``conv{nd}d`` wrt its input
    (``torch.nn.grad.conv{nd}d_input``).

    Parameters
    ----------
    input_shape : tuple of {nd2} ints
        The forward input's shape ``(N, C_in, {sp})``.
    weight : garray.ndarray
        The forward weight ``(C_out, C_in / groups, {k})``, float32 or float64.
    grad_output : garray.ndarray
        The gradient wrt the forward output; its shape must be the forward output's.
    stride, padding, dilation, groups :
        The forward convolution's (``padding`` may be 'valid' or 'same').
    algorithm : {{None, 'auto', 'kernel', 'vendor'}}
        As for ``conv_transpose{nd}d``.

    Returns
    -------
    garray.ndarray
        ``input_shape``, the operands' dtype and device.

    Raises
    ------
    ValueError
        ``grad_output``'s shape is not the forward output's for ``input_shape`` (the
        message names both), or the forward arguments are invalid (as ``conv{nd}d``).
    TypeError
        A dtype other than float32/float64, or a non-garray operand.
    """

_WEIGHT_DOC = """The gradient of ``conv{nd}d`` wrt its weight
    (``torch.nn.grad.conv{nd}d_weight``).

    Parameters
    ----------
    input : garray.ndarray
        The forward input ``(N, C_in, {sp})``, float32 or float64.
    weight_shape : tuple of {nd2} ints
        The forward weight's shape ``(C_out, C_in / groups, {k})``.
    grad_output : garray.ndarray
        The gradient wrt the forward output; its shape must be the forward output's.
    stride, padding, dilation, groups :
        The forward convolution's (``padding`` may be 'valid' or 'same').
    algorithm : {{None, 'auto', 'kernel', 'vendor'}}
        As for ``conv_transpose{nd}d``.

    Returns
    -------
    garray.ndarray
        ``weight_shape``, the operands' dtype and device.  On garray's kernel path the
        sum over the batch and the output positions is deterministic (fixed chunks, no
        atomics); cuDNN's and MIOpen's algorithms may not be.

    Raises
    ------
    ValueError
        ``grad_output``'s shape is not the forward output's (the message names both), or
        the forward arguments are invalid (as ``conv{nd}d``).
    TypeError
        A dtype other than float32/float64, or a non-garray operand.
    """

_SP = {1: "W", 2: "H, W", 3: "D, H, W"}
_K = {1: "kW", 2: "kH, kW", 3: "kD, kH, kW"}
_OSP = {1: "W_out", 2: "H_out, W_out", 3: "D_out, H_out, W_out"}


def _make(nd):
    fmt = dict(nd=nd, sp=_SP[nd], k=_K[nd], osp=_OSP[nd], nd1=nd + 1, nd2=nd + 2)

    def conv_transpose(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                       groups=1, dilation=1, *, algorithm=None):
        return _conv_transpose(nd, input, weight, bias, stride, padding, output_padding,
                               groups, dilation, algorithm)

    def backward_input(input_shape, weight, grad_output, stride=1, padding=0, dilation=1,
                       groups=1, *, algorithm=None):
        return _backward_input(nd, input_shape, weight, grad_output, stride, padding,
                               dilation, groups, algorithm)

    def backward_weight(input, weight_shape, grad_output, stride=1, padding=0, dilation=1,
                        groups=1, *, algorithm=None):
        return _backward_weight(nd, input, weight_shape, grad_output, stride, padding,
                                dilation, groups, algorithm)

    for f, name, doc in ((conv_transpose, f"conv_transpose{nd}d", _TRANSPOSE_DOC),
                         (backward_input, f"conv{nd}d_backward_input", _INPUT_DOC),
                         (backward_weight, f"conv{nd}d_backward_weight", _WEIGHT_DOC)):
        f.__name__ = f.__qualname__ = name
        f.__module__ = "garray.nn"
        f.__doc__ = doc.format(**fmt)
    return conv_transpose, backward_input, backward_weight


conv_transpose1d, conv1d_backward_input, conv1d_backward_weight = _make(1)
conv_transpose2d, conv2d_backward_input, conv2d_backward_weight = _make(2)
conv_transpose3d, conv3d_backward_input, conv3d_backward_weight = _make(3)


def conv_backward_bias(grad_output, *, algorithm=None):
    """The gradient of a convolution's bias: ``grad_output`` summed over the batch and
    the spatial axes.

    Parameters
    ----------
    grad_output : garray.ndarray
        ``(N, C_out, *spatial)`` with 1 to 3 spatial axes, float32 or float64.
    algorithm : {None, 'auto', 'kernel', 'vendor'}
        'vendor' on a cuda/hip device calls cuDNN/MIOpen; otherwise garray's sum.

    Returns
    -------
    garray.ndarray
        ``(C_out,)``, the input's dtype and device (zeros when N is 0).

    Raises
    ------
    ValueError
        ``grad_output`` has fewer than 3 or more than 5 dimensions.
    TypeError
        A dtype other than float32/float64, or a non-garray operand.
    """
    fn = "conv_backward_bias"
    _need_array(fn, "grad_output", grad_output)
    dtype, device = check_operands(fn, grad_output=grad_output)
    if not 3 <= grad_output.ndim <= 5:
        raise ValueError(f"{fn}: grad_output must be (N, C_out, *spatial) with 1 to 3 "
                         f"spatial axes, got shape {tuple(grad_output.shape)}")
    path = resolve_algorithm(fn, algorithm, device, dtype)
    if path == "vendor" and algorithm != "vendor" and grad_output.size > 2 ** 31 - 1:
        path = "kernel"       # 'auto': past the vendors' int32 sizes garray's sum runs
    if path == "vendor" and device.kind != "cpu" and grad_output.size:
        db = empty((grad_output.shape[1],), dtype=dtype, device=device)
        _dnn().conv_backward_bias(_contig(grad_output), db)
        return db
    axes = (0,) + tuple(range(2, grad_output.ndim))
    return grad_output.sum(axis=axes)
