"""Reductions and sort keys of time arrays, on their int64 storage.

NaT propagates through ``min``, ``max`` and timedelta sums as NaN does through floats;
``argmin``/``argmax`` give the first NaT.  Sorting reads each value minus one as a
wrapping int64, which moves NaT (the int64 minimum) to the top: NaT sorts last, as NumPy.
"""

import numpy as np

from .. import _core, _dtype_time as T
from .._elementwise import ufuncs as U
from .._core import where
from .values import storage, label, nat, keep_nat

_NONEMPTY = ("min", "max", "argmin", "argmax", "nanmin", "nanmax")


def _any_nat(v, axes, keepdims):
    return _core._reduce("any", nat(v), axes, keepdims)


def reduce(name, x, axes, keepdims):
    """Reduction ``name`` (a row of garray/_tables/reduce.py) of time array ``x``."""
    v = storage(x)
    if name in _NONEMPTY and any(x.shape[a] == 0 for a in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no "
                         f"identity")
    if name in ("any", "all", "count_nonzero"):
        return _core._reduce(name, v, axes, keepdims)
    if name in ("min", "max") or (name == "sum" and x.dtype.kind == "m"):
        if name == "sum":       # NaT drops out of the int sum, then marks its lines
            r = _core._reduce("sum", keep_nat_zero(v), axes, keepdims)
        else:
            r = _core._reduce(name, v, axes, keepdims)
        return label(keep_nat(r, _any_nat(v, axes, keepdims)) if name != "min" else r,
                     x.dtype)
    if name == "nanmax":        # NaT is the int64 minimum: it wins only alone
        return label(_core._reduce("max", v, axes, keepdims), x.dtype)
    if name == "nanmin":
        big = np.iinfo(np.int64).max
        r = _core._reduce("min", where(nat(v), big, v), axes, keepdims)
        return label(where(_core._reduce("all", nat(v), axes, keepdims), T.NAT, r), x.dtype)
    if name in ("argmin", "argmax"):
        r = _core._reduce(name, v, axes, keepdims)
        if name == "argmin":    # NaT is the int64 minimum: its first index already
            return r
        m = nat(v)
        return where(_core._reduce("any", m, axes, keepdims),
                     _core._reduce("argmax", m, axes, keepdims), r)
    raise TypeError(f"{name}: not supported for {x.dtype}")


def keep_nat_zero(v):
    return where(nat(v), 0, v)


def sort_keys(x):
    """int64 keys ordering time array ``x`` as NumPy sorts it (NaT last)."""
    return U.subtract(storage(x), 1)


def from_sort_keys(k, dt):
    """The time values of sorted ``sort_keys``."""
    return label(U.add(k, 1), dt)


def as_time(v, dt, device):
    """``v`` (a garray array, or host data NumPy parses) as a garray array of time dtype
    ``dt``."""
    if isinstance(v, _core.ndarray):
        return v.astype(dt, copy=False)
    return _core.asarray(np.asarray(v).astype(dt), device=device)


__all__ = ["reduce", "sort_keys", "from_sort_keys", "as_time", "T"]
