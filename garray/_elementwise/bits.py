"""packbits and unpackbits: bits of uint8 arrays, on the device (shifts, masks and a
weighted sum of 8 bits per byte)."""

from .._dtypes import kind_of as _kind_of
import operator

import numpy

from .._args import as_array
from . import ufuncs as _ufuncs
from .. import _dtypes
from .._core import zeros
from .._creation.ranges import arange
from .._manip.views import moveaxis
from .._manip.manipulation import concat
from .._reduce.reductions import sum as _sum

__all__ = ["packbits", "unpackbits"]


def _bitorder(bitorder):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return bitorder == "big"


def _last_axis(x, axis):
    """x with ``axis`` moved last (x flattened for None), and the axis to restore."""
    if axis is None:
        return x.reshape(-1), 0
    if isinstance(axis, bool) or not hasattr(type(axis), "__index__"):
        raise TypeError(f"axis: expected an integer, got {type(axis).__name__}")
    a = operator.index(axis)
    if not -x.ndim <= a < x.ndim:
        raise numpy.exceptions.AxisError(
            f"axis: axis {a} is out of bounds for array of dimension {x.ndim}")
    return moveaxis(x, a, -1), a % x.ndim


def packbits(a, /, axis=None, bitorder="big"):
    """Pack the truth values of ``a`` (integers or bools) into uint8 bytes, 8 per byte
    along ``axis`` (the flattened array by default), zero-padded at the end.

    >>> garray.packbits(garray.asarray([1, 0, 1]))
    array([160], dtype=uint8)

    Parameters
    ----------
    a : ndarray
        Integer or bool input.
    axis : int, optional
        The axis (None: flattened).
    bitorder : {'big', 'little'}, optional
        Bit order within a byte.

    Returns
    -------
    ndarray
        uint8.

    See Also
    --------
    numpy.packbits
    """
    x = as_array(a, "a")
    if _kind_of(x.dtype) not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    big = _bitorder(bitorder)
    x, axis = _last_axis(x, axis)
    bits = _ufuncs.not_equal(x, 0).astype(_dtypes.uint8)
    n = bits.shape[-1]
    if n % 8:
        pad = zeros(bits.shape[:-1] + (8 - n % 8,), _dtypes.uint8, device=bits.device)
        bits = concat([bits, pad], axis=-1)
    bits = bits.reshape(bits.shape[:-1] + (bits.shape[-1] // 8, 8))
    weights = _ufuncs.bitwise_left_shift(
        1, arange(7, -1, -1, dtype=_dtypes.uint8, device=bits.device) if big
        else arange(8, dtype=_dtypes.uint8, device=bits.device))
    packed = _sum(_ufuncs.multiply(bits, weights), axis=-1, dtype=_dtypes.uint8)
    return moveaxis(packed, -1, axis) if packed.ndim else packed


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of uint8 array ``a`` as a uint8 array of 0s and 1s, 8 per byte along
    ``axis`` (flattened by default); ``count`` keeps that many bits (negative: drops
    them from the end, ValueError past the start; past the end: zero padding).

    >>> garray.unpackbits(garray.asarray([5], dtype=garray.uint8))
    array([0, 0, 0, 0, 0, 1, 0, 1], dtype=uint8)

    Parameters
    ----------
    a : ndarray
        uint8 input.
    axis : int, optional
        The axis (None: flattened).
    count : int, optional
        Number of bits to keep.
    bitorder : {'big', 'little'}, optional
        Bit order within a byte.

    Returns
    -------
    ndarray
        uint8 zeros and ones.

    See Also
    --------
    numpy.unpackbits
    """
    x = as_array(a, "a")
    if x.dtype != numpy.dtype(numpy.uint8):
        raise TypeError("Expected an input array of unsigned byte data type")
    big = _bitorder(bitorder)
    if x.ndim == 0:
        x = x.reshape(1)
    x, axis = _last_axis(x, axis)
    shifts = (arange(7, -1, -1, dtype=_dtypes.uint8, device=x.device) if big
              else arange(8, dtype=_dtypes.uint8, device=x.device))
    bits = _ufuncs.bitwise_and(_ufuncs.bitwise_right_shift(x[..., None], shifts), 1)
    total = x.shape[-1] * 8
    bits = bits.reshape(x.shape[:-1] + (total,))
    if count is not None:
        count = operator.index(count)
        if count < -total:
            raise ValueError("count: -count larger than number of elements")
        keep = count if count >= 0 else total + count
        if keep <= total:
            bits = bits[..., :keep]
        else:
            pad = zeros(bits.shape[:-1] + (keep - total,), _dtypes.uint8, device=x.device)
            bits = concat([bits, pad], axis=-1)
    return moveaxis(bits, -1, axis).copy()
