"""The figures seeds 000-003 published from their own GPUs, as catalog launches.

Seeds 000-002 used nvprof on Pascal cards, seed 003 Nsight Compute on an A100 (sm_80). Each
SeedFigure names a catalog launch, the GPU profile and build (-dlcm=ca or not) the seed used, one
metric (nvprof's name on Pascal, ncu's on the A100, or one of the pseudo-metrics below) and the
seed's number. docs/seed_tables.py prints memsim's figure beside each; tests/model/test_pascal.py and
tests/catalog/test_seed_tables.py hold the counts (kind "count") equal.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from .. import metrics as m
from ..launch import DLCM_CA, LaunchSpec
from .entries import ENTRIES

TIME_MS = "time_ms"   # the seed's kernel time: CUDA events (000) or a host timer around launch + sync (001)
DURATION_MS = "duration_ms"   # ncu's "Duration" (gpu__time_duration.sum, ms) in its Speed Of Light section
DRAM_PCT = "dram_throughput_pct"   # ncu's "DRAM Throughput" (% of the DRAM's peak bytes per second)


class SeedLaunch(BaseModel):
    """A catalog launch as a seed made it: entry, geometry, GPU and whether loads were L1-cached."""

    label: str
    entry: str
    nx: int
    ny: int
    block: str
    gpu: str
    dlcm_ca: bool = True

    @property
    def profiler(self) -> str:
        """The seed's profiler: nvprof on Pascal (its metric names), Nsight Compute elsewhere."""
        return "nvprof" if self.gpu.startswith("GTX") else "ncu"

    def spec(self, nx: int | None = None, ny: int | None = None) -> LaunchSpec:
        """The launch, at the seed's size or a smaller one (per-request counts do not change)."""
        spec = ENTRIES[self.entry].launch(nx=nx or self.nx, ny=ny or self.ny, block=self.block)
        return spec.model_copy(update={"options": (DLCM_CA,)}) if self.dlcm_ca else spec


class SeedFigure(BaseModel):
    seed: str
    launch: SeedLaunch
    metric: str
    value: float
    kind: Literal["count", "modeled"]


def _launch(label: str, entry: str, nx: int, ny: int, block: str, gpu: str, dlcm_ca: bool = True) -> SeedLaunch:
    return SeedLaunch(label=label, entry=entry, nx=nx, ny=ny, block=block, gpu=gpu, dlcm_ca=dlcm_ca)


# Seed 000: GTX 1060 6GB, a 2048 x 1024 matrix (ny x nx). Its v3/v4 table fits only the 32 x 32
# tile (a 32 x 16 block gives 16 and 2 shared transactions per load request, not 32 and 1) with
# L1-cached loads (16 transactions per request + 2 per launch: 16.000031 = (16 x 65,536 + 2) /
# 65,536); v1's block is not given, 32 x 32 is assumed like v3's.
_S000 = dict(nx=1024, ny=2048, block="32,32", gpu="GTX1060")
S000_ROW = _launch("v1 transposeRow", "transpose_naive_row", **_S000)
S000_COL = _launch("v1 transposeCol", "transpose_naive_col", **_S000)
S000_V3 = _launch("v3 transposeCoalesced", "transpose_smem_rect", **_S000)
S000_V4 = _launch("v4 transposeCoalesced, tile[BDIMY][BDIMX+1]", "transpose_smem_rect_pad", **_S000)
# Seed 001: GTX 1050 Ti, 4096 x 4096, block 32 x 32, built with -Xptxas -dlcm=ca.
_S001 = dict(nx=4096, ny=4096, gpu="GTX1050Ti")
S001 = {name: _launch(name, entry, block="32,32", **_S001) for name, entry in (
    ("copyRow", "copy_row"), ("copyCol", "copy_col"), ("transformNaiveRow", "transpose_naive_row"),
    ("transformNaiveCol", "transpose_naive_col"))}
S001_BLOCKS = {block: _launch(f"transformNaiveCol ({block})", "transpose_naive_col", block=block, **_S001)
               for block in ("32,32", "32,16", "32,8", "64,16", "64,8", "128,8")}
