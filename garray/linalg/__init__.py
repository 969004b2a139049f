"""garray.linalg: the Array API linear-algebra extension and NumPy's numpy.linalg.

Where each function lives (every module imports only those above it in this list):

- ``_lapack``: the LAPACK call layer (routines, column-major buffers, workspace queries).
- ``_common``: argument checks, LAPACK dtypes, which functions the GPU solvers compute
  (Note [linalg dispatch]).
- ``_solve``: det, slogdet, inv, solve (LU).
- ``_factorizations``: cholesky, qr.
- ``_eigen``: eigh, eigvalsh, eig, eigvals.
- ``_svd``: svd, svdvals, lstsq, pinv, matrix_rank, cond.
- ``_products``: matrix_power, tensorinv, tensorsolve, multi_dot.
- ``_norms``: vector_norm, matrix_norm, norm, and the Array API's linalg spellings of
  outer, trace, diagonal, cross, matrix_transpose, vecdot, tensordot.

matmul is garray's GEMM (garray/_gemm/matmul.py), the main namespace's function.
"""

# NumPy's own class, so that `except numpy.linalg.LinAlgError` catches garray's errors
from numpy.linalg import LinAlgError  # noqa: F401

from .._gemm.matmul import matmul  # noqa: F401
from ._solve import *  # noqa: F401,F403
from ._factorizations import *  # noqa: F401,F403
from ._eigen import *  # noqa: F401,F403
from ._svd import *  # noqa: F401,F403
from ._products import *  # noqa: F401,F403
from ._norms import *  # noqa: F401,F403
