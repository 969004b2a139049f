"""garray.linalg's LU-based functions: det, slogdet, inv, solve (LAPACK getrf/gesv on
the CPU device, the vendor solver's getrf/getrs on GPU devices).  Note [linalg dispatch]
in garray/linalg/_common.py.
"""

from collections import namedtuple

import numpy
from numpy.linalg import LinAlgError

from . import _lapack
from ._common import (_batch, _host_mask, _int32, _letter, _on_gpu, _prepare,
                      linalg_types, real_of)
from ._lapack import call, colmajor
from .._vendor._base import pointers
from .._args import as_array
from .._core import broadcast_shapes, broadcast_to, where
from .._creation.ranges import arange, eye
from .._elementwise.ufuncs import abs as _abs, exp, log
from .._manip.diagonal import diagonal
from .._reduce.reductions import count_nonzero, prod, sum as _sum
from .._vendor import gpusolver

__all__ = ["det", "slogdet", "inv", "solve"]

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])


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
    n = a.shape[-1]
    lu, ipiv, infos = _getrf(a, t)
    d = diagonal(lu, axis1=-2, axis2=-1)
    swaps = count_nonzero(ipiv != arange(1, n + 1, dtype=_int32, device=a.device), axis=-1)
    logdet = _sum(log(_abs(d)), axis=-1)
    if t.kind == "c":
        sign = prod(d / _abs(d), axis=-1) * (1 - 2 * (swaps % 2))
    else:
        # NumPy flips the sign per negative pivot; a NaN pivot leaves it, so sign is +-1
        neg = count_nonzero(d < 0, axis=-1)
        sign = (1 - 2 * ((swaps + neg) % 2)).astype(t)
    if any(infos):
        # an exactly singular U: NumPy answers sign 0, log|det| -inf
        singular = _host_mask([i > 0 for i in infos], a.shape[:-2], a.device)
        sign = where(singular, 0, sign)
        logdet = where(singular, -numpy.inf, logdet)
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
    sign, logdet = _slogdet(a, t)
    return (sign * exp(logdet)).astype(rt)


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
        b[...] = where(bad, numpy.nan, b)
    return b


def _inv(a, t, nan_on_error=False):
    n = a.shape[-1]
    b = _lapack.empty(a.shape, t, a.device)
    b[...] = eye(n, dtype=t, device=a.device)   # column-major I is I
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
        batch = broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    except ValueError:
        raise ValueError(f"solve: the batch dimensions of a {a.shape} and b {b.shape} "
                         "do not broadcast") from None
    k = bm.shape[-1]
    a = broadcast_to(a, batch + (m, m))
    x = colmajor(broadcast_to(bm, batch + (m, k)), t)
    if _batch(batch) and m:
        x = _gesv(a, x, t)
    x = x.mT.astype(rt)
    return x[..., 0] if vector else x
