# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""garray._core: the ndarray type, memory pools and the kernel launch layer.

One extension module made of one included file per concern (docs/architecture.md draws
how a call travels through them):
  _memory.pxi           per-device memory pools (size classes, statistics, limit, retry)
  _methods.pxi          the ndarray reduction methods (x.sum() ...), forwarded by name
  _operators.pxi        the ndarray operators, generated from the op table
  _ndarray.pxi          the ndarray cdef class (metadata as C arrays, views, dunders)
  _array_methods.pxi    NumPy's longer ndarray methods (view, item, tobytes, astype), subclasses
  _indexing.pxi         basic indexing (ints, slices, ..., None) -> views
  _shape.pxi            reshape / permute_dims / broadcast as views where possible
  _copy.pxi             strided copies between layouts, host <-> device transfers
  _creation.pxi         empty / asarray / fills, the hot creation paths
  _dlpack.pxi           DLPack export and import
  _launch.pxi           kernel tables, CPU calls, GPU module loading and launches
  _iter.pxi             the iterator: broadcast, axis collapse, layout, index width
  _ufunc.pxi            ufuncs: operands, promotion, scalars, out=, unary/binary launchers
  _cast.pxi             casts and astype
  _where.pxi            where
  _reduce.pxi           reductions and scans: axis collapse, schedules, launches
  _creation_kernels.pxi fill, arange, linspace, eye, tril/triu on the device
  _raw_kernels.pxi      the launch primitive under RawKernel
  _gather.pxi           advanced indexing: offsets, gathers, scatters, mask compaction
  _strided.pxi          views with caller-given strides (as_strided, diagonal), checked
  _sort.pxi             the sort family's launch primitive
  _gemm.pxi             the GEMM family's kernel launch and OpenBLAS call

Why one module and not cimported .pxd modules: the launchers call small cdef helpers
(_new_array, _overlap, _iter_init ...) on every operation; inside one module Cython
and the C compiler inline them, across modules each is an indirect call through the
exporting module's C-API table.  The files stay small and separate by concern.
"""

from cpython.long cimport PyLong_AsSsize_t
from libc.stdint cimport intptr_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
cimport cython

import operator
import os
import numpy

from garray import _dtypes
from garray._errors import OutOfMemoryError
from garray import _device as _devmod
from garray import _env
from garray import _protocols as _protomod
from garray._device import Device

# garray's dtype codes: the 13 Array API dtypes, then float16 (garray/_dtypes.py).
cdef enum:
    _NCODES = 14
    _F16 = 13
    _F32 = 9


cdef inline bint _is_complex_code(int code) noexcept:
    return code == 11 or code == 12

include "_memory.pxi"
include "_copy.pxi"
include "_methods.pxi"
include "_operators.pxi"
include "_ndarray.pxi"
include "_array_methods.pxi"
include "_indexing.pxi"
include "_shape.pxi"
include "_creation.pxi"
include "_dlpack.pxi"
include "_launch.pxi"
include "_iter.pxi"
include "_ufunc.pxi"
include "_cast.pxi"
include "_where.pxi"
include "_reduce.pxi"
include "_creation_kernels.pxi"
include "_raw_kernels.pxi"
include "_gather.pxi"
include "_strided.pxi"
include "_sort.pxi"
include "_gemm.pxi"

_init_launch()
_init_ufuncs()
_init_operators()
