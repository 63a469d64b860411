"""validate: measurement files, comparison with the simulator, reports and the CLI, with a fake
simulator and fake measurements; then the real check of memsim against the recorded H100 data."""
from __future__ import annotations

import fnmatch
import json
from pathlib import Path

import numpy as np
import pytest

import memsim
from gpu.measure import Measurement
from memsim import metrics as m
from validate import cli
from validate import record as rec
from validate.compare import ComparisonReport, Status, compare_files, compare_metric, load_known_differences
from validate.report import markdown, write_reports

from tests.helpers import GOLDEN
from tests.helpers.records import MEASURED, VERSIONS, make_file, make_record
from tests.helpers.seed_cases import reference


# ---- measurement files ----------------------------------------------------------------------

def test_record_round_trip(tmp_path):
    original = make_file(make_record("a"), make_record("b", error="driver died"))
    path = rec.save(original, tmp_path)
    assert path == tmp_path / "h100" / "suite.json"
    assert rec.load(path) == original


def test_save_adds_to_a_recording_from_the_same_setup(tmp_path):
    rec.save(make_file(make_record("a"), make_record("b")), tmp_path)
    rec.save(make_file(make_record("b", metrics={m.DURATION: 5.0})), tmp_path)
    cases = {c.name: c for c in rec.load(tmp_path / "h100" / "suite.json").cases}
    assert set(cases) == {"a", "b"} and cases["b"].metrics == {m.DURATION: 5.0}


def test_save_replaces_a_recording_from_other_tools(tmp_path):
    rec.save(make_file(make_record("a")), tmp_path)
    rec.save(make_file(make_record("b"), versions=VERSIONS.model_copy(update={"nvrtc": "13.1"})), tmp_path)
    assert [c.name for c in rec.load(tmp_path / "h100" / "suite.json").cases] == ["b"]


@pytest.mark.parametrize("content, message", [(None, "cannot read"), ('{"gpu": "h100"}', "not a measurement file"),
                                              ("not json", "not a measurement file")])
def test_bad_measurement_files_are_one_line_errors(tmp_path, content, message):
    path = tmp_path / "x.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(rec.RecordError, match=message) as error:
        rec.load(path)
    assert "\n" not in str(error.value)


def test_import_files_them_by_gpu_and_set(tmp_path):
    fetched = tmp_path / "fetched" / "h100"
    fetched.mkdir(parents=True)
    (fetched / "fuzz.json").write_text(make_file(case_set="fuzz").model_dump_json())
    paths = rec.import_files([tmp_path / "fetched"], tmp_path / "data")
    assert paths == [tmp_path / "data" / "h100" / "fuzz.json"]
    assert [f.case_set for f in rec.load_all(tmp_path / "data")] == ["fuzz"]


def test_the_recorded_seed_kernels_reproduce_the_reference_counters():
    recording = rec.load(GOLDEN / "h100-seed-recording.json")
    expected = {r["case"]: r["metrics"] for r in reference()}
    assert len(recording.cases) == len(expected) == 25
    for case in recording.cases:
        assert {k: case.metrics[k] for k in m.EXACT} == {k: expected[case.name][k] for k in m.EXACT}, case.name
    assert recording.versions.nvrtc == "13.0"


# ---- comparison -----------------------------------------------------------------------------

def test_equal_exact_metrics_pass(simulator):
    report = compare_files([make_file()])
    case = report.cases[0]
    assert case.status == Status.PASS and report.ok and case.outputs_identical
    assert case.metric(m.GLOBAL_LD_SECTORS).status == "match"


@pytest.mark.parametrize("h200_block, simulations", [(32, 1), (16, 2)])
def test_a_launch_recorded_on_two_gpus_is_simulated_once(simulator, h200_block, simulations):
    h100, h200 = make_file(), make_file()
    h200.gpu = "h200"
    spec = h200.cases[0].spec
    h200.cases[0].spec = type(spec)(**{**spec.model_dump(), "block": h200_block})
    report = compare_files([h100, h200])
    assert simulator["calls"] == simulations
    assert [c.gpu for c in report.cases] == ["h100", "h200"] and report.cases[0].status == Status.PASS


