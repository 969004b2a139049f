"""garray.linalg decompositions and solvers against NumPy.

Decompositions whose factors are not unique (QR, eigenvectors, SVD vectors) are checked
by their defining identity (``q @ r == a``, ``a @ v == v * w``, ``(u * s) @ vh == a``,
``l @ l.mH == a``) and their shapes and dtypes against NumPy's; unique values (det,
slogdet, inv, solve, eigenvalues, singular values, lstsq, pinv, matrix_rank, cond)
against NumPy's.  Inputs: every float and complex dtype plus an integer one, contiguous,
transposed and negative-step views, batches, empty matrices.  Every test runs on every
device: the GPU devices compute through cuSOLVER / hipSOLVER (the stub libraries in CI).
"""

import types

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import garray
from xp import assert_xp_close, xp_compare

DEVICE = garray.default_device()
ON_GPU = DEVICE.kind != "cpu"
DTYPES = ("float32", "float64", "complex64", "complex128", "int64")
FLOATS = ("float32", "float64", "complex64", "complex128")
LAYOUTS = ("contiguous", "transposed", "negative")
LA = garray.linalg


def _res_dtype(dtype):
    d = numpy.dtype(dtype)
    return numpy.dtype(numpy.float64) if d.kind in "biu" else d


def _tol(dtype):
    """(rtol, atol) for results of ``dtype`` computed by two LAPACK call paths."""
    single = _res_dtype(dtype) in (numpy.float32, numpy.complex64)
    return (2e-4, 2e-5) if single else (1e-9, 1e-11)


def data(shape, dtype, seed=0, square_boost=True):
    """Deterministic, well-conditioned NumPy test data (a diagonal boost when square)."""
    rng = numpy.random.default_rng(seed)
    d = numpy.dtype(dtype)
    if d.kind in "iu":
        h = rng.integers(-4, 5, size=shape).astype(numpy.float64)
    else:
        h = rng.standard_normal(shape)
        if d.kind == "c":
            h = h + 1j * rng.standard_normal(shape)
    if square_boost and shape[-1] == shape[-2]:
        # integers: strictly diagonally dominant, so never singular
        boost = 4 * shape[-1] + 1 if d.kind in "iu" else 2 * shape[-1]
        h = h + boost * numpy.eye(shape[-1])
    return h.astype(d)


def hermitian_pd(shape, dtype, seed=0):
    h = data(shape, dtype, seed, square_boost=False).astype(_res_dtype(dtype))
    h = h @ h.conj().swapaxes(-1, -2) + shape[-1] * numpy.eye(shape[-1])
    return h.astype(dtype)


def on_device(h, layout="contiguous"):
    """``h`` as a garray view in ``layout``: contiguous, a transposed (F-order) view, or
    a negative-step view with a column step of 2."""
    if layout == "contiguous":
        return garray.asarray(h)
    if layout == "transposed":
        return garray.asarray(numpy.ascontiguousarray(h.swapaxes(-1, -2))).mT
    wide = numpy.zeros(h.shape[:-1] + (2 * h.shape[-1],), dtype=h.dtype)
    wide[..., ::2] = h
    base = garray.asarray(numpy.ascontiguousarray(wide[..., ::-1, ::-1]))
    return base[..., ::-1, ::-1][..., ::2]


def close(got, expected, dtype, scale=1.0):
    rtol, atol = _tol(dtype)
    assert_xp_close(got, numpy.asarray(expected), rtol=rtol, atol=atol * scale)


# ---- LU family ----------------------------------------------------------------------


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_det_slogdet_inv_solve(dtype, layout):
    h = data((2, 4, 4), dtype, seed=1)
    b = data((2, 4, 3), dtype, seed=2, square_boost=False)
    a, g = h, on_device(h, layout)
    gb = on_device(b, layout)
    close(LA.det(g), numpy.linalg.det(a), dtype, scale=1e3)
    sign, logdet = LA.slogdet(g)
    ns = numpy.linalg.slogdet(a)
    close(sign, ns.sign, dtype)
    close(logdet, ns.logabsdet, dtype)
    inv = LA.inv(g)
    close(inv, numpy.linalg.inv(a), dtype)
    eye = numpy.broadcast_to(numpy.eye(4), (2, 4, 4)).astype(inv.dtype)
    close(garray.matmul(inv, g.astype(inv.dtype)), eye, dtype, scale=10)
    close(LA.solve(g, gb), numpy.linalg.solve(a, b), dtype)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")   # NumPy's warnings on NaN input
