"""The launch a command names: a catalog entry or group, or a kernel in a .cu/.ptx file with
its geometry and arguments. Shared by every `memsim` command that runs a launch (predict,
show, source, advise, compare, sweep), so the commands parse and run launches one way."""
from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

from pydantic import BaseModel
from rich.console import Console

from .. import catalog
from ..tools import progress
from ..views import render
from ..compiler.nvrtc import include_options
from ..errors import LaunchError
from ..catalog.nvprof_seeds import seed_launch
from ..launch import DLCM_CA, ArgSpec, LaunchSpec, dims
from ..prediction import predict_spec
from ..engine import registry
from ..engine.interface import DEFAULT_BUDGET, DEFAULT_TIMEOUT
from ..engine.simulation import simulate_spec

SOURCE_SUFFIXES = (".cu", ".cuh", ".ptx", ".py", ".sass", ".cubin")
BIG_LAUNCH_THREADS = 1 << 20   # launches this large get a spinner: they take seconds or more

ARG_HELP = """\
kernel arguments (--arg, in the kernel's parameter order):
  float32[4096]              buffer of 4096 float32, uniform random in [0, 1) (the default)
  float32[4096]:zeros        initial contents: zeros | ones | random | arange | permutation |
                             randint(LO,HI) | empty (never written: memsim check's initcheck) | FILE.npy
  float32[64x64]:arange      a count may be written as a product
  int32:4096  or 'int32 4096'  a by-value scalar
  tensormap:0:100x200:8x32   a TMA tensor map (const __grid_constant__ CUtensorMap) over buffer
                             argument 0 seen as 100 rows x 200 columns, boxes of 8 x 32
                             (outermost first; add :swizzle128 for the 128-byte swizzle)
  types: numpy names (float32, int64, uint8, ...) or PTX short forms (f32, s32, u64, ...)

examples:
  memsim list
  memsim predict transpose_ladder --nx 1024
  memsim predict transpose_smem --nx 256 --dtype float64 --check
  memsim predict row_sums --nx 512 --json
  memsim predict k.cu --kernel k_copy --grid 64,64 --block 32,32 \\
      --arg float32[4096x4096] --arg float32[4096x4096]:zeros --arg int32:4096
  memsim predict r.cu --kernel 'reduce<256>' -I include --grid 64 --block 256 --arg float32[16384]
  memsim coverage r.cu                 SASS opcodes the SASS engine cannot run, per kernel
  memsim predict kernels.py --kernel transpose --grid 64,64 --block 32,32 \\
      --arg float32[2048x2048] --arg float32[2048x2048]:zeros
                                       a numba.cuda kernel (@cuda.jit) of a Python file; an array
                                       argument's count is its shape
  memsim predict kernels.py --kernel add_kernel --grid 64 --arg float32[65536] \
      --arg float32[65536] --arg float32[65536]:zeros --arg int32:65536 --constexpr BLOCK_SIZE=1024
                                       a Triton kernel (@triton.jit): the block is 32 x --num-warps
                                       threads, Triton's hidden parameters are added
"""


def add_launch_arguments(parser: argparse.ArgumentParser, many: bool = False) -> None:
    """The target (a catalog entry or group, or a file) and how to launch it."""
    if many:
        parser.add_argument("target", nargs="+", metavar="NAME", help="catalog entries or groups")
    else:
        parser.add_argument("target", metavar="NAME|FILE",
                            help="catalog entry, group, or .cu/.ptx/.py file")
    geometry = parser.add_argument_group("catalog geometry")
    geometry.add_argument("--nx", type=int, help="columns / elements (default: the entry's)")
    geometry.add_argument("--ny", type=int, help="rows (default: nx)")
    geometry.add_argument("--block", help="block shape like 32,16 (also required for a file)")
    geometry.add_argument("--dtype", help="element type: float32, float64 or int32")
    launch = parser.add_argument_group("any kernel (FILE)")
    launch.add_argument("--kernel", help="kernel name in the file")
    launch.add_argument("--grid", help="grid shape like 64,64")
    launch.add_argument("--arg", action="append", default=[], metavar="SPEC",
                        help="a kernel argument, repeated in parameter order (syntax below)")
    launch.add_argument("--shared-mem", type=int, default=0, metavar="B",
                        help="dynamic shared memory in bytes")
    launch.add_argument("--option", action="append", default=[], metavar="OPT",
                        help="NVRTC option such as -DX=1 (repeatable)")
    launch.add_argument("-I", "--include-dir", action="append", default=[], metavar="DIR",
                        help="header directory to search (repeatable; the CUDA headers of the "
                             "nvidia-cuda-* wheels are always searched)")
    tri = parser.add_argument_group("Triton kernel (a .py file with @triton.jit)")
    tri.add_argument("--constexpr", action="append", default=[], metavar="NAME=VALUE",
                     help="a tl.constexpr parameter's value (repeatable)")
    tri.add_argument("--num-warps", type=int, metavar="N", help="warps per program (Triton's default: 4)")
    tri.add_argument("--num-stages", type=int, metavar="N", help="software pipelining stages (default: 3)")
    parser.add_argument("--arch", help="target architecture (default: the --gpu's, e.g. sm_61 for "
                        "GTX1060; else sm_90)")
    parser.add_argument("--gpu", metavar="NAME",
                        help="also model caches, DRAM and time on this GPU (H100, A100, GTX1060, "
                             "GTX1050Ti, H200; see memsim/gpus/profiles): marked 'modeled'")
    parser.add_argument("--max-warp-instructions", type=int, default=DEFAULT_BUDGET, metavar="N",
                        help=f"stop a launch past N warp instructions per worker and chunk of blocks "
                             f"(default {DEFAULT_BUDGET:,})")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"stop a launch after SECONDS of emulation, naming the line and the warps "
                             f"still running (an endless loop); 0: no limit (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--engine", choices=registry.CHOICES, default=registry.DEFAULT,
                        help="sass: emulate the sm_90 SASS the GPU runs (exact); ptx: emulate the PTX "
                             "(PTX input, other architectures; may differ where ptxas reshapes the "
                             "code); auto (default): sass for CUDA C on sm_90, else ptx")


