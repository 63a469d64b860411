"""Profile fields <- the instruction microbenchmarks' results (gpu/microbench.py), for
`validate calibrate`: the pipes' issue cost, the instruction latencies and the SM's block costs.
docs/microbenchmarks.md describes each benchmark."""
from __future__ import annotations

from typing import Callable

Rule = tuple[str, Callable[[dict[str, float]], float], str]

TP = ("k_tp_{0}: blocks of 128 threads, 4-64 warps per SM, 8 independent chains a thread; 4 / the "
      "plateau of warp instructions per SM cycle (each SM's clock64 span)")
LAT = ("k_lat_{0}: one warp, a chain of 32 dependent instructions an iteration, clock64 at 8 and 40 "
       "iterations, the difference per instruction")

PIPE_STREAMS = {"ffma": "ffma", "fadd": "fadd", "fmul": "fmul", "imad": "imad", "iadd3": "iadd3",
                "lop3": "lop3", "isetp": "isetp", "fsetp": "fsetp", "mufu": "mufu", "dfma": "dfma",
                "hfma2": "hfma2", "conversion": "f2i_i2f", "shfl": "shfl", "lds": "lds", "sts": "sts",
                "ldg_l1": "ldg", "hmma": "hmma"}
NOTES = {"isetp": " (ISETP and SEL alternating)", "fsetp": " (FSETP and FSEL alternating)",
         "conversion": " (F2I and I2FP alternating)", "ldg_l1": " (ld.global.ca over an 8 KiB window; an "
         "IADD3 a load on the integer pipe)", "hmma": " (4 accumulators a warp)"}

LATENCY_CHAINS = ["ldc", "lds", "sts_lds", "ldsm", "shfl_idx", "shfl_bfly", "mufu_ex2", "mufu_rsq", "dfma",
                  "dadd", "f2i_i2f", "popc", "flo", "imad_wide", "hfma2", "hmma", "atoms", "atomg", "ffma",
                  "imad"]


def _pipe(stream: str) -> Callable[[dict[str, float]], float]:
    return lambda v: 4.0 / v[f"tp.{stream}.plateau"]


def _latency(chain: str) -> Callable[[dict[str, float]], float]:
    return lambda v: v[f"lat.{chain}.cycles"]


RULES: list[Rule] = [
    *[(f"pipes.{field}", _pipe(stream), TP.format(stream) + NOTES.get(field, ""))
      for field, stream in PIPE_STREAMS.items()],
    *[(f"instruction_latency.{chain}", _latency(chain), LAT.format(chain)) for chain in LATENCY_CHAINS],
    ("instruction_latency.iadd3", _latency("iadd3"),
     "k_lat_iadd3: one warp, 16 dependent IADD3 an iteration (ptxas merges the 32 adds in pairs), clock64 "
     "difference per IADD3"),
    ("instruction_latency.mufu_rcp", lambda v: v["lat.mufu_rcp.cycles"] - v["lat.fadd.cycles"],
     "k_lat_mufu_rcp: chain of |x| (an FADD) then MUFU.RCP, minus k_lat_fadd's FADD latency"),
    ("instruction_latency.mufu_sin", lambda v: v["lat.mufu_sin.cycles"] - v["lat.ffma.cycles"],
     "k_lat_mufu_sin: chain of FMUL.RZ (range scaling) then MUFU.SIN, minus k_lat_ffma's latency for the FMUL"),
    ("instruction_latency.s2r", lambda v: v["lat.s2r.cycles"],
     "k_lat_s2r minus k_lat_s2r_base: clock64, S2R SR_VIRTID (%warpid), its use, clock64, against the "
     "same bracket without the S2R, per read"),
    ("instruction_latency.bar_1_warp", _latency("bar_w1"), LAT.format("bar") + ", block of 1 warp"),
    ("instruction_latency.bar_4_warps", _latency("bar_w4"), LAT.format("bar") + ", block of 4 warps"),
    ("instruction_latency.bar_32_warps", _latency("bar_w32"), LAT.format("bar") + ", block of 32 warps"),
    ("instruction_latency.membar_gpu", _latency("membar"),
     LAT.format("membar") + " (__threadfence: MEMBAR.SC.GPU, ERRBAR, CGAERRBAR, CCTL.IVALL)"),
    ("sm_costs.block_launch_cycles", lambda v: v["sm.launch_t32.cycles_per_block"],
     "k_sm_empty: CUDA-event time of 128 and 1152 blocks of 32 threads per SM; the slope per block times "
     "the SMs, in boost cycles"),
    ("sm_costs.block_launch_cycles_32_warps", lambda v: v["sm.launch_t1024.cycles_per_block"],
     "k_sm_empty: the same with blocks of 1024 threads"),
    ("sm_costs.resident_blocks", lambda v: v["sm.resident_blocks"],
     "k_sm_blocks: 64 blocks of 32 threads per SM spinning 20,000 cycles; blocks an SM starts within "
     "half a spin of its first (median over the SMs)"),
    ("sm_costs.block_turnaround_cycles", lambda v: v["sm.turnaround_t32.cycles"],
     "k_sm_blocks with the opt-in shared memory (one block an SM at a time), 8 blocks of 32 threads per "
     "SM: median clock64 gap from a block's last clock to the next block's first on the same SM"),
    ("sm_costs.block_turnaround_cycles_32_warps", lambda v: v["sm.turnaround_t1024.cycles"],
     "the same with blocks of 1024 threads"),
]
