"""The FFT engine: Stockham mixed-radix stages and Bluestein's algorithm on the kernels of
``_kernels/fft.hip`` (Note [Stockham FFT] there; docs/fft.md).

Every function here takes and returns C-contiguous complex64/complex128 garray arrays
whose last axis is the transform axis; ``garray/fft/_fft.py`` moves axes, pads, crops and
casts (on the device, with garray's copy and cast kernels).
"""

import math
import threading
from collections import OrderedDict
from functools import lru_cache

import numpy

from .. import _dtypes
from .._core import _family_launch, empty
from .._tables.fft import (BLUE_FILTER, BLUE_MUL, BLUE_POST, BLUE_PRE, FFT, FFT_HERM,
                           FFT_SCALE, FFT_STAGE, FFT_TILE, FFT_TWIDDLE, IRFFT_PRE, RFFT_POST)

_RADICES = (4, 2, 3, 5, 7)
_PER_CPU = 256          # items per thread on the CPU device (note 5); 1 on GPUs
_CACHE_SIZE = 32        # twiddle tables and Bluestein filters kept per kind
# The tiled path (kernel note 6): columns per tile (fftk::LANES: 4 on the CPU device, 1 on
# GPUs), the shortest length it takes and the longest sub-transform (a CPU tile buffer is
# 4 L LANES reals: 128 KiB at L = 1024 for complex128, 1 MiB at L = 8192).
_LANES_CPU = 4
_TILE_MIN = 64
_TILE_MAX = 1 << 13
_twiddles = OrderedDict()
_filters = OrderedDict()
_lock = threading.Lock()      # threads may transform at once (the caches are shared)


def factor(n):
    """The Stockham radices of ``n`` (4s first), or None if n has another prime factor."""
    rad = []
    for r in _RADICES:
        while n % r == 0:
            rad.append(r)
            n //= r
    return rad if n == 1 else None


def _per(dev):
    return _PER_CPU if dev.kind == "cpu" else 1


def _lanes(dev):
    return _LANES_CPU if dev.kind == "cpu" else 1


def _tiled(dev):
    """Whether transforms on ``dev`` take the tiled path (the CPU device; GPUs run one
    launch per Stockham stage)."""
    return dev.kind == "cpu"


@lru_cache(maxsize=256)
def split(n):
    """(n1, n2) for the tiled path: n = n1 n2, n1 <= n2 the divisor of n nearest
    sqrt(n), or None when n is outside the path's lengths."""
    if n < _TILE_MIN:
        return None
    n1 = math.isqrt(n)
    while n % n1:
        n1 -= 1
    n2 = n // n1
    return (n1, n2) if n1 > 1 and n2 <= _TILE_MAX else None


def _cached(cache, key, build):
    with _lock:
        v = cache.get(key)
        if v is not None:
            cache.move_to_end(key)
            return v
    v = build()          # unlocked: a Bluestein filter's build transforms (twiddles)
    with _lock:
        cache[key] = v
        cache.move_to_end(key)
        while len(cache) > _CACHE_SIZE:
            cache.popitem(last=False)
    return v


def clear_caches():
    """Drop the cached twiddle tables and Bluestein filters (their device memory goes back
    to the pools)."""
    with _lock:
        _twiddles.clear()
        _filters.clear()


