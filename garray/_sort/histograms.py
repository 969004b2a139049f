"""Counting: bincount by a scatter-add, histogram, histogram2d, histogramdd on the sort
kernels.

Note [Counting by sorting]
~~~~~~~~~~~~~~~~~~~~~~~~~~
1. No atomics: the values are sorted (with their weights carried through argsort), and
   each bin's count is the difference of two insertion points (``searchsorted`` of the
   bin edges); weighted sums are differences of the cumulative sum of the sorted
   weights, which is how NumPy's own histogram sums weights over non-uniform bins.
   bincount is ``add.at`` instead (ufunc.at: in input order on the CPU device, a fold
   over sorted runs on GPUs, no atomics either): NumPy's loop, so its weighted sums
   have NumPy's bits, and 8 times faster than sorting.
2. The host reads only what fixes the output's shape or checks the input: bincount's
   largest value, whether a value is negative; histogram's range when none is given
   (the edges themselves are computed on the device by ``linspace``).
"""

from .._dtypes import kind_of as _kind_of
import math
import operator

from .._args import as_array
from .. import _core, _dtypes
from .. import _dtype_time as _time
from .._creation.ranges import linspace
from .._elementwise.ufuncs import add as _add
from .._reduce.scans import cumsum
from .sorting import _sort_rows, searchsorted, take_rows
from .._manip.manipulation import concat

__all__ = ["bincount", "histogram", "histogram2d", "histogramdd", "histogram_bin_edges"]

_range = range


def _sorted_with(x, weights):
    """x (1-d) sorted, and weights in the same order (or None)."""
    x2 = x.reshape((1, -1))
    if not x2.flags.c_contiguous:
        x2 = x2.copy()
    if weights is None:
        return _sort_rows(x2, False, False).reshape((-1,)), None
    order = _sort_rows(x2, True, False)
    w2 = weights.reshape((1, -1))
    if not w2.flags.c_contiguous:
        w2 = w2.copy()
    return take_rows(x2, order).reshape((-1,)), take_rows(w2, order).reshape((-1,))


def _bin_sums(points, sw, dev):
    """Counts (int64) or weighted sums (float64/complex) between consecutive insertion
    points (1-d int64)."""
    if sw is None:
        return points[1:] - points[:-1]
    acc = _dtypes.complex128 if _kind_of(sw.dtype) == "c" else _dtypes.float64
    zero = _core.zeros((1,), dtype=acc, device=dev)
    cw = concat([zero, cumsum(sw.astype(acc))])
    at = take_rows(cw.reshape((1, -1)), points.reshape((1, -1))).reshape((-1,))
    return at[1:] - at[:-1]


