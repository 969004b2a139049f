"""Philox: garray's bit generator object, the host side of Philox4x32-10.

Design note [Philox state]
1. The kernels compute each 128-bit output block as Philox4x32-10(key, counter): a pure
   function, so the same key and counter give the same bits on AMD, NVIDIA and the CPU,
   whatever the launch shape.  This object only holds the key and the position and
   hands out disjoint counter ranges; it never computes random numbers.
2. The key is 64 bits (words k0, k1).  The counter is 128 bits, words c0 (lowest) to c3.
   The generator's position is the low 96 bits (c0, c1, c2); c3 is reserved for the
   sub-streams one call derives per element (e.g. the extra draws of a rejection
   sampler), so c3 is always 0 in the state and a state or counter with c3 != 0 is
   refused rather than silently overlapping those sub-streams.
3. A call needing ``n`` blocks takes them with ``_reserve(n)`` under ``lock``: it gets
   the key and the first position and the position moves past them, so threads sharing
   one generator never receive the same counters.  The position wraps modulo 2**96.
4. NumPy's Philox is Philox4x64-10 with a 128-bit key, so garray's numbers differ from
   NumPy's for the same seed; the interface (seed, key=, counter=, state, advance,
   jumped, spawn, pickling) is NumPy's.  The seed words are NumPy's: the key is the
   first two uint32 words of the SeedSequence's ``generate_state``.
"""

from .._dtypes import kind_of as _kind_of
import operator
import threading

import numpy

from . import _draw
from ._generator_base import _shape
from ._seed import SeedSequence

__all__ = ["Philox"]

MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1
POSITION_BITS = 96
POSITION_PERIOD = 1 << POSITION_BITS
_C3_RESERVED = ("word c3 of the Philox counter is reserved for per-element sub-streams "
                "inside one call and must be 0; the position is the low 96 bits "
                "(c0, c1, c2)")


def _is_int(x):
    return isinstance(x, (int, numpy.integer)) and not isinstance(x, (bool, numpy.bool_))


def _nonneg_int(value, name):
    if not _is_int(value):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    value = int(value)
    if value < 0:
        raise ValueError(f"{name} must be non-negative, got {value}")
    return value


def _word_array(value, name, n_words):
    """An array-like of ``n_words`` uint32 words, as a list of Python ints."""
    arr = numpy.asarray(value)
    if arr.shape != (n_words,):
        raise ValueError(f"{name} must have {n_words} elements when using array form, "
                         f"got shape {arr.shape}")
    if _kind_of(arr.dtype) not in "iu":
        raise TypeError(f"{name} words must be integers, got dtype {arr.dtype}")
    words = [int(w) for w in arr]
    if any(w < 0 or w > MASK32 for w in words):
        raise ValueError(f"{name} words must be in [0, 2**32), got {words}")
    return words


def _coerce_key(key):
    """``key=``: an int in [0, 2**64) or two uint32 words (k0, k1) -> one 64-bit int."""
    if _is_int(key):
        key = int(key)
        if not 0 <= key <= MASK64:
            raise ValueError(f"key must be non-negative and less than 2**64, got {key}")
        return key
    if isinstance(key, (float, numpy.inexact, str, bool, numpy.bool_)):
        raise TypeError(f"key must be an integer or 2 uint32 words, got {key!r}")
    k0, k1 = _word_array(key, "key", 2)
    return k0 | (k1 << 32)


def _coerce_counter(counter):
    """``counter=``: an int in [0, 2**96) or four uint32 words (c0..c3, c3 == 0)."""
    if _is_int(counter):
        counter = int(counter)
        if not 0 <= counter < (1 << 128):
            raise ValueError("counter must be non-negative and less than 2**128, "
                             f"got {counter}")
        if counter >= POSITION_PERIOD:
            raise ValueError(f"counter {counter} is at least 2**96: {_C3_RESERVED}")
        return counter
    if isinstance(counter, (float, numpy.inexact, str, bool, numpy.bool_)):
        raise TypeError(f"counter must be an integer or 4 uint32 words, got {counter!r}")
    c0, c1, c2, c3 = _word_array(counter, "counter", 4)
    if c3:
        raise ValueError(f"counter word c3 is {c3}: {_C3_RESERVED}")
    return c0 | (c1 << 32) | (c2 << 64)


