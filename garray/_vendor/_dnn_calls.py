"""cuDNN and MIOpen as ``dnn.py`` calls them: the vendor records, descriptors, the bias
gradient and pooling calls, and the convolution calls with their algorithm choice (Note
[Vendor DNN] in ``dnn.py``, which checks every argument before anything here runs).
"""

import ctypes
from dataclasses import dataclass

import numpy

from . import nvidia_candidates, rocm_candidates
from ._base import Vendor, VendorFamily
from .. import config
from .._core import empty
from .._errors import BackendError

_P, _I, _SZ = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
_IP, _PP, _SZP = ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_void_p), \
    ctypes.POINTER(ctypes.c_size_t)
_F32, _F64 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)
POOL_MODES = ("max", "avg_include_pad", "avg_exclude_pad")
FWD, BWD_DATA, BWD_FILTER = "forward", "backward data", "backward filter"


@dataclass(frozen=True, kw_only=True)
class DnnVendor(Vendor):
    """One vendor's names and numbers (Note [Vendor families]; the code paths differ
    where the APIs do: ``_cudnn_conv`` and ``_miopen_conv`` below)."""

    api: str                     # the symbols' stem: {api}Create{kind}Descriptor
    dtypes: dict                 # numpy dtype -> the vendor's data type enum
    pool_modes: dict             # POOL_MODES -> the vendor's pooling mode


