"""Stage 2: PTX text -> kernels, parameters, variables, labels and instructions.

Only structure is decided here; what an instruction means is the lowering step's and the
emulator's business. The parser accepts what NVRTC, nvcc and numba emit for sm_50..sm_90.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ...errors import PTXError
from .opcodes import OP

TYPE_SIZES = {
    "pred": 1, "b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2, "bf16": 2,
    "f16x2": 4, "bf16x2": 4,
    "b32": 4, "u32": 4, "s32": 4, "f32": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8, "b128": 16,
}


@dataclass(frozen=True)
class Reg:
    name: str


@dataclass(frozen=True)
class Special:
    name: str  # e.g. %tid.x


@dataclass(frozen=True)
class Imm:
    text: str


@dataclass(frozen=True)
class Sym:
    name: str
    offset: int = 0


@dataclass(frozen=True)
class Addr:
    base: Reg | Sym | None
    offset: int = 0


@dataclass(frozen=True)
class Vec:
    items: tuple


Operand = Reg | Special | Imm | Sym | Addr | Vec


@dataclass
class Instruction:
    opcode: str
    mods: tuple[str, ...]
    operands: tuple
    pred: str | None = None
    pred_negated: bool = False
    line: int = 0
    file: int = 0
    text: str = ""


@dataclass
class Param:
    name: str
    type: str
    size: int
    align: int
    offset: int = 0


@dataclass
class Variable:
    name: str
    space: str       # shared | local | global | const
    size: int        # bytes; 0 for extern (dynamic) shared
    align: int
    extern: bool = False
    init: bytes | None = None


@dataclass
class Kernel:
    name: str
    entry: bool
    params: list[Param] = field(default_factory=list)
    registers: dict[str, str] = field(default_factory=dict)
    variables: list[Variable] = field(default_factory=list)
    instructions: list[Instruction] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)
    max_threads: int | None = None     # .maxntid (__launch_bounds__): the most threads a block may have
    block_shape: tuple[int, ...] | None = None   # .reqntid: the only block shape it may be launched with

    @property
    def param_bytes(self) -> int:
        return max((p.offset + p.size for p in self.params), default=0)


@dataclass
class Module:
    version: str = ""
    target: str = ""
    kernels: dict[str, Kernel] = field(default_factory=dict)
    variables: list[Variable] = field(default_factory=list)
    files: dict[int, str] = field(default_factory=dict)

    def entry(self, name: str) -> Kernel:
        kernel = self.kernels.get(name)
        if kernel is None or not kernel.entry:
            entries = ", ".join(sorted(k for k, v in self.kernels.items() if v.entry)) or "none"
            from ...errors import LaunchError
            raise LaunchError(f"no kernel named '{name}' in the module (kernels: {entries})")
        return kernel


_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_ENTRY = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$.]+)")
_PARAM = re.compile(r"\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+([\w$]+)(?:\[(\d+)\])?")
_REG_DECL = re.compile(r"^\.reg\s+\.(\w+)\s+(.+);$")
_VAR_DECL = re.compile(
    r"^(?:\.(?:visible|extern|weak|global)\s+)*\.(shared|local|global|const)\s+"
    r"(?:\.align\s+(\d+)\s+)?\.(\w+)\s+([\w$.]+)((?:\[\d*\])*)\s*(?:=\s*\{?([^;}]*)\}?)?;$")
_LOC = re.compile(r"^\.loc\s+(\d+)\s+(\d+)")
_FILE = re.compile(r'^\.file\s+(\d+)\s+"([^"]*)"')
_LABEL = re.compile(r"^([\w$]+):$")
_GUARD = re.compile(r"^@(!?)(%[\w$]+)\s+")


def parse(text: str) -> Module:
    """Parse a whole PTX module."""
    module = Module()
    lines = _COMMENTS.sub("", text).splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        if line.startswith(".version"):
            module.version = line.split()[1]
        elif line.startswith(".target"):
            module.target = line.split()[1].rstrip(",")
        elif match := _FILE.match(line):
            module.files[int(match.group(1))] = match.group(2)
        elif match := _ENTRY.match(line):
            i = _parse_function(lines, i - 1, match, module)
        elif match := _VAR_DECL.match(line):
            module.variables.append(_variable(match))
    return module


def _parse_function(lines: list[str], start: int, header: re.Match, module: Module) -> int:
    kernel = Kernel(name=header.group(2), entry=header.group(1) == "entry")
    # The header runs to the opening brace (or a ';' for a bare declaration).
    text, i = "", start
    while i < len(lines) and "{" not in lines[i] and not lines[i].strip().endswith(";"):
        text += " " + lines[i]
        i += 1
    if i < len(lines) and "{" not in lines[i]:
        return i + 1  # a declaration without a body
    text += " " + lines[i].split("{")[0]
    _parse_params(kernel, text)
    _parse_bounds(kernel, text)
    depth, i = 1, i + 1
    body: list[str] = []
    while i < len(lines) and depth > 0:
        line = lines[i].strip()
        depth += line.count("{") - line.count("}")
        body.append(line)
        i += 1
    _parse_body(kernel, body, module)
    module.kernels[kernel.name] = kernel
    return i


_BOUNDS = re.compile(r"\.(maxntid|reqntid)\s+(\d+(?:\s*,\s*\d+)*)")


def _parse_bounds(kernel: Kernel, header: str) -> None:
    """__launch_bounds__' .maxntid and a required block shape's .reqntid, between the
    parameter list and the body."""
    for kind, dims in _BOUNDS.findall(header):
        shape = tuple(int(d) for d in dims.split(","))
        if kind == "maxntid":
            kernel.max_threads = math.prod(shape)
        else:
            kernel.block_shape = shape


def _parse_params(kernel: Kernel, header: str) -> None:
    if "(" not in header:
        return
    params_text = header[header.index("(", header.index(kernel.name)) + 1:] if kernel.name in header else ""
    offset = 0
    for match in _PARAM.finditer(params_text):
        align, ptype, name, count = match.groups()
        elem = TYPE_SIZES.get(ptype, 1)
        size = elem * int(count) if count else elem
        align_bytes = int(align) if align else elem
        offset = (offset + align_bytes - 1) // align_bytes * align_bytes
        kernel.params.append(Param(name, ptype, size, align_bytes, offset))
        offset += size


def _parse_body(kernel: Kernel, body: list[str], module: Module) -> None:
    line_no, file_no = 0, 0
    pending = ""
    for raw in body:
        raw = raw.replace("{", " ").replace("}", " ").strip() if raw in ("{", "}") else raw
        raw = _unscoped(raw)
        if not raw or raw in ("{", "}"):
            continue
        if match := _LOC.match(raw):
            file_no, line_no = int(match.group(1)), int(match.group(2))
            continue
        if raw.startswith(".pragma"):    # the only directive a body holds (tuning ones precede it: _BOUNDS)
            continue
        if match := _LABEL.match(raw):
            kernel.labels[match.group(1)] = len(kernel.instructions)
            continue
        statement = (pending + " " + raw).strip() if pending else raw
        if not statement.endswith(";"):
            pending = statement  # statements may span lines
            continue
        pending = ""
        if match := _REG_DECL.match(statement):
            _declare_registers(kernel, match.group(1), match.group(2))
        elif match := _VAR_DECL.match(statement):
            kernel.variables.append(_variable(match))
        elif statement.startswith("."):
            continue  # other directives carry nothing the emulator needs
        else:
            instruction = parse_instruction(statement[:-1].strip())
            instruction.line, instruction.file = line_no, file_no
            kernel.instructions.append(instruction)


def _unscoped(raw: str) -> str:
    """A statement without the braces of an inline-asm scope around it (cuda_fp16.h's
    `{add.f16x2 %r6,%r7,%r8;` / `{ cvt.rn.f16.f32 %rs1, %f1;}`); vector operands
    (`mov.b32 {low,high}, %r1;`) keep theirs."""
    s = raw.strip()
    while s.startswith("{"):
        s = s[1:].strip()
    while s.endswith("}") and s[:-1].rstrip().endswith(";"):
        s = s[:-1].rstrip()
    return s


def _declare_registers(kernel: Kernel, rtype: str, names: str) -> None:
    for item in names.split(","):
        item = item.strip()
        ranged = re.match(r"^(%?[\w$]+)<(\d+)>$", item)
        if ranged:
            for k in range(int(ranged.group(2))):
                kernel.registers[f"{ranged.group(1)}{k}"] = rtype
        elif item:
            kernel.registers[item] = rtype


def _variable(match: re.Match) -> Variable:
    space, align, vtype, name, dims, init = match.groups()
    elem = TYPE_SIZES.get(vtype, 1)
    count, extern = 1, False
    for dim in re.findall(r"\[(\d*)\]", dims or ""):
        if dim == "":
            extern = True
        else:
            count *= int(dim)
    size = 0 if extern else elem * count
    data = _initializer(init, vtype, size) if init else None
    return Variable(name, space, size, int(align) if align else elem, extern, data)


def _initializer(text: str, vtype: str, size: int) -> bytes:
    import numpy as np
    values = [v.strip() for v in text.split(",") if v.strip()]
    dtype = {"f32": np.float32, "f64": np.float64}.get(vtype)
    out = bytearray(size)
    elem = TYPE_SIZES.get(vtype, 1)
    for k, v in enumerate(values[: size // elem]):
        if v.startswith(("0f", "0F")) and len(v) == 10:
            raw = int(v[2:], 16).to_bytes(4, "little")
        elif v.startswith(("0d", "0D")) and len(v) == 18:
            raw = int(v[2:], 16).to_bytes(8, "little")
        elif dtype is not None:
            raw = np.array([float(v)], dtype).tobytes()
        else:
            raw = (int(v, 0) & ((1 << (8 * elem)) - 1)).to_bytes(elem, "little")
        out[k * elem:(k + 1) * elem] = raw
    return bytes(out)


def parse_instruction(statement: str) -> Instruction:
    pred, negated = None, False
    guard = _GUARD.match(statement)
    if guard:
        negated, pred = guard.group(1) == "!", guard.group(2)
        statement = statement[guard.end():]
    head, _, rest = statement.partition(" ")
    if "\t" in head:
        head, _, more = head.partition("\t")
        rest = more + " " + rest
    parts = head.split(".")
    try:
        operands = tuple(_operand(text) for text in _split_operands(rest.strip())) if rest.strip() else ()
    except PTXError:
        if parts[0] in OP:
            raise
        operands = ()  # an opcode without semantics: reported if a thread ever reaches it
    text = " ".join(statement.split())
    return Instruction(parts[0], tuple(parts[1:]), operands, pred, negated, text=text)


def _split_operands(text: str) -> list[str]:
    items, depth, current = [], 0, ""
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        items.append(current.strip())
    return items


_SPECIALS = re.compile(r"^%(tid|ntid|ctaid|nctaid)\.[xyz]$|^%(laneid|warpid|nwarpid|smid|nsmid|gridid|"
                       r"lanemask_eq|lanemask_le|lanemask_lt|lanemask_ge|lanemask_gt|clock|clock64|"
                       r"globaltimer|dynamic_smem_size|total_smem_size)$")


def _operand(text: str):
    text = text.strip()
    if text.startswith("{"):
        return Vec(tuple(_operand(t) for t in _split_operands(text[1:-1])))
    if "|" in text and text.startswith("%"):
        return Vec(tuple(Reg(t.strip()) for t in text.split("|")))
    if text.startswith("["):
        return _address(text[1:-1].strip())
    if text.startswith("!%"):
        return Reg(text)  # negated predicate source, resolved by the lowering step
    if _SPECIALS.match(text):
        return Special(text)
    if text.startswith("%") or text == "_":
        return Reg(text)
    if re.match(r"^[-+]?(0[fFdD][0-9a-fA-F]+|0[xX][0-9a-fA-F]+U?|\d+U?|\d*\.\d+([eE][-+]?\d+)?)$", text):
        return Imm(text)
    sym = re.match(r"^([\w$.]+)\s*(?:\+\s*(-?\d+))?$", text)
    if sym:
        return Sym(sym.group(1), int(sym.group(2) or 0))
    raise PTXError(f"cannot parse operand '{text}'")


def _address(text: str) -> Addr:
    match = re.match(r"^([%\w$.]+)?\s*(?:\+\s*(-?(?:0[xX][0-9a-fA-F]+|\d+)))?$", text)
    if not match:
        raise PTXError(f"cannot parse address '[{text}]'")
    base, offset = match.groups()
    off = int(offset, 0) if offset else 0
    if base is None:
        return Addr(None, off)
    if re.match(r"^-?(0[xX][0-9a-fA-F]+|\d+)$", base):
        return Addr(None, int(base, 0) + off)
    if base.startswith("%"):
        return Addr(Reg(base), off)
    return Addr(Sym(base), off)
