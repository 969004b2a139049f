"""Tests of the device runtime modules garray/_backends/{cpu,hip,cuda}.py.

None of these needs a GPU.  The cpu runtime is exercised for real; hip and cuda are
checked for what this machine actually lacks, and their reason / error logic is
driven through small stand-ins for hip-python and cuda-bindings that behave like the
real packages do without ROCm or a driver (hip-python 7.2.2: ``RuntimeError("failed
to dlopen ...")``; cuda-bindings 13: cuda.pathfinder's ``DynamicLibNotFoundError``).

Self-sufficient: if ``garray`` cannot be imported (not built yet), the pure-Python
files are loaded by path under a private package name, without garray/__init__.py.
"""

import enum
import importlib
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
_ALIAS = "_garray_backends_src"  # package name used when garray itself won't import


def _load():
    """(errors, backends, cpu, hip, cuda) modules, from garray or by path."""
    try:
        from garray import _backends, _errors
        from garray._backends import cpu, cuda, hip
        return _errors, _backends, cpu, hip, cuda
    except Exception:  # package not built / its __init__ needs the compiled core
        pass
    if _ALIAS not in sys.modules:
        spec = importlib.machinery.ModuleSpec(_ALIAS, None, is_package=True)
        pkg = importlib.util.module_from_spec(spec)
        pkg.__path__ = [str(ROOT / "garray")]
        sys.modules[_ALIAS] = pkg
    mods = [importlib.import_module(f"{_ALIAS}.{m}")
            for m in ("_errors", "_backends", "_backends.cpu", "_backends.hip", "_backends.cuda")]
    return tuple(mods)


errors, backends, cpu, hip, cuda = _load()
BackendError = errors.BackendError
BackendUnavailableError = errors.BackendUnavailableError


# --------------------------------------------------------------------------- cpu

@pytest.fixture
def rt():
    return cpu.Runtime(0)


def test_cpu_probe_and_availability():
    assert cpu.probe() == 1
    assert cpu.availability() == (True, "1 device(s)")
    assert backends.availability("cpu") == (True, "1 device(s)")


def test_cpu_round_trip(rt):
    a = np.arange(1000, dtype=np.float64) * 1.5 - 7
    n = a.nbytes
    d1, d2 = rt.malloc(n), rt.malloc(n)
    try:
        assert isinstance(d1, int) and d1 % 64 == 0 and d2 % 64 == 0
        rt.memcpy_htod(d1, a.ctypes.data, n)
        rt.memcpy_dtod(d2, d1, n)
        out = np.empty_like(a)
        rt.memcpy_dtoh(out.ctypes.data, d2, n)
        np.testing.assert_array_equal(out, a)

        rt.memset(d2, 0xAB, 16)
        raw = np.empty(n, np.uint8)
        rt.memcpy_dtoh(raw.ctypes.data, d2, n)
        np.testing.assert_array_equal(raw[:16], 0xAB)
        np.testing.assert_array_equal(raw[16:], a.view(np.uint8)[16:])
        rt.memset(d2, 0, n)
        rt.memcpy_dtoh(out.ctypes.data, d2, n)
        np.testing.assert_array_equal(out, 0.0)
    finally:
        rt.free(d1)
        rt.free(d2)


def test_cpu_malloc_edges(rt):
    assert rt.malloc(0) == 0
    rt.free(0)
    with pytest.raises(ValueError):
        rt.malloc(-1)
    with pytest.raises(MemoryError):
        rt.malloc(1 << 62)
    with pytest.raises(ValueError, match="0..255"):
        rt.memset(0, 256, 0)


def test_cpu_streams_and_events(rt):
    a = np.arange(64, dtype=np.int32)
    out = np.zeros_like(a)
    s = rt.stream_create()
    d = rt.malloc(a.nbytes)
    e0, e1 = rt.event_create(), rt.event_create()
    try:
        rt.event_record(e0, s)
        rt.memcpy_htod(d, a.ctypes.data, a.nbytes, stream=s)
        rt.memset(d, 0, 4, stream=s)
        rt.memcpy_dtoh(out.ctypes.data, d, a.nbytes, stream=s)
        rt.event_record(e1)
        rt.stream_synchronize(s)
        rt.event_synchronize(e1)
        rt.synchronize()
        assert out[0] == 0 and (out[1:] == a[1:]).all()
        ms = rt.event_elapsed_ms(e0, e1)
        assert isinstance(ms, float) and ms >= 0.0
    finally:
        rt.free(d)
    with pytest.raises(BackendError, match="never recorded"):
        rt.event_elapsed_ms(rt.event_create(), e1)
    rt.stream_destroy(s)
    rt.event_destroy(e0)
    with pytest.raises(BackendError, match="destroyed"):
        rt.stream_synchronize(s)
    with pytest.raises(BackendError, match="destroyed"):
        rt.memcpy_htod(0, 0, 0, stream=s)
    with pytest.raises(BackendError, match="destroyed"):
        rt.event_record(e0)
    with pytest.raises(BackendError, match="expected a cpu stream"):
        rt.stream_synchronize(e1)


