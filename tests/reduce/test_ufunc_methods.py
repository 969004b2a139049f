"""ufunc.reduce / accumulate / outer / identity and the ndarray reduction methods against
NumPy (garray/_reduce/ufunc_methods.py, cython/_methods.pxi).

Every binary ufunc over every dtype: NumPy's result dtype, shape and values, or NumPy's
exception type.  The deliberate differences are those of the elementwise ops
(elementwise/test_elementwise.py): ``DIFFERENCES`` (arithmetic on bool: NumPy computes in int8, garray raises
TypeError as its elementwise op does), plus ``where=`` on ordered ufuncs without a right
identity (remainder, fmod, arctan2 ...: NotImplementedError, test_where_ordered).
"""

import functools

import numpy
import pytest

import garray
from garray._tables import ops as _optable
from test_elementwise import DIFFERENCES
from xp import ALL_DTYPES, assert_xp_close, expected_exception, for_all_dtypes, sample, \
    xp_compare
from xp import kind as xp_kind

OPS = _optable.OPS
BINARY = sorted(n for n, op in OPS.items() if op.nin == 2)
DIVISIONS = ("divide", "floor_divide", "remainder", "fmod")
SMALL = ("pow", "float_power", "bitwise_left_shift", "bitwise_right_shift")
# One of each kind of row: identity rows of every accumulator rule, a float identity row,
# the unsigned bitwise_and row, ordered rows (arithmetic, power, comparison, shift).
SOME = ("add", "multiply", "maximum", "fmin", "logical_and", "bitwise_and", "hypot",
        "logaddexp", "subtract", "divide", "pow", "equal", "bitwise_left_shift")


def npf(name):
    return getattr(numpy, OPS[name].numpy_name)


def data(name, shape, dtype, start=0):
    """NumPy data for reducing with ``name``: divisors nonzero (+-0.5 .. 2, 1 .. 4),
    exponents and shift counts small (0 .. 3), else xp.sample."""
    dtype = numpy.dtype(dtype)
    if name in DIVISIONS and xp_kind(dtype) in "iufc":
        size = int(numpy.prod(shape))
        k = numpy.arange(size) * 7 + start
        v = (k % 4 + 1) * (0.5 if xp_kind(dtype) in "fc" else 1)
        if xp_kind(dtype) != "u":
            v = numpy.where(k % 3 == 0, -v, v)
        return numpy.asarray(v.reshape(shape)).astype(dtype)
    return sample(shape, dtype, start, small=name in SMALL)


def garray_copy(h):
    return garray.asarray(numpy.ascontiguousarray(h), copy=True)


# NumPy 2.4's arctan2.reduce and power.reduce of floats are wrong (its SIMD loops do not
# carry the accumulator: arctan2.reduce([1, 0, 0, 1]) gives arctan2(1, 1)), while
# accumulate and the elementwise calls are right: their reference is the fold below.
NUMPY_REDUCE_BUG = ("atan2", "pow")


def _fold(f, a, r, axis=0, keepdims=False, initial=numpy._NoValue, where=True, out=None,
          dtype=None):
    """The in-order fold of NumPy elementwise calls that ``f.reduce`` should give (r is
    NumPy's reduce result: its exceptions are already raised)."""
    loop = numpy.dtype(dtype) if dtype is not None else f(numpy.zeros(1, a.dtype),
                                                          numpy.zeros(1, a.dtype)).dtype
    a = a.astype(loop)
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            return r
        axis = axis[0]
    if a.ndim == 0 or (axis is None and a.ndim != 1):
        return r
    ax = 0 if axis is None else axis % a.ndim
    b = numpy.moveaxis(a, ax, 0)
    m = numpy.moveaxis(numpy.broadcast_to(where, a.shape), ax, 0)
    acc = None if initial is numpy._NoValue or initial is None else \
        numpy.full(b.shape[1:], initial).astype(loop)
    for i in range(b.shape[0]):
        acc = b[i].copy() if acc is None else numpy.where(m[i], f(acc, b[i]), acc)
    acc = numpy.asarray(acc).astype(loop)
    if keepdims:
        acc = numpy.expand_dims(acc, ax)
    if out is not None:
        out[...] = acc
        return out
    return acc[()] if acc.ndim == 0 else acc


