"""The fuzz set: random kernels that exercise the counter rules in combinations nobody wrote by
hand (the grammar: validate/fuzz_programs.py).

    from validate.fuzz_cases import generate
    cases = generate(200, seed=1)          # fuzz_s1_0000 ... fuzz_s1_0199, tagged "fuzz"

validate/fuzz2_cases.py is the second set: the same kernels plus shuffles, votes, atomics,
doubles and local arrays.
"""
from __future__ import annotations

import numpy as np

from .case import Case, width_of
from .fuzz_programs import Program, draw, fit_buffers, shared_stage


def program(seed: int, i: int) -> Program:
    """Program i of `seed`: drawn from its own generator, so it does not depend on the others."""
    rng = np.random.default_rng([seed, i])
    prog, g = draw(rng, f"fuzz_s{seed}_{i:04d}", Program)
    if g.chance(0.4):
        prog.shared = shared_stage(g, width_of(prog.ctype))
    fit_buffers(prog, g)
    return prog


def programs(n: int, seed: int) -> list[Program]:
    return [program(seed, i) for i in range(n)]


def generate(n: int, seed: int) -> list[Case]:
    """`n` random kernel launches, the same for the same seed (case i depends on seed and i only)."""
    return [p.case() for p in programs(n, seed)]
