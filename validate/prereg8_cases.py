"""The eighth pre-registered set (`validate run --cases prereg8`): the CUDA kernels of a tensor
library people use from Rust, huggingface/candle (candle-kernels), a repository this project had
never used, copied into validate/prereg8/*.cu, whose launches were fixed, and recorded on the H100
into a sealed folder, before any prediction of them was committed. Held out of every fit
(validate.families), like the first seven sets; built with the same machinery
(validate.prereg_cases.PreregSet). Change no launch once it is registered.

Source (each file's header comment: repository, files, commit, licence and every edit; no kernel
body is changed; licence texts in validate/prereg8/LICENSES.md; kernels left out, and why:
validate/prereg8/STATUS.md):
- huggingface/candle (MIT OR Apache-2.0), candle-kernels/src (files candle_*.cu): unary
  element-wise ops (SiLU, GELU, GELU-erf, exp, tanh, sqrt, ReLU, sigmoid, ELU, copy), affine,
  binary ops (add, mul, div, max, a comparison), dtype casts (f32 <-> f16, bf16), fill, const_set
  and the strided 2D copy (a K/V-cache slice), gather along rows, index_add (the embedding's
  backward), scatter and scatter_add, where, col2im1d (a transposed
  1D convolution's overlap-add), softmax (a warp a row),
  RMSNorm and LayerNorm (32 or 1024 threads a row), rotary embeddings (three layouts) and argsort
  (a bitonic sort of each row in shared memory).
One file a source file: the file with the headers it includes (compatibility.cuh, cuda_utils.cuh,
binary_op_macros.cuh) copied above it. Every kernel is an extern "C" one the file defines.

Shapes are an LLM's: hidden sizes 2048-8192 (4096 most), 16-4096 tokens, head size 128 with 32
heads, FFN width 11008, vocabularies 8192-32000. The launches use the grids and blocks candle's
host code picks: cudarc's LaunchConfig::for_num_elems (1024 threads, cdiv(n, 1024) blocks) for
the element-wise, indexing, col2im and rope kernels; softmax (1, 32, 1) threads a row; the norms 1024
threads a row (32 under 1024 columns); argsort min(pad, 1024) threads and pad x 4 shared bytes
a row, pad the next power of two of the row.

Every launch is in bounds and deterministic: the strided-tensor argument (`info`) is a null
pointer with no dimensions, which candle's kernels take as contiguous (candle passes its strides
only for non-contiguous tensors; a launch here cannot pass a table of given integers); indices
come from randint within the indexed dimension; index_add, scatter and scatter_add give each
thread its own (row, column) of the destination, so no two threads write one element; argsort's
random floats have no ties. candle's softmax, norms and argsort are its adaptations of ggml /
llama.cpp code of 2023 (their comments say so; prereg7 has ggml's current norms): tagged
`adapted-from:ggml`, so that a score can set them apart. Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): the
kernels that take their block from blockDim (grid-stride or one thread an element), five or six
block sizes over one problem, the grid following the block.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, _sweep, array_arg, scalar_arg

PREREG8_DIR = Path(__file__).parent / "prereg8"
SUITES = {"candle_": "huggingface/candle"}
K64, M1, M2, M4, M8, M16 = 1 << 16, 1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24
H, FFN, HEAD, HEADS = 4096, 11008, 128, 32
BLOCKS = [(64,), (128,), (256,), (512,), (1024,)]
NULL = "uint64:0"   # candle's `info` for a contiguous tensor: no strides table
EW = ["elementwise", "streaming", "grid-stride"]
# candle's softmax, RMSNorm and LayerNorm say they are adapted from ggml (2023) and its argsort
# from llama.cpp: kin of prereg7's ggml kernels (other versions), so tagged to be set apart
GGML_DERIVED = "adapted-from:ggml"


_f, _h = partial(array_arg, "float32"), partial(array_arg, "float16")
_i, _u, _z = partial(scalar_arg, "int32"), partial(scalar_arg, "uint32"), partial(scalar_arg, "uint64")


def _n(n: int) -> int:
    """for_num_elems' grid: 1024 threads a block."""
    return _cdiv(n, 1024)


