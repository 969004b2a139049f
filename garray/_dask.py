"""Dask integration: garray arrays as Dask chunks, and the ``garray`` array backend.

``dask.config.set({"array.backend": "garray"})`` makes ``da.ones``, ``da.zeros``,
``da.empty``, ``da.full``, ``da.arange`` and ``da.random`` build garray chunks (the
``dask.array.backends`` entry point ``garray`` names ``GarrayBackendEntrypoint``);
``da.from_array(garray_array, chunks=...)`` splits a garray array.  The registrations
Dask needs for a chunk type (``_register_array``) run when garray and ``dask.array``
are both imported (``garray/_dask_hook.py``).  Importing this module imports Dask.
See docs/dask.md.
"""

from ._dtypes import kind_of as _kind_of
import math
import threading

import numpy

import dask.array as da
from dask.array import chunk_types
from dask.array.backends import ArrayBackendEntrypoint
from dask.array.core import Array, normalize_chunks
from dask.array.dispatch import (concatenate_lookup, divide_lookup, einsum_lookup,
                                 empty_lookup, nannumel_lookup, numel_lookup,
                                 percentile_lookup, take_lookup, tensordot_lookup,
                                 to_numpy_dispatch)
from dask.array.wrap import wrap_func_shape_as_first_arg
from dask.base import tokenize
from dask.utils import Dispatch

import garray
from ._core import ndarray

__all__ = ["GarrayBackendEntrypoint", "register", "to_garray_dispatch"]

# Moves one chunk to garray (``Array.to_backend("garray")``): NumPy arrays are copied to
# the current garray device (``garray.asarray(chunk, **kwargs)``, e.g. ``device=``);
# garray arrays are returned as they are, or moved with ``device=``.
to_garray_dispatch = Dispatch("to_garray_dispatch")


_registered = False
_register_lock = threading.Lock()


def register():
    """Register garray with Dask: ``dask.sizeof`` and ``dask.array``'s chunk registry
    and dispatch tables.

    Runs by itself when garray and ``dask.array`` are both imported (in either order),
    so users never call it; it is idempotent and thread-safe.

    Returns
    -------
    None

    Examples
    --------
    >>> import garray._dask
    >>> garray._dask.register()
    """
    global _registered
    with _register_lock:
        if not _registered:
            _register_array()
            _registered = True


# ---- dispatch implementations (each calls garray directly, never a NumPy function) ----

def _concatenate(arrays, axis=0):
    return garray.concatenate(list(arrays), axis=axis)


def _divide(a, b, dtype=None):
    # NumPy's divide(a, b, dtype=d) computes in d: cast the array operands first.
    if dtype is not None:
        a = a.astype(dtype, copy=False) if isinstance(a, ndarray) else a
        b = b.astype(dtype, copy=False) if isinstance(b, ndarray) else b
        r = garray.divide(a, b)
        return r.astype(dtype, copy=False) if isinstance(r, ndarray) else r
    return garray.divide(a, b)


def _percentile(a, q, method="linear"):
    """Dask's per-chunk percentile (``dask.array.percentile``'s ``percentile_lookup``):
    (percentiles of the chunk, chunk length); non-numeric chunks use 'nearest'."""
    n = len(a)
    if not n:
        return None, n
    if _kind_of(a.dtype) not in "iufc":
        method = "nearest"
    q = garray.asarray(numpy.asarray(q, dtype=numpy.float64), device=a.device)
    return garray.percentile(a, q, method=method), n


