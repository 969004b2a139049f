"""The shared test vocabulary: comparing garray with NumPy, dtypes, layouts, test data.

Comparison (CuPy's ``numpy_cupy_allclose``, simplified): ``assert_xp_close(got, expected)``
checks a garray result against NumPy's: type (a garray array where NumPy gives an
ndarray), dtype and shape strictly, values within per-dtype tolerances (``TOLERANCES``:
exact for bool and integers; NaN equals NaN).  ``rtol=0, atol=0`` makes any dtype exact.
``xp_compare`` runs a test body twice, with ``xp=numpy`` and ``xp=garray``:

    @for_all_dtypes()
    @xp_compare()
    def test_x(xp, dtype):
        a = make(xp, (2, 3), dtype)
        return a[:, ::-1]

If NumPy raises, garray must raise the same exception type (``expected_exception``).
Arrays are made on garray's default device (``GARRAY_DEVICE``), in garray-owned memory, so
every check runs garray's own code on that device.

Data: ``make`` (deterministic, non-negative integers) for data-movement tests;
``sample`` and ``layout_operands`` for elementwise tests (mixed signs, zeros, halves,
operands in every layout of ``LAYOUTS``).
"""

import functools
import inspect
import threading

import numpy
import pytest

import garray

ALL_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64", "float32", "float64", "complex64", "complex128", "float16", "bfloat16")
API_DTYPES = ALL_DTYPES[:13]     # the Array API's (float16 is NumPy's alone)
# ml_dtypes' formats: bfloat16 joins every family's dtype list (ALL_DTYPES) as the sample of
# the three, which share every code path but the casts; tests/elementwise/
# test_narrow_floats.py runs all three through every family.
NARROW_DTYPES = ("float16", "bfloat16", "float8_e4m3fn", "float8_e5m2")


def kind(dtype):
    """NumPy's kind letter, "f" for the narrow floats (NumPy gives bfloat16 kind "V")."""
    dtype = numpy.dtype(dtype)
    return "f" if dtype.name in NARROW_DTYPES else dtype.kind


def numpy_via_float32(fn, h, *args, **kwargs):
    """``fn(h, ...)`` of a NumPy function, for an ml_dtypes array (bfloat16, the float8s)
    run on its float32 values with float32 results cast back: NumPy's Python functions
    (median, quantile, nan_to_num, var ...) take those dtypes as not inexact, miss their
    NaNs and compute in the narrow dtype step by step, where garray computes as for
    float16."""
    if not garray._dtypes.is_ml_format(h.dtype):
        return fn(h, *args, **kwargs)
    r = fn(h.astype(numpy.float32), *args, **kwargs)
    return r.astype(h.dtype) if getattr(r, "dtype", None) == numpy.float32 else r

# Per result dtype: (rtol, atol).  Bool and integers are exact.
TOLERANCES = {
    "float32": (1e-5, 1e-6), "complex64": (1e-5, 1e-6),
    "float64": (1e-12, 1e-12), "complex128": (1e-12, 1e-12),
    # one unit in the last place: float16 ops compute in float32 and round once, as
    # NumPy's; float32 results a unit apart may round to neighbouring float16 values
    "float16": (1e-3, 1e-7),
    "bfloat16": (8e-3, 1e-6), "float8_e4m3fn": (0.13, 1e-3), "float8_e5m2": (0.26, 1e-3),
}

# Operand layouts of the elementwise tests (see ``layout_operands``).
LAYOUTS = ("contiguous", "strided", "broadcast", "scalar", "0-d", "empty")
UNARY_LAYOUTS = tuple(lay for lay in LAYOUTS if lay != "scalar")


def for_all_dtypes(name="dtype", dtypes=ALL_DTYPES):
    """Parametrize a test over garray's 14 dtypes (as numpy dtypes)."""
    return pytest.mark.parametrize(name, [numpy.dtype(d) for d in dtypes], ids=list(dtypes))


# ---- comparison ---------------------------------------------------------------------


def tolerance(dtype, rtol=None, atol=None):
    """(rtol, atol) for comparing values of ``dtype``; None picks the dtype's default."""
    dr, da = TOLERANCES.get(numpy.dtype(dtype).name, (0.0, 0.0))
    return (dr if rtol is None else rtol), (da if atol is None else atol)


def _assert_values(g, n, rtol, atol, path):
    rtol, atol = tolerance(n.dtype, rtol, atol)
    if garray._dtypes.is_ml_format(n.dtype):    # NumPy's testing does not know ml_dtypes'
        assert g.dtype == n.dtype, path
        g, n = g.astype(numpy.float64), n.astype(numpy.float64)
    if rtol == 0 and atol == 0:
        numpy.testing.assert_array_equal(g, n, err_msg=path, strict=True)
    else:
        numpy.testing.assert_allclose(g, n, rtol=rtol, atol=atol, equal_nan=True,
                                      err_msg=path, strict=True)


