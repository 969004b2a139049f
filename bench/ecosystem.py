"""scikit-learn and SciPy on garray arrays next to the same calls on NumPy arrays, one run.

    python bench/ecosystem.py [--quick] [--repeat 3]

Both runs go through the libraries' Array API code (``SCIPY_ARRAY_API=1``,
``sklearn.set_config(array_api_dispatch=True)``): NumPy's through array-api-compat's NumPy
namespace, garray's through garray on its default device (``GARRAY_DEVICE``).  Cases:
PCA(full) fit + transform, Ridge(svd) fit + predict, euclidean_distances, r2_score,
scipy.special.erf (garray.special) and logsumexp, scipy.stats.zscore and skew, and
scipy.fft.rfft, on float64 data (n x d = 20000 x 64, 1e6 elements; ``--quick``: a
tenth).  Milliseconds, best of --repeat after a warm-up call (which also compiles);
garray synchronised before each timing stops.  ratio = numpy time / garray time (> 1:
garray faster).  Never asserts speed.
"""

import argparse
import os

from _timing import best as _best  # noqa: E402  (before NumPy: it fixes sys.path)

os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy  # noqa: E402

import garray  # noqa: E402


def _cases(n, d):
    import scipy.fft
    import scipy.special
    import scipy.stats
    from sklearn.decomposition import PCA
    from sklearn.linear_model import Ridge
    from sklearn.metrics import r2_score
    from sklearn.metrics.pairwise import euclidean_distances

    rng = numpy.random.default_rng(0)
    X = rng.standard_normal((n, d))
    y = X @ rng.standard_normal(d) + 0.1 * rng.standard_normal(n)
    v = rng.standard_normal(n * d)
    Y = X[: max(n // 20, 1)]
    return [
        ("PCA(10, 'full') fit+transform", lambda X, y, v, Y: PCA(10).fit(X).transform(X),
         (X, y, v, Y)),
        ("Ridge('svd') fit+predict", lambda X, y, v, Y: Ridge(solver="svd").fit(X, y)
         .predict(X), (X, y, v, Y)),
        ("euclidean_distances X, X[:n/20]", lambda X, y, v, Y: euclidean_distances(X, Y),
         (X, y, v, Y)),
        ("r2_score", lambda X, y, v, Y: r2_score(y, y + v[: y.shape[0]]), (X, y, v, Y)),
        ("special.erf", lambda X, y, v, Y: scipy.special.erf(v), (X, y, v, Y)),
        ("special.logsumexp axis=0", lambda X, y, v, Y: scipy.special.logsumexp(X, axis=0),
         (X, y, v, Y)),
        ("stats.zscore axis=0", lambda X, y, v, Y: scipy.stats.zscore(X, axis=0),
         (X, y, v, Y)),
        ("stats.skew axis=0", lambda X, y, v, Y: scipy.stats.skew(X, axis=0), (X, y, v, Y)),
        ("fft.rfft", lambda X, y, v, Y: scipy.fft.rfft(v), (X, y, v, Y)),
    ]


def bench_ecosystem(quick=False, repeat=3):
    """Print garray against NumPy per case; returns [(case, numpy s, garray s, ratio)]."""
    import sklearn
    n, d = (2000, 64) if quick else (20000, 64)
    dev = garray.asarray([0]).device
    sync = getattr(dev, "synchronize", lambda: None)
    print(f"scikit-learn / SciPy Array API: NumPy vs garray on {dev}, X {n} x {d} float64")
    print(f"{'case':>34} {'numpy ms':>10} {'garray ms':>10} {'ratio':>7}")
    rows = []
    with sklearn.config_context(array_api_dispatch=True):
        for name, fn, args in _cases(n, d):
            gargs = tuple(garray.asarray(a) for a in args)
            tn = _best(lambda: fn(*args), lambda: None, repeat)
            tg = _best(lambda: fn(*gargs), sync, repeat)
            rows.append((name, tn, tg, tn / tg))
            print(f"{name:>34} {tn * 1e3:10.2f} {tg * 1e3:10.2f} {tn / tg:7.2f}")
    return rows


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    bench_ecosystem(a.quick, a.repeat)
