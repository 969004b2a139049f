"""Elementwise throughput of garray against CuPy and PyTorch on one GPU, plus a
device-to-device copy as the bandwidth roof.  On a machine without them (or with
--device cpu) it compares garray's CPU device with NumPy instead.

    python bench/gpu_bench.py [--log2n 24] [--red-log2n 28] [--repeat 10]

Prints two tables.  Elementwise: GB/s counting bytes read + written; ratio = garray /
best baseline.  Reductions: sum of 2**red_log2n float32 (all axes) and sum(axis=-1) of the
same elements as a square-ish matrix ((2**14, 2**14) at 28), as GB/s of bytes read and as
a fraction of the same library's device-to-device copy of those elements in the same run
(bytes read + written / time); ratio = garray's fraction / the best baseline's.
GEMM: float32 and float64 ``matmul`` of two (n, n) matrices (``--gemm-n``, default 8192),
GFLOP/s (2 n**3 / time) for garray's vendor path (cuBLAS / hipBLAS / OpenBLAS) and its
kernel path (``GARRAY_GEMM=vendor`` / ``kernel``, which matmul reads at each call) beside
``torch.matmul`` and CuPy (NumPy on the CPU device); ratio = garray / the best baseline.
All in full float32: garray.config.allow_tf32, torch's allow_tf32 and CUPY_TF32 are off by
default.
Conv2d: float32 forward of ResNet-like layers (bench/conv.py's), batch ``--conv-n``
(default 8; 0 skips), milliseconds for garray's vendor and kernel paths (GARRAY_CONV)
beside torch.nn.functional.conv2d (cudnn.allow_tf32 off); ratio = baseline time / garray
time; on the CPU device the baseline is bench/conv.py's im2col + numpy.matmul.
Random: 2**rand_log2n uniform (``random``) and standard normal values, float32 and
float64, milliseconds: garray's Philox Generator beside CuPy's Generator (default_rng) and
torch.rand/randn (NumPy's default_rng on the CPU device); ratio = best baseline time /
garray time.  ``--rand-log2n`` defaults to ``--red-log2n`` (28), so gpu_check.sh's small
dry-run and stub sizes apply to it too.
"""

import argparse
import os
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


