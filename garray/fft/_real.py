"""The real-input and Hermitian transforms of ``numpy.fft``: ``rfft``, ``irfft``,
``rfft2``, ``irfft2``, ``rfftn``, ``irfftn``, ``hfft`` and ``ihfft``, on the same paths
(Note [FFT paths]) and precision rules (Note [FFT precision]) as the complex transforms
in ``garray/fft/_fft.py``.
"""

from .._dtypes import kind_of as _kind_of
import numpy

from .. import _dtypes
from .._args import as_array, normalize_axis
from .._array_utils import ascontiguousarray
from .._elementwise.ufuncs import conj
from .._vendor import gpufft as _gpufft
from . import _engine
from ._fft import (_NORMS, _c2c, _complex_dtype, _cook_nd, _finish, _last,
                   _narrow, _others, _points, _put, _scale, _scale_of, _wide, path)

__all__ = ["rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn", "hfft", "ihfft"]


def _real_dtype(dt):
    c = _complex_dtype(dt)
    return numpy.dtype(_dtypes.float32 if c == _dtypes.complex64 else _dtypes.float64)


def _swap_norm(norm):
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward",'
                         f'"ortho" or "forward".')
    return {None: "forward", "backward": "forward", "ortho": "ortho",
            "forward": "backward"}[norm]


def _check_real(a, fname):
    if _kind_of(a.dtype) == "c":
        raise TypeError(f"{fname}: the input must be real, got {a.dtype}")


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional discrete Fourier transform of a real input (``numpy.fft.rfft``):
    the ``n//2 + 1`` non-negative frequency terms.

    Parameters
    ----------
    a : ndarray or array_like
        Real input (complex raises TypeError); float32 gives complex64, other real
        dtypes complex128.
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

    Notes
    -----
    Even lengths transform the real rows read as n/2 complex values and untangle the
    spectrum (half the work); odd lengths take the complex FFT of the input cast to
    complex.
    """
    return _rfft(a, n, axis, norm, out)


def _rfft(a, n, axis, norm, out, wide=False):
    """rfft; ``wide`` as ``_c2c``."""
    a = as_array(a, "a")
    axis = normalize_axis(axis, a.ndim)
    n = _points(n, a.shape[axis])
    scale = _scale_of(a, norm, n, False)
    _check_real(a, "rfft")      # after the axis, n and norm checks, as NumPy's order
    rdt = _real_dtype(a.dtype)
    cdt = _complex_dtype(rdt)
    if path(a.device, n, _others(a, axis)) == "vendor":
        xr, _ = _last(a, axis, n, rdt)
        return _finish(_gpufft.r2c(xr, scale), axis, out, "rfft")
    if n % 2 == 0:
        xr, _ = _last(a, axis, n, _wide(rdt))
        y = _engine.rfft_even(xr, scale)
    else:
        x, owned = _last(a, axis, n, _wide(cdt))
        y = _engine.c2c(x, False, scale, owned)[..., :n // 2 + 1]
    if not wide:
        y = _narrow(y, cdt)
    return _finish(y, axis, out, "rfft")


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of ``rfft`` (``numpy.fft.irfft``): a real output of length ``n``
    (default ``2 * (m - 1)`` for ``m`` input values along ``axis``).

    The input is cropped or zero-padded to ``n//2 + 1`` values; the imaginary parts of
    the zero-frequency (and, for even n, the Nyquist) term are ignored, as NumPy.
    Returns float32 for complex64/float32 inputs, float64 otherwise.

    Parameters
    ----------
    a : ndarray or array_like
        Complex input (the non-negative frequency half of a Hermitian spectrum).
    n : int, optional
        Length of the real output (2 * (m - 1) by default).
    axis : int, optional
        The axis to transform (the last by default).
    norm : {None, "backward", "ortho", "forward"}, optional
        Scaling, as fft.
    out : ndarray, optional
        A garray array of the result's shape and dtype to write into.

    Returns
    -------
    ndarray
        Real (float16 for float16 input, float32 for complex64/float32, else float64),
        on the input's device.
    """
    return _irfft(a, n, axis, norm, out)


