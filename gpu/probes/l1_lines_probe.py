"""What gpu/probes/l1_lines_probe.cu measures, from its recording (l1_lines_probe_cases.json).

Record on a GPU machine:  bash gpu/measure_on_device.sh file gpu/probes/l1_lines_probe_cases.json
Then here:                python -m gpu.probes.l1_lines_probe <data>/h100/l1_lines_probe_cases.json

Prints, per lane stride (in 4-byte words), the SM cycles at ncu's base clock one warp's global
load takes in L1 when every load hits: the duration's growth from 64 to 512 iterations over the
growth of ncu's request count per SM. It is the timing simulation's L1 cost of a request:
profile.timing.l1_tag_cycles_per_line is the 196-byte stride's (32 lines on 32 banks) over 32.
"""
from __future__ import annotations

import argparse
import json

from memsim.gpus import load

STRIDES = (1, 32, 49, 64)
ITERS = (64, 512)
REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"


def cycles_per_request(data: dict, base_mhz: float, sms: int) -> dict[int, float]:
    """{lane stride in words: SM cycles a request} from the recording's cases."""
    cases = {c["name"]: c["metrics"] for c in data["cases"]}
    out = {}
    for stride in STRIDES:
        lo, hi = (cases[f"l1_stride{stride}_i{n}"] for n in ITERS)
        cycles = (hi["gpu__time_duration.sum"] - lo["gpu__time_duration.sum"]) * base_mhz / 1e3
        out[stride] = cycles / ((hi[REQUESTS] - lo[REQUESTS]) / sms)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recording")
    args = parser.parse_args()
    data = json.load(open(args.recording))
    profile = load(data["gpu"])
    for stride, cycles in cycles_per_request(data, profile.clocks.sm_base_mhz, profile.sm_count).items():
        print(f"stride {stride:3d} words: {cycles:6.2f} cycles a request")


if __name__ == "__main__":
    main()
