"""SASS engine on constructs of public CUDA code (llm.c, cuda-samples) that the corpus lacked,
checked per lane against numpy on kernels NVRTC compiles for sm_90 (needs nvdisasm)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import memsim
from memsim.engine.sass.compile import find_nvdisasm

pytestmark = pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm not installed")

# 64-bit `/` and `%` by a variable call __cuda_sm20_div_{s,u}64 / rem, whose 64 x 64 -> high
# 64 multiply chains IMAD.HI.U32 Rd, Pc, a, b, c (carry out) into IADD3.X (llm.c's
# fused_classifier_kernel1 divides a size_t this way).
DIV64 = r"""
extern "C" __global__ void k_div64(const long long* a, const long long* b, long long* q, long long* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; }
}
extern "C" __global__ void k_divu64(const unsigned long long* a, const unsigned long long* b,
                                    unsigned long long* q, unsigned long long* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; }
}
"""


@pytest.mark.parametrize("signed", [True, False], ids=["s64", "u64"])
def test_64_bit_division_by_a_variable(signed):
    rng = np.random.default_rng(7)
    n = 64
    if signed:
        a = rng.integers(-2**62, 2**62, n, dtype=np.int64)
        b = rng.integers(1, 2**40, n, dtype=np.int64) * rng.choice([-1, 1], n)
        b[:8] = rng.integers(-2**62, 2**62, 8)    # quotients 0 / +-1, large divisors
        b[8:16] = rng.integers(1, 16, 8)          # large quotients
        kernel, dtype = "k_div64", np.int64
    else:
        a = rng.integers(0, 2**64 - 1, n, dtype=np.uint64)
        b = rng.integers(1, 2**40, n, dtype=np.uint64)
        b[:8] = rng.integers(2**63, 2**64 - 1, 8, dtype=np.uint64)
        b[8:16] = rng.integers(1, 16, 8, dtype=np.uint64)
        kernel, dtype = "k_divu64", np.uint64
    q, r = np.zeros(n, dtype), np.zeros(n, dtype)
    memsim.simulate(DIV64, kernel, 2, 32, [a, b, q, r, np.int32(n)])
    if signed:   # C truncates toward zero
        expect_q = np.array([(abs(int(x)) // abs(int(y))) * (1 if (x < 0) == (y < 0) else -1)
                             for x, y in zip(a, b)], dtype=np.int64)
        expect_r = np.array([int(x) - int(qq) * int(y) for x, y, qq in zip(a, b, expect_q)], dtype=np.int64)
    else:
        expect_q, expect_r = a // b, a % b
    np.testing.assert_array_equal(q, expect_q)
    np.testing.assert_array_equal(r, expect_r)


GENERIC = (Path(__file__).parents[3] / "validate" / "suite" / "generic_access.cu").read_text()


@pytest.mark.parametrize("stride", [1, 3])
def test_a_generic_pointer_reads_and_writes_global_memory(stride):
    """A pointer that went through an integer compiles to LD.E / ST.E (generic): its lanes
    reach the buffers (and are counted as global requests, their bytes in both spaces)."""
    n = 512
    src = np.arange(n * stride, dtype=np.float32)
    out = np.zeros(n, np.float32)
    report = memsim.simulate(GENERIC, "k_generic_ld", n // 128, 128, [out, src, np.uint64(0), np.int32(stride)])
    np.testing.assert_array_equal(out, src[::stride])
    stored = np.zeros(n * stride, np.float32)
    memsim.simulate(GENERIC, "k_generic_st", n // 128, 128, [stored, src[:n], np.uint64(0), np.int32(stride)])
    np.testing.assert_array_equal(stored[::stride], src[:n])
    assert report.metrics["smsp__sass_data_bytes_mem_shared_op_ld.sum"] == n * 4


@pytest.mark.parametrize("block", [64, 256])
def test_a_generic_pointer_into_shared_memory(block):
    """S2R SR_SWINHI: a generic pointer into the block's shared window reads and writes shared
    memory (sel 0: k_generic_shared's load and store both go to the shared array)."""
    g = np.random.default_rng(3).random(2048).astype(np.float32)
    out = np.zeros(2 * block, np.float32)
    report = memsim.simulate(GENERIC, "k_generic_shared", 2, block, [out, g.copy(), np.int32(0), np.int32(1)])
    t = np.arange(block)
    # thread t read s[t] (= g[t]), then stored g[t] + 1 to s[t + 1]; it outputs v + s[t]
    expect = g[t] + np.where(t == 0, g[0], g[t - 1] + 1)
    np.testing.assert_allclose(out, np.tile(expect, 2), rtol=0, atol=0)
    warps = 2 * block // 32
    assert report.metrics["smsp__sass_inst_executed_op_shared_ld.sum"] == 2 * warps   # generic + LDS s[t]
