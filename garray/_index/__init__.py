"""Indexing: advanced indexing (``x[key]`` with integer arrays and masks) and
NumPy's indexing routines.  Kernels: ``_kernels/index.hip``; launch:
``cython/_index.pxi``.
"""
