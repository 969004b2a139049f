"""Hostile arguments found by calling every public function of the main namespace with
generated arguments (arrays of each kind, scalars, None, strings, NaN, huge integers,
tuples, lists) beside NumPy: the classes that were accepted silently, each tested over
every function that takes such an argument, against NumPy's outcome.  Deliberate
differences are docs/reliability.md's."""

import numpy
import pytest

import garray


def _pair(xp):
    return xp.ones(3), xp.asarray([1.0, 2.0])


# ---- copy=: a string is a ValueError (it would be true) ----------------------------
# (astype takes copy= by truth value in NumPy, a string included; garray does too)

COPY_TAKERS = {
    "asarray": lambda xp, x, c: xp.asarray(x, copy=c),
    "asarray-list": lambda xp, x, c: xp.asarray([1, 2], copy=c),
    "array": lambda xp, x, c: xp.array([1, 2], copy=c),
    "reshape": lambda xp, x, c: xp.reshape(x, (3,), copy=c),
    "ndarray.reshape": lambda xp, x, c: x.reshape(3, copy=c),
    "from_dlpack": lambda xp, x, c: xp.from_dlpack(x, copy=c),
    "__array__": lambda xp, x, c: x.__array__(copy=c),
    "nan_to_num": lambda xp, x, c: xp.nan_to_num(x, copy=c),
}


@pytest.mark.parametrize("name", sorted(COPY_TAKERS))
def test_copy_keyword_refuses_strings(name):
    f = COPY_TAKERS[name]
    with pytest.raises(ValueError):
        f(numpy, numpy.ones(3), "no")
    with pytest.raises(ValueError, match="copy"):
        f(garray, garray.ones(3), "no")
    # a truth value is still taken
    assert isinstance(f(garray, garray.ones(3), 1), (garray.ndarray, numpy.ndarray))


# ---- dtype=: an array is not a dtype (NumPy's "Cannot construct a dtype from an array") --

DTYPE_TAKERS = {
    "zeros": lambda xp, d: xp.zeros(2, dtype=d),
    "ones_like": lambda xp, d: xp.ones_like(xp.ones(2), dtype=d),
    "full": lambda xp, d: xp.full(2, 1, dtype=d),
    "asarray": lambda xp, d: xp.asarray([1, 2], dtype=d),
    "astype": lambda xp, d: xp.ones(2).astype(d),
    "arange": lambda xp, d: xp.arange(3, dtype=d),
    "sum": lambda xp, d: xp.sum(xp.ones(2), dtype=d),
    "can_cast-to": lambda xp, d: xp.can_cast("float32", d),
    "promote_types": lambda xp, d: xp.promote_types(d, "int8"),
    "issubdtype": lambda xp, d: xp.issubdtype(d, xp.floating),
    "dtype": lambda xp, d: xp.dtype(d),
}


@pytest.mark.parametrize("name", sorted(DTYPE_TAKERS))
@pytest.mark.parametrize("shape", [(), (2,)])
def test_an_array_is_not_a_dtype(name, shape):
    f = DTYPE_TAKERS[name]
    with pytest.raises(TypeError):
        f(numpy, numpy.ones(shape, dtype="float32"))
    with pytest.raises(TypeError, match="array"):
        f(garray, garray.ones(shape, dtype="float32"))
    # NumPy scalars and their types are dtypes (a scalar's own dtype)
    assert garray.zeros(1, dtype=numpy.float32(1)).dtype == numpy.float32
    assert garray.zeros(1, dtype=numpy.float32).dtype == numpy.float32


# ---- arrays written in place must be arrays (not a converted copy) ------------------

IN_PLACE = {
    "put": lambda xp, a: xp.put(a, 0, 2),
    "place": lambda xp, a: xp.place(a, True, [2]),
    "putmask": lambda xp, a: xp.putmask(a, True, 2),
    "put_along_axis": lambda xp, a: xp.put_along_axis(a, xp.asarray([0]), 2, 0),
    "copyto": lambda xp, a: xp.copyto(a, 2),
    "fill_diagonal": lambda xp, a: xp.fill_diagonal(a, 2),
}


@pytest.mark.parametrize("name", sorted(IN_PLACE))
@pytest.mark.parametrize("target", [1.0, [1.0, 2.0], (1.0,)], ids=repr)
def test_in_place_writers_refuse_non_arrays(name, target):
    """NumPy refuses (TypeError; AttributeError where it never checks); garray's
    TypeError names the argument rather than writing into a temporary copy."""
    with pytest.raises((TypeError, AttributeError)):
        IN_PLACE[name](numpy, target)
    with pytest.raises(TypeError, match="expected a garray.ndarray"):
        IN_PLACE[name](garray, target)


# ---- the rest of the round ----------------------------------------------------------------

@pytest.mark.parametrize("args", [(None,), (1.0, None), (None, None)], ids=repr)
def test_where_counts_arguments_not_nones(args):
    """where(c, None) is two values given, not one: NumPy's ValueError; where(c, x,
    None) selects between x and None (an object array in NumPy: garray's TypeError)."""
    c = [True, False]
    for xp in (numpy, garray):
        cond = xp.asarray(c)
        if len(args) == 2:
            if xp is garray:
                with pytest.raises(TypeError):
                    xp.where(cond, *args)
            continue
        with pytest.raises(ValueError, match="both or neither"):
            xp.where(cond, *args)


