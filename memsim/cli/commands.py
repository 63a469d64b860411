"""`memsim`: list the kernel catalog and predict a kernel's memory counters.

Parses arguments and dispatches; the tables come from memsim.views.render. A MemsimError (a user's
mistake: unknown kernel, bad geometry, bad argument spec, missing file, compile error) prints
`error: <message>` on stderr and exits 2; a failed --check exits 1; Ctrl-C prints
`interrupted` and exits 130 (memsim.tools.progress).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.table import Table
from rich.text import Text

from .. import catalog
from ..gpus import DEFAULT_ARCH
from ..tools import progress
from ..views import render
from ..errors import LaunchError, MemsimError
from ..launch import LaunchSpec
from .launch_args import ARG_HELP, add_launch_arguments, make_console, resolve_launches, run_launch

EXIT_CHECK_FAILED = 1
EXIT_USER_ERROR = 2



def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memsim", description="Predict Nsight Compute's memory counters of a CUDA kernel "
        "without a GPU.", epilog="Run `memsim predict --help` for the argument syntax.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("list", help="the kernel catalog and its groups",
                        description="The kernel catalog (the seed documents' kernels) and groups.")
    predict = commands.add_parser(
        "predict", help="simulate a catalog kernel, a group, or any .cu/.ptx/.py kernel",
        description="Simulate a kernel launch and print its memory counters: a catalog entry or "
        "group (see `memsim list`), or a .cu/.ptx file or a .py file of numba.cuda kernels with "
        "--kernel, --grid, --block and --arg.",
        epilog=ARG_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_launch_arguments(predict)
    output = predict.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the KernelReports as a JSON list")
    output.add_argument("--csv", action="store_true", help="print one CSV row per kernel per metric")
    predict.add_argument("--check", action="store_true",
                         help="compare the outputs with the catalog's numpy reference")
    predict.add_argument("--metrics", choices=("nvprof",),
                         help="nvprof: nvprof's metrics in nvprof's table (a Pascal --gpu: GTX1060, "
                              "GTX1050Ti; counted with Pascal's rules, docs/pascal.md)")
    predict.add_argument("--explain", action="store_true",
                         help="with --gpu: where the modeled time goes (units' utilization, the limiter, "
                              "warp states), from the warp-level timing simulation")
    predict.add_argument("--explain-png", metavar="FILE",
                         help="with --explain: also draw the warp states as a stacked bar (plot extra)")
    predict.add_argument("--inductor", action="store_true",
                         help="the .py file is Inductor's output code (torch.compile's generated module): "
                              "run its call() on its get_args() inputs, every Triton launch on memsim, one "
                              "row per launch (needs torch, the release that wrote it)")
    predict.add_argument("--dlcm", choices=("ca", "cg"),
                         help="ca: cache every global load in L1, as `nvcc -Xptxas -dlcm=ca` (the seeds' "
                              "build); cg (default): L2 only")
    add_coverage_command(commands)
    from . import check_cli, inspect_cli, sweep  # show, source, advise, compare, sweep, check: they reuse the launch arguments
    inspect_cli.add_commands(commands)
    sweep.add_command(commands)
    check_cli.add_command(commands)
    return parser


def add_coverage_command(commands) -> None:
    coverage = commands.add_parser(
        "coverage", help="per kernel of a .cu file, the SASS instructions the SASS engine cannot run",
        description="Compile a .cu file to sm_90 SASS (as --engine sass does) and list, per kernel, "
        "the instructions the SASS engine cannot run (opcode, source line, listing text), or 'ok'. "
        "Exits 1 when some kernel has any.")
    coverage.add_argument("target", metavar="FILE", help=".cu file")
    coverage.add_argument("--kernel", help="only this kernel (extern \"C\", mangled or C++ name like 'reduce<256>')")
    coverage.add_argument("--arch", default=DEFAULT_ARCH, help=f"target architecture (default {DEFAULT_ARCH})")
    coverage.add_argument("--option", action="append", default=[], metavar="OPT",
                          help="NVRTC option such as -DX=1 (repeatable)")
    coverage.add_argument("-I", "--include-dir", action="append", default=[], metavar="DIR",
                          help="header directory to search (repeatable)")


def run_coverage(args: argparse.Namespace) -> int:
    from ..engine.sass.coverage import coverage, render

    if not Path(args.target).is_file():
        raise LaunchError(f"no such file: {args.target}")
    report = coverage(args.target, args.kernel, args.arch, tuple(args.option), args.include_dir)
    for line in render(report):
        print(line)
    return EXIT_CHECK_FAILED if any(report.values()) else 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args) if args.command in COMMANDS else args.run(args)
    except MemsimError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:  # `memsim list | head`
        return 0
    except KeyboardInterrupt:
        return progress.interrupted()


def run_list(args: argparse.Namespace) -> int:
    table = Table(title="memsim catalog", title_justify="left")
    for title in ("name", "seed", "kernel", "default geometry", "summary"):
        table.add_column(title, overflow="fold")
    for name in catalog.names():
        entry = catalog.get(name)
        table.add_row(*(Text(cell) for cell in (name, entry.seed or "-", entry.kernel,
                                                 entry.default_geometry, entry.summary)))
    groups = Table(title="groups (predict a group to run all its kernels)", title_justify="left")
    groups.add_column("group")
    groups.add_column("kernels", overflow="fold")
    for group, members in catalog.groups().items():
        groups.add_row(group, ", ".join(members))
    console = make_console()
    console.print(table)
    console.print(groups)
    return 0


def _check_metrics(args: argparse.Namespace) -> None:
    """--metrics nvprof needs a GPU nvprof profiled: one whose profile counts with Pascal's rules."""
    if args.metrics != "nvprof":
        return
    from ..gpus import load
    from ..model.pascal import uses_pascal_rules

    if not args.gpu or not uses_pascal_rules(load(args.gpu)):
        raise LaunchError("--metrics nvprof needs a Pascal --gpu (GTX1060 or GTX1050Ti): nvprof's "
                          "metrics are those of sm_5x/6x GPUs")


