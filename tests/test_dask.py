"""Dask on garray chunks (garray/_dask.py, docs/dask.md).

The same Dask pipeline runs with NumPy chunks (the reference) and garray chunks, on the
threaded scheduler and on a 2-process ``distributed.LocalCluster`` (garray arrays pickled
between the worker processes); each garray result is compared with NumPy's by
``assert_xp_close`` and its chunks must be ``garray.ndarray``.  Tests where threads
share the device (Dask's threaded scheduler; a worker's comm thread deserializing while
its task thread computes) run on the stub GPU drivers too, which are thread-safe as real drivers are.
"""

import importlib.util
import os
import subprocess
import sys

import numpy
import pytest

import garray
from xp import assert_xp_close

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")

N, M, K = 12, 10, 6


@pytest.fixture
def garray_backend():
    with dask.config.set({"array.backend": "garray"}):
        yield


def chunks_of(x, **compute_kw):
    """The computed chunks of Dask array ``x`` (a flat list)."""
    return list(dask.compute(*x.to_delayed().ravel(), **compute_kw))


def assert_garray_chunks(x, **compute_kw):
    assert isinstance(x._meta, garray.ndarray), type(x._meta)
    kinds = {type(c) for c in chunks_of(x, **compute_kw)}
    assert kinds == {garray.ndarray}, kinds


# ---- the entry point and the registrations ---------------------------------------------


def test_entry_point_is_installed():
    from dask.backends import detect_entrypoints
    eps = detect_entrypoints("dask.array.backends")
    assert "garray" in eps
    from garray._dask import GarrayBackendEntrypoint
    assert eps["garray"].load() is GarrayBackendEntrypoint


def test_registrations():
    from dask.array.chunk_types import is_valid_chunk_type
    from dask.array.dispatch import (concatenate_lookup, einsum_lookup, tensordot_lookup,
                                     to_numpy_dispatch)
    from dask.sizeof import sizeof
    assert is_valid_chunk_type(garray.ndarray)
    assert concatenate_lookup.dispatch(garray.ndarray) is not numpy.concatenate
    assert tensordot_lookup.dispatch(garray.ndarray) is garray.tensordot
    assert einsum_lookup.dispatch(garray.ndarray) is garray.einsum
    g = garray.ones((4, 5), dtype="float32")
    assert sizeof(g) == 80
    # a broadcast view holds one row: counted as Dask counts NumPy's
    assert sizeof(garray.broadcast_to(garray.ones(5), (1000, 5))) == 40
    h = to_numpy_dispatch(g)
    assert type(h) is numpy.ndarray and numpy.array_equal(h, numpy.ones((4, 5), "float32"))


def test_tokenize():
    from dask.base import tokenize
    h = numpy.arange(12.0).reshape(3, 4)
    g = garray.asarray(h, copy=True)
    assert tokenize(g) == tokenize(garray.asarray(h, copy=True))      # deterministic
    assert tokenize(g) != tokenize(g.astype("float32"))               # dtype
    assert tokenize(g) != tokenize(g.reshape(4, 3))                   # shape
    g2 = garray.asarray(h, copy=True)
    g2[1, 2] = -1.0
    assert tokenize(g) != tokenize(g2)                                # values
    assert tokenize(g[:, ::2]) == tokenize(garray.asarray(h[:, ::2], copy=True))
    assert tokenize(garray.asarray(numpy.float64(2.5))) != tokenize(
        garray.asarray(numpy.float64(3.5)))
    # from_array names its graph by the token: the same data, the same name
    assert da.from_array(g, chunks=2).name == da.from_array(
        garray.asarray(h, copy=True), chunks=2).name


def test_distributed_serialization():
    protocol = pytest.importorskip("distributed.protocol")
    h = numpy.arange(24.0).reshape(4, 6)
    views = {"strided": garray.asarray(h, copy=True)[:, ::2],
             "broadcast": garray.broadcast_to(garray.arange(3, dtype="int16"), (500, 3)),
             "0-d": garray.asarray(numpy.complex64(1 - 2j)),
             "empty": garray.zeros((0, 3), dtype="uint8")}
    for key, g in views.items():
        header, frames = protocol.serialize(g, serializers=["dask"])
        assert header["serializer"] == "dask", key
        r = protocol.deserialize(header, frames)
        assert_xp_close(r, g.get(), rtol=0, atol=0, err_msg=key)
        assert r.device == garray.default_device()
    # a broadcast view travels as the elements it stores, and stays a broadcast view
    header, frames = protocol.serialize(views["broadcast"], serializers=["dask"])
    assert sum(memoryview(f).nbytes for f in frames) == 6
    assert protocol.deserialize(header, frames).strides == (0, 2)


