"""The bytes rule (memsim.engine.count.data_bytes): each distinct address of a warp instruction counts
once, loads and stores alike. Stores with lanes sharing an address are a hypothesis (see
memsim/engine/count.py); these tests pin what memsim predicts and what validate/suite_cases.py expects."""
from __future__ import annotations

import numpy as np
import pytest

from memsim import metrics as m
from memsim.engine.count import data_bytes
from validate import suite_cases as suite


@pytest.mark.parametrize("is_load", [True, False])
@pytest.mark.parametrize("lanes, distinct, width, expected", [
    (32, 1, 4, 4),        # all lanes on one word: the held-out block-reduction report
    (32, 32, 4, 128),     # one-to-one
    (32, 16, 8, 128),     # pairs of lanes on one 8-byte element
    (32, 17, 4, 68),      # half the lanes on one word
    (7, 7, 16, 112),      # a partial warp
    (0, 0, 4, 0),         # no active lane
    (32, 1, 1, 1),
])
def test_data_bytes_counts_distinct_addresses(is_load, lanes, distinct, width, expected):
    assert data_bytes(is_load, lanes, distinct, width) == expected


SOURCE = r'''
template <typename T>
__device__ void store(T* out, T* probe, int group, int half) {
  __shared__ T s[256];
  int t = threadIdx.x;
  int slot = half ? ((t & 31) < 16 ? (t & ~31) : t) : t / group;
  T v = out[0];
  s[slot] = v;
  probe[slot] = v;
  __syncthreads();
  out[1 + t] = s[t & 7];
}
extern "C" __global__ void k_char(char* o, char* p, int g, int h) { store(o, p, g, h); }
extern "C" __global__ void k_float(float* o, float* p, int g, int h) { store(o, p, g, h); }
extern "C" __global__ void k_double(double* o, double* p, int g, int h) { store(o, p, g, h); }
extern "C" __global__ void k_float4(float4* o, float4* p, int g, int h) { store(o, p, g, h); }
'''

WIDTHS = {"char": 1, "float": 4, "double": 8, "float4": 16}


@pytest.mark.parametrize("ctype", list(WIDTHS))
@pytest.mark.parametrize("group, half, distinct_per_warp", [
    (32, 0, 1),     # every lane stores one element (shared_sum[warp_id] = warp_sum)
    (16, 0, 2),     # half-warps
    (2, 0, 16),     # pairs of lanes
    (1, 0, 32),     # one-to-one: the recorded case, lanes = distinct
    (1, 1, 17),     # lanes 0-15 on one element, 16-31 their own
])
def test_same_address_stores_count_each_address_once(ctype, group, half, distinct_per_warp):
    memsim = pytest.importorskip("memsim")
    width, warps = WIDTHS[ctype], 2
    buffers = [np.zeros(512 * width, np.uint8), np.zeros(512 * width, np.uint8)]
    report = memsim.simulate(SOURCE, f"k_{ctype}", 1, 32 * warps,
                             [buffers[0].view(np.int8) if width == 1 else buffers[0].view(np.float32),
                              buffers[1].view(np.int8) if width == 1 else buffers[1].view(np.float32),
                              np.int32(group), np.int32(half)])
    expected = warps * distinct_per_warp * width
    assert report.metrics[m.BYTES_SHARED_ST] == expected
    # global: the probe store, plus out[1 + t] (one-to-one)
    assert report.metrics[m.BYTES_GLOBAL_ST] == expected + warps * 32 * width


def test_cases_expect_store_bytes_where_lanes_share_an_address():
    case = suite.same_shared_store_case("float", 32)
    # 16 blocks x 4 warps, one 4-byte word per warp instruction
    assert case.expect[m.BYTES_SHARED_ST] == 64 * 4
    half = suite.same_shared_half_case()
    assert half.expect[m.BYTES_SHARED_ST] == 64 * 17 * 4
    pairs = suite.same_global_store_case("float4", 2)
    assert pairs.expect[m.BYTES_GLOBAL_ST] == 64 * 16 * 16


def test_same_address_probes_are_tagged_and_cover_the_widths():
    probes = [c for c in suite.microbenchmark_cases() if suite.SAME_ADDRESS_TAG in c.tags]
    assert 6 <= len(probes) <= 12
    kernels = {c.spec.kernel for c in probes}
    assert {"k_same_sh_st_float", "k_same_sh_st_half", "k_same_gl_st_int", "k_same_gl_st_double",
            "k_same_gl_st_float4", "k_same_atomic_add"} <= kernels
