# Note [Current streams]
# ~~~~~~~~~~~~~~~~~~~~~~
# Where GPU work is queued (the objects users see are in garray/_streams.py).
# 1. Each thread has, per device, a current stream: the one ``with stream:`` or
#    ``stream.use()`` made current, else the device's default stream.  The state is a
#    thread-local dict {device: (handle, pool, Stream)}, read by every launch, copy,
#    memset and vendor call (``_stream_of``) and by every allocation (``_pool_of``).
# 2. Until a program makes a stream current, nothing is looked up: ``_streams_on`` is
#    False and the handle is the default stream's (0, the legacy default stream of
#    both vendors; 2, the per-thread default stream, under GARRAY_STREAM_PER_THREAD=1),
#    so code without streams pays one branch per call.
# 3. Each non-default stream allocates from a memory pool of its own (segments owned
#    by one stream, as PyTorch's caching allocator): a block freed goes back to the
#    pool it came from and is reused only by work on the same stream, which the stream
#    orders after every earlier use.  An array used on a second stream must be kept
#    alive, or marked with ``x.record_stream(s)``, until that stream is done with it.
# 4. Under GARRAY_STREAM_PER_THREAD=1 the default stream is per thread, so each thread
#    also gets a pool per device (the entry is made on the thread's first allocation).
# 5. The CPU device runs everything in order at once: its streams and events keep the
#    API (a stream is a queue that is always drained), and it has one pool.

import threading

cdef object _stream_tls = threading.local()
cdef bint _streams_on = False
cdef bint _per_thread_default = _env.flag("GARRAY_STREAM_PER_THREAD")
cdef intptr_t _default_handle = 2 if _per_thread_default else 0
if _per_thread_default:
    _streams_on = True


cdef dict _stream_table():
    cdef object t = getattr(_stream_tls, "table", None)
    if t is None:
        t = {}
        _stream_tls.table = t
    return <dict>t


cdef MemoryPool _thread_pool(object dev):
    """This thread's pool for its per-thread default stream (handle 2) on ``dev``."""
    pools = getattr(_stream_tls, "pools", None)
    if pools is None:
        pools = _stream_tls.pools = {}
    p = pools.get(dev)
    if p is None:
        p = pools[dev] = MemoryPool(dev, 2, False)
    return <MemoryPool>p


def _per_thread_pool(object dev):
    """``_thread_pool`` for garray._streams (a ``Stream(ptds=True)`` made current)."""
    return _thread_pool(dev)


cdef tuple _stream_entry(object dev):
    """This thread's (handle, pool, Stream) for a GPU ``dev``, or None: the default
    stream and the device's own pool."""
    cdef dict t = _stream_table()
    e = t.get(dev)
    if e is None and _per_thread_default and dev.kind != "cpu":
        e = (2, _thread_pool(dev), None)
        t[dev] = e
    return e


cdef inline intptr_t _stream_of(object dev) except? -1:
    """The handle of ``dev``'s current stream on this thread (GPU devices)."""
    if not _streams_on:
        return _default_handle
    e = _stream_entry(dev)
    if e is None:
        return _default_handle
    return <intptr_t>(<tuple>e)[0]


def _set_current_stream(object dev, object stream, object handle, object pool):
    """Make ``stream`` (handle, pool) current for ``dev`` on this thread; stream None
    restores the default.  Returns the previous (handle, pool, Stream) or None."""
    global _streams_on
    cdef dict t = _stream_table()
    prev = t.get(dev)
    if stream is None:
        t.pop(dev, None)
    else:
        _streams_on = True
        t[dev] = (handle, pool, stream)
    return prev


def _restore_current_stream(object dev, object prev):
    """Put back what ``_set_current_stream`` returned."""
    cdef dict t = _stream_table()
    if prev is None:
        t.pop(dev, None)
    else:
        t[dev] = prev


def _current_stream_entry(object dev):
    """This thread's (handle, pool, Stream) for ``dev`` or None (the default stream)."""
    if not _streams_on:
        return None
    return _stream_entry(dev)


def _default_stream_handle():
    """0 (legacy default stream) or 2 (per-thread default stream)."""
    return _default_handle


def _stream_handle_of(object device):
    """The handle of ``device``'s current stream on this thread (vendor calls)."""
    return _stream_of(device)


