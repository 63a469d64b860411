"""Microbenchmarks that measure a GPU profile's numbers (run by `validate calibrate --measure`).

Two passes, like `gpu/measure.py`, because profiling perturbs timing:
- the event pass (this process): CUDA-event timings at the clocks the GPU runs by itself
  (boost): streaming copy and read bandwidth, L2 and L1 read bandwidth, shared-memory
  wavefront rates, pointer-chase latency per level (in SM cycles from clock64), the SM clock
  itself, and launch overhead (one launch between events, and many back to back);
- the ncu pass (`python -m gpu.calibrate --ncu-pass FILE` under ncu, base clocks locked and
  caches flushed as for every recorded case): gpu__time_duration of an empty kernel (the floor
  of every duration ncu reports), of the copy, and of a DRAM pointer chase, with the SM and DRAM
  clocks ncu locked.

Every result is one number in `CalibrationResult.values`, named `<benchmark>.<quantity>`.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from memsim.errors import MemsimError

from . import microbench, ncu
from .errors import ProfilerError
from .launch import require_cupy
from .timing import time_launch
from .versions import Versions, collect

KERNELS = Path(__file__).with_name("calibrate_kernels.cu")
NCU_METRICS = ["gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second",
               "dram__cycles_elapsed.avg.per_second", "dram__bytes_read.sum", "dram__bytes_write.sum"]
MIB = 1 << 20
STREAM_BYTES = 1024 * MIB      # 20x the H100's L2: streaming numbers are DRAM numbers
L2_BYTES = 16 * MIB            # well inside the L2 (50 MB on an H100, 40 MB on an A100)
# Larger than L2, small enough for few TLB misses (64 pages of 2 MB); 1 GiB shows the TLB's cost.
DRAM_CHASE_BYTES = 128 * MIB
CHASE_STRIDE = 4096            # bytes between chain nodes of the DRAM chase
THREADS = 1024


class CalibrationResult(BaseModel):
    versions: Versions
    values: dict[str, float] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)


class Bench:
    """The compiled microbenchmarks, launched with CuPy."""

    def __init__(self):
        self.cupy = require_cupy()
        self.module = self.cupy.RawModule(code=KERNELS.read_text(), backend="nvrtc", options=("-std=c++17",))
        props = self.cupy.cuda.runtime.getDeviceProperties(0)
        self.sms = int(props["multiProcessorCount"])
        self.sink = self.cupy.zeros(64, dtype=self.cupy.float32)
        self.cycles = self.cupy.zeros(1, dtype=self.cupy.int64)
        self.word = self.cupy.zeros(1, dtype=self.cupy.uint32)

    def fn(self, name: str):
        return self.module.get_function(name)

    def launcher(self, name: str, grid, block, args, shared_mem: int = 0):
        function = self.fn(name)
        return lambda: function(grid, block, args, shared_mem=shared_mem)

    def chain(self, footprint: int, stride: int, seed: int) -> "object":
        """A random cyclic chain of word indices, one node every `stride` bytes of `footprint`."""
        nodes = footprint // stride
        order = np.random.default_rng(seed).permutation(nodes).astype(np.uint64) * (stride // 4)
        chain = np.zeros(footprint // 4, dtype=np.uint32)
        chain[order] = np.roll(order, -1).astype(np.uint32)
        return self.cupy.asarray(chain)

    def chase_cycles(self, kernel: str, chain, steps: int) -> float:
        """SM cycles per dependent load (clock64 around the timed loop, one thread)."""
        self.fn(kernel)((1,), (1,), (chain, np.int32(steps), self.word, self.cycles))
        self.cupy.cuda.Device().synchronize()
        return float(self.cycles.get()[0]) / steps


def event_pass(bench: Bench) -> dict[str, float]:
    """Everything timed with CUDA events, at the clocks the GPU picks by itself."""
    cp, sms, v = bench.cupy, bench.sms, {}
    clock_cycles = 20_000_000
    spin = time_launch(bench.launcher("k_cal_clock", (1,), (32,), (np.int64(clock_cycles), bench.cycles)))
    v["clock.sm_mhz"] = clock_cycles / (spin.median_ms * 1e3)

    n4 = STREAM_BYTES // 16
    src, dst = cp.ones(n4 * 4, dtype=cp.float32), cp.empty(n4 * 4, dtype=cp.float32)
    for blocks_per_sm in (4, 8, 32):
        grid = (sms * blocks_per_sm,)
        t = time_launch(bench.launcher("k_cal_copy", grid, (256,), (src, dst, np.uint64(n4))))
        v[f"copy_b{blocks_per_sm}.gbs"] = 2 * STREAM_BYTES / (t.median_ms * 1e6)
        t = time_launch(bench.launcher("k_cal_read", grid, (256,), (src, bench.sink, np.uint64(n4))))
        v[f"read_b{blocks_per_sm}.gbs"] = STREAM_BYTES / (t.median_ms * 1e6)
    v["copy.gbs"] = max(v[k] for k in v if k.startswith("copy_b"))
    v["read.gbs"] = max(v[k] for k in v if k.startswith("read_b"))

    l2n4, reps = L2_BYTES // 16, 100
    t = time_launch(bench.launcher("k_cal_l2_read", (sms * 8,), (256,), (src, bench.sink, np.uint64(l2n4), np.int32(reps))))
    v["l2_read.gbs"] = L2_BYTES * reps / (t.median_ms * 1e6)

    reps = 2000
    t = time_launch(bench.launcher("k_cal_l1_read", (sms * 2,), (THREADS,), (src, bench.sink, np.int32(reps))))
    l1_bytes = sms * 2 * 1024 * 16 * reps
    v["l1_read.bytes_per_clk_per_sm"] = l1_bytes / (t.median_ms * 1e-3) / sms / (v["clock.sm_mhz"] * 1e6)

    for name, a, b, wavefronts in (("shared_free", 1, 32, 1), ("shared_conflict32", 32, 1, 32)):
        reps = 4096 if wavefronts == 1 else 256
        t = time_launch(bench.launcher("k_cal_shared", (sms * 2,), (THREADS,),
                                       (bench.sink, np.int32(reps), np.int32(a), np.int32(b))))
        requests = sms * 2 * (THREADS // 32) * reps
        rate = requests * wavefronts / (t.median_ms * 1e-3) / sms / (v["clock.sm_mhz"] * 1e6)
        v[f"{name}.wavefronts_per_clk_per_sm"] = rate

    # L1 and L2 chains have no more nodes than steps, so the warm-up pass touches every node.
    v["latency.l1_cycles"] = bench.chase_cycles("k_cal_chase_l1", bench.chain(16 * 1024, 128, 1), 4096)
    v["latency.l2_cycles"] = bench.chase_cycles("k_cal_chase_l2", bench.chain(2 * MIB, 256, 2), 8192)
    v["latency.shared_cycles"] = bench.chase_cycles("k_cal_chase_shared", bench.chain(4096, 4, 3), 4096)
    scratch = cp.empty(256 * MIB, dtype=cp.uint8)
    for label, footprint in (("dram", DRAM_CHASE_BYTES), ("dram_1g", 1024 * MIB)):
        chain, samples = bench.chain(footprint, CHASE_STRIDE, 4), []
        for _ in range(5):
            scratch.fill(1)  # evict the chain from L2
            samples.append(bench.chase_cycles("k_cal_chase_dram", chain, 4096))
        v[f"latency.{label}_cycles"] = statistics.median(samples)
        v[f"latency.{label}_ns"] = v[f"latency.{label}_cycles"] / v["clock.sm_mhz"] * 1e3
        del chain

    v.update(atomic_rates(bench))

    empty = bench.launcher("k_cal_empty", (1,), (32,), ())
    v["launch.event_single_us"] = time_launch(empty, reps=200).median_ms * 1e3
    v["launch.back_to_back_us"] = back_to_back_us(bench, empty, 2000)
    with_args = bench.launcher("k_cal_empty_args", (1,), (32,), (src, dst, np.int32(1), np.int32(1)))
    v["launch.event_args_us"] = time_launch(with_args, reps=200).median_ms * 1e3
    v["launch.back_to_back_args_us"] = back_to_back_us(bench, with_args, 2000)
    return v


def atomic_rates(bench: Bench) -> dict[str, float]:
    """ns per L2 atomic packet queued at one unit, and per dependent float add on one address
    (k_cal_atomic_unit, k_cal_atomic_float_one), net of the empty launch."""
    cp, sms, v = bench.cupy, bench.sms, {}
    empty_ms = time_launch(bench.launcher("k_cal_empty", (sms * 4,), (256,), ())).median_ms
    bins, reps = cp.zeros(64, dtype=cp.int32), 64
    t = time_launch(bench.launcher("k_cal_atomic_unit", (sms * 4,), (256,), (bins, np.int32(reps))))
    packets = sms * 4 * (256 // 32) * reps * 4   # four sectors a warp instruction, one packet each
    v["atomic_unit.packets"] = packets
    v["atomic_unit.ns_per_packet"] = (t.median_ms - empty_ms) * 1e6 / packets
    total, reps = cp.zeros(1, dtype=cp.float32), 16
    t = time_launch(bench.launcher("k_cal_atomic_float_one", (sms,), (256,), (total, np.int32(reps))))
    adds = sms * 256 * reps
    v["atomic_float_one.ns_per_add"] = (t.median_ms - empty_ms) * 1e6 / adds
    return v


def back_to_back_us(bench: Bench, launch, count: int) -> float:
    """Per launch: `count` launches queued between two events (median of 5 tries)."""
    cp = bench.cupy
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    tries = []
    for _ in range(5):
        start.record()
        for _ in range(count):
            launch()
        stop.record()
        stop.synchronize()
        tries.append(cp.cuda.get_elapsed_time(start, stop) * 1e3 / count)
    return statistics.median(tries)


# The ncu pass: each kernel launched once, in this order; ncu reports them in launch order.
NCU_LAUNCHES = ("empty_1", "empty_full", "copy", "chase_dram")
NCU_CHASE_STEPS = 2048


def ncu_launches(bench: Bench) -> dict[str, float]:
    """Launch the ncu pass's kernels once each; the chase's cycles as the kernel measured them."""
    cp, sms = bench.cupy, bench.sms
    bench.fn("k_cal_empty")((1,), (32,), ())
    bench.fn("k_cal_empty")((sms * 2,), (THREADS,), ())
    n4 = STREAM_BYTES // 16
    src, dst = cp.ones(n4 * 4, dtype=cp.float32), cp.empty(n4 * 4, dtype=cp.float32)
    bench.fn("k_cal_copy")((sms * 8,), (256,), (src, dst, np.uint64(n4)))
    cycles = bench.chase_cycles("k_cal_chase_dram", bench.chain(DRAM_CHASE_BYTES, CHASE_STRIDE, 4), NCU_CHASE_STEPS)
    return {"ncu.chase_dram_cycles": cycles}


def ncu_pass(workdir: Path) -> dict[str, float]:
    """Run the ncu pass in a child process under ncu; its numbers."""
    tool = ncu.find_ncu()
    workdir.mkdir(parents=True, exist_ok=True)
    log, own = workdir / "calibrate-ncu.csv", workdir / "calibrate-ncu.json"
    program = [sys.executable, "-m", "gpu.calibrate", "--ncu-pass", str(own)]
    cmd = ncu.command(tool, str(log), program, NCU_METRICS)
    cmd[cmd.index(ncu.KERNEL_FILTER)] = "regex:^k_cal_(empty|copy|chase_dram)"
    done = ncu.run(cmd, timeout_s=300)
    if done.returncode != 0 or not own.exists():
        raise ProfilerError(f"the ncu calibration pass failed (exit {done.returncode}): "
                                f"{(done.stderr or done.stdout).strip()[-300:]}")
    rows = ncu.parse_csv(log.read_text())
    if len(rows) != len(NCU_LAUNCHES):
        raise ProfilerError(f"ncu reported {len(rows)} calibration launches, expected {len(NCU_LAUNCHES)}")
    values = json.loads(own.read_text())
    for label, row in zip(NCU_LAUNCHES, rows):
        for metric in NCU_METRICS:
            if metric in row.metrics:
                values[f"ncu.{label}.{metric}"] = row.metrics[metric]
    copy_ns = values["ncu.copy.gpu__time_duration.sum"]
    values["ncu.copy.gbs"] = 2 * STREAM_BYTES / copy_ns
    floor = values["ncu.empty_1.gpu__time_duration.sum"]
    values["ncu.chase_dram_ns"] = (values["ncu.chase_dram.gpu__time_duration.sum"] - floor) / NCU_CHASE_STEPS
    return values


def calibrate(workdir: Path, with_ncu: bool = True) -> CalibrationResult:
    """Both passes on device 0."""
    bench = Bench()
    result = CalibrationResult(versions=collect(ncu.version(ncu.find_ncu()) if with_ncu else ""))
    result.values.update(event_pass(bench))
    props = bench.cupy.cuda.runtime.getDeviceProperties(0)
    values, notes = microbench.run(bench.cupy, bench.sms, result.values["clock.sm_mhz"],
                                   int(props["sharedMemPerBlockOptin"]), time_launch)
    result.values.update(values)
    result.notes.extend(notes)
    del bench
    if with_ncu:
        try:
            result.values.update(ncu_pass(workdir))
        except MemsimError as exc:  # the event numbers are still worth keeping
            result.notes.append(f"ncu pass failed: {exc}")
    return result


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(prog="python -m gpu.calibrate")
    args.add_argument("--ncu-pass", type=Path, required=True, help="write the kernel-side numbers here")
    parsed = args.parse_args(argv)
    parsed.ncu_pass.write_text(json.dumps(ncu_launches(Bench())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
