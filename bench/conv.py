"""Forward convolution time: garray.nn.conv2d's vendor and kernel paths next to an
im2col + numpy.matmul baseline, one run.

    python bench/conv.py [--repeat 3] [--quick] [--dtype float32]

ResNet-like float32 layers, batch N = 8 (``--quick``: N = 1): 64 -> 64 channels at
56 x 56 (3 x 3, stride 1, padding 1), 128 -> 128 at 28 x 28 (3 x 3), a 1 x 1 layer
256 -> 64 at 56 x 56, and a depthwise layer (128 channels at 56 x 56, 3 x 3, groups 128).
The baseline, written here, is what a NumPy user would write: ``sliding_window_view``
of the padded input, a reshape copy to the (groups, C_in/groups * 9, H * W) column
matrix, one ``numpy.matmul`` with the weight.  Milliseconds (best of --repeat, after a
warm-up call that also compiles) and ratio = numpy time / garray time (> 1: garray
faster); ``err`` is the largest difference from the baseline relative to its largest
magnitude.  On the CPU device the vendor path is im2col (garray's kernel) + OpenBLAS; on
GPUs cuDNN or MIOpen.  Informational: nothing is asserted.  On a machine shared with
other work, run it with ``GARRAY_CPU_THREADS=1 OPENBLAS_NUM_THREADS=1`` (both BLAS
libraries single-threaded): their spinning thread pools otherwise measure each other.

Then the 1-d ``numpy.convolve`` bench of bench/conv1d.py (``bench_convolve1d()``), when
that file exists.
"""

import argparse
import os
import sys

from _timing import best as _best  # before NumPy: it fixes sys.path

import numpy
from numpy.lib.stride_tricks import sliding_window_view

import garray
import garray.nn

LAYERS = [
    # label, C_in, C_out, size, kernel, padding, groups
    ("3x3 64->64 @56", 64, 64, 56, 3, 1, 1),
    ("3x3 128->128 @28", 128, 128, 28, 3, 1, 1),
    ("1x1 256->64 @56", 256, 64, 56, 1, 0, 1),
    ("dw3x3 128 @56", 128, 128, 56, 3, 1, 128),
]


def numpy_conv2d(x, w, padding, groups):
    """The baseline: im2col by sliding_window_view + reshape copy, then numpy.matmul."""
    n, c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    xp = numpy.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    win = sliding_window_view(xp, (kh, kw), axis=(2, 3))         # n, c, oh, ow, kh, kw
    oh, ow = win.shape[2:4]
    col = win.reshape(n, groups, cg, oh, ow, kh, kw).transpose(0, 1, 2, 5, 6, 3, 4)
    col = col.reshape(n, groups, cg * kh * kw, oh * ow)            # the copy
    y = numpy.matmul(w.reshape(1, groups, co // groups, cg * kh * kw), col)
    return y.reshape(n, co, oh, ow)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="batch 1 instead of 8")
    ap.add_argument("--dtype", default="float32", choices=("float32", "float64"))
    args = ap.parse_args()
    n = 1 if args.quick else 8
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; conv2d "
          f"forward, N = {n}, {args.dtype}, best of {args.repeat}; "
          f"GARRAY_CPU_THREADS={os.environ.get('GARRAY_CPU_THREADS', '')!r}; "
          f"ratio = numpy ms / garray ms (> 1: garray faster)")
    print(f"{'layer':<18} {'GMAC':>6} {'numpy ms':>9} {'vendor ms':>10} {'ratio':>6} "
          f"{'kernel ms':>10} {'ratio':>6} {'err':>8}")
    rng = numpy.random.default_rng(0)
    summary = []
    for label, ci, co, size, k, pad, groups in LAYERS:
        xh = rng.standard_normal((n, ci, size, size)).astype(args.dtype)
        wh = (rng.standard_normal((co, ci // groups, k, k)) /
              numpy.sqrt(ci // groups * k * k)).astype(args.dtype)
        macs = n * co * size * size * (ci // groups) * k * k / 1e9
        ref = None

        def base():
            nonlocal ref
            ref = numpy_conv2d(xh, wh, pad, groups)
        t_np = _best(base, lambda: None, args.repeat)
        x, w = garray.asarray(xh), garray.asarray(wh)
        times, err = {}, 0.0
        for path in ("vendor", "kernel"):
            try:
                out = {}

                def run(path=path, out=out):
                    out["y"] = garray.nn.conv2d(x, w, None, 1, pad, 1, groups,
                                                algorithm=path)
                times[path] = _best(run, sync, args.repeat)
                y = garray.asnumpy(out["y"])
                err = max(err, float(numpy.abs(y - ref).max() / numpy.abs(ref).max()))
            except Exception as e:  # noqa: BLE001 - a failing path is reported
                print(f"{label} {path}: {type(e).__name__}: {str(e)[:200]}")
                times[path] = None
        cells = []
        for path in ("vendor", "kernel"):
            t = times[path]
            cells += ([f"{t * 1e3:10.2f}", f"{t_np / t:6.2f}"] if t
                      else [f"{'-':>10}", f"{'n/a':>6}"])
            summary.append(f"{label} {path} {t_np / t:.2f}" if t else f"{label} {path} n/a")
        print(f"{label:<18} {macs:6.2f} {t_np * 1e3:9.2f} {' '.join(cells)} {err:8.1e}")
    print("summary (numpy / garray): " + ", ".join(summary))
    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.exists(os.path.join(here, "conv1d.py")):
        sys.path.insert(0, here)
        from conv1d import bench_convolve1d
        print()
        bench_convolve1d()


if __name__ == "__main__":
    main()
