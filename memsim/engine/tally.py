"""Per-instruction counters -> ncu metrics, per-instruction rows and per-source-line rows."""
from __future__ import annotations

import re
from collections import Counter

import numpy as np

from .. import metrics as m
from .count import (C_BYTES, C_EXEC, C_IDEAL_SECTORS, C_IDEAL_WAVEFRONTS, C_REQUESTS, C_SECTORS,
                    C_SHARED_IDEAL_WAVEFRONTS, C_SHARED_REQUESTS, C_SHARED_WAVEFRONTS, C_SPACE, C_THREADS,
                    C_WAVEFRONTS)
from ..stream import SPACE_NAMES
from .program import TracedProgram
from ..report import InstructionCounters, LineCounters

# SASS memory instructions by space; ld.param reads become constant-bank operands and
# are no memory instructions on the hardware.
_MEMORY_SPACES = ("global", "shared", "local")
_OTHER_SPACE = {"global": "shared", "shared": "global"}


# PTX atomics ptxas turns into RED when nothing reads their result (HYPOTHESIS until recorded:
# validate fuzz2); RED has no exchange or compare-and-swap form.
_PTX_ATOM = re.compile(r"^\s*(?:@!?%\w+\s+)?atom\.(\S+)\s+(%\w+)\s*,")
_REGISTER = re.compile(r"%\w+")


def _results_unread(program: TracedProgram) -> set[int]:
    """Indices of PTX `atom` instructions (global or generic) whose destination register no
    other instruction names: the SASS engine sees RED for these, so PTX rows say "red" too."""
    atoms = [(s, _PTX_ATOM.match(s.text)) for s in program.instructions if s.op == "atom"]
    atoms = [(s, found) for s, found in atoms if found and s.space != "shared"
             and not {"exch", "cas"} & set(found.group(1).split("."))]
    if not atoms:
        return set()
    named = Counter(r for s in program.instructions for r in _REGISTER.findall(s.text))
    return {s.index for s, found in atoms if named[found.group(2)] == 1}


def instruction_rows(program: TracedProgram, counters: np.ndarray) -> list[InstructionCounters]:
    rows = []
    reductions = _results_unread(program)
    for static in program.instructions:
        if not static.op:
            continue
        c = counters[static.index]
        if static.generic:
            rows += _generic_rows(static, c)
            continue
        space = static.space
        if space == "generic" and c[C_REQUESTS] > 0:
            space = SPACE_NAMES[int(c[C_SPACE])]
        op = "red" if static.index in reductions and space == "global" else static.op
        rows.append(InstructionCounters(
            index=static.index, listing=static.text, line=static.line, space=space, op=op,
            width=static.width, executed=int(c[C_EXEC]), requests=int(c[C_REQUESTS]),
            threads=int(c[C_THREADS]), sectors=int(c[C_SECTORS]),
            ideal_sectors=int(c[C_IDEAL_SECTORS]), wavefronts=int(c[C_WAVEFRONTS]),
            ideal_wavefronts=int(c[C_IDEAL_WAVEFRONTS]), bytes=int(c[C_BYTES])))
        if static.space == "generic" and op in ("ld", "st") and space in _OTHER_SPACE:
            # the H100 counts a generic ld/st's bytes in both spaces (the SASS engine's
            # _generic_rows; measured: suite generic_*)
            rows.append(InstructionCounters(index=static.index, listing=static.text, line=static.line,
                                            space=_OTHER_SPACE[space], op=op, width=static.width,
                                            bytes=int(c[C_BYTES])))
    return rows


def _generic_rows(static, c: np.ndarray) -> list[InstructionCounters]:
    """A SASS generic LD/ST as two rows, its global part and its shared part, as the H100 counts
    it (memsim.engine.sass.ops_memory.count_generic): the bytes of all its lanes in both; its
    issues (op_memory_*b) and threads once."""
    common = dict(index=static.index, listing=static.text, line=static.line, op=static.op, width=static.width,
                  bytes=int(c[C_BYTES]))
    return [InstructionCounters(space="global", executed=int(c[C_EXEC]), threads=int(c[C_THREADS]),
                                requests=int(c[C_REQUESTS]), sectors=int(c[C_SECTORS]),
                                ideal_sectors=int(c[C_IDEAL_SECTORS]), **common),
            InstructionCounters(space="shared", requests=int(c[C_SHARED_REQUESTS]),
                                wavefronts=int(c[C_SHARED_WAVEFRONTS]),
                                ideal_wavefronts=int(c[C_SHARED_IDEAL_WAVEFRONTS]), **common)]