def reference(name, method, a, *args, **kw):
    """NumPy's ``name.method(a, ...)``; its exception propagates."""
    f = getattr(npf(name), method)
    with numpy.errstate(all="ignore"):
        r = f(a, *args, **kw)
        if method == "reduce" and name in NUMPY_REDUCE_BUG and not args:
            r = _fold(npf(name), a, r, **kw)
    return r


def check(name, method, n_arr, g_arr, *args, rtol=None, atol=None, g_kw=None, **kw):
    """garray's ``name.method(g_arr, ...)`` against NumPy on the same data (``g_kw``:
    garray's keyword arguments where they differ, e.g. a where= mask as a garray array)."""
    g = getattr(getattr(garray, name), method)
    if g_kw is not None:        # over kw's NumPy values (a NumPy where= mask is refused)
        g = functools.partial(lambda f, *a, **k: f(*a, **{**k, **g_kw}), g)
    reason = DIFFERENCES.get((name, xp_kind(n_arr.dtype)))
    try:
        expected = reference(name, method, n_arr, *args, **kw)
    except Exception as e:  # noqa: BLE001 - garray must raise the same type
        # (a DIFFERENCES entry: garray's TypeError may come before NumPy's later error)
        with pytest.raises((expected_exception(e), TypeError) if reason
                           else expected_exception(e)):
            g(g_arr, *args, **kw)
        return
    if reason:
        with pytest.raises(TypeError, match=OPS[name].numpy_name):
            g(g_arr, *args, **kw)
        return
    assert_xp_close(g(g_arr, *args, **kw), expected, rtol=rtol, atol=atol,
                    err_msg=f"{name}.{method}({n_arr.dtype}, {args}, {kw})")


def _tol(name):
    # chained complex powers: NumPy and garray take different cpow paths
    return dict(rtol=1e-4, atol=1e-5) if name in ("pow", "float_power") else {}


# ---- every binary ufunc, every dtype ------------------------------------------------------

@pytest.mark.parametrize("name", BINARY)
@for_all_dtypes()
def test_reduce(name, dtype):
    h = data(name, (3, 4), dtype)
    g = garray_copy(h)
    if name == "ldexp" and numpy.dtype(dtype).kind in "biu" and dtype != "uint64":
        # NumPy folds integer exponents into a float accumulator: not implemented
        with pytest.raises(NotImplementedError, match="ldexp.reduce"):
            garray.ldexp.reduce(g)
        return
    for axis in (0, 1, -1, None, (0, 1), ()):
        check(name, "reduce", h, g, axis=axis, **_tol(name))
    check(name, "reduce", h[0], g[0], **_tol(name))                 # 1-d, axis=0


@pytest.mark.parametrize("name", BINARY)
@for_all_dtypes()
def test_accumulate(name, dtype):
    h = data(name, (3, 4), dtype)
    g = garray_copy(h)
    for axis in (0, 1, -2):
        check(name, "accumulate", h, g, axis=axis, **_tol(name))
    check(name, "accumulate", h[0], g[0], axis=None, **_tol(name))


def check_outer(name, a, b, ga, gb):
    """garray's ``name.outer`` against NumPy's (DIFFERENCES honoured)."""
    reason = DIFFERENCES.get((name, numpy.result_type(a, b).kind))
    try:
        with numpy.errstate(all="ignore"):
            expected = npf(name).outer(a, b)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(expected_exception(e)):
            getattr(garray, name).outer(ga, gb)
        return
    if reason:
        with pytest.raises(TypeError):
            getattr(garray, name).outer(ga, gb)
        return
    assert_xp_close(getattr(garray, name).outer(ga, gb), expected)


@pytest.mark.parametrize("name", BINARY)
@for_all_dtypes()
def test_outer(name, dtype):
    a, b = data(name, (2, 3), dtype), data(name, (4,), dtype, start=3)
    check_outer(name, a, b, garray_copy(a), garray_copy(b))
    check_outer(name, a.T, b[::-2], garray_copy(a).T, garray_copy(b)[::-2])


