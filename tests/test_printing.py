"""Print options honoured by garray's repr/str, array2string/array_repr/array_str, and the
floating-point error state (accepted; a documented no-op), against NumPy."""

import numpy
import pytest

import garray
from xp import assert_xp_close, make


# ---- printing ------------------------------------------------------------------------------


def _reprs(h):
    g = garray.asarray(h)
    return (repr(g), str(g)), (repr(h), str(h))


@pytest.mark.parametrize("opts", [dict(precision=3), dict(threshold=5, edgeitems=1),
                                  dict(linewidth=20), dict(suppress=True),
                                  dict(sign="+"), dict(floatmode="fixed", precision=2),
                                  dict(nanstr="NaN", infstr="Inf"),
                                  dict(formatter={"float": lambda v: f"<{v:.1f}>"})],
                         ids=str)
def test_printoptions_honoured_by_repr(opts):
    h = numpy.array([[1e-6, 1 / 3, -2.5, float("nan")], [float("inf"), 1e3, 7.0, 0.125]])
    before = garray.get_printoptions()
    with garray.printoptions(**opts):
        with numpy.printoptions(**opts):
            got, want = _reprs(h)
            assert got == want
            big = numpy.arange(20.0) / 3
            assert _reprs(big)[0] == _reprs(big)[1]
        assert numpy.get_printoptions() != garray.get_printoptions() or opts == {}
    assert garray.get_printoptions() == before


def test_set_printoptions_is_garrays_own_state():
    before = garray.get_printoptions()
    np_before = numpy.get_printoptions()
    try:
        garray.set_printoptions(precision=2)
        assert garray.get_printoptions()["precision"] == 2
        assert numpy.get_printoptions() == np_before
        assert repr(garray.asarray([1 / 3])) == "array([0.33])"
        with numpy.printoptions(precision=5):
            assert repr(garray.asarray([1 / 3])) == "array([0.33])"
    finally:
        garray.set_printoptions(**{k: v for k, v in before.items()})
    assert garray.get_printoptions() == before
    with pytest.raises(TypeError):
        garray.set_printoptions(precision="a")
    with pytest.raises(TypeError):
        garray.set_printoptions(bogus=1)


# ---- floating-point error state (accepted; a documented no-op) -----------------------------


def test_errstate_seterr_geterr():
    before = garray.geterr()
    assert before == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
    with garray.errstate(divide="ignore", invalid="raise"):
        assert garray.geterr()["divide"] == "ignore" and garray.geterr()["invalid"] == "raise"
        y = garray.asarray([1.0, 0.0]) / garray.asarray([0.0, 0.0])   # no trap on a GPU
        assert_xp_close(y, numpy.array([numpy.inf, numpy.nan]))
    assert garray.geterr() == before
    old = garray.seterr(all="ignore")
    try:
        assert old == before and set(garray.geterr().values()) == {"ignore"}
    finally:
        garray.seterr(**old)
    assert garray.geterr() == before
    with pytest.raises(ValueError):
        garray.seterr(divide="bogus")
    with pytest.raises(ValueError):
        garray.errstate(over="bogus")
    with pytest.raises(TypeError):
        garray.errstate(bogus="warn")


def test_errstate_decorator_and_errcall():
    @garray.errstate(all="ignore")
    def f():
        return garray.geterr()["over"]

    assert f() == "ignore" and garray.geterr()["over"] == "warn"
    assert garray.geterrcall() is None
    old = garray.seterrcall(print)
    assert old is None and garray.geterrcall() is print
    garray.seterrcall(None)
    with pytest.raises(ValueError):
        garray.seterrcall(3)


@pytest.mark.parametrize("kwargs", [dict(), dict(precision=2), dict(separator=", "),
                                    dict(max_line_width=10), dict(suppress_small=True),
                                    dict(threshold=3, edgeitems=1)], ids=str)
def test_array2string_repr_str(kwargs):
    h = numpy.array([[1e-9, 1 / 3, -2.0], [4.5, numpy.nan, numpy.inf]])
    g = garray.asarray(h)
    assert garray.array2string(g, **kwargs) == numpy.array2string(h, **kwargs)
    small = {k: v for k, v in kwargs.items()
             if k in ("max_line_width", "precision", "suppress_small")}
    assert garray.array_repr(g, **small) == numpy.array_repr(h, **small)
    assert garray.array_str(g, **small) == numpy.array_str(h, **small)
    with garray.printoptions(precision=1), numpy.printoptions(precision=1):
        assert garray.array_str(g) == numpy.array_str(h)
    i = make(garray, (2, 3), "int16")
    assert garray.array_repr(i) == numpy.array_repr(make(numpy, (2, 3), "int16"))
