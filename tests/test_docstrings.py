"""numpydoc docstrings on every public callable of garray's namespaces.

Each public callable of ``garray``, ``garray.linalg``, ``garray.fft``, ``garray.random``,
``garray.signal``, ``garray.nn``, ``garray.lib.stride_tricks`` (and the public methods of
``garray.ndarray`` and of the public classes of those namespaces) is parsed with
numpydoc's own parser (``numpydoc.docscrape``) and must have:

- a summary line;
- a Parameters section naming each parameter of its signature, where one is available
  (ufuncs, which have none, name theirs: ``x`` or ``x1, x2``, and ``out``);
- a Returns (or Yields) section, for functions and methods (not for classes);
- only numpydoc's sections (an unknown section is dropped by the Sphinx site).

Names that do not meet this yet are listed in ``tests/docstrings_missing.txt``; the list
only shrinks (never add a name to it: document the function): a listed name that now passes fails the test until it is removed, and a
new public callable without a proper docstring fails it.  Objects that are not garray's
(NumPy's scalar types and dtype objects re-exported by garray) are not checked.
Run ``python tests/test_docstrings.py`` to print the counts and rewrite the list.
"""

import importlib
import inspect
import os
import sys
import warnings

import pytest

numpydoc_docscrape = pytest.importorskip(
    "numpydoc.docscrape", reason="numpydoc is not installed (the docs extra)")

import garray  # noqa: E402

NAMESPACES = ("garray", "garray.linalg", "garray.fft", "garray.random", "garray.signal",
              "garray.nn", "garray.lib.stride_tricks")
MISSING_FILE = os.path.join(os.path.dirname(__file__), "docstrings_missing.txt")

_NUMPYDOC_SECTIONS = {"Summary", "Extended Summary", "Parameters", "Returns", "Yields",
                      "Receives", "Raises", "Warns", "Other Parameters", "Attributes",
                      "Methods", "See Also", "Notes", "Warnings", "References",
                      "Examples", "index", "Signature"}


def _public_names(mod):
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in dir(mod) if not n.startswith("_")]
    return sorted(names)


def _is_garrays(obj):
    """True for objects garray defines (not NumPy's types and dtype objects)."""
    if isinstance(obj, garray.ufunc):
        return True
    mod = getattr(obj, "__module__", None) or ""
    return mod == "garray" or mod.startswith("garray.")


def public_callables():
    """{qualified name: object} for every public callable garray documents.

    Each object appears once, under its first name (namespace order, then sorted);
    ndarray's and the public classes' public methods appear as ``Class.method``.
    """
    seen = {}
    out = {}
    classes = []
    for ns in NAMESPACES:
        mod = importlib.import_module(ns)
        for name in _public_names(mod):
            obj = getattr(mod, name)
            if inspect.ismodule(obj) or not callable(obj) or not _is_garrays(obj):
                continue
            if id(obj) in seen:
                continue
            seen[id(obj)] = obj
            out[f"{ns}.{name}"] = obj
            if inspect.isclass(obj):
                classes.append((f"{ns}.{name}", obj))
    for qual, cls in classes:
        for name in sorted(dir(cls)):
            if name.startswith("_"):
                continue
            raw = inspect.getattr_static(cls, name)
            if isinstance(raw, (property, staticmethod)) or not callable(getattr(cls, name)):
                if not isinstance(raw, (staticmethod, classmethod)):
                    continue
            meth = getattr(cls, name)
            if not callable(meth) or inspect.isclass(meth):
                continue
            # inherited from object/type or a NumPy base: not garray's
            owner = next((k for k in cls.__mro__ if name in vars(k)), None)
            if owner is None or not (owner.__module__ or "").startswith("garray"):
                continue
            key = (owner, name)
            if key in seen:
                continue
            seen[key] = meth
            out[f"{qual}.{name}"] = meth
    return out


