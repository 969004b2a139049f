"""Sampling and permutations of ``Generator``: choice, permutation, permuted, shuffle.

Note [Permutations by sorted keys]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
1. A permutation of n items is the stable ``argsort`` (garray/_sort/sorting.py, a radix
   sort; ``argsort_random_keys``: passes over the top bits only, then the short groups
   of equal top bits sorted whole, the same result) of n raw 64-bit Philox words
   (``_draw.bits``).  Every step runs on the device, and the result is a pure function
   of (key, position, n): the same on every device, warp size and launch shape.
   Fisher-Yates, NumPy's method, is sequential.
2. Two keys tie with probability about n**2 / 2**65 (n = 10**6: 3e-8 per call).  The
   stable sort then keeps the tied items in index order: the permutation stays a
   function of the seed, and the bias is confined to those rare draws.
3. Shuffling every slice along an axis (``permuted`` with ``axis``) is one argsort of a
   key array of the input's shape along that axis, then ``take_along_axis``.
4. ``choice`` without replacement and with ``p`` sorts the keys E_i / p_i (E_i standard
   exponential): the items in ascending key order arrive as in sequential sampling
   without replacement with weights p (the exponential race), which is the law of
   NumPy's method, order included.  Items with p_i = 0 get an infinite (or NaN) key
   and sort last; at least ``size`` items have p_i > 0, so none is taken.
5. ``choice`` with replacement and ``p``: ``searchsorted(cumsum(p) / sum, u,
   side='right')`` for uniforms u in [0, 1), NumPy's inversion, on the device.
6. ``choice`` without replacement and without ``p`` from a population at least
   ``_SMALL_SAMPLE`` times the sample (and past 2**16) draws uniform integers with
   replacement and keeps each value's first occurrence until ``size`` distinct values
   have come, in the order they came: sequential sampling without replacement (each
   new value is uniform over those not yet taken), so the law and the order are the
   permutation's, in O(size) memory and time (a population of 10**12 needs no 8 TB
   order).  Rounds of ``2 * size + 16`` draws; the draws and the first-occurrence
   selection run on the device, so the result is the same on every device.
7. The host does shapes, argument checks, and reads back the few scalars NumPy's
   errors need (p's sum, a negative entry, the count of non-zero entries).
   ``shuffle`` of a Python list reads the permutation back, since the list itself
   lives on the host.
"""

from .._dtypes import kind_of as _kind_of
import math
import numbers
import operator

import numpy

from .._args import as_array, normalize_axis, refuse_numpy
from .._core import asnumpy, ndarray
from .._index.routines import take_along_axis
from .._manip.shaping import copyto
from .._reduce import reductions
from .._reduce.scans import cumsum
from .._manip.joining import concatenate
from .._sort.sets import unique
from .._sort.sorting import argsort, argsort_random_keys, searchsorted, sort
from . import _draw
from ._continuous import KINDS
from ._generator_base import _F64, _shape

_U64 = numpy.dtype("uint64")


def _order(bitgen, n, device):
    """A uniformly random permutation of range(n) as int64 indices (note 1)."""
    keys = _draw.bits(bitgen, (n,), _U64, device=device)
    return argsort_random_keys(keys)


_SMALL_SAMPLE = 4


def _first_distinct(bitgen, pop, count, device):
    """``count`` distinct integers of [0, pop) in the order uniform draws with
    replacement first give them (note 6)."""
    drawn = None
    while True:
        d = _draw.integers(bitgen, 0, pop, (2 * count + 16,), numpy.dtype("int64"),
                           device=device)
        drawn = d if drawn is None else concatenate([drawn, d])
        _, first = unique(drawn, return_index=True)
        if first.shape[0] >= count:
            return drawn[sort(first)[:count]]


def _gather(x, idx, axis):
    """x[..., idx, ...] with idx on ``axis`` (a new array)."""
    return x[(slice(None),) * axis + (idx,)]


