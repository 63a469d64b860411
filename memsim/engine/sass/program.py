"""Lowering: parsed SASS -> int64 rows the Numba emulator runs (memsim/engine/sass/emulate.py).

The row layout is memsim/engine/sass/rows.py's; each opcode family (memsim/engine/sass/ops_*.py) lowers its
own opcodes, and this module holds the one table that joins them (`LOWER`: every SASS opcode
the engine runs), control flow, subroutines (a kernel's callees are appended after it, so CALL
is a jump within one program), and the launch-time binding of constant-bank operands.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ... import gpus
from ...errors import LaunchError, UnsupportedInstruction
from ...gpus import SassAbi
from ..program import StaticInstruction
from ..memory import PARAM_WINDOW
from . import emulate as e
from . import ops_float, ops_half, ops_int, ops_int_lowering, ops_matrix, ops_mbarrier, ops_memory, ops_tma, ops_warp, ops_wgmma
from .family import OP
from .parser import SassInstruction, SassKernel
from .rows import (BOOL, CMP, CONSTANT_ROUND_TRIP, F_CMP, F_FLAGS, F_GNEG, F_GUARD, F_LINE, F_MBASE,
                   F_MUR, F_MWIDE, F_OP, F_OPS, F_SUB, F_TARGET, F_UNIFORM, F_WIDE_OPS,
                   F_WIDTH, F_WRITES, FL_BIT64, FL_GLOBAL, FL_HI, FL_LOCAL, FL_SHARED, FL_WIDE,
                   GLOBAL_ROUND_TRIP, F_TYPE, K_CONST, K_IMM, K_REG, N_OPERANDS, N_SLOTS, NF, P_BASE,
                   PT, RZ, SINK, T_BF16, T_F64, T_S64, T_U64, UP_BASE, UPT, UR_BASE, URZ, is_pred, put,
                   unsupported)

__all__ = ["SassProgram", "lower", "bind", "constant_bank", "register_operands", "round_trip_steps",
           "N_SLOTS", "OP", "F_OP", "F_FLAGS", "F_GUARD", "F_TARGET", "FL_GLOBAL", "FL_SHARED",
           "BOOL", "CMP", "P_BASE", "UP_BASE", "UR_BASE"]

N_BANKS = 18


@dataclass
class SassProgram:
    kernel: str
    code: np.ndarray
    instructions: list[StaticInstruction]
    externals: list[str] = field(default_factory=list)   # functions called but not in the listing
    # Per row, the function and byte offset it was read from: where its encoding (and so
    # ptxas' control bits, memsim.engine.sass.control) sits in the cubin's `.text.<function>`.
    origins: list[tuple[str, int]] = field(default_factory=list)

    @property
    def has_global_atomics(self) -> bool:
        ops = self.code[:, F_OP]
        atomic = np.isin(ops, (ops_memory.O_ATOM, ops_memory.O_RED))
        return bool(np.any(atomic & ((self.code[:, F_FLAGS] & FL_GLOBAL) != 0)))

    @property
    def has_local(self) -> bool:
        return bool(np.any(self.code[:, F_FLAGS] & FL_LOCAL))

    def cached_memory(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(every access that goes through L1 to the L2: global, and local loads and stores;
        its loads; its local ones; each one's bytes per lane, 0 elsewhere): over the rows, for
        the cache model."""
        ops = self.code[:, F_OP]
        flags = self.code[:, F_FLAGS]
        is_global = (flags & FL_GLOBAL) != 0
        is_local = ((flags & FL_LOCAL) != 0) & ((ops == ops_memory.O_LD) | (ops == ops_memory.O_ST))
        memory = ((ops >> 6 == ops_memory.O_LD >> 6) & is_global) | is_local
        widths = np.where(memory, self.code[:, F_WIDTH], 0).astype(np.int64)
        return memory, (ops == ops_memory.O_LD) & (is_global | is_local), is_local, widths

    def barriers(self) -> np.ndarray:
        return self.code[:, F_OP] == e.O_BAR

    def branches(self) -> np.ndarray:
        return np.isin(self.code[:, F_OP], (e.O_BRA, e.O_BRA_DIV))


# ---- control flow ---------------------------------------------------------------------------

def _nop(ins, mods, ops, row):
    row[F_OP] = e.O_NOP