def metrics_from_rows(rows: list[InstructionCounters], counters: np.ndarray) -> dict[str, int]:
    out: dict[str, int] = {name: 0 for name in m.EXACT + m.UNCHECKED + m.TMA + m.GMMA}
    for r in rows:
        if r.op in m.GMMA_OPS:   # memsim.engine.sass.ops_wgmma: requests are warp issues, width is N
            names = (m.GMMA_INSTRUCTIONS, m.GMMA_PIPE_INSTRUCTIONS, m.GMMA_BYTES, m.GMMA_WAVEFRONTS, m.GMMA_OPS[r.op])
            _add(out, names, (r.requests, r.requests, r.bytes, r.wavefronts, 2 * 16 * r.width * 16 * r.requests))
            continue
        if r.op.startswith("tma_"):   # memsim.engine.sass.ops_tma: requests are warp issues
            out[m.TMA_PIPE_INSTRUCTIONS] += r.requests
            if r.op in m.TMA_BY_OP:
                _add(out, m.TMA_BY_OP[r.op], (r.requests, r.bytes, r.sectors))
            continue
        # ldmatrix/stmatrix count here (128b, whatever the shape), in no other smsp__sass_*
        # shared metric (instructions, wavefronts, bytes: measured on the H100, sm90_probes)
        if r.space in _MEMORY_SPACES and r.op in ("ld", "st", "atom", "red", "ldgsts", "ldsm", "stsm"):
            width_bits = r.width * 8
            if width_bits in m.INST_BY_WIDTH:
                out[m.INST_BY_WIDTH[width_bits]] += r.executed
        # op_global/op_shared count warp instructions with an active thread; op_memory_*b
        # counts every issue, predicated-off ones too (measured on the H100).
        if r.space == "global" and r.op in m.GLOBAL_BY_OP:   # names in GlobalOpMetrics' order
            _add(out, m.GLOBAL_BY_OP[r.op], (r.requests, r.requests, r.sectors, r.bytes, r.ideal_sectors))
        elif r.space == "global" and r.op == "ldgsts":
            # cp.async: L1 counts its global reads as loads, the SASS-level load instructions
            # and bytes do not (measured on the H100: corpus sgemm_cp_async_*)
            out[m.GLOBAL_LD_REQUESTS] += r.requests
            out[m.GLOBAL_LD_SECTORS] += r.sectors
        elif r.space == "shared" and r.op in m.SHARED_BY_OP:   # in SharedOpMetrics' order
            _add(out, m.SHARED_BY_OP[r.op], (r.requests, r.wavefronts, r.bytes, r.ideal_wavefronts))
        elif r.space == "global" and r.op in ("atom", "red"):
            # requests: one per warp instruction with an active lane; sectors: the packets the
            # L1 sends to L2 (memsim.engine.count.atomic_packets; see metrics.ATOMICS)
            out[m.GLOBAL_ATOM_REQUESTS] += r.requests
            atom = r.op == "atom"
            out[m.INST_GLOBAL_ATOM if atom else m.INST_GLOBAL_RED] += r.requests
            out[m.GLOBAL_ATOM_REQUESTS_NCU if atom else m.GLOBAL_RED_REQUESTS] += r.requests
            out[m.GLOBAL_ATOM_SECTORS if atom else m.GLOBAL_RED_SECTORS] += r.sectors
        elif r.space == "shared" and r.op in ("atom", "red"):
            out[m.INST_SHARED_ATOM] += r.requests
            out[m.SHARED_ATOM_WAVEFRONTS] += r.wavefronts
        elif r.space == "local" and r.op in m.LOCAL_REQUESTS_BY_OP:
            out[m.LOCAL_REQUESTS_BY_OP[r.op]] += r.requests
    out[m.PTX_WARP_INSTRUCTIONS] = int(counters[:, C_EXEC].sum())
    out[m.PTX_THREAD_INSTRUCTIONS] = int(counters[:, C_THREADS].sum())
    return out


def _add(out: dict[str, int], names: tuple[str, ...], values: tuple[int, ...]) -> None:
    for name, value in zip(names, values, strict=True):
        out[name] += value


def line_rows(rows: list[InstructionCounters], source_lines: list[str]) -> list[LineCounters]:
    groups: dict[tuple, LineCounters] = {}
    for r in rows:
        if r.space not in _MEMORY_SPACES or r.executed == 0:
            continue
        key = (r.line, r.space, r.op, r.width)
        row = groups.get(key)
        if row is None:
            text = source_lines[r.line - 1].strip() if 0 < r.line <= len(source_lines) else ""
            row = groups[key] = LineCounters(line=r.line, source=text, space=r.space, op=r.op,
                                             width=r.width, instructions=0)
        row.instructions += 1
        for field in ("executed", "requests", "sectors", "ideal_sectors", "wavefronts",
                      "ideal_wavefronts", "bytes"):
            setattr(row, field, getattr(row, field) + getattr(r, field))
    return sorted(groups.values(), key=lambda r: (r.line, r.space, r.op))
