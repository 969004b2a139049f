"""Order statistics on the sort kernels: median, quantile, percentile, their nan forms,
and digitize.

Note [Quantiles]
~~~~~~~~~~~~~~~~
1. The reduced axes are moved last and flattened into rows (garray/_sort/sorting.py
   ``to_rows``); each row is sorted on the device (NaNs last).
2. Per row and quantile, NumPy's virtual index (``method``) and its two neighbours are
   computed with garray ops on the device; ``take_rows`` gathers the neighbours and
   NumPy's ``_lerp`` (or the discrete choice) gives the value.  The nan forms count each
   row's non-NaN elements first (they are the row's head after the sort).
3. Without ``nan``, a row holding a NaN gives NaN (its last sorted element is NaN);
   with ``nan``, an all-NaN row gives NaN and a RuntimeWarning, as NumPy.
4. Results: q's shape first, then the kept axes (NumPy's layout); ``keepdims`` keeps
   the reduced axes as length 1.
"""

from .._dtypes import kind_of as _kind_of
import warnings

from numpy.exceptions import AxisError

from .._args import as_array, reduction_axes
from .. import _core, _dtypes
from .. import _dtype_time as _time
from .._elementwise import ufuncs as _u
from .._core import ndarray
from .._elementwise.functions import where
from .sorting import _sort_rows, searchsorted, take_rows
from .._reduce.nan import nanmean

__all__ = ["median", "quantile", "percentile", "nanmedian", "nanquantile", "nanpercentile",
           "digitize"]

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")
_OTHER_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation",
                  "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
                  "normal_unbiased")


def _rows(a, axis, name):
    """a's reduced axes moved last and flattened: (rows (C-contiguous 2-d), kept shape,
    the shape with the reduced axes as 1).  ``axis`` may be a list: NumPy's median and
    quantile family take any sequence of axes (its sum and mean do not)."""
    axes = reduction_axes(tuple(axis) if isinstance(axis, list) else axis, a.ndim, name)
    # NumPy's median family takes no axis of a 0-d a (an empty tuple aside)
    if a.ndim == 0 and axis is not None and not (isinstance(axis, (tuple, list))
                                                 and not axis):
        raise AxisError(f"{name}: axis {axis!r} is out of bounds for array of dimension 0")
    kept = tuple(i for i in range(a.ndim) if i not in axes)
    moved = _core.permute_dims(a, kept + axes) if a.ndim else a
    kshape = tuple(a.shape[i] for i in kept)
    n = 1
    for i in axes:
        n *= a.shape[i]
    rows = 1
    for s in kshape:
        rows *= s
    x2 = moved if moved.flags.c_contiguous else moved.copy()
    keep = tuple(1 if i in axes else s for i, s in enumerate(a.shape))
    return x2.reshape((rows, n)), kshape, keep


def _check_real(a, name):
    if _kind_of(a.dtype) == "c":
        raise TypeError(f"{name}: a must be an array of real numbers, got {a.dtype}")
    if _kind_of(a.dtype) == "b":
        raise TypeError(f"{name}: boolean input is not supported (NumPy cannot subtract "
                        f"booleans)")


def _lerp(a, b, t):
    """NumPy's _lerp: a + (b - a) * t, from b's side where t >= 0.5 (exact at t = 1)."""
    d = b - a
    return where(t >= 0.5, b - d * (1 - t), a + d * t)


