# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""garray._core: the ndarray type, memory pools and the data-movement primitives.

One extension module, one concern per included file:
  _memory.pxi    per-device memory pools (size classes, statistics, limit, retry)
  _ndarray.pxi   the ndarray cdef class (metadata as C arrays, views, dunders)
  _indexing.pxi  basic indexing (ints, slices, ..., None) -> views
  _shape.pxi     reshape / permute_dims / broadcast as views where possible
  _copy.pxi      strided copies between layouts, host <-> device transfers
  _creation.pxi  empty / asarray / fills, the hot creation paths
  _dlpack.pxi    DLPack export and import
  _elementwise.pxi  the elementwise launch path (promotion, layout, kernel tables)
"""

from cpython.long cimport PyLong_AsSsize_t
from libc.stdint cimport intptr_t, int64_t, uint8_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
cimport cython

import operator
import os
import numpy

from garray import _dtypes
from garray._errors import OutOfMemoryError
from garray import _device as _devmod
from garray._device import Device

include "_memory.pxi"
include "_copy.pxi"
include "_ndarray.pxi"
include "_indexing.pxi"
include "_shape.pxi"
include "_creation.pxi"
include "_dlpack.pxi"
include "_elementwise.pxi"

_init_elementwise()
