"""The host-side plan behind ``nditer``: argument parsing, broadcasting, axis order,
coalescing and the buffer size, following NumPy's ``nditer_constr.c`` step by step
(Note [nditer] in ``nditer.py``).  Nothing here reads or writes device memory: it works
on shapes, byte strides and flags only.
"""

import operator

from .. import _dtypes

GLOBAL_FLAGS = frozenset((
    "buffered", "c_index", "common_dtype", "copy_if_overlap", "delay_bufalloc",
    "external_loop", "f_index", "grow_inner", "multi_index", "ranged", "refs_ok",
    "reduce_ok", "zerosize_ok"))
OP_FLAGS = frozenset((
    "aligned", "allocate", "arraymask", "contig", "copy", "nbo", "no_broadcast",
    "no_subtype", "overlap_assume_elementwise", "readonly", "readwrite", "updateifcopy",
    "virtual", "writemasked", "writeonly"))
ORDERS = ("C", "F", "A", "K")
CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
BUFSIZE = 8192          # NumPy's NPY_BUFSIZE, the default buffersize
MAXDIMS = 64            # NumPy's NPY_MAXDIMS

_FLAGS_MSG = "op_flags must be a tuple or array of per-op flag-tuples"


# ---- arguments ----------------------------------------------------------------------


def _flag_str(f):
    if isinstance(f, bytes):
        return f.decode()
    if not isinstance(f, str):
        raise TypeError(f"expected bytes, {type(f).__name__} found")
    return f


def global_flags(flags):
    """The set of global flag names (NumPy's ``NpyIter_GlobalFlagsConverter``)."""
    if flags is None:
        return frozenset()
    if not isinstance(flags, (list, tuple)):
        raise ValueError("Iterator global flags must be a list or tuple of strings")
    out = set()
    for f in flags:
        s = _flag_str(f)
        s = "grow_inner" if s == "growinner" else s
        if s not in GLOBAL_FLAGS:
            raise ValueError(f'Unexpected iterator global flag "{s}"')
        out.add(s)
    return frozenset(out)


def _one_op_flags(seq):
    if not isinstance(seq, (list, tuple)):
        raise ValueError(_FLAGS_MSG)
    out = set()
    for f in seq:
        if isinstance(f, bytes):
            f = f.decode()
        if not isinstance(f, str):
            raise ValueError(_FLAGS_MSG)
        if f not in OP_FLAGS:
            raise ValueError(f'Unexpected per-op iterator flag "{f}"')
        out.add(f)
    return frozenset(out)


def op_flags_list(op_flags, objs):
    """One set of per-operand flags per operand: one list for all, or one list each."""
    nop = len(objs)
    if op_flags is None:    # NumPy's default: None operands are allocated outputs
        return [frozenset(("writeonly", "allocate")) if o is None else frozenset(("readonly",))
                for o in objs]
    if not isinstance(op_flags, (list, tuple)):
        raise ValueError(_FLAGS_MSG)
    if len(op_flags) == nop and not isinstance(op_flags[0], (str, bytes)):
        return [_one_op_flags(f) for f in op_flags]
    one = _one_op_flags(op_flags)
    return [one] * nop


def check_op_flags(f):
    """NumPy's ``npyiter_check_per_op_flags``: (reads, writes) of one operand."""
    n_rw = ("readonly" in f) + ("readwrite" in f) + ("writeonly" in f)
    if n_rw > 1:
        raise ValueError("Only one of the iterator flags READWRITE, READONLY, and WRITEONLY "
                         "may be specified for an operand")
    if n_rw == 0:
        raise ValueError("None of the iterator flags READWRITE, READONLY, or WRITEONLY were "
                         "specified for an operand")
    read, write = "writeonly" not in f, "readonly" not in f
    if write and "copy" in f and "updateifcopy" not in f:
        raise ValueError("If an iterator operand is writeable, must use the flag "
                         "UPDATEIFCOPY instead of COPY")
    if "writemasked" in f:
        if not write:
            raise ValueError("The iterator flag WRITEMASKED may only be used with READWRITE "
                             "or WRITEONLY")
        if "arraymask" in f:
            raise ValueError("The iterator flag WRITEMASKED may not be used together with "
                             "ARRAYMASK")
    if "virtual" in f and "readwrite" not in f:
        raise ValueError("The iterator flag VIRTUAL should be be used together with "
                         "READWRITE")
    return read, write


