"""The hostile-input fuzzer's classes for linalg, fft, signal, random and polynomials
(registered into tests/fuzz_hostile.py's CLASSES; run them with
``python tests/fuzz_hostile.py --classes <name> --examples N``): ``linalg``, ``products``
(matmul, dot, einsum, tensordot, cross, outer, vecdot), ``fft``, ``signal`` (against
scipy.signal), ``random`` (Generator methods), ``polynomial``.  Results whose values are
not unique (eigenvectors, random streams) are compared by dtype and shape (``meta``)."""

import warnings

import numpy
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st

import garray
from xp import kind as xp_kind

NAN, INF = float("nan"), float("inf")


def meta(r):
    """What a result is, without its values: dtype and shape (arrays and NumPy scalars
    alike), recursively through tuples; the type name of anything else."""
    if hasattr(r, "dtype") and hasattr(r, "shape"):
        return (numpy.dtype(r.dtype).name, tuple(r.shape))
    if isinstance(r, (tuple, list)):
        return tuple(meta(x) for x in r)
    if isinstance(r, (bool, int, float, complex)):  # NumPy's Python scalars: garray's 0-d
        return (numpy.asarray(r).dtype.name, ())
    return type(r).__name__


def _refuses(fz, label, f, exc):
    """garray must raise ``exc`` (a case NumPy answers by another route)."""
    fz.case(label)
    try:
        got = f(garray)
    except Exception as e:  # noqa: BLE001 - checked below
        if isinstance(e, (exc, ValueError)):   # ValueError: another bad argument
            return
        got = f"{type(e).__name__}: {e}"
    raise AssertionError(f"{label}: garray gave {got!r}, expected {exc.__name__}")


def _count(fz, name):
    fz.COUNTS[name] = fz.COUNTS.get(name, 0) + 1


def _settings(examples, s):
    return lambda fn: seed(s)(settings(max_examples=examples, database=None, deadline=None,
                                       suppress_health_check=list(HealthCheck))(fn))


def _operand(fz, shape, dtype, rnd, special):
    """A NumPy operand: data_for's values, or with NaN/inf, or singular (a repeated row)."""
    h = fz.data_for(shape, dtype, rnd)
    if special in ("nan", "inf") and h.size and xp_kind(h.dtype) in "fc":
        h.flat[rnd % h.size] = NAN if special == "nan" else INF
    elif special == "singular" and h.ndim >= 2 and h.shape[-2] >= 2:
        h[..., 1, :] = h[..., 0, :]
    return numpy.zeros_like(h) if special == "zeros" else h


SPECIALS = st.sampled_from(["plain", "plain", "nan", "inf", "singular", "zeros"])
WRONG = [None, "abc", [[1, 2], [3]], 1.5, object()]
mat_shapes = st.one_of(
    st.tuples(st.integers(0, 3), st.integers(0, 3)).map(lambda t: (t[0], t[0]) if t[1] % 2 else t),
    st.tuples(st.integers(0, 2), st.integers(0, 3)).map(lambda t: (t[0], t[1], t[1])),
    st.lists(st.integers(0, 3), max_size=1).map(tuple))
ORDS = [None, 1, -1, 2, -2, INF, -INF, 0, 3, 0.5, "fro", "nuc", "bad", True, NAN]
NORM_AXES = [None, 0, 1, -1, 2, -3, (0, 1), (1, 0), (0, 0), (-1, -2), (0, 1, 2), 1.0, "0"]
LINALG = ["inv", "det", "slogdet", "pinv", "eigvals", "eigvalsh", "eigh", "eig", "svd",
          "svdvals", "qr", "cholesky", "matrix_rank", "matrix_power", "norm", "solve",
          "lstsq", "cond", "trace", "tensorinv"]
# which results have unique values (compared by value), the others by dtype/shape only
BY_VALUE = {"det", "slogdet", "matrix_rank", "matrix_power", "norm", "trace", "eigvalsh",
            "svdvals", "cholesky"}


