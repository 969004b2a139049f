"""Observers of GPU module loads.

Each time garray loads a compiled module onto a GPU it tells the observers what it
loaded, so that tooling can attach to the kernels: the test support for the stub GPU
drivers (``garray.testing.gpu_stub``) registers the CPU build of every kernel by its
lowered name.  With no observer (the normal case) a load costs one empty-list check.

An observer is called as ``fn(load)`` with a ``ModuleLoad``; exceptions propagate (an
observer that cannot do its job must not be silently skipped).
"""

_observers = []


class ModuleLoad:
    """What one GPU module load holds.

    device: the garray.Device; warp_size: what the unit was compiled for;
    functions: {name expression or kernel name: the loaded function handle};
    unit: (kernel file, name expressions) for a built-in unit, else None;
    source: (user source, names, options) for a RawModule, else None.
    """

    __slots__ = ("device", "warp_size", "functions", "unit", "source")

    def __init__(self, device, warp_size, functions, unit=None, source=None):
        self.device, self.warp_size, self.functions = device, warp_size, functions
        self.unit, self.source = unit, source


def add_load_observer(fn):
    """Call ``fn(ModuleLoad)`` after every GPU module load from now on."""
    if fn not in _observers:
        _observers.append(fn)


def remove_load_observer(fn):
    if fn in _observers:
        _observers.remove(fn)


def notify_load(device, warp_size, functions, unit=None, source=None):
    if _observers:
        load = ModuleLoad(device, warp_size, functions, unit, source)
        for fn in list(_observers):
            fn(load)