def test_cpu_properties(rt, monkeypatch):
    monkeypatch.delenv("GARRAY_CPU_WARP_SIZE", raising=False)
    p = rt.properties()
    assert set(p) == {"name", "warp_size", "multiprocessor_count", "shared_memory_per_block",
                      "total_memory", "arch"}
    assert p["warp_size"] == 32
    assert p["multiprocessor_count"] == os.cpu_count()
    assert p["shared_memory_per_block"] == 65536
    assert p["total_memory"] > 0
    assert isinstance(p["name"], str) and p["name"]
    assert rt.kind == "cpu" and rt.index == 0


@pytest.mark.parametrize("value, expected", [(None, 32), ("", 32), ("32", 32), ("64", 64), (" 64 ", 64)])
def test_cpu_warp_size_env(monkeypatch, rt, value, expected):
    if value is None:
        monkeypatch.delenv("GARRAY_CPU_WARP_SIZE", raising=False)
    else:
        monkeypatch.setenv("GARRAY_CPU_WARP_SIZE", value)
    assert cpu.warp_size() == expected
    assert rt.properties()["warp_size"] == expected


@pytest.mark.parametrize("value", ["16", "48", "128", "0", "-32", "abc", "32.0"])
def test_cpu_warp_size_env_bad(monkeypatch, rt, value):
    monkeypatch.setenv("GARRAY_CPU_WARP_SIZE", value)
    with pytest.raises(ValueError, match="GARRAY_CPU_WARP_SIZE"):
        cpu.warp_size()
    with pytest.raises(ValueError, match="GARRAY_CPU_WARP_SIZE"):
        rt.properties()


def test_cpu_index_validation():
    assert cpu.Runtime().index == 0
    with pytest.raises(ValueError, match=r"^device: cpu has one device, index 0; got cpu:1$"):
        cpu.Runtime(1)
    with pytest.raises(ValueError, match="got cpu:-1"):
        cpu.Runtime(-1)
    with pytest.raises(TypeError):
        cpu.Runtime(0.0)


# ------------------------------------------------------------------ hip and cuda

GPU = {"hip": hip, "cuda": cuda}
NOT_INSTALLED = {"hip": "hip: hip-python is not installed (pip install 'garray[hip]')",
                 "cuda": "cuda: cuda-bindings is not installed (pip install 'garray[cuda]')"}
NO_LIBRARY = {"hip": "hip: libamdhip64.so not found",
              "cuda": "cuda: no NVIDIA driver (libcuda.so not found)"}
NO_GPU = {"hip": "hip: no AMD GPU found", "cuda": "cuda: no NVIDIA GPU found"}
VENDOR = {"hip": "hip", "cuda": "cuda"}  # top-level package of hip-python / cuda-bindings
VENDOR_MODULE = {"hip": "hip.hip", "cuda": "cuda.bindings.driver"}


def _vendor_installed(kind):
    try:
        return importlib.util.find_spec(VENDOR_MODULE[kind]) is not None
    except ImportError:  # the parent package is missing
        return False


