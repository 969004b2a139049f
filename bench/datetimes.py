"""datetime64 and timedelta64 time: garray next to NumPy, one run.

    python bench/datetimes.py [--log2n 22] [--repeat 5]

Times (best of --repeat, milliseconds) for n = 2**log2n datetime64[s] values (one in a
thousand NaT) and timedelta64[s] spans: date + span, date - date, a unit cast to finer
(ms) and coarser (D) units and to months (the calendar), a comparison, max (NaT
propagates), sort (NaT last), is_busday, busday_count and busday_offset (of the dates
without NaT).  ratio = numpy time / garray time (> 1: garray faster), worst first.
garray runs several int64 kernels per operation (docs/datetimes.md): a unit conversion
is a multiply, a NaT mask and a select.
"""

import argparse
import os
import sys

import numpy

import garray

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elementwise import best  # noqa: E402  (best of N, after a warm-up call)


def cases(xp, log2n):
    n = 1 << log2n
    rng = numpy.random.default_rng(0)
    v = rng.integers(-2 * 10**9, 2 * 10**9, n)
    v[rng.integers(0, n, n // 1000)] = numpy.iinfo(numpy.int64).min
    d = xp.asarray(v.view("M8[s]"))
    t = xp.asarray(rng.integers(-10**6, 10**6, n).view("m8[s]"))
    days = xp.asarray(numpy.where(v == numpy.iinfo(numpy.int64).min, 0, v).view("M8[s]")
                      .astype("M8[D]"))        # busday_count raises on NaT
    return [
        ("d + t", lambda: d + t),
        ("d - d", lambda: d - d[::-1]),
        ("astype ms", lambda: d.astype("M8[ms]")),
        ("astype D", lambda: d.astype("M8[D]")),
        ("astype M", lambda: d.astype("M8[M]")),
        ("d < d", lambda: d < d[::-1]),
        ("max", lambda: xp.max(d)),
        ("sort", lambda: xp.sort(d)),
        ("is_busday", lambda: xp.is_busday(days)),
        ("busday_count", lambda: xp.busday_count(days, days[::-1])),
        ("busday_offset", lambda: xp.busday_offset(days, 10, roll="forward")),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=22)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; "
          f"n = 2**{args.log2n}; best of {args.repeat}; ratio = numpy / garray (> 1: garray "
          f"faster)")
    print(f"{'op':<13} {'garray ms':>10} {'numpy ms':>10} {'ratio':>6}")
    rows = []
    for (name, nf), (_, gf) in zip(cases(numpy, args.log2n), cases(garray, args.log2n)):
        tn = best(nf, args.repeat)
        tg = best(lambda: (gf(), sync()), args.repeat)
        rows.append((tn / tg, name, tg, tn))
    for ratio, name, tg, tn in sorted(rows):
        print(f"{name:<13} {tg * 1e3:10.3f} {tn * 1e3:10.3f} {ratio:6.2f}")


if __name__ == "__main__":
    main()
