"""torch.compile a few typical functions for the GPU and keep Inductor's output code: one
Python module per function (its @triton.jit kernels and the `call(args)` that launches them).

    python3 gpu/inductor_functions.py OUTDIR            # on the GPU machine (torch 2.11, triton 3.6.0)
    python3 gpu/inductor_functions.py OUTDIR --no-gpu   # here: a CUDA build of torch, no GPU
    ... --inductor-defaults                             # Inductor's own config choices (several
                                                        # configs per kernel where it would time them)

Inductor's choices are made deterministic: no max-autotune, one config per pointwise kernel and
reduction (no on-device benchmarking decides anything). Each function runs once on the GPU
(its results are checked against eager mode there). --no-gpu answers the few device queries
Inductor makes while it generates code (device properties, capability, Triton's target) with
the H100's values (memsim.gpus' profile), so that a machine without a GPU writes the same files;
the compiled module is then never launched. OUTDIR/versions.json records torch, Triton and the
device; with --inductor-defaults on the GPU, OUTDIR/autotune_timings.json holds the time of each
config of every kernel Inductor timed, and which it kept (the fastest).
"""
from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import torch
import torch.nn.functional as F


def softmax(x):
    return torch.softmax(x, -1)


def layer_norm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)


def gelu_linear(x, w, b):
    return F.gelu(x @ w + b)   # x @ w is cuBLAS (an extern kernel); bias + GELU one Triton kernel


def column_sum(x):
    return x.sum(0)


def residual_rmsnorm(x, residual, w):
    h = x + residual
    return h, h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6) * w


def embedding(indices, table):
    return F.embedding(indices, table)


def transpose_copy(x):
    return x.t().clone(memory_format=torch.contiguous_format)


def inputs(device: str) -> dict:
    """Each function's arguments (float32; sizes a simulator runs in seconds)."""
    g = torch.Generator().manual_seed(0)
    r = lambda *shape: torch.randn(*shape, generator=g).to(device)
    return {
        "softmax": (softmax, (r(256, 1000),)),
        "layer_norm": (layer_norm, (r(256, 768), r(768), r(768))),
        "gelu_linear": (gelu_linear, (r(128, 256), r(256, 512), r(512))),
        "column_sum": (column_sum, (r(512, 384),)),
        "residual_rmsnorm": (residual_rmsnorm, (r(256, 1024), r(256, 1024), r(1024))),
        "embedding": (embedding, (torch.randint(0, 5000, (1024,), generator=g).to(device), r(5000, 128))),
        "transpose_copy": (transpose_copy, (r(512, 384),)),
    }


def deterministic_inductor() -> None:
    import torch._inductor.config as config

    config.max_autotune = False
    config.max_autotune_pointwise = False
    config.coordinate_descent_tuning = False
    config.triton.autotune_pointwise = False            # pointwise kernels: the first config
    config.test_configs.force_filter_reduction_configs = True   # reductions: one config
    config.triton.cudagraphs = False


def output_code(fn, args) -> str:
    """Inductor's output code of torch.compile(fn)(*args) (one graph)."""
    from torch._inductor.graph import GraphLowering

    codes: list[str] = []
    original = GraphLowering.save_output_code
    GraphLowering.save_output_code = staticmethod(lambda code: codes.append(code))
    torch._dynamo.reset()
    try:
        compiled = torch.compile(fn, backend="inductor", fullgraph=True)
        try:
            out = compiled(*args)
        except Exception:
            if not codes or args[0].device.type == "cuda" and not _no_gpu:
                raise
            out = None   # --no-gpu: the module was written, its launch needs the GPU
    finally:
        GraphLowering.save_output_code = original
    if out is not None and args[0].is_cuda and not _no_gpu:
        expected = fn(*args)
        for got, want in zip(out if isinstance(out, tuple) else (out,),
                             expected if isinstance(expected, tuple) else (expected,)):
            torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)
    if len(codes) != 1:
        raise SystemExit(f"error: {fn.__name__} made {len(codes)} graphs, expected one")
    return codes[0]


_no_gpu = False


