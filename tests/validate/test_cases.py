"""The validation suite: well-formed cases whose sources compile, and trustworthy `expect` values."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from memsim import metrics as m
from memsim.compiler.nvrtc import compile_cuda
from memsim.launch import LaunchSpec
from validate import suite_cases as suite
from validate.record import read_raw
from validate import fuzz_cases
from validate.case import Case, unmet_expectations
from validate.suite_cases import suite_cases
from tests.helpers import ROOT


@functools.lru_cache(maxsize=1)
def all_cases() -> tuple[Case, ...]:
    return tuple(suite_cases())


@functools.lru_cache(maxsize=1)
def own_cases() -> tuple[Case, ...]:
    return tuple(suite.microbenchmark_cases())


def by_name(name: str) -> Case:
    return next(c for c in all_cases() if c.name == name)


def distinct_sources() -> list[str]:
    return sorted({c.spec.source for c in all_cases()})


def test_names_unique_and_filename_safe():
    names = [c.name for c in all_cases()]
    assert len(names) == len(set(names))
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+", n) for n in names)


def test_bad_name_rejected():
    with pytest.raises(ValueError):
        Case(name="bad name/1", spec=own_cases()[0].spec)


def test_enough_microbenchmarks_and_seeds():
    assert len(own_cases()) >= 60
    assert sum("seed" in c.tags for c in all_cases()) > 0


@pytest.mark.parametrize("tag", ["global", "shared", "vector", "divergence", "gather", "atomic",
                                 "partial", "2d", "broadcast", "dynamic-shared", "local", "loop"])
def test_every_rule_has_cases(tag):
    assert any(tag in c.tags for c in own_cases())


def test_kernel_names_start_with_k():
    assert all(c.spec.kernel.startswith("k_") for c in all_cases())


@pytest.mark.parametrize("index", range(len(distinct_sources())))
def test_source_compiles_and_defines_its_kernels(index):
    source = distinct_sources()[index]
    ptx = compile_cuda(source).ptx
    kernels = {c.spec.kernel for c in all_cases() if c.spec.source == source}
    entries = set(re.findall(r"\.entry\s+(\w+)\(", ptx))
    assert kernels <= entries


def test_vector_types_become_vector_ptx():
    ptx = compile_cuda(suite.suite_source("global_access.cu")).ptx
    bodies = dict(re.findall(r"\.entry\s+(\w+)\((.*?)\n}", ptx, re.S))
    assert "ld.global.v2" in bodies["k_ld_float2"] and "st.global.v2" in bodies["k_ld_float2"]
    for kernel in ("k_ld_float4", "k_ld_int4", "k_st_float4"):
        assert "ld.global.v4" in bodies[kernel] and "st.global.v4" in bodies[kernel]


def test_specs_round_trip_through_json():
    for case in own_cases()[::7] + all_cases()[:3]:
        again = Case.model_validate_json(case.model_dump_json())
        assert again == case
        assert [str(a) for a in again.spec.args] == [str(a) for a in case.spec.args]


def test_own_cases_are_small():
    for case in own_cases():
        threads = np.prod(case.spec.grid) * np.prod(case.spec.block)
        buffers = sum(v.nbytes for v in case.spec.materialize() if isinstance(v, np.ndarray))
        assert threads <= 256 * 1024 and buffers <= 16 << 20, case.name


def test_expect_uses_exact_metric_names():
    for case in all_cases():
        assert set(case.expect) <= set(m.EXACT), case.name


def test_most_own_cases_carry_expectations():
    assert sum(bool(c.expect) for c in own_cases()) >= 0.9 * len(own_cases())


# Hand-derived from the access patterns, independently of the per-warp reduction in
# validate/expected_counters.py.
HAND_CHECKED = [
    # 4096 floats, stride 2: a warp spans 256 bytes = 8 sectors; 128 warps.
    ("ld_float_s2_o0", m.GLOBAL_LD_SECTORS, 128 * 8),
    # stride 1 misaligned by one float: 128 bytes over 5 sectors.
    ("ld_float_s1_o1", m.GLOBAL_LD_SECTORS, 128 * 5),
    ("ld_float_s1_o1", m.GLOBAL_ST_SECTORS, 128 * 4),
    # stride 33 floats: every lane its own sector.
    ("ld_float_s33_o0", m.GLOBAL_LD_SECTORS, 128 * 32),
    # chars: 32 bytes per warp = 1 sector; 2 when shifted by one byte.
    ("ld_char_s1_o0", m.GLOBAL_LD_SECTORS, 128),
    ("ld_char_s1_o1", m.GLOBAL_LD_SECTORS, 256),
    # float4: 512 bytes per warp = 16 sectors, one 128-bit instruction per warp.
    ("ld_float4_s1_o0", m.GLOBAL_LD_SECTORS, 128 * 16),
    ("ld_float4_s1_o0", m.INST_BY_WIDTH[128], 256),
    ("ld_float4_s1_o0", m.BYTES_GLOBAL_LD, 4096 * 16),
    # 1000 floats in 128-thread blocks: 31 full warps and one of 8 lanes (1 sector); 8 blocks.
    ("ld_float_s1_o0_b128_n1000", m.GLOBAL_LD_SECTORS, 31 * 4 + 1),
    ("ld_float_s1_o0_b128_n1000", m.BYTES_GLOBAL_LD, 4000),
    # blocks of 48: a full warp (4 sectors) and a 16-lane warp starting 128 bytes in (2 sectors).
    ("ld_float_s1_o0_b48_n1920", m.GLOBAL_LD_SECTORS, 40 * (4 + 2)),
    ("ld_float_s1_o0_b48_n1920", m.INST_GLOBAL_LD, 80),
    # columns of a 64-row matrix: each lane its own sector; 256 warps.
    ("copy2d_col_32x8", m.GLOBAL_LD_SECTORS, 256 * 32),
    # 16x16 blocks: a warp holds two half-rows of 64 bytes each = 4 sectors.
    ("copy2d_row_16x16", m.GLOBAL_LD_SECTORS, 256 * 4),
    # shared stride s: gcd(s, 32)-way conflicts; 64 warps each way.
    ("shared_stride_float_s2", m.SHARED_LD_WAVEFRONTS, 64 * 2),
    ("shared_stride_float_s16", m.SHARED_ST_WAVEFRONTS, 64 * 16),
    ("shared_stride_float_s17", m.SHARED_LD_WAVEFRONTS, 64),
    ("shared_stride_float_s32", m.SHARED_LD_WAVEFRONTS, 64 * 32),
    ("shared_stride_float_s33", m.SHARED_LD_WAVEFRONTS, 64),
    # chars 4 apart: one word per lane, all banks distinct.
    ("shared_stride_char_s4", m.SHARED_LD_WAVEFRONTS, 64),
    # 16-byte stores, contiguous: 4 wavefronts per warp; 32 warps.
    ("shared_stride_float4_s1", m.SHARED_ST_WAVEFRONTS, 32 * 4),
    ("shared_group_float_g32_s1", m.SHARED_LD_WAVEFRONTS, 128),
    # load bytes count each distinct address once: a broadcast warp reads 4 bytes, pairs half.
    ("shared_group_float_g32_s1", m.BYTES_SHARED_LD, 128 * 4),
    ("shared_group_float_g2_s1", m.BYTES_SHARED_LD, 128 * 16 * 4),
    # unpadded 32x32 tile read by column: 32 ways; 4 blocks x 8 warps x 4 reads = 128 reads.
    ("tile_float", m.SHARED_LD_WAVEFRONTS, 128 * 32),
    ("tile_float_pad", m.SHARED_LD_WAVEFRONTS, 128),
    ("shared_tile_pitch36", m.SHARED_LD_WAVEFRONTS, 256 * 4),
    # both sides of the branch run in every warp, each once.
    ("if_else", m.INST_GLOBAL_LD, 256),
    ("sync_loop_r3", m.INST_SHARED_LD, 16 * 4 * 3),
]


@pytest.mark.parametrize("name, metric, value", HAND_CHECKED)
def test_expect_matches_hand_derivation(name, metric, value):
    assert by_name(name).expect[metric] == value


def test_uncertain_counts_are_left_out():
    # a warp with no active lane: its instruction count depends on ptxas
    assert m.INST_GLOBAL_LD not in by_name("ld_double_s3_o0_b256_n100").expect
    assert m.GLOBAL_LD_SECTORS in by_name("ld_double_s3_o0_b256_n100").expect
    # 8-byte shared reads of pairs of lanes swapped: no certain wavefront count
    assert m.SHARED_LD_WAVEFRONTS not in by_name("shared_stride_double_s1").expect
    # a divergent loop: load instructions follow the unrolling
    assert m.INST_GLOBAL_LD not in by_name("div_loop").expect and m.BYTES_GLOBAL_LD in by_name("div_loop").expect


def _with_expectations() -> list[Case]:
    return [c for c in own_cases() if c.expect]


@pytest.mark.parametrize("index", range(len(_with_expectations())))
def test_simulator_meets_expectations(index):
    simulate_spec = pytest.importorskip("memsim.engine.simulation").simulate_spec
    case = _with_expectations()[index]
    report, _ = simulate_spec(case.spec)
    assert not unmet_expectations(case, report.metrics), case.name


def test_unmet_expectations_names_the_differences():
    case = by_name("ld_float_s2_o0")
    metrics = dict(case.expect, **{m.GLOBAL_LD_SECTORS: 1})
    assert unmet_expectations(case, metrics) == {m.GLOBAL_LD_SECTORS: (1, 1024)}
    assert unmet_expectations(case, dict(case.expect)) == {}


H100_RECORDINGS = ROOT / "validate" / "data" / "h100"


def recorded_on_h100() -> dict[str, dict]:
    records = {}
    for case_set in ("suite", "fuzz"):
        path = H100_RECORDINGS / f"{case_set}.json"
        records.update({r["name"]: r for r in read_raw(path)["cases"] if not r["error"]})
    return records


def recorded_cases(records: dict[str, dict]) -> list[Case]:
    """Our cases under the recorded names: the suite and every recorded fuzz seed."""
    fuzz_names = [re.fullmatch(r"fuzz_s(\d+)_(\d+)", n) for n in records]
    counts: dict[int, int] = {}
    for match in filter(None, fuzz_names):
        counts[int(match[1])] = max(counts.get(int(match[1]), 0), int(match[2]) + 1)
    fuzzed = [c for seed, n in counts.items() for c in fuzz_cases.generate(n, seed)]
    return [c for c in list(own_cases()) + fuzzed if c.name in records]


def test_expectations_hold_on_the_h100():
    records = recorded_on_h100()
    compared = recorded_cases(records)
    assert len(compared) >= 100
    for case in compared:
        record = records[case.name]
        assert LaunchSpec.model_validate(record["spec"]) == case.spec, f"{case.name}: recorded launch differs"
        assert not unmet_expectations(case, record["metrics"]), case.name