@pytest.mark.parametrize("name", SOME)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32",
                                   "complex128"])
def test_noncontiguous(name, dtype):
    h = data(name, (4, 8, 3), dtype)
    g = garray_copy(h)
    hv, gv = h[::-1, ::2, 1:], g[::-1, ::2, 1:]            # negative, step and offset
    for axis in (0, 1, 2):
        check(name, "reduce", hv, gv, axis=axis, **_tol(name))
        check(name, "accumulate", hv, gv, axis=axis, **_tol(name))
    ht, gt = h.transpose(2, 0, 1)[:, 1:], g.transpose(2, 0, 1)[:, 1:]
    check(name, "reduce", ht, gt, axis=2, keepdims=True, **_tol(name))


# ---- arguments ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", SOME)
@pytest.mark.parametrize("dtype", ["int16", "float64"])
def test_reduce_keepdims_and_dtype(name, dtype):
    h = data(name, (2, 3, 4), dtype)
    g = garray_copy(h)
    for axis in (0, 2, None, (0, 2)):
        check(name, "reduce", h, g, axis=axis, keepdims=True)
    for dt in ("int8", "float32", "complex64", "bool"):
        check(name, "reduce", h, g, axis=1, dtype=dt)
        check(name, "accumulate", h, g, axis=1, dtype=dt)


@pytest.mark.parametrize("name", SOME)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "float32"])
def test_reduce_initial(name, dtype):
    h = data(name, (3, 4), dtype)
    g = garray_copy(h)
    for initial in (True, 3, 1.5, None):
        for axis in (0, 1, None):
            check(name, "reduce", h, g, axis=axis, initial=initial)
    check(name, "reduce", h, g, axis=0, initial=1000)     # OverflowError for small ints
    check(name, "reduce", h, g, axis=0, initial=-1)
    check(name, "reduce", h[:0], g[:0], axis=0, initial=2)
    check(name, "reduce", h[:, :0], g[:, :0], axis=1, initial=2)


@pytest.mark.parametrize("name", SOME)
@pytest.mark.parametrize("dtype", ["bool", "uint32", "int8", "float64", "complex64"])
def test_reduce_where(name, dtype):
    h = data(name, (3, 4), dtype)
    g = garray_copy(h)
    masks = ([True, False, True, True], [[True], [False], [True]],
             numpy.arange(12).reshape(3, 4) % 5 != 1)
    for m in masks:
        gm = garray.asarray(numpy.asarray(m))
        for kw in ({}, {"initial": 2}):
            for axis in (0, 1):
                check(name, "reduce", h, g, axis=axis, where=m, g_kw={"where": gm}, **kw,
                      **_tol(name))


@pytest.mark.parametrize("name", ["remainder", "fmod", "atan2", "copysign", "nextafter",
                                  "heaviside", "less", "less_equal"])
def test_where_ordered_without_right_identity(name):
    dt = "bool" if name.startswith("less") else "float64"
    g = garray_copy(data(name, (3, 4), dt))
    with pytest.raises(NotImplementedError, match="where="):
        getattr(garray, name).reduce(g, axis=1, initial=True, where=garray.asarray(
            [True, False, True, True]))
    # without where= the same reduction works
    getattr(garray, name).reduce(g, axis=1, initial=True)


