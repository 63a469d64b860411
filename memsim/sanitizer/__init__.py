"""`memsim check`: compute-sanitizer's four tools (memcheck, racecheck, initcheck, synccheck)
on the emulator, no GPU needed; reports in compute-sanitizer's words (docs/sanitizer.md).

    report = memsim.check(source, "kernel", grid, block, args, tool="racecheck")
    print(report.text())
"""
from .checker import TOOLS, check, check_spec
from .findings import Finding, SanitizerReport

__all__ = ["TOOLS", "check", "check_spec", "Finding", "SanitizerReport"]
