"""Nsight Compute metric names memsim reports, and how far each one can be trusted.

EXACT metrics follow from the instruction stream alone; memsim must equal the hardware to the
unit and `validate` fails on any difference. MODELED metrics depend on caches and timing; they
are compared with a tolerance and their measured error is reported.
"""
from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class Provenance(str, Enum):
    EXACT = "exact"          # from the instruction stream; checked equal on hardware
    MODELED = "modeled"      # cache/DRAM/time model; compared with a tolerance
    UNCHECKED = "unchecked"  # memsim's own figure; no hardware counterpart checked


GLOBAL_LD_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
GLOBAL_ST_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
GLOBAL_LD_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
GLOBAL_ST_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
INST_GLOBAL_LD = "smsp__sass_inst_executed_op_global_ld.sum"
INST_GLOBAL_ST = "smsp__sass_inst_executed_op_global_st.sum"
INST_SHARED_LD = "smsp__sass_inst_executed_op_shared_ld.sum"
INST_SHARED_ST = "smsp__sass_inst_executed_op_shared_st.sum"
SHARED_LD_WAVEFRONTS = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
SHARED_ST_WAVEFRONTS = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
BYTES_GLOBAL_LD = "smsp__sass_data_bytes_mem_global_op_ld.sum"
BYTES_GLOBAL_ST = "smsp__sass_data_bytes_mem_global_op_st.sum"
BYTES_SHARED_LD = "smsp__sass_data_bytes_mem_shared_op_ld.sum"
BYTES_SHARED_ST = "smsp__sass_data_bytes_mem_shared_op_st.sum"
INST_BY_WIDTH = {w: f"smsp__sass_inst_executed_op_memory_{w}b.sum" for w in (8, 16, 32, 64, 128)}

# The required list: each must equal the H100 to the unit.
REQUIRED_EXACT = [
    GLOBAL_LD_REQUESTS, GLOBAL_ST_REQUESTS, GLOBAL_LD_SECTORS, GLOBAL_ST_SECTORS,
    INST_GLOBAL_LD, INST_GLOBAL_ST, INST_SHARED_LD, INST_SHARED_ST,
    SHARED_LD_WAVEFRONTS, SHARED_ST_WAVEFRONTS,
    BYTES_GLOBAL_LD, BYTES_GLOBAL_ST, BYTES_SHARED_LD, BYTES_SHARED_ST,
]
EXACT = REQUIRED_EXACT + list(INST_BY_WIDTH.values())

# Cache, DRAM and time metrics (issue 4): predicted by a model, compared with a tolerance.
L1_HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
L1_MISS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"
L2_READ = "lts__t_sectors_srcunit_tex_op_read.sum"
L2_WRITE = "lts__t_sectors_srcunit_tex_op_write.sum"
L2_READ_HIT = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"
DRAM_READ = "dram__bytes_read.sum"
DRAM_WRITE = "dram__bytes_write.sum"
DURATION = "gpu__time_duration.sum"
MODELED = [L1_HIT, L1_MISS, L2_READ, L2_WRITE, L2_READ_HIT, DRAM_READ, DRAM_WRITE, DURATION]
# The predicted CUDA-event time of one launch at boost clocks (ms): no ncu counterpart, compared
# with the recorded event-timing medians.
EVENT_TIME_MS = "memsim__event_time_ms"
# The duration the time formula (memsim.model.timing) gives, where the warp-level simulation
# (memsim.timing) sets gpu__time_duration: kept side by side for comparison.
FORMULA_DURATION = "memsim__time_formula_ns"

# memsim's own figures with no exact ncu counterpart (PTX, not SASS, instructions).
PTX_WARP_INSTRUCTIONS = "memsim__ptx_warp_inst_executed.sum"
PTX_THREAD_INSTRUCTIONS = "memsim__ptx_thread_inst_executed.sum"
# The SASS engine's instead (smsp__sass_inst_executed.sum counts these too, not checked yet).
SASS_WARP_INSTRUCTIONS = "memsim__sass_warp_inst_executed.sum"
SASS_THREAD_INSTRUCTIONS = "memsim__sass_thread_inst_executed.sum"
GLOBAL_ATOM_REQUESTS = "memsim__global_atom_requests.sum"
LOCAL_LD_REQUESTS = "memsim__local_ld_requests.sum"
LOCAL_ST_REQUESTS = "memsim__local_st_requests.sum"
SHARED_LD_IDEAL_WAVEFRONTS = "memsim__shared_ld_ideal_wavefronts.sum"
SHARED_ST_IDEAL_WAVEFRONTS = "memsim__shared_st_ideal_wavefronts.sum"
GLOBAL_LD_IDEAL_SECTORS = "memsim__global_ld_ideal_sectors.sum"
GLOBAL_ST_IDEAL_SECTORS = "memsim__global_st_ideal_sectors.sum"
# The SASS engine's warp scoreboard (memsim/engine/sass/emulate.py): round trips on each warp's
# dependent path, summed over warps and the largest, global loads and per-thread constant
# reads. Inputs of the time model, with no ncu counterpart.
WARP_GLOBAL_ROUND_TRIPS = "memsim__warp_global_round_trips.sum"
WARP_CONSTANT_ROUND_TRIPS = "memsim__warp_constant_round_trips.sum"
WARP_GLOBAL_ROUND_TRIPS_MAX = "memsim__warp_global_round_trips.max"
WARP_CONSTANT_ROUND_TRIPS_MAX = "memsim__warp_constant_round_trips.max"
ROUND_TRIPS = [WARP_GLOBAL_ROUND_TRIPS, WARP_CONSTANT_ROUND_TRIPS, WARP_GLOBAL_ROUND_TRIPS_MAX,
               WARP_CONSTANT_ROUND_TRIPS_MAX]
