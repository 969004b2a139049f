"""garray.vectorize against numpy.vectorize and garray.frompyfunc against
numpy.frompyfunc: dtype inference and otypes, several outputs, excluded arguments,
signatures, cache, decorators, keywords, scalars, 0-d, empty, broadcasting, garray
arrays and Python lists on input.  frompyfunc's values are compared with NumPy's object
result cast to garray's dtype (garray's results are arrays of numbers, NumPy's object
arrays)."""

import decimal
import pickle

import numpy
import pytest

import garray
from xp import (assert_xp_close, expected_exception, for_all_dtypes, sample,
                xp_compare)


def _on(xp, h):
    return h if xp is numpy else garray.asarray(h)


def _twice(x):
    return x * 2


# ---- vectorize: elementwise ---------------------------------------------------------


@for_all_dtypes()
@pytest.mark.parametrize("func", [lambda x: x, _twice, lambda x: x > 0, abs,
                                  lambda x: x.real if isinstance(x, complex) else x / 2],
                         ids=["identity", "twice", "gt0", "abs", "half"])
@xp_compare()
def test_inferred_dtype(xp, dtype, func):
    """The first element's result decides the dtype, as NumPy's (Python scalars: an
    int8 array gives int64, float32 gives float64)."""
    return xp.vectorize(func)(_on(xp, sample((3, 4), dtype)))


@for_all_dtypes()
@pytest.mark.parametrize("layout", ["0d", "strided", "broadcast", "lists", "scalar"])
@xp_compare()
def test_two_arguments(xp, dtype, layout):
    f = xp.vectorize(lambda a, b: a - b if a > b else a + b)
    a = sample((3, 1), dtype)
    b = sample((4,), dtype, 3)
    if layout == "0d":
        return f(_on(xp, sample((), dtype, 2)), _on(xp, sample((), dtype, 5)))
    if layout == "strided":
        return f(_on(xp, sample((4, 8), dtype))[::-1, ::2], _on(xp, sample((4,), dtype)))
    if layout == "lists":
        return f(a.tolist(), b.tolist())
    if layout == "scalar":
        return f(_on(xp, b), b.tolist()[1])
    return f(_on(xp, a), _on(xp, b))


@pytest.mark.parametrize("x", [3, -2.5, True, 1 + 2j, numpy.float32(1.5), numpy.int8(-3)],
                         ids=str)
@xp_compare()
def test_scalar_input(xp, x):
    """NumPy gives a 0-d array; so does garray."""
    return xp.vectorize(lambda v: v * 2)(x)


@for_all_dtypes()
@xp_compare()
def test_empty_needs_otypes(xp, dtype):
    return xp.vectorize(_twice)(_on(xp, sample((2, 0), dtype)))


@pytest.mark.parametrize("otypes", ["d", [float], [numpy.float32], "F", [bool], "i",
                                    [numpy.uint8]], ids=str)
@xp_compare()
def test_empty_with_otypes(xp, otypes):
    return xp.vectorize(_twice, otypes=otypes)(_on(xp, sample((2, 0), "float64")))


@pytest.mark.parametrize("otypes", ["d", [float], [numpy.float32], "F", [numpy.int16],
                                    [bool], "f", [numpy.complex64], "e"], ids=str)
@pytest.mark.parametrize("dtype", ["int32", "float64", "bool"])
@xp_compare()
def test_otypes(xp, otypes, dtype):
    return xp.vectorize(lambda x: x + 1, otypes=otypes)(_on(xp, sample((2, 3), dtype)))


@pytest.mark.parametrize("otypes", ["z", 3, ["no-such-type"]], ids=str)
@xp_compare()
def test_bad_otypes(xp, otypes):
    return xp.vectorize(_twice, otypes=otypes)


@xp_compare()
def test_not_callable(xp):
    return xp.vectorize(3)


# ---- vectorize: several outputs -----------------------------------------------------


@for_all_dtypes()
@xp_compare()
def test_two_outputs(xp, dtype):
    f = xp.vectorize(lambda x: (x, x > 0))
    return f(_on(xp, sample((3, 4), dtype)))


