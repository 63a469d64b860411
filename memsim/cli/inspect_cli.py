"""`memsim show | source | advise | compare`: the subcommands that explain a kernel's counters.

Registered by memsim.cli.commands.build_parser; each takes the same target and launch arguments as
`memsim predict` (compare: catalog entries and groups only). Errors are MemsimErrors, which the
main CLI prints as one line with exit status 2.
"""
from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

from ..gpus import DEFAULT_ARCH
from ..views import advice, compare, show, source_view
from .launch_args import ARG_HELP, add_launch_arguments, make_console, is_source_file, resolve_launches, run_launch
from ..compiler.nvrtc import load_source, report_source
from ..errors import LaunchError, MemsimError
from ..launch import LaunchSpec
from ..warp_trace import trace_pictures

SHOW_EPILOG = """\
examples:
  memsim show transpose_naive_row --nx 64 --line 17
  memsim show transpose_smem --nx 64 --line 15 --warp 3 --png tile.png
  memsim show k.cu --kernel k_copy --grid 4 --block 32 --arg float32[128] --arg float32[128]
"""


def add_commands(commands) -> None:
    """Add the four subcommands to memsim's subparsers."""
    show_parser = commands.add_parser(
        "show", help="picture one warp's access: lanes -> sectors (global) or banks (shared)",
        description="Simulate a launch and draw what one warp does on a source line: which "
        "address each lane touches, which 32-byte sectors or shared-memory banks that lands on, "
        "the bytes moved for nothing and the lanes that conflict.",
        epilog=SHOW_EPILOG + "\n" + ARG_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_launch_arguments(show_parser)
    picked = show_parser.add_argument_group("which access")
    picked.add_argument("--line", type=int, help="source line (default: every memory line)")
    picked.add_argument("--warp", type=int, default=0, help="warp within the block (default 0)")
    picked.add_argument("--block-index", default="0", metavar="B",
                        help="block: linear index or x,y[,z] coordinates (default 0)")
    picked.add_argument("--access", type=int, metavar="N",
                        help="only the line's N-th memory access (program order; default all)")
    picked.add_argument("--execution", type=int, default=1, metavar="K",
                        help="the warp's K-th run of the instruction, for loops (default 1)")
    figure = show_parser.add_mutually_exclusive_group()
    figure.add_argument("--png", metavar="FILE", help="also write the picture as PNG")
    figure.add_argument("--svg", metavar="FILE", help="also write the picture as SVG")
    show_parser.set_defaults(run=run_show)

    for name, run, summary in (
            ("source", run_source, "the kernel's source with memory counters per line, and findings"),
            ("advise", run_advise, "findings with numbers (uncoalesced accesses, bank conflicts) "
                                   "and the usual remedy")):
        parser = commands.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".",
                                     epilog=ARG_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
        add_launch_arguments(parser)
        parser.set_defaults(run=run)

    compare_parser = commands.add_parser(
        "compare", help="catalog variants side by side: sectors, wavefronts, time, speed-up",
        description="Simulate catalog entries (or groups) with one geometry and put them side "
        "by side; the speed-up is relative to the first.")
    add_launch_arguments(compare_parser, many=True)
    compare_parser.set_defaults(run=run_compare)


def _single_launch(args: argparse.Namespace) -> LaunchSpec:
    launches = resolve_launches(args)
    if len(launches) != 1:
        names = ", ".join(name for name, _, _ in launches)
        raise LaunchError(f"{args.target} is a group ({names}): show one kernel at a time")
    return launches[0][1]


def block_index(text: str, grid: tuple[int, int, int]) -> int:
    """'5' -> 5; '1,2' -> the linear index of blockIdx (1, 2, 0) in `grid`."""
    try:
        parts = [int(p) for p in text.replace("x", ",").split(",")]
    except ValueError:
        raise LaunchError(f"bad --block-index '{text}': give a number or x,y[,z]") from None
    if len(parts) == 1:
        return parts[0]
    if len(parts) > 3 or any(not 0 <= p < g for p, g in zip(parts, grid)):
        raise LaunchError(f"no block ({text}) in a grid of {'x'.join(map(str, grid))}")
    parts += [0] * (3 - len(parts))
    return parts[0] + grid[0] * (parts[1] + grid[1] * parts[2])


def run_show(args: argparse.Namespace) -> int:
    if (args.png or args.svg) and importlib.util.find_spec("matplotlib") is None:
        flag = "--png" if args.png else "--svg"
        raise MemsimError(f"{flag} needs matplotlib, which is not installed: pip install -e '.[plot]' "
                          f"in a clone (pip install 'memsim[plot]' otherwise), or leave out {flag}")
    spec = _single_launch(args)
    if args.execution < 1:
        raise LaunchError("--execution counts from 1")
    _, pictures = trace_pictures(spec, line=args.line, block=block_index(args.block_index, spec.grid),
                                 warp=args.warp, execution=args.execution, arch=args.arch or DEFAULT_ARCH,
                                 access=args.access, engine=args.engine,
                                 max_warp_instructions=args.max_warp_instructions, timeout=args.timeout)
    show.print_pictures(pictures, make_console())
    path = args.png or args.svg
    if path:
        show.save_figure(pictures, path)
        print(f"wrote {path}")
    return 0


def _reports(args: argparse.Namespace):
    for name, spec, _ in resolve_launches(args):
        report, _ = run_launch(spec, args)
        yield name, spec, report


def run_source(args: argparse.Namespace) -> int:
    console = make_console()
    for name, spec, report in _reports(args):
        found = advice.findings(report)
        lines, _ = report_source(*load_source(spec.source))
        if not lines and Path(report.source_file).is_file():   # a cubin: the file its line notes name
            lines = Path(report.source_file).read_text().splitlines()
        console.print(source_view.table(report, "\n".join(lines), found))
        console.print(advice.text(found))
    return 0


def run_advise(args: argparse.Namespace) -> int:
    console = make_console()
    for name, _, report in _reports(args):
        console.print(f"[bold]{name}[/bold] ({report.kernel})")
        console.print(advice.text(advice.findings(report)))
    return 0


def run_compare(args: argparse.Namespace) -> int:
    targets = list(args.target)
    named = []
    for target in targets:
        if is_source_file(target):
            raise LaunchError(f"compare takes catalog entries or groups, not files: {target}")
        args.target = target
        named += [(name, report) for name, _, report in _reports(args)]
    make_console().print(compare.table(named))
    return 0
