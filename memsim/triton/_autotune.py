"""Choosing among a kernel's configs without a GPU timer: @triton.autotune's list, or the
configs Inductor's heuristics give a generated kernel. Each config is simulated; the one memsim
predicts cheapest wins: the shortest modeled time where the report has one, else the fewest
memory transactions (global sectors + shared wavefronts), as `memsim sweep` marks its best row.
"""
from __future__ import annotations

from .. import metrics as m
from ..report import KernelReport

CHOICE_NOTE = ("memsim ran every config and kept the one it predicts cheapest (modeled time where "
               "there is one, else global sectors + shared wavefronts)")


def cost(report: KernelReport) -> float:
    """What the choice minimises."""
    get = lambda name: report.metrics.get(name, 0)
    duration = get(m.DURATION)
    if duration:
        return float(duration)
    return float(get(m.GLOBAL_LD_SECTORS) + get(m.GLOBAL_ST_SECTORS)
                 + get(m.SHARED_LD_WAVEFRONTS) + get(m.SHARED_ST_WAVEFRONTS))


def cheapest(reports: list[KernelReport]) -> int:
    """The position of the cheapest report (the first of equals: the list's order breaks ties)."""
    costs = [cost(r) for r in reports]
    return costs.index(min(costs))
