"""garray.random's core: Philox4x32-10, the packed transforms (uniform, normal, bounded
integers), their independence from the launch shape, and Generator's checks.

The expected words come from a pure-Python Philox4x32-10 below (checked against the
Random123 known-answer vectors), so every device, warp size and launch shape must give
exactly these bits.  Distributions are checked in law with scipy.stats at fixed seeds.
"""

import numpy
import pytest
from scipy import stats

import garray
from garray.random import _draw

M32 = 0xFFFFFFFF


def philox_py(ctr, key):
    """Reference Philox4x32-10 (Salmon et al. 2011): 4 counter words, 2 key words."""
    c = list(ctr)
    k0, k1 = key
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & M32, (p0 >> 32) ^ c[3] ^ k1, p0 & M32]
    return c


class At:
    """A bit generator stand-in at a fixed key and position (what Philox._reserve
    returns), advancing as a real one does."""

    def __init__(self, key=0x1234_5678_9ABC_DEF0, pos=0):
        self.key, self.pos, self.reserved = key, pos, []

    def _reserve(self, n):
        p = self.pos
        self.pos = (p + n) % (1 << 96)
        self.reserved.append(n)
        return self.key, p & ((1 << 64) - 1), p >> 64


def ref_words(key, pos, nblocks):
    out = []
    for b in range(nblocks):
        p = (pos + b) % (1 << 96)
        out += philox_py([p & M32, (p >> 32) & M32, p >> 64, 0], [key & M32, key >> 32])
    return numpy.array(out, dtype=numpy.uint32)


@pytest.fixture(params=[None, 1, 3], ids=["per-default", "per-1", "per-3"])
def per(request):
    """Every check runs at the device's launch shape and two others."""
    old = _draw._debug_per(request.param)
    yield request.param
    _draw._debug_per(old)


# ---- Philox itself ----------------------------------------------------------------

