"""einsum and einsum_path.

Note [einsum plan]
1. Parse (host, strings and shapes only): the subscripts string or the interleaved
   operand/sublist form becomes one label list per operand; ``...`` expands to integer
   labels -1, -2, ... counted from the right, so ellipsis dimensions broadcast as NumPy
   aligns them. The output is explicit (``->``) or NumPy's implicit one: the ellipsis
   dimensions, then the letters seen exactly once, in sorted order.
2. A label repeated within one operand takes its diagonal: a strided view whose stride
   is the sum of the repeated axes' strides (no copy).
3. A label found in one operand only and not in the output is summed away at once.
4. Operands are contracted pairwise in the order of the path (``optimize``): each pair
   is ONE batched garray.matmul over transposed, reshaped operands (labels shared and
   kept are the batch, labels shared and not kept the inner dimension), so einsum runs
   at GEMM speed wherever the contraction is a GEMM.
5. The last operand has its remaining extra labels summed and its axes permuted into
   the output order; size-1 dimensions broadcast as NumPy's.
Values are computed only by garray ops (views, sum, matmul, astype); host work is
bookkeeping of labels and sizes.
"""

import functools
import math
import operator
import string

from .._core import broadcast_to, ndarray, _strided_view
from .. import _dtypes
from .._dtypes import result_type
from .._args import as_array, check_array
from .._manip.common import check_cast
from .._reduce.reductions import sum as _sum
from .matmul import matmul_keeping_dtype as matmul

__all__ = ["einsum", "einsum_path"]

_LETTERS = string.ascii_uppercase + string.ascii_lowercase   # NumPy's sublist ints 0..51


# ---- parsing ------------------------------------------------------------------------


def _parse_term(term, where):
    """'ab...c' -> ['a', 'b', Ellipsis, 'c']."""
    out, i = [], 0
    while i < len(term):
        c = term[i]
        if c == ".":
            if term[i:i + 3] != "..." or Ellipsis in out:
                raise ValueError("einstein sum subscripts string contains a '.' that is not "
                                 f"part of an ellipsis ('...') in {where}")
            out.append(Ellipsis)
            i += 3
            continue
        if c in _LETTERS:
            out.append(c)
        elif not c.isspace():
            raise ValueError(f"invalid subscript {c!r} in einstein sum subscripts string, "
                             "subscripts must be letters")
        i += 1
    return out


def _sublist(sub, k):
    out = []
    for s in sub:
        if s is Ellipsis:
            out.append(Ellipsis)
            continue
        if isinstance(s, bool) or not hasattr(type(s), "__index__"):
            raise TypeError(f"einsum: sublist {k}: subscripts must be integers or "
                            f"Ellipsis, got {type(s).__name__}")
        v = operator.index(s)
        if not 0 <= v < 52:
            raise ValueError(f"einsum: sublist {k}: subscript {v} is not within the valid "
                             "range [0, 52)")
        out.append(_LETTERS[v])
    return out


def _parse_subscripts(subs, n_ops):
    """(input terms, output term or None) of a subscripts string for n_ops operands."""
    if subs.count("->") > 1:
        raise ValueError("einstein sum subscripts string includes '->' more than once")
    if "->" in subs:
        ins, outs = subs.split("->")
        out = _parse_term(outs, "the output")
    else:
        ins, out = subs, None
    terms = [_parse_term(t, f"operand {k}") for k, t in enumerate(ins.split(","))]
    if len(terms) > n_ops:
        raise ValueError("fewer operands provided to einstein sum function than "
                         "specified in the subscripts string")
    if len(terms) < n_ops:
        raise ValueError("more operands provided to einstein sum function than "
                         "specified in the subscripts string")
    return terms, out


def _split_args(args):
    """(subscripts string or (input terms, output term or None), operands) from either
    einsum calling form."""
    if not args:
        raise TypeError("einsum: must specify the einstein sum subscripts string and at "
                        "least one operand")
    if isinstance(args[0], str):
        return args[0], list(args[1:])
    ops, terms = list(args[0::2]), [_sublist(s, k) for k, s in enumerate(args[1::2])]
    out = None
    if len(ops) > len(terms):   # an odd count: the last item is the output sublist
        out = _sublist(ops.pop(), "out")
    return (terms, out), ops


