"""Tests of garray/_dtypes.py against NumPy 2 and array-api-strict."""

import importlib.util
import itertools
import pathlib
import sys

import ml_dtypes
import numpy as np
import pytest

try:
    from garray import _dtypes as D
except Exception:  # ImportError when not built; a package __init__ may fail in other ways
    # The module imports only NumPy, so load it straight from its file.
    _spec = importlib.util.spec_from_file_location(
        "garray_dtypes_under_test", pathlib.Path(__file__).parents[1] / "garray" / "_dtypes.py")
    D = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = D
    _spec.loader.exec_module(D)

NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64", "complex64", "complex128", "float16", "bfloat16", "float8_e4m3fn",
         "float8_e5m2"]
PAIRS = list(itertools.product(NAMES, NAMES))
SCALARS = [True, 1, 1.0, 1j]


def test_dtype_objects_are_numpys():
    assert [getattr(D, n) for n in NAMES] == [
        getattr(np, "bool_" if n == "bool" else n, None) or getattr(ml_dtypes, n) for n in NAMES]
    assert D.DTYPES == tuple(np.dtype(n) for n in NAMES)
    assert all(type(dt) is not type for dt in D.DTYPES)
    assert D.CODE_DTYPE == D.DTYPES
    assert {dt.name: c for dt, c in D.DTYPE_CODE.items()} == {n: i for i, n in enumerate(NAMES)}
    assert np.zeros(1, np.float32).dtype == D.float32
    assert (D.default_float, D.default_int, D.default_complex, D.default_index) == (
        np.float64, np.int64, np.complex128, np.int64)


@pytest.mark.parametrize("a,b", PAIRS)
def test_promotion_cell_matches_numpy(a, b):
    expected = np.promote_types(a, b)
    assert D.PROMOTION_TABLE[np.dtype(a), np.dtype(b)] == expected
    assert D.promote_types(np.dtype(a), np.dtype(b)) == expected
    assert D.promote_types(getattr(D, a), b) == expected  # slow path: scalar type and string
    assert D.promote_types(a, b) is D.DTYPES[D.DTYPE_CODE[expected]]


try:
    import array_api_strict as xp
except ImportError:  # optional: pip install array-api-strict
    xp = None


def _strict_cell(a, b):
    try:
        return str(xp.result_type(getattr(xp, a), getattr(xp, b))).split(".")[-1]
    except TypeError:  # a mix the Array API leaves open
        return None


# float16 is NumPy's, not the standard's: array_api_strict has no cells for it.
STRICT_CELLS = [(a, b, r) for a, b in PAIRS if xp is not None and not {a, b} & set(NAMES[13:])
                and (r := _strict_cell(a, b))]


@pytest.mark.skipif(xp is None, reason="array_api_strict is not installed")
def test_array_api_strict_defines_expected_cells():
    # 1 bool cell + 56 integer cells (all but uint64 with signed) + 16 float/complex cells.
    assert len(STRICT_CELLS) == 73


@pytest.mark.skipif(xp is None, reason="array_api_strict is not installed")
@pytest.mark.parametrize("a,b,expected", STRICT_CELLS or [("bool", "bool", "bool")])
def test_promotion_cell_matches_array_api_strict(a, b, expected):
    assert D.PROMOTION_TABLE[np.dtype(a), np.dtype(b)].name == expected


def test_promotion_table_is_complete():
    assert len(D.PROMOTION_TABLE) == 17 * 17
    assert set(D.PROMOTION_TABLE.values()) <= set(D.DTYPES)


@pytest.mark.parametrize("a,b", PAIRS)
def test_can_cast_matches_numpy_safe(a, b):
    expected = np.can_cast(a, b, "safe")
    assert D.can_cast(np.dtype(a), np.dtype(b)) is expected
    assert D.can_cast(np.zeros(2, a), getattr(D, b)) is expected


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("scalar", SCALARS, ids=type)
def test_result_type_weak_scalar(name, scalar):
    expected = np.result_type(np.dtype(name), scalar)
    arr = np.zeros(2, name)
    assert D.result_type(np.dtype(name), scalar) == expected
    # NumPy's result_type(1.0, bfloat16 array) is float32, though 1.0 + x is bfloat16
    # (the arithmetic's answer, which garray gives in either order)
    assert D.result_type(scalar, arr) == (expected if name in NAMES[14:] else
                                          np.result_type(scalar, arr))
    assert D.result_type_scalar(np.dtype(name), scalar) == expected
    assert D.result_type_scalar(getattr(D, name), scalar) == expected  # slow path


@pytest.mark.parametrize("scalars", [s for r in (1, 2, 3) for s in itertools.combinations(SCALARS, r)])
def test_result_type_only_scalars(scalars):
    assert D.result_type(*scalars) == np.result_type(*scalars)


@pytest.mark.parametrize("args,expected", [
    ((D.float32, 1.0), D.float32), ((D.int8, 1.0), D.float64), ((D.float32, 1j), D.complex64),
    ((D.float64, 1j), D.complex128), ((D.int32, 1j), D.complex128), ((D.bool, 1), D.int64),
    ((D.uint8, True), D.uint8), ((D.int8, D.uint8, 1.0), D.float64),
    ((D.float32, D.int8, 1j), D.complex64), ((D.int8, 1000), D.int8),
    ((np.float32(1), np.float64(2)), D.float64),  # NumPy scalars are strong
    ((np.zeros(1, np.float32), np.float64(2)), D.float64), (("i4", np.zeros(1, "u2")), D.int32),
])
def test_result_type_examples(args, expected):
    assert D.result_type(*args) == expected
    assert D.result_type(*args) == np.result_type(*args)


