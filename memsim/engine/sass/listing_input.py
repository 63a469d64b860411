"""A kernel given as SASS made elsewhere: an nvdisasm listing (`nvdisasm -c -g k.cubin > k.sass`)
or the .cubin itself, for machines where NVRTC cannot run (macOS).

The SASS engine needs, besides the instructions, the parameter layout and the shared-memory
size that it otherwise reads from the kernel's PTX. A listing has neither, so:
- parameters are laid out from the launch's arguments, as the CUDA ABI lays out the kernel's
  parameters when their types are those of the arguments (a buffer: a 64-bit pointer; a scalar:
  its numpy type), each aligned to its size; a struct passed by value cannot be described;
- shared memory: a .cubin records the kernel's static size (its `.nv.shared.<kernel>` section);
  a listing does not, so there --shared-mem is the kernel's whole shared memory (static plus
  dynamic);
- `__device__` variables and banks other than 0 (`__constant__` data, switch tables) come from
  a .cubin only.
Both become a PTX stub of the kernel's signature, so the parameters take the PTX path's layout.
The report's source is the file the kernel's line notes name (a Triton kernel's .py, a -lineinfo
cubin's .cu) where it can be read here.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict

from ...compiler.nvrtc import SASS_SUFFIXES, KernelModule
from ...errors import LaunchError
from ...launch import Value
from ...compiler.names import match_kernel, unknown_kernel
from ...compiler.shipped import ToolMissing
from .compile import disassemble
from .cubin import constant_banks, section_sizes
from .parser import parse



class ListingKernel(BaseModel):
    """What the SASS engine runs of a kernel given as SASS: its listing, a PTX stub of its
    signature (parameter layout, static shared size) and the cubin's constant banks."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    sass: str
    module: KernelModule
    banks: dict[int, bytes] = {}
    source_file: str = ""   # the file its line notes name, where readable here ("" otherwise)


def is_listing_file(source: str) -> bool:
    """A path to an nvdisasm listing (.sass) or a cubin, rather than CUDA C or PTX."""
    return "\n" not in source and source.strip().endswith(SASS_SUFFIXES)


def listing_kernel(source: str, kernel: str, args: list[Value]) -> ListingKernel:
    """The kernel `kernel` (lowered or demangled name) of a .sass or .cubin file."""
    path = Path(source)
    if not path.is_file():
        raise LaunchError(f"no such file: {source}")
    cubin = path.read_bytes() if path.suffix == ".cubin" else None
    sass = _disassemble(cubin, path.name) if cubin is not None else path.read_text()
    functions = parse(sass)
    entries = [name for name, k in functions.items() if k.is_kernel]
    found = match_kernel(kernel, entries)
    if found is None:
        raise unknown_kernel(kernel, entries)
    shared = section_sizes(cubin).get(f".nv.shared.{found}", 0) if cubin is not None else 0
    banks = constant_banks(cubin, found) if cubin is not None else {}
    module = KernelModule(ptx=stub_ptx(found, args, shared), kernel=found,
                          nvrtc_version=f"n/a (SASS given: {path.name})")
    noted = functions[found].source_file
    readable = noted if noted and Path(noted).is_file() else ""
    return ListingKernel(sass=sass, module=module, banks=banks, source_file=readable)


def stub_ptx(kernel: str, args: list[Value], shared_static: int = 0) -> str:
    """A PTX entry with the kernel's signature as the arguments describe it and its static
    shared memory, and no code: what memsim.engine.ptx supplies the SASS engine with."""
    params = ", ".join(f".param .{_param_type(value, k)} p{k}" for k, value in enumerate(args))
    shared = f"  .shared .align 16 .b8 memsim_static_shared[{shared_static}];\n" if shared_static else ""
    return (".version 8.0\n.target sm_90\n.address_size 64\n"
            f".visible .entry {kernel}({params})\n{{\n{shared}  ret;\n}}\n")


def _param_type(value: Value, position: int) -> str:
    if isinstance(value, np.ndarray):
        return "u64"
    if isinstance(value, np.generic) and value.dtype.itemsize in (1, 2, 4, 8):
        return f"b{8 * value.dtype.itemsize}"
    raise LaunchError(f"argument {position}: a SASS listing's parameters are described by numpy "
                      f"arrays and scalars, got {type(value).__name__}")


def _disassemble(cubin: bytes, name: str) -> str:
    """nvdisasm's listing of a user's cubin; where nvdisasm is missing, one line saying how to
    make the listing elsewhere."""
    try:
        return disassemble(cubin)
    except ToolMissing:
        raise ToolMissing(f"{name}: reading a .cubin needs nvdisasm, which cannot be loaded here (its "
                          f"wheel exists for Linux and Windows only): run `nvdisasm -c -g {name} > "
                          f"{Path(name).stem}.sass` where it exists and pass the .sass "
                          f"(--shared-mem then gives the kernel's whole shared memory)") from None
