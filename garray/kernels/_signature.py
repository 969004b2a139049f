"""Kernel signatures read from user source strings, so RawKernel launches can be checked.

Note [Raw kernel signatures]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~
1. ``signature(code, name)`` finds ``__global__ void name(...)`` in the source
   (comments and string literals removed; ``extern "C"``, ``__launch_bounds__(...)`` and
   ``static``/``inline`` allowed) and reads its parameters.  It returns None, and the
   launch goes unchecked, when it cannot be sure: a name expression (``k<float>``,
   ``ns::k``), a template kernel, a kernel declared by a macro, or declarations that
   disagree (overloads).
2. Each parameter is a pointer (``T*``, ``T[]``) or a value.  A pointer's pointee and a
   value's type map to a NumPy dtype when they are a plain C scalar type, a fixed-width
   integer (``int32_t``, ``ga::int32``) or a complex of float/double; anything else (a
   template parameter, a struct, ``void``, ``char`` bytes) is left unchecked.
3. The launch uses it so (garray/kernels/_raw.py): the argument count must match; an array
   for a value or a scalar for a pointer is a TypeError naming the argument; an array
   for a typed pointer must have that dtype; a Python or NumPy scalar for a typed value
   is converted to the parameter's dtype when that loses nothing (``2.0`` for a
   ``float`` becomes float32, ``2**40`` for an ``int`` raises OverflowError).
"""

import re

import numpy

__all__ = ["Param", "signature"]

# C and C++ spellings of the scalar types, after whitespace is normalised.
_C_SCALARS = {
    "bool": "bool",
    "char": "int8", "signed char": "int8", "unsigned char": "uint8",
    "short": "int16", "short int": "int16", "signed short": "int16",
    "signed short int": "int16", "unsigned short": "uint16", "unsigned short int": "uint16",
    "int": "int32", "signed": "int32", "signed int": "int32",
    "unsigned": "uint32", "unsigned int": "uint32",
    "long": "int64", "long int": "int64", "signed long": "int64",
    "unsigned long": "uint64", "unsigned long int": "uint64",
    "long long": "int64", "long long int": "int64", "signed long long": "int64",
    "unsigned long long": "uint64", "unsigned long long int": "uint64",
    "size_t": "uint64", "ptrdiff_t": "int64", "ssize_t": "int64",
    "float": "float32", "double": "float64",
    "complex<float>": "complex64", "complex<double>": "complex128",
}
for _bits in (8, 16, 32, 64):
    for _u in ("", "u"):
        _C_SCALARS[f"{_u}int{_bits}_t"] = f"{_u}int{_bits}"
        _C_SCALARS[f"{_u}int{_bits}"] = f"{_u}int{_bits}"     # ga::int32 (ga:: is dropped)
# Pointees that address bytes of any dtype (C++ lets char types alias anything).
_BYTE_POINTEES = {"char", "signed char", "unsigned char", "int8_t", "uint8_t"}

_QUALIFIERS = re.compile(r"\b(const|volatile|__restrict__|__restrict|restrict|struct|"
                         r"__device__|std::|ga::|thrust::|cuda::std::)\s*")
_COMMENTS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                       re.S)
_ATTR = r"(?:(?:__launch_bounds__|__attribute__)\s*\((?:[^()]|\([^()]*\))*\)\s*)"
_TEMPLATE_TAIL = re.compile(r"template\s*<[^;{}]*>\s*(?:extern\s*\"C\"\s*)?$")


class Param:
    """One kernel parameter: ``pointer`` (bool), ``dtype`` (numpy.dtype or None when the
    type is not a plain scalar: no check), ``text`` (as declared)."""

    __slots__ = ("text", "pointer", "dtype")

    def __init__(self, text, pointer, dtype):
        self.text, self.pointer, self.dtype = text, pointer, dtype

    def __repr__(self):
        return f"Param({self.text!r})"


def _strip(code):
    # Keep string literals' place (extern "C" must still read as one token run).
    return _COMMENTS.sub(lambda m: ' "C" ' if m.group(0) == '"C"' else " ", code)


def _split_top(text):
    """Split on commas outside (), <>, [] and {}."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def _closing(text, i):
    """Index of the parenthesis closing the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _scalar_dtype(type_text):
    t = " ".join(_QUALIFIERS.sub(" ", type_text).split())
    t = t.replace(" <", "<").replace("< ", "<").replace(" >", ">")
    name = _C_SCALARS.get(t)
    return (numpy.dtype(name) if name is not None else None), t


def _param(text):
    text = text.split("=", 1)[0].strip()          # a default value
    if "&" in text or "(" in text.replace("GA_BYVAL(", "").replace("__attribute__(", ""):
        return Param(text, False, None)           # references, function pointers: opaque
    pointer = "*" in text or text.endswith("]")
    body = re.sub(r"\[[^\]]*\]", " ", text).replace("*", " ")
    toks = body.split()
    # Drop the parameter's name: the last identifier, unless the type is all there is.
    if len(toks) >= 2 and re.fullmatch(r"[A-Za-z_]\w*", toks[-1]) and \
            _scalar_dtype(" ".join(toks))[0] is None:
        toks = toks[:-1]
    dtype, plain = _scalar_dtype(" ".join(toks))
    if pointer and (text.count("*") + text.count("[") > 1 or plain in _BYTE_POINTEES):
        dtype = None                               # char* bytes, or pointer to pointer
    return Param(text, pointer, dtype)


def signature(code, name):
    """The parameters of kernel ``name`` in ``code`` as a tuple of Param, or None when the
    declaration cannot be read with certainty (Note [Raw kernel signatures])."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return None                                # a name expression
    src = _strip(code)
    pat = re.compile(r"__global__\s+(?:" + _ATTR + r"|static\s+|inline\s+|__forceinline__\s+)*"
                     r"void\s+" + _ATTR + r"*" + re.escape(name) + r"\s*\(")
    found = []
    for m in pat.finditer(src):
        if _TEMPLATE_TAIL.search(src[max(0, m.start() - 400):m.start()]):
            return None                            # a template: its name needs arguments
        open_at = m.end() - 1
        close = _closing(src, open_at)
        if close < 0:
            return None
        inner = src[open_at + 1:close].strip()
        params = () if inner in ("", "void") else tuple(_param(p) for p in _split_top(inner))
        found.append(params)
    if not found:
        return None
    if any(len(f) != len(found[0]) or [p.pointer for p in f] != [p.pointer for p in found[0]]
           for f in found[1:]):
        return None                                # overloads
    return found[-1]
