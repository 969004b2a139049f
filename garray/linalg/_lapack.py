"""The LAPACK call layer of garray.linalg: vendor solver routines over stacks of matrices.

Note [LAPACK buffers]
~~~~~~~~~~~~~~~~~~~~~
1. LAPACK overwrites its input and reads column-major matrices.  ``colmajor(x, dtype)``
   makes a fresh garray array of shape ``(*batch, n, m)`` holding ``x.mT`` in C order,
   i.e. every (m, n) matrix of ``x`` in column-major order with ``lda = m``; the copy is
   garray's own cast/copy kernel, so no element crosses to the host.  A result written
   by LAPACK in such a buffer is handed out as the view ``buf.mT``.
2. The batch is flattened (``(B, n, m)``, a view of the C-contiguous buffer) and the host
   loops over it, calling the routine once per matrix with pointers ``ptr + i * stride``.
   Only shapes, pointers, workspace sizes and ``info`` codes live on the host.
3. Routines are called through LAPACKE's ``*_work`` entry points with
   ``LAPACK_COL_MAJOR``, which pass straight through to Fortran (no hidden transposed
   copy, which the row-major path makes).  Workspace sizes come from the routine's own
   query (``lwork = -1``) into a few host scalars; the workspace itself is one garray
   buffer per call, reused over the batch.
4. The CPU device's memory is host memory, so OpenBLAS reads garray's buffers directly.
   GPU devices run the same buffers and batch loop through cuSOLVER / hipSOLVER
   (``garray/_vendor/gpusolver.py``, Note [GPU vendor solver]) for the functions in
   ``_common.GPU_FUNCTIONS``; ``check_device`` raises NotImplementedError naming
   the function and the device for the rest.
5. LAPACK integers are 32-bit (``scipy-openblas32``); a matrix dimension past 2**31 - 1
   raises ValueError rather than wrapping.
"""

import ctypes

import numpy

from .. import _core
from .._vendor import openblas

__all__ = []

COL_MAJOR = 102
_INT_MAX = 2**31 - 1

_c_int = ctypes.c_int
_c_ptr = ctypes.c_void_p
_c_char = ctypes.c_char

# LAPACK's letter per computing dtype, and the dtype of its real scalars.
LETTER = {numpy.dtype(numpy.float32): "s", numpy.dtype(numpy.float64): "d",
          numpy.dtype(numpy.complex64): "c", numpy.dtype(numpy.complex128): "z"}
REAL = {"s": numpy.dtype(numpy.float32), "d": numpy.dtype(numpy.float64),
        "c": numpy.dtype(numpy.float32), "z": numpy.dtype(numpy.float64)}
_REAL_C = {"s": ctypes.c_float, "d": ctypes.c_double,
           "c": ctypes.c_float, "z": ctypes.c_double}

# Vendor differences as data: the argument list of each *_work routine after the layout.
# "i" int, "p" pointer, "c" char, "r" real scalar.  A key with a letter set names the
# routine for those letters only (real and complex variants differ in workspace).
_SIGNATURES = {
    "getrf": "iipip",                       # m n a lda ipiv
    "gesv": "iipippi",                      # n nrhs a lda ipiv b ldb
    "potrf": "cipi",                        # uplo n a lda
    "geqrf": "iipippi",                     # m n a lda tau work lwork
    "orgqr": "iiipippi",                    # m n k a lda tau work lwork
    "ungqr": "iiipippi",
    "syevd": "ccipippipi",                  # jobz uplo n a lda w work lwork iwork liwork
    "heevd": "ccipippipipi",                # ... work lwork rwork lrwork iwork liwork
    "geev/sd": "ccipipppipipi",             # jobvl jobvr n a lda wr wi vl ldvl vr ldvr w lw
    "geev/cz": "ccipippipipip",             # jobvl jobvr n a lda w vl ldvl vr ldvr w lw rw
    "gesdd/sd": "ciipippipipip",            # jobz m n a lda s u ldu vt ldvt work lwork iwork
    "gesdd/cz": "ciipippipipipp",           # ... work lwork rwork iwork
    "gelsd/sd": "iiipipiprppip",            # m n nrhs a lda b ldb s rcond rank w lw iwork
    "gelsd/cz": "iiipipiprppipp",           # ... work lwork rwork iwork
}
_CTYPE = {"i": _c_int, "p": _c_ptr, "c": _c_char}
_functions = {}


