"""``ufunc.reduce``, ``ufunc.accumulate``, ``ufunc.reduceat``, ``ufunc.outer``,
``ufunc.at`` and ``ufunc.identity`` with NumPy's semantics, over the reduction family
(``garray/_tables/reduce.py`` rows, ``garray/_reduce/reductions.py`` argument handling).
``cython/_ufunc.pxi`` imports this module lazily.

Note [ufunc reductions]
~~~~~~~~~~~~~~~~~~~~~~~
1. Each binary ufunc maps to a row (``UFUNC_REDUCTIONS``).  The ufuncs that have a
   reduction function of their own (add -> sum, maximum -> max, logical_and -> all ...)
   run it on the input as is: its accumulator rule is NumPy's for the ufunc too
   (``add.reduce(int8)`` is int64, bool ``add.reduce`` counts; ``maximum.reduce(int8)``
   stays int8; ``logical_and.reduce(float)`` is bool).  The others first cast the
   input to the ufunc's loop dtype (``divide.reduce(int32)`` computes in float64;
   ``floor_divide.reduce(bool)`` is refused like ``floor_divide(bool, bool)``), and the
   loop must give back its input dtype (comparisons reduce booleans only, as NumPy).
2. Rows without identity that cannot be reordered (subtract, divide, power ...) are
   *ordered*: reduce is the last element of the in-order scan along one axis; more
   than one axis is NumPy's ValueError.  ``initial=`` is put in front of the axis.
   ``where=`` (NumPy wants ``initial=`` then) replaces masked elements by a right
   identity of the ufunc (x - 0, x / 1, x ** 1 ...); ufuncs without one raise
   NotImplementedError.
3. ``initial=`` is cast to the result dtype (OverflowError when a Python int does not
   fit, as NumPy); ``initial=None`` means "no identity": an empty axis raises.
   ``where=`` masks are applied here (masked elements become the identity, or for
   maximum-like ufuncs the ``initial``), before the reduction.

Note [reduceat and at]
~~~~~~~~~~~~~~~~~~~~~~
1. ``reduceat`` is ``reduce`` over the segments ``[i_k, i_k+1)`` (the last to the end;
   ``i_k >= i_k+1`` gives the element ``i_k``), with reduce's result dtype.  Where the
   op computes that dtype in itself (``_reduceat_folds``), every segment is its first
   element folded with the rest in order, NumPy's sequence, by one kernel
   (``ew2_reduceat``, a thread per segment): a few launches whatever the number of
   segments.  NumPy sums a float
   ``add`` segment pairwise, so a float add segment longer than ``_FOLD_ADD_MAX`` sends
   the call to the other path: the one-element segments are one gather and one scatter
   together, each longer segment one ``reduce`` launch into its slice of the result.
   The indices are checked on the host (IndexError as NumPy's).
2. ``at(a, indices, b)`` applies the ufunc in place, unbuffered: a target indexed k times
   is updated k times, in the order its occurrences appear (NumPy's sequential loop,
   ordered ufuncs and rounding included).  The targets' flat positions come from
   garray's own indexing of an ``arange`` (so every index form NumPy takes works, with
   its IndexError) and are sorted stably, so each target's occurrences form a run in
   their order.  Where the binary op computes in a's dtype for (a, b) (``_folds``), one
   kernel folds each run into its target in order (``ew2_at``, a thread per run): a
   handful of launches whatever the repeat counts.  The CPU device skips the sort: one
   thread runs NumPy's loop over the occurrences as given (one run whose target
   changes), which on a CPU costs less than sorting them.  Otherwise (unary ops, or an op
   computing wider than a, whose every step NumPy rounds into a) each occurrence gets its
   rank among its target's (a ``maximum.accumulate`` of the run starts); a second stable
   sort by rank makes round r one slice, which gathers the targets of rank r (all
   distinct), computes, and scatters back: as many rounds as the largest repeat count.
   Results are cast into ``a`` unsafely, as NumPy's ``at`` does.
"""

from .._dtypes import kind_of as _kind_of
import math

import numpy

from .._args import as_array, reduction_axes
from .._tables import ops as _optable
from .. import _core, _dtypes, _dtype_time as _time
from .._core import ndarray
from .._tables.reduce import ROWS, UFUNC_REDUCTIONS
from . import reductions as _red
from .scans import scan as _time_scan
from .scans import scan
from .._elementwise import f16 as _f16
from .._elementwise.functions import where

_NoValue = numpy._NoValue