def _quantile(a, q, axis, method, keepdims, nan, name, scale=1):
    a = as_array(a, f"{name}: a")
    if _dtypes.is_narrow(a.dtype):
        # in float32, rounded once: NumPy's float16 quantiles keep float32's values
        # (its virtual index and weights are not rounded to float16); the other narrow
        # floats likewise
        r = _quantile(a.astype(_dtypes.float32), q, axis, method, keepdims, nan, name, scale)
        # float16 where NumPy's is: a's own values, or weights from a Python q
        same = method in ("lower", "higher", "nearest") or (
            isinstance(q, (int, float)) and not isinstance(q, bool))
        same = same or (nan and a.size == 0)   # nanmean of float16 is float16
        return r.astype(a.dtype) if same and r.dtype == _dtypes.float32 else r
    _check_real(a, name)
    weak = isinstance(q, (int, float)) and not isinstance(q, bool)
    qa = as_array(q, f"{name}: q", a.device)
    if _kind_of(qa.dtype) not in "iuf":
        raise TypeError(f"{name}: q must be real numbers, got {qa.dtype}")
    # q's dtype as NumPy: a Python float takes a float array's dtype
    qdt = a.dtype if weak and _kind_of(a.dtype) == "f" else _dtypes.result_type(qa.dtype,
                                                                           _dtypes.float32)
    qf = qa.astype(qdt) / scale if scale != 1 else qa.astype(qdt)
    if qf.size and bool(_u.logical_not(_u.logical_and(qf >= 0, qf <= 1)).any()):  # NaN too
        lim = "Percentiles must be in the range [0, 100]" if scale != 1 else \
            "Quantiles must be in the range [0, 1]"
        raise ValueError(f"{name}: {lim}")
    if nan and a.size == 0:                # NumPy: nanmean(a, axis), whatever q and method
        return nanmean(a, axis=tuple(axis) if isinstance(axis, list) else axis,
                       keepdims=keepdims)
    x2, kshape, keep = _rows(a, axis, name)  # NumPy checks the axis before the method
    if method in _OTHER_METHODS:
        raise NotImplementedError(f"{name}: method={method!r} is not implemented (garray "
                                  f"has {', '.join(_METHODS)})")
    if method not in _METHODS:
        raise ValueError(f"{name}: method must be one of {_METHODS + _OTHER_METHODS}, "
                         f"got {method!r}")
    rows, n = x2.shape
    if n == 0:
        raise IndexError(f"{name}: cannot take a quantile of an empty axis (NumPy: index "
                         f"-1 is out of bounds)")
    s = _sort_rows(x2, False, False)
    m = qf.size if qf.ndim else 1
    qrow = qf.reshape((1, m))
    isf = _kind_of(a.dtype) == "f"
    if nan and isf:
        nv = _u.logical_not(_u.isnan(s)).sum(axis=1, keepdims=True)   # (rows, 1)
    else:
        nv = _core.full((rows, 1), n, dtype=_dtypes.int64, device=a.device)
    last = (nv - 1).astype(qdt if qdt.kind == "f" else _dtypes.float64)
    virt = qrow * last
    if method == "nearest":
        virt = _u.round(virt)
    lo = _u.floor(virt)
    gamma = virt - lo
    top = (nv - 1).astype(_dtypes.int64)
    lo_i = _u.minimum(_u.maximum(lo.astype(_dtypes.int64), 0), top)
    if method == "higher":
        lo_i = _u.minimum(_u.maximum(_u.ceil(virt).astype(_dtypes.int64), 0), top)
    lo_i = _u.maximum(_core.broadcast_to(lo_i, (rows, m)), 0).copy()
    lo_v = take_rows(s, lo_i)
    if method in ("lower", "higher", "nearest"):
        r = lo_v
    else:
        hi_i = _u.maximum(_u.minimum(lo_i + 1, top), 0)
        hi_i = _core.broadcast_to(hi_i, (rows, m)).copy()
        hi_v = take_rows(s, hi_i)
        if method == "midpoint":
            gamma = where(gamma == 0, gamma, 0.5).astype(gamma.dtype)
        rdt = _dtypes.result_type(lo_v.dtype, gamma.dtype)
        r = _lerp(lo_v.astype(rdt), hi_v.astype(rdt), gamma.astype(rdt))
    if isf:
        bad = nv == 0 if nan else _u.isnan(take_rows(s, _core.full(
            (rows, 1), n - 1, dtype=_dtypes.int64, device=a.device)))
        if nan and bool(bad.any()):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        r = where(bad, float("nan"), r).astype(r.dtype)
    return _shape_result(r, qf.shape, kshape, keep, keepdims)


