"""CPU backend: the host as a device (``cpu:0``), see Note [Backend interface].

Always available, with exactly one device.  Memory comes from libc's
``posix_memalign`` (64-byte aligned) through ctypes; copies are ``memmove`` and
fills ``memset``.  The CPU runs everything synchronously, so streams are plain
handles and events just record ``time.perf_counter()`` -- but they are real
objects, checked when used, so code written against a GPU backend behaves the
same here.  Only the standard library is imported; libc is loaded on first use.

``GARRAY_CPU_WARP_SIZE`` (32, the default, or 64) sets the warp size that the CPU
reports, so kernels written for either GPU vendor's warp can be tested on the host.
"""

import ctypes
import ctypes.util
import errno
import operator
import os
import platform
import time

from .._errors import BackendError

KIND = "cpu"
ALIGNMENT = 64
_WARP_ENV = "GARRAY_CPU_WARP_SIZE"

_libc = None


def _get_libc():
    global _libc
    if _libc is None:
        name = ctypes.util.find_library("c")
        lib = ctypes.CDLL(name, use_errno=True) if name else ctypes.CDLL(None, use_errno=True)
        lib.posix_memalign.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_size_t]
        lib.posix_memalign.restype = ctypes.c_int
        lib.free.argtypes = [ctypes.c_void_p]
        lib.free.restype = None
        _libc = lib
    return _libc


def warp_size():
    """The CPU's warp size: ``GARRAY_CPU_WARP_SIZE`` (32 or 64), default 32."""
    raw = os.environ.get(_WARP_ENV, "").strip()
    if not raw:
        return 32
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value not in (32, 64):
        raise ValueError(f"{_WARP_ENV} must be 32 or 64; got {raw!r}")
    return value


def probe():
    """Number of CPU devices: always 1."""
    return 1


def availability():
    return True, "1 device(s)"


def _cpu_name():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep and key.strip() in ("model name", "Model", "cpu model") and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "cpu"


def _total_memory():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


class _Handle:
    """A stream or event of the CPU device; fails loudly once destroyed."""

    __slots__ = ("destroyed",)
    what = "handle"

    def __init__(self):
        self.destroyed = False

    def check(self, call):
        if self.destroyed:
            raise BackendError(f"cpu: {call}: {self.what} was destroyed")


class Stream(_Handle):
    __slots__ = ()
    what = "stream"


class Event(_Handle):
    __slots__ = ("time",)
    what = "event"

    def __init__(self):
        super().__init__()
        self.time = None


def _handle(h, cls, call):
    if not isinstance(h, cls):
        raise BackendError(f"cpu: {call}: expected a cpu {cls.what}, got {type(h).__name__}")
    h.check(call)
    return h


def _stream(stream, call):
    if stream is not None:
        _handle(stream, Stream, call)


class Runtime:
    """The CPU device; every operation completes before it returns."""

    kind = KIND

    def __init__(self, index=0):
        index = operator.index(index)
        if index != 0:
            raise ValueError(f"device: cpu has one device, index 0; got cpu:{index}")
        self.index = 0

    def __repr__(self):
        return "<garray cpu runtime cpu:0>"

    def properties(self):
        return {
            "name": _cpu_name(),
            "warp_size": warp_size(),
            "multiprocessor_count": os.cpu_count() or 1,
            "shared_memory_per_block": 65536,
            "total_memory": _total_memory(),
            "arch": platform.machine(),
        }

    # -- memory ----------------------------------------------------------
    def malloc(self, nbytes):
        nbytes = operator.index(nbytes)
        if nbytes < 0:
            raise ValueError(f"cpu: malloc: negative size {nbytes}")
        if nbytes == 0:
            return 0
        ptr = ctypes.c_void_p()
        rc = _get_libc().posix_memalign(ctypes.byref(ptr), ALIGNMENT, nbytes)
        if rc == errno.ENOMEM:
            raise MemoryError(f"cpu: posix_memalign failed: ENOMEM ({nbytes} bytes)")
        if rc != 0 or not ptr.value:
            raise BackendError(f"cpu: posix_memalign failed: {errno.errorcode.get(rc, rc)}")
        return ptr.value

    def free(self, ptr):
        if ptr:
            _get_libc().free(ptr)

    host_alloc = malloc     # host memory is what the CPU device computes on
    host_free = free

    def memcpy_htod(self, dst, src_host, nbytes, stream=None):
        _stream(stream, "memcpy_htod")
        ctypes.memmove(dst, src_host, nbytes)

    def memcpy_dtoh(self, dst_host, src, nbytes, stream=None):
        _stream(stream, "memcpy_dtoh")
        ctypes.memmove(dst_host, src, nbytes)

    def memcpy_dtod(self, dst, src, nbytes, stream=None):
        _stream(stream, "memcpy_dtod")
        ctypes.memmove(dst, src, nbytes)

    def memset(self, ptr, byte, nbytes, stream=None):
        if not 0 <= byte <= 255:
            raise ValueError(f"cpu: memset: byte must be in 0..255; got {byte}")
        _stream(stream, "memset")
        ctypes.memset(ptr, byte, nbytes)

    # -- streams and events -----------------------------------------------
    def stream_create(self, non_blocking=False, priority=None):
        return Stream()

    def stream_destroy(self, h):
        _handle(h, Stream, "stream_destroy").destroyed = True

    def stream_synchronize(self, h):
        _handle(h, Stream, "stream_synchronize")

    def stream_query(self, h):
        _handle(h, Stream, "stream_query")
        return True

    def stream_wait_event(self, stream, event):
        _handle(stream, Stream, "stream_wait_event")
        _handle(event, Event, "stream_wait_event")

    def event_create(self, timing=True, blocking=False):
        return Event()

    def event_destroy(self, h):
        _handle(h, Event, "event_destroy").destroyed = True

    def event_record(self, h, stream=None):
        _stream(stream, "event_record")
        _handle(h, Event, "event_record").time = time.perf_counter()

    def event_synchronize(self, h):
        _handle(h, Event, "event_synchronize")

    def event_query(self, h):
        _handle(h, Event, "event_query")
        return True

    def event_elapsed_ms(self, start, end):
        t0 = _handle(start, Event, "event_elapsed_ms").time
        t1 = _handle(end, Event, "event_elapsed_ms").time
        if t0 is None or t1 is None:
            raise BackendError("cpu: event_elapsed_ms: event was never recorded")
        return (t1 - t0) * 1000.0

    def synchronize(self):
        pass
