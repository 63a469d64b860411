"""Kernel time from CUDA events: warm-ups, then many timed launches summarized by their median.

Optionally each rep is preceded by writing a scratch buffer larger than the L2 (50 MB on an
H100), so every rep starts from a cold L2 like ncu's default cache control; whether that was done
is recorded with the numbers, since the two regimes differ a lot for small kernels.
"""
from __future__ import annotations

import statistics
from typing import Callable

from pydantic import BaseModel, Field

from .launch import require_cupy

MIN_REPS = 30
FLUSH_BYTES = 256 * 1024 * 1024


class EventTiming(BaseModel):
    """Launch-to-completion time of one kernel in milliseconds, over `reps` timed launches."""

    median_ms: float
    min_ms: float
    max_ms: float
    stdev_ms: float
    reps: int
    warmups: int
    l2_flushed: bool = Field(description="a scratch buffer larger than the L2 was written before each rep")

    @classmethod
    def from_samples(cls, samples: list[float], warmups: int, l2_flushed: bool) -> "EventTiming":
        return cls(median_ms=statistics.median(samples), min_ms=min(samples), max_ms=max(samples),
                   stdev_ms=statistics.stdev(samples) if len(samples) > 1 else 0.0,
                   reps=len(samples), warmups=warmups, l2_flushed=l2_flushed)


def time_launch(launch: Callable[[], None], reps: int = MIN_REPS, warmups: int = 3,
                flush_l2: bool = False) -> EventTiming:
    """Time `launch` (which queues one kernel) with a pair of events around each rep."""
    cupy = require_cupy()
    reps = max(reps, MIN_REPS)
    scratch = cupy.empty(FLUSH_BYTES, dtype=cupy.uint8) if flush_l2 else None
    for _ in range(warmups):
        launch()
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    samples = []
    for _ in range(reps):
        if scratch is not None:
            scratch.fill(1)
        start.record()
        launch()
        stop.record()
        stop.synchronize()
        samples.append(cupy.cuda.get_elapsed_time(start, stop))
    return EventTiming.from_samples(samples, warmups, flush_l2)