@pytest.mark.parametrize("otypes", [None, "dl", [numpy.float32, numpy.int8]], ids=str)
@xp_compare()
def test_divmod(xp, otypes):
    f = xp.vectorize(divmod, otypes=otypes)
    return f(_on(xp, numpy.arange(-5, 7).reshape(3, 4)), [3, 4, 5, 7])


@xp_compare()
def test_two_outputs_empty(xp):
    f = xp.vectorize(lambda x: (x, 2 * x), otypes="dl")
    return f(_on(xp, numpy.zeros((0, 3))))


@xp_compare()
def test_wrong_output_count(xp):
    # otypes says two outputs; the function gives one
    return xp.vectorize(lambda x: x, otypes="dd")(_on(xp, numpy.arange(3.0)))


# ---- vectorize: excluded, keywords --------------------------------------------------


def _polyval(p, x):
    _p = list(p)
    res = _p.pop(0)
    while _p:
        res = res * x + _p.pop(0)
    return res


@xp_compare()
def test_excluded_as_numpy_documents(xp):
    vpolyval = xp.vectorize(_polyval, excluded=["p"])
    r1 = vpolyval(p=[1, 2, 3], x=_on(xp, numpy.asarray([0, 1])))
    vpolyval.excluded.add(0)
    r2 = vpolyval([1, 2, 3], x=_on(xp, numpy.asarray([0, 1])))
    r3 = vpolyval([1, 2, 3], _on(xp, numpy.asarray([[0.5], [2.0]])))
    return [r1, r2, r3]


@xp_compare()
def test_excluded_positional_index(xp):
    f = xp.vectorize(lambda x, scale, off: x * len(scale) + off, excluded={1})
    return [f(_on(xp, numpy.arange(4)), [1, 1, 1], 1),
            f(_on(xp, numpy.arange(4.0)), (2, 2), off=_on(xp, numpy.asarray([1, 2, 3, 4])))]


def test_excluded_garray_argument_passes_through():
    seen = []

    def f(x, table):
        seen.append(type(table))
        return x + int(table.shape[0])

    table = garray.arange(3)
    r = garray.vectorize(f, excluded={"table", 1})(garray.asarray([1, 2]), table)
    assert_xp_close(r, numpy.asarray([4, 5]))
    assert set(seen) == {garray.ndarray}
    # an excluded NumPy array is passed through too (only vectorized ones are refused)
    r = garray.vectorize(f, excluded={1})(garray.asarray([1]), numpy.ones(2))
    assert_xp_close(r, numpy.asarray([3]))


@xp_compare()
def test_keywords_and_defaults(xp):
    f = xp.vectorize(lambda x, y=10, z=100: x + y + z)
    x = _on(xp, numpy.arange(3))
    return [f(x), f(x, 1), f(x, z=_on(xp, numpy.asarray([[1], [2]]))), f(x=x, y=x, z=0),
            f(2, y=3)]


@xp_compare()
def test_no_vectorized_argument(xp):
    # NumPy calls the function once and returns its result as it is
    return xp.vectorize(lambda: 5)()


# ---- vectorize: signature -----------------------------------------------------------


@xp_compare()
def test_signature_dot(xp):
    f = xp.vectorize(lambda a, b: (a * b).sum(), signature="(n),(n)->()")
    a = _on(xp, sample((2, 3, 4), "float64"))
    b = _on(xp, sample((4,), "float64", 3))
    return [f(a, b), f(a[0, 0], b), f([1.0, 2.0], [[3.0, 4.0]])]


@xp_compare()
def test_signature_matvec_and_new_dims(xp):
    matvec = xp.vectorize(lambda m, v: m @ v, signature="(m,n),(n)->(m)")
    m = _on(xp, sample((2, 3, 4), "float32"))
    v = _on(xp, sample((4,), "float32", 1))
    grow = xp.vectorize(lambda x: x * numpy.arange(3), signature="()->(k)")
    stats = xp.vectorize(lambda x: (x - x.mean(), x.max()), signature="(n)->(n),()")
    return [matvec(m, v), grow(_on(xp, numpy.arange(4).reshape(2, 2))),
            stats(_on(xp, sample((3, 5), "int16")))]


