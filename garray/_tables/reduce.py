"""The reduction table: every reduction and scan garray instantiates.

Each row (``Reduction``) names a reducer of ``_kernels/garray/reducers.h`` and says which
dtypes it accepts, the accumulator (= result) dtype, its identity and whether empty
reductions are an error; the kernel tables (``table`` and ``scan_table``) and the
Python functions of ``garray/_reduce/reductions.py`` follow from it.  ``UFUNC_REDUCTIONS`` maps
the binary ufuncs whose ``reduce``/``accumulate`` run on a row.

Note [Reduction dtypes]
~~~~~~~~~~~~~~~~~~~~~~~
1. ``acc`` rules: ``sum`` (NumPy's add.reduce: bool and signed integers accumulate in
   int64, unsigned in uint64, floats and complex keep their dtype), ``same``, ``bool``,
   ``index`` (int64: argmax/argmin and count_nonzero).
2. A ``dtype=`` argument casts the input first (garray/_reduce/reductions.py), so one table per
   row serves every dtype: integer sums wrap the same way whether they accumulate in
   the asked dtype or in int64 and are cast after.
3. Identities (``ident``): numbers, or ``lowest`` / ``highest`` (-inf / +inf for floats,
   the integer range's ends, False / True for bool), or ``nan`` (NaN for floats and
   complex, else as ``lowest``/``highest`` by ``nan_else``).
"""

import math

from .. import _dtypes
from .family import Family

RECORDS = _dtypes.RECORDS
CPP = tuple(r.ctype for r in RECORDS)
CATEGORY = "".join(r.kind for r in RECORDS)
_CODE = {r.name: r.code for r in RECORDS}
INT64, UINT64 = _CODE["int64"], _CODE["uint64"]

COLS_WIDTH = 4096


class Reduction:
    __slots__ = ("name", "reducer", "accepts", "acc", "ident", "nan_else", "nonempty",
                 "scan", "summary", "ordered")

    def __init__(self, name, reducer, accepts, acc, ident, summary, nan_else=None,
                 nonempty=False, scan=True, ordered=False):
        self.name, self.reducer, self.accepts, self.acc = name, reducer, accepts, acc
        self.ident, self.nan_else, self.nonempty, self.scan = ident, nan_else, nonempty, scan
        self.summary = summary
        # ordered: no identity and no reordering (ga::red::first): scanned in order from
        # the first element, by scan_nb only; no reduction table.
        self.ordered = ordered

    def acc_code(self, code):
        """Accumulator dtype code for input dtype code ``code``, or -1 if refused."""
        k = CATEGORY[code]
        if k not in self.accepts:
            return -1
        if self.acc == "sum":
            return INT64 if k in "bi" else (UINT64 if k == "u" else code)
        if self.acc == "bool":
            return 0
        if self.acc == "index":
            return INT64
        return code

    def out_code(self, code):
        """The kernel's output dtype code (argmax: int64; else the accumulator)."""
        return INT64 if self.acc == "index" else self.acc_code(code)

    def ident_code(self, code):
        """The dtype of the identity passed to the kernel (arg reducers: the input's)."""
        return code if self.reducer.startswith(("arg", "nanarg")) else self.acc_code(code)

    def identity(self, code):
        """The identity as a Python value in the dtype ident_code(code) (None: none)."""
        c = self.ident_code(code)
        k, ident = CATEGORY[c], self.ident
        if ident is None:
            return None
        if ident == "nan":
            if k in "fc":
                return complex(math.nan, math.nan) if k == "c" else math.nan
            ident = self.nan_else
        if ident in ("lowest", "highest"):
            hi = ident == "highest"
            if k == "b":
                return hi
            if k in "fc":
                v = math.inf if hi else -math.inf
                return complex(v, v) if k == "c" else v
            info = _dtypes.iinfo(RECORDS[c].dtype)
            return int(info.max if hi else info.min)
        if k == "b":
            return bool(ident)
        if k == "u":        # bitwise_and's -1: all ones in the unsigned dtype
            return int(ident) % (1 << (8 * RECORDS[c].itemsize))
        return complex(ident) if k == "c" else (float(ident) if k == "f" else int(ident))

    def expr(self, code):
        """The reducer's C++ type for input dtype ``code``."""
        a, t = CPP[self.acc_code(code)], CPP[code]
        return self.reducer.format(A=a, T=t)

    def compute_codes(self):
        return [r.code for r in _dtypes.API_RECORDS if self.acc_code(r.code) >= 0]


