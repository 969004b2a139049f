"""Hostile tests for the CPU inner loops of the elementwise kernels (Note [CPU inner
loops] in ``_kernels/garray/loops.h``), against NumPy.

On the CPU device each thread owns a chunk of 256 flat indices; a strided launch
decomposes the chunk's first index once and walks rows along the innermost collapsed
axis with an odometer, each row dispatched on the innermost byte strides (output
unit-stride and every input unit-stride or 0 -> a compile-time-strided loop, else the
run-time-stride loop).  These tests aim at each seam of that mechanism:

- rows split by a chunk boundary (inner sizes 1..1000, totals around multiples of 256,
  thread counts around multiples of the warp size 32 / 64);
- every stride class of the innermost axis per operand (unit, 0 as a row or column
  broadcast, negative, step 2 / 3, transposed, 0-d), a non-unit-stride ``out=``, size-1
  axes mixed with broadcasting, up to 6 axes;
- add, multiply, unary ops, ``where`` (all 8 unit/broadcast patterns of its 3 inputs) and
  ``astype`` for several dtype pairs;
- aliasing that NumPy defines (out identical to an input, in-place updates, partially
  overlapping inputs, which NumPy and garray both treat as if copied first);
- the 64-bit index path and the GPU path's CPU test build (``_debug_force_index64``,
  ``_debug_cpu_vector_loads``), which must agree with NumPy like the default path;
- empty arrays.

The tests are device-agnostic: on a GPU (or a stub driver) the same checks run the GPU
path; the CPU-only hook ``_debug_cpu_vector_loads`` is skipped there.
"""

import contextlib

import numpy
import pytest

import garray
from xp import assert_xp_close, sample

ON_CPU = garray.default_device().kind == "cpu"

MODES = ("default", "index64", "vector_loads", "both")


@contextlib.contextmanager
def debug_paths(mode):
    """Set the core's test hooks for ``mode``; restore the previous settings on exit."""
    index64 = mode in ("index64", "both")
    vector = mode in ("vector_loads", "both")
    core = garray._core
    old_index64 = core._debug_force_index64(index64)
    try:
        old_vector = core._debug_cpu_vector_loads(vector) if ON_CPU else None
        try:
            yield
        finally:
            if ON_CPU:
                core._debug_cpu_vector_loads(old_vector)
    finally:
        core._debug_force_index64(old_index64)


@pytest.fixture(scope="module", params=MODES)
def mode(request):
    if request.param in ("vector_loads", "both") and not ON_CPU:
        pytest.skip("_debug_cpu_vector_loads builds the CPU device's kernels only "
                    f"(device is {garray.default_device()})")
    with debug_paths(request.param):
        yield request.param


def g(h):
    """A garray-owned copy of NumPy data."""
    return garray.asarray(h, copy=True)


def check(got, expected, label=""):
    assert_xp_close(got, expected, err_msg=label)


# ---- operand views ------------------------------------------------------------------
#
# view(kind, shape, dtype, start): (numpy, garray) operands that broadcast to ``shape``
# (2-d), whose innermost axis has the stride class ``kind``.

STRIDE_KINDS = ("contig", "unit", "row", "col", "neg", "step2", "step3", "trans", "0d")


def view(kind, shape, dtype, start=0):
    m, n = shape
    if kind == "contig":                 # C-contiguous (the whole launch may be L_C)
        h = sample((m, n), dtype, start)
        return h, g(h)
    if kind == "unit":                   # unit inner stride, outer axis not collapsible
        h = sample((m, n + 3), dtype, start)
        return h[:, 1:n + 1], g(h)[:, 1:n + 1]
    if kind == "row":                    # (n,): stride 0 on the outer axis
        h = sample((n,), dtype, start)
        return h, g(h)
    if kind == "col":                    # (m, 1): stride 0 on the inner axis
        h = sample((m, 1), dtype, start)
        return h, g(h)
    if kind == "neg":                    # negative strides on both axes
        h = sample((m, n), dtype, start)
        return h[::-1, ::-1], g(h)[::-1, ::-1]
    if kind == "step2":
        h = sample((m, 2 * n), dtype, start)
        return h[:, 1::2], g(h)[:, 1::2]
    if kind == "step3":
        h = sample((m + 1, 3 * n), dtype, start)
        return h[1:, ::3], g(h)[1:, ::3]
    if kind == "trans":                  # Fortran order: inner stride m * itemsize
        h = sample((n, m), dtype, start)
        return h.T, g(h).T
    if kind == "0d":
        h = sample((), dtype, start + 3)
        return h, g(h)
    raise ValueError(kind)


