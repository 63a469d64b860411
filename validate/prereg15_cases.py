"""The fifteenth pre-registered set (`validate run --cases prereg15`): public CUDA kernels of two
repositories this project had never used (vllm-project/vllm, facebookresearch/detectron2), copied
into validate/prereg15/*.cu, whose launches were fixed, and recorded on the H100 and the H200 into
sealed folders, before any prediction of them was committed. Held out of every fit
(validate.families), like the first fourteen sets; built with the same machinery
(validate.prereg_cases.PreregSet). Change no launch once it is registered.

This set favours LLM-serving shapes: a block a token everywhere in vLLM (the gated activations and
GELUs, the RMS norms with cub block reductions, the rotary embedding, the KV-cache writers, the
int8 quantisers with and without zero points, the top-k sum), in float, half and bfloat16 (stores of 2 bytes; int8 quantisation
stores of 1 byte and 8-byte vectors of 16 bytes each), at serving batch sizes from one decode token
(a single block) to prefill batches of 1-16 K tokens whose working sets pass the 50 MB L2; the
KV-cache writers' scattered stores (a token's key in 16-byte tiles and its value transposed a
block_size apart, slots a permutation); the rotary embedding's gathers of cos/sin rows by random
positions and its in-place pair updates (stride 2 in GPT-J style); MoE bookkeeping on one block
(shared integer atomics, cub's BlockScan, a per-thread count table scanned serially over
__syncthreads rounds, serial per-batch fills); batched gated activations with idle blocks past each
batch's valid tokens; the repetition penalty's (sequence, vocabulary tile) grid sized by the SM
count, byte-mask loads and in-place stores where a mask is set; the split-KV attention-state merge
(16-byte packs, log-sum-exps gathered across a [head, token] layout). Detectron2 adds RoIAlignRotated: a grid-stride loop over at most 4096 blocks
of 512 with bilinear gathers of rotated sampling grids (fixed and data-dependent sample counts).

Sources (each file's header comment: repository, paths, commit, licence and every edit; no kernel
body is changed; licence text in validate/prereg15/LICENSES.md; kernels left out, and why:
validate/prereg15/STATUS.md):
- vllm-project/vllm (Apache-2.0) csrc/, in eight files: vllm_activation.cu, vllm_layernorm.cu,
  vllm_rotary.cu, vllm_cache.cu, vllm_moe.cu, vllm_quant.cu, vllm_sampler.cu (the repetition
  penalty) and vllm_merge_attn.cu (merge_attn_states).
- facebookresearch/detectron2 (Apache-2.0) detectron2/layers/csrc/, in one file:
  d2_roi_align_rotated.cu. Its rotated box IoU and NMS kernels were copied and checked but dropped
  before registration (the engine cannot run their double-precision cos/sin: CUDA's math library
  reads its coefficient table from global memory); its deformable convolution
  (deform_conv_cuda_kernel.cu carries Caffe's copyright notice; Caffe was an earlier set's source)
  was not taken (validate/prereg15/STATUS.md).

Launch shapes follow the library's host code: a block a token of min(d, 1024) threads for the
activations, rms_norm, moe_sum and the int8 quantisers; fused_add_rms_norm's min(hidden, 1024 if
tokens < 256 else 256), width 8 for half and bfloat16 (16-byte aligned rows), 0 for float; the
rotary embedding's min(heads * rot_dim / 2, 512); the cache writers' min(heads * head_size, 512);
(batches, max tokens) blocks for the batched activation; moe_align_block_size's one block of
max(experts, 32) threads ((threads + 1) * experts + experts + 1 ints of dynamic shared memory) when
numel < 1024 and experts <= 64, else one block of 1024 (cdiv(padded experts, 32) * 32 ints); the
batched aligner's one block of 1024; the repetition penalty's (seqs, min(vocab, max(1, cdiv(132,
seqs)))) blocks of min(tile, 1024) (132: the H100's and H200's SMs, which the host asks the device
for); merge_attn_states' cdiv(tokens * heads * head / 4, 128) blocks of 128; Detectron2's
min(cdiv(out, 512), 4096) blocks of 512 for RoIAlignRotated. Every launch is in bounds and
deterministic: slot mappings are permutations (every cache slot written once), positions, top-k
ids and batch token counts randint within range, masks 0 or 1; the only atomics are moe_align's
shared integer counts; bfloat16 buffers are uint16 bit patterns randint(16128, 16256) (values in
[0.5, 1)).

Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): kernels whose loops take their
stride from blockDim, at five blocks over one problem, the grid by the host's formula with the
block in place of its constant: silu_and_mul (half), rms_norm (float), the NeoX rotary embedding
(half), reshape_and_cache (half), the static int8 quantiser (half) and RoIAlignRotated.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, array_arg, scalar_arg

PREREG15_DIR = Path(__file__).parent / "prereg15"
SUITES = {"vllm_": "vllm-project/vllm", "d2_": "facebookresearch/detectron2"}

_i, _i64, _u64, _fs = partial(scalar_arg, "int32"), partial(scalar_arg, "int64"), partial(scalar_arg, "uint64"), \
    partial(scalar_arg, "float32")
_b = partial(scalar_arg, "uint8")   # bool
ACT, NORM, ROPE, CACHE = "vllm_activation.cu", "vllm_layernorm.cu", "vllm_rotary.cu", "vllm_cache.cu"
MOE, QUANT, RAR = "vllm_moe.cu", "vllm_quant.cu", "d2_roi_align_rotated.cu"
SAMPLER, MERGE = "vllm_sampler.cu", "vllm_merge_attn.cu"
SMS = 132   # the H100's and the H200's SM count (apply_repetition_penalties_ asks the device)
K1 = 1024
BF16 = "randint(16128,16256)"   # bfloat16 bit patterns of values in [0.5, 1)
CTYPE = {"f32": "float", "f16": "__half", "bf16": "__nv_bfloat16"}


def _buf(t: str, count: int, init: str = "random") -> str:
    """A buffer of type t (f32, f16, bf16: uint16 bit patterns); zeros stay zeros."""
    if t == "bf16":
        return array_arg("uint16", count, "zeros" if init == "zeros" else BF16)
    return array_arg("float32" if t == "f32" else "float16", count, init)


def _sw(name: str, block: int, size: str, sweep: bool, fallback: str) -> tuple[str, list[str]]:
    return (f"{name}_b{block}_{size}", [f"sweep:{name}"]) if sweep else (fallback, [])


def _half(t: str) -> list[str]:
    return [] if t == "f32" else ["half" if t == "f16" else "bf16"]


# --- vLLM activations (vllm_activation.cu) ----------------------------------------------------------

GATED = {"silu_and_mul": ("silu_kernel", "true"), "mul_and_silu": ("silu_kernel", "false"),
         "gelu_and_mul": ("gelu_kernel", "true"), "gelu_tanh_and_mul": ("gelu_tanh_kernel", "true")}


def _gated(op: str, t: str, tokens: int, d: int, block: int | None = None, sweep: bool = False) -> tuple:
    """act_and_mul_kernel<T, ACT, act_first>: a block a token of min(d, 1024) threads."""
    fn, first = GATED[op]
    c = CTYPE[t]
    block = block or min(d, 1024)
    size = f"{t}_{tokens}x{d}"
    name, extra = _sw(f"vllm_{op}", block, size, sweep, f"vllm_{op}_{size}")
    return (name, ACT, f"vllm::act_and_mul_kernel<{c}, vllm::{fn}<{c}>, {first}>", tokens, block,
            [_buf(t, tokens * d, "zeros"), _buf(t, tokens * 2 * d), _i(d)],
            ["activation", "elementwise", "block-per-row", "transcendental", *_half(t), *extra])


def _fatrelu(t: str, tokens: int, d: int) -> tuple:
    c = CTYPE[t]
    return (f"vllm_fatrelu_and_mul_{t}_{tokens}x{d}", ACT, f"vllm::act_and_mul_kernel_with_param<{c}, vllm::fatrelu_kernel<{c}>>",
            tokens, min(d, 1024), [_buf(t, tokens * d, "zeros"), _buf(t, tokens * 2 * d), _i(d), _fs(0.5)],
            ["activation", "elementwise", "block-per-row", *_half(t)])


def _gelu(op: str, t: str, tokens: int, d: int) -> tuple:
    """activation_kernel<T, gelu_*_kernel<T>>: a block a token of min(d, 1024) threads."""
    c = CTYPE[t]
    return (f"vllm_{op}_{t}_{tokens}x{d}", ACT, f"vllm::activation_kernel<{c}, vllm::{op}_kernel<{c}>>", tokens,
            min(d, 1024), [_buf(t, tokens * d, "zeros"), _buf(t, tokens * d), _i(d)],
            ["activation", "elementwise", "block-per-row", "transcendental", "streaming", *_half(t)])


def _batched_silu(t: str, batches: int, max_tokens: int, d: int) -> tuple:
    """batched_act_and_mul_kernel: (B, max_tokens) blocks of min(d, 1024); valid token counts
    randint(0, max_tokens + 1): blocks past a batch's count return at once."""
    c = CTYPE[t]
    return (f"vllm_batched_silu_and_mul_{t}_{batches}x{max_tokens}x{d}", ACT,
            f"vllm::batched_act_and_mul_kernel<{c}, vllm::silu_kernel<{c}>, true>", (batches, max_tokens), min(d, 1024),
            [_buf(t, batches * max_tokens * d, "zeros"), _buf(t, batches * max_tokens * 2 * d),
             array_arg("int32", batches, f"randint(0,{max_tokens + 1})"), _i(d)],
            ["activation", "moe", "idle-blocks", "2d-grid", "block-per-row", *_half(t)])


