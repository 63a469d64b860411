"""How each family of catalog kernels is launched, and what it must compute.

A *plan* turns the user's geometry (nx, ny, block, element type) into the launch the seed
documents would make: grid, argument specs and the #defines the source needs. It rejects a
geometry the kernel cannot handle (the seed kernels have few bounds checks) with a CatalogError,
instead of launching something that reads out of bounds or leaves part of the output unwritten.

A *reference* maps the argument values as materialized (before the run) to the expected output
buffers, computed independently with numpy: {argument index: expected array}.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..errors import CatalogError
from ..gpus import default_profile
from ..launch import Value

# The default GPU's launch limits, from its profile (a launch on another GPU is checked against
# that GPU's own limits when it runs: memsim.engine.launch_limits)
_LIMITS = default_profile()
MAX_THREADS_PER_BLOCK = _LIMITS.occupancy.max_threads_per_block
MAX_BLOCK_DIMS = _LIMITS.limits.max_block_dims
MAX_GRID_DIMS = _LIMITS.limits.max_grid_dims
INT_INDEX_LIMIT = 2**31 - 1  # kernels that index with `int` overflow past this many elements
# Seed 002's add kernels have no bounds check; the reference pads every buffer by one warp.
VECTOR_PADDING = 32


@dataclass(frozen=True)
class Geometry:
    """The user's choice of problem size, block shape and element type."""

    nx: int
    ny: int
    block: tuple[int, int, int]
    dtype: np.dtype


@dataclass(frozen=True)
class Plan:
    """A launch as the seed documents make it, for one Geometry."""

    grid: tuple[int, int, int]
    args: list[str]
    defines: dict[str, int] = field(default_factory=dict)


Planner = Callable[[Geometry], Plan]
Reference = Callable[[list[Value]], dict[int, np.ndarray]]


def parse_block(block: str | tuple | list | int) -> tuple[int, int, int]:
    """'32,16' / '32x16' / (32, 16) / 256 -> (x, y, z); CatalogError for anything else."""
    if isinstance(block, (int, np.integer)):
        parts: list = [block]
    elif isinstance(block, str):
        parts = [p for p in re.split(r"[,x ]+", block.strip()) if p]
        if not parts or not all(p.isdigit() for p in parts):
            raise CatalogError(f"bad block '{block}': write 1 to 3 positive integers like 32,16")
    else:
        parts = list(block)
    dims = tuple(int(p) for p in parts)
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise CatalogError(f"bad block {block!r}: write 1 to 3 positive integers like 32,16")
    dims = dims + (1,) * (3 - len(dims))
    if math.prod(dims) > MAX_THREADS_PER_BLOCK or any(d > m for d, m in zip(dims, MAX_BLOCK_DIMS)):
        raise CatalogError(f"block {_text(dims)} is too large: at most {MAX_THREADS_PER_BLOCK} threads "
                           f"and {_text(MAX_BLOCK_DIMS)} per dimension")
    return dims


def _text(dims: tuple[int, ...]) -> str:
    return "x".join(str(d) for d in dims)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise CatalogError(message)


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _grid(*dims: int) -> tuple[int, int, int]:
    grid = tuple(dims) + (1,) * (3 - len(dims))
    _require(all(g <= m for g, m in zip(grid, MAX_GRID_DIMS)),
             f"grid {_text(grid)} exceeds the limit {_text(MAX_GRID_DIMS)}: use a larger block")
    return grid


def _block_2d(g: Geometry) -> tuple[int, int]:
    _require(g.block[2] == 1, f"needs a 2-D block, got {_text(g.block)}")
    return g.block[0], g.block[1]


def _block_1d(g: Geometry) -> int:
    _require(g.block[1] == 1 and g.block[2] == 1, f"needs a 1-D block like 256, got {_text(g.block)}")
    return g.block[0]


def _square(g: Geometry) -> int:
    _require(g.ny == g.nx, f"works on a square matrix: give nx only (got nx={g.nx}, ny={g.ny})")
    return g.nx


def _one_size(g: Geometry) -> int:
    _require(g.ny == g.nx, f"has one size: give nx only (got nx={g.nx}, ny={g.ny})")
    return g.nx


