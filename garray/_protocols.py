"""NumPy's dispatch protocols on ``garray.ndarray``: NEP 13 (``__array_ufunc__``) and
NEP 18 (``__array_function__``).

Note [NumPy protocols]
~~~~~~~~~~~~~~~~~~~~~~
Code written for NumPy calls ``numpy.sum(x)``, ``numpy.concatenate([a, b])`` or
``numpy.add(x, 1)``; libraries built on NumPy (Dask above all) call NumPy's functions on
whatever chunks they hold.  With these two methods such calls run garray's own function
on garray's device, as CuPy's arrays do:

- ``numpy.<f>(..., garray arrays ...)`` goes to the garray function of the same name in
  the matching namespace (``numpy`` -> ``garray``, ``numpy.linalg`` -> ``garray.linalg``,
  ``numpy.fft`` -> ``garray.fft``, ``numpy.lib.stride_tricks`` ->
  ``garray.lib.stride_tricks``), with the same arguments.  NumPy strips ``like=`` before
  it dispatches, so ``numpy.asarray(obj, like=g)`` and ``numpy.empty(shape, like=g)``
  build garray arrays (Dask makes its chunks this way).
- ``numpy.<ufunc>(...)`` and its ``reduce``/``accumulate``/``outer`` go to garray's ufunc
  of that name; ``out=`` must hold garray arrays (garray never writes into host memory).
- A function or ufunc method garray does not have is a ``TypeError`` naming it: never a
  silent round trip through NumPy on the host (the whole point of an array on a GPU).
  The same when garray's name resolves to NumPy's own function, which would dispatch back
  here forever.
- Operands of a type garray does not know (another array library's) make both methods
  return ``NotImplemented``, so NumPy offers the call to that library, as NEP 13/18 ask.

garray's own operators do not come here: ``g + 1`` is the ndarray slot.  A NumPy array
next to a garray array (``numpy_array + g``, ``numpy.add(g, numpy_array)``) reaches
``__array_ufunc__`` and is refused with a TypeError saying how to copy it, as garray's
functions refuse NumPy arrays (and CuPy does): no host array crosses to a device unseen.
``numpy.asarray(g)`` is not
a dispatched call: it still copies to the host through ``__array__`` under
``GARRAY_IMPLICIT_TRANSFER``'s rules.
"""

import numbers
import threading

import numpy

import garray   # the namespace NumPy's names are looked up in, at call time

# NumPy's public module of a dispatched function -> garray's module of the same names.
_NAMESPACES = {
    "numpy": "garray",
    "numpy.linalg": "garray.linalg",
    "numpy.fft": "garray.fft",
    "numpy.lib.stride_tricks": "garray.lib.stride_tricks",
}

# NumPy names whose garray function has another name: numpy.round takes ``decimals``, as
# garray.around does; garray.round is the Array API's (no decimals).
_RENAMED = {("numpy", "round"): "around"}

_lock = threading.Lock()
_functions = {}          # NumPy function -> garray's function (or None: garray lacks it)


def _known(t):
    """Whether garray takes an operand of type t (else the other library should)."""
    from garray._core import ndarray   # here: the core imports this module while it loads
    return (issubclass(t, (ndarray, numpy.ndarray, numpy.generic, numbers.Number,
                           list, tuple, str))
            or t is type(None))


def _garray_function(func):
    """garray's function for the NumPy function ``func``; None when garray lacks it."""
    try:
        return _functions[func]
    except KeyError:
        pass
    import importlib
    impl = None
    target = _NAMESPACES.get(getattr(func, "__module__", None) or "")
    name = getattr(func, "__name__", None)
    name = _RENAMED.get((getattr(func, "__module__", None), name), name)
    if target is not None and name:
        impl = getattr(importlib.import_module(target), name, None)
        # NumPy's own function, re-exported, would dispatch back here: treat it as absent.
        if impl is func or getattr(impl, "_implementation", None) is not None:
            impl = None
    with _lock:
        _functions[func] = impl
    return impl


def _qualname(func):
    return f"{getattr(func, '__module__', None) or 'numpy'}.{getattr(func, '__name__', func)}"


def array_function(self, func, types, args, kwargs):
    """``ndarray.__array_function__``: run garray's function for NumPy's ``func``."""
    from garray._core import ndarray   # here: the core imports this module while it loads
    for t in types:
        if not issubclass(t, (ndarray, numpy.ndarray)):
            return NotImplemented
    impl = _garray_function(func)
    if impl is None:
        raise TypeError(
            f"{_qualname(func)} is not implemented by garray (called with a garray.ndarray "
            f"on {self.device}); garray does not copy to the host behind your back: use "
            f"garray.asnumpy() explicitly if a NumPy computation is wanted")
    return impl(*args, **kwargs)


def array_ufunc(self, ufunc, method, inputs, kwargs):
    """``ndarray.__array_ufunc__``: run garray's ufunc (or method) for NumPy's ``ufunc``."""
    from garray._core import ndarray   # here: the core imports this module while it loads
    out = kwargs.get("out")
    for x in inputs + (out or ()):
        if not _known(type(x)):
            return NotImplemented
    name = ufunc.__name__
    if out is not None:
        for o in out:
            if not isinstance(o, ndarray):
                raise TypeError(
                    f"numpy.{name}: out= holds a {type(o).__module__}.{type(o).__name__}; "
                    "garray writes results only into garray arrays (out= of garray.ndarray)")
        kwargs = dict(kwargs, out=out[0] if len(out) == 1 else out)
    impl = getattr(garray, name, None)
    if impl is None or getattr(impl, "_implementation", None) is not None \
            or isinstance(impl, numpy.ufunc):
        raise TypeError(f"numpy.{name} is not implemented by garray (called with a "
                        f"garray.ndarray on {self.device})")
    if method != "__call__":
        impl = getattr(impl, method, None) if isinstance(impl, garray.ufunc) else None
        if impl is None:
            raise TypeError(f"numpy.{name}.{method} is not implemented by garray (called "
                            f"with a garray.ndarray on {self.device})")
    # A NumPy array operand is refused, as garray's own functions refuse it: no host
    # array crosses to a device unseen (garray.asarray copies it explicitly).
    # A 0-d one is a NumPy scalar (NumPy makes one of numpy.int64(3) in ``3 < g``).
    if any(isinstance(x, numpy.ndarray) for x in inputs):
        inputs = tuple(x[()] if isinstance(x, numpy.ndarray) and x.ndim == 0 else x
                       for x in inputs)
        for k, x in enumerate(inputs):
            if isinstance(x, numpy.ndarray):
                _refuse_host(name, f"operand {k}")
    where = kwargs.get("where", True)
    if isinstance(where, numpy.ndarray):
        _refuse_host(name, "where=")
    # every keyword (where=, dtype=, casting=, order=, subok=, signature=) is garray's
    # ufunc's own (Note [ufunc keywords] in garray/_elementwise/keywords.py)
    return impl(*inputs, **kwargs)


def _refuse_host(name, what):
    raise TypeError(f"numpy.{name}: {what} is a numpy.ndarray next to a garray.ndarray; "
                    "garray does not copy host arrays to a device implicitly: use "
                    "garray.asarray(...) (or garray.asnumpy(...) for a NumPy result)")
