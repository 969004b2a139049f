"""Transcendental functions on the CPU device next to NumPy (docs/performance.md,
"Vector math on the CPU device").

    python bench/vector_math.py [--log2n 22] [--repeat 5]

Time per call (best of --repeat) for exp, log, sin, cos and tanh on 2**log2n random
float32 and float64 elements, contiguous.
"""

import argparse
import os
import sys

import numpy

import garray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)

FUNCS = {"exp": (-20, 20), "log": (1e-3, 1e3), "sin": (-100, 100), "cos": (-100, 100),
         "tanh": (-10, 10)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=22)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n = 1 << args.log2n
    rng = numpy.random.default_rng(0)
    print(f"garray on {garray.default_device()}; numpy {numpy.__version__}; n = 2**{args.log2n}")
    print(f"{'func':<6} {'dtype':<8} {'numpy ms':>9} {'garray ms':>10} {'speed vs numpy':>15}")
    for dt in ("float32", "float64"):
        for name, (lo, hi) in FUNCS.items():
            x = rng.uniform(lo, hi, n).astype(dt)
            g = garray.asarray(x)
            tn = best(lambda: getattr(numpy, name)(x), args.repeat)
            tg = best(lambda: getattr(garray, name)(g), args.repeat)
            print(f"{name:<6} {dt:<8} {tn * 1e3:9.2f} {tg * 1e3:10.2f} {tn / tg:14.2f}x")


if __name__ == "__main__":
    main()
