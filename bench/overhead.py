"""Per-call overhead of garray's hot paths next to NumPy's, in one run.

    python bench/overhead.py [--repeat 7] [--number 200000]

Prints, per operation, the best-of-``repeat`` time per call for NumPy and garray on the
default device, and the ratio numpy/garray (NumPy's time over garray's: > 1 means garray
is faster).
"""

import argparse
import timeit

import numpy

import garray

CASES = [
    ("x[1:-1]", "x[1:-1]"),
    ("x[2]", "x[2]"),
    ("x2[1, ::2]", "x2[1, ::2]"),
    ("x.reshape(4, 4)", "x.reshape(4, 4)"),
    ("x2.T", "x2.T"),
    ("empty(16)", "xp.empty(16)"),
    ("zeros(16)", "xp.zeros(16)"),
    ("asarray(list)", "xp.asarray(lst)"),
    ("x.shape", "x.shape"),
]


def per_call(stmt, env, number, repeat):
    t = timeit.Timer(stmt, globals=env).repeat(repeat=repeat, number=number)
    return min(t) / number


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--number", type=int, default=200_000)
    args = ap.parse_args()
    dev = garray.default_device()
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; "
          f"best of {args.repeat} x {args.number} calls")
    print(f"{'operation':<20} {'numpy us':>9} {'garray us':>10} {'np/ga':>7}")
    for name, stmt in CASES:
        row = []
        for xp in (numpy, garray):
            env = {"xp": xp, "x": xp.arange(16.0), "x2": xp.arange(16.0).reshape(4, 4),
                   "lst": [1.0, 2.0, 3.0, 4.0]}
            row.append(per_call(stmt, env, args.number, args.repeat) * 1e6)
        print(f"{name:<20} {row[0]:9.3f} {row[1]:10.3f} {row[0] / row[1]:7.2f}")


if __name__ == "__main__":
    main()
