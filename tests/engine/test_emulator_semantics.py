"""Each engine computes what CUDA C says: outputs checked against numpy, on every engine (the
`each_engine` fixture, tests/engine/conftest.py)."""
import numpy as np
import pytest

import memsim

INT_OPS = r'''
extern "C" __global__ void k_int_ops(const int* a, const int* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  out[0 * n + i] = x / y;
  out[1 * n + i] = x % y;
  out[2 * n + i] = x >> (y & 31);
  out[3 * n + i] = (int)((unsigned)x >> (y & 31));
  out[4 * n + i] = __mulhi(x, y);
  out[5 * n + i] = min(x, y) + max(x, y) * 3;
  out[6 * n + i] = (int)min((unsigned)x, (unsigned)y);
  out[7 * n + i] = __popc(x) + __clz(y) * 100;
  out[8 * n + i] = (int)__brev((unsigned)x);
  out[9 * n + i] = (x < y) ? x * 7 : y - 11;
}
'''


def _int_reference(a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    q = np.trunc(a64 / b64).astype(np.int64)
    ua, ub = a.view(np.uint32).astype(np.uint64), b.view(np.uint32).astype(np.uint64)
    sh = (b64 & 31)
    brev = np.array([int(f"{v:032b}"[::-1], 2) for v in ua], dtype=np.uint32).view(np.int32)
    popc = np.array([bin(int(v)).count("1") for v in ua])
    clz = np.array([32 - int(v).bit_length() for v in ub])
    return [q, a64 - q * b64, a64 >> sh, (ua >> sh.astype(np.uint64)).astype(np.int64),
            (a64 * b64) >> 32, np.minimum(a64, b64) + np.maximum(a64, b64) * 3,
            np.minimum(ua, ub).astype(np.uint32).view(np.int32), popc + clz * 100, brev,
            np.where(a64 < b64, a64 * 7, b64 - 11)]


def test_integer_semantics_match_numpy(each_engine):
    rng = np.random.default_rng(3)
    n = 200
    a = rng.integers(-2**31, 2**31 - 1, n, dtype=np.int64).astype(np.int32)
    b = rng.integers(-1000, 1000, n).astype(np.int32)
    b[b == 0] = 7
    out = np.zeros(10 * n, np.int32)
    memsim.simulate(INT_OPS, "k_int_ops", 2, 128, [a, b, out, np.int32(n)], engine=each_engine)
    for k, expected in enumerate(_int_reference(a, b)):
        np.testing.assert_array_equal(out[k * n:(k + 1) * n], expected.astype(np.int64).astype(np.int32),
                                      err_msg=f"row {k}")


FLOAT_OPS = r'''
extern "C" __global__ void k_float_ops(const float* a, const double* d, float* out, int* iout, double* dout) {
  int i = threadIdx.x;
  float x = a[i];
  out[i * 4 + 0] = x * 3.0f + 1.5f;
  out[i * 4 + 1] = sqrtf(fabsf(x)) / (x + 2.0f);
  out[i * 4 + 2] = fminf(x, 0.25f) - fmaxf(x, -0.5f);
  out[i * 4 + 3] = (float)d[i];
  iout[i * 3 + 0] = __float2int_rn(x * 100.0f);
  iout[i * 3 + 1] = (int)(x * 1e10f);
  iout[i * 3 + 2] = (int)floorf(x * 10.0f);
  dout[i] = d[i] * d[i] + (double)x;
}
'''


def test_float_semantics_match_numpy(each_engine):
    rng = np.random.default_rng(5)
    a = (rng.random(64, dtype=np.float32) * 4 - 2).astype(np.float32)
    d = rng.random(64) * 10 - 5
    out, iout, dout = np.zeros(256, np.float32), np.zeros(192, np.int32), np.zeros(64)
    memsim.simulate(FLOAT_OPS, "k_float_ops", 1, 64, [a, d, out, iout, dout], engine=each_engine)
    o = out.reshape(64, 4)
    np.testing.assert_allclose(o[:, 0], a * np.float32(3) + np.float32(1.5), rtol=1e-6)
    np.testing.assert_allclose(o[:, 1], np.sqrt(np.abs(a)) / (a + 2), rtol=1e-5)
    np.testing.assert_allclose(o[:, 2], np.minimum(a, 0.25) - np.maximum(a, -0.5), rtol=1e-6)
    np.testing.assert_array_equal(o[:, 3], d.astype(np.float32))
    i3 = iout.reshape(64, 3)
    np.testing.assert_array_equal(i3[:, 0], np.rint(a * np.float32(100)).astype(np.int32))
    np.testing.assert_array_equal(i3[:, 1], np.clip((a * np.float32(1e10)).astype(np.float64), -2**31, 2**31 - 1).astype(np.int64).astype(np.int32))
    np.testing.assert_array_equal(i3[:, 2], np.floor(a * np.float32(10)).astype(np.int32))
    np.testing.assert_allclose(dout, d * d + a.astype(np.float64), rtol=1e-15)


DIVERGENCE = r'''
extern "C" __global__ void k_diverge(const int* trips, int* out, int* order) {
  int i = threadIdx.x;
  int s = 0;
  for (int k = 0; k < trips[i]; k++) s += k * (i + 1);
  if (i % 3 == 0) s = -s; else s = s * 2;
  out[i] = s;
  __syncthreads();
  order[i] = out[(i + 1) % blockDim.x];
}
'''


def test_divergent_loops_and_branches_give_correct_results(each_engine):
    trips = np.arange(96, dtype=np.int32) % 13
    out, order = np.zeros(96, np.int32), np.zeros(96, np.int32)
    report = memsim.simulate(DIVERGENCE, "k_diverge", 1, 96, [trips, out, order], engine=each_engine)
    i = np.arange(96)
    s = np.array([sum(k * (j + 1) for k in range(t)) for j, t in enumerate(trips)])
    expected = np.where(i % 3 == 0, -s, 2 * s)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(order, np.roll(expected, -1))
    # trips[i] loads: one warp instruction per warp, whatever the divergence.
    assert report.metrics["smsp__sass_inst_executed_op_global_ld.sum"] >= 3


WARP_OPS = r'''
extern "C" __global__ void k_warp(const int* a, int* out, unsigned* ballots, int* counter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = a[i];
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
  unsigned b = __ballot_sync(0xffffffff, a[i] % 2 == 0);
  if ((threadIdx.x & 31) == 0) ballots[i / 32] = b;
  atomicAdd(counter, a[i]);
}
'''


def test_shuffle_ballot_and_atomics(each_engine):
    a = np.random.default_rng(1).integers(0, 50, 256).astype(np.int32)
    out, ballots, counter = np.zeros(8, np.int32), np.zeros(8, np.uint32), np.zeros(1, np.int32)
    report = memsim.simulate(WARP_OPS, "k_warp", 2, 128, [a, out, ballots, counter], engine=each_engine)
    np.testing.assert_array_equal(out, a.reshape(8, 32).sum(axis=1))
    bits = (a.reshape(8, 32) % 2 == 0).astype(np.uint64) << np.arange(32, dtype=np.uint64)
    np.testing.assert_array_equal(ballots, bits.sum(axis=1).astype(np.uint32))
    assert counter[0] == a.sum()
    assert report.metrics["memsim__global_atom_requests.sum"] == 8


LOCAL_AND_DYNAMIC_SHARED = r'''
extern "C" __global__ void k_local(const int* idx, float* out) {
  extern __shared__ float buf[];
  float tmp[16];
  int i = threadIdx.x;
  for (int k = 0; k < 16; k++) tmp[k] = k * 0.5f + i;
  buf[i] = tmp[idx[i] & 15];
  __syncthreads();
  out[i] = buf[blockDim.x - 1 - i];
}
'''


def test_local_arrays_and_dynamic_shared_memory(each_engine):
    idx = np.random.default_rng(2).integers(0, 100, 64).astype(np.int32)
    out = np.zeros(64, np.float32)
    memsim.simulate(LOCAL_AND_DYNAMIC_SHARED, "k_local", 1, 64, [idx, out], shared_mem=64 * 4,
                    engine=each_engine)
    i = np.arange(64)
    buf = (idx & 15) * np.float32(0.5) + i
    np.testing.assert_array_equal(out, buf[::-1].astype(np.float32))


NARROW = r'''
extern "C" __global__ void k_narrow(const signed char* c, const short* s, const unsigned long long* u,
                                    int* out, unsigned long long* uout) {
  int i = threadIdx.x;
  out[i] = c[i] * 3 + s[i];
  uout[i] = (u[i] > 0x8000000000000000ull) ? u[i] / 3 : u[i] % 1000;
}
'''


def test_narrow_and_unsigned_64_bit_types(each_engine):
    rng = np.random.default_rng(4)
    c = rng.integers(-128, 127, 32).astype(np.int8)
    s = rng.integers(-30000, 30000, 32).astype(np.int16)
    u = rng.integers(0, 2**64 - 1, 32, dtype=np.uint64)
    out, uout = np.zeros(32, np.int32), np.zeros(32, np.uint64)
    memsim.simulate(NARROW, "k_narrow", 1, 32, [c, s, u, out, uout], engine=each_engine)
    np.testing.assert_array_equal(out, c.astype(np.int32) * 3 + s)
    np.testing.assert_array_equal(uout, np.where(u > np.uint64(2**63), u // np.uint64(3), u % np.uint64(1000)))


@pytest.mark.parametrize("threads", [1, 31, 33, 100])
def test_partial_warps_count_only_live_threads(threads, each_engine):
    src = 'extern "C" __global__ void k_copy(const float* a, float* b) { int i = threadIdx.x; b[i] = a[i]; }'
    a, b = np.arange(threads, dtype=np.float32), np.zeros(threads, np.float32)
    report = memsim.simulate(src, "k_copy", 1, threads, [a, b], engine=each_engine)
    np.testing.assert_array_equal(b, a)
    warps = (threads + 31) // 32
    assert report.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == warps
    assert report.metrics["smsp__sass_data_bytes_mem_global_op_ld.sum"] == 4 * threads
    # contiguous 4-byte accesses from a 4 KiB-aligned buffer: ceil(bytes / 32) sectors per warp
    expected = sum((min(32, threads - 32 * w) * 4 + 31) // 32 for w in range(warps))
    assert report.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == expected


FLOAT_ATOMICS = r'''
extern "C" __global__ void k_fatomic(const float* a, const double* d, float* fsum, double* dsum, float* fmax_out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(fsum, a[i]);
  atomicAdd(dsum, d[i]);
  atomicMax((int*)fmax_out, __float_as_int(a[i]));   // non-negative floats order like ints
}
'''


def test_float_atomics_accumulate_every_lane(each_engine):
    rng = np.random.default_rng(7)
    a = rng.integers(0, 64, 128).astype(np.float32)    # integers: the sum is exact in any order
    d = rng.random(128)
    fsum, dsum, fmax = np.zeros(1, np.float32), np.zeros(1), np.zeros(1, np.float32)
    memsim.simulate(FLOAT_ATOMICS, "k_fatomic", 2, 64, [a, d, fsum, dsum, fmax], engine=each_engine)
    assert fsum[0] == a.sum()
    assert dsum[0] == pytest.approx(d.sum(), rel=1e-12)
    assert fmax[0] == a.max()
