"""`memsim sweep`: one kernel over a grid of block shapes and parameters, as a table.

    memsim sweep examples/transpose.cu --kernel transpose_tiled --block 32x8,32x16,32x32 \\
        --param n=256,512 --grid '{n/32},{n/32}' \\
        --arg 'float32[{n}x{n}]' --arg 'float32[{n}x{n}]:zeros' --arg 'int32:{n}' --gpu H100

Every configuration is an ordinary launch, built by memsim.cli.launch_args' launch building from the
command's arguments with the configuration's values filled in, so a row means what
`memsim predict` would print for that launch. The launches are independent: they run on every
core (memsim.tools.pool) or, with --dask, on a dask.distributed cluster (an existing engine, not a
scheduler of ours); both give the same rows, in the same order.
"""
from __future__ import annotations

import argparse
import ast
import itertools
import math
import operator
import os
import re
import sys
from typing import Callable

from pydantic import BaseModel, TypeAdapter
from rich.table import Table
from rich.text import Text

from . import launch_args
from ..tools import progress
from .. import metrics as m
from ..views import render
from ..compiler.nvrtc import load_source
from ..errors import LaunchError, MemsimError
from ..launch import LaunchSpec, dims
from ..tools.pool import run_all
from ..report import KernelReport

CATALOG_PARAMS = ("nx", "ny", "dtype")   # a catalog entry's geometry flags
BLOCK_NAMES = ("bx", "by", "bz", "threads")  # what an expression knows of the block
TEMPLATED = "--kernel, --grid, --arg, --option, --shared-mem and --constexpr"
_BLOCK = re.compile(r"\d+(x\d+){0,2}")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
DASK_CONNECT_TIMEOUT = "20s"

EPILOG = f"""\
configurations: every --block shape times every combination of --param values (the cartesian
grid), blocks innermost.

  --block 32x8,32x16,256    block shapes: 'x' between a shape's sizes, ',' between shapes
  --param n=256,512         a swept parameter (repeatable; one per name)

how a parameter reaches the launch:
  a catalog entry           --param nx=..., ny=... or dtype=... replace --nx/--ny/--dtype
  a .cu/.ptx file           each {{EXPR}} in {TEMPLATED}
                            is replaced by its value for each configuration: EXPR is a
                            parameter (its text as written), or integer arithmetic
                            (+ - * // % ** and parentheses) over the parameters and the block's
                            bx, by, bz and threads (bx*by*bz); a / b rounds UP, so that
                            '{{n/bx}}' blocks cover n elements. Every parameter must be used.

    memsim sweep k.cu --kernel copy --block 128,256,512 --param n=4096,65536 \\
        --grid '{{n/threads}}' --arg 'float32[{{n}}]' --arg 'float32[{{n}}]:zeros' --arg 'int32:{{n}}'
    memsim sweep r.cu --kernel 'reduce<{{bx}}>' --block 128,256 --param n=16384 \\
        --grid '{{n/bx}}' --arg 'float32[{{n}}]' --arg 'float32[{{n/bx}}]:zeros'
    memsim sweep transpose_naive_row --block 32x8,32x16,32x32 --param nx=1024,2048 --gpu H100

best: marked per problem (rows with the same values of every --param not named by --tune;
the kernels of a catalog group compete): the lowest modeled time with --gpu, else the fewest
memory transactions (global sectors + shared wavefronts).

execution: --jobs processes on this machine (default: every core), or --dask ADDRESS: the
scheduler of a running dask.distributed cluster ('local' starts a LocalCluster of --jobs
workers). Cluster workers need memsim installed; sources travel with the launches (buffers
initialised from .npy files and -I headers must exist on the workers).
"""


class SweepPoint(BaseModel):
    """One configuration: the parameters' values (as written) and the block shape; for a
    config of an @triton.autotune list, its constexprs and stages (in params too)."""

    params: dict[str, str]
    block: tuple[int, int, int]
    config: dict[str, str] = {}
    stages: int | None = None


class SweepJob(BaseModel):
    """One launch of the sweep: what it is called, which configuration made it, the launch."""

    name: str
    point: SweepPoint
    spec: LaunchSpec


