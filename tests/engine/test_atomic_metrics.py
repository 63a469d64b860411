"""Atomics under their ncu names (memsim.metrics.ATOMICS, UNCHECKED until an H100 recording):
the tally's split of global atomics into ATOM and RED, their requests and sectors, and shared
atomics. The rules are hypotheses (see memsim/metrics.py); these tests pin what memsim says."""
from __future__ import annotations

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
    # sectors: distinct 32-byte sectors per warp instruction, as for loads
    strided = 4 if stride == 1 else 32       # 32 lanes x 4 bytes x stride, from a sector boundary
    assert got[m.GLOBAL_ATOM_SECTORS] == warps * (strided + 1)
    doubles = 8                               # 32 lanes x 8 bytes contiguous
    assert got[m.GLOBAL_RED_SECTORS] == warps * (1 + 1 + doubles + 1)
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
    ops = [(r.ptx.split()[0], r.op) for r in report.instructions if r.ptx.startswith("atom")]
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
    rows = [(r.ptx.split()[0].lstrip("@!P0123456 ").split(".")[0] or r.ptx.split()[1].split(".")[0], r.op, r.space)
            for r in report.instructions if r.op in ("atom", "red")]
    assert sum(op == "red" and space == "global" for _, op, space in rows) == 4
    assert sum(op == "atom" and space == "global" for _, op, space in rows) == 2
    assert sum(op == "atom" and space == "shared" for _, op, space in rows) == 1
    assert report.metrics["smsp__sass_inst_executed_op_global_red.sum"] == 8   # 4 REDG x 2 warps
