"""datetime64 and timedelta64 arrays against NumPy: creation (strings, arange, NumPy
arrays, fill values), every unit conversion (the calendar for years and months, floors
before 1970), arithmetic and comparisons with NaT, reductions, sorting, searchsorted,
unique, indexing and assignment, business days, printing, and the errors NumPy gives.

garray stores a time array as int64 and computes on it with its own kernels
(garray/_datetime); every result here ran those kernels on the test's device.
"""

import numpy
import pytest

import garray
from xp import xp_compare, assert_xp_close

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning",
                                        "ignore::DeprecationWarning")

UNITS = ("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns")
DATES = ["2016-07-01", "NaT", "1969-12-31", "2016-02-29", "1600-03-01", "2400-12-31",
         "1970-01-01", "-0100-06-15", "NaT", "1999-12-31"]
SPANS = [1, -3, "NaT", 7, 0, 400, -146097, 59, "NaT", 2]


def _dates(xp, unit="D", values=DATES):
    return xp.asarray(numpy.array(values, dtype=f"M8[{unit}]"))


def _spans(xp, unit="D", values=SPANS):
    return xp.asarray(numpy.array(values, dtype=f"m8[{unit}]"))


def _own(xp, h):
    """A host array as xp's (garray: a copy in garray-owned memory on its device)."""
    return xp.asarray(h) if xp is numpy else garray.asarray(h).copy()


# ---- creation -------------------------------------------------------------------------
@pytest.mark.parametrize("unit", UNITS)
@xp_compare()
def test_from_strings(xp, unit):
    return xp.asarray(["2016-07-01", "NaT", "1969-12-31T23:59:59", "2016-02"],
                      dtype=f"datetime64[{unit}]")


@xp_compare()
def test_unit_inferred_from_strings(xp):
    return xp.asarray(["2016-01", "2016-01-02T03"], dtype="datetime64")


@pytest.mark.parametrize("args", [
    ("2016-07", "2016-08"), ("2016-01-01", "2016-03-01", 7), ("2016-01-01T05", "2016-01-03"),
    ("2016-01-01", "2015-01-03", -100), ("2016-01-01", "2016-01-01")])
@xp_compare()
def test_arange_dates(xp, args):
    if len(args[0]) == 7:
        return xp.arange(*args, dtype="datetime64[D]")
    return xp.arange(*[numpy.datetime64(a) if isinstance(a, str) else a for a in args])


@xp_compare()
def test_arange_timedelta_step(xp):
    return xp.arange(numpy.datetime64("2016-01-01T05"), numpy.datetime64("2016-01-03"),
                     numpy.timedelta64(1, "D"))


@xp_compare()
def test_arange_timedeltas(xp):
    return xp.arange(numpy.timedelta64(5, "h")), xp.arange(0, 10, 3, dtype="m8[ms]")


@pytest.mark.parametrize("bad", [
    (numpy.datetime64("2016-01-01"),), (numpy.datetime64("NaT", "D"), numpy.datetime64("2016")),
    (numpy.datetime64("2016-01-01"), numpy.datetime64("2016-01-03"), 0.5)])
@xp_compare()
def test_arange_errors(xp, bad):
    return xp.arange(*bad)


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty_shape"])
@xp_compare()
def test_fill_creation(xp, fn):
    if fn == "empty_shape":
        x = xp.empty((2, 3), dtype="M8[ns]")
        return xp.asarray([x.shape[0], x.shape[1]]), xp.zeros(0, dtype=x.dtype)
    return getattr(xp, fn)((2, 2), dtype="m8[s]"), getattr(xp, fn)(3, dtype="M8[D]")


@pytest.mark.parametrize("value", [numpy.datetime64("2016-01-01"), "NaT", 5,
                                   numpy.datetime64("2016-01-01T05")])
@xp_compare()
def test_full(xp, value):
    return xp.full(3, value, dtype="M8[D]")