def check_masks(arrays, opf):
    """NumPy's checks of 'arraymask' / 'writemasked' / 'virtual'; a valid use is not
    implemented in garray."""
    masks = [k for k, f in enumerate(opf) if "arraymask" in f]
    if len(masks) > 1:
        raise ValueError("Only one iterator operand may receive an ARRAYMASK flag")
    masked = any("writemasked" in f for f in opf)
    if masked and not masks:
        raise ValueError("An iterator operand was flagged as WRITEMASKED, but no ARRAYMASK "
                         "operand was given to supply the mask")
    if masks and not masked:
        raise ValueError("An iterator operand was flagged as the ARRAYMASK, but no "
                         "WRITEMASKED operands were given to use the mask")
    for a, f in zip(arrays, opf):
        if "virtual" in f and a is not None:
            raise ValueError("Iterator operand flag VIRTUAL was specified, but the operand "
                             "was not NULL")
    for name in ("writemasked", "arraymask", "virtual"):
        if any(name in f for f in opf):
            raise NotImplementedError(f"nditer: the per-operand flag {name!r} is not "
                                      f"implemented in garray")


def op_dtypes_list(op_dtypes, nop):
    """One requested dtype (or None) per operand: one dtype for all, or a sequence."""
    if op_dtypes is None:
        return [None] * nop
    if isinstance(op_dtypes, (list, tuple)) and len(op_dtypes) == nop:
        try:
            return [None if d is None else _dtypes.normalize_dtype(d, "op_dtypes")
                    for d in op_dtypes]
        except TypeError:
            pass            # NumPy then tries the whole argument as one dtype
    return [_dtypes.normalize_dtype(op_dtypes, "op_dtypes")] * nop


def op_axes_list(op_axes, nop):
    """(per-operand axis lists or None, their common length) from ``op_axes``."""
    if op_axes is None:
        return None, -1
    if not isinstance(op_axes, (list, tuple)) or len(op_axes) != nop:
        raise ValueError("op_axes must be a tuple/list matching the number of ops")
    oa_ndim, out = -1, []
    for a in op_axes:
        if a is None:
            out.append(None)
            continue
        if not isinstance(a, (list, tuple)):
            raise ValueError("Each entry of op_axes must be None or a tuple/list")
        if oa_ndim == -1:
            oa_ndim = len(a)
            if oa_ndim > MAXDIMS:
                raise ValueError("Too many dimensions in op_axes")
        if len(a) != oa_ndim:
            raise ValueError("Each entry of op_axes must have the same size")
        out.append([-1 if v is None else operator.index(v) for v in a])
    if oa_ndim == -1:
        raise ValueError("If op_axes is provided, at least one list of axes must be "
                         "contained within it")
    return out, oa_ndim


def check_op_axes(op_axes):
    """No repeated and no absurd axis in any operand's op_axes."""
    for k, axes in enumerate(op_axes or ()):
        if axes is None:
            continue
        seen = set()
        for i in axes:
            if i < 0:
                continue
            if i >= MAXDIMS:
                raise ValueError(f"The 'op_axes' provided to the iterator constructor for "
                                 f"operand {k} contained invalid values {i}")
            if i in seen:
                raise ValueError(f"The 'op_axes' provided to the iterator constructor for "
                                 f"operand {k} contained duplicate value {i}")
            seen.add(i)


def check_global_flags(flags):
    """NumPy's ``npyiter_check_global_flags``."""
    if "c_index" in flags and "f_index" in flags:
        raise ValueError("Iterator flags C_INDEX and F_INDEX cannot both be specified")
    if "external_loop" in flags and flags & {"c_index", "f_index", "multi_index"}:
        raise ValueError("Iterator flag EXTERNAL_LOOP cannot be used if an index or "
                         "multi-index is being tracked")
    if "ranged" in flags and "external_loop" in flags and "buffered" not in flags:
        raise ValueError("Iterator flag RANGED cannot be used with the flag EXTERNAL_LOOP "
                         "unless BUFFERED is also enabled")


def op_list(op):
    """The operands: a list or tuple is several, anything else one."""
    if isinstance(op, (list, tuple)):
        if not op:
            raise ValueError("Must provide at least one operand")
        return list(op)
    return [op]


