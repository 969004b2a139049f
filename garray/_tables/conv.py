"""The forward convolution family's kernel table (``_kernels/conv.hip``, Note [Forward
convolution kernels] there; launched by ``garray/nn/_conv.py``).

One compile unit; the row is the dtype's code (float32, float64), the slot the kernel:

- ``C_DIRECT``: one thread per output (GPUs) or per run of 8 outputs along W (CPU);
- ``C_IGEMM_RT``: the barrier-free register-tiled implicit GEMM (the CPU device's);
- ``C_IGEMM_TILED``: the shared-memory tiled implicit GEMM (the GPUs'; barriers, so on
  fibers on the CPU device, where tests run it at tiny sizes);
- ``C_IM2COL``: the im2col gather of the vendor path (and of the gradients).
"""

from .. import _dtypes

C_DIRECT, C_IGEMM_RT, C_IGEMM_TILED, C_IM2COL = range(4)
# barrier kernels of this table, launched on fibers on the CPU device
BARRIER_PREFIX = "ga::conv_igemm_tiled<"


def _rec(name):
    return next(r for r in _dtypes.RECORDS if r.name == name)


def table():
    entries = []
    for name in ("float32", "float64"):
        r = _rec(name)
        entries.append(((r.code, C_DIRECT), f"ga::conv_direct<{r.ctype}>"))
        entries.append(((r.code, C_IGEMM_RT), f"ga::conv_igemm_rt<{r.ctype}>"))
        entries.append(((r.code, C_IGEMM_TILED), f"ga::conv_igemm_tiled<{r.ctype}>"))
        entries.append(((r.code, C_IM2COL), f"ga::conv_im2col<{r.ctype}>"))
    return "conv.hip", entries


def all_tables():
    return [table()]
