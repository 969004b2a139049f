"""The per-call fast paths (issue: CPU speed rows) give what the general paths give.

``x[idx]`` with one integer garray array (cython/_gather.pxi ``_take_first``), ``a @ b``
of C-contiguous 1-d/2-d BLAS dtypes (garray/_gemm/engine.py ``contiguous_product``) and
the reductions with every argument at its default (``x.sum()``, ``garray.argmax(x)``:
cython/_methods.pxi, garray/_reduce/reductions.py) skip argument parsing only; each is
compared with NumPy here over dtypes, shapes, empty and 0-d inputs and bad indices, and
with the general path of the same call where a flag forces it.
"""

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, make, same_or_raises_alike

INDEX_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


@for_all_dtypes()
@pytest.mark.parametrize("shape", [(7,), (5, 3), (4, 1, 2), (0,), (0, 3)])
def test_take_first_matches_numpy(dtype, shape):
    h = make(numpy, shape, dtype)
    g = garray.asarray(h)
    n = shape[0]
    for idx in ([0, n - 1, 1, 1], [[0, -1], [-n, 0]], [], [[]]):
        if n == 0 and len(idx) and len(idx[0] if isinstance(idx[0], list) else [1]):
            continue
        hi = numpy.asarray(idx, dtype=numpy.int64)
        assert_xp_close(g[garray.asarray(hi)], h[hi], rtol=0, atol=0)


@pytest.mark.parametrize("idt", INDEX_DTYPES)
def test_take_first_index_dtypes_and_bounds(idt):
    h = numpy.arange(12.0).reshape(6, 2)
    g = garray.asarray(h)
    info = numpy.iinfo(idt)
    good = numpy.array([0, 5, 3, 3], dtype=idt)
    assert_xp_close(g[garray.asarray(good)], h[good], rtol=0, atol=0)
    bad = [6, int(info.max)] + ([-7, int(info.min)] if info.min < 0 else [])
    for b in bad:
        hb = numpy.array([0, b], dtype=idt)
        if idt != "uint64" or b < 2**63:    # NumPy wraps those to negative indices
            same_or_raises_alike(lambda: h[hb], lambda: g[garray.asarray(hb)])
        with pytest.raises(IndexError, match=f"index {b} is out of bounds for axis 0"):
            g[garray.asarray(hb)]
    if info.min < 0:
        neg = numpy.array([-1, -6], dtype=idt)
        assert_xp_close(g[garray.asarray(neg)], h[neg], rtol=0, atol=0)


def test_take_first_views_and_subclasses():
    h = numpy.arange(40.0).reshape(8, 5)
    g = garray.asarray(h)
    idx = numpy.array([7, 0, 2])
    gi = garray.asarray(idx)
    assert_xp_close(g[::-2][gi[1:] + 1], h[::-2][idx[1:] + 1], rtol=0, atol=0)
    assert_xp_close(g.T[garray.asarray([4, 1])], h.T[[4, 1]], rtol=0, atol=0)
    assert_xp_close(g[gi[::-1]], h[idx[::-1]], rtol=0, atol=0)     # a strided index
    r = g[gi]
    r[0, 0] = -1.0                      # a copy, as NumPy's advanced indexing
    assert float(g[7, 0]) == 35.0
    # bool arrays stay masks; a 0-d integer array is a basic index
    assert_xp_close(g[garray.asarray(h[:, 0] > 10)], h[h[:, 0] > 10], rtol=0, atol=0)
    assert_xp_close(g[garray.asarray(3)], h[3], rtol=0, atol=0)
    with pytest.raises(IndexError):
        garray.asarray(1.0)[garray.asarray([0])]          # 0-d: too many indices


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128",
                                   "int32", "float16"])
@pytest.mark.parametrize("shapes", [((16,), (16,)), ((3, 4), (4, 2)), ((3, 4), (4,)),
                                    ((4,), (4, 5)), ((1, 1), (1, 1)), ((2, 3), (4, 2)),
                                    ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((3,), (4,))])
def test_contiguous_product_matches_numpy(dtype, shapes):
    rng = numpy.random.default_rng(1)
    ha, hb = ((rng.standard_normal(s) * 4).astype(dtype) for s in shapes)
    same_or_raises_alike(lambda: ha @ hb, lambda: garray.asarray(ha) @ garray.asarray(hb),
                         rtol=1e-4 if dtype in ("float32", "complex64") else None)
    same_or_raises_alike(lambda: numpy.matmul(ha, hb),
                         lambda: garray.matmul(garray.asarray(ha), garray.asarray(hb)),
                         rtol=1e-4 if dtype in ("float32", "complex64") else None)


