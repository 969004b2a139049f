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
