"""Print options and floating-point error state: NumPy's API, garray's own state.

Printing is host I/O: ``repr``/``str`` of a garray array copy its values to the host and
format them with NumPy's printer under garray's options (``set_printoptions`` ...).  The
options live in a ContextVar, like NumPy's, so ``printoptions`` is thread- and
task-local; garray's options never change NumPy's and NumPy's never change garray's.
NumPy validates every option (its own ``set_printoptions`` runs inside a context that
is undone at once), so bad values raise NumPy's errors.

Error state (``seterr``, ``geterr``, ``errstate``, ``seterrcall``, ``geterrcall``) is
accepted and kept, so NumPy code runs unchanged, but it is a documented no-op: GPU
kernels cannot trap floating-point exceptions, and garray's kernels never warn or raise
on division by zero, overflow, underflow or invalid operations; they give IEEE results
(inf, nan) as NumPy does under ``errstate(all="ignore")``.
"""

import contextlib
import contextvars

import numpy
from ._core import asnumpy

__all__ = ["set_printoptions", "get_printoptions", "printoptions",
           "array2string", "array_repr", "array_str",
           "seterr", "geterr", "errstate", "seterrcall", "geterrcall",
           "base_repr", "binary_repr", "format_float_positional", "format_float_scientific"]

# NumPy's defaults (numpy.get_printoptions() in a fresh process).
_DEFAULT_PRINT = {"edgeitems": 3, "threshold": 1000, "floatmode": "maxprec", "precision": 8,
                  "suppress": False, "linewidth": 75, "nanstr": "nan", "infstr": "inf",
                  "sign": "-", "formatter": None, "legacy": False, "override_repr": None}
_print_options = contextvars.ContextVar("garray_printoptions", default=_DEFAULT_PRINT)


def get_printoptions():
    """The current print options of garray arrays (a new dict).

    Returns
    -------
    dict

    See Also
    --------
    numpy.get_printoptions
    """
    return dict(_print_options.get())


def _validated(kwargs):
    # NumPy checks and normalises the options inside a context that is then undone.
    with numpy.printoptions(**_print_options.get()):
        numpy.set_printoptions(**kwargs)
        return numpy.get_printoptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     suppress=None, nanstr=None, infstr=None, formatter=None, sign=None,
                     floatmode=None, *, legacy=None, override_repr=None):
    """Set how garray arrays print (precision, threshold, edgeitems, linewidth,
    suppress, ...; None leaves an option unchanged).

    Example:
        >>> garray.set_printoptions(precision=3)

    Parameters
    ----------
    precision : int, optional
        As NumPy's.
    threshold : int, optional
        As NumPy's.
    edgeitems : int, optional
        As NumPy's.
    linewidth : int, optional
        As NumPy's.
    suppress : bool, optional
        As NumPy's.
    nanstr : str, optional
        As NumPy's.
    infstr : str, optional
        As NumPy's.
    formatter : dict, optional
        As NumPy's.
    sign : str, optional
        As NumPy's.
    floatmode : str, optional
        As NumPy's.
    legacy : str or False, optional
        As NumPy's.
    override_repr : callable, optional
        As NumPy's.

    Returns
    -------
    None

    See Also
    --------
    numpy.set_printoptions
    """
    kwargs = dict(precision=precision, threshold=threshold, edgeitems=edgeitems,
                  linewidth=linewidth, suppress=suppress, nanstr=nanstr, infstr=infstr,
                  formatter=formatter, sign=sign, floatmode=floatmode, legacy=legacy,
                  override_repr=override_repr)
    _print_options.set(_validated(kwargs))


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """A context manager that sets print options and restores them on exit.

    Example:
        >>> with garray.printoptions(precision=2):
        ...     print(garray.asarray([1 / 3]))
        [0.33]

    Parameters
    ----------
    *args : any
        As set_printoptions.
    **kwargs : any
        As set_printoptions.

    Returns
    -------
    context manager

    See Also
    --------
    numpy.printoptions
    """
    token = _print_options.set(_print_options.get())
    try:
        set_printoptions(*args, **kwargs)
        yield get_printoptions()
    finally:
        _print_options.reset(token)


def format_array(h, is_repr):
    """repr or str of host array ``h`` (the values of a garray array) under garray's
    print options."""
    with numpy.printoptions(**_print_options.get()):
        return repr(h) if is_repr else str(h)


