"""Windows whose L1 pass has run, waiting for one L2 pass over all of them in time order.

The cache model takes a launch in windows of whole blocks (at most `window_requests` warp
accesses). A window's blocks are placed on SMs and given their steps (absolute times, so two
windows of one wave both start at step 0), and the L1s, one per SM, are independent of each
other. The L2 is shared: running each window's requests to their end before the next window's
begin would let the blocks of one wave run one window after another, although they run at
once. A grid-stride loop then finishes in window 1 every line that window 2's blocks share, and
its partly written or re-read lines are written back or fetched again (PyTorch3D's point-edge
arrays, prereg13: DRAM writes 2-6x the H100's). So the L1 pass's requests wait here, up to
`CacheTuning.l2_batch_accesses` accesses, and the L2 pass takes them all, merged by time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# The backlog also stops at this many L1 -> L2 requests (24 bytes each kept, ~50 MB): a
# coalesced window (1 to 4 lines an access) still waits for the next, an uncoalesced one (a
# transpose: 32 lines an access, 8 M requests a window) goes on alone, uncopied, as before the
# backlog. Peak RSS of `memsim predict transpose_naive --nx 4096 --gpu H100` (both kernels of the
# group): 729 MB before the backlog, 944 MB with it (transpose_naive_col alone: 582 -> 676 MB).
MAX_EVENTS = 1 << 21


@dataclass
class _Window:
    events: tuple[np.ndarray, np.ndarray, np.ndarray]   # line, info, words of its L1 -> L2 requests
    first: np.ndarray                                   # per access: its first event, its events
    count: np.ndarray
    time: np.ndarray                                    # per access: time_key (the L2's order)
    domain: np.ndarray                                  # per access: coalescing domain, L2 side, pc
    side: np.ndarray
    pc: np.ndarray


def time_key(sm: np.ndarray, warp: np.ndarray, slot: np.ndarray, step: np.ndarray) -> np.ndarray:
    """One int64 per access ordering as np.lexsort((sm, warp, slot, step)): step first, then the
    block slot, the warp, the SM (within a step the SMs side by side, as they run at once).
    Windows' keys compare with each other, so a batch sorts once (8 bytes an access kept)."""
    if len(sm) and (sm.max() >= 1 << 8 or warp.max() >= 1 << 6 or slot.max() >= 1 << 6):
        raise ValueError("time_key: an SM, warp or block slot number past its bits")
    return (step.astype(np.int64) << 20) | (slot.astype(np.int64) << 14) | (warp.astype(np.int64) << 8) | sm


@dataclass
class L2Backlog:
    """Collects windows (`add`) until `full`, then gives them back as one (`take`)."""

    limit: int
    windows: list[_Window] = field(default_factory=list)
    accesses: int = 0
    events: int = 0
    time_base: int = 0

    def add(self, events: tuple[np.ndarray, ...], first: np.ndarray, count: np.ndarray, time: np.ndarray,
            domain: np.ndarray, side: np.ndarray, pc: np.ndarray, time_base: int) -> None:
        """One window's requests and its accesses' time keys and L2 routing; `time_base` its L1
        clock at the start. `events` are the L1 pass's buffers, which the next window reuses: their
        used part is copied, unless this window alone fills the backlog (the caller then takes it
        at once)."""
        used = int(count.sum())
        alone = not self.windows and (used >= MAX_EVENTS or len(first) >= self.limit)
        if not self.windows:
            self.time_base = time_base
        self.windows.append(_Window(tuple(e[:used] if alone else e[:used].copy() for e in events), first,
                                    count.astype(np.int32), time, domain.astype(np.int16),
                                    side.astype(np.int8), pc.astype(np.int32)))
        self.accesses += len(first)
        self.events += used

    @property
    def full(self) -> bool:
        return self.accesses >= self.limit or self.events >= MAX_EVENTS

    def take(self) -> tuple:
        """(the accesses in time order, ev_line, ev_info, ev_words, ev_first, ev_count, domain, side,
        pc, time_base) over every window collected, which are then dropped."""
        ws, self.windows, self.accesses, self.events = self.windows, [], 0, 0
        offsets = np.cumsum([0] + [len(w.events[0]) for w in ws[:-1]])
        events = tuple(_joined([w.events[k] for w in ws]) for k in range(3))
        first = _joined([w.first + off if off else w.first for w, off in zip(ws, offsets)])
        count, domain, side, pc = (_joined([getattr(w, f) for w in ws]).astype(np.int64)
                                   for f in ("count", "domain", "side", "pc"))
        return (np.argsort(_joined([w.time for w in ws]), kind="stable"), *events, first, count, domain, side, pc,
                self.time_base)


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """The windows' arrays one after another (a lone window's as it is: no copy)."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts)
