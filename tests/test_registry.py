"""The op table is the one registry: generated files are current, every public name it
implies exists and behaves as NumPy's, and the Cython layer agrees with its numbering."""

import operator

import numpy
import pytest

import garray
from garray._elementwise import codegen as _codegen
from garray._tables import ops as _optable
from garray import _core

from xp import assert_xp_close, make


def test_generated_files_are_current():
    assert _codegen.main(["--check"]) == 0, "run python -m garray._elementwise.codegen"


def test_layout_and_slot_numbering_match_the_cython_layer():
    assert _core._LAYOUTS == _optable.LAYOUTS
    assert _core._CREATION_SLOTS == (_optable.C_FILL, _optable.C_ARANGE, _optable.C_LINSPACE,
                                     _optable.C_EYE, _optable.C_TRI32, _optable.C_TRI64)


# Public names that are NumPy's functions around the op's ufunc (garray._elementwise.ufuncs.<name>):
# numpy.round is a function taking decimals=.
FUNCTION_NAMES = {"round": "garray._elementwise.math_extras.round"}


@pytest.mark.parametrize("name", sorted(_optable.OPS))
def test_every_op_is_a_documented_public_ufunc(name):
    op = _optable.OPS[name]
    f = getattr(garray._elementwise.ufuncs, name)
    if name in FUNCTION_NAMES:
        assert getattr(garray, name).__module__ + "." + name == FUNCTION_NAMES[name]
    else:
        assert getattr(garray, name) is f
    assert isinstance(f, garray.ufunc) and f.__name__ == name and f.nin == op.nin
    doc = f.__doc__
    assert doc.startswith(op.summary)
    assert f"numpy.{op.numpy_name}" in doc
    # the accepted dtypes are listed, and each listed one really is accepted
    accepted = doc.split("inputs (", 1)[1].split(")", 1)[0].split(", ")
    assert accepted and set(accepted) <= {d.name for d in garray._dtypes.DTYPES}
    for alias in op.aliases:
        assert getattr(garray, alias) is f


def test_numpy_names_of_aliases_match_numpy():
    # each alias is a NumPy function computing the same thing as the op
    x = make(numpy, (5,), "float64") / 8
    for op in _optable.OPS.values():
        for alias in op.aliases:
            nf = getattr(numpy, alias)
            args = [x] * op.nin
            with numpy.errstate(all="ignore"):
                try:
                    expected = nf(*args)
                except TypeError:
                    continue
            assert_xp_close(getattr(garray, alias)(*[garray.asarray(a) for a in args]),
                            expected)


_PY_OPERATOR = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
                "truediv": operator.truediv, "floordiv": operator.floordiv,
                "mod": operator.mod, "pow": operator.pow, "and": operator.and_,
                "or": operator.or_, "xor": operator.xor, "lshift": operator.lshift,
                "rshift": operator.rshift, "eq": operator.eq, "ne": operator.ne,
                "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
                "neg": operator.neg, "pos": operator.pos, "abs": operator.abs,
                "invert": operator.invert, "divmod": divmod}


@pytest.mark.parametrize("dunder, name, role",
                         [(d, op.name, r) for d, op, r in _optable.operators()])
def test_operators_follow_the_table(dunder, name, role):
    assert hasattr(garray.ndarray, dunder)
    dtype = "int32" if "shift" in name or "bitwise" in name else "float64"
    ga, na = make(garray, (2, 3), dtype), make(numpy, (2, 3), dtype)
    gb, nb = make(garray, (3,), dtype, start=2) % 3 + 1, make(numpy, (3,), dtype, start=2) % 3 + 1
    f = _PY_OPERATOR[_optable.OPS[name].operator[0]]
    with numpy.errstate(all="ignore"):
        if role == "unary":
            assert_xp_close(f(ga), f(na))
        elif role == "forward":
            assert_xp_close(f(ga, gb), f(na, nb))
            assert_xp_close(f(ga, 2), f(na, 2))
        elif role == "reflected":
            assert_xp_close(getattr(ga, dunder)(2), getattr(na, dunder)(2))
        else:
            getattr(ga, dunder)(gb)
            getattr(na, dunder)(nb)
            assert_xp_close(ga, na)


def test_dtype_records_agree_with_numpy():
    for r in garray._dtypes.RECORDS:
        assert r.dtype == garray._dtypes.DTYPES[r.code]
        assert (r.name, r.kind, r.itemsize) == (r.dtype.name, r.dtype.kind, r.dtype.itemsize)
        real = garray._dtypes.RECORDS[r.real].dtype
        assert real == numpy.empty(0, r.dtype).real.dtype
