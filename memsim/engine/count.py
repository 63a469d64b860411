"""Stage 4: count what one warp-level memory instruction costs, from its lanes' addresses.

Rules (checked against H100 measurements in validate/):
- global: one request per warp instruction with an active lane; sectors = distinct 32-byte
  sectors the active lanes touch (aligned accesses never straddle a sector).
- shared: 32 banks of 4 bytes; lanes reading the same 4-byte word share it (broadcast);
  wavefronts = per phase of lanes (see shared_phase_lanes), the largest number of distinct
  words any one bank must deliver.
- bytes (smsp__sass_data_bytes_mem_*, data_bytes below): each distinct address the active
  lanes touch counts once per warp instruction, times the access width, loads and stores alike.
  Loads: measured (32 lanes reading one word count 4 bytes; recorded suite and fuzz cases).
  Stores: HYPOTHESIS. Measured only where no two active lanes write one address (every recorded
  store: there distinct = lanes, so the recordings cannot tell "distinct" from "every lane");
  a held-out report (block reduction `shared_sum[warp_id] = warp_sum;` with no lane-0 guard:
  4 bytes per warp instruction in smsp__sass_data_bytes_mem_shared_op_st) supports "distinct".
  validate/suite/same_address.cu probes it (all lanes / half the lanes / pairs of lanes on one
  shared or global element of 1-16 bytes) until an H100 recording settles it.
Ideal figures are what the same bytes would cost if perfectly packed: they make
"sectors per request vs ideal" and "bank conflicts" readable.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .. import metrics as m
from ..gpus import BANK_BYTES, BANKS, SECTOR_BYTES

# Counter columns per static instruction.
C_EXEC, C_THREADS, C_REQUESTS, C_SECTORS, C_WAVEFRONTS, C_BYTES, C_IDEAL_SECTORS, C_IDEAL_WAVEFRONTS = range(8)
C_SPACE = 8  # the state space a generic access resolved to (set, not summed)
# The shared part of a SASS generic LD/ST (its global part is in the columns above): warp
# instructions with a shared lane, their wavefronts and ideal wavefronts.
C_SHARED_REQUESTS, C_SHARED_WAVEFRONTS, C_SHARED_IDEAL_WAVEFRONTS = 9, 10, 11
# A global load's passes through L1's data banks and its distinct 128-byte lines (the tag
# stage's work): the timing simulation's cost of the request in the L1 pipe (l1_data_passes).
C_L1_BANK_PASSES, C_L1_LINES = 12, 13
N_COUNTERS = 14


@njit(cache=True)
def sort_prefix(values, n):
    """Insertion sort of values[:n]: linear on the already-sorted streams most warps produce."""
    for i in range(1, n):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v


@njit(cache=True)
def lane_pattern(addrs, active, width):
    """(lanes, all on one address, consecutive width-strided addresses in lane order): the two
    shapes most warps have, which the counters below handle without sorting."""
    n = 0
    first = 0
    first_lane = 0
    same = True
    strided = True
    for lane in range(32):
        if (active >> lane) & 1:
            a = addrs[lane]
            if n == 0:
                first = a
                first_lane = lane
            else:
                same = same and a == first
                strided = strided and a == first + (lane - first_lane) * width
            n += 1
    return n, same, strided and active == ((1 << n) - 1) << first_lane if n else False


@njit(cache=True)
def _sorted_active(addrs, active, scratch):
    """Copy the active lanes' addresses into scratch, sorted; returns (count, distinct count)."""
    n = 0
    for lane in range(32):
        if (active >> lane) & 1:
            scratch[n] = addrs[lane]
            n += 1
    sort_prefix(scratch, n)
    distinct = 1 if n else 0
    for i in range(1, n):
        if scratch[i] != scratch[i - 1]:
            distinct += 1
    return n, distinct


@njit(cache=True)
def global_sectors(addrs, active, width, scratch):
    """(sectors, ideal sectors, distinct addresses) of one warp access; addrs[l] valid for
    lanes in `active`."""
    lanes, same, contiguous = lane_pattern(addrs, active, width)
    if lanes == 0:
        return 0, 0, 0
    if same:
        return 1, (width + SECTOR_BYTES - 1) // SECTOR_BYTES, 1
    if contiguous:
        first = addrs[lowest_lane(active)]
        last = first + lanes * width - 1
        return (last >> 5) - (first >> 5) + 1, (lanes * width + SECTOR_BYTES - 1) // SECTOR_BYTES, lanes
    n, distinct = _sorted_active(addrs, active, scratch)
    sectors = 1
    for i in range(1, n):
        if (scratch[i] >> 5) != (scratch[i - 1] >> 5):
            sectors += 1
    ideal = (distinct * width + SECTOR_BYTES - 1) // SECTOR_BYTES
    return sectors, ideal, distinct


