"""Where a condition holds: ``where``, ``argwhere`` and ``flatnonzero``, on garray's
``nonzero`` (garray/_index/advanced.py).
"""

import numpy

from .._args import as_array
from .. import _core
from .advanced import nonzero
from .._elementwise.functions import where as _where3
from .._manip.manipulation import stack

__all__ = ["flatnonzero", "argwhere", "where"]


def flatnonzero(a):
    """Indices of the nonzero elements of the flattened ``a``.

    Parameters
    ----------
    a : ndarray
        Input array (a garray array).

    Returns
    -------
    ndarray
        1-d int64 indices.

    See Also
    --------
    numpy.flatnonzero
    """
    return nonzero(as_array(a, "flatnonzero: a").reshape(-1))[0]


def argwhere(a):
    """Indices of the nonzero elements, one row per element.

    Parameters
    ----------
    a : ndarray
        Input array (a garray array).

    Returns
    -------
    ndarray
        int64, of shape (number of nonzero elements, a.ndim).

    See Also
    --------
    numpy.argwhere
    """
    a = as_array(a, "argwhere: a")
    if a.ndim == 0:
        return _core.zeros((int(bool(a != 0)), 0), dtype=numpy.int64, device=a.device)
    return stack(nonzero(a), axis=-1)


_NO_VALUE = numpy._NoValue      # where(c, None) is a value given, as in NumPy


def where(condition, x=_NO_VALUE, y=_NO_VALUE, /):
    """``where(condition, x, y)``: elements of x where condition else of y; with one
    argument, ``nonzero(condition)``.

    Parameters
    ----------
    condition : array_like
        Booleans (a garray array, or a sequence converted onto the default device).
    x : array_like or scalar, optional
        Values where condition holds.
    y : array_like or scalar, optional
        Values elsewhere.  Two Python scalars promote as NumPy's (``where(c, 1, 0.5)``
        is float64).  A NumPy array is refused (TypeError): copy it with asarray.

    Returns
    -------
    ndarray or tuple of ndarray
        The selected values (x and y's result_type, broadcast), or nonzero(condition)
        for one argument.

    See Also
    --------
    numpy.where
    """
    if x is _NO_VALUE and y is _NO_VALUE:
        return nonzero(as_array(condition, "condition"))
    if x is _NO_VALUE or y is _NO_VALUE:
        raise ValueError("either both or neither of x and y should be given")
    return _where3(condition, x, y)
