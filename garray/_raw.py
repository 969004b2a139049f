"""User kernels from HIP-dialect source strings: ``RawModule`` and ``RawKernel``
(CuPy's classes of the same names).

On the CPU device a source compiles with g++ against the CPU runtime
(``_kernels/garray/cpu_runtime.h``); one that uses ``__syncthreads`` or warp operations
runs each block's threads as fibers at the configured warp size
(``GARRAY_CPU_WARP_SIZE``).  On GPUs it compiles with NVRTC or hiprtc for the device's
arch and warp size.  Modules are cached per device; the launch itself is one call into
the Cython core (``garray._core._launch_raw``).

Note [Raw kernel launches]
~~~~~~~~~~~~~~~~~~~~~~~~~~
On the CPU device, fiber stacks and the dynamic shared buffer end at guard pages; a
fault there comes back as a status that ``_cpu_error`` reports as RuntimeError naming
the kernel (Note [CPU launch guards] in _kernels/garray/cpu_runtime.h).
"""

import ctypes
import operator
import os
import re

import numpy

from . import _compiler
from ._dtypes import DTYPE_CODE
from ._core import _launch_raw, ndarray
from ._device import get_device

__all__ = ["RawModule", "RawKernel"]

_MAX_ARGS = 64
_STACK_ENV = "GARRAY_CPU_FIBER_STACK"
_STACK_DEFAULT = 256 * 1024
_STACK_MIN, _STACK_MAX = 16 * 1024, 1 << 30
_stack_setting = (None, _STACK_DEFAULT)      # (raw environment value, bytes)


def fiber_stack_size():
    """Bytes of stack per fiber on the CPU device: ``GARRAY_CPU_FIBER_STACK`` (bytes, or
    with a K/M/G suffix, e.g. ``4M``), default 256 KiB; ValueError naming the variable
    for anything else."""
    global _stack_setting
    raw = os.environ.get(_STACK_ENV, "").strip()
    if raw == _stack_setting[0]:
        return _stack_setting[1]
    if not raw:
        value = _STACK_DEFAULT
    else:
        m = re.fullmatch(r"(\d+)\s*([KkMmGg]?)(?:i?[Bb])?", raw)
        if m is None:
            raise ValueError(f"{_STACK_ENV} must be a size in bytes, optionally with a K, M "
                             f"or G suffix (e.g. 4M); got {raw!r}")
        value = int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2).lower()]
        if not _STACK_MIN <= value <= _STACK_MAX:
            raise ValueError(f"{_STACK_ENV} must be between {_STACK_MIN // 1024} KiB and "
                             f"{_STACK_MAX >> 30} GiB; got {raw!r}")
    _stack_setting = (raw, value)
    return value


def _dim_x(d, argname):
    if isinstance(d, tuple):
        if len(d) == 0 or len(d) > 3:
            raise ValueError(f"{argname}: expected 1 to 3 dimensions, got {d}")
        for extra in d[1:]:
            if extra != 1:
                raise NotImplementedError(f"{argname}: garray launches 1-d grids and "
                                          f"blocks only; got {d}")
        d = d[0]
    d = operator.index(d)
    if d <= 0:
        raise ValueError(f"{argname}: must be positive, got {d}")
    if d >= 2 ** 32:
        raise ValueError(f"{argname}: must be below 2**32, got {d}")
    return d


def _kernel_arg(v, keep, i):
    """The address of one kernel argument's value (the value is kept alive in keep)."""
    if isinstance(v, ndarray):
        c = ctypes.c_void_p(v.ptr)
    elif isinstance(v, numpy.generic) and v.dtype in DTYPE_CODE:
        c = ctypes.create_string_buffer(v.tobytes(), v.dtype.itemsize)
    elif isinstance(v, (ctypes.Structure, ctypes._SimpleCData)):
        c = v      # a by-value struct parameter (e.g. ga::Strided<N>) laid out by ctypes
    else:
        raise TypeError(
            f"args[{i}]: expected a garray.ndarray or a NumPy scalar with the kernel "
            f"parameter's exact type (e.g. numpy.int32(n)), got {type(v).__name__}; Python "
            f"scalars are refused because their C type would be a guess")
    keep.append(c)
    return ctypes.addressof(c)


_CPU_ERRORS = {
    2: "a fiber's stack overflowed its {stack} KiB: a large local array or deep recursion "
       "in a kernel that uses __syncthreads or warp operations (each thread of a block "
       "runs on its own fiber stack); set " + _STACK_ENV + " to a larger size, e.g. "
       "GARRAY_CPU_FIBER_STACK=4M",
    3: "an access past the end of its dynamic shared memory (shared_mem={shared} bytes); "
       "pass a larger shared_mem, or check the kernel's shared-memory indexing",
    4: "an invalid launch shape (grid {grid}, block {block})",
    5: "out of host memory for the launch (fiber stacks or shared memory)",
}


def _cpu_error(err, mod, name, grid, block, shared):
    """The exception for a CPU entry's status ``err`` (cpu_runtime.h's codes)."""
    if err == 1:
        what = mod.error_what()
        if what in ("__syncthreads", "a warp operation (shuffle/ballot)"):
            what += " inside a kernel launched as barrier-free"
        return RuntimeError(f"kernel {name!r} on the CPU device: {what} (a kernel bug, "
                            f"reported instead of a hang)")
    text = _CPU_ERRORS.get(err, "error {err}").format(
        stack=mod.lib.ga_host_fiber_stack() // 1024, shared=shared, grid=grid, block=block,
        err=err)
    exc = MemoryError if err == 5 else RuntimeError
    return exc(f"kernel {name!r} on the CPU device: {text}")


