"""A Hypothesis fuzzer for the hostile-input classes of tests/test_hostile.py: shapes
(huge and wrapping included), strides, every dtype pair, NumPy and Python scalars at
their extremes, basic indices, and ``out=`` aliasing, each case compared with NumPy
(same exception type, or the same dtype, shape and values).

It runs in a child process (test_hostile.test_fuzzer), printing ``CASE ...`` before
each case so that a crash names it.  By hand, longer::

    python tests/fuzz_hostile.py --examples 5000 [--seed N]
"""

import argparse
import importlib
import operator
import os
import sys
import warnings

import numpy
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "elementwise"))   # test_elementwise
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import garray  # noqa: E402
from xp import ALL_DTYPES, assert_xp_close, expected_exception  # noqa: E402
from xp import kind as xp_kind

VERBOSE = os.environ.get("GARRAY_FUZZ_VERBOSE", "1") != "0"
COUNTS = {}


def class_settings(examples, s):
    """The settings every class runs under: its seed and example count, no database, no
    deadline, no health checks (hostile strategies trip them by design)."""
    return lambda fn: seed(s)(settings(max_examples=examples, database=None, deadline=None,
                                       suppress_health_check=list(HealthCheck))(fn))


def count(name):
    COUNTS[name] = COUNTS.get(name, 0) + 1


def case(label):
    if VERBOSE:
        print("CASE", label, flush=True)


def compare(label, f, *, also=None, rtol=None, atol=None):
    """f(numpy) against f(garray): the same exception type, or the same result (within
    ``rtol``/``atol``, assert_xp_close's defaults if None).  ``also`` maps a NumPy
    exception type to another that garray may raise instead."""
    case(label)
    with numpy.errstate(all="ignore"):
        try:
            expected = f(numpy)
            err = None
        except Exception as e:  # noqa: BLE001 - garray must raise the same type
            err = e
        try:
            got = f(garray)
        except Exception as e:  # noqa: BLE001
            if err is None:
                raise AssertionError(f"{label}: garray raised {type(e).__name__}: {e}; "
                                     f"NumPy gave {expected!r}") from None
            ok = expected_exception(err)
            if also and type(err) in also:
                ok = (ok, also[type(err)])
            if not isinstance(e, ok):
                raise AssertionError(f"{label}: garray raised {type(e).__name__}: {e}; "
                                     f"NumPy raised {type(err).__name__}: {err}") from None
            return
        if err is not None:
            raise AssertionError(f"{label}: NumPy raised {type(err).__name__}: {err}; "
                                 f"garray gave {got!r}")
        assert_xp_close(got, expected, rtol=rtol, atol=atol, err_msg=label)


def layout(x):
    """What a view is: shape, strides, size, writeability (never its values)."""
    strides = tuple(st if n > 1 else None for st, n in zip(x.strides, x.shape))
    return (x.shape, strides if x.size else None, x.size, x.flags.writeable)


# ---- strategies ----------------------------------------------------------------------------

HUGE_DIMS = [2**31 - 1, 2**31, 2**32, 2**62, 2**63 - 1, 2**63, 2**64, 6148914691236517206,
             3074457345618258603]
dims = st.one_of(st.integers(0, 4), st.sampled_from(HUGE_DIMS), st.integers(-2, -1))
shapes = st.lists(dims, max_size=4).map(tuple)
small_shapes = st.lists(st.integers(0, 4), max_size=3).map(tuple)
dtypes = st.sampled_from(ALL_DTYPES)


def data_for(shape, dtype, rnd):
    rng = numpy.random.default_rng(rnd)
    v = rng.integers(-5, 6, size=shape)
    if numpy.dtype(dtype).kind == "u":
        v = numpy.abs(v)
    h = v.astype(dtype)
    if numpy.dtype(dtype).kind == "c":
        h = h + 1j * rng.integers(-3, 4, size=shape)
    return numpy.asarray(h.astype(dtype))      # an array even for shape (): ufuncs on
                                               # 0-d arrays return NumPy scalars


