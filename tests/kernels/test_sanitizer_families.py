"""garray's own kernels under the CPU sanitizer (GARRAY_CPU_SANITIZE=all): every family,
every schedule and layout slot a test or a user can force, at small shapes, one dtype per
kind; each result equal to the fast build's, bit for bit, and to NumPy's.  And mutants of
the barrier kernels: each barrier removed, or a shared-memory write not made, is
reported, so "clean" is a statement about instrumented kernels that can fail.

The sanitizer build is compiled per kernel unit and dtype on first use (about a second
each at these shapes); the full cross-product of dtypes is ``GARRAY_SANITIZE_ALL_DTYPES=1``.
"""

import contextlib
import os

import numpy
import pytest

import garray
from garray import _core, _sanitizer
from garray.kernels import ElementwiseKernel, ReductionKernel, SanitizerError, sanitizer
from xp import ALL_DTYPES, assert_xp_close

ON_CPU = garray.default_device().kind == "cpu"
pytestmark = pytest.mark.skipif(not ON_CPU, reason="the sanitizer checks CPU kernels")

SEED = 20261206
# one dtype per kind (bool, signed, unsigned, float, half, complex); all of them on request
KINDS = (ALL_DTYPES if os.environ.get("GARRAY_SANITIZE_ALL_DTYPES") == "1" else
         ("bool", "int32", "uint8", "float32", "float16", "complex128"))
NUMERIC = tuple(d for d in KINDS if d != "bool")
REAL = tuple(d for d in NUMERIC if not d.startswith("complex"))
FLOAT = tuple(d for d in REAL if d.startswith("float"))


def data(xp, shape, dtype, seed=0):
    """Deterministic values of ``dtype`` (mixed signs where the dtype has them), made by
    xp in its own memory (the sanitizer judges the bounds of garray's allocations)."""
    rng = numpy.random.default_rng(seed)
    h = rng.integers(-9, 10, size=shape)
    if numpy.dtype(dtype).kind in "bu":
        h = numpy.abs(h)
    h = h.astype(dtype)
    if numpy.dtype(dtype).kind == "c":
        h = h + 1j * rng.integers(-5, 6, size=shape)
    return xp.array(h.astype(dtype))


@contextlib.contextmanager
def hook(set_hook, value):
    """A test hook of the core set to ``value`` inside the block (the hooks return the
    previous setting)."""
    old = set_hook(value)
    try:
        yield
    finally:
        set_hook(old)


def reduce_schedule(name):
    return hook(_core._debug_reduce_strategy, name)


def index64():
    return hook(_core._debug_force_index64, True)


@contextlib.contextmanager
def gemm_slot(tiled):
    from garray._gemm import engine
    from garray._tables.gemm import G_RT, G_TILED
    old, env = engine._cpu_slot, os.environ.get("GARRAY_GEMM")
    engine._cpu_slot = G_TILED if tiled else G_RT
    os.environ["GARRAY_GEMM"] = "kernel"
    try:
        yield
    finally:
        engine._cpu_slot = old
        if env is None:
            os.environ.pop("GARRAY_GEMM")
        else:
            os.environ["GARRAY_GEMM"] = env


def conv_variant(v):
    from garray.nn import _conv
    return hook(_conv._debug_variant, v)


def same_bits(san, fast, where, exact=True):
    """The sanitizer build's result is the fast build's, bit for bit (``exact``), or to a
    unit in the last place where the kernels call libm in loops: the fast build's
    vectorised loops call libmvec, the instrumented build's scalar loops libm."""
    if isinstance(fast, (tuple, list)):
        for i, (s, f) in enumerate(zip(san, fast)):
            same_bits(s, f, f"{where}[{i}]", exact)
        return
    s, f = garray.asnumpy(san), garray.asnumpy(fast)
    assert s.dtype == f.dtype and s.shape == f.shape, where
    if exact:
        assert s.tobytes() == f.tobytes(), f"{where}: sanitizer build {s} != fast build {f}"
    else:
        numpy.testing.assert_allclose(s, f, rtol=4 * numpy.finfo(s.dtype).eps,
                                      atol=4 * numpy.finfo(s.dtype).eps * abs(f).max(),
                                      err_msg=where)


