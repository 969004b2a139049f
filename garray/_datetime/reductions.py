"""Reductions and sort keys of time arrays, on their int64 storage.

NaT propagates through ``min``, ``max`` and timedelta sums as NaN does through floats;
``argmin``/``argmax`` give the first NaT.  Sorting reads each value minus one as a
wrapping int64, which moves NaT (the int64 minimum) to the top: NaT sorts last, as NumPy.
"""

import numpy as np

from .. import _core
from .._elementwise import ufuncs as U
from .._core import where
from .values import storage, label, nat, keep_nat

_NONEMPTY = ("min", "max", "argmin", "argmax", "nanmin", "nanmax")


def reduce(name, x, axes, keepdims):
    """Reduction ``name`` (a row of garray/_tables/reduce.py) of time array ``x``."""
    v = storage(x)
    if name in _NONEMPTY and any(x.shape[a] == 0 for a in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no "
                         f"identity")
    if name in ("any", "all", "count_nonzero", "argmin"):
        # argmin: NaT is the int64 minimum, so its first index is the int64 argmin's
        return _core._reduce(name, v, axes, keepdims)
    if name in ("min", "nanmax"):      # NaT wins min; it wins max only alone
        return label(_core._reduce(name[-3:], v, axes, keepdims), x.dtype)
    m = nat(v)
    if name == "nanmin":
        r = _core._reduce("min", where(m, np.iinfo(np.int64).max, v), axes, keepdims)
        return label(keep_nat(r, _core._reduce("all", m, axes, keepdims)), x.dtype)
    hit = _core._reduce("any", m, axes, keepdims)          # the lines NaT propagates to
    if name == "argmax":
        return where(hit, _core._reduce("argmax", m, axes, keepdims),
                     _core._reduce("argmax", v, axes, keepdims))
    if name == "max" or (name == "sum" and x.dtype.kind == "m"):
        r = _core._reduce(name, v if name == "max" else where(m, 0, v), axes, keepdims)
        return label(keep_nat(r, hit), x.dtype)
    raise TypeError(f"{name}: not supported for {x.dtype}")


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


__all__ = ["reduce", "sort_keys", "from_sort_keys", "as_time"]
