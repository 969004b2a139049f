"""Data types of garray and the rules that combine them.

garray supports the 13 dtypes of the Python Array API standard (2025.12) and NumPy's
float16 (``DTYPES[13]``; Note [float16] in _kernels/garray/types.h: it is stored as
binary16 and computes in float32, rounding once per operation, as NumPy's float16 loops).
``API_DTYPES`` are the standard's 13: ``__array_namespace_info__`` lists those.
Like CuPy, the dtype objects *are* NumPy's: ``garray.float32 is
numpy.float32`` and ``x.dtype`` is a ``numpy.dtype``, so ``x.dtype ==
garray.float32`` holds and NumPy code that inspects dtypes keeps working.

Promotion follows the standard where it defines a result and NumPy 2 where
it leaves a mix open (int64 + uint64 -> float64, int + float, bool + number,
...).  Python scalars are *weak* (NEP 50): they take the array's dtype when
the kinds allow it.

The dtypes themselves and their codes are in garray/_dtype_codes.py, re-exported here;
this module holds the rules: normalisation, promotion, casting, ``finfo``/``iinfo``
and ``isdtype``.  It imports only NumPy and _dtype_codes (which imports only NumPy) so
that every other garray module, and the build's kernel tables, can use it.
"""

import builtins
import reprlib

import numpy as np

from . import _dtype_time as _time
from ._dtype_codes import (  # noqa: F401  (re-exported: the dtype module's names)
    bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64,
    complex64, complex128, float16, bfloat16, float8_e4m3fn, float8_e5m2, _SCALAR_TYPES,
    DTYPES, API_DTYPES, FLOAT16, NARROW, ML_FORMATS, CODE_DTYPE, DTYPE_CODE, DtypeRecord,
    RECORDS, API_RECORDS, KIND, is_narrow, is_ml_format, kind_of, default_float, default_int,
    default_complex, default_index, Codes, NoKernelsError)

# The module-level name ``bool`` (imported above) shadows the builtin; keep handles on
# the Python scalar types so the weak-scalar rules stay unambiguous.
_pybool, _pyint, _pyfloat, _pycomplex = builtins.bool, builtins.int, builtins.float, builtins.complex

__all__ = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128", "float16", "bfloat16", "float8_e4m3fn",
    "float8_e5m2", "DTYPES", "API_DTYPES", "API_RECORDS", "FLOAT16", "NARROW", "KIND",
    "ML_FORMATS", "is_narrow", "is_ml_format", "kind_of", "DTYPE_CODE", "CODE_DTYPE",
    "RECORDS", "DtypeRecord", "PROMOTION_TABLE",
    "default_float", "default_int", "default_complex", "default_index",
    "normalize_dtype", "dtype_name", "promote_types", "result_type", "result_type_scalar",
    "check_scalar_fits", "can_cast", "finfo", "iinfo", "finfo_object", "iinfo_object", "isdtype",
]


_BOOL, _I64, _F32, _F64, _C64, _C128 = (np.dtype(t) for t in (bool, int64, float32, float64, complex64, complex128))
_SUPPORTED_NAMES = ", ".join(dt.name for dt in DTYPES)
# NumPy spells one dtype many ways ("l" and "q", "<f4", metadata, ...);
# (kind, itemsize) identifies each of NumPy's own dtypes uniquely, the scalar type each
# of ml_dtypes' (bfloat16 and float8_e4m3fn have NumPy kind "V", as records have).
_BY_KIND_SIZE = {(dt.kind, dt.itemsize): dt for dt in DTYPES[:FLOAT16 + 1]}
_BY_TYPE = {dt.type: dt for dt in DTYPES[FLOAT16 + 1:]}


# --------------------------------------------------------------------------- normalize

# Successful normalizations only; capped because keys come from user input.
_CACHE = {t: np.dtype(t) for t in _SCALAR_TYPES}
_CACHE.update({dt: dt for dt in DTYPES})
_CACHE.update({dt.name: dt for dt in DTYPES})
# Pinned explicitly: the standard's defaults, whatever the platform's C long is.
_CACHE.update({_pybool: _BOOL, _pyint: _I64, _pyfloat: _F64, _pycomplex: _C128})
_CACHE_LIMIT = 1024