class SweepRow(BaseModel):
    """What one configuration did: the figures of the table, and every counter for --json."""

    name: str
    kernel: str
    params: dict[str, str]
    block: tuple[int, int, int]
    grid: tuple[int, int, int]
    ld_sectors_per_request: float | None = None
    st_sectors_per_request: float | None = None
    shared_wavefronts: int = 0
    bank_conflicts: int = 0
    memory_transactions: int = 0
    time_us: float | None = None
    best: bool = False
    metrics: dict[str, int | float] = {}

    @property
    def figure(self) -> float:
        """What 'best' minimises: modeled time where there is one, else memory transactions."""
        return self.time_us if self.time_us is not None else float(self.memory_transactions)


ROWS = TypeAdapter(list[SweepRow])


# ---- the grid of configurations -------------------------------------------------------------

def parse_blocks(texts: list[str]) -> list[tuple[int, int, int]]:
    """['32x8,32x16', '256'] -> [(32, 8, 1), (32, 16, 1), (256, 1, 1)]: commas part shapes."""
    pieces = [piece.strip() for text in texts for piece in text.split(",")]
    for piece in pieces:
        if not _BLOCK.fullmatch(piece):
            raise LaunchError(f"bad block '{piece}': write shapes like 32x8,32x16 "
                              "('x' between a shape's sizes, ',' between shapes)")
    return list(dict.fromkeys(dims(piece) for piece in pieces))


def parse_params(texts: list[str]) -> dict[str, list[str]]:
    """['n=256,512', 'dtype=float32'] -> {'n': ['256', '512'], 'dtype': ['float32']}."""
    params: dict[str, list[str]] = {}
    for text in texts:
        name, equals, values = (part.strip() for part in text.partition("="))
        listed = [value.strip() for value in values.split(",")]
        if not equals or not name.isidentifier() or not all(listed):
            raise LaunchError(f"bad --param '{text}': write NAME=V1,V2,...")
        if name in params or name in BLOCK_NAMES:
            raise LaunchError(f"--param {name}: " + ("given twice" if name in params else
                              f"{', '.join(BLOCK_NAMES)} come from --block"))
        params[name] = list(dict.fromkeys(listed))
    return params


def grid_points(params: dict[str, list[str]], blocks: list[tuple[int, int, int]]) -> list[SweepPoint]:
    """The cartesian grid: parameters in the order given, the block innermost."""
    names = list(params)
    return [SweepPoint(params=dict(zip(names, values)), block=block)
            for *values, block in itertools.product(*params.values(), blocks)]


# ---- {EXPR} in the launch arguments ---------------------------------------------------------

