"""The GEMM family's kernel table (``_kernels/gemm.hip``, Note [GEMM kernels] there).

One compile unit; the row is the compute dtype's code, the slot the variant:
``G_TILED`` (shared-memory tiles and barriers: the GPU kernel) and ``G_RT`` (barrier-free
register tiles: the CPU device's kernel).  Each is instantiated with its accumulator
type (integers accumulate in unsigned 32/64-bit words, which wrap as NumPy's do).
"""

from .. import _dtypes

RECORDS = _dtypes.RECORDS

G_TILED, G_RT = range(2)
# barrier kernels of this table, launched on fibers on the CPU device
BARRIER_PREFIX = "ga::gemm_tiled<"


def accumulator(code):
    """The C++ accumulator type of compute dtype ``code`` (Note [GEMM kernels], 2)."""
    r = RECORDS[code]
    if r.kind in "iu":
        return "ga::uint64" if r.itemsize == 8 else "ga::uint32"
    return r.ctype


def table():
    entries = []
    for r in _dtypes.API_RECORDS:
        acc = accumulator(r.code)
        entries.append(((r.code, G_TILED), f"ga::gemm_tiled<{r.ctype}, {acc}>"))
        entries.append(((r.code, G_RT), f"ga::gemm_rt<{r.ctype}, {acc}>"))
    return "gemm.hip", entries


def all_tables():
    return [table()]
