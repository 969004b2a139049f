"""Controls of the GPU vendor FFT path (cuFFT on NVIDIA, hipFFT on AMD): its plan cache.

The path itself is chosen by ``GARRAY_FFT`` (``kernel``, ``vendor`` or ``auto``; docs/fft.md).
Plans are cached per thread and per device (a vendor plan belongs to one device and must
not run on two threads at once); the CPU device has no plans.
"""

from .._vendor import gpufft as _gpufft

__all__ = ["get_plan_cache_size", "set_plan_cache_size", "clear_plan_cache",
           "get_plan_cache_info"]


def get_plan_cache_size():
    """The most vendor FFT plans kept per thread and device.

    Returns
    -------
    int
        The bound (16 by default; 0: a plan is made and destroyed for each call).
    """
    return _gpufft.plan_cache_size()


def set_plan_cache_size(size):
    """Bound the vendor FFT plans kept per thread and device.

    Parameters
    ----------
    size : int
        The most plans kept (>= 0); 0 makes and destroys a plan for each transform.
        Lowering the bound drops every thread's cached plans at its next transform.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        ``size`` is not an int.
    ValueError
        ``size`` is negative.
    """
    _gpufft.set_plan_cache_size(size)


def clear_plan_cache():
    """Destroy this thread's cached vendor FFT plans now (their work areas go back to
    the vendor), and every other thread's at its next transform.

    Returns
    -------
    None
    """
    _gpufft.clear_plan_cache()


def get_plan_cache_info():
    """This thread's vendor FFT plan cache.

    Returns
    -------
    dict
        ``size`` (plans held), ``max_size``, ``hits``, ``misses`` and ``plans``: a list
        of ``(device, type code, length, batch)``, least recently used first.
    """
    return _gpufft.plan_cache_info()
