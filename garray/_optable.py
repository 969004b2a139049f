"""The op table: the one source of truth for elementwise operations (STYLE.md habit 1).

Each ``Op`` names the functor in ``_kernels/garray/functors.h``, the number of inputs,
the dtype categories it accepts and how its compute and output dtypes follow from the
promoted input dtype.  The Cython launch layer builds its per-op kernel tables from
it, ``garray/_elementwise.py`` builds the public functions from it, the CI compile
check enumerates its instantiations, and the tests iterate over it.

Note [Dtype rules]
~~~~~~~~~~~~~~~~~~
1. Inputs promote per garray._dtypes (Python scalars weak).  ``rule`` maps the
   promoted dtype to the compute dtype the functor runs in:
     same     the promoted dtype
     float    bool/8/16-bit ints -> float32, 32/64-bit ints -> float64 (NumPy would pick
              float16 for the smallest; garray has no float16), floats/complex unchanged
     bool     everything is converted to bool first (logical ops)
     divide   floats/complex unchanged, bool and every int -> float64 (NumPy's true_divide)
     float64  real -> float64, complex -> complex128 (float_power)
2. ``accepts`` lists the categories of the compute dtype: b(ool), i(nt), u(int),
   f(loat), c(omplex).  Anything else raises TypeError naming the op and dtype.
3. ``out`` maps the compute dtype to the result: same, bool, or real (complex -> its
   real float, e.g. abs).
"""

import numpy

from . import _dtypes

CODES = {numpy.dtype(d): i for i, d in enumerate(_dtypes.DTYPES)}
CPP = ("bool", "ga::int8", "ga::int16", "ga::int32", "ga::int64", "ga::uint8", "ga::uint16",
       "ga::uint32", "ga::uint64", "float", "double", "ga::complex<float>",
       "ga::complex<double>")
CATEGORY = "biiiiuuuuffcc"
BOOL, FLOAT32, FLOAT64, COMPLEX64, COMPLEX128 = 0, 9, 10, 11, 12

# Layout slots of a kernel table (the Cython launch layer uses the same numbers).
L_C, L_CS, L_SC, L_S32, L_S64 = range(5)
LAYOUT_NAMES = ("c", "cs", "sc", "s32", "s64")


class Op:
    __slots__ = ("name", "nin", "functor", "accepts", "rule", "out", "doc", "numpy_name",
                 "rejects")

    def __init__(self, name, nin, accepts, rule="same", out="same", functor=None, doc="",
                 numpy_name=None, rejects=""):
        self.name, self.nin, self.accepts, self.rule, self.out = name, nin, accepts, rule, out
        self.rejects = rejects      # categories of the *promoted* input refused up front
        self.functor = functor or name
        self.doc = doc
        self.numpy_name = numpy_name or name

    def compute_code(self, promoted):
        """Compute dtype code for a promoted input dtype code, or -1 if unsupported."""
        r = self.rule
        if CATEGORY[promoted] in self.rejects:
            return -1
        if r == "bool":
            c = BOOL
        elif r == "float":
            c = promoted if CATEGORY[promoted] in "fc" else (
                FLOAT32 if promoted in (0, 1, 2, 5, 6) else FLOAT64)
        elif r == "divide":
            c = promoted if CATEGORY[promoted] in "fc" else FLOAT64
        elif r == "float64":
            c = COMPLEX128 if CATEGORY[promoted] == "c" else FLOAT64
        else:
            c = promoted
        return c if CATEGORY[c] in self.accepts else -1

    def out_code(self, compute):
        if self.out == "bool":
            return BOOL
        if self.out == "real" and CATEGORY[compute] == "c":
            return FLOAT32 if compute == COMPLEX64 else FLOAT64
        return compute

    def compute_codes(self):
        return sorted({c for c in (self.compute_code(p) for p in range(13)) if c >= 0})

    def kernels(self, compute):
        """Name expressions for one compute dtype, in layout-slot order (None: no slot)."""
        f, to, t = f"ga::op::{self.functor}", CPP[self.out_code(compute)], CPP[compute]
        n = self.nin
        return [f"ga::ew{n}_c<{f}, {to}, {t}>",
                f"ga::ew2_cs<{f}, {to}, {t}>" if n == 2 else None,
                f"ga::ew2_sc<{f}, {to}, {t}>" if n == 2 else None,
                f"ga::ew{n}_s<{f}, {to}, {t}, ga::int32>",
                f"ga::ew{n}_s<{f}, {to}, {t}, ga::int64>"]

    def unit(self):
        """(kernel file, name expressions) building every kernel of this op."""
        exprs = [e for c in self.compute_codes() for e in self.kernels(c) if e]
        return "elementwise.hip", exprs


NUM = "iufc"
REAL = "iuf"
ALL = "biufc"
INT = "iu"

