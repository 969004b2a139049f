"""Array attributes, reshape/transpose views and Python protocols against NumPy."""

import pickle

import numpy
import pytest

import garray
from xp import assert_xp_close, for_all_dtypes, make, xp_compare


@for_all_dtypes()
def test_attributes(dtype):
    for shape in [(), (0,), (3,), (2, 3, 4), (1, 0, 2)]:
        g, n = make(garray, shape, dtype), make(numpy, shape, dtype)
        for name in ("shape", "ndim", "size", "itemsize", "nbytes", "dtype"):
            assert getattr(g, name) == getattr(n, name), (name, shape)
        assert g.strides == numpy.empty(shape, dtype).strides
        for view in ("T", ):
            assert getattr(g, view).strides == getattr(n, view).strides
        assert g.flags.c_contiguous == n.flags.c_contiguous
        assert g.flags.f_contiguous == n.flags.f_contiguous
        assert g.device == garray.default_device()


def test_flags_and_offset():
    a = make(garray, (4, 6), "float32")
    v = a[1:, ::2]
    assert not v.flags["C_CONTIGUOUS"] and not v.flags.f_contiguous
    assert v.offset == 24 and a.offset == 0
    assert a.T.flags.f_contiguous and not a.T.flags.c_contiguous
    assert a[:, :1].flags.f_contiguous is False and a[:1].flags.c_contiguous


SHAPES = [((2, 3, 4), (6, 4)), ((2, 3, 4), (-1,)), ((2, 3, 4), (4, -1, 2)),
          ((6,), (1, 6, 1)), ((1, 1), ()), ((0, 3), (3, 0, 5)), ((2, 3), (3, 2))]


@pytest.mark.parametrize("shape, new", SHAPES, ids=str)
@pytest.mark.parametrize("layout", ["c", "t", "neg", "step"])
@xp_compare()
def test_reshape(xp, shape, new, layout):
    a = make(xp, shape, "int32")
    if layout == "t":
        a = a.T
        new = tuple(reversed(new)) if -1 not in new else new
    elif layout == "neg":
        a = a[::-1]
    elif layout == "step" and a.ndim:
        a = make(xp, (shape[0] * 2,) + shape[1:], "int32")[::2]
    return a.reshape(new)


def test_reshape_view_when_possible_and_copy_semantics():
    a = make(garray, (4, 6), "float64")
    assert a.reshape(2, 12).base is a
    assert a[:, :3].reshape(4, 3, 1).base is a            # contiguous within the groups
    assert a.T.reshape(6, 2, 2).base is a                  # F-order split of one axis
    with pytest.raises(ValueError, match="copy=False"):
        garray.reshape(a.T, (24,), copy=False)
    c = garray.reshape(a, (24,), copy=True)
    assert c.base is None
    c[0] = 99
    assert a[0, 0].item() != 99
    assert_xp_close(garray.reshape(a.T, (24,)), make(numpy, (4, 6), "float64").T.reshape(24))
    assert_xp_close(a.reshape((3, 8), order="F"),
                    make(numpy, (4, 6), "float64").reshape((3, 8), order="F"))


@pytest.mark.parametrize("new, exc", [((5, 5), ValueError), ((-1, -1), ValueError),
                                      ((2.0, 12), TypeError)])
def test_reshape_bad(new, exc):
    with pytest.raises(exc):
        make(numpy, (4, 6), "int8").reshape(new)
    with pytest.raises(exc, match="shape|reshape"):
        make(garray, (4, 6), "int8").reshape(new)


def test_reshape_rejects_negative_other_than_minus_one():
    with pytest.raises(ValueError, match="negative"):
        make(garray, (4, 6), "int8").reshape(-2, 12)


@for_all_dtypes()
@xp_compare()
def test_permute_transpose(xp, dtype):
    a = make(xp, (2, 3, 4), dtype)
    return [xp.permute_dims(a, (1, 2, 0)), a.transpose(), a.T, a.mT, xp.transpose(a, (2, 0, 1)),
            a.swapaxes(0, 2), xp.squeeze(a[:, :1], axis=1), xp.expand_dims(a, axis=-1),
            xp.broadcast_to(a[:, :1], (5, 2, 3, 4)), a[::-1].copy(), a.ravel(), a.flatten()]


def test_permute_bad_axes():
    a = make(garray, (2, 3), "float32")
    with pytest.raises(ValueError, match="axes"):
        garray.permute_dims(a, (0, 0))
    with pytest.raises(numpy.exceptions.AxisError):
        garray.permute_dims(a, (0, 2))
    with pytest.raises(ValueError, match="axes"):
        garray.permute_dims(a, (0,))
    with pytest.raises(ValueError, match="mT"):
        make(garray, (3,), "int8").mT
    with pytest.raises(ValueError, match="broadcast"):
        garray.broadcast_to(a, (3, 3))


@for_all_dtypes()
def test_len_iter_scalars(dtype):
    g, n = make(garray, (3, 2), dtype), make(numpy, (3, 2), dtype)
    assert len(g) == 3
    for gi, ni in zip(g, n, strict=True):
        assert_xp_close(gi, ni)
    one_g, one_n = make(garray, (), dtype), make(numpy, (), dtype)
    assert bool(one_g) == bool(one_n)
    assert complex(one_g) == complex(one_n)
    if dtype.kind != "c":
        assert int(one_g) == int(one_n) and float(one_g) == float(one_n)
    else:
        with pytest.raises(TypeError):
            float(one_g)
    if dtype.kind in "iu":
        assert one_g.__index__() == int(one_n)
    else:
        with pytest.raises(TypeError):
            one_g.__index__()
    assert one_g.item() == one_n.item() and g.tolist() == n.tolist()


def test_protocol_errors():
    z = garray.zeros(())
    with pytest.raises(TypeError, match="unsized"):
        len(z)
    with pytest.raises(TypeError, match="0-d"):
        iter(z)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(garray.zeros(2))
    with pytest.raises(TypeError):
        int(garray.zeros(2))
    with pytest.raises(TypeError):
        hash(z)
    assert bool(z == z) and not bool(z != z)


@for_all_dtypes()
def test_repr_str_match_numpy(dtype):
    for shape in [(), (0,), (3,), (2, 3)]:
        g, n = make(garray, shape, dtype), make(numpy, shape, dtype)
        assert repr(g) == repr(n) and str(g) == str(n)
        if g.ndim:
            assert repr(g[..., ::-1]) == repr(n[..., ::-1])


def test_repr_names_non_default_device(monkeypatch):
    a = garray.arange(3)
    other = object()
    monkeypatch.setattr(garray._device, "_default", other)
    assert repr(a).endswith(f", device={a.device})")
    monkeypatch.undo()
    assert "device" not in repr(a)


@for_all_dtypes()
def test_pickle_roundtrip(dtype):
    for a in (make(garray, (3, 4), dtype)[:, ::-2], make(garray, (), dtype)):
        b = pickle.loads(pickle.dumps(a))
        assert b.device == a.device and b.dtype == a.dtype
        assert_xp_close(b, a.get())


def test_array_namespace():
    a = garray.zeros(2)
    assert a.__array_namespace__() is garray
    assert a.__array_namespace__(api_version="2025.12") is garray
    with pytest.raises(ValueError, match="api_version"):
        a.__array_namespace__(api_version="2030.01")
