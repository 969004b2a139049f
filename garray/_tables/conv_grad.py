"""The convolution-gradient family's kernel table (``_kernels/conv_grad.hip``, Note
[Gather-form convolution gradients] there; launched by ``garray/nn/_conv_grad.py``).

Rows are dtype codes (float32, float64); slots:

- ``CG_DATA``: ``conv_bwd_data`` (gradient wrt the input; the transposed convolution);
- ``CG_WEIGHT``: ``conv_bwd_weight`` (chunked partial sums of the weight gradient);
- ``CG_COL2IM``: ``conv_col2im`` (the adjoint of im2col, for the GEMM lowering).
"""

from .. import _dtypes

CG_DATA, CG_WEIGHT, CG_COL2IM = range(3)


def table():
    entries = []
    for r in _dtypes.RECORDS:
        if r.name not in ("float32", "float64"):
            continue
        entries.append(((r.code, CG_DATA), f"ga::conv_bwd_data<{r.ctype}>"))
        entries.append(((r.code, CG_WEIGHT), f"ga::conv_bwd_weight<{r.ctype}>"))
        entries.append(((r.code, CG_COL2IM), f"ga::conv_col2im<{r.ctype}>"))
    return "conv_grad.hip", entries


def all_tables():
    return [table()]
