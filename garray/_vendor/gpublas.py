"""The GPU devices' vendor GEMM: cuBLAS on ``cuda`` devices, hipBLAS on ``hip`` devices.

Note [GPU vendor GEMM]
~~~~~~~~~~~~~~~~~~~~~~
1. ``gemm(device, dtype, transa, transb, m, n, k, alpha, a, lda, stride_a, b, ldb,
   stride_b, beta, c, ldc, stride_c, batch)`` means exactly what
   ``cublasXgemmStridedBatched`` means: column-major operands, ``C_i = alpha *
   op(A_i) @ op(B_i) + beta * C_i`` for ``i < batch``, ``X_i`` at ``x + i * stride_x``
   elements (a stride of 0 broadcasts one operand over the batch), ``op`` "N", "T" or
   "C" (conjugate transpose).  Pointers are device addresses as ints; ``alpha`` and
   ``beta`` are Python numbers (host pointer mode); ``batch == 1`` uses the plain gemm
   call.  The vendor checks sizes and leading dimensions (cuBLAS ``ld >= max(1, rows)``,
   hipBLAS ``ld >= rows``); its refusal is a ``BackendError``.
2. Each vendor is one ``BlasVendor`` record below (library search, symbol names, enum
   values, status names, math modes) under the family base (Note [Vendor families] in
   ``_base.py``: the library found on first use, never at import, a missing one a
   ``BackendUnavailableError`` naming the package to install and the environment
   variable that overrides the search); the code path is written once.
3. Handles: one per (device, thread), created with the device current on that thread
   (a cuBLAS handle belongs to the context current at its creation, and contexts are per
   thread), kept in a ``threading.local`` and destroyed when its thread ends.  Every call
   makes the device current first, as garray's kernel launches do (Note [Vendor
   handles]).
4. Streams: the call is queued on the stream garray queues the device's work on
   (``FAMILY.handle``: the default stream, where every kernel launch and copy goes), so
   it is ordered with them; a handle's stream is set only when it differs.  Synchronisation
   is a launch's: asynchronous, unless ``GARRAY_SYNC_LAUNCHES=1``, which synchronises
   after each call so that a fault is reported by the GEMM that made it.
5. Precision: full float32 by default.  ``garray.config.allow_tf32 = True`` (or
   ``GARRAY_ALLOW_TF32=1``) selects cuBLAS's ``CUBLAS_TF32_TENSOR_OP_MATH`` for the next
   calls; hipBLAS has no TF32 mode, so on AMD it changes nothing.
Limits: float32, float64, complex64, complex128 (the vendors' GEMMs; integer matmul
is the kernel path's); sizes, leading dimensions and batch below 2**31 (the ``_64`` entry
points are not used); host scalars only.
"""

import ctypes
import operator
from dataclasses import dataclass, field

import numpy

from . import nvidia_candidates, rocm_candidates
from ._base import Vendor, VendorFamily
from .. import config

__all__ = ["gemm", "available", "handle", "library", "reset"]

_P, _I, _LL = ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong
_INT_MAX = 2 ** 31 - 1
# Vendor type letter, ctypes type of one real part, and whether the type is complex.
_TYPES = {numpy.dtype(numpy.float32): ("S", ctypes.c_float, False),
          numpy.dtype(numpy.float64): ("D", ctypes.c_double, False),
          numpy.dtype(numpy.complex64): ("C", ctypes.c_float, True),
          numpy.dtype(numpy.complex128): ("Z", ctypes.c_double, True)}
_GEMM_ARGS = (_P, _I, _I, _I, _I, _I, _P, _P, _I, _P, _I, _P, _P, _I)
_STRIDED_ARGS = (_P, _I, _I, _I, _I, _I, _P, _P, _I, _LL, _P, _I, _LL, _P, _P, _I, _LL, _I)


@dataclass(frozen=True, kw_only=True)
class BlasVendor(Vendor):
    """One vendor's names and numbers for what ``gemm`` calls (Note [Vendor families])."""

    gemm: str                    # {t}: S, D, C or Z
    gemm_strided: str
    ops: dict                    # "N"/"T"/"C" -> the operation enum value
    set_math_mode: str | None = None   # (handle, mode) -> status; None: no math modes
    math_modes: dict = field(default_factory=dict)   # "default"/"tf32" -> mode


