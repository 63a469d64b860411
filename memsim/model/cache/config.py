"""What the cache model needs to know of a GPU (CacheGeometry: hardware numbers from its
profile) and what was fitted to its recordings (CacheTuning: from the profile's
`fitted.cache_tuning`), and the configuration array the Numba passes read."""
from __future__ import annotations

import numpy as np
from pydantic import BaseModel, Field

from ... import gpus
from ...gpus import GpcLayout
from ..scheduling import OccupancyLimits
from .passes import (G_FETCH_SECTORS, G_WARP_MERGE_LINES, G_L1_LOADS, G_L1_SETS, G_L1_WAYS, G_L2_SETS, G_L2_WAYS,
                     G_LOOSE_PERCENT, G_MERGE_MIN_LINES, G_MERGE_STEPS, G_MERGE_WINDOW, G_READ_MERGE,
                     G_STORE_MERGE, G_L2_POLICY, G_L1_STORE_ALLOCATE, G_L2_SIDES, G_L2_DIRTY_WAYS, G_L2_PARTIAL,
                     G_L2_PARTIAL_LINES, N_CFG)


class CacheGeometry(BaseModel):
    """Hardware numbers of the memory hierarchy, all read from a GpuProfile (for_gpu)."""

    gpu: str
    sm_count: int
    limits: OccupancyLimits
    l1_line_bytes: int
    sector_bytes: int
    l1_caches_global_loads: bool
    l2_request_coalescer: bool
    l1_store_merge_max_lines: int = Field(32, description="lines a store request may span and still merge")
    l1_store_allocate: bool = Field(False, description="global stores allocate their lines in L1")
    gpcs: GpcLayout | None = Field(description="the coalescer's domains (None: no coalescer)")
    l2_bytes: int
    l2_partitions: int
    l2_line_bytes: int
    l2_dirty_at_launch_bytes: int = Field(0, description="dirty lines in L2 at the launch's start "
                                                         "(ncu's multi-pass replay leaves them)")
    dram_fetch_bytes: int
    l2_home_partitions: bool = Field(False, description="lines live in their home partition, reads of the "
                                                        "other side copied near (memsim.gpus.profile.L2)")
    l2_whole_sector_writes: bool = Field(False, description="partly written sectors are read from DRAM "
                                                            "before their write-back (memsim.gpus.profile.L2)")

    @classmethod
    def from_profile(cls, profile) -> "CacheGeometry":
        """From a memsim.gpus.GpuProfile (the one place that knows its layout)."""
        occ, l1 = profile.occupancy, profile.l1
        limits = OccupancyLimits(
            max_threads_per_sm=occ.max_threads_per_sm, max_warps_per_sm=occ.max_warps_per_sm,
            max_blocks_per_sm=occ.max_blocks_per_sm, registers_per_sm=occ.registers_per_sm,
            register_allocation_unit=occ.register_allocation_unit,
            shared_per_sm_bytes=occ.shared_per_sm_bytes,
            shared_reserved_per_block_bytes=occ.shared_reserved_per_block_bytes,
            shared_allocation_unit=occ.shared_allocation_unit,
            l1_shared_per_sm_bytes=l1.l1_shared_per_sm_bytes, carveouts_kb=list(l1.carveouts_kb),
            carveout_headroom=l1.carveout_policy.headroom,
            carveout_headroom_limit_kb=l1.carveout_policy.headroom_limit_kb,
            carveout_unshared_blocks_per_thread_limit=l1.carveout_policy.unshared_blocks_per_thread_limit)
        return cls(gpu=profile.name, sm_count=profile.sm_count, limits=limits,
                   l1_line_bytes=l1.line_bytes, sector_bytes=l1.sector_bytes,
                   l1_caches_global_loads=l1.caches_global_loads, l2_bytes=profile.l2.size_bytes,
                   l1_store_merge_max_lines=l1.store_merge_max_lines, l1_store_allocate=l1.store_allocate,
                   l2_request_coalescer=profile.l2.request_coalescer, gpcs=profile.gpcs,
                   l2_partitions=profile.l2.partitions, l2_line_bytes=profile.l2.line_bytes,
                   l2_dirty_at_launch_bytes=profile.l2.dirty_at_profiled_launch_bytes,
                   dram_fetch_bytes=profile.dram.fetch_bytes, l2_home_partitions=profile.l2.home_partitions,
                   l2_whole_sector_writes=profile.l2.whole_sector_writes)

    @classmethod
    def for_gpu(cls, gpu) -> "CacheGeometry":
        """`gpu`: a CacheGeometry, a GpuProfile or a GPU name known to memsim.gpus."""
        if isinstance(gpu, CacheGeometry):
            return gpu
        if not isinstance(gpu, str):
            return cls.from_profile(gpu)
        return cls.from_profile(gpus.load(gpu))


