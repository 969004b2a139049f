"""NumPy's ufunc keywords beyond ``out=``: ``where``, ``casting``, ``order``, ``dtype``,
``subok`` and ``signature`` (the ``garray.ufunc`` call comes here when any of them is
given; the plain call never does).

Note [ufunc keywords]
~~~~~~~~~~~~~~~~~~~~~
1. The loop.  A ufunc runs one loop of the op table (Note [Dtype rules] in
   garray/_tables/ops.py): the operands' promoted dtype picks its compute dtype, which
   gives the output dtypes.  ``dtype=D`` and ``signature=`` choose another loop, as
   NumPy 2 resolves them:
   - fixed outputs only (``dtype=D`` is ``signature=(None,)*nin + (D,)*nout``): the
     operands' own loop when its outputs are the fixed ones (``less(a, b, dtype=bool)``),
     else the loop that computes in D with inputs D (``add(i4, i4, dtype='f4')`` runs
     ``ff->f``); if that loop's outputs are not D either (``less(..., dtype=float)``,
     ``sin(i4, dtype='i4')``), NumPy's "No loop matching" TypeError;
   - fixed inputs: each operand whose entry is None keeps its dtype; the loop of those
     input dtypes must compute in exactly them, and give the fixed outputs.
2. Casting.  Each operand is cast to its loop input under ``casting`` (NumPy's
   ``Cannot cast ufunc 'add' input 0 ...`` TypeError); Python scalars are weak and
   checked by kind only (a float into an integer loop is not ``same_kind``).  The result
   is cast into ``out=`` under ``casting`` too.  garray's plain call is ``same_kind``.
3. ``where=``: the result is computed whole, then copied into ``out=`` where the mask
   holds, so masked-out elements of ``out=`` keep their values (the mask broadcasts with
   the operands, and may widen the result's shape as in NumPy).  Without ``out=`` NumPy
   leaves masked-out elements uninitialised; garray's hold the computed result.
4. ``order=`` lays out a new result ('C', 'F', 'A': F when every array operand is
   F-contiguous and not C-contiguous, 'K' as the plain call).  ``subok`` is checked
   (NumPy's TypeError for a non-bool) and changes nothing: garray's ufuncs return a
   base ``garray.ndarray`` for subclass operands either way (Note [Subclasses]).
"""

import numpy

from .. import _dtypes
from .._core import ndarray
from .._manip.common import check_cast
from .._manip.shaping import copyto
from .._tables import ops as _optable

CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _no_loop(name):
    return TypeError(f"No loop matching the specified signature and casting was found "
                     f"for ufunc {name}")


def _parse_signature(signature, name, nin, nout):
    """signature= as a tuple of nin + nout numpy dtypes or None."""
    n = nin + nout
    if isinstance(signature, str):
        if "->" not in signature:
            raise ValueError(f"{name}: signature: no '->' in {signature!r}")
        ins, outs = signature.replace(" ", "").split("->")
        parts = list(ins.split(",") if "," in ins else ins) + list(
            outs.split(",") if "," in outs else outs)
    elif isinstance(signature, tuple):
        parts = list(signature)
    else:
        raise TypeError("the signature object to ufunc must be a string or a tuple.")
    if len(parts) == 1 and n > 1 and not isinstance(signature, str):
        raise ValueError(f"a type-tuple must be specified of length {n} for ufunc {name!r}")
    if len(parts) != n:
        raise ValueError(f"a type-tuple must be specified of length {n} for ufunc {name!r}")
    return tuple(None if p is None else _dtypes.normalize_dtype(p) for p in parts)


def _operand_dtype(x):
    """An operand's dtype for the loop; None for a weak Python scalar."""
    if isinstance(x, ndarray):
        return x.dtype
    if isinstance(x, numpy.generic):
        return _dtypes.normalize_dtype(x.dtype)
    if isinstance(x, (bool, int, float, complex)):
        return None
    return _dtypes.normalize_dtype(numpy.asarray(x).dtype)      # a sequence: its default


def _operand_dtypes(operands):
    """The operands' dtypes for the loop; when all are Python scalars, their default
    dtypes (the plain call makes the first one an array)."""
    dtypes = [_operand_dtype(x) for x in operands]
    if all(d is None for d in dtypes):
        dtypes = [_dtypes.normalize_dtype(numpy.asarray(x).dtype) for x in operands]
    return dtypes


