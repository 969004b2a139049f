"""The op table: the one registry of garray's elementwise operations.

Each row (``Op``) says what an op computes and everything mechanical follows from it:
- the public ufunc objects and their NumPy aliases (``garray/_elementwise/ufuncs.py``) and the
  ndarray operators (``cython/_operators.pxi``), both written by ``garray/_elementwise/codegen.py``;
- each ufunc's docstring (``Op.docstring``: what it computes, the dtypes it accepts,
  where it differs from NumPy);
- the kernel instantiations (``Op.table``: one compile unit per op, every dtype and
  layout), which the Cython launch layer loads and CI compiles for sm_90 and gfx90a.
The families of the other kernels on the same layouts (casts, ``where``) and of
creation and indexing are described here too (``FAMILIES``); ``all_tables`` collects
every family's tables (garray/_tables/family.py), so every name expression garray
instantiates is reachable from this file.

Adding a unary op: write its functor in ``_kernels/garray/functors.h``, add one row
below, run ``python -m garray._elementwise.codegen``.

Note [Dtype rules]
~~~~~~~~~~~~~~~~~~
1. Inputs promote per garray._dtypes (Python scalars weak).  ``rule`` maps the
   promoted dtype to the compute dtype the functor runs in:
     same     the promoted dtype
     float    bool/8-bit ints -> float16, 16-bit ints -> float32, 32/64-bit ints ->
              float64 (NumPy's smallest float each casts to safely), floats/complex
              unchanged
     bool     everything is converted to bool first (logical ops)
     divide   floats/complex unchanged, bool and every int -> float64 (NumPy's true_divide)
     float64  real -> float64, complex -> complex128 (float_power)
     int8b    bool -> int8, the rest unchanged (NumPy 2's bool loops of square,
              reciprocal, conjugate and power: the smallest integer loop bool casts to)
2. ``accepts`` lists the categories of the compute dtype: b(ool), i(nt), u(int),
   f(loat), c(omplex).  Anything else raises TypeError naming the op and dtype.
3. ``out`` maps the compute dtype to the result: same, bool, or real (complex -> its
   real float, e.g. abs).
4. Two outputs (``nout=2``: divmod, frexp, modf): ``out2`` maps the compute dtype to
   the second result's (same, or int32 for frexp's exponent).  One kernel computes both
   (``ew1x2_*`` / ``ew2x2_*``, Note [Two-output ops] in _kernels/garray/functors.h).
5. A second operand of its own type (``in2="int64"``: ldexp's exponent): the compute
   dtype comes from the first operand alone (by ``rule``); the second must be bool or an
   integer that casts safely to int64 (NumPy's ``ldexp`` loops ``fl->f``, ``dl->d``;
   uint64 has none) and is cast to int64.
6. The narrow floats (float16, bfloat16, float8_e4m3fn, float8_e5m2: codes
   ``_dtypes.NARROW``) are compute dtypes of the rules but have no kernels of their own:
   the launch layer runs the float32 kernel on the inputs widened to float32 and rounds
   the float32 result to the narrow dtype (cython/_ufunc.pxi, _narrow_binary), which is
   what NumPy's float16 loops and ml_dtypes' loops do per element (Note [Narrow floats]
   in _kernels/garray/types.h).  An op whose answer is a step of the format's own grid
   (spacing, nextafter) names its implementation on the bits in ``f16``
   (garray/_elementwise/f16.py, every narrow float).
"""

from .. import _dtypes
from . import family as _family
from .family import Family

RECORDS = _dtypes.RECORDS
CODES = _dtypes.Codes({r.dtype: r.code for r in RECORDS})
CPP = tuple(r.ctype for r in RECORDS)
CATEGORY = "".join(r.kind for r in RECORDS)
BOOL, INT8, INT32, INT64, UINT8, UINT64, FLOAT32, FLOAT64, COMPLEX128 = 0, 1, 3, 4, 5, 8, 9, 10, 12
FLOAT16 = _dtypes.FLOAT16
NARROW = _dtypes.NARROW
NCODES = len(RECORDS)

