"""garray.linalg's norms (vector_norm, matrix_norm, NumPy's norm) and the Array API's
linalg-only spellings of products (outer, trace, diagonal, cross on the last axes).

This module is star-imported into garray.linalg only, after garray/_gemm/contract.py, so the
names here take the linalg meaning there (linalg.outer is 1-d only, linalg.trace and
linalg.diagonal use the last two axes, linalg.cross takes 3-vectors only) while the main
namespace keeps NumPy's.

Norms are garray reductions over abs/power/sqrt; the spectral ones (ord 2, -2, "nuc")
take garray.linalg.svdvals. Integer and bool input is computed in float64, as NumPy's.
"""

from .. import _dtypes
from .._dtypes import kind_of as _kind_of
import operator

import numpy

from ._svd import svdvals
from .._args import as_array, normalize_axis
from .._core import asarray, expand_dims
from .._elementwise.ufuncs import abs as _abs, sqrt
from .._gemm import contract as _contract
from .._gemm.contract import vecdot, tensordot  # noqa: F401  (re-exported into garray.linalg)
from .._manip.views import moveaxis
from .._manip.common import axis_error
from .._manip.diagonal import diagonal as _diagonal, trace as _trace
from .._manip.shaping import matrix_transpose  # noqa: F401  (re-exported into garray.linalg)
from .._reduce.reductions import max as _max, min as _min, sum as _sum

__all__ = ["vector_norm", "matrix_norm", "norm", "outer", "trace", "diagonal", "cross",
           "matrix_transpose", "vecdot", "tensordot"]

_INF = float("inf")


def _inexact(x):
    """Integer and bool input is normed in float64 (NumPy's rule), and so are bfloat16 and
    the float8 formats (NumPy takes ml_dtypes' types as not inexact; float16 stays)."""
    return (x if _kind_of(x.dtype) in "fc" and not _dtypes.is_ml_format(x.dtype)
            else x.astype(numpy.float64))


def _real_dtype(x):
    return numpy.finfo(x.dtype).dtype if _kind_of(x.dtype) == "c" else x.dtype


