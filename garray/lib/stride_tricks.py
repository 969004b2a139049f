"""Views with chosen strides: as_strided and sliding_window_view.

Both are views of the array's memory made by garray's checked strided-view primitive
(cython/_strided.pxi, Note [Strided views]): unlike NumPy's as_strided, a view that
could touch bytes outside the memory the array can reach raises ValueError instead of
reading stray memory, and strides must be multiples of the itemsize.
"""

from .. import _core
from .._args import as_array, normalize_axis_tuple
from .._manip.common import int_tuple

__all__ = ["as_strided", "sliding_window_view"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of ``x``'s memory with ``shape`` and byte ``strides`` (``x``'s own by
    default).  ValueError when the view could reach outside ``x``'s allocation (NumPy
    does not check; garray does, so no kernel reads freed memory).  ``writeable=False``
    makes it read-only; a read-only ``x`` gives a read-only view.

    >>> a = garray.arange(6)
    >>> as_strided(a, shape=(4, 3), strides=(8, 8)).shape
    (4, 3)

    Parameters
    ----------
    x : ndarray
        The array whose memory is viewed.
    shape : tuple of int, optional
        The view's shape.
    strides : tuple of int, optional
        The view's byte strides.
    subok : bool, optional
        Keep a subclass.
    writeable : bool, optional
        Whether the view can be written.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.lib.stride_tricks.as_strided
    """
    x = as_array(x, "x")
    shape = x.shape if shape is None else int_tuple(shape, "shape")
    strides = x.strides if strides is None else int_tuple(strides, "strides")
    return _core._strided_view(x, shape, strides, 0, writeable)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of ``window_shape`` over ``x`` (over ``axis``, all axes when None),
    as a read-only view of shape x.shape - window + 1 followed by the window's shape.

    Parameters
    ----------
    x : ndarray
        Input array.
    window_shape : int or tuple of int
        The window's shape.
    axis : int or tuple of int, optional
        The axes the window moves along.
    subok : bool, optional
        Keep a subclass.
    writeable : bool, optional
        Whether the view can be written.

    Returns
    -------
    ndarray
        A read-only view (unless writeable).

    See Also
    --------
    numpy.lib.stride_tricks.sliding_window_view
    """
    x = as_array(x, "x")
    window = int_tuple(window_shape, "window_shape")
    if any(w < 0 for w in window):
        raise ValueError("window_shape: `window_shape` cannot contain negative values")
    if axis is None:
        axes = tuple(range(x.ndim))
        if len(window) != len(axes):
            raise ValueError(f"window_shape: Since axis is `None`, must provide "
                             f"window_shape for all dimensions of `x`; got {len(window)} "
                             f"window_shape elements and `x.ndim` is {x.ndim}.")
    else:
        axes = normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
        if len(window) != len(axes):
            raise ValueError(f"window_shape: Must provide matching length window_shape "
                             f"and axis; got {len(window)} window_shape elements and "
                             f"{len(axes)} axes elements.")
    strides = x.strides + tuple(x.strides[ax] for ax in axes)
    trimmed = list(x.shape)
    for ax, dim in zip(axes, window):
        if trimmed[ax] < dim:
            raise ValueError("window_shape: window shape cannot be larger than input "
                             "array shape")
        trimmed[ax] -= dim - 1
    return _core._strided_view(x, tuple(trimmed) + window, strides, 0, writeable)
