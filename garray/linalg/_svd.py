"""The singular value decomposition (LAPACK gesdd), least squares (gelsd), and what
NumPy builds on them: pinv, matrix_rank, cond.  Buffers and dispatch as Note [linalg
dispatch] (garray/linalg/_common.py) and Note [LAPACK buffers] (garray/linalg/_lapack.py)."""

from .._dtypes import kind_of as _kind_of
import ctypes
from collections import namedtuple

import numpy
from numpy.linalg import LinAlgError

from . import _lapack
from ._common import _batch, _int32, _letter, _prepare, check_device, linalg_types, real_of
from ._eigen import _eigh
from ._lapack import call, colmajor
from .._vendor._base import pointers
from ._solve import _inv
from .._args import as_array
from .._core import asarray, broadcast_to, empty, full, where, zeros
from .._creation.ranges import eye
from .._elementwise.ufuncs import abs as _abs, conj, isfinite, isnan, sign, sqrt
from .._gemm.matmul import matmul
from .._index.routines import take_along_axis
from .._manip.manipulation import flip, stack
from .._reduce.reductions import (all as _all, any as _any, count_nonzero, max as _max,
                                  min as _min, sum as _sum)
from .._sort.sorting import argsort, sort
from .._vendor import gpusolver

__all__ = ["svd", "svdvals", "lstsq", "pinv", "matrix_rank", "cond"]

SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])


class _NoValue:
    """pinv's ``rtol`` default: neither rtol nor rcond given (NumPy's ``<no value>``)."""

    def __repr__(self):
        return "<no value>"


_NOVALUE = _NoValue()


def _gesdd_rwork(m, n, job):
    # zgesdd does not report its real workspace; LAPACK >= 3.7's documented minimum
    k, big = min(m, n), max(m, n)
    if job == b"N":
        return max(1, 7 * k)
    return max(1, k * max(5 * k + 7, 2 * big + 2 * k + 1))


def _gesdd(a, t, job):
    """(u, s, vt) buffers of gesdd in the computing dtype; ``u``/``vt`` are column-major
    (already ``.mT``-viewed as results), None for ``job == b"N"``."""
    m, n = a.shape[-2:]
    k = min(m, n)
    batch_shape = a.shape[:-2]
    L = _letter(t)
    rt = real_of(t)
    dev = a.device
    buf = colmajor(a, t)
    s = _lapack.empty(batch_shape + (k,), rt, dev)
    if job == b"A":
        u = _lapack.empty(batch_shape + (m, m), t, dev)
        vt = _lapack.empty(batch_shape + (n, n), t, dev)
        ldu, ldvt = max(1, m), max(1, n)
    elif job == b"S":
        u = _lapack.empty(batch_shape + (k, m), t, dev)
        vt = _lapack.empty(batch_shape + (n, k), t, dev)
        ldu, ldvt = max(1, m), max(1, k)
    else:
        u = vt = None
        ldu = ldvt = 1
    iwork = _lapack.empty((max(1, 8 * k),), _int32, dev)
    lda = max(1, m)
    if t.kind == "c":
        rwork = _lapack.empty((_gesdd_rwork(m, n, job),), rt, dev)
        extra = (rwork.ptr, iwork.ptr)
    else:
        extra = (iwork.ptr,)
    lw, = _lapack.workspace(L, "gesdd", job, m, n, 0, lda, 0, 0, ldu, 0, ldvt, None, None,
                            *extra)
    work = _lapack.empty((lw,), t, dev)
    bufs = (buf, s) + ((u, vt) if u is not None else ())
    infos = []
    for ptrs in pointers(_batch(batch_shape), *bufs):
        pu, pv = ptrs[2:] if u is not None else (0, 0)
        # gesdd flags a NaN in a as a bad argument (a: LAPACKE 5); NumPy calls that non-convergence
        infos.append(call(L, "gesdd", job, m, n, ptrs[0], lda, ptrs[1], pu, ldu, pv, ldvt,
                          work.ptr, lw, *extra, nan_arg=5))
    if any(infos):
        raise LinAlgError("SVD did not converge")
    return (u.mT if u is not None else None), s, (vt.mT if vt is not None else None)


