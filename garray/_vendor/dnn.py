"""The GPU devices' vendor DNN libraries: cuDNN on ``cuda`` devices, MIOpen on ``hip``
devices (convolution forward and gradients, bias gradient, pooling forward).

Note [Vendor DNN]
~~~~~~~~~~~~~~~~~
1. Contract (what garray.nn's convolutions and pooling call when
   ``resolve_algorithm`` answers "vendor" on a GPU device): every array is a
   C-contiguous garray array of one cuda/hip device and one dtype, ``g`` a
   ``garray.nn._params.Geometry`` (always the FORWARD convolution, Note [Convolution
   geometry]); every function writes its whole output (beta = 0: the old contents are
   never read) and returns None; the call is queued on the device's stream like a
   kernel launch (synchronised after when ``GARRAY_SYNC_LAUNCHES=1``).
       conv_forward(x, w, y, g)            y = conv(x, w)  (cross-correlation)
       conv_backward_data(dy, w, dx, g)    dx = d conv / d x  (= the transposed conv)
       conv_backward_filter(x, dy, dw, g)  dw = d conv / d w
       conv_backward_bias(dy, db)          db[c] = sum of dy[:, c] over n and space
       pool_forward(x, y, mode, kernel, stride, pad_lo, pad_hi)
   ``available(kind)`` never raises; ``supports(kind, dtype, op)`` says which dtypes a
   vendor computes; ``supports_geometry(kind, g)`` says whether it expresses ``g``
   exactly (callers under 'auto' take the kernel path when it does not).
2. Libraries: the family base's (Note [Vendor families] in ``_base.py``), found on
   first use; ``_dnn_calls.py`` holds the two vendors' records and calls, this module
   the contract and the checks.
   cuDNN: ``$GARRAY_CUDNN_LIBRARY``, then cuda-pathfinder's
   ``load_nvidia_dynamic_lib("cudnn")`` (the nvidia-cudnn-cu13 wheel, then the system),
   then the soname ``libcudnn.so.9``.  cuDNN 9's ``libcudnn.so.9`` is a small shim that
   exports the whole legacy API and loads its sub-libraries itself: it is the only one
   opened.  MIOpen: ``$GARRAY_MIOPEN_LIBRARY``, ``libMIOpen.so.1`` (its SOVERSION),
   ``libMIOpen.so``, ``$ROCM_PATH/lib``.  A missing one is a
   ``BackendUnavailableError`` naming the package and the variable.
3. Handles: one per (device, thread), created with the device current, the stream set
   only when it changes (Note [Vendor handles]; ``FAMILY.handle``).  MIOpen handles are made with ``miopenCreateWithStream(.., 0)``:
   the default stream, where garray queues everything.
4. Descriptors are made per call and destroyed after it (host objects; a few
   microseconds).  Tensors are packed NCHW / NCDHW; filters K x C/G x spatial (cuDNN:
   a filter descriptor, format NCHW; MIOpen: a tensor descriptor).  Both vendors
   convolve 4- and 5-dim tensors only: a 1-d convolution or pooling is a 2-d one with
   H = 1 (kernel, stride, dilation 1 and padding 0 along H).
5. Geometry: the vendors take one (symmetric) padding per axis.  A forward geometry
   with ``pad_hi != pad_lo`` is expressed exactly with padding ``pad_lo`` on both sides
   when the vendor's output size for it is the geometry's ``out``: then every output
   reads the same inputs, and backward data/filter touch the same pairs.  That covers
   ``pad_hi < pad_lo`` inside one stride (a transposed convolution's
   ``output_padding``: the gradient ``dx`` of the descriptor's size is exact, its last
   ``output_padding`` positions get what they read, possibly nothing: zero).  It does
   not cover ``pad_hi > pad_lo`` ('same' with an even kernel: the vendor's output would
   be one shorter) nor an output_padding of a stride or more: ``supports_geometry`` is
   False there and the calls raise NotImplementedError naming the case.  Every
   dimension and every tensor's element count must fit cuDNN's and MIOpen's int32.
6. cuDNN facts relied on (cuDNN 9 legacy API): statuses renumbered per thousand
   (``BAD_PARAM`` 2000, ``NOT_SUPPORTED`` 3000, ``EXECUTION_FAILED`` 5000, names from
   ``cudnnGetErrorString``, the reason from ``cudnnGetLastErrorString``); data type
   FLOAT 0, DOUBLE 1, with computeType the same (FLOAT_CONFIG / DOUBLE_CONFIG); mode
   CROSS_CORRELATION 1; ``cudnnSetConvolutionNdDescriptor`` keeps the group count;
   math type ``CUDNN_FMA_MATH`` (3) keeps float32 exact, ``CUDNN_DEFAULT_MATH`` (0)
   lets A100 and later use TF32: chosen only when ``garray.config.allow_tf32``.  The
   algorithm is the first successful one ``cudnnGet...Algorithm_v7`` recommends (no
   benchmarking Find), its workspace from ``cudnnGet...WorkspaceSize``; both are
   cached per handle and problem.  Scaling factors are host floats (doubles for
   double data).  Pooling: ``CUDNN_PROPAGATE_NAN`` for max (NumPy's and PyTorch's
   max propagate NaN).
7. MIOpen facts relied on (MIOpen 3.x C API): statuses 0-10 (``miopenStatusBadParm``
   3, ``NotImplemented`` 6, ``UnknownError`` 7: a HIP fault comes back as this);
   float only here (MIOpen has no double convolution or pooling solver); mode
   ``miopenConvolution`` 0 (cross-correlation); ``miopenInitConvolutionNdDescriptor``
   resets the group count to 1, so ``miopenSetConvolutionGroupCount`` comes after.
   A convolution runs only through an invoker a ``miopenFind...Algorithm`` registered
   on the same handle for the same problem: the first call of a problem on a handle
   runs Find on the call's own buffers (Find overwrites the output it is given, and
   the run then writes it: beta = 0) with a workspace of ``...GetWorkSpaceSize``
   bytes, and caches the algorithm and workspace size of ``perfResults[0]`` on the
   handle (Find is slow on a real GPU).  2-d convolutions, bias gradient and pooling
   take alpha = 1, beta = 0 only, which is all this module passes.  Max pooling
   forward runs with ``do_backward`` false (no index workspace).
8. Workspaces are garray allocations of the device's pool (``garray.empty(nbytes,
   dtype='uint8')``), referenced until the call is queued: the pool is stream-ordered,
   so a later allocation reusing the block is ordered after the call.
9. Empty operands: an empty output is left alone; a non-empty output of empty inputs
   (no input channels, an empty spatial size widened by padding, N = 0 for the
   filter and bias gradients) is filled with zeros by garray's own kernel; the vendors,
   whose descriptors refuse zero extents, are not called.
"""