def _host(a):
    return asnumpy(a)


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ",
                 prefix="", *, formatter=None, threshold=None, edgeitems=None, sign=None,
                 floatmode=None, suffix="", legacy=None):
    """The values of ``a`` as a string, under garray's print options and the arguments
    (host I/O).

    Parameters
    ----------
    a : ndarray
        The array.
    max_line_width : int, optional
        As NumPy's.
    precision : int, optional
        As NumPy's.
    suppress_small : bool, optional
        As NumPy's.
    separator : str, optional
        As NumPy's.
    prefix : str, optional
        As NumPy's.
    formatter : dict, optional
        As NumPy's.
    threshold : int, optional
        As NumPy's.
    edgeitems : int, optional
        As NumPy's.
    sign : str, optional
        As NumPy's.
    floatmode : str, optional
        As NumPy's.
    suffix : str, optional
        As NumPy's.
    legacy : str or False, optional
        As NumPy's.

    Returns
    -------
    str

    See Also
    --------
    numpy.array2string
    """
    with numpy.printoptions(**_print_options.get()):
        return numpy.array2string(
            _host(a), max_line_width, precision, suppress_small, separator, prefix,
            formatter=formatter, threshold=threshold, edgeitems=edgeitems, sign=sign,
            floatmode=floatmode, suffix=suffix, legacy=legacy)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """repr of ``arr`` with these options (host I/O).

    Parameters
    ----------
    arr : ndarray
        The array.
    max_line_width : int, optional
        As NumPy's.
    precision : int, optional
        As NumPy's.
    suppress_small : bool, optional
        As NumPy's.

    Returns
    -------
    str

    See Also
    --------
    numpy.array_repr
    """
    with numpy.printoptions(**_print_options.get()):
        return numpy.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """str of ``a`` with these options (host I/O).

    Parameters
    ----------
    a : ndarray
        The array.
    max_line_width : int, optional
        As NumPy's.
    precision : int, optional
        As NumPy's.
    suppress_small : bool, optional
        As NumPy's.

    Returns
    -------
    str

    See Also
    --------
    numpy.array_str
    """
    with numpy.printoptions(**_print_options.get()):
        return numpy.array_str(_host(a), max_line_width, precision, suppress_small)


# ---- floating-point error state (a documented no-op) ---------------------------------

_MODES = ("ignore", "warn", "raise", "call", "print", "log")
_DEFAULT_ERR = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
_err_state = contextvars.ContextVar("garray_errstate", default=(_DEFAULT_ERR, None))


def geterr():
    """The floating-point error handling set by ``seterr`` (a new dict).

    garray's kernels never trap or warn (module docstring); the state is kept so that
    NumPy code that saves and restores it runs.

    Returns
    -------
    dict
        The modes of 'divide', 'over', 'under', 'invalid'.

    See Also
    --------
    numpy.geterr
    """
    return dict(_err_state.get()[0])


