"""Sorting and searching: sort, argsort, searchsorted, lexsort, partition, argpartition.

Note [Sort launches]
~~~~~~~~~~~~~~~~~~~~
1. The sorted axis is moved last and the array copied C-contiguous (garray's own copy),
   so the kernels see ``rows`` rows of ``n`` elements; results come back through the
   same moves.
2. The passes (``_kernels/sort.hip``, Note [Radix sort]): keys (+ payload), radix
   passes, then values from keys (integers), from the payload (floats), or through the
   index (complex, argsort).  Everything runs on the array's device; the host only
   sizes launches and buffers.
3. Path: one thread per row (``radix_rows``) unless rows are long and few, then the
   chunked passes (``radix_hist``/``radix_scan``/``radix_scatter``) with chunks of
   ``_CHUNK`` elements (the CPU device: enough per thread to stream; GPUs: smaller, for
   parallelism).  ``_debug_sort`` forces a path, a chunk size or a digit width (tests).
4. Digits per device kind (``_RADIX``; Note [Radix sort] 7): the CPU device sorts by 8-bit
   digits and counts every pass of a row from one read; GPUs by 4-bit digits with four
   passes' counts per read, so no thread keeps more than 512 bytes of counts in local
   memory.  ``test_sorting`` runs both widths on every device and checks them against the
   kernels' capacities (GA_RADIX_MAX_BINS, GA_RADIX_ROW_SLOTS).
"""

from .._dtypes import kind_of as _kind_of
import operator

import numpy


from .._args import as_array, normalize_axis
from .. import _core, _dtypes, _dtype_time as _time
from .._core import _family_launch, empty, ndarray
from .._creation.ranges import arange
from .._reduce.reductions import any as _any
from .._datetime.reductions import as_time, from_sort_keys, sort_keys
from .._tables.sort import (RADIX, R_HIST, R_ROWS, R_SCAN, R_SCATTER, R_SETTLE, S_KEY,
                           S_KEY8_OR_UNKEY, S_SEARCH, S_TAKE, SORT, key_bytes, radix_code)

__all__ = ["sort", "argsort", "searchsorted", "lexsort", "partition", "argpartition"]

_CHUNK = {"cpu": 1 << 14, "gpu": 1 << 11}
# (digit bits, radix_rows histogram slots) per device kind (Note [Sort launches] 4).
_RADIX = {"cpu": (8, 2048), "gpu": (4, 64)}
# Positions per thread of radix_settle (Note [Radix sort] 9); _debug["settle"] forces one.
_SETTLE_SEG = {"cpu": 1 << 12, "gpu": 1 << 8}
_debug = {"path": None, "chunk": None, "radix": None, "settle": None}
_UINT = {1: _dtypes.uint8, 2: _dtypes.uint16, 4: _dtypes.uint32, 8: _dtypes.uint64}
_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _debug_sort(path=None, chunk=None, radix=None):
    """Test hook: force the radix path ("rows", "chunks" or None: automatic), the chunk
    size and the (digit bits, row slots) pair (None: the device's; the bits must be 4 or
    8, and a GPU build holds 4).  Returns the previous (path, chunk, radix)."""
    old = (_debug["path"], _debug["chunk"], _debug["radix"])
    if path not in (None, "rows", "chunks"):
        raise ValueError(f"path: expected None, 'rows' or 'chunks', got {path!r}")
    if radix is not None and radix[0] not in (4, 8):
        raise ValueError(f"radix: digit bits must be 4 or 8, got {radix[0]!r}")
    _debug["path"], _debug["chunk"], _debug["radix"] = path, chunk, radix
    return old


def _is_cpu(x):
    return x.device.kind == "cpu"


