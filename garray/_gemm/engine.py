"""The GEMM engine: C[b] = A[b] @ B[b] over a batch, on any device (docs/gemm.md).

Note [GEMM dispatch]
~~~~~~~~~~~~~~~~~~~~
1. ``gemm(c, a, b)`` takes three garray arrays of one dtype on one device: a
   (..., m, k), b (..., k, n), c (..., m, n), with the same batch shape (broadcast
   operands are views with batch stride 0) and c not overlapping a or b.  Empty m or n
   is a no-op, k == 0 fills c with zeros.
2. Batch axes are collapsed where all three operands allow it (stride[i] ==
   stride[i + 1] * shape[i + 1] for each), leaving one batch stride per operand, which
   the kernels and the strided-batched BLAS calls take (on the CPU one
   cblas_?gemm_batch_strided call, where OpenBLAS has it).  A batch that does not collapse
   to one axis is walked over its first axis on the host, one launch per index.
3. The path is read at each call from GARRAY_GEMM (kernel | vendor | auto, default
   auto): the vendor BLAS for float32/float64/complex64/complex128, garray's kernels
   for integer and bool dtypes, which no vendor BLAS has (so ``vendor`` for an integer
   dtype also runs the kernel).  A missing vendor library raises the loader's
   BackendUnavailableError, with GARRAY_GEMM=kernel as the way round; nothing falls
   back to NumPy.
4. Vendor calls use column-major BLAS semantics on every device (CblasColMajor on the
   CPU, cuBLAS/hipBLAS strided-batched on GPUs), and ``blas_args`` computes the op
   flags and leading dimensions once for both.  A matrix with unit stride on one axis
   and the other stride at least the first axis' extent goes in place, as an op flag
   ('N' or 'T'); any other operand (negative or zero strides, both strides > 1) is
   first copied to a C-contiguous temporary by garray's copy kernel.  A row-major c is
   computed as the column-major c^T = b^T a^T.  A c that a BLAS cannot write (not
   row- or column-major) gets a contiguous temporary, copied into c afterwards.
5. Kernels take element strides, so no operand is ever copied for them.  On GPUs the
   tiled shared-memory kernel runs (``G_TILED``); on the CPU device the barrier-free
   register-tiled kernel (``G_RT``), whose vectorised inner loop wants b's column
   stride to be 1: when it is not and a's row stride is, the engine computes the
   transposed problem c^T = b^T a^T instead (views only).
"""

import numpy        # dtype objects only

from .. import _env, _core
from .._dtypes import DTYPE_CODE
from .._dtypes import float32 as _FLOAT32, is_narrow as _is_narrow
from .._errors import BackendUnavailableError
from .._tables.gemm import G_RT, G_TILED, GEMM
from .._array_utils import ascontiguousarray
from .._vendor import openblas
from .._core import empty

__all__ = ["gemm", "blas_layout", "blas_args", "path_for"]

_BLAS_KIND = {numpy.dtype(t): k for t, k in (("float32", "s"), ("float64", "d"),
                                              ("complex64", "c"), ("complex128", "z"))}
_INT32_MAX = 2 ** 31 - 1

# Test hook: the CPU device's kernel slot (G_RT); tests set G_TILED to run the GPU
# kernel's logic on the CPU device (on fibers).
_cpu_slot = G_RT
_openblas_threads_set = False


def path_for(dtype):
    """"kernel" or "vendor": the GEMM path for compute dtype ``dtype`` (note 3)."""
    mode = _env.choice("GARRAY_GEMM", ("kernel", "vendor", "auto"), "auto")
    if mode == "kernel" or dtype not in _BLAS_KIND:
        return "kernel"
    return "vendor"


