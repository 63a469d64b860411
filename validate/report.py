"""Show a ComparisonReport: a rich summary on the terminal, Markdown and JSON files, and a PNG
of predicted against measured values per metric (matplotlib, imported only when drawing)."""
from __future__ import annotations

import math
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from memsim import metrics as m
from memsim.errors import MemsimError

from .accuracy import BANDS, ErrorDistribution, TimeRanking, accuracy, time_ranking
from .compare import ComparisonReport, MetricSummary, Status

SHORT_PREFIXES = ("smsp__sass_", "l1tex__", "lts__", "smsp__", "dram__", "gpu__")


def short(metric: str) -> str:
    """A metric name without its unit prefix and '.sum', for narrow tables and plot titles."""
    for prefix in SHORT_PREFIXES:
        if metric.startswith(prefix):
            metric = metric[len(prefix):]
            break
    return metric.removesuffix(".sum")


def verdict_line(report: ComparisonReport) -> str:
    counts = ", ".join(f"{report.count(s)} {s.value}" for s in Status if report.count(s))
    if not report.ok:
        verdict = "EXACT METRICS DIFFER"
    elif report.count(Status.KNOWN):
        verdict = ("every other case equals the hardware on every exact metric; known differences "
                   "are listed, with their evidence, in validate/data/<gpu>/known_differences*.json "
                   "(one file per engine)")
    else:
        verdict = "all exact metrics equal the hardware"
    return f"{len(report.cases)} cases: {counts or 'none'} -- {verdict}"


def metric_cells(row: MetricSummary) -> list[str]:
    """[metric, kind, compared, exact matches or median error, max error]."""
    if not row.compared:
        result, worst = "", ""
    elif row.exact:
        result = f"{row.matched}/{row.compared} equal"
        worst = _percent(row.max_abs_rel_error) if row.matched < row.compared else ""
    else:
        result = f"median {_percent(row.median_abs_rel_error)}"
        worst = _percent(row.max_abs_rel_error)
    if row.not_predicted:
        result = ", ".join(filter(None, [result, f"{row.not_predicted} not predicted"]))
    return [short(row.metric), "exact" if row.exact else "modeled", str(row.compared), result, worst]


METRIC_HEADER = ["metric", "kind", "cases", "result", "max |error|"]
ACCURACY_HEADER = (["modeled metric", "cases"] + [f"<={100 * b:g}%" for b in BANDS]
                   + ["median", "p90", "target", "within target", "exact cases: within", "met"])
ACCURACY_BRIEF = ["modeled metric", "cases", "<=5%", "<=10%", "<=25%", "median", "target",
                  "within (all / exact)", "met"]
MODELED_LABELS = {m.L1_HIT: "L1 hit sectors", m.L1_MISS: "L1 miss sectors", m.L2_READ: "L2 read sectors",
                  m.L2_WRITE: "L2 write sectors", m.L2_READ_HIT: "L2 read hit sectors",
                  m.DRAM_READ: "DRAM bytes read", m.DRAM_WRITE: "DRAM bytes written",
                  m.DURATION: "gpu__time_duration"}


def accuracy_cells(row: ErrorDistribution, brief: bool = False) -> list[str]:
    """One modeled metric's error distribution and its target (validate.accuracy)."""
    target = row.target
    wanted = (f"{target.required:.0%} in {target.tolerance:.0%}"
              + (f" or {target.of_loads:.0%} of loads" if target.of_loads else "")) if target else ""
    met = {True: "yes", False: "NO", None: ""}[row.met]
    exact = f"{_percent(row.within_target_exact)} of {row.exact_cases}" if row.exact_cases else ""
    if brief:
        within = f"{_percent(row.within_target)} / {_percent(row.within_target_exact)}" if target else ""
        return [MODELED_LABELS.get(row.metric, short(row.metric)), str(row.cases), _percent(row.within["5%"]),
                _percent(row.within["10%"]), _percent(row.within["25%"]), _percent(row.median_abs_error),
                wanted, within, met]
    return ([f"{MODELED_LABELS.get(row.metric, '')} ({row.metric})", str(row.cases)]
            + [_percent(v) for v in row.within.values()]
            + [_percent(row.median_abs_error), _percent(row.p90_abs_error), wanted,
               _percent(row.within_target), exact, met])


