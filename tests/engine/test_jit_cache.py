"""memsim.engine.jit_cache.compile_per_type: engine helpers compile once per argument types."""
from types import ModuleType

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