def _irfft(a, n, axis, norm, out, rdt=None):
    """irfft, rounded to ``rdt`` (default: the real dtype of ``a``'s precision; irfftn's
    wide intermediate passes the input's)."""
    a = as_array(a, "a")
    axis = normalize_axis(axis, a.ndim)
    n = _points(n, 2 * (a.shape[axis] - 1))
    cdt = _complex_dtype(a.dtype)
    if rdt is None:     # as NumPy: a float16 (or bfloat16 ...) input gives its own dtype
        rdt = a.dtype if _dtypes.is_narrow(a.dtype) else _real_dtype(cdt)
    scale = _scale_of(a, norm, n, True)
    if path(a.device, n, _others(a, axis)) == "vendor":
        x, _ = _last(a, axis, n // 2 + 1, cdt)
        y = _gpufft.c2r(x, n, scale)
    else:
        x, _ = _last(a, axis, n // 2 + 1, _wide(cdt))
        if n % 2 == 0:
            y = _engine.irfft_even(x, n, scale)
        else:
            full = _engine.hermitian_full(x, n)
            y = ascontiguousarray(_engine.c2c(full, True, scale, True).real)
    return _finish(_narrow(y, rdt), axis, out, "irfft")


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The FFT of a signal with Hermitian symmetry (``numpy.fft.hfft``): a real spectrum
    of length ``n`` (default ``2 * (m - 1)``); ``irfft(conj(a), n, axis, swapped norm)``.

    Parameters
    ----------
    a : ndarray or array_like
        The non-negative frequency half of a Hermitian signal.
    n : int, optional
        Length of the real output (2 * (m - 1) by default).
    axis : int, optional
        The axis to transform (the last by default).
    norm : {None, "backward", "ortho", "forward"}, optional
        Scaling, as fft.
    out : ndarray, optional
        A garray array of the result's shape and dtype to write into.

    Returns
    -------
    ndarray
        Real (float16 for float16 input, float32 for complex64/float32, else float64),
        on the input's device.
    """
    a = as_array(a, "a")
    if n is None:       # NumPy reads the axis's length before it checks norm
        normalize_axis(axis, a.ndim)
    nrm = _swap_norm(norm)
    if _kind_of(a.dtype) == "c":
        a = conj(a)
    return irfft(a, n, axis, nrm, out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of ``hfft`` (``numpy.fft.ihfft``): ``conj(rfft(a, n, axis, swapped
    norm))`` for a real input.

    Parameters
    ----------
    a : ndarray or array_like
        Real input.
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
    a = as_array(a, "a")
    if n is None:       # NumPy reads the axis's length before it checks norm
        normalize_axis(axis, a.ndim)
    nrm = _swap_norm(norm)
    y = conj(rfft(a, n, axis, nrm))
    if out is None:
        return y
    return _put(y, out, "ihfft")


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional FFT of a real input (``numpy.fft.rfftn``): ``rfft`` over the last
    axis of ``axes``, then ``fft`` over the others.

    Parameters
    ----------
    a : ndarray or array_like
        Real input (complex raises TypeError); float32 gives complex64, other real
        dtypes complex128.
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
    a = as_array(a, "a")
    s, axes = _cook_nd(a, s, axes, fname="rfftn")
    if not axes:
        raise IndexError("rfftn: axes is empty (at least one axis is needed)")
    if s[-1] is not None:
        _points(s[-1], None)
    _scale(norm, 1, False)
    _check_real(a, "rfftn")     # NumPy's order: the real transform's n, norm, dtype
    for n in s[:-1]:
        if n is not None:
            _points(n, None)
    cdt = _complex_dtype(_real_dtype(a.dtype))
    a = _rfft(a, s[-1], axes[-1], norm, None, wide=True)
    for ii in reversed(range(len(axes) - 1)):     # NumPy's order (repeated axes)
        a = _c2c(a, s[ii], axes[ii], norm, False, None, "rfftn", wide=True)
    return _put(_narrow(a, cdt), out, "rfftn")


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """Inverse of ``rfftn`` (``numpy.fft.irfftn``): ``ifft`` over all but the last axis of
    ``axes``, then ``irfft`` (length ``s[-1]``, default ``2 * (m - 1)``).

    Parameters
    ----------
    a : ndarray or array_like
        Complex input (the non-negative frequency half of a Hermitian spectrum).
    s : sequence of int, optional
        Output lengths (the last: of the real output, 2 * (m - 1) by default).
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
        Real (float32 for complex64/float32 input, else float64), on the input's device.
    """
    a = as_array(a, "a")
    s, axes = _cook_nd(a, s, axes, invreal=True, fname="irfftn")
    for n in s:
        if n is not None:
            _points(n, None)
    if not axes:
        raise IndexError("irfftn: axes is empty (at least one axis is needed)")
    # as NumPy: the last (real) transform of a float16 input alone keeps float16
    rdt = a.dtype if _dtypes.is_narrow(a.dtype) and len(axes) == 1 else _real_dtype(a.dtype)
    for ii in range(len(axes) - 1):
        a = _c2c(a, s[ii], axes[ii], norm, True, None, "irfftn", wide=True)
    return _irfft(a, s[-1], axes[-1], norm, out, rdt)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """2-dimensional FFT of a real input (``numpy.fft.rfft2``).

    Parameters
    ----------
    a : ndarray or array_like
        Real input (complex raises TypeError); float32 gives complex64, other real
        dtypes complex128.
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
    return rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Inverse of ``rfft2`` (``numpy.fft.irfft2``).

    Parameters
    ----------
    a : ndarray or array_like
        Complex input (the non-negative frequency half of a Hermitian spectrum).
    s : sequence of int, optional
        Output lengths (the last: of the real output, 2 * (m - 1) by default).
    axes : sequence of int, optional
        The axes to transform (the last two by default).
    norm : {None, "backward", "ortho", "forward"}, optional
        Scaling, as fft.
    out : ndarray, optional
        A garray array of the result's shape and dtype to write into.

    Returns
    -------
    ndarray
        Real (float32 for complex64/float32 input, else float64), on the input's device.
    """
    return irfftn(a, s, axes, norm, out)
