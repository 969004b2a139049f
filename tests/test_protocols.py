"""NumPy's dispatch protocols on garray arrays (Note [NumPy protocols] in
garray/_protocols.py): ``numpy.f(garray arrays)`` runs garray's ``f`` on garray's device.

Three layers: every NumPy function garray implements is routed to garray's function of
the same name (a recorder stands in for it, so each routing is checked without knowing
each function's arguments); a broad set of calls gives NumPy's values through dispatch;
and what garray lacks is a TypeError naming it.
"""

import inspect
import threading

import numpy
import pytest

import garray
from garray import _protocols
from xp import assert_xp_close, xp_compare, make

_SUBMODULES = {"numpy": (numpy, garray), "numpy.linalg": (numpy.linalg, garray.linalg),
               "numpy.fft": (numpy.fft, garray.fft)}


def _dispatched(np_mod):
    """NumPy's public functions in np_mod that go through __array_function__."""
    return sorted(n for n in dir(np_mod) if not n.startswith("_")
                  and getattr(getattr(np_mod, n), "_implementation", None) is not None)


def _routing_cases():
    cases = []
    for modname, (np_mod, g_mod) in _SUBMODULES.items():
        for n in _dispatched(np_mod):
            if hasattr(g_mod, getattr(np_mod, n).__name__):
                cases.append(pytest.param(modname, n, id=f"{modname}.{n}"))
    return cases


# Functions whose dispatcher needs a non-array first argument.
_FIRST_ARGS = {"einsum": ("ij",), "einsum_path": ("ij",), "fromfunction": None,
               "block": None}


class _Called(Exception):
    pass


@pytest.mark.parametrize("modname, name", _routing_cases())
def test_every_implemented_function_is_routed_to_garray(modname, name, monkeypatch):
    np_mod, g_mod = _SUBMODULES[modname]
    func = getattr(np_mod, name)
    seen = {}

    def recorder(*args, **kwargs):
        seen["args"], seen["kwargs"] = args, kwargs
        raise _Called

    # aliases (numpy.concat is numpy.concatenate) dispatch by the function's own name
    target = _protocols._RENAMED.get((modname, func.__name__), func.__name__)
    monkeypatch.setattr(g_mod, target, recorder)
    monkeypatch.setattr(_protocols, "_functions", {})
    g = garray.ones((2, 2))
    lead = _FIRST_ARGS.get(name, ())
    if lead is None:            # the dispatcher looks inside a nested list
        calls = [((g,), {}), (([g, g],), {}), (([[g, g]],), {})]
    else:
        calls = [(lead + (g,) * k, {}) for k in range(1, 5)]
    for args, kwargs in calls:
        try:
            func(*args, **kwargs)
        except _Called:
            break
        except TypeError:
            continue            # the dispatcher wants more positional arguments
    assert "args" in seen, f"numpy.{name} did not reach garray's {name}"
    assert seen["args"] == args and seen["kwargs"] == kwargs


def test_routing_covers_the_functions_numpy_dispatches():
    # the table above is built from NumPy itself: it must not be empty or tiny
    assert len(_routing_cases()) > 200


A = numpy.array([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]])
S = numpy.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])
I = numpy.array([[3, 1, 4], [1, 5, 9]], dtype=numpy.int64)

