"""garray.nn: deep-learning style convolution and pooling on channels-first arrays.

``conv1d/2d/3d`` and their transposed forms and gradients take PyTorch's signatures
(input ``(N, C_in, *spatial)``, weight ``(C_out, C_in / groups, *kernel)``); pooling
takes ``torch.nn.functional``'s.  Every function runs garray's own kernels
(``algorithm='kernel'``) or the device's vendor library (``algorithm='vendor'``: cuDNN
on NVIDIA, MIOpen on AMD, im2col + the BLAS GEMM on the CPU device); ``'auto'`` (the
default, or ``GARRAY_CONV``) picks the vendor where it supports the dtype.  The shared
argument rules are in ``garray/nn/_params.py``; the design is docs/convolution.md.
"""

__all__ = []

# forward convolutions
from ._conv import conv1d, conv2d, conv3d  # noqa: E402
__all__ += ["conv1d", "conv2d", "conv3d"]

# transposed convolutions and gradients
from ._conv_grad import *  # noqa: E402,F401,F403
from ._conv_grad import __all__ as _grad_all  # noqa: E402
__all__ += _grad_all

# pooling
from ._pool import (avg_pool1d, avg_pool1d_backward, avg_pool2d,  # noqa: E402
                    avg_pool2d_backward, avg_pool3d, avg_pool3d_backward, max_pool1d,
                    max_pool1d_backward, max_pool2d, max_pool2d_backward, max_pool3d,
                    max_pool3d_backward)
from ._pool import __all__ as _pool_all  # noqa: E402
__all__ += _pool_all
del _pool_all
