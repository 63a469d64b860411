"""The fourteenth pre-registered set (`validate run --cases prereg14`): public CUDA kernels of two
repositories this project had never used (NVIDIA/TensorRT, apache/mxnet), copied into
validate/prereg14/*.cu, whose launches were fixed, and recorded on the H100 and the H200 into sealed
folders, before any prediction of them was committed. Held out of every fit (validate.families),
like the first thirteen sets; built with the same machinery (validate.prereg_cases.PreregSet).
Change no launch once it is registered.

The brief named NVIDIA/DALI as the second source; DALI's kernels take arrays of per-sample
descriptors in device memory (structs holding device pointers, e.g. GridMaskSampleDesc, with
BlockDesc tiles), which memsim's argument initialisers cannot build, so apache/mxnet's
src/operator/ kernels, the brief's fallback, stand in for it (validate/prereg14/STATUS.md).

This set favours inference-engine and operator-library shapes: a block a row with cub block
reductions (TensorRT's skip and embedding layer norms, float and half, 16-byte vector loads in
skipln_vec; the mask index, a block a sequence), tiny launches of one or a few blocks (YOLO's region
sigmoid on a 13 x 13 grid, the region softmax, the mask index, CorrelateDataSubtract's 61 blocks),
one-thread blocks (ScatterND's index transform and its byte-wise memcpy of a row, stores narrower
than 4 bytes), 16-thread blocks storing at a stride of the channel count (MXNet's correlation
rearrangement), 32-thread blocks looping over __syncthreads rounds (the multiplicative correlation,
lane 0 summing serially), sparse scattered stores into a 55 MB plane set (PointPillars' BEV scatter,
float and half), gathers (embedding rows from a 94 MB table, RoIAlign's and crop-and-resize's
bilinear taps, the bilinear sampler, CountSketch's backward), float atomics whose sums are exact
(SSD's normalisation in shared memory, CountSketch's forward into global memory: small integers),
transposes (the top-k batched transpose, SSD's confidence permute, float and half), streaming
elementwise kernels up to 128 MB (leaky ReLU, group norm's in-place scale and shift) and a 65535-block
grid of mostly idle 1024-thread blocks (mshadow's launch of ROIPooling).

Sources (each file's header comment: repository, paths, commit, licence and every edit; no kernel
body is changed; licence text in validate/prereg14/LICENSES.md; kernels left out, and why:
validate/prereg14/STATUS.md):
- NVIDIA/TensorRT (Apache-2.0) plugin/, in four files: trt_detection.cu (leaky ReLU, the region
  layer's sigmoid and softmax, SSD's confidence permute and L2 normalisation, crop-and-resize),
  trt_bert.cu (skip layer norm, embedding layer norm, mask index, group norm's scale and shift),
  trt_scatter.cu (ScatterND, PointPillars' BEV scatter, the batched transpose) and trt_roi_align.cu.
- apache/mxnet (Apache-2.0) src/operator/, in two files: mxnet_correlation.cu (Correlation: the
  rearrangement, the multiplicative and the subtractive kernels) and mxnet_roi_sampling.cu
  (ROIPooling, BilinearSampler, CountSketch; PSROIPooling is copied but its launches were dropped:
  the SASS engine cannot lower its DSETP.MAX.AND, STATUS.md).

Launch shapes follow the library's host code: TensorRT's BS = 512 launchers (cdiv(n, 512) blocks)
for leaky ReLU, the region layer, the permute and the across-spatial normalisation kernels; 256
blocks of 128 for the per-position normalisation; 1024-thread blocks for crop-and-resize and RoIAlign
(RoIAlign's maxThreadsPerBlock is the device's, 1024); a block a row for the layer norms (32 threads
for ld <= 32, ld / VPT for ld 768 and 1024, 256 otherwise; (S, B) blocks of 256 for the embedding);
(cdiv(HW, 256), C, B) for group norm; one thread a block for ScatterND; 64-thread blocks over
cdiv(X * Y, 64) for the BEV scatter; 256 for the transpose. MXNet: mshadow's kMaxThreadsPerBlock
(1024) for the sampler and the subtractive correlation, (65535, ...) blocks of 1024 for
ROIPooling, (cdiv(HW, 16), C, N) blocks of 16 for the rearrangement, (topW, topH, N) blocks of 32
with kernel_size^2 * C floats of dynamic shared memory for the multiplicative correlation,
min(512, n) threads for CountSketch. Every launch
is in bounds and deterministic: indices come from randint within range or a permutation; the BEV
scatter's coordinates may repeat, but every pillar's features are ones, so repeated cells get equal
values; float atomics add small integers (randint(0,4), signs in {-1, 0, 1}), exact in any order.

Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): kernels whose loops take their
stride from blockDim, at five blocks over one problem, the grid by the host's formula with the
block in place of its constant: SSD's per-channel scale, crop-and-resize, the batched transpose, the
subtractive correlation, the bilinear sampler and CountSketch's forward.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, array_arg, scalar_arg

PREREG14_DIR = Path(__file__).parent / "prereg14"
SUITES = {"trt_": "NVIDIA/TensorRT", "mxnet_": "apache/mxnet"}
# nvcc makes a lambda written in a kernel's body a device lambda; NVRTC needs -default-device to
# do the same (trt_bert.cu's cub reductions take lambdas). No copied file has a host function.
OPTIONS = ("-default-device",)

_f, _h, _i32 = partial(array_arg, "float32"), partial(array_arg, "float16"), partial(array_arg, "int32")
_i, _fs, _hs, _b = partial(scalar_arg, "int32"), partial(scalar_arg, "float32"), partial(scalar_arg, "float16"), \
    partial(scalar_arg, "uint8")
DET, BERT, SCAT, ROIA = "trt_detection.cu", "trt_bert.cu", "trt_scatter.cu", "trt_roi_align.cu"
CORR, ROIS = "mxnet_correlation.cu", "mxnet_roi_sampling.cu"
K1, M1 = 1024, 1 << 20
MAX_GRID = 65535   # mshadow::cuda::kMaxGridDim


def _sw(name: str, block: int, size: str, sweep: bool, fallback: str) -> tuple[str, list[str]]:
    return (f"{name}_b{block}_{size}", [f"sweep:{name}"]) if sweep else (fallback, [])


def _arr(half: bool):
    return _h if half else _f


# --- TensorRT detection kernels (trt_detection.cu) ------------------------------------------------

def _lrelu(n: int) -> tuple:
    """pReLUKernel<512> as lReLUGPU launches it: cdiv(n, 512) blocks of 512."""
    return (f"trt_lrelu_{n // M1}M" if n >= M1 else f"trt_lrelu_{n // K1}K", DET, "pReLUKernel<512>", _cdiv(n, 512), 512,
            [_i(n), _fs(0.1), _f(n), _f(n, "zeros")], ["elementwise", "streaming", "grid-stride"])


def _region_activate(h: int, w: int, part: str) -> tuple:
    """activateKernel<512>: regionGPU's sigmoid of (t_x, t_y) (2HW) or of t_o (HW) of one anchor."""
    n = 2 * h * w if part == "xy" else h * w
    return (f"trt_region_activate_{part}_{h}x{w}", DET, "activateKernel<512>", _cdiv(n, 512), 512,
            [_f(n), _i(n)], ["elementwise", "in-place", "transcendental", "tiny", "few-blocks"])