def _control(op):
    def handler(ins, mods, ops, row):
        row[F_OP] = op
        barriers = [o.value for o in ops if o.kind == "barrier"]
        if barriers:
            row[F_CMP] = barriers[0]
        if op in (e.O_BRA, e.O_BSSY, e.O_BRA_DIV) and ins.target < 0:
            raise unsupported(ins, "branch without a label target")
        if op == e.O_BREAK:   # BREAK [!]Pp, Bn: leaves the barrier where the guard and Pp hold
            conditions = [o for o in ops if is_pred(o)]
            put(row, 0, conditions[0] if conditions else None)
    return handler


def _bra(ins, mods, ops, row):
    """BRA [Pc,] target: taken where the guard and Pc both hold; BRA.DIV URm, target: taken
    where lanes of the mask URm are missing (the shuffle's divergent path)."""
    if "DIV" in mods:
        _control(e.O_BRA_DIV)(ins, mods, ops, row)
        put(row, 0, next(o for o in ops if o.kind in ("reg", "ureg")))
        return
    if set(mods) - {"U", "CONV", "INC", "ANY"}:
        raise unsupported(ins)
    _control(e.O_BRA)(ins, mods, ops, row)
    row[F_SUB] = int("ANY" in mods)   # BRA.U.ANY: the warp goes where any lane's guard sends it
    conditions = [o for o in ops if is_pred(o)]
    put(row, 0, conditions[0] if conditions else None)


def _brx(ins, mods, ops, row):
    """BRX Ra imm: an indexed jump (a jump table's switch, PTX brx.idx) to the byte address
    Ra + imm + the next instruction's, within the function; Ra comes from a constant-bank table
    of its targets. lower() turns the constant into rows (operand 1: bytes from the function's
    first instruction, operand 2: that instruction's row)."""
    regs = [o for o in ops if o.kind in ("reg", "ureg")]    # BRXU: the index in a uniform register
    imms = [o for o in ops if o.kind == "imm"]
    if set(mods) or len(regs) != 1 or len(imms) != 1 or not ins.branch_targets:
        raise unsupported(ins, "operand form")
    row[F_OP] = e.O_BRX
    put(row, 0, regs[0])
    row[F_OPS + 3], row[F_OPS + 4] = K_IMM, imms[0].value + ins.address + 16
    row[F_OPS + 6], row[F_OPS + 7] = K_IMM, 0


def _bar(ins, mods, ops, row):
    """BAR.SYNC (any id, any count: one barrier for the block); BAR.RED.{POPC,AND,OR} Pp also
    reduces Pp over the block for B2R.RESULT; BAR.ARV arrives without waiting and is taken as
    a no-op (its partner BAR.SYNC waits for the block)."""
    if "ARV" in mods:
        row[F_OP] = e.O_NOP
        return
    row[F_OP] = e.O_BAR
    if "RED" in mods:
        kind = [m for m in mods if m in e.BAR_REDUCTIONS]
        if not kind:
            raise unsupported(ins)
        row[F_SUB] = e.BAR_REDUCTIONS.index(kind[0]) + 1
        put(row, 0, next(o for o in ops if is_pred(o)))
    elif "SYNC" not in mods:
        raise unsupported(ins)


def _call(ins, mods, ops, row):
    """CALL.REL/ABS target: a subroutine of the kernel's own section (ptxas' division and
    square-root slow paths) or another function of the listing."""
    row[F_OP] = e.O_CALL
    if ins.target < 0 and not ins.call_target:   # CALL.ABS Rn: a function outside the module
        row[F_OP] = e.O_CALL_EXTERNAL
        row[F_SUB] = -1


def _warpsync(ins, mods, ops, row):
    """WARPSYNC Rm / imm / .ALL: lanes wait for the mask's lanes, the reconvergence point of
    diverged code without a BSSY/BSYNC pair. The COLLECTIVE form (divergent shuffles) is
    taken as a no-op."""
    if "COLLECTIVE" in mods:
        row[F_OP] = e.O_NOP
        return
    row[F_OP] = e.O_WARPSYNC
    values = [o for o in ops if o.kind in ("reg", "ureg", "imm")]
    if "ALL" in mods or not values:
        row[F_OPS], row[F_OPS + 1] = K_IMM, 0xFFFFFFFF
    else:
        put(row, 0, values[0])


def _ret(ins, mods, ops, row):
    row[F_OP] = e.O_RET


