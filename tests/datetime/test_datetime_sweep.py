"""Every public function of garray, garray.fft and garray.linalg called with datetime64
and timedelta64 arrays (alone, in pairs, mixed): where garray returns a value it must be
NumPy's value (dtype, shape, NaT).  garray may refuse (a time array is int64 underneath,
and a function that read those integers as numbers would answer silently wrong: this
test is what keeps every family honest about it).
"""

import warnings

import numpy
import pytest

import garray
from xp import assert_xp_close

DATES = numpy.array(["2016-07-01", "NaT", "2015-01-01", "2016-02-29"], "M8[D]")
SPANS = numpy.array([1, -3, "NaT", 7], "m8[D]")
ARGS = {"t": (SPANS,), "d": (DATES,), "tt": (SPANS, SPANS[::-1]), "dd": (DATES, DATES[::-1]),
        "dt": (DATES, SPANS), "td": (SPANS, DATES)}
# not functions of array values, or results that are not values (uninitialised memory,
# iterators, I/O), or garray leniencies that have nothing to do with time dtypes (a
# missing clip bound, expand_dims without axis); unique_values' order is unspecified;
# searchsorted needs a sorted first argument (tests/datetime/test_datetime.py sorts it)
SKIP = {"empty_like", "ndenumerate", "ndindex", "nditer", "nested_iters", "clip",
        "expand_dims", "unique_values", "save", "savez", "savez_compressed", "savetxt",
        "load", "loadtxt", "genfromtxt", "fromfile", "tofile", "fromfunction", "fromiter",
        "frompyfunc", "vectorize", "memmap", "einsum", "einsum_path", "from_dlpack",
        "asnumpy", "get_array_module", "set_printoptions", "printoptions", "seterr",
        "seterrcall", "errstate", "setbufsize", "info", "who", "source", "show_config",
        "test", "isnat", "searchsorted"}


def _public(prefix):
    gm = getattr(garray, prefix) if prefix else garray
    nm = getattr(numpy, prefix) if prefix else numpy
    for name in sorted(dir(gm)):
        gf, nf = getattr(gm, name, None), getattr(nm, name, None)
        if (name.startswith("_") or name in SKIP or not callable(gf) or not callable(nf)
                or isinstance(gf, type)):
            continue
        yield f"{prefix}.{name}" if prefix else name, gf, nf


FUNCTIONS = [f for p in ("", "fft", "linalg") for f in _public(p)]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("args", list(ARGS))
@pytest.mark.parametrize("name,gf,nf", FUNCTIONS, ids=[f[0] for f in FUNCTIONS])
def test_value_or_refusal(name, gf, nf, args):
    host = ARGS[args]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            got = gf(*(garray.asarray(h).copy() for h in host))
        except Exception:  # noqa: BLE001 - refusing is allowed; answering wrong is not
            return
        try:
            expected = nf(*(h.copy() for h in host))
        except Exception as e:  # noqa: BLE001
            pytest.fail(f"{name}{args}: numpy raised {type(e).__name__} ({e}); garray "
                        f"answered {got!r}")
    if isinstance(expected, (numpy.ndarray, numpy.generic, tuple, list)):
        assert_xp_close(got, expected, rtol=0, atol=0, err_msg=f"{name}{args}")
    else:
        assert type(got) is type(expected) and got == expected, (name, got, expected)
