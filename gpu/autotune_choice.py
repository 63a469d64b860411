"""Which config Triton's own autotuner picks on the GPU for examples/triton_autotune.py's
kernels (its benchmarker's times, ms), to set beside memsim's choice (docs/triton.md).

    python3 gpu/autotune_choice.py OUT.json      # on the GPU machine; memsim.triton not imported
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import torch
import triton

sys.path.insert(0, str(Path(__file__).parents[1] / "examples"))
import triton_autotune as examples  # noqa: E402

N = 8192


def timings(kernel) -> dict:
    return {"best": str(kernel.best_config),
            "configs": [{"config": str(c), "ms": float(t[0] if isinstance(t, (list, tuple)) else t)}
                        for c, t in kernel.configs_timings.items()]}


def main(out: str) -> int:
    g = torch.Generator().manual_seed(0)
    x = torch.rand(N, generator=g).cuda()
    table = torch.rand(256, generator=g).cuda()
    y = torch.zeros_like(x)
    grid = lambda meta: (triton.cdiv(N, meta["BLOCK"]),)
    examples.scale_rows[grid](x, y, N, 2.0)
    torch.testing.assert_close(y, x * 2)
    examples.scale_by_table_sum[grid](x, table, y, N, TABLE=256)
    torch.testing.assert_close(y, x * table.sum(), rtol=1e-5, atol=1e-5)
    found = {"scale_rows": timings(examples.scale_rows),
             "scale_by_table_sum": timings(examples.scale_by_table_sum),
             "n": N, "device": torch.cuda.get_device_name(), "triton": triton.__version__}
    Path(out).write_text(json.dumps(found, indent=1) + "\n")
    print(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
