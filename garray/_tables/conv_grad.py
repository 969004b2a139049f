"""The convolution-gradient family's kernel table (``_kernels/conv_grad.hip``, Note
[Gather-form convolution gradients] there; launched by ``garray/nn/_conv_grad.py``).

Rows are dtype codes (float32, float64); slots:

- ``CG_DATA``: ``conv_bwd_data`` (gradient wrt the input; the transposed convolution);
- ``CG_WEIGHT``: ``conv_bwd_weight`` (chunked partial sums of the weight gradient);
- ``CG_COL2IM``: ``conv_col2im`` (the adjoint of im2col, for the GEMM lowering).
"""

from .family import Family

CONV_GRAD = Family(
    "conv_grad", "conv_grad.hip", "CG_DATA CG_WEIGHT CG_COL2IM",
    templates={"CG_DATA": "ga::conv_bwd_data<{T}>", "CG_WEIGHT": "ga::conv_bwd_weight<{T}>",
               "CG_COL2IM": "ga::conv_col2im<{T}>"},
    grid=[("float32 float64", "CG_DATA CG_WEIGHT CG_COL2IM")])
FAMILIES = (CONV_GRAD,)
CONV_GRAD.export(globals())     # CG_DATA ... as module names
table = CONV_GRAD.table
