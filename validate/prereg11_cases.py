"""The eleventh pre-registered set (`validate run --cases prereg11`): public CUDA kernels of three
repositories this project had never used, copied into validate/prereg11/*.cu, whose launches
were fixed, and recorded on the H100 into a sealed folder, before any prediction of them was
committed. Held out of every fit (validate.families), like the first ten sets; built with the
same machinery (validate.prereg_cases.PreregSet). Change no launch once it is registered.

Sources (each file's header comment: repository, paths, commit, licence and every edit; no
kernel body is changed; licence texts in validate/prereg11/LICENSES.md; kernels left out, and
why: validate/prereg11/STATUS.md):
- microsoft/DeepSpeed (Apache-2.0) csrc/transformer/*.cu and csrc/random_ltd/token_sort.cu, in
  five files: ds_gelu.cu (fused bias + GELU, GELU and its backward on float4 rows),
  ds_transform.cu (a 16 x 16 tiled transpose, the attention layout permutes [batch, seq, heads,
  dim] <-> [batch, heads, seq, dim], with a fused bias add for Q/K/V and in 4-D), ds_general.cu
  (the bias gradient's column-sum reduction over 32 x 32 tiles, the fused adds of 2, 3 and 4
  tensors), ds_layer_norm.cu (the fused bias + residual layer norm, a block a row) and
  ds_token_sort.cu (random-LTD's token sort: marks in shared memory and a block scan).
- cupy/cupy (MIT): examples/gemm/sgemm.cu, a MAGMA-style register-blocked SGEMM
  (cupy_sgemm.cu), and CUDA strings of cupyx's signal modules (ported from cuSignal, MIT):
  upfirdn's polyphase FIR resampler in 1-D and 2-D (cupy_upfirdn.cu), peak finding's local
  maxima, peak prominences and relative extrema (cupy_peak_finding.cu) and the CA-CFAR
  detector's thresholds from a summed-area table in 1-D and 2-D (cupy_cfar.cu).
- opencv/opencv_contrib (the file under OpenCV's BSD-3-Clause notice, the repository
  Apache-2.0) modules/cudaimgproc/src/cuda/hist.cu: 256-bin and binned histograms of 8-bit
  images (shared then global integer atomics) and equalizeHist's LUT build (a one-block scan)
  (ocv_hist.cu).

Launch shapes follow each library's host code: the GELU launchers give a block a row of
cdiv(I / 4, iterations) threads, iterations = cdiv(I, 1024); the transposes 256 threads over
rows x cols / 256 blocks; the permutes (hidden / 4 / heads, heads) threads a block over (batch,
seq) or (batch, seq, 3) blocks; the column sum 32 x 32 threads over cdiv(cols, 32) blocks;
fused_add2 DS_GET_BLOCKS (512 threads, a grid-stride loop), fused_add3/4 a row of hidden / 4
threads a block; the layer norm 256 threads a row; the token sort 512 threads a row; CuPy's
SGEMM 64 x 64 tiles of 16 x 16 threads (its dynamic shared bytes as sgemm.py passes them);
upfirdn cdiv(n, 128) blocks of 128 (2-D: 8 x 8 over the output); local maxima and prominences
blocks of 128; relative extrema SMs x 20 blocks of 512; CFAR 8 x 8 (1-D: 32) over the interior;
OpenCV's histograms 32 x 8 threads a block of 8 rows, the LUT one block of 256. Sizes are LLM
shapes (hidden 1024-16384, 16-4096 rows), signals of 64K-16M samples and images of 640 x 480 to
8192 x 8192: 2-64 MB mostly, some past the 50 MB L2, a few tiny. Every launch is in bounds and
deterministic: atomics add integers only (the histograms), token ids are unique within a row
(a permutation), peak positions randint within range, each other output element has one
writer, and the reductions' orders are fixed by the code.

Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): kernels whose loops take their
stride from blockDim, at five blocks over one problem, nothing but the launch varying:
DeepSpeed's fused_add2 (the grid cdiv(n, block), as DS_GET_BLOCKS would give), the layer norm
(64-1024 threads a row: its loops stride by blockDim) and the permute transform4d_0213 (8
sequence rows a block in the source; 1-16 here, the grid over cdiv(seq, rows)); CuPy's upfirdn
1-D (64-1024 threads, grid cdiv(n, block)) and 2-D (8 x 8 in the source), the 1-D relative
extrema (512 threads in the source, SMs x 20 blocks kept) and the 2-D CFAR (8 x 8 to 32 x 32,
the host's grid formula at that block). (The GELU kernels' loop count, an argument, follows the
block in DeepSpeed's launcher, so a GELU sweep would vary more than the launch: none is in.)
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, _sweep, array_arg, scalar_arg

PREREG11_DIR = Path(__file__).parent / "prereg11"
SUITES = {"ds_": "microsoft/DeepSpeed", "cupy_": "cupy/cupy", "ocv_": "opencv/opencv_contrib"}
SMS = 132   # the H100's (and H200's) MultiProcessorCount, which CuPy's grids of SMs x 20 read
M1, M4 = 1 << 20, 1 << 22

_f, _h = partial(array_arg, "float32"), partial(array_arg, "float16")
_i, _fs, _b = partial(scalar_arg, "int32"), partial(scalar_arg, "float32"), partial(scalar_arg, "uint8")
GE, TR, GK, LN, SG = "ds_gelu.cu", "ds_transform.cu", "ds_general.cu", "ds_layer_norm.cu", "cupy_sgemm.cu"
UP, PK, CF, HI = "cupy_upfirdn.cu", "cupy_peak_finding.cu", "cupy_cfar.cu", "ocv_hist.cu"
_u8 = partial(array_arg, "uint8")
_d, _i64, _l = partial(array_arg, "float64"), partial(scalar_arg, "int64"), partial(array_arg, "int64")
_i32 = partial(array_arg, "int32")


def _gelu_launch(inter: int) -> tuple[int, int]:
    """launch_bias_gelu / launch_gelu / launch_d_gelu: (threads, iterations) of a row of `inter`."""
    iterations = _cdiv(inter, 1024)
    return (inter - 1) // (iterations * 4) + 1, iterations


def _gelu(kind: str, rows: int, inter: int) -> tuple:
    """One GELU launch: a block a row."""
    threads, iterations = _gelu_launch(inter)
    n = rows * inter
    args = {"gelu_kernel": [_f(n), _f(n, "zeros"), _i(inter // 4), _i(iterations)],
            "fused_bias_gelu": [_f(n), _f(inter), _f(n, "zeros"), _i(inter // 4), _i(iterations)],
            "d_gelu_func": [_f(n), _f(n), _f(inter), _i(inter // 4), _i(iterations)]}[kind]
    return rows, threads, args


def _ge(name: str, kind: str, rows: int, inter: int, tags: list[str]) -> tuple:
    grid, block, args = _gelu(kind, rows, inter)
    return (f"ds_{name}", GE, kind, grid, block, args, ["elementwise", "gelu", "float4", "row-per-block", *tags])


def _transpose(dtype: str, rows: int, cols: int) -> tuple:
    """Transpose<T>: 256 threads, rows x cols / 256 blocks; the kernel's row_width is cols."""
    arr = _f if dtype == "float" else _h
    return (f"ds_transpose_{dtype}_{rows}x{cols}", TR, f"Transpose_Kernel<{'float' if dtype == 'float' else '__half'}>",
            rows * cols // 256, 256, [arr(rows * cols), arr(rows * cols, "zeros"), _i(cols), _i(rows)],
            ["transpose", "shared", "tile", "syncthreads", dtype])


