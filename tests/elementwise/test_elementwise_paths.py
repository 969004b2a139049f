"""The launch paths a default CPU run never takes, exercised on the CPU device through the
core's test hooks, against NumPy:

- ``garray._core._debug_force_index64(True)``: every strided launch uses the 64-bit-index
  kernels (normally only arrays past 2**31 elements or bytes do);
- ``garray._core._debug_cpu_vector_loads(True)``: the CPU device's kernels are built with
  the GPU's vector-load path (V elements per thread moved as aligned vectors, a scalar
  tail, element-by-element moves for misaligned operands) and launched with the GPU's
  grid rule.

Each mode (and both together) runs unary and binary ops (array-array, array-scalar,
scalar-array, ``out=``), casts, ``where`` and copies of strided arrays, in every dtype,
for sizes that are not multiples of 4 (1, 3, 5, 7, 1023, 1025) and slices starting at
elements 1, 2 and 3 (operands misaligned for the vector moves, each differently).
Hooks are set and restored in try/finally (``debug_paths``).
"""

import contextlib

import numpy
import pytest

import garray
from test_elementwise import check_op
from xp import ALL_DTYPES, assert_xp_close, python_scalar, sample
from xp import kind as xp_kind

SIZES = (1, 3, 5, 7, 1023, 1025)
OFFSETS = (0, 1, 2, 3)
UNARY = ("abs", "negative", "sqrt", "isfinite")         # same, same, float, bool results
BINARY = ("add", "subtract", "less", "divide", "maximum")
MODES = {"index64": (True, False), "vector_loads": (False, True), "both": (True, True)}


@contextlib.contextmanager
def debug_paths(index64, vector_loads):
    """Set both hooks; restore the previous settings on exit, whatever happens."""
    core = garray._core
    old_index64 = core._debug_force_index64(index64)
    try:
        old_vector = core._debug_cpu_vector_loads(vector_loads)
        try:
            yield
        finally:
            core._debug_cpu_vector_loads(old_vector)
    finally:
        core._debug_force_index64(old_index64)


@pytest.fixture(scope="module", params=list(MODES))
def mode(request):
    with debug_paths(*MODES[request.param]):
        yield request.param


def _current(hook):
    old = hook(False)
    hook(old)
    return old


def test_hooks_return_and_restore_the_previous_setting():
    core = garray._core
    hooks = (core._debug_force_index64, core._debug_cpu_vector_loads)
    before = [_current(h) for h in hooks]
    for hook in hooks:
        old = hook(True)
        try:
            assert hook(True) is True
            assert hook(False) is True
            assert hook(False) is False
        finally:
            hook(old)
    with pytest.raises(ZeroDivisionError):
        with debug_paths(True, True):
            assert [_current(h) for h in hooks] == [True, True]
            1 / 0
    assert [_current(h) for h in hooks] == before


def _slices(dtype, start=0, small=False):
    """(label, numpy, garray) triples: for each size n and offset, the slice [off, off + n)
    of a contiguous buffer (misaligned for off > 0), plus a step-2 and a reversed view."""
    for n in SIZES:
        h = sample((2 * n + 4,), dtype, start, small)
        g = garray.asarray(h, copy=True)
        for off in OFFSETS:
            yield f"n={n} off={off}", h[off:off + n], g[off:off + n]
        yield f"n={n} step 2", h[1:2 * n + 1:2], g[1:2 * n + 1:2]
        yield f"n={n} reversed", h[n + 2:2:-1], g[n + 2:2:-1]


def _pairs(dtype, small=False):
    """Binary operands: two slices of different buffers at different offsets (one may be
    aligned, the other not) and the same strided views."""
    firsts = list(_slices(dtype))
    seconds = list(_slices(dtype, start=5, small=small))
    for (label, h1, g1), (_, h2, g2) in zip(firsts, seconds[1:] + seconds[:1]):
        if h1.shape == h2.shape:
            yield label, (h1, h2), (g1, g2)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_unary(mode, dtype):
    for label, h, g in _slices(dtype):
        for name in UNARY:
            check_op(name, [h], [g])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_binary(mode, dtype):
    s = python_scalar(dtype)
    for label, (h1, h2), (g1, g2) in _pairs(dtype):
        for name in BINARY:
            check_op(name, [h1, h2], [g1, g2])
            check_op(name, [h1, s], [g1, s])
            check_op(name, [s, h2], [s, g2])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_out_misaligned(mode, dtype):
    """Results written through ``out=`` slices starting at elements 0..3."""
    for n in SIZES:
        h1, h2 = sample((n,), dtype), sample((n,), dtype, start=5)
        g1, g2 = garray.asarray(h1, copy=True), garray.asarray(h2, copy=True)
        for off in OFFSETS:
            out = garray.zeros(n + 4, dtype=dtype)
            check_op("add", [h1, h2], [g1, g2], out=out[off:off + n])
            check_op("negative", [h1], [g1], out=out[off:off + n])
            assert_xp_close(out[:off], numpy.zeros(off, dtype))     # nothing written
            assert_xp_close(out[off + n:], numpy.zeros(4 - off, dtype))  # outside the slice


def _castable(h):
    """Data every cast handles the same way in C and NumPy: non-negative (a negative
    float to an unsigned integer is undefined in C), real and imaginary parts alike."""
    if xp_kind(h.dtype) == "c":
        return (numpy.abs(h.real) + 1j * numpy.abs(h.imag)).astype(h.dtype)
    return numpy.abs(h) if xp_kind(h.dtype) in "if" else h


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_astype(mode, dtype):
    for n in (3, 1025):
        base = _castable(sample((n + 4,), dtype))
        gbase = garray.asarray(base, copy=True)
        for h, g in ((base[1:n + 1], gbase[1:n + 1]), (base[n + 3:0:-2], gbase[n + 3:0:-2])):
            for to in ALL_DTYPES:
                if dtype.startswith("complex") and not to.startswith("complex"):
                    continue      # NumPy warns and drops the imaginary part; not an op test
                with numpy.errstate(all="ignore"):
                    expected = h.astype(to)
                assert_xp_close(g.astype(to), expected, err_msg=f"{dtype}[{n}] -> {to}")


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_where(mode, dtype):
    for label, (h1, h2), (g1, g2) in _pairs(dtype):
        hc = sample(h1.shape, "bool", start=2)
        gc = garray.asarray(hc, copy=True)
        assert_xp_close(garray.where(gc, g1, g2), numpy.where(hc, h1, h2), err_msg=label)
        assert_xp_close(garray.where(gc[::-1], g1, python_scalar(dtype)),
                        numpy.where(hc[::-1], h1, python_scalar(dtype)), err_msg=label)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_strided_copies(mode, dtype):
    for label, h, g in _slices(dtype):
        assert_xp_close(g.copy(), h.copy(), err_msg=label)
        dst = garray.zeros(h.shape, dtype=dtype)
        dst[...] = g
        assert_xp_close(dst, h, err_msg=label)
    h = sample((5, 7, 3), dtype)
    g = garray.asarray(h, copy=True)
    for index in ((slice(None, None, -1), slice(1, None, 2)), (Ellipsis, slice(None, 1, -1))):
        assert_xp_close(g[index].copy(), h[index].copy())
    assert_xp_close(g.transpose(2, 0, 1).copy(), h.transpose(2, 0, 1).copy())
    assert_xp_close(garray.asarray(g[:, ::-2], copy=True), h[:, ::-2].copy())
