"""The pre-registered sets (validate/prereg_cases.py, prereg2_cases.py ... prereg16_cases.py): well-formed tables
of public kernels with their provenance, all held out of every fit. Nothing here simulates a
launch (CI's time): the launches are checked by running them (see the module docstring of
validate.prereg_cases)."""
from __future__ import annotations

import collections
import functools
import hashlib
import json
import re

import pytest

from memsim.compiler.nvrtc import compile_cuda
from tests.helpers.recorded import ran_on_the_gpu
from validate import families as fa
from validate import prereg2_cases as p2
from validate import prereg3_cases as p3
from validate import prereg4_cases as p4
from validate import prereg5_cases as p5
from validate import prereg6_cases as p6
from validate import prereg7_cases as p7
from validate import prereg8_cases as p8
from validate import prereg9_cases as p9
from validate import prereg10_cases as p10
from validate import prereg11_cases as p11
from validate import prereg12_cases as p12
from validate import prereg13_cases as p13
from validate import prereg14_cases as p14
from validate import prereg15_cases as p15
from validate import prereg16_cases as p16
from validate import prereg_cases as pc
from validate.case import NAME_PATTERN
from validate.cli import select_cases
from validate.corpus_cases import launch_problems

# The only repositories each set copies from: an allow-list, so that no other source (a reserved
# suite, or the corpus's) can slip in.
SOURCES = {"prereg": ("vetter/shoc", "zjin-lcf/HeCBench", "siboehm/SGEMM_CUDA", "gpu-mode/lectures"),
           "prereg2": ("NVIDIA-developer-blog/code-samples", "ArchaeaSoftware/cudahandbook",
                       "Kobzol/hardware-effects-gpu", "abduld/Parboil"),
           "prereg3": ("Liu-xiandong/How_to_optimize_in_GPU", "leimao/CUDA-GEMM-Optimization",
                       "Bruce-Lee-LY/cuda_hgemv", "moocf/histogram.cuda"),
           "prereg4": ("PacktPublishing/Learn-CUDA-Programming", "tgautam03/xGeMM", "Maharshi-Pandya/cudacodes"),
           "prereg5": ("ParRes/Kernels", "lzhengchun/matrix-cuda", "KernelTuner/kernel_tuner"),
           "prereg6": ("LLNL/RAJAPerf",), "prereg7": ("ggml-org/ggml", "turboderp-org/exllamav2"),
           "prereg8": ("huggingface/candle",), "prereg9": ("arrayfire/arrayfire",), "prereg10": ("BVLC/caffe", "b0nes164/GPUPrefixSums", "b0nes164/GPUSorting", "viennacl/viennacl-dev"),
           "prereg11": ("microsoft/DeepSpeed", "cupy/cupy", "opencv/opencv_contrib"),
           "prereg12": ("open-mmlab/mmcv", "pjreddie/darknet"),
           "prereg13": ("facebookresearch/pytorch3d", "kaldi-asr/kaldi"),
           "prereg14": ("NVIDIA/TensorRT", "apache/mxnet"),
           "prereg15": ("vllm-project/vllm", "facebookresearch/detectron2"),
           "prereg16": ("NVIDIA/FasterTransformer", "NVIDIA/apex")}
SETS = {"prereg": pc.PREREG, "prereg2": p2.PREREG2, "prereg3": p3.PREREG3, "prereg4": p4.PREREG4,
        "prereg5": p5.PREREG5, "prereg6": p6.PREREG6, "prereg7": p7.PREREG7, "prereg8": p8.PREREG8, "prereg9": p9.PREREG9,
        "prereg10": p10.PREREG10, "prereg11": p11.PREREG11, "prereg12": p12.PREREG12, "prereg13": p13.PREREG13, "prereg14": p14.PREREG14,
        "prereg15": p15.PREREG15, "prereg16": p16.PREREG16}
