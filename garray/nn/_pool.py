"""Max and average pooling with ``torch.nn.functional``'s signatures and semantics.

Every pool is a 3-d one to the kernels (``_kernels/pool.hip``, Note [Pooling kernels]):
lower ranks are padded at the front with unit sizes, as the convolutions do
(``garray/nn/_params.py``).  The design and the differences from PyTorch are in
docs/pooling.md.

Note [Pooling arguments]
~~~~~~~~~~~~~~~~~~~~~~~~
1. Input ``(N, C, *spatial)`` or PyTorch's unbatched ``(C, *spatial)``; N may be 0,
   every other extent must be positive.  float32 and float64.
2. ``stride=None`` (or an empty sequence) means ``kernel_size``.  Output size per axis
   is PyTorch's ``pooling_output_shape``: ``(size + 2 * pad - dil * (k - 1) - 1
   [+ stride - 1 with ceil_mode]) // stride + 1``, and with ``ceil_mode`` one fewer when
   the last window would start at or past ``size + pad`` (it must start inside the
   input or the left padding).
3. PyTorch's checks, as ValueError naming the function, the argument and the shapes:
   kernel, stride and dilation positive, padding non-negative and at most half the
   kernel, every output extent at least 1.
4. ``algorithm`` (garray's own keyword; None: ``GARRAY_CONV``): 'kernel' runs
   _kernels/pool.hip; 'vendor' runs cuDNN / MIOpen (``garray._vendor.dnn.pool_forward``)
   on cuda/hip devices; 'auto' takes the vendor only where it computes PyTorch's result:
   dilation 1, no indices, no divisor_override, a window grid that symmetric padding
   expresses (ceil_mode that needs a larger high padding stays on the kernel), and
   tensors within the vendors' int32 element counts.  The CPU device has no vendor
   pooling: ``algorithm='vendor'`` raises NotImplementedError there and for a case the
   vendor cannot express, while ``GARRAY_CONV=vendor`` (algorithm None) means the vendor
   wherever it can pool and the kernel elsewhere, so a test run under it still pools.
"""

import operator

import numpy

from .. import _dtypes
from .._devconst import int64_on
from .._tables.pool import P_AVG, P_AVG_BWD, P_MAX, P_MAX_BWD, POOL
from ._params import DTYPES, check_operands, ntuple, resolve_algorithm
from .._vendor import dnn
from .._array_utils import ascontiguousarray
from .._core import _family_launch, empty, ndarray
from .._creation.ranges import arange

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d",
           "avg_pool3d", "max_pool1d_backward", "max_pool2d_backward", "max_pool3d_backward",
           "avg_pool1d_backward", "avg_pool2d_backward", "avg_pool3d_backward"]

_LAYOUT = {1: "(N, C, W)", 2: "(N, C, H, W)", 3: "(N, C, D, H, W)"}
_CPU_PER_MAX = 64        # POOL_CPU_PER in _kernels/pool.hip
_debug = {"per": None}
_VENDOR_MAX = 2**31 - 1  # cuDNN / MIOpen describe tensors with int32 counts


def _prod(t):
    p = 1
    for v in t:
        p *= v
    return p


def _debug_per(per=None):
    """Test hook: W outputs per thread on the CPU device (1..64; None: 64).  Returns the
    previous setting.  It never changes a result (Note [Pooling kernels], 3)."""
    old = _debug["per"]
    if per is not None and (not isinstance(per, int) or not 1 <= per <= _CPU_PER_MAX):
        raise ValueError(f"per: expected an int in [1, {_CPU_PER_MAX}] or None, got {per!r}")
    _debug["per"] = per
    return old


def output_size(size, kernel, stride, pad, dilation, ceil_mode):
    """PyTorch's ``pooling_output_shape`` for one axis (Note [Pooling arguments], 2)."""
    num = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = num // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _flag(value, name, fn):
    if isinstance(value, (bool, numpy.bool_)):
        return bool(value)
    try:
        return bool(operator.index(value))
    except TypeError:
        raise TypeError(f"{fn}: {name} must be a bool, got {value!r}") from None


