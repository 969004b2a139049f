"""``vectorize`` and ``frompyfunc``: a Python function applied element by element.

Note [host loops]
~~~~~~~~~~~~~~~~~
No kernel can run an arbitrary Python function, so both run NumPy's own element loop on
the host: the garray arguments are copied to the host (``garray.asnumpy``), NumPy's
``numpy.vectorize`` / ``numpy.frompyfunc`` calls the function per element (or per core
block, for a ``signature``), and the results are copied back as garray arrays
(``garray.asarray``) onto the arguments' device (all garray arguments on one device,
ValueError otherwise; the current device when none is a garray array).  Delegating the
loop keeps NumPy's rules exactly: broadcasting, output dtype inference from the first
element, ``otypes``, ``excluded``, ``cache``, ``signature`` and their errors.

What the function sees is what NumPy's gives it: Python scalars per element (``int``,
``float``, ``complex``, ``bool``), NumPy arrays (host views) per core block with a
signature, excluded arguments as they were passed.  What it returns may be a garray
array (``garray.sin(x)`` on a Python scalar gives a 0-d garray array): it is brought to
the host before NumPy stores it.  A NumPy array given as a vectorized argument is
refused, as by every garray function (Note [NumPy input] in garray/_args.py); excluded
arguments are passed through untouched.

garray arrays hold numbers: a result NumPy would hold as ``object`` or as strings is a
TypeError naming that dtype.  ``frompyfunc``'s results differ from NumPy's for that
reason (NumPy's are always ``object`` arrays): see ``frompyfunc``.  Both synchronise (the
inputs are read on the host) and run at Python speed: they are for convenience, not
performance, as NumPy's.
"""

from .._dtypes import kind_of as _kind_of
import functools

import numpy

from .. import _dtypes
from .._args import check_array, refuse_numpy
from .._core import asarray, asnumpy, ndarray

__all__ = ["vectorize", "frompyfunc"]

_NoValue = numpy._NoValue


# ---- host <-> device ----------------------------------------------------------------


def _to_host_result(r):
    """A function's return value with its garray arrays brought to the host (a 0-d array
    as a NumPy scalar, so that NumPy infers the same dtype from it)."""
    if isinstance(r, ndarray):
        h = asnumpy(r)
        return h[()] if h.ndim == 0 else h
    if type(r) is tuple:
        return tuple(_to_host_result(x) for x in r)
    return r


class _HostResults:
    """``func`` whose garray results come back as NumPy values (Note [host loops]); it
    carries ``func``'s name and docstring, and pickles where ``func`` does."""

    def __init__(self, func):
        self.func = func
        functools.update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        return _to_host_result(self.func(*args, **kwargs))


def _host_arg(x, where, devices):
    """A vectorized argument for NumPy's loop: garray arrays (nested in lists and tuples
    too) copied to the host, their devices noted in ``devices``; a NumPy array refused."""
    if isinstance(x, ndarray):
        devices.append(x.device)
        return asnumpy(x)
    if isinstance(x, numpy.ndarray):
        raise refuse_numpy(where)
    if type(x) in (list, tuple):
        return type(x)(_host_arg(e, where, devices) if isinstance(e, (ndarray, list, tuple))
                       else e for e in x)
    return x


def _one_device(devices, who):
    """The device of the garray arguments (None: the current one); ValueError when they
    are on different devices."""
    if not devices:
        return None
    first = devices[0]
    if any(d != first for d in devices[1:]):
        raise ValueError(f"{who}: arrays are on different devices "
                         f"{sorted({str(d) for d in devices})}")
    return first


def _unsupported(who, dt, why=""):
    return TypeError(f"{who}: the result has dtype {dt}, which garray arrays cannot hold "
                     f"(they hold bool, integers, floats and complex numbers){why}")


def _to_device(h, device, who):
    """A NumPy result as a garray array on ``device``; TypeError naming a dtype garray
    lacks (object, strings, datetimes ...)."""
    try:
        _dtypes.normalize_dtype(h.dtype)
    except TypeError:
        raise _unsupported(who, h.dtype) from None
    return asarray(h, device=device)


