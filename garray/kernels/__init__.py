"""User-defined kernels, the public module: ``RawModule`` and ``RawKernel`` (a HIP-dialect
source string compiled for the array's device), ``ElementwiseKernel`` and
``ReductionKernel`` (CuPy-style signatures and elementwise or reduction expressions,
generated around the launch layer's strided indexing).
The same source runs on the CPU device, AMD GPUs and NVIDIA GPUs.  ``sanitizer`` runs
CPU kernels (garray's and users') under the CPU sanitizer, which reports races, reads
of unwritten shared memory, barrier and warp-mask misuse and out-of-bounds accesses as
``SanitizerError`` (docs/sanitizer.md).

See also cupy.RawKernel, cupy.RawModule, cupy.ElementwiseKernel, cupy.ReductionKernel.
"""

from ._raw import RawKernel, RawModule
from ._elementwise import ElementwiseKernel
from ._reduction import ReductionKernel
from .._errors import SanitizerError
from .._sanitizer import sanitizer

__all__ = ["RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel", "SanitizerError",
           "sanitizer"]
