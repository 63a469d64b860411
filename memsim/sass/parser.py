"""nvdisasm text (`nvdisasm -c -g`) -> per-kernel lists of SASS instructions.

Each instruction keeps its guard predicate, opcode and dot-modifiers, operands (registers with
their -, ~, |..|, ! marks; immediates; constant-bank reads; memory addresses; special
registers; convergence barriers) and the source line from the `//## File ..., line N` notes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import MemsimError


class SassParseError(MemsimError):
    """nvdisasm printed something the parser does not understand."""


@dataclass(frozen=True)
class Operand:
    kind: str              # reg ureg pred upred imm fimm const mem special barrier label
    value: int = 0         # register number (255/63/7 for RZ/URZ/PT), immediate, bank offset
    negate: bool = False   # -x (two's complement for integers, sign flip for floats)
    invert: bool = False   # ~x (bitwise) or !P
    absolute: bool = False # |x|
    fvalue: float = 0.0    # fimm
    bank: int = 0          # const: c[bank][value]; const with a register index: index=reg
    base: int = -1         # mem: base register (-1: none)
    base_uniform: bool = False
    wide: bool = False     # mem: .64 base (register pair)
    uoffset: int = -1      # mem: [R+URn]
    text: str = ""         # special register name / label


@dataclass
class SassInstruction:
    address: int
    opcode: str
    mods: tuple[str, ...]
    operands: list[Operand]
    guard: int = -1        # predicate number, 7 = PT
    guard_negated: bool = False
    guard_uniform: bool = False
    line: int = 0
    text: str = ""
    target: int = -1       # branch/BSSY target: index into the kernel's instructions


@dataclass
class SassKernel:
    name: str
    instructions: list[SassInstruction] = field(default_factory=list)


_INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
_LINE = re.compile(r'^\s*//## File "[^"]*", line (\d+)')
_LABEL = re.compile(r"^(\.L_x_\d+):")
_FUNCTION = re.compile(r"^\s*\.section\s+\.text\.([A-Za-z_$][\w$]*),")
_GUARD = re.compile(r"^@(!?)(U?)P([0-6T])\s+")
_REG = re.compile(r"^(U?)R(Z|\d+)$")
_PRED = re.compile(r"^(U?)P([0-6T])$")
_CONST = re.compile(r"^c\[(0x[0-9a-f]+)\]\[(.+)\]$")
_FLOAT = re.compile(r"^[+-]?(\d+(\.\d*)?([eE][+-]?\d+)?|INF|QNAN|NAN)$")


def parse(text: str) -> dict[str, SassKernel]:
    """Every kernel (function) of an nvdisasm listing, by name."""
    kernels: dict[str, SassKernel] = {}
    current: SassKernel | None = None
    labels: dict[str, int] = {}
    pending: list[tuple[SassInstruction, str]] = []
    line = 0
    for raw in text.splitlines():
        if m := _FUNCTION.match(raw):
            _resolve(pending, labels)
            current = kernels.setdefault(m.group(1), SassKernel(m.group(1)))
            labels, pending, line = {}, [], 0
            continue
        if current is None:
            continue
        if m := _LINE.match(raw):
            line = int(m.group(1))
        elif m := _LABEL.match(raw.strip()):
            labels[m.group(1)] = len(current.instructions)
        elif m := _INSTRUCTION.match(raw):
            ins, label = _instruction(int(m.group(1), 16), m.group(2), line)
            current.instructions.append(ins)
            if label:
                pending.append((ins, label))
    _resolve(pending, labels)
    return kernels


def _resolve(pending, labels) -> None:
    for ins, label in pending:
        if label not in labels:
            raise SassParseError(f"branch to unknown label {label} in `{ins.text}`")
        ins.target = labels[label]


def _instruction(address: int, text: str, line: int) -> tuple[SassInstruction, str]:
    body = text
    guard, negated, uniform = -1, False, False
    if m := _GUARD.match(body):
        negated, uniform = m.group(1) == "!", m.group(2) == "U"
        guard = 7 if m.group(3) == "T" else int(m.group(3))
        body = body[m.end():]
    head, _, rest = body.partition(" ")
    opcode, *mods = head.split(".")
    operands, label = [], ""
    for item in _split(rest.strip()):
        if item.startswith("`("):
            label = item[2:-1]
            operands.append(Operand("label", text=label))
        else:
            operands.append(_operand(item, text))
    ins = SassInstruction(address, opcode, tuple(mods), operands, guard, negated, uniform, line, text)
    return ins, label


def _split(rest: str) -> list[str]:
    return [part.strip() for part in rest.split(",")] if rest else []


def _operand(item: str, text: str) -> Operand:
    negate = invert = absolute = False
    s = item.replace(".reuse", "")
    if s.startswith("-") and not _FLOAT.match(s) and not s.startswith("-0x"):
        negate, s = True, s[1:]
    if s.startswith("~") or s.startswith("!"):
        invert, s = True, s[1:]
    if s.startswith("|") and s.endswith("|"):
        absolute, s = True, s[1:-1]
    if m := _REG.match(s):
        uniform = m.group(1) == "U"
        number = (63 if uniform else 255) if m.group(2) == "Z" else int(m.group(2))
        return Operand("ureg" if uniform else "reg", number, negate, invert, absolute)
    if m := _PRED.match(s):
        number = 7 if m.group(2) == "T" else int(m.group(2))
        return Operand("upred" if m.group(1) else "pred", number, invert=invert)
    if re.fullmatch(r"-?0x[0-9a-f]+", s):
        return Operand("imm", int(s, 16), negate, invert)
    if _FLOAT.match(s):
        value = float(s.replace("QNAN", "nan").replace("NAN", "nan").replace("INF", "inf"))
        return Operand("fimm", 0, negate, invert, absolute, fvalue=-value if negate else value)
    if m := _CONST.match(s):
        index = m.group(2)
        if re.fullmatch(r"0x[0-9a-f]+", index):
            return Operand("const", int(index, 16), negate, invert, absolute, bank=int(m.group(1), 16))
        if index == "RZ":
            return Operand("const", 0, negate, invert, absolute, bank=int(m.group(1), 16))
        raise SassParseError(f"register-indexed constant `{item}` in `{text}` is not supported")
    if s.startswith("desc[") or s.startswith("["):
        return _address(s, text)
    if s.startswith("SR"):
        return Operand("special", text=s)
    if re.fullmatch(r"B\d+", s):
        return Operand("barrier", int(s[1:]))
    raise SassParseError(f"unknown operand `{item}` in `{text}`")


def _address(s: str, text: str) -> Operand:
    inner = s[s.rindex("[") + 1:-1]
    base, base_uniform, wide, uoffset, offset = -1, False, False, -1, 0
    for part in re.split(r"\+(?=[^+])", inner.replace("+-", "+-")):
        part = part.strip()
        if not part:
            continue
        if re.fullmatch(r"-?0x[0-9a-f]+", part):
            offset += int(part, 16)
        elif m := re.fullmatch(r"(U?)R(\d+|Z)(\.64)?", part):
            number = (63 if m.group(1) else 255) if m.group(2) == "Z" else int(m.group(2))
            if m.group(1) and base >= 0:
                uoffset = number
            else:
                base, base_uniform, wide = number, bool(m.group(1)), bool(m.group(3))
        else:
            raise SassParseError(f"unknown address part `{part}` in `{text}`")
    return Operand("mem", offset, base=base, base_uniform=base_uniform, wide=wide, uoffset=uoffset)
