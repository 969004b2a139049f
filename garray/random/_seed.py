"""SeedSequence: NumPy's seed mixer, re-implemented so garray seeds exactly as NumPy does.

Design note [seeding]
1. A seed (int, sequence of ints, array of ints) is turned into 32-bit words, lowest
   bits first; the spawn key (the path in the spawn tree) is appended as more words.
2. The words are hashed into a pool of ``pool_size`` uint32 (default 4: 128 bits), each
   pool word then mixed with every other, so every input bit reaches every pool word.
3. ``generate_state`` stretches the pool into any number of words with a second hash.
The algorithm is Melissa O'Neill's ``seed_seq`` alternative as NumPy adopted it; the
words must equal NumPy's bit for bit, so that ``garray.random.default_rng(s)`` and
``numpy.random.default_rng(s)`` start from the same seed material (the bit generators
then differ: see ``garray.random.Philox``).  This is host work on a few words of
metadata: nothing here touches array data.  Arithmetic is on Python ints masked to 32
bits, which is exact and avoids NumPy's overflow warnings on uint32 scalars.
"""

import operator
import re
import secrets

import numpy

__all__ = ["SeedSequence"]

DEFAULT_POOL_SIZE = 4
MASK32 = 0xFFFFFFFF
# The hash constants of O'Neill's seed_seq alternative (as in NumPy): changing any one
# changes every generated stream.
INIT_A = 0x43B0D7E5
MULT_A = 0x931E8875
INIT_B = 0x8B51F9DD
MULT_B = 0x58F38DED
MIX_MULT_L = 0xCA01F9DD
MIX_MULT_R = 0x4973F715
XSHIFT = 16   # half the word size

_DECIMAL = re.compile(r"[0-9]+")


def _int_words(n):
    """A non-negative integer as 32-bit words, lowest first (zero is one word)."""
    n = int(n)
    if n < 0:
        raise ValueError("expected non-negative integer")
    words = [n & MASK32]
    n >>= 32
    while n:
        words.append(n & MASK32)
        n >>= 32
    return words


def _words(x):
    """Entropy or a spawn key as a list of uint32 words (NumPy's coercion rules).

    Ints split into words; strings of decimal digits or '0x' hex are ints (inside a
    sequence only: SeedSequence rejects a bare string first); sequences concatenate the
    words of their elements; a 1-D uint32 array passes through word for word.
    """
    if isinstance(x, numpy.ndarray) and x.dtype == numpy.uint32 and x.ndim == 1:
        return [int(w) for w in x]
    if isinstance(x, str):
        if x.startswith("0x"):
            x = int(x, base=16)
        elif _DECIMAL.match(x):
            x = int(x)
        else:
            raise ValueError("unrecognized seed string")
    if isinstance(x, (int, numpy.integer)):
        return _int_words(x)
    if isinstance(x, (float, numpy.inexact)):
        raise TypeError("seed must be integer")
    words = []
    for v in x:   # TypeError for objects that are not sequences, as NumPy
        words.extend(_words(v))
    return words


def _hashmix(value, hash_const):
    """One step of the input hash; returns (hashed value, next multiplier state)."""
    value ^= hash_const
    hash_const = (hash_const * MULT_A) & MASK32
    value = (value * hash_const) & MASK32
    value ^= value >> XSHIFT
    return value, hash_const


def _mix(x, y):
    result = (MIX_MULT_L * x - MIX_MULT_R * y) & MASK32
    return result ^ (result >> XSHIFT)


def _mix_entropy(pool_size, entropy):
    """Hash ``entropy`` (list of uint32) into a pool of ``pool_size`` words."""
    hc = INIT_A
    pool = []
    for i in range(pool_size):
        # A pool larger than the entropy keeps hashing zeros.
        v, hc = _hashmix(entropy[i] if i < len(entropy) else 0, hc)
        pool.append(v)
    # Every word into every other, so late input bits affect early pool words.
    for i_src in range(pool_size):
        for i_dst in range(pool_size):
            if i_src != i_dst:
                h, hc = _hashmix(pool[i_src], hc)
                pool[i_dst] = _mix(pool[i_dst], h)
    # Entropy beyond the pool size is mixed into each pool word in turn.
    for word in entropy[pool_size:]:
        for i_dst in range(pool_size):
            h, hc = _hashmix(word, hc)
            pool[i_dst] = _mix(pool[i_dst], h)
    return pool


