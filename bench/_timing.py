"""Shared by the bench scripts: import it before NumPy (it moves this folder to the end of
sys.path: bench/random.py is named like the standard library's `random`, which tempfile
and NumPy import) and time with ``best``."""

import os
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE] + [_HERE]


def best(fn, sync, repeat):
    """The shortest of ``repeat`` timed calls of ``fn`` (each followed by ``sync()``),
    after one warm-up call (compiles, caches)."""
    fn()
    sync()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        sync()
        ts.append(time.perf_counter() - t)
    return min(ts)


def numpy_vs_garray(cases, log2n, repeat):
    """Time each ``(name, fn)`` of ``cases(numpy, log2n)`` beside the same case of
    ``cases(garray, log2n)`` and print one table, worst ratio first: garray ms, NumPy ms,
    ratio = NumPy's time / garray's (> 1: garray faster)."""
    import numpy
    import garray
    dev = garray.default_device()
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; n = 2**{log2n}; "
          f"best of {repeat}; ratio = numpy / garray (> 1: garray faster), worst first")
    rows = []
    for (name, nf), (_, gf) in zip(cases(numpy, log2n), cases(garray, log2n)):
        tn, tg = best(nf, lambda: None, repeat), best(gf, sync, repeat)
        rows.append((tn / tg, name, tg, tn))
    width = max(len(r[1]) for r in rows) + 2
    print(f"{'op':<{width}} {'garray ms':>10} {'numpy ms':>10} {'ratio':>6}")
    for ratio, name, tg, tn in sorted(rows):
        print(f"{name:<{width}} {tg * 1e3:10.3f} {tn * 1e3:10.3f} {ratio:6.2f}")
