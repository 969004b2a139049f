"""Hostile input, class by class: what a user can do to garray that once crashed it,
corrupted memory or gave a wrong answer silently.  NumPy is the reference for every
error and value; code that crashed once runs in a child process (tests/isolated.py),
so a crash fails one test and names its case.  docs/reliability.md lists the classes.
The Hypothesis fuzzer over the same classes is tests/fuzz_hostile.py (test_fuzzer).
"""

import operator
import os
import sys

import numpy
import pytest

import garray
from isolated import run_isolated
from xp import ALL_DTYPES, assert_xp_close, expected_exception, run_in_threads

INT_DTYPES = [d for d in ALL_DTYPES if numpy.dtype(d).kind in "iu"]


def same_outcome(f, *, rtol=None):
    """f(numpy) and f(garray) give the same result or raise the same exception type."""
    try:
        expected = f(numpy)
    except Exception as e:  # noqa: BLE001 - garray must raise the same type
        with pytest.raises(expected_exception(e)):
            f(garray)
        return None
    got = f(garray)
    assert_xp_close(got, expected, rtol=rtol)
    return got


# ---- size arithmetic that wraps --------------------------------------------------------

HUGE = [2**62, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**70,
        6148914691236517206, -2**63 - 1]

SHAPE_CASES = [
    ("reshape 3 x 2**64/3", lambda xp: xp.arange(2).reshape(3, 6148914691236517206)),
    ("reshape wraps to size", lambda xp: xp.arange(4).reshape(2**62, 2**62, 4)),
    ("reshape -1 with huge", lambda xp: xp.arange(6).reshape(-1, 2**63)),
    ("reshape 0 x huge", lambda xp: xp.zeros(0).reshape(0, 2**62, 2**62)),
    ("broadcast_to wraps", lambda xp: xp.broadcast_to(xp.ones(1), (2**62, 2**62))),
    ("broadcast_to 2**31 squared", lambda xp: xp.broadcast_to(xp.ones(1), (2**31, 2**31))),
    ("broadcast_to too many bytes", lambda xp: xp.broadcast_to(xp.ones(1), (2**61, 8))),
    ("empty wraps", lambda xp: xp.empty((2**32, 2**32))),
    ("empty bytes wrap", lambda xp: xp.empty(2**61, dtype=xp.float64)),
    ("zeros 2**70", lambda xp: xp.zeros(2**70)),
    ("zeros 0 x wrap", lambda xp: xp.zeros((0, 2**62, 2**62))),
    ("ones 0 x 2**63", lambda xp: xp.ones((0, 2**63))),
    ("full tuple huge", lambda xp: xp.full((3, 2**64), 1.0)),
    ("eye huge", lambda xp: xp.eye(2**40)),
    ("ndarray ctor wraps", lambda xp: xp.ndarray((2**33, 2**33))),
    ("negative dim", lambda xp: xp.zeros((2, -3))),
]


@pytest.mark.parametrize("label", [c[0] for c in SHAPE_CASES])
def test_size_arithmetic_raises_as_numpy(label):
    fn = dict(SHAPE_CASES)[label]
    run_isolated(f"""
        import numpy, garray, pytest
        from test_hostile import SHAPE_CASES, same_outcome
        case({label!r})
        same_outcome(dict(SHAPE_CASES)[{label!r}])
    """)
    with pytest.raises((ValueError, MemoryError)):
        fn(numpy)


