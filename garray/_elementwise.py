"""Elementwise functions: one ``ufunc`` per op-table entry, plus NumPy's aliases.

Every function is a ``garray.ufunc`` (a Cython object) driven by ``garray._optable``;
the list below is written out so that the namespace is explicit and greppable.
"""

from ._core import ufunc, where  # noqa: F401
from . import _optable

add = ufunc("add")
subtract = ufunc("subtract")
multiply = ufunc("multiply")
divide = ufunc("divide")
floor_divide = ufunc("floor_divide")
remainder = ufunc("remainder")
fmod = ufunc("fmod")
pow = ufunc("pow")
float_power = ufunc("float_power")
maximum = ufunc("maximum")
minimum = ufunc("minimum")
fmax = ufunc("fmax")
fmin = ufunc("fmin")
atan2 = ufunc("atan2")
hypot = ufunc("hypot")
copysign = ufunc("copysign")
nextafter = ufunc("nextafter")
logaddexp = ufunc("logaddexp")
heaviside = ufunc("heaviside")
equal = ufunc("equal")
not_equal = ufunc("not_equal")
less = ufunc("less")
less_equal = ufunc("less_equal")
greater = ufunc("greater")
greater_equal = ufunc("greater_equal")
logical_and = ufunc("logical_and")
logical_or = ufunc("logical_or")
logical_xor = ufunc("logical_xor")
logical_not = ufunc("logical_not")
bitwise_and = ufunc("bitwise_and")
bitwise_or = ufunc("bitwise_or")
bitwise_xor = ufunc("bitwise_xor")
bitwise_left_shift = ufunc("bitwise_left_shift")
bitwise_right_shift = ufunc("bitwise_right_shift")
bitwise_invert = ufunc("bitwise_invert")
abs = ufunc("abs")
negative = ufunc("negative")
positive = ufunc("positive")
square = ufunc("square")
reciprocal = ufunc("reciprocal")
sign = ufunc("sign")
floor = ufunc("floor")
ceil = ufunc("ceil")
trunc = ufunc("trunc")
round = ufunc("round")
isnan = ufunc("isnan")
isinf = ufunc("isinf")
isfinite = ufunc("isfinite")
signbit = ufunc("signbit")
real = ufunc("real")
imag = ufunc("imag")
conj = ufunc("conj")
angle = ufunc("angle")
exp2 = ufunc("exp2")
cbrt = ufunc("cbrt")
deg2rad = ufunc("deg2rad")
rad2deg = ufunc("rad2deg")
sin = ufunc("sin")
cos = ufunc("cos")
tan = ufunc("tan")
asin = ufunc("asin")
acos = ufunc("acos")
atan = ufunc("atan")
sinh = ufunc("sinh")
cosh = ufunc("cosh")
tanh = ufunc("tanh")
asinh = ufunc("asinh")
acosh = ufunc("acosh")
atanh = ufunc("atanh")
exp = ufunc("exp")
expm1 = ufunc("expm1")
log = ufunc("log")
log2 = ufunc("log2")
log10 = ufunc("log10")
log1p = ufunc("log1p")
sqrt = ufunc("sqrt")

# NumPy spellings of the same functions.
absolute = abs
conjugate = conj
true_divide = divide
power = pow
mod = remainder
arcsin, arccos, arctan, arctan2 = asin, acos, atan, atan2
arcsinh, arccosh, arctanh = asinh, acosh, atanh
invert = bitwise_invert
bitwise_not = bitwise_invert
left_shift, right_shift = bitwise_left_shift, bitwise_right_shift
degrees, radians = rad2deg, deg2rad


def clip(x, /, min=None, max=None, *, out=None):
    """Clamp x to [min, max] (either may be None). See also numpy.clip."""
    r = x
    if min is not None:
        r = maximum(r, min)
    if max is not None:
        r = minimum(r, max)
    if r is x:
        r = x.copy()
    if out is not None:
        out[...] = r
        return out
    return r


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise |a - b| <= atol + rtol * |b|. See also numpy.isclose."""
    close = less_equal(abs(subtract(a, b)), add(atol, multiply(rtol, abs(b))))
    close = logical_or(close, equal(a, b))
    if equal_nan:
        close = logical_or(close, logical_and(isnan(a), isnan(b)))
    return close


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf, -inf -> neginf (dtype limits by default)."""
    from ._dtypes import finfo, isdtype
    if not isdtype(x.dtype, ("real floating", "complex floating")):
        return x.copy() if copy else x
    fi = finfo(x.dtype)
    hi = fi.max if posinf is None else posinf
    lo = fi.min if neginf is None else neginf
    if isdtype(x.dtype, "complex floating"):
        re = nan_to_num(real(x), nan=nan, posinf=posinf, neginf=neginf)
        im = nan_to_num(imag(x), nan=nan, posinf=posinf, neginf=neginf)
        r = add(re, multiply(im, 1j))
    else:
        r = where(isnan(x), nan, x)
        r = where(logical_and(isinf(r), greater(r, 0)), hi, r)
        r = where(logical_and(isinf(r), less(r, 0)), lo, r)
    if not copy:
        x[...] = r
        return x
    return r


__all__ = [op.name for op in _optable.OPS.values()] + [
    "absolute", "conjugate", "true_divide", "power", "mod", "arcsin", "arccos", "arctan",
    "arctan2", "arcsinh", "arccosh", "arctanh", "invert", "bitwise_not", "left_shift",
    "right_shift", "degrees", "radians", "clip", "isclose", "nan_to_num", "where"]
