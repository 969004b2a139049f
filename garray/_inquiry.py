"""NumPy's small inquiry and checking functions: iscomplex, isreal, iscomplexobj,
isrealobj, isfortran, isneginf, isposinf, asarray_chkfinite, may_share_memory, shares_memory,
common_type, require.

Elementwise answers run garray's kernels on the array's device; the others read
dtypes, flags and address ranges only.
"""

from . import _dtype_time as _time
from ._dtypes import kind_of as _kind_of
import math

import numpy

from ._args import as_array, check_array
from ._elementwise import ufuncs as _ufuncs
from . import _dtypes
from ._core import asarray, ndarray, ones, zeros

__all__ = ["iscomplex", "isreal", "iscomplexobj", "isrealobj", "isfortran", "isneginf",
           "isposinf", "asarray_chkfinite", "may_share_memory", "shares_memory",
           "common_type", "require", "min_scalar_type"]


def iscomplex(x):
    """True where an element has a nonzero imaginary part (False everywhere for real
    dtypes).

    Parameters
    ----------
    x : ndarray or array_like
        Input.

    Returns
    -------
    ndarray
        bool.

    See Also
    --------
    numpy.iscomplex
    """
    _time.refuse("iscomplex", x, error=NotImplementedError)
    a = as_array(x, "x")
    if _kind_of(a.dtype) == "c":
        return _ufuncs.not_equal(a.imag, 0)
    return zeros(a.shape, bool, device=a.device)


def isreal(x):
    """True where an element's imaginary part is zero (everywhere for real dtypes).

    Parameters
    ----------
    x : ndarray or array_like
        Input.

    Returns
    -------
    ndarray
        bool.

    See Also
    --------
    numpy.isreal
    """
    _time.refuse("isreal", x, error=NotImplementedError)
    a = as_array(x, "x")
    if _kind_of(a.dtype) == "c":
        return _ufuncs.equal(a.imag, 0)
    return ones(a.shape, bool, device=a.device)


def _dtype_kind(x):
    dt = getattr(x, "dtype", None)
    if dt is None:
        dt = numpy.asarray(x).dtype         # the dtype of host data: metadata only
    return numpy.dtype(dt).kind


def iscomplexobj(x):
    """Whether ``x`` has a complex dtype (whatever its values).

    Parameters
    ----------
    x : any
        An array or anything with a dtype.

    Returns
    -------
    bool

    See Also
    --------
    numpy.iscomplexobj
    """
    return _dtype_kind(x) == "c"


def isrealobj(x):
    """Whether ``x`` has a non-complex dtype.

    Parameters
    ----------
    x : any
        An array or anything with a dtype.

    Returns
    -------
    bool

    See Also
    --------
    numpy.isrealobj
    """
    return _dtype_kind(x) != "c"


def isfortran(a):
    """Whether ``a`` is F-contiguous and not C-contiguous.

    Parameters
    ----------
    a : ndarray
        The array.

    Returns
    -------
    bool

    See Also
    --------
    numpy.isfortran
    """
    check_array(a, "a")
    return a.flags.f_contiguous and not a.flags.c_contiguous


def _signed_inf(x, negative, out, name):
    a = as_array(x, "x")
    if _kind_of(a.dtype) == "c":
        raise TypeError(f"{name}: not supported for {a.dtype} values because it would be "
                        "ambiguous")
    if _kind_of(a.dtype) in "biu":
        sign = zeros(a.shape, bool, device=a.device)    # integers are never infinite
    else:
        sign = _ufuncs.signbit(a) if negative else _ufuncs.logical_not(_ufuncs.signbit(a))
    return _ufuncs.logical_and(_ufuncs.isinf(a), sign, out=out)


def isneginf(x, out=None):
    """True where an element is negative infinity.

    Parameters
    ----------
    x : ndarray or array_like
        Real input.
    out : ndarray, optional
        A garray bool array of x's shape to write into.

    Returns
    -------
    ndarray
        bool.

    See Also
    --------
    numpy.isneginf
    """
    return _signed_inf(x, True, out, "isneginf")


def isposinf(x, out=None):
    """True where an element is positive infinity.

    Parameters
    ----------
    x : ndarray or array_like
        Real input.
    out : ndarray, optional
        A garray bool array of x's shape to write into.

    Returns
    -------
    ndarray
        bool.

    See Also
    --------
    numpy.isposinf
    """
    return _signed_inf(x, False, out, "isposinf")