class _GpuModule:
    """A user source compiled by NVRTC/hiprtc for one GPU and loaded there."""

    def __init__(self, device, code, names, options):
        props = device.properties
        arch = str(props.get("arch", "")).split(":")[0]
        rtc = _compiler.gpu_compiler(device.kind)
        # dialect.h: CUDA's warp intrinsics on AMD and HIP's on NVIDIA (the CPU runtime
        # has both spellings already).
        src = (f"#define GA_WARP_SIZE {props['warp_size']}\n#include \"garray/platform.h\"\n"
               f"#include \"garray/dialect.h\"\n#line 1 \"<RawModule source>\"\n{code}")
        # Only template instantiations and qualified names are name expressions: an
        # extern "C" kernel is found by its own name, and NVRTC rejects expressions that
        # clash with its built-ins (a kernel named `ballot` or `all`).
        exprs = [n for n in names if "<" in n or "::" in n]
        compiled = rtc.compile(src, "raw_module.hip", exprs, ["-std=c++17", *options],
                               arch=arch, include_dirs=[_compiler.kernel_dir()])
        rt = device.runtime
        self.module = rt.module_load(compiled.binary)
        lowered = {n: compiled.lowered.get(n, n) for n in names}
        self.functions = {}
        self.shared_allowed = {}        # kernel name -> dynamic shared bytes allowed so far
        for n in names:
            try:
                self.functions[n] = rt.module_function(self.module, lowered[n])
            except Exception as e:
                raise ValueError(f"kernel {n!r} not found in the module on {device} ({e}); "
                                 f"declare it extern \"C\" or pass it in name_expressions"
                                 ) from None
        _compiler.notify_load(device, props["warp_size"], dict(self.functions),
                              source=(code, tuple(names), tuple(options)))


class RawModule:
    """A module of HIP-dialect kernels from a source string (CuPy's RawModule).

    ``RawModule(code=src, name_expressions=("k<float>",))``; ``get_function(name)``
    returns a ``RawKernel``.
    """

    def __init__(self, *, code, options=(), name_expressions=()):
        if not isinstance(code, str):
            raise TypeError(f"code: expected a str, got {type(code).__name__}")
        self.code = code
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions)
        self._modules = {}

    def _module(self, device, names):
        key = (device, tuple(names))      # a module is built per device (arch, warp size)
        mod = self._modules.get(key)
        if mod is None:
            if device.kind == "cpu":
                from ._backends import cpu
                mod = _compiler.compile_cpu_source(self.code, list(names), cpu.warp_size(),
                                                   self.options)
            else:
                mod = _GpuModule(device, self.code, names, self.options)
            self._modules[key] = mod
        return mod

    def get_function(self, name):
        return RawKernel(self.code, name, self.options, _module=self)


class RawKernel:
    """One kernel from a HIP-dialect source string, launched as
    ``kernel(grid, block, args)`` with ``args`` garray arrays and NumPy scalars.

    >>> k = garray.RawKernel(r'''
    ... extern "C" __global__ void scale(float* x, float a, int n) {
    ...     int i = blockIdx.x * blockDim.x + threadIdx.x;
    ...     if (i < n) x[i] *= a;
    ... }''', "scale")
    >>> x = garray.ones(5, dtype="float32")
    >>> k((1,), (32,), (x, numpy.float32(3), numpy.int32(5)))

    See also cupy.RawKernel.
    """

    def __init__(self, code, name, options=(), *, _module=None):
        self.name = name
        self._raw = _module if _module is not None else RawModule(code=code, options=options)

    def compile(self, device=None):
        """Compile now (else on first launch); raises garray.CompileError with the log."""
        return self._raw._module(get_device(device), (self.name,))

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        g, b = _dim_x(grid, "grid"), _dim_x(block, "block")
        args = tuple(args)
        if len(args) > _MAX_ARGS:
            raise ValueError(f"args: at most {_MAX_ARGS} kernel arguments, got {len(args)}")
        shared_mem = operator.index(shared_mem)
        if shared_mem < 0:
            raise ValueError(f"shared_mem: must be non-negative, got {shared_mem}")
        devs = {a.device for a in args if isinstance(a, ndarray)}
        if len(devs) > 1:
            raise ValueError(f"args: arrays are on different devices {sorted(map(str, devs))}")
        device = devs.pop() if devs else get_device(None)
        keep = []
        addresses = tuple(_kernel_arg(a, keep, i) for i, a in enumerate(args))
        mod = self._raw._module(device, (self.name,))
        if device.kind == "cpu":
            setter = mod.__dict__.get("_ga_set_shared")
            if setter is None:
                setter = ctypes.cast(mod.lib.ga_host_set_dynamic_shared, ctypes.c_void_p).value
                mod._ga_set_shared = setter
                mod.lib.ga_host_fiber_stack.restype = ctypes.c_size_t
                mod._ga_stack = None
            stack = fiber_stack_size()
            if mod._ga_stack != stack:
                mod.lib.ga_host_set_fiber_stack(ctypes.c_size_t(stack))
                mod._ga_stack = stack
            err = _launch_raw(device, mod, mod.functions[self.name], g, b, addresses,
                              shared_mem, self.name, setter)
            if err:
                raise _cpu_error(err, mod, self.name, g, b, shared_mem)
            return
        if shared_mem > mod.shared_allowed.get(self.name, 48 * 1024):
            device.runtime.allow_dynamic_shared(mod.functions[self.name], shared_mem)
            mod.shared_allowed[self.name] = shared_mem
        _launch_raw(device, mod, mod.functions[self.name], g, b, addresses, shared_mem,
                    self.name)
