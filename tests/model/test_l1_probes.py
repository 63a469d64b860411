"""The L1 rules of session 13's probes, held to their H100 recordings (gpu/cache_probe/):
the driver's carveout (carveout_probe.py, and launch__shared_mem_config_size of recorded cases),
stores that allocate in L1 (store_alloc_probe.py) and the line limit of store merging
(l1_store_probe.py, store_lines_probe.py)."""
import json

import numpy as np
import pytest

from memsim import metrics as m
from memsim.launch import LaunchSpec
from memsim.model.cache import CacheGeometry
from memsim.model.cache.passes import full_sectors, request_lines
from memsim.model.scheduling import occupancy
from memsim.prediction import model_traffic
from tests.helpers import ROOT

PROBE = ROOT / "gpu" / "cache_probe"
L1_HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
CONFIG = "launch__shared_mem_config_size"


def _source(probe: str, name: str) -> str:
    return (PROBE / probe).read_text().split(f"{name} = r'''")[1].split("'''")[0]


def _recorded(results: str) -> list[tuple[list, dict]]:
    data = json.loads((PROBE / results).read_text())
    return list(zip(data["launches"], data["runs"][0]))


def _launch_id(value) -> str:
    """A recorded launch's test id: its tuple joined ('stmix_16_2_4_1_32'); the recording, none."""
    return "_".join(map(str, value)) if isinstance(value, list) else ""


def _carveout_cases() -> list[tuple[str, int, int, int, float]]:
    """(where, threads, shared bytes, registers, chosen KB) of every probed and recorded launch."""
    cases = [("probe", int(r["launch__block_size"]), int(r["launch__shared_mem_per_block_static"]),
              int(r["launch__registers_per_thread"]), r[CONFIG] / 1024)
             for _, r in _recorded("h100_carveout_results.json")]
    sets = json.loads((PROBE / "h100_launchcfg_results.json").read_text())["sets"]
    for name, cases_of in sets.items():
        cases += [(f"{name}:{case}", int(r["launch__block_size"]), int(r["launch__shared_mem_per_block_static"]
                                                                       + r["launch__shared_mem_per_block_dynamic"]),
                   int(r["launch__registers_per_thread"]), r[CONFIG] / 1024)
                  for case, r in cases_of.items() if isinstance(r, dict)]
    return cases


def test_the_carveout_policy_picks_what_the_h100_driver_picked():
    limits = CacheGeometry.for_gpu("H100").limits
    cases = _carveout_cases()
    wrong = [(where, t, smem, regs, kb, occupancy(t, regs, smem, limits).shared_carveout_bytes / 1024)
             for where, t, smem, regs, kb in cases
             if occupancy(t, regs, smem, limits).shared_carveout_bytes / 1024 != kb]
    assert len(cases) > 500
    assert len(wrong) <= 0.01 * len(cases), wrong


def test_without_a_measured_policy_the_carveout_is_the_smallest_that_holds_the_blocks():
    limits = CacheGeometry.for_gpu("A100").limits
    assert limits.carveout_headroom == 1.0
    got = occupancy(256, 32, 8192, limits)
    assert got.shared_carveout_bytes == min(kb for kb in limits.carveouts_kb if kb * 1024 >= 8 * 9216) * 1024


