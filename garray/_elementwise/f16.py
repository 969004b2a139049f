"""Narrow-float ops whose result depends on the format itself.

Most float16, bfloat16 and float8 ops run float32's kernel and round once (Note [Dtype
rules] 6 in garray/_tables/ops.py), which is NumPy's float16 loop and ml_dtypes' loops.
``spacing`` and ``nextafter`` cannot: their answer is a step of the format's grid, not a
rounded float32 value.  They work on the bits with garray's integer ops: for float16
following NumPy's ``npy_half_spacing`` and ``npy_half_nextafter``
(numpy/_core/src/npymath/halffloat.cpp) case by case, for ml_dtypes' formats following
ml_dtypes (its spacing is the step away from zero, signed as x: the value of the bits
one up, minus x).  The op table names them (``Op.f16``); the launch layer calls them with
arrays of the narrow dtype.
"""

from .. import _dtypes
from .._manip.views import broadcast_arrays
from .._core import where

_NAN, _INF, _MAX = 0x7E00, 0x7C00, 0x7BFF
# Each format: (its bits' dtype, the sign bit, the NaN the ops return, whether
# nextafter(x, y) with x == y gives x's bits (NumPy's float16) or y's (ml_dtypes, as C)).
_FORMATS = {_dtypes.DTYPES[13]: (_dtypes.uint16, 0x8000, _NAN, True),
            _dtypes.DTYPES[14]: (_dtypes.uint16, 0x8000, 0x7FC0, False),
            _dtypes.DTYPES[15]: (_dtypes.uint8, 0x80, 0x7F, False),
            _dtypes.DTYPES[16]: (_dtypes.uint8, 0x80, 0x7E, False)}


def _bits(x):
    return x.view(_FORMATS[x.dtype][0]).astype(_dtypes.int32)


def _half(bits, dt=_dtypes.DTYPES[13]):
    return bits.astype(_FORMATS[dt][0]).view(dt)


def _ml_spacing(x):
    """ml_dtypes' spacing: the value of x's bits one up (away from zero, the sign kept)
    minus x, exact in the format; inf past the largest value (NaN for float8_e4m3fn, which
    has no inf), NaN at inf and NaN."""
    up = _half(_bits(x) + 1, x.dtype).astype(_dtypes.float32)
    r = (up - x.astype(_dtypes.float32)).astype(x.dtype)
    return where(x != x, x, r)


def spacing(x):
    """NumPy's float16 spacing: the gap above |x| (below it for a negative power of two:
    NumPy's half rule), positive; inf at the largest finite value, NaN at inf/NaN.
    ml_dtypes' formats: _ml_spacing."""
    if x.dtype != _dtypes.float16:
        return _ml_spacing(x)
    h = _bits(x)
    e, sig = h & _INF, h & 0x3FF
    # NumPy's shifts: 1 << ((e >> 10) - 1) and (e >> 10) - 2, taken only where e > 0x400
    sh = (e >> 10) - 1
    sub = (sh >= 1) * (1 << sh.clip(0, 30))
    sub_neg = (sh >= 2) * (1 << (sh - 1).clip(0, 30))
    pos = where(e > 0x2800, e - 0x2800, where(e > 0x400, sub, 1))
    neg = where(e > 0x2C00, e - 0x2C00, where(e > 0x400, sub_neg, 1))
    r = where(((h & 0x8000) != 0) & (sig == 0), neg, pos)
    r = where(h == _MAX, _INF, r)
    return _half(where(e == _INF, _NAN, r))


def nextafter(x, y):
    """One step of x's bits towards y: NaN if either is NaN, the smallest subnormal with
    y's sign from a zero x, x where x == y (NumPy's float16; ml_dtypes' formats give y,
    as C's nextafter: nextafter(-0.0, 0.0) is 0.0).  A step past the largest value of
    float8_e4m3fn lands on its NaN, as ml_dtypes'."""
    _, sign, nan, keep_x = _FORMATS[x.dtype]
    x, y = broadcast_arrays(x, y)
    hx, hy = _bits(x), _bits(y)
    mag = sign - 1
    down = where((hx & sign) == 0, x > y, ((hy & sign) == 0) | ((hx & mag) > (hy & mag)))
    r = where(down, hx - 1, hx + 1)
    r = where((hx & mag) == 0, (hy & sign) + 1, r)
    r = where(x == y, hx if keep_x else hy, r)
    return _half(where((x != x) | (y != y), nan, r), x.dtype)