def test_a_differing_exact_metric_fails_the_case(simulator):
    simulator["metrics"][m.GLOBAL_LD_SECTORS] = 101
    report = compare_files([make_file()])
    assert report.cases[0].status == Status.FAIL and not report.ok
    assert m.GLOBAL_LD_SECTORS in report.cases[0].detail


def test_an_exact_metric_not_predicted_fails_the_case(simulator):
    del simulator["metrics"][m.BYTES_SHARED_LD]
    case = compare_files([make_file()]).cases[0]
    assert case.status == Status.FAIL and case.metric(m.BYTES_SHARED_LD).status == "not predicted"


def test_modeled_metrics_report_error_without_failing(simulator):
    simulator["metrics"][m.DRAM_READ] = 1100.0
    case = compare_files([make_file()]).cases[0]
    assert case.status == Status.PASS
    assert case.metric(m.DRAM_READ).rel_error == pytest.approx(0.1)
    assert case.metric(m.L2_READ).status == "not measured"


def test_modeled_metric_without_prediction_is_marked(simulator):
    del simulator["metrics"][m.DURATION]
    case = compare_files([make_file()]).cases[0]
    assert case.status == Status.PASS and case.metric(m.DURATION).status == "not predicted"


def test_simulator_errors_fail_the_case(simulator):
    simulator["error"] = memsim.MemsimError("unsupported instruction 'tex.2d' at line 3")
    case = compare_files([make_file()]).cases[0]
    assert case.status == Status.SIM_ERROR and "tex.2d" in case.detail


def test_simulator_crash_is_a_case_failure_not_a_traceback(simulator):
    simulator["error"] = IndexError("list index out of range")
    case = compare_files([make_file()]).cases[0]
    assert case.status == Status.SIM_ERROR and "IndexError" in case.detail


def test_other_inputs_than_the_hardware_saw_fail(simulator):
    record = make_record()
    record.input_digest = "0" * 16
    assert compare_files([make_file(record)]).cases[0].status == Status.INPUTS_DIFFER


def test_cases_the_hardware_failed_are_not_simulated(simulator):
    report = compare_files([make_file(make_record(error="illegal address"))])
    assert report.cases[0].status == Status.NOT_MEASURED and report.ok and simulator["calls"] == 0


def test_hardware_contradicting_a_case_expectation_is_reported(simulator):
    record = make_record()
    record.expect = {m.GLOBAL_LD_SECTORS: 99, m.GLOBAL_ST_SECTORS: 100}
    case = compare_files([make_file(record)]).cases[0]
    assert case.wrong_expectations == [m.GLOBAL_LD_SECTORS]


@pytest.mark.parametrize("measured, predicted, error", [(100, 110, 0.1), (100, 90, -0.1), (0, 0, 0.0), (0, 3, 3.0)])
def test_relative_error(measured, predicted, error):
    comparison = compare_metric(m.DRAM_READ, {m.DRAM_READ: measured}, {m.DRAM_READ: predicted})
    assert comparison.rel_error == pytest.approx(error)


def test_selection_by_name(simulator):
    report = compare_files([make_file(make_record("a"), make_record("b"))], select=lambda r: r.name == "b")
    assert [c.name for c in report.cases] == ["b"]


# ---- reports --------------------------------------------------------------------------------

def test_reports_are_written(simulator, tmp_path):
    simulator["metrics"][m.GLOBAL_LD_SECTORS] = 7
    report = compare_files([make_file(make_record("a"), make_record("b"))])
    paths = write_reports(report, tmp_path)
    # MEASURED holds modeled metrics too: their error distribution is drawn as well
    assert [p.name for p in paths] == ["report.md", "report.json", "scatter.png", "errors.png"]
    for picture in ("scatter.png", "errors.png"):
        assert (tmp_path / picture).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "## Modeled metrics: error distribution" in markdown(report)
    assert json.loads((tmp_path / "report.json").read_text())["cases"][0]["status"] == "fail"
    text = markdown(report)
    assert "EXACT METRICS DIFFER" in text and "| a | h100/suite | fail |" in text


