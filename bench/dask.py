"""Dask pipeline time: Dask+NumPy next to Dask+garray (CPU device), one run.

    python bench/dask.py [--n 2048] [--chunk 512] [--repeat 3] [--quick]

The pipeline of tests/test_dask.py at a larger size: an (n, n) float64 array from
``da.arange`` and ``da.random.default_rng().standard_normal``, elementwise arithmetic,
``map_blocks(tanh)`` + ``da.sin``, a chunked ``@`` with an (n, n/4) matrix of ones, a
rechunk, and sum/mean/std/max/argmax reductions, all computed at once.  The same graph
runs with the ``numpy`` and the ``garray`` array backend, on Dask's threaded scheduler
and on a ``distributed.LocalCluster`` of 1 and of 2 worker processes (one thread each;
workers on ``GARRAY_DEVICE=cpu`` with ``GARRAY_CPU_THREADS=1``: Distributed starts its
workers with ``OMP_NUM_THREADS=OPENBLAS_NUM_THREADS=1``, so NumPy's BLAS runs one thread
per worker; garray sets its own thread count, from ``GARRAY_CPU_THREADS``).  Times are
the best of --repeat computes after a warm-up (graph building excluded); ratio = NumPy
time / garray time (> 1: garray faster).  --quick: n=512, chunk 128, 2 repeats (about
30 s, for CI).
"""

import _timing  # noqa: F401  (first: moves bench/ to the end of sys.path, see there)

import argparse
import os
import time

import numpy

import dask
import dask.array as da

import garray


def pipeline(xp, n, chunk):
    """The graph (a dict of Dask arrays) under the current array backend; ``xp`` is the
    chunk library for map_blocks."""
    a = da.arange(n * n, chunks=chunk * chunk).reshape(n, n).rechunk(chunk) / float(n * n)
    r = da.random.default_rng(1).standard_normal((n, n), chunks=chunk)
    o = da.ones((n, max(n // 4, 1)), chunks=chunk)
    x = a * 0.5 + r - 0.25
    y = x.map_blocks(xp.tanh) + da.sin(x)
    p = (y @ o).rechunk((chunk // 2, n // 4))
    return {"sum0": p.sum(axis=0), "mean1": p.mean(axis=1), "std": y.std(),
            "max0": y.max(axis=0), "argmax1": y.argmax(axis=1)}


def graphs(n, chunk):
    out = {}
    for backend, xp in (("numpy", numpy), ("garray", garray)):
        with dask.config.set({"array.backend": backend}):
            out[backend] = pipeline(xp, n, chunk)
    return out


def best_compute(graph, repeat, **kw):
    dask.compute(graph, **kw)            # warm-up: kernel caches, worker imports
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        dask.compute(graph, **kw)
        ts.append(time.perf_counter() - t)
    return min(ts)


def check(results):
    """The garray results agree with NumPy's where the inputs are the same (everything
    but the random draws differs only by the random part: compare shapes and dtypes)."""
    for key, e in results["numpy"].items():
        g = results["garray"][key]
        assert isinstance(g, garray.ndarray), (key, type(g))
        assert g.shape == numpy.shape(e) and g.dtype == numpy.asarray(e).dtype, key


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--chunk", type=int, default=512)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="n=512, chunk=128, repeat 2")
    args = ap.parse_args()
    if args.quick:
        args.n, args.chunk, args.repeat = 512, 128, 2
    dev = garray.default_device()
    print(f"garray {garray.__version__} on {dev}; numpy {numpy.__version__}; dask "
          f"{dask.__version__}; n = {args.n}, chunks {args.chunk}; best of {args.repeat}; "
          f"ratio = numpy / garray (> 1: garray faster)")
    g = graphs(args.n, args.chunk)
    print(f"{'scheduler':<22} {'numpy s':>9} {'garray s':>9} {'ratio':>6}")

    def row(label, **kw):
        tn = best_compute(g["numpy"], args.repeat, **kw)
        tg = best_compute(g["garray"], args.repeat, **kw)
        print(f"{label:<22} {tn:9.3f} {tg:9.3f} {tn / tg:6.2f}", flush=True)

    check({k: dask.compute(v, scheduler="threads")[0] for k, v in g.items()})
    row(f"threads ({os.cpu_count()} cores)", scheduler="threads")
    try:
        import distributed
    except ImportError:
        print("distributed is not installed: no worker-process rows")
        return
    env = {"GARRAY_DEVICE": str(dev), "GARRAY_CPU_THREADS": "1"}
    for var in ("GARRAY_CACHE_DIR", "GARRAY_CPU_WARP_SIZE"):
        if var in os.environ:
            env[var] = os.environ[var]
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, processes=True,
                                      threads_per_worker=1, dashboard_address=None,
                                      worker_dashboard_address=None, scheduler_port=0,
                                      env=env, silence_logs=40) as cluster, \
                distributed.Client(cluster):
            row(f"{workers} worker process{'es' if workers > 1 else ''}")
    print("worker processes: one thread each, GARRAY_CPU_THREADS=1 (NumPy's BLAS: "
          "OPENBLAS_NUM_THREADS=1, set by Distributed)")


if __name__ == "__main__":
    main()