_ORDER_CHECK = """
import sys
{imports}
from dask.array.chunk_types import is_valid_chunk_type
from dask.array.dispatch import concatenate_lookup
from dask.sizeof import sizeof
import garray
assert is_valid_chunk_type(garray.ndarray)
if {distributed}:
    import distributed
    from distributed.protocol.serialize import dask_serialize
    assert dask_serialize.dispatch(garray.ndarray).__module__ == "garray._dask_hook"
assert concatenate_lookup.dispatch(garray.ndarray).__module__ == "garray._dask"
assert sizeof(garray.ones(4)) == 32
print("ok")
"""


IMPORT_ORDERS = [
    "import garray\nimport dask.array",          # the post-import hook
    "import dask.array\nimport garray",          # garray registers at import
    "import distributed\nimport garray",        # dask at import, dask.array by the hook
    "import garray._dask",                        # its import of dask.array fires the hook
]


@pytest.fixture(scope="module")
def import_order_runs():
    # fresh processes (no user import of garray._dask, no backend selected), all at once
    # (-W error: the hook's RuntimeWarning for a failed registration fails the run)
    has_distributed = importlib.util.find_spec("distributed") is not None
    orders = [i for i in IMPORT_ORDERS if has_distributed or "distributed" not in i]
    procs = [subprocess.Popen([sys.executable, "-W", "error::RuntimeWarning", "-c",
                               _ORDER_CHECK.format(imports=imports,
                                                   distributed=has_distributed)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for imports in orders]
    return {imports: p.communicate(timeout=120) + (p.returncode,)
            for imports, p in zip(orders, procs)}


@pytest.mark.parametrize("imports", IMPORT_ORDERS)
def test_registered_in_either_import_order(imports, import_order_runs):
    if imports not in import_order_runs:
        pytest.skip("distributed is not installed")
    out, err, rc = import_order_runs[imports]
    assert rc == 0 and out.strip() == "ok", err[-2000:]


def test_import_garray_does_not_import_dask():
    code = "import sys, garray; print('dask' in sys.modules, 'dask.array' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["False", "False"]


# ---- creation --------------------------------------------------------------------------


CREATIONS = {
    "ones": lambda: da.ones((N, M), chunks=(5, 4)),
    "ones-int32": lambda: da.ones((7,), dtype="int32", chunks=3),
    "zeros": lambda: da.zeros((N, M), chunks=(5, 4), dtype="float32"),
    "zeros-0d": lambda: da.zeros((), chunks=()),
    "empty-shape": lambda: da.empty((N, 3), chunks=5).shape,
    "full": lambda: da.full((N, M), 2.5, chunks=(5, 4)),
    "full-int": lambda: da.full((5, 3), 7, chunks=2),
    "full-complex": lambda: da.full((4,), 1 - 2j, chunks=3, dtype="complex64"),
    "arange": lambda: da.arange(23, chunks=5),
    "arange-start-step": lambda: da.arange(3, 40, 4, chunks=3),
    "arange-negative": lambda: da.arange(10, -7, -3, chunks=2),
    "arange-float": lambda: da.arange(0.0, 2.0, 0.1, chunks=6),
    "arange-dtype": lambda: da.arange(0, 20, 3, chunks=4, dtype="float32"),
    "arange-empty": lambda: da.arange(5, 5, chunks=2),
    "arange-large-start": lambda: da.arange(2**53, 2**53 + 10, 1.5, chunks=3),
}


@pytest.mark.parametrize("case", list(CREATIONS))
def test_creation(case):
    expected = CREATIONS[case]()
    with dask.config.set({"array.backend": "garray"}):
        got = CREATIONS[case]()
    if isinstance(expected, tuple):           # empty: only the shape is defined
        assert got == expected
        return
    assert got.chunks == expected.chunks and got.dtype == expected.dtype
    assert_garray_chunks(got, scheduler="sync")
    assert_xp_close(got.compute(scheduler="sync"), expected.compute(scheduler="sync"),
                    rtol=0, atol=0)


def test_creation_errors(garray_backend):
    with pytest.raises(ValueError, match="fill_value must be scalar"):
        da.full((3,), [1, 2, 3])
    with pytest.raises(TypeError, match="requires stop"):
        da.arange()
    with pytest.raises(ValueError, match="step"):
        da.arange(0, 5, 0)


def test_random(garray_backend):
    rng = da.random.default_rng(42)
    x = rng.standard_normal((N, M), chunks=(5, 4))
    assert_garray_chunks(x, scheduler="sync")
    a = x.compute(scheduler="sync").get()
    b = da.random.default_rng(42).standard_normal((N, M), chunks=(5, 4))
    assert numpy.array_equal(b.compute(scheduler="sync").get(), a)   # seeded: the same
    assert a.dtype == numpy.float64 and numpy.isfinite(a).all()
    assert len(numpy.unique(a)) == a.size          # one stream per chunk, no repeats
    rs = da.random.RandomState(7)
    u = rs.uniform(2.0, 3.0, size=(N,), chunks=5)
    assert_garray_chunks(u, scheduler="sync")
    v = u.compute(scheduler="sync").get()
    assert ((v >= 2.0) & (v < 3.0)).all() and len(numpy.unique(v)) == N
    i = da.random.default_rng(3).integers(0, 10, size=(9,), chunks=4)
    assert_garray_chunks(i, scheduler="sync")
    assert i.dtype == numpy.int64


def test_from_array():
    h = numpy.arange(N * M, dtype=numpy.float64).reshape(N, M)
    g = garray.asarray(h, copy=True)
    x = da.from_array(g, chunks=(5, 4))
    assert x.chunks == ((5, 5, 2), (4, 4, 2))
    assert_garray_chunks(x, scheduler="sync")
    assert_xp_close(x.compute(scheduler="sync"), h, rtol=0, atol=0)
    assert_xp_close(x[3:9, ::2].compute(scheduler="sync"), h[3:9, ::2], rtol=0, atol=0)
    assert_xp_close(da.asarray(g).compute(scheduler="sync"), h, rtol=0, atol=0)


def test_to_backend():
    h = numpy.arange(20.0).reshape(4, 5)
    x = da.from_array(h, chunks=2)
    g = x.to_backend("garray")
    assert_garray_chunks(g, scheduler="sync")
    assert_xp_close(g.compute(scheduler="sync"), h, rtol=0, atol=0)
    on_cpu = g.to_backend("garray", device="cpu")          # garray chunks, moved
    assert {str(c.device) for c in chunks_of(on_cpu, scheduler="sync")} == {"cpu"}
    assert_xp_close(on_cpu.compute(scheduler="sync"), h, rtol=0, atol=0)
    assert {str(c.device) for c in chunks_of(x.to_backend("garray", device="cpu"),
                                             scheduler="sync")} == {"cpu"}
    back = g.to_backend("numpy")
    assert isinstance(back._meta, numpy.ndarray)
    r = back.compute(scheduler="sync")
    assert type(r) is numpy.ndarray and numpy.array_equal(r, h)


# ---- the pipeline ----------------------------------------------------------------------


def pipeline(xp, rand):
    """Creates, maps, reduces, multiplies and rechunks under the current array backend;
    ``xp`` is the chunk library (map_blocks functions), ``rand`` an (N, M) Dask array."""
    a = da.arange(N * M, chunks=25).reshape(N, M).rechunk((5, 4)) / 7.0
    o = da.ones((M, K), chunks=(4, 3))
    f = da.full((N, M), 0.25, chunks=(5, 4))
    z = da.zeros((N, M), chunks=(6, 5))               # other chunks: unified by Dask
    x = a * 0.5 + rand - f + z                        # elementwise
    y = x.map_blocks(xp.tanh) + da.sin(x)             # map_blocks, a Dask ufunc
    p = y @ o                                         # chunked matmul
    q = p.rechunk((4, 6))
    return {
        "x": x, "y": y, "p": p, "q": q,
        "sum0": q.sum(axis=0), "mean1": q.mean(axis=1), "std": y.std(),
        "std0": y.std(axis=0), "max0": y.max(axis=0), "argmax1": y.argmax(axis=1),
        "argmax": y.argmax(), "sum": y.sum(), "min_t": y.T.min(axis=1),
    }


def run_pipeline(**compute_kw):
    with dask.config.set({"array.backend": "garray"}):
        rand = da.random.default_rng(5).standard_normal((N, M), chunks=(5, 4))
        graphs = pipeline(garray, rand)
    got, r = dask.compute(graphs, rand, **compute_kw)
    expected = dask.compute(pipeline(numpy, da.from_array(r.get(), chunks=(5, 4))),
                            scheduler="sync")[0]
    for key, e in expected.items():
        assert_xp_close(got[key], e, err_msg=key)
    for key in ("y", "q", "mean1"):
        assert_garray_chunks(graphs[key], **compute_kw)


def test_pipeline_threads():
    run_pipeline(scheduler="threads")


def test_more_operations():
    h = numpy.arange(N * M, dtype=numpy.float64).reshape(N, M) % 11 - 3.5
    h[2, 3] = numpy.nan
    h1 = numpy.nan_to_num(h).ravel() + numpy.arange(N * M) / 1000.0     # distinct values
    cases = {
        "nanmean0": lambda d, v: da.nanmean(d, axis=0),
        "nansum": lambda d, v: da.nansum(d),
        "nanargmax0": lambda d, v: da.nanargmax(d, axis=0),
        "einsum": lambda d, v: da.einsum("ij,kj->ik", d[:, :4], d[:, 4:8]),
        "tensordot": lambda d, v: da.tensordot(d[:4], d[4:8], axes=([0], [0])),
        "take": lambda d, v: d[[0, 7, 11, 3]],
        "var1": lambda d, v: da.nan_to_num(d).var(axis=1),
        "cumsum": lambda d, v: da.nan_to_num(d).cumsum(axis=1),
        "median0": lambda d, v: da.median(da.nan_to_num(d), axis=0),
        "percentile": lambda d, v: da.percentile(v, [10, 50, 90]),
        "topk": lambda d, v: da.topk(v, 4),
        "argtopk": lambda d, v: da.argtopk(v, -3),
        "where": lambda d, v: da.where(d > 0, d, -d),
        "concatenate": lambda d, v: da.concatenate([d, d[:, :3]], axis=1),
        "map_overlap": lambda d, v: da.nan_to_num(d).map_overlap(
            lambda b: b * 2 - b[::-1], depth=1, boundary="reflect"),
        "diff": lambda d, v: da.diff(d, axis=1),
        "qr": lambda d, v: abs(da.linalg.qr(da.nan_to_num(d).rechunk((6, M)))[1]),
        "fft": lambda d, v: da.fft.fft(da.nan_to_num(d).rechunk((5, M)), axis=1),
        "boolean mask": lambda d, v: v[v > 3],
        "histogram": lambda d, v: da.histogram(v, bins=5, range=(-4, 8))[0],
    }
    with dask.config.set({"array.backend": "garray"}):   # Dask's own aranges: garray
        g = da.from_array(garray.asarray(h, copy=True), chunks=(5, 4))
        gv = da.from_array(garray.asarray(h1, copy=True), chunks=25)
        got = {key: fn(g, gv) for key, fn in cases.items()}
    n = da.from_array(h, chunks=(5, 4))
    nv = da.from_array(h1, chunks=25)
    expected = {key: fn(n, nv) for key, fn in cases.items()}
    got, expected = dask.compute(got, scheduler="threads"), dask.compute(expected,
                                                                         scheduler="sync")
    for key, e in expected[0].items():
        assert_xp_close(got[0][key], e, err_msg=key)


@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8", "bool", "complex64"])
def test_reduction_dtypes(dtype):
    # Dask's mean/var/std divide through divide_lookup and count through numel_lookup:
    # garray's give NumPy's result dtypes
    h = (numpy.arange(N * M).reshape(N, M) % 7).astype(dtype)
    if h.dtype.kind == "c":
        h = h - 1j * h[::-1]
    g = da.from_array(garray.asarray(h, copy=True), chunks=(5, 4))
    n = da.from_array(h, chunks=(5, 4))
    cases = {"mean0": lambda d: d.mean(axis=0), "std": lambda d: d.std(),
             "var1": lambda d: d.var(axis=1), "nanmean1": lambda d: da.nanmean(d, axis=1),
             "sum1": lambda d: d.sum(axis=1), "max": lambda d: d.max()}
    got = dask.compute({k: f(g) for k, f in cases.items()}, scheduler="sync")[0]
    expected = dask.compute({k: f(n) for k, f in cases.items()}, scheduler="sync")[0]
    for key, e in expected.items():
        assert_xp_close(got[key], e, err_msg=key)


def test_garray_and_numpy_chunks():
    """A graph mixing garray and NumPy chunks: garray never copies a host chunk to its
    device implicitly (its NumPy protocol and its functions refuse a NumPy array next to
    a garray one with a TypeError saying so, as CuPy does); ``to_backend("garray")``
    converts explicitly."""
    h = numpy.arange(12.0).reshape(3, 4)
    g = da.from_array(garray.asarray(h, copy=True), chunks=2)
    n = da.from_array(h * 2, chunks=2)
    for key, make in [("g + n", lambda: g + n), ("n * g", lambda: n * g),
                      ("n @ g.T", lambda: n @ g.T),
                      ("concatenate", lambda: da.concatenate([g, n]))]:
        with pytest.raises(TypeError, match="numpy.ndarray") as info:
            make().compute(scheduler="sync")
        assert "garray.asarray" in str(info.value), key
    ng = n.to_backend("garray")
    for key, x, e in [("g + n", g + ng, h + h * 2), ("n @ g.T", ng @ g.T, (h * 2) @ h.T),
                      ("concatenate", da.concatenate([g, ng]), numpy.concatenate([h, h * 2]))]:
        assert_garray_chunks(x, scheduler="sync")
        assert_xp_close(x.compute(scheduler="sync"), e, err_msg=key)


def _bad_reshape(b):
    return garray.reshape(b, (7,))          # garray's ValueError inside a task


def test_task_errors_surface_at_compute():
    # the mechanism the mixed-device error takes: garray's exception, type and message,
    # out of compute()
    x = da.from_array(garray.arange(8.0), chunks=4).map_blocks(
        _bad_reshape, meta=garray.empty((0,)))
    with pytest.raises(ValueError, match=r"size 4 into shape \(7,\)"):
        x.compute(scheduler="threads")


def test_mixed_devices():
    """Chunks on two devices in one graph: garray's ValueError naming both, at compute."""
    devices = garray.__array_namespace_info__().devices()
    if len(devices) < 2:
        pytest.skip(f"only one garray device here ({devices[0]}): a graph mixing devices "
                    "needs a GPU (or the stub drivers, ci/stub-gpu-tests.sh)")
    d1, d2 = devices[0], devices[1]
    h = numpy.arange(8.0)
    x = da.from_array(garray.asarray(h, device=d1), chunks=4)
    y = da.from_array(garray.asarray(h, device=d2), chunks=4)
    # meta= given: nothing runs while the graph is built, so the error is the task's
    z = da.map_blocks(numpy.add, x, y, meta=garray.empty((0,), device=d1))
    with pytest.raises(ValueError, match="different devices") as info:
        z.compute(scheduler="sync")
    assert str(d1) in str(info.value) and str(d2) in str(info.value)
    # Dask's own operator (its dtype inference meets the two metas first)
    with pytest.raises(ValueError, match="different devices") as info:
        (x + y).compute(scheduler="sync")
    assert str(d1) in str(info.value) and str(d2) in str(info.value)


# ---- a 2-process LocalCluster ----------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    # one thread per worker, as Distributed gives NumPy's BLAS (OPENBLAS_NUM_THREADS=1)
    env = {"GARRAY_DEVICE": str(garray.default_device()), "GARRAY_CPU_THREADS": "1"}
    for var in ("GARRAY_CACHE_DIR", "GARRAY_CPU_WARP_SIZE", "GARRAY_GPU_STUB"):
        if var in os.environ:
            env[var] = os.environ[var]
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None, scheduler_port=0,
                                  worker_dashboard_address=None, env=env,
                                  silence_logs=40) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_pipeline_cluster(client):
    run_pipeline()                    # the client is the default scheduler
    # the workers ran garray on their device and sent garray arrays to each other
    devices = client.run(lambda: str(__import__("garray").default_device()))
    assert set(devices.values()) == {str(garray.default_device())}
    got = client.run(lambda dask_worker: len(dask_worker.transfer_incoming_log))
    assert sum(got.values()) > 0, got
    # ... through garray's serializer (each worker on its own device receives them there)
    from distributed.protocol.serialize import dask_serialize
    mods = client.run(lambda: dask_serialize.dispatch(
        __import__("garray").ndarray).__module__)
    assert set(mods.values()) == {"garray._dask_hook"}


def test_task_errors_surface_on_cluster(client):
    x = da.from_array(garray.arange(8.0), chunks=4).map_blocks(
        _bad_reshape, meta=garray.empty((0,)))
    with pytest.raises(ValueError, match=r"size 4 into shape \(7,\)"):
        x.compute()


def test_from_array_cluster(client):
    h = numpy.arange(60.0).reshape(6, 10)
    x = da.from_array(garray.asarray(h, copy=True), chunks=(3, 4))
    assert_xp_close((x.T @ x).compute(), h.T @ h)
    assert_garray_chunks(x * 2)
