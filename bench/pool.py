"""Pooling throughput: garray.nn's max/avg pooling next to NumPy (sliding windows), one run.

    python bench/pool.py [--quick] [--repeat 5]

NumPy baseline: ``numpy.lib.stride_tricks.sliding_window_view`` then ``max``/``mean`` over
the window axes (no padding; the same output).  Also a garray copy of the input (a pure
memory pass) for scale.  Times are the best of ``repeat`` after a warm-up, the device
synchronised before each timing stops.  ratio = numpy time / garray time (> 1: garray
faster).  GB/s counts the input read once plus the output written.
"""

import argparse
import time

import numpy
from numpy.lib.stride_tricks import sliding_window_view

import garray
import garray.nn as gnn


def best(fn, repeat):
    fn()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts)


def numpy_pool(x, k, s, op):
    w = sliding_window_view(x, k, axis=tuple(range(2, 2 + len(k))))
    w = w[(slice(None), slice(None)) + tuple(slice(None, None, st) for st in s)]
    axes = tuple(range(-len(k), 0))
    return w.max(axis=axes) if op == "max" else w.mean(axis=axes)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="small shapes, best of 2")
    args = ap.parse_args()
    repeat = 2 if args.quick else args.repeat
    n, c, hw = (4, 16, 56) if args.quick else (16, 64, 112)
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray on {dev}; input ({n}, {c}, {hw}, {hw}); best of {repeat}; "
          f"ratio = numpy / garray time (> 1: garray faster)")
    print(f"{'case':<26} {'dtype':<8} {'garray ms':>10} {'GB/s':>7} {'numpy ms':>10} "
          f"{'ratio':>6}")
    for dt in ("float32", "float64"):
        xn = numpy.random.default_rng(0).standard_normal((n, c, hw, hw)).astype(dt)
        x = garray.asarray(xn)
        tc = best(lambda: (x.copy(), sync()), repeat)
        gb = 2 * xn.nbytes / tc / 1e9
        print(f"{'copy (memory pass)':<26} {dt:<8} {tc * 1e3:10.2f} {gb:7.1f} {'':>10} {'':>6}")
        for label, op, k, s in (("max 2x2 s2", "max", (2, 2), (2, 2)),
                                ("max 3x3 s2", "max", (3, 3), (2, 2)),
                                ("max 3x3 s1", "max", (3, 3), (1, 1)),
                                ("avg 2x2 s2", "avg", (2, 2), (2, 2)),
                                ("avg 3x3 s1", "avg", (3, 3), (1, 1))):
            f = gnn.max_pool2d if op == "max" else gnn.avg_pool2d
            y = f(x, k, s)
            tg = best(lambda: (f(x, k, s), sync()), repeat)
            tn = best(lambda: numpy_pool(xn, k, s, op), repeat)
            gb = (xn.nbytes + y.size * xn.itemsize) / tg / 1e9
            print(f"{label:<26} {dt:<8} {tg * 1e3:10.2f} {gb:7.1f} {tn * 1e3:10.2f} "
                  f"{tn / tg:6.2f}", flush=True)


if __name__ == "__main__":
    main()
