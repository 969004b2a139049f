"""cov and corrcoef against NumPy: dtypes, rowvar, y, bias/ddof, weights, errors."""

import warnings

import numpy
import pytest

import garray
from xp import sample, xp_compare

RNG = numpy.random.default_rng(7)
FW = numpy.array([1, 2, 1, 3, 1, 1, 2])
AW = RNG.random(7)


def _data(xp, dtype, shape=(3, 7)):
    # the same data for both runs of an xp_compare body: a generator seeded by the shape
    h = sample(shape, dtype) if dtype != "float64" else \
        numpy.random.default_rng(list(shape)).random(shape)
    return xp.asarray(h)


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128", "bool"])
@pytest.mark.parametrize("kw", [{}, {"rowvar": False}, {"bias": True}, {"ddof": 3}])
@xp_compare(rtol=1e-5, atol=1e-6)
def test_cov(xp, dtype, kw):
    return xp.cov(_data(xp, dtype), **kw)


@pytest.mark.parametrize("kw", [{"fweights": FW}, {"aweights": AW},
                                {"fweights": FW, "aweights": AW, "ddof": 2},
                                {"fweights": FW, "aweights": AW, "bias": True},
                                {"fweights": FW, "ddof": 0}])
@xp_compare()
def test_cov_weights(xp, kw):
    kw = {k: (xp.asarray(v) if isinstance(v, numpy.ndarray) else v) for k, v in kw.items()}
    return xp.cov(_data(xp, "float64"), **kw)


@pytest.mark.parametrize("shapes", [((7,), (7,)), ((2, 7), (7,)), ((2, 7), (3, 7))])
@pytest.mark.parametrize("rowvar", [True, False])
@xp_compare()
def test_cov_y(xp, shapes, rowvar):
    sx, sy = shapes
    if not rowvar:
        sx, sy = sx[::-1], sy[::-1]
    return xp.cov(_data(xp, "float64", sx), _data(xp, "float64", sy), rowvar=rowvar)


@xp_compare()
def test_cov_one_variable_and_dtype(xp):
    x = _data(xp, "float64", (7,))
    return [xp.cov(x), xp.cov(x, dtype=xp.float32), xp.cov(x[::-2])]


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("rowvar", [True, False])
@xp_compare(rtol=1e-5, atol=1e-6)
def test_corrcoef(xp, dtype, rowvar):
    return xp.corrcoef(_data(xp, dtype, (4, 6)), rowvar=rowvar)


@xp_compare()
def test_corrcoef_y_and_single(xp):
    x, y = _data(xp, "float64", (2, 7)), _data(xp, "float64", (7,))
    return [xp.corrcoef(x, y), xp.corrcoef(y)]


@pytest.mark.parametrize("case", ["3-d", "y 3-d", "ddof float", "fw float", "fw 2-d",
                                  "fw length", "fw negative", "aw negative"])
@xp_compare()
def test_cov_errors(xp, case):
    x = _data(xp, "float64")
    kw = {"3-d": lambda: ((xp.ones((2, 2, 2)),), {}),
          "y 3-d": lambda: ((x, xp.ones((2, 2, 2))), {}),
          "ddof float": lambda: ((x,), {"ddof": 1.5}),
          "fw float": lambda: ((x,), {"fweights": xp.asarray(FW * 0.5)}),
          "fw 2-d": lambda: ((x,), {"fweights": xp.asarray(numpy.ones((7, 2)))}),
          "fw length": lambda: ((x,), {"fweights": xp.asarray(FW[:3])}),
          "fw negative": lambda: ((x,), {"fweights": xp.asarray(-FW)}),
          "aw negative": lambda: ((x,), {"aweights": xp.asarray(-AW)})}[case]
    args, kws = kw()
    return xp.cov(*args, **kws)


def test_degrees_of_freedom_warn():
    x = garray.asarray([[1.0, 2.0]])
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        r = garray.cov(x, ddof=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = numpy.cov(numpy.asarray([[1.0, 2.0]]), ddof=5)
    numpy.testing.assert_equal(r.get(), expected)


def test_corrcoef_deprecated_args_warn():
    with pytest.warns(DeprecationWarning):
        garray.corrcoef(garray.asarray([[1.0, 2.0, 4.0]]), bias=1)
