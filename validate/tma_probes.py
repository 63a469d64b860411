"""Launches of Hopper's TMA (cp.async.bulk.tensor with a CUtensorMap), setmaxnreg and a
warp-specialised producer/consumer pipeline (validate/tma_probes.cu), recorded on the H100:
tile shapes, partial edge tiles, loads and stores, a 128-byte swizzle.

    python -m validate.tma_probes CASES.json                # here: the case list
    bash gpu/measure_on_device.sh file CASES.json           # on the GPU machine: set `tma_probes`
    validate run --cases sm90                               # compares the recording

The kernels are compiled for sm_90a (setmaxnreg needs it): `-arch=sm_90a` in the spec's
options, which NVRTC takes over memsim's (and CuPy's) own -arch.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

SOURCE = Path(__file__).with_name("tma_probes.cu")
OPTIONS = ("-arch=sm_90a",)


def _case(name: str, kernel: str, grid, block: int, args: list[str], tags: list[str]) -> dict:
    return {"name": name, "tags": ["sm90", "tma", *tags],
            "spec": {"source": SOURCE.read_text(), "kernel": kernel, "grid": list(grid), "block": [block, 1, 1],
                     "args": args, "options": list(OPTIONS)}}


def _tiles(rows: int, cols: int, box_rows: int, box_cols: int) -> tuple[int, int]:
    return -(-cols // box_cols), -(-rows // box_rows)


def _load(name, dtype, rows, cols, box, swizzle=""):
    gx, gy = _tiles(rows, cols, *box)
    kernel = f"k_tma_load_{'f32' if dtype == 'float32' else 'i16'}_{box[0]}x{box[1]}"
    init = "" if dtype == "float32" else ":randint(-30000,30000)"
    tmap = f"tensormap:0:{rows}x{cols}:{box[0]}x{box[1]}" + (f":{swizzle}" if swizzle else "")
    return _case(name, kernel, (gx, gy, 1), 128, [f"{dtype}[{rows * cols}]{init}", tmap,
                                                  f"{dtype}[{gx * gy * box[0] * box[1]}]:zeros"], ["tma-load"])


def _store(name, rows, cols, box):
    gx, gy = _tiles(rows, cols, *box)
    return _case(name, f"k_tma_store_f32_{box[0]}x{box[1]}", (gx, gy, 1), 128,
                 [f"float32[{rows * cols}]:zeros", f"tensormap:0:{rows}x{cols}:{box[0]}x{box[1]}",
                  f"float32[{rows * cols}]", f"int32:{rows}", f"int32:{cols}"], ["tma-store"])


def probe_cases() -> list[dict]:
    ws = lambda name, rows, cols: _case(   # noqa: E731 - column strips of 32, a ring of two 32x32 boxes
        name, "k_ws_pipeline", (cols // 32, 1, 1), 256,
        [f"float32[{rows * cols}]", f"tensormap:0:{rows}x{cols}:32x32", f"float32[{cols}]:zeros",
         f"int32:{-(-rows // 32)}"], ["warp-specialized", "setmaxnreg", "mbarrier"])
    return [
        _load("tma_load_f32_8x32_edges", "float32", 100, 200, (8, 32)),
        _load("tma_load_f32_32x32_edges", "float32", 100, 200, (32, 32)),
        _load("tma_load_f32_64x16_full", "float32", 256, 64, (64, 16)),
        _load("tma_load_i16_16x64_edges", "int16", 50, 136, (16, 64)),
        _load("tma_load_f32_8x64_edges", "float32", 70, 92, (8, 64)),
        _load("tma_load_f32_16x12_edges", "float32", 40, 20, (16, 12)),
        _case("tma_load_1d_edges", "k_tma_load_1d", (5, 1, 1), 128,
              ["float32[1100]", "tensormap:0:1100:256", "float32[1280]:zeros"], ["tma-load"]),
        _case("tma_load_3d_edges", "k_tma_load_3d", (3, 3, 3), 128,
              ["float32[5*20*72]", "tensormap:0:5x20x72:2x8x32", "float32[27*512]:zeros"], ["tma-load"]),
        _load("tma_load_f32_32x32_swizzle128", "float32", 64, 96, (32, 32), "swizzle128"),
        _store("tma_store_f32_16x32_edges", 100, 200, (16, 32)),
        _store("tma_store_f32_32x64_full", 128, 256, (32, 64)),
        _store("tma_store_f32_32x64_edges", 70, 92, (32, 64)),
        _case("tma_copy_32x32_edges", "k_tma_copy", (3, 4, 1), 128,
              ["float32[9600]", "float32[9600]:zeros", "tensormap:0:100x96:32x32", "tensormap:1:100x96:32x32"],
              ["tma-load", "tma-store"]),
        ws("tma_ws_pipeline_full", 256, 128),
        ws("tma_ws_pipeline_edges", 200, 96),
        _case("setmaxnreg", "k_setmaxnreg", (4, 1, 1), 256, ["float32[1024]", "float32[1024]:zeros"], ["setmaxnreg"]),
        _case("bulk_copy_2k", "k_bulk_2k", (16, 1, 1), 128, ["float32[8192]", "float32[8192]:zeros"],
              ["bulk-copy", "mbarrier"]),
    ]


def probe_as_cases():
    """The probes as validate Cases (set `tma_probes`)."""
    from .case import Case

    return [Case(name=c["name"], spec=c["spec"], tags=c["tags"]) for c in probe_cases()]


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(probe_cases()))
