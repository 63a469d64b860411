"""Front end: every nvdisasm listing parses, C++ kernel names, CUDA headers, `memsim coverage`."""
from __future__ import annotations

import numpy as np
import pytest

import memsim
from memsim.compiler import names
from memsim.cli import main
from memsim.compiler.nvrtc import compile_cuda, compile_for_kernel, toolkit_include_dirs
from memsim.engine.sass.coverage import coverage
from memsim.errors import LaunchError, UnsupportedInstruction
from memsim.engine.sass.compile import find_nvdisasm, listing
from memsim.engine.sass.parser import parse
from memsim.engine.sass.program import lower

needs_nvdisasm = pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm not installed")
needs_headers = pytest.mark.skipif(not toolkit_include_dirs(), reason="CUDA header wheels not installed")

# ---------------------------------------------------------------------------------------------
# Parser: hand-written listing snippets in nvdisasm 13's spelling.

SNIPPET = """\
\t.section\t.text.k_main,"ax",@progbits
        .global         k_main
        .type           k_main,@function
        .other          k_main,@"STO_CUDA_ENTRY STV_DEFAULT"
k_main:
.text.k_main:
\t//## File "k.cu", line 3
        /*0000*/                   LDC R4, c[0x2][R0+0xc] ;
        /*0010*/                   LDC R5, c[0x4][R0] ;
        /*0020*/                   LDC R6, c[0x3][UR4] ;
        /*0030*/                   LDC R7, c[0x0][RZ] ;
.L_x_0:
        /*0040*/                   BRX R4 -0x50                                   (*"BRANCH_TARGETS .L_x_0,.L_x_1"*) ;
.L_x_1:
        /*0050*/                   CALL.REL.NOINC `($k_main$helper) ;
        /*0060*/                   IADD3 R2, R2.reuse, R3.reuse, RZ ;
        /*0070*/                   LDS.128 R8, [R1+UR4+0x10] ;
        /*0080*/                   STG.E.64 desc[UR4][R2.64+0x10], R8 ;
        /*0090*/                   P2R R0, PR, RZ, 0x3 ;
        /*00a0*/                   S2R R9, SR_SOMETHING_NEW.Y ;
        /*00b0*/                   BSSY B15, `(.L_x_1) ;
        /*00c0*/                   FSEL R1, -INF, +QNAN, P0 ;
        /*00d0*/                   FFMA R2, R2, 1.5e-05, -R3 ;
        /*00e0*/                   HMNMX2 R6, -|R0|, -|R0|.H0_H0, !PT ;
        /*00f0*/                   MOV R20, 32@lo((k_main + .L_x_1@srel)) ;
        /*0100*/                   FOO R1, what?, R2 ;
        /*0108*/                   DEPBAR.LE SB0, 0x1 ;
        /*0110*/                   EXIT ;
        .type           $k_main$helper,@function
$k_main$helper:
\t//## File "k.cu", line 1
        /*0120*/                   FADD R4, R4, R5 ;
        /*0130*/                   RET.REL.NODEC R20 `(k_main) ;
"""


def test_snippet_parses_every_operand_form():
    functions = parse(SNIPPET)
    main_kernel, helper = functions["k_main"], functions["$k_main$helper"]
    assert (main_kernel.is_kernel, helper.is_kernel) == (True, False)
    ins = main_kernel.instructions
    assert [(o.bank, o.index, o.index_uniform, o.value) for o in (i.operands[1] for i in ins[:4])] == \
        [(2, 0, False, 0xC), (4, 0, False, 0), (3, 4, True, 0), (0, -1, False, 0)]
    brx, call = ins[4], ins[5]
    assert brx.branch_targets == (4, 5) and brx.operands[1].value == -0x50
    assert call.call_target == "$k_main$helper" and call.target == -1   # the callee is its own entry
    assert [o.value for o in ins[6].operands] == [2, 2, 3, 255]
    assert (ins[7].operands[1].base, ins[7].operands[1].uoffset, ins[7].operands[1].value) == (1, 4, 0x10)
    assert (ins[8].operands[0].base, ins[8].operands[0].wide, ins[8].operands[0].value) == (2, True, 0x10)
    assert ins[9].operands[1].kind == "pr" and ins[10].operands[1].text == "SR_SOMETHING_NEW.Y"
    assert ins[11].operands[0].value == 15
    fsel = ins[12].operands
    assert fsel[1].fvalue == -np.inf and np.isnan(fsel[2].fvalue)
    assert ins[13].operands[2].fvalue == 1.5e-05 and ins[13].operands[3].negate
    assert ins[14].operands[2].absolute and ins[14].operands[2].text == "H0_H0"
    assert ins[15].operands[1].text == "32@lo((k_main + .L_x_1@srel))" and ins[16].operands[1].kind == "unknown"
    assert (ins[17].operands[0].kind, ins[17].operands[0].value) == ("scoreboard", 0)
    assert [i.opcode for i in main_kernel.instructions][-1] == "EXIT"
    assert [i.opcode for i in helper.instructions] == ["FADD", "RET"] and helper.instructions[0].line == 1