_GEOMETRY_MAX = 2**62       # a window's span and offsets stay inside int64


def _shape_geometry(fn, nd, shape, kernel_size, stride, padding, dilation, ceil_mode,
                    what="input"):
    """Check a pool's arguments for an input of ``shape``; returns (batched, the shape
    as (N, C, *spatial), kernel, stride, pad, dilation, out, ceil_mode)."""
    if len(shape) not in (nd + 1, nd + 2):
        raise ValueError(f"{fn}: expected a {nd + 1}-d (C, ...) or {nd + 2}-d "
                         f"{_LAYOUT[nd]} {what}, got shape {shape}")
    batched = len(shape) == nd + 2
    full = shape if batched else (1,) + shape
    if any(e <= 0 for e in full[1:]) or full[0] < 0:
        raise ValueError(f"{fn}: {what} shape {shape} has an empty channel or spatial "
                         f"extent (only the batch may be empty)")
    kernel = ntuple(kernel_size, nd, "kernel_size", fn, 1)
    if stride is None or (not isinstance(stride, int) and hasattr(stride, "__len__")
                          and len(stride) == 0):
        stride = kernel
    else:
        stride = ntuple(stride, nd, "stride", fn, 1)
    pad = ntuple(padding, nd, "padding", fn, 0)
    dil = ntuple(dilation, nd, "dilation", fn, 1)
    ceil_mode = _flag(ceil_mode, "ceil_mode", fn)
    for name, v in (("kernel_size", kernel), ("stride", stride), ("padding", pad),
                    ("dilation", dil)):
        if max(v) > _GEOMETRY_MAX:      # the kernels' window arithmetic is int64
            raise ValueError(f"{fn}: {name} {v} is too large (at most 2**62 per entry)")
    for i in range(nd):
        if 2 * pad[i] > kernel[i]:
            raise ValueError(f"{fn}: padding should be at most half of kernel_size, got "
                             f"padding={pad}, kernel_size={kernel}")
    size = tuple(full[2:])
    out = tuple(output_size(size[i], kernel[i], stride[i], pad[i], dil[i], ceil_mode)
                for i in range(nd))
    if any(o < 1 for o in out):
        raise ValueError(f"{fn}: {what} shape {shape}, kernel_size {kernel}, stride "
                         f"{stride}, padding {pad}, dilation {dil} give output size "
                         f"{out}: too small (every extent must be at least 1)")
    return batched, full, kernel, stride, pad, dil, out, ceil_mode


def _setup(fn, nd, input, kernel_size, stride, padding, dilation, ceil_mode):
    """Check the arguments; returns (x as (N, C, *spatial), batched, dtype, device,
    kernel, stride, pad, dilation, out)."""
    dtype, device = check_operands(fn, DTYPES, input=input)
    batched, _, kernel, stride, pad, dil, out, ceil_mode = _shape_geometry(
        fn, nd, tuple(input.shape), kernel_size, stride, padding, dilation, ceil_mode)
    x = input if batched else input[None]
    return x, batched, dtype, device, kernel, stride, pad, dil, out, ceil_mode


_device_geom = int64_on     # the packed pool::Geom (_kernels/pool.hip) on a device