@pytest.mark.parametrize("shape", [1.5, [1.5], [True], "ab", [[2]]], ids=repr)
def test_broadcast_shapes_takes_integers_only(shape):
    with pytest.raises(TypeError):
        numpy.broadcast_shapes(numpy.asarray(shape) if isinstance(shape, list) else shape)
    with pytest.raises(TypeError, match="broadcast_shapes"):
        garray.broadcast_shapes(garray.asarray(shape) if isinstance(shape, list) else shape)


def test_broadcast_shapes_of_integer_arrays_and_scalars():
    want = numpy.broadcast_shapes((2, 1), numpy.int64(4), numpy.asarray([1, 4]))
    assert garray.broadcast_shapes((2, 1), garray.asarray(4), garray.asarray([1, 4])) == want


@pytest.mark.parametrize("work", [2.0, "x", [1]], ids=repr)
@pytest.mark.parametrize("name", ["shares_memory", "may_share_memory"])
def test_max_work_must_be_an_integer(name, work):
    with pytest.raises(ValueError, match="max_work"):
        getattr(numpy, name)(numpy.ones(2), numpy.ones(2), work)
    with pytest.raises(ValueError, match="max_work"):
        getattr(garray, name)(garray.ones(2), garray.ones(2), work)


@pytest.mark.parametrize("yshape, xshape, axis", [((4,), (0, 3), -1), ((3, 4), (3, 4), -1),
                                                  ((3, 4), (4,), -1), ((3, 4), (2, 4), 0),
                                                  ((2, 3, 4), (3, 4), 1)], ids=str)
def test_trapezoid_differences_x_along_the_axis_as_given(yshape, xshape, axis):
    """x is differenced along ``axis`` as given (NumPy's), so an x of another rank
    broadcasts, or fails to, as in NumPy; never a silent answer."""
    y = numpy.arange(numpy.prod(yshape), dtype=float).reshape(yshape)
    x = (numpy.arange(numpy.prod(xshape), dtype=float) ** 2).reshape(xshape)
    try:
        want = numpy.trapezoid(y, x, axis=axis)
    except ValueError:
        with pytest.raises(ValueError):
            garray.trapezoid(garray.asarray(y), garray.asarray(x), axis=axis)
        return
    got = garray.trapezoid(garray.asarray(y), garray.asarray(x), axis=axis)
    numpy.testing.assert_allclose(got.get(), want)
    assert got.shape == numpy.shape(want)


@pytest.mark.parametrize("decimals", [1, -1])
def test_round_out_of_another_shape(decimals):
    """round(x, decimals, out) with out of another shape: NumPy's ValueError, not a
    broadcast into out."""
    for xp in (numpy, garray):
        with pytest.raises(ValueError):
            xp.round(xp.asarray(2.5), decimals, xp.zeros(4))
    out = garray.zeros(2)
    assert garray.round(garray.asarray([1.25, 2.75]), decimals, out) is out
    numpy.testing.assert_allclose(out.get(), numpy.round([1.25, 2.75], decimals))


# ---- two Python scalars: NumPy 2's weak scalars, no array to take a dtype from ---------

@pytest.mark.parametrize("name", ["add", "minimum", "multiply", "bitwise_and", "less"])
@pytest.mark.parametrize("args", [(2**63, 1), (1, 2**63), (2**63, 2**63), (True, 2**63),
                                  (2**62, 1), (-2**63, 0), (2**63, 1.5), (2**64, 1.0),
                                  (1.0, 2**64), (2**64, 1j), (2**63, numpy.uint64(1))],
                         ids=repr)
def test_two_python_scalars(name, args):
    """Two Python ints compute in the default int64 (OverflowError past it, not
    asarray's uint64); an int with a float computes in float64, any size."""
    if name == "less" and isinstance(args[0], bool):
        pytest.skip("a bool compared with a Python int past int64: docs/reliability.md")
    try:
        want = getattr(numpy, name)(*args)
    except (OverflowError, TypeError) as e:
        with pytest.raises(type(e)):
            getattr(garray, name)(*args)
        return
    got = getattr(garray, name)(*args)
    assert got.dtype == numpy.asarray(want).dtype
    numpy.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("scalar", [numpy.float32(1.0), numpy.int8(1), numpy.bool_(True)],
                         ids=repr)
def test_a_numpy_scalar_as_dtype_is_not_remembered_by_value(scalar):
    """A NumPy scalar is taken as its dtype, but equals and hashes as 1, True and 1.0:
    the dtype caches must not then read those as that dtype."""
    assert garray.zeros(1, dtype=scalar).dtype == scalar.dtype
    for value in (1, True, 1.0):
        with pytest.raises(TypeError):
            garray.zeros(2, dtype=value)
        with pytest.raises(TypeError):
            garray.can_cast(value, "f8")