cdef object _stream_scope(object stream, object device):
    """garray._streams.stream_scope (imported on first use: it imports this module)."""
    from garray._streams import stream_scope
    return stream_scope(stream, device)


# Copies and fills on the current stream.  A host buffer handed to the driver is
# pageable NumPy memory that the caller may drop at once, so a copy from or to the
# host returns only when the current stream has run it (the stream, not the device:
# work queued on other streams keeps running).  The default legacy stream keeps the
# drivers' synchronous calls.

cdef int _copy_dtoh(object dev, intptr_t host, intptr_t src, size_t nbytes) except -1:
    cdef intptr_t s = _stream_of(dev)
    rt = dev.runtime
    if s == 0:
        rt.memcpy_dtoh(host, src, nbytes)
    else:
        rt.memcpy_dtoh(host, src, nbytes, stream=s)
        rt.stream_synchronize(s)
    return 0


cdef int _copy_htod(object dev, intptr_t dst, intptr_t host, size_t nbytes) except -1:
    cdef intptr_t s = _stream_of(dev)
    rt = dev.runtime
    if s == 0:
        rt.memcpy_htod(dst, host, nbytes)
    else:
        rt.memcpy_htod(dst, host, nbytes, stream=s)
        rt.stream_synchronize(s)
    return 0


cdef int _copy_dtod(object dev, intptr_t dst, intptr_t src, size_t nbytes) except -1:
    cdef intptr_t s = _stream_of(dev)
    if s == 0:
        dev.runtime.memcpy_dtod(dst, src, nbytes)
    else:
        dev.runtime.memcpy_dtod(dst, src, nbytes, stream=s)
    return 0


cdef int _fill_bytes(object dev, intptr_t ptr, int byte, size_t nbytes) except -1:
    cdef intptr_t s = _stream_of(dev)
    if s == 0:
        dev.runtime.memset(ptr, byte, nbytes)
    else:
        dev.runtime.memset(ptr, byte, nbytes, stream=s)
    return 0


# Pinned host memory (garray/_pinned.py): copies to and from it may stay queued.
cdef object _pinned_mod = None


cdef bint _is_pinned(object h) except -1:
    global _pinned_mod
    if _pinned_mod is None:
        from garray import _pinned as m      # here: garray._pinned imports the core
        _pinned_mod = m
    return _pinned_mod.pinned_owner(h) is not None


cdef object _get_into(ndarray a, object out, bint blocking):
    """ndarray.get(out=out): the array's values copied into the NumPy array ``out`` on
    the current stream; with ``blocking`` False (pinned ``out`` only) still queued."""
    cdef ndarray src
    cdef intptr_t s
    if not isinstance(out, numpy.ndarray):
        raise TypeError(f"out: expected a numpy.ndarray, got {type(out).__name__}")
    if out.shape != a.shape:
        raise ValueError(f"out: shape {out.shape} does not match the array's {a.shape}")
    if out.dtype != a._dtype:
        raise TypeError(f"out: dtype {out.dtype} does not match the array's {a._dtype}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out: must be a writeable C-contiguous array")
    pinned = _is_pinned(out)
    if not blocking and not pinned:
        raise ValueError("blocking: False needs out= in pinned host memory "
                         "(garray.empty_pinned)")
    if a._is_cpu:
        numpy.copyto(out, _host_view(a))
        return out
    if a._size == 0:
        return out
    src = a if a._flags & FLAG_C else _copy_array(a)
    if not pinned:
        _copy_dtoh(a._device, out.ctypes.data, src._ptr, a._size * a._itemsize)
        return out
    s = _stream_of(a._device)
    rt = a._device.runtime
    rt.memcpy_dtoh(out.ctypes.data, src._ptr, a._size * a._itemsize, stream=s)
    if blocking:
        rt.stream_synchronize(s)
    return out


cdef bint _set_pinned(ndarray dst, object h) except -1:
    """ndarray.set from pinned, C-contiguous ``h`` into C-contiguous ``dst``: queued on
    the current stream without waiting (False: not that case)."""
    if dst._is_cpu or not (dst._flags & FLAG_C) or not h.flags.c_contiguous:
        return False
    if not _is_pinned(h):
        return False
    dst._device.runtime.memcpy_htod(dst._ptr, h.ctypes.data, dst._size * dst._itemsize,
                                    stream=_stream_of(dst._device))
    return True


