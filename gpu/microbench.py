"""Instruction-level microbenchmarks for a warp-level timing model (run by `validate calibrate --measure`).

Kernels in gpu/microbench_kernels.cu (docs/microbenchmarks.md says what each isolates):
- latency: one warp, a dependent chain timed with clock64 at two iteration counts; the difference
  over the extra instructions is the cycles one instruction adds to the chain;
- throughput: 4 to 64 warps per SM, 8 independent chains a thread; warp instructions per SM
  cycle from each SM's own clock64 span; the plateau is the best over the warp counts;
- SM level: empty blocks (launch cost per block per SM), blocks that spin (the resident-block
  limit as seen) and blocks that fill an SM alone (the gap between one block's end and the next's
  start).
Each benchmark that fails on the device is recorded in the notes as failed; the others go on.
Every result is one number named `<kind>.<benchmark>.<quantity>`, as gpu/calibrate.py's are.
"""
from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np

KERNELS = Path(__file__).with_name("microbench_kernels.cu")
LAT_ITERS = (8, 40)          # two iteration counts: their difference cancels the fixed costs
TP_ITERS = 48
TP_WARPS = (4, 8, 16, 32, 64)
TP_THREADS = 128             # the kernels' TP_THREADS
REPEATS = 3


class Chain(NamedTuple):
    """A latency kernel: `count` chained instructions an iteration (as its SASS holds them,
    tests/gpu/test_microbench_sass.py checks), seeded x, a, b of `dtype`."""
    name: str
    count: int
    mnemonic: str
    dtype: str = "float32"
    seed: tuple = (1.0, 0.5, 0.25)
    threads: int = 32
    kernel: str = ""         # k_lat_<kernel>; the name where empty

    @property
    def function(self) -> str:
        return f"k_lat_{self.kernel or self.name}"


H2_ONE = 0x3C003C00          # two halves of 1.0
LATENCY = [
    Chain("ffma", 32, "FFMA"), Chain("fadd", 32, "FADD", seed=(1.0, 1e-7, 0.0)),
    Chain("imad", 32, "IMAD", "uint32", (7, 3, 1)), Chain("iadd3", 16, "IADD3", "uint32", (7, 3, 1)),
    Chain("mufu_rcp", 32, "MUFU.RCP", seed=(0.5, 0, 0)), Chain("mufu_ex2", 32, "MUFU.EX2", seed=(0.5, 0, 0)),
    Chain("mufu_rsq", 32, "MUFU.RSQ", seed=(0.5, 0, 0)), Chain("mufu_sin", 32, "MUFU.SIN", seed=(0.5, 0, 0)),
    Chain("dfma", 32, "DFMA", "float64"), Chain("dadd", 32, "DADD", "float64", (1.0, 1e-12, 0.0)),
    Chain("hfma2", 32, "HFMA2", "uint32", (H2_ONE, H2_ONE, 0)),
    Chain("f2i_i2f", 32, "F2I", seed=(3.0, 0, 0)),
    Chain("popc", 32, "POPC", "uint32", (12345, 0, 0)), Chain("flo", 32, "FLO", "uint32", (12345, 0, 0)),
    Chain("imad_wide", 32, "IMAD.WIDE", "uint64", (1 << 40, 3, 0)),
    Chain("shfl_idx", 32, "SHFL.IDX", "uint32", (5, 1, 0)), Chain("shfl_bfly", 32, "SHFL.BFLY", "uint32", (5, 1, 0)),
    Chain("ldc", 32, "LDC", "uint32", (0, 0, 0)), Chain("lds", 32, "LDS", "uint32", (0, 0, 0)),
    Chain("sts_lds", 32, "LDS", "uint32", (0, 0, 0)), Chain("ldsm", 32, "LDSM", "uint32", (0, 0, 0)),
    Chain("atoms", 32, "ATOMS", "uint32", (0, 0, 0)), Chain("atomg", 32, "ATOMG", "uint32", (0, 0, 0)),
    Chain("hmma", 32, "HMMA", "uint32", (H2_ONE, H2_ONE, H2_ONE)),
    Chain("bar_w1", 32, "BAR.SYNC", "uint32", (0, 0, 0), 32, "bar"),
    Chain("bar_w4", 32, "BAR.SYNC", "uint32", (0, 0, 0), 128, "bar"),
    Chain("bar_w32", 32, "BAR.SYNC", "uint32", (0, 0, 0), 1024, "bar"),
    Chain("membar", 32, "MEMBAR", "uint32", (0, 0, 0)),
]