def refuse_array(obj, argname):
    """TypeError for an array where a dtype is wanted: NumPy's rule (a NumPy scalar is
    taken); without it a garray array would pass as its ``.dtype``."""
    if isinstance(obj, np.ndarray) or (
            not isinstance(obj, (type, np.generic)) and hasattr(obj, "__array_namespace__")
            and hasattr(obj, "shape")):
        raise TypeError(f"{argname}: cannot construct a dtype from an array "
                        f"({type(obj).__name__}); pass its .dtype")


def _normalize_slow(obj, argname):
    refuse_array(obj, argname)
    try:
        dt = np.dtype(obj)
    except Exception:
        raise TypeError(f"{argname}: {reprlib.repr(obj)} is not a data type; "
                        f"supported: {_SUPPORTED_NAMES}") from None
    if dt.kind in "mM":
        return _time.normalize_time(dt, argname)
    # Structured and subarray dtypes have kind "V" and no ml_dtypes type: never a match.
    result = _BY_TYPE.get(dt.type)
    if result is None:
        result = _BY_KIND_SIZE.get((dt.kind, dt.itemsize))
    if result is None:
        raise TypeError(f"{argname}: garray does not support {dt} (got {reprlib.repr(obj)}); "
                        f"supported: {_SUPPORTED_NAMES}")
    return result


def normalize_dtype(obj, argname="dtype"):
    """Turn any spelling of a supported dtype into its canonical ``numpy.dtype``.

    Args:
        obj: a ``numpy.dtype``, NumPy scalar type, string NumPy accepts ("f4",
            "i8", "?", "complex"), or Python ``bool``/``int`` (int64)/``float``
            (float64)/``complex`` (complex128). Non-native byte order is dropped.
        argname: the argument name used in error messages.
    Returns: one of the 17 objects in ``DTYPES``.
    Raises: TypeError for ``None``, unsupported dtypes (str, object,
        datetime, ...) and anything that is not a dtype.

    Example:
        >>> normalize_dtype("f4")
        dtype('float32')

    See also numpy.dtype.
    """
    try:
        return _CACHE[obj]
    except (KeyError, TypeError):  # TypeError: unhashable
        pass
    if obj is None:
        # Callers decide what None means (usually "default"), so it is an error here.
        raise TypeError(f"{argname}: None is not a data type; supported: {_SUPPORTED_NAMES}")
    result = _normalize_slow(obj, argname)
    # Only spellings are cached: a NumPy scalar taken as its dtype (float32(1.0)) equals
    # and hashes as 1, True and 1.0, which must not then read as float32
    if isinstance(obj, (type, str, np.dtype)) and len(_CACHE) < _CACHE_LIMIT:
        try:
            _CACHE[obj] = result
        except TypeError:
            pass
    return result


def dtype_name(dt):
    """Return the standard name of a supported dtype, e.g. ``"float32"``.

    Example:
        >>> dtype_name(float32)
        'float32'

    See also numpy.dtype.name.
    """
    return normalize_dtype(dt).name


# --------------------------------------------------------------------------- promotion