def _signature(letter, name):
    return _SIGNATURES.get(name) or _SIGNATURES[f"{name}/{'sd' if letter in 'sd' else 'cz'}"]


def routine(letter, name):
    """The ctypes function ``LAPACKE_<letter><name>_work`` (cached)."""
    key = letter + name
    fn = _functions.get(key)
    if fn is None:
        args = [_REAL_C[letter] if t == "r" else _CTYPE[t] for t in _signature(letter, name)]
        fn = openblas.library.function(f"LAPACKE_{key}_work", _c_int, _c_int, *args)
        _functions[key] = fn
    return fn


def call(letter, name, *args, nan_arg=None):
    """Call a routine column-major; returns LAPACK's ``info``.  ``info < 0`` is a bad
    argument, a bug in garray, not in the user's input, except ``-nan_arg``: the
    routines that scan their matrix for NaN (gesdd, gelsd) flag it that way, and the
    caller reports it as NumPy does (non-convergence).  LAPACKE numbers arguments from
    its layout argument: Fortran's argument k is LAPACKE's k + 1."""
    info = routine(letter, name)(COL_MAJOR, *args)
    if info < 0 and -info != nan_arg:
        raise RuntimeError(f"LAPACK {letter}{name}: argument {-info} is invalid "
                           "(a garray bug; please report it)")
    return info


def check_dims(*dims):
    for d in dims:
        if d > _INT_MAX:
            raise ValueError(f"garray.linalg: dimension {d} exceeds LAPACK's 32-bit "
                             "integers on this device")


# ---- buffers ------------------------------------------------------------------------


def colmajor(x, dtype):
    """A fresh C-contiguous garray array of shape ``(*batch, n, m)`` holding every
    (m, n) matrix of ``x`` in column-major order, cast to ``dtype`` (Note [LAPACK
    buffers] 1)."""
    buf = _core.empty(x.shape[:-2] + (x.shape[-1], x.shape[-2]), dtype=dtype,
                      device=x.device)
    buf[...] = x.mT
    return buf


def empty(shape, dtype, device):
    return _core.empty(tuple(shape), dtype=dtype, device=device)


def workspace(letter, name, *args, real_work=False, int_work=False):
    """Workspace sizes from the routine's query: ``args`` are the call's arguments with
    ``None`` where the query's scalars go, in order: work (and rwork when
    ``real_work``, iwork when ``int_work``) pointers and sizes (-1).  Returns the
    sizes ``[lwork, (lrwork,) (liwork,)]``."""
    work = (ctypes.c_double * 2)()      # a complex work[0] holds its size in the real part
    rwork = (ctypes.c_double * 1)()
    iwork = (ctypes.c_int * 1)()
    if letter in "sc":
        work = (ctypes.c_float * 2)()
        rwork = (ctypes.c_float * 1)()
    fill = [ctypes.addressof(work), -1]
    if real_work:
        fill += [ctypes.addressof(rwork), -1]
    if int_work:
        fill += [ctypes.addressof(iwork), -1]
    it = iter(fill)
    args = [next(it) if a is None else a for a in args]
    # some queries touch their array arguments (geev crashed on NULL): null pointers
    # get a zeroed host scratch block instead
    scratch = (ctypes.c_double * 512)()
    kinds = _signature(letter, name)
    args = [ctypes.addressof(scratch) if k == "p" and a == 0 else a
            for k, a in zip(kinds, args)]
    call(letter, name, *args)
    sizes = [max(1, int(work[0]))]
    if real_work:
        sizes.append(max(1, int(rwork[0])))
    if int_work:
        sizes.append(max(1, int(iwork[0])))
    return sizes