_ALL, _NUM = "biufc", "iufc"

_ROWS = [
    Reduction("sum", "ga::red::ufn<ga::op::add, {A}, {T}>", _ALL, "sum", 0,
              "Sum of the elements."),
    Reduction("prod", "ga::red::ufn<ga::op::multiply, {A}, {T}>", _ALL, "sum", 1,
              "Product of the elements."),
    Reduction("max", "ga::red::ufn<ga::op::maximum, {A}, {T}>", _ALL, "same", "lowest",
              "Largest element; NaN propagates.", nonempty=True),
    Reduction("min", "ga::red::ufn<ga::op::minimum, {A}, {T}>", _ALL, "same", "highest",
              "Smallest element; NaN propagates.", nonempty=True),
    Reduction("nanmax", "ga::red::ufn<ga::op::fmax, {A}, {T}>", _ALL, "same", "nan",
              "Largest element ignoring NaN.", nan_else="lowest", nonempty=True),
    Reduction("nanmin", "ga::red::ufn<ga::op::fmin, {A}, {T}>", _ALL, "same", "nan",
              "Smallest element ignoring NaN.", nan_else="highest", nonempty=True),
    Reduction("nansum", "ga::red::nan<ga::op::add, {A}, {T}, 0>", _ALL, "sum", 0,
              "Sum treating NaN as zero."),
    Reduction("nanprod", "ga::red::nan<ga::op::multiply, {A}, {T}, 1>", _ALL, "sum", 1,
              "Product treating NaN as one."),
    Reduction("all", "ga::red::ufn<ga::op::logical_and, {A}, {T}>", _ALL, "bool", True,
              "True where every element is nonzero."),
    Reduction("any", "ga::red::ufn<ga::op::logical_or, {A}, {T}>", _ALL, "bool", False,
              "True where some element is nonzero."),
    Reduction("logical_xor", "ga::red::ufn<ga::op::logical_xor, {A}, {T}>", _ALL, "bool",
              False, "XOR of the truth values."),
    Reduction("bitwise_and", "ga::red::ufn<ga::op::bitwise_and, {A}, {T}>", "biu", "same",
              -1, "Bitwise AND of the elements."),
    Reduction("bitwise_or", "ga::red::ufn<ga::op::bitwise_or, {A}, {T}>", "biu", "same", 0,
              "Bitwise OR of the elements."),
    Reduction("bitwise_xor", "ga::red::ufn<ga::op::bitwise_xor, {A}, {T}>", "biu", "same", 0,
              "Bitwise XOR of the elements."),
    Reduction("subtract", "ga::red::first<ga::op::subtract, {A}, {T}>", "iufc", "same", None,
              "subtract.accumulate: x0, x0 - x1, (x0 - x1) - x2 ...", ordered=True),
    Reduction("count_nonzero", "ga::red::nonzero<{T}>", _ALL, "index", 0,
              "Number of nonzero elements.", scan=False),
    Reduction("argmax", "ga::red::arg<ga::red::Max, {T}>", _ALL, "index", 0,
              "Index of the first largest element (NaN first).", nonempty=True, scan=False),
    Reduction("argmin", "ga::red::arg<ga::red::Min, {T}>", _ALL, "index", 0,
              "Index of the first smallest element (NaN first).", nonempty=True, scan=False),
    Reduction("nanargmax", "ga::red::nanarg<ga::red::Max, {T}>", _ALL, "index", 0,
              "Index of the first largest element ignoring NaN.", nonempty=True, scan=False),
    Reduction("nanargmin", "ga::red::nanarg<ga::red::Min, {T}>", _ALL, "index", 0,
              "Index of the first smallest element ignoring NaN.", nonempty=True, scan=False),
]