def _trap(ins, mods, ops, row):
    """BPT.TRAP (__trap(), a failed assert's end): an error where a thread gets there."""
    if "TRAP" not in mods:
        raise unsupported(ins)
    row[F_OP] = e.O_TRAP


def _lepc(ins, mods, ops, row):
    """LEPC Rd: the instruction's address, used to build return addresses that CALL/RET keep
    on their own stack here: 0."""
    row[F_OP] = ops_int.O_MOV
    put(row, 0, ops[0], dst=True)
    row[F_OPS + 3], row[F_OPS + 4] = K_IMM, 0


def _mov_or_ldc(ins, mods, ops, row):
    if ops_memory.is_indexed_constant(ops):
        ops_memory._ldc_indexed(ins, mods, ops, row)
    else:
        ops_int_lowering.lower_ldc(ins, mods, ops, row)


def _address_move(ins, mods, ops, row):
    """MOV Rd, 32@lo/hi((kernel + .L_x_N@srel)): a return address, which CALL/RET keep on
    their own stack: the register gets 0."""
    if len(ops) > 1 and ops[1].kind == "unknown" and "32@" in ops[1].text:
        row[F_OP] = ops_int.O_MOV
        put(row, 0, ops[0], dst=True)
        row[F_OPS + 3], row[F_OPS + 4] = K_IMM, 0
        return
    ops_int_lowering.lower_mov(ins, mods, ops, row)


CONTROL = {
    "NOP": _nop, "WARPSYNC": _warpsync, "NANOSLEEP": _nop, "YIELD": _control(e.O_YIELD), "MEMBAR": _nop,
    "FENCE": _nop, "ERRBAR": _nop, "CCTL": _nop, "CCTLL": _nop, "DEPBAR": _nop,
    "LDGDEPBAR": _nop, "BMOV": None, "PMTRIG": _nop, "CGAERRBAR": _nop, "ENDCOLLECTIVE": _nop,
    "BRA": _bra, "BRX": _brx, "BRXU": _brx, "EXIT": _control(e.O_EXIT), "BSSY": _control(e.O_BSSY),
    "BSYNC": _control(e.O_BSYNC), "BREAK": _control(e.O_BREAK), "BAR": _bar, "CALL": _call,
    "RET": _ret, "BPT": _trap, "LEPC": _lepc, "LDC": _mov_or_ldc, "MOV": _address_move,
}
LOWER = {**ops_int_lowering.LOWER, **ops_float.LOWER, **ops_warp.LOWER, **ops_memory.LOWER, **ops_matrix.LOWER,
         **ops_mbarrier.LOWER, **ops_tma.LOWER, **ops_wgmma.LOWER, **ops_half.LOWER,
         **{k: v for k, v in CONTROL.items() if v is not None}}
UNIFORM_TWINS = ("IADD3", "IMAD", "LEA", "LOP3", "SHF", "MOV", "LDC", "SEL", "ISETP", "PLOP3",
                 "FLO", "POPC", "BREV", "PRMT", "SGXT", "BMSK", "IABS", "P2R", "R2P", "IMNMX")


def handler_for(ins: SassInstruction):
    """The lowering handler of an instruction (uniform twins share their vector opcode's), or
    None where the engine does not run the opcode."""
    name = ins.opcode
    if name in LOWER:
        return LOWER[name]
    if name.startswith("U") and name[1:] in UNIFORM_TWINS:
        return LOWER[name[1:]]
    return None


def lower_instruction(ins: SassInstruction, row: np.ndarray, static: StaticInstruction) -> None:
    row[F_LINE] = ins.line
    row[F_TARGET] = ins.target
    if ins.guard >= 0:
        row[F_GUARD] = (UP_BASE if ins.guard_uniform else P_BASE) + ins.guard
        row[F_GNEG] = int(ins.guard_negated)
    if ins.opcode.startswith("U") and ins.opcode[1:] in UNIFORM_TWINS or ins.opcode in ("S2UR", "VOTEU"):
        row[F_UNIFORM] = 1
    if any(o.kind == "unknown" for o in ins.operands) and ins.opcode not in ("MOV", "UMOV", "HGMMA", "WARPGROUP"):
        bad = next(o for o in ins.operands if o.kind == "unknown")
        raise unsupported(ins, f"operand `{bad.text}`")
    handler = handler_for(ins)
    if handler is None:
        raise unsupported(ins)
    handler(ins, dict.fromkeys(ins.mods), list(ins.operands), row)   # ordered: F2F.F64.F32
    _describe(row, static)


