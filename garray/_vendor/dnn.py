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
2. Libraries: ``VendorLibrary`` objects (Note [Vendor libraries]), found on first use.
   cuDNN: ``$GARRAY_CUDNN_LIBRARY``, then cuda-pathfinder's
   ``load_nvidia_dynamic_lib("cudnn")`` (the nvidia-cudnn-cu13 wheel, then the system),
   then the soname ``libcudnn.so.9``.  cuDNN 9's ``libcudnn.so.9`` is a small shim that
   exports the whole legacy API and loads its sub-libraries itself: it is the only one
   opened.  MIOpen: ``$GARRAY_MIOPEN_LIBRARY``, ``libMIOpen.so.1`` (its SOVERSION),
   ``libMIOpen.so``, ``$ROCM_PATH/lib``.  A missing one is a
   ``BackendUnavailableError`` naming the package and the variable.
3. Handles: one per (device, thread), created with the device current, the stream set
   only when it changes: ``_handles.HandlePool``, shared with the vendor GEMM (Note
   [Vendor handles]).  MIOpen handles are made with ``miopenCreateWithStream(.., 0)``:
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

import ctypes
import functools
import threading
from dataclasses import dataclass
from typing import Callable

import numpy

from . import VendorLibrary, _handles, nvidia_candidates, rocm_candidates
from .. import config
from .._errors import BackendError

__all__ = ["available", "supports", "supports_geometry", "conv_forward",
           "conv_backward_data", "conv_backward_filter", "conv_backward_bias",
           "pool_forward", "library", "reset", "handle"]

_P, _I, _SZ = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
_IP, _PP, _SZP = ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_void_p), \
    ctypes.POINTER(ctypes.c_size_t)
_INT_MAX = 2 ** 31 - 1
_F32, _F64 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)
POOL_MODES = ("max", "avg_include_pad", "avg_exclude_pad")
FWD, BWD_DATA, BWD_FILTER = "forward", "backward data", "backward filter"


@dataclass(frozen=True)
class DnnVendor:
    """One vendor's library, names and numbers (the code paths differ where the APIs
    do: ``_Cudnn`` and ``_Miopen`` below)."""

    kind: str
    name: str
    env: str
    install: str
    candidates: Callable[[], list]
    create: str
    destroy: str
    set_stream: str
    error_string: str
    dtypes: dict                 # numpy dtype -> the vendor's data type enum
    pool_modes: dict             # POOL_MODES -> the vendor's pooling mode
    statuses: dict               # fallback names when the library's string is missing


CUDNN = DnnVendor(
    kind="cuda", name="cuDNN", env="GARRAY_CUDNN_LIBRARY",
    install="pip install nvidia-cudnn-cu13",
    candidates=nvidia_candidates("cudnn", "libcudnn.so.9"),
    create="cudnnCreate", destroy="cudnnDestroy", set_stream="cudnnSetStream",
    error_string="cudnnGetErrorString",
    dtypes={_F32: 0, _F64: 1},                   # CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE
    pool_modes={"max": 0, "avg_include_pad": 1, "avg_exclude_pad": 2},
    statuses={0: "CUDNN_STATUS_SUCCESS", 1001: "CUDNN_STATUS_NOT_INITIALIZED",
              2000: "CUDNN_STATUS_BAD_PARAM", 3000: "CUDNN_STATUS_NOT_SUPPORTED",
              4000: "CUDNN_STATUS_INTERNAL_ERROR", 5000: "CUDNN_STATUS_EXECUTION_FAILED"},
)

MIOPEN = DnnVendor(
    kind="hip", name="MIOpen", env="GARRAY_MIOPEN_LIBRARY",
    install="install ROCm's MIOpen (the miopen-hip package of ROCm)",
    candidates=rocm_candidates("libMIOpen.so.1", "libMIOpen.so"),
    create="miopenCreateWithStream", destroy="miopenDestroy", set_stream="miopenSetStream",
    error_string="miopenGetErrorString",
    dtypes={_F32: 1},                            # miopenFloat
    # miopenPoolingMax, miopenPoolingAverageInclusive, miopenPoolingAverage (exclusive)
    pool_modes={"max": 0, "avg_include_pad": 2, "avg_exclude_pad": 1},
    statuses=dict(enumerate((
        "miopenStatusSuccess", "miopenStatusNotInitialized", "miopenStatusInvalidValue",
        "miopenStatusBadParm", "miopenStatusAllocFailed", "miopenStatusInternalError",
        "miopenStatusNotImplemented", "miopenStatusUnknownError",
        "miopenStatusUnsupportedOp", "miopenStatusGpuOperationsSkipped",
        "miopenStatusVersionMismatch"))),
)

