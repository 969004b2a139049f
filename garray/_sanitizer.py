"""The CPU device's kernel sanitizer: which checks are on, the seed of its schedules, and
the sanitizer build's configuration and findings (Note [CPU sanitizer] in
_kernels/garray/cpu_sanitizer.h; docs/sanitizer.md).

``GARRAY_CPU_SANITIZE`` (a comma list of ``race``, ``init``, ``sync``, ``bounds``, or
``all``) turns it on for the whole process; ``garray.kernels.sanitizer(...)`` for a block
of code.  While it is on, every CPU kernel (garray's own and user kernels) runs from a
separate instrumented build on fibers in a seeded order, one launch at a time.
"""

import contextlib
import os
import re

from ._errors import SanitizerError

CHECKS = {"race": 1, "init": 2, "sync": 4, "bounds": 8}
ALL = 15
DEFINE = "GA_CPU_SANITIZE=1"
# The instrumentation (compile only: the hooks are the runtime's own, and the library is
# linked without the TSan runtime; garray/_compiler/gxx.py).
FLAGS = ["-fsanitize=thread", "--param", "tsan-instrument-func-entry-exit=0"]


def parse(text, name="GARRAY_CPU_SANITIZE"):
    """The check mask of a comma list of check names (or ``all``); 0 for none."""
    if isinstance(text, int) and not isinstance(text, bool):
        if not 0 <= text <= ALL:
            raise ValueError(f"{name}: a mask of the checks 1..{ALL}, got {text}")
        return text
    if not isinstance(text, str):
        raise TypeError(f"{name}: expected a comma list of checks, got {type(text).__name__}")
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    if not words or words in (["0"], ["off"], ["no"], ["false"]):
        return 0
    mask = 0
    for w in words:
        if w in ("all", "1", "on", "yes", "true"):
            mask |= ALL
        elif w in CHECKS:
            mask |= CHECKS[w]
        else:
            raise ValueError(f"{name}: expected a comma list of {', '.join(CHECKS)} or all, "
                             f"got {w!r}")
    return mask


def _env_seed():
    raw = os.environ.get("GARRAY_CPU_SANITIZE_SEED", "").strip()
    if not raw:
        return int.from_bytes(os.urandom(4), "little")
    try:
        value = int(raw, 0)
    except ValueError:
        value = -1
    if not 0 <= value < 2 ** 64:
        raise ValueError(f"GARRAY_CPU_SANITIZE_SEED: expected an integer in [0, 2**64), "
                         f"got {raw!r}")
    return value


mask = parse(os.environ.get("GARRAY_CPU_SANITIZE", ""))
seed = _env_seed() if mask else 0
_mutant = (-1, -1)
_modules = {}           # every sanitizer build configured, by id (builds live for the process)


def configure(module):
    """Give a sanitizer build (a CpuModule) the current checks, seed, mutant and the
    core's allocation registry."""
    import ctypes
    from . import _core
    lib = module.lib
    lib.ga_host_san_config(ctypes.c_uint(mask), ctypes.c_ulonglong(seed),
                           ctypes.c_void_p(_core._san_lookup_address()))
    lib.ga_host_san_mutate(ctypes.c_long(_mutant[0]), ctypes.c_long(_mutant[1]))
    _modules[id(module)] = module
    return module


def error(message, kernel_fallback=""):
    """The SanitizerError of a finding's message ("check: kernel NAME: ...")."""
    m = re.match(r"(race|init|sync|bounds): kernel (.*?): ", message)
    check, kernel = (m.group(1), m.group(2)) if m else ("", kernel_fallback)
    return SanitizerError(f"GARRAY_CPU_SANITIZE {message}", check, kernel)


def _apply(new_mask, new_seed):
    global mask, seed
    from . import _core
    mask, seed = new_mask, new_seed
    _core._debug_cpu_sanitize(new_mask)


@contextlib.contextmanager
def sanitizer(checks="all", seed=None):
    """Run CPU kernels under the sanitizer inside the ``with`` block.

    Parameters
    ----------
    checks : str or int
        A comma list of ``race``, ``init``, ``sync``, ``bounds``, or ``all``.
    seed : int, optional
        The schedules' seed (a finding's message names it); random by default.

    Kernels launched on the CPU device inside the block run from the sanitizer build
    (compiled on first use, cached like every build), one launch at a time, and a
    finding raises :class:`garray.kernels.SanitizerError`.  Arrays allocated before the
    block are not judged by ``bounds``.
    """
    new = parse(checks, "checks")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    if not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed: expected an integer in [0, 2**64), got {seed!r}")
    old = (mask, globals()["seed"])
    _apply(new, seed)
    try:
        yield
    finally:
        _apply(*old)


@contextlib.contextmanager
def mutant(drop_barrier_line=-1, skip_shared_write=-1):
    """Test hook: sanitizer builds skip the barrier of one source line, or treat one
    shared-memory write (counted from 0 per launch) as not made."""
    global _mutant
    from . import _core
    old = _mutant
    _mutant = (drop_barrier_line, skip_shared_write)
    _core._debug_cpu_sanitize(mask)
    try:
        yield
    finally:
        _mutant = old
        _core._debug_cpu_sanitize(mask)


def barrier_sites():
    """Test hook: the source lines of the barriers that sanitizer builds' launches passed
    since the last call."""
    import ctypes
    out = set()
    for module in _modules.values():
        buf = (ctypes.c_long * 256)()
        n = module.lib.ga_host_san_sites(buf, 256)
        out.update(buf[:n])
    return sorted(out)
