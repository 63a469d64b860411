"""The one table of PTX opcodes memsim understands.

The parser checks names against it, the lowering step turns names into these ids, the emulator
dispatches on the ids, and the "unsupported instruction" error lists what is here. Ids are the
row numbers: append new rows at the end so that cached emulator code stays valid (the emulator
also clears its Numba cache when this table's digest changes).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Opcode:
    name: str
    category: str
    semantics: str


OPCODES: tuple[Opcode, ...] = (
    Opcode("unsupported", "error", "placeholder for an instruction without semantics"),
    Opcode("mov", "move", "d = a (also packs/unpacks vectors {a, b})"),
    Opcode("ld", "memory", "d = [a] in a state space (global/shared/local/const/param/generic)"),
    Opcode("st", "memory", "[a] = b"),
    Opcode("cvta", "move", "convert an address between a state space and the generic space"),
    Opcode("add", "alu", "d = a + b"),
    Opcode("sub", "alu", "d = a - b"),
    Opcode("mul", "alu", "d = a * b (.lo/.hi/.wide for integers)"),
    Opcode("mad", "alu", "d = a * b + c (.lo/.hi/.wide; fused for floats)"),
    Opcode("fma", "alu", "d = a * b + c, fused"),
    Opcode("div", "alu", "d = a / b (integers truncate toward zero)"),
    Opcode("rem", "alu", "d = a % b (sign of a)"),
    Opcode("min", "alu", "d = min(a, b)"),
    Opcode("max", "alu", "d = max(a, b)"),
    Opcode("abs", "alu", "d = |a|"),
    Opcode("neg", "alu", "d = -a"),
    Opcode("and", "alu", "d = a & b"),
    Opcode("or", "alu", "d = a | b"),
    Opcode("xor", "alu", "d = a ^ b"),
    Opcode("not", "alu", "d = ~a"),
    Opcode("cnot", "alu", "d = (a == 0)"),
    Opcode("shl", "alu", "d = a << b (0 when b >= width)"),
    Opcode("shr", "alu", "d = a >> b (arithmetic for signed types)"),
    Opcode("setp", "compare", "p[|q] = a CMP b [BOOLOP c]"),
    Opcode("selp", "compare", "d = c ? a : b"),
    Opcode("cvt", "convert", "d = convert(a) between types with rounding and saturation"),
    Opcode("rcp", "float", "d = 1 / a"),
    Opcode("sqrt", "float", "d = sqrt(a)"),
    Opcode("rsqrt", "float", "d = 1 / sqrt(a)"),
    Opcode("ex2", "float", "d = 2 ** a"),
    Opcode("lg2", "float", "d = log2(a)"),
    Opcode("sin", "float", "d = sin(a)"),
    Opcode("cos", "float", "d = cos(a)"),
    Opcode("popc", "alu", "d = number of set bits of a"),
    Opcode("clz", "alu", "d = leading zero bits of a"),
    Opcode("brev", "alu", "d = bit-reversed a"),
    Opcode("bfe", "alu", "d = bit field of a at position b, length c"),
    Opcode("bfi", "alu", "d = b with bit field at c, length e replaced by a"),
    Opcode("prmt", "alu", "d = bytes of {b, a} selected by c"),
    Opcode("bra", "control", "jump to a label (divergent when the guard differs across lanes)"),
    Opcode("ret", "control", "thread exits the kernel"),
    Opcode("exit", "control", "thread exits the kernel"),
    Opcode("bar", "sync", "block-wide barrier (bar.sync / barrier.sync)"),
    Opcode("barrier", "sync", "block-wide barrier (barrier.sync)"),
    Opcode("membar", "nop", "memory fence: no effect in a sequential emulator"),
    Opcode("fence", "nop", "memory fence: no effect in a sequential emulator"),
    Opcode("shfl", "warp", "d = a of another lane (shfl.sync up/down/bfly/idx)"),
    Opcode("vote", "warp", "warp vote all/any/uni/ballot"),
    Opcode("activemask", "warp", "d = mask of the warp's active lanes"),
    Opcode("atom", "atomic", "d = [a]; [a] = op([a], b[, c])"),
    Opcode("red", "atomic", "[a] = op([a], b)"),
    Opcode("ldu", "memory", "d = [a] (uniform load, global)"),
    Opcode("prefetch", "nop", "cache hint: no effect"),
    Opcode("pack", "move", "d = {a, b, ...} concatenated bits (from mov.bN d, {...})"),
    Opcode("unpack", "move", "{d0, d1, ...} = a split into parts (from mov.bN {...}, a)"),
    Opcode("copysign", "float", "d = |b| with the sign of a"),
    Opcode("mul24", "alu", "d = a * b on the low 24 bits"),
    Opcode("mad24", "alu", "d = a * b + c on the low 24 bits"),
    Opcode("trap", "control", "abort the kernel"),
    Opcode("tanh", "float", "d = tanh(a)"),
    Opcode("testp", "compare", "p = a is finite/infinite/number/notanumber/normal/subnormal"),
    Opcode("set", "compare", "d = (a CMP b) ? all ones (or 1.0) : 0"),
    Opcode("slct", "compare", "d = (c >= 0) ? a : b"),
    Opcode("nanosleep", "nop", "sleep hint: no effect"),
    Opcode("pragma", "nop", "compiler hint"),
    Opcode("sad", "alu", "d = |a - b| + c"),
)

OP: dict[str, int] = {op.name: i for i, op in enumerate(OPCODES)}
BY_NAME: dict[str, Opcode] = {op.name: op for op in OPCODES}


def supported_names() -> list[str]:
    return [op.name for op in OPCODES if op.category != "error"]