def scalar_values():
    ints = st.sampled_from([0, 1, -1, 127, 128, 255, 256, -129, 2**31, 2**63 - 1, 2**63,
                            2**64 - 1, 2**64, -2**63, -2**63 - 1])
    floats = st.sampled_from([0.0, -0.0, 0.5, -2.5, 1e300, float("inf"), float("nan")])
    nps = st.builds(lambda t, v: numpy.asarray(v).astype(t)[()],
                    st.sampled_from(ALL_DTYPES), st.integers(-3, 3))
    extremes = st.sampled_from([numpy.uint64(2**64 - 1), numpy.int64(-2**63),
                                numpy.float64(1e300), numpy.float32(3e38),
                                numpy.complex128(1e300j), numpy.int8(-128),
                                numpy.bool_(False)])
    return st.one_of(ints, floats, st.booleans(), st.just(1 + 2j), nps, extremes)


BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow",
          "maximum", "less", "equal", "not_equal", "bitwise_and", "logical_and", "atan2"]



# ---- classes ---------------------------------------------------------------------------------

def fuzz_shapes(examples, s):
    @seed(s)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(shape=shapes, n=st.integers(0, 12), ctor=st.sampled_from(
        ["reshape", "broadcast_to", "empty", "zeros", "full", "reshape -1"]))
    def run(shape, n, ctor):
        COUNTS["shapes"] = COUNTS.get("shapes", 0) + 1
        nbytes = 8
        for d in shape:
            nbytes *= max(d, 1)
        if ctor.startswith("reshape") and any(d < -1 for d in shape):
            return          # deliberate: only -1 is the unknown dimension (Array API)
        if ctor in ("empty", "zeros", "full") and 2**24 < nbytes < 2**63:
            return          # valid but too big to allocate here: not a hostile case
        # views are compared by layout (their values could be 2**62 elements)
        if ctor == "reshape":
            f = lambda xp: layout(xp.arange(n).reshape(shape))  # noqa: E731
        elif ctor == "reshape -1":
            sh = shape[:1] + (-1,) + shape[1:]
            f = lambda xp: layout(xp.arange(n).reshape(sh))  # noqa: E731
        elif ctor == "broadcast_to":
            f = lambda xp: layout(xp.broadcast_to(xp.arange(min(n, 1) or 1), shape))  # noqa: E731
        elif ctor == "full":
            f = lambda xp: xp.full(shape, 2.5)  # noqa: E731
        elif ctor == "empty":                   # uninitialised: its layout only
            f = lambda xp: layout(xp.empty(shape))  # noqa: E731
        else:
            f = lambda xp: xp.zeros(shape)  # noqa: E731
        compare(f"{ctor} {shape} n={n}", f)
    run()


def fuzz_elementwise(examples, s):
    from test_elementwise import difference

    @seed(s)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(name=st.sampled_from(BINARY), d1=dtypes, d2=dtypes, sh1=small_shapes,
           sh2=small_shapes, scalar=st.one_of(st.none(), scalar_values()),
           scalar_first=st.booleans(), out=st.sampled_from([None, "x1", "x1[::-1]", "new"]),
           out_dtype=dtypes, rnd=st.integers(0, 2**16), stride=st.sampled_from([1, -1, 2]))
    def run(name, d1, d2, sh1, sh2, scalar, scalar_first, out, out_dtype, rnd, stride):
        COUNTS["elementwise"] = COUNTS.get("elementwise", 0) + 1
        h1 = data_for(sh1, d1, rnd)
        h2 = data_for(sh2, d2, rnd + 1)
        if h1.ndim and stride != 1:             # x1 becomes a strided view in f()
            h1 = numpy.concatenate([h1, h1], axis=-1) if stride == 2 else h1
        if name == "pow":                       # no negative-exponent special cases here
            h2 = numpy.abs(h2) if xp_kind(h2.dtype) != "b" else h2
        n_args = [h1, scalar] if scalar is not None else [h1, h2]
        if scalar is not None and scalar_first:
            n_args.reverse()
        if name == "pow" and scalar is not None and not scalar_first and isinstance(
                scalar, (int, numpy.integer)) and scalar < 0:
            return
        if difference(name, [a for a in n_args]):
            return                              # documented refusals (test_elementwise)
        if name in ("floor_divide", "remainder") and (
                d1[0] in "fc" or d2[0] in "fc" or isinstance(scalar, float)):
            # floor_divide/remainder with infinities (1e300 overflows float32) follow the
            # Array API special cases, a documented difference (test_elementwise)
            with numpy.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                rt = numpy.result_type(*n_args)
                if any(not numpy.all(numpy.isfinite(numpy.asarray(a).astype(rt)))
                       for a in n_args if not isinstance(a, (bool, int))):
                    return
        if (name in ("less", "equal", "not_equal") and d1 == "bool" and type(scalar) is int
                and not -2**63 <= scalar < 2**63):
            # Deliberate difference: NumPy answers int arrays compared with any Python
            # int exactly but raises OverflowError for bool arrays; garray answers both
            return

        def f(xp):
            args = [xp.asarray(a.copy()) if isinstance(a, numpy.ndarray) else a
                    for a in n_args]
            i1 = next((i for i, a in enumerate(n_args) if a is h1), None)
            if i1 is not None and h1.ndim and stride != 1:
                args[i1] = args[i1][..., ::stride]
            fn = getattr(xp, name)
            if out is None:
                return fn(*args)
            x1 = args[0] if isinstance(args[0], xp.ndarray) else args[1]
            if out == "new":
                o = xp.zeros(x1.shape, dtype=out_dtype)
            else:
                o = x1 if out == "x1" else x1[..., ::-1]
            r = fn(*args, out=o)
            assert r is o
            return x1 if out != "new" else o
        try:
            with numpy.errstate(all="ignore"):
                ref = getattr(numpy, name)(*n_args)
            if numpy.asarray(ref).dtype == numpy.float16:
                return                          # garray has no float16 (test_elementwise)
        except Exception:  # noqa: BLE001 - compare() checks the exception
            pass
        compare(f"{name} {d1}{sh1} {d2}{sh2} scalar={scalar!r} first={scalar_first} "
                f"out={out}/{out_dtype} stride={stride}", f)
    run()