# Arrays used on a second stream (ndarray.record_stream, PyTorch's name): when such an
# array's memory is released, an event is recorded on every stream that used it, and
# the block goes back to its pool only once they have all passed (checked at the next
# allocation on any device, as PyTorch's caching allocator does).
cdef dict _recorded = {}        # _alloc_ptr -> [Stream] of live arrays
cdef list _deferred = []        # (pool, ptr, size, device, [event]) waiting for events
cdef Py_ssize_t _n_recorded = 0, _n_deferred = 0


cdef int _record_stream(ndarray a, object stream) except -1:
    global _n_recorded
    cdef ndarray owner = a
    if owner._pool is None:
        if not isinstance(a._base, ndarray) or (<ndarray>a._base)._pool is None:
            return 0                # memory garray does not reuse (DLPack, host views)
        owner = <ndarray>a._base
    if owner._is_cpu or stream.ptr == owner._pool._stream:
        return 0                    # in order already: the CPU device, or its own stream
    lst = _recorded.get(owner._alloc_ptr)
    if lst is None:
        _recorded[owner._alloc_ptr] = lst = []
        _n_recorded += 1
    if stream not in lst:
        lst.append(stream)
    return 0


cdef bint _defer_release(ndarray a):
    """Called as ``a`` (a pool's array) dies: True when its block waits for streams."""
    global _n_recorded, _n_deferred
    streams = _recorded.pop(a._alloc_ptr, None)
    if streams is None:
        return False
    _n_recorded -= 1
    rt = a._device.runtime
    events = []
    try:
        for s in streams:
            ev = rt.event_create(False, False)
            events.append(ev)
            rt.event_record(ev, s._handle)
    except Exception:  # noqa: BLE001 - a dying array cannot raise: wait instead
        for ev in events:
            rt.event_destroy(ev)
        a._device.synchronize()
        return False
    _deferred.append((a._pool, a._alloc_ptr, a._alloc_size, a._device, events))
    _n_deferred += 1
    return True


cdef int _release_deferred() except -1:
    """Give back the blocks whose streams have passed their events."""
    global _n_deferred
    cdef MemoryPool pool
    keep = []
    for item in _deferred:
        pool, ptr, size, dev, events = item
        rt = dev.runtime
        if all(rt.event_query(ev) for ev in events):
            for ev in events:
                rt.event_destroy(ev)
            pool.release(ptr, size)
        else:
            keep.append(item)
    _deferred[:] = keep
    _n_deferred = len(keep)
    return 0


cdef int _copy_peer(ndarray dst, ndarray src) except -1:
    """dst[...] = src, C-contiguous arrays of the same size on two GPUs of one vendor,
    copied by the drivers between the devices (no trip through the host).  On the
    default streams the drivers order the copy after all earlier work of both devices and
    all later work after it; on another current stream of either device, the copy is
    queued on the target's stream after an event of the source's stream, and the
    source's stream waits for an event after the copy, so both arrays may be used or
    freed on their own streams at once, and the host does not wait."""
    cdef intptr_t s_src = _stream_of(src._device), s_dst = _stream_of(dst._device)
    cdef size_t n = dst._size * dst._itemsize
    rt, src_rt = dst._device.runtime, src._device.runtime
    if s_src == 0 and s_dst == 0:
        rt.memcpy_peer(dst._ptr, src._ptr, src_rt, n)
        return 0
    _cross_wait(src_rt, s_src, rt, s_dst)
    rt.memcpy_peer(dst._ptr, src._ptr, src_rt, n, stream=s_dst)
    _cross_wait(rt, s_dst, src_rt, s_src)
    return 0


cdef int _cross_wait(object rt_a, intptr_t a, object rt_b, intptr_t b) except -1:
    """Stream b (of rt_b's device) waits for the work queued so far on stream a (of
    rt_a's device, possibly another): an event recorded on a, waited for by b."""
    ev = rt_a.event_create(False, False)
    try:
        rt_a.event_record(ev, a)
        rt_b.stream_wait_event(b, ev)
    finally:
        rt_a.event_destroy(ev)        # the drivers release it once the wait is done
    return 0
