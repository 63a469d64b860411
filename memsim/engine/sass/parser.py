"""nvdisasm text (`nvdisasm -c -g`) -> per-function lists of SASS instructions.

Each instruction keeps its guard predicate, opcode and dot-modifiers, operands (registers with
their -, ~, |..|, ! marks; immediates; constant-bank reads, also register-indexed; memory
addresses; special registers; convergence barriers) and the source line from the
`//## File ..., line N` notes. A line is one of the section's own file (the file its first note
names: the kernel's .cu or .py): an instruction noted in another file (an inlined function of a
header, or of triton.language, whose call site the line table does not record) gets line 0
rather than another file's line number read as the kernel's.

The parser never fails a whole module: an operand it does not know becomes
Operand("unknown", text=...) and a branch to a label it cannot find keeps target -1, so only
lowering the kernel that uses it fails (memsim.engine.sass.program raises UnsupportedInstruction).

Functions: NVRTC puts each kernel in its own `.text.<kernel>` section together with the device
functions it calls that were not inlined (`$k$helper`, `$__internal_..._div_rn_...`): those
start at a `.type NAME,@function` label inside the section (with -rdc=true, non-kernel
functions get sections of their own). Every function is an entry of its own, holding only its
instructions, with branch targets indexing them; a CALL names its callee in `call_target`
(lowering appends the callees it reaches). Kernels are the functions nvdisasm marks
`.other NAME,@"STO_CUDA_ENTRY"`; the others have is_kernel False.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from ...errors import MemsimError


class SassParseError(MemsimError):
    """nvdisasm printed something the parser does not understand (kept for callers; parse()
    itself no longer raises it: unknown text becomes an `unknown` operand)."""


@dataclass(frozen=True)
class Operand:
    kind: str              # reg ureg pred upred imm fimm const mem special barrier scoreboard label pr unknown
    value: int = 0         # register number (255/63/7 for RZ/URZ/PT), immediate, bank offset
    negate: bool = False   # -x (two's complement for integers, sign flip for floats)
    invert: bool = False   # ~x (bitwise) or !P
    absolute: bool = False # |x|
    fvalue: float = 0.0    # fimm
    bank: int = 0          # const: c[bank][index + value]
    base: int = -1         # mem: base register (-1: none)
    base_uniform: bool = False
    wide: bool = False     # mem: .64 base (register pair); reg: R2.64
    uoffset: int = -1      # mem: [R+URn]
    text: str = ""         # special register name / label / register suffix (H0_H0, B1) / unknown text
    index: int = -1        # const: index register c[bank][Rn+value] (-1: none; 255 never used)
    index_uniform: bool = False  # const: the index is URn


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
    target: int = -1       # branch/BSSY/CALL target: index into the kernel's instructions
    call_target: str = ""  # CALL: the callee function's name
    branch_targets: tuple[int, ...] = ()  # BRX/JMX: the jump table nvdisasm annotates


@dataclass
class SassKernel:
    name: str
    instructions: list[SassInstruction] = field(default_factory=list)
    is_kernel: bool = True
    source_file: str = ""   # the file its line notes name first ("" without line notes)
    section: str = ""      # the `.text.<section>` it lies in (a device function may share its kernel's)


# Relocations the linker fills in (`32@lo(var)`, a CALL.ABS return address
# `32@lo((k + .L_x_0@srel))`, -rdc's `c[R0+`((k.const_opt.0.12 + -0x8000))]`) are kept as
# `unknown` operands with their text: lowering recognises the ones it can handle by that text.


_INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
_LINE = re.compile(r'^\s*//## File "([^"]*)", line (\d+)')
_LABEL = re.compile(r"^([^\s:\"]+):$")
_FUNCTION = re.compile(r"^\s*\.section\s+\.text\.([^\s,]+),")
_TYPE_FUNCTION = re.compile(r"^\s*\.type\s+([^\s,]+),\s*@function")
_ENTRY = re.compile(r"^\s*\.other\s+([^\s,]+),\s*@\"[^\"]*STO_CUDA_ENTRY")
_ANNOTATION = re.compile(r"\(\*\"([^\"]*)\"\*\)")
_GUARD = re.compile(r"^@(!?)(U?)P([0-6T])\s+")
_REG = re.compile(r"^(U?)R(Z|\d+)(?:\.(\w+))?$")
_PRED = re.compile(r"^(U?)P([0-6T])$")
_CONST = re.compile(r"^c\[(0x[0-9a-f]+)\]\[(.+)\]$")
_HEX = re.compile(r"^-?0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[+-]?(\d+(\.\d*)?([eE][+-]?\d+)?|INF|QNAN|SNAN|NAN)$")


@dataclass
class _Section:
    """One `.text.<name>` section while it is read."""
    kernel: SassKernel
    labels: dict[str, int] = field(default_factory=dict)
    pending: list[tuple[SassInstruction, str]] = field(default_factory=list)
    jumps: list[tuple[SassInstruction, list[str]]] = field(default_factory=list)
    typed: set[str] = field(default_factory=set)   # `.type X,@function` seen
    functions: dict[str, int] = field(default_factory=dict)   # name -> first instruction
    source_file: str | None = None   # the file of the section's first line note


def parse(text: str) -> dict[str, SassKernel]:
    """Every function of an nvdisasm listing by name: kernels and the device functions in their
    sections. Never raises for the module (see the module docstring)."""
    sections: list[_Section] = []
    entries: set[str] = set()
    line = 0
    for raw in text.splitlines():
        if m := _FUNCTION.match(raw):
            sections.append(_Section(SassKernel(m.group(1))))
            line = 0
        elif m := _ENTRY.match(raw):
            entries.add(m.group(1))
        elif not sections:
            continue
        elif m := _TYPE_FUNCTION.match(raw):
            sections[-1].typed.add(m.group(1))
        elif m := _LINE.match(raw):
            line = _own_line(sections[-1], m.group(1), int(m.group(2)))
        elif m := _LABEL.match(raw.strip()):
            _label(sections[-1], m.group(1))
        elif m := _INSTRUCTION.match(raw):
            _add(sections[-1], int(m.group(1), 16), m.group(2), line)
    return _finish(sections, entries)


def _own_line(section: _Section, file: str, line: int) -> int:
    """`line` where the note names the section's own file, else 0 (see the module docstring)."""
    if section.source_file is None:
        section.source_file = section.kernel.source_file = file
    return line if file == section.source_file else 0