VENDORS = {v.kind: v for v in (CUDNN, MIOPEN)}

library = {v.kind: VendorLibrary(
    v.name, env=v.env, candidates=v.candidates,
    missing=f"the {v.kind} device's vendor convolutions need {v.name}; {v.install}",
    required=(v.create, "miopenConvolutionForward" if v is MIOPEN else "cudnnConvolutionForward"))
    for v in VENDORS.values()}

_functions = {}          # (kind, symbol) -> ctypes function
_lock = threading.Lock()


def available(kind):
    """``(True, library path)`` when ``kind``'s vendor DNN library loads, else
    ``(False, reason)``; never raises.

    Parameters
    ----------
    kind : str
        A device kind: "cuda" (cuDNN) or "hip" (MIOpen); anything else is (False, why).
    """
    try:
        lib = library.get(kind)
        if lib is None:
            return False, f"{kind}: no GPU vendor DNN library for this device kind " \
                          f"(cuda: cuDNN, hip: MIOpen)"
        return lib.available()
    except Exception as e:  # a broken install must not break the caller's fallback
        return False, f"{kind}: {type(e).__name__}: {e}"


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


def reset():
    """Forget the libraries found, their functions and every thread's handles (tests
    change ``$GARRAY_CUDNN_LIBRARY`` / ``$GARRAY_MIOPEN_LIBRARY`` and look again)."""
    with _lock:
        for lib in library.values():
            lib.reset()
        _functions.clear()
        for pool in _pools.values():
            pool.reset()


def _function(vendor, symbol, argtypes, restype=_I):
    key = (vendor.kind, symbol)
    fn = _functions.get(key)
    if fn is None:
        fn = _functions[key] = library[vendor.kind].function(symbol, restype, *argtypes)
    return fn


def _status_name(vendor, status):
    try:
        name = _function(vendor, vendor.error_string, (_I,), ctypes.c_char_p)(status)
        if name and not name.startswith(b"Unknown") and b"UNKNOWN" not in name:
            return name.decode()
    except Exception:  # the name is a courtesy: the status number is always given
        pass
    return vendor.statuses.get(status, f"status {status}")


def _last_error(vendor):
    """cuDNN 9's reason for this thread's last failure (``cudnnGetLastErrorString``)."""
    if vendor is not CUDNN:
        return ""
    try:
        fn = _function(vendor, "cudnnGetLastErrorString", (ctypes.c_char_p, _SZ), None)
        buf = ctypes.create_string_buffer(512)
        fn(buf, 512)
        text = buf.value.decode(errors="replace").strip()
        return f"; {text}" if text else ""
    except Exception:
        return ""


def _call(vendor, device, symbol, argtypes, *args, what=""):
    status = _function(vendor, symbol, argtypes)(*args)
    if status:
        raise BackendError(f"{device}: {vendor.name} {symbol} failed: "
                           f"{_status_name(vendor, status)} ({status}){what}"
                           f"{_last_error(vendor)}")


def _create(vendor, device):
    out = _P()
    if vendor is MIOPEN:
        _call(vendor, device, vendor.create, (_PP, _P), ctypes.byref(out), None)
    else:
        _call(vendor, device, vendor.create, (_PP,), ctypes.byref(out))
    return out.value


def _destroy(vendor, device, ptr):
    _function(vendor, vendor.destroy, (_P,))(ptr)


def _set_stream(vendor, device, ptr, stream):
    _call(vendor, device, vendor.set_stream, (_P, _P), ptr, stream)


_pools = {v.kind: _handles.HandlePool(functools.partial(_create, v),
                                      functools.partial(_destroy, v),
                                      functools.partial(_set_stream, v))
          for v in VENDORS.values()}


