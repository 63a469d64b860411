"""Launch lrc_probe.cu's probes of the L2 request coalescer (under ncu: one profiled launch each)
and print one JSON row per launch, with the SM of every block where the kernel records it; see
run_lrc_probe.sh.

    ncu ... python lrc_probe.py [PROBE ...] > launches.json      # no PROBE: all of them

PROBES: pairs (which blocks of a full grid coalesce, and after what delay), loaded (a pair while
other blocks read), copy2d (copy2d_col_64x4 and its placement), words (which word of a sector),
small_grids (placement and pairs of 16-64 blocks), strided (a pair's lines 128 or 256 bytes apart),
all_pairs (every block paired at once), where (placement by block size).
"""
import json
import sys
from pathlib import Path

import cupy as cp

MOD = cp.RawModule(code=Path(__file__).with_name("lrc_probe.cu").read_text(), backend="nvrtc",
                   options=("-std=c++17",))
SMS = cp.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"]   # a full grid: one block per SM
DELAYS = (50, 100, 200, 400, 800, 1600)
# Block 0 runs on SM 128; blocks 16, 18, ... (SMs 2, 18, 34, 50, 64, 78, 92, 106) as bases too.
BASES = (0, 16, 18, 20, 22, 24, 26, 28, 30)


SRC, OUT = cp.arange(1 << 20, dtype=cp.float32), cp.zeros(SMS * 32, cp.float32)
BIG, WIDE = cp.arange(1 << 23, dtype=cp.float32), cp.zeros(SMS * 1024, cp.float32)
SM, WHEN = cp.full(2048, -1, cp.int32), cp.zeros(2048, cp.uint64)     # each block's SM and start


def launch(kernel: str, grid, block, args) -> None:
    MOD.get_function(f"k_{kernel}")(grid, block, args)
    cp.cuda.Device().synchronize()


def sms(blocks: int) -> list[int]:
    return SM.get()[:blocks].tolist()


def pairs():
    launches = [("pair", j, 0, base) for base in BASES for j in range(SMS) if j != base]
    launches += [("pair", j, d, 0) for j in (1, 2, 3, 8, 9, 64) for d in DELAYS]
    launches += [("pair_reversed", j, 0, 0) for j in (1, 2, 3, 8, 9, 64)]
    for kind, partner, delay, base in launches:
        launch(kind, (SMS,), (32,), (SRC, OUT, SM, cp.int32(partner), cp.int64(delay), cp.int32(base)))
        yield dict(kind=kind, partner=partner, delay=delay, base=base, sm=sms(SMS))


def loaded():
    """The pair (blocks 0 and 2, one GPC) with 1-8 warps, one or two sector groups, while blocks
    0..busy-1 read private lines."""
    for warps in (1, 2, 4, 8):
        for halves in (1, 2):
            for busy in (0, 16, 32, 132):
                launch("pair_load", (SMS,), (32 * warps,),
                       (BIG, WIDE, SM, cp.int32(2), cp.int32(0), cp.int32(halves), cp.int32(busy)))
                yield dict(kind="pair_load", warps=warps, halves=halves, busy=busy, partner=2, base=0, delay=0,
                           sm=sms(SMS))


def copy2d():
    src8k, out8k = cp.arange(8192, dtype=cp.float32), cp.zeros(8192, cp.float32)
    for kind, grid in (("2d_copy", (2, 16)), ("2d_copy_lin", (32, 1))):
        launch(kind, grid, (64, 4), (src8k, out8k, cp.int32(64), cp.int32(1), cp.int32(128)))
        yield dict(kind=kind, grid=list(grid), partner=-1, base=-1, delay=0, sm=[])
    launch("where2d", (2, 16), (64, 4), (SM,))
    yield dict(kind="where2d", grid=[2, 16], partner=-1, base=-1, delay=0, sm=sms(32))


def words():
    """The partner reads word `word` of the shared sectors, the base word 0."""
    for word in (0, 1, 2, 4, 7, 8):
        launch("pair_word", (SMS,), (32,), (SRC, OUT, SM, cp.int32(2), cp.int32(0), cp.int32(word)))
        yield dict(kind="pair_word", word=word, partner=2, base=0, delay=0, sm=sms(SMS))


def small_grids():
    """Block 0 with each other block of a 16-, 32- or 64-block grid (8 warps each), and the
    grid's placement."""
    for blocks in (16, 32, 64):
        for partner in range(1, blocks):
            launch("pair", (blocks,), (256,), (SRC, OUT, SM, cp.int32(partner), cp.int64(0), cp.int32(0)))
            yield dict(kind="pair_small", grid=[blocks], partner=partner, base=0, delay=0, sm=sms(blocks))
        launch("where", (blocks,), (256,), (SM, WHEN))
        yield dict(kind="where_small", grid=[blocks], partner=-1, base=-1, delay=0, sm=sms(blocks))


def strided():
    """The pair under load with its lines 128 or 256 bytes apart (stride in floats)."""
    for grid in (32, 132):
        for busy in (0, 32):
            for stride in (32, 64):
                launch("pair_stride", (grid,), (256,), (BIG, WIDE, SM, cp.int32(2), cp.int32(0), cp.int32(2),
                                                        cp.int32(busy), cp.int32(stride)))
                yield dict(kind="pair_stride", grid=[grid], busy=busy, stride=stride, partner=2, base=0, delay=0,
                           sm=sms(grid))


def all_pairs():
    """Every block paired with block ^ pair_bit, all at once."""
    for grid in (32, 132):
        for pair_bit in (1, 2):
            for stride in (32, 64):
                for word in (0, 4):
                    launch("all_pairs", (grid,), (256,),
                           (BIG, WIDE, cp.int32(pair_bit), cp.int32(stride), cp.int32(word)))
                    yield dict(kind="all_pairs", grid=[grid], pair_bit=pair_bit, stride=stride, word=word,
                               partner=-1, base=-1, delay=0, sm=[])


def where():
    """The block scheduler's placement by block size, with each block's start time."""
    for threads in (32, 64, 128, 256, 512, 1024):
        for blocks in (132, 264):
            launch("where", (blocks,), (threads,), (SM, WHEN))
            w = WHEN.get()[:blocks].astype("int64")
            yield dict(kind="where", threads=threads, blocks=blocks, sm=sms(blocks), ns=(w - w.min()).tolist())


PROBES = {f.__name__: f for f in (pairs, loaded, copy2d, words, small_grids, strided, all_pairs, where)}


def main(names: list[str]) -> int:
    unknown = [n for n in names if n not in PROBES]
    if unknown:
        print(f"error: unknown probe {unknown[0]} (probes: {', '.join(PROBES)})", file=sys.stderr)
        return 2
    rows = [row for name in names or PROBES for row in PROBES[name]()]
    json.dump(rows, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