def _red_cases(xp, lib, k):
    """sum (all axes), sum(axis=-1) and the copy roof over 2**k float32 elements."""
    n, rows = 1 << k, 1 << (k // 2)
    if lib == "torch":
        import torch
        a = torch.ones(n, dtype=torch.float32, device="cuda")
        m = a.view(rows, n // rows)
        return {"sum": lambda: torch.sum(a), "sum axis=-1": lambda: torch.sum(m, dim=-1),
                "copy": lambda: a.clone()}
    a = xp.ones(n, dtype="float32")
    m = a.reshape(rows, n // rows)
    return {"sum": lambda: xp.sum(a), "sum axis=-1": lambda: xp.sum(m, axis=-1),
            "copy": lambda: a.copy()}


def _free(lib):
    """Give a library's cached device memory back before the next one allocates."""
    try:
        if lib == "cupy":
            import cupy
            cupy.get_default_memory_pool().free_all_blocks()
        elif lib == "torch":
            import torch
            torch.cuda.empty_cache()
    except Exception:  # noqa: BLE001 - best effort
        pass


def reductions(libs, dev, k, repeat):
    """The reduction table; returns [(op, garray fraction of copy, ratio string)]."""
    n = 1 << k
    rows = 1 << (k // 2)
    print()
    print(f"reductions: 2**{k} float32; sum axis=-1 as ({rows}, {n // rows}); "
          f"GB/s of bytes read, fraction of the same library's copy (2 x bytes / time)")
    head = " ".join(f"{name + ' GB/s':>11} {'frac':>5}" for name, _ in libs)
    print(f"{'op':<12} {head}  ratio")
    per_lib = {}
    for name, xp in libs:
        try:
            cases = _red_cases(xp, name, k)
            sync = _sync_for(name, dev)
            t = {op: _timeit(f, sync, repeat) for op, f in cases.items()}
            copy_bw = 2 * 4 * n / t["copy"]
            per_lib[name] = {op: (4 * n / t[op] / 1e9, 4 * n / t[op] / copy_bw)
                             for op in ("sum", "sum axis=-1")}
            per_lib[name]["copy"] = (copy_bw / 1e9, 1.0)
            del cases
        except Exception as e:  # noqa: BLE001 - a failing library is reported
            print(f"{name} reductions: {type(e).__name__}: {str(e)[:200]}")
            per_lib[name] = {}
        _free(name)
    out = []
    for op in ("sum", "sum axis=-1", "copy"):
        vals = [per_lib[name].get(op) for name, _ in libs]
        g = vals[0]
        base = max((v[1] for v in vals[1:] if v), default=None) if op != "copy" else None
        ratio = f"{g[1] / base:5.2f}" if g and base else "  n/a"
        cells = " ".join(f"{v[0]:11.1f} {v[1]:5.2f}" if v else f"{'-':>11} {'-':>5}"
                         for v in vals)
        print(f"{op:<12} {cells}  {ratio}")
        if op != "copy":
            out.append((op, f"{g[1]:.2f}" if g else "n/a", ratio))
    return out


def sorting(libs, dev, k, repeat):
    """sort of 2**k float32 and int64 (random values): milliseconds per library."""
    n = 1 << k
    rng = numpy.random.default_rng(0)
    host = {"float32": rng.random(n, dtype=numpy.float32),
            "int64": rng.integers(-(1 << 62), 1 << 62, n, dtype=numpy.int64)}
    print()
    print(f"sort: 2**{k} random values, milliseconds (best of {repeat})")
    print(f"{'op':<12} {'dtype':<8} " + " ".join(f"{name:>9}" for name, _ in libs) + "  ratio")
    out = []
    for dt, h in host.items():
        ms = []
        for name, xp in libs:
            try:
                if name == "torch":
                    import torch
                    a = torch.from_numpy(h).to("cuda")
                    f = lambda a=a: torch.sort(a)        # noqa: E731
                else:
                    a = xp.asarray(h)
                    f = lambda a=a, xp=xp: xp.sort(a)   # noqa: E731
                ms.append(_timeit(f, _sync_for(name, dev), repeat) * 1e3)
                del a
            except Exception as e:  # noqa: BLE001 - a failing library is reported
                print(f"{name} sort {dt}: {type(e).__name__}: {str(e)[:200]}")
                ms.append(None)
            _free(name)
        base = min((v for v in ms[1:] if v), default=None)
        ratio = f"{base / ms[0]:5.2f}" if ms[0] and base else "  n/a"
        print(f"{'sort':<12} {dt:<8} " + " ".join(f"{v:9.2f}" if v else f"{'-':>9}"
                                                  for v in ms) + f"  {ratio}")
        out.append(("sort", dt, ratio))
    return out


def _gemm_case(xp, lib, n, dt):
    """(x @ y as a thunk, the arrays) for two (n, n) matrices of one library."""
    host = numpy.random.default_rng(1).standard_normal((2, n, n)).astype(dt)
    if lib == "torch":
        import torch
        x, y = (torch.from_numpy(h).to("cuda") for h in host)
        return lambda: torch.matmul(x, y), (x, y)
    x, y = xp.asarray(host[0]), xp.asarray(host[1])
    return lambda: xp.matmul(x, y), (x, y)


def gemm(libs, dev, n, repeat):
    """The GEMM table; garray runs twice, GARRAY_GEMM=vendor then kernel.  Returns
    [(dtype, vendor ratio, kernel ratio)]."""
    runs = [("garray", "vendor"), ("garray", "kernel")] + [(name, None) for name, _ in libs[1:]]
    xps = dict(libs)
    label = {("garray", "vendor"): "vendor", ("garray", "kernel"): "kernel"}
    print()
    print(f"gemm: ({n}, {n}) @ ({n}, {n}), GFLOP/s (2 n**3 / time), best of {repeat}; "
          f"garray's vendor path and kernel path (GARRAY_GEMM)")
    head = " ".join(f"{label.get(r, r[0]):>9}" for r in runs)
    print(f"{'op':<12} {'dtype':<8} {head}  vendor/best kernel/best")
    out = []
    saved = os.environ.get("GARRAY_GEMM")
    for dt in ("float32", "float64"):
        rates = []
        for name, path in runs:
            try:
                if path is not None:
                    os.environ["GARRAY_GEMM"] = path
                f, keep = _gemm_case(xps[name], name, n, dt)
                rates.append(2 * n ** 3 / _timeit(f, _sync_for(name, dev), repeat) / 1e9)
                del f, keep
            except Exception as e:  # noqa: BLE001 - a failing library is reported
                print(f"{label.get((name, path), name)} gemm {dt}: {type(e).__name__}: "
                      f"{str(e)[:200]}")
                rates.append(None)
            finally:
                if saved is None:
                    os.environ.pop("GARRAY_GEMM", None)
                else:
                    os.environ["GARRAY_GEMM"] = saved
            _free(name)
        base = max((v for v in rates[2:] if v), default=None)
        ratios = [f"{v / base:5.2f}" if v and base else "  n/a" for v in rates[:2]]
        cells = " ".join(f"{v:9.1f}" if v else f"{'-':>9}" for v in rates)
        print(f"{'matmul':<12} {dt:<8} {cells}  {ratios[0]:>11} {ratios[1]:>11}")
        out.append((dt, ratios[0].strip(), ratios[1].strip()))
    return out


def _rand_cases(xp, lib, n):
    """{(op, dtype): thunk}: n uniform and n standard normal values of one library."""
    ops = {"uniform": "random", "normal": "standard_normal"}
    if lib == "torch":
        import torch
        fns = {"uniform": torch.rand, "normal": torch.randn}
        return {(op, dt): lambda f=fns[op], t=getattr(torch, dt): f(n, dtype=t, device="cuda")
                for op in ops for dt in ("float32", "float64")}
    if lib == "garray":
        import garray.random  # noqa: F401 - the sub-namespace is not imported by garray
    g = xp.random.default_rng(0)
    return {(op, dt): (lambda f=getattr(g, m), dt=dt: f(n, dtype=dt))
            for op, m in ops.items() for dt in ("float32", "float64")}


def randoms(libs, dev, k, repeat):
    """The random table: milliseconds per library; returns [(op, dtype, ratio)]."""
    n = 1 << k
    print()
    print(f"random: 2**{k} values, milliseconds (best of {repeat}); uniform = random(), "
          f"normal = standard_normal (torch.rand / torch.randn)")
    print(f"{'op':<12} {'dtype':<8} " + " ".join(f"{name:>9}" for name, _ in libs) + "  ratio")
    per_lib = {}
    for name, xp in libs:
        try:
            sync = _sync_for(name, dev)
            per_lib[name] = {key: _timeit(f, sync, repeat) * 1e3
                             for key, f in _rand_cases(xp, name, n).items()}
        except Exception as e:  # noqa: BLE001 - a failing library is reported
            print(f"{name} random: {type(e).__name__}: {str(e)[:200]}")
            per_lib[name] = {}
        _free(name)
    out = []
    for op in ("uniform", "normal"):
        for dt in ("float32", "float64"):
            ms = [per_lib[name].get((op, dt)) for name, _ in libs]
            base = min((v for v in ms[1:] if v), default=None)
            ratio = f"{base / ms[0]:5.2f}" if ms[0] and base else "  n/a"
            print(f"{op:<12} {dt:<8} " + " ".join(f"{v:9.2f}" if v else f"{'-':>9}"
                                                  for v in ms) + f"  {ratio}")
            out.append((op, dt, ratio))
    return out


CONV_LAYERS = [
    # label, C_in, C_out, size, kernel, padding, groups (bench/conv.py's layers)
    ("3x3 64->64 @56", 64, 64, 56, 3, 1, 1),
    ("3x3 128->128 @28", 128, 128, 28, 3, 1, 1),
    ("1x1 256->64 @56", 256, 64, 56, 1, 0, 1),
    ("dw3x3 128 @56", 128, 128, 56, 3, 1, 128),
]


def _conv_case(xp, lib, n, layer):
    """conv2d forward of one layer as a thunk, and the arrays it keeps."""
    _, ci, co, size, k, pad, groups = layer
    rng = numpy.random.default_rng(2)
    xh = rng.standard_normal((n, ci, size, size)).astype("float32")
    wh = (rng.standard_normal((co, ci // groups, k, k)) / numpy.sqrt(ci // groups * k * k)
          ).astype("float32")
    if lib == "torch":
        import torch
        x, w = torch.from_numpy(xh).to("cuda"), torch.from_numpy(wh).to("cuda")
        return lambda: torch.nn.functional.conv2d(x, w, None, 1, pad, 1, groups), (x, w)
    if lib == "numpy":
        import sys
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from conv import numpy_conv2d
        return lambda: numpy_conv2d(xh, wh, pad, groups), ()
    import garray.nn
    x, w = garray.asarray(xh), garray.asarray(wh)
    path = os.environ.get("GARRAY_CONV", "auto")
    return lambda: garray.nn.conv2d(x, w, None, 1, pad, 1, groups, algorithm=path), (x, w)


def convs(libs, dev, n, repeat):
    """The conv2d table (float32 forward, batch n): milliseconds for garray's vendor path
    (cuDNN / MIOpen / im2col + OpenBLAS) and kernel path (GARRAY_CONV) beside
    torch.nn.functional.conv2d (im2col + numpy.matmul on the CPU device; CuPy has no
    convolution).  Returns [(layer, vendor ratio, kernel ratio)], ratio = best baseline
    time / garray time."""
    base_libs = [(name, xp) for name, xp in libs[1:] if name != "cupy"]
    runs = [("garray", "vendor"), ("garray", "kernel")] + [(name, None) for name, _ in base_libs]
    label = {("garray", "vendor"): "vendor", ("garray", "kernel"): "kernel"}
    print()
    if not base_libs:
        print("conv2d: skipped (no baseline: torch is absent and this is not the CPU device)")
    print(f"conv2d: float32 forward, N = {n}, milliseconds (best of {repeat}); garray's "
          f"vendor path and kernel path (GARRAY_CONV); torch with cudnn.allow_tf32 off")
    head = " ".join(f"{label.get(r, r[0]):>9}" for r in runs)
    print(f"{'layer':<18} {head}  vendor/best kernel/best")
    try:
        import torch
        torch.backends.cudnn.allow_tf32 = False
    except Exception:  # noqa: BLE001 - no torch: nothing to configure
        pass
    out = []
    saved = os.environ.get("GARRAY_CONV")
    xps = dict(libs)
    for layer in CONV_LAYERS:
        ms = []
        for name, path in runs:
            try:
                if path is not None:
                    os.environ["GARRAY_CONV"] = path
                f, keep = _conv_case(xps[name], name, n, layer)
                ms.append(_timeit(f, _sync_for(name, dev), repeat) * 1e3)
                del f, keep
            except Exception as e:  # noqa: BLE001 - a failing library is reported
                print(f"{label.get((name, path), name)} conv2d {layer[0]}: "
                      f"{type(e).__name__}: {str(e)[:200]}")
                ms.append(None)
            finally:
                if saved is None:
                    os.environ.pop("GARRAY_CONV", None)
                else:
                    os.environ["GARRAY_CONV"] = saved
            _free(name)
        base = min((v for v in ms[2:] if v), default=None)
        ratios = [f"{base / v:5.2f}" if v and base else "  n/a" for v in ms[:2]]
        cells = " ".join(f"{v:9.2f}" if v else f"{'-':>9}" for v in ms)
        print(f"{layer[0]:<18} {cells}  {ratios[0]:>11} {ratios[1]:>11}")
        out.append((layer[0], ratios[0].strip(), ratios[1].strip()))
    return out


def _fft_case(xp, lib, shape, two_d):
    """A batched complex64 fft (last axis) or fft2 (last two axes) as a thunk."""
    rng = numpy.random.default_rng(3)
    host = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype("complex64")
    if lib == "torch":
        import torch
        x = torch.from_numpy(host).to("cuda")
        return (lambda: torch.fft.fft2(x)) if two_d else (lambda: torch.fft.fft(x)), (x,)
    x = xp.asarray(host)
    return (lambda: xp.fft.fft2(x)) if two_d else (lambda: xp.fft.fft(x)), (x,)


def ffts(libs, dev, log2n, repeat):
    """The FFT table (complex64): a batch of 1-d transforms of 2**log2n points in all
    (rows of 2**12), and a batch of 2-d transforms (1024 x 1024 each, or smaller below
    2**20 points), in milliseconds: garray's vendor path (cuFFT / hipFFT) and kernel path
    (GARRAY_FFT) beside cupy.fft and torch.fft (numpy.fft on the CPU device, where both
    garray runs take the kernels).  Returns [(case, vendor ratio, kernel ratio)], ratio =
    best baseline time / garray time."""
    total = 1 << log2n
    row = min(1 << 12, total)
    side = 1 << min(10, log2n // 2)
    cases = [(f"fft ({total // row}, {row})", (total // row, row), False),
             (f"fft2 ({max(1, total // side ** 2)}, {side}, {side})",
              (max(1, total // side ** 2), side, side), True)]
    runs = [("garray", "vendor"), ("garray", "kernel")] + [(name, None) for name, _ in libs[1:]]
    label = {("garray", "vendor"): "vendor", ("garray", "kernel"): "kernel"}
    xps = dict(libs)
    print()
    print(f"fft: complex64, milliseconds (best of {repeat}); garray's vendor path and "
          f"kernel path (GARRAY_FFT)")
    head = " ".join(f"{label.get(r, r[0]):>9}" for r in runs)
    print(f"{'case':<22} {head}  vendor/best kernel/best")
    out = []
    saved = os.environ.get("GARRAY_FFT")
    for name_case, shape, two_d in cases:
        ms = []
        for name, path in runs:
            try:
                if path is not None:
                    os.environ["GARRAY_FFT"] = path
                f, keep = _fft_case(xps[name], name, shape, two_d)
                ms.append(_timeit(f, _sync_for(name, dev), repeat) * 1e3)
                del f, keep
            except Exception as e:  # noqa: BLE001 - a failing library is reported
                print(f"{label.get((name, path), name)} {name_case}: {type(e).__name__}: "
                      f"{str(e)[:200]}")
                ms.append(None)
            finally:
                if saved is None:
                    os.environ.pop("GARRAY_FFT", None)
                else:
                    os.environ["GARRAY_FFT"] = saved
            _free(name)
        base = min((v for v in ms[2:] if v), default=None)
        ratios = [f"{base / v:5.2f}" if v and base else "  n/a" for v in ms[:2]]
        cells = " ".join(f"{v:9.2f}" if v else f"{'-':>9}" for v in ms)
        print(f"{name_case:<22} {cells}  {ratios[0]:>11} {ratios[1]:>11}")
        out.append((name_case.split()[0], ratios[0].strip(), ratios[1].strip()))
    return out


def overlap_row(dev, log2n, repeat):
    """bench/streams.py's overlap table (8 pipelines of copy in, compute, copy out on one
    stream and on two); returns the ratio one-stream time / two-stream time as text."""
    try:
        from streams import overlap       # bench/streams.py, beside this file
        one, two, ratio = overlap(dev, log2n, 8, max(2, repeat // 2))
    except Exception as e:  # noqa: BLE001 - reported, the other tables stand
        print(f"streams: {type(e).__name__}: {str(e)[:200]}")
        return "n/a"
    print()
    print(f"streams: 8 pipelines of 2**{log2n} float32 (pinned copy in, compute, copy out)")
    print(f"one stream {one:.2f} ms, two streams {two:.2f} ms, ratio {ratio:.2f}")
    return f"{ratio:.2f}"


BYTES = {"add": 3, "multiply": 3, "exp": 2, "where": 3, "add strided": 3, "copy": 2}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=24)
    ap.add_argument("--red-log2n", type=int, default=28,
                    help="reductions over 2**red_log2n float32 elements")
    ap.add_argument("--sort-log2n", type=int, default=26,
                    help="sort of 2**sort_log2n float32 and int64 elements")
    ap.add_argument("--gemm-n", type=int, default=8192,
                    help="matmul of two (gemm_n, gemm_n) float32 and float64 matrices")
    ap.add_argument("--rand-log2n", type=int, default=None,
                    help="uniform and normal draws of 2**rand_log2n values "
                         "(default: --red-log2n)")
    ap.add_argument("--conv-n", type=int, default=8,
                    help="conv2d forward of ResNet-like float32 layers, batch conv_n "
                         "(0: skip the table)")
    ap.add_argument("--fft-log2n", type=int, default=24,
                    help="batched complex64 fft and fft2 over 2**fft_log2n points "
                         "(0: skip the table)")
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
        for name, _ in libs:
            _free(name)
        red = reductions(libs, dev, args.red_log2n, args.repeat)
        srt = sorting(libs, dev, args.sort_log2n, max(2, args.repeat // 2))
        mm = gemm(libs, dev, args.gemm_n, max(2, args.repeat // 2))
        rand_k = args.red_log2n if args.rand_log2n is None else args.rand_log2n
        rnd = randoms(libs, dev, rand_k, args.repeat)
        cv = convs(libs, dev, args.conv_n, max(2, args.repeat // 2)) if args.conv_n > 0 else []
        ft = ffts(libs, dev, args.fft_log2n, args.repeat) if args.fft_log2n > 0 else []
        ov = overlap_row(dev, min(args.log2n, 24), args.repeat)
    print("summary: " + ", ".join(f"{op}/{dt} {r.strip()}" for op, dt, r in rows
                                  if op in ("add", "exp", "copy"))
          + "; " + ", ".join(f"{op} {frac} of copy (ratio {r.strip()})" for op, frac, r in red)
          + "; " + ", ".join(f"{op}/{dt} {r.strip()}" for op, dt, r in srt)
          + "; " + ", ".join(f"matmul/{dt} vendor {v}, kernel {k}" for dt, v, k in mm)
          + "; " + ", ".join(f"random {op}/{dt} {r.strip()}" for op, dt, r in rnd)
          + "".join(f"; conv2d {lay} vendor {v}, kernel {k}" for lay, v, k in cv)
          + "".join(f"; {case} vendor {v}, kernel {k}" for case, v, k in ft)
          + f"; two streams / one {ov}")


if __name__ == "__main__":
    main()
