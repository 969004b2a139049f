"""Moments over the reduction family: ``mean``, ``var`` and ``std``, and the counts,
degrees of freedom and squared deviations the nan* forms (garray/_reduce/nan.py) share.

The semantics follow NumPy's ``_methods.py``:

* ``mean``: bool and integers sum in float64, float16 in float32 (the result float16);
  ``dtype=`` casts the input first; an empty slice gives NaN with RuntimeWarning "Mean
  of empty slice".
* A sum is divided by its count as NumPy divides by an ``intp``: in float64 (complex128)
  at least, then cast back (``_per_count``), so a float16 slice of more than 65,504
  elements is not divided by a count that overflowed to ``inf``.
* ``var``/``std``: two passes (the mean with keepdims, then the sum of squared
  deviations, ``|x - m|**2`` for complex, so the result is real); the divisor is
  ``max(n - ddof, 0)`` (0/0 -> NaN, s/0 -> inf) with RuntimeWarning "Degrees of freedom
  <= 0 for slice".  ``correction`` (Array API) and ``ddof`` (NumPy) are both accepted;
  a nonzero ``ddof`` together with ``correction`` is NumPy's ValueError.
"""

import math
import numbers

import numpy

from .._args import as_array, reduction_axes
from .. import _core, _dtypes
from .._core import ndarray
from .reductions import _check_ufunc_out, _store, reduce
from .._elementwise import ufuncs as _u
from .common import _F64, _any, _as_dtype, _kind, _norm_dtype, _warn

__all__ = ["mean", "var", "std"]


def _count(x, axes, where, keepdims, name):
    """Elements per slice over ``axes``: a Python int when ``where`` is True, else an
    int64 garray array (the ``where`` mask broadcast to x, counted)."""
    if where is True:
        return math.prod(x.shape[a] for a in axes)
    w = _core.broadcast_to(as_array(where, f"{name}: where"), x.shape)
    return reduce("count_nonzero", w, axes, keepdims, api=name)


def _squared_magnitude(d, magnitude):
    """``magnitude``: |d|**2 = re**2 + im**2 (a real dtype); else d*d, in place (d is a
    temporary of the caller's, as in NumPy's _var: one array less to allocate and fault
    in)."""
    if magnitude and _kind(d) == "c":
        re, im = _u.real(d), _u.imag(d)
        return _u.add(_u.multiply(re, re), _u.multiply(im, im))
    return _u.multiply(d, d, out=d)


def _squeeze_axes(c, axes, keepdims):
    """A count computed with keepdims=True, reshaped to the result's shape."""
    if keepdims or not isinstance(c, ndarray):
        return c
    return c.reshape(tuple(s for i, s in enumerate(c.shape) if i not in axes))


def _mean_dtype(x, dtype, name):
    dt = _norm_dtype(dtype, name)
    if dt is None and _kind(x) in "biu":
        dt = _F64
    return dt


def _per_count(s, n):
    """s / n in s's dtype, divided as NumPy's _methods divide by an ``intp`` count: a
    Python number becomes a (strong) float64, so the division runs in float64 or
    complex128 and the result is cast back once."""
    if not isinstance(n, ndarray):
        n = numpy.float64(n)
    return _as_dtype(_u.divide(s, n), s.dtype)


def mean(x, /, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean over ``axis``: bool and integers in float64, float16 summed in
    float32, other dtypes in their own (``dtype=`` casts the input first); an empty
    slice is NaN with a RuntimeWarning.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        float64 for bool and integer input, the input's (or dtype's) dtype otherwise;
        0-d when every axis is reduced.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.mean(x, 0)`` as
    ``numpy.mean``), with the Array API's keywords.

    See Also
    --------
    numpy.mean
    """
    x = as_array(x, "mean: x")
    axes = reduction_axes(axis, x.ndim, "mean")
    dt = _mean_dtype(x, dtype, "mean")
    if dt is None and isinstance(out, ndarray) and _dtypes.is_ml_format(x.dtype):
        dt = out.dtype      # NumPy's sum of an ml_dtypes array into out runs in out's dtype
    half = dt is None and _dtypes.is_narrow(x.dtype)     # NumPy: a float32 sum
    n = _count(x, axes, where, keepdims, "mean")
    if (n == 0) if isinstance(n, int) else _any(_u.equal(n, 0)):
        _warn("Mean of empty slice.")
    s = reduce("sum", x, axes, keepdims, _dtypes.float32 if half else dt, where=where,
               api="mean")
    r = _per_count(s, n)
    return _store(_as_dtype(r, x.dtype) if half and out is None else r, out, "mean")


def _ddof(ddof, correction, name):
    if correction is not None:
        if ddof != 0:
            raise ValueError(f"{name}: ddof and correction can't be provided "
                             f"simultaneously.")
        ddof = correction
    if not isinstance(ddof, numbers.Real):
        raise TypeError(f"{name}: ddof/correction must be a real number, got "
                        f"{type(ddof).__name__}")
    return ddof


def _var(x, axis, dtype, out, ddof, keepdims, where, correction, name, sqrt):
    x = (x if type(x) is ndarray else as_array(x, f"{name}: x"))
    ddof = _ddof(ddof, correction, name)
    axes = reduction_axes(axis, x.ndim, name)
    dt = _mean_dtype(x, dtype, name)
    n = _count(x, axes, where, True, name)
    # NumPy's _var: the mean in dt, deviations of the uncast input, squares by the
    # input's kind (|d|**2 for complex input; d*d otherwise, complex when dt is)
    s1 = reduce("sum", x, axes, True, dt, where=where, api=name)
    m = _per_count(s1, n)
    sq = _squared_magnitude(_u.subtract(x, m), _kind(x) == "c")
    s = reduce("sum", sq, axes, keepdims, dt, where=where, api=name)
    n = _squeeze_axes(n, axes, keepdims)
    if isinstance(n, int):
        if ddof >= n:
            _warn("Degrees of freedom <= 0 for slice", 1)
        dof = n - ddof if n - ddof > 0 else 0
    else:
        if _any(_u.less_equal(n, ddof)):
            _warn("Degrees of freedom <= 0 for slice", 1)
        dof = _u.maximum(_u.subtract(n, ddof), 0)
    r = _per_count(s, dof)
    if sqrt:
        r = _u.sqrt(r)
        _check_ufunc_out(r, out, "sqrt", name)
    return _store(r, out, name)


def var(x, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        correction=None):
    """Variance ``sum(|x - mean|**2) / (n - ddof)`` over ``axis`` (``correction`` is
    the Array API spelling of ``ddof``); complex input gives a real result.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    correction : int or float, optional
        The Array API's name for ddof (not both).
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Real: float64 for bool and integers, the real dtype of floating and complex
        input.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.var(x, 0)`` as
    ``numpy.var``), with the Array API's keywords.

    See Also
    --------
    numpy.var
    """
    return _var(x, axis, dtype, out, ddof, keepdims, where, correction, "var", False)


def std(x, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        correction=None):
    """Standard deviation: the square root of ``var``.

    Parameters
    ----------
    x : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    correction : int or float, optional
        The Array API's name for ddof (not both).
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Real: float64 for bool and integers, the real dtype of floating and complex
        input.

    Notes
    -----
    Arguments in NumPy's positional order (``garray.std(x, 0)`` as
    ``numpy.std``), with the Array API's keywords.

    See Also
    --------
    numpy.std
    """
    return _var(x, axis, dtype, out, ddof, keepdims, where, correction, "std", True)
