"""The layout rules of docs/architecture.md ("Where things live"), checked on the source.

- no import cycle among garray's Python modules, counting imports inside functions too
  (the Cython core is left out: it imports a few Python modules while it loads, and
  those import it back inside functions, each such line saying why);
- an import of a garray module inside a function carries a comment saying why it is
  not at the top of its module;
- no source file over 600 lines (generated files excepted);
- ``import garray`` loads none of the subpackages, nor Dask.
"""

import ast
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "garray")
GENERATED = {"garray/_elementwise/ufuncs.py", "cython/_operators.pxi"}
MAX_LINES = 600


def _modules():
    out = {}
    for d, _, files in os.walk(PKG):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(d, f)
                rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                out[rel[: -len(".__init__")] if rel.endswith(".__init__") else rel] = path
    return out


MODULES = _modules()


def _target(name):
    """The garray module an imported name refers to (its longest existing prefix)."""
    while name and name not in MODULES and name != "garray._core":
        name = name.rpartition(".")[0]
    return name or None


def _imports(mod, path):
    """[(target module, line number, in a function, source line)] of mod's garray imports."""
    pkg = mod if path.endswith("__init__.py") else mod.rpartition(".")[0]
    text = open(path).read()
    lines = text.split("\n")
    tree = ast.parse(text)
    out = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = pkg.split(".")
                    base = ".".join(base[: len(base) - child.level + 1])
                    base = f"{base}.{child.module}" if child.module else base
                else:
                    base = child.module or ""
                if base == "garray" or base.startswith("garray."):
                    for a in child.names:
                        full = f"{base}.{a.name}"
                        t = _target(full if full in MODULES else base)
                        if t and t not in (mod, "garray"):
                            out.append((t, child.lineno, in_function, lines[child.lineno - 1]))
            elif isinstance(child, ast.Import):
                for a in child.names:
                    if a.name.startswith("garray."):
                        t = _target(a.name)
                        if t and t != mod:
                            out.append((t, child.lineno, in_function, lines[child.lineno - 1]))
            visit(child, inner)
    visit(tree, False)
    return out


IMPORTS = {m: _imports(m, p) for m, p in MODULES.items()}


def _cycles(graph):
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))
    for v in list(graph):
        if v not in index:
            visit(v)
    return groups


def test_no_import_cycle():
    graph = {m: {t for t, *_ in imps if t != "garray._core"} for m, imps in IMPORTS.items()}
    assert _cycles(graph) == []


def test_the_cycle_check_can_fail():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_function_level_imports_say_why():
    bare = [f"{m}:{line}: {src.strip()}" for m, imps in IMPORTS.items()
            for t, line, in_function, src in imps
            if in_function and "#" not in src and not m.startswith("garray.testing")]
    assert bare == []
    counted = sum(in_function for imps in IMPORTS.values() for _, _, in_function, _ in imps)
    assert counted <= 15, f"{counted} garray imports inside functions"


def _sources():
    for top in ("garray", "cython", "_kernels"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith((".py", ".pyx", ".pxi", ".h", ".hip")):
                    path = os.path.join(d, f)
                    rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
                    if rel not in GENERATED:
                        yield rel, path


def test_no_source_file_over_600_lines():
    long = {rel: n for rel, path in _sources()
            if (n := sum(1 for _ in open(path, encoding="utf-8"))) > MAX_LINES}
    assert long == {}


@pytest.mark.parametrize("lazy", ["garray.linalg", "garray.fft", "garray.random", "garray.nn",
                                  "garray.special", "garray._compiler.gxx",
                                  "garray._compiler.cache", "dask"])
def test_import_garray_leaves_subpackages_for_first_use(lazy):
    # naming a subpackage (garray.linalg) does not load it either: only using it does
    code = (f"import sys, garray; getattr(garray, {lazy.split('.')[-1]!r}, None); "
            f"assert {lazy!r} not in sys.modules, sorted(sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "GARRAY_GPU_STUB": ""})
    assert run.returncode == 0, run.stderr[-2000:]


def test_subpackages_resolve_on_first_use():
    code = ("import sys, types, garray\n"
            "from garray import fft\n"                          # the placeholder
            "assert 'garray.fft' not in sys.modules\n"
            "f = fft.fft\n"                                     # first use loads it
            "assert 'garray.fft' in sys.modules and garray.fft is sys.modules['garray.fft']\n"
            "assert fft.ifft is garray.fft.ifft\n"             # the placeholder kept works
            "from garray import random as r\n"                  # a write through the placeholder
            "r.default_rng = None\n"                           # reaches the subpackage
            "import garray.random\n"
            "assert garray.random.default_rng is None and r.default_rng is None\n"
            "import garray.linalg\n"
            "assert garray.linalg is sys.modules['garray.linalg']\n"
            "assert '__getattr__' not in vars(garray)\n")     # Note in garray/__init__.py
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "GARRAY_GPU_STUB": ""})
    assert run.returncode == 0, run.stderr[-2000:]


def test_main_namespace_names_of_subpackages():
    import garray
    for name in ("convolve", "poly1d", "polyfit", "RawKernel", "linalg", "fft"):
        assert name in dir(garray)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        garray.no_such_name