@pytest.mark.parametrize("n", HUGE)
def test_huge_integers_in_shapes_and_indices(n):
    x = garray.arange(3)
    with pytest.raises(ValueError):
        garray.zeros(n)
    with pytest.raises(ValueError):
        garray.zeros((1, n))
    with pytest.raises(ValueError):
        x.reshape(n)
    with pytest.raises(IndexError):
        x[n]
    with pytest.raises(IndexError):
        x[-n]
    for m in (2**31, 2**32 + 1, n):         # past int32, and past everything
        with pytest.raises(IndexError):
            x[m]
    same_outcome(lambda xp: xp.arange(3)[n:])
    same_outcome(lambda xp: xp.arange(3)[-n:n:max(1, n // 2)])


def test_views_of_a_checked_array_stay_in_bounds():
    """A view that wraps once wrote into a neighbouring array: now every reshape either
    raises or stays inside its own allocation."""
    a = garray.zeros(8, dtype="int64")
    b = garray.zeros(8, dtype="int64")
    for shape in [(2**61, 4), (4, 2**61), (2, 2, 2**62)]:
        with pytest.raises(ValueError):
            a.reshape(shape)
    a[...] = 7
    assert_xp_close(b, numpy.zeros(8, dtype="int64"))


# ---- read-only views -------------------------------------------------------------------

def _writes():
    """Every way to write into an array x (value v of x's shape)."""
    return {
        "setitem": lambda xp, x, v: x.__setitem__((Ellipsis,), v),
        "setitem[0]": lambda xp, x, v: x.__setitem__(0, 1),
        "fill": lambda xp, x, v: x.fill(2),
        "out=": lambda xp, x, v: xp.add(v, 1, out=x),
        "out= unary": lambda xp, x, v: xp.negative(v, out=x),
        **{f"{op}=": (lambda o: lambda xp, x, v: o(x, v))(getattr(operator, f"i{op}"))
           for op in ("add", "sub", "mul", "truediv", "pow", "mod", "floordiv")},
    }


@pytest.mark.parametrize("how", sorted(_writes()))
@pytest.mark.parametrize("view", ["broadcast_to", "broadcast_to same shape",
                                  "view of read-only", "setflags"])
def test_read_only_views_refuse_writes(view, how):
    def make(xp):
        base = xp.ones((2, 3))
        if view == "broadcast_to":
            return xp.broadcast_to(base[0], (2, 3))
        if view == "broadcast_to same shape":
            return xp.broadcast_to(base, (2, 3))
        if view == "setflags":
            base.setflags(write=False)
            return base
        r = xp.broadcast_to(base, (2, 3))
        return r[::-1].T.T
    for xp in (numpy, garray):
        x = make(xp)
        assert not x.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            _writes()[how](xp, x, xp.ones((2, 3)))
    g = make(garray)
    assert_xp_close(g, numpy.ones((2, 3)))          # nothing was written


def test_setflags_rules_as_numpy():
    for xp in (numpy, garray):
        a = xp.zeros(3)
        a.setflags(write=False)
        assert not a.flags.writeable and not a[1:].flags.writeable
        a.setflags(write=True)
        a[0] = 1
        b = xp.broadcast_to(a, (2, 3))
        if xp is garray:
            # Deliberate difference: NumPy lets a broadcast view be made writeable;
            # garray refuses (elements alias, and on a GPU the order of writes to one
            # element is undefined), docs/reliability.md
            with pytest.raises(ValueError, match="WRITEABLE"):
                b.setflags(write=True)
        v = a[1:]
        a.flags.writeable = False
        w = a[1:]
        assert not w.flags.writeable
        with pytest.raises(ValueError):
            w.setflags(write=True)         # a view of a read-only owner stays read-only
        a.flags["W"] = True
        w.setflags(write=True)
        w[0] = 4
        v[1] = 5
        assert float(a[1]) == 4 and float(a[2]) == 5
    h = numpy.zeros(3)
    h.setflags(write=False)
    g = garray.asarray(h, device="cpu")         # wraps h's memory (a GPU copies it)
    assert not g.flags.writeable
    with pytest.raises(ValueError):
        g.setflags(write=True)


# ---- objects in impossible states ------------------------------------------------------

def test_bare_ndarray_is_a_safe_empty_array():
    _, out, _ = run_isolated("""
        import garray, numpy
        a = garray.ndarray.__new__(garray.ndarray)
        print("shape", a.shape, a.dtype, a.size)
        for name in ["__add__", "__neg__", "__abs__", "__eq__", "__getitem__", "copy",
                     "get", "astype", "reshape", "T", "__dlpack__", "__repr__", "fill",
                     "__iadd__", "__array__", "to_device", "__len__", "__bool__",
                     "tolist", "item", "sum", "flags"]:
            case(name)
            try:
                f = getattr(a, name)
                if callable(f):
                    for args in [(), (1,), (0,), ("float32",), (garray.ones(0),)]:
                        try:
                            f(*args)
                        except Exception:
                            pass
            except Exception:
                pass
        for fn in [garray.sin, garray.abs, garray.where, garray.all, garray.concat,
                   garray.asnumpy, garray.broadcast_to, garray.from_dlpack]:
            case(fn.__name__)
            for args in [(a,), (a, a), (a, a, a), ([a, a],), (a, (0,))]:
                try:
                    fn(*args)
                except Exception:
                    pass
        print("survived")
    """)
    assert "shape (0,) float64 0" in out and "survived" in out


def test_init_twice_raises_and_keeps_the_buffer():
    a = garray.ones(3)
    pool = a.device.pool
    used = pool.used_bytes()
    with pytest.raises(TypeError, match="already initialised"):
        a.__init__((4,))
    assert pool.used_bytes() == used and a.shape == (3,)
    assert_xp_close(a, numpy.ones(3))


# ---- silent wrong values ---------------------------------------------------------------

NUMPY_SCALARS = [numpy.bool_(True), numpy.int8(-3), numpy.uint8(200), numpy.int64(2**40),
                 numpy.uint64(2**63 + 5), numpy.float32(1.5), numpy.float64(1e300),
                 numpy.complex64(1 - 2j), numpy.complex128(1e300j)]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("scalar", NUMPY_SCALARS, ids=lambda s: type(s).__name__)
@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "less", "equal",
                                  "maximum", "divide"])
def test_numpy_scalars_are_strong(name, dtype, scalar):
    """NEP 50: a NumPy scalar promotes by its dtype (float32 * float64(1e300) is a
    float64 1e300, not float32 inf), on either side."""
    from test_elementwise import check_op
    n = numpy.arange(1, 4).astype(dtype)
    g = garray.asarray(n, copy=True)
    check_op(name, (n, scalar), (g, scalar))
    check_op(name, (scalar, n), (scalar, g))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("other", ALL_DTYPES)
@pytest.mark.parametrize("op", ["iadd", "isub", "imul", "itruediv"])
def test_in_place_casts_are_same_kind(op, dtype, other):
    """a op= b casts the result into a's dtype with NumPy's same_kind rule (uint8 -= int64
    raises), and the values agree where NumPy accepts it."""
    def f(xp):
        a = xp.asarray(numpy.array([3, 2, 1]).astype(dtype))
        b = xp.asarray(numpy.array([1, 1, 2]).astype(other))
        with numpy.errstate(all="ignore"):
            return getattr(operator, op)(a, b)
    same_outcome(f)


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("value", [-1, 300, 2**31, 2**63, -2**63 - 1, 2**64])
def test_python_ints_out_of_range(dtype, value):
    """Comparisons answer exactly (uint8 < 300: all True); arithmetic and in-place
    arithmetic raise OverflowError as NumPy 2 does."""
    for op in ("lt", "le", "gt", "ge", "eq", "ne", "add", "iadd", "isub"):
        same_outcome(lambda xp: getattr(operator, op)(
            xp.asarray(numpy.array([0, 1, 2]).astype(dtype)), value))
        same_outcome(lambda xp: getattr(operator, op.lstrip("i"))(
            value, xp.asarray(numpy.array([0, 1, 2]).astype(dtype))))


@pytest.mark.parametrize("other", [None, "a", object(), {}, 1j])
def test_comparisons_with_foreign_objects(other):
    same_outcome(lambda xp: xp.ones(3) == other)
    same_outcome(lambda xp: xp.ones(3) != other)
    same_outcome(lambda xp: other == xp.ones(3))
    if other is not None and not isinstance(other, complex):
        for op in (operator.lt, operator.add):
            with pytest.raises(TypeError):
                op(garray.ones(3), other)
    with pytest.raises(TypeError):
        garray.ones(3) < None


@pytest.mark.parametrize("dtype", INT_DTYPES + ["bool", "float32", "complex64"])
@pytest.mark.parametrize("value", [numpy.nan, numpy.inf, 300, -1, 2.7, None, "a", 1e300,
                                   1j, [[1]], [numpy.nan, 1], [300, 1]])
@pytest.mark.parametrize("ndim", [1, 2])
def test_item_assignment_converts_as_numpy(dtype, value, ndim):
    """x[k] = v converts v as NumPy's item assignment does (NaN into int: ValueError;
    300 into uint8: OverflowError; leading length-1 axes dropped)."""
    def f(xp):
        x = xp.zeros((3,) * ndim, dtype=dtype)
        if isinstance(value, list) and len(value) == 2:
            x[1:] = value
        else:
            x[0:1] = value
        return x
    with numpy.errstate(all="ignore"):
        same_outcome(f)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("args", [(-1.5, 2, 5), (0, 1, 3), (10, -10, 7), (0, 255.9, 4),
                                  (-3, 3, 1), (5, 5, 0)])
def test_linspace_into_every_dtype(dtype, args):
    with numpy.errstate(all="ignore"):
        if numpy.dtype(dtype).kind in "iu" and args[0] < 0 and numpy.dtype(dtype).kind == "u":
            pytest.skip("NumPy casts negative floats into unsigned ints platform-dependently")
        same_outcome(lambda xp: xp.linspace(*args[:2], args[2], dtype=dtype))


def test_integer_power_negative_exponent_raises():
    for e in (-1, numpy.int8(-1), numpy.array([1, -1])):
        same_outcome(lambda xp: xp.asarray(numpy.arange(3)) ** (
            xp.asarray(e) if isinstance(e, numpy.ndarray) else e))


def test_complex_special_values():
    vals = [complex("inf"), complex("-inf"), complex(0, float("inf")), complex("nan"),
            3 + 0j, 3 - 0j, -3 + 0j, -3 - 0j, 1e300 + 1e300j]
    n = numpy.array(vals, dtype=numpy.complex128)
    g = garray.asarray(n, copy=True)
    with numpy.errstate(all="ignore"):
        assert_xp_close(g / garray.asarray(complex("inf")), n / complex("inf"))
        assert_xp_close((1 + 1j) / g, (1 + 1j) / n)
        assert_xp_close(garray.asin(g[4:8]), numpy.arcsin(n[4:8]))
        assert_xp_close(garray.acos(g[4:8]), numpy.arccos(n[4:8]))


# ---- NumPy's accepted forms ------------------------------------------------------------

class Idx:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


def test_index_objects_shapes_and_scalars():
    same_outcome(lambda xp: xp.arange(6)[Idx(2)])
    same_outcome(lambda xp: xp.arange(6)[Idx(1):Idx(5):Idx(2)])
    same_outcome(lambda xp: xp.zeros((Idx(2), numpy.int8(3))))
    same_outcome(lambda xp: xp.arange(6).reshape(Idx(2), numpy.uint8(3)))
    same_outcome(lambda xp: xp.sin(0.5))
    same_outcome(lambda xp: xp.add(1, 2.5))
    same_outcome(lambda xp: xp.add(True, 1))
    same_outcome(lambda xp: xp.negative([1, 2]))
    for k in (numpy.int8(-1), numpy.uint64(2), numpy.intp(0), garray.asarray(1)):
        assert int(garray.arange(6)[k]) == int(numpy.arange(6)[int(k)])


# ---- foreign memory and DLPack -----------------------------------------------------------

def test_unaligned_and_odd_stride_numpy_arrays_are_copied():
    raw = numpy.arange(64, dtype=numpy.uint8)
    odd = numpy.lib.stride_tricks.as_strided(raw[1:].view(numpy.uint8), shape=(5,),
                                             strides=(3,))
    unaligned = raw[1:33].view(numpy.int32) if raw[1:].ctypes.data % 4 else None
    for h in [numpy.lib.stride_tricks.as_strided(raw.view(numpy.int32), shape=(5,),
                                                 strides=(6,)), odd, unaligned]:
        if h is None:
            continue
        g = garray.asarray(h, device="cpu")     # the CPU device wraps host memory
        assert_xp_close(g, h.copy())
        assert all(s % g.itemsize == 0 for s in g.strides)
        back = numpy.from_dlpack(g)
        numpy.testing.assert_array_equal(back, h)
        if not (h.flags.aligned and all(s % h.itemsize == 0 for s in h.strides)):
            with pytest.raises(ValueError, match="copy"):
                garray.asarray(h, copy=False, device="cpu")


# ---- environment variables ---------------------------------------------------------------

@pytest.mark.parametrize("var,value", [("GARRAY_IMPLICIT_TRANSFER", "bogus"),
                                       ("GARRAY_SYNC_LAUNCHES", "maybe"),
                                       ("GARRAY_GPU_STUB", "2x"),
                                       ("GARRAY_CPU_WARP_SIZE", "48"),
                                       ("GARRAY_DEVICE", "tpu:0")])
def test_bad_environment_values_name_the_variable(var, value):
    rc, out, err = run_isolated("""
        import garray
        garray.ones(3) + 1
    """, env={"GARRAY_DEVICE": "cpu", var: value}, expect_ok=False)
    assert rc == 1, err[-2000:]
    assert "Error" in err and var in err, err[-2000:]


# ---- threads -----------------------------------------------------------------------------

def test_threads_computing_at_once_agree_with_numpy():
    shared = garray.asarray(numpy.linspace(-3, 3, 1001))

    def work(seed):
        rng = numpy.random.default_rng(seed)
        for _ in range(30):
            h = rng.standard_normal(257)
            g = garray.asarray(h)
            r = (garray.sin(g) * 2 + shared[:257]) ** 2
            expected = (numpy.sin(h) * 2 + numpy.linspace(-3, 3, 1001)[:257]) ** 2
            # atol: sin is within a few ULP of NumPy's (libmvec on the CPU device,
            # docs/performance.md), and sin(h) * 2 + c may cancel to near 0
            numpy.testing.assert_allclose(r.get(), expected, rtol=1e-12, atol=1e-13)
            g[::2] = 0
            assert float(g[0]) == 0

    run_in_threads(work, 8)


# ---- the fuzzer ------------------------------------------------------------------------------

def test_fuzzer():
    """tests/fuzz_hostile.py in a child process: a fixed seed and example count in CI
    (GARRAY_FUZZ_EXAMPLES, default 150 per class); run it longer by hand with
    ``python tests/fuzz_hostile.py --examples 5000``."""
    n = int(os.environ.get("GARRAY_FUZZ_EXAMPLES", "150"))
    _, out, _ = run_isolated(f"""
        import fuzz_hostile
        fuzz_hostile.main(examples={n}, seed=0)
    """, timeout=1200)
    assert "fuzz: done" in out, out[-2000:]
    print(out.splitlines()[-1])
