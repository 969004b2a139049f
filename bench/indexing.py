"""Indexing, sorting and set time: garray's CPU device next to NumPy, one run.

    python bench/indexing.py [--log2n 22] [--repeat 5]

Times (best of --repeat, milliseconds) for n = 2**log2n: boolean-mask selection of
float32 (half the elements set), an integer gather and scatter of n/4 random
positions of float32, nonzero of a bool mask, repeat, then sort and argsort of float32
and int64, unique of int64 and searchsorted of n/4 needles.  ratio = numpy time / garray
time, so > 1 means garray is faster.  A function garray does not have yet prints "n/a".
"""

import argparse
import os
import sys

import numpy

import garray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)


def cases(xp, log2n):
    """(op, shape, dtype, callable or None when xp lacks the function)."""
    n = 1 << log2n
    rng = numpy.random.default_rng(0)
    f32 = xp.asarray(rng.random(n, dtype=numpy.float32))
    i64 = xp.asarray(rng.integers(0, n, n, dtype=numpy.int64))
    mask = f32 > 0.5
    idx = xp.asarray(rng.integers(0, n, n // 4, dtype=numpy.int64))
    vals = xp.asarray(rng.random(n // 4, dtype=numpy.float32))
    small = xp.asarray(rng.integers(0, 1000, n, dtype=numpy.int64))
    needles = xp.asarray(rng.random(n // 4, dtype=numpy.float32))
    sorted_f32 = xp.asarray(numpy.sort(rng.random(n, dtype=numpy.float32)))
    target = xp.zeros(n, dtype="float32")

    def call(name, *a, **kw):
        f = getattr(xp, name, None)
        return None if f is None else (lambda: f(*a, **kw))

    def scatter():
        target[idx] = vals

    return [
        ("x[mask]", f"({n},)", "float32", lambda: f32[mask]),
        ("x[idx]", f"({n // 4},)", "float32", lambda: f32[idx]),
        ("x[idx] = v", f"({n // 4},)", "float32", scatter),
        ("nonzero", f"({n},)", "bool", call("nonzero", mask)),
        ("repeat 2", f"({n // 4},)", "float32", call("repeat", vals, 2)),
        ("sort", f"({n},)", "float32", call("sort", f32)),
        ("sort", f"({n},)", "int64", call("sort", i64)),
        ("argsort", f"({n},)", "float32", call("argsort", f32)),
        ("argsort", f"({n},)", "int64", call("argsort", i64)),
        ("unique", f"({n},)", "int64", call("unique", small)),
        ("searchsorted", f"({n // 4},)", "float32", call("searchsorted", sorted_f32, needles)),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=22)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; "
          f"n = 2**{args.log2n}; best of {args.repeat}; ratio = numpy / garray (> 1: garray faster)")
    print(f"{'op':<13} {'shape':<11} {'dtype':<8} {'garray ms':>10} {'numpy ms':>10} {'ratio':>6}")
    for (name, shape, dt, nf), (_, _, _, gf) in zip(cases(numpy, args.log2n),
                                                      cases(garray, args.log2n)):
        tn = best(nf, args.repeat)
        if gf is None:
            print(f"{name:<13} {shape:<11} {dt:<8} {'n/a':>10} {tn * 1e3:10.3f} {'n/a':>6}")
            continue
        tg = best(lambda: (gf(), sync()), args.repeat)
        print(f"{name:<13} {shape:<11} {dt:<8} {tg * 1e3:10.3f} {tn * 1e3:10.3f} {tn / tg:6.2f}")


if __name__ == "__main__":
    main()