LICENCE = {"prereg": r"Licence: (MIT|BSD|Apache)", "prereg2": r"Licence: (MIT|BSD|Apache|NCSA)",
           "prereg3": r"Licence: (MIT|BSD|Apache|NCSA)", "prereg4": r"Licence: (MIT|BSD|Apache)",
           "prereg5": r"Licence: (MIT|BSD|Apache)", "prereg6": r"Licence: (MIT|BSD|Apache)",
           "prereg7": r"Licence: (MIT|BSD|Apache)", "prereg8": r"Licence: (MIT|BSD|Apache)",
           "prereg9": r"Licence: (MIT|BSD|Apache)", "prereg10": r"Licence: (MIT|BSD|Apache)", "prereg11": r"Licence: (MIT|BSD|Apache)",
           "prereg12": r"Licence: (MIT|BSD|Apache|public domain)",
           "prereg13": r"Licence: (MIT|BSD|Apache)",
           "prereg14": r"Licence: (MIT|BSD|Apache)",
           "prereg15": r"Licence: (MIT|BSD|Apache)",
           "prereg16": r"Licence: (MIT|BSD|Apache)"}


@functools.lru_cache(maxsize=None)
def cases_of(name: str):
    return SETS[name].cases()


def files_of(name: str) -> list[str]:
    return sorted({row[1] for row in SETS[name].launches})


FILES = [(name, f) for name in SETS for f in files_of(name)]


@pytest.mark.parametrize("name", SETS)
def test_the_table_is_well_formed(name):
    pset = SETS[name]
    names = [row[0] for row in pset.launches]
    assert len(names) >= {"prereg": 60, "prereg2": 70, "prereg4": 60, "prereg5": 60, "prereg6": 60, "prereg7": 60, "prereg8": 60, "prereg9": 60, "prereg10": 60, "prereg11": 40, "prereg12": 40, "prereg13": 40, "prereg14": 40, "prereg15": 40, "prereg16": 40}.get(name, 40)
    assert not [n for n, k in collections.Counter(names).items() if k > 1]
    assert all(NAME_PATTERN.match(n) for n in names)
    assert all(len(row) in (7, 8) and isinstance(row[6], list) for row in pset.launches)
    assert {c.name for _, c in select_cases(name, "*", None, None)} == set(names)
    assert sorted(p.name for p in pset.folder.glob("*.cu")) == files_of(name)   # no file left unlaunched


@pytest.mark.parametrize("one,other", [(a, b) for a in SETS for b in SETS if a < b])
def test_the_sets_share_no_case_name_or_file(one, other):
    assert not {c.name for c in cases_of(one)} & {c.name for c in cases_of(other)}
    assert not set(files_of(one)) & set(files_of(other))
    assert not set(SOURCES[one]) & set(SOURCES[other])


@pytest.mark.parametrize("name,filename", FILES)
def test_each_file_names_its_public_source(name, filename):
    path = SETS[name].folder / filename
    assert path.exists()
    head = path.read_text().split("\n\n", 1)[0]
    assert SETS[name].suite_of(filename) in head
    assert re.search(r"commit [0-9a-f]{40}", head)
    assert re.search(LICENCE[name], head)
    assert "Edits" in head


@pytest.mark.parametrize("name", SETS)
def test_registered_launches_never_change(name):
    """Pre-registration: a launch once registered (<set folder>/registered.json) keeps its exact
    source, shape and arguments; new launches are registered with `python -m validate.<set>_cases`."""
    registered = json.loads(SETS[name].registered.read_text())
    digests = {c.name: pc.launch_digest(c) for c in cases_of(name)}
    assert not sorted(set(digests) - set(registered)), "unregistered launches"
    assert not [n for n in registered if n in digests and digests[n] != registered[n]]


@pytest.mark.parametrize("name", SETS)
def test_every_file_comes_from_an_allowed_repository(name):
    origin = re.compile(r"^// Pre-registered public kernel \(not written for memsim\): (\S+)$", re.M)
    heads = {f: origin.search((SETS[name].folder / f).read_text().split("\n\n", 1)[0]) for f in files_of(name)}
    assert not [f for f, found in heads.items() if found is None or found.group(1) not in SOURCES[name]]
    assert set(SETS[name].suites.values()) <= set(SOURCES[name])


# The suites reserved for measurement this project does not see, as SHA-256 digests of their
# lower-case names (word, or hyphen-joined words), so that this test names none of them either.
RESERVED = {"c133ac9dfffc03eb253ed4af02f2a4cfd3299d12efc308970a304b97c92c35bf",
            "3089f08edadde306095f8058c3476657981f2b896e16b4d1790eb3000d213721"}
RESERVED_TRIPLE = "2630d7946a2e4f5bd5fc6937baf65b1306b75ddf87af69461a7a2bc9019ad681"


