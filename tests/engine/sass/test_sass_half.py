"""SASS engine, half precision: fp16 / bf16 pair arithmetic, conversions and HMMA, checked
against numpy on kernels NVRTC compiles for sm_90 (needs nvdisasm and the CUDA header wheels)."""
from __future__ import annotations

import numpy as np
import pytest

import memsim
from memsim.compiler.nvrtc import toolkit_include_dirs
from memsim.engine.sass.compile import find_nvdisasm
from memsim.engine.sass.ops_half import decode16, encode16

pytestmark = [pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm not installed"),
              pytest.mark.skipif(not toolkit_include_dirs(), reason="CUDA header wheels not installed")]

HALF2 = r"""
#include <cuda_fp16.h>
extern "C" __global__ void k_h2(const __half2* a, const __half2* b, const __half2* c, __half2* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    o[4 * i] = __hadd2(a[i], b[i]);
    o[4 * i + 1] = __hmul2(a[i], b[i]);
    o[4 * i + 2] = __hfma2(a[i], b[i], c[i]);
    o[4 * i + 3] = __hmax2(a[i], b[i]);
  }
}
extern "C" __global__ void k_conv(const float* f, __half* h, float* g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half x = __float2half(f[i]);
    h[i] = x;
    g[i] = __half2float(x);
  }
}
extern "C" __global__ void k_pack(const float* f, __half2* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = __floats2half2_rn(f[2 * i], f[2 * i + 1]);
}
extern "C" __global__ void k_cmp(const __half2* a, const __half2* b, __half2* o, int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    o[i] = __hlt2(a[i], b[i]);
    p[i] = __hbgt2(a[i], b[i]) ? 1 : 0;
    p[n + i] = __hlt(__low2half(a[i]), __high2half(b[i])) ? 7 : 3;
  }
}
extern "C" __global__ void k_int(const int* x, __half* h, int* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { h[i] = __int2half_rn(x[i]); y[i] = __half2int_rz(h[n + i]); }
}
"""

BF16 = r"""
#include <cuda_bf16.h>
extern "C" __global__ void k_bf(const __nv_bfloat162* a, const __nv_bfloat162* b, const __nv_bfloat162* c,
                                __nv_bfloat162* o, const float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    o[5 * i] = __hadd2(a[i], b[i]);
    o[5 * i + 1] = __hmul2(a[i], b[i]);
    o[5 * i + 2] = __hfma2(a[i], b[i], c[i]);
    o[5 * i + 3] = __hmax2(a[i], b[i]);
    o[5 * i + 4] = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
  }
}
"""

MMA = r"""
extern "C" __global__ void k_mma(const unsigned* A, const unsigned* B, const float* C, float* D) {
  int l = threadIdx.x;
  unsigned a0 = A[4 * l], a1 = A[4 * l + 1], a2 = A[4 * l + 2], a3 = A[4 * l + 3];
  unsigned b0 = B[2 * l], b1 = B[2 * l + 1];
  float c0 = C[4 * l], c1 = C[4 * l + 1], c2 = C[4 * l + 2], c3 = C[4 * l + 3];
  float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
    : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
    : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
  D[4 * l] = d0; D[4 * l + 1] = d1; D[4 * l + 2] = d2; D[4 * l + 3] = d3;
}
"""

N = 64
rng = np.random.default_rng(7)


def halves(n, scale=4.0):
    return (rng.standard_normal(2 * n) * scale).astype(np.float16)