def _unary(op: str, t: str, n: int, tags: list[str], label: str, param: str | None = None) -> tuple:
    buf = _f if t == "f32" else _h
    args = [_z(n), _z(0), NULL, *([param] if param else []), buf(n), buf(n, "zeros")]
    return (f"candle_{op}_{t}_{label}", "candle_unary.cu", f"u{op}_{t}", _n(n), 1024, args,
            [*EW, "activation", *tags, *(["half"] if t == "f16" else [])])


def _binary(op: str, t: str, n: int, label: str, out: str | None = None, tags: list[str] = ()) -> tuple:
    buf = _f if t == "f32" else _h
    kernel = f"{op}_{t}" if out else f"b{op}_{t}"
    args = [_z(n), _z(0), NULL, buf(n), buf(n), out or buf(n, "zeros")]
    return (f"candle_{op}_{t}_{label}", "candle_binary.cu", kernel, _n(n), 1024, args,
            [*EW, "binary", *tags, *(["half"] if t == "f16" else [])])


def _cast(src: str, dst: str, n: int, label: str) -> tuple:
    ins = {"f32": _f(n), "f16": _h(n), "bf16": f"uint16[{n}]:randint(15000,16000)"}[src]
    outs = {"f32": _f(n, "zeros"), "f16": _h(n, "zeros"), "bf16": f"uint16[{n}]:zeros"}[dst]
    return (f"candle_cast_{src}_{dst}_{label}", "candle_cast.cu", f"cast_{src}_{dst}", _n(n), 1024,
            [_z(n), _z(0), NULL, ins, outs], [*EW, "convert", *(["half"] if "f16" in (src, dst) else [])])


def _norm(kernel: str, rows: int, cols: int, t: str = "f32") -> tuple:
    """rmsnorm (x, dst, alpha, ncols, block_size, eps) or layernorm (+ beta), candle-nn's launch."""
    buf = _f if t == "f32" else _h
    block = 32 if cols < 1024 else 1024
    weights = [buf(cols, "ones")] if kernel == "rmsnorm" else [buf(cols, "ones"), buf(cols, "zeros")]
    args = [buf(rows * cols), buf(rows * cols, "zeros"), *weights, _i(cols), _i(block), "float32:1e-5"]
    return (f"candle_{kernel}_{t}_{rows}x{cols}", "candle_reduce.cu", f"{kernel}_{t}", rows, block, args,
            ["norm", "rows", "reduction", "shuffle", GGML_DERIVED, *(["half"] if t == "f16" else []),
             *(["warp-per-row"] if block == 32 else [])])


def _softmax(rows: int, cols: int, t: str = "f32", tags: list[str] = ()) -> tuple:
    buf = _f if t == "f32" else _h
    return (f"candle_softmax_{t}_{rows}x{cols}", "candle_reduce.cu", f"softmax_{t}", rows, (1, 32, 1),
            [buf(rows * cols), buf(rows * cols, "zeros"), _i(cols)],
            ["softmax", "rows", "warp-per-row", "exp", GGML_DERIVED, *tags, *(["half"] if t == "f16" else [])])


