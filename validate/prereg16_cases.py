"""The sixteenth pre-registered set (`validate run --cases prereg16`): public CUDA kernels of two
repositories this project had never used (NVIDIA/FasterTransformer, NVIDIA/apex), copied into
validate/prereg16/*.cu, whose launches were fixed, and recorded on the H100 and the H200 into
sealed folders, before any prediction of them was committed. Held out of every fit
(validate.families), like the first fifteen sets; built with the same machinery
(validate.prereg_cases.PreregSet). Change no launch once it is registered.

This set favours transformer pre- and post-processing and training-side normalisation:
FasterTransformer's BERT preprocessing (the padding offsets built serially by one thread of a
<<<1, 1>>> launch, TensorRT's offsets by thread 0 of one block into shared memory, the [batch, 1,
seq, seq] encoder mask written in float or half, the remove/rebuild padding row copies gathered
and scattered by the offsets, T5's relative attention bias: a block a head, logf bucket indices,
gathers from a small table) and its decoding helpers (decodingInitialize's 1-byte `finished`
stores, the embedding lookup with position encoding gathering rows by token id, the vocabulary
padding of the embedding, the sequence-length updates launched with the host's grid and block
swapped: blocks of 1-256 threads, 1-byte flag loads); apex's Megatron fused softmax (a warp a row,
rows held in registers up to 8192 keys, uint8 masks, 8-byte half vectors, half stores) and its
synchronized batch norm for NCHW tensors (sequential Welford per channel, Kahan sums, block
reductions, (C, batch, spatial) grids striding over N and H*W, a grid-stride merge of per-process
statistics), in float and half.

Sources (each file's header comment: repository, paths, commit, licence and every edit; no kernel
body is changed; licence texts in validate/prereg16/LICENSES.md; kernels left out, and why:
validate/prereg16/STATUS.md):
- NVIDIA/FasterTransformer (Apache-2.0) src/fastertransformer/kernels/, in two files:
  ft_bert_preprocess.cu and ft_decoding.cu.
- NVIDIA/apex (BSD-3-Clause) csrc/, in two files: apex_softmax.cu (csrc/megatron/
  scaled_masked_softmax.h, under its own Apache-2.0 header) and apex_welford.cu.

Launch shapes follow each library's host code: <<<1, 1>>> for getPaddingOffsetAndCuSeqLens;
one block of 256 (batch + 1 ints of dynamic shared memory) for getTrtPaddingOffset; a block a
sequence of 256 for the encoder mask; a block a token of 256 for remove/rebuild padding; a block
a head of 256 for the relative attention bias; cdiv(batch * beam, 256) blocks of 256 for
decodingInitialize; min(tokens, 65536) blocks of min(hidden, 1024) for the embedding lookup;
cdiv(hidden * padded vocab, 512) blocks of 512 for the embedding padding; <<<min(256, n),
ceil(n / 256)>>> (grid and block as the host passes them) for the sequence-length updates and
plusScalar; (query / rows a block, heads, batches) blocks of (warp, 128 / warp) for the forward
softmaxes and batch_count / rows a block blocks for the backward, warp = min(2^log2_elements, 32),
two rows a warp up to 128 keys; a block a channel of (min(512 / by, lastpow2(HW)), by =
min(lastpow2(N), 16)) for welford_kernel and reduce_bn_kernel; (C, max(1, lastpow2(N) / by),
max(1, lastpow2(HW) / 4 / bx)) blocks of (bx = max(32, min(512, lastpow2(HW) / 4)), by = max(1,
min(512 / bx, lastpow2(N) / 4))) for batchnorm_forward and batchnorm_backward; max(1, C / block)
blocks of min(lastpow2(C), 512) for welford_kernel_parallel. Every launch is in bounds and
deterministic: sequence lengths, token ids and padding counts randint within range; padding
offsets arange (offset i = i: rows 2i of a half-padded batch, so every scattered row has one
writer); masks and flags 0 or 1; no atomics.

Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): kernels whose loops take their
stride from blockDim, at five blocks over one problem, the grid by the host's formula with the
block in place of its constant: remove_padding (half), the encoder mask (float), the embedding
lookup (half), the masked softmax (threads_per_block 32-512 in place of 128), welford_kernel and
batchnorm_forward (MAX_BLOCK_SIZE 64-1024 in place of 512).
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, array_arg, scalar_arg

PREREG16_DIR = Path(__file__).parent / "prereg16"
SUITES = {"ft_": "NVIDIA/FasterTransformer", "apex_": "NVIDIA/apex"}

_i, _i64, _fs = partial(scalar_arg, "int32"), partial(scalar_arg, "int64"), partial(scalar_arg, "float32")
_b = partial(scalar_arg, "uint8")   # bool
BERT, DEC, SOFTMAX, WELFORD = "ft_bert_preprocess.cu", "ft_decoding.cu", "apex_softmax.cu", "apex_welford.cu"
FT = "fastertransformer::"
CTYPE = {"f32": "float", "f16": "half"}
BLOCKS = (64, 128, 256, 512, 1024)


def _buf(t: str, count: int, init: str = "random") -> str:
    return array_arg("float32" if t == "f32" else "float16", count, init)


def _sw(name: str, block: int, size: str, sweep: bool, fallback: str) -> tuple[str, list[str]]:
    return (f"{name}_b{block}_{size}", [f"sweep:{name}"]) if sweep else (fallback, [])


def _half(t: str) -> list[str]:
    return ["half"] if t == "f16" else []


def _lastpow2(n: int) -> int:
    """apex's h_last_pow2: the largest power of two not above n."""
    return 1 << (n.bit_length() - 1)