# The layout slots of the elementwise, cast and where tables (cython/_launch.pxi mirrors
# them); LAYOUTS are their short names, for messages.
_LAYOUT_SLOTS = "L_C L_CS L_SC L_S32 L_S64 L_AT L_RAT"
LAYOUTS = tuple(s[2:].lower() for s in _LAYOUT_SLOTS.split())

_RULE_NOTE = {
    "float": "bool and 8-bit integers compute in float16, 16-bit integers in float32, "
             "32/64-bit integers in float64.",
    "divide": "bool and integers compute in float64.",
    "float64": "real inputs compute in float64, complex in complex128.",
    "bool": "inputs are converted to bool first.",
    "int8b": "bool computes in int8, as NumPy's.",
}
_RESULTS = {   # the Returns line of the two-output ops
    "divmod": "(x1 // x2, x1 % x2): NumPy's floor quotient and remainder (sign of x2).",
    "frexp": "(mantissa, exponent): the mantissa in the float dtype, the exponent int32.",
    "modf": "(fractional part, integral part), both in the float dtype.",
}
_KIND_NAMES = {"b": "bool", "i": "signed integer", "u": "unsigned integer",
               "f": "real floating", "c": "complex floating"}

# The ndarray operators: dunder stem -> forms.  "binary": __x__, __rx__ and __ix__;
# "compare": __x__ only (Python reflects comparisons itself); "unary": __x__;
# "pair": __x__ and __rx__ (divmod: Python has no in-place form).
_BINARY, _COMPARE, _UNARY, _PAIR = "binary", "compare", "unary", "pair"


def _smallest_float(itemsize):
    """NumPy's float for a bool or integer of ``itemsize`` bytes (the smallest it casts
    to safely): float16, float32 or float64."""
    return FLOAT16 if itemsize == 1 else (FLOAT32 if itemsize == 2 else FLOAT64)


