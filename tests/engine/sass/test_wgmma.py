"""Hopper's warpgroup MMA (wgmma.mma_async: HGMMA, WARPGROUP.ARRIVE/DEPBAR) in the SASS engine,
on the probe launches of validate/wgmma_probes.py: every output equals, bit for bit, the
arithmetic memsim/engine/sass/ops_wgmma.py documents (the H100's: terms aligned to the largest
exponent and truncated, the sum rounded toward zero), computed here with numpy from the inputs;
and every exact counter, every TMA counter and every output digest equals the H100 recording
(validate/data/h100/wgmma_probes.json)."""
import json
from pathlib import Path

import numpy as np
import pytest

import memsim
from memsim import metrics as m
from memsim.errors import UnsupportedInstruction
from memsim.launch import LaunchSpec, digest
from memsim.engine.sass import parser
from memsim.engine.sass.coverage import coverage
from memsim.engine.sass.program import lower
from validate import record as rec
from validate.wgmma_probes import OPTIONS, SOURCE, probe_cases

CASES = [c for c in probe_cases() if c["spec"]["kernel"] != "k_wgmma_tma_gemm"]
GEMM = next(c for c in probe_cases() if c["spec"]["kernel"] == "k_wgmma_tma_gemm")
GMMA_MEASURED = json.loads((Path(__file__).parents[3] / "gpu" / "probes" / "h100_wgmma_metrics.json").read_text())
RECORDING = rec.load(rec.DATA_DIR / "h100" / "wgmma_probes.json")   # 2026-11-27, one device call


def _inputs(values, bf16: bool):
    """The kernel's operands: 2x - 1 of each float input, rounded to f16 or bf16 (to nearest even)."""
    x = (2 * values.astype(np.float32) - 1).astype(np.float32)
    if not bf16:
        return x.astype(np.float16).astype(np.float64)
    u = x.view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return u.astype(np.uint32).view(np.float32).astype(np.float64)


def _log2(x):
    """floor(log2 |x|); a large negative number for 0."""
    return np.where(x == 0, -(1 << 20), np.frexp(x)[1] - 1)


def _to_f32_toward_zero(x):
    r = x.astype(np.float32)
    return np.where(np.abs(r.astype(np.float64)) > np.abs(x), np.nextafter(r, np.float32(0)), r)


