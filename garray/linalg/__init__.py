"""garray.linalg: the Array API linear-algebra extension and NumPy's numpy.linalg.

Products come from garray's GEMM (garray/_matmul.py, garray/_contract.py), norms from
reductions (garray/_norms.py), decompositions and solvers from the device's vendor
LAPACK (garray/_decompositions.py).
"""

from .._matmul import matmul  # noqa: F401
from .._contract import *  # noqa: F401,F403
from .._norms import *  # noqa: F401,F403
from .._decompositions import *  # noqa: F401,F403