def _gesvd_gpu(a, t, job):
    """``_gesdd``'s results from the GPU vendor's gesvd (Note [GPU vendor solver]):
    cuSOLVER takes m >= n only, so a wide stack is decomposed as its conjugate transpose
    (``a^H = U' S V'^H`` gives ``a = V' S U'^H``).  NaN input raises "SVD did not
    converge" first, as NumPy reports gesdd's NaN check."""
    m, n = a.shape[-2:]
    if m < n:
        u, s, vt = _gesvd_gpu(conj(a.mT), t, job)
        if u is None:
            return None, s, None
        return conj(vt.mT), s, conj(u.mT)
    if bool(_any(isnan(a))):
        raise LinAlgError("SVD did not converge")
    k = min(m, n)
    bs = a.shape[:-2]
    dev = a.device
    buf = colmajor(a, t)
    s = _lapack.empty(bs + (k,), real_of(t), dev)
    if job == b"A":
        u, vt = _lapack.empty(bs + (m, m), t, dev), _lapack.empty(bs + (n, n), t, dev)
    elif job == b"S":
        u, vt = _lapack.empty(bs + (k, m), t, dev), _lapack.empty(bs + (n, k), t, dev)
    else:
        u = vt = None
    infos = gpusolver.gesvd(buf, s, u, vt, job.decode(), m, n, _batch(bs))
    if any(infos):
        raise LinAlgError("SVD did not converge")
    return (u.mT if u is not None else None), s, (vt.mT if vt is not None else None)


