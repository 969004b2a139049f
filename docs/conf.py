"""Sphinx configuration of garray's documentation site.

Build (CI runs it with warnings as errors)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The user guide is the Markdown pages of ``docs/`` (through myst-parser); the API reference
is generated from the code at build time: ``docs/api/generated/`` is written here, one
page per namespace, and is not committed.
"""

import importlib
import inspect
import os

import garray   # the installed garray (the build documents what it imports)

HERE = os.path.dirname(os.path.abspath(__file__))

project = "garray"
author = "the garray developers"
copyright = "the garray developers"  # noqa: A001
version = release = garray.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "notebooks/**", "**/.ipynb_checkpoints", "_tables/**"]
html_theme = "alabaster"
html_title = f"garray {release}"
html_static_path = []

# Markdown: headings get anchors for `page.md#section` links.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# API reference: numpydoc renders the docstrings; class members are listed by the
# generated pages themselves (numpydoc's own member tables would need stub pages).
autosummary_generate = False
autodoc_default_options = {"member-order": "alphabetical"}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks = set()   # tests/test_docstrings.py checks the docstrings

suppress_warnings = []

# ---- the API pages, generated from the code ------------------------------------------

NAMESPACES = [
    ("garray", "The main namespace (``import garray as np``)"),
    ("garray.linalg", "garray.linalg"),
    ("garray.fft", "garray.fft"),
    ("garray.fft.config", "garray.fft.config (the vendor FFT's plan cache)"),
    ("garray.random", "garray.random"),
    ("garray.signal", "garray.signal"),
    ("garray.nn", "garray.nn"),
    ("garray.special", "garray.special"),
    ("garray.lib.stride_tricks", "garray.lib.stride_tricks"),
    ("garray.emath", "garray.emath (complex results where real ones would be NaN)"),
]

# The main namespace is grouped by the module that defines each name.
GROUPS = [
    ("Array object, devices and memory", ("_core", "_device", "_errors")),
    ("Data types", ("_dtypes", "_dtype_codes", "_scalar_types")),
    ("Array creation", ("_creation", "_array_utils", "_io", "_io_formats")),
    ("Elementwise functions (ufuncs)", ("ufunc", "_elementwise", "_sort.interp")),
    ("Reductions and statistics", ("_reduce", "_sort.quantiles", "_sort.histograms",
                                   "_gemm.covariance")),
    ("Manipulation", ("_manip",)),
    ("Indexing, searching, sorting and sets", ("_index", "_sort")),
    ("Linear algebra products", ("_gemm",)),
    ("Polynomials", ("_polynomial",)),
    ("Convolution", ("signal._direct",)),
    ("User kernels", ("kernels",)),
    ("Inquiry, printing and functional tools", ("_inquiry", "_printing",
                                                "_manip.functional")),
]


# Names defined in garray/__init__.py itself, placed by hand.
_BY_NAME = {"get_default_memory_pool": "_core", "transpose": "_manip"}

_CONSTANTS = """\
Constants and dtypes
--------------------

``garray.e``, ``garray.pi``, ``garray.inf``, ``garray.nan``, ``garray.euler_gamma``,
``garray.little_endian`` and ``garray.newaxis`` (``None``) are NumPy's.  The 14 dtypes
(``garray.bool``, ``int8``, ``int16``, ``int32``, ``int64``, ``uint8`` ... ``uint64``,
``float16``, ``float32``, ``float64``, ``complex64``, ``complex128``) and NumPy 2's other
scalar type names (``intp``, ``double``, ``floating``, ``number`` ..., ``True_``,
``False_``, ``ScalarType``) are NumPy's own objects (``garray.float32 is
numpy.float32``); ``garray.sctypeDict`` and ``garray.typecodes`` are NumPy's, less the
types garray arrays cannot hold (longdouble, strings, datetimes, structured and object
dtypes).  ``garray.dtype`` (below) checks a dtype against the ones garray supports.

Index tricks
------------

``garray.mgrid``, ``garray.ogrid``, ``garray.r_``, ``garray.c_``, ``garray.s_`` and
``garray.index_exp`` are NumPy's objects indexed with slices (``garray.mgrid[0:2,
0:3]``, ``garray.r_[1:4, 0, x]``); the arrays they build are made on the current device
by garray's own kernels.  ``r_``'s matrix directives (``'r'``, ``'c'`` and a string
alone) raise NotImplementedError: garray has no matrix class.

"""