def blas_layout(rows, cols, s_rows, s_cols):
    """How a column-major BLAS can read a rows x cols matrix with element strides
    (s_rows, s_cols): ("row", ld) when it is row-major (the BLAS sees its transpose),
    ("col", ld) when column-major, None when it must be copied (note 4)."""
    if s_cols == 1 or cols == 1:
        ld = s_rows if rows > 1 else max(1, cols)
        if ld >= max(1, cols) and ld <= _INT32_MAX:
            return "row", ld
    if s_rows == 1 or rows == 1:
        ld = s_cols if cols > 1 else max(1, rows)
        if ld >= max(1, rows) and ld <= _INT32_MAX:
            return "col", ld
    return None


def blas_args(m, n, k, la, lb, lc):
    """Column-major BLAS arguments of c = a @ b (m x k times k x n) from the operands'
    ``blas_layout``: (transa, transb, M, N, K, first, lda, second, ldb, ldc), where first
    and second say which operand ("a" or "b") goes as the BLAS's A and B."""
    if lc[0] == "row":      # the BLAS writes c^T = b^T a^T
        return ("N" if lb[0] == "row" else "T", "N" if la[0] == "row" else "T",
                n, m, k, "b", lb[1], "a", la[1], lc[1])
    return ("N" if la[0] == "col" else "T", "N" if lb[0] == "col" else "T",
            m, n, k, "a", la[1], "b", lb[1], lc[1])


