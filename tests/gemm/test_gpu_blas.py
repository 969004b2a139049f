"""The GPU devices' vendor GEMM (garray/_vendor/gpublas.py: cuBLAS, hipBLAS) against NumPy.

The entry point has cublasXgemmStridedBatched's column-major semantics, so the operands
here are flat garray buffers holding column-major matrices with padded leading dimensions
and batch strides; NumPy computes the expectation from the same host data (values in
halves, so float32 products are exact and every dtype compares at its own tolerance).
These run on GPU devices (GARRAY_DEVICE=cuda|hip, the stub drivers in CI); on the CPU
device only the library-search and configuration tests run.
"""

import ctypes
import threading

import numpy
import pytest

import garray
from garray._vendor import gpublas
from isolated import run_isolated
from xp import assert_xp_close, sample

DEV = garray.default_device()
GPU = DEV.kind in ("cuda", "hip")
gpu_only = pytest.mark.skipif(
    not GPU, reason=f"the vendor GEMM of GPU devices; the default device is {DEV} "
                    f"(GARRAY_DEVICE=cuda or hip runs these)")
DTYPES = ("float32", "float64", "complex64", "complex128")
OP_PAIRS = [a + b for a in "NTC" for b in "NTC"]
# The vendors' own names (their headers), not gpublas's tables.
PACKAGES = {"cuda": ("nvidia-cublas", "GARRAY_CUBLAS_LIBRARY"),
            "hip": ("hipBLAS", "GARRAY_HIPBLAS_LIBRARY")}
INVALID_VALUE = {"cuda": ("cublasSgemm_v2", "CUBLAS_STATUS_INVALID_VALUE"),
                 "hip": ("hipblasSgemm", "HIPBLAS_STATUS_INVALID_VALUE")}


def _op(x, t):
    return x if t == "N" else x.T if t == "T" else x.conj().T


def _scalars(dtype):
    return (1.5 - 0.5j, -0.75 + 0.25j) if numpy.dtype(dtype).kind == "c" else (1.5, -0.75)


def run_case(dtype, ta, tb, m=5, n=4, k=6, batch=1, pads=(3, 2, 1), zero_stride="",
             alpha=None, beta=None):
    """One strided-batched GEMM through gpublas.gemm on garray buffers, against NumPy.
    ``pads``: how far lda, ldb, ldc exceed the stored rows; ``zero_stride``: the operands
    ("a", "b") broadcast over the batch with stride 0."""
    dt = numpy.dtype(dtype)
    al, be = _scalars(dt)
    alpha = al if alpha is None else alpha
    beta = be if beta is None else beta
    ra, ca = (m, k) if ta == "N" else (k, m)
    rb, cb = (k, n) if tb == "N" else (n, k)
    lda, ldb, ldc = ra + pads[0], rb + pads[1], m + pads[2]
    ea, eb, ec = lda * ca, ldb * cb, ldc * n
    sa = 0 if "a" in zero_stride else ea + 3
    sb = 0 if "b" in zero_stride else eb + 1
    sc = ec + 2
    A = sample(sa * (batch - 1) + ea, dt, start=1)
    B = sample(sb * (batch - 1) + eb, dt, start=2)
    C = sample(sc * (batch - 1) + ec, dt, start=3)
    want = C.copy()
    for i in range(batch):
        Ai = A[i * sa:i * sa + ea].reshape(ca, lda).T[:ra]     # column-major, padded
        Bi = B[i * sb:i * sb + eb].reshape(cb, ldb).T[:rb]
        Ci = want[i * sc:i * sc + ec].reshape(n, ldc).T[:m]
        Ci[:] = alpha * (_op(Ai, ta) @ _op(Bi, tb)) + beta * Ci
    dA, dB, dC = (garray.asarray(x, device=DEV) for x in (A, B, C))
    gpublas.gemm(DEV, dt, ta, tb, m, n, k, alpha, dA.ptr, lda, sa, dB.ptr, ldb, sb,
                 beta, dC.ptr, ldc, sc, batch)
    assert_xp_close(dC, want, err_msg=f"{dt} {ta}{tb} batch {batch}")