def handle(device):
    """This thread's vendor DNN handle of ``device`` (an int), created on first use
    with the device current on this thread."""
    vendor = VENDORS.get(getattr(device, "kind", None))
    if vendor is None:
        raise ValueError(f"device: GPU vendor DNN handles exist for cuda and hip devices, "
                         f"got {device!r}")
    return _pools[vendor.kind].get(device).ptr


# ---- argument checks ----------------------------------------------------------------


def _check_arrays(fn, op, arrays):
    """``arrays``: (name, array, expected shape) triples.  Returns (vendor, dtype,
    device); raises what the contract says (Note [Vendor DNN], 1)."""
    from .._core import ndarray
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
    from ..nn._params import Geometry
    if not isinstance(g, Geometry):
        raise TypeError(f"{fn}: g must be a garray.nn._params.Geometry, "
                        f"got {type(g).__name__}")
    problem = _geometry_problem(g)
    if problem is not None:
        raise NotImplementedError(f"{fn}: cuDNN and MIOpen cannot express {problem}; "
                                  f"the kernel path (GARRAY_CONV=kernel) computes it")


def _fill_zero(a):
    a.fill(0)


# ---- shapes as the vendors take them --------------------------------------------------


def _as_2d(nd, t, fill):
    """A spatial tuple as the vendor takes it: 1-d is 2-d with H = ``fill``."""
    return (fill,) + tuple(t) if nd == 1 else tuple(t)


def _tensor_dims(shape, nd):
    return tuple(shape[:2]) + _as_2d(nd, shape[2:], 1)


def _strides(dims):
    out, s = [], 1
    for d in reversed(dims):
        out.append(s)
        s *= d
    return tuple(reversed(out))


def _ints(values):
    return (_I * len(values))(*values)


class _Descs:
    """Descriptors made for one call, destroyed after it (in reverse order)."""

    def __init__(self, vendor, device):
        self.vendor, self.device = vendor, device
        self._made = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for destroy, ptr in reversed(self._made):
            try:
                _function(self.vendor, destroy, (_P,))(ptr)
            except Exception:  # never mask the call's own error
                pass

    def make(self, kind):
        p = _P()
        prefix = "cudnn" if self.vendor is CUDNN else "miopen"
        _call(self.vendor, self.device, f"{prefix}Create{kind}Descriptor", (_PP,),
              ctypes.byref(p))
        self._made.append((f"{prefix}Destroy{kind}Descriptor", p.value))
        return p.value

    def call(self, symbol, argtypes, *args, what=""):
        _call(self.vendor, self.device, symbol, argtypes, *args, what=what)

    def tensor(self, dtype, dims):
        d = self.make("Tensor")
        if self.vendor is CUDNN:
            self.call("cudnnSetTensorNdDescriptor", (_P, _I, _I, _IP, _IP), d,
                      self.vendor.dtypes[dtype], len(dims), _ints(dims), _ints(_strides(dims)),
                      what=f" (dims {dims})")
        else:
            self.call("miopenSetTensorDescriptor", (_P, _I, _I, _IP, _IP), d,
                      self.vendor.dtypes[dtype], len(dims), _ints(dims), _ints(_strides(dims)),
                      what=f" (dims {dims})")
        return d

    def filter(self, dtype, dims):
        if self.vendor is not CUDNN:       # MIOpen's filters are tensors
            return self.tensor(dtype, dims)
        d = self.make("Filter")
        self.call("cudnnSetFilterNdDescriptor", (_P, _I, _I, _I, _IP), d,
                  self.vendor.dtypes[dtype], 0, len(dims), _ints(dims),   # CUDNN_TENSOR_NCHW
                  what=f" (dims {dims})")
        return d

    def convolution(self, dtype, g):
        nd = g.nd
        pad = _as_2d(nd, g.pad_lo, 0)
        stride = _as_2d(nd, g.stride, 1)
        dil = _as_2d(nd, g.dilation, 1)
        what = f" (padding {pad}, stride {stride}, dilation {dil}, groups {g.groups})"
        d = self.make("Convolution")
        if self.vendor is CUDNN:
            t = self.vendor.dtypes[dtype]
            self.call("cudnnSetConvolutionNdDescriptor", (_P, _I, _IP, _IP, _IP, _I, _I), d,
                      len(pad), _ints(pad), _ints(stride), _ints(dil), 1, t, what=what)
            self.call("cudnnSetConvolutionGroupCount", (_P, _I), d, g.groups, what=what)
            # CUDNN_FMA_MATH (3) keeps float32 exact; CUDNN_DEFAULT_MATH (0) allows TF32
            self.call("cudnnSetConvolutionMathType", (_P, _I), d,
                      0 if config.allow_tf32 else 3, what=what)
        else:
            self.call("miopenInitConvolutionNdDescriptor", (_P, _I, _IP, _IP, _IP, _I), d,
                      len(pad), _ints(pad), _ints(stride), _ints(dil), 0, what=what)
            # after Init, which resets the group count to 1
            self.call("miopenSetConvolutionGroupCount", (_P, _I), d, g.groups, what=what)
        return d