KAT = [  # Random123 kat_vectors: counter (4 words), key (2 words) -> 4 words
    ([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    ([M32] * 4, [M32, M32], [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    ([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0],
     [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
]


@pytest.mark.parametrize("ctr, key, expected", KAT)
def test_known_answers(ctr, key, expected):
    assert philox_py(ctr, key) == expected
    bg = At(key[0] | key[1] << 32, ctr[0] | ctr[1] << 32 | ctr[2] << 64)
    got = garray.asnumpy(_draw.bits(bg, (4,), numpy.uint32, c3=ctr[3]))
    assert got.tolist() == expected


@pytest.mark.parametrize("n", [1, 7, 1000, 4097])
def test_words_match_the_reference_and_carry_across_words(per, n):
    # The position starts just below a 64-bit boundary: block b must carry into c2.
    pos = (5 << 64) + (1 << 64) - 3
    bg = At(pos=pos)
    got = garray.asnumpy(_draw.bits(bg, (n,), numpy.uint32))
    nb = -(-n // 4)
    numpy.testing.assert_array_equal(got, ref_words(bg.key, pos, nb)[:n])
    assert bg.pos == pos + nb
    w64 = garray.asnumpy(_draw.bits(At(pos=pos), (n,), numpy.uint64))
    ref = ref_words(bg.key, pos, -(-n // 2)).view(numpy.uint64)[:n]  # little-endian pairs
    numpy.testing.assert_array_equal(w64, ref)


def test_position_wraps_at_2_96():
    bg = At(pos=(1 << 96) - 1)
    got = garray.asnumpy(_draw.bits(bg, (8,), numpy.uint32))
    numpy.testing.assert_array_equal(got[:4], ref_words(bg.key, (1 << 96) - 1, 1))
    numpy.testing.assert_array_equal(got[4:], ref_words(bg.key, 0, 1))


def _has_avx512f():
    try:
        with open("/proc/cpuinfo") as f:
            return any(line.startswith("flags") and "avx512f" in line.split() for line in f)
    except OSError:
        return False


_ISA_DRAWS = """
import hashlib, garray
r = garray.random.default_rng(20261207)
parts = [r.random(1001), r.random(37, dtype=garray.float32), r.standard_normal(517),
         r.integers(-5, 2**40, 333), r.standard_gamma(2.0, 401), r.exponential(size=99)]
print(hashlib.sha256(b"".join(garray.asnumpy(p).tobytes() for p in parts)).hexdigest())
"""


@pytest.mark.skipif(not _has_avx512f(), reason="no AVX-512F: one Philox build only")
def test_avx512_and_avx2_builds_draw_the_same_bits():
    # Where the CPU has AVX-512F the rounds run on 16-lane vectors (rng::blocks16, this
    # process; the tests above pin its words); GARRAY_CPU_ISA=avx2 builds the 8-lane path.
    from isolated import run_isolated
    _, wide, _ = run_isolated(_ISA_DRAWS)
    _, narrow, _ = run_isolated(_ISA_DRAWS, env={"GARRAY_CPU_ISA": "avx2"})
    assert wide.split()[-1] == narrow.split()[-1]


# ---- packed transforms: exact values, any launch shape, prefixes ---------------------


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_uniform_bits_are_numpys_rule(per, dtype):
    n = 1001
    w = ref_words(At().key, 0, n).astype(numpy.uint64)
    if dtype == "float64":
        expected = ((w[1::2] << 32 | w[0::2]) >> 11)[:n] * 2.0 ** -53
    else:
        expected = ((w >> 8)[:n] * numpy.float32(2.0 ** -24)).astype(numpy.float32)
    got = garray.asnumpy(garray.random.Generator(At()).random(n, dtype=dtype))
    assert got.dtype == dtype
    numpy.testing.assert_array_equal(got, expected)


def test_normals_are_box_muller_of_the_words(per):
    n = 999
    w = ref_words(At().key, 0, -(-n // 2)).astype(numpy.uint64)
    u1 = (((w[1::4] << 32 | w[0::4]) >> 11) + 1) * 2.0 ** -53
    a2 = ((w[3::4] << 32 | w[2::4]) >> 11) * 2.0 ** -53
    r = numpy.sqrt(-2 * numpy.log(u1))
    expected = numpy.stack([r * numpy.cos(2 * numpy.pi * a2),
                            r * numpy.sin(2 * numpy.pi * a2)], axis=1).ravel()[:n]
    got = garray.asnumpy(garray.random.Generator(At()).standard_normal(n))
    numpy.testing.assert_allclose(got, expected, rtol=1e-13, atol=1e-14)
    g32 = garray.asnumpy(garray.random.Generator(At()).standard_normal(n, dtype="float32"))
    numpy.testing.assert_array_equal(g32, got.astype(numpy.float32))


# The CPU device's first float64 normals at At() (recorded at warp size 32): every device,
# warp size and launch shape must reproduce them to the bit (the log and sine are
# garray's own, every multiply-add an explicit fma).
NORMAL_BITS = ['0x1.332296f9685b0p-1', '0x1.12c065008d823p+0', '-0x1.20a691b880a08p+0',
               '-0x1.a573e6eb19aacp-1', '-0x1.d97de9415facdp-1', '0x1.8fbd0e70b012ap+0']


def test_normal_bits_identical_everywhere(per):
    got = garray.asnumpy(garray.random.Generator(At()).standard_normal(6))
    here = [float(v).hex() for v in got]
    again = garray.asnumpy(garray.random.Generator(At()).standard_normal(6))
    assert here == [float(v).hex() for v in again]
    assert here == NORMAL_BITS


@pytest.mark.parametrize("method, kw", [
    ("random", {}), ("random", {"dtype": "float32"}), ("standard_normal", {}),
    ("standard_normal", {"dtype": "float32"}), ("standard_exponential", {}),
    ("integers", {"low": 0, "high": 1 << 20}), ("integers", {"low": -5, "high": 3 << 40}),
    ("integers", {"low": 0, "high": 3 << 30}), ("uniform", {"low": -2.0, "high": 5.0}),
    ("normal", {"loc": 1.0, "scale": 3.0}),
])
def test_first_k_of_n_equal_a_size_k_draw(per, method, kw):
    g = garray.random.Generator
    big = garray.asnumpy(getattr(g(At()), method)(size=(37, 11), **kw)).ravel()
    for k in (1, 2, 3, 5, 64, 400):
        small = garray.asnumpy(getattr(g(At()), method)(size=k, **kw))
        numpy.testing.assert_array_equal(small, big[:k])


def test_draws_advance_and_do_not_overlap():
    bg = At()
    g = garray.random.Generator(bg)
    g.random(10)           # 5 blocks
    g.random(3, dtype="float32")   # 1 block
    g.integers(0, 7, 9)    # one position per value: retries use the element streams
    g.standard_normal(5)   # 3 blocks
    assert bg.reserved == [5, 1, 9, 3]
    a = garray.asnumpy(garray.random.Generator(At()).random(12))
    assert len(set(a.tolist())) == 12


# ---- integers --------------------------------------------------------------------


INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("dtype", INT_DTYPES + ["bool"])
def test_integers_full_range_of_every_dtype(dtype):
    info = (0, 1) if dtype == "bool" else (int(numpy.iinfo(dtype).min),
                                            int(numpy.iinfo(dtype).max))
    g = garray.random.default_rng(3)
    x = g.integers(info[0], info[1], size=4000, dtype=dtype, endpoint=True)
    assert x.dtype == dtype and x.shape == (4000,)
    h = garray.asnumpy(x)
    assert h.min() >= info[0] and h.max() <= info[1]
    small = garray.asnumpy(g.integers(info[0], info[0] + 2, size=500, dtype=dtype))
    assert set(small.tolist()) == {info[0], info[0] + 1}


@pytest.mark.parametrize("span", [3 << 30, 3 << 62])
def test_integers_unbiased_where_multiply_shift_is_not(span):
    # Without rejection, floor(x * span / 2**w) puts twice the mass on every value
    # divisible by 3 (span = 3 * 2**(w-2)); Lemire's rejection (a quarter of the first
    # tries here) makes each residue 1/3.
    dtype = "uint64"
    x = garray.asnumpy(garray.random.default_rng(11).integers(0, span, 60000, dtype=dtype))
    counts = numpy.bincount((x % 3).astype(numpy.int64), minlength=3)
    assert stats.chisquare(counts).pvalue > 1e-4, counts
    assert x.max() < span


def test_integers_chi_square_small_range():
    x = garray.asnumpy(garray.random.default_rng(5).integers(-3, 4, 70000))
    counts = numpy.bincount(x + 3, minlength=7)
    assert stats.chisquare(counts).pvalue > 1e-4, counts


# ---- laws --------------------------------------------------------------------------


@pytest.mark.parametrize("method, dist", [
    ("random", stats.uniform()), ("standard_normal", stats.norm()),
    ("standard_exponential", stats.expon()),
])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_kolmogorov_smirnov(method, dist, dtype):
    x = garray.asnumpy(getattr(garray.random.default_rng(2), method)(50000, dtype=dtype))
    assert stats.kstest(x.astype(numpy.float64), dist.cdf).pvalue > 1e-4


def test_uniform_and_normal_parameters():
    g = garray.random.default_rng(8)
    u = garray.asnumpy(g.uniform(-3.0, 5.0, 40000))
    assert u.min() >= -3 and u.max() < 5
    assert stats.kstest(u, stats.uniform(-3, 8).cdf).pvalue > 1e-4
    z = garray.asnumpy(g.normal(2.0, 0.5, 40000))
    assert stats.kstest(z, stats.norm(2, 0.5).cdf).pvalue > 1e-4
    loc = garray.asarray([[0.0], [10.0]])
    z2 = g.normal(loc, 1.0, size=(2, 3000))
    m = garray.asnumpy(z2).mean(axis=1)
    assert abs(m[0]) < 0.1 and abs(m[1] - 10) < 0.1
    lo = garray.asarray([0.0, 100.0])
    u2 = garray.asnumpy(g.uniform(lo, lo + 1))
    assert u2.shape == (2,) and 0 <= u2[0] < 1 and 100 <= u2[1] < 101


# ---- shapes, out= and errors as NumPy ------------------------------------------------


@pytest.mark.parametrize("size, shape", [(None, ()), (0, (0,)), (5, (5,)), ((2, 0, 3), (2, 0, 3)),
                                         ((3, 4), (3, 4)), (numpy.int64(2), (2,))])
def test_sizes(size, shape):
    g = garray.random.default_rng(0)
    for x in (g.random(size), g.standard_normal(size), g.integers(0, 9, size),
              g.uniform(0.0, 2.0, size), g.normal(0.0, 1.0, size), g.standard_exponential(size)):
        assert isinstance(x, garray.ndarray) and x.shape == shape


def test_out():
    g = garray.random.default_rng(1)
    out = garray.empty((3, 4), dtype="float32")
    r = g.random(out=out, dtype="float32")
    assert r is out
    ref = garray.asnumpy(garray.random.default_rng(1).random((3, 4), dtype="float32"))
    numpy.testing.assert_array_equal(garray.asnumpy(out), ref)
    assert g.standard_normal(out=garray.empty(5)).shape == (5,)


def _errors(call):
    """Both numpy's Generator and garray's raise the same exception type."""
    with pytest.raises(Exception) as e_np:
        call(numpy.random.default_rng(0), numpy)
    with pytest.raises(type(e_np.value)):
        call(garray.random.default_rng(0), garray)


@pytest.mark.parametrize("call", [
    lambda g, xp: g.random(dtype=numpy.int32),
    lambda g, xp: g.random(size=-1),
    lambda g, xp: g.random(size=2.0),
    lambda g, xp: g.standard_normal(dtype="complex64"),
    lambda g, xp: g.integers(5, 5),
    lambda g, xp: g.integers(5, 4, endpoint=True),
    lambda g, xp: g.integers(-1, 5, dtype=numpy.uint8),
    lambda g, xp: g.integers(0, 300, dtype=numpy.uint8),
    lambda g, xp: g.integers(0, 10, dtype=numpy.float64),
    lambda g, xp: g.normal(0, -1),
    lambda g, xp: g.normal(xp.asarray([0.0, 1.0]), xp.asarray([1.0, -1.0])),
    lambda g, xp: g.uniform(0, numpy.inf),
    lambda g, xp: g.random(3, out=xp.empty(4)),
    lambda g, xp: g.random(out=xp.empty((4, 4))[:, ::2]),
], ids=lambda f: "")
def test_errors_as_numpy(call):
    _errors(call)


def test_bytes():
    b = garray.random.default_rng(4).bytes(10)
    assert isinstance(b, bytes) and len(b) == 10
    assert garray.random.default_rng(4).bytes(10) == b
    # NumPy 2.4 returns 3 bytes for bytes(-1); garray refuses a negative length.
    with pytest.raises(ValueError, match="length"):
        garray.random.default_rng(4).bytes(-1)


def test_default_rng_passes_generators_through():
    g = garray.random.default_rng(1)
    assert garray.random.default_rng(g) is g
    assert garray.random.default_rng(g.bit_generator).bit_generator is g.bit_generator
    with pytest.raises(TypeError):
        garray.random.Generator(object())


def test_random_raw_is_the_uint64_words():
    bg = garray.random.Philox(7)
    raw = garray.asnumpy(bg.random_raw(5))
    again = garray.random.Philox(7)
    words = garray.asnumpy(_draw.bits(again, (10,), numpy.uint32))
    numpy.testing.assert_array_equal(raw, words.view(numpy.uint64)[:5])
    assert bg.state["state"]["counter"].tolist() == again.state["state"]["counter"].tolist()
    bg.random_raw(4, output=False)
    assert bg.state["state"]["counter"][0] == 3 + 2
    assert bg.random_raw().shape == ()


def test_threads_share_a_generator_without_overlap():
    # Each call reserves its own positions under the bit generator's lock: 8 threads
    # drawing 1000 values each get the 8000 values of one single-threaded draw, in
    # some order of the calls.
    from xp import run_in_threads
    g = garray.random.default_rng(12)
    got = [None] * 8

    def work(i):
        got[i] = garray.asnumpy(g.random(1000))

    run_in_threads(work)
    allv = numpy.sort(numpy.concatenate(got))
    ref = numpy.sort(garray.asnumpy(garray.random.default_rng(12).random(8000)))
    numpy.testing.assert_array_equal(allv, ref)