class Op:
    __slots__ = ("name", "nin", "functor", "accepts", "rule", "out", "summary", "numpy_name",
                 "rejects", "aliases", "operator", "notes", "nout", "out2", "in2", "f16")

    def __init__(self, name, nin, accepts, summary, rule="same", out="same", functor=None,
                 numpy_name=None, rejects="", aliases=(), operator=None, notes="", nout=1,
                 out2="same", in2=None, f16=None):
        self.nout, self.out2, self.in2 = nout, out2, in2
        # float16 computed on its own grid by garray._elementwise.f16.<f16> (Note [Dtype rules] 6)
        self.f16 = f16
        self.name, self.nin, self.accepts, self.rule, self.out = name, nin, accepts, rule, out
        self.rejects = rejects      # categories of the *promoted* input refused up front
        self.functor = functor or name
        self.summary = summary
        self.numpy_name = numpy_name or name
        self.aliases = tuple(aliases)   # other public names (NumPy's spellings)
        self.operator = operator        # ndarray dunder stem, e.g. "add" -> __add__
        self.notes = notes              # differences from NumPy beyond the dtype rule

    def compute_code(self, promoted):
        """Compute dtype code for a promoted input dtype code, or -1 if unsupported."""
        r = self.rule
        if CATEGORY[promoted] in self.rejects:
            return -1
        if r == "bool":
            c = BOOL
        elif r == "float":
            c = promoted if CATEGORY[promoted] in "fc" else _smallest_float(
                RECORDS[promoted].itemsize)
        elif r == "divide":
            c = promoted if CATEGORY[promoted] in "fc" else FLOAT64
        elif r == "float64":    # ml_dtypes' float_power keeps bfloat16 and the float8s
            c = COMPLEX128 if CATEGORY[promoted] == "c" else (
                promoted if promoted in _dtypes.ML_FORMATS else FLOAT64)
        elif r == "int8b":
            c = INT8 if promoted == BOOL else promoted
        else:
            c = promoted
        return c if CATEGORY[c] in self.accepts else -1

    def compute_code_pair(self, a, b):
        """Compute dtype code for two array inputs of codes a and b, or -1.

        As compute_code of their promoted dtype, except under the float rule with two
        integer/bool inputs, where NumPy picks the smallest float each input casts to
        safely: int16 with uint16 computes in float32, though the two promote to int32;
        and for an op with ``in2``, where a alone decides (b must fit it: in2_ok).
        """
        if self.in2 is not None:    # ml_dtypes' ldexp takes a uint64 exponent too
            ok = self.in2_ok(b) or (b == UINT64 and a in _dtypes.ML_FORMATS)
            return self.compute_code(a) if ok else -1
        if self.rule == "float" and CATEGORY[a] in "biu" and CATEGORY[b] in "biu":
            c = _smallest_float(max(RECORDS[a].itemsize, RECORDS[b].itemsize))
            return c if CATEGORY[c] in self.accepts else -1
        return self.compute_code(CODES[_dtypes.promote_types(RECORDS[a].dtype,
                                                             RECORDS[b].dtype)])

    def in2_ok(self, code):
        """Whether a second operand of dtype code casts safely to ``in2`` (int64)."""
        return CATEGORY[code] in "biu" and code != UINT64

    def in2_code(self, compute):
        """The dtype code the second operand is cast to."""
        return {"int64": INT64}[self.in2] if self.in2 else compute

    def out2_code(self, compute):
        """The second output's dtype code (two-output ops)."""
        return INT32 if self.out2 == "int32" else compute

    def out_code(self, compute):
        if self.out == "bool":
            return BOOL
        if self.out == "uint8":
            return UINT8
        if self.out == "real":
            return RECORDS[compute].real
        return compute

    def compute_codes(self):
        """The compute codes with kernels (the narrow floats run float32's: Note [Dtype
        rules] 6)."""
        return sorted({c for c in (self.compute_code(p) for p in range(NCODES))
                       if c >= 0 and c not in NARROW})

    def kernels(self, compute):
        """Name expressions for one compute dtype, in layout-slot order (None: no slot)."""
        if compute in NARROW:       # float32's kernels run it (Note [Dtype rules] 6)
            return [None] * len(LAYOUTS)
        f, to, t = f"ga::op::{self.functor}", CPP[self.out_code(compute)], CPP[compute]
        n = self.nin
        if self.nout == 2:
            to = f"{to}, {CPP[self.out2_code(compute)]}"
            return [f"ga::ew{n}x2_c<{f}, {to}, {t}>", None, None,
                    f"ga::ew{n}x2_s<{f}, {to}, {t}, ga::int32>",
                    f"ga::ew{n}x2_s<{f}, {to}, {t}, ga::int64>"]
        at = n == 2 and self.in2 is None and self.out_code(compute) == compute
        return [f"ga::ew{n}_c<{f}, {to}, {t}>",
                f"ga::ew2_cs<{f}, {to}, {t}>" if n == 2 else None,
                f"ga::ew2_sc<{f}, {to}, {t}>" if n == 2 else None,
                f"ga::ew{n}_s<{f}, {to}, {t}, ga::int32>",
                f"ga::ew{n}_s<{f}, {to}, {t}, ga::int64>",
                f"ga::ew2_at<{f}, {t}>" if at else None,
                f"ga::ew2_reduceat<{f}, {t}>" if at else None]

    def table(self):
        """The op's kernel table: (kernel file, [((compute code, layout), expression)])."""
        return "elementwise.hip", [((c, lay), e) for c in self.compute_codes()
                                   for lay, e in enumerate(self.kernels(c)) if e]

    def unit(self):
        """(kernel file, name expressions) building every kernel of this op."""
        f, entries = self.table()
        return f, [e for _, e in entries]

    def dunders(self):
        """[(special method, role)] this op implements on ndarray; role is one of
        forward, reflected, inplace, unary."""
        if self.operator is None:
            return []
        stem, form = self.operator
        if form == _BINARY:
            return [(f"__{stem}__", "forward"), (f"__r{stem}__", "reflected"),
                    (f"__i{stem}__", "inplace")]
        if form == _PAIR:
            return [(f"__{stem}__", "forward"), (f"__r{stem}__", "reflected")]
        return [(f"__{stem}__", "unary" if form == _UNARY else "forward")]

    def docstring(self):
        """NumPy-style docstring: what it computes, accepted dtypes, NumPy differences."""
        args = "x" if self.nin == 1 else "x1, x2"
        accepted = [RECORDS[p].name for p in range(NCODES) if self.compute_code(p) >= 0]
        kinds = [k for k in "biufc" if any(RECORDS[p].kind == k for p in range(NCODES)
                                          if self.compute_code(p) >= 0)]
        lines = [f"{self.summary}", "",
                 f"``garray.{self.name}({args}, /, *, out=None)``", "",
                 "Parameters", "----------"]
        if self.nin == 1:
            lines += ["x : ndarray", "    Input array."]
        elif self.in2:
            lines += ["x1 : ndarray or Python scalar", "    The floating operand.",
                      "x2 : ndarray or Python int",
                      "    The exponents: bool or integers (cast to int64; uint64 and "
                      "floats raise TypeError), broadcast against x1."]
        else:
            lines += ["x1, x2 : ndarray or Python scalar",
                      "    Input arrays (at least one an ndarray), broadcast together; "
                      "Python scalars are weak (NEP 50)."]
        if self.nout == 2:
            lines += ["out : tuple of two ndarray or None, optional",
                      "    Arrays to write the two results into (same-kind casting); "
                      "a None entry is allocated.", "",
                      "Returns", "-------", "tuple of two ndarray",
                      "    " + _RESULTS[self.name], ""]
        else:
            lines += ["out : ndarray, optional",
                      "    Array to write the result into (same-kind casting).", "",
                      "Returns", "-------", "ndarray", ""]
        # numpydoc's sections only (Sphinx drops unknown ones): dtypes and differences
        # from NumPy are paragraphs of Notes.
        lines += ["Notes", "-----",
                  f"Dtypes: accepts {', '.join(_KIND_NAMES[k] for k in kinds)} inputs "
                  f"({', '.join(accepted)}); others raise TypeError.  Runs on the "
                  f"device of its array operands (all on one device)."]
        notes = [n for n in (_RULE_NOTE.get(self.rule), self.notes) if n]
        if notes:
            lines += ["", "Differences from NumPy: " + " ".join(notes)]
        aliases = "".join(f", garray.{a}" for a in self.aliases)
        lines += ["", "See Also", "--------", f"numpy.{self.numpy_name}{aliases}"]
        return "\n".join(lines) + "\n"


