"""Set routines: the Array API's unique_* family, NumPy's unique, isin and the 1-d set
operations, on garray's sort, searchsorted and indexing kernels.

Note [Unique]
~~~~~~~~~~~~~
1. The flattened input is sorted (argsort, stable, when indices or the inverse are
   asked for); a run starts where an element differs from the one before it.
2. NaN: the Array API's unique_* treat every NaN as distinct (NaN != NaN); NumPy's
   ``unique`` collapses them by default (``equal_nan=True``).  The sort puts NaNs last,
   so collapsing them is one more condition on the run starts.
3. values = sorted[starts]; counts = the gaps between starts; indices = the stable
   permutation at the starts (first occurrences); inverse = the run number of each
   sorted element, scattered back through the permutation.
Only the number of distinct values reaches the host (to size the results).
"""

from .._dtypes import kind_of as _kind_of
from collections import namedtuple

import numpy

from .. import _core
from .._args import as_array, normalize_axis
from .._creation.ranges import arange
from .._elementwise.functions import clip
from .._elementwise.ufuncs import isnan, logical_and, logical_not
from .._index.advanced import nonzero
from .._manip.views import moveaxis
from .._manip.joining import concatenate
from .._reduce.reductions import any as _any
from .._reduce.scans import cumsum
from .sorting import argsort, sort, lexsort, searchsorted

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
           "isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"]


UniqueAllResult = namedtuple("UniqueAllResult",
                             ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _arange(n, device):
    return arange(n, dtype=numpy.int64, device=device)


def _runs(s, equal_nan):
    """The bool array marking where a run of equal values starts in sorted ``s``."""
    first = _core.ones((min(s.size, 1),), dtype=numpy.bool_, device=s.device)
    diff = s[1:] != s[:-1]
    if equal_nan and _kind_of(s.dtype) in "fcmM":        # NaN, and NaT
        both_nan = logical_and(isnan(s[1:]), isnan(s[:-1]))
        diff = logical_and(diff, logical_not(both_nan))
    return concatenate([first, diff])


def _unique(x, want_index, want_inverse, want_counts, equal_nan):
    flat = x.reshape(-1)
    n = flat.size
    perm = None
    if want_index or want_inverse:
        perm = argsort(flat, stable=True)
        s = flat[perm]
    else:
        s = sort(flat)
    starts = nonzero(_runs(s, equal_nan))[0]
    values = s[starts]
    out = {"values": values}
    if want_index:
        out["indices"] = perm[starts]
    if want_counts:
        ends = concatenate([starts[1:], _core.full((1,), n, dtype=numpy.int64,
                                                   device=x.device)]) if n else starts
        out["counts"] = ends - starts
    if want_inverse:
        group = cumsum(_runs(s, equal_nan).astype(numpy.int64)) - 1
        inv = _core.empty((n,), dtype=numpy.int64, device=x.device)
        inv[perm] = group
        out["inverse"] = inv.reshape(x.shape)
    return out


def unique_values(x, /):
    """The distinct values of ``x``, sorted (NaNs distinct).

    Parameters
    ----------
    x : ndarray
        Input array.

    Returns
    -------
    ndarray
        1-d.

    See Also
    --------
    numpy.unique_values
    """
    return _unique(as_array(x, "unique_values: x"), False, False, False, False)["values"]


def unique_counts(x, /):
    """(values, counts) of the distinct values of ``x``.

    Parameters
    ----------
    x : ndarray
        Input array.

    Returns
    -------
    tuple of ndarray
        A named tuple (values, counts).

    See Also
    --------
    numpy.unique_counts
    """
    r = _unique(as_array(x, "unique_counts: x"), False, False, True, False)
    return UniqueCountsResult(r["values"], r["counts"])


def unique_inverse(x, /):
    """(values, inverse_indices): x == values[inverse_indices].

    Parameters
    ----------
    x : ndarray
        Input array.

    Returns
    -------
    tuple of ndarray
        A named tuple (values, inverse_indices).

    See Also
    --------
    numpy.unique_inverse
    """
    r = _unique(as_array(x, "unique_inverse: x"), False, True, False, False)
    return UniqueInverseResult(r["values"], r["inverse"])


def unique_all(x, /):
    """(values, indices, inverse_indices, counts) of the distinct values of ``x``.

    Parameters
    ----------
    x : ndarray
        Input array.

    Returns
    -------
    tuple of ndarray
        A named tuple (values, indices, inverse_indices, counts).

    See Also
    --------
    numpy.unique_all
    """
    r = _unique(as_array(x, "unique_all: x"), True, True, True, False)
    return UniqueAllResult(r["values"], r["indices"],
                                                       r["inverse"], r["counts"])


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, sorted=True):
    """NumPy's unique: the sorted distinct values, optionally with first indices,
    inverse and counts; ``axis`` finds distinct slices.

    Parameters
    ----------
    ar : ndarray or array_like
        Input array.
    return_index : bool, optional
        Also return the index of each value's first occurrence.
    return_inverse : bool, optional
        Also return the indices that rebuild ar from the values.
    return_counts : bool, optional
        Also return the number of occurrences of each value.
    axis : int or None, optional
        Find distinct slices along this axis (None: the flattened array).
    equal_nan : bool, optional
        Count all NaNs as one value.
    sorted : bool, optional
        Accepted for NumPy's signature (the values are always sorted).

    Returns
    -------
    ndarray or tuple of ndarray
        The values, then the arrays asked for (int64 indices and counts).

    See Also
    --------
    numpy.unique
    """
    ar = as_array(ar, "unique: ar")
    # sorted=False lets NumPy return any order; the sorted result satisfies it
    if axis is not None:
        return _unique_axis(ar, axis, return_index, return_inverse, return_counts,
                            equal_nan)
    r = _unique(ar, return_index, return_inverse, return_counts, equal_nan)
    res = [r["values"]]
    if return_index:
        res.append(r["indices"])
    if return_inverse:
        res.append(r["inverse"])
    if return_counts:
        res.append(r["counts"])
    return res[0] if len(res) == 1 else tuple(res)