def _rope_args(kind: str, tokens: int, t: str = "f32", batch: int = 1) -> list[str]:
    """src, cos, sin, dst and the shape of candle's rope (bh, td, d, stride_b), rope_i (bh, td,
    stride_b) or rope_thd (b, t, h, d, stride_b) over batch x heads x tokens x head dims."""
    buf = _f if t == "f32" else _h
    n = batch * HEADS * tokens * HEAD
    bufs = [buf(n), buf(tokens * HEAD // 2), buf(tokens * HEAD // 2), buf(n, "zeros")]
    shape = {"rope": [_u(batch * HEADS), _u(tokens * HEAD), _u(HEAD), _u(0)],
             "rope_i": [_u(batch * HEADS), _u(tokens * HEAD), _u(0)],
             "rope_thd": [_u(batch), _u(tokens), _u(HEADS), _u(HEAD), _u(0)]}[kind]
    return [*bufs, *shape]


def _rope(kind: str, tokens: int, t: str = "f32", batch: int = 1) -> tuple:
    n = batch * HEADS * tokens * HEAD
    return (f"candle_{kind}_{t}_{batch}x{tokens}x{HEADS}x{HEAD}", "candle_reduce.cu", f"{kind}_{t}", _n(n // 2), 1024,
            _rope_args(kind, tokens, t, batch), ["rope", "rotary", "table", *(["half"] if t == "f16" else [])])


def _pad(n: int) -> int:
    return 1 << (n - 1).bit_length()


def _asort(order: str, rows: int, cols: int, t: str = "f32") -> tuple:
    buf = _f if t == "f32" else _h
    pad = _pad(cols)
    return (f"candle_asort_{order}_{t}_{rows}x{cols}", "candle_sort.cu", f"asort_{order}_{t}", rows, min(pad, 1024),
            [buf(rows * cols), f"uint32[{rows * cols}]:zeros", _i(cols), _i(pad)],
            ["sort", "bitonic", "shared", "syncthreads", "rows", GGML_DERIVED, *(["half"] if t == "f16" else [])], pad * 4)


def _copy2d(t: str, d1: int, d2: int, src_s: int, dst_s: int, label: str) -> tuple:
    """copy2d (src, dst, d1, d2, src_s, dst_s): d1 rows of d2 elements, rows src_s / dst_s apart."""
    buf = _f if t == "f32" else _h
    return (f"candle_copy2d_{t}_{label}", "candle_fill.cu", f"copy2d_{t}", _n(d1 * d2), 1024,
            [buf(d1 * src_s), buf(d1 * dst_s, "zeros"), _u(d1), _u(d2), _u(src_s), _u(dst_s)],
            ["copy", "strided", "2d", *(["half"] if t == "f16" else [])])


def _scatter(kernel: str, left: int, src_dim: int, dst_dim: int, right: int, label: str, tags: list[str]) -> tuple:
    """index_add (ids, ids_dim, inp, out, left, src_dim, dst_dim, right) or scatter / scatter_add
    (ids, inp, out, left, src_dim, dst_dim, right): one thread a (left, right) pair."""
    n_src = left * src_dim * right
    if kernel == "ia":
        args = [f"uint32[{src_dim}]:randint(0,{dst_dim})", _z(src_dim), _f(n_src), _f(left * dst_dim * right),
                _z(left), _z(src_dim), _z(dst_dim), _z(right)]
    else:
        args = [f"uint32[{n_src}]:randint(0,{dst_dim})", _f(n_src), _f(left * dst_dim * right),
                _z(left), _z(src_dim), _z(dst_dim), _z(right)]
    return (f"candle_{kernel}_u32_f32_{label}", "candle_indexing.cu", f"{kernel}_u32_f32", _n(left * right), 1024,
            args, ["indexing", "scatter", "gather", *tags])


LAUNCHES: list[tuple] = [
    # --- unary element-wise: activations and math over contiguous tensors (for_num_elems)
    _unary("silu", "f32", 512 * FFN, ["exp"], f"512x{FFN}"),
    _unary("gelu", "f32", 256 * FFN, ["tanh"], f"256x{FFN}"),
    _unary("gelu_erf", "f32", 256 * 8192, ["erf"], "256x8192"),
    _unary("exp", "f32", M4, ["exp"], "4M"),
    _unary("silu", "f16", 1024 * FFN, ["exp"], f"1024x{FFN}"),
    _unary("gelu", "f16", 512 * 8192, ["tanh"], "512x8192"),
    _unary("tanh", "f32", K64, ["tanh", "small"], "64K"),
    _unary("sqrt", "f32", M16, ["sqrt", "large"], "16M"),
    _unary("relu", "f16", 2048 * 8192, ["large"], "2048x8192"),
    _unary("sigmoid", "f32", M1, ["exp"], "1M"),
    _unary("elu", "f32", M2, ["exp"], "2M", param="float32:1.0"),
    _unary("copy", "f32", M8, ["copy"], "8M"),
    # --- affine x * mul + add
    ("candle_affine_f32_16M", "candle_affine.cu", "affine_f32", _n(M16), 1024,
     [_z(M16), _z(0), NULL, _f(M16), _f(M16, "zeros"), "float32:0.5", "float32:0.25"], [*EW, "affine", "large"]),
    ("candle_affine_f16_4M", "candle_affine.cu", "affine_f16", _n(M4), 1024,
     [_z(M4), _z(0), NULL, _h(M4), _h(M4, "zeros"), "float16:0.5", "float16:0.25"], [*EW, "affine", "half"]),
    # --- binary: residual adds, the GLU's multiply, comparisons
    _binary("add", "f32", 4096 * H, "4096x4096", tags=["large", "residual"]),
    _binary("mul", "f32", 512 * FFN, f"512x{FFN}", tags=["gated"]),
    _binary("add", "f16", 1024 * H, "1024x4096", tags=["residual"]),
    _binary("maximum", "f32", M1, "1M"),
    _binary("div", "f32", K64, "64K", tags=["small"]),
    _binary("lt", "f32", M2, "2M", out=f"uint8[{M2}]:zeros", tags=["compare"]),
    # --- casts
    _cast("f32", "f16", 4096 * H, "4096x4096"),
    _cast("f16", "f32", 2048 * H, "2048x4096"),
    _cast("f32", "bf16", M2, "2M"),
    _cast("bf16", "f32", 1024 * H, "1024x4096"),
    # --- fill, const_set, strided 2D copies (a K/V-cache slice and an append)
    ("candle_fill_f32_16M", "candle_fill.cu", "fill_f32", _n(M16), 1024, [_f(M16, "empty"), "float32:1.5", _z(M16)],
     ["fill", "write", "grid-stride", "large"]),
    ("candle_const_set_f32_8M", "candle_fill.cu", "const_set_f32", _n(M8), 1024,
     [_z(M8), _z(0), NULL, "float32:0.5", _f(M8, "empty")], ["fill", "write", "grid-stride"]),
    _copy2d("f32", 4096, 2048, 4096, 2048, "4096x2048of4096"),
    _copy2d("f16", 1024, 4096, 4096, 8192, "1024x4096into8192"),
    _copy2d("f32", 32 * 512, HEAD, 3 * HEAD, HEAD, "qkv_split_16384x128"),
    # --- indexing: gather along rows, the embedding's backward (index_add), scatters
    ("candle_gather_u32_f32_1024x4096x256", "candle_indexing.cu", "gather_u32_f32", _n(1024 * 256), 1024,
     [_z(1024 * 256), "uint32[262144]:randint(0,4096)", _f(1024 * H), _f(1024 * 256, "zeros"), _z(1024), _z(H),
      _z(256), _z(1)], ["indexing", "gather", "random"]),
    _scatter("ia", 1, 512, 8192, 2048, "512x8192x2048", ["embedding", "backward", "few-blocks"]),
    _scatter("sa", 1024, 256, 2048, 1, "1024x256x2048", ["random", "read-modify-write"]),
    _scatter("s", 256, 64, 1024, 32, "256x64x1024x32", ["strided"]),
    ("candle_where_u8_f32_4M", "candle_ternary.cu", "where_u8_f32", _n(M4), 1024,
     [_z(M4), _z(0), NULL, f"uint8[{M4}]:randint(0,2)", _f(M4), _f(M4), _f(M4, "zeros")], [*EW, "select", "mask"]),
    # --- col2im1d: a transposed 1D convolution's overlap-add (an audio decoder's upsampling)
    ("candle_col2im1d_f32_512x2048_k8s4", "candle_conv.cu", "col2im1d_f32", _n(512 * 8196), 1024,
     [_z(512 * 8196), _z(8196), _z(2048), _z(512), _z(8), _z(4), _f(2048 * 512 * 8), _f(512 * 8196, "zeros")],
     ["conv", "col2im", "strided", "gather"]),
    ("candle_col2im1d_f16_2x256x4096_k4s2", "candle_conv.cu", "col2im1d_f16", _n(2 * 256 * 8194), 1024,
     [_z(2 * 256 * 8194), _z(8194), _z(4096), _z(256), _z(4), _z(2), _h(2 * 4096 * 256 * 4), _h(2 * 256 * 8194, "zeros")],
     ["conv", "col2im", "strided", "gather", "half"]),
    # --- softmax (a warp a row), RMSNorm and LayerNorm
    _softmax(32 * 512, 512, tags=["attention"]),
    _softmax(64, 32000, tags=["logits", "few-blocks"]),
    _softmax(32 * 1024, 1024, "f16", tags=["attention", "large"]),
    _softmax(4096, 128, tags=["small-rows"]),
    _norm("rmsnorm", 512, H),
    _norm("rmsnorm", 2048, 8192, "f16"),
    _norm("rmsnorm", 4096, 512),
    _norm("layernorm", 512, H),
    _norm("layernorm", 1024, 8192, "f16"),
    _norm("layernorm", 1024, 768),
    # --- rotary embeddings: halves (rope), interleaved pairs (rope_i), [b, t, h, d] (rope_thd)
    _rope("rope", 512),
    _rope("rope_i", 2048),
    _rope("rope_thd", 1024),
    _rope("rope", 1024, "f16"),
    _rope("rope", 16, batch=4),
    # --- argsort (bitonic in shared memory): top-k style rows
    _asort("asc", 4096, 256),
    _asort("desc", 32, 8192),
    _asort("desc", 512, 1000),
    _asort("asc", 64, 4096, "f16"),
    # --- sweeps: kernels that take their block from blockDim, the grid following
    *_sweep("candle_silu_f32", "candle_unary.cu", "usilu_f32", BLOCKS, lambda b: _cdiv(256 * FFN, b[0]),
            [_z(256 * FFN), _z(0), NULL, _f(256 * FFN), _f(256 * FFN, "zeros")], [*EW, "activation", "exp"],
            f"256x{FFN}"),
    *_sweep("candle_add_f32", "candle_binary.cu", "badd_f32", BLOCKS, lambda b: _cdiv(2048 * H, b[0]),
            [_z(2048 * H), _z(0), NULL, _f(2048 * H), _f(2048 * H), _f(2048 * H, "zeros")], [*EW, "binary"],
            "2048x4096"),
    *_sweep("candle_cast_f32_f16", "candle_cast.cu", "cast_f32_f16", BLOCKS, lambda b: _cdiv(2048 * H, b[0]),
            [_z(2048 * H), _z(0), NULL, _f(2048 * H), _h(2048 * H, "zeros")], [*EW, "convert", "half"],
            "2048x4096"),
    *_sweep("candle_gather_u32_f32", "candle_indexing.cu", "gather_u32_f32", BLOCKS, lambda b: _cdiv(1024 * 256, b[0]),
            [_z(1024 * 256), "uint32[262144]:randint(0,4096)", _f(1024 * H), _f(1024 * 256, "zeros"), _z(1024), _z(H),
             _z(256), _z(1)], ["indexing", "gather", "random"], "1024x4096x256"),
    *_sweep("candle_rope_f32", "candle_reduce.cu", "rope_f32", [(32,), *BLOCKS],
            lambda b: _cdiv(HEADS * 512 * HEAD // 2, b[0]), _rope_args("rope", 512), ["rope", "rotary", "table"],
            "512x32x128"),
    *_sweep("candle_asort_asc_f32", "candle_sort.cu", "asort_asc_f32", [(64,), (128,), (256,), (512,), (1024,)],
            lambda b: 1024, [_f(1024 * 1024), "uint32[1048576]:zeros", _i(1024), _i(1024)],
            ["sort", "bitonic", "shared", "syncthreads", "rows", GGML_DERIVED], "1024x1024", lambda b: 4096),
]

PREREG8 = PreregSet("prereg8", PREREG8_DIR, SUITES, LAUNCHES)


def prereg8_cases() -> list[Case]:
    """The eighth pre-registered set's launches as cases (set `prereg8`)."""
    return PREREG8.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG8.write_registry()}")
