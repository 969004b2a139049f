"""Every binary op on every pair of the 14 dtypes (196 pairs), array with array, against
NumPy: the result dtype is NumPy's (its promotion and loop choice), the values NumPy's,
except for the deliberate differences of tests/elementwise/test_elementwise.py (``DIFFERENCES``,
keyed by the category of NumPy's promoted dtype).

NumPy 2 promotes array with array by dtype alone (NEP 50): no value-dependent or object
results arise here (uint64 with int64 gives float64 in NumPy and is compared as such).

One test per op; each checks all 196 pairs and reports every failing pair at once.
"""

import itertools

import numpy
import pytest

import garray
from test_elementwise import NAMES, OPS, check_op, small_operands
from xp import ALL_DTYPES, sample

BINARY = [name for name in NAMES if OPS[name].nin == 2]
PAIRS = list(itertools.product(ALL_DTYPES, ALL_DTYPES))


def _operands(name, d1, d2):
    """A (2, 3) array and, for the second operand, a (3,) row broadcast against it for
    half of the pairs, a transposed (3, 2) array for the others: both the contiguous and
    the strided launches see mixed dtypes."""
    small = 1 in small_operands(name)
    a = sample((2, 3), d1)
    if (ALL_DTYPES.index(d1) + ALL_DTYPES.index(d2)) % 2:
        b = sample((3, 2), d2, start=5, small=small)
        view = numpy.transpose
    else:
        b = sample((3,), d2, start=5, small=small)
        view = lambda x: x   # noqa: E731
    return [a, view(b)], [garray.asarray(a, copy=True), view(garray.asarray(b, copy=True))]


@pytest.mark.parametrize("name", BINARY)
def test_mixed_dtypes(name):
    failures = []
    for d1, d2 in PAIRS:
        n_args, g_args = _operands(name, d1, d2)
        try:
            check_op(name, n_args, g_args)
        except (AssertionError, pytest.fail.Exception) as e:
            first = str(e).strip().splitlines()[0]
            failures.append(f"{name}({d1}, {d2}): {first}")
    assert not failures, f"{len(failures)} of {len(PAIRS)} dtype pairs differ from NumPy:\n" \
        + "\n".join(failures)
