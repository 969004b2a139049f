"""Helpers shared by the composite reductions (garray/_reduce/moments.py, nan.py,
statistics.py, comparisons.py): dtype kinds and casts, a Python-bool ``any`` and the
RuntimeWarning attributed to the public function's caller.
"""

from .._dtypes import kind_of as _kind_of
import warnings

from .. import _dtypes
from . import reductions as _red

_F64 = _dtypes.normalize_dtype("float64", "float64")


def _kind(x):
    return _kind_of(x.dtype)


def _inexact(x):
    return _kind_of(x.dtype) in "fc"


def _norm_dtype(dtype, name):
    return None if dtype is None else _dtypes.normalize_dtype(dtype, f"{name}: dtype")


def _cast(x, dt):
    return x if dt is None or x.dtype == dt else x.astype(dt)


def _as_dtype(r, dt):
    """r in dtype dt (NumPy's ``true_divide(..., out=ret, casting='unsafe')``)."""
    return r if r.dtype == dt else r.astype(dt)


def _any(x):
    """Python bool: some element of garray array x is nonzero (one reduction)."""
    return bool(_red.any(x))


def _warn(msg, depth=0):
    """RuntimeWarning attributed to the caller of the public function (``depth``: the
    helpers between it and here)."""
    warnings.warn(msg, RuntimeWarning, stacklevel=3 + depth)
