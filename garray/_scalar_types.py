"""NumPy's dtype constructor and scalar type names, as garray offers them.

garray's dtypes are NumPy's dtype objects (``_dtypes``), so NumPy code that inspects
``x.dtype`` (``.kind``, ``.itemsize``, ``== numpy.float32``) keeps working.  This module
adds what NumPy code spells around them:

- ``garray.dtype(obj)``: a checked ``numpy.dtype`` constructor.  It returns the
  ``numpy.dtype`` garray uses for ``obj`` and raises TypeError, naming the dtype, for
  those garray does not support (structured, strings, datetimes, object,
  longdouble ...).  ``isinstance(d, garray.dtype)`` is ``isinstance(d, numpy.dtype)``
  and ``garray.dtype[...]`` is ``numpy.dtype[...]`` for annotations.
- NumPy 2's names of the scalar types of the supported dtypes (``intp``, ``double``,
  ``csingle``, ``int_`` ...) and the abstract ones (``generic``, ``number``,
  ``floating`` ...): NumPy's own objects, which every garray function takes as dtypes.
- ``issubdtype``: the dtype hierarchy (type metadata, not array values).
"""

import numpy

from . import _dtypes

__all__ = [
    "dtype", "issubdtype", "mintypecode",
    "intp", "uintp", "int_", "uint", "double", "single", "cdouble", "csingle", "longlong",
    "ulonglong", "short", "ushort", "byte", "ubyte", "intc", "uintc", "long", "ulong",
    "bool_", "generic", "number", "integer", "signedinteger", "unsignedinteger", "floating",
    "complexfloating", "inexact", "half",
    "True_", "False_", "ScalarType", "sctypeDict", "typecodes",
]

# The C-named aliases of the 14 supported dtypes (NumPy 2: int_ and long are int64 on
# 64-bit Linux, intp is the pointer-sized integer).
intp, uintp, int_, uint = numpy.intp, numpy.uintp, numpy.int_, numpy.uint
double, single, cdouble, csingle = numpy.double, numpy.single, numpy.cdouble, numpy.csingle
longlong, ulonglong = numpy.longlong, numpy.ulonglong
short, ushort, byte, ubyte = numpy.short, numpy.ushort, numpy.byte, numpy.ubyte
intc, uintc, long, ulong = numpy.intc, numpy.uintc, numpy.long, numpy.ulong  # noqa: A001
bool_ = numpy.bool_
half = numpy.half
# The abstract types: for isinstance tests on scalars and for issubdtype.
generic, number, integer, inexact = numpy.generic, numpy.number, numpy.integer, numpy.inexact
signedinteger, unsignedinteger = numpy.signedinteger, numpy.unsignedinteger
floating, complexfloating = numpy.floating, numpy.complexfloating

# NumPy's bool scalars, and its tuple of scalar types (Python's and NumPy's: what
# ``type(x) in ScalarType`` asks is NumPy's question, so the answer is NumPy's).
True_, False_ = numpy.True_, numpy.False_
ScalarType = numpy.ScalarType
# Names and one-letter codes of the scalar types garray's dtypes have (NumPy's lists
# less strings, object and long double, which garray arrays cannot hold).
sctypeDict = {k: v for k, v in numpy.sctypeDict.items()
              if v in {d.type for d in _dtypes.DTYPES} | {numpy.datetime64, numpy.timedelta64}}
typecodes = {"Character": "", "Integer": "bhilqnp", "UnsignedInteger": "BHILQNP",
             "Float": "efd", "Complex": "FD", "AllInteger": "bBhHiIlLqQnNpP",
             "AllFloat": "efdFD", "Datetime": "Mm", "All": "?bhilqnpBHILQNPefdFDMm"}


class _DtypeType(type):
    """Makes ``isinstance(x, garray.dtype)`` mean ``isinstance(x, numpy.dtype)``: the
    objects ``garray.dtype`` returns are NumPy's."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, numpy.dtype)

    def __subclasscheck__(cls, sub):
        return isinstance(sub, type) and issubclass(sub, numpy.dtype)


class dtype(metaclass=_DtypeType):  # noqa: N801 - NumPy's name
    """NumPy's dtype constructor, checked against the dtypes garray supports.

    ``garray.dtype(obj)`` returns the ``numpy.dtype`` that garray uses for ``obj``:
    any spelling NumPy accepts ("f4", "int32", ``float``, ``numpy.float32``, a dtype),
    in native byte order; ``None`` gives float64, as in NumPy.  ``align``, ``copy``
    and ``metadata`` only matter for structured dtypes, which garray does not support.

    Raises: TypeError naming the dtype for what NumPy accepts but garray does not
        (structured, str/bytes, datetime64/timedelta64, object, longdouble,
        clongdouble) and for what is not a dtype at all.

    Example:
        >>> garray.dtype("f4").itemsize, garray.dtype(int).kind
        (4, 'i')

    Parameters
    ----------
    obj : any
        A dtype spelling.
    align : bool, optional
        As NumPy's (structured dtypes only).
    copy : bool, optional
        As NumPy's.
    metadata : dict, optional
        As NumPy's.

    Returns
    -------
    numpy.dtype

    See Also
    --------
    numpy.dtype
    """

    def __new__(cls, obj, align=False, copy=False, metadata=None):
        if obj is None:
            return numpy.dtype(_dtypes.default_float)
        if metadata:
            raise TypeError("dtype: metadata is not supported by garray")
        return _dtypes.normalize_dtype(obj, "dtype")

    def __class_getitem__(cls, item):
        return numpy.dtype[item]


def issubdtype(arg1, arg2):
    """Whether dtype (or scalar type) ``arg1`` is ``arg2`` or below it in NumPy's
    hierarchy (``issubdtype(garray.float32, garray.floating)`` is True).

    Parameters
    ----------
    arg1 : dtype or type
        The dtype or scalar type tested.
    arg2 : dtype or type
        The dtype or abstract type (garray.floating...).

    Returns
    -------
    bool

    See Also
    --------
    numpy.issubdtype
    """
    _dtypes.refuse_array(arg1, "issubdtype: arg1")
    _dtypes.refuse_array(arg2, "issubdtype: arg2")
    return numpy.issubdtype(arg1, arg2)


_TYPECODES_BY_SIZE = "GDFgdfQqLlIiHhBb?"


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The type character of ``typeset`` that every one of ``typechars`` (characters,
    arrays or dtypes) casts to safely, the smallest first; ``default`` when none is in
    the set.

    Parameters
    ----------
    typechars : sequence
        Type characters, arrays or dtypes.
    typeset : str, optional
        The candidate characters.
    default : str, optional
        The answer when none fits.

    Returns
    -------
    str

    See Also
    --------
    numpy.mintypecode
    """
    chars = set()
    for t in typechars:
        c = t if isinstance(t, str) else numpy.dtype(getattr(t, "dtype", t)).char
        if c in typeset:
            chars.add(c)
    if not chars:
        return default
    if "F" in chars and "d" in chars:
        return "D"
    return min(chars, key=_TYPECODES_BY_SIZE.index)
