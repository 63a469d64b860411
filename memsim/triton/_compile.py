"""A @triton.jit kernel compiled for one launch's arguments, as Triton's own launcher does it.

Triton specializes a kernel on its arguments before compiling: a pointer's element type and
whether its address is a multiple of 16, an integer's width, whether it is a multiple of 16 and
whether it equals 1 (then a constant), constexprs by value. memsim runs Triton's own binder and
argument packing (JITFunction's, pinned release) on stand-ins for the arrays, whose addresses
are those memsim gives buffers (4 KiB-aligned; the GPU's allocators give 256 B or more, so
both get the same specialization), and compiles with triton.compile for sm_90: the cubin the
H100 runs for the same call. The launcher passes the kernel's parameters (constexprs left out)
and then two hidden pointers, global and profile scratch (null when the kernel needs none).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from ..errors import CompileError, LaunchError
from ._toolchain import require_triton, target

# The element type a Triton parameter type is passed as (the launcher's ty_to_cpp; floats are
# packed to their own width).
SCALAR_TYPES = {"i1": "int8", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
                "u1": "uint8", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
                "fp16": "float16", "fp32": "float32", "f32": "float32", "fp64": "float64"}
BUFFER_ALIGN = 4096   # memsim.engine.memory.ALIGN: where memsim places each buffer


class DevicePointer:
    """What Triton's binder sees of an array argument: its element type and a device address
    aligned as memsim places buffers."""

    def __init__(self, dtype: Any, position: int) -> None:
        self.dtype = dtype
        self.address = BUFFER_ALIGN * (position + 1)

    def data_ptr(self) -> int:
        return self.address


class TritonKernel(BaseModel):
    """One compile of a kernel: its cubin, how to launch it, and its parameters."""

    name: str = Field(description="the cubin's entry: the Python function's name")
    cubin_path: str
    num_warps: int
    num_stages: int
    num_ctas: int
    shared: int = Field(description="dynamic shared memory the launcher passes, bytes")
    param_names: list[str] = Field(description="the Python parameters passed to the kernel, in order")
    param_types: list[str] = Field(description="Triton's type of each (*fp32, i32, fp32, ...)")
    global_scratch_size: int
    profile_scratch_size: int
    source_file: str
    compiler: str


@functools.cache
def _binder(fn):
    from triton.compiler import make_backend
    from triton.runtime.jit import create_function_from_signature

    backend = make_backend(target())
    return backend, create_function_from_signature(fn.signature, fn.params, backend)


def bind(fn, args: tuple, kwargs: dict) -> tuple[dict, list, dict, Any]:
    """(bound arguments by name, Triton's specialization, options, backend) of a call of `fn`
    with `args`/`kwargs` (arrays already replaced by DevicePointers)."""
    from triton import knobs

    kwargs = dict(kwargs)
    kwargs["debug"] = kwargs.get("debug", fn.debug) or knobs.runtime.debug
    kwargs["instrumentation_mode"] = knobs.compilation.instrumentation_mode
    backend, binder = _binder(fn)
    try:
        bound, specialization, options = binder(*args, **kwargs)
    except TypeError as exc:
        raise LaunchError(str(exc).replace("dynamic_func()", f"{fn.__name__}()")) from None
    except Exception as exc:   # native_specialize_impl: an argument Triton cannot pass
        raise LaunchError(f"{fn.__name__}: Triton cannot pass an argument: {exc} (pass numpy arrays, "
                          f"torch CPU tensors, Python int/float/bool)") from None
    return bound, specialization, kwargs, backend


def compile_kernel(fn, args: tuple, kwargs: dict) -> tuple[TritonKernel, dict]:
    """`fn` (a triton JITFunction) compiled for a call with `args`/`kwargs`; and the call's
    bound arguments by parameter name (constexprs included, as a grid function reads them)."""
    triton = require_triton()
    bound, specialization, kwargs, backend = bind(fn, args, kwargs)
    try:
        options, signature, constexprs, attrs = fn._pack_args(backend, kwargs, bound, specialization, {})
    except KeyError as exc:
        raise LaunchError(f"{fn.__name__}: {exc.args[0]}") from None
    nested = [name for name, kind in signature.items() if not isinstance(kind, str) or kind.startswith("tensordesc")]
    if nested:
        raise LaunchError(f"{fn.__name__}: tuple and tensor-descriptor arguments ({', '.join(nested)}) "
                          "are not supported by memsim.triton yet")
    source = triton.compiler.ASTSource(fn, signature, constexprs, attrs)
    try:
        with cache_of(fn.fn.__code__.co_filename):
            compiled = triton.compile(source, target=target(), options=options.__dict__)
            cubin_path = _cubin_file(compiled)
    except Exception as exc:   # triton.compiler.errors.CompilationError and the backends' errors
        raise CompileError(f"Triton could not compile {fn.__name__}: {_first_line(exc)}") from None
    return describe(compiled, signature, fn.fn.__code__.co_filename, triton.__version__, cubin_path), bound


def describe(compiled, signature: dict, source_file: str, release: str, cubin_path: str | None = None) -> TritonKernel:
    """The TritonKernel of a triton.compile result: its launch as Triton's launcher makes it
    (the parameters that are not constexprs, in order)."""
    meta = compiled.metadata
    kept = [name for name, kind in signature.items() if kind != "constexpr"]
    return TritonKernel(
        name=meta.name, cubin_path=cubin_path or _cubin_file(compiled), num_warps=meta.num_warps,
        num_stages=meta.num_stages, num_ctas=meta.num_ctas, shared=meta.shared, param_names=kept,
        param_types=[signature[name] for name in kept], global_scratch_size=meta.global_scratch_size,
        profile_scratch_size=meta.profile_scratch_size, source_file=source_file,
        compiler=f"Triton {release} (sm_90 cubin {meta.hash[:12]})")


@contextlib.contextmanager
def cache_of(source_file: str):
    """Triton's cache keys a kernel by its source, not by the file it lives in, and the cached
    cubin's line notes name the file it was first compiled from: the same kernel in another
    checkout would report the other checkout's lines. So memsim keeps a Triton cache per source
    file (TRITON_CACHE_DIR, read by Triton at each compile)."""
    digest = hashlib.sha256(os.path.abspath(source_file).encode()).hexdigest()[:16]
    base = os.environ.get("TRITON_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".triton", "cache")
    before = os.environ.get("TRITON_CACHE_DIR")
    os.environ["TRITON_CACHE_DIR"] = os.path.join(base, "memsim", digest)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TRITON_CACHE_DIR", None)
        else:
            os.environ["TRITON_CACHE_DIR"] = before


def parameter_value(kind: str, value: Any, name: str) -> Any:
    """A by-value parameter as memsim passes it: the numpy scalar of Triton's type."""
    if kind not in SCALAR_TYPES:
        raise LaunchError(f"parameter {name}: Triton type {kind} is not supported by memsim.triton yet")
    dtype = np.dtype(SCALAR_TYPES[kind])
    try:
        return dtype.type(value)
    except (OverflowError, TypeError, ValueError):
        raise LaunchError(f"parameter {name}: {value!r} is not a {kind}") from None


def hidden_parameters(kernel: TritonKernel, blocks: int) -> list:
    """The global and profile scratch pointers the launcher appends: a zeroed buffer of
    size x blocks where the kernel asks for one, else null."""
    return [np.zeros(size * blocks * kernel.num_ctas, np.uint8) if size else np.uint64(0)
            for size in (kernel.global_scratch_size, kernel.profile_scratch_size)]


def _cubin_file(compiled) -> str:
    """The cubin's path: in Triton's cache where it keeps one, else in memsim's temp folder."""
    from triton.runtime.cache import get_cache_manager

    name = f"{compiled.metadata.name}.cubin"
    found = get_cache_manager(compiled.hash).get_file(name)
    if found and Path(found).is_file():
        return found
    folder = Path(tempfile.gettempdir()) / "memsim-triton" / compiled.hash
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(compiled.asm["cubin"])
    return str(path)


def _first_line(exc: Exception) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__
