"""Products built on matmul: vecdot, tensordot, dot, vdot, inner, outer, kron, cross,
einsum, einsum_path, matrix_transpose (contract branch)."""

__all__ = []
