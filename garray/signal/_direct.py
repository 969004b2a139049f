"""NumPy's ``convolve`` and ``correlate``, and the direct correlation engine that they and
``garray.signal`` share (``_kernels/signal.hip``, Note [Direct correlation]; docs/signal.md).

Every convolution and correlation is one launch of ``sig_correlate``:

    out[i] = sum_k S(i + k - off) * P[k]

The host only decides the operands' roles (signal S, taps P), the views (a convolution's
filter, and both operands of a swapped correlation, are reversed views with negative
strides: nothing is copied), the output shape and the offsets.  ``direct`` takes the
result in NumPy's "full" indexing: output index i is full index i + start.
"""

from .._dtypes import kind_of as _kind_of
import operator

from .._args import as_array
from .. import _dtypes
from .._core import _family_launch, asarray, empty, ndarray
from .._devconst import int64_on
from .._tables.signal import SIG_CORRELATE, SIGNAL

_MAXR = 8                      # GA_SIG_MAXR in signal.hip
_PER = {"cpu": 256, "gpu": 1}  # outputs of one row per thread (note 4)
_debug = {"per": None}

BOUNDARY_ZERO, BOUNDARY_FILL, BOUNDARY_WRAP, BOUNDARY_SYMM = range(4)


def _debug_per(per=None):
    """Test hook: outputs per thread (None: the device's default).  Returns the old one."""
    old = _debug["per"]
    if per is not None and (not isinstance(per, int) or per < 1):
        raise ValueError(f"per: expected a positive int or None, got {per!r}")
    _debug["per"] = per
    return old


def _reversed(a):
    return a[(slice(None, None, -1),) * a.ndim]


