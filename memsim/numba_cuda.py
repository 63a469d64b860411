"""numba.cuda kernels in memsim: `memsim.simulate(kernel, grid, block, args)` for a @cuda.jit
function, and `memsim predict file.py --kernel NAME ...`.

numba compiles a kernel to PTX with no GPU (`numba.cuda.compile_ptx`, NVVM of CUDA 13.0, for
sm_90); the SASS engine links that PTX with nvJitLink into the cubin the H100 would run
(memsim.engine.sass.nvjitlink), so the counts are the SASS engine's, exact as for CUDA C. The PTX is
made canonical (the entry and its globals named after the Python function, no per-process
counters in symbol names), so one kernel gives one PTX text in every process: the GPU side
(validate's `numba` set) links the very same text and runs the same cubin.

numba passes an array as a struct, flattened into parameters: meminfo, parent, nitems,
itemsize, data, shape[ndim], strides[ndim] (bytes). memsim passes the numpy array as the data
pointer and the rest as int64 scalars, so the kernel sees the real array and the results come
back into it, as for CUDA C launches.
"""
from __future__ import annotations

import functools
import re
import warnings
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from pydantic import BaseModel, Field

from .compiler.nvrtc import SASS_PTX_MARKER, is_sass_ready_ptx
from .compiler.python_file import import_file
from .errors import CompileError, LaunchError
from .launch import SUPPORTED_DTYPES, ArgSpec, LaunchSpec, Value
from .report import KernelReport

CC = (9, 0)
# First line of every canonical PTX text (memsim.compiler.nvrtc.SASS_PTX_MARKER): how engine
# "auto" tells it from other PTX (it runs on the SASS engine: it targets the default arch).
MARKER = SASS_PTX_MARKER
_ENTRY = re.compile(r"\.entry\s+([\w$]+)")
_MANGLED = re.compile(r"_ZN\d+cudapy")
_DEBUG_STRING = re.compile(r"(\$L__info_string\d+:\n)((?:\.b8 [\d,]+\n)+)")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SHAPE = re.compile(r"\[\s*([0-9x* ]+)\s*\]")
_SHARED_ARRAY = re.compile(r"\b_cudapy_smem_\d+\b")
_COUNTER_TAG = re.compile(r"B\d+v\d+(?=B\d)")
_NVVM_RELEASE = re.compile(r"Cuda compilation tools, release [\d.]+, V([\d.]+)")


class ArgType(BaseModel):
    """What numba's signature needs of one argument: its element type and dimensions
    (0: a by-value scalar)."""

    dtype: str
    ndim: int = Field(0, ge=0)

    def numba_type(self) -> Any:
        from numba import types
        from numba.np.numpy_support import from_dtype

        scalar = types.boolean if self.dtype == "bool" else from_dtype(np.dtype(self.dtype))
        return types.Array(scalar, self.ndim, "C") if self.ndim else scalar


class NumbaKernel(BaseModel):
    """A kernel compiled for one signature: canonical PTX and where it came from."""

    name: str = Field(description="the PTX entry: the Python function's name")
    ptx: str
    signature: str = Field(description="numba's argument types, as numba prints them")
    source_file: str
    compiler: str = Field(description="numba and NVVM versions, for the report")


def is_numba_kernel(obj: object) -> bool:
    """A @cuda.jit dispatcher or a plain Python function (what simulate compiles with numba)."""
    return hasattr(obj, "py_func") or (callable(obj) and hasattr(obj, "__code__"))


def is_numba_ptx(text: str) -> bool:
    return is_sass_ready_ptx(text)


def numba_launch(kernel: Any, args: Sequence[Any]) -> tuple[NumbaKernel, list[Value]]:
    """`kernel` compiled for the types of `args` (numpy arrays, numpy or Python scalars), and the
    values to launch it with: numba's array ABI, each array passed as its own buffer (memsim
    writes the kernel's results back into it)."""
    args = list(args)
    compiled = compile_kernel(kernel, tuple(arg_type(p, v) for p, v in enumerate(args)))
    return compiled, [v for p, value in enumerate(args) for v in abi_values(p, value)]


def simulate_kernel(kernel, grid, block, args, extra, shared_mem: int, **kwargs) -> KernelReport:
    """memsim.simulate(kernel, grid, block, args[, shared_mem]) of a numba.cuda kernel (registered
    with memsim.engine.simulation.register_python_kernels): simulate's parameters shift by one,
    as there is no kernel name (`args=` by keyword lands in `extra`)."""
    from .engine.simulation import simulate

    if not is_numba_kernel(kernel):
        raise LaunchError(f"simulate takes CUDA C or PTX text, a file name, or a numba.cuda kernel; "
                          f"got a {type(kernel).__name__}")
    if args is None and extra is not None:
        args, extra = extra, None
    if args is None:
        raise LaunchError("simulate(kernel, grid, block, args): give the kernel's arguments")
    compiled, values = numba_launch(kernel, args)
    report = simulate(compiled.ptx, compiled.name, grid, block, values,
                      shared_mem if extra is None else extra, **kwargs)
    return report.model_copy(update={"nvrtc_version": compiled.compiler})


