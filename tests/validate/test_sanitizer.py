"""memsim check against compute-sanitizer's recorded verdicts (validate/data/h100/sanitizer.json,
recorded on an H100 with `python -m gpu.sanitizer record`): the rules are
validate.sanitizer_golden.differences'."""
from __future__ import annotations

import pytest

from validate.sanitizer_cases import TOOLS, case_named, sanitizer_cases
from validate.sanitizer_golden import KNOWN_DIFFERENCES, differences, load_golden, memsim_verdict

GOLDEN = load_golden()


def test_the_recording_covers_every_case_and_tool():
    recorded = {(v.case, v.tool) for v in GOLDEN}
    wanted = {(c.name, t) for c in sanitizer_cases() for t in c.tools}
    assert recorded == wanted


def test_enough_planted_bugs_and_clean_kernels():
    planted = [v for v in GOLDEN if case_named(v.case).planted and not v.clean]
    clean = {c.name for c in sanitizer_cases() if not c.planted}
    assert len(planted) >= 30, "compute-sanitizer must find at least 30 planted bugs"
    assert len(clean) >= 10
    assert {v.tool for v in planted} == set(TOOLS)
    assert all(v.clean for v in GOLDEN if v.case in clean), "a clean kernel was not clean on the GPU"


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda v: f"{v.case}-{v.tool}")
def test_memsim_agrees_with_compute_sanitizer(golden):
    diff = differences(golden, memsim_verdict(case_named(golden.case), golden.tool))
    if (golden.case, golden.tool) in KNOWN_DIFFERENCES:
        assert diff, f"{golden.case} now agrees: drop it from KNOWN_DIFFERENCES"
    else:
        assert diff == []
