"""NumPy's ``numpy.emath`` (``numpy.lib.scimath``): functions whose result is complex
where the real one would be NaN.

``sqrt``, ``log``, ``log2``, ``log10``, ``logn``, ``power``, ``arccos``, ``arcsin`` and
``arctanh`` follow NumPy 2's ``numpy/lib/_scimath_impl.py`` exactly, dtypes included:

- an argument that holds a real value outside the real function's domain (a negative
  one for ``sqrt``, the logarithms and ``power``'s base; one of absolute value above 1
  for ``arccos``, ``arcsin``, ``arctanh``) is converted to complex first, the *whole*
  array, when any of its elements needs it: float32, int8, int16, uint8 and uint16 to
  complex64, every other real dtype (float16, float64, int32, int64, uint32, uint64) to
  complex128 (NumPy's ``_tocomplex``);
- ``power``'s exponent: an integer array with a negative element becomes float64 (NumPy's
  ``_fix_int_lt_zero``, ``p * 1.0``), so that ``power(2, -1)`` is 0.5, not an error;
- NaN, -0.0 and bools never need the conversion; complex input is taken as it is;
  ``abs(x) > 1`` is NumPy's test, so int8's -128 (whose ``abs`` wraps to -128) does
  not convert, as in NumPy.

Then garray's own ufunc computes the result (``garray.sqrt``, ``garray.log`` ...), on the
argument's device.  A Python scalar argument becomes a 0-d array first (NumPy's
``asarray``), as strong as any array in promotion: ``power(float32_array, 2)`` is
float64, as NumPy's.  Where NumPy returns a scalar, garray returns a 0-d array, as
garray's ufuncs do; a NumPy array argument is refused (Note [NumPy input] in
garray/_args.py).

Synchronisation: the result's dtype depends on the values, so deciding whether a
conversion is needed reads one bool back from the device (``bool(garray.any(...))``),
which waits for the work queued before it.  Arguments whose dtype can never need the
conversion (bool, complex, and unsigned integers for the ``< 0`` test) are not read.
"""

from ._dtypes import kind_of as _kind_of
from . import _dtypes
from ._args import as_array
from ._elementwise import ufuncs as _ufuncs
from ._reduce.reductions import any as _any

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

# NumPy's _tocomplex: these go to complex64, every other real dtype to complex128
_TO_COMPLEX64 = frozenset(_dtypes.normalize_dtype(t) for t in
                          ("float32", "int8", "int16", "uint8", "uint16"))


def _tocomplex(x):
    return x.astype(_dtypes.complex64 if x.dtype in _TO_COMPLEX64 else _dtypes.complex128)


def _fix_real_lt_zero(x, where):
    """NumPy's _fix_real_lt_zero: ``x`` as an array, complex if any real element < 0."""
    x = as_array(x, where)
    if _kind_of(x.dtype) in "if" and bool(_any(_ufuncs.less(x, 0))):   # reads one bool
        x = _tocomplex(x)
    return x


def _fix_int_lt_zero(x, where):
    """NumPy's _fix_int_lt_zero: ``x`` as an array, float64 if it is an integer array
    with a negative element (NumPy's ``x * 1.0``; a float array keeps its dtype and
    values, so it is not read)."""
    x = as_array(x, where)
    if _kind_of(x.dtype) == "i" and bool(_any(_ufuncs.less(x, 0))):   # reads one bool
        x = x.astype(_dtypes.float64)
    return x


def _fix_real_abs_gt_1(x, where):
    """NumPy's _fix_real_abs_gt_1: ``x`` as an array, complex if any real element has
    ``abs(x) > 1`` (garray's abs, which wraps for the most negative integer as NumPy's)."""
    x = as_array(x, where)
    kind = _kind_of(x.dtype)
    if kind in "iuf":
        big = _ufuncs.greater(x if kind == "u" else _ufuncs.abs(x), 1)
        if bool(_any(big)):                                          # reads one bool
            x = _tocomplex(x)
    return x


