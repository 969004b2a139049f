"""The GEMM family's kernel table (``_kernels/gemm.hip``, Note [GEMM kernels] there).

One compile unit; the row is the compute dtype's code, the slot the variant:
``G_TILED`` (shared-memory tiles and barriers: the GPU kernel) and ``G_RT`` (barrier-free
register tiles: the CPU device's kernel).  Each is instantiated with its accumulator
type (integers accumulate in unsigned 32/64-bit words, which wrap as NumPy's do).
"""

from .. import _dtypes
from .family import Family

RECORDS = _dtypes.RECORDS


def accumulator(code):
    """The C++ accumulator type of compute dtype ``code`` (Note [GEMM kernels], 2)."""
    r = RECORDS[code]
    if r.kind in "iu":
        return "ga::uint64" if r.itemsize == 8 else "ga::uint32"
    return r.ctype


GEMM = Family("gemm", "gemm.hip", "G_TILED G_RT",
              templates={"G_TILED": "ga::gemm_tiled<{T}, {A}>", "G_RT": "ga::gemm_rt<{T}, {A}>"},
              grid=[("api", "G_TILED G_RT")], fields=lambda r: {"A": accumulator(r.code)},
              barrier=["G_TILED"])
FAMILIES = (GEMM,)
GEMM.export(globals())      # G_TILED, G_RT as module names
table = GEMM.table