NUM = "iufc"
REAL = "iuf"
ALL = "biufc"
INT = "iu"


def _unary_float(name, summary, numpy_name=None, accepts="fc", aliases=()):
    return Op(name, 1, accepts, summary, rule="float", numpy_name=numpy_name, aliases=aliases)


_OPS = [
    # binary arithmetic
    Op("add", 2, ALL, "Add arguments elementwise.", operator=("add", _BINARY)),
    Op("subtract", 2, NUM, "Subtract arguments elementwise.", operator=("sub", _BINARY)),
    Op("multiply", 2, ALL, "Multiply arguments elementwise.", operator=("mul", _BINARY)),
    Op("divide", 2, "fc", "True division elementwise.", rule="divide",
       numpy_name="true_divide", aliases=("true_divide",), operator=("truediv", _BINARY)),
    Op("floor_divide", 2, REAL, "The largest integer not above x1 / x2, elementwise.",
       rule="int8b", operator=("floordiv", _BINARY),
       notes="Infinite operands follow the Array API (floor(x1 / x2)); NumPy gives NaN."),
    Op("remainder", 2, REAL, "Remainder of division, with the sign of the divisor.",
       rule="int8b", aliases=("mod",), operator=("mod", _BINARY)),
    Op("fmod", 2, REAL, "Remainder of division, with the sign of the dividend (C fmod).",
       rule="int8b"),
    Op("divmod", 2, REAL, "Floor quotient and remainder, elementwise, in one pass.", nout=2,
       rule="int8b", operator=("divmod", _PAIR),
       notes="Infinite operands give NumPy's values (NaN quotient), unlike floor_divide."),
    Op("ldexp", 2, "f", "x1 * 2**x2 for a float x1 and an integer exponent x2.",
       rule="float", in2="int64"),
    Op("pow", 2, NUM, "x1 raised to the power x2, elementwise.", functor="power",
       rule="int8b", numpy_name="power", aliases=("power",), operator=("pow", _BINARY),
       notes="An integer base with a negative integer exponent gives 0 (1 or -1 for a "
             "base of 1 or -1); NumPy raises ValueError. A scalar exponent of 2 is "
             "computed as x * x and, on real floats, 0.5 as sqrt and -1 as 1 / x, as "
             "NumPy does (-0.0 ** 0.5 is -0.0 and -inf ** 0.5 is nan); complex ** 0.5 and ** -1 "
             "are pow, as numpy.power gives (NumPy's ** operator alone takes csqrt and "
             "reciprocal there, which differ at infinities)."),
    Op("float_power", 2, "fc", "x1 ** x2 computed in double precision.", rule="float64",
       functor="power"),
    Op("maximum", 2, ALL, "Elementwise maximum; NaN propagates."),
    Op("minimum", 2, ALL, "Elementwise minimum; NaN propagates."),
    Op("fmax", 2, ALL, "Elementwise maximum, ignoring NaN where the other is a number."),
    Op("fmin", 2, ALL, "Elementwise minimum, ignoring NaN where the other is a number."),
    Op("atan2", 2, "f", "Arc tangent of x1 / x2 choosing the quadrant.", rule="float",
       numpy_name="arctan2", aliases=("arctan2",)),
    Op("hypot", 2, "f", "sqrt(x1**2 + x2**2) without overflow.", rule="float"),
    Op("copysign", 2, "f", "Magnitude of x1 with the sign of x2.", rule="float"),
    Op("nextafter", 2, "f", "The next representable value after x1 towards x2.",
       rule="float", f16="nextafter"),
    Op("logaddexp", 2, "f", "log(exp(x1) + exp(x2)) without overflow.", rule="float"),
    Op("heaviside", 2, "f", "Heaviside step: 0 below zero, x2 at zero, 1 above.",
       rule="float"),
    Op("logaddexp2", 2, "f", "log2(2**x1 + 2**x2) without overflow.", rule="float"),
    Op("gcd", 2, INT, "Greatest common divisor of ``|x1|`` and ``|x2|``."),
    Op("lcm", 2, INT, "Least common multiple of ``|x1|`` and ``|x2|``."),
    # comparisons and logic
    Op("equal", 2, ALL, "x1 == x2 elementwise.", out="bool", operator=("eq", _COMPARE)),
    Op("not_equal", 2, ALL, "x1 != x2 elementwise.", out="bool", operator=("ne", _COMPARE)),
    Op("less", 2, ALL, "x1 < x2 elementwise.", out="bool", operator=("lt", _COMPARE)),
    Op("less_equal", 2, ALL, "x1 <= x2 elementwise.", out="bool", operator=("le", _COMPARE)),
    Op("greater", 2, ALL, "x1 > x2 elementwise.", out="bool", operator=("gt", _COMPARE)),
    Op("greater_equal", 2, ALL, "x1 >= x2 elementwise.", out="bool",
       operator=("ge", _COMPARE)),
    Op("logical_and", 2, "b", "Logical AND of the truth values.", rule="bool"),
    Op("logical_or", 2, "b", "Logical OR of the truth values.", rule="bool"),
    Op("logical_xor", 2, "b", "Logical XOR of the truth values.", rule="bool"),
    Op("logical_not", 1, "b", "Logical NOT of the truth value.", rule="bool"),
    Op("bitwise_and", 2, "biu", "Bitwise AND.", operator=("and", _BINARY)),
    Op("bitwise_or", 2, "biu", "Bitwise OR.", operator=("or", _BINARY)),
    Op("bitwise_xor", 2, "biu", "Bitwise XOR.", operator=("xor", _BINARY)),
    Op("bitwise_left_shift", 2, INT, "Shift the bits of x1 left by x2.", rule="int8b",
       numpy_name="left_shift", aliases=("left_shift",), operator=("lshift", _BINARY)),
    Op("bitwise_right_shift", 2, INT, "Shift the bits of x1 right by x2 (arithmetic for "
       "signed types).", rule="int8b", numpy_name="right_shift", aliases=("right_shift",),
       operator=("rshift", _BINARY)),
    Op("bitwise_invert", 1, "biu", "Bitwise NOT (logical NOT for bool).", numpy_name="invert",
       aliases=("invert", "bitwise_not"), operator=("invert", _UNARY)),
    # unary arithmetic and classification
    Op("abs", 1, ALL, "Absolute value (the modulus for complex).", out="real",
       functor="absolute", numpy_name="absolute", aliases=("absolute",),
       operator=("abs", _UNARY)),
    Op("negative", 1, NUM, "Numerical negative.", operator=("neg", _UNARY)),
    Op("positive", 1, NUM, "Numerical positive (a copy).", operator=("pos", _UNARY)),
    Op("square", 1, NUM, "x * x elementwise.", rule="int8b"),
    Op("reciprocal", 1, NUM, "1 / x elementwise.", rule="int8b",
       notes="Integers: 1 / x truncated (1, -1 or 0); for x = 0 the int32/int64 minimum "
             "and 0 for narrower and unsigned types, as NumPy on x86-64 gives (NumPy "
             "also warns)."),
    Op("sign", 1, NUM, "Sign: -1, 0 or 1 (``x / |x|`` for complex)."),
    Op("floor", 1, "b" + REAL, "The largest integer not above x."),
    Op("ceil", 1, "b" + REAL, "The smallest integer not below x."),
    Op("trunc", 1, "b" + REAL, "x rounded towards zero."),
    Op("round", 1, NUM, "x rounded to the nearest integer, halves to even."),
    Op("rint", 1, "fc", "x rounded to the nearest integer, halves to even (float result).",
       rule="float", functor="round"),
    Op("fabs", 1, "f", "Absolute value, as a float.", rule="float"),
    Op("spacing", 1, "f", "Distance to the next representable value away from zero.",
       rule="float", f16="spacing",
       notes="float16 follows NumPy's half rule: always positive, and below ``|x|`` for a "
             "negative power of two."),
    Op("bitwise_count", 1, INT, "Number of set bits of ``|x|`` (uint8).", out="uint8",
       rule="int8b"),
    Op("isnan", 1, ALL, "True where x is NaN.", out="bool"),
    Op("isinf", 1, ALL, "True where x is infinite.", out="bool"),
    Op("isfinite", 1, ALL, "True where x is neither infinite nor NaN.", out="bool"),
    Op("signbit", 1, "f", "True where the sign bit is set.", rule="float", out="bool"),
    Op("real", 1, ALL, "The real part.", out="real"),
    Op("imag", 1, ALL, "The imaginary part (0 for real input).", out="real"),
    Op("conj", 1, NUM, "The complex conjugate.", rule="int8b", numpy_name="conjugate",
       aliases=("conjugate",)),
    Op("frexp", 1, "f", "Mantissa in [0.5, 1) and int32 exponent: x = m * 2**e.",
       rule="float", nout=2, out2="int32"),
    Op("modf", 1, "f", "Fractional and integral parts, both with the sign of x.",
       rule="float", nout=2),
    Op("angle", 1, "fc", "The argument (phase angle) in radians.", rule="float",
       out="real", rejects="b"),
    # transcendental
    _unary_float("sin", "Sine."), _unary_float("cos", "Cosine."),
    _unary_float("tan", "Tangent."),
    _unary_float("asin", "Inverse sine.", "arcsin", aliases=("arcsin",)),
    _unary_float("acos", "Inverse cosine.", "arccos", aliases=("arccos",)),
    _unary_float("atan", "Inverse tangent.", "arctan", aliases=("arctan",)),
    _unary_float("sinh", "Hyperbolic sine."), _unary_float("cosh", "Hyperbolic cosine."),
    _unary_float("tanh", "Hyperbolic tangent."),
    _unary_float("asinh", "Inverse hyperbolic sine.", "arcsinh", aliases=("arcsinh",)),
    _unary_float("acosh", "Inverse hyperbolic cosine.", "arccosh", aliases=("arccosh",)),
    _unary_float("atanh", "Inverse hyperbolic tangent.", "arctanh", aliases=("arctanh",)),
    _unary_float("exp", "e raised to the power x."),
    _unary_float("expm1", "exp(x) - 1, accurate near zero."),
    _unary_float("log", "Natural logarithm."), _unary_float("log2", "Base-2 logarithm."),
    _unary_float("log10", "Base-10 logarithm."),
    _unary_float("log1p", "log(1 + x), accurate near zero."),
    _unary_float("sqrt", "Square root."),
    _unary_float("exp2", "2 raised to the power x.", accepts="f"),
    _unary_float("cbrt", "Cube root.", accepts="f"),
    _unary_float("deg2rad", "Degrees to radians.", accepts="f", aliases=("radians",)),
    _unary_float("rad2deg", "Radians to degrees.", accepts="f", aliases=("degrees",)),
    Op("sinc", 1, "f", "The normalised sinc, sin(pi x) / (pi x), and 1 at 0.", rule="divide",
       notes="Complex input raises TypeError (numpy.sinc accepts it).  float16 computes "
             "in float32 and rounds once; numpy.sinc computes pi * x and the quotient in "
             "float16 steps (off by up to 2e-3 near the integers)."),
]

