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
A user kernel must not be able to crash the process through its launch:
1. Arguments are checked against the kernel's declaration when the source spells it
   out (garray/kernels/_signature.py): count, pointer vs value, a typed pointer's dtype,
   and value conversion to the declared type.  Unreadable declarations (templates,
   name expressions, macros) keep only the older check: arrays, NumPy scalars and
   ctypes values.
2. Launch shapes and dynamic shared memory are checked against the device's limits
   (``_limits``): 1..1024 threads per block, a grid of 1..2**31 - 1 blocks, shared_mem
   up to the device's opt-in limit on GPUs and up to ``max_dynamic_shared_size_bytes``
   (64 KiB unless raised) on the CPU device.
3. On the CPU device, fiber stacks and the dynamic shared buffer end at guard pages;
   a fault there comes back as a status that ``_cpu_error`` reports as RuntimeError
   naming the kernel (Note [CPU launch guards] in _kernels/garray/cpu_runtime.h).
"""

from .._dtypes import kind_of as _kind_of
import ctypes
import operator
import os
import re

import numpy

from .. import _compiler, _sanitizer
from .._dtypes import DTYPE_CODE
from .._core import _launch_raw, ndarray
from .._device import get_device
from .._streams import stream_scope
from ._signature import signature
from .._backends import cpu
from .._compiler.progress import compiling, source_label

__all__ = ["RawModule", "RawKernel"]

_MAX_ARGS = 64

# A test hook (garray.testing.gpu_stub): called as (device, args, params) right before a
# GPU launch of a user kernel, on the launching thread, to tell the stub drivers' hazard
# checker which bytes the launch touches.  None in product use.
_launch_observer = None
_MAX_BLOCK = 1024            # threads per block: NVIDIA, AMD and the CPU device
_MAX_GRID = 2 ** 31 - 1
_CPU_SHARED = 64 * 1024      # the CPU device's dynamic shared memory unless raised
_CPU_SHARED_MAX = 1 << 30    # ... and how far max_dynamic_shared_size_bytes may raise it
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
    """The address of one kernel argument's value (the value is kept alive in keep), for
    a parameter whose type is unknown."""
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


def _describe(v):
    if isinstance(v, ndarray):
        return f"a garray.ndarray of dtype {v.dtype}"
    return f"{type(v).__name__} {v!r}" if isinstance(v, (int, float, complex)) else \
        type(v).__name__


def _convert(v, dt, where):
    """A scalar argument ``v`` as a NumPy scalar of the parameter's dtype ``dt``, when
    that loses nothing (TypeError for a kind that does not convert, OverflowError for a
    value out of range)."""
    if isinstance(v, ctypes._SimpleCData) and not isinstance(v, (ctypes.c_char_p,
                                                                 ctypes.c_void_p)):
        v = v.value
    if isinstance(v, numpy.generic):
        kind = _kind_of(v.dtype)
        if kind not in "biufc":
            raise TypeError(f"{where}: cannot pass {type(v).__name__} as {dt}")
        v = v.item()
    elif isinstance(v, bool):
        kind = "b"
    elif isinstance(v, int):
        kind = "i"
    elif isinstance(v, float):
        kind = "f"
    elif isinstance(v, complex):
        kind = "c"
    else:
        raise TypeError(f"{where}: expected a scalar for {dt}, got {_describe(v)}")
    order = "biufc"
    target = _kind_of(dt)
    if target == "b":
        ok = kind == "b" or (kind in "iu" and v in (0, 1))
    elif target in "iu":
        ok = kind in "biu"
    else:
        ok = order.index(kind if kind != "u" else "i") <= order.index(target)
    if not ok:
        raise TypeError(f"{where}: cannot pass {_describe(v)} as {dt} without losing "
                        f"its value; convert it first")
    if target in "iu":
        info = numpy.iinfo(dt)
        if not info.min <= int(v) <= info.max:
            raise OverflowError(f"{where}: {v} is out of range for {dt} "
                                f"({info.min}..{info.max})")
    try:
        with numpy.errstate(over="ignore"):
            out = dt.type(v)
        finite_in = target not in "fc" or numpy.isfinite(complex(v))
    except OverflowError:           # an int past float64's range
        out, finite_in = None, True
    if out is None or (finite_in and not numpy.all(numpy.isfinite(out))):
        raise OverflowError(f"{where}: {v} is out of range for {dt}")
    return out


def _checked_arg(v, p, keep, i, name):
    """The address of argument ``i`` for the declared parameter ``p`` (Param)."""
    where = f"kernel {name!r}: args[{i}] ({p.text})"
    if p.pointer:
        if not isinstance(v, ndarray):
            raise TypeError(f"{where}: the parameter is a pointer: expected a garray.ndarray, "
                            f"got {_describe(v)}")
        if p.dtype is not None and v.dtype != p.dtype:
            raise TypeError(f"{where}: the parameter points to {p.dtype}, the array has "
                            f"dtype {v.dtype}")
        c = ctypes.c_void_p(v.ptr)
    elif isinstance(v, ndarray):
        raise TypeError(f"{where}: the parameter is a value, not a pointer: expected a "
                        f"scalar, got {_describe(v)}")
    elif p.dtype is None:
        return _kernel_arg(v, keep, i)
    else:
        s = _convert(v, p.dtype, where)
        c = ctypes.create_string_buffer(s.tobytes(), s.dtype.itemsize)
    keep.append(c)
    return ctypes.addressof(c)


def _limits(device):
    """(max threads per block, max grid, max dynamic shared bytes) of ``device``."""
    if device.kind == "cpu":
        return _MAX_BLOCK, _MAX_GRID, _CPU_SHARED_MAX
    lim = device.runtime.launch_limits()
    return (min(lim["max_threads_per_block"], _MAX_BLOCK), min(lim["max_grid_x"], _MAX_GRID),
            lim["max_shared"])


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
    if err == 6:
        return _sanitizer.error(mod.error_what(), name)
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
        with compiling(source_label(names), str(device)):
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

    Parameters
    ----------
    code : str
        HIP-dialect source.
    options : tuple of str, optional
        Compiler options.
    name_expressions : sequence of str, optional
        Template instantiations to compile ("k<float>").
    """

    def __init__(self, *, code, options=(), name_expressions=()):
        if not isinstance(code, str):
            raise TypeError(f"code: expected a str, got {type(code).__name__}")
        self.code = code
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions)
        self._modules = {}

    def _module(self, device, names):
        # a module is built per device (arch, warp size), and for the CPU device's
        # sanitizer apart (garray/_sanitizer.py)
        san = device.kind == "cpu" and _sanitizer.mask != 0
        key = (device, tuple(names), san)
        mod = self._modules.get(key)
        if san and mod is not None:
            _sanitizer.configure(mod)
        if mod is None:
            if device.kind == "cpu":
                options = self.options + (("-D" + _sanitizer.DEFINE,) if san else ())
                mod = _compiler.compile_cpu_source(self.code, list(names), cpu.warp_size(),
                                                   options)
                if san:
                    _sanitizer.configure(mod)
            else:
                mod = _GpuModule(device, self.code, names, self.options)
            self._modules[key] = mod
        return mod

    def get_function(self, name):
        """The kernel ``name`` of this module, as a ``RawKernel``.

        Parameters
        ----------
        name : str
            A kernel name or one of the module's name expressions.

        Returns
        -------
        RawKernel
        """
        return RawKernel(self.code, name, self.options, _module=self)