def _int_indexed(count: int) -> None:
    _require(count <= INT_INDEX_LIMIT, f"{count} elements overflow the kernel's int indices")


def _buffer(g: Geometry, count: int, init: str) -> str:
    return f"{g.dtype.name}[{count}]:{init}"


# ---- plans ---------------------------------------------------------------------------------

def plan_matrix(g: Geometry, unroll: int = 1, square_grid: bool = False) -> Plan:
    """Seed 001 copies and transposes: A (ny x nx) -> B, args (A, B, nx, ny)."""
    bx, by = _block_2d(g)
    _int_indexed(g.nx * g.ny)
    # The unrolled kernels check only the first of their four columns.
    _require(unroll == 1 or g.nx % (bx * unroll) == 0,
             f"needs nx divisible by block.x*{unroll} = {bx * unroll} (got nx={g.nx})")
    grid = _grid(_ceil(g.nx, bx * unroll), _ceil(g.ny, by))
    # The diagonal block order maps a grid onto itself only when it is square.
    _require(not square_grid or grid[0] == grid[1],
             f"needs a square grid of blocks: nx/block.x = {grid[0]} but ny/block.y = {grid[1]}")
    n = g.nx * g.ny
    return Plan(grid, [_buffer(g, n, "random"), _buffer(g, n, "zeros"), f"int32:{g.nx}", f"int32:{g.ny}"])


def plan_tile(g: Geometry) -> Plan:
    """Seed 004 square tile: a (m x m) -> c, args (a, c, m), TILE = block edge."""
    m = _square(g)
    bx, by = _block_2d(g)
    _require(bx == by, f"needs a square block (TILE x TILE), got {bx}x{by}")
    _require(m % bx == 0, f"needs nx divisible by the tile edge {bx} (got nx={m})")
    _int_indexed(m * m)
    return Plan(_grid(m // bx, m // by), [_buffer(g, m * m, "random"), _buffer(g, m * m, "zeros"),
                                         f"int32:{m}"], {"TILE": bx})