OPS = {op.name: op for op in _OPS}


def operators():
    """[(special method, op, role)] for every ndarray operator, in table order."""
    return [(d, op, role) for op in _OPS for d, role in op.dunders()]


# ---- the other kernel tables --------------------------------------------------------
# Each is (kernel file, [((dtype code, slot), name expression)]); the Cython launch
# layer indexes its C table by the same (code, slot) pairs.

def cast_table(to_code):
    """Casts into one dtype from every dtype: contiguous and strided (32/64-bit index)."""
    to = CPP[to_code]
    entries = []
    for code, fr in enumerate(CPP):
        entries += [((code, L_C), f"ga::cast_c<{to}, {fr}>"),
                    ((code, L_S32), f"ga::cast_s<{to}, {fr}, ga::int32>"),
                    ((code, L_S64), f"ga::cast_s<{to}, {fr}, ga::int64>")]
    return "cast.hip", entries


ELEMENTWISE = Family("elementwise", "elementwise.hip", _LAYOUT_SLOTS,
                     tables=lambda: [op.table() for op in OPS.values()], cython="_launch.pxi")
CAST = Family("cast", "cast.hip", _LAYOUT_SLOTS,
              tables=lambda: [cast_table(c) for c in range(NCODES)], cython="_launch.pxi")
