"""Stage 5, caches: L1, L2 and DRAM traffic of one launch, from the stream of its global warp accesses.

    model = CacheModel(memsim.gpus.default_profile(), threads_per_block=256, flow=ProgramFlow.of(code_flow), blocks=n)
    model.consume(accesses)      # memsim.stream.WarpAccesses, whole blocks in launch order
    model.result()               # TrafficEstimate: ncu's names (memsim.prediction runs a launch so)

The model (docs/caches.md has the evidence behind each choice):

- Blocks go to SMs and their warps interleave as memsim.model.scheduling describes; every access
  carries (SM, step). A first pass, SM by SM, runs the L1s; a second, in time order over all
  SMs (within a step the SMs side by side, as they run at once), runs the L2 on what the L1s
  sent on, over consecutive windows of blocks merged by time (one wave's blocks run at once,
  though the model takes them in windows: memsim.model.cache.l2_backlog).
- **L1**, one per SM: 128-byte lines of four 32-byte sectors, set associative with LRU,
  capacity = the unified L1/shared array minus the shared-memory carveout. Global loads look up
  each sector (hit or miss, ncu's lookup counters) and fill only the sectors they missed; a
  sector already requested by an earlier warp counts as a hit even while its data is in flight.
  Stores write through without allocating. Stores of warps in lock step (same step, same block
  after a barrier or before any wait on a load) to one sector leave the L1 as one write.
- **L2**, one for the GPU: 128-byte lines, 32-byte sectors, write-back, write-allocate without
  fetching (byte masks), cold at the start (ncu flushes it). Where the profile says
  `l2.home_partitions` (the H100), each line lives in its home partition, which fills it and
  holds its writes, and a read from the other side's SMs leaves a clean copy near them; at most
  `l2_dirty_ways` of a set's ways are dirty. Otherwise distinct data fills one partition's
  share of it (a line read from the far partition is cached in both). A read miss fetches the
  aligned 64-byte pair of sectors from DRAM; the other sector then hits. Evicting a dirty line
  writes its dirty sectors to DRAM; dirty lines left at the end are not counted (ncu's flush
  comes later). Where the profile says `l2.whole_sector_writes` (the H100), DRAM takes whole
  sectors: a dirty sector some of whose 2-byte halves no store wrote is read from DRAM before it
  is written back, and a line still partly written once `l2_partial_lines` others have become
  so since is read, merged and written back then (memsim.model.cache.l2_pass). Identical read requests that SMs send at the same moment share L2 lookups
  (measured: gpu/cache_probe).
- Atomics and reductions are served by L2 (a miss fetches from DRAM) but are neither L1 lookups
  nor L2 read/write sectors of the tex unit in ncu's counters.
"""
from .config import CacheGeometry, CacheTuning
from .traffic import CacheModel, LoadOutcomes, TrafficEstimate, coalescing_domains, lock_step_groups, merge_curve

__all__ = ["CacheGeometry", "CacheModel", "CacheTuning", "LoadOutcomes", "TrafficEstimate", "coalescing_domains",
           "lock_step_groups", "merge_curve"]
