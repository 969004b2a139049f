"""scipy.signal's convolve, correlate, convolve2d, correlate2d and choose_conv_method on
garray's direct correlation kernel (garray/signal/_direct.py, _kernels/signal.hip).

SciPy 1.17 is the reference: the same output shapes, 'same' centring (``convolve``,
``correlate``, ``convolve2d``: start ``(N - 1) // 2`` of the full result per dimension;
``correlate2d``: ``N // 2``, SciPy computes it as a convolution with the flipped
filter), 'valid' operand swap, dtypes (``result_type`` of the inputs), errors and
boundary rules.  See docs/signal.md for the differences.
"""

from .._dtypes import kind_of as _kind_of
import operator
import warnings

import numpy

from .._args import as_array
from .. import _dtypes
from .._core import ndarray, empty
from . import _direct as _s

_MODES = ("valid", "same", "full")
_BOUNDARIES = {"fill": _s.BOUNDARY_FILL, "pad": _s.BOUNDARY_FILL,
               "wrap": _s.BOUNDARY_WRAP, "circular": _s.BOUNDARY_WRAP,
               "symm": _s.BOUNDARY_SYMM, "symmetric": _s.BOUNDARY_SYMM}


def _operands(in1, in2):
    dev = in1.device if isinstance(in1, ndarray) else (
        in2.device if isinstance(in2, ndarray) else None)
    a = as_array(in1, "in1", dev)
    b = as_array(in2, "in2", a.device)
    if a.device != b.device:
        raise ValueError(f"in1 on {a.device}, in2 on {b.device}: the inputs must be on "
                         "one device")
    for x in (a, b):        # SciPy refuses ml_dtypes' types (bfloat16, the float8s)
        if _dtypes.is_ml_format(x.dtype):
            raise TypeError(f"An argument has dtype {x.dtype!r}; only boolean and "
                            f"numerical dtypes are supported (as SciPy)")
    return a, b


def _check_mode(mode):
    if not isinstance(mode, str) or mode not in _MODES:
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full', "
                         f"not mode={mode}")


def _check_method(method, fname):
    if not isinstance(method, str) or method not in ("auto", "direct", "fft"):
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")


def _swap_needed(mode, s1, s2):
    """SciPy's _inputs_swap_needed: in 'valid' mode one input must contain the other."""
    if mode != "valid" or not s1:
        return False
    ok1 = all(a >= b for a, b in zip(s1, s2))
    ok2 = all(b >= a for a, b in zip(s1, s2))
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large as the other "
                         "in every dimension")
    return not ok1


def _geometry(mode, s1, s2, same_start):
    """Output shape and start (in the full result) of in1 (s1) with in2 (s2)."""
    if mode == "full":
        return tuple(a + b - 1 for a, b in zip(s1, s2)), (0,) * len(s1)
    if mode == "same":
        return tuple(s1), tuple(same_start(b) for b in s2)
    if all(a >= b for a, b in zip(s1, s2)):
        return tuple(a - b + 1 for a, b in zip(s1, s2)), tuple(b - 1 for b in s2)
    return tuple(b - a + 1 for a, b in zip(s1, s2)), tuple(a - 1 for a in s1)


