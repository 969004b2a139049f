"""The pooling family's kernel table (``_kernels/pool.hip``, Note [Pooling kernels]
there).

One compile unit; the row is the dtype's code (float32, float64), the slot the kernel:
``P_MAX`` (max pooling, optionally with flat spatial indices) and ``P_AVG`` (average
pooling, PyTorch's divisor rules).
"""

from . import _dtypes

P_MAX, P_AVG = range(2)

DTYPES = ("float32", "float64")


def _rec(name):
    return next(r for r in _dtypes.RECORDS if r.name == name)


def table():
    entries = []
    for name in DTYPES:
        r = _rec(name)
        entries.append(((r.code, P_MAX), f"ga::pool_max<{r.ctype}>"))
        entries.append(((r.code, P_AVG), f"ga::pool_avg<{r.ctype}>"))
    return "pool.hip", entries


def all_tables():
    return [table()]
