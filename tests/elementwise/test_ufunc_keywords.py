"""NumPy's ufunc keywords (Note [ufunc keywords], garray/_elementwise/keywords.py):
``where``, ``casting``, ``order``, ``dtype``, ``subok``, ``signature`` and positional
``out``, on the call and on ``outer``, against NumPy's outcome (value, dtype, shape, or the
exception class), hostile values included."""

import numpy
import pytest

import garray
from xp import ALL_DTYPES, assert_xp_close, expected_exception, xp_compare

# A sample of every rule of the op table: same, float, divide, bool, comparisons,
# two outputs, a second operand of its own type (ldexp), real results (abs).
BINARY = ("add", "subtract", "multiply", "divide", "floor_divide", "maximum", "less",
          "equal", "logical_and", "arctan2", "power", "divmod", "ldexp", "bitwise_and")
UNARY = ("negative", "sin", "sqrt", "isnan", "absolute", "floor", "logical_not", "modf")
TARGETS = ("bool", "int8", "int32", "uint64", "float16", "float32", "float64",
           "complex64", "complex128")


def _data(xp, dtype, n=5):
    v = numpy.array([0, 1, 2, 3, 5][:n]).astype(dtype)
    return xp.asarray(v)


def _outcome(fn):
    try:
        return fn(), None
    except Exception as e:   # noqa: BLE001 - the outcome compared is the exception class
        return None, e


def _check(mismatch, label, np_fn, g_fn):
    want, np_err = _outcome(np_fn)
    got, g_err = _outcome(g_fn)
    if np_err is not None:
        if g_err is None or not isinstance(g_err, expected_exception(np_err)):
            mismatch.append(f"{label}: numpy {type(np_err).__name__}, garray "
                            f"{type(g_err).__name__ if g_err else 'no error'}")
        return
    if g_err is not None:
        mismatch.append(f"{label}: garray raised {type(g_err).__name__}: {g_err}")
        return
    try:        # float32 loops into float64 outputs: float32's tolerance
        assert_xp_close(got, want, rtol=1e-5, atol=1e-6)
    except AssertionError as e:
        mismatch.append(f"{label}: {str(e).splitlines()[0]}")


@pytest.mark.parametrize("name", BINARY + UNARY)
def test_dtype_keyword_every_input_and_target(name):
    # dtype= chooses the loop whose output is that dtype (NumPy 2's resolution): the
    # operands' own loop when it gives it, else the loop computing in it, else TypeError
    nf, gf = getattr(numpy, name), getattr(garray, name)
    mismatch = []
    with numpy.errstate(all="ignore"):
        for src in ALL_DTYPES:
            for to in TARGETS:
                if nf.nin == 2:
                    second = "int32" if name == "ldexp" else src
                    _check(mismatch, f"{src}->{to}",
                           lambda: nf(_data(numpy, src), _data(numpy, second), dtype=to),
                           lambda: gf(_data(garray, src), _data(garray, second), dtype=to))
                else:
                    _check(mismatch, f"{src}->{to}",
                           lambda: nf(_data(numpy, src), dtype=to),
                           lambda: gf(_data(garray, src), dtype=to))
    assert not mismatch, mismatch


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("name", ["add", "less", "sin", "divide", "ldexp"])
def test_casting_of_inputs_and_out(name, casting):
    nf, gf = getattr(numpy, name), getattr(garray, name)
    mismatch = []
    with numpy.errstate(all="ignore"):
        for a in ("int8", "int32", "uint64", "float16", "float32", "float64", "complex64"):
            b = "int32" if name == "ldexp" else "int32"
            for o in (None, "int32", "float32", "float64", "bool"):
                def run(xp, f, a=a, b=b, o=o):
                    out = None if o is None else xp.zeros(5, dtype=o)
                    if f.nin == 1:
                        return f(_data(xp, a), out=out, casting=casting)
                    return f(_data(xp, a), _data(xp, b), out=out, casting=casting)
                _check(mismatch, f"{a},{b} out={o}", lambda: run(numpy, nf),
                       lambda: run(garray, gf))
    assert not mismatch, mismatch


@pytest.mark.parametrize("sig", ["ff->f", "dd->d", "ff->d", "ii->i", "dd->?", "ee->e",
                                 ("f4", "f4", None), (None, None, "f8"),
                                 ("f4", None, None), ("i4", "i4", "i4"), ("f4", "f4")])
