"""NumPy's other file formats (garray/_io_formats.py), against NumPy: savez and
savez_compressed (read back by numpy.load and garray.load), genfromtxt, fromregex,
fromfile, and memmap (modes, flush and reopen, views, write-back on deletion and at
exit, hostile arguments)."""

import gc
import io
import re
import warnings
import zipfile

import numpy
import pytest

import garray
from isolated import run_isolated
from xp import ALL_DTYPES, assert_xp_close, expected_exception, for_all_dtypes, make, \
    xp_compare
# NumPy's .npy format stores ml_dtypes' bfloat16 as raw "|V2" and loads it back so (garray's
# load then refuses V2 with a TypeError naming it): the round trip is NumPy's to fix
NPY_DTYPES = tuple(d for d in ALL_DTYPES if d != "bfloat16")

SHAPES = [(), (0,), (2, 0), (5,), (2, 3)]


def _raises_alike(fn):
    """``fn(numpy)`` raises; ``fn(garray)`` must raise the type tests/xp.py maps it to."""
    with pytest.raises(Exception) as info:
        fn(numpy)
    with pytest.raises(expected_exception(info.value)):
        fn(garray)


# ---- savez, savez_compressed ----------------------------------------------------------


def _members(path):
    with zipfile.ZipFile(path) as z:
        return {i.filename: (i.compress_type, z.read(i.filename)) for i in z.infolist()}