@xp_compare(rtol=1e-9, atol=1e-11)
def test_det_special(xp):
    sing = xp.asarray([[1.0, 2.0], [2.0, 4.0]])
    neg = xp.asarray([[0.0, 1.0], [1.0, 0.0]])        # a row swap: det -1
    cplx = xp.asarray([[1j, 0], [0, 1]], dtype=xp.complex128)
    nan = xp.asarray([[numpy.nan, 1.0], [1.0, 1.0]])
    return [xp.linalg.det(sing), list(xp.linalg.slogdet(sing)), xp.linalg.det(neg),
            list(xp.linalg.slogdet(neg)), list(xp.linalg.slogdet(cplx)),
            xp.linalg.det(nan), list(xp.linalg.slogdet(nan)), xp.linalg.inv(nan),
            xp.linalg.det(xp.asarray([[True, False], [True, True]]))]


def test_result_types():
    a = garray.asarray(data((3, 3), "float64"))
    r = LA.slogdet(a)
    assert type(r).__name__ == "SlogdetResult" and r.sign is r[0] and r.logabsdet is r[1]
    assert type(LA.qr(a)).__name__ == "QRResult" and LA.qr(a).Q.shape == (3, 3)
    assert LA.eigh(a + a.mT).eigenvectors.shape == (3, 3)
    assert LA.svd(a).Vh.shape == (3, 3) and LA.eig(a).eigenvalues.shape == (3,)
    assert LA.LinAlgError is numpy.linalg.LinAlgError
    assert not hasattr(garray, "solve") and not hasattr(garray, "LinAlgError")


@xp_compare(rtol=1e-9, atol=1e-11)
def test_solve_broadcasting(xp):
    a = xp.asarray(data((2, 1, 3, 3), "float64", seed=3))
    a2 = xp.asarray(data((3, 3), "float64", seed=4))
    b1 = xp.asarray(data((3,), "float64", seed=5, square_boost=False)[::-1])
    bk = xp.asarray(data((4, 3, 2), "float64", seed=6, square_boost=False))
    return [xp.linalg.solve(a, bk),            # batch (2, 1) with (4,) -> (2, 4)
            xp.linalg.solve(a, b1),            # 1-d b: one vector per system
            xp.linalg.solve(a2, b1),
            xp.linalg.solve(a2, bk),           # 2-d a, stacked b
            xp.linalg.solve(a2, xp.asarray(data((3, 1), "int32", seed=7)))]


@pytest.mark.parametrize("case", ["bad_1d", "bad_rows", "bad_batch", "2x3_b_as_vectors"])
@xp_compare()
def test_solve_errors(xp, case):
    a = xp.asarray(data((2, 3, 3), "float64"))
    if case == "bad_1d":
        return xp.linalg.solve(a, xp.ones(4))
    if case == "bad_rows":
        return xp.linalg.solve(a, xp.ones((2, 4, 2)))
    if case == "bad_batch":
        return xp.linalg.solve(a, xp.ones((3, 3, 1)))
    # NumPy 2: a 2-d b is a matrix, not a stack of vectors
    return xp.linalg.solve(a, xp.ones((2, 3)))


# ---- Cholesky, QR -------------------------------------------------------------------


