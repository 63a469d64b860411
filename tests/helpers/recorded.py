"""Which launches the GPU already ran exactly as specified: a compile-only check of them adds
nothing (the recording compiled and ran them; validate's items simulate them)."""
from __future__ import annotations

import functools

from validate import record as rec
from validate.case import Case
from validate.preregistration import spec_digest


@functools.lru_cache(maxsize=None)
def recorded_digests(case_set: str) -> dict[str, str]:
    """Case name -> spec digest of the set's launches measured on the H100."""
    path = rec.path_for(rec.DATA_DIR, "h100", case_set)
    return {c.name: spec_digest(c.spec) for c in rec.load(path).cases if c.measured} if path.exists() else {}


def ran_on_the_gpu(case_set: str, cases: list[Case]) -> bool:
    """Every one of `cases` was recorded on the H100 with the same spec digest."""
    recorded = recorded_digests(case_set)
    return bool(cases) and all(recorded.get(c.name) == spec_digest(c.spec) for c in cases)
