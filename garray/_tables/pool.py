"""The pooling family's kernel table (``_kernels/pool.hip``, Note [Pooling kernels]
there).

One compile unit; the row is the dtype's code (float32, float64), the slot the kernel:
``P_MAX`` (max pooling, optionally with flat spatial indices), ``P_AVG`` (average
pooling, PyTorch's divisor rules) and their gradients with respect to the input,
``P_MAX_BWD`` and ``P_AVG_BWD`` (gathers, no atomics).
"""

from .family import Family

POOL = Family(
    "pool", "pool.hip", "P_MAX P_AVG P_MAX_BWD P_AVG_BWD",
    templates={"P_MAX": "ga::pool_max<{T}>", "P_AVG": "ga::pool_avg<{T}>",
               "P_MAX_BWD": "ga::pool_max_backward<{T}>",
               "P_AVG_BWD": "ga::pool_avg_backward<{T}>"},
    grid=[("float32 float64", "P_MAX P_AVG P_MAX_BWD P_AVG_BWD")])
FAMILIES = (POOL,)
POOL.export(globals())      # P_MAX ... as module names
table = POOL.table
