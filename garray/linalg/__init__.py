"""garray.linalg: the Array API linear-algebra extension and NumPy's numpy.linalg.

Products come from garray's GEMM (garray/_gemm/matmul.py; the Array API forms of outer,
trace, diagonal, cross, vecdot and tensordot sit beside the norms in garray/linalg/_norms.py),
norms from reductions, decompositions and solvers from the device's vendor
LAPACK (garray/linalg/_decompositions.py).
"""

from .._gemm.matmul import matmul  # noqa: F401
from ._norms import *  # noqa: F401,F403
from ._decompositions import *  # noqa: F401,F403
