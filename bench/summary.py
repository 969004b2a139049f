"""Every CPU-speed row in one table, worst first: garray next to the NumPy call a user makes.

    python bench/summary.py [--rounds 5] [--quick] [--load] [--only SUBSTRING]

Each row times garray's call and NumPy's default call (``numpy.sort(x)``, never a slower
``kind=``) alternately in one process.  A round takes the best of a few calls of each (a
call that takes microseconds is looped to about 20 ms); the figure printed is the median
over --rounds rounds.  ratio = NumPy's time / garray's time, so > 1 means garray is
faster.  --load starts one busy-loop process that holds a core for the whole run (the
"loaded machine" column of docs/performance.md).  Sizes are 2**22 elements unless the
row says otherwise; --quick divides them by 16 for a smoke run.
"""

import argparse
import multiprocessing
import os
import statistics
import sys
import time

import _timing  # noqa: F401  (moves bench/ to the end of sys.path; before NumPy)
import numpy

import garray


def _spin(stop):
    while not stop.is_set():
        pass


def _timed(fn, sync, number):
    t = time.perf_counter()
    for _ in range(number):
        fn()
    sync()
    return (time.perf_counter() - t) / number


def _calibrate(fn, sync):
    """Calls per timing so that one timing lasts about 20 ms (at least one call)."""
    fn()
    sync()
    one = _timed(fn, sync, 1)
    return max(1, min(100_000, int(0.02 / max(one, 1e-9))))