@xp_compare()
def test_signature_empty(xp):
    f = xp.vectorize(lambda a: a.sum(), signature="(n)->()", otypes=[float])
    return f(_on(xp, numpy.zeros((0, 3))))


@pytest.mark.parametrize("case", ["nargs", "size", "nout", "empty-no-otypes",
                                  "empty-new-dim", "bad-signature"])
@xp_compare()
def test_signature_errors(xp, case):
    x = _on(xp, numpy.ones((2, 3)))
    if case == "nargs":
        return xp.vectorize(lambda a, b: a, signature="(n),(n)->()")(x)
    if case == "size":
        return xp.vectorize(lambda a, b: 0, signature="(n),(n)->()")(x, [1, 2])
    if case == "nout":
        return xp.vectorize(lambda a: a.sum(), signature="(n)->(),()")(x)
    if case == "empty-no-otypes":
        return xp.vectorize(lambda a: a.sum(), signature="(n)->()")(x[:0])
    if case == "empty-new-dim":
        return xp.vectorize(lambda a: a, signature="()->(k)", otypes="d")(x[:0])
    return xp.vectorize(lambda a: a, signature="bad")


def test_signature_function_gets_numpy_arrays():
    seen = []

    def f(a):
        seen.append(type(a))
        return garray.sum(garray.asarray(a))     # garray results are brought back

    r = garray.vectorize(f, signature="(n)->()")(garray.ones((2, 3)))
    assert_xp_close(r, numpy.full(2, 3.0))
    assert set(seen) == {numpy.ndarray}


# ---- vectorize: cache, decorators, attributes ---------------------------------------


@pytest.mark.parametrize("cache", [False, True])
@pytest.mark.parametrize("otypes", [None, "d"])
def test_cache_call_count(cache, otypes):
    """cache=True saves the first element's second call, as NumPy's."""
    counts = {}
    for xp in (numpy, garray):
        n = [0]

        def f(x):
            n[0] += 1
            return x * 1.5

        r = xp.vectorize(f, otypes=otypes, cache=cache)(_on(xp, numpy.arange(5)))
        counts[xp.__name__] = (n[0], r)
    assert counts["garray"][0] == counts["numpy"][0]
    assert_xp_close(counts["garray"][1], counts["numpy"][1])
    assert counts["numpy"][0] == (6 if otypes is None and not cache else 5)


def test_decorators_doc_and_name():
    for xp in (numpy, garray):
        @xp.vectorize
        def plain(x):
            """Twice x."""
            return 2 * x

        @xp.vectorize(otypes=[float])
        def typed(x):
            """Half x."""
            return x // 2

        @xp.vectorize(doc="Given doc.", excluded={1})
        def given(x, k):
            """Own doc."""
            return x + len(k)

        assert plain.__doc__ == "Twice x." and plain.__name__ == "plain"
        assert typed.__doc__ == "Half x." and typed.__name__ == "typed"
        assert given.__doc__ == "Given doc." and given.__name__ == "given"
        assert xp.vectorize(_twice, doc="D").__doc__ == "D"
        assert xp.vectorize(_twice).__doc__ is None
        assert xp.vectorize(_polyval).__name__ == "_polyval"
        x = _on(xp, numpy.arange(3))
        res = [plain(x), typed(x), given(x, "ab")]
        if xp is numpy:
            want = res
        else:
            assert_xp_close(res, want)


def test_attributes_as_numpy():
    for kw in ({}, {"otypes": "dl", "excluded": [1, "k"], "cache": True},
               {"otypes": [numpy.float32], "signature": "(n)->()"}):
        n, g = numpy.vectorize(_twice, **kw), garray.vectorize(_twice, **kw)
        assert g.pyfunc is _twice
        assert g.otypes == n.otypes
        assert g.excluded == n.excluded and isinstance(g.excluded, set)
        assert g.cache == n.cache and g.signature == n.signature
    g = garray.vectorize(otypes="d")
    assert g.pyfunc is numpy._NoValue
    assert g(_twice) is g and g.pyfunc is _twice
    assert "_twice" in repr(g)


