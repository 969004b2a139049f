"""User-defined kernels, the public module: ``RawModule`` and ``RawKernel`` (a HIP-dialect
source string compiled for the array's device) and ``ElementwiseKernel`` (CuPy-style
signatures and an elementwise operation, generated around the launch layer's iterator).
The same source runs on the CPU device, AMD GPUs and NVIDIA GPUs.

See also cupy.RawKernel, cupy.RawModule, cupy.ElementwiseKernel.
"""

from ._raw import RawKernel, RawModule
from ._user_kernels import ElementwiseKernel

__all__ = ["RawKernel", "RawModule", "ElementwiseKernel"]