def fuzz_linalg(fz):
    def run_class(examples, s):
        @_settings(examples, s)
        @given(name=st.sampled_from(LINALG), shape=mat_shapes, dtype=fz.dtypes,
               special=SPECIALS, rnd=st.integers(0, 2**16), wrong=st.integers(0, 12),
               opt=st.integers(0, 20), ordv=st.sampled_from(ORDS),
               axis=st.sampled_from(NORM_AXES), keep=st.booleans(),
               bshape=st.sampled_from(["vec", "mat", "batch", "bad", "scalar"]))
        def run(name, shape, dtype, special, rnd, wrong, opt, ordv, axis, keep, bshape):
            _count(fz, "linalg")
            h = _operand(fz, shape, dtype, rnd, special)
            a_in = WRONG[wrong] if wrong < len(WRONG) else None
            kw = {}
            if name == "qr":
                kw["mode"] = ["reduced", "complete", "r", "raw", "bad", 3][opt % 6]
            elif name == "svd":
                kw = {"full_matrices": bool(opt & 1), "compute_uv": bool(opt & 2)}
            elif name in ("eigh", "eigvalsh"):
                kw["UPLO"] = ["L", "U", "l", "X", 0][opt % 5]
            elif name == "matrix_power":
                kw["n"] = [0, 1, 2, 3, -1, -2, 1.0, True, 2**63, "2", -2**63][opt % 11]
            elif name == "matrix_rank":
                kw["tol"] = [None, 0.5, -1.0, NAN, 1e300][opt % 5]
            elif name == "pinv":
                kw["rcond"] = [None, 1e-15, 0.5, -1.0, NAN][opt % 5]
            elif name == "norm":
                kw = {"ord": ordv, "axis": axis, "keepdims": keep}
            elif name == "cond":
                kw["p"] = ordv
            elif name == "cholesky":
                kw["upper"] = bool(opt & 1)
            elif name == "tensorinv":
                kw["ind"] = [1, 2, 0, -1, 1.0][opt % 5]
            if name == "cholesky" and h.ndim >= 2 and h.shape[-1] == h.shape[-2]:
                with numpy.errstate(all="ignore"):     # often positive definite
                    h = h @ numpy.swapaxes(h.conj(), -1, -2) + 0 * h
            if name in ("eigvalsh", "eigh"):
                h = h + numpy.swapaxes(h.conj(), -1, -2) if h.ndim >= 2 and \
                    h.shape[-1] == h.shape[-2] else h
            n = h.shape[-1] if h.ndim else 1
            b = {"vec": (n,), "mat": (n, 2), "batch": h.shape[:-1] + (2,), "bad": (n + 1,),
                 "scalar": ()}[bshape]
            hb = fz.data_for(b, "float64", rnd + 1)
            # NumPy's tensorinv of a 0-d array crashes in its own reshape (TypeError)
            assume(not (name == "tensorinv" and (h.ndim == 0 or a_in is not None)))
            assume(not (name == "matrix_power" and xp_kind(h.dtype) in "iub"
                        and kw["n"] in (2**63, -2**63)))   # an integer-overflowing loop

            def f(xp):
                la = xp.linalg
                a = xp.asarray(h.copy()) if a_in is None else a_in
                if name in ("solve", "lstsq"):
                    return getattr(la, name)(a, xp.asarray(hb.copy()))
                if name == "trace":
                    return xp.trace(a)
                r = getattr(la, name)(a, **kw)
                if xp is numpy and name in ("eig", "eigvals"):
                    # Deliberate (docs/linalg.md): garray's eig is complex for every
                    # input (the Array API); NumPy's is real when every value is real
                    r = tuple(x.astype(numpy.result_type(x.dtype, numpy.complex64))
                              for x in (r if name == "eig" else (r,)))
                    r = r if name == "eig" else r[0]
                return r
            also = {AttributeError: ValueError}     # NumPy's UPLO=0: 'int' has no .upper
            label = f"linalg.{name} {dtype}{shape} {special} a={a_in!r} kw={kw} b={bshape}"
            if isinstance(a_in, str) or type(a_in) is object:
                # garray has no str or object dtype: the shared as_array refuses such an
                # operand (TypeError) where NumPy's linalg may compute or raise otherwise
                return _refuses(fz, label, f, TypeError)
            if name in BY_VALUE and special == "plain" and a_in is None and (
                    dtype not in ("float16", "float32", "complex64")) and name != "norm" \
                    or name in ("trace", "matrix_rank"):
                fz.compare(label, f, also=also)
            else:
                fz.compare(label, lambda xp: meta(f(xp)), also=also)
        run()
    return run_class


