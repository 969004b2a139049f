"""The GPU devices' vendor FFT: cuFFT on ``cuda`` devices, hipFFT on ``hip`` devices.

Note [GPU vendor FFT]
~~~~~~~~~~~~~~~~~~~~~
1. ``c2c(x, inverse, scale)``, ``r2c(x, scale)`` and ``c2r(x, n, scale)`` transform the
   rows of a C-contiguous garray array (the last axis; ``garray/fft/_fft.py`` moves the
   axis, pads and casts), exactly as the kernel engine's functions of the same job do,
   and return a new array.  Both vendors compute unnormalised transforms; ``scale`` is
   applied afterwards by garray's multiply kernel when it is not 1.
2. Each vendor is one ``FftVendor`` record (library search, symbol prefix, handle type,
   status names) under the family base (Note [Vendor families] in ``_base.py``); the
   code path is written once.  Libraries are found on first use, never at import; a
   missing one is a ``BackendUnavailableError`` naming the package and the variable
   (``GARRAY_CUFFT_LIBRARY``, ``GARRAY_HIPFFT_LIBRARY``).
3. Plans: ``PlanMany`` of rank 1 over contiguous rows (NULL embeds), one per (type,
   length, batch).  A plan belongs to the device current when it was made, and a plan
   must not run on two threads at once, so plans are cached per thread and per device:
   a bounded LRU (``garray.fft.config.set_plan_cache_size``, default 16 plans per
   thread and device; 0 makes and destroys a plan per call).  An evicted or cleared plan
   is destroyed with its device current; plans are never destroyed at interpreter exit,
   when the driver may be gone.  cuFFT and hipFFT allocate their own work areas.
4. Streams: a plan runs on the stream garray queues the device's work on
   (``FAMILY.stream_of``); its stream is set only when it differs.
   ``GARRAY_SYNC_LAUNCHES=1`` synchronises after each transform.
5. ``c2r``: the vendors may overwrite a complex-to-real transform's input (cuFFT does
   for multi-dimensional and some 1-d sizes), so it always gets a private copy; the
   imaginary parts of the zero-frequency term (and of the Nyquist term for even ``n``)
   are set to zero in that copy first: NumPy ignores them, the vendors assume them zero.
Limits: lengths and batches below 2**31 elements in all (the ``64`` plan entry points are
not used); the caller (``garray/fft/_fft.py``) takes the kernel path for larger ones
under ``GARRAY_FFT=auto`` and raises NotImplementedError under ``vendor``.
"""

import atexit
import ctypes
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy

from . import _handles, nvidia_candidates, rocm_candidates
from ._base import Vendor, VendorFamily
from .._core import empty

__all__ = ["available", "c2c", "r2c", "c2r", "fits", "reset", "plan_cache_size",
           "set_plan_cache_size", "clear_plan_cache", "plan_cache_info"]

_P, _I = ctypes.c_void_p, ctypes.c_int
_INT_MAX = 2 ** 31 - 1
_FORWARD, _INVERSE = -1, 1
# (input dtype, job) -> (type code, Exec suffix, output dtype); the codes are cufftType's
# and hipfftType's (the same numbers).
_C64, _C128 = numpy.dtype(numpy.complex64), numpy.dtype(numpy.complex128)
_F32, _F64 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)
_TYPES = {(_C64, "c2c"): (0x29, "C2C", _C64), (_C128, "c2c"): (0x69, "Z2Z", _C128),
          (_F32, "r2c"): (0x2a, "R2C", _C64), (_F64, "r2c"): (0x6a, "D2Z", _C128),
          (_C64, "c2r"): (0x2c, "C2R", _F32), (_C128, "c2r"): (0x6c, "Z2D", _F64)}
_STATUSES = ("SUCCESS", "INVALID_PLAN", "ALLOC_FAILED", "INVALID_TYPE", "INVALID_VALUE",
             "INTERNAL_ERROR", "EXEC_FAILED", "SETUP_FAILED", "INVALID_SIZE",
             "UNALIGNED_DATA", "INCOMPLETE_PARAMETER_LIST", "INVALID_DEVICE", "PARSE_ERROR",
             "NO_WORKSPACE", "NOT_IMPLEMENTED", "NOT_SUPPORTED")


def _statuses(prefix, not_supported):
    """cufftResult / hipfftResult names: the same list, but NOT_SUPPORTED is cuFFT's 16
    and hipFFT's 15."""
    names = {i: f"{prefix}_{n}" for i, n in enumerate(_STATUSES)}
    names[not_supported] = f"{prefix}_NOT_SUPPORTED"
    return names


@dataclass(frozen=True, kw_only=True)
class FftVendor(Vendor):
    """One vendor's names for what the FFT path calls (Note [Vendor families]); symbols
    are ``prefix`` + PlanMany, ExecC2C, ...  No per-thread handles: plans (note 3)."""

    handle: type                 # ctypes type of a plan handle (cufftHandle is an int)