CUBLAS = BlasVendor(
    kind="cuda", name="cuBLAS", env="GARRAY_CUBLAS_LIBRARY",
    install="pip install nvidia-cublas (garray[cuda])",
    candidates=nvidia_candidates("cublas", "libcublas.so.13"),
    required=("cublasCreate_v2", "cublasSgemmStridedBatched"),
    create="cublasCreate_v2", destroy="cublasDestroy_v2", set_stream="cublasSetStream_v2",
    gemm="cublas{t}gemm_v2", gemm_strided="cublas{t}gemmStridedBatched",
    ops={"N": 0, "T": 1, "C": 2},
    statuses={0: "CUBLAS_STATUS_SUCCESS", 1: "CUBLAS_STATUS_NOT_INITIALIZED",
              3: "CUBLAS_STATUS_ALLOC_FAILED", 7: "CUBLAS_STATUS_INVALID_VALUE",
              8: "CUBLAS_STATUS_ARCH_MISMATCH", 11: "CUBLAS_STATUS_MAPPING_ERROR",
              13: "CUBLAS_STATUS_EXECUTION_FAILED", 14: "CUBLAS_STATUS_INTERNAL_ERROR",
              15: "CUBLAS_STATUS_NOT_SUPPORTED", 16: "CUBLAS_STATUS_LICENSE_ERROR"},
    # CUBLAS_DEFAULT_MATH keeps float32 exact since cuBLAS 11; TF32 is opt-in.
    set_math_mode="cublasSetMathMode", math_modes={"default": 0, "tf32": 3},
)

HIPBLAS = BlasVendor(
    kind="hip", name="hipBLAS", env="GARRAY_HIPBLAS_LIBRARY",
    install="install ROCm's hipBLAS (the hipblas package of ROCm)",
    candidates=rocm_candidates("libhipblas.so", "libhipblas.so.3", "libhipblas.so.2",
                               "libhipblas.so.1"),
    required=("hipblasCreate", "hipblasSgemmStridedBatched"),
    create="hipblasCreate", destroy="hipblasDestroy", set_stream="hipblasSetStream",
    gemm="hipblas{t}gemm", gemm_strided="hipblas{t}gemmStridedBatched",
    ops={"N": 111, "T": 112, "C": 113},   # hipblasOperation_t has CBLAS's values
    statuses=dict(enumerate((
        "HIPBLAS_STATUS_SUCCESS", "HIPBLAS_STATUS_NOT_INITIALIZED",
        "HIPBLAS_STATUS_ALLOC_FAILED", "HIPBLAS_STATUS_INVALID_VALUE",
        "HIPBLAS_STATUS_MAPPING_ERROR", "HIPBLAS_STATUS_EXECUTION_FAILED",
        "HIPBLAS_STATUS_INTERNAL_ERROR", "HIPBLAS_STATUS_NOT_SUPPORTED",
        "HIPBLAS_STATUS_ARCH_MISMATCH", "HIPBLAS_STATUS_HANDLE_IS_NULLPTR",
        "HIPBLAS_STATUS_INVALID_ENUM", "HIPBLAS_STATUS_UNKNOWN"))),
    # no set_math_mode: hipBLAS has no TF32 (its XF32 mode is MI300-only and unused here)
)

FAMILY = VendorFamily(
    (CUBLAS, HIPBLAS), job="GPU vendor GEMM",
    missing="the {kind} device's vendor GEMM needs {name}; {install}")
VENDORS = FAMILY.vendors
library = FAMILY.library
available = FAMILY.available
reset = FAMILY.reset


def handle(device):
    """This thread's vendor handle of ``device`` (an int), created on first use with the
    device current on this thread."""
    vendor = FAMILY.vendor_of(device, "GPU vendor handles exist for")
    return FAMILY.handle(device, vendor).ptr


_specs = {}   # the dtype argument as given -> (letter, ctype, is complex, numpy dtype)


def _spec_of(dtype, vendor):
    try:
        spec = _specs.get(dtype)
    except TypeError:  # unhashable: not a dtype anyway
        spec = None
    if spec is not None:
        return spec
    try:
        dt = numpy.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype: not a dtype: {dtype!r}") from None
    spec = _TYPES.get(dt)
    if spec is None:
        raise TypeError(f"dtype: {vendor.name} GEMM supports float32, float64, complex64 "
                        f"and complex128, got {dt}")
    spec = spec + (dt,)
    if len(_specs) < 64:
        _specs[dtype] = spec
    return spec


def _op_of(t, name, vendor):
    if not isinstance(t, str) or t.upper() not in vendor.ops:
        raise ValueError(f"{name}: expected 'N', 'T' or 'C', got {t!r}")
    return vendor.ops[t.upper()]


def _size(value, name, minimum=0):
    value = operator.index(value)
    if value < minimum:
        raise ValueError(f"{name}: must be >= {minimum}, got {value}")
    if value > _INT_MAX:
        raise NotImplementedError(f"{name}: {value} does not fit the vendor GEMM's 32-bit "
                                  f"int (the 64-bit-integer _64 entry points are not used)")
    return value