SUBSCRIPTS = ["ij,jk->ik", "ii->i", "ii", "i,i", "ij->ji", "...i,...i->...", "ij,jk",
              "i->", "ij->k", "ij,k", "i,,j", "ijk", "i->ii", "ab,ab->ab", "a-b", "",
              "ij,jk->ikk", "...,...->...", "AZ,Za"]
PRODUCTS = ["matmul", "dot", "vdot", "inner", "einsum", "tensordot", "cross", "outer",
            "vecdot", "kron", "linalg.outer", "linalg.cross", "linalg.tensordot", "multi_dot"]
TD_AXES = [0, 1, 2, -1, 3, ([1], [0]), ([0, 1], [0, 1]), ([0], [0, 0]), ((0,), (5,)), 1.5,
           ([0], []), True, 2**63]
small = st.lists(st.integers(0, 3), max_size=3).map(tuple)


def fuzz_products(fz):
    def run_class(examples, s):
        @_settings(examples, s)
        @given(name=st.sampled_from(PRODUCTS), sh1=small, sh2=small, d1=fz.dtypes,
               d2=fz.dtypes, rnd=st.integers(0, 2**16), opt=st.integers(0, 40),
               special=st.sampled_from(["plain", "plain", "nan", "inf"]),
               out=st.sampled_from([None, None, None] + OUTS))
        def run(name, sh1, sh2, d1, d2, rnd, opt, special, out):
            _count(fz, "products")
            if name not in ("matmul", "dot", "einsum"):
                out = None
            h1 = _operand(fz, sh1, d1, rnd, special)
            h2 = fz.data_for(sh2, d2, rnd + 1)
            kw = {}
            if name == "einsum":
                kw["subscripts"] = SUBSCRIPTS[opt % len(SUBSCRIPTS)]
            elif "tensordot" in name:
                kw["axes"] = TD_AXES[opt % len(TD_AXES)]
            elif name in ("cross", "linalg.cross", "vecdot"):
                kw["axis"] = [-1, 0, 1, 5, 1.0][opt % 5]
            # NumPy reads tensordot's axes=True as 1; garray refuses a bool (a deliberate
            # check in _gemm/contract.py)
            assume(not ("tensordot" in name and kw["axes"] is True))
            # NumPy's linalg.cross of a 0-d operand crashes indexing its shape
            # (IndexError); garray raises ValueError naming the dimensions
            assume(not (name == "linalg.cross" and () in (sh1, sh2)))
            # NumPy's einsum "ii->i" of a (0, n) operand reads n values it does not have
            # (a NumPy bug); garray raises ValueError for the mismatched dimensions
            assume(not (name == "einsum" and kw["subscripts"] in ("ii->i", "ii")
                        and 0 in sh1))
            unary = name == "einsum" and "," not in kw["subscripts"] and "->" in kw[
                "subscripts"] or name == "einsum" and kw["subscripts"] in ("ii", "ijk")

            def f(xp, plain=False):
                a, b = xp.asarray(h1.copy()), xp.asarray(h2.copy())
                mod = xp.linalg if name.startswith("linalg.") else xp
                fn = getattr(mod, name.split(".")[-1])
                if out is not None and not plain:
                    o = _fft_out(xp, out, ref, a)
                    ops = (a,) if unary else (a, b)
                    r = fn(kw["subscripts"], *ops, out=o) if name == "einsum" else fn(
                        a, b, out=o)
                    assert r is o, "out= not returned"
                    return r
                if name == "einsum":
                    return fn(kw["subscripts"], a) if unary else fn(kw["subscripts"], a, b)
                if name == "multi_dot":
                    return xp.linalg.multi_dot([a, b, a][:opt % 4])
                if "tensordot" in name:
                    return fn(a, b, axes=kw["axes"])
                if name in ("cross", "linalg.cross", "vecdot"):
                    return fn(a, b, axis=kw["axis"])
                return fn(a, b)
            ref = None
            if out is not None:         # out= (OUTS) of NumPy's result's shape and dtype
                try:
                    with numpy.errstate(all="ignore"):
                        ref = numpy.asarray(f(numpy, plain=True))
                except Exception:  # noqa: BLE001 - then out= has nothing to check
                    assume(False)
                # NumPy's dot takes no out= but of the result's exact dtype and shape
                # (ValueError "not acceptable"); a 0-d result has no out= to compare
                assume(ref.ndim > 0)
                # NumPy's dot of a 0-d operand takes multiply's out= (casts, broadcasts)
                # for integer and bool results, an exact one for BLAS dtypes; garray's
                # takes the exact one always
                assume(not (name == "dot" and () in (sh1, sh2)))
                # NumPy's einsum broadcasts a length-1 result axis into a longer out's
                assume(not (name == "einsum" and out == "shape"))
            label = f"{name} {d1}{sh1} {special} {d2}{sh2} {kw} out={out}"
            # float16 products accumulate in float32 in garray and NumPy alike, but
            # NumPy's float16 matmul rounds per step: compare float16 results by kind
            if "float16" in (d1, d2) or special != "plain":
                fz.compare(label, lambda xp: meta(f(xp)))
            else:
                fz.compare(label, f)
        run()
    return run_class