def test_unknown_operand_fails_only_the_lowering_of_its_kernel():
    text = SNIPPET + """
\t.section\t.text.k_other,"ax",@progbits
        .other          k_other,@"STO_CUDA_ENTRY STV_DEFAULT"
k_other:
        /*0000*/                   MOV R1, 0x1 ;
        /*0010*/                   EXIT ;
"""
    functions = parse(text)
    lower(functions["k_other"])
    with pytest.raises(UnsupportedInstruction):
        lower(functions["k_main"])


def test_branch_to_a_missing_label_parses_and_fails_lowering():
    kernel = parse('\t.section\t.text.k,"ax",@progbits\n k:\n        /*0000*/   BRA `(.L_x_9) ;\n')["k"]
    assert kernel.instructions[0].target == -1
    with pytest.raises(UnsupportedInstruction):
        lower(kernel)


# A realistic multi-kernel module: shuffles, float/int/double atomics, a __noinline__ call,
# recursion, a float division by a runtime value (CALL of the IEEE slow path), double math,
# __half2, a runtime-indexed local array, and a switch (register-indexed LDC + BRX).
MULTI = r"""
#include <cuda_fp16.h>
__device__ __noinline__ float helper(float a, float b) { return a * b + 1.0f; }
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

extern "C" __global__ void k_reduce(const float* x, float* out, int n) {
    float v = threadIdx.x < n ? x[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
extern "C" __global__ void k_atomics(int* a, double* d, float* f, double y) {
    atomicAdd(a, 1); atomicAdd(d, y); atomicAdd(f, 2.0f);
}
extern "C" __global__ void k_call(float* x, float s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = helper(x[i], s) / s;
}
extern "C" __global__ void k_rec(int* x) { x[threadIdx.x] = fib(x[threadIdx.x]); }
extern "C" __global__ void k_double(double* x, double s) {
    int i = threadIdx.x; x[i] = sqrt(x[i]) / s + exp(x[i]);
}
extern "C" __global__ void k_half(__half2* a, float c) {
    __half2 v = __hmul2(a[threadIdx.x], __float2half2_rn(c));
    a[threadIdx.x] = __hmax2(__hneg2(__habs2(v)), v);
}
extern "C" __global__ void k_local(int* x, int j) {
    int tmp[32];
    for (int i = 0; i < 32; ++i) tmp[i] = x[(i * 7 + j) % 32 + threadIdx.x];
    x[threadIdx.x] = tmp[(j + threadIdx.x) & 31];
}
extern "C" __global__ void k_switch(int* x, int k) {
    int r;
    switch (x[threadIdx.x] + k) {
    case 0: r = 11; break; case 1: r = x[3] * 7; break; case 2: r = x[5] - 9; break;
    case 3: r = x[7] ^ 13; break; case 4: r = x[9] + 17; break; case 5: r = x[2] << 3; break;
    case 6: r = x[1] | 5; break; default: r = -1;
    }
    x[threadIdx.x] = r;
}
"""
MULTI_KERNELS = {"k_reduce", "k_atomics", "k_call", "k_rec", "k_double", "k_half", "k_local", "k_switch"}


@needs_nvdisasm
@needs_headers
@pytest.mark.parametrize("options", [(), ("-rdc=true",)])
def test_every_kernel_of_a_realistic_module_parses(options):
    functions = parse(listing(MULTI, options=options))
    assert {n for n, f in functions.items() if f.is_kernel} == MULTI_KERNELS
    calls = [i for f in functions.values() for i in f.instructions if i.opcode == "CALL"]
    assert calls and all(i.call_target in functions for i in calls)
    assert any(i.opcode == "BRX" and i.branch_targets for i in functions["k_switch"].instructions)
    unknown = {o.text for f in functions.values() for i in f.instructions for o in i.operands
               if o.kind == "unknown"}
    assert all("@" in text or "`(" in text for text in unknown)   # only -rdc's relocations
    assert bool(unknown) == bool(options)


# ---------------------------------------------------------------------------------------------
# C++ kernel names.

