"""The emulated device's memory: argument buffers in one global heap, and the kernel's params.

Buffers sit 4 KiB-aligned (cudaMalloc gives at least 256 B) with a guard gap between them, so
an access just past the end of an array is caught as out of bounds.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import tensormap
from ..errors import LaunchError
from .layout import KernelLayout

GLOBAL_BASE = 1 << 40    # the first buffer's device address (generic addresses above it are global)
# S2R SR_SWINHI: the high 32 bits of a generic address into the block's shared memory (the low
# 32 bits are the shared-window address LDS takes). Any value far from the heap's will do.
SHARED_WINDOW_HI = 0x7FFF
# Where bank 0 sits in the generic address space: its byte x at PARAM_WINDOW + x. Bank 0 holds
# the parameter block's address (PARAM_WINDOW + the ABI's param_base) at the ABI's
# param_address; a __grid_constant__ parameter's address is computed from it, and UTMALDG/UTMASTG
# read their tensor map there (memsim.engine.sass.ops_tma).
PARAM_WINDOW = 0x7E00 << 32
ALIGN = 4096
GUARD = 4096


def _views(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return raw, raw.view(np.uint16), raw.view(np.uint32), raw.view(np.uint64)


@dataclass
class BufferSlot:
    position: int          # argument position (-1 for a module variable)
    address: int
    nbytes: int
    writable: bool


class GlobalHeap:
    """One uint8 image of every device buffer, with a table of where each one lives."""

    def __init__(self, buffers: list[tuple[int, np.ndarray]]) -> None:
        self.slots: list[BufferSlot] = []
        cursor = 0
        for position, array in buffers:
            cursor = _round(cursor, ALIGN)
            self.slots.append(BufferSlot(position, GLOBAL_BASE + cursor, array.nbytes, True))
            cursor += array.nbytes + GUARD
        self.variables_base = GLOBAL_BASE + _round(cursor, ALIGN)
        self.size = _round(cursor, ALIGN)
        self._buffers = buffers

    def place_variables(self, layout: KernelLayout) -> None:
        """Module .global/.const variables, at the addresses the lowering gave them."""
        end = self.size
        for var in layout.heap_variables:
            address = layout.variable_addresses[var.name]
            self.slots.append(BufferSlot(-1, address, max(var.size, 1), var.space == "global"))
            end = max(end, address - GLOBAL_BASE + max(var.size, 1))
        self.size = _round(end + GUARD, ALIGN)

    def build(self, layout: KernelLayout, tail_bytes: int = 0) -> None:
        """The image: the heap, then `tail_bytes` for the other state spaces (an engine's own)."""
        self.raw = np.zeros(self.size + _round(tail_bytes, 16), dtype=np.uint8)
        for slot, (_, array) in zip(self.slots, self._buffers):
            start = slot.address - GLOBAL_BASE
            self.raw[start:start + array.nbytes] = array.reshape(-1).view(np.uint8)
        for var in layout.heap_variables:
            if var.init:
                start = layout.variable_addresses[var.name] - GLOBAL_BASE
                self.raw[start:start + len(var.init)] = np.frombuffer(var.init, np.uint8)
        self.views = _views(self.raw)
        self.lo = np.array([s.address for s in self.slots] or [0], dtype=np.int64)
        self.hi = np.array([s.address + s.nbytes for s in self.slots] or [0], dtype=np.int64)
        self.writable = np.array([int(s.writable) for s in self.slots] or [0], dtype=np.int64)

    def write_back(self) -> None:
        for slot, (_, array) in zip(self.slots, self._buffers):
            start = slot.address - GLOBAL_BASE
            array.reshape(-1).view(np.uint8)[:] = self.raw[start:start + array.nbytes]

    def describe(self, address: int) -> str:
        """Where an address lies relative to the buffers, for error messages."""
        best = None
        for slot in self.slots:
            end = slot.address + slot.nbytes
            if slot.address <= address < end:
                return f"inside argument {slot.position}"
            if address >= end:
                distance, text = address - end, f"{address - end} bytes past the end of"
            else:
                distance, text = slot.address - address, f"{slot.address - address} bytes before"
            if best is None or distance < best[0]:
                best = (distance, f"{text} argument {slot.position} ({slot.nbytes} bytes)")
        return best[1] if best else "no buffers"


def _round(value: int, align: int) -> int:
    return (value + align - 1) // align * align


def pack_params(layout: KernelLayout, args: list, heap: GlobalHeap) -> np.ndarray:
    """The kernel's parameter block: buffer addresses and scalar bytes at the declared offsets."""
    params = layout.params
    if len(args) != len(params):
        raise LaunchError(f"kernel {layout.kernel} takes {len(params)} arguments, got {len(args)}")
    block = np.zeros(_round(max(layout.param_bytes, 8), 8), dtype=np.uint8)
    addresses = {slot.position: slot.address for slot in heap.slots if slot.position >= 0}
    for position, (param, value) in enumerate(zip(params, args)):
        if isinstance(value, np.ndarray):
            if param.size != 8:
                raise LaunchError(f"argument {position} is an array, but parameter {position} of "
                                  f"{layout.kernel} is .{param.type} (not a pointer)")
            raw = np.array([addresses[position]], dtype=np.uint64).view(np.uint8)
        elif tensormap.is_map(value):   # its buffer's address, known now (memsim.tensormap)
            raw = _bound_map(value, addresses, position, param.size, layout.kernel)
        elif isinstance(value, np.generic):
            if value.dtype.itemsize != param.size:
                raise LaunchError(f"argument {position} is {value.dtype} ({value.dtype.itemsize} bytes), "
                                  f"but parameter {position} of {layout.kernel} is .{param.type} "
                                  f"({param.size} bytes)")
            _check_scalar_kind(value, param.type, position, layout.kernel)
            raw = np.array([value]).view(np.uint8)
        else:
            raise LaunchError(f"argument {position} is a Python {type(value).__name__}: pass numpy "
                              f"arrays for buffers and numpy scalars (np.int32(5)) for values")
        block[param.offset:param.offset + param.size] = raw
    return block


def _bound_map(value, addresses: dict[int, int], position: int, size: int, kernel: str) -> np.ndarray:
    arg = tensormap.fields(value)["arg"]
    if arg not in addresses:
        raise LaunchError(f"argument {position} is a tensor map over argument {arg}, which is not a buffer")
    if size != tensormap.SIZE:
        raise LaunchError(f"argument {position} is a tensor map (128 bytes), but parameter {position} of "
                          f"{kernel} has {size} bytes: declare it `const __grid_constant__ CUtensorMap`")
    return tensormap.bind(value, addresses[arg])


def _check_scalar_kind(value: np.generic, ptx_type: str, position: int, kernel: str) -> None:
    """A float for an integer parameter, or an integer for a float one, would reach the kernel as
    its bits (float32 1024.0 as the int 1149239296): refused. Signedness may differ (NVRTC declares
    an int parameter .u32) and a .b parameter takes any bits."""
    wants_float = ptx_type.startswith("f")
    if ptx_type.startswith("b") or wants_float == (value.dtype.kind == "f"):
        return
    kind = "a floating-point" if wants_float else "an integer"
    raise LaunchError(f"argument {position} is {value.dtype} {value}, but parameter {position} of {kernel} is "
                      f".{ptx_type} ({kind} type): pass a {'float' if wants_float else 'int'} scalar of "
                      f"{value.dtype.itemsize} bytes (e.g. {'float32:' if wants_float else 'int32:'}...)")


def split_args(args: list) -> list[tuple[int, np.ndarray]]:
    buffers = []
    for position, value in enumerate(args):
        if isinstance(value, np.ndarray):
            if not value.flags.c_contiguous:
                raise LaunchError(f"argument {position} is not C-contiguous: pass np.ascontiguousarray(...)")
            buffers.append((position, value))
    return buffers