def asarray_chkfinite(a, dtype=None, order=None):
    """``asarray`` that raises ValueError when a float or complex result holds inf or
    NaN (checked on the device).

    Parameters
    ----------
    a : array_like
        Input.
    dtype : dtype, optional
        The result's dtype.
    order : str, optional
        As asarray.

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.asarray_chkfinite
    """
    r = asarray(a, dtype, order)
    if _kind_of(r.dtype) in "fc" and not bool(_ufuncs.isfinite(r).all()):
        raise ValueError("array must not contain infs or NaNs")
    return r


def _extent(x):
    """(memory space, first byte, end byte) of an array, or None for other objects."""
    if isinstance(x, ndarray):
        if x.size == 0:
            return None
        lo = hi = x.ptr
        for n, s in zip(x.shape, x.strides):
            if s > 0:
                hi += s * (n - 1)
            else:
                lo += s * (n - 1)
        space = "host" if x.device.kind == "cpu" else str(x.device)
        return space, lo, hi + x.itemsize
    if isinstance(x, numpy.ndarray) and x.size:
        lo, hi = numpy.lib.array_utils.byte_bounds(x)
        return "host", lo, hi
    return None


def _check_max_work(max_work):
    """NumPy's check: an integer (its bound on the exact search) or None."""
    if max_work is not None and not isinstance(max_work, (int, numpy.integer)):
        raise ValueError(f"max_work must be an integer, got {max_work!r}")


def may_share_memory(a, b, max_work=None):
    """Whether ``a`` and ``b`` (garray arrays on one device, or host memory: CPU-device
    arrays and NumPy arrays) touch overlapping address ranges.  A True may be a false
    positive (interleaved strides), as NumPy's.

    Parameters
    ----------
    a : ndarray
        First array.
    b : ndarray
        Second array.
    max_work : int, optional
        Accepted for NumPy's signature.

    Returns
    -------
    bool

    See Also
    --------
    numpy.may_share_memory
    """
    _check_max_work(max_work)
    ea, eb = _extent(a), _extent(b)
    if ea is None or eb is None or ea[0] != eb[0]:
        return False
    return ea[1] < eb[2] and eb[1] < ea[2]


def _layout(x):
    """(memory space, address of element 0, shape, strides, itemsize) of an array."""
    if isinstance(x, ndarray):
        space = "host" if x.device.kind == "cpu" else str(x.device)
        return space, x.ptr, x.shape, x.strides, x.itemsize
    return "host", x.__array_interface__["data"][0], x.shape, x.strides, x.itemsize


# Exact answers enumerate element addresses (metadata, on the host): past this many
# elements NumPy's TooHardError, as its max_work bound gives.
_EXACT_LIMIT = 1 << 24


def _addresses(space_ptr_shape_strides):
    _, ptr, shape, strides, _ = space_ptr_shape_strides
    addr = numpy.full((), ptr, dtype=numpy.int64)
    for n, st in zip(shape, strides):
        addr = addr[..., None] + numpy.arange(n, dtype=numpy.int64) * st
    return addr.reshape(-1)


def shares_memory(a, b, max_work=None):
    """Whether some byte belongs to an element of both ``a`` and ``b`` (exact, unlike
    may_share_memory: interleaved views do not share).  ``max_work`` is accepted; the
    answer is always exact, and numpy.exceptions.TooHardError is raised past 2**24
    elements instead.

    Parameters
    ----------
    a : ndarray
        First array.
    b : ndarray
        Second array.
    max_work : int, optional
        Accepted for NumPy's signature (the answer is always exact).

    Returns
    -------
    bool

    See Also
    --------
    numpy.shares_memory
    """
    _check_max_work(max_work)
    if not may_share_memory(a, b):
        return False
    la, lb = _layout(a), _layout(b)
    if a.flags.c_contiguous and b.flags.c_contiguous:
        return True                   # two dense blocks whose ranges overlap
    if a.size > _EXACT_LIMIT or b.size > _EXACT_LIMIT:
        raise numpy.exceptions.TooHardError("shares_memory: exceeded max_work")
    pa, pb = _addresses(la), numpy.sort(_addresses(lb))
    # an element of a at [p, p + isa) meets one of b at [q, q + isb) iff p - isb < q < p + isa
    i = numpy.searchsorted(pb, pa - lb[4], side="right")
    return bool(numpy.any((i < pb.size) & (pb[numpy.minimum(i, pb.size - 1)] < pa + la[4])))


