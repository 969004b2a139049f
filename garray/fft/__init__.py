"""garray.fft: NumPy's ``numpy.fft`` and the Array API fft extension on garray's own
Stockham mixed-radix and Bluestein kernels (``_kernels/fft.hip``; docs/fft.md), or
cuFFT / hipFFT on GPUs (``GARRAY_FFT``; ``garray.fft.config`` bounds their plan cache)."""

from ._fft import fft, ifft, fft2, ifft2, fftn, ifftn  # noqa: F401
from ._real import rfft, irfft, rfft2, irfft2, rfftn, irfftn, hfft, ihfft  # noqa: F401
from ._frequencies import fftfreq, rfftfreq, fftshift, ifftshift  # noqa: F401
from . import config  # noqa: F401

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift"]