OUT_KINDS = ("fresh", "contig", "step2", "neg", "trans")


def out_view(kind, shape, dtype):
    """(numpy, garray, garray base) output arrays of ``shape``; the base shows writes
    outside the view."""
    m, n = shape
    if kind == "contig":
        return numpy.zeros(shape, dtype), garray.zeros(shape, dtype=dtype), None
    if kind == "step2":
        base = garray.zeros((m, 2 * n), dtype=dtype)
        return numpy.zeros(shape, dtype), base[:, ::2], base
    if kind == "neg":
        base = garray.zeros((m, n), dtype=dtype)
        return numpy.zeros(shape, dtype), base[::-1, ::-1], base
    if kind == "trans":
        base = garray.zeros((n, m), dtype=dtype)
        return numpy.zeros(shape, dtype), base.T, base
    raise ValueError(kind)


def run_binary(op, hx, hy, gx, gy, out_kind, dtype, label, shape=None):
    """op(x, y) into a fresh result or an out= of ``out_kind`` and ``shape`` (default
    the broadcast shape; a larger one broadcasts the inputs into it)."""
    if shape is None:
        shape = numpy.broadcast_shapes(numpy.shape(hx), numpy.shape(hy))
    if out_kind == "fresh":
        check(getattr(garray, op)(gx, gy), getattr(numpy, op)(hx, hy), label)
        return
    ho, go, base = out_view(out_kind, shape, dtype)
    r = getattr(garray, op)(gx, gy, out=go)
    assert r is go, label
    check(go, getattr(numpy, op)(hx, hy, out=ho), label)
    if out_kind == "step2":     # the skipped elements were not written
        check(base[:, 1::2], numpy.zeros(shape, dtype), label + " (gaps)")


# ---- rows split by chunk boundaries -------------------------------------------------

INNER = (1, 2, 3, 255, 256, 257, 1000)


@pytest.mark.parametrize("inner", INNER)
@pytest.mark.parametrize("op", ("add", "multiply"))
def test_rows_split_by_chunks(mode, op, inner):
    """(outer, inner) operands, the outer axis not collapsible, so every row of the
    strided walk starts mid-chunk somewhere; each input kind against each other."""
    for outer in (1, 2, 3, 5):
        shape = (outer, inner)
        for dtype in ("int32", "float64"):
            for kx, ky in (("unit", "unit"), ("unit", "row"), ("col", "unit"),
                           ("unit", "step2"), ("neg", "unit"), ("row", "col"),
                           ("unit", "0d"), ("trans", "unit")):
                hx, gx = view(kx, shape, dtype)
                hy, gy = view(ky, shape, dtype, start=5)
                run_binary(op, hx, hy, gx, gy, "fresh", dtype,
                           f"{shape} {dtype} {kx} {op} {ky}")
                run_binary(op, hx, hy, gx, gy, "neg", dtype,
                           f"{shape} {dtype} {kx} {op} {ky} out=neg", shape)
        # a non-unit output stride: the run-time-stride loop across chunk boundaries
        hx, gx = view("unit", shape, "float32")
        hy, gy = view("row", shape, "float32", start=3)
        run_binary(op, hx, hy, gx, gy, "step2", "float32", f"{shape} out step2", shape)


TOTALS = (1, 255, 256, 257, 511, 513, 8191, 8193, 16383, 16385)


