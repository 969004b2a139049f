"""SciPy's Array API support (``SCIPY_ARRAY_API=1``) on garray arrays (docs/ecosystem.md).

Each case calls one SciPy function on NumPy arrays (the reference) and on garray arrays;
the result must be garray arrays on garray's default device (NumPy's scalars: garray 0-d
arrays) with NumPy's dtype and shape and close values.

Two groups, as SciPy 1.17 implements them for a namespace it does not know:
- ``NATIVE``: SciPy runs array-API code on the garray namespace (``scipy.stats``'s
  moments and tests, ``scipy.special``'s functions with a generic implementation,
  ``scipy.fft`` through ``garray.fft``, parts of ``scipy.signal``, ``vq.whiten``), or
  calls ``garray.special`` (``erf``, ``erfc``, ``ndtr``, ``gammaln``, ``expit``,
  ``logit``).  The inputs are views of a subclass whose ``__array__`` raises
  (``NoHost``): a passing case never copied an input to the host.
- ``HOST``: SciPy converts to NumPy, computes with its compiled code and converts back
  (``xp.asarray``): the special functions that have no generic implementation and are
  not in ``garray.special``, the ``cpu_only`` functions of its capability table (``dct``,
  ``convolve``, ``lfilter``, ``vq.vq`` ...).  garray's part there is the conversion both
  ways; the case checks that the result comes back as garray arrays.

Functions SciPy marks ``np_only`` (``spearmanr``, ``linregress``, ``signal.welch``,
``integrate.simpson``) or leaves out of its capability table (``scipy.linalg``) are
skipped with that reason.  Tolerances: float64 rtol=1e-9, atol=1e-12 (sums in another
order, and SciPy's NumPy branch sometimes uses another formula, e.g. its compiled
``stdtr`` for p-values); float32 rtol=2e-5, atol=2e-6.  ``garray.special`` against
SciPy's own values: a few float64 ulps (glibc's or the GPU's libm against Cephes).
"""

import os

import numpy
import pytest

import garray
from xp import assert_xp_close

scipy = pytest.importorskip("scipy")

import scipy.cluster.vq as vq  # noqa: E402
import scipy.differentiate as sdiff  # noqa: E402
import scipy.fft as sfft  # noqa: E402
import scipy.integrate as sint  # noqa: E402
import scipy.linalg as slin  # noqa: E402
import scipy.ndimage as ndi  # noqa: E402
import scipy.optimize.elementwise as opt_el  # noqa: E402
import scipy.signal as ssig  # noqa: E402
import scipy.special as sp  # noqa: E402
import scipy.stats as st  # noqa: E402
import scipy._lib.array_api_extra as xpx  # noqa: E402
from scipy._lib._array_api import SCIPY_ARRAY_API, xp_capabilities_table  # noqa: E402

pytestmark = pytest.mark.skipif(
    not SCIPY_ARRAY_API or os.environ.get("SCIPY_ARRAY_API") != "1",
    reason="SciPy was imported without SCIPY_ARRAY_API=1 (tests/conftest.py sets it unless "
           "the environment overrides it): its Array API dispatch is off")

TOL = {"float32": dict(rtol=2e-5, atol=2e-6), "float64": dict(rtol=1e-9, atol=1e-12)}


class NoHost(garray.ndarray):
    """A garray array that refuses NumPy conversion: proves no host round trip of it."""

    def __array__(self, dtype=None, copy=None):
        raise AssertionError("a garray input was converted to NumPy (host round trip)")


def nohost(a):
    return garray.asarray(a).view(NoHost)


def ident(a):
    return a


_rng = numpy.random.default_rng(7)
X1 = _rng.standard_normal(64)
Y1 = 0.6 * X1 + _rng.standard_normal(64)
P1 = _rng.random(64) + 0.05                     # positive
M2 = _rng.standard_normal((16, 5))
Z2 = _rng.standard_normal((8, 12)) + 1j * _rng.standard_normal((8, 12))
K1 = _rng.standard_normal(7)


