"""The hardware side: ncu CSV parsing, row matching, batch restarts (no GPU needed), and on a GPU
the launcher, the event timer and a whole measurement against the reference counters."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

from gpu import measure as gm
from gpu import ncu
from gpu.driver import CONTEXT_LOST, CatalogRef, DriverCase, DriverResult, reference_mismatch
from gpu.errors import GPUUnavailable, ProfilerError
from gpu.timing import EventTiming
from gpu.versions import gpu_slug
from memsim import catalog
from memsim import metrics as m
from memsim.launch import LaunchSpec

from tests.helpers.seed_cases import reference, seed_cases

# The shape of `ncu --csv --page raw --print-units base` output as ncu 2025.3 writes it to its log
# file: progress lines first, the header, a units row, then one quoted row per kernel with
# thousands separators inside the quotes.
NCU_CSV = '''==PROF== Connected to process 568 (/usr/bin/python3.12)
==PROF== Disconnected from process 568
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","device__attribute_display_name","dram__bytes_read.sum","dram__bytes_read.avg","gpu__time_duration.sum","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","smsp__sass_data_bytes_mem_shared_op_st.sum","lts__t_sectors_srcunit_tex_op_read.sum","launch__registers_per_thread"
"","","","","","","","","","","","","byte","byte","ns","","byte","","register/thread"
"0","568","python3.12","127.0.0.1","k_copyRow","1","7","(32, 32, 1)","(128, 128, 1)","0","9.0","NVIDIA H100 80GB HBM3","67,115,264","1,677,881.60","76,256","524,288","0","2,097,152","16"
"1","568","python3.12","127.0.0.1","k_transposeSmem","1","7","(32, 16, 1)","(32, 128, 1)","0","9.0","NVIDIA H100 80GB HBM3","8,390,656","209,766.40","14,304","65,536","8,388,608","n/a","18"
'''


def test_parse_csv_reads_every_kernel_row_in_order():
    rows = ncu.parse_csv(NCU_CSV)
    assert [r.kernel for r in rows] == ["k_copyRow", "k_transposeSmem"]
    assert rows[0].grid == (128, 128, 1) and rows[0].block == (32, 32, 1)
    assert rows[0].metrics["dram__bytes_read.sum"] == 67115264
    assert rows[0].metrics[m.GLOBAL_LD_REQUESTS] == 524288
    assert rows[1].metrics[m.BYTES_SHARED_ST] == 8388608
    assert rows[1].metrics["gpu__time_duration.sum"] == 14304


def test_parse_csv_drops_id_columns_and_non_numbers():
    row = ncu.parse_csv(NCU_CSV)[1]
    assert "Process ID" not in row.metrics and "CC" not in row.metrics
    assert "device__attribute_display_name" not in row.metrics
    assert "lts__t_sectors_srcunit_tex_op_read.sum" not in row.metrics  # n/a
    assert row.metrics["dram__bytes_read.avg"] == pytest.approx(209766.4)


def test_recorded_keeps_sums_and_launch_figures_only():
    kept = ncu.recorded(ncu.parse_csv(NCU_CSV)[0].metrics)
    assert kept["launch__registers_per_thread"] == 16 and kept["dram__bytes_read.sum"] == 67115264
    assert "dram__bytes_read.avg" not in kept


@pytest.mark.parametrize("text", ["", "==PROF== Connected to process 1\n==ERROR== something\n"])
def test_parse_csv_without_a_table_gives_no_rows(text):
    assert ncu.parse_csv(text) == []


def test_parse_csv_rejects_a_ragged_row():
    broken = NCU_CSV.replace(',"n/a"', "")
    with pytest.raises(ProfilerError):
        ncu.parse_csv(broken)


@pytest.mark.parametrize("text, value", [("67,115,264", 67115264.0), (" 9.5 ", 9.5), ("0", 0.0),
                                         ("n/a", None), ("", None)])
def test_parse_number(text, value):
    assert ncu.parse_number(text) == value


def test_metric_list_covers_exact_and_modeled_sums_once():
    assert set(m.EXACT + m.MODELED + m.ATOMICS + ncu.EXTRA_METRICS + m.TMA + m.GMMA) == set(ncu.METRICS)
    assert len(ncu.METRICS) == len(set(ncu.METRICS))
    assert all(name.endswith(".sum") for name in ncu.METRICS)


def test_command_profiles_k_kernels_into_the_log_file():
    cmd = ncu.command("ncu", "/tmp/log.csv", ["python", "-m", "gpu.driver"])
    assert cmd[cmd.index("-k") + 1] == "regex:^k_"
    assert cmd[cmd.index("--log-file") + 1] == "/tmp/log.csv"
    assert cmd[cmd.index("--metrics") + 1].split(",") == ncu.METRICS
    assert cmd[-3:] == ["python", "-m", "gpu.driver"]
    assert "--clock-control" not in cmd and "--cache-control" not in cmd  # ncu's defaults, as the reference


@pytest.mark.parametrize("kernels, profiled, skipped", [
    ([], ["k_copy", "k_reduce<256>"], ["adamw_kernel1", "cupy_copy"]),
    (["k_copy", "adamw_kernel1", "softmax<256>"], ["k_copy", "adamw_kernel1", "softmax<128>"],
     ["adamw_kernel10", "cupy_copy", "softmax_forward"]),
    (["caffe::Tile<float>", "DeviceRadixSort::Upsweep", "viennacl::linalg::cuda::trans_kernel<float>"],
     ["Tile<float>", "caffe::Tile<float>", "Upsweep", "DeviceRadixSort::Upsweep", "trans_kernel<float>",
      "viennacl::linalg::cuda::trans_kernel<float>"], ["TileBackward<float>", "caffe::TileBackward", "Upsweeps", "cupy_copy"]),
])
def test_kernel_filter_takes_the_cases_kernels_by_name(kernels, profiled, skipped):
    """A user's kernel not named k_... is profiled too; CuPy's own kernels and longer names are
    not (ncu matches the filter against the function name without parameters)."""
    pattern = re.compile(ncu.kernel_filter(kernels).removeprefix("regex:"))
    assert all(pattern.search(name) for name in profiled)
    assert not any(pattern.search(name) for name in skipped)


def test_permission_error_is_one_sentence():
    with pytest.raises(GPUUnavailable, match="ERR_NVGPUCTRPERM"):
        ncu.check_output("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters")


@pytest.mark.parametrize("name, slug", [("NVIDIA H100 80GB HBM3", "h100"), ("NVIDIA H200", "h200"),
                                        ("NVIDIA A100-SXM4-80GB", "nvidia-a100-sxm4-80gb"),
                                        ("NVIDIA GeForce RTX 4090", "4090"), ("Tesla V100", "v100")])
def test_gpu_slug(name, slug):
    assert gpu_slug(name) == slug


def _case(name: str, kernel: str = "k_add1", grid=(128,), block=(32,)) -> DriverCase:
    spec = LaunchSpec(source="", kernel=kernel, grid=grid, block=block, args=["float32[4]"])
    return DriverCase(name=name, spec=spec)


def _row(kernel: str = "k_add1", grid=(128, 1, 1), block=(32, 1, 1), value: float = 1.0) -> ncu.NcuRow:
    return ncu.NcuRow(kernel=kernel, grid=grid, block=block, metrics={"x.sum": value})


def test_match_rows_follows_launch_order():
    cases = [_case("a"), _case("b", "k_add2")]
    results = [DriverResult(name="a", launched=True), DriverResult(name="b", launched=True)]
    rows = [_row(value=1), _row("k_add2", value=2)]
    assert [[r.metrics["x.sum"] for r in m] for m in gm.match_rows(cases, results, rows)] == [[1], [2]]


def test_match_rows_takes_every_launch_of_a_repeated_case():
    cases = [_case("a"), _case("b", "k_add2")]
    results = [DriverResult(name="a", launched=True), DriverResult(name="b", launched=True)]
    rows = [_row(value=1), _row(value=2), _row(value=3), _row("k_add2", value=4), _row("k_add2", value=5),
            _row("k_add2", value=6)]
    matched = gm.match_rows(cases, results, rows, launches=3)
    assert [[r.metrics["x.sum"] for r in m] for m in matched] == [[1, 2, 3], [4, 5, 6]]


def test_match_rows_of_a_repeated_case_stop_at_the_next_kernel():
    cases = [_case("a"), _case("b", "k_add2")]
    results = [DriverResult(name="a", launched=True), DriverResult(name="b", launched=True)]
    rows = [_row(value=1), _row("k_add2", value=4), _row("k_add2", value=5)]
    matched = gm.match_rows(cases, results, rows, launches=2)
    assert [[r.metrics["x.sum"] for r in m] for m in matched] == [[1], [4, 5]]


def test_match_rows_skips_cases_that_never_launched():
    cases = [_case("a"), _case("bad", "k_add2"), _case("c", "k_add3")]
    results = [DriverResult(name="a", launched=True), DriverResult(name="bad", error="compile failed"),
               DriverResult(name="c", launched=True)]
    matched = gm.match_rows(cases, results, [_row(value=1), _row("k_add3", value=3)])
    assert matched[1] == [] and matched[2][0].metrics["x.sum"] == 3


def test_match_rows_drops_the_row_of_a_faulting_launch():
    cases = [_case("fault"), _case("next", "k_add2")]
    results = [DriverResult(name="fault", error="illegal address"), DriverResult(name="next", launched=True)]
    matched = gm.match_rows(cases, results, [_row(value=9), _row("k_add2", value=2)])
    assert matched[0] == [] and matched[1][0].metrics["x.sum"] == 2


def test_match_rows_refuses_a_row_of_other_geometry():
    results = [DriverResult(name="a", launched=True)]
    assert gm.match_rows([_case("a")], results, [_row(grid=(64, 1, 1))]) == [[]]


def test_a_missing_row_does_not_shift_later_cases():
    cases = [_case("a"), _case("b", "k_add2")]
    results = [DriverResult(name="a", launched=True), DriverResult(name="b", launched=True)]
    matched = gm.match_rows(cases, results, [_row("k_add2", value=2)])
    assert matched[0] == [] and matched[1][0].metrics["x.sum"] == 2


def test_reference_mismatch_names_the_wrong_output():
    entry = catalog.get("add_aligned")
    inputs = entry.launch().materialize()
    expected = entry.reference(inputs)
    good = [expected.get(i, v) for i, v in enumerate(inputs)]
    ref = CatalogRef(name="add_aligned")
    assert reference_mismatch(ref, inputs, good) == ""
    index = next(iter(expected))
    bad = [v.copy() for v in good]
    bad[index][1] += 1
    assert f"argument {index}" in reference_mismatch(ref, inputs, bad)


def test_reference_of_an_unknown_kernel_is_reported_not_raised():
    assert "failed" in reference_mismatch(CatalogRef(name="no_such_kernel"), [], [])


def test_event_timing_summary():
    timing = EventTiming.from_samples([3.0, 1.0, 2.0], warmups=3, l2_flushed=True)
    assert (timing.median_ms, timing.min_ms, timing.max_ms, timing.reps) == (2.0, 1.0, 3.0, 3)
    assert timing.stdev_ms == pytest.approx(1.0) and timing.l2_flushed


def test_read_results_ignores_a_line_cut_by_a_kill(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(DriverResult(name="a", launched=True).model_dump_json() + '\n{"name": "b", "lau')
    assert [r.name for r in gm._read_results(path)] == ["a"]


def _fake_driver(behaviour: dict[str, str]):
    """A stand-in for `_watch`: 'fault' cases end the process like a poisoned context, 'crash'
    cases kill it without a result, 'hang' cases stop it as hung."""
    def watch(command, results_file):
        cases = json.loads(open(command[command.index("--cases") + 1]).read())
        with open(results_file, "w") as out:
            for case in cases:
                what = behaviour.get(case["name"], "ok")
                if what == "crash":
                    return -11, "Segmentation fault"
                if what == "hang":
                    return None, ""
                result = DriverResult(name=case["name"], launched=what == "ok",
                                      error="" if what == "ok" else "illegal address")
                out.write(result.model_dump_json() + "\n")
                if what == "fault":
                    return CONTEXT_LOST, ""
        return 0, ""
    return watch


def test_batches_go_on_after_faults_crashes_and_hangs(tmp_path, monkeypatch):
    behaviour = {"b": "fault", "c": "crash", "e": "hang"}
    monkeypatch.setattr(gm, "_watch", _fake_driver(behaviour))
    cases = [_case(n) for n in "abcdef"]
    results = list(gm._run_pass(cases, "time", tmp_path, gm.MeasureOptions(), None, lambda line: None))
    assert [r.name for r in results] == list("abcdef")
    assert [bool(r.error) for r in results] == [False, True, True, False, True, False]
    assert "exit -11" in results[2].error and "hung" in results[4].error


def test_setup_failure_raises_instead_of_failing_every_case(tmp_path, monkeypatch):
    monkeypatch.setattr(gm, "_watch", lambda command, results: (2, "error: no usable CUDA GPU: no driver"))
    with pytest.raises(GPUUnavailable, match="no usable CUDA GPU"):
        list(gm._run_pass([_case("a")], "time", tmp_path, gm.MeasureOptions(), None, lambda line: None))


def test_watch_kills_a_driver_that_stops_producing_results(tmp_path, monkeypatch):
    monkeypatch.setattr(gm, "STALL_SECONDS", 1.0)
    code, _ = gm._watch([sys.executable, "-c", "import time; time.sleep(60)"], tmp_path / "r.jsonl")
    assert code is None


def _has_cupy_gpu() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


HAS_GPU = _has_cupy_gpu()
needs_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs CuPy and a CUDA GPU")


@pytest.mark.skipif(HAS_GPU, reason="checks the message given where there is no GPU")
def test_without_a_gpu_the_driver_says_so_in_one_line(tmp_path):
    (tmp_path / "cases.json").write_text("[]")
    done = subprocess.run([sys.executable, "-m", "gpu.driver", "--cases", str(tmp_path / "cases.json"),
                           "--results", str(tmp_path / "r.jsonl")], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")


SEEDS = {c["name"]: c for c in seed_cases()}
REFERENCE = {r["case"]: r for r in reference()}


@pytest.mark.gpu
@needs_gpu
def test_run_spec_adds_vectors():
    from gpu.launch import run_spec
    spec = LaunchSpec.model_validate(SEEDS["s002_add1"]["spec"])
    x, y, z = run_spec(spec)
    inputs = spec.materialize()
    assert np.array_equal(x, inputs[0]) and np.allclose(z[:4096], inputs[0][:4096] + inputs[1][:4096])


@pytest.mark.gpu
@needs_gpu
def test_event_timing_on_the_gpu():
    from gpu.launch import DeviceLaunch
    from gpu.timing import time_launch
    device = DeviceLaunch(LaunchSpec.model_validate(SEEDS["s002_addVec"]["spec"]))
    timing = time_launch(device.launch, reps=30, flush_l2=True)
    assert timing.reps == 30 and timing.l2_flushed
    assert 0 < timing.min_ms <= timing.median_ms <= timing.max_ms < 100


FAULT = 'extern "C" __global__ void k_fault(float* p) { p[threadIdx.x + (1ll << 40)] = 1.0f; }'


@pytest.mark.gpu
@needs_gpu
def test_measure_matches_the_reference_and_survives_a_fault(tmp_path):
    names = ["s002_add1", "s000_transposeSmemPad"]
    fault = DriverCase(name="fault", spec=LaunchSpec(source=FAULT, kernel="k_fault", grid=1, block=32,
                                                     args=["float32[32]"]))
    cases = [DriverCase(name=n, spec=SEEDS[n]["spec"]) for n in names[:1]] + [fault] + \
            [DriverCase(name=n, spec=SEEDS[n]["spec"]) for n in names[1:]]
    versions, measured = gm.measure(cases, tmp_path)
    assert versions.nvrtc and versions.ncu and versions.gpu
    by_name = {r.name: r for r in measured}
    assert by_name["fault"].error
    for name in names:
        record = by_name[name]
        assert not record.error and record.timing is not None
        for metric in m.EXACT:
            assert record.metrics[metric] == REFERENCE[name]["metrics"][metric], (name, metric)


def test_atomic_and_local_metrics_are_collected():
    """Collected so that a recording can check memsim's atomics (UNCHECKED until then)."""
    for name in ["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                 "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
                 "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
                 "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
                 "smsp__sass_inst_executed_op_global_atom.sum", "smsp__sass_inst_executed_op_global_red.sum",
                 "sm__sass_inst_executed_op_shared_atom.sum", "smsp__sass_inst_executed_op_local_ld.sum",
                 "smsp__sass_inst_executed_op_local_st.sum", "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
                 "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", "smsp__inst_executed.sum"]:
        assert name in ncu.METRICS, name
    assert all(m.provenance(name) == m.Provenance.UNCHECKED for name in m.ATOMICS)