def _loop(op, in_dtypes):
    """(input dtypes, output dtypes) of the op's own loop for operands of these dtypes
    (None: weak scalar), or None when it has none."""
    codes = [None if d is None else _optable.CODES[d] for d in in_dtypes]
    known = [c for c in codes if c is not None]
    p = known[0]
    for k in known[1:]:
        p = _optable.CODES[_dtypes.promote_types(_optable.RECORDS[p].dtype,
                                                  _optable.RECORDS[k].dtype)]
    if op.nin == 2 and len(known) == 2:
        c = op.compute_code_pair(codes[0], codes[1])
    else:
        c = op.compute_code(p)
    if c < 0:
        return None
    # logical ops: NumPy's loops take the promoted dtype and test it for truth, as
    # garray's kernels do after a conversion (the op table's "bool" rule)
    ins = [_optable.RECORDS[c if op.rule != "bool" else p].dtype] * op.nin
    if op.in2 is not None:         # NumPy's ldexp loops take int32 and int64 exponents
        own = in_dtypes[1]
        ins[1] = own if own is not None and own in (numpy.int32, numpy.int64) else (
            _optable.RECORDS[op.in2_code(c)].dtype)
    outs = [_optable.RECORDS[op.out_code(c)].dtype]
    if op.nout == 2:
        outs.append(_optable.RECORDS[op.out2_code(c)].dtype)
    return ins, outs


def _resolve(op, name, dtypes, fixed):
    """The loop (input dtypes, output dtypes) for operand dtypes and a signature
    (Note [ufunc keywords] 1)."""
    nin = op.nin
    fin, fout = fixed[:nin], fixed[nin:]
    if all(d is None for d in fin):
        own = _loop(op, dtypes)
        if own is not None and all(f is None or f == o for f, o in zip(fout, own[1])):
            return own
        d = next(f for f in fout if f is not None)
        tries = [d]
        if op.out == "real" and d.kind == "f" and d.itemsize >= 4:
            # abs(complex64, dtype=float64): the loop of the complex type whose real is d
            c = numpy.dtype(f"c{2 * d.itemsize}")
            tries = [c, d] if any(t is not None and t.kind == "c" for t in dtypes) else [d, c]
            # a loop of another type than the operands' own takes them by safe casts only
            tries = [t for t in tries if t.kind != "c" or all(
                x is None or numpy.can_cast(x, t, "safe") for x in dtypes)]
        for t in tries:
            loop = _loop(op, [t] * nin if op.in2 is None else [t] + list(dtypes[1:]))
            if loop is not None and loop[0][0] == t and all(
                    f is None or f == o for f, o in zip(fout, loop[1])):
                return loop
        raise _no_loop(name)
    else:
        want = [f if f is not None else dt for f, dt in zip(fin, dtypes)]
        if any(w is None for w in want):        # a weak scalar: takes a fixed input's dtype
            first = next(f for f in fin if f is not None)
            want = [first if w is None else w for w in want]
        loop = _loop(op, want)
        if loop is None or list(loop[0]) != want:
            raise _no_loop(name)
    if not all(f is None or f == o for f, o in zip(fout, loop[1])):
        raise _no_loop(name)
    return loop


def _cast_operand(x, to, casting, name, k, nin):
    """Operand k cast to its loop dtype under ``casting`` (Note [ufunc keywords] 2)."""
    where = "input" if nin == 1 else f"input {k}"
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, numpy.generic):
        kind = "b" if isinstance(x, bool) else "i" if isinstance(x, int) else (
            "f" if isinstance(x, float) else "c")
        if casting != "unsafe" and _KIND_RANK[kind] > _KIND_RANK[to.kind]:
            py = {"b": "bool", "i": "int64", "f": "float64", "c": "complex128"}[kind]
            raise TypeError(f"Cannot cast ufunc {name!r} {where} from dtype({py!r}) to "
                            f"{to!r} with casting rule {casting!r}")
        return x
    frm = _operand_dtype(x)
    if frm != to and not numpy.can_cast(frm, to, casting):
        raise TypeError(f"Cannot cast ufunc {name!r} {where} from {frm!r} to {to!r} with "
                        f"casting rule {casting!r}")
    if isinstance(x, ndarray):
        return x if x.dtype == to else x.astype(to)
    return numpy.asarray(x).astype(to)[()] if isinstance(x, numpy.generic) else x


def _outs(out, nout, name):
    """out= as a list of nout entries (None or a garray array)."""
    if out is None or out is Ellipsis:
        return [None] * nout
    if isinstance(out, tuple):
        if len(out) != nout:
            raise ValueError(f"{name}: The 'out' tuple must have exactly one entry per "
                             f"ufunc output ({nout}), got {len(out)}")
        outs = list(out)
    elif nout == 1:
        outs = [out]
    else:
        raise TypeError(f"{name}: 'out' must be a tuple of arrays for a ufunc with "
                        f"{nout} outputs")
    for o in outs:
        if o is not None and not isinstance(o, ndarray):
            raise TypeError(f"{name}: out: expected a garray.ndarray, got "
                            f"{type(o).__name__}")
    return outs