# Seed 002: the misaligned add (its GPU is not named; a Pascal card is assumed), default build.
S002_ADD2 = _launch("add2 (x[n+1])", "add_misaligned", 4096, 4096, "32", "GTX1060", dlcm_ca=False)
# Seed 003: A100 (CC 8.0), ncu; grid 64 x block 256 = 16,384 threads, one per row / column, so
# ds = 16,384 (8,388,608 requests = 512 warps x 16,384 loads; the text's "16000" is rounded).
_S003 = dict(nx=16384, ny=16384, block="256", gpu="A100", dlcm_ca=False)
S003_ROW = _launch("row_sums", "row_sums", **_S003)
S003_COL = _launch("column_sums", "col_sums", **_S003)


def _c(seed: str, launch: SeedLaunch, metric: str, value: float) -> SeedFigure:
    return SeedFigure(seed=seed, launch=launch, metric=metric, value=value, kind="count")


def _m(seed: str, launch: SeedLaunch, metric: str, value: float) -> SeedFigure:
    return SeedFigure(seed=seed, launch=launch, metric=metric, value=value, kind="modeled")


_S001_THROUGHPUT = {"copyRow": (81.263, 40.631, 1.610), "copyCol": (120.93, 120.93, 4.202),
                    "transformNaiveRow": (31.717, 126.87, 4.008), "transformNaiveCol": (243.64, 30.454, 2.123)}
_S001_BLOCK_MS = {"32,32": 2.138, "32,16": 1.692, "32,8": 1.926, "64,16": 2.125, "64,8": 1.946, "128,8": 2.229}

SEED_FIGURES: list[SeedFigure] = [
    _c("000", S000_V3, "gld_transactions_per_request", 16.000031),
    _c("000", S000_V3, "gst_transactions_per_request", 4.0),
    _c("000", S000_V3, "shared_load_transactions_per_request", 32.0),
    _c("000", S000_V3, "shared_store_transactions_per_request", 1.0),
    _c("000", S000_V4, "shared_load_transactions_per_request", 1.0),
    _c("000", S000_V4, "shared_store_transactions_per_request", 1.0),
    _c("002", S002_ADD2, "gld_efficiency", 80.0),
    _m("000", S000_ROW, "gld_throughput", 24.568),
    _m("000", S000_ROW, "gst_throughput", 196.54),
    _m("000", S000_COL, "gld_throughput", 192.52),
    _m("000", S000_COL, "gst_throughput", 48.129),
    _m("000", S000_ROW, TIME_MS, 0.321056),
    _m("000", S000_COL, TIME_MS, 0.161760),
    _m("000", S000_V3, TIME_MS, 0.155776),
    _m("000", S000_V4, TIME_MS, 0.107424),
    *[figure for name, (ld, st, ms) in _S001_THROUGHPUT.items()
      for figure in (_m("001", S001[name], "gld_throughput", ld), _m("001", S001[name], "gst_throughput", st),
                     _m("001", S001[name], TIME_MS, ms))],
    *[_m("001", S001_BLOCKS[block], TIME_MS, ms) for block, ms in _S001_BLOCK_MS.items()],
    _c("003", S003_ROW, m.GLOBAL_LD_REQUESTS, 8_388_608),
    _c("003", S003_ROW, m.GLOBAL_LD_SECTORS, 268_435_456),
    _c("003", S003_COL, m.GLOBAL_LD_REQUESTS, 8_388_608),
    _c("003", S003_COL, m.GLOBAL_LD_SECTORS, 33_554_432),
    _m("003", S003_ROW, DURATION_MS, 3.84),
    _m("003", S003_ROW, DRAM_PCT, 17.98),
    _m("003", S003_COL, DURATION_MS, 2.71),
    _m("003", S003_COL, DRAM_PCT, 25.56),
]

# The launch each seed made of a catalog entry on its GPU (the block-size variants of seed 001's
# table are not defaults): `memsim predict ENTRY --gpu GPU` starts from it.
_DEFAULT_LAUNCHES = (S000_ROW, S000_COL, S000_V3, S000_V4, *S001.values(), S002_ADD2, S003_ROW, S003_COL)


def seed_launch(entry: str, gpu: str) -> SeedLaunch | None:
    """The seed's launch of `entry` on `gpu` (its geometry and build), or None if no seed ran it there."""
    return next((launch for launch in _DEFAULT_LAUNCHES
                 if launch.entry == entry and launch.gpu.lower() == gpu.lower()), None)
