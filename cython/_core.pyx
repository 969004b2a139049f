# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""garray._core: the ndarray type, memory pools and the kernel launch layer.

One extension module made of one included file per concern (docs/architecture.md draws
how a call travels through them):
  _memory.pxi           per-device memory pools (statistics, limit, retry); the size
                        classes and allocators in _memory_sizes.pxi, mmap in _memory_map.pxi,
                        the streams' pools and the backends in _memory_family.pxi
  _extra_methods.pxi    ndarray's resize, byteswap, getfield/setfield, data, ctypes
  _shape_methods.pxi    ndarray's shape and copy methods (reshape, transpose, copy, astype)
  _methods.pxi          ndarray's methods that are also functions (x.sum() ...), forwarded
  _operators.pxi        the ndarray operators, generated from the op table
  _ndarray.pxi          the ndarray cdef class (metadata as C arrays, properties, dunders)
  _ndarray_new.pxi      making arrays and views (_new_array, _view, flags)
  _array_methods.pxi    NumPy's longer ndarray methods (view, item, tobytes, astype), subclasses
  _indexing.pxi         basic indexing (ints, slices, ..., None) -> views
  _shape.pxi            reshape / permute_dims / broadcast as views where possible
  _copy.pxi             strided copies between layouts, host <-> device transfers
  _order.pxi            NumPy's order= (memory layouts) and zero-copy wrapping of host buffers
  _creation.pxi         empty / asarray / fills, the hot creation paths
  _dlpack.pxi           DLPack export and import
  _launch.pxi           kernel tables, CPU calls, GPU module loading and launches
  _stub_annotate.pxi    stub drivers only: built-in launches annotated for the hazard checker
  _iter.pxi             the iterator: broadcast, axis collapse, layout, index width
  _ufunc_operands.pxi   elementwise operands: scalars, promotion tables, out= checks
  _ufunc.pxi            the unary, binary and two-output launchers
  _ufunc_object.pxi     the ufunc type
  _cast.pxi             casts and astype
  _where.pxi            where
  _reduce.pxi           reductions and scans: axis collapse, schedules, launches
  _creation_kernels.pxi fill, arange, linspace, eye, tril/triu on the device
  _raw_kernels.pxi      the launch primitive under RawKernel
  _gather.pxi           advanced indexing: offsets, gathers, scatters, mask compaction
  _strided.pxi          views with caller-given strides (as_strided, diagonal), checked
  _gemm.pxi             the GEMM family's kernel launch and OpenBLAS call

Why one module and not cimported .pxd modules: the launchers call small cdef helpers
(_new_array, _overlap, _iter_init ...) on every operation; inside one module Cython
and the C compiler inline them, across modules each is an indirect call through the
exporting module's C-API table.  The files stay small and separate by concern.
"""

from cpython.long cimport PyLong_AsSsize_t
from cpython.ref cimport Py_REFCNT
from libc.stdint cimport intptr_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
cimport cython

import operator
import weakref
import os
import numpy

from garray import _dtypes
from garray._errors import OutOfMemoryError
from garray import _device as _devmod
from garray import _env
from garray import _protocols as _protomod
from garray._device import Device

# garray's dtype codes: the 13 Array API dtypes, then the narrow floats float16, bfloat16,
# float8_e4m3fn and float8_e5m2 (garray/_dtype_codes.py's RECORDS).  C array sizes and the
# hot paths' comparisons need them at compile time, so the ones the core names are written
# here and checked against RECORDS at import.
cdef enum:
    _NCODES = 17
    _BOOL = 0
    _I8 = 1
    _I16 = 2
    _I32 = 3
    _I64 = 4
    _U8 = 5
    _U16 = 6
    _U32 = 7
    _U64 = 8
    _F32 = 9
    _F64 = 10
    _C64 = 11
    _C128 = 12
    _F16 = 13       # the first narrow float: every code from it on is one
    _BF16 = 14
    _F8E4 = 15
    _F8E5 = 16


cdef int _check_dtype_codes() except -1:
    names = {"bool": _BOOL, "int8": _I8, "int16": _I16, "int32": _I32, "int64": _I64,
             "uint8": _U8, "uint16": _U16, "uint32": _U32, "uint64": _U64,
             "float32": _F32, "float64": _F64, "complex64": _C64, "complex128": _C128,
             "float16": _F16, "bfloat16": _BF16, "float8_e4m3fn": _F8E4,
             "float8_e5m2": _F8E5}
    codes = {r.name: r.code for r in _dtypes.RECORDS}
    if len(_dtypes.RECORDS) != _NCODES or any(codes[n] != c for n, c in names.items()):
        raise ImportError("garray._core was compiled for other dtype codes than "
                          "garray/_dtypes.py's RECORDS: rebuild it")
    return 0


_check_dtype_codes()


cdef inline bint _is_narrow(int code) noexcept:
    """A narrow float (Note [Narrow floats] in _kernels/garray/types.h): stored in its
    own format, computed in float32's kernels and rounded once."""
    return code >= _F16


cdef inline bint _is_ml_format(int code) noexcept:
    """One of ml_dtypes' formats (bfloat16, the float8s): narrow floats NumPy has no buffer
    format, DLPack or .npy type string for (garray._dtypes.is_ml_format)."""
    return code > _F16


cdef inline bint _is_complex_code(int code) noexcept:
    return code == _C64 or code == _C128

include "_memory.pxi"
include "_stream.pxi"
include "_copy.pxi"
include "_stream_methods.pxi"
include "_extra_methods.pxi"
include "_shape_methods.pxi"
include "_methods.pxi"
include "_operators.pxi"
include "_ndarray.pxi"
include "_time.pxi"
include "_ndarray_new.pxi"
include "_array_methods.pxi"
include "_indexing.pxi"
include "_shape.pxi"
include "_order.pxi"
include "_creation.pxi"
include "_dlpack.pxi"
include "_stub_annotate.pxi"
include "_launch.pxi"
include "_iter.pxi"
include "_ufunc_operands.pxi"
include "_ufunc.pxi"
include "_ufunc_object.pxi"
include "_cast.pxi"
include "_where.pxi"
include "_reduce.pxi"
include "_creation_kernels.pxi"
include "_raw_kernels.pxi"
include "_gather.pxi"
include "_strided.pxi"
include "_gemm.pxi"

_init_launch()
_init_ufuncs()
_init_operators()
