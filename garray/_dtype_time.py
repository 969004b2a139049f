"""The dtype rules of datetime64 and timedelta64 (docs/datetimes.md).

A time dtype is NumPy's own: ``datetime64[unit]`` (kind "M") or ``timedelta64[unit]``
(kind "m"), a count of units since 1970-01-01 (or a duration) stored as an int64, with
``NaT`` the int64 minimum.  garray stores such an array as int64 (its storage code) and
keeps the time dtype as the array's ``dtype``; garray/_datetime computes on the int64
values.  Promotion, casting rules and unit conversion factors are NumPy's: this module
asks NumPy about dtypes (never about values).

Imports only NumPy, so that garray/_dtypes.py can use it.
"""

import numpy as np

__all__ = ["UNITS", "LINEAR", "NAT", "is_time", "normalize_time", "promote", "result", "refuse",
           "can_cast", "unit_of", "factor"]

# NumPy's units, coarsest first: years and months are "nonlinear" (a month has no fixed
# number of days); weeks and finer are fixed multiples of each other.
UNITS = ("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as")
LINEAR = UNITS[2:]
NAT = np.iinfo(np.int64).min
# how many of each linear unit make a week (a Python int: exact)
_PER_WEEK = {"W": 1, "D": 7, "h": 7 * 24, "m": 7 * 24 * 60, "s": 7 * 24 * 3600}
for _u, _k in (("ms", 3), ("us", 6), ("ns", 9), ("ps", 12), ("fs", 15), ("as", 18)):
    _PER_WEEK[_u] = _PER_WEEK["s"] * 10 ** _k


def is_time(dt):
    """Whether ``dt`` (a ``numpy.dtype``) is a datetime64 or timedelta64 dtype."""
    return dt.kind in "mM"


# One dtype object per (kind, unit): garray compares dtypes by identity on its fast
# paths (``astype(copy=False)``, copies), as it does for its numeric dtypes.
_CANONICAL = {}


def normalize_time(dt, argname):
    """The canonical (native byte order) time dtype of ``dt``, a time ``numpy.dtype``:
    the same object for every spelling of it.

    Raises NotImplementedError for a unit with a multiplier (``datetime64[2D]``)."""
    unit, count = np.datetime_data(dt)
    if count != 1:
        raise NotImplementedError(f"{argname}: {dt} (a unit with a multiplier) is not "
                                  f"supported; use {dt.kind}8[{unit}] and scale the values")
    key = (dt.kind, unit)
    canon = _CANONICAL.get(key)
    if canon is None:       # at most 2 kinds x 14 units
        canon = _CANONICAL.setdefault(key, np.dtype(f"{dt.kind}8[{unit}]" if unit != "generic"
                                                    else f"{dt.kind}8"))
    return canon


def unit_of(dt):
    """The unit of a time dtype ("generic" for a dtype without one)."""
    return np.datetime_data(dt)[0]


def factor(coarse, fine):
    """How many ``fine`` units make one ``coarse`` unit (both linear, coarse first), or
    12 for years to months."""
    if (coarse, fine) == ("Y", "M"):
        return 12
    return _PER_WEEK[fine] // _PER_WEEK[coarse]


def _np_call(fn, *args):
    try:
        return fn(*args)
    except TypeError as e:          # NumPy's DTypePromotionError is a TypeError
        raise TypeError(str(e)) from None


def promote(a, b):
    """NumPy's promotion of two dtypes, at least one of them a time dtype."""
    return normalize_time(_np_call(np.promote_types, a, b), "promote_types")


def result(dtypes, scalars):
    """NumPy's ``result_type`` of time and other dtypes with weak Python scalars."""
    r = _np_call(np.result_type, *dtypes, *scalars)
    if not is_time(r):
        raise TypeError(f"result_type: {', '.join(map(str, dtypes))} do not promote to a "
                        f"time dtype")
    return normalize_time(r, "result_type")


def can_cast(a, b, casting):
    """NumPy's ``can_cast`` for two dtypes, at least one of them a time dtype."""
    return bool(np.can_cast(a, b, casting))


def refuse(name, *arrays, error=TypeError):
    """Raise ``error`` naming ``name`` when one of ``arrays`` is a time array: the
    functions that would read its int64 storage as numbers (NumPy has no loop there, or
    garray does not compute it yet: NotImplementedError)."""
    for x in arrays:
        dt = getattr(x, "dtype", None)
        if isinstance(dt, np.dtype) and dt.kind in "mM":
            raise error(f"{name}: not supported for {dt}")