# --- FasterTransformer BERT preprocessing (ft_bert_preprocess.cu) -------------------------------------

def _padding_offset(batch: int, seq: int) -> tuple:
    """getPaddingOffsetAndCuSeqLensKernel<<<1, 1>>>: lengths randint(1, seq + 1)."""
    return (f"ft_get_padding_offset_b{batch}_s{seq}", BERT, f"{FT}getPaddingOffsetAndCuSeqLensKernel", 1, 1,
            [array_arg("uint64", 1, "zeros"), array_arg("int32", batch * seq, "zeros"), array_arg("int32", batch + 1, "zeros"),
             array_arg("int32", batch, f"randint(1,{seq + 1})"), _i(batch), _i(seq)],
            ["one-thread", "serial-loop", "latency", "scan", "tiny"])


def _trt_offset(batch: int) -> tuple:
    """getTrtPaddingOffsetKernel (removing the padding): one block of 256, batch + 1 shared ints."""
    return (f"ft_trt_padding_offset_b{batch}", BERT, f"{FT}getTrtPaddingOffsetKernel", 1, 256,
            [array_arg("int32", batch + 1, "zeros"), array_arg("int32", batch, "randint(1,513)"), _i(batch)],
            ["one-block", "serial-loop", "shared", "syncthreads", "latency", "scan"], 4 * (batch + 1))


def _mask(t: str, batch: int, seq: int, block: int = 256, sweep: bool = False) -> tuple:
    """buildEncoderAttentionMaskKernel<T>: a block a sequence of 256, [batch, 1, seq, seq] stores."""
    size = f"{t}_b{batch}_s{seq}"
    name, extra = _sw("ft_build_encoder_mask", block, size, sweep, f"ft_build_encoder_mask_{size}")
    return (name, BERT, f"{FT}buildEncoderAttentionMaskKernel<{CTYPE[t]}>", batch, block,
            [_buf(t, batch * seq * seq, "zeros"), array_arg("int32", batch, f"randint(1,{seq + 1})"), _i(seq)],
            ["mask", "write-heavy", "block-per-row", "divergence", *_half(t), *extra])


def _padding_copy(op: str, t: str, tokens: int, hidden: int, block: int = 256, sweep: bool = False) -> tuple:
    """remove_padding / rebuild_sequence_length_padding<T>: a block a token of 256; the padded
    tensor holds 2 * tokens rows, offsets arange (token i is padded row 2i)."""
    c, packed, padded = CTYPE[t], _buf(t, tokens * hidden, "zeros"), _buf(t, 2 * tokens * hidden)
    offsets = array_arg("int32", tokens, "arange")
    size = f"{t}_{tokens}x{hidden}"
    if op == "remove":
        name, extra = _sw("ft_remove_padding", block, size, sweep, f"ft_remove_padding_{size}")
        return (name, BERT, f"{FT}remove_padding<{c}>", tokens, block, [packed, padded, offsets, _i(hidden)],
                ["padding", "gather", "copy", "block-per-row", *_half(t), *extra])
    return (f"ft_rebuild_padding_{size}", BERT, f"{FT}rebuild_sequence_length_padding<{c}>", tokens, block,
            [_buf(t, tokens * hidden), _buf(t, 2 * tokens * hidden, "zeros"), offsets, _i(hidden)],
            ["padding", "scatter", "copy", "block-per-row", *_half(t)])


