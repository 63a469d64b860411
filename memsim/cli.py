"""`memsim`: list the kernel catalog and predict a kernel's memory counters.

Parses arguments and dispatches; the tables come from memsim.render. A MemsimError (a user's
mistake: unknown kernel, bad geometry, bad argument spec, missing file, compile error) prints
`error: <message>` on stderr and exits 2; a failed --check exits 1.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import catalog, render
from .compile import include_options
from .errors import LaunchError, MemsimError
from .launch import ArgSpec, LaunchSpec, dims
from .predict import predict_spec
from .simulate import simulate_spec

EXIT_CHECK_FAILED = 1
EXIT_USER_ERROR = 2
DLCM_CA = "-Xptxas=-dlcm=ca"   # NVRTC passes it on to ptxas; memsim.pascal reads it from the options
SOURCE_SUFFIXES = (".cu", ".cuh", ".ptx", ".py")

ARG_HELP = """\
kernel arguments (--arg, in the kernel's parameter order):
  float32[4096]              buffer of 4096 float32, uniform random in [0, 1) (the default)
  float32[4096]:zeros        initial contents: zeros | ones | random | arange | permutation |
                             randint(LO,HI) | FILE.npy
  float32[64x64]:arange      a count may be written as a product
  int32:4096  or 'int32 4096'  a by-value scalar
  types: numpy names (float32, int64, uint8, ...) or PTX short forms (f32, s32, u64, ...)

examples:
  memsim list
  memsim predict transpose_ladder --nx 1024
  memsim predict transpose_smem --nx 256 --dtype float64 --check
  memsim predict row_sums --nx 512 --json
  memsim predict k.cu --kernel k_copy --grid 64,64 --block 32,32 \\
      --arg float32[4096x4096] --arg float32[4096x4096]:zeros --arg int32:4096
  memsim predict r.cu --kernel 'reduce<256>' -I include --grid 64 --block 256 --arg float32[16384]
  memsim coverage r.cu                 SASS opcodes the SASS engine cannot run, per kernel
  memsim predict kernels.py --kernel transpose --grid 64,64 --block 32,32 \\
      --arg float32[2048x2048] --arg float32[2048x2048]:zeros
                                       a numba.cuda kernel (@cuda.jit) of a Python file; an array
                                       argument's count is its shape
"""


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
    predict.add_argument("--dlcm", choices=("ca", "cg"),
                         help="ca: cache every global load in L1, as `nvcc -Xptxas -dlcm=ca` (the seeds' "
                              "build); cg (default): L2 only")
    add_coverage_command(commands)
    from . import inspect_cli  # show, source, advise, compare: they reuse the launch arguments
    inspect_cli.add_commands(commands)
    return parser


def add_coverage_command(commands) -> None:
    coverage = commands.add_parser(
        "coverage", help="per kernel of a .cu file, the SASS instructions the SASS engine cannot run",
        description="Compile a .cu file to sm_90 SASS (as --engine sass does) and list, per kernel, "
        "the instructions the SASS engine cannot run (opcode, source line, listing text), or 'ok'. "
        "Exits 1 when some kernel has any.")
    coverage.add_argument("target", metavar="FILE", help=".cu file")
    coverage.add_argument("--kernel", help="only this kernel (extern \"C\", mangled or C++ name like 'reduce<256>')")
    coverage.add_argument("--arch", default="sm_90", help="target architecture (default sm_90)")
    coverage.add_argument("--option", action="append", default=[], metavar="OPT",
                          help="NVRTC option such as -DX=1 (repeatable)")
    coverage.add_argument("-I", "--include-dir", action="append", default=[], metavar="DIR",
                          help="header directory to search (repeatable)")


def run_coverage(args: argparse.Namespace) -> int:
    from .coverage import coverage, render

    if not Path(args.target).is_file():
        raise LaunchError(f"no such file: {args.target}")
    report = coverage(args.target, args.kernel, args.arch, tuple(args.option), args.include_dir)
    for line in render(report):
        print(line)
    return EXIT_CHECK_FAILED if any(report.values()) else 0


def add_launch_arguments(parser: argparse.ArgumentParser, many: bool = False) -> None:
    """The target (a catalog entry or group, or a file) and how to launch it."""
    if many:
        parser.add_argument("target", nargs="+", metavar="NAME", help="catalog entries or groups")
    else:
        parser.add_argument("target", metavar="NAME|FILE",
                            help="catalog entry, group, or .cu/.ptx/.py file")
    geometry = parser.add_argument_group("catalog geometry")
    geometry.add_argument("--nx", type=int, help="columns / elements (default: the entry's)")
    geometry.add_argument("--ny", type=int, help="rows (default: nx)")
    geometry.add_argument("--block", help="block shape like 32,16 (also required for a file)")
    geometry.add_argument("--dtype", help="element type: float32, float64 or int32")
    launch = parser.add_argument_group("any kernel (FILE)")
    launch.add_argument("--kernel", help="kernel name in the file")
    launch.add_argument("--grid", help="grid shape like 64,64")
    launch.add_argument("--arg", action="append", default=[], metavar="SPEC",
                        help="a kernel argument, repeated in parameter order (syntax below)")
    launch.add_argument("--shared-mem", type=int, default=0, metavar="B",
                        help="dynamic shared memory in bytes")
    launch.add_argument("--option", action="append", default=[], metavar="OPT",
                        help="NVRTC option such as -DX=1 (repeatable)")
    launch.add_argument("-I", "--include-dir", action="append", default=[], metavar="DIR",
                        help="header directory to search (repeatable; the CUDA headers of the "
                             "nvidia-cuda-* wheels are always searched)")
    parser.add_argument("--arch", help="target architecture (default: the --gpu's, e.g. sm_61 for "
                        "GTX1060; else sm_90)")
    parser.add_argument("--gpu", metavar="NAME",
                        help="also model caches, DRAM and time on this GPU (H100, A100, GTX1060, "
                             "GTX1050Ti, H200; see memsim/profiles): marked 'modeled'")
    parser.add_argument("--engine", choices=("auto", "sass", "ptx"), default="auto",
                        help="sass: emulate the sm_90 SASS the GPU runs (exact); ptx: emulate the PTX "
                             "(PTX input, other architectures; may differ where ptxas reshapes the "
                             "code); auto (default): sass for CUDA C on sm_90, else ptx")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args) if args.command in COMMANDS else args.run(args)
    except MemsimError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:  # `memsim list | head`
        return 0


def _console() -> Console:
    console = Console()
    # Pipes get a wide plain layout instead of rich's 80 columns, which would fold the tables.
    return console if console.is_terminal else Console(width=200, no_color=True)


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
    console = _console()
    console.print(table)
    console.print(groups)
    return 0


def _is_source_file(target: str) -> bool:
    """A catalog name wins over a file of the same name in the working directory."""
    if target in catalog.names() or target in catalog.groups():
        return False
    return target.endswith(SOURCE_SUFFIXES) or Path(target).is_file()


def _parse_dims(text: str, what: str) -> tuple[int, int, int]:
    try:
        return dims(text)
    except ValueError:
        raise LaunchError(f"bad {what} '{text}': give 1 to 3 positive integers like 32,16") from None


def catalog_launches(args: argparse.Namespace) -> list[tuple[str, LaunchSpec, catalog.CatalogKernel]]:
    """(name, launch, entry) per kernel the catalog name or group expands to."""
    stray = [flag for flag, value in (("--kernel", args.kernel), ("--grid", args.grid),
                                      ("--arg", args.arg), ("--shared-mem", args.shared_mem),
                                      ("--option", args.option),
                                      ("--include-dir", getattr(args, "include_dir", []))) if value]
    if stray:
        raise LaunchError(f"{', '.join(stray)}: for a .cu/.ptx file only; a catalog entry takes "
                          f"--nx, --ny, --block, --dtype")
    return [(entry.name, entry.launch(args.nx, args.ny, args.block, args.dtype), entry)
            for entry in catalog.resolve(args.target)]


def file_launch(args: argparse.Namespace) -> LaunchSpec:
    """The launch of any kernel in a .cu/.ptx file, from --kernel/--grid/--block/--arg."""
    if not Path(args.target).is_file():
        raise LaunchError(f"no such file: {args.target}")
    missing = [flag for flag, value in (("--kernel", args.kernel), ("--grid", args.grid),
                                        ("--block", args.block)) if not value]
    if missing:
        raise LaunchError(f"a kernel file needs {', '.join(missing)}")
    if args.nx or args.ny or args.dtype:
        raise LaunchError("--nx, --ny and --dtype apply to catalog entries; for a file give --arg")
    if getattr(args, "check", False):
        raise LaunchError("--check needs a catalog entry (a file kernel has no reference)")
    if args.target.endswith(".py"):
        return _numba_launch(args)
    return LaunchSpec(source=args.target, kernel=args.kernel, grid=_parse_dims(args.grid, "grid"),
                      block=_parse_dims(args.block, "block"),
                      args=[ArgSpec.parse(text) for text in args.arg],
                      shared_mem=args.shared_mem,
                      options=(*args.option, *include_options(getattr(args, "include_dir", []))))


def _numba_launch(args: argparse.Namespace) -> LaunchSpec:
    """A numba.cuda kernel of a .py file: --arg float32[64x32] is a 64 x 32 array."""
    from .numba_cuda import numba_spec

    if args.option or getattr(args, "include_dir", []):
        raise LaunchError("--option and -I apply to CUDA C; a numba kernel takes none")
    return numba_spec(args.target, args.kernel, _parse_dims(args.grid, "grid"),
                      _parse_dims(args.block, "block"), args.arg, args.shared_mem)


def resolve_launches(args: argparse.Namespace) -> list[tuple[str, LaunchSpec, catalog.CatalogKernel | None]]:
    """(name, launch, catalog entry or None) per kernel the target stands for."""
    if _is_source_file(args.target):
        return [(args.kernel, file_launch(args), None)]
    return catalog_launches(args)


def run_launch(spec: LaunchSpec, args: argparse.Namespace):
    """(report, argument values) of one launch: counts, plus the GPU's models with --gpu."""
    if getattr(args, "dlcm", None) == "ca":
        spec = spec.model_copy(update={"options": (*spec.options, DLCM_CA)})
    if args.gpu:
        return predict_spec(spec, arch=args.arch, engine=args.engine, gpu=args.gpu)
    return simulate_spec(spec, arch=args.arch or "sm_90", engine=args.engine)


def _check_metrics(args: argparse.Namespace) -> None:
    """--metrics nvprof needs a GPU nvprof profiled: one whose profile counts with Pascal's rules."""
    if args.metrics != "nvprof":
        return
    from .gpu_profile import load
    from .pascal import uses_pascal_rules

    if not args.gpu or not uses_pascal_rules(load(args.gpu)):
        raise LaunchError("--metrics nvprof needs a Pascal --gpu (GTX1060 or GTX1050Ti): nvprof's "
                          "metrics are those of sm_5x/6x GPUs")


def run_predict(args: argparse.Namespace) -> int:
    _check_metrics(args)
    launches = resolve_launches(args)
    console = _console()
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
    from .gpu_profile import load
    from .nvprof import metrics_from_values, render_table

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