# Atomics under their ncu names (gpu/ncu.py collects them), UNCHECKED (not held as exact by
# `validate`). memsim/engine/tally.py: one request per warp instruction with an active lane; sectors =
# the packets the L1 sends to L2, per sector the most lanes on one of its addresses
# (memsim.engine.count.atomic_packets: equal to the recorded H100 counts on 228 of 230, off by 0.19%
# on corpus hist_global_4096 and by a race on max_atomic_cas); a PTX atom whose result nothing
# reads is a RED in SASS (ptxas), except exch and cas; shared atomics are ATOMS whatever their
# result (CAS loops in SASS for float adds: one instruction here).
# The shared one is sm__ (not smsp__): only the sm__ name is confirmed in an `ncu --query-metrics`
# listing; its .sum is the same total.
GLOBAL_ATOM_REQUESTS_NCU = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"
GLOBAL_ATOM_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"
GLOBAL_RED_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"
GLOBAL_RED_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"
INST_GLOBAL_ATOM = "smsp__sass_inst_executed_op_global_atom.sum"
INST_GLOBAL_RED = "smsp__sass_inst_executed_op_global_red.sum"
INST_SHARED_ATOM = "sm__sass_inst_executed_op_shared_atom.sum"
ATOMICS = [GLOBAL_ATOM_REQUESTS_NCU, GLOBAL_ATOM_SECTORS, GLOBAL_RED_REQUESTS, GLOBAL_RED_SECTORS,
           INST_GLOBAL_ATOM, INST_GLOBAL_RED, INST_SHARED_ATOM]
# The contention of a launch's global atomics (memsim.engine.count.atomic_packets, over all its warps):
# the most packets that fall in one aligned unit of each size (the time model reads the unit
# of L2 serialization its GPU profile names, l2.atomic_unit_bytes), and the most packets of
# floating-point operations on one 32-byte sector. memsim's own figures, no ncu counterpart.
ATOMIC_UNIT_SIZES = (128, 256, 512, 1024, 2048)
ATOMIC_BUSIEST_UNIT = {size: f"memsim__atomic_packets_busiest_{size}b.max" for size in ATOMIC_UNIT_SIZES}
ATOMIC_FLOAT_CHAIN = "memsim__atomic_float_packets_busiest_sector.max"
# The same with 256-byte units that pair up within each aligned KiB, units 0 and 3 and units 1 and 2
# (the parity of address bits 8 and 9): measured with gpu/probes/atomic_probe.cu (l2.atomic_units_pair)
ATOMIC_BUSIEST_PAIRED = "memsim__atomic_packets_busiest_256b_paired.max"
# ... of which full packets (an operation on every word of their sector: applied faster)
ATOMIC_BUSIEST_PAIRED_FULL = "memsim__atomic_full_packets_busiest_256b_paired.max"
ATOMIC_CONTENTION = [*ATOMIC_BUSIEST_UNIT.values(), ATOMIC_BUSIEST_PAIRED, ATOMIC_BUSIEST_PAIRED_FULL,
                     ATOMIC_FLOAT_CHAIN]
# Wavefronts of shared-memory atomics (ATOMS) through the shared-memory data path, counted as
# for shared stores, but a 4-byte ATOMS.ADD (SASS engine) a wavefront per lane of its busiest bank:
# ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom per instruction in the atomic probe's
# recording (gpu/probes/h100_atomic_probe.json, tests/timing/test_atomic_probe.py), not in validate/data.
SHARED_ATOM_WAVEFRONTS = "memsim__shared_atom_wavefronts.sum"
UNCHECKED = [PTX_WARP_INSTRUCTIONS, PTX_THREAD_INSTRUCTIONS, GLOBAL_ATOM_REQUESTS,
             LOCAL_LD_REQUESTS, LOCAL_ST_REQUESTS, SHARED_LD_IDEAL_WAVEFRONTS,
             SHARED_ST_IDEAL_WAVEFRONTS, GLOBAL_LD_IDEAL_SECTORS, GLOBAL_ST_IDEAL_SECTORS, *ATOMICS,
             *ATOMIC_CONTENTION, SHARED_ATOM_WAVEFRONTS]

