"""Run garray's GPU code paths on the stub GPU drivers, on a machine without a GPU.

The stub drivers (a stand-in ``libcuda.so.1`` and ``libamdhip64.so``, built from the
project's shared ``gpu-stub`` sources) accept everything a real driver does -- real
``cuda-bindings`` / ``hip-python``, NVRTC or hiprtc binaries, garray's packed argument
arrays -- but cannot execute GPU code.  ``install()`` makes them run garray's own kernels:
after each GPU module load it compiles the CPU build of the same kernels (for the same
warp size; built-in units with the GPU's vector-load path, so each thread handles the
same elements as on a GPU) and registers each entry with the stub against the loaded
function handle (``fake_register_fn``).  A launch then runs the CPU build with the very
argument array garray packed for the GPU.

    python -c "import garray.testing.gpu_stub as s; s.install(); ..."

tests/conftest.py calls ``install()`` when the default device is a GPU whose driver is the
stub; ``stats(kind)`` gives (launches, executed, unexecuted, allocations), so a test
session can show that every launch ran; ``annotation_counts()`` how many built-in
launches were annotated for the hazard checker.

Threads: the stub drivers are thread-safe (their README), so garray calls them from any
thread without a lock, as it calls the vendors' drivers.

Vendor BLAS: when the CUDA driver is the stub and the real ``nvidia-cublas`` wheel is
installed, ``install()`` loads the stub ``libcublas.so.13`` first (from
``LD_LIBRARY_PATH``): cuda-pathfinder, which garray's cuBLAS search asks before the
soname, prefers the wheel in site-packages, whose library fails on the stub driver
(``cublasCreate_v2`` -> NOT_INITIALIZED); a library already loaded is what it reports.
"""

import ctypes
import importlib.metadata
import numbers
import os
import re

import numpy

from .. import _compiler, _core
from .._core import ndarray
from .._inquiry import _extent
from ..kernels import _raw

_LIBRARIES = {"cuda": "libcuda.so.1", "hip": "libamdhip64.so"}
_libs = {}
_keep = []          # CPU modules stay loaded while the stub may call them


def stub_library(kind):
    """The stub driver for ``kind`` ("cuda" / "hip") when the driver the process loads is
    the stub (it exports ``fake_register_fn``), else None."""
    if kind not in _libs:
        lib = None
        try:
            cand = ctypes.CDLL(_LIBRARIES[kind])
            if hasattr(cand, "fake_register_fn"):
                lib = cand
                lib.fake_register_fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                                                 ctypes.c_void_p]
                lib.fake_register_fn.restype = None
                lib.fake_stats.argtypes = [ctypes.POINTER(ctypes.c_ulonglong)]
                lib.fake_stats.restype = None
                if hasattr(lib, "fake_annotate_next_launch"):
                    u64p = ctypes.POINTER(ctypes.c_ulonglong)
                    lib.fake_annotate_next_launch.argtypes = [ctypes.c_int, u64p, u64p,
                                                              ctypes.c_char_p]
                    lib.fake_annotate_next_launch.restype = None
        except (OSError, KeyError):
            lib = None
        _libs[kind] = lib
    return _libs[kind]


def stand_in(relpath, exprs, warp_size):
    """The CPU build of a built-in GPU unit, as the stub runs it (compiled and cached),
    with its entries' parameter descriptions (GA_PARAM_INFO) for launch annotations."""
    return _compiler.compile_cpu(relpath, list(exprs), warp_size,
                                 ("GA_CPU_VECTOR_LOADS=1", "GA_PARAM_INFO=1"))


def installed():
    return _on_load in _compiler.observers._observers


_primed = set()
_names = {}         # built-in function handle -> its name expression (for messages)


def _on_load(load):
    lib = stub_library(load.device.kind)
    if lib is None:
        return
    if load.device not in _primed:
        # The async stubs set up a device's NULL stream on its first use, and a blocking
        # stream's first operation (its legacy-order dependency) does that while holding
        # the queue lock: a self-deadlock when a per-thread default stream
        # (GARRAY_STREAM_PER_THREAD=1) is the first to queue work.  A query of the NULL
        # stream before any launch sets it up outside the lock.
        load.device.runtime.stream_query(0)
        _primed.add(load.device)
    shared = None
    if load.unit is not None:
        cpu = stand_in(*load.unit, load.warp_size)
    else:
        code, names, options = load.source
        cpu = _compiler.compile_cpu_source(code, list(names), load.warp_size, options)
        shared = ctypes.cast(cpu.lib.ga_host_set_dynamic_shared, ctypes.c_void_p).value
    _keep.append(cpu)
    for name, handle in load.functions.items():
        lib.fake_register_fn(int(handle), cpu.functions[name], 1, shared)
        if load.unit is not None:
            _core._debug_stub_params(int(handle), *cpu.param_info(name))
            _names[int(handle)] = name


