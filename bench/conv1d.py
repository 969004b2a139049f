"""1-d convolution time: ``garray.convolve`` next to ``numpy.convolve``, one run.

    python bench/conv1d.py [--quick] [--repeat 3]

A 2**20-sample signal convolved ('full') with a 1,000-tap filter (about 1e9
multiply-adds), float64 and float32; milliseconds, best of --repeat after a warm-up call
(that also compiles), garray synchronised before each timing stops.  ratio = numpy time /
garray time, so > 1 means garray is faster.  ``--quick``: a 2**16 signal, 1,000 taps.

garray runs its direct kernel (_kernels/signal.hip, Note [Direct correlation]): on the
CPU device each thread accumulates 256 consecutive outputs, tap by tap, in a loop g++
vectorises, and the launch pool splits the threads over GARRAY_CPU_THREADS cores; NumPy
computes one dot product per output on one thread.  ``bench/conv.py`` calls
``bench_convolve1d``.
"""

import argparse

from _timing import best as _best  # noqa: E402  (before NumPy: it fixes sys.path)

import numpy  # noqa: E402

import garray  # noqa: E402


def bench_convolve1d(quick=False, repeat=3):
    """Print garray.convolve against numpy.convolve (2**20 x 1000 taps, 'full'; 2**16 with
    ``quick``), float64 and float32.  Returns [(dtype, numpy s, garray s, ratio)]."""
    n, taps = (1 << 16 if quick else 1 << 20), 1000
    rng = numpy.random.default_rng(0)
    rows = []
    dev = garray.asarray([0]).device
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"convolve 1-d, signal {n}, filter {taps} taps, mode 'full', device {dev}")
    print(f"{'dtype':>8} {'numpy ms':>10} {'garray ms':>10} {'ratio':>7}  max rel err")
    for dt in ("float64", "float32"):
        a = rng.standard_normal(n).astype(dt)
        v = rng.standard_normal(taps).astype(dt)
        ga, gv = garray.asarray(a), garray.asarray(v)
        tn = _best(lambda: numpy.convolve(a, v), lambda: None, repeat)
        tg = _best(lambda: garray.convolve(ga, gv), sync, repeat)
        ref = numpy.convolve(a.astype("float64"), v.astype("float64"))
        err = float(numpy.max(numpy.abs(garray.convolve(ga, gv).get() - ref))
                    / numpy.max(numpy.abs(ref)))
        rows.append((dt, tn, tg, tn / tg))
        print(f"{dt:>8} {tn * 1e3:10.1f} {tg * 1e3:10.1f} {tn / tg:7.2f}  {err:.1e}")
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    bench_convolve1d(args.quick, args.repeat)


if __name__ == "__main__":
    main()