def common_type(*arrays):
    """The scalar type of the inexact dtype the arrays all fit: float64 for integers,
    complex if any is complex.

    Parameters
    ----------
    *arrays : ndarray
        The arrays.

    Returns
    -------
    type
        A NumPy scalar type (numpy.float16, numpy.float32, numpy.float64,
        numpy.complex64 or numpy.complex128); float16 for no arrays, as NumPy.

    See Also
    --------
    numpy.common_type
    """
    size, is_complex = 2, False
    for a in arrays:
        kind, itemsize = _kind_of(a.dtype), a.dtype.itemsize
        if kind == "c":
            is_complex, size = True, max(size, itemsize // 2)
        elif kind == "f":
            size = max(size, itemsize)
        elif kind in "iu":
            size = 8
        else:
            raise TypeError("can't get common type for non-numeric array")
    return {(2, False): numpy.float16, (4, False): numpy.float32, (8, False): numpy.float64,
            (2, True): numpy.complex64, (4, True): numpy.complex64, (8, True): numpy.complex128}[size, is_complex]


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F",
                 "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A", "ALIGNED": "A",
                 "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E",
                 "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None):
    """``a`` as an array of ``dtype`` that meets ``requirements`` ('C', 'F', 'A', 'W',
    'O', 'E' and their long names), copying only when needed.

    Parameters
    ----------
    a : array_like
        Input.
    dtype : dtype, optional
        The result's dtype.
    requirements : str or sequence of str, optional
        The flags asked for.

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.require
    """
    if not requirements:
        return asarray(a, dtype)
    reqs = {_REQUIREMENTS[str(r).upper()] for r in requirements}
    if "C" in reqs and "F" in reqs:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in reqs else ("F" if "F" in reqs else "A")
    r = asarray(a, dtype, order)
    if "E" in reqs and type(r) is not ndarray:
        r = r.view(ndarray)
    if ("W" in reqs and not r.flags.writeable) or ("O" in reqs and not r.flags.owndata):
        r = r.copy(order)
    return r


def min_scalar_type(a, /):
    """The smallest dtype that holds the scalar ``a`` (NumPy's rule): bool for a bool,
    the smallest unsigned integer for a non-negative integer and the smallest signed one
    for a negative integer, float16 / float32 / float64 for a float by its magnitude (NaN
    and inf: float16), complex64 / complex128 for a complex.  An array of one or more
    dimensions gives its own dtype; a 0-d array counts as its value (read to the host).

    Parameters
    ----------
    a : scalar, ndarray or array_like
        The value.

    Returns
    -------
    numpy.dtype

    Raises
    ------
    TypeError
        For an integer outside int64 and uint64 (NumPy answers object, a dtype garray
        does not have) and for what is not a number.

    See Also
    --------
    numpy.min_scalar_type
    """
    if isinstance(a, ndarray) or isinstance(a, numpy.ndarray):
        if a.ndim:
            return _dtypes.normalize_dtype(a.dtype, "min_scalar_type a")
        a = a.item()
    elif isinstance(a, (list, tuple)):
        return asarray(a).dtype
    if isinstance(a, (bool, numpy.bool_)):
        return numpy.dtype(numpy.bool_)
    if isinstance(a, (int, numpy.integer)):
        v = int(a)
        for name in (("uint8", "uint16", "uint32", "uint64") if v >= 0
                     else ("int8", "int16", "int32", "int64")):
            info = numpy.iinfo(name)
            if info.min <= v <= info.max:
                return numpy.dtype(name)
        raise TypeError(f"min_scalar_type: {v} fits no integer dtype (NumPy answers "
                        f"object, which garray does not support)")

    def fits(x, bound):
        return (-bound < x < bound) or not math.isfinite(x)

    if isinstance(a, (float, numpy.floating)):
        v = float(a)
        return numpy.dtype("float16" if fits(v, 65000.0) else
                           ("float32" if fits(v, 3.4e38) else "float64"))
    if isinstance(a, (complex, numpy.complexfloating)):
        v = complex(a)
        small = fits(v.real, 3.4e38) and fits(v.imag, 3.4e38)
        return numpy.dtype("complex64" if small else "complex128")
    raise TypeError(f"min_scalar_type: expected a number or an array, got "
                    f"{type(a).__name__}")