def bincount(x, /, weights=None, minlength=0):
    """Number of occurrences of each value 0, 1, ..., max(x) in the non-negative integer
    array ``x`` (or the sum of ``weights`` at them, as float64).

    Example: ``garray.bincount(garray.asarray([0, 1, 1, 3]))`` -> ``[1, 2, 0, 1]``.

    Parameters
    ----------
    x : ndarray or array_like
        1-d non-negative integers.
    weights : ndarray or array_like, optional
        Weights of x's shape.
    minlength : int, optional
        Least length of the result.

    Returns
    -------
    ndarray
        int64 counts, or float64 sums of the weights; of length max(max(x) + 1,
        minlength).

    See Also
    --------
    numpy.bincount
    """
    x = as_array(x, "bincount: x")
    if x.ndim != 1:
        raise ValueError(f"bincount: x must be 1-d, got {x.ndim} dimensions")
    if _kind_of(x.dtype) not in "biu":   # uint64 casts to int64 as NumPy's (a wrap is negative)
        raise TypeError(f"bincount: cannot cast array data from {x.dtype} to int64 "
                        f"according to the rule 'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("bincount: minlength must be non-negative")
    x = x.astype(_dtypes.int64, copy=False)
    dev = x.device
    if not x.size:                 # NumPy: int64 zeros, the weights unread
        return _core.zeros((minlength,), dtype=_dtypes.int64, device=dev)
    if bool((x < 0).any()):
        raise ValueError("bincount: 'list' argument must have no negative elements")
    top = int(x.max())             # the output's length
    if weights is not None:
        weights = as_array(weights, "bincount: weights")
        if _kind_of(weights.dtype) == "c":
            raise TypeError("bincount: cannot cast complex weights to float64")
        if weights.shape != x.shape:
            raise ValueError("bincount: the weights and list don't have the same length.")
    nb = max(top + 1, minlength)
    # a scatter-add in input order (ufunc.at): NumPy's loop, so the weighted sums have
    # its bits; the sort and search it replaces took 10 times as long
    if weights is None:
        out = _core.zeros((nb,), dtype=_dtypes.int64, device=dev)
        _add.at(out, x, 1)
    else:
        out = _core.zeros((nb,), dtype=_dtypes.float64, device=dev)
        _add.at(out, x, weights.astype(_dtypes.float64, copy=False))
    return out


_ESTIMATORS = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")


def _edges(a, bins, range_, dev):
    if isinstance(bins, str):
        if bins not in _ESTIMATORS:
            raise ValueError(f"histogram: bins: {bins!r} is not a valid estimator")
        raise NotImplementedError(f"histogram: bins={bins!r} (estimators) is not supported")
    if isinstance(bins, int) or (isinstance(bins, _core.ndarray) and bins.ndim == 0):
        nb = operator.index(bins)
        if nb < 1:
            raise ValueError("histogram: `bins` must be positive, when an integer")
        if range_ is not None:
            lo, hi = range_
            if lo > hi:
                raise ValueError("histogram: max must be larger than min in range parameter.")
            lo, hi = float(lo), float(hi)
        elif a.size:
            lo, hi = float(a.min()), float(a.max())     # the extent fixes the edges
        else:
            lo, hi = 0.0, 1.0
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ValueError(f"histogram: autodetected range of [{lo}, {hi}] is not finite")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        # NumPy: result_type(first_edge, last_edge, a), made a float
        dt = a.dtype if _kind_of(a.dtype) == "f" else _dtypes.float64
        edges = linspace(lo, hi, nb + 1, dtype=dt, device=dev)
        # a range too wide (or too narrow) for finite, increasing edges in dt
        if bool((~(edges[:-1] < edges[1:])).any()):
            raise ValueError(f"histogram: Too many bins for data range. Cannot create {nb} "
                             f"finite-sized bins.")
        return edges
    e = as_array(bins, "histogram: bins")
    if e.ndim == 0:                         # a NumPy integer scalar, or a TypeError
        if _kind_of(e.dtype) not in "biu":
            raise TypeError("histogram: `bins` must be an integer, a string, or an array")
        return _edges(a, int(e), range_, dev)
    if e.ndim != 1:
        raise ValueError("histogram: `bins` must be 1d, when an array")
    if e.shape[0] > 1 and bool((e[1:] < e[:-1]).any()):
        raise ValueError("histogram: `bins` must increase monotonically, when an array")
    return e


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """The bin edges ``histogram`` would use.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    bins : int or ndarray, optional
        A number of equal bins, or increasing edges.
    range : tuple of two float, optional
        The (lower, upper) range.
    weights : ndarray, optional
        Accepted as NumPy's (unused by the equal-width rule).

    Returns
    -------
    ndarray
        float64 edges.

    See Also
    --------
    numpy.histogram_bin_edges
    """
    a = as_array(a, "histogram_bin_edges: a")
    if weights is not None and as_array(weights, "histogram_bin_edges: weights").shape != \
            a.shape:
        raise ValueError("histogram_bin_edges: weights should have the same shape as a.")
    return _edges(a.reshape(-1), bins, range, a.device)


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """Counts of ``a`` in ``bins`` (an int: equal bins over ``range`` or a's extent;
    or increasing edges).  Bins are half-open, the last closed.  Returns (hist, edges).

    ``density=True`` divides by the total count (or weight) and the bin widths.
    Values outside the bins (and NaNs, with a given range) are not counted.

    Example: ``garray.histogram(garray.asarray([1, 2, 1]), bins=2)`` ->
    ``([2, 1], [1., 1.5, 2.])``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    bins : int or ndarray, optional
        A number of equal bins, or increasing edges.
    range : tuple of two float, optional
        The (lower, upper) range of equal bins (a's extent by default).
    density : bool, optional
        Normalise to a probability density.
    weights : ndarray, optional
        Weights of a's shape.

    Returns
    -------
    tuple of ndarray
        (hist, edges): int64 counts (float64 with weights or density) and the float64
        edges.

    See Also
    --------
    numpy.histogram
    """
    _time.refuse("histogram", a, bins, error=NotImplementedError)
    a = as_array(a, "histogram: a").reshape((-1,))
    if _kind_of(a.dtype) == "c":
        raise NotImplementedError("histogram: complex input is not supported")
    dev = a.device
    if weights is not None:
        weights = as_array(weights, "histogram: weights").reshape((-1,))
        if weights.shape != a.shape:
            raise ValueError("histogram: weights should have the same shape as a.")
    edges = _edges(a, bins, range, dev)
    ct = _dtypes.result_type(a.dtype, edges.dtype)
    s, sw = _sorted_with(a.astype(ct, copy=False), weights)
    ec = edges.astype(ct, copy=False)
    left = searchsorted(s, ec[:-1], side="left")
    last = searchsorted(s, ec[-1:], side="right")
    points = concat([left, last])
    n = _bin_sums(points, sw, dev)
    if sw is not None:       # NumPy's hist has the weights' dtype (bool: int64)
        n = n.astype(_dtypes.int64 if _kind_of(weights.dtype) == "b" else weights.dtype)
    if density:
        widths = (edges[1:] - edges[:-1]).astype(_dtypes.float64)
        nf = n.astype(_dtypes.result_type(n.dtype, _dtypes.float64))   # complex stays
        return nf / widths / nf.sum(), edges
    return n, edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """D-dimensional histogram of ``sample`` ((N, D) array, or a sequence of D 1-d
    arrays): float64 counts (or weights) per bin and the D edge arrays.

    ``bins``: an int, a sequence of D ints, or a sequence of D increasing edge arrays;
    ``range``: a sequence of D (min, max) pairs (None entries: the data's extent).
    Each dimension's last bin is closed.

    Parameters
    ----------
    sample : ndarray or sequence of ndarray
        The points.
    bins : int or sequence, optional
        See above.
    range : sequence, optional
        See above.
    density : bool, optional
        Normalise to a probability density.
    weights : ndarray, optional
        Weights of the points.

    Returns
    -------
    tuple
        (H, edges): the float64 histogram and a list of D edge arrays.

    See Also
    --------
    numpy.histogramdd
    """
    _time.refuse("histogramdd", sample, *(sample if isinstance(sample, (list, tuple)) else ()))
    if isinstance(sample, _core.ndarray) and sample.ndim == 2:
        cols = [sample[:, i] for i in _range(sample.shape[1])]
    elif isinstance(sample, _core.ndarray) and sample.ndim == 1:
        cols = [sample]
    else:
        cols = [as_array(c, "histogramdd").reshape((-1,)) for c in sample]
    d = len(cols)
    n = cols[0].shape[0] if d else 0
    if any(c.shape != (n,) for c in cols):
        raise ValueError("histogramdd: the sample dimensions must have the same length")
    if any(_kind_of(c.dtype) == "c" for c in cols):
        raise NotImplementedError("histogramdd: complex input is not supported")
    if isinstance(bins, int):
        bins = [bins] * d
    if len(bins) != d:
        raise ValueError("histogramdd: the dimension of bins must be equal to the "
                         "dimension of the sample x.")
    if range is None:
        range = [None] * d
    if len(range) != d:
        raise ValueError("histogramdd: range argument must have one entry per dimension")
    dev = cols[0].device if d else None
    edges = []
    for c, b, r in zip(cols, bins, range):
        if isinstance(b, str):              # NumPy: str < int, a TypeError
            raise TypeError(f"histogramdd: bins: estimators ({b!r}) are for 1-d histogram")
        if isinstance(b, int) or (isinstance(b, _core.ndarray) and b.ndim == 0):
            # NumPy: linspace over the data's extent (in a float data's dtype), or over
            # a Python range (float64)
            own = _kind_of(c.dtype) == "f" and r is None and c.size
            e = _edges(c if own else c.astype(_dtypes.float64), b, r, dev)
        else:
            e = _edges(c, b, None, dev)   # NumPy keeps an edge array's own dtype
            if not e.shape[0]:
                raise IndexError("histogramdd: bins: an edge array may not be empty")
        edges.append(e)
    nbin = [e.shape[0] + 1 for e in edges]        # with the two outlier bins
    flat = _core.zeros((n,), dtype=_dtypes.int64, device=dev)
    stride = 1
    for c, e, nb in reversed(list(zip(cols, edges, nbin))):
        cf = c.astype(_dtypes.float64)
        e = e.astype(_dtypes.float64, copy=False)
        idx = searchsorted(e, cf, side="right")
        idx = idx - (cf == e[-1:]).astype(_dtypes.int64)   # the last bin is closed
        flat = flat + idx * stride
        stride *= nb
    if weights is not None:
        weights = as_array(weights, "histogramdd: weights").reshape((-1,))
    hist = bincount(flat, weights, minlength=stride).astype(_dtypes.float64)
    hist = hist[:stride].reshape(tuple(nbin))
    hist = hist[(slice(1, -1),) * d].copy()
    if density:
        s = hist.sum()
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = e.shape[0] - 1
            hist = hist / (e[1:] - e[:-1]).reshape(tuple(shape))
        hist = hist / s
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """Two-dimensional histogram of the points (x[i], y[i]): (H, xedges, yedges).

    ``bins``: an int, [int, int], one edge array for both, or [xedges, yedges].

    Parameters
    ----------
    x : ndarray
        x coordinates of the points.
    y : ndarray
        y coordinates of the points.
    bins : int, sequence or ndarray, optional
        See above.
    range : sequence, optional
        [[xmin, xmax], [ymin, ymax]].
    density : bool, optional
        Normalise to a probability density.
    weights : ndarray, optional
        Weights of the points.

    Returns
    -------
    tuple of ndarray
        (H, xedges, yedges), H float64.

    See Also
    --------
    numpy.histogram2d
    """
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb not in (1, 2):
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
