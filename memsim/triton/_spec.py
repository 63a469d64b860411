"""`memsim predict kernels.py --kernel NAME --grid G --arg ... --constexpr BLOCK=256
[--num-warps 4] [--num-stages 3]`: a @triton.jit kernel of a Python file as a LaunchSpec that
any memsim command runs.

The kernel is compiled for the arguments the --arg texts describe (a buffer: a pointer to its
element type; a scalar: a Python int, float or bool, typed by Triton as it types them, i32 or
i64 by value, fp32 for floats); the spec is the cubin with the parameters Triton passes (the
constexprs and the integers equal to 1 left out, the two scratch pointers appended), the block
of 32 x num_warps threads and the dynamic shared memory Triton asks for.
"""
from __future__ import annotations

import ast
import re
from typing import Sequence

from ..compiler.python_file import import_file
from ..errors import LaunchError
from ..launch import ArgSpec, LaunchSpec
from ._compile import SCALAR_TYPES, DevicePointer, compile_kernel

_CONSTEXPR = re.compile(r"^([A-Za-z_]\w*)=(.+)$")


def triton_spec(path: str, kernel: str, grid, arg_texts: Sequence[str], constexprs: Sequence[str] = (),
                num_warps: int | None = None, num_stages: int | None = None, seed: int = 0) -> LaunchSpec:
    """The LaunchSpec of kernel `kernel` of the Python file `path`, launched on `grid` with
    the --arg texts and NAME=VALUE constexprs."""
    fn = load_kernel(path, kernel)
    specs = [ArgSpec.parse(text) for text in arg_texts]
    stand_ins = [DevicePointer(spec.dtype, k) if spec.is_buffer else spec.scalar().item()
                 for k, spec in enumerate(specs)]
    options = {name: value for name, value in (("num_warps", num_warps), ("num_stages", num_stages))
               if value is not None}
    compiled, _ = compile_kernel(fn, tuple(stand_ins), {**parse_constexprs(constexprs), **options})
    names = list(fn.arg_names)
    if len(specs) > len(names):
        raise LaunchError(f"{kernel} takes {len(names)} parameters, {len(specs)} --arg given")
    by_name = dict(zip(names, specs))
    params = []
    for name, kind in zip(compiled.param_names, compiled.param_types):
        spec = by_name.get(name)
        if spec is None:
            raise LaunchError(f"{kernel}: parameter {name} has no --arg (constexprs go in --constexpr)")
        if kind.startswith("*"):
            params.append(spec)
        else:
            params.append(ArgSpec(dtype=SCALAR_TYPES.get(kind, spec.dtype), value=spec.value))
    return LaunchSpec(source=compiled.cubin_path, kernel=compiled.name, grid=grid,
                      block=(32 * compiled.num_warps, 1, 1), args=[*params, *hidden_args(compiled, _blocks(grid))],
                      shared_mem=compiled.shared, seed=seed)


def hidden_args(kernel, blocks: int) -> list[ArgSpec]:
    """The global and profile scratch pointers Triton's launcher appends, as --arg specs: a
    zeroed buffer of size x blocks where the kernel asks for one, else null."""
    return [ArgSpec(dtype="uint8", count=size * blocks, init="zeros") if size else ArgSpec(dtype="uint64", value="0")
            for size in (kernel.global_scratch_size, kernel.profile_scratch_size)]


def parse_constexprs(texts: Sequence[str]) -> dict:
    """NAME=VALUE texts as keyword arguments: Python literals (256, 1.5, True, 'x'), else the
    text itself."""
    found = {}
    for text in texts:
        match = _CONSTEXPR.match(text.strip())
        if not match:
            raise LaunchError(f"bad --constexpr '{text}': write NAME=VALUE, like BLOCK=256")
        name, value = match.groups()
        try:
            found[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            found[name] = value
    return found


def load_kernel(path: str, name: str):
    """The @triton.jit function `name` of the Python file `path` (imported as Python would)."""
    from pathlib import Path

    from triton.runtime.jit import JITFunction

    if Path(path).is_file() and "async_compile.triton(" in Path(path).read_text(errors="replace"):
        raise LaunchError(f"{path} is Inductor's output code (torch.compile): run the graph with "
                          "`memsim predict FILE --inductor`")
    module = import_file(path, "memsim_triton")
    kernels = sorted(n for n, v in vars(module).items() if isinstance(_jit_function(v), JITFunction))
    found = _jit_function(getattr(module, name, None))
    if not isinstance(found, JITFunction):
        raise LaunchError(f"no kernel '{name}' in {path}: its @triton.jit functions are "
                          f"{', '.join(kernels) or 'none'}")
    return found


def _jit_function(value):
    """The JITFunction under autotune/heuristics wrappers (their .fn; an Autotuner has
    arg_names too, so the type decides)."""
    from triton.runtime.jit import JITFunction

    while value is not None and hasattr(value, "fn") and not isinstance(value, JITFunction):
        value = value.fn
    return value


def _blocks(grid) -> int:
    from ..launch import dims

    x, y, z = dims(grid)
    return x * y * z
