"""Pascal's counting rules and nvprof's metrics: the seeds' own numbers (docs/pascal.md)."""
import re

import numpy as np
import pytest

from memsim import cli
from memsim.catalog.nvprof_seeds import SEED_FIGURES, S001
from memsim.model.pascal import compile_arch, load_is_l1_cached, phase_transactions
from memsim.prediction import predict_spec
from tests.helpers import ROOT

COUNTS = [f for f in SEED_FIGURES if f.kind == "count" and f.launch.profiler == "nvprof"]
DOCS = [ROOT / "docs" / name for name in ("seed-tables.md", "tutorial.md")]


@pytest.mark.parametrize("figure", COUNTS, ids=[f"{f.seed}-{f.launch.entry}-{f.metric}" for f in COUNTS])
def test_seed_counts_equal_nvprof(figure):
    report, _ = predict_spec(figure.launch.spec(), gpu=figure.launch.gpu)
    assert report.arch == "sm_61"
    assert round(report.nvprof_metrics[figure.metric], 6) == figure.value


@pytest.mark.parametrize("name", list(S001))
def test_seed_001_transactions_per_request(name):
    """L1-cached (-dlcm=ca) loads: 4 transactions per sector; stores: one per sector."""
    report, _ = predict_spec(S001[name].spec(nx=256, ny=256), gpu="GTX1050Ti")
    load_sectors = 4 if name in ("copyRow", "transformNaiveRow") else 32
    store_sectors = 4 if name in ("copyRow", "transformNaiveCol") else 32
    requests = 256 * 256 // 32
    assert report.nvprof_metrics["gld_transactions"] == 4 * load_sectors * requests + 2
    assert report.nvprof_metrics["gst_transactions_per_request"] == store_sectors


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.name)
def test_doc_counts_equal_the_seeds(doc):
    """docs/seed-tables.md and the tutorial (docs/seed_tables.py) show every count equal to the seed's."""
    rows = [line.split("|") for line in doc.read_text().splitlines() if "| count |" in line]
    assert len(rows) == len([f for f in SEED_FIGURES if f.kind == "count"])
    for cells in rows:
        assert float(cells[6]) == float(cells[7]), cells


def test_shared_phases():
    """8-byte accesses: half-warp phases, 16-byte: quarter-warp phases, never merged."""
    consecutive8 = np.arange(32, dtype=np.int64)[None, :] * 8
    consecutive16 = np.arange(32, dtype=np.int64)[None, :] * 16
    column8 = np.arange(32, dtype=np.int64)[None, :] * 8 * 32      # a column of double[32][32]
    assert phase_transactions(consecutive8, 8).tolist() == [2]
    assert phase_transactions(consecutive16, 16).tolist() == [4]
    assert phase_transactions(column8, 8).tolist() == [32]
    one_lane = np.full((1, 32), -1, np.int64)
    one_lane[0, 3] = 64
    assert phase_transactions(one_lane, 8).tolist() == [1]


def test_cache_operators():
    assert load_is_l1_cached("ld.global.nc.f32 \t%f1, [%rd6];", False)
    assert load_is_l1_cached("@%p1 ld.global.f32 %f1, [%rd6];", True)
    assert not load_is_l1_cached("ld.global.f32 %f1, [%rd6];", False)
    assert not load_is_l1_cached("ld.global.cg.f32 %f1, [%rd6];", True)
    assert compile_arch("sm_61") == "sm_75" and compile_arch("sm_90") == "sm_90"


def test_cli_nvprof_table(capsys):
    assert cli.main(["predict", "transpose_smem_rect", "--nx", "64", "--ny", "128", "--block", "32,32",
                     "--gpu", "GTX1060", "--metrics", "nvprof", "--dlcm", "ca"]) == 0
    out = capsys.readouterr().out
    assert 'Device "NVIDIA GeForce GTX 1060 6GB (0)"' in out
    assert re.search(r"shared_load_transactions_per_request\s+Shared Memory Load Transactions Per Request"
                     r"\s+32\.000000\s+32\.000000\s+32\.000000", out)


S000_TABLE = [f for f in COUNTS if f.seed == "000"]


@pytest.mark.parametrize("entry", sorted({f.launch.entry for f in S000_TABLE}))
def test_cli_seed_gpu_prints_the_seed_table(entry, capsys):
    """`memsim predict ENTRY --gpu GTX1060 --metrics nvprof`, no other flag: the seed's launch
    (its size, 32 x 32 block and -dlcm=ca build), so the table equals seed 000's."""
    assert cli.main(["predict", entry, "--gpu", "GTX1060", "--metrics", "nvprof"]) == 0
    captured = capsys.readouterr()
    assert "32x32x1, -dlcm=ca" in captured.err
    for figure in (f for f in S000_TABLE if f.launch.entry == entry):
        row = re.search(rf"\s{figure.metric}\s.*\s(\S+)\n", captured.out)
        assert row and float(row.group(1)) == figure.value, figure.metric


def test_cli_seed_launch_yields_to_flags(capsys):
    """A 32 x 16 block given on the command line wins over the seed's 32 x 32: 16 shared
    transactions per load request, not the seed's 32."""
    assert cli.main(["predict", "transpose_smem_rect", "--nx", "64", "--ny", "128", "--block", "32,16",
                     "--gpu", "GTX1060", "--metrics", "nvprof"]) == 0
    assert re.search(r"shared_load_transactions_per_request\s.*\s16\.000000\n", capsys.readouterr().out)


def test_cli_nvprof_needs_pascal(capsys):
    assert cli.main(["predict", "transpose_smem_rect", "--nx", "64", "--gpu", "H100", "--metrics", "nvprof"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
