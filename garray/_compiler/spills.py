"""Register spills per kernel, as the GPU compilers report them (``python -m garray
resources``; docs/kernel-resources.md).

A driver's local-memory attribute mixes a kernel's own arrays with what the register
allocator spilled, so spills are read where the compilers state them:

- NVRTC: ptxas's ``-v`` report in the program log ("Function properties for NAME" then
  "N bytes stack frame, S bytes spill stores, L bytes spill loads"); garray compiles
  every unit with ``-Xptxas=-v`` and keeps the spills per function beside the binary
  (``gpu.compile_gpu``).
- hiprtc: the code object's ``NT_AMDGPU_METADATA`` note (msgpack, ``amdhsa.kernels``):
  ``.vgpr_spill_count``, the stores of a VGPR to a spill slot (4 bytes each).  SGPR
  spills go to VGPR lanes, not memory, and are not counted.

Both compilers count spill *stores* in the code, and one slot may be stored more than
once, so the figure kept is the smaller of the stored bytes and the thread's whole frame
(ptxas's stack frame; the private segment on AMD): bytes of spill per thread, at most.
"""

import re
import struct

_PTXAS_FUNC = re.compile(r"Function properties for (\S+)\s*\n[^\n]*?(\d+) bytes stack frame, "
                         r"(\d+) bytes spill stores")


def ptxas_spills(log):
    """{lowered name: spill bytes per thread (at most)} from ptxas's ``-v`` report."""
    return {m.group(1): min(int(m.group(2)), int(m.group(3)))
            for m in _PTXAS_FUNC.finditer(log or "")}


# ---- a reader of the msgpack subset the AMDGPU metadata uses -------------------------

def _unpack(b, i):
    """(value, next offset) of the msgpack object at b[i]."""
    t = b[i]
    if t <= 0x7F:
        return t, i + 1
    if t >= 0xE0:
        return t - 0x100, i + 1
    if 0x80 <= t <= 0x8F:
        return _map(b, i + 1, t & 0x0F)
    if 0x90 <= t <= 0x9F:
        return _array(b, i + 1, t & 0x0F)
    if 0xA0 <= t <= 0xBF:
        n = t & 0x1F
        return b[i + 1:i + 1 + n].decode("utf-8", "replace"), i + 1 + n
    fixed = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h",
             0xD2: ">i", 0xD3: ">q", 0xCA: ">f", 0xCB: ">d"}
    if t in fixed:
        f = fixed[t]
        n = struct.calcsize(f)
        return struct.unpack_from(f, b, i + 1)[0], i + 1 + n
    if t in (0xC0, 0xC2, 0xC3):
        return {0xC0: None, 0xC2: False, 0xC3: True}[t], i + 1
    lens = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xC4: ">B", 0xC5: ">H", 0xC6: ">I"}
    if t in lens:
        f = lens[t]
        n = struct.unpack_from(f, b, i + 1)[0]
        j = i + 1 + struct.calcsize(f)
        raw = b[j:j + n]
        return (raw.decode("utf-8", "replace") if t >= 0xD9 else bytes(raw)), j + n
    if t in (0xDC, 0xDD):
        f = ">H" if t == 0xDC else ">I"
        return _array(b, i + 1 + struct.calcsize(f), struct.unpack_from(f, b, i + 1)[0])
    if t in (0xDE, 0xDF):
        f = ">H" if t == 0xDE else ">I"
        return _map(b, i + 1 + struct.calcsize(f), struct.unpack_from(f, b, i + 1)[0])
    raise ValueError(f"msgpack: type byte {t:#x} at {i} is not one the AMDGPU metadata uses")


def _array(b, i, n):
    out = []
    for _ in range(n):
        v, i = _unpack(b, i)
        out.append(v)
    return out, i


def _map(b, i, n):
    out = {}
    for _ in range(n):
        k, i = _unpack(b, i)
        v, i = _unpack(b, i)
        out[k] = v
    return out, i


def _elf_notes(elf):
    """(name, type, desc) of every note in the ELF64 little-endian image's sections."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise ValueError("not an ELF64 little-endian code object")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    for k in range(shnum):
        sh = shoff + k * shentsize
        stype, = struct.unpack_from("<I", elf, sh + 4)
        if stype != 7:                                  # SHT_NOTE
            continue
        off, size = struct.unpack_from("<QQ", elf, sh + 0x18)
        i, end = off, off + size
        while i + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from("<III", elf, i)
            i += 12
            name = elf[i:i + namesz].rstrip(b"\0").decode("ascii", "replace")
            i += (namesz + 3) & ~3
            yield name, ntype, elf[i:i + descsz]
            i += (descsz + 3) & ~3


def _code_objects(binary):
    """The AMDGPU ELF images in a hiprtc binary (an ELF, or a clang offload bundle)."""
    b = bytes(binary)
    if b[:4] == b"\x7fELF":
        return [b]
    magic = b"__CLANG_OFFLOAD_BUNDLE__"
    if not b.startswith(magic):
        raise ValueError("hiprtc binary: neither an AMDGPU ELF nor a clang offload bundle")
    n, = struct.unpack_from("<Q", b, len(magic))
    i, out = len(magic) + 8, []
    for _ in range(n):
        off, size, idlen = struct.unpack_from("<QQQ", b, i)
        i += 24 + idlen
        if b[off:off + 4] == b"\x7fELF":
            out.append(b[off:off + size])
    return out


def amdgpu_kernels(binary):
    """{kernel name: its ``amdhsa.kernels`` metadata map} of a hiprtc binary."""
    out = {}
    for elf in _code_objects(binary):
        for name, ntype, desc in _elf_notes(elf):
            if name == "AMDGPU" and ntype == 32:        # NT_AMDGPU_METADATA
                meta, _ = _unpack(desc, 0)
                for k in meta.get("amdhsa.kernels", []):
                    out[k.get(".name")] = k
    return out


def amdgpu_spills(binary):
    """{kernel name: VGPR spill bytes per thread (at most)} of a hiprtc binary."""
    return {name: min(4 * int(k.get(".vgpr_spill_count", 0)),
                      int(k.get(".private_segment_fixed_size", 0)))
            for name, k in amdgpu_kernels(binary).items()}
