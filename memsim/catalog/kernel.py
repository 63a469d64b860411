"""One catalog entry: a seed kernel with its source, default geometry, launch plan and reference."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import CatalogError
from ..launch import LaunchSpec, Value, parse_dtype
from .layouts import Geometry, Planner, Reference, parse_block

KERNEL_DIR = Path(__file__).parent / "kernels"
# The C spelling of each element type the catalog sources can be instantiated with (`T`).
C_TYPES = {"float32": "float", "float64": "double", "int32": "int"}


@lru_cache(maxsize=None)
def kernel_file(name: str) -> str:
    """Text of a catalog source file in memsim/catalog/kernels/."""
    return (KERNEL_DIR / name).read_text()


def instantiate(source_file: str, dtype: np.dtype, defines: dict[str, int]) -> str:
    """The full CUDA source: `typedef <C type> T;` and #defines prepended to the file's text."""
    header = [f"typedef {C_TYPES[dtype.name]} T;"]
    header += [f"#define {name} {value}" for name, value in defines.items()]
    return "\n".join(header) + "\n" + kernel_file(source_file)


def block_text(block: tuple[int, ...]) -> str:
    """(32, 16, 1) -> '32,16'; (256, 1, 1) -> '256' (the form --block takes)."""
    dims = list(block)
    while len(dims) > 1 and dims[-1] == 1:
        dims.pop()
    return ",".join(str(d) for d in dims)


# A dataclass, not a pydantic model: an entry is code (a planner and a reference function), never
# serialized; what it produces (LaunchSpec) is the pydantic model that travels.
@dataclass(frozen=True)
class CatalogKernel:
    name: str
    seed: str  # seed document id ("001"); empty for kernels not from a seed
    summary: str
    kernel: str
    source_file: str
    plan: Planner
    expect: Reference
    nx: int = 4096
    ny: int = 4096
    block: tuple[int, int, int] = (32, 32, 1)
    dtypes: tuple[str, ...] = ("float32", "float64", "int32")  # the first is the default
    rtol: float = 0.0  # for float32 outputs; scaled by machine epsilon for float64; ints exact

    @property
    def dtype(self) -> str:
        return self.dtypes[0]

    @property
    def default_geometry(self) -> str:
        size = f"nx={self.nx}" + (f" ny={self.ny}" if self.ny != self.nx else "")
        return f"{size} {self.dtype} block {block_text(self.block)}"

    def geometry(self, nx: int | None = None, ny: int | None = None, block=None,
                 dtype: str | np.dtype | None = None) -> Geometry:
        """The defaults filled in (ny follows nx when only nx is given) and the values checked."""
        if nx is None and ny is None:
            nx, ny = self.nx, self.ny
        nx = self.nx if nx is None else nx
        ny = nx if ny is None else ny
        if nx < 1 or ny < 1:
            raise CatalogError(f"{self.name}: sizes must be positive (got nx={nx}, ny={ny})")
        element = parse_dtype(dtype) if isinstance(dtype, str) else np.dtype(dtype or self.dtype)
        if element.name not in self.dtypes:
            raise CatalogError(f"{self.name} does not take {element.name}: use {', '.join(self.dtypes)}")
        return Geometry(int(nx), int(ny), parse_block(self.block if block is None else block), element)

    def launch(self, nx: int | None = None, ny: int | None = None, block=None,
               dtype: str | np.dtype | None = None) -> LaunchSpec:
        """The launch the seed document would make for this geometry (CatalogError if it cannot)."""
        g = self.geometry(nx, ny, block, dtype)
        try:
            plan = self.plan(g)
        except CatalogError as exc:
            raise CatalogError(f"{self.name}: {exc}") from None
        return LaunchSpec(source=instantiate(self.source_file, g.dtype, plan.defines),
                          kernel=self.kernel, grid=plan.grid, block=g.block, args=plan.args)

    def reference(self, values: list[Value]) -> dict[int, np.ndarray]:
        """Expected output buffers, {argument index: array}, from the values before the run."""
        return self.expect(values)

    def tolerance(self, dtype: str | np.dtype) -> float:
        """Relative tolerance of an output of this type: 0 (exact) for integers."""
        dtype = np.dtype(dtype)
        if dtype.kind != "f":
            return 0.0
        return self.rtol * float(np.finfo(dtype).eps / np.finfo(np.float32).eps)

    def check(self, before: list[Value], after: list[Value]) -> list[str]:
        """One line per output that differs from the reference; an empty list is a pass."""
        problems = []
        for index, expected in self.reference(before).items():
            problem = _compare(after[index], expected, self.tolerance(expected.dtype))
            if problem:
                problems.append(f"{self.name} argument {index}: {problem}")
        return problems


def _compare(actual: np.ndarray, expected: np.ndarray, rtol: float) -> str:
    if actual.shape != expected.shape:
        return f"shape {actual.shape}, expected {expected.shape}"
    if rtol:
        wrong = ~np.isclose(actual, expected, rtol=rtol, atol=0.0)
    else:
        wrong = actual != expected
    if not wrong.any():
        return ""
    first = int(np.flatnonzero(wrong)[0])
    return (f"{int(wrong.sum())} of {actual.size} elements differ (first at {first}: "
            f"got {actual[first]!r}, expected {expected[first]!r}, rtol {rtol:g})")
