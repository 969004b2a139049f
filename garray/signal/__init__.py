"""garray.signal: SciPy's ``scipy.signal`` convolutions (direct method) on garray arrays.

``convolve``, ``correlate`` (N-d), ``convolve2d``, ``correlate2d`` (2-d, with boundary
modes) and ``choose_conv_method`` follow scipy.signal (1.17) exactly; they run garray's
direct correlation kernel (``_kernels/signal.hip``) on the inputs' device.  The FFT
methods (``method='fft'``, ``fftconvolve``, ``oaconvolve``) run SciPy's algorithm on
garray.fft.  See docs/signal.md.
"""

from ._signaltools import (convolve, correlate, convolve2d, correlate2d,  # noqa: F401
                           choose_conv_method, fftconvolve, oaconvolve)

__all__ = ["convolve", "correlate", "convolve2d", "correlate2d", "choose_conv_method",
           "fftconvolve", "oaconvolve"]
