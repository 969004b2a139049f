"""The forward convolution family's kernel table (``_kernels/conv.hip``, Note [Forward
convolution kernels] there; launched by ``garray/nn/_conv.py``).

One compile unit; the row is the dtype's code (float32, float64), the slot the kernel:

- ``C_DIRECT``: one thread per output (GPUs) or per run of 8 outputs along W (CPU);
- ``C_IGEMM_RT``: the barrier-free register-tiled implicit GEMM (the CPU device's);
- ``C_IGEMM_TILED``: the shared-memory tiled implicit GEMM (the GPUs'; barriers, so on
  fibers on the CPU device, where tests run it at tiny sizes);
- ``C_IM2COL``: the im2col gather of the vendor path (and of the gradients).
"""

from .family import Family

CONV = Family(
    "conv", "conv.hip", "C_DIRECT C_IGEMM_RT C_IGEMM_TILED C_IM2COL",
    templates={"C_DIRECT": "ga::conv_direct<{T}>", "C_IGEMM_RT": "ga::conv_igemm_rt<{T}>",
               "C_IGEMM_TILED": "ga::conv_igemm_tiled<{T}>",
               "C_IM2COL": "ga::conv_im2col<{T}>"},
    grid=[("float32 float64", "C_DIRECT C_IGEMM_RT C_IGEMM_TILED C_IM2COL")],
    barrier=["C_IGEMM_TILED"])
FAMILIES = (CONV,)
CONV.export(globals())      # C_DIRECT ... as module names
table = CONV.table
