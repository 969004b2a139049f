"""scikit-learn's Array API estimators and metrics on garray arrays, and array-api-compat's
namespace lookup (docs/ecosystem.md).

Every estimator is fitted twice under ``sklearn.set_config(array_api_dispatch=True)``: on
NumPy arrays (the reference: the same array-API code path in scikit-learn, on NumPy) and
on garray arrays on garray's default device.  Every fitted attribute that NumPy's run holds
as an array must be a garray array on that device with NumPy's dtype and shape and close
values, and so must every prediction/transform.  The garray inputs are views of a subclass
whose ``__array__`` raises (``NoHost``): a run that copied an input to the host through
NumPy fails, so a passing test ran garray's own kernels.

Tolerances: float64 results go through LAPACK (garray's OpenBLAS build on the CPU device,
NumPy's own build in the reference) and sums in another order: a few ulps times the
problem's condition number (small here: 60 x 6 standard normal data), so rtol=1e-9,
atol=1e-11.  float32: rtol=2e-4, atol=2e-5 (the same argument at float32's epsilon 1.2e-7
times ~100 rounding steps).

``SCIPY_ARRAY_API=1`` is set by tests/conftest.py before SciPy is first imported
(scikit-learn checks it at every dispatched call).
"""

import functools
import os
import re

import numpy
import pytest

import garray
from xp import assert_xp_close

sklearn = pytest.importorskip("sklearn")
array_api_compat = pytest.importorskip("array_api_compat")

from sklearn import metrics  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.kernel_approximation import Nystroem  # noqa: E402
from sklearn.linear_model import (LogisticRegression, Ridge, RidgeClassifier,  # noqa: E402
                                  RidgeCV)
from sklearn.metrics import pairwise  # noqa: E402
from sklearn.mixture import GaussianMixture  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.preprocessing import (KernelCenterer, LabelEncoder, MaxAbsScaler,  # noqa: E402
                                   MinMaxScaler, Normalizer, PolynomialFeatures,
                                   StandardScaler)

pytestmark = pytest.mark.skipif(
    os.environ.get("SCIPY_ARRAY_API") != "1",
    reason="SCIPY_ARRAY_API is not '1' (tests/conftest.py sets it unless the environment "
           "overrides it): scikit-learn refuses array_api_dispatch without it")

TOL = {"float32": dict(rtol=2e-4, atol=2e-5), "float64": dict(rtol=1e-9, atol=1e-11)}


ON_CPU = garray.default_device().kind == "cpu"
GPU_FUNCTIONS = garray.linalg._common.GPU_FUNCTIONS