def bf16(x):
    """float32 -> bf16 bits (round to nearest even) -> float32."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return (rounded << 16).astype(np.uint32).view(np.float32)


def bf16_bits(x):
    return (bf16(x).view(np.uint32) >> 16).astype(np.uint16)


def test_scalar_encodings_match_numpy():
    values = np.concatenate([rng.standard_normal(2000) * 10.0 ** rng.integers(-9, 6, 2000),
                             [0.0, -0.0, 65504.0, 65519.99, 65520.0, 1e-8, 2.0 ** -25, 3 * 2.0 ** -26, np.inf, -np.inf]])
    with np.errstate(over="ignore"):
        expected = values.astype(np.float16).view(np.uint16)
    for x, want in zip(values, expected):
        assert encode16(float(x), False, 0) == int(want), x
        assert encode16(float(np.float32(x)), True, 0) == int(bf16_bits(np.float32(x))), x
    for h in range(0, 0x10000, 7):
        want = float(np.uint16(h).view(np.float16))
        got = decode16(h, False)
        assert got == want or (np.isnan(got) and np.isnan(want))


def test_half2_arithmetic():
    a, b, c = halves(N), halves(N), halves(N)
    out = np.zeros(8 * N, np.float16)
    memsim.simulate(HALF2, "k_h2", 2, 32, [a, b, c, out, np.int32(N)])
    o = out.reshape(N, 4, 2)
    f = lambda x: x.astype(np.float64).reshape(N, 2)
    np.testing.assert_array_equal(o[:, 0], (f(a) + f(b)).astype(np.float16))
    np.testing.assert_array_equal(o[:, 1], (f(a) * f(b)).astype(np.float16))
    np.testing.assert_array_equal(o[:, 2], (f(a) * f(b) + f(c)).astype(np.float16))
    np.testing.assert_array_equal(o[:, 3], np.maximum(f(a), f(b)).astype(np.float16))


def test_half_float_conversions():
    x = (rng.standard_normal(N) * 100).astype(np.float32)
    x[:4] = [1e-6, 70000.0, -3.0e-8, 0.1]
    h, g = np.zeros(N, np.float16), np.zeros(N, np.float32)
    memsim.simulate(HALF2, "k_conv", 1, N, [x, h, g, np.int32(N)])
    np.testing.assert_array_equal(h, x.astype(np.float16))
    np.testing.assert_array_equal(g, x.astype(np.float16).astype(np.float32))
    packed = np.zeros(N, np.float16)
    memsim.simulate(HALF2, "k_pack", 1, N // 2, [x, packed, np.int32(N // 2)])
    np.testing.assert_array_equal(packed, x.astype(np.float16))


def test_half_comparisons():
    a, b = halves(N), halves(N)
    b[:8] = a[:8]
    o, p = np.zeros(2 * N, np.float16), np.zeros(2 * N, np.int32)
    memsim.simulate(HALF2, "k_cmp", 2, 32, [a, b, o, p, np.int32(N)])
    np.testing.assert_array_equal(o, (a < b).astype(np.float16))
    np.testing.assert_array_equal(p[:N], np.all((a > b).reshape(N, 2), axis=1).astype(np.int32))
    np.testing.assert_array_equal(p[N:], np.where(a[0::2] < b[1::2], 7, 3))


def test_half_int_conversions():
    x = rng.integers(-5000, 5000, N).astype(np.int32)
    x[:3] = [2049, 100000, -70000]
    h = np.zeros(2 * N, np.float16)
    h[N:] = halves(N // 2, 300.0)
    y = np.zeros(N, np.int32)
    memsim.simulate(HALF2, "k_int", 1, N, [x, h, y, np.int32(N)])
    np.testing.assert_array_equal(h[:N], x.astype(np.float64).astype(np.float16))
    np.testing.assert_array_equal(y, np.trunc(h[N:].astype(np.float64)).astype(np.int32))


def test_bf16_arithmetic_and_packing():
    a, b, c = (bf16(rng.standard_normal(2 * N).astype(np.float32) * 4) for _ in range(3))
    f = (rng.standard_normal(2 * N) * 100).astype(np.float32)
    bits = lambda v: bf16_bits(v)
    out = np.zeros(10 * N, np.uint16)
    memsim.simulate(BF16, "k_bf", 2, 32, [bits(a), bits(b), bits(c), out, f, np.int32(N)])
    o = out.reshape(N, 5, 2)
    d = lambda v: v.astype(np.float64).reshape(N, 2)
    np.testing.assert_array_equal(o[:, 0], bits((d(a) + d(b)).astype(np.float32)))
    np.testing.assert_array_equal(o[:, 1], bits((d(a) * d(b)).astype(np.float32)))
    np.testing.assert_array_equal(o[:, 2], bits((d(a) * d(b) + d(c)).astype(np.float32)))
    np.testing.assert_array_equal(o[:, 3], bits(np.maximum(d(a), d(b)).astype(np.float32)))
    np.testing.assert_array_equal(o[:, 4], bits(f).reshape(N, 2))


def test_mma_m16n8k16_f16_f32():
    A = rng.standard_normal((16, 16)).astype(np.float16)
    B = rng.standard_normal((16, 8)).astype(np.float16)
    C = rng.standard_normal((16, 8)).astype(np.float32)
    a_frag = np.zeros((32, 8), np.float16)   # per lane: a0..a3, two halves each (low first)
    b_frag = np.zeros((32, 4), np.float16)
    c_frag = np.zeros((32, 4), np.float32)
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for i in range(8):   # a_i: i >> 1 the register, i & 1 the half
            reg, half = i >> 1, i & 1
            a_frag[lane, i] = A[g + 8 * (reg & 1), 2 * t + half + 8 * (reg >> 1)]
        for i in range(4):
            reg, half = i >> 1, i & 1
            b_frag[lane, i] = B[2 * t + half + 8 * reg, g]
            c_frag[lane, i] = C[g + 8 * (i >> 1), 2 * t + (i & 1)]
    d = np.zeros(128, np.float32)
    memsim.simulate(MMA, "k_mma", 1, 32, [a_frag.view(np.uint32).ravel(), b_frag.view(np.uint32).ravel(),
                                          c_frag.ravel(), d])
    D = A.astype(np.float64) @ B.astype(np.float64) + C
    expected = np.array([[D[(lane >> 2) + 8 * (i >> 1), 2 * (lane & 3) + (i & 1)] for i in range(4)]
                         for lane in range(32)], np.float32)
    np.testing.assert_allclose(d.reshape(32, 4), expected, rtol=1e-5, atol=1e-5)


MISC = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void k_misc(const __half2* a, const __half2* b, const __half2* c, __half2* o,
                                  const double* dd, const float* f, __half* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    o[8 * i] = __hadd2_sat(a[i], b[i]);
    o[8 * i + 1] = __hfma2_relu(a[i], b[i], c[i]);
    o[8 * i + 2] = __hmin2(a[i], b[i]);
    o[8 * i + 3] = __hsub2(a[i], b[i]);
    o[8 * i + 4] = __habs2(a[i]);
    o[8 * i + 5] = __hneg2(a[i]);
    o[8 * i + 6] = __hfma2_sat(a[i], b[i], c[i]);
    o[8 * i + 7] = __h2div(a[i], b[i]);
    h[4 * i] = __double2half(dd[i]);
    h[4 * i + 1] = __float2half_rz(f[i]);
    h[4 * i + 2] = __hdiv(__low2half(a[i]), __high2half(b[i]));
    h[4 * i + 3] = hsqrt(__habs(__low2half(c[i])));
  }
}
extern "C" __global__ void k_more(const __half* a, const __nv_bfloat16* b, float* f, int* q,
                                  unsigned short* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    f[4 * i] = __half2float(a[i]) + __bfloat162float(b[i]);
    q[4 * i] = __half2int_rn(a[i]);
    q[4 * i + 1] = __bfloat162int_rz(b[i]);
    q[4 * i + 2] = __hisnan(a[i]) + __heq(a[i], a[i + 1]) * 4;
    q[4 * i + 3] = __hbeq2(__halves2half2(a[i], a[i]), __halves2half2(a[i + 1], a[i]));
    u[i] = __half2ushort_rn(a[i]);
    f[4 * i + 1] = __bfloat162float(__float2bfloat16_rz(f[4 * n + i]));
    f[4 * i + 2] = __half2float(__ushort2half_rn(u[n + i])) + __bfloat162float(__int2bfloat16_rn(q[4 * n + i]));
    f[4 * i + 3] = __half2float(__hmax_nan(a[i], a[i + 1])) + __bfloat162float(__hmin(b[i], b[i + 1]));
  }
}
"""