def _rel_bias(t: str, heads: int, seq: int, bidirectional: int, buckets: int = 32, max_distance: int = 128) -> tuple:
    """buildRelativeAttentionBias<T>: a block a head of 256 over seq^2 positions."""
    return (f"ft_relative_attention_bias_{t}_h{heads}_s{seq}{'' if bidirectional else '_causal'}", BERT,
            f"{FT}buildRelativeAttentionBias<{CTYPE[t]}>", heads, 256,
            [_buf(t, heads * seq * seq, "zeros"), _buf(t, heads * buckets), _i(heads), _i(seq), _i(buckets),
             _b(bidirectional), _i(max_distance)],
            ["attention", "gather", "broadcast", "transcendental", "write-heavy", *_half(t)])


# --- FasterTransformer decoding helpers (ft_decoding.cu) ---------------------------------------------

def _decoding_init(t: str, batch: int, beam: int) -> tuple:
    """decodingInitialize<T>: cdiv(batch * beam, 256) blocks of 256 (grid-stride loop)."""
    n = batch * beam
    return (f"ft_decoding_initialize_{t}_b{batch}_k{beam}", DEC, f"{FT}decodingInitialize<{CTYPE[t]}>", _cdiv(n, 256), 256,
            [array_arg("uint8", n, "zeros"), array_arg("int32", n, "zeros"), array_arg("int32", n, "zeros"),
             _buf(t, n, "zeros"), array_arg("int32", batch, "randint(0,32000)"), _i(batch), _i(beam), _i(64)],
            ["decoding", "byte-stores", "grid-stride", "elementwise", *(["tiny"] if n <= 256 else []), *_half(t)])


def _embedding(t: str, tokens: int, hidden: int, vocab: int, step: int, max_len: int = 2048, block: int | None = None,
               sweep: bool = False) -> tuple:
    """embeddingLookupPosEncoding<T>: min(tokens, 65536) blocks of min(hidden, 1024); ids
    randint(0, vocab), padding counts randint(0, step + 1) (so step - count is a valid position)."""
    block = block or min(hidden, 1024)
    size = f"{t}_{tokens}x{hidden}_v{vocab}"
    name, extra = _sw("ft_embedding_lookup_pos", block, size, sweep, f"ft_embedding_lookup_pos_{size}")
    return (name, DEC, f"{FT}embeddingLookupPosEncoding<{CTYPE[t]}>", min(tokens, 65536), block,
            [_buf(t, tokens * hidden, "zeros"), _buf(t, vocab * hidden), _buf(t, max_len * hidden),
             array_arg("int32", (step + 1) * tokens, f"randint(0,{vocab})"), array_arg("int32", tokens, f"randint(0,{step + 1})"),
             array_arg("int32", tokens, f"randint(1,{max_len})"), _i(tokens), _i64(hidden), _i(step), _i(max_len), _i(tokens),
             _i(0), scalar_arg("float32" if t == "f32" else "float16", 0.5)],
            ["embedding", "gather", "random", "grid-stride", "block-per-row", *_half(t), *extra])


def _pad_embedding(kind: str, t: str, hidden: int, vocab: int, padded: int) -> tuple:
    """paddingEmbedding / paddingEmbeddingKernel<T>: cdiv(hidden * padded, 512) blocks of 512."""
    c = CTYPE[t]
    grid = _cdiv(hidden * padded, 512)
    if kind == "bias":
        return (f"ft_padding_embedding_{t}_h{hidden}_v{vocab}", DEC, f"{FT}paddingEmbedding<{c}>", grid, 512,
                [_buf(t, hidden * padded, "zeros"), _buf(t, padded, "zeros"), _buf(t, hidden * vocab), _buf(t, vocab),
                 _i64(hidden), _i64(vocab), _i64(padded)],
                ["copy", "padding", "grid-stride", "misaligned-rows", *_half(t)])
    return (f"ft_padding_embedding_kernel_{t}_h{hidden}_v{vocab}", DEC, f"{FT}paddingEmbeddingKernel<{c}>", grid, 512,
            [_buf(t, hidden * padded, "zeros"), _buf(t, hidden * vocab), _i(hidden), _i(vocab), _i(padded)],
            ["copy", "padding", "grid-stride", "streaming", *_half(t)])


