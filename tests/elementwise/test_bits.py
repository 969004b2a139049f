"""packbits and unpackbits against NumPy: every integer dtype and bool, axes, bit
orders, counts, non-contiguous, empty and 0-d inputs, bad input."""

import numpy
import pytest

from xp import for_all_dtypes, make, sample, xp_compare

INT_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64")


def _arr(xp, h):
    import garray
    return h if xp is numpy else garray.asarray(h)


@for_all_dtypes(dtypes=INT_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("bitorder", ["big", "little"])
@xp_compare()
def test_packbits(xp, dtype, axis, bitorder):
    a = _arr(xp, sample((3, 11), dtype))
    return [xp.packbits(a, axis=axis, bitorder=bitorder),
            xp.packbits(a[::-1, ::2], axis=axis, bitorder=bitorder),
            xp.packbits(a[:, :8], axis=axis, bitorder=bitorder)]


@xp_compare()
def test_packbits_edges(xp):
    return [xp.packbits(_arr(xp, numpy.zeros((2, 0), bool)), axis=1),
            xp.packbits(_arr(xp, numpy.array(True))), xp.packbits(_arr(xp, numpy.ones(9, bool))),
            xp.packbits(_arr(xp, numpy.zeros(0, "int8")))]


@pytest.mark.parametrize("case", ["float", "complex", "bad-order", "bad-axis"])
@xp_compare()
def test_packbits_errors(xp, case):
    if case == "float":
        return xp.packbits(_arr(xp, numpy.ones(3)))
    if case == "complex":
        return xp.packbits(_arr(xp, numpy.ones(3, complex)))
    if case == "bad-order":
        return xp.packbits(_arr(xp, numpy.ones(3, int)), bitorder="x")
    return xp.packbits(_arr(xp, numpy.ones((2, 3), int)), axis=2)


@pytest.mark.parametrize("axis", [None, 0, 1, -2])
@pytest.mark.parametrize("bitorder", ["big", "little"])
@pytest.mark.parametrize("count", [None, 0, 5, 8, 30, -3, -100])
@xp_compare()
def test_unpackbits(xp, axis, bitorder, count):
    a = make(xp, (3, 2), "uint8", start=250)
    return [xp.unpackbits(a, axis=axis, count=count, bitorder=bitorder),
            xp.unpackbits(a[::-1, ::-1], axis=axis, count=count, bitorder=bitorder)]


@xp_compare()
def test_unpackbits_edges(xp):
    return [xp.unpackbits(_arr(xp, numpy.array(5, numpy.uint8))),
            xp.unpackbits(_arr(xp, numpy.zeros((2, 0), numpy.uint8)), axis=1),
            xp.unpackbits(xp.packbits(_arr(xp, sample((4, 13), "bool")), axis=1), axis=1,
                          count=13)]


@pytest.mark.parametrize("dtype", ["int8", "uint16", "bool", "float32"])
@xp_compare()
def test_unpackbits_needs_uint8(xp, dtype):
    return xp.unpackbits(_arr(xp, numpy.ones(3, dtype)))
