"""Host file and buffer I/O (save, load, savetxt, loadtxt, frombuffer, fromiter,
fromstring) and sequences/windows (logspace, geomspace, bartlett, blackman, hamming,
hanning, ediff1d), against NumPy."""

import io

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, for_all_dtypes, make, xp_compare
# NumPy's .npy format stores ml_dtypes' bfloat16 as raw "|V2" and loads it back so (garray's
# load then refuses V2 with a TypeError naming it): the round trip is NumPy's to fix
NPY_DTYPES = tuple(d for d in ALL_DTYPES if d != "bfloat16")


# ---- I/O ------------------------------------------------------------------------------


@for_all_dtypes(dtypes=NPY_DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (2, 3)], ids=str)
def test_save_load_roundtrip(tmp_path, dtype, shape):
    g = make(garray, shape, dtype)
    if len(shape) == 2:
        g = g.T                              # a non-contiguous array is saved by value
    garray.save(tmp_path / "a.npy", g)
    assert_xp_close(garray.load(tmp_path / "a.npy"), numpy.load(tmp_path / "a.npy"))
    assert_xp_close(garray.load(tmp_path / "a.npy"), make(numpy, shape, dtype).T)
    buf = io.BytesIO()
    garray.save(buf, g)
    buf.seek(0)
    assert_xp_close(garray.load(buf), make(numpy, shape, dtype).T)


def test_load_npz_and_errors(tmp_path):
    numpy.savez(tmp_path / "z.npz", a=numpy.arange(3), b=numpy.eye(2, dtype="f4"))
    with garray.load(tmp_path / "z.npz") as z:
        assert sorted(z.keys()) == ["a", "b"] and "a" in z and len(z) == 2
        assert_xp_close(z["b"], numpy.eye(2, dtype="f4"))
    numpy.save(tmp_path / "s.npy", numpy.array(["x", "y"]))
    with pytest.raises(TypeError):
        garray.load(tmp_path / "s.npy")
    with pytest.raises(NotImplementedError, match="mmap_mode"):
        garray.load(tmp_path / "s.npy", mmap_mode="r")


@pytest.mark.parametrize("dtype", ["int32", "float64", "float32", "complex128"])
def test_savetxt_loadtxt(tmp_path, dtype):
    h = make(numpy, (3, 4), dtype)
    garray.savetxt(tmp_path / "g.txt", garray.asarray(h)[:, ::-1], delimiter=",")
    numpy.savetxt(tmp_path / "n.txt", h[:, ::-1], delimiter=",")
    assert (tmp_path / "g.txt").read_text() == (tmp_path / "n.txt").read_text()
    dtype = "float64" if dtype == "int32" else dtype     # written as %.18e
    got = garray.loadtxt(tmp_path / "n.txt", dtype, delimiter=",")
    assert_xp_close(got, numpy.loadtxt(tmp_path / "n.txt", dtype, delimiter=","))
    cols = garray.loadtxt(tmp_path / "n.txt", dtype, delimiter=",", unpack=True)
    assert_xp_close(cols, numpy.loadtxt(tmp_path / "n.txt", dtype, delimiter=",", unpack=True))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@xp_compare()
def test_frombuffer_fromiter(xp, dtype):
    data = make(numpy, (6,), dtype).tobytes()
    return [xp.frombuffer(data, dtype), xp.frombuffer(data, dtype, 2, numpy.dtype(dtype).itemsize),
            xp.fromiter((v for v in make(numpy, (5,), dtype).tolist()), dtype),
            xp.fromiter(iter([1, 2, 3]), dtype, count=2)]


@xp_compare()
def test_fromstring_text(xp):
    return [xp.fromstring("1 2 3.5", sep=" "), xp.fromstring("1,2,3", "int16", sep=","),
            xp.fromstring("1, 2, 3, 4", int, 2, sep=",")]


def test_fromstring_count_past_the_text():
    """NumPy fills a count past the text's values with uninitialised memory; garray
    raises (docs/reliability.md).  Unparsable text after count values is not read."""
    with pytest.raises(ValueError, match="holds 3 values, fewer than count=7"):
        garray.fromstring("1 2 3", count=7, sep=" ")
    assert_xp_close(garray.fromstring("1 2 3 x", count=2, sep=" "),
                    numpy.fromstring("1 2 3 x", count=2, sep=" "))
    with pytest.raises(ValueError):
        garray.fromstring("1 x 3", count=2, sep=" ")      # NumPy's own ValueError


