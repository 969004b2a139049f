"""The products family: ``matmul``, the products built on it (dot, tensordot,
einsum ...), covariance, and the GEMM engine.  Kernels: ``_kernels/gemm.hip``; table:
``garray/_tables/gemm.py``; the kernels launch through ``_family_launch``
(``cython/_launch.pxi``), OpenBLAS through ``cython/_gemm.pxi``.
"""