def order_casting(order, casting):
    """NumPy's order (one letter, any case; None: 'K') and casting (exact) arguments."""
    if order is None:
        order = "K"
    if isinstance(order, bytes):
        order = order.decode()
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order.upper() not in ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if isinstance(casting, bytes):
        casting = casting.decode()
    if not isinstance(casting, str):
        raise TypeError(f"casting must be str, not {type(casting).__name__}")
    if casting not in CASTINGS:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"'unsafe' (got {casting!r})")
    return order.upper(), casting


# ---- broadcasting -------------------------------------------------------------------


def shape_str(vals, ending=""):
    """NumPy's ``convert_shape_to_string``: negative entries print as newaxis."""
    vals = list(vals)
    i = 0
    while i < len(vals) and vals[i] < 0:
        i += 1
    if i == len(vals):
        return f"(){ending}"
    parts = [str(vals[i])] + ["newaxis" if v < 0 else str(v) for v in vals[i + 1:]]
    body = parts[0] + "," if len(parts) == 1 else ",".join(parts)
    return f"({body}){ending}"


def _broadcast_error(arrays, op_axes, itershape):
    if op_axes is None:
        shapes = "".join(shape_str(a.shape, " ") for a in arrays if a is not None)
        if itershape is None:
            return ValueError(f"operands could not be broadcast together with shapes {shapes}")
        return ValueError(f"operands could not be broadcast together with shapes {shapes} "
                          f"and requested shape {shape_str(itershape)}")
    shapes = ""
    for a, axes in zip(arrays, op_axes):
        if a is None:
            continue
        shapes += shape_str(a.shape, " " if axes is None else "->")
        if axes is not None:
            shapes += shape_str([a.shape[i] if 0 <= i < a.ndim else -1 for i in axes], " ")
    msg = ("operands could not be broadcast together with remapped shapes "
           f"[original->remapped]: {shapes}")
    if itershape is not None:
        msg += f" and requested shape {shape_str(itershape)}"
    return ValueError(msg)


def _no_broadcast_error(a, axes, shape, read_only):
    what = "operand" if read_only else "output operand"
    if axes is None:
        return ValueError(f"non-broadcastable {what} with shape {shape_str(a.shape)} "
                          f"doesn't match the broadcast shape {shape_str(shape)}")
    nd = len(shape)
    rem = [a.shape[axes[nd - i - 1]] if 0 <= axes[nd - i - 1] < a.ndim else -1
           for i in range(nd)]
    return ValueError(f"non-broadcastable {what} with shape {shape_str(a.shape)} [remapped "
                      f"to {shape_str(rem)}] doesn't match the broadcast shape "
                      f"{shape_str(shape)}")


def _check_reduce(flags, write, read, dim):
    """A written operand broadcast along an axis is a reduction (NumPy's rules)."""
    if not write:
        return False
    if "reduce_ok" not in flags:
        raise ValueError(f"output operand requires a reduction along dimension {dim}, but "
                         f"the reduction is not enabled. The dimension size of 1 does not "
                         f"match the expected output shape.")
    if not read:
        raise ValueError("output operand requires a reduction, but is flagged as write-only, "
                         "not read-write")
    return True