def lapack(fn):
    """The test fits through garray.linalg's decompositions (svd, eigh, qr, cholesky ...).
    GPU devices compute some of them (cuSOLVER / hipSOLVER: garray.linalg._common.
    GPU_FUNCTIONS) and raise NotImplementedError naming the function and the device for
    the rest (none today): off the CPU device the test either runs
    through, or stops on that error for a function outside GPU_FUNCTIONS."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if ON_CPU:
            return fn(*args, **kwargs)
        try:
            return fn(*args, **kwargs)
        except NotImplementedError as e:
            m = re.match(r"garray\.linalg\.(\w+) on ", str(e))
            assert m and m.group(1) not in GPU_FUNCTIONS, e
    return wrapper


class NoHost(garray.ndarray):
    """A garray array that refuses NumPy conversion: proves no host round trip of it."""

    def __array__(self, dtype=None, copy=None):
        raise AssertionError("a garray input was converted to NumPy (host round trip)")


def nohost(a):
    return garray.asarray(a).view(NoHost)


@pytest.fixture(autouse=True)
def dispatch():
    with sklearn.config_context(array_api_dispatch=True):
        yield


def data(dtype="float64", n=60, d=6, seed=0):
    """Regression and 3-class data, standard normal features (well conditioned)."""
    rng = numpy.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(dtype)
    y = (X @ rng.standard_normal(d) + 0.1 * rng.standard_normal(n)).astype(dtype)
    yc = (X[:, 0] + X[:, 1] > 0).astype(numpy.int64) + (X[:, 2] > 0.5)
    return X, y, yc


def close(got, expected, tol, what):
    """A garray result against NumPy's run: arrays and NumPy scalars through
    assert_xp_close (garray's 0-d arrays stand for NumPy's scalars); lists element by
    element; other Python values equal."""
    if isinstance(expected, (list, tuple)):
        assert isinstance(got, type(expected)) and len(got) == len(expected), what
        for i, (g, e) in enumerate(zip(got, expected)):
            close(g, e, tol, f"{what}[{i}]")
        return
    if isinstance(expected, (numpy.ndarray, numpy.generic)):
        if isinstance(expected, numpy.ndarray):
            assert isinstance(got, garray.ndarray), f"{what}: {type(got)}"
            assert got.device == garray.default_device(), f"{what}: on {got.device}"
        assert_xp_close(got, expected, err_msg=what, **tol)
    elif isinstance(expected, float):
        assert float(got) == pytest.approx(expected, rel=tol["rtol"], abs=tol["atol"]), what
    else:
        assert got == expected, what


def _align_columns(got, ref):
    """``got`` with each column's sign flipped to match ``ref``'s: singular vectors'
    signs are free, and off the CPU device garray's SVD is not NumPy's LAPACK call."""
    if ON_CPU or not isinstance(ref, numpy.ndarray) or ref.ndim != 2:
        return got
    flip = numpy.sign((got.get() * ref).sum(axis=0))
    flip[flip == 0] = 1
    return got * garray.asarray(flip.astype(ref.dtype))


def fit_both(est, args, methods, dtype, stateless=False, signfree=()):
    """Fit clones of ``est`` on NumPy and on garray (NoHost) arrays; compare every fitted
    array attribute (``stateless``: the estimator fits none) and the result of each method
    in ``methods`` on the training X.  Names in ``signfree`` (attributes or methods built
    from singular vectors) are compared up to each column's sign off the CPU device."""
    tol = TOL[dtype]
    ref = sklearn.base.clone(est).fit(*args)
    got = sklearn.base.clone(est).fit(*[nohost(a) for a in args])
    name = type(est).__name__
    n_arrays = 0
    for k, v in vars(ref).items():
        if k.endswith("_") and not k.startswith("_"):
            g = getattr(got, k)
            close(_align_columns(g, v) if k in signfree else g, v, tol, f"{name}.{k}")
            n_arrays += isinstance(v, numpy.ndarray)
    assert n_arrays or stateless, f"{name}: no fitted array compared"
    for m in methods:
        g, r = getattr(got, m)(nohost(args[0])), getattr(ref, m)(args[0])
        close(_align_columns(g, r) if m in signfree else g, r, tol, f"{name}.{m}")
    return got


# ---- array-api-compat -------------------------------------------------------------------

def test_array_api_compat_namespace_and_helpers():
    import sklearn.externals.array_api_compat as vendored
    x = garray.arange(6.0).reshape(2, 3)
    for aac in (array_api_compat, vendored):
        assert aac.array_namespace(x) is garray
        assert aac.array_namespace(x, x[0], 1.5) is garray
        assert aac.is_array_api_obj(x)
        assert not aac.is_numpy_array(x)
        assert aac.device(x) == x.device == garray.default_device()
        assert aac.size(x) == 6
        assert aac.to_device(x, x.device) is x
        assert aac.to_device(x, "cpu").device == garray.Device("cpu")
        with pytest.raises(TypeError, match="Multiple namespaces"):
            aac.array_namespace(x, numpy.ones(3))
    assert array_api_compat.is_writeable_array(x)
    assert not array_api_compat.is_lazy_array(x)


def test_sklearn_namespace_device_and_move_to():
    from sklearn.utils._array_api import (get_namespace_and_device, move_to,
                                          supported_float_dtypes)
    x = garray.ones(3)
    xp, compliant, dev = get_namespace_and_device(x)
    assert xp is garray and compliant and dev == x.device
    # scikit-learn adds float16 where the namespace defines it
    assert supported_float_dtypes(garray) == (garray.float64, garray.float32, garray.float16)
    h = numpy.arange(4.0)
    moved = move_to(h, xp=garray, device=dev)      # DLPack from NumPy
    assert_xp_close(moved, h)
    back = move_to(garray.arange(4.0), xp=sklearn.externals.array_api_compat.numpy,
                   device="cpu")
    assert isinstance(back, numpy.ndarray)
    numpy.testing.assert_array_equal(back, h)


# ---- estimators -------------------------------------------------------------------------

@lapack
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("solver,kw", [
    ("full", {}), ("covariance_eigh", {}),
    ("randomized", dict(power_iteration_normalizer="QR", random_state=0)),
    ("full", dict(whiten=True)),
], ids=["full", "covariance_eigh", "randomized", "full-whiten"])
def test_pca(solver, kw, dtype):
    X, _, _ = data(dtype)
    pca = fit_both(PCA(3, svd_solver=solver, **kw), (X,),
                   ["transform", "fit_transform", "score_samples"], dtype)
    ref = PCA(3, svd_solver=solver, **kw).fit(X)
    z = ref.transform(X)
    close(pca.inverse_transform(nohost(z)), ref.inverse_transform(z), TOL[dtype],
          "inverse_transform")
    close(pca.get_covariance(), ref.get_covariance(), TOL[dtype], "get_covariance")
    close(pca.get_precision(), ref.get_precision(), TOL[dtype], "get_precision")
    assert float(pca.score(nohost(X))) == pytest.approx(ref.score(X), rel=TOL[dtype]["rtol"])