# Test switch: ufunc.at sorts its occurrences on the CPU device too (the GPUs' path)
_debug = {"sorted_at": False}

# NumPy's ufunc.identity (ufuncs not listed: None).
IDENTITY = {"add": 0, "multiply": 1, "hypot": 0, "logaddexp": -math.inf,
            "logaddexp2": -math.inf, "gcd": 0,
            "logical_and": True, "logical_or": False, "logical_xor": False,
            "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0}

# Ufuncs whose row runs on the input as is (its accumulator rule is the ufunc's).
_DIRECT = frozenset(("add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
                     "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
                     "bitwise_xor"))

# A right identity e of an ordered ufunc (acc OP e == acc): masked elements of where=.
# Per category of the loop dtype ("" = every one it accepts).
_RIGHT_IDENTITY = {"subtract": 0, "divide": 1, "pow": 1, "float_power": 1,
                   "bitwise_left_shift": 0, "bitwise_right_shift": 0, "equal": True,
                   "not_equal": False, "greater": False, "greater_equal": True}
_RIGHT_IDENTITY_INT = {"floor_divide": 1}     # floats: x // 1 is floor(x)


def identity(name):
    return IDENTITY.get(name)


def _op(uf, method, what):
    op = _optable.OPS[uf.__name__]
    if op.nin != 2:
        raise ValueError(f"{what} only supported for binary functions")
    if op.nout != 1 and method != "outer":
        raise ValueError(f"{what} only supported for functions returning a single value")
    return op


def _cat(dt):
    return numpy.dtype(dt).kind


def _out_dtype(out):
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    return out.dtype if isinstance(out, ndarray) else None


def _plan(op, x, dtype, out, api):
    """(row name, x in the dtype the row reads, result dtype to cast to or None).

    Without ``dtype=``, an ``out=`` takes part in choosing the loop as NumPy 2 does: the
    loop of the promoted dtype of out and the input (float32 input, float64 out:
    computed in float64)."""
    name = op.name
    rname = UFUNC_REDUCTIONS.get(name)
    if rname is None:
        raise TypeError(f"{api}: reduction is not supported for this ufunc")
    dt = None if dtype is None else _dtypes.normalize_dtype(dtype, f"{api}: dtype")
    odt = _out_dtype(out) if dt is None else None
    if odt is not None and odt != x.dtype and not name.startswith("logical_"):
        p = _dtypes.promote_types(odt, x.dtype)
        if name in _DIRECT:
            dt = p
        else:
            c = op.compute_code_pair(_optable.CODES[p], _optable.CODES[p])
            if c < 0:
                raise TypeError(f"{api}: no loop of {op.numpy_name} for the input dtype "
                                f"{x.dtype} and out's {odt}")
            if op.out_code(c) == c:          # (comparisons: the input's bool loop)
                x = x.astype(p)
    if name in _DIRECT:
        if name.startswith("logical_") and dt is not None and _cat(dt) != "b":
            raise TypeError(f"{api}: no loop for dtype={dt} (logical ufuncs give bool)")
        if ROWS[rname].acc_code(_optable.CODES[dt if dt is not None else x.dtype]) < 0:
            raise TypeError(f"{api}: unsupported dtype {dt if dt is not None else x.dtype}")
        return rname, x, dt
    codes = _optable.CODES
    c = codes[dt] if dt is not None else op.compute_code_pair(codes[x.dtype], codes[x.dtype])
    if c < 0 or op.compute_code_pair(c, c) != c or op.out_code(c) != c \
            or ROWS[rname].acc_code(c) != c:
        what = dt if dt is not None else x.dtype
        raise TypeError(f"{api}: no reduction loop of {op.numpy_name} for dtype {what} "
                        f"(its loop must give back its input dtype)")
    ldt = _optable.RECORDS[c].dtype
    if x.dtype != ldt:
        x = x.astype(ldt)
    return rname, x, None


def _scalar_array(v, dtype, device):
    """A 0-d array of ``dtype`` holding ``v`` (NumPy's casts: a Python int must fit)."""
    if isinstance(v, ndarray):
        return v.astype(dtype, copy=False)
    return _core.asarray(v, dtype=dtype, device=device)


def _identity_array(v, dtype, device):
    """The identity ``v`` as a 0-d array of ``dtype``, wrapped as C casts (-1 -> all
    ones for unsigned dtypes)."""
    return _core.asarray(numpy.array(v).astype(dtype), device=device)


def _mask(where, x, api):
    m = as_array(where, f"{api}: where", x.device)
    if m.dtype != numpy.bool_:
        m = m.astype(numpy.bool_)
    return _core.broadcast_to(m, x.shape)


def _empty_error(name, x, axes):
    for a in axes:
        if x.shape[a] == 0:
            raise ValueError(f"zero-size array to reduction operation {name} which has "
                             f"no identity")


def _take_last(s, ax, n, keepdims):
    idx = (slice(None),) * ax + ((slice(n - 1, n),) if keepdims else (n - 1,))
    return s[idx].copy()


def _check_exponents(op, x, ax, start):
    """NumPy refuses integer powers with negative integer exponents: the elements of x
    from index ``start`` along ``ax`` are exponents."""
    if op.name != "pow" or _cat(x.dtype) != "i" or x.shape[ax] <= start:
        return
    e = x[(slice(None),) * ax + (slice(start, None),)] if start else x
    if e.size and bool(_red.any(e < 0)):
        raise ValueError("Integers to negative integer powers are not allowed.")


def reduce(uf, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue,
           where=True):
    op = _op(uf, "reduce", "reduce")
    name = op.numpy_name
    api = f"{name}.reduce"
    x = (array if type(array) is ndarray else as_array(array, f"{api}: array"))
    if _time.is_time(x.dtype):          # time arrays: the reductions' garray/_datetime path
        if op.name not in UFUNC_REDUCTIONS or dtype is not None or where is not True \
                or initial is not _NoValue:
            raise NotImplementedError(f"{api} of {x.dtype} (with these arguments)")
        return _red.reduce(UFUNC_REDUCTIONS[op.name], x, axis, keepdims, out=out, api=api)
    if op.in2 is not None and op.in2_ok(_optable.CODES[x.dtype]):
        # NumPy folds integer exponents into a float accumulator (ldexp.reduce of
        # [1, 2, 3] is ldexp(ldexp(1., 2), 3)): no reduction row does that yet
        raise NotImplementedError(f"{api} of an integer array is not implemented")
    axes = reduction_axes(axis, x.ndim, api)
    rname, x, dt = _plan(op, x, dtype, out, api)                 # NumPy: dtypes first
    row = ROWS[rname]
    if len(axes) > 1 and row.ordered:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one "
                         f"axis may be specified")
    masked = where is not True
    if row.ordered:
        return _reduce_ordered(uf, op, rname, x, axes, out, keepdims, initial, where, api)
    ident = IDENTITY.get(op.name)
    no_initial = initial is _NoValue or initial is None
    if masked and no_initial and (ident is None or initial is None):
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to "
                         f"use a where mask one has to specify 'initial'")
    if initial is None or (ident is None and initial is _NoValue):
        _empty_error(name, x, axes)
    if masked:
        if dt is not None and x.dtype != dt:
            x = x.astype(dt)
        m = _mask(where, x, api)
        fill = (_identity_array(ident, x.dtype, x.device) if ident is not None
                else _scalar_array(initial, x.dtype, x.device))
        x = _core_where(m, x, fill)
    init = None
    if not no_initial:
        rdt = dt if dt is not None else _optable.RECORDS[
            row.out_code(_optable.CODES[x.dtype])].dtype
        init = _scalar_array(initial, rdt, x.device)
    return _red.reduce(rname, x, axes, keepdims, dt, out, init, True, uf, api)


