"""GPU profiles: loading by name, validation of sources, calibration results applied to a profile,
and (on a GPU) the calibration microbenchmarks themselves."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pydantic import ValidationError

from gpu.calibrate import CalibrationResult
from gpu.versions import Versions
from memsim import gpus
from memsim.model.cache import CacheTuning
from memsim.gpus import ProfileError
from memsim.gpus.profile import SOURCE_KINDS
from memsim.model.timing import TimeModelConstants
from validate import calibrate as cal
from validate import microbench_rules

REQUIRED = ["H100", "A100", "GTX1050Ti", "GTX1060"]


@pytest.mark.parametrize("name", gpus.names())
def test_every_shipped_profile_is_valid_and_sourced(name):
    profile = gpus.load(name)
    assert profile.name == name
    for path in profile.number_paths():
        assert profile.source_of(path).split(":")[0] in ("datasheet", "measured", "derived", "fitted",
                                                         "literature"), path
    assert profile.source_of("fitted").startswith("fitted:")   # and it names the fit set
    assert profile.occupancy.max_warps_per_sm * profile.warp_size == profile.occupancy.max_threads_per_sm
    assert profile.clocks.sm_base_mhz <= profile.clocks.sm_boost_mhz


def test_fitted_constants_come_from_the_profile():
    """TimeModelConstants and CacheTuning hold no values of their own: the profile's do."""
    h100 = gpus.load("H100")
    assert TimeModelConstants.for_gpu(h100).model_dump() == h100.fitted.time_model
    assert CacheTuning.for_gpu("H100").l2_ways == h100.fitted.cache_tuning["l2_ways"]
    with pytest.raises(ValidationError):
        TimeModelConstants()


def test_the_seed_gpus_have_profiles():
    assert set(REQUIRED) <= set(gpus.names())


@pytest.mark.parametrize("asked, expected", [
    ("H100", "H100"), ("h100", "H100"), ("NVIDIA H100 80GB HBM3", "H100"), ("gtx 1050 ti", "GTX1050Ti"),
    ("GeForce GTX 1060 6GB", "GTX1060"), ("a100-sxm4-40gb", "A100"), ("A100", "A100"),
])
def test_load_is_case_insensitive_and_knows_aliases(asked, expected):
    assert gpus.load(asked).name == expected


def test_unknown_gpu_lists_the_known_ones():
    with pytest.raises(ProfileError) as info:
        gpus.load("V100")
    message = str(info.value)
    assert "V100" in message and all(name in message for name in REQUIRED)
    assert "\n" not in message


def _raw(name: str) -> dict:
    return json.loads((gpus.PROFILE_DIR / f"{name.lower()}.json").read_text())


@pytest.mark.parametrize("breakage, complaint", [
    (lambda raw: raw["source"].pop("dram"), "no source for dram."),
    (lambda raw: raw["source"].update(latency="guessed"), "must start with"),
    (lambda raw: raw["dram"].update(bandwidth_gbs=-1), "dram.bandwidth_gbs"),
    (lambda raw: raw.pop("l2"), "l2"),
    (lambda raw: raw["l2"].update(atomic_unit_bytes=384), "atomic_unit_bytes must be one of"),
    (lambda raw: raw["l2"].update(request_coalescer=True), "l2.request_coalescer needs gpcs"),
    (lambda raw: raw["source"].pop("latency.l2_atomic_float_ns") and raw["source"].pop("latency"),
     "no source for latency."),
])
def test_a_broken_profile_is_one_clear_error(tmp_path, breakage, complaint):
    raw = _raw("A100")
    breakage(raw)
    path = tmp_path / "a100.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(ProfileError, match=complaint.replace(".", r"\.")):
        gpus.load_file(path)


def test_the_h100_numbers_come_from_calibration():
    profile = gpus.load("H100")
    assert all(profile.measured(path) for path, _, _ in cal.RULES)
    assert profile.calibration.versions["gpu"].startswith("NVIDIA H100") and profile.calibration.versions["driver"]


INSTRUCTION_GROUPS = ("pipes", "instruction_latency", "sm_costs")


@pytest.mark.parametrize("name", ["H100", "H200"])
@pytest.mark.parametrize("group", INSTRUCTION_GROUPS)
def test_every_instruction_level_field_has_its_own_source(name, group):
    """The warp-level timing model's numbers: each field its own source (no group-wide guess),
    and every rule of validate/microbench_rules.py writes a field that exists."""
    profile = gpus.load(name)
    fields = type(getattr(profile, group)).model_fields
    assert fields
    for field in fields:
        text = profile.source.get(f"{group}.{field}")
        assert text and text.startswith(SOURCE_KINDS), f"{group}.{field}"
    assert {p.split(".")[1] for p, _, _ in microbench_rules.RULES if p.startswith(group + ".")} == set(fields)