# Row dtype promoted with column dtype. Cells inside one kind, and signed with
# unsigned where the result fits, are the Array API's; the rest (u8 + signed,
# int + float, bool + number, int/float + complex) are NumPy 2's choices.
# Every cell equals numpy.promote_types (checked in tests/test_dtypes.py).
_PROMOTION_GRID = """
        b    i1   i2   i4   i8   u1   u2   u4   u8   f4   f8   c8   c16  f2   bf   e4   e5
  b     b    i1   i2   i4   i8   u1   u2   u4   u8   f4   f8   c8   c16  f2   bf   e4   e5
  i1    i1   i1   i2   i4   i8   i2   i4   i8   f8   f4   f8   c8   c16  f2   bf   e4   e5
  i2    i2   i2   i2   i4   i8   i2   i4   i8   f8   f4   f8   c8   c16  f4   f4   f4   f4
  i4    i4   i4   i4   i4   i8   i4   i4   i8   f8   f8   f8   c16  c16  f8   f8   f8   f8
  i8    i8   i8   i8   i8   i8   i8   i8   i8   f8   f8   f8   c16  c16  f8   f8   f8   f8
  u1    u1   i2   i2   i4   i8   u1   u2   u4   u8   f4   f8   c8   c16  f2   bf   e4   e5
  u2    u2   i4   i4   i4   i8   u2   u2   u4   u8   f4   f8   c8   c16  f4   f4   f4   f4
  u4    u4   i8   i8   i8   i8   u4   u4   u4   u8   f8   f8   c16  c16  f8   f8   f8   f8
  u8    u8   f8   f8   f8   f8   u8   u8   u8   u8   f8   f8   c16  c16  f8   f8   f8   f8
  f4    f4   f4   f4   f8   f8   f4   f4   f8   f8   f4   f8   c8   c16  f4   f4   f4   f4
  f8    f8   f8   f8   f8   f8   f8   f8   f8   f8   f8   f8   c16  c16  f8   f8   f8   f8
  c8    c8   c8   c8   c16  c16  c8   c8   c16  c16  c8   c16  c8   c16  c8   c8   c8   c8
  c16   c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16  c16
  f2    f2   f2   f4   f8   f8   f2   f4   f8   f8   f4   f8   c8   c16  f2   f4   f4   f4
  bf    bf   bf   f4   f8   f8   bf   f4   f8   f8   f4   f8   c8   c16  f4   bf   bf   bf
  e4    e4   e4   f4   f8   f8   e4   f4   f8   f8   f4   f8   c8   c16  f4   bf   e4   f4
  e5    e5   e5   f4   f8   f8   e5   f4   f8   f8   f4   f8   c8   c16  f4   bf   f4   e5
"""


def _parse_grid(text):
    short = {"b": _BOOL, "c8": _C64, "c16": _C128, "bf": DTYPES[14], "e4": DTYPES[15],
             "e5": DTYPES[16]}
    short.update({f"{dt.kind}{dt.itemsize}": dt for dt in DTYPES[:FLOAT16 + 1]
                  if dt.kind in "iuf"})
    header, *rows = [line.split() for line in text.strip().splitlines()]
    table = {}
    for row in rows:
        a = short[row[0]]
        for col, cell in zip(header, row[1:], strict=True):
            table[a, short[col]] = short[cell]
    if len(table) != len(DTYPES) ** 2 or any(table[a, b] != table[b, a] for a, b in table):
        raise AssertionError("_PROMOTION_GRID must be a full symmetric 17x17 grid")
    return table


PROMOTION_TABLE = _parse_grid(_PROMOTION_GRID)


def promote_types(a, b):
    """Return the dtype that two dtypes promote to.

    Parameters
    ----------
    a, b : dtype
        Dtypes, in any spelling NumPy accepts.

    Returns
    -------
    numpy.dtype
        One of garray's 17 dtypes; symmetric in a and b.

    See Also
    --------
    numpy.promote_types

    Examples
    --------
    >>> garray.promote_types(garray.int8, garray.uint8)
    dtype('int16')
    """
    try:
        return PROMOTION_TABLE[a, b]
    except (KeyError, TypeError):
        a, b = normalize_dtype(a, "promote_types a"), normalize_dtype(b, "promote_types b")
    return PROMOTION_TABLE[a, b] if (a, b) in PROMOTION_TABLE else _time.promote(a, b)


# Weak Python scalars, ordered by kind; a scalar only lifts a dtype of a lower kind.
_SCALAR_KIND = {_pybool: 0, _pyint: 1, _pyfloat: 2, _pycomplex: 3}
_KIND_RANK = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}
# A scalar alone is strong in its kind's default dtype.
_SCALAR_DEFAULT = (_BOOL, _I64, _F64, _C128)


def _with_weak(dt, kind):
    """dtype ``dt`` combined with a weak Python scalar of kind rank ``kind``."""
    if kind <= _KIND_RANK[KIND[dt]]:
        return dt
    if kind == 3 and KIND[dt] == "f":
        # Python complex keeps the float's precision (float32 -> complex64).
        return _C64 if dt.itemsize <= 4 else _C128
    return _SCALAR_DEFAULT[kind]


