"""Elementwise throughput and per-call time: garray's CPU device next to NumPy, one run.

    python bench/elementwise.py [--log2n 24] [--repeat 5]

Throughput is bytes read + written per second (GB/s) for add, multiply, exp and where on
2**log2n float32 and float64 elements, contiguous, strided (every other element of a
2x larger array) and broadcast (a row against a matrix); per-call time is for a
16-element float32 add on a warm cache.
"""

import argparse
import time
import timeit

import numpy

import garray


def best(fn, repeat):
    fn()   # warm: compile / caches
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return min(ts)


def cases(xp, n, dt):
    big = xp.ones(2 * n, dtype=dt)
    a, b = xp.ones(n, dtype=dt), xp.ones(n, dtype=dt) * 2
    sa, sb = big[::2], (big * 2)[::2]
    rows = 1 << 10
    m, row = xp.ones((n // rows, rows), dtype=dt), xp.ones(rows, dtype=dt)
    cond = a > 0
    item = numpy.dtype(dt).itemsize
    return [
        ("add", "contiguous", lambda: xp.add(a, b), 3 * n * item),
        ("add", "strided", lambda: xp.add(sa, sb), 3 * n * item),
        ("add", "broadcast", lambda: xp.add(m, row), 2 * n * item),
        ("multiply", "contiguous", lambda: xp.multiply(a, b), 3 * n * item),
        ("exp", "contiguous", lambda: xp.exp(a), 2 * n * item),
        ("exp", "strided", lambda: xp.exp(sa), 2 * n * item),
        ("where", "contiguous", lambda: xp.where(cond, a, b), (3 * item + 1) * n),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=24)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n = 1 << args.log2n
    print(f"garray {garray.__version__} on {garray.default_device()}; numpy {numpy.__version__}; "
          f"n = 2**{args.log2n}; best of {args.repeat}")
    print(f"{'op':<9} {'layout':<11} {'dtype':<8} {'numpy GB/s':>10} {'garray GB/s':>11} {'ratio':>6}")
    for dt in ("float32", "float64"):
        rows = zip(cases(numpy, n, dt), cases(garray, n, dt))
        for (name, layout, nf, nbytes), (_, _, gf, _) in rows:
            tn, tg = best(nf, args.repeat), best(gf, args.repeat)
            print(f"{name:<9} {layout:<11} {dt:<8} {nbytes / tn / 1e9:10.2f} "
                  f"{nbytes / tg / 1e9:11.2f} {tn / tg:6.2f}")
    for label, stmt in [("a + b", "a + b"), ("add(a, b)", "xp.add(a, b)"), ("a + 1.0", "a + 1.0")]:
        per = []
        for xp in (numpy, garray):
            env = {"xp": xp, "a": xp.ones(16, dtype="float32"), "b": xp.ones(16, dtype="float32")}
            per.append(min(timeit.repeat(stmt, globals=env, number=100000, repeat=5)) / 1e5 * 1e6)
        print(f"per call, 16-element float32 {label:<10} numpy {per[0]:.3f} us  garray "
              f"{per[1]:.3f} us  ratio {per[0] / per[1]:.2f}")


if __name__ == "__main__":
    main()
