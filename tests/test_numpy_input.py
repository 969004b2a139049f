"""Note [NumPy input] (garray/_args.py): a numpy.ndarray passed to a garray function is a
TypeError naming the argument and saying to call garray.asarray, on every device;
Python scalars, NumPy scalars and sequences are taken as NumPy takes them.

The walk covers every public callable of garray and of its public subpackages, with a
NumPy array as the first array argument."""

import importlib
import inspect
import types
import warnings

import numpy
import pytest

import garray

NAMESPACES = ("garray", "garray.linalg", "garray.fft", "garray.random", "garray.signal",
              "garray.special", "garray.nn")

# Functions where host data is meant to cross, or that take no array argument.
EXEMPT = {
    # the conversions: copying host data to a device is what they are for
    "asarray", "array", "asanyarray", "ascontiguousarray", "asfortranarray",
    "asarray_chkfinite", "require", "asnumpy", "from_dlpack", "frombuffer", "fromiter",
    "fromstring", "special.asarray",
    # shapes, sizes, scalars or dtypes in, no array argument
    "arange", "logspace", "geomspace", "zeros", "ones", "empty", "full", "eye",
    "identity", "tri", "indices", "diag_indices", "tril_indices", "triu_indices",
    "mask_indices", "bartlett", "blackman", "hamming", "hanning", "kaiser",
    "broadcast_shapes", "ndindex", "fft.fftfreq", "fft.rfftfreq",
    "can_cast", "promote_types", "result_type", "min_scalar_type", "common_type",
    "mintypecode", "finfo", "iinfo", "isdtype", "issubdtype", "datetime_data",
    # one scalar in, a string out (NumPy's formatter, as repr)
    "base_repr", "binary_repr", "format_float_positional", "format_float_scientific",
    # metadata only: they read type, shape or dtype, as NumPy's (no data moves)
    "isscalar", "iterable", "ndim", "shape", "size", "iscomplexobj", "isrealobj",
    "isfortran", "may_share_memory", "shares_memory",
    # index arrays are host metadata, taken as ``g[numpy_index]`` takes them (Dask
    # passes its NumPy indices through numpy.take on garray chunks)
    "ix_", "ravel_multi_index", "unravel_index",
    # callables, files, printing and global state
    "fromfunction", "load", "loadtxt", "save", "savetxt", "savez", "savez_compressed",
    "genfromtxt", "fromfile", "fromregex", "array2string", "array_repr",
    "array_str", "get_printoptions", "set_printoptions", "printoptions", "geterr",
    "seterr", "geterrcall", "seterrcall", "default_device", "get_default_memory_pool",
    "set_implicit_transfer", "einsum_path", "signal.choose_conv_method",
    # streams, events and pinned host memory (NumPy arrays are what the pinned ones make)
    "get_current_stream", "get_elapsed_time", "empty_pinned", "zeros_pinned",
    # random: the module's state and seeding, and the scalar-parameter draws
    "random.default_rng", "random.get_bit_generator", "random.set_bit_generator",
    "random.get_state", "random.set_state", "random.seed", "random.bytes", "random.rand",
    "random.randn", "random.random", "random.random_sample", "random.ranf",
    "random.sample", "random.standard_normal", "random.standard_exponential",
    "random.standard_cauchy",
}

_H = numpy.ones((4, 4))


def _g():
    return garray.ones((4, 4))


def _backward_input(nd):
    """(input shape, NumPy weight, garray grad_output): the weight is the first array."""
    return ((1, 1) + (4,) * nd, numpy.ones((1, 1) + (1,) * nd),
            garray.ones((1, 1) + (4,) * nd))


