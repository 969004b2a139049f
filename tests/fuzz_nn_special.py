"""The hostile-input fuzzer's classes for garray.special (against scipy.special) and
garray.nn (against tests/nn_reference.py), registered into tests/fuzz_hostile.py's
CLASSES; run them with ``python tests/fuzz_hostile.py --classes <name> --examples N``:
``special``, ``nn_conv`` (convolutions, transposed convolutions and their gradients),
``nn_pool`` (max and average pooling and their gradients).

garray.nn follows PyTorch, which is not installed here, so its oracle is the float64
reference: an accepted call must give the reference's shape, the input's dtype and the
reference's values; a refused call must raise ValueError, TypeError, IndexError or
NotImplementedError naming the function, and a plainly valid call (positive integer
geometry that fits, float32/float64 operands, matching channels) must not be refused."""

import math

import numpy
import scipy.special
from hypothesis import assume, given
from hypothesis import strategies as st

import garray
import garray.nn
import garray.special
import nn_reference as ref

NAN, INF = float("nan"), float("inf")
SPECIAL_FUNCS = ["erf", "erfc", "ndtr", "gammaln", "expit", "logit"]
PLANTED = [NAN, INF, -INF, -0.0, 1e300, -1e300, 5e-324, 0.5, 1.0, 0.0, -1.0, -2.5, 1e-8,
           0.9999999, 27.0, -27.0, 171.5]
REFUSED = (ValueError, TypeError, IndexError, NotImplementedError)
# a geometry entry: mostly small and valid, sometimes hostile
HOSTILE_GEOM = [0, -1, 2**31, 2**63, 1.0, True, "1", None, (1,), (1, 1, 1, 1)]


def geom(lo, hi):
    """A geometry entry: an int in [lo, hi] nine times in ten, else a hostile value."""
    return st.tuples(st.integers(0, 9), st.integers(lo, hi),
                     st.sampled_from(HOSTILE_GEOM)).map(lambda t: t[2] if t[0] == 7 else t[1])


# ---- special ----------------------------------------------------------------------------

def fuzz_special(fz):
    def run_class(examples, s):
        @fz.class_settings(examples, s)
        @given(name=st.sampled_from(SPECIAL_FUNCS), dtype=fz.dtypes, shape=fz.small_shapes,
               planted=st.lists(st.sampled_from(PLANTED), max_size=4),
               kind=st.sampled_from(["array", "view", "numpy", "scalar", "numpy scalar",
                                     "list", "bad"]),
               rnd=st.integers(0, 2**16))
        def run(name, dtype, shape, planted, kind, rnd):
            fz.count("special")
            h = fz.data_for(shape, dtype, rnd)
            if h.dtype.kind in "fc" and h.size:
                numpy.seterr(over="ignore")           # 1e300 into float16/float32
                flat = h.reshape(-1)
                rng = numpy.random.default_rng(rnd)
                flat[:] = flat + rng.random(flat.size).astype(flat.real.dtype)
                for i, v in enumerate(planted[:flat.size]):
                    flat[(rnd + 7 * i) % flat.size] = v
            bad = [None, "x", object(), [[1.0], [1.0, 2.0]], {1: 2}][rnd % 5]
            # garray refuses NumPy arrays (Note [NumPy input]); complex erf, erfc and ndtr
            # are documented as not implemented (no Faddeeva function yet)
            refused = {"numpy": TypeError}.get(kind)
            if h.dtype.kind == "c" and name in ("erf", "erfc", "ndtr") and kind != "bad":
                refused = refused or NotImplementedError
            if refused:
                fz.case(f"special.{name} {kind} {dtype}{shape}")
                try:
                    getattr(garray.special, name)(h if kind == "numpy" else garray.asarray(h))
                except refused as e:
                    assert name in str(e), e
                    return
                raise AssertionError(f"special.{name} {kind} {dtype}: not refused")

            def f(xp):
                sp = scipy.special if xp is numpy else garray.special
                if kind == "array":
                    arg = xp.asarray(h)
                elif kind == "view":
                    arg = xp.asarray(h)[::-1] if h.ndim else xp.asarray(h)
                elif kind == "scalar":
                    arg = h.reshape(-1)[0].item() if h.size else 0.25
                elif kind == "numpy scalar":
                    arg = h.reshape(-1)[0] if h.size else numpy.float32(0.25)
                elif kind == "list":
                    arg = h.tolist()
                else:
                    arg = bad
                r = getattr(sp, name)(arg)
                if xp is numpy and not isinstance(r, numpy.ndarray):
                    r = numpy.asarray(r)          # SciPy's scalars: garray's 0-d arrays
                return r
            if name == "gammaln" and h.dtype == numpy.float64 and numpy.any(
                    (h != 0) & (numpy.abs(h) < 2.0**-1024)):
                return        # SciPy's inf against -log|x|: docs/reliability.md
            # SciPy's Cephes/xsf against the libm's erf/lgamma: a few ulps apart, and
            # lgamma loses relative accuracy near its zeros (x = 1, 2)
            fz.compare(f"special.{name} {kind} {dtype}{shape} {planted}", f,
                       rtol=1e-5 if dtype in ("float32", "complex64") else 1e-12,
                       atol=1e-6 if dtype in ("float32", "complex64") else 1e-14)
        run()
    return run_class


