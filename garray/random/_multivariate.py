"""Vector-valued distributions of ``Generator``: ``dirichlet`` and
``multivariate_normal``, whose draws have a last axis of the parameters' length.

Both draw standard variates with one kernel launch (``dirichlet`` the logarithms of
gammas, kind ``log_standard_gamma`` of ``_continuous.KINDS``; ``multivariate_normal``
normals) and combine them with garray's own reductions, ufuncs and linear algebra, so
the work stays on the parameters' device.  See docs/random-continuous.md (dirichlet)
and docs/random-sampling.md (multivariate_normal).
"""

from .._dtypes import kind_of as _kind_of
import warnings

import numpy

from .. import linalg
from .._args import as_array
from .._core import empty, ndarray
from .._elementwise.ufuncs import absolute, exp, sqrt
from .._gemm.matmul import matmul
from .._index.where import where
from .._inquiry import isneginf
from .._reduce import reductions
from .._reduce.comparisons import allclose
from . import _draw
from ._continuous import KINDS
from ._generator_base import _F64, _check_nonneg, _shape


class _MultivariateMethods:
    """Mixed into ``Generator``."""

    def dirichlet(self, alpha, size=None):
        """Dirichlet variates over the last axis: gammas G(alpha_j) normalised to sum 1.

        The kernel draws log G (no underflow for tiny alpha, where NumPy switches to
        stick-breaking), and garray's reductions normalise: ``exp(l - max l) / sum``.
        A row whose alphas are all 0 is all 0, as in NumPy.

        Parameters
        ----------
        alpha : sequence of floats
            Concentration parameters, positive; the last axis of the result.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64, of shape size + (len(alpha),).

        See Also
        --------
        numpy.random.Generator.dirichlet
        """
        a = _alpha(alpha)
        _check_nonneg(a, "alpha")
        shape = _shape(size) + a.shape
        if 0 in shape:
            return empty(shape, dtype=_F64)
        logs = _draw.dist(self._bit_generator, KINDS["log_standard_gamma"], shape, _F64, a)
        top = reductions.max(logs, axis=-1, keepdims=True)
        # All-zero alphas: every log is -inf; shifting by 0 instead gives 0 / 0 -> 0 below.
        top = where(isneginf(top), 0.0, top)
        e = exp(logs - top)
        total = reductions.sum(e, axis=-1, keepdims=True)
        return e / where(total == 0.0, 1.0, total)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                            method="svd"):
        """Draws from the multivariate normal N(mean, cov): standard normals times a
        factor F of ``cov`` (F F^T = cov) from garray.linalg's ``svd``, ``eigh`` or
        ``cholesky`` (``method``), plus ``mean``.  Shape ``size + (len(mean),)``.

        ``check_valid`` ('warn', 'raise', 'ignore'; not used by 'cholesky', which fails
        on its own): NumPy's test that ``cov`` is symmetric positive-semidefinite within
        ``tol``.  On a GPU device the decomposition is the vendor solver's
        (cuSOLVER / hipSOLVER), whose factor may differ from the CPU device's by column
        signs: the law is the same, the draws for one seed are not.

        Parameters
        ----------
        mean : array_like
            Mean vector (1-d, of length N).
        cov : array_like
            Covariance matrix, symmetric positive semi-definite.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        check_valid : {'warn', 'raise', 'ignore'}, optional
            What to do when cov is not positive semi-definite.
        tol : float, optional
            Tolerance of that check.
        method : {'svd', 'eigh', 'cholesky'}, optional
            The factorisation of cov ('svd' by default).

        Returns
        -------
        ndarray
            float64, of shape size + (N,).

        See Also
        --------
        numpy.random.Generator.multivariate_normal
        """
        if method not in ("eigh", "svd", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        mu = as_array(mean, "mean")
        c = as_array(cov, "cov", mu.device)
        if _kind_of(mu.dtype) == "c" or _kind_of(c.dtype) == "c":
            raise TypeError("mean and cov must not be complex")
        if mu.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mu.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if c.device != mu.device:
            raise ValueError(f"cov: on {c.device}, mean is on {mu.device}")
        if mu.shape[0] == 0:
            # NumPy fails here too (reshaping the draws to (-1, 0))
            raise ValueError("mean and cov: cannot draw from a 0-dimensional distribution")
        final = _shape(size) + (mu.shape[0],)
        c = c.astype("float64")
        z = _draw.normal(self._bit_generator, final, _F64, device=c.device)
        z = z.reshape((-1, mu.shape[0]))
        if method == "svd":
            u, s, vh = linalg.svd(c)
        elif method == "eigh":
            s, u = linalg.eigh(c)
        else:
            factor = linalg.cholesky(c)
        if check_valid != "ignore" and method != "cholesky":
            if check_valid not in ("warn", "raise"):
                raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
            if method == "svd":
                psd = bool(allclose(matmul(vh.T * s, vh), c, rtol=tol, atol=tol))
            else:
                psd = not bool(reductions.any(s < -tol))
            if not psd:
                msg = "covariance is not symmetric positive-semidefinite."
                if check_valid == "warn":
                    warnings.warn(msg, RuntimeWarning, stacklevel=2)
                else:
                    raise ValueError(msg)
        if method == "eigh":
            # |s|: tiny negative eigenvalues of a PSD matrix must not make NaNs
            factor = u * sqrt(absolute(s))
        elif method == "svd":
            factor = u * sqrt(s)
        return (mu + matmul(z, factor.T)).reshape(final)


def _alpha(alpha):
    """dirichlet's alpha as a 1-d float64 garray array (NumPy's TypeError for a scalar,
    ValueError for more dimensions)."""
    if not isinstance(alpha, (ndarray, numpy.ndarray)):
        try:
            len(alpha)
        except TypeError:
            raise TypeError(f"alpha: expected a 1-d sequence, got {type(alpha).__name__}"
                            ) from None
    a = as_array(alpha, "alpha")
    if a.ndim == 0:
        raise TypeError("alpha: expected a 1-d sequence, got a 0-d array")
    if a.ndim != 1:
        raise ValueError(f"alpha: expected a 1-d sequence, got {a.ndim} dimensions")
    if _kind_of(a.dtype) not in "biuf":
        raise TypeError(f"alpha: expected real numbers, got {a.dtype}")
    return a.astype("float64")