# Calls whose first array argument is not the first positional one, or that need more
# than one argument of another kind; ``h`` is the NumPy array.
CALLS = {
    "concatenate": lambda h: ((h, _g()),), "concat": lambda h: ((h, _g()),),
    "stack": lambda h: ((h, _g()),), "vstack": lambda h: ((h, _g()),),
    "hstack": lambda h: ((h, _g()),), "dstack": lambda h: ((h, _g()),),
    "column_stack": lambda h: ((h, _g()),), "row_stack": lambda h: ((h, _g()),),
    "block": lambda h: ([h, _g()],), "lexsort": lambda h: ((h, _g()),),
    "histogramdd": lambda h: ((h[0], h[1]),),
    "einsum": lambda h: ("ij->j", h), "apply_along_axis": lambda h: (garray.sum, 0, h),
    "apply_over_axes": lambda h: (garray.sum, h, (0,)), "piecewise": lambda h: (h, [h > 0], [1]),
    "select": lambda h: ([h > 0], [h]), "choose": lambda h: (garray.zeros(4, dtype="int64"), [h]),
    "meshgrid": lambda h: (h[0], h[0]), "broadcast_arrays": lambda h: (h, _g()),
    "broadcast": lambda h: (h, _g()), "polyval": lambda h: (h[0], _g()[0]),
    "poly1d": lambda h: (h[0],), "linalg.multi_dot": lambda h: ([h, _g()],),
    "random.choice": lambda h: (h[0],), "random.multinomial": lambda h: (3, h[0] / 4),
    "random.multivariate_normal": lambda h: (h[0], _g()),
    "random.dirichlet": lambda h: (h[0],),
    "nn.conv1d_backward_input": lambda h: _backward_input(1),
    "nn.conv2d_backward_input": lambda h: _backward_input(2),
    "nn.conv3d_backward_input": lambda h: _backward_input(3),
    "nn.conv_backward_bias": lambda h: (h[None, None],),
    "full_like": lambda h: (h, 1.0), "polyfit": lambda h: (h[0], _g()[0], 1),
    "copyto": lambda h: (h, _g()), "put": lambda h: (h, [0], 1.0),
    "place": lambda h: (h, _g() > 0, [1.0]), "putmask": lambda h: (h, _g() > 0, 1.0),
    "fill_diagonal": lambda h: (h, 1.0), "put_along_axis": lambda h: (
        h, garray.zeros((4, 1), dtype="int64"), 1.0, 1),
    "take_along_axis": lambda h: (h, garray.zeros((4, 1), dtype="int64"), 1),
    "interp": lambda h: (h[0], garray.arange(4.0), garray.arange(4.0)),
    "linspace": lambda h: (h[0], 1.0, 3),
}


def _name(mod, n):
    return n if mod == "garray" else f"{mod[len('garray.'):]}.{n}"


def _public():
    out = []
    for mod in NAMESPACES:
        m = importlib.import_module(mod)
        for n in sorted(dir(m)):
            o = getattr(m, n)
            if n.startswith("_") or isinstance(o, types.ModuleType) or not callable(o):
                continue
            if inspect.isclass(o) and o not in (garray.broadcast, garray.poly1d):
                continue        # types: dtypes, errors, ndarray, Generator ...
            out.append((_name(mod, n), o))
    return out


PUBLIC = _public()


def _args(name, f, h):
    if name in CALLS:
        return CALLS[name](h)
    if isinstance(f, garray.ufunc):
        k = f.nin
    else:
        sig = inspect.signature(f)
        k = sum(1 for p in sig.parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.default is p.empty)
    if name.startswith("nn."):
        h = numpy.ones((1, 1, 4, 4, 4)[:{"1": 3, "2": 4, "3": 5}.get(name[-1], 4)])
        if "_backward" in name:
            return (h,) + (garray.ones(h.shape),) * max(k - 1, 0)
        return (h, garray.ones((1, 1) + (1,) * (h.ndim - 2)))[:max(k, 1)]
    return (h,) + (_g(),) * max(k - 1, 0)


def test_exempt_names_exist():
    names = {n for n, _ in PUBLIC}
    assert not EXEMPT - names, sorted(EXEMPT - names)
    assert not set(CALLS) - names, sorted(set(CALLS) - names)


@pytest.mark.parametrize("name, f", [p for p in PUBLIC if p[0] not in EXEMPT],
                         ids=[p[0] for p in PUBLIC if p[0] not in EXEMPT])
def test_numpy_array_argument_is_refused(name, f):
    args = _args(name, f, _H)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError, match=r"expected a garray\.ndarray, got "
                                            r"numpy\.ndarray \(use garray\.asarray"):
            f(*args)