@njit(cache=True, _nrt=False)
def l1_data_passes(addrs, active, width, bank_load):
    """(bank passes, distinct 128-byte lines) of a warp's global load through L1. L1's data
    array has the banks of shared memory: words of one bank in different lines take one pass
    each, one word read by many lanes one pass (gpu/probes/l1_lines_probe.cu on the H100: 32
    lanes on 32 lines of one bank take 32 L1 cycles a request; on 32 lines of 32 banks, 9.9)."""
    lanes, same, contiguous = lane_pattern(addrs, active, width)
    if lanes == 0:
        return 0, 0
    if same:
        return 1, 1
    if contiguous:   # each bank once per 128 bytes of the span, however the span sits on lines
        first = addrs[lowest_lane(active)]
        lines = ((first + lanes * width - 1) >> 7) - (first >> 7) + 1
        return (lanes * width + BANKS * BANK_BYTES - 1) // (BANKS * BANK_BYTES), lines
    words = max(width // BANK_BYTES, 1)
    for b in range(BANKS):
        bank_load[b] = 0
    lines = 0
    for i in range(32):
        if not (active >> i) & 1:
            continue
        line, group = addrs[i] >> 7, addrs[i] // (words * BANK_BYTES)
        new_line, new_group = True, True
        for j in range(i):
            if (active >> j) & 1 and addrs[j] >> 7 == line:
                new_line = False
                if addrs[j] // (words * BANK_BYTES) == group:
                    new_group = False
                    break
        lines += new_line
        if new_group:
            bank = (addrs[i] // BANK_BYTES) % BANKS
            for k in range(words):
                bank_load[(bank + k) % BANKS] += 1
    passes = 0
    for b in range(BANKS):
        passes = max(passes, bank_load[b])
    return passes, lines


# Launch-wide tally of global atomic packets per 32-byte sector (atomic_packets): rows of
# [sector + 1 (0: free), packets, packets of floating-point operations, full packets (one
# operation on every word of the sector)], open addressing.
ATOMIC_SLOTS = 1 << 16
A_KEY, A_PACKETS, A_FLOAT, A_FULL = range(4)


def new_atomic_table(has_global_atomics: bool) -> np.ndarray:
    """The tally of one launch (one row where the kernel has no global atomic: never written)."""
    return np.zeros((ATOMIC_SLOTS if has_global_atomics else 1, 4), dtype=np.int64)


@njit(cache=True)
def atomic_packets(addrs, active, width, scratch, table, is_float):
    """(packets, ideal sectors, distinct addresses) of one warp's global atomic or reduction.

    The L1 sends a warp's atomic to L2 as packets of one 32-byte sector each, and a packet holds
    at most one operation per address: lanes on one address need as many packets as there are
    lanes, lanes on different words of a sector share them. Packets = the sum over the sectors
    touched of the most lanes on any one address in it: ncu's
    l1tex__t_sectors_pipe_lsu_mem_global_op_{atom,red} on 228 of 230 recorded H100 counts
    (validate/data/h100; hist_global_64: 430,058 packets where 258,519 sectors are touched).
    Each sector's packets are added to `table` (the launch's contention, atomic_contention)."""
    n, distinct = _sorted_active(addrs, active, scratch)
    if n == 0:
        return 0, 0, 0
    packets = 0
    i = 0
    while i < n:
        sector = scratch[i] >> 5
        worst = 0
        fewest = 32
        words = 0
        j = i
        while j < n and (scratch[j] >> 5) == sector:
            k = j + 1
            while k < n and scratch[k] == scratch[j]:
                k += 1
            worst = max(worst, k - j)
            fewest = min(fewest, k - j)
            words += 1
            j = k
        packets += worst
        # the first `fewest` packets carry an operation for every word of the sector
        full = fewest if words * width == SECTOR_BYTES else 0
        _tally_atomic(table, sector, worst, is_float, full)
        i = j
    return packets, (distinct * width + SECTOR_BYTES - 1) // SECTOR_BYTES, distinct


@njit(cache=True)
def _tally_atomic(table, sector, packets, is_float, full):
    slots = table.shape[0]
    if slots < 2:
        return
    h = (np.uint64(sector) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(48)
    at = np.int64(h) & (slots - 1)
    for _ in range(slots):
        key = table[at, A_KEY]
        if key == sector + 1 or key == 0:
            table[at, A_KEY] = sector + 1
            table[at, A_PACKETS] += packets
            table[at, A_FULL] += full
            if is_float:
                table[at, A_FLOAT] += packets
            return
        at = (at + 1) & (slots - 1)
    # full: further sectors go untallied (a launch touching over 65,536 sectors with atomics
    # spreads them; its busiest units are among those already seen)


def atomic_contention(table: np.ndarray) -> dict[str, int]:
    """memsim.metrics.ATOMIC_BUSIEST_UNIT (the most packets that fall in one aligned unit of
    each size) and ATOMIC_FLOAT_CHAIN (the most floating-point packets on one sector) of a
    launch's tally."""
    used = table[:, A_KEY] > 0
    sectors = table[used, A_KEY] - 1
    packets, floats = table[used, A_PACKETS], table[used, A_FLOAT]
    out = {m.ATOMIC_FLOAT_CHAIN: int(floats.max()) if len(floats) else 0}
    addresses = sectors * SECTOR_BYTES
    units = {name: addresses // unit for unit, name in m.ATOMIC_BUSIEST_UNIT.items()}
    units[m.ATOMIC_BUSIEST_PAIRED] = paired_unit(addresses)
    out[m.ATOMIC_BUSIEST_PAIRED_FULL] = 0
    for name, unit in units.items():
        if not len(sectors):
            out[name] = 0
            continue
        _, which = np.unique(unit, return_inverse=True)
        per_unit = np.bincount(which, weights=packets)
        out[name] = int(per_unit.max())
        if name == m.ATOMIC_BUSIEST_PAIRED:
            out[m.ATOMIC_BUSIEST_PAIRED_FULL] = int(np.bincount(which, weights=table[used, A_FULL])[per_unit.argmax()])
    return out


def paired_unit(addresses: np.ndarray) -> np.ndarray:
    """The L2 atomic unit of each byte address where the four 256-byte units of an aligned KiB
    pair up (0 with 3, 1 with 2: the parity of address bits 8 and 9). Measured on the H100
    (gpu/probes/atomic_probe.cu): 32 lanes over an aligned KiB take two units' time wherever the
    KiB lies, the same KiB shifted by 512 bytes four units' (and by 256 bytes two)."""
    addresses = np.asarray(addresses, np.int64)
    return (addresses >> 10) * 2 + (((addresses >> 8) ^ (addresses >> 9)) & 1)


@njit(cache=True)
def shared_atomic_add_wavefronts(addrs, active, bank_load):
    """Wavefronts of a 4-byte ATOMS.ADD: the most active lanes on any one bank, lanes on the same
    word included (measured on the H100 with gpu/probes/atomic_probe.cu: k lanes on one word cost
    k wavefronts, ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom)."""
    for b in range(BANKS):
        bank_load[b] = 0
    worst = 0
    for lane in range(32):
        if (active >> lane) & 1:
            b = (addrs[lane] >> 2) % BANKS
            bank_load[b] += 1
            worst = max(worst, bank_load[b])
    return worst


@njit(cache=True)
def shared_phase_lanes(width, is_store):
    """Lanes whose accesses can share a wavefront: a whole warp for accesses of up to 4 bytes,
    half-warps for 8-byte accesses and 16-byte loads (a 16-byte load's two quarters merge or
    not: _float4_load_wavefronts), quarter-warps for 16-byte stores (measured on the H100: a
    16-byte store with an 8-way conflict in every quarter costs 32)."""
    if width <= 4:
        return 32
    if width == 8 or not is_store:
        return 16
    return 8


@njit(cache=True)
def _lanes_pair_up(addrs, active, first_lane, count):
    """Whether lanes [first_lane, first_lane + count) pair up: every active lane reads the
    address its neighbour at distance 1 reads (or every one that at distance 2). With no bank
    delivering two words, two phases that pair up share one wavefront: 8-byte loads' two
    half-warps, 16-byte loads' two quarters of a half-warp (docs/exactness.md, "Wide shared
    loads")."""
    for bit in (1, 2):
        paired = True
        for lane in range(first_lane, first_lane + count):
            other = lane ^ bit
            if (active >> lane) & 1 and (active >> other) & 1 and addrs[lane] != addrs[other]:
                paired = False
                break
        if paired:
            return True
    return False


@njit(cache=True)
def shared_wavefronts(addrs, active, width, is_store, scratch, bank_load):
    """(wavefronts, ideal wavefronts, distinct addresses) of one warp access to shared memory.

    Per phase of lanes: the most distinct 4-byte words any one bank must deliver (lanes on the
    same word share it). Ideal: the distinct words of each phase packed 32 to a wavefront."""
    lanes, same, contiguous = lane_pattern(addrs, active, width)
    if lanes == 0:
        return 0, 0, 0
    if width <= 4 and (same or (contiguous and addrs[lowest_lane(active)] % BANK_BYTES == 0)):
        # one word for everyone, or consecutive words: every bank delivers at most
        # ceil(words / 32) of them
        words = 1 if same else (lanes * width + BANK_BYTES - 1) // BANK_BYTES
        cost = (words + BANKS - 1) // BANKS
        return cost, cost, 1 if same else lanes
    if width == 16 and not same and not contiguous:
        found = _float4_broadcast_phases(addrs, active, shared_phase_lanes(width, is_store), scratch)
        if found >= 0:
            return found >> 32, found >> 32, found & 0xFFFFFFFF
    if width == 16 and (same or contiguous):
        # every phase reads one float4, or consecutive ones: no bank holds two words of a phase
        # beyond what the phase's size forces (the slow path below gives the same, sorting)
        phase = shared_phase_lanes(width, is_store)
        cost = 0
        for first_lane in range(0, 32, phase):
            n = _lanes_in(active, first_lane, phase)
            if n:
                cost += 1 if same else (n * 4 + BANKS - 1) // BANKS
        return cost, cost, 1 if same else lanes
    if width == 4:
        found = _word_banks(addrs, active, bank_load)
        if found >= 0:
            distinct = found & 0xFFFFFFFF
            return found >> 32, (distinct + BANKS - 1) // BANKS, distinct
    _, distinct_addrs = _sorted_active(addrs, active, scratch)
    if width == 8 and not is_store and (same or (_lanes_pair_up(addrs, active, 0, 32)
                                                 and _bank_worst(addrs, active, 0, 32, 2, scratch, bank_load)[0] <= 1)):
        return 1, 1, distinct_addrs
    if width == 16 and not is_store:
        w, i = _float4_load_wavefronts(addrs, active, scratch, bank_load)
        return w, i, distinct_addrs
    words_per_lane = (width + BANK_BYTES - 1) // BANK_BYTES
    phase = shared_phase_lanes(width, is_store)
    wavefronts, ideal = 0, 0
    for first_lane in range(0, 32, phase):
        worst, distinct = _bank_worst(addrs, active, first_lane, phase, words_per_lane, scratch, bank_load)
        wavefronts += worst
        ideal += (distinct + BANKS - 1) // BANKS
    return wavefronts, ideal, distinct_addrs


# shared_wavefronts_memo's rows, one per static instruction, -1 when empty: the active mask,
# the lowest active lane's address & 127, the three results, the 32 lanes' offsets from it.
MEMO_COLUMNS = 37


@njit(cache=True)
def shared_wavefronts_memo(addrs, active, width, is_store, scratch, bank_load, memo, key):
    """shared_wavefronts, remembered per static instruction `key`: every rule above reads only
    the lanes' words relative to one another and their banks (word mod 32), so a warp whose
    active lanes sit at the same offsets from its lowest active lane as the last warp's, shifted
    by a multiple of 128 bytes (32 words: banks unchanged), costs the same. Tiled loops repeat
    one pattern in every warp and iteration; the check is one pass over the lanes."""
    if active == 0:
        return shared_wavefronts(addrs, active, width, is_store, scratch, bank_load)
    first = addrs[lowest_lane(active)]
    if memo[key, 0] == active and memo[key, 1] == first & 127:
        hit = True
        for lane in range(32):
            if (active >> lane) & 1 and addrs[lane] - first != memo[key, 5 + lane]:
                hit = False
                break
        if hit:
            return memo[key, 2], memo[key, 3], memo[key, 4]
    wavefronts, ideal, distinct = shared_wavefronts(addrs, active, width, is_store, scratch, bank_load)
    memo[key, 0], memo[key, 1] = active, first & 127
    memo[key, 2], memo[key, 3], memo[key, 4] = wavefronts, ideal, distinct
    for lane in range(32):
        memo[key, 5 + lane] = addrs[lane] - first if (active >> lane) & 1 else 0
    return wavefronts, ideal, distinct


@njit(cache=True)
def _bank_worst(addrs, active, first_lane, count, words, scratch, bank_load):
    """(the most distinct words one bank delivers, distinct words) of the accesses of `words`
    4-byte words each by lanes [first_lane, first_lane + count)."""
    n = 0
    for lane in range(first_lane, first_lane + count):
        if (active >> lane) & 1:
            word = addrs[lane] >> 2
            for k in range(words):
                scratch[n] = word + k
                n += 1
    if n == 0:
        return 0, 0
    sort_prefix(scratch, n)
    for b in range(BANKS):
        bank_load[b] = 0
    worst, distinct = 0, 0
    for i in range(n):
        if i == 0 or scratch[i] != scratch[i - 1]:
            distinct += 1
            bank_load[scratch[i] & (BANKS - 1)] += 1
            if bank_load[scratch[i] & (BANKS - 1)] > worst:
                worst = bank_load[scratch[i] & (BANKS - 1)]
    return worst, distinct


@njit(cache=True)
def _float4_load_wavefronts(addrs, active, scratch, bank_load):
    """16-byte loads: per quarter-warp (8 lanes, 32 banks) its worst bank; the two quarters of
    a half-warp share one wavefront where the half reads one address, or where no bank delivers
    two words and the lanes pair up (_lanes_pair_up; H100 probes validate/suite/float4_*.cu,
    docs/exactness.md "Wide shared loads")."""
    wavefronts, ideal = 0, 0
    for half in range(0, 32, 16):
        worst, distinct = _bank_worst(addrs, active, half, 16, 4, scratch, bank_load)
        if distinct == 0:
            continue
        ideal += (distinct + BANKS - 1) // BANKS
        if distinct == 4 or (worst <= 1 and _lanes_pair_up(addrs, active, half, 16)):
            wavefronts += 1   # one address (four words) for the half, or mergeable quarters
            continue
        for quarter in range(half, half + 16, 8):
            wavefronts += _bank_worst(addrs, active, quarter, 8, 4, scratch, bank_load)[0]
    return wavefronts, ideal


@njit(cache=True)
def _word_banks(addrs, active, bank_words):
    """4-byte accesses of one warp, without sorting: each bank's distinct words as a bit set
    of their rows (word >> 5) relative to the lowest. Returns (most words one bank delivers) << 32
    | distinct words, or -1 where rows span 64 or more (the caller sorts instead)."""
    low = -1
    for lane in range(32):
        if (active >> lane) & 1:
            row = addrs[lane] >> 7
            if low < 0 or row < low:
                low = row
    for b in range(BANKS):
        bank_words[b] = 0
    for lane in range(32):
        if (active >> lane) & 1:
            j = (addrs[lane] >> 7) - low
            if j >= 63:
                return -1
            bank_words[(addrs[lane] >> 2) & (BANKS - 1)] |= np.int64(1) << j
    worst, distinct = 0, 0
    for b in range(BANKS):
        x = bank_words[b]
        n = 0
        while x:
            x &= x - 1
            n += 1
        distinct += n
        if n > worst:
            worst = n
    return (worst << 32) | distinct


@njit(cache=True)
def _float4_broadcast_phases(addrs, active, phase, seen):
    """16-byte accesses where every phase's lanes read one address (a row of a tile broadcast
    to each half-warp): one wavefront per active phase. Returns wavefronts << 32 | distinct
    addresses, or -1 where a phase reads two addresses (the caller counts banks)."""
    phases, distinct = 0, 0
    for first_lane in range(0, 32, phase):
        a = -1
        for lane in range(first_lane, first_lane + phase):
            if (active >> lane) & 1:
                if a < 0:
                    a = addrs[lane]
                elif addrs[lane] != a:
                    return -1
        if a < 0:
            continue
        new = True
        for k in range(distinct):
            new = new and seen[k] != a
        if new:
            seen[distinct] = a
            distinct += 1
        phases += 1
    return (phases << 32) | distinct


@njit(cache=True)
def _lanes_in(active, first_lane, count):
    n = 0
    for lane in range(first_lane, first_lane + count):
        n += (active >> lane) & 1
    return n


@njit(cache=True)
def lowest_lane(active):
    lane = 0
    while not (active >> lane) & 1:
        lane += 1
    return lane


@njit(cache=True)
def data_bytes(is_load, lanes, distinct, width):
    """smsp__sass_data_bytes_mem_* of one warp-level access: `distinct` addresses x width.

    Loads and stores alike count each distinct address once (loads measured; stores: see the
    module docstring). `is_load` and `lanes` are kept so that a rule per direction stays a
    one-line change for both engines."""
    if lanes == 0:
        return 0
    return distinct * width


def new_counters(n_instructions: int) -> np.ndarray:
    return np.zeros((n_instructions, N_COUNTERS), dtype=np.int64)
