"""Ahead-of-time CPU kernels: every built-in kernel unit, compiled at install into one
shared library beside the extension (``garray/_cpu_kernels.so``).

Note [Ahead-of-time CPU kernels]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
1. The build (meson.build) runs this file as a script: ``flags`` prints the C++ flags
   the CPU compile layer (gxx.py) uses on this machine, ``emit DIR`` writes the
   translation units, ``tables`` the table files they follow from (the family list of
   garray/_tables/family.py).  Every unit of ``garray._tables.ops.all_units()`` goes
   into one of SHARDS_32 files at the canonical warp size 32; units with barrier
   kernels (which depend on the warp size) also into one of SHARDS_64 files at warp
   size 64.  Meson compiles the shards in parallel and links them.
2. Entries are named ``ga_u<unit>_<i>`` (and ``..._r``, the range entry for the launch
   pool); each shard prefixes its module helpers with ``ga_s<shard>_``.  The index
   shard exports ``ga_aot_keys``, the key of every unit, in unit order.
3. A unit's key (``unit_key``) covers what its machine code depends on: the kernel file
   and every header it includes (``cache.source_hash``), the name expressions, the warp
   size, which entries run on fibers, and the compile flags (ISA included).  At run time
   ``compile_cpu`` computes the same key and takes the library's entries when it has
   it, so a changed source, other flags (``GARRAY_CPU_ISA``, ``GARRAY_CXXFLAGS``) or
   another machine's ISA never run a stale build: they fall back to the JIT.  The
   compiler's version is not in the key (reading it runs the compiler): the library was
   built by the compiler the build found.
4. ``GARRAY_CPU_AOT=0`` ignores the library (every built-in unit compiles on first use,
   as for GPUs); the JIT stays for user kernels, GPU devices and the vector-load test
   build.
5. One library holds both warp sizes' builds of the barrier kernels, whose code depends
   on the warp size under the same names (``ga::reduce_bt<...>``, ``ga_host::run_block``):
   inline functions and template instances are merged by the linker, one copy for both.
   The warp-64 shards rename the namespaces (``ga_w64``, ``ga_host_w64``) by macro, so
   each warp size keeps its own code (and its own runtime state: a process uses one
   warp size).  The fast builds worked before this only where the compiler had inlined
   every such function into its entry.
6. Each shard's ``#include`` lines carry the hash of the file and its headers, so an
   edit of any kernel source changes the shard's text and the shard recompiles.  The
   index's keys change with the same edit, and a build whose header dependencies were
   lost (ninja once recorded none for a shard) would otherwise link stale code under
   fresh keys: a wrong result with no fallback to the JIT.
"""

import os
import sys

if __name__ == "__main__" and __package__ in (None, ""):
    # Run by the build: import garray's pure-Python tables without garray/__init__.py,
    # which needs the extension that is being built, and without an editable install's
    # import hook (which would start a build of its own).
    import types
    sys.meta_path = [f for f in sys.meta_path if type(f).__name__ != "MesonpyMetaFinder"]
    _root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    _pkg = types.ModuleType("garray")
    _pkg.__path__ = [os.path.join(_root, "garray")]
    sys.modules["garray"] = _pkg
    __package__ = "garray._compiler"

from . import gxx
from .cache import source_hash
from .prebuilt import unit_key
from .._tables import ops as _optable
from .._tables.family import barrier_kernels, table_files

SHARDS_32 = 40
SHARDS_64 = 6


def _units():
    """[(relpath, exprs, warp_size, fibers)] for every unit the library holds."""
    out = []
    for relpath, exprs in _optable.all_units():
        fibers = frozenset(e for e in exprs if e.startswith(barrier_kernels()))
        exprs, _ = gxx.cpu_unit(exprs)
        for warp in ((32, 64) if fibers else (32,)):
            out.append((relpath, list(exprs), warp, fibers))
    return out


def _flags(warp):
    g = gxx
    return " ".join(g._CXX_FLAGS + g._defines(warp, ()))


def _cost(unit):
    relpath, exprs, _, fibers = unit
    return len(exprs) * (3 if relpath == "reduce.hip" else 1) + 20 * len(fibers)