def _names_a_reserved_suite(text: str) -> bool:
    words = re.findall(r"[a-z0-9]+", text.lower())
    triples = ("-".join(words[i:i + 3]) for i in range(len(words) - 2))
    return any(hashlib.sha256(w.encode()).hexdigest() in RESERVED for w in words) or \
        any(hashlib.sha256(t.encode()).hexdigest() == RESERVED_TRIPLE for t in triples)


@pytest.mark.parametrize("name", ["prereg2", "prereg3", "prereg4", "prereg5", "prereg6", "prereg7", "prereg8", "prereg9", "prereg10", "prereg11", "prereg12", "prereg13", "prereg14", "prereg15", "prereg16"])
def test_no_file_names_a_reserved_suite(name):
    texts = {f: (SETS[name].folder / f).read_text() for f in files_of(name)}
    texts |= {p.name: p.read_text() for p in SETS[name].folder.glob("*.md")}
    assert not [f for f, text in texts.items() if _names_a_reserved_suite(text)]
    assert _names_a_reserved_suite("ported from " + "Rodi" + "nia's kernels")   # the check can fail


@pytest.mark.parametrize("name", SETS)
def test_every_case_is_held_out_of_every_fit(name):
    families = {fa.family_of(name, c.spec.kernel, c.tags) for c in cases_of(name)}
    assert all(fa.is_held_out(f) for f in families)
    assert len(families) >= 20
    with pytest.raises(fa.HeldOutError):
        fa.check_not_held_out(sorted(families)[:1])


@pytest.mark.parametrize("name", SETS)
def test_each_sweep_varies_only_the_launch(name):
    sweeps = collections.defaultdict(list)
    for case in cases_of(name):
        for tag in case.tags:
            if tag.startswith("sweep:"):
                sweeps[tag].append(case)
    assert len(sweeps) >= {"prereg3": 5}.get(name, 6)
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
def compiled_ptx(name: str, filename: str) -> str:
    return compile_cuda(SETS[name].source(filename), options=SETS[name].options).ptx   # the set's NVRTC options


SLOW_TO_COMPILE = {"shoc_maxflops.cu",   # ~20 s of NVRTC (fully unrolled FMA chains)
                   "trt_bert.cu"}        # ~50 s (cub's block reductions): both checked when run


def _ran_on_the_gpu(name: str, filename: str) -> bool:
    return ran_on_the_gpu(name, [c for c in cases_of(name) if f"file:{filename.removesuffix('.cu')}" in c.tags])


BEING_BUILT = [(n, f) for n, f in FILES if f not in SLOW_TO_COMPILE and not _ran_on_the_gpu(n, f)]


def test_the_compile_check_leaves_out_only_files_the_gpu_ran():
    left_out = [(n, f) for n, f in FILES if (n, f) not in BEING_BUILT and f not in SLOW_TO_COMPILE]
    assert all(_ran_on_the_gpu(n, f) for n, f in left_out) and len(left_out) >= 200


@pytest.mark.parametrize("name,filename", BEING_BUILT or [pytest.param(None, None, marks=pytest.mark.skip(
    reason="every file's launches ran on the GPU as specified"))])
def test_each_launch_fits_its_kernel(name, filename):
    """Argument count and widths against the kernel's parameters (NVRTC only, no simulation),
    for the files of a set being built: a file whose every launch the H100 ran as specified
    (same spec digest) needs no compile-only check."""
    ptx = compiled_ptx(name, filename)
    for case in cases_of(name):
        if f"file:{filename.removesuffix('.cu')}" in case.tags:
            assert not launch_problems(case, ptx), case.name


@pytest.mark.parametrize("name", SETS)
def test_a_sets_compile_options_reach_each_launch_and_its_digest(name):
    """A set's NVRTC options (prereg9: ArrayFire's --device-as-default-execution-space) are each
    launch's, and a launch compiled without them is another launch (its digest moves)."""
    pset = SETS[name]
    cases = cases_of(name)
    assert all(c.spec.options == pset.options for c in cases)
    plain = cases[0].model_copy(update={"spec": cases[0].spec.model_copy(update={"options": ("-lineinfo",)})})
    assert pc.launch_digest(plain) != pc.launch_digest(cases[0])
