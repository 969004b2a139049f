"""Kernel families: one description each, from which the rest is derived.

A family is the table of one kernel file's template instantiations, indexed by
(dtype code, slot).  Its ``Family`` holds:

- ``kernel``: the file under ``_kernels/``;
- ``enum``: the slot enum, written once in C's style (``"A B C=0 D"``: A 0, B 1, C 0,
  D 1).  The family's module exports the names (``export``); where the Cython launch
  layer names slots too, ``cython`` is the .pxi that mirrors the enum, and the core
  compares its compiled values with this one at import (``check_cython``), as
  tests/test_registry.py does;
- ``templates``: slot -> name-expression template, formatted with ``T`` (the dtype's
  C++ type) and the family's ``fields(record)``;
- ``grid``: (dtypes, slots) groups, in entry order: every dtype of a group gets every
  slot of it.  A family whose kernels are not such a grid (one table per op or per
  reduction row, casts keyed by the target) passes ``tables`` instead;
- ``barrier``: the slots whose kernels use barriers or warp shuffles, so run on fibers
  on the CPU device (``barrier_kernels``).

``MODULES`` lists the modules that define families, in build order: the order of
``all_tables`` (hence of the units of the ahead-of-time CPU library, whose entry names
number them) and meson's dependency list (``table_files``) follow from it.
"""

import importlib

from .. import _dtypes

# Module stems under garray/_tables, each defining FAMILIES (a tuple of Family).
MODULES = ("ops", "reduce", "sort", "gemm", "random", "signal", "conv", "conv_grad", "fft",
           "pool")

_DTYPE_SETS = {"all": _dtypes.RECORDS, "api": _dtypes.API_RECORDS}
_BY_NAME = {r.name: r for r in _dtypes.RECORDS}


def _records(spec):
    """Dtype records of ``spec``: "all", "api" or dtype names separated by spaces."""
    if spec in _DTYPE_SETS:
        return _DTYPE_SETS[spec]
    return tuple(_BY_NAME[n] for n in spec.split())


def parse_enum(text):
    """{name: number} of a C-style enum written as ``"A B C=0 D"``, in order."""
    enum, n = {}, 0
    for item in text.split():
        name, eq, value = item.partition("=")
        if eq:
            n = int(value)
        if name in enum:
            raise ValueError(f"slot {name} named twice in {text!r}")
        enum[name] = n
        n += 1
    return enum


class Family:
    __slots__ = ("name", "kernel", "enum", "templates", "grid", "fields", "barrier",
                 "cython", "_tables")

    def __init__(self, name, kernel, slots, templates=None, grid=(), fields=None,
                 tables=None, barrier=(), cython=None):
        self.name, self.kernel, self.cython = name, kernel, cython
        self.enum = parse_enum(slots)
        self.templates = dict(templates or {})
        self.grid = tuple((_records(d), tuple(s.split())) for d, s in grid)
        self.fields = fields
        self.barrier = tuple(barrier)
        self._tables = tables
        named = set(self.templates) | set(self.barrier) | {s for _, g in self.grid
                                                          for s in g}
        if not named <= set(self.enum):
            raise ValueError(f"{name}: slots {sorted(named - set(self.enum))} are not in "
                             f"its enum")
        if not set(self.barrier) <= set(self.templates):
            raise ValueError(f"{name}: a barrier slot needs a template")
        if (tables is None) == (not self.grid):
            raise ValueError(f"{name}: give either grid or tables")

    def __repr__(self):
        return f"Family({self.name!r}, {self.kernel!r})"

    def export(self, namespace):
        """Put the slot names into ``namespace`` (the defining module's globals)."""
        namespace.update(self.enum)

    def expr(self, slot, record, **fields):
        """The name expression of ``slot`` for dtype ``record``."""
        if self.fields is not None:
            fields = {**self.fields(record), **fields}
        return self.templates[slot].format(T=record.ctype, **fields)

    def table(self):
        """The family's one table: (kernel file, [((dtype code, slot), name expression)]);
        what the launch path (``garray._core._family_launch``) loads."""
        if not self.grid:
            tables = self._tables()
            if len(tables) != 1:
                raise ValueError(f"{self.name}: {len(tables)} tables, not one")
            return tables[0]
        return self.kernel, [((r.code, self.enum[s]), self.expr(s, r))
                             for records, slots in self.grid for r in records
                             for s in slots]

    def tables(self):
        """Every table of the family (one compile unit each), in build order."""
        return self._tables() if self._tables is not None else [self.table()]

    def barrier_prefixes(self):
        """The start (``ga::name<``) of each barrier kernel's name expressions."""
        return tuple(self.templates[s].split("<", 1)[0] + "<" for s in self.barrier)


def modules():
    # Imported on demand: each family module imports this one for Family.
    return [importlib.import_module(f"{__package__}.{m}") for m in MODULES]


def families():
    """Every Family, in build order."""
    return [f for m in modules() for f in m.FAMILIES]


def all_tables():
    """Every kernel table garray builds, in build order."""
    return [t for f in families() for t in f.tables()]


_barrier = None


def barrier_kernels():
    """Name-expression prefixes of every kernel with barriers (fibers on the CPU device)."""
    global _barrier
    if _barrier is None:
        _barrier = tuple(p for f in families() for p in f.barrier_prefixes())
    return _barrier


def table_files():
    """The files the tables are built from, relative to the repository: meson's
    dependency list for the ahead-of-time kernel sources."""
    return (["garray/_dtypes.py", "garray/_dtype_codes.py", "garray/_tables/__init__.py",
             "garray/_tables/family.py"]
            + [f"garray/_tables/{m}.py" for m in MODULES])


def check_cython(values, families):
    """Raise ImportError unless the compiled Cython enums ``values`` ({family name:
    {slot: number}}) equal the enums of ``families`` that name a .pxi."""
    for f in families:
        if f.cython is None:
            continue
        got = values.get(f.name)
        if got != f.enum:
            raise ImportError(f"garray._core was built with slots {got} for the {f.name} "
                              f"family; garray/_tables has {f.enum} (cython/{f.cython} "
                              f"must mirror it; rebuild)")
