"""How poly1d prints, as NumPy's: the terms of ``str(p)`` and the exponents raised onto a
line of their own."""

import re

import numpy

__all__ = ["format_term", "raise_power"]

_POWER = re.compile(r"\*\*([0-9]*)")


def raise_power(text, wrap=70):
    """NumPy's two-line layout of ``x**n``: the exponents on a line above the terms."""
    pos, top, bottom, out = 0, "", "", " "
    for mat in _POWER.finditer(text):
        power = mat.group(1)
        part = text[pos:mat.start()]
        pos = mat.end()
        add_bottom = part + " " * (len(power) - 1)
        add_top = " " * (len(part) - 1) + power
        if len(bottom) + len(add_bottom) > wrap or len(top) + len(add_top) > wrap:
            out += top + "\n" + bottom + "\n "
            top, bottom = add_top, add_bottom
        else:
            bottom += add_bottom
            top += add_top
    return out + top + "\n" + bottom + text[pos:]


def _fmt(q):
    s = f"{q:.4g}"
    return s[:-5] if s.endswith(".0000") else s


def format_term(c, power, var):
    if not numpy.iscomplex(c):
        cs = _fmt(numpy.real(c))
    elif numpy.real(c) == 0:
        cs = f"{_fmt(numpy.imag(c))}j"
    else:
        cs = f"({_fmt(numpy.real(c))} + {_fmt(numpy.imag(c))}j)"
    if cs == "0":
        return None
    if power == 0:
        return cs
    return f"{cs} {var}" if power == 1 else f"{cs} {var}**{power}"
