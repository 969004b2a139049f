"""Device objects, the current-device context and ``GARRAY_DEVICE``.

Note [Devices]
~~~~~~~~~~~~~~
1. A ``Device`` is interned: ``Device("cuda:0") is Device("cuda", 0)``, so arrays
   compare devices by identity and ``x.device`` costs one attribute read.
2. Constructing a GPU device checks its backend once and raises
   ``BackendUnavailableError`` naming the missing library/driver; a malformed or
   nonexistent device raises ``ValueError`` naming the ``device`` argument.
3. The current device is a ``ContextVar`` (per thread and per asyncio task);
   ``with Device(...):`` changes it for the block.  The process default comes from
   ``GARRAY_DEVICE`` (``cpu``, ``hip``, ``hip:1``, ``cuda:0`` ...); unset, it is the first
   GPU found (hip, then cuda), else ``cpu``.  It is resolved on first use, never at
   ``import garray``.
4. Each device owns one memory pool, created lazily.
"""

import contextvars
import os

from . import _backends

__all__ = ["Device", "get_device", "default_device"]

_current = contextvars.ContextVar("garray_current_device", default=None)
_default = None


def _parse(spec, index, argname):
    if isinstance(spec, Device):
        if index is not None and index != spec.index:
            raise ValueError(f"{argname}: index {index} conflicts with {spec}")
        return spec.kind, spec.index
    if not isinstance(spec, str):
        raise TypeError(f"{argname}: expected a garray.Device or a string like 'cpu' or "
                        f"'cuda:0', got {type(spec).__name__}")
    kind, sep, idx = spec.strip().lower().partition(":")
    if kind not in _backends.KINDS:
        raise ValueError(f"{argname}: unknown device {spec!r}; expected 'cpu', 'hip[:N]' "
                         f"or 'cuda[:N]'")
    if sep:
        if not idx.isdigit():
            raise ValueError(f"{argname}: bad device index in {spec!r}")
        if index is not None and int(idx) != index:
            raise ValueError(f"{argname}: index {index} conflicts with {spec!r}")
        index = int(idx)
    if index is None:
        index = 0
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise ValueError(f"{argname}: device index must be a non-negative int, got {index!r}")
    return kind, index


class Device:
    """A device on which arrays live: ``Device("cpu")``, ``Device("hip:0")``,
    ``Device("cuda", 1)``.

    Usable as a context manager that makes it the current device::

        with garray.Device("cpu"):
            x = garray.zeros(3)      # on the CPU device

    ``garray.__array_namespace_info__().devices()`` lists the devices found.

    Parameters
    ----------
    spec : str or Device, optional
        'cpu', 'hip', 'hip:N', 'cuda' or 'cuda:N'.
    index : int, optional
        The device index, when spec names only the kind.

    See Also
    --------
    x.device
    x.to_device
    """

    __slots__ = ("kind", "index", "_runtime", "_pool", "_tokens", "__weakref__")
    _instances = {}

    def __new__(cls, spec="cpu", index=None):
        key = _parse(spec, index, "device")
        dev = cls._instances.get(key)
        if dev is not None:
            return dev
        kind, index = key
        mod = _backends.load(kind)
        runtime = mod.Runtime(index)  # raises BackendUnavailableError / ValueError
        dev = object.__new__(cls)
        dev.kind, dev.index = kind, index
        dev._runtime = runtime
        dev._pool = None
        dev._tokens = []
        return cls._instances.setdefault(key, dev)

    def __reduce__(self):
        return (Device, (str(self),))

    def __repr__(self):
        return f"Device('{self}')"

    def __str__(self):
        return self.kind if self.kind == "cpu" else f"{self.kind}:{self.index}"

    @property
    def runtime(self):
        """The backend runtime object (see ``garray._backends``)."""
        return self._runtime

    @property
    def pool(self):
        """This device's memory pool (``garray.MemoryPool``)."""
        if self._pool is None:
            from ._core import MemoryPool   # here: the core imports this module while it loads
            self._pool = MemoryPool(self)
        return self._pool

    @property
    def properties(self):
        return self._runtime.properties()

    @property
    def warp_size(self):
        return self._runtime.properties()["warp_size"]

    def synchronize(self):
        """Wait until all work queued on this device has finished.

        Returns
        -------
        None
        """
        self._runtime.synchronize()

    def __enter__(self):
        self._tokens.append(_current.set(self))
        return self

    def __exit__(self, *exc):
        _current.reset(self._tokens.pop())
        return False


def default_device():
    """The process default device (``GARRAY_DEVICE``, else first GPU, else cpu).

    Returns
    -------
    Device
    """
    global _default
    if _default is None:
        spec = os.environ.get("GARRAY_DEVICE", "").strip()
        if spec:
            _default = Device(_parse(spec, None, "GARRAY_DEVICE")[0],
                              _parse(spec, None, "GARRAY_DEVICE")[1])
        else:
            for kind in ("hip", "cuda"):
                ok, _ = _backends.availability(kind)
                if ok:
                    _default = Device(kind, 0)
                    break
            else:
                _default = Device("cpu")
    return _default


def get_device(device=None):
    """Resolve a ``device=`` argument: None means the current device."""
    if device is None:
        dev = _current.get()
        return dev if dev is not None else default_device()
    if isinstance(device, Device):
        return device
    return Device(device)
