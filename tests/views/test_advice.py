"""Findings (memsim.views.advice) for every catalog kernel: the known problems, with numbers and remedies."""
from __future__ import annotations

import pytest

from memsim.views import advice
from memsim import catalog
from memsim import simulate_spec
from memsim.views.advice import Finding, Severity
from memsim.report import KernelReport, LineCounters
from tests.helpers.small_catalog import cached, small_launch


HIGH, MEDIUM = Severity.HIGH, Severity.MEDIUM
STAGE = ("uncoalesced", 32.0, 4.0, HIGH, advice.REMEDY_STAGE)
SWAP = ("uncoalesced", 32.0, 4.0, HIGH, advice.REMEDY_SWAP)
UNROLLED = ("uncoalesced", 32.0, 4.0, MEDIUM, advice.REMEDY_STAGE)   # a quarter of the traffic each
MISALIGNED = ("uncoalesced", 5.0, 4.0, MEDIUM, advice.REMEDY_MISALIGNED)


def conflict(ways: float, severity=HIGH):
    return ("bank_conflict", ways, 1.0, severity, advice.REMEDY_PAD)


# (op, (kind, per request, ideal per request, severity, remedy)) per finding, in order
EXPECTED = {
    "copy_row": [],
    "copy_col": [("ld", SWAP), ("st", SWAP)],
    "transpose_naive_row": [("st", STAGE)],
    "transpose_naive_col": [("ld", STAGE)],
    "transpose_unroll4_row": [("st", UNROLLED)] * 4,
    "transpose_unroll4_col": [("ld", UNROLLED)] * 4,
    "transpose_diagonal_row": [("st", STAGE)],
    "transpose_diagonal_col": [("ld", STAGE)],
    "transpose_smem": [("ld", conflict(32))],
    "transpose_smem_pad": [],
    "transpose_smem_rect": [("ld", conflict(16))],
    "transpose_smem_rect_pad": [("ld", conflict(2))],
    "row_sums": [("ld", SWAP)],
    "col_sums": [],
    "add_aligned": [],
    "add_misaligned": [("ld", MISALIGNED), ("st", MISALIGNED)],
    "add2d_strided": [("ld", SWAP), ("st", SWAP)],
    "add2d_coalesced": [],
    "matmul_naive": [],
    "matmul_smem": [],
}


@pytest.fixture(scope="module")
def reports():
    return cached(lambda name: simulate_spec(small_launch(name))[0])


def test_every_catalog_kernel_has_an_expectation():
    assert set(EXPECTED) == set(catalog.names())


@pytest.mark.parametrize("name", list(EXPECTED))
def test_findings_of_each_catalog_kernel(name, reports):
    found = advice.findings(reports(name))
    got = [(f.op, (f.kind, f.per_request, f.ideal_per_request, f.severity, f.remedy)) for f in found]
    assert sorted(got, key=repr) == sorted(EXPECTED[name], key=repr)
    for f in found:
        assert f.message.startswith(f"line {f.line}: ") and f.source


def test_naive_transpose_store_message(reports):
    [finding] = advice.findings(reports("transpose_naive_row"))
    assert finding.message == ("line 17: uncoalesced global stores: 32.0 sectors per request where "
                               "4 would do, 28 excess sectors per request (87.5% of store traffic)")
    assert finding.excess == 128 * 28 and finding.share == pytest.approx(0.875)


def test_bank_conflict_message(reports):
    [finding] = advice.findings(reports("transpose_smem"))
    assert finding.message == ("line 15: 32-way bank conflict on shared loads (32 wavefronts per "
                               "request where 1 would do; 96.9% of shared load wavefronts)")


def test_misaligned_message_says_one_excess_sector(reports):
    load = next(f for f in advice.findings(reports("add_misaligned")) if f.op == "ld")
    assert "5.0 sectors per request where 4 would do, 1 excess sector per request (20.0% of load" in load.message


def test_most_severe_first_and_json_round_trip(reports):
    found = advice.findings(reports("transpose_unroll4_row")) + advice.findings(reports("transpose_smem"))
    assert [f.severity for f in sorted(found, key=lambda f: list(Severity).index(f.severity))][0] == HIGH
    for f in found:
        assert Finding.model_validate_json(f.model_dump_json()) == f


def _report(*rows: LineCounters, **metrics) -> KernelReport:
    return KernelReport(kernel="k", grid=(1, 1, 1), block=(32, 1, 1), lines=list(rows), metrics=metrics)


@pytest.mark.parametrize("excess, severity", [(2, Severity.LOW), (20, MEDIUM), (60, HIGH)])
def test_severity_follows_the_share_of_traffic(excess, severity):
    row = LineCounters(line=3, source="x[i]", space="shared", op="ld", width=4, instructions=1,
                       requests=1, wavefronts=100, ideal_wavefronts=100 - excess)
    [finding] = advice.findings(_report(row))
    assert finding.severity == severity and finding.excess == excess


def test_partly_coalesced_access_gets_the_scattered_remedy():
    row = LineCounters(line=5, source="x[idx[i]]", space="global", op="ld", width=4, instructions=1,
                       requests=10, sectors=120, ideal_sectors=40)
    [finding] = advice.findings(_report(row))
    assert finding.remedy == advice.REMEDY_SCATTERED    # 12 sectors for 32 lanes: not one per lane


def test_no_findings_table_says_so():
    assert "no findings" in advice.text([]).plain
