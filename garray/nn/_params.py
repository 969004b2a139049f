"""Argument rules shared by garray.nn's convolutions and pooling.

Note [Convolution geometry]
~~~~~~~~~~~~~~~~~~~~~~~~~~~
1. ``Geometry`` always describes a FORWARD convolution: input ``(n, c_in, *size)``,
   weight ``(c_out, c_in // groups, *kernel)``, output ``(n, c_out, *out)`` with
   ``out = (size + pad_lo + pad_hi - dilation * (kernel - 1) - 1) // stride + 1``.
   Element ``o`` of the output reads input ``o * stride - pad_lo + t * dilation`` for
   kernel tap ``t`` (outside ``[0, size)``: zero).
2. The transposed convolution of ``x`` (``(n, c_in_t, *size_t)``, weight
   ``(c_in_t, c_out_t // groups, *kernel)``) is the backward-input pass of the forward
   convolution whose output is x: so ``transposed_geometry`` returns the forward
   geometry with ``c_in = c_out_t``, ``c_out = c_in_t`` and ``size`` the transposed
   output's (``(size_t - 1) * stride - 2 * padding + dilation * (kernel - 1) +
   output_padding + 1``), and ``out == size_t``.  The weight layout is then the forward
   one unchanged.  One geometry, one set of kernels for forward, both gradients and
   the transposed forms.
3. Kernels see every convolution as 3-d: ``packed()`` is an int64 vector of
   ``PACKED_LEN`` entries (the layout is ``_kernels/garray/conv.h``'s ``ConvGeom``),
   lower ranks padded at the FRONT with unit size, kernel, stride and dilation and zero
   padding.  ``device_geometry(g, device)`` is that vector on a device, cached (a GPU
   launch then costs no host-to-device copy for a shape seen before).
4. Errors: a wrong rank, a channel count that ``groups`` does not divide, a weight
   whose channels do not match, a non-positive stride or dilation, a negative padding,
   a dilated kernel larger than the padded input, mixed dtypes or devices are
   ``ValueError`` naming the function, the argument and the shapes; a dtype the
   convolutions do not compute is ``TypeError``.
"""

import math
import operator
from dataclasses import dataclass

import numpy

from .._args import check_array
from .. import _env
from .._devconst import int64_on
from .._vendor import dnn

__all__ = ["Geometry", "conv_geometry", "transposed_geometry", "check_operands",
           "resolve_algorithm", "device_geometry", "ntuple", "PACKED_LEN", "DTYPES"]

PACKED_LEN = 24
DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
_MAX_BYTES = 2**63 - 1
ALGORITHMS = ("auto", "kernel", "vendor")


def ntuple(value, nd, name, fn, minimum):
    """``value`` (an int or a sequence of ``nd`` ints) as a tuple of ``nd`` ints, each
    ``>= minimum``."""
    if isinstance(value, (bool, numpy.bool_)):
        raise TypeError(f"{fn}: {name} must be an int or a tuple of {nd} ints, got {value!r}")
    try:
        items = (operator.index(value),) * nd
    except TypeError:
        try:
            items = tuple(operator.index(v) for v in value)
        except TypeError:
            raise TypeError(f"{fn}: {name} must be an int or a tuple of {nd} ints, "
                            f"got {value!r}") from None
        if len(items) == 1:
            items = items * nd        # PyTorch repeats a one-element sequence
        if len(items) != nd:
            raise ValueError(f"{fn}: {name} must have {nd} entries, got {value!r}")
    if any(v < minimum for v in items):
        what = "positive" if minimum == 1 else f">= {minimum}"
        raise ValueError(f"{fn}: {name} must be {what}, got {value!r}")
    if any(v > 2**62 for v in items):   # the kernels' geometry and its arithmetic are int64
        raise ValueError(f"{fn}: {name} {value!r} is too large (at most 2**62 per entry)")
    return items


