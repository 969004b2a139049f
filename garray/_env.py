"""Reading garray's environment variables: a bad value is a ValueError naming the
variable and the values it takes, never silently ignored (docs/reliability.md)."""

import os

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")


def flag(name):
    """A boolean variable: unset, ``0``/``false``/``no``/``off`` or ``1``/``true``/``yes``/``on``."""
    raw = os.environ.get(name, "").strip().lower()
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
