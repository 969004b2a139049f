"""The hostile-input fuzzer's classes for sorting, sets, searching, quantiles, histograms and statistics (registered into
tests/fuzz_hostile.py's CLASSES; run them with
``python tests/fuzz_hostile.py --classes <name> --examples N``)."""

import numpy
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st
from xp import kind as xp_kind

SPECIALS = [numpy.nan, numpy.inf, -numpy.inf, -0.0, 1e300]
VIEWS = ["plain", "reversed", "transposed"]
# wrong and edge values for an axis argument
# Deliberate (as fuzz_hostile.fuzz_reductions): an axis past 2**63 is an AxisError in garray,
# OverflowError in NumPy
HUGE_AXIS = {OverflowError: ValueError}
AXES = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from([1.0, "0", 2**63, (0,)]))


def _settings(examples, s):
    def deco(fn):
        return seed(s)(settings(max_examples=examples, database=None, deadline=None,
                                suppress_health_check=list(HealthCheck))(fn))
    return deco


def hostile_data(fz, shape, dtype, rnd, special):
    """fz.data_for, with NaN/inf/-0.0/huge values planted in float and complex data."""
    h = fz.data_for(shape, dtype, rnd)
    if special and h.size and xp_kind(h.dtype) in "fc":
        flat = h.reshape(-1).copy()
        rng = numpy.random.default_rng(rnd + 3)
        with numpy.errstate(over="ignore"):         # 1e300 is inf in float16/float32
            for i in rng.integers(0, flat.size, size=min(2, flat.size)):
                flat[i] = SPECIALS[int(rng.integers(len(SPECIALS)))]
        h = flat.reshape(h.shape)
    return h


def view_of(xp, h, view):
    x = xp.asarray(h.copy())
    if view == "reversed" and x.ndim:
        return x[::-1]
    if view == "transposed":
        return x.T
    return x