def _as_seed_sequence(seed):
    # Anything with generate_state is a seed sequence (NumPy's SeedSequence included,
    # duck-typed so garray need not import numpy.random); the rest is entropy.
    if hasattr(seed, "generate_state"):
        return seed
    return SeedSequence(seed)


def _unpickle(cls):
    """Pickle constructor: an empty Philox that ``__setstate__`` fills (no seeding)."""
    return cls.__new__(cls)


class Philox:
    """The Philox4x32-10 counter-based bit generator behind ``garray.random.Generator``.

    The numbers are not NumPy's: NumPy's Philox is the 4x64 variant.  Every garray device
    gives the same numbers for the same seed.

    Parameters
    ----------
    seed : None, int, sequence of int or SeedSequence, optional
        None (fresh entropy), an int or sequence of ints (through ``SeedSequence``), or a
        seed sequence (garray's or NumPy's).  The key is the first two uint32 words of
        ``seed_seq.generate_state(2)``.
    counter : int or sequence of int, optional
        The starting position: an int in [0, 2**96) or four uint32 words (c0, c1, c2, c3)
        with c3 == 0.  Default 0.
    key : int or sequence of int, optional
        Use this key directly (an int in [0, 2**64) or two uint32 words k0, k1); ``seed``
        must then be None and ``seed_seq`` is None (no spawning).

    Attributes
    ----------
    lock : threading.RLock
        Held by every state change; code drawing from this generator should take
        counters only through ``_reserve``.

    See Also
    --------
    numpy.random.Philox

    Examples
    --------
    >>> bg = garray.random.Philox(12345)
    >>> bg.advance(10).state["state"]["counter"]
    array([10,  0,  0,  0], dtype=uint32)
    """

    def __init__(self, seed=None, counter=None, key=None):
        self.lock = threading.RLock()
        if key is not None:
            if seed is not None:
                raise ValueError("seed and key cannot be both used")
            self._seed_seq = None
            self._key = _coerce_key(key)
        else:
            self._seed_seq = _as_seed_sequence(seed)
            k0, k1 = (int(w) for w in self._seed_seq.generate_state(2, numpy.uint32))
            self._key = k0 | (k1 << 32)
        self._pos = 0 if counter is None else _coerce_counter(counter)

    @property
    def seed_seq(self):
        """The seed sequence this generator was seeded from (None when built from a key).

        See also numpy.random.BitGenerator.seed_seq.
        """
        return self._seed_seq

    def _reserve(self, nblocks):
        """Take ``nblocks`` counter blocks: returns ``(key64, pos_lo64, pos_hi32)``.

        ``key64`` is k0 | k1 << 32; the position before the call is
        ``pos_lo64 | pos_hi32 << 64``; the position then moves on by ``nblocks``
        (modulo 2**96).  Atomic under ``lock``.
        """
        nblocks = _nonneg_int(nblocks, "nblocks")
        with self.lock:
            pos = self._pos
            self._pos = (pos + nblocks) % POSITION_PERIOD
            return self._key, pos & MASK64, pos >> 64

    @property
    def state(self):
        """The generator state: ``{'bit_generator': 'Philox', 'state': {'counter':
        uint32[4] (c0..c3, c3 == 0), 'key': uint32[2] (k0, k1)}}``; assignable.

        See also numpy.random.Philox.state.
        """
        with self.lock:
            pos, key = self._pos, self._key
        counter = [pos & MASK32, (pos >> 32) & MASK32, pos >> 64, 0]
        return {"bit_generator": "Philox",
                "state": {"counter": numpy.array(counter, dtype=numpy.uint32),
                          "key": numpy.array([key & MASK32, key >> 32],
                                             dtype=numpy.uint32)}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict):
            raise TypeError(f"state must be a dict, got {type(value).__name__}")
        if value.get("bit_generator") != "Philox":
            raise ValueError("state must be for a Philox PRNG")
        inner = value.get("state")
        if not isinstance(inner, dict) or "counter" not in inner or "key" not in inner:
            raise ValueError("state['state'] must be a dict with 'counter' and 'key'")
        # Array forms only: the state dict always holds words, never a packed int.
        k0, k1 = _word_array(inner["key"], "state key", 2)
        pos = _coerce_counter(_word_array(inner["counter"], "state counter", 4))
        with self.lock:
            self._key, self._pos = k0 | (k1 << 32), pos

    def random_raw(self, size=None, output=True):
        """Raw 64-bit words of the stream (two Philox words each, low word first), as a
        uint64 garray array on the current device (0-d for ``size=None``); with
        ``output=False`` the words are skipped and None returned.

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape.
        output : bool, optional
            False: skip the words and return None.

        Returns
        -------
        ndarray or None
            uint64.

        See Also
        --------
        numpy.random.BitGenerator.random_raw
        """
        shape = _shape(size)
        if not output:
            n = 1
            for d in shape:
                n *= d
            self.advance(-(-n // 2))
            return None
        return _draw.bits(self, shape, numpy.uint64)

    def advance(self, delta):
        """Move the position on by ``delta`` counter blocks (each 4 uint32 words), as if
        that many blocks had been drawn; ``delta`` may exceed 2**64 (wraps at 2**96).

        Returns:
            self.

        Parameters
        ----------
        delta : int
            Number of 128-bit blocks to skip.

        Returns
        -------
        Philox
            self.

        See Also
        --------
        numpy.random.Philox.advance
        """
        delta = _nonneg_int(delta, "delta")
        with self.lock:
            self._pos = (self._pos + delta) % POSITION_PERIOD
        return self

    def jumped(self, jumps=1):
        """Return a new Philox ``jumps * 2**64`` blocks ahead, with the same key; this
        one is unchanged.  Positions wrap at 2**96, so 2**32 jumps return to the start.

        The new generator shares this one's ``seed_seq`` (as NumPy's does), so children
        spawned from either never repeat each other's spawn keys.

        Parameters
        ----------
        jumps : int, optional
            Number of 2**64-block jumps.

        Returns
        -------
        Philox
            A new bit generator.

        See Also
        --------
        numpy.random.Philox.jumped
        """
        jumps = _nonneg_int(jumps, "jumps")
        new = _unpickle(type(self))
        new.lock = threading.RLock()
        with self.lock:
            new._key = self._key
            new._pos = (self._pos + (jumps << 64)) % POSITION_PERIOD
        new._seed_seq = self._seed_seq
        return new

    def spawn(self, n_children):
        """Return ``n_children`` new Philox generators seeded from
        ``seed_seq.spawn(n_children)``.

        Raises:
            TypeError: the generator was built from ``key=`` (no seed sequence), or its
                seed sequence cannot spawn.

        Parameters
        ----------
        n_children : int
            Number of children.

        Returns
        -------
        list of Philox

        See Also
        --------
        numpy.random.BitGenerator.spawn
        """
        n_children = operator.index(n_children)
        if n_children < 0:
            raise ValueError(f"n_children must be non-negative, got {n_children}")
        if not hasattr(self._seed_seq, "spawn"):
            raise TypeError("The underlying SeedSequence does not implement spawning.")
        return [type(self)(seed=s) for s in self._seed_seq.spawn(n_children)]

    def __repr__(self):
        st = self.state["state"]
        return (f"{type(self).__name__}(key={st['key'].tolist()}, "
                f"counter={st['counter'].tolist()})")

    # Pickling (Dask ships generators to workers): the state and the seed sequence,
    # restored without drawing fresh entropy; the lock is rebuilt, never pickled.
    def __getstate__(self):
        return self.state, self._seed_seq

    def __setstate__(self, state_seed_seq):
        if not hasattr(self, "lock"):
            self.lock = threading.RLock()
        if isinstance(state_seed_seq, dict):   # a bare state dict, as NumPy accepts
            self._seed_seq = getattr(self, "_seed_seq", None)
            self.state = state_seed_seq
        else:
            state, self._seed_seq = state_seed_seq
            self.state = state

    def __reduce__(self):
        return _unpickle, (type(self),), self.__getstate__()
