"""The triton set's H100 recording (validate/data/h100/triton.json, 48 launches of
validate/triton_cases.py) held in CI: this machine compiles the same SASS as the GPU did (the
cases' `sass:` digests) and memsim equals every exact counter (the wgmma matmuls, tagged `wgmma`,
since session 16: their outputs too). Skipped without Triton 3.6.0."""
from __future__ import annotations

import pytest

import memsim
from memsim import metrics as m

try:
    pytest.importorskip("memsim.triton", reason="Triton 3.6.0 is not installed (pip install -e '.[triton]')")
except ImportError as exc:   # another Triton release
    pytest.skip(str(exc), allow_module_level=True)

from memsim.launch import digest  # noqa: E402
from validate import record as rec  # noqa: E402
from validate.triton_cases import triton_cases  # noqa: E402

RECORDED = {c.name: c for c in rec.load(rec.DATA_DIR / "h100" / "triton.json").cases}
CASES = {c.name: c for c in triton_cases()}
WGMMA = sorted(name for name, c in RECORDED.items() if "wgmma" in c.tags)


def _digest(tags: list[str]) -> list[str]:
    return [t for t in tags if t.startswith("sass:")]


def test_the_recording_covers_the_set_and_was_the_same_compile():
    assert len(RECORDED) >= 40 and set(RECORDED) == set(CASES)
    assert all(_digest(CASES[n].tags) == _digest(RECORDED[n].tags) for n in RECORDED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_exact_counters_equal_the_h100(name):
    report, values = memsim.simulate_spec(CASES[name].spec)
    measured = RECORDED[name].metrics
    differ = {k: (report.metrics[k], measured[k]) for k in m.EXACT if report.metrics[k] != measured[k]}
    assert not differ, f"predicted vs measured: {differ}"
    if name in WGMMA or name == "tr_matmul_fp16_m16":   # the H100's tensor-core sums (ops_wgmma, ops_half)
        assert digest(values) == RECORDED[name].output_digest


def test_the_wgmma_matmuls_are_recorded():
    assert len(WGMMA) >= 2
