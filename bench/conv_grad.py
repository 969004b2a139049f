"""Convolution gradient and transposed convolution time on garray's default device.

    python bench/conv_grad.py [--repeat 3] [--quick]

For a few 2-d geometries: the forward conv2d (algorithm 'auto', the baseline),
conv2d_backward_input, conv2d_backward_weight and conv_transpose2d with each path
forced ('kernel': garray's gather kernels; 'vendor': the GEMM lowering on the CPU
device, cuDNN/MIOpen on GPUs).  Prints ms (best of --repeat, after a warm-up call) and
ratio = forward time / this time, so > 1 means faster than the forward pass.  A row
whose path is missing (no DNN library) prints the reason.
"""

import argparse
import os
import sys

import numpy

import garray
from garray import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402


def _sync(a):
    float(a.ravel()[0].get())       # a GPU device's queue drains before the timer stops


def geometries(quick):
    # (label, N, C_in, C_out, H=W, kernel, stride, padding, groups)
    g = [("resnet 3x3", 8, 64, 64, 28, 3, 1, 1, 1),
         ("stride 2", 8, 32, 64, 32, 3, 2, 1, 1),
         ("depthwise", 8, 64, 64, 28, 3, 1, 1, 64),
         ("1x1", 8, 128, 64, 28, 1, 1, 0, 1)]
    return g[:2] if quick else g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--dtype", default="float32")
    a = ap.parse_args()
    dev = garray.default_device()
    print(f"device {dev}, dtype {a.dtype}")
    print(f"{'geometry':<12} {'op':<16} {'path':<7} {'ms':>9} {'ratio':>7}")
    rng = numpy.random.default_rng(0)
    for label, n, ci, co, hw, k, s, p, groups in geometries(a.quick):
        x = garray.asarray(rng.standard_normal((n, ci, hw, hw)).astype(a.dtype))
        w = garray.asarray(rng.standard_normal((co, ci // groups, k, k)).astype(a.dtype))
        y = nn.conv2d(x, w, None, s, p, 1, groups)
        dy = garray.asarray(rng.standard_normal(y.shape).astype(a.dtype))
        wt = garray.asarray(rng.standard_normal((ci, co // groups, k, k)).astype(a.dtype))

        def fwd():
            _sync(nn.conv2d(x, w, None, s, p, 1, groups))
        base = best(fwd, a.repeat)
        print(f"{label:<12} {'conv2d':<16} {'auto':<7} {base * 1e3:9.3f} {1.0:7.2f}")
        ops = {
            "backward_input": lambda algo: nn.conv2d_backward_input(
                x.shape, w, dy, s, p, 1, groups, algorithm=algo),
            "backward_weight": lambda algo: nn.conv2d_backward_weight(
                x, w.shape, dy, s, p, 1, groups, algorithm=algo),
            "conv_transpose": lambda algo: nn.conv_transpose2d(
                x, wt, None, s, p, 0, groups, 1, algorithm=algo),
        }
        for name, op in ops.items():
            for algo in ("kernel", "vendor"):
                try:
                    t = best(lambda: _sync(op(algo)), a.repeat)
                except (NotImplementedError, RuntimeError, ImportError) as e:
                    print(f"{label:<12} {name:<16} {algo:<7} {'-':>9} {'-':>7}  ({e})")
                    continue
                print(f"{label:<12} {name:<16} {algo:<7} {t * 1e3:9.3f} {base / t:7.2f}")


if __name__ == "__main__":
    main()