def broadcast(arrays, op_axes, itershape, ndim, flags, opf, rw):
    """NumPy's ``npyiter_fill_axisdata``: the iterator shape, each operand's ``drive``
    (for each of its axes the iterator axis that moves it, or None) and which operands
    are reductions.  Raises NumPy's broadcasting, no_broadcast and reduction errors."""
    nop = len(arrays)
    shape = [1] * ndim if itershape is None else [s if s >= 0 else 1 for s in itershape]
    for k, a in enumerate(arrays):
        if a is None:
            continue
        axes = None if op_axes is None else op_axes[k]
        if axes is None:
            if a.ndim > ndim:
                raise ValueError("input operand has more dimensions than allowed by the "
                                 "axis remapping")
            pairs = [(j + ndim - a.ndim, j) for j in range(a.ndim)]
        else:
            pairs = []
            for d, i in enumerate(axes):
                if i < 0:
                    continue
                if i >= a.ndim:
                    raise ValueError(f"Iterator input op_axes[{k}][{ndim - d - 1}] (=={i}) is "
                                     f"not a valid axis of op[{k}], which has {a.ndim} "
                                     f"dimensions ")
                pairs.append((d, i))
        for d, j in pairs:
            n = a.shape[j]
            if shape[d] == 1:
                shape[d] = n
            elif n != shape[d] and n != 1:
                raise _broadcast_error(arrays, op_axes, itershape)
    if itershape is not None and any(s == 1 and b != 1 for s, b in zip(itershape, shape)):
        raise _broadcast_error(arrays, op_axes, itershape)

    reduce_ = [False] * nop
    for idim in range(ndim):            # NumPy's order: innermost axis first
        d = ndim - idim - 1
        b = shape[d]
        for k, a in enumerate(arrays):
            read, write = rw[k]
            axes = None if op_axes is None else op_axes[k]
            nob = "no_broadcast" in opf[k]
            if axes is None:
                if a is None:
                    continue
                j = d - (ndim - a.ndim)
                if b == 1:
                    if j < 0 and nob:
                        raise _no_broadcast_error(a, None, shape, not write)
                elif j < 0 or a.shape[j] == 1:
                    if nob:
                        raise _no_broadcast_error(a, None, shape, not write)
                    reduce_[k] |= _check_reduce(flags, write, read, idim)
            else:
                i = axes[d]
                if b == 1:
                    continue
                if i >= 0:
                    if a is not None and a.shape[i] == 1:
                        if nob:
                            raise _no_broadcast_error(a, axes, shape, not write)
                        reduce_[k] |= _check_reduce(flags, write, read, i)
                else:
                    reduce_[k] |= _check_reduce(flags, write, read, i)
    drives = [None if a is None else drive_of(a.ndim, ndim, None if op_axes is None
                                              else op_axes[k])
              for k, a in enumerate(arrays)]
    return shape, drives, reduce_


def drive_of(op_ndim, ndim, axes):
    """For each axis of an operand, the iterator axis that moves it (None: fixed)."""
    if axes is None:
        return [j + ndim - op_ndim for j in range(op_ndim)]
    drive = [None] * op_ndim
    for d, i in enumerate(axes):
        if 0 <= i < op_ndim:
            drive[i] = d
    return drive


def allocated_shape(shape, axes, ndim):
    """Shape and drive of an allocated output with op_axes ``axes`` (None: the
    iterator's shape), with NumPy's errors for an inconsistent mapping."""
    if axes is None:
        return tuple(shape), list(range(ndim))
    used = {}
    for d, i in enumerate(axes):
        if i >= 0:
            if i >= ndim:
                raise ValueError(f"automatically allocated output array specified with an "
                                 f"inconsistent axis mapping; the axis mapping cannot include "
                                 f"dimension {i} which is too large for the iterator "
                                 f"dimension of {ndim}.")
            used[i] = d
    n = len(used)
    for i in range(n):
        if i not in used:
            raise ValueError(f"automatically allocated output array specified with an "
                             f"inconsistent axis mapping; the axis mapping is missing an "
                             f"entry for dimension {i}.")
    return tuple(shape[used[i]] for i in range(n)), [used[i] for i in range(n)]


def dim_strides(a, drive, shape):
    """An operand's byte stride along each iterator axis: 0 where it is broadcast, fixed
    or missing (NumPy's AXISDATA strides, before any flip)."""
    out = [0] * len(shape)
    if a is None:
        return out
    for j, d in enumerate(drive):
        if d is not None and a.shape[j] != 1 and shape[d] != 1:
            out[d] = a.strides[j]
    return out


def index_strides(shape, which):
    """Element strides of the C or F flat index along each iterator axis."""
    nd = len(shape)
    out = [0] * nd
    f = 1
    for d in (range(nd - 1, -1, -1) if which == "c_index" else range(nd)):
        out[d] = 0 if shape[d] == 1 else f
        f *= shape[d]
    return out


# ---- axis order ---------------------------------------------------------------------


