"""Checks shared by the manipulation modules (manipulation, joining, shaping, splitting,
pad, diagonal): casting rules and integer tuples; arrays and axes are garray._args's.
Host work on metadata only."""

import operator

import numpy


def axis_error(msg):
    from numpy.exceptions import AxisError
    return AxisError(msg)


def check_cast(from_dtype, to_dtype, casting, what="array data"):
    """TypeError as NumPy's when ``casting`` forbids from_dtype -> to_dtype (a rule on two
    dtypes: NumPy's table, no values involved)."""
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting: must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         f"'unsafe', got {casting!r}")
    if not numpy.can_cast(from_dtype, to_dtype, casting):
        raise TypeError(f"Cannot cast {what} from {numpy.dtype(from_dtype)!r} to "
                        f"{numpy.dtype(to_dtype)!r} according to the rule {casting!r}")


def int_tuple(v, argname):
    """An int or a sequence of ints as a tuple of Python ints."""
    try:
        seq = tuple(v)
    except TypeError:
        seq = (v,)
    out = []
    for s in seq:
        if isinstance(s, bool) or not hasattr(type(s), "__index__"):
            raise TypeError(f"{argname}: expected integers, got {type(s).__name__}")
        out.append(operator.index(s))
    return tuple(out)
