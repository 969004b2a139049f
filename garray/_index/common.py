"""Argument helpers shared by the indexing routines: index
arguments as integer arrays on an array's device, the out-of-range modes ('raise',
'wrap', 'clip') and an int64 ``arange`` for building keys.
"""

import numpy

from .. import _core
from .._core import ndarray
from .._creation.ranges import arange
from .._elementwise.functions import clip


def _index_array(indices, like, name="indices"):
    """indices as an integer garray array on like's device."""
    if isinstance(indices, ndarray):
        if indices.dtype.kind not in "iu":
            raise IndexError(f"{name}: arrays used as indices must be of integer type, "
                             f"got {indices.dtype}")
        return indices
    # Host index arrays are taken, as ``g[numpy_index]`` takes them: Dask passes its
    # own NumPy indices through numpy.take on garray chunks.
    h = numpy.asarray(indices)
    if h.size == 0 and h.dtype.kind not in "iu":
        h = h.astype(numpy.int64)
    if h.dtype.kind not in "iu":
        raise IndexError(f"{name}: arrays used as indices must be of integer type, got "
                         f"{h.dtype}")
    return _core.asarray(h, device=like.device)


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