class _SamplingMethods:
    """Mixed into ``Generator``."""

    # ---- permutations ----------------------------------------------------------------

    def permutation(self, x, axis=0):
        """A randomly permuted ``arange(x)`` (x an int) or a copy of ``x`` with its
        slices along ``axis`` in random order (the same order for every slice).

        Computed on the device as the stable argsort of random 64-bit keys (see
        docs/random-sampling.md); equal in law to NumPy's, not bit for bit.

        Example: ``default_rng(0).permutation(5)`` -> an int64 array holding 0..4.

        Parameters
        ----------
        x : int or array_like
            An integer n (a permutation of arange(n)) or an array (permuted along an axis).
        axis : int, optional
            The axis along which to permute (0 by default).

        Returns
        -------
        ndarray
            On the generator's device; the dtype of a (int64 for an integer a).

        See Also
        --------
        numpy.random.Generator.permutation
        """
        if isinstance(x, (int, numpy.integer)):
            return _order(self._bit_generator, max(int(x), 0), None)
        arr = as_array(x, "x")
        ax = normalize_axis(axis, arr.ndim)
        return _gather(arr, _order(self._bit_generator, arr.shape[ax], arr.device), ax)

    def permuted(self, x, axis=None, out=None):
        """``x`` with each slice along ``axis`` shuffled independently (axis None: the
        flattened array shuffled), as a new array or into ``out`` (which may be ``x``).

        The cast from x's dtype to out's must be safe (NumPy's rule).

        Parameters
        ----------
        x : array_like
            The array to shuffle.
        axis : int, optional
            The axis along which each slice is shuffled independently (None: the flattened
            array).
        out : ndarray, optional
            A garray array of the result's shape and dtype to fill (on the generator's
            device).

        Returns
        -------
        ndarray
            On the generator's device; the dtype of a (int64 for an integer a).

        See Also
        --------
        numpy.random.Generator.permuted
        """
        arr = as_array(x, "x")
        if arr.ndim == 0 and axis is None:     # NumPy shuffles the flat array: no length
            raise TypeError("permuted: x: len() of unsized object (a 0-d array)")
        ax = None if axis is None else normalize_axis(axis, arr.ndim)
        if out is not None:
            if not isinstance(out, ndarray):
                raise TypeError(f"out: expected a garray array, got {type(out).__name__}")
            if not out.flags.writeable:
                raise ValueError("out: output array is read-only")
            if out.shape != arr.shape:
                raise ValueError("out must have the same shape as x")
            if not numpy.can_cast(arr.dtype, out.dtype, "safe"):
                raise TypeError(f"out: cannot cast x's {arr.dtype} to {out.dtype} "
                                "according to the rule 'safe'")
        bitgen = self._bit_generator
        if ax is None:
            flat = arr.reshape((-1,))
            res = flat[_order(bitgen, flat.size, arr.device)].reshape(arr.shape)
        else:
            keys = _draw.bits(bitgen, arr.shape, _U64, device=arr.device)
            res = take_along_axis(arr, argsort(keys, axis=ax), axis=ax)
        if out is None:
            return res
        # res is a new array, so out may alias x
        copyto(out, res, casting="safe")
        return out

    def shuffle(self, x, axis=0):
        """Shuffle ``x`` in place along ``axis`` (the slices keep their contents).

        ``x``: a writable garray array, or a mutable Python sequence (a list; only
        ``axis=0``), whose items are reordered on the host by a permutation drawn on
        the device.  A NumPy array raises TypeError (garray does not write host memory
        from the device: use ``garray.asarray`` first); a tuple raises TypeError, as in
        NumPy.  Returns None.

        Parameters
        ----------
        x : ndarray
            A garray array, shuffled in place.
        axis : int, optional
            The axis along which to permute (0 by default).

        Returns
        -------
        None

        See Also
        --------
        numpy.random.Generator.shuffle
        """
        if isinstance(x, ndarray):
            if not x.flags.writeable:
                raise ValueError("array is read-only")
            if x.ndim == 0:
                raise TypeError("x: len() of unsized object (shuffle needs an array of "
                                "at least 1 dimension)")
            ax = normalize_axis(axis, x.ndim)
            if x.size == 0:
                return None
            idx = _order(self._bit_generator, x.shape[ax], x.device)
            # the gather makes a new array before the write, so the copy back is safe
            x[...] = _gather(x, idx, ax)
            return None
        if isinstance(x, numpy.ndarray):
            raise refuse_numpy("shuffle: x")
        if operator.index(axis) != 0:
            raise NotImplementedError("Axis argument is only supported on ndarray objects")
        n = len(x)
        if n <= 1:
            return None
        if not hasattr(x, "__setitem__"):
            raise TypeError(f"'{type(x).__name__}' object does not support item assignment")
        perm = asnumpy(_order(self._bit_generator, n, None)).tolist()
        items = list(x)
        for i, j in enumerate(perm):
            x[i] = items[j]
        return None

    # ---- choice ----------------------------------------------------------------------

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """A random sample from ``arange(a)`` (a an int) or from the slices of array
        ``a`` along ``axis``, with or without replacement, uniform or weighted by ``p``.

        With replacement: uniform integers, or inversion of ``cumsum(p)`` by
        ``searchsorted``.  Without replacement: the first ``size`` items of a random
        permutation, or (with ``p``) of the order of exponential keys E / p, which has
        the law of NumPy's sequential method.  The sample is always in random order,
        so ``shuffle=False`` changes nothing.  ``size=None`` gives a 0-d array.

        Example: ``default_rng(0).choice(5, 3, replace=False)``.

        Parameters
        ----------
        a : int or array_like
            The population: arange(a) for an integer, else the array (sampled along axis;
            RandomState: 1-d only).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        replace : bool, optional
            Draw with replacement (default).
        p : array_like of floats, optional
            Probabilities of the population's entries (uniform by default).
        axis : int, optional
            The axis of a to sample along.
        shuffle : bool, optional
            Shuffle the sample when drawing without replacement.

        Returns
        -------
        ndarray
            On the generator's device; the dtype of a (int64 for an integer a).

        See Also
        --------
        numpy.random.Generator.choice
        """
        pool, pop = _population(a, axis, size)
        device = pool.device if pool is not None else None
        pa = None
        if p is not None:
            pa = _probabilities(p, pop, pool.device if pool is not None else
                                (p.device if isinstance(p, ndarray) else None))
            device = pa.device
        shape = _shape(size)
        count = math.prod(shape)
        bitgen = self._bit_generator
        if replace:
            if pa is not None:
                cdf = cumsum(pa)
                cdf = cdf / cdf[-1]
                u = _draw.uniform(bitgen, shape, _F64, device=device)
                idx = searchsorted(cdf, u, side="right")
            else:
                idx = _draw.integers(bitgen, 0, max(pop, 1), shape, numpy.dtype("int64"),
                                     device=device)
        else:
            if count > pop:
                raise ValueError("Cannot take a larger sample than population when "
                                 "replace is False")
            if pa is not None:
                if int(reductions.count_nonzero(pa > 0)) < count:
                    raise ValueError("Fewer non-zero entries in p than size")
                e = _draw.dist(bitgen, KINDS["standard_exponential"], (pop,), _F64,
                               device=device)
                order = argsort(e / pa)
            elif pop >= _SMALL_SAMPLE * count and pop > 2**16:
                order = _first_distinct(bitgen, pop, count, device)
            else:
                order = _order(bitgen, pop, device)
            # a copy, so the full-length order can be freed
            idx = order[:count].reshape(shape).copy()
        if pool is None:
            return idx
        return _gather(pool, idx, normalize_axis(axis, pool.ndim))