class Stream(NamedTuple):
    """A throughput kernel: `count` counted warp instructions a warp an iteration."""
    name: str
    count: int
    mnemonics: tuple[str, ...]
    dtype: str = "float32"
    seed: tuple = (1.0, 0.5, 0.25)


THROUGHPUT = [
    Stream("ffma", 64, ("FFMA",)), Stream("fadd", 64, ("FADD",), seed=(1.0, 1e-7, 0.0)),
    Stream("fmul", 64, ("FMUL",), seed=(1.0, 1.0000001, 0.0)),
    Stream("imad", 64, ("IMAD",), "uint32", (7, 3, 1)), Stream("iadd3", 32, ("IADD3",), "uint32", (7, 3, 1)),
    Stream("lop3", 64, ("LOP3",), "uint32", (7, 3, 1)),
    Stream("isetp", 128, ("ISETP", "SEL"), "uint32", (7, 3, 1)),
    Stream("fsetp", 128, ("FSETP", "FSEL"), seed=(1.0, 0.5, 0.25)),
    Stream("mufu", 64, ("MUFU.EX2",), seed=(0.5, 0, 0)), Stream("dfma", 64, ("DFMA",), "float64"),
    Stream("hfma2", 64, ("HFMA2",), "uint32", (H2_ONE, H2_ONE, 0)),
    Stream("f2i_i2f", 128, ("F2I", "I2FP"), seed=(3.0, 0, 0)),
    Stream("shfl", 64, ("SHFL.BFLY",), "uint32", (5, 1, 0)),
    Stream("lds", 64, ("LDS",), "uint32", (0, 0, 0)), Stream("sts", 64, ("STS",), "uint32", (0, 0, 0)),
    Stream("ldg", 64, ("LDG",), "uint32", (0, 0, 0)),
    Stream("hmma", 32, ("HMMA",), "uint32", (H2_ONE, H2_ONE, H2_ONE)),
]
SEED_WORDS = 4096            # the ldg window reads up to word 64 + 32 * 71 + 31


