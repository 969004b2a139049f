"""Page-locked ("pinned") host memory: ``garray.empty_pinned``, ``garray.zeros_pinned``
(cupyx's names), NumPy arrays that copies to and from a GPU can run asynchronously on a
stream (docs/streams.md).  On the CPU device they are ordinary host memory.
"""

import operator

import numpy

from ._device import get_device

__all__ = ["empty_pinned", "zeros_pinned", "pinned_owner"]


class _PinnedBuffer:
    """Owns one allocation of page-locked memory; NumPy arrays over it keep it alive."""

    __slots__ = ("device", "ptr", "nbytes", "__array_interface__", "__weakref__")

    def __init__(self, device, nbytes):
        self.device, self.nbytes, self.ptr = device, nbytes, 0
        self.ptr = device.runtime.host_alloc(max(nbytes, 1))
        self.__array_interface__ = {"version": 3, "data": (self.ptr, False),
                                    "shape": (nbytes,), "typestr": "|u1"}

    def __del__(self):
        if self.ptr:
            try:
                self.device.runtime.host_free(self.ptr)
            except Exception:  # noqa: BLE001 - at exit the driver may be gone
                pass
            self.ptr = 0


def _shape_tuple(shape):
    try:
        if isinstance(shape, (tuple, list)):
            dims = tuple(operator.index(d) for d in shape)
        else:
            dims = (operator.index(shape),)
    except TypeError:
        raise TypeError(f"shape: expected an int or a tuple of ints, got "
                        f"{type(shape).__name__}") from None
    if any(d < 0 for d in dims):
        raise ValueError(f"shape: negative dimensions are not allowed, got {dims}")
    return dims


_PARAMETERS = """
    Parameters
    ----------
    shape : int or tuple of ints
        The shape.
    dtype : data-type, optional
        NumPy's dtype (default float64).
    order : {'C', 'F'}, optional
        Memory layout.
    device : Device or str, optional
        The GPU whose driver pins the memory (default: the current device).

    Returns
    -------
    numpy.ndarray
"""


def empty_pinned(shape, dtype=float, order="C", *, device=None):
    if order not in ("C", "F"):
        raise ValueError(f"order: must be 'C' or 'F', got {order!r}")
    dims = _shape_tuple(shape)
    dt = numpy.dtype(dtype)
    n = 1
    for d in dims:
        n *= d
    buf = numpy.asarray(_PinnedBuffer(get_device(device), n * dt.itemsize))
    return numpy.ndarray(dims, dt, buffer=buf, order=order)


def zeros_pinned(shape, dtype=float, order="C", *, device=None):
    out = empty_pinned(shape, dtype, order, device=device)
    out[...] = 0
    return out


empty_pinned.__doc__ = """A NumPy array in page-locked host memory, uninitialised
    (``cupyx.empty_pinned``).

    Copies between it and a GPU array can be asynchronous: ``x.get(out=h, stream=s,
    blocking=False)`` and ``x.set(h, stream=s)`` return before the copy has run (wait
    with ``s.synchronize()`` or an event before touching ``h``).
""" + _PARAMETERS + """
    See Also
    --------
    numpy.empty
    """
zeros_pinned.__doc__ = """``empty_pinned`` filled with zeros (``cupyx.zeros_pinned``).
""" + _PARAMETERS + """
    See Also
    --------
    numpy.zeros
    """


def pinned_owner(arr):
    """The pinned buffer holding all of NumPy array ``arr``'s data, or None."""
    b = arr
    while b is not None:
        if isinstance(b, _PinnedBuffer):
            lo = arr.__array_interface__["data"][0]
            span = arr.nbytes if arr.flags.c_contiguous or arr.flags.f_contiguous else None
            if span is not None and b.ptr <= lo and lo + span <= b.ptr + b.nbytes:
                return b
            return None
        b = getattr(b, "base", None)
    return None