@pytest.mark.parametrize("name", SOME)
def test_out(name):
    # out= takes part in choosing the loop (NumPy 2: float32 input, float64 out computes
    # in float64).  Integer outs of ordered ufuncs are not compared: NumPy's result there
    # depends on its buffering (the first element is cast into out before the fold).
    dt = {"bitwise_and": "int16", "bitwise_left_shift": "int16", "equal": "bool"}.get(
        name, "float32")
    h = data(name, (3, 4), dt)
    g = garray_copy(h)
    ordered = garray._tables.reduce.ROWS[garray._tables.reduce.UFUNC_REDUCTIONS[name]].ordered
    for out_dtype in ("float64", "complex128", "int32", "int64", "bool"):
        if ordered and out_dtype in ("int32", "int64") and dt != "int16":
            continue
        for method, shape, kw in (("reduce", (4,), {"axis": 0}), ("reduce", (3, 1),
                                  {"axis": 1, "keepdims": True}),
                                  ("accumulate", (3, 4), {"axis": 1})):
            n_out = numpy.zeros(shape, out_dtype)
            g_out = garray.zeros(shape, dtype=out_dtype)
            try:
                expected = reference(name, method, h, out=n_out, **kw)
            except Exception as e:  # noqa: BLE001
                with pytest.raises(expected_exception(e)):
                    getattr(getattr(garray, name), method)(g, out=g_out, **kw)
                continue
            r = getattr(getattr(garray, name), method)(g, out=g_out, **kw)
            assert r is g_out
            assert_xp_close(g_out, expected, **_tol(name))
            r = getattr(getattr(garray, name), method)(g, out=(g_out,), **kw)
            assert r is g_out
    with pytest.raises(ValueError):
        getattr(garray, name).reduce(g, axis=0, out=garray.zeros((3,), dtype=dt))
    # outer with out=
    o = garray.zeros((3, 4, 2), dtype="float64")
    assert getattr(garray, name).outer(g, g[0, :2], out=o) is o
    with numpy.errstate(all="ignore"):
        assert_xp_close(o, npf(name).outer(h, h[0, :2], out=numpy.zeros((3, 4, 2))),
                        **_tol(name))


@pytest.mark.parametrize("name", SOME)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex128"])
def test_empty_and_0d(name, dtype):
    h = data(name, (3, 4), dtype)
    g = garray_copy(h)
    for hv, gv in ((h[:0], g[:0]), (h[:, :0], g[:, :0]), (h[:0, :0], g[:0, :0])):
        for axis in (0, 1, None):
            check(name, "reduce", hv, gv, axis=axis)
            check(name, "reduce", hv, gv, axis=axis, keepdims=True)
        check(name, "accumulate", hv, gv, axis=0)
        check(name, "accumulate", hv, gv, axis=1)
        check(name, "reduce", hv, gv, axis=0, initial=None)
    z, gz = h[1, 2], g[1, 2]                 # 0-d
    assert gz.shape == ()
    z = numpy.asarray(z)
    for axis in (0, -1, None, (), 1, (0,)):
        check(name, "reduce", z, gz, axis=axis)
    check(name, "reduce", z, gz, axis=0, keepdims=True)
    check(name, "accumulate", z, gz)
    check_outer(name, z, h[0], gz, g[0])
    check_outer(name, h[:0], h[0], g[:0], g[0])


def test_axis_errors():
    h = data("add", (2, 3), "float64")
    g = garray_copy(h)
    for name in ("add", "subtract"):
        for axis in (2, -3, (0, 0), 1.0, "x"):
            check(name, "reduce", h, g, axis=axis)
            check(name, "accumulate", h, g, axis=axis)
        for axis in (None, (0, 1), (), (1,), [0]):
            check(name, "accumulate", h, g, axis=axis)
    with pytest.raises(ValueError, match="not reorderable"):
        garray.subtract.reduce(g, axis=None)
    with pytest.raises(ValueError, match="no identity"):
        garray.subtract.reduce(g[:, :0], axis=1)
    with pytest.raises(ValueError, match="no identity"):
        garray.maximum.reduce(g[:0], axis=0)
    with pytest.raises(ValueError, match="initial"):
        garray.maximum.reduce(g, where=garray.asarray([True, False, True]), axis=1)


@pytest.mark.parametrize("name", ["negative", "sin", "abs", "logical_not"])
def test_unary_ufuncs_refuse(name):
    g = garray.asarray([1.0, 2.0])
    f = getattr(garray, name)
    with pytest.raises(ValueError, match="reduce only supported for binary functions"):
        f.reduce(g)
    with pytest.raises(ValueError, match="accumulate only supported for binary"):
        f.accumulate(g)
    with pytest.raises(ValueError, match="outer product only supported for binary"):
        f.outer(g, g)
    assert f.identity is None


@pytest.mark.parametrize("name", BINARY + ["negative", "sin"])
def test_identity(name):
    expected = npf(name).identity
    got = getattr(garray, name).identity
    assert type(got) is type(expected) and (got == expected or got is expected)