def _seqlen(op: str, n: int) -> tuple:
    """minus/plusUnfinishedSeqlen: <<<min(256, n), ceil(n / 256)>>> as the host passes them (its
    block(min(256, n)) and grid(ceil(n / 256.)) given in swapped order)."""
    return (f"ft_{op}_unfinished_seqlen_{n}", DEC, f"{FT}{op}UnfinishedSeqlen", min(256, n), _cdiv(n, 256),
            [array_arg("int32", n, "randint(1,100)"), array_arg("uint8", n, "randint(0,2)"), _i(n)],
            ["decoding", "byte-loads", "in-place", "sparse-stores", "tiny-block", *(["tiny"] if n <= 4096 else [])])


def _plus_scalar(n: int) -> tuple:
    return (f"ft_plus_scalar_int_{n}", DEC, f"{FT}plusScalar<int>", min(256, n), _cdiv(n, 256),
            [array_arg("int32", n, "randint(0,1000)"), _i(1), _i(n)], ["elementwise", "in-place", "int32"])


# --- apex Megatron softmax (apex_softmax.cu) -------------------------------------------------------

def _softmax_shape(keys: int, threads: int = 128) -> tuple[int, int, int]:
    log2 = (keys - 1).bit_length()
    warp = min(1 << log2, 32)
    rows_per_block = (threads // warp) * (2 if (1 << log2) <= 128 else 1)
    return log2, warp, rows_per_block


def _softmax(kind: str, batches: int, heads: int, query: int, keys: int, pad_batches: int = 0, threads: int = 128,
             sweep: bool = False) -> tuple:
    """scaled / scaled_masked softmax forward: (query / rows a block, heads, batches) blocks of
    (warp, threads / warp); the backward: batch_count / rows a block blocks. Half in and out."""
    log2, warp, rows = _softmax_shape(keys, threads)
    n, count = batches * heads * query * keys, batches * heads * query
    h = "__half, __half, float"   # c10::Half is __half here; ncu writes __half
    size = f"b{batches}h{heads}_{query}x{keys}"
    tags = ["softmax", "attention", "warp-per-row", "shfl", "transcendental", "half"]
    if kind == "scaled":
        return (f"apex_scaled_softmax_{size}", SOFTMAX, f"scaled_softmax_warp_forward<{h}, {log2}>",
                (query // rows, heads, batches), (warp, threads // warp),
                [_buf("f16", n, "zeros"), _buf("f16", n), _fs(0.125), _i(count), _i(keys)],
                [*tags, *(["two-rows-a-warp"] if keys <= 128 else []), *(["long-rows"] if keys >= 4096 else [])])
    if kind == "masked":
        style = "bert" if pad_batches == batches else "gpt2"
        name, extra = _sw("apex_scaled_masked_softmax", threads, f"{style}_{size}", sweep,
                          f"apex_scaled_masked_softmax_{style}_{size}")
        return (name, SOFTMAX, f"scaled_masked_softmax_warp_forward<{h}, {log2}>", (query // rows, heads, batches),
                (warp, threads // warp),
                [_buf("f16", n, "zeros"), _buf("f16", n), array_arg("uint8", pad_batches * query * keys, "randint(0,2)"),
                 _fs(0.125), _i(count), _i(keys), _i(pad_batches)],
                [*tags, "mask", "byte-loads", "broadcast", *extra])
    return (f"apex_scaled_masked_softmax_backward_{size}", SOFTMAX, f"scaled_masked_softmax_warp_backward<{h}, {log2}>",
            count // rows, (warp, threads // warp),
            [_buf("f16", n, "zeros"), _buf("f16", n), _buf("f16", n), _fs(0.125), _i(count), _i(keys)],
            [*tags, "backward"])


# --- apex synchronized batch norm (apex_welford.cu) ------------------------------------------------

def _stat_block(n: int, hw: int, max_block: int = 512) -> tuple[int, int]:
    by = min(_lastpow2(n), max_block // 32)
    return max(1, min(max_block // by, _lastpow2(hw))), by


def _elementwise_shape(n: int, c: int, hw: int, max_block: int = 512) -> tuple[tuple, tuple]:
    bx = max(32, min(max_block, _lastpow2(hw) // 4))
    by = max(1, min(max_block // bx, _lastpow2(n) // 4))
    gz = max(1, min(65535, _lastpow2(hw) // 4 // bx))
    return (c, max(1, min(65535, _lastpow2(n) // by)), gz), (bx, by)


def _types(t: str) -> str:
    return f"{'__half' if t == 'f16' else 'float'}, float, float"


def _welford(t: str, n: int, c: int, hw: int, max_block: int = 512, sweep: bool = False) -> tuple:
    """welford_kernel<T, float, float>: a block a channel."""
    size = f"{t}_n{n}c{c}hw{hw}"
    name, extra = _sw("apex_welford", max_block, size, sweep, f"apex_welford_{size}")
    return (name, WELFORD, f"welford_kernel<{_types(t)}>", c, _stat_block(n, hw, max_block),
            [_buf(t, n * c * hw), array_arg("float32", c, "zeros"), array_arg("float32", c, "zeros"), _i(n), _i(c), _i(hw)],
            ["batchnorm", "welford", "reduction", "block-per-row", "strided", "syncthreads", "shfl", *_half(t), *extra])


def _bn_forward(t: str, n: int, c: int, hw: int, max_block: int = 512, sweep: bool = False) -> tuple:
    grid, block = _elementwise_shape(n, c, hw, max_block)
    size = f"{t}_n{n}c{c}hw{hw}"
    name, extra = _sw("apex_batchnorm_forward", max_block, size, sweep, f"apex_batchnorm_forward_{size}")
    return (name, WELFORD, f"batchnorm_forward_kernel<{_types(t)}>", grid, block,
            [_buf(t, n * c * hw), array_arg("float32", c), array_arg("float32", c), array_arg("float32", c),
             array_arg("float32", c), _buf(t, n * c * hw, "zeros"), _i(hw), _i(n)],
            ["batchnorm", "elementwise", "3d-grid", "grid-stride", "broadcast", *_half(t), *extra])


def _reduce_bn(t: str, n: int, c: int, hw: int) -> tuple:
    return (f"apex_reduce_bn_{t}_n{n}c{c}hw{hw}", WELFORD, f"reduce_bn_kernel<{_types(t)}>", c, _stat_block(n, hw),
            [_buf(t, n * c * hw), _buf(t, n * c * hw), array_arg("float32", c), array_arg("float32", c),
             *[array_arg("float32", c, "zeros") for _ in range(4)], _i(n), _i(c), _i(hw)],
            ["batchnorm", "backward", "reduction", "kahan", "block-per-row", "strided", "syncthreads", "shfl", *_half(t)])


def _bn_backward(t: str, n: int, c: int, hw: int, world: int = 2) -> tuple:
    grid, block = _elementwise_shape(n, c, hw)
    return (f"apex_batchnorm_backward_{t}_n{n}c{c}hw{hw}", WELFORD, f"batchnorm_backward_kernel<{_types(t)}>", grid, block,
            [_buf(t, n * c * hw), _buf(t, n * c * hw), *[array_arg("float32", c) for _ in range(5)],
             array_arg("int32", world, "randint(1000,2000)"), _buf(t, n * c * hw, "zeros"), _i64(world), _i(hw), _i(n)],
            ["batchnorm", "backward", "elementwise", "3d-grid", "grid-stride", "broadcast", *_half(t)])


def _welford_parallel(world: int, c: int) -> tuple:
    """welford_kernel_parallel<float>: max(1, C / block) blocks of min(lastpow2(C), 512)."""
    block = min(_lastpow2(c), 512)
    return (f"apex_welford_parallel_w{world}_c{c}", WELFORD, "welford_kernel_parallel<float>", max(1, c // block), block,
            [array_arg("float32", world * c), array_arg("float32", world * c), array_arg("int32", world, "randint(100,1000)"),
             *[array_arg("float32", c, "zeros") for _ in range(3)], _i(world), _i(c), _fs(1e-5)],
            ["batchnorm", "welford", "grid-stride", "serial-loop", "strided", "few-blocks"])


LAUNCHES: list[tuple] = [
    # --- FasterTransformer BERT preprocessing (ft_bert_preprocess.cu): BERT-base/large batches
    _padding_offset(8, 128), _padding_offset(64, 512), _padding_offset(1, 32),
    _trt_offset(8), _trt_offset(256), _trt_offset(4096),
    _mask("f32", 32, 512), _mask("f16", 64, 512), _mask("f32", 8, 128), _mask("f16", 128, 256),
    _padding_copy("remove", "f16", 8192, 1024), _padding_copy("remove", "f32", 4096, 768),
    _padding_copy("remove", "f16", 16, 1024),
    _padding_copy("rebuild", "f32", 8192, 1024), _padding_copy("rebuild", "f16", 2048, 4096),
    _padding_copy("rebuild", "f32", 64, 768),
    _rel_bias("f32", 12, 512, 1), _rel_bias("f16", 16, 1024, 1), _rel_bias("f32", 8, 128, 0),
    # --- FasterTransformer decoding helpers (ft_decoding.cu)
    _decoding_init("f32", 8, 4), _decoding_init("f16", 1024, 4), _decoding_init("f32", 65536, 4),
    _embedding("f32", 4096, 1024, 8192, 10), _embedding("f16", 32, 4096, 8192, 100),
    _embedding("f16", 2048, 2048, 16384, 1),
    _pad_embedding("bias", "f32", 512, 10001, 10008), _pad_embedding("bias", "f16", 1024, 7999, 8000),
    _pad_embedding("kernel", "f16", 1024, 7999, 8008), _pad_embedding("kernel", "f32", 768, 5000, 5008),
    _seqlen("minus", 1024), _seqlen("minus", 65536), _seqlen("plus", 8192),
    _plus_scalar(262144), _plus_scalar(100000),
    # --- apex Megatron softmax (apex_softmax.cu): GPT/BERT attention shapes, 32 to 8192 keys
    _softmax("scaled", 1, 16, 512, 1024), _softmax("scaled", 8, 12, 128, 128), _softmax("scaled", 1, 4, 64, 8192),
    _softmax("scaled", 2, 16, 256, 2048),
    _softmax("masked", 2, 16, 512, 512, 2), _softmax("masked", 16, 12, 32, 32, 16), _softmax("masked", 1, 8, 128, 4096, 1),
    _softmax("masked", 4, 16, 256, 256, 1),
    _softmax("backward", 1, 16, 512, 1024), _softmax("backward", 8, 12, 128, 128),
    # --- apex synchronized batch norm (apex_welford.cu): ResNet-like NCHW activations
    _welford("f32", 16, 64, 4096), _welford("f16", 32, 128, 784), _welford("f32", 8, 512, 196), _welford("f16", 4, 32, 4096),
    _bn_forward("f32", 32, 128, 784), _bn_forward("f16", 16, 64, 4096), _bn_forward("f32", 8, 512, 49),
    _reduce_bn("f32", 16, 64, 4096), _reduce_bn("f16", 32, 128, 784), _reduce_bn("f32", 4, 256, 196),
    _bn_backward("f32", 16, 64, 4096), _bn_backward("f16", 32, 128, 784), _bn_backward("f32", 8, 512, 49),
    _welford_parallel(8, 2048), _welford_parallel(64, 256), _welford_parallel(2, 64),
    # --- sweeps: five blocks over one problem
    *[_padding_copy("remove", "f16", 4096, 1024, b, True) for b in BLOCKS],
    *[_mask("f32", 16, 512, b, True) for b in BLOCKS],
    *[_embedding("f16", 2048, 1024, 8192, 10, 2048, b, True) for b in BLOCKS],
    *[_softmax("masked", 1, 16, 512, 1024, 1, b // 2, True) for b in BLOCKS],
    *[_welford("f32", 16, 64, 4096, b, True) for b in BLOCKS],
    *[_bn_forward("f32", 16, 64, 4096, b, True) for b in BLOCKS],
]


PREREG16 = PreregSet("prereg16", PREREG16_DIR, SUITES, LAUNCHES)


def prereg16_cases() -> list[Case]:
    """The sixteenth pre-registered set's launches as cases (set `prereg16`)."""
    return PREREG16.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG16.write_registry()}")