@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky(dtype, upper):
    h = hermitian_pd((2, 4, 4), dtype, seed=8)
    g = on_device(h, "negative" if upper else "transposed")
    c = LA.cholesky(g, upper=upper)
    close(c, numpy.linalg.cholesky(h, upper=upper), dtype, scale=10)
    prod = garray.matmul(c.mT.conj(), c) if upper else garray.matmul(c, c.mT.conj())
    close(prod, h.astype(c.dtype), dtype, scale=100)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_qr(dtype, shape):
    h = data(shape, dtype, seed=9)
    g = on_device(h, "transposed" if len(shape) == 2 else "negative")
    for mode in ("reduced", "complete"):
        q, r = LA.qr(g, mode=mode)
        nq, nr = numpy.linalg.qr(h, mode=mode)
        assert (q.shape, r.shape, q.dtype, r.dtype) == (nq.shape, nr.shape, nq.dtype, nr.dtype)
        close(garray.matmul(q, r), h.astype(q.dtype), dtype, scale=100)
        close(garray.abs(r), numpy.abs(nr), dtype, scale=100)
        close(garray.tril(r, k=-1), numpy.zeros(nr.shape, nr.dtype), dtype)
        k = q.shape[-1]
        close(garray.matmul(q.mT.conj(), q), numpy.broadcast_to(numpy.eye(k), q.shape[:-2]
                                                              + (k, k)).astype(q.dtype),
              dtype, scale=10)
    close(garray.abs(LA.qr(g, mode="r")), numpy.abs(numpy.linalg.qr(h, mode="r")), dtype,
          scale=100)
    hh, tau = LA.qr(g, mode="raw")
    nh, ntau = numpy.linalg.qr(h, mode="raw")
    assert (hh.shape, tau.shape, hh.dtype, tau.dtype) == \
        (nh.shape, ntau.shape, nh.dtype, ntau.dtype)


# ---- eigenproblems ------------------------------------------------------------------


@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh(dtype, uplo):
    h = hermitian_pd((2, 4, 4), dtype, seed=10)
    # the triangle not read holds garbage: both libraries must ignore it
    junk = data((2, 4, 4), dtype, seed=11, square_boost=False)
    if uplo == "L":
        lo = numpy.tril(h) + numpy.triu(junk, 1)
    else:
        lo = numpy.triu(h) + numpy.tril(junk, -1)
    g = on_device(lo, "transposed")
    w, v = LA.eigh(g, UPLO=uplo)
    nw, nv = numpy.linalg.eigh(lo, UPLO=uplo)
    assert (w.dtype, v.dtype, v.shape) == (nw.dtype, nv.dtype, nv.shape)
    close(w, nw, dtype, scale=100)
    close(LA.eigvalsh(g, UPLO=uplo), numpy.linalg.eigvalsh(lo, UPLO=uplo), dtype, scale=100)
    close(garray.matmul(garray.asarray(h.astype(v.dtype)), v), (v * w[..., None, :]).get(),
          dtype, scale=100)


@pytest.mark.parametrize("dtype", DTYPES)
def test_eig(dtype):
    rot = numpy.array([[0.0, -2.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 3.0]])
    tri = numpy.array([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0], [0.0, 0.0, 2.0]])
    for h in (numpy.stack([rot, rot.T + numpy.eye(3)]), tri, data((2, 5, 5), "float64", 12)):
        if numpy.dtype(dtype).kind == "c":
            h = h + 0.5j * numpy.tril(h)
        h = h.astype(dtype)
        g = on_device(h, "negative")
        w, v = LA.eig(g)
        nw, nv = numpy.linalg.eig(h)
        # complex always (the Array API's rule; NumPy is real when every value is)
        ct = numpy.result_type(nw.dtype, numpy.complex64)
        assert (w.dtype, v.dtype, w.shape, v.shape) == (ct, ct, nw.shape, nv.shape)
        close(garray.matmul(g.astype(v.dtype), v), (v * w[..., None, :]).get(), dtype,
              scale=100)
        ev = LA.eigvals(g)
        assert ev.dtype == ct
        got = numpy.sort_complex(ev.get().reshape(-1, ev.shape[-1]))
        exp = numpy.sort_complex(nw.reshape(-1, nw.shape[-1]))
        numpy.testing.assert_allclose(got, exp, rtol=_tol(dtype)[0] * 10, atol=1e-5)


