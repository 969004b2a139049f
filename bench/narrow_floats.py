"""Narrow-float time (float16, bfloat16, the float8s): garray next to NumPy, and next to
garray's float32, one run.

    python bench/narrow_floats.py [--dtype float16] [--log2n 22] [--repeat 5]

Times (best of --repeat, milliseconds) for n = 2**log2n elements of ``--dtype``
(float16, bfloat16, float8_e4m3fn, float8_e5m2; NumPy runs ml_dtypes' loops for the last
three): a cast from float32, add, multiply by a Python scalar, sin, sum, sort and a
512 x 512 matmul.  ratio = numpy time / garray time (> 1: garray faster); f32 = garray's
time for the dtype / its float32 time for the same op (the cost of computing through
float32 buffers, docs/float16.md and docs/narrow-floats.md).
"""

import argparse
import os
import sys

import numpy

import garray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)


def cases(xp, log2n, dt):
    n = 1 << log2n
    rng = numpy.random.default_rng(0)
    h32 = rng.random(n, dtype=numpy.float32)
    x32 = xp.asarray(h32)
    a = xp.asarray(h32.astype(dt))
    b = xp.asarray(rng.random(n, dtype=numpy.float32).astype(dt))
    m = xp.asarray(rng.random((512, 512), dtype=numpy.float32).astype(dt))
    return [
        ("astype", lambda: x32.astype(dt)),
        ("add", lambda: a + b),
        ("x * 0.5", lambda: a * 0.5),
        ("sin", lambda: xp.sin(a)),
        ("sum", lambda: xp.sum(a)),
        ("sort", lambda: xp.sort(a)),
        ("matmul 512", lambda: m @ m),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dtype", default="float16",
                    choices=["float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"])
    ap.add_argument("--log2n", type=int, default=22)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; "
          f"n = 2**{args.log2n}; best of {args.repeat}; ratio = numpy / garray (> 1: garray "
          f"faster); f32 = garray {args.dtype} / garray float32")
    print(f"{'op':<11} {'garray ms':>10} {'numpy ms':>10} {'ratio':>6} {'f32':>6}")
    dt = numpy.dtype(args.dtype)      # after import garray: ml_dtypes' names resolve
    rows = zip(cases(numpy, args.log2n, dt),
               cases(garray, args.log2n, dt),
               cases(garray, args.log2n, numpy.float32))
    for (name, nf), (_, gf), (_, g32) in rows:
        tn = best(nf, args.repeat)
        tg = best(lambda: (gf(), sync()), args.repeat)
        t32 = best(lambda: (g32(), sync()), args.repeat)
        print(f"{name:<11} {tg * 1e3:10.3f} {tn * 1e3:10.3f} {tn / tg:6.2f} {tg / t32:6.2f}")


if __name__ == "__main__":
    main()