# (id, function of the NumPy module and the inputs made by xp): each runs NumPy's
# function on NumPy inputs and on garray inputs; the garray run must give garray arrays
# equal to NumPy's.
_CALLS = [
    ("sum", lambda a, s, i: numpy.sum(a)),
    ("sum-axis-keepdims", lambda a, s, i: numpy.sum(a, axis=0, keepdims=True)),
    ("mean", lambda a, s, i: numpy.mean(a, axis=1)),
    ("std-ddof", lambda a, s, i: numpy.std(a, ddof=1)),
    ("var", lambda a, s, i: numpy.var(a, axis=0)),
    ("max", lambda a, s, i: numpy.max(a, axis=1)),
    ("argmax", lambda a, s, i: numpy.argmax(a, axis=1)),
    ("cumsum", lambda a, s, i: numpy.cumsum(i, axis=1)),
    ("prod", lambda a, s, i: numpy.prod(i)),
    ("any", lambda a, s, i: numpy.any(a > 3)),
    ("all-axis", lambda a, s, i: numpy.all(i > 0, axis=0)),
    ("median", lambda a, s, i: numpy.median(a)),
    ("percentile", lambda a, s, i: numpy.percentile(a, 30.0, axis=1)),
    ("count_nonzero", lambda a, s, i: numpy.count_nonzero(i > 2)),
    ("concatenate", lambda a, s, i: numpy.concatenate([a, a], axis=1)),
    ("stack", lambda a, s, i: numpy.stack([a, a], axis=1)),
    ("vstack", lambda a, s, i: numpy.vstack([a, a])),
    ("hstack", lambda a, s, i: numpy.hstack([a, a])),
    ("split", lambda a, s, i: numpy.split(a, 3, axis=1)),
    ("reshape", lambda a, s, i: numpy.reshape(a, (3, 2))),
    ("transpose", lambda a, s, i: numpy.transpose(a)),
    ("moveaxis", lambda a, s, i: numpy.moveaxis(a, 0, 1)),
    ("expand_dims", lambda a, s, i: numpy.expand_dims(a, 1)),
    ("squeeze", lambda a, s, i: numpy.squeeze(a[None])),
    ("broadcast_to", lambda a, s, i: numpy.broadcast_to(a[0], (4, 3))),
    ("tile", lambda a, s, i: numpy.tile(a, (2, 1))),
    ("repeat", lambda a, s, i: numpy.repeat(i, 2, axis=0)),
    ("flip", lambda a, s, i: numpy.flip(a, axis=1)),
    ("roll", lambda a, s, i: numpy.roll(a, 1)),
    ("pad", lambda a, s, i: numpy.pad(a, 1)),
    ("where", lambda a, s, i: numpy.where(a > 1, a, 0.0)),
    ("clip", lambda a, s, i: numpy.clip(a, -1.0, 2.0)),
    ("round", lambda a, s, i: numpy.round(a * 3.3, 1)),
    ("sort", lambda a, s, i: numpy.sort(a, axis=None)),
    ("argsort", lambda a, s, i: numpy.argsort(a, axis=1, kind="stable")),
    ("unique", lambda a, s, i: numpy.unique(i)),
    ("searchsorted", lambda a, s, i: numpy.searchsorted(numpy.sort(a, axis=None), 1.0)),
    ("nonzero", lambda a, s, i: numpy.nonzero(i > 2)),
    ("diff", lambda a, s, i: numpy.diff(a, axis=1)),
    ("dot", lambda a, s, i: numpy.dot(a, s)),
    ("tensordot", lambda a, s, i: numpy.tensordot(a, s, axes=1)),
    ("einsum", lambda a, s, i: numpy.einsum("ij,kj->ik", a, a)),
    ("outer", lambda a, s, i: numpy.outer(a[0], a[1])),
    ("kron", lambda a, s, i: numpy.kron(a, s)),
    ("trace", lambda a, s, i: numpy.trace(s)),
    ("diag", lambda a, s, i: numpy.diag(s)),
    ("cross", lambda a, s, i: numpy.cross(a[0], a[1])),
    ("convolve", lambda a, s, i: numpy.convolve(a[0], a[1], mode="full")),
    ("isclose", lambda a, s, i: numpy.isclose(a, a + 1e-12)),
    ("zeros_like", lambda a, s, i: numpy.zeros_like(i)),
    ("full_like", lambda a, s, i: numpy.full_like(a, 7.0)),
    ("copy", lambda a, s, i: numpy.copy(a)),
    ("meshgrid", lambda a, s, i: numpy.meshgrid(a[0], a[1][:2])),
    ("atleast_2d", lambda a, s, i: numpy.atleast_2d(a[0])),
    ("linalg.norm", lambda a, s, i: numpy.linalg.norm(a)),
    ("linalg.inv", lambda a, s, i: numpy.linalg.inv(s)),
    ("linalg.det", lambda a, s, i: numpy.linalg.det(s)),
    ("linalg.solve", lambda a, s, i: numpy.linalg.solve(s, a.T)),
    ("linalg.eigvalsh", lambda a, s, i: numpy.linalg.eigvalsh(s)),
    ("linalg.cholesky", lambda a, s, i: numpy.linalg.cholesky(s)),
    ("fft.fft", lambda a, s, i: numpy.fft.fft(a, axis=1)),
    ("fft.rfft", lambda a, s, i: numpy.fft.rfft(a[0])),
    ("fft.fftshift", lambda a, s, i: numpy.fft.fftshift(a)),
    # ufuncs and their methods (__array_ufunc__)
    ("ufunc-add", lambda a, s, i: numpy.add(a, a)),
    ("ufunc-sin", lambda a, s, i: numpy.sin(a)),
    ("ufunc-matmul", lambda a, s, i: numpy.matmul(a, s)),
    ("ufunc-mixed-int-float", lambda a, s, i: numpy.multiply(i, a)),
    ("ufunc-list-operand", lambda a, s, i: numpy.subtract(a, [1.0, 2.0, 3.0])),
    ("ufunc-python-scalar", lambda a, s, i: numpy.power(a, 2)),
    ("ufunc-reduce", lambda a, s, i: numpy.maximum.reduce(a, axis=0)),
    ("ufunc-accumulate", lambda a, s, i: numpy.add.accumulate(i, axis=1)),
    ("ufunc-outer", lambda a, s, i: numpy.multiply.outer(a[0], a[1])),
    ("ufunc-dtype", lambda a, s, i: numpy.add(i, i, dtype=numpy.float32)),
    ("ufunc-dtype-unary", lambda a, s, i: numpy.sqrt(i, dtype=numpy.float32)),
    ("ufunc-dtype-unsafe", lambda a, s, i: numpy.add(a, a, dtype=numpy.int32)),
    ("ufunc-dtype-compare", lambda a, s, i: numpy.less(a, a, dtype=numpy.float64)),
    ("round-decimals", lambda a, s, i: numpy.round(a, 2)),
    ("around", lambda a, s, i: numpy.around(a * 3.3, 1)),
]