class Microbench:
    """The compiled kernels and what every launch needs, on device 0 (CuPy)."""

    def __init__(self, cupy, sms: int):
        self.cp, self.sms = cupy, sms
        self.module = cupy.RawModule(code=KERNELS.read_text(), backend="nvrtc", options=("-std=c++17",))
        self.times = cupy.zeros(3 * sms * 64, dtype=cupy.int64)
        self.cycles = cupy.zeros(1, dtype=cupy.int64)
        self.out = cupy.zeros(sms * 64 * TP_THREADS * 2, dtype=cupy.float64)

    def seed(self, dtype: str, values: tuple):
        x, a, b = values
        seed = np.zeros(SEED_WORDS, dtype=dtype)
        seed[:32], seed[32], seed[33] = x, a, b
        return self.cp.asarray(seed)

    def chain_cycles(self, chain: Chain) -> float:
        """Cycles one instruction adds to the chain: the difference of two iteration counts."""
        fn = self.module.get_function(chain.function)
        seed = self.cp.zeros(64, dtype=self.cp.uint32) if chain.name == "atomg" else self.seed(chain.dtype, chain.seed)
        samples = []
        for _ in range(REPEATS):
            measured = []
            for iters in LAT_ITERS:
                fn((1,), (chain.threads,), (seed, np.int32(iters), self.cycles, self.out))
                measured.append(int(self.cycles.get()[0]))
            samples.append((measured[1] - measured[0]) / ((LAT_ITERS[1] - LAT_ITERS[0]) * chain.count))
        return statistics.median(samples)

    def s2r_cycles(self) -> float:
        """S2R's bracket minus the same bracket around a fixed-latency move, per read."""
        seed, iters = self.seed("uint32", (1, 0, 0)), 256
        per = {}
        for name in ("s2r", "s2r_base"):
            fn, samples = self.module.get_function(f"k_lat_{name}"), []
            for _ in range(REPEATS):
                fn((1,), (32,), (seed, np.int32(iters), self.cycles, self.out))
                samples.append(int(self.cycles.get()[0]) / iters)
            per[name] = statistics.median(samples)
        return per["s2r"] - per["s2r_base"]

    def stream_rate(self, stream: Stream, warps: int) -> float:
        """Warp instructions per SM cycle with `warps` warps per SM (median over the SMs)."""
        blocks = self.sms * warps * 32 // TP_THREADS
        fn = self.module.get_function(f"k_tp_{stream.name}")
        seed = self.seed(stream.dtype, stream.seed)
        fn((blocks,), (TP_THREADS,), (seed, np.int32(TP_ITERS), self.times, self.out))
        rows = self.times[:3 * blocks].get().reshape(blocks, 3)
        per_sm = defaultdict(list)
        for start, stop, smid in rows:
            per_sm[int(smid)].append((int(start), int(stop)))
        rates = []
        for spans in per_sm.values():
            span = max(s for _, s in spans) - min(s for s, _ in spans)
            rates.append(len(spans) * (TP_THREADS // 32) * TP_ITERS * stream.count / span)
        return statistics.median(rates)

    def block_spans(self, blocks: int, threads: int, spin: int, shared: int = 0) -> dict[int, list[tuple[int, int]]]:
        fn = self.module.get_function("k_sm_blocks")
        if shared:
            fn.max_dynamic_shared_size_bytes = shared
        times = self.cp.zeros(3 * blocks, dtype=self.cp.int64)
        fn((blocks,), (threads,), (np.int64(spin), times), shared_mem=shared)
        per_sm = defaultdict(list)
        for start, stop, smid in times.get().reshape(blocks, 3):
            per_sm[int(smid)].append((int(start), int(stop)))
        return {sm: sorted(spans) for sm, spans in per_sm.items()}


def resident_blocks(bench: Microbench, spin: int = 20000) -> float:
    """Blocks of 32 threads an SM runs at once: those that start within half a spin of its first."""
    counts = [sum(1 for s, _ in spans if s < spans[0][0] + spin // 2)
              for spans in bench.block_spans(bench.sms * 64, 32, spin).values()]
    return float(statistics.median(counts))


def turnaround_cycles(bench: Microbench, threads: int, shared: int) -> float:
    """Median gap between one block's last clock and the next block's first on the same SM, with
    shared memory that lets only one block on an SM at a time."""
    gaps = [b[0] - a[1] for spans in bench.block_spans(bench.sms * 8, threads, 2000, shared).values()
            for a, b in zip(spans, spans[1:])]
    return float(statistics.median(gaps))


def launch_cycles_per_block(bench: Microbench, threads: int, sm_mhz: float, time_launch) -> float:
    """SM cycles each empty block adds on its SM: the slope of event time over block count."""
    fn = bench.module.get_function("k_sm_empty")
    counts = (bench.sms * 32 * 4, bench.sms * 32 * 36)
    ms = [time_launch(lambda n=n: fn((n,), (threads,), ())).median_ms for n in counts]
    ns_per_block = (ms[1] - ms[0]) * 1e6 / (counts[1] - counts[0])
    return ns_per_block * bench.sms * sm_mhz / 1e3


def run(cupy, sms: int, sm_mhz: float, shared_optin: int, time_launch) -> tuple[dict[str, float], list[str]]:
    """Every microbenchmark; (values, notes naming those that failed)."""
    values, notes = {}, []

    def attempt(label: str, measure: Callable[[], dict[str, float]]) -> None:
        try:
            values.update(measure())
        except Exception as exc:   # a benchmark the device rejects must not stop the others
            notes.append(f"microbenchmark {label} failed: {type(exc).__name__}: {str(exc)[:200]}")
            try:
                cupy.cuda.Device().synchronize()
            except Exception:
                pass

    try:
        bench = Microbench(cupy, sms)
    except Exception as exc:
        return values, [f"microbenchmarks not compiled: {type(exc).__name__}: {str(exc)[:300]}"]
    for chain in LATENCY:
        attempt(f"lat.{chain.name}", lambda c=chain: {f"lat.{c.name}.cycles": bench.chain_cycles(c)})
    attempt("lat.s2r", lambda: {"lat.s2r.cycles": bench.s2r_cycles()})
    for stream in THROUGHPUT:
        def sweep(s=stream) -> dict[str, float]:
            rates = {f"tp.{s.name}.w{w}": bench.stream_rate(s, w) for w in TP_WARPS}
            return {**rates, f"tp.{s.name}.plateau": max(rates.values())}
        attempt(f"tp.{stream.name}", sweep)
    attempt("sm.resident_blocks", lambda: {"sm.resident_blocks": resident_blocks(bench)})
    for threads in (32, 1024):
        attempt(f"sm.turnaround_t{threads}", lambda t=threads: {
            f"sm.turnaround_t{t}.cycles": turnaround_cycles(bench, t, shared_optin)})
        attempt(f"sm.launch_t{threads}", lambda t=threads: {
            f"sm.launch_t{t}.cycles_per_block": launch_cycles_per_block(bench, t, sm_mhz, time_launch)})
    return values, notes
