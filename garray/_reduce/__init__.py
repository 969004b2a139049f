"""The reduction family: reductions and scans, statistics, and the ufunc methods
(``reduce``, ``accumulate``, ``reduceat``, ``at``, ``outer``).  Kernels:
``_kernels/reduce.hip``; launch: ``cython/_reduce.pxi``; table:
``garray/_tables/reduce.py``.
"""
