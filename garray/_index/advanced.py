"""Advanced indexing: integer-array and boolean-mask keys in ``x[key]`` and
``x[key] = value``, on the device.

Note [Advanced indexing]
~~~~~~~~~~~~~~~~~~~~~~~~
1. The key becomes a tuple.  Lists, nested tuples and NumPy arrays in it become garray
   arrays on x's device; a boolean array of k dimensions becomes the k integer arrays
   of its nonzero() (NumPy's rule), checked against the k axes it covers; a 0-d boolean
   becomes a new axis indexed by [0] (True) or [] (False).
2. Basic indexing first: every integer array is replaced by ``:``, so the view V keeps
   the axes they index; ints, slices, None and ... apply as usual.
3. The integer arrays broadcast to one shape B.  Their offsets into V (bytes) are summed
   into one int64 array of shape B on the device, each index checked against its axis
   there (cython/_gather.pxi, _index_step); a bad one raises IndexError naming the axis
   and size after one small read of the error flags.
4. Where the B axes go (NumPy's rule): in place of the first advanced entry when the
   advanced entries (arrays, and ints once an array is present) are adjacent in the
   key, else first.
5. Gather: out = V's other axes x B, one kernel.  Scatter: the same walk, writing; when
   integer arrays repeat a target, the last write in C order wins, as in NumPy: GPUs
   mark the winners on the device first (Note [Advanced indexing kernels]); the CPU
   device runs the scatter on one thread in C order instead.  A single value for every
   target needs neither.
"""

from .._dtypes import kind_of as _kind_of
import operator

import numpy

from .. import _core
from .._core import ndarray
from .._args import as_array

__all__ = ["getitem", "setitem", "nonzero"]

# Test hook: "winners" makes the CPU device resolve repeated scatter targets the GPU way.
_debug = {"winners": False}


class _Plan:
    """A parsed advanced key: the basic key, the arrays with the V axes they index,
    the x axes they came from (for messages), and where B goes."""
    __slots__ = ("basic", "arrays", "v_axes", "x_axes", "insert_at", "unique")


def _as_index_array(k, x):
    if isinstance(k, ndarray):
        if k.device != x.device:
            raise ValueError(f"index: array on {k.device} cannot index an array on "
                             f"{x.device}; use to_device() first")
        return k
    if isinstance(k, (bool, numpy.bool_)):
        return _core.asarray(bool(k), device=x.device)
    h = numpy.asarray(k)
    if h.size == 0 and _kind_of(h.dtype) not in "biu":
        h = h.astype(numpy.int64)     # [] indexes nothing, as an integer array
    if _kind_of(h.dtype) not in "biu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return _core.asarray(h, device=x.device)


def _is_int(k):
    return type(k) is int or (isinstance(k, ndarray) and k.ndim == 0
                               and _kind_of(k.dtype) in "iu") or (
        not isinstance(k, (bool, numpy.bool_, ndarray, numpy.ndarray, list, tuple))
        and hasattr(type(k), "__index__"))


def _plan(x, key):
    keys = key if type(key) is tuple else (key,)
    entries = []            # (kind, value): kind in "int slice none ellipsis array bool0"
    for k in keys:
        if k is None:
            entries.append(("none", None))
        elif k is Ellipsis:
            entries.append(("ellipsis", None))
        elif type(k) is slice:
            entries.append(("slice", k))
        elif _is_int(k):
            entries.append(("int", k))
        elif isinstance(k, (ndarray, numpy.ndarray, list, tuple, bool, numpy.bool_)):
            a = _as_index_array(k, x)
            if a.dtype == numpy.bool_:
                entries.append(("bool0", a) if a.ndim == 0 else ("mask", a))
            elif _kind_of(a.dtype) in "iu":
                entries.append(("array", a))
            else:
                raise IndexError("arrays used as indices must be of integer (or boolean) "
                                 "type")
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and "
                             f"integer or boolean arrays are valid indices, got "
                             f"{type(k).__name__}")
    if sum(kind == "ellipsis" for kind, _ in entries) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 if kind in ("int", "slice", "array") else
                   (v.ndim if kind == "mask" else 0) for kind, v in entries)
    if consumed > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but "
                         f"{consumed} were indexed")
    has_array = any(kind in ("array", "mask", "bool0") for kind, _ in entries)
    p = _Plan()
    p.basic, p.arrays, p.v_axes, p.x_axes = [], [], [], []
    p.unique = True         # masks never repeat a target; integer arrays may
    adv_pos, v_ax, x_ax, first_adv_v = [], 0, 0, None
    for pos, (kind, v) in enumerate(entries):
        advanced = kind in ("array", "mask", "bool0") or (kind == "int" and has_array)
        if advanced:
            adv_pos.append(pos)
            if first_adv_v is None:
                first_adv_v = v_ax
        if kind == "ellipsis":
            n = x.ndim - consumed
            p.basic.append(Ellipsis)
            v_ax, x_ax = v_ax + n, x_ax + n
        elif kind == "none":
            p.basic.append(None)
            v_ax += 1
        elif kind == "slice":
            p.basic.append(v)
            v_ax, x_ax = v_ax + 1, x_ax + 1
        elif kind == "int":
            p.basic.append(v)
            x_ax += 1
        elif kind == "array":
            p.basic.append(slice(None))
            p.arrays.append(v)
            p.v_axes.append(v_ax)
            p.x_axes.append(x_ax)
            p.unique = False
            v_ax, x_ax = v_ax + 1, x_ax + 1
        elif kind == "bool0":
            # a new axis of length 1, indexed by [0] (True) or by [] (False)
            p.basic.append(None)
            p.arrays.append(_core.zeros((1 if bool(v) else 0,), dtype=numpy.int64,
                                        device=x.device))
            p.v_axes.append(v_ax)
            p.x_axes.append(None)
            v_ax += 1
        else:                                                   # a k-d mask
            for i in range(v.ndim):
                # an empty mask axis selects nothing from any axis (the Array API's
                # rule; NumPy raises)
                if x.shape[x_ax + i] != v.shape[i] and v.shape[i] != 0:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {x_ax + i}; "
                        f"size of axis is {x.shape[x_ax + i]} but size of corresponding "
                        f"boolean axis is {v.shape[i]}")
            for i, coords in enumerate(nonzero(v)):
                p.basic.append(slice(None))
                p.arrays.append(coords)
                p.v_axes.append(v_ax + i)
                p.x_axes.append(x_ax + i)
            v_ax, x_ax = v_ax + v.ndim, x_ax + v.ndim
    adjacent = all(b - a == 1 for a, b in zip(adv_pos, adv_pos[1:]))
    p.insert_at = first_adv_v if adjacent else 0
    return p


