"""`kernel[grid](args)` of an unchanged @triton.jit kernel, run on memsim.

install() replaces triton's JITFunction.run (what `kernel[grid](...)` and Autotuner and
heuristics wrappers call) with a launch on memsim, and Autotuner's timing of a config with
memsim's prediction (_autotune): the arguments' arrays (numpy arrays, torch
CPU tensors) stand in for device buffers, the kernel is compiled as Triton's launcher would
compile it (memsim.triton._compile), runs on the SASS engine with 32 x num_warps threads per
block and the dynamic shared memory Triton asks for, and the results come back into the arrays.
reports() holds each launch's KernelReport, as memsim.cupy.reports() does.
"""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..engine.simulation import simulate
from ..errors import LaunchError
from ..launch import dims
from ..report import KernelReport
from ._autotune import CHOICE_NOTE, cost
from ._compile import DevicePointer, TritonKernel, compile_kernel, hidden_parameters, parameter_value

_REPORTS: list[KernelReport] = []
_LAST: list[KernelReport] = []     # the latest launch's report, kept or not
_QUIET: list[None] = []            # non-empty while autotuning: launches are not kept in reports()
_ORIGINAL: dict[str, Any] = {}


def reports() -> list[KernelReport]:
    """The KernelReport of every launch since the last clear_reports(), in launch order."""
    return list(_REPORTS)


def clear_reports() -> None:
    """Forget the launches so far."""
    _REPORTS.clear()


def install() -> None:
    """Every @triton.jit kernel (made before or after) launches on memsim; an @triton.autotune
    kernel's configs are timed by memsim's prediction instead of a GPU timer."""
    from triton.runtime.autotuner import Autotuner
    from triton.runtime.jit import JITFunction

    if "run" not in _ORIGINAL:
        _ORIGINAL["run"], _ORIGINAL["bench"], _ORIGINAL["tune"] = JITFunction.run, Autotuner._bench, Autotuner.run
        JITFunction.run, Autotuner._bench, Autotuner.run = _run, _bench, _autotuned_run


def uninstall() -> None:
    """Triton's own launcher again (a GPU is then needed to launch)."""
    from triton.runtime.autotuner import Autotuner
    from triton.runtime.jit import JITFunction

    if "run" in _ORIGINAL:
        JITFunction.run, Autotuner._bench, Autotuner.run = (_ORIGINAL.pop(k) for k in ("run", "bench", "tune"))


def _bench(tuner, *args, config, **meta) -> list[float]:
    """Autotuner._bench on memsim: the config's launch simulated on copies of the arrays (the
    caller's are untouched, no report kept); its 'time' is what the choice minimises
    (_autotune.cost), the same for Triton's three quantiles."""
    current = dict(meta, **config.all_kwargs())
    copies = [_copy(value) for value in args]
    if config.pre_hook:
        config.pre_hook({**dict(zip(tuner.arg_names, copies)), **current})
    _QUIET.append(None)
    try:
        tuner.fn.run(*copies, **current)
    finally:
        _QUIET.pop()
    value = cost(_LAST[-1])
    return [value, value, value]


def _autotuned_run(tuner, *args, **kwargs):
    """Autotuner.run, saying in one line (stderr) which config memsim chose when it chose one."""
    before = len(tuner.cache)
    result = _ORIGINAL["tune"](tuner, *args, **kwargs)
    if len(tuner.cache) > before and len(tuner.configs) > 1:
        print(f"memsim.triton: {tuner.base_fn.__name__}: {len(tuner.configs)} configs, chose "
              f"{tuner.best_config}: {CHOICE_NOTE}", file=sys.stderr)
    return result


