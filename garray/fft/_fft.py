"""NumPy's ``numpy.fft`` complex transforms (``fft``, ``ifft``, ``fft2``, ``ifft2``,
``fftn``, ``ifftn``; also the Array API fft extension's) over garray's FFT engine
(``_engine.py``; docs/fft.md) or the GPU vendor's (cuFFT, hipFFT:
``garray/_vendor/gpufft.py``), as ``path`` picks, and the axis, padding, dtype and norm
handling the real transforms (``_real.py``) share.  Axes are moved last and made
contiguous, padded, cropped and cast on the device by garray's own kernels; nothing goes
through the host.  The frequencies and shifts are in ``_frequencies.py``.

Note [FFT paths]
~~~~~~~~~~~~~~~~
``GARRAY_FFT`` (read at each call: ``kernel``, ``vendor`` or ``auto``, the default)
picks the path of each one-dimensional batch of transforms.  The CPU device has no
vendor FFT (NumPy's pocketfft is the reference, never the implementation): it always
runs garray's kernels.  On a GPU, ``auto`` takes the vendor library when it loads and
the transform fits its 32-bit plan sizes, else the kernels (the portable path);
``vendor`` requires the library (``BackendUnavailableError`` naming the package
otherwise) and raises NotImplementedError for what its plans cannot take.

Note [FFT precision]
~~~~~~~~~~~~~~~~~~~~
garray's kernels compute single-precision transforms (complex64, float32) in double
precision and round once, at the end: the result is the double-precision transform
rounded to single, which is what NumPy's pocketfft returns (its error against a
float64 reference is the output rounding alone, ~0.4 ulp RMS, at every length).  The
float32 stages measured 4-7x that (1e-7 against 2.5e-8 at 2**20), growing with the
length.  The input is cast while it is made contiguous (``_last`` copies anyway when
it moves an axis or pads), and the n-dimensional functions keep every intermediate
wide (``wide=True``) and round after the last axis.  The vendor path keeps the
vendor's single-precision transforms (cuFFT, hipFFT: a few ulp) and their speed.
"""

from .._dtypes import kind_of as _kind_of
import math
import operator

import numpy

from .. import _dtypes, _env
from .._args import as_array, normalize_axis
from .._array_utils import ascontiguousarray
from .._core import zeros
from .._manip.views import moveaxis
from .._core import ndarray
from .._vendor import gpufft as _gpufft
from . import _engine

_NORMS = (None, "backward", "ortho", "forward")


def path(device, n, batch):
    """"kernel" or "vendor": the path of ``batch`` transforms of length ``n`` on
    ``device`` (Note [FFT paths])."""
    mode = _env.choice("GARRAY_FFT", ("kernel", "vendor", "auto"), "auto")
    if mode == "kernel" or device.kind not in _gpufft.VENDORS:
        return "kernel"
    if mode == "vendor":
        _gpufft.library[device.kind].library()      # raises, naming what to install
        return "vendor"
    if _gpufft.fits(n, batch) and _gpufft.available(device.kind)[0]:
        return "vendor"
    return "kernel"


def _others(a, axis):
    """The number of transforms along ``axis`` of ``a``: its other axes' product."""
    return math.prod(a.shape[:axis] + a.shape[axis + 1:])


def _complex_dtype(dt):
    if dt.kind in "mM":
        raise TypeError(f"fft: not supported for {dt} (as NumPy)")
    if _kind_of(dt) == "c":
        return dt
    if dt == _dtypes.float32 or _dtypes.is_narrow(dt):  # NumPy (with ml_dtypes): complex64
        return numpy.dtype(_dtypes.complex64)
    return numpy.dtype(_dtypes.complex128)


_WIDE = {numpy.dtype(_dtypes.complex64): numpy.dtype(_dtypes.complex128),
         numpy.dtype(_dtypes.float32): numpy.dtype(_dtypes.float64)}


def _wide(dt):
    """The dtype garray's kernels compute ``dt``'s transforms in (Note [FFT precision])."""
    return _WIDE.get(dt, dt)


def _narrow(y, dt):
    """``y`` rounded to ``dt`` (itself when it has that dtype)."""
    return y if y.dtype == dt else y.astype(dt)


def _scale(norm, n, inverse):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward",'
                         f'"ortho" or "forward".')
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if (norm == "forward") != bool(inverse):
        return 1.0 / n
    return 1.0


def _scale_of(a, norm, n, inverse):
    """_scale for input ``a``: NumPy scales bfloat16 and float8 input in their own dtype,
    which has no reciprocal loop, so every scaled transform of them raises its TypeError
    (an unscaled one computes in complex64)."""
    s = _scale(norm, n, inverse)
    if (norm == "ortho" or (norm == "forward") != bool(inverse)) and \
            _dtypes.is_ml_format(a.dtype):
        raise TypeError(f"No loop matching the specified signature and casting was found "
                        f"for ufunc reciprocal (NumPy's error: a {a.dtype} input is scaled "
                        f"in its own dtype; cast it to float32 first)")
    return s