import operator

import numpy

from ._dnn_calls import (BWD_DATA, BWD_FILTER, FAMILY, FWD, POOL_MODES, bias_gradient,
                         convolve, pool)
from .._core import ndarray

__all__ = ["available", "supports", "supports_geometry", "conv_forward",
           "conv_backward_data", "conv_backward_filter", "conv_backward_bias",
           "pool_forward", "library", "reset", "handle"]

_INT_MAX = 2 ** 31 - 1
VENDORS = FAMILY.vendors
library = FAMILY.library
reset = FAMILY.reset
# The Geometry fields the calls read, checked by name: garray.nn imports this module, so
# importing its Geometry here would be a cycle.
_GEOMETRY_FIELDS = ("nd", "groups", "size", "kernel", "out", "stride", "pad_lo", "pad_hi",
                    "dilation", "input_shape", "weight_shape", "output_shape")


def available(kind):
    """``(True, library path)`` when ``kind``'s vendor DNN library loads, else
    ``(False, reason)``; never raises.

    Parameters
    ----------
    kind : str
        A device kind: "cuda" (cuDNN) or "hip" (MIOpen); anything else is (False, why).
    """
    return FAMILY.available(kind)


def supports(kind, dtype, op="conv"):
    """Whether ``kind``'s vendor library computes ``op`` ("conv" or "pool") in
    ``dtype``: cuDNN float32 and float64, MIOpen float32 only.  Never raises; says
    nothing about whether the library is installed (``available``)."""
    try:
        vendor = VENDORS.get(kind)
        return vendor is not None and op in ("conv", "pool") and \
            numpy.dtype(dtype) in vendor.dtypes
    except Exception:
        return False


