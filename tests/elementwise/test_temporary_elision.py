"""Temporary elision (cython/_ufunc.pxi, Note [Temporary elision]): an operator writes
its result into an operand that only the interpreter's value stack holds, as NumPy does
(`a * b + c` reuses the product).  The results must be NumPy's in every case, elided or
not; an array anyone else can still see (a name, a view's owner, a C caller's
reference) must never change; and the elision must happen where it may, or the test of
the path proves nothing."""

import operator
import os
import shutil
import subprocess
import sys
import sysconfig

import numpy
import pytest

import garray
from garray._core import _debug_elisions
from xp import assert_xp_close

N = (1 << 18) + 3           # at least 256 KiB in every dtype, and a vector tail
ON_CPU = garray.default_device().kind == "cpu"   # GPUs never elide (their pool has no
                                                 # first-write cost): values only there
# Every dtype where elision happens; on a GPU (none) two, for the values alone, which
# the elementwise tests cover in full (the stub devices ran this matrix in 67 s).
DTYPES = (["bool", "int8", "uint16", "int32", "int64", "float32", "float64", "complex64",
           "float16"] if ON_CPU else ["int32", "float32"])
BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
          operator.mod, operator.pow, operator.and_, operator.or_, operator.xor,
          operator.lshift, operator.rshift, operator.eq, operator.lt, operator.ge]
UNARY = [operator.neg, operator.pos, operator.abs, operator.invert]


def _copy(x):
    return x.copy()


def _operands(xp, dtype):
    i = numpy.arange(N)
    a = numpy.asarray(i % 7 + 1).astype(dtype)
    b = numpy.asarray(i % 5 + 1).astype(dtype)
    return xp.asarray(a), xp.asarray(b)