@pytest.mark.parametrize("total", TOTALS)
def test_totals_around_chunk_and_warp_multiples(mode, total):
    """1-d strided operands (one row split into chunks) and 2-d shapes of the same
    size; thread counts cross multiples of the warp size (32 / 64) at 8192 and 16384."""
    for dtype in ("uint8", "float64", "complex128"):
        h = sample((2 * total + 1,), dtype)
        a, b = h[::2], h[total::-1]
        ga_, gb_ = g(h)[::2], g(h)[total::-1]
        check(ga_ + gb_, a + b, f"{total} {dtype} step2 + reversed")
        check(-gb_ if dtype != "uint8" else gb_ * gb_,
              -b if dtype != "uint8" else b * b, f"{total} {dtype} unary")
        check(ga_.astype("complex128"), a.astype("complex128"), f"{total} {dtype} astype")
    for shape in ((total, 1), (1, total), (3, -(-total // 3))):
        h = sample(shape, "int16")
        hs = sample((shape[1],), "int16", start=7)
        check(g(h)[::-1] * g(hs), h[::-1] * hs, f"{shape}")


# ---- stride classes -----------------------------------------------------------------

@pytest.mark.parametrize("kx", STRIDE_KINDS)
def test_binary_stride_classes(mode, kx):
    """Every pair of innermost stride classes, into every kind of output."""
    shape = (7, 300)                    # 2100 elements: 9 chunks, rows split by them
    for ky in STRIDE_KINDS:
        for op, dtype in (("add", "float32"), ("multiply", "int64")):
            hx, gx = view(kx, shape, dtype)
            hy, gy = view(ky, shape, dtype, start=4)
            for out_kind in OUT_KINDS:
                if out_kind != "fresh" and \
                        numpy.broadcast_shapes(hx.shape, hy.shape) != shape:
                    continue            # test_both_inputs_broadcast_into_out
                if kx == ky == "0d" and out_kind == "fresh":
                    continue            # a 0-d result: test_zero_d_and_size_one_axes
                run_binary(op, hx, hy, gx, gy, out_kind, dtype,
                           f"{kx} {op} {ky} out={out_kind}", shape)


ORDERS = ("row+col", "col+row", "col+col", "row+row", "0d+col", "row+0d", "0d+0d")


@pytest.mark.parametrize("order", ORDERS)
def test_both_inputs_broadcast_into_out(mode, order):
    """Both inputs broadcast (stride 0 on the inner or the outer axis) into a full
    (M, N) out=: (M, 1) + (M, 1) -> (M, N) is NumPy's broadcast of the inputs to out
    (out= larger than the inputs' broadcast shape)."""
    kx, ky = order.split("+")
    for shape in ((5, 257), (300, 3)):
        for dtype in ("int8", "float64"):
            hx, gx = view(kx, shape, dtype)
            hy, gy = view(ky, shape, dtype, start=2)
            for out_kind in ("contig", "step2", "neg", "trans"):
                run_binary("add", hx, hy, gx, gy, out_kind, dtype,
                           f"{shape} {order} out={out_kind}", shape)
            if ky == kx:     # a unary op broadcast into out= the same way
                ho, go, _ = out_view("step2", shape, dtype)
                garray.negative(gx, out=go)
                check(go, numpy.negative(hx, out=ho), f"{shape} negative({kx}) out=step2")


def test_zero_d_and_size_one_axes(mode):
    cases = [((), ()), ((), (3, 1, 5)), ((1, 1), ()), ((1, 7, 1), (4, 1, 1)),
             ((3, 1, 1, 2), (1, 1, 5, 1)), ((1, 1, 300), (2, 1, 1)), ((257, 1), (1, 1)),
             ((1,), (2, 1, 1, 1, 3)), ((2, 1, 3), (1,))]
    for sx, sy in cases:
        for dtype in ("bool", "int8", "complex128"):
            hx, hy = sample(sx, dtype), sample(sy, dtype, start=3)
            gx, gy = g(hx), g(hy)
            check(gx + gy, hx + hy, f"{sx}+{sy} {dtype}")
            check(garray.multiply(gy, gx), numpy.multiply(hy, hx), f"{sy}*{sx} {dtype}")
            shape = numpy.broadcast_shapes(sx, sy)
            if len(shape) >= 1 and shape[-1] > 1:    # a reversed out= of that shape
                base = garray.zeros(shape, dtype=dtype)
                ho = numpy.zeros(shape, dtype)
                garray.add(gx, gy, out=base[..., ::-1])
                numpy.add(hx, hy, out=ho[..., ::-1])
                check(base, ho, f"{sx}+{sy} {dtype} reversed out")


def _random_view(rs, shape, dtype, start):
    """A random view of ``shape``: axes permuted, reversed or stepped, size-1 axes
    inserted, broadcast axes replaced by 1 (or dropped from the front)."""
    nd = len(shape)
    bshape = [1 if rs.rand() < 0.25 else s for s in shape]
    steps = [int(rs.choice([1, 1, 2, 3, -1, -2])) for _ in range(nd)]
    full = [s * abs(st) for s, st in zip(bshape, steps)]
    perm = rs.permutation(nd)
    h = sample(tuple(full[p] for p in perm), dtype, start)
    gh = g(h)
    inv = numpy.argsort(perm)
    h, gh = h.transpose(inv), gh.transpose(tuple(int(i) for i in inv))
    index = tuple(slice(None, None, st) if st > 0 else slice(None, None, st) for st in steps)
    h, gh = h[index], gh[index]
    drop = int(rs.randint(0, 2)) if bshape[0] == 1 else 0
    if drop:
        h, gh = h[0], gh[0]
    return h, gh


@pytest.mark.parametrize("seed", range(12))
def test_up_to_six_axes(mode, seed):
    """Odd shapes of 3..6 axes; operands permuted / reversed / stepped / broadcast."""
    rs = numpy.random.RandomState(seed)
    nd = 3 + seed % 4
    shape = tuple(int(s) for s in rs.choice([1, 2, 3, 5, 7, 17], size=nd))
    for dtype in ("int16", "float64"):
        hx, gx = _random_view(rs, shape, dtype, 0)
        hy, gy = _random_view(rs, shape, dtype, 9)
        check(gx + gy, hx + hy, f"{shape} {hx.shape}+{hy.shape}")
        check(gx * gy, hx * hy, f"{shape} {hx.shape}*{hy.shape}")
        check(garray.negative(gy), numpy.negative(hy), f"{shape} -{hy.shape}")
        hc, gc = _random_view(rs, shape, "bool", 3)
        check(garray.where(gc, gx, gy), numpy.where(hc, hx, hy), f"{shape} where")
        check(gx.astype("complex64"), hx.astype("complex64"), f"{shape} astype")
        # a permuted out= of the full shape
        full = numpy.broadcast_shapes(hx.shape, hy.shape)
        perm = tuple(int(p) for p in rs.permutation(len(full)))
        base = garray.zeros(tuple(full[p] for p in perm), dtype=dtype)
        go = base.transpose(tuple(int(i) for i in numpy.argsort(perm)))
        garray.add(gx, gy, out=go)
        check(go, hx + hy, f"{shape} permuted out {perm}")


# ---- unary ops ----------------------------------------------------------------------

@pytest.mark.parametrize("op", ("negative", "sqrt", "exp"))
@pytest.mark.parametrize("kx", ("unit", "col", "row", "neg", "step3", "trans", "0d"))
def test_unary_stride_classes(mode, op, kx):
    for shape in ((3, 255), (4, 257), (2, 1000)):
        for dtype in (("int8", "float32", "complex128") if op == "negative"
                      else ("float32", "complex128")):
            hx, gx = view(kx, shape, dtype)
            if op == "sqrt" and dtype != "complex128":
                hx, gx = numpy.abs(hx), garray.abs(gx)
            fn, gfn = getattr(numpy, op), getattr(garray, op)
            hb = numpy.broadcast_to(hx, shape)
            gb = garray.broadcast_to(gx, shape)     # a stride-0 source on some axis
            check(gfn(gb), fn(hb), f"{op} {kx} {shape} {dtype}")
            for out_kind in ("step2", "neg", "trans"):
                ho, go, _ = out_view(out_kind, shape, dtype)
                gfn(gb, out=go)
                check(go, fn(hb, out=ho), f"{op} {kx} {shape} {dtype} out={out_kind}")


# ---- where --------------------------------------------------------------------------

@pytest.mark.parametrize("pattern", range(8))
def test_where_unit_broadcast_patterns(mode, pattern):
    """Bit j of ``pattern`` set: operand j (cond, x, y) has a unit inner stride, else it
    is a column (stride 0 inner); also against row broadcasts and a strided out."""
    kinds = ["unit" if pattern >> j & 1 else "col" for j in range(3)]
    for shape in ((3, 257), (9, 31), (2, 1000)):
        for dtype in ("int8", "uint64", "float32", "complex128"):
            hc, gc = view(kinds[0], shape, "bool", start=1)
            hx, gx = view(kinds[1], shape, dtype, start=2)
            hy, gy = view(kinds[2], shape, dtype, start=6)
            label = f"where{kinds} {shape} {dtype}"
            check(garray.where(gc, gx, gy), numpy.where(hc, hx, hy), label)
            # every operand broadcast needs a full out: copy into a strided target
            res = garray.where(gc, gx, gy)
            base = garray.zeros((shape[0], 2 * shape[1]), dtype=res.dtype)
            base[:, ::2] = res
            check(base[:, ::2], numpy.broadcast_to(numpy.where(hc, hx, hy), shape).copy()
                  if res.shape != shape else numpy.where(hc, hx, hy), label + " copy")
            # the same pattern with rows (stride 0 outer) in place of the unit operands
            rk = ["row" if k == "unit" else "col" for k in kinds]
            hc, gc = view(rk[0], shape, "bool", start=1)
            hx, gx = view(rk[1], shape, dtype, start=2)
            hy, gy = view(rk[2], shape, dtype, start=6)
            check(garray.where(gc, gx, gy), numpy.where(hc, hx, hy), f"where{rk} {shape}")
    # mixed dtypes (x and y promoted) and a 0-d condition
    hc, gc = view("neg", (4, 300), "bool")
    hx, gx = view("unit", (4, 300), "int8", 3)
    hy, gy = view("col", (4, 300), "float32", 4)
    check(garray.where(gc, gx, gy), numpy.where(hc, hx, hy), "mixed dtypes")
    check(garray.where(g(numpy.bool_(True)), gx, gy), numpy.where(True, hx, hy), "0-d cond")


# ---- astype -------------------------------------------------------------------------

CASTS = (("bool", "float32"), ("bool", "complex128"), ("int8", "uint64"), ("int8", "bool"),
         ("uint64", "int8"), ("uint64", "float32"), ("float32", "int8"),
         ("float32", "complex128"), ("complex128", "complex64"), ("complex128", "bool"),
         ("int8", "float32"), ("float32", "uint64"))


def _castable(h):
    """Non-negative values (negative floats to unsigned integers are undefined in C)."""
    if h.dtype.kind == "c":
        return (numpy.abs(h.real) + 1j * numpy.abs(h.imag)).astype(h.dtype)
    return numpy.abs(h).astype(h.dtype) if h.dtype.kind in "if" else h


SOURCE_VIEWS = {"unit": lambda x: x[:, 1:-1], "neg": lambda x: x[::-1, ::-1],
                "step2": lambda x: x[:, ::2], "step3": lambda x: x[::-1, 1::3],
                "trans": lambda x: x.T}


@pytest.mark.parametrize("src,dst", CASTS, ids=[f"{s}-{d}" for s, d in CASTS])
def test_astype_strided_sources(mode, src, dst):
    for shape in ((3, 255), (5, 257), (1, 1000), (700, 1)):
        for kind, fn in SOURCE_VIEWS.items():
            h = _castable(sample(shape if kind != "trans" else shape[::-1], src))
            hs, gs = fn(h), fn(g(h))
            with numpy.errstate(all="ignore"):
                expected = hs.astype(dst)
            check(gs.astype(dst), expected, f"{src}->{dst} {shape} {kind}")
        for bshape in ((shape[0], 1), (1, shape[1])):     # stride-0 sources
            h = _castable(sample(bshape, src))
            hs, gs = numpy.broadcast_to(h, shape), garray.broadcast_to(g(h), shape)
            with numpy.errstate(all="ignore"):
                expected = hs.astype(dst)
            check(gs.astype(dst), expected, f"{src}->{dst} {bshape}->{shape}")


# ---- aliasing -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ("int32", "float64", "complex128"))
def test_aliasing(mode, dtype):
    """Overlaps NumPy defines (its ufuncs act as if overlapping inputs were copied
    first; garray copies partially overlapping inputs and computes exact aliases in
    place): each against NumPy on the same data."""
    def pair(shape, kind="contig"):
        h = sample(shape, dtype)
        if kind == "contig":
            return h.copy(), g(h)
        if kind == "step2":
            hb = sample((shape[0], 2 * shape[1]), dtype)
            return hb[:, ::2], g(hb)[:, ::2]
        hb = sample(shape, dtype)
        return hb[::-1, ::-1], g(hb)[::-1, ::-1]

    for shape in ((3, 257), (16, 16), (1, 600)):
        for kind in ("contig", "step2", "neg"):
            lab = f"{shape} {kind}"
            ha, ga = pair(shape, kind)
            hb_, gb_ = sample(shape, dtype, 5), g(sample(shape, dtype, 5))
            numpy.add(ha, hb_, out=ha)
            garray.add(ga, gb_, out=ga)                  # out is input 0
            check(ga, ha, lab + " add(a, b, out=a)")
            numpy.multiply(hb_, ha, out=ha)
            garray.multiply(gb_, ga, out=ga)             # out is input 1
            check(ga, ha, lab + " multiply(b, a, out=a)")
            numpy.add(ha, ha, out=ha)
            garray.add(ga, ga, out=ga)                   # out is both inputs
            check(ga, ha, lab + " add(a, a, out=a)")
            hrow, hcol = sample((shape[1],), dtype, 2), sample((shape[0], 1), dtype, 3)
            ha += hrow
            ga += g(hrow)                                # in place, row broadcast
            check(ga, ha, lab + " a += row")
            ha *= hcol
            ga *= g(hcol)                                # in place, column broadcast
            check(ga, ha, lab + " a *= col")
            numpy.negative(ha, out=ha)
            garray.negative(ga, out=ga)
            check(ga, ha, lab + " negative(a, out=a)")
            # partial overlaps: reversed self, shifted self, the row broadcast of a's
            # own first row
            numpy.add(ha, ha[::-1], out=ha)
            garray.add(ga, ga[::-1], out=ga)
            check(ga, ha, lab + " add(a, a[::-1], out=a)")
            numpy.add(ha, ha[:, ::-1], out=ha)
            garray.add(ga, ga[:, ::-1], out=ga)
            check(ga, ha, lab + " add(a, a[:, ::-1], out=a)")
            ha[:, 1:] += ha[:, :-1]
            ga[:, 1:] += ga[:, :-1]
            check(ga, ha, lab + " a[:, 1:] += a[:, :-1]")
            ha += ha[:1]
            ga += ga[:1]
            check(ga, ha, lab + " a += a[:1]")
            if shape[0] == shape[1]:
                numpy.add(ha, ha.T, out=ha)
                garray.add(ga, ga.T, out=ga)
                check(ga, ha, lab + " add(a, a.T, out=a)")
            hc, gc = numpy.abs(ha) > 3, garray.abs(ga) > 3
            numpy.copyto(ha, numpy.where(hc, ha[::-1], ha))
            ga[...] = garray.where(gc, ga[::-1], ga)
            check(ga, ha, lab + " a = where(c, a[::-1], a)")


# ---- empty arrays -------------------------------------------------------------------

EMPTY = (((0,), (0,)), ((3, 0), (0,)), ((0, 5), (1, 5)), ((0, 1), (5,)),
         ((2, 0, 3), (2, 1, 3)), ((1, 0), (4, 1)), ((0,), ()))


@pytest.mark.parametrize("sx,sy", EMPTY, ids=[f"{a}-{b}" for a, b in EMPTY])
def test_empty(mode, sx, sy):
    stats = None
    if not ON_CPU:
        try:
            from garray.testing import gpu_stub
            kind = garray.default_device().kind
            stats = lambda: gpu_stub.stats(kind)[0]      # noqa: E731
            stats()
        except Exception:                                # noqa: BLE001 - a real GPU
            stats = None
    for dtype in ("bool", "uint64", "float32", "complex128"):
        hx, hy = sample(sx, dtype), sample(sy, dtype)
        gx, gy = g(hx), g(hy)
        hc, gc = sample(sx, "bool"), g(sample(sx, "bool"))
        before = stats() if stats else None
        check(gx + gy, hx + hy, f"{sx}+{sy} {dtype}")
        check(garray.multiply(gy, gx), numpy.multiply(hy, hx), f"{sy}*{sx} {dtype}")
        check(-gx if dtype != "bool" else ~gx, -hx if dtype != "bool" else ~hx, f"-{sx}")
        check(garray.where(gc, gx, gy), numpy.where(hc, hx, hy), f"where {sx} {sy}")
        check(gx.astype("complex64"), hx.astype("complex64"), f"astype {sx}")
        shape = numpy.broadcast_shapes(sx, sy)
        out = garray.zeros(shape, dtype=dtype)
        assert garray.add(gx, gy, out=out) is out
        check(out, numpy.zeros(shape, dtype), f"out= {shape}")
        if stats is not None:
            assert stats() == before, f"{sx}, {sy}: an empty array launched a kernel"
    # an empty strided view of a non-empty buffer: nothing written around it
    base = garray.ones((4, 6), dtype="float64")
    garray.add(base[:, 2:2], base[:, 3:3], out=base[:, 4:4])
    garray.negative(base[1:1, ::-2], out=base[2:2, ::2])
    check(base, numpy.ones((4, 6)), "buffer around empty views")


@pytest.mark.parametrize("scalar", [1.5, 2, True, numpy.float32(0.5)])
@pytest.mark.parametrize("in_shape", [(3, 1), (1, 4), (4,), ()])
def test_out_larger_than_the_inputs_with_a_python_scalar(in_shape, scalar):
    """The scalar-operand path: out= of shape (3, 4) for an input that broadcasts to it."""
    h = sample(in_shape, "float64")
    for first in (False, True):
        ho, go = numpy.zeros((3, 4)), garray.zeros((3, 4))
        if first:
            numpy.add(scalar, h, out=ho)
            garray.add(scalar, g(h), out=go)
        else:
            numpy.multiply(h, scalar, out=ho)
            garray.multiply(g(h), scalar, out=go)
        check(go, ho, f"{in_shape} scalar first={first}")
    ho, go = numpy.zeros((3, 4)), garray.zeros((3, 4))
    check(garray.negative(g(h), out=go), numpy.negative(h, out=ho), f"negative {in_shape}")


@pytest.mark.parametrize("out_shape", [(3,), (2, 4), (3, 1), (4, 3)])
def test_out_the_inputs_do_not_broadcast_to_is_refused(out_shape):
    a = numpy.ones((3, 4))
    with pytest.raises(ValueError):
        numpy.add(a, 1.0, out=numpy.zeros(out_shape))
    with pytest.raises(ValueError, match="out has shape"):
        garray.add(g(a), 1.0, out=garray.zeros(out_shape))
    with pytest.raises(ValueError, match="out has shape"):
        garray.add(g(a), g(a), out=garray.zeros(out_shape))
