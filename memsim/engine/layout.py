"""Where a kernel's parameters and variables live: what both engines lay out from the kernel's
PTX declarations (the ABI NVRTC, numba and a listing's stub signature all state there).

The PTX engine lowers the whole kernel on top of this layout (memsim.engine.ptx.program); the
SASS engine needs only the layout (its instructions come from the cubin): the parameter block
it packs into constant bank 0, the static and dynamic shared memory, and the module's .global
and .const variables the heap holds.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..stream import SP_PARAM, SP_LOCAL, SP_SHARED, SPACES
from .ptx.parser import Kernel, Module, Param, Variable, parse


@dataclass
class KernelLayout:
    kernel: str                                # the kernel's lowered name
    params: list[Param]                        # in order, with their offsets
    param_bytes: int
    shared_static: int                         # bytes of static shared memory
    shared_dynamic_offset: int                 # where extern shared arrays start
    local_bytes: int
    heap_variables: list[Variable]             # module .global/.const variables
    variable_addresses: dict[str, int]         # name -> address (global heap or shared/local offset)
    address_spaces: dict[str, int] = field(default_factory=dict)   # name -> SP_* code
    max_threads: int | None = None             # __launch_bounds__ (.maxntid); None: the GPU's limit
    block_shape: tuple[int, ...] | None = None  # .reqntid: the one block shape the kernel takes


def lay_out(module: Module, kernel: Kernel, heap_base: int = 0) -> KernelLayout:
    """Parameters at their declared offsets; shared and local variables packed in declaration
    order (aligned); .global/.const variables on the heap from `heap_base` (256-byte aligned);
    extern (dynamic) shared arrays after the static ones, 16-byte aligned."""
    addresses: dict[str, int] = {p.name: p.offset for p in kernel.params}
    spaces: dict[str, int] = {p.name: SP_PARAM for p in kernel.params}
    heap_variables: list[Variable] = []
    shared, local, heap = 0, 0, heap_base
    variables = list(kernel.variables) + list(module.variables)
    for var in variables:
        if var.space == "shared" and not var.extern:
            shared = _align(shared, var.align)
            addresses[var.name], shared = shared, shared + var.size
            spaces[var.name] = SP_SHARED
        elif var.space == "local":
            local = _align(local, var.align)
            addresses[var.name], local = local, local + var.size
            spaces[var.name] = SP_LOCAL
        elif var.space in ("global", "const"):
            heap = _align(heap, max(var.align, 256))
            addresses[var.name], heap = heap, heap + max(var.size, 1)
            spaces[var.name] = SPACES[var.space]
            heap_variables.append(var)
    dynamic = _align(shared, 16)
    for var in variables:
        if var.space == "shared" and var.extern:
            addresses[var.name] = _align(dynamic, max(var.align, 16))
            spaces[var.name] = SP_SHARED
    return KernelLayout(kernel=kernel.name, params=kernel.params, param_bytes=kernel.param_bytes,
                        shared_static=shared, shared_dynamic_offset=dynamic, local_bytes=local,
                        heap_variables=heap_variables, variable_addresses=addresses,
                        address_spaces=spaces, max_threads=kernel.max_threads, block_shape=kernel.block_shape)


def kernel_layout(ptx: str, kernel_name: str, heap_base: int = 0) -> KernelLayout:
    """The layout of kernel `kernel_name` (its lowered name) of a PTX module's text."""
    module = parse(ptx)
    return lay_out(module, module.entry(kernel_name), heap_base)


def _align(value: int, align: int) -> int:
    return (value + align - 1) // align * align
