"""Elementwise results depend on the value only (_kernels/garray/loops.h, Note [Value-only
results]): every float and complex op gives the same bits for a value whatever its
position in the array, the array's length, its layout (strided, reversed, short rows of
a wider array, broadcast, a scalar operand) and in-place calls.  Before, the CPU loops'
vector body (libmvec) and their scalar tail and strided rows (libm) differed in the
last bits (float32 exp: about half the values of a 2,000-element array).

Each layout's result is compared bit for bit with the same values' result in one long
contiguous array; every count of differing elements must be zero.  NumPy is not the
reference here: its float16 asin, acos and log10 give other bits in a strided view than
in a contiguous array.  Values against NumPy: test_elementwise.py and
test_cpu_vector_math.py."""

import numpy
import pytest

import garray
from garray._core import _CPU_CHUNK_ELEMENTS
from garray._tables.ops import OPS

N = 2 * _CPU_CHUNK_ELEMENTS + 92     # two CPU chunks and a tail (GA_CPU_CHUNK)
PIECES = (1, 5, 16, 17, 37)
FLOAT_DTYPES = ("float16", "float32", "float64", "complex64", "complex128")


def _cases():
    out = []
    for op in OPS.values():
        if op.nout != 1 or op.in2 or op.nin not in (1, 2):
            continue
        for dt in FLOAT_DTYPES:
            if numpy.dtype(dt).kind in op.accepts and not (dt == "float16" and op.f16):
                out.append(pytest.param(op.name, dt, id=f"{op.name}-{dt}"))
    return out


def _values(dt, seed):
    rng = numpy.random.default_rng(seed)
    real = numpy.dtype(dt).kind == "f"
    special = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 100.0, -100.0, 1e30, numpy.inf, -numpy.inf,
               numpy.nan]
    with numpy.errstate(all="ignore"):
        v = rng.standard_normal(N) * 4
        v[rng.choice(N, len(special), replace=False)] = special
        if real:
            return v.astype(dt)
        w = rng.standard_normal(N) * 4
        w[rng.choice(N, len(special), replace=False)] = special
        return (v + 1j * w).astype(dt)


def _bits(a):
    a = numpy.ascontiguousarray(a)
    return a.view(f"u{a.itemsize}") if a.dtype.kind != "c" else a.view(f"u{a.itemsize // 2}")


def _differ(got, want):
    """Elements of got whose bits differ from want's (shapes and dtypes must agree)."""
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
    d = _bits(got) != _bits(want)
    return int(d.reshape(d.shape[0], -1).any(axis=1).sum()) if d.ndim else int(d)


@pytest.mark.parametrize("name, dtype", _cases())
def test_value_only(name, dtype):
    f = getattr(garray, name)
    host = [_values(dtype, s) for s in range(OPS[name].nin)]

    def call(*args, **kw):
        with numpy.errstate(all="ignore"):
            return garray.asnumpy(f(*args, **kw))

    on = garray.asarray
    want = call(*[on(a) for a in host])
    counts = []
    # pieces of every length at many offsets: the padded tail and one-element calls
    for k in PIECES:
        got = numpy.concatenate([call(*[on(a[i:i + k]) for a in host])
                                 for i in range(0, N - k + 1, k * 47)])
        ref = numpy.concatenate([want[i:i + k] for i in range(0, N - k + 1, k * 47)])
        counts.append(_differ(got, ref))
    # 0-d operands (the strided walk of no axes), and empty ones (no thread at all)
    counts.append(_differ(call(*[on(a[7]) for a in host]), want[7]))
    assert call(*[on(a[:0]) for a in host]).shape == (0,)
    # a step view, a reversed view, short unit-stride rows of a wider array
    counts.append(_differ(call(*[on(numpy.repeat(a, 2))[::2] for a in host]), want))
    counts.append(_differ(call(*[on(a[::-1])[::-1] for a in host]), want))
    rows = [on(numpy.pad(a.reshape(-1, 3), ((0, 0), (1, 2))))[:, 1:4] for a in host]
    counts.append(_differ(call(*rows), want.reshape(-1, 3)))
    if len(host) == 2:
        a, b = host
        # a scalar operand on either side, and a broadcast row
        counts.append(_differ(call(on(a), b[7]), call(on(a), on(numpy.full(N, b[7])))))
        counts.append(_differ(call(a[7], on(b)), call(on(numpy.full(N, a[7])), on(b))))
        counts.append(_differ(call(on(a.reshape(-1, 3)), on(b[:3])),
                              call(on(a), on(numpy.tile(b[:3], N // 3))).reshape(-1, 3)))
    elif want.dtype == host[0].dtype:
        # in place: out= the input itself
        x = on(host[0].copy())
        with numpy.errstate(all="ignore"):
            f(x, out=x)
        counts.append(_differ(garray.asnumpy(x), want))
    assert counts == [0] * len(counts), counts
