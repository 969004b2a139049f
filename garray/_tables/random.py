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

from .. import _dtypes

(R_BITS, R_UNIFORM, R_NORMAL, R_INT32, R_INT64, R_DIST, R_INT_ARR, R_MULTINOMIAL,
 R_EXPONENTIAL) = range(9)

_FLOATS = ("float32", "float64")
_INTS = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _rec(name):
    return next(r for r in _dtypes.RECORDS if r.name == name)


def table():
    entries = []
    for name in ("uint32", "uint64"):
        r = _rec(name)
        entries.append(((r.code, R_BITS), f"ga::rng_bits<{r.ctype}>"))
    for name in _FLOATS:
        r = _rec(name)
        entries.append(((r.code, R_UNIFORM), f"ga::rng_uniform<{r.ctype}>"))
        entries.append(((r.code, R_NORMAL), f"ga::rng_normal<{r.ctype}>"))
        entries.append(((r.code, R_EXPONENTIAL), f"ga::rng_exponential<{r.ctype}>"))
    for name in _INTS:
        r = _rec(name)
        entries.append(((r.code, R_INT32), f"ga::rng_int32<{r.ctype}>"))
        entries.append(((r.code, R_INT64), f"ga::rng_int64<{r.ctype}>"))
    for name in ("float32", "float64", "int64"):
        r = _rec(name)
        entries.append(((r.code, R_DIST), f"ga::rng_dist<{r.ctype}>"))
    for name in _INTS:
        r = _rec(name)
        entries.append(((r.code, R_INT_ARR), f"ga::rng_int_arr<{r.ctype}>"))
    r = _rec("int64")
    entries.append(((r.code, R_MULTINOMIAL), f"ga::rng_multinomial<{r.ctype}>"))
    return "random.hip", entries


def all_tables():
    return [table()]