def _launch(sig, taps, out_shape, offsets, dtype, boundary=BOUNDARY_ZERO, fill=None,
            cjflags=0, fname="correlate"):
    """out[i] = sum_k S(i + k - off) * P[k]: ``sig`` S and ``taps`` P are garray arrays of
    ``dtype`` and one rank on one device (any strides), ``offsets`` per dimension."""
    dev = sig.device
    if _dtypes.is_narrow(dtype):
        # float16 and the other narrow floats: float32's kernel, each sum rounded once
        # (NumPy's float16 correlate accumulates in float too)
        f = fill.astype(_dtypes.float32) if isinstance(fill, ndarray) else fill
        f32 = _dtypes.DTYPES[9]
        return _launch(sig.astype(f32), taps.astype(f32), out_shape, offsets, f32, boundary,
                       f, cjflags, fname).astype(dtype)
    out = empty(tuple(out_shape), dtype=dtype, device=dev)
    if out.size == 0:
        return out
    r = len(out_shape)
    if r > _MAXR:
        raise NotImplementedError(f"{fname}: inputs of more than {_MAXR} dimensions "
                                  f"(got {r}) are not supported by garray's direct kernel")
    isz = dtype.itemsize

    def pad(v):
        v = list(v)
        return v + [0] * (_MAXR - len(v))

    geom = ([r] + pad(out_shape) + pad(sig.shape) + pad(s // isz for s in sig.strides)
            + pad(taps.shape) + pad(s // isz for s in taps.strides) + pad(offsets))
    g = int64_on(tuple(int(v) for v in geom), dev)
    f = None
    if boundary == BOUNDARY_FILL:
        f = fill if isinstance(fill, ndarray) else asarray([fill], dtype=dtype, device=dev)
    per = _debug["per"] or _PER["cpu" if dev.kind == "cpu" else "gpu"]
    length = out_shape[-1]
    threads = (out.size // length) * (-(-length // per))
    _family_launch(SIGNAL, dtype, SIG_CORRELATE, threads,
                   (out, sig, taps, g, f, out.size, per, boundary, cjflags), out,
                   out.size * max(1, min(taps.size, sig.size)))
    return out


def direct(kind, x, w, out_shape, start, dtype, boundary=BOUNDARY_ZERO, fill=None,
           allow_swap=True, scipy2d_swap=False, fname="correlate"):
    """The ``kind`` ("conv" or "corr") of x and w (garray arrays of one rank and device),
    output ``out_shape``, whose index i is the full result's index i + ``start``.

    The full result: conv[t] = sum_j x[t - j] w[j], corr[t] = sum_j x[t + j - (N - 1)]
    conj(w[j]) (N: w's size), per dimension.  ``boundary`` applies to x (never swapped
    then).  With ``allow_swap`` and zero boundary, the larger operand becomes the signal
    (the same result, exactly).  ``scipy2d_swap``: SciPy's correlate2d of swapped
    operands, the conjugate of the correlation (see docs/signal.md).
    """
    x = x.astype(dtype, copy=False)
    w = w.astype(dtype, copy=False)
    cplx = _kind_of(dtype) == "c"
    swap = allow_swap and boundary == BOUNDARY_ZERO and w.size > x.size
    if scipy2d_swap:
        swap = True
    if not swap:
        s, p, cj = x, (_reversed(w) if kind == "conv" else w), 0
        if kind == "corr" and cplx:
            cj = 1
        ntaps = w.shape
    elif kind == "conv":
        s, p, cj = w, _reversed(x), 0
        ntaps = x.shape
    else:
        s, p = _reversed(w), _reversed(x)
        cj = (1 if scipy2d_swap else 2) if cplx else 0
        ntaps = x.shape
    offsets = [n - 1 - st for n, st in zip(ntaps, start)]
    return _launch(s, p, out_shape, offsets, dtype, boundary, fill, cj, fname)


# ---- NumPy: convolve, correlate --------------------------------------------------------

_MODES = {"valid": 0, "same": 1, "full": 2}


def _mode_code(mode):
    if isinstance(mode, str):
        try:
            return _MODES[mode]
        except KeyError:
            raise ValueError(f"mode must be one of 'valid', 'same', or 'full' "
                             f"(got {mode!r})") from None
    if isinstance(mode, bool):
        raise TypeError("convolve/correlate mode not understood")
    try:
        m = operator.index(mode)
    except TypeError:
        raise TypeError("convolve/correlate mode not understood") from None
    if m not in (0, 1, 2):
        raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
    return m


def _operand(a, name, device, ndmin1):
    a = as_array(a, name, device)
    if a.ndim == 0 and ndmin1:
        a = a.reshape(1)
    return a


def _np_operands(a, v, ndmin1):
    dev = a.device if isinstance(a, ndarray) else (v.device if isinstance(v, ndarray)
                                                   else None)
    a = _operand(a, "a", dev, ndmin1)
    v = _operand(v, "v", a.device, ndmin1)
    if a.device != v.device:
        raise ValueError(f"operands on different devices: {a.device} and {v.device}")
    for x in (a, v):
        if x.ndim > 1:
            raise ValueError("object too deep for desired array")
        if x.ndim < 1:
            raise ValueError("object of too small depth for desired array")
    return a, v


def convolve(a, v, mode="full"):
    """Discrete, linear convolution of two one-dimensional sequences (NumPy's
    ``numpy.convolve``).

    ``out[t] = sum_j a[t - j] * v[j]``, computed directly (no FFT) by garray's kernel on
    the operands' device.

    Parameters
    ----------
    a, v : array_like
        One-dimensional inputs (0-d inputs are taken as length 1, as NumPy); lists and
        NumPy arrays go through ``garray.asarray``.  If ``v`` is longer than ``a`` they
        are swapped (convolution is commutative).
    mode : {'full', 'valid', 'same'} or {2, 0, 1}, optional
        'full': length ``M + N - 1``; 'same': length ``max(M, N)``, centred as NumPy;
        'valid': length ``max(M, N) - min(M, N) + 1``.

    Returns
    -------
    ndarray
        1-d, dtype ``result_type(a, v)`` (every numeric dtype and bool; bool is the OR of
        ANDs, integers wrap as NumPy's).

    Raises
    ------
    ValueError
        Empty input ("a cannot be empty" / "v cannot be empty"), inputs of more than one
        dimension, an unknown mode name or integer code.
    TypeError
        A mode that is neither a string nor an integer.

    Notes
    -----
    float32 accumulates in float32 in tap order (NumPy's float32 dot products are
    float32 too, in another order): the last bits can differ from NumPy's.
    """
    a, v = _np_operands(a, v, True)
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    m = _mode_code(mode)
    n1, n = a.shape[0], v.shape[0]
    length, start = ((n1 - n + 1, n - 1), ((n1, (n - 1) // 2)), (n1 + n - 1, 0))[m]
    dtype = _dtypes.result_type(a, v)
    return direct("conv", a, v, (length,), (start,), dtype, fname="convolve")


def correlate(a, v, mode="valid"):
    """Cross-correlation of two one-dimensional sequences (NumPy's ``numpy.correlate``).

    ``out[k] = sum_n a[n + k] * conj(v[n])``, computed directly by garray's kernel.

    Parameters
    ----------
    a, v : array_like
        One-dimensional inputs (0-d inputs raise ValueError, as NumPy).
    mode : {'valid', 'same', 'full'} or {0, 1, 2}, optional
        As in ``convolve``; the output follows NumPy's order, including when ``v`` is
        longer than ``a`` (NumPy's 'same' centring of that case included).

    Returns
    -------
    ndarray
        1-d, dtype ``result_type(a, v)``.

    Raises
    ------
    ValueError
        Empty inputs ("first array argument cannot be empty" / "second ..."), inputs that
        are not 1-d, unknown mode names or codes.
    TypeError
        A mode that is neither a string nor an integer.
    """
    a, v = _np_operands(a, v, False)
    m = _mode_code(mode)
    if a.shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("second array argument cannot be empty")
    n1, n2 = a.shape[0], v.shape[0]
    lo, hi = min(n1, n2), max(n1, n2)
    if m == 0:
        length, start = hi - lo + 1, lo - 1
    elif m == 1:
        length, start = hi, ((lo - 1) // 2 if n1 >= n2 else lo // 2)
    else:
        length, start = n1 + n2 - 1, 0
    dtype = _dtypes.result_type(a, v)
    return direct("corr", a, v, (length,), (start,), dtype, fname="correlate")