# ---- nn: helpers --------------------------------------------------------------------------

def _plain(*vals):
    """Every value a plain int (not bool) or a tuple of them."""
    flat = []
    for v in vals:
        flat.extend(v if isinstance(v, tuple) else (v,))
    return all(type(v) is int for v in flat)


_FZ = [None]       # tests/fuzz_hostile.py, set by register


def _no_reference(why):
    raise ValueError(f"no reference: {why}")


def _huge(*vals):
    """Any int entry at or past 2**31: the float64 reference cannot pad that far."""
    return any(type(v) is int and abs(v) >= 2**31 for t in vals
               for v in (t if isinstance(t, tuple) else (t,)))


def _conv_elements(op, nd, n, cout, size, kernel, stride, padding, dilation):
    """How many elements a convolution's result has (its geometry in plain ints)."""
    if op == "conv_transpose":
        ext = [(size - 1) * st + d * (kernel - 1) + 1 for st, d in zip(stride, dilation)]
    elif op == "conv":
        ext = [(size + 2 * p - d * (kernel - 1) - 1) // st + 1
               for st, p, d in zip(stride, padding, dilation)]
    else:
        ext = [size] * nd
    return n * cout * math.prod(max(e, 0) for e in ext)


def _tup(v, nd):
    """An entry as nd values; a one-element tuple repeats, as PyTorch (and garray) take it."""
    if isinstance(v, tuple):
        return v * nd if len(v) == 1 else v
    return (v,) * nd


def _check(label, fn_name, call, expect, valid, tol):
    """call() must give expect() (a tuple of float64 NumPy arrays and the dtype), or raise
    one of REFUSED naming fn_name; a valid case must not be refused."""
    _FZ[0].case(label)
    try:
        got = call()
    except REFUSED as e:
        if valid:
            raise AssertionError(f"{label}: a valid call raised {type(e).__name__}: {e}") \
                from None
        if isinstance(e, (ValueError, TypeError, NotImplementedError)):
            assert fn_name in str(e) or "garray" in str(e), f"{label}: message {e}"
        return
    if expect is None:           # geometry past the reference's reach: no values to compare
        for g in got if isinstance(got, tuple) else (got,):
            assert isinstance(g, garray.ndarray), f"{label}: {type(g)}"
        return
    try:
        want, dtype = expect()
    except Exception as e:  # noqa: BLE001 - garray accepted what the reference cannot do
        raise AssertionError(f"{label}: garray gave a result where the reference raised "
                             f"{type(e).__name__}: {e}") from None
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(want), label
    for g, w in zip(got, want):
        assert isinstance(g, garray.ndarray), f"{label}: {type(g)}"
        assert g.shape == w.shape, f"{label}: shape {g.shape} != reference {w.shape}"
        if w.dtype.kind == "i":
            assert g.dtype == numpy.int64, f"{label}: indices {g.dtype}"
            numpy.testing.assert_array_equal(g.get(), w, err_msg=label)
        else:
            assert g.dtype == dtype, f"{label}: dtype {g.dtype} != {dtype}"
            numpy.testing.assert_allclose(g.get().astype(numpy.float64), w, rtol=tol,
                                          atol=tol, err_msg=label)