def _shape_result(r, qshape, kshape, keep, keepdims):
    """(rows, m) -> q's shape + the kept shape (or the keepdims shape)."""
    r = _core.permute_dims(r, (1, 0)).copy()
    return r.reshape(tuple(qshape) + (tuple(keep) if keepdims else tuple(kshape)))


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None, interpolation=None):
    """The q-th quantiles (q in [0, 1]) of ``a`` over ``axis`` (None: all of it).

    ``method``: linear (default), lower, higher, nearest or midpoint (NumPy's other
    methods raise NotImplementedError).  A NaN in a slice gives NaN.

    Example: ``garray.quantile(garray.asarray([1., 2., 3., 4.]), 0.5)`` -> ``2.5``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    q : float or array_like
        Quantile(s) in [0, 1].
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : None
        Not supported (NotImplementedError).
    overwrite_input : bool, optional
        Accepted for NumPy's signature (the input is never changed).
    method : str, optional
        'linear', 'lower', 'higher', 'nearest' or 'midpoint'.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    weights : None
        Not supported (NotImplementedError).
    interpolation : None
        Removed in NumPy 2 (TypeError); use method.

    Returns
    -------
    ndarray
        With q's axes first; float64 for integer input.

    See Also
    --------
    numpy.quantile
    """
    _unsupported("quantile", out, weights, interpolation)
    return _quantile(a, q, axis, method, keepdims, False, "quantile")


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None, interpolation=None):
    """The q-th percentiles (q in [0, 100]) of ``a``; see ``quantile``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    q : float or array_like
        Percentile(s) in [0, 100].
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : None
        Not supported (NotImplementedError).
    overwrite_input : bool, optional
        Accepted for NumPy's signature (the input is never changed).
    method : str, optional
        'linear', 'lower', 'higher', 'nearest' or 'midpoint'.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    weights : None
        Not supported (NotImplementedError).
    interpolation : None
        Removed in NumPy 2 (TypeError); use method.

    Returns
    -------
    ndarray
        With q's axes first; float64 for integer input.

    See Also
    --------
    numpy.percentile
    """
    _unsupported("percentile", out, weights, interpolation)
    return _quantile(a, q, axis, method, keepdims, False, "percentile", scale=100)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None, interpolation=None):
    """Quantiles ignoring NaNs (an all-NaN slice gives NaN and a RuntimeWarning).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    q : float or array_like
        Quantile(s) in [0, 1].
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : None
        Not supported (NotImplementedError).
    overwrite_input : bool, optional
        Accepted for NumPy's signature (the input is never changed).
    method : str, optional
        'linear', 'lower', 'higher', 'nearest' or 'midpoint'.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    weights : None
        Not supported (NotImplementedError).
    interpolation : None
        Removed in NumPy 2 (TypeError); use method.

    Returns
    -------
    ndarray
        With q's axes first; float64 for integer input.

    See Also
    --------
    numpy.nanquantile
    """
    _unsupported("nanquantile", out, weights, interpolation)
    return _quantile(a, q, axis, method, keepdims, True, "nanquantile")


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None, interpolation=None):
    """Percentiles ignoring NaNs; see ``nanquantile``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    q : float or array_like
        Percentile(s) in [0, 100].
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : None
        Not supported (NotImplementedError).
    overwrite_input : bool, optional
        Accepted for NumPy's signature (the input is never changed).
    method : str, optional
        'linear', 'lower', 'higher', 'nearest' or 'midpoint'.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    weights : None
        Not supported (NotImplementedError).
    interpolation : None
        Removed in NumPy 2 (TypeError); use method.

    Returns
    -------
    ndarray
        With q's axes first; float64 for integer input.

    See Also
    --------
    numpy.nanpercentile
    """
    _unsupported("nanpercentile", out, weights, interpolation)
    return _quantile(a, q, axis, method, keepdims, True, "nanpercentile", scale=100)


def _unsupported(name, out, weights, interpolation):
    if out is not None:
        raise NotImplementedError(f"{name}: out= is not supported")
    if weights is not None:
        raise NotImplementedError(f"{name}: weights= is not supported")
    if interpolation is not None:
        raise TypeError(f"{name}: interpolation= was removed in NumPy 2; use method=")