_OPS = [
    # binary arithmetic
    Op("add", 2, ALL), Op("subtract", 2, NUM), Op("multiply", 2, ALL),
    Op("divide", 2, "fc", rule="divide", numpy_name="true_divide"),
    Op("floor_divide", 2, REAL), Op("remainder", 2, REAL), Op("fmod", 2, REAL),
    Op("pow", 2, NUM, functor="power", numpy_name="power"),
    Op("float_power", 2, "fc", rule="float64", functor="power"),
    Op("maximum", 2, ALL), Op("minimum", 2, ALL), Op("fmax", 2, ALL), Op("fmin", 2, ALL),
    Op("atan2", 2, "f", rule="float", numpy_name="arctan2"),
    Op("hypot", 2, "f", rule="float"), Op("copysign", 2, "f", rule="float"),
    Op("nextafter", 2, "f", rule="float"), Op("logaddexp", 2, "f", rule="float"),
    Op("heaviside", 2, "f", rule="float"),
    # comparisons and logic
    Op("equal", 2, ALL, out="bool"), Op("not_equal", 2, ALL, out="bool"),
    Op("less", 2, ALL, out="bool"), Op("less_equal", 2, ALL, out="bool"),
    Op("greater", 2, ALL, out="bool"), Op("greater_equal", 2, ALL, out="bool"),
    Op("logical_and", 2, "b", rule="bool"), Op("logical_or", 2, "b", rule="bool"),
    Op("logical_xor", 2, "b", rule="bool"), Op("logical_not", 1, "b", rule="bool"),
    Op("bitwise_and", 2, "biu"), Op("bitwise_or", 2, "biu"), Op("bitwise_xor", 2, "biu"),
    Op("bitwise_left_shift", 2, INT, numpy_name="left_shift"),
    Op("bitwise_right_shift", 2, INT, numpy_name="right_shift"),
    Op("bitwise_invert", 1, "biu", numpy_name="invert"),
    # unary arithmetic and classification
    Op("abs", 1, ALL, out="real", functor="absolute", numpy_name="absolute"),
    Op("negative", 1, NUM), Op("positive", 1, NUM), Op("square", 1, NUM),
    Op("reciprocal", 1, "fc"), Op("sign", 1, NUM),
    Op("floor", 1, REAL), Op("ceil", 1, REAL), Op("trunc", 1, REAL), Op("round", 1, NUM),
    Op("isnan", 1, ALL, out="bool"), Op("isinf", 1, ALL, out="bool"),
    Op("isfinite", 1, ALL, out="bool"), Op("signbit", 1, "f", rule="float", out="bool"),
    Op("real", 1, ALL, out="real"), Op("imag", 1, ALL, out="real"),
    Op("conj", 1, NUM, numpy_name="conjugate"), Op("angle", 1, "fc", rule="float", out="real", rejects="b"),
    # transcendental
    *[Op(n, 1, "fc", rule="float", numpy_name=np_n) for n, np_n in [
        ("sin", "sin"), ("cos", "cos"), ("tan", "tan"), ("asin", "arcsin"),
        ("acos", "arccos"), ("atan", "arctan"), ("sinh", "sinh"), ("cosh", "cosh"),
        ("tanh", "tanh"), ("asinh", "arcsinh"), ("acosh", "arccosh"), ("atanh", "arctanh"),
        ("exp", "exp"), ("expm1", "expm1"), ("log", "log"), ("log2", "log2"),
        ("log10", "log10"), ("log1p", "log1p"), ("sqrt", "sqrt")]],
    Op("exp2", 1, "f", rule="float"), Op("cbrt", 1, "f", rule="float"),
    Op("deg2rad", 1, "f", rule="float"), Op("rad2deg", 1, "f", rule="float"),
]

OPS = {op.name: op for op in _OPS}


def cast_unit(to_code):
    """(file, name expressions) of the casts into one dtype: from every dtype, 3 layouts."""
    to = CPP[to_code]
    exprs = []
    for fr in CPP:
        exprs += [f"ga::cast_c<{to}, {fr}>", f"ga::cast_s<{to}, {fr}, ga::int32>",
                  f"ga::cast_s<{to}, {fr}, ga::int64>"]
    return "elementwise.hip", exprs


def where_unit():
    exprs = []
    for t in CPP:
        exprs += [f"ga::where_s<{t}, ga::int32>", f"ga::where_s<{t}, ga::int64>"]
    return "elementwise.hip", exprs


def reduce_unit(reducer):
    """(file, name expressions) of a boolean reduction (all_r/any_r) over every dtype."""
    exprs = []
    for t in CPP:
        exprs += [f"ga::reduce_s<ga::op::{reducer}, bool, {t}, ga::int32>",
                  f"ga::reduce_s<ga::op::{reducer}, bool, {t}, ga::int64>"]
    return "elementwise.hip", exprs


def creation_unit():
    """(file, name expressions) of the creation kernels, 7 per dtype code in this order:
    fill_c, arange_c, linspace_c, eye_c, tri_s<int32>, tri_s<int64>, (spare: fill_c)."""
    exprs = []
    for code, t in enumerate(CPP):
        c = "ga::complex<double>" if CATEGORY[code] == "c" else "double"
        exprs += [f"ga::fill_c<{t}>", f"ga::arange_c<{t}>", f"ga::linspace_c<{t}, {c}>",
                  f"ga::eye_c<{t}>", f"ga::tri_s<{t}, ga::int32>", f"ga::tri_s<{t}, ga::int64>"]
    return "elementwise.hip", exprs


CREATION_KERNELS = ("fill", "arange", "linspace", "eye", "tri32", "tri64")


def all_units():
    """Every compile unit garray builds, for the CI compile check."""
    units = [op.unit() for op in OPS.values()]
    units += [cast_unit(c) for c in range(13)]
    units.append(where_unit())
    units += [reduce_unit("all_r"), reduce_unit("any_r"), creation_unit()]
    return units