def _ordered(name, functor, accepts, summary):
    return Reduction(name, f"ga::red::first<ga::op::{functor}, {{A}}, {{T}}>", accepts, "same",
                     None, summary, ordered=True)


# The other binary ufuncs' reduce/accumulate (garray/_reduce/ufunc_methods.py casts the input to
# the ufunc's loop dtype first, so each row accepts only the loop dtypes it computes in).
_ROWS += [
    _ordered("divide", "divide", "fc", "divide.accumulate: x0, x0 / x1 ..."),
    _ordered("floor_divide", "floor_divide", "iuf", "floor_divide.accumulate."),
    _ordered("remainder", "remainder", "iuf", "remainder.accumulate."),
    _ordered("fmod", "fmod", "iuf", "fmod.accumulate."),
    _ordered("power", "power", "iufc", "power.accumulate (float_power: in float64)."),
    _ordered("arctan2", "atan2", "f", "arctan2.accumulate."),
    _ordered("copysign", "copysign", "f", "copysign.accumulate."),
    _ordered("nextafter", "nextafter", "f", "nextafter.accumulate."),
    _ordered("heaviside", "heaviside", "f", "heaviside.accumulate."),
    _ordered("equal", "equal", "b", "equal.accumulate of booleans."),
    _ordered("not_equal", "not_equal", "b", "not_equal.accumulate of booleans."),
    _ordered("less", "less", "b", "less.accumulate of booleans."),
    _ordered("less_equal", "less_equal", "b", "less_equal.accumulate of booleans."),
    _ordered("greater", "greater", "b", "greater.accumulate of booleans."),
    _ordered("greater_equal", "greater_equal", "b", "greater_equal.accumulate of booleans."),
    _ordered("left_shift", "bitwise_left_shift", "iu", "left_shift.accumulate."),
    _ordered("right_shift", "bitwise_right_shift", "iu", "right_shift.accumulate."),
    Reduction("hypot", "ga::red::ufn<ga::op::hypot, {A}, {T}>", "f", "same", 0,
              "hypot.reduce: sqrt of the sum of squares, without overflow."),
    Reduction("logaddexp", "ga::red::ufn<ga::op::logaddexp, {A}, {T}>", "f", "same",
              "lowest", "logaddexp.reduce: log of the sum of exponentials."),
    Reduction("logaddexp2", "ga::red::ufn<ga::op::logaddexp2, {A}, {T}>", "f", "same",
              "lowest", "logaddexp2.reduce: log2 of the sum of powers of two."),
    Reduction("gcd", "ga::red::ufn<ga::op::gcd, {A}, {T}>", "iu", "same", 0,
              "gcd.reduce: the greatest common divisor of the elements."),
    _ordered("lcm", "lcm", "iu", "lcm.accumulate (no identity, as NumPy)."),
]

ROWS = {r.name: r for r in _ROWS}

# Binary ufunc -> the row its reduce/accumulate run on.
UFUNC_REDUCTIONS = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
                    "fmax": "nanmax", "fmin": "nanmin", "logical_and": "all",
                    "logical_or": "any", "logical_xor": "logical_xor",
                    "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
                    "bitwise_xor": "bitwise_xor"}