def _nd(kind, in1, in2, mode, method, fname):
    a, b = _operands(in1, in2)
    if a.ndim == b.ndim == 0:
        return a * (b.conj() if kind == "corr" else b)
    if a.ndim != b.ndim:
        if kind == "conv":
            raise ValueError("volume and kernel should have the same dimensionality")
        raise ValueError("in1 and in2 should have the same dimensionality")
    _check_mode(mode)
    _swap_needed(mode, a.shape, b.shape)
    _check_method(method, fname)
    if method == "fft":
        return _fft_method(kind, a, b, mode)
    dtype = _dtypes.result_type(a, b)
    one_d_numpy = a.ndim == 1 and (mode != "same" or a.size >= b.size)
    if one_d_numpy:
        # SciPy hands these to numpy.convolve / numpy.correlate
        return (_s.convolve if kind == "conv" else _s.correlate)(a, b, mode)
    if dtype == _dtypes.DTYPES[0]:
        raise ValueError("Unsupported type")
    if a.size == 0 or b.size == 0:
        raise ValueError(f"garray.signal.{fname}: empty input (in1 {a.shape}, in2 "
                         f"{b.shape}) is not supported")
    shape, start = _geometry(mode, a.shape, b.shape, lambda n: (n - 1) // 2)
    return _s.direct(kind, a, b, shape, start, dtype, fname=fname)


def convolve(in1, in2, mode="full", method="auto"):
    """Convolve two N-dimensional arrays (``scipy.signal.convolve``), directly.

    Parameters
    ----------
    in1, in2 : array_like
        Inputs of the same rank (0-d inputs: their product).
    mode : {'full', 'valid', 'same'}, optional
        'full': shape ``in1.shape + in2.shape - 1``; 'same': ``in1.shape``, centred as
        SciPy; 'valid': the part that does not depend on zero padding (one input must be
        at least as large as the other in every dimension).
    method : {'auto', 'direct', 'fft'}, optional
        'auto' and 'direct' run garray's direct kernel (exact sums); 'fft' computes
        ``fftconvolve`` on garray.fft and casts to the result dtype as SciPy does
        (integers rounded).

    Returns
    -------
    ndarray
        dtype ``result_type(in1, in2)``.

    Raises
    ------
    ValueError
        Mismatched ranks, bad mode or method, 'valid' with neither input containing the
        other, bool inputs of more than one dimension (SciPy: "Unsupported type"),
        empty inputs.
    NotImplementedError
        More than 8 dimensions (direct method).

    Notes
    -----
    1-d inputs follow ``garray.convolve`` (SciPy hands them to ``numpy.convolve``), bool
    included.  'auto' always takes the direct method (``choose_conv_method``): where
    SciPy's 'auto' would pick its FFT, garray's exact direct sum can differ from SciPy's in
    the last bits (and be slower for very large inputs: pass ``method='fft'``).
    """
    return _nd("conv", in1, in2, mode, method, "convolve")


def correlate(in1, in2, mode="full", method="auto"):
    """Cross-correlate two N-dimensional arrays (``scipy.signal.correlate``), directly.

    ``z[k] = sum_l in1[l] * conj(in2[l - k + N - 1])`` in 'full' indexing (N: in2's
    shape); parameters, returns and errors as ``convolve``.  When ``in2`` is the larger
    input in 'valid' mode the result is SciPy's (the correlation itself, reversed and
    conjugated from the swapped operands).

    Parameters
    ----------
    in1 : ndarray
        First input.
    in2 : ndarray
        Second input, of in1's ndim.
    mode : {'full', 'valid', 'same'}, optional
        The output size.
    method : {'auto', 'direct', 'fft'}, optional
        As convolve.

    Returns
    -------
    ndarray
        In the inputs' result_type.

    Raises
    ------
    ValueError, NotImplementedError
        As ``convolve``.
    """
    return _nd("corr", in1, in2, mode, method, "correlate")


def _fill_value(fillvalue, dtype):
    """SciPy's cast of ``fillvalue`` (a scalar parameter, converted on the host): NumPy's
    conversion to the output dtype (arrays: a safe cast only); failing that, an error."""
    if isinstance(fillvalue, ndarray):
        fillvalue = fillvalue.get()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if isinstance(fillvalue, numpy.ndarray):
                if not numpy.can_cast(fillvalue.dtype, dtype, "safe"):
                    raise TypeError("unsafe cast")
                f = fillvalue.astype(dtype)
            else:
                f = numpy.asarray(fillvalue, dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        try:
            numpy.asarray(fillvalue, dtype=numpy.complex128)
        except (TypeError, ValueError) as e:
            raise ValueError(f"fillvalue {fillvalue!r}: {e}") from None
        raise ValueError("could not cast `fillvalue` directly to the output type (it was "
                         "first converted to complex).") from None
    if f.size == 0:
        raise ValueError("`fillvalue` cannot be an empty array.")
    if f.size != 1:
        raise ValueError("`fillvalue` must be scalar or an array with one element.")
    return f.reshape(-1)[0].item()


def _two_d(kind, in1, in2, mode, boundary, fillvalue, fname):
    a, b = _operands(in1, in2)
    if not a.ndim == b.ndim == 2:
        raise ValueError(f"{fname} inputs must both be 2-D arrays")
    swapped = _swap_needed(mode, a.shape, b.shape)
    if not isinstance(mode, str) or mode not in _MODES:
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full'.")
    if not isinstance(boundary, str) or boundary not in _BOUNDARIES:
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), "
                         "and 'symmetric' (or 'symm').")
    dtype = _dtypes.result_type(a, b)
    if dtype == _dtypes.DTYPES[0] or _dtypes.is_narrow(dtype):    # as SciPy's
        raise ValueError("convolve2d not available for this type.")
    # as SciPy: fillvalue is read (and checked) for the fill boundary alone
    fill = _fill_value(fillvalue, dtype) if _BOUNDARIES[boundary] == _s.BOUNDARY_FILL else 0
    if a.size == 0 or b.size == 0:
        raise ValueError(f"garray.signal.{fname}: empty input (in1 {a.shape}, in2 "
                         f"{b.shape}) is not supported")
    bnd = _BOUNDARIES[boundary]
    if bnd == _s.BOUNDARY_FILL and fill == 0:
        bnd = _s.BOUNDARY_ZERO
    if mode == "valid":
        bnd = _s.BOUNDARY_ZERO    # nothing is read outside in1
    same = (lambda n: (n - 1) // 2) if kind == "conv" else (lambda n: n // 2)
    if swapped:
        shape = tuple(y - x + 1 for x, y in zip(a.shape, b.shape))
        if kind == "conv":
            return _s.direct("conv", b, a, shape, tuple(x - 1 for x in a.shape), dtype,
                             fname=fname)
        # SciPy correlates the swapped operands and reverses: the conjugate of the
        # correlation for complex inputs
        return _s.direct("corr", a, b, shape, tuple(x - 1 for x in a.shape), dtype,
                         scipy2d_swap=True, fname=fname)
    shape, start = _geometry(mode, a.shape, b.shape, same)
    return _s.direct(kind, a, b, shape, start, dtype, boundary=bnd, fill=fill,
                     allow_swap=bnd == _s.BOUNDARY_ZERO, fname=fname)


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """Convolve two 2-D arrays (``scipy.signal.convolve2d``), directly.

    Parameters
    ----------
    in1, in2 : array_like
        2-D inputs.
    mode : {'full', 'valid', 'same'}, optional
        As ``garray.signal.convolve``.
    boundary : {'fill', 'wrap', 'symm'} (aliases 'pad', 'circular', 'symmetric')
        How in1 is extended outside its bounds: ``fillvalue``, periodically, or mirrored
        with the edge repeated (period 2n, so filters larger than in1 work as SciPy's).
    fillvalue : scalar, optional
        The fill value (a scalar or one-element array), cast to the output dtype as
        SciPy casts it.

    Returns
    -------
    ndarray
        2-d, dtype ``result_type(in1, in2)``.

    Raises
    ------
    ValueError
        Inputs not 2-d, bad mode or boundary, 'valid' with neither input containing the
        other, bool inputs, a fill value that is not one element or does not cast to the
        output dtype, empty inputs.
    """
    return _two_d("conv", in1, in2, mode, boundary, fillvalue, "convolve2d")


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """Cross-correlate two 2-D arrays (``scipy.signal.correlate2d``), directly.

    Parameters, returns and errors as ``convolve2d``.  As SciPy: 'same' takes the full
    result from index ``in2.shape // 2`` (not ``correlate``'s ``(n - 1) // 2``), and in
    'valid' mode with in2 the larger input the result is the reversed correlation of the
    swapped inputs (for complex inputs the conjugate of ``correlate``'s result).

    Parameters
    ----------
    in1 : ndarray
        First 2-d input.
    in2 : ndarray
        Second 2-d input.
    mode : {'full', 'valid', 'same'}, optional
        The output size.
    boundary : {'fill', 'wrap', 'symm'}, optional
        How the edges are extended.
    fillvalue : scalar, optional
        The value for boundary='fill'.

    Returns
    -------
    ndarray
        2-d, in the inputs' result_type.
    """
    return _two_d("corr", in1, in2, mode, boundary, fillvalue, "correlate2d")


def choose_conv_method(in1, in2, mode="full", measure=False):
    """The method ``convolve``/``correlate`` use under 'auto': always ``'direct'``
    (garray's exact sums; SciPy's cost model for picking its FFT is not reproduced).
    Arguments are checked as SciPy checks them.

    Parameters
    ----------
    in1 : ndarray
        First input.
    in2 : ndarray
        Second input.
    mode : {'full', 'valid', 'same'}, optional
        As convolve.
    measure : bool, optional
        Not supported (NotImplementedError).

    Returns
    -------
    str
        'direct'.

    Raises
    ------
    ValueError
        A bad mode, or 'valid' with neither input containing the other.
    NotImplementedError
        ``measure=True`` (timing both methods is not implemented).
    """
    a, b = _operands(in1, in2)
    _check_mode(mode)
    if measure:
        raise NotImplementedError("garray.signal.choose_conv_method: measure=True (timing "
                                  "both methods) is not implemented; pass method= to "
                                  "convolve/correlate")
    return "direct"


# ---- the FFT methods (scipy.signal.fftconvolve's algorithm on garray.fft) ------------

def _fast_len(n):
    """The smallest 2-, 3-, 5- and 7-smooth length >= n (garray.fft's radices)."""
    best = 1
    while best < n:
        best *= 2
    p7 = 1
    while p7 < best:
        p5 = p7
        while p5 < best:
            p3 = p5
            while p3 < best:
                m = p3
                while m < n:
                    m *= 2
                best = min(best, m)
                p3 *= 3
            p5 *= 5
        p7 *= 7
    return best


def _conv_axes(a, b, mode, axes):
    """SciPy's _init_freq_conv_axes: (in1, in2, axes) with axes of extent 1 dropped
    (broadcasting handles them), the other axes checked, and the operands swapped when
    'valid' needs it."""
    nd = a.ndim
    if axes is None:
        axes = list(range(nd))
    else:
        try:
            axes = [operator.index(ax) for ax in (axes if numpy.iterable(axes) else [axes])]
        except TypeError:
            raise ValueError("axes must be a scalar or iterable of integers") from None
        if not axes:
            raise ValueError("when provided, axes cannot be empty")
        if any(ax < -nd or ax >= nd for ax in axes):
            raise ValueError(f"axes exceeds dimensionality of input (axes {axes}, "
                             f"{nd} dimensions)")
        axes = [ax % nd for ax in axes]
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    s1, s2 = a.shape, b.shape
    axes = [ax for ax in axes if s1[ax] != 1 and s2[ax] != 1]
    if not all(s1[i] == s2[i] or s1[i] == 1 or s2[i] == 1 for i in range(nd) if i not in axes):
        raise ValueError(f"incompatible shapes for in1 and in2: {s1} and {s2}")
    if mode == "valid" and axes:
        ok1 = all(s1[i] >= s2[i] for i in axes)
        ok2 = all(s2[i] >= s1[i] for i in axes)
        if not (ok1 or ok2):
            raise ValueError("For 'valid' mode, one must be at least as large as the "
                             "other in every dimension")
        if not ok1:
            a, b = b, a
    return a, b, axes


def _centered(x, shape):
    start = [(c - n) // 2 for c, n in zip(x.shape, shape)]
    return x[tuple(slice(st, st + n) for st, n in zip(start, shape))]


def fftconvolve(in1, in2, mode="full", axes=None):
    """Convolve two N-dimensional arrays by FFT (``scipy.signal.fftconvolve``).

    Parameters
    ----------
    in1, in2 : array_like
        Inputs of the same rank; along axes not transformed they must be equal or 1.
    mode : {'full', 'valid', 'same'}, optional
        As ``convolve``.
    axes : int or sequence of ints, optional
        The axes to convolve over (default: all).

    Returns
    -------
    ndarray
        Real inputs give a real result (float32 for float32 inputs, float64 otherwise,
        as SciPy's ``scipy.fft``), complex inputs a complex one.

    Raises
    ------
    ValueError
        Mismatched ranks, a bad mode, empty or repeated axes, incompatible shapes.

    Notes
    -----
    SciPy's algorithm on garray.fft: ``rfftn`` (``fftn`` for complex inputs) of both inputs
    at a 2/3/5/7-smooth length, their product, the inverse, and the mode's slice, all on
    the inputs' device.
    """
    a, b = _operands(in1, in2)
    if a.ndim == b.ndim == 0:
        return a * b
    if a.ndim != b.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    _check_mode(mode)
    if a.size == 0 or b.size == 0:
        return empty((0,), dtype="float64", device=a.device)
    a, b, axes = _conv_axes(a, b, mode, axes)
    s1, s2 = a.shape, b.shape
    shape = [max(s1[i], s2[i]) if i not in axes else s1[i] + s2[i] - 1
             for i in range(a.ndim)]
    if not axes:
        ret = a * b
    else:
        from .. import fft as _fft   # here: garray.fft loads on first use
        is_complex = _kind_of(a.dtype) == "c" or _kind_of(b.dtype) == "c"
        fshape = [_fast_len(shape[ax]) for ax in axes]
        if is_complex:
            sp = _fft.fftn(a, fshape, axes=axes) * _fft.fftn(b, fshape, axes=axes)
            ret = _fft.ifftn(sp, fshape, axes=axes)
        else:
            sp = _fft.rfftn(a, fshape, axes=axes) * _fft.rfftn(b, fshape, axes=axes)
            ret = _fft.irfftn(sp, fshape, axes=axes)
        ret = ret[tuple(slice(n) for n in shape)]
    if mode == "full":
        return ret.copy()
    if mode == "same":
        return _centered(ret, s1).copy()
    valid = [ret.shape[i] if i not in axes else s1[i] - s2[i] + 1 for i in range(ret.ndim)]
    return _centered(ret, valid).copy()


def oaconvolve(in1, in2, mode="full", axes=None):
    """Convolve two N-dimensional arrays (``scipy.signal.oaconvolve``'s results).

    Parameters, returns and errors as ``fftconvolve``, which computes it: garray does not
    split the larger input into overlap-add blocks yet, so the result is SciPy's (to
    rounding) but the memory and time are those of one FFT of the full length.

    Parameters
    ----------
    in1 : ndarray
        First input.
    in2 : ndarray
        Second input, of in1's ndim.
    mode : {'full', 'valid', 'same'}, optional
        The output size.
    axes : int or sequence of int, optional
        The axes to convolve over (all by default).

    Returns
    -------
    ndarray
        As fftconvolve.
    """
    return fftconvolve(in1, in2, mode, axes)


def _fft_method(kind, a, b, mode):
    """``convolve``/``correlate`` with method='fft', as SciPy: correlate is the
    convolution with in2 reversed and conjugated; the result is cast to
    ``result_type(in1, in2)``, integers rounded first."""
    if kind == "corr":
        b = b[(slice(None, None, -1),) * b.ndim].conj()
    if _swap_needed(mode, a.shape, b.shape):
        a, b = b, a
    out = fftconvolve(a, b, mode)
    dtype = _dtypes.result_type(a, b)
    if _kind_of(dtype) in "iu":
        from .. import round as _round
        out = _round(out)
    return out.astype(dtype)
