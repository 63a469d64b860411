"""Every catalog kernel at a size that simulates in a blink, shared by the picture and advice tests."""
from __future__ import annotations

from memsim import catalog
from memsim.launch import LaunchSpec

# Sizes the plans accept (vector adds want whole warps, unroll-by-4 kernels nx % 128 == 0);
# everything else runs at 64.
SIZES = {"add_aligned": 256, "add_misaligned": 256, "row_sums": 64, "col_sums": 64,
         "transpose_unroll4_row": 128, "transpose_unroll4_col": 128}


def small_launch(name: str, **geometry) -> LaunchSpec:
    return catalog.get(name).launch(**({"nx": SIZES.get(name, 64)} | geometry))


def cached(compute):
    """A lookup name -> compute(name) that computes each name once."""
    cache: dict = {}

    def get(name: str):
        if name not in cache:
            cache[name] = compute(name)
        return cache[name]
    return get