def run(f, dtype, setup=contextlib.nullcontext, numpy_ref=True, exact=True):
    expected = f(numpy, dtype) if numpy_ref else None
    with setup():
        fast = f(garray, dtype)
        with sanitizer("all", seed=SEED):
            san = f(garray, dtype)
    same_bits(san, fast, f.__name__, exact)
    if numpy_ref:
        assert_xp_close(san, expected)


# ---- elementwise, casts, where, creation: every layout slot ------------------------------

def ew_contiguous(xp, dt):
    a, b = data(xp, (40,), dt), data(xp, (40,), dt, 1)
    return a + b, -a if dt != "bool" else ~a, a == b


def ew_scalar(xp, dt):
    a = data(xp, (40,), dt)
    return a * a.dtype.type(3), a.dtype.type(2) * a


def ew_strided(xp, dt):
    a = data(xp, (6, 9), dt)
    return a[::2, ::-3] * a[1::2, ::3], a.T + a[:, 0]


def ew_two_outputs(xp, dt):
    a, b = data(xp, (30,), dt), data(xp, (30,), dt, 1)
    b = xp.where(b == 0, b.dtype.type(1), b)
    return xp.divmod(a, b)


def ew_at(xp, dt):
    a = xp.zeros(7, dtype=dt)
    xp.add.at(a, xp.array([0, 3, 3, 6, 0, 1]), data(xp, (6,), dt))
    return a


def cast_and_where(xp, dt):
    a = data(xp, (5, 8), dt)
    return (a.astype("float64"), a[:, ::2].astype("complex64"),
            xp.where(a[:, ::3] != 0, a[:, ::3], a[0, ::3]))


def creation(xp, dt):
    return (xp.full((3, 4), 2, dtype=dt), xp.arange(17).astype(dt), xp.eye(5, 4, 1, dtype=dt),
            xp.tril(data(xp, (4, 6), dt), -1), xp.triu(data(xp, (5, 3), dt)),
            xp.linspace(0, 1, 9))


EW = [ew_contiguous, ew_scalar, ew_strided, ew_two_outputs, ew_at, cast_and_where, creation]


@pytest.mark.parametrize("layout64", [False, True], ids=["index32", "index64"])
@pytest.mark.parametrize("dtype", KINDS)
@pytest.mark.parametrize("case", EW, ids=lambda f: f.__name__)
def test_elementwise_family(case, dtype, layout64):
    if case in (ew_two_outputs,) and dtype in ("bool", "complex128"):
        pytest.skip("divmod takes no bool or complex (NumPy)")
    run(case, dtype, index64 if layout64 else contextlib.nullcontext)


# ---- indexing -----------------------------------------------------------------------------

def gather_scatter(xp, dt):
    a = data(xp, (6, 7), dt)
    idx = xp.array([5, 0, 3, 3])
    b = a.copy()
    b[idx, 2] = a[0, 3]
    b[xp.array([1, 4])] = a[2]
    return a[idx], a[:, idx], a[a != a[0, 0]], b, xp.nonzero(a)[1], xp.take(a, idx, axis=1)


@pytest.mark.parametrize("layout64", [False, True], ids=["index32", "index64"])
@pytest.mark.parametrize("dtype", KINDS)
def test_index_family(dtype, layout64):
    run(gather_scatter, dtype, index64 if layout64 else contextlib.nullcontext)


# ---- reductions and scans: every schedule ------------------------------------------------

def reductions(xp, dt):
    a = data(xp, (5, 300), dt)
    # few outputs along axis 0: the tree schedule runs a block of 256 threads per output
    out = [a.sum(axis=1), a[:, :24].sum(axis=0), a.sum(), a[:, ::3].sum(axis=1)]
    if dt != "complex128":
        out += [a.max(axis=1), a.argmax(axis=1), a[:, :24].argmin(axis=0), a.min()]
    return out


