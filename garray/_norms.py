"""vector_norm, matrix_norm and NumPy's norm (contract branch)."""

__all__ = []