def _core_where(m, x, fill):
    return where(m, x, fill)


def _reduce_ordered(uf, op, rname, x, axes, out, keepdims, initial, where, api):
    name = op.numpy_name
    has_init = initial is not _NoValue and initial is not None
    masked = where is not True
    if masked and not has_init:
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to "
                         f"use a where mask one has to specify 'initial'")
    if has_init:
        init = _scalar_array(initial, x.dtype, x.device)
    if not axes:                                    # no axis: the elements themselves
        if masked:
            r = _core_where(_mask(where, x, api), uf(init, x), init)
            return _red._store(r, out, api)
        r = uf(init, x) if has_init else x.copy()
        return _red._store(r.astype(x.dtype, copy=False), out, api)
    ax, = axes
    n = x.shape[ax]
    if masked:
        e = _RIGHT_IDENTITY.get(op.name)
        if e is None and _cat(x.dtype) in "iu":
            e = _RIGHT_IDENTITY_INT.get(op.name)
        if e is None:
            raise NotImplementedError(f"{api}: where= is not supported for {name} "
                                      f"(no right identity to skip masked elements with)")
        x = _core_where(_mask(where, x, api), x, _identity_array(e, x.dtype, x.device))
    if has_init:
        shape = list(x.shape)
        shape[ax] += 1
        y = _core.empty(tuple(shape), dtype=x.dtype, device=x.device)
        pre = (slice(None),) * ax
        y[pre + (slice(0, 1),)] = init
        y[pre + (slice(1, None),)] = x
        x, n = y, n + 1
    else:
        _empty_error(name, x, axes)
    _check_exponents(op, x, ax, 1)
    s = _scan(op, rname, x, ax, None, None, api)
    if s.size == 0:                                 # another axis is empty
        shape = list(x.shape)
        shape[ax] = 1
        if not keepdims:
            del shape[ax]
        return _red._store(_core.empty(tuple(shape), dtype=x.dtype, device=x.device), out,
                           api)
    return _red._store(_take_last(s, ax, n, keepdims), out, api)


