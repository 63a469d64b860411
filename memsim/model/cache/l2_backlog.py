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


@dataclass
class _Window:
    events: tuple[np.ndarray, np.ndarray, np.ndarray]   # line, info, words of its L1 -> L2 requests
    first: np.ndarray                                   # per access: its first event, its events
    count: np.ndarray
    time: tuple[np.ndarray, ...]                        # (sm, warp, slot, step): lexsort keys
    domain: np.ndarray                                  # per access: coalescing domain, L2 side, pc
    side: np.ndarray
    pc: np.ndarray


@dataclass
class L2Backlog:
    """Collects windows (`add`) until `full`, then gives them back as one (`take`)."""

    limit: int
    windows: list[_Window] = field(default_factory=list)
    accesses: int = 0
    time_base: int = 0

    def add(self, events: tuple[np.ndarray, ...], first: np.ndarray, count: np.ndarray, time: tuple[np.ndarray, ...],
            domain: np.ndarray, side: np.ndarray, pc: np.ndarray, time_base: int) -> None:
        """One window's requests (`events` are the L1 pass's reused buffers: their used part is
        copied) and its accesses' time keys and L2 routing; `time_base` its L1 clock at the start."""
        used = int(count.sum())
        if not self.windows:
            self.time_base = time_base
        self.windows.append(_Window(tuple(e[:used].copy() for e in events), first.copy(), count.copy(),
                                    tuple(np.asarray(k, np.int64) for k in time), domain, side, pc))
        self.accesses += len(first)

    @property
    def full(self) -> bool:
        return self.accesses >= self.limit

    def take(self) -> tuple:
        """(time keys, ev_line, ev_info, ev_words, ev_first, ev_count, domain, side, pc, time_base) over
        every window collected, which are then dropped."""
        ws, self.windows, self.accesses = self.windows, [], 0
        if len(ws) == 1:
            w = ws[0]
            return (w.time, *w.events, w.first, w.count, w.domain, w.side, w.pc, self.time_base)
        offsets = np.cumsum([0] + [len(w.events[0]) for w in ws[:-1]])
        events = tuple(np.concatenate([w.events[k] for w in ws]) for k in range(3))
        first = np.concatenate([w.first + off for w, off in zip(ws, offsets)])
        time = tuple(np.concatenate([w.time[k] for w in ws]) for k in range(4))
        count, domain, side, pc = (np.concatenate([getattr(w, f) for w in ws]) for f in ("count", "domain", "side", "pc"))
        return (time, *events, first, count, domain, side, pc, self.time_base)