def test_setting_pyfunc_and_otypes():
    g = garray.vectorize(_twice)
    g.pyfunc = lambda x: x + 1
    g.otypes = "f"
    assert_xp_close(g(garray.asarray([1, 2])), numpy.asarray([2, 3], dtype="float32"))


def test_pickle():
    g = pickle.loads(pickle.dumps(garray.vectorize(_twice, otypes="d")))
    assert_xp_close(g(garray.asarray([1, 2])), numpy.asarray([2.0, 4.0]))


# ---- vectorize: garray specifics ----------------------------------------------------


def test_function_may_return_garray_arrays():
    x = sample((3, 4), "float32")
    got = garray.vectorize(lambda v: garray.sqrt(abs(v)))(garray.asarray(x))
    want = numpy.vectorize(lambda v: numpy.sqrt(abs(v)))(x)
    assert_xp_close(got, want)
    got = garray.vectorize(lambda v: (garray.asarray(v), garray.asarray(v > 0)))([1.5, -2.0])
    assert_xp_close(got, numpy.vectorize(lambda v: (numpy.asarray(v), v > 0))([1.5, -2.0]))


@pytest.mark.parametrize("func, dtype", [(lambda x: None, "object"), (str, "<U"),
                                         (lambda x: decimal.Decimal(int(x)), "object")],
                         ids=["none", "str", "decimal"])
def test_result_dtype_garray_lacks(func, dtype):
    numpy.vectorize(func)([1, 2])       # NumPy holds it; garray cannot
    with pytest.raises(TypeError, match=f"dtype {dtype}"):
        garray.vectorize(func)(garray.asarray([1, 2]))
    with pytest.raises(TypeError, match="dtype object"):
        garray.vectorize(_twice, otypes=[object])(garray.asarray([1, 2]))


def test_numpy_array_argument_refused():
    f = garray.vectorize(_twice)
    with pytest.raises(TypeError, match=r"argument 0: expected a garray\.ndarray.*"
                                        r"garray\.asarray"):
        f(numpy.ones(2))
    with pytest.raises(TypeError, match=r"x: expected a garray\.ndarray"):
        f(x=numpy.ones(2))


def test_result_device():
    x = garray.asarray([1.0, 2.0])
    assert garray.vectorize(_twice)(x).device == x.device
    a, b = garray.vectorize(divmod)(x, 2)
    assert a.device == b.device == x.device
    dev = garray.default_device()
    with garray.Device(dev):
        assert garray.vectorize(_twice)([1, 2]).device == dev
    # garray arrays nested in a list are read on the host too
    assert_xp_close(garray.vectorize(_twice)([garray.asarray(1.0), garray.asarray(2.0)]),
                    numpy.asarray([2.0, 4.0]))


# ---- frompyfunc ---------------------------------------------------------------------


