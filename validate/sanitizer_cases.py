"""Launches for `memsim check`, held to compute-sanitizer's verdicts on an H100.

Planted bugs (validate/sanitizer/{racecheck,initcheck,synccheck,memcheck}.cu: each file's
kernels carry one kind of bug for the tool of its name) and correct kernels
(validate/sanitizer/clean.cu) that every tool must pass. The kernels are written for memsim.
`gpu/sanitizer.py` runs each launch under the real compute-sanitizer and
`validate/data/h100/sanitizer.json` keeps its text; tests/validate/test_sanitizer.py holds
memsim's findings (tool, kind, lines, count) equal to it.

A buffer written `:empty` is allocated and never written before the launch (cupy.empty without
a memory pool on the GPU), so initcheck watches it.
"""
from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from memsim.launch import LaunchSpec

SANITIZER_DIR = Path(__file__).parent / "sanitizer"
TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")


class SanitizerCase(BaseModel):
    """One launch and the tools it is checked with (a planted bug: its tool; clean: all four)."""

    name: str
    spec: LaunchSpec
    tools: tuple[str, ...]
    planted: bool

    @property
    def file(self) -> str:
        return Path(self.spec.source).name


F = "float32"
# (kernel, grid, block, args); the file is the tool's, the case is named after the kernel
PLANTED: dict[str, list[tuple]] = {
    "racecheck": [
        ("race_raw_neighbour", 1, 256, [f"{F}[256]", f"{F}[256]:zeros"]),
        ("race_war_overwrite", 1, 256, [f"{F}[256]", f"{F}[256]:zeros"]),
        ("race_waw_one_word", 1, 128, [f"{F}[128]:zeros"]),
        ("race_cross_warp", 1, 64, [f"{F}[64]", f"{F}[64]:zeros"]),
        ("race_intra_warp", 1, 32, [f"{F}[32]", f"{F}[32]:zeros"]),
        ("race_loop_missing_second_sync", 1, 256, [f"{F}[1024]", f"{F}[256]:zeros"]),
        ("race_reduction_no_sync", 1, 256, [f"{F}[256]", f"{F}[1]:zeros"]),
        ("race_warp_tail_no_syncwarp", 1, 64, [f"{F}[128]", f"{F}[1]:zeros"]),
        ("race_transpose_no_sync", "2,2", "32,8", [f"{F}[4096]", f"{F}[4096]:zeros", "int32:64"]),
        ("race_single_pair", 1, 128, [f"{F}[1]:zeros"]),
        ("race_atomic_then_read", 1, 256, [f"{F}[1]:zeros"]),
        ("race_broadcast_then_overwrite", 1, 128, [f"{F}[1]", f"{F}[128]:zeros"]),
        ("race_scan_in_place", 1, 256, [f"{F}[256]", f"{F}[256]:zeros"]),
    ],
    "initcheck": [
        ("init_read_empty", 2, 128, [f"{F}[256]:empty", f"{F}[256]:zeros"]),
        ("init_half_written", 1, 256, [f"{F}[256]:empty", f"{F}[256]:zeros"]),
        ("init_sparse_reads", 1, 256, [f"{F}[256]:empty", f"{F}[8]:zeros"]),
        ("init_accumulate_into_empty", 1, 128, [f"{F}[128]", f"{F}[128]:empty"]),
        ("init_vector_load", 1, 64, [f"{F}[256]:empty", f"{F}[64]:zeros"]),
        ("init_byte_load", 1, 64, ["uint8[64]:empty", f"{F}[64]:zeros"]),
        ("init_atomic_counter", 1, 64, ["int32[1]:empty", f"{F}[64]:zeros"]),
        ("init_stencil_halo", 1, 128, [f"{F}[129]:empty", f"{F}[128]:zeros"]),
        ("init_shared_tile_unwritten", 1, 128, [f"{F}[128]:zeros"]),
        ("init_shared_half_filled", 1, 128, [f"{F}[128]", f"{F}[128]:zeros"]),
        ("init_strided_write", 1, 64, [f"{F}[128]:empty", f"{F}[64]:zeros"]),
        ("init_struct_half", 1, 64, [f"{F}[128]:empty", f"{F}[64]:zeros"]),
    ],
    "synccheck": [
        ("sync_divergent_if", 1, 64, [f"{F}[64]", f"{F}[64]:zeros"]),
        ("sync_if_else_barriers", 1, 64, [f"{F}[64]", f"{F}[64]:zeros"]),
        ("sync_loop_trip_count", 1, 64, ["int32[64]:randint(1,4)", f"{F}[64]:zeros"]),
        ("sync_single_thread_barrier", 1, 64, [f"{F}[64]:zeros"]),
        ("sync_data_dependent_branch", 1, 64, ["int32[64]:randint(0,2)", f"{F}[64]:zeros"]),
        ("sync_syncwarp_bad_mask", 1, 32, [f"{F}[32]:zeros"]),
        ("sync_count_divergent", 1, 64, [f"{F}[64]:zeros"]),
    ],
    "memcheck": [
        ("mem_oob_global_write", 3, 128, [f"{F}[320]:zeros"]),
        ("mem_oob_global_read", 1, 64, [f"{F}[64]", f"{F}[64]:zeros", "int32:64"]),
        ("mem_misaligned_vector", 1, 32, [f"{F}[256]", f"{F}[32]:zeros", "int32:1"]),
        ("mem_oob_shared", 1, 256, [f"{F}[256]", f"{F}[256]:zeros", "int32:4096"]),
        ("mem_misaligned_shared", 1, 64, ["int32[64]", f"{F}[64]:zeros"]),
        ("mem_oob_negative_index", 1, 64, [f"{F}[64]", f"{F}[64]:zeros"]),
        ("mem_oob_shared_write", 1, 128, [f"{F}[128]", f"{F}[128]:zeros", "int32:8192"]),
    ],
}
CLEAN: list[tuple] = [
    ("ok_transpose_tiled", "2,2", "32,8", [f"{F}[4096]", f"{F}[4096]:zeros", "int32:64"]),
    ("ok_reduce_synced", 4, 256, [f"{F}[1024]", f"{F}[4]:zeros"]),
    ("ok_warp_tail_syncwarp", 1, 64, [f"{F}[128]", f"{F}[1]:zeros"]),
    ("ok_shfl_reduce", 2, 128, [f"{F}[256]", f"{F}[8]:zeros"]),
    ("ok_histogram_atomics", 4, 128, ["int32[512]:randint(0,64)", "int32[16]:zeros"]),
    ("ok_loop_two_syncs", 1, 256, [f"{F}[1024]", f"{F}[256]:zeros"]),
    ("ok_stencil_halo", 4, 256, [f"{F}[1024]", f"{F}[1024]:zeros", "int32:1024"]),
    ("ok_scan_double_buffer", 1, 256, [f"{F}[256]", f"{F}[256]:zeros"]),
    ("ok_broadcast", 1, 128, [f"{F}[128]:ones", f"{F}[128]:zeros"]),
    ("ok_scratch_own_element", 2, 128, [f"{F}[256]", f"{F}[256]:empty", f"{F}[256]:zeros"]),
    ("ok_matmul_tiled", "2,2", "16,16", [f"{F}[1024]", f"{F}[1024]", f"{F}[1024]:zeros", "int32:32"]),
    ("ok_guarded_vector_add", 3, 128, [f"{F}[300]", f"{F}[300]", f"{F}[300]:empty", "int32:300"]),
]


