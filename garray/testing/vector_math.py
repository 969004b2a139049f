"""Shared by tests/elementwise/test_cpu_vector_math.py and bench/vector_math_ulp.py: the functions
the CPU device vectorises through libmvec (docs/performance.md, "Vector math on the CPU
device"), the domain each is sampled on, and the ULP error against a reference."""

import numpy

UNARY = {  # function: domain of the uniform part of the sample
    "exp": (-110, 110), "exp2": (-160, 160), "expm1": (-100, 100), "log": (0, 100),
    "log2": (0, 100), "log10": (0, 100), "log1p": (-1, 100), "sin": (-100, 100),
    "cos": (-100, 100), "tan": (-100, 100), "arcsin": (-1, 1), "arccos": (-1, 1),
    "arctan": (-100, 100), "sinh": (-100, 100), "cosh": (-100, 100), "tanh": (-20, 20),
    "arcsinh": (-100, 100), "arccosh": (1, 100), "arctanh": (-1, 1), "cbrt": (-100, 100),
}
BINARY = {"arctan2": (-100, 100), "hypot": (-100, 100), "power": (0, 10)}
# The reference's dtype: float32 results against float64, float64 against x87 long double.
REF = {"float32": numpy.float64, "float64": numpy.longdouble}


def ulp_error(got, ref, dt, not_finite=numpy.nan):
    """Per element ULP error of ``got`` (dtype dt) against ``ref`` (higher precision);
    ``not_finite`` where the reference or the result is not finite."""
    with numpy.errstate(all="ignore"):
        r = ref.astype(dt)
        ok = numpy.isfinite(r) & numpy.isfinite(got)
        ulp = numpy.spacing(numpy.abs(r)).astype(ref.dtype)
        err = numpy.abs(got.astype(ref.dtype) - ref) / ulp
    return numpy.where(ok, err, not_finite)
