"""`memsim check`: compute-sanitizer's memcheck, racecheck, initcheck and synccheck on the
emulator (memsim.sanitizer), with compute-sanitizer's options and report text.

    memsim check k.cu --kernel k --grid 1 --block 256 --arg float32[256] --arg float32[256]:empty \\
        --tool initcheck

The exit status is --error-exitcode (default 1) when the tool finds an error, 0 when the launch
is clean, 2 for bad input (one line), as every memsim command.
"""
from __future__ import annotations

import argparse

from ..sanitizer import TOOLS, check_spec
from .launch_args import ARG_HELP, add_launch_arguments, resolve_launches

CHECK_EPILOG = """\
examples:
  memsim check k.cu --kernel k --grid 1 --block 256 --arg float32[256] --arg float32[256]:zeros \\
      --tool racecheck
  memsim check k.cu --kernel k --grid 2 --block 128 --arg float32[256]:empty --arg float32[256]:zeros \\
      --tool initcheck                 :empty buffers are never written before the launch

"""


def add_command(commands) -> None:
    parser = commands.add_parser(
        "check", help="compute-sanitizer's four tools without a GPU (memcheck, racecheck, initcheck, synccheck)",
        description="Run a launch under one of compute-sanitizer's tools and print its report in "
        "compute-sanitizer's words: memcheck (out-of-bounds and misaligned accesses), racecheck "
        "(shared-memory hazards between barriers), initcheck (reads of global memory never written: "
        ":empty buffers), synccheck (barriers in divergent code, bad __syncwarp masks). See "
        "docs/sanitizer.md.",
        epilog=CHECK_EPILOG + ARG_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_launch_arguments(parser)
    parser.add_argument("--tool", choices=TOOLS, default="memcheck", help="the check (default memcheck)")
    parser.add_argument("--racecheck-report", choices=("analysis", "hazard", "all"), default="analysis",
                        help="racecheck: one record per pair of instructions (analysis, the default), "
                             "one per hazard naming both threads (hazard), or both")
    parser.add_argument("--initcheck-shared", action="store_true",
                        help="initcheck: also report reads of shared memory no thread of the block wrote "
                             "(compute-sanitizer does not)")
    parser.add_argument("--print-limit", type=int, default=100, metavar="N",
                        help="print at most N errors (the summary counts all; default 100)")
    parser.add_argument("--error-exitcode", type=int, default=1, metavar="N",
                        help="exit status when an error is found (default 1)")
    parser.add_argument("--json", action="store_true", help="print the SanitizerReport as JSON")
    parser.set_defaults(run=run_check)


def run_check(args: argparse.Namespace) -> int:
    found = False
    for _, spec, _ in resolve_launches(args):
        report = check_spec(spec, args.tool, engine=args.engine, gpu=args.gpu, arch=args.arch,
                            max_warp_instructions=args.max_warp_instructions, timeout=args.timeout,
                            initcheck_shared=args.initcheck_shared)
        if args.json:
            print(report.model_dump_json(indent=1))
        else:
            print(report.text(args.racecheck_report, args.print_limit), end="")
        found = found or not report.clean
    return args.error_exitcode if found else 0