def toward_zero(x, dtype):
    r = x.astype(dtype)
    over = np.abs(r.astype(np.float64)) > np.abs(x.astype(np.float64))
    r[over] = np.nextafter(r[over], dtype(0))
    return r


def test_half_saturation_relu_and_neighbours():
    a, b, c = halves(N, 1.0), halves(N, 1.0), halves(N, 1.0)
    dd = rng.standard_normal(N) * 1000
    f = (rng.standard_normal(N) * 1000).astype(np.float32)
    o, h = np.zeros(16 * N, np.float16), np.zeros(4 * N, np.float16)
    memsim.simulate(MISC, "k_misc", 2, 32, [a, b, c, o, dd, f, h, np.int32(N)])
    o = o.reshape(N, 8, 2)
    x, y, z = (v.astype(np.float64).reshape(N, 2) for v in (a, b, c))
    half = lambda v: v.astype(np.float16)
    np.testing.assert_array_equal(o[:, 0], half(np.clip(x + y, 0, 1)))
    np.testing.assert_array_equal(o[:, 1], half(np.maximum(x * y + z, 0)))
    np.testing.assert_array_equal(o[:, 2], half(np.minimum(x, y)))
    np.testing.assert_array_equal(o[:, 3], half(x - y))
    np.testing.assert_array_equal(o[:, 4], half(np.abs(x)))
    np.testing.assert_array_equal(o[:, 5], half(-x))
    np.testing.assert_array_equal(o[:, 6], half(np.clip(x * y + z, 0, 1)))
    np.testing.assert_allclose(o[:, 7].astype(np.float64), x / y, rtol=1e-3)
    hh = h.reshape(N, 4)
    np.testing.assert_array_equal(hh[:, 0], half(dd))
    np.testing.assert_array_equal(hh[:, 1], toward_zero(f, np.float16))
    np.testing.assert_allclose(hh[:, 2].astype(np.float64), x[:, 0] / y[:, 1], rtol=1e-3)
    np.testing.assert_allclose(hh[:, 3].astype(np.float64), np.sqrt(np.abs(z[:, 0])), rtol=1e-3)


