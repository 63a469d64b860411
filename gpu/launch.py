"""Run a LaunchSpec on the GPU exactly as the reference measurements were taken.

CuPy's RawModule with the NVRTC backend, `-std=c++17` plus the spec's options, and the device's
default architecture (sm_90 on an H100): the same compiler and flags as the simulator's front
end, so both run identical PTX. A PTX source (numba.cuda kernels, validate/numba_cases.py) is
linked into a cubin by memsim's own nvJitLink call, as the simulator links it, and the cubin is
loaded: the GPU runs the cubin memsim emulates. Inputs are the spec's materialized values copied
to the device; nothing random is generated on the GPU.
"""
from __future__ import annotations

import ctypes
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from memsim import tensormap
from memsim.compiler.nvrtc import load_source, toolkit_include_dirs
from memsim.compiler.names import is_expression, is_mangled
from memsim.launch import LaunchSpec, Value
from memsim.engine.sass.nvjitlink import link_ptx

from .errors import GPUUnavailable, one_line

COMPILE_OPTIONS = ("-std=c++17",)
# Above this, CUDA needs the kernel's dynamic shared-memory limit raised explicitly.
DEFAULT_DYNAMIC_SHARED_LIMIT = 48 * 1024


def require_cupy() -> Any:
    """The cupy module, checked to see a GPU; GPUUnavailable (one sentence) otherwise."""
    try:
        import cupy
    except ImportError:
        raise GPUUnavailable("CuPy is not installed: install cupy-cuda13x on a machine with an "
                             "NVIDIA GPU to measure on hardware") from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDARuntimeError when there is no driver
        raise GPUUnavailable(f"no usable CUDA GPU: {one_line(exc)}") from None
    if count < 1:
        raise GPUUnavailable("no CUDA GPU is visible to CuPy")
    return cupy


class DeviceLaunch:
    """One compiled kernel with its arguments resident on the device, ready to launch repeatedly."""

    def __init__(self, spec: LaunchSpec, inputs: list[Value] | None = None):
        cupy = require_cupy()
        self.spec = spec
        self.inputs = spec.materialize() if inputs is None else inputs
        self.function = _function(cupy, spec)
        if spec.shared_mem > DEFAULT_DYNAMIC_SHARED_LIMIT:
            self.function.max_dynamic_shared_size_bytes = spec.shared_mem
        # numpy scalars keep their dtype, so CuPy passes int32 as int32 (a Python int would be int64).
        self.args = [cupy.asarray(v) if isinstance(v, np.ndarray) else v for v in self.inputs]
        # a tensor map (memsim.tensormap) becomes the driver's own encoding over its buffer; CuPy
        # passes the 128 bytes (a numpy void scalar) by value
        self.args = [encode_tensor_map(v, self.args) if tensormap.is_map(v) else v for v in self.args]
        self._cupy = cupy

    def launch(self) -> None:
        """Queue one launch (asynchronous)."""
        self.function(self.spec.grid, self.spec.block, tuple(self.args),
                      shared_mem=self.spec.shared_mem)

    def synchronize(self) -> None:
        self._cupy.cuda.Device().synchronize()

    def values(self) -> list[Value]:
        """Every argument's current value: buffers copied back to numpy, scalars (and tensor maps,
        in memsim's layout) as given."""
        return [self._cupy.asnumpy(a) if isinstance(a, self._cupy.ndarray) else v for a, v in zip(self.args, self.inputs)]


def encode_tensor_map(value: np.void, args: list) -> np.void:
    """The driver's CUtensorMap (cuTensorMapEncodeTiled, through ctypes on libcuda) of a map
    in memsim's layout, over the device buffer it names: no interleave, no L2 promotion, zeros
    out of bounds."""
    f = tensormap.fields(value)
    buffer = args[f["arg"]]
    dims, box = f["dims"][::-1], f["box"][::-1]   # the driver's order: innermost first
    strides, step = [], f["itemsize"]
    for d in dims[:-1]:
        step *= d
        strides.append(step)
    rank = f["rank"]
    out = (ctypes.c_uint64 * 16)()
    encode = ctypes.CDLL("libcuda.so.1").cuTensorMapEncodeTiled
    status = encode(ctypes.byref(out), ctypes.c_int(tensormap.DRIVER_TYPES[buffer.dtype.name]), ctypes.c_uint32(rank),
                    ctypes.c_void_p(buffer.data.ptr), (ctypes.c_uint64 * rank)(*dims),
                    (ctypes.c_uint64 * max(rank - 1, 1))(*(strides or [0])), (ctypes.c_uint32 * rank)(*box),
                    (ctypes.c_uint32 * rank)(*([1] * rank)), ctypes.c_int(0), ctypes.c_int(f["swizzle"]),
                    ctypes.c_int(0), ctypes.c_int(0))
    if status != 0:
        raise GPUUnavailable(f"cuTensorMapEncodeTiled refused the map {f} (CUresult {status})")
    return np.frombuffer(bytes(out), dtype=tensormap.DTYPE)[0]


def _function(cupy: Any, spec: LaunchSpec) -> Any:
    """The spec's kernel. A C++ kernel named without extern "C" (`adamw_kernel1`, mangled
    `_Z13adamw_kernel1...`) is found through a name expression, as memsim.compiler.nvrtc's
    compile_for_kernel finds it; every other name is looked up as given."""
    try:
        return _module(cupy, spec).get_function(spec.kernel)
    except cupy.cuda.driver.CUDADriverError as exc:
        if load_source(spec.source)[2] or is_mangled(spec.kernel) or is_expression(spec.kernel) or "NOT_FOUND" not in str(exc):
            raise
        return _module(cupy, spec, (spec.kernel,)).get_function(spec.kernel)


def _module(cupy: Any, spec: LaunchSpec, expressions: tuple[str, ...] = ()) -> Any:
    """The RawModule of the spec's source: CUDA C through NVRTC, PTX as the cubin nvJitLink makes,
    a .cubin as it is (a Triton kernel's, validate/triton_cases.py)."""
    if spec.source.strip().endswith(".cubin") and "\n" not in spec.source:
        return cupy.RawModule(path=spec.source)
    text, _, is_ptx = load_source(spec.source)
    if is_ptx:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "kernel.cubin"
            path.write_bytes(link_ptx(text))
            module = cupy.RawModule(path=str(path))
            module.get_function(spec.kernel)   # loads the module while the file is there
            return module
    # A C++ name (`k_reduce<256>`) is found through NVRTC's name expressions, as in memsim.
    names = (spec.kernel,) if is_expression(spec.kernel) else expressions
    # The CUDA header wheels memsim compiles with, after CuPy's own include folder: an
    # environment's headers may lack parts (crt/mma.h, which <mma.h> includes) that they have.
    headers = tuple(f"--include-path={d}" for d in toolkit_include_dirs())
    return cupy.RawModule(code=text, backend="nvrtc", options=(*COMPILE_OPTIONS, *headers, *spec.options),
                          name_expressions=names or None)


def run_spec(spec: LaunchSpec) -> list[Value]:
    """Launch once on fresh inputs; the argument values afterwards (outputs included)."""
    device = DeviceLaunch(spec)
    device.launch()
    device.synchronize()
    return device.values()
