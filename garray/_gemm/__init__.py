"""The products family: ``matmul``, the products built on it (dot, tensordot,
einsum ...), covariance, and the GEMM engine.  Kernels: ``_kernels/gemm.hip``;
launch: ``cython/_gemm.pxi``; table: ``garray/_tables/gemm.py``.
"""