def rows(n):
    """(name, garray callable, numpy callable) for every row of the summary."""
    rng = numpy.random.default_rng(0)
    out = []

    def add(name, ga_fn, np_fn):
        out.append((name, ga_fn, np_fn))

    def both(name, fn, *arrays):
        g = [garray.asarray(a) for a in arrays]
        add(name, lambda: fn(garray, *g), lambda: fn(numpy, *arrays))

    f32 = rng.standard_normal(n).astype(numpy.float32)
    f64 = rng.standard_normal(n)
    i64 = rng.integers(-2**62, 2**62, n)
    boolean = rng.random(n) < 0.5
    small = rng.standard_normal(16)
    # Elementwise, contiguous and strided.
    both("add float32", lambda xp, a: xp.add(a, a), f32)
    both("multiply float64", lambda xp, a: xp.multiply(a, a), f64)
    both("exp float32", lambda xp, a: xp.exp(a), f32)
    both("exp float32 x[::2]", lambda xp, a: xp.exp(a[::2]), f32)
    both("sin float64", lambda xp, a: xp.sin(a), f64)
    both("a * b + c (float32)", lambda xp, a: a * a + a, f32)
    both("astype float32->float64", lambda xp, a: a.astype(xp.float64), f32)
    # Creation.
    add("ones float32", lambda: garray.ones(n, dtype=garray.float32),
        lambda: numpy.ones(n, dtype=numpy.float32))
    add("eye(2048)", lambda: garray.eye(2048), lambda: numpy.eye(2048))
    add("arange float64", lambda: garray.arange(float(n)), lambda: numpy.arange(float(n)))
    # Reductions.
    both("sum float32", lambda xp, a: xp.sum(a), f32)
    both("x.sum() float64", lambda xp, a: a.sum(), f64)
    both("max float32", lambda xp, a: xp.max(a), f32)
    both("mean float64", lambda xp, a: xp.mean(a), f64)
    both("std float64 (n/4)", lambda xp, a: xp.std(a), f64[: n // 4])
    both("argmax float64", lambda xp, a: xp.argmax(a), f64)
    both("count_nonzero bool", lambda xp, a: xp.count_nonzero(a), boolean)
    both("nonzero bool", lambda xp, a: xp.nonzero(a), boolean)
    both("cumsum float64", lambda xp, a: xp.cumsum(a), f64)
    both("sum axis=1 (2048 x n/2048)", lambda xp, a: xp.sum(a, axis=1),
         f32.reshape(2048, -1))
    # Sorting and searching.
    both("sort float32", lambda xp, a: xp.sort(a), f32)
    both("sort int64", lambda xp, a: xp.sort(a), i64)
    both("argsort float32", lambda xp, a: xp.argsort(a), f32)
    both("unique int64 (1000 distinct)", lambda xp, a: xp.unique(a),
         rng.integers(0, 1000, n))
    hay = numpy.sort(f32)
    both("searchsorted (n/4 needles)", lambda xp, h, q: xp.searchsorted(h, q), hay,
         f32[: n // 4])
    # Scatter, gather, segments.
    seg = n // 64
    starts = numpy.arange(0, n, 64)
    both(f"add.reduceat ({seg} segments of 64)",
         lambda xp, a, s: xp.add.reduceat(a, s), f64, starts)
    idx_at = rng.integers(0, 1000, 100_000)
    vals_at = rng.standard_normal(100_000)

    def at(xp, t, i, v):
        xp.add.at(t, i, v)
    both("add.at (1e5 indices, 1e3 targets)", at, numpy.zeros(1000), idx_at, vals_at)
    idx = rng.integers(0, n, n // 4)
    both("take (n/4 random)", lambda xp, a, i: xp.take(a, i), f32, idx)

    def setitem(xp, a, i):
        a[i] = 1.0
    both("x[idx] = v (n/4 random)", setitem, f32.copy(), idx)
    both("repeat float32 (n/4, 4)", lambda xp, a: xp.repeat(a, 4), f32[: n // 4])
    both("concatenate 2 x float32", lambda xp, a: xp.concatenate([a, a]), f32)
    both("transpose copy (2048 x n/2048)", lambda xp, a: xp.ascontiguousarray(a.T),
         f32.reshape(2048, -1))
    # Random.
    m = n // 4
    for name, call in (("permutation", lambda g: g.permutation(m)),
                       ("standard_gamma(2.0)", lambda g: g.standard_gamma(2.0, m)),
                       ("standard_normal", lambda g: g.standard_normal(m)),
                       ("random", lambda g: g.random(m)),
                       ("integers(0, 100)", lambda g: g.integers(0, 100, m))):
        gg, gn = garray.random.default_rng(0), numpy.random.default_rng(0)
        add(f"Generator.{name} (n/4)", lambda c=call, g=gg: c(g), lambda c=call, g=gn: c(g))
    # GEMM and FFT.
    for k in (128, 512, 1024):
        for dt in (numpy.float32, numpy.float64):
            a = rng.standard_normal((k, k)).astype(dt)
            both(f"matmul {k} {numpy.dtype(dt).name}", lambda xp, a: a @ a, a)
    both("fft complex128 (n/4)", lambda xp, a: xp.fft.fft(a), f64[: n // 4] + 0j)
    both("rfft float64 (n/4)", lambda xp, a: xp.fft.rfft(a), f64[: n // 4])
    # Per call, 16 elements.
    both("per call: argmax(x16)", lambda xp, a: xp.argmax(a), small)
    both("per call: x16.argmax()", lambda xp, a: a.argmax(), small)
    both("per call: x16.sum()", lambda xp, a: a.sum(), small)
    both("per call: max(x16)", lambda xp, a: xp.max(a), small)
    both("per call: x16 + x16", lambda xp, a: a + a, small)
    both("per call: sin(x16)", lambda xp, a: xp.sin(a), small)
    both("per call: x16 @ x16", lambda xp, a: a @ a, small)
    both("per call: x16[3]", lambda xp, a: a[3], small)
    both("per call: x16[1:-1]", lambda xp, a: a[1:-1], small)
    both("per call: x16[idx4]", lambda xp, a, i: a[i], small, numpy.array([1, 3, 5, 7]))
    both("per call: x16.reshape(4, 4)", lambda xp, a: a.reshape(4, 4), small)
    lst = [1.0, 2.0, 3.0, 4.0]
    add("per call: asarray(list)", lambda: garray.asarray(lst), lambda: numpy.asarray(lst))
    add("per call: zeros(16)", lambda: garray.zeros(16), lambda: numpy.zeros(16))
    return out


def measure(cases, rounds, sync):
    table = []
    for name, gf, nf in cases:
        ng, nn = _calibrate(gf, sync), _calibrate(nf, lambda: None)
        tg, tn = [], []
        for _ in range(rounds):
            tn.append(min(_timed(nf, lambda: None, nn) for _ in range(2)))
            tg.append(min(_timed(gf, sync, ng) for _ in range(2)))
        g, m = statistics.median(tg), statistics.median(tn)
        table.append((m / g, name, g, m))
    return sorted(table)


def _fmt(t):
    return f"{t * 1e3:10.3f} ms" if t >= 1e-4 else f"{t * 1e6:10.3f} us"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--load", action="store_true")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    n = 1 << (18 if args.quick else 22)
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    spinner = stop = None
    if args.load:
        stop = multiprocessing.Event()
        spinner = multiprocessing.Process(target=_spin, args=(stop,), daemon=True)
        spinner.start()
    try:
        cases = [c for c in rows(n) if args.only in c[0]]
        table = measure(cases, args.rounds, sync)
    finally:
        if spinner is not None:
            stop.set()
            spinner.join()
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; "
          f"{os.cpu_count()} cores; n = {n}; median of {args.rounds} rounds"
          f"{'; one core held by a busy loop' if args.load else ''}")
    print(f"{'row':<40} {'numpy':>13} {'garray':>13} {'ratio':>6}")
    for ratio, name, g, m in table:
        print(f"{name:<40} {_fmt(m)} {_fmt(g)} {ratio:6.2f}")
    below = sum(r < (0.8 if args.load else 1.0) for r, *_ in table)
    print(f"{below} of {len(table)} rows below {0.8 if args.load else 1.0}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
