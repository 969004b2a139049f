"""Every public NumPy name is in garray or listed, with its reason, in garray/_coverage.py.

Checked (garray/_coverage.py's docstring has the list): the main namespace's public
names that are not submodules, callable or not; the ``__all__`` of ``numpy.linalg``,
``numpy.fft``, ``numpy.random`` and ``numpy.emath``; ``numpy.ndarray``'s public
attributes; the keywords of a ufunc call and of its methods; NumPy's submodules.  The
coverage figure counts the main namespace, the subpackages, the ndarray attributes and
the ufunc keywords, less the OUT_OF_SCOPE groups.  Not counted: the attributes of other
NumPy classes (dtype, Generator's methods are counted through random.__all__ only as
the class), private names, and keyword arguments of functions other than ufuncs
(tests/test_numpy_signatures.py compares those).
"""

import inspect
import types

import numpy
import pytest

import garray
from garray import _coverage

# garray's present count may only grow; raise it as names land (printed by the test).
MIN_PRESENT = 659


def _numpy_main_names():
    return sorted(n for n in dir(numpy) if not n.startswith("_")
                  and not isinstance(getattr(numpy, n), types.ModuleType))


def _numpy_submodules():
    return sorted(n for n in dir(numpy) if not n.startswith("_")
                  and isinstance(getattr(numpy, n), types.ModuleType))


def _numpy_sub_names(sub):
    return sorted(f"{sub}.{n}" for n in getattr(numpy, sub).__all__)


def _ndarray_attributes():
    return sorted(f"ndarray.{n}" for n in dir(numpy.ndarray) if not n.startswith("_"))


def _ufunc_keywords():
    return sorted(f"ufunc.{m}({k}=)" for m, ks in _coverage.UFUNC_KEYWORDS.items()
                  for k in ks)


# A value NumPy's add takes for each ufunc keyword.
_KEYWORD_VALUES = {"out": None, "where": True, "casting": "same_kind", "order": "K",
                   "dtype": None, "subok": True, "signature": "dd->d", "axis": 0,
                   "keepdims": False, "initial": 0.0}


def _call_with_keyword(xp, method, kw):
    """xp.add's ``method`` called with keyword ``kw`` (its default-like value)."""
    a = xp.arange(3.0)
    f = xp.add if method == "__call__" else getattr(xp.add, method)
    if kw == "indices":
        return f(a, indices=[0])
    args = {"__call__": (a, a), "outer": (a, a), "reduceat": (a, [0])}.get(method, (a,))
    return f(*args, **{kw: _KEYWORD_VALUES[kw]})


def _in_garray(name):
    if name.startswith("ufunc."):
        # the keyword is taken (a call, not a signature: __call__ has none to read)
        method, kw = name[len("ufunc."):-2].split("(")
        try:
            _call_with_keyword(garray, method, kw)
        except TypeError as e:
            if "keyword" in str(e):
                return False
            raise
        return True
    obj = garray
    for part in name.split("."):
        obj = getattr(obj, part, _in_garray)
        if obj is _in_garray:
            return False
    return True


def _everything():
    return (_numpy_main_names() + [n for s in _coverage.SUBPACKAGES
                                   for n in _numpy_sub_names(s)]
            + _ndarray_attributes() + _ufunc_keywords())


def test_every_numpy_name_is_present_or_listed():
    listed = _coverage.left_out()
    unaccounted = [n for n in _everything() if not _in_garray(n) and n not in listed]
    assert not unaccounted, (
        f"NumPy names neither in garray nor in garray/_coverage.py: {unaccounted}")


def test_listed_names_are_not_in_garray():
    # A name garray now has must leave the list, so the list only shrinks.
    stale = sorted(n for n in _coverage.left_out() if _in_garray(n))
    assert not stale, f"in garray, still listed in garray/_coverage.py: {stale}"


def test_listed_names_are_numpy_names():
    numpy_names = set(dir(numpy))
    for sub in _coverage.SUBPACKAGES:
        numpy_names |= set(_numpy_sub_names(sub))
    # float128/complex256 exist only where C long double is 80 or 128 bits.
    platform = {"float128", "complex256"}
    unknown = sorted(n for n in _coverage.left_out() if n not in numpy_names | platform)
    assert not unknown, f"garray/_coverage.py lists names NumPy lacks: {unknown}"


def test_every_submodule_is_garrays_or_listed():
    subs = _numpy_submodules()
    unaccounted = [s for s in subs if s not in _coverage.SUBPACKAGES
                   and s not in _coverage.SUBMODULES_OUT_OF_SCOPE]
    assert not unaccounted, f"NumPy submodules neither in garray nor listed: {unaccounted}"
    for s in _coverage.SUBPACKAGES:
        assert isinstance(getattr(garray, s), types.ModuleType), s
    stale = sorted(set(_coverage.SUBMODULES_OUT_OF_SCOPE) - set(subs))
    assert not stale, f"garray/_coverage.py lists submodules NumPy lacks: {stale}"


def test_ufunc_keywords_are_numpys():
    # each listed keyword is one NumPy's add takes (so the list cannot grow stale)
    for method, kws in _coverage.UFUNC_KEYWORDS.items():
        for k in kws:
            _call_with_keyword(numpy, method, k)


def test_coverage_count(capsys):
    listed = _coverage.left_out()
    counted = [n for n in _everything() if not (n in listed and not listed[n][1])]
    present = [n for n in counted if _in_garray(n)]
    with capsys.disabled():
        print(f"\nNumPy's public names (main namespace, linalg, fft, random, emath), ndarray "
              f"attributes and ufunc keywords, less out-of-scope groups: garray has "
              f"{len(present)} of {len(counted)} ({100 * len(present) / len(counted):.0f}%)")
    assert len(present) >= MIN_PRESENT


@pytest.mark.parametrize("sub", _coverage.SUBPACKAGES)
def test_subpackage_names_accounted(sub):
    listed = _coverage.left_out()
    for name in _numpy_sub_names(sub):
        assert _in_garray(name) or listed.get(name, ("", True))[0].startswith(
            "not yet implemented"), name
