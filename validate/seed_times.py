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
from memsim.prediction import predict_spec


class SeedTime(BaseModel):
    seed: str
    gpu: str
    case: str = ""
    label: str
    published_ms: float
    measure: str        # "event" | "duration"


# (seed, GPU, memsim case, the seed's name for it, published ms, what was timed)
PUBLISHED = [SeedTime(seed=a, gpu=b, case=c, label=d, published_ms=e, measure=f) for a, b, c, d, e, f in [
    ('001', 'GTX1050Ti', 's001_copyRow', 'copyRow', 1.61, 'event'),
    ('001', 'GTX1050Ti', 's001_copyCol', 'copyCol', 4.2, 'event'),
    ('001', 'GTX1050Ti', 's001_naiveRow', 'naiveRow', 4.01, 'event'),
    ('001', 'GTX1050Ti', 's001_naiveCol', 'naiveCol', 2.12, 'event'),
    ('001', 'GTX1050Ti', 's001_naiveRowDiagonal', 'diagonal row', 4.01, 'event'),
    ('001', 'GTX1050Ti', 's001_naiveColDiagonal', 'diagonal col', 2.36, 'event'),
    ('000', 'GTX1060', 's000_naiveRow_b16', 'transposeRow (16x16)', 0.321, 'event'),
    ('000', 'GTX1060', 's000_naiveCol_b16', 'transposeCol (16x16)', 0.162, 'event'),
    ('000', 'GTX1060', 's000_transposeSmem', 'smem (32x16)', 0.156, 'event'),
    ('000', 'GTX1060', 's000_transposeSmemPad', 'smem pad (32x16)', 0.107, 'event'),
    ('003', 'A100', 's003_row_sums', 'row_sums', 3.84, 'duration'),
    ('003', 'A100', 's003_col_sums', 'col_sums', 2.71, 'duration'),
]]


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
