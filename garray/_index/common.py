"""Argument helpers shared by the indexing routines: index
arguments as integer arrays on an array's device, the out-of-range modes ('raise',
'wrap', 'clip') and an int64 ``arange`` for building keys.
"""

from .._dtypes import kind_of as _kind_of
import numpy

from .. import _core
from .._core import ndarray
from .._creation.ranges import arange
from .._elementwise.functions import clip


def _index_array(indices, like, name="indices", *, take=False, error=None):
    """indices as an integer garray array on like's device.

    ``take``: NumPy's conversion of take/put/choose indices: an array casts to intp by
    the same_kind rule (bool and unsigned pass; a float array is TypeError), a sequence
    converts as intp (a float truncates, as int() does).  Otherwise integer arrays only,
    a non-integer one raising ``error`` (IndexError, as take_along_axis; ravel_multi_index
    passes NumPy's TypeError message)."""
    err = error or (IndexError, f"{name}: arrays used as indices must be of integer type")
    host = None
    if isinstance(indices, ndarray):
        kind = _kind_of(indices.dtype)
        if kind in "iu":
            return indices
    else:
        # Host index arrays are taken, as ``g[numpy_index]`` takes them: Dask passes its
        # own NumPy indices through numpy.take on garray chunks.
        if take and not isinstance(indices, numpy.ndarray):
            host = numpy.asarray(indices)
            if _kind_of(host.dtype) != "f":          # NumPy's own error for strings, complex
                host = numpy.asarray(indices, dtype=numpy.intp)
            else:
                host = host.astype(numpy.intp)  # a float truncates, as int() does
        else:
            host = numpy.asarray(indices)
        if host.size == 0 and _kind_of(host.dtype) not in "iu":
            host = host.astype(numpy.int64)
        kind = _kind_of(host.dtype)
    if kind not in "iu":
        if take and kind == "b":
            return (_core.asarray(host, device=like.device) if host is not None
                    else indices).astype(numpy.int64)
        if take and kind in "fc":
            dt = indices.dtype if host is None else host.dtype
            raise TypeError(f"{name}: Cannot cast array data from dtype('{dt}') to "
                            f"dtype('int64') according to the rule 'same_kind'")
        dt = indices.dtype if host is None else host.dtype
        raise err[0](f"{err[1]}, got {dt}")
    return _core.asarray(host, device=like.device)


def _apply_mode(idx, n, mode, name="mode"):
    if mode is None or mode == "raise":     # NumPy takes None for 'raise'
        return idx
    if n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode == "wrap":
        return idx % n
    if mode == "clip":
        return clip(idx, 0, n - 1)
    raise ValueError(f"{name}: must be one of 'raise', 'wrap' or 'clip', got {mode!r}")


def _arange(n, device):
    return arange(n, dtype=numpy.int64, device=device)
