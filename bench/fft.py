"""FFT time: ``garray.fft`` next to ``numpy.fft`` (pocketfft), one run.

    python bench/fft.py [--quick] [--repeat 3]

Cases: complex64 and complex128 fft of 2**20 points, rfft of 2**20 float64, fft2 of
2048 x 2048 complex64, and a prime length 1,000,003 complex128 (Bluestein).
Milliseconds, best of --repeat after a warm-up call (that also compiles and builds the
twiddle table / Bluestein filter, both cached), garray synchronised before each timing
stops.  ratio = numpy time / garray time (> 1: garray faster); max rel err against
numpy.fft of the input in double precision.  ``--quick``: 2**16, 256 x 256, 65,537.
Never asserts speed.
"""

import argparse

from _timing import best as _best  # noqa: E402  (before NumPy: it fixes sys.path)

import numpy  # noqa: E402

import garray  # noqa: E402


def _cases(quick):
    n = 1 << 16 if quick else 1 << 20
    side = 256 if quick else 2048
    prime = 65537 if quick else 1000003
    return [("fft", "complex64", (n,)), ("fft", "complex128", (n,)),
            ("rfft", "float64", (n,)), ("fft2", "complex64", (side, side)),
            ("fft", "complex128", (prime,))]


def bench_fft(quick=False, repeat=3):
    """Print garray.fft against numpy.fft; returns [(case, numpy s, garray s, ratio)]."""
    rng = numpy.random.default_rng(0)
    dev = garray.asarray([0]).device
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray.fft vs numpy.fft, device {dev}")
    print(f"{'case':>28} {'numpy ms':>10} {'garray ms':>10} {'ratio':>7}  max rel err")
    rows = []
    for fn, dt, shape in _cases(quick):
        x = rng.standard_normal(shape)
        if dt.startswith("complex"):
            x = x + 1j * rng.standard_normal(shape)
        x = x.astype(dt)
        gx = garray.asarray(x)
        fn_n, fn_g = getattr(numpy.fft, fn), getattr(garray.fft, fn)
        tn = _best(lambda: fn_n(x), lambda: None, repeat)
        tg = _best(lambda: fn_g(gx), sync, repeat)
        ref = fn_n(x.astype(numpy.complex128 if dt.startswith("complex") else numpy.float64))
        err = float(numpy.max(numpy.abs(fn_g(gx).get() - ref)) / numpy.max(numpy.abs(ref)))
        name = f"{fn} {dt} {'x'.join(map(str, shape))}"
        rows.append((name, tn, tg, tn / tg))
        print(f"{name:>28} {tn * 1e3:10.1f} {tg * 1e3:10.1f} {tn / tg:7.2f}  {err:.1e}")
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    bench_fft(args.quick, args.repeat)


if __name__ == "__main__":
    main()