def _numbers(h, who):
    """frompyfunc's result (an object array, or the one object NumPy returns for scalar
    input) as a NumPy array of numbers: the dtype ``numpy.asarray`` gives the list of
    results; TypeError where the results are not all numbers."""
    obj = h.tolist() if isinstance(h, numpy.ndarray) else h
    shape = h.shape if isinstance(h, numpy.ndarray) else ()
    try:
        r = numpy.asarray(obj)
    except (ValueError, OverflowError, TypeError):
        r = None
    if r is None or r.shape != shape or _kind_of(r.dtype) not in "biufc":
        raise _unsupported(who, numpy.dtype(object),
                           "; NumPy's frompyfunc result is an object array of values "
                           "that are not all numbers")
    return r


# ---- vectorize ----------------------------------------------------------------------


class vectorize:
    """A function that takes garray arrays and applies ``pyfunc`` to each element (or
    each core block, with a ``signature``), broadcasting as NumPy's ``numpy.vectorize``.

    ``otypes`` (or the first element's result), ``excluded``, ``cache``, ``signature``
    and the decorator forms (``@garray.vectorize``, ``@garray.vectorize(otypes=[float])``)
    behave as NumPy's, which runs the loop on host copies of the arguments (Note [host
    loops] in garray/_elementwise/vectorize.py): ``pyfunc`` gets Python scalars, or NumPy
    arrays with a signature, and may return garray arrays.  The results are garray
    arrays on the arguments' device (the current device if no argument is a garray
    array); a result dtype garray lacks (object, strings) is a TypeError naming it.  A
    NumPy array given as a vectorized argument is refused (use ``garray.asarray``).

    >>> vadd = garray.vectorize(lambda a, b: a - b if a > b else a + b)
    >>> vadd(garray.asarray([1, 2, 3, 4]), 2)
    array([3, 4, 1, 2])

    Parameters
    ----------
    pyfunc : callable, optional
        A Python function or method.  Omitted: the object is a decorator taking the
        function (``@garray.vectorize(otypes=[float])``).
    otypes : str or list of dtypes, optional
        The output dtypes, one per output, as typecode characters or dtype specifiers;
        without them, the first element's results decide (and an empty input is a
        ValueError, as NumPy's).
    doc : str, optional
        The docstring of the vectorized function (default: ``pyfunc.__doc__``).
    excluded : set, optional
        Positions (ints) and keyword names (strs) of arguments passed to ``pyfunc``
        unchanged, not vectorized.
    cache : bool, optional
        Without ``otypes`` and ``signature``: keep the first element's result, so that
        ``pyfunc`` is not called on it twice.
    signature : str, optional
        A generalized-ufunc signature, e.g. ``"(n),(n)->()"``: ``pyfunc`` takes and
        returns NumPy arrays of the core dimensions; the loop dimensions broadcast.

    Returns
    -------
    vectorize
        The vectorized function (a decorator when ``pyfunc`` is omitted).

    See Also
    --------
    numpy.vectorize
    frompyfunc
    """

    def __init__(self, pyfunc=_NoValue, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if pyfunc is not _NoValue and not callable(pyfunc):
            raise TypeError("When used as a decorator, only accepts keyword arguments.")
        host = pyfunc if pyfunc is _NoValue else _HostResults(pyfunc)
        # NumPy's constructor validates (and normalises otypes) with its own errors
        self._impl = numpy.vectorize(host, otypes=otypes, doc=doc, excluded=excluded,
                                     cache=cache, signature=signature)
        self._pyfunc = pyfunc
        self._doc = doc
        if pyfunc is not _NoValue and hasattr(pyfunc, "__name__"):
            self.__name__ = pyfunc.__name__
        self.__doc__ = self._impl.__doc__

    # NumPy's public attributes, shared with the NumPy object that runs the loop (so
    # that ``v.excluded.add(0)`` works as in NumPy's documentation)
    @property
    def pyfunc(self):
        """The vectorized Python function (NumPy's ``_NoValue`` before a decorator got
        it)."""
        return self._pyfunc

    @pyfunc.setter
    def pyfunc(self, func):
        self._pyfunc = func
        self._impl.pyfunc = _HostResults(func) if callable(func) else func

    @property
    def otypes(self):
        """The output dtypes (None: inferred on each call)."""
        return self._impl.otypes

    @otypes.setter
    def otypes(self, value):
        self._impl.otypes = value

    @property
    def excluded(self):
        """The set of excluded argument positions and keyword names."""
        return self._impl.excluded

    @excluded.setter
    def excluded(self, value):
        self._impl.excluded = value

    @property
    def cache(self):
        """Whether the first element's result is kept (see the class docstring)."""
        return self._impl.cache

    @cache.setter
    def cache(self, value):
        self._impl.cache = value

    @property
    def signature(self):
        """The generalized-ufunc signature, or None."""
        return self._impl.signature

    def __repr__(self):
        name = getattr(self, "__name__", None) or "<decorator>"
        return f"<garray.vectorize {name}>"

    def __call__(self, *args, **kwargs):
        """Apply the function over the broadcast arguments (or, before a decorator got
        its function, take it: ``__call__(pyfunc)`` returns this object).

        Parameters
        ----------
        *args : ndarray or array_like
            Positional arguments: garray arrays, Python scalars and sequences, broadcast
            together; an excluded one is passed to the function as it is.
        **kwargs : ndarray or array_like
            Keyword arguments, vectorized as the positional ones unless their name is
            excluded.

        Returns
        -------
        ndarray or tuple of ndarray
            The results, garray arrays on the arguments' device: one array, or a tuple
            for a function with several outputs (a 0-d array for scalar arguments).
        """
        if self._pyfunc is _NoValue:
            # the decorator's second stage (NumPy's _init_stage_2)
            if not args:
                raise TypeError("vectorize: the decorator takes the function to vectorize")
            pyfunc = args[0]
            self.pyfunc = pyfunc
            self.__name__ = pyfunc.__name__
            self.__doc__ = pyfunc.__doc__ if self._doc is None else self._doc
            self._impl.__doc__ = self.__doc__
            return self
        who = f"vectorize({getattr(self, '__name__', '?')})"
        excluded = self._impl.excluded
        devices = []
        hargs = [a if i in excluded else _host_arg(a, f"{who}: argument {i}", devices)
                 for i, a in enumerate(args)]
        hkwargs = {k: v if k in excluded else _host_arg(v, f"{who}: {k}", devices)
                   for k, v in kwargs.items()}
        device = _one_device(devices, who)
        res = self._impl(*hargs, **hkwargs)
        if isinstance(res, tuple):
            return tuple(self._result(r, device, who) for r in res)
        return self._result(res, device, who)

    @staticmethod
    def _result(r, device, who):
        if isinstance(r, (numpy.ndarray, numpy.generic)):
            return _to_device(numpy.asarray(r), device, who)
        return r     # a call with no vectorized argument: pyfunc's own result, as NumPy


# ---- frompyfunc ---------------------------------------------------------------------


class _PyFuncUfunc:
    """What ``frompyfunc`` returns: ``func`` applied elementwise over broadcast
    arguments, with results as garray arrays of numbers (see ``frompyfunc``).

    Parameters
    ----------
    func : callable
        The Python function.
    nin : int
        Its number of inputs.
    nout : int
        Its number of outputs.
    identity : object, optional
        The ``identity`` attribute.
    """

    def __init__(self, func, nin, nout, identity=None):
        if isinstance(func, numpy.ndarray):
            raise refuse_numpy("frompyfunc: func")
        # NumPy's validation (callable func, integer nin/nout, at most 64 operands)
        self._ufunc = numpy.frompyfunc(_HostResults(func) if callable(func) else func,
                                       nin, nout, identity=identity)
        self.func = func
        self.nin = self._ufunc.nin
        self.nout = self._ufunc.nout
        self.nargs = self._ufunc.nargs
        self.identity = self._ufunc.identity
        self.__name__ = self._ufunc.__name__

    def __repr__(self):
        return f"<garray.frompyfunc {self.__name__!r}>"

    def __call__(self, *args, out=None):
        """Apply the function to each element of the broadcast inputs.

        Parameters
        ----------
        *args : ndarray or array_like
            The ``nin`` inputs (garray arrays, Python scalars or sequences), broadcast
            together; up to ``nout`` more positional arguments are outputs, as ``out``.
        out : ndarray or tuple of ndarray, optional
            garray arrays to write the results into (one per output; their shape the
            broadcast shape or one the inputs broadcast to), cast with the
            ``same_kind`` rule.

        Returns
        -------
        ndarray or tuple of ndarray
            The results as garray arrays of numbers on the inputs' device (a 0-d array
            for scalar inputs; a tuple for ``nout > 1``), or ``out``.
        """
        who = self.__name__
        nin, nout = self.nin, self.nout
        if 0 <= nin < len(args) <= nin + nout:
            if out is not None:
                raise TypeError(f"{who}: cannot specify 'out' as both a positional and "
                                f"keyword argument")
            out = args[nin:]
            args = args[:nin]
        devices = []
        hargs = [_host_arg(a, f"{who}: x{i + 1}", devices) for i, a in enumerate(args)]
        if out is None:
            device = _one_device(devices, who)
            res = self._ufunc(*hargs)
            if nout == 1:
                return _to_device(_numbers(res, who), device, who)
            return tuple(_to_device(_numbers(r, who), device, who) for r in res)
        outs = tuple(out) if isinstance(out, tuple) else (out,)
        if len(outs) > nout or (len(outs) < nout and not isinstance(out, tuple)):
            raise ValueError(f"{who}: out has {len(outs)} arrays; the function has "
                             f"{nout} outputs")
        outs += (None,) * (nout - len(outs))
        outs = tuple(None if o is None else check_array(o, f"{who}: out")
                     for o in outs)
        devices.extend(o.device for o in outs if o is not None)
        device = _one_device(devices, who)
        hout = tuple(None if o is None else numpy.empty(o.shape, dtype=object)
                     for o in outs)
        res = self._ufunc(*hargs, out=hout)
        res = res if nout > 1 else (res,)
        results = []
        for o, h in zip(outs, res):
            r = _numbers(h, who)
            if o is None:
                results.append(_to_device(r, device, who))
                continue
            if not _dtypes.can_cast(r.dtype, o.dtype, "same_kind"):
                raise TypeError(f"{who}: cannot cast the result from {r.dtype} to out's "
                                f"{o.dtype} with casting rule 'same_kind'")
            o[...] = asarray(r, device=o.device)
            results.append(o)
        return results[0] if nout == 1 else tuple(results)


def frompyfunc(func, /, nin, nout, *, identity=None):
    """A ufunc-like callable that applies the Python function ``func`` elementwise
    (NumPy's ``numpy.frompyfunc``).

    The loop is NumPy's, on host copies of the inputs (Note [host loops] in
    garray/_elementwise/vectorize.py): ``func`` gets Python scalars and may return garray
    arrays.  ``nin``, ``nout`` and ``func`` are validated by NumPy (TypeError for a
    non-callable ``func`` or non-integer counts, ValueError past 64 operands).

    Unlike NumPy, whose results are always ``object`` arrays (garray arrays cannot hold
    objects), the results are garray arrays of numbers: the dtype ``numpy.asarray`` gives
    the list of results (Python ints: int64, floats: float64, bools: bool, a mix: the
    promoted type; an empty result: float64).  Results that are not all numbers
    (``None``, strings, sequences) are a TypeError naming the ``object`` dtype.  The
    ufunc methods (``reduce``, ``accumulate``, ``outer``, ``at``) are not offered.

    >>> f = garray.frompyfunc(lambda x, y: x * 10 + y, 2, 1)
    >>> f(garray.asarray([1, 2]), 3)
    array([13, 23])

    Parameters
    ----------
    func : callable
        The Python function, of ``nin`` arguments, returning ``nout`` values (a tuple
        when ``nout > 1``).
    nin : int
        The number of inputs.
    nout : int
        The number of outputs.
    identity : object, optional
        The value of the result's ``identity`` attribute (NumPy's: for reductions).

    Returns
    -------
    callable
        An object with ``nin``, ``nout``, ``nargs``, ``identity`` and ``__name__``
        (``"<name> (vectorized)"``, as NumPy's) whose call returns garray arrays.

    See Also
    --------
    numpy.frompyfunc
    vectorize
    """
    return _PyFuncUfunc(func, nin, nout, identity=identity)