WHERE = Family("where", "elementwise.hip", _LAYOUT_SLOTS,
               templates={"L_S32": "ga::where_s<{T}, ga::int32>",
                          "L_S64": "ga::where_s<{T}, ga::int64>"},
               grid=[("all", "L_S32 L_S64")], cython="_launch.pxi")
CREATION = Family(
    "creation", "creation.hip", "C_FILL C_ARANGE C_LINSPACE C_EYE C_TRI32 C_TRI64",
    templates={"C_FILL": "ga::fill_c<{T}>", "C_ARANGE": "ga::arange_c<{T}, {D}>",
               "C_LINSPACE": "ga::linspace_c<{T}, {C}>", "C_EYE": "ga::eye_c<{T}>",
               "C_TRI32": "ga::tri_s<{T}, ga::int32>", "C_TRI64": "ga::tri_s<{T}, ga::int64>"},
    grid=[("all", "C_FILL C_ARANGE C_LINSPACE C_EYE C_TRI32 C_TRI64")],
    fields=lambda r: {"C": "ga::complex<double>" if r.kind == "c" else "double",
                      "D": "float" if r.code in NARROW else r.ctype},
    cython="_creation_kernels.pxi")
# Indexing (_kernels/index.hip): gathers and scatters are keyed by the unsigned dtype of
# their item size (complex128 for 16 bytes), index steps by the index array's integer
# dtype, and the helper kernels sit in the bool row, numbered from 0 again.
INDEX = Family(
    "index", "index.hip",
    "IX_GATHER32 IX_GATHER64 IX_SCATTER32 IX_SCATTER64 IX_STEP32 IX_STEP64 IX_TAKE "
    "IX_PUT IX_REPEAT IX_WINNER=0 IX_KEEP IX_NZ_COUNT IX_NZ_WRITE IX_CHECK",
    templates={"IX_GATHER32": "ga::gather_s<{T}, ga::int32>",
               "IX_GATHER64": "ga::gather_s<{T}, ga::int64>",
               "IX_SCATTER32": "ga::scatter_s<{T}, ga::int32>",
               "IX_SCATTER64": "ga::scatter_s<{T}, ga::int64>",
               "IX_STEP32": "ga::index_step_s<{T}, ga::int32>",
               "IX_STEP64": "ga::index_step_s<{T}, ga::int64>",
               "IX_TAKE": "ga::take_c<{T}>", "IX_PUT": "ga::put_c<{T}>",
               "IX_REPEAT": "ga::repeat_c<{T}>",
               "IX_WINNER": "ga::index_winner_c", "IX_KEEP": "ga::index_keep_c",
               "IX_NZ_COUNT": "ga::nonzero_count_c", "IX_NZ_WRITE": "ga::nonzero_write_c",
               "IX_CHECK": "ga::index_check_c"},
    grid=[("uint8 uint16 uint32 uint64 complex128",
           "IX_GATHER32 IX_GATHER64 IX_SCATTER32 IX_SCATTER64 IX_TAKE IX_PUT IX_REPEAT"),
          ("int8 int16 int32 int64 uint8 uint16 uint32 uint64", "IX_STEP32 IX_STEP64"),
          ("bool", "IX_WINNER IX_KEEP IX_NZ_COUNT IX_NZ_WRITE IX_CHECK")],
    cython="_gather.pxi")