class CacheTuning(BaseModel):
    """Model choices that are not datasheet numbers. The numbers are fitted to a GPU's
    recordings (docs/caches.md) and live in its profile (`fitted.cache_tuning`); the switches
    below them are the model's own options."""

    l1_ways: int
    l2_ways: int
    l2_capacity_scale: float = Field(description="distinct data the L2 holds, in units of one "
                                                      "partition's share (lines are duplicated "
                                                      "across partitions)")
    dram_read_overhead_bytes: int = Field(description="code, parameters and constants each launch fetches")
    window_requests: int = Field(1 << 18, description="warp accesses ordered together at most")
    l2_batch_accesses: int = Field(1 << 20, description="warp accesses of consecutive windows whose L2 requests "
                                                        "are merged by time before the L2 pass (memsim.model."
                                                        "cache.l2_backlog); at most one window: 1")
    background: bool = Field(True, description="model windows on a thread while the emulator goes on")
    l2_policy: int = Field(0, description="L2 victims: 0 LRU (the model); 1 the LRU clean line while "
                                          "the set has one, 2 a dirty line passed over once: both "
                                          "measured against gpu/cache_probe/h100_writeback_results.json "
                                          "and the prereg set and rejected (docs/caches.md)")
    l2_dirty_ways: int = Field(0, description="ways of an L2 set that may hold dirty lines at once (0: all); "
                                              "past it, the set's least recently written-to dirty line is "
                                              "written back")
    l2_partial_lines: int = Field(0, description="lines with partly written sectors the L2 keeps waiting for the "
                                                 "rest of their bytes, where the GPU writes DRAM in whole "
                                                 "sectors (0: all): a line still partly written when this many "
                                                 "others have become so since has those sectors read, merged "
                                                 "and written back")
    warp_store_merge_lines: int = Field(8, description="store lines an SM sends in one step past which "
                                                        "a warp's next store to the same sectors merges with "
                                                        "its last, still waiting in the L1 (-1: global stores "
                                                        "never merge so): gpu/cache_probe store_lines_probe.py "
                                                        "k_stdelay, one idle warp merges none at 8 lines a "
                                                        "request and 13 of 16 lines at 16")
    warp_store_merge_gap: int = Field(8, description="instructions a warp's two stores may lie apart and still "
                                                     "merge so: k_stdelay, stores 8 cycles apart never merge, "
                                                     "and a warp issues at most one instruction a cycle")
    merge_reads: bool = True
    merge_stores: bool = True
    merge_after_barrier: bool = True
    merge_one_wave_stores: bool = True
    merge_one_wave_loads: bool = Field(True, description="in a one-wave grid, loads after a wait "
                                                        "on a load still merge across SMs")
    loose_merge_percent: int = Field(description="after loads, in a one-wave grid: how often a "
                                                     "block's warps still store together")
    merge_min_lines: int = Field(description="lines a read request must miss in L1 to merge across SMs")
    read_merge_window: int = Field(description="places in the L1 miss streams of two SMs within "
                                                     "which identical requests still arrive together")
    merge_poison: bool = Field(True, description="no merging on a line that the SMs of one domain read "
                                                "with different sector masks in one step")
    read_merge_steps: int = Field(description="steps apart at which reads of two SMs still merge "
                                                 "(the coalescer's window is ~300 cycles)")
    gpc_domains: bool = Field(True, description="reads merge only within a GPC (the L2 request "
                                                "coalescer's domain), blocks placed as the profile's "
                                                "`gpcs` says")
    read_merge_points: list[tuple[int, float]] = Field(
        description="(SMs of one domain reading one sector together, L2 lookups): gpu/cache_probe "
                    "k_bcast, whose blocks the H100 spreads over the GPCs as coalescing_domains says")

    @classmethod
    def for_gpu(cls, gpu) -> "CacheTuning":
        """The fitted numbers `gpu`'s profile holds: a GPU name, a GpuProfile or a CacheGeometry."""
        if isinstance(gpu, CacheGeometry):
            gpu = gpu.gpu
        profile = gpus.load(gpu) if isinstance(gpu, str) else gpu
        return cls(**profile.fitted.cache_tuning)


def numba_config(g: CacheGeometry, t: CacheTuning, l1_bytes: int) -> np.ndarray:
    """The cfg array the Numba passes read (G_* positions)."""
    cfg = np.zeros(N_CFG, np.int64)
    l1_lines = max(l1_bytes // g.l1_line_bytes, t.l1_ways)
    l2_lines = int(g.l2_bytes / g.l2_partitions * t.l2_capacity_scale) // g.l2_line_bytes
    cfg[G_L1_SETS], cfg[G_L1_WAYS] = l1_lines // t.l1_ways, t.l1_ways
    cfg[G_L2_SETS], cfg[G_L2_WAYS] = max(l2_lines // t.l2_ways, 1), t.l2_ways
    cfg[G_L1_LOADS] = int(g.l1_caches_global_loads)
    cfg[G_FETCH_SECTORS] = max(g.dram_fetch_bytes // g.sector_bytes, 1)
    cfg[G_READ_MERGE], cfg[G_STORE_MERGE] = int(t.merge_reads and g.l2_request_coalescer), \
        g.l1_store_merge_max_lines if t.merge_stores else 0
    cfg[G_MERGE_WINDOW], cfg[G_MERGE_MIN_LINES] = t.read_merge_window, t.merge_min_lines
    cfg[G_LOOSE_PERCENT] = t.loose_merge_percent
    cfg[G_MERGE_STEPS] = t.read_merge_steps
    cfg[G_L2_POLICY] = t.l2_policy
    cfg[G_L1_STORE_ALLOCATE] = int(g.l1_store_allocate)
    cfg[G_L2_SIDES] = g.l2_partitions if g.l2_home_partitions else 1
    cfg[G_L2_DIRTY_WAYS] = t.l2_dirty_ways
    cfg[G_L2_PARTIAL] = int(g.l2_whole_sector_writes)
    cfg[G_L2_PARTIAL_LINES] = t.l2_partial_lines if g.l2_whole_sector_writes else 0
    cfg[G_WARP_MERGE_LINES] = t.warp_store_merge_lines
    return cfg
