"""Manipulation functions against NumPy, every dtype, views and copies."""

import numpy
import pytest

import garray
from xp import assert_xp_close, for_all_dtypes, make, xp_compare


def _np_name(xp, name):
    return getattr(xp, {"concat": "concatenate"}.get(name, name) if xp is numpy else name)


@for_all_dtypes()
@xp_compare()
def test_views(xp, dtype):
    a = make(xp, (2, 3, 4), dtype)[:, ::-1]
    return [xp.flip(a), xp.flip(a, axis=1), xp.flip(a, axis=(0, 2)), xp.moveaxis(a, 0, -1),
            xp.moveaxis(a, (0, 1), (2, 0)), xp.expand_dims(a, axis=(0, 3)),
            *xp.broadcast_arrays(a, make(xp, (4,), dtype))]


@for_all_dtypes()
@xp_compare()
def test_concat_stack_roll(xp, dtype):
    a, b = make(xp, (2, 3), dtype), make(xp, (2, 3), dtype, start=10).T.T[:, ::-1]
    concat = _np_name(xp, "concat")
    return [concat([a, b], axis=0), concat([a, b], axis=-1), concat([a, b], axis=None),
            xp.stack([a, b]), xp.stack([a, b], axis=2), xp.roll(a, 1), xp.roll(a, -2, axis=1),
            xp.roll(a, (1, 2), axis=(0, 1))]


def test_unstack_and_mixed_dtypes():
    g = make(garray, (3, 4), "int16")
    n = make(numpy, (3, 4), "int16")
    for axis in (0, 1, -1):
        parts = garray.unstack(g, axis=axis)
        expected = [numpy.take(n, i, axis=axis) for i in range(n.shape[axis])]
        assert len(parts) == len(expected)
        assert_xp_close(list(parts), expected)
    r = garray.concat([make(garray, (2,), "int8"), make(garray, (3,), "float32")])
    assert_xp_close(r, numpy.concatenate([make(numpy, (2,), "int8"),
                                          make(numpy, (3,), "float32")]))


def test_bad_input():
    a = make(garray, (2, 3), "float32")
    with pytest.raises(ValueError, match="shape"):
        garray.concat([a, make(garray, (3, 3), "float32")], axis=1)
    with pytest.raises(ValueError, match="differs"):
        garray.stack([a, a.T])
    with pytest.raises(numpy.exceptions.AxisError):
        garray.flip(a, axis=2)
    with pytest.raises(TypeError, match="arrays"):
        garray.concat([a, numpy.ones((2, 3))])
    with pytest.raises(ValueError, match="repeated"):
        garray.expand_dims(a, axis=(0, 0))


@for_all_dtypes()
@xp_compare()
def test_empty_inputs(xp, dtype):
    a, e = make(xp, (2, 3), dtype), make(xp, (0, 3), dtype)
    concat = _np_name(xp, "concat")
    return [concat([a, e], axis=0), concat([e, e], axis=0), xp.flip(e), xp.roll(e, 2, axis=0),
            xp.roll(make(xp, (2, 0), dtype), 1, axis=1), xp.stack([e, e], axis=1),
            xp.moveaxis(e, 0, 1)]