def _shards(units):
    """Units spread over the shards, the costliest first onto the least loaded."""
    shards = {32: [[] for _ in range(SHARDS_32)], 64: [[] for _ in range(SHARDS_64)]}
    load = {32: [0] * SHARDS_32, 64: [0] * SHARDS_64}
    for k in sorted(range(len(units)), key=lambda k: -_cost(units[k])):
        w = units[k][2]
        j = min(range(len(load[w])), key=load[w].__getitem__)
        shards[w][j].append(k)
        load[w][j] += _cost(units[k])
    return shards


def shard_names():
    return ([f"aot_w32_{j:02d}.cpp" for j in range(SHARDS_32)] +
            [f"aot_w64_{j:02d}.cpp" for j in range(SHARDS_64)] + ["aot_index.cpp"])


def _write(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w") as f:
        f.write(text)


def emit(outdir):
    units = _units()
    shards = _shards(units)
    j = 0
    for w in (32, 64):
        for members in shards[w]:
            lines = [f"// garray ahead-of-time CPU kernels, shard {j} (garray/_compiler/aot.py)",
                     f"#define GA_WARP_SIZE {w}", "#define GARRAY_HOST 1",
                     f"#define GA_HOST_SYMBOL_PREFIX ga_s{j}_"]
            if w != 32:
                # Note [Ahead-of-time CPU kernels], 5: other names for this warp size's
                # kernels and runtime, so the linker cannot merge them with warp 32's
                lines += [f"#define ga ga_w{w}", f"#define ga_host ga_host_w{w}"]
            for relpath in sorted({units[k][0] for k in members}):
                # the hash of the file and its headers: any edit changes this shard's
                # text, so it recompiles even where the build's header dependencies
                # were lost (Note [Ahead-of-time CPU kernels], 6)
                lines.append(f'#include "{relpath}"  // sources {source_hash(relpath)[:16]}')
            for k in members:
                _, exprs, _, fibers = units[k]
                lines += [f"GA_HOST_FIBER_ENTRY(ga_u{k}_{i}, {e})" if e in fibers else
                          f"GA_HOST_ENTRY(ga_u{k}_{i}, {e})" for i, e in enumerate(exprs)]
            if not members:
                lines.append("// (no unit)")
            _write(os.path.join(outdir, shard_names()[j]), "\n".join(lines) + "\n")
            j += 1
    shard_of = {k: j for j, members in enumerate(shards[32] + shards[64]) for k in members}
    keys = [unit_key(r, e, w, f, _flags(w)) for r, e, w, f in units]
    index = ["// garray ahead-of-time CPU kernels: the unit keys and shards (aot.py)",
             'extern "C" __attribute__((visibility("default"))) const int ga_aot_count = '
             f"{len(units)};",
             'extern "C" __attribute__((visibility("default"))) const char* const '
             "ga_aot_keys[] = {"]
    index += [f'    "{key}",' for key in keys]
    index += ["};",
              'extern "C" __attribute__((visibility("default"))) const int ga_aot_shards[] = {']
    index += [f"    {shard_of[k]}," for k in range(len(units))]
    index += ["};"]
    _write(os.path.join(outdir, "aot_index.cpp"), "\n".join(index) + "\n")


def main(argv):
    if argv[:1] == ["flags"]:
        g = gxx
        print("\n".join(f for f in g._CXX_FLAGS if f not in ("-shared", "-fPIC")))
    elif argv[:1] == ["libs"]:
        print("\n".join(gxx.link_flags()))
    elif argv[:1] == ["emit"] and len(argv) == 2:
        emit(argv[1])
    elif argv[:1] == ["shards"]:
        print("\n".join(shard_names()))
    elif argv[:1] == ["tables"]:
        # the files the tables come from (meson's depend_files): the family list
        print("\n".join(table_files()))
    elif argv[:1] == ["sources"]:
        # every kernel source and header: the emitted keys hash them, so an edit must
        # re-run emit (meson's depend_files), not only recompile the shards
        kdir = os.path.join(_root, "_kernels")
        print("\n".join(sorted(os.path.relpath(os.path.join(d, f), _root)
                               for d, _, fs in os.walk(kdir) for f in fs
                               if f.endswith((".hip", ".h")))))
    else:
        print("usage: aot.py flags | libs | shards | tables | sources | emit OUTDIR", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