def _scalars(dtype):
    ctype = ctypes.c_double if dtype == _F64 else ctypes.c_float
    one, zero = ctype(1), ctype(0)
    return one, zero


def _workspace(device, nbytes):
    """``(array or None, pointer)``: a garray allocation of ``nbytes`` on ``device``."""
    if not nbytes:
        return None, None
    from .. import empty
    ws = empty(int(nbytes), dtype="uint8", device=device)
    return ws, ws.ptr


def _finish(vendor, device, symbol):
    if _handles.sync_calls:
        try:
            device.synchronize()
        except Exception as e:
            raise BackendError(f"{device}: {vendor.name} {symbol} failed: {e}") from None


# ---- convolutions ---------------------------------------------------------------------

class _CudnnAlgoPerf(ctypes.Structure):
    # cudnnConvolution{Fwd,BwdData,BwdFilter}AlgoPerf_t: one layout for the three
    _fields_ = [("algo", ctypes.c_int), ("status", ctypes.c_int), ("time", ctypes.c_float),
                ("memory", ctypes.c_size_t), ("determinism", ctypes.c_int),
                ("mathType", ctypes.c_int), ("reserved", ctypes.c_int * 3)]


class _MiopenAlgoPerf(ctypes.Structure):
    # miopenConvAlgoPerf_t: a union of the three algorithm enums, then time and memory
    _fields_ = [("algo", ctypes.c_int), ("time", ctypes.c_float), ("memory", ctypes.c_size_t)]


_CUDNN_NAMES = {FWD: "Forward", BWD_DATA: "BackwardData", BWD_FILTER: "BackwardFilter"}
_MIOPEN_NAMES = {FWD: "Forward", BWD_DATA: "BackwardData", BWD_FILTER: "BackwardWeights"}
_PERF_COUNT = 8


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
    nd = g.nd
    xdims = _tensor_dims(g.input_shape, nd)
    wdims = _tensor_dims(g.weight_shape, nd)
    ydims = _tensor_dims(g.output_shape, nd)
    what = (f" ({roles[0]} {g.input_shape}, {roles[1]} {g.weight_shape}, {roles[2]} "
            f"{g.output_shape}, {dtype}, stride {g.stride}, padding {g.pad_lo}, dilation "
            f"{g.dilation}, groups {g.groups})")
    h = _pools[vendor.kind].get(device)
    h.use_stream(_handles.stream_of(device))
    one, zero = _scalars(dtype)
    with _Descs(vendor, device) as d:
        xd, wd, yd = d.tensor(dtype, xdims), d.filter(dtype, wdims), d.tensor(dtype, ydims)
        cd = d.convolution(dtype, g)
        if vendor is CUDNN:
            symbol = _cudnn_conv(d, h, direction, g, dtype, xd, x.ptr, wd, w.ptr, cd, yd,
                                 y.ptr, one, zero, what)
        else:
            symbol = _miopen_conv(d, h, direction, g, dtype, xd, x.ptr, wd, w.ptr, cd, yd,
                                  y.ptr, one, zero, what)
    _finish(vendor, device, symbol)


