"""The sort family: sorting and searching, sets, quantiles, histograms and interp.
Kernels: ``_kernels/sort.hip``; launch: ``cython/_sort.pxi``; table:
``garray/_tables/sort.py``.
"""