@pytest.mark.parametrize("bad", ["1 2 x", ""], ids=repr)
def test_fromstring_bad_input(bad):
    with pytest.raises(ValueError):
        garray.fromstring(bad, sep="")


# ---- sequences and windows --------------------------------------------------------------


@pytest.mark.parametrize("args", [(0, 3, 4), (0, 3, 4, False), (1, -1, 5, True, 2.0),
                                  (0, 1, 0), (2, 2, 1), (0.5, 2.5, 7, True, 3.0, "float32"),
                                  (0, 3, 4, True, 10.0, "complex64")], ids=str)
@xp_compare()
def test_logspace(xp, args):
    return xp.logspace(*args)


@pytest.mark.parametrize("args", [(1, 1000, 4), (-1, -1000, 4), (1, 256, 9, False),
                                  (2, 0.5, 5), (1, 1000, 1), (1, 1000, 0), (3, 3, 3),
                                  (1, 1000, 4, True, "float32"), (-1, 1000, 3)], ids=str)
@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")   # NumPy's log10(-x)
@xp_compare()
def test_geomspace(xp, args):
    return xp.geomspace(*args)


@pytest.mark.parametrize("bad", [(0, 10), (1, 0)], ids=str)
@xp_compare()
def test_geomspace_zero(xp, bad):
    return xp.geomspace(*bad)


def test_sequences_reject_array_and_complex_bounds():
    with pytest.raises(NotImplementedError):
        garray.logspace(garray.asarray([0.0, 1.0]), 2)
    with pytest.raises(NotImplementedError):
        garray.geomspace(1j, 10j)


@pytest.mark.parametrize("fn", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [0, -2, 1, 2, 5, 12, 2.5, numpy.int32(7)], ids=str)
@xp_compare(atol=1e-15)
def test_windows(xp, fn, M):
    return getattr(xp, fn)(M)


@pytest.mark.parametrize("fn", ["bartlett", "hanning"])
@xp_compare()
def test_window_bad_M(xp, fn):
    return getattr(xp, fn)("5")


@for_all_dtypes()
@pytest.mark.parametrize("layout", ["c", "t", "0d", "empty"])
@xp_compare()
def test_ediff1d(xp, dtype, layout):
    if numpy.dtype(dtype).kind == "b":
        a = make(xp, (2, 3), "int8")        # NumPy: bool subtraction is a TypeError
        return xp.ediff1d(a, to_begin=True)
    shape = {"c": (3, 4), "t": (4, 3), "0d": (), "empty": (0, 2)}[layout]
    a = make(xp, shape, dtype)
    a = a.T if layout == "t" else a
    return [xp.ediff1d(a), xp.ediff1d(a, to_end=make(xp, (2,), dtype)),
            xp.ediff1d(a, to_begin=make(xp, (), dtype), to_end=[1])]


@xp_compare()
def test_ediff1d_bad_input(xp):
    return [xp.ediff1d(make(xp, (3,), "int32"), to_begin=1.5)]


@xp_compare()
def test_ediff1d_bool_is_an_error(xp):
    return xp.ediff1d(make(xp, (3,), "bool"))


# ---- i0 and the Kaiser window -------------------------------------------------------------


@for_all_dtypes(dtypes=("int16", "uint8", "int64", "float32", "float64", "bool"))
@pytest.mark.parametrize("layout", ["c", "neg", "0d", "empty"])
@xp_compare()
def test_i0(xp, dtype, layout):
    if layout == "0d":
        h = numpy.asarray(7.5).astype(dtype)
    elif layout == "empty":
        h = numpy.zeros((2, 0), dtype)
    else:
        h = (numpy.arange(-12, 12).reshape(4, 6) * 0.85).astype(dtype)
    a = h if xp is numpy else garray.asarray(h)
    return xp.i0(a[::-1, ::-1] if layout == "neg" else a)


@xp_compare()
def test_i0_complex_is_an_error(xp):
    return xp.i0(xp.asarray([1j]))


@pytest.mark.parametrize("M, beta", [(0, 5), (1, 5), (2, 0), (7, 14), (12, 8.6), (5.0, 2)],
                         ids=str)
@xp_compare(atol=1e-14)
def test_kaiser(xp, M, beta):
    return xp.kaiser(M, beta)
