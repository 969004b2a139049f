"""Forward convolutions ``conv1d``, ``conv2d``, ``conv3d`` (PyTorch's signatures) and the
im2col gather they and the gradients share (docs/convolution.md).

Note [Forward convolution paths]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
1. Arguments go through garray/nn/_params.py (``check_operands``, ``conv_geometry``):
   one forward ``Geometry``; the kernels read it packed on the device
   (``device_geometry``).  Operands are made C-contiguous (garray's copy kernel) first.
2. ``resolve_algorithm`` picks the path (``algorithm=`` or ``GARRAY_CONV``):
   - "vendor": on the CPU device im2col (``conv_im2col``) + one BLAS GEMM per chunk of
     samples (``garray._gemm.engine.gemm``: Y[n, g] = W[g] @ col[n, g], the weight broadcast over
     the samples with batch stride 0), the chunk keeping the col buffer under
     ``COL_BYTES`` (a 1x1 convolution with stride 1 and no padding skips im2col: the
     input is its own col matrix); on cuda/hip devices
     ``garray._vendor.dnn.conv_forward`` (cuDNN or MIOpen).  The bias is added afterwards
     by garray's elementwise add.  Under 'auto' a depthwise convolution (one input
     channel per group) on the CPU device takes the kernel path: its GEMMs would be
     matrix-vector products over a taps-times larger col buffer.
   - "kernel": garray's kernels (_kernels/conv.hip, Note [Forward convolution kernels]):
     ``conv_direct`` for depthwise and small layers (one input channel per group, a short
     reduction, few output channels per group), otherwise the implicit GEMM:
     ``conv_igemm_rt`` on the CPU device, ``conv_igemm_tiled`` on GPUs.  The bias is
     added in the kernel.  On the CPU device an input padded along W (stride 1 there)
     is first copied into a zero-padded buffer, so its runs of inputs are read in place
     instead of gathered around the edges.
3. Test hooks: ``_debug_variant("direct" | "rt" | "tiled")`` forces the kernel variant
   on any device (``tiled`` on the CPU device runs on fibers: tiny sizes only);
   ``_debug["im2col_whole"]`` (0 or 1) forces im2col's one-element-per-thread (GPU) or
   one-row-per-thread (CPU) form.
"""

import dataclasses

from .. import _core, _env
from .._array_utils import ascontiguousarray
from .._tables.conv import C_DIRECT, C_IGEMM_RT, C_IGEMM_TILED, C_IM2COL, CONV
from ._params import (Geometry, check_operands, conv_geometry, device_geometry,
                      resolve_algorithm)
from .._gemm.engine import gemm
from .._vendor import dnn

__all__ = ["conv1d", "conv2d", "conv3d", "im2col"]

COL_BYTES = 64 << 20        # the vendor path's im2col buffer, per chunk of samples
_DV = 8                     # conv_direct's run along W on the CPU device (conv::DV)
_VARIANTS = ("direct", "rt", "tiled")
_debug = {"variant": None, "im2col_whole": None}


def _debug_variant(variant=None):
    """Test hook: force the kernel path's variant ("direct", "rt", "tiled"; None: the
    heuristic).  Returns the previous setting."""
    if variant is not None and variant not in _VARIANTS:
        raise ValueError(f"variant: expected one of {_VARIANTS} or None, got {variant!r}")
    old = _debug["variant"]
    _debug["variant"] = variant
    return old


def im2col(x, g, n0, n1):
    """The im2col matrix of samples ``[n0, n1)`` of ``x`` for geometry ``g``.

    Parameters
    ----------
    x : garray.ndarray
        The input, C-contiguous, of shape ``g.input_shape``, float32 or float64.
    g : garray.nn._params.Geometry
        The forward convolution's geometry.
    n0, n1 : int
        The samples, ``0 <= n0 <= n1 <= g.n``.

    Returns
    -------
    garray.ndarray
        Shape ``(n1 - n0, groups, (C_in / groups) * taps, out_spatial)``, x's dtype and
        device: row ``(ci, kd, kh, kw)`` (the kernel's taps in C order), column
        ``(od, oh, ow)`` holds the input element that tap reads for that output (zero in
        the padding).

    Raises
    ------
    ValueError
        ``x`` not C-contiguous or not of the geometry's input shape, samples out of range.
    """
    if not isinstance(g, Geometry):
        raise TypeError(f"im2col: g must be a Geometry, got {type(g).__name__}")
    if tuple(x.shape) != g.input_shape:
        raise ValueError(f"im2col: x has shape {tuple(x.shape)}, the geometry's input is "
                         f"{g.input_shape}")
    if not x.flags.c_contiguous:
        raise ValueError("im2col: x must be C-contiguous")
    n0, n1 = int(n0), int(n1)
    if not 0 <= n0 <= n1 <= g.n:
        raise ValueError(f"im2col: samples [{n0}, {n1}) outside [0, {g.n})")
    cg = g.c_in // g.groups
    taps = _prod(g.kernel)
    os_ = _prod(g.out)
    nb = n1 - n0
    col = _core.empty((nb, g.groups, cg * taps, os_), dtype=x.dtype, device=x.device)
    if col.size == 0:
        return col
    whole = _debug["im2col_whole"]
    if whole is None:
        whole = 1 if x.device.kind == "cpu" else 0
    threads = nb * g.groups * cg * taps * (1 if whole else os_)
    _core._family_launch(CONV, x.dtype, C_IM2COL, threads,
                         (col, x, device_geometry(g, x.device), n0, nb, whole), col, col.size)
    return col


