"""Statistics over the reduction family: ``ptp``, ``average`` and ``diff``.  The moments
are in garray/_reduce/moments.py, the nan* functions in garray/_reduce/nan.py, the
whole-array comparisons in garray/_reduce/comparisons.py.

Everything runs garray's kernels: the rows of ``garray/_tables/reduce.py`` through
``garray/_reduce/reductions.py`` and the elementwise ufuncs.  The semantics (result dtypes,
warnings, errors) follow NumPy's ``_methods.py`` and ``_function_base_impl.py``.
"""

from .._dtypes import kind_of as _kind_of
import numpy

from .._args import as_array, normalize_axis_tuple, reduction_axes
from .. import _core, _dtypes
from .._core import ndarray
from .reductions import _store, reduce
from . import reductions as _red
from .._elementwise import ufuncs as _u
from .common import _F64, _any, _cast, _kind
from .moments import mean
from .._manip.manipulation import concat


class _NoValue:
    """Sentinel for arguments where None is a meaningful value (diff's prepend)."""

    def __repr__(self):
        return "<no value>"


_NOVALUE = _NoValue()


def ptp(a, axis=None, out=None, keepdims=False):
    """Range ``max - min`` over ``axis`` (integers wrap as NumPy's; bool is a
    TypeError).

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    out : ndarray, optional
        A garray array of the result's shape that receives the result (cast to its
        dtype); returned.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray
        In a's dtype.

    See Also
    --------
    numpy.ptp
    """
    x = as_array(a, "ptp: a")
    hi = reduce("max", x, axis, keepdims, api="ptp")   # empty: NumPy's ValueError first
    lo = reduce("min", x, axis, keepdims, api="ptp")
    if _kind(x) == "b":
        raise TypeError("ptp: numpy boolean subtract is not supported for bool input")
    r = _u.subtract(hi, lo)
    if isinstance(out, ndarray) and not numpy.can_cast(r.dtype, out.dtype, "same_kind"):
        raise TypeError(f"ptp: cannot cast the result from {r.dtype} to out's {out.dtype} "
                        f"with casting rule 'same_kind'")
    return _store(r, out, "ptp")


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted mean over ``axis``: ``sum(a * w) / sum(w)``; ``returned`` also gives the
    sum of the weights.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    axis : int, tuple of int or None, optional
        Axes to reduce (all axes by default).
    weights : ndarray or array_like, optional
        Weights, of a's shape or 1-d along a single axis; equal weights by default.
    returned : bool, optional
        Also return the sum of the weights.
    keepdims : bool, optional
        Keep the reduced axes as axes of length one.

    Returns
    -------
    ndarray or tuple of ndarray
        The weighted mean (float64 for integer input), and with returned the weight sums
        broadcast to its shape.

    See Also
    --------
    numpy.average
    """
    x = as_array(a, "average: a")
    if axis is not None:
        axis = normalize_axis_tuple(axis, x.ndim, "average", allow_list=False,
                                    scalar_on_0d=True)
    if weights is None:
        avg = mean(x, axis=axis, keepdims=keepdims)
        scl_value = x.size / avg.size if avg.size else None
        if scl_value is None:
            raise ZeroDivisionError("average: division by zero (empty result)")
        scl = _core.full(avg.shape, scl_value, dtype=avg.dtype, device=avg.device)
    else:
        w = as_array(weights, "average: weights")
        if _kind_of(x.dtype) in "biu":
            rd = _dtypes.result_type(x.dtype, w.dtype, _F64)
        else:
            rd = _dtypes.result_type(x.dtype, w.dtype)
        if x.shape != w.shape:
            if axis is None:
                raise TypeError("average: Axis must be specified when shapes of a and "
                                "weights differ.")
            if w.shape != tuple(x.shape[ax] for ax in axis):
                raise ValueError("average: Shape of weights must be consistent with "
                                 "shape of a along specified axis.")
            order = sorted(range(len(axis)), key=lambda i: axis[i])
            w = _core.permute_dims(w, tuple(order))
            w = w.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(x.shape)))
        scl = _red.sum(w, axis=axis, dtype=rd, keepdims=keepdims)
        if _any(_u.equal(scl, 0)):
            raise ZeroDivisionError("average: Weights sum to zero, can't be normalized")
        num = _red.sum(_u.multiply(_cast(x, rd), _cast(w, rd)), axis=axis,
                       keepdims=keepdims)
        avg = _u.divide(num, scl)
    if returned:
        if scl.shape != avg.shape:
            scl = _core.broadcast_to(scl, avg.shape).copy()
        return avg, scl
    return avg


def diff(a, n=1, axis=-1, prepend=_NOVALUE, append=_NOVALUE):
    """The n-th discrete difference along ``axis`` (``not_equal`` for bool), after
    joining ``prepend`` and ``append``.

    Parameters
    ----------
    a : ndarray or array_like
        Input array (array-likes are converted on the current device).
    n : int, optional
        Number of times to difference.
    axis : int, optional
        The axis (the last by default).
    prepend : array_like, optional
        Values joined before a along axis first (scalars broadcast).
    append : array_like, optional
        Values joined after a along axis first.

    Returns
    -------
    ndarray
        Of a's shape less n along axis, in a's dtype.

    See Also
    --------
    numpy.diff
    """
    x = as_array(a, "diff: a")
    if n == 0:
        return x
    if n < 0:
        raise ValueError(f"diff: order must be non-negative but got {n!r}")
    if x.ndim == 0:
        raise ValueError("diff: requires input that is at least one dimensional")
    ax, = reduction_axes(axis, x.ndim, "diff")
    parts = []
    for extra in (prepend, x, append):
        if extra is _NOVALUE:
            continue
        if extra is not x:
            extra = as_array(extra, "diff: extra")
            if extra.ndim == 0:
                shape = list(x.shape)
                shape[ax] = 1
                extra = _core.broadcast_to(extra, tuple(shape))
        parts.append(extra)
    if len(parts) > 1:
        x = _red_concat(parts, ax)
    head = (slice(None),) * ax
    op = _u.not_equal if _kind_of(x.dtype) == "b" else _u.subtract
    for _ in range(n):
        x = op(x[head + (slice(1, None),)], x[head + (slice(None, -1),)])
    return x


def _red_concat(parts, ax):
    return concat(parts, axis=ax)


__all__ = ["ptp", "average", "diff"]
