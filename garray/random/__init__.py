"""garray.random: NumPy's random API on counter-based Philox4x32-10 streams.

The same seed gives the same bits on every garray device (CPU, NVIDIA, AMD), at any warp
size and launch shape; the streams are not NumPy's (NumPy's default is PCG64, its Philox
is the 4x64 variant), each distribution matches NumPy's in law.  See docs/random.md.
"""

from ._generator import Generator, default_rng
from ._legacy import *  # noqa: F401,F403  (RandomState, seed, rand, randn, randint ...)
from ._legacy import __all__ as _legacy_all
from ._philox import Philox
from ._seed import SeedSequence

__all__ = ["Generator", "Philox", "SeedSequence", "default_rng", *_legacy_all]