def _t0213(dtype: str, batch: int, seq: int, hidden: int, heads: int) -> tuple:
    """launch_transform_0213: [batch, seq, heads, dim] -> [batch, heads, seq, dim], a float4
    (4 floats / 8 halves) a thread."""
    vec = 4 if dtype == "float" else 8
    hd = hidden // vec
    head_ext = (hd - 1) // 1024 + 1
    arr = _f if dtype == "float" else _h
    n = batch * seq * hidden
    return (f"ds_transform_0213_{dtype}_{batch}x{seq}x{hidden}h{heads}", TR,
            f"transform_0213<{'float' if dtype == 'float' else '__half'}>", (batch, seq * head_ext),
            (hd // heads, heads // head_ext), [arr(n, "zeros"), arr(n), _i(hd), _i(seq), _i(heads), _i(head_ext)],
            ["permute", "attention", "float4", "2d-block", dtype])


def _bias_t0213(batch: int, seq: int, hidden: int, heads: int, count: int = 3) -> tuple:
    """launch_bias_add_transform_0213<float>: the fused QKV output [batch, seq, 3, hidden] plus its
    bias, permuted into 3 x [batch, heads, seq, dim]."""
    hd = hidden // 4
    head_ext = (hd - 1) // 1024 + 1
    n = batch * seq * count * hidden
    return (f"ds_bias_add_transform_0213_{batch}x{seq}x{hidden}h{heads}", TR, "bias_add_transform_0213<float>",
            (batch, seq, count * head_ext), (hd // heads, heads // head_ext),
            [_f(n, "zeros"), _f(n), _f(count * hidden), _i(hd), _i(seq), _i(heads), _i(head_ext)],
            ["permute", "attention", "qkv", "bias", "float4", "3d-grid"])


def _t4d(batch: int, seq: int, hidden: int, heads: int, count: int, rows: int = 8, sweep: bool = False) -> tuple:
    """launch_transform4d_0213<float>: count x [batch, heads, seq, dim] -> [batch, seq, count, hidden];
    `rows` sequence rows a block (8 in the source)."""
    hd = hidden // 4
    n = count * batch * seq * hidden
    name = f"ds_transform4d_0213_b{rows}_{batch}x{seq}x{hidden}h{heads}" if sweep else \
        f"ds_transform4d_0213_{count}x{batch}x{seq}x{hidden}h{heads}"
    return (name, TR, "transform4d_0213<float>", (batch, heads * _cdiv(seq, rows), count), (hd // heads, rows),
            [_f(n, "zeros"), _f(n), _i(heads), _i(seq), _i(hd), _i(1)],
            ["permute", "attention", "float4", "3d-grid", *(["sweep:ds_transform4d_0213"] if sweep else [])])


def _colsum(dtype: str, rows: int, cols: int) -> tuple:
    """launch_fuse_transpose_bias_kernel: the bias gradient, the sum of each column."""
    arr, t = (_f, "float") if dtype == "float" else (_h, "__half")
    return (f"ds_column_sum_{dtype}_{rows}x{cols}", GK, f"column_sum_reduce<{t}>", _cdiv(cols, 32), (32, 32),
            [arr(rows * cols), arr(cols, "zeros"), _i(rows), _i(cols)],
            ["reduction", "column", "shared", "tile", "cg-shfl", "strided-loop", dtype])


def _add2(n: int, block: int = 512, sweep: bool = False) -> tuple:
    """launch_fused_add2<float>: n floats, n / 4 float4s over DS_GET_BLOCKS at 512 threads."""
    total = n // 4
    size = f"{n // M1}M" if n >= M1 else f"{n // 1024}K"
    name = f"ds_fused_add2_kernel_b{block}_{size}" if sweep else f"ds_fused_add2_{size}"
    return (name, GK, "fused_add2_kernel", min(_cdiv(total, block), 262144), block,
            [_i(total), _f(n, "zeros"), _f(n), _f(n)],
            ["elementwise", "streaming", "float4", "grid-stride", *(["sweep:ds_fused_add2_kernel"] if sweep else [])])


def _addk(k: int, rows: int, hidden: int) -> tuple:
    """launch_fused_add3/4<float>: a block a row of hidden / 4 threads."""
    n = rows * hidden
    return (f"ds_fused_add{k}_{rows}x{hidden}", GK, f"fused_add{k}_kernel", rows, hidden // 4,
            [_f(n, "zeros"), *[_f(n) for _ in range(k)], _i(n), _i(hidden // 4)],
            ["elementwise", "streaming", "float4", "row-per-block", f"{k}-inputs"])


def _ln_args(rows: int, hidden: int) -> list[str]:
    """fused_bias_residual_layer_norm (training, pre-LN false): vals in place, means and vars saved."""
    return [_f(rows * hidden, "zeros"), _f(rows * hidden), _f(hidden), _f(hidden), _fs(1e-12), _b(0), _b(1),
            _f(rows, "zeros"), _f(rows, "zeros"), _i(hidden)]


def _ln(rows: int, hidden: int, tags: tuple = ()) -> tuple:
    threads = 256 if hidden <= 16384 else 512
    return (f"ds_layer_norm_{rows}x{hidden}", LN, "fused_bias_residual_layer_norm", rows, threads,
            _ln_args(rows, hidden), ["layernorm", "reduction", "row-per-block", "cg-shfl", "shared", *tags])


def _sgemm(m: int, n: int, k: int, tags: tuple = ()) -> tuple:
    """sgemm.py: grid (cdiv(m, 64), cdiv(n, 64)), 16 x 16 threads, column-major A (m x k), B (k x n)."""
    shared = 4 * (4 * 65 + 64 * 5)
    return (f"cupy_sgemm_{m}x{n}x{k}", SG, "sgemm", (_cdiv(m, 64), _cdiv(n, 64)), (16, 16),
            [_i(m), _i(n), _i(k), _f(m * k), _f(k * n), _f(m * n, "zeros")],
            ["gemm", "shared", "register-tile", "syncthreads", "column-major", *tags], shared)


def _upfirdn_shape(taps: int, n: int, up: int, down: int) -> tuple[int, int, int, int]:
    """_UpFIRDn: (padded taps, taps a phase, padded_len, output length) of `taps` taps over n samples."""
    padded = taps + (-taps % up)
    per_phase = padded // up
    return padded, per_phase, n + per_phase - 1, ((n - 1) * up + taps - 1) // down + 1


def _upfirdn1d(n: int, taps: int, up: int, down: int, dtype: str = "float32", block: int = 128,
               sweep: bool = False) -> tuple:
    """apply_filter on a 1-D signal: cdiv(n, 128) blocks of 128 (the input's length, not the
    output's: the kernel's grid-stride loop covers the rest)."""
    padded, per_phase, padded_len, out = _upfirdn_shape(taps, n, up, down)
    arr = _f if dtype == "float32" else _d
    name = f"cupy_upfirdn1d_b{block}_{n // 1024}K_up{up}_down{down}" if sweep else \
        f"cupy_upfirdn1d_{dtype}_{n // 1024}K_{taps}taps_up{up}_down{down}"
    return (name, UP, f"_cupy_upfirdn1D_{dtype}", _cdiv(n, block), block,
            [arr(n), _i64(1), arr(padded), _i(up), _i(down), _i(0), _i(n), _i(per_phase), _i(padded_len),
             arr(out, "zeros"), _i(out)],
            ["fir", "convolution", "resample", "1d", "grid-stride", "data-dependent-loop", dtype,
             *(["sweep:cupy_upfirdn1d"] if sweep else [])])


def _upfirdn2d(rows: int, cols: int, taps: int, up: int, down: int) -> tuple:
    """_apply_filter_2d along the rows (axis 1): 8 x 8 threads over the output's (rows, length)."""
    padded, per_phase, padded_len, out = _upfirdn_shape(taps, cols, up, down)
    return (f"cupy_upfirdn2d_{rows}x{cols}_{taps}taps_up{up}_down{down}", UP, "_cupy_upfirdn2D_float32",
            (_cdiv(rows, 8), _cdiv(out, 8)), (8, 8),
            [_f(rows * cols), _i64(1), _i64(cols), _f(padded), _i(up), _i(down), _i(1), _i(cols), _i(per_phase),
             _i(padded_len), _f(rows * out, "zeros"), _i(rows), _i(out)],
            ["fir", "convolution", "resample", "2d", "grid-stride", "rows"])


def _local_maxima(n: int) -> tuple:
    """_local_maxima_1d: n - 2 samples, blocks of 128, three int64 outputs a sample."""
    s = n - 2
    return (f"cupy_local_maxima_1d_{n // 1024}K", PK, "local_maxima_1d<float>", _cdiv(s, 128), 128,
            [_i(n), _f(n), _l(s, "zeros"), _l(s, "zeros"), _l(s, "zeros")],
            ["peaks", "stencil", "1d", "int64", "data-dependent-loop"])


def _prominences(n: int, peaks: int, wlen: int) -> tuple:
    """_peak_prominences: a thread a peak (random positions), walking left and right within wlen."""
    return (f"cupy_peak_prominences_{n // 1024}K_{peaks // 1024}Kpeaks_w{wlen}", PK, "peak_prominences<float>",
            _cdiv(peaks, 128), 128,
            [_i(n), _i(peaks), _f(n), _l(peaks, f"randint(1,{n - 1})"), _i64(wlen), _f(peaks, "zeros"),
             _l(peaks, "zeros"), _l(peaks, "zeros")],
            ["peaks", "gather", "random", "data-dependent-loop", "divergence"])


def _relextrema1d(n: int, order: int, comp: int, clip: int) -> tuple:
    """_peak_finding on 1-D data: SMs x 20 blocks of 512, a grid-stride loop."""
    return (f"cupy_boolrelextrema_1d_{n // M1}M_order{order}_{'clip' if clip else 'wrap'}", PK,
            "boolrelextrema_1D<float>", SMS * 20, 512,
            [_i(n), _i(order), _b(clip), _i(comp), _f(n), array_arg("uint8", n, "zeros")],
            ["peaks", "stencil", "1d", "grid-stride", "bool"])


def _relextrema2d(rows: int, cols: int, order: int, axis: int) -> tuple:
    """_peak_finding on 2-D data: 16 x 16 threads over (cols, rows)."""
    return (f"cupy_boolrelextrema_2d_{rows}x{cols}_order{order}_axis{axis}", PK, "boolrelextrema_2D<float>",
            (_cdiv(cols, 16), _cdiv(rows, 16)), (16, 16),
            [_i(cols), _i(rows), _i(order), _b(1), _i(1), _i(axis), _f(rows * cols), array_arg("uint8", rows * cols, "zeros")],
            ["peaks", "stencil", "2d", "image", "bool", "strided" if axis == 0 else "rows"])


def _cfar2d(w: int, h: int, guard: tuple[int, int], ref: tuple[int, int], block: tuple[int, int] = (8, 8),
            sweep: bool = False) -> tuple:
    """ca_cfar on 2-D data: the threshold from the summed-area table; (8, 8) threads over the
    interior, grid-stride loops."""
    (gx, gy), (rx, ry) = guard, ref
    n = 2 * rx * (2 * ry + 2 * gy + 1) + 2 * (2 * gx + 1) * ry
    grid = (_cdiv(w - 2 * (rx + gx), block[0]), _cdiv(h - 2 * (ry + gy), block[1]))
    name = f"cupy_ca_cfar_2d_b{block[0]}x{block[1]}_{w}x{h}" if sweep else f"cupy_ca_cfar_2d_{w}x{h}_g{gx}r{rx}"
    return (name, CF, "_ca_cfar_2d_kernel", grid, block,
            [_f(w * h), _f(w * h), _f(w * h, "zeros"), _i(w), _i(h), _i(n), _fs(2.5), _i(gx), _i(gy), _i(rx), _i(ry)],
            ["cfar", "stencil", "2d", "image", "summed-area", "grid-stride", *(["sweep:cupy_ca_cfar_2d"] if sweep else [])])


def _cfar1d(n: int, guard: int, ref: int) -> tuple:
    return (f"cupy_ca_cfar_1d_{n // M1}M_g{guard}r{ref}", CF, "_ca_cfar_1d_kernel", _cdiv(n - 2 * ref - 2 * guard, 32), 32,
            [_f(n), _f(n), _f(n, "zeros"), _i(n), _i(2 * ref), _fs(2.5), _i(guard), _i(ref)],
            ["cfar", "stencil", "1d", "summed-area", "few-warps"])


def _hist256(rows: int, cols: int, step: int) -> tuple:
    """hist::histogram256: 32 x 8 threads, a block 8 rows (the aligned-row instance: step % 4 == 0)."""
    return (f"ocv_histogram256_{cols}x{rows}" + (f"_step{step}" if step != cols else ""), HI,
            "hist::histogram256Kernel<true>", _cdiv(rows, 8), (32, 8),
            [_u8(rows * step, "randint(0,256)"), _i(cols), _i(rows), scalar_arg("uint64", step), _i32(256, "zeros"), _i(0)],
            ["histogram", "shared-atomics", "global-atomics", "image", "uint8", "rows"])


def _hist_even(rows: int, cols: int, bins: int, lower: int, upper: int) -> tuple:
    """hist::histEven8u: as histogram256, binCount ints of dynamic shared memory."""
    return (f"ocv_hist_even_{cols}x{rows}_{bins}bins", HI, "hist::histEven8u<true>", _cdiv(rows, 8), (32, 8),
            [_u8(rows * cols, "randint(0,256)"), scalar_arg("uint64", cols), _i(rows), _i(cols), _i32(bins, "zeros"),
             _i(bins), _i(_cdiv(upper - lower, bins)), _i(lower), _i(upper), _i(0)],
            ["histogram", "shared-atomics", "global-atomics", "image", "uint8", "rows", "dynamic-shared"], 4 * bins)


LAUNCHES: list[tuple] = [
    # --- GELU (ds_gelu.cu): MLP widths 4 x hidden (8192-16384, LLaMA's 11008), 16-2048 tokens
    _ge("fused_bias_gelu_512x16384", "fused_bias_gelu", 512, 16384, ["bias", "past-l2"]),
    _ge("fused_bias_gelu_128x11008", "fused_bias_gelu", 128, 11008, ["bias", "ragged-row"]),
    _ge("fused_bias_gelu_16x4096", "fused_bias_gelu", 16, 4096, ["bias", "small"]),
    _ge("gelu_1024x8192", "gelu_kernel", 1024, 8192, ["past-l2"]),
    _ge("d_gelu_2048x4096", "d_gelu_func", 2048, 4096, ["backward", "bias", "in-place", "past-l2"]),
    # --- transposes and attention permutes (ds_transform.cu)
    _transpose("float", 4096, 1024), _transpose("float", 1024, 8192),
    _transpose("half", 4096, 4096), _transpose("float", 128, 256),
    _t0213("float", 1, 2048, 4096, 32), _t0213("float", 1, 128, 2048, 16),
    _t0213("half", 2, 1024, 4096, 32), _t0213("half", 2, 512, 8192, 64),
    _bias_t0213(1, 512, 4096, 32),
    _t4d(1, 1024, 2048, 16, 3), _t4d(1, 1024, 4096, 32, 1),
    # --- column sums and fused adds (ds_general.cu)
    _colsum("float", 4096, 4096), _colsum("float", 512, 11008),
    _colsum("half", 8192, 4096), _colsum("half", 16, 8192),
    _add2(8 * M1), _add2(1 << 16),
    _addk(3, 512, 4096), _addk(4, 16, 2048),
    # --- layer norm (ds_layer_norm.cu): a block a row
    _ln(4096, 1024), _ln(512, 8192), _ln(16, 2048, ("small",)), _ln(64, 16384),
    # --- random-LTD's token sort (ds_token_sort.cu): rows of kept token ids (unique within a row: a
    # permutation of rows x kept ids, all below the 2048 original tokens) sorted a block a row
    *[(f"ds_token_sort_{rows}x{kept}_of2048", "ds_token_sort.cu", f"scan_sort<{kept // 512}>", rows, 512,
       [_i32(rows * kept, "permutation"), _i(kept), _i(2048)], ["sort", "scan", "shared", "shfl", "cg", "tiny"])
      for rows, kept in ((4, 512), (2, 1024), (1, 2048))],
    # --- CuPy's SGEMM (cupy_sgemm.cu): square, LLM projection shapes, ragged edges
    _sgemm(1024, 1024, 1024), _sgemm(1000, 1300, 800, ("ragged", "clamped-loads")), _sgemm(128, 4096, 512, ("wide",)),
    # --- CuPy's signal kernels (cuSignal's): upfirdn (1-D, float32 and float64, and 2-D rows), peak
    # finding (local maxima, prominences, relative extrema in 1-D), CA-CFAR thresholds (1-D and 2-D)
    _upfirdn1d(2 * M1, 64, 2, 1), _upfirdn1d(8 * M1, 64, 1, 4), _upfirdn1d(M1, 48, 3, 2),
    _upfirdn1d(2 * M1, 32, 1, 1, "float64"), _upfirdn1d(1 << 16, 16, 4, 1),
    _upfirdn2d(512, 4096, 32, 2, 1), _upfirdn2d(256, 16384, 64, 1, 2),
    _local_maxima(2 * M1 + 2), _prominences(4 * M1, 1 << 18, 1025), _relextrema1d(16 * M1, 3, 1, 1),
    _cfar2d(2048, 2048, (2, 2), (4, 4)), _cfar2d(3072, 3072, (1, 1), (8, 8)), _cfar1d(4 * M1, 4, 16), _cfar1d(M1, 2, 8),
    # --- OpenCV's histograms of 8-bit images (1080p to 8K, one with a padded row step) and the
    # equalisation LUT build (one block of 256: a scan)
    _hist256(1080, 1920, 1920), _hist256(8192, 8192, 8192), _hist256(1080, 1918, 1920), _hist256(480, 640, 640),
    _hist_even(2160, 3840, 64, 0, 256), _hist_even(4096, 4096, 100, 16, 240),
    ("ocv_build_lut_256", HI, "hist::buildLutKernel", 1, 256, [_i32(256, "randint(0,8100)"), _u8(256, "zeros"), _i(2073600)],
     ["scan", "one-block", "shfl", "syncthreads", "tiny", "histogram"]),
    # --- sweeps: five blocks over one problem
    *[_add2(4 * M1, b, True) for b in (128, 256, 512, 768, 1024)],
    *_sweep("ds_fused_bias_residual_layer_norm", LN, "fused_bias_residual_layer_norm",
            [(64,), (128,), (256,), (512,), (1024,)], lambda b: 1024, _ln_args(1024, 4096),
            ["layernorm", "reduction", "row-per-block", "cg-shfl", "shared"], "1024x4096"),
    *[_t4d(4, 1024, 2048, 16, 1, r, True) for r in (1, 2, 4, 8, 16)],
    *[_upfirdn1d(2 * M1, 32, 2, 1, block=b, sweep=True) for b in (64, 128, 256, 512, 1024)],
    *[_cfar2d(2048, 2048, (2, 2), (4, 4), b, True) for b in ((8, 8), (16, 16), (32, 8), (8, 32), (32, 32))],
    *_sweep("cupy_upfirdn2d", UP, "_cupy_upfirdn2D_float32", [(8, 8), (16, 16), (32, 8), (8, 32), (32, 4)],
            lambda b: (_cdiv(256, b[0]), _cdiv(_upfirdn_shape(32, 4096, 2, 1)[3], b[1])),
            _upfirdn2d(256, 4096, 32, 2, 1)[5], ["fir", "convolution", "resample", "2d", "grid-stride", "rows"], "256x4096"),
    *_sweep("cupy_boolrelextrema_1d", PK, "boolrelextrema_1D<float>", [(128,), (256,), (512,), (768,), (1024,)],
            lambda b: SMS * 20, _relextrema1d(4 * M1, 3, 1, 1)[5], ["peaks", "stencil", "1d", "grid-stride", "bool"], "4M"),
]


PREREG11 = PreregSet("prereg11", PREREG11_DIR, SUITES, LAUNCHES)


def prereg11_cases() -> list[Case]:
    """The eleventh pre-registered set's launches as cases (set `prereg11`)."""
    return PREREG11.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG11.write_registry()}")
