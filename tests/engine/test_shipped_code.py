"""memsim.engine.shipped_code: the machine code shipped for the engines and models is current,
is used only where it is valid, and makes a fresh process compile nothing."""
import json
import os
import subprocess
import sys
from pathlib import Path

import llvmlite
import numba
import pytest

from memsim.engine import shipped_code as shipped

MANIFEST, ARCHIVE = shipped.bundle_paths()
HAS_BUNDLE = MANIFEST.exists() and ARCHIVE.exists()
needs_bundle = pytest.mark.skipif(not HAS_BUNDLE, reason=f"no shipped code for {shipped.bundle_platform()}")
REBUILD = ("rebuild it: MEMSIM_SHIPPED_CODE=build NUMBA_CACHE_DIR=$(mktemp -d) "
           "python -m memsim.build_shipped_code, and commit memsim/engine/shipped/")


@needs_bundle
def test_the_shipped_code_was_built_from_these_sources():
    manifest = shipped.ShippedCodeManifest.model_validate_json(MANIFEST.read_text())
    assert manifest.sources_digest == shipped.sources_digest(), f"the shipped code is stale: {REBUILD}"
    assert (manifest.numba, manifest.llvmlite) == (numba.__version__, llvmlite.__version__), \
        f"the shipped code is for another Numba: {REBUILD}"


@needs_bundle
def test_the_manifest_lists_what_the_archive_holds():
    import tarfile

    manifest = shipped.ShippedCodeManifest.model_validate_json(MANIFEST.read_text())
    with tarfile.open(ARCHIVE, "r:xz") as bundle:
        names = set(bundle.getnames())
    listed = {f"{key.split('/')[0]}/{name}" for key, files in manifest.entries.items() for name in files}
    assert listed == names
    modules = {key.split("/")[0] for key in manifest.entries}
    assert {"memsim.engine.sass.emulate", "memsim.engine.ptx.emulate", "memsim.model.cache.passes"} <= modules


FRESH_PROCESS = """
import importlib, json, numpy as np, memsim
from memsim.engine import shipped_code as shipped
src = 'extern "C" __global__ void k(float* o, const float* a, int n)' \
      '{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i * 2 % n] = a[i] * 2.0f; }'
r = memsim.simulate(src, "k", 4, 128, [np.zeros(512, np.float32), np.ones(512, np.float32), np.int32(512)])
compiled = [f"{m}.{d.py_func.__name__}" for m in shipped.jit_modules()
            for d in shipped.cached_dispatchers(importlib.import_module(m)) if d.stats.cache_misses]
print(json.dumps({"selected": shipped.cpu_selected(), "compiled": compiled,
                  "sectors": r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]}))
"""


def _fresh_process(tmp_path: Path, **env: str) -> dict:
    """Run FRESH_PROCESS with an empty Numba cache; its JSON line."""
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CPU")}
    environ.update(NUMBA_CACHE_DIR=str(cache), **env)
    done = subprocess.run([sys.executable, "-c", FRESH_PROCESS], env=environ, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@needs_bundle
@pytest.mark.skipif(not shipped.host_has_level(dict(__import__("llvmlite.binding").binding.get_host_cpu_features())),
                    reason=f"this CPU lacks {shipped.CPU_LEVEL}: the shipped code does not apply")
def test_a_fresh_process_compiles_nothing(tmp_path):
    """An empty Numba cache (a fresh install) gets the shipped code: the first launch compiles
    no Numba function of the engines."""
    if shipped.ShippedCodeManifest.model_validate_json(MANIFEST.read_text()).sources_digest != shipped.sources_digest():
        pytest.fail(f"the shipped code is stale: {REBUILD}")
    result = _fresh_process(tmp_path)
    assert result["selected"] and result["compiled"] == []
    assert result["sectors"] == 16 * 8   # 16 warps, each storing 32 floats 8 bytes apart: 8 sectors


def test_turned_off_it_leaves_numba_alone():
    environ = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CPU")}
    probe = ("import os, memsim; from memsim.engine import shipped_code as s; from numba.core import config; "
             "print(s.cpu_selected(), os.environ.get('NUMBA_CPU_NAME'), config.CPU_NAME)")
    done = subprocess.run([sys.executable, "-c", probe], env=dict(environ, MEMSIM_SHIPPED_CODE="0"),
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "None", "None"], done.stderr[-2000:]


@pytest.mark.parametrize("missing, runs", [((), True), (("avx2",), False), (("bmi2", "fma"), False),
                                           (("sse4.2",), False)])
def test_the_cpu_level_needs_every_feature(missing, runs):
    features = {name: name not in missing for name in shipped.CPU_LEVEL_FEATURES}
    assert shipped.host_has_level(features) is runs


def test_a_stale_bundle_is_not_installed(monkeypatch):
    """When a source differs from those the bundle was built from, nothing is copied: the
    inlined helpers of the shipped code would be the old ones."""
    manifest = shipped.ShippedCodeManifest(platform="p", numba="n", llvmlite="l", cpu_name="c",
                                           sources_digest="0" * 64, entries={"memsim.engine.count/x.nbi": ["x.nbi"]})
    monkeypatch.setattr(shipped, "_selected", manifest)
    monkeypatch.setattr(shipped, "_installed", False)
    monkeypatch.setattr(shipped, "_extract", lambda missing: pytest.fail("a stale bundle was extracted"))
    assert shipped.install() == 0


def test_the_digest_follows_every_engine_and_model_source(tmp_path, monkeypatch):
    from memsim.engine import jit_cache

    sources = [tmp_path / folder / "a.py" for folder in jit_cache.JIT_PACKAGES]
    sources += [tmp_path / name for name in jit_cache.JIT_EXTRA_SOURCES]
    for path in sources:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n")
    monkeypatch.setattr(jit_cache, "PACKAGE", tmp_path)
    before = jit_cache.sources_digest()
    for path in sources:
        path.write_text("x = 2\n")
        after = jit_cache.sources_digest()
        assert after != before, path
        before = after
