"""garray.random: counter-based random numbers (Philox4x32-10), seeded as NumPy seeds.

For now the host-side seeding layer: ``SeedSequence`` (NumPy's algorithm, the same seed
words) and the ``Philox`` bit generator object that the random kernels draw from.
"""

from ._seed import SeedSequence
from ._philox import Philox

__all__ = ["SeedSequence", "Philox"]