# ---- command line ---------------------------------------------------------------------------

def test_cli_run_passes_on_agreeing_recordings(simulator, tmp_path, capsys):
    rec.save(make_file(), tmp_path)
    assert cli.main(["run", "--data", str(tmp_path), "--jobs", "1", "--report", str(tmp_path / "r")]) == 0
    assert "all exact metrics equal the hardware" in capsys.readouterr().out
    assert (tmp_path / "r" / "report.md").exists()


def test_cli_run_exits_1_when_an_exact_metric_differs(simulator, tmp_path):
    rec.save(make_file(), tmp_path)
    simulator["metrics"][m.INST_SHARED_ST] = 1
    assert cli.main(["run", "--data", str(tmp_path), "--jobs", "1"]) == 1


def test_cli_filter_selects_cases(simulator, tmp_path, capsys):
    rec.save(make_file(make_record("alpha"), make_record("beta")), tmp_path)
    assert cli.main(["run", "--data", str(tmp_path), "--jobs", "1", "--filter", "al*"]) == 0
    assert "1 cases" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["run", "--data", "{tmp}"], "no recorded measurements"),
    (["run", "--record"], "need --measure"),
    (["fuzz", "--n", "3"], "add --measure"),
    (["import", "{tmp}"], "no measurement files"),
    (["run", "--measure", "--case-file", "{tmp}/missing.json"], "cannot read"),
    (["durations"], "add --measure"),
    (["durations", "--measure", "--launches", "0"], "at least 1"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message):
    assert cli.main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_cli_gpu_run_records_and_compares(simulator, tmp_path, monkeypatch):
    case_file = tmp_path / "mine.json"
    case_file.write_text(json.dumps([{"name": "add", "spec": make_record().spec.model_dump(mode="json")}]))

    def fake_measure(cases, workdir, options, progress):
        good = make_record()
        return VERSIONS, [Measurement(**good.model_dump(include=set(Measurement.model_fields)))]

    monkeypatch.setattr(cli, "measure", fake_measure)
    code = cli.main(["run", "--measure", "--record", "--case-file", str(case_file), "--out", str(tmp_path / "data"),
                     "--jobs", "1"])
    assert code == 0
    saved = rec.load(tmp_path / "data" / "h100" / "mine.json")
    assert saved.cases[0].name == "add" and saved.cases[0].metrics == MEASURED


# ---- repeated durations ---------------------------------------------------------------------

def make_durations(samples: dict[str, list[float]], case_set: str = "suite") -> rec.DurationFile:
    return rec.DurationFile(gpu="h100", case_set=case_set, versions=VERSIONS, launches=3, samples=samples)


def test_the_median_of_repeated_durations_becomes_the_reference(tmp_path):
    rec.save(make_file(make_record("a"), make_record("b")), tmp_path)
    rec.save_durations(make_durations({"a": [1500.0, 1400.0, 9000.0]}), tmp_path)
    cases = {c.name: c for f in rec.load_reference(tmp_path) for c in f.cases}
    assert cases["a"].metrics[m.DURATION] == 1500.0       # the median, not the single launch
    assert cases["b"].metrics[m.DURATION] == MEASURED[m.DURATION]
    assert cases["a"].metrics[m.DRAM_READ] == MEASURED[m.DRAM_READ]


def test_durations_recorded_in_parts_add_up(tmp_path):
    rec.save_durations(make_durations({"a": [1.0], "b": [2.0]}), tmp_path)
    rec.save_durations(make_durations({"b": [3.0], "c": [4.0]}), tmp_path)   # a later part
    saved = rec._durations_file(rec.durations_path(tmp_path, "h100", "suite")).samples
    assert saved == {"a": [1.0], "b": [3.0], "c": [4.0]}
    other = make_durations({"d": [5.0]}).model_copy(update={"launches": 5})   # another method: replaces
    rec.save_durations(other, tmp_path)
    assert rec._durations_file(rec.durations_path(tmp_path, "h100", "suite")).samples == {"d": [5.0]}


