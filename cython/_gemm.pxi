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


cdef void _gemm_one(intptr_t fn, char kd, bint ilp64, int ta, int tb, int64_t m, int64_t n,
                    int64_t k, char* pa, int64_t lda, char* pb, int64_t ldb, char* pc,
                    int64_t ldc) noexcept nogil:
    """C = op(A) @ op(B) through the cblas_?gemm at ``fn`` (kind kd: s, d, c or z; the
    ILP64 signature when ilp64, else 32-bit sizes, which the caller has checked)."""
    cdef double one[2]
    cdef double zero[2]
    cdef float onef[2]
    cdef float zerof[2]
    one[0], one[1], zero[0], zero[1] = 1.0, 0.0, 0.0, 0.0
    onef[0], onef[1], zerof[0], zerof[1] = 1.0, 0.0, 0.0, 0.0
    if ilp64:
        if kd == b"s":
            (<_sgemm64_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, 1.0, pa, lda, pb, ldb, 0.0,
                             pc, ldc)
        elif kd == b"d":
            (<_dgemm64_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, 1.0, pa, lda, pb, ldb, 0.0,
                             pc, ldc)
        elif kd == b"c":
            (<_cgemm64_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, onef, pa, lda, pb, ldb, zerof,
                             pc, ldc)
        else:
            (<_cgemm64_t>fn)(_CBLAS_COL_MAJOR, ta, tb, m, n, k, one, pa, lda, pb, ldb, zero,
                             pc, ldc)
    elif kd == b"s":
        (<_sgemm_t>fn)(_CBLAS_COL_MAJOR, ta, tb, <int>m, <int>n, <int>k, 1.0, pa, <int>lda,
                       pb, <int>ldb, 0.0, pc, <int>ldc)
    elif kd == b"d":
        (<_dgemm_t>fn)(_CBLAS_COL_MAJOR, ta, tb, <int>m, <int>n, <int>k, 1.0, pa, <int>lda,
                       pb, <int>ldb, 0.0, pc, <int>ldc)
    elif kd == b"c":
        (<_cgemm_t>fn)(_CBLAS_COL_MAJOR, ta, tb, <int>m, <int>n, <int>k, onef, pa, <int>lda,
                       pb, <int>ldb, zerof, pc, <int>ldc)
    else:
        (<_cgemm_t>fn)(_CBLAS_COL_MAJOR, ta, tb, <int>m, <int>n, <int>k, one, pa, <int>lda,
                       pb, <int>ldb, zero, pc, <int>ldc)


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
            _gemm_one(fn, kd, False, ta, tb, m, n, k, pa + i * sa, lda, pb + i * sb, ldb,
                      pc + i * sc, ldc)
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
    cdef char* pa = <char*>a
    cdef char* pb = <char*>b
    cdef char* pc = <char*>c
    cdef int64_t sa = stride_a * itemsize, sb = stride_b * itemsize, sc = stride_c * itemsize
    if kind not in ("s", "d", "c", "z"):
        raise ValueError(f"gemm: no BLAS routine kind {kind!r}")
    cdef char kd = ord(kind[0])
    with nogil:
        for i in range(batch):
            _gemm_one(fn, kd, True, ta, tb, m, n, k, pa + i * sa, lda, pb + i * sb, ldb,
                      pc + i * sc, ldc)
    return None


ctypedef float (*_sdot_t)(int, const void*, int, const void*, int) noexcept nogil
ctypedef double (*_ddot_t)(int, const void*, int, const void*, int) noexcept nogil
ctypedef float (*_sdot64_t)(int64_t, const void*, int64_t, const void*,
                            int64_t) noexcept nogil
ctypedef double (*_ddot64_t)(int64_t, const void*, int64_t, const void*,
                             int64_t) noexcept nogil


cdef void _dot_one(intptr_t fn, char kd, bint ilp64, int64_t k, char* pa, char* pb,
                   char* pc) noexcept:
    """c[0] = a . b over k contiguous elements through cblas_?dot (kd 's' or 'd'; the
    caller checked k against an LP64 library's limit); the GIL released from 2**15."""
    if k < 32768:
        _dot_call(fn, kd, ilp64, k, pa, pb, pc)
    else:
        with nogil:
            _dot_call(fn, kd, ilp64, k, pa, pb, pc)