def _spec(file: str, kernel: str, grid, block, args) -> LaunchSpec:
    return LaunchSpec(source=str(SANITIZER_DIR / file), kernel=kernel, grid=grid, block=block, args=args)


def sanitizer_cases() -> list[SanitizerCase]:
    """Every planted and clean launch, in a stable order."""
    cases = [SanitizerCase(name=k, spec=_spec(f"{tool}.cu", k, g, b, a), tools=(tool,), planted=True)
             for tool, rows in PLANTED.items() for k, g, b, a in rows]
    cases += [SanitizerCase(name=k, spec=_spec("clean.cu", k, g, b, a), tools=TOOLS, planted=False)
              for k, g, b, a in CLEAN]
    return cases


def case_named(name: str) -> SanitizerCase:
    for case in sanitizer_cases():
        if case.name == name:
            return case
    raise KeyError(name)


def write_cases(path: Path) -> None:
    """The cases as the JSON list gpu.sanitizer reads ({name, spec, tools}): the GPU side takes
    them as a file and imports nothing from validate."""
    rows = [{"name": c.name, "spec": json.loads(c.spec.model_dump_json()), "tools": list(c.tools)}
            for c in sanitizer_cases()]
    Path(path).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    import sys

    write_cases(Path(sys.argv[1]))