def test_durations_of_another_case_set_do_not_apply(tmp_path):
    rec.save(make_file(make_record("a")), tmp_path)
    rec.save_durations(make_durations({"a": [1.0]}, case_set="fuzz"), tmp_path)
    [file] = rec.load_reference(tmp_path)
    assert file.cases[0].metrics[m.DURATION] == MEASURED[m.DURATION]


def test_import_files_durations_next_to_measurements(tmp_path):
    fetched = tmp_path / "fetched" / "h100"
    fetched.mkdir(parents=True)
    (fetched / "suite.json").write_text(make_file().model_dump_json())
    (fetched / "suite-durations.json").write_text(make_durations({"add": [5.0, 7.0]}).model_dump_json())
    paths = rec.import_files([tmp_path / "fetched"], tmp_path / "data")
    assert sorted(p.name for p in paths) == ["suite-durations.json", "suite.json"]
    assert rec.load_durations(tmp_path / "data") == {("h100", "suite", "add"): [5.0, 7.0]}


def test_a_broken_durations_file_is_a_one_line_error(tmp_path):
    (tmp_path / "h100").mkdir()
    (tmp_path / "h100" / "suite-durations.json").write_text("{")
    with pytest.raises(rec.RecordError, match="not a durations file"):
        rec.load_durations(tmp_path)


def test_cli_durations_records_every_launch(tmp_path, monkeypatch):
    from gpu.measure import Measurement as M

    def fake_measure(cases, workdir, options, progress):
        assert options.launches == 5 and options.metrics == [m.DURATION] and not options.timing
        return VERSIONS, [M(name=c.name, metrics={m.DURATION: 10.0}, duration_samples=[10.0, 11.0, 12.0, 13.0, 14.0])
                          for c in cases]

    monkeypatch.setattr(cli, "measure", fake_measure)
    code = cli.main(["durations", "--measure", "--cases", "suite", "--filter", "ld_float_s1_o0", "--launches", "5",
                     "--out", str(tmp_path)])
    assert code == 0
    assert rec.load_durations(tmp_path) == {("h100", "suite", "ld_float_s1_o0"): [10.0, 11.0, 12.0, 13.0, 14.0]}


def test_time_ranking_is_reported(simulator):
    from validate.accuracy import time_ranking

    records = [make_record(n, MEASURED | {m.DURATION: d}) for n, d in (("a", 100.0), ("b", 200.0), ("c", 300.0))]
    simulator["metrics"][m.DURATION] = 150.0      # every case predicted alike: no rank order
    ranking = time_ranking(compare_files([make_file(*records)]))
    assert ranking.suite_cases == 3 and ranking.spearman_suite is None and ranking.met is None
    assert "Spearman n/a over 3 suite cases" in markdown(compare_files([make_file(*records)]))


def test_spearman_follows_the_rank_order():
    from validate.accuracy import spearman

    assert spearman(np.array([1.0, 2, 3, 4]), np.array([10.0, 20, 30, 40])) == pytest.approx(1.0)
    assert spearman(np.array([1.0, 2, 3, 4]), np.array([40.0, 30, 20, 10])) == pytest.approx(-1.0)
    assert spearman(np.array([1.0, 1, 2]), np.array([5.0, 6, 7])) == pytest.approx(0.866, abs=1e-3)


def test_cli_list_shows_recorded_cases(tmp_path, capsys):
    rec.save(make_file(make_record("zeta_case")), tmp_path)
    assert cli.main(["list", "--data", str(tmp_path), "--filter", "zeta*"]) == 0
    out = capsys.readouterr().out
    assert "zeta_case" in out and "h100: ok" in out


# ---- the check of memsim against the recorded hardware --------------------------------------

RECORDED = rec.load_all()