@pytest.mark.parametrize("name", ["sum", "exp", "sort", "unique", "flip", "mean",
                                  "cumsum", "argmax", "median", "fft.fft"])
def test_numpy_input_message_names_the_argument(name):
    f = garray
    for part in name.split("."):
        f = getattr(f, part)
    with pytest.raises(TypeError) as e:
        f(numpy.arange(3.0))
    assert ": " in str(e.value) and "garray.asarray" in str(e.value)


def test_concatenate_names_the_element():
    with pytest.raises(TypeError, match=r"arrays\[1\]: expected a garray\.ndarray"):
        garray.concatenate([garray.ones(2), numpy.ones(2)])


@pytest.mark.parametrize("x1, x2", [(numpy.ones(2), garray.ones(2)),
                                    (garray.ones(2), numpy.ones(2)),
                                    (numpy.ones(2), numpy.ones(2)),
                                    (numpy.ones(2), 1.0), (1.0, numpy.ones(2))])
def test_binary_ufunc_operands(x1, x2):
    with pytest.raises(TypeError, match=r"add: x[12]: expected a garray\.ndarray.*"
                                        r"garray\.asarray"):
        garray.add(x1, x2)


def test_operators_refuse_numpy_arrays():
    g = garray.ones(2)
    for op in (lambda: g + numpy.ones(2), lambda: numpy.ones(2) + g,
               lambda: g @ numpy.ones(2)):
        with pytest.raises(TypeError, match="garray.asarray"):
            op()


def test_ufunc_methods_refuse_numpy_arrays():
    with pytest.raises(TypeError, match="garray.asarray"):
        garray.add.reduce(numpy.ones(3))
    with pytest.raises(TypeError, match="garray.asarray"):
        garray.add.outer(numpy.ones(3), garray.ones(2))


@pytest.mark.parametrize("name, args, want", [
    ("sum", ([1.0, 2.0],), 3.0), ("sum", (numpy.float32(2),), 2.0), ("sum", (2,), 2.0),
    ("exp", (0.0,), 1.0), ("exp", (numpy.float64(0),), 1.0), ("exp", ([0.0],), [1.0]),
    ("sort", ([3, 1, 2],), [1, 2, 3]), ("unique", ([2, 1, 2],), [1, 2]),
    ("flip", ([1, 2],), [2, 1]), ("concatenate", (([1], [2]),), [1, 2]),
    ("mean", (numpy.int64(3),), 3.0), ("add", (numpy.float32(1), 2), 3.0),
    ("add", ([1, 2], 1), [2, 3]), ("maximum", (1, [0, 2]), [1, 2]),
    ("fft.fft", ([1.0, 0.0],), [1.0, 1.0]), ("linalg.norm", ([3.0, 4.0],), 5.0),
    ("where", ([True, False], numpy.float64(1), 0), [1.0, 0.0]),
])
def test_scalars_numpy_scalars_and_lists_are_taken(name, args, want):
    f = garray
    for part in name.split("."):
        f = getattr(f, part)
    got = f(*args)
    numpy.testing.assert_allclose(garray.asnumpy(got), want)


def test_numpy_scalar_keeps_its_dtype():
    assert garray.add(garray.ones(2, dtype="float32"), numpy.float64(1)).dtype == \
        numpy.float64
    assert garray.exp(numpy.float32(0)).dtype == numpy.float32


def test_numpy_dispatch_still_reaches_garray():
    g = garray.arange(4.0)
    assert isinstance(numpy.sum(g), garray.ndarray)
    assert isinstance(numpy.concatenate([g, g]), garray.ndarray)
    assert isinstance(numpy.add(g, 1), garray.ndarray)
    assert isinstance(numpy.sort(g), garray.ndarray)
    with pytest.raises(TypeError, match="garray.asarray"):
        numpy.concatenate([g, numpy.ones(4)])


def test_conversions_take_numpy_arrays():
    h = numpy.arange(3.0)
    for f in (garray.asarray, garray.array, garray.asanyarray, garray.ascontiguousarray,
              garray.asfortranarray, garray.asarray_chkfinite, garray.require):
        numpy.testing.assert_array_equal(garray.asnumpy(f(h)), h)
