"""A validation case (a launch, its tags and the counters known in advance) and what every case
builder shares: C element types, their widths and buffer arguments."""
from __future__ import annotations

import re

import numpy as np
from pydantic import BaseModel, Field, field_validator

from memsim.launch import LaunchSpec

NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.-]+$")

# C type -> (numpy dtype of the buffer, numpy elements per C element)
C_TYPES = {
    "char": ("int8", 1), "short": ("int16", 1), "int": ("int32", 1), "float": ("float32", 1),
    "double": ("float64", 1), "longlong": ("int64", 1), "float2": ("float32", 2),
    "float4": ("float32", 4), "int4": ("int32", 4),
}


class Case(BaseModel):
    """One validation launch: what to run, how to file it, and counters known in advance."""

    name: str = Field(description="unique, stable and usable as a file name")
    spec: LaunchSpec
    tags: list[str] = Field(default_factory=list)
    expect: dict[str, int] = Field(
        default_factory=dict, description="ncu metric -> value derived from first principles")

    @field_validator("name")
    @classmethod
    def _filename_safe(cls, value: str) -> str:
        if not NAME_PATTERN.match(value):
            raise ValueError(f"case name '{value}' must use only letters, digits, '_', '.', '-'")
        return value


def unmet_expectations(case: Case, metrics: dict[str, float]) -> dict[str, tuple[float | None, int]]:
    """metric -> (measured or simulated value, expected value), for each expectation not met."""
    return {k: (metrics.get(k), v) for k, v in case.expect.items() if metrics.get(k) != v}


def width_of(ctype: str) -> int:
    dtype, lanes = C_TYPES[ctype]
    return np.dtype(dtype).itemsize * lanes


def buffer_arg(ctype: str, count: int, init: str = "random") -> str:
    """ArgSpec text of a buffer of `count` C elements of `ctype`."""
    dtype, lanes = C_TYPES[ctype]
    return f"{dtype}[{count * lanes}]:{init}"
