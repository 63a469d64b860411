"""A CuPy script, unchanged: `python -m memsim.run examples/transpose_cupy.py [n]` runs its
launches in memsim (no GPU) and prints their memory counters; `python examples/transpose_cupy.py`
runs it on a GPU with CuPy."""
import sys
from pathlib import Path

import cupy as cp
import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
module = cp.RawModule(code=Path(__file__).with_name("transpose.cu").read_text())
a = cp.asarray(np.arange(n * n, dtype=np.float32).reshape(n, n))
for name in ("transpose_naive", "transpose_tiled"):
    b = cp.zeros_like(a)
    module.get_function(name)((n // 32, n // 32), (32, 8), (a, b, np.int32(n)))
    assert np.array_equal(cp.asnumpy(b), cp.asnumpy(a).T), name
print(f"{n}x{n}: both kernels transpose correctly")
