"""The ufuncs of time arrays: NumPy decides the result dtype (or the TypeError) from
zero-size operands of the same dtypes; garray computes the values on int64 storage.

Supported: add, subtract, multiply, divide, floor_divide, remainder, divmod, the six
comparisons, maximum, minimum, fmax, fmin, negative, positive, absolute, sign, isnat,
isnan, isfinite, isinf.  Any other ufunc NumPy accepts for a time dtype raises
NotImplementedError naming it.
"""

import numpy as np

from .. import _core, _dtype_time as T
from .._elementwise import ufuncs as U
from .._core import where
from .values import I64, F64, storage, label, nat, keep_nat, convert

_NUMPY_NAME = {"pow": "power", "divide": "true_divide", "abs": "absolute"}
_COMPARE = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")


def _operand(x, other):
    """A garray array or a Python scalar; NumPy time scalars and host data become arrays
    on ``other``'s device."""
    if isinstance(x, _core.ndarray) or type(x) in (bool, int, float, complex):
        return x
    if isinstance(x, (str, bytes)):
        return x            # never parsed (NumPy compares a str with a datetime as unequal)
    return _core.asarray(np.asarray(x), device=other.device)


def _probe(x):
    """A zero-size NumPy stand-in with x's dtype (Python scalars stay weak)."""
    return x if not isinstance(x, _core.ndarray) else np.empty(0, x.dtype)


def _result_dtype(name, x1, x2):
    fn = getattr(np, _NUMPY_NAME.get(name, name), None)
    if fn is None:
        raise TypeError(f"{name}: not supported for {_dt(x1)} and {_dt(x2)}")
    try:
        r = fn(_probe(x1), _probe(x2))
    except TypeError as e:      # NumPy's UFuncTypeError: no loop for these dtypes
        raise TypeError(f"{name}: {e}") from None
    return tuple(o.dtype for o in r) if isinstance(r, tuple) else r.dtype


def _dt(x):
    return x.dtype if isinstance(x, _core.ndarray) else type(x).__name__


def _ints(x, dt):
    """Operand x as int64 values in time dtype dt's unit (a number: a count of them)."""
    if isinstance(x, _core.ndarray):
        if T.is_time(x.dtype):
            return convert(storage(x), x.dtype, np.dtype(f"{x.dtype.kind}8[{T.unit_of(dt)}]"))
        return x.astype(I64, copy=False)
    return x


def _isnat(x):
    if isinstance(x, _core.ndarray) and T.is_time(x.dtype):
        return nat(storage(x))
    return False


def _common(x1, x2, r):
    """Both operands' int64 values in the unit of result dtype ``r`` and their NaT mask."""
    return _ints(x1, r), _ints(x2, r), U.logical_or(_isnat(x1), _isnat(x2))


def _trunc_div(a, b):
    """a / b rounded toward zero (int64; NumPy's timedelta // integer): a less its
    truncated remainder divides exactly."""
    return U.floor_divide(U.subtract(a, U.fmod(a, b)), b)


def _scale(t, s, r, divide):
    """timedelta t times (or divided by) number s, in result dtype r."""
    v, bad = _ints(t, r), _isnat(t)
    if isinstance(s, _core.ndarray) and s.dtype.kind in "biu" or type(s) in (bool, int):
        if divide:
            s = s if type(s) is not bool else int(s)
            zero = U.equal(s, 0)            # NumPy: NaT; // and / both truncate
            return keep_nat(_trunc_div(v, where(zero, 1, s)), U.logical_or(bad, zero))
        return keep_nat(U.multiply(v, s), bad)
    f = U.divide(v.astype(F64), s) if divide else U.multiply(v.astype(F64), s)
    ok = U.logical_and(U.isfinite(f), U.logical_not(bad))
    return where(ok, where(ok, f, 0).astype(I64), T.NAT)


def _compare(name, a, b):
    """Comparison ``name`` of int64 values (or Python ints) with NaT unordered and unequal.

    NaT is the int64 minimum, so the raw comparison is wrong only where one operand is
    NaT and it still holds: ``a < b``, ``a <= b`` and ``a == b`` when a is NaT (then
    ``a == b`` means both are), ``a > b`` and ``a >= b`` when b is; ``a != b`` misses a
    pair of NaTs.  One mask of that operand fixes it (two launches, not five)."""
    res = getattr(U, name)(a, b)
    m = b if name in ("greater", "greater_equal") else a
    if not isinstance(m, _core.ndarray):    # a Python int: NaT only as the int64 minimum
        if m != T.NAT:
            return res
        return U.logical_or(res, True) if name == "not_equal" else U.logical_and(res, False)
    return U.logical_or(res, nat(m)) if name == "not_equal" else \
        U.logical_and(res, U.not_equal(m, T.NAT))


