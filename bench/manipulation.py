"""Manipulation time: garray's default device next to NumPy, one run.

    python bench/manipulation.py [--side 2048] [--repeat 5]

Times (best of --repeat, milliseconds) on a float32 side x side matrix: tile (2, 2),
pad (reflect and constant, width side/16), concatenate along axis 1, delete of every
second column, a copy of the diagonal, insert of one column, and
sliding_window_view(3, 3) summed.  ratio = numpy time / garray time, so > 1 means
garray is faster.  What limits each: tile, pad and concatenate are strided copies
(memory bound); delete joins one slice per run of kept columns (one gather instead when
garray.take exists), insert one slice per run, so their cost grows with the runs.
"""

import argparse
import os
import sys

import numpy

import garray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)


def cases(xp, side):
    a = xp.asarray(numpy.linspace(0, 1, side * side, dtype=numpy.float32).reshape(side, side))
    w = max(1, side // 16)
    st = xp.lib.stride_tricks
    return [
        ("tile (2, 2)", lambda: xp.tile(a, (2, 2))),
        (f"pad reflect {w}", lambda: xp.pad(a, w, mode="reflect")),
        (f"pad constant {w}", lambda: xp.pad(a, w)),
        ("concatenate axis=1", lambda: xp.concatenate([a, a], axis=1)),
        ("delete ::2 axis=1", lambda: xp.delete(a, slice(None, None, 2), axis=1)),
        ("insert column", lambda: xp.insert(a, side // 2, 0.0, axis=1)),
        ("diagonal().copy()", lambda: xp.diagonal(a).copy()),
        ("windows (3,3) sum", lambda: st.sliding_window_view(a[:256, :256], (3, 3)).sum()),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--side", type=int, default=2048)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; float32 "
          f"{args.side} x {args.side}; best of {args.repeat}; ratio = numpy / garray")
    print(f"{'op':<22} {'garray ms':>10} {'numpy ms':>10} {'ratio':>6}")
    for (name, nf), (_, gf) in zip(cases(numpy, args.side), cases(garray, args.side)):
        tg = best(lambda: (gf(), sync()), args.repeat)
        tn = best(nf, args.repeat)
        print(f"{name:<22} {tg * 1e3:10.3f} {tn * 1e3:10.3f} {tn / tg:6.2f}")


if __name__ == "__main__":
    main()
