"""What every garray.linalg solver shares: argument checks, the LAPACK dtypes, the
devices' vendor-solver coverage and small batch helpers (Note [linalg dispatch]).

Note [linalg dispatch]
~~~~~~~~~~~~~~~~~~~~~~
1. ``_prepare`` turns the argument into a garray array, refuses what a device's vendor
   solver cannot do yet (NotImplementedError naming the function and device: on GPUs,
   the functions outside ``GPU_FUNCTIONS``), checks ``ndim >= 2`` and
   squareness (LinAlgError, NumPy's messages) and picks two dtypes as NumPy's
   ``_commonType`` does: LAPACK computes in float64/complex128 for every input (integer
   and bool promoted to float64), and results are cast back to single precision for
   float32/complex64 input.  Computing in double, as NumPy does, keeps single-precision
   results within float32 rounding of NumPy's.
2. The matrix stack is copied by garray into column-major buffers (Note [LAPACK
   buffers], garray/linalg/_lapack.py); the host loops over the batch calling LAPACK (OpenBLAS
   on the CPU device; cuSOLVER / hipSOLVER on GPUs, Note [GPU vendor solver] in
   garray/_vendor/gpusolver.py: the same buffers, the info codes read back once); results
   are views of the buffers, finished (triangles, signs, complex eigenvectors) by
   garray's own elementwise and reduction ops.
3. ``info > 0`` raises the LinAlgError NumPy raises (singular matrix, not positive
   definite, no convergence); NumPy's own LinAlgError class is used so that
   ``except numpy.linalg.LinAlgError`` catches garray's.  NaN/inf input gets NumPy's
   behaviour: most routines propagate NaN; ``eig`` checks finiteness first and ``svd``
   reports non-convergence, as NumPy's do.
"""

from .. import _dtypes
from .._dtypes import kind_of as _kind_of
import numpy
from numpy.linalg import LinAlgError

from . import _lapack
from .._args import as_array
from .._core import asarray
from .._vendor import gpusolver

_f64 = numpy.dtype(numpy.float64)
_c128 = numpy.dtype(numpy.complex128)
_int32 = numpy.dtype(numpy.int32)
_SOLVER = {"cuda": "cuSOLVER", "hip": "hipSOLVER"}
# What the GPU devices' vendor solver computes (getrf/getrs, potrf, syevd/heevd,
# geqrf/orgqr, gesvd, Xgeev; lstsq from gesvd, as neither has gelsd): every function.
GPU_FUNCTIONS = frozenset({"det", "slogdet", "inv", "solve", "cholesky", "qr", "eigh",
                           "eigvalsh", "svd", "svdvals", "pinv", "matrix_rank", "cond",
                           "lstsq", "eig", "eigvals"})


# ---- argument handling (Note [linalg dispatch] 1) -----------------------------------


def check_device(a, fname):
    kind = a.device.kind
    if kind != "cpu" and not (kind in gpusolver.VENDORS and fname in GPU_FUNCTIONS):
        raise NotImplementedError(
            f"garray.linalg.{fname} on {a.device}: the {_SOLVER.get(kind, kind)} path is "
            "not built yet; move the array to the CPU device with x.to_device('cpu')")


def linalg_types(*dtypes):
    """(computing dtype, result dtype) as NumPy's ``_commonType``."""
    single, cplx = True, False
    for dt in dtypes:
        dt = numpy.dtype(dt)
        if _kind_of(dt) in "biu" or _dtypes.is_ml_format(dt):
            single = False      # NumPy takes ml_dtypes' types as not inexact: float64
        elif _kind_of(dt) in "fc":
            if dt.itemsize not in ((4, 8) if _kind_of(dt) == "f" else (8, 16)):
                raise TypeError(f"array type {dt.name} is unsupported in linalg")
            cplx |= _kind_of(dt) == "c"
            single &= dt in (numpy.dtype(numpy.float32), numpy.dtype(numpy.complex64))
        else:
            raise TypeError(f"array type {dt.name} is unsupported in linalg")
    if cplx:
        return _c128, numpy.dtype(numpy.complex64 if single else numpy.complex128)
    return _f64, numpy.dtype(numpy.float32 if single else numpy.float64)


def real_of(dt):
    return numpy.dtype(dt.char.lower()) if _kind_of(dt) == "c" else dt


def _prepare(x, fname, argname="a", square=True, before_types=None):
    """(a, computing type, result type); ``before_types(a)`` runs (a check NumPy makes
    first, as eig's finiteness) after the shape checks and before the dtype's."""
    a = as_array(x, argname)
    check_device(a, fname)
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if square and a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    if before_types is not None:
        before_types(a)
    t, rt = linalg_types(a.dtype)
    _lapack.check_dims(*a.shape[-2:])
    return a, t, rt


def _batch(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _letter(t):
    return _lapack.LETTER[t]


def _host_mask(flags, shape, device):
    """A garray bool array from per-matrix ``info`` flags (host metadata, not data)."""
    return asarray(numpy.array(flags, dtype=bool).reshape(shape), device=device)


def _on_gpu(a):
    return a.device.kind != "cpu"