def _describe(row: np.ndarray, static: StaticInstruction) -> None:
    """What the report says of a memory instruction: its space, op and width."""
    op = row[F_OP]
    if op in ops_tma.TMA_OPS:   # a TMA row: its own counts (memsim.engine.tally)
        static.space, static.op, static.width = "global", ops_tma.TMA_OPS[op], 0
        return
    if op == ops_memory.O_HGMMA:   # its own counts (memsim.engine.tally): width is N
        static.space, static.width = "shared", int(row[F_SUB])
        static.op = "gmma_bf16" if row[F_TYPE] == T_BF16 else "gmma_f16"
        return
    if op >> 6 != ops_memory.O_LD >> 6 or op == ops_memory.O_LDC or op >= ops_memory.O_SYNCS_EXCH:
        return
    flags = row[F_FLAGS]
    static.space = "global" if flags & FL_GLOBAL else ("shared" if flags & FL_SHARED else "local")
    static.width = int(row[F_WIDTH])
    static.op = {ops_memory.O_LD: "ld", ops_memory.O_ST: "st", ops_memory.O_ATOM: "atom",
                 ops_memory.O_RED: "red", ops_memory.O_LDGSTS: "ldgsts", ops_memory.O_LDSM: "ldsm",
                 ops_memory.O_STSM: "stsm"}[op]
    if op == ops_memory.O_LDSM or op == ops_memory.O_STSM:
        # a 16-byte row per address: ncu counts every shape (.x1, .x2, .x4, transposed) in
        # op_memory_128b (measured on the H100: validate/sm90_probes.py)
        static.space = "shared"
    static.generic = bool(flags & ops_memory.FL_GENERIC)


def lower(kernel: SassKernel, functions: dict[str, SassKernel] | None = None) -> SassProgram:
    """The kernel's rows, followed by those of every function it calls (transitively); CALLs
    target their callee's first row. Raises UnsupportedInstruction at the first instruction
    the engine cannot run."""
    parts = _with_callees(kernel, functions or {})
    starts, offset = {}, 0
    for part in parts:
        starts[part.name] = offset
        offset += len(part.instructions)
    rows, statics, externals, origins = [], [], [], []
    for part in parts:
        base = starts[part.name]
        for ins in part.instructions:
            index = len(rows)
            row = np.zeros(NF, dtype=np.int64)
            row[[F_GUARD, F_TARGET, F_MBASE, F_MUR]] = -1
            static = StaticInstruction(index, ins.text, ins.line, ins.opcode)
            try:
                lower_instruction(ins, row, static)
            except UnsupportedInstruction as error:
                where = f"line {ins.line}" if ins.line else f"SASS instruction {index}"
                raise UnsupportedInstruction(f"kernel {kernel.name}, {where}: {error} "
                                             "(memsim coverage FILE.cu lists every such instruction)") from None
            if row[F_TARGET] >= 0:
                row[F_TARGET] += base
            if row[F_OP] == e.O_BRX:
                row[F_OPS + 4] -= part.instructions[0].address
                row[F_OPS + 7] = base
            if row[F_OP] == e.O_CALL and ins.target < 0:
                if ins.call_target in starts:
                    row[F_TARGET] = starts[ins.call_target]
                else:   # vprintf, __assertfail: fails only where a thread gets there
                    row[F_OP] = e.O_CALL_EXTERNAL
                    row[F_SUB] = _index(externals, ins.call_target)
            rows.append(row)
            statics.append(static)
            origins.append((part.section or part.name, ins.address))
    return SassProgram(kernel.name, np.array(rows, dtype=np.int64).reshape(-1, NF), statics, externals,
                       origins)


def _index(names: list[str], name: str) -> int:
    if name not in names:
        names.append(name)
    return names.index(name)


def _with_callees(kernel: SassKernel, functions: dict[str, SassKernel]) -> list[SassKernel]:
    order, todo = [kernel], [kernel]
    seen = {kernel.name}
    while todo:
        for ins in todo.pop().instructions:
            target = getattr(ins, "call_target", "")
            if ins.opcode != "CALL" or ins.target >= 0 or not target or target in seen:
                continue
            if target not in functions:
                continue   # an external function (vprintf): an error only where it is called
            seen.add(target)
            order.append(functions[target])
            todo.append(functions[target])
    return order


