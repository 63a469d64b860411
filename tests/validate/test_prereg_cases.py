"""The pre-registered set (validate/prereg_cases.py): a well-formed table of public kernels with
their provenance, all held out of every fit. Nothing here simulates a launch (CI's time): the
launches are checked by running them (see the module docstring of validate.prereg_cases)."""
from __future__ import annotations

import collections
import functools
import json
import re

import pytest

from memsim.compiler.nvrtc import compile_cuda
from validate import families as fa
from validate import prereg_cases as pc
from validate.case import NAME_PATTERN
from validate.cli import select_cases
from validate.corpus_cases import launch_problems

CASES = pc.prereg_cases()
FILES = sorted({row[1] for row in pc.LAUNCHES})


def test_the_table_is_well_formed():
    names = [row[0] for row in pc.LAUNCHES]
    assert len(names) >= 60
    assert not [n for n, k in collections.Counter(names).items() if k > 1]
    assert all(NAME_PATTERN.match(n) for n in names)
    assert all(len(row) in (7, 8) and isinstance(row[6], list) for row in pc.LAUNCHES)
    assert {c.name for _, c in select_cases("prereg", "*", None, None)} == set(names)
    assert sorted(p.name for p in pc.PREREG_DIR.glob("*.cu")) == FILES   # no file left unlaunched


@pytest.mark.parametrize("filename", FILES)
def test_each_file_names_its_public_source(filename):
    path = pc.PREREG_DIR / filename
    assert path.exists()
    head = path.read_text().split("\n\n", 1)[0]
    repo = pc.suite_of(filename)
    assert repo in head
    assert re.search(r"commit [0-9a-f]{40}", head)
    assert re.search(r"Licence: (MIT|BSD|Apache)", head)
    assert "Edits" in head


def test_registered_launches_never_change():
    """Pre-registration: a launch once registered (validate/prereg/registered.json) keeps its exact
    source, shape and arguments; new launches are registered with `python -m validate.prereg_cases`."""
    registered = json.loads(pc.REGISTERED.read_text())
    digests = {c.name: pc.launch_digest(c) for c in CASES}
    assert not sorted(set(digests) - set(registered)), "unregistered launches"
    assert not [n for n in registered if n in digests and digests[n] != registered[n]]


# The only repositories the set copies from: an allow-list, so that no other source (a reserved
# suite, or the corpus's) can slip in.
SOURCES = ("vetter/shoc", "zjin-lcf/HeCBench", "siboehm/SGEMM_CUDA", "gpu-mode/lectures")


def test_every_file_comes_from_an_allowed_repository():
    origin = re.compile(r"^// Pre-registered public kernel \(not written for memsim\): (\S+)$", re.M)
    heads = {f: origin.search((pc.PREREG_DIR / f).read_text().split("\n\n", 1)[0]) for f in FILES}
    assert not [f for f, found in heads.items() if found is None or found.group(1) not in SOURCES]


def test_every_case_is_held_out_of_every_fit():
    families = {fa.family_of("prereg", c.spec.kernel, c.tags) for c in CASES}
    assert all(fa.is_held_out(f) for f in families)
    assert len(families) >= 20
    with pytest.raises(fa.HeldOutError):
        fa.check_not_held_out(sorted(families)[:1])


def test_each_sweep_varies_only_the_launch():
    sweeps = collections.defaultdict(list)
    for case in CASES:
        for tag in case.tags:
            if tag.startswith("sweep:"):
                sweeps[tag].append(case)
    assert len(sweeps) >= 6
    for tag, members in sweeps.items():
        assert len(members) >= 5, tag
        assert len({c.spec.kernel for c in members}) == 1, tag
        by_problem = collections.defaultdict(set)
        for c in members:
            by_problem[tuple(str(a) for a in c.spec.args)].add(c.spec.block)
        # within one problem size, the blocks differ and nothing but the launch does
        assert all(len(blocks) >= 2 for blocks in by_problem.values()), tag
        assert max(len(b) for b in by_problem.values()) >= 5, tag


@functools.lru_cache(maxsize=None)
def compiled_ptx(filename: str) -> str:
    return compile_cuda(pc.prereg_source(filename)).ptx


SLOW_TO_COMPILE = {"shoc_maxflops.cu"}   # ~20 s of NVRTC (fully unrolled FMA chains): checked when run


@pytest.mark.parametrize("filename", sorted(set(FILES) - SLOW_TO_COMPILE))
def test_each_launch_fits_its_kernel(filename):
    """Argument count and widths against the kernel's parameters (NVRTC only, no simulation)."""
    ptx = compiled_ptx(filename)
    for case in CASES:
        if f"file:{filename.removesuffix('.cu')}" in case.tags:
            assert not launch_problems(case, ptx), case.name