def scans(xp, dt):
    a = data(xp, (3, 700), dt)
    return xp.cumsum(a, axis=1), xp.cumsum(a[:, :24], axis=0), xp.cumprod(a[:, :9], axis=1)


@pytest.mark.parametrize("layout64", [False, True], ids=["index32", "index64"])
@pytest.mark.parametrize("schedule", ["nb", "cols", "tree"])
@pytest.mark.parametrize("dtype", NUMERIC + ("bool",))
@pytest.mark.parametrize("case", [reductions, scans], ids=lambda f: f.__name__)
def test_reduce_family(case, dtype, schedule, layout64):
    @contextlib.contextmanager
    def setup():
        with reduce_schedule(schedule), (index64() if layout64 else contextlib.nullcontext()):
            yield
    # NumPy rounds each partial sum of a float16 scan to float16, garray accumulates in
    # float32 (docs/float16.md): that case is checked against the fast build only
    run(case, dtype, setup, numpy_ref=not (dtype == "float16" and case is scans))


# ---- sort, sets, searching ----------------------------------------------------------------

def sorting(xp, dt):
    a = data(xp, (4, 50), dt)
    flat = a.ravel()
    s = xp.sort(flat)
    return (xp.sort(a, axis=1), xp.argsort(flat, kind="stable"), xp.unique(flat),
            xp.searchsorted(s, flat[:10]), xp.partition(flat, 7)[7])


def sort_path(path, chunk, radix):
    from garray._sort import sorting as _sorting

    @contextlib.contextmanager
    def setup():
        old = _sorting._debug_sort(path, chunk, radix)
        try:
            yield
        finally:
            _sorting._debug_sort(*old)
    return setup


# The row sort and the chunked passes (radix_hist, radix_scan, radix_scatter), each with
# the CPU's 8-bit and the GPUs' 4-bit digits (docs/sorting.md).
SORT_PATHS = {"rows": ("rows", None, None), "chunks": ("chunks", 16, None),
              "rows-gpu": ("rows", None, (4, 16)), "chunks-gpu": ("chunks", 16, (4, 16))}


@pytest.mark.parametrize("path", SORT_PATHS)
@pytest.mark.parametrize("dtype", KINDS)
def test_sort_family(dtype, path):
    run(sorting, dtype, sort_path(*SORT_PATHS[path]))


# ---- GEMM: both kernel slots --------------------------------------------------------------

def products(xp, dt):
    a, b = data(xp, (70, 33), dt), data(xp, (33, 65), dt, 1)
    return a @ b, xp.einsum("ij,kj->ik", a, a[:20]), data(xp, (2, 5, 6), dt) @ data(xp, (6, 3), dt)


@pytest.mark.parametrize("tiled", [False, True], ids=["rt", "tiled"])
@pytest.mark.parametrize("dtype", NUMERIC)
def test_gemm_family(dtype, tiled):
    run(products, dtype, lambda: gemm_slot(tiled))


# ---- convolution and pooling: every variant -----------------------------------------------

def conv(xp, dt):
    import garray.nn as nn
    x, w = data(garray, (2, 8, 7, 6), dt), data(garray, (16, 8, 3, 3), dt, 1)
    y = nn.conv2d(x, w, padding=1, algorithm="kernel")
    gi = nn.conv2d_backward_input(x.shape, w, y, padding=1, algorithm="kernel")
    gw = nn.conv2d_backward_weight(x, w.shape, y, padding=1, algorithm="kernel")
    p, idx = nn.max_pool2d(x, 2, return_indices=True)
    return (y, gi, gw, p, nn.avg_pool2d(x, 3, stride=2),
            nn.max_pool2d_backward(p, idx, x.shape, 2), nn.conv_backward_bias(y))


@pytest.mark.parametrize("variant", ["direct", "rt", "tiled"])
@pytest.mark.parametrize("dtype", FLOAT)
def test_conv_family(dtype, variant):
    if dtype == "float16":
        pytest.skip("convolution takes float32 and float64")
    run(conv, dtype, lambda: conv_variant(variant), numpy_ref=False)


