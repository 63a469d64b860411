"""The tenth pre-registered set (`validate run --cases prereg10`): public CUDA kernels of four
repositories this project had never used, copied into validate/prereg10/*.cu, whose launches
were fixed, and recorded on the H100 into a sealed folder, before any prediction of them was
committed. Held out of every fit (validate.families), like the first nine sets; built with the
same machinery (validate.prereg_cases.PreregSet). Change no launch once it is registered.

Sources (each file's header comment: repository, paths, commit, licence and every edit; no
kernel body is changed; licence texts in validate/prereg10/LICENSES.md; kernels left out, and
why: validate/prereg10/STATUS.md):
- BVLC/caffe (BSD-2-Clause) src/caffe/{layers,solvers,util}/*.cu, in six files: caffe_im2col.cu
  (im2col / col2im, convolution lowered to GEMM), caffe_pooling.cu (max and average pooling,
  forward and backward), caffe_softmax.cu (softmax over channels, softmax loss, top-k accuracy),
  caffe_lrn.cu (local response normalisation), caffe_layers.cu (embedding lookup, tile, concat,
  slice, batch reindex, eltwise max, PReLU, scale and bias, dropout, LSTM unit) and
  caffe_solvers.cu (Adam update, math_functions' element-wise kernels). Every kernel is a
  template over Dtype; a launch names the float instance (`caffe::Kernel<float>`), which the
  file instantiates explicitly.
- b0nes164/GPUPrefixSums (MIT): the reduce-then-scan device prefix sum (gpups_reduce_then_scan.cu).
- b0nes164/GPUSorting (MIT): the 8-bit LSD radix sort's upsweep (digit histograms, shared and
  global integer atomics) and pass-histogram scan (gpusort_radix_upsweep.cu).
- viennacl/viennacl-dev (MIT): ViennaCL's CUDA backend (vcl_linalg.cu): transpose, GEMV and
  transposed GEMV, a 16 x 16 tiled GEMM, inner product, norms, arg-max, a three-kernel scan and
  the ELL sparse matrix-vector product.

Launch shapes follow each library's host code: Caffe's kernels are grid-stride loops
(CUDA_KERNEL_LOOP) launched with CAFFE_CUDA_NUM_THREADS = 512 threads a block and
CAFFE_GET_BLOCKS(n) = cdiv(n, 512) blocks, n the kernel's own count; ViennaCL launches 128 x 128
(ELL 256 x 128, the GEMM 16 x 16 tiles, arg-max and the carries' scan one block); GPUPrefixSums'
and GPUSorting's dispatchers fix their blocks (256 / 1024 and 128) and partitions (4096 and 7680
keys a block). Sizes: CNN layers (ResNet / AlexNet shapes: 64-512 channels at 28-112 pixels,
batches 4-64), segmentation softmax (21 classes at 256 x 256), LLM shapes (hidden 1024-4096,
1024-11008 rows, vocabularies 8192-32000), optimiser steps and vectors of 1-16 M values, sparse
matrices of 256K-2M rows: 2-64 MB mostly, some past the 50 MB L2, a few tiny. Every launch is
in bounds and deterministic: labels and indices are randint within range (Caffe stores them as
floats), atomics add integers only (the radix upsweep), and each output element has one writer.

Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): kernels whose loops take their
stride from blockDim, at five blocks over one problem: Caffe's im2col, channel max and Adam
update (the grid cdiv(n, block), as CAFFE_GET_BLOCKS would give at that block), ViennaCL's
transpose, GEMV (8-128 threads: its shared buffer holds 128) and ELL product (ViennaCL's fixed
grid, 128 or 256 blocks).
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, _sweep, array_arg, scalar_arg

PREREG10_DIR = Path(__file__).parent / "prereg10"
SUITES = {"caffe_": "BVLC/caffe", "gpups_": "b0nes164/GPUPrefixSums", "gpusort_": "b0nes164/GPUSorting",
          "vcl_": "viennacl/viennacl-dev"}
THREADS = 512   # CAFFE_CUDA_NUM_THREADS (include/caffe/util/device_alternate.hpp)
BLOCKS = [(64,), (128,), (256,), (512,), (1024,)]
M1, M4 = 1 << 20, 1 << 22

_f, _i32 = partial(array_arg, "float32"), partial(array_arg, "int32")
_i, _u, _fs, _b = (partial(scalar_arg, "int32"), partial(scalar_arg, "uint32"), partial(scalar_arg, "float32"),
                   partial(scalar_arg, "uint8"))


def _k(name: str) -> str:
    return f"caffe::{name}<float>"


def _row(name: str, file: str, kernel: str, n: int, args: list[str], tags: list[str]) -> tuple:
    """One launch as Caffe's host code makes it: 512 threads, cdiv(n, 512) blocks."""
    return (f"caffe_{name}", file, _k(kernel), _cdiv(n, THREADS), THREADS, args, tags)