def _cudnn_conv(d, h, direction, g, dtype, xd, x, wd, w, cd, yd, y, one, zero, what):
    name = _CUDNN_NAMES[direction]
    # the descriptors in each call's own order
    descs = {FWD: (xd, wd, cd, yd), BWD_DATA: (wd, yd, cd, xd),
             BWD_FILTER: (xd, yd, cd, wd)}[direction]
    key = ("cudnn", direction, g, dtype, bool(config.allow_tf32))
    chosen = h.cache.get(key)
    if chosen is None:
        perf = (_CudnnAlgoPerf * _PERF_COUNT)()
        count = _I(0)
        get = f"cudnnGetConvolution{name}Algorithm_v7"
        d.call(get, (_P, _P, _P, _P, _P, _I, _IP, ctypes.POINTER(_CudnnAlgoPerf)), h.ptr,
               *descs, _PERF_COUNT, ctypes.byref(count), perf, what=what)
        ok = [p for p in perf[:count.value] if p.status == 0]
        if not ok:
            raise BackendError(f"{h.device}: cuDNN {get} recommended no algorithm that "
                               f"runs{what}")
        algo = ok[0].algo
        size = _SZ(0)
        d.call(f"cudnnGetConvolution{name}WorkspaceSize", (_P, _P, _P, _P, _P, _I, _SZP),
               h.ptr, *descs, algo, ctypes.byref(size), what=what)
        chosen = h.cache[key] = (algo, size.value)
    algo, nbytes = chosen
    ws, wsp = _workspace(h.device, nbytes)
    symbol = f"cudnnConvolution{name}"
    a, b = ctypes.byref(one), ctypes.byref(zero)
    args = (_P, _P, _P, _P, _P, _P, _P, _I, _P, _SZ, _P, _P, _P)
    if direction == FWD:
        d.call(symbol, args, h.ptr, a, xd, x, wd, w, cd, algo, wsp, nbytes, b, yd, y, what=what)
    elif direction == BWD_DATA:
        d.call(symbol, args, h.ptr, a, wd, w, yd, y, cd, algo, wsp, nbytes, b, xd, x, what=what)
    else:
        d.call(symbol, args, h.ptr, a, xd, x, yd, y, cd, algo, wsp, nbytes, b, wd, w, what=what)
    del ws                         # queued: the stream-ordered pool may reuse it now
    return symbol