def logn(n, x):
    """The base-``n`` logarithm of ``x``, ``log(x) / log(n)``, complex where either is
    negative (NumPy's ``numpy.emath.logn``).

    ``x`` and ``n`` are each converted to complex first where any of their real elements
    is negative (as ``sqrt``); the two logarithms are garray's and broadcast together.
    Deciding reads up to two bools back from the device.

    >>> garray.emath.logn(2, garray.asarray([4.0, 8.0]))
    array([2., 3.])

    Parameters
    ----------
    n : ndarray or array_like
        The base (a Python scalar becomes a 0-d array: float64 for an int).
    x : ndarray or array_like
        The values whose logarithm is taken.

    Returns
    -------
    ndarray
        ``log(x) / log(n)``, broadcast.

    See Also
    --------
    numpy.emath.logn
    """
    x = _fix_real_lt_zero(x, "emath.logn: x")
    n = _fix_real_lt_zero(n, "emath.logn: n")
    return _ufuncs.divide(_ufuncs.log(x), _ufuncs.log(n))


def power(x, p):
    """``x`` to the power ``p``, complex for a negative real base (NumPy's
    ``numpy.emath.power``).

    As NumPy: where any real element of ``x`` is negative, the whole of ``x`` is
    converted to complex first (so ``power(-2, 2)`` is ``4+0j``, complex even for an
    integer power); where ``p`` is an integer array with a negative element it becomes
    float64 (so ``power(2, -1)`` is 0.5, not an error).  Then ``garray.power``; two bool
    arrays compute in int8, NumPy's loop for them.  Deciding reads up to two bools back
    from the device.

    >>> garray.emath.power(garray.asarray([2, 4]), -1)
    array([0.5 , 0.25])

    Parameters
    ----------
    x : ndarray or array_like
        The base.
    p : ndarray or array_like
        The exponent, broadcast against ``x``.

    Returns
    -------
    ndarray
        ``x ** p``.

    See Also
    --------
    numpy.emath.power
    garray.power
    """
    x = _fix_real_lt_zero(x, "emath.power: x")
    p = _fix_int_lt_zero(p, "emath.power: p")
    if x.dtype == _dtypes.bool and p.dtype == _dtypes.bool:
        # NumPy's power loop for (bool, bool) is int8's (garray.power has no bool loop)
        x, p = x.astype(_dtypes.int8), p.astype(_dtypes.int8)
    return _ufuncs.power(x, p)


_DOC = """{summary}, complex {where} (NumPy's ``numpy.emath.{name}``).

Where any real element of ``x`` {test}, the whole of ``x`` is converted to complex
first (float32, int8, int16, uint8, uint16: complex64; other real dtypes: complex128);
otherwise the result is ``garray.{name}(x)``'s.{extra}  Deciding reads one bool back
from the device (the module's notes).

Parameters
----------
x : ndarray or array_like
    The input (a Python scalar becomes a 0-d array).

Returns
-------
ndarray
    {result}; a 0-d array for a scalar or 0-d input.

See Also
--------
numpy.emath.{name}
garray.{name}
"""


def _scimath(name, fix, summary, result, extra=""):
    """The emath function ``name``: garray's ufunc of that name on ``fix(x)``."""
    uf = getattr(_ufuncs, name)
    negative = fix is _fix_real_lt_zero

    def f(x):
        return uf(fix(x, f"emath.{name}: x"))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = _DOC.format(
        name=name, summary=summary, result=result, extra=extra,
        where="for negative real input" if negative else "where a real ``|x| > 1``",
        test="is negative" if negative else "has ``abs(x) > 1``")
    return f


sqrt = _scimath("sqrt", _fix_real_lt_zero, "The square root of ``x``", "The square root",
                "  ``sqrt(-4.0)`` is ``2j``.")
log = _scimath("log", _fix_real_lt_zero, "The natural logarithm of ``x``",
               "The natural logarithm", "  ``log(-e)`` is ``1 + pi*1j``; ``log(0)`` and "
               "``log(-0.0)`` are real ``-inf``.")
log10 = _scimath("log10", _fix_real_lt_zero, "The base-10 logarithm of ``x``",
                 "The base-10 logarithm")
log2 = _scimath("log2", _fix_real_lt_zero, "The base-2 logarithm of ``x``",
                "The base-2 logarithm")
arccos = _scimath("arccos", _fix_real_abs_gt_1, "The inverse cosine of ``x``",
                  "The inverse cosine, in radians", "  ``abs`` is garray's, which wraps "
                  "for int8's -128 as NumPy's (so -128 does not convert).")
arcsin = _scimath("arcsin", _fix_real_abs_gt_1, "The inverse sine of ``x``",
                  "The inverse sine, in radians")
arctanh = _scimath("arctanh", _fix_real_abs_gt_1, "The inverse hyperbolic tangent of ``x``",
                   "The inverse hyperbolic tangent", "  ``arctanh(1)`` stays real ``inf``.")