def answer_device_queries() -> None:
    """No GPU here: answer what Inductor asks while generating code as the GPU would (nothing
    is launched; the module's launch fails, after it was written)."""
    global _no_gpu
    _no_gpu = True
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.driver import CudaDriver

    props = types.SimpleNamespace(
        name="NVIDIA H100 80GB HBM3", major=9, minor=0, multi_processor_count=132,
        max_threads_per_multi_processor=2048, max_threads_per_block=1024, regs_per_multiprocessor=65536,
        warp_size=32, total_memory=80 * 2**30, L2_cache_size=50 * 2**20, shared_memory_per_block_optin=232448,
        shared_memory_per_multiprocessor=233472, shared_memory_per_block=49152, gcnArchName="", uuid="none",
        is_integrated=False)
    cuda = torch.cuda
    cuda.is_available, cuda.device_count, cuda.current_device = (lambda: True), (lambda: 1), (lambda: 0)
    cuda.get_device_properties = lambda device=None: props
    cuda.get_device_capability = lambda device=None: (props.major, props.minor)
    cuda.get_device_name = lambda device=None: props.name
    # one function object each: dynamo keeps a rule per torch function object
    cuda.set_device, cuda._lazy_init = (lambda device: None), (lambda: None)
    cuda._exchange_device, cuda._maybe_exchange_device = (lambda index: 0), (lambda index: 0)
    cuda.get_rng_state = lambda *a, **k: torch.zeros(16, dtype=torch.uint8)
    cuda.set_rng_state = lambda *a, **k: None
    torch.accelerator.current_device_index = lambda: 0
    torch.accelerator.is_available = lambda: False     # dynamo would ask for the current stream
    import torch._subclasses.fake_tensor as fake_tensor
    fake_tensor.init_gpu_context = lambda device: None
    # pattern sets traced on real device tensors at first use (attention, pad_mm, misc):
    # none applies to these functions
    import torch._inductor.fx_passes.fuse_attention as fuse_attention
    import torch._inductor.fx_passes.misc_patterns as misc_patterns
    import torch._inductor.fx_passes.pad_mm as pad_mm
    fuse_attention._get_sfdp_patterns = lambda *a, **k: iter(())
    misc_patterns._misc_patterns_init, pad_mm._pad_mm_init = (lambda *a, **k: None), (lambda *a, **k: None)

    class Utils:
        def get_device_properties(self, device):
            return {"max_shared_mem": props.shared_memory_per_block_optin, "multiprocessor_count": 132,
                    "max_num_regs": 65536, "warpSize": 32, "sm_clock_rate": 1980000,
                    "mem_clock_rate": 2619000, "mem_bus_width": 5120}

    class Driver(CudaDriver):
        def __init__(self):
            self.utils, self.launcher_cls = Utils(), None

        get_current_device = staticmethod(lambda: 0)
        set_current_device = staticmethod(lambda device: None)
        get_current_stream = staticmethod(lambda device=None: 0)
        get_device_capability = staticmethod(lambda device=None: (9, 0))

        def get_current_target(self):
            return GPUTarget("cuda", 90, 32)

    triton.runtime.driver.set_active(Driver())


def keep_autotune_timings(found: dict) -> None:
    """Where a kernel has several configs Inductor times them on the GPU at its first call and
    keeps the fastest: each config's time (ms, Inductor's benchmarker), by kernel name."""
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner

    original = CachingAutotuner.benchmark_all_configs

    def benchmark_all_configs(self, *args, **kwargs):
        timings = original(self, *args, **kwargs)
        found[self.inductor_meta.get("kernel_name", self.fn.__name__)] = [
            {"constexprs": dict(launcher.config.kwargs), "num_warps": launcher.config.num_warps,
             "num_stages": launcher.config.num_stages, "ms": float(ms)} for launcher, ms in timings.items()]
        return timings

    CachingAutotuner.benchmark_all_configs = benchmark_all_configs


def fake_cuda(args):
    from torch._subclasses.fake_tensor import FakeTensorMode

    mode = FakeTensorMode(allow_non_fake_inputs=True)
    with mode:
        return tuple(torch.empty_strided(a.shape, a.stride(), dtype=a.dtype, device="cuda") for a in args)


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    no_gpu = "--no-gpu" in argv
    if no_gpu:
        answer_device_queries()
    timings: dict[str, list] = {}
    if "--inductor-defaults" not in argv:
        deterministic_inductor()
    elif not no_gpu:
        keep_autotune_timings(timings)
    import triton

    for name, (fn, args) in inputs("cpu" if no_gpu else "cuda").items():
        code = output_code(fn, fake_cuda(args) if no_gpu else args)
        (out / f"{name}.py").write_text(code)
        print(f"{name}: {code.count('@triton.jit')} Triton kernels, {code.count('extern_kernels.')} extern calls")
    if timings:
        (out / "autotune_timings.json").write_text(json.dumps(timings, indent=1) + "\n")
    device = "none (--no-gpu)" if no_gpu else torch.cuda.get_device_name()
    (out / "versions.json").write_text(json.dumps(
        {"torch": torch.__version__, "triton": triton.__version__, "device": device}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