@pytest.mark.parametrize("name", ["add", "less", "multiply"])
@xp_compare()
def test_signature(xp, name, sig):
    a = _data(xp, "int32")
    return getattr(xp, name)(a, a, signature=sig)


@xp_compare()
def test_signature_unary_and_two_outputs(xp):
    a = _data(xp, "int16")
    return xp.sin(a, signature="f->f"), xp.divmod(a, 2, signature="dd->dd")


@pytest.mark.parametrize("bad", [{"signature": 3}, {"signature": "ff"},
                                 {"dtype": "f4", "signature": "ff->f"},
                                 {"casting": "bogus"}, {"order": "X"}, {"order": 3},
                                 {"subok": 3}, {"dtype": "bogus"}])
@xp_compare()
def test_bad_keyword_values(xp, bad):
    a = _data(xp, "float64")
    return xp.add(a, a, **bad)


@xp_compare()
def test_unknown_keyword_is_a_type_error(xp):
    return xp.add(_data(xp, "float64"), 1, axis=0)


@pytest.mark.parametrize("mask_shape", [(5,), (1,), (), (2, 5), (2, 1)])
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128", "bool"])
@xp_compare()
def test_where_with_out_keeps_masked_elements(xp, dtype, mask_shape):
    mask = xp.asarray(numpy.resize([True, False, True], mask_shape).astype(bool))
    shape = numpy.broadcast_shapes((5,), mask_shape)
    out = xp.full(shape, 7, dtype=dtype)
    r = xp.add(_data(xp, dtype), _data(xp, dtype), out=out, where=mask)
    assert r is out
    return out


@pytest.mark.parametrize("mask", [True, False, [True, False, True, True, False]])
@xp_compare()
def test_where_python_values(xp, mask):
    out = xp.full(5, -1.0)
    xp.sqrt(_data(xp, "float64"), out=out, where=mask)
    return out


def test_where_without_out_computes_the_masked_elements():
    # NumPy leaves them uninitialised; garray's hold the result (Note [ufunc keywords] 3)
    a = garray.arange(6.0).reshape(2, 3)
    mask = garray.asarray([True, False, True])
    r = garray.multiply(a, 2, where=mask)
    assert_xp_close(r, numpy.arange(6.0).reshape(2, 3) * 2)
    w = garray.add(garray.ones(3), 1, where=garray.ones((2, 3), dtype=bool))
    assert w.shape == (2, 3)


@pytest.mark.parametrize("mask", ["float", "int", "numpy", "shape"])
@xp_compare()
def test_where_bad_masks(xp, mask):
    a = _data(xp, "float64")
    m = {"float": xp.ones(5), "int": [1, 0, 1, 0, 1], "shape": xp.ones(4, dtype=bool),
         "numpy": numpy.ones(5, bool)}[mask]
    if mask == "numpy" and xp is numpy:
        raise TypeError("garray refuses a host mask next to its arrays")
    return xp.add(a, a, out=xp.zeros(5), where=m)


@xp_compare()
def test_where_two_outputs_and_empty_and_0d(xp):
    q, r = xp.zeros(5), xp.full(5, 9.0)
    xp.divmod(_data(xp, "float64"), 2.0, out=(q, r), where=xp.asarray([1, 0, 1, 0, 1]) > 0)
    e = xp.add(xp.zeros((0, 3)), 1.0, out=xp.zeros((0, 3)), where=xp.zeros(3, dtype=bool))
    z = xp.zeros(())
    xp.add(xp.asarray(2.0), 1.0, out=z, where=xp.asarray(True))
    return q, r, e, z


@xp_compare()
def test_where_read_only_out(xp):
    o = xp.zeros(5)
    o.flags.writeable = False
    return xp.add(_data(xp, "float64"), 1.0, out=o, where=xp.asarray([True] * 5))


@xp_compare()
def test_out_aliasing_an_input_with_where(xp):
    a = xp.arange(6.0)
    xp.multiply(a, a[::-1], out=a, where=a > 2)
    return a


@pytest.mark.parametrize("order", ["C", "F", "A", "K", "c", None])
@pytest.mark.parametrize("layout", ["c", "f", "strided"])
def test_order_lays_out_a_new_result(order, layout):
    def run(xp):
        a = xp.asarray(numpy.arange(12.0).reshape(3, 4))
        a = {"c": a, "f": xp.asfortranarray(a), "strided": a[:, ::2]}[layout]
        r = xp.add(a, 1.0, order=order)
        return r, (r.flags.c_contiguous, r.flags.f_contiguous)
    (want, wflags), (got, gflags) = run(numpy), run(garray)
    assert_xp_close(got, want)
    if order not in ("K", None):        # K: garray's own layout choice (as the plain call)
        assert gflags == wflags