def unsupported_instructions(kernel: SassKernel, functions: dict[str, SassKernel] | None = None
                             ) -> list[tuple[str, int, str]]:
    """(opcode with modifiers, source line, listing text) of every instruction of the kernel and
    its callees the engine cannot run, each tried on its own: what `memsim coverage` lists."""
    found = []
    for part in _with_callees(kernel, functions or {}):
        for ins in part.instructions:
            row = np.zeros(NF, dtype=np.int64)
            try:
                lower_instruction(ins, row, StaticInstruction(0, ins.text, ins.line, ins.opcode))
            except UnsupportedInstruction:
                found.append((".".join((ins.opcode, *ins.mods)), ins.line, ins.text))
    return found


# ---- the warp scoreboard's inputs -----------------------------------------------------------

def round_trip_steps(program: SassProgram) -> np.ndarray:
    """Per pc, the round trip its result waits for: global loads (LDG) go to L1, L2 or DRAM;
    LDC reads the constant bank per thread, which misses in a cold launch; others, none.
    ULDC (the uniform datapath's constant read) is not counted: the time model's constant was
    fitted on the H100 durations with LDC alone, and no probe has timed ULDC separately."""
    steps = np.zeros(len(program.code), np.int64)
    for pc, static in enumerate(program.instructions):
        row = program.code[pc]
        if row[F_OP] in (ops_memory.O_LD, ops_memory.O_ATOM) and row[F_FLAGS] & FL_GLOBAL:
            steps[pc] = GLOBAL_ROUND_TRIP
        elif static.opcode == "LDC":
            steps[pc] = CONSTANT_ROUND_TRIP
    return steps


def register_operands(program: SassProgram) -> tuple[np.ndarray, np.ndarray]:
    """(sources, dests): per instruction the register slots it reads (guard and address
    included) and writes, register pairs and quads spelled out, -1 padded. RZ, URZ, PT and
    UPT are constants and left out. What memsim.model.scheduling.ProgramFlow.in_order follows."""
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
    if row[F_MBASE] >= 0 and row[F_MBASE] not in (RZ, URZ) and row[F_OP] != ops_memory.O_LDC:
        reads.extend(range(int(row[F_MBASE]), int(row[F_MBASE]) + (2 if row[F_MWIDE] else 1)))
    if row[F_MUR] >= 0 and row[F_MUR] != URZ:
        reads.append(int(row[F_MUR]))
    return reads, writes


