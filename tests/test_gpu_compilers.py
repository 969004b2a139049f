"""The GPU compilers (NVRTC, hiprtc) compile HIP-dialect kernels with no GPU and no driver.

Each test runs once per compiler and skips, with the loader's reason, where that compiler
is not installed (``ci/install-gpu-compilers.sh`` installs both on Debian 12).  They do not
depend on GARRAY_DEVICE: compiling needs no device.
"""

import concurrent.futures
import importlib
import os
import re

import pytest

from garray._errors import BackendUnavailableError, CompileError

# (module, default arch, warp size, ELF e_machine of the binary)
COMPILERS = {
    "nvrtc": ("sm_90", 32, 190),     # EM_CUDA
    "hiprtc": ("gfx90a", 64, 224),   # EM_AMDGPU
}

AXPY = """\
template <class T>
__global__ void axpy(T* y, const T* x, T a, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""
AXPY_LOWERED = {  # Itanium mangling: the same from NVRTC and hiprtc
    "axpy<float>": "_Z4axpyIfEvPT_PKS0_S0_x",
    "axpy<double>": "_Z4axpyIdEvPT_PKS0_S0_x",
}


def _module(kind):
    return importlib.import_module(f"garray._compiler.{kind}")


@pytest.fixture(params=sorted(COMPILERS))
def rtc(request):
    mod = _module(request.param)
    ok, reason = mod.available()
    if not ok:
        pytest.skip(reason)
    return mod


def _e_machine(binary):
    assert binary[:4] == b"\x7fELF", binary[:16]
    return int.from_bytes(binary[18:20], "little")


@pytest.mark.parametrize("kind", sorted(COMPILERS))
def test_available_never_raises(kind):
    ok, reason = _module(kind).available()
    assert isinstance(ok, bool)
    assert isinstance(reason, str) and reason


def test_version_and_identity(rtc):
    major, minor = rtc.version()
    assert isinstance(major, int) and isinstance(minor, int) and major > 0
    ident = rtc.identity()
    assert rtc.KIND in ident and f"{major}.{minor}" in ident


def test_compile_templated_kernel(rtc):
    arch, _, machine = COMPILERS[rtc.KIND]
    mod = rtc.compile(AXPY, "axpy.hip", list(AXPY_LOWERED), [], arch=arch)
    assert len(mod.binary) > 0
    assert _e_machine(mod.binary) == machine
    assert mod.lowered == AXPY_LOWERED
    assert all(v.startswith("_Z") for v in mod.lowered.values())
    assert mod.arch == arch
    assert mod.format == ("cubin" if rtc.KIND == "nvrtc" else "hsaco")
    assert "-std=c++17" in mod.options


def test_nvrtc_ptx():
    nv = _module("nvrtc")
    ok, reason = nv.available()
    if not ok:
        pytest.skip(reason)
    mod = nv.compile(AXPY, "axpy.hip", ["axpy<float>"], [], arch="compute_90")
    assert mod.format == "ptx"
    text = mod.binary.rstrip(b"\0").decode()
    assert ".target sm_90" in text
    assert AXPY_LOWERED["axpy<float>"] in text
    assert mod.binary.endswith(b"\0")  # cuModuleLoadData wants a NUL-terminated string


def test_syntax_error_raises_compile_error_with_log(rtc):
    arch = COMPILERS[rtc.KIND][0]
    bad = "template <class T>\n__global__ void k(T* y) {\n    T v = 1\n}\n"
    with pytest.raises(CompileError) as info:
        rtc.compile(bad, "bad.hip", ["k<float>"], [], arch=arch)
    log = info.value.log
    # NVRTC writes "bad.hip(4): error: ...", hiprtc "bad.hip:3:12: error: ..." (the
    # missing ';' is noticed on line 3 or at the '}' on line 4)
    assert re.search(r"bad\.hip(\((3|4)\)|:(3|4):\d+): error", log), log
    assert "error" in str(info.value)


def test_include_dirs_and_options(rtc, tmp_path):
    arch = COMPILERS[rtc.KIND][0]
    inc = tmp_path / "inc" / "mylib"
    inc.mkdir(parents=True)
    (inc / "twice.h").write_text(
        "#pragma once\ntemplate <class T> __device__ T twice(T x) { return x + x; }\n")
    src = ('#include "mylib/twice.h"\n'
           "#ifndef SCALE\n#error SCALE not defined\n#endif\n"
           "template <class T> __global__ void k(T* y) { y[0] = twice(y[0]) * SCALE; }\n")
    mod = rtc.compile(src, "inc.hip", ["k<int>"], ["-DSCALE=3"], arch=arch,
                      include_dirs=[tmp_path / "inc"])
    assert mod.lowered == {"k<int>": "_Z1kIiEvPT_"}
    assert "-DSCALE=3" in mod.options and f"-I{tmp_path / 'inc'}" in mod.options


def test_typedef_and_repeated_name_expressions(rtc):
    # hiprtc 5.2 cannot name these itself (it compares demangled text); garray._compiler.hiprtc
    # finds them through markers.  A repeated expression must not break either compiler.
    arch = COMPILERS[rtc.KIND][0]
    src = ("namespace ga { typedef long long int64; template <class T> struct cplx { T re, im; };\n"
           "template <class T, class I> __global__ void k(T* y, I n) {} }\n")
    exprs = ["ga::k<ga::cplx<float>, ga::int64>", "ga::k<double, long long>",
             "ga::k<double, ga::int64>", "ga::k<double, long long>"]
    mod = rtc.compile(src, "td.hip", exprs, [], arch=arch)
    assert mod.lowered == {
        "ga::k<ga::cplx<float>, ga::int64>": "_ZN2ga1kINS_4cplxIfEExEEvPT_T0_",
        "ga::k<double, long long>": "_ZN2ga1kIdxEEvPT_T0_",
        "ga::k<double, ga::int64>": "_ZN2ga1kIdxEEvPT_T0_",
    }


def test_bad_name_expression_raises(rtc):
    arch = COMPILERS[rtc.KIND][0]
    with pytest.raises(CompileError) as info:
        rtc.compile(AXPY, "axpy.hip", ["nosuch<float>"], [], arch=arch)
    assert "nosuch" in info.value.log


def test_arch_checks(rtc):
    arch = COMPILERS[rtc.KIND][0]
    with pytest.raises(ValueError, match="arch="):
        rtc.compile(AXPY, "axpy.hip", [], ["--gpu-architecture=" + arch], arch=arch)
    with pytest.raises(ValueError):
        rtc.compile(AXPY, "axpy.hip", [], [], arch="gfx90a:bogus" if rtc.KIND == "hiprtc"
                    else "gfx90a")
    # an arch the compiler does not know is a CompileError, never a crash (hiprtc 5.2
    # aborts the process if asked for one, so garray._compiler.hiprtc checks comgr's list first)
    unknown = "gfx9999" if rtc.KIND == "hiprtc" else "sm_999"
    with pytest.raises(CompileError):
        rtc.compile(AXPY, "axpy.hip", ["axpy<float>"], [], arch=unknown)


def test_hiprtc_supported_archs():
    hip = _module("hiprtc")
    ok, reason = hip.available()
    if not ok:
        pytest.skip(reason)
    archs = hip.supported_archs()
    assert "gfx90a" in archs and "gfx908" in archs
    mod = hip.compile(AXPY, "axpy.hip", ["axpy<float>"], [], arch="gfx1030")
    assert mod.lowered["axpy<float>"] == AXPY_LOWERED["axpy<float>"]


def test_lowered_names_agree_between_compilers():
    mods = [_module(k) for k in sorted(COMPILERS)]
    missing = [m.available()[1] for m in mods if not m.available()[0]]
    if missing:
        pytest.skip("; ".join(missing))
    results = [m.compile(AXPY, "axpy.hip", list(AXPY_LOWERED), [],
                         arch=COMPILERS[m.KIND][0]).lowered for m in mods]
    assert results[0] == results[1]


@pytest.mark.parametrize("kind,env", [("nvrtc", "GARRAY_NVRTC_LIBRARY"),
                                      ("hiprtc", "GARRAY_HIPRTC_LIBRARY")])
def test_missing_library_is_reported(kind, env, monkeypatch):
    mod = _module(kind)
    monkeypatch.setenv(env, "/nonexistent/libnothing.so")
    monkeypatch.setattr(mod._loader, "_state", None)  # forget the library found earlier
    ok, reason = mod.available()
    assert not ok and "/nonexistent/libnothing.so" in reason
    with pytest.raises(BackendUnavailableError):
        mod.compile(AXPY, "axpy.hip", ["axpy<float>"], [])
    with pytest.raises(BackendUnavailableError):
        mod.version()


# ---- garray's own kernels ---------------------------------------------------------------

def _kernel_units():
    """garray's (kernel file, [name expressions]) units and the kernel dir, or skip."""
    compile_mod = pytest.importorskip("garray._compiler")
    units_fn = getattr(compile_mod, "name_expressions_for_ci", None)
    if units_fn is None:
        pytest.skip("garray._compiler.name_expressions_for_ci() does not exist yet")
    kdir = (compile_mod.kernel_dir() if hasattr(compile_mod, "kernel_dir") else
            os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "_kernels"))
    if not os.path.exists(os.path.join(kdir, "elementwise.hip")):
        pytest.skip("_kernels/elementwise.hip does not exist yet")
    try:
        units = units_fn()
    except (ImportError, AttributeError, NotImplementedError) as e:
        pytest.skip(f"name_expressions_for_ci() is not ready: {type(e).__name__}: {e}")
    if isinstance(units, dict):
        units = list(units.items())
    units = [(rel, list(exprs)) for rel, exprs in units]
    if not units:
        pytest.skip("name_expressions_for_ci() lists no units")
    return compile_mod, kdir, units