_SCALAR_RESULT = {(dt, t): _with_weak(dt, k) for dt in DTYPES for t, k in _SCALAR_KIND.items()}


def _is_dtype_or_array(obj):
    # NumPy scalar values (np.float64(1.0)) have ``.dtype`` and so are strong, as in NumPy 2.
    return isinstance(obj, (np.dtype, type, str)) or hasattr(obj, "dtype")


def _dtype_of(obj, argname):
    # Types first: NumPy scalar *types* carry a ``dtype`` descriptor.
    if isinstance(obj, (np.dtype, type, str)) or not hasattr(obj, "dtype"):
        return normalize_dtype(obj, argname)
    return normalize_dtype(obj.dtype, argname)


def _scalar_kind(obj):
    """Kind rank of a Python scalar (subclasses included), or None."""
    for t in (_pybool, _pyint, _pyfloat, _pycomplex):  # bool before int: bool subclasses int
        if isinstance(obj, t):
            return _SCALAR_KIND[t]
    return None


def result_type(*arrays_and_dtypes):
    """Return the dtype of an operation on the given arrays, dtypes and Python scalars.

    Dtypes and arrays (anything with a ``.dtype``, NumPy scalars included) promote with
    ``promote_types``.  Python ``bool``/``int``/``float``/``complex`` are weak: they keep
    the other dtype when its kind is the same or higher, and otherwise give the default of
    their own kind (float32 with a Python complex gives complex64).  Only scalars: the
    default dtype of the strongest kind among them.

    Parameters
    ----------
    *arrays_and_dtypes : ndarray, dtype or Python scalar
        At least one array, dtype or Python scalar.

    Returns
    -------
    numpy.dtype
        One of garray's 17 dtypes.

    Raises
    ------
    ValueError
        Without arguments.
    TypeError
        For an argument that is none of these or has an unsupported dtype.

    See Also
    --------
    numpy.result_type

    Examples
    --------
    >>> garray.result_type(garray.float32, 1.0), garray.result_type(garray.int8, 1.0)
    (dtype('float32'), dtype('float64'))
    """
    if not arrays_and_dtypes:
        raise ValueError("result_type: at least one array or dtype is required")
    result = None
    weak = -1
    for i, obj in enumerate(arrays_and_dtypes):
        kind = _SCALAR_KIND.get(type(obj))
        if kind is None and not _is_dtype_or_array(obj):
            kind = _scalar_kind(obj)  # subclasses of Python scalars (IntEnum, ...)
            if kind is None:
                raise TypeError(f"result_type: argument {i} ({reprlib.repr(obj)}) is not "
                                "an array, a dtype or a Python scalar")
        if kind is not None:
            weak = max(weak, kind)
            continue
        dt = _dtype_of(obj, f"result_type argument {i}")
        if _time.is_time(dt):       # NumPy's rules for datetime64 and timedelta64
            return _time.result(list(map(_time_dtype_of, arrays_and_dtypes)), [])
        result = dt if result is None else PROMOTION_TABLE[result, dt]
    if result is None:
        return _SCALAR_DEFAULT[weak]
    return result if weak < 0 else _with_weak(result, weak)


def _time_dtype_of(obj):
    return obj if type(obj) in _SCALAR_KIND else _dtype_of(obj, "result_type")


def result_type_scalar(dtype, scalar):
    """Fast ``result_type`` for one array dtype and one scalar (elementwise engine).

    Args:
        dtype: a ``numpy.dtype`` from ``DTYPES`` (other spellings take a slower path).
        scalar: a Python bool/int/float/complex (weak); a NumPy scalar is
            strong, as in NumPy 2.
    Returns: a ``numpy.dtype`` from ``DTYPES``.

    Example:
        >>> result_type_scalar(DTYPES[9], 2.5)
        dtype('float32')

    See also numpy.result_type.
    """
    try:
        return _SCALAR_RESULT[dtype, type(scalar)]
    except (KeyError, TypeError):
        return result_type(dtype, scalar)


