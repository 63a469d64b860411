"""The atomic probes' recordings (validate/data/h100/atomic_probe*.json, docs/exactness.md "Global
atomic packets") hold what the docs say of them: the slot-set hash read off the hash_* launches,
and the candidate rule of gpu/atomic_probe/analysis.py on the single-lane ablations."""
from __future__ import annotations

import pytest

from gpu.atomic_probe import analysis
from validate import record


def _cases(stem: str, prefix: str):
    found = [(c.name, int(sum(c.metrics.get(m, 0) for m in analysis.METRICS)), analysis.instructions(c.spec))
             for c in record.load(record.DATA_DIR / "h100" / f"{stem}.json").cases if c.name.startswith(prefix)]
    assert found
    return found


def test_lines_share_a_slot_set_exactly_where_the_h100_splits_the_sector():
    # a (line 0, word 0), c (line D, word 1), b (line 0, word 1): 3 packets where c splits a and b.
    for name, measured, (words,) in _cases("atomic_probe4", "hash_"):
        d = int(name.split("_")[1])
        assert measured == (3 if analysis.slot_set(d) == analysis.slot_set(0) else 2), name


@pytest.mark.parametrize("rule, exact", [(analysis.memsim_rule, 331), (analysis.slots_rule, 637)])
def test_ablations_of_hist_global_4096_instructions(rule, exact):
    cases = _cases("atomic_probe2", "i")
    assert len(cases) == 637
    assert sum(sum(map(rule, insts)) == measured for _, measured, insts in cases) == exact