CUDNN = DnnVendor(
    kind="cuda", name="cuDNN", env="GARRAY_CUDNN_LIBRARY",
    install="pip install nvidia-cudnn-cu13",
    candidates=nvidia_candidates("cudnn", "libcudnn.so.9"),
    required=("cudnnCreate", "cudnnConvolutionForward"), api="cudnn",
    create="cudnnCreate", destroy="cudnnDestroy", set_stream="cudnnSetStream",
    error_string="cudnnGetErrorString", last_error="cudnnGetLastErrorString",
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
    required=("miopenCreateWithStream", "miopenConvolutionForward"), api="miopen",
    create="miopenCreateWithStream", create_with_stream=True, destroy="miopenDestroy",
    set_stream="miopenSetStream", error_string="miopenGetErrorString",
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

FAMILY = VendorFamily(
    (CUDNN, MIOPEN), job="GPU vendor DNN library", numbered=True,
    missing="the {kind} device's vendor convolutions need {name}; {install}")


# ---- shapes as the vendors take them --------------------------------------------------


def as_2d(nd, t, fill):
    """A spatial tuple as the vendor takes it: 1-d is 2-d with H = ``fill``."""
    return (fill,) + tuple(t) if nd == 1 else tuple(t)


def tensor_dims(shape, nd):
    return tuple(shape[:2]) + as_2d(nd, shape[2:], 1)


def _strides(dims):
    out, s = [], 1
    for d in reversed(dims):
        out.append(s)
        s *= d
    return tuple(reversed(out))


def ints(values):
    return (_I * len(values))(*values)


class Descs:
    """Descriptors made for one call, destroyed after it (in reverse order)."""

    def __init__(self, vendor, device):
        self.vendor, self.device = vendor, device
        self._made = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for destroy, ptr in reversed(self._made):
            try:
                FAMILY.function(self.vendor, destroy, (_P,))(ptr)
            except Exception:  # never mask the call's own error
                pass

    def make(self, kind):
        p = _P()
        api = self.vendor.api
        FAMILY.call(self.vendor, self.device, f"{api}Create{kind}Descriptor", (_PP,),
                    ctypes.byref(p))
        self._made.append((f"{api}Destroy{kind}Descriptor", p.value))
        return p.value

    def call(self, symbol, argtypes, *args, what=""):
        FAMILY.call(self.vendor, self.device, symbol, argtypes, *args, what=what)

    def tensor(self, dtype, dims):
        d = self.make("Tensor")
        if self.vendor is CUDNN:
            self.call("cudnnSetTensorNdDescriptor", (_P, _I, _I, _IP, _IP), d,
                      self.vendor.dtypes[dtype], len(dims), ints(dims), ints(_strides(dims)),
                      what=f" (dims {dims})")
        else:
            self.call("miopenSetTensorDescriptor", (_P, _I, _I, _IP, _IP), d,
                      self.vendor.dtypes[dtype], len(dims), ints(dims), ints(_strides(dims)),
                      what=f" (dims {dims})")
        return d

    def filter(self, dtype, dims):
        if self.vendor is not CUDNN:       # MIOpen's filters are tensors
            return self.tensor(dtype, dims)
        d = self.make("Filter")
        self.call("cudnnSetFilterNdDescriptor", (_P, _I, _I, _I, _IP), d,
                  self.vendor.dtypes[dtype], 0, len(dims), ints(dims),   # CUDNN_TENSOR_NCHW
                  what=f" (dims {dims})")
        return d

    def convolution(self, dtype, g):
        nd = g.nd
        pad = as_2d(nd, g.pad_lo, 0)
        stride = as_2d(nd, g.stride, 1)
        dil = as_2d(nd, g.dilation, 1)
        what = f" (padding {pad}, stride {stride}, dilation {dil}, groups {g.groups})"
        d = self.make("Convolution")
        if self.vendor is CUDNN:
            t = self.vendor.dtypes[dtype]
            self.call("cudnnSetConvolutionNdDescriptor", (_P, _I, _IP, _IP, _IP, _I, _I), d,
                      len(pad), ints(pad), ints(stride), ints(dil), 1, t, what=what)
            self.call("cudnnSetConvolutionGroupCount", (_P, _I), d, g.groups, what=what)
            # CUDNN_FMA_MATH (3) keeps float32 exact; CUDNN_DEFAULT_MATH (0) allows TF32
            self.call("cudnnSetConvolutionMathType", (_P, _I), d,
                      0 if config.allow_tf32 else 3, what=what)
        else:
            self.call("miopenInitConvolutionNdDescriptor", (_P, _I, _IP, _IP, _IP, _I), d,
                      len(pad), ints(pad), ints(stride), ints(dil), 0, what=what)
            # after Init, which resets the group count to 1
            self.call("miopenSetConvolutionGroupCount", (_P, _I), d, g.groups, what=what)
        return d


def scalars(dtype):
    ctype = ctypes.c_double if dtype == _F64 else ctypes.c_float
    one, zero = ctype(1), ctype(0)
    return one, zero


def _workspace(device, nbytes):
    """``(array or None, pointer)``: a garray allocation of ``nbytes`` on ``device``."""
    if not nbytes:
        return None, None
    ws = empty(int(nbytes), dtype="uint8", device=device)
    return ws, ws.ptr


# ---- bias gradient and pooling -------------------------------------------------------


def bias_gradient(vendor, device, dtype, dy, db, dims, bdims, what):
    """``db`` = ``dy`` summed over all but axis 1, the operands checked
    (``dnn.conv_backward_bias``) and given as tensors of ``dims`` and ``bdims``.
    Returns the symbol called."""
    h = FAMILY.handle(device, vendor)
    one, zero = scalars(dtype)
    symbol = f"{vendor.api}ConvolutionBackwardBias"
    with Descs(vendor, device) as d:
        dyd, dbd = d.tensor(dtype, dims), d.tensor(dtype, bdims)
        d.call(symbol, (_P, _P, _P, _P, _P, _P, _P), h.ptr, ctypes.byref(one), dyd, dy.ptr,
               ctypes.byref(zero), dbd, db.ptr, what=what)
    return symbol


def pool(vendor, device, dtype, x, y, mode, nd, kernel, stride, padding, what):
    """Pooling of ``x`` into ``y``, the operands checked (``dnn.pool_forward``;
    ``padding`` on both sides).  Returns the symbol called."""
    win, pad, st = as_2d(nd, kernel, 1), as_2d(nd, padding, 0), as_2d(nd, stride, 1)
    xdims, ydims = tensor_dims(tuple(x.shape), nd), tensor_dims(tuple(y.shape), nd)
    h = FAMILY.handle(device, vendor)
    one, zero = scalars(dtype)
    m = vendor.pool_modes[mode]
    with Descs(vendor, device) as d:
        xd, yd = d.tensor(dtype, xdims), d.tensor(dtype, ydims)
        pd = d.make("Pooling")
        a, b = ctypes.byref(one), ctypes.byref(zero)
        if vendor is CUDNN:
            d.call("cudnnSetPoolingNdDescriptor", (_P, _I, _I, _I, _IP, _IP, _IP), pd, m,
                   1, len(win), ints(win), ints(pad), ints(st), what=what)   # PROPAGATE_NAN
            symbol = "cudnnPoolingForward"
            d.call(symbol, (_P, _P, _P, _P, _P, _P, _P, _P), h.ptr, pd, a, xd, x.ptr, b, yd,
                   y.ptr, what=what)
        else:
            d.call("miopenSetNdPoolingDescriptor", (_P, _I, _I, _IP, _IP, _IP), pd, m,
                   len(win), ints(win), ints(pad), ints(st), what=what)
            symbol = "miopenPoolingForward"
            d.call(symbol, (_P, _P, _P, _P, _P, _P, _P, _P, ctypes.c_bool, _P, _SZ), h.ptr,
                   pd, a, xd, x.ptr, b, yd, y.ptr, False, None, 0, what=what)
    return symbol


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


def convolve(vendor, device, direction, g, dtype, x, w, y, what):
    """One convolution call, its operands checked (``dnn._conv``): ``x`` input, ``w``
    weight, ``y`` output of the FORWARD geometry ``g``.  Returns the symbol called."""
    nd = g.nd
    xdims = tensor_dims(g.input_shape, nd)
    wdims = tensor_dims(g.weight_shape, nd)
    ydims = tensor_dims(g.output_shape, nd)
    h = FAMILY.handle(device, vendor)
    one, zero = scalars(dtype)
    with Descs(vendor, device) as d:
        xd, wd, yd = d.tensor(dtype, xdims), d.filter(dtype, wdims), d.tensor(dtype, ydims)
        cd = d.convolution(dtype, g)
        run = _cudnn_conv if vendor is CUDNN else _miopen_conv
        return run(d, h, direction, g, dtype, xd, x.ptr, wd, w.ptr, cd, yd, y.ptr, one,
                   zero, what)


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