def _scalar(value, name, ctype, is_complex, dtype):
    """A host scalar for the vendor: ``ctype`` (real) or two of them (complex)."""
    if type(value) is float or type(value) is int:
        return (ctype * 2)(value, 0) if is_complex else ctype(value)
    if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, (int, float, complex, numpy.number)):
        raise TypeError(f"{name}: expected a Python number, got {type(value).__name__}")
    z = complex(value)
    if is_complex:
        return (ctype * 2)(z.real, z.imag)
    if z.imag != 0:
        raise TypeError(f"{name}: a complex value ({value!r}) for a {dtype} GEMM")
    return ctype(z.real)


def gemm(device, dtype, transa, transb, m, n, k, alpha, a, lda, stride_a,
         b, ldb, stride_b, beta, c, ldc, stride_c, batch):
    """Strided batched GEMM on a GPU device through its vendor library (column-major,
    exactly as ``cublasXgemmStridedBatched``; Note [GPU vendor GEMM]).

    Args:
        device: a ``garray.Device`` of kind "cuda" (cuBLAS) or "hip" (hipBLAS).
        dtype: float32, float64, complex64 or complex128 (anything ``numpy.dtype`` takes).
        transa, transb: "N", "T" or "C": op(A) is A, A.T or A.conj().T.
        m, n, k: op(A) is m x k, op(B) is k x n, C is m x n.
        alpha, beta: Python numbers (complex only for complex dtypes).
        a, b, c: device pointers (ints) to the first batch's operands.
        lda, ldb, ldc: leading dimensions in elements (column strides).
        stride_a, stride_b, stride_c: elements between batches (0 broadcasts).
        batch: number of products, >= 1.

    Returns None; the call is queued on the device's stream like a kernel launch.
    Raises BackendUnavailableError (library missing: names the package and the variable),
    BackendError (the vendor refused: names the call and the status), TypeError or
    ValueError (bad arguments, named).

    Example::

        gemm(x.device, "float32", "N", "N", n, m, k, 1.0, b.ptr, n, 0, a.ptr, k, 0,
             0.0, c.ptr, n, 0, 1)      # C-order c = a @ b, as column-major c.T = b.T @ a.T

    See also numpy.matmul.
    """
    vendor = FAMILY.vendor_of(device, "the GPU vendor GEMM runs on")
    spec = _spec_of(dtype, vendor)
    letter, ctype, is_complex, dt = spec
    try:
        op_a, op_b = vendor.ops[transa], vendor.ops[transb]
    except (KeyError, TypeError):
        op_a, op_b = _op_of(transa, "transa", vendor), _op_of(transb, "transb", vendor)
    sizes = (m, n, k, lda, ldb, ldc, stride_a, stride_b, stride_c, batch)
    # plain ints in range (what matmul passes) skip the per-argument checks
    if not (all(type(v) is int and 0 <= v <= _INT_MAX for v in sizes) and batch):
        sizes = [_size(v, name, 1 if name == "batch" else 0) for v, name in zip(sizes, (
            "m", "n", "k", "lda", "ldb", "ldc", "stride_a", "stride_b", "stride_c", "batch"))]
    m, n, k, lda, ldb, ldc, stride_a, stride_b, stride_c, batch = sizes
    pa, pb, pc = (p if type(p) is int else operator.index(p) for p in (a, b, c))
    al = _scalar(alpha, "alpha", ctype, is_complex, dt)
    be = _scalar(beta, "beta", ctype, is_complex, dt)

    h = FAMILY.handle(device, vendor)
    if vendor.set_math_mode is not None:
        mode = vendor.math_modes["tf32" if config.allow_tf32 else "default"]
        if h.math_mode != mode:
            FAMILY.call(vendor, device, vendor.set_math_mode, (_P, _I), h.ptr, mode)
            h.math_mode = mode
    if batch == 1:
        symbol = vendor.gemm.format(t=letter)
        status = FAMILY.function(vendor, symbol, _GEMM_ARGS)(
            h.ptr, op_a, op_b, m, n, k, ctypes.addressof(al), pa, lda, pb, ldb,
            ctypes.addressof(be), pc, ldc)
    else:
        symbol = vendor.gemm_strided.format(t=letter)
        status = FAMILY.function(vendor, symbol, _STRIDED_ARGS)(
            h.ptr, op_a, op_b, m, n, k, ctypes.addressof(al), pa, lda, stride_a,
            pb, ldb, stride_b, ctypes.addressof(be), pc, ldc, stride_c, batch)
    if status:
        raise FAMILY.status_error(vendor, device, symbol, status,
                                  f" (op {transa}{transb}, m={m}, n={n}, k={k}, lda={lda}, "
                                  f"ldb={ldb}, ldc={ldc}, batch={batch})")
    FAMILY.finish(vendor, device, symbol)
