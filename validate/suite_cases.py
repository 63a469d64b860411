"""The validation suite: launches that run on an H100 under Nsight Compute and in memsim.

`suite_cases()` gives the catalog's seed configurations followed by microbenchmarks of our own
(validate/suite/*.cu), each aimed at one counter rule: access widths, strides, misalignment,
partial and idle warps, 2-D blocks, shared-memory banks, divergence, gathers, atomics and local
memory. Where the counters follow from first principles, a case carries them in `expect`
(derived by validate/expected_counters.py from the thread -> address map of every memory
instruction), which makes it a unit test of the simulator as well as a hardware comparison.
"""
from __future__ import annotations

import functools
import math
import re
from pathlib import Path

import numpy as np

from memsim import metrics as m
from memsim.launch import LaunchSpec

from .case import Case, buffer_arg, width_of
from .expected_counters import Access, Threads, byte_offsets, expected_counters, launch_threads

SUITE_DIR = Path(__file__).parent / "suite"
VECTOR_TYPES = {"float2", "float4", "int4"}


def suite_cases() -> list[Case]:
    """The catalog's seed configurations, then the microbenchmarks."""
    return seed_cases() + microbenchmark_cases()


def seed_cases() -> list[Case]:
    """The catalog's seed launches (h100-seed-kernels.json), under the measurements' case names."""
    from memsim import catalog  # lazily: the catalog compiles nothing, but is not needed for the rest

    return [Case(name=seed.case, spec=seed.launch(), tags=["seed"]) for seed in catalog.SEED_CASES]


def microbenchmark_cases() -> list[Case]:
    """Our own cases over validate/suite/*.cu."""
    return (global_cases() + shared_cases() + control_cases() + same_address_cases()
            + float4_load_cases() + generic_access_cases())


# ---------------------------------------------------------------------------------------------
# Case builders

@functools.lru_cache(maxsize=None)
def suite_source(filename: str) -> str:
    return (SUITE_DIR / filename).read_text()


def _case(name: str, source: str, kernel: str, grid, block, args: list[str], tags: list[str],
          expect: dict[str, int] | None = None, shared_mem: int = 0) -> Case:
    spec = LaunchSpec(source=suite_source(source), kernel=kernel, grid=grid, block=block, args=args,
                      shared_mem=shared_mem)
    return Case(name=name, spec=spec, tags=tags, expect=expect or {})


def _type_tags(ctype: str) -> list[str]:
    return ["vector"] if ctype in VECTOR_TYPES else []


def strided_case(op: str, ctype: str, stride: int, offset: int = 0, block: int = 128,
                 n: int = 4096) -> Case:
    """k_ld_T (strided load, linear store) or k_st_T (linear load, strided store)."""
    grid = math.ceil(n / block)
    t = launch_threads(grid, block)
    width, active = width_of(ctype), t.gx < n
    strided = byte_offsets(t, t.gx * stride + offset, width, active)
    linear = byte_offsets(t, t.gx, width, active)
    span = (n - 1) * stride + offset + 1
    if op == "ld":
        args, accesses = [buffer_arg(ctype, span), buffer_arg(ctype, n, "zeros")], (strided, linear)
    else:
        args, accesses = [buffer_arg(ctype, n), buffer_arg(ctype, span, "zeros")], (linear, strided)
    args += [f"int32:{stride}", f"int32:{offset}", f"int32:{n}"]
    expect = expected_counters([Access("global", "ld", width, accesses[0]),
                                Access("global", "st", width, accesses[1])])
    shape = "" if (block, n) == (128, 4096) else f"_b{block}_n{n}"
    partial = [] if (block % 32 == 0 and n % 32 == 0) else ["partial"]
    return _case(f"{op}_{ctype}_s{stride}_o{offset}{shape}", "global_access.cu", f"k_{op}_{ctype}",
                 grid, block, args, ["global", *_type_tags(ctype), *partial], expect)