def index_keys(ndim):
    ints = st.one_of(st.integers(-6, 6), st.sampled_from([2**31, 2**63 - 1, 2**63, 2**70,
                                                          -2**63, -2**70]))
    bound = st.one_of(st.none(), st.integers(-7, 7), st.sampled_from([2**63, -2**70]))
    step = st.one_of(st.none(), st.sampled_from([1, 2, -1, -3, 0, 2**63, -2**63]))
    slices = st.builds(slice, bound, bound, step)
    item = st.one_of(ints, slices, st.none(), st.just(Ellipsis))
    return st.lists(item, max_size=ndim + 2).map(tuple)


# Deliberate difference: an integer index past 2**63 is an IndexError in garray, as any
# other out-of-range index; NumPy raises OverflowError for [2**63, 2**64) and IndexError
# beyond.
HUGE_INDEX = {OverflowError: IndexError}


def fuzz_indexing(examples, s):
    @seed(s)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(shape=st.lists(st.integers(0, 5), min_size=0, max_size=3).map(tuple),
           dtype=dtypes, key=index_keys(3), value=st.one_of(
               st.none(), scalar_values(), st.lists(st.integers(0, 5), max_size=3).map(tuple)),
           rnd=st.integers(0, 2**16))
    def run(shape, dtype, key, value, rnd):
        COUNTS["indexing"] = COUNTS.get("indexing", 0) + 1
        h = data_for(shape, dtype, rnd)
        compare(f"getitem {dtype}{shape}[{key!r}]", lambda xp: xp.asarray(h.copy())[key],
                also=HUGE_INDEX)
        if value is None:
            return
        if isinstance(value, tuple):            # an array value of that shape
            value_h = data_for(value, dtype, rnd + 7)
        else:
            value_h = value

        def f(xp):
            x = xp.asarray(h.copy())
            v = xp.asarray(value_h) if isinstance(value_h, numpy.ndarray) else value_h
            x[key] = v
            return x
        compare(f"setitem {dtype}{shape}[{key!r}] = {value_h!r}", f, also=HUGE_INDEX)
    run()


def fuzz_aliasing(examples, s):
    ops = ["iadd", "isub", "imul", "ipow", "itruediv", "ifloordiv", "iand"]

    @seed(s)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(op=st.sampled_from(ops), dtype=dtypes, n=st.integers(0, 12),
           a=st.integers(-12, 12), b=st.integers(-12, 12), c=st.integers(-12, 12),
           step=st.sampled_from([1, -1, 2, -2]), rnd=st.integers(0, 2**16))
    def run(op, dtype, n, a, b, c, step, rnd):
        COUNTS["aliasing"] = COUNTS.get("aliasing", 0) + 1
        h = data_for((n,), dtype, rnd)
        if op == "ipow":
            h = numpy.abs(h) if xp_kind(h.dtype) != "b" else h

        def f(xp):
            x = xp.asarray(h.copy())
            dst = x[a:b]
            src = x[c::step][:dst.shape[0]] if dst.shape else x[c::step]
            getattr(operator, op)(dst, src)
            return x
        compare(f"{op} {dtype} n={n} x[{a}:{b}] op= x[{c}::{step}]", f)
    run()


