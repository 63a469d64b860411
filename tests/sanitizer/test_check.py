"""memsim check: the command's exit status and text, the Python API, the engines it runs on."""
from __future__ import annotations

import numpy as np
import pytest

import memsim
from memsim.cli import main
from memsim.errors import MemsimError
from memsim.launch import ArgSpec
from validate.sanitizer_cases import SANITIZER_DIR

RACE = str(SANITIZER_DIR / "racecheck.cu")
CLEAN = str(SANITIZER_DIR / "clean.cu")
INIT = str(SANITIZER_DIR / "initcheck.cu")


def _cli(capsys, *argv):
    status = main(["check", *argv])
    return status, capsys.readouterr()


@pytest.mark.parametrize("kernel, args, status", [
    ("race_cross_warp", ["--arg", "float32[64]", "--arg", "float32[64]:zeros"], 1),
    ("race_single_pair", ["--arg", "float32[1]:zeros"], 0)])
def test_exit_status_says_whether_racecheck_found_a_hazard(capsys, kernel, args, status):
    code, out = _cli(capsys, RACE, "--kernel", kernel, "--grid", "1", "--block", "64", *args, "--tool", "racecheck")
    assert code == status
    assert out.out.startswith("========= COMPUTE-SANITIZER\n")
    assert ("Race reported between" in out.out) == bool(status)


def test_error_exitcode_and_compute_sanitizer_words(capsys):
    code, out = _cli(capsys, INIT, "--kernel", "init_stencil_halo", "--grid", "1", "--block", "128",
                     "--arg", "float32[129]:empty", "--arg", "float32[128]:zeros", "--tool", "initcheck",
                     "--error-exitcode", "7")
    assert code == 7
    lines = out.out.splitlines()
    assert lines[1] == "========= Uninitialized __global__ memory read of size 4 bytes"
    assert lines[2].startswith("=========     at init_stencil_halo+0x") and lines[2].endswith("initcheck.cu:55")
    assert lines[3] == "=========     by thread (127,0,0) in block (0,0,0)"
    assert lines[-1] == "========= ERROR SUMMARY: 1 error"


def test_hazard_report_names_both_threads(capsys):
    code, out = _cli(capsys, RACE, "--kernel", "race_cross_warp", "--grid", "1", "--block", "64",
                     "--arg", "float32[64]", "--arg", "float32[64]:zeros", "--tool", "racecheck",
                     "--racecheck-report", "hazard", "--print-limit", "1")
    # memsim runs warp 0 first: its read of s[32] (after the 0x400 bytes the driver reserves)
    # comes before warp 1 writes it
    assert "Error: Potential WAR hazard detected at __shared__ 0x480 in block (0,0,0) :" in out.out
    assert "Read Thread (0,0,0)" in out.out and "Write Thread (32,0,0)" in out.out
    assert out.out.endswith("RACECHECK SUMMARY: 1 hazards displayed (1 errors, 0 warnings)\n")


def test_the_ptx_engine_is_refused_in_one_line(capsys):
    code, out = _cli(capsys, CLEAN, "--kernel", "ok_broadcast", "--grid", "1", "--block", "128", "--arg",
                     "float32[128]:ones", "--arg", "float32[128]:zeros", "--tool", "synccheck", "--engine", "ptx")
    assert code == 2
    assert out.err.count("\n") == 1 and "SASS engine only" in out.err


def test_python_api_and_empty_buffers():
    source = open(INIT).read()
    a, out = np.zeros(256, np.float32), np.zeros(256, np.float32)
    watched = memsim.check(source, "init_read_empty", 2, 128, [a, out], "initcheck", empty=[0])
    unwatched = memsim.check(source, "init_read_empty", 2, 128, [a, out], "initcheck")
    assert watched.errors == 256 and {f.threads[0][0] for f in watched.findings} == set(range(128))
    assert unwatched.clean
    assert ArgSpec.parse("float32[8]:empty").init == "empty"


def test_initcheck_shared_is_memsims_own_option():
    source = open(INIT).read()
    out = np.zeros(128, np.float32)
    plain = memsim.check(source, "init_shared_tile_unwritten", 1, 128, [out], "initcheck")
    shared = memsim.check(source, "init_shared_tile_unwritten", 1, 128, [out], "initcheck", initcheck_shared=True)
    assert plain.clean and shared.errors == 128
    assert {f.space for f in shared.findings} == {"shared"}


def test_unknown_tool():
    with pytest.raises(MemsimError, match="unknown tool"):
        memsim.check("x", "k", 1, 1, [], "leakcheck")


MATCH_THEN_SYNC = r'''
extern "C" __global__ void k_match_groups(const int* key, int* out) {
  int k = key[threadIdx.x];
  if (k < 4) {                                     // a few lanes: a coalesced group
    unsigned group = __activemask();
    __syncwarp(group);
    unsigned same = __match_any_sync(group, k);    // MATCH.ANY: no predicate destination
    __syncwarp(group);                             // the group's mask must survive MATCH.ANY
    out[threadIdx.x] = __popc(same) + __popc(group);
  }
}
'''


@pytest.mark.parametrize("keys", [[1, 9, 9, 1, 2] + [9] * 27, [0, 1, 2, 3] * 8])
def test_match_any_leaves_other_registers_alone(keys):
    """MATCH.ANY once wrote its (absent) predicate into R0, the register ptxas kept the group's
    mask in: synccheck then saw `WARPSYNC R0` with a mask of 1 (a false positive on the public
    corpus). The outputs and a clean synccheck both depend on R0 surviving."""
    key = np.array(keys, np.int32)
    out = np.zeros(32, np.int32)
    memsim.simulate(MATCH_THEN_SYNC, "k_match_groups", 1, 32, [key, out])
    group = key < 4
    expected = [int(((key == key[i]) & group).sum() + group.sum()) if group[i] else 0 for i in range(32)]
    assert out.tolist() == expected
    assert "ERROR SUMMARY: 0 errors" in memsim.check(MATCH_THEN_SYNC, "k_match_groups", 1, 32,
                                                    [key, np.zeros(32, np.int32)], tool="synccheck").text()
