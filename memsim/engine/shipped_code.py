"""Machine code shipped with memsim: the engines' and models' Numba functions compiled once, here,
so that a fresh install does not spend half a minute in LLVM before its first prediction.

Numba has no maintained ahead-of-time path for code like the engines (dispatchers calling
dispatchers), but its cache files are machine code keyed by what they depend on: Numba's
version, the Python version, the function's source file (a content hash) and bytecode, and the
target CPU. A bundle of those files (`shipped/<platform>.tar.xz`, with a manifest beside it) is
copied into Numba's cache directory before the first launch, where Numba itself checks each key.

Two things Numba does not check are checked here:
- a function's machine code holds the helpers of other modules inlined, so a bundle is used only
  when every source file of the engines and models equals those it was built from (a digest);
- the code must run on this CPU: the bundle is built for a CPU level (x86-64-v3: AVX2, FMA,
  BMI2, found on x86 machines since 2013-2015) and used only on a host that has every feature
  of that level. Numba is then told to compile for that level too, before it compiles anything,
  so that the keys agree (a process that compiled Numba code before importing memsim keeps the
  host's CPU and compiles as usual). Measured: the engines run as fast for x86-64-v3 as for the
  host's own CPU (benchmarks/README.md).

Anything else (another OS, CPU, Python or Numba; MEMSIM_SHIPPED_CODE=0; another NUMBA_CPU_NAME
set by the user) leaves Numba alone: it compiles on first use, as before. Rebuild the bundle after
changing any engine or model source (memsim.build_shipped_code says how).
"""
from __future__ import annotations

import functools
import importlib
import os
import platform
import sys
import tarfile
import tempfile
from pathlib import Path

from pydantic import BaseModel, Field

from .jit_cache import JIT_PACKAGES, PACKAGE, current_digest, sources_digest

SHIPPED = Path(__file__).resolve().parent / "shipped"
CPU_LEVEL = "x86-64-v3"
# LLVM's feature names of x86-64-v3 (v2's included): the host must have every one.
CPU_LEVEL_FEATURES = ("cx16", "sahf", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3",
                      "avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave")
SWITCH = "MEMSIM_SHIPPED_CODE"


class ShippedCodeManifest(BaseModel):
    """What a bundle was built from; it is used only where all of it holds."""
    platform: str = Field(description="bundle_platform() of the building machine")
    numba: str
    llvmlite: str
    cpu_name: str = Field(description="the CPU level Numba compiled for (NUMBA_CPU_NAME)")
    sources_digest: str = Field(description="memsim.engine.jit_cache.sources_digest() at the build")
    entries: dict[str, list[str]] = Field(
        description="per Numba function, keyed `module/index file`: its cache files, index first")


def bundle_platform() -> str:
    """OS, machine and Python of this process, as the bundle's file name spells them."""
    return f"{sys.platform}-{platform.machine().lower()}-py{sys.version_info[0]}{sys.version_info[1]}"


def bundle_paths(tag: str | None = None) -> tuple[Path, Path]:
    """(manifest, archive) of the bundle for this platform."""
    tag = tag or bundle_platform()
    return SHIPPED / f"{tag}.json", SHIPPED / f"{tag}.tar.xz"


def host_has_level(features: dict[str, bool]) -> bool:
    """Whether a CPU with LLVM's `features` runs code compiled for CPU_LEVEL."""
    return all(features.get(name, False) for name in CPU_LEVEL_FEATURES)


def load_manifest() -> ShippedCodeManifest | None:
    """This platform's manifest, if a bundle was built for it and Numba is the same release."""
    import llvmlite
    import numba

    manifest_path, archive = bundle_paths()
    if not (manifest_path.exists() and archive.exists()):
        return None
    manifest = ShippedCodeManifest.model_validate_json(manifest_path.read_text())
    if (manifest.numba, manifest.llvmlite) != (numba.__version__, llvmlite.__version__):
        return None
    return manifest


_selected: ShippedCodeManifest | None = None
_cpu_selected = False


