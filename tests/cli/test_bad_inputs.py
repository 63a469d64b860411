"""Every bad input a new user met on a fresh clone (issue 22) ends in one line on stderr and
exit status 2, never a traceback, a hang or a wrong number; launches a GPU refuses are refused
with the CUDA driver's error. Each case runs `memsim` in this process (a traceback would fail
the test), most of them before anything is compiled or allocated."""
from __future__ import annotations

import importlib.util
import re
import time

import numpy as np
import pytest

import memsim
from memsim.cli import main
from memsim.errors import LaunchError
from memsim.gpus import load

TRANSPOSE = ["examples/transpose.cu", "--kernel", "transpose_naive", "--grid", "2,2", "--block", "32,32",
             "--arg", "float32[64x64]", "--arg", "float32[64x64]:zeros"]
N64 = ["--arg", "int32:64"]
SPIN = 'extern "C" __global__ void k_spin(volatile int* flag) {\n  while (flag[0] == 0) { }\n}\n'
# ~128 registers a thread: 200 loads held until all are summed
REGS = '''extern "C" __global__ void k_regs(const float* x, float* y) {
  float v[200];
#pragma unroll
  for (int i = 0; i < 200; i++) v[i] = x[threadIdx.x + i * 1024];
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < 200; i++) s += v[i] * v[(i * 37 + 11) % 200];
  y[threadIdx.x] = s;
}
'''
SHARED = '''extern "C" __global__ void k_shared(float* y) {
  extern __shared__ float tile[];
  tile[threadIdx.x] = 1.f;
  __syncthreads();
  y[threadIdx.x] = tile[threadIdx.x];
}
'''
H100 = load("H100")


def one_line_error(capsys, *argv: str) -> str:
    code = main(list(argv))
    _, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (code, err)
    return lines[0]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "binary.cu").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "spin.cu").write_text(SPIN)
    (tmp_path / "regs.cu").write_text(REGS)
    (tmp_path / "shared.cu").write_text(SHARED)
    (tmp_path / "bounds.cu").write_text('extern "C" __global__ void __launch_bounds__(256) k_bounded(float* y) '
                                        '{ y[threadIdx.x] = 1.f; }\n')
    (tmp_path / "scale.cu").write_text('extern "C" __global__ void k_scale(float* y, float a) '
                                       '{ y[threadIdx.x] *= a; }\n')
    return tmp_path


BAD = {
    # name: (argv, pattern of the one line); {d} is the test's folder
    "300 GiB buffer": (TRANSPOSE[:9] + ["--arg", "float32[80530636800]", "--arg", "float32[64x64]:zeros"] + N64,
                       r"cudaErrorMemoryAllocation: 300\.0 GiB of buffers do not fit in its 80\.0 GiB"),
    "binary .cu": (["{d}/binary.cu", "--kernel", "k", "--grid", "1", "--block", "32"],
                   r"binary\.cu is not a text file"),
    "grid x 2^32": (["examples/transpose.cu", "--kernel", "transpose_naive", "--grid", "4294967296",
                     "--block", "32", "--arg", "float32[64]", "--arg", "float32[64]:zeros"] + N64,
                    r"cudaErrorInvalidConfiguration: grid\.x = 4,294,967,296 is over the limit of 2,147,483,647"),
    "grid y 65536": (["examples/transpose.cu", "--kernel", "transpose_naive", "--grid", "1,65536",
                      "--block", "32", "--arg", "float32[64]", "--arg", "float32[64]:zeros"] + N64,
                     r"cudaErrorInvalidConfiguration: grid\.y = 65,536 is over the limit of 65,535"),
    "grid z 65536": (["examples/transpose.cu", "--kernel", "transpose_naive", "--grid", "1,1,65536",
                      "--block", "32", "--arg", "float32[64]", "--arg", "float32[64]:zeros"] + N64,
                     r"cudaErrorInvalidConfiguration: grid\.z = 65,536"),
    "block z 128": (["examples/transpose.cu", "--kernel", "transpose_naive", "--grid", "1",
                     "--block", "1,1,128", "--arg", "float32[64]", "--arg", "float32[64]:zeros"] + N64,
                    r"cudaErrorInvalidConfiguration: block\.z = 128 is over the limit of 64"),
    "block x 2048": (["examples/transpose.cu", "--kernel", "transpose_naive", "--grid", "1",
                      "--block", "2048", "--arg", "float32[64]", "--arg", "float32[64]:zeros"] + N64,
                     r"cudaErrorInvalidConfiguration: block\.x = 2,048 is over the limit of 1,024"),
    "2048 threads": (["examples/transpose.cu", "--kernel", "transpose_naive", "--grid", "1",
                      "--block", "64,32", "--arg", "float32[64]", "--arg", "float32[64]:zeros"] + N64,
                     r"cudaErrorInvalidConfiguration: a block of 2,048 threads is over the limit of 1,024"),
    "randint(5,1)": (TRANSPOSE[:9] + ["--arg", "float32[1024]:randint(5,1)", "--arg", "float32[64]"] + N64,
                     r"randint\(5,1\): LO must be below HI"),
    "float for int": (TRANSPOSE + ["--arg", "float32:1024"],
                      r"argument 2 is float32 1024\.0, but parameter 2 of transpose_naive is \.u32"),
    "int for float": (["{d}/scale.cu", "--kernel", "k_scale", "--grid", "1", "--block", "32",
                       "--arg", "float32[32]", "--arg", "int32:3"],
                      r"argument 1 is int32 3, but parameter 1 of k_scale is \.f32"),
    "300 KB dynamic shared": (["{d}/shared.cu", "--kernel", "k_shared", "--grid", "1", "--block", "32",
                               "--arg", "float32[32]:zeros", "--shared-mem", str(300 * 1024)],
                              r"cudaErrorInvalidValue: 0 bytes of static and 307,200 of dynamic shared memory "
                              r"are over the 232,448 bytes"),
    "registers x 1024 threads": (["{d}/regs.cu", "--kernel", "k_regs", "--grid", "1", "--block", "1024",
                                  "--arg", "float32[204800]", "--arg", "float32[1024]:zeros"],
                                 r"cudaErrorLaunchOutOfResources: 1,024 threads of \d+ registers each need"),
    "block over __launch_bounds__": (["{d}/bounds.cu", "--kernel", "k_bounded", "--grid", "1", "--block", "512",
                                      "--arg", "float32[512]:zeros"],
                                     r"cudaErrorInvalidValue: a block of 512 threads is over the kernel's "
                                     r"__launch_bounds__ of 256 threads"),
    "block over __launch_bounds__, PTX engine": (["{d}/bounds.cu", "--kernel", "k_bounded", "--grid", "1",
                                                  "--block", "16,32", "--arg", "float32[512]:zeros", "--engine", "ptx"],
                                                 r"cudaErrorInvalidValue: a block of 512 threads is over the "
                                                 r"kernel's __launch_bounds__ of 256 threads"),
    "endless loop": (["{d}/spin.cu", "--kernel", "k_spin", "--grid", "1", "--block", "64",
                      "--arg", "int32[1]:zeros", "--timeout", "0.5"],
                     r"ran past the timeout of 0\.5 s .* at line 2 .* in warp 0 of block \(0,0,0\); still running "
                     r"there: warps 0-1: an endless loop\? raise --timeout"),
    "endless loop, instruction budget": (["{d}/spin.cu", "--kernel", "k_spin", "--grid", "1", "--block", "32",
                                          "--arg", "int32[1]:zeros", "--max-warp-instructions", "5000"],
                                         r"ran past the budget of 5,000 warp instructions at line 2"),
}


