"""User-defined kernels, the public module: ``RawModule`` and ``RawKernel`` (a HIP-dialect
source string compiled for the array's device), ``ElementwiseKernel`` and
``ReductionKernel`` (CuPy-style signatures and elementwise or reduction expressions,
generated around the launch layer's strided indexing).
The same source runs on the CPU device, AMD GPUs and NVIDIA GPUs.

See also cupy.RawKernel, cupy.RawModule, cupy.ElementwiseKernel, cupy.ReductionKernel.
"""

from ._raw import RawKernel, RawModule
from ._elementwise import ElementwiseKernel
from ._reduction import ReductionKernel

__all__ = ["RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel"]
