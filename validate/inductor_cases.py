"""The inductor set: every Triton launch of the Inductor output code under validate/inductor/
(gpu/inductor_functions.py: softmax, layer norm, GELU(x @ W + b)'s bias + GELU, a column sum
split in two kernels, residual add + RMSNorm, an embedding gather, a transpose copy),
compiled and launched as Inductor does (memsim.triton's Inductor runner; needs torch there and
here), recorded on the H100.

    bash gpu/measure_on_device.sh inductor    # on the GPU machine: writes the output code there
                                             # (torch 2.11, Triton 3.6.0), then records its launches
    validate run --cases inductor            # here, with the recording and the files committed

A case is one launch: `ind_<function>_<position in the graph>`, its buffers made afresh at the
sizes Inductor passed (floats random, integers zero, as the file's get_args() makes inputs).
Extern kernels (cuBLAS's mm) are not cases. Tags carry the kernel's name and `sass:` (the digest
of its code section, validate.triton_cases.code_digest): equal there and here, the same compile.
"""
from __future__ import annotations

from pathlib import Path

from .case import Case

FOLDER = Path(__file__).parent / "inductor"


DEFAULTS = FOLDER / "defaults"   # the same functions with Inductor's own config choices


def output_code_files(folder: Path = FOLDER) -> list[Path]:
    return sorted(folder.glob("*.py"))


def inductor_cases() -> list[Case]:
    """The launches of every file as cases (set `inductor`)."""
    from memsim.triton import run_output_code

    from .triton_cases import code_digest

    cases = []
    for path in output_code_files():
        for one in run_output_code(str(path), simulate=False).launches:
            if one.extern:
                continue
            tags = ["inductor", "triton", f"function:{path.stem}", f"kernel:{one.kernel}",
                    f"sass:{code_digest(one.spec.source, one.spec.kernel)}"]
            cases.append(Case(name=f"ind_{path.stem}_{one.index}", spec=one.spec, tags=tags))
    return cases + config_cases()


def config_cases() -> list[Case]:
    """Every config of each kernel that has several under Inductor's defaults
    (validate/inductor/defaults/: Inductor times them on the GPU, memsim predicts): one case
    each, `indc_<function>_<position>_<k>`, k in the heuristics' order."""
    from memsim.triton import run_output_code

    from .triton_cases import code_digest

    cases = []
    for path in output_code_files(DEFAULTS):
        for one in run_output_code(str(path), simulate=False).launches:
            for k, config in enumerate(one.candidates):
                tags = ["inductor", "triton", "config", f"function:{path.stem}", f"kernel:{one.kernel}",
                        "config:" + ",".join(f"{n}={v}" for n, v in config.constexprs.items()) +
                        f",warps={config.num_warps},stages={config.num_stages}",
                        f"sass:{code_digest(config.spec.source, config.spec.kernel)}"]
                cases.append(Case(name=f"indc_{path.stem}_{one.index}_{k}", spec=config.spec, tags=tags))
    return cases