REDUCTIONS = ["sum", "prod", "max", "min", "argmax", "argmin", "count_nonzero", "all",
              "any", "cumsum", "cumprod", "mean", "nansum", "nanmax", "ptp"]
axis_values = st.one_of(st.none(), st.integers(-4, 4),
                        st.lists(st.integers(-4, 4), max_size=3).map(tuple),
                        st.sampled_from([2**63, -2**63 - 1, 1.0, "0"]))


def fuzz_reductions(examples, s):
    """Every reduction over random shapes (empty and 0-d included), axes (out of range,
    repeated, wrong types), dtypes, strided and broadcast views and schedules."""
    from garray import _core

    @seed(s)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(name=st.sampled_from(REDUCTIONS), dtype=dtypes, shape=small_shapes,
           axis=axis_values, keepdims=st.booleans(), view=st.sampled_from(
               ["plain", "reversed", "transposed", "broadcast"]),
           strategy=st.sampled_from(["auto", "nb", "cols", "tree"]), rnd=st.integers(0, 2**16))
    def run(name, dtype, shape, axis, keepdims, view, strategy, rnd):
        COUNTS["reductions"] = COUNTS.get("reductions", 0) + 1
        # numpy.mean and numpy.ptp refuse axis=0 of a 0-d array, numpy.sum takes it;
        # garray takes it everywhere
        assume(not (name in ("mean", "ptp") and shape == () and isinstance(axis, int)))
        h = data_for(shape, dtype, rnd)
        if name in ("prod", "cumprod"):
            h = (h % 3).astype(dtype) if xp_kind(h.dtype) not in "bc" else h

        def f(xp):
            x = xp.asarray(h.copy())
            if view == "reversed" and x.ndim:
                x = x[::-1]
            elif view == "transposed":
                x = x.T
            elif view == "broadcast":
                x = xp.broadcast_to(x, (2,) + x.shape)
            fn = getattr(xp, name)
            if name in ("cumsum", "cumprod"):
                return fn(x, axis=axis)
            if name in ("argmax", "argmin") and xp is numpy and isinstance(axis, tuple):
                raise TypeError("axis tuple")      # garray's TypeError; NumPy's varies
            return fn(x, axis=axis, keepdims=keepdims)
        old = _core._debug_reduce_strategy(strategy)
        try:
            compare(f"{name} {dtype}{shape} {view} axis={axis!r} keepdims={keepdims} "
                    f"[{strategy}]", f, also={OverflowError: ValueError})
        finally:
            _core._debug_reduce_strategy(old)
    run()


CLASSES = {"shapes": fuzz_shapes, "elementwise": fuzz_elementwise,
           "indexing": fuzz_indexing, "aliasing": fuzz_aliasing,
           "reductions": fuzz_reductions}

# The families that landed after this file, each fuzzed in a module of its own
# (tests/fuzz_<family>.py) whose register(classes, fz) adds its classes; ``fz`` is this
# module (compare, data_for, the strategies), passed rather than imported because this
# file also runs as __main__.
FAMILY_MODULES = ("fuzz_sorting", "fuzz_index_manip", "fuzz_numeric", "fuzz_nn_special",
                  "fuzz_interop")
for _name in FAMILY_MODULES:
    importlib.import_module(_name).register(CLASSES, sys.modules[__name__])
del _name


def main(examples=150, seed=0, classes=None):
    for name in classes or CLASSES:
        CLASSES[name](examples, seed)
    total = sum(COUNTS.values())
    print(f"fuzz: done, {total} cases ({', '.join(f'{k} {v}' for k, v in COUNTS.items())}),"
          f" seed {seed}", flush=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--examples", type=int, default=150, help="examples per class")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--classes", nargs="*", choices=sorted(CLASSES))
    a = p.parse_args()
    main(a.examples, a.seed, a.classes)
