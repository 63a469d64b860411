"""Launch descriptions shared by the simulator, the GPU runner and the validator.

An argument is written as text so that a launch can be stored as JSON and rebuilt byte for byte
on another machine:

    float32[4096]              a buffer of 4096 float32, uniform random in [0, 1) (the default)
    float32[4096]:zeros        zeros | ones | random | arange | permutation | randint(LO,HI) | empty
    float32[64x64]:arange      a count may be written as a product
    int32[100]:file.npy        contents of a .npy file (count and dtype must agree)
    int32:4096  or  int32 4096 a by-value scalar
    tensormap:0:100x200:8x32   a TMA tensor map (CUtensorMap) over buffer argument 0: memsim.tensormap

Type names are numpy's (float32, int64, ...) or PTX's short forms (f32, s32, u64, ...).
`empty` is `cupy.empty`: bytes never written before the launch (memsim holds zeros there;
`memsim check --tool initcheck` reports a read of them). Random contents come from numpy's PCG64 seeded with (seed, argument position), so both sides of
a comparison see the same bytes.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Union

import numpy as np
from pydantic import BaseModel, Field, field_validator

from . import tensormap
from .errors import LaunchError

# ptxas' option to cache every global load in L1: NVRTC passes it on; memsim.model.pascal reads
# it from a launch's options.
DLCM_CA = "-Xptxas=-dlcm=ca"
DTYPE_ALIASES = {
    "f16": "float16", "f32": "float32", "f64": "float64",
    "s8": "int8", "s16": "int16", "s32": "int32", "s64": "int64",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "float": "float32", "double": "float64", "int": "int32",
    "size_t": "uint64",
}
SUPPORTED_DTYPES = {"float16", "float32", "float64", "int8", "int16", "int32", "int64",
                    "uint8", "uint16", "uint32", "uint64"}
INITIALIZERS = ("zeros", "ones", "random", "arange", "permutation", "empty", "randint")

_BUFFER = re.compile(r"^\s*(\w+)\s*\[\s*([0-9x* ]+)\s*\]\s*(?::\s*(.+?))?\s*$")
_SCALAR = re.compile(r"^\s*(\w+)\s*[: ]\s*(\S+)\s*$")

Value = Union[np.ndarray, np.generic]


def parse_dtype(name: str) -> np.dtype:
    """A numpy dtype from a numpy or PTX type name; LaunchError for anything else."""
    canonical = DTYPE_ALIASES.get(name.strip().lower(), name.strip().lower())
    if canonical not in SUPPORTED_DTYPES:
        raise LaunchError(f"unknown type '{name}': use one of {', '.join(sorted(SUPPORTED_DTYPES))}")
    return np.dtype(canonical)


def _count(text: str) -> int:
    count = 1
    for factor in re.split(r"[x*]", text.replace(" ", "")):
        if not factor.isdigit():
            raise LaunchError(f"bad buffer size '{text}': write a count like 4096 or 64x64")
        count *= int(factor)
    return count


class ArgSpec(BaseModel):
    """One kernel argument: a device buffer (count is not None) or a by-value scalar."""

    dtype: str
    count: int | None = None
    init: str = "random"
    value: str | None = None

    @classmethod
    def parse(cls, text: str) -> "ArgSpec":
        if text.strip().startswith("tensormap:"):
            tensormap.parse(text)   # validates the spelling
            return cls(dtype="tensormap", value=text.strip())
        buffer = _BUFFER.match(text)
        if buffer:
            dtype, count, init = buffer.groups()
            parse_dtype(dtype)
            spec = cls(dtype=parse_dtype(dtype).name, count=_count(count), init=(init or "random"))
            spec._check_init()
            return spec
        scalar = _SCALAR.match(text)
        if scalar:
            dtype, value = scalar.groups()
            spec = cls(dtype=parse_dtype(dtype).name, value=value)
            spec.scalar()  # validates the literal
            return spec
        raise LaunchError(
            f"bad argument '{text}': write TYPE[COUNT]:INIT for a buffer or TYPE:VALUE for a scalar")

    def _check_init(self) -> None:
        init = self.init
        if init in INITIALIZERS[:-1] or init.endswith(".npy"):
            return
        bounds = re.fullmatch(r"randint\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)", init)
        if bounds:
            low, high = (int(v) for v in bounds.groups())
            if low >= high:
                raise LaunchError(f"randint({low},{high}): LO must be below HI (values are drawn from "
                                  f"LO to HI-1)")
            return
        raise LaunchError(f"unknown initializer '{init}': use {', '.join(INITIALIZERS)} or a .npy file")

    @property
    def is_buffer(self) -> bool:
        return self.count is not None

    @property
    def nbytes(self) -> int:
        """Bytes of the buffer (0 for a scalar)."""
        return self.count * np.dtype(self.dtype).itemsize if self.is_buffer else 0

    def __str__(self) -> str:
        if self.is_buffer:
            return f"{self.dtype}[{self.count}]:{self.init}"
        if self.is_tensormap:
            return self.value
        return f"{self.dtype}:{self.value}"

    @property
    def is_tensormap(self) -> bool:
        return self.dtype == "tensormap"

    def tensor_map(self, args: list["ArgSpec"]) -> np.void:
        """A tensormap argument's value (memsim.tensormap) over the buffer it names in `args`."""
        arg, dims, box, swizzle = tensormap.parse(self.value)
        if arg >= len(args) or not args[arg].is_buffer:
            raise LaunchError(f"{self.value}: argument {arg} is not a buffer (count arguments from 0)")
        return tensormap.tiled(arg, dims, box, np.dtype(args[arg].dtype).itemsize, swizzle, args[arg].count)

    def scalar(self) -> np.generic:
        dtype = np.dtype(self.dtype)
        try:
            number = float(self.value) if dtype.kind == "f" else int(self.value, 0)
        except (TypeError, ValueError):
            raise LaunchError(f"bad {self.dtype} value '{self.value}'") from None
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            if not info.min <= number <= info.max:
                raise LaunchError(f"value {number} does not fit in {self.dtype}")
        return dtype.type(number)

    def buffer(self, rng: np.random.Generator) -> np.ndarray:
        dtype, n, init = np.dtype(self.dtype), self.count, self.init
        if init.endswith(".npy"):
            return _load_npy(init, dtype, n)
        if init in ("zeros", "empty"):   # empty: never written (initcheck); zeros keep runs repeatable
            return np.zeros(n, dtype)
        if init == "ones":
            return np.ones(n, dtype)
        if init == "arange":
            return np.arange(n).astype(dtype)
        if init == "permutation":
            return rng.permutation(n).astype(dtype)
        if init.startswith("randint"):
            lo, hi = (int(v) for v in init[init.index("(") + 1:-1].split(","))
            return rng.integers(lo, hi, n).astype(dtype)
        if dtype.kind == "f":
            return rng.random(n, dtype=np.float64 if dtype.itemsize == 8 else np.float32).astype(dtype)
        return rng.integers(0, 100, n).astype(dtype)


