"""Elementwise throughput of garray against CuPy and PyTorch on one GPU, plus a
device-to-device copy as the bandwidth roof.  On a machine without them (or with
--device cpu) it compares garray's CPU device with NumPy instead.

    python bench/gpu_bench.py [--log2n 24] [--repeat 10]

Prints one table (GB/s counting bytes read + written; ratio = garray / best baseline).
"""

import argparse
import time

import numpy

import garray


def _sync_for(lib, dev):
    if lib == "cupy":
        import cupy
        return cupy.cuda.runtime.deviceSynchronize
    if lib == "torch":
        import torch
        return torch.cuda.synchronize
    if lib == "garray":
        return dev.synchronize
    return lambda: None


def _timeit(fn, sync, repeat):
    fn()
    sync()
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - t)
    return best


def _cases(xp, lib, n, dt):
    if lib == "torch":
        import torch
        tdt = getattr(torch, dt)
        a = torch.ones(n, dtype=tdt, device="cuda")
        b = a * 2
        big = torch.ones(2 * n, dtype=tdt, device="cuda")
        return {"add": lambda: a + b, "multiply": lambda: a * b, "exp": lambda: torch.exp(a),
                "where": lambda: torch.where(a > 0, a, b), "add strided": lambda: big[::2] + big[::2],
                "copy": lambda: a.clone()}
    a = xp.ones(n, dtype=dt)
    b = a * 2
    big = xp.ones(2 * n, dtype=dt)
    sa = big[::2]
    cond = a > 0
    return {"add": lambda: a + b, "multiply": lambda: a * b, "exp": lambda: xp.exp(a),
            "where": lambda: xp.where(cond, a, b), "add strided": lambda: sa + sa,
            "copy": lambda: a.copy()}


BYTES = {"add": 3, "multiply": 3, "exp": 2, "where": 3, "add strided": 3, "copy": 2}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=24)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--device", default=None, help="garray device (default: the default)")
    args = ap.parse_args()
    dev = garray.Device(args.device) if args.device else garray.default_device()
    n = 1 << args.log2n
    libs = [("garray", garray)]
    if dev.kind == "cpu":
        libs.append(("numpy", numpy))
    else:
        try:
            import cupy
            libs.append(("cupy", cupy))
        except Exception as e:  # noqa: BLE001 - report and go on without it
            print(f"cupy unavailable: {e}")
        try:
            import torch
            if torch.cuda.is_available():
                libs.append(("torch", torch))
        except Exception as e:  # noqa: BLE001
            print(f"torch unavailable: {e}")
    print(f"garray on {dev}; n = 2**{args.log2n}; best of {args.repeat}")
    head = " ".join(f"{name:>9}" for name, _ in libs)
    print(f"{'op':<12} {'dtype':<8} {head}  (GB/s)  ratio")
    rows = []
    with dev:
        for dt in ("float32", "float64"):
            item = numpy.dtype(dt).itemsize
            per_lib = {}
            for name, xp in libs:
                try:
                    cases = _cases(xp, name, n, dt)
                    sync = _sync_for(name, dev)
                    per_lib[name] = {op: BYTES[op] * n * item / _timeit(f, sync, args.repeat) / 1e9
                                     for op, f in cases.items()}
                except Exception as e:  # noqa: BLE001 - a failing library is reported
                    print(f"{name} {dt}: {type(e).__name__}: {str(e)[:200]}")
                    per_lib[name] = {}
            for op in BYTES:
                vals = [per_lib[name].get(op) for name, _ in libs]
                g = vals[0]
                base = max((v for v in vals[1:] if v), default=None)
                ratio = f"{g / base:5.2f}" if g and base else "  n/a"
                cells = " ".join(f"{v:9.1f}" if v else f"{'-':>9}" for v in vals)
                print(f"{op:<12} {dt:<8} {cells}  {ratio}")
                rows.append((op, dt, ratio))
    print("summary: " + ", ".join(f"{op}/{dt} {r.strip()}" for op, dt, r in rows
                                  if op in ("add", "exp", "copy")))


if __name__ == "__main__":
    main()
