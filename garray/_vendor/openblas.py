"""OpenBLAS (BLAS and LAPACK) for the CPU device, from the ``scipy-openblas32`` wheel, the
family NumPy itself ships (32-bit integers; symbols prefixed ``scipy_``).

Looked for, in order (Note [Vendor libraries] in ``garray/_vendor/__init__.py``):

1. ``$GARRAY_OPENBLAS_LIBRARY`` (a path to a ``libscipy_openblas.so``), when set;
2. the ``scipy-openblas32`` wheel: ``scipy_openblas32.get_lib_dir()``.

Only the scipy build is accepted (its ``scipy_`` prefix): a system ``libopenblas`` has
unprefixed names and may be 64-bit-integer, which the call sites do not expect.

``library`` is the ``VendorLibrary``: ``library.address("cblas_sgemm")`` is the entry
point's address, ``library.function("LAPACKE_dgetrf", restype, *argtypes)`` a ctypes
function.  OpenBLAS runs its own threads; ``set_threads(n)`` sets how many.
"""

import ctypes
import os

from . import VendorLibrary

PACKAGE = "scipy-openblas32"


def _candidates():
    try:
        # imported on the first search, never by import garray (Note [Library search])
        import scipy_openblas32 as wheel
    except ImportError:
        return []
    return [os.path.join(wheel.get_lib_dir(), f"lib{wheel.get_library()}.so")]


library = VendorLibrary(
    "OpenBLAS", env="GARRAY_OPENBLAS_LIBRARY", candidates=_candidates, prefix="scipy_",
    missing=f"the CPU device's BLAS/LAPACK is not installed; pip install {PACKAGE}",
    required=("cblas_sgemm", "LAPACKE_dgetrf"))


def set_threads(n):
    """Threads OpenBLAS uses for one call (``openblas_set_num_threads``)."""
    library.function("openblas_set_num_threads", None, ctypes.c_int)(int(n))


def get_threads():
    return int(library.function("openblas_get_num_threads", ctypes.c_int)())


_numpy_blas = {}        # routine -> address in NumPy's own OpenBLAS (0: not available)


def numpy_gemm(kind):
    """The address of ``cblas_{kind}gemm`` in the OpenBLAS NumPy itself loaded (the
    ILP64 ``scipy-openblas64`` its wheels ship: ``scipy_cblas_{kind}gemm64_``, 64-bit
    sizes), or 0 when this NumPy has no such library loaded (a NumPy built against
    another BLAS).  Sharing NumPy's library shares its thread pool: two OpenBLAS pools
    in one process spin against each other (docs/gemm.md, "One BLAS thread pool")."""
    return numpy_blas(f"{kind}gemm")


def numpy_blas(routine):
    """``cblas_{routine}`` (``"dgemm"``, ``"sdot"`` ...) in NumPy's own OpenBLAS, as
    numpy_gemm, or 0."""
    addr = _numpy_blas.get(routine)
    if addr is None:
        addr = _numpy_blas[routine] = _find_numpy_blas(routine)
    return addr


def _find_numpy_blas(routine):
    import glob         # on the first BLAS call only
    import numpy
    libs = os.path.join(os.path.dirname(os.path.dirname(numpy.__file__)), "numpy.libs")
    for path in sorted(glob.glob(os.path.join(libs, "libscipy_openblas64_*.so"))):
        try:    # only the copy NumPy already loaded (RTLD_NOLOAD): never a second one
            lib = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
            fn = getattr(lib, f"scipy_cblas_{routine}64_")
        except (OSError, AttributeError):
            continue
        return ctypes.cast(fn, ctypes.c_void_p).value or 0
    return 0
