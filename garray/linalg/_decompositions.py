"""Decompositions and solvers of garray.linalg on the device's vendor LAPACK.

Note [linalg dispatch]
~~~~~~~~~~~~~~~~~~~~~~
1. ``_prepare`` turns the argument into a garray array, refuses what a device's vendor
   solver cannot do yet (NotImplementedError naming the function and device: on GPUs,
   the functions outside ``GPU_FUNCTIONS``), checks ``ndim >= 2`` and
   squareness (LinAlgError, NumPy's messages) and picks two dtypes as NumPy's
   ``_commonType`` does: LAPACK computes in float64/complex128 for every input (integer
   and bool promoted to float64), and results are cast back to single precision for
   float32/complex64 input.  Computing in double, as NumPy does, keeps single-precision
   results within float32 rounding of NumPy's.
2. The matrix stack is copied by garray into column-major buffers (Note [LAPACK
   buffers], garray/linalg/_lapack.py); the host loops over the batch calling LAPACK (OpenBLAS
   on the CPU device; cuSOLVER / hipSOLVER on GPUs, Note [GPU vendor solver] in
   garray/_vendor/gpusolver.py: the same buffers, the info codes read back once); results
   are views of the buffers, finished (triangles, signs, complex eigenvectors) by
   garray's own elementwise and reduction ops.
3. ``info > 0`` raises the LinAlgError NumPy raises (singular matrix, not positive
   definite, no convergence); NumPy's own LinAlgError class is used so that
   ``except numpy.linalg.LinAlgError`` catches garray's.  NaN/inf input gets NumPy's
   behaviour: most routines propagate NaN; ``eig`` checks finiteness first and ``svd``
   reports non-convergence, as NumPy's do.
"""

import warnings
from collections import namedtuple

import numpy
from numpy.linalg import LinAlgError

from . import _lapack
from ._lapack import call, colmajor, pointers, workspace
from .._manip.common import as_array
from .._vendor import gpusolver

