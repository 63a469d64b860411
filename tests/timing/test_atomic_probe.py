"""The timing simulation's rules for atomics against the H100's recording of the atomic probe
(gpu/probes/atomic_probe.cu, gpu/probes/h100_atomic_probe.json: golden hardware data)."""
from __future__ import annotations

import json
import statistics
from pathlib import Path

import numpy as np
import pytest

from gpu.probes.atomic_probe import cases, probe_figures
from memsim import gpus
from memsim.engine.count import paired_unit
from memsim.launch import LaunchSpec

RECORDING = Path(__file__).resolve().parents[2] / "gpu" / "probes" / "h100_atomic_probe.json"
DATA = json.loads(RECORDING.read_text())
PROFILE = gpus.load("h100")
FIGURES = probe_figures(DATA, PROFILE.launch.kernel_floor_ns, PROFILE.clocks.sm_base_mhz)
RECORDED = {c["name"]: c for c in DATA["cases"]}
CASES = {c["name"]: c for c in cases()}


@pytest.mark.parametrize("figure, number", [
    ("unit_cycles_per_packet", lambda p: p.throughput.l2_atomic_packet_cycles),
    ("full_packet_cycles", lambda p: p.throughput.l2_atomic_full_packet_cycles),
    ("l2_packets_per_cycle", lambda p: p.throughput.l2_atomic_packets_per_clk),
    ("same_address_float_ns_per_packet_b132", lambda p: p.latency.l2_atomic_float_ns),
])
def test_the_profile_reads_the_probes_numbers(figure, number):
    assert number(PROFILE) == pytest.approx(FIGURES[figure], rel=0.01)


@pytest.mark.parametrize("blocks", [1, 8])
@pytest.mark.parametrize("kind", ["same_address_ns_per_packet", "same_address_float_ns_per_packet"])
def test_one_address_takes_the_same_time_a_packet_from_one_sm_as_from_all(kind, blocks):
    """The unit, not the SMs, sets the pace: the simulation gives each SM its share of it."""
    assert FIGURES[f"{kind}_b{blocks}"] == pytest.approx(FIGURES[f"{kind}_b132"], rel=0.02)


def _unit_ns_per_instruction(params: dict) -> float:
    """The busiest unit's time for one warp instruction of a k_gatom case whose lanes all hit the
    same words every instruction, by memsim's rules: packets per sector (the most lanes on one
    word), 256-byte units paired within each KiB, full packets at their own rate."""
    words = np.array([((lane >> int(np.log2(params["lanes_per_address"]))) * params["s"] + params["off"])
                      for lane in range(32)])
    unit_cycles = PROFILE.throughput.l2_atomic_packet_cycles
    full_cycles = PROFILE.throughput.l2_atomic_full_packet_cycles
    per_unit: dict[int, float] = {}
    for sector in np.unique(words // 8):
        mine = words[words // 8 == sector]
        _, counts = np.unique(mine, return_counts=True)
        full = counts.min() if len(counts) == 8 else 0
        cycles = (counts.max() - full) * unit_cycles + full * full_cycles
        unit = int(paired_unit(np.array([sector * 32]))[0])
        per_unit[unit] = per_unit.get(unit, 0.0) + cycles
    return max(per_unit.values()) * 1e3 / PROFILE.clocks.sm_base_mhz


@pytest.mark.parametrize("name", ["same_red_b132_x1", "sector_red_l4", "sector_red_l8", "sector_red_l16", "line_red",
                                  "range_red_128", "range_red_256", "range_red_512", "range_red_1024",
                                  "range_red_2048", "range_red_4096", *[f"range_red_1024_at{off}" for off in
                                  (256, 512, 1024, 2048, 4096, 65536, 1 << 20)]])
def test_paired_units_give_the_recorded_time_of_an_instruction(name):
    """Lanes spread over an aligned KiB take two units' time, shifted by 512 bytes four: the
    pairing of memsim.engine.count.paired_unit (ranges of 8 KiB and more: docs/time-model.md)."""
    rec = RECORDED[name]
    m = rec["metrics"]
    requests = (m.get("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", 0)
                + m.get("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", 0))
    measured = (statistics.median(rec["durations"]) - PROFILE.launch.kernel_floor_ns) / requests
    assert _unit_ns_per_instruction(rec["params"]) == pytest.approx(measured, rel=0.12)


@pytest.mark.parametrize("name", ["shared_add_l1", "shared_add_l2", "shared_add_l8", "shared_add_l32",
                                  "shared_add_bank4", "shared_add_hist4", "shared_add_hist256", "shared_addr_l32",
                                  "shared_inc_l32", "shared_inc_bank8", "shared_inc_hist4"])
def test_shared_atomic_wavefronts_are_the_recorded_ones(name):
    """ATOMS.ADD takes a wavefront per lane of its busiest bank (same word included), ATOMS.POPC.INC
    one per distinct word: memsim counts ncu's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom
    per instruction (a shortened launch: the pattern repeats every iteration)."""
    import memsim
    spec = dict(CASES[name]["spec"])
    spec["args"] = [*spec["args"][:1], "int32:8", *spec["args"][2:]]
    spec["grid"] = [1, 1, 1]
    report = memsim.simulate_spec(LaunchSpec.model_validate(spec))[0]
    m = RECORDED[name]["metrics"]
    recorded = m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] / m["sm__sass_inst_executed_op_shared_atom.sum"]
    counted = report.metrics["memsim__shared_atom_wavefronts.sum"] / report.metrics["sm__sass_inst_executed_op_shared_atom.sum"]
    assert counted == pytest.approx(recorded, rel=0.02)


@pytest.mark.parametrize("name", ["same_red_b132_x1", "same_atom_b8_x1", "same_redf_b132_x1", "range_red_1024",
                                  "range_red_1024_at512", "hist_red_256", "sector_red_l4", "chain_same_w1"])
def test_the_simulation_times_the_probe_as_the_h100_did(name):
    """The whole path (emulator, tally, SM simulation) on the probe's own launches."""
    import memsim
    report, _ = memsim.predict_spec(LaunchSpec.model_validate(CASES[name]["spec"]), gpu="H100")
    measured = statistics.median(RECORDED[name]["durations"])
    assert report.metrics["gpu__time_duration.sum"] == pytest.approx(measured, rel=0.2)
