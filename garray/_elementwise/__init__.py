"""The elementwise family: the generated ufuncs (from ``garray/_tables/ops.py``)
and the functions built from them.  Kernels: ``_kernels/elementwise.hip``;
launch: ``cython/_ufunc.pxi``.
"""