def _unit_source(compile_mod, relpath, warp_size):
    if hasattr(compile_mod, "gpu_source"):
        return compile_mod.gpu_source(relpath, warp_size)
    return f'#define GA_WARP_SIZE {warp_size}\n#include "{relpath}"\n'


def test_every_kernel_instantiation_compiles(rtc):
    """Every name expression garray instantiates compiles for sm_90 and gfx90a.

    Through garray's own GPU compile path (garray._compiler.compile_gpu), so the binaries
    land in the kernel cache: CI's stub CUDA and HIP devices (sm_90, gfx90a) then load
    them instead of compiling every unit a second time."""
    compile_mod, kdir, units = _kernel_units()
    arch, warp_size, machine = COMPILERS[rtc.KIND]
    kind = {"nvrtc": "cuda", "hiprtc": "hip"}[rtc.KIND]

    def build(unit):
        relpath, exprs = unit
        try:
            binary, lowered = compile_mod.compile_gpu(kind, relpath, exprs, arch, warp_size)
        except CompileError as e:
            return f"{relpath} ({len(exprs)} instantiations, first {exprs[:1]}): {e}"[:6000]
        assert _e_machine(binary) == machine
        assert set(lowered) == set(exprs)
        assert all(v.startswith("_Z") for v in lowered.values()), lowered
        # the compiler's spill report names every kernel (garray resources reads it)
        spills = compile_mod.unit_spills(kind, relpath, exprs, arch, warp_size)
        assert set(lowered.values()) <= set(spills), sorted(set(lowered.values()) - set(spills))
        return None

    # NVRTC compiles in parallel threads (ctypes drops the GIL); garray._compiler.hiprtc serialises.
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as ex:
        failures = [f for f in ex.map(build, units) if f]
    assert not failures, f"{len(failures)} of {len(units)} units failed:\n\n" + \
        "\n\n".join(failures[:5])


