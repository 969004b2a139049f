"""numpy.pad on garray arrays.

Note [pad]
~~~~~~~~~~
1. The result is allocated once and the input copied into its centre (garray's strided
   copy); then, axis by axis, each side's pad area is written from slices of the result
   itself, so later axes pad the corners from values already padded (NumPy's order, so
   corners match NumPy's).
2. The modes follow NumPy's algorithm (numpy/lib/_arraypad_impl.py): reflect, symmetric
   and wrap copy chunks of at most one period per round until the pad area is full;
   'odd' reflection is ``2 * edge - chunk`` with garray's elementwise ops; statistics are
   garray reductions with keepdims (rounded for integer arrays, as NumPy);
   linear_ramp is ``end + i * (edge - end) / width`` computed on the device in float64
   (complex128), floored for integer arrays, as numpy.linspace does.
3. Host work: pad widths, stat lengths, constant and end values (scalars given by the
   caller).  'median' uses garray.median.
"""

from .._dtypes import kind_of as _kind_of
import numpy

from .._core import empty, ndarray
from .views import moveaxis
from .._args import as_array
from .._creation import ranges as _creation
from .._elementwise import ufuncs as _ufuncs
from .._elementwise.math_extras import round as _round
from .._reduce.moments import mean
from .._reduce.reductions import max as _max, min as _min
from .._sort.quantiles import median

__all__ = ["pad"]

_S = slice(None)

_ALLOWED = {"empty": (), "edge": (), "wrap": (), "constant": ("constant_values",),
            "linear_ramp": ("end_values",), "maximum": ("stat_length",),
            "mean": ("stat_length",), "median": ("stat_length",),
            "minimum": ("stat_length",), "reflect": ("reflect_type",),
            "symmetric": ("reflect_type",)}


def _at(axis, sl):
    return (_S,) * axis + (sl,)


def _host(x):
    return x.get() if isinstance(x, ndarray) else x


