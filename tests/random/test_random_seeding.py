"""garray.random seeding: SeedSequence word for word against NumPy's; the Philox bit
generator object (state, position arithmetic, _reserve, pickling, threads).  Host-side
only (no device arrays), so the same tests run on every GARRAY_DEVICE."""

import pickle
import threading

import numpy
import pytest

import garray.random as grandom

NpSS = numpy.random.SeedSequence
V, T = ValueError, TypeError

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


# ---- Philox ---------------------------------------------------------------------------


def _key_words(seed):
    return NpSS(seed).generate_state(2, numpy.uint32)   # k0, k1 as NumPy seeds them


def _counter(bg):
    c = bg.state["state"]["counter"]
    return int(c[0]) | int(c[1]) << 32 | int(c[2]) << 64 | int(c[3]) << 96


@pytest.mark.parametrize("seed", [0, 12345, 2**100, [1, 2, 3]], ids=repr)
def test_philox_key_from_seed(seed):
    for bg in (grandom.Philox(seed), grandom.Philox(NpSS(seed)),
               grandom.Philox(grandom.SeedSequence(seed))):
        st = bg.state
        assert st["bit_generator"] == "Philox"
        _words_equal(st["state"]["key"], _key_words(seed))
        _words_equal(st["state"]["counter"], numpy.zeros(4, numpy.uint32))
    k0, k1 = (int(w) for w in _key_words(seed))
    assert grandom.Philox(seed)._reserve(0) == (k0 | k1 << 32, 0, 0)
    ss = NpSS(7)
    assert grandom.Philox(ss).seed_seq is ss      # a NumPy SeedSequence is used as is
    bg = grandom.Philox(7)
    assert isinstance(bg.seed_seq, grandom.SeedSequence) and bg.seed_seq.entropy == 7
    assert grandom.Philox().seed_seq.entropy != grandom.Philox().seed_seq.entropy


def test_philox_key_and_counter_arguments():
    bg = grandom.Philox(key=0x0123456789ABCDEF, counter=[5, 6, 7, 0])
    _words_equal(bg.state["state"]["key"], numpy.array([0x89ABCDEF, 0x01234567], "u4"))
    assert bg.seed_seq is None
    assert bg._reserve(1) == (0x0123456789ABCDEF, 5 | 6 << 32, 7)
    bg = grandom.Philox(key=numpy.array([1, 2], dtype=numpy.uint32), counter=2**95 + 3)
    assert bg._reserve(0) == (1 | 2 << 32, 3, 2**31)
    assert grandom.Philox(key=[2**32 - 1, 0])._reserve(0)[0] == 2**32 - 1
    assert grandom.Philox(1, counter=numpy.uint64(9))._reserve(0)[1] == 9
    with pytest.raises(TypeError, match="does not implement spawning"):
        grandom.Philox(key=3).spawn(1)


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(seed=1, key=2), V, "seed and key"), (dict(key=-1), V, "key"),
    (dict(key=2**64), V, "2\\*\\*64"), (dict(key=[1, 2, 3]), V, "2 elements"),
    (dict(key=[1, 2**32]), V, "key"), (dict(key=[-1, 0]), V, "key"),
    (dict(key=1.5), T, "key"), (dict(key=[1.0, 2.0]), T, "key"),
    (dict(counter=-1), V, "counter"), (dict(counter=2**128), V, "counter"),
    (dict(counter=2**96), V, "reserved"), (dict(counter=[0, 0, 0, 1]), V, "c3"),
    (dict(counter=[1, 2, 3]), V, "4 elements"), (dict(counter=1.5), T, "counter"),
    (dict(seed=-3), V, "non-negative"), (dict(seed=2.5), T, "entropy"),
])
def test_philox_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        grandom.Philox(**kwargs)


def test_philox_state_round_trip_and_validation():
    a, b = grandom.Philox(1), grandom.Philox(2)
    a.advance(2**70 + 2**33 + 5)
    b.state = a.state
    assert b.state["state"]["counter"].tolist() == [5, 2, 64, 0]
    assert b._reserve(4) == a._reserve(4)           # same key, same position
    st = a.state                      # the state is a snapshot, not a view
    st["state"]["counter"][0] = 99
    assert a.state["state"]["counter"][0] == 9
    for bad, exc in [(5, T), ({"bit_generator": "PCG64", "state": a.state["state"]}, V),
                     ({}, V), ({"bit_generator": "Philox"}, V),
                     ({"key": [1, 2]}, V), ({"key": [1, 2, 3], "counter": [0] * 4}, V),
                     ({"key": [1, 2], "counter": [0, 0, 0, 4]}, V)]:
        if isinstance(bad, dict) and "key" in bad:
            bad = {"bit_generator": "Philox", "state": bad}
        with pytest.raises(exc):
            b.state = bad
    assert b.state["state"]["counter"].tolist() == [9, 2, 64, 0]   # unchanged by failures


