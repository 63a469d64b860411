"""Atomics under their ncu names (memsim.metrics.ATOMICS): the tally's split of global atomics
into ATOM and RED, their requests and packets (ncu's sectors), shared atomics, and the launch's
contention (memsim.metrics.ATOMIC_CONTENTION) that the time model reads."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from memsim import metrics as m

SOURCE = r'''
extern "C" __global__ void k_atomics(int* a, float* f, double* d, int* o, int stride) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < 32) s[t] = 0;
  __syncthreads();
  atomicAdd(a, 1);                              // unread: RED, one sector
  o[t] = atomicAdd(a + 8 + t * stride, 1);      // read: ATOM, strided
  atomicAdd(f + (t & 7), 0.5f);                 // unread float add: RED, one sector
  atomicAdd(d + t, 0.5);                        // unread double add: RED, 8 bytes a lane
  atomicMax(a + 4, t);                          // unread max: RED
  atomicExch(a + 5, 7);                         // exchange has no RED form: ATOM
  atomicAdd(&s[t & 3], 1);                      // shared: ATOMS
  __syncthreads();
  o[64 + t] = s[t & 31];
}
'''


@pytest.mark.parametrize("stride", [1, 8])
def test_global_atomics_split_into_atom_and_red(stride):
    memsim = pytest.importorskip("memsim")
    warps = 2
    a = np.zeros(8 + 64 * 8 + 8, np.int32)
    f, d, o = np.zeros(8, np.float32), np.zeros(64), np.zeros(128, np.int32)
    report = memsim.simulate(SOURCE, "k_atomics", 1, 32 * warps, [a, f, d, o, np.int32(stride)])
    got = {k: report.metrics[k] for k in m.ATOMICS}
    # per warp: RED add int, RED add float, RED add double, RED max; ATOM add (read), ATOM exch
    assert got[m.INST_GLOBAL_RED] == got[m.GLOBAL_RED_REQUESTS] == 4 * warps
    assert got[m.INST_GLOBAL_ATOM] == got[m.GLOBAL_ATOM_REQUESTS_NCU] == 2 * warps
    # sectors: the packets the L1 sends to L2, per sector the most lanes on one address
    strided = 4 if stride == 1 else 32       # 32 lanes x 4 bytes x stride, from a sector boundary
    exchange = 32                             # 32 lanes on a + 5: one packet each
    assert got[m.GLOBAL_ATOM_SECTORS] == warps * (strided + exchange)
    floats = 4                                # 32 lanes on the 8 words of one sector, 4 on each
    doubles = 8                               # 32 lanes x 8 bytes contiguous
    assert got[m.GLOBAL_RED_SECTORS] == warps * (1 + floats + doubles + 1)
    assert got[m.INST_SHARED_ATOM] == warps
    assert report.metrics[m.GLOBAL_ATOM_REQUESTS] == 6 * warps
    assert all(m.provenance(k) == m.Provenance.UNCHECKED for k in m.ATOMICS)
    # results stay right whatever the split
    assert a[0] == 32 * warps and a[4] == 32 * warps - 1 and a[5] == 7
    np.testing.assert_array_equal(o[64:64 + 32 * warps], np.tile([8 * warps] * 4 + [0] * 28, warps))


def test_red_rows_are_only_for_unread_results():
    memsim = pytest.importorskip("memsim")
    a = np.zeros(8 + 64 + 8, np.int32)
    report = memsim.simulate(SOURCE, "k_atomics", 1, 64,
                             [a, np.zeros(8, np.float32), np.zeros(64), np.zeros(128, np.int32), np.int32(1)],
                             engine="ptx")
    ops = [(r.listing.split()[0], r.op) for r in report.instructions if r.listing.startswith("atom")]
    assert ("atom.global.exch.b32", "atom") in ops and ("atom.shared.add.u32", "atom") in ops
    assert sum(op == "red" for _, op in ops) == 4 and sum(op == "atom" for _, op in ops) == 3


def test_sass_engine_rows_follow_the_instructions_ptxas_chose():
    """The SASS engine sees ptxas' choice directly: REDG where the result is unused, ATOMG where
    it is read, ATOMS for shared memory (here the warp-aggregated ATOMS.POPC.INC)."""
    memsim = pytest.importorskip("memsim")
    a = np.zeros(8 + 64 + 8, np.int32)
    report = memsim.simulate(SOURCE, "k_atomics", 1, 64,
                             [a, np.zeros(8, np.float32), np.zeros(64), np.zeros(128, np.int32), np.int32(1)],
                             engine="sass")
    rows = [(r.listing.split()[0].lstrip("@!P0123456 ").split(".")[0] or r.listing.split()[1].split(".")[0],
             r.op, r.space) for r in report.instructions if r.op in ("atom", "red")]
    assert sum(op == "red" and space == "global" for _, op, space in rows) == 4
    assert sum(op == "atom" and space == "global" for _, op, space in rows) == 2
    assert sum(op == "atom" and space == "shared" for _, op, space in rows) == 1
    assert report.metrics["smsp__sass_inst_executed_op_global_red.sum"] == 8   # 4 REDG x 2 warps


AGGREGATED = r'''
extern "C" __global__ void k_aggregated(int* total, int first, int step) {
  int lane = threadIdx.x & 31;
  if (lane >= first && (lane - first) % step == 0) atomicAdd(total, 3);
}
'''


@pytest.mark.parametrize("threads, first, step", [(64, 0, 1), (48, 0, 1), (64, 5, 4), (40, 31, 1), (33, 0, 32)])
def test_warp_aggregated_atomics_elect_a_leader_among_the_active_lanes(threads, first, step):
    """ptxas turns atomicAdd(p, 3) on one address into one REDG per warp: the leader is elected
    with VOTEU.ANY over the lanes that take part (then UFLO, S2R SR_LANEID). A uniform row runs on
    every lane, but its ballot must be of the active ones, else a partial or divergent warp
    elects an inactive lane and adds nothing (corpus filter_warp_aggregated, reduce_max_int)."""
    memsim = pytest.importorskip("memsim")
    total = np.zeros(1, np.int32)
    report = memsim.simulate(AGGREGATED, "k_aggregated", 1, threads, [total, np.int32(first), np.int32(step)],
                             engine="sass")
    lanes = [t for t in range(threads) if (t & 31) >= first and ((t & 31) - first) % step == 0]
    warps = len({t // 32 for t in lanes})
    assert total[0] == 3 * len(lanes)
    assert report.metrics[m.INST_GLOBAL_RED] == warps


def _reference_packets(words: np.ndarray) -> dict[int, int]:
    """Per 32-byte sector of 4-byte words: the most lanes on one word (an independent count)."""
    from collections import Counter
    per_word = Counter(int(w) for w in words)
    packets: dict[int, int] = {}
    for word, lanes in per_word.items():
        packets[word // 8] = max(packets.get(word // 8, 0), lanes)
    return packets


@pytest.mark.parametrize("pattern", ["one address", "one sector", "contiguous", "strided", "histogram", "half active"])
def test_atomic_packets_are_per_sector_the_most_lanes_on_one_address(pattern):
    from memsim.engine.count import A_FLOAT, A_FULL, A_PACKETS, atomic_packets, new_atomic_table
    rng = np.random.default_rng(7)
    words = {"one address": np.zeros(32, np.int64), "one sector": np.arange(32) % 8,
             "contiguous": np.arange(32), "strided": np.arange(32) * 9,
             "histogram": rng.integers(0, 64, 32), "half active": rng.integers(0, 16, 32)}[pattern]
    active = 0xFFFF if pattern == "half active" else 0xFFFFFFFF
    lanes = [k for k in range(32) if (active >> k) & 1]
    table = new_atomic_table(True)
    addrs = (words * 4).astype(np.int64)
    packets, _, distinct = atomic_packets(addrs.copy(), active, 4, np.zeros(160, np.int64), table, True)
    expected = _reference_packets(words[lanes])
    assert packets == sum(expected.values())
    assert distinct == len(set(words[lanes].tolist()))
    used = table[:, 0] > 0
    assert dict(zip((table[used, 0] - 1).tolist(), table[used, A_PACKETS].tolist())) == expected
    assert table[used, A_FLOAT].sum() == packets
    # full packets (an operation on all 8 words of the sector): as many as the sector's least-hit word
    per_word = Counter(int(w) for w in words[lanes])
    full = {s: min(n for w, n in per_word.items() if w // 8 == s) if sum(w // 8 == s for w in per_word) == 8 else 0
            for s in expected}
    assert dict(zip((table[used, 0] - 1).tolist(), table[used, A_FULL].tolist())) == full


# Recorded H100 launches whose warps put several lanes on one address (fuzz2: validate/data/h100).
# The SASS engine only: the PTX engine runs atomics ptxas aggregates per warp lane by lane.
@pytest.mark.parametrize("name", ["fuzz2_s2_0016", "fuzz2_s2_0021", "fuzz2_s2_0090", "fuzz2_s2_0125"])
def test_atomic_sector_counts_equal_the_h100s(name, launch_cache):
    memsim = pytest.importorskip("memsim")
    from validate import record as rec
    record = next(c for f in rec.load_all() if f.gpu == "h100" for c in f.cases if c.name == name)
    report, _ = memsim.simulate_spec(record.spec, engine="sass")
    for metric in (m.GLOBAL_ATOM_SECTORS, m.GLOBAL_RED_SECTORS):
        assert report.metrics[metric] == record.metrics[metric]


CONTENTION = r'''
extern "C" __global__ void k_bins(unsigned int* bins, float* fbins, int nbins, int use_float) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (use_float) atomicAdd(&fbins[(i * 7) % nbins], 1.0f);
  else atomicAdd(&bins[(i * 7) % nbins], (unsigned)i);
}
'''


@pytest.mark.parametrize("engine", ["sass", "ptx"])
@pytest.mark.parametrize("nbins, use_float", [(1, 0), (8, 0), (64, 0), (1024, 0), (1, 1), (64, 1), (1024, 1)])
def test_contention_is_the_busiest_units_packets_over_the_launch(engine, nbins, use_float):
    """memsim.metrics.ATOMIC_CONTENTION: every warp's packets, summed per aligned unit over the
    whole launch (all blocks add into the same bins); floating-point packets per sector apart."""
    memsim = pytest.importorskip("memsim")
    grid, block = 6, 96
    bins, fbins = np.zeros(1024, np.uint32), np.zeros(1024, np.float32)
    report = memsim.simulate(CONTENTION, "k_bins", grid, block, [bins, fbins, np.int32(nbins), np.int32(use_float)],
                             engine=engine)
    per_sector: dict[int, int] = {}
    for warp in range(grid * block // 32):
        i = np.arange(32 * warp, 32 * warp + 32)
        for sector, n in _reference_packets((i * 7) % nbins).items():
            per_sector[sector] = per_sector.get(sector, 0) + n
    for size, name in m.ATOMIC_BUSIEST_UNIT.items():
        units: dict[int, int] = {}
        for sector, n in per_sector.items():
            units[sector * 32 // size] = units.get(sector * 32 // size, 0) + n
        assert report.metrics[name] == max(units.values())    # buffers are 4 KiB-aligned
    assert report.metrics[m.ATOMIC_FLOAT_CHAIN] == (max(per_sector.values()) if use_float else 0)
    paired: dict[tuple[int, int], int] = {}     # 256-byte units 0-3 and 1-2 of each KiB as one
    for sector, n in per_sector.items():
        key = (sector * 32 >> 10, ((sector * 32 >> 8) ^ (sector * 32 >> 9)) & 1)
        paired[key] = paired.get(key, 0) + n
    assert report.metrics[m.ATOMIC_BUSIEST_PAIRED] == max(paired.values())
