"""Streams and events: ``garray.Stream``, ``garray.Event``, ``garray.ExternalStream``,
``garray.get_current_stream`` and ``garray.get_elapsed_time`` (docs/streams.md).

The names and behaviour are CuPy's (``cupy.cuda.Stream`` ...), with ``device=`` for the
device a stream or event belongs to (default: the current device).  Which stream a
launch, copy or vendor call uses is decided in one place, Note [Current streams]
(cython/_stream.pxi); this module makes the objects users hold.
"""

import threading

from . import _core
from . import _device as _devmod
from ._device import get_device

__all__ = ["Stream", "ExternalStream", "Event", "get_current_stream", "get_elapsed_time"]

# Handles every vendor gives the default streams (CUDA: CU_STREAM_LEGACY is 1, and 0 is
# the legacy stream as well; HIP: 0; both: 2 is the per-thread default stream).
_NULL, _PER_THREAD = 0, 2

_tls = threading.local()


class Stream:
    """A queue of GPU work that runs in order (``cupy.cuda.Stream``).

    ``with stream:`` (or ``stream.use()``) makes it the current stream of its device for
    the calling thread, and makes its device current: every kernel, copy, fill and
    vendor-library call (BLAS, solver, FFT, DNN) made there is queued on it, and arrays
    allocated there come from the stream's own memory pool.  Work on two streams may
    run concurrently; order it with events (``record``, ``wait_event``).

    Parameters
    ----------
    null : bool
        The device's legacy default stream (what garray uses without streams).
    non_blocking : bool
        Do not synchronise with the legacy default stream (CUDA's
        ``CU_STREAM_NON_BLOCKING``).
    ptds : bool
        The calling thread's per-thread default stream.
    priority : int, optional
        Lower numbers are more urgent; the driver clamps it to the device's range.
    device : Device or str, optional
        The device (default: the current device).

    On the CPU device every operation has finished when its call returns: a stream is
    an always-empty queue, so code written for a GPU runs unchanged.

    See Also
    --------
    garray.Event, garray.ExternalStream, garray.get_current_stream
    """

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=None, *,
                 device=None):
        if null and ptds:
            raise ValueError("null, ptds: a stream is the null stream or the per-thread "
                             "default stream, not both")
        if (null or ptds) and (non_blocking or priority is not None):
            raise ValueError("non_blocking, priority: only for a new stream, not the "
                             f"{'null' if null else 'per-thread default'} stream")
        if priority is not None:
            if isinstance(priority, bool) or not isinstance(priority, int):
                raise TypeError(f"priority: expected an int, got {type(priority).__name__}")
        dev = get_device(device)
        if null or ptds:
            handle = None if dev.kind == "cpu" else (_NULL if null else _PER_THREAD)
            self._setup(dev, handle, "null" if null else "ptds", False, False, None)
        else:
            self._setup(dev, dev.runtime.stream_create(bool(non_blocking), priority), "new",
                        True, bool(non_blocking), priority)

    def _setup(self, device, handle, kind, owned, non_blocking, priority):
        self.device, self._handle, self._kind, self._owned = device, handle, kind, owned
        self.non_blocking, self.priority = non_blocking, priority
        self._pool = None
        self._closed = False

    # -- identity ------------------------------------------------------------------
    @property
    def ptr(self):
        """The driver's handle as an int (0: the legacy default stream; on the CPU
        device an identifier of the queue)."""
        h = self._handle
        if h is None:
            return 0
        return h if isinstance(h, int) else id(h)

    @property
    def device_id(self):
        return self.device.index

    def __eq__(self, other):
        return (isinstance(other, Stream) and other.device is self.device
                and other.ptr == self.ptr)

    def __hash__(self):
        return hash((self.device, self.ptr))

    def __repr__(self):
        what = {"null": "null", "ptds": "per-thread default"}.get(self._kind, "")
        return f"<garray.{type(self).__name__} {what + ' ' if what else ''}" \
               f"{self.ptr:#x} on {self.device}>"

    # -- the current stream ----------------------------------------------------------
    def _pool_for_use(self):
        dev = self.device
        if dev.kind == "cpu" or self._kind == "null":
            return None            # the device's own pool
        if self._kind == "ptds":
            return _core._per_thread_pool(dev)     # the one the default path uses too
        if self._pool is None:
            self._pool = _core.MemoryPool(dev, self._handle, self._sync_before_free())
        return self._pool

    def _sync_before_free(self):
        return self.non_blocking

    def _entry(self):
        self._check_open("use")
        pool = self._pool_for_use()
        if pool is None and self._kind == "null" and _core._default_stream_handle() == _NULL:
            return None            # the default: no entry at all
        return (self, self._handle if self.device.kind != "cpu" else 0,
                pool if pool is not None else self.device.pool)

    def use(self):
        """Make this the current stream of its device for the calling thread (until
        another is made current).

        Returns
        -------
        Stream
            This stream.
        """
        entry = self._entry()
        if entry is None:
            _core._set_current_stream(self.device, None, None, None)
        else:
            _core._set_current_stream(self.device, *entry)
        return self

    def __enter__(self):
        entry = self._entry()
        if entry is None:
            prev = _core._set_current_stream(self.device, None, None, None)
        else:
            prev = _core._set_current_stream(self.device, *entry)
        token = _devmod._current.set(self.device)
        stack = getattr(_tls, "stack", None)
        if stack is None:
            stack = _tls.stack = []
        stack.append((self, prev, token))
        return self

    def __exit__(self, *exc):
        stream, prev, token = _tls.stack.pop()
        if stream is not self:   # pragma: no cover - a with-statement always pairs them
            raise RuntimeError("Stream.__exit__: streams exited out of order")
        _core._restore_current_stream(self.device, prev)
        _devmod._current.reset(token)
        return False

    # -- work ------------------------------------------------------------------------
    def _check_open(self, what):
        if self._closed:
            raise ValueError(f"{what}: the stream was closed")

    def synchronize(self):
        """Wait until all work queued on the stream has finished.

        Returns
        -------
        None
        """
        self._check_open("synchronize")
        if self.device.kind == "cpu":
            return
        self.device.runtime.stream_synchronize(self._handle)

    def query(self):
        """Whether all work queued on the stream has finished.

        Returns
        -------
        bool
        """
        self._check_open("query")
        if self.device.kind == "cpu":
            return True
        return self.device.runtime.stream_query(self._handle)

    @property
    def done(self):
        """``query()`` as a property (CuPy's name)."""
        return self.query()

    def record(self, event=None):
        """Record an event at this point of the stream.

        Parameters
        ----------
        event : Event, optional
            The event to record (a new one when None).

        Returns
        -------
        Event
            The recorded event.
        """
        if event is None:
            event = Event(device=self.device)
        event.record(self)
        return event

    def wait_event(self, event):
        """Make work queued on this stream after this call wait for ``event``; the host
        does not wait.

        Parameters
        ----------
        event : Event
            A recorded event of the stream's device.

        Returns
        -------
        None
        """
        self._check_open("wait_event")
        if not isinstance(event, Event):
            raise TypeError(f"event: expected a garray.Event, got {type(event).__name__}")
        if event.device is not self.device:
            raise ValueError(f"event: on {event.device}, the stream is on {self.device}")
        if self.device.kind == "cpu":
            return
        self.device.runtime.stream_wait_event(self._handle, event._handle)

    def close(self):
        """Wait for the stream's work and destroy it (also done when it is collected).
        Arrays allocated on it stay valid; a stream garray did not create is left alone.

        Returns
        -------
        None
        """
        if self._closed or not self._owned:
            return
        self._closed = True
        rt = self.device.runtime
        if self.device.kind == "cpu":
            rt.stream_destroy(self._handle)
            return
        rt.stream_synchronize(self._handle)
        if self._pool is not None:
            self._pool._stream_closed()
        rt.stream_destroy(self._handle)

    def __del__(self):
        try:
            self.close()
        except Exception:   # noqa: BLE001 - at exit the driver may be gone
            pass