# --- vLLM RMS norms (vllm_layernorm.cu) ---------------------------------------------------------------

def _rms(t: str, tokens: int, hidden: int, stride: int | None = None, block: int | None = None,
         sweep: bool = False) -> tuple:
    """rms_norm_kernel<T>: a block a token of min(hidden, 1024); input rows `stride` apart."""
    stride = stride or hidden
    block = block or min(hidden, 1024)
    size = f"{t}_{tokens}x{hidden}{'' if stride == hidden else f'_s{stride}'}"
    name, extra = _sw("vllm_rms_norm", block, size, sweep, f"vllm_rms_norm_{size}")
    return (name, NORM, f"vllm::rms_norm_kernel<{CTYPE[t]}>", tokens, block,
            [_buf(t, tokens * hidden, "zeros"), _buf(t, tokens * stride), _i64(stride), _buf(t, hidden), _fs(1e-6),
             _i(tokens), _i(hidden)],
            ["layernorm", "block-per-row", "reduction", "cub", "syncthreads", *(["strided"] if stride != hidden else []),
             *_half(t), *extra])


def _fused_add_rms(t: str, tokens: int, hidden: int) -> tuple:
    """fused_add_rms_norm_kernel<T, width>: min(hidden, 1024 if tokens < 256 else 256) threads;
    width 8 for half and bfloat16 (aligned, hidden % 8 == 0), 0 for float."""
    width = 0 if t == "f32" else 8
    return (f"vllm_fused_add_rms_norm_{t}_{tokens}x{hidden}", NORM, f"vllm::fused_add_rms_norm_kernel<{CTYPE[t]}, {width}>",
            tokens, min(hidden, 1024 if tokens < 256 else 256),
            [_buf(t, tokens * hidden), _i64(hidden), _buf(t, tokens * hidden), _buf(t, hidden), _fs(1e-6), _i(tokens),
             _i(hidden)],
            ["layernorm", "residual", "in-place", "block-per-row", "reduction", "cub", "syncthreads",
             *(["vector-16B"] if width else []), *_half(t)])