def _vendor_out(size, kernel, pad, stride, dilation):
    span = dilation * (kernel - 1) + 1
    return (size + 2 * pad - span) // stride + 1


def _geometry_problem(g):
    """None when the vendors express ``g`` exactly, else the case they cannot."""
    for i in range(g.nd):
        if g.pad_lo[i] != g.pad_hi[i] and \
                _vendor_out(g.size[i], g.kernel[i], g.pad_lo[i], g.stride[i],
                            g.dilation[i]) != g.out[i]:
            return (f"asymmetric padding (pad_lo {g.pad_lo}, pad_hi {g.pad_hi}) that a "
                    f"symmetric padding of pad_lo does not reproduce (spatial axis {i}: "
                    f"the vendors take one padding per axis)")
    for what, v in (("padding", tuple(g.pad_lo) + tuple(g.pad_hi)), ("stride", g.stride),
                    ("dilation", g.dilation)):
        if max(abs(e) for e in v) > _INT_MAX:
            return f"a {what} of {tuple(v)} (over the vendors' 2**31 - 1 int32 limit)"
    for what, shape in (("input", g.input_shape), ("weight", g.weight_shape),
                        ("output", g.output_shape)):
        count = 1
        for e in shape:
            count *= e
        if max(shape) > _INT_MAX or count > _INT_MAX:
            return f"a {what} of shape {shape} (over the vendors' 2**31 - 1 int32 limit)"
    return None


def supports_geometry(kind, g):
    """Whether ``kind``'s vendor expresses the convolution geometry ``g`` exactly
    (Note [Vendor DNN], 5): symmetric padding, or a ``pad_hi < pad_lo`` that does not
    change the output size; every extent and element count below 2**31.  Never raises."""
    try:
        return kind in VENDORS and _geometry_problem(g) is None
    except Exception:
        return False


def handle(device):
    """This thread's vendor DNN handle of ``device`` (an int), created on first use
    with the device current on this thread."""
    vendor = FAMILY.vendor_of(device, "GPU vendor DNN handles exist for")
    return FAMILY.handle(device, vendor).ptr


# ---- argument checks ----------------------------------------------------------------


def _check_arrays(fn, op, arrays):
    """``arrays``: (name, array, expected shape) triples.  Returns (vendor, dtype,
    device); raises what the contract says (Note [Vendor DNN], 1)."""
    first = None
    for name, a, shape in arrays:
        if not isinstance(a, ndarray):
            raise TypeError(f"{fn}: {name} must be a garray array, got {type(a).__name__}")
        if first is None:
            first = (name, a)
        elif a.dtype != first[1].dtype:
            raise ValueError(f"{fn}: {name} has dtype {a.dtype} but {first[0]} has "
                             f"{first[1].dtype}")
        elif a.device != first[1].device:
            raise ValueError(f"{fn}: {name} is on {a.device} but {first[0]} is on "
                             f"{first[1].device}")
        if shape is not None and tuple(a.shape) != tuple(shape):
            raise ValueError(f"{fn}: {name} has shape {tuple(a.shape)}, the geometry "
                             f"expects {tuple(shape)}")
        if not a.flags.c_contiguous:
            raise ValueError(f"{fn}: {name} (shape {tuple(a.shape)}, strides "
                             f"{tuple(a.strides)}) must be C-contiguous")
    a = first[1]
    vendor = VENDORS.get(a.device.kind)
    if vendor is None:
        raise ValueError(f"{fn}: the vendor DNN path runs on cuda (cuDNN) and hip "
                         f"(MIOpen) devices, got arrays on {a.device}")
    if not supports(vendor.kind, a.dtype, op):
        have = " and ".join(str(d) for d in vendor.dtypes)
        raise NotImplementedError(f"{fn}: {vendor.name} ({a.device}) does not compute "
                                  f"{a.dtype} here (it computes {have})")
    return vendor, a.dtype, a.device