def _signature_params(obj):
    """The parameter names numpydoc's Parameters must name, or None without a signature."""
    if isinstance(obj, garray.ufunc):
        return (["x"] if obj.nin == 1 else ["x1", "x2"]) + ["out"]
    target = obj
    if inspect.isclass(obj):
        # the constructor's parameters, where garray defines the constructor
        owner = next((k for k in obj.__mro__ if "__init__" in vars(k)
                      or "__new__" in vars(k)), object)
        if not (owner.__module__ or "").startswith("garray"):
            return []
        target = obj.__init__ if "__init__" in vars(owner) else obj.__new__
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    names = []
    for p in sig.parameters.values():
        if p.name in ("self", "cls") or p.name.startswith("_"):
            continue   # private parameters are not documented
        if p.kind is p.VAR_POSITIONAL:
            names.append("*" + p.name)
        elif p.kind is p.VAR_KEYWORD:
            names.append("**" + p.name)
        else:
            names.append(p.name)
    return names


def problems(obj):
    """What the docstring of ``obj`` lacks, as a list of short strings (empty: fine)."""
    doc = inspect.getdoc(obj)
    if not doc:
        return ["no docstring"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            parsed = numpydoc_docscrape.NumpyDocString(doc)
        except Exception as exc:   # numpydoc raises on malformed sections
            return [f"numpydoc cannot parse it: {exc}"]
    found = []
    for w in caught:
        found.append(f"numpydoc: {str(w.message).splitlines()[0]}")
    if not "".join(parsed["Summary"]).strip():
        found.append("no summary line")
    params = _signature_params(obj)
    documented = set()
    for p in parsed["Parameters"]:
        for n in p.name.split(","):
            n = n.strip()
            documented.add(n)
            documented.add(n.lstrip("*"))
    if params is None:
        if not parsed["Parameters"] and not inspect.isclass(obj):
            found.append("no Parameters section")
    else:
        absent = [p for p in params if p not in documented and p.lstrip("*") not in documented]
        if absent:
            found.append("Parameters lacks " + ", ".join(absent))
    if not inspect.isclass(obj) and not parsed["Returns"] and not parsed["Yields"]:
        found.append("no Returns section")
    return found


def _read_missing():
    if not os.path.exists(MISSING_FILE):
        return set()
    with open(MISSING_FILE) as f:
        return {line.split("#")[0].strip() for line in f} - {""}


def audit():
    everything = public_callables()
    bad = {name: problems(obj) for name, obj in everything.items()}
    return everything, {k: v for k, v in bad.items() if v}


_EVERYTHING, _BAD = audit()
_LISTED = _read_missing()


def test_inventory_is_not_empty():
    # the walk itself works: the namespaces' functions, the ufuncs, ndarray's methods
    for name in ("garray.sum", "garray.exp", "garray.linalg.solve", "garray.fft.fft",
                 "garray.random.default_rng", "garray.nn.conv2d", "garray.ndarray.reshape",
                 "garray.lib.stride_tricks.sliding_window_view"):
        assert name in _EVERYTHING, name
    assert len(_EVERYTHING) > 500


@pytest.mark.parametrize("name", sorted(set(_EVERYTHING) - _LISTED))
def test_numpydoc_docstring(name):
    assert not _BAD.get(name), f"{name}: " + "; ".join(_BAD[name])


def test_missing_list_only_shrinks():
    fixed = sorted(n for n in _LISTED if n in _EVERYTHING and n not in _BAD)
    gone = sorted(n for n in _LISTED if n not in _EVERYTHING)
    assert not fixed, ("docstrings now complete: remove from tests/docstrings_missing.txt: "
                       + ", ".join(fixed))
    assert not gone, ("no longer public callables: remove from "
                      "tests/docstrings_missing.txt: " + ", ".join(gone))


if __name__ == "__main__":
    print(f"{len(_EVERYTHING)} public callables; {len(_BAD)} lack a complete numpydoc "
          f"docstring")
    if "--write" in sys.argv:
        with open(MISSING_FILE, "w") as f:
            f.write("# Public callables whose docstrings do not yet meet "
                    "tests/test_docstrings.py.\n# This list only shrinks; "
                    "regenerate with: python tests/test_docstrings.py --write\n")
            for name in sorted(_BAD):
                f.write(f"{name}  # {'; '.join(_BAD[name])}\n")
    if "-v" in sys.argv:
        for name in sorted(_BAD):
            print(name, "|", "; ".join(_BAD[name]))
