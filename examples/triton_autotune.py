"""An @triton.autotune kernel for memsim: a row-scaled copy whose configs differ in block size,
warps and stages (memsim sweep runs each config as a row; memsim.triton picks the one it
predicts cheapest: for scale_by_table_sum, the largest block).

    memsim sweep examples/triton_autotune.py --kernel scale_rows --grid '{4096/BLOCK}' \\
        --arg float32[4096] --arg float32[4096]:zeros --arg int32:4096 --arg float32:2.0
"""
import triton
import triton.language as tl

CONFIGS = [triton.Config({"BLOCK": 128}, num_warps=1, num_stages=1),
           triton.Config({"BLOCK": 512}, num_warps=4, num_stages=2),
           triton.Config({"BLOCK": 1024}, num_warps=8, num_stages=3)]


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def scale_rows(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * scale, mask=mask)


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def scale_by_table_sum(x_ptr, table_ptr, out_ptr, n, TABLE: tl.constexpr, BLOCK: tl.constexpr):
    """out = x * sum(table): every program reads the whole table, so fewer, larger programs
    read less (the configs' traffic differs; memsim keeps the largest block)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    total = tl.sum(tl.load(table_ptr + tl.arange(0, TABLE)))
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * total, mask=mask)