def _check_geometry(fn, g):
    if not all(hasattr(g, f) for f in _GEOMETRY_FIELDS):
        raise TypeError(f"{fn}: g must be a garray.nn._params.Geometry, "
                        f"got {type(g).__name__}")
    problem = _geometry_problem(g)
    if problem is not None:
        raise NotImplementedError(f"{fn}: cuDNN and MIOpen cannot express {problem}; "
                                  f"the kernel path (GARRAY_CONV=kernel) computes it")


def _spatial(value, nd, name, fn, minimum):
    """A per-axis argument of the contract: a tuple of ``nd`` ints, each >= ``minimum``
    (garray.nn has expanded an int or a one-element tuple, as PyTorch does)."""
    try:
        items = tuple(operator.index(v) for v in value)
    except TypeError:
        raise TypeError(f"{fn}: {name} must be a tuple of {nd} ints, "
                        f"got {value!r}") from None
    if len(items) != nd:
        raise ValueError(f"{fn}: {name} must have {nd} entries, got {value!r}")
    if any(v < minimum for v in items):
        what = "positive" if minimum == 1 else f">= {minimum}"
        raise ValueError(f"{fn}: {name} must be {what}, got {value!r}")
    return items


def _fill_zero(a):
    a.fill(0)


# ---- convolutions ---------------------------------------------------------------------


def _conv(fn, direction, g, x, w, y):
    """One convolution call: ``x`` input, ``w`` weight, ``y`` output of the FORWARD
    geometry ``g`` whatever the direction (the output written is y for FWD, x for
    BWD_DATA, w for BWD_FILTER)."""
    roles = {FWD: ("x", "w", "y"), BWD_DATA: ("dx", "w", "dy"),
             BWD_FILTER: ("x", "dw", "dy")}[direction]
    _check_geometry(fn, g)
    vendor, dtype, device = _check_arrays(fn, "conv", (
        (roles[0], x, g.input_shape), (roles[1], w, g.weight_shape),
        (roles[2], y, g.output_shape)))
    out = {FWD: y, BWD_DATA: x, BWD_FILTER: w}[direction]
    if out.size == 0:
        return
    if x.size == 0 or w.size == 0 or y.size == 0:
        _fill_zero(out)            # nothing is summed into it (Note [Vendor DNN], 9)
        return
    library[vendor.kind].library()
    what = (f" ({roles[0]} {g.input_shape}, {roles[1]} {g.weight_shape}, {roles[2]} "
            f"{g.output_shape}, {dtype}, stride {g.stride}, padding {g.pad_lo}, dilation "
            f"{g.dilation}, groups {g.groups})")
    symbol = convolve(vendor, device, direction, g, dtype, x, w, y, what)
    FAMILY.finish(vendor, device, symbol)


def conv_forward(x, w, y, g):
    """``y = conv(x, w)``: the forward convolution (cross-correlation) of geometry ``g``
    through cuDNN (cuda devices) or MIOpen (hip devices).

    Parameters
    ----------
    x : garray.ndarray
        Input, ``g.input_shape`` (N, C_in, *size), C-contiguous.
    w : garray.ndarray
        Weight, ``g.weight_shape`` (C_out, C_in / groups, *kernel).
    y : garray.ndarray
        Output, ``g.output_shape``; overwritten (its old contents are not read).
    g : garray.nn._params.Geometry
        The forward geometry (stride, pad_lo/pad_hi, dilation, groups; 1-d to 3-d).

    Returns
    -------
    None; the call is queued on the device's stream.

    Raises
    ------
    TypeError, ValueError
        Not garray arrays, mixed dtypes or devices, shapes other than ``g``'s, a
        non-contiguous array, a device that is not cuda or hip.
    NotImplementedError
        A dtype the vendor does not compute (MIOpen: float64), or a geometry it cannot
        express exactly (``supports_geometry``).
    garray.BackendUnavailableError
        The library is missing (names the package and the variable).
    garray.BackendError
        The vendor refused: names the call, the status and the sizes.

    Notes
    -----
    PyTorch's ``conv{1,2,3}d`` without bias; padding as ``g`` gives it (the vendors
    take it symmetric).
    """
    _conv("conv_forward", FWD, g, x, w, y)


