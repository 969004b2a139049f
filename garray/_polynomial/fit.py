"""NumPy's polyfit: a least-squares fit, solved as a scaled Vandermonde system by
garray.linalg's lstsq.  Note [Polynomials] in garray/_polynomial/poly1d.py.
"""

import warnings

import numpy

from .._args import as_array
from .._elementwise.ufuncs import sqrt
from .._gemm.contract import outer
from .._gemm.matmul import matmul
from .._manip.diagonal import vander

__all__ = ["polyfit"]


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares fit of a polynomial of degree ``deg`` to the points ``(x, y)``.

    Parameters
    ----------
    x : array_like
        1-d sample abscissae.
    y : array_like
        Sample values: 1-d, or 2-d with one data set per column.
    deg : int
        Degree of the polynomial.
    rcond : float, optional
        Relative cut-off of small singular values (``len(x) * eps`` by default).
    full : bool, optional
        Also return the residuals, rank, singular values and ``rcond``.
    w : array_like, optional
        Weights multiplying the unsquared residuals.
    cov : bool or 'unscaled', optional
        Also return the covariance of the coefficients (scaled by the residuals unless
        'unscaled').

    Returns
    -------
    p : ndarray
        Coefficients, highest power first (one column per data set of a 2-d ``y``).
    residuals, rank, singular_values, rcond
        With ``full``: as ``numpy.polyfit``'s.
    V : ndarray
        With ``cov`` (and not ``full``): the covariance matrix (matrices).

    Raises
    ------
    ValueError
        For a negative ``deg``, or ``cov`` with too few points.
    TypeError
        For ``x``, ``y`` or ``w`` of the wrong shape or of unequal lengths.

    Warns
    -----
    numpy.exceptions.RankWarning
        When the fit is rank deficient (not with ``full``).

    See Also
    --------
    numpy.polyfit
    """
    order = int(deg) + 1
    x = as_array(x, "x") + 0.0
    y = as_array(y, "y") + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * numpy.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = as_array(w, "w") + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs *= w[:, None]
        if rhs.ndim == 2:
            rhs *= w[:, None]
        else:
            rhs *= w
    scale = sqrt((lhs * lhs).sum(axis=0))
    lhs /= scale
    from ..linalg import inv, lstsq   # here: garray.linalg loads on first use
    c, resids, rank, s = lstsq(lhs, rhs, rcond=rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", numpy.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = inv(matmul(lhs.T, lhs))
        vbase /= outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("the number of data points must exceed order "
                                 "to scale the covariance matrix")
            fac = resids / (x.shape[0] - order)
        if y.ndim == 1:
            return c, vbase * fac
        return c, vbase[:, :, None] * fac
    return c