def _compare_frompyfunc(got, want):
    """garray's result against NumPy's object result cast to garray's dtype; garray's
    dtype is the one numpy.asarray gives the list of NumPy's results."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _compare_frompyfunc(g, w)
        return
    assert isinstance(got, garray.ndarray)
    w = numpy.asarray(want)
    if w.size:
        assert got.dtype == numpy.asarray(w.tolist()).dtype
    assert_xp_close(got, w.astype(got.dtype))


def _both(func, nin, nout, *args, **kw):
    n = numpy.frompyfunc(func, nin, nout, **kw)
    g = garray.frompyfunc(func, nin, nout, **kw)
    hargs = list(args)
    gargs = [garray.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args]
    _check(lambda: n(*hargs), lambda: g(*gargs))
    return n, g


def _check(fn_np, fn_g):
    """Compare as _compare_frompyfunc, or both raise alike (complex numbers do not
    order)."""
    try:
        want = fn_np()
    except Exception as e:  # noqa: BLE001 - garray must raise the same type
        with pytest.raises(expected_exception(e)):
            fn_g()
        return
    _compare_frompyfunc(fn_g(), want)


@for_all_dtypes()
@pytest.mark.parametrize("func", [lambda x: x, _twice, lambda x: x > 0, abs],
                         ids=["identity", "twice", "gt0", "abs"])
def test_frompyfunc_unary(dtype, func):
    _both(func, 1, 1, sample((3, 4), dtype))


@for_all_dtypes()
@pytest.mark.parametrize("layout", ["broadcast", "scalar", "0d", "empty", "lists", "strided"])
def test_frompyfunc_binary(dtype, layout):
    def f(a, b):
        return a - b if a > b else a + b

    a, b = sample((3, 1), dtype), sample((4,), dtype, 3)
    if layout == "broadcast":
        _both(f, 2, 1, a, b)
    elif layout == "scalar":
        _both(f, 2, 1, a, b.tolist()[2])
        _both(f, 2, 1, b.tolist()[0], b.tolist()[2])
    elif layout == "0d":
        _both(f, 2, 1, sample((), dtype, 2), sample((), dtype, 5))
    elif layout == "empty":
        n = numpy.frompyfunc(f, 2, 1)(sample((2, 0), dtype), b[:0])
        g = garray.frompyfunc(f, 2, 1)(garray.asarray(sample((2, 0), dtype)),
                                       garray.asarray(b[:0]))
        assert g.shape == n.shape and g.dtype == numpy.float64    # no values: float64
    elif layout == "lists":
        _both(f, 2, 1, a.tolist(), b.tolist())
    else:
        h = sample((4, 8), dtype)
        _check(lambda: numpy.frompyfunc(f, 2, 1)(h[::-1, ::3], b[0]),
               lambda: garray.frompyfunc(f, 2, 1)(garray.asarray(h)[::-1, ::3],
                                                  b.tolist()[0]))


def test_frompyfunc_scalar_gives_0d():
    g = garray.frompyfunc(lambda x, y: x * y, 2, 1)(3, 4)
    assert isinstance(g, garray.ndarray) and g.shape == () and g.dtype == numpy.int64
    assert int(g) == 12
    assert garray.frompyfunc(lambda x: x > 1, 1, 1)(2.5).dtype == numpy.bool_


@pytest.mark.parametrize("vals, dtype", [([1, 2.5], "float64"), ([True, 2], "int64"),
                                         ([1, 2j], "complex128"), ([True, False], "bool"),
                                         ([numpy.float32(1), numpy.float32(2)], "float32"),
                                         ([2 ** 63, 2 ** 63 + 1], "uint64"),
                                         ([2 ** 63, 1], "float64")], ids=str)
def test_frompyfunc_result_dtype_rule(vals, dtype):
    f = garray.frompyfunc(lambda i: vals[i], 1, 1)
    r = f(garray.asarray([0, 1]))
    # NumPy's discovery: a Python int past int64 is uint64, with an int64 one float64
    assert r.dtype == dtype
    _compare_frompyfunc(r, numpy.frompyfunc(lambda i: vals[i], 1, 1)([0, 1]))


def test_frompyfunc_two_outputs():
    n, g = _both(divmod, 2, 2, numpy.arange(-4, 8).reshape(3, 4), 3)
    assert g.nout == 2 and g.nargs == 4
    _both(lambda x: (x, x / 2, x > 1), 1, 3, numpy.arange(4))


def test_frompyfunc_attributes():
    for func, nin, nout, kw in ((_twice, 1, 1, {}), (lambda a, b: a + b, 2, 1,
                                                     {"identity": 0}),
                                (divmod, 2, 2, {"identity": None}), (print, 1, 0, {})):
        n = numpy.frompyfunc(func, nin, nout, **kw)
        g = garray.frompyfunc(func, nin, nout, **kw)
        assert (g.nin, g.nout, g.nargs, g.identity, g.__name__) == \
            (n.nin, n.nout, n.nargs, n.identity, n.__name__)
    g = garray.frompyfunc(_twice, nin=1, nout=1)
    assert g.__name__ == "_twice (vectorized)" and "_twice" in repr(g)
    assert g.func is _twice


@pytest.mark.parametrize("args", [(3, 1, 1), (_twice, "a", 1), (_twice, 1.5, 1),
                                  (_twice, 1, None), (_twice, 100, 1), (_twice, 1, 100),
                                  (_twice, 40, 40), (_twice,)], ids=str)
def test_frompyfunc_validation(args):
    with pytest.raises(Exception) as e:
        numpy.frompyfunc(*args)
    with pytest.raises(expected_exception(e.value)):
        garray.frompyfunc(*args)


def test_frompyfunc_keyword_only_identity_positional_only_func():
    for xp in (numpy, garray):
        with pytest.raises(TypeError):
            xp.frompyfunc(_twice, 1, 1, 0)
    with pytest.raises(TypeError):
        garray.frompyfunc(func=_twice, nin=1, nout=1)


@pytest.mark.parametrize("args", [(), (1,), (1, 2, 3, 4)], ids=str)
def test_frompyfunc_wrong_argument_count(args):
    with pytest.raises(Exception) as e:
        numpy.frompyfunc(lambda a, b: a + b, 2, 1)(*args)
    with pytest.raises(expected_exception(e.value)):
        garray.frompyfunc(lambda a, b: a + b, 2, 1)(*args)


@pytest.mark.parametrize("func", [lambda x: None, lambda x: "s", lambda x: [x, x],
                                  lambda x: [x] * (x + 1), lambda x: 2 ** 70],
                         ids=["none", "str", "list", "ragged", "huge-int"])
def test_frompyfunc_non_numbers(func):
    numpy.frompyfunc(func, 1, 1)(numpy.arange(3))
    with pytest.raises(TypeError, match="dtype object"):
        garray.frompyfunc(func, 1, 1)(garray.arange(3))


def test_frompyfunc_out():
    f = garray.frompyfunc(lambda a, b: a * b, 2, 1)
    out = garray.zeros((2, 3))
    r = f(garray.asarray([1, 2, 3]), 2, out=out)        # broadcast to out's shape
    assert r is out
    assert_xp_close(out, numpy.full((2, 3), [2.0, 4.0, 6.0]))
    out2 = garray.zeros(3, dtype="int32")
    assert f(garray.asarray([1, 2, 3]), 3, out2) is out2     # positional out
    assert_xp_close(out2, numpy.asarray([3, 6, 9], dtype="int32"))
    with pytest.raises(TypeError, match="same_kind"):
        f(garray.asarray([1.5]), 2, out=garray.zeros(1, dtype="int64"))
    with pytest.raises(TypeError, match="both"):
        f(garray.asarray([1]), 2, out2, out=out2)
    with pytest.raises(TypeError, match="garray.asarray"):
        f(garray.asarray([1]), 2, out=numpy.zeros(1))
    d = garray.frompyfunc(divmod, 2, 2)
    q, r = garray.zeros(3, dtype="int64"), garray.zeros(3, dtype="int64")
    got = d(garray.asarray([7, 8, 9]), 4, out=(q, None))
    assert got[0] is q and isinstance(got[1], garray.ndarray)
    assert_xp_close(list(got), [numpy.asarray([1, 2, 2]), numpy.asarray([3, 0, 1])])
    with pytest.raises(ValueError):
        d(garray.asarray([7]), 4, out=q)


def test_frompyfunc_garray_results_and_numpy_refused():
    f = garray.frompyfunc(lambda x: garray.sqrt(x), 1, 1)
    _compare_frompyfunc(f(garray.asarray([1.0, 4.0])),
                        numpy.frompyfunc(numpy.sqrt, 1, 1)(numpy.asarray([1.0, 4.0])))
    with pytest.raises(TypeError, match=r"x1: expected a garray\.ndarray.*garray\.asarray"):
        f(numpy.ones(2))
    with pytest.raises(TypeError, match="garray.asarray"):
        garray.frompyfunc(numpy.ones(2), 1, 1)


def test_frompyfunc_result_device():
    x = garray.asarray([1, 2])
    f = garray.frompyfunc(lambda a, b: a + b, 2, 1)
    assert f(x, 1).device == x.device
    dev = garray.default_device()
    with garray.Device(dev):
        assert f([1], 2).device == dev