CUFFT = FftVendor(kind="cuda", name="cuFFT", env="GARRAY_CUFFT_LIBRARY",
                  install="pip install nvidia-cufft (garray[cuda])",
                  candidates=nvidia_candidates("cufft", "libcufft.so.12", "libcufft.so"),
                  prefix="cufft", required=("PlanMany", "ExecC2C", "Destroy"), handle=_I,
                  statuses=_statuses("CUFFT", 16))
HIPFFT = FftVendor(kind="hip", name="hipFFT", env="GARRAY_HIPFFT_LIBRARY",
                   install="install ROCm's hipFFT (the hipfft package of ROCm)",
                   candidates=rocm_candidates("libhipfft.so", "libhipfft.so.0"),
                   prefix="hipfft", required=("PlanMany", "ExecC2C", "Destroy"), handle=_P,
                   statuses=_statuses("HIPFFT", 15))
FAMILY = VendorFamily(
    (CUFFT, HIPFFT), job="vendor FFT",
    missing="the {kind} device's vendor FFT needs {name}; {install}")
VENDORS = FAMILY.vendors
library = FAMILY.library
available = FAMILY.available
_function = FAMILY.function
_lock = threading.Lock()
_exiting = False


@atexit.register
def _at_exit():
    global _exiting
    _exiting = True


def fits(n, batch):
    """Whether a transform of ``batch`` rows of length ``n`` fits the int plan calls."""
    return n <= _INT_MAX and batch <= _INT_MAX and (n + 2) * batch <= _INT_MAX


def _check(vendor, device, symbol, status, what=""):
    if status:
        raise FAMILY.status_error(vendor, device, symbol, status, what)


# ---- plans, cached per thread and device (note 3) ----------------------------------

_cache_size = 16
_generation = 0          # bumped by clear_plan_cache() / reset(): older plans are dropped
_local = threading.local()


class _Plan:
    __slots__ = ("vendor", "device", "handle", "stream", "__weakref__")

    def __init__(self, vendor, device, type_code, n, batch):
        self.vendor, self.device, self.handle = vendor, device, None
        h = vendor.handle()
        nn = (_I * 1)(n)
        status = _function(vendor, "PlanMany", (ctypes.POINTER(vendor.handle), _I,
                                                 ctypes.POINTER(_I), _P, _I, _I, _P, _I,
                                                 _I, _I, _I))(
            ctypes.byref(h), 1, nn, None, 1, n, None, 1, n, type_code, batch)
        _check(vendor, device, "PlanMany", status,
               f" (type {type_code:#x}, n={n}, batch={batch})")
        self.handle = h.value
        self.stream = 0

    def use_stream(self, stream):
        if self.stream != stream:
            _check(self.vendor, self.device, "SetStream",
                   _function(self.vendor, "SetStream", (self.vendor.handle, _P))(
                       self.handle, stream))
            self.stream = stream

    def destroy(self):
        h, self.handle = self.handle, None
        if h is None or _exiting:
            return
        try:
            self.device.runtime.activate()
            _destroy_plan(self.vendor, h)
        except Exception:  # destroying must not raise; the plan is leaked at worst
            pass

    def __del__(self):
        # Dropped unreleased (its thread ended): queued for the next _plan, since a
        # finaliser may run inside a lock the destroy path needs (Note [Vendor handles] 5
        # in _handles.py).
        if self.handle is not None and not _exiting and _handles is not None:
            # (_handles is None once the interpreter has cleared this module at exit)
            _handles.drop(self.device, _destroy_plan, (self.vendor, self.handle))
            self.handle = None


def _destroy_plan(vendor, h):
    _function(vendor, "Destroy", (vendor.handle,))(h)


class _ThreadCache:
    """This thread's plans: device -> OrderedDict((type, n, batch) -> _Plan)."""

    def __init__(self):
        self.generation = _generation
        self.plans = {}
        self.hits = self.misses = 0

    def drop_all(self):
        for od in self.plans.values():
            while od:
                od.popitem(last=False)[1].destroy()
        self.plans = {}


def _thread_cache():
    tc = getattr(_local, "cache", None)
    if tc is None:
        tc = _local.cache = _ThreadCache()
    elif tc.generation != _generation:
        tc.drop_all()
        tc.generation = _generation
    return tc


class _Borrowed:
    """A plan for one call: from the cache, or made for this call alone (cache size 0)."""

    __slots__ = ("plan", "owned")

    def __init__(self, plan, owned):
        self.plan, self.owned = plan, owned

    def __enter__(self):
        return self.plan

    def __exit__(self, *exc):
        if self.owned:
            self.plan.destroy()