FAMILIES = (ELEMENTWISE, CAST, WHERE, CREATION, INDEX)
for _f in FAMILIES:
    _f.export(globals())    # L_C ..., C_FILL ..., IX_GATHER32 ... as module names
del _f
MOVE_CODES = {1: 5, 2: 6, 4: 7, 8: 8, 16: 12}     # item size -> dtype code moved as
where_table = WHERE.table
creation_table = CREATION.table
index_table = INDEX.table


# Kernels whose CPU build is the same code for both index types: map_strided walks
# its chunk with 64-bit offsets on the CPU (garray/loops.h, Note [CPU inner loops]), so
# the CPU device builds only the int64 instantiation and serves the int32 slot with it.
_CPU_SAME_INDEX = ("ga::ew1_s<", "ga::ew2_s<", "ga::ew1x2_s<", "ga::ew2x2_s<",
                   "ga::where_s<", "ga::cast_s<")


def cpu_alias(expr):
    """The name expression whose CPU build also serves ``expr`` (``expr`` itself if
    none)."""
    if expr.startswith(_CPU_SAME_INDEX) and expr.endswith(", ga::int32>"):
        return expr[:-len(", ga::int32>")] + ", ga::int64>"
    return expr


def all_tables():
    """Every kernel table garray builds: every family's (garray/_tables/family.py)."""
    return _family.all_tables()


def all_units():
    """Every compile unit garray builds, for the CI compile check."""
    return [(f, [e for _, e in entries]) for f, entries in all_tables()]