def twiddles(n, dtype, dev, rows=0):
    """tw[k] = exp(-2 pi i k / n), k < n, complex128 on ``dev`` (cached; one table serves
    both dtypes: the stages apply twiddles in double).  ``rows`` > 0: the tiled path's
    table of exp(-2 pi i q c / n), q < rows, c < n / rows, in its tiles' order (kernel
    note 6)."""
    dtype = numpy.dtype(_dtypes.complex128)
    lanes = _lanes(dev) if rows else 0
    count = rows * lanes * -(-(n // rows) // lanes) if rows else n

    def build():
        tw = empty((count,), dtype=dtype, device=dev)
        per = _per(dev)
        _family_launch(FFT, dtype, FFT_TWIDDLE,
                       -(-count // per), (tw, n, count, rows, lanes, per), tw, count * 16)
        return tw
    return _cached(_twiddles, (n, rows, dev), build)


def _stages(x, rad, inv, scale, owned):
    """The Stockham transform of the rows of contiguous ``x`` with radices ``rad``."""
    n = x.shape[-1]
    total = x.size
    dev, dtype = x.device, x.dtype
    if not rad:
        y = empty(x.shape, dtype=dtype, device=dev)
        per = _per(dev)
        _family_launch(FFT, dtype, FFT_SCALE, -(-total // per),
                       (y, x, total, per, float(scale)), y, total)
        return y
    sp = split(n) if _tiled(dev) else None
    if sp is not None:
        return _tiles(x, sp, inv, scale)
    tw = twiddles(n, dtype, dev)
    bufs = [empty(x.shape, dtype=dtype, device=dev)]
    bufs.append(x if owned else (empty(x.shape, dtype=dtype, device=dev)
                                 if len(rad) > 1 else None))
    src, ns = x, 1
    per = _per(dev)
    for i, r in enumerate(rad):
        dst = bufs[i % 2]
        items = total // r
        last = i == len(rad) - 1
        _family_launch(FFT, dtype, FFT_STAGE, -(-items // per),
                       (dst, src, tw, n, r, ns, items, per, int(inv),
                        float(scale) if last else 1.0), dst, total * 4)
        src, ns = dst, ns * r
    return src


def _tile_pass(dst, src, L, cols, tws, twn, ies, oes, ols, inv, scale):
    dev, dtype = src.device, src.dtype
    n = src.shape[-1]
    batch = src.size // n
    tiles = batch * -(-cols // _lanes(dev))
    # the tile buffers: per OS thread on the CPU device, 4 L reals per tile on GPUs
    work = None if dev.kind == "cpu" else empty((tiles * 2 * L,), dtype=dtype, device=dev)
    _family_launch(FFT, dtype, FFT_TILE, tiles,
                   (dst, src, tws, twn, work, L, cols, n, ies, oes, ols, tiles,
                    _lanes(dev), int(inv), float(scale)), dst, src.size * 4)


def _tiles(x, sp, inv, scale):
    """The tiled (four-step) transform of the rows of ``x`` (kernel note 6): n = n1 n2,
    x[q + n2 t] -> the n1-point DFTs over t of each column q, written as rows of n1; then in
    place, column c times W_n^(q c) and the n2-point DFTs over q, to X[c + n1 k]."""
    n1, n2 = sp
    dev, dtype = x.device, x.dtype
    y = empty(x.shape, dtype=dtype, device=dev)
    _tile_pass(y, x, n1, n2, twiddles(n1, dtype, dev), None, n2, 1, n1, inv, 1.0)
    _tile_pass(y, y, n2, n1, twiddles(n2, dtype, dev), twiddles(x.shape[-1], dtype, dev, n2),
               n1, n1, 1, inv, scale)
    return y


def _bluestein_filter(n, m, inv, dtype, dev):
    def build():
        f = empty((m,), dtype=dtype, device=dev)
        per = _per(dev)
        _family_launch(FFT, dtype, BLUE_FILTER, -(-m // per),
                       (f, n, m, per, int(inv)), f, m * 16)
        return _stages(f, factor(m), False, 1.0, True)
    return _cached(_filters, (n, m, bool(inv), dtype.str, dev), build)


def _bluestein(x, inv, scale):
    n = x.shape[-1]
    dev, dtype = x.device, x.dtype
    batch = x.size // n
    m = 1 << (2 * n - 2).bit_length()     # a power of two >= 2n - 1
    per = _per(dev)
    code = _dtypes.DTYPE_CODE[dtype]
    a = empty((batch, m), dtype=dtype, device=dev)
    _family_launch(FFT, code, BLUE_PRE, -(-(batch * m) // per),
                   (a, x, n, m, batch * m, per, int(inv)), a, batch * m * 16)
    rad = factor(m)
    a = _stages(a, rad, False, 1.0, True)
    f = _bluestein_filter(n, m, inv, dtype, dev)
    _family_launch(FFT, code, BLUE_MUL, -(-(batch * m) // per),
                   (a, a, f, m, batch * m, per, 1.0 / m), a, batch * m * 4)
    c = _stages(a, rad, True, 1.0, True)
    y = empty(x.shape, dtype=dtype, device=dev)
    _family_launch(FFT, code, BLUE_POST, -(-(batch * n) // per),
                   (y, c, n, m, batch * n, per, int(inv), float(scale)), y, batch * n * 16)
    return y


def c2c(x, inv, scale, owned=False):
    """The DFT (``inv``: the unnormalised inverse) of the rows of contiguous complex ``x``,
    times ``scale``; a new array unless x is empty.  ``owned``: x may be overwritten."""
    n = x.shape[-1]
    if x.size == 0:
        return empty(x.shape, dtype=x.dtype, device=x.device)
    if n >= 1 << 31:
        raise NotImplementedError(f"fft: transforms of length {n} >= 2**31 are not "
                                  f"supported by garray's kernels")
    rad = factor(n)
    if rad is None:
        return _bluestein(x, inv, scale)
    return _stages(x, rad, inv, scale, owned)


def hermitian_full(x, n):
    """The full Hermitian spectrum of length ``n`` from the rows of contiguous ``x``
    (n//2 + 1 values each)."""
    h = x.shape[-1]
    y = empty(x.shape[:-1] + (n,), dtype=x.dtype, device=x.device)
    total = y.size
    if total:
        per = _per(x.device)
        _family_launch(FFT, x.dtype, FFT_HERM,
                       -(-total // per), (y, x, n, h, total, per), y, total * 4)
    return y


def rfft_even(xr, scale):
    """The rfft (n//2 + 1 values per row, times ``scale``) of the rows of contiguous real
    ``xr`` (float32/float64) of even length n (note 4 of the kernel file)."""
    n = xr.shape[-1]
    h = n // 2
    cdt = numpy.dtype(_dtypes.complex64 if xr.dtype == _dtypes.float32
                      else _dtypes.complex128)
    dev = xr.device
    out = empty(xr.shape[:-1] + (h + 1,), dtype=cdt, device=dev)
    if out.size == 0:
        return out
    z = c2c(xr.view(cdt), False, 1.0, False)
    tw = twiddles(n, cdt, dev)
    total = out.size
    per = _per(dev)
    _family_launch(FFT, cdt, RFFT_POST, -(-total // per),
                   (out, z, tw, h, total, per, float(scale)), out, total * 8)
    return out


def irfft_even(x, n, scale):
    """The irfft (real rows of even length ``n``, times ``scale``) of the rows of
    contiguous complex ``x`` (n//2 + 1 values each; note 4 of the kernel file)."""
    h = n // 2
    cdt = x.dtype
    rdt = numpy.dtype(_dtypes.float32 if cdt == _dtypes.complex64 else _dtypes.float64)
    dev = x.device
    z = empty(x.shape[:-1] + (h,), dtype=cdt, device=dev)
    if z.size == 0:
        return empty(x.shape[:-1] + (n,), dtype=rdt, device=dev)
    tw = twiddles(n, cdt, dev)
    total = z.size
    per = _per(dev)
    _family_launch(FFT, cdt, IRFFT_PRE, -(-total // per),
                   (z, x, tw, h, total, per), z, total * 8)
    return c2c(z, True, scale, True).view(rdt)