_OPERATORS: dict[type, Callable[[int, int], int]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: lambda a, b: -(-a // b), ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow}


def _expression(text: str, where: str) -> ast.expr:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise LaunchError(f"bad expression '{{{text}}}' in '{where}'") from None


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def template_names(text: str) -> set[str]:
    """The names the {EXPR}s of one argument text use."""
    return set().union(*(_names(_expression(e, text)) for e in _PLACEHOLDER.findall(text)))


def _integer(node: ast.expr, values: dict[str, str], where: str) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        try:
            return int(values[node.id], 0)
        except ValueError:
            raise LaunchError(f"{node.id}={values[node.id]} is not an integer, in '{where}'") from None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_integer(node.operand, values, where)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _integer(node.left, values, where), _integer(node.right, values, where)
        if right == 0 and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            raise LaunchError(f"division by zero in '{where}'")
        return _OPERATORS[type(node.op)](left, right)
    raise LaunchError(f"'{ast.unparse(node)}' in '{where}': only integers, names and + - * / // % **")


def _value(text: str, values: dict[str, str], where: str) -> str:
    node = _expression(text, where)
    unknown = sorted(_names(node) - set(values))
    if unknown:
        raise LaunchError(f"unknown parameter '{unknown[0]}' in '{where}': the parameters are "
                          f"{', '.join(v for v in values if v not in BLOCK_NAMES) or 'none'} "
                          f"(--param) and {', '.join(BLOCK_NAMES)} (the block)")
    if isinstance(node, ast.Name):
        return values[node.id]  # as written: also a type name such as float64
    return str(_integer(node, values, where))


def substitute(text: str, values: dict[str, str]) -> str:
    """'float32[{n}x{n}]' with n=256 -> 'float32[256x256]'."""
    return _PLACEHOLDER.sub(lambda match: _value(match.group(1), values, text), text)


def _block_values(block: tuple[int, int, int]) -> dict[str, str]:
    return {"bx": str(block[0]), "by": str(block[1]), "bz": str(block[2]),
            "threads": str(math.prod(block))}


# ---- configurations -> launches, through memsim.cli's launch building -------------------------

def _templates(args: argparse.Namespace) -> list[str]:
    return [t for t in (args.kernel, args.grid, args.shared_mem, *args.arg, *args.option,
                        *getattr(args, "constexpr", [])) if t]


def _check_params(args: argparse.Namespace, params: dict[str, list[str]], is_file: bool) -> None:
    """Every parameter must reach the launch: a sweep axis that changes nothing is a mistake."""
    if not is_file:
        unknown = [name for name in params if name not in CATALOG_PARAMS]
        if unknown:
            raise LaunchError(f"unknown parameter '{unknown[0]}' for catalog entry {args.target}: "
                              f"a catalog entry sweeps {', '.join(CATALOG_PARAMS)}")
        twice = [name for name in params if getattr(args, name) is not None]
        if twice:
            raise LaunchError(f"--{twice[0]} and --param {twice[0]}: give one")
        return
    used = set().union(*(template_names(t) for t in _templates(args)))
    unused = [name for name in params if name not in used]
    if unused:
        raise LaunchError(f"--param {unused[0]}: no {{{unused[0]}}} in {TEMPLATED}")


def _point_args(args: argparse.Namespace, point: SweepPoint, is_file: bool) -> argparse.Namespace:
    """The command's arguments as `memsim predict` would get them for this configuration."""
    one = argparse.Namespace(**vars(args))
    one.block = ",".join(str(d) for d in point.block)
    if not is_file:
        for name, value in point.params.items():
            setattr(one, name, value if name == "dtype" else _count(name, value))
        one.shared_mem = _count("--shared-mem", args.shared_mem)
        return one
    values = point.params | _block_values(point.block)
    fill = lambda text: substitute(text, values) if text else text
    one.kernel, one.grid = fill(args.kernel), fill(args.grid)
    one.arg = [fill(t) for t in args.arg]
    one.option = [fill(t) for t in args.option]
    one.shared_mem = _count("--shared-mem", fill(args.shared_mem))
    one.constexpr = [fill(t) for t in getattr(args, "constexpr", [])] + [f"{k}={v}" for k, v in point.config.items()]
    if _is_triton(args) and getattr(args, "num_warps", None) is None:
        one.num_warps = math.prod(point.block) // 32   # a Triton block is 32 x num_warps threads
    if point.stages is not None:
        one.num_stages = point.stages
    return one


def autotune_points(args: argparse.Namespace, params: dict[str, list[str]]) -> list[SweepPoint] | None:
    """One point per config of the kernel's @triton.autotune list (times the --param grid):
    with --autotune, or when the kernel is autotuned and no --block is given. The configs'
    constexprs, num_warps and num_stages join the parameters (usable in {EXPR}s, e.g. the grid)."""
    wanted = getattr(args, "autotune", False)
    if not (launch_args.is_source_file(args.target) and _is_triton(args)):
        if wanted:
            raise LaunchError("--autotune reads the config list of an @triton.autotune kernel of a .py file")
        return None
    if not wanted and (args.block or getattr(args, "num_warps", None)):
        return None
    from ..triton._autotune import autotune_configs

    configs = autotune_configs(args.target, args.kernel)
    if configs is None:
        if wanted:
            raise LaunchError(f"--autotune: {args.kernel} is not wrapped in @triton.autotune")
        return None
    given = [flag for flag, value in (("--block", args.block), ("--num-warps", getattr(args, "num_warps", None)),
                                      ("--num-stages", getattr(args, "num_stages", None))) if value]
    named = {t.partition("=")[0].strip() for t in getattr(args, "constexpr", [])} | set(params)
    clash = sorted(named & {k for c in configs for k in c.constexprs})
    if given or clash:
        raise LaunchError(f"--autotune: each config gives its own num_warps, num_stages and constexprs: "
                          f"drop {', '.join(given + clash)}")
    points = []
    for values in itertools.product(*params.values()):
        for c in configs:
            config = {k: str(v) for k, v in c.constexprs.items()}
            tuned = {**config, "num_warps": str(c.num_warps), "num_stages": str(c.num_stages)}
            points.append(SweepPoint(params={**dict(zip(params, values)), **tuned}, block=(32 * c.num_warps, 1, 1),
                                     config=config, stages=c.num_stages))
    return points


def _is_triton(args: argparse.Namespace) -> bool:
    return args.target.endswith(".py") and launch_args.is_triton_file(args.target)


def _count(name: str, text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise LaunchError(f"{name}: '{text}' is not an integer") from None


def sweep_jobs(args: argparse.Namespace) -> list[SweepJob]:
    """Every launch of the sweep, checked here, before any runs. Sources are read into the
    launch so that cluster workers need no copy of the file."""
    params = parse_params(args.param)
    tuned = autotune_points(args, params)
    blocks = parse_blocks(args.block or [])
    if not blocks and launch_args.is_source_file(args.target) and _is_triton(args):
        blocks = [(32 * (getattr(args, "num_warps", None) or 4), 1, 1)]   # Triton's default: 4 warps
    if not blocks:
        raise LaunchError("sweep needs --block: one or more shapes like 32x8,32x16")
    is_file = launch_args.is_source_file(args.target)
    _check_params(args, params, is_file)
    jobs = []
    for point in tuned or grid_points(params, blocks):
        for name, spec, _ in launch_args.resolve_launches(_point_args(args, point, is_file)):
            text = load_source(spec.source)[0]
            if text:   # a cubin (SASS made elsewhere, Triton's) stays a path: it has no source text
                spec = spec.model_copy(update={"source": text})
            jobs.append(SweepJob(name=name, point=point, spec=spec))
    return jobs


# ---- running them ---------------------------------------------------------------------------

def run_job(job: SweepJob, options: launch_args.LaunchOptions) -> SweepRow:
    """One configuration, anywhere: a pool worker, a Dask worker or this process."""
    report, _ = launch_args.compute_launch(job.spec, options)
    return row(job, report)


def row(job: SweepJob, report: KernelReport) -> SweepRow:
    get = lambda name: report.metrics.get(name, 0)
    per = lambda num, den: get(num) / get(den) if get(den) else None
    wavefronts = int(get(m.SHARED_LD_WAVEFRONTS) + get(m.SHARED_ST_WAVEFRONTS))
    ideal = int(get(m.SHARED_LD_IDEAL_WAVEFRONTS) + get(m.SHARED_ST_IDEAL_WAVEFRONTS))
    duration = report.metrics.get(m.DURATION)
    return SweepRow(name=job.name, kernel=report.kernel, params=job.point.params,
                    block=report.block, grid=report.grid,
                    ld_sectors_per_request=per(m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS),
                    st_sectors_per_request=per(m.GLOBAL_ST_SECTORS, m.GLOBAL_ST_REQUESTS),
                    shared_wavefronts=wavefronts, bank_conflicts=wavefronts - ideal,
                    memory_transactions=report.memory_transactions(),
                    time_us=duration / 1000 if duration else None, metrics=report.metrics)


def run_local(jobs: list[SweepJob], options: launch_args.LaunchOptions, processes: int,
              advance: progress.Advance = lambda n=1: None) -> list[SweepRow]:
    """The sweep on this machine's cores (memsim.tools.pool)."""
    return run_all(run_job, [(job, options) for job in jobs], processes, advance)


def run_dask(jobs: list[SweepJob], options: launch_args.LaunchOptions, address: str,
             advance: progress.Advance = lambda n=1: None, local_workers: int = 1) -> list[SweepRow]:
    """The sweep on a dask.distributed cluster ('local': a LocalCluster of local_workers
    processes); rows in the order of the jobs, as run_local gives them."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise LaunchError("--dask needs dask.distributed: pip install 'memsim[dask]'") from None
    cluster = LocalCluster(n_workers=local_workers, threads_per_worker=1,
                                                  dashboard_address=":0") if address == "local" else None
    try:
        with Client(cluster or address, timeout=DASK_CONNECT_TIMEOUT) as client:
            return _gather(client, jobs, options, advance, as_completed)
    except OSError as exc:
        raise LaunchError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    finally:
        if cluster is not None:
            cluster.close()


def _row_or_error(job: SweepJob, options: launch_args.LaunchOptions) -> SweepRow | MemsimError:
    """run_job for Dask: a user's mistake comes back as a value, because a raised one is also
    logged by the worker with its traceback (our one-line errors would not be one line)."""
    try:
        return run_job(job, options)
    except MemsimError as exc:
        return exc


def _gather(client, jobs: list[SweepJob], options: launch_args.LaunchOptions, advance: progress.Advance,
            as_completed) -> list[SweepRow]:
    futures = client.map(_row_or_error, jobs, [options] * len(jobs), pure=False)
    try:
        for future in as_completed(futures):
            if isinstance(outcome := future.result(), MemsimError):
                raise outcome  # the first failure, as the local run raises it
            advance(1)
        return client.gather(futures)
    finally:
        client.cancel(futures)


def mark_best(rows: list[SweepRow], tune: list[str] = ()) -> list[SweepRow]:
    """Mark the row with the lowest figure within each problem: rows whose parameters agree
    except the block and the --tune ones (a catalog group's kernels are variants of one
    problem, as `memsim compare` treats them)."""
    problem = lambda r: tuple((k, v) for k, v in r.params.items() if k not in tune)
    best = {}
    for index, one in enumerate(rows):
        key = problem(one)
        if key not in best or one.figure < rows[best[key]].figure:
            best[key] = index
    winners = set(best.values())
    return [one.model_copy(update={"best": index in winners}) for index, one in enumerate(rows)]


# ---- output ---------------------------------------------------------------------------------

NO_VALUE = "-"


def shape(dims: tuple[int, ...]) -> str:
    """(32, 8, 1) -> '32x8': the block as it was written, without trailing ones."""
    kept = list(dims)
    while len(kept) > 1 and kept[-1] == 1:
        kept.pop()
    return render.dims_text(tuple(kept))


def _ratio(value: float | None) -> str:
    return NO_VALUE if value is None else render.ratio(value)


def table(rows: list[SweepRow]) -> Table:
    """The sweep as one rich table; the best row of each problem in bold with a star."""
    names = list(dict.fromkeys(k for r in rows for k in r.params))
    several = len({r.name for r in rows}) > 1
    timed = any(r.time_us is not None for r in rows)
    ranked = "modeled time" if timed else "global sectors + shared wavefronts"
    out = Table(title=f"sweep: {len(rows)} configurations (best: lowest {ranked} per problem)",
                title_justify="left")
    columns = ((["kernel"] if several else []) + names + ["block", "grid"]
               + ["ld sectors/req\n[dim]exact[/dim]", "st sectors/req\n[dim]exact[/dim]",
                  "shared wavefronts\n[dim]exact[/dim]", "bank conflicts\n[dim]unchecked[/dim]",
                  "sectors+wavefronts\n[dim]exact[/dim]"]
               + (["time (us)\n[dim]modeled[/dim]"] if timed else []) + ["best"])
    for title in columns:
        out.add_column(title, justify="left" if title in ("kernel", "best") else "right")
    for one in rows:
        cells = (([one.name] if several else []) + [one.params.get(n, "") for n in names]
                 + [shape(one.block), shape(one.grid),
                    _ratio(one.ld_sectors_per_request), _ratio(one.st_sectors_per_request),
                    render.count(one.shared_wavefronts), render.count(one.bank_conflicts),
                    render.count(one.memory_transactions)]
                 + ([NO_VALUE if one.time_us is None else f"{one.time_us:.1f}"] if timed else [])
                 + ["*" if one.best else ""])
        out.add_row(*(Text(cell) for cell in cells), style="bold" if one.best else None)
    return out


def plot(rows: list[SweepRow], path: str) -> bool:
    """The ranking figure per block shape, one line per problem; False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    blocks = list(dict.fromkeys(shape(r.block) for r in rows))
    timed = any(r.time_us is not None for r in rows)
    figure, axes = plt.subplots(figsize=(max(6, 0.8 * len(blocks) + 3), 4.5))
    for label, members in _problems(rows).items():
        xs = [blocks.index(shape(r.block)) for r in members]
        axes.plot(xs, [r.figure for r in members], marker="o", label=label)
        for x, r in zip(xs, members):
            if r.best:
                axes.plot([x], [r.figure], marker="*", markersize=16, color="gold", markeredgecolor="k")
    axes.set_xticks(range(len(blocks)), blocks)
    axes.set_xlabel("block")
    axes.set_ylabel("modeled time (us)" if timed else "global sectors + shared wavefronts")
    axes.set_title("memsim sweep (star: the best of each problem)")
    if max(r.figure for r in rows) > 10 * max(min(r.figure for r in rows), 1e-9):
        axes.set_yscale("log")
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def _problems(rows: list[SweepRow]) -> dict[str, list[SweepRow]]:
    """The plot's lines: one per kernel and parameter values (the blocks along the line)."""
    groups: dict[str, list[SweepRow]] = {}
    for one in rows:
        label = " ".join([one.name] + [f"{k}={v}" for k, v in one.params.items() if v != one.name])
        groups.setdefault(label, []).append(one)
    return groups


# ---- the command ----------------------------------------------------------------------------

def add_command(commands) -> None:
    """`memsim sweep`, on memsim predict's launch arguments (--block and --shared-mem redefined:
    a list of shapes, and an expression)."""
    parser = commands.add_parser(
        "sweep", help="a kernel over block shapes x parameters: sectors, wavefronts, time, best",
        description="Simulate every configuration of a grid of block shapes and parameters and "
        "print one row each: sectors per request, shared wavefronts, bank conflicts, modeled "
        "time (with --gpu), the best configuration marked.",
        epilog=EPILOG + "\n" + launch_args.ARG_HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
        conflict_handler="resolve")
    launch_args.add_launch_arguments(parser)
    parser.add_argument("--block", action="append", metavar="SHAPES",
                        help="block shapes, like 32x8,32x16,256 (repeatable)")
    parser.add_argument("--shared-mem", default="0", metavar="B",
                        help="dynamic shared memory in bytes (may be an {EXPR})")
    grid = parser.add_argument_group("sweep")
    grid.add_argument("--param", action="append", default=[], metavar="NAME=V1,V2",
                      help="a swept parameter (repeatable); see below")
    grid.add_argument("--autotune", action="store_true",
                      help="a Triton kernel under @triton.autotune: one row per triton.Config of its list "
                           "(its constexprs, num_warps, num_stages; they may appear in {EXPR}s); the "
                           "default for such a kernel when no --block is given")
    grid.add_argument("--tune", action="append", default=[], metavar="NAME",
                      help="a parameter that is a tuning knob like the block, not a problem: "
                           "best is chosen across its values too")
    grid.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                      help="processes on this machine (default: every core)")
    grid.add_argument("--dask", metavar="ADDRESS",
                      help="run on a dask.distributed cluster: its scheduler (tcp://host:8786), "
                           "or 'local' for a LocalCluster of --jobs workers")
    grid.add_argument("--json", action="store_true", help="print every row (all counters) as JSON")
    grid.add_argument("--plot", metavar="FILE.png", help="also plot the ranking figure per block")
    parser.set_defaults(run=run_sweep)


def run_sweep(args: argparse.Namespace) -> int:
    unknown = [name for name in args.tune if name not in {p.partition("=")[0].strip() for p in args.param}]
    if unknown:
        raise LaunchError(f"--tune {unknown[0]}: not a --param")
    jobs = sweep_jobs(args)
    options = launch_args.LaunchOptions.of(args)
    with progress.bar(len(jobs), "sweep", progress.wanted(args.json)) as advance:
        if args.dask:
            rows = run_dask(jobs, options, args.dask, advance, local_workers=max(1, args.jobs))
        else:
            rows = run_local(jobs, options, args.jobs, advance)
    tuned = {k for job in jobs if job.point.stages is not None for k in [*job.point.config, "num_warps", "num_stages"]}
    rows = mark_best(rows, [*args.tune, *sorted(tuned)])   # a config's values are knobs, as the block
    if args.json:
        print(ROWS.dump_json(rows, indent=2).decode())
    else:
        launch_args.make_console().print(table(rows))
    if args.plot:
        message = f"wrote {args.plot}" if plot(rows, args.plot) else \
            "--plot: matplotlib is missing (pip install 'memsim[plot]'); no plot written"
        print(message, file=sys.stderr if args.json else sys.stdout)
    return 0
