"""The int64 values under a time array: views, NaT masks, unit conversion (the calendar
for years and months) and the casts to and from time dtypes.

Every function here computes with garray's int64 (and float64) kernels on the storage
view of a time array (``storage``) and labels the result (``label``); NumPy is asked only
about dtypes.
"""

import numpy as np

from .. import _core, _dtype_time as T
from .._elementwise import ufuncs as U
from .._core import where

I64 = np.dtype(np.int64)
F64 = np.dtype(np.float64)


def storage(x):
    """The int64 view of time array ``x``."""
    return _core._relabel(x, I64)


def label(v, dt):
    """int64 array ``v`` viewed as time dtype ``dt``."""
    return _core._relabel(v, dt)


def nat(v):
    """The bool mask of NaT among int64 values ``v``."""
    return U.equal(v, T.NAT)


def keep_nat(r, mask):
    """``r`` (int64) with NaT where ``mask``."""
    return where(mask, T.NAT, r)


def _scaled(v, k):
    return keep_nat(U.multiply(v, k), nat(v)) if k != 1 else v


def _floored(v, k):
    return keep_nat(U.floor_divide(v, k), nat(v)) if k != 1 else v


# ---- the calendar (proleptic Gregorian, days since 1970-01-01) ---------------------------
def days_from_civil(y, m):
    """Days from 1970-01-01 to the first of month ``m`` (1-12) of year ``y`` (int64)."""
    y = U.subtract(y, U.less_equal(m, 2).astype(I64))
    era = U.floor_divide(y, 400)
    yoe = U.subtract(y, U.multiply(era, 400))
    mp = U.remainder(U.add(m, 9), 12)                   # March is 0
    doy = U.floor_divide(U.add(U.multiply(mp, 153), 2), 5)
    doe = U.add(U.add(U.multiply(yoe, 365), U.floor_divide(yoe, 4)),
                U.subtract(doy, U.floor_divide(yoe, 100)))
    return U.add(U.multiply(era, 146097), U.subtract(doe, 719468))


def civil_from_days(z):
    """(year, month 1-12) of int64 day counts ``z`` since 1970-01-01."""
    z = U.add(z, 719468)
    era = U.floor_divide(z, 146097)
    doe = U.subtract(z, U.multiply(era, 146097))
    yoe = U.floor_divide(U.add(U.subtract(doe, U.floor_divide(doe, 1460)),
                               U.subtract(U.floor_divide(doe, 36524),
                                          U.floor_divide(doe, 146096))), 365)
    doy = U.subtract(doe, U.add(U.multiply(yoe, 365), U.subtract(U.floor_divide(yoe, 4),
                                                                  U.floor_divide(yoe, 100))))
    mp = U.floor_divide(U.add(U.multiply(doy, 5), 2), 153)
    m = where(U.less(mp, 10), U.add(mp, 3), U.subtract(mp, 9))
    y = U.add(U.add(yoe, U.multiply(era, 400)), U.less_equal(m, 2).astype(I64))
    return y, m


def _to_days(v, unit):
    """int64 datetimes in unit Y or M (NaT kept) as days."""
    if unit == "Y":
        d = days_from_civil(U.add(v, 1970), _core.full((), 1, dtype=I64, device=v.device))
    else:
        d = days_from_civil(U.add(U.floor_divide(v, 12), 1970),
                            U.add(U.remainder(v, 12), 1))
    return keep_nat(d, nat(v))


def _from_days(d, unit):
    """int64 day counts (NaT kept) as datetimes in unit Y or M (the one they fall in)."""
    y, m = civil_from_days(d)
    r = U.subtract(y, 1970) if unit == "Y" else U.add(U.multiply(U.subtract(y, 1970), 12),
                                                      U.subtract(m, 1))
    return keep_nat(r, nat(d))


def convert(v, src, dst):
    """int64 values ``v`` of time dtype ``src`` in the unit of time dtype ``dst`` (same
    kind); a coarser unit floors, as NumPy's casts; NaT stays NaT."""
    a, b = T.unit_of(src), T.unit_of(dst)
    if a == b or "generic" in (a, b):
        return v
    order = T.UNITS.index
    if (a in T.LINEAR) == (b in T.LINEAR):              # Y <-> M, or two linear units
        return _scaled(v, T.factor(a, b)) if order(a) < order(b) else \
            _floored(v, T.factor(b, a))
    if src.kind == "m" or dst.kind == "m":
        raise NotImplementedError(f"astype: {src} to {dst} (years and months have no fixed "
                                  f"length; NumPy uses a mean month here)")
    if a in ("Y", "M"):                                 # the calendar, then days to b
        return _scaled(_to_days(v, a), T.factor("D", b)) if b != "W" else \
            _floored(_to_days(v, a), 7)
    days = _floored(v, T.factor("D", a)) if order(a) > order("D") else _scaled(v, 7) \
        if a == "W" else v
    return _from_days(days, b)


def cast_into(dst, src):
    """``dst[...] = src`` where one of the two has a time dtype (the Cython copy and cast
    entries call this): NumPy's unsafe ``astype``."""
    sd, dd = src.dtype, dst.dtype
    if T.is_time(sd) and T.is_time(dd):
        if sd.kind != dd.kind:                          # NumPy: the raw count
            v = storage(src)
        else:
            v = convert(storage(src), sd, dd)
        storage(dst)[...] = v
    elif T.is_time(sd):                                 # to a number: the raw count
        dst[...] = storage(src)
    elif sd.kind in "biu":                              # a count of dst's units
        storage(dst)[...] = src
    elif sd.kind == "f" or sd.kind == "c":
        f = src.real if sd.kind == "c" else src
        ok = U.isfinite(f)
        storage(dst)[...] = where(ok, where(ok, f, 0).astype(I64), T.NAT)
    else:
        raise TypeError(f"astype: cannot convert {sd} to {dd}")
    return 0


def _count(v, dt):
    """A range bound or step as an int count of time dtype ``dt``'s units (host value)."""
    if isinstance(v, (np.timedelta64, np.datetime64)):
        kind = "m" if isinstance(v, np.timedelta64) else dt.kind
        c = np.asarray(v).astype(f"{kind}8[{T.unit_of(dt)}]").view(I64)[()]
    elif isinstance(v, str):
        c = np.asarray(v, dtype=dt).view(I64)[()]
    else:
        c = int(v)
    if c == T.NAT:
        raise ValueError("arange: cannot use NaT (not-a-time) datetime values")
    return int(c)


def arange(start, stop, step, dtype, device):
    """``garray.arange`` of datetime64 or timedelta64 values: NumPy resolves the dtype
    from a zero-length range of the same arguments; garray's int64 ``arange`` computes."""
    if stop is None:
        if isinstance(start, (np.datetime64, str)) or (
                dtype is not None and np.dtype(dtype).kind == "M"):
            raise ValueError("arange requires both a start and a stop for NumPy datetime64 "
                             "ranges")
        start, stop = 0, start
    step = 1 if step is None else step
    try:
        dt = np.promote_types(*(np.arange(v, v, step, dtype=dtype).dtype
                                for v in (start, stop)))
    except (TypeError, ValueError) as e:
        raise type(e)(f"arange: {e}") from None
    dt = T.normalize_time(dt, "arange: dtype")
    s, e, st = _count(start, dt), _count(stop, dt), _count(step, dt)
    if st == 0:
        raise ValueError("step: must not be zero")
    n = max(0, -((s - e) // st))                # ceil((e - s) / st), exactly
    return label(_core._arange_kernel(n, s, s + st if n > 1 else s, I64, device), dt)