def test_integer_power_negative_exponent():
    g = garray.asarray([2, 3, -1])
    for f in (garray.pow.reduce, garray.pow.accumulate, garray.power.reduce):
        with pytest.raises(ValueError, match="negative integer powers"):
            f(g)
    assert_xp_close(garray.pow.reduce(garray.asarray([-2, 3, 1])),
                    numpy.power.reduce(numpy.array([-2, 3, 1])))
    with pytest.raises(ValueError, match="negative integer powers"):
        garray.pow.reduce(garray.asarray([-2, 3]), initial=2)    # -2 is an exponent here


def test_bitwise_and_unsigned_identity():
    for dt in ("uint8", "uint16", "uint32", "uint64", "int8", "bool"):
        h = numpy.array([[3, 7, 5], [6, 6, 6]], dtype=dt)
        g = garray_copy(h)
        assert_xp_close(garray.bitwise_and.reduce(g, axis=1), numpy.bitwise_and.reduce(h, 1))
        assert_xp_close(garray.bitwise_and.reduce(g[:, :0], axis=1),
                        numpy.bitwise_and.reduce(h[:, :0], axis=1))
        assert_xp_close(garray.bitwise_and.accumulate(g, axis=1),
                        numpy.bitwise_and.accumulate(h, axis=1))


@for_all_dtypes(dtypes=("int8", "uint8", "bool"))
@xp_compare()
def test_add_reduce_dtype_rule(xp, dtype):
    # NumPy's add/multiply.reduce widen small integers and bool (as sum), even wrapping
    a = xp.asarray(numpy.full((4, 70), 100).astype(dtype))
    return xp.stack([xp.add.reduce(a, axis=1), xp.multiply.reduce(a[:, :3], axis=1),
                     xp.add.accumulate(a, axis=1)[:, -1]])


@xp_compare()
def test_reduce_positional_and_keyword_arguments(xp):
    a = xp.asarray(numpy.arange(12.0).reshape(3, 4))
    return [xp.add.reduce(a, 1, None, None, False, 0, True),
            xp.add.reduce(array=a), xp.add.accumulate(a, 1, None, None),
            xp.add.accumulate(array=a, axis=1), xp.subtract.reduce([1, 2, 3]),
            xp.add.outer(2, xp.asarray([1, 2], dtype="int8")),
            xp.add.outer(xp.asarray([1, 2], dtype="int8"), 2.5),
            xp.multiply.outer([1.0, 2.0], [[1.0], [3.0]])]


# ---- ndarray methods ---------------------------------------------------------------------

_METHOD_CALLS = {
    "sum": [{}, {"axis": 0}, {"axis": (0, 2), "keepdims": True}, {"dtype": "int8"},
            {"axis": 1, "initial": 5}, {"axis": -1, "where": "mask"}],
    "prod": [{}, {"axis": 1}, {"axis": None, "keepdims": True}, {"dtype": "float32"},
             {"axis": 1, "initial": 2}],
    "max": [{}, {"axis": 0}, {"axis": (1, 2), "keepdims": True}, {"axis": 1, "initial": 3},
            {"axis": 2, "initial": -100, "where": "mask"}],
    "min": [{}, {"axis": 2}, {"axis": None, "keepdims": True}, {"axis": 0, "initial": 3}],
    "argmax": [{}, {"axis": 0}, {"axis": -1, "keepdims": True}, {"keepdims": True}],
    "argmin": [{}, {"axis": 1}, {"axis": 2, "keepdims": True}],
    "all": [{}, {"axis": 0}, {"axis": (0, 1), "keepdims": True}, {"axis": 2, "where": "mask"}],
    "any": [{}, {"axis": 1}, {"keepdims": True}, {"axis": 2, "where": "mask"}],
    "cumsum": [{}, {"axis": 0}, {"axis": -1, "dtype": "int16"}],
    "cumprod": [{}, {"axis": 1}, {"axis": 2, "dtype": "float64"}],
    "mean": [{}, {"axis": 0}, {"axis": (0, 2), "keepdims": True}, {"dtype": "float32"}],
    "var": [{}, {"axis": 1}, {"ddof": 1}, {"axis": 2, "keepdims": True}],
    "std": [{}, {"axis": 0, "ddof": 1}, {"axis": (1, 2)}],
    "ptp": [{}, {"axis": 1}, {"axis": 0, "keepdims": True}],
}


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")   # NumPy, dtype=
@pytest.mark.parametrize("method", sorted(_METHOD_CALLS))
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "float32", "float64",
                                   "complex64"])