def accumulate(uf, array, axis=0, dtype=None, out=None):
    op = _op(uf, "accumulate", "accumulate")
    name = op.numpy_name
    api = f"{name}.accumulate"
    x = (array if type(array) is ndarray else as_array(array, f"{api}: array"))
    if _time.is_time(x.dtype):
        if op.name != "add" or dtype is not None or isinstance(axis, (tuple, list)):
            raise NotImplementedError(f"{api} of {x.dtype} (with these arguments)")
        return _time_scan("sum", x, axis, out=out, api=api)
    if x.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if isinstance(axis, list):
        raise TypeError(f"{api}: axis must be an integer, a tuple of one or None")
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = axis[0]
    if axis is None:
        if x.ndim != 1:
            raise ValueError("accumulate does not allow multiple axes")
        axis = 0
    rname, x, dt = _plan(op, x, dtype, out, api)
    ax, = reduction_axes(axis, x.ndim, api)
    if ROWS[rname].ordered:
        _check_exponents(op, x, ax, 1)
    if op.name == "hypot" and x.shape[ax]:
        # NumPy starts from the first element, not hypot(0, x0) = |x0|
        r = _scan(op, rname, x, ax, dt, None, api)
        first = (slice(None),) * ax + (slice(0, 1),)
        r[first] = x[first]
        return _red._store(r, out, api)
    return _scan(op, rname, x, ax, dt, out, api)


def _scan(op, rname, x, ax, dt, out, api):
    """The inclusive scan of row ``rname`` along ``ax``; a narrow-float op on the format's
    own grid (``op.f16``: nextafter) steps with its garray._elementwise.f16 function, one
    launch per element of the axis, as its kernel's float32 steps would round differently."""
    if op.f16 is None or not _dtypes.is_narrow(x.dtype):
        return scan(rname, x, ax, dt, out, api=api)
    import garray as _ga
    f = getattr(_f16, op.f16)
    xm = _ga.moveaxis(x, ax, 0)
    r = _ga.empty(xm.shape, dtype=x.dtype, device=x.device)
    if xm.shape[0]:
        r[0] = xm[0]
    for i in range(1, xm.shape[0]):
        r[i] = f(r[i - 1], xm[i])
    r = _ga.moveaxis(r, 0, ax)
    if dt is not None and r.dtype != dt:
        r = r.astype(dt)
    return _red._store(r, out, api)


def outer(uf, A, B, out=None, kwargs=None):
    _op(uf, "outer", "outer product")       # refuses what has no outer product
    a = as_array(A, f"{uf.__name__}.outer: A", B.device if isinstance(B, ndarray) else None)
    b = as_array(B, f"{uf.__name__}.outer: B", a.device)
    a = a.reshape(a.shape + (1,) * b.ndim)
    # the call takes out= as an array or a tuple (one entry per output), and the keywords
    return uf(a, b, out=out, **(kwargs or {}))


# Longest segment a float add.reduceat folds in order; NumPy sums longer ones pairwise
# (so does garray's reduce), and an in-order sum's error grows with the length.
_FOLD_ADD_MAX = 128


def _reduceat_folds(op, dt, lens):
    """Whether reduceat's segments can be folded by ew2_reduceat (Note [reduceat and at] 1):
    the op computes the result dtype in itself, and float add's segments are short."""
    code = _optable.CODES[dt]
    if op.compute_code_pair(code, code) != code or op.kernels(code)[_optable.L_AT] is None:
        return False
    return not (op.name == "add" and _kind_of(dt) in "fc" and int(lens.max()) > _FOLD_ADD_MAX)