# One item per case set of `validate run --cases all` (a GPU's recordings of a set stay together, so
# a launch recorded on the H100 and the H200 is still simulated once): xdist's workers share the
# sets instead of one worker running every case while the other idles. The corpus and the fuzz
# sets take minutes alone, so they run in parts, `--filter` globs on the case name's last
# character that together take every case once (test_the_parts_cover_every_case_once), so
# that worksteal can balance the two workers. --jobs 1: each item runs inside a busy xdist
# worker already.
ALL_SETS = ["suite", "fuzz", "fuzz2", "corpus", "numba", "sm90"]
EVERY_OTHER = "02468acegikmoqsuwy"     # last characters of one half; the other half has the rest
HALVES = [f"*[{EVERY_OTHER}]", f"*[!{EVERY_OTHER}]"]
# the corpus' three slow WMMA GEMMs (*_gemm: 25-53 s each on a loaded 2-core machine, 130 s of
# the first half's 285) get a part of their own
CORPUS_PARTS = ["*[02468acegikoqsuwy]", "*m", "*[!02468acegikoqsuwym]"]
PARTS = {"corpus": CORPUS_PARTS, "fuzz": HALVES, "fuzz2": HALVES}
ITEMS = [pytest.param(case_set, part, id=case_set if part == "*" else f"{case_set}-{i}")
         for case_set in ALL_SETS for i, part in enumerate(PARTS.get(case_set, ["*"]))]


def _compared(case_sets, pattern: str = "*") -> list:
    """The recorded launches `validate run --skip-tag seed --filter PATTERN` compares for these sets."""
    return [(f.gpu, c.name) for f in rec.load_reference(rec.DATA_DIR, case_sets) for c in f.cases
            if c.measured and "seed" not in c.tags and fnmatch.fnmatchcase(c.name, pattern)]


def test_the_recorded_hardware_sets_are_all_checked():
    """The sets below together are `validate run`'s `all`; at least 592 of at least 602 compared
    launches must pass (every other one a listed known difference)."""
    assert sorted(s for name in ALL_SETS for s in cli.SETS[name]) == sorted(cli.SETS["all"])
    compared = _compared(cli.SETS["all"])
    known = {(gpu, name) for gpu in {g for g, _ in compared} for name in load_known_differences(gpu, "sass")}
    assert len(compared) >= 602 and len(compared) - len(known & set(compared)) >= 592


@pytest.mark.parametrize("case_set", sorted(PARTS))
def test_the_parts_cover_every_case_once(case_set):
    """A set run in parts compares each of its recorded launches in exactly one part."""
    parts = [_compared(cli.SETS[case_set], pattern) for pattern in PARTS[case_set]]
    assert sorted(case for part in parts for case in part) == sorted(_compared(cli.SETS[case_set]))
    assert all(part for part in parts)


@pytest.mark.skipif(not RECORDED, reason="no hardware measurements recorded under validate/data yet")
@pytest.mark.parametrize("case_set, part", ITEMS)
def test_memsim_equals_the_recorded_hardware(tmp_path, case_set, part, launch_cache, monkeypatch):
    """THE check against hardware: every exact counter of every recorded case (suite, both fuzz
    sets, the corpus of kernels as people write them, numba, the sm_90 probes), as CI runs it, on
    the default (SASS) engine; the cases of known_differences_sass.json (hardware races) are
    reported as known differences (and fail once they match). The 25 large seed launches are left
    out here: tests/validate/test_golden_h100.py holds the same launches against the reference
    measurement. Each launch is compiled and emulated once in a test run (launch_cache): the
    tests that hold a recorded launch to a rule of their own read the same result."""
    if case_set != "suite":
        # the pictures (about 10 s of matplotlib an item, whatever its size) only in the suite's
        # item; test_reports_are_written holds what they draw
        monkeypatch.setattr("validate.report.has_matplotlib", lambda: False)
    code = cli.main(["run", "--cases", case_set, "--filter", part, "--jobs", "1", "--skip-tag", "seed",
                     "--report", str(tmp_path)])
    report = ComparisonReport.model_validate_json((tmp_path / "report.json").read_text())
    failures = "\n".join(f"{c.gpu}/{c.case_set} {c.name}: {c.status.value}: {c.detail}" for c in report.failures)
    assert code == 0, f"{len(report.failures)} of {len(report.cases)} cases differ from the H100:\n{failures}"
    assert len(report.cases) == len(_compared(cli.SETS[case_set], part)) > 0
    assert report.count(Status.PASS) + report.count(Status.KNOWN) == len(report.cases)