def _region_softmax(batch: int, num: int, classes: int, h: int, w: int) -> tuple:
    """softmaxKernel<512>: a thread a (batch * anchor, cell) over the classes at a stride of H*W;
    the buffers start at input + 5HW (regionGPU's pointers), batch * C * HW - 5HW floats."""
    c, hw = num * (4 + classes + 1), h * w
    size = batch * c * hw - 5 * hw
    return (f"trt_region_softmax_b{batch}_{h}x{w}_c{classes}", DET, "softmaxKernel<512>", _cdiv(batch * num * hw, 512),
            512, [_f(size), _i(classes), _i(batch * num), _i(c * hw // num), _i(hw), _i(1), _i(hw), _fs(1.0),
                  _f(size, "zeros")],
            ["softmax", "serial-loop", "strided", "transcendental", "few-blocks"])


def _permute(batch: int, boxes: int, classes: int, half: bool, sigmoid: int) -> tuple:
    """permuteData_kernel<Dtype, 512>: [batch, boxes, classes, 1] -> [batch, classes, boxes, 1]."""
    n = batch * boxes * classes
    t = "f16" if half else "f32"
    return (f"trt_permute_data_{t}_b{batch}_{boxes}x{classes}{'_sigmoid' if sigmoid else ''}", DET,
            f"permuteData_kernel<{'__half' if half else 'float'}, 512>", _cdiv(n, 512), 512,
            [_i(n), _i(classes), _i(boxes), _i(1), _b(sigmoid), _arr(half)(n), _arr(half)(n, "zeros")],
            ["transpose", "scatter", "grid-stride", *(["half"] if half else []), *(["transcendental"] if sigmoid else [])])


def _normalize(n: int, c: int, h: int, w: int, shared: int) -> tuple:
    """normalizeNotAcrossSpatialKernel<128>: 256 blocks of 128 (normalizeNotAcrossSpatialGpu); the
    inputs are small integers, so the shared float atomics' column sums are exact."""
    return (f"trt_normalize_b{n}_{c}x{h}x{w}{'_shared' if shared else ''}", DET, "normalizeNotAcrossSpatialKernel<128>",
            256, 128, [_b(shared), _i(n), _i(c), _i(h), _i(w), _fs(1e-10), _f(c), _f(n * c * h * w, "randint(0,4)"),
                       _f(n * c * h * w, "zeros")],
            ["normalize", "block-per-tile", "shared", "atomics", "syncthreads", "column", "grid-stride"])


def _square(c: int, h: int, w: int) -> tuple:
    dim = c * h * w
    return (f"trt_normalize_square_{c}x{h}x{w}", DET, "squareKernel", _cdiv(dim, 512), 512, [_i(dim), _f(dim), _f(dim, "zeros")],
            ["elementwise", "streaming", "grid-stride"])


def _scale_channel(c: int, h: int, w: int, block: int = 512, sweep: bool = False) -> tuple:
    """scalChannelKernel: (dim + 511) / 512 blocks of 512; the host runs it in place (output, scale,
    output); here input and output are two buffers (one launch's arguments cannot alias)."""
    dim, size = c * h * w, f"{c}x{h}x{w}"
    name, extra = _sw("trt_normalize_scale_channel", block, size, sweep, f"trt_normalize_scale_channel_{size}")
    return (name, DET, "scalChannelKernel", _cdiv(dim, block), block, [_i(dim), _i(h * w), _f(dim), _f(c), _f(dim, "zeros")],
            ["elementwise", "broadcast", "grid-stride", *extra])


def _crop_resize(batch: int, boxes: int, crop: int, depth: int, h: int, w: int, block: int = 1024,
                 sweep: bool = False) -> tuple:
    """cropAndResizeKernel<float>: cdiv(volume, 1024) blocks of 1024 (cropAndResizeInference)."""
    vol = batch * boxes * crop * crop * depth
    size = f"b{batch}_{boxes}x{crop}x{crop}_d{depth}"
    name, extra = _sw("trt_crop_resize", block, size, sweep, f"trt_crop_resize_{size}")
    return (name, DET, "cropAndResizeKernel<float>", _cdiv(vol, block), block,
            [_i(vol), _f(batch * depth * h * w), _f(batch * boxes * 4), _i(boxes), _i(batch), _i(h), _i(w), _i(crop),
             _i(crop), _i(depth), _fs(0.0), _f(vol, "zeros")],
            ["resize", "bilinear", "gather", "grid-stride", *extra])


# --- TensorRT BERT and group norm kernels (trt_bert.cu) -------------------------------------------

def _skipln(ld: int, rows: int, half: bool, bias: int = 1) -> tuple:
    """computeSkipLayerNorm: a block a row; ld <= 32 the Small kernel (32 threads), 768 and 1024
    skipln_vec (ld / VPT threads, VPT = 16 bytes), else skipLayerNormKernel (256)."""
    t, vpt = ("half", 8) if half else ("float", 4)
    hb = "true" if bias else "false"
    if ld <= 32:
        kernel, block, tags, vec = f"skipLayerNormKernelSmall<{t}, 32, {hb}>", 32, ["tiny-block"], False
    elif ld in (768, 1024):
        kernel, block, tags, vec = f"skipln_vec<{t}, {ld // vpt}, {vpt}, {hb}>", ld // vpt, ["vector-16B"], True
    else:
        kernel, block, tags, vec = f"skipLayerNormKernel<{t}, 256, {hb}>", 256, ["serial-loop"], False
    a = _arr(half)
    x, row = [a(rows * ld), a(rows * ld)], [a(ld), a(ld)]
    args = [_i(ld), *x, a(rows * ld, "zeros"), *row, a(ld)] if vec else [_i(ld), *x, *row, a(rows * ld, "zeros"), a(ld)]
    return (f"trt_skip_layernorm_{'f16' if half else 'f32'}_{rows}x{ld}{'' if bias else '_nobias'}", BERT, kernel, rows,
            block, args, ["layernorm", "block-per-row", "reduction", "cub", "syncthreads", *tags, *(["half"] if half else [])])


def _emb_layernorm(ld: int, batch: int, seq: int, vocab: int, half: bool) -> tuple:
    """embLayerNormKernel<T, 256>: (S, B) blocks of 256; word ids over a vocab-row table, token ids
    0 or 1, the position table's 512 rows (the first S read)."""
    a = _arr(half)
    return (f"trt_emb_layernorm_{'f16' if half else 'f32'}_{batch}x{seq}x{ld}_v{vocab // 1000}K", BERT,
            f"embLayerNormKernel<{'half' if half else 'float'}, 256>", (seq, batch), 256,
            [_i(ld), _i32(batch * seq, f"randint(0,{vocab})"), _i32(batch * seq, "randint(0,2)"), _f(ld), _f(ld),
             a(vocab * ld), a(512 * ld), a(2 * ld), _i(vocab), _i(2), a(batch * seq * ld, "zeros")],
            ["layernorm", "embedding", "gather", "random", "block-per-row", "reduction", "cub", "syncthreads",
             *(["half"] if half else [])])


def _mask_idx(seq: int, batch: int) -> tuple:
    """computeMaskIdx: a block a sequence; maskIdxKernelSmall<32|128|384> up to 128 and at 384, else
    maskIdxKernel<256>; the mask [S, B] read column-wise."""
    tpb = 32 if seq <= 32 else 128 if seq <= 128 else 384 if seq == 384 else None
    kernel, block = (f"maskIdxKernelSmall<{tpb}>", tpb) if tpb else ("maskIdxKernel<256>", 256)
    return (f"trt_mask_idx_s{seq}_b{batch}", BERT, kernel, batch, block,
            [_i(seq), _i32(seq * batch, "randint(0,2)"), _i32(batch, "zeros")],
            ["reduction", "cub", "block-per-row", "strided", "few-blocks", "tiny"])


def _scale_shift(b: int, c: int, hw: int) -> tuple:
    """scaleShiftChannelsInplaceKernel<float, 256>: (cdiv(HW, 256), C, B) blocks of 256, in place."""
    return (f"trt_group_norm_scale_shift_{b}x{c}x{hw // K1}K", BERT, "scaleShiftChannelsInplaceKernel<float, 256>",
            (_cdiv(hw, 256), c, b), 256, [_f(b * c * hw), _i(hw), _f(c), _f(c)],
            ["elementwise", "in-place", "streaming", "3d-grid", "broadcast"])


# --- TensorRT scatter and layout kernels (trt_scatter.cu) -----------------------------------------

def _transform_idx(rows: int, rank: int) -> tuple:
    return (f"trt_scatter_nd_transform_idx_{rows}x{rank}", SCAT, "transformIdxKernel", rows, 1,
            [_i32(rows, "zeros"), _i32(rank, "randint(1,64)"), _i32(rows * rank, "randint(0,64)"), _i(rank)],
            ["one-thread-block", "gather", "serial-loop"])


def _scatter_nd(rows: int, row_floats: int) -> tuple:
    """scatterKernel<<<nRows, 1>>>: a row of rowSize * 4 bytes memcpy'd by one thread to row
    indices[i] (a permutation: every row written once)."""
    nbytes = row_floats * 4
    return (f"trt_scatter_nd_{rows}x{nbytes}B", SCAT, "scatterKernel", rows, 1,
            [array_arg("int8", rows * nbytes, "zeros"), array_arg("int8", rows * nbytes), _i32(rows, "permutation"),
             _i(nbytes), _i(nbytes)],
            ["one-thread-block", "scatter", "memcpy", "byte-stores", "serial-loop"])


def _scatter_bev(pillars: int, x: int, y: int, half: bool) -> tuple:
    """scatterBEV_kernel<Element>: cdiv(X * Y, 64) blocks of 64 (pillarScatterKernelLaunch, one
    batch element); every pillar's 64 features are ones, coordinates randint(0, min(X, Y))."""
    a = _arr(half)
    return (f"trt_pillar_scatter_{'f16' if half else 'f32'}_{pillars // 1000}Kp_{x}x{y}", SCAT,
            f"scatterBEV_kernel<{'half' if half else 'float'}>", _cdiv(x * y, 64), 64,
            [a(pillars * 64, "ones"), array_arg("uint32", pillars * 4, f"randint(0,{min(x, y)})"),
             array_arg("uint32", 1, f"randint({pillars},{pillars + 1})"), scalar_arg("uint32", x), scalar_arg("uint32", y),
             a(64 * x * y, "zeros")],
            ["scatter", "random", "shared", "syncthreads", "idle-blocks", "partial-sectors", *(["half"] if half else [])])


def _transpose(outer: int, rows: int, cols: int, half: bool, block: int = 256, sweep: bool = False) -> tuple:
    """batchedTranspose2DKernel<T>: cdiv(total, 256) blocks of 256 (launchBatchedTranspose2D)."""
    n, t = outer * rows * cols, "f16" if half else "f32"
    size = f"{t}_{outer}x{rows}x{cols}"
    name, extra = _sw("trt_batched_transpose", block, size, sweep, f"trt_batched_transpose_{size}")
    return (name, SCAT, f"batchedTranspose2DKernel<{'half' if half else 'float'}>", _cdiv(n, block), block,
            [_arr(half)(n), _arr(half)(n, "zeros"), _i(outer), _i(rows), _i(cols)],
            ["transpose", "uncoalesced", *(["half"] if half else []), *extra])


# --- TensorRT RoIAlign (trt_roi_align.cu) ---------------------------------------------------------

def _roi_align(rois: int, c: int, side: int, pooled: int, ratio: int, avg: int, half: bool, batch: int = 2) -> tuple:
    """RoIAlignForward<T>: ceil(out / 1024) blocks of 1024; boxes random in [0, 1) scaled by the
    feature side (spatialScale), batch indices randint(0, batch), aligned 0 (malformed boxes 1 x 1)."""
    out, a, t = rois * c * pooled * pooled, _arr(half), "f16" if half else "f32"
    return (f"trt_roi_align_{t}_{rois}r_c{c}_{side}x{side}_p{pooled}_s{ratio}_{'avg' if avg else 'max'}", ROIA,
            f"RoIAlignForward<{'half' if half else 'float'}>", _cdiv(out, 1024), 1024,
            [_i(out), a(batch * c * side * side), (_hs if half else _fs)(float(side)), _i(c), _i(side), _i(side),
             _i(pooled), _i(pooled), _i(ratio), a(rois * 4), a(out, "zeros"), _i(avg), _i32(rois, f"randint(0,{batch})"), _i(0)],
            ["roi", "bilinear", "gather", "grid-stride", *(["data-dependent-loop"] if ratio == 0 else []),
             *(["half"] if half else [])])


# --- MXNet Correlation (mxnet_correlation.cu) -----------------------------------------------------

def _corr_shape(h: int, w: int, pad: int, disp: int, stride2: int, ksize: int = 1, stride1: int = 1):
    """correlation-inl.h's shapes: padded sides, top sides, grid radius and width, top channels."""
    ph, pw, kr = h + 2 * pad, w + 2 * pad, (ksize - 1) // 2
    border = disp + kr
    th, tw = -(-(ph - 2 * border) // stride1), -(-(pw - 2 * border) // stride1)
    radius = disp // stride2
    return ph, pw, th, tw, radius, 2 * radius + 1, (2 * radius + 1) ** 2, kr


def _rearrange(n: int, c: int, h: int, w: int, pad: int) -> tuple:
    """blob_rearrange_kernel2: ((HW - 1) / 16 + 1, C, N) blocks of 16, NCHW -> padded NHWC."""
    p = (h + 2 * pad) * (w + 2 * pad)
    return (f"mxnet_correlation_rearrange_{n}x{c}x{h}x{w}_pad{pad}", CORR, "blob_rearrange_kernel2<float>",
            ((h * w - 1) // 16 + 1, c, n), 16, [_f(n * c * h * w), _f(n * p * c, "zeros"), _i(n), _i(c), _i(w), _i(h),
                                                _i(h * w), _i(pad), _i(p)],
            ["transpose", "half-warp-block", "strided-store", "partial-sectors", "syncthreads"])


def _correlate(n: int, c: int, h: int, w: int, pad: int, disp: int, stride2: int) -> tuple:
    """CorrelateData<float>: (topW, topH, N) blocks of 32, kernel_size^2 * C floats of shared."""
    ph, pw, th, tw, radius, width, tc, kr = _corr_shape(h, w, pad, disp, stride2)
    count = th * tw * tc
    return (f"mxnet_correlate_{n}x{c}x{h}x{w}_d{disp}_s{stride2}", CORR, "CorrelateData<float>", (tw, th, n), 32,
            [_i(count), _i(n), _i(tw), _i(th), _i(tc), _i(count), _i(disp), _i(radius), _i(width), _i(kr), _i(1), _i(1),
             _i(stride2), _i(pw), _i(ph), _i(c), _f(n * ph * pw * c), _f(n * ph * pw * c), _f(n * count, "zeros")],
            ["correlation", "tiny-block", "shared", "syncthreads", "serial-loop", "block-per-row", "compute"], c * 4)


def _correlate_sub(c: int, h: int, w: int, pad: int, disp: int, stride2: int, block: int = 1024,
                   sweep: bool = False) -> tuple:
    """CorrelateDataSubtract<float> for item 0 of one: cdiv(topcount, 1024) blocks of 1024."""
    ph, pw, th, tw, radius, width, tc, kr = _corr_shape(h, w, pad, disp, stride2)
    count, size = th * tw * tc, f"{c}x{h}x{w}_d{disp}_s{stride2}"
    name, extra = _sw("mxnet_correlate_subtract", block, size, sweep, f"mxnet_correlate_subtract_{size}")
    return (name, CORR, "CorrelateDataSubtract<float>", _cdiv(count, block), block,
            [_i(count), _i(1), _i(0), _i(tw), _i(th), _i(tc), _i(count), _i(disp), _i(radius), _i(width), _i(kr), _i(1),
             _i(stride2), _i(pw), _i(ph), _i(c), _f(ph * pw * c), _f(ph * pw * c), _f(count, "zeros")],
            ["correlation", "serial-loop", "grid-stride", "few-blocks", "compute", *extra])


# --- MXNet ROI and sampling operators (mxnet_roi_sampling.cu) -------------------------------------

def _roi_pool(rois: int, c: int, h: int, w: int, pooled: int, scale: float) -> tuple:
    """ROIPoolForwardKernel<float>: (65535, cdiv(cdiv(count, 1024), 65535)) blocks of 1024; the rois'
    fields random in [0, 1): batch index 0, corners within [0, spatial_scale)."""
    count = rois * c * pooled * pooled
    return (f"mxnet_roi_pool_{rois}r_c{c}_{h}x{w}_p{pooled}", ROIS, "ROIPoolForwardKernel<float>",
            (MAX_GRID, _cdiv(_cdiv(count, 1024), MAX_GRID)), 1024,
            [_i(count), _f(c * h * w), _fs(scale), _i(1), _i(c), _i(h), _i(w), _i(pooled), _i(pooled), _f(rois * 5),
             _f(count, "zeros"), array_arg("int64", count, "zeros")],
            ["roi", "pooling", "serial-loop", "idle-blocks", "huge-grid", "grid-stride"])


def _bilinear_sampler(n: int, c: int, ih: int, iw: int, oh: int, ow: int, block: int = 1024, sweep: bool = False) -> tuple:
    """BilinearSamplerForwardKernel<float>: (min(blocks, 65535), ...) blocks of kMaxThreadsPerBlock
    (1024); the grid's coordinates random in [0, 1) (the lower-right quadrant of each image)."""
    out, size = n * c * oh * ow, f"{n}x{c}x{ih}x{iw}_o{oh}x{ow}"
    blocks = _cdiv(out, block)
    name, extra = _sw("mxnet_bilinear_sampler", block, size, sweep, f"mxnet_bilinear_sampler_{size}")
    return (name, ROIS, "BilinearSamplerForwardKernel<float>", (min(blocks, MAX_GRID), _cdiv(blocks, MAX_GRID)), block,
            [_i(c), _i(ih), _i(iw), _f(n * c * ih * iw), _f(n * 2 * oh * ow), _i(n), _i(c), _i(oh), _i(ow), _f(out, "zeros")],
            ["sampling", "bilinear", "gather", "grid-stride", *extra])


def _sketch(batch: int, in_dim: int, out_dim: int, block: int | None = None, sweep: bool = False) -> tuple:
    """sketch_forward_kernel<float>: min(512, n) threads over cdiv(n, them) blocks (CountSketchForward,
    one processing batch); float atomics of small integers (inputs randint(0,4), signs -1, 0, 1)."""
    n = batch * in_dim
    block = block or min(512, n)
    size = f"{batch}x{in_dim}_o{out_dim}"
    name, extra = _sw("mxnet_count_sketch", block, size, sweep, f"mxnet_count_sketch_{size}")
    return (name, ROIS, "sketch_forward_kernel<float>", _cdiv(n, block), block,
            [_i(n), _f(batch * out_dim, "zeros"), _f(in_dim, f"randint(0,{out_dim})"), _f(in_dim, "randint(-1,2)"),
             _f(n, "randint(0,4)"), _i(batch), _i(in_dim), _i(out_dim)],
            ["atomics", "scatter", "random", *extra])


def _sketch_backward(batch: int, in_dim: int, out_dim: int) -> tuple:
    n = batch * in_dim
    return (f"mxnet_count_sketch_backward_{batch}x{in_dim}_o{out_dim}", ROIS, "sketch_backward_kernel<float>",
            _cdiv(n, min(512, n)), min(512, n),
            [_i(n), _f(n, "zeros"), _f(in_dim, f"randint(0,{out_dim})"), _f(in_dim, "randint(-1,2)"), _f(batch * out_dim),
             _i(batch), _i(in_dim), _i(out_dim)],
            ["gather", "random", "backward"])


BLOCKS = (64, 128, 256, 512, 1024)
LAUNCHES: list[tuple] = [
    # --- TensorRT detection (trt_detection.cu): leaky ReLU 64K-16M, YOLOv2's region layer on 13 x 13 and
    # 19 x 19 grids, SSD300's 8732 boxes, its conv4_3 normalisation (512 x 38 x 38), Mask R-CNN crops
    _lrelu(64 * K1), _lrelu(4 * M1), _lrelu(16 * M1),
    _region_activate(13, 13, "xy"), _region_activate(52, 52, "obj"),
    _region_softmax(1, 5, 20, 13, 13), _region_softmax(8, 5, 80, 19, 19),
    _permute(8, 8732, 21, False, 0), _permute(32, 8732, 21, True, 0), _permute(8, 8732, 91, False, 1),
    _normalize(8, 512, 38, 38, 0), _normalize(1, 512, 38, 38, 1),
    _square(512, 38, 38), _scale_channel(512, 38, 38),
    _crop_resize(1, 300, 7, 256, 38, 50), _crop_resize(2, 100, 14, 64, 64, 64),
    # --- TensorRT BERT and group norm (trt_bert.cu): BERT-base/large rows, few-row and tiny-ld rows
    _skipln(768, 4096, False), _skipln(768, 4096, True), _skipln(1024, 2048, False, 0), _skipln(1024, 8192, True, 0),
    _skipln(512, 4096, False), _skipln(2048, 1024, True), _skipln(32, 8192, False), _skipln(768, 8, False),
    _skipln(1024, 16, True),
    _emb_layernorm(768, 32, 128, 30522, False), _emb_layernorm(1024, 8, 384, 30522, True),
    _mask_idx(32, 64), _mask_idx(384, 8), _mask_idx(512, 16),
    _scale_shift(8, 64, 16 * K1), _scale_shift(16, 128, 9216),
    # --- TensorRT scatter and layout (trt_scatter.cu)
    _transform_idx(4096, 3),
    _scatter_nd(4096, 64), _scatter_nd(1024, 16), _scatter_nd(16384, 4),
    _scatter_bev(12000, 432, 496, False), _scatter_bev(6000, 432, 496, True),
    _transpose(32, 512, 512, False), _transpose(16, 1024, 1024, True), _transpose(8, 32, 100, False),
    # --- TensorRT RoIAlign (trt_roi_align.cu)
    # (RoIAlignForward<half>, 64 rois of 256 channels on 64 x 64, was dropped: the engine does not run
    # its VHMNMX, validate/prereg14/STATUS.md)
    _roi_align(100, 256, 64, 7, 2, 1, False), _roi_align(64, 256, 32, 7, 0, 0, False), _roi_align(16, 64, 32, 7, 2, 1, False),
    # --- MXNet Correlation (mxnet_correlation.cu): FlowNetC-like shapes, shrunk
    _rearrange(1, 256, 48, 64, 20), _rearrange(4, 64, 96, 128, 4),
    _correlate(2, 32, 16, 16, 4, 4, 1), _correlate(1, 64, 24, 32, 8, 8, 2),
    _correlate_sub(64, 24, 32, 8, 8, 2),
    # --- MXNet ROI and sampling (mxnet_roi_sampling.cu)
    _roi_pool(64, 256, 64, 64, 7, 48.0),
    # (PSROIPoolForwardKernel's two launches, 128 rois of 21 x 7 x 7 on 48 x 64 and 300 of 10 x 3 x 3 on
    # 38 x 50, were dropped: the engine does not lower its DSETP.MAX.AND, validate/prereg14/STATUS.md)
    _bilinear_sampler(8, 64, 64, 64, 64, 64),
    _sketch(32, 8192, 16000), _sketch(128, 512, 4096), _sketch_backward(32, 8192, 16000),
    # --- sweeps: five blocks over one problem
    *[_scale_channel(512, 38, 38, b, True) for b in BLOCKS],
    *[_crop_resize(1, 128, 7, 256, 38, 50, b, True) for b in BLOCKS],
    *[_transpose(8, 1024, 1024, False, b, True) for b in BLOCKS],
    *[_correlate_sub(32, 32, 32, 4, 4, 1, b, True) for b in BLOCKS],
    *[_bilinear_sampler(4, 32, 64, 64, 32, 32, b, True) for b in BLOCKS],
    *[_sketch(64, 2048, 8000, b, True) for b in (32, 64, 128, 256, 512)],
]


PREREG14 = PreregSet("prereg14", PREREG14_DIR, SUITES, LAUNCHES, OPTIONS)


def prereg14_cases() -> list[Case]:
    """The fourteenth pre-registered set's launches as cases (set `prereg14`)."""
    return PREREG14.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG14.write_registry()}")
