"""One helper for comparing garray with NumPy (CuPy's numpy_cupy_* decorators, simplified).

    @for_all_dtypes()
    @xp_compare()
    def test_x(xp, dtype):
        a = make(xp, (2, 3), dtype)
        return a[:, ::-1]

runs the body with ``xp=numpy`` and ``xp=garray`` and checks the garray result against
NumPy's: type (a garray array where NumPy gives an ndarray), dtype, shape and values
(NaN equal to NaN).  If NumPy raises, garray must raise the same exception type.
Arrays are made on ``garray``'s default device (``GARRAY_DEVICE``), in garray-owned
memory, so every check runs garray's own code on that device.
"""

import functools
import inspect

import numpy
import pytest

import garray

ALL_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
              "uint64", "float32", "float64", "complex64", "complex128")


def for_all_dtypes(name="dtype", dtypes=ALL_DTYPES):
    """Parametrize a test over the 13 Array API dtypes (as numpy dtypes)."""
    return pytest.mark.parametrize(name, [numpy.dtype(d) for d in dtypes], ids=list(dtypes))


def make(xp, shape, dtype, start=1):
    """Deterministic, dtype-appropriate test data of ``shape`` in namespace ``xp``."""
    dtype = numpy.dtype(dtype)
    size = int(numpy.prod(shape))
    h = numpy.arange(start, start + size).reshape(shape)
    if dtype.kind == "b":
        h = h % 3 == 0
    elif dtype.kind == "c":
        h = h - 1j * h[::-1] if h.ndim else h + 0.5j
    elif dtype.kind == "f":
        h = h * 0.5 - 2
    h = numpy.asarray(h).astype(dtype)
    if xp is numpy:
        return h
    return garray.asarray(h, copy=True)


def _to_host(r):
    if isinstance(r, garray.ndarray):
        return r.get()
    return r


def assert_xp_equal(g, n, path="result"):
    """Assert that garray result ``g`` equals NumPy result ``n`` (type, dtype, shape, values)."""
    if isinstance(n, numpy.ndarray):
        assert isinstance(g, garray.ndarray), f"{path}: expected garray.ndarray, got {type(g)}"
        assert g.dtype == n.dtype, f"{path}: dtype {g.dtype} != numpy's {n.dtype}"
        assert g.shape == n.shape, f"{path}: shape {g.shape} != numpy's {n.shape}"
        numpy.testing.assert_array_equal(g.get(), n, err_msg=path, strict=True)
    elif isinstance(n, (list, tuple)):
        assert isinstance(g, (list, tuple)) and len(g) == len(n), f"{path}: {g!r} vs {n!r}"
        for i, (gi, ni) in enumerate(zip(g, n)):
            assert_xp_equal(gi, ni, f"{path}[{i}]")
    elif isinstance(n, numpy.generic):
        gv = _to_host(g)
        assert numpy.asarray(gv).dtype == n.dtype, f"{path}: {gv!r} vs {n!r}"
        numpy.testing.assert_array_equal(gv, n, err_msg=path)
    else:
        assert type(g) is type(n), f"{path}: type {type(g)} != numpy's {type(n)}"
        if isinstance(n, float) and n != n:
            assert g != g
        else:
            assert g == n, f"{path}: {g!r} != numpy's {n!r}"


def xp_compare(name="xp"):
    """Run the test body with numpy and with garray and compare the results."""
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
                with pytest.raises(type(np_err)):
                    fn(*args, **kwargs)
                return
            got = fn(*args, **kwargs)
            assert_xp_equal(got, expected)
        sig = inspect.signature(fn)
        wrapper.__signature__ = sig.replace(
            parameters=[p for p in sig.parameters.values() if p.name != name])
        return wrapper
    return deco
