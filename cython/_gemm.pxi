# The GEMM family's BLAS primitive (garray/_gemm/matmul.py drives the family; the kernels
# are _kernels/gemm.hip, the table garray/_tables/gemm.py, the design docs/gemm.md, and
# its kernels launch through _family_launch like every family's).
#
# _cblas_gemm calls the CPU device's OpenBLAS ?gemm through its address, once per matrix
# of a batch, with the GIL released.

ctypedef void (*_sgemm_t)(int, int, int, int, int, int, float, const void*, int,
                          const void*, int, float, void*, int) noexcept nogil
ctypedef void (*_dgemm_t)(int, int, int, int, int, int, double, const void*, int,
                          const void*, int, double, void*, int) noexcept nogil
ctypedef void (*_cgemm_t)(int, int, int, int, int, int, const void*, const void*, int,
                          const void*, int, const void*, void*, int) noexcept nogil
# cblas_?gemm_batch_strided (OpenBLAS >= 0.3.29, MKL's signature): strides in elements
ctypedef void (*_sgemm_bs_t)(int, int, int, int, int, int, float, const void*, int, int,
                             const void*, int, int, float, void*, int, int, int) noexcept nogil
ctypedef void (*_dgemm_bs_t)(int, int, int, int, int, int, double, const void*, int, int,
                             const void*, int, int, double, void*, int, int, int) noexcept nogil
ctypedef void (*_cgemm_bs_t)(int, int, int, int, int, int, const void*, const void*, int,
                             int, const void*, int, int, const void*, void*, int, int,
                             int) noexcept nogil

cdef enum:
    _CBLAS_COL_MAJOR = 102
    _CBLAS_NO_TRANS = 111
    _CBLAS_TRANS = 112
    _CBLAS_CONJ_TRANS = 113


cdef inline int _cblas_op(str t) except -1:
    if t == "N":
        return _CBLAS_NO_TRANS
    if t == "T":
        return _CBLAS_TRANS
    if t == "C":
        return _CBLAS_CONJ_TRANS
    raise ValueError(f"gemm: op flag must be 'N', 'T' or 'C', got {t!r}")


def _cblas_gemm(intptr_t fn, intptr_t fn_batch, str kind, str transa, str transb, int m, int n, int k,
                intptr_t a, int lda, int64_t stride_a, intptr_t b, int ldb,
                int64_t stride_b, intptr_t c, int ldc, int64_t stride_c, int64_t batch,
                int itemsize):
    """C[i] = op(A[i]) @ op(B[i]) (column-major BLAS semantics, alpha 1, beta 0) for i in
    range(batch) through the cblas_?gemm at address ``fn`` (or the strided-batch entry
    ``fn_batch``, 0 when absent); ``kind`` is "s", "d", "c" or "z"; strides are in
    elements."""
    cdef int ta = _cblas_op(transa), tb = _cblas_op(transb)
    cdef int64_t i
    cdef double one[2]
    cdef double zero[2]
    cdef float onef[2]
    cdef float zerof[2]
    cdef char* pa = <char*>a
    cdef char* pb = <char*>b
    cdef char* pc = <char*>c
    cdef int64_t sa = stride_a * itemsize, sb = stride_b * itemsize, sc = stride_c * itemsize
    one[0], one[1], zero[0], zero[1] = 1.0, 0.0, 0.0, 0.0
    onef[0], onef[1], zerof[0], zerof[1] = 1.0, 0.0, 0.0, 0.0
    if kind not in ("s", "d", "c", "z"):
        raise ValueError(f"gemm: no BLAS routine kind {kind!r}")
    cdef char kd = ord(kind[0])
    cdef int64_t lim = 2147483647
    if (batch > 1 and fn_batch != 0 and batch <= lim and 0 <= stride_a <= lim
            and 0 <= stride_b <= lim and 0 <= stride_c <= lim):
        with nogil:
            if kd == b"s":
                (<_sgemm_bs_t>fn_batch)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, 1.0, pa, lda,
                                        <int>stride_a, pb, ldb, <int>stride_b, 0.0, pc, ldc,
                                        <int>stride_c, <int>batch)
            elif kd == b"d":
                (<_dgemm_bs_t>fn_batch)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, 1.0, pa, lda,
                                        <int>stride_a, pb, ldb, <int>stride_b, 0.0, pc, ldc,
                                        <int>stride_c, <int>batch)
            elif kd == b"c":
                (<_cgemm_bs_t>fn_batch)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, onef, pa, lda,
                                        <int>stride_a, pb, ldb, <int>stride_b, zerof, pc,
                                        ldc, <int>stride_c, <int>batch)
            else:
                (<_cgemm_bs_t>fn_batch)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, one, pa, lda,
                                        <int>stride_a, pb, ldb, <int>stride_b, zero, pc,
                                        ldc, <int>stride_c, <int>batch)
        return None
    with nogil:
        for i in range(batch):
            if kd == b"s":
                (<_sgemm_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, 1.0, pa + i * sa, lda,
                               pb + i * sb, ldb, 0.0, pc + i * sc, ldc)
            elif kd == b"d":
                (<_dgemm_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, 1.0, pa + i * sa, lda,
                               pb + i * sb, ldb, 0.0, pc + i * sc, ldc)
            elif kd == b"c":
                (<_cgemm_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, onef, pa + i * sa, lda,
                               pb + i * sb, ldb, zerof, pc + i * sc, ldc)
            else:
                (<_cgemm_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, one, pa + i * sa, lda,
                               pb + i * sb, ldb, zero, pc + i * sc, ldc)
    return None


