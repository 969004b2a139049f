"""Continuous distributions of ``Generator`` on the element-stream kernel (kinds 0-63 of
``_kernels/garray/rand_continuous.h``; ``KINDS`` numbers them as its enum does)."""

import numpy

from . import _draw
from ._generator_base import _F32, _F64, _float_dtype, _target

KINDS = {"standard_exponential": 0}


class _ContinuousMethods:
    """Mixed into ``Generator``."""

    def standard_exponential(self, size=None, dtype=numpy.float64, method="zig", out=None):
        """Exponential variates of mean 1 (``-log(u)``, u in (0, 1]; float32 is the
        float64 value rounded).  ``method`` is accepted for NumPy's signature ('zig' or
        'inv'); both give the same draws here.
        See also numpy.random.Generator.standard_exponential."""
        if method not in ("zig", "inv"):
            raise ValueError(f"method: expected 'zig' or 'inv', got {method!r}")
        dt = _float_dtype(dtype, "standard_exponential")
        shape, out = _target(size, dt, out)
        return _draw.dist(self._bit_generator, KINDS["standard_exponential"], shape, dt,
                          out=out)
