"""The NaN-skipping reductions: ``nansum``, ``nanprod``, ``nanmin``, ``nanmax``,
``nanargmin``, ``nanargmax``, ``nanmean``, ``nanvar`` and ``nanstd``.

The semantics follow NumPy's ``_nanfunctions_impl.py``: integers and bool have no NaN
(plain reductions); floats skip NaN.  All-NaN slices: nanmin/nanmax give NaN and warn,
nanargmin/nanargmax raise ValueError, nanmean/nanvar give NaN and warn.  One
difference: nanargmin/nanargmax skip NaN in the reduction (row ``nanargmin``), where
NumPy replaces NaN by +inf/-inf first, so NumPy can answer the index of a NaN that ties
with an infinity (``[nan, inf]``: NumPy 0, garray 1; complex: any value with an infinite
real part).
"""

from .._dtypes import kind_of as _kind_of
import math

from .._args import as_array, reduction_axes
from .. import _core
from .._core import ndarray
from .reductions import _check_index_out, _check_ufunc_out, _store, reduce
from .._elementwise import ufuncs as _u
from .common import _any, _as_dtype, _inexact, _kind, _norm_dtype, _warn
from .moments import _ddof, _squared_magnitude, _squeeze_axes, _var, mean

__all__ = ["nansum", "nanprod", "nanmin", "nanmax", "nanargmin", "nanargmax", "nanmean",
           "nanvar", "nanstd"]


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum treating NaN as zero (dtypes as ``sum``).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Dtypes as sum.

    See Also
    --------
    numpy.nansum
    """
    return reduce("nansum", a, axis, keepdims, dtype, out, initial, where, _u.add, "nansum")


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product treating NaN as one (dtypes as ``prod``).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Dtypes as prod.

    See Also
    --------
    numpy.nanprod
    """
    return reduce("nanprod", a, axis, keepdims, dtype, out, initial, where, _u.multiply,
                  "nanprod")


def _nanminmax(name, combine, a, axis, out, keepdims, initial, where):
    x = (a if type(a) is ndarray else as_array(a, f"{name}: a"))
    r = reduce(name, x, axis, keepdims, None, None, initial, where, combine, name)
    if _inexact(r) and _any(_u.isnan(r)):
        _warn("All-NaN slice encountered", 1)
    return _store(r, out, name)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Smallest element ignoring NaN; an all-NaN slice gives NaN and a RuntimeWarning.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        In a's dtype.

    See Also
    --------
    numpy.nanmin
    """
    return _nanminmax("nanmin", _u.fmin, a, axis, out, keepdims, initial, where)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Largest element ignoring NaN; an all-NaN slice gives NaN and a RuntimeWarning.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    initial : scalar, optional
        Starting value of the reduction, included in every slice.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        In a's dtype.

    See Also
    --------
    numpy.nanmax
    """
    return _nanminmax("nanmax", _u.fmax, a, axis, out, keepdims, initial, where)


def _nanarg(name, a, axis, out, keepdims):
    _check_index_out(out, name)
    x = (a if type(a) is ndarray else as_array(a, f"{name}: a"))
    if isinstance(axis, (tuple, list)):
        raise TypeError(f"{name}: axis must be an integer or None, got "
                        f"{type(axis).__name__}")
    if axis is None:
        r = reduce(name, x.reshape(-1), None, False, api=name)
        if keepdims:
            r = r.reshape((1,) * x.ndim)
    else:
        r = reduce(name, x, axis, keepdims, api=name)
    if _inexact(x) and r.size and _any(_u.equal(r, -1)):
        raise ValueError(f"{name}: All-NaN slice encountered")
    return _store(r, out, name)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the smallest element ignoring NaN; an all-NaN slice is a ValueError.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        int64 indices.

    See Also
    --------
    numpy.nanargmin
    """
    return _nanarg("nanargmin", a, axis, out, keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the largest element ignoring NaN; an all-NaN slice is a ValueError.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        int64 indices.

    See Also
    --------
    numpy.nanargmax
    """
    return _nanarg("nanargmax", a, axis, out, keepdims)


def _nan_dtype(x, dtype, out, name):
    dt = _norm_dtype(dtype, name)
    if dt is not None and _kind_of(dt) not in "fc":
        raise TypeError(f"{name}: if a is inexact, then dtype must be inexact")
    if out is not None and isinstance(out, ndarray) and _kind(out) not in "fc":
        raise TypeError(f"{name}: if a is inexact, then out must be inexact")
    return dt


