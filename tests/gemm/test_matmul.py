"""matmul, @ and @= against NumPy (docs/gemm.md): every dtype on every GEMM path, operand
layouts read in place, 1-d operands, batch broadcasting, empty sizes, out= and aliasing,
and NumPy's errors.

Paths (fixture ``path``): ``kernel-rt`` (GARRAY_GEMM=kernel: on the CPU device the
barrier-free register-tiled kernel), ``kernel-tiled`` (the GPU's shared-memory kernel,
run on the CPU device on fibers; on GPUs the kernel path is always this one) and
``vendor`` (GARRAY_GEMM=vendor: OpenBLAS on the CPU, cuBLAS/hipBLAS on GPUs; integer and
bool dtypes still run the kernel).
"""

import numpy
import pytest

import garray
from garray._gemm import engine as _gemm
from garray._errors import BackendUnavailableError
from garray._tables.gemm import G_RT, G_TILED

from xp import assert_xp_close, for_all_dtypes, sample, xp_compare

PATHS = ("kernel-rt", "kernel-tiled", "vendor")


@pytest.fixture(params=PATHS)
def path(request, monkeypatch):
    p = request.param
    monkeypatch.setenv("GARRAY_GEMM", "kernel" if p.startswith("kernel") else "vendor")
    monkeypatch.setattr(_gemm, "_cpu_slot", G_TILED if p == "kernel-tiled" else G_RT)
    return p


def tol(dtype, k):
    """(rtol, atol) for a product with inner size k: relative to k * eps (the values of
    ``sample`` are at most 4 in magnitude, so a sum of k products is at most 16 k)."""
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "fc":
        return 0, 0
    eps = numpy.finfo(dtype).eps
    return 4 * k * eps, 16 * 4 * k * eps


def check(got, expected, k):
    rtol, atol = tol(expected.dtype, k)
    assert_xp_close(got, expected, rtol=rtol, atol=atol)


def pair(shape_a, shape_b, dtype, dtype_b=None):
    """NumPy operands and garray copies of them."""
    na = sample(shape_a, dtype)
    nb = sample(shape_b, dtype if dtype_b is None else dtype_b, start=3)
    return na, nb, garray.asarray(na), garray.asarray(nb)


# ---- every dtype, every path ------------------------------------------------------

@for_all_dtypes()
def test_dtypes(path, dtype):
    # odd sizes that divide no tile (64 x 64 x 16 tiled, 4 x 16 register tiles)
    na, nb, ga, gb = pair((70, 33), (33, 50), dtype)
    check(ga @ gb, na @ nb, 33)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint32", "int64"])
def test_integers_wrap(path, dtype):
    # full-range values (a multiplicative hash, wrapping in uint64, then truncated)
    mix = numpy.uint64(0x9E3779B97F4A7C15)
    na = (numpy.arange(40 * 65, dtype=numpy.uint64) * mix).reshape(40, 65).astype(dtype)
    nb = (numpy.arange(65 * 9, dtype=numpy.uint64) * mix >> numpy.uint64(7)).reshape(
        65, 9).astype(dtype)
    assert_xp_close(garray.asarray(na) @ garray.asarray(nb), na @ nb)


def test_bool_is_or_of_and(path):
    na = numpy.array([[True, False, False], [False, False, False]])
    nb = numpy.array([[True, True], [True, False], [False, True]])
    assert_xp_close(garray.asarray(na) @ garray.asarray(nb), na @ nb)


@pytest.mark.parametrize("da,db", [("int8", "uint8"), ("int32", "float32"),
                                   ("bool", "int64"), ("float32", "complex128"),
                                   ("uint16", "float64")])
def test_mixed_dtypes(da, db):
    na, nb, ga, gb = pair((5, 7), (7, 3), da, db)
    check(ga @ gb, na @ nb, 7)


# ---- layouts: read in place by the kernels, op flags or a copy for the BLAS ---------

def view(xp, name, x):
    """A (12, 10) view of the (24, 20) array x in layout ``name``."""
    if name == "c":
        return x[:12, :10]
    if name == "transposed":
        return x[:10, :12].T
    if name == "fortran":
        return xp.asfortranarray(x[:12, :10])
    if name == "negative":
        return x[::-2, ::-2][:12, :10]
    if name == "step":
        return x[1::2, ::2][:12, :10]
    if name == "broadcast-row":
        return xp.broadcast_to(x[:1, :10], (12, 10))
    raise ValueError(name)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int32"])