FFTS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn",
        "irfftn", "fft2", "rfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
N_VALUES = [None, 0, -1, 1, 2, 3, 5, True, 2.0, 2**62, 2**63, "3"]
AXIS_VALUES = [-1, 0, 1, 2, -3, 1.0, True, None]
S_VALUES = [None, (2,), (0,), (-1,), (2, 3), (3, 3, 3), 2, (2.0,), (True,), (2**62,), (None,)]
AXES_VALUES = [None, (0,), (-1,), (0, 0), (0, 1), (1, 0), (5,), (0.0,), (), 0, (-1, -1, 0)]
NORMS = [None, "backward", "ortho", "forward", "bad", 1]


OUTS = ["new", "complex64", "float64", "shape", "readonly", "alias"]


def _fft_out(xp, kind, ref, x):
    """An out= array for a result like ``ref`` (NumPy's): of its shape and dtype, another
    dtype or shape, read-only, or the input itself where it has the result's layout."""
    if kind == "alias" and x.shape == ref.shape and x.dtype == ref.dtype:
        return x
    shape = ref.shape[:-1] + (ref.shape[-1] + 1,) if kind == "shape" and ref.ndim else \
        ref.shape
    dt = {"complex64": "complex64", "float64": "float64"}.get(kind, ref.dtype)
    o = xp.zeros(shape, dtype=dt)
    if kind == "readonly":
        o.flags.writeable = False
    return o


