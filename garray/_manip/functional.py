"""Python functions over arrays: apply_along_axis, apply_over_axes, fromfunction,
piecewise, and the broadcast object.

The function runs once per 1-d slice (or per axis) on the host, as NumPy's own
implementation does; the slices are views on the device and every value is computed by
the garray operations the function calls.
"""

import inspect
import itertools
import operator

from .._args import as_array, normalize_axis
from .._core import (asarray, expand_dims, ndarray, permute_dims, broadcast_to, zeros_like,
                     broadcast_shapes)
from .manipulation import stack, concat
from .._array_utils import isscalar
from .._creation.ranges import arange
from .._reduce.reductions import any as any_

__all__ = ["apply_along_axis", "apply_over_axes", "fromfunction", "piecewise", "broadcast"]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d(v, *args, **kwargs)`` for every 1-d slice ``v`` of ``arr`` along
    ``axis``; the results (all of one shape) take the place of that axis.

    >>> x = garray.arange(6.0).reshape(2, 3)
    >>> garray.apply_along_axis(garray.sum, 1, x)
    array([ 3., 12.])

    Parameters
    ----------
    func1d : callable
        Called with each 1-d slice (a garray view), then args and kwargs.
    axis : int
        The axis the slices run along.
    arr : ndarray
        Input array.
    *args : any
        Extra positional arguments of func1d.
    **kwargs : any
        Extra keyword arguments of func1d.

    Returns
    -------
    ndarray
        The results stacked in place of axis.

    See Also
    --------
    numpy.apply_along_axis
    """
    a = as_array(arr, "arr")
    nd = a.ndim
    if nd == 0:
        import numpy
        raise numpy.exceptions.AxisError("axis: apply_along_axis needs an array with "
                                         "at least one dimension")
    axis = normalize_axis(axis, nd)
    outer = a.shape[:axis] + a.shape[axis + 1:]
    if 0 in outer:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    moved = permute_dims(a, tuple(i for i in range(nd) if i != axis) + (axis,))
    results = []
    for idx in itertools.product(*(range(n) for n in outer)):
        r = func1d(moved[idx], *args, **kwargs)
        results.append(r if isinstance(r, ndarray) else asarray(r, device=a.device))
    res_shape = results[0].shape
    for r in results[1:]:
        if r.shape != res_shape:
            raise ValueError(f"apply_along_axis: func1d gave results of shapes {res_shape} "
                             f"and {r.shape}; they must all have one shape")
    out = stack(results).reshape(outer + res_shape)
    # The result's own axes go where ``axis`` was (NumPy's layout).
    n_outer, n_res = len(outer), len(res_shape)
    perm = (tuple(range(axis)) + tuple(range(n_outer, n_outer + n_res))
            + tuple(range(axis, n_outer)))
    return permute_dims(out, perm)


def _call_with_axis(func, a, axis):
    """func(a, axis), or func(a, axis=axis) for the Array API's functions, whose axis is
    keyword-only (garray.sum ...), where NumPy's take it by position."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return func(a, axis)
    by_position = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD,
                                                   p.VAR_POSITIONAL)]
    if len(by_position) < 2 and any(p.name == "axis" for p in params):
        return func(a, axis=axis)
    return func(a, axis)


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` over each axis in turn; a result with one dimension less gets
    it back (length 1), so the result keeps a's ndim.

    >>> garray.apply_over_axes(garray.sum, garray.ones((2, 3, 4)), [0, 2]).shape
    (1, 3, 1)

    Parameters
    ----------
    func : callable
        Called as func(a, axis) (with axis= for garray's keyword-only functions).
    a : ndarray
        Input array.
    axes : int or sequence of int
        The axes, in turn.

    Returns
    -------
    ndarray
        Of a's ndim.

    See Also
    --------
    numpy.apply_over_axes
    """
    val = as_array(a, "a")
    nd = val.ndim
    for axis in ([axes] if not isinstance(axes, (list, tuple)) else axes):
        ax = normalize_axis(axis, nd, "axes")
        res = _call_with_axis(func, val, ax)
        if not isinstance(res, ndarray):
            res = asarray(res, device=val.device)
        if res.ndim == nd:
            val = res
        else:
            res = expand_dims(res, axis=ax)
            if res.ndim != nd:
                raise ValueError("function is not returning an array of the correct shape")
            val = res
    return val


def fromfunction(function, shape, *, dtype=float, device=None, **kwargs):
    """``function(*coords, **kwargs)`` where ``coords[i]`` holds each element's index
    along axis i (arrays of ``shape`` and ``dtype``, made on the device).

    >>> garray.fromfunction(lambda i, j: i + j, (2, 3), dtype=int)
    array([[0, 1, 2],
           [1, 2, 3]])

    Parameters
    ----------
    function : callable
        Called with one index array per axis, and kwargs.
    shape : tuple of int
        The result's shape.
    dtype : dtype, optional
        The index arrays' dtype (float64 by default).
    device : Device or str, optional
        Where the result lives (the current device by default).
    **kwargs : any
        Passed to function.

    Returns
    -------
    any
        What function returns.

    See Also
    --------
    numpy.fromfunction
    """
    shape = tuple(operator.index(n) for n in ((shape,) if not isinstance(shape, (tuple, list))
                                               else shape))
    nd = len(shape)
    coords = []
    for i, n in enumerate(shape):
        axis = arange(n, dtype=dtype, device=device).reshape(
            tuple(n if k == i else 1 for k in range(nd)))
        coords.append(broadcast_to(axis, shape).copy())
    return function(*coords, **kwargs)


def _conditions(condlist, x):
    """``condlist`` as one bool array, a condition per leading index (NumPy's rules: a
    lone condition is promoted to a list of one)."""
    import numpy
    if isinstance(condlist, ndarray):
        # NumPy's test reads condlist[0]: a scalar for a 1-d array, an array beyond
        if condlist.ndim == 0 or (condlist.ndim == 1 and x.ndim != 0):
            condlist = condlist[None]
        return condlist.astype(numpy.bool_)
    if isscalar(condlist) or (not isinstance(condlist[0], (list, ndarray))
                              and x.ndim != 0):
        condlist = [condlist]
    conds = [as_array(c, "condlist", device=x.device).astype(numpy.bool_) for c in condlist]
    return stack(conds) if conds else asarray([], dtype=numpy.bool_, device=x.device)


def piecewise(x, condlist, funclist, *args, **kw):
    """A function defined piece by piece: where ``condlist[i]`` holds, ``funclist[i]``
    applied to those elements of ``x`` (or the value ``funclist[i]`` itself); one extra
    function is the default where no condition holds.  Later pieces win where conditions
    overlap, as NumPy's.

    Each function runs once on the host with the selected elements (a 1-d garray array
    on x's device); the selection and the writes are garray's masked indexing.

    Parameters
    ----------
    x : ndarray or scalar
        The domain.
    condlist : sequence of bool arrays, or a bool array
        One condition per piece, each of x's shape (a lone condition is one piece).
    funclist : sequence of callables or scalars
        One per condition, plus an optional default.
    *args, **kw : any
        Passed to every callable.

    Returns
    -------
    ndarray
        Of x's shape and dtype; zero where no piece applies.

    Raises
    ------
    ValueError
        When ``funclist`` has neither as many entries as ``condlist`` nor one more.

    See Also
    --------
    numpy.piecewise
    """
    x = as_array(x, "x")
    n2 = len(funclist)
    conds = _conditions(condlist, x)
    n = conds.shape[0]
    if n == n2 - 1:      # the default piece: where no condition holds
        conds = concat((conds, ~any_(conds, axis=0, keepdims=True)), axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are "
                         f"expected")
    y = zeros_like(x)
    for i, func in enumerate(funclist):
        cond = conds[i]
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


class broadcast:  # noqa: N801 - NumPy's name
    """The broadcast of its arguments (arrays or scalars): ``shape``, ``ndim``/``nd``,
    ``size``, ``numiter``, and iteration over tuples of the broadcast elements (each
    read from the device; a host loop, slow on large arrays, as NumPy's is).

    Example:
        >>> garray.broadcast(garray.ones(3), garray.ones((2, 1))).shape
        (2, 3)

    Parameters
    ----------
    *args : ndarray or scalar
        The arguments to broadcast.

    See Also
    --------
    numpy.broadcast
    """

    def __init__(self, *args):
        self._arrays = [as_array(a, f"args[{i}]") for i, a in enumerate(args)]
        try:
            self.shape = broadcast_shapes(*(a.shape for a in self._arrays))
        except ValueError as e:
            raise ValueError(f"shape mismatch: objects cannot be broadcast to a single "
                             f"shape ({e})") from None
        self.index = 0

    @property
    def ndim(self):
        return len(self.shape)

    nd = ndim

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def numiter(self):
        return len(self._arrays)

    def reset(self):
        """Go back to the first element.

        Returns
        -------
        None
        """
        self.index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= self.size:
            raise StopIteration
        idx, rest = [], self.index
        for n in reversed(self.shape):
            idx.append(rest % n)
            rest //= n
        idx.reverse()
        self.index += 1
        out = []
        for a in self._arrays:
            own = idx[len(idx) - a.ndim:] if a.ndim else []
            own = tuple(0 if a.shape[k] == 1 else v for k, v in enumerate(own))
            out.append(a[own].get()[()])
        return tuple(out)