FAILURE_HEADER = ["case", "gpu/set", "status", "detail"]


def failure_cells(report: ComparisonReport, limit: int = 40) -> list[list[str]]:
    return [[c.name, f"{c.gpu}/{c.case_set}", c.status.value, c.detail[:160]]
            for c in report.failures[:limit]]


def warnings(report: ComparisonReport, names: int = 6) -> list[str]:
    """Problems of the cases themselves, found by the hardware (they fail no simulator check)."""
    lines = []
    wrong_outputs = [c.name for c in report.cases if c.output_ok is False]
    if wrong_outputs:
        lines.append(f"GPU outputs differ from the catalog reference in {_some(wrong_outputs, names)}")
    contradicted: dict[str, list[str]] = {}
    for case in report.cases:
        for metric in case.wrong_expectations:
            contradicted.setdefault(metric, []).append(case.name)
    for metric, cases in sorted(contradicted.items()):
        lines.append(f"the hardware contradicts the expected {short(metric)} of {_some(cases, names)}")
    return lines


def _some(names: list[str], shown: int) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return f"{len(names)} cases ({', '.join(names[:shown])}{more})"


def print_summary(report: ComparisonReport, console: Console | None = None) -> None:
    console = console or Console()
    for gpu, v in report.versions.items():
        console.print(f"[bold]{gpu}[/]: {v.gpu}, driver {v.driver}, CUDA {v.cuda_runtime}, "
                      f"NVRTC {v.nvrtc}, CuPy {v.cupy}, ncu {v.ncu}, measured {v.date}")
    console.print(table("metrics", METRIC_HEADER, [metric_cells(r) for r in report.summary() if r.compared or r.not_predicted]))
    modeled = accuracy(report)
    if modeled:
        console.print(table("modeled metrics: share of cases within each |error|", ACCURACY_BRIEF,
                            [accuracy_cells(r, brief=True) for r in modeled]))
    ranking = time_ranking(report)
    if ranking:
        console.print(ranking_line(ranking))
    for line in cross_validation_lines(report):
        console.print(line)
    if report.failures:
        console.print(table("failing cases", FAILURE_HEADER, failure_cells(report)))
    for line in warnings(report):
        console.print(f"[yellow]{line}[/]")
    console.print(("[green]" if report.ok else "[red]") + verdict_line(report))


def ranking_line(r: TimeRanking) -> str:
    """Issue 4's rank targets in one line: Spearman over the suite and the seed ladders."""
    rank = "n/a" if r.spearman_suite is None else f"{r.spearman_suite:.3f}"
    wrong = f", wrong: {'; '.join(r.ladder_wrong[:4])}" if r.ladder_wrong else ""
    return (f"gpu__time_duration rank order: Spearman {rank} over {r.suite_cases} suite cases (target "
            f"{r.required}: {_flag(r.met)}); seed ladder pairs ordered wrong {len(r.ladder_wrong)}/"
            f"{r.ladder_pairs}{wrong}")


def table(title: str, header: list[str], rows: list[list[str]]) -> Table:
    """A rich table whose long cells wrap instead of being cut."""
    result = Table(title=title or None, title_justify="left")
    for name in header:
        result.add_column(name, overflow="fold")
    for row in rows:
        result.add_row(*row)
    return result


