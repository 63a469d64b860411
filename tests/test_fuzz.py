"""The random kernel fuzzer: deterministic, varied, compilable, and never out of bounds."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from memsim.compile import compile_cuda
from memsim.launch import parse_dtype
from validate import fuzz
from validate.cases import C_TYPES, unmet_expectations, width_of

SEED = 11


@functools.lru_cache(maxsize=None)
def cases(n: int = 200, seed: int = SEED):
    return fuzz.generate(n, seed)


@functools.lru_cache(maxsize=None)
def programs(n: int = 200, seed: int = SEED):
    return fuzz.programs(n, seed)


def test_same_seed_same_cases():
    again = fuzz.generate(30, SEED)
    assert [c.model_dump() for c in again] == [c.model_dump() for c in cases()[:30]]


def test_case_depends_only_on_seed_and_index():
    assert fuzz.generate(3, SEED)[2].spec.source == cases()[2].spec.source


def test_seeds_differ():
    def bodies(seed):
        return [re.sub(r"k_fuzz_s\d+_", "", c.spec.source) for c in fuzz.generate(20, seed)]
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
    assert {p.ctype for p in progs} == set(fuzz.TYPES)
    assert any(p.block[1] > 1 for p in progs) and any(p.block[1] == 1 for p in progs)
    assert any((p.block[0] * p.block[1]) % 32 for p in progs)  # partial warps
    assert any(p.guard is not None for p in progs) and any(p.guard is None for p in progs)
    assert any(isinstance(p.trip, fuzz.Const) for p in progs)
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
        assert declared * width_of(prog.ctype) <= fuzz.MAX_SHARED_BYTES
        for index_expr in prog.shared:
            values = np.asarray(index_expr.values(env))
            assert values.min() >= 0 and values.max() < declared
        writes = np.broadcast_to(prog.shared[0].values(env), active.shape)[0]
        assert len(np.unique(writes)) == len(writes)


def test_launches_are_small():
    for case in cases():
        threads = np.prod(case.spec.grid) * np.prod(case.spec.block)
        assert threads <= fuzz.MAX_THREADS
        assert all(a.count * np.dtype(a.dtype).itemsize <= fuzz.MAX_BUFFER_BYTES
                   for a in case.spec.args if a.is_buffer)


def test_index_overflow_is_refused():
    big = fuzz.Op("*", fuzz.Const(1 << 20), fuzz.Var("gid"))
    with pytest.raises(OverflowError):
        big.values({"gid": np.arange(4096)})


def test_c_and_numpy_agree_on_operator_meaning():
    expr = fuzz.Op("^", fuzz.Op("/", fuzz.Var("gid"), fuzz.Const(3)), fuzz.Op("%", fuzz.Var("tx"), fuzz.Const(7)))
    assert expr.c() == "((gid / 3) ^ (tx % 7))"
    gid, tx = np.arange(100), np.arange(100) % 32
    assert (expr.values({"gid": gid, "tx": tx}) == [(g // 3) ^ (t % 7) for g, t in zip(gid, tx)]).all()


def test_most_cases_carry_expectations():
    assert sum(len(c.expect) >= 10 for c in cases()) >= len(cases()) // 2


@pytest.mark.parametrize("index", range(0, 200, 4))
def test_simulator_meets_expectations(index):
    simulate_spec = pytest.importorskip("memsim.simulate").simulate_spec
    case = cases()[index]
    report, _ = simulate_spec(case.spec)  # a MemoryFault would be an out-of-bounds index
    assert not unmet_expectations(case, report.metrics), case.name
