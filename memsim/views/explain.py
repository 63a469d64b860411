"""Where a launch's modeled time goes, from the warp-level simulation (memsim.timing) the report
carries: `memsim predict ... --gpu H100 --explain`.

Two tables in the spirit of Nsight Compute's Speed Of Light and Warp State Statistics sections:
how busy each unit of the simulated SM was (issue slots of the four schedulers, the L1 pipe, the
SM's share of L2 and DRAM bandwidth) with the limiter named, and the share of warp-cycles in
each of ncu's warp states (smsp__pcsamp_warps_issue_stalled_*). `stacked_bar` draws the latter
as one bar (matplotlib, the `plot` extra).
"""
from __future__ import annotations

from rich.table import Table

from ..errors import MemsimError
from ..report import KernelReport

UNITS = {"issue": "issue slots (4 schedulers)", "l1": "L1 / shared pipe", "l2": "L2 bandwidth (this SM's share)",
         "dram": "DRAM bandwidth (this SM's share)"}
STATE_NAMES = {"selected": "selected (issuing)", "not_selected": "not selected", "wait": "wait (fixed latency)",
               "long_scoreboard": "long scoreboard (L1TEX: global, local, cold constant)",
               "short_scoreboard": "short scoreboard (MIO: shared, shuffle, S2R, ...)",
               "barrier": "barrier", "math_pipe_throttle": "math pipe throttle", "mio_throttle": "MIO throttle",
               "drain": "drain", "launch": "launch"}
LIMITER = {"issue": "instruction issue", "l1": "the L1/shared pipe", "l2": "L2 bandwidth",
           "dram": "DRAM bandwidth", "latency": "latency (no unit is busy half the time: too little in flight)"}


def explain_tables(report: KernelReport) -> list[Table]:
    """The utilization and warp-state tables; a MemsimError where no simulation ran."""
    sim = report.time_simulation
    if not sim:
        raise MemsimError("--explain needs the warp-level timing simulation: give --gpu with a profile that has "
                          "one (H100, H200) and the SASS engine")
    head = Table(title=f"{report.kernel}: {sim['duration_ns'] / 1e3:,.1f} us modeled, limited by "
                       f"{LIMITER[sim['limiter']]}", title_justify="left")
    head.add_column("unit")
    head.add_column("busy", justify="right")
    for key, label in UNITS.items():
        head.add_row(label, f"{sim['utilization'].get(key, 0.0):.0%}")
    head.add_row("blocks per SM (resident at once)", f"{sim['blocks_per_sm']:,} ({sim['resident_blocks']})")
    head.add_row("block waves simulated (scaled by)", f"{sim['blocks_simulated']:,} (x{sim['scale']:.2f})")
    head.add_row("fixed cost (empty kernel under ncu)", f"{sim['fixed_ns'] / 1e3:.2f} us")
    states = Table(title="warp states (share of warp-cycles)", title_justify="left")
    states.add_column("state")
    states.add_column("share", justify="right")
    for key, share in sorted(sim["stalls"].items(), key=lambda kv: -kv[1]):
        if share > 0.0005:
            states.add_row(STATE_NAMES.get(key, key), f"{share:.1%}")
    return [head, states]


def stacked_bar(report: KernelReport, path: str) -> None:
    """One horizontal bar of the warp states' shares, written to `path` (PNG or SVG)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MemsimError("a picture needs matplotlib: pip install -e '.[plot]'") from None
    sim = report.time_simulation
    if not sim:
        raise MemsimError("--explain needs the warp-level timing simulation (--gpu H100 or H200)")
    fig, ax = plt.subplots(figsize=(8, 1.8))
    left = 0.0
    for key, share in sorted(sim["stalls"].items(), key=lambda kv: -kv[1]):
        if share > 0.005:
            ax.barh([0], [share], left=left, label=f"{key} {share:.0%}")
            left += share
    ax.set_xlim(0, 1)
    ax.set_yticks([])
    ax.set_title(f"{report.kernel}: {sim['duration_ns'] / 1e3:,.1f} us, limited by {sim['limiter']}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=4, fontsize=7, frameon=False)
    fig.savefig(path, bbox_inches="tight", dpi=120)
    plt.close(fig)
