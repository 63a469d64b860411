"""Machines where NVRTC and nvdisasm have no wheel (macOS): the catalog runs from the shipped
modules, a .ptx runs on the PTX engine, an nvdisasm listing on the SASS engine, and a .cu file
gets one line saying what is missing. The tools are hidden as they are absent there: importing
cuda.bindings.nvrtc fails, no nvdisasm is found, nvJitLink's library does not load."""
from __future__ import annotations

import json
import re
import shlex
import sys

import pytest

from memsim import catalog
from memsim.compiler import nvrtc as mc, shipped
from memsim.cli import main
from memsim.engine.sass import compile as sc, nvjitlink
from memsim.catalog import build_compiled

from tests.helpers import docs as test_docs

EXAMPLE = "docs/examples/transpose_pad2.cu"
EXAMPLE_ARGS = ["--kernel", "k_transposeSmemPad2", "--grid", "2,4", "--block", "32,16",
                "--arg", "float32[64x64]:zeros", "--arg", "float32[64x64]", "--arg", "int32:64",
                "--arg", "int32:64"]


def _hide_nvrtc(monkeypatch) -> None:
    """`from cuda.bindings import nvrtc` fails as where the wheel is absent (the package's
    attribute goes too: an earlier import set it)."""
    import cuda.bindings

    monkeypatch.setitem(sys.modules, "cuda.bindings.nvrtc", None)
    monkeypatch.delattr(cuda.bindings, "nvrtc", raising=False)
    with pytest.raises(shipped.ToolMissing):
        mc.load_nvrtc()


def _clear_caches() -> None:
    for cached in (mc._compile_cached, sc._compile_cubin, sc.listing, nvjitlink._link):
        cached.cache_clear()


@pytest.fixture
def no_compiler(monkeypatch):
    """NVRTC, nvdisasm and nvJitLink absent, as on macOS; compile caches emptied."""
    _hide_nvrtc(monkeypatch)
    monkeypatch.setattr(sc, "find_nvdisasm", lambda: None)
    monkeypatch.setattr(nvjitlink, "_wheel_libraries", lambda: [])
    monkeypatch.setattr(nvjitlink, "LIBRARY", "libmemsim-absent-nvJitLink.so")
    monkeypatch.delenv(sc.NVDISASM_ENV, raising=False)
    _clear_caches()
    yield
    _clear_caches()


def _json(argv: list[str], capsys) -> list[dict]:
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _metrics(reports: list[dict]) -> list[dict]:
    return [r["metrics"] for r in reports]


def test_predict_catalog(capsys, no_compiler):
    reports = _json(["predict", "transpose_naive", "--nx", "256", "--json"], capsys)
    assert [r["kernel"] for r in reports] == ["k_naiveRow", "k_naiveCol"]


def test_same_numbers_as_with_the_compiler(capsys, monkeypatch):
    compiled = _metrics(_json(["predict", "transpose_smem", "--nx", "64", "--json"], capsys))
    _hide_nvrtc(monkeypatch)
    monkeypatch.setattr(sc, "find_nvdisasm", lambda: None)
    _clear_caches()
    try:
        assert _metrics(_json(["predict", "transpose_smem", "--nx", "64", "--json"], capsys)) == compiled
    finally:
        _clear_caches()


def test_show_and_source_on_catalog(capsys, tmp_path, no_compiler):
    assert main(["source", "transpose_smem", "--nx", "64"]) == 0
    assert "sub[row][col]" in capsys.readouterr().out
    assert main(["show", "transpose_naive_row", "--nx", "64", "--line", "17",
                 "--png", str(tmp_path / "w.png")]) == 0


def test_tutorial_example_file(capsys, no_compiler):
    assert main(["show", EXAMPLE, *EXAMPLE_ARGS, "--line", "18", "--access", "1"]) == 0