def _unique_axis(ar, axis, return_index, return_inverse, return_counts, equal_nan):
    ax = normalize_axis(axis, ar.ndim)
    moved = moveaxis(ar, ax, 0)
    n = moved.shape[0]
    width = 1
    for d in moved.shape[1:]:
        width *= d
    rows = moved.reshape((n, width))       # not (n, -1): n may be 0
    if n == 0 or width == 0:
        perm = _arange(n, ar.device)
    else:
        # lexsort's last key is the primary one: the first column
        perm = lexsort([rows[:, j] for j in range(width - 1, -1, -1)])
    s = rows[perm]
    if n:
        diff = _any(s[1:] != s[:-1], axis=1) if width else _core.zeros(
            (n - 1,), dtype=numpy.bool_, device=ar.device)
        flags = concatenate([_core.ones((1,), dtype=numpy.bool_, device=ar.device), diff])
    else:
        flags = _core.zeros((0,), dtype=numpy.bool_, device=ar.device)
    starts = nonzero(flags)[0]
    values = moveaxis(s[starts].reshape((starts.size,) + moved.shape[1:]), 0, ax)
    res = [values]
    if return_index:
        res.append(perm[starts])
    if return_inverse:
        inv = _core.empty((n,), dtype=numpy.int64, device=ar.device)
        inv[perm] = cumsum(flags.astype(numpy.int64)) - 1
        res.append(inv)
    if return_counts:
        ends = concatenate([starts[1:], _core.full((1,), n, dtype=numpy.int64,
                                                   device=ar.device)]) if n else starts
        res.append(ends - starts)
    return res[0] if len(res) == 1 else tuple(res)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of ``element`` is in ``test_elements`` (shape of element).

    Parameters
    ----------
    element : ndarray or array_like
        The values to look up.
    test_elements : ndarray or array_like
        The values to look for (flattened).
    assume_unique : bool, optional
        Whether both are unique.
    invert : bool, optional
        Return the negation.
    kind : {None, 'sort', 'table'}, optional
        Accepted for NumPy's signature.

    Returns
    -------
    ndarray
        bool, of element's shape.

    See Also
    --------
    numpy.isin
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"kind: must be None, 'sort' or 'table', got {kind!r}")
    e = as_array(element, "element")
    t = as_array(test_elements, "test_elements").reshape(-1)
    if kind == "table" and (_kind_of(e.dtype) not in "biu" or _kind_of(t.dtype) not in "biu"):
        raise ValueError("kind: 'table' is only supported for boolean or integer arrays")
    if t.size == 0 or e.size == 0:
        r = _core.zeros(e.shape, dtype=numpy.bool_, device=e.device)
        return ~r if invert else r
    s = sort(t)
    pos = clip(searchsorted(s, e.reshape(-1)), 0, s.size - 1)
    found = (s[pos] == e.reshape(-1)).reshape(e.shape)
    return ~found if invert else found


