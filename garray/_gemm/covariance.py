"""cov and corrcoef: NumPy's estimators, as one GEMM of the centred observations.

Every value is garray's (average, subtract, dot, sqrt, clip); the host decides shapes and
the degrees of freedom.  Weight checks read one bool or scalar back, as NumPy's ``if``
statements do.
"""

import warnings

import numpy

from .._args import as_array
from .contract import dot
from .._array_utils import array
from .._core import asarray, empty, squeeze
from .._dtypes import result_type
from .._elementwise.functions import clip
from .._elementwise.math_extras import round as _round
from .._elementwise.ufuncs import conj, imag, real, sqrt, true_divide
from .._inquiry import iscomplexobj
from .._manip.diagonal import diagonal
from .._manip.joining import concatenate
from .._reduce.reductions import all as _all, any as _any, sum as _sum
from .._reduce.statistics import average

__all__ = ["cov", "corrcoef"]


def _weights(w, name, nobs, integer):
    w = asarray(w, dtype=numpy.float64)
    if integer and not bool(_all(w == _round(w))):
        raise TypeError(f"{name} must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.shape[0] != nobs:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if bool(_any(w < 0)):
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
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = as_array(m, "m")
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = as_array(y, "y")
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = result_type(m.dtype, numpy.float64) if y is None else \
            result_type(m.dtype, y.dtype, numpy.float64)
    x = array(m, ndmin=2, dtype=dtype)
    if not rowvar and m.ndim != 1:
        x = x.T
    if x.shape[0] == 0:                   # NumPy: float64, whatever the dtype
        return empty((0, 0), dtype=numpy.float64, device=m.device)
    if y is not None:
        y = array(y, ndmin=2, dtype=dtype)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        x = concatenate((x, y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = _weights(fweights, "fweights", x.shape[1], True)
    if aweights is not None:
        aweights = _weights(aweights, "aweights", x.shape[1], False)
        w = aweights if w is None else w * aweights
    avg, w_sum = average(x, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = x.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * _sum(w * aweights) / w_sum
    fv = complex(fact)                    # complex weights sum: NumPy's complex order
    if (fv.real, fv.imag) <= (0.0, 0.0):
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    x = x - avg[:, None]
    xt = x.T if w is None else (x * w).T
    c = dot(x, conj(xt))
    c *= true_divide(1, fact)     # in place: the result keeps dtype=, as NumPy's
    return squeeze(c)


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
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c            # one variable: NaN or 1, as NumPy
    d = diagonal(c)
    std = sqrt(real(d))
    c = c / std[:, None]
    c = c / std[None, :]
    if iscomplexobj(c):
        return clip(real(c), -1, 1) + 1j * clip(imag(c), -1, 1)
    return clip(c, -1, 1)