def test_cu_file_is_one_line(capsys, tmp_path, no_compiler):
    path = tmp_path / "k.cu"
    path.write_text('extern "C" __global__ void k(float* a) { a[threadIdx.x] = 1; }\n')
    assert main(["predict", str(path), "--kernel", "k", "--grid", "1", "--block", "32",
                 "--arg", "float32[32]"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "NVRTC cannot be loaded" in err and ".sass" in err


def test_ptx_file(capsys, tmp_path, no_compiler):
    ptx = tmp_path / "k.ptx"
    ptx.write_text(_ptx_of_catalog())
    reports = _json(["predict", str(ptx), "--kernel", "k_copyRow", "--grid", "2,2", "--block", "32,32",
                     "--arg", "float32[64x64]", "--arg", "float32[64x64]:zeros", "--arg", "int32:64",
                     "--arg", "int32:64", "--json"], capsys)
    assert reports[0]["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 128


def _ptx_of_catalog() -> str:
    spec = catalog.get("copy_row").launch(nx=64)
    return shipped.lookup(spec.source, "kernel.cu", "sm_90", (), (), LookupError()).ptx


def _listing_of(name: str, nx: int) -> tuple[str, object]:
    spec = catalog.get(name).launch(nx=nx)
    return shipped.lookup(spec.source, "kernel.cu", "sm_90", (), (), LookupError()).sass, spec


def test_listing_file_equals_catalog(capsys, tmp_path, no_compiler):
    sass, spec = _listing_of("transpose_smem_pad", 64)
    path = tmp_path / "tile.sass"
    path.write_text(sass)
    args = [f"--arg={a}" for a in spec.args]
    listed = _json(["predict", str(path), "--kernel", spec.kernel, "--grid", "2,2", "--block", "32,32",
                    "--shared-mem", str(32 * 33 * 4), *args, "--json"], capsys)
    direct = _json(["predict", "transpose_smem_pad", "--nx", "64", "--json"], capsys)
    assert listed[0]["metrics"] == direct[0]["metrics"]


def test_cubin_needs_nvdisasm(capsys, tmp_path, no_compiler):
    path = tmp_path / "k.cubin"
    path.write_bytes(b"\x7fELF\x02")
    assert main(["predict", str(path), "--kernel", "k", "--grid", "1", "--block", "32",
                 "--arg", "float32[32]"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "nvdisasm -c -g k.cubin > k.sass" in err


def test_shipped_modules_are_current():
    """The default geometry of every catalog entry and element type, compiled now, equals the
    shipped module (the whole store: python -m memsim.catalog.build_compiled --check)."""
    pytest.importorskip("cuda.bindings.nvrtc")
    sources = {e.launch(dtype=d).source for e in catalog.ENTRIES.values() for d in e.dtypes}
    jobs = [build_compiled.Job(source=s) for s in sorted(sources)]
    assert {j.source for j in jobs} <= set(build_compiled.catalog_sources())
    for job in jobs:
        made = build_compiled.build(job)
        assert shipped.modules()[made.digest] == made


def test_store_is_small():
    assert shipped.STORE.stat().st_size < 1_500_000


TUTORIAL_COMMANDS = [(command, bool(expected)) for doc, command, expected in test_docs.COMMANDS
                     if doc == "tutorial.md"]
README_COMMAND = "memsim predict transpose_naive --nx 2048"   # the README's first command, as written
TUTORIAL_COMMANDS.append((README_COMMAND, True))


@pytest.mark.parametrize("command, as_written", TUTORIAL_COMMANDS, ids=[c for c, _ in TUTORIAL_COMMANDS])
def test_tutorial_command_prints_the_same_without_compilers(command, as_written, capsys, monkeypatch,
                                                           tmp_path):
    """Issue 13: with NVRTC and nvdisasm absent the tutorial's commands print what they print
    with them (the shipped compiles stand in)."""
    monkeypatch.chdir(test_docs.ROOT)
    argv = shlex.split(command)[1:]
    if command != README_COMMAND:
        argv = test_docs.runnable(argv, tmp_path, as_written)
    outputs = []
    for hidden in (False, True):
        with monkeypatch.context() as inner:
            if hidden:
                _hide_nvrtc(inner)
                inner.setattr(sc, "find_nvdisasm", lambda: None)
            _clear_caches()
            assert main(argv) == 0, command
            outputs.append(_timeless(capsys.readouterr().out))
    _clear_caches()
    assert outputs[1] == outputs[0]


def _timeless(text: str) -> str:
    """Output without what differs between two runs of one command: seconds it took."""
    return re.sub(r"\d+(\.\d+)? ?s\b", "<s>", text)
