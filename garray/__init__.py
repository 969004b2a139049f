"""garray: NumPy-compatible arrays on AMD GPUs, NVIDIA GPUs and the CPU.

``import garray as np`` runs ordinary NumPy code; the main namespace follows the
Python Array API standard 2025.12.  Arrays live on a ``garray.Device`` (``cpu``,
``hip:N`` or ``cuda:N``); GPU backends load lazily, so importing garray never needs
a GPU library.
"""

__array_api_version__ = "2025.12"
__version__ = "0.1.0.dev0"


from ._errors import (BackendError, BackendUnavailableError, CompileError,  # noqa: F401
                      OutOfMemoryError)
from ._dtypes import (bool, int8, int16, int32, int64, uint8, uint16,  # noqa: F401,A004
                      uint32, uint64, float32, float64, complex64, complex128, float16,
                      bfloat16, float8_e4m3fn, float8_e5m2,
                      result_type, can_cast, finfo, iinfo, isdtype, promote_types)
from ._device import Device, default_device  # noqa: F401
from ._core import (ndarray, MemoryPool, asarray, asnumpy, empty, zeros, ones,  # noqa: F401
                    full, empty_like, zeros_like, ones_like, full_like, from_dlpack,
                    reshape, permute_dims, broadcast_to, broadcast_shapes, squeeze,
                    expand_dims, set_implicit_transfer)
from ._streams import (Stream, ExternalStream, Event, get_current_stream,  # noqa: F401
                       get_elapsed_time)
from ._pinned import empty_pinned, zeros_pinned  # noqa: F401
from ._creation.ranges import arange, linspace, eye, identity, meshgrid, tril, triu  # noqa: F401
from ._info import __array_namespace_info__  # noqa: F401
# NumPy's signatures: dtype objects, scalar type names, small array functions, printing.
from ._scalar_types import *  # noqa: F401,F403,A004  (see _scalar_types.__all__)
from ._array_utils import (array, asanyarray, copy, ascontiguousarray,  # noqa: F401,A004
                           asfortranarray, isscalar, ndim, shape, size, iterable)
from ._printing import (set_printoptions, get_printoptions, printoptions,  # noqa: F401
                        array2string, array_repr, array_str, seterr, geterr, errstate,
                        seterrcall, geterrcall, base_repr, binary_repr,
                        format_float_positional, format_float_scientific)
from ._inquiry import (iscomplex, isreal, iscomplexobj, isrealobj, isfortran,  # noqa: F401
                       isneginf, isposinf, asarray_chkfinite, may_share_memory,
                       shares_memory, common_type, require, min_scalar_type)
from ._io import (save, load, savetxt, loadtxt, frombuffer, fromiter,  # noqa: F401
                  fromstring)
from ._creation.sequences import (logspace, geomspace, bartlett, blackman, hamming,  # noqa: F401
                         hanning, ediff1d)
from ._elementwise.math_extras import (around, fix, real_if_close, trapezoid, unwrap,  # noqa: F401
                           gradient)
from ._elementwise.bessel import i0, kaiser  # noqa: F401
from ._elementwise.bits import packbits, unpackbits  # noqa: F401
from ._manip.functional import (apply_along_axis, apply_over_axes, fromfunction,  # noqa: F401
                          piecewise, broadcast)
from ._manip.views import moveaxis, broadcast_arrays  # noqa: F401
from ._manip.manipulation import (flip, unstack, concat,  # noqa: F401
                            stack, roll)
# NumPy's manipulation functions (branch manip)
from ._manip.joining import (concatenate, vstack, row_stack, hstack, dstack,  # noqa: F401
                             column_stack, block)
from ._manip.editing import append, insert, delete  # noqa: F401
from ._manip.shaping import (tile, resize, atleast_1d, atleast_2d, atleast_3d,  # noqa: F401
                       ravel, swapaxes, rollaxis, rot90, fliplr, flipud, trim_zeros, copyto,
                       matrix_transpose)
from ._manip.splitting import split, array_split, hsplit, vsplit, dsplit  # noqa: F401
from ._manip.pad import pad  # noqa: F401
from ._manip.diagonal import (diagonal, diag, diagflat, trace, fill_diagonal,  # noqa: F401
                        vander, tri, mask_indices)
from . import lib  # noqa: F401
from ._elementwise.ufuncs import *  # noqa: F401,F403  (generated from the op table; see _ufuncs.__all__)
from ._elementwise.math_extras import round  # noqa: F401,A004  (NumPy's decimals=; the ufunc's values)
from ._elementwise.functions import clip, isclose, nan_to_num  # noqa: F401
from ._datetime import datetime64, timedelta64, busdaycalendar  # noqa: F401
from ._datetime.calendar import (isnat, datetime_data, is_busday, busday_count,  # noqa: F401
                                 busday_offset)
from ._index.advanced import nonzero  # noqa: F401
from ._sort.interp import interp, sort_complex  # noqa: F401
from ._sort.sets import (unique, unique_all, unique_counts, unique_inverse,  # noqa: F401
                    unique_values, isin, intersect1d, union1d, setdiff1d, setxor1d)
from ._index.routines import (take, take_along_axis, put, put_along_axis, place,  # noqa: F401
                              putmask, compress, extract, choose, select, repeat)
