"""TMA tensor maps (CUtensorMap) as kernel arguments, in memsim's own 128-byte layout.

A kernel takes a map as `const __grid_constant__ CUtensorMap map`: 128 bytes, 64-byte aligned,
that its SASS only hands to UTMALDG/UTMASTG by address (c[0x0][0x198], the parameter block's
address, plus the parameter's offset). The hardware's layout is not documented, so memsim fills
the bytes with its own (memsim.engine.sass.ops_tma reads it); the GPU side encodes the same map
with the driver's cuTensorMapEncodeTiled (gpu/launch.py).

On the command line (and in a LaunchSpec), a map over buffer argument ARG (0-based) is

    tensormap:ARG:DIMS:BOX[:swizzle128]     e.g.  --arg float32[20000]:random --arg tensormap:0:100x200:8x32

DIMS and BOX are written outermost first, as numpy shapes (rows x columns); the element type is
the buffer's. Out-of-bounds box elements read as zeros and are not written, as on the GPU.
From Python: `memsim.tensormap.tiled(arg, dims, box, itemsize)` gives the value to pass.

Layout (little-endian): 0 u64 global address (written at launch from argument ARG's address),
8 u32 magic 'MSTM', 12 u32 ARG, 16 u32 rank, 20 u32 element bytes, 24 u32 swizzle (0 none,
3 128-byte), 32 u64 dims[5] innermost first, 72 u64 byte strides of dims 1..4, 104 u32 box[5]
innermost first.
"""
from __future__ import annotations

import re

import numpy as np

from .errors import LaunchError

SIZE = 128
MAGIC = 0x4D54534D
DTYPE = np.dtype("V128")
SWIZZLES = {"": 0, "swizzle128": 3}
# cuTensorMapEncodeTiled's element codes (CUtensorMapDataType) by numpy dtype
DRIVER_TYPES = {"uint8": 0, "int8": 0, "uint16": 1, "int16": 1, "float16": 6, "uint32": 2, "int32": 3,
                "float32": 7, "uint64": 4, "int64": 5, "float64": 8}
_SPELLING = re.compile(r"^tensormap:(\d+):([0-9x]+):([0-9x]+)(?::(\w+))?$")
O_ADDRESS, O_MAGIC, O_ARG, O_RANK, O_ELEMENT, O_SWIZZLE, O_DIMS, O_STRIDES, O_BOX = 0, 8, 12, 16, 20, 24, 32, 72, 104


def _shape(text: str, what: str) -> tuple[int, ...]:
    values = tuple(int(v) for v in text.split("x") if v)
    if not 1 <= len(values) <= 5 or any(v < 1 for v in values):
        raise LaunchError(f"bad tensor map {what} '{text}': write 1 to 5 positive sizes, outermost first (100x200)")
    return values


def parse(text: str) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    """(buffer argument, dims, box, swizzle) of `tensormap:ARG:DIMS:BOX[:swizzle128]`."""
    found = _SPELLING.match(text.strip())
    if not found:
        raise LaunchError(f"bad tensor map '{text}': write tensormap:ARG:DIMS:BOX[:swizzle128] "
                          "(ARG the buffer's argument position, DIMS and BOX like 100x200 and 8x32)")
    arg, dims, box, swizzle = found.groups()
    if (swizzle or "") not in SWIZZLES:
        raise LaunchError(f"unknown tensor map option '{swizzle}': use swizzle128 or nothing")
    dims, box = _shape(dims, "dims"), _shape(box, "box")
    if len(dims) != len(box):
        raise LaunchError(f"tensor map '{text}': the box has {len(box)} sizes, the dims {len(dims)}")
    if any(b > 256 for b in box):
        raise LaunchError(f"tensor map '{text}': each box size is at most 256")
    return int(arg), dims, box, SWIZZLES[swizzle or ""]