def seterr(all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002
    """Set the floating-point error handling; returns the old settings.

    Accepted and kept but a no-op: GPUs cannot trap floating-point exceptions, so
    garray's results are IEEE values (inf, nan) without warnings whatever is set.

    Raises: ValueError for a mode other than 'ignore', 'warn', 'raise', 'call',
        'print' or 'log'.

    Parameters
    ----------
    all : str, optional
        Mode for every kind.
    divide : str, optional
        Mode for division by zero.
    over : str, optional
        Mode for overflow.
    under : str, optional
        Mode for underflow.
    invalid : str, optional
        Mode for invalid operations.

    Returns
    -------
    dict
        The old settings.

    See Also
    --------
    numpy.seterr
    """
    old, call = _err_state.get()
    new = dict(old)
    for key, value in (("divide", divide), ("over", over), ("under", under),
                       ("invalid", invalid)):
        value = all if value is None else value
        if value is not None:
            if value not in _MODES:
                raise ValueError(f"{key}: invalid error mode {value!r}; expected one of "
                                 + ", ".join(map(repr, _MODES)))
            new[key] = value
    _err_state.set((new, call))
    return dict(old)


def geterrcall():
    """The function set by ``seterrcall`` (never called: see ``seterr``).

    Returns
    -------
    callable or None

    See Also
    --------
    numpy.geterrcall
    """
    return _err_state.get()[1]


def seterrcall(func):
    """Set the floating-point error callback; returns the old one.  Kept, never called
    (see ``seterr``).

    Raises: ValueError when ``func`` is neither None, a callable nor an object with a
        ``write`` method.

    Parameters
    ----------
    func : callable, object with write, or None
        The callback.

    Returns
    -------
    callable or None
        The old one.

    See Also
    --------
    numpy.seterrcall
    """
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise ValueError("func: only callable can be used as callback")
    state, old = _err_state.get()
    _err_state.set((state, func))
    return old


class errstate(contextlib.ContextDecorator):  # noqa: N801 - NumPy's name
    """Context manager (and decorator) setting the floating-point error handling.

    Accepted for NumPy code; a no-op in garray (see ``seterr``): kernels give IEEE
    results without warnings.

    Example:
        >>> with garray.errstate(divide="ignore"):
        ...     y = garray.asarray([1.0]) / 0

    Parameters
    ----------
    call : callable, optional
        As seterrcall.
    all : str, optional
        As seterr.
    divide : str, optional
        As seterr.
    over : str, optional
        As seterr.
    under : str, optional
        As seterr.
    invalid : str, optional
        As seterr.

    Returns
    -------
    context manager

    See Also
    --------
    numpy.errstate
    """

    def __init__(self, *, call=None, all=None, divide=None, over=None,  # noqa: A002
                 under=None, invalid=None):
        self._call = call
        self._kwargs = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        for key, value in self._kwargs.items():
            if value is not None and value not in _MODES:
                raise ValueError(f"{key}: invalid error mode {value!r}")
        self._tokens = []

    def __enter__(self):
        self._tokens.append(_err_state.set(_err_state.get()))
        seterr(**self._kwargs)
        if self._call is not None:
            seterrcall(self._call)

    def __exit__(self, *exc):
        _err_state.reset(self._tokens.pop())


# ---- scalar formatting: host strings, NumPy's printer (as for arrays) ------------------


def _host_scalar(x, name):
    """A scalar argument as NumPy's formatters take it: a garray 0-d or one-element array
    becomes the NumPy scalar of its dtype (one value read from the device)."""
    from ._core import ndarray   # here: the core imports the printing module
    if isinstance(x, ndarray):
        if x.ndim != 0:
            raise TypeError(f"{name}: only 0-dimensional arrays can be converted to Python "
                            f"scalars, got shape {x.shape}")
        return asnumpy(x)[()]
    return x


def base_repr(number, base=2, padding=0):
    """The digits of an integer in ``base`` (2 to 36) as a string.

    Parameters
    ----------
    number : int
        The integer (a garray 0-d integer array is read from its device).
    base : int, optional
        The base, 2 to 36.
    padding : int, optional
        Zeros put on the left.

    Returns
    -------
    str

    See Also
    --------
    numpy.base_repr
    """
    return numpy.base_repr(_host_scalar(number, "base_repr: number"), base, padding)


def binary_repr(num, width=None):
    """The binary digits of an integer; negative ones in two's complement when ``width``
    is given.

    Parameters
    ----------
    num : int
        The integer (a garray 0-d integer array is read from its device).
    width : int, optional
        The number of digits.

    Returns
    -------
    str

    See Also
    --------
    numpy.binary_repr
    """
    return numpy.binary_repr(_host_scalar(num, "binary_repr: num"), width)


def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k",
                            sign=False, pad_left=None, pad_right=None, min_digits=None):
    """A float in positional notation, with the shortest digits that round-trip its
    dtype by default (NumPy's Dragon4 formatter).

    Parameters
    ----------
    x : float or 0-d ndarray
        The value (a garray 0-d array keeps its dtype, e.g. float16).
    precision : int, optional
        The most digits to print.
    unique : bool, optional
        The shortest unique digits.
    fractional : bool, optional
        ``precision`` counts digits after the point (else significant digits).
    trim : {'k', '.', '0', '-'}, optional
        How trailing zeros and the point are trimmed.
    sign : bool, optional
        Always print the sign.
    pad_left : int, optional
        Pad the integer part to this many characters.
    pad_right : int, optional
        Pad the fraction to this many characters.
    min_digits : int, optional
        The fewest digits to print.

    Returns
    -------
    str

    See Also
    --------
    numpy.format_float_positional
    """
    return numpy.format_float_positional(
        _host_scalar(x, "format_float_positional: x"), precision, unique, fractional, trim,
        sign, pad_left, pad_right, min_digits)


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False,
                            pad_left=None, exp_digits=None, min_digits=None):
    """A float in scientific notation, with the shortest digits that round-trip its
    dtype by default (NumPy's Dragon4 formatter).

    Parameters
    ----------
    x : float or 0-d ndarray
        The value (a garray 0-d array keeps its dtype, e.g. float16).
    precision : int, optional
        The most digits to print.
    unique : bool, optional
        The shortest unique digits.
    trim : {'k', '.', '0', '-'}, optional
        How trailing zeros and the point are trimmed.
    sign : bool, optional
        Always print the sign.
    pad_left : int, optional
        Pad the integer part to this many characters.
    exp_digits : int, optional
        The fewest digits of the exponent.
    min_digits : int, optional
        The fewest digits to print.

    Returns
    -------
    str

    See Also
    --------
    numpy.format_float_scientific
    """
    return numpy.format_float_scientific(
        _host_scalar(x, "format_float_scientific: x"), precision, unique, trim, sign,
        pad_left, exp_digits, min_digits)