@pytest.mark.parametrize("save", ["savez", "savez_compressed"])
@for_all_dtypes(dtypes=NPY_DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_savez_round_trip(tmp_path, save, dtype, shape):
    h = make(numpy, shape, dtype)
    g = garray.asarray(h, copy=True)
    t = make(garray, (3, 2), dtype).T             # non-contiguous: saved by value
    getattr(garray, save)(tmp_path / "g.npz", g, t, key=g)
    getattr(numpy, save)(tmp_path / "n.npz", h, t.get(), key=h)
    # NumPy's .npz exactly: the same members, compression and .npy bytes
    assert _members(tmp_path / "g.npz") == _members(tmp_path / "n.npz")
    with numpy.load(tmp_path / "g.npz") as n:
        assert sorted(n.files) == ["arr_0", "arr_1", "key"]
        numpy.testing.assert_array_equal(n["arr_0"], h, strict=True)
    with garray.load(tmp_path / "g.npz") as z:
        assert sorted(z.keys()) == ["arr_0", "arr_1", "key"] and len(z) == 3
        assert_xp_close(z["arr_0"], h)
        assert_xp_close(z["arr_1"], make(numpy, (3, 2), dtype).T)
        assert_xp_close(z["key"], h)


def test_savez_file_objects_names_and_mixed_inputs(tmp_path):
    buf = io.BytesIO()
    garray.savez(buf, garray.arange(3), [1.5, 2.5], numpy.int8(7), b=garray.eye(2))
    buf.seek(0)
    with numpy.load(buf) as n:
        assert sorted(n.files) == ["arr_0", "arr_1", "arr_2", "b"]
        numpy.testing.assert_array_equal(n["arr_1"], [1.5, 2.5], strict=False)
        assert n["arr_2"].dtype == numpy.int8 and n["b"].shape == (2, 2)
    garray.savez(tmp_path / "noext", garray.ones(2))        # .npz appended, as NumPy's
    assert (tmp_path / "noext.npz").exists()
    garray.savez(str(tmp_path / "nothing.npz"))              # no arrays: an empty archive
    assert numpy.load(tmp_path / "nothing.npz").files == []
    # numpy.savez with a garray array dispatches here (NEP 18)
    numpy.savez(tmp_path / "d.npz", garray.arange(4), x=garray.zeros(1))
    assert_xp_close(garray.load(tmp_path / "d.npz")["arr_0"], numpy.arange(4))


def test_savez_errors_as_numpy(tmp_path):
    # a keyword clashing with a positional array's name
    _raises_alike(lambda xp: xp.savez(io.BytesIO(), xp.arange(2), arr_0=xp.arange(2)))
    # object arrays need allow_pickle
    _raises_alike(lambda xp: xp.savez(io.BytesIO(), numpy.array([1, None], dtype=object),
                                      allow_pickle=False))
    _raises_alike(lambda xp: xp.savez_compressed(tmp_path / "missing_dir" / "a.npz",
                                                 xp.arange(2)))


# ---- genfromtxt -------------------------------------------------------------------------

TABLE = """# a header comment
1, 2, 3
4, , 6   # trailing comment
N/A, 8, 9
10, 11, N/A
"""


@pytest.mark.parametrize("kwargs", [
    {},
    {"filling_values": -1},
    {"filling_values": {0: -5, 2: -7}},
    {"missing_values": "N/A"},
    {"missing_values": "N/A", "filling_values": 0, "usecols": (0, 2)},
    {"usecols": 1},
    {"usecols": (-1,), "ndmin": 2},
    {"skip_header": 2, "skip_footer": 1},
    {"max_rows": 2},
    {"autostrip": True, "dtype": "int32", "missing_values": "N/A", "filling_values": 0},
    {"unpack": True, "filling_values": 0},
    {"converters": {0: lambda s: float(s or 0) * 2}},
    {"comments": None, "skip_header": 1, "invalid_raise": False},
    {"dtype": None, "usecols": (1,)},
], ids=repr)
@xp_compare()
def test_genfromtxt_table(xp, kwargs):
    return xp.genfromtxt(io.StringIO(TABLE), delimiter=",", **kwargs)


@for_all_dtypes(dtypes=[d for d in ALL_DTYPES if d != "bool"])
@xp_compare()
def test_genfromtxt_dtypes(xp, dtype):
    text = "1 2 3\n4 5 6\n"
    return [xp.genfromtxt(io.StringIO(text), dtype=dtype),
            xp.genfromtxt(io.StringIO(text), dtype=dtype, usecols=(2,)),
            xp.genfromtxt(io.StringIO(text), dtype=dtype, ndmin=2, max_rows=1)]


@pytest.mark.filterwarnings("ignore:Some errors were detected")
@xp_compare()
def test_genfromtxt_sources_and_delimiters(xp, tmp_path):
    (tmp_path / "t.csv").write_text("x;y\n1;2\n3;4\n")
    return [xp.genfromtxt(tmp_path / "t.csv", delimiter=";", skip_header=1),
            xp.genfromtxt(str(tmp_path / "t.csv"), delimiter=";", skip_header=1,
                          encoding="utf-8"),
            xp.genfromtxt(["1 2", "3 4"]),                         # a list of lines
            xp.genfromtxt(b"1 2\n3 4\n".splitlines()),             # bytes lines
            xp.genfromtxt(io.StringIO("123456\n789012"), delimiter=(2, 4)),  # widths
            xp.genfromtxt(io.StringIO("1 2 % note\n% skip\n3 4"), comments="%"),
            xp.genfromtxt(io.StringIO("5"), ndmin=0),
            xp.genfromtxt(io.StringIO("1 2 3"), dtype=None),        # ints: int64
            xp.genfromtxt(io.StringIO("1 2\n3 4"), dtype=(int, float)),
            xp.genfromtxt(io.StringIO("1 x\n"), dtype="int64"),   # not a number: -1
            xp.genfromtxt(io.StringIO("1 2\n3 4 5\n"), invalid_raise=False)]


@pytest.mark.parametrize("text,kwargs", [
    ("1 2\n3 4 5\n", {}),                              # a row of another length
    ("1 2\n3\n", {"usecols": (0, 1)}),
    ("1 2\n3 4\n", {"usecols": (5,)}),                 # a column that is not there
    ("1 2\n", {"max_rows": 0}),
    ("1 2\n", {"ndmin": 3}),
    ("1 2\n", {"comments": 5}),
    ("1 2\n", {"filling_values": {9: 1}}),            # NumPy's IndexError
], ids=repr)
def test_genfromtxt_bad_input_as_numpy(text, kwargs):
    _raises_alike(lambda xp: xp.genfromtxt(io.StringIO(text), **kwargs))


def test_genfromtxt_missing_file_and_empty_input(tmp_path):
    _raises_alike(lambda xp: xp.genfromtxt(tmp_path / "absent.txt"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)       # NumPy's "Empty input file"
        got = garray.genfromtxt(io.StringIO(""))
        expected = numpy.genfromtxt(io.StringIO(""))
        assert_xp_close(got, expected)
        assert_xp_close(garray.genfromtxt(io.StringIO("1 2\n"), skip_header=5),
                        numpy.genfromtxt(io.StringIO("1 2\n"), skip_header=5))


@pytest.mark.parametrize("kwargs,error,words", [
    ({"names": True}, TypeError, "structured"),
    ({"names": ["p", "q"], "skip_header": 1}, TypeError, "structured"),
    ({"dtype": None, "skip_header": 1}, TypeError, "structured"),          # int, float
    ({"dtype": "f8,i4", "skip_header": 1}, TypeError, "structured dtype"),
    ({"dtype": [("p", "f8"), ("q", "f8")], "skip_header": 1}, TypeError, "structured"),
    ({"dtype": "U5"}, TypeError, "strings"),
    ({"dtype": None, "usecols": 0}, TypeError, "strings"),                 # "a", "1" ...
    ({"dtype": object, "skip_header": 1}, TypeError, "objects"),
    ({"usemask": True, "skip_header": 1}, NotImplementedError, "masked"),
], ids=repr)
def test_genfromtxt_refuses_what_garray_cannot_hold(kwargs, error, words):
    text = "a b\n1 2.5\n3 4.5\n"
    numpy.genfromtxt(io.StringIO(text), **kwargs)         # NumPy reads it
    with pytest.raises(error, match=words) as info:
        garray.genfromtxt(io.StringIO(text), **kwargs)
    assert "genfromtxt" in str(info.value)


def test_genfromtxt_unpack_records_gives_columns():
    # dtype=None over int and float columns is structured; unpack=True gives NumPy's
    # per-field arrays, which garray holds
    text = "1 2.5\n3 4.5\n"
    got = garray.genfromtxt(io.StringIO(text), dtype=None, unpack=True)
    assert_xp_close(got, numpy.genfromtxt(io.StringIO(text), dtype=None, unpack=True))
    text = "p q\n1 2\n3 4\n"
    got = garray.genfromtxt(io.StringIO(text), names=True, unpack=True)
    assert_xp_close(got, numpy.genfromtxt(io.StringIO(text), names=True, unpack=True))


def test_genfromtxt_like_and_device():
    g = garray.arange(2)
    r = numpy.genfromtxt(["1 2"], like=g)                 # NumPy dispatches here
    assert type(r) is garray.ndarray and r.device == g.device
    r = garray.genfromtxt(["1 2"], like=g)
    assert type(r) is garray.ndarray and r.device == g.device
    r = garray.genfromtxt(["1 2"], device="cpu")
    assert r.device == garray.Device("cpu")


def test_genfromtxt_accepts_every_numpy_keyword():
    import inspect
    ours = inspect.signature(garray.genfromtxt).parameters
    theirs = inspect.signature(numpy.genfromtxt).parameters
    for name, p in theirs.items():
        assert name in ours and ours[name].kind == p.kind, name
        if p.default is not p.empty:
            assert ours[name].default == p.default, name


# ---- fromregex --------------------------------------------------------------------------

LOG = "x=1 y=2.5 id=7\nnoise\nx=3 y=-4 id=8\nx=5 y=6e1 id=9\n"


def _numpy_fromregex(text, regexp, dtype, k, **kwargs):
    """NumPy's records (k fields of ``dtype``) as the array garray returns."""
    rec = numpy.fromregex(io.StringIO(text) if isinstance(text, str) else io.BytesIO(text),
                          regexp, [(f"f{i}", dtype) for i in range(k)], **kwargs)
    cols = [rec[f"f{i}"] for i in range(k)]
    return numpy.stack(cols, axis=-1) if k > 1 else cols[0]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int16", "uint8",
                                   "complex128", "float16"])
