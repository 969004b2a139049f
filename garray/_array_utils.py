"""NumPy's small namespace functions about arrays: array, asanyarray, copy,
ascontiguousarray, asfortranarray, isscalar, ndim, shape, size, iterable.

Copies and layout changes run on the array's device (garray's copy kernels); the
inquiries read metadata only (a list's shape is found on the host, as NumPy does).
"""

import numbers
import operator

import numpy

from . import _core
from ._args import as_array
from ._core import asarray, ndarray

__all__ = ["array", "asanyarray", "copy", "ascontiguousarray", "asfortranarray", "isscalar",
           "ndim", "shape", "size", "iterable"]


def array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0,  # noqa: A002
          device=None):
    """An array from ``object``, copied by default (NumPy's ``numpy.array``).

    Parameters
    ----------
    object : array_like
        A garray or NumPy array, a (nested) sequence, a scalar, a DLPack or buffer
        exporter.
    dtype : dtype, optional
        The result's dtype (by default the input's).
    copy : bool or None, optional
        True (always copy), None (only when needed), False (never: ValueError when a copy
        is needed).
    order : {'K', 'A', 'C', 'F'}, optional
        'K' keeps the input's layout; 'A', 'C' or 'F' for the copy.
    subok : bool, optional
        Keep a garray.ndarray subclass (else a plain garray.ndarray).
    ndmin : int, optional
        The least number of dimensions; ones are prepended.
    device : Device, optional
        Where the result lives (the input's, else the current device).

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.array

    Examples
    --------
    >>> garray.array([[1, 2]], ndmin=3).shape
    (1, 1, 2)
    """
    if isinstance(ndmin, bool) or not hasattr(type(ndmin), "__index__"):
        raise TypeError(f"ndmin: expected an integer, got {type(ndmin).__name__}")
    ndmin = operator.index(ndmin)
    r = asarray(object, dtype, order, device=device, copy=copy)
    if not subok and type(r) is not ndarray:
        r = r.view(ndarray)
    elif subok and isinstance(object, ndarray) and type(r) is not type(object):
        r = r.view(type(object))            # the copy, as the input's subclass
    if r.ndim < ndmin:
        r = r.reshape((1,) * (ndmin - r.ndim) + r.shape)
    return r


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None):
    """``asarray`` that keeps ``garray.ndarray`` subclasses.

    Parameters
    ----------
    a : array_like
        As asarray.
    dtype : dtype, optional
        As asarray.
    order : str, optional
        As asarray.
    device : Device or str, optional
        As asarray.
    copy : bool or None, optional
        As asarray.

    Returns
    -------
    ndarray
        a itself for a garray array (or subclass) needing no conversion.

    See Also
    --------
    numpy.asanyarray
    """
    return asarray(a, dtype, order, device=device, copy=copy)


def copy(a, order="K", subok=False):
    """A copy of ``a`` on its device, in ``order`` ('K': a's layout, 'A', 'C', 'F').

    Example:
        >>> x = garray.asarray([1, 2]); y = garray.copy(x); y[0] = 5; int(x[0])
        1

    Parameters
    ----------
    a : array_like
        Input.
    order : {'K', 'A', 'C', 'F'}, optional
        The copy's layout.
    subok : bool, optional
        Keep a garray.ndarray subclass.

    Returns
    -------
    ndarray
        A new array on a's device.

    See Also
    --------
    numpy.copy
    """
    a = as_array(a, "a")
    r = _core._copy_with_order(a, order)
    if subok and type(a) is not ndarray:
        r = r.view(type(a))
    return r


def _contiguous(a, dtype, order):
    r = asarray(a, dtype, order)
    if r.ndim == 0:                 # NumPy: "at least 1-d"
        r = r.reshape(1)
    return r


def ascontiguousarray(a, dtype=None):
    """``a`` as a C-contiguous array of at least one dimension (a copy only when needed).

    Parameters
    ----------
    a : array_like
        Input.
    dtype : dtype, optional
        The result's dtype.

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.ascontiguousarray
    """
    return _contiguous(a, dtype, "C")


def asfortranarray(a, dtype=None):
    """``a`` as an F-contiguous (column-major) array of at least one dimension (a copy
    only when needed).

    Parameters
    ----------
    a : array_like
        Input.
    dtype : dtype, optional
        The result's dtype.

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.asfortranarray
    """
    return _contiguous(a, dtype, "F")


_SCALAR_TYPES = (int, float, complex, bool, bytes, str, memoryview)


def isscalar(element):
    """True for scalars: Python numbers, str, bytes, NumPy scalars; False for arrays
    (0-d ones included), lists and None.

    Parameters
    ----------
    element : any
        The object.

    Returns
    -------
    bool

    See Also
    --------
    numpy.isscalar
    """
    return (isinstance(element, numpy.generic) or type(element) in _SCALAR_TYPES
            or isinstance(element, numbers.Number))


def ndim(a):
    """The number of dimensions of ``a`` (an array, a nested sequence, a scalar).

    Parameters
    ----------
    a : any
        The object.

    Returns
    -------
    int

    See Also
    --------
    numpy.ndim
    """
    if isinstance(a, ndarray):
        return a.ndim
    return numpy.ndim(a)        # the structure of host data, not values


def shape(a):
    """The shape of ``a`` (an array, a nested sequence, a scalar).

    Parameters
    ----------
    a : any
        The object.

    Returns
    -------
    tuple of int

    See Also
    --------
    numpy.shape
    """
    if isinstance(a, ndarray):
        return a.shape
    return numpy.shape(a)


def size(a, axis=None):
    """The number of elements of ``a``, or along ``axis`` (an int or a tuple of ints).

    Parameters
    ----------
    a : any
        The object.
    axis : int or tuple of int, optional
        Count along these axes only.

    Returns
    -------
    int

    See Also
    --------
    numpy.size
    """
    if not isinstance(a, ndarray):
        return numpy.size(a, axis)
    if axis is None:
        return a.size
    axes = axis if isinstance(axis, tuple) else (axis,)
    seen = set()
    for ax in axes:
        if isinstance(ax, bool) or not hasattr(type(ax), "__index__"):
            raise TypeError(f"axis: expected an integer, got {type(ax).__name__}")
        ax = operator.index(ax)
        if not -a.ndim <= ax < a.ndim:
            raise numpy.exceptions.AxisError(
                f"axis: axis {ax} is out of bounds for array of dimension {a.ndim}")
        if ax % a.ndim in seen:
            raise ValueError(f"axis: repeated axis {ax}")
        seen.add(ax % a.ndim)
    n = 1
    for ax in seen:
        n *= a.shape[ax]
    return n


def iterable(y):
    """Whether ``iter(y)`` works (False for 0-d arrays and scalars).

    Parameters
    ----------
    y : any
        The object.

    Returns
    -------
    bool

    See Also
    --------
    numpy.iterable
    """
    try:
        iter(y)
    except TypeError:
        return False
    return True