def assert_xp_close(got, expected, *, rtol=None, atol=None, err_msg="result"):
    """Assert that garray result ``got`` matches NumPy result ``expected``.

    Arrays: ``got`` is a garray.ndarray with NumPy's dtype and shape, values within
    ``tolerance(dtype, rtol, atol)``, NaN equal to NaN.  NumPy scalars: a garray 0-d array
    (or scalar) of the same dtype.  Lists and tuples: element by element.  Anything else:
    same type and equal.  ``err_msg`` labels the failure.
    """
    where = err_msg
    if isinstance(expected, numpy.ndarray):
        assert isinstance(got, garray.ndarray), \
            f"{where}: expected garray.ndarray, got {type(got)}"
        assert got.dtype == expected.dtype, \
            f"{where}: dtype {got.dtype} != numpy's {expected.dtype}"
        assert got.shape == expected.shape, \
            f"{where}: shape {got.shape} != numpy's {expected.shape}"
        _assert_values(got.get(), expected, rtol, atol, where)
    elif isinstance(expected, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected), \
            f"{where}: {got!r} vs {expected!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_xp_close(g, e, rtol=rtol, atol=atol, err_msg=f"{where}[{i}]")
    elif isinstance(expected, numpy.generic):
        if isinstance(got, garray.ndarray):
            assert got.shape == (), f"{where}: shape {got.shape} != () (numpy gave a scalar)"
            got = got.get()
        g = numpy.asarray(got)
        assert g.dtype == expected.dtype, \
            f"{where}: {got!r} ({g.dtype}) vs numpy's {expected!r} ({expected.dtype})"
        _assert_values(g, numpy.asarray(expected), rtol, atol, where)
    else:
        assert type(got) is type(expected), \
            f"{where}: type {type(got)} != numpy's {type(expected)}"
        if isinstance(expected, float) and expected != expected:
            assert got != got, f"{where}: {got!r} != numpy's nan"
        else:
            assert got == expected, f"{where}: {got!r} != numpy's {expected!r}"


def expected_exception(e):
    """The exception type garray must raise where NumPy raised ``e``: its own type when
    public (numpy.exceptions.AxisError, ValueError, ...), else the nearest builtin base
    (NumPy's private UFuncTypeError -> TypeError)."""
    for t in type(e).__mro__:
        if t.__module__ in ("builtins", "numpy.exceptions"):
            return t
    return Exception


def same_or_raises_alike(fn_np, fn_g, *, rtol=None, atol=None):
    """``fn_np()`` (NumPy) and ``fn_g()`` (garray) give close results, or both raise (the
    type ``expected_exception`` maps NumPy's to): property tests call it per example."""
    try:
        expected = fn_np()
    except Exception as e:  # noqa: BLE001 - garray must raise the same type
        try:
            fn_g()
        except expected_exception(e):
            return
        raise AssertionError(f"numpy raised {type(e).__name__}: {e}; garray did not")
    assert_xp_close(fn_g(), expected, rtol=rtol, atol=atol)


def xp_compare(name="xp", *, rtol=None, atol=None):
    """Run the test body with numpy and with garray; compare with ``assert_xp_close``."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            kwargs[name] = numpy
            try:
                expected = fn(*args, **kwargs)
                np_err = None
            except Exception as e:  # noqa: BLE001 - garray must raise the same type
                np_err = e
            kwargs[name] = garray
            if np_err is not None:
                with pytest.raises(expected_exception(np_err)):
                    fn(*args, **kwargs)
                return
            got = fn(*args, **kwargs)
            assert_xp_close(got, expected, rtol=rtol, atol=atol)
        sig = inspect.signature(fn)
        wrapper.__signature__ = sig.replace(
            parameters=[p for p in sig.parameters.values() if p.name != name])
        return wrapper
    return deco


# ---- data ---------------------------------------------------------------------------


def make(xp, shape, dtype, start=1):
    """Deterministic, dtype-appropriate test data of ``shape`` in namespace ``xp``
    (integers non-negative and increasing: good for data movement, not for arithmetic)."""
    dtype = numpy.dtype(dtype)
    size = int(numpy.prod(shape))
    h = numpy.arange(start, start + size).reshape(shape)
    if kind(dtype) == "b":
        h = h % 3 == 0
    elif kind(dtype) == "c":
        h = h - 1j * h[::-1] if h.ndim else h + 0.5j
    elif kind(dtype) == "f":
        h = h * 0.5 - 2
    h = numpy.asarray(h).astype(dtype)
    if xp is numpy:
        return h
    return garray.asarray(h, copy=True)


def sample(shape, dtype, start=0, small=False):
    """Deterministic NumPy data for arithmetic: signed integers in [-8, 8], unsigned in
    [0, 16], floats in [-4, 4] in steps of 0.5 (zeros and halves included), complex with
    both parts so, bools mixed.  ``small``: integers in [0, 3] (exponents, shift counts),
    floats in [0, 1.5].  No op on these values overflows any dtype."""
    dtype = numpy.dtype(dtype)
    size = int(numpy.prod(shape))
    k = numpy.arange(size, dtype=numpy.int64) * 7 + start
    v = (k % 4) if small else (k % 17 - 8)
    if kind(dtype) == "b":
        h = k % 3 == 0
    elif kind(dtype) == "u":
        h = (k % 4) if small else (k % 17)
    elif kind(dtype) == "i":
        h = v
    elif kind(dtype) == "f":
        h = v * 0.5
    else:
        h = v * 0.5 + 1j * ((k * 5 + 3) % (4 if small else 17) - (0 if small else 8)) * 0.5
    return numpy.asarray(h.reshape(shape)).astype(dtype)


def python_scalar(dtype, small=False):
    """A Python scalar of ``dtype``'s kind (weak in NEP 50: the result keeps ``dtype``)."""
    k = kind(dtype)
    if k == "b":
        return True
    if k in "iu":
        return 2 if small else 3
    if k == "f":
        return 1.5 if small else -2.5
    return 1.5 - 2j