def test_fromregex_groups_as_columns(dtype):
    regexp, k = r"x=(\d+) y=(\S+)", 2
    if numpy.dtype(dtype).kind in "iu":
        regexp, k = r"x=(\d+) y=\S+ id=(\d+)", 2
    assert_xp_close(garray.fromregex(io.StringIO(LOG), regexp, dtype),
                    _numpy_fromregex(LOG, regexp, dtype, k))
    assert_xp_close(garray.fromregex(io.StringIO(LOG), r"id=(\d+)", dtype),      # 1 group
                    _numpy_fromregex(LOG, r"id=(\d+)", dtype, 1))


def test_fromregex_sources_patterns_and_no_match(tmp_path):
    (tmp_path / "log.txt").write_text(LOG)
    assert_xp_close(garray.fromregex(tmp_path / "log.txt", r"id=(\d)", "int32"),
                    _numpy_fromregex(LOG, r"id=(\d)", "int32", 1))
    assert_xp_close(garray.fromregex(str(tmp_path / "log.txt"), re.compile(r"x=(\d) y"),
                                     "int8", encoding="utf-8"),
                    _numpy_fromregex(LOG, r"x=(\d) y", "int8", 1))
    assert_xp_close(garray.fromregex(io.BytesIO(LOG.encode()), rb"x=(\d) y=(\d)", "int64"),
                    _numpy_fromregex(LOG.encode(), rb"x=(\d) y=(\d)", "int64", 2))
    # no group: the whole match, as NumPy's
    assert_xp_close(garray.fromregex(io.StringIO("1 22 333"), r"\d+", "int64"),
                    _numpy_fromregex("1 22 333", r"\d+", "int64", 1))
    # no match: an empty array of the right shape
    got = garray.fromregex(io.StringIO("nothing here"), r"(\d) (\d) (\d)", "float32")
    assert got.shape == (0, 3) and got.dtype == numpy.float32
    got = garray.fromregex(io.StringIO("nothing here"), r"(\d)", "float32")
    assert got.shape == (0,)