def _module_key(obj):
    if isinstance(obj, garray.ufunc):
        return "ufunc"
    name = getattr(obj, "__name__", None)
    if getattr(obj, "__module__", None) == "garray" and name in _BY_NAME:
        return _BY_NAME[name]
    mod = getattr(obj, "__module__", None) or ""
    return mod[len("garray."):] if mod.startswith("garray.") else mod


def _group_of(obj):
    """The title of the group whose key is the longest match of obj's module (a key
    names a family package or one module of it), or None."""
    key = _module_key(obj)
    best = None
    for title, keys in GROUPS:
        for k in keys:
            if (key == k or key.startswith(k + ".")) and (best is None or len(k) > best[1]):
                best = (title, len(k))
    return best and best[0]


def _public(mod):
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in dir(mod) if not n.startswith("_")]
    out = []
    for name in sorted(names):
        obj = getattr(mod, name)
        if inspect.ismodule(obj) or not callable(obj):
            continue
        if not isinstance(obj, garray.ufunc):
            owner = getattr(obj, "__module__", None) or ""
            if not (owner == "garray" or owner.startswith("garray.")):
                continue      # NumPy's scalar types and dtype objects
        out.append((name, obj))
    return out


def _entry(ns, name, obj):
    full = f"{ns}.{name}"
    if inspect.isclass(obj):
        return [f".. autoclass:: {full}", "   :members:", "   :undoc-members:", ""]
    if isinstance(obj, garray.ufunc):
        # ufuncs have no Python signature: give autodoc the one they take
        args = "x" if obj.nin == 1 else "x1, x2"
        return [f".. autofunction:: {full}({args}, /, *, out=None)", ""]
    return [f".. autofunction:: {full}", ""]


def _section(title, ns, items, char="-"):
    lines = [title, char * len(title), "", f".. currentmodule:: {ns}", "",
             ".. autosummary::", ""]
    lines += [f"   {name}" for name, _ in items] + [""]
    for name, obj in items:
        lines += _entry(ns, name, obj)
    return lines


def write_api_pages():
    out_dir = os.path.join(HERE, "api", "generated")
    os.makedirs(out_dir, exist_ok=True)
    for ns, title in NAMESPACES:
        mod = importlib.import_module(ns)
        items = _public(mod)
        lines = [f".. Generated by docs/conf.py from the code; not committed.", "",
                 title, "=" * len(title), ""]
        doc = inspect.getdoc(mod)
        if doc:
            lines += [doc.split("\n\n")[0], ""]
        if ns == "garray":
            lines += _CONSTANTS.split("\n")
            rest = [(n, o) for n, o in items if _group_of(o) is None]
            for gtitle, _ in GROUPS:
                group = [(n, o) for n, o in items if _group_of(o) == gtitle]
                if group:
                    lines += _section(gtitle, ns, group)
            if rest:
                lines += _section("Other functions", ns, rest)
        else:
            lines += _section("Functions and classes", ns, items)
        text = "\n".join(lines) + "\n"
        path = os.path.join(out_dir, f"{ns}.rst")
        old = open(path).read() if os.path.exists(path) else None
        if old != text:          # unchanged pages keep their mtime (incremental builds)
            with open(path, "w") as f:
                f.write(text)


write_api_pages()


def write_other_pages():
    """A toctree of the top-level pages that index.rst does not list (pages added later,
    e.g. by another change, appear in the site instead of failing the build)."""
    with open(os.path.join(HERE, "index.rst")) as f:
        index = f.read()
    listed = {line.strip() for line in index.splitlines() if line.startswith("   ")}
    pages = sorted(os.path.splitext(n)[0] for n in os.listdir(HERE)
                   if n.endswith((".md", ".rst")) and n != "index.rst")
    other = [p for p in pages if p not in listed]
    lines = []
    if other:
        lines = [".. toctree::", "   :maxdepth: 1", "   :caption: More", ""]
        lines += [f"   /{p}" for p in other]
    os.makedirs(os.path.join(HERE, "api", "generated"), exist_ok=True)
    path = os.path.join(HERE, "api", "generated", "_other_pages.rst.inc")
    text = "\n".join(lines) + "\n"
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)


write_other_pages()



def setup(app):
    return {"parallel_read_safe": True}
