"""Hostile input for the families that landed after tests/test_hostile.py: reductions and
statistics, sorting and searching, indexing routines, histograms, linalg, FFT, random and
pooling, each case compared with NumPy's outcome for the same call (value, dtype and
shape, or the exception class) through the xp-comparison helper.  A crash case runs in a
child process (tests/isolated.py).  Deliberate differences are docs/reliability.md's.
"""

import numpy
import pytest

import garray
from isolated import run_isolated
from xp import assert_xp_close, xp_compare


def _a(xp, values, dtype=None):
    return xp.asarray(numpy.asarray(values, dtype=dtype))


# (case id, f(xp)): NumPy's answer or exception class is the expected outcome.
CASES = [
    # statistics of float16 count in a wide type (a count of 70,000 is inf in float16)
    ("mean-f16-count", lambda xp: xp.ones(70000, dtype=xp.float16).mean()),
    ("mean-f16-sum-overflow", lambda xp: xp.full(10, 6e4, dtype=xp.float16).mean()),
    ("mean-f16-axis", lambda xp: xp.ones((3, 70000), dtype=xp.float16).mean(axis=1)),
    ("average-f16", lambda xp: xp.average(xp.ones(70000, dtype=xp.float16))),
    ("std-f16-count", lambda xp: xp.full(70000, 2, dtype=xp.float16).std()),
    ("var-f16-count", lambda xp: xp.arange(70000).astype(xp.float16).var()),
    ("var-f16-ddof", lambda xp: xp.ones(70000, dtype=xp.float16).var(ddof=1)),
    ("mean-f32", lambda xp: _a(xp, [1, 2, 4], "float32").mean()),
    ("mean-c64", lambda xp: _a(xp, [1 + 1j, 2, 4j], "complex64").mean()),
    # out= casting: std's sqrt is same_kind, argmax's out takes intp safely
    ("std-int-out", lambda xp: xp.std(_a(xp, [1.0, 2, 4]), out=xp.zeros((), dtype=xp.int64))),
    ("std-bool-out", lambda xp: xp.std(_a(xp, [1.0, 2]), out=xp.zeros((), dtype=xp.bool_))),
    ("std-f32-out", lambda xp: xp.std(_a(xp, [1.0, 2, 4]),
                                      out=xp.zeros((), dtype=xp.float32))),
    ("nanstd-int-out", lambda xp: xp.nanstd(_a(xp, [1.0, 2, 4]),
                                            out=xp.zeros((), dtype=xp.int64))),
    ("var-int-out", lambda xp: xp.var(_a(xp, [1.0, 2, 4]), out=xp.zeros((), dtype=xp.int64))),
    ("argmax-float-out", lambda xp: xp.argmax(_a(xp, [1.0, 3]),
                                              out=xp.zeros((), dtype=xp.float64))),
    ("argmin-uint64-out", lambda xp: xp.argmin(_a(xp, [1.0, 3]),
                                               out=xp.zeros((), dtype=xp.uint64))),
    ("argmax-int32-out", lambda xp: xp.argmax(_a(xp, [1.0, 3]),
                                              out=xp.zeros((), dtype=xp.int32))),
    ("nanargmax-float-out", lambda xp: xp.nanargmax(_a(xp, [1.0, 3]),
                                                    out=xp.zeros((), dtype=xp.float64))),
    # index arithmetic that passes int64, negative choices
    ("ravel-multi-index-dims", lambda xp: xp.ravel_multi_index(
        (_a(xp, [1]), _a(xp, [1])), (2**40, 2**40))),
    ("ravel-multi-index-3", lambda xp: xp.ravel_multi_index(
        (_a(xp, [1]), _a(xp, [1]), _a(xp, [1])), (4, 2**62, 4))),
    ("ravel-multi-index-fits", lambda xp: xp.ravel_multi_index(
        (_a(xp, [1]), _a(xp, [1])), (2**40, 2**23 - 1))),
    ("unravel-index-dims", lambda xp: xp.unravel_index(0, (2**40, 2**40))),
    ("choose-raise-negative", lambda xp: xp.choose(
        _a(xp, [-1, 0]), [_a(xp, [1, 2]), _a(xp, [3, 4])], mode="raise")),
    ("choose-none-negative", lambda xp: xp.choose(
        _a(xp, [-1, 0]), [_a(xp, [1, 2]), _a(xp, [3, 4])], mode=None)),
    ("choose-wrap-negative", lambda xp: xp.choose(
        _a(xp, [-1, 0]), [_a(xp, [1, 2]), _a(xp, [3, 4])], mode="wrap")),
    ("take-mode-none", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), _a(xp, [2]), mode=None)),
    ("take-mode-none-out-of-range", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), _a(xp, [3]),
                                                       mode=None)),
    # take/put/choose convert indices as NumPy: arrays by same_kind, sequences as intp
    ("take-float-list", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), [1.0, 2.7])),
    ("take-float-array", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), _a(xp, [1.5]))),
    ("take-bool-array", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), _a(xp, [True, False]))),
    ("take-uint64-array", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), _a(xp, [2], "uint64"))),
    ("take-numpy-float", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), numpy.asarray([1.0]))),
    ("take-str-list", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), ["a"])),
    ("take-empty-list", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), [])),
    ("take-complex-list", lambda xp: xp.take(_a(xp, [3.0, 1, 2]), [1 + 2j])),
    ("put-float-list", lambda xp: _put_any(xp, [1.0], [7.0])),
    ("put-float-array", lambda xp: _put_any(xp, _a(xp, [1.0]), [7.0])),
    ("choose-float", lambda xp: xp.choose(_a(xp, [0.0, 1]), [_a(xp, [1, 2]), _a(xp, [3, 4])])),
    ("choose-bool", lambda xp: xp.choose(_a(xp, [True, False]), [_a(xp, [1, 2]),
                                                                 _a(xp, [3, 4])])),
    ("take-along-float", lambda xp: xp.take_along_axis(_a(xp, [3.0, 1, 2]), _a(xp, [1.0]),
                                                       axis=0)),
    ("take-along-bool", lambda xp: xp.take_along_axis(_a(xp, [3.0, 1, 2]), _a(xp, [True]),
                                                      axis=0)),
    ("ravel-multi-index-float", lambda xp: xp.ravel_multi_index((_a(xp, [1.0]),), (3,))),
    ("unravel-index-float", lambda xp: xp.unravel_index(_a(xp, [1.0]), (3,))),
    # compress, put, putmask
    ("compress-2d-condition", lambda xp: xp.compress(_a(xp, [[True, False]]),
                                                     _a(xp, [3.0, 1, 2]))),
    ("compress-extra-false", lambda xp: xp.compress(_a(xp, [True, False, False, False]),
                                                    _a(xp, [3.0, 1, 2]))),
    ("compress-extra-true", lambda xp: xp.compress(_a(xp, [True, False, False, True]),
                                                   _a(xp, [3.0, 1, 2]))),
    ("put-empty-values", lambda xp: _put(xp, [0], [])),
    ("put-empty-values-bad-index", lambda xp: _put(xp, [10], [])),
    ("putmask-empty-values", lambda xp: _putmask(xp, [True, False, True], [])),
    # partition's kth and kind
    ("partition-empty-kth", lambda xp: xp.partition(_a(xp, [3, 1, 2]), [])),
    ("partition-bool-kth", lambda xp: xp.partition(_a(xp, [3, 1, 2]), True)),
    ("partition-bool-list", lambda xp: xp.partition(_a(xp, [3, 1, 2]), [1, False])),
    ("partition-float-kth", lambda xp: xp.partition(_a(xp, [3, 1, 2]), 1.0)),
    ("partition-kind", lambda xp: xp.partition(_a(xp, [3, 1, 2]), 1, kind="bogus")),
    ("argpartition-kind", lambda xp: xp.argpartition(_a(xp, [3, 1, 2]), 1, kind="quick")),
    ("partition-empty", lambda xp: xp.partition(_a(xp, [], "float64"), 0)),
    ("partition-empty-kth1", lambda xp: xp.partition(_a(xp, [], "float64"), 1)),
    ("partition-ok", lambda xp: xp.partition(_a(xp, [3, 1, 2]), [0, -1])),
    # quantiles, searchsorted's side, reduceat's indices
    ("percentile-nan", lambda xp: xp.percentile(_a(xp, [3.0, 1, 2]), numpy.nan)),
    ("quantile-nan-list", lambda xp: xp.quantile(_a(xp, [3.0, 1, 2]), [0.5, numpy.nan])),
    ("searchsorted-side-none", lambda xp: xp.searchsorted(_a(xp, [1, 2]), _a(xp, [1]),
                                                          side=None)),
    ("searchsorted-side-bogus", lambda xp: xp.searchsorted(_a(xp, [1, 2]), _a(xp, [1]),
                                                           side="middle")),
    ("reduceat-float-indices", lambda xp: xp.add.reduceat(_a(xp, [3.0, 1, 2]),
                                                          numpy.asarray([0.0, 1.0]))),
    ("reduceat-uint64-indices", lambda xp: xp.add.reduceat(
        _a(xp, [3.0, 1, 2]), numpy.asarray([0, 1], dtype=numpy.uint64))),
    ("reduceat-bool-indices", lambda xp: xp.add.reduceat(_a(xp, [3.0, 1, 2]),
                                                         numpy.asarray([True]))),
    ("reduceat-empty-indices", lambda xp: xp.add.reduceat(_a(xp, [3.0, 1, 2]), [])),
    # histograms and interpolation
    ("histogram-too-wide", lambda xp: xp.histogram(_a(xp, [0.0]), bins=2,
                                                   range=(-1e308, 1e308))[1]),
    ("histogram-f16-narrow", lambda xp: xp.histogram(_a(xp, [1.0], "float16"), bins=5000)[1]),
    ("histogram-ok", lambda xp: xp.histogram(_a(xp, [0.0, 1, 2]), bins=3)[0]),
    ("digitize-nan-bins", lambda xp: xp.digitize(_a(xp, [1.0, -1, 5]), _a(xp, [0.0, numpy.nan]))),
    ("digitize-nan-first", lambda xp: xp.digitize(_a(xp, [1.0]), _a(xp, [numpy.nan, 0.0, 1]))),
    ("digitize-equal-then-down", lambda xp: xp.digitize(_a(xp, [1.0, 3]),
                                                        _a(xp, [2.0, 2, 1, 0]))),
    ("digitize-not-monotonic", lambda xp: xp.digitize(_a(xp, [1.0]), _a(xp, [0.0, 2, 1]))),
    ("digitize-bool-bins", lambda xp: xp.digitize(_a(xp, [1, 0]), _a(xp, [True, False]))),
    ("bincount-uint64", lambda xp: xp.bincount(_a(xp, [1, 2], "uint64"))),
    ("bincount-uint64-huge", lambda xp: xp.bincount(_a(xp, [2**63], "uint64"))),
    ("interp-complex-x", lambda xp: xp.interp(_a(xp, [0.5 + 1j]), _a(xp, [0.0, 1]),
                                              _a(xp, [0.0, 1]))),
    ("interp-complex-xp", lambda xp: xp.interp(_a(xp, [0.5]), _a(xp, [0.0, 1j]),
                                               _a(xp, [0.0, 1]))),
    ("interp-complex-fp", lambda xp: xp.interp(_a(xp, [0.5]), _a(xp, [0.0, 1]),
                                               _a(xp, [0.0, 1j]))),
    # linalg of empty and bool matrices
    ("norm-0x0-2", lambda xp: xp.linalg.norm(xp.zeros((0, 0)), ord=2)),
    ("norm-0x0-1", lambda xp: xp.linalg.norm(xp.zeros((0, 0)), ord=1)),
    ("norm-0x0-inf", lambda xp: xp.linalg.norm(xp.zeros((0, 0)), ord=numpy.inf)),
    ("norm-0x0-minus1", lambda xp: xp.linalg.norm(xp.zeros((0, 0)), ord=-1)),
    ("norm-0x0-nuc", lambda xp: xp.linalg.norm(xp.zeros((0, 0)), ord="nuc")),
    ("pinv-bool", lambda xp: xp.linalg.pinv(_a(xp, [[True, False], [False, True]]))),
    ("pinv-int-empty", lambda xp: xp.linalg.pinv(xp.zeros((0, 2), dtype=xp.int64))),
    # FFT arguments
    ("fft-n-bool", lambda xp: xp.fft.fft(_a(xp, [3.0, 1, 2]), n=True)),
    ("fftn-s-bool", lambda xp: xp.fft.fftn(_a(xp, [3.0, 1, 2]), s=(True,))),
    ("fftshift-0d", lambda xp: xp.fft.fftshift(_a(xp, 3.0))),
    ("ifftshift-0d", lambda xp: xp.fft.ifftshift(_a(xp, 3.0))),
    ("fftfreq-0", lambda xp: xp.fft.fftfreq(0)),
    ("rfftfreq-0", lambda xp: xp.fft.rfftfreq(0)),
    # arange of Python ints past int64 (NumPy: float64 within uint64)
    ("arange-past-int64", lambda xp: xp.arange(2**63, 2**63 + 2)),
    ("arange-step-past-int64", lambda xp: xp.arange(0, 3, 2**63)),
    ("arange-int64-edges", lambda xp: xp.arange(-2**63, 2**63 - 1, 2**62)),
    # random arguments
    ("uniform-reversed", lambda xp: xp.random.default_rng(0).uniform(1, 0)),
    ("uniform-reversed-array", lambda xp: xp.random.default_rng(0).uniform(
        _a(xp, [0.0, 1.0]), _a(xp, [1.0, 0.0]))),
    ("uniform-infinite-span", lambda xp: xp.random.default_rng(0).uniform(
        _a(xp, [-1e308]), _a(xp, [1e308]))),
    ("integers-nan", lambda xp: xp.random.default_rng(0).integers(numpy.nan, 5)),
    ("integers-inf", lambda xp: xp.random.default_rng(0).integers(numpy.inf, 5)),
    ("permuted-0d", lambda xp: xp.random.default_rng(0).permuted(_a(xp, 5))),
    ("permuted-0d-axis", lambda xp: xp.random.default_rng(0).permuted(_a(xp, 5), axis=0)),
    ("reduceat-float-list", lambda xp: xp.add.reduceat(_a(xp, [3.0, 1, 2]), [0.0, 1.5])),
]