TEMPLATES = r"""
template <int N> __global__ void reduce(const float* x, float* out) {
    float s = 0;
    for (int i = 0; i < N; ++i) s += x[threadIdx.x * N + i];
    out[threadIdx.x] = s;
}
namespace ns { __global__ void plain(float* x) { x[threadIdx.x] = 1.0f; } }
extern "C" __global__ void k_c(float* x) { x[threadIdx.x] = 2.0f; }
"""


def test_demangle_and_short_name():
    assert names.demangle("_Z6reduceILi256EEvPf") == "void reduce<256>(float*)"
    assert names.short_name("_Z6reduceILi256EEvPf") == "reduce<256>"
    assert names.short_name("_ZN2ns5plainEPf") == "ns::plain"
    assert names.demangle("k_copy") == "k_copy" and names.demangle("_Zbroken") == "_Zbroken"


def test_name_expression_lowers_to_the_ptx_entry():
    compiled, lowered = compile_for_kernel(TEMPLATES, "reduce<4>")
    assert compiled.name_expressions == ("reduce<4>",) and lowered == "_Z6reduceILi4EEvPKfPf"
    assert lowered in compiled.kernels
    assert compile_for_kernel(TEMPLATES, "k_c")[0].name_expressions == ()   # CuPy's RawKernel code


@pytest.mark.parametrize("engine", ["ptx", pytest.param("sass", marks=needs_nvdisasm)])
@pytest.mark.parametrize("kernel", ["reduce<4>", "ns::plain", "_ZN2ns5plainEPf", "k_c"])
def test_simulate_accepts_cpp_mangled_and_extern_c_names(engine, kernel):
    x, out = np.arange(128, dtype=np.float32), np.zeros(32, np.float32)
    args = [x, out] if kernel.startswith("reduce") else [out]
    memsim.simulate(TEMPLATES, kernel, 1, 32, args, engine=engine)
    expected = x.reshape(32, 4).sum(1) if kernel.startswith("reduce") else \
        np.full(32, 2.0 if kernel == "k_c" else 1.0, np.float32)
    assert np.array_equal(out, expected)


@pytest.mark.parametrize("kernel", ["nope", "reduce<4", "_Z3foov"])
def test_unknown_kernel_lists_the_kernels_demangled(kernel):
    with pytest.raises(LaunchError, match=r"kernels: k_c, ns::plain\(float\*\)") as info:
        memsim.simulate(TEMPLATES, kernel, 1, 32, [np.zeros(32, np.float32)])
    assert "\n" not in str(info.value)


