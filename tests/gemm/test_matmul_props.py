"""Property tests for matmul: random shapes (1-d operands, batch axes that broadcast,
sides 0 to 9), dtypes, views (reversed, step, transposed) and both GEMM paths against
NumPy.  The settings profile is fixed (small ``max_examples``, no deadline,
derandomized) so CI runs the same examples.
"""

import numpy
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import garray
from xp import assert_xp_close, expected_exception, sample

settings.register_profile(
    "garray-matmul", max_examples=40, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture])
PROFILE = settings.get_profile("garray-matmul")

DTYPES = ("bool", "int8", "uint32", "int64", "float32", "float64", "complex64",
          "complex128")


def operand(draw, shape, dtype, start):
    """(numpy view, garray view) of ``shape``: reversed, step or transposed axes."""
    steps = [draw(st.sampled_from([1, -1, 2])) for _ in shape]
    base_shape = tuple(s * abs(k) for s, k in zip(shape, steps))
    h = sample(base_shape, dtype, start)
    key = tuple(slice(None, None, k) for k in steps)
    n, g = h[key], garray.asarray(h)[key]
    if len(shape) >= 2 and draw(st.booleans()):     # a transposed copy, seen transposed back
        n = numpy.ascontiguousarray(numpy.swapaxes(n, -1, -2))
        g = garray.asarray(n)
        n, g = numpy.swapaxes(n, -1, -2), garray.swapaxes(g, -1, -2)
    return n, g


@st.composite
def problems(draw):
    m, k, n = (draw(st.integers(0, 9)) for _ in range(3))
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    ba = [b if draw(st.booleans()) else 1 for b in batch]
    bb = [b if draw(st.booleans()) else 1 for b in batch]
    ba = ba[draw(st.integers(0, len(ba))):]
    sa = tuple(ba) + ((m, k) if draw(st.integers(0, 4)) else (k,))
    sb = tuple(bb) + ((k, n) if draw(st.integers(0, 4)) else (k,))
    if len(sa) == 1:                                # a 1-d operand has no batch axes
        sa = (k,)
    if len(sb) == 1:
        sb = (k,)
    if draw(st.integers(0, 9)) == 0:                # now and then a core-size mismatch
        sb = sb[:-2] + (k + 1,) + sb[-1:] if len(sb) >= 2 else (k + 1,)
    dtype = draw(st.sampled_from(DTYPES))
    return operand(draw, sa, dtype, 0), operand(draw, sb, dtype, 5)


@pytest.mark.parametrize("mode", ["kernel", "auto"])
@PROFILE
@given(problems())
def test_matmul_matches_numpy(monkeypatch, mode, prob):
    monkeypatch.setenv("GARRAY_GEMM", mode)
    (na, ga), (nb, gb) = prob
    try:
        expected = numpy.matmul(na, nb)
    except Exception as e:  # noqa: BLE001 - garray must raise the same type
        with pytest.raises(expected_exception(e)):
            garray.matmul(ga, gb)
        return
    k = na.shape[-1]
    tol = (0, 0)
    if expected.dtype.kind in "fc":
        eps = float(numpy.finfo(expected.dtype).eps)
        tol = (4 * (k + 1) * eps, 64 * (k + 1) * eps)
    assert_xp_close(garray.matmul(ga, gb), expected, rtol=tol[0], atol=tol[1])
