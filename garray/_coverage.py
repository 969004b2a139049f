"""NumPy's public names that garray leaves out, each group with its reason.

tests/test_numpy_coverage.py checks, against the installed NumPy:
- every public name of ``numpy``'s main namespace that is not a submodule, callable or
  not (functions, ufuncs, classes, scalar types, constants, the index tricks);
- every name in the ``__all__`` of ``numpy.linalg``, ``numpy.fft``, ``numpy.random``
  and ``numpy.emath``;
- every public attribute of ``numpy.ndarray``;
- every keyword of a ufunc call and of its methods (``UFUNC_KEYWORDS``);
- every submodule of ``numpy``: garray has it (``SUBPACKAGES``) or lists it in
  ``SUBMODULES_OUT_OF_SCOPE``.
Each is in garray or listed here, and nothing listed here is in garray (the lists only
shrink).

Two kinds of groups:
- OUT_OF_SCOPE: what no device can hold (object and extended-precision dtypes), the
  matrix class NumPy deprecates, and NumPy's own build, configuration and docs helpers.
  Not counted in the coverage figure.
- NOT_YET: planned, with the issue that builds it.  Counted as missing.

To shrink a list: implement the name in garray and delete it here; the test fails while
a name is both in garray and listed.
"""

# Reason -> names.  Not counted in the coverage figure.
OUT_OF_SCOPE = {
    "object and extended-precision dtypes: no device arithmetic for them":
        "object_ longdouble clongdouble float128 complex256",
    "the matrix class: deprecated by NumPy":
        "matrix asmatrix bmat",
    "NumPy's own build, configuration and docs helpers (its C headers, its ufunc "
    "buffer size, its test runner)":
        "info show_config show_runtime test get_include getbufsize setbufsize typename",
}

# "not yet implemented: <issue>" -> names.  Counted as missing.
NOT_YET = {}

NOT_YET["not yet implemented: strings and records (issue 34, the new dtypes)"] = (
    "bytes_ str_ character flexible void record recarray")
NOT_YET["not yet implemented: datetime_as_string (issue 34: it makes strings, which "
        "garray does not hold yet)"] = "datetime_as_string"

NOT_YET["not yet implemented: NumPy's other bit generators (garray.random has "
        "Philox4x32-10, issue 10; a BitGenerator base class and PCG64/MT19937 on the "
        "device are unplanned)"] = (
    "random.BitGenerator random.MT19937 random.PCG64 random.PCG64DXSM random.SFC64")

# The subpackages whose names are checked one by one.
SUBPACKAGES = ("linalg", "fft", "random", "emath")

# NumPy's other submodules, by name, with the reason garray has no counterpart.
SUBMODULES_OUT_OF_SCOPE = {
    "char": "string arrays (NumPy's legacy chararray functions): issue 34's strings",
    "strings": "string ufuncs: issue 34's strings",
    "rec": "record arrays: issue 34's records",
    "ma": "masked arrays: not planned (a mask beside a garray array does the work)",
    "polynomial": "the Polynomial classes: garray has the poly1d functions only",
    "ctypeslib": "ctypes interop of host memory (x.ctypes works on the CPU device)",
    "typing": "static type annotations of NumPy's own objects",
    "dtypes": "NumPy's DType classes: garray's dtypes are NumPy's objects",
    "exceptions": "garray raises NumPy's own exception classes (numpy.exceptions)",
    "f2py": "the Fortran wrapper generator",
    "core": "NumPy's private core (deprecated as public)",
    "lib": "NumPy's helpers namespace: garray.lib has stride_tricks",
    "testing": "NumPy's test helpers (garray.testing holds the stub GPU drivers instead)",
}

# The keywords of a ufunc call and of its methods (NumPy's ufunc documentation,
# "Optional keyword arguments" and the methods' signatures).
UFUNC_KEYWORDS = {
    "__call__": ("out", "where", "casting", "order", "dtype", "subok", "signature"),
    "reduce": ("axis", "dtype", "out", "keepdims", "initial", "where"),
    "accumulate": ("axis", "dtype", "out"),
    "reduceat": ("indices", "axis", "dtype", "out"),
    "outer": ("out", "where", "casting", "order", "dtype", "subok", "signature"),
    "at": (),
}


def left_out():
    """{name: (reason, counted)}: every listed name ("linalg.inv" for a subpackage's)
    with its group's reason; ``counted`` is False for OUT_OF_SCOPE names."""
    table = {}
    for groups, counted in ((OUT_OF_SCOPE, False), (NOT_YET, True)):
        for reason, names in groups.items():
            for name in names.split():
                if name in table:
                    raise AssertionError(f"garray/_coverage.py lists {name!r} twice")
                table[name] = (reason, counted)
    return table