def _elem_strides(x):
    """x's strides in elements, or None when one is not a whole number of elements."""
    isz = x.itemsize
    if any(s % isz for s in x.strides):
        return None
    return tuple(s // isz for s in x.strides)


def _collapse_batch(shape, *strides):
    """Batch axes merged where every operand allows it (note 2): [(extent, strides)]."""
    dims = [(e, [s[i] for s in strides]) for i, e in enumerate(shape) if e != 1]
    out = []
    for e, st in dims:
        if out:
            pe, pst = out[-1]
            if all(ps == s * e for ps, s in zip(pst, st)):
                out[-1] = (pe * e, st)
                continue
        out.append((e, st))
    return out


def gemm(c, a, b):
    """c[...] = a @ b (note 1)."""
    if _is_narrow(c.dtype) or _is_narrow(a.dtype):
        # the narrow floats (Note [Narrow floats] in _kernels/garray/types.h): float32's
        # GEMM on the widened operands, each sum rounded once to c's dtype, as NumPy's
        # float16 matmul loop (ml_dtypes' matmul gives the float32 sums themselves)
        t = empty(c.shape, dtype=_FLOAT32, device=c.device)
        gemm(t, a.astype(_FLOAT32), b.astype(_FLOAT32))
        c[...] = t
        return
    m, k = a.shape[-2:]
    n = b.shape[-1]
    if c.size == 0:
        return
    if k == 0:
        c[...] = 0
        return
    sa, sb = _elem_strides(a), _elem_strides(b)
    if sa is None:
        a = ascontiguousarray(a)
        sa = _elem_strides(a)
    if sb is None:
        b = ascontiguousarray(b)
        sb = _elem_strides(b)
    sc = _elem_strides(c)
    if sc is None:
        _via_temp(c, a, b)
        return
    nb = c.ndim - 2
    groups = _collapse_batch(c.shape[:nb], sc[:nb], sa[:nb], sb[:nb])
    if len(groups) > 1:
        for i in range(c.shape[0]):
            gemm(c[i], a[i], b[i])
        return
    batch, (scb, sab, sbb) = groups[0] if groups else (1, (0, 0, 0))
    if path_for(c.dtype) == "kernel":
        _kernel(c, a, b, m, n, k, batch, (scb,) + sc[nb:], (sab,) + sa[nb:],
                (sbb,) + sb[nb:])
    else:
        _vendor(c, a, b, m, n, k, batch, (scb,) + sc[nb:], (sab,) + sa[nb:],
                (sbb,) + sb[nb:])


def _via_temp(c, a, b):
    t = empty(c.shape, dtype=c.dtype, device=c.device)
    gemm(t, a, b)
    c[...] = t


def _kernel(c, a, b, m, n, k, batch, sc, sa, sb):
    code = DTYPE_CODE[c.dtype]
    if c.device.kind == "cpu" and _cpu_slot == G_RT:
        if sb[2] != 1 and sa[1] == 1:       # note 5: c^T = b^T a^T
            a, b, m, n = b, a, n, m
            sa, sb = (sb[0], sb[2], sb[1]), (sa[0], sa[2], sa[1])
            sc = (sc[0], sc[2], sc[1])
        slot, threads = G_RT, -(-m // 4) * -(-n // 16) * batch
    else:
        slot, threads = G_TILED, -(-m // 64) * -(-n // 64) * batch * 256
    _core._family_launch(GEMM, code, slot, threads, (c, a, b, m, n, k, batch) + sc + sa + sb,
                         c, m * n * k * batch)


def _vendor(c, a, b, m, n, k, batch, sc, sa, sb):
    lc = blas_layout(m, n, sc[1], sc[2])
    if lc is None:
        _via_temp(c, a, b)
        return
    la = blas_layout(m, k, sa[1], sa[2])
    if la is None:
        a, sa = _packed(a, batch, sa)
        la = blas_layout(m, k, sa[1], sa[2])
    lb = blas_layout(k, n, sb[1], sb[2])
    if lb is None:
        b, sb = _packed(b, batch, sb)
        lb = blas_layout(k, n, sb[1], sb[2])
    if max(m, n, k) > _INT32_MAX:
        raise NotImplementedError(f"matmul: the vendor BLAS takes 32-bit sizes; got "
                                  f"m={m}, n={n}, k={k} (set GARRAY_GEMM=kernel)")
    ta, tb, mm, nn, kk, first, ld1, second, ld2, ldc = blas_args(m, n, k, la, lb, lc)
    ops = {"a": (a, sa[0]), "b": (b, sb[0])}
    (x, sx), (y, sy) = ops[first], ops[second]
    if c.device.kind == "cpu":
        _cblas(_cpu_blas(c.dtype), ta, tb, mm, nn, kk, x.ptr, ld1, sx, y.ptr, ld2, sy,
               c.ptr, ldc, sc[0], batch, c.itemsize)
    else:
        # GPU BLAS (cuBLAS / hipBLAS) through garray._vendor.gpublas, imported here so
        # the CPU device never needs it.  The strided-batched calls document no negative
        # batch stride (gpublas refuses one): such a batch goes one matrix per call.
        from .._vendor import gpublas   # here: the vendor base costs import time on the CPU
        one, zero, isz = c.dtype.type(1), c.dtype.type(0), c.itemsize
        if batch > 1 and min(sx, sy, sc[0]) < 0:
            for i in range(batch):
                gpublas.gemm(c.device, c.dtype, ta, tb, mm, nn, kk, one,
                             x.ptr + i * sx * isz, ld1, 0, y.ptr + i * sy * isz, ld2, 0,
                             zero, c.ptr + i * sc[0] * isz, ldc, 0, 1)
            return
        gpublas.gemm(c.device, c.dtype, ta, tb, mm, nn, kk, one, x.ptr, ld1, sx, y.ptr,
                     ld2, sy, zero, c.ptr, ldc, sc[0], batch)


_CPU_BLAS = {}          # dtype -> (fn, fn_batch, kind, ilp64, the address table read)


def _cpu_blas(dtype):
    """(cblas_?gemm, ?gemm_batch_strided or 0, kind, ilp64) of the CPU device for a BLAS
    dtype: NumPy's own OpenBLAS where this NumPy loaded one and neither
    ``GARRAY_CPU_BLAS=own`` nor ``GARRAY_OPENBLAS_LIBRARY`` says otherwise (one thread
    pool for the process), else garray's scipy-openblas32 (docs/gemm.md)."""
    kind = _BLAS_KIND[dtype]
    own = (_env.choice("GARRAY_CPU_BLAS", ("numpy", "own"), "numpy") == "own"
           or bool(_env.get("GARRAY_OPENBLAS_LIBRARY")))
    if not own:
        fn = openblas.numpy_gemm(kind)
        if fn:
            return fn, 0, kind, True
    fast = _CPU_BLAS.get(dtype)
    # the library's address table is replaced when it is looked up again (reset)
    if fast is None or fast[4] is not openblas.library._addresses:
        fast = _CPU_BLAS[dtype] = _openblas_gemm(dtype) + (kind, False,
                                                           openblas.library._addresses)
    return fast[:4]


def _cblas(blas, ta, tb, m, n, k, a, lda, sa, b, ldb, sb, c, ldc, sc, batch, itemsize):
    fn, fn_batch, kind, ilp64 = blas
    if ilp64:
        _core._cblas_gemm64(fn, kind, ta, tb, m, n, k, a, lda, sa, b, ldb, sb, c, ldc, sc,
                            batch, itemsize)
    else:
        _core._cblas_gemm(fn, fn_batch, kind, ta, tb, m, n, k, a, lda, sa, b, ldb, sb, c, ldc,
                          sc, batch, itemsize)


def fast_blas(dtype):
    """The per-call path of ``a @ b`` (cython/_gemm.pxi ``_matmul_fast``, which caches
    this per dtype and settings): (cblas_?gemm address, kind, ilp64, the library whose
    address table must stay the one read or None, that table, cblas_?dot's address for
    a real dtype or 0), or None where the settings send ``dtype`` elsewhere
    (GARRAY_GEMM=kernel, an integer dtype).  A vector . vector product goes to ?dot, as
    NumPy's does: OpenBLAS's gemm with m = n = 1 ran 30 times slower."""
    if dtype not in _BLAS_KIND or path_for(dtype) != "vendor":
        return None
    fn, _, kind, ilp64 = _cpu_blas(dtype)
    lib = None if ilp64 else openblas.library
    dot = 0
    if kind in "sd":
        try:
            dot = (openblas.numpy_blas(f"{kind}dot") if ilp64
                   else openblas.library.address(f"cblas_{kind}dot"))
        except BackendUnavailableError:
            dot = 0
    return fn, kind, ilp64, lib, None if lib is None else lib._addresses, dot


def _packed(x, batch, s):
    """x as a C-contiguous copy (garray's copy kernel) and its element strides, the
    batch axis collapsed to one: a BLAS cannot read x's layout in place (note 4)."""
    if s[0] == 0 or batch == 1:     # one matrix serves the whole batch: copy it alone
        return ascontiguousarray(x[(0,) * (x.ndim - 2)]), (0, x.shape[-1], 1)
    return ascontiguousarray(x), (x.shape[-2] * x.shape[-1], x.shape[-1], 1)


def _openblas_gemm(dtype):
    """The addresses of OpenBLAS's cblas_?gemm and cblas_?gemm_batch_strided (0 when the
    library predates it) for ``dtype`` (BackendUnavailableError with the way round when
    the library is missing)."""
    global _openblas_threads_set
    kind = _BLAS_KIND[dtype]
    try:
        fn = openblas.library.address(f"cblas_{kind}gemm")
    except BackendUnavailableError as e:
        raise BackendUnavailableError(f"matmul on the CPU device: {e}; or set "
                                      f"GARRAY_GEMM=kernel to use garray's own GEMM "
                                      f"kernel") from None
    if not _openblas_threads_set:
        # OpenBLAS's threads run while garray's launch pool idles (a BLAS call holds the
        # caller): give it the same count, so GARRAY_CPU_THREADS bounds both
        openblas.set_threads(_env.cpu_threads())
        _openblas_threads_set = True
    # The strided batch only for real dtypes: OpenBLAS 0.3.34's cgemm_batch_strided gave
    # wrong complex64 products in tests/gemm/test_matmul.py (test_shapes), and it mishandles
    # negative batch strides (the Cython call passes only non-negative ones).
    fn_batch = 0
    if kind in "sd":
        try:
            fn_batch = openblas.library.address(f"cblas_{kind}gemm_batch_strided")
        except AttributeError:
            fn_batch = 0
    return fn, fn_batch
