"""Registering garray with Dask without importing Dask (see docs/dask.md, "Registration").

Dask must know garray's array type before it meets one: in ``dask.sizeof``, as a chunk
type (``dask.array.register_chunk_type``) and in ``dask.array``'s per-type dispatch
tables (concatenate, tensordot, ...), and in ``distributed``'s serializers.  Dask and
Distributed register CuPy themselves; for garray, garray does it, per module, at
whichever of these comes first:

* ``import garray`` when the module is already imported (``install`` below, called at
  the end of ``garray/__init__.py``): this covers ``import dask.array`` before
  ``import garray``, and Dask workers, which import garray when they unpickle a garray
  array (or a garray type name in a message header);
* the import of ``dask``, ``dask.array`` or ``distributed`` after garray's: a post-import
  hook (one ``sys.meta_path`` finder, below) registers once the module has executed, so
  ``import garray; import dask.array`` works too, and a process that never imports Dask
  never imports it;
* the ``garray`` array backend's entry point (``GarrayBackendEntrypoint.__init__``).

What needs ``dask.array`` is in ``garray/_dask.py``; this module imports nothing of
Dask until one of those happens.
"""

import sys
import threading
import warnings

import numpy

from ._core import asarray, asnumpy, broadcast_to, ndarray

_lock = threading.RLock()     # garray._dask's last line registers, maybe under it
_done = set()            # "sizeof", "array": what has been registered
_finder = None


def _sizeof_garray(x):
    """Bytes a garray array holds (``dask.sizeof``): a broadcast view (a stride of 0)
    counts only the elements it stores, as Dask counts NumPy's."""
    if 0 in x.strides:
        x = x[tuple(slice(None) if s != 0 else slice(1) for s in x.strides)]
    return int(x.nbytes)


def _host(x):
    """``x``'s values on the host: on the CPU device a NumPy view of its memory (which
    keeps ``x`` alive; no copy), else a copy."""
    if x.device.kind == "cpu":
        return numpy.asarray(x)
    return asnumpy(x)


def _tokenize_garray(x):
    """Dask's token of a garray array (``dask.base.tokenize``, e.g. the name of
    ``da.from_array(x)``): a hash of its bytes (one host copy from a GPU) with dtype,
    shape and device, as Dask hashes NumPy's.  Without it Dask pickles and unpickles
    the array up to three times to hash it."""
    from dask.hashing import hash_buffer_hex
    h = _host(x)
    if not h.shape:
        return (h.item(), h.dtype.str, str(x.device))
    return (hash_buffer_hex(h.ravel(order="K").view("i1")), h.dtype.str, h.shape,
            str(x.device))


def register_sizeof():
    """Register garray arrays with ``dask.sizeof`` and ``dask.base.tokenize`` (needs
    only ``dask``)."""
    with _lock:
        if "sizeof" in _done:
            return
        from dask.sizeof import sizeof
        from dask.base import normalize_token
        sizeof.register(ndarray)(_sizeof_garray)
        normalize_token.register(ndarray)(_tokenize_garray)
        _done.add("sizeof")


def register_array():
    """Register garray with ``dask.array`` (chunk type and dispatch tables)."""
    register_sizeof()
    with _lock:
        if "array" in _done:
            return
        from . import _dask   # here, not at the top: importing _dask imports Dask
        if "array" in _done:          # importing _dask just now ran its last line
            return
        reg = getattr(_dask, "register", None)
        if reg is None:
            # garray._dask is being imported and is importing dask.array, whose
            # post-import hook brought us here: its last line registers
            return
        reg()
        _done.add("array")


def _dask_serialize_garray(x, context=None):
    """Distributed's "dask" serializer for garray arrays: the host bytes (NumPy's
    serializer; a broadcast view sends only the elements it stores) and, in the header,
    the broadcast shape.  The device is not sent: see ``_dask_deserialize_garray``."""
    from distributed.protocol.numpy import serialize_numpy_ndarray
    shape = None
    if 0 in x.strides:
        shape = x.shape
        x = x[tuple(slice(None) if s != 0 else slice(1) for s in x.strides)]
    header, frames = serialize_numpy_ndarray(_host(x), context)
    return {"numpy": header, "broadcast_to": shape}, frames


def _dask_deserialize_garray(header, frames):
    """A garray array on the receiving process's current device (a Dask worker's
    ``GARRAY_DEVICE``), as CuPy's deserializer gives one on the current GPU: a chunk sent
    from a worker on ``cuda:0`` to one on ``cuda:1`` lands on ``cuda:1``."""
    from distributed.protocol.numpy import deserialize_numpy_ndarray
    x = asarray(deserialize_numpy_ndarray(header["numpy"], frames), copy=True)
    if header.get("broadcast_to") is not None:
        x = broadcast_to(x, tuple(header["broadcast_to"]))
    return x


def register_distributed():
    """Register garray arrays with Distributed's "dask" serialization family."""
    with _lock:
        if "distributed" in _done:
            return
        from distributed.protocol.serialize import dask_deserialize, dask_serialize
        dask_serialize.register(ndarray)(_dask_serialize_garray)
        dask_deserialize.register(ndarray)(_dask_deserialize_garray)
        _done.add("distributed")


_REGISTER = {"dask": register_sizeof, "dask.array": register_array,
             "distributed": register_distributed}


def _after_import(name):
    try:
        _REGISTER[name]()
    except Exception as e:  # noqa: BLE001 - never break the user's import of Dask
        warnings.warn(f"garray could not register itself with {name} ({type(e).__name__}: "
                      f"{e}); Dask may treat garray arrays as unknown objects",
                      RuntimeWarning, stacklevel=2)


class _PostImportFinder:
    """A ``sys.meta_path`` finder that finds nothing itself: for ``dask`` and
    ``dask.array`` it asks the other finders for the module's spec and wraps that spec's
    loader's ``exec_module`` (on the loader instance, which is made per spec) so that
    garray registers once the module has executed.  It removes itself when done."""

    def __init__(self, names):
        self.pending = set(names)
        self._busy = threading.local()

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.pending or getattr(self._busy, "on", False):
            return None
        self._busy.on = True
        try:
            spec = None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    break
        finally:
            self._busy.on = False
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module):
            run(module)
            self._fired(fullname)
            _after_import(fullname)

        loader.exec_module = exec_module
        return spec

    def _fired(self, name):
        self.pending.discard(name)
        if not self.pending:
            try:
                sys.meta_path.remove(self)
            except ValueError:
                pass


def install():
    """Register with what is imported already (dask, dask.array, distributed); watch
    for the imports of the rest."""
    global _finder
    watch = []
    for name in _REGISTER:       # dask before dask.array: sizeof is part of both
        if name in sys.modules:
            _after_import(name)
        else:
            watch.append(name)
    if watch and _finder is None:
        _finder = _PostImportFinder(watch)
        sys.meta_path.insert(0, _finder)
