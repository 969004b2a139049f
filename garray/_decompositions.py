"""Decompositions and solvers of garray.linalg on the device's vendor LAPACK (linalg
branch)."""

__all__ = []