def fuzz_fft(fz):
    def run_class(examples, s):
        @_settings(examples, s)
        @given(name=st.sampled_from(FFTS), shape=small, dtype=fz.dtypes,
               rnd=st.integers(0, 2**16), n=st.sampled_from(N_VALUES),
               axis=st.sampled_from(AXIS_VALUES), ss=st.sampled_from(S_VALUES),
               axes=st.sampled_from(AXES_VALUES), norm=st.sampled_from(NORMS),
               special=st.sampled_from(["plain", "plain", "nan", "inf"]),
               d=st.sampled_from([1.0, 0.5, 0, -1.0, NAN, "x", 2]),
               bad=st.sampled_from(["n", "axis", "s", "axes", "norm", "d", "out", "out"]),
               out=st.sampled_from(OUTS))
        def run(name, shape, dtype, rnd, n, axis, ss, axes, norm, special, d, bad, out):
            _count(fz, "fft")
            # one hostile argument per case (NumPy's order of checks is not garray's)
            if name in ("rfft", "ihfft", "rfftn", "rfft2") and dtype.startswith("complex"):
                bad = "dtype"                   # a complex input is the hostile argument
            if shape == () and name not in ("fftfreq", "rfftfreq"):
                bad = "shape"                   # so is a 0-d input
            n = n if bad == "n" else None
            axis = axis if bad == "axis" else -1
            ss = ss if bad == "s" else None
            axes = axes if bad == "axes" else None
            norm = norm if bad == "norm" else None
            d = d if bad == "d" else 1.0
            # NumPy's hfft ignores its out= (it returns a new array: a NumPy bug)
            out = out if bad == "out" and name not in (
                "fftfreq", "rfftfreq", "fftshift", "ifftshift", "hfft") else None
            ref = None
            # garray's shared normalize_axis refuses a bool axis; NumPy indexes with it
            assume(not isinstance(axis, bool))
            # NumPy's rfft, ihfft and rfftn take a bool n or s (fft, irfft, hfft, fftn refuse
            # it: TypeError); garray refuses it everywhere (docs/reliability.md)
            assume(not (isinstance(n, bool) or isinstance(ss, tuple) and any(
                isinstance(v, bool) for v in ss)))
            # NumPy's fftn and fft2 of a 0-d input with an int axes crash on an empty
            # take (IndexError); with any other input they raise TypeError, as garray
            assume(not (shape == () and isinstance(axes, int)))
            # NumPy takes a float axes to read an empty input's length (then n=0 is its
            # ValueError) and refuses it otherwise (TypeError); garray always refuses it
            assume(not ((0 in shape or shape == ()) and axes == (0.0,)))
            # NumPy's rfftfreq computes n // 2 + 1 first: -1 or 2**64 give an empty result
            assume(not (name == "rfftfreq" and isinstance(n, int) and not 0 <= n < 2**63))
            # Known and decided: the real FFTs of non-finite input give NaN in more bins
            # than NumPy (pocketfft's real path differs): excluded for them.  The complex
            # FFTs too for inf (an inf times a zero twiddle part is NaN: inf+nanj where
            # NumPy has inf+0j): inf is excluded for every transform, NaN compared there
            real = name in ("rfft", "irfft", "hfft", "ihfft", "rfftn", "irfftn", "rfft2")
            assume(not (special == "inf" and name not in ("fftfreq", "rfftfreq",
                                                          "fftshift", "ifftshift")))
            assume(not (special == "nan" and real))
            h = _operand(fz, shape, dtype, rnd, special)

            def f(xp, plain=False):
                fn = getattr(xp.fft, name)
                if name in ("fftfreq", "rfftfreq"):
                    return fn(n if n is not None else 4, d)
                x = xp.asarray(h.copy())
                if name in ("fftshift", "ifftshift"):
                    return fn(x, axes=axes)
                kw = {"norm": norm}
                if not plain and out is not None:
                    kw["out"] = _fft_out(xp, out, ref, x)
                if name in ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "rfft2"):
                    if not (name in ("fft2", "rfft2") and axes is None):
                        kw["axes"] = axes
                    r = fn(x, s=ss, **kw)
                else:
                    r = fn(x, n=n, axis=axis if axis is not None else -1, **kw)
                if "out" in kw:
                    assert r is kw["out"], "out= not returned"
                return r
            if out is not None:                 # out= of the result's shape and dtype
                try:
                    with numpy.errstate(all="ignore"):
                        ref = f(numpy, plain=True)
                except Exception:  # noqa: BLE001 - then out= has nothing to check
                    assume(False)
            label = (f"fft.{name} {dtype}{shape} {special} n={n!r} axis={axis!r} s={ss!r} "
                     f"axes={axes!r} norm={norm!r} d={d!r} out={out}")
            if dtype == "float16" and (norm in ("ortho", "forward") or name not in (
                    "fft", "fftn", "fft2", "rfft", "rfftn", "rfft2", "fftshift",
                    "ifftshift")):
                # NumPy rounds the 1/n (1/sqrt(n)) factor of a float16 input to float16;
                # garray scales in the transform's precision: compare dtype and shape
                fz.compare(label, lambda xp: meta(f(xp)))
            else:
                fz.compare(label, f)
        run()
    return run_class


def _signal(xp):
    if xp is numpy:
        import scipy.signal  # noqa: PLC0415 - the reference is scipy.signal, optional
        return scipy.signal
    return xp.signal


SIGNAL = ["convolve", "correlate", "convolve2d", "correlate2d", "fftconvolve",
          "oaconvolve", "choose_conv_method", "np.convolve", "np.correlate"]


