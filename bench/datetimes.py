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

import _timing  # noqa: F401  (before NumPy: bench/ leaves the front of sys.path)
import numpy

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
    _timing.numpy_vs_garray(cases, args.log2n, args.repeat)


if __name__ == "__main__":
    main()