class SeedSequence:
    """Mix seed entropy into well-spread seed words, and spawn independent children.

    The same algorithm as ``numpy.random.SeedSequence``: for the same ``entropy``,
    ``spawn_key`` and ``pool_size``, ``generate_state`` returns the same words as NumPy,
    and ``spawn`` builds the same tree.

    Parameters
    ----------
    entropy : None, int or sequence of int, optional
        None (128 fresh bits from ``secrets``), a non-negative int, or a sequence or
        integer array of non-negative ints.
    spawn_key : tuple of int, optional
        The child's path in a spawn tree (set by ``spawn``).
    pool_size : int, optional
        Number of uint32 words of pooled entropy, at least 4.
    n_children_spawned : int, optional
        Children already spawned (when rebuilding a saved one).

    See Also
    --------
    numpy.random.SeedSequence

    Examples
    --------
    >>> ss = garray.random.SeedSequence(12345)
    >>> ss.generate_state(2)
    array([2688385916, 3048105090], dtype=uint32)
    >>> child_a, child_b = ss.spawn(2)
    """

    def __init__(self, entropy=None, *, spawn_key=(), pool_size=DEFAULT_POOL_SIZE,
                 n_children_spawned=0):
        if pool_size < DEFAULT_POOL_SIZE:
            raise ValueError(
                f"The size of the entropy pool should be at least {DEFAULT_POOL_SIZE}")
        pool_size = operator.index(pool_size)
        if entropy is None:
            entropy = secrets.randbits(pool_size * 32)
        elif not isinstance(entropy, (int, numpy.integer, list, tuple, range,
                                      numpy.ndarray)):
            raise TypeError("SeedSequence expects int or sequence of ints for entropy "
                            f"not {entropy}")
        self.entropy = entropy
        self.spawn_key = tuple(spawn_key)
        self.pool_size = pool_size
        self.n_children_spawned = operator.index(n_children_spawned)
        self._pool = _mix_entropy(pool_size, self._assembled_entropy())

    def _assembled_entropy(self):
        run = _words(self.entropy)
        spawn = _words(self.spawn_key)
        if spawn and len(run) < self.pool_size:
            # Zero-pad the run entropy to the pool size when there is a spawn key, so a
            # child's key words can never be mistaken for a parent's entropy words
            # (NumPy gh-16539); without a spawn key NumPy keeps its older streams.
            run += [0] * (self.pool_size - len(run))
        return run + spawn

    @property
    def pool(self):
        """The mixed entropy pool: ``pool_size`` uint32 words (a copy)."""
        return numpy.array(self._pool, dtype=numpy.uint32)

    @property
    def state(self):
        """The arguments that rebuild this SeedSequence, as a dict (NumPy's keys)."""
        return {"entropy": self.entropy, "spawn_key": self.spawn_key,
                "pool_size": self.pool_size,
                "n_children_spawned": self.n_children_spawned}

    def generate_state(self, n_words, dtype=numpy.uint32):
        """Return ``n_words`` seed words of ``dtype`` (uint32 or uint64) from the pool.

        A uint64 word is two uint32 words, the first one in the low half (the same
        values on every platform).  Any other dtype raises ValueError, as NumPy.

        Example:
            >>> SeedSequence(0).generate_state(4, "uint64").shape
            (4,)

        Parameters
        ----------
        n_words : int
            Number of words.
        dtype : {uint32, uint64}, optional
            The words' dtype.

        Returns
        -------
        numpy.ndarray
            A host array, as NumPy's.

        See Also
        --------
        numpy.random.SeedSequence.generate_state
        """
        out_dtype = numpy.dtype(dtype)
        if out_dtype not in (numpy.dtype(numpy.uint32), numpy.dtype(numpy.uint64)):
            raise ValueError("only support uint32 or uint64")
        n_words = operator.index(n_words)
        if n_words < 0:
            raise ValueError(f"n_words must be non-negative, got {n_words}")
        n32 = n_words * (2 if out_dtype == numpy.uint64 else 1)
        hc = INIT_B
        words = []
        for i in range(n32):
            v = self._pool[i % self.pool_size] ^ hc
            hc = (hc * MULT_B) & MASK32
            v = (v * hc) & MASK32
            words.append(v ^ (v >> XSHIFT))
        if out_dtype == numpy.uint64:
            words = [words[2 * i] | (words[2 * i + 1] << 32) for i in range(n_words)]
        return numpy.array(words, dtype=out_dtype)

    def spawn(self, n_children):
        """Return ``n_children`` new SeedSequences, each with this one's entropy and a
        spawn key extended by its child index; later calls continue the numbering.

        Parameters
        ----------
        n_children : int
            Number of children.

        Returns
        -------
        list of SeedSequence

        See Also
        --------
        numpy.random.SeedSequence.spawn
        """
        n_children = operator.index(n_children)
        if n_children < 0:
            raise ValueError(f"n_children must be non-negative, got {n_children}")
        start = self.n_children_spawned
        children = [type(self)(self.entropy, spawn_key=self.spawn_key + (i,),
                               pool_size=self.pool_size)
                    for i in range(start, start + n_children)]
        self.n_children_spawned = start + n_children
        return children

    def __repr__(self):
        lines = [f"{type(self).__name__}(", f"    entropy={self.entropy!r},"]
        # Defaults are left out, as NumPy does, to keep the common case short.
        if self.spawn_key:
            lines.append(f"    spawn_key={self.spawn_key!r},")
        if self.pool_size != DEFAULT_POOL_SIZE:
            lines.append(f"    pool_size={self.pool_size!r},")
        if self.n_children_spawned:
            lines.append(f"    n_children_spawned={self.n_children_spawned!r},")
        lines.append(")")
        return "\n".join(lines)
