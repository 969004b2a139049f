"""NumPy's public names that garray leaves out, each group with its reason.

tests/test_numpy_coverage.py checks every public callable of ``numpy`` and every public
name of ``numpy.linalg``, ``numpy.fft`` and ``numpy.random``: each is in garray or listed
here, and nothing listed here is in garray (so the lists only shrink).

Two kinds of groups:
- OUT_OF_SCOPE: what garray does not aim to offer (strings, datetimes, masked arrays,
  the matrix class, file I/O beyond save/load/savetxt/loadtxt, docs and build helpers).
  Not counted in the coverage figure, as for CuPy's.
- NOT_YET: planned, with the issue that builds it.  Counted as missing.

To shrink a list: implement the name in garray and delete it here; the test fails while
a name is both in garray and listed.
"""

# Reason -> names.  Not counted in the coverage figure.
OUT_OF_SCOPE = {
    "strings, bytes and void: garray arrays hold numbers (14 dtypes)":
        "bytes_ str_ character flexible void record recarray",
    "datetimes: garray has no datetime64/timedelta64 dtypes":
        "datetime64 timedelta64 datetime_as_string datetime_data busday_count "
        "busday_offset busdaycalendar is_busday isnat",
    "object and extended-precision dtypes: no device arithmetic for them":
        "object_ longdouble clongdouble float128 complex256",
    "the matrix class: deprecated by NumPy":
        "matrix asmatrix bmat",
    "a Python function per element or NumPy's C iterator over host memory: no kernel "
    "can run them":
        "frompyfunc vectorize nditer nested_iters",
    "file I/O beyond save/load/savetxt/loadtxt (garray/_io.py has those)":
        "fromfile fromregex genfromtxt memmap savez savez_compressed",
    "docs, configuration, build and string-formatting helpers":
        "info show_config show_runtime test get_include getbufsize setbufsize typename "
        "base_repr binary_repr format_float_positional format_float_scientific",
}

# "not yet implemented: <issue>" -> names.  Counted as missing.
NOT_YET = {}

NOT_YET["not yet implemented: NumPy's other bit generators (garray.random has "
        "Philox4x32-10, issue 10; a BitGenerator base class and PCG64/MT19937 on the "
        "device are unplanned)"] = (
    "random.BitGenerator random.MT19937 random.PCG64 random.PCG64DXSM random.SFC64")

SUBPACKAGES = ("linalg", "fft", "random")


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
