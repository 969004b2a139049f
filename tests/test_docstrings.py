"""numpydoc docstrings on every public callable of garray's namespaces.

Each public callable of ``garray``, ``garray.linalg``, ``garray.fft``, ``garray.random``,
``garray.signal``, ``garray.nn``, ``garray.special``, ``garray.lib.stride_tricks`` (and the
public methods of ``garray.ndarray`` and of the public classes of those namespaces) is parsed with
numpydoc's own parser (``numpydoc.docscrape``) and must have:

- a summary line;
- a Parameters section naming each parameter of its signature, where one is available
  (ufuncs, which have none, name theirs: ``x`` or ``x1, x2``, and ``out``);
- a Returns (or Yields) section, for functions and methods (not for classes);
- only numpydoc's sections (an unknown section is dropped by the Sphinx site).

A new public function without such a docstring fails the test.  Objects that are not
garray's (NumPy's scalar types and dtype objects re-exported by garray) are not checked.
``python tests/test_docstrings.py`` prints the count and what each failing name lacks.
"""

import importlib
import inspect
import warnings

import pytest

numpydoc_docscrape = pytest.importorskip(
    "numpydoc.docscrape", reason="numpydoc is not installed (the docs extra)")

import garray  # noqa: E402

NAMESPACES = ("garray", "garray.linalg", "garray.fft", "garray.fft.config", "garray.random",
              "garray.signal", "garray.nn", "garray.special", "garray.lib.stride_tricks",
              "garray.emath")

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
    # base classes first: a subclass (garray.memmap) must not claim ndarray's methods
    for qual, cls in sorted(classes, key=lambda qc: len(qc[1].__mro__)):
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
    if not inspect.isfunction(target) and [p.kind for p in sig.parameters.values()
                                           if p.name != "self"] == [
            inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]:
        return None   # a C slot's generic (*args, **kwargs): no real signature
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


def _referred_function(obj, parsed):
    """For an ndarray method documented by reference (NumPy's style: ``x.sum`` refers to
    ``numpy.sum``), the garray function its See Also names first, else None."""
    qual = getattr(obj, "__qualname__", "")
    if "." not in qual or not parsed["See Also"]:
        return None
    first = parsed["See Also"][0][0][0][0]
    if not first.startswith("garray."):
        return None
    obj = importlib.import_module("garray")
    for part in first.split(".")[1:]:
        obj = getattr(obj, part, None)
    return obj if callable(obj) else None


def problems(obj):
    """What the docstring of ``obj`` lacks, as a list of short strings (empty: fine).

    A method whose docstring is a summary and a See Also naming a garray function first
    is documented by that function: the function's docstring must then document every
    parameter of the method and have a Returns section.
    """
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
    referred = _referred_function(obj, parsed) if not parsed["Parameters"] else None
    if referred is not None:
        parsed = numpydoc_docscrape.NumpyDocString(inspect.getdoc(referred) or "")
        if params is not None:
            # the method's own leading array is the function's first parameter
            params = [p for p in params if p not in ("a", "x")]
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


def audit():
    everything = public_callables()
    bad = {name: problems(obj) for name, obj in everything.items()}
    return everything, {k: v for k, v in bad.items() if v}


_EVERYTHING, _BAD = audit()


def test_inventory_is_not_empty():
    # the walk itself works: the namespaces' functions, the ufuncs, ndarray's methods
    for name in ("garray.sum", "garray.exp", "garray.linalg.solve", "garray.fft.fft",
                 "garray.random.default_rng", "garray.nn.conv2d", "garray.ndarray.reshape",
                 "garray.lib.stride_tricks.sliding_window_view"):
        assert name in _EVERYTHING, name
    assert len(_EVERYTHING) > 500


@pytest.mark.parametrize("name", sorted(_EVERYTHING))
def test_numpydoc_docstring(name):
    assert not _BAD.get(name), f"{name}: " + "; ".join(_BAD[name])


def test_checker_finds_defects():
    # the checks can fail: a function whose docstring lacks each part
    def f(a, b=1):
        """Summary.

        Parameters
        ----------
        a : int
            First.
        """
    def g(x):
        pass
    assert problems(f) == ["Parameters lacks b", "no Returns section"]
    assert problems(g) == ["no docstring"]

    class K:
        def m(self, axis=None, bogus=None):
            """Summary (``garray.sum``).

            See Also
            --------
            garray.sum : documents the parameters.
            """
    # documented by reference: garray.sum's docstring has axis but no bogus
    assert problems(K.m) == ["Parameters lacks bogus"]


if __name__ == "__main__":
    print(f"{len(_EVERYTHING)} public callables; {len(_BAD)} lack a complete numpydoc "
          f"docstring")
    for name in sorted(_BAD):
        print(name, "|", "; ".join(_BAD[name]))