def arg_type(position: int, value: Any) -> ArgType:
    """The ArgType of a launch argument; LaunchError (one line) for what memsim cannot pass."""
    if isinstance(value, np.ndarray):
        _check_dtype(position, value.dtype)
        if value.ndim == 0 or not value.flags.c_contiguous:
            raise LaunchError(f"argument {position} is a {'0-d' if value.ndim == 0 else 'non-contiguous'} "
                              "array: memsim passes C-contiguous arrays (np.ascontiguousarray(...))")
        return ArgType(dtype=value.dtype.name, ndim=value.ndim)
    if isinstance(value, (bool, np.bool_)):
        return ArgType(dtype="bool")
    if isinstance(value, np.generic):
        _check_dtype(position, value.dtype)
        return ArgType(dtype=value.dtype.name)
    if isinstance(value, (int, float)):
        return ArgType(dtype="int64" if isinstance(value, int) else "float64")
    raise LaunchError(f"argument {position} is a {type(value).__name__}: memsim passes numpy arrays "
                      "and numpy or Python scalars (int, float, bool) to numba kernels")


def _check_dtype(position: int, dtype: np.dtype) -> None:
    if dtype.name not in SUPPORTED_DTYPES and dtype != np.bool_:
        raise LaunchError(f"argument {position} has dtype {dtype}: memsim passes "
                          f"{', '.join(sorted(SUPPORTED_DTYPES))} and bool")


def abi_values(position: int, value: Any) -> list[Value]:
    """The kernel parameters numba makes of one argument (see the module docstring)."""
    if isinstance(value, np.ndarray):
        return [np.int64(0), np.int64(0), np.int64(value.size), np.int64(value.itemsize), value,
                *(np.int64(n) for n in value.shape), *(np.int64(s) for s in value.strides)]
    if isinstance(value, (bool, np.bool_)):
        return [np.bool_(value)]
    if isinstance(value, np.generic):
        return [value]
    try:
        return [np.int64(value) if isinstance(value, int) else np.float64(value)]
    except OverflowError:
        raise LaunchError(f"argument {position}: {value} does not fit in int64") from None


def abi_arg_specs(texts: Sequence[str]) -> tuple[list[ArgSpec], list[ArgType]]:
    """(the kernel parameters as ArgSpecs, the argument types) of launch arguments written as
    memsim's --arg texts, where a buffer's count gives the array's shape: float32[64x32] is a
    64 x 32 C-contiguous array."""
    specs, kinds = [], []
    for text in texts:
        spec = ArgSpec.parse(text)
        if not spec.is_buffer:
            specs.append(spec)
            kinds.append(ArgType(dtype=spec.dtype))
            continue
        shape = [int(n) for n in re.split(r"[x*]", _SHAPE.search(text).group(1).replace(" ", ""))]
        itemsize = np.dtype(spec.dtype).itemsize
        strides = [itemsize * int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]
        scalars = [0, 0, spec.count, itemsize]
        specs += [ArgSpec(dtype="int64", value=str(v)) for v in scalars] + [spec]
        specs += [ArgSpec(dtype="int64", value=str(v)) for v in (*shape, *strides)]
        kinds.append(ArgType(dtype=spec.dtype, ndim=len(shape)))
    return specs, kinds


def numba_spec(path: str, kernel: str, grid, block, arg_texts: Sequence[str], shared_mem: int = 0,
               seed: int = 0) -> LaunchSpec:
    """The LaunchSpec of a launch of kernel `kernel` of the Python file `path`: its canonical
    PTX and its flattened parameters (abi_arg_specs). Any memsim command runs it."""
    specs, kinds = abi_arg_specs(arg_texts)
    compiled = compile_kernel(load_kernel(path, kernel), tuple(kinds))
    return LaunchSpec(source=compiled.ptx, kernel=compiled.name, grid=grid, block=block, args=specs,
                      shared_mem=shared_mem, seed=seed)


def load_kernel(path: str, name: str) -> Any:
    """The function `name` of the Python file `path` (imported as a module, as Python would)."""
    module = import_file(path, "memsim_numba")
    kernels = sorted(n for n, v in vars(module).items() if hasattr(v, "py_func"))
    found = getattr(module, name, None)
    if found is None or not is_numba_kernel(found):
        raise LaunchError(f"no kernel '{name}' in {path}: its @cuda.jit functions are "
                          f"{', '.join(kernels) or 'none'}")
    return found


def compile_kernel(kernel: Any, types: tuple[ArgType, ...]) -> NumbaKernel:
    """numba's PTX of `kernel` for the argument types, for sm_90 with line info, canonical."""
    pyfunc = getattr(kernel, "py_func", kernel)
    options = getattr(kernel, "targetoptions", {}) or {}
    return _compile(pyfunc, tuple(t.model_dump_json() for t in types),
                    bool(options.get("fastmath", False)), bool(options.get("opt", True)))


