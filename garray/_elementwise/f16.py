"""float16 ops whose result depends on the float16 format itself.

Most float16 ops run float32's kernel and round once (Note [Dtype rules] 6 in
garray/_tables/ops.py), which is NumPy's float16 loop.  ``spacing`` and ``nextafter``
cannot: their answer is a step of the float16 grid, not a rounded float32 value.  They
work on the binary16 bits with garray's integer ops, following NumPy's
``npy_half_spacing`` and ``npy_half_nextafter`` (numpy/_core/src/npymath/halffloat.cpp)
case by case.  The op table names them (``Op.f16``); the launch layer calls them with
float16 arrays.
"""

from .. import _dtypes
from .._manip.views import broadcast_arrays
from .._core import where

_NAN, _INF, _MAX = 0x7E00, 0x7C00, 0x7BFF


def _bits(x):
    return x.view(_dtypes.uint16).astype(_dtypes.int32)


def _half(bits):
    return bits.astype(_dtypes.uint16).view(_dtypes.float16)


def spacing(x):
    """NumPy's float16 spacing: the gap above |x| (below it for a negative power of two:
    NumPy's half rule), positive; inf at the largest finite value, NaN at inf/NaN."""
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
    """NumPy's float16 nextafter: NaN if either is NaN, x where x == y, the smallest
    subnormal with y's sign from a zero x, else one step of x's bits towards y."""
    x, y = broadcast_arrays(x, y)
    hx, hy = _bits(x), _bits(y)
    down = where((hx & 0x8000) == 0, x > y,
                 ((hy & 0x8000) == 0) | ((hx & 0x7FFF) > (hy & 0x7FFF)))
    r = where(down, hx - 1, hx + 1)
    r = where((hx & 0x7FFF) == 0, (hy & 0x8000) + 1, r)
    r = where(x == y, hx, r)
    return _half(where((x != x) | (y != y), _NAN, r))