def test_cli_takes_a_cpp_name_and_rejects_an_unknown_one(tmp_path, capsys):
    path = tmp_path / "t.cu"
    path.write_text(TEMPLATES)
    common = [str(path), "--grid", "1", "--block", "32", "--arg", "float32[128]", "--arg", "float32[32]"]
    assert main(["predict", *common, "--kernel", "reduce<4>", "--json"]) == 0
    assert main(["predict", *common, "--kernel", "reduce<5>x"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: no kernel named 'reduce<5>x'") and "\n" not in err


# ---------------------------------------------------------------------------------------------
# CUDA headers from the pip wheels, and the user's include directories.

HEADERS = r"""
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cub/warp/warp_reduce.cuh>
namespace cg = cooperative_groups;

extern "C" __global__ void k_cg_reduce(const float* x, float* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float v = x[block.thread_rank()];
    for (int o = warp.size() / 2; o > 0; o /= 2) v += warp.shfl_down(v, o);
    if (warp.thread_rank() == 0) out[block.thread_rank() / 32] = v;
}
extern "C" __global__ void k_half2(const __half2* a, const __half2* b, __half2* c) {
    int i = threadIdx.x;
    c[i] = __hfma2(a[i], b[i], __hmul2(a[i], a[i]));
}
extern "C" __global__ void k_bf16(const __nv_bfloat16* a, float* c) {
    c[threadIdx.x] = __bfloat162float(a[threadIdx.x]) * 2.0f;
}
extern "C" __global__ void k_cub(const int* x, int* out) {
    using WarpReduce = cub::WarpReduce<int>;
    __shared__ typename WarpReduce::TempStorage temp;
    int sum = WarpReduce(temp).Sum(x[threadIdx.x]);
    if (threadIdx.x == 0) *out = sum;
}
"""


@needs_headers
@needs_nvdisasm
def test_cuda_headers_compile_to_sass_without_a_toolkit():
    functions = parse(listing(HEADERS))
    assert {n for n, f in functions.items() if f.is_kernel} == {"k_cg_reduce", "k_half2", "k_bf16", "k_cub"}
    opcodes = {i.opcode for i in functions["k_cg_reduce"].instructions}
    assert "SHFL" in opcodes


@needs_headers
def test_cooperative_groups_reduction_runs_on_the_ptx_engine():
    x, out = np.ones(64, np.float32), np.zeros(2, np.float32)
    memsim.simulate(HEADERS, "k_cg_reduce", 1, 64, [x, out])
    assert list(out) == [32.0, 32.0]


def test_user_include_dirs(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "scale.h").write_text("#define SCALE 3.0f\n")
    source = '#include "scale.h"\nextern "C" __global__ void k(float* x) { x[threadIdx.x] = SCALE; }\n'
    out = np.zeros(32, np.float32)
    memsim.simulate(source, "k", 1, 32, [out], include_dirs=[str(tmp_path / "inc")])
    assert out[0] == 3.0
    path = tmp_path / "k.cu"
    path.write_text(source)
    common = ["predict", str(path), "--kernel", "k", "--grid", "1", "--block", "32", "--arg", "float32[32]", "--json"]
    assert main([*common, "-I", str(tmp_path / "inc")]) == 0
    assert main([*common, "--include-dir", str(tmp_path / "missing")]) == 2


# ---------------------------------------------------------------------------------------------
# memsim coverage.

@needs_nvdisasm
def test_coverage_lists_unsupported_instructions_per_kernel():
    report = coverage(MULTI_ONLY_SUPPORTED + MULTI_CALL + MULTI_CLUSTER)
    assert report["k_copy"] == [] and report["k_call"] == []   # calls run since the engine rewrite
    gaps = [gap for gap in report["k_cluster"] if gap[0].startswith("UCGABAR")]   # cluster barrier: not emulated
    assert gaps and all(line == 8 for _, line, _ in gaps) and "UCGABAR_ARV" in gaps[0][2]


MULTI_ONLY_SUPPORTED = 'extern "C" __global__ void k_copy(const float* a, float* b) { b[threadIdx.x] = a[threadIdx.x]; }\n'
MULTI_CALL = """__device__ __noinline__ float twice(float a) { return 2.0f * a; }
extern "C" __global__ void k_call(float* x) {
    int i = threadIdx.x;
    x[i] = twice(x[i]);
}
"""
MULTI_CLUSTER = """extern "C" __global__ void k_cluster(int* d) {
    asm volatile("barrier.cluster.arrive;\\n barrier.cluster.wait;");
    d[threadIdx.x] = 1;
}
"""


@needs_nvdisasm
def test_coverage_cli(tmp_path, capsys):
    path = tmp_path / "c.cu"
    path.write_text(MULTI_ONLY_SUPPORTED + MULTI_CALL + MULTI_CLUSTER)
    assert main(["coverage", str(path), "--kernel", "k_copy"]) == 0
    assert capsys.readouterr().out.strip() == "k_copy: ok"
    assert main(["coverage", str(path)]) == 1
    out = capsys.readouterr().out
    assert "k_cluster: " in out and "UCGABAR_ARV" in out and "k_copy: ok" in out and "k_call: ok" in out
    assert main(["coverage", str(path), "--kernel", "k_nope"]) == 2
    assert main(["coverage", str(tmp_path / "missing.cu")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "kernels: k_call, k_cluster, k_copy" in err


@needs_headers
def test_cub_umbrella_header_error_says_what_to_include():
    source = '#include <cub/cub.cuh>\nextern "C" __global__ void k(float* x) {}\n'
    with pytest.raises(memsim.errors.CompileError, match="cub/warp/warp_reduce.cuh") as info:
        compile_cuda(source)
    assert "\n" not in str(info.value)


STAMPED = "_Z9cpy_f32_qIXadL_ZN45_INTERNAL_00000000_9_kernel_cu_{}_{}17cpy_blck_f32_q8_0EPKcPcEELi32EEvS2_S3_x"


@pytest.mark.parametrize("ours,theirs,found", [
    (("6803d68d", "15071"), ("0db7969f", "30926"), True),    # another process's compile of the same kernel
    (("6803d68d", "15071"), ("0db7969f", "9"), True),        # a pid of fewer digits
    (("6803d68d", "15071"), ("6803d68d", "15071"), True)])
def test_a_kernel_with_a_static_template_argument_is_found_across_compiles(ours, theirs, found):
    """NVRTC names a static function's namespace after the compile (hash and pid): the lowered
    name of one process must still find the kernel in a module another process compiled."""
    from memsim.compiler.names import match_kernel

    module = [STAMPED.format(*theirs), STAMPED.format(*theirs).replace("q8_0", "q4_0")]
    assert (match_kernel(STAMPED.format(*ours), module) == module[0]) is found
    assert match_kernel(STAMPED.format(*ours).replace("Li32E", "Li64E"), module) is None
