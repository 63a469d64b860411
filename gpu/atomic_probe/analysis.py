"""The atomic probes' recordings (validate/data/h100/atomic_probe*.json) against two packet rules.

    PYTHONPATH=. python gpu/atomic_probe/analysis.py [--aggregates]

Counts l1tex__t_sectors_pipe_lsu_mem_global_op_{atom,red} per recorded launch under
  memsim: per 32-byte sector, the most active lanes on any one address (memsim.engine.count);
  slots: memsim's rule, plus a split when a lane's word slot was taken by another line in between
         (`slots` below: the best rule found so far, not exact: docs/exactness.md),
and prints, per family of probes, how many launches each rule equals. --aggregates adds the
launches over 2^20 elements (real_full, bins_*), a few minutes of pure Python.
Addresses are taken relative to the buffer (its base is unknown; cupy aligns it to 512 bytes).
"""
from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from memsim.launch import LaunchSpec  # noqa: E402

# The recordings, read as files: the GPU side imports nothing from validate (which imports it).
DATA = Path(__file__).resolve().parents[2] / "validate" / "data" / "h100"

METRICS = ("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum")
FILES = ("atomic_probe", "atomic_probe_pat", "atomic_probe2", "atomic_probe3", "atomic_probe4", "atomic_probe5")
# The slot set of a 128-byte line L (= address >> 7): two parities, read off atomic_probe4's hash_*
# launches (lines 0 and D share a set for exactly the D listed there; L bits 0..14 checked).
SET_MASKS = (0x55DA, 0x7AB5)


def slot_set(line: int) -> int:
    return sum((bin(line & m).count("1") & 1) << i for i, m in enumerate(SET_MASKS))


def memsim_rule(words: list[int]) -> int:
    """Per sector, the most lanes on one address (words: 4-byte word indices of active lanes)."""
    sectors: dict[int, Counter] = defaultdict(Counter)
    for x in words:
        sectors[x >> 3][x] += 1
    return sum(max(c.values()) for c in sectors.values())


def slots_rule(words: list[int]) -> int:
    """Lanes in lane order; each sector fills packets of one operation per address (a repeated
    address opens a new packet). Each (slot set of the line, word offset in the line) slot keeps
    the line and the packet opening time of the last lane written there. A lane that would join
    its sector's open packet P opens a new one instead when its slot holds another line whose
    packet was opened after P."""
    slots: dict[tuple[int, int], tuple[int, int]] = {}
    open_packets: dict[int, tuple[int, list[set]]] = {}
    total = 0
    for t, x in enumerate(words):
        line, sector = x >> 5, x >> 3
        slot = (x & 31, slot_set(line))
        packet = open_packets.get(sector)
        held = slots.get(slot)
        if packet is None or (held is not None and held[0] != line and held[1] > packet[0]):
            total += 1
            packet = (t, [{x}])
            open_packets[sector] = packet
        else:
            for ops in packet[1]:
                if x not in ops:
                    ops.add(x)
                    break
            else:
                packet[1].append({x})
                total += 1
        slots[slot] = (line, packet[0])
    return total


def instructions(spec) -> list[list[int]] | None:
    """Each warp instruction's active words, or None for a launch over 2^20 elements."""
    args = spec.args
    if spec.kernel == "k_hist":
        start, count = int(args[2].value), int(args[3].value)
        if count > 1 << 15:
            return None
        data = args[0].buffer(np.random.default_rng([spec.seed, 0]))
        return [list(map(int, row)) for row in data[start:start + count].reshape(-1, 32)]
    return [_pattern(args)]


def _pattern(args) -> list[int]:
    p = [int(a.value) for a in args[1:9]]
    mask, offset = (int(args[9].value), int(args[10].value)) if len(args) > 10 else (0, 0)
    words = [(p[lane // 4] >> (16 * (lane % 4))) & 0xFFFF for lane in range(32)]
    return [w + (offset if mask >> lane & 1 else 0) for lane, w in enumerate(words) if w != 0xFFFF]


def family(name: str) -> str:
    for prefix in ("real_inst", "real_chunk", "b4096", "b256", "hash", "dense", "seq", "spread", "other", "i0",
                   "pat_rand", "pat"):
        if name.startswith(prefix):
            return prefix
    return name.split("_")[0]


def main(aggregates: bool) -> None:
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for stem in FILES:
        for case in json.loads((DATA / f"{stem}.json").read_text())["cases"]:
            spec = LaunchSpec.model_validate(case["spec"])
            measured = int(sum((case["metrics"] or {}).get(m, 0) for m in METRICS))
            insts = instructions(spec)
            if insts is None:
                if not aggregates:
                    continue
                start, count = int(spec.args[2].value), int(spec.args[3].value)
                values = spec.args[0].buffer(np.random.default_rng([spec.seed, 0]))
                insts = [list(map(int, r)) for r in values[start:start + count].reshape(-1, 32)]
            row = rows[family(case["name"])]
            row[0] += 1
            row[1] += sum(map(memsim_rule, insts)) == measured
            row[2] += sum(map(slots_rule, insts)) == measured
    print(f"{'family':12s} {'launches':>8s} {'memsim':>7s} {'slots':>7s}")
    for name, (n, a, b) in rows.items():
        print(f"{name:12s} {n:8d} {a:7d} {b:7d}")


if __name__ == "__main__":
    main("--aggregates" in sys.argv[1:])