def _put(xp, ind, v):
    a = _a(xp, [3.0, 1, 2])
    xp.put(a, _a(xp, ind, "int64"), _a(xp, v, "float64"))
    return a


def _put_any(xp, ind, v):
    a = _a(xp, [3.0, 1, 2])
    xp.put(a, ind, _a(xp, v, "float64"))
    return a


def _putmask(xp, mask, v):
    a = _a(xp, [3.0, 1, 2])
    xp.putmask(a, _a(xp, mask), _a(xp, v, "float64"))
    return a


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
@xp_compare()
def test_case_behaves_as_numpy(xp, case):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = case(xp)
    return r


def test_random_cases_draw_the_same_values_when_valid():
    """The argument checks changed no draw: a valid uniform over arrays is the scalar
    formula, bit for bit."""
    g = garray.random.default_rng(5).uniform(garray.asarray([0.0, 2.0]),
                                            garray.asarray([1.0, 5.0]), size=(4, 2))
    u = garray.random.default_rng(5).uniform(size=(4, 2))
    assert_xp_close(g, garray.asnumpy(u) * numpy.asarray([1.0, 3.0]) + [0.0, 2.0], rtol=0)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_expm1_of_signed_zeros_is_the_array_apis(dtype):
    """expm1(+-0 + 0j) is +0 + 0j and expm1(+-0 - 0j) is +0 - 0j (array-api-tests found
    -0 + 0j, which is NumPy's answer)."""
    z = numpy.asarray([complex(-0.0, 0.0), complex(0.0, 0.0), complex(-0.0, -0.0),
                       complex(0.0, -0.0)], dtype=dtype)
    r = garray.asnumpy(garray.expm1(garray.asarray(z)))
    assert (r == 0).all() and not numpy.signbit(r.real).any()
    assert numpy.signbit(r.imag).tolist() == [False, False, True, True]


