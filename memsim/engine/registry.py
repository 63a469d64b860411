"""The engines by name, and which one "auto" stands for.

    registry.choose(DEFAULT, source, arch)        # the Engine that runs it, instantiated once
    registry.get("sass")                          # an Engine (memsim.engine.interface)
    registry.resolve_engine("auto", source, arch)  # "sass" or "ptx"
    registry.default_name()                       # what DEFAULT stands for on CUDA C ("sass")

DEFAULT is the one default engine choice: memsim's API and CLI, validate and the benchmarks read
it (an engine is resolved once, where a launch enters, and the Engine object is passed down).

Adding an engine: implement memsim.engine.interface.Engine and list its class in `_classes`
(imported on first use: `import memsim` loads no emulator).
"""
from __future__ import annotations

from ..gpus import DEFAULT_ARCH
from ..compiler.nvrtc import SASS_SUFFIXES, is_sass_ready_ptx, load_source
from ..errors import LaunchError
from .interface import Engine

SASS, PTX = "sass", "ptx"
NAMES = (SASS, PTX)
CHOICES = ("auto", *NAMES)
DEFAULT = "auto"


def _classes() -> dict[str, type[Engine]]:
    from .ptx.engine import PtxEngine
    from .sass.engine import SassEngine

    return {engine.name: engine for engine in (SassEngine, PtxEngine)}


def get(name: str) -> Engine:
    """The engine `name` (not "auto": resolve_engine first)."""
    check_engine(name)
    if name == "auto":
        raise LaunchError("registry.get needs an engine's name: resolve 'auto' first")
    return _classes()[name]()


def choose(engine: str | Engine, source: str, arch: str = DEFAULT_ARCH) -> Engine:
    """The engine that runs `source` for `arch`: an Engine as given, else resolve_engine's pick,
    instantiated (once per launch: callers pass the Engine on)."""
    return engine if isinstance(engine, Engine) else get(resolve_engine(engine, source, arch))


def default_name(arch: str = DEFAULT_ARCH) -> str:
    """The engine DEFAULT stands for on CUDA C compiled for `arch` (what validate records and
    compares with, and whose reports the time model was fitted on)."""
    return SASS if _classes()[SASS].runs(arch) else PTX


def check_engine(engine: str) -> None:
    if engine not in CHOICES:
        raise LaunchError(f"unknown engine '{engine}': use {', '.join(CHOICES)}")


def resolve_engine(engine: str, source: str, arch: str = DEFAULT_ARCH) -> str:
    """The engine "auto" stands for: the SASS engine for CUDA C compiled for an architecture
    whose SASS it runs (SassEngine.runs: the GPU's own instructions) and numba.cuda's PTX (made
    for sm_90, linked by nvJitLink), the PTX engine for other PTX input and other architectures.
    A .sass listing or .cubin runs on the SASS engine only."""
    check_engine(engine)
    text, name, is_ptx = load_source(source)
    if source.strip().endswith(SASS_SUFFIXES):
        if engine == PTX or arch != DEFAULT_ARCH:
            raise LaunchError(f"{name} is sm_90 SASS: it runs on the SASS engine only (no --engine ptx, "
                              f"no other architecture)")
        return SASS
    if engine != "auto":
        return engine
    if is_ptx:
        return SASS if arch == DEFAULT_ARCH and is_sass_ready_ptx(text) else PTX
    return default_name(arch)
