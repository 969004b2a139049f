"""Indexing: advanced indexing (``x[key]`` with integer arrays and masks) and NumPy's
indexing routines.  Kernels: ``_kernels/index.hip``; table: ``garray/_tables/ops.py``
(``index_table``); launch: ``cython/_indexing.pxi`` (basic keys) and
``cython/_gather.pxi`` (gathers, scatters, mask compaction).
"""
