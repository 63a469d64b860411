"""The twelfth pre-registered set (`validate run --cases prereg12`): public CUDA kernels of two
repositories this project had never used, copied into validate/prereg12/*.cu, whose launches
were fixed, and recorded on the H100 and the H200 into sealed folders, before any prediction of
them was committed. Held out of every fit (validate.families), like the first eleven sets; built
with the same machinery (validate.prereg_cases.PreregSet). Change no launch once it is registered.

This set favours the classic shapes of HPC benchmark suites: per-thread serial loops over a row
or a column (per-channel mean and variance, global average pooling, softmax a thread a row, the
neighbour searches), launches of one or a few blocks looping over __syncthreads rounds (furthest
point sampling), tiny blocks (16 x 16 IoU tiles, 64-thread NMS tiles, sweeps down to 32),
stencils (pooling windows), gathers and scatters (point gathers and groups, RoIAlign's bilinear
samples), reductions, elementwise activations and losses, and per-thread arrays indexed at run
time that ptxas puts in local memory (the k-NN heap, the IoU polygon's points).

Sources (each file's header comment: repository, paths, commit, licence and every edit; no
kernel body is changed; licence texts in validate/prereg12/LICENSES.md; kernels left out, and
why: validate/prereg12/STATUS.md):
- open-mmlab/mmcv (Apache-2.0) mmcv/ops/csrc/common/cuda/*_cuda_kernel.cuh, in six files:
  mmcv_knn.cu (k nearest neighbours, a per-thread heap of up to 100 in local memory),
  mmcv_point_ops.cu (three nearest neighbours, ball query, point gathers and groups, three-point
  interpolation, furthest point sampling: a block a cloud), mmcv_iou3d.cu (bird's-eye IoU of
  rotated boxes, 16 x 16 threads, and the 3-D NMS masks, 64 threads a block), mmcv_roi_align.cu
  (RoIAlign forward), mmcv_focal_loss.cu (sigmoid focal loss forward and backward, softmax focal
  loss) and mmcv_box_ops.cu (box IoUs, points in rotated boxes, TIN's temporal shift).
- pjreddie/darknet (public domain: its LICENSE says so) src/blas_kernels.cu (dn_blas.cu: mean,
  variance and their block-a-channel versions, normalisation, bias scaling, bias and scale
  gradients, L2 normalisation, softmax a thread a group, the residual shortcut, upsampling) and
  src/{maxpool,avgpool}_layer_kernels.cu (dn_pool.cu).

Launch shapes follow each library's host code: mmcv's GET_BLOCKS (blocks of 512, at most 4096
blocks: the kernels' CUDA_1D_KERNEL_LOOP strides over the rest), the point ops' (blocks, C, B)
grids, iou3d's 16 x 16 threads and NMS's 64, the furthest point sampler's opt_n_threads (the
power of two at most n, capped at 1024) over one block a cloud; Darknet's BLOCK of 512 over
cuda_gridsize(n) (x capped at 65535 blocks, then a square-ish 2-D grid), the fast mean/variance
and bias gradient a block a channel. Sizes are detection / point-cloud shapes (YOLO feature maps
13 x 13 to 208 x 208, batches 1-64; clouds of 1K-16K points; 256-1024 RoIs): 2-64 MB mostly, a
few past the 50 MB L2, the neighbour searches tiny and compute-bound. Every launch is in bounds
and deterministic: indices come from randint within range; each output element has one writer
(TIN's grid-stride loop over the output's size rewrites an element with the same value, as the
library does); no launch uses atomics; reductions' orders are fixed by the code.

Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): kernels whose loops take their
stride from blockDim (or that index by blockIdx * blockDim), at five blocks over one problem,
nothing but the launch varying, the grid by the host's formula at that block: Darknet's mean
(a thread a channel), softmax (a thread a group) and max pooling; mmcv's k-NN (local memory),
bird's-eye IoU (2-D blocks, local memory) and RoIAlign.
"""
from __future__ import annotations

import math
from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, _sweep, array_arg, scalar_arg