def _sweep_of(name: str, file: str, kernel: str, n: int, args: list[str], tags: list[str], size: str) -> list[tuple]:
    return _sweep(f"caffe_{name}", file, _k(kernel), BLOCKS, lambda b: _cdiv(n, b[0]), args, tags, size)


def _conv_out(h: int, k: int, pad: int, stride: int, dil: int = 1) -> int:
    return (h + 2 * pad - (dil * (k - 1) + 1)) // stride + 1


def _im2col(c: int, h: int, w: int, k: int, pad: int, stride: int, dil: int = 1) -> tuple[int, list[str]]:
    """util/im2col.cu's im2col_gpu: n = channels x height_col x width_col threads."""
    hc, wc = _conv_out(h, k, pad, stride, dil), _conv_out(w, k, pad, stride, dil)
    n = c * hc * wc
    return n, [_i(n), _f(c * h * w), _i(h), _i(w), _i(k), _i(k), _i(pad), _i(pad), _i(stride), _i(stride),
               _i(dil), _i(dil), _i(hc), _i(wc), _f(c * k * k * hc * wc, "zeros")]


def _col2im(c: int, h: int, w: int, k: int, pad: int, stride: int) -> tuple[int, list[str]]:
    """util/im2col.cu's col2im_gpu: n = channels x height x width threads, no atomics."""
    hc, wc = _conv_out(h, k, pad, stride), _conv_out(w, k, pad, stride)
    n = c * h * w
    return n, [_i(n), _f(c * k * k * hc * wc), _i(h), _i(w), _i(c), _i(k), _i(k), _i(pad), _i(pad), _i(stride),
               _i(stride), _i(1), _i(1), _i(hc), _i(wc), _f(n, "zeros")]


