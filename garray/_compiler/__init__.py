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

from .._errors import CompileError
from .cache import cache_dir, kernel_dir, source_hash
from .gpu import compile_gpu, gpu_compiler, gpu_source, name_expressions_for_ci
from .gxx import CpuModule, compile_cpu, compile_cpu_source, host_source, uses_barriers
from .observers import add_load_observer, notify_load, remove_load_observer

__all__ = ["CompileError", "CpuModule", "add_load_observer", "notify_load",
           "remove_load_observer", "cache_dir", "compile_cpu", "compile_cpu_source",
           "compile_gpu", "gpu_compiler", "gpu_source", "host_source", "kernel_dir",
           "name_expressions_for_ci", "source_hash", "uses_barriers"]