def _operands(rnd, shapes, dtype, layout):
    rng = numpy.random.default_rng(rnd)
    hs = [rng.standard_normal(s).astype(dtype) if numpy.dtype(dtype).kind != "b"
          else rng.random(s) > 0.5 for s in shapes]
    gs = []
    for h in hs:
        g = garray.asarray(h)
        if layout == "strided" and h.ndim:
            g = garray.asarray(numpy.repeat(h, 2, axis=-1))[..., ::2]
        elif layout == "numpy":
            g = h
        gs.append(g)
    return hs, gs


NN_DTYPES = st.sampled_from(["float32", "float64"] * 6 + ["float16", "int32",
                             "bool", "complex64"])
LAYOUTS = st.sampled_from(["plain"] * 5 + ["strided"] * 4 + ["numpy"])
CHANNELS = st.sampled_from([1, 1, 2, 2, 3, 4, 0])
SIZES = st.sampled_from([4, 5, 6, 3, 2, 1, 0])


def _tol(dtype):
    return 1e-4 if dtype == "float32" else 1e-9


# ---- nn: convolutions --------------------------------------------------------------------

CONV_OPS = ["conv", "conv_transpose", "conv_backward_input", "conv_backward_weight"]


def fuzz_nn_conv(fz):
    def run_class(examples, s):
        @fz.class_settings(examples, s)
        @given(op=st.sampled_from(CONV_OPS), nd=st.integers(1, 3), n=st.sampled_from([1, 2, 0]),
               cin=CHANNELS, cout=CHANNELS, groups=geom(1, 2), size=SIZES,
               kernel=st.sampled_from([1, 2, 2, 3, 3, 0]), stride=geom(1, 3),
               padding=geom(0, 2), dilation=geom(1, 2), opad=st.integers(0, 2),
               bias=st.sampled_from([None, "right", "right", "wrong"]), dtype=NN_DTYPES,
               layout=LAYOUTS,
               rnd=st.integers(0, 2**16))
        def run(op, nd, n, cin, cout, groups, size, kernel, stride, padding, dilation, opad,
                bias, dtype, layout, rnd):
            fz.count("nn_conv")
            g_ = groups if type(groups) is int and 0 < groups < 4 else 1
            if cin != 3:                  # channel counts that groups divide, mostly
                cin, cout = cin * g_, cout * g_
            per = max(cin // g_, 0)
            xshape = (n, cin) + (size,) * nd
            if op == "conv_transpose":
                wshape = (cin, max(cout // g_, 0)) + (kernel,) * nd
            else:
                wshape = (cout, per) + (kernel,) * nd
            hs, gs = _operands(rnd, [xshape, wshape, (cout if bias == "right" else cout + 1,)],
                               dtype, layout)
            hx, hw, hb = hs
            gx, gw, gb = gs
            if bias is None:
                hb = gb = None
            plain = _plain(stride, padding, dilation) and type(groups) is int and all(
                v >= 1 for v in _tup(stride, nd) + _tup(dilation, nd) + (groups,)) and all(
                v >= 0 for v in _tup(padding, nd)) and all(
                len(_tup(v, nd)) == nd for v in (stride, padding, dilation))
            fn = (f"conv_transpose{nd}d" if op == "conv_transpose"
                  else op.replace("conv", f"conv{nd}d", 1))
            label = (f"{fn} x{xshape} w{wshape} bias={bias} stride={stride!r} "
                     f"padding={padding!r} dilation={dilation!r} groups={groups!r} "
                     f"opad={opad} {dtype} {layout}")
            f = getattr(garray.nn, fn)
            huge = _huge(stride, padding, dilation)
            if huge and plain:                 # an output of billions of elements is a
                assume(_conv_elements(op, nd, n, cout, size, kernel, _tup(stride, nd),
                                      _tup(padding, nd), _tup(dilation, nd)) < 10**7)
            ok_dtype = dtype in ("float32", "float64") and layout != "numpy" and \
                groups == g_ and not _huge(stride, padding, dilation)
            common = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
            r_st, r_pad, r_dil = (_tup(v, nd) if plain else v
                                  for v in (stride, padding, dilation))
            if op == "conv":
                span = [d * (kernel - 1) + 1 for d in _tup(dilation, nd)] if plain else []
                valid = plain and ok_dtype and bias != "wrong" and kernel >= 1 and \
                    cin >= 1 and cout >= 1 and cin % g_ == 0 and cout % g_ == 0 and all(
                        size + 2 * p >= sp for p, sp in zip(_tup(padding, nd), span))

                def expect():
                    assert plain and bias != "wrong"
                    return (ref.conv_nd(hx, hw, hb, r_st, r_pad, None, r_dil,
                                        groups),), numpy.dtype(dtype)
                _check(label, fn, lambda: f(gx, gw, gb, **common), None if huge else expect, valid,
                       _tol(dtype))
            elif op == "conv_transpose":
                op_ = min(opad, max(min(_tup(stride, nd) + _tup(dilation, nd)) - 1, 0)) \
                    if plain else opad
                valid = plain and ok_dtype and bias != "wrong" and kernel >= 1 and \
                    cin >= 1 and cout >= 1 and cin % g_ == 0 and cout % g_ == 0 and all(
                        (size - 1) * st_ - 2 * p + d * (kernel - 1) + op_ + 1 >= 1
                        for st_, p, d in zip(_tup(stride, nd), _tup(padding, nd),
                                             _tup(dilation, nd))) and size >= 1

                def expect():
                    assert plain and bias != "wrong"
                    return (ref.conv_transpose_nd(hx, hw, hb, r_st, r_pad, op_, groups,
                                                  r_dil),), numpy.dtype(dtype)
                _check(label, fn, lambda: f(gx, gw, gb, stride=stride, padding=padding,
                                            output_padding=op_, groups=groups,
                                            dilation=dilation),
                       None if huge else expect, valid, _tol(dtype))
            else:
                # the output gradient has the forward's output shape (or a wrong one)
                if plain and not huge and kernel >= 1 and all(v >= 1 for v in _tup(stride, nd)):
                    out = tuple((size + 2 * p - d * (kernel - 1) - 1) // st_ + 1
                                for st_, p, d in zip(_tup(stride, nd), _tup(padding, nd),
                                                     _tup(dilation, nd)))
                else:
                    out = (1,) * nd
                if bias == "wrong":
                    out = tuple(o + 1 for o in out)
                (hdy,), (gdy,) = _operands(rnd + 1, [(n, cout) + tuple(max(o, 0) for o in out)],
                                           dtype, layout)
                valid = plain and ok_dtype and bias != "wrong" and kernel >= 1 and \
                    cin >= 1 and cout >= 1 and cin % g_ == 0 and cout % g_ == 0 and \
                    all(o >= 1 for o in out)
                if op == "conv_backward_input":
                    def expect():
                        assert plain and bias != "wrong"
                        return (ref.conv_backward_input_nd(hdy, hw, xshape, r_st, r_pad,
                                                           None, r_dil, groups),), \
                            numpy.dtype(dtype)
                    _check(label, fn, lambda: f(xshape, gw, gdy, **common),
                           None if huge else expect, valid, _tol(dtype))
                else:
                    def expect():
                        assert plain and bias != "wrong"
                        return (ref.conv_backward_weight_nd(hx, hdy, wshape, r_st, r_pad,
                                                            None, r_dil, groups),), \
                            numpy.dtype(dtype)
                    _check(label, fn, lambda: f(gx, wshape, gdy, **common),
                           None if huge else expect, valid, _tol(dtype))
        run()
    return run_class


# ---- nn: pooling --------------------------------------------------------------------------

POOL_OPS = ["max", "avg", "max_backward", "avg_backward"]


def fuzz_nn_pool(fz):
    def run_class(examples, s):
        @fz.class_settings(examples, s)
        @given(op=st.sampled_from(POOL_OPS), nd=st.integers(1, 3), n=st.sampled_from([1, 2, 0]),
               c=CHANNELS, size=SIZES, kernel=geom(1, 3),
               stride=st.one_of(st.none(), geom(1, 3)), padding=geom(0, 1),
               dilation=geom(1, 2),
               ceil=st.booleans(), include=st.booleans(),
               divisor=st.sampled_from([None, None, 1, 3, 0, -2, 2.5]),
               bad_index=st.sampled_from([None, None, -1, "past", 2**40]),
               dtype=NN_DTYPES, layout=LAYOUTS, rnd=st.integers(0, 2**16))
        def run(op, nd, n, c, size, kernel, stride, padding, dilation, ceil, include,
                divisor, bad_index, dtype, layout, rnd):
            fz.count("nn_pool")
            xshape = (n, c) + (size,) * nd
            (hx,), (gx,) = _operands(rnd, [xshape], dtype, layout)
            kind = op.split("_")[0]
            fn = f"{kind}_pool{nd}d"
            st_ = kernel if stride is None else stride
            dil = dilation if kind == "max" or nd == 1 else 1   # avg_pool2d/3d have none
            plain = _plain(kernel, st_, padding, dil) and all(
                len(_tup(v, nd)) == nd for v in (kernel, st_, padding, dil))
            if plain:
                k, s_, p, d = (_tup(v, nd) for v in (kernel, st_, padding, dil))
                plain = min(k + s_ + d) >= 1 and min(p) >= 0
            # entries past 2**31: the Python-loop reference would walk the window tap by
            # tap (no values to compare); past 2**62 garray refuses them (ValueError)
            huge = _huge(kernel, st_, padding, dil)
            if plain:
                d = d if kind == "max" else (1,) * nd
                out = tuple(ref.pool_output_size(size, k[i], s_[i], p[i], d[i], ceil)
                            for i in range(nd))
                # an output of billions of elements is a real allocation: not fuzzed
                assume(not huge or n * c * math.prod(max(o, 0) for o in out) < 10**7)
                # PyTorch: only the batch may be empty
                valid = all(2 * p[i] <= k[i] for i in range(nd)) and min(out) >= 1 and \
                    size >= 1 and c >= 1 and \
                    dtype in ("float32", "float64") and layout != "numpy" and \
                    (divisor is None or kind == "max" or nd == 1 or (
                        type(divisor) is int and divisor > 0)) and \
                    (kind == "max" or dil == 1) and not huge
            else:
                valid, out = False, (1,) * nd
            kw = dict(stride=stride, padding=padding, ceil_mode=ceil)
            if kind == "max":
                kw["dilation"] = dilation
            else:
                kw["count_include_pad"] = include
                if nd > 1:
                    kw["divisor_override"] = divisor
                elif dil != 1:
                    kw["dilation"] = dil           # avg_pool1d has none: a TypeError
            label = (f"{op}{nd}d x{xshape} kernel={kernel!r} {kw} {dtype} {layout} "
                     f"bad_index={bad_index}")
            dv = kw.get("divisor_override")
            if op == "max":
                _check(label, fn, lambda: getattr(garray.nn, fn)(
                    gx, kernel, return_indices=True, **kw),
                    None if huge else lambda: (ref.max_pool_nd(hx.astype(numpy.float64), k,
                                                               s_, p, d, ceil),
                                               numpy.dtype(dtype)), valid, _tol(dtype))
            elif op == "avg":
                _check(label, fn, lambda: getattr(garray.nn, fn)(gx, kernel, **kw),
                       None if huge else lambda: ((ref.avg_pool_nd(
                           hx.astype(numpy.float64), k, s_, p, ceil, include, dv),),
                           numpy.dtype(dtype)), valid, _tol(dtype))
            elif valid:
                (hdy,), (gdy,) = _operands(rnd + 1, [(n, c) + out], dtype, "plain")
                bfn = fn + "_backward"
                if kind == "max":
                    _, idx = ref.max_pool_nd(hx.astype(numpy.float64), k, s_, p, d, ceil)
                    if not idx.size:
                        bad_index = None          # nowhere to plant it
                    if bad_index is not None:
                        idx.flat[rnd % idx.size] = (numpy.prod(xshape[2:]) if bad_index ==
                                                    "past" else bad_index)
                    _check(label, bfn, lambda: getattr(garray.nn, bfn)(
                        gdy, garray.asarray(idx), xshape, kernel, **kw),
                        lambda: ((ref.max_pool_backward_nd(hdy.astype(numpy.float64), idx,
                                                           xshape),) if bad_index is None
                                 else _no_reference("an index out of range"),
                                 numpy.dtype(dtype)),
                        bad_index is None, _tol(dtype))
                else:
                    _check(label, bfn, lambda: getattr(garray.nn, bfn)(
                        gdy, xshape, kernel, **kw),
                        lambda: ((ref.avg_pool_backward_nd(hdy.astype(numpy.float64), xshape,
                                                           k, s_, p, include, dv),),
                                 numpy.dtype(dtype)), True, _tol(dtype))
        run()
    return run_class


def register(classes, fz):
    """Add this module's fuzz classes to ``classes``; ``fz`` is tests/fuzz_hostile.py."""
    _FZ[0] = fz
    classes["special"] = fuzz_special(fz)
    classes["nn_conv"] = fuzz_nn_conv(fz)
    classes["nn_pool"] = fuzz_nn_pool(fz)
