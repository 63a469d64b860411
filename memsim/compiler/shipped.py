"""Compiled catalog kernels shipped with memsim, for machines where NVRTC or nvdisasm cannot run.

NVRTC and nvdisasm exist as wheels for Linux and Windows only, but the emulators run wherever
Numba does (a Mac). So the package carries, for every source text the catalog can make at its
precompiled geometries (memsim.catalog.build_compiled writes them), the PTX NVRTC makes and
nvdisasm's listing and the non-parameter constant banks of the sm_90 cubin. memsim.compiler.nvrtc and
memsim.engine.sass.compile answer from here only when their tool cannot be loaded; a source that is not
here gets one line saying what is missing and what works instead.

Each module is keyed by a digest of what decides the compiler's output: the source text, its
file name, the options, the architecture, the name expressions and NVRTC's release.
"""
from __future__ import annotations

import functools
import hashlib
import json
import lzma
import re
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel

from ..errors import CompileError

# The NVRTC release the shipped modules were made with (pyproject.toml pins it).
NVRTC_RELEASE = "13.0"
STORE = Path(__file__).parent.parent / "catalog" / "compiled" / "modules.jsonl.xz"
# Directories in `.file` / `//## File` notes depend on the machine that compiled: dropped.
_FILE_PATH = re.compile(r'((?:\.file\s+\d+\s+|//## File )")[^"]*/([^"/]*")')
WHAT_WORKS = ("without it memsim runs the catalog kernels (precompiled), .ptx files (--engine ptx) "
              "and SASS made elsewhere: an nvdisasm -c -g listing (.sass) or a .cubin")


class ToolMissing(CompileError):
    """A compiler memsim needs cannot be loaded on this machine (one line: what, why, instead)."""


class ShippedModule(BaseModel):
    """One compile's outputs: PTX for the arch's compute_XX, and for sm_90 the SASS listing and
    each kernel's constant banks other than 0 (bank -> hex bytes) from the cubin."""

    digest: str
    source_name: str
    arch: str
    options: tuple[str, ...]
    name_expressions: tuple[str, ...] = ()
    nvrtc_version: str
    ptx: str
    lowered_names: dict[str, str] = {}
    sass: str | None = None
    banks: dict[str, dict[int, str]] = {}


def digest(source: str, source_name: str, arch: str, options: Sequence[str],
           name_expressions: Sequence[str] = (), nvrtc_version: str = NVRTC_RELEASE) -> str:
    """The key of one compile; `arch` as sm_XX or compute_XX (one module holds both outputs)."""
    key = [source, source_name, arch.replace("compute_", "sm_"), list(options),
           list(name_expressions), nvrtc_version]
    return hashlib.sha256(json.dumps(key).encode()).hexdigest()[:32]


def portable(text: str) -> str:
    """Compiler output without the compiling machine's directories in its file notes."""
    return _FILE_PATH.sub(r"\1\2", text)


@functools.lru_cache(maxsize=1)
def modules() -> dict[str, ShippedModule]:
    """Every shipped module by digest (empty where the store is absent)."""
    if not STORE.is_file():
        return {}
    lines = lzma.decompress(STORE.read_bytes()).decode().splitlines()
    found = (ShippedModule.model_validate_json(line) for line in lines if line)
    return {module.digest: module for module in found}


def lookup(source: str, source_name: str, arch: str, options: Sequence[str],
           name_expressions: Sequence[str], missing: ToolMissing, need_sass: bool = False) -> ShippedModule:
    """The shipped module of this compile, else `missing` (raised) with what works instead."""
    found = modules().get(digest(source, source_name, arch, options, name_expressions))
    if found is None or (need_sass and found.sass is None):
        raise missing
    return found


def missing_tool(tool: str, why: str) -> ToolMissing:
    """The one-line error of a compile that needs `tool` where it cannot be loaded."""
    return ToolMissing(f"{tool} cannot be loaded here ({why}; its wheel exists for Linux and "
                       f"Windows only), so this source cannot be compiled; {WHAT_WORKS}")


def write(store: Path, found: list[ShippedModule]) -> None:
    """The store file: one JSON line per module, sorted by digest, xz-compressed (deterministic)."""
    lines = [module.model_dump_json() for module in sorted(found, key=lambda m: m.digest)]
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_bytes(lzma.compress("\n".join(lines).encode() + b"\n", preset=9 | lzma.PRESET_EXTREME))
