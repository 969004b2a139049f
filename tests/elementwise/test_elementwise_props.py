"""Property tests for the elementwise family: random inputs against NumPy.

This module is the template for later kernel families (reductions, scans, sorting...):
Hypothesis draws what the example-based tests fix in advance (shapes of 0 to 4 axes with
sides 0 to 6, views with negative and step strides and transposes, any of the 14 dtypes,
broadcasting operands, Python scalar operands, ``out=`` including an ``out`` that is an
input), builds the same arrays for NumPy and garray, and compares with the shared helper
(tests/xp.py ``assert_xp_close``) through ``check_op`` of tests/elementwise/test_elementwise.py, so
the deliberate differences from NumPy are the same list.  The settings profile is fixed
(small ``max_examples``, no deadline, derandomized) so CI runs the same examples.
"""

import numpy
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import garray
from test_elementwise import NAMES, OPS, check_op, reference, small_operands
from xp import ALL_DTYPES

settings.register_profile(
    "garray-elementwise", max_examples=300, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],   # no slow "explain" phase
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PROFILE = settings.get_profile("garray-elementwise")

# One-output ops (divmod, frexp and modf: tests/elementwise/test_ufunc_twoout.py)
UNARY = [n for n in NAMES if OPS[n].nin == 1 and OPS[n].nout == 1]
BINARY = [n for n in NAMES if OPS[n].nin == 2 and OPS[n].nout == 1]
MAX_DIMS, MAX_SIDE = 4, 6


# ---- strategies ---------------------------------------------------------------------