# ---- SVD and what is built on it ----------------------------------------------------


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_svd(dtype, shape):
    h = data(shape, dtype, seed=13)
    g = on_device(h, "transposed" if shape[0] == 5 else "negative")
    ns = numpy.linalg.svd(h, compute_uv=False)
    for full in (True, False):
        u, s, vh = LA.svd(g, full_matrices=full)
        nu, _, nvh = numpy.linalg.svd(h, full_matrices=full)
        assert (u.shape, vh.shape, u.dtype, s.dtype) == (nu.shape, nvh.shape, nu.dtype, ns.dtype)
        close(s, ns, dtype, scale=100)
        k = s.shape[-1]
        us = u[..., :, :k] * s[..., None, :]
        close(garray.matmul(us.astype(vh.dtype), vh[..., :k, :]), h.astype(u.dtype), dtype,
              scale=100)
    close(LA.svd(g, compute_uv=False), ns, dtype, scale=100)
    close(LA.svdvals(g), ns, dtype, scale=100)


@pytest.mark.parametrize("dtype", FLOATS)
def test_svd_hermitian(dtype):
    h = hermitian_pd((2, 4, 4), dtype, seed=14) - 6 * numpy.eye(4).astype(dtype)
    g = garray.asarray(h)
    u, s, vh = LA.svd(g, hermitian=True)
    close(s, numpy.linalg.svd(h, compute_uv=False), dtype, scale=100)
    close(garray.matmul((u * s[..., None, :]).astype(vh.dtype), vh), h, dtype, scale=100)
    close(LA.svd(g, compute_uv=False, hermitian=True),
          numpy.linalg.svd(h, compute_uv=False, hermitian=True), dtype, scale=100)


@pytest.mark.parametrize("case", ["over", "under", "deficient", "vector", "no_rhs"])
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int64"])
def test_lstsq(dtype, case):
    shapes = {"over": ((6, 3), (6, 2)), "under": ((3, 5), (3, 2)),
              "deficient": ((5, 3), (5, 2)), "vector": ((6, 3), (6,)),
              "no_rhs": ((4, 3), (4, 0))}
    sa, sb = shapes[case]
    a = data(sa, dtype, seed=15, square_boost=False)
    if case == "deficient":
        a[:, 2] = a[:, 0] + a[:, 1]
    b = data(sb + ((1,) if len(sb) == 1 else ()), dtype, seed=16, square_boost=False)
    b = b.reshape(sb)
    got = LA.lstsq(on_device(a, "transposed"), garray.asarray(b), rcond=None)
    exp = numpy.linalg.lstsq(a, b, rcond=None)
    close(got[0], exp[0], dtype, scale=100)
    close(got[1], exp[1], dtype, scale=1000)
    assert got[2] == exp[2] and type(got[2]) is type(exp[2])
    close(got[3], exp[3], dtype, scale=100)


@pytest.mark.parametrize("case", ["over", "under", "deficient", "zero", "empty_m", "empty_n",
                                  "rcond", "negative_rcond"])