class RawKernel:
    """One kernel from a HIP-dialect source string, launched as
    ``kernel(grid, block, args, shared_mem=0)``.

    ``args`` are garray arrays for pointer parameters and scalars for value parameters.
    When the source declares the kernel (``extern "C" __global__ void name(...)``),
    the launch checks the argument count and kinds and a typed pointer's dtype, and
    converts Python and NumPy scalars to the declared type (``2.0`` for a ``float``
    parameter is passed as float32; a value out of the type's range raises).  For
    templates and name expressions pass NumPy scalars of the exact parameter type.
    ``block`` is at most 1024 threads, ``grid`` at least one block; ``shared_mem`` is
    the dynamic shared memory in bytes, at most 64 KiB on the CPU device unless
    ``max_dynamic_shared_size_bytes`` is raised (GPUs: the device's opt-in limit).

    >>> k = garray.RawKernel(r'''
    ... extern "C" __global__ void scale(float* x, float a, int n) {
    ...     int i = blockIdx.x * blockDim.x + threadIdx.x;
    ...     if (i < n) x[i] *= a;
    ... }''', "scale")
    >>> x = garray.ones(5, dtype="float32")
    >>> k((1,), (32,), (x, 3.0, 5))

    Parameters
    ----------
    code : str
        HIP-dialect source.
    name : str
        The kernel's (or name expression's) name.
    options : tuple of str, optional
        Compiler options.

    See Also
    --------
    cupy.RawKernel
    """

    def __init__(self, code, name, options=(), *, _module=None):
        self.name = name
        self._raw = _module if _module is not None else RawModule(code=code, options=options)
        self._params = signature(self._raw.code, name)
        self._max_shared = None         # max_dynamic_shared_size_bytes, when set

    @property
    def max_dynamic_shared_size_bytes(self):
        """The most dynamic shared memory a launch may ask for: 64 KiB on the CPU device
        unless set higher (up to 1 GiB); on GPUs the device's opt-in limit applies
        anyway.  CuPy's attribute of the same name."""
        return _CPU_SHARED if self._max_shared is None else self._max_shared

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, nbytes):
        nbytes = operator.index(nbytes)
        if not 0 <= nbytes <= _CPU_SHARED_MAX:
            raise ValueError(f"max_dynamic_shared_size_bytes: must be in 0..{_CPU_SHARED_MAX},"
                             f" got {nbytes}")
        self._max_shared = nbytes

    @property
    def num_args(self):
        """The number of parameters the source declares, or None when it cannot be read
        (templates, name expressions, kernels declared by macros)."""
        return None if self._params is None else len(self._params)

    def compile(self, device=None):
        """Compile now (else on first launch); raises garray.CompileError with the log.

        Parameters
        ----------
        device : Device or str, optional
            The device to compile for (the current one by default).

        Returns
        -------
        object
            The compiled module on that device (backend-specific; kept for launches).
        """
        return self._raw._module(get_device(device), (self.name,))

    def _addresses(self, args, keep):
        params, name = self._params, self.name
        if params is None:
            return tuple(_kernel_arg(a, keep, i) for i, a in enumerate(args))
        if len(args) != len(params):
            decl = ", ".join(p.text for p in params)
            raise TypeError(f"kernel {name!r} takes {len(params)} argument"
                            f"{'s' if len(params) != 1 else ''} ({decl}), got {len(args)}")
        return tuple(_checked_arg(a, p, keep, i, name)
                     for i, (a, p) in enumerate(zip(args, params)))

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
        if stream is not None:      # queued on that stream (docs/streams.md)
            with stream_scope(stream, device):
                return self(grid, block, args, shared_mem=shared_mem)
        keep = []
        addresses = self._addresses(args, keep)
        max_block, max_grid, max_shared = _limits(device)
        if b > max_block:
            raise ValueError(f"block: {b} threads per block; {device} allows at most "
                             f"{max_block}")
        if g > max_grid:
            raise ValueError(f"grid: {g} blocks; {device} allows at most {max_grid}")
        if device.kind == "hip" and g * b >= 2 ** 32:
            raise ValueError(f"grid: {g} blocks of {b} threads; HIP allows fewer than 2**32 "
                             f"threads per launch")
        if device.kind == "cpu":
            max_shared = min(max_shared, self.max_dynamic_shared_size_bytes)
        if shared_mem > max_shared:
            hint = (" (raise the kernel's max_dynamic_shared_size_bytes to allow more)"
                    if device.kind == "cpu" else "")
            raise ValueError(f"shared_mem: {shared_mem} bytes of dynamic shared memory; "
                             f"kernel {self.name!r} on {device} may use at most "
                             f"{max_shared}{hint}")
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
        if _launch_observer is not None:
            _launch_observer(device, args, self._params)
        _launch_raw(device, mod, mod.functions[self.name], g, b, addresses, shared_mem,
                    self.name)