def run_predict(args: argparse.Namespace) -> int:
    if args.inductor:
        from .inductor_cli import run_inductor
        return run_inductor(args)
    _check_metrics(args)
    if (args.explain or args.explain_png) and not args.gpu:
        raise LaunchError("--explain needs --gpu (the time it explains is the GPU's, e.g. --gpu H100)")
    launches = resolve_launches(args)
    console = make_console()
    reports, names, failures = [], [], []
    for name, spec, entry in launches:
        report, values = run_launch(spec, args)
        reports.append(report)
        names.append(name)
        if args.metrics == "nvprof" and not (args.json or args.csv):
            print(_nvprof_table(report))
        elif not (args.json or args.csv):
            for part in render.kernel_tables(report, name, _element_type(spec)):
                console.print(part)
            if args.explain or args.explain_png:
                from ..views.explain import explain_tables, stacked_bar
                for part in explain_tables(report):
                    console.print(part)
                if args.explain_png:
                    stacked_bar(report, args.explain_png)
        if args.check:
            problems = entry.check(spec.materialize(), values)
            failures += problems
            _print_check(name, problems, machine=args.json or args.csv)
    if args.json:
        print(render.reports_json(reports))
    elif args.csv:
        render.write_csv(reports, names, sys.stdout)
    elif args.metrics != "nvprof":
        console.print(f"[dim]{render.PROVENANCE_LEGEND}[/dim]")
    return EXIT_CHECK_FAILED if failures else 0


def _nvprof_table(report) -> str:
    from ..gpus import load
    from ..model.nvprof_metrics import metrics_from_values
    from ..views.nvprof import render_table

    metrics = metrics_from_values(report.nvprof_metrics)
    return render_table(metrics, report.kernel, load(report.gpu).full_name)


def _element_type(spec: LaunchSpec) -> str:
    buffers = [a.dtype for a in spec.args if a.is_buffer]
    return buffers[0] if buffers else ""


def _print_check(name: str, problems: list[str], machine: bool) -> None:
    """Pass/fail of the reference check; on stderr when stdout carries JSON or CSV."""
    stream = sys.stderr if machine else sys.stdout
    if problems:
        for problem in problems:
            print(f"check FAILED: {problem}", file=stream)
    else:
        print(f"check passed: {name} outputs equal the numpy reference", file=stream)


COMMANDS = {"list": run_list, "predict": run_predict, "coverage": run_coverage}


if __name__ == "__main__":
    sys.exit(main())
