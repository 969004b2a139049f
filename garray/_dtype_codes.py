"""The dtypes garray has, in code order: the scalar types, ``DTYPES`` (a dtype's code is
its index there, which the kernel tables and the Cython core index by), one
``DtypeRecord`` per dtype (name, kind, C++ type, itemsize), the kind predicates
(``kind_of``, ``is_narrow``, ``is_ml_format``) and the Array API's defaults.

Imports only NumPy and ml_dtypes; ``garray._dtypes`` re-exports every name, and the rules
that combine dtypes (normalisation, promotion, casting, limits) live there.
"""

import ml_dtypes
import numpy as np

__all__ = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128", "float16", "bfloat16", "float8_e4m3fn",
    "float8_e5m2", "DTYPES", "API_DTYPES", "API_RECORDS", "FLOAT16", "NARROW", "ML_FORMATS",
    "DTYPE_CODE", "CODE_DTYPE", "RECORDS", "DtypeRecord", "KIND", "is_narrow", "is_ml_format",
    "kind_of", "Codes", "NoKernelsError", "default_float", "default_int", "default_complex",
    "default_index",
]

bool = np.bool_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float32, float64 = np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
float16 = np.float16
# ml_dtypes' types, as NumPy arrays of them hold (Note [Narrow floats] in
# _kernels/garray/types.h): garray.bfloat16 is ml_dtypes.bfloat16.
bfloat16, float8_e4m3fn, float8_e5m2 = (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn,
                                        ml_dtypes.float8_e5m2)

# Codes 0-12 are the Array API's dtypes; float16 (13) and ml_dtypes' formats come after
# them, so that every table indexed by code keeps the standard's dtypes where they were.
_SCALAR_TYPES = (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                 float32, float64, complex64, complex128, float16, bfloat16, float8_e4m3fn,
                 float8_e5m2)
DTYPES = tuple(np.dtype(t) for t in _SCALAR_TYPES)
API_DTYPES = DTYPES[:13]
FLOAT16 = 13
# The narrow floats: stored in their own format, computed in float32 and rounded once per
# operation (Note [Narrow floats] in _kernels/garray/types.h).  Codes from FLOAT16 on.
NARROW = (13, 14, 15, 16)
# ml_dtypes' formats among them: NumPy takes these as not inexact (kind "V" for two), so
# its own functions, DLPack and .npy treat them apart from float16.
ML_FORMATS = NARROW[1:]
CODE_DTYPE = DTYPES


class NoKernelsError(TypeError, NotImplementedError):
    """A function has no kernels for a dtype garray stores apart (datetime64 and
    timedelta64): a TypeError where NumPy has no loop either, a NotImplementedError
    where it has."""


class Codes(dict):
    """dtype -> code; a dtype without kernels of its own (datetime64, timedelta64: stored
    as int64, computed in garray/_datetime) is a NoKernelsError naming it, not a KeyError."""
    __slots__ = ()

    def __missing__(self, dt):
        raise NoKernelsError(f"garray has no kernels for {dt} in this function (datetime64 "
                             f"and timedelta64 support the operations docs/datetimes.md "
                             f"lists)")


DTYPE_CODE = Codes({dt: code for code, dt in enumerate(DTYPES)})


class DtypeRecord:
    """Everything garray's layers need to know about one dtype, in one row.

    code: its index in ``DTYPES`` (the kernel tables and the Cython core index by it);
    dtype: the ``numpy.dtype``; name; kind: NumPy's kind letter (b, i, u, f, c), "f" for
    ml_dtypes' floats too (NumPy gives bfloat16 and float8_e4m3fn kind "V");
    ctype: the C++ type kernels use (``_kernels/garray/types.h``); itemsize in bytes;
    real: the code of the real dtype of the same precision (complex64 -> float32),
    itself for non-complex dtypes.
    """

    __slots__ = ("code", "dtype", "name", "kind", "ctype", "itemsize", "real")

    def __init__(self, code, ctype):
        dt = DTYPES[code]
        self.code, self.dtype, self.name = code, dt, dt.name
        self.kind = "f" if code in NARROW else dt.kind
        self.ctype, self.itemsize = ctype, dt.itemsize
        self.real = DTYPES.index(np.dtype(f"f{dt.itemsize // 2}")) if dt.kind == "c" else code

    def __repr__(self):
        return f"DtypeRecord({self.code}, {self.name}, {self.ctype!r})"


_CTYPES = ("bool", "ga::int8", "ga::int16", "ga::int32", "ga::int64", "ga::uint8",
           "ga::uint16", "ga::uint32", "ga::uint64", "float", "double", "ga::complex<float>",
           "ga::complex<double>", "ga::half", "ga::bfloat16", "ga::float8_e4m3fn",
           "ga::float8_e5m2")
RECORDS = tuple(DtypeRecord(code, ct) for code, ct in enumerate(_CTYPES))
# The dtypes with kernels in every family.  The narrow floats have casts, copies, where
# and creation kernels; elsewhere they widen to float32 and round back.
API_RECORDS = RECORDS[:13]
# Kind letter by dtype, "f" for the narrow floats (their NumPy kind may be "V").
KIND = {r.dtype: r.kind for r in RECORDS}
_NARROW_DTYPES = frozenset(DTYPES[c] for c in NARROW)
_ML_DTYPES = frozenset(DTYPES[c] for c in ML_FORMATS)


def kind_of(dt):
    """NumPy's kind letter of a dtype, "f" for the narrow floats (NumPy gives bfloat16 and
    float8_e4m3fn kind "V", as it gives records): what garray's code branches on."""
    return KIND.get(dt, dt.kind)


def is_narrow(dt):
    """Whether ``dt`` (a normalised dtype) is a narrow float: float16, bfloat16 or a
    float8, stored in its own format and computed in float32."""
    return dt in _NARROW_DTYPES


def is_ml_format(dt):
    """Whether ``dt`` is one of ml_dtypes' formats (bfloat16, the float8s): the narrow
    floats NumPy takes as not inexact, so where NumPy's own code treats them apart from
    float16 (matmul's float32 sums, linalg in float64, SciPy's refusal ...) garray does."""
    return dt in _ML_DTYPES

default_float = float64
default_int = int64
default_complex = complex128
default_index = int64
