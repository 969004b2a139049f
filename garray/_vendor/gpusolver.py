"""The GPU devices' vendor dense solver: cuSOLVER on ``cuda`` devices, hipSOLVER on ``hip``
devices (its ``hipsolverDn`` API, which takes cuSOLVER's parameter lists).

Note [GPU vendor solver]
~~~~~~~~~~~~~~~~~~~~~~~~
1. The functions below run one LAPACK-style routine over a stack of column-major
   matrices in garray buffers (Note [LAPACK buffers] in ``garray/linalg/_lapack.py``: the same
   buffers, the same host loop over the batch) and return each matrix's ``info`` as a
   Python list.  ``info`` lives on the device (``devInfo``): one int32 per matrix in one
   buffer, read back once after the loop (that read waits for the device).
2. Routines, in double precision only (garray computes every linalg dtype in float64 or
   complex128, as NumPy): ``getrf``, ``getrs``, ``potrf``, ``syevd``/``heevd``,
   ``geqrf``, ``orgqr``/``ungqr``, ``gesvd`` (cuSOLVER's takes ``m >= n`` only: the
   caller transposes), and ``Xgeev`` of the 64-bit API (cuSOLVER 11.7 / CUDA 12.6 and
   later; hipSOLVER 3.4 and later, which computes it on the host): a params object,
   data-type enums (``cudaDataType`` and ``hipDataType`` share the values), complex
   eigenvalues for real input too, right eigenvectors only (neither computes left
   ones), and a host workspace beside the device one, kept alive until the infos are
   read.  Neither vendor has gelsd: lstsq is built on gesvd (``garray/linalg/_svd.py``).
3. Workspace: each routine's ``_bufferSize`` query is asked once per call and one garray
   buffer of that many elements serves the whole batch (the calls are queued in order
   on one stream).
4. Each vendor is one ``SolverVendor`` record (library search, symbol prefix, enum
   values, status names) under the family base (Note [Vendor families] in
   ``_base.py``); the code path is written once.  Libraries are found on first use; a
   missing one is a ``BackendUnavailableError`` naming the package and the variable
   (``GARRAY_CUSOLVER_LIBRARY``, ``GARRAY_HIPSOLVER_LIBRARY``).
5. Handles: one per (device, thread) (Note [Vendor handles]); the call is queued on
   the stream garray queues the device's work on (``FAMILY.handle``).
Limits: 32-bit ints (matrix sizes, leading dimensions and workspaces below 2**31).
"""

import ctypes
from dataclasses import dataclass

import numpy

from . import _handles, nvidia_candidates, rocm_candidates
from ._base import Vendor, VendorFamily, pointers
from .._core import empty

__all__ = ["available", "getrf", "getrs", "potrf", "syevd", "geqrf", "orgqr", "gesvd",
           "geev", "reset"]

_P, _I = ctypes.c_void_p, ctypes.c_int
_IP = ctypes.POINTER(ctypes.c_int)
_INT32 = numpy.dtype(numpy.int32)
_LETTER = {numpy.dtype(numpy.float64): "D", numpy.dtype(numpy.complex128): "Z"}
_I64, _SZ = ctypes.c_int64, ctypes.c_size_t
_R_64F, _C_64F = 1, 5      # cudaDataType / hipDataType: CUDA_R_64F, CUDA_C_64F (HIP_ alike)


@dataclass(frozen=True, kw_only=True)
class SolverVendor(Vendor):
    """One vendor's enum values for what the solver path calls (Note [Vendor
    families]); symbols are ``prefix`` + Create, Dgetrf, ..."""

    fill: dict                    # "L"/"U" -> the fill-mode enum
    op_n: int                     # the no-transpose operation enum
    eig: dict                     # False/True (vectors) -> the eig-mode enum


