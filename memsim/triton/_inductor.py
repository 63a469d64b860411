"""Inductor's output code on memsim: the Python module torch.compile writes for one graph (its
@triton.jit kernels, each under a triton_heuristics decorator, and `call(args)` that allocates
the buffers and launches them), run as Inductor runs it, every Triton launch on memsim.

The file is imported, not parsed: which configs a kernel has (block sizes, num_warps,
num_stages), how it is compiled (Inductor's signature, constants, divisibility hints and compile
options) and its grid are decided by Inductor's own code (torch._inductor.runtime), so memsim
needs torch (the release that wrote the file) but re-implements none of it, and the cubin is the
one the GPU runs. What needs a GPU is stood in for while the file runs: buffers are torch CPU
tensors, extern kernels (cuBLAS's mm) run on the CPU, the stream is 0, the device guard does
nothing, Triton's driver only names the target. Inputs are made as the file's get_args() makes
them (rand_strided: normal floats, integers zero). A kernel with several configs (Inductor
benchmarks them on the GPU) runs each and keeps the one memsim predicts cheapest (_autotune).
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from ..compiler.python_file import import_file
from ..errors import CompileError, LaunchError
from ..launch import ArgSpec, LaunchSpec
from ..report import KernelReport
from ._autotune import cost
from ._compile import TritonKernel, cache_of, describe, parameter_value
from ._launcher import launch
from ._spec import hidden_args
from ._toolchain import ARCH, target

_LAUNCHES: list["InductorLaunch"] = []


class InductorLaunch(BaseModel):
    """One kernel launch of the graph: a Triton kernel run on memsim, or an extern call."""

    index: int = Field(description="place in the graph's launch order")
    kernel: str
    extern: bool = Field(False, description="an extern kernel (cuBLAS, ...): run by torch on the CPU, not simulated")
    grid: tuple[int, int, int] = (0, 0, 0)
    block: tuple[int, int, int] = (0, 0, 0)
    num_warps: int = 0
    num_stages: int = 0
    constexprs: dict[str, Any] = Field(default_factory=dict, description="the chosen config's block sizes")
    configs: int = Field(0, description="configs Inductor's heuristics listed (memsim ran each)")
    costs: list[float] = Field(default_factory=list,
                               description="with several configs: each one's predicted cost, in the list's order")
    candidates: list["InductorLaunch"] = Field(default_factory=list,
                                               description="with several configs: each one's launch (no report)")
    spec: LaunchSpec | None = Field(None, description="the launch with its buffers made afresh (validate's cases)")
    report: KernelReport | None = None


@dataclasses.dataclass
class InductorRun:
    """A graph run: its launches in order, the inputs get_args() made and what call() returned
    (torch CPU tensors, computed: memsim's Triton kernels wrote them)."""

    launches: list[InductorLaunch]
    inputs: list
    outputs: tuple


def run_output_code(path: str, simulate: bool = True) -> InductorRun:
    """Every launch of the Inductor output-code file `path`, in order; with simulate=False the
    kernels are compiled and their launches described (spec) but not run."""
    torch = require_torch()
    _LAUNCHES.clear()
    with _without_gpu(torch, simulate):
        module = import_file(path, "memsim_inductor")
        if not all(hasattr(module, name) for name in ("get_args", "call", "extern_kernels")):
            raise LaunchError(f"{path}: not Inductor output code (it has no get_args() and call())")
        for name, value in _cpu_globals(torch).items():
            setattr(module, name, value)
        module.extern_kernels = _Extern(module.extern_kernels)
        torch.manual_seed(0)
        inputs = list(module.get_args())
        outputs = module.call(list(inputs))   # call() empties the list it gets
    return InductorRun(launches=list(_LAUNCHES), inputs=inputs, outputs=tuple(outputs))


def require_torch():
    try:
        import torch
    except ImportError:
        raise LaunchError("Inductor output code runs Inductor's own code: install torch (the release that "
                          "wrote the file)") from None
    return torch


@contextlib.contextmanager
def _without_gpu(torch, simulate: bool):
    """What the file and Inductor's runtime ask of a GPU, answered without one; all restored."""
    import torch._dynamo.testing as testing
    import torch._inductor.async_compile as async_compile
    import triton

    saved = [(async_compile, "AsyncCompile"), (torch.cuda, "is_available"), (torch.cuda, "_DeviceGuard"),
             (torch.cuda, "set_device"), (testing, "rand_strided")]
    before = [getattr(owner, name) for owner, name in saved]
    original_rand_strided = testing.rand_strided
    async_compile.AsyncCompile = lambda: _Compile(simulate)
    torch.cuda.is_available = lambda: True   # the heuristics branch on it: answer as on the GPU
    torch.cuda._DeviceGuard = lambda index: contextlib.nullcontext()
    torch.cuda.set_device = lambda device: None
    testing.rand_strided = lambda size, stride, dtype=torch.float32, device="cpu", extra_size=0: \
        original_rand_strided(size, stride, dtype, "cpu", extra_size)
    driver = triton.runtime.driver
    active = driver._active
    driver.set_active(_target_only_driver())
    try:   # CachingAutotuner points TRITON_CACHE_DIR at Inductor's cache for good: not past here
        with _environment("TRITON_CACHE_DIR"):
            yield
    finally:
        for (owner, name), value in zip(saved, before):
            setattr(owner, name, value)
        driver._active = active


def _target_only_driver():
    """Triton's CUDA driver as far as compiling goes (the target, the device 0): making launchers
    would need libcuda, and nothing is launched through it."""
    from triton.backends.nvidia.driver import CudaDriver

    class TargetOnly(CudaDriver):
        def __init__(self):
            self.utils, self.launcher_cls = None, None

        def get_current_target(self):
            return target()

        get_current_device = staticmethod(lambda: 0)
        get_current_stream = staticmethod(lambda device=None: 0)

    return TargetOnly()


def _cpu_globals(torch) -> dict[str, Any]:
    """The output code's module-level helpers that would touch the GPU, on the CPU."""
    return {"empty_strided_cuda": lambda size, stride, dtype: torch.empty_strided(size, stride, dtype=dtype),
            "get_raw_stream": lambda index: 0}


class _Extern:
    """extern_kernels as the file calls them (torch's CPU kernels), each call listed."""

    def __init__(self, real) -> None:
        self._real = real

    def __getattr__(self, name: str):
        function = getattr(self._real, name)

        def call(*args, **kwargs):
            _LAUNCHES.append(InductorLaunch(index=len(_LAUNCHES), kernel=f"extern_kernels.{name}", extern=True))
            return function(*args, **kwargs)
        return call


class _Compile:
    """AsyncCompile as the output code uses it: triton(name, source) gives the kernel."""

    def __init__(self, simulate: bool) -> None:
        self.simulate = simulate

    def triton(self, name: str, source: str, device_str: str = "cuda", **_) -> "_Kernel":
        if device_str != "cuda":
            raise LaunchError(f"{name}: a {device_str} kernel (memsim runs the CUDA ones)")
        return _Kernel(name, source, self.simulate)

    def wait(self, scope: dict) -> None:
        """Nothing is compiling in the background."""

    def __getattr__(self, name: str):
        def refuse(*args, **kwargs):
            raise LaunchError(f"the output code asks for a {name} kernel: memsim runs its Triton kernels only")
        return refuse


class _Kernel:
    """One generated kernel: its source written to a file of its own (Triton reads a kernel's
    source and line table from its file), its CachingAutotuner made by Inductor's decorator."""

    def __init__(self, name: str, source: str, simulate: bool) -> None:
        digest = hashlib.sha256(source.encode()).hexdigest()[:16]
        folder = Path(tempfile.gettempdir()) / "memsim-inductor" / digest
        folder.mkdir(parents=True, exist_ok=True)
        self.file = folder / f"{name}.py"
        if not self.file.is_file() or self.file.read_text() != source:
            self.file.write_text(source)
        self.name, self.simulate = name, simulate
        self.tuner = getattr(import_file(str(self.file), "memsim_inductor_kernel"), name)

    def run(self, *args, stream=None, **kwargs) -> None:
        """CachingAutotuner.run: the launch of the config Inductor would keep (the only one, or
        the one memsim predicts cheapest), on the graph's buffers."""
        named = {**dict(zip(self.tuner.fn.arg_names, args)), **kwargs}
        arrays = {k: flat_view(v) for k, v in named.items() if _is_tensor(v)}
        scalars = {k: v for k, v in named.items() if k not in arrays}
        configs = list(self.tuner.configs)
        compiled = [self._compile(cfg) for cfg in configs]
        launches = [self._describe(kernel, cfg, scalars, arrays) for kernel, cfg in zip(compiled, configs)]
        pick, costs = 0, []
        if len(launches) > 1 and self.simulate:
            costs = [cost(launch_on_copies(one.spec)) for one in launches]
            pick = costs.index(min(costs))
        chosen = launches[pick].model_copy(update={
            "index": len(_LAUNCHES), "costs": costs, "candidates": launches if len(launches) > 1 else []})
        if self.simulate:
            chosen.report = launch(compiled[pick], {**named, **arrays}, chosen.grid)
        _LAUNCHES.append(chosen)

    def _describe(self, kernel: TritonKernel, cfg, scalars: dict, arrays: dict) -> InductorLaunch:
        from torch._inductor.runtime.triton_heuristics import GridExpr

        grid = GridExpr.from_meta(self.tuner.inductor_meta, cfg).eval_slow({**scalars, **cfg.kwargs})
        return InductorLaunch(index=0, kernel=self.name, grid=grid, block=(32 * kernel.num_warps, 1, 1),
                              num_warps=kernel.num_warps, num_stages=kernel.num_stages,
                              constexprs=dict(cfg.kwargs), configs=len(self.tuner.configs),
                              spec=_spec_of(kernel, {**scalars, **arrays}, grid))

    def _compile(self, cfg) -> TritonKernel:
        """The config compiled as CachingAutotuner._precompile_config compiles it, in the
        environment of Inductor's compile workers: ptxas is torch's own (torch/bin/ptxas, a newer
        CUDA's than the one Triton bundles), which changes the SASS."""
        import triton
        from triton.compiler import ASTSource

        tuner = self.tuner
        meta = tuner._create_compile_meta(cfg)
        if meta["cc"] != ARCH:
            raise LaunchError(f"{self.name}: generated for compute capability {meta['cc']}, memsim runs {ARCH}")
        source = ASTSource(tuner.fn, meta["signature"], meta["constants"], meta["configs"][0])
        try:
            with cache_of(str(self.file)), _inductor_ptxas():
                compiled = triton.compile(source, target=target(), options=tuner._create_compile_options(cfg, meta))
                return describe(compiled, dict(compiled.src.signature), str(self.file), triton.__version__)
        except Exception as exc:
            raise CompileError(f"Triton could not compile {self.name}: {str(exc).strip().splitlines()[-1:]}") from None


@contextlib.contextmanager
def _inductor_ptxas():
    """TRITON_PTXAS_PATH as Inductor's compile workers set it (torch's ptxas where torch ships
    one), for this compile only: memsim.triton's own kernels keep Triton's bundled ptxas, as
    Triton's launcher uses it on the GPU."""
    from torch._inductor.runtime.compile_tasks import _set_triton_ptxas_path

    with _environment("TRITON_PTXAS_PATH"):
        _set_triton_ptxas_path.__wrapped__()   # functools.cache'd: it would set it once, for good
        yield


@contextlib.contextmanager
def _environment(name: str):
    """The environment variable `name` as it was, after the block."""
    before = os.environ.get(name)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def launch_on_copies(spec: LaunchSpec) -> KernelReport:
    """A candidate config run on buffers of its own (the graph's are not touched)."""
    from ..engine.simulation import simulate_spec

    return simulate_spec(spec)[0]


def _spec_of(kernel: TritonKernel, values: dict, grid) -> LaunchSpec:
    """The launch with fresh buffers of the same sizes: floats as rand_strided makes them
    (random), integers zero (rand_strided's integers: an index buffer stays in bounds)."""
    args = []
    for name, kind in zip(kernel.param_names, kernel.param_types):
        value = values[name]
        if kind.startswith("*"):
            init = "random" if value.dtype.kind == "f" else "zeros"
            args.append(ArgSpec(dtype=value.dtype.name, count=value.size, init=init))
        else:
            scalar = parameter_value(kind, value, name)
            args.append(ArgSpec(dtype=scalar.dtype.name, value=str(scalar.item())))
    blocks = grid[0] * grid[1] * grid[2]
    return LaunchSpec(source=kernel.cubin_path, kernel=kernel.name, grid=grid, block=(32 * kernel.num_warps, 1, 1),
                      args=[*args, *hidden_args(kernel, blocks)], shared_mem=kernel.shared)


def _is_tensor(value: Any) -> bool:
    return type(value).__module__ == "torch" and type(value).__name__ in ("Tensor", "Parameter")


def flat_view(tensor) -> np.ndarray:
    """A tensor argument as the kernel sees it: its pointer is the first element, and it may
    read anywhere up to the end of the storage (Inductor passes views and reinterpreted
    buffers), so the numpy view runs from there to the storage's end, sharing its memory."""
    import torch

    if tensor.device.type != "cpu":
        raise LaunchError(f"a tensor on {tensor.device}: memsim runs the output code with CPU tensors")
    element = tensor.element_size()
    count = tensor.untyped_storage().nbytes() // element - tensor.storage_offset()
    flat = torch.as_strided(tensor.detach(), (count,), (1,))
    if flat.dtype == torch.bfloat16:
        flat = flat.view(torch.int16)   # numpy has no bfloat16: its bytes as they are
    return flat.numpy()