def fuzz_signal(fz):
    def run_class(examples, s):
        @_settings(examples, s)
        @given(name=st.sampled_from(SIGNAL), sh1=small, sh2=small, d1=fz.dtypes,
               d2=fz.dtypes, rnd=st.integers(0, 2**16),
               mode=st.sampled_from(["full", "same", "valid", "bad", 0, None]),
               method=st.sampled_from(["auto", "direct", "fft", "bad", None]),
               boundary=st.sampled_from(["fill", "wrap", "symm", "bad"]),
               fill=st.sampled_from([0, 1.5, NAN, 1j, "x", [1, 2]]),
               special=st.sampled_from(["plain", "plain", "nan", "inf"]))
        def run(name, sh1, sh2, d1, d2, rnd, mode, method, boundary, fill, special):
            _count(fz, "signal")
            assume(mode is not None)
            h1 = _operand(fz, sh1, d1, rnd, special)
            h2 = fz.data_for(sh2, d2, rnd + 1)
            # scipy's fftconvolve and oaconvolve return an empty operand before checking
            # mode; garray checks mode first (a deliberate difference)
            assume(not (name in ("fftconvolve", "oaconvolve") and mode not in (
                "full", "same", "valid") and 0 in sh1 + sh2))
            # scipy's choose_conv_method crashes on empty or 0-d operands (a max over
            # an empty shape: ValueError; IndexError); garray answers "direct"
            assume(not (name == "choose_conv_method" and (
                0 in sh1 + sh2 or () in (sh1, sh2))))
            # scipy's choose_conv_method takes int() of an integer operand's max times
            # the other's (NaN/inf: ValueError/OverflowError) and checks mode on its FFT
            # path alone; garray checks mode always and needs no such product
            assume(not (name == "choose_conv_method" and (
                special != "plain" or mode not in ("full", "same", "valid"))))
            # Deliberate (tests/signal): garray's N-d direct method computes float16 in
            # float32 where scipy's refuses it ("Unsupported type", ValueError)
            assume(not (name in ("convolve", "correlate") and method in ("direct", "auto")
                        and "float16" in (d1, d2)))
            # the same int() in convolve/correlate's method="auto" (with an integer
            # operand: NaN/inf raise there, before scipy's mode check)
            assume(not (method == "auto" and special != "plain"))
            # scipy's FFT method crashes on an empty operand (IndexError)
            assume(not (name in ("convolve", "correlate") and method in ("fft", "auto")
                        and 0 in sh1 + sh2))
            # Deliberate: garray refuses an empty operand of convolve2d/correlate2d
            # (ValueError) with every boundary; scipy computes nonsense shapes for wrap/symm
            assume(not (name in ("convolve2d", "correlate2d") and 0 in sh1 + sh2))
            # Deliberate: garray's direct convolve/correlate refuses an empty operand
            # (ValueError, naming the shapes); scipy returns an empty result, or in mode
            # "valid" one larger than its operands
            assume(not (name in ("convolve", "correlate") and 0 in sh1 + sh2))
            if name.startswith("np."):
                h1, h2 = h1.reshape(-1), h2.reshape(-1)
                assume(mode in ("full", "same", "valid", "bad"))

            def f(xp):
                a, b = xp.asarray(h1.copy()), xp.asarray(h2.copy())
                if name.startswith("np."):
                    return getattr(xp, name[3:])(a, b, mode=mode)
                sig = _signal(xp)
                fn = getattr(sig, name)
                if name in ("convolve", "correlate"):
                    return fn(a, b, mode=mode, method=method)
                if name in ("convolve2d", "correlate2d"):
                    return fn(a, b, mode=mode, boundary=boundary, fillvalue=fill)
                if name == "choose_conv_method":
                    return fn(a, b, mode=mode)
                return fn(a, b, mode=mode)
            label = (f"signal.{name} {d1}{sh1} {special} {d2}{sh2} mode={mode!r} "
                     f"method={method!r} boundary={boundary} fill={fill!r}")
            # FFT methods round differently from direct sums: their non-finite results
            # and their float16 values are compared by dtype/shape
            if special != "plain" or "float16" in (d1, d2) or method in ("fft", "auto") and \
                    name in ("convolve", "correlate") or name in ("fftconvolve", "oaconvolve"):
                fz.compare(label, lambda xp: meta(f(xp)))
            else:
                fz.compare(label, f)
        run()
    return run_class