def _points(n, default):
    if n is None:
        n = default
    if isinstance(n, (bool, numpy.bool_)):      # operator.index takes a bool
        raise TypeError("n: an integer is required, got a bool")
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _last(a, axis, n, dtype):
    """``a`` with ``axis`` moved last, cropped or zero-padded to ``n`` there, cast to
    ``dtype``, C-contiguous.  Returns (array, owned): owned when it is a new buffer."""
    x = moveaxis(a, axis, -1)
    m = x.shape[-1]
    if m >= n:
        x = x[..., :n]
        y = ascontiguousarray(x, dtype=dtype)
        return y, x.dtype != dtype          # a cast is always a new buffer
    y = zeros(x.shape[:-1] + (n,), dtype=dtype, device=a.device)
    y[..., :m] = x
    return y, True


def _finish(y, axis, out, fname):
    return _put(moveaxis(y, -1, axis), out, fname)


def _put(y, out, fname):
    """``y``, or ``y`` written into ``out`` (NumPy's out= rules: same shape, a dtype that
    ``y`` casts to under same_kind)."""
    if out is None:
        return y
    if not isinstance(out, ndarray):
        raise TypeError(f"{fname}: out must be a garray ndarray, got {type(out).__name__}")
    if out.shape != y.shape:
        raise ValueError(f"{fname}: output array has wrong shape: expected {y.shape}, "
                         f"got {out.shape}")
    if not numpy.can_cast(y.dtype, out.dtype, "same_kind"):
        raise TypeError(f"{fname}: cannot cast the result's dtype {y.dtype} to out's "
                        f"{out.dtype}")
    out[...] = y
    return out


def _c2c(a, n, axis, norm, inverse, out, fname, wide=False):
    """The complex transform of ``a`` along ``axis``; ``wide``: the kernel path leaves a
    single-precision result in double (Note [FFT precision])."""
    a = as_array(a, "a")
    axis = normalize_axis(axis, a.ndim)
    n = _points(n, a.shape[axis])
    cdt = _complex_dtype(a.dtype)
    scale = _scale_of(a, norm, n, inverse)
    if path(a.device, n, _others(a, axis)) == "vendor":
        x, _ = _last(a, axis, n, cdt)
        y = _gpufft.c2c(x, inverse, scale)
    else:
        x, owned = _last(a, axis, n, _wide(cdt))
        y = _engine.c2c(x, inverse, scale, owned)
        if not wide:
            y = _narrow(y, cdt)
    return _finish(y, axis, out, fname)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional discrete Fourier transform (``numpy.fft.fft``).

    Parameters
    ----------
    a : array_like
        Input (real inputs are cast to complex: float32 -> complex64, float64 and the
        integer and bool dtypes -> complex128; complex64 stays complex64).
    n : int, optional
        Length of the transformed axis: the input is cropped or zero-padded to ``n``.
    axis : int, optional
        Axis over which to transform (default last).
    norm : {None, "backward", "ortho", "forward"}, optional
        Scaling: backward (none on the forward transform), ortho (1/sqrt(n)),
        forward (1/n).
    out : ndarray, optional
        Result written here (shape of the result; complex dtype).

    Returns
    -------
    ndarray
        Complex result on the input's device.

    Raises
    ------
    ValueError
        ``n < 1`` (or an empty transform axis), an invalid ``norm``, a wrong ``out``
        shape.
    numpy.exceptions.AxisError
        ``axis`` out of range.

    Notes
    -----
    Stockham radix-2/3/4/5/7 stages; other prime factors take Bluestein's algorithm
    (docs/fft.md).  Lengths of 2**31 and more raise NotImplementedError.
    """
    return _c2c(a, n, axis, norm, False, out, "fft")


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional inverse discrete Fourier transform (``numpy.fft.ifft``).

    Parameters, returns and errors as ``fft``; ``norm="backward"`` (default) scales by
    1/n.

    Parameters
    ----------
    a : ndarray or array_like
        Input (real input is cast to complex: float32 to complex64, other real dtypes to
        complex128; complex64 stays complex64).
    n : int, optional
        Length of the transformed axis: the input is cropped or zero-padded to n.
    axis : int, optional
        The axis to transform (the last by default).
    norm : {None, "backward", "ortho", "forward"}, optional
        Scaling, as fft.
    out : ndarray, optional
        A garray array of the result's shape and dtype to write into.

    Returns
    -------
    ndarray
        Complex (complex64 for float32/complex64 input, else complex128), on the input's
        device.
    """
    return _c2c(a, n, axis, norm, True, out, "ifft")