def _pool_shape(h: int, k: int, s: int, pad: int) -> int:
    """pooling_layer.cpp: pooled = ceil((h + 2 pad - k) / s) + 1."""
    return -(-(h + 2 * pad - k) // s) + 1


def _pool(kind: str, nb: int, c: int, h: int, k: int, s: int, pad: int = 0) -> tuple[int, list[str]]:
    p = _pool_shape(h, k, s, pad)
    top, bottom = nb * c * p * p, nb * c * h * h
    shape = [_i(nb), _i(c), _i(h), _i(h), _i(p), _i(p), _i(k), _i(k), _i(s), _i(s)]
    if kind == "MaxPoolForward":   # the int mask (Caffe's default, top_mask unused)
        return top, [_i(top), _f(bottom), *shape, _i(pad), _i(pad), _f(top, "zeros"), _i32(top, "zeros"), _f(1, "zeros")]
    if kind == "AvePoolForward":
        return top, [_i(top), _f(bottom), *shape, _i(pad), _i(pad), _f(top, "zeros")]
    if kind == "StoPoolForwardTest":
        return top, [_i(top), _f(bottom), *shape, _f(top, "zeros")]
    if kind == "MaxPoolBackward":   # mask: argmax offsets within each h x h slice
        return bottom, [_i(bottom), _f(top), _i32(top, f"randint(0,{h * h})"), _f(1, "zeros"), *shape, _i(pad),
                        _i(pad), _f(bottom, "zeros")]
    return bottom, [_i(bottom), _f(top), *shape, _i(pad), _i(pad), _f(bottom, "zeros")]   # AvePoolBackward


def _softmax(kind: str, num: int, ch: int, sp: int) -> tuple[int, list[str]]:
    """softmax_layer.cu: the per-position passes loop over channels (num x spatial threads); the
    element-wise ones cover num x channels x spatial."""
    count = num * ch * sp
    if kind in ("kernel_channel_max", "kernel_channel_sum"):
        return num * sp, [_i(num), _i(ch), _i(sp), _f(count), _f(num * sp, "zeros")]
    if kind == "kernel_channel_dot":
        return num * sp, [_i(num), _i(ch), _i(sp), _f(count), _f(count), _f(num * sp, "zeros")]
    if kind == "kernel_exp":
        return count, [_i(count), _f(count), _f(count, "zeros")]
    return count, [_i(count), _i(num), _i(ch), _i(sp), _f(num * sp), _f(count)]   # subtract / div, in place


def _labelled(kind: str, num: int, ch: int, sp: int, top_k: int = 5) -> tuple[int, list[str]]:
    """SoftmaxLossForwardGPU / AccuracyForwardGPU: one thread a position, labels randint(0, ch)
    as floats; the ignore label (255) never occurs."""
    n, dim = num * sp, ch * sp
    label = _f(n, f"randint(0,{ch})")
    if kind == "SoftmaxLossForwardGPU":
        return n, [_i(n), _f(num * dim), label, _f(n, "zeros"), _i(num), _i(dim), _i(sp), _b(1), _i(255),
                   _f(n, "zeros")]
    return n, [_i(n), _f(num * dim), label, _f(n, "zeros"), _i(num), _i(dim), _i(sp), _i(ch), _i(top_k), _b(1),
               _i(255), _f(n, "zeros")]


def _lrn(kind: str, nb: int, c: int, h: int, size: int = 5) -> tuple[int, list[str]]:
    """lrn_layer.cu (across channels): the scale and the backward slide a window over channels,
    one thread a pixel; the output is element-wise."""
    count, pixels = nb * c * h * h, nb * h * h
    if kind == "LRNFillScale":
        return pixels, [_i(pixels), _f(count), _i(nb), _i(c), _i(h), _i(h), _i(size), _fs(1e-4 / size), _fs(1.0),
                        _f(count, "zeros")]
    if kind == "LRNComputeOutput":
        return count, [_i(count), _f(count), _f(count, "random"), _fs(-0.75), _f(count, "zeros")]
    return pixels, [_i(pixels), _f(count), _f(count), _f(count), _f(count), _i(nb), _i(c), _i(h), _i(h), _i(size),
                    _fs(-0.75), _fs(2 * 1e-4 * 0.75 / size), _f(count, "zeros")]


def _concat(forward: bool, num: int, size: int, top_axis: int, bottom_axis: int, offset: int) -> tuple[int, list[str]]:
    """concat_layer.cu: one bottom blob copied into (or, backward, out of) its place in the top."""
    n, top = num * bottom_axis * size, num * top_axis * size
    src, dst = (_f(n), _f(top, "zeros")) if forward else (_f(top), _f(n, "zeros"))
    return n, [_i(n), src, _b(int(forward)), _i(num), _i(size), _i(top_axis), _i(bottom_axis), _i(offset), dst]


def _ew(kind: str, n: int) -> list[str]:
    """Element-wise kernels' arguments (math_functions.cu, the solvers)."""
    return {"set_kernel": [_i(n), _fs(0.0), _f(n, "zeros")],
            "add_kernel": [_i(n), _f(n), _f(n), _f(n, "zeros")],
            "mul_kernel": [_i(n), _f(n), _f(n), _f(n, "zeros")],
            "div_kernel": [_i(n), _f(n), _f(n), _f(n, "zeros")],
            "exp_kernel": [_i(n), _f(n), _f(n, "zeros")],
            "powx_kernel": [_i(n), _f(n), _fs(0.75), _f(n, "zeros")],
            "sqrt_kernel": [_i(n), _f(n), _f(n, "zeros")],
            "AdamUpdate": [_i(n), _f(n), _f(n), _f(n), _fs(0.9), _fs(0.999), _fs(1e-8), _fs(1e-3)],
            "RMSPropUpdate": [_i(n), _f(n), _f(n), _fs(0.98), _fs(1e-8), _fs(1e-2)],
            "AdaGradUpdate": [_i(n), _f(n), _f(n), _fs(1e-8), _fs(1e-2)],
            "NesterovUpdate": [_i(n), _f(n), _f(n), _fs(0.9), _fs(1e-2)]}[kind]


def _u32(count: int, init: str = "randint(0,4)") -> str:
    return array_arg("uint32", count, init)


def _rts(n: int, size: str, tags: list[str]) -> list[tuple]:
    """ReduceThenScanDispatcher.cuh: Reduce and Propagate over cdiv(n, 4096) blocks of 256, the spine
    scan of the block sums in one block of 1024; the scan is in place."""
    blocks = _cdiv(n, 4096)
    scan = ["scan", "prefix-sum", "uint4", "shfl", "shared", "syncthreads", *tags]
    return [(f"gpups_rts_reduce_{size}", "gpups_reduce_then_scan.cu", "ReduceThenScan::Reduce<8, 4>", blocks, 256,
             [_u32(n), _u32(blocks, "zeros"), _u(n // 4)], [*scan, "reduction", "multi-pass"]),
            (f"gpups_rts_spine_{size}", "gpups_reduce_then_scan.cu", "ReduceThenScan::SpineScan<32, 4>", 1, 1024,
             [_u32(blocks, "randint(0,16384)"), _u(blocks)], [*scan, "one-block", "multi-pass"]),
            (f"gpups_rts_propagate_incl_{size}", "gpups_reduce_then_scan.cu", "ReduceThenScan::PropagateInclusive<8, 4>",
             blocks, 256, [_u32(n), _u32(blocks, "randint(0,16384)"), _u(n // 4)], [*scan, "inclusive", "multi-pass"]),
            (f"gpups_rts_propagate_excl_{size}", "gpups_reduce_then_scan.cu", "ReduceThenScan::PropagateExclusive<8, 4>",
             blocks, 256, [_u32(n), _u32(blocks, "randint(0,16384)"), _u(n // 4)], [*scan, "exclusive", "multi-pass"])]


def _upsweep(n: int, shift: int, label: str, tags: list[str]) -> tuple:
    """DeviceRadixSortDispatcher.cuh: cdiv(n, 7680) blocks of 128 threads; the global histogram
    holds the four passes' 256 bins; integer atomics only (exact in any order)."""
    blocks = _cdiv(n, 7680)
    return (f"gpusort_upsweep_{label}", "gpusort_radix_upsweep.cu", "DeviceRadixSort::Upsweep", blocks, 128,
            [_u32(n, "randint(0,4294967296)"), _u32(1024, "zeros"), _u32(256 * blocks, "zeros"), _u(n), _u(shift)],
            ["sort", "radix", "histogram", "shared-atomics", "global-atomics", "uint4", *tags])


def _radix_scan(n: int, label: str) -> tuple:
    """The pass histogram's scan: one block of 128 a digit (256), in place."""
    blocks = _cdiv(n, 7680)
    return (f"gpusort_scan_{label}", "gpusort_radix_upsweep.cu", "DeviceRadixSort::Scan", 256, 128,
            [_u32(256 * blocks, "randint(0,64)"), _u(blocks)], ["sort", "radix", "scan", "shfl", "shared"])


VCL = "vcl_linalg.cu"


def _v(name: str, tmpl: str = "<float>") -> str:
    return f"viennacl::linalg::cuda::{name}{tmpl}"


def _mat(rows: int, cols: int) -> list[str]:
    """A dense row-major ViennaCL matrix's (start1, start2, inc1, inc2, size1, size2, internal1,
    internal2): no offset, unit strides, internal sizes equal to the sizes (multiples of 128, as
    ViennaCL pads them)."""
    return [_u(0), _u(0), _u(1), _u(1), _u(rows), _u(cols), _u(rows), _u(cols)]


def _trans(rows: int, cols: int, block: int = 128) -> list[str]:
    """matrix_operations_row.hpp trans_kernel: B = A^T, a block a row of A (ViennaCL: 128 x 128)."""
    return [_f(rows * cols), _u(0), _u(0), _u(rows), _u(cols), _u(rows), _u(cols), _u(1), _u(1),
            _f(rows * cols, "zeros"), _u(0), _u(0), _u(cols), _u(rows), _u(1), _u(1), _b(1)]


def _gemv(rows: int, cols: int, transposed: bool = False) -> list[str]:
    """vec_mul_row_kernel (y = A x, a block a row) / trans_vec_mul_row_kernel (y = A^T x, a thread
    a column); ViennaCL launches both 128 x 128."""
    n_in, n_out = (rows, cols) if transposed else (cols, rows)
    return [_f(rows * cols), *_mat(rows, cols), _f(n_in), _u(0), _u(1), _u(n_in), _f(n_out, "zeros"), _u(0), _u(1),
            _u(n_out)]


def _gemm(m: int, n: int, k: int) -> tuple:
    """matrix_matrix_row_row_row_prod_AA_kernel: C = A B, 16 x 16 tiles, grid (cdiv(M, 16), cdiv(N, 16))."""
    return (f"vcl_gemm_{m}x{n}x{k}", VCL, _v("matrix_matrix_row_row_row_prod_AA_kernel"), (_cdiv(m, 16), _cdiv(n, 16)),
            (16, 16), [_fs(1.0), _f(m * k), *_mat(m, k), _f(k * n), *_mat(k, n), _fs(0.0), _f(m * n, "zeros"), *_mat(m, n)],
            ["gemm", "shared", "tile", "syncthreads", "2d"])


def _vec(n: int) -> list[str]:
    return [_f(n), _u(0), _u(1), _u(n)]


def _ell(rows: int, k: int, cols: int) -> list[str]:
    """ell_matrix_vec_mul_kernel (spmv_pure: y = A x): k entries a row stored column-major
    (internal rows = rows), random columns, non-zero values; ViennaCL launches it 256 x 128."""
    return [_u32(rows * k, f"randint(0,{cols})"), _f(rows * k), _f(cols), _u(0), _u(1), _fs(1.0), _f(rows, "zeros"),
            _u(0), _u(1), _fs(0.0), _u(rows), _u(cols), _u(rows), _u(k), _u(k)]


def _scan1(n: int, exclusive: int) -> list[str]:
    """scan_kernel_1: 128 blocks of 128 scan their sections, writing 128 carries."""
    return [*_vec(n), _f(n, "zeros"), _u(0), _u(1), _u(exclusive), _f(128, "zeros")]


IM, PO, SM, LR, LA, SO = ("caffe_im2col.cu", "caffe_pooling.cu", "caffe_softmax.cu", "caffe_lrn.cu",
                          "caffe_layers.cu", "caffe_solvers.cu")
CONV, POOL, SEG = ["conv", "im2col", "image", "2d"], ["pooling", "image", "2d", "window"], (4, 21, 65536)


def _im(name, kernel, made, tags):
    return _row(name, IM, kernel, made[0], made[1], [*CONV, *tags])


def _po(name, kernel, made, tags=()):
    return _row(name, PO, kernel, made[0], made[1], [*POOL, *tags])


def _sm(name, kernel, made, tags):
    return _row(name, SM, kernel, made[0], made[1], ["softmax", *tags])


def _el(name, file, kernel, n, tags):
    return _row(name, file, kernel, n, _ew(kernel, n), ["elementwise", "streaming", *tags])


LAUNCHES: list[tuple] = [
    # --- im2col / col2im: a 3x3 convolution of ResNet's first stage, its 7x7 / stride 2 stem, a
    # dilated 3x3, a 1x1, a tiny 3x3; col2im (the backward) of the first
    _im("im2col_3x3_c64_112", "im2col_gpu_kernel", _im2col(64, 112, 112, 3, 1, 1), ["3x3"]),
    _im("im2col_7x7s2_c3_224", "im2col_gpu_kernel", _im2col(3, 224, 224, 7, 3, 2), ["stem", "strided"]),
    _im("im2col_3x3d2_c128_64", "im2col_gpu_kernel", _im2col(128, 64, 64, 3, 2, 1, 2), ["dilated"]),
    _im("im2col_1x1_c512_28", "im2col_gpu_kernel", _im2col(512, 28, 28, 1, 0, 1), ["1x1", "copy"]),
    _im("im2col_3x3_c16_32", "im2col_gpu_kernel", _im2col(16, 32, 32, 3, 1, 1), ["3x3", "small"]),
    _im("col2im_3x3_c64_112", "col2im_gpu_kernel", _col2im(64, 112, 112, 3, 1, 1), ["backward", "gather-sum"]),
    # --- pooling: ResNet's 3x3 / stride 2 max pool, its global 7x7 average pool, the backward passes
    # of a 2x2 max pool and a 3x3 / stride 2 average pool
    _po("maxpool_3x3s2p1_n4c64_112", "MaxPoolForward", _pool("MaxPoolForward", 4, 64, 112, 3, 2, 1), ["overlap"]),
    _po("avepool_global7_n64c2048", "AvePoolForward", _pool("AvePoolForward", 64, 2048, 7, 7, 1),
        ["global", "reduction"]),
    _po("maxpool_bwd_2x2_n4c64_112", "MaxPoolBackward", _pool("MaxPoolBackward", 4, 64, 112, 2, 2), ["backward"]),
    _po("avepool_bwd_3x3s2p1_n4c128_56", "AvePoolBackward", _pool("AvePoolBackward", 4, 128, 56, 3, 2, 1),
        ["backward", "overlap"]),
    # --- softmax: segmentation (21 classes over 256 x 256 positions, coalesced over positions): its
    # subtract, exp and divide passes (the channel max is a sweep below); LLM logits (spatial 1:
    # each thread walks a row, uncoalesced); the loss and ImageNet's top-5 accuracy
    _sm("channel_subtract_seg_4x21x256x256", "kernel_channel_subtract", _softmax("kernel_channel_subtract", *SEG),
        ["broadcast", "in-place", "seg"]),
    _sm("exp_seg_4x21x256x256", "kernel_exp", _softmax("kernel_exp", *SEG), ["elementwise", "exp", "seg"]),
    _sm("channel_div_seg_4x21x256x256", "kernel_channel_div", _softmax("kernel_channel_div", *SEG),
        ["broadcast", "in-place", "seg"]),
    _sm("channel_max_logits_256x32000", "kernel_channel_max", _softmax("kernel_channel_max", 256, 32000, 1),
        ["reduction", "logits", "row-per-thread", "uncoalesced"]),
    _sm("channel_subtract_logits_1024x4096", "kernel_channel_subtract",
        _softmax("kernel_channel_subtract", 1024, 4096, 1), ["broadcast", "in-place", "logits"]),
    _sm("loss_seg_4x21x256x256", "SoftmaxLossForwardGPU", _labelled("SoftmaxLossForwardGPU", *SEG),
        ["loss", "gather", "log", "seg"]),
    _sm("loss_logits_2048x8192", "SoftmaxLossForwardGPU", _labelled("SoftmaxLossForwardGPU", 2048, 8192, 1),
        ["loss", "gather", "log", "logits", "random", "few-threads"]),
    _sm("accuracy_top5_1024x1000", "AccuracyForwardGPU", _labelled("AccuracyForwardGPU", 1024, 1000, 1),
        ["accuracy", "row-per-thread", "data-dependent-loop"]),
    # --- LRN across channels (AlexNet's norm1 and norm2)
    _row("lrn_output_n16c96_55", LR, "LRNComputeOutput", *_lrn("LRNComputeOutput", 16, 96, 55),
         ["lrn", "elementwise", "pow"]),
    _row("lrn_diff_n16c96_55", LR, "LRNComputeDiff", *_lrn("LRNComputeDiff", 16, 96, 55),
         ["lrn", "sliding-window", "backward", "pow"]),
    _row("lrn_fill_scale_n32c256_27", LR, "LRNFillScale", *_lrn("LRNFillScale", 32, 256, 27),
         ["lrn", "sliding-window", "channels", "image"]),
    # --- layers (caffe_layers.cu)
    _row("embed_2048_of_8192x2048", LA, "EmbedForward", 2048 * 2048,
         [_i(2048 * 2048), _f(2048, "randint(0,8192)"), _f(8192 * 2048), _i(2048), _i(2048), _i(8192),
          _f(2048 * 2048, "zeros")], ["embedding", "gather", "rows"]),
    _row("tile_4096_by1024", LA, "Tile", 4096 * 1024,
         [_i(4096 * 1024), _f(4096), _i(4096), _i(1024), _i(1), _f(4096 * 1024, "zeros")], ["tile", "broadcast"]),
    _row("tile_bwd_64x4096_by16", LA, "TileBackward", 64 * 4096,
         [_i(64 * 4096), _f(64 * 16 * 4096), _i(4096), _i(16), _i(1), _f(64 * 4096, "zeros")],
         ["tile", "reduction", "backward", "strided-loop"]),
    _row("concat_bwd_n8_128of256_56", LA, "Concat", *_concat(False, 8, 3136, 256, 128, 0),
         ["concat", "copy", "channels", "backward"]),
    _row("slice_qkv_1024x12288_k", LA, "Slice", 1024 * 4096,
         [_i(1024 * 4096), _f(1024 * 12288), _b(1), _i(1024), _i(1), _i(12288), _i(4096), _i(4096),
          _f(1024 * 4096, "zeros")], ["slice", "copy", "strided", "qkv"]),
    _row("batch_reindex_32x3x224x224", LA, "BRForward", 32 * 150528,
         [_i(32 * 150528), _i(150528), _f(32 * 150528), _f(32, "randint(0,32)"), _f(32 * 150528, "zeros")],
         ["gather", "permute", "rows"]),
    _row("eltwise_max_4M", LA, "MaxForward", M4,
         [_i(M4), _f(M4), _f(M4), _i(0), _f(M4, "zeros"), _i32(M4, "zeros")], ["elementwise", "max", "divergence"]),
    _row("prelu_n4c64_112", LA, "PReLUForward", 4 * 64 * 12544,
         [_i(4 * 64 * 12544), _i(64), _i(12544), _f(4 * 64 * 12544), _f(4 * 64 * 12544, "zeros"), _f(64), _i(1)],
         ["elementwise", "activation", "per-channel"]),
    _row("scale_bias_n4c256_56", LA, "ScaleBiasForward", 4 * 256 * 3136,
         [_i(4 * 256 * 3136), _f(4 * 256 * 3136), _f(256), _f(256), _i(256), _i(3136), _f(4 * 256 * 3136, "zeros")],
         ["elementwise", "per-channel", "batchnorm"]),
    _row("dropout_4M", LA, "DropoutForward", M4,
         [_i(M4), _f(M4), f"uint32[{M4}]:randint(0,4294967296)", _u(1 << 31), _fs(2.0), _f(M4, "zeros")],
         ["elementwise", "dropout", "mask"]),
    _row("lstm_unit_512x1024", LA, "LSTMUnitForward", 512 * 1024,
         [_i(512 * 1024), _i(1024), _f(512 * 1024), _f(512 * 4096), _f(512), _f(512 * 1024, "zeros"),
          _f(512 * 1024, "zeros")], ["elementwise", "lstm", "gates"]),
    # --- solvers' updates and math_functions (caffe_solvers.cu): 4K-16M values, two past the L2
    _el("adam_8M", SO, "AdamUpdate", 2 * M4, ["optimizer", "in-place", "past-l2"]),
    _el("set_16M", SO, "set_kernel", 4 * M4, ["fill", "write-only", "past-l2"]),
    _el("exp_4M", SO, "exp_kernel", M4, ["exp"]),
    _el("sqrt_64K", SO, "sqrt_kernel", 65536, ["small"]),
    _el("add_4096", SO, "add_kernel", 4096, ["tiny"]),
    # --- b0nes164/GPUPrefixSums: the reduce-then-scan prefix sum of uint32 (RTS_WARPS 8, four uint4
    # a thread: 4096 values a block of 256 threads; sizes multiples of 4096, which Reduce's last
    # block needs to stay in bounds, see STATUS.md), its one-block spine scan (1024 threads)
    *_rts(M4 * 4, "16M", ["past-l2"]), *_rts(65536, "64K", ["small"]),
    # --- b0nes164/GPUSorting: the radix sort's upsweep (8-bit digit histograms of 7680 keys a block
    # of 128 threads, shared atomics, then the pass and global histograms) at two digit shifts,
    # and the per-digit scan of its pass histogram (256 blocks of 128)
    _upsweep(M4 * 4, 0, "16M_shift0", ["past-l2"]), _upsweep(M4 * 4, 24, "16M_shift24", ["past-l2"]),
    _upsweep(M1, 16, "1M_shift16", ["small"]),
    _radix_scan(M4 * 4, "16M"),
    # --- viennacl/viennacl-dev (vcl_linalg.cu): ViennaCL's launches (128 x 128, ELL 256 x 128, GEMM
    # 16 x 16 tiles): transposes, GEMV and transposed GEMV of LLM weights, tiled GEMMs, inner
    # products, norms and arg-max, the three-kernel scan, ELL sparse matrix-vector products
    ("vcl_trans_4096x2048", VCL, _v("trans_kernel"), 128, 128, _trans(4096, 2048), ["transpose", "strided", "uncoalesced"]),
    ("vcl_trans_256x8192", VCL, _v("trans_kernel"), 128, 128, _trans(256, 8192), ["transpose", "strided", "wide"]),
    ("vcl_gemv_4096x4096", VCL, _v("vec_mul_row_kernel"), 128, 128, _gemv(4096, 4096),
     ["gemv", "shared-tree", "syncthreads", "row-per-block", "past-l2"]),
    ("vcl_gemv_11008x1024", VCL, _v("vec_mul_row_kernel"), 128, 128, _gemv(11008, 1024),
     ["gemv", "shared-tree", "syncthreads", "row-per-block"]),
    ("vcl_gemv_t_2048x4096", VCL, _v("trans_vec_mul_row_kernel"), 128, 128, _gemv(2048, 4096, True),
     ["gemv", "transposed", "column-per-thread"]),
    _gemm(512, 512, 512), _gemm(128, 4096, 512), _gemm(1024, 256, 256),
    ("vcl_inner_prod_16M", VCL, _v("inner_prod_kernel"), 128, 128, [*_vec(M4 * 4), *_vec(M4 * 4), _f(128, "zeros")],
     ["reduction", "dot", "shared-tree", "past-l2"]),
    ("vcl_norm2_8M", VCL, _v("norm_kernel_floats"), 128, 128, [*_vec(2 * M4), _u(2), _f(128, "zeros")],
     ["reduction", "norm", "shared-tree"]),
    ("vcl_index_norm_inf_1M", VCL, _v("index_norm_inf_kernel"), 1, 128, [*_vec(M1), "uint32[1]:zeros"],
     ["reduction", "argmax", "one-block", "shared-tree"]),
    ("vcl_scan1_incl_4M", VCL, _v("scan_kernel_1"), 128, 128, _scan1(M4, 0), ["scan", "prefix-sum", "shared", "syncthreads"]),
    ("vcl_scan1_excl_1M", VCL, _v("scan_kernel_1"), 128, 128, _scan1(M1, 1), ["scan", "prefix-sum", "shared", "syncthreads"]),
    ("vcl_scan2_128", VCL, _v("scan_kernel_2"), 1, 128, [_f(128, "randint(0,100)")], ["scan", "one-block", "tiny"]),
    ("vcl_scan3_4M", VCL, _v("scan_kernel_3"), 128, 128, [_f(M4), _u(0), _u(1), _u(M4), _f(128)],
     ["scan", "broadcast", "in-place"]),
    ("vcl_ell_spmv_1Mx8", VCL, _v("ell_matrix_vec_mul_kernel", "<viennacl::linalg::cuda::detail::spmv_pure, float>"), 256, 128,
     _ell(M1, 8, M1), ["spmv", "sparse", "ell", "gather", "random", "past-l2"]),
    ("vcl_ell_spmv_256Kx27", VCL, _v("ell_matrix_vec_mul_kernel", "<viennacl::linalg::cuda::detail::spmv_pure, float>"), 256, 128,
     _ell(262144, 27, 262144), ["spmv", "sparse", "ell", "gather", "random"]),
    ("vcl_ell_spmv_2Mx4_of_64K", VCL, _v("ell_matrix_vec_mul_kernel", "<viennacl::linalg::cuda::detail::spmv_pure, float>"), 256, 128,
     _ell(2 * M1, 4, 65536), ["spmv", "sparse", "ell", "gather", "l2-resident-x"]),
    # --- sweeps: five blocks over one problem, cdiv(n, block) blocks (CAFFE_GET_BLOCKS at that block)
    *_sweep_of("im2col_gpu_kernel", IM, "im2col_gpu_kernel", *_im2col(32, 128, 128, 3, 1, 1), CONV, "3x3_c32_128"),
    *_sweep_of("kernel_channel_max", SM, "kernel_channel_max", *_softmax("kernel_channel_max", 4, 21, 65536),
               ["softmax", "reduction", "seg"], "seg_4x21x256x256"),
    *_sweep("vcl_trans_kernel", VCL, _v("trans_kernel"), [(32,), (64,), (128,), (256,), (512,)], lambda b: 128,
            _trans(2048, 2048), ["transpose", "strided", "uncoalesced"], "2048x2048"),
    *_sweep("vcl_vec_mul_row_kernel", VCL, _v("vec_mul_row_kernel"), [(8,), (16,), (32,), (64,), (128,)], lambda b: 128,
            _gemv(4096, 1024), ["gemv", "shared-tree", "syncthreads", "row-per-block"], "4096x1024"),
    *_sweep("vcl_ell_matrix_vec_mul_kernel", VCL, _v("ell_matrix_vec_mul_kernel", "<viennacl::linalg::cuda::detail::spmv_pure, float>"),
            [(32,), (64,), (128,), (256,), (512,)], lambda b: 256, _ell(524288, 8, 524288),
            ["spmv", "sparse", "ell", "gather", "random"], "512Kx8"),
    *_sweep_of("AdamUpdate", SO, "AdamUpdate", 2 * M1, _ew("AdamUpdate", 2 * M1),
               ["elementwise", "streaming", "optimizer", "in-place"], "2M"),
]


PREREG10 = PreregSet("prereg10", PREREG10_DIR, SUITES, LAUNCHES)


def prereg10_cases() -> list[Case]:
    """The tenth pre-registered set's launches as cases (set `prereg10`)."""
    return PREREG10.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG10.write_registry()}")