def test_philox_advance_arithmetic():
    bg = grandom.Philox(key=1, counter=[2**32 - 1, 0, 0, 0])
    assert bg.advance(1) is bg
    assert bg.state["state"]["counter"].tolist() == [0, 1, 0, 0]      # carry c0 -> c1
    bg.state = {"bit_generator": "Philox",
                "state": {"key": [1, 0], "counter": [2**32 - 1, 2**32 - 1, 0, 0]}}
    bg.advance(1)
    assert bg.state["state"]["counter"].tolist() == [0, 0, 1, 0]      # carry c1 -> c2
    bg.advance(2**96 - 1)                                             # wraps at 2**96
    assert bg.state["state"]["counter"].tolist() == [2**32 - 1, 2**32 - 1, 0, 0]
    bg.advance(2**200 + 3)                                            # beyond 2**64
    assert _counter(bg) == (2**64 - 1 + 2**200 + 3) % 2**96
    bg.advance(numpy.int64(0))
    for bad, exc in [(-1, V), (1.5, T), ("1", T)]:
        with pytest.raises(exc, match="delta"):
            bg.advance(bad)


def test_philox_jumped():
    bg = grandom.Philox(11, counter=[7, 8, 9, 0])
    j = bg.jumped()
    assert j is not bg and isinstance(j, grandom.Philox)
    assert j.state["state"]["counter"].tolist() == [7, 8, 10, 0]
    _words_equal(j.state["state"]["key"], bg.state["state"]["key"])
    assert bg.state["state"]["counter"].tolist() == [7, 8, 9, 0]       # original unchanged
    assert j.seed_seq is bg.seed_seq
    assert _counter(bg.jumped(2**32 - 9)) == 7 | 8 << 32               # wraps at 2**96
    assert _counter(bg.jumped(0)) == _counter(bg)
    assert _counter(bg.jumped(numpy.uint8(3))) == _counter(bg) + 3 * 2**64
    for bad, exc in [(-1, V), (1.0, T)]:
        with pytest.raises(exc, match="jumps"):
            bg.jumped(bad)
    j._reserve(5)                                                       # independent lock
    assert _counter(bg) == 7 | 8 << 32 | 9 << 64


def test_philox_reserve_triple():
    bg = grandom.Philox(key=[0xDEADBEEF, 0x12345678], counter=[2**32 - 2, 2**32 - 1, 3, 0])
    key = 0xDEADBEEF | 0x12345678 << 32
    assert bg._reserve(5) == (key, 2**64 - 2, 3)
    assert bg._reserve(0) == (key, 3, 4)          # the carry crossed into bits 64..95
    bg.advance(2**96 - (3 | 4 << 64) - 1)
    assert bg._reserve(2) == (key, 2**64 - 1, 2**32 - 1)
    assert bg._reserve(1) == (key, 1, 0)          # wrapped at 2**96
    for bad, exc in [(-1, V), (2.0, T)]:
        with pytest.raises(exc, match="nblocks"):
            bg._reserve(bad)


def test_philox_reserve_threads():
    bg = grandom.Philox(3)
    n_threads, n_calls = 8, 1000
    got = [[] for _ in range(n_threads)]
    start = threading.Barrier(n_threads)

    def worker(out, size):
        start.wait()
        for _ in range(n_calls):
            _, lo, hi = bg._reserve(size)
            out.append((lo | hi << 64, size))

    threads = [threading.Thread(target=worker, args=(got[i], 1 + i % 3))
               for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ranges = sorted(r for out in got for r in out)
    assert len(ranges) == n_threads * n_calls
    # Disjoint and gap-free: each range starts where the previous one ended.
    pos = 0
    for first, size in ranges:
        assert first == pos
        pos += size
    assert _counter(bg) == pos


def test_philox_spawn():
    bg = grandom.Philox(99)
    kids = bg.spawn(2)
    ref = NpSS(99).spawn(2)
    for kid, ref_kid in zip(kids, ref):
        assert isinstance(kid, grandom.Philox)
        assert kid.seed_seq.spawn_key == ref_kid.spawn_key
        _words_equal(kid.state["state"]["key"], ref_kid.generate_state(2, numpy.uint32))
    assert bg.spawn(1)[0].seed_seq.spawn_key == (2,)
    np_kid = grandom.Philox(NpSS(99)).spawn(1)[0]        # NumPy seed sequences spawn too
    _words_equal(np_kid.state["state"]["key"], ref[0].generate_state(2, numpy.uint32))
    with pytest.raises(TypeError):
        bg.spawn(1.5)
    with pytest.raises(ValueError, match="n_children"):
        bg.spawn(-1)


@pytest.mark.parametrize("make", [lambda: grandom.Philox(5, counter=2**80 + 17),
                                  lambda: grandom.Philox(NpSS(5)),
                                  lambda: grandom.Philox(key=[4, 5], counter=3)])
def test_philox_pickle(make):
    bg = make()
    if bg.seed_seq is not None:
        bg.seed_seq.spawn(1)                 # the spawn count must survive pickling
    back = pickle.loads(pickle.dumps(bg))
    assert type(back) is grandom.Philox and back is not bg
    assert back._reserve(0) == bg._reserve(0)
    if bg.seed_seq is None:
        assert back.seed_seq is None
    else:
        assert back.seed_seq.state == bg.seed_seq.state
        assert back.spawn(1)[0]._reserve(0) == bg.spawn(1)[0]._reserve(0)
    back._reserve(3)                         # a working lock of its own
    assert back._reserve(0)[1:] != bg._reserve(0)[1:]
    assert repr(back) == repr(bg.advance(3))
    fresh = grandom.Philox.__new__(grandom.Philox)
    fresh.__setstate__(bg.state)             # a bare state dict, as NumPy accepts
    assert fresh._reserve(0) == bg._reserve(0)