def _values(name, x1, x2, r):
    """int64 (or bool, float64) values of ``name(x1, x2)`` whose NumPy dtype is ``r``."""
    k1 = x1.dtype.kind if isinstance(x1, _core.ndarray) else "s"
    k2 = x2.dtype.kind if isinstance(x2, _core.ndarray) else "s"
    if name in ("add", "subtract"):
        a, b, bad = _common(x1, x2, r)
        return keep_nat((U.add if name == "add" else U.subtract)(a, b), bad)
    if name in _COMPARE:
        ct = np.result_type(*(np.empty(0, x.dtype) if isinstance(x, _core.ndarray) else x
                              for x in (x1, x2)))
        a, b = _ints(x1, ct), _ints(x2, ct)
        return _compare(name, a, b)
    if name in ("maximum", "minimum", "fmax", "fmin"):
        a, b, _ = _common(x1, x2, r)
        na, nb = _isnat(x1), _isnat(x2)
        pick = (U.maximum if name in ("maximum", "fmax") else U.minimum)(a, b)
        if name in ("maximum", "minimum"):
            return keep_nat(pick, U.logical_or(na, nb))
        return where(na, b, where(nb, a, pick))
    if name in ("logical_and", "logical_or", "logical_xor"):
        a, b = (U.not_equal(storage(x), 0) if isinstance(x, _core.ndarray) and
                T.is_time(x.dtype) else x for x in (x1, x2))
        return getattr(U, name)(a, b)
    if name == "multiply":
        t, s = (x1, x2) if k1 == "m" else (x2, x1)
        return _scale(t, s, r, False)
    if name in ("divide", "floor_divide") and k1 == "m" and k2 != "m":
        return _scale(x1, x2, r, True)
    if name in ("divide", "floor_divide", "remainder") and k1 == k2 == "m":
        ct = np.promote_types(x1.dtype, x2.dtype) if isinstance(x2, _core.ndarray) \
            else x1.dtype
        a, b, bad = _common(x1, x2, ct)
        if name == "divide":
            f = U.divide(a.astype(F64), b.astype(F64))
            return where(bad, np.nan, f)
        zero = U.equal(b, 0)
        safe = where(zero, 1, b)
        if name == "floor_divide":
            return where(U.logical_or(bad, zero), 0, U.floor_divide(a, safe))
        return keep_nat(U.remainder(a, safe), U.logical_or(bad, zero))
    raise NotImplementedError(f"{name} of {_dt(x1)} and {_dt(x2)} (NumPy: {r})")


def _finish(v, r, out, name):
    res = label(v, r) if T.is_time(r) else v
    if out is None:
        return res
    if not isinstance(out, _core.ndarray):
        raise TypeError(f"{name}: out must be a garray.ndarray, got {type(out).__name__}")
    if not np.can_cast(r, out.dtype, "same_kind"):
        raise TypeError(f"{name}: cannot cast the output from {r} to {out.dtype} with "
                        f"casting rule 'same_kind'")
    out[...] = res
    return out


def binary(name, x1, x2, out, operator=False):
    """``name(x1, x2)`` with at least one operand a time array or NumPy time scalar;
    ``operator``: called by ``==`` or ``!=``, which NumPy answers for unlike types (all
    unequal) where its ufuncs raise.  The callers pass one garray array at least."""
    ref = x1 if isinstance(x1, _core.ndarray) else x2
    x1, x2 = _operand(x1, ref), _operand(x2, ref)
    if isinstance(x1, _core.ndarray) and isinstance(x2, _core.ndarray) \
            and x1.device != x2.device:
        raise ValueError(f"{name}: arrays are on different devices ({x1.device} and "
                         f"{x2.device}); move one with to_device()")
    try:
        r = _result_dtype(name, x1, x2)
    except TypeError:
        if operator:                          # NumPy's operators: unlike types differ
            shape = np.broadcast_shapes(*(np.shape(x) if not isinstance(x, _core.ndarray)
                                          else x.shape for x in (x1, x2)))
            v = _core.full(shape, name == "not_equal", dtype=np.bool_, device=ref.device)
            return _finish(v, v.dtype, out, name)
        raise
    if name == "divmod":
        q = _values("floor_divide", x1, x2, r[0])
        m = _values("remainder", x1, x2, r[1])
        if out is not None:
            raise NotImplementedError("divmod: out= with timedelta64")
        return q, label(m, r[1])
    return _finish(_values(name, x1, x2, r), r, out, name)


def unary(name, x, out):
    """``name(x)`` for a time array ``x``."""
    if name in ("isnat", "isnan", "isfinite", "isinf"):
        m = nat(storage(x))
        v = m if name in ("isnat", "isnan") else (
            U.logical_not(m) if name == "isfinite" else U.logical_and(m, False))
        return _finish(v, v.dtype, out, name)
    try:
        r = getattr(np, _NUMPY_NAME.get(name, name))(np.empty(0, x.dtype)).dtype
    except (TypeError, AttributeError) as e:
        raise TypeError(f"{name}: {e}") from None
    if name == "logical_not":
        return _finish(U.equal(storage(x), 0), r, out, name)
    if name in ("negative", "positive", "abs", "sign"):
        # on int64: NaT (the int64 minimum) negates and absolutes to itself, and its
        # sign is -1, as NumPy's timedelta loops give
        return _finish(getattr(U, name)(storage(x)), r, out, name)
    raise NotImplementedError(f"{name} of {x.dtype} (NumPy: {r})")


def time_where(c, x1, x2):
    """``where(c, x1, x2)`` with x1 or x2 a time array (c: a bool array)."""
    dev = c.device
    dt = T.result([x.dtype if isinstance(x, _core.ndarray) else x for x in (x1, x2)], [])
    v1, v2 = (storage(x.astype(dt, copy=False)) if isinstance(x, _core.ndarray) else
              storage(_core.asarray(np.asarray(x, dtype=dt), device=dev)) for x in (x1, x2))
    return label(where(c, v1, v2), dt)