SIZES = [None, 0, 3, (2, 3), (0, 2), -1, (2, -1), 2.0, (2.0,), True, 2**63, 2**64, "3", ()]
PARAMS = [0, 1, -1, 0.5, NAN, INF, -INF, 1e20, 2**63, "x", None, [0.5, 2.0], [[-1.0]]]
RANDOM = {  # method: number of distribution parameters
    "integers": 2, "random": 0, "uniform": 2, "normal": 2, "standard_normal": 0,
    "exponential": 1, "gamma": 2, "beta": 2, "binomial": 2, "poisson": 1,
    "geometric": 1, "negative_binomial": 2, "hypergeometric": 3, "lognormal": 2,
    "laplace": 2, "logistic": 2, "chisquare": 1, "standard_t": 1, "weibull": 1,
    "pareto": 1, "power": 1, "rayleigh": 1, "zipf": 1, "logseries": 1, "triangular": 3,
    "vonmises": 2, "wald": 2, "standard_gamma": 1, "standard_exponential": 0,
    "choice": 1, "permutation": 1, "shuffle": 1, "permuted": 1, "multinomial": 2,
    "dirichlet": 1}
RDTYPES = [None, "float32", "float64", "int8", "uint64", "int64", "bool", "complex64",
           "float16", int, "x"]


def fuzz_random(fz):
    def run_class(examples, s):
        @_settings(examples, s)
        @given(name=st.sampled_from(sorted(RANDOM)), p=st.lists(
                   st.sampled_from(PARAMS), min_size=3, max_size=3),
               size=st.sampled_from(SIZES), dtype=st.sampled_from(RDTYPES),
               opt=st.integers(0, 20), shape=small, adt=fz.dtypes, rnd=st.integers(0, 99))
        def run(name, p, size, dtype, opt, shape, adt, rnd):
            _count(fz, "random")
            k = RANDOM[name]
            args = p[:k]
            kw = {}
            if size is not None and name not in ("permutation", "shuffle", "permuted"):
                kw["size"] = size
            if name in ("integers", "random", "standard_normal", "standard_exponential",
                        "standard_gamma") and dtype is not None:
                kw["dtype"] = dtype
            if name == "integers":
                kw["endpoint"] = bool(opt & 1)
            arr = fz.data_for(shape, adt, rnd)
            if name in ("permutation", "shuffle", "permuted", "choice") and opt % 3:
                args = [arr]                    # an array operand
            if name == "choice":
                kw["replace"] = bool(opt & 4)
                if opt & 8:
                    kw["p"] = [[0.5, 0.5], [1.0], [-0.5, 1.5], [NAN], None][opt % 5]
            if name in ("permuted", "shuffle") and opt & 16:
                kw["axis"] = [0, 1, -1, 5, None][opt % 5]
            # 1e20/2**63 trials or means: NumPy's own limits (ValueError) are what matter,
            # but sampling huge poisson/zipf loops can take long; keep sizes small
            assume(not (isinstance(size, int) and size > 100))

            def f(xp):
                if xp is numpy and also:
                    try:
                        return f2(xp)
                    except Exception as e:  # noqa: BLE001 - NumPy's private classes
                        raise fz.expected_exception(e)(str(e)) from None
                return f2(xp)

            def f2(xp):
                g = xp.random.default_rng(rnd)
                a = [xp.asarray(x.copy()) if isinstance(x, numpy.ndarray) else x
                     for x in args]
                r = getattr(g, name)(*a, **kw)
                r = a[0] if name == "shuffle" else r
                if isinstance(r, (bool, int, float, complex)) or getattr(r, "shape", 1) == ():
                    # NumPy's scalar draws are Python scalars (random(dtype=float32):
                    # a float), garray's 0-d arrays: compare the kind
                    return ("scalar", numpy.asarray(r).dtype.kind if xp is numpy else
                            numpy.dtype(r.dtype).kind)
                return r
            refused = (TypeError, ValueError, OverflowError)
            also = None
            if any(isinstance(x, str) or x is None for x in args):
                # a str or None parameter: NumPy fails converting it (ValueError, ...),
                # garray's shared as_array refuses it (TypeError)
                also = {t: refused for t in (ValueError, TypeError, OverflowError,
                                             numpy.exceptions.AxisError)}
            # NumPy's dirichlet takes a bool size (an int); its other methods refuse it
            assume(not (name == "dirichlet" and size is True))
            # NumPy's permutation(2**63) and choice(2**63) wrap to an empty range
            assume(not (name in ("permutation", "choice") and args and
                        isinstance(args[0], int) and args[0] >= 2**63))
            # NumPy's integers with an empty size returns before it converts low and
            # high; garray checks them first (a deliberate difference)
            assume(not (name == "integers" and kw.get("size") in (0, (0, 2))))
            if "size" in kw and size not in (None, 0, 3, (2, 3), (0, 2), ()):
                # a bad size with bad parameters: NumPy checks the parameters first; garray
                # may refuse the size first (either way a TypeError or ValueError)
                also = {**(also or {}),
                        **{t: refused for t in (ValueError, TypeError, OverflowError)}}
            fz.compare(f"random.{name} args={args!r} kw={kw}", lambda xp: meta(f(xp)),
                       also=also)
        run()
    return run_class