# --- vLLM rotary embedding (vllm_rotary.cu) ------------------------------------------------------------

def _rope(t: str, neox: bool, tokens: int, heads: int, kv_heads: int, head: int, rot: int, max_pos: int = 8192,
          block: int | None = None, sweep: bool = False) -> tuple:
    """rotary_embedding_kernel<T, T, IS_NEOX>: a block a token of min(heads * rot / 2, 512); query
    [tokens, heads * head], key [tokens, kv_heads * head], cos/sin cache [max_pos, rot]."""
    c = CTYPE[t]
    block = block or min(heads * rot // 2, 512)
    style = "neox" if neox else "gptj"
    size = f"{t}_{tokens}t_h{heads}kv{kv_heads}_d{head}_r{rot}"
    name, extra = _sw(f"vllm_rotary_{style}", block, size, sweep, f"vllm_rotary_{style}_{size}")
    return (name, ROPE, f"vllm::rotary_embedding_kernel<{c}, {c}, {'true' if neox else 'false'}>", tokens, block,
            [array_arg("int64", tokens, f"randint(0,{max_pos})"), _buf(t, tokens * heads * head),
             _buf(t, tokens * kv_heads * head), _buf(t, max_pos * rot), _i(rot), _i64(heads * head), _i64(kv_heads * head),
             _i64(head), _i(heads), _i(kv_heads), _i(head), _i64(0), _b(0)],
            ["rope", "gather", "random", "in-place", "block-per-row", *([] if neox else ["strided"]), *_half(t), *extra])


# --- vLLM KV-cache writers (vllm_cache.cu) -------------------------------------------------------------

def _reshape_cache(t: str, tokens: int, heads: int, head: int, bs: int, block: int | None = None,
                   sweep: bool = False) -> tuple:
    """reshape_and_cache_kernel<T, T, kAuto>: a block a token of min(heads * head, 512); x = 16 /
    sizeof(T); as many cache slots as tokens, the slot mapping a permutation."""
    c, x = CTYPE[t], 16 // (4 if t == "f32" else 2)
    n = tokens * heads * head
    block = block or min(heads * head, 512)
    size = f"{t}_{tokens}t_h{heads}_d{head}_bs{bs}"
    name, extra = _sw("vllm_reshape_and_cache", block, size, sweep, f"vllm_reshape_and_cache_{size}")
    return (name, CACHE, f"vllm::reshape_and_cache_kernel<{c}, {c}, vllm::Fp8KVCacheDataType::kAuto>", tokens, block,
            [_buf(t, n), _buf(t, n), _buf(t, n, "zeros"), _buf(t, n, "zeros"), array_arg("int64", tokens, "permutation"),
             _i(heads * head), _i(heads * head), _i(heads), _i(head), _i(bs), _i(x), _fs(1.0), _fs(1.0)],
            ["kv-cache", "scatter", "random", "partial-sectors", "block-per-row", *_half(t), *extra])


def _reshape_cache_flash(t: str, tokens: int, heads: int, head: int, bs: int) -> tuple:
    """reshape_and_cache_flash_kernel<T, T, kAuto>: [blocks, bs, heads, head] caches."""
    c, n = CTYPE[t], tokens * heads * head
    return (f"vllm_reshape_and_cache_flash_{t}_{tokens}t_h{heads}_d{head}_bs{bs}", CACHE,
            f"vllm::reshape_and_cache_flash_kernel<{c}, {c}, vllm::Fp8KVCacheDataType::kAuto>", tokens, min(heads * head, 512),
            [_buf(t, n), _buf(t, n), _buf(t, n, "zeros"), _buf(t, n, "zeros"), array_arg("int64", tokens, "permutation"),
             _i(bs * heads * head), _i(heads * head), _i(heads * head), _i(heads), _i(head), _i(bs), _fs(1.0), _fs(1.0)],
            ["kv-cache", "scatter", "random", "block-per-row", *_half(t)])


# --- vLLM MoE bookkeeping (vllm_moe.cu) ----------------------------------------------------------------

def _moe_align(tokens: int, topk: int, experts: int, bs: int) -> tuple:
    """moe_align_block_size: numel < 1024 and experts <= 64: the small-batch kernel, one block of
    max(experts, 32); else moe_align_block_size_kernel, one block of 1024. The buffers as vLLM's
    Python side sizes them: numel + experts * (bs - 1) sorted ids, cdiv of it by bs expert ids."""
    numel = tokens * topk
    padded = numel + experts * (bs - 1)
    ids = array_arg("int32", numel, f"randint(0,{experts})")
    out = [array_arg("int32", padded, "zeros"), array_arg("int32", _cdiv(padded, bs), "zeros"), array_arg("int32", 1, "zeros")]
    name = f"vllm_moe_align_{tokens}t_k{topk}_e{experts}_bs{bs}"
    if numel < 1024 and experts <= 64:
        threads = max(experts, 32)
        return (name, MOE, "vllm::moe::moe_align_block_size_small_batch_expert_kernel<int32_t>", 1, threads,
                [ids, *out, _i(experts), _i(bs), _u64(numel), _i(padded)],
                ["moe", "one-block", "shared", "syncthreads", "serial-loop", "scatter", "tiny"],
                ((threads + 1) * experts + experts + 1) * 4)
    padded_experts = _cdiv(experts, 32) * 32
    return (name, MOE, "vllm::moe::moe_align_block_size_kernel<int32_t>", 1, 1024,
            [ids, *out, _i(experts), _i(padded_experts), _i(32), _i(bs), _u64(numel), array_arg("int32", experts + 1, "zeros"),
             _i(padded)],
            ["moe", "one-block", "shared", "atomics", "cub", "scan", "syncthreads"], padded_experts * 4)


def _batched_align(batches: int, max_tokens: int, bs: int) -> tuple:
    """batched_moe_align_block_size_kernel: one block of 1024; B * max(bs, max_tokens) sorted ids."""
    size = batches * max(bs, max_tokens)
    return (f"vllm_batched_moe_align_b{batches}x{max_tokens}_bs{bs}", MOE, "vllm::moe::batched_moe_align_block_size_kernel", 1,
            1024, [_i(batches), _i(max_tokens), _i(bs), array_arg("int32", batches, f"randint(0,{max_tokens + 1})"),
                   array_arg("int32", size, "zeros"), array_arg("int32", size // bs, "zeros"), array_arg("int32", 1, "zeros")],
            ["moe", "one-block", "cub", "scan", "serial-loop", "few-warps"])


def _moe_sum(t: str, topk: int, tokens: int, d: int) -> tuple:
    c = CTYPE[t]
    return (f"vllm_moe_sum_{t}_k{topk}_{tokens}x{d}", MOE, f"vllm::moe::moe_sum_kernel<{c}, {topk}>", tokens, min(d, 1024),
            [_buf(t, tokens * d, "zeros"), _buf(t, tokens * topk * d), _i(d)],
            ["moe", "reduction", "elementwise", "block-per-row", "streaming", *_half(t)])


# --- vLLM int8 quantisation (vllm_quant.cu) ------------------------------------------------------------

def _quant(kind: str, t: str, tokens: int, hidden: int, block: int | None = None, sweep: bool = False) -> tuple:
    """static / azp / dynamic int8 quantisers: a block a token of min(hidden, 1024) threads."""
    c = CTYPE[t]
    block = block or min(hidden, 1024)
    size = f"{t}_{tokens}x{hidden}"
    x, out = _buf(t, tokens * hidden), array_arg("int8", tokens * hidden, "zeros")
    if kind == "static":
        name, extra = _sw("vllm_static_int8_quant", block, size, sweep, f"vllm_static_int8_quant_{size}")
        return (name, QUANT, f"vllm::static_scaled_int8_quant_kernel<{c}, float>", tokens, block,
                [x, out, array_arg("float32", 1, "randint(1,2)"), _i(hidden)],
                ["quantize", "int8", "byte-stores", "vector-8B", "block-per-row", *_half(t), *extra])
    if kind == "azp":
        return (f"vllm_static_int8_azp_quant_{size}", QUANT, f"vllm::static_scaled_int8_azp_quant_kernel<{c}, float, int32_t>",
                tokens, block, [x, out, array_arg("float32", 1, "randint(1,2)"), array_arg("int32", 1, "randint(-8,8)"), _i(hidden)],
                ["quantize", "int8", "byte-stores", "block-per-row", *_half(t)])
    if kind == "dynamic_azp":
        return (f"vllm_dynamic_int8_azp_quant_{size}", QUANT, f"vllm::dynamic_scaled_int8_azp_quant_kernel<{c}, float, int32_t>",
                tokens, block, [x, out, array_arg("float32", tokens, "zeros"), array_arg("int32", tokens, "zeros"), _i(hidden)],
                ["quantize", "int8", "byte-stores", "block-per-row", "reduction", "cub", "syncthreads", *_half(t)])
    return (f"vllm_dynamic_int8_quant_{size}", QUANT, f"vllm::dynamic_scaled_int8_quant_kernel<{c}, float>", tokens, block,
            [x, out, array_arg("float32", tokens, "zeros"), _i(hidden)],
            ["quantize", "int8", "byte-stores", "vector-8B", "block-per-row", "reduction", "cub", "syncthreads", *_half(t)])


# --- vLLM sampler and attention-state merge (vllm_sampler.cu, vllm_merge_attn.cu) --------------------

def _rep_penalty(seqs: int, vocab: int, prompt: str, output: str) -> tuple:
    """apply_repetition_penalties_kernel<float>: (seqs, tile_num) blocks of min(tile, 1024), tile_num
    = min(vocab, max(1, cdiv(SMs, seqs))), tile = cdiv(vocab, tile_num); bool masks (uint8 0/1),
    penalties 1 or 2; logits scaled in place where either mask is set."""
    tiles = min(vocab, max(1, _cdiv(SMS, seqs)))
    tile = _cdiv(vocab, tiles)
    n = seqs * vocab
    return (f"vllm_repetition_penalty_{seqs}x{vocab}", SAMPLER, "vllm::apply_repetition_penalties_kernel<float>", (seqs, tiles),
            min(tile, 1024), [array_arg("float32", n), array_arg("uint8", n, prompt), array_arg("uint8", n, output),
                              array_arg("float32", seqs, "randint(1,3)"), _i(seqs), _i(vocab), _i(tile)],
            ["sampling", "in-place", "byte-loads", "sparse-stores", "2d-grid", *(["few-blocks"] if seqs * tiles <= 132 else [])])


def _merge_attn(tokens: int, heads: int, head: int) -> tuple:
    """merge_attn_states_kernel<float, 128>: cdiv(tokens * heads * head / 4, 128) blocks of 128,
    a thread a 16-byte pack; log-sum-exps [heads, tokens] random."""
    n = tokens * heads * head
    return (f"vllm_merge_attn_states_f32_{tokens}t_h{heads}_d{head}", MERGE, "vllm::merge_attn_states_kernel<float, 128>",
            _cdiv(n // 4, 128), 128,
            [array_arg("float32", n, "zeros"), array_arg("float32", heads * tokens, "zeros"), array_arg("float32", n),
             array_arg("float32", heads * tokens), array_arg("float32", n), array_arg("float32", heads * tokens),
             scalar_arg("uint32", tokens), scalar_arg("uint32", heads), scalar_arg("uint32", head)],
            ["attention", "vector-16B", "transposed-gather", "elementwise", "transcendental"])


# --- Detectron2 RoIAlignRotated (d2_roi_align_rotated.cu) --------------------------------------------

def _roi_align_rotated(rois: int, c: int, side: int, pooled: int, ratio: int, block: int = 512,
                       sweep: bool = False) -> tuple:
    """RoIAlignRotatedForward<float>: min(cdiv(out, 512), 4096) blocks of 512. The rois [R, 6]
    random in [0, 1): batch index 0, centre and sides within the map (spatial_scale = side),
    angles below one degree."""
    out = rois * c * pooled * pooled
    size = f"{rois}r_c{c}_{side}x{side}_p{pooled}_s{ratio}"
    name, extra = _sw("d2_roi_align_rotated", block, size, sweep, f"d2_roi_align_rotated_{size}")
    return (name, RAR, "detectron2::RoIAlignRotatedForward<float>", min(_cdiv(out, block), 4096), block,
            [_i(out), array_arg("float32", c * side * side), _fs(float(side)), _i(c), _i(side), _i(side), _i(pooled),
             _i(pooled), _i(ratio), array_arg("float32", rois * 6), array_arg("float32", out, "zeros")],
            ["roi", "bilinear", "gather", "grid-stride", *(["data-dependent-loop"] if ratio == 0 else []), *extra])


BLOCKS = (64, 128, 256, 512, 1024)
LAUNCHES: list[tuple] = [
    # --- vLLM activations (vllm_activation.cu): Llama-2/3 and Mixtral MLP widths, prefill to decode
    _gated("silu_and_mul", "f16", 1024, 11008), _gated("silu_and_mul", "bf16", 512, 14336),
    _gated("silu_and_mul", "f16", 8, 4096), _gated("silu_and_mul", "f32", 1, 11008),
    _gated("mul_and_silu", "f32", 512, 4096), _gated("gelu_and_mul", "f16", 1024, 4096),
    _gated("gelu_tanh_and_mul", "bf16", 512, 8192),
    _fatrelu("f32", 1024, 2048),
    _gelu("gelu_new", "f32", 4096, 3072), _gelu("gelu_fast", "f16", 2048, 4096), _gelu("gelu_quick", "bf16", 1024, 3072),
    _batched_silu("f16", 8, 256, 2048),
    # --- vLLM RMS norms (vllm_layernorm.cu)
    _rms("f16", 4096, 4096), _rms("bf16", 1024, 8192), _rms("f16", 8, 4096), _rms("f32", 1, 5120),
    _rms("f16", 2048, 128, 384),
    _fused_add_rms("f16", 2048, 4096), _fused_add_rms("bf16", 128, 8192), _fused_add_rms("f32", 1024, 4096),
    _fused_add_rms("f16", 4, 4096),
    # --- vLLM rotary embedding (vllm_rotary.cu): Llama GQA, GPT-NeoX, GPT-J's partial rotary
    _rope("f16", True, 4096, 32, 8, 128, 128), _rope("f32", True, 1024, 32, 32, 128, 128),
    _rope("f16", False, 2048, 16, 16, 256, 64),
    _rope("bf16", True, 8, 32, 8, 128, 128),
    # --- vLLM KV-cache writers (vllm_cache.cu)
    _reshape_cache("f16", 8192, 8, 128, 16), _reshape_cache("f32", 2048, 32, 128, 16), _reshape_cache("f16", 16, 32, 128, 16),
    _reshape_cache_flash("f16", 8192, 8, 128, 16),
    _reshape_cache_flash("f16", 8, 8, 128, 16),
    # --- vLLM MoE bookkeeping (vllm_moe.cu): Mixtral (8 experts, top-2), DeepSeek-like (64, top-6),
    # Qwen3-MoE (128, top-8)
    _moe_align(64, 2, 8, 16), _moe_align(128, 6, 64, 64), _moe_align(1, 2, 8, 16),
    _moe_align(4096, 8, 128, 64), _moe_align(16384, 2, 8, 128),
    _batched_align(32, 256, 16), _batched_align(8, 1024, 64),
    _moe_sum("f32", 2, 2048, 4096), _moe_sum("f32", 4, 512, 2048), _moe_sum("f16", 2, 1024, 7168),
    # --- vLLM int8 quantisation (vllm_quant.cu)
    _quant("static", "f16", 4096, 4096), _quant("static", "f32", 2048, 5120), _quant("static", "f16", 512, 4104),
    _quant("azp", "f32", 1024, 4096),
    _quant("dynamic", "f16", 2048, 4096), _quant("dynamic", "f32", 512, 8192), _quant("dynamic", "f16", 4, 4096),
    _quant("dynamic_azp", "f16", 1024, 4096), _quant("dynamic_azp", "f32", 8, 2048),
    # --- vLLM sampler and attention-state merge (vllm_sampler.cu, vllm_merge_attn.cu): Llama-2's,
    # Llama-3's and Qwen2's vocabularies; Llama-like heads
    _rep_penalty(256, 32000, "randint(0,2)", "zeros"), _rep_penalty(8, 128256, "randint(0,2)", "randint(0,2)"),
    _rep_penalty(1, 151936, "zeros", "randint(0,2)"),
    _merge_attn(2048, 32, 128), _merge_attn(512, 16, 64), _merge_attn(8, 32, 128),
    # --- Detectron2 rotated RoIAlign (d2_roi_align_rotated.cu)
    _roi_align_rotated(128, 256, 64, 7, 2), _roi_align_rotated(64, 64, 32, 14, 2), _roi_align_rotated(32, 128, 48, 7, 0),
    _roi_align_rotated(4, 16, 32, 7, 2),
    # (box_iou_rotated_cuda_kernel's three launches, 512 x 512, 1000 x 300 and 64 x 16 boxes, and
    # nms_rotated_cuda_kernel's three, 512, 200 and 64 boxes, were dropped with their file: the
    # engine cannot run the double-precision cos/sin of single_box_iou_rotated, whose CUDA math
    # library reads a coefficient table in global memory, validate/prereg15/STATUS.md)
    # --- sweeps: five blocks over one problem
    *[_gated("silu_and_mul", "f16", 256, 4096, b, True) for b in BLOCKS],
    *[_rms("f32", 1024, 4096, None, b, True) for b in BLOCKS],
    *[_rope("f16", True, 1024, 32, 8, 128, 128, 8192, b, True) for b in BLOCKS],
    *[_reshape_cache("f16", 2048, 8, 128, 16, b, True) for b in BLOCKS],
    *[_quant("static", "f16", 1024, 4096, b, True) for b in BLOCKS],
    *[_roi_align_rotated(64, 128, 32, 7, 2, b, True) for b in BLOCKS],
]


PREREG15 = PreregSet("prereg15", PREREG15_DIR, SUITES, LAUNCHES)


def prereg15_cases() -> list[Case]:
    """The fifteenth pre-registered set's launches as cases (set `prereg15`)."""
    return PREREG15.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG15.write_registry()}")