# garray.linalg's functions outside garray.linalg._common.GPU_FUNCTIONS run on the CPU
# device only so far (a NotImplementedError naming the function elsewhere, tested here
# through dispatch); the others run on cuSOLVER / hipSOLVER on GPUs.
_SOLVERS = {"linalg.inv", "linalg.det", "linalg.solve", "linalg.eigvalsh", "linalg.cholesky"}
_SOLVERS = {n for n in _SOLVERS
            if n.split(".")[1] not in garray.linalg._common.GPU_FUNCTIONS}
_ON_GPU = garray.default_device().kind != "cpu"


@pytest.mark.parametrize("name, fn", [c[:2] for c in _CALLS], ids=[c[0] for c in _CALLS])
def test_numpy_functions_on_garray_arrays(name, fn):
    if _ON_GPU and name in _SOLVERS:
        with pytest.raises(NotImplementedError, match=f"garray.{name} on "):
            fn(garray.asarray(A), garray.asarray(S), garray.asarray(I))
        return
    _compare(fn)


@xp_compare()
def _compare(xp, fn):
    return fn(xp.asarray(A), xp.asarray(S), xp.asarray(I))


@xp_compare()
def test_numpy_scalars_with_garray_operands(xp):
    x = xp.asarray(numpy.array([0.5, -1.0, 4.0]))
    return [numpy.float32(2) * x, x ** numpy.int8(2), numpy.float64(1.5) - x,
            numpy.int64(3) < x, numpy.add(numpy.asarray(2.5, numpy.float32), x)]