def _cublas_wheel_installed():
    for dist in ("nvidia-cublas", "nvidia-cublas-cu13"):
        try:
            importlib.metadata.distribution(dist)
            return True
        except importlib.metadata.PackageNotFoundError:
            pass
    return False


def preload_stub_blas():
    """Load the stub ``libcublas.so.13`` before cuda-pathfinder can pick the real wheel's
    (see the module's docstring).  Returns whether a stub cuBLAS is now loaded; a stub
    that was not built (build.sh skips the BLAS stubs without scipy-openblas32) leaves
    the search as it was."""
    if stub_library("cuda") is None:
        return False
    try:
        lib = ctypes.CDLL("libcublas.so.13")
    except OSError:
        return False
    return hasattr(lib, "fake_blas_stats")


_CONST = re.compile(r"\bconst\b")


def annotate_user_launch(device, args, params):
    """Tell the stub's hazard checker the exact bytes a user kernel launch touches: each
    array argument's span, read-only ('r') for a ``const`` pointer parameter, else read
    and write ('x').  Launches whose signature is unknown, or that pass anything but
    arrays and scalars, keep the stub's conservative rule."""
    lib = stub_library(device.kind)
    if (lib is None or not hasattr(lib, "fake_annotate_next_launch") or params is None
            or len(params) != len(args)):
        return
    ptrs, sizes, modes = [], [], []
    for a, p in zip(args, params):
        if isinstance(a, ndarray):
            if not p.pointer:
                return
            span = _extent(a)              # (memory space, first byte, end byte)
            if span is not None:
                ptrs.append(span[1])
                sizes.append(span[2] - span[1])
                modes.append("r" if _CONST.search(p.text.split("*")[0]) else "x")
        elif p.pointer or not isinstance(a, (numbers.Number, numpy.generic)):
            return                       # a raw address or a struct: not known here
    n = len(ptrs)
    lib.fake_annotate_next_launch(n, (ctypes.c_ulonglong * max(n, 1))(*ptrs),
                                  (ctypes.c_ulonglong * max(n, 1))(*sizes),
                                  "".join(modes).encode() or b"x")


def annotate_launches(on=True):
    """Annotate every launch on a stub GPU with the bytes it touches, for the stubs'
    hazard checker: user kernels by ``annotate_user_launch``, built-in kernels by the
    core (Note [Stub launch annotations] in cython/_stub_annotate.pxi: each pointer
    parameter's whole allocation, read-only for a pointer to const).  ``on=False`` leaves
    every launch to the stubs' conservative rule.  Only arrays made while it is on are
    known to the core; a launch touching another leaves that launch to the rule."""
    fns = {}
    if on:
        for kind in _LIBRARIES:
            lib = stub_library(kind)
            if lib is not None and hasattr(lib, "fake_annotate_next_launch"):
                fns[kind] = tuple(ctypes.cast(getattr(lib, f), ctypes.c_void_p).value
                                  for f in ("fake_annotate_next_launch", "fake_is_device_ptr"))
    _raw._launch_observer = annotate_user_launch if fns else None
    _core._debug_stub_annotations(fns)
    return bool(fns)


def annotation_counts():
    """(built-in launches annotated, built-in launches left to the stubs' conservative
    rule because they touch device memory garray did not register)."""
    return _core._debug_stub_annotation_counts()[:2]


def unannotated_launches():
    """The first (up to 16) built-in launches left to the conservative rule: (kernel
    name expression, the unregistered device address it was passed)."""
    return [(_names.get(f, hex(f)), hex(w))
            for f, w in _core._debug_stub_annotation_counts()[2]]


def install():
    """Register CPU stand-ins for every kernel garray loads on a stub GPU from now on
    (and, with the ``nvidia-cublas`` wheel installed, load the stub cuBLAS first), and,
    when the stubs check stream order (FAKE_GPU_HAZARDS), annotate every launch with the
    bytes it touches (``annotate_launches``).
    Returns the kinds ("cuda", "hip") whose driver is the stub."""
    _compiler.add_load_observer(_on_load)
    if os.environ.get("FAKE_GPU_HAZARDS", "0") not in ("", "0"):
        annotate_launches()
    kinds = [k for k in _LIBRARIES if stub_library(k) is not None]
    if _cublas_wheel_installed():
        preload_stub_blas()
    return kinds


def uninstall():
    _compiler.remove_load_observer(_on_load)


def stats(kind):
    """(launches, executed, unexecuted, allocations) counted by the stub driver."""
    lib = stub_library(kind)
    if lib is None:
        raise RuntimeError(f"{kind}: the loaded driver is not the stub")
    out = (ctypes.c_ulonglong * 4)()
    lib.fake_stats(out)
    return tuple(out)
