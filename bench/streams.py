"""Overlap on streams: independent pipelines (copy in from pinned memory, compute, copy
out to pinned memory) on one stream against the same work spread over two streams.

    python bench/streams.py [--log2n 22] [--batches 8] [--repeat 5] [--device cuda]

Prints milliseconds for each and ratio = one-stream time / two-stream time (> 1: the two
streams overlapped).  On a GPU the copies of one stream overlap the other's kernels (the
copy engines and the SMs work at once); on the asynchronous stub drivers
(FAKE_GPU_ASYNC=1) each stream's worker thread runs beside the other's, so the ratio shows
that garray queues the work without waiting; on the CPU device streams run in order at
once and the ratio is about 1.  bench/gpu_bench.py prints the same table on a real GPU.
"""

import argparse
import time

import numpy

import garray


def _pipeline(streams, hosts, outs, devs):
    for i, (h, o, d) in enumerate(zip(hosts, outs, devs)):
        s = streams[i % len(streams)]
        d.set(h, stream=s)
        with s:
            y = garray.sqrt(d) * 2.0 + 1.0
            y = garray.exp(-y) + y
        y.get(out=o, stream=s, blocking=False)
    for s in streams:
        s.synchronize()


def overlap(dev, log2n, batches, repeat):
    """(one-stream ms, two-stream ms, ratio) for ``batches`` pipelines of 2**log2n float32
    elements each, best of ``repeat``; the results are checked against NumPy's."""
    n = 1 << log2n
    with dev:
        hosts = [garray.empty_pinned(n, numpy.float32) for _ in range(batches)]
        outs = [garray.empty_pinned(n, numpy.float32) for _ in range(batches)]
        for i, h in enumerate(hosts):
            h[...] = numpy.linspace(0, i + 1, n, dtype=numpy.float32)
        devs = [garray.empty(n, dtype=garray.float32) for _ in range(batches)]
        one = [garray.Stream(non_blocking=True)]
        two = one + [garray.Stream(non_blocking=True)]
        times = {"one": float("inf"), "two": float("inf")}
        _pipeline(two, hosts, outs, devs)              # warm-up: compiles, pools
        for _ in range(repeat):                        # in turn, so drift hits both
            for name, streams in (("one", one), ("two", two)):
                outs[-1][...] = 0
                t0 = time.perf_counter()
                _pipeline(streams, hosts, outs, devs)
                times[name] = min(times[name], (time.perf_counter() - t0) * 1e3)
                y = numpy.sqrt(hosts[-1]) * numpy.float32(2) + numpy.float32(1)
                numpy.testing.assert_allclose(outs[-1], numpy.exp(-y) + y, rtol=1e-5)
    return times["one"], times["two"], times["one"] / times["two"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=22)
    ap.add_argument("--batches", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--device", default=None)
    args = ap.parse_args()
    dev = garray.Device(args.device) if args.device else garray.default_device()
    one, two, ratio = overlap(dev, args.log2n, args.batches, args.repeat)
    print(f"streams on {dev}: {args.batches} pipelines of 2**{args.log2n} float32 "
          f"(copy in, compute, copy out), best of {args.repeat}")
    print(f"{'one stream':>12} {'two streams':>12}  ratio (one / two)")
    print(f"{one:10.2f}ms {two:10.2f}ms  {ratio:5.2f}")


if __name__ == "__main__":
    main()
