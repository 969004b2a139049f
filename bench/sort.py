"""Sort and search time: garray's device next to NumPy, one run.

    python bench/sort.py [--log2n 22] [--repeat 3]

Times (best of --repeat, milliseconds) for sort and argsort of 2**log2n float32 and
int64 (random values), and searchsorted of 2**(log2n-2) needles in 2**log2n sorted
float32 values.  NumPy sorts with its default kind (what ``numpy.sort(x)`` runs) and,
for reference, with kind="stable" (garray's sorts are always stable).  ratio = NumPy's
default time / garray's time, so > 1 means garray is faster.
"""

import argparse
import os
import sys

import numpy

import garray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)


def cases(log2n):
    """(op, dtype, garray callable, numpy stable callable, numpy default callable)."""
    n = 1 << log2n
    rng = numpy.random.default_rng(0)
    f32 = rng.standard_normal(n).astype(numpy.float32)
    i64 = rng.integers(-2**62, 2**62, n)
    hay = numpy.sort(f32)
    needles = rng.standard_normal(n >> 2).astype(numpy.float32)
    g = {k: garray.asarray(v) for k, v in
         dict(f32=f32, i64=i64, hay=hay, needles=needles).items()}
    out = []
    for name, h, dt in (("f32", f32, "float32"), ("i64", i64, "int64")):
        out.append(("sort", dt, lambda x=g[name]: garray.sort(x),
                    lambda h=h: numpy.sort(h, kind="stable"), lambda h=h: numpy.sort(h)))
        out.append(("argsort", dt, lambda x=g[name]: garray.argsort(x),
                    lambda h=h: numpy.argsort(h, kind="stable"), lambda h=h: numpy.argsort(h)))
    ss = lambda: numpy.searchsorted(hay, needles)  # noqa: E731
    out.append(("searchsorted", "float32", lambda: garray.searchsorted(g["hay"], g["needles"]),
                ss, ss))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=22)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; "
          f"n = 2**{args.log2n}; best of {args.repeat}; "
          f"ratio = numpy default / garray (> 1: garray faster)")
    print(f"{'op':<13} {'dtype':<8} {'garray ms':>10} {'np stable':>10} {'np default':>10} "
          f"{'ratio':>6}")
    for name, dt, gf, nf, nd in cases(args.log2n):
        tg = best(lambda: (gf(), sync()), args.repeat)
        tn, td = best(nf, args.repeat), best(nd, args.repeat)
        print(f"{name:<13} {dt:<8} {tg * 1e3:10.2f} {tn * 1e3:10.2f} {td * 1e3:10.2f} "
              f"{td / tg:6.2f}")


if __name__ == "__main__":
    main()
