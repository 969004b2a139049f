"""Scans over the reduction family: ``scan`` (one row of ``garray/_tables/reduce.py``
along one axis) and the public ``cumulative_sum``, ``cumulative_prod``, ``cumsum``,
``cumprod``, ``nancumsum`` and ``nancumprod``.
"""

from .._args import as_array, reduction_axes
from .. import _core, _dtypes, _dtype_time as _time
from .._core import ndarray
from .._tables.reduce import ROWS
from .reductions import _code, _store, _with_dtype

__all__ = ["cumulative_sum", "cumulative_prod", "cumsum", "cumprod", "nancumsum",
           "nancumprod"]


def scan(name, x, axis, dtype=None, out=None, include_initial=False, api=None,
         flatten_none=True):
    """Inclusive scan of row ``name`` along one axis (None: of the flattened array)."""
    api = api or name
    x, dt = _with_dtype((x if type(x) is ndarray else as_array(x, f"{api}: x")), dtype, api)
    if axis is None:
        if not flatten_none and x.ndim > 1:
            raise ValueError(f"{api}: axis must be given for arrays of more than one "
                             f"dimension")
        x = x.reshape(-1)
        axis = 0
    if x.ndim == 0:
        if not flatten_none:
            raise ValueError(f"{api}: x must have at least one dimension")
        x = x.reshape(1)            # NumPy's cumsum of a 0-d array: as of shape (1,)
    if isinstance(axis, (tuple, list)):
        raise TypeError(f"{api}: axis must be an integer or None, got {type(axis).__name__}")
    ax, = reduction_axes(axis, x.ndim, api)
    if _time.is_time(x.dtype):      # timedelta64's cumsum
        return _store(_time_scan(name, x, ax, include_initial, dt, api), out, api)
    row = ROWS[name]
    code = _code(x.dtype)
    acc = row.acc_code(code)
    if acc < 0 or not row.scan:
        raise TypeError(f"{api}: unsupported dtype {x.dtype}")
    shape = list(x.shape)
    if include_initial:
        shape[ax] += 1
    r = _core.empty(tuple(shape), dtype=_dtypes.RECORDS[acc].dtype, device=x.device)
    if include_initial:
        idx = (slice(None),) * ax
        r[idx + (slice(0, 1),)] = row.identity(code)
        _core._scan(name, x, ax, r[idx + (slice(1, None),)])
    else:
        _core._scan(name, x, ax, r)
    if dt is not None and r.dtype != dt:
        r = r.astype(dt)
    return _store(r, out, api)


def _time_scan(name, x, axis, include_initial, dt, api):
    """The cumsum of timedelta array ``x`` along ``axis``: its int64 storage summed with
    NaT as 0, then NaT from each line's first NaT on (NumPy's NaT propagation)."""
    if name != "sum" or x.dtype.kind != "m":
        raise TypeError(f"{api}: not supported for {x.dtype}")
    if dt is not None and dt != x.dtype:
        raise NotImplementedError(f"{api}: dtype= with {x.dtype}")
    v = _core._relabel(x, _dtypes.int64)
    nat = v == _time.NAT
    s = scan("sum", _core.where(nat, 0, v), axis, include_initial=include_initial, api=api)
    seen = scan("sum", nat.astype(_dtypes.int64), axis, include_initial=include_initial,
                api=api)
    return _core._relabel(_core.where(seen > 0, _time.NAT, s), x.dtype)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False, out=None):
    """Inclusive running sum along ``axis`` (required for arrays of more than one
    dimension); ``include_initial`` puts the zero first. Dtypes as ``sum``.

    Parameters
    ----------
    x : ndarray
        Input array.
    axis : int, optional
        The axis; may be omitted only for 0-d and 1-d input.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    include_initial : bool, optional
        Put the initial value (0 for sums, 1 for products) first, so the axis grows by
        one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.

    Returns
    -------
    ndarray
        The running sums (dtypes as sum).

    See Also
    --------
    numpy.cumulative_sum
    """
    return scan("sum", x, axis, dtype, out, include_initial, "cumulative_sum",
                flatten_none=False)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False, out=None):
    """Inclusive running product along ``axis``.

    Parameters
    ----------
    x : ndarray
        Input array.
    axis : int, optional
        The axis; may be omitted only for 0-d and 1-d input.
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    include_initial : bool, optional
        Put the initial value (0 for sums, 1 for products) first, so the axis grows by
        one.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.

    Returns
    -------
    ndarray
        The running products (dtypes as sum).

    See Also
    --------
    numpy.cumulative_prod
    """
    return scan("prod", x, axis, dtype, out, include_initial, "cumulative_prod",
                flatten_none=False)


def cumsum(a, axis=None, dtype=None, out=None):
    """Running sum along ``axis`` (of the flattened array when None).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.

    Returns
    -------
    ndarray
        The running sums (dtypes as sum), of the input's shape (1-d for axis=None).

    See Also
    --------
    numpy.cumsum
    """
    return scan("sum", a, axis, dtype, out, api="cumsum")


def cumprod(a, axis=None, dtype=None, out=None):
    """Running product along ``axis`` (of the flattened array when None).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.

    Returns
    -------
    ndarray
        The running products (dtypes as sum), of the input's shape (1-d for axis=None).

    See Also
    --------
    numpy.cumprod
    """
    return scan("prod", a, axis, dtype, out, api="cumprod")


def nancumsum(a, axis=None, dtype=None, out=None):
    """Running sum treating NaN as zero.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.

    Returns
    -------
    ndarray
        The running sums (dtypes as sum), of the input's shape (1-d for axis=None).

    See Also
    --------
    numpy.nancumsum
    """
    return scan("nansum", a, axis, dtype, out, api="nancumsum")


def nancumprod(a, axis=None, dtype=None, out=None):
    """Running product treating NaN as one.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    dtype : dtype, optional
        The dtype to accumulate in and return; the input is cast to it first.
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.

    Returns
    -------
    ndarray
        The running products (dtypes as sum), of the input's shape (1-d for axis=None).

    See Also
    --------
    numpy.nancumprod
    """
    return scan("nanprod", a, axis, dtype, out, api="nancumprod")