# The same routines in an ILP64 build (NumPy's own scipy-openblas64: sizes and leading
# dimensions are 64-bit, the enums stay int).
ctypedef void (*_sgemm64_t)(int, int, int, int64_t, int64_t, int64_t, float, const void*,
                            int64_t, const void*, int64_t, float, void*, int64_t) noexcept nogil
ctypedef void (*_dgemm64_t)(int, int, int, int64_t, int64_t, int64_t, double, const void*,
                            int64_t, const void*, int64_t, double, void*,
                            int64_t) noexcept nogil
ctypedef void (*_cgemm64_t)(int, int, int, int64_t, int64_t, int64_t, const void*,
                            const void*, int64_t, const void*, int64_t, const void*, void*,
                            int64_t) noexcept nogil


def _cblas_gemm64(intptr_t fn, str kind, str transa, str transb, int64_t m, int64_t n,
                  int64_t k, intptr_t a, int64_t lda, int64_t stride_a, intptr_t b,
                  int64_t ldb, int64_t stride_b, intptr_t c, int64_t ldc, int64_t stride_c,
                  int64_t batch, int itemsize):
    """_cblas_gemm through an ILP64 cblas_?gemm (64-bit sizes), once per matrix of the
    batch, with the GIL released."""
    cdef int ta = _cblas_op(transa), tb = _cblas_op(transb)
    cdef int64_t i
    cdef double one[2]
    cdef double zero[2]
    cdef float onef[2]
    cdef float zerof[2]
    cdef char* pa = <char*>a
    cdef char* pb = <char*>b
    cdef char* pc = <char*>c
    cdef int64_t sa = stride_a * itemsize, sb = stride_b * itemsize, sc = stride_c * itemsize
    one[0], one[1], zero[0], zero[1] = 1.0, 0.0, 0.0, 0.0
    onef[0], onef[1], zerof[0], zerof[1] = 1.0, 0.0, 0.0, 0.0
    if kind not in ("s", "d", "c", "z"):
        raise ValueError(f"gemm: no BLAS routine kind {kind!r}")
    cdef char kd = ord(kind[0])
    with nogil:
        for i in range(batch):
            if kd == b"s":
                (<_sgemm64_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, 1.0, pa + i * sa, lda,
                                 pb + i * sb, ldb, 0.0, pc + i * sc, ldc)
            elif kd == b"d":
                (<_dgemm64_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, 1.0, pa + i * sa, lda,
                                 pb + i * sb, ldb, 0.0, pc + i * sc, ldc)
            elif kd == b"c":
                (<_cgemm64_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, onef, pa + i * sa, lda,
                                 pb + i * sb, ldb, zerof, pc + i * sc, ldc)
            else:
                (<_cgemm64_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, one, pa + i * sa, lda,
                                 pb + i * sb, ldb, zero, pc + i * sc, ldc)
    return None
