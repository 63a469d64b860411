"""Launch lrc_probe.cu's pairs (under ncu: one profiled launch each) and print the SM of every
block per launch as JSON; see run_lrc_probe.sh.

    ncu ... python lrc_probe.py > launches.json
"""
import json
import sys
from pathlib import Path

import cupy as cp

MOD = cp.RawModule(code=Path(__file__).with_name("lrc_probe.cu").read_text(), backend="nvrtc",
                   options=("-std=c++17",))
SMS = 132
DELAYS = (0, 50, 100, 200, 400, 800, 1600)
# Block 0 runs on SM 128; blocks 16, 18, ... (SMs 2, 18, 34, 50, 64, 78, 92, 106) as bases too.
BASES = (0, 16, 18, 20, 22, 24, 26, 28, 30)
LAUNCHES = [("pair", j, 0, base) for base in BASES for j in range(SMS) if j != base] if not {"--loaded-only", "--words-only", "--copy2d-only", "--small-grids", "--strided", "--all-pairs"} & set(sys.argv) else []
if not {"--loaded-only", "--words-only", "--copy2d-only", "--small-grids", "--strided", "--all-pairs"} & set(sys.argv):
    LAUNCHES += [("pair", j, d, 0) for j in (1, 2, 3, 8, 9, 64) for d in DELAYS[1:]]
    LAUNCHES += [("pair_reversed", j, 0, 0) for j in (1, 2, 3, 8, 9, 64)]
# (warps per block, sector groups, busy blocks): the pair (blocks 0 and 2, one domain) under load
LOADED = [(w, h, busy) for w in (1, 2, 4, 8) for h in (1, 2) for busy in (0, 16, 32, 132)]
if {"--words-only", "--copy2d-only", "--small-grids", "--strided", "--all-pairs"} & set(sys.argv):
    LOADED = []
# the partner's word of the shared sectors (the base reads word 0)
# (grid, busy blocks, stride in floats): the pair under load with its lines 128 or 256 bytes apart
STRIDED = [(g, b, s) for g in (32, 132) for b in (0, 32) for s in (32, 64)] if "--strided" in sys.argv else []
# (grid, pair bit, stride, partner's word): every block paired, all at once
ALL_PAIRS = ([(g, p, s, w) for g in (32, 132) for p in (1, 2) for s in (32, 64) for w in (0, 4)]
             if "--all-pairs" in sys.argv else [])
# grid sizes whose placement and coalescing pairs (block 0 with each other block, 8 warps each) are probed
SMALL_GRIDS = (16, 32, 64) if "--small-grids" in sys.argv else ()
WORDS = (0, 1, 2, 4, 7, 8) if not {"--copy2d-only", "--small-grids", "--strided", "--all-pairs"} & set(sys.argv) else ()
# (threads per block, blocks): the block scheduler's placement by block size
WHERE = [(t, g) for t in (32, 64, 128, 256, 512, 1024) for g in (132, 264)] if not {"--loaded-only", "--words-only", "--copy2d-only", "--small-grids", "--strided", "--all-pairs"} & set(sys.argv) else []


def main() -> None:
    src = cp.arange(1 << 20, dtype=cp.float32)
    out = cp.zeros(SMS * 32, cp.float32)
    sm = cp.full(2048, -1, cp.int32)
    when = cp.zeros(2048, cp.uint64)
    rows = []
    for kind, partner, delay, base in LAUNCHES:
        MOD.get_function(f"k_{kind}")((SMS,), (32,), (src, out, sm, cp.int32(partner), cp.int64(delay),
                                                       cp.int32(base)))
        cp.cuda.Device().synchronize()
        rows.append(dict(kind=kind, partner=partner, delay=delay, base=base, sm=sm.get()[:SMS].tolist()))
    big = cp.arange(1 << 23, dtype=cp.float32)
    wide = cp.zeros(SMS * 1024, cp.float32)
    for warps, halves, busy in LOADED:
        MOD.get_function("k_pair_load")((SMS,), (32 * warps,), (big, wide, sm, cp.int32(2), cp.int32(0),
                                                                 cp.int32(halves), cp.int32(busy)))
        cp.cuda.Device().synchronize()
        rows.append(dict(kind="pair_load", warps=warps, halves=halves, busy=busy, partner=2, base=0, delay=0,
                         sm=sm.get()[:SMS].tolist()))
    src8k = cp.arange(8192, dtype=cp.float32)
    out8k = cp.zeros(8192, cp.float32)
    for kind, grid in (("2d_copy", (2, 16)), ("2d_copy_lin", (32, 1))):
        MOD.get_function(f"k_{kind}")(grid, (64, 4), (src8k, out8k, cp.int32(64), cp.int32(1), cp.int32(128)))
        cp.cuda.Device().synchronize()
        rows.append(dict(kind=kind, grid=list(grid), partner=-1, base=-1, delay=0, sm=[]))
    for grid, busy, stride in STRIDED:
        MOD.get_function("k_pair_stride")((grid,), (256,), (big, wide, sm, cp.int32(2), cp.int32(0), cp.int32(2),
                                                           cp.int32(busy), cp.int32(stride)))
        cp.cuda.Device().synchronize()
        rows.append(dict(kind="pair_stride", grid=[grid], busy=busy, stride=stride, partner=2, base=0, delay=0,
                         sm=sm.get()[:grid].tolist()))
    for grid, pair_bit, stride, word in ALL_PAIRS:
        MOD.get_function("k_all_pairs")((grid,), (256,), (big, wide, cp.int32(pair_bit), cp.int32(stride), cp.int32(word)))
        cp.cuda.Device().synchronize()
        rows.append(dict(kind="all_pairs", grid=[grid], pair_bit=pair_bit, stride=stride, word=word, partner=-1,
                         base=-1, delay=0, sm=[]))
    for blocks in SMALL_GRIDS:
        for partner in range(1, blocks):
            MOD.get_function("k_pair")((blocks,), (256,), (src, out, sm, cp.int32(partner), cp.int64(0), cp.int32(0)))
            cp.cuda.Device().synchronize()
            rows.append(dict(kind="pair_small", grid=[blocks], partner=partner, base=0, delay=0,
                             sm=sm.get()[:blocks].tolist()))
        MOD.get_function("k_where")((blocks,), (256,), (sm, when))
        cp.cuda.Device().synchronize()
        rows.append(dict(kind="where_small", grid=[blocks], partner=-1, base=-1, delay=0, sm=sm.get()[:blocks].tolist()))
    MOD.get_function("k_where2d")((2, 16), (64, 4), (sm,))
    cp.cuda.Device().synchronize()
    rows.append(dict(kind="where2d", grid=[2, 16], partner=-1, base=-1, delay=0, sm=sm.get()[:32].tolist()))
    for word in WORDS:
        MOD.get_function("k_pair_word")((SMS,), (32,), (src, out, sm, cp.int32(2), cp.int32(0), cp.int32(word)))
        cp.cuda.Device().synchronize()
        rows.append(dict(kind="pair_word", word=word, partner=2, base=0, delay=0, sm=sm.get()[:SMS].tolist()))
    for threads, blocks in WHERE:
        MOD.get_function("k_where")((blocks,), (threads,), (sm, when))
        cp.cuda.Device().synchronize()
        w = when.get()[:blocks].astype("int64")
        rows.append(dict(kind="where", threads=threads, blocks=blocks, sm=sm.get()[:blocks].tolist(),
                         ns=(w - w.min()).tolist()))
    json.dump(rows, sys.stdout)


if __name__ == "__main__":
    main()
