"""NumPy's legacy polynomials: garray's CPU device next to NumPy, one run.

    python bench/polynomial.py [--log2n 22] [--repeat 5]

Times (best of --repeat, milliseconds): polyval of a degree-8 polynomial at n = 2**log2n
float64 points (Horner's rule: 8 multiply-adds over the points), polyfit of degree 3 to
2**16 points (a Vandermonde least-squares solve), roots of a degree-30 polynomial (the
companion matrix's eigenvalues) and polymul of two 1,000-coefficient polynomials.
ratio = numpy time / garray time (> 1: garray faster).
"""

import argparse
import os
import sys

import numpy

import garray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)


def cases(xp, log2n):
    rng = numpy.random.default_rng(0)
    p = xp.asarray(rng.standard_normal(9))
    x = xp.asarray(rng.random(1 << log2n))
    fx = numpy.linspace(-1, 1, 1 << 16)
    fy = xp.asarray(fx ** 3 - fx + 0.01 * rng.standard_normal(fx.size))
    fx = xp.asarray(fx)
    r = xp.asarray(rng.standard_normal(31))
    a, b = xp.asarray(rng.standard_normal(1000)), xp.asarray(rng.standard_normal(1000))
    return [
        ("polyval deg 8", lambda: xp.polyval(p, x)),
        ("polyfit deg 3", lambda: xp.polyfit(fx, fy, 3)),
        ("roots deg 30", lambda: xp.roots(r)),
        ("polymul 1000", lambda: xp.polymul(a, b)),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=22)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; "
          f"n = 2**{args.log2n}; best of {args.repeat}; "
          f"ratio = numpy / garray (> 1: garray faster)")
    print(f"{'op':<15} {'garray ms':>10} {'numpy ms':>10} {'ratio':>6}")
    for (name, nf), (_, gf) in zip(cases(numpy, args.log2n), cases(garray, args.log2n)):
        tn = best(nf, args.repeat)
        tg = best(lambda: (gf(), sync()), args.repeat)
        print(f"{name:<15} {tg * 1e3:10.3f} {tn * 1e3:10.3f} {tn / tg:6.2f}")


if __name__ == "__main__":
    main()