def test_fromregex_refusals_and_errors(tmp_path):
    # NumPy's structured dtype: refused, naming the case and the way out
    numpy.fromregex(io.StringIO(LOG), r"id=(\d)", [("id", "i8")])
    with pytest.raises(TypeError, match="fromregex: structured dtype.*one numeric dtype"):
        garray.fromregex(io.StringIO(LOG), r"id=(\d)", [("id", "i8")])
    with pytest.raises(TypeError, match="fromregex"):
        garray.fromregex(io.StringIO(LOG), r"id=(\d)", "U3")
    with pytest.raises(FileNotFoundError):
        garray.fromregex(tmp_path / "absent.txt", r"(\d)", "int64")
    with pytest.raises(ValueError):                           # "x" is not a number
        garray.fromregex(io.StringIO("v=x"), r"v=(\w)", "int64")
    with pytest.raises(re.error):
        garray.fromregex(io.StringIO("1"), r"(\d", "int64")


# ---- fromfile ---------------------------------------------------------------------------


@for_all_dtypes()
def test_fromfile_binary(tmp_path, dtype):
    h = make(numpy, (7,), dtype)
    h.tofile(tmp_path / "a.bin")
    isz = numpy.dtype(dtype).itemsize
    for args, kwargs in [((), {}), ((3,), {}), ((), {"offset": 2 * isz}),
                         ((2,), {"offset": isz}), ((-1, ""), {"offset": 7 * isz})]:
        assert_xp_close(garray.fromfile(tmp_path / "a.bin", dtype, *args, **kwargs),
                        numpy.fromfile(tmp_path / "a.bin", dtype, *args, **kwargs))
    with open(tmp_path / "a.bin", "rb") as f:              # a file object: reads on
        f.seek(isz)
        got = garray.fromfile(f, dtype, 2)
        assert_xp_close(got, h[1:3])
        assert f.tell() == 3 * isz
    # garray's own tofile, read back
    make(garray, (2, 3), dtype).T.tofile(tmp_path / "g.bin")
    assert_xp_close(garray.fromfile(tmp_path / "g.bin", dtype),
                    make(numpy, (2, 3), dtype).T.ravel())


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "uint16",
                                   "complex128"])
@pytest.mark.parametrize("sep", [" ", ",", "\n"], ids=repr)
@xp_compare()
def test_fromfile_text(xp, tmp_path, dtype, sep):
    h = make(numpy, (6,), dtype)
    h.tofile(tmp_path / "t.txt", sep=sep)
    return [xp.fromfile(tmp_path / "t.txt", dtype, sep=sep),
            xp.fromfile(tmp_path / "t.txt", dtype, 4, sep),
            xp.fromfile(str(tmp_path / "t.txt"), dtype=dtype, count=0, sep=sep)]