def test_arange_past_uint64_is_a_clear_type_error():
    """NumPy makes an object array there; garray has no object dtype."""
    for args in ((0, 2**64, 2**63), (2**64 - 2, 2**64), (-2**63 - 1, 0, 2**62)):
        with pytest.raises(TypeError, match="object dtype"):
            garray.arange(*args)


def test_arange_length_is_exact_near_int64_limits():
    """ceil((stop - start) / step) in integers (the Array API's length): NumPy computes
    it in double and drops the last element here (docs/reliability.md)."""
    r = garray.asnumpy(garray.arange(-2**63, 2**63 - 1, 2**63 - 1))
    assert r.tolist() == [-2**63, -1, 2**63 - 2] and r.dtype == numpy.int64
    r = garray.asnumpy(garray.arange(-5, 2**63 - 1, 2**61))
    assert r.tolist() == [-5 + i * 2**61 for i in range(5)]


# ---- searchsorted's sorter (once a crash) -------------------------------------------------

def test_searchsorted_sorter_out_of_range_raises_in_a_child():
    """An entry of 10**9 read out of bounds (a segfault); one equal to len(a) gave a
    silent wrong index.  garray checks every entry (NumPy checks those its search
    visits, so NumPy's error depends on v: docs/reliability.md)."""
    code = ("import garray, pytest\n"
            "a = garray.asarray([1, 2, 3])\n"
            "for s in ([0, 1, 10**9], [0, 1, 3], [-1, 1, 2], [0, 1, -10**9]):\n"
            "    with pytest.raises(ValueError, match='Sorter index out of range'):\n"
            "        garray.searchsorted(a, garray.asarray([2, 3]), sorter=garray.asarray(s))\n"
            "print(garray.searchsorted(a, garray.asarray([2, 3]), "
            "sorter=garray.asarray([0, 1, 2])).tolist())\n")
    _, out, _ = run_isolated(code)
    assert out.strip().endswith("[1, 2]")


