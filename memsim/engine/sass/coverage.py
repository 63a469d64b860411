"""`memsim coverage`: which SASS instructions of a module's kernels the SASS engine cannot run.

Per kernel of the cubin NVRTC makes (the same compile as the SASS engine's), every instruction
of the kernel and of the device functions it calls that lowering (memsim.engine.sass.program)
rejects, with its source line and listing text; a kernel with none is "ok". Instructions are
tried one by one, so one unknown opcode hides no other.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from ...gpus import DEFAULT_ARCH
from ...compiler.nvrtc import compile_for_kernel, include_options, load_source
from ...errors import LaunchError
from ...compiler.names import demangle
from .compile import listing
from .parser import SassKernel, parse
from .program import unsupported_instructions

Gap = tuple[str, int, str]   # (opcode with modifiers, source line, listing text)


def coverage(source: str, kernel: str | None = None, arch: str = DEFAULT_ARCH, options: Sequence[str] = (),
             include_dirs: Sequence[str] | None = None) -> dict[str, list[Gap]]:
    """Kernel (lowered name) -> the instructions the SASS engine cannot run ([] = all supported).
    `kernel` (extern "C", mangled or a C++ name expression) limits it to one kernel."""
    text, name, is_ptx = load_source(source)
    if is_ptx:
        raise LaunchError("coverage needs CUDA C source (a .ptx file has no cubin here)")
    options = (*options, *include_options(include_dirs))
    expressions: tuple[str, ...] = ()
    if kernel is not None:
        compiled, kernel = compile_for_kernel(text, kernel, arch, options, name)
        expressions = compiled.name_expressions
    functions = parse(listing(text, arch, tuple(options), name, expressions))
    kernels = {n: k for n, k in functions.items() if k.is_kernel and kernel in (None, n)}
    return {n: _gaps(k, functions) for n, k in sorted(kernels.items())}


def _gaps(kernel: SassKernel, functions: dict[str, SassKernel]) -> list[Gap]:
    """The kernel's and its callees' instructions the engine cannot run, by source line."""
    return sorted(unsupported_instructions(kernel, functions), key=lambda gap: gap[1])


def render(report: dict[str, list[Gap]]) -> list[str]:
    """Plain lines: `kernel: ok`, or a summary line and one line per instruction."""
    lines = []
    for kernel, gaps in report.items():
        shown = demangle(kernel)
        if not gaps:
            lines.append(f"{shown}: ok")
            continue
        counts = Counter(opcode.split(".")[0] for opcode, _, _ in gaps)
        summary = ", ".join(f"{op} x{n}" if n > 1 else op for op, n in counts.most_common())
        lines.append(f"{shown}: {len(gaps)} instructions the SASS engine cannot run ({summary})")
        lines += [f"  line {line:>5}  {opcode:<22} {text}" for opcode, line, text in gaps]
    return lines