PREREG12_DIR = Path(__file__).parent / "prereg12"
SUITES = {"mmcv_": "open-mmlab/mmcv", "dn_": "pjreddie/darknet"}
M1 = 1 << 20

_f, _i32, _l = partial(array_arg, "float32"), partial(array_arg, "int32"), partial(array_arg, "int64")
_i, _fs, _b = partial(scalar_arg, "int32"), partial(scalar_arg, "float32"), partial(scalar_arg, "uint8")
_u64 = partial(scalar_arg, "uint64")
KNN, PTS, IOU, ROI = "mmcv_knn.cu", "mmcv_point_ops.cu", "mmcv_iou3d.cu", "mmcv_roi_align.cu"
FOC, BOX, BLAS, POOL = "mmcv_focal_loss.cu", "mmcv_box_ops.cu", "dn_blas.cu", "dn_pool.cu"
MASK = "mmcv_masked_conv.cu"


def get_blocks(n: int, threads: int = 512) -> int:
    """mmcv's GET_BLOCKS (common_cuda_helper.hpp): cdiv(n, threads), at most 4096."""
    return min(_cdiv(n, threads), 4096)


def gridsize(n: int) -> tuple[int, int]:
    """Darknet's cuda_gridsize (src/cuda.c) at BLOCK 512."""
    k = (n - 1) // 512 + 1
    if k <= 65535:
        return k, 1
    x = math.ceil(math.sqrt(k))
    return x, (n - 1) // (x * 512) + 1


def opt_n_threads(n: int) -> int:
    """mmcv's furthest_point_sample_cuda.cu: the power of two at most n, capped at 1024."""
    return max(min(1 << int(math.log(n) / math.log(2.0)), 1024), 1)


# --- mmcv ---------------------------------------------------------------------------------------

def _knn(b: int, n: int, m: int, k: int, block: int = 512, sweep: bool = False) -> tuple:
    """knn_forward: a thread a query point (grid (blocks, b)), a heap of its k best."""
    name = f"mmcv_knn_forward_b{block}_{b}x{n}_m{m}_k{k}" if sweep else f"mmcv_knn_{b}x{n}_m{m}_k{k}"
    return (name, KNN, "knn_forward_cuda_kernel<float>", (min(_cdiv(m, block), 4096), b), block,
            [_i(b), _i(n), _i(m), _i(k), _f(b * n * 3), _f(b * m * 3), _i32(b * m * k, "zeros"), _f(b * m * k, "zeros")],
            ["knn", "point-cloud", "serial-loop", "local-memory", "heap", "compute",
             *(["sweep:mmcv_knn_forward"] if sweep else [])])


def _three_nn(b: int, n: int, m: int) -> tuple:
    return (f"mmcv_three_nn_{b}x{n}_known{m}", PTS, "three_nn_forward_cuda_kernel<float>", (get_blocks(n), b), 512,
            [_i(b), _i(n), _i(m), _f(b * n * 3), _f(b * m * 3), _f(b * n * 3, "zeros"), _i32(b * n * 3, "zeros")],
            ["knn", "point-cloud", "serial-loop", "broadcast", "compute"])


def _ball_query(b: int, n: int, m: int, radius: float, k: int) -> tuple:
    """ball_query: points uniform in the unit cube, the first k within `radius`."""
    return (f"mmcv_ball_query_{b}x{n}_m{m}_r{int(radius * 100)}_k{k}", PTS, "ball_query_forward_cuda_kernel<float>",
            (get_blocks(m), b), 512,
            [_i(b), _i(n), _i(m), _fs(0.0), _fs(radius), _i(k), _f(b * m * 3), _f(b * n * 3), _i32(b * m * k, "zeros")],
            ["point-cloud", "serial-loop", "data-dependent-loop", "early-exit"])