def select_cpu() -> bool:
    """Before Numba compiles anything: where this platform's bundle applies, make Numba compile
    for its CPU level, so that the bundle's keys are this process's keys. True if selected.

    MEMSIM_SHIPPED_CODE=0 turns this off; =build selects the level with no bundle yet (for
    memsim.build_shipped_code). A user's own NUMBA_CPU_NAME is kept: the bundle then applies
    only if it names the bundle's level with no extra features (so worker processes, which
    inherit the variables set here, use it too)."""
    global _selected, _cpu_selected
    mode = os.environ.get(SWITCH, "1")
    manifest = None if mode in ("0", "build") else load_manifest()
    if mode == "0" or (manifest is None and mode != "build"):
        return False
    import llvmlite.binding as llvm
    from numba.core import config

    if not host_has_level(dict(llvm.get_host_cpu_features())):
        return False
    if "NUMBA_CPU_NAME" in os.environ:
        if (os.environ["NUMBA_CPU_NAME"], os.environ.get("NUMBA_CPU_FEATURES")) != (CPU_LEVEL, ""):
            return False
    elif not _numba_compiled_nothing():
        return False
    # The environment, not only numba.config: Numba re-reads its settings from NUMBA_* variables
    # when they change, and worker processes inherit them.
    os.environ["NUMBA_CPU_NAME"], os.environ["NUMBA_CPU_FEATURES"] = CPU_LEVEL, ""
    config.reload_config()
    _selected, _cpu_selected = manifest, True
    return True


def cpu_selected() -> bool:
    """Whether this process compiles for the shipped CPU level (select_cpu succeeded)."""
    return _cpu_selected


def _numba_compiled_nothing() -> bool:
    """Whether Numba's CPU target is still uncreated (its code generator reads the CPU once)."""
    from numba.core.registry import cpu_target

    return "_toplevel_target_context" not in vars(cpu_target)


_installed = False


def install() -> int:
    """Copy the bundle's cache files that Numba's cache directories lack (once per process,
    before the first launch). Returns how many functions' files were copied."""
    global _installed
    if _installed or _selected is None:
        return 0
    _installed = True
    if current_digest() != _selected.sources_digest:
        return 0   # an engine or model source changed since the build: compile as usual
    missing = {key: files for key, files in _selected.entries.items()
               if not Path(_cache_dir(key.split("/")[0]), files[0]).exists()}
    if not missing:
        return 0
    try:
        return _extract(missing)
    except OSError:
        return 0   # a read-only cache directory: Numba compiles, as it would without a bundle


@functools.lru_cache(maxsize=None)
def _cache_dir(module_name: str) -> str:
    """Where Numba keeps the cache of `module_name`'s functions (beside the source, or under
    NUMBA_CACHE_DIR): asked of one of its cached dispatchers."""
    return next(d._cache._cache_path for d in cached_dispatchers(importlib.import_module(module_name)))


def cached_dispatchers(module) -> list:
    """The module's own Numba dispatchers with cache=True."""
    from numba.core.caching import FunctionCache
    from numba.core.dispatcher import Dispatcher

    return [v for v in vars(module).values() if isinstance(v, Dispatcher)
            and v.__module__ == module.__name__ and isinstance(getattr(v, "_cache", None), FunctionCache)]


def _extract(missing: dict[str, list[str]]) -> int:
    """Write the cache files of the `missing` entries, reading the archive once, in order (an
    xz stream cannot seek: a lookup by name would decompress from the start each time)."""
    wanted = {f"{key.split('/')[0]}/{name}" for key, files in missing.items() for name in files}
    indexes = {f"{key.split('/')[0]}/{files[0]}" for key, files in missing.items()}
    held: list[tuple[Path, bytes]] = []
    _, archive = bundle_paths()
    with tarfile.open(archive, "r:xz") as bundle:
        for member in bundle:
            if member.name in wanted:
                module, name = member.name.split("/")
                target = Path(_cache_dir(module)) / name
                data = bundle.extractfile(member).read()
                if member.name in indexes:   # indexes last: a reader sees no index or a whole entry
                    held.append((target, data))
                else:
                    _write_atomically(target, data)
    for target, data in held:
        _write_atomically(target, data)
    return len(missing)


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.replace(temporary, path)


def jit_modules() -> list[str]:
    """The modules of the packages whose Numba code is shipped."""
    return [f"memsim.{d.replace('/', '.')}.{p.stem}" for d in JIT_PACKAGES
            for p in sorted((PACKAGE / d).glob("*.py")) if p.stem != "__init__"]


def cache_files(dispatcher) -> list[str]:
    """The names of the dispatcher's index file, then its data files, in its cache directory."""
    cache_file = dispatcher._cache._cache_file
    index = Path(cache_file._index_path)
    if not index.exists():
        return []
    stem = cache_file._index_name[:-len(".nbi")]
    return [index.name, *sorted(p.name for p in index.parent.glob(f"{stem}.*.nbc"))]