@functools.cache
def use_nvvm_wheel() -> bool:
    """Point numba.cuda at the NVVM of the nvidia-nvvm wheel memsim pins (13.0.88, NVRTC's
    release), as it looks only in conda, CUDA_HOME and /usr/local/cuda: a user with no CUDA
    toolkit compiles numba kernels too, and everyone with the same NVVM. False where the
    wheel is missing (numba then searches as it always does)."""
    import nvidia
    from numba.cuda import cuda_paths

    for root in map(Path, nvidia.__path__):
        library, libdevice = root / "cu13" / "lib" / "libnvvm.so.4", root / "cu13" / "nvvm" / "libdevice"
        bitcode = sorted(libdevice.glob("libdevice*.bc")) if libdevice.is_dir() else []
        if library.is_file() and bitcode:
            paths = dict(cuda_paths.get_cuda_paths())
            paths["nvvm"] = cuda_paths._env_path_tuple("nvidia-nvvm wheel", str(library))
            paths["libdevice"] = cuda_paths._env_path_tuple("nvidia-nvvm wheel", str(bitcode[-1]))
            cuda_paths.get_cuda_paths._cached_result = paths
            return True
    return False


@functools.lru_cache(maxsize=128)
def _compile(pyfunc, types_json: tuple[str, ...], fastmath: bool, opt: bool) -> NumbaKernel:
    import numba
    from numba import cuda

    use_nvvm_wheel()

    signature = tuple(ArgType.model_validate_json(t).numba_type() for t in types_json)
    try:
        with warnings.catch_warnings():   # lineinfo with opt: numba warns that it is not debug info
            warnings.simplefilter("ignore", numba.core.errors.NumbaDebugInfoWarning)
            ptx, _ = cuda.compile_ptx(pyfunc, signature, cc=CC, lineinfo=True, fastmath=fastmath, opt=opt)
    except Exception as exc:  # typing errors, unsupported features, NVVM missing
        raise CompileError(f"numba could not compile {pyfunc.__name__}{_signature_text(signature)}: "
                           f"{_numba_message(exc)}") from None
    name = pyfunc.__name__ if _IDENTIFIER.match(pyfunc.__name__) else ""
    release = _NVVM_RELEASE.search(ptx)
    return NumbaKernel(name=name or _ENTRY.search(ptx).group(1), ptx=canonical_ptx(ptx, name),
                       signature=_signature_text(signature), source_file=pyfunc.__code__.co_filename,
                       compiler=f"numba {numba.__version__}, NVVM {release.group(1) if release else '?'}")


def canonical_ptx(ptx: str, name: str) -> str:
    """numba's PTX with the kernel entry (and the globals named after it) called `name`, in the
    text and in the debug strings, and the marker line first. numba's mangled names and shared
    arrays (_cudapy_smem_7) carry counters that grow with each compile in a process; the
    canonical text numbers shared arrays within the kernel and has no counter."""
    entry = _ENTRY.search(ptx).group(1)
    renames = {}
    if name and _MANGLED.match(entry):
        tail = entry[_MANGLED.match(entry).end():]
        renames = {f"_ZN08NumbaEnv{tail}": f"{name}__env", entry: name}
    shared = {old: f"_cudapy_smem_k{i}" for i, old in enumerate(dict.fromkeys(_SHARED_ARRAY.findall(ptx)))}
    ptx = _SHARED_ARRAY.sub(lambda m: shared[m.group(0)], ptx)
    ptx = _DEBUG_STRING.sub(lambda m: m.group(1) + _b8(_renamed(_unb8(m.group(2)), renames)), ptx)
    return f"{MARKER} {name or entry}\n{_renamed(ptx, renames)}"


def _renamed(text: str, renames: dict[str, str]) -> str:
    """`text` with the renames done and numba's per-compile counter tags (B2v7) set to B2v0."""
    for old, new in renames.items():
        text = text.replace(old, new)
    return _COUNTER_TAG.sub("B2v0", text)


def _unb8(block: str) -> str:
    data = bytes(int(v) for line in block.split() if line != ".b8" for v in line.split(",") if v)
    return data.decode().rstrip("\0")


def _b8(text: str) -> str:
    data = text.encode() + b"\0"
    return "".join(".b8 " + ",".join(str(b) for b in data[i:i + 40]) + "\n" for i in range(0, len(data), 40))


def _signature_text(signature: tuple) -> str:
    return "(" + ", ".join(str(t) for t in signature) + ")"


def _numba_message(exc: Exception) -> str:
    """The informative line of a numba error (they run to many lines of context)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    useful = [line for line in lines if not line.startswith(("Failed in", "During:", "File ", "^"))]
    if not useful:
        return lines[0] if lines else type(exc).__name__
    first = useful[0]
    signature = next((line for line in useful[1:] if line.startswith(">>>")), "")
    return f"{first} {signature.lstrip('> ')}" if first.endswith(":") and signature else first


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""