POLY = ["polyfit", "polyval", "roots", "poly1d", "poly", "polyder", "polyint", "polyadd",
        "polymul", "polysub", "polydiv"]
DEGS = [0, 1, 2, 5, -1, 1.5, True, "2", 2**63, None]


def fuzz_polynomial(fz):
    def run_class(examples, s):
        @_settings(examples, s)
        @given(name=st.sampled_from(POLY), n1=st.integers(0, 5), n2=st.integers(0, 5),
               d1=fz.dtypes, d2=fz.dtypes, rnd=st.integers(0, 2**16),
               deg=st.sampled_from(DEGS), two_d=st.booleans(),
               special=st.sampled_from(["plain", "plain", "nan", "inf", "zeros"]))
        def run(name, n1, n2, d1, d2, rnd, deg, two_d, special):
            _count(fz, "polynomial")
            # NumPy's polyder and polyint of a 2-d input broadcast by accident (fail or
            # not by its row count); garray differentiates along the first axis
            assume(not (name in ("polyder", "polyint") and two_d))
            h1 = _operand(fz, (n1, 2) if two_d else (n1,), d1, rnd, special)
            h2 = fz.data_for((n1 if name == "polyfit" else n2,), d2, rnd + 1)
            if name == "polyfit" and special == "plain":
                h1 = numpy.arange(n1).astype(d1)
            if name == "polyder" and deg == 2**63:
                fz.case(f"polyder m=2**63 {d1}{h1.shape}")  # NumPy: RecursionError
                garray.polyder(garray.asarray(h1), m=deg)
                return

            def f(xp):
                a, b = xp.asarray(h1.copy()), xp.asarray(h2.copy())
                if name == "polyfit":
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")     # RankWarning
                        return xp.polyfit(a, b, deg)
                if name in ("polyder", "polyint"):
                    return getattr(xp, name)(a, m=deg if deg is not None else 1)
                if name == "poly1d":
                    p = xp.poly1d(a, r=bool(n2 & 1))
                    return p.coeffs
                if name in ("roots", "poly"):
                    return getattr(xp, name)(a)
                return getattr(xp, name)(a, b)
            label = f"{name} {d1}{h1.shape} {special} {d2}{h2.shape} deg={deg!r}"
            if name in ("roots", "polyfit", "poly") or special != "plain" or "float16" in (
                    d1, d2):
                fz.compare(label, lambda xp: meta(f(xp)))
            else:
                fz.compare(label, f)
        run()
    return run_class


def register(classes, fz):
    """Add this module's fuzz classes to ``classes``; ``fz`` is tests/fuzz_hostile.py."""
    classes["linalg"] = fuzz_linalg(fz)
    classes["products"] = fuzz_products(fz)
    classes["fft"] = fuzz_fft(fz)
    classes["signal"] = fuzz_signal(fz)
    classes["random"] = fuzz_random(fz)
    classes["polynomial"] = fuzz_polynomial(fz)