def markdown(report: ComparisonReport) -> str:
    lines = ["# memsim against hardware", "", verdict_line(report), ""]
    for gpu, v in report.versions.items():
        lines.append(f"- **{gpu}**: {v.gpu}, driver {v.driver}, CUDA {v.cuda_runtime}, NVRTC {v.nvrtc}, "
                     f"CuPy {v.cupy}, ncu {v.ncu}, measured {v.date}")
    notes = warnings(report)
    if notes:
        lines += ["", "## Warnings", ""] + [f"- {line}" for line in notes]
    lines += ["", "## Metrics", ""] + _md_table(METRIC_HEADER, [metric_cells(r) for r in report.summary()])
    modeled = accuracy(report)
    if modeled:
        lines += ["", "## Modeled metrics: error distribution", "",
                  "Share of cases within each relative error, and the issue's target; 'exact cases' are "
                  "those whose exact counters equal the hardware.", ""]
        lines += _md_table(ACCURACY_HEADER, [accuracy_cells(r) for r in modeled])
    ranking = time_ranking(report)
    if ranking:
        lines += ["", ranking_line(ranking)]
    if report.cross_validation:
        lines += ["", "## gpu__time_duration on kernels the fit did not see", ""]
        lines += [f"- {line}" for line in cross_validation_lines(report)[1:]]
        lines += ["", "Per family (report.json has every launch):", ""] + _md_table(
            ["family", "held out", "launches", "within 25%", "worst", "DRAM write within 20%"],
            [[f.family, _flag(f.held_out), str(f.figures.cases), _percent(f.figures.within_25),
              _percent(f.figures.max_error), _percent(f.figures.dram_write_within_20)]
             for f in report.cross_validation.families])
    if report.failures:
        lines += ["", "## Failing cases", ""] + _md_table(FAILURE_HEADER, failure_cells(report, limit=1000))
    lines += ["", "## Cases", ""] + _md_table(
        ["case", "gpu/set", "status", "outputs ok", "sim s"],
        [[c.name, f"{c.gpu}/{c.case_set}", c.status.value, _flag(c.output_ok), f"{c.sim_seconds:.2f}"]
         for c in report.cases])
    return "\n".join(lines) + "\n"


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    escape = lambda cell: cell.replace("|", "\\|")
    return (["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
            + ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows])


def check_report_folder(directory: Path) -> None:
    """MemsimError (one line) unless the reports can be written in `directory`: checked before a
    run, so that minutes of simulation do not end in a folder that cannot be made or written.
    The folder is made here, as write_reports would."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except FileExistsError:
        raise MemsimError(f"--report {directory}: a file of that name (or above it) is in the way") from None
    except NotADirectoryError:
        raise MemsimError(f"--report {directory}: part of that path is a file, not a folder") from None
    except OSError as exc:
        raise MemsimError(f"--report {directory}: cannot write there ({exc.strerror})") from None


def write_reports(report: ComparisonReport, directory: Path, plot: bool = True, note=print) -> list[Path]:
    """report.md, report.json and (with matplotlib) scatter.png, and errors.png where modeled
    metrics were predicted, in `directory`. matplotlib is an optional extra: without it the
    pictures are skipped with one line to `note`, after the text reports are written (they
    are what minutes of simulation produced)."""
    directory.mkdir(parents=True, exist_ok=True)
    written = [directory / "report.md", directory / "report.json"]
    written[0].write_text(markdown(report))
    written[1].write_text(report.model_dump_json(indent=1) + "\n")
    if plot and not has_matplotlib():
        note("skipped scatter.png and errors.png: matplotlib is not installed (pip install -e '.[plot]')")
        plot = False
    if plot and write_scatter(report, directory / "scatter.png"):
        written.append(directory / "scatter.png")
    if plot and write_error_plot(report, directory / "errors.png"):
        written.append(directory / "errors.png")
    return written


def has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def cross_validation_lines(report: ComparisonReport) -> list[str]:
    """The time model's in-sample, leave-one-family-out and held-out figures (validate.lofo)."""
    if report.cross_validation is None:
        return []
    from .lofo import summary_lines   # it imports this package's comparison
    return ["gpu__time_duration on kernels the fit did not see (validate.lofo):"] + [
        f"  {line}" for line in summary_lines(report.cross_validation)]