@pytest.mark.parametrize("addresses, expected", [
    ([4 * i for i in range(32)], [0b1111]),                            # coalesced words
    ([16 * i for i in range(32)], [0b1111] * 4),                       # float4s
    ([8192 * i for i in range(32)], [0] * 32),                         # a column: a word a sector
    ([32 * (i // 2) + 4 * (i % 2) for i in range(32)], [0] * 4),       # two words a sector
    ([4 * i for i in range(12)], [0b0001]),                            # 12 words: one sector whole
    ([4 * (31 - i) for i in range(32)], [0]),                          # out of address order
])
def test_full_sectors_are_those_a_store_writes_whole(addresses, expected):
    row = np.full(32, -1, np.int64)
    row[:len(addresses)] = np.array(addresses) + (1 << 20)
    lines, masks = np.empty(32, np.int64), np.empty(128, np.int64)
    n = request_lines(row, lines, masks, np.empty(64, np.int64), np.zeros(64, np.int64), 1)
    full = np.empty(32, np.int64)
    full_sectors(row, lines, n, full, np.empty(128, np.int64))
    assert list(full[:n]) == expected


STORE_ALLOC = _source("store_alloc_probe.py", "SRC")


def _store_alloc_spec(kind: str, kb: int, x: int) -> LaunchSpec:
    if kind == "store_then_load":
        args = ["float32[1048576]:zeros", "float32[1024]:zeros", f"int32:{kb * 256}", f"int32:{x}"]
    else:   # x KB stored: every word (k_store_evicts) or one word a sector (k_partial_evicts)
        stores = x * 256 if kind == "store_evicts" else x * 32
        args = ["float32[1048576]:ones", "float32[1048576]:zeros", "float32[1024]:zeros",
                f"int32:{kb * 256}", f"int32:{stores}"]
    return LaunchSpec(source=STORE_ALLOC, kernel=f"k_{kind}", grid=(1, 1, 1), block=(256, 1, 1), args=args)


@pytest.mark.parametrize("launch, recorded", _recorded("h100_store_alloc_results.json"),
                         ids=_launch_id)
def test_stores_take_l1_lines_and_whole_sectors_hit_later(launch, recorded):
    """Loads after whole-sector stores hit, after one word a sector miss; stores evict what was
    loaded before them once loads and stores together pass the L1: L1 hits within a tenth of
    the launch's load sectors of the H100's."""
    got = model_traffic(_store_alloc_spec(*launch), gpu="H100")
    loads = recorded[L1_HIT] + recorded["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"]
    assert got.l1_hit_sectors + got.l1_miss_sectors == loads
    assert abs(got.l1_hit_sectors - recorded[L1_HIT]) <= 0.1 * loads


STORE_MIX = _source("l1_store_probe.py", "STORE_SRC")


def _stmix(lines: int, sectors: int, warps: int, repeats: int, stride: int) -> LaunchSpec:
    return LaunchSpec(source=STORE_MIX, kernel="k_stmix", grid=(1, 1, 1), block=(32 * warps, 1, 1),
                      args=["float32[4194304]:zeros", f"int32:{lines}", f"int32:{sectors}", f"int32:{repeats}",
                            f"int32:{stride}"])


LOCK_STEP = [(launch, r) for launch, r in _recorded("h100_l1_store_results.json") + _recorded("h100_store_lines_results.json")
             if launch[0] == "stmix" and launch[4] == 1]


@pytest.mark.parametrize("launch, recorded", LOCK_STEP, ids=_launch_id)
def test_warps_storing_together_merge_unless_a_request_spans_too_many_lines(launch, recorded):
    """Warps of one block store into the same sectors at once: the H100 sends each sector once
    at up to 28 lines a request and every store at 31 or 32."""
    got = model_traffic(_stmix(*launch[1:]), gpu="H100")
    assert got.l2_write_sectors == recorded[m.L2_WRITE]


CAPACITY = _source("l1_store_probe.py", "CAP_SRC")
STATIC_FLOATS = {"none": 0, "static_8KB": 2048}


@pytest.mark.parametrize("launch, recorded", [(launch, r) for launch, r in _recorded("h100_l1_store_results.json")
                                              if launch[0] == "l1cap" and launch[1] in STATIC_FLOATS
                                              and launch[2] in (96, 160, 192, 240)],
                         ids=_launch_id)
def test_one_block_rereading_its_data_keeps_what_the_carveout_leaves(launch, recorded):
    """k_l1cap: one block reads `kb` KB twice next to no shared memory (L1: 224 KB) or 8 KB
    (the driver carves out 132 KB: L1 124 KB); second-pass hits within a quarter of the H100's."""
    _, name, kb = launch
    source = f"#define STATIC_FLOATS {STATIC_FLOATS[name]}\n" + CAPACITY
    spec = LaunchSpec(source=source, kernel="k_l1cap", grid=(1, 1, 1), block=(256, 1, 1),
                      args=["float32[16777216]:ones", "float32[1024]:zeros", f"int32:{kb * 64}"])
    second_pass = kb * 1024 // 32
    got = model_traffic(spec, gpu="H100")
    assert abs(got.l1_hit_sectors - recorded[L1_HIT]) <= 0.25 * second_pass



STORE_DELAY = _source("store_lines_probe.py", "DELAY_SRC")
ONE_WARP_BACK_TO_BACK = [(launch, r) for launch, r in _recorded("h100_store_lines_results.json")
                         if launch[0] == "stdelay" and launch[3] == 0 and launch[4] == 0 and launch[1] <= 8]


@pytest.mark.parametrize("launch, recorded", ONE_WARP_BACK_TO_BACK, ids=_launch_id)
def test_one_idle_warp_storing_twice_merges_nothing_up_to_eight_lines(launch, recorded):
    """One warp stores twice into the same sectors, back to back: an idle L1 has sent a request
    of up to 8 lines before the next comes (no merge). (Of 16 lines the H100 merges 13; the
    model merges none there, as it measures the stores' distance in the listing, where the
    probe's spin loop lies between them.)"""
    _, lines, sectors, delay, mode = launch
    spec = LaunchSpec(source=STORE_DELAY, kernel="k_stdelay", grid=(1, 1, 1), block=(32, 1, 1),
                      args=["float32[1048576]:zeros", f"int32:{lines}", f"int32:{sectors}", f"int64:{delay}",
                            f"int32:{mode}"])
    assert model_traffic(spec, gpu="H100").l2_write_sectors == recorded[m.L2_WRITE]
