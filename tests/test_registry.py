"""The op table is the one registry: generated files are current, every public name it
implies exists and behaves as NumPy's, and the Cython layer agrees with its numbering."""

import operator
import pathlib
import re
import subprocess
import sys

import numpy
import pytest

import garray
from garray._elementwise import codegen as _codegen
from garray._tables import family as _family, ops as _optable
from garray import _core

from xp import assert_xp_close, make

_ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_generated_files_are_current():
    assert _codegen.main(["--check"]) == 0, "run python -m garray._elementwise.codegen"


def test_layout_and_slot_numbering_match_the_cython_layer():
    assert _core._LAYOUTS == _optable.LAYOUTS
    compiled = _core._cython_slots()
    mirrored = [f for f in _family.families() if f.cython]
    assert {f.name for f in mirrored} == set(compiled)
    for f in mirrored:
        assert compiled[f.name] == f.enum, f.name


def test_a_core_with_other_slot_numbers_does_not_import():
    compiled = _core._cython_slots()
    families = [f for f in _family.families() if f.cython]
    _family.check_cython(compiled, families)
    for f in families:
        wrong = dict(compiled, **{f.name: dict(compiled[f.name], **{next(iter(f.enum)): 99})})
        with pytest.raises(ImportError, match=f"{f.name} family"):
            _family.check_cython(wrong, families)


def _pxi_enums():
    """{name: (file, value)} of every member of a ``cdef enum`` block in cython/."""
    found = {}
    for path in sorted(_ROOT.joinpath("cython").glob("*.pxi")):
        inside = False
        for line in path.read_text().splitlines():
            if line.startswith("cdef enum"):
                inside = True
                continue
            if inside and line and not line.startswith(" "):
                inside = False
            m = re.match(r"\s+(\w+)\s*=\s*(\d+)\b", line) if inside else None
            if m:
                found.setdefault(m.group(1), []).append((path.name, int(m.group(2))))
    return found


def test_every_cython_slot_enum_is_its_familys():
    # Any Cython enum member named as a family's slot is that slot, in the .pxi the
    # family names; a family naming a .pxi has all its slots there.
    enums = _pxi_enums()
    owners = {}
    for f in _family.families():
        for name, value in f.enum.items():
            owners.setdefault(name, []).append((f, value))
    for name, places in enums.items():
        for f, value in owners.get(name, []):
            if f.cython:
                assert (f.cython, value) in places, (f.name, name, places)
        for pxi, value in places:
            claimed = [f for f, _ in owners.get(name, []) if f.cython == pxi]
            if name in owners:
                assert claimed, f"{pxi}: {name} mirrors a family slot but no Family names {pxi}"
    for f in _family.families():
        if f.cython:
            for name, value in f.enum.items():
                assert (f.cython, value) in enums.get(name, []), (f.name, name)


def test_family_tables_follow_their_enums():
    for f in _family.families():
        numbers = set(f.enum.values())
        for kernel, entries in f.tables():
            assert kernel == f.kernel
            keys = [key for key, _ in entries]
            assert len(keys) == len(set(keys)), f.name
            assert all(0 <= code < len(garray._dtypes.RECORDS) for code, _ in keys)
            assert {slot for _, slot in keys} <= numbers, f.name
    assert _optable.all_tables() == [t for f in _family.families() for t in f.tables()]


def _aot(*args):
    return subprocess.run([sys.executable, str(_ROOT / "garray/_compiler/aot.py"), *args],
                          capture_output=True, text=True, check=True).stdout.split()


def test_meson_family_list_is_the_tables():
    # meson takes the table files from aot.py (no list of its own), and aot.py's list is
    # every module of garray/_tables: the family modules, family.py and __init__.py.
    meson = _ROOT.joinpath("meson.build").read_text()
    assert "run_command(py, aot_script, 'tables'" in meson and "aot_table_files" in meson
    assert "'garray/_tables/" not in meson
    listed = _aot("tables")
    assert listed == _family.table_files()
    on_disk = {f"garray/_tables/{p.name}" for p in _ROOT.joinpath("garray/_tables").glob("*.py")}
    assert on_disk == {f for f in listed if f.startswith("garray/_tables/")}
    assert [f"garray/_tables/{m}.py" for m in _family.MODULES] == [
        f for f in listed if f.startswith("garray/_tables/")][2:]


def test_tables_load_without_the_package():
    # aot.py, run by the build before the extension exists, loads garray/_tables with
    # garray/__init__.py skipped: the tables may import garray's dtype modules only.
    code = f"""
import os, sys, types
sys.meta_path = [f for f in sys.meta_path if type(f).__name__ != "MesonpyMetaFinder"]
pkg = types.ModuleType("garray"); pkg.__path__ = [{str(_ROOT / "garray")!r}]
sys.modules["garray"] = pkg
from garray._tables import family
family.all_tables(); family.barrier_kernels()
print(" ".join(sorted(m for m in sys.modules if m.startswith("garray"))))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert all(m == "garray" or m.startswith(("garray._tables", "garray._dtype"))
               for m in out), out


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
        # the narrow floats are kind "f" to garray (NumPy gives ml_dtypes' "V" or "f")
        kind = "f" if r.code in garray._dtypes.NARROW else r.dtype.kind
        assert (r.name, r.kind, r.itemsize) == (r.dtype.name, kind, r.dtype.itemsize)
        real = garray._dtypes.RECORDS[r.real].dtype
        assert real == numpy.empty(0, r.dtype).real.dtype