def test_ndarray_methods(method, dtype):
    if not hasattr(garray, method):
        pytest.skip(f"garray.{method} is not in this branch yet")
    h = sample((3, 4, 5), dtype)
    g = garray_copy(h)
    mask = numpy.arange(5) % 3 != 1
    for kw in _METHOD_CALLS[method]:
        if dtype == "bool" and "initial" in kw and method in ("max", "min"):
            continue        # test_max_initial_dtype
        n_kw = dict(kw, where=mask) if "where" in kw else kw
        g_kw = dict(kw, where=garray.asarray(mask)) if "where" in kw else kw
        nf = (lambda x, **k: numpy.ptp(x, **k)) if method == "ptp" else \
            (lambda x, **k: getattr(x, method)(**k))
        try:
            with numpy.errstate(all="ignore"):
                expected = nf(h, **n_kw)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(expected_exception(e)):
                getattr(g, method)(**g_kw)
            continue
        assert_xp_close(getattr(g, method)(**g_kw), expected, rtol=1e-4, atol=1e-5,
                        err_msg=f"{method}({kw})")
        # the strided view reads the same elements
        assert_xp_close(getattr(g[:, ::-1], method)(**g_kw), nf(h[:, ::-1], **n_kw),
                        rtol=1e-4, atol=1e-5, err_msg=f"{method}({kw}) of a view")


@pytest.mark.parametrize("method", ["sum", "max", "argmin", "any", "cumsum", "prod"])
def test_ndarray_method_out(method):
    h = sample((3, 4), "float64")
    g = garray_copy(h)
    kw = {"axis": 1}
    shape = numpy.asarray(getattr(h, method)(**kw)).shape
    dt = "int64" if method.startswith("arg") else ("bool" if method == "any" else "float64")
    o = garray.zeros(shape, dtype=dt)
    assert getattr(g, method)(out=o, **kw) is o
    assert_xp_close(o, getattr(h, method)(**kw))
    # positional arguments in NumPy's order
    if method in ("sum", "prod", "cumsum"):
        assert_xp_close(getattr(g, method)(1, "float32"), getattr(h, method)(1, "float32"))
    elif method == "max":
        assert_xp_close(getattr(g, method)(0, None, True), getattr(h, method)(0, None, True))
    elif method == "any":     # (NumPy's any method takes a positional out as its dtype)
        assert_xp_close(getattr(g, method)(0), getattr(h, method)(0))


def test_ndarray_methods_are_inherited_by_views_and_documented():
    g = garray.ones((2, 3))
    for m in _METHOD_CALLS:
        assert callable(getattr(g.T, m))
        assert getattr(garray.ndarray, m).__doc__
    if not hasattr(garray, "mean"):
        with pytest.raises(NotImplementedError, match="garray.mean"):
            g.mean()


def test_sum_where_and_initial():
    h = numpy.array([1.0, 2.0, 3.0])
    assert_xp_close(garray.asarray(h).sum(where=garray.asarray([True, False, True]),
                                          initial=10.0),
                    h.sum(where=[True, False, True], initial=10.0))


def test_max_initial_dtype():
    h = numpy.array([True, False])
    assert_xp_close(garray.asarray(h).max(initial=3), h.max(initial=3))


def test_ufunc_methods_on_aliases():
    g = garray.asarray([[1.0, 2.0], [3.0, 4.0]])
    assert_xp_close(garray.power.reduce(g, axis=1), numpy.power.reduce(g.get(), axis=1))
    assert_xp_close(garray.true_divide.accumulate(g, axis=0),
                    numpy.true_divide.accumulate(g.get(), axis=0))
    assert_xp_close(garray.arctan2.outer(g[0], g[1]), numpy.arctan2.outer(g.get()[0],
                                                                        g.get()[1]))
    assert ALL_DTYPES  # the dtype list the tests above run over