@pytest.mark.parametrize("dtype", ["float32", "complex64", "float64", "complex128"])
def test_lstsq_from_the_svd(dtype, case):
    """The GPU devices' lstsq (garray.linalg._svd._lstsq_svd: the SVD and two products, as
    gelsd defines the solution) against NumPy's gelsd on every device, the CPU one
    included (there it runs on garray's gesdd and matmul)."""
    shapes = {"over": (7, 4), "under": (3, 6), "deficient": (6, 4), "zero": (5, 3),
              "empty_m": (0, 3), "empty_n": (4, 0), "rcond": (6, 4), "negative_rcond": (6, 4)}
    a = data(shapes[case], dtype, seed=31, square_boost=False)
    if case == "deficient":
        a[:, 3] = a[:, 0] - 2 * a[:, 1]
    if case == "zero":
        a[...] = 0
    if case == "rcond":
        a[:, 3] = a[:, 0] + 1e-3 * a[:, 2]
    rcond = {"rcond": 1e-2, "negative_rcond": -1}.get(case)
    b = data((a.shape[0], 2), dtype, seed=32, square_boost=False)
    t, rt = garray.linalg._common.linalg_types(a.dtype)
    if rcond is None:
        rcond = numpy.finfo(t).eps * max(a.shape)
    x, s, rank = garray.linalg._svd._lstsq_svd(garray.asarray(a), garray.asarray(b), t, rcond)
    exp = numpy.linalg.lstsq(a.astype(t), b.astype(t), rcond=rcond)
    assert rank == exp[2], (rank, exp[2])
    assert x.dtype == t and x.shape == exp[0].shape
    close(x.astype(rt), exp[0].astype(rt), dtype, scale=1000)
    real = garray.linalg._common.real_of(rt)
    close(s.astype(real), exp[3].astype(real), dtype, scale=100)
    got = LA.lstsq(garray.asarray(a), garray.asarray(b), rcond=rcond)
    exp = numpy.linalg.lstsq(a, b, rcond=rcond)
    close(got[0], exp[0], dtype, scale=1000)
    close(got[1], exp[1], dtype, scale=1000)
    assert got[2] == exp[2] and type(got[2]) is type(exp[2])
    close(got[3], exp[3], dtype, scale=100)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_lstsq_from_the_svd_non_finite():
    """gelsd's answers: a non-finite ``a`` raises, a non-finite ``b`` gives x all NaN."""
    a = data((5, 3), "float64", seed=33, square_boost=False)
    b = data((5, 2), "float64", seed=34, square_boost=False)
    b[1, 0] = numpy.inf
    t = numpy.dtype(numpy.float64)
    x, s, rank = garray.linalg._svd._lstsq_svd(garray.asarray(a), garray.asarray(b), t, 1e-12)
    exp = numpy.linalg.lstsq(a, b, rcond=1e-12)
    assert_xp_close(x, exp[0])
    assert rank == exp[2]
    close(s, exp[3], "float64", scale=100)
    a[2, 2] = numpy.nan
    with pytest.raises(numpy.linalg.LinAlgError, match="Linear Least Squares"):
        garray.linalg._svd._lstsq_svd(garray.asarray(a), garray.asarray(b), t, 1e-12)


@xp_compare(rtol=2e-6, atol=1e-7)      # complex64 products round differently
def test_pinv_rank(xp):
    h = data((2, 5, 3), "float64", seed=17, square_boost=False)
    h[1, :, 2] = h[1, :, 0]                              # rank 2
    a = xp.asarray(h)
    c = xp.asarray(data((4, 3), "complex64", seed=18, square_boost=False))
    sym = xp.asarray(hermitian_pd((3, 3), "float64", 19) - 4 * numpy.eye(3))
    return [xp.linalg.pinv(a), xp.linalg.pinv(c), xp.linalg.pinv(a, rtol=1e-1),
            xp.linalg.pinv(a, rcond=xp.asarray([1e-15, 0.5])),
            xp.linalg.pinv(sym, hermitian=True), xp.linalg.pinv(xp.ones((3, 3), dtype=int)),
            xp.linalg.matrix_rank(a), xp.linalg.matrix_rank(a[1]),
            xp.linalg.matrix_rank(a, tol=1.0), xp.linalg.matrix_rank(a, rtol=0.5),
            xp.linalg.matrix_rank(sym, hermitian=True), xp.linalg.matrix_rank(c),
            xp.linalg.matrix_rank(xp.ones(3)), xp.linalg.matrix_rank(xp.zeros(3)),
            xp.linalg.matrix_rank(xp.ones((3, 3), dtype=bool))]


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, numpy.inf, -numpy.inf, "fro", "nuc"])
@xp_compare(rtol=1e-5, atol=1e-8)
def test_cond(xp, p):
    a = xp.asarray(data((2, 3, 3), "float64", seed=20))
    c = xp.asarray(data((3, 3), "complex64", seed=21))
    sing = xp.asarray([[1.0, 2.0], [2.0, 4.0]])
    out = [xp.linalg.cond(a, p), xp.linalg.cond(c, p), xp.linalg.cond(sing, p)]
    if p is None:
        out.append(xp.linalg.cond(xp.asarray(data((3, 5), "float32", 22)), p))
    return out


