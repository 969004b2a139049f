"""moveaxis: the axis permutation the other families build on (creation, joining,
indexing), kept apart from the joining functions so those can import it without a cycle."""

from .._core import permute_dims
from .._args import as_array, normalize_axis


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
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of axes")
    src = [normalize_axis(a, x.ndim, "source") for a in src]
    dst = [normalize_axis(a, x.ndim, "destination") for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("repeated axis in source or destination")
    order = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute_dims(x, tuple(order))