def _reduceat_fold(op, xm, idx, ends, res):
    """res[i] = xm[idx[i]] folded with xm[idx[i] + 1:ends[i]] in order, every segment
    at once (ew2_reduceat, a thread per segment and row): the rows of (R, n) = xm's
    other axes by its first, cast to res's dtype, into the (R, k) transposed result."""
    import garray as _ga
    dev = xm.device
    n, k = xm.shape[0], len(idx)
    rest = xm.shape[1:]
    r = math.prod(rest)
    xt = _ga.ascontiguousarray(xm.reshape((n, r)).T, dtype=res.dtype)      # (R, n)
    rt = _ga.empty((r, k), dtype=res.dtype, device=dev)
    _core._ufunc_reduceat_fold(op.name, rt, xt, _ga.ascontiguousarray(idx),
                               _ga.ascontiguousarray(ends))
    res[...] = rt.T.reshape((k,) + rest)


def reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    import garray as _ga
    op = _op(uf, "reduceat", "reduceat")
    api = f"{op.numpy_name}.reduceat"
    x = (array if type(array) is ndarray else as_array(array, f"{api}: array"))
    if x.ndim == 0:
        raise TypeError(f"{api}: cannot reduceat on a scalar")
    if op.in2 is not None:          # as NumPy: no loop fits (exponents are integers)
        raise TypeError(f"{api}: the resolved dtypes are not compatible with reduceat")
    as_array_given = isinstance(indices, (ndarray, numpy.ndarray))
    # a garray index array stays on its device: the host would pay for every temporary
    idx = indices if isinstance(indices, ndarray) else numpy.asarray(indices)
    if idx.ndim != 1:
        raise ValueError(f"{api}: indices must be a 1-d sequence, got {idx.ndim} dimensions")
    # NumPy: an array of indices casts by the safe rule; a sequence converts as intp
    if as_array_given and idx.size and not numpy.can_cast(idx.dtype, numpy.intp, "safe"):
        raise TypeError(f"{api}: indices: Cannot cast array data from dtype('{idx.dtype}') "
                        f"to dtype('int64') according to the rule 'safe'")
    if _kind_of(idx.dtype) not in "biuf":
        raise TypeError(f"{api}: indices must be integers, got {idx.dtype}")
    ax = reduction_axes(axis, x.ndim, api)
    if len(ax) != 1:
        raise TypeError(f"{api}: axis must be an integer")
    ax = ax[0]
    n = x.shape[ax]
    k = idx.size
    gi = _ga.asarray(idx, dtype=numpy.int64, device=x.device)
    if k and (int(gi.min()) < 0 or int(gi.max()) >= n):
        h = gi.get()
        first = h[(h < 0) | (h >= n)][0]
        raise IndexError(f"index {int(first)} out-of-bounds in {api} [0, {n})")
    xm = _ga.moveaxis(x, ax, 0)
    # segment s is [idx[s], ends[s]): to the next index, or the one element idx[s]
    ge = _ga.empty(k, dtype=numpy.int64, device=x.device)
    ge[:-1] = gi[1:]
    ge[-1:] = n
    ge = _ga.maximum(ge, gi + 1)
    # the result dtype: reduce's for this input and dtype (one element, one launch)
    probe = uf.reduce(xm[:1] if n else xm, axis=0, dtype=dtype)
    res = _ga.empty((k,) + xm.shape[1:], dtype=probe.dtype, device=x.device)
    if k and _reduceat_folds(op, res.dtype, ge - gi):
        _reduceat_fold(op, xm, gi, ge, res)
    else:
        idx, ends = gi.get(), ge.get()
        single = ends - idx == 1
        if single.any():
            pos = _ga.asarray(numpy.flatnonzero(single), device=x.device)
            res[pos] = xm[_ga.asarray(idx[single], device=x.device)].astype(res.dtype)
        for i in numpy.flatnonzero(~single):
            uf.reduce(xm[int(idx[i]):int(ends[i])], axis=0, dtype=dtype, out=res[int(i)])
    res = _ga.moveaxis(res, 0, ax)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"{api}: out must be an array or a tuple of one array")
        out = out[0]
    if out is None:
        return res
    if not isinstance(out, ndarray):
        raise TypeError(f"{api}: out must be a garray.ndarray, got {type(out).__name__}")
    if out.shape != res.shape:
        raise ValueError(f"{api}: out has shape {out.shape}, the result has shape "
                         f"{res.shape}")
    out[...] = res
    return out