def test_host_round_trip_strided():
    h = numpy.array(DATES, "M8[s]")[::-2]
    g = garray.asarray(h)
    assert g.dtype == h.dtype
    back = garray.asnumpy(g)
    assert back.dtype == h.dtype and (back.view("i8") == h.view("i8")).all()
    assert str(g) == str(h) and repr(g) == repr(h)


def test_dtype_metadata():
    x = _dates(garray, "h")
    assert x.dtype == numpy.dtype("M8[h]") and x.itemsize == 8
    assert garray.datetime_data(x.dtype) == ("h", 1)
    assert garray.datetime64 is numpy.datetime64 and garray.timedelta64 is numpy.timedelta64
    with pytest.raises(NotImplementedError, match="multiplier"):
        garray.zeros(2, dtype="M8[2D]")
    with pytest.raises(TypeError):
        garray.datetime_data(x)


# ---- casts: every pair of units, the calendar -------------------------------------------
@pytest.mark.parametrize("src", UNITS)
@pytest.mark.parametrize("dst", UNITS)
@xp_compare()
def test_datetime_unit_casts(xp, src, dst):
    return _own(xp, numpy.array(DATES, "M8[D]").astype(f"M8[{src}]")).astype(f"M8[{dst}]")


@pytest.mark.parametrize("src", UNITS[2:])
@pytest.mark.parametrize("dst", UNITS[2:])
@xp_compare()
def test_timedelta_unit_casts(xp, src, dst):
    return _own(xp, numpy.array(SPANS, f"m8[{src}]")).astype(f"m8[{dst}]")


def test_calendar_every_day_of_four_centuries():
    """Days to months and years and back, 1600-03 to 2400-03 (leap rules of all kinds)."""
    h = numpy.arange("1600-03-01", "2400-03-01", dtype="M8[D]")
    g = garray.arange("1600-03-01", "2400-03-01", dtype="M8[D]")
    for unit in ("M", "Y", "W"):
        assert_xp_close(g.astype(f"M8[{unit}]"), h.astype(f"M8[{unit}]"))
        assert_xp_close(g.astype(f"M8[{unit}]").astype("M8[D]"),
                        h.astype(f"M8[{unit}]").astype("M8[D]"))


@pytest.mark.parametrize("dtype", ["int64", "int8", "uint32", "bool", "float64", "float32"])
@xp_compare()
def test_casts_with_numbers(xp, dtype):
    d, t = _dates(xp), _spans(xp)
    h = numpy.array([1.7, -1.7, 0, 3, numpy.nan, numpy.inf], dtype=dtype) \
        if dtype.startswith("float") else numpy.array([1, 0, 3, 1], dtype=dtype)
    x = _own(xp, h)
    return d.astype(dtype), t.astype(dtype), x.astype("M8[D]"), x.astype("m8[h]")


@xp_compare()
def test_datetime_timedelta_raw_casts(xp):
    return _dates(xp).astype("m8[D]"), _spans(xp).astype("M8[D]")


def test_timedelta_month_casts_not_implemented():
    with pytest.raises(NotImplementedError, match="months"):
        _spans(garray).astype("m8[M]")


# ---- arithmetic and comparisons -------------------------------------------------------
OPS = [
    "d + t", "t + d", "d - t", "d - d[::-1]", "d + 1", "1 + d", "t + t[::-1]", "t - 2", "t * 3",
    "3 * t", "t * 1.5", "t * -0.5", "t * float('nan')", "t / 2", "t / -3", "t / 0", "t / 2.5",
    "t // 2", "t // -3", "t / t[::-1]", "t // t[::-1]", "t % t[::-1]", "e.divmod(t, t[::-1])",
    "-t", "+t", "abs(t)", "e.sign(t)", "t * e.arange(10)", "d - numpy.datetime64('2016-01-01')",
    "numpy.datetime64('2016-01-01T12') - d", "d + numpy.timedelta64(36, 'h')",
    "d.astype('M8[M]') + t", "d.astype('M8[Y]') - d", "t.astype('m8[h]') + t",
    "t.astype('m8[s]') % t[::-1]", "e.maximum(d, d[::-1])", "e.minimum(t, t[::-1])",
    "e.fmax(d, d[::-1])", "e.fmin(t, t[::-1])", "e.isnat(d)", "e.isnan(t)", "e.isfinite(d)",
    "e.isinf(t)", "e.logical_and(d, t)", "e.logical_not(t)",
    "e.clip(t, numpy.timedelta64(0, 'D'), numpy.timedelta64(2, 'D'))",
    "e.where(t > t[0], d, d[0])", "e.where(d > d[0], d, numpy.datetime64('NaT'))", "e.diff(d)",
]