def _miopen_conv(d, h, direction, g, dtype, xd, x, wd, w, cd, yd, y, one, zero, what):
    name = _MIOPEN_NAMES[direction]
    key = ("miopen", direction, g, dtype)
    chosen = h.cache.get(key)
    ws = None
    if chosen is None:
        size = _SZ(0)
        sizes = {FWD: (wd, xd, cd, yd), BWD_DATA: (yd, wd, cd, xd),
                 BWD_FILTER: (yd, xd, cd, wd)}[direction]
        d.call(f"miopenConvolution{name}GetWorkSpaceSize", (_P, _P, _P, _P, _P, _SZP), h.ptr,
               *sizes, ctypes.byref(size), what=what)
        ws, wsp = _workspace(h.device, size.value)
        perf = (_MiopenAlgoPerf * 4)()
        count = _I(0)
        # Find on the call's own buffers: it overwrites the output, which the run writes
        operands = {FWD: (xd, x, wd, w, cd, yd, y), BWD_DATA: (yd, y, wd, w, cd, xd, x),
                    BWD_FILTER: (yd, y, xd, x, cd, wd, w)}[direction]
        d.call(f"miopenFind{'Convolution' + name}Algorithm",
               (_P, _P, _P, _P, _P, _P, _P, _P, _I, _IP, ctypes.POINTER(_MiopenAlgoPerf),
                _P, _SZ, ctypes.c_bool), h.ptr, *operands, 4, ctypes.byref(count), perf,
               wsp, size.value, False, what=what)
        if count.value < 1:
            raise BackendError(f"{h.device}: MIOpen miopenFindConvolution{name}Algorithm "
                               f"found no algorithm{what}")
        chosen = h.cache[key] = (perf[0].algo, perf[0].memory)
        if perf[0].memory > size.value:
            ws = None
    algo, nbytes = chosen
    if ws is None or not nbytes:
        ws, wsp = _workspace(h.device, nbytes)
    else:
        wsp = ws.ptr
    symbol = f"miopenConvolution{name}"
    a, b = ctypes.byref(one), ctypes.byref(zero)
    args = (_P, _P, _P, _P, _P, _P, _P, _I, _P, _P, _P, _P, _SZ)
    if direction == FWD:
        d.call(symbol, args, h.ptr, a, xd, x, wd, w, cd, algo, b, yd, y, wsp, nbytes, what=what)
    elif direction == BWD_DATA:
        d.call(symbol, args, h.ptr, a, yd, y, wd, w, cd, algo, b, xd, x, wsp, nbytes, what=what)
    else:
        d.call(symbol, args, h.ptr, a, yd, y, xd, x, cd, algo, b, wd, w, wsp, nbytes, what=what)
    del ws
    return symbol


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
    from .._core import ndarray
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
    h = _pools[vendor.kind].get(device)
    h.use_stream(_handles.stream_of(device))
    one, zero = _scalars(dtype)
    symbol = "cudnnConvolutionBackwardBias" if vendor is CUDNN else \
        "miopenConvolutionBackwardBias"
    with _Descs(vendor, device) as d:
        dyd, dbd = d.tensor(dtype, dims), d.tensor(dtype, bdims)
        d.call(symbol, (_P, _P, _P, _P, _P, _P, _P), h.ptr, ctypes.byref(one), dyd, dy.ptr,
               ctypes.byref(zero), dbd, db.ptr, what=what)
    _finish(vendor, device, symbol)


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
    from .._core import ndarray
    from ..nn._params import ntuple
    if mode not in POOL_MODES:
        raise ValueError(f"{fn}: mode must be one of {', '.join(POOL_MODES)}, got {mode!r}")
    if isinstance(x, ndarray) and not 3 <= x.ndim <= 5:
        raise ValueError(f"{fn}: x must be (N, C, *size) with 1 to 3 spatial axes, got "
                         f"shape {tuple(x.shape)}")
    nd = x.ndim - 2 if isinstance(x, ndarray) else 2
    kernel = ntuple(kernel, nd, "kernel", fn, 1)
    stride = ntuple(stride, nd, "stride", fn, 1)
    pad_lo = ntuple(pad_lo, nd, "pad_lo", fn, 0)
    pad_hi = ntuple(pad_hi, nd, "pad_hi", fn, 0)
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
    win, pad, st = _as_2d(nd, kernel, 1), _as_2d(nd, pad_lo, 0), _as_2d(nd, stride, 1)
    xdims, ydims = _tensor_dims(tuple(x.shape), nd), _tensor_dims(tuple(y.shape), nd)
    what = (f" (x {tuple(x.shape)}, y {tuple(y.shape)}, {dtype}, {mode}, kernel {kernel}, "
            f"stride {stride}, padding {pad_lo})")
    h = _pools[vendor.kind].get(device)
    h.use_stream(_handles.stream_of(device))
    one, zero = _scalars(dtype)
    m = vendor.pool_modes[mode]
    with _Descs(vendor, device) as d:
        xd, yd = d.tensor(dtype, xdims), d.tensor(dtype, ydims)
        pd = d.make("Pooling")
        a, b = ctypes.byref(one), ctypes.byref(zero)
        if vendor is CUDNN:
            d.call("cudnnSetPoolingNdDescriptor", (_P, _I, _I, _I, _IP, _IP, _IP), pd, m,
                   1, len(win), _ints(win), _ints(pad), _ints(st), what=what)   # PROPAGATE_NAN
            symbol = "cudnnPoolingForward"
            d.call(symbol, (_P, _P, _P, _P, _P, _P, _P, _P), h.ptr, pd, a, xd, x.ptr, b, yd,
                   y.ptr, what=what)
        else:
            d.call("miopenSetNdPoolingDescriptor", (_P, _I, _I, _IP, _IP, _IP), pd, m,
                   len(win), _ints(win), _ints(pad), _ints(st), what=what)
            symbol = "miopenPoolingForward"
            d.call(symbol, (_P, _P, _P, _P, _P, _P, _P, _P, ctypes.c_bool, _P, _SZ), h.ptr,
                   pd, a, xd, x.ptr, b, yd, y.ptr, False, None, 0, what=what)
    _finish(vendor, device, symbol)
