"""``garray.random.Generator``: NumPy's Generator interface on garray's Philox streams.

Draws land on garray's current device (``garray.Device`` context, ``GARRAY_DEVICE``) or
on ``out``'s.  ``size=None`` gives a 0-d array (as CuPy does), not a Python scalar.
Values are computed by the random kernels (``_kernels/random.hip``); parameters that are
arrays combine with standard variates through garray's own elementwise ops.
"""

from .._dtypes import kind_of as _kind_of
import operator

import numpy

from .._args import as_array
from .._array_utils import ascontiguousarray
from .._core import asarray, broadcast_to, ndarray
from .._elementwise import ufuncs as _u
from .._reduce import reductions
from . import _draw
from ._continuous import _ContinuousMethods
from ._discrete import _DiscreteMethods
from ._generator_base import (_F32, _F64, _broadcast_shape, _check_nonneg, _float_dtype,
                              _param, _shape, _target)
from ._multivariate import _MultivariateMethods
from ._philox import Philox
from ._sampling import _SamplingMethods

__all__ = ["Generator", "default_rng"]

class Generator(_ContinuousMethods, _DiscreteMethods, _SamplingMethods,
                _MultivariateMethods):
    """Container for garray's Philox stream, with NumPy's ``Generator`` methods.

    ``Generator(bit_generator)``; usually made by :func:`default_rng`.  The same seed
    gives the same bits on every garray device (CPU, NVIDIA, AMD) and at any launch
    shape; the streams are not NumPy's (each distribution matches NumPy's in law).

    Parameters
    ----------
    bit_generator : Philox
        The bit generator.

    See Also
    --------
    numpy.random.Generator
    """

    def __init__(self, bit_generator):
        if not hasattr(bit_generator, "_reserve"):
            raise TypeError("bit_generator: expected a garray.random.Philox, got "
                            f"{type(bit_generator).__name__}")
        self._bit_generator = bit_generator

    @property
    def bit_generator(self):
        """The Philox bit generator that feeds this Generator."""
        return self._bit_generator

    def __repr__(self):
        return f"Generator({type(self._bit_generator).__name__})"

    def __getstate__(self):
        return {"bit_generator": self._bit_generator}

    def __setstate__(self, state):
        self._bit_generator = state["bit_generator"]

    def spawn(self, n_children):
        """Independent child generators (``SeedSequence.spawn`` of the bit generator's
        seed sequence).

        Parameters
        ----------
        n_children : int
            Number of children to spawn.

        Returns
        -------
        list
            n_children independent generators.

        See Also
        --------
        numpy.random.Generator.spawn
        """
        return [type(self)(bg) for bg in self._bit_generator.spawn(n_children)]

    # ---- uniform ---------------------------------------------------------------------

    def random(self, size=None, dtype=numpy.float64, out=None):
        """Floats uniform in [0, 1): float64 from 53 random bits, float32 from 24.

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        dtype : dtype, optional
            float64 (default) or float32 (the float64 draw rounded).
        out : ndarray, optional
            A garray array of the result's shape and dtype to fill (on the generator's
            device).

        Returns
        -------
        ndarray
            float64 draws (float32 with dtype=float32) of the result shape, on the
            generator's device.

        See Also
        --------
        numpy.random.Generator.random
        """
        dt = _float_dtype(dtype, "random")
        shape, out = _target(size, dt, out)
        return _draw.uniform(self._bit_generator, shape, dt, out=out)

    def uniform(self, low=0.0, high=1.0, size=None):
        """``low + (high - low) * u`` with u uniform in [0, 1) (float64).

        Parameters
        ----------
        low : float or array_like of floats
            Lower bound (included).
        high : float or array_like of floats
            Upper bound (excluded).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.uniform
        """
        lo, hi = _param(low, "low"), _param(high, "high")
        if isinstance(lo, float) and isinstance(hi, float):
            span = hi - lo
            if not numpy.isfinite(span):
                raise OverflowError("high - low range exceeds valid bounds")
            _check_nonneg(span, "uniform: high - low")
            return _draw.uniform(self._bit_generator, _shape(size), _F64, lo, span)
        shape = _broadcast_shape(size, lo, hi)
        span = hi - lo
        if not bool(reductions.all(_u.isfinite(span))):
            raise OverflowError("high - low range exceeds valid bounds")
        _check_nonneg(span, "uniform: high - low")
        u = _draw.uniform(self._bit_generator, shape, _F64)
        return lo + span * u

    # ---- normal ----------------------------------------------------------------------

    def standard_normal(self, size=None, dtype=numpy.float64, out=None):
        """Standard normal variates (Box-Muller on Philox blocks; float32 is the float64
        draw rounded).

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        dtype : dtype, optional
            float64 (default) or float32 (the float64 draw rounded).
        out : ndarray, optional
            A garray array of the result's shape and dtype to fill (on the generator's
            device).

        Returns
        -------
        ndarray
            float64 draws (float32 with dtype=float32) of the result shape, on the
            generator's device.

        See Also
        --------
        numpy.random.Generator.standard_normal
        """
        dt = _float_dtype(dtype, "standard_normal")
        shape, out = _target(size, dt, out)
        return _draw.normal(self._bit_generator, shape, dt, out=out)

    def normal(self, loc=0.0, scale=1.0, size=None):
        """Normal variates ``loc + scale * z`` (float64).

        Parameters
        ----------
        loc : float or array_like of floats
            Location (the mean for normal, logistic, laplace; the mode for gumbel).
        scale : float or array_like of floats
            Scale, non-negative.
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).

        Returns
        -------
        ndarray
            float64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.normal
        """
        mu, sigma = _param(loc, "loc"), _param(scale, "scale")
        _check_nonneg(sigma, "scale")
        if isinstance(mu, float) and isinstance(sigma, float):
            return _draw.normal(self._bit_generator, _shape(size), _F64, mu, sigma)
        shape = _broadcast_shape(size, mu, sigma)
        return mu + sigma * _draw.normal(self._bit_generator, shape, _F64)

    # ---- integers --------------------------------------------------------------------

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        """Integers uniform in [low, high) (``endpoint=True``: [low, high]), unbiased
        (Lemire's method), for every integer dtype and bool.  ``low`` and ``high`` may
        be arrays, broadcast as NumPy does (per-element kernel ``rng_int_arr``).

        Parameters
        ----------
        low : int or array_like of ints
            Lowest integer drawn (or, with high=None, one above the highest, the lowest
            being 0).
        high : int or array_like of ints, optional
            One above the highest integer drawn (the highest with endpoint=True).
        size : int or tuple of int, optional
            Output shape.  None (default): the parameters' broadcast shape, a 0-d garray
            array for scalar parameters (NumPy returns a Python scalar there).
        dtype : dtype, optional
            The integer dtype of the result (int64 by default).
        endpoint : bool, optional
            Whether high is included (default False).

        Returns
        -------
        ndarray
            int64 draws of the result shape, on the generator's device.

        See Also
        --------
        numpy.random.Generator.integers
        """
        dt = numpy.dtype(dtype)
        if _kind_of(dt) not in "biu":
            raise TypeError(f"Unsupported dtype {dt!r} for integers")
        if high is None:
            low, high = 0, low
        if _is_array_bound(low) or _is_array_bound(high):
            return _integers_array(self._bit_generator, low, high, size, dt, endpoint)
        lo, hi = _bound(low, "low"), _bound(high, "high")
        info_min, info_max = (0, 1) if _kind_of(dt) == "b" else (
            int(numpy.iinfo(dt).min), int(numpy.iinfo(dt).max))
        if lo < info_min:
            raise ValueError(f"low is out of bounds for {dt}")
        top = hi if endpoint else hi - 1
        if top > info_max:
            raise ValueError(f"high is out of bounds for {dt}")
        if top < lo:
            raise ValueError("low > high" if endpoint else "low >= high")
        return _draw.integers(self._bit_generator, lo, top - lo + 1, _shape(size), dt)

    # ---- simple transforms -------------------------------------------------------------

    def bytes(self, length):
        """``length`` random bytes (Python ``bytes``, copied to the host).

        Parameters
        ----------
        length : int
            Number of bytes.

        Returns
        -------
        bytes

        See Also
        --------
        numpy.random.Generator.bytes
        """
        n = operator.index(length)
        if n < 0:
            raise ValueError("length: negative dimensions are not allowed")
        words = _draw.bits(self._bit_generator, (-(-n // 4),), numpy.uint32)
        return words.get().tobytes()[:n]


def _is_array_bound(x):
    if isinstance(x, (ndarray, numpy.ndarray)):
        return x.ndim > 0
    return isinstance(x, (list, tuple))


def _integers_array(bitgen, low, high, size, dt, endpoint):
    """``integers`` with array bounds: NumPy's checks (one bool read each), then
    Lemire's method per element on its own stream (``rng_int_arr``), the bounds as
    uint64 low and span arrays (span 0 stands for 2**64)."""
    wide = numpy.dtype("uint64") if dt == numpy.uint64 else numpy.dtype("int64")

    def conv(x, name):
        if not _is_array_bound(x):
            # a scalar bound beside an array one: NumPy's scalar conversion (NaN and
            # inf raise), then its bounds check, exact for Python ints past int64
            v = _bound(x, name)
            if name == "high" and not endpoint and v == wide_max + 1:
                return None                 # [low, 2**64 or 2**63): endpoint below
            if not int(numpy.iinfo(wide).min) <= v <= wide_max:
                raise ValueError(f"{name} is out of bounds for {dt}")
            x = v
        a = as_array(x, name)
        if _kind_of(a.dtype) not in "biuf":
            raise TypeError(f"{name}: expected integers, got {a.dtype}")
        # the cast to uint64 would wrap negative bounds: NumPy's errors first
        if wide.kind == "u" and _kind_of(a.dtype) in "if" and bool(reductions.any(a < 0)):
            raise ValueError(f"low is out of bounds for {dt}" if name == "low" else
                             "high <= 0")
        return a.astype(wide)   # floats truncate, as NumPy's cast

    wide_max = int(numpy.iinfo(wide).max)
    lo, hi = conv(low, "low"), conv(high, "high")
    if hi is None:      # an exclusive high one past the wide dtype: its inclusive max
        hi, endpoint = as_array(wide_max, "high").astype(wide), True
    shape = _broadcast_shape(size, lo, hi)
    lo, hi = broadcast_to(lo, shape), broadcast_to(hi, shape)
    info_min, info_max = (0, 1) if _kind_of(dt) == "b" else (
        int(numpy.iinfo(dt).min), int(numpy.iinfo(dt).max))
    if info_min > int(numpy.iinfo(wide).min) and bool(reductions.any(lo < info_min)):
        raise ValueError(f"low is out of bounds for {dt}")
    top = info_max if endpoint else info_max + 1
    if top <= wide_max and bool(reductions.any(hi > top)):
        raise ValueError(f"high is out of bounds for {dt}")
    if bool(reductions.any(lo > hi if endpoint else lo >= hi)):
        raise ValueError("low > high" if endpoint else "low >= high")
    u64 = numpy.dtype("uint64")
    lo_u = ascontiguousarray(lo.astype(u64))
    span = hi.astype(u64) - lo_u
    if endpoint:
        span = span + asarray(1, dtype=u64, device=span.device)   # wraps to 0
    return _draw.integers_array(bitgen, lo_u, ascontiguousarray(span), dt)


def _bound(x, name):
    """An integer bound of ``integers`` (floats truncate, as NumPy's int64 cast does)."""
    if isinstance(x, (bool, numpy.bool_)):
        return int(x)
    try:
        return operator.index(x)
    except TypeError:
        pass
    if isinstance(x, (float, numpy.floating)):
        try:
            return int(x)
        except (ValueError, OverflowError) as e:    # NaN, inf: NumPy's classes
            raise type(e)(f"{name}: {e}") from None
    raise TypeError(f"{name}: expected an integer, got {x!r}")


def default_rng(seed=None):
    """A Generator on a Philox bit generator seeded from ``seed`` (None, an int, a
    sequence of ints, a SeedSequence), or ``seed`` itself when it is a Generator, or a
    Generator around it when it is a bit generator.

    Parameters
    ----------
    seed : None, int, sequence of int, SeedSequence, bit generator or Generator, optional
        The seed.

    Returns
    -------
    Generator

    See Also
    --------
    numpy.random.default_rng
    """
    if isinstance(seed, Generator):
        return seed
    if hasattr(seed, "_reserve"):
        return Generator(seed)
    return Generator(Philox(seed))
