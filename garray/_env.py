"""Reading garray's environment variables: a bad value is a ValueError naming the
variable and the values it takes, never silently ignored (docs/reliability.md)."""

import os

# os.environ's own store: a missing name costs os.environ.get a KeyError raised and caught
# inside the mapping (about 1.5 us a read on the 2-core machine, several per matmul call);
# the dict answers in a lookup and sees every change made through os.environ.
_DATA = getattr(os.environ, "_data", None)
_KEYS = {}


def get(name, default=None):
    """``os.environ.get(name, default)``, without the exception a missing name costs."""
    if type(_DATA) is not dict:
        return os.environ.get(name, default)
    k = _KEYS.get(name)
    if k is None:
        k = _KEYS[name] = os.environ.encodekey(name)
    v = _DATA.get(k)
    return default if v is None else os.environ.decodevalue(v)


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")


def flag(name, default=False):
    """A boolean variable: ``0``/``false``/``no``/``off`` or ``1``/``true``/``yes``/``on``;
    ``default`` when unset or empty."""
    raw = get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ValueError(f"{name}: expected 1/true/yes/on or 0/false/no/off, got {raw!r}")


def choice(name, options, default):
    """One of ``options`` (case-insensitive); ``default`` when unset or empty."""
    raw = get(name, "").strip().lower()
    if not raw:
        return default
    if raw not in options:
        raise ValueError(f"{name}: expected one of {', '.join(map(repr, options))}, "
                         f"got {raw!r}")
    return raw


def cpu_threads():
    """``GARRAY_CPU_THREADS``: OS threads a large CPU launch splits over (a positive
    integer); by default the cores this process may run on."""
    raw = get("GARRAY_CPU_THREADS", "").strip()
    if not raw:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except (AttributeError, OSError):
            return os.cpu_count() or 1
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"GARRAY_CPU_THREADS: expected a positive integer (threads for CPU "
                         f"launches), got {raw!r}")
    return value
