"""Launches of the random family (``_kernels/random.hip``, Note [Counter-based streams]).

Every draw reserves positions of its bit generator (``Philox._reserve``) and writes the
result on the output's device; the host computes only the launch arguments.  ``per`` is
how many blocks (or elements) one thread walks: a chunk on the CPU device, where g++
vectorises the loop, one on GPUs.  It never changes a value (``_debug_per`` forces it
in tests).
"""

from .._array_utils import ascontiguousarray
from .._core import _family_launch, broadcast_to, empty
from .._tables.random import (R_BITS, R_EXPONENTIAL, R_DIST, R_INT32, R_INT64, R_INT_ARR, R_NORMAL,
                          R_UNIFORM, RANDOM)

_PER = {"cpu": 256, "gpu": 1}
_debug = {"per": None}


def _debug_per(per=None):
    """Test hook: blocks (or elements) per thread for every random launch (None: the
    device's default).  Returns the previous setting."""
    old = _debug["per"]
    if per is not None and (not isinstance(per, int) or per < 1):
        raise ValueError(f"per: expected a positive int or None, got {per!r}")
    _debug["per"] = per
    return old


def _launch(out, slot, nitems, reserve, extra):
    """Run [out's dtype][slot] over ``nitems`` blocks or elements, reserving ``reserve``
    positions of the bit generator ``bitgen`` first."""
    bitgen, count = reserve
    key, lo, hi = bitgen._reserve(count)
    per = _debug["per"] or _PER["cpu" if out.device.kind == "cpu" else "gpu"]
    threads = -(-nitems // per)
    _family_launch(RANDOM, out.dtype, slot, threads, (out, out.size, key, lo, hi, per) + extra,
                   out, out.size)
    return out


def _new(shape, dtype, device, out):
    if out is not None:
        return out
    return empty(shape, dtype=dtype, device=device)


def bits(bitgen, shape, dtype, device=None, out=None, c3=0):
    """Raw Philox words: uint32 (4 per block) or uint64 (2 per block).  ``c3``: the
    counter's top word (0 for draws; known-answer tests set it)."""
    o = _new(shape, dtype, device, out)
    k = 4 if o.dtype.itemsize == 4 else 2
    nb = -(-o.size // k)
    if nb:
        _launch(o, R_BITS, nb, (bitgen, nb), (c3,))
    return o


def uniform(bitgen, shape, dtype, a=0.0, s=1.0, device=None, out=None):
    """a + s * u, u uniform in [0, 1) (float32: 24 bits, float64: 53 bits)."""
    o = _new(shape, dtype, device, out)
    k = 4 if o.dtype.itemsize == 4 else 2
    nb = -(-o.size // k)
    if nb:
        _launch(o, R_UNIFORM, nb, (bitgen, nb), (float(a), float(s)))
    return o


def normal(bitgen, shape, dtype, loc=0.0, scale=1.0, device=None, out=None):
    """loc + scale * z, z standard normal (Box-Muller, 2 per block)."""
    o = _new(shape, dtype, device, out)
    nb = -(-o.size // 2)
    if nb:
        _launch(o, R_NORMAL, nb, (bitgen, nb), (float(loc), float(scale)))
    return o


def exponential(bitgen, shape, dtype, scale=1.0, device=None, out=None):
    """scale * E, E standard exponential (-log(u), u in (0, 1] from 53 bits; 2 per
    block)."""
    o = _new(shape, dtype, device, out)
    nb = -(-o.size // 2)
    if nb:
        _launch(o, R_EXPONENTIAL, nb, (bitgen, nb), (float(scale),))
    return o


def integers(bitgen, low, span, shape, dtype, device=None, out=None):
    """low + [0, span) (span in [1, 2**64]), unbiased, wrapped into ``dtype``.  Reserves
    one position per value: retries read the element's own stream (note 4)."""
    o = _new(shape, dtype, device, out)
    n = o.size
    if n:
        low_bits = int(low) % (1 << 64)
        if span <= (1 << 32):
            _launch(o, R_INT32, -(-n // 4), (bitgen, n), (low_bits, span))
        else:
            _launch(o, R_INT64, -(-n // 2), (bitgen, n), (low_bits, span % (1 << 64)))
    return o


def dist(bitgen, kind, shape, dtype, a=0.0, b=0.0, c=0.0, device=None, out=None):
    """An element-stream distribution (``kind``: the number of its case in
    rand_continuous.h or rand_discrete.h); each parameter a float
    or a float64 garray array broadcast to ``shape`` (copied C-contiguous).  Reserves
    one position per value."""
    o = _new(shape, dtype, device, out)
    n = o.size
    if n == 0:
        return o
    args = []
    for p in (a, b, c):
        if isinstance(p, float):
            args += [None, p]
        else:
            arr = ascontiguousarray(broadcast_to(p, o.shape), dtype="float64")
            if arr.device != o.device:
                raise ValueError(f"parameter on {arr.device}, output on {o.device}")
            args += [arr, 0.0]
    _launch(o, R_DIST, n, (bitgen, n), (int(kind),) + tuple(args))
    return o


def integers_array(bitgen, low, span, dtype, out=None):
    """low[i] + [0, span[i]) per element (low, span: C-contiguous uint64 arrays of the
    output's shape; span 0 stands for 2**64), unbiased, wrapped into ``dtype``.  Every
    try reads element i's own stream: reserves one position per value (note 4)."""
    o = _new(low.shape, dtype, low.device, out)
    n = o.size
    if n:
        _launch(o, R_INT_ARR, n, (bitgen, n), (low, span))
    return o
