"""`memsim predict OUTPUT_CODE.py --inductor [--json]`: a torch.compile'd graph's generated
module run on memsim (memsim.triton's Inductor runner), one row per launch in the graph's order
(extern kernels such as cuBLAS's mm listed, run by torch on the CPU, not simulated), then each
Triton kernel's per-line tables.
"""
from __future__ import annotations

import argparse

from pydantic import TypeAdapter
from rich.table import Table
from rich.text import Text

from .. import metrics as m
from ..errors import LaunchError
from ..views import render
from .launch_args import make_console

NOT_WITH = ("kernel", "grid", "block", "arg", "constexpr", "num_warps", "num_stages", "gpu", "check", "csv", "metrics")


def run_inductor(args: argparse.Namespace) -> int:
    given = [f"--{name.replace('_', '-')}" for name in NOT_WITH if getattr(args, name, None)]
    if given:
        raise LaunchError(f"--inductor takes the launches from the file: drop {', '.join(given)}")
    if not args.target.endswith(".py"):
        raise LaunchError(f"--inductor: {args.target} is not a .py file (Inductor's output code)")
    import memsim.triton  # noqa: F401  (Triton 3.6.0, one line if missing)
    from ..triton import run_output_code

    launches = run_output_code(args.target).launches
    if args.json:
        rows = [one.model_dump(mode="json", exclude={"spec"}) for one in launches]
        print(TypeAdapter(list[dict]).dump_json(rows, indent=2).decode())
        return 0
    console = make_console()
    console.print(launch_table(args.target, launches))
    for one in launches:
        if one.report is not None:
            for part in render.kernel_tables(one.report, f"#{one.index} {one.kernel}"):
                console.print(part)
    console.print(f"[dim]{render.PROVENANCE_LEGEND}[/dim]")
    return 0


def launch_table(path: str, launches) -> Table:
    table = Table(title=f"{path}: {len(launches)} launches (Inductor's order)", title_justify="left")
    for title in ("#", "kernel", "grid", "block", "config", "ld sectors/req\n[dim]exact[/dim]",
                  "st sectors/req\n[dim]exact[/dim]", "global sectors\n[dim]exact[/dim]",
                  "shared wavefronts\n[dim]exact[/dim]"):
        table.add_column(title, justify="left" if title in ("kernel", "config") else "right")
    for one in launches:
        if one.report is None:
            table.add_row(str(one.index), one.kernel, "-", "-", "extern: torch on the CPU, not simulated", "-", "-", "-", "-")
            continue
        get = lambda name: one.report.metrics.get(name, 0)
        per = lambda num, den: render.ratio(get(num) / get(den)) if get(den) else "-"
        config = " ".join([f"{k}={v}" for k, v in one.constexprs.items()] +
                          [f"warps={one.num_warps}", f"stages={one.num_stages}"]
                          + ([f"(best of {one.configs})"] if one.configs > 1 else []))
        table.add_row(*(Text(c) for c in (
            str(one.index), one.kernel, render.dims_text(one.grid), render.dims_text(one.block), config,
            per(m.GLOBAL_LD_SECTORS, m.GLOBAL_LD_REQUESTS), per(m.GLOBAL_ST_SECTORS, m.GLOBAL_ST_REQUESTS),
            render.count(get(m.GLOBAL_LD_SECTORS) + get(m.GLOBAL_ST_SECTORS)),
            render.count(get(m.SHARED_LD_WAVEFRONTS) + get(m.SHARED_ST_WAVEFRONTS)))))
    return table