CUSOLVER = SolverVendor(
    kind="cuda", name="cuSOLVER", env="GARRAY_CUSOLVER_LIBRARY",
    install="pip install nvidia-cusolver (garray[cuda])",
    candidates=nvidia_candidates("cusolver", "libcusolver.so.12", "libcusolver.so"),
    prefix="cusolverDn", required=("Create", "Dgetrf", "Zheevd"),
    create="Create", destroy="Destroy", set_stream="SetStream",
    fill={"L": 0, "U": 1}, op_n=0, eig={False: 0, True: 1},
    statuses=dict(enumerate((
        "CUSOLVER_STATUS_SUCCESS", "CUSOLVER_STATUS_NOT_INITIALIZED",
        "CUSOLVER_STATUS_ALLOC_FAILED", "CUSOLVER_STATUS_INVALID_VALUE",
        "CUSOLVER_STATUS_ARCH_MISMATCH", "CUSOLVER_STATUS_MAPPING_ERROR",
        "CUSOLVER_STATUS_EXECUTION_FAILED", "CUSOLVER_STATUS_INTERNAL_ERROR",
        "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "CUSOLVER_STATUS_NOT_SUPPORTED"))))

HIPSOLVER = SolverVendor(
    kind="hip", name="hipSOLVER", env="GARRAY_HIPSOLVER_LIBRARY",
    install="install ROCm's hipSOLVER (the hipsolver package of ROCm)",
    candidates=rocm_candidates("libhipsolver.so", "libhipsolver.so.1", "libhipsolver.so.0"),
    prefix="hipsolverDn", required=("Create", "Dgetrf", "Zheevd"),
    create="Create", destroy="Destroy", set_stream="SetStream",
    fill={"U": 121, "L": 122}, op_n=111, eig={False: 201, True: 202},
    statuses=dict(enumerate((
        "HIPSOLVER_STATUS_SUCCESS", "HIPSOLVER_STATUS_NOT_INITIALIZED",
        "HIPSOLVER_STATUS_ALLOC_FAILED", "HIPSOLVER_STATUS_INVALID_VALUE",
        "HIPSOLVER_STATUS_MAPPING_ERROR", "HIPSOLVER_STATUS_EXECUTION_FAILED",
        "HIPSOLVER_STATUS_INTERNAL_ERROR", "HIPSOLVER_STATUS_NOT_SUPPORTED",
        "HIPSOLVER_STATUS_ARCH_MISMATCH", "HIPSOLVER_STATUS_HANDLE_IS_NULLPTR",
        "HIPSOLVER_STATUS_INVALID_ENUM", "HIPSOLVER_STATUS_UNKNOWN"))))

FAMILY = VendorFamily(
    (CUSOLVER, HIPSOLVER), job="vendor solver",
    missing="garray.linalg on a {kind} device needs {name}; {install}")
VENDORS = FAMILY.vendors
library = FAMILY.library
available = FAMILY.available
reset = FAMILY.reset
_call = FAMILY.call


class _Run:
    """One routine over a batch: the vendor, this thread's handle on the stream, the
    letter (D or Z), and the info buffer."""

    def __init__(self, device, dtype, batch):
        vendor = FAMILY.vendor_of(device, "the vendor solver runs on")
        letter = _LETTER.get(numpy.dtype(dtype))
        if letter is None:
            raise TypeError(f"dtype: the vendor solver path computes float64 and complex128, "
                            f"got {dtype}")
        self.vendor, self.device, self.letter, self.dtype = vendor, device, letter, dtype
        self.handle = FAMILY.handle(device, vendor).ptr
        self.info = empty((max(1, batch),), dtype=_INT32, device=device)
        self.info[...] = 0          # a matrix with an empty dimension is never called
        self.batch = batch
        self.name = ""

    def lwork(self, name, argtypes, *args):
        out = ctypes.c_int()
        _call(self.vendor, self.device, f"{self.letter}{name}_bufferSize",
              (_P,) + argtypes + (_IP,), self.handle, *args, ctypes.byref(out))
        return max(1, out.value)

    def work(self, n):
        return empty((n,), dtype=self.dtype, device=self.device)

    def __call__(self, name, argtypes, i, *args):
        self.name = name
        _call(self.vendor, self.device, f"{self.letter}{name}", (_P,) + argtypes + (_P,),
              self.handle, *args, self.info.ptr + 4 * i)

    def infos(self):
        """Each matrix's info (> 0: the routine's numerical verdict).  A negative info is
        a bad argument from garray (a bug), as on the CPU device's LAPACK."""
        if _handles.sync_calls:
            self.device.synchronize()
        infos = self.info.get()[:self.batch].tolist() if self.batch else []
        bad = [i for i in infos if i < 0]
        if bad:
            raise RuntimeError(f"{self.vendor.name} {self.letter}{self.name}: argument "
                               f"{-bad[0]} is invalid (a garray bug; please report it)")
        return infos


def getrf(lu, ipiv, n, batch):
    """LU with partial pivoting of the (n, n) column-major matrices of ``lu`` in place;
    1-based pivots into ``ipiv`` (int32, (batch, n)).  Returns the infos."""
    r = _Run(lu.device, lu.dtype, batch)
    lda = max(1, n)
    if n == 0:
        return r.infos()
    w = r.work(r.lwork("getrf", (_I, _I, _P, _I), n, n, lu.ptr, lda))
    for i, (pa, pp) in enumerate(pointers(batch, lu, ipiv)):
        r("getrf", (_I, _I, _P, _I, _P, _P), i, n, n, pa, lda, w.ptr, pp)
    return r.infos()


def getrs(lu, ipiv, b, n, k, batch):
    """Solve with getrf's factors: ``b`` (batch of column-major (n, k)) is overwritten by
    the solutions.  Returns the infos (0 unless an argument was bad)."""
    r = _Run(lu.device, lu.dtype, batch)
    lda = max(1, n)
    if n == 0 or k == 0:
        return r.infos()
    for i, (pa, pp, pb) in enumerate(pointers(batch, lu, ipiv, b)):
        r("getrs", (_I, _I, _I, _P, _I, _P, _P, _I), i, r.vendor.op_n, n, k, pa, lda, pp,
          pb, lda)
    return r.infos()


def potrf(buf, uplo, n, batch):
    """Cholesky of the (n, n) column-major matrices of ``buf`` in place, from triangle
    ``uplo`` ("L" or "U").  Returns the infos (> 0: not positive definite)."""
    r = _Run(buf.device, buf.dtype, batch)
    lda = max(1, n)
    fill = r.vendor.fill[uplo]
    if n == 0:
        return r.infos()
    lw = r.lwork("potrf", (_I, _I, _P, _I), fill, n, buf.ptr, lda)
    w = r.work(lw)
    for i, (pa,) in enumerate(pointers(batch, buf)):
        r("potrf", (_I, _I, _P, _I, _P, _I), i, fill, n, pa, lda, w.ptr, lw)
    return r.infos()


def syevd(buf, w, uplo, vectors, n, batch):
    """Eigenvalues (ascending, into real ``w``, (batch, n)) and, when ``vectors``, the
    eigenvectors (over ``buf``) of the Hermitian column-major matrices of ``buf`` read
    from triangle ``uplo``: syevd for float64, heevd for complex128.  Returns the
    infos (> 0: no convergence)."""
    r = _Run(buf.device, buf.dtype, batch)
    name = "heevd" if r.letter == "Z" else "syevd"
    lda = max(1, n)
    job, fill = r.vendor.eig[bool(vectors)], r.vendor.fill[uplo]
    if n == 0:
        return r.infos()
    lw = r.lwork(name, (_I, _I, _I, _P, _I, _P), job, fill, n, buf.ptr, lda, w.ptr)
    work = r.work(lw)
    for i, (pa, pw) in enumerate(pointers(batch, buf, w)):
        r(name, (_I, _I, _I, _P, _I, _P, _P, _I), i, job, fill, n, pa, lda, pw, work.ptr,
          lw)
    return r.infos()


def geqrf(h, tau, m, n, batch):
    """Householder QR of the (m, n) column-major matrices of ``h`` in place, the
    reflectors' scalars into ``tau`` ((batch, min(m, n)))."""
    r = _Run(h.device, h.dtype, batch)
    lda = max(1, m)
    if m == 0 or n == 0:
        return r.infos()
    lw = r.lwork("geqrf", (_I, _I, _P, _I), m, n, h.ptr, lda)
    work = r.work(lw)
    for i, (ph, pt) in enumerate(pointers(batch, h, tau)):
        r("geqrf", (_I, _I, _P, _I, _P, _P, _I), i, m, n, ph, lda, pt, work.ptr, lw)
    return r.infos()


def orgqr(h, tau, m, cols, k, batch):
    """Q's first ``cols`` columns from geqrf's ``k`` reflectors, in place in ``h``
    (column-major (m, cols) matrices): orgqr for float64, ungqr for complex128."""
    r = _Run(h.device, h.dtype, batch)
    name = "ungqr" if r.letter == "Z" else "orgqr"
    lda = max(1, m)
    if m == 0 or cols == 0:
        return r.infos()
    lw = r.lwork(name, (_I, _I, _I, _P, _I, _P), m, cols, k, h.ptr, lda, tau.ptr)
    work = r.work(lw)
    for i, (ph, pt) in enumerate(pointers(batch, h, tau)):
        r(name, (_I, _I, _I, _P, _I, _P, _P, _I), i, m, cols, k, ph, lda, pt, work.ptr, lw)
    return r.infos()


def gesvd(buf, s, u, vt, job, m, n, batch):
    """Singular values (descending, into real ``s``, (batch, min(m, n))) and, for job
    "A" (full) or "S" (reduced), the vectors into the column-major buffers ``u`` (m x m
    or m x k) and ``vt`` (V^H: n x n or k x n) of the (m, n) column-major matrices of
    ``buf`` (destroyed), ``m >= n``.  Returns the infos (> 0: no convergence)."""
    if m < n:
        raise ValueError(f"gesvd: m >= n is required (cuSOLVER's), got {m} x {n}")
    r = _Run(buf.device, buf.dtype, batch)
    k = min(m, n)
    lda = max(1, m)
    if k == 0:
        return r.infos()
    lw = r.lwork("gesvd", (_I, _I), m, n)
    work = r.work(lw)
    rwork = empty((max(1, k),), dtype=numpy.float64, device=buf.device)
    ldu = max(1, m)
    ldvt = max(1, n if job == "A" else k)
    jb = ctypes.c_byte(ord(job)).value
    bufs = (buf, s) + ((u, vt) if job != "N" else ())
    for i, ptrs in enumerate(pointers(batch, *bufs)):
        pu, pv = ptrs[2:] if job != "N" else (0, 0)
        r("gesvd", (ctypes.c_byte, ctypes.c_byte, _I, _I, _P, _I, _P, _P, _I, _P, _I, _P, _I,
                    _P), i, jb, jb, m, n, ptrs[0], lda, ptrs[1], pu, ldu, pv, ldvt, work.ptr,
          lw, rwork.ptr)
    return r.infos()


def geev(buf, w, vr, n, batch):
    """Eigenvalues (complex128 ``w``, (batch, n)) and, when ``vr`` is given, the right
    eigenvectors (column-major (n, n) matrices of ``vr``, of ``buf``'s dtype: for float64
    LAPACK's packed real pairs) of the general column-major matrices of ``buf``
    (destroyed), by the 64-bit API's Xgeev.  Returns the infos (> 0: no convergence)."""
    r = _Run(buf.device, buf.dtype, batch)
    r.name = "geev"
    if n == 0:
        return r.infos()
    vendor, device = r.vendor, r.device
    if not hasattr(library[vendor.kind].library(), vendor.prefix + "Xgeev"):
        raise NotImplementedError(
            f"garray.linalg.eig on {device}: {library[vendor.kind].path()} has no "
            f"{vendor.prefix}Xgeev (cuSOLVER has it from CUDA 12.6, hipSOLVER from 3.4); "
            f"update it, or move the array with x.to_device('cpu')")
    dt = _R_64F if r.letter == "D" else _C_64F
    params = _P()
    _call(vendor, device, "CreateParams", (ctypes.POINTER(_P),), ctypes.byref(params))
    try:
        jl, jr = vendor.eig[False], vendor.eig[vr is not None]
        ldv = n if vr is not None else 1
        head = (_P, _P, _I, _I, _I64, _I, _P, _I64, _I, _P, _I, _P, _I64, _I, _P, _I64, _I)
        dbytes, hbytes = _SZ(), _SZ()
        _call(vendor, device, "Xgeev_bufferSize", head + (ctypes.POINTER(_SZ),) * 2,
              r.handle, params, jl, jr, n, dt, buf.ptr, n, _C_64F, w.ptr, dt, None, 1, dt,
              vr.ptr if vr is not None else None, ldv, dt, ctypes.byref(dbytes),
              ctypes.byref(hbytes))
        dwork = empty((max(1, dbytes.value),), dtype=numpy.uint8, device=device)
        hwork = ctypes.create_string_buffer(max(1, hbytes.value))
        bufs = (buf, w) + ((vr,) if vr is not None else ())
        for i, ptrs in enumerate(pointers(batch, *bufs)):
            pv = ptrs[2] if vr is not None else None
            _call(vendor, device, "Xgeev", head + (_P, _SZ, _P, _SZ, _P), r.handle, params,
                  jl, jr, n, dt, ptrs[0], n, _C_64F, ptrs[1], dt, None, 1, dt, pv, ldv, dt,
                  dwork.ptr, dbytes.value, ctypes.addressof(hwork), hbytes.value,
                  r.info.ptr + 4 * i)
        infos = r.infos()           # waits for the device: the host workspace may go
        del hwork
        return infos
    finally:
        FAMILY.function(vendor, "DestroyParams", (_P,))(params)