def register(classes, fz):
    """Add this module's fuzz classes to ``classes``; ``fz`` is tests/fuzz_hostile.py."""

    def count(name):
        fz.COUNTS[name] = fz.COUNTS.get(name, 0) + 1

    def fuzz_sort(examples, s):
        """sort, argsort, sort_complex and lexsort: axis, kind, stable, descending."""
        @_settings(examples, s)
        @given(name=st.sampled_from(["sort", "argsort", "sort_complex", "lexsort"]),
               dtype=fz.dtypes, shape=fz.small_shapes, axis=AXES,
               kind=st.sampled_from([None, "quicksort", "stable", "mergesort", "heapsort",
                                     "bogus", 3]),
               stable=st.sampled_from([None, True, False, "yes"]),
               view=st.sampled_from(VIEWS), special=st.booleans(), rnd=st.integers(0, 2**16))
        def run(name, dtype, shape, axis, kind, stable, view, special, rnd):
            count("sort")
            h = hostile_data(fz, shape, dtype, rnd, special)
            if name == "sort_complex":
                label = f"sort_complex {dtype}{shape} {view}"
                f = lambda xp: xp.sort_complex(view_of(xp, h, view))  # noqa: E731
            elif name == "lexsort":
                label = f"lexsort {dtype}{shape} {view} axis={axis!r}"
                # NumPy checks a huge axis before the keys; garray the keys first
                assume(axis != 2**63)

                def f(xp):
                    x = view_of(xp, h, view)
                    return xp.lexsort(x) if axis is None else xp.lexsort(x, axis=axis)
            else:
                kw = {"axis": axis}
                if kind is not None:
                    kw["kind"] = kind
                if stable is not None:
                    kw["stable"] = stable
                label = f"{name} {dtype}{shape} {view} {kw}"

                def f(xp):
                    x = view_of(xp, h, view)
                    r = getattr(xp, name)(x, **kw)
                    if name == "argsort" and kw.get("kind") != "stable" and not kw.get("stable"):
                        # an unstable NumPy argsort orders ties its own way: compare values
                        r = xp.reshape(x, (-1,))[r] if axis is None else \
                            xp.take_along_axis(x, r, axis=axis)
                    return r
            fz.compare(label, f, also=HUGE_AXIS)
        run()

    def fuzz_search(examples, s):
        """searchsorted (side, sorter) and digitize (right, monotonic bins)."""
        @_settings(examples, s)
        @given(name=st.sampled_from(["searchsorted", "digitize"]), dtype=fz.dtypes,
               vdtype=fz.dtypes, n=st.integers(0, 6), vshape=fz.small_shapes,
               side=st.sampled_from(["left", "right", "bogus", None, 1]),
               sorter=st.sampled_from([None, "argsort", "short", "float"]),
               right=st.sampled_from([False, True, "x"]), descending=st.booleans(),
               special=st.booleans(), rnd=st.integers(0, 2**16))
        def run(name, dtype, vdtype, n, vshape, side, sorter, right, descending, special,
                rnd):
            count("search")
            a = numpy.sort(hostile_data(fz, (n,), dtype, rnd, special))
            if descending and name == "digitize":
                a = a[::-1]
            v = hostile_data(fz, vshape, vdtype, rnd + 1, special)
            if name == "digitize":
                # NaN bins make NumPy's monotonicity check platform-dependent
                assume(not (xp_kind(a.dtype) in "fc" and numpy.isnan(a).any()))
                label = f"digitize {vdtype}{vshape} bins={dtype}{a.tolist()} right={right!r}"
                f = lambda xp: xp.digitize(xp.asarray(v), xp.asarray(a), right=right)  # noqa: E731
                fz.compare(label, f)
                return
            kw = {}
            if side is not None:
                kw["side"] = side
            perm = numpy.argsort(a, kind="stable")
            srt = {None: None, "argsort": perm, "short": perm[:-1] if n else perm,
                   "float": perm.astype(float)}[sorter]
            label = f"searchsorted {dtype}{a.tolist()} {vdtype}{vshape} {kw} sorter={sorter}"

            def f(xp):
                k = dict(kw)
                if srt is not None:
                    k["sorter"] = xp.asarray(srt)
                return xp.searchsorted(xp.asarray(a), xp.asarray(v), **k)
            fz.compare(label, f)
        run()

    def fuzz_partition(examples, s):
        """partition/argpartition: kth in and out of range, negative, lists, bool, str."""
        kths = st.one_of(st.integers(-6, 6), st.lists(st.integers(-6, 6), max_size=3),
                         st.sampled_from([True, False, "1", 1.0, None, 2**63, [], (0, 1)]))

        @_settings(examples, s)
        @given(name=st.sampled_from(["partition", "argpartition"]), dtype=fz.dtypes,
               shape=fz.small_shapes, kth=kths, axis=AXES, view=st.sampled_from(VIEWS),
               kind=st.sampled_from([None, "introselect", "bogus"]),
               special=st.booleans(), rnd=st.integers(0, 2**16))
        def run(name, dtype, shape, kth, axis, view, kind, special, rnd):
            count("partition")
            # Excluded: NumPy's order of checks between a bad kth and a bad axis varies
            # (kth='1' before the axis range, kth=[] or None after it)
            bad_kth = not isinstance(kth, int) and not (
                isinstance(kth, list) and kth)
            assume(not (bad_kth and (shape == () or axis == 2**63)))
            h = hostile_data(fz, shape, dtype, rnd, special)
            kw = {"axis": axis}
            if kind is not None:
                kw["kind"] = kind
            label = f"{name} {dtype}{shape} {view} kth={kth!r} {kw}"

            def f(xp):
                r = getattr(xp, name)(view_of(xp, h, view), kth, **kw)
                # only the kth positions are defined: compare the sorted result
                if name == "argpartition":
                    x = view_of(xp, h, view)
                    r = xp.take_along_axis(x, r, axis=-1 if axis is None else axis) \
                        if axis is not None else xp.reshape(x, (-1,))[r]
                return xp.sort(r, axis=None)
            fz.compare(label, f, also=HUGE_AXIS)
        run()

    def fuzz_unique(examples, s):
        """unique with its return_* flags, axis and equal_nan; the unique_* functions."""
        @_settings(examples, s)
        @given(name=st.sampled_from(["unique", "unique_all", "unique_counts",
                                     "unique_inverse", "unique_values"]),
               dtype=fz.dtypes, shape=fz.small_shapes,
               flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
               axis=st.one_of(st.none(), st.integers(-3, 3), st.sampled_from([1.0, "0"])),
               equal_nan=st.sampled_from([True, False]), view=st.sampled_from(VIEWS),
               special=st.booleans(), rnd=st.integers(0, 2**16))
        def run(name, dtype, shape, flags, axis, equal_nan, view, special, rnd):
            count("unique")
            h = hostile_data(fz, shape, dtype, rnd, special)
            if name == "unique":
                kw = dict(return_index=flags[0], return_inverse=flags[1],
                          return_counts=flags[2], axis=axis, equal_nan=equal_nan)
                if axis is not None and xp_kind(h.dtype) in "fc" and special:
                    # NaN order in a lexicographic row sort is NumPy-version dependent
                    assume(not numpy.isnan(h).any())
            else:
                kw = {}
            label = f"{name} {dtype}{shape} {view} {kw}"

            def f(xp):
                r = getattr(xp, name)(view_of(xp, h, view), **kw)
                if name == "unique_values":     # NumPy >= 2.3 may leave it unsorted
                    return xp.sort(r)
                return tuple(r) if isinstance(r, tuple) else r
            fz.compare(label, f)
        run()

    def fuzz_sets(examples, s):
        """isin, intersect1d, union1d, setdiff1d, setxor1d: assume_unique, invert."""
        @_settings(examples, s)
        @given(name=st.sampled_from(["isin", "intersect1d", "union1d", "setdiff1d",
                                     "setxor1d"]),
               d1=fz.dtypes, d2=fz.dtypes, sh1=fz.small_shapes, sh2=fz.small_shapes,
               flag=st.booleans(), invert=st.booleans(),
               kind=st.sampled_from([None, "sort", "table", "bogus"]),
               special=st.booleans(), rnd=st.integers(0, 2**16))
        def run(name, d1, d2, sh1, sh2, flag, invert, kind, special, rnd):
            count("sets")
            a = hostile_data(fz, sh1, d1, rnd, special)
            b = hostile_data(fz, sh2, d2, rnd + 1, special)
            if name == "isin":
                kw = {"assume_unique": flag, "invert": invert}
                if kind is not None:
                    kw["kind"] = kind
            elif name == "intersect1d":
                kw = {"assume_unique": flag, "return_indices": invert}
            elif name == "union1d":
                kw = {}
            else:
                kw = {"assume_unique": flag}
            if kw.get("assume_unique"):
                # results for non-unique input are unspecified: give unique input
                a, b = numpy.unique(a), numpy.unique(b)
            label = f"{name} {d1}{a.shape} {d2}{b.shape} {kw}"

            def f(xp):
                r = getattr(xp, name)(xp.asarray(a), xp.asarray(b), **kw)
                return tuple(r) if isinstance(r, tuple) else r
            fz.compare(label, f)
        run()

    QMETHODS = ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf",
                "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
                "hazen", "weibull", "median_unbiased", "normal_unbiased", "bogus"]
    QS = st.one_of(st.sampled_from([0.0, 0.5, 1.0, -0.1, 1.5, numpy.nan, 0.25, "0.5"]),
                   st.lists(st.sampled_from([0.0, 0.3, 1.0, 0.75]), max_size=3))

    def fuzz_quantiles(examples, s):
        """median/quantile/percentile and their nan* forms: q, method, axis, keepdims, out=."""
        @_settings(examples, s)
        @given(name=st.sampled_from(["median", "quantile", "percentile", "nanmedian",
                                     "nanquantile", "nanpercentile"]),
               dtype=fz.dtypes, shape=fz.small_shapes, q=QS, method=st.sampled_from(QMETHODS),
               axis=AXES, keepdims=st.booleans(),
               out=st.sampled_from([None, "float64", "float32", "int64"]),
               view=st.sampled_from(VIEWS), special=st.booleans(), rnd=st.integers(0, 2**16))
        def run(name, dtype, shape, q, method, axis, keepdims, out, view, special, rnd):
            count("quantiles")
            # Excluded: q=[] over an empty axis (NumPy gives an empty result, garray an
            # IndexError as for any q)
            assume(not (isinstance(q, list) and not q and 0 in shape))
            # Deliberate refusals: garray has five methods (NotImplementedError for the
            # others) and takes no bool input (TypeError; NumPy's is dtype-dependent)
            assume(method not in QMETHODS[5:-1] and dtype != "bool")
            # Deliberate refusals (NotImplementedError): out= and complex input
            assume(out is None and numpy.dtype(dtype).kind != "c")
            h = hostile_data(fz, shape, dtype, rnd, special)
            kw = {"axis": axis, "keepdims": keepdims}
            if "median" not in name:
                qq = q * 100 if name.endswith("percentile") and isinstance(q, float) else q
                if isinstance(qq, list) and name.endswith("percentile"):
                    qq = [v * 100 for v in qq]
                args = (qq,)
                kw["method"] = method
            else:
                args = ()
            label = f"{name} {dtype}{shape} {view} {args} {kw} out={out}"
            with numpy.errstate(all="ignore"):
                try:
                    ref = getattr(numpy, name)(view_of(numpy, h, view), *args, **kw)
                except Exception:  # noqa: BLE001 - compare() checks the exception
                    ref = None
            if out is not None and ref is not None:
                ref = numpy.asarray(ref)

                def f(xp):
                    o = xp.zeros(ref.shape, dtype=out)
                    r = getattr(xp, name)(view_of(xp, h, view), *args, out=o, **kw)
                    assert r is o
                    return o
            else:
                f = lambda xp: getattr(xp, name)(view_of(xp, h, view), *args, **kw)  # noqa: E731
            fz.compare(label, f, also=HUGE_AXIS)
        run()

    def fuzz_histograms(examples, s):
        """histogram(_bin_edges)/2d/dd, bincount: bins ints/arrays/strings, range, weights,
        density, minlength; NaN/inf data."""
        BINS = st.one_of(st.integers(-1, 5), st.sampled_from(
            ["auto", "fd", "sturges", "sqrt", "bogus", 2.5, [0, 1, 3], [3, 1], [], None]))
        RANGES = st.sampled_from([None, (0, 1), (1, 0), (0, numpy.inf), (numpy.nan, 1),
                                  (2, 2), "x", (0,)])

        @_settings(examples, s)
        @given(name=st.sampled_from(["histogram", "histogram_bin_edges", "histogram2d",
                                     "histogramdd", "bincount"]),
               dtype=fz.dtypes, n=st.integers(0, 6), bins=BINS, rng=RANGES,
               weights=st.sampled_from([None, "same", "short", "complex"]),
               density=st.sampled_from([None, True, False]),
               minlength=st.sampled_from([None, 0, 3, -1, 2.0]),
               special=st.booleans(), rnd=st.integers(0, 2**16))
        def run(name, dtype, n, bins, rng, weights, density, minlength, special, rnd):
            count("histograms")
            h = hostile_data(fz, (n,), dtype, rnd, special)
            w = {None: None, "same": numpy.arange(n, dtype=float) * 0.5,
                 "short": numpy.ones(max(n - 1, 0)),
                 "complex": numpy.ones(n, complex)}[weights]
            if name == "bincount":
                kw = {} if minlength is None else {"minlength": minlength}
                label = f"bincount {dtype}{h.tolist()} w={weights} {kw}"

                def f(xp):
                    k = dict(kw)
                    if w is not None:
                        k["weights"] = xp.asarray(w)
                    return xp.bincount(xp.asarray(h), **k)
                fz.compare(label, f)
                return
            # Deliberate refusal: the bin estimators (bins='auto', ...) are a
            # NotImplementedError (an unknown name is NumPy's ValueError)
            assume(not isinstance(bins, str) or bins == "bogus")
            # Excluded: a float bins for 2d/dd is a TypeError in both, but NumPy checks
            # the range and data first
            assume(not (bins == 2.5 and name in ("histogram2d", "histogramdd")))
            # Excluded: NumPy's float16 linspace (2d/dd edges) rounds each step in float16
            assume(not (dtype == "float16" and name in ("histogram2d", "histogramdd")))
            # complex data: NumPy histogram compares complex with a ComplexWarning path
            assume(xp_kind(h.dtype) != "c")
            kw = {}
            if bins is not None:
                kw["bins"] = bins
            if rng is not None:
                kw["range"] = rng if name != "histogramdd" or not isinstance(rng, tuple) \
                    else [rng] if len(rng) == 2 else rng
                if name == "histogram2d" and isinstance(rng, tuple) and len(rng) == 2:
                    kw["range"] = [rng, rng]
            if density is not None and name != "histogram_bin_edges":
                kw["density"] = density
            label = f"{name} {dtype}{h.tolist()} {kw} w={weights}"

            def f(xp):
                x = xp.asarray(h)
                k = dict(kw)
                if w is not None and (weights != "complex" or name == "histogram"):
                    k["weights"] = xp.asarray(w)
                if name == "histogram2d":
                    r = xp.histogram2d(x, x[::-1], **k)
                elif name == "histogramdd":
                    r = xp.histogramdd(xp.reshape(x, (-1, 1)), **k)
                    return (r[0],) + tuple(r[1])
                else:
                    r = getattr(xp, name)(x, **k)
                return tuple(r) if isinstance(r, tuple) else r
            fz.compare(label, f)
        run()

    def fuzz_moments(examples, s):
        """mean/var/std/nan*/average/ptp: ddof, weights, dtype, out= of other dtypes, where=."""
        @_settings(examples, s)
        @given(name=st.sampled_from(["mean", "var", "std", "nanmean", "nanvar", "nanstd",
                                     "average", "ptp"]),
               dtype=fz.dtypes, shape=fz.small_shapes, axis=AXES, keepdims=st.booleans(),
               ddof=st.sampled_from([None, 0, 1, 5, -1, 1.5, "1"]),
               rdtype=st.sampled_from([None, "float32", "float64", "int64", "complex128",
                                       "bool"]),
               out=st.sampled_from([None, "float64", "float32", "int64", "complex128",
                                    "readonly"]),
               where=st.sampled_from([None, "mask", "false"]),
               weights=st.sampled_from([None, "same", "zeros", "bad"]),
               view=st.sampled_from(VIEWS), special=st.booleans(), rnd=st.integers(0, 2**16))
        def run(name, dtype, shape, axis, keepdims, ddof, rdtype, out, where, weights, view,
                special, rnd):
            count("moments")
            # Excluded NumPy quirks: a non-float dtype= (NumPy computes std in it, bool
            # gives float16 and sqrt casting errors), NaN/inf cast into an integer out=
            # (platform-dependent), float16 into a wider out= (NumPy's intermediate
            # precision differs)
            assume(rdtype in (None, "float32", "float64"))
            assume(out is None or not (special or out == "int64" or rdtype == "float32"
                                       or dtype in ("float16", "float32", "complex64")))
            # NumPy divides by zero degrees of freedom in a complex out= (inf+nanj)
            assume(not (out == "complex128" and ddof in (5, -1, 1.5)))
            # NumPy checks a huge axis before ddof, garray ddof first
            assume(not (ddof == "1" and axis is not None))
            h = hostile_data(fz, shape, dtype, rnd, special)
            kw = {"axis": axis}
            if name == "average":
                kw["keepdims"] = keepdims
                wts = {None: None, "same": numpy.arange(h.size, dtype=float).reshape(h.shape),
                       "zeros": numpy.zeros(h.shape), "bad": numpy.ones(h.size + 1)}[weights]
                # 0-d data with an integer axis: NumPy itself is inconsistent
                assume(not (h.ndim == 0 and isinstance(axis, int)))
                label = f"average {dtype}{shape} {view} {kw} weights={weights}"

                def f(xp):
                    x = view_of(xp, h, view)
                    k = dict(kw)
                    if wts is not None:
                        k["weights"] = view_of(xp, wts, view)
                    return xp.average(x, **k)
                fz.compare(label, f, also=HUGE_AXIS)
                return
            kw["keepdims"] = keepdims
            if name in ("var", "std", "nanvar", "nanstd") and ddof is not None:
                kw["ddof"] = ddof
            if name != "ptp" and rdtype is not None:
                kw["dtype"] = rdtype
            # numpy.mean and ptp refuse an integer axis of a 0-d array (see fuzz_reductions)
            assume(not (h.ndim == 0 and isinstance(axis, int)))
            wh = None
            if where is not None and name != "ptp":
                wh = (numpy.arange(h.size).reshape(h.shape) % 2 == 0) if where == "mask" \
                    else numpy.zeros(h.shape, bool)
            label = f"{name} {dtype}{shape} {view} {kw} where={where} out={out}"
            ref = None
            if out is not None:
                with numpy.errstate(all="ignore"):
                    try:
                        ref = numpy.asarray(getattr(numpy, name)(view_of(numpy, h, view), **kw))
                    except Exception:  # noqa: BLE001 - compare() checks the exception
                        ref = None

            def f(xp):
                x = view_of(xp, h, view)
                k = dict(kw)
                if wh is not None:
                    k["where"] = view_of(xp, wh, view)
                if ref is not None:
                    o = xp.broadcast_to(xp.zeros((), dtype=ref.dtype), ref.shape) \
                        if out == "readonly" else xp.zeros(ref.shape, dtype=out)
                    r = getattr(xp, name)(x, out=o, **k)
                    assert r is o
                    return o
                return getattr(xp, name)(x, **k)
            fz.compare(label, f, also=HUGE_AXIS)
        run()

    def fuzz_covariance(examples, s):
        """cov/corrcoef: rowvar, bias, ddof, fweights/aweights, y, dtype."""
        @_settings(examples, s)
        @given(name=st.sampled_from(["cov", "corrcoef"]), dtype=fz.dtypes,
               shape=st.lists(st.integers(0, 4), max_size=2).map(tuple),
               rowvar=st.sampled_from([True, False]), bias=st.booleans(),
               ddof=st.sampled_from([None, 0, 1, 3, -1, 1.5]),
               fw=st.sampled_from([None, "ones", "neg", "float", "bad"]),
               aw=st.sampled_from([None, "ones", "neg", "bad"]), with_y=st.booleans(),
               special=st.booleans(), rnd=st.integers(0, 2**16))
        def run(name, dtype, shape, rowvar, bias, ddof, fw, aw, with_y, special, rnd):
            count("covariance")
            h = hostile_data(fz, shape, dtype, rnd, special)
            y = hostile_data(fz, shape, dtype, rnd + 1, special) if with_y else None
            nobs = (h.shape[-1] if rowvar else h.shape[0]) if h.ndim == 2 else h.size
            kw = {"rowvar": rowvar}
            if name == "cov":
                kw["bias"] = bias
                if ddof is not None:
                    kw["ddof"] = ddof
                kw["fweights"] = {None: None, "ones": numpy.ones(nobs, int),
                                  "neg": -numpy.ones(nobs, int),
                                  "float": numpy.full(nobs, 1.5),
                                  "bad": numpy.ones(nobs + 1, int)}[fw]
                kw["aweights"] = {None: None, "ones": numpy.ones(nobs),
                                  "neg": -numpy.ones(nobs),
                                  "bad": numpy.ones(nobs + 1)}[aw]
            label = f"{name} {dtype}{shape} y={with_y} " + str(
                {k: v if not isinstance(v, numpy.ndarray) else v.tolist() for k, v in kw.items()})

            def f(xp):
                k = {a: xp.asarray(v) if isinstance(v, numpy.ndarray) else v
                     for a, v in kw.items()}
                yy = xp.asarray(y) if y is not None else None
                return getattr(xp, name)(xp.asarray(h), yy, **k)
            fz.compare(label, f)
        run()

    classes.update({"sort": fuzz_sort, "search": fuzz_search, "partition": fuzz_partition,
                    "unique": fuzz_unique, "sets": fuzz_sets, "quantiles": fuzz_quantiles,
                    "histograms": fuzz_histograms, "moments": fuzz_moments,
                    "covariance": fuzz_covariance})