@xp_compare()
def test_searchsorted_sorter_visited_entry(xp):
    return xp.searchsorted(_a(xp, [1, 2, 3]), _a(xp, [3]), sorter=_a(xp, [0, 1, 3]))


def test_searchsorted_empty_needles_do_not_read_the_sorter():
    """No needle, no search: NumPy reads nothing, and neither does garray's check."""
    r = garray.searchsorted(garray.asarray([1, 2, 3]), garray.asarray([], dtype="int64"),
                            sorter=garray.asarray([0, 1, 5]))
    assert r.shape == (0,) and r.dtype == numpy.int64


# ---- max-pool backward with indices not from its forward --------------------------------

def _pool_case(indices):
    x = garray.asarray(numpy.arange(16.0).reshape(1, 1, 4, 4))
    y, idx = garray.nn.max_pool2d(x, 2, return_indices=True)
    bad = idx.copy() if indices is None else garray.asarray(
        numpy.asarray(indices, dtype=numpy.int64).reshape(idx.shape))
    return garray.nn.max_pool2d_backward(garray.ones_like(y), bad, x.shape, 2)


def test_max_pool_backward_takes_its_own_indices():
    want = numpy.zeros((1, 1, 4, 4))
    want[0, 0, 1::2, 1::2] = 1.0            # the max of each 2x2 window is its last element
    assert_xp_close(_pool_case(None), want)