__all__ = ["LinAlgError", "det", "slogdet", "inv", "solve", "cholesky", "qr", "eigh",
           "eigvalsh", "eig", "eigvals", "svd", "svdvals"]

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
QRResult = namedtuple("QRResult", ["Q", "R"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

_f64 = numpy.dtype(numpy.float64)
_c128 = numpy.dtype(numpy.complex128)
_int32 = numpy.dtype(numpy.int32)
_SOLVER = {"cuda": "cuSOLVER", "hip": "hipSOLVER"}
# What the GPU devices' vendor solver computes (getrf/getrs, potrf, syevd/heevd,
# geqrf/orgqr, gesvd, Xgeev; lstsq from gesvd, as neither has gelsd): every function.
GPU_FUNCTIONS = frozenset({"det", "slogdet", "inv", "solve", "cholesky", "qr", "eigh",
                           "eigvalsh", "svd", "svdvals", "pinv", "matrix_rank", "cond",
                           "lstsq", "eig", "eigvals"})


def _ga():
    import garray
    return garray


# ---- argument handling (Note [linalg dispatch] 1) -----------------------------------


def check_device(a, fname):
    kind = a.device.kind
    if kind != "cpu" and not (kind in gpusolver.VENDORS and fname in GPU_FUNCTIONS):
        raise NotImplementedError(
            f"garray.linalg.{fname} on {a.device}: the {_SOLVER.get(kind, kind)} path is "
            "not built yet; move the array to the CPU device with x.to_device('cpu')")


def linalg_types(*dtypes):
    """(computing dtype, result dtype) as NumPy's ``_commonType``."""
    single, cplx = True, False
    for dt in dtypes:
        dt = numpy.dtype(dt)
        if dt.kind in "biu":
            single = False
        elif dt.kind in "fc":
            if dt.itemsize not in ((4, 8) if dt.kind == "f" else (8, 16)):
                raise TypeError(f"array type {dt.name} is unsupported in linalg")
            cplx |= dt.kind == "c"
            single &= dt in (numpy.dtype(numpy.float32), numpy.dtype(numpy.complex64))
        else:
            raise TypeError(f"array type {dt.name} is unsupported in linalg")
    if cplx:
        return _c128, numpy.dtype(numpy.complex64 if single else numpy.complex128)
    return _f64, numpy.dtype(numpy.float32 if single else numpy.float64)


def real_of(dt):
    return numpy.dtype(dt.char.lower()) if dt.kind == "c" else dt


def _prepare(x, fname, argname="a", square=True):
    a = as_array(x, argname)
    check_device(a, fname)
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if square and a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    t, rt = linalg_types(a.dtype)
    _lapack.check_dims(*a.shape[-2:])
    return a, t, rt


def _batch(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _letter(t):
    return _lapack.LETTER[t]


def _host_mask(flags, shape, device):
    """A garray bool array from per-matrix ``info`` flags (host metadata, not data)."""
    return _ga().asarray(numpy.array(flags, dtype=bool).reshape(shape), device=device)


# ---- LU: det, slogdet, inv, solve ---------------------------------------------------


def _on_gpu(a):
    return a.device.kind != "cpu"


def _getrf(a, t):
    n = a.shape[-1]
    lu = colmajor(a, t)
    ipiv = _lapack.empty(a.shape[:-1], _int32, a.device)
    if _on_gpu(a):
        return lu, ipiv, gpusolver.getrf(lu, ipiv, n, _batch(a.shape[:-2]))
    infos = [call(_letter(t), "getrf", n, n, pa, max(1, n), pp)
             for pa, pp in pointers(_batch(a.shape[:-2]), lu, ipiv)]
    return lu, ipiv, infos


def _slogdet(a, t):
    """(sign, logabsdet) in the computing dtype, as NumPy's slogdet of an LU."""
    ga = _ga()
    n = a.shape[-1]
    lu, ipiv, infos = _getrf(a, t)
    d = ga.diagonal(lu, axis1=-2, axis2=-1)
    swaps = ga.count_nonzero(ipiv != ga.arange(1, n + 1, dtype=_int32, device=a.device),
                             axis=-1)
    logdet = ga.sum(ga.log(ga.abs(d)), axis=-1)
    if t.kind == "c":
        sign = ga.prod(d / ga.abs(d), axis=-1) * (1 - 2 * (swaps % 2))
    else:
        # NumPy flips the sign per negative pivot; a NaN pivot leaves it, so sign is +-1
        neg = ga.count_nonzero(d < 0, axis=-1)
        sign = (1 - 2 * ((swaps + neg) % 2)).astype(t)
    if any(infos):
        # an exactly singular U: NumPy answers sign 0, log|det| -inf
        singular = _host_mask([i > 0 for i in infos], a.shape[:-2], a.device)
        sign = ga.where(singular, 0, sign)
        logdet = ga.where(singular, -numpy.inf, logdet)
    return sign, logdet


def slogdet(a):
    """Sign and natural logarithm of the absolute determinant of a stack of square
    matrices, from an LU factorisation (LAPACK getrf).

    Returns ``SlogdetResult(sign, logabsdet)``: ``sign`` is +-1 (a unit complex number
    for complex input) or 0 for a singular matrix, whose ``logabsdet`` is -inf.

    Parameters
    ----------
    a : ndarray
        (..., M, M) matrices.

    Returns
    -------
    SlogdetResult
        (sign, logabsdet).

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices.

    See Also
    --------
    numpy.linalg.slogdet
    """
    a, t, rt = _prepare(a, "slogdet")
    sign, logdet = _slogdet(a, t)
    return SlogdetResult(sign.astype(rt), logdet.astype(real_of(rt)))


def det(a):
    """Determinant of a stack of square matrices (``sign * exp(logabsdet)`` of the LU
    factorisation, as NumPy computes it).

    >>> garray.linalg.det(garray.asarray([[1.0, 2.0], [3.0, 4.0]]))   # -2.0

    Parameters
    ----------
    a : ndarray
        (..., M, M) matrices.

    Returns
    -------
    ndarray
        One determinant per matrix, in a's dtype (float64 for integer input).

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices.

    See Also
    --------
    numpy.linalg.det
    """
    a, t, rt = _prepare(a, "det")
    ga = _ga()
    sign, logdet = _slogdet(a, t)
    return (sign * ga.exp(logdet)).astype(rt)


def _gesv(a, b, t, nan_on_error=False):
    """Solve ``a x = b`` for stacks already broadcast to one batch: ``a`` (..., n, n),
    ``b`` column-major buffer (..., k, n) in dtype ``t``, overwritten by x."""
    n = a.shape[-1]
    k = b.shape[-2]
    if _on_gpu(a):
        # getrf, then getrs (a singular matrix's solution is garbage, replaced below)
        lu, ipiv, infos = _getrf(a, t)
        if any(infos) and not nan_on_error:
            raise LinAlgError("Singular matrix")
        gpusolver.getrs(lu, ipiv, b, n, k, _batch(a.shape[:-2]))
    else:
        lu = colmajor(a, t)
        ipiv = _lapack.empty(a.shape[:-1], _int32, a.device)
        infos = [call(_letter(t), "gesv", n, k, pa, max(1, n), pp, pb, max(1, n))
                 for pa, pp, pb in pointers(_batch(a.shape[:-2]), lu, ipiv, b)]
    if any(infos):
        if not nan_on_error:
            raise LinAlgError("Singular matrix")
        bad = _host_mask([i > 0 for i in infos], a.shape[:-2] + (1, 1), a.device)
        b[...] = _ga().where(bad, numpy.nan, b)
    return b


def _inv(a, t, nan_on_error=False):
    ga = _ga()
    n = a.shape[-1]
    b = _lapack.empty(a.shape, t, a.device)
    b[...] = ga.eye(n, dtype=t, device=a.device)   # column-major I is I
    return _gesv(a, b, t, nan_on_error).mT


def inv(a):
    """Inverse of a stack of square matrices (LAPACK gesv against the identity).

    Raises LinAlgError("Singular matrix") when a matrix is exactly singular.

    Parameters
    ----------
    a : ndarray
        (..., M, M) matrices.

    Returns
    -------
    ndarray
        The inverses (float64 for integer input).

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices.

    See Also
    --------
    numpy.linalg.inv
    """
    a, t, rt = _prepare(a, "inv")
    return _inv(a, t).astype(rt)


def solve(a, b):
    """Solve ``a @ x = b`` for x, stacked (LAPACK gesv).

    ``b`` is one vector per system only when it is 1-d (shape (M,)); otherwise it is a
    stack of (M, K) matrices whose batch dims broadcast with ``a``'s (NumPy 2 and the
    Array API).

    Parameters
    ----------
    a : ndarray
        (..., M, M) coefficient matrices.
    b : ndarray
        (M,) or (..., M, K) right-hand sides.

    Returns
    -------
    ndarray
        The solutions, of b's broadcast shape.

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices.

    See Also
    --------
    numpy.linalg.solve
    """
    ga = _ga()
    a, t, rt = _prepare(a, "solve")
    b = as_array(b, "b")
    if b.device != a.device:
        raise ValueError(f"solve: a is on {a.device} and b on {b.device}")
    t, rt = linalg_types(a.dtype, b.dtype)
    m = a.shape[-1]
    vector = b.ndim == 1
    if b.ndim == 0:
        raise ValueError("solve: b must be at least 1-dimensional, got a 0-d array")
    bm = b[:, None] if vector else b
    if bm.shape[-2] != m:
        raise ValueError(f"solve: b has shape {b.shape}, whose dimension "
                         f"{'0' if vector else '-2'} ({bm.shape[-2]}) does not match a's "
                         f"{m} (a has shape {a.shape})")
    try:
        batch = ga.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    except ValueError:
        raise ValueError(f"solve: the batch dimensions of a {a.shape} and b {b.shape} "
                         "do not broadcast") from None
    k = bm.shape[-1]
    a = ga.broadcast_to(a, batch + (m, m))
    x = colmajor(ga.broadcast_to(bm, batch + (m, k)), t)
    if _batch(batch) and m:
        x = _gesv(a, x, t)
    x = x.mT.astype(rt)
    return x[..., 0] if vector else x


# ---- Cholesky, QR -------------------------------------------------------------------


def cholesky(a, /, *, upper=False):
    """Cholesky factor of a stack of Hermitian positive-definite matrices: ``L`` with
    ``a == L @ L.mH`` (or ``U`` with ``a == U.mH @ U`` when ``upper``), from the lower
    (upper) triangle of ``a`` only (LAPACK potrf).

    Raises LinAlgError when a matrix is not positive definite.

    Parameters
    ----------
    a : ndarray
        (..., M, M) Hermitian positive-definite matrices (floating or complex).
    upper : bool, optional
        Return the upper factor U instead of L.

    Returns
    -------
    ndarray
        The factors, of a's shape and dtype.

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices.

    See Also
    --------
    numpy.linalg.cholesky
    """
    ga = _ga()
    a, t, rt = _prepare(a, "cholesky")
    n = a.shape[-1]
    buf = colmajor(a, t)
    uplo = b"U" if upper else b"L"
    if _on_gpu(a):
        infos = gpusolver.potrf(buf, uplo.decode(), n, _batch(a.shape[:-2]))
    else:
        infos = [call(_letter(t), "potrf", uplo, n, pa, max(1, n))
                 for (pa,) in pointers(_batch(a.shape[:-2]), buf)]
    if any(infos):
        raise LinAlgError("Matrix is not positive definite")
    # potrf leaves the other triangle as it found it
    r = ga.triu(buf.mT) if upper else ga.tril(buf.mT)
    return r.astype(rt)


def _geqrf(a, t):
    m, n = a.shape[-2:]
    k = min(m, n)
    h = colmajor(a, t)
    tau = _lapack.empty(a.shape[:-2] + (k,), t, a.device)
    if _on_gpu(a):
        gpusolver.geqrf(h, tau, m, n, _batch(a.shape[:-2]))
        return h, tau
    L = _letter(t)
    lwork, = workspace(L, "geqrf", m, n, 0, max(1, m), 0, None, None)
    work = _lapack.empty((lwork,), t, a.device)
    for ph, pt in pointers(_batch(a.shape[:-2]), h, tau):
        call(L, "geqrf", m, n, ph, max(1, m), pt, work.ptr, lwork)
    return h, tau


def _orgqr(h, tau, m, cols, t):
    """Q's first ``cols`` columns from geqrf's reflectors (orgqr/ungqr) in place in
    ``h``, a column-major (..., cols, m) buffer."""
    k = tau.shape[-1]
    if h.device.kind != "cpu":
        gpusolver.orgqr(h, tau, m, cols, k, _batch(h.shape[:-2]))
        return h
    L = _letter(t)
    name = "ungqr" if t.kind == "c" else "orgqr"
    lwork, = workspace(L, name, m, cols, k, 0, max(1, m), 0, None, None)
    work = _lapack.empty((lwork,), t, h.device)
    for ph, pt in pointers(_batch(h.shape[:-2]), h, tau):
        call(L, name, m, cols, k, ph, max(1, m), pt, work.ptr, lwork)
    return h


def qr(a, mode="reduced"):
    """QR decomposition of a stack of matrices (LAPACK geqrf, orgqr/ungqr).

    ``mode``: 'reduced' (Q (M, K), R (K, N), K = min(M, N)), 'complete' (Q (M, M),
    R (M, N)), 'r' (R alone), 'raw' (``(h, tau)``: the Householder reflectors, ``h``
    transposed (..., N, M) as LAPACK leaves it).  Returns ``QRResult(Q, R)`` for
    'reduced' and 'complete'.  NumPy's deprecated 'full' and 'economic' are accepted
    with its DeprecationWarning.

    Parameters
    ----------
    a : ndarray
        (..., M, N) matrices.
    mode : {'reduced', 'complete', 'r', 'raw'}, optional
        What to return.

    Returns
    -------
    QRResult, ndarray or tuple
        As mode says.

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices.

    See Also
    --------
    numpy.linalg.qr
    """
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.",
                          DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning,
                          stacklevel=2)
            mode = "economic"
        else:
            raise ValueError(f"qr: unrecognized mode {mode!r}")
    ga = _ga()
    a, t, rt = _prepare(a, "qr", square=False)
    m, n = a.shape[-2:]
    k = min(m, n)
    h, tau = _geqrf(a, t)
    if mode == "raw":
        return h.astype(rt), tau.astype(rt)
    if mode == "economic":
        return h.mT.astype(rt)
    rows = m if mode == "complete" else k
    r = ga.triu(h.mT[..., :rows, :]).astype(rt)
    if mode == "r":
        return r
    cols = m if mode == "complete" else k
    q = _lapack.empty(a.shape[:-2] + (cols, m), t, a.device)
    q[..., :k, :] = h[..., :k, :]
    if _batch(a.shape[:-2]) and m:
        _orgqr(q, tau, m, cols, t)
    return QRResult(q.mT.astype(rt), r)


# ---- Hermitian eigenproblem ---------------------------------------------------------


def _eigh(a, t, uplo, vectors):
    n = a.shape[-1]
    L = _letter(t)
    buf = colmajor(a, t)
    w = _lapack.empty(a.shape[:-1], real_of(t), a.device)
    job = b"V" if vectors else b"N"
    lda = max(1, n)
    if _on_gpu(a):
        infos = gpusolver.syevd(buf, w, uplo.decode(), vectors, n, _batch(a.shape[:-2]))
    elif t.kind == "c":
        lw, lrw, liw = workspace(L, "heevd", job, uplo, n, 0, lda, 0, None, None, None,
                                 None, None, None, real_work=True, int_work=True)
        ws = (_lapack.empty((lw,), t, a.device), _lapack.empty((lrw,), real_of(t), a.device),
              _lapack.empty((liw,), _int32, a.device))
        infos = [call(L, "heevd", job, uplo, n, pa, lda, pw, ws[0].ptr, lw, ws[1].ptr, lrw,
                      ws[2].ptr, liw) for pa, pw in pointers(_batch(a.shape[:-2]), buf, w)]
    else:
        lw, liw = workspace(L, "syevd", job, uplo, n, 0, lda, 0, None, None, None, None,
                            int_work=True)
        ws = (_lapack.empty((lw,), t, a.device), _lapack.empty((liw,), _int32, a.device))
        infos = [call(L, "syevd", job, uplo, n, pa, lda, pw, ws[0].ptr, lw, ws[1].ptr, liw)
                 for pa, pw in pointers(_batch(a.shape[:-2]), buf, w)]
    if any(infos):
        raise LinAlgError("Eigenvalues did not converge")
    return w, buf.mT


def _uplo(UPLO):
    u = str(UPLO).upper() if isinstance(UPLO, str) else None
    if u not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return u.encode()


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and orthonormal eigenvectors of a stack of Hermitian
    matrices, read from the lower (``UPLO='L'``) or upper triangle (LAPACK syevd/heevd).

    Returns ``EighResult(eigenvalues, eigenvectors)``, ``a @ v == v * w``.

    Parameters
    ----------
    a : ndarray
        (..., M, M) Hermitian matrices.
    UPLO : {'L', 'U'}, optional
        The triangle read.

    Returns
    -------
    EighResult
        (eigenvalues, eigenvectors): real eigenvalues, eigenvectors in a's floating
        dtype (float64 for integer input).

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices.

    See Also
    --------
    numpy.linalg.eigh
    """
    uplo = _uplo(UPLO)
    a, t, rt = _prepare(a, "eigh")
    w, v = _eigh(a, t, uplo, True)
    return EighResult(w.astype(real_of(rt)), v.astype(rt))


def eigvalsh(a, UPLO="L"):
    """Eigenvalues (ascending) of a stack of Hermitian matrices (LAPACK syevd/heevd).

    Parameters
    ----------
    a : ndarray
        (..., M, M) Hermitian matrices.
    UPLO : {'L', 'U'}, optional
        The triangle read.

    Returns
    -------
    ndarray
        Real eigenvalues, ascending.

    Notes
    -----
    Runs on LAPACK (OpenBLAS) on the CPU device and on cuSOLVER / hipSOLVER on GPU
    devices.

    See Also
    --------
    numpy.linalg.eigvalsh
    """
    uplo = _uplo(UPLO)
    a, t, rt = _prepare(a, "eigvalsh")
    return _eigh(a, t, uplo, False)[0].astype(real_of(rt))


# ---- general eigenproblem -----------------------------------------------------------


def _assert_finite(a):
    if not bool(_ga().isfinite(a).all()):
        raise LinAlgError("Array must not contain infs or NaNs")


def _geev(a, t, vectors):
    """(w, v) from geev in the computing dtype: for real ``t``, ``w`` complex and ``v``
    LAPACK's packed real eigenvectors, plus ``wi`` to unpack them."""
    n = a.shape[-1]
    L = _letter(t)
    buf = colmajor(a, t)
    lda = max(1, n)
    jv = b"V" if vectors else b"N"
    batch = _batch(a.shape[:-2])
    if _on_gpu(a):
        w = _lapack.empty(a.shape[:-1], _c128, a.device)
        vr = _lapack.empty(a.shape, t, a.device) if vectors else None
        if any(gpusolver.geev(buf, w, vr, n, batch)):
            raise LinAlgError("Eigenvalues did not converge")
        v = vr.mT if vectors else None
        return (w, v, None) if t.kind == "c" else ((w.real, w.imag), v, w.imag)
    vr = _lapack.empty(a.shape if vectors else (1,), t, a.device)
    ldv = max(1, n) if vectors else 1
    # geev's query reads its array arguments' addresses: give it real ones (item 0)
    scratch = _lapack.empty((max(1, 2 * n * n),), t, a.device).ptr
    if t.kind == "c":
        w = _lapack.empty(a.shape[:-1], t, a.device)
        rwork = _lapack.empty((max(1, 2 * n),), real_of(t), a.device)
        lw, = workspace(L, "geev", b"N", jv, n, scratch, lda, scratch, scratch, 1, scratch,
                        ldv, None, None, rwork.ptr) if batch else (1,)
        work = _lapack.empty((lw,), t, a.device)
        infos = [call(L, "geev", b"N", jv, n, pa, lda, pw, scratch, 1,
                      pv if vectors else vr.ptr, ldv, work.ptr, lw, rwork.ptr)
                 for pa, pw, pv in pointers(batch, buf, w, vr if vectors else buf)]
        wi = None
    else:
        wr = _lapack.empty(a.shape[:-1], t, a.device)
        wi = _lapack.empty(a.shape[:-1], t, a.device)
        lw, = workspace(L, "geev", b"N", jv, n, scratch, lda, scratch, scratch, scratch, 1,
                        scratch, ldv, None, None) if batch else (1,)
        work = _lapack.empty((lw,), t, a.device)
        infos = [call(L, "geev", b"N", jv, n, pa, lda, pr, pi, scratch, 1,
                      pv if vectors else vr.ptr, ldv, work.ptr, lw)
                 for pa, pr, pi, pv in pointers(batch, buf, wr, wi, vr if vectors else buf)]
        w = (wr, wi)
    if any(infos):
        raise LinAlgError("Eigenvalues did not converge")
    return w, (vr.mT if vectors else None), wi


def _unpack_real_eig(wr, wi, v, rt, vectors):
    """Complex results for real input, as the Array API specifies (and PyTorch and JAX
    give): NumPy 2 returns real arrays when every eigenvalue happens to be real, a
    dtype that depends on the values (and would cost a device-to-host sync to decide).
    A conjugate pair's vectors are rebuilt from LAPACK's packed columns
    (``v[:, j] +- 1j * v[:, j+1]`` where ``wi[j] > 0``)."""
    ga = _ga()
    ct = numpy.dtype(numpy.complex64 if rt.itemsize == 4 else numpy.complex128)
    w = ga.empty(wr.shape, dtype=ct, device=wr.device)
    w.real[...] = wr
    w.imag[...] = wi
    if not vectors:
        return w, None
    nxt = ga.concatenate([v[..., 1:], v[..., :1]], axis=-1)   # column j + 1
    prv = ga.concatenate([v[..., -1:], v[..., :-1]], axis=-1)  # column j - 1
    pos = (wi > 0)[..., None, :]
    neg = (wi < 0)[..., None, :]
    vc = ga.empty(v.shape, dtype=ct, device=v.device)
    vc.real[...] = ga.where(neg, prv, v)
    vc.imag[...] = ga.where(pos, nxt, ga.where(neg, -v, 0))
    return w, vc


def _eig(a, fname, vectors):
    a, t, rt = _prepare(a, fname)
    _assert_finite(a)
    w, v, wi = _geev(a, t, vectors)
    if t.kind == "c":
        return w.astype(rt), (v.astype(rt) if vectors else None)
    return _unpack_real_eig(w[0], w[1], v, rt, vectors)


def eig(a):
    """Eigenvalues and right eigenvectors of a stack of square matrices (LAPACK geev).

    The results are complex for every input, as the Array API specifies; NumPy 2 gives
    real arrays for real input whose eigenvalues are all real (the values agree).  Returns ``EigResult(eigenvalues, eigenvectors)``,
    ``a @ v == v * w``; raises LinAlgError for NaN/inf input.

    Parameters
    ----------
    a : ndarray
        (..., M, M) matrices.

    Returns
    -------
    EigResult
        (eigenvalues, eigenvectors), complex.

    Notes
    -----
    Runs on LAPACK on the CPU device; on a GPU device it raises NotImplementedError for
    now (move the array with ``x.to_device('cpu')``).

    See Also
    --------
    numpy.linalg.eig
    """
    return EigResult(*_eig(a, "eig", True))


def eigvals(a):
    """Eigenvalues of a stack of square matrices (LAPACK geev), typed as ``eig``'s.

    Parameters
    ----------
    a : ndarray
        (..., M, M) matrices.

    Returns
    -------
    ndarray
        Complex eigenvalues.

    Notes
    -----
    Runs on LAPACK on the CPU device; on a GPU device it raises NotImplementedError for
    now (move the array with ``x.to_device('cpu')``).

    See Also
    --------
    numpy.linalg.eigvals
    """
    return _eig(a, "eigvals", False)[0]


# The singular value decomposition, and what is built on it (lstsq, pinv, matrix_rank,
# cond), live in garray/linalg/_svd.py; the rest in garray/linalg/_products.py.  They are imported
# last, since they use this module's helpers.
from . import _svd  # noqa: E402
from . import _products as _linalg_misc
from ._svd import *  # noqa: E402,F401,F403
from ._products import *  # noqa: E402,F401,F403

__all__ += _svd.__all__ + _linalg_misc.__all__
