"""The fft family's kernel table (``_kernels/fft.hip``, Note [Stockham FFT] there).

Rows are the complex dtype codes (complex64, complex128); slots:

- ``FFT_TWIDDLE``: the twiddle table W_n^k, k < n, computed in double;
- ``FFT_STAGE``: one Stockham stage of radix 2, 3, 4, 5 or 7 over every row;
- ``FFT_SCALE``: a scaled copy (length-1 transforms);
- ``BLUE_PRE``, ``BLUE_FILTER``, ``BLUE_MUL``, ``BLUE_POST``: Bluestein's chirp steps;
- ``FFT_HERM``: the Hermitian full spectrum of irfft/hfft;
- ``RFFT_POST``: the even-length rfft's untangling of the half-length complex FFT;
- ``IRFFT_PRE``: the even-length irfft's packing of the spectrum into n/2 values;
- ``FFT_TILE``: one pass of the tiled (four-step) transform: sub-transforms of a few
  columns at once in a cache-resident buffer (the CPU device's path).

``garray/fft/_engine.py`` launches them.
"""

from .family import Family

_SLOTS = ("FFT_TWIDDLE FFT_STAGE FFT_SCALE BLUE_PRE BLUE_FILTER BLUE_MUL BLUE_POST FFT_HERM "
          "RFFT_POST IRFFT_PRE FFT_TILE")
# every kernel is named as its slot, in lower case: ga::fft_twiddle<T> ...
FFT = Family("fft", "fft.hip", _SLOTS,
             templates={s: f"ga::{s.lower()}<{{T}}>" for s in _SLOTS.split()},
             grid=[("complex64 complex128", _SLOTS)])
FAMILIES = (FFT,)
FFT.export(globals())       # FFT_TWIDDLE ... as module names
table = FFT.table