def _gather_points(b: int, c: int, n: int, m: int) -> tuple:
    return (f"mmcv_gather_points_{b}x{c}x{n}_m{m}", PTS, "gather_points_forward_cuda_kernel<float>",
            (get_blocks(m), c, b), 512,
            [_i(b), _i(c), _i(n), _i(m), _f(b * c * n), _i32(b * m, f"randint(0,{n})"), _f(b * c * m, "zeros")],
            ["gather", "random", "point-cloud", "3d-grid"])


def _group_points(b: int, c: int, n: int, npoints: int, k: int) -> tuple:
    return (f"mmcv_group_points_{b}x{c}x{n}_{npoints}x{k}", PTS, "group_points_forward_cuda_kernel<float>",
            (get_blocks(npoints * k), c, b), 512,
            [_i(b), _i(c), _i(n), _i(npoints), _i(k), _f(b * c * n), _i32(b * npoints * k, f"randint(0,{n})"),
             _f(b * c * npoints * k, "zeros")],
            ["gather", "random", "point-cloud", "3d-grid"])


def _three_interpolate(b: int, c: int, m: int, n: int) -> tuple:
    return (f"mmcv_three_interpolate_{b}x{c}_m{m}_n{n}", PTS, "three_interpolate_forward_cuda_kernel<float>",
            (get_blocks(n), c, b), 512,
            [_i(b), _i(c), _i(m), _i(n), _f(b * c * m), _i32(b * n * 3, f"randint(0,{m})"), _f(b * n * 3),
             _f(b * c * n, "zeros")],
            ["gather", "random", "point-cloud", "3d-grid", "interpolation"])


def _fps(b: int, n: int, m: int) -> tuple:
    """furthest_point_sampling: a block a cloud, opt_n_threads(n) threads, m rounds of a block
    max-reduction; temp starts at 100 (above every squared distance in the unit cube; mmcv fills 1e10)."""
    t = opt_n_threads(n)
    return (f"mmcv_furthest_point_sample_{b}x{n}_m{m}", PTS, f"furthest_point_sampling_forward_cuda_kernel<{t}>", b, t,
            [_i(b), _i(n), _i(m), _f(b * n * 3), _f(b * n, "randint(100,101)"), _i32(b * m, "zeros")],
            ["point-cloud", "few-blocks", "syncthreads", "shared", "reduction", "sequential-rounds"])


def _fps_dist(b: int, n: int, m: int) -> tuple:
    t = opt_n_threads(n)
    return (f"mmcv_furthest_point_sample_with_dist_{b}x{n}_m{m}", PTS,
            f"furthest_point_sampling_with_dist_forward_cuda_kernel<{t}>", b, t,
            [_i(b), _i(n), _i(m), _f(b * n * n), _f(b * n, "randint(100,101)"), _i32(b * m, "zeros")],
            ["point-cloud", "few-blocks", "syncthreads", "shared", "reduction", "sequential-rounds", "row-gather"])


def _iou_bev(na: int, nb: int, block: tuple[int, int] = (16, 16), sweep: bool = False) -> tuple:
    """iou3d_boxes_overlap_bev: 16 x 16 threads over (boxes b, boxes a); boxes random in the unit square."""
    name = f"mmcv_iou3d_overlap_bev_b{block[0]}x{block[1]}_{na}x{nb}" if sweep else f"mmcv_iou3d_overlap_bev_{na}x{nb}"
    return (name, IOU, "iou3d_boxes_overlap_bev_forward_cuda_kernel",
            (min(_cdiv(nb, block[0]), 4096), min(_cdiv(na, block[1]), 4096)), block,
            [_i(na), _f(na * 7), _i(nb), _f(nb * 7), _f(na * nb, "zeros")],
            ["iou", "rotated-boxes", "local-memory", "2d-block", "tiny-block", "compute", "divergence",
             *(["sweep:mmcv_iou3d_overlap_bev"] if sweep else [])])