def _launch(slot, x, y, idx, nd, kernel, stride, pad, dil, include_pad=True, divisor=0):
    item = x.dtype.itemsize
    if any(s % item for s in x.strides):
        x = ascontiguousarray(x)
    n, c = x.shape[:2]
    f = 3 - nd

    def three(t, fill):
        return (fill,) * f + tuple(t)
    st = tuple(s // item for s in x.strides)
    sn, sc = st[:2]
    sp = (0,) * f + st[2:]
    out = three(y.shape[2:], 1)
    if x.device.kind == "cpu":
        per = _debug["per"] or _CPU_PER_MAX
    else:
        per = 1
    geom = ((n * c, c) + three(x.shape[2:], 1) + three(kernel, 1) + out
            + three(stride, 1) + three(pad, 0) + three(dil, 1) + (sn, sc) + sp
            + (per, int(bool(include_pad)), int(divisor)))
    g = _device_geom(geom, x.device)
    threads = n * c * out[0] * out[1] * (-(-out[2] // per))
    taps = kernel[0] * (kernel[1] if nd > 1 else 1) * (kernel[2] if nd > 2 else 1)
    code = _dtypes.DTYPE_CODE[x.dtype]
    if slot == P_MAX:
        args = (x, y, idx, g, float("-inf"))
    else:
        args = (x, y, g)
    _family_launch(POOL, code, slot, threads, args, y, y.size * taps)


def _vendor_ok(nd, size, kernel, stride, pad, dil, out):
    """Whether cuDNN/MIOpen's symmetric-padding, floor-mode window grid is ``out``."""
    if any(d != 1 for d in dil):
        return False
    return all(output_size(size[i], kernel[i], stride[i], pad[i], 1, False) == out[i]
               for i in range(nd))


def _pool(fn, nd, mode, input, kernel_size, stride, padding, dilation, ceil_mode,
          return_indices=False, count_include_pad=True, divisor_override=None,
          algorithm=None):
    x, batched, dtype, device, kernel, stride, pad, dil, out, ceil_mode = _setup(
        fn, nd, input, kernel_size, stride, padding, dilation, ceil_mode)
    divisor_override = _divisor(divisor_override, fn)
    count_include_pad = _flag(count_include_pad, "count_include_pad", fn)
    return_indices = _flag(return_indices, "return_indices", fn)
    algo = resolve_algorithm(fn, algorithm, device, dtype, op="pool")
    expressible = (not return_indices and divisor_override is None
                   and _vendor_ok(nd, x.shape[2:], kernel, stride, pad, dil, out)
                   and x.size <= _VENDOR_MAX and x.shape[0] * x.shape[1] * _prod(out)
                   <= _VENDOR_MAX)
    if algo == "vendor" and algorithm != "vendor" and (device.kind == "cpu" or not expressible):
        algo = "kernel"       # 'auto', or GARRAY_CONV=vendor: the vendor wherever it can pool
    if algo == "vendor":
        if device.kind == "cpu":
            raise NotImplementedError(f"{fn}: the CPU device has no vendor pooling; use "
                                      f"algorithm='kernel' or 'auto'")
        if not expressible:
            raise NotImplementedError(
                f"{fn}: the vendor pooling cannot express this case (it needs dilation 1, "
                f"no return_indices, no divisor_override and a ceil_mode window grid that "
                f"symmetric padding gives); got dilation {dil}, return_indices="
                f"{return_indices}, divisor_override={divisor_override}, input shape "
                f"{tuple(input.shape)}, kernel_size {kernel}, stride {stride}, padding "
                f"{pad}, ceil_mode={ceil_mode}")
    elif algo == "auto":      # resolve_algorithm never returns it; kept for clarity
        algo = "kernel"
    oshape = tuple(x.shape[:2]) + out
    y = empty(oshape, dtype=dtype, device=device)
    idx = empty(oshape, dtype="int64", device=device) if return_indices else None
    if y.size:
        if algo == "vendor" and expressible:
            _vendor_pool(x, y, nd, mode, kernel, stride, pad, count_include_pad)
        else:
            slot = P_MAX if mode == "max" else P_AVG
            _launch(slot, x, y, idx, nd, kernel, stride, pad, dil, count_include_pad,
                    divisor_override or 0)
    if not batched:
        y = y[0]
        idx = idx[0] if idx is not None else None
    return (y, idx) if return_indices else y


def _shape_arg(shape, fn):
    try:
        return tuple(operator.index(v) for v in shape)
    except TypeError:
        raise TypeError(f"{fn}: input_shape must be a tuple of ints, got {shape!r}") from None


def _pool_backward(fn, nd, mode, grad_output, indices, input_shape, kernel_size, stride,
                   padding, dilation, ceil_mode, count_include_pad=True,
                   divisor_override=None):
    """The gradient with respect to the input of the pool that gave ``grad_output``
    (Note [Pooling kernels], 6)."""
    dtype, device = check_operands(fn, DTYPES, grad_output=grad_output)
    if mode == "max":
        if not isinstance(indices, ndarray):
            raise TypeError(f"{fn}: indices must be a garray array, got "
                            f"{type(indices).__name__}")
        if indices.dtype != numpy.dtype(numpy.int64):
            raise TypeError(f"{fn}: indices must be int64, got {indices.dtype}")
        if indices.device != device:
            raise ValueError(f"{fn}: indices is on {indices.device} but grad_output is on "
                             f"{device}")
    shape = _shape_arg(input_shape, fn)
    batched, full, kernel, stride, pad, dil, out, ceil_mode = _shape_geometry(
        fn, nd, shape, kernel_size, stride, padding, dilation, ceil_mode, "input_shape")
    divisor = _divisor(divisor_override, fn)
    count_include_pad = _flag(count_include_pad, "count_include_pad", fn)
    want = tuple(full[:2]) + out
    if not batched:
        want = want[1:]
    if tuple(grad_output.shape) != want:
        raise ValueError(f"{fn}: grad_output has shape {tuple(grad_output.shape)}; the pool "
                         f"of input_shape {shape} (kernel_size {kernel}, stride {stride}, "
                         f"padding {pad}, dilation {dil}, ceil_mode={ceil_mode}) gives {want}")
    if mode == "max" and tuple(indices.shape) != want:
        raise ValueError(f"{fn}: indices has shape {tuple(indices.shape)}, grad_output "
                         f"{want}")
    if mode == "max" and indices.size:
        _check_max_indices(fn, indices, full[2:], out, kernel, stride, pad, dil)
    gx = empty(full, dtype=dtype, device=device)
    if gx.size:
        gy = ascontiguousarray(grad_output)
        f = 3 - nd

        def three(t, fill):
            return (fill,) * f + tuple(t)
        n, c = full[:2]
        geom = ((n * c, c) + three(full[2:], 1) + three(kernel, 1) + three(out, 1)
                + three(stride, 1) + three(pad, 0) + three(dil, 1) + (0,) * 5
                + (1, int(count_include_pad), divisor or 0))
        g = _device_geom(geom, device)
        taps = 1
        for k in kernel:
            taps *= k
        code = _dtypes.DTYPE_CODE[dtype]
        if mode == "max":
            args = (gy, ascontiguousarray(indices), gx, g, gx.size)
            slot = P_MAX_BWD
        else:
            args = (gy, gx, g, gx.size)
            slot = P_AVG_BWD
        _family_launch(POOL, code, slot, gx.size, args, gx, gx.size * taps)
    return gx if batched else gx[0]


def _check_max_indices(fn, indices, size, out, kernel, stride, pad, dil):
    """Every index is a flat position in the input plane inside its own window: the
    backward kernel gathers each input element's gradient from the windows that cover
    it, so any other index would drop its gradient without a word (PyTorch refuses it
    too).  A few elementwise passes over the indices and one reduction."""
    plane = 1
    for n in size:
        plane *= n
    bad = (indices < 0) | (indices >= plane)
    rest = indices
    nd = len(size)
    for ax in reversed(range(nd)):
        coord = rest % size[ax]
        rest = rest // size[ax]
        o = arange(out[ax], dtype=numpy.int64, device=indices.device)
        o = o.reshape((out[ax],) + (1,) * (nd - 1 - ax))    # along output axis ax
        d = coord - (o * stride[ax] - pad[ax])
        bad = bad | (d < 0) | (d > (kernel[ax] - 1) * dil[ax]) | (d % dil[ax] != 0)
    if bool(bad.any()):
        raise IndexError(f"{fn}: indices: an index is not a position of its window in the "
                         f"input plane of {plane} elements (as max_pool gives them)")


def _divisor(divisor_override, fn):
    if divisor_override is None:
        return None
    if isinstance(divisor_override, (bool, numpy.bool_)):
        raise TypeError(f"{fn}: divisor_override must be an int or None, "
                        f"got {divisor_override!r}")
    try:
        divisor_override = operator.index(divisor_override)
    except TypeError:
        raise TypeError(f"{fn}: divisor_override must be an int or None, "
                        f"got {divisor_override!r}") from None
    if divisor_override == 0:
        raise ValueError(f"{fn}: divisor_override must be nonzero, got 0")
    return divisor_override


def _vendor_pool(x, y, nd, mode, kernel, stride, pad, count_include_pad):
    xc = ascontiguousarray(x)
    yv = y
    if nd == 1:       # cuDNN and MIOpen pool 2-d and 3-d tensors
        xc = xc.reshape(xc.shape[:2] + (1,) + xc.shape[2:])
        yv = y.reshape(y.shape[:2] + (1,) + y.shape[2:])
        kernel, stride, pad = (1,) + kernel, (1,) + stride, (0,) + pad
    if mode == "max":
        vmode = "max"
    else:
        vmode = "avg_include_pad" if count_include_pad else "avg_exclude_pad"
    dnn.pool_forward(xc, yv, vmode, kernel, stride, pad, pad)


# ---- public API --------------------------------------------------------------------

_MAX_DOC = """{nd}-d max pooling over an input ``{layout}`` (or unbatched, without N),
as ``torch.nn.functional.max_pool{nd}d``.

Parameters
----------
input : garray.ndarray
    float32 or float64, ``{layout}`` or ``(C, ...)``; any strides (read in place).
kernel_size : int or tuple of {nd} ints
    The window (positive).
stride : int, tuple of {nd} ints or None
    Window step (positive); None (default) means ``kernel_size``.
padding : int or tuple of {nd} ints
    Implicit -inf padding on both sides, at most half of ``kernel_size``.
dilation : int or tuple of {nd} ints
    Spacing of the window taps (positive).
ceil_mode : bool
    Round the output size up (the last window must start inside the input or the
    left padding).
return_indices : bool
    Also return the int64 index of each maximum, flat over the input's spatial extent
    (PyTorch's layout).
algorithm : {{None, 'auto', 'kernel', 'vendor'}}, keyword-only
    garray's own: None reads ``GARRAY_CONV``; see docs/pooling.md.

Returns
-------
out : garray.ndarray
    ``(N, C, *out)`` (or ``(C, *out)``), the input's dtype; with ``return_indices`` the
    tuple ``(out, indices)``.

Raises
------
TypeError
    A non-garray input, a dtype other than float32/float64, a non-int size argument.
ValueError
    A wrong rank, an empty channel or spatial extent, a non-positive kernel, stride or
    dilation, a negative padding or one larger than half the kernel, an output extent
    below 1 (PyTorch raises RuntimeError for these).
NotImplementedError
    ``algorithm='vendor'`` on the CPU device or for a case the vendor cannot express.

Notes
-----
NaN propagates as in PyTorch: a window holding NaN gives NaN, and its index is the
last NaN's.  Of equal maxima the first is taken.
"""

_AVG_DOC = """{nd}-d average pooling over an input ``{layout}`` (or unbatched, without N),
as ``torch.nn.functional.avg_pool{nd}d``.

Parameters
----------
input : garray.ndarray
    float32 or float64, ``{layout}`` or ``(C, ...)``; any strides (read in place).
kernel_size : int or tuple of {nd} ints
    The window (positive).
stride : int, tuple of {nd} ints or None
    Window step (positive); None (default) means ``kernel_size``.
padding : int or tuple of {nd} ints
    Implicit zero padding on both sides, at most half of ``kernel_size``.
ceil_mode : bool
    Round the output size up (the last window must start inside the input or the
    left padding).
count_include_pad : bool
    Divide by the window clipped to the padded input (True) or to the input (False).
{extra}algorithm : {{None, 'auto', 'kernel', 'vendor'}}, keyword-only
    garray's own: None reads ``GARRAY_CONV``; see docs/pooling.md.

Returns
-------
out : garray.ndarray
    ``(N, C, *out)`` (or ``(C, *out)``), the input's dtype.  A window that holds no
    input element (only possible with ``ceil_mode``) is 0.

Raises
------
TypeError
    A non-garray input, a dtype other than float32/float64, a non-int size argument.
ValueError
    A wrong rank, an empty channel or spatial extent, a non-positive kernel or stride, a
    negative padding or one larger than half the kernel, an output extent below 1{zero}
    (PyTorch raises RuntimeError for these).
NotImplementedError
    ``algorithm='vendor'`` on the CPU device or for a case the vendor cannot express.
"""

_DIVISOR = """divisor_override : int or None
    If given (nonzero), the divisor of every window.
"""


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False, *, algorithm=None):
    return _pool("max_pool1d", 1, "max", input, kernel_size, stride, padding, dilation,
                 ceil_mode, return_indices=return_indices, algorithm=algorithm)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False, *, algorithm=None):
    return _pool("max_pool2d", 2, "max", input, kernel_size, stride, padding, dilation,
                 ceil_mode, return_indices=return_indices, algorithm=algorithm)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False, *, algorithm=None):
    return _pool("max_pool3d", 3, "max", input, kernel_size, stride, padding, dilation,
                 ceil_mode, return_indices=return_indices, algorithm=algorithm)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, *, algorithm=None):
    return _pool("avg_pool1d", 1, "avg", input, kernel_size, stride, padding, 1,
                 ceil_mode, count_include_pad=count_include_pad, algorithm=algorithm)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None, *, algorithm=None):
    return _pool("avg_pool2d", 2, "avg", input, kernel_size, stride, padding, 1,
                 ceil_mode, count_include_pad=count_include_pad,
                 divisor_override=divisor_override, algorithm=algorithm)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None, *, algorithm=None):
    return _pool("avg_pool3d", 3, "avg", input, kernel_size, stride, padding, 1,
                 ceil_mode, count_include_pad=count_include_pad,
                 divisor_override=divisor_override, algorithm=algorithm)


