"""Write (or --check) the compiled catalog modules memsim ships for machines without NVRTC.

    python -m memsim.catalog.build_compiled           # rewrite memsim/catalog/compiled/
    python -m memsim.catalog.build_compiled --check   # exit 1 if a module is stale or missing

Which sources: every text the catalog's own planners make (memsim.catalog.CatalogKernel.launch)
for each entry's element types, every power-of-two block of 32 to 1024 threads and every
power-of-two size from 16 to 16384 (the #defines some kernels take, TILE, BDIMX/BDIMY and WIDTH,
follow the block and size), plus the .cu files the tutorial runs (docs/examples/). Each is
compiled as the commands compile it: sm_90 (PTX, listing, constant banks: the SASS engine) and
sm_75 PTX with and without -dlcm=ca (the Pascal GPUs' PTX engine, memsim.model.pascal.compile_arch).
"""
from __future__ import annotations

import argparse
import itertools
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pydantic import BaseModel

from ..compiler import shipped
from ..compiler.nvrtc import compile_cuda, nvrtc_version
from ..errors import CatalogError
from ..gpus import DEFAULT_ARCH
from ..launch import DLCM_CA
from ..model.pascal import NVRTC_OLDEST_ARCH
from .entries import ENTRIES

SIZES = tuple(2**k for k in range(4, 15))
BLOCKS = tuple((bx, threads // bx, 1) for threads in (2**k for k in range(5, 11))
               for bx in (2**j for j in range(11)) if bx <= threads)
DOCS_EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SASS_ARCH = DEFAULT_ARCH


class Job(BaseModel):
    """One compile to ship: source text, its file name, architecture, options."""

    source: str
    source_name: str = "kernel.cu"
    arch: str = SASS_ARCH
    options: tuple[str, ...] = ()


def catalog_sources() -> list[str]:
    """Every distinct source text the catalog makes at the shipped geometries."""
    found: dict[str, None] = {}
    for entry, block, size in itertools.product(ENTRIES.values(), BLOCKS, SIZES):
        for dtype in entry.dtypes:
            try:
                found[entry.launch(size, size, block, dtype).source] = None
            except CatalogError:
                continue
    return list(found)


def jobs() -> list[Job]:
    """Every compile the store holds: the catalog's sources on both architectures, the
    tutorial's example files on sm_90."""
    sources = catalog_sources()
    out = [Job(source=s) for s in sources]
    out += [Job(source=s, arch=NVRTC_OLDEST_ARCH, options=o) for s in sources for o in ((), (DLCM_CA,))]
    if DOCS_EXAMPLES.is_dir():
        out += [Job(source=p.read_text(), source_name=p.name) for p in sorted(DOCS_EXAMPLES.glob("*.cu"))]
    return out


def build(job: Job) -> shipped.ShippedModule:
    """The module of one compile, as memsim.compiler.nvrtc and memsim.engine.sass.compile make it."""
    from ..engine.sass.compile import kernel_constant_banks, listing

    compiled = compile_cuda(job.source, job.arch, job.options, job.source_name)
    sass, banks = None, {}
    if job.arch == SASS_ARCH:
        sass = shipped.portable(listing(job.source, job.arch, job.options, job.source_name))
        for kernel in compiled.kernels:
            found = kernel_constant_banks(job.source, kernel, job.arch, job.options, job.source_name)
            if found:
                banks[kernel] = {bank: data.hex() for bank, data in found.items()}
    return shipped.ShippedModule(
        digest=shipped.digest(job.source, job.source_name, job.arch, job.options),
        source_name=job.source_name, arch=job.arch, options=job.options,
        nvrtc_version=compiled.nvrtc_version, ptx=shipped.portable(compiled.ptx),
        lowered_names=compiled.lowered_names, sass=sass, banks=banks)


def build_all(todo: list[Job], workers: int = 2) -> list[shipped.ShippedModule]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(build, todo, chunksize=8))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memsim.catalog.build_compiled",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped store, write nothing")
    parser.add_argument("--jobs", type=int, default=2, help="compiler processes (default 2)")
    args = parser.parse_args(argv)
    if nvrtc_version() != shipped.NVRTC_RELEASE:
        print(f"error: NVRTC {nvrtc_version()} is not the pinned {shipped.NVRTC_RELEASE}", file=sys.stderr)
        return 2
    made = build_all(jobs(), args.jobs)
    if args.check:
        stale = sorted({m.digest for m in made} ^ set(shipped.modules()))
        stale += [m.digest for m in made if shipped.modules().get(m.digest) != m]
        print(f"{len(stale)} stale or missing of {len(made)} shipped modules")
        return 1 if stale else 0
    shipped.write(shipped.STORE, made)
    print(f"wrote {len(made)} modules to {shipped.STORE} ({shipped.STORE.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
