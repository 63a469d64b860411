"""SASS engine, tensor cores beyond f16/bf16 HMMA: IMMA (8-bit), TF32 HMMA and DMMA (f64),
checked end to end through the WMMA API, whose loads and stores put the fragments where the
hardware's MMA expects them: a fragment layout memsim got wrong would give a wrong product
(memsim/engine/sass/ops_mma.py). Needs nvdisasm and the CUDA headers (mma.h)."""
from __future__ import annotations

import numpy as np
import pytest

import memsim
from memsim.engine.sass.compile import find_nvdisasm

pytestmark = pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm not installed")

WMMA = r"""
#include <mma.h>
using namespace nvcuda;
template <typename In, typename Frag, typename Acc, int M, int N, int K>
__global__ void k_wmma(const In* a, const In* b, Acc* c) {
  wmma::fragment<wmma::matrix_a, M, N, K, Frag, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Frag, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, K); wmma::load_matrix_sync(fb, b, K);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, N, wmma::mem_row_major);
}
"""
# each kind's instance, by its C++ name (NVRTC name expressions instantiate it)
KERNELS = {"s8": "k_wmma<signed char, signed char, int, 16, 16, 16>",
           "u8": "k_wmma<unsigned char, unsigned char, int, 16, 16, 16>",
           "tf32": "k_wmma<float, nvcuda::wmma::precision::tf32, float, 16, 16, 8>",
           "f64": "k_wmma<double, double, double, 8, 8, 4>"}


def _operands(kind: str, m: int, n: int, k: int, rng):
    """A (m x k, row-major), B (k x n, stored column-major as n x k), C (m x n): values whose
    products and sums are exact in the kernel's types, so the result is one number."""
    if kind in ("s8", "u8"):
        low, high, dtype = (-128, 128, np.int8) if kind == "s8" else (0, 256, np.uint8)
        a, b = rng.integers(low, high, (m, k)).astype(dtype), rng.integers(low, high, (n, k)).astype(dtype)
        return a, b, rng.integers(-1000, 1000, (m, n)).astype(np.int32)
    dtype = np.float32 if kind == "tf32" else np.float64
    a = rng.integers(-8, 8, (m, k)).astype(dtype) / 4     # tf32-exact: few mantissa bits
    b = rng.integers(-8, 8, (n, k)).astype(dtype) / 8
    return a, b, rng.integers(-8, 8, (m, n)).astype(dtype)


@pytest.mark.parametrize("kind, shape", [("s8", (16, 16, 16)), ("u8", (16, 16, 16)), ("tf32", (16, 16, 8)),
                                         ("f64", (8, 8, 4))])
@pytest.mark.parametrize("seed", [1, 2])
def test_wmma_products_equal_numpy(kind, shape, seed):
    m, n, k = shape
    a, b, c = _operands(kind, m, n, k, np.random.default_rng(seed))
    out = c.ravel().copy()
    memsim.simulate(WMMA, KERNELS[kind], 1, 32, [a.ravel().copy(), b.ravel().copy(), out])
    expect = a.astype(np.float64) @ b.astype(np.float64).T + c
    np.testing.assert_array_equal(out.reshape(m, n).astype(np.float64), expect)


def test_tf32_inputs_lose_their_low_mantissa_bits():
    """memsim reads a tf32 of each fp32 input, its low 13 mantissa bits dropped: 1 + 2^-20 is read
    as 1 (the PTX ISA says the tensor core uses only the tf32 bits; truncation, not rounding, is
    memsim's assumption, not yet measured on the H100)."""
    a = np.full((16, 8), 1 + 2.0 ** -20, np.float32)
    b = np.ones((16, 8), np.float32)
    out = np.zeros(256, np.float32)
    memsim.simulate(WMMA, KERNELS["tf32"], 1, 32, [a.ravel(), b.ravel(), out])
    np.testing.assert_array_equal(out, np.full(256, 8.0, np.float32))


@pytest.mark.parametrize("name", ["cusamples_half_simple_wmma_gemm", "cusamples_bf16_simple_wmma_gemm"])
def test_hmma_f32_outputs_equal_the_h100(name, launch_cache):
    """HMMA.16816.F32 sums a k16 step as the H100 does (ops_half._hopper_sum, fitted on wgmma):
    cuda-samples' f16 and bf16 WMMA GEMMs give the GPU's arrays bit for bit."""
    from memsim.launch import digest
    from validate import record as rec

    case = next(c for c in rec.load(rec.DATA_DIR / "h100" / "corpus.json").cases if c.name == name)
    _, values = memsim.simulate_spec(case.spec)
    assert digest(values) == case.output_digest