def _svd_hermitian(a, t, rt, compute_uv):
    # NumPy's route: eigh, then |w| sorted descending, the signs moved into Vh
    w, v = _eigh(a, t, b"L", compute_uv)
    s = _abs(w)
    if not compute_uv:
        return flip(sort(s, axis=-1), axis=-1).astype(real_of(rt))
    sidx = flip(argsort(s, axis=-1), axis=-1)
    sgn = take_along_axis(sign(w), sidx, axis=-1)
    s = take_along_axis(s, sidx, axis=-1)
    u = take_along_axis(v, sidx[..., None, :], axis=-1)
    vt = conj((u * sgn[..., None, :]).mT)
    return SVDResult(u.astype(rt), s.astype(real_of(rt)), vt.astype(rt))


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition of a stack of matrices: ``a == (U * S) @ Vh``, S
    descending (LAPACK gesdd; ``hermitian=True`` goes through eigh, as NumPy's).

    ``full_matrices``: U (M, M) and Vh (N, N), else (M, K) and (K, N), K = min(M, N).
    Returns ``SVDResult(U, S, Vh)``, or S alone when ``compute_uv`` is False.
    Raises LinAlgError("SVD did not converge") (also for NaN input, as NumPy).

    Parameters
    ----------
    a : ndarray
        (..., M, N) matrices.
    full_matrices : bool, optional
        Full (True) or reduced U and Vh.
    compute_uv : bool, optional
        Return U and Vh too.
    hermitian : bool, optional
        Whether a is Hermitian.

    Returns
    -------
    SVDResult or ndarray
        (U, S, Vh), or S.

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices (gesvd; singular vectors' signs may differ from NumPy's there).

    See Also
    --------
    numpy.linalg.svd
    """
    a, t, rt = _prepare(a, "svd", square=hermitian)
    m, n = a.shape[-2:]
    k = min(m, n)
    if hermitian:
        return _svd_hermitian(a, t, rt, compute_uv)
    if k == 0:
        # LAPACK returns at once; NumPy's U and Vh are then identities (or empty)
        s = empty(a.shape[:-2] + (0,), dtype=real_of(rt), device=a.device)
        if not compute_uv:
            return s
        bs = a.shape[:-2]
        if full_matrices:
            u = broadcast_to(eye(m, dtype=rt, device=a.device), bs + (m, m)).copy()
            vt = broadcast_to(eye(n, dtype=rt, device=a.device), bs + (n, n)).copy()
        else:
            u = zeros(bs + (m, 0), dtype=rt, device=a.device)
            vt = zeros(bs + (0, n), dtype=rt, device=a.device)
        return SVDResult(u, s, vt)
    job = (b"A" if full_matrices else b"S") if compute_uv else b"N"
    u, s, vt = _gesvd_gpu(a, t, job) if a.device.kind != "cpu" else _gesdd(a, t, job)
    s = s.astype(real_of(rt))
    if not compute_uv:
        return s
    return SVDResult(u.astype(rt), s, vt.astype(rt))


def svdvals(x, /):
    """Singular values of a stack of matrices, descending (``svd(x, compute_uv=False)``).

    Parameters
    ----------
    x : ndarray
        (..., M, N) matrices.

    Returns
    -------
    ndarray
        Real singular values, descending.

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices (gesvd; singular vectors' signs may differ from NumPy's there).

    See Also
    --------
    numpy.linalg.svdvals
    """
    return svd(x, compute_uv=False)


# ---- least squares ------------------------------------------------------------------


def _gelsd(a, b, t, rcond):
    """gelsd on one (m, n) matrix and an (ldb, nrhs) column-major right-hand side
    buffer ``b`` (shape (nrhs, ldb)); returns (s, rank)."""
    m, n = a.shape
    nrhs, ldb = b.shape
    L = _letter(t)
    rt = real_of(t)
    buf = colmajor(a, t)
    s = _lapack.empty((min(m, n),), rt, a.device)
    rank = ctypes.c_int(0)
    # gelsd's query reports lwork in work[0], liwork in iwork[0], lrwork in rwork[0]
    qw = (ctypes.c_double * 2)()
    qr = (ctypes.c_double * 1)()
    qi = (ctypes.c_int * 1)()
    lda = max(1, m)
    cplx = t.kind == "c"
    tail = ((ctypes.addressof(qr),) if cplx else ()) + (ctypes.addressof(qi),)
    call(L, "gelsd", m, n, nrhs, 0, lda, 0, ldb, 0, rcond, ctypes.addressof(rank),
         ctypes.addressof(qw), -1, *tail)
    lw = max(1, int(qw[0]))
    work = _lapack.empty((lw,), t, a.device)
    iwork = _lapack.empty((max(1, int(qi[0])),), _int32, a.device)
    tail = (iwork.ptr,)
    if cplx:
        rwork = _lapack.empty((max(1, int(qr[0])),), rt, a.device)
        tail = (rwork.ptr, iwork.ptr)
    info = call(L, "gelsd", m, n, nrhs, buf.ptr, lda, b.ptr, ldb, s.ptr, rcond,
                ctypes.addressof(rank), work.ptr, lw, *tail, nan_arg=5)
    if info:
        raise LinAlgError("SVD did not converge in Linear Least Squares")
    return s, rank.value


def _lstsq_svd(a, bm, t, rcond):
    """Least squares from the SVD, as gelsd defines it (singular values at or below
    ``rcond * s[0]`` count as zero), for the GPU devices, whose vendor solvers have no
    gelsd: ``x = V[:, :r] (U[:, :r]^H b / s[:r])`` in the computing dtype ``t``, with
    the SVD of the device's gesvd and two products on the device.  Read back: whether
    ``a`` and ``b`` are finite (gelsd fails on a non-finite ``a`` and gives an all-NaN
    ``x`` for a non-finite ``b``) and the rank (NumPy returns it as a host integer).
    Returns (x (n, nrhs), s, rank)."""
    m, n = a.shape
    finite = stack([_all(isfinite(a)), _all(isfinite(bm))]).get()
    if not finite[0]:       # gelsd's scaling fails on inf and NaN: NumPy's error
        raise LinAlgError("SVD did not converge in Linear Least Squares")
    try:
        u, s, vh = svd(a.astype(t), full_matrices=False)
    except LinAlgError:
        raise LinAlgError("SVD did not converge in Linear Least Squares") from None
    if rcond < 0:
        rcond = float(numpy.finfo(t).eps)       # gelsd: machine precision
    rank = int(count_nonzero(s > rcond * s[0])) if s.shape[0] else 0
    if rank == 0:
        x = zeros((n, bm.shape[1]), dtype=t, device=a.device)
    else:
        ub = matmul(conj(u[:, :rank].mT), bm.astype(t)) / s[:rank, None].astype(t)
        x = matmul(conj(vh[:rank].mT), ub)
    if not finite[1]:       # gelsd scales b by its largest value: all NaN, as NumPy
        x = full(x.shape, numpy.nan, dtype=t, device=a.device)
    return x, s, rank


def lstsq(a, b, rcond=None):
    """Least-squares solution of ``a @ x = b`` for a 2-d ``a`` (LAPACK gelsd).

    Returns NumPy's 4-tuple ``(x, residuals, rank, s)``: ``residuals`` holds the squared
    2-norm of each column's residual when ``rank == N < M``, else it is empty; singular
    values below ``rcond * s.max()`` count as zero (``rcond=None``: machine epsilon times
    max(M, N)).

    Parameters
    ----------
    a : ndarray
        (M, N) coefficient matrix.
    b : ndarray
        (M,) or (M, K) right-hand sides.
    rcond : float, optional
        Relative cutoff for small singular values.

    Returns
    -------
    tuple
        (x, residuals, rank, s).

    Notes
    -----
    Runs on LAPACK's gelsd on the CPU device.  cuSOLVER and hipSOLVER have no gelsd: on a
    GPU device the solution is built from the device's SVD (gesvd) the same way, with the
    residuals computed as ``|b - a x|**2``.

    See Also
    --------
    numpy.linalg.lstsq
    """
    a = as_array(a, "a")
    b = as_array(b, "b")
    check_device(a, "lstsq")
    if b.device != a.device:
        raise ValueError(f"lstsq: a is on {a.device} and b on {b.device}")
    vector = b.ndim == 1
    bm = b[:, None] if vector else b
    for x in (a, bm):
        if x.ndim != 2:
            raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be "
                              "two-dimensional")
    m, n = a.shape
    if bm.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    t, rt = linalg_types(a.dtype, b.dtype)
    _lapack.check_dims(m, n, bm.shape[1])
    if rcond is None:
        rcond = numpy.finfo(t).eps * max(n, m)
    nrhs = bm.shape[1]
    if a.device.kind != "cpu":
        x, s, rank = _lstsq_svd(a, bm, t, float(rcond))
        if rank == n and m > n:
            r = bm.astype(t) - matmul(a.astype(t), x)
            resid = _sum(_abs(r) ** 2, axis=0).astype(real_of(rt))
        else:
            resid = empty((0,), dtype=real_of(rt), device=a.device)
        x = x.astype(rt)
        return (x[:, 0] if vector else x), resid, numpy.int32(rank), s.astype(real_of(rt))
    # LAPACK wants at least one right-hand side (NumPy pads one too) and room for x
    cols = max(nrhs, 1)
    ldb = max(1, m, n)
    rhs = zeros((cols, ldb), dtype=t, device=a.device)
    if nrhs:
        rhs[:, :m] = bm.mT
    s, rank = _gelsd(a, rhs, t, float(rcond))
    x = rhs.mT[:n, :nrhs].astype(rt)
    if rank == n and m > n:
        resid = _sum(_abs(rhs.mT[n:m, :nrhs]) ** 2, axis=0).astype(real_of(rt))
    else:
        resid = empty((0,), dtype=real_of(rt), device=a.device)
    return (x[:, 0] if vector else x), resid, numpy.int32(rank), s.astype(real_of(rt))


# ---- built on the SVD ---------------------------------------------------------------


def pinv(a, rcond=None, hermitian=False, *, rtol=_NOVALUE):
    """Moore-Penrose pseudo-inverse of a stack of matrices, from the SVD: singular
    values at or below ``rcond * max(s)`` count as zero.

    ``rtol`` is the Array API's name for ``rcond``; ``rtol=None`` means ``max(M, N) *
    eps``; the default (neither given) is NumPy's 1e-15.

    Parameters
    ----------
    a : ndarray
        (..., M, N) matrices.
    rcond : float or ndarray, optional
        Relative cutoff for small singular values.
    hermitian : bool, optional
        Whether a is Hermitian.
    rtol : float or ndarray, optional
        The Array API's name for rcond.

    Returns
    -------
    ndarray
        (..., N, M).

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices (gesvd; singular vectors' signs may differ from NumPy's there).

    See Also
    --------
    numpy.linalg.pinv
    """
    a = as_array(a, "a")
    check_device(a, "pinv")
    if rcond is None:
        if rtol is _NOVALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * numpy.finfo(a.dtype).eps
        else:
            rcond = rtol
    elif rtol is not _NOVALUE:
        raise ValueError("pinv: `rtol` and `rcond` can't be both set.")
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    m, n = a.shape[-2:]
    if a.size == 0:
        # NumPy keeps the dtype of empty matrices alone; an empty stack of non-empty
        # matrices goes through its SVD path (bool and integers: float64)
        dt = numpy.float64 if m * n and _kind_of(a.dtype) in "biu" else a.dtype
        return empty(a.shape[:-2] + (n, m), dtype=dt, device=a.device)
    if _kind_of(a.dtype) in "biu":       # NumPy: bool and integers in float64
        a = a.astype(numpy.float64)
    u, s, vt = svd(conj(a), full_matrices=False, hermitian=hermitian)
    rc = asarray(rcond, device=a.device)
    cutoff = rc[..., None] * _max(s, axis=-1, keepdims=True)
    large = s > cutoff
    sinv = where(large, 1 / where(large, s, 1), 0).astype(s.dtype)
    return matmul(vt.mT, sinv[..., None] * u.mT)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """Rank of a stack of matrices: the number of singular values above ``tol``
    (default ``max(s) * rtol``, ``rtol`` default ``max(M, N) * eps``).  A 0-d or 1-d
    input has rank 1 unless it is all zeros (a Python int, as NumPy).

    Parameters
    ----------
    A : ndarray
        Matrices (..., M, N), or a 0-d or 1-d array.
    tol : float or ndarray, optional
        Absolute threshold.
    hermitian : bool, optional
        Whether A is Hermitian.
    rtol : float or ndarray, optional
        Relative threshold.

    Returns
    -------
    ndarray or int
        int64 ranks (a Python int for 0-d and 1-d input).

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices (gesvd; singular vectors' signs may differ from NumPy's there).

    See Also
    --------
    numpy.linalg.matrix_rank
    """
    if rtol is not None and tol is not None:
        raise ValueError("matrix_rank: `tol` and `rtol` can't be both set.")
    A = as_array(A, "A")
    check_device(A, "matrix_rank")
    if A.ndim < 2:
        return int(not bool(_all(A == 0)))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * numpy.finfo(S.dtype).eps
        else:
            rtol = asarray(rtol, device=A.device)[..., None]
        smax = (_max(S, axis=-1, keepdims=True) if S.shape[-1]
                else zeros(S.shape[:-1] + (1,), dtype=S.dtype, device=A.device))
        tol = smax * rtol
    else:
        tol = asarray(tol, device=A.device)[..., None]
    return count_nonzero(S > tol, axis=-1)


def _matrix_norm(x, p):
    """NumPy's ``norm(x, p, axis=(-2, -1))`` for cond's orders, by garray reductions."""
    if p == "fro":
        return sqrt(_sum(_abs(x) ** 2, axis=(-2, -1)))
    if p == "nuc":
        return _sum(svd(x, compute_uv=False), axis=-1)
    if p in (1, -1):
        col = _sum(_abs(x), axis=-2)
        return _max(col, axis=-1) if p == 1 else _min(col, axis=-1)
    if p in (numpy.inf, -numpy.inf):
        row = _sum(_abs(x), axis=-1)
        return _max(row, axis=-1) if p > 0 else _min(row, axis=-1)
    raise ValueError("Invalid norm order for matrices.")


def cond(x, p=None):
    """Condition number of a stack of matrices in norm ``p`` (None/2/-2 from singular
    values; 1, -1, inf, -inf, 'fro', 'nuc' as ``norm(x, p) * norm(inv(x), p)``, a
    singular matrix giving inf).

    Parameters
    ----------
    x : ndarray
        (..., M, N) matrices.
    p : {None, 1, -1, 2, -2, inf, -inf, 'fro', 'nuc'}, optional
        The norm.

    Returns
    -------
    ndarray
        Real condition numbers, one per matrix.

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices (gesvd; singular vectors' signs may differ from NumPy's there).

    See Also
    --------
    numpy.linalg.cond
    """
    x = as_array(x, "x")
    check_device(x, "cond")
    if x.size == 0 and x.ndim >= 2 and x.shape[-1] * x.shape[-2] == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or (not isinstance(p, str) and p in (2, -2)):
        s = svd(x, compute_uv=False)
        r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        if p not in ("fro", "nuc", 1, -1, numpy.inf, -numpy.inf):
            raise ValueError("Invalid norm order for matrices.")
        a, t, rt = _prepare(x, "cond")
        invx = _inv(a, t, nan_on_error=True)
        r = (_matrix_norm(a, p) * _matrix_norm(invx, p)).astype(real_of(rt))
    # NaN from a singular matrix means infinitely ill-conditioned, unless x had NaN
    nan_mask = isnan(r) & ~_any(isnan(x), axis=(-2, -1))
    return where(nan_mask, numpy.inf, r).astype(r.dtype)