# ---- built on products and solvers --------------------------------------------------


@pytest.mark.parametrize("n", [-3, -1, 0, 1, 2, 3, 6])
@xp_compare(rtol=1e-9, atol=1e-9)
def test_matrix_power(xp, n):
    a = xp.asarray(data((2, 3, 3), "float64", seed=23) / 6)
    i = xp.asarray([[1, 1], [1, 0]], dtype=xp.int32)
    out = [xp.linalg.matrix_power(a, n)]
    if n >= 0:
        out.append(xp.linalg.matrix_power(i, n))
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@xp_compare()
def test_matrix_power_products(xp, n):
    # n >= 0 needs only matmul: this runs on every device
    a = xp.asarray(data((3, 3), "float32", seed=28) / 6)
    return [xp.linalg.matrix_power(a, n), xp.linalg.matrix_power(a.T[::-1], n)]


@xp_compare(rtol=1e-9, atol=1e-11)
def test_tensor_functions(xp):
    big = xp.asarray(data((6, 6), "float64", seed=24)).reshape(2, 3, 6)
    sq = xp.asarray(data((6, 6), "float64", seed=25)).reshape(6, 2, 3)
    b = xp.asarray(data((6,), "float64", seed=26, square_boost=False))
    return [xp.linalg.tensorinv(xp.asarray(data((4, 4), "float64", 27)).reshape(4, 2, 2),
                                ind=1),
            xp.linalg.tensorinv(sq, ind=1), xp.linalg.tensorsolve(sq, b),
            xp.linalg.tensorsolve(xp.moveaxis(sq, 0, 2), b, axes=(0, 1)),
            xp.linalg.tensorinv(big, ind=2)]


@xp_compare(rtol=1e-9, atol=1e-11)
def test_multi_dot(xp):
    ms = [xp.asarray(data(s, "float64", seed=i, square_boost=False))
          for i, s in enumerate([(10, 3), (3, 7), (7, 2), (2, 5)])]
    v = xp.asarray(data((10,), "float64", seed=9, square_boost=False))
    w = xp.asarray(data((5,), "float64", seed=10, square_boost=False))
    out = xp.empty((10, 5))
    xp.linalg.multi_dot(ms, out=out)
    return [xp.linalg.multi_dot(ms), xp.linalg.multi_dot(ms[:3]),
            xp.linalg.multi_dot(ms[:2]), xp.linalg.multi_dot([v] + ms),
            xp.linalg.multi_dot([v] + ms + [w]), xp.linalg.multi_dot(ms + [w]), out]


# ---- properties over random shapes, layouts and dtypes ------------------------------


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.sampled_from([(), (1,), (3,), (2, 1)]), m=st.integers(1, 6),
       n=st.integers(1, 6), dtype=st.sampled_from(DTYPES), layout=st.sampled_from(LAYOUTS),
       seed=st.integers(0, 2**16))
def test_identities_property(batch, m, n, dtype, layout, seed):
    h = data(batch + (m, n), dtype, seed)
    g = on_device(h, layout)
    rt = _res_dtype(dtype) if dtype != "float32" else numpy.dtype(numpy.float32)
    target = h.astype(rt)
    q, r = LA.qr(g)
    close(garray.matmul(q, r), target, dtype, scale=100)
    u, s, vh = LA.svd(g, full_matrices=False)
    close(garray.matmul((u * s[..., None, :]).astype(vh.dtype), vh), target, dtype, scale=100)
    close(s, numpy.linalg.svd(h, compute_uv=False), dtype, scale=100)
    x = LA.lstsq(g, on_device(h[..., :, :1], layout))[0] if not batch else None
    if x is not None:
        close(x, numpy.linalg.lstsq(h, h[:, :1])[0], dtype, scale=1000)
    sq = on_device(data(batch + (n, n), dtype, seed + 1), layout)
    hs = sq.get()
    close(LA.det(sq), numpy.linalg.det(hs), dtype, scale=1e3)
    eye = numpy.broadcast_to(numpy.eye(n), batch + (n, n)).astype(rt)
    close(garray.matmul(LA.inv(sq), sq.astype(rt)), eye, dtype, scale=100)


