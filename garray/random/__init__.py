"""garray.random: counter-based random numbers (Philox4x32-10), seeded as NumPy seeds.

For now the host-side seeding layer: ``SeedSequence`` (NumPy's algorithm, the same seed
words).
"""

from ._seed import SeedSequence

__all__ = ["SeedSequence"]
