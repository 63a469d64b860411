"""`python -m memsim.run script.py [args]`: an unchanged CuPy or Triton script, every launch in
memsim.

The script's `import cupy` gets memsim.cupy (sys.modules['cupy'] is set before runpy runs it),
so its RawKernel/RawModule launches are simulated and their arrays come back computed. Its
`import triton` gets Triton with memsim.triton's launcher installed (an import hook loads
memsim.triton right after triton: a script that does not use Triton does not pay for it). After
the script, one table lists the launches with the counters that say whether memory is used
well: global requests and sectors per request, shared wavefronts and bank conflicts.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.abc
import importlib.util
import runpy
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from rich.console import Console
from rich.table import Table

from . import cupy as memsim_cupy
from .errors import MemsimError
from .views.render import access_summary, count, dims_text, ratio
from .report import KernelReport

EXIT_USER_ERROR = 2
# (title, provenance, cell of one launch's access-summary rows keyed by label)
_COLUMNS = [
    ("global ld req", "exact", lambda rows: _cell(rows, "global loads", lambda r: count(r.requests))),
    ("ld sectors/req", "exact", lambda rows: _cell(rows, "global loads", lambda r: ratio(r.sectors_per_request))),
    ("global st req", "exact", lambda rows: _cell(rows, "global stores", lambda r: count(r.requests))),
    ("st sectors/req", "exact", lambda rows: _cell(rows, "global stores", lambda r: ratio(r.sectors_per_request))),
    ("shared wavefronts", "exact", lambda rows: _shared(rows, lambda r: r.wavefronts)),
    ("bank conflicts", "unchecked", lambda rows: _shared(rows, lambda r: r.bank_conflicts)),
]


def _cell(rows: dict, label: str, cell) -> str:
    return cell(rows[label]) if label in rows else "-"


def _shared(rows: dict, value) -> str:
    present = [rows[label] for label in ("shared loads", "shared stores") if label in rows]
    return count(sum(value(r) for r in present)) if present else "-"


def launches_table(reports: list[KernelReport]) -> Table:
    """One row per launch: kernel, grid, block and the memory counters that matter most."""
    table = Table(title="launches", title_justify="left")
    for title in ("#", "kernel", "grid", "block"):
        table.add_column(title, justify="right" if title == "#" else "left")
    for title, provenance, _ in _COLUMNS:
        table.add_column(f"{title}\n[dim]{provenance}[/dim]", justify="right")
    for number, report in enumerate(reports, 1):
        rows = dict(access_summary(report))
        table.add_row(str(number), report.kernel, dims_text(report.grid), dims_text(report.block),
                      *(cell(rows) for _, _, cell in _COLUMNS))
    return table


@contextmanager
def cupy_redirected(argv: list[str]) -> Iterator[None]:
    """sys.modules['cupy'] (and its mirrored submodules) and sys.argv as the script sees them,
    restored afterwards."""
    names = ("cupy", "cupy.cuda", "cupy.cuda.runtime", "cupy.random")
    saved = {name: sys.modules.get(name) for name in names}
    saved_argv = sys.argv
    sys.modules.update({"cupy": memsim_cupy, "cupy.cuda": memsim_cupy.cuda,
                        "cupy.cuda.runtime": memsim_cupy.cuda.runtime,
                        "cupy.random": memsim_cupy.random})
    sys.argv = argv
    try:
        yield
    finally:
        sys.argv = saved_argv
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


class _TritonOnMemsim(importlib.abc.MetaPathFinder):
    """Loads memsim.triton (which checks the release and installs its launcher) as soon as the
    script has imported triton; a missing Triton is one line, not a traceback."""

    def find_spec(self, fullname, path, target=None):
        if fullname != "triton":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("triton")
        if spec is None:
            from .triton._toolchain import require_triton
            require_triton()   # raises TritonMissing, naming the release and how to install it
        run_module = spec.loader.exec_module

        def exec_module(module):
            run_module(module)
            importlib.import_module("memsim.triton")

        spec.loader.exec_module = exec_module
        return spec


@contextmanager
def triton_on_memsim() -> Iterator[None]:
    """While the script runs, its first `import triton` also installs memsim.triton."""
    hook = _TritonOnMemsim()
    if "triton" in sys.modules:
        importlib.import_module("memsim.triton")
    else:
        sys.meta_path.insert(0, hook)
    try:
        yield
    finally:
        if hook in sys.meta_path:
            sys.meta_path.remove(hook)


def all_reports() -> list[KernelReport]:
    """memsim.cupy's launches, then memsim.triton's (where the script used it)."""
    triton = sys.modules.get("memsim.triton")
    return memsim_cupy.reports() + (triton.reports() if triton else [])


def run_script(script: str, args: list[str]) -> list[KernelReport]:
    """Run `script` as __main__ with cupy redirected and Triton on memsim; the reports of its
    launches."""
    if not Path(script).is_file():
        raise MemsimError(f"no such script: {script}")
    memsim_cupy.clear_reports()
    if "memsim.triton" in sys.modules:
        sys.modules["memsim.triton"].clear_reports()
    with cupy_redirected([script, *args]), triton_on_memsim():
        runpy.run_path(script, run_name="__main__")
    return all_reports()


def _console() -> Console:
    console = Console()
    return console if console.is_terminal else Console(width=200, no_color=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memsim.run", description=__doc__.splitlines()[0])
    parser.add_argument("script", help="a Python script that imports cupy")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")
    options = parser.parse_args(argv)
    status = 0
    try:
        run_script(options.script, options.args)
    except MemsimError as exc:
        print(f"error: {exc}", file=sys.stderr)
        status = EXIT_USER_ERROR
    except SystemExit as exc:  # the script's own sys.exit: keep its status, still print the table
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    reports = all_reports()
    if reports:
        _console().print(launches_table(reports))
    else:
        print("no kernel launches", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