def _label(section: _Section, name: str) -> None:
    here = len(section.kernel.instructions)
    section.labels[name] = here
    if name in section.typed or name == section.kernel.name:
        section.functions.setdefault(name, here)


def _add(section: _Section, address: int, text: str, line: int) -> None:
    ins, label, table = _instruction(address, text, line)
    section.kernel.instructions.append(ins)
    if label:
        section.pending.append((ins, label))
    if table:
        section.jumps.append((ins, table))


def _finish(sections: list[_Section], entries: set[str]) -> dict[str, SassKernel]:
    functions: dict[str, SassKernel] = {}
    for section in sections:
        _resolve(section)
        section.functions.setdefault(section.kernel.name, 0)
        for name in section.functions:
            # A listing without STO_CUDA_ENTRY marks (hand-written snippets): sections are kernels.
            is_kernel = name in entries or (not entries and name == section.kernel.name)
            functions.setdefault(name, _function(section, name, is_kernel))
    return functions


def _resolve(section: _Section) -> None:
    """Branch targets to instruction indices; an unknown label keeps -1 (lowering rejects it)."""
    for ins, label in section.pending:
        ins.target = section.labels.get(label, -1)
    for ins, names in section.jumps:
        ins.branch_targets = tuple(section.labels.get(name, -1) for name in names)


def _function(section: _Section, name: str, is_kernel: bool) -> SassKernel:
    """One function of a section: from its label up to the next function, with targets
    re-based onto its own instruction list (-1 where they leave it: a CALL's callee is then
    known by `call_target`)."""
    start = section.functions[name]
    everything = section.kernel.instructions
    end = min((s for s in section.functions.values() if s > start), default=len(everything))

    def rebase(target: int) -> int:
        return target - start if start <= target < end else -1

    if start == 0 and end == len(everything):   # the usual section: one kernel, nothing to re-base
        return SassKernel(name, everything, is_kernel, section.kernel.source_file, section.kernel.name)
    instructions = [dataclasses.replace(ins, target=rebase(ins.target),
                                        branch_targets=tuple(rebase(t) for t in ins.branch_targets))
                    for ins in everything[start:end]]
    return SassKernel(name, instructions, is_kernel, section.kernel.source_file, section.kernel.name)


def _instruction(address: int, text: str, line: int) -> tuple[SassInstruction, str, list[str]]:
    """(instruction, label it refers to or "", BRX jump-table label names)."""
    body, table = text, []
    if m := _ANNOTATION.search(body):
        words = m.group(1).split(None, 1)
        if words and words[0] == "BRANCH_TARGETS" and len(words) > 1:
            table = [name.strip() for name in words[1].split(",") if name.strip()]
        body = (body[:m.start()] + body[m.end():]).strip()
    guard, negated, uniform = -1, False, False
    if m := _GUARD.match(body):
        negated, uniform = m.group(1) == "!", m.group(2) == "U"
        guard = 7 if m.group(3) == "T" else int(m.group(3))
        body = body[m.end():]
    head, _, rest = body.partition(" ")
    opcode, *mods = head.split(".")
    operands, label = [], ""
    for item in _split(rest.strip()):
        if item.startswith("`(") and item.endswith(")"):
            label = item[2:-1]
            operands.append(Operand("label", text=label))
        else:
            operands.append(_operand(item))
    shown = re.sub(r"\s{2,}", " ", text)   # nvdisasm pads BRX's jump-table note with spaces
    ins = SassInstruction(address, opcode, tuple(mods), operands, guard, negated, uniform, line, shown)
    if opcode == "CALL" and label:
        ins.call_target = label
    return ins, label, table


