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

from .. import _dtypes

(FFT_TWIDDLE, FFT_STAGE, FFT_SCALE, BLUE_PRE, BLUE_FILTER, BLUE_MUL, BLUE_POST,
 FFT_HERM, RFFT_POST, IRFFT_PRE, FFT_TILE) = range(11)

_NAMES = ("fft_twiddle", "fft_stage", "fft_scale", "blue_pre", "blue_filter", "blue_mul",
          "blue_post", "fft_herm", "rfft_post", "irfft_pre", "fft_tile")


def table():
    entries = []
    for r in _dtypes.RECORDS:
        if r.name in ("complex64", "complex128"):
            entries += [((r.code, slot), f"ga::{name}<{r.ctype}>")
                        for slot, name in enumerate(_NAMES)]
    return "fft.hip", entries


def all_tables():
    return [table()]
