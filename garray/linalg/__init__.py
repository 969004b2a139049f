"""garray.linalg: the Array API linear-algebra extension and NumPy's numpy.linalg.

Products come from garray's GEMM (garray/_matmul.py; the Array API forms of outer,
trace, diagonal, cross, vecdot and tensordot sit beside the norms in garray/_norms.py),
norms from reductions, decompositions and solvers from the device's vendor
LAPACK (garray/_decompositions.py).
"""

from .._matmul import matmul  # noqa: F401
from .._norms import *  # noqa: F401,F403
from .._decompositions import *  # noqa: F401,F403