def test_half_bf16_integer_conversions_and_predicates():
    a = halves(N + 1, 300.0)[:N + 1]
    a[5] = a[6]
    a[9] = np.float16(np.nan)
    b = bf16((rng.standard_normal(N + 1) * 300).astype(np.float32))
    f = np.zeros(5 * N, np.float32)
    f[4 * N:] = (rng.standard_normal(N) * 100).astype(np.float32)
    q = np.zeros(5 * N, np.int32)
    q[4 * N:] = rng.integers(-100000, 100000, N)
    u = np.zeros(2 * N, np.uint16)
    u[N:] = rng.integers(0, 65535, N)
    memsim.simulate(MISC, "k_more", 2, 32, [a, bf16_bits(b), f, q, u, np.int32(N)])
    ff, qq = f[:4 * N].reshape(N, 4), q[:4 * N].reshape(N, 4)
    x, xn, y, yn = (v.astype(np.float64) for v in (a[:N], a[1:], b[:N], b[1:]))
    ok = ~np.isnan(x)
    np.testing.assert_array_equal(ff[ok, 0], (x + y).astype(np.float32)[ok])
    np.testing.assert_array_equal(qq[ok, 0], np.round(x[ok]).astype(np.int32))
    np.testing.assert_array_equal(qq[:, 1], np.trunc(y).astype(np.int32))
    np.testing.assert_array_equal(qq[:, 2], np.isnan(x) + (x == xn) * 4)
    np.testing.assert_array_equal(qq[:, 3], (x == xn) & (x == x))
    np.testing.assert_array_equal(u[:N][ok], np.clip(np.round(x[ok]), 0, 65535).astype(np.uint16))
    np.testing.assert_array_equal(ff[:, 1], bf16_toward_zero(f[4 * N:]))
    expected = u[N:].astype(np.float16).astype(np.float32) + bf16(q[4 * N:].astype(np.float64).astype(np.float32))
    np.testing.assert_allclose(ff[:, 2], expected, rtol=1e-6)
    mx = np.where(np.isnan(x) | np.isnan(xn), np.nan, np.maximum(x, xn))
    np.testing.assert_array_equal(ff[:, 3], (mx.astype(np.float16).astype(np.float32) + np.minimum(y, yn)).astype(np.float32))


def bf16_toward_zero(x):
    return ((np.asarray(x, np.float32).view(np.uint32) >> 16) << 16).astype(np.uint32).view(np.float32)


MMA_FORMS = r"""
extern "C" __global__ void k_mma2(const unsigned* A, const unsigned* B, const unsigned* C, unsigned* D, float* E) {
  int l = threadIdx.x;
  unsigned d0, d1;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
    : "=r"(d0), "=r"(d1)
    : "r"(A[4 * l]), "r"(A[4 * l + 1]), "r"(A[4 * l + 2]), "r"(A[4 * l + 3]), "r"(B[2 * l]), "r"(B[2 * l + 1]),
      "r"(C[2 * l]), "r"(C[2 * l + 1]));
  D[2 * l] = d0; D[2 * l + 1] = d1;
  float e0, e1, e2, e3;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
    : "=f"(e0), "=f"(e1), "=f"(e2), "=f"(e3) : "r"(A[4 * l]), "r"(A[4 * l + 1]), "r"(B[2 * l]), "f"(0.f), "f"(0.f), "f"(0.f), "f"(0.f));
  E[8 * l] = e0; E[8 * l + 1] = e1; E[8 * l + 2] = e2; E[8 * l + 3] = e3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
    : "=f"(e0), "=f"(e1), "=f"(e2), "=f"(e3)
    : "r"(A[4 * l]), "r"(A[4 * l + 1]), "r"(A[4 * l + 2]), "r"(A[4 * l + 3]), "r"(B[2 * l]), "r"(B[2 * l + 1]),
      "f"(1.f), "f"(0.f), "f"(0.f), "f"(0.f));
  E[8 * l + 4] = e0; E[8 * l + 5] = e1; E[8 * l + 6] = e2; E[8 * l + 7] = e3;
}
"""


