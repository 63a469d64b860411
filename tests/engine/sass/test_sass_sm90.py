"""sm_90's own instructions (VIMNMX3, BRX, ELECT, LDSM/STSM of every shape, mbarriers, bulk
copies) against their H100 recording, validate/data/h100/sm90_probes.json
(validate/sm90_probes.py): every exact counter equal, and the arrays the GPU computed where the
kernel defines them all."""
import numpy as np
import pytest

import memsim
from memsim import metrics as m
from memsim.launch import digest
from validate import record as rec

RECORDING = rec.load(rec.DATA_DIR / "h100" / "sm90_probes.json")
# ldmatrix .x1/.x2 leave some of the probe's four output registers unwritten (undefined on the
# GPU); the switch's float atomics add in the GPU's order and its fast-math calls differ in ulps
UNDEFINED_OUTPUTS = {"p90_ldsm_x1_s4", "p90_ldsm_x2_s4", "p90_ldsm_x2_trans_s4", "p90_switch"}


@pytest.mark.parametrize("case", RECORDING.cases, ids=lambda c: c.name)
def test_exact_counters_and_outputs_equal_the_h100(case, launch_cache):
    report, values = memsim.simulate_spec(case.spec)
    differ = {k: (report.metrics[k], case.metrics[k]) for k in m.EXACT if report.metrics[k] != case.metrics[k]}
    assert not differ, f"predicted vs measured: {differ}"
    if case.name not in UNDEFINED_OUTPUTS:
        assert digest(values) == case.output_digest


def test_every_new_opcode_is_probed():
    opcodes = " ".join(case.spec.source for case in RECORDING.cases[:1])
    for ptx in ("min(a[i], min(b[i], c[i]))", "brx.idx", "elect.sync", "ldmatrix", "stmatrix",
                "mbarrier.try_wait", "cp.async.bulk"):
        assert ptx in opcodes


PEAK_FINDING = rec.DATA_DIR.parent / "prereg11" / "cupy_peak_finding.cu"


def _relative_extrema(x, order: int, comp: int, axis: int):
    """cupyx.scipy.signal's boolrelextrema with clipped edges, in numpy."""
    ops = [np.less, np.greater, np.less_equal, np.greater_equal, np.equal, np.not_equal]
    n = x.shape[axis]
    keep = np.ones(x.shape, bool)
    for o in range(1, order + 1):
        for shift in (o, -o):
            idx = np.clip(np.arange(n) + shift, 0, n - 1)
            keep &= ops[comp](x, np.take(x, idx, axis=axis))
    return keep


@pytest.mark.parametrize("comp", range(6))
def test_a_uniform_jump_table_takes_each_of_its_branches(comp):
    """BRXU (BRX through a uniform register): ptxas compiles cupyx's `compare` if-chain over a
    runtime `comp` into a jump table in boolrelextrema_2D; each value of comp takes one target."""
    rows, cols, order, axis = 24, 40, 2, comp % 2
    x = np.random.default_rng(comp).integers(0, 4, (rows, cols)).astype(np.float32)
    out = np.zeros(rows * cols, np.uint8)
    report = memsim.simulate(str(PEAK_FINDING), "boolrelextrema_2D<float>", ((cols + 15) // 16, (rows + 15) // 16),
                             (16, 16), [np.int32(cols), np.int32(rows), np.int32(order), np.bool_(True), np.int32(comp),
                                        np.int32(axis), x.ravel(), out], engine="sass")
    assert report.metrics[m.SASS_WARP_INSTRUCTIONS] > 0
    assert out.reshape(rows, cols).astype(bool).tolist() == _relative_extrema(x, order, comp, axis).tolist()


def test_boolrelextrema_2d_compiles_to_a_uniform_jump_table_the_engine_runs():
    from memsim.compiler.nvrtc import compile_for_kernel
    from memsim.engine.sass.compile import listing
    from memsim.engine.sass.coverage import coverage
    from memsim.gpus import DEFAULT_ARCH

    text = PEAK_FINDING.read_text()
    compiled, kernel = compile_for_kernel(text, "boolrelextrema_2D<float>", DEFAULT_ARCH, (), PEAK_FINDING.name)
    assert "BRXU" in listing(text, DEFAULT_ARCH, (), PEAK_FINDING.name, compiled.name_expressions)
    assert coverage(str(PEAK_FINDING), "boolrelextrema_2D<float>") == {kernel: []}