def _nms3d(kind: str, n: int) -> tuple:
    """iou3d_nms3d(_normal): 64 threads a block over (cdiv(n, 64), cdiv(n, 64)) tiles."""
    blocks = get_blocks(n, 64)
    kernel = "iou3d_nms3d_forward_cuda_kernel" if kind == "rotated" else "iou3d_nms3d_normal_forward_cuda_kernel"
    return (f"mmcv_nms3d_{kind}_{n}", IOU, kernel, (blocks, blocks), 64,
            [_i(n), _fs(0.1), _f(n * 7), array_arg("uint64", n * _cdiv(n, 64), "zeros")],
            ["nms", "shared", "syncthreads", "tiny-block", "tile", "compute",
             *(["local-memory"] if kind == "rotated" else [])])


def _roi_align_args(rois: int, c: int, h: int, w: int, pooled: int, ratio: int, mode: int) -> list[str]:
    """RoIs random in [0, 1) scaled by spatial_scale max(h, w) onto the map (batch index 0)."""
    out = rois * c * pooled * pooled
    return [_i(out), _f(c * h * w), _f(rois * 5), _f(out, "zeros"), _f(out, "zeros"), _f(out, "zeros"),
            _i(pooled), _i(pooled), _fs(float(max(h, w))), _i(ratio), _i(mode), _b(1), _i(c), _i(h), _i(w)]


def _roi_align(rois: int, c: int, h: int, w: int, pooled: int, ratio: int, mode: int) -> tuple:
    out = rois * c * pooled * pooled
    return (f"mmcv_roi_align_{'max' if mode == 0 else 'avg'}_{rois}rois_{c}x{h}x{w}_p{pooled}_s{ratio}", ROI,
            "roi_align_forward_cuda_kernel<float>", get_blocks(out), 512, _roi_align_args(rois, c, h, w, pooled, ratio, mode),
            ["roi", "gather", "bilinear", "grid-stride", "detection"])


def _sigmoid_focal(kind: str, n: int, classes: int) -> tuple:
    total = n * classes
    return (f"mmcv_sigmoid_focal_loss_{kind}_{n // 1024}Kx{classes}", FOC, f"sigmoid_focal_loss_{kind}_cuda_kernel<float>",
            get_blocks(total), 512,
            [_i(total), _f(total), _l(n, f"randint(0,{classes})"), _f(classes), _f(total, "zeros"), _fs(2.0), _fs(0.25),
             _i(classes)],
            ["elementwise", "loss", "transcendental", "grid-stride", "broadcast"])


def _softmax_focal(n: int, classes: int) -> tuple:
    return (f"mmcv_softmax_focal_loss_forward_{n // 1024}Kx{classes}", FOC, "softmax_focal_loss_forward_cuda_kernel<float>",
            get_blocks(n), 512,
            [_i(n), _f(n * classes), _l(n, f"randint(0,{classes})"), _f(classes), _f(n, "zeros"), _fs(2.0), _fs(0.25),
             _i(classes)],
            ["loss", "gather", "strided", "grid-stride"])


def _bbox_overlaps(n1: int, n2: int, aligned: int) -> tuple:
    out = n1 if aligned else n1 * n2
    return (f"mmcv_bbox_overlaps_aligned_{n1 // M1}M" if aligned else f"mmcv_bbox_overlaps_{n1}x{n2}", BOX, "bbox_overlaps_cuda_kernel<float>",
            get_blocks(out), 512,
            [_f(n1 * 4), _f(n2 * 4), _f(out, "zeros"), _i(n1), _i(n2), _i(0), _b(aligned), _i(0)],
            ["iou", "boxes", "float4", "grid-stride", "aligned" if aligned else "all-pairs"])


def _points_in_boxes(kind: str, b: int, boxes: int, pts: int) -> tuple:
    out = b * pts * (boxes if kind == "all" else 1)
    return (f"mmcv_points_in_boxes_{kind}_{b}x{pts}_{boxes}boxes", BOX, f"points_in_boxes_{kind}_forward_cuda_kernel<float>",
            (get_blocks(pts), b), 512,
            [_i(b), _i(boxes), _i(pts), _f(b * boxes * 7), _f(b * pts * 3), _i32(out, "zeros")],
            ["point-cloud", "rotated-boxes", "serial-loop", "broadcast", "transcendental",
             "early-exit" if kind == "part" else "all-boxes"])