@pytest.mark.parametrize("la", ["c", "transposed", "negative", "step", "broadcast-row"])
@pytest.mark.parametrize("lb", ["c", "transposed", "fortran", "negative"])
def test_layouts(path, dtype, la, lb):
    if path == "kernel-tiled" and (la, lb) not in (("negative", "transposed"),
                                                   ("transposed", "negative")):
        pytest.skip("the tiled kernel takes the same strides; two layouts suffice")
    na, nb = sample((24, 20), dtype), sample((24, 20), dtype, start=5)
    ga, gb = garray.asarray(na), garray.asarray(nb)
    # b is used as (k, n) = (10, 12) through its transpose
    check(view(garray, la, ga) @ view(garray, lb, gb).T,
          view(numpy, la, na) @ view(numpy, lb, nb).T, 10)


@pytest.mark.parametrize("dtype", ["float32", "int16"])
def test_result_into_transposed_out(path, dtype):
    na, nb, ga, gb = pair((9, 6), (6, 11), dtype)
    nout, gout = numpy.zeros((11, 9), dtype), garray.zeros((11, 9), dtype=dtype)
    numpy.matmul(na, nb, out=nout.T)
    garray.matmul(ga, gb, out=gout.T)
    check(gout, nout, 6)


# ---- 1-d operands, batches, empty sizes -------------------------------------------

@pytest.mark.parametrize("sa,sb", [
    ((7,), (7,)), ((7,), (7, 4)), ((5, 7), (7,)), ((3, 5, 7), (7,)), ((7,), (2, 7, 4)),
    ((2, 1, 5, 7), (3, 7, 4)), ((5, 7), (4, 7, 3)), ((1, 5, 7), (6, 1, 7, 2)),
])
@pytest.mark.parametrize("dtype", ["float64", "int32", "complex64"])
def test_shapes(path, sa, sb, dtype):
    na, nb, ga, gb = pair(sa, sb, dtype)
    check(garray.matmul(ga, gb), numpy.matmul(na, nb), 7)


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex64"])
def test_batch_views(path, dtype):
    # batch axes that do not collapse (transposed batch) and negative batch strides
    na, nb, ga, gb = pair((3, 4, 5, 6), (4, 3, 6, 2), dtype)
    check(ga.transpose(1, 0, 2, 3)[::-1] @ gb[:, ::-1],
          na.transpose(1, 0, 2, 3)[::-1] @ nb[:, ::-1], 6)


@pytest.mark.parametrize("sa,sb", [((0, 4), (4, 3)), ((3, 4), (4, 0)), ((3, 0), (0, 5)),
                                   ((0, 3, 4), (4, 2)), ((0,), (0,)), ((2, 0), (0,))])
@pytest.mark.parametrize("dtype", ["float64", "bool"])
def test_empty(path, sa, sb, dtype):
    na, nb, ga, gb = pair(sa, sb, dtype)
    assert_xp_close(garray.matmul(ga, gb), numpy.matmul(na, nb))


def test_vector_dot_is_0d():
    na, nb, ga, gb = pair((9,), (9,), "float64")
    r = ga @ gb
    assert r.shape == () and r.dtype == numpy.float64
    check(r, numpy.asarray(na @ nb), 9)


# ---- out=, dtype=, casting, @= ------------------------------------------------------

@pytest.mark.parametrize("out_dtype", ["float64", "float32", "complex128"])
def test_out(out_dtype):
    na, nb, ga, gb = pair((4, 6), (6, 5), "float64")
    nout, gout = numpy.zeros((4, 5), out_dtype), garray.zeros((4, 5), dtype=out_dtype)
    assert garray.matmul(ga, gb, out=gout) is gout
    numpy.matmul(na, nb, out=nout)
    check(gout, nout, 6)


def test_out_with_extra_batch_axes_and_1d():
    na, nb, ga, gb = pair((6,), (6, 5), "int32")
    nout, gout = numpy.zeros((3, 5), "int32"), garray.zeros((3, 5), dtype="int32")
    numpy.matmul(na, nb, out=nout)
    garray.matmul(ga, gb, out=gout)
    assert_xp_close(gout, nout)