def _load_npy(path: str, dtype: np.dtype, count: int) -> np.ndarray:
    try:
        data = np.load(Path(path))
    except (OSError, ValueError) as exc:
        raise LaunchError(f"cannot read '{path}': {exc}") from None
    if data.dtype != dtype or data.size != count:
        raise LaunchError(f"'{path}' holds {data.dtype}[{data.size}], the argument says {dtype}[{count}]")
    return np.ascontiguousarray(data).reshape(-1)


def _dims(value) -> tuple[int, int, int]:
    if isinstance(value, (int, np.integer)):
        value = (int(value),)
    if isinstance(value, str):
        value = tuple(int(v) for v in re.split(r"[,x ]+", value.strip()) if v)
    value = tuple(int(v) for v in value)
    if not 1 <= len(value) <= 3 or any(v < 1 for v in value):
        raise LaunchError(f"bad launch dimensions {value}: give 1 to 3 positive integers")
    return value + (1,) * (3 - len(value))


class LaunchSpec(BaseModel):
    """Everything needed to run one kernel launch, on the simulator or on a GPU."""

    source: str = Field(description="CUDA C++ source text")
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    args: list[ArgSpec]
    shared_mem: int = 0
    options: tuple[str, ...] = ()
    seed: int = 0

    @field_validator("grid", "block", mode="before")
    @classmethod
    def _normalise_dims(cls, value):
        return _dims(value)

    @field_validator("args", mode="before")
    @classmethod
    def _parse_args(cls, value):
        return [ArgSpec.parse(v) if isinstance(v, str) else v for v in value]

    def materialize(self) -> list[Value]:
        """The argument values: fresh numpy buffers and scalars, identical on every machine."""
        values: list[Value] = []
        for position, arg in enumerate(self.args):
            if arg.is_buffer:
                try:
                    values.append(arg.buffer(np.random.default_rng([self.seed, position])))
                except MemoryError:
                    raise LaunchError(f"argument {position + 1} ({arg}): {arg.nbytes / 2**30:,.1f} GiB do "
                                      f"not fit in this machine's memory") from None
            elif arg.is_tensormap:
                values.append(arg.tensor_map(self.args))
            else:
                values.append(arg.scalar())
        return values


def dims(value) -> tuple[int, int, int]:
    """Normalise an int, a string '64,64' or a tuple of 1-3 ints to a 3-tuple."""
    return _dims(value)


def digest(values: list[Value]) -> str:
    """A short hash of argument contents, recorded with measurements to prove identical inputs."""
    h = hashlib.sha256()
    for v in values:
        h.update(np.ascontiguousarray(v).tobytes())
    return h.hexdigest()[:16]