def _tin_shift(n: int, t: int, c: int, hw: int, groups: int) -> tuple:
    """tin_shift_forward: GET_BLOCKS(n * hw * c) blocks looping over the output's n * t * c * hw."""
    return (f"mmcv_tin_shift_{n}x{t}x{c}x{hw}_g{groups}", BOX, "tin_shift_forward_cuda_kernel<float>",
            get_blocks(n * hw * c), 512,
            [_i(n * t * c * hw), _f(n * t * c * hw), _i32(n * groups, f"randint(-{t // 2},{t // 2 + 1})"),
             _f(n * t * c * hw, "zeros"), _i(n), _i(c), _i(t), _i(hw), _i(groups), _i(c // groups)],
            ["shift", "copy", "serial-loop", "grid-stride", "video"])


def _masked_im2col(c: int, side: int, k: int, count: int) -> tuple:
    """MaskedIm2colForward: a thread a (channel, masked pixel), the k x k window into columns;
    mask positions randint over the map (repeats only read twice)."""
    n = c * count
    return (f"mmcv_masked_im2col_{c}x{side}x{side}_k{k}_{count}px", MASK, "MaskedIm2colForward<float>", get_blocks(n), 512,
            [_i(n), _f(c * side * side), _i(side), _i(side), _i(k), _i(k), _i(k // 2), _i(k // 2),
             _l(count, f"randint(0,{side})"), _l(count, f"randint(0,{side})"), _i(count), _f(n * k * k, "zeros")],
            ["im2col", "gather", "random", "window", "serial-loop", "grid-stride"])


# --- Darknet --------------------------------------------------------------------------------------

def _mean(kind: str, b: int, c: int, side: int, block: int = 512, sweep: bool = False) -> tuple:
    """mean_kernel / variance_kernel: a thread a channel over cuda_gridsize(filters)."""
    s = side * side
    args = [_f(b * c * s), _i(b), _i(c), _i(s), _f(c, "zeros")] if kind == "mean" else \
        [_f(b * c * s), _f(c), _i(b), _i(c), _i(s), _f(c, "zeros")]
    name = f"dn_{kind}_kernel_b{block}_{b}x{c}x{side}x{side}" if sweep else f"dn_{kind}_{b}x{c}x{side}x{side}"
    return (name, BLAS, f"{kind}_kernel", _cdiv(c, block), block, args,
            ["reduction", "per-channel", "serial-loop", "thread-per-row", "strided",
             *([f"sweep:dn_{kind}_kernel"] if sweep else [])])


def _fast_mean(kind: str, b: int, c: int, side: int) -> tuple:
    """fast_mean_kernel / fast_variance_kernel: a block of BLOCK (512) a channel."""
    s = side * side
    args = [_f(b * c * s), _i(b), _i(c), _i(s), _f(c, "zeros")] if kind == "mean" else \
        [_f(b * c * s), _f(c), _i(b), _i(c), _i(s), _f(c, "zeros")]
    return (f"dn_fast_{kind}_{b}x{c}x{side}x{side}", BLAS, f"fast_{kind}_kernel", c, 512, args,
            ["reduction", "per-channel", "block-per-row", "shared", "syncthreads", "serial-tail"])


def _normalize(b: int, c: int, side: int) -> tuple:
    n = b * c * side * side
    return (f"dn_normalize_{b}x{c}x{side}x{side}", BLAS, "normalize_kernel", gridsize(n), 512,
            [_i(n), _f(n), _f(c), _f(c), _i(b), _i(c), _i(side * side)],
            ["elementwise", "batchnorm", "broadcast", "in-place", "streaming"])


def _scale_bias(b: int, c: int, side: int) -> tuple:
    s = side * side
    return (f"dn_scale_bias_{b}x{c}x{side}x{side}", BLAS, "scale_bias_kernel", ((s - 1) // 512 + 1, c, b), 512,
            [_f(b * c * s), _f(c), _i(c), _i(s)], ["elementwise", "broadcast", "in-place", "3d-grid"])


def _backward_bias(b: int, c: int, side: int) -> tuple:
    s = side * side
    return (f"dn_backward_bias_{b}x{c}x{side}x{side}", BLAS, "backward_bias_kernel", c, 512,
            [_f(c, "zeros"), _f(b * c * s), _i(b), _i(c), _i(s)],
            ["reduction", "per-channel", "block-per-row", "shared", "syncthreads", "serial-tail"])


def _backward_scale(b: int, c: int, side: int) -> tuple:
    s = side * side
    return (f"dn_backward_scale_{b}x{c}x{side}x{side}", BLAS, "backward_scale_kernel", c, 512,
            [_f(b * c * s), _f(b * c * s), _i(b), _i(c), _i(s), _f(c, "zeros")],
            ["reduction", "per-channel", "block-per-row", "shared", "syncthreads", "serial-tail", "dot"])


def _l2norm(b: int, c: int, side: int) -> tuple:
    n = b * side * side
    return (f"dn_l2norm_{b}x{c}x{side}x{side}", BLAS, "l2norm_kernel", gridsize(n), 512,
            [_i(n), _f(b * c * side * side), _f(b * c * side * side, "zeros"), _i(b), _i(c), _i(side * side)],
            ["normalisation", "serial-loop", "column", "in-place", "transcendental"])


def _softmax_args(n: int, batch: int, batch_offset: int, groups: int, group_offset: int, stride: int) -> list[str]:
    size = batch * batch_offset if batch_offset else groups * group_offset
    return [_f(size), _i(n), _i(batch), _i(batch_offset), _i(groups), _i(group_offset), _i(stride), _fs(1.0),
            _f(size, "zeros")]


def _softmax_yolo(b: int, anchors: int, classes: int, side: int, block: int = 512, sweep: bool = False) -> tuple:
    """softmax_gpu as the region layer calls it: n = classes, batch = b * anchors, a group a pixel
    (group_offset 1), classes `side * side` apart (stride)."""
    s = side * side
    inputs = (classes + 5) * s
    threads = b * anchors * s
    name = f"dn_softmax_kernel_b{block}_{b}x{anchors}x{classes}x{side}x{side}" if sweep else \
        f"dn_softmax_yolo_{b}x{anchors}x{classes}x{side}x{side}"
    return (name, BLAS, "softmax_kernel", _cdiv(threads, block), block,
            _softmax_args(classes, b * anchors, inputs, s, 1, s),
            ["softmax", "serial-loop", "thread-per-row", "strided-row", "transcendental",
             *(["sweep:dn_softmax_kernel"] if sweep else [])])


def _softmax_rows(rows: int, classes: int) -> tuple:
    """softmax_gpu as the softmax layer calls it on a classifier's output: a thread a row of
    contiguous classes (stride 1), one group."""
    return (f"dn_softmax_rows_{rows}x{classes}", BLAS, "softmax_kernel", gridsize(rows), 512,
            _softmax_args(classes, rows, classes, 1, 0, 1),
            ["softmax", "serial-loop", "thread-per-row", "uncoalesced", "transcendental"])


def _shortcut(b: int, c1: int, side1: int, c2: int, side2: int) -> tuple:
    """shortcut_gpu: out (b, c2, side2^2) = s1 * out + s2 * add (b, c1, side1^2), over the smaller shape."""
    minw, minc = min(side1, side2), min(c1, c2)
    size = b * minw * minw * minc
    stride, sample = max(side1 // side2, 1), max(side2 // side1, 1)
    return (f"dn_shortcut_{b}x{c1}x{side1}_to_{c2}x{side2}", BLAS, "shortcut_kernel", gridsize(size), 512,
            [_i(size), _i(minw), _i(minw), _i(minc), _i(stride), _i(sample), _i(b), _i(side1), _i(side1), _i(c1),
             _f(b * c1 * side1 * side1), _i(side2), _i(side2), _i(c2), _fs(1.0), _fs(1.0), _f(b * c2 * side2 * side2)],
            ["elementwise", "residual", "in-place", "streaming", *(["strided"] if stride > 1 else [])])


def _upsample(b: int, c: int, side: int, stride: int) -> tuple:
    n = b * c * side * side * stride * stride
    return (f"dn_upsample_{b}x{c}x{side}x{side}_s{stride}", BLAS, "upsample_kernel", gridsize(n), 512,
            [_u64(n), _f(b * c * side * side), _i(side), _i(side), _i(c), _i(b), _i(stride), _i(1), _fs(1.0),
             _f(n, "zeros")],
            ["upsample", "broadcast", "gather", "streaming"])


def _maxpool(b: int, c: int, side: int, size: int, stride: int, block: int = 512, sweep: bool = False) -> tuple:
    """forward_maxpool_layer: a thread an output, pad = size - 1 (Darknet's default)."""
    pad = size - 1
    out_side = (side + pad - size) // stride + 1
    n = b * c * out_side * out_side
    name = f"dn_forward_maxpool_b{block}_{b}x{c}x{side}_k{size}s{stride}" if sweep else \
        f"dn_forward_maxpool_{b}x{c}x{side}_k{size}s{stride}"
    grid = gridsize(n) if block == 512 else _cdiv(n, block)
    return (name, POOL, "forward_maxpool_layer_kernel", grid, block,
            [_i(n), _i(side), _i(side), _i(c), _i(stride), _i(size), _i(pad), _f(b * c * side * side),
             _f(n, "zeros"), _i32(n, "zeros")],
            ["pooling", "stencil", "window", "image", *(["sweep:dn_forward_maxpool"] if sweep else [])])


def _maxpool_back(b: int, c: int, side: int, size: int, stride: int) -> tuple:
    """backward_maxpool_layer: a thread an input element; the saved argmax indexes random inputs."""
    pad = size - 1
    out_side = (side + pad - size) // stride + 1
    n = b * c * side * side
    m = b * c * out_side * out_side
    return (f"dn_backward_maxpool_{b}x{c}x{side}_k{size}s{stride}", POOL, "backward_maxpool_layer_kernel", gridsize(n), 512,
            [_i(n), _i(side), _i(side), _i(c), _i(stride), _i(size), _i(pad), _f(m), _f(n), _i32(m, f"randint(0,{n})")],
            ["pooling", "stencil", "window", "image", "backward", "gather"])


def _avgpool(kind: str, b: int, c: int, side: int) -> tuple:
    """forward/backward_avgpool_layer: a thread a (batch, channel), a serial loop over its pixels."""
    n = b * c
    s = side * side
    args = [_i(n), _i(side), _i(side), _i(c), _f(n * s), _f(n, "zeros")] if kind == "forward" else \
        [_i(n), _i(side), _i(side), _i(c), _f(n * s), _f(n)]
    return (f"dn_{kind}_avgpool_{b}x{c}x{side}x{side}", POOL, f"{kind}_avgpool_layer_kernel", gridsize(n), 512, args,
            ["pooling", "global", "serial-loop", "thread-per-row", "strided"])


LAUNCHES: list[tuple] = [
    # --- mmcv point ops (mmcv_knn.cu, mmcv_point_ops.cu): clouds of 1K-16K points
    _knn(2, 4096, 1024, 16), _knn(4, 1024, 1024, 32), _knn(1, 8192, 512, 8), _knn(8, 512, 256, 64),
    _three_nn(2, 4096, 1024),
    _ball_query(2, 8192, 2048, 0.2, 32), _ball_query(4, 4096, 1024, 0.1, 16),
    _gather_points(8, 64, 16384, 4096), _gather_points(16, 128, 4096, 1024),
    _group_points(8, 32, 8192, 1024, 16), _group_points(4, 64, 4096, 512, 32),
    _three_interpolate(8, 128, 1024, 4096), _three_interpolate(2, 256, 4096, 16384),
    _fps(4, 4096, 512), _fps(2, 16384, 256), _fps(8, 1024, 128), _fps_dist(2, 2048, 128),
    # --- rotated-box IoU and NMS (mmcv_iou3d.cu)
    _iou_bev(512, 512), _iou_bev(128, 2048), _nms3d("rotated", 512), _nms3d("normal", 4096),
    # --- RoIAlign (mmcv_roi_align.cu): FPN levels, 7 x 7 and 14 x 14 bins
    _roi_align(256, 256, 100, 152, 7, 2, 1), _roi_align(128, 256, 50, 76, 7, 2, 0), _roi_align(64, 256, 200, 304, 14, 2, 1),
    # --- losses and box ops (mmcv_focal_loss.cu, mmcv_box_ops.cu)
    _sigmoid_focal("forward", 64 * 1024, 80), _sigmoid_focal("backward", 64 * 1024, 80),
    _sigmoid_focal("forward", 16 * 1024, 20), _softmax_focal(128 * 1024, 80),
    _bbox_overlaps(2000, 1000, 0), _bbox_overlaps(2 * M1, 2 * M1, 1),
    _points_in_boxes("part", 2, 32, 16384), _points_in_boxes("all", 2, 16, 16384),
    _tin_shift(8, 8, 64, 28 * 28, 4), _tin_shift(4, 16, 128, 14 * 14, 8),
    _masked_im2col(128, 128, 3, 4096), _masked_im2col(64, 256, 3, 16384),
    # --- Darknet's BLAS kernels (dn_blas.cu): YOLO feature maps
    _mean("mean", 4, 512, 26), _mean("mean", 16, 128, 52), _mean("variance", 8, 64, 104),
    _fast_mean("mean", 16, 256, 52), _fast_mean("mean", 1, 1024, 13), _fast_mean("variance", 8, 128, 104),
    _normalize(8, 128, 104), _scale_bias(8, 256, 52),
    _backward_bias(8, 256, 52), _backward_scale(8, 128, 52), _l2norm(4, 256, 52),
    _softmax_yolo(8, 3, 80, 52), _softmax_rows(512, 1000), _softmax_rows(8192, 100),
    _shortcut(8, 128, 104, 128, 104), _shortcut(8, 64, 104, 128, 52), _upsample(8, 256, 26, 2), _upsample(4, 128, 52, 2),
    # --- Darknet's pooling (dn_pool.cu)
    _maxpool(4, 64, 208, 2, 2), _maxpool(8, 512, 19, 5, 1), _maxpool_back(4, 32, 208, 2, 2),
    _avgpool("forward", 64, 1024, 7), _avgpool("forward", 8, 1000, 13), _avgpool("backward", 64, 1024, 7),
    # --- sweeps: five blocks over one problem
    *[_mean("mean", 8, 1024, 13, b, True) for b in (32, 64, 128, 256, 512)],
    *[_softmax_yolo(4, 3, 80, 26, b, True) for b in (32, 64, 128, 256, 512)],
    *[_maxpool(8, 128, 52, 2, 2, b, True) for b in (64, 128, 256, 512, 1024)],
    *[_knn(2, 2048, 2048, 16, b, True) for b in (32, 64, 128, 256, 512)],
    *[_iou_bev(256, 512, b, True) for b in ((8, 8), (16, 16), (32, 8), (8, 32), (32, 32))],
    *_sweep("mmcv_roi_align", ROI, "roi_align_forward_cuda_kernel<float>", [(64,), (128,), (256,), (512,), (1024,)],
            lambda b: get_blocks(128 * 256 * 49, b[0]), _roi_align_args(128, 256, 100, 152, 7, 2, 1),
            ["roi", "gather", "bilinear", "grid-stride", "detection"], "128rois"),
]


PREREG12 = PreregSet("prereg12", PREREG12_DIR, SUITES, LAUNCHES)


def prereg12_cases() -> list[Case]:
    """The twelfth pre-registered set's launches as cases (set `prereg12`)."""
    return PREREG12.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG12.write_registry()}")