def _expand(terms, out, shapes):
    """Label tuples with the ellipsis expanded (Note [einsum plan] 1)."""
    labels, n_ell = [], 0
    for k, (t, shape) in enumerate(zip(terms, shapes)):
        n = sum(1 for c in t if c is not Ellipsis)
        ndim = len(shape)
        if Ellipsis in t:
            e = ndim - n
            if e < 0:
                raise ValueError("einstein sum subscripts string contains too many "
                                 f"subscripts for operand {k}")
            i = t.index(Ellipsis)
            t = t[:i] + list(range(-e, 0)) + t[i + 1:]
            n_ell = max(n_ell, e)
        elif n > ndim:
            raise ValueError("einstein sum subscripts string contains too many subscripts "
                             f"for operand {k}")
        elif n < ndim:
            raise ValueError(f"operand {k} has more dimensions ({ndim}) than subscripts "
                             "given in einstein sum, but no '...' ellipsis provided to "
                             "broadcast the extra dimensions.")
        labels.append(tuple(t))
    ell = list(range(-n_ell, 0))
    if out is None:
        counts = {}
        for t in labels:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, v in counts.items() if isinstance(c, str) and v == 1)
    else:
        seen = {c for t in labels for c in t}
        for c in out:
            if c is not Ellipsis and out.count(c) > 1:
                raise ValueError("einstein sum subscripts string includes output subscript "
                                 f"{c!r} multiple times")
            if c is not Ellipsis and c not in seen:
                raise ValueError("einstein sum subscripts string included output subscript "
                                 f"{c!r} which never appeared in an input")
        if Ellipsis in out:
            i = out.index(Ellipsis)
            out = out[:i] + ell + out[i + 1:]
        elif n_ell:
            raise ValueError("output has more dimensions than subscripts given in einstein "
                             "sum, but no '...' ellipsis provided to broadcast the extra "
                             "dimensions.")
    return labels, out


def _sizes(labels, shapes):
    """Each label's size, size-1 dimensions broadcasting (ValueError naming both shapes)."""
    sizes, where = {}, {}
    for k, (t, shape) in enumerate(zip(labels, shapes)):
        for c, d in zip(t, shape):
            if c in sizes and sizes[c] != d:
                if d == 1:
                    continue
                if sizes[c] != 1:
                    j = where[c]
                    name = "..." if isinstance(c, int) else repr(c)
                    if j == k:
                        raise ValueError(f"dimensions in operand {k} for collapsing index "
                                         f"{name} don't match ({sizes[c]} != {d})")
                    raise ValueError("einsum: operands could not be broadcast together: "
                                     f"subscript {name} has size {sizes[c]} in operand {j} "
                                     f"(shape {shapes[j]}) and {d} in operand {k} "
                                     f"(shape {shape})")
            if c not in sizes or sizes[c] == 1:
                sizes[c], where[c] = d, k
    return sizes


def _diagonal(x, t, k):
    """Repeated labels of one operand -> a strided diagonal view (plan step 2)."""
    uniq = list(dict.fromkeys(t))
    if len(uniq) == len(t):
        return x, t
    shape, strides = [], []
    for c in uniq:
        axes = [i for i, d in enumerate(t) if d == c]
        dims = {x.shape[i] for i in axes}
        if len(dims) > 1:
            raise ValueError(f"dimensions in operand {k} for collapsing index {c!r} don't "
                             f"match ({x.shape[axes[0]]} != {x.shape[axes[1]]})")
        shape.append(x.shape[axes[0]])
        strides.append(sum(x.strides[i] for i in axes))
    return _strided_view(x, tuple(shape), tuple(strides), 0, x.flags.writeable), uniq


# ---- contraction --------------------------------------------------------------------


