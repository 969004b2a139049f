"""The compile layer: kernel sources in ``_kernels/`` -> loaded modules, with caches.

Note [Kernel compilation]
~~~~~~~~~~~~~~~~~~~~~~~~~
1. A *unit* is one kernel file plus a list of template instantiations, given as
   name expressions (``ga::ew2_c<ga::op::add, float, float>``).  One compiler call
   builds every instantiation of a unit, so an op costs one compile for all dtypes.
2. CPU (``gxx``): g++ builds the unit into a shared library whose entry addresses the
   Cython launch path calls directly.  NVIDIA/AMD (``gpu``, ``nvrtc``, ``hiprtc``):
   the runtime compilers build the same file by name expression, with no GPU needed.
3. ``cache``: results persist on disk under a key that covers everything the binary
   depends on, and in memory per process.

This package's top level is what the rest of garray (the Cython launch layer,
``RawModule``, CI) uses; the submodules are its parts.
"""

import importlib

from .._errors import CompileError

# The parts load when first asked for (by the first kernel load or compile): their imports
# (hashlib's OpenSSL, tempfile, the compilers' modules) are not needed by ``import garray``.
_PARTS = {"cache_dir": "cache", "kernel_dir": "cache", "source_hash": "cache",
          "compile_gpu": "gpu", "gpu_compiler": "gpu", "gpu_source": "gpu",
          "name_expressions_for_ci": "gpu", "unit_spills": "gpu",
          "CpuModule": "gxx", "compile_cpu": "gxx", "compile_cpu_source": "gxx",
          "host_source": "gxx", "uses_barriers": "gxx",
          "add_load_observer": "observers", "notify_load": "observers",
          "remove_load_observer": "observers"}

__all__ = ["CompileError", *sorted(_PARTS)]


def __getattr__(name):
    part = _PARTS.get(name)
    if part is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{part}"), name)
    globals()[name] = value
    return value
