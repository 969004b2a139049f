"""INTERIM Philox bit generator (replaced by the seeding branch's SeedSequence-based
one before this lands): key = the seed's low 64 bits, position 0."""

import threading


class Philox:
    def __init__(self, seed=None, counter=None, key=None):
        import secrets
        s = secrets.randbits(64) if seed is None else int(seed)
        self._key = s % (1 << 64) if key is None else int(key)
        self._pos = 0 if counter is None else int(counter)
        self.lock = threading.Lock()

    def _reserve(self, nblocks):
        with self.lock:
            p = self._pos
            self._pos = (p + nblocks) % (1 << 96)
        return self._key, p & ((1 << 64) - 1), p >> 64

    def spawn(self, n_children):
        return [Philox(key=(self._key * 0x9E3779B97F4A7C15 + i + 1) % (1 << 64))
                for i in range(n_children)]