@pytest.mark.parametrize("call", [
    lambda h, g: h + g, lambda h, g: g + h, lambda h, g: h @ g, lambda h, g: h < g,
    lambda h, g: numpy.add(g, h), lambda h, g: numpy.matmul(h, g),
    lambda h, g: numpy.add(g, 1.0, out=garray.empty(3), where=h > 1),
], ids=["h+g", "g+h", "h@g", "h<g", "add", "matmul", "where"])
def test_numpy_array_next_to_a_garray_array_is_refused(call):
    # as garray's functions refuse NumPy arrays (and CuPy does): no host array crosses
    # to a device unseen; the message says how to copy it
    h = numpy.array([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match=r"numpy\.\w+: .* is a numpy\.ndarray next to a "
                                        r"garray\.ndarray; .*garray\.asarray"):
        call(h, garray.ones(3))


@xp_compare()
def test_creation_with_like(xp):
    like = xp.ones(2)
    return [numpy.asarray([1, 2, 3], like=like), numpy.array([[1.5]], like=like),
            numpy.zeros((2, 3), like=like), numpy.ones(4, dtype=numpy.int32, like=like),
            numpy.full((2,), 7, like=like), numpy.arange(1, 7, 2, like=like),
            numpy.eye(3, like=like), numpy.identity(2, like=like)]


def test_empty_like_with_shape():
    x = garray.ones((2, 3), dtype="int16")
    e = numpy.empty_like(x, shape=(4, 5))
    assert isinstance(e, garray.ndarray) and e.shape == (4, 5) and e.dtype == garray.int16
    e2 = numpy.empty((3,), dtype=numpy.float32, like=x)
    assert isinstance(e2, garray.ndarray) and e2.shape == (3,) and e2.dtype == garray.float32


def test_ufunc_out_is_a_garray_array():
    x = garray.asarray(A)
    o = garray.empty_like(x)
    r = numpy.add(x, 1.0, out=o)
    assert r is o
    assert_xp_close(o, A + 1.0)
    o2 = garray.empty_like(x)
    numpy.multiply(x, x, out=(o2,))
    assert_xp_close(o2, A * A)


def test_ufunc_out_into_host_memory_is_a_type_error():
    h = numpy.ones(3)
    with pytest.raises(TypeError, match=r"numpy\.add: out= holds a numpy\.ndarray"):
        numpy.add(garray.ones(3), 1.0, out=h)
    with pytest.raises(TypeError, match=r"numpy\.add"):
        h += garray.ones(3)
    assert (h == 1.0).all()                 # untouched


@pytest.mark.parametrize("call, name", [
    (lambda g: numpy.datetime_as_string(g), "numpy.datetime_as_string"),
])
def test_what_garray_lacks_is_a_type_error_naming_it(call, name):
    g = garray.ones(3)
    with pytest.raises(TypeError, match=name.replace(".", r"\.") + " is not implemented by garray"):
        call(g)


def test_numpy_polynomials_and_piecewise_dispatch_to_garray():
    g = garray.asarray([1.0, -2.0, 3.0])
    h = g.get()
    for got, want in [(numpy.polyval(g, 2.0), numpy.polyval(h, 2.0)),
                      (numpy.polyfit(g, g * 2, 1), numpy.polyfit(h, h * 2, 1)),
                      (numpy.piecewise(g, [g > 0], [lambda v: v * 10, 0]),
                       numpy.piecewise(h, [h > 0], [lambda v: v * 10, 0]))]:
        assert_xp_close(got, want)


def test_unknown_operand_types_defer_to_their_library():
    # NEP 13/18: a type garray does not know makes garray return NotImplemented, so NumPy
    # asks the other operand's library (here it answers)
    class Other:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return "other-ufunc"

        def __array_function__(self, func, types, args, kwargs):
            return "other-function"

    g = garray.ones(3)
    assert numpy.add(g, Other()) == "other-ufunc"
    assert numpy.concatenate([g, Other()]) == "other-function"
    assert g.__array_function__(numpy.sum, (garray.ndarray, Other), (g,), {}) \
        is NotImplemented


def test_subclass_dispatches_too():
    class Sub(garray.ndarray):
        pass

    s = garray.arange(4.0).view(Sub)
    assert_xp_close(numpy.sum(s), numpy.float64(6.0))
    assert isinstance(numpy.add(s, 1.0), garray.ndarray)


def test_operators_do_not_go_through_the_protocols(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("the operator went through __array_ufunc__")

    monkeypatch.setattr(_protocols, "array_ufunc", boom)
    x = garray.ones(3)
    assert_xp_close(x + 1, numpy.ones(3) + 1)
    assert_xp_close(garray.add(x, [1, 2, 3]), numpy.ones(3) + [1, 2, 3])


def test_empty_and_zero_d_inputs():
    e = garray.ones((0, 3))
    assert_xp_close(numpy.sum(e, axis=0), numpy.zeros(3))
    assert_xp_close(numpy.concatenate([e, e]), numpy.ones((0, 3)))
    z = garray.asarray(2.5)
    assert_xp_close(numpy.multiply(z, numpy.float64(2.0)), numpy.asarray(5.0))
    assert_xp_close(numpy.expand_dims(z, 0), numpy.asarray([2.5]))


def test_dispatch_from_threads():
    x = garray.asarray(make(numpy, (64,), "float64"))
    ref = make(numpy, (64,), "float64").sum()
    errors = []

    def work():
        try:
            for _ in range(20):
                r = numpy.sum(x)
                assert float(r) == ref
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_the_protocol_methods_have_numpys_signatures():
    # NumPy calls them positionally with these names
    assert list(inspect.signature(garray.ndarray.__array_function__).parameters)[1:] == \
        ["func", "types", "args", "kwargs"]


@pytest.mark.parametrize("mask_kind", ["garray", "list"])
def test_ufunc_where_with_out(mask_kind):
    m = numpy.array([[True, False, True], [False, False, True]])
    mask = {"garray": garray.asarray(m), "list": m.tolist()}[mask_kind]
    o = garray.full((2, 3), -9.0)
    r = numpy.multiply(garray.asarray(A), 2.0, out=o, where=mask)
    assert r is o
    assert_xp_close(o, numpy.multiply(A, 2.0, out=numpy.full((2, 3), -9.0), where=m))


def test_ufunc_where_without_out_has_numpys_values_where_the_mask_holds():
    m = numpy.array([True, False, True])
    r = numpy.add(garray.asarray([1.0, 2.0, 3.0]), 1.0, where=garray.asarray(m))
    assert isinstance(r, garray.ndarray)
    numpy.testing.assert_array_equal(r.get()[m], [2.0, 4.0])


def test_ufunc_where_with_dtype_and_out():
    o = garray.zeros(3, dtype="float32")
    numpy.add(garray.asarray(numpy.array([1, 2, 3])), 1, out=o, dtype=numpy.float32,
              where=garray.asarray([False, True, True]))
    assert_xp_close(o, numpy.array([0.0, 3.0, 4.0], dtype=numpy.float32))