def _numel(x, **kwargs):
    """Elements per reduced cell, as a garray array on ``x``'s device (Dask's
    ``numel_lookup``, used by mean/var/std); a NumPy scalar when everything is reduced
    without keepdims, as Dask gives for NumPy."""
    shape = x.shape
    keepdims = kwargs.get("keepdims", False)
    axis = kwargs.get("axis")
    dtype = kwargs.get("dtype", numpy.float64)
    if axis is None:
        prod = numpy.prod(shape, dtype=dtype)
        if not keepdims:
            return prod
        return garray.full((1,) * len(shape), prod, dtype=dtype, device=x.device)
    if not isinstance(axis, (tuple, list)):
        axis = [axis]
    axis = [a % len(shape) if len(shape) else a for a in axis]
    prod = math.prod(shape[d] for d in axis)
    if keepdims:
        new_shape = tuple(1 if d in axis else shape[d] for d in range(len(shape)))
    else:
        new_shape = tuple(shape[d] for d in range(len(shape)) if d not in axis)
    return garray.full(new_shape, prod, dtype=dtype, device=x.device)


def _nannumel(x, **kwargs):
    """Non-NaN elements per reduced cell (Dask's ``nannumel_lookup``: nanmean ...)."""
    return garray.sum(garray.logical_not(garray.isnan(x)), **kwargs)


def _to_numpy(data, **kwargs):
    return garray.asnumpy(data)


def _numpy_to_garray(data, **kwargs):
    return garray.asarray(data, **kwargs)


def _garray_to_garray(data, device=None, **kwargs):
    if kwargs:
        raise TypeError(f"to_backend('garray'): unexpected arguments {sorted(kwargs)}")
    return data if device is None else data.to_device(device)


def _register_array():
    """The registrations Dask needs for a chunk type (called once, by ``register``)."""
    if not any(t is ndarray for t in chunk_types._HANDLED_CHUNK_TYPES):
        da.register_chunk_type(ndarray)
    concatenate_lookup.register(ndarray, _concatenate)
    take_lookup.register(ndarray, garray.take)
    tensordot_lookup.register(ndarray, garray.tensordot)
    einsum_lookup.register(ndarray, garray.einsum)
    empty_lookup.register(ndarray, garray.empty)
    divide_lookup.register(ndarray, _divide)
    percentile_lookup.register(ndarray, _percentile)
    numel_lookup.register(ndarray, _numel)
    nannumel_lookup.register(ndarray, _nannumel)
    to_numpy_dispatch.register(ndarray, _to_numpy)
    to_garray_dispatch.register(numpy.ndarray, _numpy_to_garray)
    to_garray_dispatch.register(ndarray, _garray_to_garray)


# ---- creation --------------------------------------------------------------------------

def _meta(ndim, dtype):
    return garray.empty((0,) * ndim, dtype=dtype)


def _uniform_chunk(fill, shape, dtype=None, order="C", fill_value=None):
    """One chunk of a uniform array: one element broadcast to ``shape`` (a read-only
    view, as Dask's NumPy backend gives: the chunk holds one element, not its size)."""
    one = () if shape == () else (1,) * len(shape)
    if fill == "full":
        base = garray.full(one, fill_value, dtype=dtype, order=order)
    else:
        base = getattr(garray, fill)(one, dtype=dtype, order=order)
    return garray.broadcast_to(base, shape)


def _uniform(fill, shape, dtype, chunks, name, order, meta, fill_value=None):
    if isinstance(shape, Array):
        raise TypeError(f"{fill}: Dask array input not supported as shape; use a tuple, "
                        "a list, or a 1-d NumPy array")
    if meta is not None and not isinstance(meta, ndarray) and not isinstance(
            meta, numpy.ndarray):
        raise TypeError(f"{fill}: meta must be a garray or NumPy array, got "
                        f"{type(meta).__name__}")
    kw = {"order": order}
    if fill == "full":
        kw["fill_value"] = fill_value
    x = wrap_func_shape_as_first_arg(
        _Uniform(fill), shape, dtype=dtype, chunks=chunks, name=name, **kw)
    # The graph's tasks do not carry the meta (an array would travel with every task and
    # be rebuilt on the device it was made on): only the collection holds it.
    return Array(x.dask, x.name, x.chunks, meta=_meta(x.ndim, x.dtype))