@pytest.mark.parametrize("indices", [[5, 7, 13, 99], [5, 7, 13, -1], [10, 7, 13, 15],
                                     [5, 5, 13, 15]],
                         ids=["past-the-plane", "negative", "other-window", "neighbour"])
def test_max_pool_backward_refuses_indices_outside_their_window(indices):
    """Any index its window does not hold would drop its gradient silently (the kernel
    gathers per input element); PyTorch refuses such indices too."""
    with pytest.raises(IndexError, match="indices"):
        _pool_case(indices)


# ---- choice without replacement from a huge population ------------------------------------

def test_choice_without_replacement_from_a_huge_population():
    """10**12 items once meant an 8 TB order; a small sample is O(size) now (the first
    distinct values of uniform draws: docs/random-sampling.md)."""
    s = garray.asnumpy(garray.random.default_rng(1).choice(10**12, 3, replace=False))
    assert s.shape == (3,) and s.dtype == numpy.int64
    assert len(set(s.tolist())) == 3 and ((0 <= s) & (s < 10**12)).all()
    again = garray.asnumpy(garray.random.default_rng(1).choice(10**12, 3, replace=False))
    assert (s == again).all()


def test_choice_first_distinct_is_a_uniform_sample_in_random_order():
    pop, k = 2**17, 2**15
    h = garray.asnumpy(garray.random.default_rng(2).choice(pop, k, replace=False))
    assert len(numpy.unique(h)) == k and ((0 <= h) & (h < pop)).all()
    assert not (numpy.diff(h) > 0).all()                 # in the order drawn
    counts = numpy.bincount(h % 16, minlength=16)         # 2048 expected per residue
    assert (abs(counts - k / 16) < 5 * numpy.sqrt(k / 16)).all(), counts
    pos = numpy.bincount(h[: k // 2] // (pop // 8), minlength=8)   # early draws too
    assert (abs(pos - k / 16) < 5 * numpy.sqrt(k / 16)).all(), pos
