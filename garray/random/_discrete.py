"""Discrete distributions of ``Generator`` on the element-stream kernel (kinds 64-127 of
``_kernels/garray/rand_discrete.h``; ``KINDS`` numbers them as its enum does)."""

from . import _draw

KINDS = {}


class _DiscreteMethods:
    """Mixed into ``Generator``."""