def test_fromfile_defaults_like_and_errors(tmp_path):
    numpy.arange(4.0).tofile(tmp_path / "f.bin")
    assert_xp_close(garray.fromfile(tmp_path / "f.bin"), numpy.arange(4.0))  # float64
    (tmp_path / "e.bin").write_bytes(b"")
    assert_xp_close(garray.fromfile(tmp_path / "e.bin", "int8"),
                    numpy.fromfile(tmp_path / "e.bin", "int8"))
    g = garray.arange(2)
    r = numpy.fromfile(tmp_path / "f.bin", like=g)        # NumPy dispatches here
    assert type(r) is garray.ndarray and r.device == g.device
    assert type(garray.fromfile(tmp_path / "f.bin", like=g)) is garray.ndarray
    _raises_alike(lambda xp: xp.fromfile(tmp_path / "absent.bin"))
    (tmp_path / "bad.txt").write_text("1 2 x 4")
    _raises_alike(lambda xp: xp.fromfile(tmp_path / "bad.txt", sep=" "))
    (tmp_path / "odd.bin").write_bytes(b"\x00" * 7)     # not a whole number of items
    for count in (-1, 1, 5):      # NumPy reads the whole items there are
        assert_xp_close(garray.fromfile(tmp_path / "odd.bin", "int32", count),
                        numpy.fromfile(tmp_path / "odd.bin", "int32", count))
    _raises_alike(lambda xp: xp.fromfile(tmp_path / "f.bin", "f8", offset=-8))
    with pytest.raises(TypeError, match="fromfile: structured dtype"):
        garray.fromfile(tmp_path / "f.bin", "f4,i4")
    with pytest.raises(TypeError, match="fromfile"):
        garray.fromfile(tmp_path / "f.bin", "U2")


# ---- memmap -----------------------------------------------------------------------------


def _same_attrs(g, n):
    assert (g.filename, g.offset, g.mode) == (n.filename, n.offset, n.mode)
    assert g.shape == n.shape and g.strides == n.strides
    assert g.flags.writeable == n.flags.writeable
    assert g.flags.c_contiguous == n.flags.c_contiguous
    assert g.flags.f_contiguous == n.flags.f_contiguous


@for_all_dtypes()
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4)], ids=str)
def test_memmap_w_plus_flush_and_reopen(tmp_path, dtype, shape):
    path = tmp_path / "m.dat"
    m = garray.memmap(path, dtype, "w+", shape=shape)
    n = numpy.memmap(tmp_path / "n.dat", dtype, "w+", shape=shape)
    assert type(m) is garray.memmap and isinstance(m, garray.ndarray)
    assert (m.filename, m.offset, m.mode) == (path.resolve(), 0, "w+")
    assert_xp_close(m.view(garray.ndarray), numpy.zeros(shape, dtype))
    m[...] = make(garray, shape, dtype)
    assert not any(path.read_bytes())                   # not written before flush()
    m.flush()
    n[...] = make(numpy, shape, dtype)
    n.flush()
    assert path.read_bytes() == (tmp_path / "n.dat").read_bytes()
    r = garray.memmap(path, dtype, "r", shape=shape)
    assert_xp_close(r.view(garray.ndarray), make(numpy, shape, dtype))
    del m, n, r


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("offset", [0, 8, 24])
def test_memmap_r_plus_offset_shape_order(tmp_path, order, offset):
    path = tmp_path / "d.dat"
    head = b"HEADER__" * 3
    path.write_bytes(head[:offset] + numpy.arange(12, dtype="<i4").tobytes() + b"tail")
    m = garray.memmap(path, "int32", "r+", offset=offset, shape=(3, 4), order=order)
    n = numpy.memmap(path, "int32", "r", offset=offset, shape=(3, 4), order=order)
    _same_attrs(m, numpy.memmap(path, "int32", "r+", offset=offset, shape=(3, 4),
                                order=order))
    assert_xp_close(m.view(garray.ndarray), numpy.asarray(n))
    m[1, :] = -1
    m[:, 2] *= 10
    m.flush()
    expected = numpy.arange(12, dtype="<i4").reshape((3, 4), order=order)
    expected[1, :] = -1
    expected[:, 2] *= 10
    numpy.testing.assert_array_equal(
        numpy.memmap(path, "int32", "r", offset=offset, shape=(3, 4), order=order),
        expected)
    data = path.read_bytes()
    assert data[:offset] == head[:offset] and data.endswith(b"tail")   # untouched
    # without a shape: 1-d over the rest of the file (the tail's 4 bytes: one more int32)
    whole = garray.memmap(path, "int32", "r", offset=offset)
    _same_attrs(whole, numpy.memmap(path, "int32", "r", offset=offset))


