"""Random number generation time: garray's Philox Generator next to NumPy's Generator
(default_rng, PCG64), one run.

    python bench/random.py [--log2n 24] [--repeat 5] [--quick]

Milliseconds (best of --repeat, after a warm-up call that also compiles) to draw 2**log2n
values: ``random`` float32 and float64, ``standard_normal`` float64, ``integers(0, 1000)``
and ``integers(0, 2**40)`` int64, ``standard_exponential`` float64, and, where garray's
Generator has them, ``exponential`` float64 and ``permutation(2**20)``.  garray is
synchronised before each timing stops.  ratio = numpy time / garray time, so > 1 means
garray is faster.  ``--quick`` draws 2**20 values, best of 2.

On the CPU device garray's random kernels split the draw over the launch pool's threads
(GARRAY_CPU_THREADS); NumPy's Generator runs on one thread.
"""

import argparse
import os
import sys

# This file's name is the standard library's `random`: while its folder heads sys.path
# (as it does for `python bench/random.py`), any `import random` below (tempfile,
# secrets ...) would load this script instead.  So the folder goes to the end.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE] + [_HERE]

import numpy  # noqa: E402

import garray  # noqa: E402
import garray.random  # noqa: E402
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)


def cases(n):
    """(label, dtype, garray callable, numpy callable); optional methods only where
    garray's Generator has them."""
    g, r = garray.random.default_rng(0), numpy.random.default_rng(0)
    out = [
        ("random", "float32", lambda: g.random(n, dtype="float32"),
         lambda: r.random(n, dtype="float32")),
        ("random", "float64", lambda: g.random(n), lambda: r.random(n)),
        ("standard_normal", "float64", lambda: g.standard_normal(n),
         lambda: r.standard_normal(n)),
        ("integers(0, 1000)", "int64", lambda: g.integers(0, 1000, n),
         lambda: r.integers(0, 1000, n)),
        ("integers(0, 2**40)", "int64", lambda: g.integers(0, 1 << 40, n),
         lambda: r.integers(0, 1 << 40, n)),
        ("standard_exponential", "float64", lambda: g.standard_exponential(n),
         lambda: r.standard_exponential(n)),
    ]
    if hasattr(g, "exponential"):
        out.append(("exponential(2.0)", "float64", lambda: g.exponential(2.0, n),
                    lambda: r.exponential(2.0, n)))
    if hasattr(g, "permutation"):
        m = 1 << 20
        out.append(("permutation(2**20)", "int64", lambda: g.permutation(m),
                    lambda: r.permutation(m)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=24)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="2**20 values, best of 2")
    args = ap.parse_args()
    log2n, repeat = (20, 2) if args.quick else (args.log2n, args.repeat)
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__} (PCG64); "
          f"n = 2**{log2n}; best of {repeat}; "
          f"GARRAY_CPU_THREADS={os.environ.get('GARRAY_CPU_THREADS', '')!r}; "
          f"ratio = numpy / garray time (> 1: garray faster)")
    print(f"{'op':<21} {'dtype':<8} {'garray ms':>10} {'numpy ms':>10} {'ratio':>6}")
    for label, dt, gf, nf in cases(1 << log2n):
        tg = best(lambda: (gf(), sync()), repeat)
        tn = best(nf, repeat)
        print(f"{label:<21} {dt:<8} {tg * 1e3:10.2f} {tn * 1e3:10.2f} {tn / tg:6.2f}",
              flush=True)


if __name__ == "__main__":
    main()