def _sum_away(x, t, keep, rt):
    drop = tuple(i for i, c in enumerate(t) if c not in keep)
    if not drop:
        return x, t
    return _sum(x, axis=drop, dtype=rt), [c for c in t if c in keep]


def _full(x, t, labels, sizes):
    """Broadcast x's size-1 dimensions of ``labels`` to the label's size (a view)."""
    shape = tuple(sizes[c] if c in labels else d for c, d in zip(t, x.shape))
    return x if shape == x.shape else broadcast_to(x, shape)


def _pair(a, ta, b, tb, keep, sizes, rt):
    """One pairwise contraction as one batched matmul (plan step 4)."""
    a, ta = _sum_away(a, ta, keep | set(tb), rt)
    b, tb = _sum_away(b, tb, keep | set(ta), rt)
    batch = [c for c in ta if c in tb and c in keep]
    inner = [c for c in ta if c in tb and c not in keep]
    fa = [c for c in ta if c not in tb]
    fb = [c for c in tb if c not in ta]
    a = _full(a, ta, inner, sizes)
    b = _full(b, tb, inner, sizes)
    da, db = dict(zip(ta, a.shape)), dict(zip(tb, b.shape))
    k = math.prod(sizes[c] for c in inner)
    a2 = a.transpose([ta.index(c) for c in batch + fa + inner]).reshape(
        tuple(da[c] for c in batch) + (math.prod(da[c] for c in fa), k))
    b2 = b.transpose([tb.index(c) for c in batch + inner + fb]).reshape(
        tuple(db[c] for c in batch) + (k, math.prod(db[c] for c in fb)))
    r = matmul(a2, b2)
    shape = r.shape[:len(batch)] + tuple(da[c] for c in fa) + tuple(db[c] for c in fb)
    return r.reshape(shape), batch + fa + fb


# ---- paths --------------------------------------------------------------------------


def _greedy(sets, out, sizes):
    """Pairwise order: at each step the pair whose result is smallest against its inputs
    (NumPy's greedy cost), pairs sharing a label first; indices as NumPy's path."""
    sets = [set(s) for s in sets]
    path = []
    while len(sets) > 1:
        best = None
        for share in (True, False):
            for i in range(len(sets)):
                for j in range(i + 1, len(sets)):
                    if share and not sets[i] & sets[j]:
                        continue
                    others = set(out).union(*[s for m, s in enumerate(sets) if m not in (i, j)])
                    res = (sets[i] | sets[j]) & others
                    cost = (_size(res, sizes) - _size(sets[i], sizes)
                            - _size(sets[j], sizes))
                    if best is None or cost < best[0]:
                        best = (cost, i, j, res)
            if best is not None:
                break
        _, i, j, res = best
        path.append((i, j))
        sets = [s for m, s in enumerate(sets) if m not in (i, j)] + [res]
    return path


def _size(labels, sizes):
    return math.prod(sizes[c] for c in labels)


def _path(optimize, labels, out, sizes):
    n = len(labels)
    if optimize is False or optimize is None:
        return [tuple(range(n))]
    if (isinstance(optimize, (list, tuple)) and len(optimize) == 2
            and optimize[0] in ("greedy", "optimal")):
        # NumPy's (strategy, memory limit): intermediates are not limited here
        optimize = optimize[0]
    if optimize is True or optimize in ("greedy", "optimal"):
        return _greedy(labels, out, sizes) if n > 1 else [(0,)]
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        path, left = [], n
        for step in optimize[1:]:
            step = tuple(operator.index(i) for i in step)
            if not step or any(not 0 <= i < left for i in step) or len(set(step)) < len(step):
                raise ValueError(f"optimize: invalid contraction {step} in the path for "
                                 f"{left} operands")
            path.append(step)
            left -= len(step) - 1
        if left != 1:
            raise ValueError(f"optimize: the path leaves {left} operands uncontracted")
        return path
    raise TypeError("optimize: expected a bool, 'greedy', 'optimal' or a path "
                    f"['einsum_path', (i, j), ...], got {optimize!r}")