def make_console() -> Console:
    console = Console()
    # Pipes get a wide plain layout instead of rich's 80 columns, which would fold the tables.
    return console if console.is_terminal else Console(width=200, no_color=True)


def is_source_file(target: str) -> bool:
    """A catalog name wins over a file of the same name in the working directory."""
    if target in catalog.names() or target in catalog.groups():
        return False
    return target.endswith(SOURCE_SUFFIXES) or Path(target).is_file()


def parse_dims(text: str, what: str) -> tuple[int, int, int]:
    try:
        return dims(text)
    except ValueError:
        raise LaunchError(f"bad {what} '{text}': give 1 to 3 positive integers like 32,16") from None


def catalog_launches(args: argparse.Namespace) -> list[tuple[str, LaunchSpec, catalog.CatalogKernel]]:
    """(name, launch, entry) per kernel the catalog name or group expands to."""
    stray = [flag for flag, value in (("--kernel", args.kernel), ("--grid", args.grid),
                                      ("--arg", args.arg), ("--shared-mem", args.shared_mem),
                                      ("--option", args.option),
                                      ("--include-dir", getattr(args, "include_dir", []))) if value]
    if stray:
        raise LaunchError(f"{', '.join(stray)}: for a .cu/.ptx file only; a catalog entry takes "
                          f"--nx, --ny, --block, --dtype")
    return [(entry.name, _entry_launch(entry, args), entry) for entry in catalog.resolve(args.target)]


def _entry_launch(entry: catalog.CatalogKernel, args: argparse.Namespace) -> LaunchSpec:
    """The entry's launch; on a GPU a seed measured it on, the seed's geometry and build are the
    defaults (so `--gpu GTX1060` reproduces seed 000's table), each overridable by its flag."""
    seed = seed_launch(entry.name, args.gpu) if args.gpu else None
    if seed is None:
        return entry.launch(args.nx, args.ny, args.block, args.dtype)
    nx, ny = (args.nx, args.ny) if args.nx else (seed.nx, args.ny or seed.ny)
    spec = entry.launch(nx, ny, args.block or seed.block, args.dtype)
    cached = seed.dlcm_ca and getattr(args, "dlcm", None) is None
    if cached:
        spec = spec.model_copy(update={"options": (*spec.options, DLCM_CA)})
    print(f"note: {entry.name} on the {seed.gpu}: {render.dims_text(spec.grid)} blocks of "
          f"{render.dims_text(spec.block)}{', -dlcm=ca' if cached else ''} (the seed's launch where "
          f"--nx/--ny/--block/--dlcm do not say otherwise)", file=sys.stderr)
    return spec


def file_launch(args: argparse.Namespace) -> LaunchSpec:
    """The launch of any kernel in a .cu/.ptx file, from --kernel/--grid/--block/--arg."""
    if not Path(args.target).is_file():
        raise LaunchError(f"no such file: {args.target}")
    triton = args.target.endswith(".py") and is_triton_file(args.target)
    if not triton and (getattr(args, "constexpr", []) or getattr(args, "num_warps", None)
                       or getattr(args, "num_stages", None)):
        raise LaunchError("--constexpr, --num-warps and --num-stages apply to Triton kernels (@triton.jit)")
    missing = [flag for flag, value in (("--kernel", args.kernel), ("--grid", args.grid),
                                        ("--block", args.block or triton)) if not value]
    if missing:
        raise LaunchError(f"a kernel file needs {', '.join(missing)}")
    if args.nx or args.ny or args.dtype:
        raise LaunchError("--nx, --ny and --dtype apply to catalog entries; for a file give --arg")
    if getattr(args, "check", False):
        raise LaunchError("--check needs a catalog entry (a file kernel has no reference)")
    if triton:
        return _triton_launch(args)
    if args.target.endswith(".py"):
        return _numba_launch(args)
    return LaunchSpec(source=args.target, kernel=args.kernel, grid=parse_dims(args.grid, "grid"),
                      block=parse_dims(args.block, "block"),
                      args=[ArgSpec.parse(text) for text in args.arg],
                      shared_mem=args.shared_mem,
                      options=(*args.option, *include_options(getattr(args, "include_dir", []))))


