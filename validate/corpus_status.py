"""Which corpus cases each memsim engine runs today: validate/corpus/STATUS.md (and status.json).

    python -m validate.corpus_status [--filter GLOB] [--timeout S] [--engines ptx,sass]

Every case is compiled as the GPU will compile it (its own options); a case whose file includes
toolkit headers that NVRTC does not find here is retried with the local CUDA toolkit's include
folders (-I .../include -I .../include/cccl), and the table says so. Each engine then simulates
each case in a long-lived worker process (Numba compiles once per worker), restarted after a
case runs past --timeout. Where both engines finish, their exact counters are compared.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import multiprocessing as mp
import time
from collections import Counter, defaultdict
from pathlib import Path

from memsim import metrics as m
from memsim.gpus import DEFAULT_ARCH

from .corpus_cases import CORPUS_DIR, corpus_cases, source_file

TOOLKIT_INCLUDES = [Path("/usr/local/cuda/include"), *sorted(Path("/usr/local").glob("cuda-*/include"))]
STATUS_MD = CORPUS_DIR / "STATUS.md"
STATUS_JSON = CORPUS_DIR / "status.json"


def toolkit_options() -> tuple[str, ...]:
    for include in TOOLKIT_INCLUDES:
        if (include / "cuda_fp16.h").exists():
            return (f"-I{include}", f"-I{include / 'cccl'}")
    return ()


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]


def compile_status(case) -> tuple[str, tuple[str, ...]]:
    """('ok' | 'with -I toolkit' | the error line, the options the engines should use)."""
    from memsim.compiler.nvrtc import compile_cuda
    from memsim.errors import MemsimError

    try:
        compile_cuda(case.spec.source, options=case.spec.options)
        return "ok", case.spec.options
    except MemsimError as exc:
        error = first_line(exc)
    extra = toolkit_options()
    if extra and "could not open source file" in error:
        try:
            compile_cuda(case.spec.source, options=(*case.spec.options, *extra))
            return "with -I toolkit", (*case.spec.options, *extra)
        except MemsimError as exc:
            error = first_line(exc)
    return error, ()


def _worker(engine: str, connection) -> None:
    from memsim.engine.simulation import simulate_spec
    cases = {c.name: c for c in corpus_cases()}
    while True:
        message = connection.recv()
        if message is None:
            return
        name, options = message
        spec = cases[name].spec.model_copy(update={"options": tuple(options)})
        started = time.perf_counter()
        try:
            report, _ = simulate_spec(spec, engine=engine)
            exact = {k: report.metrics.get(k) for k in m.EXACT}
            connection.send(("ok", "", time.perf_counter() - started, exact, None))
        except Exception as exc:  # noqa: BLE001 - every failure is a table entry
            own = None
            if engine == "sass" and type(exc).__name__ == "SassParseError":
                own = _own_listing_status(spec)
            connection.send(("error", first_line(exc), time.perf_counter() - started, {}, own))


def kernel_section(listing: str, entry: str) -> str:
    """The lines of one function's .text section of an nvdisasm listing."""
    kept, inside = [], False
    for line in listing.splitlines():
        if line.lstrip().startswith(".section"):
            inside = line.lstrip().startswith(f".section\t.text.{entry},") or \
                line.split()[1:2] == [f".text.{entry},"]
        if inside:
            kept.append(line)
    return "\n".join(kept) + "\n"


def _own_listing_status(spec) -> dict:
    """The SASS engine on the kernel's own section of the listing: the whole listing is parsed,
    so one kernel's unparsable instruction stops every kernel of its file."""
    from memsim.compiler.nvrtc import lowered_name
    from memsim.engine.sass.compile import listing
    from memsim import simulate
    from memsim.engine.sass.engine import SassEngine

    started = time.perf_counter()
    try:
        entry = lowered_name(spec.source, spec.kernel, options=spec.options)
        own = kernel_section(listing(spec.source, DEFAULT_ARCH, tuple(spec.options), "kernel.cu"), entry)
        simulate(spec.source, spec.kernel, spec.grid, spec.block, spec.materialize(), spec.shared_mem,
                 options=spec.options, engine=SassEngine(own))
        return {"status": "ok", "error": "", "seconds": round(time.perf_counter() - started, 2)}
    except Exception as exc:  # noqa: BLE001
        return {"status": "error", "error": first_line(exc), "seconds": round(time.perf_counter() - started, 2)}