cdef inline void _dot_call(intptr_t fn, char kd, bint ilp64, int64_t k, char* pa, char* pb,
                           char* pc) noexcept nogil:
    if kd == b"s":
        (<float*>pc)[0] = ((<_sdot64_t>fn)(k, pa, 1, pb, 1) if ilp64
                           else (<_sdot_t>fn)(<int>k, pa, 1, pb, 1))
    else:
        (<double*>pc)[0] = ((<_ddot64_t>fn)(k, pa, 1, pb, 1) if ilp64
                            else (<_ddot_t>fn)(<int>k, pa, 1, pb, 1))


# The per-call path of ``a @ b`` for C-contiguous 1-d/2-d operands of one BLAS dtype on
# the CPU device: the checks in C and one cblas_?gemm call.  _fast_gemm caches, per
# (dtype code, the raw values of the three GEMM settings), garray/_gemm/engine.py
# fast_blas's answer: (address, kind, ilp64, the VendorLibrary whose address table must
# still be the one read, that table), or False where the path does not apply.
cdef object _env_store = getattr(os.environ, "_data", None)
cdef tuple _GEMM_SETTINGS = tuple(os.environ.encodekey(n) for n in (
    "GARRAY_GEMM", "GARRAY_CPU_BLAS", "GARRAY_OPENBLAS_LIBRARY"))
cdef dict _fast_gemm = {}
cdef object _fast_blas = None


def _matmul_fast(ndarray a, ndarray b):
    """a @ b on the per-call path, or None where it does not apply (the caller takes
    the general path, which raises what it must)."""
    global _fast_blas
    cdef int code = a._code, nd
    cdef int64_t m, n, k, lim = 2147483647
    cdef Py_ssize_t shape[2]
    cdef ndarray c
    cdef tuple e
    if not (code == b._code and (code == _F32 or code == _F64 or code == _C64 or code == _C128)
            and a._is_cpu and b._device is a._device and a._flags & b._flags & FLAG_C
            and 1 <= a._nd <= 2 and 1 <= b._nd <= 2 and type(_env_store) is dict):
        return None
    d = <dict>_env_store
    key = (code, d.get(_GEMM_SETTINGS[0]), d.get(_GEMM_SETTINGS[1]),
           d.get(_GEMM_SETTINGS[2]))
    r = _fast_gemm.get(key)
    if r is None or (r is not False and (<tuple>r)[3] is not None
                     and (<tuple>r)[3]._addresses is not (<tuple>r)[4]):
        if _fast_blas is None:
            from garray._gemm import engine    # on first use: engine imports the core
            _fast_blas = engine.fast_blas
        r = _fast_gemm[key] = _fast_blas(a._dtype) or False
    if r is False:
        return None
    e = <tuple>r
    k = a._shape[a._nd - 1]
    m = a._shape[0] if a._nd == 2 else 1
    n = b._shape[1] if b._nd == 2 else 1
    if b._shape[0] != k or m == 0 or n == 0 or k == 0 or (
            not e[2] and (m > lim or n > lim or k > lim)):
        return None
    nd = 0
    if a._nd == 2:
        shape[0] = m
        nd = 1
    if b._nd == 2:
        shape[nd] = n
        nd += 1
    c = _new_array(a._dtype, nd, shape, a._device)
    cdef intptr_t fn = e[0]
    cdef char kd = ord(e[1])
    cdef bint ilp64 = e[2]
    cdef char* pa = <char*>a._ptr
    cdef char* pb = <char*>b._ptr
    cdef char* pc = <char*>c._ptr
    cdef intptr_t fdot = e[5]
    if nd == 0 and fdot != 0:           # vector . vector: cblas_?dot, as NumPy
        _dot_one(fdot, kd, ilp64, k, pa, pb, pc)
        return c
    # row-major c = a @ b is column-major c^T = b^T a^T, both read as stored
    if m * n < 32768 and m * n * k < 32768:     # small: keep the GIL (m * n cannot wrap)
        _gemm_one(fn, kd, ilp64, _CBLAS_NO_TRANS, _CBLAS_NO_TRANS, n, m, k, pb, n, pa, k, pc, n)
    else:
        with nogil:
            _gemm_one(fn, kd, ilp64, _CBLAS_NO_TRANS, _CBLAS_NO_TRANS, n, m, k, pb, n, pa, k,
                      pc, n)
    return c