@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_out_aliases_input(path, dtype):
    na, nb, ga, gb = pair((6, 6), (6, 6), dtype)
    numpy.matmul(na, nb, out=na)
    garray.matmul(ga, gb, out=ga)
    check(ga, na, 6)
    numpy.matmul(nb[:, ::-1], nb, out=nb[::-1])
    garray.matmul(gb[:, ::-1], gb, out=gb[::-1])
    check(gb, nb, 6)


@pytest.mark.parametrize("dtype", ["float32", "int8", "complex128"])
def test_inplace_operator(dtype):
    na, nb, ga, gb = pair((2, 5, 5), (5, 5), dtype)
    ref = ga
    na @= nb
    ga @= gb
    assert ga is ref
    check(ga, na, 5)


@xp_compare()
def test_inplace_shape_change(xp):
    a = xp.ones((2, 3))
    a @= xp.ones((3, 4))
    return a


@xp_compare()
def test_inplace_bad_cast(xp):
    a = xp.ones((2, 2), dtype="int64")
    a @= xp.ones((2, 2))
    return a


@pytest.mark.parametrize("dtype,casting", [("float32", "same_kind"), ("int64", "same_kind"),
                                           ("int32", "unsafe"), ("complex64", "safe")])
def test_dtype_and_casting(dtype, casting):
    @xp_compare(rtol=1e-5, atol=1e-5)
    def body(xp):
        a = xp.asarray(sample((3, 4), "float64"))
        b = xp.asarray(sample((4, 2), "int32"))
        return xp.matmul(a, b, dtype=dtype, casting=casting)
    body()


@pytest.mark.parametrize("order", ["C", "F", "K"])
def test_order(order):
    na, nb, ga, gb = pair((2, 4, 3), (3, 5), "float64")
    r = garray.matmul(ga, gb, order=order)
    check(r, numpy.matmul(na, nb, order=order), 3)
    assert r.flags.f_contiguous == (order == "F")


# ---- operands that are not arrays ----------------------------------------------------

def test_lists_and_scalars():
    ga = garray.asarray(sample((2, 3), "int64"))
    assert_xp_close(garray.matmul([1, 2], [[1, 2], [3, 4]]),
                    numpy.matmul([1, 2], [[1, 2], [3, 4]]))
    assert_xp_close(garray.matmul(ga, [1, 0, 2]),
                    numpy.matmul(sample((2, 3), "int64"), [1, 0, 2]))
    with pytest.raises(ValueError, match="Input operand 0 does not have enough"):
        garray.matmul(numpy.float64(2.0), ga)
    with pytest.raises(ValueError, match="Input operand 1 does not have enough"):
        garray.matmul(ga, 3)


# ---- errors ---------------------------------------------------------------------------

@pytest.mark.parametrize("sa,sb", [((), (3,)), ((3,), ()), ((2, 3), (4, 2)), ((3,), (4,)),
                                   ((2, 3, 3), (4, 3, 3))])
def test_shape_errors(sa, sb):
    @xp_compare()
    def body(xp):
        return xp.matmul(xp.ones(sa), xp.ones(sb))
    body()


def test_mismatch_message_names_shapes():
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4, 2\)"):
        garray.ones((2, 3)) @ garray.ones((4, 2))


@pytest.mark.parametrize("out_shape", [(2, 3), (3,), (3, 2, 2)])
def test_out_shape_errors(out_shape):
    @xp_compare()
    def body(xp):
        return xp.matmul(xp.ones((2, 3)), xp.ones((3, 2)), out=xp.zeros(out_shape))
    body()


def test_out_bad_cast():
    @xp_compare()
    def body(xp):
        return xp.matmul(xp.ones((2, 3)), xp.ones((3, 2)), out=xp.zeros((2, 2), "int32"))
    body()


def test_gemm_mode_is_checked(monkeypatch):
    monkeypatch.setenv("GARRAY_GEMM", "fastest")
    with pytest.raises(ValueError, match="GARRAY_GEMM"):
        garray.ones((2, 2)) @ garray.ones((2, 2))


