"""Bad input gets one clear line naming what is wrong, never a traceback or a wrong number: on
every engine (the `each_engine` fixture) where the mistake is the launch's, on the engine that
meets it where it is one engine's limit (half precision on the PTX engine, mbarrier on the SASS one)."""
import re
from pathlib import Path

import numpy as np
import pytest

import memsim
from memsim.errors import (BudgetExceeded, CompileError, LaunchError, MemoryFault,
                           UnsupportedInstruction)

COPY = '''extern "C" __global__ void k_copy(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i + n];
}
'''


def _copy_args(n=64, shift=0):
    return [np.zeros(n, np.float32), np.zeros(n, np.float32), np.int32(shift)]


CASES = [
    ("compile", dict(source="extern \"C\" __global__ void k(int* a) { a[0] = undefined_name; }",
                     kernel="k", args=[np.zeros(1, np.int32)]), CompileError, r"undefined_name"),
    ("unknown kernel", dict(kernel="k_nope"), LaunchError, r"no kernel named 'k_nope'.*k_copy"),
    ("too few args", dict(args=_copy_args()[:2]), LaunchError, r"takes 3 arguments, got 2"),
    ("scalar width", dict(args=_copy_args()[:2] + [np.int64(0)]), LaunchError, r"int64 \(8 bytes\).*\.u32"),
    ("python int", dict(args=_copy_args()[:2] + [5]), LaunchError, r"numpy scalars"),
    ("array for scalar", dict(args=_copy_args()[:2] + [np.zeros(2, np.int32)]), LaunchError, r"not a pointer"),
    ("global out of bounds", dict(args=_copy_args(shift=1)), MemoryFault,
     r"invalid __global__ read of size 4 .*0 bytes past the end of argument 0 \(256 bytes\), by thread \(31,0,0\) in block \(1,0,0\), line 3"),
    ("huge block", dict(block=2048), LaunchError, r"cudaErrorInvalidConfiguration: block.x = 2,048 is over the limit of 1,024"),
    ("float for int", dict(args=_copy_args()[:2] + [np.float32(1024)]), LaunchError, r"float32 1024.0.*\.u32"),
    ("bad grid", dict(grid=(0, 1)), LaunchError, r"positive"),
]


@pytest.mark.parametrize("name,overrides,error,pattern", CASES, ids=[c[0] for c in CASES])
def test_bad_launch_is_one_clear_line(name, overrides, error, pattern, each_engine):
    call = dict(source=COPY, kernel="k_copy", grid=2, block=32, args=_copy_args())
    call.update(overrides)
    with pytest.raises(error, match=pattern) as info:
        memsim.simulate(call["source"], call["kernel"], call["grid"], call["block"], call["args"],
                        engine=each_engine)
    assert "\n" not in str(info.value)


def test_shared_out_of_bounds_names_thread_and_line(each_engine):
    src = '''extern "C" __global__ void k_sh(float* out) {
  __shared__ float tile[32];
  tile[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}'''
    with pytest.raises(MemoryFault, match=r"invalid __shared__ write of size 4 .* by thread \(32,0,0\).*line 3"):
        memsim.simulate(src, "k_sh", 1, 64, [np.zeros(64, np.float32)], engine=each_engine)


def test_misaligned_access_is_reported(each_engine):
    src = '''extern "C" __global__ void k_mis(const char* a, float* out) {
  out[threadIdx.x] = *(const float*)(a + 1 + 4 * threadIdx.x);
}'''
    with pytest.raises(MemoryFault, match=r"misaligned read of size 4"):
        memsim.simulate(src, "k_mis", 1, 32, [np.zeros(256, np.int8), np.zeros(32, np.float32)],
                        engine=each_engine)


def test_endless_loop_hits_the_budget(each_engine):
    src = '''extern "C" __global__ void k_spin(volatile int* flag) {
  while (flag[0] == 0) { }
}'''
    with pytest.raises(BudgetExceeded, match=r"budget of 10,000 warp instructions"):
        memsim.simulate(src, "k_spin", 1, 32, [np.zeros(1, np.int32)], max_instructions=10_000,
                        engine=each_engine)


def test_unsupported_instruction_names_opcode_and_line():
    src = '''extern "C" __global__ void k_cluster(int* d) {
  int unused = 0;
  (void)unused;
  asm volatile("barrier.cluster.arrive;\\n barrier.cluster.wait;");
  d[threadIdx.x] = 1;
}'''
    with pytest.raises(UnsupportedInstruction, match="UCGABAR") as info:   # cluster barrier: not emulated
        memsim.simulate(src, "k_cluster", 1, 32, [np.zeros(32, np.int32)])
    assert "`UCGABAR" in str(info.value) and "line 4" in str(info.value)


def test_half_arithmetic_on_the_ptx_engine_is_unsupported():
    src = '''#include <cuda_fp16.h>
extern "C" __global__ void k_half(const __half* a, __half* b) {
  b[threadIdx.x] = __hadd(a[threadIdx.x], a[threadIdx.x]);
}'''
    args = [np.ones(32, np.float16), np.zeros(32, np.float16)]
    try:
        memsim.simulate(src, "k_half", 1, 32, args, engine="ptx")
    except CompileError:
        pytest.skip("cuda_fp16.h is not shipped with this NVRTC wheel")
    except UnsupportedInstruction as exc:
        assert "line 3" in str(exc) and "engine='sass'" in str(exc)
    else:
        pytest.fail("the PTX engine does not compute half precision")


def test_printf_call_is_unsupported():
    src = '''extern "C" __global__ void k_print(int* a) { printf("%d\\n", a[0]); }'''
    with pytest.raises(UnsupportedInstruction, match=r"unsupported instruction '(call|st|ld|mov)' at line 1"):
        memsim.simulate(src, "k_print", 1, 1, [np.zeros(1, np.int32)], engine="ptx")
    with pytest.raises(UnsupportedInstruction, match=r"printf and assert's failure path are not emulated: thread \(0,0,0\) .* line 1"):
        memsim.simulate(src, "k_print", 1, 1, [np.zeros(1, np.int32)], engine="sass")


def test_an_assert_that_holds_runs_and_one_that_fails_is_named():
    src = '''extern "C" __device__ void __assertfail(const char*, const char*, unsigned, const char*, size_t);
extern "C" __global__ void k_assert(const int* a, int* b) {
  if (a[threadIdx.x] < 0) __assertfail("a >= 0", "k.cu", 3, "k_assert", 1);   // what assert() expands to
  b[threadIdx.x] = a[threadIdx.x];
}'''
    a, b = np.arange(32, dtype=np.int32), np.zeros(32, np.int32)
    memsim.simulate(src, "k_assert", 1, 32, [a, b], engine="sass")
    np.testing.assert_array_equal(b, a)
    a[5] = -1
    with pytest.raises(UnsupportedInstruction, match=r"not emulated: thread \(5,0,0\)"):
        memsim.simulate(src, "k_assert", 1, 32, [a, b], engine="sass")


def test_the_sass_engine_reads_the_one_error_table():
    """The SASS interpreter's E_* codes are memsim.engine.faults' (imported, not spelled again):
    every code it writes is one the decoder words."""
    from memsim.engine import faults
    from memsim.engine.sass import emulate, ops_memory
    for module in (emulate, ops_memory):
        codes = {name: value for name, value in vars(module).items() if name.startswith("E_")}
        assert codes and codes == {name: getattr(faults, name) for name in codes}, module.__name__
        source = Path(module.__file__).read_text()
        assert not re.search(r"^E_[A-Z_]+(, E_[A-Z_]+)* = \d", source, re.M), module.__name__