def write_error_plot(report: ComparisonReport, path: Path) -> bool:
    """Per modeled metric, the share of cases within each |relative error| (a cumulative
    curve, log x) with the target marked; False when no modeled metric was predicted."""
    rows = accuracy(report)
    if not rows:
        return False
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(4, len(rows))
    figure, axes = plt.subplots(math.ceil(len(rows) / columns), columns,
                                figsize=(4.2 * columns, 3.4 * math.ceil(len(rows) / columns)), squeeze=False)
    for axis, row in zip(axes.flat, rows):
        _error_panel(axis, report, row)
    for axis in list(axes.flat)[len(rows):]:
        axis.set_visible(False)
    figure.suptitle("modeled metrics: cumulative share of cases by |relative error|")
    figure.tight_layout(rect=(0, 0, 1, 0.95))
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return True


def _error_panel(axis, report: ComparisonReport, row: ErrorDistribution) -> None:
    for label, keep in (("all cases", lambda c: True), ("exact cases", lambda c: c.status == Status.PASS)):
        errors = sorted(max(abs(c.rel_error), 1e-4) for case in report.cases if keep(case)
                        for c in [case.metric(row.metric)] if c is not None and c.rel_error is not None)
        if errors:
            axis.step(errors, [(k + 1) / len(errors) for k in range(len(errors))], where="post",
                      label=f"{label} ({len(errors)})")
    if row.target:
        axis.axvline(row.target.tolerance, color="k", ls="--", lw=0.8)
        axis.axhline(row.target.required, color="k", ls=":", lw=0.8, label="target")
    axis.set_xscale("log")
    axis.set_ylim(0, 1.02)
    axis.set_title(MODELED_LABELS.get(row.metric, short(row.metric)), fontsize=8)
    axis.set_xlabel("|predicted - measured| / measured", fontsize=8)
    axis.set_ylabel("share of cases", fontsize=8)
    axis.legend(fontsize=6)


def write_scatter(report: ComparisonReport, path: Path) -> bool:
    """Predicted against measured per metric, log-log; False when nothing could be drawn."""
    panels = [(r.metric, r.exact) for r in report.summary() if r.compared]
    if not panels:
        return False
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(4, len(panels))
    rows = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.8 * rows), squeeze=False)
    for axis, (metric, exact) in zip(axes.flat, panels):
        _scatter_panel(axis, report, metric, exact)
    for axis in list(axes.flat)[len(panels):]:
        axis.set_visible(False)
    figure.suptitle("memsim predicted vs hardware measured (ncu)")
    figure.tight_layout(rect=(0, 0, 1, 0.97))  # room for the title
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return True


def _scatter_panel(axis, report: ComparisonReport, metric: str, exact: bool) -> None:
    points: dict[str, list[tuple[float, float]]] = {}
    hidden = 0
    for case in report.cases:
        c = case.metric(metric)
        if c is None or c.rel_error is None:
            continue
        if c.measured <= 0 or c.predicted <= 0:
            hidden += 1  # no place on a log axis
            continue
        label = "mismatch" if c.status == "mismatch" else case.case_set
        points.setdefault(label, []).append((c.measured, c.predicted))
    styles = {"suite": ("tab:blue", "o"), "fuzz": ("tab:orange", "^"), "mismatch": ("tab:red", "x")}
    for label, xy in sorted(points.items()):
        colour, marker = styles.get(label, ("tab:gray", "s"))
        axis.scatter(*zip(*xy), s=14, c=colour, marker=marker, label=f"{label} ({len(xy)})", alpha=0.7)
    values = [v for xy in points.values() for pair in xy for v in pair]
    if values:
        low, high = min(values) / 1.5, max(values) * 1.5
        axis.plot([low, high], [low, high], "k--", lw=0.8, label="predicted = measured")
        axis.set_xscale("log")
        axis.set_yscale("log")
    axis.set_title(f"{short(metric)} ({'exact' if exact else 'modeled'})" + (f", {hidden} zero" if hidden else ""),
                   fontsize=8)
    axis.set_xlabel("measured", fontsize=8)
    axis.set_ylabel("predicted", fontsize=8)
    axis.legend(fontsize=6)


def _percent(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


def _flag(value: bool | None) -> str:
    return {True: "yes", False: "NO", None: "-"}[value]