def conv_backward_data(dy, w, dx, g):
    """``dx`` = the gradient of ``conv(x, w)`` with respect to ``x`` for the output
    gradient ``dy`` (also the transposed convolution of ``dy``), geometry ``g``.

    Parameters
    ----------
    dy : garray.ndarray
        ``g.output_shape``.
    w : garray.ndarray
        ``g.weight_shape``.
    dx : garray.ndarray
        ``g.input_shape``; overwritten.  With a transposed convolution's
        output_padding (``pad_hi < pad_lo``) its last positions get the gradient of
        what they read, zero where nothing (Note [Vendor DNN], 5).
    g : garray.nn._params.Geometry

    Returns None.  Raises as ``conv_forward``.
    """
    _conv("conv_backward_data", BWD_DATA, g, dx, w, dy)


def conv_backward_filter(x, dy, dw, g):
    """``dw`` = the gradient of ``conv(x, w)`` with respect to ``w`` for the output
    gradient ``dy``, geometry ``g``.

    Parameters
    ----------
    x : garray.ndarray
        ``g.input_shape``.
    dy : garray.ndarray
        ``g.output_shape``.
    dw : garray.ndarray
        ``g.weight_shape``; overwritten (zero when N is 0).
    g : garray.nn._params.Geometry

    Returns None.  Raises as ``conv_forward``.
    """
    _conv("conv_backward_filter", BWD_FILTER, g, x, dw, dy)


def conv_backward_bias(dy, db):
    """``db[c]`` = the sum of ``dy[:, c]`` over the batch and the spatial axes.

    Parameters
    ----------
    dy : garray.ndarray
        (N, C, *spatial) with 0 to 3 spatial axes, C-contiguous.
    db : garray.ndarray
        (C,); overwritten (zero when N or the spatial size is 0).

    Returns None.  Raises TypeError/ValueError (operands), NotImplementedError (dtype),
    BackendUnavailableError, BackendError, as ``conv_forward``.
    """
    fn = "conv_backward_bias"
    if isinstance(dy, ndarray) and not 2 <= dy.ndim <= 5:
        raise ValueError(f"{fn}: dy must be (N, C, *spatial) with 0 to 3 spatial axes, "
                         f"got shape {tuple(dy.shape)}")
    shape = tuple(dy.shape) if isinstance(dy, ndarray) else None
    vendor, dtype, device = _check_arrays(fn, "conv", (
        ("dy", dy, None), ("db", db, None if shape is None else shape[1:2])))
    if db.size == 0:
        return
    if dy.size == 0:
        _fill_zero(db)
        return
    if any(e > _INT_MAX for e in shape) or dy.size > _INT_MAX:
        raise NotImplementedError(f"{fn}: dy of shape {shape} is over the vendors' "
                                  f"2**31 - 1 int32 limit")
    library[vendor.kind].library()
    # (N, C, *spatial) as a 4-dim (N, C, 1, S) tensor, or 5-dim for 3 spatial axes
    sp = shape[2:]
    dims = shape[:2] + ((1, 1) if not sp else (1,) + sp if len(sp) == 1 else sp)
    bdims = (1, shape[1]) + (1,) * (len(dims) - 2)
    what = f" (dy {shape}, db {tuple(db.shape)}, {dtype})"
    symbol = bias_gradient(vendor, device, dtype, dy, db, dims, bdims, what)
    FAMILY.finish(vendor, device, symbol)


# ---- pooling --------------------------------------------------------------------------


