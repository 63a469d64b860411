"""The seeds' published kernel times on their own GPUs against memsim's prediction from those
GPUs' datasheet profiles (issue 4; the table in docs/time-model.md).

    python -m validate.seed_times            # about a minute: simulates the seeds' launches

Seeds 001 and 000 timed their launches on the host or with CUDA events (compared with the
predicted event time), seed 003 quoted ncu's Duration (compared with gpu__time_duration).
"""
from __future__ import annotations

import sys

from pydantic import BaseModel

from memsim import catalog
from memsim import metrics as m
from memsim.predict import predict_spec


class SeedTime(BaseModel):
    seed: str
    gpu: str
    case: str = ""
    label: str
    published_ms: float
    measure: str        # "event" | "duration"


PUBLISHED = [
    SeedTime(seed="001", gpu="GTX1050Ti", case="s001_copyRow", label="copyRow", published_ms=1.61, measure="event"),
    SeedTime(seed="001", gpu="GTX1050Ti", case="s001_copyCol", label="copyCol", published_ms=4.20, measure="event"),
    SeedTime(seed="001", gpu="GTX1050Ti", case="s001_naiveRow", label="naiveRow", published_ms=4.01, measure="event"),
    SeedTime(seed="001", gpu="GTX1050Ti", case="s001_naiveCol", label="naiveCol", published_ms=2.12, measure="event"),
    SeedTime(seed="001", gpu="GTX1050Ti", case="s001_naiveRowDiagonal", label="diagonal row", published_ms=4.01,
             measure="event"),
    SeedTime(seed="001", gpu="GTX1050Ti", case="s001_naiveColDiagonal", label="diagonal col", published_ms=2.36,
             measure="event"),
    SeedTime(seed="000", gpu="GTX1060", case="s000_naiveRow_b16", label="transposeRow (16x16)", published_ms=0.321,
             measure="event"),
    SeedTime(seed="000", gpu="GTX1060", case="s000_naiveCol_b16", label="transposeCol (16x16)", published_ms=0.162,
             measure="event"),
    SeedTime(seed="000", gpu="GTX1060", case="s000_transposeSmem", label="smem (32x16)", published_ms=0.156,
             measure="event"),
    SeedTime(seed="000", gpu="GTX1060", case="s000_transposeSmemPad", label="smem pad (32x16)", published_ms=0.107,
             measure="event"),
    SeedTime(seed="003", gpu="A100", case="s003_row_sums", label="row_sums", published_ms=3.84, measure="duration"),
    SeedTime(seed="003", gpu="A100", case="s003_col_sums", label="col_sums", published_ms=2.71, measure="duration"),
]


def predicted_ms(entry: SeedTime) -> float:
    seed = next(s for s in catalog.SEED_CASES if s.case == entry.case)
    report, _ = predict_spec(catalog.get(seed.entry).launch(**seed.params), gpu=entry.gpu)
    if entry.measure == "event":
        return float(report.metrics[m.EVENT_TIME_MS])
    return float(report.metrics[m.DURATION]) / 1e6


def main() -> int:
    print("| seed, GPU | kernel | published | predicted | error |\n| --- | --- | --- | --- | --- |")
    for entry in PUBLISHED:
        got = predicted_ms(entry)
        print(f"| {entry.seed}, {entry.gpu} | {entry.label} | {entry.published_ms:.3g} ms | {got:.3g} ms | "
              f"{(got - entry.published_ms) / entry.published_ms:+.0%} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
