"""Lowering: a parsed PTX kernel -> a numeric program the Numba emulator can run.

Every operand becomes a register slot: immediates and special registers (%tid.x, ...) are
read-only slots filled before the run, so the emulator reads every source the same way.
Each instruction is one row of int64 fields (F_*); types are coded as size and kind bits.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

import numpy as np

from ...errors import PTXError
from ...stream import SP_CONST, SP_GENERIC, SP_GLOBAL, SP_LOCAL, SP_PARAM, SP_SHARED, SPACE_NAMES, SPACES
from ..layout import KernelLayout, lay_out
from ..memory import GLOBAL_BASE
from ..program import StaticInstruction
from .opcodes import OP
from .parser import Addr, Imm, Instruction, Kernel, Module, Reg, Special, Sym, Vec

__all__ = ["SP_CONST", "SP_GENERIC", "SP_GLOBAL", "SP_LOCAL", "SP_PARAM", "SP_SHARED", "SPACE_NAMES",
           "SPACES", "GLOBAL_BASE", "StaticInstruction", "Program", "lower", "bind_params"]

# Instruction fields.
(F_OP, F_TYPE, F_TYPE2, F_MOD, F_CMP, F_GUARD, F_GNEG, F_LINE, F_TARGET, F_SPACE, F_VEC,
 F_D0, F_D1, F_D2, F_D3, F_S0, F_S1, F_S2, F_S3, F_S4, F_ABASE, F_AOFF, F_SNEG, F_WIDTH) = range(24)
NF = 24
DST_FIELDS = (F_D0, F_D1, F_D2, F_D3)
SRC_FIELDS = (F_S0, F_S1, F_S2, F_S3, F_S4)

# Types: low 4 bits log2(size in bytes), high bits kind.
K_BITS, K_SIGNED, K_FLOAT, K_PRED = 0, 1, 2, 3
T_NONE = -1


def type_code(name: str) -> int:
    if name == "pred":
        return (K_PRED << 4) | 0
    match = re.fullmatch(r"([subf])(8|16|32|64|128)", name)
    if not match:
        raise PTXError(f"unsupported type .{name}")
    kind = {"s": K_SIGNED, "u": K_BITS, "b": K_BITS, "f": K_FLOAT}[match.group(1)]
    return (kind << 4) | {8: 0, 16: 1, 32: 2, 64: 3, 128: 4}[int(match.group(2))]


def type_size(code: int) -> int:
    return 1 << (code & 15)


def type_kind(code: int) -> int:
    return code >> 4


TYPE_NAMES = {"pred", "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64",
              "s8", "s16", "s32", "s64", "f16", "f32", "f64"}

# Modifier bits (F_MOD).
M_LO, M_HI, M_WIDE, M_SAT = 1, 2, 4, 8
M_TO = 16          # cvta.to.<space>: generic -> space
M_VOLATILE = 32
M_IFCONV = 64      # on bra: ptxas turns the skipped region into predicated code (see below)

# ptxas if-converts a short forward branch: the skipped instructions are issued with their
# lanes predicated off instead of jumped over, so a warp whose lanes all skip still executes
# them (the H100 counts them in smsp__sass_inst_executed_op_memory_*). Measured on the suite.
IFCONV_MAX_INSTRUCTIONS = 32
_IFCONV_BLOCKERS = ("bra", "ret", "exit", "bar", "barrier", "atom", "red", "unsupported", "trap")
# setp/set boolean combination, stored in F_MOD bits 8..9.
BOOL_OPS = {"and": 1 << 8, "or": 2 << 8, "xor": 3 << 8}

# Compare operators (F_CMP) for setp/set.
CMP_OPS = {name: i for i, name in enumerate(
    ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
     "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"])}
# Rounding (F_CMP) for cvt and float arithmetic.
ROUNDING = {"rn": 0, "rz": 1, "rm": 2, "rp": 3, "rni": 4, "rzi": 5, "rmi": 6, "rpi": 7,
            "rna": 0, "approx": 0, "full": 0}
SHFL_MODES = {"up": 0, "down": 1, "bfly": 2, "idx": 3}
VOTE_MODES = {"all": 0, "any": 1, "uni": 2, "ballot": 3}
ATOM_OPS = {name: i for i, name in enumerate(
    ["add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"])}
TESTP_MODES = {"finite": 0, "infinite": 1, "number": 2, "notanumber": 3, "normal": 4, "subnormal": 5}

SPECIAL_REGISTERS = (
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
    "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
    "%clock", "%clock64", "%globaltimer", "%dynamic_smem_size", "%total_smem_size",
)

# Address windows of the generic space (a pointer says which space it points into); the global
# heap starts at GLOBAL_BASE (memsim.engine.memory).
SHARED_WINDOW = 1 << 48
LOCAL_WINDOW = 1 << 49
WINDOW_SIZE = 1 << 32


@dataclass
class Program:
    kernel: str
    code: np.ndarray                      # int64 [n, NF]
    n_slots: int
    special_base: int
    constants: list[tuple[int, int]]      # (slot, 64-bit pattern)
    layout: KernelLayout                  # parameters and variables (memsim.engine.layout)
    instructions: list[StaticInstruction] = field(default_factory=list)
    files: dict[int, str] = field(default_factory=dict)

    @property
    def params(self) -> list:
        return self.layout.params

    @property
    def param_bytes(self) -> int:
        return self.layout.param_bytes

    @property
    def shared_static(self) -> int:
        return self.layout.shared_static

    @property
    def shared_dynamic_offset(self) -> int:
        return self.layout.shared_dynamic_offset

    @property
    def local_bytes(self) -> int:
        return self.layout.local_bytes


class _Lowering:
    def __init__(self, module: Module, kernel: Kernel, heap_base_of_vars: int):
        self.module, self.kernel = module, kernel
        self.slots: dict[str, int] = {name: i for i, name in enumerate(kernel.registers)}
        self.special_base = len(self.slots)
        for k, name in enumerate(SPECIAL_REGISTERS):
            self.slots[name] = self.special_base + k
        self.scratch = self._new_slot()
        self.constants: dict[int, int] = {}   # bits -> slot
        self.layout = lay_out(module, kernel, heap_base_of_vars)
        self.addresses = self.layout.variable_addresses
        self.address_space = self.layout.address_spaces

    def _new_slot(self) -> int:
        slot = len(self.slots)
        self.slots[f"#slot{slot}"] = slot
        return slot

    # -- operands ---------------------------------------------------------------------------
    def constant(self, bits: int) -> int:
        bits &= (1 << 64) - 1
        if bits not in self.constants:
            self.constants[bits] = self._new_slot()
        return self.constants[bits]

    def source(self, operand, tcode: int) -> tuple[int, bool]:
        """(slot, negated) of a source operand read as type tcode."""
        if isinstance(operand, Reg):
            if operand.name.startswith("!"):
                return self.register(operand.name[1:]), True
            return self.register(operand.name), False
        if isinstance(operand, Special):
            return self.slots[operand.name], False
        if isinstance(operand, Imm):
            return self.constant(immediate_bits(operand.text, tcode)), False
        if isinstance(operand, Sym):
            return self.constant(self.symbol_address(operand.name) + operand.offset), False
        raise PTXError(f"unexpected operand {operand}")

    def register(self, name: str) -> int:
        if name == "_":
            return self.scratch
        if name not in self.slots:
            raise PTXError(f"undeclared register {name}")
        return self.slots[name]

    def symbol_address(self, name: str) -> int:
        if name not in self.addresses:
            raise PTXError(f"unknown symbol {name}")
        return self.addresses[name]


def immediate_bits(text: str, tcode: int) -> int:
    t = text.rstrip("Uu")
    negative = t.startswith("-")
    body = t.lstrip("+-")
    if body[:2] in ("0f", "0F"):
        bits = int(body[2:], 16)
        if tcode != T_NONE and type_kind(tcode) == K_FLOAT and type_size(tcode) == 8:
            bits = struct.unpack("<Q", struct.pack("<d", struct.unpack("<f", struct.pack("<I", bits))[0]))[0]
        return bits
    if body[:2] in ("0d", "0D"):
        return int(body[2:], 16)
    is_float_type = tcode != T_NONE and type_kind(tcode) == K_FLOAT
    if "." in body or is_float_type:
        value = float(t)
        if tcode != T_NONE and type_size(tcode) == 4:
            return struct.unpack("<I", struct.pack("<f", value))[0]
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    value = int(body, 0)
    return (-value if negative else value) & ((1 << 64) - 1)


def lower(module: Module, kernel_name: str, heap_base_of_vars: int = 0) -> Program:
    kernel = module.entry(kernel_name)
    low = _Lowering(module, kernel, heap_base_of_vars)
    rows, statics = [], []
    for index, ins in enumerate(kernel.instructions):
        row = np.full(NF, -1, dtype=np.int64)
        row[[F_MOD, F_CMP, F_GNEG, F_SNEG, F_AOFF, F_VEC, F_WIDTH, F_SPACE]] = 0
        row[F_LINE] = ins.line
        static = StaticInstruction(index, ins.text, ins.line, ins.opcode)
        try:
            _lower_instruction(low, ins, row, static)
        except PTXError:
            # e.g. the .param scratch of a device-function call (printf): reported only if reached
            row[:] = -1
            row[F_OP], row[F_LINE], static.op = OP["unsupported"], ins.line, ""
        if ins.pred is not None:
            row[F_GUARD] = low.register(ins.pred)
            row[F_GNEG] = int(ins.pred_negated)
        rows.append(row)
        statics.append(static)
    code = np.array(rows, dtype=np.int64).reshape(-1, NF)
    _mark_if_conversions(code, kernel)
    return Program(
        kernel=kernel.name, code=code, n_slots=len(low.slots), special_base=low.special_base,
        constants=[(slot, bits) for bits, slot in low.constants.items()], layout=low.layout,
        instructions=statics, files=module.files)


def _mark_if_conversions(code: np.ndarray, kernel: Kernel) -> None:
    targets = set(kernel.labels.values())
    for pc, ins in enumerate(kernel.instructions):
        if ins.opcode != "bra" or ins.pred is None or code[pc, F_OP] != OP["bra"]:
            continue
        target = int(code[pc, F_TARGET])
        region = kernel.instructions[pc + 1:target]
        if not 0 < len(region) <= IFCONV_MAX_INSTRUCTIONS:
            continue
        if any(i.opcode in _IFCONV_BLOCKERS or i.opcode not in OP for i in region):
            continue
        if any(t in targets for t in range(pc + 1, target)):
            continue
        if target < len(kernel.instructions) and kernel.instructions[target].opcode in ("ret", "exit"):
            continue  # becomes a predicated exit: lanes leave, nothing is issued for them
        code[pc, F_MOD] |= M_IFCONV


def _types_in(mods: tuple[str, ...]) -> list[str]:
    return [m for m in mods if m in TYPE_NAMES]


HALF_TYPES = ("f16", "f16x2", "bf16", "bf16x2")
HALF_MOVES = ("ld", "st", "mov", "cvt", "ldu")   # cvt refuses half values when it runs


def _lower_instruction(low: _Lowering, ins: Instruction, row: np.ndarray, static: StaticInstruction) -> None:
    name, mods = ins.opcode, ins.mods
    if name not in OP or name == "unsupported" or (
            name not in HALF_MOVES and any(m in HALF_TYPES for m in mods)):
        row[F_OP] = OP["unsupported"]   # half-precision arithmetic: the SASS engine runs it
        return
    row[F_OP] = OP[name]
    types = _types_in(mods)
    t = type_code(types[0]) if types else T_NONE
    row[F_TYPE] = t
    if len(types) > 1:
        row[F_TYPE2] = type_code(types[1])
    for m in mods:
        if m in ("lo",):
            row[F_MOD] |= M_LO
        elif m == "hi":
            row[F_MOD] |= M_HI
        elif m == "wide":
            row[F_MOD] |= M_WIDE
        elif m == "sat" or m == "satfinite":
            row[F_MOD] |= M_SAT
        elif m == "volatile":
            row[F_MOD] |= M_VOLATILE
    handler = _HANDLERS.get(name, _lower_alu)
    handler(low, ins, row, static, t)


def _set_dst(low: _Lowering, row: np.ndarray, operand) -> None:
    items = operand.items if isinstance(operand, Vec) else (operand,)
    for k, item in enumerate(items):
        row[DST_FIELDS[k]] = low.register(item.name)


def _set_srcs(low: _Lowering, row: np.ndarray, operands, types: list[int]) -> None:
    for k, operand in enumerate(operands):
        slot, negated = low.source(operand, types[k] if k < len(types) else types[-1])
        row[SRC_FIELDS[k]] = slot
        if negated:
            row[F_SNEG] |= 1 << k


def _lower_alu(low, ins, row, static, t) -> None:
    ops = ins.operands
    if not ops:
        return
    _set_dst(low, row, ops[0])
    src_types = [t] * (len(ops) - 1)
    if ins.opcode in ("shl", "shr"):
        src_types = [t, type_code("u32")]
    elif ins.opcode in ("bfe",):
        src_types = [t, type_code("u32"), type_code("u32")]
    elif ins.opcode in ("bfi",):
        src_types = [t, t, type_code("u32"), type_code("u32")]
    elif ins.opcode in ("mad", "mul") and row[F_MOD] & M_WIDE and len(ops) == 4:
        wide = (t & ~15) | ((t & 15) + 1)
        src_types = [t, t, wide]
    elif ins.opcode == "selp":
        src_types = [t, t, type_code("pred")]
    elif ins.opcode in ("popc", "clz"):
        src_types = [t]
    _set_srcs(low, row, ops[1:], src_types)


def _lower_mov(low, ins, row, static, t) -> None:
    dst, src = ins.operands
    if isinstance(src, Vec):                         # mov.b64 %rd, {%r1, %r2}
        row[F_OP] = OP["pack"]
        part = (t & ~15) | ((t & 15) - (len(src.items) // 2))
        row[F_TYPE2] = part
        _set_dst(low, row, dst)
        _set_srcs(low, row, src.items, [part] * len(src.items))
        row[F_VEC] = len(src.items)
        return
    if isinstance(dst, Vec):                         # mov.b64 {%r1, %r2}, %rd
        row[F_OP] = OP["unpack"]
        row[F_VEC] = len(dst.items)
        _set_dst(low, row, dst)
        _set_srcs(low, row, [src], [t])
        return
    _set_dst(low, row, dst)
    _set_srcs(low, row, [src], [t])


def _lower_cvt(low, ins, row, static, t) -> None:
    for m in ins.mods:
        if m in ROUNDING:
            row[F_CMP] = ROUNDING[m]
    _set_dst(low, row, ins.operands[0])
    _set_srcs(low, row, ins.operands[1:], [row[F_TYPE2] if row[F_TYPE2] != -1 else t])


def _lower_float_round(low, ins, row, static, t) -> None:
    for m in ins.mods:
        if m in ROUNDING:
            row[F_CMP] = ROUNDING[m]
    _lower_alu(low, ins, row, static, t)


def _lower_setp(low, ins, row, static, t) -> None:
    for m in ins.mods:
        if m in CMP_OPS:
            row[F_CMP] = CMP_OPS[m]
        elif m in BOOL_OPS:
            row[F_MOD] |= BOOL_OPS[m]
    _set_dst(low, row, ins.operands[0])
    srcs = ins.operands[1:]
    _set_srcs(low, row, srcs, [t, t, type_code("pred")])
    if ins.opcode == "set":
        # set.CMP.dtype.stype: the first type is the destination's, the second the operands'.
        row[F_TYPE], row[F_TYPE2] = row[F_TYPE2], row[F_TYPE]
        _set_srcs(low, row, srcs, [row[F_TYPE], row[F_TYPE], type_code("pred")])


def _lower_testp(low, ins, row, static, t) -> None:
    for m in ins.mods:
        if m in TESTP_MODES:
            row[F_CMP] = TESTP_MODES[m]
    _lower_alu(low, ins, row, static, t)


def _memory_space(mods: tuple[str, ...]) -> int:
    for m in mods:
        if m in SPACES:
            return SPACES[m]
    return SP_GENERIC


def _vector_width(mods: tuple[str, ...]) -> int:
    for m in mods:
        if m in ("v2", "v4", "v8"):
            return int(m[1:])
    return 1


def _set_address(low: _Lowering, row: np.ndarray, addr) -> int:
    """Fill F_ABASE/F_AOFF; returns the space a symbol base implies (or -1)."""
    if not isinstance(addr, Addr):
        raise PTXError(f"expected an address, got {addr}")
    implied = -1
    if isinstance(addr.base, Reg):
        row[F_ABASE] = low.register(addr.base.name)
        row[F_AOFF] = addr.offset
    elif isinstance(addr.base, Sym):
        row[F_AOFF] = low.symbol_address(addr.base.name) + addr.base.offset + addr.offset
        implied = low.address_space.get(addr.base.name, -1)
    else:
        row[F_AOFF] = addr.offset
    return implied


def _lower_memory(low, ins, row, static, t) -> None:
    space = _memory_space(ins.mods)
    vec = _vector_width(ins.mods)
    row[F_VEC] = vec
    row[F_WIDTH] = type_size(t) * vec
    if ins.opcode == "ldu":
        row[F_OP] = OP["ld"]
        space = SP_GLOBAL if space == SP_GENERIC else space
    if ins.opcode in ("ld", "ldu"):
        _set_dst(low, row, ins.operands[0])
        implied = _set_address(low, row, ins.operands[1])
        static.op = "ld"
    else:
        implied = _set_address(low, row, ins.operands[0])
        value = ins.operands[1]
        _set_srcs(low, row, value.items if isinstance(value, Vec) else [value], [t])
        static.op = "st"
    if space == SP_GENERIC and implied >= 0:
        space = implied
    row[F_SPACE] = space
    static.space, static.width = SPACE_NAMES[space], int(row[F_WIDTH])


def _lower_atom(low, ins, row, static, t) -> None:
    space = _memory_space(ins.mods)
    for m in ins.mods:
        if m in ATOM_OPS:
            row[F_CMP] = ATOM_OPS[m]
    row[F_WIDTH] = type_size(t)
    if ins.opcode == "atom":
        _set_dst(low, row, ins.operands[0])
        rest = ins.operands[1:]
    else:
        rest = ins.operands
    implied = _set_address(low, row, rest[0])
    _set_srcs(low, row, rest[1:], [t])
    if space == SP_GENERIC and implied >= 0:
        space = implied
    row[F_SPACE] = space
    static.space, static.op, static.width = SPACE_NAMES[space], ins.opcode, type_size(t)


def _lower_cvta(low, ins, row, static, t) -> None:
    row[F_SPACE] = _memory_space(ins.mods)
    if "to" in ins.mods:
        row[F_MOD] |= M_TO
    _set_dst(low, row, ins.operands[0])
    _set_srcs(low, row, ins.operands[1:], [t])


def _lower_bra(low, ins, row, static, t) -> None:
    target = ins.operands[-1]
    if not isinstance(target, Sym) or target.name not in low.kernel.labels:
        raise PTXError(f"branch to unknown label in '{ins.text}'")
    row[F_TARGET] = low.kernel.labels[target.name]


def _lower_bar(low, ins, row, static, t) -> None:
    if ins.opcode == "bar" and ins.mods and ins.mods[0] == "warp":
        row[F_OP] = OP["membar"]  # bar.warp.sync: a no-op when lanes run in lockstep
        return
    if any(m in ("arrive", "red") for m in ins.mods):
        row[F_OP] = OP["unsupported"]


def _lower_shfl(low, ins, row, static, t) -> None:
    for m in ins.mods:
        if m in SHFL_MODES:
            row[F_CMP] = SHFL_MODES[m]
    dst = ins.operands[0]
    _set_dst(low, row, dst)
    u32 = type_code("u32")
    _set_srcs(low, row, ins.operands[1:], [t, u32, u32, u32])


def _lower_vote(low, ins, row, static, t) -> None:
    for m in ins.mods:
        if m in VOTE_MODES:
            row[F_CMP] = VOTE_MODES[m]
    _set_dst(low, row, ins.operands[0])
    _set_srcs(low, row, ins.operands[1:], [type_code("pred"), type_code("u32")])


def _lower_nop(low, ins, row, static, t) -> None:
    return


_HANDLERS = {
    "mov": _lower_mov, "cvt": _lower_cvt, "setp": _lower_setp, "set": _lower_setp,
    "ld": _lower_memory, "ldu": _lower_memory, "st": _lower_memory,
    "atom": _lower_atom, "red": _lower_atom, "cvta": _lower_cvta, "bra": _lower_bra,
    "bar": _lower_bar, "barrier": _lower_bar, "shfl": _lower_shfl, "vote": _lower_vote,
    "membar": _lower_nop, "fence": _lower_nop, "prefetch": _lower_nop, "nanosleep": _lower_nop,
    "ret": _lower_nop, "exit": _lower_nop, "trap": _lower_nop, "pragma": _lower_nop,
    "activemask": _lower_alu, "testp": _lower_testp,
    "div": _lower_float_round, "add": _lower_float_round, "sub": _lower_float_round,
    "mul": _lower_float_round, "fma": _lower_float_round, "rcp": _lower_float_round,
    "sqrt": _lower_float_round,
}


def bind_params(program: Program, block: np.ndarray) -> Program:
    """Turn `ld.param [symbol]` into moves from constant slots holding this launch's values.

    Parameters are launch constants, and on the hardware they are constant-bank operands rather
    than memory instructions: this keeps them off the emulator's memory path.
    """
    import dataclasses
    code = program.code.copy()
    constants = list(program.constants)
    slot_of = {bits: slot for slot, bits in constants}
    n_slots = program.n_slots
    raw = block.tobytes()
    for row in code:
        if not (row[F_OP] == OP["ld"] and row[F_SPACE] == SP_PARAM and row[F_ABASE] < 0
                and row[F_VEC] == 1 and row[F_WIDTH] <= 8):
            continue
        offset, size, t = int(row[F_AOFF]), int(row[F_WIDTH]), int(row[F_TYPE])
        if offset < 0 or offset + size > len(raw):
            continue  # left for the emulator to report as out of bounds
        value = int.from_bytes(raw[offset:offset + size], "little",
                               signed=type_kind(t) == K_SIGNED) & ((1 << 64) - 1)
        if value not in slot_of:
            slot_of[value] = n_slots
            constants.append((n_slots, value))
            n_slots += 1
        row[F_OP], row[F_S0], row[F_ABASE] = OP["mov"], slot_of[value], -1
    return dataclasses.replace(program, code=code, constants=constants, n_slots=n_slots)