# ---- empty matrices, errors, NaN ----------------------------------------------------

def _eig(xp, a, vectors=True):
    """eig/eigvals with NumPy's results made complex, as garray's (the Array API's) are."""
    r = list(xp.linalg.eig(a)) if vectors else [xp.linalg.eigvals(a)]
    if xp is numpy:
        r = [x.astype(numpy.result_type(x.dtype, numpy.complex64)) for x in r]
    return r if vectors else r[0]



@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (0, 3, 3)])
@xp_compare()
def test_empty_square(xp, shape):
    a = xp.zeros(shape, dtype=xp.float32)
    return [xp.linalg.det(a), list(xp.linalg.slogdet(a)), xp.linalg.inv(a),
            xp.linalg.cholesky(a), list(xp.linalg.eigh(a)), xp.linalg.eigvalsh(a),
            _eig(xp, a), _eig(xp, a, False), list(xp.linalg.svd(a)),
            list(xp.linalg.qr(a)), xp.linalg.pinv(a), xp.linalg.matrix_rank(a),
            xp.linalg.solve(a, xp.zeros(shape[:-1] + (2,), dtype=xp.float32)),
            xp.linalg.matrix_power(a, 3)]


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (0, 3, 3), (1, 0, 3)])
@xp_compare()
def test_empty_gpu_functions(xp, shape):
    # what the GPU devices' vendor solver computes, on empty stacks and 0x0 matrices
    a = xp.zeros(shape, dtype=xp.float64)
    sq = a[..., :shape[-2], :shape[-2]]
    return [xp.linalg.det(sq), list(xp.linalg.slogdet(sq)), xp.linalg.inv(sq),
            xp.linalg.cholesky(sq), list(xp.linalg.eigh(sq)), xp.linalg.eigvalsh(sq),
            list(xp.linalg.qr(a)), list(xp.linalg.qr(a, "complete")),
            xp.linalg.solve(sq, xp.zeros(sq.shape[:-1] + (2,), dtype=xp.float64))]


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 3, 0)])
@xp_compare()
def test_empty_rectangular(xp, shape):
    a = xp.zeros(shape, dtype=xp.complex128)
    return [list(xp.linalg.svd(a)), list(xp.linalg.svd(a, full_matrices=False)),
            xp.linalg.svdvals(a), list(xp.linalg.qr(a)), list(xp.linalg.qr(a, "complete")),
            xp.linalg.pinv(a), xp.linalg.matrix_rank(a)]


FUNCS = {"det": lambda xp, a: xp.linalg.det(a), "inv": lambda xp, a: xp.linalg.inv(a),
         "cholesky": lambda xp, a: xp.linalg.cholesky(a),
         "eigh": lambda xp, a: xp.linalg.eigh(a)[0], "eig": lambda xp, a: _eig(xp, a),
         "svd": lambda xp, a: xp.linalg.svd(a)[1], "qr": lambda xp, a: xp.linalg.qr(a)[1],
         "solve": lambda xp, a: xp.linalg.solve(a, a), "cond": lambda xp, a: xp.linalg.cond(a),
         "lstsq": lambda xp, a: xp.linalg.lstsq(a, a)[0]}


@pytest.mark.parametrize("case", ["1-d", "non-square", "singular", "not-pd", "nan", "inf"])
@pytest.mark.parametrize("fn", list(FUNCS))
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@xp_compare(rtol=1e-9, atol=1e-9)
def test_errors_and_nan(xp, fn, case):
    a = {"1-d": xp.ones(3), "non-square": xp.ones((2, 3, 2)),
         "singular": xp.asarray([[1.0, 2.0], [2.0, 4.0]]),
         "not-pd": xp.asarray([[1.0, 2.0], [2.0, 1.0]]),
         "nan": xp.asarray([[1.0, numpy.nan], [0.5, 2.0]]),
         "inf": xp.asarray([[1.0, numpy.inf], [0.5, 2.0]])}[case]
    return FUNCS[fn](xp, a)


