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
LAUNCHES = [("pair", j, 0, base) for base in BASES for j in range(SMS) if j != base]
LAUNCHES += [("pair", j, d, 0) for j in (1, 2, 3, 8, 9, 64) for d in DELAYS[1:]]
LAUNCHES += [("pair_reversed", j, 0, 0) for j in (1, 2, 3, 8, 9, 64)]
# (threads per block, blocks): the block scheduler's placement by block size
WHERE = [(t, g) for t in (32, 64, 128, 256, 512, 1024) for g in (132, 264)]


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
    for threads, blocks in WHERE:
        MOD.get_function("k_where")((blocks,), (threads,), (sm, when))
        cp.cuda.Device().synchronize()
        w = when.get()[:blocks].astype("int64")
        rows.append(dict(kind="where", threads=threads, blocks=blocks, sm=sm.get()[:blocks].tolist(),
                         ns=(w - w.min()).tolist()))
    json.dump(rows, sys.stdout)


if __name__ == "__main__":
    main()