@pytest.mark.parametrize("name", BAD)
def test_bad_input_is_one_line_and_exit_2(name, files, capsys):
    argv, pattern = BAD[name]
    line = one_line_error(capsys, "predict", *(a.replace("{d}", str(files)) for a in argv))
    assert re.search(pattern, line), line


@pytest.mark.parametrize("name", ["300 GiB buffer", "grid x 2^32", "300 KB dynamic shared"])
def test_refused_before_any_work(name, files, capsys, monkeypatch):
    """The geometry, dynamic shared memory and buffer sizes are checked before a buffer is made
    or the kernel compiled (the 300 GiB buffer would take minutes, or fail, to allocate)."""
    import memsim.launch
    import memsim.engine.simulation as simulation

    def no_work(*_args, **_kwargs):
        raise AssertionError("work began before the launch was checked")
    monkeypatch.setattr(memsim.launch.ArgSpec, "buffer", no_work)
    monkeypatch.setattr(simulation.registry, "get", no_work)
    argv, pattern = BAD[name]
    assert re.search(pattern, one_line_error(capsys, "predict", *(a.replace("{d}", str(files)) for a in argv)))


def test_the_limits_are_the_chosen_gpus(files, capsys):
    """A GPU of less memory refuses what the H100 takes (the GTX1050 Ti's 4 GiB: 8 GiB of
    buffers); the default GPU is the H100 even without --gpu."""
    argv = ["examples/transpose.cu", "--kernel", "transpose_naive", "--grid", "1", "--block", "32",
            "--arg", "float32[2147483648]", "--arg", "float32[64]:zeros", "--arg", "int32:64"]
    line = one_line_error(capsys, "predict", *argv, "--gpu", "GTX1050Ti")
    assert "cudaErrorMemoryAllocation" in line and "GTX1050Ti" in line
    assert load("GTX1050Ti").dram.size_bytes < 8 * 2**30 <= H100.dram.size_bytes


def test_a_launch_within_the_limits_runs(files):
    """The checks refuse only what the GPU refuses: the same register-hungry kernel at 256
    threads (32K registers) runs, and 100 KB of dynamic shared memory (opt-in) too."""
    x, y = np.ones(204800, np.float32), np.zeros(256, np.float32)
    report = memsim.simulate(str(files / "regs.cu"), "k_regs", 1, 256, [x, y])
    assert report.registers_per_thread * 256 <= H100.limits.registers_per_block < report.registers_per_thread * 1024
    assert np.all(y == 200)
    out = np.zeros(32, np.float32)
    memsim.simulate(str(files / "shared.cu"), "k_shared", 1, 32, [out], shared_mem=100 * 1024)
    assert np.all(out == 1)


