"""The signal family's kernel table (``_kernels/signal.hip``, Note [Direct correlation]
there).

Rows are dtype codes (the 13 Array API dtypes; float16 runs float32's); one slot,
``SIG_CORRELATE``: the direct N-d correlation ``ga::sig_correlate<T>`` that
garray.convolve/correlate and garray.signal launch (``garray/signal/_direct.py``).
"""

from .family import Family

SIGNAL = Family("signal", "signal.hip", "SIG_CORRELATE",
                templates={"SIG_CORRELATE": "ga::sig_correlate<{T}>"},
                grid=[("api", "SIG_CORRELATE")])
FAMILIES = (SIGNAL,)
SIGNAL.export(globals())    # SIG_CORRELATE as a module name
table = SIGNAL.table