def check_scalar_fits(dtype, scalar):
    """Raise OverflowError when a Python scalar cannot be stored in ``dtype``.

    Pass the dtype from ``result_type_scalar``: NumPy 2 rejects, e.g.,
    ``int8_array + 1000`` and ``uint8_array - (-1)`` instead of wrapping.
    Floats that overflow a float dtype become inf, as in NumPy, so only
    Python ints are checked.

    Example:
        >>> check_scalar_fits(int8, 1000)
        Traceback (most recent call last):
        OverflowError: Python integer 1000 out of bounds for int8

    See also numpy.iinfo.
    """
    if not isinstance(scalar, _pyint) or isinstance(scalar, _pybool):
        return
    dt = normalize_dtype(dtype)
    if dt.kind in "iu":
        info = iinfo(dt)
        if not info.min <= scalar <= info.max:
            raise OverflowError(f"Python integer {scalar} out of bounds for {dt.name}")
    elif KIND[dt] in "fc":
        float(scalar)  # raises OverflowError "int too large to convert to float"


# Safe casts are exactly the pairs whose promotion is the target dtype.
_SAFE_CASTS = frozenset((a, b) for (a, b), r in PROMOTION_TABLE.items() if r == b)
# NumPy's "same_kind": a safe cast, or a cast down this order of kinds (signed to
# unsigned is not of the same kind; unsigned to signed is).
_SAME_KIND_RANK = {"b": 0, "u": 1, "i": 2, "f": 3, "c": 4}
_CASTING_RULES = ("no", "equiv", "safe", "same_kind", "unsafe")


def can_cast(from_, to, /, casting="safe"):
    """Return whether ``from_`` converts to ``to`` under the ``casting`` rule.

    Parameters
    ----------
    from_ : dtype or ndarray
        The source dtype, or an array whose dtype is used.
    to : dtype
        The target dtype.
    casting : {"safe", "no", "equiv", "same_kind", "unsafe"}, optional
        NumPy's rule: "safe" (default: ``promote_types(from_, to) == to``), "no" and
        "equiv" (the same dtype), "same_kind" (safe, or within a kind, or down the order
        bool, unsigned, signed, float, complex), "unsafe" (always).

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        For an unknown rule.
    TypeError
        For Python scalars (as NumPy 2).

    See Also
    --------
    numpy.can_cast

    Examples
    --------
    >>> garray.can_cast(garray.int8, garray.float32)
    True
    >>> garray.can_cast(garray.float64, garray.float32, "same_kind")
    True
    """
    a, b = _dtype_of(from_, "can_cast from_"), normalize_dtype(to, "can_cast to")
    if (_time.is_time(a) or _time.is_time(b)) and casting in _CASTING_RULES:
        return _time.can_cast(a, b, casting)
    if casting == "safe":
        return (a, b) in _SAFE_CASTS
    if casting in ("no", "equiv"):
        return a == b
    if casting == "same_kind":
        return (a, b) in _SAFE_CASTS or _SAME_KIND_RANK[KIND[a]] <= _SAME_KIND_RANK[KIND[b]]
    if casting == "unsafe":
        return True
    raise ValueError(f"casting: must be one of {', '.join(map(repr, _CASTING_RULES))} "
                     f"(got {casting!r})")


# --------------------------------------------------------------------------- finfo / iinfo

class _Info:
    __slots__ = ()

    def __init__(self, **fields):
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        # Instances are cached and shared, so they must not change.
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __repr__(self):
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__ if n != "dtype")
        return f"{type(self).__name__[:5]}({fields}, dtype={self.dtype.name})"


class finfo_object(_Info):
    """Limits of a floating-point dtype: bits, eps, max, min, smallest_normal, dtype."""

    __slots__ = ("bits", "eps", "max", "min", "smallest_normal", "dtype")


class iinfo_object(_Info):
    """Limits of an integer dtype: bits, max, min, dtype."""

    __slots__ = ("bits", "max", "min", "dtype")