def copy_2d_case(block: tuple[int, int], grid: tuple[int, int], by_column: bool) -> Case:
    """k_2d_copy over a (grid*block)-sized matrix, reading rows or columns."""
    t = launch_threads(grid, block)
    width, height = block[0] * grid[0], block[1] * grid[1]
    sx, sy = (height, 1) if by_column else (1, width)
    expect = expected_counters([
        Access("global", "ld", 4, byte_offsets(t, t.gx * sx + t.gy * sy, 4)),
        Access("global", "st", 4, byte_offsets(t, t.gy * width + t.gx, 4)),
    ])
    name = f"copy2d_{'col' if by_column else 'row'}_{block[0]}x{block[1]}"
    args = [f"float32[{width * height}]", f"float32[{width * height}]:zeros",
            f"int32:{sx}", f"int32:{sy}", f"int32:{width}"]
    return _case(name, "global_access.cu", "k_2d_copy", grid, block, args, ["global", "2d"], expect)


def global_cases() -> list[Case]:
    cases = [strided_case("ld", "float", s) for s in (1, 2, 3, 4, 8, 16, 32, 33)]
    cases += [strided_case("ld", "float", s, offset=1) for s in (1, 2, 33)]
    for ctype in ("char", "short", "double", "float2", "float4"):
        cases += [strided_case("ld", ctype, s) for s in (1, 2, 4, 32, 33)]
        cases.append(strided_case("ld", ctype, 1, offset=1))
    cases += [strided_case("ld", c, s) for c in ("int", "longlong", "int4") for s in (1, 3)]
    cases += [strided_case("st", c, s) for c in ("char", "short", "float", "double", "float4") for s in (1, 2, 33)]
    cases.append(strided_case("st", "float", 1, offset=1))
    # Partial warps: blocks of 48 and 100 threads, n not a multiple of 32, whole idle warps.
    cases += [strided_case("ld", "float", 1, block=48, n=48 * 40),
              strided_case("ld", "float", 2, block=100, n=100 * 20),
              strided_case("ld", "char", 1, block=100, n=1000),
              strided_case("ld", "float4", 1, block=48, n=1000),
              strided_case("ld", "float", 1, block=128, n=1000),
              strided_case("ld", "double", 3, block=256, n=100),
              strided_case("st", "short", 2, block=100, n=777)]
    cases += [copy_2d_case(b, g, col) for b, g in (((32, 8), (4, 8)), ((16, 16), (8, 4)),
                                                  ((8, 32), (16, 2)), ((64, 4), (2, 16)),
                                                  ((12, 10), (8, 8)), ((24, 6), (4, 10)))
              for col in (False, True)]
    return cases + [odd_warps_idle_case()] + [lanes_active_case(k) for k in (1, 7, 16, 31)]