_MAX_BWD_DOC = """The gradient of ``max_pool{nd}d`` with respect to its input.

``grad_input[..., i] = sum of grad_output[..., o]`` over the outputs o whose
``indices[..., o]`` is i (PyTorch's ``max_pool{nd}d_with_indices_backward``).

Parameters
----------
grad_output : garray.ndarray
    float32 or float64, the pool's output shape (batched or not).
indices : garray.ndarray
    int64, the indices ``max_pool{nd}d(..., return_indices=True)`` returned.
input_shape : tuple of ints
    The pooled input's shape, ``{layout}`` or ``(C, ...)``.
kernel_size, stride, padding, dilation, ceil_mode
    The pool's arguments (as ``max_pool{nd}d``).

Returns
-------
grad_input : garray.ndarray
    ``input_shape``, grad_output's dtype.  The sum over outputs is taken in ascending
    output order (a gather: deterministic, no atomics).

Raises
------
TypeError
    Non-garray operands, a dtype other than float32/float64, indices not int64.
ValueError
    The pool's argument errors (as ``max_pool{nd}d``), grad_output or indices not of the
    pool's output shape, operands on different devices.
"""

_AVG_BWD_DOC = """The gradient of ``avg_pool{nd}d`` with respect to its input.

``grad_input[..., i] = sum of grad_output[..., o] / divisor(o)`` over the outputs o
whose window holds i, the divisor as the forward pool's.

Parameters
----------
grad_output : garray.ndarray
    float32 or float64, the pool's output shape (batched or not).
input_shape : tuple of ints
    The pooled input's shape, ``{layout}`` or ``(C, ...)``.
kernel_size, stride, padding, ceil_mode, count_include_pad{extra}
    The pool's arguments (as ``avg_pool{nd}d``).

Returns
-------
grad_input : garray.ndarray
    ``input_shape``, grad_output's dtype (a gather, ascending output order).

Raises
------
TypeError
    A non-garray grad_output, a dtype other than float32/float64.
ValueError
    The pool's argument errors (as ``avg_pool{nd}d``), grad_output not of the pool's
    output shape.
"""


