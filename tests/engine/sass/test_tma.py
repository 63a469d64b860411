"""Hopper's TMA (tensor maps, UTMALDG/UTMASTG), bulk copies and setmaxnreg against their H100
recording, validate/data/h100/tma_probes.json (validate/tma_probes.py): every exact counter and
every TMA counter equal (a case listed in validate/data/h100/known_differences_sass.json may
differ in its listed metrics only; none is listed), and the arrays the GPU computed."""
import numpy as np
import pytest

import memsim
from memsim import metrics as m
from memsim import tensormap
from memsim.errors import LaunchError
from memsim.launch import ArgSpec, LaunchSpec, digest
from validate import record as rec
from validate.compare import load_known_differences
from validate.tma_probes import SOURCE

RECORDING = rec.load(rec.DATA_DIR / "h100" / "tma_probes.json")
KNOWN = load_known_differences("h100", "sass")   # a listed case must differ in its listed metrics only


@pytest.mark.parametrize("case", RECORDING.cases, ids=lambda c: c.name)
def test_exact_and_tma_counters_equal_the_h100(case, launch_cache):
    report, values = memsim.simulate_spec(case.spec)
    names = m.EXACT + m.TMA
    differ = {k: (report.metrics[k], case.metrics[k]) for k in names if report.metrics[k] != case.metrics[k]}
    known = KNOWN[case.name].metrics if case.name in KNOWN else []
    assert sorted(differ) == sorted(known), f"predicted vs measured: {differ}"
    assert digest(values) == case.output_digest   # each consumer thread sums its column in order


def test_the_recording_covers_loads_stores_edges_swizzle_and_setmaxnreg():
    names = {c.name for c in RECORDING.cases}
    assert len(names) >= 10 and {"setmaxnreg", "tma_ws_pipeline_edges", "tma_load_f32_32x32_swizzle128"} <= names
    for metric in (m.TMA_LD_SECTORS, m.TMA_ST_SECTORS, m.TMA_PIPE_INSTRUCTIONS):
        assert any(c.metrics[metric] > 0 for c in RECORDING.cases)


def test_setmaxnreg_keeps_the_cubins_register_count():
    case = next(c for c in RECORDING.cases if c.name == "setmaxnreg")
    from memsim.engine.sass.compile import kernel_registers
    assert kernel_registers(case.spec.source, case.spec.kernel, options=tuple(case.spec.options)) == \
        case.metrics["launch__registers_per_thread"]


@pytest.mark.parametrize("text, message", [
    ("tensormap:0:100x200", "write tensormap:ARG:DIMS:BOX"),
    ("tensormap:0:100x200:8x32:swizzle64", "unknown tensor map option"),
    ("tensormap:0:100x200:32", "the box has 1 sizes"),
    ("tensormap:0:100x200:8x300", "at most 256"),
])
def test_bad_spellings_are_one_line_errors(text, message):
    with pytest.raises(LaunchError, match=message):
        ArgSpec.parse(text)


@pytest.mark.parametrize("args, message", [
    (["int32:5", "tensormap:0:4x8:4x8"], "not a buffer"),
    (["float32[16]", "tensormap:0:4x8:4x8"], "the buffer has 16"),
    (["float32[400]", "tensormap:0:40x10:4x4"], "multiple of 16 bytes"),
])
def test_maps_are_checked_against_their_buffer(args, message):
    spec = LaunchSpec(source="", kernel="k", grid=1, block=1, args=args)
    with pytest.raises(LaunchError, match=message):
        spec.materialize()


@pytest.mark.parametrize("dims, box", [((100, 200), (8, 32)), ((7, 9, 16), (2, 4, 8)), ((64,), (16,))])
def test_the_layout_round_trips(dims, box):
    value = tensormap.tiled(3, dims, box, 4)
    assert tensormap.is_map(value)
    assert tensormap.fields(value) == {"arg": 3, "rank": len(dims), "itemsize": 4, "swizzle": 0,
                                       "dims": dims, "box": box}
    assert np.frombuffer(tensormap.bind(value, 0x1234)[:8].tobytes(), np.uint64)[0] == 0x1234


def test_python_api_loads_a_box_with_zeros_outside_the_tensor():
    rows, cols = 20, 40   # boxes of 8 x 32 over 20 x 40: the last box row and column stick out
    x = np.arange(rows * cols, dtype=np.float32)
    out = np.zeros(3 * 2 * 8 * 32, np.float32)
    source = SOURCE.read_text()
    tmap = tensormap.tiled(0, (rows, cols), (8, 32), x.itemsize)
    report = memsim.simulate(source, "k_tma_load_f32_8x32", (2, 3), 128, [x, tmap, out], options=["-arch=sm_90a"])
    padded = np.zeros((24, 64), np.float32)
    padded[:rows, :cols] = x.reshape(rows, cols)
    assert np.array_equal(out, padded.reshape(3, 8, 2, 32).transpose(0, 2, 1, 3).reshape(-1) + 1)
    assert report.metrics[m.TMA_LD_INSTRUCTIONS] == 6