def check(got, expected, tol, what="result"):
    """garray result vs NumPy's: tuples (SciPy's result objects) field by field."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), what
        for i, (g, e) in enumerate(zip(got, expected)):
            check(g, e, tol, f"{what}[{i}]")
        return
    if isinstance(expected, numpy.ndarray):
        assert isinstance(got, garray.ndarray), f"{what}: {type(got)}"
        assert got.device == garray.default_device(), f"{what}: on {got.device}"
    if isinstance(expected, float) and isinstance(got, garray.ndarray) and got.shape == ():
        expected = numpy.float64(expected)
    if isinstance(expected, (numpy.ndarray, numpy.generic)):
        assert_xp_close(got, expected, err_msg=what, **tol)
    else:
        assert got == expected, what


def run(case, a, dtype="float64"):
    """Call ``case`` (a function of an array constructor) with NumPy and with ``a``."""
    def cast(h):
        return h.astype(dtype) if h.dtype.kind == "f" else (
            h.astype("complex64") if dtype == "float32" and h.dtype.kind == "c" else h)
    expected = case(lambda h: cast(numpy.asarray(h)))
    got = case(lambda h: a(cast(numpy.asarray(h))))
    check(got, expected, TOL[dtype])


# ---- SciPy runs array-API code on garray ------------------------------------------------

NATIVE = {
    # scipy.special: garray.special (SciPy finds the namespace's special module)
    "special.erf": lambda a: sp.erf(a(X1)),
    "special.erfc": lambda a: sp.erfc(a(X1 * 3)),
    "special.ndtr": lambda a: sp.ndtr(a(X1 * 3)),
    "special.gammaln": lambda a: sp.gammaln(a(X1 * 5)),
    "special.expit": lambda a: sp.expit(a(X1 * 5)),
    "special.logit": lambda a: sp.logit(a(P1 / 1.2)),
    # scipy.special: generic implementations
    "special.xlogy": lambda a: sp.xlogy(a(P1), a(P1[::-1])),
    "special.rel_entr": lambda a: sp.rel_entr(a(P1), a(P1[::-1])),
    "special.logsumexp": lambda a: sp.logsumexp(a(M2), axis=0),
    "special.logsumexp-b": lambda a: sp.logsumexp(a(M2), axis=1, b=a(P1[:5])),
    "special.softmax": lambda a: sp.softmax(a(M2), axis=1),
    "special.log_softmax": lambda a: sp.log_softmax(a(M2), axis=0),
    "special.logsumexp-sign": lambda a: sp.logsumexp(a(X1), b=a(Y1), return_sign=True),
    "special.logsumexp-complex": lambda a: sp.logsumexp(a(Z2), axis=1),
    # scipy.stats
    "stats.moment": lambda a: st.moment(a(M2), order=3, axis=0),
    "stats.skew": lambda a: st.skew(a(M2), axis=0),
    "stats.skew-unbiased": lambda a: st.skew(a(X1), bias=False),
    "stats.kurtosis": lambda a: st.kurtosis(a(M2), axis=1),
    "stats.zscore": lambda a: st.zscore(a(M2), axis=0, ddof=1),
    "stats.zmap": lambda a: st.zmap(a(X1), a(Y1)),
    "stats.describe": lambda a: tuple(st.describe(a(M2), axis=0)),
    "stats.sem": lambda a: st.sem(a(M2), axis=0),
    "stats.variation": lambda a: st.variation(a(P1)),
    "stats.gmean": lambda a: st.gmean(a(P1)),
    "stats.hmean": lambda a: st.hmean(a(P1)),
    "stats.pmean": lambda a: st.pmean(a(P1), 2.5),
    "stats.tmean": lambda a: st.tmean(a(X1), (-1.0, 1.0)),
    "stats.tvar": lambda a: st.tvar(a(X1), (-1.0, 1.0)),
    "stats.tstd": lambda a: st.tstd(a(X1)),
    "stats.tmin": lambda a: st.tmin(a(X1), -0.5),
    "stats.tmax": lambda a: st.tmax(a(X1), 0.5),
    "stats.iqr": lambda a: st.iqr(a(X1)),
    "stats.gstd": lambda a: st.gstd(a(P1)),
    "stats.trim_mean": lambda a: st.trim_mean(a(X1), 0.1),
    "stats.sigmaclip": lambda a: tuple(st.sigmaclip(a(X1), 1.5, 1.5)),
    "stats.entropy": lambda a: st.entropy(a(P1), a(P1[::-1])),
    "stats.differential_entropy": lambda a: st.differential_entropy(a(X1)),
    "stats.rankdata": lambda a: st.rankdata(a(numpy.round(X1, 1))),
    "stats.mode": lambda a: tuple(st.mode(a(numpy.round(M2)), axis=0)),
    "stats.ttest_1samp": lambda a: tuple(st.ttest_1samp(a(X1), 0.1)),
    "stats.ttest_ind": lambda a: tuple(st.ttest_ind(a(X1), a(Y1), equal_var=False)),
    "stats.ttest_rel": lambda a: tuple(st.ttest_rel(a(X1), a(Y1))),
    "stats.pearsonr": lambda a: tuple(st.pearsonr(a(X1), a(Y1))),
    "stats.skewtest": lambda a: tuple(st.skewtest(a(X1))),
    "stats.kurtosistest": lambda a: tuple(st.kurtosistest(a(X1))),
    "stats.normaltest": lambda a: tuple(st.normaltest(a(X1))),
    "stats.jarque_bera": lambda a: tuple(st.jarque_bera(a(X1))),
    "stats.bartlett": lambda a: tuple(st.bartlett(a(X1), a(Y1))),
    "stats.levene": lambda a: tuple(st.levene(a(X1), a(Y1))),
    "stats.f_oneway": lambda a: tuple(st.f_oneway(a(X1), a(Y1), a(P1))),
    "stats.chisquare": lambda a: tuple(st.chisquare(a(P1 * 10), a(P1[::-1] * 10))),
    "stats.power_divergence": lambda a: tuple(st.power_divergence(
        a(P1 * 10), a(P1[::-1] * 10), lambda_="log-likelihood")),
    "stats.quantile": lambda a: st.quantile(a(M2.T), a(numpy.array([0.1, 0.5, 0.9])),
                                            axis=-1),
    "stats.quantile-hd": lambda a: st.quantile(a(X1), 0.3, method="harrell-davis"),
    "stats.circmean": lambda a: st.circmean(a(X1)),
    "stats.circvar": lambda a: st.circvar(a(M2), axis=0),
    "stats.circstd": lambda a: st.circstd(a(X1), high=1.0, low=-1.0),
    # scipy.integrate, scipy.differentiate, scipy.optimize.elementwise
    "integrate.trapezoid": lambda a: sint.trapezoid(a(M2), axis=0),
    "integrate.cumulative_trapezoid": lambda a: sint.cumulative_trapezoid(a(X1), dx=0.5),
    "integrate.cumulative_simpson": lambda a: sint.cumulative_simpson(a(X1)),
    "integrate.tanhsinh": lambda a: sint.tanhsinh(
        lambda t: t ** 2, a(numpy.array([0.0, 1.0])), a(numpy.array([1.0, 2.0]))).integral,
    "integrate.nsum": lambda a: sint.nsum(lambda k: 1.0 / k ** 2, a(numpy.array([1.0, 3.0])),
                                          a(numpy.array([numpy.inf, 50.0]))).sum,
    "differentiate.derivative": lambda a: sdiff.derivative(
        lambda t: t ** 3, a(numpy.array([1.0, 2.0]))).df,
    "optimize.find_root": lambda a: opt_el.find_root(
        lambda t, c: t ** 2 - c, (a(numpy.zeros(2)), a(numpy.array([3.0, 3.0]))),
        args=(a(numpy.array([2.0, 5.0])),)).x,
    # scipy.fft: garray.fft
    "fft.fft": lambda a: sfft.fft(a(Z2), axis=0),
    "fft.ifft-n": lambda a: sfft.ifft(a(Z2), n=10, norm="ortho"),
    "fft.rfft": lambda a: sfft.rfft(a(M2), axis=0),
    "fft.irfft": lambda a: sfft.irfft(a(Z2), n=20),
    "fft.hfft": lambda a: sfft.hfft(a(Z2)),
    "fft.ihfft": lambda a: sfft.ihfft(a(M2)),
    "fft.fft2": lambda a: sfft.fft2(a(Z2)),
    "fft.fftn": lambda a: sfft.fftn(a(Z2), s=(4, 6), norm="forward"),
    "fft.ifftn": lambda a: sfft.ifftn(a(Z2)),
    "fft.rfftn": lambda a: sfft.rfftn(a(M2)),
    "fft.irfftn": lambda a: sfft.irfftn(a(Z2), s=(8, 12)),
    "fft.fftshift": lambda a: sfft.fftshift(a(M2), axes=0),
    "fft.ifftshift": lambda a: sfft.ifftshift(a(M2)),
    # scipy.signal
    "signal.fftconvolve": lambda a: ssig.fftconvolve(a(X1), a(K1)),
    "signal.fftconvolve-2d": lambda a: ssig.fftconvolve(a(M2), a(M2[:3, :2]), mode="same"),
    "signal.oaconvolve": lambda a: ssig.oaconvolve(a(X1), a(K1), mode="valid"),
    "signal.hilbert": lambda a: ssig.hilbert(a(X1)),
    "signal.resample": lambda a: ssig.resample(a(X1), 40),
    # scipy.cluster.vq
    "vq.whiten": lambda a: vq.whiten(a(M2)),
    # array-api-extra (vendored by SciPy and scikit-learn; their array-API code calls it)
    "xpx.at-set": lambda a: xpx.at(a(X1), slice(0, 3)).set(0.0),
    "xpx.at-add-mask": lambda a: xpx.at(a(X1), a(X1 > 0)).add(1.0),
    "xpx.apply_where": lambda a: xpx.apply_where(a(X1) > 0, (a(X1),), lambda t: t ** 0.5,
                                                 fill_value=-1.0),
    "xpx.cov": lambda a: xpx.cov(a(M2.T)),
    "xpx.pad": lambda a: xpx.pad(a(M2), 2),
    "xpx.isclose": lambda a: xpx.isclose(a(X1), a(X1 + 1e-9 * (X1 > 0))),
    "xpx.nunique": lambda a: xpx.nunique(a(numpy.round(X1))),
    "xpx.one_hot": lambda a: xpx.one_hot(a(numpy.array([0, 2, 1])), 3),
    "xpx.kron": lambda a: xpx.kron(a(M2[:2, :2]), a(M2[2:4, :3])),
    "xpx.setdiff1d": lambda a: xpx.setdiff1d(a(numpy.arange(6)), a(numpy.array([1, 3]))),
    "xpx.create_diagonal": lambda a: xpx.create_diagonal(a(X1[:4])),
    "xpx.atleast_nd": lambda a: xpx.atleast_nd(a(X1), ndim=3),
    "xpx.partition": lambda a: xpx.partition(a(X1), 5)[5],
    "xpx.sinc": lambda a: xpx.sinc(a(X1)),
}


@pytest.mark.parametrize("name", list(NATIVE))
def test_native(name):
    run(NATIVE[name], nohost)


@pytest.mark.parametrize("name", ["special.erf", "special.gammaln", "special.expit",
                                  "special.logsumexp", "special.softmax", "stats.skew",
                                  "stats.zscore", "stats.ttest_1samp", "fft.rfft",
                                  "signal.fftconvolve", "vq.whiten"])
def test_native_float32(name):
    run(NATIVE[name], nohost, "float32")


# ---- garray.special (the namespace SciPy dispatches scipy.special to) -------------------

SPECIAL_POINTS = numpy.array([
    0.0, -0.0, 1e-300, -1e-300, 0.3, 0.5, 0.65, 0.2999, 0.6501, 0.99, 1.0, 1.0000001, -1.0,
    -0.5, -1.5, -2.5, 1.5, 2.5, 5.0, 10.0, 30.0, -30.0, 800.0, -800.0, 1e300, -1e300,
    numpy.inf, -numpy.inf, numpy.nan])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ["erf", "erfc", "ndtr", "gammaln", "expit", "logit"])
def test_garray_special_values(name, dtype):
    # SciPy's values at the special points (poles, infinities, NaN, the logit switch
    # points, the ndtr erf/erfc switch at |x| = 1); float32 from a double computation,
    # as SciPy's float32 loops
    with numpy.errstate(over="ignore"):
        h = SPECIAL_POINTS.astype(dtype)
    with numpy.errstate(all="ignore"):
        expected = getattr(sp, name)(h)
    got = getattr(garray.special, name)(garray.asarray(h))
    # glibc's erfc/lgamma against SciPy's Cephes: a few float64 ulps (gammaln near its
    # zero at 1: absolute 1e-17)
    assert_xp_close(got, expected, rtol=1e-13 if dtype == "float64" else 2e-7, atol=1e-16)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "uint64"])
def test_garray_special_integer_inputs_give_float64(dtype):
    h = numpy.arange(-3, 4).astype(dtype)
    for name in ("erf", "gammaln", "expit"):
        with numpy.errstate(all="ignore"):
            expected = getattr(sp, name)(h)
        assert_xp_close(getattr(garray.special, name)(garray.asarray(h)), expected,
                        rtol=1e-13, atol=1e-16)


def test_garray_special_layouts_and_array_likes():
    h = M2 * 2
    g = garray.asarray(h)
    assert_xp_close(garray.special.erf(g[::2, ::-1]), sp.erf(h[::2, ::-1]))
    assert_xp_close(garray.special.expit(g.T), sp.expit(h.T))
    assert_xp_close(garray.special.gammaln(g[:0]), sp.gammaln(h[:0]))
    assert_xp_close(garray.special.ndtr(garray.asarray(0.5)), numpy.asarray(sp.ndtr(0.5)))
    assert_xp_close(garray.special.logit([0.25, 0.5]), sp.logit(numpy.array([0.25, 0.5])))


def test_garray_special_complex():
    z = garray.asarray(Z2[:2])
    for name in ("erf", "erfc", "ndtr"):        # SciPy has complex loops: not in garray yet
        with pytest.raises(NotImplementedError, match=f"garray.special.{name}: complex"):
            getattr(garray.special, name)(z)
    for name in ("gammaln", "expit", "logit"):  # no complex loop in SciPy either
        with pytest.raises(TypeError):
            getattr(sp, name)(Z2[:2])
        with pytest.raises(TypeError, match=f"garray.special.{name}"):
            getattr(garray.special, name)(z)
    with pytest.raises(NotImplementedError, match="garray.special.erf"):
        sp.erf(z)                               # SciPy dispatches complex input here too


def test_capabilities_boolean_indexing_and_data_dependent_shapes():
    # garray reports both (it reported False before): array-api-extra then takes its
    # boolean-mask path in apply_where and unique_counts in nunique, checked here against
    # NumPy along with the features themselves
    caps = garray.__array_namespace_info__().capabilities()
    assert caps["boolean indexing"] is True and caps["data-dependent shapes"] is True
    from scipy._lib.array_api_extra._lib._utils._helpers import capabilities
    c = capabilities(garray, device=garray.default_device())   # what array-api-extra sees
    assert c["boolean indexing"] and c["data-dependent shapes"]
    h = X1.copy()
    g = garray.asarray(h)
    mask = h > 0.3
    assert_xp_close(g[garray.asarray(mask)], h[mask])
    g2, h2 = g.copy(), h.copy()
    g2[garray.asarray(mask)] = -1.0
    h2[mask] = -1.0
    assert_xp_close(g2, h2)
    assert_xp_close(garray.nonzero(garray.asarray(mask))[0], numpy.nonzero(mask)[0])
    assert_xp_close(garray.unique_values(garray.asarray(numpy.round(h))),
                    numpy.unique_values(numpy.round(h)))
    calls = []

    def f1(t):
        calls.append(t.shape)
        return t ** 0.5
    got = xpx.apply_where(g > 0, (nohost(h),), f1, fill_value=-1.0)
    assert calls == [(int((h > 0).sum()),)]      # f1 saw only the masked elements
    with numpy.errstate(invalid="ignore"):
        assert_xp_close(got, numpy.where(h > 0, numpy.sqrt(numpy.abs(h)), -1.0))


def test_fftfreq_and_window_on_device():
    # namespace-taking constructors: xp= and device= make garray arrays there
    dev = garray.default_device()
    check(sfft.fftfreq(10, d=0.1, xp=garray, device=dev), sfft.fftfreq(10, d=0.1),
          TOL["float64"])
    check(sfft.rfftfreq(9, xp=garray, device=dev), sfft.rfftfreq(9), TOL["float64"])
    for win in ("hann", ("kaiser", 4.0), "blackman"):
        check(ssig.get_window(win, 16, xp=garray, device=dev), ssig.get_window(win, 16),
              TOL["float64"], str(win))


def test_fft_workers_and_plan_refused():
    # SciPy itself: workers=/plan= are pocketfft options, refused for other namespaces
    with pytest.raises(ValueError, match="workers"):
        sfft.fft(garray.ones(4), workers=2)


# ---- SciPy converts to NumPy and back ---------------------------------------------------

HOST = {
    "special.ndtri": lambda a: sp.ndtri(a(P1 / 2)),
    "special.i0e": lambda a: sp.i0e(a(X1)),
    "special.xlog1py": lambda a: sp.xlog1py(a(P1), a(P1)),
    # generic implementations that need betainc/gammainc from the namespace's SciPy
    "special.stdtr": lambda a: sp.stdtr(a(P1 * 10), a(X1)),
    "special.chdtr": lambda a: sp.chdtr(a(P1 * 10), a(P1)),
    "fft.dct": lambda a: sfft.dct(a(M2), type=2, axis=0),
    "fft.idst": lambda a: sfft.idst(a(M2), type=3, norm="ortho"),
    "signal.convolve": lambda a: ssig.convolve(a(X1), a(K1), method="direct"),
    "signal.correlate2d": lambda a: ssig.correlate2d(a(M2), a(M2[:2, :3])),
    "signal.lfilter": lambda a: ssig.lfilter(a(K1[:3]), a(numpy.array([1.0, -0.3])), a(X1)),
    "signal.detrend": lambda a: ssig.detrend(a(M2), axis=0),
    "vq.vq": lambda a: tuple(vq.vq(a(M2), a(M2[:3]))),
    "ndimage.gaussian_filter": lambda a: ndi.gaussian_filter(a(M2), 1.0),
}


@pytest.mark.parametrize("name", list(HOST))
def test_host_fallback(name):
    run(HOST[name], garray.asarray)


# ---- what SciPy itself does not support for other namespaces ----------------------------

NP_ONLY = {
    "stats.spearmanr": (st.spearmanr, lambda a: tuple(st.spearmanr(a(X1), a(Y1)))),
    "stats.linregress": (st.linregress, lambda a: tuple(st.linregress(a(X1), a(Y1)))),
    "signal.welch": (ssig.welch, lambda a: tuple(ssig.welch(a(X1), nperseg=16))),
    "integrate.simpson": (sint.simpson, lambda a: sint.simpson(a(M2), axis=0)),
    "linalg.solve": (slin.solve, lambda a: slin.solve(a(M2[:5]), a(X1[:5]))),
}


@pytest.mark.parametrize("name", list(NP_ONLY))
def test_np_only(name):
    fn, case = NP_ONLY[name]
    caps = xp_capabilities_table.get(fn)
    if caps is None or caps["np_only"]:
        pytest.skip(f"SciPy itself: {name} is " + ("np_only" if caps else "not in its Array "
                    "API capability table") + " (NumPy arrays only; on other arrays it "
                    "converts them or returns NumPy arrays)")
    run(case, nohost)   # a SciPy that supports it: it must then work on garray
