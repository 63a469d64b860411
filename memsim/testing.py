"""Memory budgets in tests: a pytest plugin (entry point `pytest11`, name `memsim`).

A CUDA project can fail CI when a change makes a kernel uncoalesced or bank-conflicted, with
no GPU. The assertions read like the findings and their failures name the source line, the
measured value and the allowed one:

    def test_transpose_reads_coalesced(memsim_launch):
        report = memsim_launch("transpose.cu", "k", (64, 64), (32, 32),
                               ["float32[2048x2048]", "float32[2048x2048]:zeros", "int32:2048"])
        assert_coalesced(report, line=17)
        assert_no_bank_conflicts(report)
        assert_sectors(report, "st", at_most=2048 * 2048 // 8)

The `memsim_launch` fixture simulates each distinct launch once per test session, so many
tests can hold one kernel to several budgets at the cost of one simulation.
"""
from __future__ import annotations

from typing import Callable, Sequence

import pytest

from .errors import MemsimError
from .launch import ArgSpec, LaunchSpec
from .report import KernelReport, LineCounters

__all__ = ["assert_coalesced", "assert_no_bank_conflicts", "assert_sectors", "LaunchCache",
           "memsim_launch"]


def _rows(report: KernelReport, space: str, line: int | None,
          test: Callable[[LineCounters], bool] = lambda row: True) -> list[LineCounters]:
    """The per-line rows of one state space (and line, where given) that executed."""
    rows = [row for row in report.lines if row.space == space and row.requests and test(row)]
    if line is None:
        return rows
    chosen = [row for row in rows if row.line == line]
    if not chosen:
        present = sorted({row.line for row in rows})
        raise AssertionError(f"line {line} of {report.kernel} has no {space} access "
                             f"(lines with {space} accesses: {', '.join(map(str, present)) or 'none'})")
    return chosen


def _where(row: LineCounters) -> str:
    source = f" `{row.source.strip()}`" if row.source.strip() else ""
    return f"line {row.line}{source}"


def assert_coalesced(report: KernelReport, line: int | None = None,
                     min_efficiency: float = 0.9) -> None:
    """Every global access (of `line`, where given) moves at least `min_efficiency` useful
    sectors: ideal sectors / sectors, the coalescing efficiency of `memsim predict`."""
    __tracebackhide__ = True
    failures = [f"{_where(row)}: global {row.op} coalescing efficiency "
                f"{row.coalescing_efficiency:.1%} ({row.sectors_per_request:.2f} sectors/request, "
                f"ideal {row.ideal_sectors_per_request:.2f}), allowed at least {min_efficiency:.1%}"
                for row in _rows(report, "global", line)
                if row.coalescing_efficiency < min_efficiency]
    if failures:
        raise AssertionError(f"{report.kernel} is not coalesced: " + "; ".join(failures))


def assert_no_bank_conflicts(report: KernelReport, line: int | None = None) -> None:
    """No shared access (of `line`, where given) takes more wavefronts than its conflict-free
    minimum."""
    __tracebackhide__ = True
    failures = [f"{_where(row)}: shared {row.op} has {row.bank_conflicts:,} bank conflicts "
                f"({row.wavefronts_per_request:.2f} wavefronts/request, ideal "
                f"{row.ideal_wavefronts / row.requests:.2f}), allowed 0"
                for row in _rows(report, "shared", line) if row.bank_conflicts > 0]
    if failures:
        raise AssertionError(f"{report.kernel} has bank conflicts: " + "; ".join(failures))


def assert_sectors(report: KernelReport, op: str, at_most: int, space: str = "global",
                   line: int | None = None) -> None:
    """The 32-byte sectors of one access kind ("ld" or "st"; global or local memory, of `line`
    where given) stay within a budget."""
    __tracebackhide__ = True
    if op not in ("ld", "st") or space not in ("global", "local"):
        raise MemsimError(f"assert_sectors counts op 'ld' or 'st' in space 'global' or 'local', "
                          f"not op {op!r} in {space!r} (shared memory has wavefronts, not sectors)")
    if at_most < 0:
        raise MemsimError(f"assert_sectors: at_most must be >= 0, not {at_most}")
    rows = _rows(report, space, line, lambda row: row.op == op)
    measured = sum(row.sectors for row in rows)
    if measured > at_most:
        worst = max(rows, key=lambda row: row.sectors)
        raise AssertionError(f"{report.kernel}: {space} {op} moves {measured:,} sectors, allowed "
                             f"at most {at_most:,}; most at {_where(worst)}: {worst.sectors:,} "
                             f"({worst.sectors_per_request:.2f} sectors/request)")


class LaunchCache:
    """Simulates each distinct launch once: the key is the whole LaunchSpec (source, kernel,
    geometry, argument specs, options, seed) and the engine."""

    def __init__(self) -> None:
        self._reports: dict[str, KernelReport] = {}

    def __call__(self, source: str, kernel: str, grid, block, args: Sequence[str | ArgSpec],
                 shared_mem: int = 0, options: Sequence[str] = (), seed: int = 0,
                 engine: str | None = None) -> KernelReport:
        """The report of one launch; `args` as the CLI's --arg (float32[4096]:random, int32:64)."""
        spec = LaunchSpec(source=str(source), kernel=kernel, grid=grid, block=block, args=list(args),
                          shared_mem=shared_mem, options=tuple(options), seed=seed)
        return self.spec(spec, engine)

    def spec(self, spec: LaunchSpec, engine: str | None = None) -> KernelReport:
        """The report of a LaunchSpec, simulated on first request (`engine`: memsim's default)."""
        from .engine import registry
        from .engine.simulation import simulate_spec  # the emulator loads only when a test launches

        engine = engine or registry.DEFAULT
        key = f"{engine}:{spec.model_dump_json()}"
        if key not in self._reports:
            self._reports[key] = simulate_spec(spec, engine=engine)[0]
        return self._reports[key]

    @property
    def simulated(self) -> int:
        """How many launches were simulated (each distinct one once)."""
        return len(self._reports)


@pytest.fixture(scope="session")
def memsim_launch() -> LaunchCache:
    """memsim_launch(source, kernel, grid, block, args, ...) -> KernelReport, each distinct
    launch simulated once per test session."""
    return LaunchCache()
