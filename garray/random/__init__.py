"""garray.random: NumPy's random API on counter-based Philox4x32-10 streams."""

from ._generator import Generator, default_rng

__all__ = ["Generator", "default_rng"]
