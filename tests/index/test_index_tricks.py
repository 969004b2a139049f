"""NumPy's index tricks (mgrid, ogrid, r_, c_, s_, index_exp) and the public constants and
type names, against NumPy; the arrays are built by garray's own kernels on the test
device."""

import sys

import numpy
import pytest

import garray
from xp import xp_compare

GRID_KEYS = [
    slice(0, 5), slice(2, 9, 3), slice(5, 0, -1), slice(0, 1, 0.25), slice(-1, 1, 5j),
    slice(0, 1, 1j), slice(0, 0), slice(3, 1), slice(None, 4), slice(0, 1, 0j),
    (slice(0, 2), slice(0, 3)), (slice(-1, 1, 3j), slice(0, 2)),
    (slice(0, 2.5, 0.5), slice(4, 1, -1), slice(0, 1, 2j)), (slice(0, 0), slice(0, 3)),
    (slice(0, 3),), (slice(numpy.int8(0), numpy.int8(4)), slice(0, 2)),
    (slice(0, 1.0, 2), slice(0, 2)),
]


@pytest.mark.parametrize("key", GRID_KEYS, ids=repr)
@pytest.mark.parametrize("grid", ["mgrid", "ogrid"])
@xp_compare()
def test_grids(xp, grid, key):
    return getattr(xp, grid)[key]


@pytest.mark.parametrize("key", [3, "a", (slice(0, 2), 3), (slice(0, "b"),),
                                 (slice(0, None),)], ids=repr)
@pytest.mark.parametrize("grid", ["mgrid", "ogrid"])
def test_grid_bad_keys(grid, key):
    with pytest.raises((TypeError, AttributeError)):
        getattr(numpy, grid)[key]
    with pytest.raises(TypeError, match=grid):
        getattr(garray, grid)[key]


def _r_items(xp, case):
    a = xp.asarray(numpy.arange(6).reshape(2, 3))
    return {
        "slices": xp.r_[1:4, 0:1:3j, -1:-4:-1],
        "scalars": xp.r_[1, 2.5, True],
        "arrays": xp.r_[xp.asarray([1, 2]), [3, 4], 5],
        "int8-weak": xp.r_[xp.asarray([1, 2], dtype="int8"), 300 // 3],
        "int8-strong": xp.r_[xp.asarray([1, 2], dtype="int8"), numpy.int16(7)],
        "float32+float": xp.r_[xp.asarray([1, 2], dtype="float32"), 0.5],
        "complex": xp.r_[xp.asarray([1j]), 2],
        "2d-axis0": xp.r_[a, a],
        "2d-axis1": xp.r_["1", a, a],
        "directive-ndmin": xp.r_["0,2", [1, 2, 3], [4, 5, 6]],
        "directive-trans": xp.r_["0,2,0", [1, 2, 3], [4, 5, 6]],
        "directive-neg": xp.r_["-1,3,1", [1, 2], [3, 4]],
        "c_": xp.c_[xp.asarray([1, 2, 3]), [4, 5, 6]],
        "c_-2d": xp.c_[a, a],
        "c_-scalar": xp.c_[xp.asarray([[1, 2, 3]]), 0, 0, xp.asarray([[4, 5, 6]])],
        "c_-slice": xp.c_[0:3, 3:6],
        "empty": xp.r_[xp.asarray([], dtype="float32"), xp.zeros(0, dtype="int8")],
        "0-d": xp.r_[xp.asarray(3.0), xp.asarray(4)],
        "single": xp.r_[7],
        "nothing": xp.r_[()],
        "uint64+int": xp.r_[xp.asarray([1], dtype="uint64"), -1],
        "float16": xp.r_[xp.asarray([1], dtype="float16"), xp.asarray([2], dtype="int8")],
        "bad-directive": xp.r_["x", 1],
        "late-directive": xp.r_[1, "0"],
        "bad-axis": xp.r_["3", [1], [2]],
        "mismatch": xp.r_[a, xp.asarray([1, 2])],
    }[case]


@pytest.mark.parametrize("case", [
    "slices", "scalars", "arrays", "int8-weak", "int8-strong", "float32+float", "complex",
    "2d-axis0", "2d-axis1", "directive-ndmin", "directive-trans", "directive-neg", "c_",
    "c_-2d", "c_-scalar", "c_-slice", "empty", "0-d", "single", "nothing", "uint64+int",
    "float16", "bad-directive", "late-directive", "bad-axis", "mismatch"])
@xp_compare()
def test_r_and_c(xp, case):
    return _r_items(xp, case)


def test_matrix_directives_are_not_implemented():
    for key in ("r", "c"):
        with pytest.raises(NotImplementedError, match="matrix"):
            garray.r_[key, [1, 2], [3, 4]]
    with pytest.raises(NotImplementedError, match="matrix"):
        garray.r_["1 2; 3 4"]


def test_tricks_build_garray_arrays_on_the_device():
    for r in (garray.mgrid[0:3], garray.r_[1:3, 4], garray.c_[0:2, 2:4],
              garray.ogrid[0:2, 0:3][1], garray.mgrid[0:1:3j, 0:2]):
        assert isinstance(r, garray.ndarray)
        assert r.device == garray.asarray(0).device


@pytest.mark.parametrize("key", [1, slice(1, 3), (slice(None), Ellipsis, None), (), (1, 2),
                                 [0, 1]], ids=repr)
def test_index_expressions(key):
    for name in ("s_", "index_exp"):
        got = getattr(garray, name)[key] if key != () else getattr(garray, name)[()]
        want = getattr(numpy, name)[key] if key != () else getattr(numpy, name)[()]
        assert got == want and type(got) is type(want), (name, got, want)
    a = numpy.arange(24).reshape(2, 3, 4)
    g = garray.asarray(a)
    idx = garray.s_[1, ::2, 1:3]
    numpy.testing.assert_array_equal(garray.asnumpy(g[idx]), a[numpy.s_[1, ::2, 1:3]])


def test_constants_and_type_names():
    assert garray.euler_gamma == numpy.euler_gamma
    assert garray.little_endian is numpy.little_endian is (sys.byteorder == "little")
    assert garray.True_ is numpy.True_ and garray.False_ is numpy.False_
    assert garray.ScalarType == numpy.ScalarType
    # garray's codes and names are NumPy's, less what garray arrays cannot hold
    for k, codes in garray.typecodes.items():
        assert set(codes) <= set(numpy.typecodes[k]), k
        for c in codes:
            garray.zeros(1, dtype=c)           # each code is a dtype garray holds
    assert garray.typecodes.keys() == numpy.typecodes.keys()
    for name, t in garray.sctypeDict.items():
        assert numpy.sctypeDict[name] is t
        garray.zeros(1, dtype=t)
    assert garray.sctypeDict["float64"] is numpy.float64
    assert "str" not in garray.sctypeDict and "datetime64" in garray.sctypeDict