def test_pca_arpack_refused_by_sklearn():
    # scikit-learn itself: ARPACK is a host library; not an array-API solver
    with pytest.raises(ValueError, match="arpack"):
        PCA(2, svd_solver="arpack").fit(garray.ones((5, 4)))


@lapack
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_lda(dtype):
    X, _, yc = data(dtype)
    fit_both(LinearDiscriminantAnalysis(), (X, yc),
             ["predict", "predict_proba", "predict_log_proba", "decision_function",
              "transform"], dtype, signfree=("scalings_", "transform"))


@lapack
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("alpha", [1.0, [0.5, 2.0]])
def test_ridge_svd(alpha, dtype):
    X, y, _ = data(dtype)
    if isinstance(alpha, list):     # one alpha per target
        y = numpy.stack([y, 2 * y - X[:, 0]], axis=1)
        alpha = numpy.asarray(alpha, dtype=dtype)
    fit_both(Ridge(alpha, solver="svd"), (X, y), ["predict"], dtype)
    r = Ridge(alpha, solver="svd").fit(nohost(X), nohost(y))
    assert float(r.score(nohost(X), nohost(y))) == pytest.approx(
        Ridge(alpha, solver="svd").fit(X, y).score(X, y), rel=TOL[dtype]["rtol"])


def test_ridge_only_svd_under_array_api():
    # scikit-learn itself: only 'svd' dispatches to a non-NumPy namespace
    X, y, _ = data()
    with pytest.raises(ValueError, match="only supports solver 'svd'"):
        Ridge(solver="cholesky").fit(garray.asarray(X), garray.asarray(y))


@lapack
def test_more_linalg_estimators():
    X, y, yc = data()
    fit_both(RidgeClassifier(solver="svd"), (X, yc), ["predict", "decision_function"],
             "float64")
    fit_both(RidgeCV(alphas=(0.1, 1.0, 10.0)), (X, y), ["predict"], "float64")
    fit_both(Nystroem(n_components=10, random_state=0), (X,), ["transform"], "float64")
    fit_both(GaussianMixture(2, init_params="random", max_iter=200, random_state=0), (X,),
             ["predict", "predict_proba", "score_samples"], "float64")


def test_estimators_without_decompositions():
    X, y, yc = data()
    fit_both(GaussianNB(), (X, yc), ["predict", "predict_proba", "predict_joint_log_proba"],
             "float64")
    fit_both(LogisticRegression(max_iter=200), (X, yc),
             ["predict", "predict_proba", "decision_function"], "float64")
    for est in (StandardScaler(), MinMaxScaler(), MaxAbsScaler()):
        fit_both(est, (X,), ["transform", "inverse_transform"], "float64")
    fit_both(KernelCenterer(), (X @ X.T,), ["transform"], "float64")
    for est in (Normalizer(), PolynomialFeatures(2)):
        fit_both(est, (X,), ["transform"], "float64", stateless=True)
    enc = LabelEncoder().fit(nohost(yc * 3))
    ref = LabelEncoder().fit(yc * 3)
    close(enc.classes_, ref.classes_, TOL["float64"], "LabelEncoder.classes_")
    close(enc.transform(nohost(yc * 3)), ref.transform(yc * 3), TOL["float64"],
          "LabelEncoder.transform")
    close(enc.inverse_transform(nohost(yc)), ref.inverse_transform(yc), TOL["float64"],
          "LabelEncoder.inverse_transform")


# ---- metrics ----------------------------------------------------------------------------

def test_classification_metrics():
    _, _, yc = data()
    yp = numpy.roll(yc, 3)
    tol = TOL["float64"]
    for name in ("accuracy_score", "zero_one_loss", "balanced_accuracy_score",
                 "hamming_loss", "cohen_kappa_score"):
        f = getattr(metrics, name)
        close(f(nohost(yc), nohost(yp)), f(yc, yp), tol, name)
    for name in ("precision_score", "recall_score", "f1_score", "jaccard_score"):
        f = getattr(metrics, name)
        close(f(nohost(yc), nohost(yp), average="macro"), f(yc, yp, average="macro"),
              tol, name)
    close(metrics.confusion_matrix(nohost(yc), nohost(yp)),
          metrics.confusion_matrix(yc, yp), tol, "confusion_matrix")
    close(metrics.multilabel_confusion_matrix(nohost(yc), nohost(yp)),
          metrics.multilabel_confusion_matrix(yc, yp), tol, "multilabel_confusion_matrix")
    close(metrics.fbeta_score(nohost(yc), nohost(yp), beta=0.5, average="weighted"),
          metrics.fbeta_score(yc, yp, beta=0.5, average="weighted"), tol, "fbeta_score")