UFUNC_REDUCTIONS.update({
    "subtract": "subtract", "divide": "divide", "floor_divide": "floor_divide",
    "remainder": "remainder", "fmod": "fmod", "pow": "power", "float_power": "power",
    "atan2": "arctan2", "hypot": "hypot", "copysign": "copysign", "nextafter": "nextafter",
    "logaddexp": "logaddexp", "logaddexp2": "logaddexp2", "gcd": "gcd", "lcm": "lcm",
    "heaviside": "heaviside", "equal": "equal",
    "not_equal": "not_equal", "less": "less", "less_equal": "less_equal",
    "greater": "greater", "greater_equal": "greater_equal",
    "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift"})


# The reduction and scan families: the slots of a reduction's tables and of a scan's
# (cython/_reduce.pxi mirrors both enums), each template formatted with {R} the reducer
# and {T} the input's C++ type.  32-bit indexing only where it pays: the barrier-free
# kernels on GPUs.  The column schedule (a CPU path) and the block trees (block-linear,
# few index operations) are built with 64-bit indices only, and a scan's first pass is
# the reduction's block tree.
REDUCE = Family(
    "reduce", "reduce.hip", "R_NB32 R_NB64 R_COLS R_BT R_BTP",
    templates={"R_NB32": "ga::reduce_nb<{R}, {T}, ga::int32>",
               "R_NB64": "ga::reduce_nb<{R}, {T}, ga::int64>",
               "R_COLS": "ga::reduce_cols<{R}, {T}, ga::int64, " + str(COLS_WIDTH) + ">",
               "R_BT": "ga::reduce_bt<{R}, {T}, ga::int64>",
               "R_BTP": "ga::reduce_bt_part<{R}, ga::int64>"},
    tables=lambda: ([table(n) for n, r in ROWS.items() if not r.ordered]
                    + [tree_table(n) for n, r in ROWS.items() if not r.ordered]),
    barrier=["R_BT", "R_BTP"], cython="_reduce.pxi")
SCAN = Family(
    "scan", "reduce.hip", "S_NB32 S_NB64 S_BT S_PART",
    templates={"S_NB32": "ga::scan_nb<{R}, {T}, ga::int32>",
               "S_NB64": "ga::scan_nb<{R}, {T}, ga::int64>",
               "S_BT": "ga::scan_bt<{R}, {T}, ga::int64>",
               "S_PART": "ga::scan_part<{R}, ga::int64>"},
    tables=lambda: ([scan_table(n) for n, r in ROWS.items() if r.scan]
                    + [scan_tree_table(n) for n, r in ROWS.items()
                       if r.scan and not r.ordered]),
    barrier=["S_BT"], cython="_reduce.pxi")
FAMILIES = (REDUCE, SCAN)
REDUCE.export(globals())    # R_NB32 ... and S_NB32 ... as module names
SCAN.export(globals())

_KINDS = {"nb": (REDUCE, "R_NB32 R_NB64 R_COLS"), "tree": (REDUCE, "R_BT R_BTP"),
          "scan": (SCAN, "S_NB32 S_NB64"), "scan-tree": (SCAN, "S_BT S_PART")}


def _table(kind, name):
    row = ROWS[name]
    family, slots = _KINDS[kind]
    return "reduce.hip", [((c, family.enum[s]), family.expr(s, RECORDS[c], R=row.expr(c)))
                          for c in row.compute_codes() for s in slots.split()]


def table(name):
    """A reduction's barrier-free kernels: (kernel file, [((input code, slot), expression)]).

    They use no warp operation, so the CPU device builds them once for every warp size
    (garray/_compiler/gxx.py); the block tree is ``tree_table``."""
    if ROWS[name].ordered:
        raise ValueError(f"{name}: an ordered row has only a scan table")
    return _table("nb", name)


def tree_table(name):
    """A reduction's block-tree kernels (both passes)."""
    return _table("tree", name)


def scan_table(name):
    """A scan's barrier-free kernels (cumulative_sum, ufunc.accumulate ...)."""
    return _table("scan", name)


def scan_tree_table(name):
    """A scan's reduce-then-scan kernels (its first pass is ``tree_table``'s reduce_bt);
    not for ordered rows."""
    return _table("scan-tree", name)