@dataclass(frozen=True)
class Geometry:
    """A forward convolution's sizes (Note [Convolution geometry])."""

    nd: int
    n: int
    c_in: int
    c_out: int
    groups: int
    size: tuple
    kernel: tuple
    out: tuple
    stride: tuple
    pad_lo: tuple
    pad_hi: tuple
    dilation: tuple

    @property
    def input_shape(self):
        return (self.n, self.c_in) + self.size

    @property
    def weight_shape(self):
        return (self.c_out, self.c_in // self.groups) + self.kernel

    @property
    def output_shape(self):
        return (self.n, self.c_out) + self.out

    def packed(self):
        """The int64 vector the kernels read (``ConvGeom`` in _kernels/garray/conv.h)."""
        f = 3 - self.nd

        def three(t, fill):
            return (fill,) * f + tuple(t)
        v = ((self.n, self.c_in, self.c_out, self.groups)
             + three(self.size, 1) + three(self.kernel, 1) + three(self.out, 1)
             + three(self.stride, 1) + three(self.pad_lo, 0) + three(self.dilation, 1))
        v = v + (0,) * (PACKED_LEN - len(v))
        return numpy.array(v, dtype=numpy.int64)

    def macs(self):
        """Multiply-adds of the forward convolution (for launch sizing and benches)."""
        k = 1
        for t in self.kernel:
            k *= t
        o = 1
        for t in self.out:
            o *= t
        return self.n * self.c_out * o * (self.c_in // self.groups) * k


def _padding(padding, nd, fn, kernel, stride, dilation, allow_strings=True):
    """(pad_lo, pad_hi) from an int, a tuple, 'valid' or 'same' (PyTorch's rules: 'same'
    needs stride 1 and puts the odd element of the total padding at the end)."""
    if isinstance(padding, str):
        if not allow_strings:
            raise ValueError(f"{fn}: padding must be an int or a tuple of {nd} ints, "
                             f"got {padding!r}")
        if padding == "valid":
            return (0,) * nd, (0,) * nd
        if padding == "same":
            if any(s != 1 for s in stride):
                raise ValueError(f"{fn}: padding='same' needs stride 1, got stride={stride}")
            total = tuple(d * (k - 1) for d, k in zip(dilation, kernel))
            lo = tuple(t // 2 for t in total)
            return lo, tuple(t - a for t, a in zip(total, lo))
        raise ValueError(f"{fn}: padding must be an int, a tuple of {nd} ints, 'valid' "
                         f"or 'same', got {padding!r}")
    p = ntuple(padding, nd, "padding", fn, 0)
    return p, p


def _shape_of(x):
    return tuple(x.shape) if hasattr(x, "shape") else tuple(x)


def _int_shape(shape, name, fn, rank):
    try:
        shape = tuple(operator.index(v) for v in shape)
    except TypeError:
        raise TypeError(f"{fn}: {name} must be a shape (a tuple of ints), got {shape!r}") from None
    if len(shape) != rank:
        raise ValueError(f"{fn}: {name} must have {rank} dimensions, got shape {shape}")
    if any(v < 0 for v in shape):
        raise ValueError(f"{fn}: {name} has a negative extent: {shape}")
    return shape


_LAYOUT = {1: "(N, C, W)", 2: "(N, C, H, W)", 3: "(N, C, D, H, W)"}


def _fits(fn, shape, what, geometry):
    """``shape`` itself, or ValueError naming ``fn`` when an array of that shape could not
    exist (huge padding or stride): NumPy's limit, its bytes (8 per element, the widest
    dtype here) within an int64, empty extents counted as 1."""
    if math.prod(max(e, 1) for e in shape) * 8 > _MAX_BYTES:
        raise ValueError(f"{fn}: the {what} would have shape {tuple(shape)}, too large for an "
                         f"array ({geometry})")
    return shape


def conv_geometry(fn, nd, input_shape, weight_shape, stride=1, padding=0, dilation=1,
                  groups=1):
    """The forward convolution of an input of ``input_shape`` by a weight of
    ``weight_shape`` (shapes or arrays); raises ValueError/TypeError naming ``fn``."""
    ishape = _int_shape(_shape_of(input_shape), "input", fn, nd + 2)
    wshape = _int_shape(_shape_of(weight_shape), "weight", fn, nd + 2)
    stride = ntuple(stride, nd, "stride", fn, 1)
    dilation = ntuple(dilation, nd, "dilation", fn, 1)
    groups = _groups(groups, fn)
    n, c_in = ishape[:2]
    c_out, c_per = wshape[:2]
    kernel = wshape[2:]
    if c_in % groups or c_out % groups:
        raise ValueError(f"{fn}: groups={groups} must divide the input channels ({c_in}, "
                         f"input shape {ishape}) and the output channels ({c_out}, weight "
                         f"shape {wshape})")
    if c_per * groups != c_in:
        raise ValueError(f"{fn}: weight shape {wshape} expects {c_per * groups} input "
                         f"channels ({c_per} per group x groups={groups}); input shape "
                         f"{ishape} {_LAYOUT[nd]} has {c_in}")
    if any(k < 1 for k in kernel):
        raise ValueError(f"{fn}: weight shape {wshape} has an empty kernel")
    lo, hi = _padding(padding, nd, fn, kernel, stride, dilation)
    out = []
    for i in range(nd):
        span = dilation[i] * (kernel[i] - 1) + 1
        padded = ishape[2 + i] + lo[i] + hi[i]
        if span > padded:
            raise ValueError(f"{fn}: the kernel (size {kernel[i]}, dilation {dilation[i]}: "
                             f"span {span}) is larger than the padded input ({padded}) along "
                             f"spatial axis {i}; input shape {ishape}, weight shape {wshape}, "
                             f"padding {padding!r}")
        out.append((padded - span) // stride[i] + 1)
    _fits(fn, (n, c_out) + tuple(out), "output",
          f"input shape {ishape}, weight shape {wshape}, padding {padding!r}, stride {stride}")
    return Geometry(nd, n, c_in, c_out, groups, ishape[2:], kernel, tuple(out), stride,
                    lo, hi, dilation)


def transposed_geometry(fn, nd, input_shape, weight_shape, stride=1, padding=0,
                        output_padding=0, groups=1, dilation=1):
    """The FORWARD geometry whose backward-input pass is the transposed convolution of
    an input of ``input_shape`` by a weight ``(c_in, c_out // groups, *kernel)``
    (Note [Convolution geometry], 2)."""
    ishape = _int_shape(_shape_of(input_shape), "input", fn, nd + 2)
    wshape = _int_shape(_shape_of(weight_shape), "weight", fn, nd + 2)
    stride = ntuple(stride, nd, "stride", fn, 1)
    dilation = ntuple(dilation, nd, "dilation", fn, 1)
    pad = _padding(padding, nd, fn, wshape[2:], stride, dilation, allow_strings=False)[0]
    opad = ntuple(output_padding, nd, "output_padding", fn, 0)
    groups = _groups(groups, fn)
    n, c_in_t = ishape[:2]
    if wshape[0] != c_in_t:
        raise ValueError(f"{fn}: weight shape {wshape} (C_in, C_out / groups, ...) expects "
                         f"{wshape[0]} input channels; input shape {ishape} has {c_in_t}")
    if c_in_t % groups:
        raise ValueError(f"{fn}: groups={groups} must divide the input channels "
                         f"({c_in_t}, input shape {ishape})")
    for i in range(nd):
        if opad[i] >= max(stride[i], dilation[i]):
            raise ValueError(f"{fn}: output_padding ({opad[i]}) must be smaller than "
                             f"stride ({stride[i]}) or dilation ({dilation[i]}) along "
                             f"spatial axis {i}")
    kernel = wshape[2:]
    size = tuple((ishape[2 + i] - 1) * stride[i] - 2 * pad[i] + dilation[i] * (kernel[i] - 1)
                 + opad[i] + 1 for i in range(nd))
    if any(s < 1 for s in size) or any(e < 1 for e in ishape[2:]):
        raise ValueError(f"{fn}: input shape {ishape}, weight shape {wshape}, stride "
                         f"{stride}, padding {pad}, output_padding {opad}, dilation "
                         f"{dilation} give an empty output {size}")
    fwd_in = _fits(fn, (n, wshape[1] * groups) + size, "output",
                   f"input shape {ishape}, weight shape {wshape}, stride {stride}, "
                   f"dilation {dilation}")
    g = conv_geometry(fn, nd, fwd_in, (wshape[0], wshape[1]) + kernel, stride, pad,
                      dilation, groups)
    # output_padding extends the forward input past what its output reads: the high
    # padding shrinks by it (it may go negative: those inputs get no gradient), so the
    # forward output is exactly the transposed input
    hi = tuple(p - o for p, o in zip(pad, opad))
    return Geometry(nd, g.n, g.c_in, g.c_out, groups, size, kernel, ishape[2:], stride,
                    pad, hi, dilation)


def _groups(groups, fn):
    if isinstance(groups, (bool, numpy.bool_)):
        raise TypeError(f"{fn}: groups must be an int, got {groups!r}")
    try:
        groups = operator.index(groups)
    except TypeError:
        raise TypeError(f"{fn}: groups must be an int, got {groups!r}") from None
    if groups < 1:
        raise ValueError(f"{fn}: groups must be positive, got {groups}")
    return groups


def check_operands(fn, dtypes=DTYPES, **arrays):
    """The common dtype and device of the named garray arrays (None entries skipped):
    ``ValueError`` naming both when they differ, ``TypeError`` for a dtype outside
    ``dtypes``.  Returns (dtype, device)."""
    first = None
    for name, a in arrays.items():
        if a is None:
            continue
        check_array(a, f"{fn}: {name}")
        if first is None:
            first = (name, a)
            if a.dtype not in dtypes:
                raise TypeError(f"{fn}: {name} has dtype {a.dtype}; {fn} computes "
                                f"{', '.join(str(d) for d in dtypes)}")
            continue
        n0, a0 = first
        if a.dtype != a0.dtype:
            raise ValueError(f"{fn}: {name} has dtype {a.dtype} but {n0} has {a0.dtype} "
                             f"(cast one: mixed dtypes are not promoted)")
        if a.device != a0.device:
            raise ValueError(f"{fn}: {name} is on {a.device} but {n0} is on {a0.device}")
    if first is None:
        raise ValueError(f"{fn}: no operand given")
    return first[1].dtype, first[1].device


def resolve_algorithm(fn, algorithm, device, dtype, op="conv", g=None):
    """"kernel" or "vendor" for ``algorithm`` (None: ``GARRAY_CONV``, default 'auto').

    'auto' picks the vendor path where it computes ``dtype`` on ``device`` (the CPU
    device: im2col + the BLAS GEMM for float32/float64; cuda: cuDNN; hip: MIOpen,
    float32 only) and the library loads; 'vendor' is returned as asked, and the vendor
    path raises NotImplementedError or BackendUnavailableError naming what it lacks.
    ``op`` ("conv" or "pool") is passed to the vendor module's ``supports``; a
    ``Geometry`` ``g``, when given, to its ``supports_geometry`` (GPU devices: cuDNN and
    MIOpen take symmetric padding only)."""
    if algorithm is None:
        algorithm = _env.choice("GARRAY_CONV", ALGORITHMS, "auto")
    elif algorithm not in ALGORITHMS:
        raise ValueError(f"{fn}: algorithm must be 'auto', 'kernel' or 'vendor', "
                         f"got {algorithm!r}")
    if algorithm != "auto":
        return algorithm
    if device.kind == "cpu":
        return "vendor" if op == "conv" and dtype in DTYPES else "kernel"
    return "vendor" if dnn.supports(device.kind, dtype, op) and \
        (g is None or dnn.supports_geometry(device.kind, g)) and \
        dnn.available(device.kind)[0] else "kernel"


def device_geometry(g, device):
    """``g.packed()`` as a garray int64 array on ``device`` (cached; never write to it)."""
    return int64_on(tuple(int(v) for v in g.packed()), device)
