"""The random kernel fuzzer: deterministic, varied, compilable, and never out of bounds."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from memsim.compiler.nvrtc import compile_cuda
from memsim.launch import parse_dtype
from validate import fuzz2_cases, fuzz_cases, fuzz_programs
from validate.case import C_TYPES, unmet_expectations, width_of
from validate.fuzz_expressions import Const, Op, Var

SEED = 11


@functools.lru_cache(maxsize=None)
def cases(n: int = 200, seed: int = SEED):
    return fuzz_cases.generate(n, seed)


@functools.lru_cache(maxsize=None)
def programs(n: int = 200, seed: int = SEED):
    return fuzz_cases.programs(n, seed)


def test_same_seed_same_cases():
    again = fuzz_cases.generate(30, SEED)
    assert [c.model_dump() for c in again] == [c.model_dump() for c in cases()[:30]]


def test_case_depends_only_on_seed_and_index():
    assert fuzz_cases.generate(3, SEED)[2].spec.source == cases()[2].spec.source


def test_seeds_differ():
    def bodies(seed):
        return [re.sub(r"k_fuzz_s\d+_", "", c.spec.source) for c in fuzz_cases.generate(20, seed)]
    assert bodies(SEED) != bodies(SEED + 1)
    assert len(set(bodies(SEED))) == 20


def test_names_tags_and_kernels():
    for i, case in enumerate(cases()):
        assert case.name == f"fuzz_s{SEED}_{i:04d}"
        assert case.spec.kernel == f"k_{case.name}"
        assert "fuzz" in case.tags


@pytest.mark.parametrize("index", range(0, 200, 5))
def test_source_compiles(index):
    case = cases()[index]
    ptx = compile_cuda(case.spec.source).ptx
    assert f".entry {case.spec.kernel}(" in ptx


def test_grammar_covers_the_rules():
    progs, sources = programs(), [c.spec.source for c in cases()]
    assert {p.ctype for p in progs} == set(fuzz_programs.TYPES)
    assert any(p.block[1] > 1 for p in progs) and any(p.block[1] == 1 for p in progs)
    assert any((p.block[0] * p.block[1]) % 32 for p in progs)  # partial warps
    assert any(p.guard is not None for p in progs) and any(p.guard is None for p in progs)
    assert any(isinstance(p.trip, Const) for p in progs)
    assert any(p.trip is not None and "tx" in p.trip.c() for p in progs)  # lane-dependent trips
    assert any(p.shared is not None for p in progs)
    for operator in (" % ", " / ", " ^ ", " & ", "__syncthreads"):
        assert any(operator in s for s in sources), operator


def _buffer_elements(arg, ctype: str) -> int:
    return arg.count // C_TYPES[ctype][1]


@pytest.mark.parametrize("index", range(200))
def test_accesses_stay_in_bounds(index):
    prog, case = programs()[index], cases()[index]
    env = prog.env(prog.threads)
    active = prog.active(env)
    in_arg, out_arg = case.spec.args[:2]
    assert parse_dtype(in_arg.dtype) == np.dtype(C_TYPES[prog.ctype][0])
    for idx, on in prog.load_indices(env):
        assert idx[on].min(initial=0) >= 0 and idx[on].max(initial=0) < _buffer_elements(in_arg, prog.ctype)
    store = np.broadcast_to(prog.store.values(env), active.shape)[active]
    assert store.min() >= 0 and store.max() < _buffer_elements(out_arg, prog.ctype)
    assert len(np.unique(store)) == len(store)  # one writer per element: results are deterministic
    if prog.shared is not None:
        declared = int(re.search(r"__shared__ \w+ s\[(\d+)\];", case.spec.source).group(1))
        assert declared * width_of(prog.ctype) <= fuzz_programs.MAX_SHARED_BYTES
        for index_expr in prog.shared:
            values = np.asarray(index_expr.values(env))
            assert values.min() >= 0 and values.max() < declared
        writes = np.broadcast_to(prog.shared[0].values(env), active.shape)[0]
        assert len(np.unique(writes)) == len(writes)


def test_launches_are_small():
    for case in cases():
        threads = np.prod(case.spec.grid) * np.prod(case.spec.block)
        assert threads <= fuzz_programs.MAX_THREADS
        assert all(a.count * np.dtype(a.dtype).itemsize <= fuzz_programs.MAX_BUFFER_BYTES
                   for a in case.spec.args if a.is_buffer)


def test_index_overflow_is_refused():
    big = Op("*", Const(1 << 20), Var("gid"))
    with pytest.raises(OverflowError):
        big.values({"gid": np.arange(4096)})


def test_c_and_numpy_agree_on_operator_meaning():
    expr = Op("^", Op("/", Var("gid"), Const(3)), Op("%", Var("tx"), Const(7)))
    assert expr.c() == "((gid / 3) ^ (tx % 7))"
    gid, tx = np.arange(100), np.arange(100) % 32
    assert (expr.values({"gid": gid, "tx": tx}) == [(g // 3) ^ (t % 7) for g, t in zip(gid, tx)]).all()


def test_most_cases_carry_expectations():
    assert sum(len(c.expect) >= 10 for c in cases()) >= len(cases()) // 2


@pytest.mark.parametrize("index", range(0, 200, 4))
def test_simulator_meets_expectations(index):
    simulate_spec = pytest.importorskip("memsim.engine.simulation").simulate_spec
    case = cases()[index]
    report, _ = simulate_spec(case.spec)  # a MemoryFault would be an out-of-bounds index
    assert not unmet_expectations(case, report.metrics), case.name


# ---------------------------------------------------------------------------------------------
# fuzz2: warp shuffles and votes, atomics, double arithmetic, local arrays

@functools.lru_cache(maxsize=None)
def cases2():
    return fuzz2_cases.generate2()


@functools.lru_cache(maxsize=None)
def programs2():
    return fuzz2_cases.programs2()


def test_fuzz2_is_its_own_deterministic_set():
    assert len(cases2()) == fuzz2_cases.FUZZ2_N == 150
    assert [c.model_dump() for c in fuzz2_cases.generate2(10)] == [c.model_dump() for c in cases2()[:10]]
    for i, case in enumerate(cases2()):
        assert case.name == f"fuzz2_s{fuzz2_cases.FUZZ2_SEED}_{i:04d}"
        assert case.spec.kernel == f"k_{case.name}" and "fuzz2" in case.tags
    names = {c.name for c in cases()} | {c.name for c in fuzz_cases.generate(200, 0)}
    assert not names & {c.name for c in cases2()}


def test_fuzz2_covers_the_features():
    sources = "\n".join(c.spec.source for c in cases2())
    for needle in ("__shfl_sync(", "__shfl_down_sync(", "__shfl_xor_sync(", "__shfl_up_sync(",
                   "__shfl_xor_sync(0xffffu", "__ballot_sync(", "__any_sync(", "__all_sync(",
                   "__activemask()", "__popc(__ballot_sync", "atomicAdd(&ia", "atomicAdd(&fa",
                   "atomicAdd(&da", "atomicAdd(&sa", "atomicAdd(&sf", "atomicMax(", "atomicCAS(",
                   "atomicExch(", "(double)gid", "(float)dd", "(int)(de", " loc[", "__syncthreads"):
        assert needle in sources, needle
    features = {f for p in programs2() for f in p.features}
    assert features == {"shuffle", "vote", "warp", "partial-mask", "atomic", "double", "local"}
    # shuffles and votes feed load indices in some kernels, only where blocks are whole warps
    lets = [p for p in programs2() if p.lets]
    assert len(lets) >= 20
    assert all((p.block[0] * p.block[1]) % 32 == 0 for p in programs2() if p.lets or p.top)
    assert any((p.block[0] * p.block[1]) % 32 for p in programs2())  # partial warps still occur


@pytest.mark.parametrize("index", range(0, 150, 10))
def test_fuzz2_source_compiles(index):
    """A sample here; tests/validate/test_fuzz.py::test_fuzz2_every_source_compiles does all 150."""
    case = cases2()[index]
    assert f".entry {case.spec.kernel}(" in compile_cuda(case.spec.source).ptx


def test_fuzz2_every_source_compiles(launch_cache):
    for case in cases2():
        assert f".entry {case.spec.kernel}(" in compile_cuda(case.spec.source).ptx, case.name


@pytest.mark.parametrize("index", range(150))
def test_fuzz2_accesses_stay_in_bounds(index):
    prog, case = programs2()[index], cases2()[index]
    env = prog.env(prog.threads)
    in_arg, out_arg = case.spec.args[:2]
    for idx, on in prog.load_indices(env):
        assert idx[on].min(initial=0) >= 0 and idx[on].max(initial=0) < _buffer_elements(in_arg, prog.ctype)
    active = prog.active(env)
    store = np.broadcast_to(prog.store.values(env), active.shape)[active]
    assert len(np.unique(store)) == len(store) and store.max() < _buffer_elements(out_arg, prog.ctype)
    aux, ia, fa, da = case.spec.args[3:]
    assert aux.count == np.prod(case.spec.grid) * np.prod(case.spec.block)
    for atomic in prog.atomics:
        if atomic.space == "global":
            size = {"add_float": fa, "add_double": da}.get(atomic.kind, ia).count
            assert atomic.offset + atomic.size <= size
    regions = sorted((a.offset, a.offset + a.size) for a in prog.atomics
                     if a.space == "global" and a.kind not in ("add_float", "add_double"))
    assert all(a[1] <= b[0] for a, b in zip(regions, regions[1:]))  # one region per statement


@pytest.mark.parametrize("index", range(0, 150, 3))
def test_fuzz2_simulator_meets_expectations(index):
    simulate_spec = pytest.importorskip("memsim.engine.simulation").simulate_spec
    case = cases2()[index]
    report, _ = simulate_spec(case.spec)
    assert not unmet_expectations(case, report.metrics), case.name


WARP_EXPRS = [
    fuzz2_cases.Shfl("xor", Var("gid"), 5), fuzz2_cases.Shfl("xor", Var("lt"), 31),
    fuzz2_cases.Shfl("sync", Var("gid"), 7), fuzz2_cases.Shfl("sync", Var("gid"), 3, 8),
    fuzz2_cases.Shfl("sync", Var("lt"), 31, 16),
    fuzz2_cases.Shfl("up", Var("gid"), 3), fuzz2_cases.Shfl("up", Var("gid"), 7, 8),
    fuzz2_cases.Shfl("down", Var("gid"), 16), fuzz2_cases.Shfl("down", Var("gid"), 4, 16),
    fuzz2_cases.Shfl("down", Var("lt"), 31),
    fuzz2_cases.Vote("popc", Op("%", Var("gid"), Const(7)), Const(2)),
    fuzz2_cases.Vote("any", Op("%", Var("gid"), Const(64)), Const(1)),
    fuzz2_cases.Vote("all", Op("%", Var("gid"), Const(2)), Const(2)),
    fuzz2_cases.Vote("all", Op("%", Var("gid"), Const(3)), Const(2)),
]


@pytest.mark.parametrize("expr", WARP_EXPRS, ids=lambda e: e.c())
def test_shuffle_and_vote_values_match_the_emulator(expr):
    """What the generator assumes of a shuffle or vote is what memsim's PTX emulator computes."""
    memsim = pytest.importorskip("memsim")
    block, grid = (32, 4), (3, 1)
    source = ('extern "C" __global__ void k_w(int* out) {\n'
              "  const int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x, by = blockIdx.y;\n"
              "  const int lt = ty * blockDim.x + tx;\n"
              "  const int gid = (by * gridDim.x + bx) * (blockDim.x * blockDim.y) + lt;\n"
              f"  out[gid] = {expr.c()};\n}}\n")
    out = np.zeros(3 * 128, np.int32)
    memsim.simulate(source, "k_w", grid, block, [out])
    prog = fuzz2_cases.Program2(name="w", ctype="int", block=block, grid=grid, guard=None, loads=[], store=Var("gid"))
    env = prog.env(prog.threads)
    expected = np.broadcast_to(expr.values(env), env["gid"].shape)
    gid = np.broadcast_to(env["gid"], expected.shape)
    np.testing.assert_array_equal(out[gid.ravel()], expected.ravel())