from ._index.where import flatnonzero, argwhere, where  # noqa: F401
from ._index.index_arrays import (ix_, unravel_index, ravel_multi_index, indices,  # noqa: F401
                                  diag_indices, diag_indices_from, tril_indices,
                                  tril_indices_from, triu_indices, triu_indices_from)
from ._index.iterators import ndindex, ndenumerate, flatiter  # noqa: F401
from ._index.nditer import *  # noqa: F401,F403  (nditer, nested_iters)
from ._index.tricks import mgrid, ogrid, r_, c_, s_, index_exp  # noqa: F401
from ._elementwise.vectorize import *  # noqa: F401,F403  (vectorize, frompyfunc)
from ._io_formats import *  # noqa: F401,F403  (savez, genfromtxt, fromfile, memmap ...)
from ._core import ufunc, astype  # noqa: F401
from . import _sanitizer
if _sanitizer.mask:     # GARRAY_CPU_SANITIZE: before any array exists (Note [CPU sanitizer])
    _core._debug_cpu_sanitize(_sanitizer.mask)
from ._reduce.reductions import (sum, prod, max, min, amax, amin, argmax, argmin,  # noqa: F401,A004
                                 count_nonzero, all, any)
from ._reduce.scans import (cumulative_sum, cumulative_prod, cumsum, cumprod,  # noqa: F401
                            nancumsum, nancumprod)
from ._reduce.moments import mean, var, std  # noqa: F401
from ._reduce.nan import (nansum, nanprod, nanmin, nanmax, nanargmin, nanargmax,  # noqa: F401
                          nanmean, nanvar, nanstd)
from ._reduce.statistics import ptp, average, diff  # noqa: F401
from ._reduce.comparisons import allclose, array_equal, array_equiv  # noqa: F401
from ._sort.sorting import (sort, argsort, searchsorted, lexsort, partition,  # noqa: F401
                       argpartition)
from ._sort.quantiles import (median, quantile, percentile, nanmedian, nanquantile,  # noqa: F401
                         nanpercentile, digitize)
from ._sort.histograms import (bincount, histogram, histogram2d, histogramdd,  # noqa: F401
                          histogram_bin_edges)

from ._gemm.matmul import matmul, _matmul_inplace  # noqa: F401
from ._gemm.contract import *  # noqa: F401,F403  (vecdot, tensordot, dot, einsum ...)
from ._gemm.covariance import cov, corrcoef  # noqa: F401
from .kernels import RawKernel, RawModule, ElementwiseKernel, ReductionKernel  # noqa: F401
from .signal._direct import convolve, correlate  # noqa: F401
from ._polynomial.fit import polyfit  # noqa: F401
from ._polynomial.poly1d import (poly, roots, polyint, polyder, polyadd, polysub,  # noqa: F401
                                 polymul, polydiv, polyval, poly1d)
from . import config  # noqa: F401,E402  (garray.config.allow_tf32)
from . import _dask_hook  # noqa: E402  (registers with Dask when both are imported)
_dask_hook.install()
from . import _env
if _env.flag("GARRAY_GPU_STUB"):
    # Test support: run garray's kernels on the stub GPU drivers (garray/testing/gpu_stub.py).
    from .testing import gpu_stub as _gpu_stub
    _gpu_stub.install()

import importlib as _importlib
import math as _math
import sys as _sys
import types as _types
from ._args import as_array as _as_array
from ._device import get_device as _get_device

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None
euler_gamma = 0.5772156649015329
little_endian = _sys.byteorder == "little"

# The subpackages load on first use, as NumPy 2 loads numpy.linalg: until then the name is
# a placeholder module whose first attribute read imports the subpackage, which then takes
# its place here.  Not a module __getattr__: its presence would make every garray.<name>
# lookup take CPython's slow path (about 40 ns a call).
class _Subpackage(_types.ModuleType):
    def _load(self):
        mod = _importlib.import_module(self.__name__)
        globals()[self.__name__.rpartition(".")[2]] = mod
        self.__dict__.update(mod.__dict__)      # a reference kept to the placeholder works too
        return mod

    def __getattr__(self, attr):
        return getattr(self._load(), attr)

    def __setattr__(self, attr, value):
        # a write (a user's override, a test's monkeypatch) goes to the subpackage itself
        setattr(self._load(), attr, value)
        self.__dict__[attr] = value

    def __delattr__(self, attr):
        delattr(self._load(), attr)
        self.__dict__.pop(attr, None)

    def __dir__(self):
        return dir(self._load())


for _name in ("linalg", "fft", "random", "nn", "signal", "special", "emath"):
    if f"{__name__}.{_name}" not in _sys.modules:
        globals()[_name] = _Subpackage(f"{__name__}.{_name}")
del _name


def get_default_memory_pool(device=None):
    """The memory pool of ``device`` (the current device by default).

    Parameters
    ----------
    device : Device or str, optional
        The device (the current one by default).

    Returns
    -------
    MemoryPool
    """
    return _get_device(device).pool


def transpose(x, axes=None):
    """Permute the axes of ``x`` (reverse them by default).

    Parameters
    ----------
    x : ndarray
        Input array.
    axes : sequence of int, optional
        The permutation (reversed axes by default).

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.transpose
    """
    x = _as_array(x, "x")
    return x.transpose() if axes is None else permute_dims(x, axes)