def _elements(dtype, small):
    """Mostly small values (integers in [-8, 8], floats in [-4, 4]), plus the whole range
    of the dtype (integer extremes: wrap-around; huge and tiny floats), signed zeros,
    infinities and NaN for real floats.  ``small`` (exponents, shift counts): integers
    are non-negative, mostly 0..3 (negative integer exponents raise, tested in
    tests/elementwise/test_elementwise.py)."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return st.booleans()
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        lo = 0 if small else info.min
        near = st.integers(0, 3) if small else st.integers(max(lo, -8), 8)
        return st.one_of(near, st.integers(lo, info.max), st.sampled_from([lo, info.max]))
    width = dtype.itemsize * 8 // (2 if dtype.kind == "c" else 1)
    near = st.floats(-4, 4, width=width)
    anywhere = st.floats(width=width, allow_nan=False, allow_infinity=False)
    finite = st.one_of(near, near, anywhere)
    if dtype.kind == "c":
        return st.builds(complex, finite, finite)
    return st.one_of(finite, st.sampled_from([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan]))


@st.composite
def views(draw, shape, dtype, small=False):
    """(numpy view, garray view) of ``shape``: each axis a slice of a bigger contiguous
    base with a step in {2, 1, -1, -2} and an offset, the axes optionally permuted."""
    nd = len(shape)
    perm = tuple(draw(st.permutations(range(nd)))) if draw(st.booleans()) else None
    pre = list(shape)                          # the shape before the transpose
    if perm is not None:
        for k, p in enumerate(perm):
            pre[p] = shape[k]
    steps = [draw(st.sampled_from([1, 2, -1, -2])) for _ in pre]
    offsets = [draw(st.integers(0, 1)) for _ in pre]
    base_shape = tuple(o + max(n - 1, 0) * abs(s) + 1 for n, s, o in zip(pre, steps, offsets))
    base = draw(hnp.arrays(dtype, base_shape, elements=_elements(dtype, small)))
    index = []
    for n, s, o, e in zip(pre, steps, offsets, base_shape):
        start = o if s > 0 else e - 1 - o
        stop = start + n * s
        index.append(slice(start, stop if stop >= 0 else None, s))
    index = tuple(index) + (Ellipsis,)      # a 0-d view, not a NumPy scalar, for shape ()
    h, g = base[index], garray.asarray(base, copy=True)[index]
    if perm is not None:
        h, g = h.transpose(perm), g.transpose(perm)
    assert h.shape == g.shape == tuple(shape)
    return h, g


dtypes = st.sampled_from(ALL_DTYPES)


def _python_scalar(kind, small):
    if kind == "bool":
        return st.booleans()
    if kind == "int":   # out of a dtype's range: OverflowError in NumPy and garray alike
        return st.integers(0, 3) if small else st.one_of(st.integers(-8, 8),
                                                         st.integers(-2**64, 2**64))
    finite = st.one_of(st.floats(-4, 4), st.floats(allow_nan=False, allow_infinity=False))
    if kind == "float":
        return finite
    return st.builds(complex, finite, finite)


scalar_kinds = st.sampled_from(["bool", "int", "float", "complex"])


# ---- tests --------------------------------------------------------------------------


def _check(name, n_args, g_args, out_pair=None):
    if name == "floor_divide" and any(
            isinstance(a, numpy.ndarray) and a.dtype.kind in "fc" and
            not numpy.isfinite(a).all() for a in n_args):
        assume(False)     # deliberate difference: Array API special cases (test_elementwise)
    if out_pair is None:
        check_op(name, n_args, g_args)
        return
    n_out, g_out = out_pair
    try:
        expected = reference(name, n_args)
    except Exception:  # noqa: BLE001 - check_op checks the exception
        check_op(name, n_args, g_args)
        return
    if not numpy.can_cast(expected.dtype, n_out.dtype, "same_kind"):
        with pytest.raises(TypeError, match=name):
            getattr(garray, name)(*g_args, out=g_out)
        return
    check_op(name, n_args, g_args, out=g_out)


@PROFILE
@given(data=st.data(), name=st.sampled_from(UNARY), dtype=dtypes,
       shape=hnp.array_shapes(min_dims=0, max_dims=MAX_DIMS, min_side=0, max_side=MAX_SIDE),
       use_out=st.sampled_from([None, "fresh", "alias"]))
def test_unary(data, name, dtype, shape, use_out):
    h, g = data.draw(views(shape, dtype))
    out_pair = None
    if use_out == "alias":
        out_pair = (h, g)
    elif use_out == "fresh":
        out_dtype = data.draw(dtypes)
        out_pair = (numpy.zeros(h.shape, out_dtype), garray.zeros(h.shape, dtype=out_dtype))
    _check(name, [h], [g], out_pair)


@PROFILE
@given(data=st.data(), name=st.sampled_from(BINARY), dtype1=dtypes, dtype2=dtypes,
       shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=MAX_DIMS,
                                                min_side=0, max_side=MAX_SIDE))
def test_binary_broadcasting(data, name, dtype1, dtype2, shapes):
    small = small_operands(name)
    (h1, g1) = data.draw(views(shapes.input_shapes[0], dtype1))
    (h2, g2) = data.draw(views(shapes.input_shapes[1], dtype2, small=1 in small))
    _check(name, [h1, h2], [g1, g2])


@PROFILE
@given(data=st.data(), name=st.sampled_from(BINARY), dtype=dtypes, kind=scalar_kinds,
       scalar_first=st.booleans(),
       shape=hnp.array_shapes(min_dims=0, max_dims=MAX_DIMS, min_side=0, max_side=MAX_SIDE))
def test_binary_python_scalar(data, name, dtype, kind, scalar_first, shape):
    small = 1 in small_operands(name)
    h, g = data.draw(views(shape, dtype, small=small and scalar_first))
    s = data.draw(_python_scalar(kind, small and not scalar_first))
    if scalar_first:
        _check(name, [s, h], [s, g])
    else:
        _check(name, [h, s], [g, s])


@PROFILE
@given(data=st.data(), name=st.sampled_from(BINARY), dtype=dtypes,
       shape=hnp.array_shapes(min_dims=1, max_dims=MAX_DIMS, min_side=1, max_side=MAX_SIDE),
       second=st.sampled_from(["flipped", "same", "other"]))
def test_binary_out_aliases_an_input(data, name, dtype, shape, second):
    """out= the first operand; the second is that operand reversed on every axis (a
    partial overlap), the operand itself, or an independent array."""
    small = 1 in small_operands(name)
    h1, g1 = data.draw(views(shape, dtype, small=small))
    if second == "flipped":
        flip = (slice(None, None, -1),) * len(shape)
        h2, g2 = h1[flip], g1[flip]
    elif second == "same":
        h2, g2 = h1, g1
    else:
        h2, g2 = data.draw(views(shape, dtype, small=small))
    n_args = [h1.copy(), h2.copy()]      # NumPy semantics: as if the inputs were copied
    _check(name, n_args, [g1, g2], out_pair=(h1, g1))