def _instruction_values() -> dict[str, float]:
    from gpu import microbench
    values = {f"lat.{c.name}.cycles": 10.0 + i for i, c in enumerate(microbench.LATENCY)}
    values["lat.s2r.cycles"] = 21.0
    values.update({f"tp.{s.name}.plateau": 4.0 / (i + 1) for i, s in enumerate(microbench.THROUGHPUT)})
    values.update({"sm.launch_t32.cycles_per_block": 90.0, "sm.launch_t1024.cycles_per_block": 300.0,
                   "sm.resident_blocks": 32.0, "sm.turnaround_t32.cycles": 700.0,
                   "sm.turnaround_t1024.cycles": 900.0})
    return values


def test_apply_records_every_instruction_field_measured_with_its_arithmetic():
    from gpu import microbench
    values = {**FAKE_VALUES, **_instruction_values()}
    after = cal.apply(gpus.load("H100"), _fake_result(values))
    for path, _, _ in microbench_rules.RULES:
        assert after.measured(path) and "NVIDIA H100" in after.source_of(path), path
    streams = [s.name for s in microbench.THROUGHPUT]
    assert after.pipes.ffma == pytest.approx(streams.index("ffma") + 1)        # 4 / plateau
    assert after.pipes.conversion == pytest.approx(streams.index("f2i_i2f") + 1)
    assert after.instruction_latency.mufu_rcp == values["lat.mufu_rcp.cycles"] - values["lat.fadd.cycles"]
    assert after.instruction_latency.bar_32_warps == values["lat.bar_w32.cycles"]
    assert after.sm_costs.resident_blocks == 32.0


def test_a_failed_or_nonsense_microbenchmark_keeps_the_old_number():
    values = {**FAKE_VALUES, **_instruction_values(), "lat.s2r.cycles": -3.0}
    del values["tp.hmma.plateau"]
    before = gpus.load("H100")
    after = cal.apply(before, _fake_result(values))
    for group, field in (("instruction_latency", "s2r"), ("pipes", "hmma")):
        path = f"{group}.{field}"
        assert after.source_of(path) == before.source_of(path)
        assert getattr(getattr(after, group), field) == getattr(getattr(before, group), field)
    assert after.pipes.ffma != before.pipes.ffma and "measured:" in after.source_of("pipes.ffma")


def test_a_profile_without_the_instruction_groups_takes_a_result_with_them():
    after = cal.apply(gpus.load("A100"), _fake_result({**FAKE_VALUES, **_instruction_values()}))
    assert after.pipes is None and after.instruction_latency is None and after.sm_costs is None


def test_a_group_source_covers_its_fields_and_a_field_source_overrides_it():
    profile = gpus.load("H100")
    assert profile.source_of("dram.fetch_bytes").startswith("measured:")
    assert profile.source_of("dram.size_bytes") == profile.source["dram"]


# A calibration result with every number the rules read (values of the right order for an H100).
FAKE_VALUES = {
    "clock.sm_mhz": 1755.0, "ncu.copy.sm__cycles_elapsed.avg.per_second": 1.59e9,
    "ncu.copy.dram__cycles_elapsed.avg.per_second": 2.619e9, "copy.gbs": 2900.0, "read.gbs": 3050.0,
    "l2_read.gbs": 7100.0, "l1_read.bytes_per_clk_per_sm": 120.0,
    "shared_free.wavefronts_per_clk_per_sm": 0.97, "shared_conflict32.wavefronts_per_clk_per_sm": 0.99,
    "latency.l1_cycles": 34.0, "latency.l2_cycles": 270.0, "ncu.chase_dram_ns": 610.0,
    "latency.shared_cycles": 30.0, "launch.event_single_us": 4.8, "launch.back_to_back_us": 2.1,
    "launch.event_args_us": 6.8, "atomic_unit.ns_per_packet": 0.6, "atomic_float_one.ns_per_add": 1.8,
    "ncu.empty_1.gpu__time_duration.sum": 2250.0,
}


def _fake_result(values=FAKE_VALUES) -> CalibrationResult:
    return CalibrationResult(versions=Versions(gpu="NVIDIA H100 80GB HBM3", driver="580", date="2026-11-22T10:00:00"),
                             values=values)


def test_apply_marks_every_rule_measured_and_keeps_datasheet_numbers():
    before = gpus.load("A100")  # any profile: apply does not look at the name
    after = cal.apply(before, _fake_result())
    for path, _, _ in cal.RULES:
        assert after.measured(path), path
    assert after.latency.dram_ns == 610.0 and after.clocks.sm_boost_mhz == 1755.0
    assert after.launch.event_per_argument_us == pytest.approx(0.5)
    assert after.throughput.shared_bytes_per_clk_per_sm == pytest.approx(0.97 * 128)
    assert after.dram.bandwidth_gbs == before.dram.bandwidth_gbs
    assert after.calibration.raw["copy.gbs"] == 2900.0 and after.calibration.versions["driver"] == "580"
    assert after.throughput.l2_atomic_packet_cycles == pytest.approx(0.6 * 1.755)
    assert after.latency.l2_atomic_float_ns == 1.8   # in ns: it does not follow the SM clock