def test_result_type_errors():
    with pytest.raises(ValueError, match="at least one"):
        D.result_type()
    with pytest.raises(TypeError, match="argument 1"):
        D.result_type(D.int8, [1, 2])
    with pytest.raises(TypeError, match="float128"):
        D.result_type(np.zeros(2, np.longdouble))
    with pytest.raises(TypeError, match="argument 0"):
        D.result_type(None)


def test_check_scalar_fits_matches_numpy():
    for name, value in [("int8", 1000), ("uint8", -1), ("int64", 2**63), ("uint64", 2**64), ("float32", 10**400)]:
        with pytest.raises(OverflowError):
            np.zeros(1, name) + value
        with pytest.raises(OverflowError):
            D.check_scalar_fits(np.dtype(name), value)
    for name, value in [("int8", 127), ("int8", -128), ("uint64", 2**64 - 1), ("float32", 1e300), ("int8", True)]:
        D.check_scalar_fits(np.dtype(name), value)


@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
def test_finfo(name):
    info, ref = D.finfo(np.dtype(name)), np.finfo(name)
    for attr in ("bits", "eps", "max", "min", "smallest_normal"):
        assert getattr(info, attr) == getattr(ref, attr)
        assert type(getattr(info, attr)) is (int if attr == "bits" else float)
    assert info.dtype == ref.dtype and isinstance(info.dtype, np.dtype)
    assert D.finfo(np.zeros(1, name)) is info
    assert "finfo(" in repr(info) and str(info.bits) in repr(info)
    with pytest.raises(AttributeError):
        info.eps = 0.0


@pytest.mark.parametrize("name", NAMES[1:9])
def test_iinfo(name):
    info, ref = D.iinfo(getattr(D, name)), np.iinfo(name)
    assert (info.bits, info.max, info.min, info.dtype) == (ref.bits, ref.max, ref.min, ref.dtype)
    assert type(info.max) is int and type(info.min) is int
    assert D.iinfo(np.zeros(1, name)) is info
    assert "iinfo(" in repr(info)


def test_finfo_iinfo_wrong_kind():
    for name in NAMES[:9]:
        with pytest.raises(ValueError, match="finfo type"):
            D.finfo(name)
    for name in ["bool"] + NAMES[9:]:
        with pytest.raises(ValueError, match="iinfo type"):
            D.iinfo(name)


KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]


@pytest.mark.parametrize("name", NAMES[:14])
@pytest.mark.parametrize("kind", KINDS)
def test_isdtype_matches_numpy(name, kind):
    assert D.isdtype(np.dtype(name), kind) is np.isdtype(np.dtype(name), kind)
    assert D.isdtype(getattr(D, name), kind) is np.isdtype(np.dtype(name), kind)


@pytest.mark.parametrize("name", NAMES[14:])
@pytest.mark.parametrize("kind", KINDS)
def test_isdtype_of_ml_dtypes_is_float16s(name, kind):
    """numpy.isdtype refuses ml_dtypes' types; garray answers as for float16 (a real
    floating dtype), as JAX does."""
    assert D.isdtype(np.dtype(name), kind) is np.isdtype(np.dtype("float16"), kind)
    assert D.isdtype(getattr(D, name), kind) is np.isdtype(np.dtype("float16"), kind)


def test_isdtype_dtype_and_tuple_kinds():
    assert D.isdtype(D.float32, D.float32) and D.isdtype(np.dtype("f4"), D.float32)
    assert not D.isdtype(D.float32, np.dtype("f8"))
    assert D.isdtype(D.int8, ("real floating", D.int8))
    assert D.isdtype(D.uint16, ("bool", "integral")) and not D.isdtype(D.bool, ("integral", D.int8))
    with pytest.raises(ValueError, match="kind"):
        D.isdtype(D.int8, "integer")
    with pytest.raises(TypeError):
        D.isdtype("float32", "numeric")
    with pytest.raises(TypeError):
        D.isdtype(np.zeros(3), "numeric")
    with pytest.raises(TypeError):
        D.isdtype(D.int8, 5)


@pytest.mark.parametrize("spelling,name", [
    (np.float32, "float32"), (np.dtype("float32"), "float32"), ("float32", "float32"),
    ("f4", "float32"), ("i8", "int64"), ("?", "bool"), ("complex", "complex128"),
    (bool, "bool"), (int, "int64"), (float, "float64"), (complex, "complex128"),
    ("u2", "uint16"), ("c8", "complex64"), (np.dtype(">f4"), "float32"), ("uint64", "uint64"),
])
def test_normalize_dtype_accepts(spelling, name):
    dt = D.normalize_dtype(spelling)
    assert dt == np.dtype(name) and dt is D.DTYPES[NAMES.index(name)]
    assert D.normalize_dtype(spelling) is dt  # cached path gives the same object
    assert D.dtype_name(spelling) == name


@pytest.mark.parametrize("bad", ["f16", "c32", "U5", object, "nonsense", None,
                                 np.longdouble, [1, 2], "i4,i4"], ids=repr)
def test_normalize_dtype_rejects(bad):
    with pytest.raises(TypeError, match="dtype") as exc:
        D.normalize_dtype(bad)
    assert "supported: bool, int8" in str(exc.value)
    with pytest.raises(TypeError, match="^out: "):
        D.normalize_dtype(bad, "out")


def test_normalize_dtype_message_names_value():
    with pytest.raises(TypeError, match="float128"):
        D.normalize_dtype(np.longdouble)
    with pytest.raises(TypeError, match="nonsense"):
        D.normalize_dtype("nonsense")
