"""Property tests for the products (garray/_gemm/contract.py, garray/_gemm/einsum.py): random
einsum subscripts over random label sizes, tensordot axes and vecdot broadcasting
against NumPy.

Hypothesis draws up to three operands over labels a-e (sides 0 to 3, sometimes 1 so
that broadcasting is exercised), with repeated labels, ellipses, implicit and explicit
outputs, as reversed views; NumPy's result or exception type is the reference. The
profile is fixed (small ``max_examples``, no deadline, derandomized) so CI runs the same
examples.
"""

import numpy
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import garray
from xp import same_or_raises_alike, sample

settings.register_profile(
    "garray-contract", max_examples=40, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PROFILE = settings.get_profile("garray-contract")

DTYPES = ("int16", "float64", "complex128", "bool")


def operand(shape, dtype, start, reverse):
    """(numpy, garray) views of the same data, reversed along every axis if asked."""
    h = sample(shape, dtype, start)
    g = garray.asarray(h, copy=True)
    key = (slice(None, None, -1),) * len(shape) if reverse else ()
    return h[key], g[key]


def same(fn_np, fn_g):
    same_or_raises_alike(fn_np, fn_g, rtol=1e-9, atol=1e-9)


@PROFILE
@given(st.data())
def test_einsum_random(data):
    sizes = {c: data.draw(st.sampled_from([0, 1, 2, 3])) for c in "abcde"}
    n_ops = data.draw(st.integers(1, 3))
    ell = data.draw(st.booleans())
    dtype = data.draw(st.sampled_from(DTYPES))
    terms, nps, gs = [], [], []
    for k in range(n_ops):
        t = "".join(data.draw(st.lists(st.sampled_from("abcde"), max_size=3)))
        shape = [sizes[c] for c in t]
        if ell:
            e = data.draw(st.integers(0, 2))
            t = "..." + t
            shape = [2] * e + shape
        h, g = operand(tuple(shape), dtype, 3 * k, data.draw(st.booleans()))
        terms.append(t)
        nps.append(h)
        gs.append(g)
    subs = ",".join(terms)
    if data.draw(st.booleans()):
        seen = sorted(set("".join(terms)) - {"."})
        out = "".join(data.draw(st.permutations(seen))[:data.draw(st.integers(0, len(seen)))])
        subs += "->" + ("..." if ell else "") + out
    opt = data.draw(st.sampled_from([False, "greedy"]))
    same(lambda: numpy.einsum(subs, *nps, optimize=opt),
         lambda: garray.einsum(subs, *gs, optimize=opt))


@PROFILE
@given(st.data())
def test_tensordot_random(data):
    n_sum = data.draw(st.integers(0, 2))
    free_a = data.draw(st.lists(st.integers(0, 3), max_size=2))
    free_b = data.draw(st.lists(st.integers(0, 3), max_size=2))
    summed = data.draw(st.lists(st.integers(0, 3), min_size=n_sum, max_size=n_sum))
    dtype = data.draw(st.sampled_from(DTYPES))
    ha, ga = operand(tuple(free_a + summed), dtype, 0, data.draw(st.booleans()))
    hb, gb = operand(tuple(summed + free_b), dtype, 5, data.draw(st.booleans()))
    same(lambda: numpy.tensordot(ha, hb, axes=n_sum),
         lambda: garray.tensordot(ga, gb, axes=n_sum))
    pa = tuple(range(len(free_a), len(free_a) + n_sum))
    pb = tuple(range(n_sum))[::-1]
    same(lambda: numpy.tensordot(ha, hb, axes=(pa, pb)),
         lambda: garray.tensordot(ga, gb, axes=(pa, pb)))


@PROFILE
@given(st.data())
def test_vecdot_broadcast(data):
    n = data.draw(st.integers(0, 3))
    ba = data.draw(st.lists(st.sampled_from([1, 2]), max_size=2))
    bb = data.draw(st.lists(st.sampled_from([1, 2]), max_size=2))
    dtype = data.draw(st.sampled_from(DTYPES))
    ha, ga = operand(tuple(ba) + (n,), dtype, 0, data.draw(st.booleans()))
    hb, gb = operand(tuple(bb) + (n,), dtype, 2, data.draw(st.booleans()))
    same(lambda: numpy.vecdot(ha, hb), lambda: garray.vecdot(ga, gb))
