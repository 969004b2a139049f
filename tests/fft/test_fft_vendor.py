"""garray.fft's path choice (GARRAY_FFT) and the GPU vendor path (cuFFT, hipFFT; Note [GPU
vendor FFT] in garray/_vendor/gpufft.py): both paths forced against numpy.fft, the plan
cache (bound, hits, per thread, clearing), the library search and its errors.

On the CPU device only the choice and the controls are tested (it has no vendor FFT); on
the stub GPU devices the vendor calls reach ci/stubs/stub_fft.c (a stub cuFFT / hipFFT
computing in double precision on the stub's device memory), whose counters show that
the vendor really ran."""

import ctypes
import threading

import numpy
import pytest

import garray
from garray._errors import BackendUnavailableError
from garray._vendor import gpufft
from garray.fft import config
from garray.fft._fft import path
from xp import assert_xp_close

DEV = garray.default_device()
ON_GPU = DEV.kind in gpufft.VENDORS
VENDOR_OK = ON_GPU and gpufft.available(DEV.kind)[0]
needs_vendor = pytest.mark.skipif(not VENDOR_OK, reason=(
    "the vendor FFT runs on cuda/hip devices with cuFFT/hipFFT (here: "
    f"{DEV.kind}{'' if not ON_GPU else ', ' + gpufft.available(DEV.kind)[1]})"))
RNG = numpy.random.default_rng(7)


def data(shape, dtype):
    dt = numpy.dtype(dtype)
    x = RNG.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dt)


def tol(expected):
    big = max(float(numpy.abs(expected).max()) if expected.size else 1.0, 1.0)
    t = 2e-5 if expected.dtype in (numpy.float32, numpy.complex64) else 1e-13
    return dict(rtol=0, atol=t * big)


def _stats():
    """(plans made, destroyed, transforms executed, refused) of the stub vendor FFT, or
    None when the loaded library is not the stub."""
    ok, where = gpufft.available(DEV.kind)
    fn = getattr(ctypes.CDLL(where), "fake_fft_stats", None) if ok else None
    if fn is None:
        return None
    out = (ctypes.c_ulonglong * 4)()
    fn(out)
    return tuple(out)


@pytest.fixture
def fresh_cache():
    size = config.get_plan_cache_size()
    config.clear_plan_cache()
    yield
    config.set_plan_cache_size(size)
    config.clear_plan_cache()


# ---- the choice ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["kernel", "vendor", "auto", ""])
def test_cpu_device_always_takes_the_kernels(monkeypatch, mode):
    monkeypatch.setenv("GARRAY_FFT", mode)
    cpu = garray.ones(1, device="cpu").device
    assert path(cpu, 8, 1) == "kernel"
    x = data((3, 12), "complex128")
    assert_xp_close(garray.fft.fft(garray.asarray(x, device=cpu)), numpy.fft.fft(x),
                    **tol(x))


def test_bad_mode_names_the_variable(monkeypatch):
    monkeypatch.setenv("GARRAY_FFT", "cufft")
    with pytest.raises(ValueError, match="GARRAY_FFT"):
        garray.fft.fft(garray.ones(4, dtype=garray.complex64))


def test_kernel_mode_on_gpu(monkeypatch):
    if not ON_GPU:
        pytest.skip("a GPU device's choice")
    monkeypatch.setenv("GARRAY_FFT", "kernel")
    assert path(DEV, 8, 1) == "kernel"


@needs_vendor
def test_auto_takes_the_vendor_where_it_fits(monkeypatch):
    monkeypatch.delenv("GARRAY_FFT", raising=False)
    assert path(DEV, 1024, 4) == "vendor"
    assert path(DEV, 2 ** 31, 1) == "kernel"            # the plans' int sizes
    assert path(DEV, 2 ** 20, 2 ** 12) == "kernel"


# ---- both paths forced, against NumPy -------------------------------------------------

LENGTHS = (1, 2, 16, 7, 12, 97, 120)