@pytest.mark.parametrize("kernel", ["transpose_naive", "transpose_tiled"])
def test_registers_come_from_the_cubin(kernel):
    """ptxas' count is the listing's highest register plus one, and up to two it reserves."""
    from memsim.engine.sass.compile import listing

    source = open("examples/transpose.cu").read()
    text = listing(source).split(f".text.{kernel}:")[1].split(".text.")[0]
    highest = max(int(r) for r in re.findall(r"\bR(\d+)\b", text))
    a = np.zeros(64 * 64, np.float32)
    report = memsim.simulate(source, kernel, (2, 2), (32, 32), [a, a.copy(), np.int32(64)])
    assert highest + 1 <= report.registers_per_thread <= highest + 3


def test_prediction_uses_the_cubins_registers(monkeypatch):
    """Without registers_per_thread, memsim.predict's occupancy takes the cubin's count."""
    import memsim.prediction as prediction

    seen = []
    real = prediction.predict_time
    monkeypatch.setattr(prediction, "predict_time",
                        lambda *a, **k: seen.append(k["registers_per_thread"]) or real(*a, **k))
    a = np.zeros(64 * 64, np.float32)
    report = memsim.predict("examples/transpose.cu", "transpose_tiled", (2, 2), (32, 32),
                            [a, a.copy(), np.int32(64)])
    assert seen == [report.registers_per_thread] and report.registers_per_thread not in (None, 32)


@pytest.mark.parametrize("engine", ["sass", "ptx"])
def test_the_default_timeout_stops_an_endless_loop(engine, monkeypatch):
    """The API's timeout= (default 30 s, here shortened) stops an endless loop, naming its line;
    timed after a first run has compiled the emulator."""
    with pytest.raises(memsim.errors.BudgetExceeded, match="budget of 1,000"):
        memsim.simulate(SPIN, "k_spin", 1, 32, [np.zeros(1, np.int32)], max_warp_instructions=1000, engine=engine)
    start = time.perf_counter()
    with pytest.raises(memsim.errors.BudgetExceeded, match=r"timeout of 1 s .* at line 2"):
        memsim.simulate(SPIN, "k_spin", 1, 32, [np.zeros(1, np.int32)], timeout=1, engine=engine)
    assert time.perf_counter() - start < 10
    from memsim.engine.interface import DEFAULT_TIMEOUT
    assert 0 < DEFAULT_TIMEOUT <= 30


def test_bad_budget_values_are_refused():
    with pytest.raises(LaunchError, match="max_warp_instructions must be >= 1"):
        memsim.simulate(SPIN, "k_spin", 1, 32, [np.zeros(1, np.int32)], max_warp_instructions=0)


def test_png_without_matplotlib_says_what_to_install(capsys, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    line = one_line_error(capsys, "show", "transpose_naive_row", "--nx", "64", "--png", "w.png")
    assert "pip install -e '.[plot]'" in line
    assert capsys.readouterr().out == ""   # no tables printed before the error


@pytest.mark.parametrize("where", ["under a file", "is a file"])
def test_validate_report_folder_is_checked_first(where, tmp_path, capsys, monkeypatch):
    from validate import cli as validate_cli

    blocker = tmp_path / "f"
    blocker.write_text("x")
    folder = blocker / "sub" if where == "under a file" else blocker
    monkeypatch.setattr(validate_cli, "command_run", lambda args: pytest.fail("the run began"))
    monkeypatch.setattr(validate_cli, "parser", _parser_with(validate_cli, "command_run"))
    assert validate_cli.main(["run", "--report", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: --report {folder}")


def _parser_with(module, name):
    """validate's parser, with its handlers looked up after the monkeypatch."""
    real = module.parser

    def build():
        top = real()
        for action in top._subparsers._group_actions:
            for sub in action.choices.values():
                if sub.get_default("handler") is not None and sub.get_default("handler").__name__ == name:
                    sub.set_defaults(handler=getattr(module, name))
        return top
    return build


def _refused_on_the_h100() -> list:
    from validate.record import DATA_DIR, load as load_recording
    return [case for path in sorted((DATA_DIR / "h100").glob("prereg*.json")) if not path.name.endswith("-durations.json")
            for case in load_recording(path).cases if case.error and "CUDA_ERROR_INVALID_VALUE" in case.error]


@pytest.mark.parametrize("case", _refused_on_the_h100(), ids=lambda c: c.name)
def test_launches_the_h100_refused_are_refused(case):
    """Every recorded launch the H100's driver refused with CUDA_ERROR_INVALID_VALUE (prereg11's
    upfirdn blocks over their kernels' __launch_bounds__) is refused by memsim with its name."""
    with pytest.raises(LaunchError, match="cudaErrorInvalidValue"):
        memsim.simulate_spec(case.spec)
