"""Process-wide numerical settings.

``garray.config.allow_tf32`` (default False; ``GARRAY_ALLOW_TF32=1`` at import sets it):
whether float32 matrix products on NVIDIA GPUs may use TF32 tensor cores (10-bit
mantissa inputs, float32 accumulation: about 1e-3 relative error instead of float32's
1e-7, several times faster on A100 and later).  Off by default, because NumPy code
expects float32 results.  Read by the vendor GEMM at each call (cuBLAS's math mode,
``garray/_vendor/gpublas.py``); hipBLAS has no TF32 mode, so AMD GPUs ignore it, and the
CPU device (OpenBLAS) computes in full float32 whatever it says.

    import garray
    garray.config.allow_tf32 = True     # faster, less exact float32 GEMM on NVIDIA
"""

import sys
import types

from . import _env

__all__ = ["allow_tf32"]


class _Config(types.ModuleType):
    """The module's class: assignments are checked (a typo or a string must not pass
    silently as True)."""

    @property
    def allow_tf32(self):
        return self.__dict__["_allow_tf32"]

    @allow_tf32.setter
    def allow_tf32(self, value):
        if not isinstance(value, bool):
            raise TypeError(f"allow_tf32: expected True or False, got {value!r}")
        self.__dict__["_allow_tf32"] = value


_allow_tf32 = _env.flag("GARRAY_ALLOW_TF32")
sys.modules[__name__].__class__ = _Config