def _cook_nd(a, s, axes, invreal=False, fname="fftn"):
    if s is None:
        shapeless = True
        if axes is None:
            s = list(a.shape)
        else:
            axes = [operator.index(ax) for ax in axes]
            s = [a.shape[normalize_axis(ax, a.ndim)] for ax in axes]
    else:
        shapeless = False
        if axes is not None and len(s) != len(axes):    # NumPy checks this first
            raise ValueError("Shape and axes have different lengths.")
        if any(isinstance(v, (bool, numpy.bool_)) for v in s):
            raise TypeError("s: integers are required, got a bool")
        s = [None if v is None else operator.index(v) for v in s]
    if axes is None:
        axes = list(range(-len(s), 0))
    axes = [operator.index(ax) for ax in axes]
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    axes = [normalize_axis(ax, a.ndim) for ax in axes]
    if invreal and shapeless and axes:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    # as NumPy 2: -1 is the input's whole length along that axis; None (deprecated
    # there) stays None: each 1-d transform then takes its default length at its turn
    s = [a.shape[ax] if v == -1 else v for v, ax in zip(s, axes)]
    return s, axes


def _c2cn(a, s, axes, norm, inverse, out, fname):
    a = as_array(a, "a")
    s, axes = _cook_nd(a, s, axes, fname=fname)
    for n in s:
        if n is not None:
            _points(n, None)
    if not axes:
        return _put(a, out, fname)    # no axes: the input itself, as NumPy
    cdt = _complex_dtype(a.dtype)
    for ii in reversed(range(len(axes))):
        a = _c2c(a, s[ii], axes[ii], norm, inverse, None, fname, wide=True)
    return _put(_narrow(a, cdt), out, fname)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional discrete Fourier transform (``numpy.fft.fftn``): successive 1-d
    transforms over ``axes`` (all axes, or the last ``len(s)``, by default).

    Parameters
    ----------
    a : ndarray or array_like
        Input (real input is cast to complex: float32 to complex64, other real dtypes to
        complex128; complex64 stays complex64).
    s : sequence of int, optional
        Output lengths along axes (crop or zero-pad); -1 or None entries keep the
        input's length.
    axes : sequence of int, optional
        The axes to transform (all, or the last len(s), by default); repeated axes
        transform repeatedly, as NumPy.
    norm : {None, "backward", "ortho", "forward"}, optional
        Scaling, as fft.
    out : ndarray, optional
        A garray array of the result's shape and dtype to write into.

    Returns
    -------
    ndarray
        Complex (complex64 for float32/complex64 input, else complex128), on the input's
        device.

    Raises
    ------
    ValueError
        ``s`` and ``axes`` of different lengths, a length < 1, an invalid norm.
    numpy.exceptions.AxisError
        An axis out of range.
    """
    return _c2cn(a, s, axes, norm, False, out, "fftn")


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional inverse discrete Fourier transform (``numpy.fft.ifftn``); arguments as
    ``fftn``.

    Parameters
    ----------
    a : ndarray or array_like
        Input (real input is cast to complex: float32 to complex64, other real dtypes to
        complex128; complex64 stays complex64).
    s : sequence of int, optional
        Output lengths along axes (crop or zero-pad); -1 or None entries keep the
        input's length.
    axes : sequence of int, optional
        The axes to transform (all, or the last len(s), by default); repeated axes
        transform repeatedly, as NumPy.
    norm : {None, "backward", "ortho", "forward"}, optional
        Scaling, as fft.
    out : ndarray, optional
        A garray array of the result's shape and dtype to write into.

    Returns
    -------
    ndarray
        Complex (complex64 for float32/complex64 input, else complex128), on the input's
        device.
    """
    return _c2cn(a, s, axes, norm, True, out, "ifftn")


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """2-dimensional discrete Fourier transform (``numpy.fft.fft2``): ``fftn`` over the
    last two axes by default.

    Parameters
    ----------
    a : ndarray or array_like
        Input (real input is cast to complex: float32 to complex64, other real dtypes to
        complex128; complex64 stays complex64).
    s : sequence of int, optional
        Output lengths along axes (crop or zero-pad); -1 or None entries keep the
        input's length.
    axes : sequence of int, optional
        The axes to transform (the last two by default).
    norm : {None, "backward", "ortho", "forward"}, optional
        Scaling, as fft.
    out : ndarray, optional
        A garray array of the result's shape and dtype to write into.

    Returns
    -------
    ndarray
        Complex (complex64 for float32/complex64 input, else complex128), on the input's
        device.
    """
    return _c2cn(a, s, axes, norm, False, out, "fft2")


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """2-dimensional inverse discrete Fourier transform (``numpy.fft.ifft2``).

    Parameters
    ----------
    a : ndarray or array_like
        Input (real input is cast to complex: float32 to complex64, other real dtypes to
        complex128; complex64 stays complex64).
    s : sequence of int, optional
        Output lengths along axes (crop or zero-pad); -1 or None entries keep the
        input's length.
    axes : sequence of int, optional
        The axes to transform (the last two by default).
    norm : {None, "backward", "ortho", "forward"}, optional
        Scaling, as fft.
    out : ndarray, optional
        A garray array of the result's shape and dtype to write into.

    Returns
    -------
    ndarray
        Complex (complex64 for float32/complex64 input, else complex128), on the input's
        device.
    """
    return _c2cn(a, s, axes, norm, True, out, "ifft2")