def test_every_family_is_in_the_ci_units():
    """The compile check above covers each kernel family's table (GEMM included)."""
    from garray._compiler import name_expressions_for_ci
    files = {rel for rel, _ in name_expressions_for_ci()}
    assert {"gemm.hip", "sort.hip", "reduce.hip", "index.hip", "random.hip"} <= files


@pytest.mark.parametrize("kind, arch", [("cuda", "sm_90"), ("hip", "gfx90a")])
def test_compile_gpu_unit_is_cached_on_disk(kind, arch, tmp_path, monkeypatch):
    """garray._compiler.compile_gpu: an op's unit compiles and the second call hits the cache."""
    rtc = _module("nvrtc" if kind == "cuda" else "hiprtc")
    ok, why = rtc.available()
    if not ok:
        pytest.skip(why)
    from garray._tables import ops as _optable
    from garray import _compiler
    monkeypatch.setenv("GARRAY_CACHE_DIR", str(tmp_path))
    f, exprs = _optable.OPS["multiply"].unit()
    binary, lowered = _compiler.compile_gpu(kind, f, exprs, arch, 32 if kind == "cuda" else 64)
    assert binary and set(lowered) == set(exprs)
    assert all(v.startswith("_Z") for v in lowered.values())
    files = sorted(p.name for p in tmp_path.iterdir())
    assert any(n.endswith(".bin") for n in files) and any(n.endswith(".names") for n in files)
    calls = []
    monkeypatch.setattr(rtc, "compile", lambda *a, **k: calls.append(a))
    again = _compiler.compile_gpu(kind, f, exprs, arch, 32 if kind == "cuda" else 64)
    assert again == (binary, lowered) and calls == []


