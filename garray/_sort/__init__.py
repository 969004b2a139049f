"""The sort family: sorting and searching, sets, quantiles, histograms and interp.
Kernels: ``_kernels/sort.hip``; table: ``garray/_tables/sort.py``; launched through
``_family_launch`` (``cython/_launch.pxi``).
"""
