"""The seventh pre-registered set (`validate run --cases prereg7`): kernels people write now for
LLM inference and training, from two repositories this project had never used, copied into
validate/prereg7/*.cu, whose launches were fixed, and recorded on the H100 into a sealed folder,
before any prediction of them was committed. Held out of every fit (validate.families), like the
first six sets; built with the same machinery (validate.prereg_cases.PreregSet). Change no launch
once it is registered.

Sources (each file's header comment: repository, files, commit, licence and every edit; no kernel
body is changed; licence texts in validate/prereg7/LICENSES.md; kernels left out, and why:
validate/prereg7/STATUS.md):
- ggml-org/ggml (MIT), the CUDA backend of ggml (the tensor library under llama.cpp),
  src/ggml-cuda (files ggml_*.cu): scale, clamp, logit soft-capping, argmax over rows, row sums
  and means, LayerNorm-style norm, group norm, L2 norm and RMSNorm's backward, SiLU / GELU /
  GELU-quick and the gated SwiGLU / GEGLU, SiLU's backward, softmax's backward, cross-entropy and
  its backward, count-equal, rotary embeddings (normal and NeoX, f32 and f16), concatenation
  along each axis, permuted, transposed and contiguous copies (f32 to f16: what a KV-cache store
  does), f32 to q8_0 quantisation and q8_0 dequantisation, the causal mask, AdamW's step and
  timestep embeddings;
- turboderp-org/exllamav2 (MIT), exllamav2/exllamav2_ext/cuda (files exl2_*.cu): RMSNorm (f16
  and f32, with a residual add) and LayerNorm, a 1024-thread block a row; rotary embeddings in
  place from sin/cos tables (NeoX and GPT-J); soft-capping in place (f32, f16); the K/V cache's
  f16 to FP8 (E5M2) conversion and back.
One file a source file: the kernels and the helpers from the repository's headers they call,
with the templates the launches name instantiated.

Shapes are an LLM's: hidden sizes 2048-8192 (4096 most), 16-4096 tokens, head size 128 with 32
heads, FFN width 11008, vocabularies 32000 and 128256. The launches use the grids and blocks
the repositories' host code picks for those shapes unless a row says otherwise.

Every launch is in bounds and deterministic: each kernel's bounds check covers the grid, the
copies and concatenations read and write inside the tensors their strides describe, q8_0 blocks
are 34 bytes (an f16 scale of a small positive exponent and 32 int8), and count_equal's one
atomic sums integers. Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): the
kernels that take their block size from blockDim (ggml's scale, argmax, sum_rows, silu, swiglu,
adamw; exllamav2's fp16_to_fp8), launched at five block sizes over one problem, the grid
following the block.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, _sweep, array_arg, scalar_arg

PREREG7_DIR = Path(__file__).parent / "prereg7"
SUITES = {"ggml_": "ggml-org/ggml", "exl2_": "turboderp-org/exllamav2"}
K64, M1, M2, M4, M8, M16 = 1 << 16, 1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24
H, FFN, HEAD, HEADS = 4096, 11008, 128, 32
VOCAB, VOCAB_L = 32000, 128256
BLOCKS = [(64,), (128,), (256,), (512,), (1024,)]
Q8_0 = 34   # bytes of a q8_0 block: an f16 scale and 32 int8


_f, _h = partial(array_arg, "float32"), partial(array_arg, "float16")
_i, _l, _s = partial(scalar_arg, "int32"), partial(scalar_arg, "int64"), partial(scalar_arg, "float32")


def _ew(name: str, file: str, kernel: str, n: int, args: list[str], tags: list[str], block: int = 256) -> tuple:
    """A 1D element-wise launch, one thread an element (ggml's host: cdiv(n, block) blocks)."""
    return (name, file, kernel, _cdiv(n, block), block, args, tags)


def _rows(rows: int, cols: int) -> list[str]:
    """x, dst, ncols, stride_row, stride_channel, stride_sample, eps of a norm over rows x cols."""
    return [_f(rows * cols), _f(rows * cols, "zeros"), _i(cols), _l(cols), _l(rows * cols), _l(rows * cols), _s(1e-5)]


def _rope(kind: str, t: str, tokens: int, heads: int = HEADS, dims: int = HEAD) -> tuple:
    """rope_<kind><forward, no freq factors> over tokens x heads x head dims, rotating every dim;
    corr_dims (a struct of two floats, unused when ext_factor is 0) passed as 8 zero bytes."""
    n = tokens * heads * dims
    buf = _f if t == "float" else _h
    args = [buf(n), buf(n, "zeros"), _i(dims), _i(heads), _i(tokens), _i(dims), _i(dims * heads), _i(n),
            _i(dims), _i(dims * heads), _i(n), _i(dims), _i(0), f"int32[{tokens}]:arange", _s(1.0), _s(0.0), _s(1.0),
            "uint64:0", _s(round(10000.0 ** (-2.0 / dims), 9)), _f(dims // 2, "ones"), f"int64[{tokens}]:zeros", _i(0),
            "uint8:0"]
    name = f"ggml_rope_{kind}_{'f16' if t == 'half' else 'f32'}_{tokens}x{heads}x{dims}"
    return (name, "ggml_rope.cu", f"rope_{kind}<true, false, {t}, {t}>", (tokens * heads, _cdiv(dims, 512)),
            (1, 256), args, ["rope", "rotary", "transcendental", *(["half"] if t == "half" else [])])


def _cpy_args(ne: int, src_dims: tuple, src_bytes: tuple, dst_dims: tuple, dst_bytes: tuple) -> list[str]:
    """ne, ne00..ne02, nb00..nb03, ne10..ne12, nb10..nb13 of ggml's cpy kernels."""
    return [_l(ne), *[_l(v) for v in src_dims], *[_l(v) for v in src_bytes], *[_l(v) for v in dst_dims],
            *[_l(v) for v in dst_bytes]]


def _permute(t: int, heads: int = HEADS, dims: int = HEAD) -> list[str]:
    """Copy a [tokens, heads, dims] f32 tensor viewed as [dims, tokens, heads] (ggml's permute of a
    K/V tensor) into a contiguous f16 [dims, tokens, heads]: reads strided, writes in order."""
    ne = t * heads * dims
    src = _cpy_args(ne, (dims, t, heads), (4, 4 * dims * heads, 4 * dims, 4 * ne),
                    (dims, t, heads), (2, 2 * dims, 2 * dims * t, 2 * ne))
    return [_f(ne), _h(ne, "zeros"), *src]


def _q8(rows: int, cols: int, to_q: bool) -> list[str]:
    """f32 [rows, cols] to q8_0 blocks (or back): ggml's cpy with one thread a 32-element block."""
    ne, nq = rows * cols, rows * cols // 32
    f = (cols, rows, 1), (4, 4 * cols, 4 * ne, 4 * ne)
    q = (cols, rows, 1), (Q8_0, Q8_0 * (cols // 32), Q8_0 * nq, Q8_0 * nq)
    if to_q:
        return [_f(ne), f"uint8[{nq * Q8_0}]:zeros", *_cpy_args(ne, *f, *q)]
    return [f"uint8[{nq * Q8_0}]:randint(0,60)", _f(ne, "zeros"), *_cpy_args(ne, *q, *f)]


def _transpose(rows: int, cols: int, mats: int) -> tuple:
    """cpy_scalar_transpose<float>: mats matrices of rows x cols, 32 x 32 tiles (block 32 x 8)."""
    ne = rows * cols * mats
    args = [_f(ne), _f(ne, "zeros"), *_cpy_args(ne, (rows, cols, mats), (4, 4 * rows, 4 * rows * cols, 4 * ne),
                                               (cols, rows, mats), (4, 4 * cols, 4 * rows * cols, 4 * ne))]
    return (f"ggml_cpy_transpose_{mats}x{rows}x{cols}", "ggml_cpy.cu", "cpy_scalar_transpose<float>",
            (_cdiv(cols, 32), _cdiv(rows, 32), _cdiv(mats, 8)), (32, 8), args,
            ["copy", "transpose", "shared", "tile", "syncthreads"])


def _exl2_norm(kernel: str, rows: int, dim: int, flags: tuple = (0, 0, 0)) -> list[str]:
    """exllamav2's rms_norm_kernel (x, w, y, eps, 1/dim, rows, dim, add_residual, input_fp32,
    output_fp32) or layer_norm_kernel (x, w, b, y, eps, 1/dim, rows, dim, add_residual)."""
    x = (_f if flags[1] else _h)(rows * dim)
    y = (_f if flags[2] else _h)(rows * dim, "random" if flags[0] else "zeros")
    common = [_s(1e-6), _s(1.0 / dim), _i(rows), _i(dim)]
    if kernel == "rms":
        return [x, _h(dim), y, *common, *[f"uint8:{v}" for v in flags]]
    return [x, _h(dim), _h(dim), y, *common, f"uint8:{flags[0]}"]


def _exl2_rope(batch: int, tokens: int, neox: int, heads: int = HEADS, dims: int = HEAD) -> tuple:
    """rope_cuda_kernel in place over batch x tokens x heads rows of head_dim halves, sin/cos
    tables of one row a position; exllamav2's host: block (32, 4), grid (head_dim/2/32, rows/4, batch)."""
    rows = tokens * heads
    args = [_h(batch * rows * dims), _h(tokens * dims), _h(tokens * dims), _i(rows), _i(dims), _i(heads), _i(0),
            f"int32[{batch}]:zeros", _i(4), f"uint8:{neox}", _i(dims)]
    return (f"exl2_rope_{'neox' if neox else 'gptj'}_{batch}x{tokens}x{heads}x{dims}", "exl2_rope.cu", "rope_cuda_kernel",
            (_cdiv(dims // 2, 32), _cdiv(rows, 4), batch), (32, 4), args, ["rope", "rotary", "half", "in-place", "table"])


def _fp8(rows: int, width: int, to_fp8: bool) -> list[str]:
    """fp16_to_fp8_kernel / fp8_to_fp16_kernel (in, out, stride, height, min, max) over rows x width."""
    src = _h(rows * width) if to_fp8 else f"uint8[{rows * width}]:randint(0,120)"
    dst = f"uint8[{rows * width}]:zeros" if to_fp8 else _h(rows * width, "zeros")
    return [src, dst, _i(width), _i(rows), _i(0), _i(width)]


def _gated(rows: int, n: int, x_row: int, t: str = "float") -> list[str]:
    """x, g, dst, k, n, o0, o1 of a GLU: act(x) * g over rows x n, x's rows x_row apart."""
    buf = _f if t == "float" else _h
    return [buf(rows * x_row), buf(rows * n), buf(rows * n, "zeros"), _l(rows * n), _l(n), _l(x_row), _l(n)]


EW = ["elementwise", "streaming"]
LAUNCHES: list[tuple] = [
    # --- element-wise: scale (grid-stride), clamp, soft-capping of logits
    ("ggml_scale_16M", "ggml_scale.cu", "scale_f32", _cdiv(M16, 256), 256,
     [_f(M16), _f(M16, "zeros"), _s(0.125), _s(0.5), _l(M16)], [*EW, "grid-stride", "large"]),
    ("ggml_scale_64K", "ggml_scale.cu", "scale_f32", _cdiv(K64, 256), 256,
     [_f(K64), _f(K64, "zeros"), _s(0.125), _s(0.5), _l(K64)], [*EW, "grid-stride", "small"]),
    _ew("ggml_clamp_f32_4M", "ggml_clamp.cu", "op_clamp_kernel<float>", M4,
        [_f(M4), _f(M4, "zeros"), _s(0.2), _s(0.8), _i(M4)], EW),
    _ew("ggml_clamp_f16_8M", "ggml_clamp.cu", "op_clamp_kernel<half>", M8,
        [_h(M8), _h(M8, "zeros"), "float16:0.2", "float16:0.8", _i(M8)], [*EW, "half"]),
    _ew("ggml_softcap_32x128256", "ggml_softcap.cu", "softcap_f32", 32 * VOCAB_L,
        [_f(32 * VOCAB_L), _f(32 * VOCAB_L, "zeros"), _s(0.0333333), _s(30.0), _i(32 * VOCAB_L)],
        [*EW, "tanh", "logits"]),
    # --- activations: SiLU, GELU, GELU-quick; SwiGLU and GEGLU (act(x) * gate); SiLU's backward
    _ew("ggml_silu_512x11008", "ggml_unary.cu", "unary_op_kernel<op_silu, float>", 512 * FFN,
        [_f(512 * FFN), _f(512 * FFN, "zeros"), _i(512 * FFN)], [*EW, "activation", "exp"]),
    _ew("ggml_gelu_512x11008", "ggml_unary.cu", "unary_op_kernel<op_gelu, float>", 512 * FFN,
        [_f(512 * FFN), _f(512 * FFN, "zeros"), _i(512 * FFN)], [*EW, "activation", "tanh"]),
    _ew("ggml_gelu_quick_256x8192", "ggml_unary.cu", "unary_op_kernel<op_gelu_quick, float>", 256 * 8192,
        [_f(256 * 8192), _f(256 * 8192, "zeros"), _i(256 * 8192)], [*EW, "activation", "exp"]),
    _ew("ggml_silu_f16_1024x11008", "ggml_unary.cu", "unary_op_kernel<op_silu, half>", 1024 * FFN,
        [_h(1024 * FFN), _h(1024 * FFN, "zeros"), _i(1024 * FFN)], [*EW, "activation", "exp", "half"]),
    _ew("ggml_swiglu_512x11008", "ggml_unary.cu", "unary_gated_op_kernel<op_silu, float>", 512 * FFN,
        _gated(512, FFN, FFN), [*EW, "activation", "gated", "exp"]),
    # x the first half of a fused [tokens, 2 x FFN] up-projection (rows 2 x FFN apart), g its own
    _ew("ggml_swiglu_split_256x11008", "ggml_unary.cu", "unary_gated_op_kernel<op_silu, float>", 256 * FFN,
        _gated(256, FFN, 2 * FFN), [*EW, "activation", "gated", "exp", "strided-rows"]),
    _ew("ggml_geglu_512x8192", "ggml_unary.cu", "unary_gated_op_kernel<op_gelu, float>", 512 * 8192,
        _gated(512, 8192, 8192), [*EW, "activation", "gated", "tanh"]),
    _ew("ggml_swiglu_f16_1024x11008", "ggml_unary.cu", "unary_gated_op_kernel<op_silu, half>", 1024 * FFN,
        _gated(1024, FFN, FFN, "half"), [*EW, "activation", "gated", "exp", "half", "large"]),
    _ew("ggml_silu_back_256x11008", "ggml_unary.cu", "silu_back_kernel<float>", 256 * FFN,
        [_f(256 * FFN), _f(256 * FFN), _f(256 * FFN, "zeros"), _i(256 * FFN)], [*EW, "activation", "backward"]),
    # --- row reductions: argmax over a vocabulary, row sums and means
    ("ggml_argmax_64x32000", "ggml_argmax.cu", "argmax_f32", 64, 1024,
     [_f(64 * VOCAB), "int32[64]:zeros", _l(VOCAB)], ["reduction", "rows", "shuffle", "syncthreads", "sampling"]),
    ("ggml_sum_rows_4096x4096", "ggml_sum_rows.cu", "reduce_rows_f32<false>", 4096, 128,
     [_f(4096 * H), _f(4096, "zeros"), _i(H)], ["reduction", "rows", "shuffle", "large"]),
    ("ggml_mean_rows_64x32000", "ggml_sum_rows.cu", "reduce_rows_f32<true>", 64, 512,
     [_f(64 * VOCAB), _f(64, "zeros"), _i(VOCAB)], ["reduction", "rows", "shuffle", "few-blocks"]),
    # --- normalisation: norm (LayerNorm without affine), L2 norm, group norm, RMSNorm's backward
    ("ggml_norm_512x4096", "ggml_norm.cu", "norm_f32<1024>", (512, 1, 1), 1024, _rows(512, H),
     ["norm", "rows", "reduction", "shuffle"], 256),
    ("ggml_norm_2048x8192", "ggml_norm.cu", "norm_f32<1024>", (2048, 1, 1), 1024, _rows(2048, 8192),
     ["norm", "rows", "reduction", "shuffle", "large"], 256),
    ("ggml_norm_w32_4096x512", "ggml_norm.cu", "norm_f32<32>", (4096, 1, 1), 32, _rows(4096, 512),
     ["norm", "rows", "reduction", "shuffle", "warp-per-row"]),
    ("ggml_l2_norm_1024x4096", "ggml_norm.cu", "l2_norm_f32<1024>", (1024, 1, 1), 1024, _rows(1024, H),
     ["norm", "rows", "reduction", "shuffle"], 128),
    ("ggml_l2_norm_heads_256x32x128", "ggml_norm.cu", "l2_norm_f32<32>", (32, 256, 1), 32,
     [_f(256 * 32 * HEAD), _f(256 * 32 * HEAD, "zeros"), _i(HEAD), _l(HEAD), _l(32 * HEAD), _l(256 * 32 * HEAD),
      _s(1e-6)], ["norm", "rows", "reduction", "shuffle", "warp-per-row", "3d"]),
    ("ggml_group_norm_32g_64x64x320", "ggml_norm.cu", "group_norm_f32<1024>", 32, 1024,
     [_f(64 * 64 * 320), _f(64 * 64 * 320, "zeros"), _i(64 * 64 * 10), _i(64 * 64 * 320), _s(1e-6)],
     ["norm", "groups", "reduction", "shuffle", "few-blocks"], 256),
    ("ggml_rms_norm_back_512x4096", "ggml_norm.cu", "rms_norm_back_f32<1024>", 512, 1024,
     [_f(512 * H), _f(512 * H), _f(512 * H, "zeros"), _i(H), _s(1e-6)], ["norm", "rows", "reduction", "backward"]),
    # --- softmax's backward, cross-entropy over a vocabulary and its backward (a warp a row)
    ("ggml_soft_max_back_1024x4096", "ggml_soft_max_back.cu", "soft_max_back_f32", 1024, 32,
     [_f(1024 * H), _f(1024 * H), _f(1024 * H, "zeros"), _i(H), _s(1.0)],
     ["softmax", "rows", "warp-per-row", "backward"]),
    ("ggml_cross_entropy_128x32000", "ggml_cross_entropy.cu", "cross_entropy_loss_f32<false>", 128, 32,
     [_f(128 * VOCAB), _f(128 * VOCAB), _f(128, "zeros"), _i(VOCAB), _i(128)],
     ["softmax", "rows", "warp-per-row", "exp", "log", "loss"]),
    ("ggml_cross_entropy_shared_256x8192", "ggml_cross_entropy.cu", "cross_entropy_loss_f32<true>", 256, 32,
     [_f(256 * 8192), _f(256 * 8192), _f(256, "zeros"), _i(8192), _i(256)],
     ["softmax", "rows", "warp-per-row", "exp", "log", "loss", "shared"], 8192 * 4),
    ("ggml_cross_entropy_back_128x32000", "ggml_cross_entropy.cu", "cross_entropy_loss_back_f32<false>", 128, 32,
     [_f(1), _f(128 * VOCAB), _f(128 * VOCAB), _f(128 * VOCAB, "zeros"), _i(VOCAB)],
     ["softmax", "rows", "warp-per-row", "exp", "loss", "backward"]),
    ("ggml_count_equal_4M", "ggml_count_equal.cu", "count_equal<int>", _cdiv(M4, 1 << 14), 32,
     ["int32[4194304]:randint(0,4)", "int32[4194304]:randint(0,4)", "int64[1]:zeros", _l(1 << 14), _l(M4)],
     ["reduction", "atomics", "redux", "warp-per-block"]),
    # --- rotary embeddings: NeoX (Llama) and normal (GPT-J) layouts, f32 and f16
    _rope("neox", "float", 512),
    _rope("neox", "float", 2048),
    _rope("norm", "float", 512),
    _rope("neox", "half", 1024),
    _rope("norm", "half", 16),
    # --- concatenation along each axis (contiguous), grid-stride at ggml's 256
    ("ggml_concat_dim0_1024x4096", "ggml_concat.cu", "concat_cont<float, 0>", _cdiv(1024 * H, 256), 256,
     [_f(1024 * 2048), _f(1024 * 2048), _f(1024 * H, "zeros"), _l(2048), _l(1024), _l(1), _l(H), _l(1024), _l(1)],
     ["copy", "concat", "grid-stride"]),
    ("ggml_concat_dim1_2048x4096", "ggml_concat.cu", "concat_cont<float, 1>", _cdiv(2048 * H, 256), 256,
     [_f(1536 * H), _f(512 * H), _f(2048 * H, "zeros"), _l(H), _l(1536), _l(1), _l(H), _l(2048), _l(1)],
     ["copy", "concat", "grid-stride"]),
    ("ggml_concat_dim2_1024x32x128", "ggml_concat.cu", "concat_cont<float, 2>", _cdiv(32 * HEAD * 1024, 256), 256,
     [_f(32 * HEAD * 960), _f(32 * HEAD * 64), _f(32 * HEAD * 1024, "zeros"), _l(HEAD), _l(32), _l(960), _l(HEAD),
      _l(32), _l(1024)], ["copy", "concat", "grid-stride", "kv-cache"]),
    # --- copies: a permuted K/V tensor into f16 (ggml's KV-cache store), a transpose, f32 <-> q8_0
    ("ggml_cpy_permute_f16_512x32x128", "ggml_cpy.cu", "cpy_scalar<cpy_1_scalar<float, half>>",
     _cdiv(512 * 32 * HEAD, 64), 64, _permute(512), ["copy", "permute", "strided", "half", "kv-cache"]),
    ("ggml_cpy_permute_f16_2048x32x128", "ggml_cpy.cu", "cpy_scalar<cpy_1_scalar<float, half>>",
     _cdiv(2048 * 32 * HEAD, 64), 64, _permute(2048), ["copy", "permute", "strided", "half", "kv-cache"]),
    _transpose(4096, 4096, 1),
    _transpose(128, 512, 32),
    ("ggml_cpy_f32_f16_4096x4096", "ggml_cpy.cu", "cpy_scalar_contiguous<float, half>", _cdiv(4096 * H, 64), 64,
     [_f(4096 * H), _h(4096 * H, "zeros"), _l(4096 * H)], ["copy", "convert", "half", "streaming", "large"]),
    ("ggml_quantize_q8_0_1024x4096", "ggml_cpy.cu", "cpy_f32_q<cpy_blck_f32_q8_0, 32>", _cdiv(1024 * H // 32, 64),
     64, _q8(1024, H, True), ["quantize", "q8_0", "thread-per-block", "strided"]),
    ("ggml_dequantize_q8_0_1024x4096", "ggml_cpy.cu", "cpy_q_f32<cpy_blck_q8_0_f32, 32>",
     _cdiv(1024 * H // 32, 64), 64, _q8(1024, H, False), ["dequantize", "q8_0", "thread-per-block", "strided"]),
    # --- causal mask, AdamW's step, timestep embeddings
    ("ggml_diag_mask_32x512x512", "ggml_diag_mask.cu", "diag_mask_inf_f32", (32 * 512, _cdiv(512, 32)), (1, 32),
     [_f(32 * 512 * 512), _f(32 * 512 * 512, "zeros"), _i(512), _i(512), _i(0)], ["mask", "attention", "2d", "strided"]),
    _ew("ggml_adamw_16M", "ggml_adamw.cu", "opt_step_adamw_f32", M16,
        [_f(M16), _f(M16), _f(M16), _f(M16), "float32[7]:ones", _l(M16)], [*EW, "optimizer", "sqrt", "large"]),
    ("ggml_timestep_embedding_256x1280", "ggml_timestep_embedding.cu", "timestep_embedding_f32", (_cdiv(640, 256), 256),
     256, ["float32[256]:randint(0,1000)", _f(256 * 1280, "zeros"), _i(1280 * 4), _i(1280), _i(10000)],
     ["embedding", "transcendental", "small"]),
    # --- exllamav2: RMSNorm and LayerNorm (1024 threads a row), rotary embeddings, soft-capping, FP8 K/V
    ("exl2_rms_norm_f16_512x4096", "exl2_rms_norm.cu", "rms_norm_kernel<2>", 512, 1024, _exl2_norm("rms", 512, H),
     ["norm", "rows", "reduction", "shuffle", "half"]),
    ("exl2_rms_norm_f16_2048x8192", "exl2_rms_norm.cu", "rms_norm_kernel<4>", 2048, 1024,
     _exl2_norm("rms", 2048, 8192), ["norm", "rows", "reduction", "shuffle", "half", "large"]),
    ("exl2_rms_norm_f16_16x2048", "exl2_rms_norm.cu", "rms_norm_kernel<1>", 16, 1024, _exl2_norm("rms", 16, 2048),
     ["norm", "rows", "reduction", "shuffle", "half", "small", "few-blocks"]),
    ("exl2_rms_norm_f32_256x4096", "exl2_rms_norm.cu", "rms_norm_kernel<2>", 256, 1024,
     _exl2_norm("rms", 256, H, (0, 1, 1)), ["norm", "rows", "reduction", "shuffle"]),
    ("exl2_rms_norm_residual_f16_1024x4096", "exl2_rms_norm.cu", "rms_norm_kernel<2>", 1024, 1024,
     _exl2_norm("rms", 1024, H, (1, 0, 0)), ["norm", "rows", "reduction", "shuffle", "half", "residual"]),
    ("exl2_layer_norm_f16_512x4096", "exl2_layer_norm.cu", "layer_norm_kernel<2>", 512, 1024,
     _exl2_norm("layer", 512, H), ["norm", "rows", "reduction", "shuffle", "half"]),
    ("exl2_layer_norm_f16_1024x8192", "exl2_layer_norm.cu", "layer_norm_kernel<4>", 1024, 1024,
     _exl2_norm("layer", 1024, 8192), ["norm", "rows", "reduction", "shuffle", "half"]),
    _exl2_rope(1, 512, 1),
    _exl2_rope(4, 256, 1),
    _exl2_rope(1, 512, 0),
    ("exl2_softcap_f32_32x128256", "exl2_softcap.cu", "cuda_softcap_kernel", _cdiv(32 * VOCAB_L, 256), 256,
     [_f(32 * VOCAB_L), "uint64:4104192", _s(30.0)], [*EW, "tanh", "logits", "in-place"]),
    ("exl2_softcap_f16_64x128256", "exl2_softcap.cu", "h_cuda_softcap_kernel", _cdiv(64 * VOCAB_L // 2, 256), 256,
     [_h(64 * VOCAB_L), "uint64:8208384", _s(30.0)], [*EW, "tanh", "logits", "in-place", "half"]),
    ("exl2_fp8_to_fp16_2048x4096", "exl2_cache_fp8.cu", "fp8_to_fp16_kernel", (_cdiv(H // 8, 32), 2048), 32,
     _fp8(2048, H, False), ["convert", "kv-cache", "fp8", "vector", "2d"]),
    ("exl2_fp16_to_fp8_8192x1024", "exl2_cache_fp8.cu", "fp16_to_fp8_kernel", (_cdiv(1024 // 8, 32), 8192), 32,
     _fp8(8192, 1024, True), ["convert", "kv-cache", "fp8", "vector", "2d"]),
    # --- sweeps: the kernels that take their block from blockDim, five blocks, the grid following
    *_sweep("ggml_scale", "ggml_scale.cu", "scale_f32", BLOCKS, lambda b: _cdiv(M4, b[0]),
            [_f(M4), _f(M4, "zeros"), _s(0.125), _s(0.5), _l(M4)], [*EW, "grid-stride"], "4M"),
    *_sweep("ggml_argmax", "ggml_argmax.cu", "argmax_f32", [(32,), (128,), (256,), (512,), (1024,)], lambda b: 32,
            [_f(32 * VOCAB_L), "int32[32]:zeros", _l(VOCAB_L)], ["reduction", "rows", "shuffle", "sampling"],
            "32x128256"),
    *_sweep("ggml_sum_rows", "ggml_sum_rows.cu", "reduce_rows_f32<false>", [(32,), (64,), (128,), (256,), (512,)],
            lambda b: 2048, [_f(2048 * H), _f(2048, "zeros"), _i(H)], ["reduction", "rows", "shuffle"], "2048x4096"),
    *_sweep("ggml_silu", "ggml_unary.cu", "unary_op_kernel<op_silu, float>", BLOCKS, lambda b: _cdiv(256 * FFN, b[0]),
            [_f(256 * FFN), _f(256 * FFN, "zeros"), _i(256 * FFN)], [*EW, "activation", "exp"], "256x11008"),
    *_sweep("ggml_swiglu", "ggml_unary.cu", "unary_gated_op_kernel<op_silu, float>", BLOCKS,
            lambda b: _cdiv(256 * FFN, b[0]), _gated(256, FFN, FFN), [*EW, "activation", "gated", "exp"], "256x11008"),
    *_sweep("ggml_adamw", "ggml_adamw.cu", "opt_step_adamw_f32", BLOCKS, lambda b: _cdiv(M4, b[0]),
            [_f(M4), _f(M4), _f(M4), _f(M4), "float32[7]:ones", _l(M4)], [*EW, "optimizer", "sqrt"], "4M"),
    *_sweep("exl2_fp16_to_fp8", "exl2_cache_fp8.cu", "fp16_to_fp8_kernel", [(32,), (64,), (128,), (256,), (512,)],
            lambda b: (_cdiv(H // 8, b[0]), 2048), _fp8(2048, H, True), ["convert", "kv-cache", "fp8", "vector", "2d"],
            "2048x4096"),
]

PREREG7 = PreregSet("prereg7", PREREG7_DIR, SUITES, LAUNCHES)


def prereg7_cases() -> list[Case]:
    """The seventh pre-registered set's launches as cases (set `prereg7`)."""
    return PREREG7.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG7.write_registry()}")
