"""Reading garray's environment variables: a bad value is a ValueError naming the
variable and the values it takes, never silently ignored (docs/reliability.md)."""

import os

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")


def flag(name, default=False):
    """A boolean variable: ``0``/``false``/``no``/``off`` or ``1``/``true``/``yes``/``on``;
    ``default`` when unset or empty."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ValueError(f"{name}: expected 1/true/yes/on or 0/false/no/off, got {raw!r}")


def choice(name, options, default):
    """One of ``options`` (case-insensitive); ``default`` when unset or empty."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw not in options:
        raise ValueError(f"{name}: expected one of {', '.join(map(repr, options))}, "
                         f"got {raw!r}")
    return raw


def cpu_threads():
    """``GARRAY_CPU_THREADS``: OS threads a large CPU launch splits over (a positive
    integer); by default the cores this process may run on."""
    raw = os.environ.get("GARRAY_CPU_THREADS", "").strip()
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