@pytest.mark.parametrize("op", OPS)
@xp_compare()
def test_arithmetic(xp, op):
    return eval(op, {"d": _dates(xp), "t": _spans(xp), "e": xp, "numpy": numpy})


CMP = ("==", "!=", "<", "<=", ">", ">=")


@pytest.mark.parametrize("op", CMP)
@pytest.mark.parametrize("other", ["same", "reversed", "finer", "scalar", "int", "str",
                                   "nat int", "nat scalar"])
@xp_compare()
def test_comparisons(xp, op, other):
    d, t = _dates(xp), _spans(xp)
    if other in ("int", "nat int"):
        d = t           # a timedelta compares with integers as counts of its unit
    y = {"same": d, "reversed": d[::-1], "finer": d[::-1].astype(d.dtype.str[:-3] + "[s]"),
         "scalar": numpy.datetime64("2016-01-01") if d.dtype.kind == "M" else 2,
         "int": 7, "str": "2016-07-01", "nat int": -2**63,
         "nat scalar": numpy.datetime64("NaT")}[other]
    return eval(f"d {op} y", {"d": d, "y": y})


@pytest.mark.parametrize("expr", ["d + d", "t * t", "d + 1.5", "t + 1.5", "e.sin(t)",
                                  "abs(d)", "-d", "d * 2", "d < t", "e.exp(d)",
                                  "e.bitwise_and(t, t)", "e.sqrt(t)", "d < 'x'"])
@xp_compare()
def test_type_errors(xp, expr):
    return eval(expr, {"d": _dates(xp), "t": _spans(xp), "e": xp})


def test_inplace_and_out():
    h, g = numpy.array(SPANS, "m8[D]"), _spans(garray).copy()
    h += h[::-1]
    g += g[::-1]
    assert_xp_close(g, h)
    hd, gd = numpy.array(DATES, "M8[h]"), _dates(garray, "h").copy()
    hd -= numpy.timedelta64(3, "h")
    gd -= numpy.timedelta64(3, "h")
    assert_xp_close(gd, hd)
    o = garray.empty(len(SPANS), dtype="m8[D]")
    r = garray.add(_spans(garray), 1, out=o)
    assert r is o
    assert_xp_close(o, numpy.array(SPANS, "m8[D]") + 1)


# ---- reductions, sorting, sets --------------------------------------------------------
RED = ["max", "min", "argmax", "argmin", "nanmax", "nanmin", "any", "all", "count_nonzero"]