def _prod(t):
    p = 1
    for v in t:
        p *= v
    return p


def _variant(g, device):
    """The kernel path's variant for ``g`` on ``device`` (Note [Forward convolution
    paths], 2)."""
    if _debug["variant"] is not None:
        return _debug["variant"]
    cpu = device.kind == "cpu"
    cg, cog = g.c_in // g.groups, g.c_out // g.groups
    if cg == 1 or cg * _prod(g.kernel) < 16 or cog < (4 if cpu else 16):
        return "direct"
    return "rt" if cpu else "tiled"


def _kernel_path(x, w, b, y, g):
    dev = y.device
    gp = device_geometry(g, dev)
    variant = _variant(g, dev)
    cg, cog = g.c_in // g.groups, g.c_out // g.groups
    os_ = _prod(g.out)
    work = max(g.macs(), y.size)
    if variant == "direct":
        per = _DV if dev.kind == "cpu" else 1
        if per > 1 and g.stride[-1] == 1 and (g.pad_lo[-1] or g.pad_hi[-1]):
            x, g = _pad_w(x, g)
            gp = device_geometry(g, dev)
        ow = g.out[-1]
        threads = g.n * g.c_out * (os_ // ow) * -(-ow // per)
        _core._family_launch(CONV, y.dtype, C_DIRECT, threads, (y, x, w, b, gp, per), y, work)
    elif variant == "rt":
        if g.stride[-1] == 1 and (g.pad_lo[-1] or g.pad_hi[-1]):
            x, g = _pad_w(x, g)
            gp = device_geometry(g, dev)
        ow = g.out[-1]
        cn = 64 // y.itemsize                   # conv.hip's RT_BYTES / sizeof(T)
        threads = -(-cog // 4) * -(-ow // cn) * (os_ // ow) * g.n * g.groups
        _core._family_launch(CONV, y.dtype, C_IGEMM_RT, threads, (y, x, w, b, gp), y, work)
    else:
        if cg * _prod(g.kernel) >= 2 ** 31:
            raise NotImplementedError(
                f"conv{g.nd}d: the tiled kernel decodes its reduction index in 32 bits; "
                f"C_in / groups x taps = {cg * _prod(g.kernel)} is too large (weight shape "
                f"{g.weight_shape})")
        threads = -(-cog // 64) * -(-(g.n * os_) // 64) * g.groups * 256
        _core._family_launch(CONV, y.dtype, C_IGEMM_TILED, threads, (y, x, w, b, gp), y,
                             work)


def _pad_w(x, g):
    """x zero-padded along W (a copy) and the geometry without W padding: the CPU
    implicit GEMM then reads every run of inputs in place (Note [Forward convolution
    kernels], 4)."""
    lo, hi = g.pad_lo[-1], g.pad_hi[-1]
    width = g.size[-1] + lo + hi
    xp = _core.zeros(g.input_shape[:-1] + (width,), dtype=x.dtype, device=x.device)
    xp[..., lo:lo + g.size[-1]] = x
    g2 = dataclasses.replace(g, size=g.size[:-1] + (width,), pad_lo=g.pad_lo[:-1] + (0,),
                             pad_hi=g.pad_hi[:-1] + (0,))
    return xp, g2


def _vendor_path(x, w, b, y, g):
    dev = y.device
    if dev.kind == "cpu":
        G, cog = g.groups, g.c_out // g.groups
        k = (g.c_in // G) * _prod(g.kernel)
        os_ = _prod(g.out)
        yv = y.reshape((g.n, G, cog, os_))
        wv = w.reshape((1, G, cog, k))
        per_sample = G * k * os_ * y.itemsize
        nb = max(1, COL_BYTES // max(1, per_sample))
        pointwise = (all(t == 1 for t in g.kernel + g.stride)
                     and not any(g.pad_lo + g.pad_hi))
        if pointwise:           # 1x1, stride 1, no padding: the input is its im2col
            nb = g.n
        for n0 in range(0, g.n, nb):
            n1 = min(g.n, n0 + nb)
            col = (x.reshape((g.n, G, k, os_))[n0:n1] if pointwise
                   else im2col(x, g, n0, n1))
            c = yv[n0:n1]
            a = _core.broadcast_to(wv, (n1 - n0, G, cog, k))
            if G > 1 and n1 - n0 > G:
                # gemm walks the first batch axis on the host (the broadcast weight keeps
                # the two axes from merging): walk the shorter one
                c, a, col = (t.swapaxes(0, 1) for t in (c, a, col))
            gemm(c, a, col)
    else:
        dnn.conv_forward(x, w, y, g)
    if b is not None:
        y += b.reshape((1, g.c_out) + (1,) * g.nd)


def _requested(algorithm):
    """The path asked for: ``algorithm``, else GARRAY_CONV (default 'auto')."""
    if algorithm is not None:
        return algorithm
    return _env.choice("GARRAY_CONV", ("auto", "kernel", "vendor"), "auto")


def _conv(fn, nd, input, weight, bias, stride, padding, dilation, groups, algorithm):
    dtype, device = check_operands(fn, input=input, weight=weight, bias=bias)
    if input.ndim == nd + 1:      # PyTorch's unbatched (C_in, *spatial)
        return _conv(fn, nd, input[None], weight, bias, stride, padding, dilation, groups,
                     algorithm)[0]
    g = conv_geometry(fn, nd, input, weight, stride, padding, dilation, groups)
    if bias is not None and tuple(bias.shape) != (g.c_out,):
        raise ValueError(f"{fn}: bias must have shape ({g.c_out},) (the weight's output "
                         f"channels, weight shape {g.weight_shape}), got {tuple(bias.shape)}")
    path = resolve_algorithm(fn, algorithm, device, dtype, g=g)
    if (path == "vendor" and device.kind == "cpu" and g.c_in == g.groups
            and _requested(algorithm) == "auto"):
        # depthwise on the CPU device: a GEMM of one row per group is a matrix-vector
        # product, and the direct kernel reads the input once instead of writing a
        # taps-times larger col buffer and making one small BLAS call per group
        # (docs/convolution.md, Performance)
        path = "kernel"
    y = _core.empty(g.output_shape, dtype=dtype, device=device)
    if y.size == 0:
        return y
    x = ascontiguousarray(input)
    w = ascontiguousarray(weight)
    b = None if bias is None else ascontiguousarray(bias)
    if path == "vendor":
        _vendor_path(x, w, b, y, g)
    else:
        _kernel_path(x, w, b, y, g)
    return y


_DOC = """{nd}-d convolution (cross-correlation) of ``input`` by ``weight``, as
    ``torch.nn.functional.conv{nd}d``.

    Parameters
    ----------
    input : garray.ndarray
        ``{layout}`` (or PyTorch's unbatched form without N), float32 or float64, any
        strides.
    weight : garray.ndarray
        ``(C_out, C_in / groups, {kernel})``, input's dtype and device.
    bias : garray.ndarray or None
        ``(C_out,)``, added to every output of its channel.
    stride, dilation : int or tuple of {nd} ints
        Positive.
    padding : int, tuple of {nd} ints, 'valid' or 'same'
        Zero padding on both sides of each spatial axis; 'same' (stride 1 only) pads so
        the output has the input's size, the odd element of the padding at the end.
    groups : int
        Splits the channels into ``groups`` independent convolutions; must divide
        C_in and C_out.
    algorithm : {{None, 'auto', 'kernel', 'vendor'}}, keyword-only
        'kernel': garray's own kernels; 'vendor': im2col + the BLAS GEMM on the CPU
        device, cuDNN / MIOpen on GPUs; 'auto' (None: ``GARRAY_CONV``, default 'auto'):
        the vendor where it computes the dtype.

    Returns
    -------
    garray.ndarray
        ``(N, C_out, {out})``, a new array of the inputs' dtype on their device, where
        ``out = (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1``.

    Raises
    ------
    ValueError
        Wrong rank, channels that ``groups`` does not divide or that do not match the
        weight, a bias of the wrong shape, a kernel larger than the padded input,
        non-positive stride or dilation, negative padding, 'same' with a stride, mixed
        dtypes or devices.
    TypeError
        A dtype other than float32 / float64, an operand that is not a garray array.
    NotImplementedError, BackendUnavailableError
        ``algorithm='vendor'`` where the vendor library lacks the dtype or is missing.

    Notes
    -----
    Differences from PyTorch: no float16 / bfloat16 / complex; no ``padding_mode``
    (zeros only); NumPy arrays are not accepted (``garray.asarray`` them).  float32
    accumulates in float32, as cuDNN and PyTorch do, so results differ from a float64
    computation by rounding.
    """


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, *,
           algorithm=None):
    return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups,
                 algorithm)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, *,
           algorithm=None):
    return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups,
                 algorithm)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, *,
           algorithm=None):
    return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups,
                 algorithm)


conv1d.__doc__ = _DOC.format(nd=1, layout="(N, C_in, W)", kernel="kW", out="oW")
conv2d.__doc__ = _DOC.format(nd=2, layout="(N, C_in, H, W)", kernel="kH, kW", out="oH, oW")
conv3d.__doc__ = _DOC.format(nd=3, layout="(N, C_in, D, H, W)", kernel="kD, kH, kW",
                             out="oD, oH, oW")