def odd_warps_idle_case() -> Case:
    """Odd warps return at once: they issue nothing (an exit, not a branch ptxas may predicate)."""
    t = launch_threads(16, 256)
    offsets = byte_offsets(t, t.gx, 4, (t.tx // 32) % 2 == 0)
    counters = expected_counters([Access("global", "ld", 4, offsets), Access("global", "st", 4, offsets)])
    return _case("odd_warps_idle", "global_access.cu", "k_odd_warps_idle", 16, 256,
                 ["float32[4096]", "float32[4096]:zeros"], ["global", "partial"], counters)


def lanes_active_case(lanes: int) -> Case:
    t = launch_threads(32, 128)
    offsets = byte_offsets(t, t.gx, 4, (t.tx % 32) < lanes)
    counters = expected_counters([Access("global", "ld", 4, offsets), Access("global", "st", 4, offsets)])
    return _case(f"lanes_active_{lanes}", "global_access.cu", "k_lanes_active", 32, 128,
                 ["float32[4096]", "float32[4096]:zeros", f"int32:{lanes}"],
                 ["global", "partial"], counters)


# ---------------------------------------------------------------------------------------------
# Shared memory

def _shared_copy_accesses(t: Threads, width: int, store, load) -> list[Access]:
    """Coalesced global load -> shared store `store` -> shared load `load` -> coalesced store."""
    linear = byte_offsets(t, t.bx * t.shape[1] + t.tx, width)
    return [Access("global", "ld", width, linear), Access("shared", "st", width, byte_offsets(t, store, width)),
            Access("shared", "ld", width, byte_offsets(t, load, width)), Access("global", "st", width, linear)]


def shared_stride_case(ctype: str, stride: int, block: int = 128, grid: int = 16) -> Case:
    """k_sh_stride_T: dynamic shared, lane t at t*stride (stores) and (t^1)*stride (loads)."""
    t = launch_threads(grid, block)
    width = width_of(ctype)
    expect = expected_counters(_shared_copy_accesses(t, width, t.tx * stride, (t.tx ^ 1) * stride))
    n = grid * block
    return _case(f"shared_stride_{ctype}_s{stride}", "shared_access.cu", f"k_sh_stride_{ctype}",
                 grid, block, [buffer_arg(ctype, n), buffer_arg(ctype, n, "zeros"), f"int32:{stride}"],
                 ["shared", "dynamic-shared", *_type_tags(ctype)], expect,
                 shared_mem=block * stride * width)


def shared_group_case(ctype: str, group: int, stride: int) -> Case:
    """k_sh_group_T: lanes in groups of `group` read element (t/group)*stride of a 256 array."""
    t = launch_threads(16, 256)
    load = ((t.tx // group) * stride) & 255
    expect = expected_counters(_shared_copy_accesses(t, width_of(ctype), t.tx, load))
    tags = ["shared", *_type_tags(ctype)] + (["broadcast"] if group > 1 else [])
    return _case(f"shared_group_{ctype}_g{group}_s{stride}", "shared_access.cu", f"k_sh_group_{ctype}",
                 16, 256, [buffer_arg(ctype, 4096), buffer_arg(ctype, 4096, "zeros"),
                           f"int32:{group}", f"int32:{stride}"], tags, expect)


def shared_half_same_case(word: int) -> Case:
    t = launch_threads(16, 256)
    load = np.where(t.tx % 2 == 1, word, t.tx)
    expect = expected_counters(_shared_copy_accesses(t, 4, t.tx, load))
    return _case(f"shared_half_same_w{word}", "shared_access.cu", "k_sh_half_same", 16, 256,
                 ["float32[4096]", "float32[4096]:zeros", f"int32:{word}"], ["shared", "broadcast"], expect)


def tile_transpose_case(ctype: str, pad: int, size: int = 64) -> Case:
    """k_tile_T[_pad]: 32x32 tile, 32x8 blocks, four rows per thread."""
    grid = (size // 32, size // 32)
    t = launch_threads(grid, (32, 8))
    width, pitch = width_of(ctype), 32 + pad
    accesses = []
    for j in range(0, 32, 8):
        accesses += [Access("global", "ld", width, byte_offsets(t, (t.by * 32 + t.ty + j) * size + t.gx, width)),
                     Access("shared", "st", width, byte_offsets(t, (t.ty + j) * pitch + t.tx, width)),
                     Access("shared", "ld", width, byte_offsets(t, t.tx * pitch + t.ty + j, width)),
                     Access("global", "st", width,
                            byte_offsets(t, (t.bx * 32 + t.ty + j) * size + t.by * 32 + t.tx, width))]
    kernel = f"k_tile_{ctype}" + ("_pad" if pad else "")
    return _case(kernel[2:], "shared_access.cu", kernel, grid, (32, 8),
                 [buffer_arg(ctype, size * size), buffer_arg(ctype, size * size, "zeros"), f"int32:{size}"],
                 ["shared", "global", "2d", "tile"], expected_counters(accesses))


def tile_pitch_case(pitch: int, grid: int = 8) -> Case:
    """k_sh_tile_pitch: rows of a dynamic 32 x pitch tile written, columns read."""
    t = launch_threads(grid, (32, 32))
    expect = expected_counters(_shared_copy_accesses(t, 4, t.ty * pitch + t.tx, t.tx * pitch + t.ty))
    n = grid * 1024
    return _case(f"shared_tile_pitch{pitch}", "shared_access.cu", "k_sh_tile_pitch", grid, (32, 32),
                 [f"float32[{n}]", f"float32[{n}]:zeros", f"int32:{pitch}"],
                 ["shared", "dynamic-shared", "2d", "tile"], expect, shared_mem=32 * pitch * 4)


def shared_cases() -> list[Case]:
    cases = [shared_stride_case("float", s) for s in (1, 2, 3, 4, 8, 16, 17, 32, 33)]
    cases += [shared_stride_case("char", s) for s in (1, 2, 3, 4, 8, 128)]
    cases += [shared_stride_case("short", s) for s in (1, 2, 3, 16, 64)]
    cases += [shared_stride_case("double", s) for s in (1, 2, 3, 4, 16, 17)]
    cases += [shared_stride_case("float4", s, block=64) for s in (1, 2, 3, 4, 8, 9)]
    cases += [shared_group_case("float", g, s) for g, s in ((32, 1), (2, 1), (4, 8), (8, 32), (16, 1))]
    cases += [shared_group_case(c, g, 1) for c in ("char", "short", "double", "float4") for g in (32, 2)]
    cases += [shared_half_same_case(w) for w in (0, 1, 32)]
    cases += [tile_transpose_case(c, p) for c in ("float", "double") for p in (0, 1)]
    return cases + [tile_pitch_case(p) for p in (32, 33, 34, 36)]


# ---------------------------------------------------------------------------------------------
# Control flow

def control_cases() -> list[Case]:
    return [div_loop_case(), if_else_case(), early_return_case(0.5), early_return_case(0.05),
            gather_case("permutation"), gather_case("randint(0,4096)"), gather_case("randint(0,64)"),
            scatter_case(), nested_loops_case(), while_walk_case(0.1), while_walk_case(0.6),
            sync_loop_case(3), atomic_hist_case(), atomic_sum_case(), local_array_case()]


def _linear(t: Threads, width: int = 4, active=True) -> np.ndarray:
    return byte_offsets(t, t.gx, width, active)


def div_loop_case() -> Case:
    """Trip count threadIdx.x % 7: load instructions depend on the unrolling; bytes do not."""
    t = launch_threads(32, 128)
    expect = expected_counters([Access("global", "st", 4, _linear(t))], unmodeled=[("global", "ld")])
    expect[m.BYTES_GLOBAL_LD] = int(np.broadcast_to(t.tx % 7, t.shape).sum()) * 4
    return _case("div_loop", "control_flow.cu", "k_div_loop", 32, 128,
                 ["float32[32768]", "float32[4096]:zeros"], ["divergence", "loop", "global"], expect)


def if_else_case() -> Case:
    t = launch_threads(32, 128)
    odd, even = t.tx % 2 == 1, t.tx % 2 == 0
    expect = expected_counters([
        Access("global", "ld", 4, _linear(t, active=odd)), Access("global", "st", 4, _linear(t, active=odd)),
        Access("global", "ld", 4, byte_offsets(t, 2 * t.gx, 4, even)),
        Access("global", "st", 4, _linear(t, active=even))])
    return _case("if_else", "control_flow.cu", "k_if_else", 32, 128,
                 ["float32[4096]", "float32[8192]", "float32[4096]:zeros", "float32[4096]:zeros"],
                 ["divergence", "global"], expect)


def early_return_case(cut: float) -> Case:
    t = launch_threads(32, 128)
    case = _case(f"early_return_c{cut:g}", "control_flow.cu", "k_early_return", 32, 128,
                 ["float32[4096]", "float32[4096]:zeros", f"float32:{cut}"], ["divergence", "global"])
    values = case.spec.materialize()[0]
    kept = np.broadcast_to(values[t.gx] >= np.float32(cut), t.shape)
    case.expect = expected_counters([Access("global", "ld", 4, _linear(t)),
                                     Access("global", "st", 4, _linear(t, active=kept))])
    return case


def gather_case(init: str, n: int = 4090) -> Case:
    """out[i] = in[idx[i]]; expected sectors come from the index data itself."""
    t = launch_threads(32, 128)
    name = "gather_" + re.sub(r"\W+", "_", init).strip("_")
    case = _case(name, "control_flow.cu", "k_gather", 32, 128,
                 ["float32[4096]", f"int32[{n}]:{init}", f"float32[{n}]:zeros", f"int32:{n}"],
                 ["gather", "global", "partial"])
    idx = case.spec.materialize()[1]
    active = t.gx < n
    case.expect = expected_counters([
        Access("global", "ld", 4, _linear(t, active=active)),
        Access("global", "ld", 4, byte_offsets(t, idx[np.minimum(t.gx, n - 1)], 4, active)),
        Access("global", "st", 4, _linear(t, active=active))])
    return case


def scatter_case(n: int = 4096) -> Case:
    t = launch_threads(32, 128)
    case = _case("scatter_permutation", "control_flow.cu", "k_scatter", 32, 128,
                 [f"float32[{n}]", f"int32[{n}]:permutation", f"float32[{n}]:zeros", f"int32:{n}"],
                 ["gather", "global"])
    idx = case.spec.materialize()[1]
    case.expect = expected_counters([
        Access("global", "ld", 4, _linear(t)), Access("global", "ld", 4, _linear(t)),
        Access("global", "st", 4, byte_offsets(t, idx[t.gx], 4))])
    return case


def nested_loops_case(rows: int = 3) -> Case:
    t = launch_threads(16, 128)
    expect = expected_counters([Access("global", "st", 4, _linear(t))], unmodeled=[("global", "ld")])
    expect[m.BYTES_GLOBAL_LD] = rows * int(np.broadcast_to((t.tx & 3) + 1, t.shape).sum()) * 4
    return _case("nested_loops", "control_flow.cu", "k_nested_loops", 16, 128,
                 [f"float32[{rows * 2048 * 4}]", "float32[2048]:zeros", f"int32:{rows}"],
                 ["divergence", "loop", "global"], expect)


def while_walk_case(cut: float, max_steps: int = 16, n: int = 4096) -> Case:
    """Linked walk through a permutation until a value below `cut`: bytes follow from the data."""
    case = _case(f"while_walk_c{cut:g}", "control_flow.cu", "k_while_walk", n // 128, 128,
                 [f"float32[{n}]", f"int32[{n}]:permutation", f"float32[{n}]:zeros",
                  f"float32:{cut}", f"int32:{max_steps}"], ["divergence", "loop", "gather", "global"])
    values, nxt = case.spec.materialize()[:2]
    steps = _walk_lengths(values, nxt, np.float32(cut), max_steps)
    t = launch_threads(n // 128, 128)
    case.expect = expected_counters([Access("global", "st", 4, _linear(t))], unmodeled=[("global", "ld")])
    case.expect[m.BYTES_GLOBAL_LD] = int(4 * (steps + 1).sum() + 4 * steps.sum())
    return case


def _walk_lengths(values: np.ndarray, nxt: np.ndarray, cut, max_steps: int) -> np.ndarray:
    pos = np.arange(len(values))
    steps = np.zeros(len(values), dtype=np.int64)
    for _ in range(max_steps):
        going = values[pos] >= cut
        pos = np.where(going, nxt[pos], pos)
        steps += going
    return steps


def sync_loop_case(rounds: int) -> Case:
    """A uniform loop with barriers: every warp runs each access `rounds` times."""
    t = launch_threads(16, 128)
    accesses = []
    for r in range(rounds):
        accesses += [Access("global", "ld", 4, byte_offsets(t, r * 2048 + t.gx, 4)),
                     Access("shared", "st", 4, byte_offsets(t, t.tx, 4)),
                     Access("shared", "ld", 4, byte_offsets(t, (t.tx + 5 * r) & 127, 4))]
    accesses.append(Access("global", "st", 4, _linear(t)))
    return _case(f"sync_loop_r{rounds}", "control_flow.cu", "k_sync_loop", 16, 128,
                 [f"float32[{rounds * 2048}]", "float32[2048]:zeros", f"int32:{rounds}"],
                 ["shared", "loop", "global"], expected_counters(accesses))


def atomic_hist_case(n: int = 4070, bins: int = 64) -> Case:
    t = launch_threads(32, 128)
    expect = expected_counters([Access("global", "ld", 4, _linear(t, active=t.gx < n))],
                               unmodeled=[("global", "atom")])
    return _case("atomic_hist", "control_flow.cu", "k_atomic_hist", 32, 128,
                 [f"int32[{n}]:randint(0,{bins})", f"uint32[{bins}]:zeros", f"int32:{n}"],
                 ["atomic", "global", "partial"], expect)


def atomic_sum_case() -> Case:
    t = launch_threads(64, 64)
    expect = expected_counters([Access("global", "ld", 4, _linear(t))], unmodeled=[("global", "atom")])
    return _case("atomic_sum", "control_flow.cu", "k_atomic_sum", 64, 64,
                 ["float32[4096]", "float32[32]:zeros"], ["atomic", "global"], expect)


def local_array_case() -> Case:
    """16 loads per thread into a local array, then two dynamically indexed local reads."""
    t = launch_threads(16, 128)
    accesses = [Access("global", "ld", 4, byte_offsets(t, t.gx * 16 + k, 4)) for k in range(16)]
    accesses += [Access("global", "ld", 4, _linear(t)), Access("global", "st", 4, _linear(t))]
    expect = expected_counters(accesses, unmodeled=[("local", "ld"), ("local", "st")])
    return _case("local_array", "control_flow.cu", "k_local_array", 16, 128,
                 ["float32[32768]", "int32[2048]:randint(0,1000)", "float32[2048]:zeros"],
                 ["local", "global"], expect)


# ---------------------------------------------------------------------------------------------
# Stores whose lanes share an address (same_address.cu): their bytes are a hypothesis

SAME_ADDRESS_TAG = "same-address"


def same_shared_store_case(ctype: str, group: int, block: int = 128, grid: int = 16) -> Case:
    """k_same_sh_st_T: lanes in groups of `group` store (and read back) one shared element."""
    t = launch_threads(grid, block)
    width, slot = width_of(ctype), t.tx // group
    accesses = [Access("global", "ld", width, byte_offsets(t, t.bx * block + slot, width)),
                Access("shared", "st", width, byte_offsets(t, slot, width)),
                Access("shared", "ld", width, byte_offsets(t, slot, width)),
                Access("global", "st", width, byte_offsets(t, t.gx, width))]
    n = grid * block
    return _case(f"same_sh_st_{ctype}_g{group}", "same_address.cu", f"k_same_sh_st_{ctype}", grid, block,
                 [buffer_arg(ctype, n), buffer_arg(ctype, n, "zeros"), f"int32:{group}"],
                 ["shared", "global", "broadcast", SAME_ADDRESS_TAG, *_type_tags(ctype)],
                 expected_counters(accesses))


def same_shared_half_case(block: int = 128, grid: int = 16) -> Case:
    """Lanes 0-15 of each warp store the warp's first word, lanes 16-31 their own."""
    t = launch_threads(grid, block)
    slot = np.where((t.tx & 31) < 16, t.tx & ~31, t.tx)
    accesses = [Access("global", "ld", 4, byte_offsets(t, t.bx * block + slot, 4)),
                Access("shared", "st", 4, byte_offsets(t, slot, 4)),
                Access("shared", "ld", 4, byte_offsets(t, slot, 4)),
                Access("global", "st", 4, byte_offsets(t, t.gx, 4))]
    return _case("same_sh_st_half", "same_address.cu", "k_same_sh_st_half", grid, block,
                 [f"float32[{grid * block}]", f"float32[{grid * block}]:zeros"],
                 ["shared", "global", "broadcast", "partial", SAME_ADDRESS_TAG], expected_counters(accesses))


def same_global_store_case(ctype: str, group: int, block: int = 128, grid: int = 16) -> Case:
    """k_same_gl_st_T: lanes in groups of `group` load and store one global element."""
    t = launch_threads(grid, block)
    width, n = width_of(ctype), grid * block
    element = byte_offsets(t, t.gx // group, width)
    accesses = [Access("global", "ld", width, element), Access("global", "st", width, element)]
    return _case(f"same_gl_st_{ctype}_g{group}", "same_address.cu", f"k_same_gl_st_{ctype}", grid, block,
                 [buffer_arg(ctype, n), buffer_arg(ctype, n, "zeros"), f"int32:{group}"],
                 ["global", "broadcast", SAME_ADDRESS_TAG, *_type_tags(ctype)], expected_counters(accesses))


def same_atomic_case(block: int = 128, grid: int = 16) -> Case:
    """Every lane atomicAdds 1 to one global and one shared counter; thread 0 writes the count.
    Only the global store is expected: the atomics' own metrics are not recorded yet."""
    t = launch_threads(grid, block)
    expect = expected_counters([Access("global", "st", 4, byte_offsets(t, t.bx, 4, t.tx == 0))],
                               unmodeled=[("global", "atom"), ("shared", "atom"), ("shared", "st"),
                                          ("shared", "ld")])
    return _case("same_atomic_add", "same_address.cu", "k_same_atomic_add", grid, block,
                 ["int32[1]:zeros", f"int32[{grid}]:zeros"],
                 ["atomic", "global", "shared", SAME_ADDRESS_TAG], expect)


def same_address_cases() -> list[Case]:
    """Probes of the store bytes rule: all lanes, half the lanes and pairs of lanes on one
    element, shared and global, 1 to 16 bytes; and atomics of all lanes on one address."""
    cases = [same_shared_store_case("float", g) for g in (32, 2)]
    cases += [same_shared_store_case("char", 32), same_shared_store_case("double", 2),
              same_shared_store_case("float4", 2, block=64), same_shared_half_case()]
    cases += [same_global_store_case(c, 2) for c in ("int", "double", "float4")]
    cases += [same_global_store_case("char", 32), same_atomic_case()]
    return cases


# ---------------------------------------------------------------------------------------------
# 16-byte shared loads (float4_loads.cu): probes of the phase rule (memsim/engine/count.py)

FLOAT4_LOAD_PROBES = ("mod4x4", "alt128", "stride128", "stride64", "stride32", "same8",
                      "halves_disjoint", "crossed", "conflict_then_broadcast", "conflict_then_free",
                      "all_same", "partial12_mod4x4", "partial8_stride64", "pairs")
SECOND_ROUND = ("overlap1", "two_broadcasts", "two_broadcasts_conflict")  # float4_more.cu
THIRD_ROUND = ("overlap2", "identical2", "superset", "subset1")             # float4_round3.cu
FOURTH_ROUND = ("superset_rev", "one_then_two", "six_then_two", "two_then_six", "three_three",
                "five_then_four")                                           # float4_round4.cu
FLOAT2_THIRD_ROUND = ("overlap1", "overlap2")
FLOAT4_STORE_PROBES = ("pairs", "all_same", "same8")


def _probe_expect(block: int, grid: int, width: int, fills: int, probe: tuple[str, str]) -> dict[str, int]:
    """What the probes' fill (`fills` contiguous shared stores of `width`) and output (one
    contiguous global store) cost; the probed family is the one left unmodeled."""
    t = launch_threads(grid, block)
    accesses = [Access("shared", "st", width, byte_offsets(t, t.tx + k * block, width)) for k in range(fills)]
    accesses.append(Access("global", "st", width, byte_offsets(t, t.gx, width)))
    return expected_counters(accesses, unmodeled=[probe])


def float4_load_case(probe: str, block: int = 64, grid: int = 8) -> Case:
    """k_f4_lds_<probe>: every warp loads one float4 per lane from a lane -> element map."""
    case = _case(f"f4_lds_{probe}", "float4_loads.cu", f"k_f4_lds_{probe}", grid, block,
                 [f"float32[{4 * grid * block}]:zeros"], ["shared", "vector", "bank-conflict", "probe"],
                 _probe_expect(block, grid, 16, 1, ("shared", "ld")))
    if probe in FOURTH_ROUND:
        return _later_round(case, "float4_more.cu", "float4_round3.cu", "float4_round4.cu")
    if probe in THIRD_ROUND:
        return _later_round(case, "float4_more.cu", "float4_round3.cu")
    return _later_round(case, "float4_more.cu") if probe in SECOND_ROUND else case


def _later_round(case: Case, *files: str) -> Case:
    """The case with later rounds' files appended to its source (the earlier rounds' recorded
    launches keep theirs)."""
    source = case.spec.source + "".join(suite_source(f) for f in files)
    return case.model_copy(update={"spec": case.spec.model_copy(update={"source": source})})


FLOAT2_LOAD_PROBES = ("same16", "alt128", "stride64", "half_same_half_free", "swapped_halves", "pairs")


def float2_load_case(probe: str, block: int = 64, grid: int = 8) -> Case:
    """k_f2_lds_<probe>: every warp loads one float2 per lane from a lane -> element map."""
    case = _case(f"f2_lds_{probe}", "float4_loads.cu", f"k_f2_lds_{probe}", grid, block,
                 [f"float32[{2 * grid * block}]:zeros"], ["shared", "vector", "bank-conflict", "probe"],
                 _probe_expect(block, grid, 8, 2, ("shared", "ld")))
    return _later_round(case, "float4_more.cu", "float4_round3.cu") if probe in FLOAT2_THIRD_ROUND else case


def float4_store_case(probe: str, block: int = 64, grid: int = 8) -> Case:
    """k_f4_sts_<probe>: every warp stores one float4 per lane to a lane -> element map."""
    t = launch_threads(grid, block)
    expect = expected_counters([Access("shared", "ld", 16, byte_offsets(t, t.tx, 16)),
                                Access("global", "st", 16, byte_offsets(t, t.gx, 16))],
                               unmodeled=[("shared", "st")])
    return _later_round(_case(f"f4_sts_{probe}", "float4_loads.cu", f"k_f4_sts_{probe}", grid, block,
                               [f"float32[{4 * grid * block}]:zeros"],
                               ["shared", "vector", "bank-conflict", "probe"], expect), "float4_more.cu")


def float4_load_cases() -> list[Case]:
    """16- and 8-byte shared loads (and 16-byte stores) over chosen lane -> element maps."""
    return ([float4_load_case(p) for p in FLOAT4_LOAD_PROBES + SECOND_ROUND + THIRD_ROUND + FOURTH_ROUND]
            + [float2_load_case(p) for p in FLOAT2_LOAD_PROBES + FLOAT2_THIRD_ROUND]
            + [float4_store_case(p) for p in FLOAT4_STORE_PROBES])


# ---------------------------------------------------------------------------------------------
# Generic addresses (generic_access.cu): LD.E / ST.E, resolving to global or shared memory

def generic_access_cases() -> list[Case]:
    """k_generic_ld/st: a pointer that lost its address space (through an integer) loads and
    stores global memory with stride `s`; k_generic_shared: `sel` 0 sends a generic load and
    store to shared memory, 1 to global, 2 by lane parity (both spaces in one instruction)."""
    n = 1 << 16
    cases = []
    for stride in (1, 2, 32):
        cases.append(_case(f"generic_ld_s{stride}", "generic_access.cu", "k_generic_ld", n // 256, 256,
                           [f"float32[{n}]:zeros", f"float32[{n * stride}]", "uint64:0", f"int32:{stride}"],
                           ["generic", "global", "probe"]))
        cases.append(_case(f"generic_st_s{stride}", "generic_access.cu", "k_generic_st", n // 256, 256,
                           [f"float32[{n * stride}]:zeros", f"float32[{n}]", "uint64:0", f"int32:{stride}"],
                           ["generic", "global", "probe"]))
    for sel in (0, 1, 2):
        for stride in (1, 2, 33):
            # sel 2 splits one instruction between the spaces: the PTX engine refuses that, in one line
            tags = ["generic", "shared", "bank-conflict", "probe"] + (["mixed-spaces"] if sel == 2 else [])
            cases.append(_case(f"generic_shared_sel{sel}_s{stride}", "generic_access.cu", "k_generic_shared", 64,
                               256, [f"float32[{64 * 256}]:zeros", "float32[2048]", f"int32:{sel}", f"int32:{stride}"],
                               tags))
    return cases

