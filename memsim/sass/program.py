"""Lowering: parsed SASS -> int64 rows the Numba emulator runs (memsim/sass/emulate.py).

Every register lives in one slot space: R0..R254 and RZ, UR0..UR62 and URZ, P0..P6 and PT,
UP0..UP6 and UPT, and a sink that absorbs writes to RZ/URZ/PT. Each row holds the opcode id,
flags, guard, branch target, source line, and up to 8 operands in an opcode-specific fixed
order (kind, value, modifier bits). Constant-bank operands are launch constants: `bind` turns
them into immediates from the launch's constant bank (ntid, nctaid, params at 0x210).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from ..errors import UnsupportedInstruction
from ..ptx.program import StaticInstruction
from .parser import Operand, SassInstruction, SassKernel

# Register slots.
RZ, UR_BASE, URZ, P_BASE, PT, UP_BASE, UPT, SINK = 255, 256, 319, 320, 327, 328, 335, 336
N_SLOTS = 337

# Row fields: header, then 8 operands of (kind, value, modifiers), then the memory address,
# then which operands the instruction writes (bit k: operand k; for register_operands).
(F_OP, F_FLAGS, F_GUARD, F_GNEG, F_TARGET, F_LINE, F_WIDTH, F_CMP, F_UNIFORM) = range(9)
F_OPS = 9
N_OPERANDS = 8
F_MBASE, F_MWIDE, F_MUR, F_MOFF = F_OPS + 3 * N_OPERANDS, F_OPS + 3 * N_OPERANDS + 1, \
    F_OPS + 3 * N_OPERANDS + 2, F_OPS + 3 * N_OPERANDS + 3
F_WRITES = F_MOFF + 1
NF = F_WRITES + 1

K_NONE, K_REG, K_IMM, K_CONST = 0, 1, 2, 3
M_NEG, M_NOT, M_FNEG, M_FABS = 1, 2, 4, 8

OPCODES = ("NOP", "MOV", "MOV64", "S2R", "IADD3", "IMAD", "LEA", "LOP3", "PLOP3", "SHF",
           "ISETP", "FSETP", "PRMT", "IABS", "FADD", "FMUL", "FFMA", "DADD", "I2F", "F2I",
           "MUFU_RCP", "LD", "ST", "RED", "BAR", "BRA", "EXIT", "BSSY", "BSYNC", "BREAK", "SEL")
OP = {name: i for i, name in enumerate(OPCODES)}

# Flags.
FL_X, FL_HI, FL_WIDE, FL_U32, FL_SX32, FL_FTZ, FL_LEFT, FL_SIGNED, FL_RP, FL_FLOAT = \
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512
FL_GLOBAL, FL_SHARED = 1024, 2048
FL_BIT64 = 4096
CMP = {c: i for i, c in enumerate(("EQ", "NE", "LT", "LE", "GT", "GE", "EQU", "NEU", "LTU", "LEU",
                                   "GTU", "GEU", "NUM", "NAN", "F", "T"))}
BOOL = {"AND": 1, "OR": 2, "XOR": 3}
SPECIALS = ("SR_TID.X", "SR_TID.Y", "SR_TID.Z", "SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z",
            "SR_CgaCtaId", "SR_LANEID", "SRZ")
# Hopper keeps the first 1 KiB of a block's shared window for the system: user shared memory
# starts at 0x400 (SASS builds the address from SR_CgaCtaId << 24 + 0x400).
SHARED_WINDOW_BASE = 0x400
CONST_PARAM_BASE = 0x210

MEMORY_WIDTHS = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "64": 8, "128": 16}


@dataclass
class SassProgram:
    kernel: str
    code: np.ndarray
    instructions: list[StaticInstruction]


def lower(kernel: SassKernel) -> SassProgram:
    rows, statics = [], []
    for index, ins in enumerate(kernel.instructions):
        row = np.zeros(NF, dtype=np.int64)
        row[[F_GUARD, F_TARGET, F_MBASE, F_MUR]] = -1
        static = StaticInstruction(index, ins.text, ins.line, ins.opcode)
        _lower(ins, row, static)
        rows.append(row)
        statics.append(static)
    return SassProgram(kernel.name, np.array(rows, dtype=np.int64).reshape(-1, NF), statics)


def slot(op: Operand, dst: bool = False) -> int:
    if op.kind == "reg":
        n = op.value
    elif op.kind == "ureg":
        n = URZ if op.value == 63 else UR_BASE + op.value
    elif op.kind == "pred":
        n = P_BASE + op.value
    elif op.kind == "upred":
        n = UP_BASE + op.value
    else:
        raise ValueError(op.kind)
    if dst and n in (RZ, URZ, PT, UPT):
        return SINK
    return n


def _lower(ins: SassInstruction, row: np.ndarray, static: StaticInstruction) -> None:
    name, mods = ins.opcode, set(ins.mods)
    row[F_LINE] = ins.line
    row[F_TARGET] = ins.target
    if ins.guard >= 0:
        row[F_GUARD] = (UP_BASE if ins.guard_uniform else P_BASE) + ins.guard
        row[F_GNEG] = int(ins.guard_negated)
    ops = list(ins.operands)
    if name.startswith("U") and name not in ("UNKNOWN",) or name == "S2UR":
        row[F_UNIFORM] = 1
        name = name[1:] if name.startswith("U") else name
    handler = _HANDLERS.get(name)
    if handler is None:
        raise UnsupportedInstruction(f"SASS opcode {ins.opcode} is not emulated (`{ins.text}`)")
    handler(ins, mods, ops, row, static)


def _put(row: np.ndarray, k: int, op: Operand | None, dst: bool = False, floating: bool = False) -> None:
    base = F_OPS + 3 * k
    if op is None:
        row[base] = K_NONE
        return
    mod = 0
    if op.kind in ("reg", "ureg", "pred", "upred"):
        row[base], row[base + 1] = K_REG, slot(op, dst)
        row[F_WRITES] |= int(dst) << k
    elif op.kind == "imm":
        row[base], row[base + 1] = K_IMM, op.value & 0xFFFFFFFF
    elif op.kind == "fimm":
        row[base], row[base + 1] = K_IMM, struct.unpack("<I", struct.pack("<f", op.fvalue))[0]
        if floating:
            op = Operand("fimm")  # the sign is in the value already
    elif op.kind == "const":
        row[base], row[base + 1] = K_CONST, (op.bank << 32) | op.value
    else:
        raise UnsupportedInstruction(f"operand kind {op.kind} where a value is expected")
    if op.negate:
        mod |= M_FNEG if floating else M_NEG
    if op.invert:
        mod |= M_NOT
    if op.absolute:
        mod |= M_FABS
    row[base + 2] = mod


def _place(row, ops, layout, floating=False, dsts=1) -> None:
    for k, op in enumerate(layout):
        if op is not None:
            _put(row, k, ops[op] if isinstance(op, int) else op, dst=k < dsts, floating=floating)


def _is_pred(op: Operand) -> bool:
    return op.kind in ("pred", "upred")


def _nop(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["NOP"]


def _mov(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["MOV"]
    _place(row, ops, [0, 1])


def _ldc(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["MOV64"] if "64" in mods else OP["MOV"]
    _place(row, ops, [0, 1])


def _cs2r(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["MOV64"]
    _put(row, 0, ops[0], dst=True)
    row[F_OPS + 3], row[F_OPS + 4] = K_IMM, 0


def _s2r(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["S2R"]
    name = ops[1].text
    if name not in SPECIALS:
        raise UnsupportedInstruction(f"special register {name} is not emulated (`{ins.text}`)")
    _put(row, 0, ops[0], dst=True)
    row[F_OPS + 3], row[F_OPS + 4] = K_IMM, SPECIALS.index(name)


def _hfma2(ins, mods, ops, row, static) -> None:
    # HFMA2.MMA Rd, -RZ, RZ, hi, lo: ptxas' way of materialising a 32-bit constant.
    if not (ops[1].kind == "reg" and ops[1].value == RZ and ops[2].kind == "reg" and ops[2].value == RZ):
        raise UnsupportedInstruction(f"HFMA2 other than a constant move is not emulated (`{ins.text}`)")
    hi, lo = (struct.unpack("<H", np.float16(o.fvalue if o.kind == "fimm" else o.value).tobytes())[0]
              for o in ops[3:5])
    row[F_OP] = OP["MOV"]
    _put(row, 0, ops[0], dst=True)
    row[F_OPS + 3], row[F_OPS + 4] = K_IMM, (hi << 16) | lo


def _iadd3(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["IADD3"]
    row[F_FLAGS] = FL_X if "X" in mods else 0
    carries_out = [o for o in ops[1:3] if _is_pred(o)]
    rest = ops[1 + len(carries_out):]
    layout = [ops[0]] + (carries_out + [None, None])[:2] + rest[:3] + (rest[3:] + [None, None])[:2]
    _place(row, layout, list(range(len(layout))), dsts=3)
    for k, op in enumerate(layout):
        if op is None:
            row[F_OPS + 3 * k] = K_NONE


def _viadd(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["IADD3"]
    _put(row, 0, ops[0], dst=True)
    _put(row, 3, ops[1])
    _put(row, 4, ops[2])


def _imad(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["IMAD"]
    flags = 0
    for m, f in (("X", FL_X), ("HI", FL_HI), ("WIDE", FL_WIDE), ("U32", FL_U32)):
        if m in mods:
            flags |= f
    row[F_FLAGS] = flags
    if _is_pred(ops[1]):
        raise UnsupportedInstruction(f"IMAD with a carry out is not emulated (`{ins.text}`)")
    _place(row, ops, [0, None, 1, 2, 3] + ([4] if len(ops) > 4 else []))


def _lea(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["LEA"]
    flags = 0
    for m, f in (("X", FL_X), ("HI", FL_HI), ("SX32", FL_SX32)):
        if m in mods:
            flags |= f
    row[F_FLAGS] = flags
    rest = ops[1:]
    carry_out = rest.pop(0) if _is_pred(rest[0]) else None
    a, b = rest.pop(0), rest.pop(0)
    hi = rest.pop(0) if "HI" in mods and "SX32" not in mods else None
    shift = rest.pop(0)
    carry_in = rest.pop(0) if rest else None
    for k, op in enumerate([ops[0], carry_out, a, b, hi, shift, carry_in]):
        _put(row, k, op, dst=k < 2)


def _lop3(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["LOP3"]
    if _is_pred(ops[0]):
        layout = [ops[1], ops[0], ops[2], ops[3], ops[4], ops[5]]
    else:
        layout = [ops[0], None, ops[1], ops[2], ops[3], ops[4]]
    for k, op in enumerate(layout):
        _put(row, k, op, dst=k < 2)


def _plop3(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["PLOP3"]
    _place(row, ops, [0, 1, 2, 3, 4, 5, 6], dsts=2)


def _shf(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["SHF"]
    flags = FL_LEFT if "L" in mods else 0
    flags |= FL_HI if "HI" in mods else 0
    flags |= FL_SIGNED if ("S32" in mods or "S64" in mods) else 0
    flags |= FL_BIT64 if ("U64" in mods or "S64" in mods) else 0
    row[F_FLAGS] = flags
    _place(row, ops, [0, 1, 2, 3])


def _compare_mods(ins, mods, row) -> None:
    cmp = [m for m in ins.mods if m in CMP]
    boolean = [m for m in ins.mods if m in BOOL]
    row[F_CMP] = CMP[cmp[0]] | (BOOL[boolean[0]] << 8 if boolean else 1 << 8)


def _isetp(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["ISETP"]
    _compare_mods(ins, mods, row)
    row[F_FLAGS] = (FL_U32 if "U32" in mods else 0) | (FL_X if "EX" in mods else 0)
    _place(row, ops, list(range(len(ops))), dsts=2)


def _fsetp(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["FSETP"]
    _compare_mods(ins, mods, row)
    row[F_FLAGS] = FL_FTZ if "FTZ" in mods else 0
    _place(row, ops, list(range(len(ops))), floating=True, dsts=2)


def _float(name):
    def handler(ins, mods, ops, row, static) -> None:
        row[F_OP] = OP[name]
        row[F_FLAGS] = FL_FTZ if "FTZ" in mods else 0
        _place(row, ops, list(range(len(ops))), floating=True)
    return handler


def _i2f(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["I2F"]
    unsigned = "U32" in mods
    row[F_FLAGS] = (FL_U32 if unsigned else 0) | (FL_RP if "RP" in mods else 0)
    if any(m in mods for m in ("F64", "S64", "U64", "F16", "U16", "S16", "U8", "S8")) and ins.opcode == "I2F":
        raise UnsupportedInstruction(f"I2F of this type is not emulated (`{ins.text}`)")
    _place(row, ops, [0, 1])


def _f2i(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["F2I"]
    if not ("TRUNC" in mods and ("U32" in mods or "S32" in mods or len(mods & {"U32", "S64", "U64"}) == 0)):
        raise UnsupportedInstruction(f"F2I rounding/type not emulated (`{ins.text}`)")
    row[F_FLAGS] = (FL_U32 if "U32" in mods else 0) | (FL_FTZ if "FTZ" in mods else 0)
    _place(row, ops, [0, 1], floating=True)


def _mufu(ins, mods, ops, row, static) -> None:
    if "RCP" not in mods:
        raise UnsupportedInstruction(f"MUFU.{'.'.join(ins.mods)} is not emulated (`{ins.text}`)")
    row[F_OP] = OP["MUFU_RCP"]
    _place(row, ops, [0, 1], floating=True)


def _prmt(ins, mods, ops, row, static) -> None:
    if ins.mods:
        raise UnsupportedInstruction(f"PRMT mode {ins.mods} is not emulated (`{ins.text}`)")
    row[F_OP] = OP["PRMT"]
    _place(row, ops, [0, 1, 2, 3])


def _iabs(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["IABS"]
    _place(row, ops, [0, 1])


def _sel(ins, mods, ops, row, static) -> None:
    row[F_OP] = OP["SEL"]
    _place(row, ops, [0, 1, 2, 3])


def _memory_width(mods: set[str]) -> tuple[int, bool]:
    for m, width in MEMORY_WIDTHS.items():
        if m in mods:
            return width, m.startswith("S")
    return 4, False


def _memory(space: str, kind: str):
    def handler(ins, mods, ops, row, static) -> None:
        width, signed = _memory_width(mods)
        row[F_OP] = OP[kind]
        row[F_WIDTH] = width
        row[F_FLAGS] = (FL_GLOBAL if space == "global" else FL_SHARED) | (FL_SIGNED if signed else 0)
        address = next(o for o in ops if o.kind == "mem")
        data = [o for o in ops if o.kind != "mem"]
        if kind == "RED":
            if "ADD" not in mods or len(data) != 1:
                raise UnsupportedInstruction(f"{ins.opcode}.{'.'.join(ins.mods)} is not emulated (`{ins.text}`)")
            row[F_FLAGS] |= FL_FLOAT if "F32" in mods else 0
            if any(m in mods for m in ("64", "F64", "S64", "U64", "F16x2", "BF16x2")):
                raise UnsupportedInstruction(f"{ins.opcode} width not emulated (`{ins.text}`)")
        _put(row, 0, data[0], dst=kind == "LD")
        row[F_MBASE] = -1 if address.base < 0 else (
            (URZ if address.base == 63 else UR_BASE + address.base) if address.base_uniform else address.base)
        row[F_MWIDE] = int(address.wide)
        row[F_MUR] = -1 if address.uoffset < 0 else (
            URZ if address.uoffset == 63 else UR_BASE + address.uoffset)
        row[F_MOFF] = address.value
        static.space, static.width = space, width
        static.op = {"LD": "ld", "ST": "st", "RED": "red"}[kind]
    return handler


def _control(name):
    def handler(ins, mods, ops, row, static) -> None:
        row[F_OP] = OP[name]
        barriers = [o.value for o in ops if o.kind == "barrier"]
        if barriers:
            row[F_CMP] = barriers[0]
        if name in ("BRA", "BSSY") and ins.target < 0:
            raise UnsupportedInstruction(f"{ins.opcode} without a label target (`{ins.text}`)")
        if name == "BRA" and ins.mods:
            raise UnsupportedInstruction(f"BRA.{'.'.join(ins.mods)} is not emulated (`{ins.text}`)")
        if name == "BRA":   # `@P0 BRA P1, target`: taken where the guard and P1 both hold
            conditions = [o for o in ops if _is_pred(o)]
            _put(row, 0, conditions[0] if conditions else None)
        if name == "BREAK" and any(_is_pred(o) for o in ops):
            raise UnsupportedInstruction(f"predicated-operand BREAK is not emulated (`{ins.text}`)")
    return handler


def _bar(ins, mods, ops, row, static) -> None:
    if "SYNC" not in mods or (ops and not (ops[0].kind == "imm" and ops[0].value == 0)) or len(ops) > 1:
        raise UnsupportedInstruction(f"BAR other than bar.sync 0 is not emulated (`{ins.text}`)")
    row[F_OP] = OP["BAR"]


_HANDLERS = {
    "NOP": _nop, "WARPSYNC": _nop, "MOV": _mov, "LDC": _ldc, "S2R": _s2r, "S2UR": _s2r,
    "CS2R": _cs2r, "HFMA2": _hfma2, "IADD3": _iadd3, "VIADD": _viadd, "IMAD": _imad,
    "LEA": _lea, "LOP3": _lop3, "PLOP3": _plop3, "SHF": _shf, "ISETP": _isetp, "FSETP": _fsetp,
    "FADD": _float("FADD"), "FMUL": _float("FMUL"), "FFMA": _float("FFMA"),
    "DADD": _float("DADD"), "I2F": _i2f, "I2FP": _i2f, "F2I": _f2i, "MUFU": _mufu,
    "PRMT": _prmt, "IABS": _iabs, "SEL": _sel,
    "LDG": _memory("global", "LD"), "STG": _memory("global", "ST"),
    "LDS": _memory("shared", "LD"), "STS": _memory("shared", "ST"),
    "REDG": _memory("global", "RED"),
    "BAR": _bar, "BRA": _control("BRA"), "EXIT": _control("EXIT"), "BSSY": _control("BSSY"),
    "BSYNC": _control("BSYNC"), "BREAK": _control("BREAK"),
}
# Uniform-datapath twins (UIADD3, UMOV, ...) share the handlers; lower() strips the U.
SUPPORTED = sorted(set(_HANDLERS) | {"U" + n for n in ("IADD3", "IMAD", "LEA", "LOP3", "SHF", "MOV", "LDC")})


# Round-trip steps of the warp scoreboard (memsim/sass/emulate.py): a warp's clock counts
# global round trips in its high bits and constant-cache ones in its low bits, so that the
# largest clock is the path with the most global round trips.
GLOBAL_ROUND_TRIP, CONSTANT_ROUND_TRIP = 1 << 20, 1


def round_trip_steps(program: SassProgram) -> np.ndarray:
    """Per pc, the round trip its result waits for: global loads (LDG) go to L1, L2 or DRAM;
    LDC reads the constant bank per thread, which misses in a cold launch; others, none.
    ULDC (the uniform datapath's constant read) is not counted: the time model's constant was
    fitted on the H100 durations with LDC alone, and no probe has timed ULDC separately."""
    steps = np.zeros(len(program.code), np.int64)
    for pc, static in enumerate(program.instructions):
        row = program.code[pc]
        if row[F_OP] == OP["LD"] and row[F_FLAGS] & FL_GLOBAL:
            steps[pc] = GLOBAL_ROUND_TRIP
        elif static.opcode == "LDC":
            steps[pc] = CONSTANT_ROUND_TRIP
    return steps


def register_operands(program: SassProgram) -> tuple[np.ndarray, np.ndarray]:
    """(sources, dests): per instruction the register slots it reads (guard and address
    included) and writes, register pairs and quads spelled out, -1 padded. RZ, URZ, PT and
    UPT are constants and left out. What memsim.scheduling.ProgramFlow.in_order follows."""
    uses = [_register_uses(row) for row in program.code]
    width = max([1] + [max(len(r), len(w)) for r, w in uses])
    sources = np.full((len(uses), width), -1, np.int64)
    dests = np.full((len(uses), width), -1, np.int64)
    for pc, (reads, writes) in enumerate(uses):
        sources[pc, :len(reads)] = reads
        dests[pc, :len(writes)] = writes
    return sources, dests


def _register_uses(row: np.ndarray) -> tuple[list[int], list[int]]:
    reads = [int(row[F_GUARD])] if row[F_GUARD] >= 0 else []
    writes: list[int] = []
    for k in range(N_OPERANDS):
        base = F_OPS + 3 * k
        first = int(row[base + 1])
        if row[base] != K_REG or first in (RZ, URZ, PT, UPT, SINK):
            continue
        target = writes if (row[F_WRITES] >> k) & 1 else reads
        target.extend(range(first, first + _registers_of(row, k)))
    if row[F_MBASE] >= 0 and row[F_MBASE] not in (RZ, URZ):
        reads.extend(range(int(row[F_MBASE]), int(row[F_MBASE]) + (2 if row[F_MWIDE] else 1)))
    if row[F_MUR] >= 0 and row[F_MUR] != URZ:
        reads.append(int(row[F_MUR]))
    return reads, writes


def _registers_of(row: np.ndarray, k: int) -> int:
    """Consecutive registers operand k spans: the data of 64- and 128-bit memory accesses,
    64-bit moves and doubles, IMAD.WIDE's result and the addend pair of IMAD.WIDE/.HI."""
    op, flags = row[F_OP], row[F_FLAGS]
    if op in (OP["LD"], OP["ST"], OP["RED"]) and k == 0:
        return max(int(row[F_WIDTH]) // 4, 1)
    if (op == OP["MOV64"] and k <= 1) or (op == OP["DADD"] and k <= 2):
        return 2
    if op == OP["IMAD"] and ((flags & FL_WIDE and k == 0) or (flags & (FL_WIDE | FL_HI) and k == 4)):
        return 2
    return 1


def constant_bank(block3, grid3, params: np.ndarray) -> np.ndarray:
    """Bank 0 as sm_90 lays it out: ntid at 0x0, nctaid at 0xc, the stack top at 0x28, the
    global memory descriptor at 0x208 and the kernel parameters from 0x210."""
    bank = np.zeros(CONST_PARAM_BASE + len(params) + 16, dtype=np.uint8)
    words = bank[:CONST_PARAM_BASE].view(np.uint32)
    words[0:3] = block3
    words[3:6] = grid3
    words[0x28 // 4] = 0xFFFC00
    bank[CONST_PARAM_BASE:CONST_PARAM_BASE + len(params)] = params
    return bank


def bind(program: SassProgram, bank: np.ndarray) -> np.ndarray:
    """The program's rows with every c[0x0][off] operand replaced by its launch value."""
    code = program.code.copy()
    for pc in range(code.shape[0]):
        for k in range(N_OPERANDS):
            base = F_OPS + 3 * k
            if code[pc, base] != K_CONST:
                continue
            packed = int(code[pc, base + 1])
            bank_id, offset = packed >> 32, packed & 0xFFFFFFFF
            size = 8 if code[pc, F_OP] == OP["MOV64"] else 4
            if bank_id != 0 or offset + size > len(bank):
                raise UnsupportedInstruction(
                    f"constant c[{bank_id:#x}][{offset:#x}] is outside the emulated bank "
                    f"(`{program.instructions[pc].text}`)")
            code[pc, base] = K_IMM
            code[pc, base + 1] = int.from_bytes(bank[offset:offset + size].tobytes(), "little")
    return code


# memsim coverage's per-instruction check, appended while this module is being rewritten: where
# the rewrite defines its own unsupported_instructions (same signature) above, that one wins.
if "unsupported_instructions" not in globals():
    def unsupported_instructions(kernel: SassKernel, functions: dict[str, SassKernel] | None = None
                                 ) -> list[tuple[str, int, str]]:
        """(opcode with modifiers, source line, listing text) of every instruction of `kernel` and of
        the functions it calls (by CALL's call_target, found in `functions`) that lowering rejects,
        each tried on its own (lower() stops at the first): what `memsim coverage` lists. Goes
        through lower() on one-instruction kernels so that it needs nothing else of this module."""
        failures, parts, seen = [], [kernel], {kernel.name}
        for part in parts:
            for ins in part.instructions:
                callee = getattr(ins, "call_target", "")
                if callee and callee not in seen and functions and callee in functions:
                    seen.add(callee)
                    parts.append(functions[callee])
                # This lowering reads c[bank][offset] only: a register index would be dropped.
                indexed = any(o.kind == "const" and getattr(o, "index", -1) >= 0 for o in ins.operands)
                try:
                    if indexed:
                        raise UnsupportedInstruction(f"register-indexed constant (`{ins.text}`)")
                    lower(SassKernel(part.name, [ins]))
                except (UnsupportedInstruction, ValueError, KeyError, IndexError):
                    failures.append((".".join((ins.opcode, *ins.mods)), ins.line, ins.text))
        return failures
