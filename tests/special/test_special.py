"""garray.special against scipy.special: values and dtypes over every input dtype (the
hostile fuzzer's ``special`` class adds NaN, infinities, poles and wrong types)."""

import numpy
import pytest
import scipy.special

import garray
import garray.special
from xp import ALL_DTYPES, assert_xp_close
from xp import kind as xp_kind

FUNCS = ["erf", "erfc", "ndtr", "gammaln", "expit", "logit"]


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if numpy.dtype(d).kind != "c"])
@pytest.mark.parametrize("name", FUNCS)
def test_dtypes_as_scipy(name, dtype):
    """SciPy's loop choice: float32 stays float32; bool, integers and float16 compute in
    float64 (SciPy has no float16 loop)."""
    h = (numpy.arange(-3, 4) % 3 if numpy.dtype(dtype).kind in "bu" else
         numpy.arange(-3, 4) / (4 if numpy.dtype(dtype).kind == "f" else 1)).astype(dtype)
    if name == "logit" and xp_kind(h.dtype) == "f":
        h = (numpy.abs(h) / 4).astype(dtype)
    if garray._dtypes.is_ml_format(h.dtype):
        with pytest.raises(TypeError):      # SciPy refuses ml_dtypes' types, garray too
            getattr(scipy.special, name)(h)
        with pytest.raises(TypeError, match=name):
            getattr(garray.special, name)(garray.asarray(h))
        return
    want = getattr(scipy.special, name)(h)
    got = getattr(garray.special, name)(garray.asarray(h))
    tight = numpy.dtype(want.dtype) == numpy.float64
    assert_xp_close(got, want, rtol=1e-12 if tight else 1e-6, atol=1e-14 if tight else 1e-7)


@pytest.mark.parametrize("name", FUNCS)
def test_complex_refused_with_the_function_named(name):
    exc = NotImplementedError if name in ("erf", "erfc", "ndtr") else TypeError
    with pytest.raises(exc, match=name):
        getattr(garray.special, name)(garray.asarray([1 + 1j]))


def test_gammaln_of_subnormals_is_minus_log():
    """Below 2**-1024, where 1 / x overflows, SciPy's Cephes answers inf; garray the
    libm's lgamma, -log|x| (docs/reliability.md).  Above it both agree."""
    x = numpy.array([5e-324, -1e-310, 5.5e-309, 5.6e-309, 1e-308])
    got = garray.special.gammaln(garray.asarray(x)).get()
    numpy.testing.assert_allclose(got, -numpy.log(numpy.abs(x)), rtol=1e-12)
    numpy.testing.assert_allclose(got[3:], scipy.special.gammaln(x[3:]), rtol=1e-12)