def test_memmap_modes_r_and_c(tmp_path):
    path = tmp_path / "rc.dat"
    numpy.arange(6, dtype="f8").tofile(path)
    before = path.read_bytes()
    r = garray.memmap(path, "float64", "r", shape=(2, 3))
    _same_attrs(r, numpy.memmap(path, "float64", "r", shape=(2, 3)))
    for v in (r, r[1:], r.T, r.reshape(6)):                # read-only, views too
        assert not v.flags.writeable
        with pytest.raises(ValueError):
            v[...] = 1
    with pytest.raises(ValueError):
        r.setflags(write=True)                              # as NumPy's
    with pytest.raises(ValueError):
        numpy.memmap(path, "float64", "r").setflags(write=True)
    r.flush()                                               # nothing to write
    c = garray.memmap(path, "float64", "copyonwrite", shape=(2, 3))
    _same_attrs(c, numpy.memmap(path, "float64", "c", shape=(2, 3)))
    assert c.mode == "c"
    c[0] = 100.0                                            # in memory only
    c.flush()
    assert_xp_close(c[0].view(garray.ndarray), numpy.full(3, 100.0))
    del c
    gc.collect()
    assert path.read_bytes() == before                      # mode 'c' never writes
    assert garray.memmap(path, "float64", "readonly").mode == "r"
    assert garray.memmap(path, "float64", "readwrite").mode == "r+"


def test_memmap_views_share_the_map(tmp_path):
    path = tmp_path / "v.dat"
    m = garray.memmap(path, "int16", "w+", shape=(4, 5))
    n = numpy.memmap(tmp_path / "n.dat", "int16", "w+", shape=(4, 5))
    views = [m[1:3], m[:, ::2], m.T, m.reshape(20), m[2], m.view(), m.swapaxes(0, 1)]
    nviews = [n[1:3], n[:, ::2], n.T, n.reshape(20), n[2], n.view(), n.swapaxes(0, 1)]
    for v, nv in zip(views, nviews):
        assert type(v) is garray.memmap
        assert (v.filename, v.offset, v.mode) == (m.filename, nv.offset, nv.mode)
    views[0][...] = 1            # rows 1, 2
    views[1][...] = 2            # even columns
    views[4][1] = 7              # m[2, 1]
    views[0].flush()             # a view's flush writes the whole map (NumPy's rule)
    for nv, val in ((nviews[0], 1), (nviews[1], 2)):
        nv[...] = val
    nviews[4][1] = 7
    numpy.testing.assert_array_equal(numpy.fromfile(path, "int16").reshape(4, 5), n)
    # copies are memmaps with no map (NumPy's): flush does nothing, attributes are None
    for cp, ncp in ((m.copy(), n.copy()), (m.astype("f4"), n.astype("f4")),
                    (m.flatten(), n.flatten())):
        assert type(cp) is garray.memmap and type(ncp) is numpy.memmap
        assert (cp.filename, cp.offset, cp.mode) == (None, None, None)
        assert (ncp.filename, ncp.offset, ncp.mode) == (None, None, None)
        cp[...] = 99
        cp.flush()
    numpy.testing.assert_array_equal(numpy.fromfile(path, "int16").reshape(4, 5), n)
    # results of operations are plain arrays
    assert type(m + 1) is garray.ndarray and type(garray.sum(m)) is garray.ndarray


def test_memmap_writes_back_when_deleted(tmp_path):
    path = tmp_path / "del.dat"
    numpy.zeros(6, "f4").tofile(path)
    m = garray.memmap(path, "float32", "r+")
    v = m[2:4]
    del m                         # the view keeps the base alive: nothing written yet
    gc.collect()
    v[...] = 5.0
    assert not numpy.fromfile(path, "f4").any()
    del v                         # the last reference: the base writes back, as NumPy's
    gc.collect()
    numpy.testing.assert_array_equal(numpy.fromfile(path, "f4"), [0, 0, 5, 5, 0, 0])


def test_memmap_writes_back_at_exit(tmp_path):
    path = tmp_path / "exit.dat"
    numpy.arange(4, dtype="i8").tofile(path)
    run_isolated(f"""
        import garray
        m = garray.memmap({str(path)!r}, "int64", "r+")   # alive until exit, no flush
        m *= 3
        r = garray.memmap({str(path)!r}, "int64", "c")
        r[...] = -1                                         # copy on write: never written
    """)
    numpy.testing.assert_array_equal(numpy.fromfile(path, "i8"), [0, 3, 6, 9])