def _mask(where, name, device):
    if where is None:
        where = False
    if isinstance(where, ndarray):
        w = where
    elif isinstance(where, numpy.ndarray):
        raise TypeError(f"{name}: where: expected a garray.ndarray, got numpy.ndarray "
                        f"(use garray.asarray to copy it to a device)")
    else:
        from .. import asarray   # here: the namespace imports this module
        w = asarray(where, dtype=bool, device=device)     # a sequence: by truth, as NumPy
    if w.dtype != numpy.bool_:
        check_cast(w.dtype, "bool", "safe")
    return w


def _layout(r, order, operands):
    from .. import ascontiguousarray, asfortranarray   # here: the namespace imports us
    if order == "A":
        arrs = [x for x in operands if isinstance(x, ndarray)]
        order = "F" if arrs and all(x.flags.f_contiguous and not x.flags.c_contiguous
                                    for x in arrs) else "C"
    if order == "C" and not r.flags.c_contiguous:
        return ascontiguousarray(r)
    if order == "F" and not r.flags.f_contiguous:
        return asfortranarray(r)
    return r


def call(uf, args, out, where, casting, order, dtype, subok, signature):
    """``uf(*args, out=, where=, casting=, order=, dtype=, subok=, signature=)``
    (Note [ufunc keywords])."""
    name = uf.__name__
    op = _optable.OPS[name]
    if casting not in CASTINGS:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"'unsafe' (got {casting!r})")
    order = "K" if order is None else order
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order.upper() not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    order = order.upper()
    if not isinstance(subok, (bool, numpy.bool_)):
        raise TypeError("'subok' must be a boolean")
    if dtype is not None and signature is not None:
        raise TypeError("cannot specify both 'signature' and 'dtype'")
    outs = _outs(out, uf.nout, name)
    operands = list(args)
    if dtype is not None or signature is not None:
        fixed = ((None,) * uf.nin + (_dtypes.normalize_dtype(dtype),) * uf.nout
                 if dtype is not None else _parse_signature(signature, name, uf.nin, uf.nout))
        dtypes = _operand_dtypes(operands)
        ins, res = _resolve(op, name, dtypes, fixed)
        # ldexp's mantissa casts safely at most, as NumPy's resolver for it
        first = "safe" if op.in2 is not None and casting in ("same_kind", "unsafe") else casting
        operands = [_cast_operand(x, t, first if k == 0 else casting, name, k, uf.nin)
                    for k, (x, t) in enumerate(zip(operands, ins))]
        if all(not isinstance(x, ndarray) for x in operands):
            from .. import asarray   # here: the namespace imports this module
            operands[0] = asarray(operands[0], dtype=ins[0])
    elif casting in ("no", "equiv", "safe"):
        dtypes = _operand_dtypes(operands)
        loop = _loop(op, dtypes)
        if loop is not None:
            for k, (x, t) in enumerate(zip(operands, loop[0])):
                _cast_operand(x, t, casting, name, k, uf.nin)
    mask = None if where is True else _mask(
        where, name, next((x.device for x in operands if isinstance(x, ndarray)), None))
    direct = mask is None and casting == "same_kind" and order == "K"
    r = uf(*operands, out=(tuple(outs) if uf.nout > 1 else outs[0]) if direct else None)
    if direct:
        return r
    rs = list(r) if uf.nout > 1 else [r]
    if mask is not None:
        shape = numpy.broadcast_shapes(rs[0].shape, mask.shape)
        if shape != rs[0].shape:
            from .. import broadcast_to   # here: the namespace imports this module
            rs = [broadcast_to(x, shape).copy() for x in rs]
    result = []
    for x, o in zip(rs, outs):
        if o is None:
            result.append(_layout(x, order, operands) if order != "K" else x)
            continue
        if not numpy.can_cast(x.dtype, o.dtype, casting):
            raise TypeError(f"Cannot cast ufunc {name!r} output from {x.dtype!r} to "
                            f"{o.dtype!r} with casting rule {casting!r}")
        if mask is not None and numpy.broadcast_shapes(mask.shape, o.shape) != o.shape:
            raise ValueError(f"{name}: where: non-broadcastable mask with shape "
                             f"{mask.shape} for the output's shape {o.shape}")
        copyto(o, x, casting="unsafe", where=True if mask is None else mask)
        result.append(o)
    return tuple(result) if uf.nout > 1 else result[0]