@gpu_only
@pytest.mark.parametrize("ops", OP_PAIRS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_every_op_pair(dtype, ops):
    run_case(dtype, ops[0], ops[1])


@gpu_only
@pytest.mark.parametrize("ops", ["NT", "CN", "TC"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_strided_batched(dtype, ops):
    run_case(dtype, ops[0], ops[1], batch=3, pads=(0, 1, 2))


@gpu_only
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("zero", ["a", "b"])
def test_gemm_batch_broadcasts_a_stride_0_operand(dtype, zero):
    run_case(dtype, "T", "N", m=3, n=5, k=4, batch=4, zero_stride=zero)


@gpu_only
@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_scalars(dtype):
    run_case(dtype, "N", "N", alpha=1, beta=0)        # ints; beta 0
    run_case(dtype, "N", "T", alpha=0.0, beta=2)      # alpha 0: C scaled only
    run_case(dtype, "T", "N", m=4, n=3, k=2, alpha=-2.5, beta=1.0)


@gpu_only
@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_gemm_beta_zero_ignores_c(dtype):
    """beta == 0 makes C write-only (BLAS): a NaN already there must not survive."""
    a, b = sample((4, 3), dtype, 1), sample((3, 2), dtype, 2)
    da, db = garray.asarray(a, device=DEV), garray.asarray(b, device=DEV)   # kept alive
    c = garray.full((4, 2), numpy.nan, dtype=dtype, device=DEV)
    # C-order c = a @ b is column-major c.T = b.T @ a.T
    gpublas.gemm(DEV, dtype, "N", "N", 2, 4, 3, 1, db.ptr, 2, 0, da.ptr, 3, 0, 0, c.ptr, 2, 0, 1)
    assert_xp_close(c, a @ b)


@gpu_only
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_gemm_on_c_order_arrays_and_transposed_views(dtype):
    """What matmul does with garray arrays: a C-order (r, c) array is a column-major
    (c, r) matrix with ld = c; a transposed view of one is the same buffer with op "T"."""
    a = garray.asarray(sample((5, 3), dtype, 1), device=DEV)     # used as (3, 5) = a.T
    b = garray.asarray(sample((4, 5), dtype, 2), device=DEV)     # used as (5, 4) = b.T
    c = garray.asarray(sample((3, 4), dtype, 3), device=DEV)
    want = 2 * (a.get().T @ b.get().T) + 0.5 * c.get()
    at, bt = a.T, b.T                                            # F-order views
    assert not at.flags.c_contiguous and at.flags.f_contiguous
    # In column-major terms c's buffer is c.T (4 x 3, ld 4) = 2 * b @ a + 0.5 * c.T, and
    # the buffers of at and bt hold a.T (3 x 5, ld 3) and b.T (5 x 4, ld 5): op "T" twice.
    gpublas.gemm(DEV, dtype, "T", "T", 4, 3, 5, 2, bt.ptr, 5, 0, at.ptr, 3, 0, 0.5,
                 c.ptr, 4, 0, 1)
    assert_xp_close(c, want)


@gpu_only
@pytest.mark.parametrize("case", ["m=0", "n=0", "k=0"])
def test_gemm_empty_sizes(case):
    """m or n == 0: a quick return that touches nothing; k == 0: C = beta * C."""
    m, n, k = {"m=0": (0, 3, 2), "n=0": (3, 0, 2), "k=0": (3, 2, 0)}[case]
    dt = numpy.dtype("float64")
    C = sample(6, dt, 3)
    dA, dB, dC = (garray.asarray(x, device=DEV) for x in (sample(6, dt, 1), sample(6, dt, 2), C))
    gpublas.gemm(DEV, dt, "N", "N", m, n, k, 1.0, dA.ptr, max(m, 1), 0, dB.ptr, max(k, 1), 0,
                 2.0, dC.ptr, max(m, 1), 0, 1)
    want = C.copy()
    if k == 0:
        want[:m * n] *= 2
    assert_xp_close(dC, want)


@gpu_only
def test_handles_per_thread():
    """Each thread gets its own handle, made with the device current on that thread (a
    thread that never touched the device must work: the stub refuses a handle used
    without its context current).  The threads run one after the other: the stub's
    memory protection is not thread-safe."""
    mine = gpublas.handle(DEV)
    assert gpublas.handle(DEV) == mine
    seen, errors = [], []

    def work():
        try:
            seen.append(gpublas.handle(DEV))
            run_case("float32", "N", "C", batch=2)
            seen.append(gpublas.handle(DEV))
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    for _ in range(2):
        t = threading.Thread(target=work)
        t.start()
        t.join()
    assert not errors, errors
    assert seen[0] == seen[1] and seen[2] == seen[3] and mine not in seen
    run_case("float64", "T", "N")        # this thread's handle still works


@gpu_only
def test_a_dropped_handle_is_destroyed_by_the_next_use():
    """A thread's handle is dropped with its thread: queued, then destroyed by the next
    HandlePool.get on any thread (Note [Vendor handles] 5)."""
    from garray._vendor import _handles
    got = []
    t = threading.Thread(target=lambda: got.append(gpublas.handle(DEV)))
    t.start()
    t.join()
    assert any(args[1] == got[0] for _, _, args in _handles._dropped)
    gpublas.handle(DEV)
    assert not _handles._dropped
    run_case("float32", "N", "N")


@gpu_only
def test_a_handle_dropped_inside_a_library_lookup_does_not_deadlock():
    """CI's stub run once hung: the garbage collector finalised a handle while this
    thread held a library lookup's lock (ctypes.CDLL allocating inside Once.get), and
    the finaliser's destroy looked the library up again.  Here the last reference goes
    while the lookup's lock is held and its lookup pending: the finaliser must not wait
    for that lock."""
    code = """
        import threading, garray
        from garray._vendor import gpublas, _handles
        dev = garray.default_device()
        vendor = gpublas.FAMILY.vendor_of(dev, "handles")
        box = []
        t = threading.Thread(target=lambda: box.append(gpublas.FAMILY.handle(dev, vendor)))
        t.start(); t.join()
        gpublas.FAMILY._functions.clear()       # as reset() leaves it
        lib = gpublas.FAMILY.library[dev.kind]
        with lib._lock:
            state, lib._state = lib._state, None    # a lookup in progress on this thread
            box.clear()                             # the handle's last reference
            lib._state = state
        assert len(_handles._dropped) == 1
        gpublas.handle(dev)                         # destroys it
        assert not _handles._dropped
        print("ok")
    """
    _, out, _ = run_isolated(code, timeout=120)
    assert out.strip().endswith("ok")


@gpu_only
def test_handles_per_device():
    """A second device gets its own handle, and calls alternate between the two (each
    made current first).  Needs two devices (the stubs: FAKE_CUDA_NDEV / FAKE_HIP_NDEV=2)."""
    if DEV.runtime.probe() < 2:
        pytest.skip(f"one {DEV.kind} device")
    other = garray.Device(DEV.kind, 1 - DEV.index if DEV.index < 2 else 0)
    assert gpublas.handle(other) != gpublas.handle(DEV)
    a = sample((3, 3), "float64", 1)
    for dev in (other, DEV, other):
        da, dc = garray.asarray(a, device=dev), garray.zeros((3, 3), device=dev)
        gpublas.gemm(dev, "float64", "N", "N", 3, 3, 3, 1, da.ptr, 3, 0, da.ptr, 3, 0, 0,
                     dc.ptr, 3, 0, 1)
        assert_xp_close(dc, a @ a, err_msg=str(dev))


@gpu_only
def test_vendor_status_is_a_backend_error():
    call, status = INVALID_VALUE[DEV.kind]
    d = garray.zeros(64, dtype="float32", device=DEV)
    with pytest.raises(garray.BackendError, match=status) as info:
        gpublas.gemm(DEV, "float32", "N", "N", 5, 4, 6, 1.0, d.ptr, 4, 0, d.ptr, 6, 0,
                     0.0, d.ptr, 5, 0, 1)            # lda 4 < m 5
    assert call in str(info.value) and "lda=4" in str(info.value)


@gpu_only
@pytest.mark.parametrize("bad,exc,name", [
    (dict(transa="X"), ValueError, "transa"),
    (dict(transb=1), ValueError, "transb"),
    (dict(dtype="int32"), TypeError, "dtype"),
    (dict(alpha=1j), TypeError, "alpha"),
    (dict(beta="1"), TypeError, "beta"),
    (dict(batch=0), ValueError, "batch"),
    (dict(m=-1), ValueError, "m"),
    (dict(k=2 ** 31), NotImplementedError, "k"),
    (dict(device=garray.Device("cpu")), ValueError, "device"),
])
def test_bad_arguments_name_the_argument(bad, exc, name):
    d = garray.zeros(64, dtype="float32", device=DEV)
    args = dict(device=DEV, dtype="float32", transa="N", transb="N", m=2, n=2, k=2,
                alpha=1.0, a=d.ptr, lda=2, stride_a=0, b=d.ptr, ldb=2, stride_b=0,
                beta=0.0, c=d.ptr, ldc=2, stride_c=0, batch=1)
    args.update(bad)
    with pytest.raises(exc, match=rf"^{name}: "):
        gpublas.gemm(**args)


@pytest.mark.parametrize("kind", ["cuda", "hip"])
def test_missing_library_names_package_and_variable(kind, monkeypatch, tmp_path):
    package, var = PACKAGES[kind]
    bad = str(tmp_path / "no-such-blas.so")
    monkeypatch.setenv(var, bad)
    gpublas.reset()
    try:
        ok, reason = gpublas.available(kind)
        assert not ok and package in reason and var in reason and bad in reason, reason
        if DEV.kind == kind:
            with pytest.raises(garray.BackendUnavailableError, match=var) as info:
                run_case("float32", "N", "N")
            assert package in str(info.value)
    finally:
        monkeypatch.undo()
        gpublas.reset()
    if DEV.kind == kind:
        assert gpublas.available(kind)[0]
        run_case("float32", "N", "N")        # found again, with a fresh handle


def test_available_never_raises():
    assert gpublas.available("cpu")[0] is False
    ok, reason = gpublas.available("cuda")
    assert isinstance(ok, bool) and isinstance(reason, str)


def test_allow_tf32_setting():
    assert garray.config.allow_tf32 is False
    with pytest.raises(TypeError, match="^allow_tf32: "):
        garray.config.allow_tf32 = "yes"
    assert garray.config.allow_tf32 is False


@gpu_only
def test_allow_tf32_sets_the_math_mode():
    """cuBLAS: CUBLAS_TF32_TENSOR_OP_MATH (3) only when asked, CUBLAS_DEFAULT_MATH (0)
    again after; hipBLAS has no TF32 mode and is left alone."""
    def mode():
        if DEV.kind != "cuda":
            return None
        get = gpublas.library["cuda"].function("cublasGetMathMode", ctypes.c_int,
                                                ctypes.c_void_p, ctypes.POINTER(ctypes.c_int))
        out = ctypes.c_int(-1)
        DEV.runtime.activate()
        assert get(gpublas.handle(DEV), ctypes.byref(out)) == 0
        return out.value

    try:
        garray.config.allow_tf32 = True
        run_case("float32", "N", "N")
        assert mode() in (3, None)
    finally:
        garray.config.allow_tf32 = False
    run_case("float32", "N", "N")
    assert mode() in (0, None)


@gpu_only
def test_sync_launches_synchronises_after_the_call():
    """GARRAY_SYNC_LAUNCHES=1 (read at import, as the launch path reads it) waits for
    each GEMM, as for each kernel launch."""
    out = run_isolated("""
        import garray, numpy
        from garray._vendor import _handles, gpublas
        assert _handles.sync_calls
        d = garray.default_device()
        a = garray.asarray(numpy.arange(4.0).reshape(2, 2), device=d)
        c = garray.zeros((2, 2), device=d)
        gpublas.gemm(d, "float64", "N", "N", 2, 2, 2, 1, a.ptr, 2, 0, a.ptr, 2, 0, 0, c.ptr, 2, 0, 1)
        print(c.get().tolist())
    """, env={"GARRAY_SYNC_LAUNCHES": "1"})[1]
    # column-major a.T @ a.T = (a @ a).T, read back in C order: a @ a
    assert out.strip().splitlines()[-1] == "[[2.0, 3.0], [6.0, 11.0]]", out


@pytest.mark.parametrize("value,want", [("1", "True"), ("off", "False"), ("maybe", None)])
def test_allow_tf32_environment(value, want):
    rc, out, err = run_isolated("import garray; print(garray.config.allow_tf32)",
                                env={"GARRAY_ALLOW_TF32": value, "GARRAY_DEVICE": "cpu"},
                                expect_ok=want is not None)
    if want is None:
        assert rc != 0 and "GARRAY_ALLOW_TF32" in err, err[-1000:]
    else:
        assert out.strip().endswith(want), out


@gpu_only
def test_calls_reach_the_vendor_library():
    """On the stub vendor libraries (which export fake_blas_stats), each product is counted
    there: the results above came from the vendor call, not from anything else."""
    lib = gpublas.library[DEV.kind].library()
    if not hasattr(lib, "fake_blas_stats"):
        pytest.skip("a real vendor library: no call counter")
    stats = (ctypes.c_ulonglong * 4)()

    def products():
        lib.fake_blas_stats(stats)
        return stats[3]

    before = products()
    run_case("complex64", "C", "T", batch=3)
    assert products() - before == 3
