"""The atomic probe (gpu/probes/atomic_probe.cu): what global and shared atomics cost on the GPU,
against the addresses a warp's lanes hit, the addresses the whole grid hits and the SMs taking
part; recorded under ncu at base clocks, three launches a case.

Record on a GPU machine (ncu, CuPy; about two minutes on an H100):
    python -m gpu.probes.atomic_probe record OUT.json
Then here (no GPU):
    python -m gpu.probes.atomic_probe derive gpu/probes/h100_atomic_probe.json

`derive` prints each case's time per warp instruction, per packet (ncu's global atomic sectors:
the packets L1 sends to L2, docs/time-model.md "Atomics") and per SM, and the figures the
timing simulation reads (memsim/gpus/profiles/h100.json, `atomics`): see probe_figures.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

SOURCE = Path(__file__).with_name("atomic_probe.cu")
DURATION = "gpu__time_duration.sum"
METRICS = [DURATION,
           "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
           "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
           "sm__sass_inst_executed_op_shared_atom.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"]
LAUNCHES = 3
SMS = 132                       # H100 SXM; a grid of at most this many blocks puts one on each SM
TARGET_NS = 60_000              # each case is sized to run about this long (the fixed costs ~3 us)
GLOBAL_OPS = {"red": 0, "atom": 1, "redf": 2, "atomf": 3, "chain": 4}
SHARED_OPS = {"inc": 0, "add": 1, "addr": 2, "addf": 3, "chain": 4}
WORDS = 1 << 24                 # the global buffer: 64 MiB (more than the 50 MB L2)


def _global(name: str, op: str, blocks: int, threads: int, *, lshift: int = 0, s: int = 1, wstride: int = 0,
            istride: int = 0, omask: int = 0, amask: int = WORDS - 1, hash_: int = 0, off: int = 0, base_cost: float = 32.0,
            iters: int | None = None, tags=()) -> dict:
    """A k_gatom case; `base_cost`: the ns a warp instruction is expected to take the busiest unit
    over the whole grid (to size `iters` so the launch runs about TARGET_NS)."""
    warps = blocks * threads // 32
    if iters is None:
        # at most ~200 packets a ns over the GPU (one a cycle per SM): a bound on the rate
        iters = max(2, min(200_000, round(TARGET_NS / (warps * max(base_cost, 32 / 200)))))
    args = ["uint32[%d]:zeros" % (WORDS + (1 << 20)), "uint32[64]:zeros"] + [
        f"int32:{v}" for v in (iters, lshift, s, wstride, istride, omask, amask, hash_, off, 0)]
    spec = dict(source=SOURCE.read_text(), kernel=f"k_gatom<{GLOBAL_OPS[op]}>", grid=[blocks, 1, 1],
                block=[threads, 1, 1], args=args)
    params = dict(space="global", op=op, blocks=blocks, threads=threads, iters=iters, lanes_per_address=1 << lshift,
                  s=s, wstride=wstride, istride=istride, omask=omask, amask=amask, hash=hash_, off=off)
    return dict(name=name, spec=spec, tags=["probe", "atomic", *tags], params=params)


def _shared(name: str, op: str, *, lshift: int = 0, s: int = 1, istride: int = 0, amask: int = 4095,
            hash_: int = 0, warps: int = 16, blocks: int = SMS, cycles: float = 4.0, tags=()) -> dict:
    """A k_satom case, one block an SM; `cycles`: the SM cycles a warp instruction is expected to
    cost (to size `iters`)."""
    iters = max(4, min(200_000, round(TARGET_NS * 1.59 / (warps * cycles))))
    args = ["uint32[1024]:zeros"] + [f"int32:{v}" for v in (iters, lshift, s, istride, amask, hash_, 0)]
    spec = dict(source=SOURCE.read_text(), kernel=f"k_satom<{SHARED_OPS[op]}>", grid=[blocks, 1, 1],
                block=[32 * warps, 1, 1], args=args)
    params = dict(space="shared", op=op, blocks=blocks, threads=32 * warps, iters=iters, lanes_per_address=1 << lshift,
                  s=s, istride=istride, amask=amask, hash=hash_)
    return dict(name=name, spec=spec, tags=["probe", "atomic", "shared-atomic", *tags], params=params)


def cases() -> list[dict]:
    out = []
    add = out.append
    # 1. One address for the whole grid, every lane on it (32 packets a warp instruction): the
    #    same-address rate, by operation and by the SMs taking part; twice the iterations for the
    #    slope (the fixed launch costs drop out).
    for op in ("red", "atom", "redf", "atomf"):
        cost = 32 * (0.72 if op in ("red", "atom") else 1.8)
        for blocks in (1, 8, SMS):
            for k in (1, 2):
                warps = blocks * 8
                iters = k * max(2, round(TARGET_NS / (warps * cost)))
                add(_global(f"same_{op}_b{blocks}_x{k}", op, blocks, 256, lshift=5, amask=0, iters=iters))
    for op in ("red", "redf"):
        for blocks in (2, 4, 16, 33, 66):
            add(_global(f"same_{op}_b{blocks}", op, blocks, 256, lshift=5, amask=0,
                        base_cost=32 * (0.72 if op == "red" else 1.8)))
    # 2. One sector, its 8 words, k lanes an address (k packets of 32 / k operations), and one
    #    line (4 packets of 8): does a packet's cost depend on the operations it carries?
    for op in ("red", "redf"):
        per = 0.72 if op == "red" else 1.8
        for lshift in (2, 3, 4):
            add(_global(f"sector_{op}_l{1 << lshift}", op, SMS, 256, lshift=lshift, amask=7, base_cost=(1 << lshift) * per))
        add(_global(f"line_{op}", op, SMS, 256, amask=31, base_cost=4 * per))
    # 3. The unit structure: 32 lanes on 32 addresses spread evenly over R bytes (one operation a
    #    packet from 1 KiB up), the same 32 every instruction; the 1 KiB range also elsewhere.
    for r in (128, 256, 512, 1024, 2048, 4096, 8192, 16384, 65536, 1 << 20):
        add(_global(f"range_red_{r}", "red", SMS, 256, s=r // 128, base_cost=32 * 0.72 / max(1, r // 512)))
    for r in (1024, 8192):
        add(_global(f"range_redf_{r}", "redf", SMS, 256, s=r // 128, base_cost=32 * 1.8 / max(1, r // 512)))
    for off in (256, 512, 1024, 2048, 4096, 65536, 1 << 20):
        add(_global(f"range_red_1024_at{off}", "red", SMS, 256, s=8, off=off // 4, base_cost=16 * 0.72))
    # 4. Histograms: the grid's lanes on pseudo-random words of A (the brief's 32, 256, 4096,
    #    many); RED, ATOM and float.
    for a, cost in ((32, 4 * 0.72), (256, 11 * 0.72), (4096, 1.2), (1 << 20, 0.25), (1 << 24, 1.0)):
        add(_global(f"hist_red_{a}", "red", SMS, 256, hash_=1, amask=a - 1, base_cost=cost))
    for a, cost in ((256, 11 * 0.72), (4096, 1.2)):
        add(_global(f"hist_atom_{a}", "atom", SMS, 1024, hash_=1, amask=a - 1, base_cost=cost))
        add(_global(f"hist_redf_{a}", "redf", SMS, 256, hash_=1, amask=a - 1, base_cost=cost))
    # 5. Spread atomics (4 MiB, in L2) by the SMs taking part: one SM's own rate.
    for blocks in (1, 8, 33, SMS):
        add(_global(f"spread_red_b{blocks}", "red", blocks, 1024, hash_=1, amask=(1 << 20) - 1,
                    base_cost=max(0.25, 20.0 / blocks)))
    for blocks in (1, SMS):
        add(_global(f"spread_atom_b{blocks}", "atom", blocks, 1024, hash_=1, amask=(1 << 20) - 1,
                    base_cost=max(0.25, 60.0 / blocks)))
    # 6. Latency: one warp's chain of dependent ATOMs, alone (distinct sectors, the same address)
    #    and against 131 other SMs' chains on the same address.
    add(_global("chain_spread_w1", "chain", 1, 32, s=8, amask=WORDS - 1, iters=200))
    add(_global("chain_same_w1", "chain", 1, 32, lshift=5, amask=0, iters=200))
    add(_global("chain_same_b132_w1", "chain", SMS, 32, lshift=5, amask=0, iters=20))
    add(_global("chain_same_b132_w8", "chain", SMS, 256, lshift=5, amask=0, iters=4))
    # 7. Shared atomics, one block of 16 warps an SM: k lanes an address (s = 1: distinct banks),
    #    bank conflicts without shared addresses (s = 2..32), random bins, the result used,
    #    floats (a CAS loop), one warp alone, and a chain.
    for op in ("inc", "add"):
        for lshift in range(6):
            add(_shared(f"shared_{op}_l{1 << lshift}", op, lshift=lshift, cycles=2 + 2 * (1 << lshift)))
        for s in (2, 4, 8, 32):
            add(_shared(f"shared_{op}_bank{s}", op, s=s, cycles=2 + 2 * s))
        for a in (4, 32, 256, 4096):
            add(_shared(f"shared_{op}_hist{a}", op, hash_=1, amask=a - 1, cycles=2 + 2 * max(1, 32 // a)))
    for lshift in (0, 5):
        add(_shared(f"shared_addr_l{1 << lshift}", "addr", lshift=lshift, cycles=2 + 2 * (1 << lshift)))
        add(_shared(f"shared_addf_l{1 << lshift}", "addf", lshift=lshift, cycles=40 * (1 << lshift)))
        add(_shared(f"shared_add_l{1 << lshift}_w1", "add", lshift=lshift, warps=1, cycles=30 + 2 * (1 << lshift)))
        add(_shared(f"shared_chain_l{1 << lshift}_w1", "chain", lshift=lshift, warps=1, cycles=40 + 2 * (1 << lshift)))
    return out


def record(path: Path, space: str = "") -> None:
    """Measure every case (of `space`, global or shared, if given) under ncu (base clocks, caches
    flushed) and write the recording."""
    from gpu.driver import DriverCase
    from gpu.measure import MeasureOptions, measure, ncu_method
    todo = [c for c in cases() if c["params"]["space"].startswith(space)]
    options = MeasureOptions(timing=False, metrics=METRICS, launches=LAUNCHES)
    with tempfile.TemporaryDirectory(prefix="atomic-probe-") as work:
        versions, measured = measure([DriverCase(name=c["name"], spec=c["spec"]) for c in todo], Path(work),
                                     options, progress=print)
    rows = [dict(name=c["name"], params=c["params"], error=r.error, durations=r.duration_samples,
                 metrics=r.metrics) for c, r in zip(todo, measured)]
    path.write_text(json.dumps(dict(gpu=versions.gpu, versions=json.loads(versions.model_dump_json()),
                                    method=ncu_method(LAUNCHES, "") + f"; metrics {', '.join(METRICS)}",
                                    source=SOURCE.read_text(), cases=rows), indent=1) + "\n")
    print(f"wrote {path}: {sum(1 for r in rows if not r['error'])} of {len(rows)} cases measured")


def _durations(data: dict) -> dict[str, dict]:
    """{case name: {ns: median duration, packets: global atomic packets, params, metrics}}."""
    out = {}
    for c in data["cases"]:
        if c["error"] or not c["durations"]:
            continue
        m = c["metrics"]
        packets = (m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", 0)
                   + m.get("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", 0))
        requests = (m.get("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", 0)
                    + m.get("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", 0))
        out[c["name"]] = dict(ns=statistics.median(c["durations"]), packets=packets, requests=requests,
                              params=c["params"], metrics=m)
    return out


def probe_figures(data: dict, floor_ns: float, base_mhz: float) -> dict[str, float]:
    """The figures the timing simulation reads, from a recording (`floor_ns`: the empty kernel's
    ncu duration, subtracted where a case is not measured as a slope)."""
    d = _durations(data)
    slope = lambda name: ((d[f"{name}_x2"]["ns"] - d[f"{name}_x1"]["ns"])      # noqa: E731
                          / (d[f"{name}_x2"]["packets"] - d[f"{name}_x1"]["packets"]))
    per_packet = lambda name: (d[name]["ns"] - floor_ns) / d[name]["packets"]   # noqa: E731
    per_request = lambda name: (d[name]["ns"] - floor_ns) / d[name]["requests"]  # noqa: E731
    out = {f"same_address_ns_per_packet_b{b}": slope(f"same_red_b{b}") for b in (1, 8, SMS)}
    out.update({f"same_address_float_ns_per_packet_b{b}": slope(f"same_redf_b{b}") for b in (1, 8, SMS)})
    unit_ns = out[f"same_address_ns_per_packet_b{SMS}"]
    out["unit_cycles_per_packet"] = unit_ns * base_mhz / 1e3
    full = [per_packet(n) for n in ("sector_red_l4", "line_red", "range_red_128")]
    out["full_packet_ns"] = sum(full) / len(full)
    out["full_packet_cycles"] = out["full_packet_ns"] * base_mhz / 1e3
    out["partial_packet_ns"] = sum(per_packet(n) for n in ("sector_red_l8", "sector_red_l16", "range_red_256")) / 3
    out["one_sm_ns_per_packet"] = per_packet("spread_red_b1")
    out["l2_packets_per_ns"] = 1 / per_packet("spread_red_b132")
    out["l2_packets_per_cycle"] = out["l2_packets_per_ns"] * 1e3 / base_mhz
    # units an instruction's 32 one-operation packets spread over: 32 packets x the unit's time /
    # the time an instruction takes
    for name in ("range_red_512", "range_red_1024", "range_red_1024_at256", "range_red_1024_at512",
                 "range_red_1024_at1024", "range_red_1024_at65536"):
        out[f"units_{name}"] = d[name]["packets"] / d[name]["requests"] * unit_ns / per_request(name)
    out["atom_round_trip_ns"] = (d["chain_same_w1"]["ns"] - floor_ns) / d["chain_same_w1"]["params"]["iters"] - 32 * unit_ns
    for name, c in d.items():
        if c["params"]["space"] == "shared":
            inst = c["metrics"]["sm__sass_inst_executed_op_shared_atom.sum"]
            wf = c["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"]
            out[f"wavefronts_per_instruction_{name}"] = wf / inst
            out[f"sm_cycles_per_wavefront_{name}"] = (c["ns"] - floor_ns) * base_mhz / 1e3 / (wf / c["params"]["blocks"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="measure on this machine's GPU (ncu, CuPy)")
    rec.add_argument("out", type=Path)
    rec.add_argument("space", nargs="?", default="", help="global or shared: only those cases")
    der = sub.add_parser("derive", help="print the figures of a recording")
    der.add_argument("recording", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.space)
        return
    from gpu.versions import gpu_slug
    from memsim.gpus import load
    data = json.loads(args.recording.read_text())
    profile = load(gpu_slug(data["gpu"]))
    for name, value in probe_figures(data, profile.launch.kernel_floor_ns, profile.clocks.sm_base_mhz).items():
        print(f"{name:58s} {value:10.3f}")


if __name__ == "__main__":
    main()