def _model(a, b, n, accumulate, sign=1.0):
    """D of one block, a k16 step per 16 columns of a: every product and C truncated toward zero
    to a multiple of 2^(emax - 25) (emax: the largest of C's exponent and the products' exponent
    sums), summed exactly, rounded toward zero to f32."""
    d = np.full((a.shape[0], n), 1.0 if accumulate else 0.0, np.float32)
    for s in range(a.shape[1] // 16):
        x, y = a[:, 16 * s:16 * s + 16].T[:, :, None], b[:, 16 * s:16 * s + 16].T[:, None, :]
        products = sign * x * y
        keys = np.where(products == 0, -(1 << 20), _log2(x) + _log2(y))
        c = d.astype(np.float64)
        unit = np.ldexp(1.0, np.maximum(keys.max(0), _log2(c)) - 25)
        d = _to_f32_toward_zero((np.trunc(products / unit).sum(0) + np.trunc(c / unit)) * unit)
    return d


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_outputs_equal_the_documented_model(case):
    spec = LaunchSpec(**case["spec"])
    _, values = memsim.simulate_spec(spec)
    a, b, d = values[0], values[1], values[2]
    n = len(b) // (2 * 64)
    bf16 = "bf16" in case["name"]
    accumulate = case["spec"]["args"][4] == "int32:1"
    A, B = _inputs(a, bf16).reshape(2, 64, 64), _inputs(b, bf16).reshape(2, n, 64)
    sign = -1.0 if "_ta_" in case["name"] else 1.0   # k_wgmma_ss_f16_n64_ta negates B
    want = np.stack([_model(A[i], B[i], n, accumulate, sign) for i in range(2)])
    assert np.array_equal(d.reshape(2, 64, n).view(np.uint32), want.view(np.uint32))


def test_the_tma_fed_gemm_equals_the_model():
    """TMA's 128-byte swizzle (ops_tma) writes the tiles where wgmma's descriptors (ops_wgmma) read them."""
    _, values = memsim.simulate_spec(LaunchSpec(**GEMM["spec"]))
    a, b, d = values[0].astype(np.float64), values[1].astype(np.float64), values[2]
    m, n = GEMM["spec"]["grid"][1] * 64, GEMM["spec"]["grid"][0] * 64
    a, b = a.reshape(m, -1), b.reshape(n, -1)
    want = np.block([[_model(a[64 * i:64 * i + 64], b[64 * j:64 * j + 64], 64, False) for j in range(n // 64)]
                     for i in range(m // 64)])
    assert np.array_equal(d.reshape(m, n).view(np.uint32), want.view(np.uint32))


def test_the_probes_cover_every_width_swizzle_and_operand_form():
    names = " ".join(c["name"] for c in CASES)
    for part in ("n8_", "n64_", "n128_", "n256_", "plain", "swizzle128", "swizzle64", "swizzle32", "rs_", "bf16",
                 "_tb_", "_ta_"):
        assert part in names


def test_every_probe_kernel_is_covered():
    report = coverage(SOURCE.read_text(), options=OPTIONS)
    assert report and all(not gaps for gaps in report.values())


@pytest.mark.parametrize("text, message", [
    ("HGMMA.64x64x16.F16 R24, gdesc[UR8], R24 ;", "only f16/bf16 inputs"),
    ("HGMMA.64x64x16.F32.E4M3 R24, gdesc[UR8], R24 ;", "only f16/bf16 inputs"),
    ("HGMMA.64x64x16.F32 R24, R26 ;", "HGMMA operands"),
    ("WARPGROUP.SYNC ;", "WARPGROUP.SYNC"),
])
def test_other_forms_stop_with_one_line(text, message):
    listing = f"\t.section\t.text.k,\"ax\",@progbits\nk:\n.text.k:\n        /*0000*/                   {text}\n"
    kernel = parser.parse(listing)["k"]
    with pytest.raises(UnsupportedInstruction, match=message):
        lower(kernel)


def test_the_recording_is_of_these_probes():
    assert {c.name for c in RECORDING.cases} == {c["name"] for c in probe_cases()}
    for case in RECORDING.cases:
        assert case.spec.source == SOURCE.read_text() and case.metrics and not case.error


@pytest.mark.parametrize("case", RECORDING.cases, ids=lambda c: c.name)
def test_exact_counters_and_digests_equal_the_h100(case, launch_cache):
    report, values = memsim.simulate_spec(case.spec)
    names = m.EXACT + m.TMA + ["smsp__sass_inst_executed.sum"]
    predicted = dict(report.metrics)
    predicted["smsp__sass_inst_executed.sum"] = report.metrics["memsim__sass_warp_inst_executed.sum"]
    differ = {k: (predicted[k], case.metrics[k]) for k in names if predicted[k] != case.metrics[k]}
    assert not differ, f"predicted vs measured: {differ}"
    assert digest(values) == case.output_digest


def test_gmma_counters_equal_ncu_on_the_measured_launch(launch_cache):
    """memsim.metrics.GMMA: ncu's names for HGMMA's issues, shared bytes and wavefronts, and math ops."""
    case = next(c for c in RECORDING.cases if c.name == GMMA_MEASURED["case"])
    report, _ = memsim.simulate_spec(case.spec)
    for name in m.GMMA:
        if name in GMMA_MEASURED["metrics"]:
            assert report.metrics[name] == GMMA_MEASURED["metrics"][name], name
    assert report.metrics[m.GMMA_BYTES] > 0


# Two warpgroups of one block, each its own 64 rows of A against the same B (no swizzle): the
# warp's index within its warpgroup (w % 4) picks its rows and fragment.
TWO_WARPGROUPS = SOURCE.read_text().split("// both operands in shared memory")[0] + r"""
extern "C" __global__ void k_two_warpgroups(const float* a, const float* b, float* out) {
    __shared__ alignas(1024) unsigned short as[2][64 * 64];
    __shared__ alignas(1024) unsigned short bs[64 * 64];
    int wg = threadIdx.x >> 7, swizzle = 0;
    for (int i = threadIdx.x; i < 2 * 64 * 64; i += 256)
        as[i >> 12][kmajor((i & 4095) / 64, i % 64, 64, 0, 0) / 2] = to_f16(a[i]);
    for (int i = threadIdx.x; i < 64 * 64; i += 256) bs[kmajor(i / 64, i % 64, 64, 0, 1) / 2] = to_f16(b[i]);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    float d[32];
    for (int i = 0; i < 32; i++) d[i] = 0.0f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int s = 0; s < 4; s++) mma_ss_f16_n64(d, desc_a(as[wg], s, swizzle), desc_b(bs, s, 64, swizzle), 1);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    int w = (threadIdx.x >> 5) & 3, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    for (int i = 0; i < 32; i++) {
        asm volatile("" : "+f"(d[i]) :: "memory");
        out[(64 * wg + 16 * w + g + 8 * ((i >> 1) & 1)) * 64 + 8 * (i >> 2) + 2 * t + (i & 1)] = d[i];
    }
}
"""


def test_two_warpgroups_of_a_block_each_compute_their_own_rows():
    rng = np.random.default_rng(3)
    a, b = rng.random(2 * 64 * 64, dtype=np.float32), rng.random(64 * 64, dtype=np.float32)
    out = np.zeros(128 * 64, np.float32)
    report = memsim.simulate(TWO_WARPGROUPS, "k_two_warpgroups", 1, 256, [a, b, out], options=list(OPTIONS))
    A, B = _inputs(a, False).reshape(128, 64), _inputs(b, False).reshape(64, 64)
    want = np.vstack([_model(A[:64], B, 64, False), _model(A[64:], B, 64, False)])
    assert np.array_equal(out.reshape(128, 64).view(np.uint32), want.view(np.uint32))
    assert report.metrics[m.GMMA_INSTRUCTIONS] == 8 * 4 and report.metrics[m.GMMA_BYTES] == 2 * 4 * (2048 + 2048)
