"""garray.linalg's eigenproblems: eigh and eigvalsh (LAPACK syevd/heevd), eig and
eigvals (geev), on the CPU device's LAPACK and the GPU devices' vendor solver.  Note
[linalg dispatch] in garray/linalg/_common.py.
"""

from collections import namedtuple

import numpy
from numpy.linalg import LinAlgError

from . import _lapack
from ._common import _batch, _c128, _int32, _letter, _on_gpu, _prepare, real_of
from ._lapack import call, colmajor, workspace
from .._vendor._base import pointers
from .._core import empty, where
from .._elementwise.ufuncs import isfinite
from .._manip.joining import concatenate
from .._vendor import gpusolver

__all__ = ["eigh", "eigvalsh", "eig", "eigvals"]

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])


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
    if not bool(isfinite(a).all()):
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
    ct = numpy.dtype(numpy.complex64 if rt.itemsize == 4 else numpy.complex128)
    w = empty(wr.shape, dtype=ct, device=wr.device)
    w.real[...] = wr
    w.imag[...] = wi
    if not vectors:
        return w, None
    nxt = concatenate([v[..., 1:], v[..., :1]], axis=-1)   # column j + 1
    prv = concatenate([v[..., -1:], v[..., :-1]], axis=-1)  # column j - 1
    pos = (wi > 0)[..., None, :]
    neg = (wi < 0)[..., None, :]
    vc = empty(v.shape, dtype=ct, device=v.device)
    vc.real[...] = where(neg, prv, v)
    vc.imag[...] = where(pos, nxt, where(neg, -v, 0))
    return w, vc


def _eig(a, fname, vectors):
    a, t, rt = _prepare(a, fname, before_types=_assert_finite)    # NumPy's order
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