def test_memmap_big_endian_and_file_object(tmp_path):
    path = tmp_path / "be.dat"
    numpy.arange(5, dtype=">i4").tofile(path)
    m = garray.memmap(path, ">i4", "r+")
    assert m.dtype == numpy.int32                      # garray's native dtype
    assert_xp_close(m.view(garray.ndarray), numpy.arange(5, dtype="i4"))
    m[0] = 1000
    m.flush()                                          # converted back on the host
    numpy.testing.assert_array_equal(numpy.fromfile(path, ">i4"), [1000, 1, 2, 3, 4])
    with open(path, "r+b") as f:
        mf = garray.memmap(f, ">i4", "r+", shape=(2,))
        assert mf.filename == numpy.memmap(f, ">i4", "r", shape=(2,)).filename
        mf[1] = 42
        mf.flush()
    numpy.testing.assert_array_equal(numpy.fromfile(path, ">i4"), [1000, 42, 2, 3, 4])
    del m, mf


def test_memmap_device_argument(tmp_path):
    numpy.arange(3, dtype="u1").tofile(tmp_path / "u.dat")
    m = garray.memmap(tmp_path / "u.dat", device="cpu")          # uint8, 'r+' defaults
    assert m.device == garray.Device("cpu") and m.dtype == numpy.uint8 and m.mode == "r+"
    assert garray.memmap(tmp_path / "u.dat", mode="r").device == garray.default_device()


@pytest.mark.parametrize("case", ["missing file", "bad mode", "w+ without shape",
                                  "shape too big for r", "shape too big for c",
                                  "negative offset", "offset past the end",
                                  "empty file", "bad order"])
def test_memmap_hostile_as_numpy(tmp_path, case):
    path = tmp_path / "h.dat"
    numpy.arange(4, dtype="f8").tofile(path)
    calls = {
        "missing file": lambda xp: xp.memmap(tmp_path / "absent.dat", "f8", "r"),
        "bad mode": lambda xp: xp.memmap(path, "f8", "rw"),
        "w+ without shape": lambda xp: xp.memmap(tmp_path / "new.dat", "f8", "w+"),
        "shape too big for r": lambda xp: xp.memmap(path, "f8", "r", shape=(100,)),
        "shape too big for c": lambda xp: xp.memmap(path, "f8", "c", shape=(10, 10)),
        "negative offset": lambda xp: xp.memmap(path, "f8", "r", offset=-8),
        "offset past the end": lambda xp: xp.memmap(path, "f8", "r", offset=64),
        "empty file": lambda xp: xp.memmap(tmp_path / "empty.dat", "f8", "r"),
        "bad order": lambda xp: xp.memmap(path, "f8", "r", shape=(2, 2), order="X"),
    }
    (tmp_path / "empty.dat").write_bytes(b"")
    _raises_alike(calls[case])
    assert path.read_bytes() == numpy.arange(4, dtype="f8").tobytes()


def test_memmap_r_plus_shape_too_big_extends_as_numpy(tmp_path):
    for xp, name in ((numpy, "n.dat"), (garray, "g.dat")):
        (tmp_path / name).write_bytes(b"\1" * 8)
        m = xp.memmap(tmp_path / name, "int16", "r+", shape=(10,))
        assert m.shape == (10,)
        del m
    assert (tmp_path / "g.dat").read_bytes() == (tmp_path / "n.dat").read_bytes()


@pytest.mark.parametrize("dtype", ["U4", "f8,i4", "O"])
def test_memmap_unsupported_dtype_touches_no_file(tmp_path, dtype):
    with pytest.raises(TypeError, match="memmap"):
        garray.memmap(tmp_path / "x.dat", dtype, "w+", shape=(3,))
    assert not (tmp_path / "x.dat").exists()


def test_memmap_signature():
    import inspect
    ours = inspect.signature(garray.memmap).parameters
    theirs = inspect.signature(numpy.memmap.__new__).parameters
    for name in ("filename", "dtype", "mode", "offset", "shape", "order"):
        assert ours[name].default == theirs[name].default, name
    assert ours["device"].kind is inspect.Parameter.KEYWORD_ONLY

