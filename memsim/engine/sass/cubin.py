"""The constant banks a cubin carries: what register-indexed constant reads (LDC c[0x3][R0])
and constant operands outside bank 0 see at launch.

A cubin is an ELF64 file. ptxas places a module's `__constant__` variables, with their
initial values, in the section `.nv.constant3`, and a kernel's compiler-made tables (switch
targets, literal pools) in `.nv.constant<N>.<kernel>` sections. Only section headers are
read: the bank number is the digit after `.nv.constant`.
"""
from __future__ import annotations

import re
import struct

_BANK_SECTION = re.compile(r"^\.nv\.constant(\d+)(?:\.(.+))?$")


def _headers(cubin: bytes) -> list[tuple[str, int, int, int]]:
    """(name, type, offset, size) of each section header."""
    if cubin[:4] != b"\x7fELF" or cubin[4] != 2:
        raise ValueError("not an ELF64 cubin")
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + k * shentsize) for k in range(shnum)]
    names_offset = headers[shstrndx][4]
    out = []
    for name, kind, _, _, offset, size, *_ in headers:
        end = cubin.index(b"\0", names_offset + name)
        out.append((cubin[names_offset + name:end].decode(), kind, offset, size))
    return out


def sections(cubin: bytes) -> dict[str, bytes]:
    """Section name -> contents (empty for sections without file data, e.g. NOBITS)."""
    return {name: b"" if kind == 8 else cubin[offset:offset + size]   # 8: SHT_NOBITS
            for name, kind, offset, size in _headers(cubin)}


def section_sizes(cubin: bytes) -> dict[str, int]:
    """Section name -> size, NOBITS ones too: `.nv.shared.<kernel>` is a kernel's static
    shared memory."""
    return {name: size for name, _, _, size in _headers(cubin)}


def constant_banks(cubin: bytes, kernel: str) -> dict[int, bytes]:
    """Bank number -> contents for the module-wide banks and the kernel's own, bank 0 (the
    launch's parameters, filled at launch) left out."""
    banks: dict[int, bytes] = {}
    for name, data in sections(cubin).items():
        match = _BANK_SECTION.match(name)
        if not match or int(match.group(1)) == 0:
            continue
        owner = match.group(2)
        if owner is None or owner == kernel:
            banks[int(match.group(1))] = data
    return banks


EIATTR_REGCOUNT = 0x2F   # .nv.info attribute: (function symbol index, registers per thread)
_EIFMT_SVAL = 4          # an attribute with a 16-bit size and that many bytes of data


def register_counts(cubin: bytes) -> dict[str, int]:
    """Kernel or function name -> registers per thread, as ptxas -v reports them: the
    EIATTR_REGCOUNT attributes of the `.nv.info` section, keyed by symbol index."""
    found = sections(cubin)
    names = _symbol_names(cubin, found)
    info, counts, at = found.get(".nv.info", b""), {}, 0
    while at + 4 <= len(info):
        form, attribute = info[at], info[at + 1]
        if form != _EIFMT_SVAL:
            at += 4
            continue
        size, = struct.unpack_from("<H", info, at + 2)
        if attribute == EIATTR_REGCOUNT and size >= 8:
            symbol, registers = struct.unpack_from("<II", info, at + 4)
            if symbol < len(names):
                counts[names[symbol]] = registers
        at += 4 + size
    return counts


def _symbol_names(cubin: bytes, found: dict[str, bytes]) -> list[str]:
    """Names of the `.symtab` entries, in order (ELF64 symbols are 24 bytes; names in .strtab)."""
    table, strings = found.get(".symtab", b""), found.get(".strtab", b"")
    names = []
    for at in range(0, len(table) - 23, 24):
        start, = struct.unpack_from("<I", table, at)
        names.append(strings[start:strings.index(b"\0", start)].decode() if start < len(strings) else "")
    return names