def pool_forward(x, y, mode, kernel, stride, pad_lo, pad_hi):
    """Pooling of ``x`` into ``y`` through cuDNN (cuda) or MIOpen (hip).

    Parameters
    ----------
    x : garray.ndarray
        (N, C, *size) with 1 to 3 spatial axes, C-contiguous.
    y : garray.ndarray
        (N, C, *out) with ``out = (size + 2 * pad - kernel) // stride + 1``;
        overwritten.
    mode : str
        "max" (NaN propagates on cuDNN), "avg_include_pad" (divide by the whole
        window) or "avg_exclude_pad" (by the window's inputs).
    kernel, stride, pad_lo, pad_hi : tuple of int
        One entry per spatial axis; windows and strides positive, padding >= 0.

    Returns None.

    Raises
    ------
    TypeError, ValueError
        Operands as ``conv_forward``; a bad mode, tuple or ``y`` shape (named).
    NotImplementedError
        ``pad_lo != pad_hi`` (the vendors pad symmetrically; ceil_mode), a dtype the
        vendor does not pool (MIOpen: float64), an empty input with a non-empty output.
    garray.BackendUnavailableError, garray.BackendError
        As ``conv_forward``.

    Notes
    -----
    PyTorch's ``max_pool{1,2,3}d`` / ``avg_pool{1,2,3}d`` with ``ceil_mode=False``,
    no dilation, no indices.
    """
    fn = "pool_forward"
    if mode not in POOL_MODES:
        raise ValueError(f"{fn}: mode must be one of {', '.join(POOL_MODES)}, got {mode!r}")
    if isinstance(x, ndarray) and not 3 <= x.ndim <= 5:
        raise ValueError(f"{fn}: x must be (N, C, *size) with 1 to 3 spatial axes, got "
                         f"shape {tuple(x.shape)}")
    nd = x.ndim - 2 if isinstance(x, ndarray) else 2
    kernel = _spatial(kernel, nd, "kernel", fn, 1)
    stride = _spatial(stride, nd, "stride", fn, 1)
    pad_lo = _spatial(pad_lo, nd, "pad_lo", fn, 0)
    pad_hi = _spatial(pad_hi, nd, "pad_hi", fn, 0)
    out = None
    if isinstance(x, ndarray):
        size = tuple(x.shape[2:])
        out = tuple((s + lo + hi - k) // st + 1 for s, lo, hi, k, st in
                    zip(size, pad_lo, pad_hi, kernel, stride))
        if any(s + lo + hi < k for s, lo, hi, k in zip(size, pad_lo, pad_hi, kernel)):
            raise ValueError(f"{fn}: the window {kernel} is larger than the padded input "
                             f"(x shape {tuple(x.shape)}, padding {pad_lo}/{pad_hi})")
        out = tuple(x.shape[:2]) + out
    vendor, dtype, device = _check_arrays(fn, "pool", (("x", x, None), ("y", y, out)))
    if pad_lo != pad_hi:
        raise NotImplementedError(f"{fn}: asymmetric padding (pad_lo {pad_lo}, pad_hi "
                                  f"{pad_hi}): {vendor.name} pads both sides alike")
    if y.size == 0:
        return
    if x.size == 0:
        raise NotImplementedError(f"{fn}: an empty input (shape {tuple(x.shape)}) with a "
                                  f"non-empty output {tuple(y.shape)}")
    for name, shape in (("x", tuple(x.shape)), ("y", tuple(y.shape))):
        count = 1
        for e in shape:
            count *= e
        if count > _INT_MAX:
            raise NotImplementedError(f"{fn}: {name} of shape {shape} is over the "
                                      f"vendors' 2**31 - 1 int32 limit")
    library[vendor.kind].library()
    what = (f" (x {tuple(x.shape)}, y {tuple(y.shape)}, {dtype}, {mode}, kernel {kernel}, "
            f"stride {stride}, padding {pad_lo})")
    symbol = pool(vendor, device, dtype, x, y, mode, nd, kernel, stride, pad_lo, what)
    FAMILY.finish(vendor, device, symbol)
