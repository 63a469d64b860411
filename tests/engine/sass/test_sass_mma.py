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
extern "C" __global__ void k_wmma_s8(const signed char* a, const signed char* b, int* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
extern "C" __global__ void k_wmma_u8(const unsigned char* a, const unsigned char* b, int* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
extern "C" __global__ void k_wmma_tf32(const float* a, const float* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, 8); wmma::load_matrix_sync(fb, b, 8);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
extern "C" __global__ void k_wmma_f64(const double* a, const double* b, double* c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  wmma::load_matrix_sync(fa, a, 4); wmma::load_matrix_sync(fb, b, 4);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}
"""


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
    memsim.simulate(WMMA, f"k_wmma_{kind}", 1, 32, [a.ravel().copy(), b.ravel().copy(), out])
    expect = a.astype(np.float64) @ b.astype(np.float64).T + c
    np.testing.assert_array_equal(out.reshape(m, n).astype(np.float64), expect)


def test_tf32_inputs_lose_their_low_mantissa_bits():
    """memsim reads a tf32 of each fp32 input, its low 13 mantissa bits dropped: 1 + 2^-20 is read
    as 1 (the PTX ISA says the tensor core uses only the tf32 bits; truncation, not rounding, is
    memsim's assumption, not yet measured on the H100)."""
    a = np.full((16, 8), 1 + 2.0 ** -20, np.float32)
    b = np.ones((16, 8), np.float32)
    out = np.zeros(256, np.float32)
    memsim.simulate(WMMA, "k_wmma_tf32", 1, 32, [a.ravel(), b.ravel(), out])
    np.testing.assert_array_equal(out, np.full(256, 8.0, np.float32))