PORTABLE_BLOCK_SUM = r"""
extern "C" __global__ void block_sum(const float* x, float* out, int n) {
    GA_DYNAMIC_SHARED(float, buf);
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < (unsigned)n ? x[i] : 0.0f;
    GA_SYNCTHREADS();
    float v = t < GA_WARP_SIZE ? buf[t] : 0.0f;
    for (int d = GA_WARP_SIZE / 2; d > 0; d /= 2) v += GA_SHFL_DOWN(v, d);
    if (t == 0) out[blockIdx.x] = v;
}
"""


@pytest.mark.parametrize("kind, arch, ws", [("nvrtc", "sm_90", 32), ("hiprtc", "gfx90a", 64)])
def test_user_source_with_platform_macros_compiles_for_gpus(kind, arch, ws):
    """What RawModule hands NVRTC/hiprtc: the platform header, then the user's source."""
    rtc = _module(kind)
    ok, why = rtc.available()
    if not ok:
        pytest.skip(why)
    from garray import _compiler
    src = f'#define GA_WARP_SIZE {ws}\n#include "garray/platform.h"\n{PORTABLE_BLOCK_SUM}'
    mod = rtc.compile(src, "raw_module.hip", ["block_sum"], ["-std=c++17"], arch=arch,
                      include_dirs=[_compiler.kernel_dir()])
    assert mod.binary and mod.lowered["block_sum"] == "block_sum"


# ---- spills, as the compilers report them (garray/_compiler/spills.py) -------------------

def _spilling_source(n):
    """A kernel with ``n`` doubles live across a loop (spills when registers are capped)
    beside one that needs almost none."""
    decl = ", ".join(f"a{i} = x[{i}]" for i in range(n))
    body = " ".join(f"a{i} = a{i} * a{(i + 1) % n} + a{(i + n - 1) % n};" for i in range(n))
    total = " + ".join(f"a{i}" for i in range(n))
    return (f"template <class T> __global__ void __launch_bounds__(1024) heavy(T* x, int m) {{\n"
            f"    T {decl};\n    for (int i = 0; i < m; ++i) {{ {body} }}\n    x[0] = {total};\n}}\n"
            f"template <class T> __global__ void light(T* x) {{ x[0] += 1; }}\n")