def _as_pairs(x, ndim, as_index=False, argname="pad_width"):
    """NumPy's _as_pairs: a scalar, a pair or per-axis pairs as ndim (before, after)."""
    if x is None:
        return ((None, None),) * ndim
    x = numpy.array(_host(x))
    if as_index:
        x = numpy.round(x).astype(numpy.intp, copy=False)
    if x.ndim < 3:
        # NumPy keeps its scalars here (a NumPy int64 -1 stored into uint8 wraps to 255,
        # as NumPy's own pad does); widths become Python ints
        conv = (lambda v: v.item()) if as_index else (lambda v: v)
        if x.size == 1:
            x = x.ravel()
            if as_index and x[0] < 0:
                raise ValueError(f"{argname}: index can't contain negative values")
            return ((conv(x[0]), conv(x[0])),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError(f"{argname}: index can't contain negative values")
            return ((conv(x[0]), conv(x[1])),) * ndim
    if as_index and x.size and x.min() < 0:
        raise ValueError(f"{argname}: index can't contain negative values")
    try:
        return numpy.broadcast_to(x, (ndim, 2)).tolist()
    except ValueError:
        raise ValueError(f"{argname}: operands could not be broadcast together with "
                         f"remapped shapes [original->remapped]: {x.shape} and "
                         f"requested shape ({ndim}, 2)") from None


def _pad_width(array, pad_width):
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * array.ndim
        for axis, width in pad_width.items():
            if isinstance(width, int):
                seq[axis] = (width, width)
            elif isinstance(width, tuple) and len(width) == 2:
                seq[axis] = width
            else:
                raise TypeError(f"pad_width: bad width {width!r} for axis {axis}")
        pad_width = seq
    h = numpy.asarray(_host(pad_width))
    if _kind_of(h.dtype) != "i":
        raise TypeError("pad_width: `pad_width` must be of integral type.")
    return [tuple(p) for p in _as_pairs(h, array.ndim, as_index=True)]


def _set_area(padded, axis, widths, values):
    left, right = widths
    if left:
        padded[_at(axis, slice(None, left))] = values[0]
    if right:
        padded[_at(axis, slice(padded.shape[axis] - right, None))] = values[1]


def _edges(padded, axis, widths):
    left = widths[0]
    right = padded.shape[axis] - widths[1]
    return (padded[_at(axis, slice(left, left + 1))],
            padded[_at(axis, slice(right - 1, right))])


def _roi(padded, centre, axis):
    """The result with the axes after ``axis`` restricted to the original area."""
    return padded[(_S,) * (axis + 1) + centre[axis + 1:]]


def _ramp(end, edge, width, axis, dtype):
    """NumPy's linspace(end, edge, width, endpoint=False, axis=axis) in dtype."""
    calc = numpy.dtype("complex128" if _kind_of(dtype) == "c" else "float64")
    delta = edge.astype(calc) - end
    shape = [1] * edge.ndim
    shape[axis] = width
    i = _creation.arange(width, dtype=calc, device=edge.device).reshape(tuple(shape))
    step = delta / width
    if bool((step == 0).any()):
        y = i / width * delta + end     # numpy.linspace's branch for a zero step
    else:
        y = i * step + end
    if _kind_of(dtype) in "iu":
        y = _ufuncs.floor(y)
    return y.astype(dtype)


def _stats(padded, axis, widths, lengths, mode):
    left_i, right_i = widths[0], padded.shape[axis] - widths[1]
    max_len = right_i - left_i
    ll, rl = lengths
    ll = max_len if ll is None or max_len < ll else ll
    rl = max_len if rl is None or max_len < rl else rl
    if (ll == 0 or rl == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length: stat_length of 0 yields no value for padding")
    func = {"maximum": _max, "minimum": _min, "mean": mean, "median": median}[mode]

    def stat(chunk):
        s = func(chunk, axis=axis, keepdims=True)
        if _kind_of(padded.dtype) in "iu":
            s = _round(s)
        return s

    left = stat(padded[_at(axis, slice(left_i, left_i + ll))])
    if ll == rl == max_len:
        return left, left
    return left, stat(padded[_at(axis, slice(right_i - rl, right_i))])


def _reflect_both(padded, axis, widths, method, period, include_edge):
    left_pad, right_pad = widths
    old = padded.shape[axis] - right_pad - left_pad
    if include_edge:
        old = old // period * period
        edge_off = 1
    else:
        old = (old - 1) // (period - 1) * (period - 1) + 1
        edge_off = 0
        old -= 1
    if left_pad > 0:
        n = min(old, left_pad)
        stop = left_pad - edge_off
        chunk = padded[_at(axis, slice(stop + n, stop, -1))]
        if method == "odd":
            chunk = 2 * padded[_at(axis, slice(left_pad, left_pad + 1))] - chunk
        padded[_at(axis, slice(left_pad - n, left_pad))] = chunk
        left_pad -= n
    if right_pad > 0:
        n = min(old, right_pad)
        size = padded.shape[axis]
        start = size - right_pad + edge_off - 2
        chunk = padded[_at(axis, slice(start, start - n if start - n >= 0 else None, -1))]
        if method == "odd":
            chunk = 2 * padded[_at(axis, slice(size - right_pad - 1, size - right_pad))] \
                - chunk
        padded[_at(axis, slice(size - right_pad, size - right_pad + n))] = chunk
        right_pad -= n
    return left_pad, right_pad


def _wrap_both(padded, axis, widths, period0):
    left_pad, right_pad = widths
    size = padded.shape[axis]
    period = (size - right_pad - left_pad) // period0 * period0
    new_left = new_right = 0
    if left_pad > 0:
        end = left_pad + period
        chunk = padded[_at(axis, slice(end - min(period, left_pad), end))]
        if left_pad > period:
            area = slice(left_pad - period, left_pad)
            new_left = left_pad - period
        else:
            area = slice(None, left_pad)
        padded[_at(axis, area)] = chunk
    if right_pad > 0:
        start = size - right_pad - period
        chunk = padded[_at(axis, slice(start, start + min(period, right_pad)))]
        if right_pad > period:
            area = slice(size - right_pad, size - right_pad + period)
            new_right = right_pad - period
        else:
            area = slice(size - right_pad, None)
        padded[_at(axis, area)] = chunk
    return new_left, new_right


def _call_mode(function, padded, pad_width, kwargs):
    """NumPy's callable mode: ``function(vector, pad_width[axis], axis, kwargs)`` on every
    1-d view along each axis, which it modifies in place (one call per line: slow for
    large arrays, as in NumPy)."""
    import itertools
    for axis in range(padded.ndim):
        view = moveaxis(padded, axis, -1)
        for ind in itertools.product(*(range(n) for n in view.shape[:-1])):
            function(view[ind + (Ellipsis,)], pad_width[axis], axis, kwargs)
    return padded


def pad(array, pad_width, mode="constant", **kwargs):
    """``array`` padded by ``pad_width`` along each axis.

    ``pad_width``: an int, (before, after), ((before, after),) * ndim, or a dict
    {axis: width or (before, after)}.  ``mode``: 'constant' (``constant_values``, per
    axis and side), 'edge', 'linear_ramp' (``end_values``), 'maximum', 'mean', 'median',
    'minimum' (``stat_length``), 'reflect', 'symmetric' (``reflect_type`` 'even' or
    'odd'), 'wrap', 'empty', or a function as NumPy's.  'median' needs garray.median.

    >>> garray.pad(garray.asarray([1, 2]), (1, 2), mode="edge")
    array([1, 1, 2, 2, 2])

    Parameters
    ----------
    array : ndarray or array_like
        The array to pad.
    pad_width : int, sequence or dict
        Widths: an int, (before, after), one pair per axis, or {axis: width or (before,
        after)}.
    mode : str or callable, optional
        How to fill the padding (see above).
    **kwargs
        The mode's options: constant_values, end_values, stat_length, reflect_type.

    Returns
    -------
    ndarray
        A new array in array's dtype.

    See Also
    --------
    numpy.pad
    """
    array = as_array(array, "array")
    widths = _pad_width(array, pad_width)
    if not callable(mode):
        if mode not in _ALLOWED:
            raise ValueError(f"mode: mode '{mode}' is not supported")
        extra = set(kwargs) - set(_ALLOWED[mode])
        if extra:
            raise ValueError(f"unsupported keyword arguments for mode '{mode}': {extra}")
    shape = tuple(left + n + right for n, (left, right) in zip(array.shape, widths))
    padded = empty(shape, dtype=array.dtype, device=array.device)
    if callable(mode):
        padded[...] = 0
    centre = tuple(slice(left, left + n) for n, (left, _) in zip(array.shape, widths))
    padded[centre] = array
    if callable(mode):
        return _call_mode(mode, padded, widths, kwargs)
    axes = range(padded.ndim)
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), padded.ndim,
                           argname="constant_values")
        for axis, w, v in zip(axes, widths, values):
            _set_area(_roi(padded, centre, axis), axis, w, v)
    elif mode == "empty":
        pass
    elif array.size == 0:
        for axis, w in zip(axes, widths):
            if array.shape[axis] == 0 and any(w):
                raise ValueError(f"mode: can't extend empty axis {axis} using modes other "
                                 f"than 'constant' or 'empty'")
    elif mode == "edge":
        for axis, w in zip(axes, widths):
            roi = _roi(padded, centre, axis)
            _set_area(roi, axis, w, _edges(roi, axis, w))
    elif mode == "linear_ramp":
        ends = _as_pairs(kwargs.get("end_values", 0), padded.ndim, argname="end_values")
        for axis, w, v in zip(axes, widths, ends):
            roi = _roi(padded, centre, axis)
            le, re = _edges(roi, axis, w)
            ramps = (_ramp(v[0], le, w[0], axis, padded.dtype) if w[0] else None,
                     _ramp(v[1], re, w[1], axis, padded.dtype)[_at(axis, slice(None, None, -1))]
                     if w[1] else None)
            _set_area(roi, axis, w, ramps)
    elif mode in ("maximum", "minimum", "mean", "median"):
        lengths = _as_pairs(kwargs.get("stat_length"), padded.ndim, as_index=True,
                            argname="stat_length")
        for axis, w, ln in zip(axes, widths, lengths):
            roi = _roi(padded, centre, axis)
            _set_area(roi, axis, w, _stats(roi, axis, w, ln, mode))
    elif mode in ("reflect", "symmetric"):
        method = kwargs.get("reflect_type", "even")
        if method not in ("even", "odd"):
            raise ValueError(f"reflect_type: must be 'even' or 'odd', got {method!r}")
        for axis, (left, right) in zip(axes, widths):
            if array.shape[axis] == 1 and (left > 0 or right > 0):
                _set_area(padded, axis, (left, right), _edges(padded, axis, (left, right)))
                continue
            roi = _roi(padded, centre, axis)
            while left > 0 or right > 0:
                left, right = _reflect_both(roi, axis, (left, right), method,
                                            array.shape[axis], mode == "symmetric")
    elif mode == "wrap":
        for axis, (left, right) in zip(axes, widths):
            roi = _roi(padded, centre, axis)
            period = padded.shape[axis] - right - left
            while left > 0 or right > 0:
                left, right = _wrap_both(roi, axis, (left, right), period)
    return padded
