"""Reduction and scan time: garray's CPU device next to NumPy, one run.

    python bench/reduction.py [--log2n 24] [--repeat 5]

Times (best of --repeat, milliseconds) for sum of 2**log2n float32 (all axes), sum over
axis 0 and axis -1 of a square float32 matrix of 2**log2n elements (4096 x 4096 at the
default), mean and std of 2**(log2n-2) float64, argmax of 2**log2n float32, cumsum of
2**(log2n-2) float64 and count_nonzero of 2**log2n bool; then per-call time for sum and
argmax of 16 float32 elements on a warm cache.  ratio = numpy time / garray time, so > 1
means garray is faster.  A function garray does not have yet prints "n/a" in its row.
"""

import argparse
import os
import sys
import time
import timeit

import numpy

import garray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)


def _fn(xp, name):
    return getattr(xp, name, None)


def cases(xp, log2n):
    """(op, shape, dtype, callable or None when xp lacks the function)."""
    n, m = 1 << log2n, 1 << (log2n - 2)
    side = 1 << (log2n // 2)
    f32 = xp.ones(n, dtype="float32") * 0.5
    mat = xp.ones((side, n // side), dtype="float32") * 0.5
    f64 = xp.ones(m, dtype="float64") * 0.5
    ramp = xp.ones(n, dtype="float32")     # argmax: the maximum at the end, a full scan
    ramp[n - 1] = 2.0
    mask = (xp.arange(n) % 3) == 0

    def call(name, *a, **kw):
        f = _fn(xp, name)
        return None if f is None else (lambda: f(*a, **kw))

    return [
        ("sum", f"({n},)", "float32", call("sum", f32)),
        ("sum axis=0", f"{mat.shape}", "float32", call("sum", mat, axis=0)),
        ("sum axis=-1", f"{mat.shape}", "float32", call("sum", mat, axis=-1)),
        ("mean", f"({m},)", "float64", call("mean", f64)),
        ("std", f"({m},)", "float64", call("std", f64)),
        ("argmax", f"({n},)", "float32", call("argmax", ramp)),
        ("cumsum", f"({m},)", "float64", call("cumsum", f64)),
        ("count_nonzero", f"({n},)", "bool", call("count_nonzero", mask)),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=24)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; "
          f"n = 2**{args.log2n}; best of {args.repeat}; ratio = numpy / garray (> 1: garray faster)")
    print(f"{'op':<13} {'shape':<14} {'dtype':<8} {'garray ms':>10} {'numpy ms':>10} {'ratio':>6}")
    for (name, shape, dt, nf), (_, _, _, gf) in zip(cases(numpy, args.log2n),
                                                      cases(garray, args.log2n)):
        if gf is None:
            print(f"{name:<13} {shape:<14} {dt:<8} {'n/a':>10} {best(nf, args.repeat) * 1e3:10.3f} "
                  f"{'n/a':>6}")
            continue
        tg = best(lambda: (gf(), sync()), args.repeat)
        tn = best(nf, args.repeat)
        print(f"{name:<13} {shape:<14} {dt:<8} {tg * 1e3:10.3f} {tn * 1e3:10.3f} {tn / tg:6.2f}")
    for label, fname in [("sum(a)", "sum"), ("argmax(a)", "argmax")]:
        per = []
        for xp in (garray, numpy):
            if _fn(xp, fname) is None:
                per.append(None)
                continue
            env = {"xp": xp, "a": xp.ones(16, dtype="float32")}
            per.append(min(timeit.repeat(f"xp.{label}", globals=env, number=20000, repeat=5))
                       / 2e4 * 1e6)
        g = "n/a" if per[0] is None else f"{per[0]:.3f} us"
        r = "n/a" if per[0] is None else f"{per[1] / per[0]:.2f}"
        print(f"per call, 16-element float32 {label:<10} garray {g}  numpy {per[1]:.3f} us  "
              f"ratio {r}")


if __name__ == "__main__":
    main()