@functools.lru_cache(maxsize=512)
def _plan_cached(subs, shapes, optimize):
    return _plan(_parse_subscripts(subs, len(shapes)), shapes, optimize)


def _plan(parsed, shapes, optimize):
    """(labels per operand, output labels, label sizes, path): host bookkeeping only."""
    labels, out = _expand(*parsed, shapes)
    sizes = _sizes(labels, shapes)
    uniq = [list(dict.fromkeys(t)) for t in labels]
    return labels, tuple(out), sizes, _path(optimize, uniq, out, sizes)


def _prepare(args, optimize):
    subs, ops = _split_args(args)
    dev = next((x.device for x in ops if isinstance(x, ndarray)), None)
    ops = [as_array(x, f"operand {k}", device=dev) for k, x in enumerate(ops)]
    if len({x.device for x in ops}) > 1:
        raise ValueError(f"einsum: operands are on different devices "
                         f"{sorted(str(x.device) for x in ops)}")
    shapes = tuple(x.shape for x in ops)
    # the plan depends on the subscripts and shapes only: cached for einsum in a loop
    if isinstance(subs, str) and (optimize is None or isinstance(optimize, (bool, str))):
        return (ops,) + _plan_cached(subs, shapes, optimize)
    if isinstance(subs, str):
        subs = _parse_subscripts(subs, len(shapes))
    return (ops,) + _plan(subs, shapes, optimize)


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """Einstein summation over the subscripts, in either of NumPy's forms:
    ``einsum("ij,jk->ik", a, b)`` or ``einsum(a, [0, 1], b, [1, 2], [0, 2])``; implicit
    or explicit output, ``...`` broadcasting, repeated subscripts (diagonals), summed
    subscripts. Pairwise contractions run as batched matmuls (Note [einsum plan]);
    ``optimize`` (bool, "greedy", "optimal" or an einsum_path path) orders them.
    ``dtype`` is the computation and result dtype (operands cast under ``casting``).
    ``order`` is accepted; the result's layout is garray's choice.

    >>> garray.einsum("ii", garray.eye(3))
    array(3.)

    Parameters
    ----------
    *operands : str, ndarray or list
        The subscripts and the operands, in either of NumPy's forms.
    out : ndarray, optional
        A garray array of the result's shape to write into.
    dtype : dtype, optional
        The computation and result dtype.
    order : str, optional
        Accepted for NumPy's signature.
    casting : str, optional
        The rule for casting the operands to dtype.
    optimize : bool, str or list, optional
        The contraction order: False, True, "greedy", "optimal" (greedy here) or an
        einsum_path path.

    Returns
    -------
    ndarray
        The result (out when given).

    See Also
    --------
    numpy.einsum
    """
    if order not in ("K", "A", "C", "F"):
        raise ValueError(f"order: must be one of 'C', 'F', 'A', or 'K', got {order!r}")
    ops, labels, outl, sizes, path = _prepare(operands, optimize)
    if dtype is None:
        rt = result_type(*[x.dtype for x in ops])
    else:
        import numpy
        rt = numpy.dtype(dtype)
        for x in ops:
            check_cast(x.dtype, rt, casting, "einsum operand")
    if _dtypes.is_ml_format(rt):
        # NumPy's einsum has no loop for ml_dtypes' types (bfloat16, the float8s)
        raise TypeError(f"einsum: invalid data type for einsum ({rt}); cast the operands, "
                        f"or use dtype=float32")
    ops = [x.astype(rt, copy=False) for x in ops]
    items = [_diagonal(x, t, k) for k, (x, t) in enumerate(zip(ops, labels))]
    for step in path:
        picked = [items[i] for i in step]
        items = [it for m, it in enumerate(items) if m not in step]
        keep = set(outl).union(*[set(t) for _, t in items])
        x, t = picked[0]
        for m in range(1, len(picked)):
            # labels of this step's operands not yet folded in must survive the pair
            later = set().union(*[set(tz) for _, tz in picked[m + 1:]])
            x, t = _pair(x, t, *picked[m], keep | later, sizes, rt)
        if len(picked) == 1:
            x, t = _sum_away(x, t, keep, rt)
        items.append((x, t))
    (x, t), = items
    x, t = _sum_away(x, t, set(outl), rt)
    r = x.transpose([t.index(c) for c in outl])
    shape = tuple(sizes[c] for c in outl)
    if r.shape != shape:
        r = broadcast_to(r, shape)
    if out is None:
        return r
    check_array(out, "out")
    if out.shape != r.shape:
        raise ValueError(f"out: einsum output has shape {out.shape}, the result has shape "
                         f"{r.shape}")
    check_cast(rt, out.dtype, casting, "einsum output")
    out[...] = r
    return out


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """The contraction order einsum would use: ``(path, description)``, ``path`` a list
    ``['einsum_path', (i, j), ...]`` (indices into the operands left at each step, the
    result appended last, as NumPy's) and a printable table of the steps, their
    scaling and FLOP counts. The order is greedy (also for "optimal").

    >>> garray.einsum_path("ij,jk", garray.ones((2, 3)), garray.ones((3, 4)))[0]
    ['einsum_path', (0, 1)]

    Parameters
    ----------
    *operands : str, ndarray or list
        As einsum.
    optimize : bool, str or list, optional
        "greedy" (default; "optimal" is greedy here) or a path.
    einsum_call : bool, optional
        Accepted for NumPy's signature.

    Returns
    -------
    tuple
        (path, description).

    See Also
    --------
    numpy.einsum_path
    """
    if einsum_call:
        raise NotImplementedError("einsum_path: einsum_call=True (NumPy's internal "
                                  "contraction list) is not provided")
    ops, labels, outl, sizes, path = _prepare(operands, optimize)
    names = {c: c for t in labels for c in t if isinstance(c, str)}
    spare = iter(c for c in _LETTERS[::-1] if c not in names)
    for t in labels + [outl]:
        for c in t:
            if c not in names:
                names[c] = next(spare)

    def term(t):
        return "".join(names[c] for c in t)

    sets = [list(dict.fromkeys(t)) for t in labels]
    all_labels = set().union(*sets)
    naive = _flops(all_labels, len(all_labels) > len(outl), len(sets), sizes)
    rows, costs, largest, scale = [], [], 0, 0
    for step in path:
        picked = [sets[i] for i in sorted(step, reverse=True)]
        sets = [s for m, s in enumerate(sets) if m not in step]
        keep = set(outl).union(*map(set, sets))
        idx = set().union(*map(set, picked))
        res = sorted((c for c in idx if c in keep), key=lambda c: names[c])
        costs.append(_flops(idx, len(res) < len(idx), len(picked), sizes))
        largest = max(largest, _size(res, sizes))
        scale = max(scale, len(idx))
        sets.append(res)
        rest = ",".join(term(s) for s in sets) + "->" + term(outl)
        rows.append("%4d    %24s %40s" % (len(idx), ",".join(map(term, picked)) + "->"
                                          + term(res), rest))
    opt = sum(costs) + 1
    text = "\n".join([
        "  Complete contraction:  " + ",".join(map(term, labels)) + "->" + term(outl),
        "         Naive scaling:  %d" % len(all_labels),
        "     Optimized scaling:  %d" % scale,
        "      Naive FLOP count:  %.3e" % naive,
        "  Optimized FLOP count:  %.3e" % opt,
        "   Theoretical speedup:  %3.3f" % (naive / opt),
        "  Largest intermediate:  %.3e elements" % largest,
        "-" * 74,
        "%6s %24s %40s" % ("scaling", "current", "remaining"),
        "-" * 74] + rows)
    return ["einsum_path"] + path, text


def _flops(idx, inner, n_terms, sizes):
    """NumPy's einsum_path FLOP estimate of one contraction."""
    return _size(idx, sizes) * (max(1, n_terms - 1) + (1 if inner else 0))
