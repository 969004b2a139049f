"""The per-call fast paths (issue: CPU speed rows) give what the general paths give.

``x[idx]`` and ``x[idx] = v`` with one integer garray array (cython/_gather.pxi
``_take_first``, ``_put_first``), Python scalars stored by assignment, ``a @ b``
of C-contiguous 1-d/2-d BLAS dtypes (cython/_gemm.pxi ``_matmul_fast``) and
the reductions with every argument at its default (``x.sum()``, ``garray.argmax(x)``:
cython/_methods.pxi, garray/_reduce/reductions.py) skip argument parsing only; each is
compared with NumPy here over dtypes, shapes, empty and 0-d inputs and bad indices, and
with the general path of the same call where a flag forces it.
"""

import numpy
import pytest

import garray
from xp import (ALL_DTYPES, assert_xp_close, for_all_dtypes, make, python_scalar,
                same_or_raises_alike)

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


def test_take_first_large_and_strided_rows():
    """Launches split over the pool (2**17 indices), rows of several items, a 1-d view
    with a step, and rows that are not contiguous (the general path): NumPy's values."""
    rng = numpy.random.default_rng(3)
    h = rng.standard_normal(1 << 18).astype(numpy.float32)
    idx = rng.integers(-(1 << 18), 1 << 18, 1 << 17)
    g, gi = garray.asarray(h), garray.asarray(idx)
    assert_xp_close(g[gi], h[idx], rtol=0, atol=0)
    assert_xp_close(garray.take(g, gi), numpy.take(h, idx), rtol=0, atol=0)
    assert_xp_close(g[::3][gi[:50] // 3], h[::3][idx[:50] // 3], rtol=0, atol=0)
    h2 = h[:3000].reshape(100, 30)
    g2 = garray.asarray(h2)
    for view in (lambda a: a, lambda a: a[:, 1:7], lambda a: a[:, ::-2], lambda a: a[::-1]):
        assert_xp_close(view(g2)[gi[:9] % 100], view(h2)[idx[:9] % 100], rtol=0, atol=0)


def _put_cases(dtype, n):
    """(index, value) pairs for x[index] = value on a first axis of n: scalars of each
    Python kind, arrays of the target's shape and broadcast ones, repeats, negatives."""
    h = make(numpy, (4,), dtype)
    return [(numpy.array([0, n - 1, -1]), python_scalar(dtype)),
            (numpy.array([[1], [-n]]), python_scalar(dtype, small=True)),
            (numpy.array([2, 2, 0, 2]), h),             # repeated targets: the last wins
            (numpy.array([n - 1, 0, 1, 0]), h[1:2]),
            (numpy.array([1]), h[3]),                   # a NumPy scalar
            (numpy.array([], dtype=numpy.int64), 1),
            (numpy.array([1, 2, 3, 0]), garray.asarray(h)),
            (numpy.array([3, 0]), True), (numpy.array([3, 0]), 7),
            (numpy.array([3, 0]), -2.5), (numpy.array([3, 0]), 1.5 - 2j)]


@for_all_dtypes()
@pytest.mark.parametrize("shape", [(6,), (5, 3), (4, 1, 2)])
def test_put_first_matches_numpy(dtype, shape):
    """x[idx] = value with one int64 garray array (cython/_gather.pxi _put_first): every
    dtype, scalar and array values, repeated targets, rows of several items."""
    for idx, value in _put_cases(dtype, shape[0]):
        h = make(numpy, shape, dtype)
        g = garray.asarray(h)
        hv = garray.asnumpy(value) if isinstance(value, garray.ndarray) else value

        def np_set():
            with numpy.errstate(all="ignore"):
                h[idx] = hv
            return h

        def g_set():
            with numpy.errstate(all="ignore"):
                g[garray.asarray(idx)] = value
            return g
        same_or_raises_alike(np_set, g_set, rtol=0, atol=0)


@pytest.mark.parametrize("bad", [10, -11, 2**62, 2**63 - 1, -2**63])
@pytest.mark.parametrize("at", [0, 15, 16, 17, 39])
def test_take_one_element_per_index_bad_index_anywhere(bad, at):
    """x[idx] of a 1-d x (take_c's CPU loop, which prefetches the source of the index
    16 ahead): an out-of-range index anywhere, the extremes of int64 included, raises
    NumPy's IndexError; the indices before it may be prefetched, never read wrongly."""
    h = numpy.arange(10.0)
    idx = numpy.arange(40) % 10
    assert_xp_close(garray.asarray(h)[garray.asarray(idx)], h[idx], rtol=0, atol=0)
    idx[at] = bad
    with pytest.raises(IndexError, match=f"index {bad} is out of bounds for axis 0"):
        garray.asarray(h)[garray.asarray(idx)]
    with pytest.raises(IndexError):
        h[idx]


def test_put_first_bounds_aliasing_and_size():
    """An index out of range writes nothing; an index array or a value that shares x's
    memory is read before any write; 2**17 targets split over the pool."""
    h = numpy.arange(10, dtype=numpy.int64)
    g = garray.asarray(h)
    for bad in ([0, 10], [-11, 1], [2**62, 3]):
        with pytest.raises(IndexError, match=f"index {bad[0] if bad[0] != 0 else 10} "
                                             f"is out of bounds for axis 0 with size 10"):
            g[garray.asarray(numpy.array(bad))] = -1
        assert_xp_close(g, h, rtol=0, atol=0)
    h[h[::-1]] = h                          # the index and the value are x itself
    g[g[::-1]] = g
    assert_xp_close(g, h, rtol=0, atol=0)
    h[h[:5]] = h[5:]
    g[g[:5]] = g[5:]
    assert_xp_close(g, h, rtol=0, atol=0)
    rng = numpy.random.default_rng(4)
    big = numpy.zeros(1 << 18, numpy.float32)
    idx = rng.integers(0, 1 << 18, 1 << 17)
    gb, gi = garray.asarray(big), garray.asarray(idx)
    big[idx] = 2.5
    gb[gi] = 2.5
    assert_xp_close(gb, big, rtol=0, atol=0)
    vals = rng.standard_normal(1 << 17).astype(numpy.float32)
    big[idx] = vals                         # repeated targets: the last in C order wins
    gb[gi] = garray.asarray(vals)
    assert_xp_close(gb, big, rtol=0, atol=0)
    with pytest.raises(ValueError, match="read-only"):
        garray.broadcast_to(g, (2, 10))[garray.asarray(numpy.array([0]))] = 1


SCALARS = (True, False, 0, 1, -1, 127, 128, 255, 256, -129, 2**31, 2**53 + 1, 2**63 - 1,
           2**63, 2**64, -2**63 - 1, 0.5, -2.5, 1e300, -1e300, 3.4028235e38, 1e-320,
           float("inf"), float("nan"), 1.5 - 2j, 16777217, -16777217)


@for_all_dtypes()
def test_scalar_assignment_matches_numpy(dtype):
    """A Python scalar stored by x[i] = s, x[a:b] = s and x[idx] = s (cython/_ufunc_operands
    .pxi _pack_item, or NumPy's item assignment where a check or a warning is due):
    NumPy's stored bits, errors and warnings (as errors) alike."""
    import warnings
    for s in SCALARS:
        for key in (2, slice(1, 3), numpy.array([3, 0])):
            h = numpy.zeros(4, dtype)
            g = garray.asarray(h)
            gk = garray.asarray(key) if isinstance(key, numpy.ndarray) else key

            def np_set():
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    h[key] = s
                return h

            def g_set():
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    g[gk] = s
                return g
            same_or_raises_alike(np_set, g_set, rtol=0, atol=0)


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


class _Float(float):
    pass


LISTS = ([1.0, 2.0, 3.0, 4.0], [1, 2, 3], [1, 2.5], [2.5, 1], [2**63 - 1, -2**63],
         [2**63, 1], [2**53 + 1, 0.5], [True, 1], [1.5, True],
         [float("nan"), -0.0, float("inf")], [0], [5e-324], [_Float(1.5), 2.0],
         [numpy.float32(1.5), 2.0], [numpy.int64(3), 4], [[1.0], [2.0]], [],
         [1j, 2.0], [1e308, 2**62])


@pytest.mark.parametrize("obj", LISTS, ids=range(len(LISTS)))
def test_asarray_flat_list_matches_numpy(obj):
    """asarray(list) reads a flat list of Python ints and floats without NumPy
    (cython/_creation.pxi _flat_list) and hands everything else to NumPy: NumPy's
    dtype, values and errors either way, on every device."""
    same_or_raises_alike(lambda: numpy.asarray(obj), lambda: garray.asarray(obj),
                         rtol=0, atol=0)
    same_or_raises_alike(lambda: numpy.asarray(obj * 300),
                         lambda: garray.asarray(obj * 300), rtol=0, atol=0)


@pytest.mark.parametrize("obj", [[-2**63 - 1], [10**400, 1.0], [2**64, 0.5], [1, None]])
def test_asarray_flat_list_object_dtype_refused(obj):
    """Lists NumPy reads as dtype object: garray has no object arrays and says so."""
    assert numpy.asarray(obj).dtype == object
    with pytest.raises(TypeError, match="dtype object"):
        garray.asarray(obj)


class _Int(int):
    pass


@pytest.mark.parametrize("shape", [(7,), (5, 3), (4, 1, 2), (0,), (), (3, 0)])
def test_int_index_matches_numpy(shape):
    """x[i] for a Python int (cython/_indexing.pxi _int_index): every position, out of
    range both ways, beyond int64, int subclasses and bools (other paths), views."""
    h = numpy.arange(int(numpy.prod(shape)), dtype=numpy.float32).reshape(shape)
    g = garray.asarray(h)
    n = shape[0] if shape else 0
    views = ((h, g), (h[::-1], g[::-1]), (h[::2], g[::2])) if shape else ((h, g),)
    for hv, gv in views:
        for i in list(range(-n - 1, n + 1)) + [-2**63 - 1, 2**70, _Int(0), True]:
            same_or_raises_alike(lambda: hv[i], lambda: gv[i], rtol=0, atol=0)
        with pytest.raises(IndexError):     # NumPy's OverflowError at 2**63 is too
            gv[2**63]
    if len(shape) > 1 and n:
        r = g[n - 1]
        r[...] = -1.0                   # a view: writes reach x
        h[n - 1] = -1.0
        assert_xp_close(g, h, rtol=0, atol=0)


@pytest.mark.parametrize("shape", [(7,), (5, 3), (4, 1, 2), (0,), (), (3, 0)])
def test_slice_index_matches_numpy(shape):
    """x[s] for one slice (cython/_indexing.pxi _slice_index): bounds inside, outside and
    beyond int64, negative steps, step 0 (ValueError), None parts, views of views, flags,
    0-d arrays (the general path's IndexError), and writes through the view."""
    h = numpy.arange(int(numpy.prod(shape)), dtype=numpy.float32).reshape(shape)
    g = garray.asarray(h)
    n = shape[0] if shape else 0
    bounds = [None, 0, 1, -1, n, -n, n + 3, -n - 3, 2**70, -2**70]
    steps = [None, 1, 2, -1, -3, 2**70, -2**70, 0]
    views = ((h, g), (h[::-1], g[::-1]), (h[1::2], g[1::2])) if shape else ((h, g),)
    for hv, gv in views:
        for step in steps:
            for a in bounds:
                for b in bounds[::3]:
                    s = slice(a, b, step)
                    same_or_raises_alike(lambda: hv[s], lambda: gv[s], rtol=0, atol=0)
                    if shape and step != 0:
                        assert gv[s].flags.c_contiguous == hv[s].flags.c_contiguous
    if n > 2:
        r = g[1:-1]
        r[...] = -1.0                   # a view: writes reach x
        h[1:-1] = -1.0
        assert_xp_close(g, h, rtol=0, atol=0)


@pytest.mark.parametrize("choice", ["numpy", "own"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_vector_dot_is_blas_dot(choice, dtype, monkeypatch):
    """A vector . vector product (@, matmul, dot) and the default vector norm of a
    contiguous array call cblas_?dot as NumPy does: NumPy's bits where the library is
    NumPy's own, close with garray's; 0-d results, every length around the BLAS's
    vector widths and the nogil threshold."""
    if garray.ones(1).device.kind != "cpu":
        pytest.skip("the CPU device's BLAS")
    from garray._gemm import engine
    monkeypatch.setenv("GARRAY_CPU_BLAS", choice)
    same_lib = engine._cpu_blas(numpy.dtype(dtype))[3]
    rng = numpy.random.default_rng(5)
    for n in (0, 1, 2, 7, 16, 33, 1000, 32767, 32768, 100_003):
        h, k = (rng.standard_normal(n).astype(dtype) for _ in range(2))
        g, gk = garray.asarray(h), garray.asarray(k)
        m = h.reshape(-1, 1) if n % 2 else h.reshape(1, -1)
        for got, want in ((g @ gk, h @ k), (garray.matmul(g, gk), numpy.matmul(h, k)),
                          (garray.dot(g, gk), numpy.dot(h, k)),
                          (garray.linalg.norm(g), numpy.linalg.norm(h)),
                          (garray.linalg.norm(garray.asarray(m), keepdims=True),
                           numpy.linalg.norm(m, keepdims=True)),
                          (garray.linalg.norm(garray.asarray(m).T), numpy.linalg.norm(m.T))):
            got = garray.asnumpy(got)
            assert got.dtype == want.dtype and got.shape == numpy.shape(want)
            if same_lib:
                assert got.tobytes() == numpy.asarray(want).tobytes(), (n, got, want)
            else:
                numpy.testing.assert_allclose(got, want, rtol=1e-4 if dtype == "float32"
                                              else 1e-12)