@pytest.mark.parametrize("fn", RED + ["sum", "mean", "cumsum", "ptp"])
@pytest.mark.parametrize("kind", ["M", "m"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@xp_compare()
def test_reductions(xp, fn, kind, axis):
    x = (_dates(xp) if kind == "M" else _spans(xp)).reshape(2, 5)
    if fn == "cumsum" and axis is None:
        return xp.cumsum(x)
    return getattr(xp, fn)(x, axis=axis)


@pytest.mark.parametrize("values", [["2016", "2015", "2017"], ["NaT", "NaT"], [5, -5, 0]])
@pytest.mark.parametrize("fn", ["max", "min", "argmax", "argmin", "sum", "nanmin", "nanmax"])
@xp_compare()
def test_reductions_all_valid_or_all_nat(xp, values, fn):
    x = xp.asarray(numpy.array(values, "m8[D]" if isinstance(values[0], int) else "M8[D]"))
    return getattr(xp, fn)(x)


@pytest.mark.parametrize("fn", ["max", "argmin", "nanmax"])
@xp_compare()
def test_empty_reductions_raise(xp, fn):
    return getattr(xp, fn)(xp.asarray(numpy.array([], "M8[D]")))


@xp_compare()
def test_ufunc_methods(xp):
    t = _spans(xp).reshape(2, 5)
    return (xp.add.reduce(t, axis=1), xp.maximum.reduce(_dates(xp)), xp.add.accumulate(t, axis=1),
            xp.minimum.reduce(t, axis=0))


@pytest.mark.parametrize("unit", ["D", "ns", "Y"])
@pytest.mark.parametrize("fn", ["sort", "argsort", "unique"])
@xp_compare()
def test_sorting(xp, unit, fn):
    x = _dates(xp, unit)
    return getattr(xp, fn)(x), getattr(xp, fn)(_spans(xp)), getattr(xp, fn)(x[::-1])


@xp_compare()
def test_unique_returns(xp):
    return xp.unique(_dates(xp), return_index=True, return_inverse=True, return_counts=True)


@xp_compare()
def test_sort_2d_and_method(xp):
    x = _dates(xp).reshape(2, 5).copy()
    x.sort(axis=0)
    return x, xp.sort(_dates(xp).reshape(5, 2), axis=1), xp.argsort(_spans(xp), stable=True)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("v", ["array", "finer", "scalar", "nat"])
@xp_compare()
def test_searchsorted(xp, side, v):
    a = xp.sort(_dates(xp))
    vv = {"array": _dates(xp)[::-1], "finer": _dates(xp, "h"),
          "scalar": numpy.datetime64("2016-03-01T05"), "nat": numpy.datetime64("NaT")}[v]
    return xp.searchsorted(a, vv, side=side)


@xp_compare()
def test_searchsorted_refuses_timedelta_in_dates(xp):
    return xp.searchsorted(xp.sort(_dates(xp)), _spans(xp))


@xp_compare()
def test_isin_and_sets(xp):
    d = _dates(xp)
    return xp.isin(d, d[:3]), xp.intersect1d(d, d[2:6]), xp.union1d(d[:4], d[5:])


# ---- layout: views, indexing, assignment, joining ---------------------------------------
@xp_compare()
def test_layout(xp):
    d = _dates(xp, "s")
    idx = xp.asarray([0, 2, 9])
    return (d[1:7:2], d.reshape(2, 5).T, d[idx], xp.take(d, idx), xp.flip(d), xp.roll(d, 3),
            xp.stack([d, d]), xp.concatenate([d, d.astype("M8[h]")]), xp.tile(d[:2], 2),
            xp.repeat(d[:3], 2), xp.broadcast_to(d[:1], (2, 3)), d.copy(), d[d > d[0]],
            xp.expand_dims(d, 0), d.view("int64"), xp.nonzero(_spans(xp))[0])


@pytest.mark.parametrize("value", [numpy.datetime64("2020-01-01"), numpy.datetime64("NaT"),
                                   numpy.datetime64("2020-01-01T05"), "2020-02-03", 5,
                                   "array", "finer array"])
@xp_compare()
def test_assignment(xp, value):
    d = _dates(xp).copy()
    if value == "array":
        value = _dates(xp)[::-1][:3]
    elif value == "finer array":
        value = _dates(xp, "h")[:3] + numpy.timedelta64(5, "h")
    d[1:4] = value
    d[0] = numpy.datetime64("1999-01-01")
    return d


@xp_compare()
def test_assignment_refuses_timedelta_into_dates_by_concatenate(xp):
    return xp.concatenate([_dates(xp), _spans(xp)])


def test_tolist_and_item():
    h, g = numpy.array(DATES, "M8[D]"), _dates(garray)
    assert g.tolist() == h.tolist()
    assert g[0].item() == h[0].item()
    assert _spans(garray).tolist() == numpy.array(SPANS, "m8[D]").tolist()


def test_to_device_and_dlpack():
    g = _dates(garray)
    r = g.to_device(g.device)
    assert r.dtype == g.dtype
    with pytest.raises((BufferError, TypeError)):
        g.__dlpack__()


# ---- business days ----------------------------------------------------------------------
@pytest.mark.parametrize("weekmask", ["1111100", "Mon Wed Sat", [1, 0, 0, 1, 1, 1, 1]])
@pytest.mark.parametrize("holidays", [None, ["2016-07-04", "NaT", "2016-07-01", "2016-07-09"]])
@xp_compare()
def test_is_busday(xp, weekmask, holidays):
    d = xp.arange("2016-06-20", "2016-08-01", dtype="M8[D]")
    kw = {"weekmask": weekmask} if holidays is None else {"weekmask": weekmask,
                                                          "holidays": holidays}
    return xp.is_busday(d, **kw), xp.is_busday(_dates(xp), **kw)


@pytest.mark.parametrize("weekmask", ["1111100", "Sun Sat", "1111111"])
@pytest.mark.parametrize("holidays", [None, ["2016-07-04", "2016-12-26", "2015-01-01"]])
@xp_compare()
def test_busday_count(xp, weekmask, holidays):
    b = xp.arange("2015-12-20", "2016-02-10", 3, dtype="M8[D]")
    e = xp.arange("2016-12-31", "2016-01-01", -7, dtype="M8[D]")[:b.shape[0]]
    kw = {"weekmask": weekmask} if holidays is None else {"weekmask": weekmask,
                                                          "holidays": holidays}
    return xp.busday_count(b, e, **kw), xp.busday_count(e, b, **kw), xp.busday_count(b, b, **kw)


@pytest.mark.parametrize("case", ["nat", "hours"])
@xp_compare()
def test_busday_errors(xp, case):
    if case == "nat":
        return xp.busday_count(_dates(xp), _dates(xp)[::-1])
    return xp.is_busday(_dates(xp, "h"))


# ---- promotion --------------------------------------------------------------------------
@pytest.mark.parametrize("pair", [("M8[D]", "M8[h]"), ("m8[Y]", "m8[M]"), ("M8[D]", "m8[D]"),
                                  ("m8[Y]", "m8[D]"), ("M8[s]", "int64"), ("m8[D]", "float64")])
def test_promotion(pair):
    a, b = map(numpy.dtype, pair)
    try:
        expected = numpy.promote_types(a, b)
    except TypeError:
        with pytest.raises(TypeError):
            garray.promote_types(a, b)
    else:
        assert garray.promote_types(a, b) == expected
    for rule in ("safe", "same_kind", "unsafe"):
        assert garray.can_cast(a, b, rule) == numpy.can_cast(a, b, rule)


def test_threads_share_one_time_dtype_registry():
    from xp import run_in_threads
    units = ["ms", "us", "ns", "s", "m", "h"] * 3

    def work(i):
        u = units[i % len(units)]
        x = garray.asarray(numpy.array(DATES, f"M8[{u}]"))
        assert_xp_close(x + numpy.timedelta64(1, u), numpy.array(DATES, f"M8[{u}]")
                        + numpy.timedelta64(1, u))
    run_in_threads(work, n=8)


@pytest.mark.parametrize("value", [1.5, True, "x", None, 2**70, numpy.float64(2.0),
                                   numpy.int8(3), numpy.timedelta64(1, "D"), float("nan"),
                                   "2016-01-01", b"2016", 3 + 0j, [1, 2], numpy.uint64(2**63)],
                         ids=repr)
@pytest.mark.parametrize("kind", ["M8[D]", "m8[h]"])
@xp_compare()
def test_hostile_item_assignment(xp, value, kind):
    x = xp.zeros(2, dtype=kind)
    x[0] = value
    return x


@pytest.mark.parametrize("shape", [(0,), (3, 0), ()])
@xp_compare()
def test_empty_and_0d(xp, shape):
    d = xp.zeros(shape, dtype="M8[s]") + numpy.timedelta64(5, "s")
    return (d, d - d, xp.sort(d.reshape(-1)), d.astype("M8[D]"), xp.isnat(d),
            xp.any(d), d == d)


@pytest.mark.parametrize("case", ["unaligned", "byteswapped", "strided"])
def test_hostile_host_layouts(case):
    base = numpy.array(DATES, "M8[s]")
    if case == "unaligned":
        raw = numpy.zeros(base.nbytes + 1, numpy.uint8)
        raw[1:] = base.view(numpy.uint8)
        h = raw[1:].view("M8[s]")
    elif case == "byteswapped":
        h = base.astype(">M8[s]")
    else:
        h = numpy.array(DATES * 3, "M8[s]")[::3]
    g = garray.asarray(h)
    assert_xp_close(g, base if case != "strided" else h.astype("M8[s]"))
    assert_xp_close(g + numpy.timedelta64(1, "h"), h.astype("M8[s]") + numpy.timedelta64(1, "h"))


ROLLS = ["raise", "nat", "forward", "following", "backward", "preceding",
         "modifiedfollowing", "modifiedpreceding", "bogus"]


@pytest.mark.parametrize("roll", ROLLS)
@pytest.mark.parametrize("weekmask", ["1111100", "Mon Thu Sat", "1111111"])
@pytest.mark.parametrize("holidays", [None, ["2016-07-04", "2016-08-01", "NaT", "2016-07-29",
                                             "2016-05-02", "2016-05-03", "2016-05-04"]])
@xp_compare()
def test_busday_offset(xp, roll, weekmask, holidays):
    d = xp.asarray(numpy.array(["2016-07-02", "2016-07-01", "NaT", "2016-07-31",
                                "2016-04-30", "2016-05-31", "1969-12-28", "2016-05-01"],
                               "M8[D]"))
    kw = {"roll": roll, "weekmask": weekmask}
    if holidays is not None:
        kw["holidays"] = holidays
    off = xp.asarray([0, 1, 2, -1, 3, -7, 400, -400])
    if roll == "raise":        # only valid dates (NumPy raises for the others, tested below)
        d = xp.busday_offset(d[xp.logical_not(xp.isnat(d))], 0, roll="forward",
                             **{k: v for k, v in kw.items() if k != "roll"})
        off = off[1:]
    return xp.busday_offset(d, off, **kw)


@xp_compare()
def test_busday_offset_raises_for_invalid_days(xp):
    return xp.busday_offset(xp.asarray(numpy.array(["2016-07-02"], "M8[D]")), 1)


def test_busday_offset_against_numpy_with_many_holidays():
    rng = numpy.random.default_rng(0)
    days = rng.integers(-20000, 20000, 3000).astype("M8[D]")
    hol = rng.integers(-20000, 20000, 2000).astype("M8[D]")
    off = rng.integers(-3000, 3000, 3000)
    for roll in ("following", "modifiedpreceding"):
        expected = numpy.busday_offset(days, off, roll=roll, holidays=hol,
                                       weekmask="Mon Tue Thu Fri")
        got = garray.busday_offset(garray.asarray(days), garray.asarray(off), roll=roll,
                                   holidays=hol, weekmask="Mon Tue Thu Fri")
        assert_xp_close(got, expected)


@pytest.mark.parametrize("values", [[1, -3, 7, 2], [1, "NaT", 3], [-1, -2], [5],
                                    [3, "NaT", "NaT"], [-5, 2, "NaT", 9, -1, 4]])
@pytest.mark.parametrize("fn", ["median", "nanmedian"])
@xp_compare()
def test_median(xp, values, fn):
    t = xp.asarray(numpy.array(values, "m8[h]"))
    return getattr(xp, fn)(t)


@pytest.mark.parametrize("axis", [0, 1, None, (0, 1)])
@pytest.mark.parametrize("fn", ["median", "nanmedian"])
@xp_compare()
def test_median_axes(xp, axis, fn):
    t = xp.asarray(numpy.array([1, -3, 7, 2, "NaT", 9], "m8[s]").reshape(2, 3))
    return getattr(xp, fn)(t, axis=axis), getattr(xp, fn)(t, axis=axis, keepdims=True)


@xp_compare()
def test_median_of_datetimes_raises(xp):
    return xp.median(_dates(xp))


WRITERS = ["fill", "put", "place", "copyto", "putmask"]
WRITE_VALUES = [numpy.datetime64("2020-01-01"), numpy.datetime64("2020-01-01T05:30"),
                numpy.datetime64("NaT"), "2020-03-04", 5, numpy.timedelta64(1, "D")]


@pytest.mark.parametrize("value", WRITE_VALUES, ids=repr)
@pytest.mark.parametrize("writer", WRITERS)
@xp_compare()
def test_writers_convert_units(xp, writer, value):
    """Every in-place writer converts a scalar of another unit (or a string) as NumPy."""
    x = xp.asarray(numpy.array(["2016-07-01", "NaT", "2015-01-01", "2016-02-29"], "M8[h]"))
    x = x.copy()
    mask = xp.asarray([True, False, True, False])
    if writer == "fill":
        x.fill(value)
    elif writer == "put":
        xp.put(x, xp.asarray([0, 2]), value)
    elif writer == "place":
        xp.place(x, mask, value)
    elif writer == "copyto":
        xp.copyto(x, value)
    else:
        xp.putmask(x, mask, value)
    return x


@pytest.mark.parametrize("fn", ["full_like", "zeros_like", "ones_like"])
@xp_compare()
def test_like_creation(xp, fn):
    x = _dates(xp, "h")
    if fn == "full_like":
        return xp.full_like(x, numpy.datetime64("2020-01-01")), xp.full(3, numpy.datetime64(
            "2020-01-01T05"), dtype="M8[D]"), xp.full(3, numpy.datetime64("2020-01-01T05"))
    return getattr(xp, fn)(x)


@pytest.mark.parametrize("spelling", ["datetime64[D]", "M8[D]", "<M8[D]", ">M8[D]",
                                      numpy.dtype("M8[D]"), numpy.dtype("=M8[D]")], ids=str)
def test_one_dtype_object_per_unit(spelling):
    """Every spelling normalises to one object, so astype(copy=False) keeps the array, as
    NumPy's."""
    x = garray.zeros(3, dtype="M8[D]")
    assert garray.dtype(spelling) is x.dtype
    assert x.astype(spelling, copy=False) is x
    assert garray.asarray(x, dtype=spelling) is x


@pytest.mark.parametrize("case", ["strided", "empty", "0-d", "2-d broadcast"])
@xp_compare()
def test_business_days_layouts(xp, case):
    d = xp.arange("2016-06-20", "2016-08-01", dtype="M8[D]")
    if case == "strided":
        d = d[::-3]
    elif case == "empty":
        d = d[:0]
    elif case == "0-d":
        d = d[5]
    else:
        d = d[:12].reshape(3, 4)
    e = d[..., ::-1] if d.ndim else d
    return (xp.is_busday(d), xp.busday_count(d, e), xp.busday_offset(d, 2, roll="following"),
            xp.busday_offset(d, xp.arange(4) if case == "2-d broadcast" else -1,
                             roll="modifiedpreceding"))


@pytest.mark.parametrize("bad", ["float dates", "weekmask", "no valid day", "offsets"])
@xp_compare()
def test_business_days_bad_input(xp, bad):
    d = xp.arange("2016-06-20", "2016-06-27", dtype="M8[D]")
    if bad == "float dates":
        return xp.is_busday(xp.ones(3))
    if bad == "weekmask":
        return xp.busday_count(d, d, weekmask="Mon Funday")
    if bad == "no valid day":
        return xp.busday_offset(d, 1, weekmask="0000000")
    return xp.busday_offset(d, xp.asarray(numpy.array(["2016"] * 7, "M8[D]")))
