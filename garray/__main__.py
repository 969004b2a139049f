"""``python -m garray``: list the devices found, self-check the default one, show a demo
and each device's memory pool statistics.

``python -m garray precompile [--device cpu|cuda|hip] [--jobs N]``: compile every
built-in kernel unit for a device into the kernel cache (``GARRAY_CACHE_DIR``), in
parallel with a progress bar, so a long job or a GPU check does not pay for the compiles
on first use.
``python -m garray resources [--device cuda|hip] [--check] [--markdown FILE]``: every
built-in kernel's registers, shared and local memory per the GPU driver
(garray/_compiler/resources.py).
"""

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

import numpy

import garray
from garray import _backends, _compiler
from garray._compiler import prebuilt
from garray._tables import ops as _optable
from garray.testing import gpu_stub


def _bytes(n):
    if n is None:
        return "none"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def pool_report(dev):
    """Two lines of a device's memory pool statistics (see MemoryPool.stats)."""
    s = dev.pool.stats()
    return (f"  {dev!s:8} used {_bytes(s['used_bytes'])} (peak {_bytes(s['peak_used_bytes'])}), "
            f"cached {_bytes(s['cached_bytes'])}, {s['segments']} segments "
            f"({s['free_segments']} wholly free)\n"
            f"  {'':8} {s['requests']} requests, {s['cache_hits']} cache hits, "
            f"{s['device_allocs']} device allocs, {s['device_frees']} device frees; "
            f"limit {_bytes(s['limit'])}, cached bound {_bytes(s['pool_limit'])}")


def main():
    print(f"garray {garray.__version__} (Array API {garray.__array_api_version__}), "
          f"numpy {numpy.__version__}, Python {sys.version.split()[0]}")
    print("devices:")
    devices = []
    for kind in _backends.KINDS:
        ok, reason = _backends.availability(kind)
        if ok:
            n = _backends.load(kind).probe()
            for i in range(n):
                dev = garray.Device(kind, i)
                devices.append(dev)
                p = dev.properties
                print(f"  {dev!s:8} {p.get('name', '?')}, warp size {p.get('warp_size')}, "
                      f"{p.get('multiprocessor_count')} multiprocessors")
        else:
            print(f"  {kind:8} unavailable: {reason}")
    dev = garray.default_device()
    print(f"default device: {dev}")

    t0 = time.perf_counter()
    ref = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    x = garray.asarray(ref, device=dev, copy=True)
    checks = {
        "transfer": (x.get(), ref),
        "view": (x[1, ::-1, 1:3].get(), ref[1, ::-1, 1:3]),
        "reshape": (x.T.reshape(4, 6).get(), ref.T.reshape(4, 6)),
        "fill": (garray.full((2, 2), 7, dtype="int16", device=dev).get(),
                 numpy.full((2, 2), 7, dtype="int16")),
    }
    y = garray.zeros((3, 4), device=dev)
    y[1:, ::2] = garray.asarray([1.0, 2.0], device=dev)
    yr = numpy.zeros((3, 4))
    yr[1:, ::2] = [1.0, 2.0]
    checks["setitem"] = (y.get(), yr)
    failed = [name for name, (got, want) in checks.items()
              if got.dtype != want.dtype or not numpy.array_equal(got, want)]
    ms = (time.perf_counter() - t0) * 1e3
    if failed:
        print(f"self-check on {dev}: FAILED ({', '.join(failed)})")
        return 1
    print(f"self-check on {dev}: {len(checks)} checks passed in {ms:.1f} ms")
    print("demo: garray.arange(12).reshape(3, 4)[:, ::-1].T =")
    print(garray.arange(12, device=dev).reshape(3, 4)[:, ::-1].T)
    print("memory pools (limit: GARRAY_MEMORY_LIMIT, on used + cached; cached bound: "
          "GARRAY_POOL_LIMIT):")
    for d in devices:
        print(pool_report(d))
    return 0


def precompile(argv):
    ap = argparse.ArgumentParser(prog="python -m garray precompile",
                                 description="compile every built-in kernel unit for a device")
    ap.add_argument("--device", default=None,
                    help="cpu, cuda, hip or e.g. cuda:1 (default: the default device)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    dev = garray.Device(args.device) if args.device else garray.default_device()
    props = dev.properties
    warp = props["warp_size"]
    units = _optable.all_units()
    if dev.kind == "cpu":
        path, count, why = prebuilt.status()
        print(f"built-in CPU kernels compiled at install: {path} ({count} units)" if path else
              f"no built-in CPU kernels compiled at install ({why}): compiling them")

        def build(unit):
            _compiler.compile_cpu(unit[0], unit[1], warp)
    else:
        arch = str(props.get("arch", "")).split(":")[0]

        stub = gpu_stub.installed() and gpu_stub.stub_library(dev.kind) is not None

        def build(unit):
            _compiler.compile_gpu(dev.kind, unit[0], unit[1], arch, warp)
            if stub:        # the stub driver runs each kernel's CPU build: make those too
                gpu_stub.stand_in(unit[0], unit[1], warp)
    t0 = time.perf_counter()
    done, failed, tty = 0, [], sys.stdout.isatty()
    print(f"precompiling {len(units)} units for {dev} (warp size {warp}) "
          f"with {args.jobs} jobs into {_compiler.cache_dir()}")
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(build, u): u for u in units}
        for f in as_completed(futures):
            done += 1
            if f.exception() is not None:
                failed.append((futures[f], f.exception()))
            width = 30
            bar = "#" * (done * width // len(units))
            line = f"[{bar:<{width}}] {done}/{len(units)} {time.perf_counter() - t0:6.1f}s"
            if tty:
                print("\r" + line, end="", flush=True)
            elif done == len(units) or done % max(1, len(units) // 10) == 0:
                print(line, flush=True)
    if tty:
        print()
    for (file, exprs), e in failed:
        print(f"FAILED {file} ({len(exprs)} instantiations): {e}")
    print(f"{len(units) - len(failed)} of {len(units)} units ready in "
          f"{time.perf_counter() - t0:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["precompile"]:
        sys.exit(precompile(sys.argv[2:]))
    if sys.argv[1:2] == ["resources"]:
        from garray._compiler import resources
        sys.exit(resources.main(sys.argv[2:]))
    sys.exit(main())