_FINFO = {dt: finfo_object(bits=_pyint(i.bits), eps=_pyfloat(i.eps), max=_pyfloat(i.max),
                           min=_pyfloat(i.min), smallest_normal=_pyfloat(i.smallest_normal),
                           dtype=np.dtype(i.dtype))
          for dt in DTYPES if KIND[dt] in "fc" for i in [np.finfo(dt)]}
_IINFO = {dt: iinfo_object(bits=_pyint(i.bits), max=_pyint(i.max), min=_pyint(i.min), dtype=dt)
          for dt in DTYPES if dt.kind in "iu" for i in [np.iinfo(dt)]}


def finfo(type, /):
    """Return the limits of a floating-point dtype (or of an array's dtype).

    For complex dtypes the limits are those of the real component, and
    ``dtype`` is that real dtype (complex64 -> float32), as in NumPy.

    Raises: ValueError if the dtype is not floating-point or complex.

    Example:
        >>> finfo(float32).bits
        32

    Parameters
    ----------
    type : dtype or ndarray
        A floating or complex dtype, or an array of one.

    Returns
    -------
    finfo object
        NumPy's fields (bits, eps, max, min, smallest_normal, dtype...).

    See Also
    --------
    numpy.finfo
    """
    dt = _dtype_of(type, "finfo type")
    try:
        return _FINFO[dt]
    except KeyError:
        raise ValueError(f"finfo type: {dt.name} is not a floating-point dtype") from None


def iinfo(type, /):
    """Return the limits of an integer dtype (or of an array's dtype).

    Raises: ValueError if the dtype is not an integer dtype (bool included).

    Example:
        >>> iinfo(int8).min
        -128

    Parameters
    ----------
    type : dtype or ndarray
        An integer dtype, or an array of one.

    Returns
    -------
    iinfo object
        bits, min, max, dtype.

    See Also
    --------
    numpy.iinfo
    """
    dt = _dtype_of(type, "iinfo type")
    try:
        return _IINFO[dt]
    except KeyError:
        raise ValueError(f"iinfo type: {dt.name} is not an integer dtype") from None


# --------------------------------------------------------------------------- isdtype

_KINDS = {
    "bool": frozenset("b"),
    "signed integer": frozenset("i"),
    "unsigned integer": frozenset("u"),
    "integral": frozenset("iu"),
    "real floating": frozenset("f"),
    "complex floating": frozenset("c"),
    "numeric": frozenset("iufc"),
}


def _strict_dtype(obj, argname):
    # Strict like numpy.isdtype: real dtype objects only, no strings or Python types.
    # Identity test: ``in`` would call __eq__, which arrays make elementwise.
    if isinstance(obj, np.dtype) or any(obj is t for t in _SCALAR_TYPES):
        return normalize_dtype(obj, argname)
    raise TypeError(f"{argname}: expected a dtype, got {reprlib.repr(obj)}")


def isdtype(dtype, kind):
    """Return whether ``dtype`` is of the given kind.

    Parameters
    ----------
    dtype : dtype
        A ``numpy.dtype`` or one of garray's dtype objects.
    kind : dtype, str or tuple
        A dtype, one of "bool", "signed integer", "unsigned integer", "integral",
        "real floating", "complex floating", "numeric", or a tuple of those (True if any
        matches).

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        If ``dtype`` is not a dtype or ``kind`` has a wrong type.
    ValueError
        If ``kind`` is an unknown string.

    See Also
    --------
    numpy.isdtype

    Examples
    --------
    >>> garray.isdtype(garray.float32, ("integral", "real floating"))
    True
    """
    dt = _strict_dtype(dtype, "isdtype dtype")
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str):
            if k not in _KINDS:
                raise ValueError(f"isdtype kind: unknown kind {k!r}; expected a dtype or one of "
                                 + ", ".join(map(repr, _KINDS)))
            if KIND[dt] in _KINDS[k]:
                return True
        elif isinstance(k, tuple):
            raise TypeError("isdtype kind: tuples of kinds cannot be nested")
        elif _strict_dtype(k, "isdtype kind") == dt:
            return True
    return False