@pytest.mark.parametrize("kind", ["hip", "cuda"])
def test_import_does_not_load_vendor_package(kind):
    """A fresh interpreter that imports the backend module has not imported the vendor."""
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('_tb', {str(Path(__file__))!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        f"assert m.{kind}.Runtime and m.{kind}.probe\n"
        f"print(sorted(k for k in sys.modules if k.split('.')[0] == {VENDOR[kind]!r}))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


@pytest.mark.parametrize("kind", ["hip", "cuda"])
def test_unavailable_here(kind):
    mod = GPU[kind]
    ok, reason = mod.availability()
    if ok:
        pytest.skip(f"this machine has a {kind} device: {reason}")
    assert reason in (NOT_INSTALLED[kind], NO_LIBRARY[kind]) or reason.startswith(NO_GPU[kind]), reason
    assert backends.availability(kind) == (False, reason)
    with pytest.raises(BackendUnavailableError) as e:
        mod.probe()
    assert str(e.value) == reason
    with pytest.raises(BackendUnavailableError) as e:
        mod.Runtime(0)
    assert str(e.value) == reason


@pytest.mark.parametrize("kind", ["hip", "cuda"])
def test_installed_vendor_package_reason(kind):
    """With hip-python / cuda-bindings installed but no GPU, the reason names the library."""
    if not _vendor_installed(kind):
        pytest.skip(f"{VENDOR_MODULE[kind]} is not installed")
    ok, reason = GPU[kind].availability()
    if ok:
        pytest.skip(f"this machine has a {kind} device: {reason}")
    assert reason == NO_LIBRARY[kind] or reason.startswith(NO_GPU[kind]), reason


# Stand-ins for the vendor packages, mirroring what the real ones return / raise.

class hipError_t(enum.IntEnum):
    hipSuccess = 0
    hipErrorInvalidValue = 1
    hipErrorOutOfMemory = 2
    hipErrorNoDevice = 100


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_OUT_OF_MEMORY = 2
    CUDA_ERROR_NOT_INITIALIZED = 3
    CUDA_ERROR_NO_DEVICE = 100


class DynamicLibNotFoundError(RuntimeError):
    """Same class name as cuda.pathfinder's."""


HIP_DLOPEN_ERROR = ("failed to dlopen 'b'libamdhip64.so'': b'libamdhip64.so: cannot open "
                    "shared object file: No such file or directory'")
CUDA_DRIVER_ERROR = ('"cuda" is an NVIDIA driver library and can only be found via system '
                     'search. Ensure the NVIDIA display driver is installed.')


@pytest.fixture
def fake_vendor(monkeypatch):
    """install(kind, **functions): put a stand-in vendor module in sys.modules."""
    calls = []

    def install(kind, **funcs):
        api = types.SimpleNamespace()
        for name, f in funcs.items():
            def wrapped(*args, _f=f, _name=name):
                calls.append(_name)
                return _f(*args)
            setattr(api, name, wrapped)
        if kind == "hip":
            api.hipError_t = hipError_t
            api.hipGetErrorName = lambda err: (hipError_t.hipSuccess, err.name.encode())
            top = types.ModuleType("hip")
            top.hip = api
            monkeypatch.setitem(sys.modules, "hip", top)
            monkeypatch.setitem(sys.modules, "hip.hip", api)
            monkeypatch.setattr(hip, "_hip_module", None)
        else:
            api.CUresult = CUresult
            api.cuGetErrorName = lambda err: (CUresult.CUDA_SUCCESS, err.name.encode())
            top, bindings = types.ModuleType("cuda"), types.ModuleType("cuda.bindings")
            top.bindings, bindings.driver = bindings, api
            top.__path__ = bindings.__path__ = []
            monkeypatch.setitem(sys.modules, "cuda", top)
            monkeypatch.setitem(sys.modules, "cuda.bindings", bindings)
            monkeypatch.setitem(sys.modules, "cuda.bindings.driver", api)
            monkeypatch.setattr(cuda, "_driver_module", None)
        monkeypatch.setattr(GPU[kind], "_probe_cache", None)
        return api

    install.calls = calls
    return install


def _raise(exc):
    def f(*args):
        raise exc
    return f


@pytest.mark.parametrize("kind", ["hip", "cuda"])
def test_reason_package_missing(kind, monkeypatch):
    mod = GPU[kind]
    for name in (["hip", "hip.hip"] if kind == "hip" else ["cuda", "cuda.bindings", "cuda.bindings.driver"]):
        monkeypatch.setitem(sys.modules, name, None)  # makes the import fail like a missing package
    monkeypatch.setattr(mod, "_probe_cache", None)
    monkeypatch.setattr(mod, "_hip_module" if kind == "hip" else "_driver_module", None)
    assert mod.availability() == (False, NOT_INSTALLED[kind])
    with pytest.raises(BackendUnavailableError, match=r"pip install 'garray\[" + kind):
        mod.Runtime(0)


def test_hip_reasons(fake_vendor):
    fake_vendor("hip", hipGetDeviceCount=_raise(RuntimeError(HIP_DLOPEN_ERROR)))
    assert hip.availability() == (False, "hip: libamdhip64.so not found")
    fake_vendor("hip", hipGetDeviceCount=lambda: (hipError_t.hipErrorNoDevice, 0))
    assert hip.availability() == (False, "hip: no AMD GPU found (hipGetDeviceCount: hipErrorNoDevice)")
    fake_vendor("hip", hipGetDeviceCount=lambda: (hipError_t.hipSuccess, 0))
    assert hip.availability()[1].startswith("hip: no AMD GPU found")
    fake_vendor("hip", hipGetDeviceCount=_raise(RuntimeError("failed to dlsym hipGetDeviceCount")))
    ok, reason = hip.availability()
    assert not ok and "failed to dlsym" in reason


def test_cuda_reasons(fake_vendor):
    fake_vendor("cuda", cuInit=_raise(DynamicLibNotFoundError(CUDA_DRIVER_ERROR)))
    assert cuda.availability() == (False, "cuda: no NVIDIA driver (libcuda.so not found)")
    fake_vendor("cuda", cuInit=_raise(RuntimeError("Failed to dlopen libcuda.so.1")))  # older releases
    assert cuda.availability() == (False, "cuda: no NVIDIA driver (libcuda.so not found)")
    fake_vendor("cuda", cuInit=lambda flags: (CUresult.CUDA_ERROR_NOT_INITIALIZED,))
    assert cuda.availability() == (False, "cuda: cuInit failed: CUDA_ERROR_NOT_INITIALIZED")
    fake_vendor("cuda", cuInit=lambda flags: (CUresult.CUDA_ERROR_NO_DEVICE,))
    assert cuda.availability()[1].startswith("cuda: no NVIDIA GPU found")
    fake_vendor("cuda", cuInit=lambda flags: (CUresult.CUDA_SUCCESS,),
                cuDeviceGetCount=lambda: (CUresult.CUDA_SUCCESS, 0))
    assert cuda.availability() == (False, "cuda: no NVIDIA GPU found")


def test_probe_is_cached(fake_vendor):
    fake_vendor("hip", hipGetDeviceCount=lambda: (hipError_t.hipSuccess, 2))
    assert hip.probe() == 2 and hip.probe() == 2 and hip.availability() == (True, "2 device(s)")
    api = fake_vendor("cuda", cuInit=lambda flags: (CUresult.CUDA_SUCCESS,),
                      cuDeviceGetCount=lambda: (CUresult.CUDA_SUCCESS, 1))
    assert cuda.probe() == 1 and cuda.probe() == 1 and cuda.availability() == (True, "1 device(s)")
    assert fake_vendor.calls == ["hipGetDeviceCount", "cuInit", "cuDeviceGetCount"]
    assert api is sys.modules["cuda.bindings.driver"]


def test_gpu_runtime_index_validation(fake_vendor):
    fake_vendor("hip", hipGetDeviceCount=lambda: (hipError_t.hipSuccess, 1))
    with pytest.raises(ValueError, match=r"^device: hip:3 does not exist; 1 hip device\(s\) found$"):
        hip.Runtime(3)
    with pytest.raises(ValueError, match="hip:-1 does not exist"):
        hip.Runtime(-1)
    fake_vendor("cuda", cuInit=lambda flags: (CUresult.CUDA_SUCCESS,),
                cuDeviceGetCount=lambda: (CUresult.CUDA_SUCCESS, 2))
    with pytest.raises(ValueError, match=r"^device: cuda:2 does not exist; 2 cuda device\(s\) found$"):
        cuda.Runtime(2)


def test_check_helpers(fake_vendor):
    fake_vendor("hip")
    assert hip._check((hipError_t.hipSuccess,), "hipFree") is None
    assert hip._check((hipError_t.hipSuccess, 7), "hipMalloc") == 7
    assert hip._check((hipError_t.hipSuccess, 7, 8), "x") == (7, 8)
    with pytest.raises(MemoryError, match="hipMalloc failed: hipErrorOutOfMemory"):
        hip._check((hipError_t.hipErrorOutOfMemory, None), "hipMalloc")
    with pytest.raises(BackendError, match=r"^hip: hipMemcpy failed: hipErrorInvalidValue$"):
        hip._check((hipError_t.hipErrorInvalidValue,), "hipMemcpy")
    fake_vendor("cuda")
    assert cuda._check((CUresult.CUDA_SUCCESS, 5), "cuMemAlloc") == 5
    with pytest.raises(MemoryError, match="cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY"):
        cuda._check((CUresult.CUDA_ERROR_OUT_OF_MEMORY, 0), "cuMemAlloc")
    with pytest.raises(BackendError, match=r"^cuda: cuMemsetD8 failed: CUDA_ERROR_INVALID_VALUE$"):
        cuda._check((CUresult.CUDA_ERROR_INVALID_VALUE,), "cuMemsetD8")


def test_driver_launch_resolves_the_entry_point_once():
    """DriverLaunch (the GPU runtimes' raw launch) dlsyms its symbol once and caches it."""
    import ctypes
    import ctypes.util
    from garray._backends import DriverLaunch

    class Fake(DriverLaunch):
        kind = "fake"
        _launch_library = ctypes.util.find_library("c") or "libc.so.6"
        _launch_symbol = "strlen"

    a = Fake().launch_address()
    assert a == ctypes.cast(ctypes.CDLL(Fake._launch_library).strlen, ctypes.c_void_p).value
    assert Fake().launch_address() == a


# ---- the library loader (garray/_loader.py) and the vendor family base ---------------


def test_one_loader_for_vendor_libraries_and_runtime_compilers():
    from garray._compiler.rtc import RtcLoader
    from garray._loader import LibraryLoader
    from garray._vendor import VendorLibrary
    assert issubclass(VendorLibrary, LibraryLoader) and issubclass(RtcLoader, LibraryLoader)


def test_vendor_layer_imports_neither_nn_nor_the_compiler():
    """The vendor libraries sit below garray.nn (which calls them) and beside the compile
    layer: no import of either, at module level or in a function."""
    import ast
    for path in sorted((ROOT / "garray" / "_vendor").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                module = node.module or ""
                assert not module.startswith(("nn", "_compiler")), (path.name, module)


def test_loader_search_order_reasons_and_reset(monkeypatch):
    """$env alone when set; otherwise every candidate in order, each rejection's reason
    kept in the message; the outcome kept until reset()."""
    import ctypes.util
    from garray._errors import BackendUnavailableError
    from garray._loader import LibraryLoader, Rejected
    libc = ctypes.util.find_library("c") or "libc.so.6"

    class Loader(LibraryLoader):
        def accept(self, lib, path):
            if not hasattr(lib, "no_such_symbol_anywhere"):
                raise Rejected("lacks no_such_symbol_anywhere")
            return lib

    calls = []
    loader = Loader("thing", env="GARRAY_TEST_THING_LIBRARY",
                    candidates=lambda: calls.append(1) or ["/nonexistent/libthing.so", libc])
    monkeypatch.delenv("GARRAY_TEST_THING_LIBRARY", raising=False)
    ok, reason = loader.available()
    assert not ok and reason.startswith("thing: not found; set GARRAY_TEST_THING_LIBRARY")
    assert "/nonexistent/libthing.so" in reason and f"{libc}: lacks no_such" in reason
    with pytest.raises(BackendUnavailableError, match="lacks no_such_symbol_anywhere"):
        loader.library()
    assert calls == [1]                    # looked for once
    monkeypatch.setenv("GARRAY_TEST_THING_LIBRARY", "/nonexistent/override.so")
    assert loader.available()[1] == reason
    loader.reset()
    reason = loader.available()[1]
    assert "override.so" in reason and libc not in reason and calls == [1]


def test_vendor_family_messages():
    """What the four GPU families share: one message form for a status, a device of
    another kind and a device kind without a vendor."""
    import garray
    from garray._vendor._base import Vendor, VendorFamily
    vendor = Vendor(kind="cuda", name="fakeBLAS", env="GARRAY_FAKEBLAS_LIBRARY",
                    install="pip install fakeblas", candidates=lambda: [], required=(),
                    prefix="fake", statuses={7: "FAKE_STATUS_INVALID_VALUE"})
    family = VendorFamily([vendor], job="fake GEMM",
                          missing="the {kind} device's fake GEMM needs {name}; {install}")
    err = family.status_error(vendor, "cuda:0", "Gemm", 7, " (m=1)")
    assert isinstance(err, garray.BackendError)
    assert str(err) == "cuda:0: fakeBLAS fakeGemm failed: FAKE_STATUS_INVALID_VALUE (m=1)"
    assert str(family.status_error(vendor, "cuda:0", "Gemm", 9)).endswith("failed: status 9")
    with pytest.raises(ValueError, match=r"^device: the fake GEMM runs on cuda devices, got"):
        family.vendor_of(garray.Device("cpu"), "the fake GEMM runs on")
    assert family.available("hip") == (False, "hip: no fake GEMM for this device kind "
                                               "(cuda: fakeBLAS)")
    ok, reason = family.available("cuda")
    assert not ok and reason.startswith("fakeBLAS: the cuda device's fake GEMM needs "
                                        "fakeBLAS; pip install fakeblas, or set "
                                        "GARRAY_FAKEBLAS_LIBRARY")
