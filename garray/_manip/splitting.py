"""NumPy's splits: ``array_split``, ``split``, ``hsplit``, ``vsplit`` and ``dsplit``,
each a list of views of the input along one axis (host work is on shapes only).
"""

import operator

from .._args import as_array, normalize_axis
from .common import axis_error

__all__ = ["split", "array_split", "hsplit", "vsplit", "dsplit"]

_S = slice(None)


def array_split(ary, indices_or_sections, axis=0):
    """Split into sub-arrays (views) along ``axis``: ``indices_or_sections`` is a count
    (the first ``len % count`` parts get one extra element) or the split positions.

    Parameters
    ----------
    ary : ndarray or array_like
        The array to split.
    indices_or_sections : int or sequence of int
        A number of equal parts, or the positions to split at.
    axis : int, optional
        The axis to split along.

    Returns
    -------
    list of ndarray
        Views of ary.

    See Also
    --------
    numpy.array_split
    """
    ary = as_array(ary, "ary")
    try:
        total = ary.shape[axis]
    except IndexError:
        raise axis_error(f"axis: axis {axis} is out of bounds for array of dimension "
                         f"{ary.ndim}") from None
    ax = normalize_axis(axis, ary.ndim)
    try:
        points = [0] + [operator.index(i) for i in indices_or_sections] + [total]
    except TypeError:
        n = operator.index(indices_or_sections)
        if n <= 0:
            raise ValueError("indices_or_sections: number sections must be larger than "
                             "0.") from None
        each, extras = divmod(total, n)
        points = [0]
        for i in range(n):
            points.append(points[-1] + each + (1 if i < extras else 0))
    pre = (_S,) * ax
    return [ary[pre + (slice(points[i], points[i + 1]),)] for i in range(len(points) - 1)]


def split(ary, indices_or_sections, axis=0):
    """Split into equal sub-arrays (a count that divides the axis) or at positions
    (views).

    Parameters
    ----------
    ary : ndarray or array_like
        The array to split.
    indices_or_sections : int or sequence of int
        A number of equal parts, or the positions to split at.
    axis : int, optional
        The axis to split along.

    Returns
    -------
    list of ndarray
        Views of ary.

    See Also
    --------
    numpy.split
    """
    ary = as_array(ary, "ary")
    try:
        len(indices_or_sections)
    except TypeError:
        n = operator.index(indices_or_sections)
        if n > 0 and ary.shape[normalize_axis(axis, ary.ndim)] % n:
            raise ValueError("indices_or_sections: array split does not result in an "
                             "equal division") from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """split along axis 1 (axis 0 for 1-d arrays).

    Parameters
    ----------
    ary : ndarray or array_like
        The array to split.
    indices_or_sections : int or sequence of int
        A number of equal parts, or the positions to split at.

    Returns
    -------
    list of ndarray
        Views of ary.

    See Also
    --------
    numpy.hsplit
    """
    ary = as_array(ary, "ary")
    if ary.ndim == 0:
        raise ValueError("ary: hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """split along axis 0 of an array with >= 2 axes.

    Parameters
    ----------
    ary : ndarray or array_like
        The array to split.
    indices_or_sections : int or sequence of int
        A number of equal parts, or the positions to split at.

    Returns
    -------
    list of ndarray
        Views of ary.

    See Also
    --------
    numpy.vsplit
    """
    ary = as_array(ary, "ary")
    if ary.ndim < 2:
        raise ValueError("ary: vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """split along axis 2 of an array with >= 3 axes.

    Parameters
    ----------
    ary : ndarray or array_like
        The array to split.
    indices_or_sections : int or sequence of int
        A number of equal parts, or the positions to split at.

    Returns
    -------
    list of ndarray
        Views of ary.

    See Also
    --------
    numpy.dsplit
    """
    ary = as_array(ary, "ary")
    if ary.ndim < 3:
        raise ValueError("ary: dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)