def max_pool1d_backward(grad_output, indices, input_shape, kernel_size, stride=None,
                        padding=0, dilation=1, ceil_mode=False):
    return _pool_backward("max_pool1d_backward", 1, "max", grad_output, indices,
                          input_shape, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d_backward(grad_output, indices, input_shape, kernel_size, stride=None,
                        padding=0, dilation=1, ceil_mode=False):
    return _pool_backward("max_pool2d_backward", 2, "max", grad_output, indices,
                          input_shape, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d_backward(grad_output, indices, input_shape, kernel_size, stride=None,
                        padding=0, dilation=1, ceil_mode=False):
    return _pool_backward("max_pool3d_backward", 3, "max", grad_output, indices,
                          input_shape, kernel_size, stride, padding, dilation, ceil_mode)


def avg_pool1d_backward(grad_output, input_shape, kernel_size, stride=None, padding=0,
                        ceil_mode=False, count_include_pad=True):
    return _pool_backward("avg_pool1d_backward", 1, "avg", grad_output, None, input_shape,
                          kernel_size, stride, padding, 1, ceil_mode, count_include_pad)


def avg_pool2d_backward(grad_output, input_shape, kernel_size, stride=None, padding=0,
                        ceil_mode=False, count_include_pad=True, divisor_override=None):
    return _pool_backward("avg_pool2d_backward", 2, "avg", grad_output, None, input_shape,
                          kernel_size, stride, padding, 1, ceil_mode, count_include_pad,
                          divisor_override)


def avg_pool3d_backward(grad_output, input_shape, kernel_size, stride=None, padding=0,
                        ceil_mode=False, count_include_pad=True, divisor_override=None):
    return _pool_backward("avg_pool3d_backward", 3, "avg", grad_output, None, input_shape,
                          kernel_size, stride, padding, 1, ceil_mode, count_include_pad,
                          divisor_override)


for _nd, _f in ((1, max_pool1d_backward), (2, max_pool2d_backward), (3, max_pool3d_backward)):
    _f.__doc__ = _MAX_BWD_DOC.format(nd=_nd, layout=_LAYOUT[_nd])
for _nd, _f in ((1, avg_pool1d_backward), (2, avg_pool2d_backward),
                (3, avg_pool3d_backward)):
    _f.__doc__ = _AVG_BWD_DOC.format(nd=_nd, layout=_LAYOUT[_nd],
                                     extra="" if _nd == 1 else ", divisor_override")
for _nd, _f in ((1, max_pool1d), (2, max_pool2d), (3, max_pool3d)):
    _f.__doc__ = _MAX_DOC.format(nd=_nd, layout=_LAYOUT[_nd])
for _nd, _f in ((1, avg_pool1d), (2, avg_pool2d), (3, avg_pool3d)):
    _f.__doc__ = _AVG_DOC.format(nd=_nd, layout=_LAYOUT[_nd],
                                 extra="" if _nd == 1 else _DIVISOR,
                                 zero="" if _nd == 1 else ", a zero divisor_override")
del _nd, _f
