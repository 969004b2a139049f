"""The sort family's kernel tables (``_kernels/sort.hip``, Note [Radix sort] there).

Two tables, both one compile unit:

- ``table()``: per dtype (the row is the dtype code), the kernels that read or write
  values: keys (``S_KEY``; complex: real/imaginary keys), the NaN-class key of complex
  numbers or the value of an integer key (``S_KEY8_OR_UNKEY``), ``take_rows``
  (``S_TAKE``) and ``searchsorted`` (``S_SEARCH``).
- ``radix_table()``: the radix passes, by key width and payload (the row is
  ``radix_code(key bytes, payload)``; payload ``None``, ``"index"`` (int64) or
  ``"bits"`` (a float's bits, as wide as the key)).
"""

from .. import _dtypes
from .family import Family

RECORDS = _dtypes.RECORDS
CPP = tuple(r.ctype for r in RECORDS)

_KEYS = ("ga::uint8", "ga::uint16", "ga::uint32", "ga::uint64")
_WIDTH = {1: 0, 2: 1, 4: 2, 8: 3}


def key_bytes(code):
    """Bytes of dtype ``code``'s sort key (complex: its real part's)."""
    r = RECORDS[code]
    return r.itemsize // 2 if r.kind == "c" else r.itemsize


def radix_code(nbytes, payload):
    """The radix table's row for keys of ``nbytes`` bytes and ``payload``."""
    w = _WIDTH[nbytes]
    if payload is None:
        return w
    if payload == "index":
        return 4 + w
    if payload == "bits" and nbytes in (4, 8):
        return 8 + (nbytes == 8)
    raise ValueError(f"no radix kernels for {nbytes}-byte keys with payload {payload!r}")


def table():
    entries = []
    for r in _dtypes.API_RECORDS:
        k = _KEYS[_WIDTH[key_bytes(r.code)]]
        t = r.ctype
        entries.append(((r.code, S_KEY), f"ga::sort_key<{t}, {k}>"))
        if r.kind == "c":
            entries.append(((r.code, S_KEY8_OR_UNKEY), f"ga::sort_key<{t}, ga::uint8>"))
        elif r.kind != "f":
            entries.append(((r.code, S_KEY8_OR_UNKEY), f"ga::sort_unkey<{t}, {k}>"))
        entries.append(((r.code, S_TAKE), f"ga::take_rows<{t}>"))
        entries.append(((r.code, S_SEARCH), f"ga::searchsorted<{t}>"))
    return "sort.hip", entries


def radix_table():
    entries = []
    for nbytes, w in _WIDTH.items():
        k = _KEYS[w]
        pays = [(None, "ga::sort::nil"), ("index", "ga::int64")]
        if nbytes >= 4:
            pays.append(("bits", k))
        for pay, p in pays:
            code = radix_code(nbytes, pay)
            entries.append(((code, R_SCATTER), f"ga::radix_scatter<{k}, {p}>"))
            entries.append(((code, R_ROWS), f"ga::radix_rows<{k}, {p}>"))
        entries.append(((w, R_HIST), f"ga::radix_hist<{k}>"))
    entries.append(((0, R_SCAN), "ga::radix_scan<ga::int64>"))
    entries.append(((0, R_SETTLE), "ga::radix_settle<ga::uint64>"))
    return "sort.hip", entries


# The rows and templates depend on the key width, so each table is built below.
SORT = Family("sort", "sort.hip", "S_KEY S_KEY8_OR_UNKEY S_TAKE S_SEARCH",
              tables=lambda: [table()])
RADIX = Family("radix", "sort.hip", "R_SCATTER R_ROWS R_HIST R_SCAN R_SETTLE",
               tables=lambda: [radix_table()])
FAMILIES = (SORT, RADIX)
SORT.export(globals())      # S_KEY ... and R_SCATTER ... as module names
RADIX.export(globals())