def _both(fn, dtype):
    """fn(cp, a, b) with NumPy and garray: (NumPy's result or exception, garray's, the
    elisions garray made).  cp(x) makes the temporary; NumPy's is held here, so NumPy
    computes without its own elision, which has bugs of its own (bool // bool raises
    there, since the int8 result cannot go into the bool temporary)."""
    held = []

    def hold(x):
        held.append(x.copy())
        return held[-1]

    try:
        with numpy.errstate(all="ignore"):
            want = fn(hold, *_operands(numpy, dtype))
    except Exception as e:      # noqa: BLE001 -- garray must raise the same type
        want = e
    a, b = _operands(garray, dtype)
    before = _debug_elisions()
    if isinstance(want, Exception):
        builtin = next(c for c in type(want).__mro__ if c.__module__ == "builtins")
        with pytest.raises(builtin):
            fn(_copy, a, b)
        return want, None, _debug_elisions() - before
    with numpy.errstate(all="ignore"):
        got = fn(_copy, a, b)
    elided = _debug_elisions() - before
    assert_xp_close(got, want)
    return want, got, elided


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", BINARY, ids=lambda f: f.__name__)
def test_binary_operator_into_a_temporary(op, dtype):
    # the temporary on the left, then on the right: cp(a) is held by the stack alone
    for fn in (lambda cp, a, b: op(cp(a), b), lambda cp, a, b: op(a, cp(b))):
        want, got, elided = _both(fn, dtype)
        if got is not None:
            # it may elide exactly when the result has the temporary's dtype
            assert elided == (ON_CPU and got.dtype == garray.dtype(dtype)), (elided, got.dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", UNARY, ids=lambda f: f.__name__)
def test_unary_operator_into_a_temporary(op, dtype):
    want, got, elided = _both(lambda cp, a, b: op(cp(a)), dtype)
    if got is not None:
        assert elided == (ON_CPU and got.dtype == garray.dtype(dtype))


def test_chains_and_scalars():
    # every step of a chain reuses the first temporary; scalars on either side
    want, got, elided = _both(lambda cp, a, b: ((a * b + a) * 2.0 - b) / (1.0 + a),
                              "float32")
    assert elided == (4 if ON_CPU else 0)
    want, got, elided = _both(lambda cp, a, b: 3 - (a * b) ** 2, "int64")
    assert elided == (2 if ON_CPU else 0)


def test_what_must_not_be_reused():
    a, b = _operands(garray, "float64")
    ha, hb = garray.asnumpy(a), garray.asnumpy(b)
    before = _debug_elisions()
    t = a.copy()
    u = t + b                                   # a name holds t
    numpy.testing.assert_array_equal(garray.asnumpy(t), ha)
    w = a[1:] + b[1:]                           # views of a and b
    x = a.reshape(-1, 1)[:, 0] * 1.0
    y = a.astype(garray.float32) + b            # float32 temporary, float64 result
    z = a.copy() + b.reshape(1, -1)             # the result is 2-d, the temporary 1-d
    s = a[:100].copy() + 1.0                    # under the size threshold
    assert _debug_elisions() == before
    numpy.testing.assert_array_equal(garray.asnumpy(a), ha)
    numpy.testing.assert_array_equal(garray.asnumpy(b), hb)
    numpy.testing.assert_array_equal(garray.asnumpy(u), ha + hb)
    numpy.testing.assert_array_equal(garray.asnumpy(w), ha[1:] + hb[1:])
    numpy.testing.assert_array_equal(garray.asnumpy(x), ha)
    numpy.testing.assert_array_equal(garray.asnumpy(y), ha.astype(numpy.float32) + hb)
    assert z.shape == (1, N)
    numpy.testing.assert_array_equal(garray.asnumpy(s), ha[:100] + 1.0)


def _read_only(h):
    x = garray.asarray(h).copy()
    x.flags.writeable = False
    return x


def test_read_only_and_host_memory_are_not_reused():
    h = numpy.arange(N, dtype=numpy.float64)
    keep = h.copy()
    before = _debug_elisions()
    r = _read_only(h) + 1.0                 # one reference, but read-only
    assert _debug_elisions() == before
    numpy.testing.assert_array_equal(garray.asnumpy(r), keep + 1.0)
    s = garray.asarray(h) + 1.0             # garray's copy or a view of h: h unchanged
    numpy.testing.assert_array_equal(h, keep)
    numpy.testing.assert_array_equal(garray.asnumpy(s), keep + 1.0)


_C_CALLER = r"""
#include <Python.h>
/* keep_add(f, b): t = f(), then t + b with t held here alone, then (t, t + b) */
static PyObject* keep_add(PyObject* self, PyObject* args) {
    PyObject *f, *b, *t, *r;
    if (!PyArg_ParseTuple(args, "OO", &f, &b)) return NULL;
    t = PyObject_CallObject(f, NULL);
    if (!t) return NULL;
    r = PyNumber_Add(t, b);
    if (!r) { Py_DECREF(t); return NULL; }
    return Py_BuildValue("NN", t, r);
}
static PyMethodDef methods[] = {{"keep_add", keep_add, METH_VARARGS, ""}, {0}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "elide_caller", "", -1, methods};
PyMODINIT_FUNC PyInit_elide_caller(void) { return PyModule_Create(&mod); }
"""


def test_a_c_caller_keeps_its_operand(tmp_path):
    # A C function holding the only reference to t, using it after t + b: the count is
    # 1, but the call stack shows C code other than the interpreter's, so no elision.
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the calling extension")
    src = tmp_path / "elide_caller.c"
    src.write_text(_C_CALLER)
    so = tmp_path / ("elide_caller" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run([cc, "-shared", "-fPIC", "-O1", f"-I{sysconfig.get_paths()['include']}",
                    str(src), "-o", str(so)], check=True, capture_output=True)
    sys.path.insert(0, str(tmp_path))
    try:
        import elide_caller
    finally:
        sys.path.remove(str(tmp_path))
    a, b = _operands(garray, "float64")
    ha, hb = garray.asnumpy(a), garray.asnumpy(b)
    before = _debug_elisions()
    t, r = elide_caller.keep_add(a.copy, b)
    assert _debug_elisions() == before
    numpy.testing.assert_array_equal(garray.asnumpy(t), ha)
    numpy.testing.assert_array_equal(garray.asnumpy(r), ha + hb)
    # the same call from Python code elides (the path above is the one that refused)
    r2 = a.copy() + b
    assert _debug_elisions() == before + ON_CPU
    numpy.testing.assert_array_equal(garray.asnumpy(r2), ha + hb)