@pytest.mark.parametrize("case_set", cli.SETS["classic"])
def test_ptx_engine_differs_from_the_hardware_only_where_listed(tmp_path, case_set, launch_cache, monkeypatch):
    """The PTX engine (PTX input, other architectures) equals the H100 on the suite and the first
    fuzz set (`--cases classic`, one item per set so that xdist's workers share them) except for
    the cases known_differences.json lists with their measured reason."""
    # mixed-spaces: generic accesses whose lanes split between global and shared memory in one
    # instruction, which the PTX engine refuses in one line (the SASS engine runs them)
    monkeypatch.setattr("validate.report.has_matplotlib", lambda: False)   # as above
    code = cli.main(["run", "--engine", "ptx", "--cases", case_set, "--jobs", "1", "--skip-tag", "seed",
                     "--skip-tag", "mixed-spaces", "--report", str(tmp_path)])
    report = ComparisonReport.model_validate_json((tmp_path / "report.json").read_text())
    assert code == 0, "\n".join(f"{c.name}: {c.status.value}: {c.detail}" for c in report.failures)


def test_run_names_suite_cases_missing_from_the_recording(simulator, tmp_path, capsys, monkeypatch):
    rec.save(make_file(make_record("old_case")), tmp_path)
    current = [("suite", make_record("old_case")), ("suite", make_record("new_case"))]
    monkeypatch.setattr(cli, "select_cases", lambda *args: current)
    assert cli.main(["run", "--data", str(tmp_path), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 suite cases are new or changed" in out and "new_case" in out


def test_known_differences_are_listed_with_a_reason_and_exact_metrics():
    from validate.compare import load_known_differences
    known = load_known_differences("h100", "ptx")
    assert known, "the H100 known-differences list is present"
    for name, entry in known.items():
        assert entry.reason and entry.reason != "unexplained", name
        assert entry.metrics and set(entry.metrics) <= set(m.EXACT), name


def test_a_known_difference_that_starts_matching_fails_as_fixed():
    from validate.compare import KnownDifference, Prediction, Status, compare_case
    record = make_record("case_a")
    prediction = Prediction(input_digest=record.input_digest, metrics=dict(record.metrics))
    known = KnownDifference(reason="ptxas", metrics=[m.GLOBAL_LD_SECTORS])
    assert compare_case(record, "h100", "suite", prediction, known).status == Status.FIXED
    prediction.metrics[m.GLOBAL_LD_SECTORS] += 1
    assert compare_case(record, "h100", "suite", prediction, known).status == Status.KNOWN
    prediction.metrics[m.GLOBAL_LD_REQUESTS] += 1   # a difference the list does not explain
    assert compare_case(record, "h100", "suite", prediction, known).status == Status.FAIL


@pytest.mark.parametrize("model, kept", [(None, ["h100", "h200"]), ("H100", ["h100"]), ("h200", ["h200"]),
                                         ("H100 SXM", ["h100"])])
def test_a_model_is_compared_with_its_own_gpus_recordings(model, kept):
    from validate.cli import recordings_of
    files = [make_file(), make_file().model_copy(update={"gpu": "h200"})]
    assert [f.gpu for f in recordings_of(files, model, Path("data"))] == kept


def test_a_model_without_recordings_of_its_gpu_is_one_clear_error():
    from validate.cli import recordings_of
    with pytest.raises(rec.RecordError, match="no recordings of the A100"):
        recordings_of([make_file()], "A100", Path("data"))