def test_missing_blas_is_reported(monkeypatch):
    a = garray.ones((2, 2))
    if a.device.kind != "cpu":
        pytest.skip("the CPU device's vendor library")
    from garray._vendor import openblas
    monkeypatch.setenv("GARRAY_OPENBLAS_LIBRARY", "/nonexistent/libscipy_openblas.so")
    monkeypatch.setenv("GARRAY_GEMM", "vendor")
    openblas.library.reset()
    try:
        with pytest.raises(BackendUnavailableError, match="GARRAY_GEMM=kernel"):
            a @ a
        # the kernel path needs no library; integer dtypes never do
        monkeypatch.setenv("GARRAY_GEMM", "kernel")
        assert (a @ a).get().tolist() == [[2.0, 2.0], [2.0, 2.0]]
        monkeypatch.setenv("GARRAY_GEMM", "auto")
        assert (a.astype("int32") @ a.astype("int32")).get().tolist() == [[2, 2], [2, 2]]
    finally:
        monkeypatch.delenv("GARRAY_OPENBLAS_LIBRARY")
        openblas.library.reset()


# ---- the op-flag computation shared by the CPU and GPU BLAS calls ---------------------

def _colmajor_gemm(ta, tb, m, n, k, x, ldx, y, ldy, ldc, c_size):
    """A column-major BLAS gemm on flat NumPy buffers: the reference model of the BLAS
    contract (not of garray), to check blas_args's flags and leading dimensions."""
    def mat(buf, rows, cols, ld, t):
        r, c = (rows, cols) if t == "N" else (cols, rows)
        full = numpy.lib.stride_tricks.as_strided(
            buf, (r, c), (buf.itemsize, ld * buf.itemsize))
        return full if t == "N" else full.T
    out = numpy.zeros(c_size)
    cm = numpy.lib.stride_tricks.as_strided(out, (m, n), (8, ldc * 8))
    cm[...] = mat(x, m, k, ldx, ta) @ mat(y, k, n, ldy, tb)
    return out


@pytest.mark.parametrize("oa", ["C", "F"])
@pytest.mark.parametrize("ob", ["C", "F"])
@pytest.mark.parametrize("oc", ["C", "F"])
@pytest.mark.parametrize("m,n,k", [(3, 4, 5), (1, 4, 5), (3, 1, 1)])
def test_blas_args(oa, ob, oc, m, n, k):
    a = numpy.asarray(sample((m, k), "float64"), order=oa)
    b = numpy.asarray(sample((k, n), "float64", start=2), order=ob)
    layout = [_gemm.blas_layout(x.shape[0], x.shape[1], x.strides[0] // 8, x.strides[1] // 8)
              for x in (a, b)]
    cst = (n, 1) if oc == "C" else (1, m)
    lc = _gemm.blas_layout(m, n, *cst)
    assert None not in layout and lc is not None
    ta, tb, mm, nn, kk, first, ld1, second, ld2, ldc = _gemm.blas_args(m, n, k, *layout, lc)
    flat = {"a": a.ravel(order="K"), "b": b.ravel(order="K")}
    out = _colmajor_gemm(ta, tb, mm, nn, kk, flat[first], ld1, flat[second], ld2, ldc, m * n)
    c = numpy.lib.stride_tricks.as_strided(out, (m, n), (cst[0] * 8, cst[1] * 8))
    numpy.testing.assert_allclose(c, a @ b, rtol=1e-12)


@pytest.mark.parametrize("shape,strides", [((3, 4), (-4, 1)), ((3, 4), (0, 1)),
                                           ((3, 4), (8, 2)), ((3, 4), (2, 1))])
def test_blas_layout_refuses(shape, strides):
    assert _gemm.blas_layout(*shape, *strides) is None



def test_different_devices():
    a = garray.ones((2, 2))
    if a.device.kind == "cpu":
        pytest.skip("needs a second device (runs on the GPU devices, against the CPU)")
    h = garray.ones((2, 2), device="cpu")
    with pytest.raises(ValueError, match=r"cpu.*" + a.device.kind + "|" + a.device.kind
                       + ".*cpu"):
        a @ h
    with pytest.raises(ValueError, match="cpu"):
        garray.matmul(a, a, out=garray.zeros((2, 2), device="cpu"))