def _matrices(a_bits, b_bits, k16, as_bf16):
    """A (16 x K) and B (K x 8) from the lanes' fragment halves (uint16 [32, regs, 2])."""
    decode = ((lambda h: (h.astype(np.uint32) << 16).view(np.float32)) if as_bf16
              else (lambda h: h.view(np.float16)))
    av, bv = decode(a_bits).astype(np.float64), decode(b_bits).astype(np.float64)
    depth = 16 if k16 else 8
    A, B = np.zeros((16, depth)), np.zeros((depth, 8))
    for lane in range(32):
        g, t = lane >> 2, lane & 3
        for h in range(2):
            for r in range(4 if k16 else 2):
                A[g + 8 * (r & 1), 2 * t + h + 8 * (r >> 1)] = av[lane, r, h]
            for r in range(2 if k16 else 1):
                B[2 * t + h + 8 * r, g] = bv[lane, r, h]
    return A, B


def _per_lane(D):
    return np.array([[D[(lane >> 2) + 8 * (i >> 1), 2 * (lane & 3) + (i & 1)] for i in range(4)]
                     for lane in range(32)])


def test_mma_f16_accumulator_m16n8k8_and_bf16():
    a = rng.standard_normal(32 * 4 * 2).astype(np.float16)
    b = rng.standard_normal(32 * 2 * 2).astype(np.float16)
    c = rng.standard_normal(32 * 2 * 2).astype(np.float16)
    d, e = np.zeros(64, np.uint32), np.zeros(256, np.float32)
    memsim.simulate(MMA_FORMS, "k_mma2", 1, 32, [a.view(np.uint32), b.view(np.uint32), c.view(np.uint32), d, e])
    a_bits, b_bits = a.view(np.uint16).reshape(32, 4, 2), b.view(np.uint16).reshape(32, 2, 2)
    A, B = _matrices(a_bits, b_bits, True, False)
    cl = c.astype(np.float64).reshape(32, 4)    # per lane: (row g: 2t, 2t+1), (row g+8: ...)
    expected = (_per_lane(A @ B) + cl).astype(np.float16)
    np.testing.assert_array_equal(d.view(np.float16).reshape(32, 4), expected)
    A8, B8 = _matrices(a_bits, b_bits, False, False)
    np.testing.assert_allclose(e.reshape(32, 8)[:, :4], _per_lane(A8 @ B8), rtol=1e-5, atol=1e-5)
    Ab, Bb = _matrices(a_bits, b_bits, True, True)
    C = np.zeros((32, 4))
    C[:, 0] = 1.0
    np.testing.assert_allclose(e.reshape(32, 8)[:, 4:], _per_lane(Ab @ Bb) + C, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("compare, a, b, expected", [
    # HSETP2.H_AND: P0 = both halves' comparisons, P1 its complement (each and-ed with PT).
    ("HSETP2.GT.H_AND P0, P1, R6, R7, PT", (2.0, 3.0), (1.0, 1.0), (1, 0)),
    ("HSETP2.GT.H_AND P0, P1, R6, R7, PT", (2.0, 0.5), (1.0, 1.0), (0, 1)),
    # Per half: P0 the H0 comparison, P1 the H1 one; selectors broadcast one half.
    ("HSETP2.LT.AND P0, P1, R6, R7, PT", (0.5, 3.0), (1.0, 1.0), (1, 0)),
    ("HSETP2.LT.AND P0, P1, R6.H1_H1, R7, PT", (0.5, 3.0), (1.0, 4.0), (0, 1)),
    ("HSETP2.NEU.AND P0, P1, -R6, |R7|.H0_H0, PT", (-1.0, 1.0), (-1.0, 2.0), (0, 1)),
])
def test_hsetp2_forms(compare, a, b, expected):
    from tests.helpers.sass_listing import STORE, run
    pack = lambda pair: "HFMA2.MMA R{}, -RZ, RZ, {}, {}".format("{}", pair[1], pair[0])
    body = [pack(a).format(6), pack(b).format(7), compare,
            "SEL R8, RZ, 0x1, !P0", "SEL R9, RZ, 0x2, !P1", "IADD3 R5, R8, R9, RZ", STORE, "EXIT"]
    out, _ = run(body)
    assert int(out[0]) == expected[0] + 2 * expected[1]