class ExternalStream(Stream):
    """A stream made by another library (a driver handle as an int), used as garray's
    own; garray never destroys it (``cupy.cuda.ExternalStream``).

    Parameters
    ----------
    ptr : int
        The handle (``torch.cuda.Stream.cuda_stream``, ``cupy.cuda.Stream.ptr`` ...).
    device : Device or str, optional
        The device it belongs to (default: the current device).
    """

    def __init__(self, ptr, device=None):
        if isinstance(ptr, bool) or not isinstance(ptr, int):
            raise TypeError(f"ptr: expected an int stream handle, got {type(ptr).__name__}")
        if ptr < 0:
            raise ValueError(f"ptr: a stream handle is non-negative, got {ptr}")
        dev = get_device(device)
        if dev.kind == "cpu":
            raise ValueError("device: the CPU device has no driver streams to share")
        if ptr == 1 and dev.kind == "cuda":
            ptr = _NULL                # CU_STREAM_LEGACY: the legacy default stream
        self._setup(dev, ptr, {_NULL: "null", _PER_THREAD: "ptds"}.get(ptr, "new"), False,
                    False, None)

    def _sync_before_free(self):
        return True                    # whether it blocks is the other library's choice


class Event:
    """A point in a stream's work (``cupy.cuda.Event``).

    Parameters
    ----------
    block : bool
        ``synchronize()`` blocks the thread instead of spinning.
    disable_timing : bool
        Cheaper events that ``get_elapsed_time`` refuses.
    interprocess : bool
        Not supported (raises NotImplementedError).
    device : Device or str, optional
        The device (default: the current device).
    """

    def __init__(self, block=False, disable_timing=False, interprocess=False, *,
                 device=None):
        if interprocess:
            raise NotImplementedError("interprocess: garray events are not shared "
                                      "between processes")
        self.device = get_device(device)
        self.disable_timing = bool(disable_timing)
        self._recorded = False
        self._handle = self.device.runtime.event_create(not self.disable_timing, bool(block))

    @property
    def ptr(self):
        h = self._handle
        return h if isinstance(h, int) else id(h)

    def __repr__(self):
        return f"<garray.Event {self.ptr:#x} on {self.device}>"

    def record(self, stream=None):
        """Record the event at the current point of a stream.

        Parameters
        ----------
        stream : Stream, optional
            The stream (default: the current stream of the event's device).

        Returns
        -------
        None
        """
        if stream is None:
            stream = get_current_stream(self.device)
        elif not isinstance(stream, Stream):
            raise TypeError(f"stream: expected a garray.Stream, got {type(stream).__name__}")
        if stream.device is not self.device:
            raise ValueError(f"stream: on {stream.device}, the event is on {self.device}")
        stream._check_open("Event.record")
        self.device.runtime.event_record(self._handle, stream._handle)
        self._recorded = True

    def synchronize(self):
        """Wait until the work before the event's record has finished.

        Returns
        -------
        None
        """
        self.device.runtime.event_synchronize(self._handle)

    def query(self):
        """Whether the work before the event's record has finished.

        Returns
        -------
        bool
        """
        return self.device.runtime.event_query(self._handle)

    @property
    def done(self):
        return self.query()

    def elapsed_time(self, end):
        """Milliseconds from this event to ``end`` (torch's name for
        ``garray.get_elapsed_time``).

        Parameters
        ----------
        end : Event
            A later recorded event of the same device.

        Returns
        -------
        float
        """
        return get_elapsed_time(self, end)

    def __del__(self):
        try:
            self.device.runtime.event_destroy(self._handle)
        except Exception:   # noqa: BLE001 - at exit the driver may be gone
            pass


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events of one device; waits for ``end_event``.

    Parameters
    ----------
    start_event, end_event : Event
        Timed events (not ``disable_timing=True``), both recorded.

    Returns
    -------
    float

    See Also
    --------
    cupy.cuda.get_elapsed_time
    """
    pair = (("start_event", start_event), ("end_event", end_event))
    for name, e in pair:            # types first: a wrong argument is a TypeError
        if not isinstance(e, Event):
            raise TypeError(f"{name}: expected a garray.Event, got {type(e).__name__}")
    for name, e in pair:
        if e.disable_timing:
            raise ValueError(f"{name}: the event was created with disable_timing=True")
        if not e._recorded:
            raise ValueError(f"{name}: the event was never recorded")
    if start_event.device is not end_event.device:
        raise ValueError(f"end_event: on {end_event.device}, start_event is on "
                         f"{start_event.device}")
    end_event.synchronize()
    return start_event.device.runtime.event_elapsed_ms(start_event._handle, end_event._handle)


_defaults = {}


def get_current_stream(device=None):
    """The calling thread's current stream of a device: the one ``with stream:`` or
    ``stream.use()`` made current, else the default stream (the legacy null stream; the
    per-thread one under ``GARRAY_STREAM_PER_THREAD=1``).

    Parameters
    ----------
    device : Device or str, optional
        The device (default: the current device).

    Returns
    -------
    Stream

    See Also
    --------
    cupy.cuda.get_current_stream
    """
    dev = get_device(device)
    entry = _core._current_stream_entry(dev)
    if entry is not None and entry[2] is not None:
        return entry[2]
    ptds = _core._default_stream_handle() == _PER_THREAD and dev.kind != "cpu"
    key = (dev, ptds)
    s = _defaults.get(key)
    if s is None:
        s = _defaults.setdefault(key, Stream(null=not ptds, ptds=ptds, device=dev))
    return s


class _NoStream:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


_NO_STREAM = _NoStream()


def stream_scope(stream, device, argname="stream"):
    """A context manager making ``stream`` current for a call's ``stream=`` argument:
    None keeps the current stream; a ``Stream`` must be on ``device``; an int is a
    driver handle of ``device`` (``ExternalStream``)."""
    if stream is None:
        return _NO_STREAM
    if isinstance(stream, Stream):
        if stream.device is not device:
            raise ValueError(f"{argname}: a stream of {stream.device}, the data is on {device}")
        return stream
    if isinstance(stream, int) and not isinstance(stream, bool):
        if device.kind == "cpu":
            if stream == 0:
                return _NO_STREAM
            raise ValueError(f"{argname}: the CPU device has no driver stream {stream}")
        return ExternalStream(stream, device)
    raise TypeError(f"{argname}: expected a garray.Stream, an int handle or None, got "
                    f"{type(stream).__name__}")