def test_spill_reports_name_the_kernel_that_spills(rtc):
    """96 live doubles under a 1024-thread launch bound (64 registers per thread on sm_90,
    128 VGPRs on gfx90a): NVRTC (ptxas -v) and hiprtc (the code object's metadata) both
    report `heavy` spilling and `light` not.  The figure is bounded by the thread's frame
    (spills.py)."""
    from garray._compiler import spills
    exprs = ["heavy<double>", "light<float>"]
    if rtc.KIND == "nvrtc":
        mod = rtc.compile(_spilling_source(96), "spill.hip", exprs, ["-Xptxas=-v"],
                          arch="sm_90")
        got = spills.ptxas_spills(mod.log)
        frames = {m.group(1): int(m.group(2)) for m in re.finditer(
            r"Function properties for (\S+)\s*\n\D*(\d+) bytes stack frame", mod.log)}
    else:
        mod = rtc.compile(_spilling_source(96), "spill.hip", exprs, [], arch="gfx90a")
        got = spills.amdgpu_spills(mod.binary)
        meta = spills.amdgpu_kernels(mod.binary)
        frames = {k: v[".private_segment_fixed_size"] for k, v in meta.items()}
        assert meta[mod.lowered["heavy<double>"]][".vgpr_spill_count"] > 0
    heavy, light = mod.lowered["heavy<double>"], mod.lowered["light<float>"]
    assert set(got) == {heavy, light}
    assert 0 < got[heavy] <= frames[heavy]
    assert got[light] == 0


def test_ptxas_report_parsing():
    from garray._compiler.spills import ptxas_spills
    log = ("ptxas info    : Function properties for _Z1kPf\n"
           "ptxas         .     2400 bytes stack frame, 96 bytes spill stores, 96 bytes spill loads\n"
           "ptxas info    : Function properties for _Z1jPf\n"
           "ptxas         .     64 bytes stack frame, 128 bytes spill stores, 8 bytes spill loads\n")
    assert ptxas_spills(log) == {"_Z1kPf": 96, "_Z1jPf": 64}    # at most the frame
    assert ptxas_spills("") == {} and ptxas_spills(None) == {}


def test_msgpack_reader_reads_what_msgpack_writes():
    """The AMDGPU metadata reader against the msgpack package, on the types the metadata
    uses (maps, arrays, strings of every length class, ints of every width, bools)."""
    msgpack = pytest.importorskip("msgpack")
    from garray._compiler.spills import _unpack
    doc = {"amdhsa.version": [1, 2], "amdhsa.kernels": [
        {".name": "_Z1kPf", ".vgpr_spill_count": 250, ".private_segment_fixed_size": 70000,
         ".sgpr_count": -3, ".big": 2**40, ".neg": -2**20, ".wavefront_size": 64,
         ".uses_dynamic_stack": False, ".flag": True, ".s": "x" * 40, ".t": "y" * 300,
         ".args": [{".size": 8, ".offset": i} for i in range(20)],
         ".m": {str(i): i for i in range(20)}, ".f": 1.5, ".none": None}]}
    raw = msgpack.packb(doc, use_bin_type=True)
    assert _unpack(raw, 0) == (doc, len(raw))


def test_resources_check_flags_local_memory_and_spills():
    """The CI rule (resources.problems): a launch that cannot take 256 threads, more than
    1 KiB of local memory or more than 256 bytes of spill per thread fails, unless the
    template is listed with its reason; at the limits it passes."""
    from garray._compiler import resources as r
    ok = {"max_threads": 256, "local": r.LOCAL_LIMIT, "spill": r.SPILL_LIMIT}
    rows = [("u.hip", "ga::fine<float>", ok),
            ("u.hip", "ga::wide<float>", dict(ok, max_threads=128)),
            ("u.hip", "ga::deep<float>", dict(ok, local=r.LOCAL_LIMIT + 1)),
            ("u.hip", "ga::spilly<float>", dict(ok, spill=r.SPILL_LIMIT + 1)),
            ("u.hip", "ga::reduce_cols<float, 4096>", dict(ok, local=65536, spill=4096))]
    bad = r.problems(rows)
    assert len(bad) == 3
    assert [b.split(" ")[0] for b in bad] == ["ga::wide<float>", "ga::deep<float>",
                                              "ga::spilly<float>"]
    assert "spilled registers" in bad[2] and "local memory" in bad[1]
    table = "\n".join(r.table(rows, None))
    assert "never launched on a GPU" in table and "| 257 |" in table
