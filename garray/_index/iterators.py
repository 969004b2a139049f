"""Iteration over arrays: ``ndindex``, ``ndenumerate`` and ``flatiter`` (``x.flat``).
"""

import itertools
import operator

import numpy

from .._args import as_array
from .. import _core
from .._core import ndarray
from .common import _arange
from .index_arrays import unravel_index

__all__ = ["ndindex", "ndenumerate", "flatiter"]


def ndindex(*shape):
    """An iterator over the index tuples of an array of ``shape`` (C order).

    Parameters
    ----------
    *shape : int
        The shape (or one tuple).

    Returns
    -------
    iterator
        Of index tuples.

    See Also
    --------
    numpy.ndindex
    """
    if len(shape) == 1 and not isinstance(shape[0], (int, numpy.integer)):
        shape = tuple(shape[0])
    return itertools.product(*(range(operator.index(s)) for s in shape))


def ndenumerate(arr):
    """(index, value) pairs of ``arr`` in C order; the values come to the host in one
    copy, as NumPy scalars.

    Parameters
    ----------
    arr : ndarray
        Input array.

    Returns
    -------
    iterator
        Of (index tuple, NumPy scalar) pairs.

    See Also
    --------
    numpy.ndenumerate
    """
    h = _core.asnumpy(as_array(arr, "ndenumerate: arr"))
    return numpy.ndenumerate(h)


class flatiter:
    """``x.flat``: a 1-d view of x in C order for reading, writing and iterating.
    Indexing reads or writes x's elements through garray's indexing (a flattened copy
    is taken for reads of a non-contiguous x); iteration brings the values to the host
    once.

    Parameters
    ----------
    base : ndarray
        The array to iterate over.

    See Also
    --------
    numpy.flatiter
    """

    def __init__(self, base):
        self.base = base

    def __len__(self):
        return self.base.size

    def _flat(self):
        return self.base.reshape(-1)

    def __getitem__(self, key):
        return self._flat()[key]

    def __setitem__(self, key, value):
        b = self.base
        if b.flags.c_contiguous:
            b.reshape(-1)[key] = value
            return
        idx = _arange(b.size, b.device)[key]
        if not isinstance(idx, ndarray) or idx.ndim == 0:
            idx = idx.reshape((1,))
        b[unravel_index(idx, b.shape)] = value

    def __iter__(self):
        return iter(_core.asnumpy(self._flat()))

    def copy(self):
        """A 1-d copy of the array's elements in C order (``x.flatten()``).

        Returns
        -------
        ndarray
            A new 1-d array on the array's device.
        """
        return self._flat().copy()

    def __array__(self, dtype=None, copy=None):
        return numpy.asarray(_core.asnumpy(self._flat()), dtype=dtype)