def tiled(arg: int, dims, box, itemsize: int, swizzle: int = 0, count: int | None = None) -> np.void:
    """The map's value (what a kernel argument holds) over buffer argument `arg` of `count`
    elements of `itemsize` bytes; the rules are cuTensorMapEncodeTiled's."""
    dims, box = tuple(int(v) for v in dims), tuple(int(v) for v in box)
    _check(dims, box, itemsize, swizzle, count)
    inner_first_dims, inner_first_box = dims[::-1], box[::-1]
    strides, step = [], itemsize
    for d in inner_first_dims[:-1]:
        step *= d
        strides.append(step)
    raw = np.zeros(SIZE, np.uint8)
    words = raw.view(np.uint32)
    words[O_MAGIC // 4], words[O_ARG // 4], words[O_RANK // 4] = MAGIC, arg, len(dims)
    words[O_ELEMENT // 4], words[O_SWIZZLE // 4] = itemsize, swizzle
    raw[O_DIMS:O_DIMS + 8 * len(dims)] = np.array(inner_first_dims, np.uint64).view(np.uint8)
    if strides:
        raw[O_STRIDES:O_STRIDES + 8 * len(strides)] = np.array(strides, np.uint64).view(np.uint8)
    raw[O_BOX:O_BOX + 4 * len(box)] = np.array(inner_first_box, np.uint32).view(np.uint8)
    return raw.view(DTYPE)[0]


def _check(dims, box, itemsize: int, swizzle: int, count: int | None) -> None:
    if len(dims) != len(box) or not 1 <= len(dims) <= 5:
        raise LaunchError(f"a tensor map needs 1 to 5 dims and as many box sizes, not {dims} and {box}")
    if itemsize not in (1, 2, 4, 8):
        raise LaunchError(f"a tensor map's elements are 1, 2, 4 or 8 bytes, not {itemsize}")
    if any(b > 256 for b in box):
        raise LaunchError(f"tensor map box {box}: each size is at most 256")
    if box[-1] * itemsize % 16:
        raise LaunchError(f"tensor map box {box}: its innermost size must span a multiple of 16 bytes")
    if len(dims) > 1 and dims[-1] * itemsize % 16:
        raise LaunchError(f"tensor map dims {dims}: a row ({dims[-1]} elements) must span a multiple of 16 bytes")
    if swizzle == 3 and box[-1] * itemsize > 128:
        raise LaunchError(f"tensor map box {box}: swizzle128 needs an innermost size of at most 128 bytes")
    if count is not None and int(np.prod(dims)) > count:
        raise LaunchError(f"tensor map dims {dims} hold {int(np.prod(dims))} elements; the buffer has {count}")


def is_map(value) -> bool:
    """A tensor map made by `tiled` (a kernel argument that is neither buffer nor number)."""
    return isinstance(value, np.void) and value.dtype == DTYPE and _word(value, O_MAGIC) == MAGIC


def _word(value: np.void, offset: int) -> int:
    return int(np.frombuffer(value.tobytes(), np.uint32)[offset // 4])


def fields(value: np.void) -> dict:
    """The map's fields: arg, rank, itemsize, swizzle, dims and box (outermost first)."""
    raw = np.frombuffer(value.tobytes(), np.uint8)
    rank = _word(value, O_RANK)
    dims = raw[O_DIMS:O_DIMS + 8 * rank].view(np.uint64)[::-1]
    box = raw[O_BOX:O_BOX + 4 * rank].view(np.uint32)[::-1]
    return {"arg": _word(value, O_ARG), "rank": rank, "itemsize": _word(value, O_ELEMENT),
            "swizzle": _word(value, O_SWIZZLE), "dims": tuple(int(v) for v in dims),
            "box": tuple(int(v) for v in box)}


def bind(value: np.void, address: int) -> np.ndarray:
    """The map's 128 bytes with the global address of its buffer filled in (at launch)."""
    raw = np.frombuffer(value.tobytes(), np.uint8).copy()
    raw[O_ADDRESS:O_ADDRESS + 8] = np.array([address], np.uint64).view(np.uint8)
    return raw