def test_binary_score_metrics():
    X, _, _ = data()
    yb = (X[:, 0] > 0).astype(numpy.int64)
    score = 1 / (1 + numpy.exp(-X[:, 0] - 0.8 * X[:, 1]))
    tol = TOL["float64"]
    for name in ("log_loss", "brier_score_loss", "average_precision_score"):
        f = getattr(metrics, name)
        close(f(nohost(yb), nohost(score)), f(yb, score), tol, name)
    for name in ("roc_curve", "precision_recall_curve", "det_curve"):
        f = getattr(metrics, name)
        for i, (g, e) in enumerate(zip(f(nohost(yb), nohost(score)), f(yb, score))):
            close(g, e, tol, f"{name}[{i}]")


def test_regression_metrics():
    X, y, _ = data()
    yp = y + 0.3 * X[:, 0]
    tol = TOL["float64"]
    for name in ("r2_score", "mean_squared_error", "root_mean_squared_error",
                 "mean_absolute_error", "explained_variance_score", "max_error",
                 "median_absolute_error", "mean_absolute_percentage_error"):
        f = getattr(metrics, name)
        close(f(nohost(y), nohost(yp)), f(y, yp), tol, name)
    w = numpy.linspace(0.5, 1.5, y.shape[0])
    close(metrics.r2_score(nohost(y), nohost(yp), sample_weight=nohost(w)),
          metrics.r2_score(y, yp, sample_weight=w), tol, "r2_score weighted")
    p, q = numpy.abs(y) + 0.1, numpy.abs(yp) + 0.1
    for name, kw in (("mean_squared_log_error", {}), ("root_mean_squared_log_error", {}),
                     ("mean_poisson_deviance", {}), ("mean_gamma_deviance", {}),
                     ("mean_tweedie_deviance", dict(power=1.5)),
                     ("d2_tweedie_score", dict(power=1.5)),
                     ("mean_pinball_loss", dict(alpha=0.3))):
        f = getattr(metrics, name)
        close(f(nohost(p), nohost(q), **kw), f(p, q, **kw), tol, name)


NUMPY_ONLY_FLOAT64 = ("manhattan_distances", "laplacian_kernel")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_pairwise(dtype):
    X, _, _ = data(dtype)
    Y = X[:7] * 0.5 + 0.25
    tol = TOL[dtype]
    for name in ("euclidean_distances", "cosine_similarity", "cosine_distances",
                 "manhattan_distances", "linear_kernel", "rbf_kernel", "polynomial_kernel",
                 "sigmoid_kernel", "laplacian_kernel"):
        f = getattr(pairwise, name)
        expected = f(X, Y)
        if name in NUMPY_ONLY_FLOAT64:
            # scikit-learn's NumPy branch calls scipy's cdist (float64 out); its Array API
            # branch keeps the input's dtype, as for CuPy or PyTorch arrays
            expected = expected.astype(dtype)
        close(f(nohost(X), nohost(Y)), expected, tol, name)
    close(pairwise.euclidean_distances(nohost(X), nohost(Y), squared=True),
          pairwise.euclidean_distances(X, Y, squared=True), tol, "squared euclidean")
    close(pairwise.pairwise_distances(nohost(X), nohost(Y), metric="euclidean"),
          pairwise.pairwise_distances(X, Y, metric="euclidean"), tol, "pairwise_distances")
    for name in ("paired_euclidean_distances", "paired_cosine_distances",
                 "paired_manhattan_distances"):
        f = getattr(pairwise, name)
        close(f(nohost(X[:7]), nohost(Y)), f(X[:7], Y), tol, name)
    close(pairwise.pairwise_kernels(nohost(X), nohost(Y), metric="rbf", gamma=0.2),
          pairwise.pairwise_kernels(X, Y, metric="rbf", gamma=0.2), tol, "pairwise_kernels")
    close(pairwise.pairwise_distances_argmin(nohost(X), nohost(Y)),
          pairwise.pairwise_distances_argmin(X, Y), tol, "pairwise_distances_argmin")