def _plan(vendor, device, type_code, n, batch):
    if _handles._dropped:
        _handles.destroy_dropped()
    device.runtime.activate()
    tc = _thread_cache()
    key = (type_code, n, batch)
    od = tc.plans.get(device)
    if od is None:
        od = tc.plans[device] = OrderedDict()
    p = od.get(key)
    if p is not None:
        od.move_to_end(key)
        tc.hits += 1
        return _Borrowed(p, False)
    tc.misses += 1
    p = _Plan(vendor, device, type_code, n, batch)
    limit = _cache_size
    if limit == 0:
        return _Borrowed(p, True)
    od[key] = p
    while len(od) > limit:
        od.popitem(last=False)[1].destroy()
    return _Borrowed(p, False)


def plan_cache_size():
    """The most plans kept per thread and device."""
    return _cache_size


def set_plan_cache_size(size):
    """Keep at most ``size`` plans per thread and device (0: none, a plan per call).
    Lowering the bound drops every thread's cached plans at its next transform."""
    global _cache_size, _generation
    if isinstance(size, bool) or not isinstance(size, (int, numpy.integer)):
        raise TypeError(f"size: expected an int, got {type(size).__name__}")
    size = int(size)
    if size < 0:
        raise ValueError(f"size: must be >= 0, got {size}")
    with _lock:
        if size < _cache_size:
            _generation += 1       # every thread drops its plans at its next transform
        _cache_size = size


def clear_plan_cache():
    """Destroy this thread's cached plans now, and every other thread's at its next
    transform."""
    global _generation
    with _lock:
        _generation += 1
    tc = getattr(_local, "cache", None)
    if tc is not None:
        tc.drop_all()
        tc.generation = _generation


def plan_cache_info():
    """This thread's plan cache: ``{"size": plans, "max_size": ..., "hits": ...,
    "misses": ..., "plans": [(device, type code, n, batch), ...]}`` (oldest first)."""
    tc = _thread_cache()
    plans = [(str(d), *k) for d, od in tc.plans.items() for k in od]
    return {"size": len(plans), "max_size": _cache_size, "hits": tc.hits,
            "misses": tc.misses, "plans": plans}


def reset():
    """Forget the libraries found, their functions and every thread's plans (tests change
    ``$GARRAY_CUFFT_LIBRARY`` / ``$GARRAY_HIPFFT_LIBRARY`` and look again)."""
    clear_plan_cache()
    FAMILY.reset()


# ---- the transforms (note 1) --------------------------------------------------------


def _run(x, job, n, out_shape, inverse=False):
    vendor = FAMILY.vendor_of(x.device, "the vendor FFT runs on")
    type_code, suffix, out_dtype = _TYPES[(x.dtype, job)]
    batch = x.size // max(1, x.shape[-1])
    y = empty(out_shape, dtype=out_dtype, device=x.device)
    if y.size == 0 or x.size == 0:
        return y
    if not fits(n, batch):
        raise NotImplementedError(
            f"fft: {vendor.name} plans here take fewer than 2**31 elements: {batch} rows "
            f"of length {n} (GARRAY_FFT=kernel or auto takes garray's kernels)")
    device = x.device
    with _plan(vendor, device, type_code, n, batch) as plan:
        plan.use_stream(FAMILY.stream_of(device))
        symbol = "Exec" + suffix
        if job == "c2c":
            status = _function(vendor, symbol, (vendor.handle, _P, _P, _I))(
                plan.handle, x.ptr, y.ptr, _INVERSE if inverse else _FORWARD)
        else:
            status = _function(vendor, symbol, (vendor.handle, _P, _P))(
                plan.handle, x.ptr, y.ptr)
        _check(vendor, device, symbol, status, f" (n={n}, batch={batch})")
    FAMILY.finish(vendor, device, symbol)
    return y


def _scaled(y, scale):
    if scale != 1.0:
        y *= scale
    return y


def c2c(x, inverse, scale):
    """The DFT (``inverse``: the unnormalised inverse) of the rows of C-contiguous
    complex64/complex128 ``x``, times ``scale``: a new array."""
    return _scaled(_run(x, "c2c", x.shape[-1], x.shape, inverse), scale)


def r2c(x, scale):
    """The ``n//2 + 1`` non-negative frequency terms of the rows of C-contiguous
    float32/float64 ``x`` (length n), times ``scale``."""
    n = x.shape[-1]
    return _scaled(_run(x, "r2c", n, x.shape[:-1] + (n // 2 + 1,)), scale)


def c2r(x, n, scale):
    """The real rows of length ``n`` whose spectra's first ``n//2 + 1`` terms are the
    rows of C-contiguous complex ``x`` (the inverse of ``r2c``, unnormalised), times
    ``scale`` (note 5: ``x`` is copied, never written)."""
    if x.size == 0:
        return empty(x.shape[:-1] + (n,), dtype=_TYPES[(x.dtype, "c2r")][2],
                     device=x.device)
    z = x.copy()
    z[..., 0] = z[..., 0].real
    if n % 2 == 0:
        z[..., n // 2] = z[..., n // 2].real
    return _scaled(_run(z, "c2r", n, x.shape[:-1] + (n,)), scale)