def plan_tile_rect(g: Geometry) -> Plan:
    """Seed 000 book version: in (ny x nx) -> out (nx x ny), args (out, in, nx, ny)."""
    bx, by = _block_2d(g)
    _require(g.nx % bx == 0 and g.ny % by == 0,
             f"needs nx divisible by block.x={bx} and ny by block.y={by} (got nx={g.nx}, ny={g.ny})")
    _require(g.nx * g.ny < 2**32, f"{g.nx * g.ny} elements overflow the kernel's unsigned indices")
    n = g.nx * g.ny
    return Plan(_grid(g.nx // bx, g.ny // by),
                [_buffer(g, n, "zeros"), _buffer(g, n, "random"), f"int32:{g.nx}", f"int32:{g.ny}"],
                {"BDIMX": bx, "BDIMY": by})


def plan_sums(g: Geometry) -> Plan:
    """Seed 003: A (ds x ds) -> sums (ds), args (A, sums, ds as size_t)."""
    ds = _square(g)
    bx = _block_1d(g)
    _int_indexed(ds)
    return Plan(_grid(_ceil(ds, bx)), [_buffer(g, ds * ds, "random"), _buffer(g, ds, "zeros"),
                                      f"uint64:{ds}"])


def plan_vector_add(g: Geometry) -> Plan:
    """Seed 002 add1/add2: nx threads, x, y, z of nx + 32 elements (no bounds check)."""
    n = _one_size(g)
    bx = _block_1d(g)
    _require(n % bx == 0, f"has no bounds check: needs nx divisible by block.x={bx} (got nx={n})")
    _int_indexed(n + VECTOR_PADDING)
    size = n + VECTOR_PADDING
    return Plan(_grid(n // bx), [_buffer(g, size, "random"), _buffer(g, size, "random"),
                                 _buffer(g, size, "zeros")])


def plan_matrix_add(g: Geometry, rows_by_x: bool) -> Plan:
    """Seed 002 addVec/addVec1: an nx x ny thread grid covers ad, bd, cd of nx*ny elements.

    WIDTH is the row length: ny when tidx picks the row (strided), nx when tidy does (coalesced);
    both are the seed's 1024 for its 1024 x 1024 matrices.
    """
    bx, by = _block_2d(g)
    _require(g.nx % bx == 0 and g.ny % by == 0,
             f"has no bounds check: needs nx divisible by block.x={bx} and ny by block.y={by}")
    _int_indexed(g.nx * g.ny)
    n = g.nx * g.ny
    return Plan(_grid(g.nx // bx, g.ny // by),
                [_buffer(g, n, "random"), _buffer(g, n, "random"), _buffer(g, n, "zeros")],
                {"WIDTH": g.ny if rows_by_x else g.nx})


def plan_matmul(g: Geometry, tiled: bool) -> Plan:
    """C = A * B, n x n, args (A, B, C, n); the tiled kernel needs a TILE x TILE block."""
    n = _square(g)
    bx, by = _block_2d(g)
    _int_indexed(n * n)
    defines = {}
    if tiled:
        _require(bx == by, f"needs a square block (TILE x TILE), got {bx}x{by}")
        _require(n % bx == 0, f"needs nx divisible by the tile edge {bx} (got nx={n})")
        defines = {"TILE": bx}
    args = [_buffer(g, n * n, "random"), _buffer(g, n * n, "random"), _buffer(g, n * n, "zeros"),
            f"int32:{n}"]
    return Plan(_grid(_ceil(n, bx), _ceil(n, by)), args, defines)


# ---- references ----------------------------------------------------------------------------

def copy_reference(values: list[Value]) -> dict[int, np.ndarray]:
    return {1: values[0].copy()}


def transpose_row_reference(values: list[Value]) -> dict[int, np.ndarray]:
    """B[ix*ny + iy] = A[iy*nx + ix]: B (nx x ny) is A (ny x nx) transposed."""
    a, _, nx, ny = values
    return {1: a.reshape(int(ny), int(nx)).T.ravel()}


def transpose_col_reference(values: list[Value]) -> dict[int, np.ndarray]:
    """B[iy*nx + ix] = A[ix*ny + iy]: B (ny x nx) is A read as (nx x ny), transposed."""
    a, _, nx, ny = values
    return {1: a.reshape(int(nx), int(ny)).T.ravel()}


def tile_reference(values: list[Value]) -> dict[int, np.ndarray]:
    a, _, m = values
    return {1: a.reshape(int(m), int(m)).T.ravel()}


def tile_rect_reference(values: list[Value]) -> dict[int, np.ndarray]:
    _, source, nx, ny = values
    return {0: source.reshape(int(ny), int(nx)).T.ravel()}


def _sequential_sum(columns) -> np.ndarray:
    """Adds in the kernel's order and precision, one step at a time, so floats agree exactly."""
    total = None
    for column in columns:
        total = column.copy() if total is None else total + column
    return total


def row_sums_reference(values: list[Value]) -> dict[int, np.ndarray]:
    a, _, ds = values
    matrix = a.reshape(int(ds), int(ds))
    return {1: _sequential_sum(matrix.T)}


def col_sums_reference(values: list[Value]) -> dict[int, np.ndarray]:
    a, _, ds = values
    return {1: _sequential_sum(a.reshape(int(ds), int(ds)))}


def vector_add_reference(offset: int) -> Reference:
    """z[n] = x[n] + y[n] for n in [offset, offset + threads); the rest of z stays as it was."""
    def reference(values: list[Value]) -> dict[int, np.ndarray]:
        x, y, z = values
        threads = x.size - VECTOR_PADDING
        expected = z.copy()
        span = slice(offset, offset + threads)
        expected[span] = x[span] + y[span]
        return {2: expected}
    return reference


def matrix_add_reference(values: list[Value]) -> dict[int, np.ndarray]:
    a, b, _ = values
    return {2: a + b}


def matmul_reference(values: list[Value]) -> dict[int, np.ndarray]:
    a, b, c, n = values
    n = int(n)
    wide = np.float64 if c.dtype.kind == "f" else np.int64
    product = a.reshape(n, n).astype(wide) @ b.reshape(n, n).astype(wide)
    return {2: product.ravel().astype(c.dtype)}
