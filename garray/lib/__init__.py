"""garray.lib: the parts of numpy.lib that garray offers (``stride_tricks``)."""

from . import stride_tricks  # noqa: F401