def test_contiguous_product_leaves_other_layouts_to_gemm(monkeypatch):
    """Mixed dtypes, views and GARRAY_GEMM=kernel take the general path, same values."""
    from garray._gemm import engine
    calls = []
    real = engine.gemm
    monkeypatch.setattr("garray._gemm.matmul.gemm", lambda *a: calls.append(1) or real(*a))
    h = numpy.arange(12.0).reshape(3, 4)
    g = garray.asarray(h)
    assert_xp_close(g @ g.T, h @ h.T)
    assert_xp_close(g @ garray.asarray(h.T.astype("float32")), h @ h.T.astype("float32"))
    assert len(calls) == 2
    monkeypatch.setenv("GARRAY_GEMM", "kernel")
    assert_xp_close(g[:, :3] @ g[:, :3].T.copy(), h[:, :3] @ h[:, :3].T)
    assert len(calls) == 3


REDUCTIONS = ("sum", "prod", "max", "min", "all", "any", "argmax", "argmin")


@for_all_dtypes(dtypes=ALL_DTYPES)
@pytest.mark.parametrize("shape", [(16,), (3, 5), (1,), (), (0,), (2, 0)])
def test_whole_reductions_match_numpy(dtype, shape):
    h = make(numpy, shape, dtype)
    if dtype.kind in "fc" and h.size > 1:
        h.flat[1] = -h.flat[1]
    g = garray.asarray(h)
    for name in REDUCTIONS:
        for np_call, g_call in ((lambda: getattr(h, name)(), lambda: getattr(g, name)()),
                                (lambda: getattr(numpy, name)(h),
                                 lambda: getattr(garray, name)(g))):
            with numpy.errstate(all="ignore"):
                same_or_raises_alike(np_call, g_call)


@pytest.mark.parametrize("choice", ["numpy", "own"])
def test_cpu_blas_choice(choice, monkeypatch):
    """GARRAY_CPU_BLAS picks NumPy's own OpenBLAS (one thread pool for the process: the
    default where NumPy loaded one) or garray's scipy-openblas32: same products, batched
    and strided included; a bad value is refused by name."""
    if garray.ones(1).device.kind != "cpu":
        pytest.skip("the CPU device's BLAS")
    from garray._gemm import engine
    from garray._vendor import openblas
    monkeypatch.setenv("GARRAY_CPU_BLAS", choice)
    blas = engine._cpu_blas(numpy.dtype("float64"))
    assert blas[3] == (choice == "numpy" and openblas.numpy_gemm("d") != 0)
    rng = numpy.random.default_rng(2)
    for dt in ("float32", "float64", "complex64", "complex128"):
        h = (rng.standard_normal((3, 5, 4)) + (1j if dt[0] == "c" else 0)).astype(dt)
        k = rng.standard_normal((4, 6)).astype(dt)
        g, gk = garray.asarray(h), garray.asarray(k)
        tol = 1e-5 if dt in ("float32", "complex64") else None
        assert_xp_close(g @ gk, h @ k, rtol=tol)
        assert_xp_close(g[:, ::2, ::-1] @ gk[::-1], h[:, ::2, ::-1] @ k[::-1], rtol=tol)
        assert_xp_close(g[0] @ g[1].T, h[0] @ h[1].T, rtol=tol)
    monkeypatch.setenv("GARRAY_CPU_BLAS", "mkl")
    with pytest.raises(ValueError, match="GARRAY_CPU_BLAS"):
        garray.ones((2, 2)) @ garray.ones((2, 2))


def test_env_reads_follow_os_environ(monkeypatch):
    """garray._env.get reads os.environ's own store (no exception for a missing name) and
    sees every change made through os.environ, as os.environ.get does."""
    import os
    from garray import _env
    name = "GARRAY_TEST_ENV_READ"
    monkeypatch.delenv(name, raising=False)
    assert _env.get(name) is None and _env.get(name, "d") == "d"
    monkeypatch.setenv(name, "vendor")
    assert _env.get(name) == os.environ.get(name) == "vendor"
    os.environ[name] = "kernel"
    assert _env.get(name) == "kernel"
    del os.environ[name]
    assert _env.get(name, "") == ""
    monkeypatch.setenv("GARRAY_GEMM", "kernel")     # the matmul path reads it every call
    h = numpy.arange(6.0).reshape(2, 3)
    assert_xp_close(garray.asarray(h) @ garray.asarray(h.T), h @ h.T)
    monkeypatch.setenv("GARRAY_GEMM", "bogus")
    with pytest.raises(ValueError, match="GARRAY_GEMM"):
        garray.asarray(h) @ garray.asarray(h.T)
