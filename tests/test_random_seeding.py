"""garray.random seeding: SeedSequence word for word against NumPy's.  Host-side only
(no device arrays), so the same tests run on every GARRAY_DEVICE."""

import pickle

import numpy
import pytest

import garray.random as grandom

NpSS = numpy.random.SeedSequence

ENTROPIES = [0, 1, 12345, 2**32 - 1, 2**32, 2**64 + 7, 2**100, 2**200 + 3,
             [], [0], [1, 2], [2**32, 5, 0], list(range(9)), (7, 2**70), range(6),
             ["123", "0x10"], [True, 3], numpy.int64(42), numpy.uint64(2**64 - 1),
             numpy.array([1, 2, 3], "u4"), numpy.array([5, 2**40], "i8"),
             numpy.array([2**64 - 1], "u8"), numpy.array([1, 2], "i1")]


def _words_equal(got, expected):
    assert isinstance(got, numpy.ndarray)
    numpy.testing.assert_array_equal(got, expected, strict=True)


@pytest.mark.parametrize("entropy", ENTROPIES, ids=repr)
def test_generate_state_matches_numpy(entropy):
    for kwargs in ({}, {"spawn_key": (3,)}, {"spawn_key": (1, 2**33)}, {"pool_size": 8},
                   {"spawn_key": (0,), "pool_size": 5}):
        ours, ref = grandom.SeedSequence(entropy, **kwargs), NpSS(entropy, **kwargs)
        _words_equal(ours.pool, ref.pool)
        for dtype in (numpy.uint32, "uint64", numpy.dtype("uint32")):
            _words_equal(ours.generate_state(11, dtype), ref.generate_state(11, dtype))
        _words_equal(ours.generate_state(0), ref.generate_state(0))


def test_attributes_state_repr_match_numpy():
    kw = dict(spawn_key=(1, 2), pool_size=8, n_children_spawned=3)
    for args, kwargs in (((5,), {}), (([1, 2],), kw)):
        ours, ref = grandom.SeedSequence(*args, **kwargs), NpSS(*args, **kwargs)
        for name in ("entropy", "spawn_key", "pool_size", "n_children_spawned"):
            assert getattr(ours, name) == getattr(ref, name), name
        assert ours.state == ref.state
        assert repr(ours) == repr(ref)
    assert grandom.SeedSequence(1, spawn_key=[4, 5]).spawn_key == (4, 5)   # as NumPy


def test_entropy_none_draws_fresh_128_bits():
    a, b = grandom.SeedSequence(), grandom.SeedSequence()
    assert isinstance(a.entropy, int) and 0 <= a.entropy < 2**128
    assert a.entropy != b.entropy
    # Logging the entropy reproduces the stream (NumPy's recommended practice).
    _words_equal(grandom.SeedSequence(a.entropy).generate_state(4), a.generate_state(4))
    _words_equal(a.generate_state(4), NpSS(a.entropy).generate_state(4))
    assert grandom.SeedSequence(pool_size=8).entropy < 2**256


def test_spawn_tree_matches_numpy():
    ours, ref = grandom.SeedSequence(2024), NpSS(2024)
    kids, ref_kids = ours.spawn(3), ref.spawn(3)
    kids += ours.spawn(2)            # numbering continues across calls
    ref_kids += ref.spawn(2)
    assert ours.n_children_spawned == ref.n_children_spawned == 5
    for kid, ref_kid in zip(kids, ref_kids):
        assert kid.spawn_key == ref_kid.spawn_key
        _words_equal(kid.generate_state(6, "uint64"), ref_kid.generate_state(6, "uint64"))
        for grand, ref_grand in zip(kid.spawn(2), ref_kid.spawn(2)):
            assert grand.spawn_key == ref_grand.spawn_key
            _words_equal(grand.generate_state(4), ref_grand.generate_state(4))
    assert ours.spawn(0) == []
    back = pickle.loads(pickle.dumps(kids[1]))            # SeedSequence pickles
    assert back.state == kids[1].state
    _words_equal(back.generate_state(5), kids[1].generate_state(5))
    big = grandom.SeedSequence([1, 2, 3, 4, 5, 6], pool_size=8).spawn(2)[1]
    _words_equal(big.generate_state(8), NpSS(range(1, 7), pool_size=8).spawn(2)[1]
                 .generate_state(8))
    # NumPy 2.4 raises OverflowError from a C cast here; garray names the argument.
    with pytest.raises(ValueError, match="n_children"):
        ours.spawn(-1)


BAD_ENTROPIES = ["-1", "[1, -2]", "numpy.array([-1])", "1.5", "numpy.float64(1)", "'123'",
                 "'abc'", "b'12'", "OBJ", "{1: 2}", "{3}", "[1.5]", "numpy.array([1.5])",
                 "['abc']", "numpy.array([True, False])", "numpy.array(5)"]
BAD_CALLS = [f"ss({e})" for e in BAD_ENTROPIES] + [
    "ss(1, spawn_key=(-1,))", "ss(1, spawn_key=(1.5,))", "ss(1, spawn_key=5)",
    "ss(1, pool_size=3)", "ss(1, pool_size=4.0)", "ss(1).generate_state(2, 'i8')",
    "ss(1).generate_state(2, 'u2')", "ss(1).generate_state(2, 'f')",
    "ss(1).generate_state(2, 'foo')", "ss(1).generate_state(1.5)",
    "ss(1).generate_state(-1)", "ss(1).spawn(1.5)"]
OBJ = object()


@pytest.mark.parametrize("code", BAD_CALLS)
def test_bad_input_raises_like_numpy(code):
    with pytest.raises(Exception) as ref:
        eval(code, {"ss": NpSS, "numpy": numpy, "OBJ": OBJ})
    with pytest.raises(type(ref.value)) as ours:
        eval(code, {"ss": grandom.SeedSequence, "numpy": numpy, "OBJ": OBJ})
    # The messages users search for are NumPy's word for word.
    if str(ref.value).startswith(("SeedSequence expects", "expected non-negative",
                                  "only support", "seed must be", "The size of")):
        assert str(ours.value) == str(ref.value)
