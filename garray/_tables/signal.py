"""The signal family's kernel table (``_kernels/signal.hip``, Note [Direct correlation]
there).

Rows are dtype codes (the 13 Array API dtypes; float16 runs float32's); one slot,
``SIG_CORRELATE``: the direct N-d correlation ``ga::sig_correlate<T>`` that
garray.convolve/correlate and garray.signal launch (``garray/signal/_direct.py``).
"""

from .. import _dtypes

SIG_CORRELATE = 0


def table():
    entries = [((r.code, SIG_CORRELATE), f"ga::sig_correlate<{r.ctype}>")
               for r in _dtypes.API_RECORDS]
    return "signal.hip", entries


def all_tables():
    return [table()]
