"""``python -m garray``: list the devices found, self-check the default one, show a demo."""

import sys
import time

import numpy

import garray
from garray import _backends


def main():
    print(f"garray {garray.__version__} (Array API {garray.__array_api_version__}), "
          f"numpy {numpy.__version__}, Python {sys.version.split()[0]}")
    print("devices:")
    for kind in _backends.KINDS:
        ok, reason = _backends.availability(kind)
        if ok:
            n = _backends.load(kind).probe()
            for i in range(n):
                dev = garray.Device(kind, i)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