def _population(a, axis, size):
    """(the array sampled from or None, the population size), with NumPy's errors."""
    none_taken = size is not None and math.prod(_shape(size)) == 0
    scalar = isinstance(a, (numbers.Number, numpy.generic)) or (
        isinstance(a, (ndarray, numpy.ndarray)) and a.ndim == 0)
    if scalar:
        if isinstance(a, ndarray):
            if _kind_of(a.dtype) not in "biu":
                raise ValueError(f"a must be a sequence or an integer, not {a.dtype}")
            a = int(a)
        try:
            pop = operator.index(a.item() if isinstance(a, numpy.ndarray) else a)
        except TypeError:
            raise ValueError("a must be a sequence or an integer, "
                             f"not {type(a)}") from None
        if pop <= 0 and not none_taken:
            raise ValueError("a must be a positive integer unless no samples are taken")
        return None, max(pop, 0)
    pool = as_array(a, "a")
    pop = pool.shape[axis]   # an IndexError for a bad axis, as NumPy's
    if pop == 0 and not none_taken:
        raise ValueError("a cannot be empty unless no samples are taken")
    return pool, pop


def _probabilities(p, pop, device):
    """p as a float64 garray array after NumPy's checks (one sum and one bool read)."""
    len(p)   # NumPy's TypeError for a scalar p
    atol = math.sqrt(numpy.finfo(numpy.float64).eps)
    if isinstance(p, (ndarray, numpy.ndarray)) and _kind_of(p.dtype) == "f":
        atol = max(atol, math.sqrt(numpy.finfo(p.dtype).eps))
    pa = as_array(p, "p", device)
    if _kind_of(pa.dtype) not in "biuf":
        raise TypeError(f"p: expected real numbers, got {pa.dtype}")
    pa = pa.astype("float64")
    if pa.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if pa.size != pop:
        raise ValueError("a and p must have same size")
    total = float(reductions.sum(pa))
    if math.isnan(total):
        raise ValueError("Probabilities contain NaN")
    if bool(reductions.any(pa < 0)):
        raise ValueError("Probabilities are not non-negative")
    if abs(total - 1.0) > atol:
        raise ValueError("Probabilities do not sum to 1. See Notes section of docstring "
                         "for more information.")
    return pa