@needs_vendor
@pytest.mark.parametrize("mode", ["vendor", "kernel"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", LENGTHS)
def test_c2c_both_paths(monkeypatch, fresh_cache, mode, dtype, n):
    monkeypatch.setenv("GARRAY_FFT", mode)
    x = data((3, n), dtype)
    before = _stats()
    for fn in ("fft", "ifft"):
        for norm in (None, "ortho", "forward"):
            want = getattr(numpy.fft, fn)(x, norm=norm)
            assert_xp_close(getattr(garray.fft, fn)(garray.asarray(x), norm=norm), want,
                            **tol(want))
    after = _stats()
    if before is not None:
        ran = after[2] - before[2]
        assert ran == (6 if mode == "vendor" else 0), ran


@needs_vendor
@pytest.mark.parametrize("mode", ["vendor", "kernel"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", LENGTHS)
def test_real_transforms_both_paths(monkeypatch, fresh_cache, mode, dtype, n):
    monkeypatch.setenv("GARRAY_FFT", mode)
    x = data((2, 3, n), dtype)
    want = numpy.fft.rfft(x, axis=1)
    assert_xp_close(garray.fft.rfft(garray.asarray(x), axis=1), want, **tol(want))
    spec = numpy.fft.rfft(x)
    for m in {n, n + 1, 2 * n}:
        want = numpy.fft.irfft(spec, m)
        assert_xp_close(garray.fft.irfft(garray.asarray(spec), m), want, **tol(want))
    want = numpy.fft.hfft(spec, 2 * n, norm="ortho")
    assert_xp_close(garray.fft.hfft(garray.asarray(spec), 2 * n, norm="ortho"), want,
                    **tol(want))


@needs_vendor
@pytest.mark.parametrize("mode", ["vendor", "kernel"])
def test_nd_and_strided_both_paths(monkeypatch, fresh_cache, mode):
    monkeypatch.setenv("GARRAY_FFT", mode)
    x = data((6, 10, 9), "complex64")
    g = garray.asarray(x)
    for want, got in [
        (numpy.fft.fft2(x), garray.fft.fft2(g)),
        (numpy.fft.fftn(x[::-2, :, 1::2]), garray.fft.fftn(g[::-2, :, 1::2])),
        (numpy.fft.ifft(x, n=5, axis=0), garray.fft.ifft(g, n=5, axis=0)),
        (numpy.fft.rfftn(x.real), garray.fft.rfftn(garray.asarray(x.real))),
        (numpy.fft.irfftn(x, s=(6, 10, 16), axes=(0, 1, 2)),
         garray.fft.irfftn(g, s=(6, 10, 16), axes=(0, 1, 2))),
    ]:
        assert_xp_close(got, want, **tol(want))


@needs_vendor
def test_vendor_irfft_leaves_its_input_and_ignores_imaginary_edges(monkeypatch, fresh_cache):
    # The vendors may overwrite a complex-to-real transform's input (the stub does, with
    # NaN), and assume the zero-frequency and Nyquist terms real; NumPy ignores their
    # imaginary parts.
    monkeypatch.setenv("GARRAY_FFT", "vendor")
    spec = data((4, 9), "complex128")
    g = garray.asarray(spec)
    for n in (16, 17):
        want = numpy.fft.irfft(spec, n)
        assert_xp_close(garray.fft.irfft(g, n), want, **tol(want))
        assert_xp_close(g, spec, rtol=0, atol=0)


@needs_vendor
def test_vendor_empty_and_out(monkeypatch, fresh_cache):
    monkeypatch.setenv("GARRAY_FFT", "vendor")
    x = data((0, 8), "complex64")
    assert_xp_close(garray.fft.fft(garray.asarray(x)), numpy.fft.fft(x))
    x = data((2, 8), "float64")
    out = garray.empty((2, 5), dtype=garray.complex128)
    r = garray.fft.rfft(garray.asarray(x), out=out)
    assert r is out
    assert_xp_close(out, numpy.fft.rfft(x), **tol(numpy.fft.rfft(x)))


# ---- the plan cache -----------------------------------------------------------------


@needs_vendor
def test_plan_cache_bound_hits_and_clear(monkeypatch, fresh_cache):
    monkeypatch.setenv("GARRAY_FFT", "vendor")
    config.set_plan_cache_size(2)
    x = {n: garray.asarray(data((2, n), "complex64")) for n in (8, 9, 10)}
    for n in (8, 9, 10):
        garray.fft.fft(x[n])
    info = config.get_plan_cache_info()
    assert info["size"] == 2 and info["max_size"] == 2
    assert [p[2] for p in info["plans"]] == [9, 10]          # least recently used first
    garray.fft.fft(x[9])
    info2 = config.get_plan_cache_info()
    assert info2["hits"] == info["hits"] + 1 and info2["misses"] == info["misses"]
    assert [p[2] for p in info2["plans"]] == [10, 9]
    s0 = _stats()
    config.clear_plan_cache()
    assert config.get_plan_cache_info()["size"] == 0
    if s0 is not None:
        assert _stats()[1] - s0[1] == 2                       # both plans destroyed


@needs_vendor
def test_plan_cache_size_zero_makes_a_plan_per_call(monkeypatch, fresh_cache):
    monkeypatch.setenv("GARRAY_FFT", "vendor")
    config.set_plan_cache_size(0)
    x = data((3, 12), "complex128")
    s0 = _stats()
    for _ in range(3):
        assert_xp_close(garray.fft.fft(garray.asarray(x)), numpy.fft.fft(x), **tol(x))
    assert config.get_plan_cache_info()["size"] == 0
    if s0 is not None:
        s1 = _stats()
        assert s1[0] - s0[0] == 3 and s1[1] - s0[1] == 3


@needs_vendor
def test_plan_caches_are_per_thread(monkeypatch, fresh_cache):
    monkeypatch.setenv("GARRAY_FFT", "vendor")
    x = data((4, 32), "complex64")
    want = numpy.fft.fft(x)
    garray.fft.fft(garray.asarray(x))
    mine = config.get_plan_cache_info()
    seen, errors = [], []
    made0 = _stats()

    def work():
        try:
            for _ in range(3):
                assert_xp_close(garray.fft.fft(garray.asarray(x)), want, **tol(want))
            seen.append(config.get_plan_cache_info())
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    # each thread made its own plan, then found it twice; this thread's cache is as it was
    assert all(i["size"] == 1 and i["misses"] == 1 and i["hits"] == 2 for i in seen), seen
    assert len(seen) == 4
    assert config.get_plan_cache_info() == mine
    # the ended threads' plans were queued by their finalisers (Note [Vendor handles] 5
    # in garray/_vendor/_handles.py), and a plan lookup destroys what is queued
    garray.fft.fft(garray.asarray(x))
    from garray._vendor import _handles
    assert not _handles._dropped
    s1 = _stats()
    if made0 is not None:       # every plan the threads made is destroyed now
        assert s1[0] - made0[0] == 4 and s1[1] - made0[1] == 4, (made0, s1)


@pytest.mark.parametrize("bad, exc", [(-1, ValueError), (1.5, TypeError), (True, TypeError),
                                      ("4", TypeError)])
def test_plan_cache_size_errors(bad, exc):
    with pytest.raises(exc, match="size"):
        config.set_plan_cache_size(bad)


def test_plan_cache_size_round_trip(fresh_cache):
    config.set_plan_cache_size(numpy.int64(5))
    assert config.get_plan_cache_size() == 5
    config.set_plan_cache_size(16)
    assert config.get_plan_cache_size() == 16


# ---- the library search -------------------------------------------------------------


@pytest.mark.skipif(not ON_GPU, reason="the vendor library of a GPU device")
def test_missing_library_forced_raises_and_auto_takes_the_kernels(monkeypatch, tmp_path):
    v = gpufft.VENDORS[DEV.kind]
    monkeypatch.setenv(v.env, str(tmp_path / "no-such-fft.so"))
    gpufft.reset()
    try:
        x = data((2, 10), "complex64")
        monkeypatch.setenv("GARRAY_FFT", "vendor")
        with pytest.raises(BackendUnavailableError, match=v.env) as e:
            garray.fft.fft(garray.asarray(x))
        assert v.name in str(e.value)
        monkeypatch.setenv("GARRAY_FFT", "auto")
        assert path(DEV, 10, 2) == "kernel"
        assert_xp_close(garray.fft.fft(garray.asarray(x)), numpy.fft.fft(x), **tol(x))
    finally:
        monkeypatch.undo()
        gpufft.reset()


def test_vendor_functions_refuse_the_cpu_device():
    x = garray.ones((2, 4), dtype=garray.complex64, device="cpu")
    with pytest.raises(ValueError, match="device"):
        gpufft.c2c(x, False, 1.0)
