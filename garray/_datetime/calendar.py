"""The public time functions: ``isnat``, ``datetime_data``, ``is_busday`` and
``busday_count``.

The business-day functions compute on the device: the weekday of a day count is
``(days + 3) mod 7`` (1970-01-01 was a Thursday), a count over whole weeks is closed-form
and the part week a prefix sum over the week mask; holidays are counted with
``searchsorted``.  NumPy's ``busdaycalendar`` parses ``weekmask`` and ``holidays`` (a few
host values: it sorts them, drops NaT, duplicates and holidays on weekend days).
"""

import numpy as np

from .. import _core, _dtype_time as T
from .._args import as_array, refuse_numpy
from .._elementwise import ufuncs as U
from .._core import where
from .._dtypes import refuse_array
from .._sort.sets import isin
from .._sort.sorting import searchsorted
from .ops import unary
from .values import I64, storage, nat

_DAY = np.dtype("M8[D]")


def isnat(x, /, out=None):
    """Whether each element of a datetime64 or timedelta64 array is NaT.

    Parameters
    ----------
    x : ndarray or array_like
        Time values.
    out : ndarray, optional
        A bool array for the result.

    Returns
    -------
    ndarray
        bool, x's shape.

    Raises
    ------
    TypeError
        For an array that is not datetime64 or timedelta64 (as NumPy).

    See Also
    --------
    numpy.isnat
    """
    x = as_array(x, "isnat: x")
    if not T.is_time(x.dtype):
        raise TypeError(f"isnat: only datetime64 and timedelta64 arrays are accepted, got "
                        f"{x.dtype}")
    return unary("isnat", x, out)


def datetime_data(dtype, /):
    """The unit and unit count of a datetime64 or timedelta64 dtype.

    Parameters
    ----------
    dtype : dtype
        A datetime64 or timedelta64 dtype (not an array: NumPy's rule).

    Returns
    -------
    tuple
        (unit, count), e.g. ``("D", 1)``.

    See Also
    --------
    numpy.datetime_data
    """
    refuse_array(dtype, "datetime_data: dtype")
    return np.datetime_data(np.dtype(dtype))


def _days(dates, name):
    """``dates`` as int64 day counts on the device (NumPy's safe cast to datetime64[D])."""
    if isinstance(dates, np.ndarray):
        raise refuse_numpy(f"{name}: dates")
    if not isinstance(dates, _core.ndarray):       # strings, NumPy scalars, lists of them
        dates = _core.asarray(np.asarray(dates, dtype=_DAY))
    if dates.dtype.kind != "M" or not np.can_cast(dates.dtype, _DAY, "safe"):
        raise TypeError(f"{name}: dates must be datetime64 convertible to datetime64[D] "
                        f"safely, got {dates.dtype}")
    return storage(dates.astype(_DAY, copy=False))


def _calendar(weekmask, holidays, busdaycal, name):
    if busdaycal is not None:
        if weekmask != "1111100" or holidays is not None:
            raise ValueError(f"{name}: cannot supply both weekmask/holidays and busdaycal")
        return busdaycal
    return np.busdaycalendar(weekmask=weekmask, holidays=[] if holidays is None else
                             np.asarray(holidays, dtype=_DAY))


def _holidays(cal, device):
    return _core.asarray(cal.holidays.view(np.int64), device=device)


def is_busday(dates, weekmask="1111100", holidays=None, busdaycal=None, out=None):
    """Whether each date is a valid business day (NaT: False), as ``numpy.is_busday``.

    Parameters
    ----------
    dates : ndarray or array_like of datetime64[D]
    weekmask : str or sequence of 7 bools, optional
        Valid weekdays, Monday first ("1111100" or "Mon Tue Wed Thu Fri").
    holidays : array_like of datetime64[D], optional
    busdaycal : numpy.busdaycalendar, optional
        Instead of weekmask and holidays.
    out : ndarray, optional

    Returns
    -------
    ndarray
        bool, the shape of dates.

    See Also
    --------
    numpy.is_busday
    """
    d = _days(dates, "is_busday")
    cal = _calendar(weekmask, holidays, busdaycal, "is_busday")
    wm = _core.asarray(cal.weekmask, device=d.device)
    r = U.logical_and(wm[U.remainder(U.add(where(nat(d), 0, d), 3), 7)],
                      U.logical_not(nat(d)))
    hol = _holidays(cal, d.device)
    if hol.size:
        r = U.logical_and(r, U.logical_not(isin(d, hol)))
    if out is None:
        return r
    out[...] = r
    return out


def busday_count(begindates, enddates, weekmask="1111100", holidays=None, busdaycal=None,
                 out=None):
    """The number of valid business days in ``[begin, end)`` (negative when end comes
    first), as ``numpy.busday_count``.

    Parameters
    ----------
    begindates, enddates : ndarray or array_like of datetime64[D]
        Broadcast together.
    weekmask, holidays, busdaycal : optional
        As ``is_busday``.
    out : ndarray, optional

    Returns
    -------
    ndarray
        int64.

    Raises
    ------
    ValueError
        For a NaT date (as NumPy).

    See Also
    --------
    numpy.busday_count
    """
    b, e = _days(begindates, "busday_count"), _days(enddates, "busday_count")
    if bool(U.logical_or(nat(b), nat(e)).any()):
        raise ValueError("busday_count: cannot compute a business day count with a NaT "
                         "(not-a-time) date")
    cal = _calendar(weekmask, holidays, busdaycal, "busday_count")
    swap = U.less(e, b)         # NumPy counts (end, begin] then, negated
    lo, hi = where(swap, U.add(e, 1), b), where(swap, U.add(b, 1), e)
    n = U.subtract(hi, lo)
    wm = cal.weekmask.astype(np.int64)
    prefix = _core.asarray(np.concatenate([[0], np.cumsum(np.tile(wm, 2))]), device=b.device)
    dow = U.remainder(U.add(lo, 3), 7)
    count = U.add(U.multiply(U.floor_divide(n, 7), int(wm.sum())),
                  U.subtract(prefix[U.add(dow, U.remainder(n, 7))], prefix[dow]))
    hol = _holidays(cal, b.device)
    if hol.size:
        count = U.subtract(count, U.subtract(searchsorted(hol, hi), searchsorted(hol, lo)))
    r = where(swap, U.negative(count), count).astype(I64, copy=False)
    if out is None:
        return r
    out[...] = r
    return out