@pytest.mark.parametrize("call", [
    lambda xp: xp.linalg.qr(xp.ones((2, 2)), mode="xx"),
    lambda xp: xp.linalg.eigh(xp.ones((2, 2)), UPLO="X"),
    lambda xp: xp.linalg.matrix_power(xp.ones((2, 2)), 1.5),
    lambda xp: xp.linalg.pinv(xp.ones((2, 2)), rcond=0.1, rtol=0.1),
    lambda xp: xp.linalg.cond(xp.ones((2, 2)), 3),
    lambda xp: xp.linalg.multi_dot([xp.ones((2, 2))]),
    lambda xp: xp.linalg.tensorsolve(xp.ones((2, 3)), xp.ones(2)),
    lambda xp: xp.linalg.lstsq(xp.ones((3, 2)), xp.ones(2))])
@xp_compare()
def test_bad_arguments(xp, call):
    return call(xp)


class _FakeXpuDevice:
    kind = "xpu"

    def __str__(self):
        return "xpu:0"


def test_device_error_message():
    # every function has a path on cpu, cuda and hip; another device kind is refused
    # with the message naming the function and the device
    fake = types.SimpleNamespace(device=_FakeXpuDevice())
    with pytest.raises(NotImplementedError, match=r"garray.linalg.eig on xpu:0: the xpu "):
        garray.linalg._common.check_device(fake, "eig")
    assert garray.linalg._common.GPU_FUNCTIONS >= {"eig", "eigvals", "lstsq", "svd"}


def _solver_stats():
    """(handles, routines run, refused, matrices factorised) of the stub vendor solver,
    or None when the loaded library is not the stub."""
    import ctypes
    from garray._vendor import gpusolver
    ok, where = gpusolver.available(DEVICE.kind)
    fn = getattr(ctypes.CDLL(where), "fake_solver_stats", None) if ok else None
    if fn is None:
        return None
    out = (ctypes.c_ulonglong * 4)()
    fn(out)
    return tuple(out)


def test_gpu_vendor_solver(monkeypatch, tmp_path):
    """On a GPU device the solvers run on cuSOLVER / hipSOLVER (the stub's counters move:
    one routine per matrix), and a missing library is an error naming the package and
    the variable, never a host fallback."""
    if not ON_GPU:
        pytest.skip("the GPU devices' vendor solver")
    from garray._errors import BackendUnavailableError
    from garray._vendor import gpusolver
    h = hermitian_pd((3, 4, 4), "float64", seed=31)
    g = garray.asarray(h)
    before = _solver_stats()
    close(LA.cholesky(g), numpy.linalg.cholesky(h), "float64")
    close(LA.eigvalsh(g), numpy.linalg.eigvalsh(h), "float64")
    close(LA.det(g), numpy.linalg.det(h), "float64", scale=1e3)
    after = _solver_stats()
    if before is not None:
        assert after[1] - before[1] == 9 and after[2] == before[2], (before, after)
    for a in (g, g.astype(garray.complex128)):      # Xgeev, one call per matrix
        w = LA.eigvals(a)
        numpy.testing.assert_allclose(numpy.sort_complex(w.get()),
                                      numpy.sort_complex(numpy.linalg.eigvals(a.get())),
                                      rtol=1e-10)
    if before is not None:
        last = _solver_stats()
        assert last[1] - after[1] == 6 and last[2] == before[2], (after, last)
    v = gpusolver.VENDORS[DEVICE.kind]
    monkeypatch.setenv(v.env, str(tmp_path / "no-such-solver.so"))
    gpusolver.reset()
    try:
        with pytest.raises(BackendUnavailableError, match=v.env) as e:
            LA.inv(g)
        assert v.name in str(e.value)
    finally:
        monkeypatch.undo()
        gpusolver.reset()
    close(LA.inv(g), numpy.linalg.inv(h), "float64")
