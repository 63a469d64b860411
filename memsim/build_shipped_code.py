"""Build the machine code memsim ships (memsim.engine.shipped_code) for this platform:

    MEMSIM_SHIPPED_CODE=build NUMBA_CACHE_DIR=$(mktemp -d) python -m memsim.build_shipped_code

Compiles the engines and models for the shipped CPU level in a fresh Numba cache, by running
the launches a new user runs first (`memsim predict transpose_naive`, on both engines, and the
tutorial's tiled matmul), then packs every cache file of memsim's Numba functions into
memsim/engine/shipped/<platform>.tar.xz with its manifest. Run it after changing any engine or
model source (tests/engine/test_shipped_code.py fails until then), and commit both files.
"""
from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys
import tarfile
from pathlib import Path

import llvmlite
import numba

from .gpus import DEFAULT_GPU
from .engine import shipped_code as shipped

# (catalog entry, options) of the launches compiled: each engine's first use, at small sizes.
# --gpu H100 runs the cache, DRAM and time models too.
TYPICAL_LAUNCHES = (("transpose_naive", ["--nx", "256"]), ("transpose_naive", ["--nx", "256", "--engine", "ptx"]),
                    ("matmul_smem", ["--nx", "128", "--gpu", DEFAULT_GPU]), ("row_sums", ["--nx", "512", "--gpu", DEFAULT_GPU]))


def run_typical_launches() -> None:
    from .cli import main as memsim_cli

    for name, options in TYPICAL_LAUNCHES:
        with contextlib.redirect_stdout(io.StringIO()):
            code = memsim_cli(["predict", name, *options])
        if code:
            raise SystemExit(f"build: memsim predict {name} {' '.join(options)} exited with {code}")


def build() -> Path:
    """Compile, pack and write this platform's bundle; the archive's path."""
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    # (importing memsim made Numba's cache folders there already: only cache files count)
    if not cache_dir or any(Path(cache_dir).rglob("*.nb[ic]")):
        raise SystemExit("build: set NUMBA_CACHE_DIR to an empty directory (a fresh Numba cache)")
    if not shipped.cpu_selected():
        raise SystemExit(f"build: run with MEMSIM_SHIPPED_CODE=build, on a machine with {shipped.CPU_LEVEL}")
    run_typical_launches()
    manifest = shipped.ShippedCodeManifest(
        platform=shipped.bundle_platform(), numba=numba.__version__, llvmlite=llvmlite.__version__,
        cpu_name=shipped.CPU_LEVEL, sources_digest=shipped.sources_digest(), entries={})
    manifest_path, archive = shipped.bundle_paths()
    archive.parent.mkdir(exist_ok=True)
    with tarfile.open(archive, "w:xz") as bundle:
        for module_name in shipped.jit_modules():
            for dispatcher in shipped.cached_dispatchers(importlib.import_module(module_name)):
                files = shipped.cache_files(dispatcher)
                if files:
                    manifest.entries[f"{module_name}/{files[0]}"] = files
                for name in files:
                    bundle.add(Path(dispatcher._cache._cache_path, name), f"{module_name}/{name}")
    manifest_path.write_text(manifest.model_dump_json(indent=1) + "\n")
    return archive


def main() -> int:
    archive = build()
    print(f"wrote {archive} ({archive.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
