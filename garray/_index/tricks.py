"""NumPy's index tricks: ``mgrid``, ``ogrid``, ``r_``, ``c_``, ``s_`` and ``index_exp``.

They are objects indexed with slices (``garray.mgrid[0:2, 0:3]``), not functions.  The
arrays they build are made on the current device by garray's own ``indices``,
``arange``, ``linspace`` and ``concatenate``.
"""

import math
import operator

import numpy

from .._core import ndarray

__all__ = ["mgrid", "ogrid", "r_", "c_", "s_", "index_exp"]


def _namespace():
    import garray   # here: garray imports this module while it loads
    return garray


def _parts(sl, what):
    """(start, stop, step, points) of a grid slice; ``points`` is the number of points of
    a complex step (``0:1:5j``, linspace's num, the stop included), else None."""
    if not isinstance(sl, slice):
        raise TypeError(f"{what}: expected slices (start:stop:step), got "
                        f"{type(sl).__name__}")
    start = 0 if sl.start is None else sl.start
    step = 1 if sl.step is None else sl.step
    if sl.stop is None:
        raise TypeError(f"{what}: a slice needs a stop, got {sl!r}")
    for v, name in ((start, "start"), (sl.stop, "stop"), (step, "step")):
        if not isinstance(v, (int, float, complex, numpy.number)) or isinstance(v, bool):
            raise TypeError(f"{what}: slice {name} must be a number, got {type(v).__name__}")
    if isinstance(step, (complex, numpy.complexfloating)):
        return start, sl.stop, step, int(abs(step))
    return start, sl.stop, step, None


class _Grid:
    """``mgrid`` (dense, ``sparse=False``) and ``ogrid`` (open: one broadcastable
    array per axis).

    Parameters
    ----------
    sparse : bool
        Open (``ogrid``) instead of dense (``mgrid``).
    """

    def __init__(self, sparse):
        self.sparse = sparse
        self._name = "ogrid" if sparse else "mgrid"

    def __getitem__(self, key):
        ga = _namespace()
        if isinstance(key, slice):             # one axis: a 1-d range
            start, stop, step, points = _parts(key, self._name)
            if points is None:
                return ga.arange(start, stop, step)
            dt = numpy.result_type(start, stop, abs(step))
            scale = (stop - start) / float(points - 1) if points != 1 else 1
            return ga.arange(0, points, 1, dtype=dt) * scale + start
        if not isinstance(key, tuple):
            raise TypeError(f"{self._name}: expected slices (start:stop:step), got "
                            f"{type(key).__name__}")
        parts = [_parts(sl, self._name) for sl in key]
        sizes, values = [], [0]
        for start, stop, step, points in parts:
            if points is not None:
                sizes.append(points)
                values += [start, stop, abs(step)]
            else:
                sizes.append(max(math.ceil((stop - start) / step), 0))
                values += [start, stop, step]
        dt = numpy.result_type(*values)
        grids = ([ga.arange(n, dtype=dt) for n in sizes] if self.sparse
                 else list(ga.indices(sizes, dtype=dt)))
        out = []
        for k, (g, (start, stop, step, points)) in enumerate(zip(grids, parts)):
            if points is not None:
                step = (stop - start) / float(points - 1) if points != 1 else 1
            g = g * step + start
            if self.sparse:
                g = g.reshape((1,) * k + (sizes[k],) + (1,) * (len(sizes) - k - 1))
            out.append(g)
        return tuple(out) if self.sparse else ga.stack(out)

    def __len__(self):
        return 0

    def __repr__(self):
        return f"garray.{self._name}"


class _Concatenator:
    """``r_`` and ``c_``: concatenate slices (as ranges), scalars and arrays along an
    axis, with NumPy's string directives (``'0,2,1'``: axis, minimum dimensions, where a
    1-d item's axis goes).

    Parameters
    ----------
    name : str
        ``'r_'`` or ``'c_'``, for messages.
    axis : int
        The concatenation axis.
    ndmin : int
        Each item is made at least this many dimensions.
    trans1d : int
        Where an item's own axes go when it is raised to ndmin (-1: last).
    """

    def __init__(self, name, axis, ndmin, trans1d):
        self._name, self.axis, self.ndmin, self.trans1d = name, axis, ndmin, trans1d

    def _directive(self, item, axis, ndmin, trans1d):
        if item in ("r", "c"):
            raise NotImplementedError(f"{self._name}: the {item!r} directive makes a "
                                      f"numpy.matrix, which garray does not have")
        try:
            vec = [int(x) for x in item.split(",")]
        except ValueError:
            raise ValueError(f"{self._name}: unknown special directive {item!r}") from None
        if not 1 <= len(vec) <= 3:
            raise ValueError(f"{self._name}: unknown special directive {item!r}")
        axis = vec[0]
        if len(vec) > 1:
            ndmin = vec[1]
        if len(vec) > 2:
            trans1d = vec[2]
        return axis, ndmin, trans1d

    def __getitem__(self, key):
        ga = _namespace()
        if isinstance(key, str):
            raise NotImplementedError(f"{self._name}: a string alone builds a numpy.matrix "
                                      f"(bmat syntax), which garray does not have")
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError(f"{self._name}: special directives must be the first "
                                     f"entry")
                axis, ndmin, trans1d = self._directive(item, axis, ndmin, trans1d)
                continue
            if isinstance(item, slice):
                start, stop, step, points = _parts(item, self._name)
                obj = (ga.linspace(start, stop, num=points) if points is not None
                       else ga.arange(start, stop, step))
                if ndmin > 1:
                    obj = ga.array(obj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        obj = ga.swapaxes(obj, -1, trans1d)
                kinds.append(obj)
            elif isinstance(item, (bool, int, float, complex, numpy.generic)):
                obj = item
                kinds.append(item)               # weak when a Python scalar, as NumPy
            else:
                nd = numpy.ndim(item) if not isinstance(item, ndarray) else item.ndim
                obj = ga.array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and nd < ndmin:
                    k2, k1 = ndmin - nd, trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    axes = list(range(ndmin))
                    obj = ga.permute_dims(obj, axes[:k1] + axes[k2:] + axes[k1:k2])
                kinds.append(obj)
            objs.append(obj)
        if not objs:
            return ga.concatenate((), axis=axis)
        dt = ga.result_type(*kinds)
        objs = [ga.array(o, copy=None, ndmin=ndmin, dtype=dt) for o in objs]
        return ga.concatenate(tuple(objs), axis=operator.index(axis))

    def __len__(self):
        return 0

    def __repr__(self):
        return f"garray.{self._name}"


class _IndexExpression:
    """``s_`` and ``index_exp``: the index written between the brackets, as an object
    (``garray.s_[1:3, ::2]`` is ``(slice(1, 3), slice(None, None, 2))``).

    Parameters
    ----------
    maketuple : bool
        Always give a tuple (``index_exp``).
    """

    def __init__(self, maketuple):
        self.maketuple = maketuple

    def __getitem__(self, item):
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)
r_ = _Concatenator("r_", axis=0, ndmin=1, trans1d=-1)
c_ = _Concatenator("c_", axis=-1, ndmin=2, trans1d=0)
s_ = _IndexExpression(maketuple=False)
index_exp = _IndexExpression(maketuple=True)