# Hopper's TMA (memsim.engine.sass.ops_tma), under the names the H100 counts it in (recorded:
# validate/tma_probes.py): instructions per warp issue (the pipe counts UTMACMDFLUSH too), a
# load's whole box, a store's bytes inside the tensor and their 32-byte sectors. EXACT, compared
# where a recording has them (gpu/ncu.py collects them since session 15).
TMA_LD_INSTRUCTIONS = "smsp__sass_inst_executed_op_tma_ld.sum"
TMA_ST_INSTRUCTIONS = "smsp__sass_inst_executed_op_tma_st.sum"
TMA_PIPE_INSTRUCTIONS = "smsp__inst_executed_pipe_tma.sum"
TMA_LD_BYTES = "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"
TMA_LD_SECTORS = "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum"
TMA_ST_BYTES = "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum"
TMA_ST_SECTORS = "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum"
TMA_BY_OP = {"tma_ld": (TMA_LD_INSTRUCTIONS, TMA_LD_BYTES, TMA_LD_SECTORS),
             "tma_st": (TMA_ST_INSTRUCTIONS, TMA_ST_BYTES, TMA_ST_SECTORS)}
TMA = [TMA_LD_INSTRUCTIONS, TMA_ST_INSTRUCTIONS, TMA_PIPE_INSTRUCTIONS, TMA_LD_BYTES, TMA_LD_SECTORS,
       TMA_ST_BYTES, TMA_ST_SECTORS]

# Hopper's wgmma (memsim.engine.sass.ops_wgmma), under the names ncu 2025.3 counts it in on the
# H100: HGMMA warp issues (as shared-memory instructions and in the tensor pipe), the bytes its
# descriptors read from shared memory (64 x 16 of A unless A comes from registers, N x 16 of B,
# 2 bytes each, per warpgroup MMA), their 128-byte wavefronts and the tensor path's math ops
# (2 x 64 x N x 16 per warpgroup MMA). UNCHECKED: equal to ncu on the one launch measured so far
# (gpu/probes/h100_wgmma_metrics.json); gpu/ncu.py collects them from now on.
GMMA_INSTRUCTIONS = "smsp__sass_inst_executed_op_shared_gmma.sum"
GMMA_PIPE_INSTRUCTIONS = "smsp__inst_executed_pipe_tensor_op_gmma.sum"
GMMA_BYTES = "smsp__sass_data_bytes_mem_shared_op_gmma.sum"
GMMA_WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"
GMMA_OPS = {"gmma_f16": "sm__ops_path_tensor_op_hgmma_src_fp16.sum",
            "gmma_bf16": "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum"}
GMMA = [GMMA_INSTRUCTIONS, GMMA_PIPE_INSTRUCTIONS, GMMA_BYTES, GMMA_WAVEFRONTS, *GMMA_OPS.values()]


class GlobalOpMetrics(NamedTuple):
    """The metrics of one kind (ld, st) of global memory instruction (memsim.engine.tally sums them)."""

    instructions: str
    requests: str
    sectors: str
    bytes: str
    ideal_sectors: str


class SharedOpMetrics(NamedTuple):
    """The metrics of one kind (ld, st) of shared memory instruction."""

    instructions: str
    wavefronts: str
    bytes: str
    ideal_wavefronts: str


GLOBAL_BY_OP = {
    "ld": GlobalOpMetrics(INST_GLOBAL_LD, GLOBAL_LD_REQUESTS, GLOBAL_LD_SECTORS, BYTES_GLOBAL_LD, GLOBAL_LD_IDEAL_SECTORS),
    "st": GlobalOpMetrics(INST_GLOBAL_ST, GLOBAL_ST_REQUESTS, GLOBAL_ST_SECTORS, BYTES_GLOBAL_ST, GLOBAL_ST_IDEAL_SECTORS)}
SHARED_BY_OP = {
    "ld": SharedOpMetrics(INST_SHARED_LD, SHARED_LD_WAVEFRONTS, BYTES_SHARED_LD, SHARED_LD_IDEAL_WAVEFRONTS),
    "st": SharedOpMetrics(INST_SHARED_ST, SHARED_ST_WAVEFRONTS, BYTES_SHARED_ST, SHARED_ST_IDEAL_WAVEFRONTS)}
LOCAL_REQUESTS_BY_OP = {"ld": LOCAL_LD_REQUESTS, "st": LOCAL_ST_REQUESTS}


def provenance(metric: str) -> Provenance:
    if metric in EXACT or metric in TMA:
        return Provenance.EXACT
    if metric in MODELED or metric in (EVENT_TIME_MS, FORMULA_DURATION):
        return Provenance.MODELED
    return Provenance.UNCHECKED