def _flat_unique(a, assume_unique, name):
    a = as_array(a, f"{name}: a").reshape(-1)
    return a if assume_unique else unique(a)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values in both arrays.

    Parameters
    ----------
    ar1 : ndarray or array_like
        First array (flattened).
    ar2 : ndarray or array_like
        Second array (flattened).
    assume_unique : bool, optional
        Whether both are already unique.
    return_indices : bool, optional
        Also return the indices of the values in ar1 and ar2.

    Returns
    -------
    ndarray or tuple of ndarray
        The sorted common values (and the two index arrays).

    See Also
    --------
    numpy.intersect1d
    """
    a = as_array(ar1, "ar1").reshape(-1)
    b = as_array(ar2, "ar2").reshape(-1)
    if return_indices:
        u1, i1 = unique(a, return_index=True) if not assume_unique else (
            a, _arange(a.size, a.device))
        u2, i2 = unique(b, return_index=True) if not assume_unique else (
            b, _arange(b.size, b.device))
        if assume_unique:
            o1, o2 = argsort(u1), argsort(u2)
            u1, i1, u2, i2 = u1[o1], i1[o1], u2[o2], i2[o2]
        m = isin(u1, u2)
        vals = u1[m]
        return _promoted(vals, b), i1[m], i2[searchsorted(u2, vals)]
    u1 = _flat_unique(a, assume_unique, "ar1")
    u2 = _flat_unique(b, assume_unique, "ar2")
    r = u1[isin(u1, u2)] if not assume_unique else _sorted(u1[isin(u1, u2)])
    return _promoted(r, b)


def _promoted(vals, other):
    """vals in NumPy's dtype of the intersection (ar1's and ar2's promoted dtype)."""
    rt = numpy.result_type(vals.dtype, other.dtype)
    return vals if vals.dtype == rt else vals.astype(rt)


def _sorted(x):
    return sort(x)


def union1d(ar1, ar2):
    """The sorted values in either array.

    Parameters
    ----------
    ar1 : ndarray or array_like
        First array (flattened).
    ar2 : ndarray or array_like
        Second array (flattened).

    Returns
    -------
    ndarray
        1-d, sorted.

    See Also
    --------
    numpy.union1d
    """
    return unique(concatenate([as_array(ar1, "ar1").reshape(-1),
                               as_array(ar2, "ar2").reshape(-1)]))


def setdiff1d(ar1, ar2, assume_unique=False):
    """The values of ar1 not in ar2 (sorted and unique unless assume_unique).

    Parameters
    ----------
    ar1 : ndarray or array_like
        First array (flattened).
    ar2 : ndarray or array_like
        Second array (flattened).
    assume_unique : bool, optional
        Whether both are already unique.

    Returns
    -------
    ndarray
        1-d.

    See Also
    --------
    numpy.setdiff1d
    """
    u1 = _flat_unique(ar1, assume_unique, "ar1")
    return u1[isin(u1, as_array(ar2, "ar2"), invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the arrays.

    Parameters
    ----------
    ar1 : ndarray or array_like
        First array (flattened).
    ar2 : ndarray or array_like
        Second array (flattened).
    assume_unique : bool, optional
        Whether both are already unique.

    Returns
    -------
    ndarray
        1-d, sorted.

    See Also
    --------
    numpy.setxor1d
    """
    aux = sort(concatenate([_flat_unique(ar1, assume_unique, "ar1"),
                            _flat_unique(ar2, assume_unique, "ar2")]))
    if aux.size == 0:
        return aux
    edge = _core.ones((1,), dtype=numpy.bool_, device=aux.device)
    flag = concatenate([edge, aux[1:] != aux[:-1], edge])
    return aux[flag[1:] & flag[:-1]]