def _registers_of(row: np.ndarray, k: int) -> int:
    """Consecutive registers operand k spans: memory data (width / 4; ldmatrix one per
    matrix), register pairs of 64-bit operands, IMAD.WIDE's result and the addend pair of
    IMAD.WIDE/.HI."""
    op, flags = row[F_OP], row[F_FLAGS]
    if (op == ops_memory.O_LDSM and k == 0) or (op == ops_memory.O_STSM and k == 1):
        return int(row[F_SUB])
    if op == ops_memory.O_HGMMA:
        return ops_wgmma.registers(row, k)
    if op >> 6 == ops_memory.O_LD >> 6 and k <= 2 and op != ops_memory.O_LDGSTS:
        return max(int(row[F_WIDTH]) // 4, 1)
    if (row[F_WIDE_OPS] >> k) & 1 or (op == ops_int.O_MOV64 and k <= 1):
        return 2
    if op in (ops_float.O_DADD, ops_float.O_DMUL, ops_float.O_DFMA, ops_float.O_DMNMX) and k <= 3:
        return 2
    if op == ops_float.O_F2F or op == ops_float.O_I2F or op == ops_float.O_F2I:
        wide_types = (T_F64, T_S64, T_U64)
        if (k == 0 and row[F_TYPE] in wide_types) or (k == 1 and row[F_SUB] in wide_types):
            return 2
    if op == ops_int.O_IMAD and ((flags & FL_WIDE and k == 0) or (flags & (FL_WIDE | FL_HI) and k == 4)):
        return 2
    if op in (ops_half.O_HMMA, ops_half.O_IMMA, ops_half.O_DMMA) and k <= 3:
        return ops_half.mma_registers(row, k)
    if op == ops_warp.O_MATCH and k == 2 and flags & FL_BIT64:
        return 2
    return 1


# ---- constant banks -------------------------------------------------------------------------

def constant_bank(block3, grid3, params: np.ndarray, arch: str | None = None,
                  nsmid: int | None = None, declared=None) -> np.ndarray:
    """Bank 0 as `arch` (default: the default GPU's) lays it out: ntid at 0x0, nctaid at 0xc, the
    stack top at 0x28, the GPU's SM count (`nsmid`, default: the default GPU's) and the kernel
    parameters where its profile's sass_abi says (the global memory descriptor below them stays
    zero: the engine does not read it)."""
    abi = sass_abi(arch)
    base = abi.param_base
    params = _aligned_in_bank(params, base, declared or [])
    bank = np.zeros(base + len(params) + 16, dtype=np.uint8)
    words = bank[:base].view(np.uint32)
    words[0:3] = block3
    words[3:6] = grid3
    words[0x28 // 4] = ops_memory.STACK_TOP
    words[abi.nsmid_offset // 4] = gpus.default_profile().sm_count if nsmid is None else nsmid
    if abi.param_address is not None:
        bank[abi.param_address:abi.param_address + 8] = np.array([PARAM_WINDOW + base], np.uint64).view(np.uint8)
    bank[base:base + len(params)] = params
    return bank


def _aligned_in_bank(params: np.ndarray, base: int, declared) -> np.ndarray:
    """The parameter block as bank 0 holds it from `base`: ptxas aligns each parameter's bank
    address, not its offset in the block (`declared`: the PTX parameters, in order), so a
    64-byte aligned CUtensorMap after an 8-byte pointer sits at 0x240, not at 0x210 + 64."""
    if all(base % p.align == 0 for p in declared):
        return params
    out, at = np.zeros(len(params) + max(p.align for p in declared), np.uint8), base
    for p in declared:
        at = (at + p.align - 1) // p.align * p.align
        out[at - base:at - base + p.size] = params[p.offset:p.offset + p.size]
        at += p.size
    return out[:at - base]


def sass_abi(arch: str | None) -> SassAbi:
    """Bank 0's and the shared window's layout for an architecture the SASS engine runs (a
    GPU profile naming it gives it: memsim/gpus/profiles)."""
    arch = arch or gpus.default_profile().arch
    abi = gpus.sass_abi(arch)
    if abi is None:
        raise LaunchError(f"the SASS engine runs {', '.join(gpus.sass_arches())} code, not {arch}: "
                          "use engine='ptx'")
    return abi


def constant_banks(bank0: np.ndarray, others: dict[int, bytes] | None = None) -> np.ndarray:
    """Every bank as rows of one array (what register-indexed LDC reads): bank 0 and the
    cubin's other constant sections by bank number."""
    others = others or {}
    size = max([len(bank0)] + [len(v) for v in others.values()])
    banks = np.zeros((N_BANKS, (size + 15) // 16 * 16), np.uint8)
    banks[0, :len(bank0)] = bank0
    for number, data in others.items():
        if number < N_BANKS:
            banks[number, :len(data)] = np.frombuffer(data, np.uint8)
    return banks


def bind(program: SassProgram, bank: np.ndarray, others: dict[int, bytes] | None = None) -> np.ndarray:
    """The program's rows with every c[bank][off] operand replaced by its launch value."""
    code = program.code.copy()
    banks = {0: bank.tobytes(), **(others or {})}
    for pc in range(code.shape[0]):
        for k in range(N_OPERANDS):
            base = F_OPS + 3 * k
            if code[pc, base] != K_CONST:
                continue
            packed = int(code[pc, base + 1])
            bank_id, offset = packed >> 32, packed & 0xFFFFFFFF
            wide = code[pc, F_OP] == ops_int.O_MOV64 or (code[pc, F_WIDE_OPS] >> k) & 1
            size = 8 if wide else 4
            data = banks.get(bank_id)
            if data is None or offset + size > len(data):
                raise UnsupportedInstruction(
                    f"constant c[{bank_id:#x}][{offset:#x}] is outside the emulated banks "
                    f"(`{program.instructions[pc].text}`)")
            code[pc, base] = K_IMM
            code[pc, base + 1] = int.from_bytes(data[offset:offset + size], "little", signed=True)
            if size == 4:
                code[pc, base + 1] &= 0xFFFFFFFF
            else:
                code[pc, F_WIDE_OPS] |= 1 << k
    return code
