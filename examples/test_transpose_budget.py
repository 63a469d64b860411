"""Memory budgets for examples/transpose.cu, checked without a GPU by memsim's pytest plugin.

    pytest examples/test_transpose_budget.py

Change KERNEL to "transpose_naive" and test_global_accesses_are_coalesced fails, naming the
strided store's line, its efficiency (12.5%) and the allowed 90%.
"""
from pathlib import Path

from memsim.testing import assert_coalesced, assert_no_bank_conflicts, assert_sectors

KERNEL = "transpose_tiled"
N = 256
SOURCE = str(Path(__file__).with_name("transpose.cu"))


def transpose(memsim_launch):
    """One launch, simulated once per session however many tests ask for it."""
    return memsim_launch(SOURCE, KERNEL, (N // 32, N // 32), (32, 8),
                         [f"float32[{N}x{N}]", f"float32[{N}x{N}]:zeros", f"int32:{N}"])


def test_global_accesses_are_coalesced(memsim_launch):
    assert_coalesced(transpose(memsim_launch), min_efficiency=0.9)


def test_shared_tile_has_no_bank_conflicts(memsim_launch):
    assert_no_bank_conflicts(transpose(memsim_launch))


def test_stores_write_each_sector_once(memsim_launch):
    assert_sectors(transpose(memsim_launch), "st", at_most=N * N * 4 // 32)