class _Uniform:
    """Picklable chunk builder for ones/zeros/empty/full (a named class, so task keys
    and graphs print its name)."""

    def __init__(self, fill):
        self.fill = fill
        self.__name__ = f"garray_{fill}"

    def __call__(self, shape, dtype=None, order="C", fill_value=None):
        return _uniform_chunk(self.fill, tuple(shape), dtype, order, fill_value)

    def __reduce__(self):
        return _Uniform, (self.fill,)

    def __dask_tokenize__(self):
        return ("garray._dask._Uniform", self.fill)


def _arange_chunk(start, stop, step, length, dtype):
    r = garray.arange(start, stop, step, dtype=dtype)
    return r[:length] if len(r) > length else r


class GarrayBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask's array backend ``"garray"``: creation functions that build garray chunks.

    Selected with ``dask.config.set({"array.backend": "garray"})`` (Dask finds it through
    the ``dask.array.backends`` entry point ``garray``).  ``da.ones``, ``da.zeros``,
    ``da.empty``, ``da.full``, ``da.arange``, ``da.random.default_rng`` and
    ``da.random.RandomState`` then give arrays whose chunks are ``garray.ndarray``,
    built when the task runs, on the current garray device of the process that runs
    it (a Dask worker's ``GARRAY_DEVICE``).  Random streams are garray's (Philox), not
    NumPy's: each distribution matches NumPy's in law.

    Examples
    --------
    >>> import dask, dask.array as da, garray
    >>> with dask.config.set({"array.backend": "garray"}):
    ...     x = da.ones((4, 4), chunks=2)
    >>> isinstance(x.compute(), garray.ndarray)
    True
    """

    def __init__(self):
        register()

    @classmethod
    def to_backend_dispatch(cls):
        """The dispatch that moves one chunk to garray.

        Returns
        -------
        dask.utils.Dispatch
            ``to_garray_dispatch``: NumPy chunks go through ``garray.asarray(chunk,
            **kwargs)``, garray chunks stay (or move with ``device=``).
        """
        return to_garray_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        """``data`` with garray chunks (``Array.to_backend("garray")``).

        Parameters
        ----------
        data : dask.array.Array
            Any Dask array whose chunks ``to_garray_dispatch`` takes (NumPy or garray).
        **kwargs
            Passed to each chunk's conversion, e.g. ``device="cuda:1"``.

        Returns
        -------
        dask.array.Array
            ``data`` itself when its chunks are garray arrays and no keyword is given,
            else ``data.map_blocks(to_garray_dispatch, **kwargs)``.
        """
        if isinstance(data._meta, ndarray) and not kwargs:
            return data
        return data.map_blocks(cls.to_backend_dispatch(), **kwargs)

    @property
    def RandomState(self):
        """``garray.random.RandomState``: ``da.random.RandomState`` seeds one per chunk."""
        return garray.random.RandomState

    @property
    def default_bit_generator(self):
        """``garray.random.Philox``: ``da.random.default_rng`` spawns one per chunk."""
        return garray.random.Philox

    @staticmethod
    def ones(shape, *, dtype=None, meta=None, chunks="auto", name=None, order="C"):
        """A Dask array of ones with garray chunks (``da.ones`` under this backend).

        Parameters
        ----------
        shape : int or tuple of ints
            The array's shape.
        dtype : dtype, optional
            Any of garray's dtypes; float64 by default.
        meta : garray.ndarray or numpy.ndarray, optional
            Accepted for Dask's signature; the chunks are garray arrays either way.
        chunks : int, tuple, dict or "auto", optional
            Dask's chunk specification.
        name : str, optional
            The graph's key name (a token of the arguments by default).
        order : {"C", "F"}, optional
            Each chunk's memory order.

        Returns
        -------
        dask.array.Array
            Chunks built when their task runs, on that process's current garray device;
            each is one element broadcast to the chunk's shape (read-only).
        """
        return _uniform("ones", shape, "f8" if dtype is None else dtype, chunks, name,
                        order, meta)

    @staticmethod
    def zeros(shape, *, dtype=None, meta=None, chunks="auto", name=None, order="C"):
        """A Dask array of zeros with garray chunks (``da.zeros`` under this backend).

        Parameters and result as ``ones``.
        """
        return _uniform("zeros", shape, "f8" if dtype is None else dtype, chunks, name,
                        order, meta)

    @staticmethod
    def empty(shape, *, dtype=None, meta=None, chunks="auto", name=None, order="C"):
        """An uninitialised Dask array with garray chunks (``da.empty`` under this
        backend).

        Parameters and result as ``ones``; the values are whatever one element of
        garray memory held.
        """
        return _uniform("empty", shape, "f8" if dtype is None else dtype, chunks, name,
                        order, meta)

    @staticmethod
    def full(shape=None, fill_value=None, *, dtype=None, meta=None, chunks="auto",
             name=None, order="C"):
        """A Dask array filled with ``fill_value``, garray chunks (``da.full``).

        Parameters
        ----------
        shape : int or tuple of ints
            The array's shape (``da.full`` passes it by keyword).
        fill_value : scalar
            The value; an array raises ``ValueError``, as Dask's NumPy backend does.
        dtype : dtype, optional
            ``fill_value``'s dtype by default (``da.full`` has set it already).
        meta, chunks, name, order
            As ``ones``.

        Returns
        -------
        dask.array.Array
            As ``ones``.
        """
        if shape is None:
            raise TypeError("full: missing required argument 'shape'")
        if numpy.ndim(fill_value) != 0:
            raise ValueError(f"fill_value must be scalar. Received "
                             f"{type(fill_value).__name__} instead.")
        if dtype is None:
            dtype = getattr(fill_value, "dtype", type(fill_value))
        return _uniform("full", shape, dtype, chunks, name, order, meta,
                        fill_value=fill_value)

    @staticmethod
    def arange(start=None, /, stop=None, step=1, *, chunks="auto", like=None, dtype=None,
               meta=None):
        """Evenly spaced values in [start, stop), garray chunks (``da.arange``).

        Dask's block arithmetic (``dask.array.arange``: the same chunks and values);
        each chunk is one ``garray.arange`` call, so a chunk is never silently a NumPy
        array.

        Parameters
        ----------
        start, stop, step : int or float
            As ``numpy.arange`` (``arange(stop)``, ``arange(start, stop[, step])``).
        chunks : int, tuple or "auto", optional
            Dask's chunk specification.
        like, meta : optional
            Accepted for Dask's signature; the chunks are garray arrays either way.
        dtype : dtype, optional
            NumPy's ``arange`` dtype for these arguments by default.

        Returns
        -------
        dask.array.Array
            A 1-d array, chunks built on the current garray device of the process that
            runs each task.
        """
        if start is None and stop is None:
            raise TypeError("arange() requires stop to be specified.")
        if start is None:
            start = 0
        elif stop is None:
            start, stop = 0, start
        if step == 0:
            raise ValueError("arange: step must not be zero")
        # Dask's guard against losing precision in the block bounds for a large start
        if start != 0 and not numpy.isclose(start + step - start, step, atol=0):
            r = GarrayBackendEntrypoint.arange(0, stop - start, step, chunks=chunks,
                                               dtype=dtype)
            return r + start
        num = int(max(numpy.ceil((stop - start) / step), 0))
        if dtype is None:
            dtype = numpy.arange(type(start)(0), type(stop)(0), step).dtype
        dtype = numpy.dtype(dtype)
        chunks = normalize_chunks(chunks, (num,), dtype=dtype)
        name = "arange-garray-" + tokenize(start, stop, step, chunks, dtype)
        dsk = {}
        count = 0
        for i, bs in enumerate(chunks[0]):
            dsk[(name, i)] = (_arange_chunk, start + count * step,
                              start + (count + bs) * step, step, bs, dtype)
            count += bs
        return Array(dsk, name, chunks, meta=_meta(1, dtype))


# Whoever imports this module gets the registrations (``register`` is idempotent; when
# this import is what imported dask.array, the post-import hook left it to this line).
register()
