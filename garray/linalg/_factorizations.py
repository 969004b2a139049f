"""garray.linalg's factorizations: cholesky (LAPACK potrf) and qr (geqrf, orgqr/ungqr),
on the CPU device's LAPACK and the GPU devices' vendor solver.  Note [linalg dispatch]
in garray/linalg/_common.py.
"""

import warnings
from collections import namedtuple

from numpy.linalg import LinAlgError

from . import _lapack
from ._common import _batch, _letter, _on_gpu, _prepare
from ._lapack import call, colmajor, workspace
from .._vendor._base import pointers
from .._creation.ranges import tril, triu
from .._vendor import gpusolver

__all__ = ["cholesky", "qr"]

QRResult = namedtuple("QRResult", ["Q", "R"])


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
    r = triu(buf.mT) if upper else tril(buf.mT)
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
    a, t, rt = _prepare(a, "qr", square=False)
    m, n = a.shape[-2:]
    k = min(m, n)
    h, tau = _geqrf(a, t)
    if mode == "raw":
        return h.astype(rt), tau.astype(rt)
    if mode == "economic":
        return h.mT.astype(rt)
    rows = m if mode == "complete" else k
    r = triu(h.mT[..., :rows, :]).astype(rt)
    if mode == "r":
        return r
    cols = m if mode == "complete" else k
    q = _lapack.empty(a.shape[:-2] + (cols, m), t, a.device)
    q[..., :k, :] = h[..., :k, :]
    if _batch(a.shape[:-2]) and m:
        _orgqr(q, tau, m, cols, t)
    return QRResult(q.mT.astype(rt), r)
