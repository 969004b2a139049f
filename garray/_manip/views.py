"""The views the other families build on: moveaxis (creation, joining, indexing) and
broadcast_arrays (indexing, float16 ops), kept apart from the joining functions so those
modules import them without a cycle."""

from .._core import broadcast_shapes, broadcast_to, permute_dims
from .._args import as_array, as_arrays, normalize_axis


def moveaxis(x, source, destination, /):
    """Move axes to new positions (a view).

    Parameters
    ----------
    x : ndarray
        Input array.
    source : int or sequence of int
        The axes to move.
    destination : int or sequence of int
        Their new positions.

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.moveaxis
    """
    x = as_array(x, "x")
    src = source if isinstance(source, tuple) else (source,)
    dst = destination if isinstance(destination, tuple) else (destination,)
    src = [normalize_axis(a, x.ndim, "source") for a in src]      # NumPy's order
    dst = [normalize_axis(a, x.ndim, "destination") for a in dst]
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of axes")
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("repeated axis in source or destination")
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute_dims(x, tuple(order))


def broadcast_arrays(*arrays):
    """Views of ``arrays`` broadcast to one shape.

    Parameters
    ----------
    *arrays : ndarray
        The arrays (on one device).

    Returns
    -------
    tuple of ndarray
        Read-only views of the broadcast shape (NumPy returns a tuple since 2.0 as
        well).
    """
    arrays = as_arrays(arrays, "arrays")
    shape = broadcast_shapes(*[a.shape for a in arrays])
    return tuple(broadcast_to(a, shape) for a in arrays)
