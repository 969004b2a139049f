"""NumPy's polynomial functions that solve linear algebra problems: poly (a product of
linear factors, or a matrix's characteristic polynomial), roots (the companion matrix's
eigenvalues) and polyfit (a least-squares fit).  Note [Polynomials] in
garray/_polynomial/poly1d.py.
"""

import warnings

import numpy

from .._manip.common import as_array

__all__ = ["poly", "roots", "polyfit"]


def _ga():
    import garray
    return garray


def _atleast_1d(p, name):
    """``p`` (a poly1d's coefficients, or an array-like) as a garray array of at least
    one axis."""
    from .poly1d import poly1d
    return _ga().atleast_1d(p.coeffs if isinstance(p, poly1d) else as_array(p, name))


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given roots (or of a square
    matrix's characteristic polynomial).

    Parameters
    ----------
    seq_of_zeros : array_like
        The roots (1-d), or a non-empty square 2-d array whose eigenvalues are the roots.

    Returns
    -------
    ndarray or float
        The coefficients, highest power first (real when the complex roots come in
        conjugate pairs); 1.0 for no roots.

    Raises
    ------
    ValueError
        For input that is neither 1-d nor a non-empty square 2-d array.

    See Also
    --------
    numpy.poly
    """
    ga = _ga()
    z = _atleast_1d(seq_of_zeros, "seq_of_zeros")
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = ga.linalg.eigvals(z)
    elif len(sh) == 1:
        z = z.astype(numpy.dtype(ga.mintypecode(z.dtype.char)))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    dt = z.dtype
    a = ga.ones((1,), dtype=dt, device=z.device)
    step = ga.ones((z.shape[0], 2), dtype=dt, device=z.device)
    step[:, 1] = -z                    # row i: [1, -z_i]
    for i in range(z.shape[0]):
        a = ga.convolve(a, step[i], mode="full")
    if dt.kind == "c":
        r = z.astype(numpy.complex128)
        if bool(ga.all(ga.sort(r) == ga.sort(ga.conj(r)))):
            a = a.real.copy()
    return a


def roots(p):
    """The roots of the polynomial with coefficients ``p`` (highest power first).

    Parameters
    ----------
    p : array_like
        1-d coefficients.

    Returns
    -------
    ndarray
        The roots: the eigenvalues of the companion matrix, real when all are real and
        ``p`` is, then one zero per trailing zero coefficient.

    Raises
    ------
    ValueError
        For ``p`` of more than one axis.

    See Also
    --------
    numpy.roots
    """
    ga = _ga()
    p = _atleast_1d(p, "p")
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    dev = p.device
    nz = ga.nonzero(p)[0]
    if nz.shape[0] == 0:
        return ga.empty((0,), dtype=numpy.float64, device=dev)
    first, last = (int(v) for v in nz[ga.asarray([0, -1], device=dev)].get())
    trailing = p.shape[0] - last - 1
    p = p[first:last + 1]
    complex_in = p.dtype.kind == "c"
    if p.dtype.kind not in "fc":
        p = p.astype(numpy.float64)
    n = p.shape[0]
    if n > 1:
        a = ga.diag(ga.ones((n - 2,), dtype=p.dtype, device=dev), -1)
        a[0, :] = -p[1:] / p[0]
        r = ga.linalg.eigvals(a)
        if not complex_in and not bool(ga.any(r.imag != 0)):
            r = r.real.copy()          # Note [Polynomials] 3 (garray/_polynomial/poly1d.py)
    else:
        r = ga.empty((0,), dtype=numpy.float64, device=dev)
    return ga.concat((r, ga.zeros((trailing,), dtype=r.dtype, device=dev)))


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
    ga = _ga()
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
    lhs = ga.vander(x, order)
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
    scale = ga.sqrt((lhs * lhs).sum(axis=0))
    lhs /= scale
    c, resids, rank, s = ga.linalg.lstsq(lhs, rhs, rcond=rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", numpy.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = ga.linalg.inv(ga.matmul(lhs.T, lhs))
        vbase /= ga.outer(scale, scale)
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
