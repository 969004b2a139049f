"""The random family's kernel table (``_kernels/random.hip``, Note [Counter-based
streams] there).

Rows are output dtype codes; slots:

- ``R_BITS``: raw Philox words (uint32, uint64);
- ``R_UNIFORM``: ``a + s * u`` for uniforms u in [0, 1) (float32, float64);
- ``R_NORMAL``: ``loc + scale * z`` for Box-Muller normals (float32, float64);
- ``R_INT32`` / ``R_INT64``: Lemire's unbiased ``low + [0, range)`` with 32- or 64-bit
  words (every integer dtype and bool);
- ``R_DIST``: the element-stream distributions, by kind (float32, float64, int64);
  the kinds are numbered in ``garray/random/_continuous.py`` and ``_discrete.py``;
- ``R_INT_ARR``: Lemire's ``low[i] + [0, span[i])`` with per-element bounds (every
  integer dtype and bool);
- ``R_MULTINOMIAL``: ``rng_multinomial`` (int64 counts; ``_discrete.py`` launches it);
- ``R_EXPONENTIAL``: ``s * E``, E = -log(u) for packed uniforms u in (0, 1] (float32,
  float64).
"""

from .family import Family

_FLOATS = "float32 float64"
_INTS = "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64"

RANDOM = Family(
    "random", "random.hip",
    "R_BITS R_UNIFORM R_NORMAL R_INT32 R_INT64 R_DIST R_INT_ARR R_MULTINOMIAL R_EXPONENTIAL",
    templates={"R_BITS": "ga::rng_bits<{T}>", "R_UNIFORM": "ga::rng_uniform<{T}>",
               "R_NORMAL": "ga::rng_normal<{T}>", "R_EXPONENTIAL": "ga::rng_exponential<{T}>",
               "R_INT32": "ga::rng_int32<{T}>", "R_INT64": "ga::rng_int64<{T}>",
               "R_DIST": "ga::rng_dist<{T}>", "R_INT_ARR": "ga::rng_int_arr<{T}>",
               "R_MULTINOMIAL": "ga::rng_multinomial<{T}>"},
    grid=[("uint32 uint64", "R_BITS"), (_FLOATS, "R_UNIFORM R_NORMAL R_EXPONENTIAL"),
          (_INTS, "R_INT32 R_INT64"), ("float32 float64 int64", "R_DIST"),
          (_INTS, "R_INT_ARR"), ("int64", "R_MULTINOMIAL")])
FAMILIES = (RANDOM,)
RANDOM.export(globals())    # R_BITS ... as module names
table = RANDOM.table
