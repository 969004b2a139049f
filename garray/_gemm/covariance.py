"""cov and corrcoef: NumPy's estimators, as one GEMM of the centred observations.

Every value is garray's (average, subtract, dot, sqrt, clip); the host decides shapes and
the degrees of freedom.  Weight checks read one bool or scalar back, as NumPy's ``if``
statements do.
"""

import warnings

import numpy

from .._dtypes import result_type

__all__ = ["cov", "corrcoef"]


def _ga():
    import garray
    return garray


def _weights(w, name, nobs, ga, integer):
    w = ga.asarray(w, dtype=ga.float64)
    if integer and not bool(ga.all(w == ga.round(w))):
        raise TypeError(f"{name} must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.shape[0] != nobs:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if bool(ga.any(w < 0)):
        raise ValueError(f"{name} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """Covariance matrix of the variables in the rows (``rowvar=True``) or columns of
    ``m`` (and ``y``), with NumPy's ``bias``, ``ddof``, frequency and analytic weights.

    >>> garray.cov(garray.asarray([[0., 1., 2.], [2., 1., 0.]]))
    array([[ 1., -1.],
           [-1.,  1.]])

    Parameters
    ----------
    m : ndarray or array_like
        Variables (rows when rowvar) and observations.
    y : ndarray or array_like, optional
        More variables.
    rowvar : bool, optional
        Whether rows are variables.
    bias : bool, optional
        Normalise by N instead of N - 1.
    ddof : int, optional
        Overrides bias.
    fweights : ndarray, optional
        Integer frequency weights per observation.
    aweights : ndarray, optional
        Analytic weights per observation.
    dtype : dtype, optional
        The computation dtype.

    Returns
    -------
    ndarray
        The covariance matrix (0-d for one variable).

    See Also
    --------
    numpy.cov
    """
    ga = _ga()
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = ga.asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = ga.asarray(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = result_type(m.dtype, numpy.float64) if y is None else \
            result_type(m.dtype, y.dtype, numpy.float64)
    x = ga.array(m, ndmin=2, dtype=dtype)
    if not rowvar and m.ndim != 1:
        x = x.T
    if x.shape[0] == 0:
        return ga.empty((0, 0), dtype=dtype, device=m.device)
    if y is not None:
        y = ga.array(y, ndmin=2, dtype=dtype)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        x = ga.concatenate((x, y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = _weights(fweights, "fweights", x.shape[1], ga, True)
    if aweights is not None:
        aweights = _weights(aweights, "aweights", x.shape[1], ga, False)
        w = aweights if w is None else w * aweights
    avg, w_sum = ga.average(x, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = x.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * ga.sum(w * aweights) / w_sum
    if float(fact) <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    x = x - avg[:, None]
    xt = x.T if w is None else (x * w).T
    c = ga.dot(x, ga.conj(xt))
    c *= ga.true_divide(1, fact)     # in place: the result keeps dtype=, as NumPy's
    return ga.squeeze(c)


def corrcoef(x, y=None, rowvar=True, bias=numpy._NoValue, ddof=numpy._NoValue, *,
             dtype=None):
    """Pearson correlation coefficients: ``cov`` normalised by the standard deviations,
    clipped to [-1, 1] (real and imaginary parts). ``bias`` and ``ddof`` have no effect
    and warn, as NumPy's.

    >>> garray.corrcoef(garray.asarray([[0., 1., 2.], [2., 1., 0.]]))
    array([[ 1., -1.],
           [-1.,  1.]])

    Parameters
    ----------
    x : ndarray or array_like
        Variables (rows when rowvar) and observations.
    y : ndarray or array_like, optional
        More variables.
    rowvar : bool, optional
        Whether rows are variables.
    bias : optional
        No effect (deprecated, warns as NumPy's).
    ddof : optional
        No effect (deprecated, warns as NumPy's).
    dtype : dtype, optional
        The computation dtype.

    Returns
    -------
    ndarray
        The correlation matrix (0-d for one variable).

    See Also
    --------
    numpy.corrcoef
    """
    if bias is not numpy._NoValue or ddof is not numpy._NoValue:
        warnings.warn("bias and ddof have no effect and are deprecated",
                      DeprecationWarning, stacklevel=2)
    ga = _ga()
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c            # one variable: NaN or 1, as NumPy
    d = ga.diagonal(c)
    std = ga.sqrt(ga.real(d))
    c = c / std[:, None]
    c = c / std[None, :]
    if ga.iscomplexobj(c):
        return ga.clip(ga.real(c), -1, 1) + 1j * ga.clip(ga.imag(c), -1, 1)
    return ga.clip(c, -1, 1)