def _copy(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.copy()
    return value.clone() if hasattr(value, "clone") and _as_array(value)[0] is not None else value


def _run(fn, *args, grid, warmup, **kwargs):
    """JITFunction.run on memsim: compile for these arguments; unless warmup, launch."""
    for hook in fn.pre_run_hooks:
        hook(*args, **kwargs)
    arrays: dict[int, np.ndarray] = {}
    stand_ins = [_stand_in(value, arrays) for value in args]
    named = {key: _stand_in(value, arrays) for key, value in kwargs.items()}
    kernel, bound = compile_kernel(fn, tuple(stand_ins), named)
    if warmup:
        return kernel
    real = {name: _real(value, arrays) for name, value in bound.items()}
    grid3 = dims(grid(real) if callable(grid) else grid)
    report = launch(kernel, real, grid3)
    _LAST[:] = [report]
    if not _QUIET:
        _REPORTS.append(report)
    return kernel


def launch(kernel: TritonKernel, arguments: dict[str, Any], grid: tuple[int, int, int]) -> KernelReport:
    """Run one compiled kernel on memsim with its arguments by parameter name (arrays are
    written back in place)."""
    if kernel.num_ctas != 1:
        raise LaunchError(f"{kernel.name}: num_ctas={kernel.num_ctas} (thread block clusters) is not "
                          "supported by memsim.triton yet")
    values = []
    for name, kind in zip(kernel.param_names, kernel.param_types):
        value = arguments[name]
        if kind.startswith("*"):
            if not isinstance(value, np.ndarray):
                raise LaunchError(f"parameter {name}: Triton passes it as a pointer, got {type(value).__name__}")
            values.append(value)
        else:
            values.append(parameter_value(kind, value, name))
    _check_distinct([v for v in values if isinstance(v, np.ndarray)])
    blocks = grid[0] * grid[1] * grid[2]
    report = simulate(kernel.cubin_path, kernel.name, grid, (32 * kernel.num_warps, 1, 1),
                      [*values, *hidden_parameters(kernel, blocks)], kernel.shared)
    return report.model_copy(update={"nvrtc_version": kernel.compiler})


def _stand_in(value: Any, arrays: dict[int, np.ndarray]) -> Any:
    """What Triton's binder sees of an argument: arrays become DevicePointers (their numpy
    view kept in `arrays`), anything else is itself."""
    array, dtype = _as_array(value)
    if array is None:
        return value
    pointer = DevicePointer(dtype, len(arrays))
    arrays[id(pointer)] = array
    return pointer


def _real(value: Any, arrays: dict[int, np.ndarray]) -> Any:
    return arrays.get(id(value), value)


def _as_array(value: Any) -> tuple[np.ndarray | None, Any]:
    """(numpy view sharing the argument's memory, the dtype Triton is told) of an array
    argument; (None, None) for anything else."""
    if isinstance(value, np.ndarray):
        _check_layout(value, value.ndim)
        return value, value.dtype
    if type(value).__module__ == "torch" and type(value).__name__ in ("Tensor", "Parameter"):
        if value.device.type != "cpu":
            raise LaunchError(f"a torch tensor on {value.device}: memsim.triton runs CPU tensors")
        _check_layout(value, value.dim(), value.is_contiguous())
        data = value.detach()
        if data.dtype.is_floating_point and data.element_size() == 2 and str(data.dtype) != "torch.float16":
            data = data.view(__import__("torch").int16)   # bfloat16: numpy has no such type; bytes as they are
        return data.numpy(), value.dtype
    return None, None


def _check_layout(value: Any, ndim: int, contiguous: bool | None = None) -> None:
    contiguous = value.flags.c_contiguous if contiguous is None else contiguous
    if ndim == 0 or not contiguous:
        raise LaunchError("an array argument is 0-d or not C-contiguous: memsim.triton passes each array "
                          "as its own buffer (pass a contiguous copy)")


def _check_distinct(buffers: list[np.ndarray]) -> None:
    """Each array is its own buffer in memsim: two that share memory would not see each other's
    writes, so they are refused rather than silently wrong."""
    for i, first in enumerate(buffers):
        for second in buffers[i + 1:]:
            if np.may_share_memory(first, second):
                raise LaunchError("two kernel arguments share memory (the same array or views of one): "
                                  "memsim.triton passes each array as its own buffer")