def _radix(keys, pay, pay_kind, nbytes, rows, n, lo_shift=0):
    """Stable sort of each row of keys (flat, rows * n) with its payload; returns the
    (keys, payload) buffers holding the result.  ``lo_shift``: the chunked passes sort
    on the key bits from there up only (argsort_random_keys)."""
    code = radix_code(nbytes, pay_kind)
    total = rows * n
    keys2 = empty(keys.shape, dtype=keys.dtype, device=keys.device)
    pay2 = None if pay is None else empty(pay.shape, dtype=pay.dtype, device=pay.device)
    kind = "cpu" if _is_cpu(keys) else "gpu"
    chunk = _debug["chunk"] or _CHUNK[kind]
    bits, slots = _debug["radix"] or _RADIX[kind]
    if bits > _RADIX[kind][0] and kind != "cpu":
        raise ValueError(f"sort: a GPU build holds {_RADIX[kind][0]}-bit digits, not {bits}")
    path = _debug["path"]
    if path is None:
        path = "chunks" if n > 4 * chunk and rows < (64 if kind == "cpu" else 1024) \
            else "rows"
    if path == "rows":
        _family_launch(RADIX, code, R_ROWS, rows,
                       (keys, pay, keys2, pay2, rows, n, bits, slots), keys, total)
        return keys, pay
    nch = -(-n // chunk)
    bins = 1 << bits
    counts = empty((rows * bins * nch,), dtype=_dtypes.int64, device=keys.device)
    totals = empty((rows * bins,), dtype=_dtypes.int64, device=keys.device)
    w = radix_code(nbytes, None)
    src, dst = (keys, pay), (keys2, pay2)
    for shift in range(lo_shift, 8 * nbytes, bits):
        _family_launch(RADIX, w, R_HIST, rows * nch,
                       (src[0], counts, rows, n, chunk, nch, shift, bits), keys, total)
        _family_launch(RADIX, 0, R_SCAN, rows * bins, (counts, totals, rows * bins, nch),
                       keys, rows * bins * nch)
        _family_launch(RADIX, code, R_SCATTER, rows * nch,
                       (src[0], src[1], dst[0], dst[1], counts, totals, rows, n, chunk, nch,
                        shift, bits), keys, total)
        src, dst = dst, src
    return src


def argsort_random_keys(keys):
    """``argsort(keys)`` of 1-d C-contiguous uint64 keys drawn uniformly at random (the
    permutations' keys), the same indices bit for bit: stable passes over the top bits
    only (groups of about 16 equal top bits), then each group sorted whole
    (Note [Radix sort] 9).  Other keys stay correct but may be slow: a group of g keys
    costs O(g**2).  The passes sort in ``keys`` itself (uint64 keys are their own sort
    keys), so the caller hands over an array nothing else holds."""
    n = keys.shape[0]
    kind = "cpu" if _is_cpu(keys) else "gpu"
    chunk = _debug["chunk"] or _CHUNK[kind]
    bits = (_debug["radix"] or _RADIX[kind])[0]
    top = -(-max(n.bit_length() - 4, bits) // bits) * bits
    if n <= 4 * chunk or top >= 64 or _debug["path"] == "rows":
        return argsort(keys)
    dev = keys.device
    # no key pass: it would copy the keys and write 0 .. n-1 (24 bytes an element moved
    # for 8); 2**20 keys on one thread 13.9 -> 13.2 ms
    idx = arange(n, dtype=_dtypes.int64, device=dev)
    kk, idx = _radix(keys, idx, "index", 8, 1, n, lo_shift=64 - top)
    okeys = empty((n,), dtype=_dtypes.uint64, device=dev)
    oidx = empty((n,), dtype=_dtypes.int64, device=dev)
    seg = _debug["settle"] or _SETTLE_SEG[kind]
    _family_launch(RADIX, 0, R_SETTLE, -(-n // seg), (kk, idx, okeys, oidx, n, seg, 64 - top),
                   kk, n)
    return oidx


def _code(x):
    return _dtypes.DTYPE_CODE[x.dtype]


def _sort_rows(x2, arg, desc):
    """Sort each row of the C-contiguous 2-d array x2: its values, or (arg) the int64
    indices that sort it.  Stable; descending keeps ties in input order."""
    if _time.is_time(x2.dtype):         # NaT last: int64 keys (garray/_datetime)
        r = _sort_rows(sort_keys(x2), arg, desc)
        return r if arg else from_sort_keys(r, x2.dtype)
    if _dtypes.is_narrow(x2.dtype):     # float32 orders the narrow floats exactly
        r = _sort_rows(x2.astype(_dtypes.float32), arg, desc)   # (NaNs, -0.0)
        return r if arg else r.astype(x2.dtype)
    rows, n = x2.shape
    code, kind = _code(x2), _kind_of(x2.dtype)
    dev, total = x2.device, rows * n
    if total == 0:
        return empty(x2.shape, dtype=_dtypes.int64 if arg else x2.dtype, device=dev)
    kb = key_bytes(code)
    keys = empty((total,), dtype=_UINT[kb], device=dev)
    if kind == "c" or arg:
        idx = empty((total,), dtype=_dtypes.int64, device=dev)
        # complex: imaginary key, real key, NaN class, each a stable pass (Note [Radix sort])
        passes = [(1, S_KEY, kb), (0, S_KEY, kb), (2, S_KEY8_OR_UNKEY, 1)] if kind == "c" \
            else [(0, S_KEY, kb)]
        for i, (comp, slot, nb) in enumerate(passes):
            kk = keys if nb == kb else empty((total,), dtype=_UINT[nb], device=dev)
            _family_launch(SORT, code, slot, total,
                           (x2, idx, kk, None, rows, n, comp, int(desc), 1 if i == 0 else 0), x2,
                           items=True)
            _, idx = _radix(kk, idx, "index", nb, rows, n)
        if arg:
            return idx.reshape((rows, n))
        out = empty((rows, n), dtype=x2.dtype, device=dev)
        _family_launch(SORT, code, S_TAKE, total, (x2, idx, out, rows, n, n), x2, items=True)
        return out
    if kind == "f":
        pay = empty((total,), dtype=x2.dtype, device=dev)
        _family_launch(SORT, code, S_KEY, total, (x2, None, keys, pay, rows, n, 0, int(desc), 2),
                       x2, items=True)
        _, pay = _radix(keys, pay, "bits", kb, rows, n)
        return pay.reshape((rows, n))
    _family_launch(SORT, code, S_KEY, total, (x2, None, keys, None, rows, n, 0, int(desc), 0), x2,
                   items=True)
    keys, _ = _radix(keys, None, None, kb, rows, n)
    out = empty((rows, n), dtype=x2.dtype, device=dev)
    _family_launch(SORT, code, S_KEY8_OR_UNKEY, total, (keys, out, total, int(desc)), x2,
                   items=True)
    return out


def take_rows(x2, idx2):
    """out[r, j] = x2[r, idx2[r, j]] for C-contiguous 2-d x2 and int64 idx2 (the same
    rows); indices must be in range (callers build them)."""
    if _dtypes.is_narrow(x2.dtype):     # a move: the bits as an unsigned integer
        bits = _dtypes.uint16 if x2.dtype.itemsize == 2 else _dtypes.uint8
        return take_rows(x2.view(bits), idx2).view(x2.dtype)
    rows, n = x2.shape
    m = idx2.shape[1]
    out = empty((rows, m), dtype=x2.dtype, device=x2.device)
    if rows * m:
        _family_launch(SORT, _code(x2), S_TAKE, rows * m, (x2, idx2, out, rows, n, m), x2,
                       items=True)
    return out


def to_rows(x, axis, name):
    """x with ``axis`` moved last, C-contiguous, as (rows, n); and the moved shape.
    axis=None flattens."""
    if axis is None:
        x = x.reshape((-1,))
        axis = 0
    else:
        axis = normalize_axis(axis, x.ndim, name)
    moved = _core.permute_dims(x, tuple(i for i in range(x.ndim) if i != axis) + (axis,)) \
        if axis != x.ndim - 1 else x
    c = moved if moved.flags.c_contiguous else moved.copy()
    n = x.shape[axis]
    rows = c.size // n if n else 0
    if n == 0:
        rows = 1
        for i, s in enumerate(moved.shape[:-1]):
            rows *= s
    return c.reshape((rows, n)), moved.shape, axis


def from_rows(r2, moved_shape, axis, ndim):
    """The inverse of to_rows: r2 (rows, n) back to the input's axis order, C-contiguous."""
    r = r2.reshape(moved_shape)
    if axis == ndim - 1:
        return r
    perm = list(range(ndim - 1))
    perm.insert(axis, ndim - 1)
    return _core.permute_dims(r, tuple(perm)).copy()


def _check_kind(kind, order, stable, name):
    if order is not None:
        raise NotImplementedError(f"{name}: order= (structured dtypes) is not supported")
    if kind is not None and not isinstance(kind, str):
        raise TypeError(f"{name}: kind must be str, not {type(kind).__name__}")
    if kind not in _KINDS:
        raise ValueError(f"{name}: kind must be one of {_KINDS[1:]}, got {kind!r}")
    if kind is not None and stable is not None:
        raise ValueError(f"{name}: kind and stable can't be provided at the same time")


def _sort(a, axis, kind, order, descending, stable, arg, name):
    if axis is not None and (isinstance(axis, (bool, numpy.bool_))
                             or not hasattr(type(axis), "__index__")):
        raise TypeError(f"{name}: axis must be an integer, got {type(axis).__name__}")
    if axis is not None and not -2**63 <= operator.index(axis) < 2**63:
        normalize_axis(axis, 0, name)      # NumPy: OverflowError before kind is read
    _check_kind(kind, order, stable, name)
    a = (a if type(a) is ndarray else as_array(a, f"{name}: a"))
    if a.ndim == 0 and arg:                # NumPy's argsort takes a 0-d a as 1-d
        a = a.reshape((1,))
    if a.ndim == 0 and axis is not None:
        normalize_axis(axis, 0, name)      # TypeError for a non-integer, else AxisError
    x2, moved, ax = to_rows(a, axis, name)
    r2 = _sort_rows(x2, arg, bool(descending))
    return from_rows(r2, moved, ax, 1 if axis is None else a.ndim)


def sort(a, /, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """Sorted copy of ``a`` along ``axis`` (None: the flattened array).

    Always stable (a radix sort; ``kind`` and ``stable`` are accepted for NumPy and the
    Array API and change nothing).  NaNs sort last (first with ``descending=True``, which
    keeps equal elements in input order); complex numbers sort by real then imaginary
    part, NaNs as NumPy.

    Example: ``garray.sort(garray.asarray([3, 1, 2]))`` -> ``[1, 2, 3]``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    kind : str, optional
        Accepted for NumPy's signature (always a stable radix sort).
    order : None
        Structured arrays are not supported; must be None.
    descending : bool, optional
        Sort in descending order.
    stable : bool or None, optional
        Accepted for the Array API (always stable).

    Returns
    -------
    ndarray
        A sorted copy in a's dtype, on its device.

    See Also
    --------
    numpy.sort
    """
    return _sort(a, axis, kind, order, descending, stable, False, "sort")


def argsort(a, /, axis=-1, kind=None, order=None, *, descending=False, stable=None):
    """Indices (int64) that sort ``a`` along ``axis`` (None: the flattened array).

    Stable: ties keep their input order, also with ``descending=True``.

    Example: ``garray.argsort(garray.asarray([3, 1, 2]))`` -> ``[1, 2, 0]``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int or None, optional
        The axis (None: the flattened array).
    kind : str, optional
        Accepted for NumPy's signature (always a stable sort).
    order : None
        Structured arrays are not supported; must be None.
    descending : bool, optional
        Sort in descending order (ties keep input order).
    stable : bool or None, optional
        Accepted for the Array API (always stable).

    Returns
    -------
    ndarray
        int64 indices of a's shape.

    See Also
    --------
    numpy.argsort
    """
    return _sort(a, axis, kind, order, descending, stable, True, "argsort")


def searchsorted(a, v, /, side="left", sorter=None):
    """Indices where the values ``v`` would be inserted into the sorted 1-d array ``a``
    to keep it sorted (``side='left'``: before equal elements, ``'right'``: after).

    ``sorter``: int64 indices that sort ``a`` (argsort's).  NaNs order as in ``sort``.
    A scalar ``v`` gives a 0-d array.

    Example: ``garray.searchsorted(garray.asarray([1, 2, 3]), 2)`` -> ``1``.

    Parameters
    ----------
    a : ndarray
        A sorted 1-d array.
    v : ndarray, array_like or scalar
        The values to insert.
    side : {'left', 'right'}, optional
        Before or after equal elements.
    sorter : ndarray, optional
        int64 indices that sort a.

    Returns
    -------
    ndarray
        int64 indices of v's shape (0-d for a scalar v).

    See Also
    --------
    numpy.searchsorted
    """
    if not isinstance(side, str):
        raise TypeError(f"searchsorted: search side must be str, not {type(side).__name__}")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    a = as_array(a, "searchsorted: a")
    if a.ndim != 1:
        raise ValueError(f"searchsorted: a must be 1-d, got {a.ndim} dimensions")
    if _time.is_time(a.dtype):          # NumPy parses v as a's dtype
        vv = v if isinstance(v, ndarray) else as_time(v, a.dtype, a.device)
        dt = _dtypes.result_type(a, vv)
        for x in (a, vv):
            if not _dtypes.can_cast(x.dtype, dt, "safe"):
                raise TypeError(f"searchsorted: cannot cast {x.dtype} to {dt} safely")
        return searchsorted(sort_keys(a.astype(dt)), sort_keys(vv.astype(dt)), side, sorter)
    vv = as_array(v, "searchsorted: v", a.device)
    # NumPy compares in the promotion of a's dtype with v's as an array: a Python scalar
    # is strong here (float64 for a float: searchsorted(float32 [0.1], 0.1, 'right') is 0)
    dt = _dtypes.result_type(a, vv)
    if _dtypes.is_narrow(dt):   # float32 orders the narrow floats exactly
        vv = vv.astype(dt, copy=False)
        dt = _dtypes.float32
    a = a.astype(dt, copy=False)
    if not a.flags.c_contiguous:
        a = a.copy()
    vc = vv.astype(dt, copy=False)
    if not vc.flags.c_contiguous:
        vc = vc.copy()
    if sorter is not None:
        sorter = as_array(sorter, "searchsorted: sorter")
        if sorter.ndim != 1 or sorter.shape[0] != a.shape[0]:
            raise ValueError("searchsorted: sorter must be 1-d with the length of a")
        if _kind_of(sorter.dtype) not in "iu":
            raise TypeError(f"searchsorted: sorter must hold integers, got {sorter.dtype}")
        sorter = sorter.astype(_dtypes.int64, copy=False)
        if not sorter.flags.c_contiguous:
            sorter = sorter.copy()
        # the kernel reads a through sorter: every entry must index a (NumPy checks the
        # entries its search visits, so whether it raises depends on v; garray checks
        # all of them, docs/reliability.md)
        if vc.size and sorter.size and bool(_any((sorter < 0) | (sorter >= a.shape[0]))):
            raise ValueError("searchsorted: Sorter index out of range.")
    out = empty(vc.shape, dtype=_dtypes.int64, device=a.device)
    if out.size:
        _family_launch(SORT, _code(a), S_SEARCH, out.size,
                       (a, sorter, a.shape[0], vc, out, out.size, int(side == "right")), a)
    return out


def lexsort(keys, axis=-1):
    """Indirect stable sort on several keys: the last key is the primary one.

    ``keys``: a sequence of arrays of one shape, or a 2-d+ array whose first axis runs
    over the keys.

    Example: ``garray.lexsort((b, a))`` sorts by ``a``, ties by ``b``.

    Parameters
    ----------
    keys : sequence of ndarray or ndarray
        The keys (the last is the primary one).
    axis : int, optional
        The axis to sort along.

    Returns
    -------
    ndarray
        int64 indices.

    See Also
    --------
    numpy.lexsort
    """
    if isinstance(axis, (bool, numpy.bool_)) or not hasattr(type(axis), "__index__"):
        raise TypeError(f"lexsort: axis must be an integer, got {type(axis).__name__}")
    if isinstance(keys, ndarray) and keys.ndim == 0:
        raise TypeError("lexsort: need sequence of keys with len > 0")
    ks = [keys[i] for i in range(keys.shape[0])] if isinstance(keys, ndarray) else \
        [as_array(k, "lexsort") for k in keys]
    if not ks:
        raise TypeError("lexsort: need sequence of keys with len > 0")
    shape = ks[0].shape
    for k in ks:
        if k.shape != shape:
            raise ValueError("lexsort: all keys need to be the same shape")
    if len(shape) == 0:                    # NumPy: 0-d keys sort as 1-d, to index 0
        normalize_axis(axis, 1, "lexsort")
        return _core.zeros((), dtype="int64")
    x2, moved, ax = to_rows(ks[0], axis, "lexsort")
    idx = _sort_rows(x2, True, False)
    for k in ks[1:]:
        k2 = to_rows(k, axis, "lexsort")[0]
        order = _sort_rows(take_rows(k2, idx), True, False)
        idx = take_rows(idx, order)
    return from_rows(idx, moved, ax, len(shape))


def _kth(kth, n, name, kind="introselect"):
    """NumPy's checks of partition's kth and kind: integers (not bool), each in
    [-n, n) unless the axis is empty (nothing to place)."""
    if kind != "introselect":
        raise ValueError(f"{name}: select kind must be 'introselect' (got {kind!r})")
    if isinstance(kth, (list, tuple)):     # NumPy converts a sequence as an array
        kth = numpy.asarray(kth)
    if isinstance(kth, (ndarray, numpy.ndarray)):
        if _kind_of(kth.dtype) == "b":
            raise ValueError(f"{name}: Booleans unacceptable as partition index")
        if _kind_of(kth.dtype) not in "iu" or kth.ndim > 1:
            raise TypeError(f"{name}: Partition index must be integer")
        ks = kth.tolist() if kth.ndim else [kth.tolist()]
    elif isinstance(kth, (bool, numpy.bool_)):
        raise ValueError(f"{name}: Booleans unacceptable as partition index")
    else:
        ks = [kth]
    for k in ks:
        try:
            k = operator.index(k)
        except TypeError:
            raise TypeError(f"{name}: Partition index must be integer") from None
        if n and not -n <= k < n:          # NumPy checks nothing on an empty axis
            raise ValueError(f"{name}: kth(={k}) out of bounds ({n})")


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A copy of ``a`` with the element at each ``kth`` position where a sort would put
    it, smaller-or-equal elements before and greater-or-equal after.

    garray sorts the whole axis (a valid partition).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    kth : int or sequence of int
        The position(s) to partition at.
    axis : int or None, optional
        The axis (None: the flattened array).
    kind : str, optional
        Accepted for NumPy's signature (garray sorts the whole axis).
    order : None
        Structured arrays are not supported; must be None.

    Returns
    -------
    ndarray
        A new array in a's dtype.

    See Also
    --------
    numpy.partition
    """
    a = as_array(a, "partition: a")
    if a.ndim == 0 and axis is not None:
        normalize_axis(axis, 0, "partition")  # TypeError for a non-integer, else AxisError
    n = a.size if axis is None else a.shape[normalize_axis(axis, a.ndim, "partition")]
    _kth(kth, n if a.size else 0, "partition", kind)   # an empty a: no kth range check
    return _sort(a, axis, None, order, False, None, False, "partition")


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition ``a`` (see ``partition``); garray sorts the whole axis.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    kth : int or sequence of int
        The position(s) to partition at.
    axis : int or None, optional
        The axis (None: the flattened array).
    kind : str, optional
        Accepted for NumPy's signature (garray sorts the whole axis).
    order : None
        Structured arrays are not supported; must be None.

    Returns
    -------
    ndarray
        int64 indices of a's shape.

    See Also
    --------
    numpy.argpartition
    """
    a = as_array(a, "argpartition: a")
    if a.ndim == 0:                        # NumPy's argpartition takes a 0-d a as 1-d
        a = a.reshape((1,))
    n = a.size if axis is None else a.shape[normalize_axis(axis, a.ndim, "argpartition")]
    _kth(kth, n if a.size else 0, "argpartition", kind)   # an empty a: no kth range check
    return _sort(a, axis, None, order, False, None, True, "argpartition")