def _folds(op, work, b):
    """Whether ufunc.at can fold with one kernel: a binary op whose loop for (a's dtype,
    b's dtype) computes in a's dtype and writes it (then every step of NumPy's
    sequence of a[i] = op(a[i], b_k) stays in that dtype, as in the kernel)."""
    if b is None:
        return False
    code = _optable.CODES[work.dtype]
    if op.compute_code_pair(code, _optable.CODES[b.dtype]) != code:
        return False
    return op.kernels(code)[_optable.L_AT] is not None


def _direct_positions(a, indices):
    """The flat positions of ``a[indices]`` without a gather where they are the indices
    themselves: a 1-d ``a`` and a garray int64 array of indices all in [0, a.size);
    None otherwise."""
    if (a.ndim != 1 or type(indices) is not ndarray or indices.dtype != numpy.int64
            or indices.device != a.device or indices.size == 0):
        return None
    if int(indices.min()) < 0 or int(indices.max()) >= a.size:
        return None         # negatives wrap, out-of-range ones raise: the general path
    return indices


def at(uf, a, indices, b=None):
    import garray as _ga
    op = _optable.OPS[uf.__name__]
    api = f"{op.numpy_name}.at"
    if not isinstance(a, ndarray):
        raise TypeError(f"{api}: first operand must be a garray.ndarray, got "
                        f"{type(a).__name__}")
    if op.nout != 1:
        raise ValueError(f"{api}: only single output ufuncs supported")
    if op.nin == 2 and b is None:
        raise ValueError(f"{api}: second operand needed for ufunc")
    if op.nin == 1 and b is not None:
        raise ValueError(f"{api}: second operand provided when ufunc is unary")
    if not a.flags.writeable:
        raise ValueError(f"{api}: the array is read-only")
    dev = a.device
    pos = _direct_positions(a, indices)
    if pos is None:     # every index form, checked, by garray's indexing of an arange
        pos = _ga.arange(a.size, dtype=numpy.int64, device=dev).reshape(a.shape)[indices]
    if b is not None:
        if not isinstance(b, ndarray):      # NumPy's at takes b as an array (strong)
            b = _ga.asarray(b, device=dev)
        try:
            b = _ga.broadcast_to(b, pos.shape)
        except ValueError:
            raise ValueError(f"{api}: array is not broadcastable to correct shape "
                             f"({b.shape} to {pos.shape})") from None
        b = b.reshape(-1)
    if pos.size == 0:
        return None
    work = a if a.flags.c_contiguous else a.copy()
    flat = work.reshape(-1)
    p = pos.reshape(-1)
    n = p.size
    if dev.kind == "cpu" and not _debug["sorted_at"] and _folds(op, work, b):
        # NumPy's own loop on one thread, in order: one run of every occurrence, the
        # kernel moving its accumulator when the target changes (no sort)
        _core._ufunc_at_fold(op.name, flat, _ga.ascontiguousarray(p),
                             _ga.ascontiguousarray(b, dtype=work.dtype),
                             _ga.zeros(1, dtype=numpy.int64, device=dev))
        if work is not a:
            a[...] = work
        return None
    order = _ga.argsort(p, kind="stable")
    sp = p[order]
    sb = None if b is None else b[order]
    start = _ga.empty(n, dtype=numpy.bool_, device=dev)
    start[:1] = True
    start[1:] = sp[1:] != sp[:-1]
    if _folds(op, work, sb):
        # one launch: a thread per run of equal targets folds the run's operands in
        # their order of occurrence (Note [Elementwise kernels] 6 in elementwise.hip)
        _core._ufunc_at_fold(op.name, flat, _ga.ascontiguousarray(sp),
                             _ga.ascontiguousarray(sb, dtype=work.dtype),
                             _core._flat_nonzero(start))
        if work is not a:
            a[...] = work
        return None
    count = _ga.arange(n, dtype=numpy.int64, device=dev)
    rank = count - _ga.maximum.accumulate(_ga.where(start, count, 0))
    rounds = int(rank.max()) + 1
    bounds = [0, n]
    if rounds > 1:      # occurrences by rank: round r is one slice
        by_rank = _ga.argsort(rank, kind="stable")
        sp = sp[by_rank]
        sb = None if sb is None else sb[by_rank]
        bounds = [0] + numpy.cumsum(_ga.bincount(rank).get()).tolist()
    for r in range(rounds):
        t = sp[bounds[r]:bounds[r + 1]]
        v = None if sb is None else sb[bounds[r]:bounds[r + 1]]
        cur = flat[t]
        flat[t] = uf(cur) if b is None else uf(cur, v)
    if work is not a:
        a[...] = work
    return None
