"""Vendor library handles of GPU devices, one per (device, thread): the handles of the
vendor families (``_base.VendorFamily``: cuBLAS/hipBLAS, cuSOLVER/hipSOLVER,
cuDNN/MIOpen).

Note [Vendor handles]
~~~~~~~~~~~~~~~~~~~~~
1. A vendor handle (cublasHandle_t, cudnnHandle_t, hipblasHandle_t, miopenHandle_t)
   belongs to the device (CUDA: the context) current when it was created, and contexts
   are current per thread.  So a ``HandlePool`` keeps one handle per (device, thread) in
   a ``threading.local``, creates it with the device current on that thread, and makes
   the device current again before every use (``HandlePool.get``), as garray's kernel
   launches do.  A handle is destroyed (with its device current) when its thread ends,
   or when ``HandlePool.reset()`` replaced it (tests point the library variable
   elsewhere and look again); never at interpreter exit, when the driver may be gone.
2. Streams: a vendor call is queued on the stream garray queues the device's work on
   (``stream_of``: the thread's current stream, where every launch and copy goes), so it
   is ordered with them; ``Handle.use_stream`` calls the vendor's set-stream only when
   the stream differs from the one the handle has.  ``VendorFamily.handle`` is where
   every family binds its handle to that stream.
3. ``Handle.cache`` is a dict that lives and dies with the handle: what a vendor ties to
   a handle goes there (MIOpen's Find results, cuDNN's algorithm choices).
4. ``sync_calls``: ``GARRAY_SYNC_LAUNCHES=1`` (read at import, as the launch path reads
   it) makes every vendor call synchronise after it, so a fault is reported by the call
   that made it.
5. A dropped handle is not destroyed by its finaliser: ``Handle.__del__`` runs wherever
   the garbage collector runs, which may be inside a lock the destroy path needs (a
   library lookup's ``Once`` while ``ctypes.CDLL`` allocates: the CI stub run once
   deadlocked there).  The finaliser only queues the handle (``drop``: a list append,
   no lock), and the next ``HandlePool.get`` on any thread destroys what is queued
   (``destroy_dropped``), with each handle's device made current first.  gpufft.py's
   plans use the same queue.
"""

import atexit
import threading

from .. import _env
from .._core import _stream_handle_of

__all__ = ["Handle", "HandlePool", "stream_of", "sync_calls"]

sync_calls = _env.flag("GARRAY_SYNC_LAUNCHES")
_exiting = False


@atexit.register
def _at_exit():
    # Handles of live threads are not destroyed at exit: the driver may be gone already.
    global _exiting
    _exiting = True


def stream_of(device):
    """The handle of the stream garray queues ``device``'s work on: the calling thread's
    current stream (Note [Current streams], cython/_stream.pxi), where every launch and
    copy of the call goes too."""
    return _stream_handle_of(device)


class Handle:
    """One vendor handle of one device, used by the thread that created it."""

    __slots__ = ("pool", "device", "ptr", "stream", "math_mode", "generation", "cache")

    def __init__(self, pool, device):
        self.pool, self.device = pool, device
        self.ptr = None
        self.ptr = pool.create(device)
        self.stream = 0            # a new handle runs on the default stream
        self.math_mode = None      # unknown until set: set on the first call
        self.generation = pool.generation
        self.cache = {}

    def use_stream(self, stream):
        """Queue the handle's next calls on ``stream`` (the vendor is told only when it
        changes)."""
        if self.stream != stream:
            self.pool.set_stream(self.device, self.ptr, stream)
            self.stream = stream

    def __del__(self):
        # Its thread has ended (or reset() replaced it): queued, not destroyed (note 5).
        if self.ptr is None or _exiting:
            return
        drop(self.device, self.pool.destroy, (self.device, self.ptr))
        self.ptr = None


# (device, destroy, args) of vendor objects dropped by their finalisers (handles here,
# FFT plans in gpufft.py); destroy_dropped() runs them (note 5).
_dropped = []


def drop(device, destroy, args):
    """Queue ``destroy(*args)`` for the next ``destroy_dropped``: what a finaliser does
    instead of destroying (a list append takes no lock)."""
    _dropped.append((device, destroy, args))


def destroy_dropped():
    """Destroy what finalisers queued, each with its device current; called where no
    lock of garray's is held (HandlePool.get, gpufft's plan lookup)."""
    while _dropped:
        try:
            device, destroy, args = _dropped.pop()
        except IndexError:      # another thread took the last one
            return
        try:
            device.runtime.activate()
            destroy(*args)
        except Exception:  # noqa: BLE001 - a failed destroy leaks the object at worst
            pass


class HandlePool:
    """The handles of one vendor library: ``create(device) -> ptr`` (called with the
    device current), ``destroy(device, ptr)``, ``set_stream(device, ptr, stream)``."""

    def __init__(self, create, destroy, set_stream):
        self.create, self.destroy, self.set_stream = create, destroy, set_stream
        self.generation = 0        # bumped by reset(): older handles are remade
        self._local = threading.local()

    def get(self, device):
        """This thread's handle of ``device`` (a ``Handle``), with the device made
        current on this thread; created on first use."""
        if _dropped:
            destroy_dropped()
        handles = getattr(self._local, "handles", None)
        if handles is None:
            handles = self._local.handles = {}
        h = handles.get(device)
        device.runtime.activate()
        if h is None or h.generation != self.generation:
            h = handles[device] = Handle(self, device)
        return h

    def reset(self):
        """Every thread's handles are remade on their next use (the old ones are
        destroyed by their thread, when it drops them)."""
        self.generation += 1
