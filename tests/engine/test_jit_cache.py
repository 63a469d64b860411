"""memsim.engine.jit_cache: engine helpers compile once per argument types, and stale cached code is
dropped wherever Numba keeps it."""
from types import ModuleType

import pytest
from numba import njit

from memsim.engine.jit_cache import compile_per_type


def _module_with_caller() -> ModuleType:
    """A fresh module whose jitted `caller` passes two different constants to `callee`."""
    module = ModuleType("jit_probe")

    @njit
    def callee(x, k):
        return x + k

    @njit
    def caller(x):
        return callee(x, 1) + callee(x, 2)

    callee.__module__ = caller.__module__ = module.__name__
    module.callee, module.caller = callee, caller
    return module


def test_numba_alone_compiles_a_callee_per_constant():
    """The behaviour the hook exists for (if Numba stops doing this, the hook can go)."""
    module = _module_with_caller()
    assert module.caller(1) == 5
    assert len(module.callee.signatures) == 2


def test_compile_per_type_compiles_the_callee_once():
    module = _module_with_caller()
    compile_per_type(module)
    assert module.caller(1) == 5
    assert len(module.callee.signatures) == 1


def test_the_sass_engine_is_hooked():
    from memsim.engine.sass import emulate, lanes

    assert "get_call_template" in vars(lanes.src_u32)
    assert "get_call_template" in vars(emulate._run_warp)


@pytest.mark.parametrize("user_cache_dir", [False, True])
def test_stale_machine_code_is_dropped_wherever_numba_keeps_it(tmp_path, monkeypatch, user_cache_dir):
    """A changed source drops the cached code beside the sources or under NUMBA_CACHE_DIR (where
    Numba's own check, which watches only each function's file, would keep it)."""
    from numba import config

    from memsim.engine import jit_cache

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "numba") if user_cache_dir else "")
    monkeypatch.setattr(jit_cache, "PACKAGE", tmp_path / "memsim")
    monkeypatch.setattr(jit_cache, "HERE", tmp_path / "memsim" / "engine")
    monkeypatch.setattr(jit_cache, "_checked", False)
    monkeypatch.setattr(jit_cache, "current_digest", lambda: "new sources")
    planted = [d / "f-1.py311.nbi" for d in jit_cache.cache_dirs()]
    for path in planted:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"old code")
    jit_cache.stamp_path().parent.mkdir(parents=True, exist_ok=True)
    jit_cache.stamp_path().write_text("old sources")
    jit_cache.drop_stale()
    assert not any(p.exists() for p in planted)
    assert jit_cache.stamp_path().read_text() == "new sources"
    assert (tmp_path / "numba" in jit_cache.stamp_path().parents) == user_cache_dir
