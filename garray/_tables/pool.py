"""The pooling family's kernel table (``_kernels/pool.hip``, Note [Pooling kernels]
there).

One compile unit; the row is the dtype's code (float32, float64), the slot the kernel:
``P_MAX`` (max pooling, optionally with flat spatial indices), ``P_AVG`` (average
pooling, PyTorch's divisor rules) and their gradients with respect to the input,
``P_MAX_BWD`` and ``P_AVG_BWD`` (gathers, no atomics).
"""

from .. import _dtypes

P_MAX, P_AVG, P_MAX_BWD, P_AVG_BWD = range(4)

DTYPES = ("float32", "float64")


def _rec(name):
    return next(r for r in _dtypes.RECORDS if r.name == name)


def table():
    entries = []
    for name in DTYPES:
        r = _rec(name)
        entries.append(((r.code, P_MAX), f"ga::pool_max<{r.ctype}>"))
        entries.append(((r.code, P_AVG), f"ga::pool_avg<{r.ctype}>"))
        entries.append(((r.code, P_MAX_BWD), f"ga::pool_max_backward<{r.ctype}>"))
        entries.append(((r.code, P_AVG_BWD), f"ga::pool_avg_backward<{r.ctype}>"))
    return "pool.hip", entries


def all_tables():
    return [table()]