class Worker:
    def __init__(self, engine: str):
        self.engine = engine
        self._start()

    def _start(self) -> None:
        self.connection, child = mp.Pipe()
        self.process = mp.get_context("fork").Process(target=_worker, args=(self.engine, child), daemon=True)
        self.process.start()

    def run(self, name: str, options: tuple[str, ...], timeout: float) -> tuple[str, str, float, dict, dict | None]:
        self.connection.send((name, list(options)))
        if self.connection.poll(timeout):
            try:
                return self.connection.recv()
            except EOFError:
                pass
            error = f"worker died (exit {self.process.exitcode})"
        else:
            error = f"timeout: no result in {timeout:.0f} s"
        self.process.kill()
        self.process.join()
        self._start()
        return "error", error, timeout, {}, None

    def close(self) -> None:
        self.connection.send(None)
        self.process.join(5)


def run(engines: list[str], pattern: str, timeout: float) -> list[dict]:
    cases = [c for c in corpus_cases() if fnmatch.fnmatchcase(c.name, pattern)]
    rows = [{"case": c.name, "kernel": c.spec.kernel, "file": source_file(c), "tags": c.tags} for c in cases]
    compiled = []
    for row, case in zip(rows, cases):
        row["compile"], options = compile_status(case)
        compiled.append(options if row["compile"] in ("ok", "with -I toolkit") else None)
    for engine in engines:  # engines one after the other: the machine's cores are shared
        worker = Worker(engine)
        for row, options in zip(rows, compiled):
            if options is None:
                row[engine] = {"status": "no compile", "error": row["compile"], "seconds": 0.0}
                continue
            status, error, seconds, exact, own = worker.run(row["case"], options, timeout)
            row[engine] = {"status": status, "error": error, "seconds": round(seconds, 2), "exact": exact}
            if own:
                row[engine]["own_listing"] = own
            print(f"{engine} {row['case']}: {status} {seconds:.1f} s {error}"
                  + (f" | own listing: {own['status']} {own['error']}" if own else ""), flush=True)
        worker.close()
    if set(engines) >= {"ptx", "sass"}:
        for row in rows:
            if row["ptx"]["status"] == row["sass"]["status"] == "ok":
                a, b = row["ptx"]["exact"], row["sass"]["exact"]
                row["engines_differ"] = sorted(k for k in a if a[k] != b.get(k))
    return rows


_BLOCKERS = [  # (pattern on the first error line, what it is), first match wins
    (r"SASS opcode (\w+) is not emulated \(`([\w.]+)",
     lambda g: f"SASS {g[1]} not emulated" + (f" ({g[2]})" if g[2] != g[1] else "")),
    (r"^UnsupportedInstruction: ([\w.]+) is not emulated", lambda g: f"SASS {g[1]} not emulated"),
    (r"^UnsupportedInstruction: (\w+) width not emulated \(`([\w.]+)", lambda g: f"SASS {g[2]} not emulated"),
    (r"unknown operand .* in `(RET[\w.]*)", lambda g: f"SASS parse: {g[1]} (return from a called "
                                                          "subroutine, e.g. float division's slow path)"),
    (r"unknown operand `([^`]*)` in `([\w.]+)", lambda g: f"SASS parse: {g[2]} operand {g[1]}"),
    (r"register-indexed constant", lambda g: "SASS parse: register-indexed constant bank c[0x3][UR] "
                                             "(__constant__ array indexed at run time)"),
    (r"unsupported instruction '(\w+)' at line \d+: `([^`]*)`",
     lambda g: f"PTX {g[1]} not supported (`{' '.join(g[2].split()[:1] + [w for w in g[2].split()[1:] if not w.startswith(('%', '['))][:2])}`)"),
    (r"cannot parse operand '[^']*\}", lambda g: "PTX parse: inline-asm scoped block `{ .reg ... }` (cuda_fp16.h)"),
    (r"could not open source file \"([^\"]+)\"", lambda g: f"NVRTC cannot find {g[1]}"),
    (r"^timeout", lambda g: "timeout"),
]


def blocker(error: str) -> str:
    """The construct an error line is about, so that cases stopped by one thing group together."""
    import re
    for pattern, name in _BLOCKERS:
        found = re.search(pattern, error)
        if found:
            return name(found)
    return error.split(" (memsim knows")[0]


def _blocker_table(title: str, errors: dict[str, str]) -> list[str]:
    groups: dict[str, list[str]] = defaultdict(list)
    for case, error in errors.items():
        groups[blocker(error)].append(case)
    if not groups:
        return []
    lines = [title, "", "| blocker | cases |", "|---|---|"]
    for name, cases in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"| {_cell(name)} | {len(cases)}: {', '.join(cases)} |")
    return lines + [""]


def _short_metric(name: str) -> str:
    return name.replace(".sum", "").replace("smsp__", "").replace("l1tex__", "").replace("sm__", "")


