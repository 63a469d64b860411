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


def output_code_files() -> list[Path]:
    return sorted(FOLDER.glob("*.py"))


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
    return cases