def test_apply_without_the_ncu_pass_keeps_the_old_numbers_there():
    event_only = {k: v for k, v in FAKE_VALUES.items() if not k.startswith("ncu.")}
    before = gpus.load("A100")
    after = cal.apply(before, _fake_result(event_only))
    assert after.launch.kernel_floor_ns == before.launch.kernel_floor_ns
    assert after.source_of("launch.kernel_floor_ns") == before.source_of("launch.kernel_floor_ns")
    assert after.measured("launch.event_single_us")


def test_calibrate_from_a_file_prints_the_table_without_recording(tmp_path):
    path = tmp_path / "calibration.json"
    path.write_text(_fake_result().model_dump_json())
    before = (gpus.PROFILE_DIR / "h100.json").read_text()
    done = _validate("calibrate", "--from", str(path))
    assert done.returncode == 0, done.stderr
    assert "latency.dram_ns" in done.stdout and "610" in done.stdout
    assert (gpus.PROFILE_DIR / "h100.json").read_text() == before


@pytest.mark.parametrize("args, complaint", [
    ((), "add --measure"),
    (("--from", "/nonexistent/calibration.json"), "cannot read"),
])
def test_calibrate_bad_input_is_one_line(args, complaint):
    done = _validate("calibrate", *args)
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and complaint in done.stderr and done.stderr.count("\n") == 1


def _validate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "validate.cli", *args], capture_output=True, text=True)


def _has_cupy_gpu() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


@pytest.mark.gpu
@pytest.mark.skipif(not _has_cupy_gpu(), reason="needs CuPy and a CUDA GPU")
def test_pointer_chase_latencies_are_ordered_on_the_gpu():
    from gpu.calibrate import MIB, Bench
    bench = Bench()
    l1 = bench.chase_cycles("k_cal_chase_l1", bench.chain(16 * 1024, 128, 1), 1024)
    l2 = bench.chase_cycles("k_cal_chase_l2", bench.chain(2 * MIB, 256, 2), 8192)
    assert 10 < l1 < l2 < 2000


# ---- profiles built on a base (`"base": NAME`): overrides only -----------------------------------

BASED = [name for name in gpus.names() if _raw(name).get("base")]


def test_a_based_profile_takes_what_it_does_not_give_from_its_base(tmp_path):
    base = gpus.load("H100")
    child = {"name": "X1", "full_name": "a test GPU", "base": "H100", "fitted_from": "H100",
             "sm_count": base.sm_count + 2, "l2": {"size_bytes": 2 * base.l2.size_bytes},
             "source": {"sm_count": "datasheet: test", "l2.size_bytes": "datasheet: test"}}
    (tmp_path / "x1.json").write_text(json.dumps(child))
    loaded = gpus.load_file(tmp_path / "x1.json")
    assert (loaded.sm_count, loaded.l2.size_bytes) == (base.sm_count + 2, 2 * base.l2.size_bytes)
    assert loaded.l2.model_copy(update={"size_bytes": base.l2.size_bytes}) == base.l2
    assert (loaded.dram, loaded.pipes, loaded.fitted) == (base.dram, base.pipes, base.fitted)
    assert loaded.source_of("dram.bandwidth_gbs") == base.source_of("dram.bandwidth_gbs")
    assert loaded.calibration is None and loaded.name == "X1"


@pytest.mark.parametrize("base", ["V100", "X2"])
def test_a_base_that_is_no_other_profile_is_one_clear_error(tmp_path, base):
    (tmp_path / "x2.json").write_text(json.dumps({"name": "X2", "base": base}))
    with pytest.raises(ProfileError, match=f"base names '{base}'"):
        gpus.load_file(tmp_path / "x2.json")


@pytest.mark.parametrize("name", BASED)
def test_a_based_profile_repeats_nothing_of_its_base_and_saves_as_overrides(name, tmp_path):
    """A number copied from the base would go stale at the base's next measurement or refit."""
    from memsim.gpus.profile import _OWN_KEYS, _overrides

    raw = _raw(name)
    base = {k: v for k, v in _raw(raw["base"]).items() if k not in _OWN_KEYS}
    assert _overrides(raw, base) == raw
    saved = json.loads(gpus.save(gpus.load(name), tmp_path).read_text())
    assert saved == raw
    assert gpus.load_file(tmp_path / f"{name.lower()}.json") == gpus.load(name)