def _time_median(a, axis, keepdims, nan, name):
    """The median of timedeltas, as NumPy's: the middle value, or the mean of the two
    middle values truncated toward zero (a timedelta mean); NaT where a slice holds one
    (``nanmedian``: where it holds nothing else)."""
    if a.dtype.kind == "M":
        raise TypeError(f"{name}: no median of {a.dtype} (datetimes do not add, as NumPy)")
    x2, kshape, keep = _rows(a, axis, name)
    rows, n = x2.shape
    if n == 0:
        raise NotImplementedError(f"{name}: an empty slice of {a.dtype}")
    v = _core._relabel(_sort_rows(x2, False, False), _dtypes.int64)     # NaT last
    nat = v == _time.NAT
    nv = n - nat.sum(axis=1, keepdims=True) if nan else \
        _core.full((rows, 1), n, dtype=_dtypes.int64, device=a.device)
    lo_i, hi_i = _u.maximum((nv - 1) // 2, 0), _u.maximum(nv // 2, 0)
    lo, hi = take_rows(v, lo_i), take_rows(v, hi_i)
    two = lo + hi
    mean = two // 2 + _u.logical_and(two % 2 != 0, two < 0).astype(_dtypes.int64)
    r = where(lo_i == hi_i, lo, mean)
    bad = nv == 0 if nan else take_rows(nat, _core.full((rows, 1), n - 1,
                                                         dtype=_dtypes.int64, device=a.device))
    r = _core._relabel(where(bad, _time.NAT, r), a.dtype)
    return _shape_result(r, (), kshape, keep, keepdims)


def _median(a, axis, keepdims, nan, name):
    a = as_array(a, f"{name}: a")
    if _time.is_time(a.dtype):
        return _time_median(a, axis, keepdims, nan, name)
    if _kind_of(a.dtype) == "c":
        raise NotImplementedError(f"{name}: complex input is not supported")
    x2, kshape, keep = _rows(a, axis, name)
    rows, n = x2.shape
    rdt = a.dtype if _kind_of(a.dtype) == "f" else _dtypes.float64
    if n == 0:
        warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=3)
        r = _core.full((rows, 1), float("nan"), dtype=rdt, device=a.device)
        return _shape_result(r, (), kshape, keep, keepdims)
    s = _sort_rows(x2, False, False)
    isf = _kind_of(a.dtype) == "f"
    if nan and isf:
        nv = _u.logical_not(_u.isnan(s)).sum(axis=1, keepdims=True)
    else:
        nv = _core.full((rows, 1), n, dtype=_dtypes.int64, device=a.device)
    lo_i = _u.maximum((nv - 1) // 2, 0)
    hi_i = _u.maximum(nv // 2, 0)
    lo_v = take_rows(s, lo_i.astype(_dtypes.int64)).astype(rdt)
    hi_v = take_rows(s, hi_i.astype(_dtypes.int64)).astype(rdt)
    # NumPy's median: the middle element, or the mean of the middle two
    r = where(lo_i == hi_i, lo_v, (lo_v + hi_v) / 2).astype(rdt)
    if isf:
        bad = nv == 0 if nan else _u.isnan(take_rows(s, _core.full(
            (rows, 1), n - 1, dtype=_dtypes.int64, device=a.device)))
        if nan and bool(bad.any()):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        r = where(bad, float("nan"), r).astype(rdt)
    return _shape_result(r, (), kshape, keep, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median of ``a`` over ``axis`` (None: all of it); a NaN in a slice gives NaN.

    Example: ``garray.median(garray.asarray([3, 1, 2, 4]))`` -> ``2.5``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : None
        Not supported (NotImplementedError).
    overwrite_input : bool, optional
        Accepted for NumPy's signature (the input is never changed).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        float64 for integer input, a's dtype otherwise.

    See Also
    --------
    numpy.median
    """
    if out is not None:
        raise NotImplementedError("median: out= is not supported")
    return _median(a, axis, keepdims, False, "median")


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """Median ignoring NaNs (an all-NaN slice gives NaN and a RuntimeWarning).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : None
        Not supported (NotImplementedError).
    overwrite_input : bool, optional
        Accepted for NumPy's signature (the input is never changed).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        float64 for integer input, a's dtype otherwise.

    See Also
    --------
    numpy.nanmedian
    """
    if out is not None:
        raise NotImplementedError("nanmedian: out= is not supported")
    return _median(a, axis, keepdims, True, "nanmedian")


def digitize(x, bins, right=False):
    """Indices of the bins each value of ``x`` falls in (``bins`` 1-d, monotonic).

    Example: ``garray.digitize(garray.asarray([0.5, 1.5]), garray.asarray([0., 1., 2.]))``
    -> ``[1, 2]``.

    Parameters
    ----------
    x : ndarray or array_like
        Values.
    bins : ndarray or array_like
        1-d monotonic bin edges.
    right : bool, optional
        Whether a bin includes its right edge instead of its left one.

    Returns
    -------
    ndarray
        int64 bin indices of x's shape.

    See Also
    --------
    numpy.digitize
    """
    _time.refuse("digitize", x, bins)
    x = as_array(x, "digitize: x")
    bins = as_array(bins, "digitize: bins")
    if _kind_of(x.dtype) == "c":
        raise TypeError("digitize: x may not be complex")
    if _kind_of(bins.dtype) == "c":
        raise TypeError("digitize: bins may not be complex")
    if bins.ndim != 1:
        raise ValueError("digitize: bins must be 1-dimensional")
    # NumPy's monotonicity test (check_array_monotonic): the direction is that of the
    # first pair that is not equal (a NaN is equal to nothing: [0, nan] is decreasing),
    # and no later pair may go the other way strictly
    inc = True
    if bins.shape[0] > 1:
        lo, hi = bins[:-1], bins[1:]
        differ = ~(lo == hi)
        if bool(differ.any()):
            k = int(differ.argmax())
            inc = bool(bins[k] < bins[k + 1])
            if bool(((lo > hi) if inc else (lo < hi)).any()):
                raise ValueError("digitize: bins must be monotonically increasing or "
                                 "decreasing")
    side = "left" if right else "right"
    if inc:
        return searchsorted(bins, x, side=side)
    return bins.shape[0] - searchsorted(bins[::-1], x, side=side)