def _broadcast_index_shape(arrays):
    try:
        return numpy.broadcast_shapes(*[a.shape for a in arrays])
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         "with shapes " + " ".join(str(a.shape) for a in arrays)) from None


def _offsets(v, p, with_lin):
    """(off, lin): the byte offsets of the indexed elements in v (int64, shape B) and,
    if with_lin, their flat index among the indexed axes (for repeated targets)."""
    shape = _broadcast_index_shape(p.arrays)
    off = _core.zeros(shape, dtype=numpy.int64, device=v.device)
    lin = _core.zeros(shape, dtype=numpy.int64, device=v.device) if with_lin else None
    if off.size == 0:
        return off, lin
    err = _core.zeros((2 * len(p.arrays),), dtype=numpy.int64, device=v.device)
    sizes = [v.shape[a] for a in p.v_axes]
    for j, (a, ax) in enumerate(zip(p.arrays, p.v_axes)):
        _core._index_step(off, a, sizes[j], v.strides[ax], err, 2 * j)
        if with_lin:
            later = 1
            for s in sizes[j + 1:]:
                later *= s
            _core._index_step(lin, a, sizes[j], later, err, 2 * j)
    flags = _core.asnumpy(err)
    for j in range(len(p.arrays)):
        if flags[2 * j]:
            bad = int(flags[2 * j + 1])
            if p.arrays[j].dtype == numpy.uint64:    # the flag holds the value's bits
                bad %= 2**64
            raise IndexError(f"index {bad} is out of bounds for axis "
                             f"{p.x_axes[j]} with size {sizes[j]}")
    return off, lin


def _full_mask(x, key):
    """Whether key is one boolean mask of x's shape over a C-contiguous x of several
    axes: then x[key] is the flat x at the mask's flat nonzero (one index array, one
    offset step, instead of one per axis)."""
    return (isinstance(key, ndarray) and key.ndim > 1 and key.dtype == numpy.bool_
            and key.shape == x.shape and x.flags.c_contiguous)


def getitem(x, key):
    """x[key] for a key holding integer or boolean arrays (NumPy's advanced indexing)."""
    if _full_mask(x, key):
        return getitem(x.reshape(-1), key.reshape(-1))
    p = _plan(x, key)
    v = x[tuple(p.basic)]
    if not p.arrays:            # only 0-d bools already folded in: cannot happen
        return v
    off, _ = _offsets(v, p, False)
    return _core._gather(v, off, tuple(p.v_axes), p.insert_at)


def setitem(x, key, value):
    """x[key] = value for a key holding integer or boolean arrays; where integer arrays
    repeat a target the last assignment (C order) wins, as in NumPy."""
    if _full_mask(x, key):
        setitem(x.reshape(-1), key.reshape(-1), value)
        return
    p = _plan(x, key)
    v = x[tuple(p.basic)]
    # one value for every target (a scalar): repeated targets get the same value, so
    # no winner is needed
    single = not isinstance(value, (ndarray, numpy.ndarray, list, tuple)) or (
        getattr(value, "size", 2) == 1)
    repeats = not (p.unique or single)
    # The CPU device writes repeated targets in C order from one thread (the last
    # wins by itself); GPUs mark the winners first (Note [Advanced indexing kernels]).
    in_order = repeats and x.device.kind == "cpu" and not _debug["winners"]
    off, lin = _offsets(v, p, repeats and not in_order)
    keep = None
    if lin is not None and lin.size > 1:
        targets = 1
        for a in p.v_axes:
            targets *= v.shape[a]
        keep = _core._keep_last(lin, targets)
    _core._scatter(v, off, keep, tuple(p.v_axes), p.insert_at, value, in_order)


def nonzero(x, /):
    """Indices of the nonzero elements: a tuple of int64 arrays, one per axis.

    0-d input raises ValueError (the Array API and NumPy 2).

    Parameters
    ----------
    x : ndarray
        Input array of at least one axis.

    Returns
    -------
    tuple of ndarray
        One 1-d int64 array per axis.

    See Also
    --------
    numpy.nonzero
    """
    x = as_array(x, "x")
    if x.ndim == 0:
        raise ValueError("nonzero: calling nonzero on 0d arrays is not allowed; use "
                         "atleast_1d(x).nonzero() instead")
    mask = x if x.dtype == numpy.bool_ else (x != 0)
    if not mask.flags.c_contiguous:
        mask = mask.copy()
    flat = _core._flat_nonzero(mask)
    if x.ndim == 1:
        return (flat,)
    out = []
    rest = flat
    for s in reversed(x.shape[1:]):
        out.append(rest % s)
        rest = rest // s
    out.append(rest)
    return tuple(reversed(out))