def _layout_base(layout, i, dtype, small):
    """Operand ``i`` of ``layout``: (contiguous NumPy data, the view to take of it)."""
    start = 5 * i
    if layout == "contiguous":
        return sample((3, 4), dtype, start, small), _same
    if layout == "strided":   # operand 0: negative and step strides; 1: offset start
        if i % 2 == 0:
            return sample((4, 8), dtype, start, small), _neg_step_view
        return sample((3, 5), dtype, start, small), _offset_view
    if layout == "broadcast":   # (3, 1) against (4,); a lone operand: a stride-0 view
        return sample((3, 1) if i == 0 else (4,), dtype, start, small), _same
    if layout == "0-d":
        return sample((), dtype, start + 3, small), _same
    if layout == "empty":
        return sample((2, 0) if i == 0 else (0,), dtype, start, small), _same
    raise ValueError(f"unknown layout {layout!r}")


def _same(x):
    return x


def _neg_step_view(x):
    return x[::-1, ::2][:3]


def _offset_view(x):
    return x[:, 1:]


def layout_operands(layout, dtypes, small=(), scalar_pos=None):
    """Operands for an elementwise op in ``layout``: ``(numpy_args, garray_args)``.

    ``dtypes`` gives one dtype per operand; ``small`` the operand indices that hold
    exponents or shift counts (``sample(small=True)``).  Layouts (``LAYOUTS``):
      contiguous  C-contiguous (3, 4) arrays;
      strided     (3, 4) views: negative and step strides; an offset start;
      broadcast   (3, 1) against (4,); a unary op gets a stride-0 (3, 4) broadcast view;
      scalar      operand ``scalar_pos`` (default: the last) is a Python scalar of its
                  dtype's kind, the others contiguous; needs two operands;
      0-d         shape () arrays;
      empty       (2, 0) against (0,).
    Each garray operand is the same view of a garray-owned copy of the same data.
    """
    dtypes = [numpy.dtype(d) for d in dtypes]
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}")
    if layout == "scalar" and len(dtypes) < 2:
        raise ValueError("the scalar layout needs a binary op")
    pos = (len(dtypes) - 1 if scalar_pos is None else scalar_pos) if layout == "scalar" else -1
    n_args, g_args = [], []
    for i, d in enumerate(dtypes):
        if i == pos:
            s = python_scalar(d, i in small)
            n_args.append(s)
            g_args.append(s)
            continue
        h, view = _layout_base("contiguous" if layout == "scalar" else layout, i, d,
                               i in small)
        n, g = view(h), view(garray.asarray(h, copy=True))
        if layout == "broadcast" and len(dtypes) == 1:
            n, g = numpy.broadcast_to(n, (3, 4)), garray.broadcast_to(g, (3, 4))
        n_args.append(n)
        g_args.append(g)
    return n_args, g_args


# ---- threads ------------------------------------------------------------------------

# ---- laws of random draws -----------------------------------------------------------


def check_law(x, dist, moments=True, sd=5.0, finite=None, p_min=1e-4):
    """A Kolmogorov-Smirnov test of the draws ``x`` (host values) against the frozen
    scipy law ``dist`` (p > ``p_min``); then mean and variance within ``sd`` standard
    errors (variance only where the fourth moment is finite).  ``finite`` (default:
    ``moments``) also requires every draw to be finite."""
    from scipy import stats
    x = numpy.asarray(x, dtype=numpy.float64).ravel()
    if moments if finite is None else finite:
        assert numpy.isfinite(x).all()
    p = stats.kstest(x, dist.cdf).pvalue
    assert p > p_min, f"KS p-value {p:.3g}"
    if not moments:
        return
    n = x.size
    mu, var, kurt = (float(v) for v in dist.stats(moments="mvk"))
    assert abs(x.mean() - mu) < sd * numpy.sqrt(var / n), (x.mean(), mu)
    if numpy.isfinite(kurt):
        assert abs(x.var() - var) < sd * var * numpy.sqrt((kurt + 2.0) / n), (x.var(), var)


def run_in_threads(work, n=8):
    """Run ``work(i)`` for i in range(n) on n threads at once; fails with the first
    exceptions any of them raised."""
    errors = []

    def run(i):
        try:
            work(i)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