def _split(rest: str) -> list[str]:
    """Operands: separated by commas, or by spaces (BRX `R4 -0x110`, RET `R20 `(k)``), outside
    brackets: a relocation `32@lo((k + .L_x_0@srel))` keeps its spaces."""
    parts, depth, word = [], 0, []
    for char in rest + ",":
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(char, 0)
        if depth == 0 and (char == "," or char.isspace()):
            if word:
                parts.append("".join(word))
            word = []
        else:
            word.append(char)
    return parts


def _operand(item: str) -> Operand:
    """One operand; Operand("unknown", text=item) where the form is not known."""
    negate = invert = absolute = False
    s = item.replace(".reuse", "")
    if s.startswith("-") and not _FLOAT.match(s) and not _HEX.match(s):
        negate, s = True, s[1:]
    if s.startswith("~") or s.startswith("!"):
        invert, s = True, s[1:]
    if m := re.fullmatch(r"\|([^|]+)\|(\.\w+)?", s):   # |R0| or |R0|.H0_H0
        absolute, s = True, m.group(1) + (m.group(2) or "")
    if m := _REG.match(s):
        uniform, suffix = m.group(1) == "U", m.group(3) or ""
        number = (63 if uniform else 255) if m.group(2) == "Z" else int(m.group(2))
        return Operand("ureg" if uniform else "reg", number, negate, invert, absolute,
                       wide=suffix == "64", text="" if suffix == "64" else suffix)
    if m := _PRED.match(s):
        number = 7 if m.group(2) == "T" else int(m.group(2))
        return Operand("upred" if m.group(1) else "pred", number, invert=invert)
    if _HEX.match(s):
        return Operand("imm", int(s, 16), negate, invert)
    if _FLOAT.match(s):
        value = float(s.replace("QNAN", "nan").replace("SNAN", "nan").replace("NAN", "nan")
                      .replace("INF", "inf"))
        return Operand("fimm", 0, negate, invert, absolute, fvalue=-value if negate else value)
    if m := _CONST.match(s):
        return _constant(int(m.group(1), 16), m.group(2), negate, invert, absolute, item)
    if s.startswith(("desc[", "[", "gdesc[", "tmem[")):
        return _address(s, item)
    if s.startswith("SR"):
        return Operand("special", text=s)
    if s in ("PR", "UPR"):
        return Operand("pr", text=s)
    if re.fullmatch(r"B\d+", s):
        return Operand("barrier", int(s[1:]))
    if re.fullmatch(r"SB\d+", s):   # DEPBAR.LE SB0, 0x1: a dependency scoreboard
        return Operand("scoreboard", int(s[2:]))
    return Operand("unknown", text=item)


def _constant(bank: int, inner: str, negate: bool, invert: bool, absolute: bool, item: str) -> Operand:
    """c[bank][0x10], c[bank][RZ], c[bank][R2+0x10], c[bank][UR4]: `index` is the register."""
    offset, index, index_uniform = 0, -1, False
    for part in _address_parts(inner):
        if _HEX.match(part):
            offset += int(part, 16)
        elif m := _REG.match(part):
            number = (63 if m.group(1) else 255) if m.group(2) == "Z" else int(m.group(2))
            if m.group(2) != "Z":   # c[bank][RZ] is the plain offset
                index, index_uniform = number, bool(m.group(1))
        else:
            return Operand("unknown", text=item)
    return Operand("const", offset, negate, invert, absolute, bank=bank, index=index,
                   index_uniform=index_uniform)


def _address_parts(inner: str) -> list[str]:
    """`R1+UR4+-0x10` -> [R1, UR4, -0x10]."""
    return [part.strip() for part in re.split(r"\+(?=[^+])", inner) if part.strip()]


def _address(s: str, item: str) -> Operand:
    inner = s[s.rindex("[") + 1:-1] if s.endswith("]") else ""
    base, base_uniform, wide, uoffset, offset = -1, False, False, -1, 0
    for part in _address_parts(inner):
        if _HEX.match(part):
            offset += int(part, 16)
        elif m := re.fullmatch(r"(U?)R(\d+|Z)(\.64)?", part):
            number = (63 if m.group(1) else 255) if m.group(2) == "Z" else int(m.group(2))
            if m.group(1) and base >= 0:
                uoffset = number
            else:
                base, base_uniform, wide = number, bool(m.group(1)), bool(m.group(3))
        else:
            return Operand("unknown", text=item)
    if not s.startswith(("desc[", "[")):   # gdesc[..] / tmem[..]: Blackwell tensor forms
        return Operand("unknown", text=item)
    return Operand("mem", offset, base=base, base_uniform=base_uniform, wide=wide, uoffset=uoffset)