def render(rows: list[dict], engines: list[str]) -> str:
    lines = ["# Corpus status: which memsim engine runs which case", "",
             "Generated by `python -m validate.corpus_status` (do not edit). Each case is simulated "
             "here, on CPU, by each engine; the comparison with the H100 recording "
             "(validate/data/h100/corpus.json) is `validate run --cases corpus`. `with -I toolkit`: the file includes CUDA headers NVRTC does not find "
             "on its own here; the engines ran it with the local toolkit's include folders.", ""]
    total = len(rows)
    lines += ["## Summary", ""]
    lines.append(f"- {total} launches of {len({(r['file'], r['kernel']) for r in rows})} kernels "
                 f"in {len({r['file'] for r in rows})} files")
    compile_counts = Counter("ok" if r["compile"] == "ok" else
                             ("with -I toolkit" if r["compile"] == "with -I toolkit" else "fails") for r in rows)
    lines.append(f"- NVRTC as the GPU side compiles them: {compile_counts['ok']} compile, "
                 f"{compile_counts['with -I toolkit']} need the toolkit's include folders, "
                 f"{compile_counts['fails']} fail")
    for engine in engines:
        ok = sum(r[engine]["status"] == "ok" for r in rows)
        lines.append(f"- engine {engine}: {ok} of {total} run")
        owned = [r for r in rows if "own_listing" in r[engine]]
        if owned:
            own_ok = sum(r[engine]["own_listing"]["status"] == "ok" for r in owned)
            lines.append(f"  - {len(owned)} stop at a SASS parse error, somewhere in their file's listing "
                         f"(the engine parses every kernel of the cubin); on the kernel's own section of "
                         f"the listing {own_ok} of them run: {ok + own_ok} of {total} would run if only "
                         "the launched kernel were parsed")
    if "engines_differ" in str(rows):
        both = [r for r in rows if "engines_differ" in r]
        differ = [r for r in both if r["engines_differ"]]
        lines.append(f"- both engines run {len(both)}; their exact counters differ in {len(differ)}"
                     + (f" ({', '.join(r['case'] for r in differ)})" if differ else ""))
    lines.append("")
    for engine in engines:
        lines += _blocker_table(f"### What stops the {engine} engine", {
            r["case"]: r[engine]["error"] for r in rows if r[engine]["status"] != "ok"})
        lines += _blocker_table(
            f"### What stops the {engine} engine on the kernel's own section of the listing (cases "
            "stopped by a parse error in their file's listing)", {
                r["case"]: r[engine]["own_listing"]["error"] for r in rows
                if r[engine].get("own_listing", {}).get("status") == "error"})
    lines += ["## Cases", "", "| case | kernel | file | compile | " + " | ".join(engines)
              + (" | engines differ on |" if "engines_differ" in str(rows) else " |"),
              "|---|---|---|---|" + "---|" * len(engines) + ("---|" if "engines_differ" in str(rows) else "")]
    for r in rows:
        cells = [r["case"], f"`{r['kernel']}`", r["file"], _cell(r["compile"] if r["compile"] != "ok" else "ok")]
        for engine in engines:
            e = r[engine]
            cell = (f"ok ({e['seconds']:.1f} s)" if e["status"] == "ok" else
                    ("-" if e["status"] == "no compile" else _cell(e["error"])))
            own = e.get("own_listing")
            if own:
                cell += "; own listing: " + (f"ok ({own['seconds']:.1f} s)" if own["status"] == "ok"
                                             else _cell(own["error"]))
            cells.append(cell)
        if "engines_differ" in str(rows):
            cells.append(", ".join(_short_metric(k) for k in r.get("engines_differ", [])))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m validate.corpus_status", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--filter", default="*", help="glob on case names")
    parser.add_argument("--engines", default="ptx,sass")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per case and engine")
    parser.add_argument("--out", type=Path, default=STATUS_MD)
    parser.add_argument("--render-only", action="store_true",
                        help="rewrite STATUS.md from status.json without simulating")
    args = parser.parse_args(argv)
    engines = args.engines.split(",")
    if args.render_only:
        args.out.write_text(render(json.loads(STATUS_JSON.read_text()), engines))
        print(f"wrote {args.out}")
        return 0
    rows = run(engines, args.filter, args.timeout)
    args.out.write_text(render(rows, engines))
    for row in rows:  # the counters themselves stay out of the repository: rerun to see them
        for engine in engines:
            row[engine].pop("exact", None)
    args.out.with_name(STATUS_JSON.name).write_text(json.dumps(rows, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