def _vector(x, axis, ord, keepdims):
    """The vector norm of ``x`` along the axes ``axis`` (a tuple)."""
    if isinstance(ord, str):
        raise ValueError(f"ord: Invalid norm order {ord!r} for vectors")
    if ord is None or ord == 2:
        a = _abs(x) if _kind_of(x.dtype) == "c" else x
        return sqrt(_sum(a * a, axis=axis, keepdims=keepdims))
    if ord == _INF:
        return _max(_abs(x), axis=axis, keepdims=keepdims, initial=0)
    if ord == -_INF:
        return _min(_abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return _sum((x != 0).astype(_real_dtype(x)), axis=axis, keepdims=keepdims)
    if ord == 1:
        return _sum(_abs(x), axis=axis, keepdims=keepdims)
    try:
        p = float(ord)
    except (TypeError, ValueError):
        raise TypeError(f"ord: expected a number, inf or -inf, got {ord!r}") from None
    rd = _real_dtype(x)
    s = _sum(_abs(x) ** asarray(p, dtype=rd, device=x.device), axis=axis,
             keepdims=keepdims)
    return s ** asarray(1.0 / p, dtype=rd, device=x.device)


def _matrix(x, row, col, ord, keepdims):
    """The matrix norm over the axes (row, col)."""
    if ord in (2, -2, "nuc"):
        s = svdvals(moveaxis(x, (row, col), (-2, -1)))
        # NumPy: the max-type orders of an empty matrix are 0 (initial=0); min-type raise
        r = _max(s, axis=-1, initial=0) if ord == 2 else _min(s, axis=-1) if ord == -2 \
            else _sum(s, axis=-1)
    elif ord in (None, "fro", "f"):
        r = _vector(x, (row, col), 2, False)
    elif ord in (1, -1, _INF, -_INF):
        inner, outer_ = (row, col) if ord in (1, -1) else (col, row)
        s = _sum(_abs(x), axis=inner)
        outer_ -= 1 if outer_ > inner else 0
        r = _max(s, axis=outer_, initial=0) if ord in (1, _INF) else _min(s, axis=outer_)
    else:
        raise ValueError(f"ord: Invalid norm order {ord!r} for matrices.")
    if keepdims:
        r = expand_dims(r, tuple(sorted((row, col))))
    return r


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector norm of ``x`` over ``axis`` (None: all elements; a tuple: those axes
    as one vector). ``ord``: any real p (``sum(abs(x)**p)**(1/p)``), ``inf``/``-inf``
    (max/min of abs), 0 (count of nonzeros). Complex input gives a real result.

    >>> garray.linalg.vector_norm(garray.asarray([3., 4.]))
    array(5.)

    Parameters
    ----------
    x : ndarray
        Input array.
    axis : int, tuple of int or None, optional
        The axes (None: all elements).
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.
    ord : int, float, inf or -inf, optional
        The order.

    Returns
    -------
    ndarray
        Real norms.

    See Also
    --------
    numpy.linalg.vector_norm
    """
    x = _inexact(as_array(x, "x"))
    if axis is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, x.ndim, "axis") for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"axis: repeated axis in {tuple(axis)}")
    else:
        axes = (normalize_axis(axis, x.ndim, "axis"),)
    return _vector(x, axes, ord, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norm over the last two axes of ``x`` (a stack of matrices): "fro",
    "nuc" (sum of singular values), 1/-1 (max/min column sum of abs), inf/-inf
    (max/min row sum), 2/-2 (largest/smallest singular value).

    >>> garray.linalg.matrix_norm(garray.eye(2))
    array(1.41421356)

    Parameters
    ----------
    x : ndarray
        (..., M, N) matrices.
    keepdims : bool, optional
        Keep the two reduced axes as axes of length one.
    ord : {'fro', 'nuc', 1, -1, 2, -2, inf, -inf}, optional
        The norm.

    Returns
    -------
    ndarray
        Real norms.

    See Also
    --------
    numpy.linalg.matrix_norm
    """
    x = _inexact(as_array(x, "x"))
    if x.ndim < 2:
        raise axis_error(f"x: matrix_norm needs at least 2 dimensions, got shape {x.shape}")
    return _matrix(x, x.ndim - 2, x.ndim - 1, ord, keepdims)


def norm(x, ord=None, axis=None, keepdims=False):
    """NumPy's norm: with ``axis`` None, the 2-norm of all elements (``ord`` None) or
    the vector/matrix norm of a 1-d/2-d ``x``; an int ``axis`` gives vector norms, a
    pair of axes matrix norms. See vector_norm and matrix_norm for the orders.

    >>> garray.linalg.norm(garray.asarray([[1., 2.], [2., 4.]]))
    array(5.)

    Parameters
    ----------
    x : ndarray
        Input array.
    ord : {None, int, float, inf, -inf, 'fro', 'nuc'}, optional
        The order.
    axis : int, tuple of two int or None, optional
        Vector norm axis, or the two matrix axes.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        Real norms.

    See Also
    --------
    numpy.linalg.norm
    """
    x = _inexact(as_array(x, "x"))
    if axis is None:
        if (ord is None and _kind_of(x.dtype) == "f" and x.dtype.itemsize >= 4 and x.size
                and (x.flags.c_contiguous or x.flags.f_contiguous)):
            # NumPy's own form: sqrt(x . x) of the array flattened in memory order, a
            # BLAS ?dot (the same bits as NumPy's; the squares and sum below took 5
            # times longer).  Other layouts keep that path.
            r = x.reshape(-1) if x.flags.c_contiguous else x.T.reshape(-1)
            s = sqrt(r @ r)
            return s.reshape((1,) * x.ndim) if keepdims else s
        if ord is None:
            return _vector(x, tuple(range(x.ndim)), 2, keepdims)
        if x.ndim == 1:
            return _vector(x, (0,), ord, keepdims)
        if x.ndim == 2:
            return _matrix(x, 0, 1, ord, keepdims)
        raise ValueError(f"x: Improper number of dimensions to norm: shape {x.shape} "
                         f"with ord {ord!r}")
    if isinstance(axis, tuple):
        axes = axis
    else:
        # as NumPy: one axis goes through int() (a float truncates, a numeric str
        # parses); anything else, a list included, is a TypeError
        try:
            axes = (int(axis),)
        except Exception:  # noqa: BLE001 - NumPy's TypeError whatever int() raised
            raise TypeError("axis: 'axis' must be None, an integer or a tuple of "
                            "integers") from None
        if not -2**63 <= axes[0] < 2**63:
            raise OverflowError(f"axis: {axes[0]} is too large to convert to C long")
    for a in axes:
        if isinstance(a, bool) or not hasattr(type(a), "__index__"):
            raise TypeError("axis: 'axis' must be None, an integer or a tuple of integers")
    axes = tuple(operator.index(a) for a in axes)
    if len(axes) == 1:
        return _vector(x, (normalize_axis(axes[0], x.ndim, "axis"),), ord, keepdims)
    if len(axes) == 2:
        row = normalize_axis(axes[0], x.ndim, "axis")
        col = normalize_axis(axes[1], x.ndim, "axis")
        if row == col:
            raise ValueError(f"axis: Duplicate axes given: {axis}")
        return _matrix(x, row, col, "fro" if ord is None else ord, keepdims)
    raise ValueError(f"axis: Improper number of dimensions to norm: {axis}")


# ---- the Array API's linalg spellings ----------------------------------------------


def outer(x1, x2, /):
    """Outer product of two 1-d arrays.

    >>> garray.linalg.outer(garray.asarray([1, 2]), garray.asarray([3, 4]))
    array([[3, 4],
           [6, 8]])

    Parameters
    ----------
    x1 : ndarray
        1-d.
    x2 : ndarray
        1-d.

    Returns
    -------
    ndarray
        2-d.

    See Also
    --------
    numpy.linalg.outer
    """
    a, b = _contract._operands(x1, x2, "x1", "x2")
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={a.ndim} and x2.ndim={b.ndim}.")
    return _contract.outer(a, b)


def trace(x, /, *, offset=0, dtype=None):
    """Sum of the ``offset`` diagonal of each matrix in the last two axes.

    >>> garray.linalg.trace(garray.eye(3))
    array(3.)

    Parameters
    ----------
    x : ndarray
        (..., M, N) matrices.
    offset : int, optional
        The diagonal.
    dtype : dtype, optional
        The sum's dtype (as garray.sum).

    Returns
    -------
    ndarray
        One sum per matrix.

    See Also
    --------
    numpy.linalg.trace
    """
    x = as_array(x, "x")
    if x.ndim < 2:
        raise ValueError(f"x: trace needs at least 2 dimensions, got shape {x.shape}")
    return _trace(x, offset, -2, -1, dtype=dtype)


def diagonal(x, /, *, offset=0):
    """The ``offset`` diagonal of each matrix in the last two axes (a view).

    >>> garray.linalg.diagonal(garray.eye(2))
    array([1., 1.])

    Parameters
    ----------
    x : ndarray
        (..., M, N) matrices.
    offset : int, optional
        The diagonal (positive: above the main one).

    Returns
    -------
    ndarray
        A view.

    See Also
    --------
    numpy.linalg.diagonal
    """
    x = as_array(x, "x")
    if x.ndim < 2:
        raise ValueError(f"x: diagonal needs at least 2 dimensions, got shape {x.shape}")
    return _diagonal(x, offset, -2, -1)


def cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-vectors along ``axis``, other axes broadcast.

    >>> garray.linalg.cross(garray.asarray([1, 0, 0]), garray.asarray([0, 1, 0]))
    array([0, 0, 1])

    Parameters
    ----------
    x1 : ndarray
        First 3-vectors.
    x2 : ndarray
        Second 3-vectors.
    axis : int, optional
        The vector axis.

    Returns
    -------
    ndarray
        In the operands' result_type.

    See Also
    --------
    numpy.linalg.cross
    """
    a, b = _contract._operands(x1, x2, "x1", "x2")
    na = a.shape[normalize_axis(axis, a.ndim, "axis")] if a.ndim else 0
    nb = b.shape[normalize_axis(axis, b.ndim, "axis")] if b.ndim else 0
    if na != 3 or nb != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, "
                         f"but they are {na} and {nb} dimensional instead.")
    return _contract.cross(a, b, axis=axis)
