"""matmul and the ``@`` / ``@=`` operators.

INTERIM (replaced by the GEMM engine on the gemm branch): the product is computed by
garray's broadcast multiply and sum kernels, O(m*k*n) memory.
"""

from ._dtypes import result_type
from ._manip_common import as_array

__all__ = ["matmul"]


def _result_dtype(a, b, dtype):
    return result_type(a.dtype, b.dtype) if dtype is None else dtype


def matmul(x1, x2, /, out=None, *, dtype=None):
    """Matrix product of two arrays. See also numpy.matmul."""
    a = as_array(x1, "x1")
    b = as_array(x2, "x2")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand %d does not have enough dimensions"
                         % (0 if a.ndim == 0 else 1))
    rt = _result_dtype(a, b, dtype)
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise ValueError(f"matmul: mismatch in core dimension: x1 has shape {a.shape} and "
                         f"x2 has shape {b.shape} ({a2.shape[-1]} != {b2.shape[-2]})")
    r = (a2[..., :, :, None].astype(rt) * b2[..., None, :, :].astype(rt)).sum(axis=-2, dtype=rt)
    if a.ndim == 1:
        r = r[..., 0, :]
    if b.ndim == 1:
        r = r[..., 0]
    if out is not None:
        out[...] = r
        return out
    return r


def _matmul_inplace(a, b):
    r = matmul(a, b)
    if r.shape != a.shape:
        raise ValueError("matmul: in-place matrix multiplication would change the shape "
                         f"{a.shape} to {r.shape}")
    a[...] = r
    return a