def best_axis_order(strides, ndim):
    """NumPy's ``npyiter_find_best_axis_ordering``: a stable insertion sort of the axes
    from the smallest stride to the largest; where operands disagree, C order wins.
    ``strides[d]`` holds the operands' strides on iterator axis d.  Returns the iterator
    axes, innermost first."""
    perm = list(range(ndim - 1, -1, -1))
    for i0 in range(1, ndim):
        ipos, ax0 = i0, perm[i0]
        s0 = strides[ax0]
        for i1 in range(i0 - 1, -1, -1):
            s1 = strides[perm[i1]]
            ambig, swap = True, False
            for a, b in zip(s0, s1):
                if a != 0 and b != 0:
                    if abs(b) <= abs(a):
                        swap = False
                    elif ambig:
                        swap = True
                    ambig = False
            if not ambig:
                if swap:
                    ipos = i1
                else:
                    break
        if ipos != i0:
            perm[ipos + 1:i0 + 1] = perm[ipos:i0]
            perm[ipos] = ax0
    return perm


def flipped_axes(order, strides):
    """NumPy's ``npyiter_flip_negative_strides``: an axis runs backwards when one
    operand steps backwards along it and none forwards."""
    out = []
    for d in order:
        st = strides[d]
        out.append(any(s < 0 for s in st) and all(s <= 0 for s in st))
    return out


def coalesce(shapes, strides):
    """NumPy's ``npyiter_coalesce_axes``: merge neighbouring internal axes (innermost
    first) that every operand (and the index) steps through with one stride.  Returns
    the groups of internal axes, the merged shapes and the merged strides."""
    groups, cshape, cstr = [], [], []
    for idim, (n, st) in enumerate(zip(shapes, strides)):
        if groups:
            n0, st0 = cshape[-1], cstr[-1]
            if all((n0 == 1 and a == 0) or (n == 1 and b == 0) or a * n0 == b
                   for a, b in zip(st0, st)):
                groups[-1].append(idim)
                cshape[-1] = n0 * n
                cstr[-1] = [b if a == 0 else a for a, b in zip(st0, st)]
                continue
        groups.append([idim])
        cshape.append(n)
        cstr.append(list(st))
    return groups, cshape, cstr


# ---- buffering ----------------------------------------------------------------------


def buffer_setup(cshape, cstr, cast, reduce_, contig, write, buffersize, grow_inner):
    """NumPy's ``npyiter_find_buffering_setup`` (2.3+): the core (a run of inner axes
    one buffer transfer covers whole), the outer axis the buffer may not pass, the
    buffer size, and whether the double "reduce" loop is used.  ``cshape`` and ``cstr``
    are the coalesced internal axes (at least one).  Returns (coresize, outerdim,
    buffersize, using_reduce)."""
    nop = len(cast)
    ndim = len(cshape)
    maximum = buffersize if buffersize > 0 else BUFSIZE
    cost = 1 + sum(1 for c in cast if c)
    single = [1] * nop
    red_outer = [0] * nop
    outer_reduce_dim = 0
    size = cshape[0]
    best_dim, best_cost, best_size, best_core = 0, cost, size, 1
    for idim in range(1, ndim):
        if outer_reduce_dim:
            break
        if size >= maximum and (cost > 1 or not grow_inner):
            break
        prev, prev_n, cur = cstr[idim - 1], cshape[idim - 1], cstr[idim]
        for k in range(nop):
            if single[k] == idim:
                if prev[k] * prev_n == cur[k]:
                    single[k] += 1
                    continue
                if not cast[k]:
                    cost += 1
            if reduce_[k] and (cur[k] == 0 or prev[k] == 0):
                red_outer[k] = idim
                outer_reduce_dim = idim
        coresize = size
        size *= cshape[idim]
        if size == 0:
            break
        bufsize = size
        if size > maximum and (cost > 1 or not grow_inner):
            bufsize = maximum
        if cost * best_size <= best_cost * bufsize:
            best_cost, best_core, best_size, best_dim = cost, coresize, size, idim
    using_reduce = bool(outer_reduce_dim) and best_dim == outer_reduce_dim
    must_buffer = False
    for k in range(nop):
        buffered = bool(cast[k])
        if not using_reduce:
            is_red = False
        elif red_outer[k] == best_dim:
            is_red = True
        elif single[k] == best_dim and not buffered:
            is_red = True
        else:
            is_red = (cstr[outer_reduce_dim][k] == 0 and single[k] <= best_dim
                      and not (contig[k] and not write[k]))
        if single[k] + is_red <= best_dim:
            buffered = True
        must_buffer |= buffered
    if (must_buffer or not grow_inner) and maximum < best_size:
        best_size = best_core * (maximum // best_core)
    return best_core, best_dim, best_size, using_reduce
