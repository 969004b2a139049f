"""The run-time side of the ahead-of-time CPU kernels (Note [Ahead-of-time CPU kernels]
in aot.py): find ``garray/_cpu_kernels.so`` and a unit's entries in it.  Kept apart from
aot.py, which the build runs and which needs the compiler (gxx.py), so that gxx.py can
look here first without importing the build side.
"""

import ctypes
import os

from .cache import cache_key, source_hash
from .. import _env

LIBRARY = "_cpu_kernels"


def unit_key(relpath, exprs, warp_size, fibers, flags):
    """The key of one unit's build (Note [Ahead-of-time CPU kernels], 3)."""
    return cache_key(["aot", relpath, source_hash(relpath), f"warp={warp_size}", flags,
                      *exprs, "fibers:", *sorted(fibers)])


_library = None        # (ctypes library, {key: (unit, shard)}), or False: none usable
_library_error = None


def _library_path():
    """garray/_cpu_kernels.so, or in an editable install the one in meson's build
    directory (beside the extension module); None when the build made none."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs = [here]
    try:
        from .. import _core   # here: absent while the build runs (aot.py)
        dirs.append(os.path.dirname(os.path.abspath(_core.__file__)))
    except ImportError:
        pass
    for d in dirs:
        path = os.path.join(d, LIBRARY + ".so")
        if os.path.isfile(path):
            return path
    return None


def _load():
    global _library, _library_error
    if _library is None:
        _library = False
        if not _env.flag("GARRAY_CPU_AOT", default=True):
            _library_error = "GARRAY_CPU_AOT=0"
            return _library
        path = _library_path()
        if path is None:
            _library_error = "the build installed no " + LIBRARY
            return _library
        try:
            lib = ctypes.CDLL(path)
            count = ctypes.c_int.in_dll(lib, "ga_aot_count").value
            keys = (ctypes.c_char_p * count).in_dll(lib, "ga_aot_keys")
            shards = (ctypes.c_int * count).in_dll(lib, "ga_aot_shards")
        except (OSError, ValueError) as e:
            _library_error = f"{path}: {e}"
            return _library
        _library = (lib, {keys[k].decode(): (k, shards[k]) for k in range(count)})
    return _library


def lookup(relpath, exprs, warp_size, fibers, flags):
    """This unit's build in the library as (cache key, library, entries(), symbol prefix),
    or None when it has no such build; gxx.py makes the module."""
    lib = _load()
    if not lib:
        return None
    lib, index = lib
    key = unit_key(relpath, exprs, warp_size, fibers, flags)
    hit = index.get(key)
    if hit is None:
        return None
    k, shard = hit

    def address(name):
        return ctypes.cast(getattr(lib, name), ctypes.c_void_p).value
    return ("aot-" + key, lib, lambda: ({e: address(f"ga_u{k}_{i}") for i, e in enumerate(exprs)},
                                        {e: address(f"ga_u{k}_{i}_r") for i, e in enumerate(exprs)}),
            f"ga_s{shard}_")


def status():
    """(library path or None, units it holds, why it is not used or None)."""
    lib = _load()
    if not lib:
        return None, 0, _library_error
    return _library_path(), len(lib[1]), None