# ---- FFT, signal, random ------------------------------------------------------------------

def transforms(xp, dt):
    a = data(xp, (4, 30), dt).astype("complex128" if dt == "complex128" else "float64")
    out = [xp.fft.fft(a, axis=1), xp.fft.ifft(a, n=16, axis=0), xp.fft.fft2(a)]
    if dt != "complex128":
        out += [xp.fft.rfft(a, axis=1), xp.fft.irfft(xp.fft.rfft(a), n=30)]
    return out


def signals(xp, dt):
    import scipy.signal
    sig = garray.signal if xp is garray else scipy.signal
    a, k = data(xp, (60,), dt), data(xp, (7,), dt, 1)
    return (sig.convolve(a, k, method="direct"), sig.correlate(a, k, mode="same", method="direct"),
            sig.fftconvolve(a.astype("float64"), k.astype("float64")))


@pytest.mark.parametrize("dtype", ["float32", "complex128"])
@pytest.mark.parametrize("case", [transforms, signals], ids=lambda f: f.__name__)
def test_fft_and_signal_families(case, dtype):
    run(case, dtype, exact=False)


def draws(xp, dt):
    g = garray.random.default_rng(7)
    return (g.standard_normal(50), g.integers(0, 10, 40), g.permutation(33),
            g.standard_gamma(2.0, 20), g.uniform(size=(3, 5)), g.binomial(7, 0.3, 11),
            g.choice(20, 6, replace=False))


def test_random_family():
    run(draws, None, numpy_ref=False)


# ---- user kernels -------------------------------------------------------------------------

def user_kernels(xp, dt):
    a, b = data(xp, (50,), dt), data(xp, (50,), dt, 1)
    if xp is numpy:
        return a * 2 + b, (a * a).sum(dtype=a.dtype)
    axpy = ElementwiseKernel("T x, T y", "T z", "z = x * 2 + y", "san_axpy")
    ssq = ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "san_ssq")
    return axpy(a, b), ssq(a)


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_user_kernels(dtype):
    run(user_kernels, dtype)


# ---- mutants of the barrier kernels -------------------------------------------------------

def _mutant_ops():
    import garray.nn as nn
    x = garray.arange(3000, dtype="float32").reshape(3, 1000)
    a = garray.arange(70 * 50, dtype="float64").reshape(70, 50)
    xi = garray.arange(2 * 8 * 8 * 8, dtype="float32").reshape(2, 8, 8, 8)
    w = garray.ones((16, 8, 3, 3), dtype="float32")
    return {
        "block reduction tree": (lambda: reduce_schedule("tree"), lambda: x.sum(axis=1)),
        "block argmax tree": (lambda: reduce_schedule("tree"), lambda: x.argmax(axis=1)),
        "block scan": (lambda: reduce_schedule("tree"), lambda: garray.cumsum(x, axis=1)),
        "tiled GEMM": (lambda: gemm_slot(True), lambda: a @ a.T),
        "tiled convolution": (lambda: conv_variant("tiled"),
                              lambda: nn.conv2d(xi, w, algorithm="kernel")),
    }


@pytest.mark.parametrize("family", ["block reduction tree", "block argmax tree", "block scan",
                                    "tiled GEMM", "tiled convolution"])
def test_mutants_are_reported(family):
    with sanitizer("all", seed=SEED):
        setup, op = _mutant_ops()[family]
        with setup():
            _sanitizer.barrier_sites()
            op()                                   # clean
            sites = _sanitizer.barrier_sites()
            assert sites, f"{family}: no barrier was passed"
            for line in sites:                     # each barrier removed in turn
                with _sanitizer.mutant(drop_barrier_line=line):
                    with pytest.raises(SanitizerError) as e:
                        op()
                    assert e.value.check in ("race", "init"), (line, e.value)
            for nth in (0, 5):                     # a shared-memory write not made
                with _sanitizer.mutant(skip_shared_write=nth):
                    with pytest.raises(SanitizerError, match="init: "):
                        op()
            op()                                   # and clean again