def test_subok_false_gives_a_base_array():
    class Sub(garray.ndarray):
        pass
    s = garray.arange(3.0).view(Sub)
    assert type(garray.add(s, 1, subok=False)) is garray.ndarray
    r = garray.add(s, 1, subok=True)
    assert isinstance(r, garray.ndarray)


@pytest.mark.parametrize("dtype", ["int8", "float16", "complex64"])
@xp_compare()
def test_positional_out(xp, dtype):
    o = xp.zeros(5, dtype=dtype)
    r = xp.add(_data(xp, dtype), _data(xp, dtype), o)
    assert r is o
    q, rem = xp.zeros(5), xp.zeros(5)
    xp.divmod(_data(xp, "float64"), 2.0, q, rem)
    return o, q, rem


@pytest.mark.parametrize("bad", ["tuple", "list", "int"])
@xp_compare()
def test_positional_out_must_be_an_array(xp, bad):
    o = {"tuple": (xp.zeros(5),), "list": [0.0] * 5, "int": 3}[bad]
    return xp.negative(_data(xp, "float64"), o)


@xp_compare()
def test_out_tuple_of_wrong_length(xp):
    return xp.add(_data(xp, "float64"), 1.0, out=(xp.zeros(5), xp.zeros(5)))


@pytest.mark.parametrize("kw", [{"dtype": "float32"}, {"casting": "unsafe"},
                                {"where": "mask"}, {"order": "F"}])
@xp_compare()
def test_outer_takes_the_call_keywords(xp, kw):
    a, b = _data(xp, "int32", 3), _data(xp, "int32", 4)
    if kw.get("where") == "mask":
        kw = {"where": xp.asarray(numpy.eye(3, 4, dtype=bool)), "out": xp.zeros((3, 4),
                                                                                dtype="int32")}
    if "casting" in kw:
        kw = dict(kw, out=xp.zeros((3, 4), dtype="int8"))
    return xp.multiply.outer(a, b, **kw)


@pytest.mark.parametrize("kind", ["python", "numpy", "both-python"])
@xp_compare()
def test_scalars_with_dtype_and_casting(xp, kind):
    a = _data(xp, "int8")
    if kind == "python":
        return xp.add(a, 300, dtype="int16"), xp.add(a, 1.5, dtype="float32")
    if kind == "numpy":
        return xp.add(a, numpy.float64(1.5), dtype="float32"), xp.add(
            numpy.int8(3), 4, casting="no")
    return xp.add(1, 2, dtype="float32"), xp.multiply(2.5, 2, dtype="float64")


@xp_compare()
def test_python_float_into_an_integer_loop_is_refused(xp):
    return xp.add(_data(xp, "int32"), 1.5, dtype="int32")


def test_numpy_protocol_passes_every_keyword():
    a = garray.arange(4.0)
    out = garray.zeros(4)
    numpy.add(a, 1.0, out=out, where=a > 1)
    assert_xp_close(out, numpy.where(numpy.arange(4.0) > 1, numpy.arange(4.0) + 1, 0.0))
    r = numpy.multiply(garray.arange(3, dtype="int32"), 2, dtype=numpy.float32)
    assert isinstance(r, garray.ndarray) and r.dtype == numpy.float32
    with pytest.raises(TypeError, match="casting rule 'no'"):
        numpy.add(garray.arange(3, dtype="int32"), garray.arange(3.0), casting="no")
    with pytest.raises(TypeError, match="numpy.ndarray"):
        numpy.add(a, 1.0, out=out, where=numpy.ones(4, bool))


@pytest.mark.parametrize("case", ["one", "two-entries", "divmod"])
@xp_compare()
def test_outer_out_tuples(xp, case):
    a, b = xp.arange(2.0), xp.arange(1.0, 4.0)
    if case == "divmod":
        q, r = xp.zeros((2, 3)), xp.zeros((2, 3))
        xp.divmod.outer(a, b, out=(q, r))
        return q, r
    o = xp.zeros((2, 3))
    res = xp.multiply.outer(a, b, out=(o,) if case == "one" else (o, o))
    assert res is o
    return o
