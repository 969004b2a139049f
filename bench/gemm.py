"""Matrix product time: garray's device next to NumPy, one run.

    python bench/gemm.py [--repeat 3] [--quick]

GFLOP/s (best of --repeat; 2 m n k flops a product, 8 m n k for complex) of ``a @ b`` for
float32 and float64 squares of 256, 1024 and 2048, a batch of 64 128 x 128 float32
products, int32 at 512 (NumPy has no BLAS for integers: its own loop), and garray's
kernel path (GARRAY_GEMM=kernel) at sizes that finish in seconds.  ratio = garray
GFLOP/s / NumPy GFLOP/s, so > 1 means garray is faster.  ``--quick`` drops 2048.

On the CPU device the vendor path is OpenBLAS (scipy-openblas32) with as many threads
as garray's launch pool (GARRAY_CPU_THREADS); NumPy's own OpenBLAS uses its default
(OPENBLAS_NUM_THREADS).  The two are separate libraries with separate thread pools in
one process, and an OpenBLAS pool keeps spinning for a while after a call, so each
side is timed after --idle seconds of quiet (else each measures the other's spinning
threads on the same cores).
"""

import argparse
import os
import sys
import time

import numpy

import garray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)


def cases(quick):
    """(label, path, numpy a, numpy b): path "auto" or "kernel" (GARRAY_GEMM)."""
    rng = numpy.random.default_rng(0)

    def mats(shape_a, shape_b, dt):
        if numpy.dtype(dt).kind in "iu":
            return (rng.integers(-100, 100, shape_a).astype(dt),
                    rng.integers(-100, 100, shape_b).astype(dt))
        return (rng.standard_normal(shape_a).astype(dt),
                rng.standard_normal(shape_b).astype(dt))

    out = []
    for dt in ("float32", "float64"):
        for n in (256, 1024) if quick else (256, 1024, 2048):
            out.append((f"{n}^3", "auto", *mats((n, n), (n, n), dt)))
    out.append(("64 x 128^3", "auto", *mats((64, 128, 128), (64, 128, 128), "float32")))
    out.append(("512^3", "auto", *mats((512, 512), (512, 512), "int32")))
    for dt, n in (("float32", 256), ("float64", 256), ("float32", 512)):
        out.append((f"{n}^3", "kernel", *mats((n, n), (n, n), dt)))
    out.append(("64 x 128^3", "kernel", *mats((64, 128, 128), (64, 128, 128), "float32")))
    return out


def gflops(a, b, t):
    m, k = a.shape[-2:]
    n = b.shape[-1]
    batch = int(numpy.prod(numpy.broadcast_shapes(a.shape[:-2], b.shape[:-2])))
    per = 8 if a.dtype.kind == "c" else 2
    return per * m * n * k * batch / t / 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--idle", type=float, default=0.5)
    args = ap.parse_args()
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; best of "
          f"{args.repeat}; GARRAY_CPU_THREADS={os.environ.get('GARRAY_CPU_THREADS', '')!r}; "
          f"ratio = garray / numpy GFLOP/s (> 1: garray faster)")
    print(f"{'case':<12} {'dtype':<8} {'path':<7} {'garray GF/s':>11} {'numpy GF/s':>11} "
          f"{'ratio':>6}")
    old = os.environ.get("GARRAY_GEMM")
    try:
        for label, path, na, nb in cases(args.quick):
            os.environ["GARRAY_GEMM"] = path
            ga, gb = garray.asarray(na), garray.asarray(nb)
            time.sleep(args.idle)
            tg = best(lambda: (ga @ gb, sync()), args.repeat)
            time.sleep(args.idle)
            tn = best(lambda: na @ nb, args.repeat)
            fg, fn = gflops(na, nb, tg), gflops(na, nb, tn)
            print(f"{label:<12} {na.dtype.name:<8} {path:<7} {fg:11.2f} {fn:11.2f} "
                  f"{fg / fn:6.2f}", flush=True)
    finally:
        if old is None:
            os.environ.pop("GARRAY_GEMM", None)
        else:
            os.environ["GARRAY_GEMM"] = old


if __name__ == "__main__":
    main()
