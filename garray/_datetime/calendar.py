"""The public time functions: ``isnat``, ``datetime_data``, ``is_busday``,
``busday_count`` and ``busday_offset``.

The business-day functions compute on the device: the weekday of a day count is
``(days + 3) mod 7`` (1970-01-01 was a Thursday), a count over whole weeks is closed-form
and the part week a prefix sum over the week mask; holidays are counted with
``searchsorted``; ``busday_offset`` inverts that count (the k-th valid day: whole weeks,
the week mask's k-th set day, then a fixed point over the holidays, each round one
``searchsorted``).  NumPy's ``busdaycalendar`` parses ``weekmask`` and ``holidays`` (a few
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
from .values import I64, storage, nat, civil_from_days

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


def _into(r, out):
    """``r``, or written into ``out=`` (NumPy's unsafe cast) and ``out`` returned."""
    if out is None:
        return r
    out[...] = r
    return out


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
    return _into(r, out)


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
    wk = _Week(_calendar(weekmask, holidays, busdaycal, "busday_count"), b.device)
    swap = U.less(e, b)         # NumPy counts (end, begin] then, negated
    lo, hi = where(swap, U.add(e, 1), b), where(swap, U.add(b, 1), e)
    count = U.subtract(wk.before(hi), wk.before(lo))
    return _into(where(swap, U.negative(count), count), out)


_ROLLS = ("raise", "nat", "forward", "following", "backward", "preceding",
          "modifiedfollowing", "modifiedpreceding")


class _Week:
    """Counting valid days: ``before(d)``, the number of valid days before day ``d``
    (relative to a fixed origin), and its inverse ``nth(k)``, the valid day with ``k``
    valid days before it.  Days shift by 3 so that 0 is a Monday (1969-12-29)."""

    def __init__(self, cal, device):
        wm = cal.weekmask.astype(np.int64)
        self.per_week = int(wm.sum())
        self.prefix = _core.asarray(np.concatenate([[0], np.cumsum(wm)]), device=device)
        self.slot = _core.asarray(np.flatnonzero(wm), device=device)    # k-th valid weekday
        self.hol = _holidays(cal, device)

    def before(self, d):
        weeks, day = U.divmod(U.add(d, 3), 7)
        c = U.add(U.multiply(weeks, self.per_week), self.prefix[day])
        return U.subtract(c, searchsorted(self.hol, d)) if self.hol.size else c

    def _nth_weekday(self, k):
        weeks, nth = U.divmod(k, self.per_week)
        return U.add(U.multiply(weeks, 7), U.subtract(self.slot[nth], 3))

    def nth(self, k):
        e = self._nth_weekday(k)
        if not self.hol.size:
            return e
        j = _core.zeros(e.shape, dtype=I64, device=e.device)
        while True:         # the least j with j = #holidays <= nth_weekday(k + j)
            j2 = searchsorted(self.hol, e, side="right")
            if not bool(U.not_equal(j2, j).any()):
                return e
            j = j2
            e = self._nth_weekday(U.add(k, j))


def _month(d):
    y, m = civil_from_days(d)
    return U.add(U.multiply(y, 12), m)


def busday_offset(dates, offsets, roll="raise", weekmask="1111100", holidays=None,
                  busdaycal=None, out=None):
    """The dates rolled to a valid business day and moved by ``offsets`` valid days, as
    ``numpy.busday_offset``.

    Parameters
    ----------
    dates : ndarray or array_like of datetime64[D]
    offsets : ndarray or array_like of int
        Valid days to move (negative: back); broadcast with dates.
    roll : str, optional
        For a date that is not a valid day: "raise" (ValueError, also for NaT), "nat", "forward" or
        "following", "backward" or "preceding", "modifiedfollowing" or
        "modifiedpreceding" (following/preceding unless that leaves the month).
    weekmask, holidays, busdaycal : optional
        As ``is_busday``.
    out : ndarray, optional

    Returns
    -------
    ndarray
        datetime64[D] (NaT where a date is NaT, or not valid with roll="nat").

    See Also
    --------
    numpy.busday_offset
    """
    if roll not in _ROLLS:
        raise ValueError(f'busday_offset: invalid business day roll parameter "{roll}"')
    d = _days(dates, "busday_offset")
    if isinstance(offsets, np.ndarray):
        raise refuse_numpy("busday_offset: offsets")
    n = as_array(offsets, "busday_offset: offsets", d.device)
    if n.dtype.kind not in "biuf":
        raise TypeError(f"busday_offset: offsets must be integers, got {n.dtype}")
    n = n.astype(I64)
    cal = _calendar(weekmask, holidays, busdaycal, "busday_offset")
    wk = _Week(cal, d.device)
    bad = nat(d)
    d0 = where(bad, 0, d)
    if roll in ("raise", "nat"):
        k = wk.before(d0)           # d is valid where the count steps past it
        invalid = U.logical_or(U.equal(wk.before(U.add(d0, 1)), k), bad)
        if roll == "raise" and bool(invalid.any()):    # NumPy's: NaT raises too
            raise ValueError("busday_offset: NaT or a non-business day date (roll='raise')")
        bad = invalid
    elif roll in ("forward", "following"):
        k = wk.before(d0)                                   # the following valid day
    elif roll in ("backward", "preceding"):
        k = U.subtract(wk.before(U.add(d0, 1)), 1)          # the preceding valid day
    else:
        fwd = wk.before(d0)
        back = U.subtract(wk.before(U.add(d0, 1)), 1)
        first, second = (fwd, back) if roll == "modifiedfollowing" else (back, fwd)
        leaves = U.not_equal(_month(wk.nth(first)), _month(d0))
        k = where(leaves, second, first)
    r = wk.nth(U.add(k, n))
    return _into(_core._relabel(where(bad, T.NAT, r), _DAY), out)