def _nan_prepare(x, axes, where, name):
    """(x with NaN -> 0, the NaN mask, non-NaN count per slice with keepdims)."""
    mask = _u.isnan(x)
    keep = _u.logical_not(mask)
    if where is not True:
        keep = _u.logical_and(keep, as_array(where, f"{name}: where"))
        keep = _core.broadcast_to(keep, x.shape) if keep.shape != x.shape else keep
    cnt = reduce("count_nonzero", keep, axes, True, api=name)
    return _core.where(mask, _core.zeros((), dtype=x.dtype, device=x.device), x), mask, cnt


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Mean ignoring NaN; an all-NaN slice is NaN with a RuntimeWarning.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.

    Returns
    -------
    ndarray
        Dtypes as mean.

    See Also
    --------
    numpy.nanmean
    """
    x = as_array(a, "nanmean: a")
    if not _inexact(x):
        return mean(x, axis=axis, keepdims=keepdims, dtype=dtype, out=out, where=where)
    dt = _nan_dtype(x, dtype, out, "nanmean")
    axes = reduction_axes(axis, x.ndim, "nanmean")
    xz, _, cnt = _nan_prepare(x, axes, where, "nanmean")
    tot = reduce("sum", xz, axes, keepdims, dt, where=where, api="nanmean")
    cnt = _squeeze_axes(cnt, axes, keepdims)
    r = _as_dtype(_u.divide(tot, cnt), tot.dtype)
    if _any(_u.equal(cnt, 0)):
        _warn("Mean of empty slice")
    return _store(r, out, "nanmean")


def _nanvar(a, axis, dtype, out, ddof, keepdims, where, correction, name, sqrt):
    x = (a if type(a) is ndarray else as_array(a, f"{name}: a"))
    if not _inexact(x):
        return _var(x, axis, dtype, out, ddof, keepdims, where, correction, name, sqrt)
    ddof = _ddof(ddof, correction, name)
    dt = _nan_dtype(x, dtype, out, name)
    axes = reduction_axes(axis, x.ndim, name)
    xz, mask, cnt = _nan_prepare(x, axes, where, name)
    # NumPy's _nanvar: the mean in dt, deviations stored in the input's dtype
    s1 = reduce("sum", xz, axes, True, dt, where=where, api=name)
    m = _as_dtype(_u.divide(s1, cnt), s1.dtype)
    d = _as_dtype(_u.subtract(xz, m), x.dtype)
    d = _core.where(mask, _core.zeros((), dtype=d.dtype, device=d.device), d)
    s = reduce("sum", _squared_magnitude(d, True), axes, keepdims, dt, where=where,
               api=name)
    dof = _u.subtract(_squeeze_axes(cnt, axes, keepdims), ddof)
    r = _as_dtype(_u.divide(s, dof), s.dtype)
    bad = _u.less_equal(dof, 0)
    if _any(bad):
        _warn("Degrees of freedom <= 0 for slice.", 1)
        r = _core.where(bad, _core.full((), math.nan, dtype=r.dtype, device=r.device), r)
    if sqrt:
        r = _u.sqrt(r)
        _check_ufunc_out(r, out, "sqrt", name)
    return _store(r, out, name)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           correction=None):
    """Variance ignoring NaN; slices with ``n - ddof <= 0`` non-NaN elements are NaN
    with a RuntimeWarning.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.
    correction : int or float, optional
        The Array API's name for ddof (not both).

    Returns
    -------
    ndarray
        Dtypes as var.

    See Also
    --------
    numpy.nanvar
    """
    return _nanvar(a, axis, dtype, out, ddof, keepdims, where, correction, "nanvar", False)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           correction=None):
    """Standard deviation ignoring NaN: the square root of ``nanvar``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    where : array_like of bool, optional
        Elements to include (broadcast against the input); NumPy's rule.
    correction : int or float, optional
        The Array API's name for ddof (not both).

    Returns
    -------
    ndarray
        Dtypes as std.

    See Also
    --------
    numpy.nanstd
    """
    return _nanvar(a, axis, dtype, out, ddof, keepdims, where, correction, "nanstd", True)