def _numba_launch(args: argparse.Namespace) -> LaunchSpec:
    """A numba.cuda kernel of a .py file: --arg float32[64x32] is a 64 x 32 array."""
    from ..numba_cuda import numba_spec

    if args.option or getattr(args, "include_dir", []):
        raise LaunchError("--option and -I apply to CUDA C; a numba kernel takes none")
    return numba_spec(args.target, args.kernel, parse_dims(args.grid, "grid"),
                      parse_dims(args.block, "block"), args.arg, args.shared_mem)


_TRITON_DECORATOR = re.compile(r"^\s*@\s*(triton\.)?(jit|autotune|heuristics)\b", re.M)
_TRITON_IMPORT = re.compile(r"^\s*(import triton|from triton\b)", re.M)


def is_triton_file(path: str) -> bool:
    """A Python file of Triton kernels (`import triton` and a @triton.jit-style decorator)
    rather than numba.cuda ones."""
    text = Path(path).read_text(errors="replace")
    return bool(_TRITON_IMPORT.search(text) and _TRITON_DECORATOR.search(text))


def _triton_launch(args: argparse.Namespace) -> LaunchSpec:
    """A Triton kernel of a .py file: the block comes from --num-warps, the shared memory from
    the compile (memsim.triton._spec)."""
    from ..triton import triton_spec

    if args.option or getattr(args, "include_dir", []) or args.shared_mem:
        raise LaunchError("--option, -I and --shared-mem do not apply to a Triton kernel (Triton "
                          "decides its shared memory)")
    spec = triton_spec(args.target, args.kernel, parse_dims(args.grid, "grid"), args.arg,
                       getattr(args, "constexpr", []), getattr(args, "num_warps", None),
                       getattr(args, "num_stages", None))
    if args.block and parse_dims(args.block, "block") != spec.block:
        raise LaunchError(f"--block {args.block}: a Triton kernel's block is 32 x num_warps threads "
                          f"({spec.block[0]} here); give --num-warps instead")
    return spec


def resolve_launches(args: argparse.Namespace) -> list[tuple[str, LaunchSpec, catalog.CatalogKernel | None]]:
    """(name, launch, catalog entry or None) per kernel the target stands for."""
    if is_source_file(args.target):
        return [(args.kernel, file_launch(args), None)]
    return catalog_launches(args)


class LaunchOptions(BaseModel):
    """How to run a launch (--gpu, --arch, --engine, --dlcm): a model, not the argparse
    Namespace, so that it travels to pool workers and Dask workers as plain data."""

    gpu: str | None = None
    arch: str | None = None
    engine: str = registry.DEFAULT
    dlcm: str | None = None
    max_warp_instructions: int = DEFAULT_BUDGET
    timeout: float | None = DEFAULT_TIMEOUT

    @classmethod
    def of(cls, args: argparse.Namespace) -> "LaunchOptions":
        return cls(gpu=args.gpu, arch=args.arch, engine=args.engine, dlcm=getattr(args, "dlcm", None),
                   max_warp_instructions=getattr(args, "max_warp_instructions", DEFAULT_BUDGET),
                   timeout=getattr(args, "timeout", DEFAULT_TIMEOUT))


def compute_launch(spec: LaunchSpec, options: LaunchOptions):
    """(report, argument values) of one launch: counts, plus the GPU's models with a gpu."""
    if options.dlcm == "ca":
        spec = spec.model_copy(update={"options": (*spec.options, DLCM_CA)})
    budget = dict(max_warp_instructions=options.max_warp_instructions, timeout=options.timeout)
    if options.gpu:
        return predict_spec(spec, arch=options.arch, engine=options.engine, gpu=options.gpu, **budget)
    return simulate_spec(spec, arch=options.arch, engine=options.engine, **budget)


def run_launch(spec: LaunchSpec, args: argparse.Namespace):
    """compute_launch for a person: interruptible by Ctrl-C, with a spinner on a terminal while
    a big launch runs (the emulator reports no progress from inside a launch)."""
    threads = math.prod(spec.grid) * math.prod(spec.block)
    show = (threads >= BIG_LAUNCH_THREADS
            and progress.wanted(getattr(args, "json", False) or getattr(args, "csv", False)))
    label = f"simulating {spec.kernel} (grid {render.dims_text(spec.grid)}, block {render.dims_text(spec.block)})"
    with progress.spinner(label, show):
        return progress.call_interruptibly(compute_launch, spec, LaunchOptions.of(args))
