"""Run the cache microbenchmarks of probe.cu with CuPy; `--ncu` profiles each launch.

    python probe.py timing > timing.json        # SM and load time of every block (no profiler)
    ncu --csv --page raw ... python probe.py run  # counters of every launch, in LAUNCHES order
"""
import json
import sys
from pathlib import Path

import cupy as cp
import numpy as np

MOD = cp.RawModule(code=Path(__file__).with_name("probe.cu").read_text(), backend="nvrtc",
                   options=("-std=c++17",))

BCAST = [(g, 0) for g in (1, 2, 3, 4, 8, 9, 16, 32, 64, 66, 112, 132, 264)] + \
        [(g, d) for g in (16, 132) for d in (300, 1000, 3000, 10000, 30000)]
LAUNCHES = ([("bcast", g, d) for g, d in BCAST]
            + [("stmerge", 1, d) for d in (0, 30, 100, 300, 1000, 3000)]
            + [("stmerge_sms", g, 0) for g in (2, 4, 8)]
            + [("stgap", 1, g) for g in (0, 1, 2, 4, 8, 16)]
            + [("warps_same", w, d) for w, d in ((2, 0), (8, 0), (32, 0), (8, 300), (8, 1000), (8, 3000))]
            + [("empty", 1, 0)])


def launch(kind, a, b):
    f = MOD.get_function(f"k_{kind}")
    big = cp.zeros(1 << 22, cp.float32)
    src = cp.arange(1 << 22, dtype=cp.float32)
    sm = cp.full(1024, -1, cp.int32)
    when = cp.zeros(1024, cp.uint64)
    if kind == "bcast":
        f((a,), (32,), (src, big, sm, when, cp.int64(b), cp.int32(32)))
    elif kind == "stmerge":
        f((1,), (128,), (big, cp.int64(b)))
    elif kind == "stmerge_sms":
        f((a,), (32,), (big,))
    elif kind == "stgap":
        f((1,), (32,), (big, cp.int32(b)))
    elif kind == "warps_same":
        f((1,), (32 * a,), (src, big, cp.int64(b)))
    else:
        f((1,), (32,), (big,))
    cp.cuda.Device().synchronize()
    return sm, when


if __name__ == "__main__":
    if sys.argv[1] == "timing":
        out = []
        for kind, a, b in LAUNCHES:
            if kind != "bcast":
                continue
            sm, when = launch(kind, a, b)
            w = when.get()[:a].astype(np.int64)
            out.append(dict(grid=a, delay=b, sm=sm.get()[:a].tolist(), ns=(w - w.min()).tolist()))
        json.dump(dict(launches=out), sys.stdout)
    else:
        for spec in LAUNCHES:
            launch(*spec)
        print(json.dumps(LAUNCHES))
