"""The thirteenth pre-registered set (`validate run --cases prereg13`): public CUDA kernels of two
repositories this project had never used (facebookresearch/pytorch3d, kaldi-asr/kaldi), copied into
validate/prereg13/*.cu, whose launches were fixed, and recorded on the H100 and the H200 into sealed
folders, before any prediction of them was committed. Held out of every fit (validate.families),
like the first twelve sets; built with the same machinery (validate.prereg_cases.PreregSet). Change
no launch once it is registered.

This set favours the classic shapes of HPC benchmark suites: per-thread serial loops (the k-NN
searches, a thread a query point over every point of its cloud; the naive rasteriser, a thread a
pixel over every point; the inverse-CDF sampler's walk along the bins), a block an object looping
over the targets and then reducing over __syncthreads rounds (DistanceForwardKernel), a thread a
column looping down a matrix's rows then column sums over __syncthreads rounds in 32 x 8 blocks
(Kaldi's LSTM backward, a few blocks), tiny blocks (the sampler's 32 threads, the rasteriser's and
distance arrays' 64), gathers and scatters (face normals, attribute interpolation, the graph gather-
scatter, Kaldi's element-a-row copy), point-cloud ops, reductions, elementwise activations (Kaldi's
LSTM sigmoid/tanh, exp), and per-thread arrays indexed at run time that ptxas puts in local memory
(V2's k-best arrays, the rasteriser's 150-entry Pix queue, the LSTM backward's 5-entry bool array
read at the row index).

Sources (each file's header comment: repository, paths, commit, licence and every edit; no kernel
body is changed; licence text in validate/prereg13/LICENSES.md; kernels left out, and why:
validate/prereg13/STATUS.md):
- facebookresearch/pytorch3d (BSD-3-Clause) pytorch3d/csrc, in four files: p3d_knn.cu (k-NN V0-V3),
  p3d_rasterize_points.cu (the naive point rasteriser), p3d_point_mesh.cu (point-triangle and point-
  segment distances: the per-object argmin and the all-pairs arrays) and p3d_mesh_ops.cu (face areas
  and normals, face-attribute interpolation, gather-scatter, PDF sampling, bounding boxes).
- kaldi-asr/kaldi (Apache-2.0) src/cudamatrix/cu-kernels.cu (kaldi_cu_kernels.cu: the LSTM
  nonlinearity and its backward pass, v .*= a, v = alpha x.*y + beta v, exp, the copy of an element a
  row, the diagonal of a packed triangle).

Launch shapes follow the library's host code: k-NN 256 blocks of 256 threads; the naive rasteriser
1024 blocks of 64; DistanceForwardKernel (max objects, batch) blocks of 128 threads with 16 bytes of
dynamic shared memory a thread; the distance arrays 1024 blocks of 64; face normals 64 blocks of
512; interpolation 512 of 1024; gather-scatter min(E, 1920) blocks of 128; the PDF sampler 32
threads (T = 2 samples a thread) over min(chunks, 1024) blocks; the bounding boxes 128 of 256;
Kaldi's CU1DBLOCK (256) over n_blocks(dim) for the vector kernels, a block a row for the LSTM, 32 x
8 over cdiv(cell_dim, 32) for its backward (cu-math.cc). Sizes: clouds of 512-4096 points (the
searches tiny and compute-bound), meshes of 256K-2M faces, images of 32 x 32 to 1024 x 1024: 2-64 MB
mostly, a few past the 50 MB L2. Every launch is in bounds and deterministic: indices come from
randint within range; clouds of a batch share their points (every first index 0, lengths the full
cloud: randint(P,P+1)); gather-scatter's float atomics add small integers (randint(0,4)), exact in
any order; reductions' orders are fixed by the code.

Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): kernels whose loops take their
stride or chunk from blockDim, at five blocks over one problem, the grid by the host's formula: k-NN
V0 and V2 (local memory), the naive rasteriser (local memory), DistanceForwardKernel (its shared
bytes follow the block), the point-segment distance array, the PDF sampler, and Kaldi's
v = alpha x.*y + beta v (any block: a thread an element).
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, array_arg, scalar_arg

PREREG13_DIR = Path(__file__).parent / "prereg13"
SUITES = {"p3d_": "facebookresearch/pytorch3d", "kaldi_": "kaldi-asr/kaldi"}

_f, _i32, _l = partial(array_arg, "float32"), partial(array_arg, "int32"), partial(array_arg, "int64")
_i, _fs, _b = partial(scalar_arg, "int32"), partial(scalar_arg, "float32"), partial(scalar_arg, "uint8")
_u64, _i64, _d = partial(scalar_arg, "uint64"), partial(scalar_arg, "int64"), partial(scalar_arg, "float64")
KNN, RAST, PM, OPS = "p3d_knn.cu", "p3d_rasterize_points.cu", "p3d_point_mesh.cu", "p3d_mesh_ops.cu"
KALDI = "kaldi_cu_kernels.cu"
CU1DBLOCK = 256   # src/cudamatrix/cu-matrixdim.h
MIN_AREA = 5e-3   # pytorch3d's _DEFAULT_MIN_TRIANGLE_AREA (pytorch3d/loss/point_mesh_distance.py)


def _sw(name: str, block: int, size: str, sweep: bool, fallback: str) -> tuple[str, list[str]]:
    return (f"{name}_b{block}_{size}", [f"sweep:{name}"]) if sweep else (fallback, [])


# --- k-NN (p3d_knn.cu) ----------------------------------------------------------------------------

def _knn(version: int, n: int, p1: int, p2: int, k: int, block: int = 256, sweep: bool = False) -> tuple:
    """KNearestNeighborKernelV<version>: 256 blocks (knn.cu's host) striding over (cloud, chunk)."""
    size = f"{n}x{p1}_p{p2}_k{k}"
    name, extra = _sw(f"p3d_knn_v{version}", block, size, sweep, f"p3d_knn_v{version}_{size}")
    kernel = {0: "KNearestNeighborKernelV0<float>", 1: "KNearestNeighborKernelV1<float, 3>",
              2: f"KNearestNeighborKernelV2<float, 3, {k}>", 3: f"KNearestNeighborKernelV3<float, 3, {k}>"}[version]
    args = [_f(n * p1 * 3), _f(n * p2 * 3), _l(n, f"randint({p1},{p1 + 1})"), _l(n, f"randint({p2},{p2 + 1})"),
            _f(n * p1 * k, "zeros"), _l(n * p1 * k, "zeros")]
    size_t = _i64 if version == 2 else _u64
    args += [size_t(n), size_t(p1), size_t(p2)] + {0: [_u64(3), _u64(k)], 1: [_u64(k)]}.get(version, []) + [_u64(2)]
    tags = ["knn", "point-cloud", "serial-loop", "compute", "grid-stride"]
    tags += {0: ["global-heap"], 1: ["global-heap"], 2: ["local-memory"], 3: ["register-array"]}[version]
    return (name, KNN, kernel, 256, block, args, [*tags, *extra])


# --- naive point rasteriser (p3d_rasterize_points.cu) ---------------------------------------------

def _rasterize(n: int, side: int, points: int, k: int, block: int = 64, sweep: bool = False) -> tuple:
    """RasterizePointsNaiveCudaKernel: 1024 blocks (the host's); the n images share one cloud
    (first index 0) of `points` points in [0, 1)^3 with radii in [0, 1)."""
    size = f"{n}x{side}x{side}_p{points}_k{k}"
    name, extra = _sw("p3d_rasterize_points_naive", block, size, sweep, f"p3d_rasterize_points_naive_{size}")
    out = n * side * side * k
    return (name, RAST, "RasterizePointsNaiveCudaKernel", 1024, block,
            [_f(points * 3), _l(n, "zeros"), _l(n, f"randint({points},{points + 1})"), _f(points), _i(n), _i(side),
             _i(side), _i(k), _i32(out, "zeros"), _f(out, "zeros"), _f(out, "zeros")],
            ["rasterize", "point-cloud", "serial-loop", "thread-per-pixel", "local-memory", "sort", "compute", *extra])


# --- point-mesh distances (p3d_point_mesh.cu) -----------------------------------------------------

def _distance(kind: str, objects: int, targets: int, block: int = 128, sweep: bool = False) -> tuple:
    """DistanceForwardKernel, one batch element: (objects, 1) blocks, 16 bytes of shared a thread.
    kind: point_face / face_point / point_edge / edge_point (objects first)."""
    dims = {"point": 1, "face": 3, "edge": 2}
    od, td = (dims[w] for w in kind.split("_"))
    size = f"{kind}_{objects}x{targets}"
    name, extra = _sw("p3d_distance_forward", block, size, sweep, f"p3d_distance_forward_{size}")
    return (name, PM, "DistanceForwardKernel", (objects, 1), block,
            [_f(objects * od * 3), _u64(objects), _u64(od), _f(targets * td * 3), _u64(targets), _u64(td),
             _l(1, "zeros"), _l(1, "zeros"), _u64(1), _f(objects, "zeros"), _l(objects, "zeros"), _d(MIN_AREA)],
            ["distance", "mesh", "block-per-row", "serial-loop", "shared", "syncthreads", "argmin", "compute", *extra],
            16 * block)


def _pair_array(kind: str, points: int, others: int, block: int = 64, sweep: bool = False) -> tuple:
    """PointFaceArrayForwardKernel / PointEdgeArrayForwardKernel: 1024 blocks (the host's), a thread a pair."""
    size = f"{points}x{others}"
    fallback = f"p3d_point_{kind}_array_{size}"
    name, extra = _sw(f"p3d_point_{kind}_array", block, size, sweep, fallback)
    if kind == "face":
        return (name, PM, "PointFaceArrayForwardKernel", 1024, block,
                [_f(points * 3), _f(others * 9), _f(points * others, "zeros"), _u64(points), _u64(others), _d(MIN_AREA)],
                ["distance", "mesh", "all-pairs", "grid-stride", "transposed-store", "compute", *extra])
    return (name, PM, "PointEdgeArrayForwardKernel", 1024, block,
            [_f(points * 3), _f(others * 6), _f(points * others, "zeros"), _u64(points), _u64(others)],
            ["distance", "mesh", "all-pairs", "grid-stride", "transposed-store", *extra])


# --- mesh ops (p3d_mesh_ops.cu) -------------------------------------------------------------------

def _face_areas(verts: int, faces: int) -> tuple:
    """FaceAreasNormalsForwardKernel: 64 blocks of 512 (the host's), faces index random vertices."""
    return (f"p3d_face_areas_normals_{faces // 1024}Kf_{verts // 1024}Kv", OPS, "FaceAreasNormalsForwardKernel<float>",
            64, 512, [_f(verts * 3), _l(faces * 3, f"randint(0,{verts})"), _f(faces, "zeros"), _f(faces * 3, "zeros"),
                      _u64(verts), _u64(faces)],
            ["mesh", "gather", "random", "grid-stride", "transcendental"])


def _interp(pixels: int, faces: int, d: int) -> tuple:
    """InterpFaceAttrsForwardKernel: 512 blocks of 1024 (the host's); pixels without a face (-1) skip."""
    return (f"p3d_interp_face_attrs_{pixels // 1024}Kpx_{faces // 1024}Kf_d{d}", OPS, "InterpFaceAttrsForwardKernel<float>",
            512, 1024, [_l(pixels, f"randint(-1,{faces})"), _f(pixels * 3), _f(faces * 3 * d), _f(pixels * d, "zeros"),
                        _u64(pixels), _u64(faces), _u64(d)],
            ["mesh", "gather", "random", "grid-stride", "interpolation"])


def _gather_scatter(v: int, d: int, e: int, directed: int) -> tuple:
    """GatherScatterCudaKernel: min(E, 1920) blocks of 128 (the host's), a block an edge."""
    return (f"p3d_gather_scatter_{'directed' if directed else 'undirected'}_{v // 1024}Kv_d{d}_{e // 1024}Ke", OPS,
            "GatherScatterCudaKernel", min(e, 1920), 128,
            [_f(v * d, "randint(0,4)"), _l(e * 2, f"randint(0,{v})"), _f(v * d, "zeros"), _b(directed), _b(0),
             _u64(v), _u64(d), _u64(e)],
            ["graph", "gather", "scatter", "atomics", "block-per-row", "syncthreads", "random"])


def _sample_pdf(rays: int, bins: int, samples: int, block: int = 32, sweep: bool = False) -> tuple:
    """SamplePdfCudaKernel: T = 2 samples a thread (1 if samples <= 32), min(chunks, 1024) blocks."""
    t = 1 if samples <= 32 else 2
    chunks = rays * (1 + (samples - 1) // (t * block))
    size = f"{rays}x{bins}_s{samples}"
    name, extra = _sw("p3d_sample_pdf", block, size, sweep, f"p3d_sample_pdf_{size}")
    return (name, OPS, "SamplePdfCudaKernel", min(chunks, 1024), block,
            [_f(rays * (bins + 1)), _f(rays * bins), _f(rays * samples), _fs(1e-5), _i(t), _i64(rays), _i64(bins),
             _i64(samples)],
            ["sampling", "serial-loop", "data-dependent-loop", "tiny-block", "grid-stride", "broadcast", *extra])


def _bbox(kind: str, n: int) -> tuple:
    """TriangleBoundingBoxKernel / PointBoundingBoxKernel: 128 blocks of 256 (the host's)."""
    if kind == "triangle":
        return (f"p3d_triangle_bbox_{n // 1024}K", OPS, "TriangleBoundingBoxKernel", 128, 256,
                [_f(n * 9), _i(n), _fs(1e-4), _f(4 * n, "zeros"), array_arg("uint8", n, "zeros")],
                ["bbox", "mesh", "grid-stride", "streaming", "strided"])
    return (f"p3d_point_bbox_{n // 1024}K", OPS, "PointBoundingBoxKernel", 128, 256,
            [_f(n * 3), _f(n), _i(n), _f(4 * n, "zeros"), array_arg("uint8", n, "zeros")],
            ["bbox", "point-cloud", "grid-stride", "streaming", "strided"])


# --- Kaldi (kaldi_cu_kernels.cu) ------------------------------------------------------------------

def _lstm(cell: int, rows: int, mask: int = 0) -> tuple:
    """_lstm_nonlinearity as cu-math.cc's ComputeLstmNonlinearity launches it: a block of CU1DBLOCK a row."""
    stride = 5 * cell + 3 * mask
    return (f"kaldi_lstm_nonlinearity_{rows}x{cell}{'_dropout' if mask else ''}", KALDI, "_lstm_nonlinearity<float>",
            rows, CU1DBLOCK, [_f(rows * stride), _i(stride), _f(3 * cell), _i(cell), _i(2 * cell), _i(cell), _i(mask),
                              _i(rows), _f(rows * 2 * cell, "zeros")],
            ["lstm", "elementwise", "transcendental", "block-per-row", "strided-row"])


def _diff_lstm(cell: int, rows: int) -> tuple:
    """_diff_lstm_nonlinearity as BackpropLstmNonlinearity launches it with every output: 32 x 8
    threads, cdiv(cell_dim, 32) blocks, a thread a column over every eighth row, column sums."""
    d64 = partial(array_arg, "float64")
    return (f"kaldi_diff_lstm_nonlinearity_{rows}x{cell}", KALDI, "_diff_lstm_nonlinearity<float>",
            _cdiv(cell, 32), (32, CU1DBLOCK // 32),
            [_i(cell), _i(0), _i(rows), _f(rows * 5 * cell), _i(5 * cell), _f(3 * cell), _i(cell),
             _f(rows * 2 * cell), _i(2 * cell), d64(5 * cell), _i(cell), _f(10), _d(1.0),
             _f(rows * 5 * cell, "zeros"), _i(5 * cell), _f(3 * cell, "zeros"), _i(cell), d64(5 * cell, "zeros"), _i(cell),
             d64(5 * cell, "zeros"), _i(cell), _f(5 * cell, "zeros"), _i(cell)],
            ["lstm", "backward", "transcendental", "column", "serial-loop", "2d-block", "few-blocks", "shared",
             "syncthreads", "reduction", "local-memory"])


def _add_vec_vec(dim: int, block: int = CU1DBLOCK, sweep: bool = False) -> tuple:
    """_add_vec_vec over n_blocks(dim, block) (cu-vector.cc's AddVecVec at CU1DBLOCK)."""
    size = f"{dim // (1 << 20)}M"
    name, extra = _sw("kaldi_add_vec_vec", block, size, sweep, f"kaldi_add_vec_vec_{size}")
    return (name, KALDI, "_add_vec_vec<float>", _cdiv(dim, block), block,
            [_fs(0.5), _f(dim), _f(dim), _f(dim), _fs(2.0), _i(dim)], ["elementwise", "streaming", "in-place", *extra])


def _vec_mul(dim: int) -> tuple:
    return (f"kaldi_vec_mul_elements_{dim // (1 << 20)}M", KALDI, "_vec_mul_elements<float>", _cdiv(dim, CU1DBLOCK),
            CU1DBLOCK, [_f(dim), _f(dim), _i(dim)], ["elementwise", "streaming", "in-place"])


def _diag_packed(dim: int) -> tuple:
    """_vec_copy_diag_from_packed: the diagonal of a packed dim x dim triangle, element (i+1)(i+2)/2 - 1."""
    return (f"kaldi_vec_copy_diag_from_packed_{dim}", KALDI, "_vec_copy_diag_from_packed<float>", _cdiv(dim, CU1DBLOCK),
            CU1DBLOCK, [_f(dim, "zeros"), _f(dim * (dim + 1) // 2), _i(dim)], ["gather", "growing-stride", "tiny"])


def _vec_exp(dim: int) -> tuple:
    return (f"kaldi_vec_apply_exp_{dim // (1 << 20)}M", KALDI, "_vec_apply_exp<float>", _cdiv(dim, CU1DBLOCK), CU1DBLOCK,
            [_f(dim), _i(dim)], ["elementwise", "streaming", "in-place", "transcendental"])


def _copy_elements(dim: int, other: int, transpose: int) -> tuple:
    """_cuda_vector_copy_elements: element elements[i] of row i (of column i, transposed: the matrix
    is `other` rows of `dim`)."""
    return (f"kaldi_vector_copy_elements_{'trans_' if transpose else ''}{dim // 1024}Kx{other}", KALDI,
            "_cuda_vector_copy_elements<float>", _cdiv(dim, CU1DBLOCK), CU1DBLOCK,
            [_f(dim, "zeros"), _i(dim), _f(dim * other), _i(dim if transpose else other), _b(transpose),
             _i32(dim, f"randint(0,{other})")],
            ["gather", "random", "strided" if not transpose else "column-gather"])


K1 = 1024
LAUNCHES: list[tuple] = [
    # --- k-NN (p3d_knn.cu): clouds of 512-4096 points, D = 3
    _knn(0, 2, 2048, 2048, 8), _knn(0, 4, 1024, 1024, 4),
    _knn(1, 2, 2048, 2048, 16), _knn(1, 1, 4096, 2048, 8),
    _knn(2, 2, 2048, 2048, 8), _knn(2, 8, 1024, 512, 8), _knn(2, 2, 2048, 2048, 16), _knn(2, 4, 1024, 1024, 16),
    _knn(3, 2, 2048, 2048, 4), _knn(3, 4, 2048, 1024, 4),
    # --- naive point rasteriser (p3d_rasterize_points.cu)
    _rasterize(1, 64, 2048, 8), _rasterize(2, 64, 1024, 4), _rasterize(1, 128, 512, 8), _rasterize(4, 32, 1024, 16),
    # --- point-mesh distances (p3d_point_mesh.cu)
    _distance("point_face", 2048, 1024), _distance("face_point", 1024, 2048),
    _distance("point_edge", 4096, 2048), _distance("edge_point", 2048, 4096),
    _pair_array("face", 2048, 1024), _pair_array("face", 1024, 1536),
    _pair_array("edge", 4096, 2048), _pair_array("edge", 8192, 1536),
    # --- mesh ops (p3d_mesh_ops.cu)
    _face_areas(128 * K1, 256 * K1), _face_areas(512 * K1, K1 * K1), _face_areas(K1 * K1, 2 * K1 * K1),
    _interp(256 * K1, 100 * K1, 16), _interp(K1 * K1, 200 * K1, 3), _interp(64 * K1, 50 * K1, 64),
    _gather_scatter(8 * K1, 128, 8 * K1, 0), _gather_scatter(16 * K1, 64, 16 * K1, 1),
    _gather_scatter(4 * K1, 256, 4 * K1, 0),
    _sample_pdf(4096, 64, 128), _sample_pdf(16384, 32, 64), _sample_pdf(1024, 128, 256),
    _bbox("triangle", 2 * K1 * K1), _bbox("triangle", 256 * K1), _bbox("point", 2 * K1 * K1), _bbox("point", 512 * K1),
    # --- Kaldi's LSTM and vector kernels (kaldi_cu_kernels.cu)
    _lstm(1024, 2048), _lstm(512, 1024), _lstm(256, 4096), _lstm(512, 4096, 1),
    _diff_lstm(1024, 1024), _diff_lstm(512, 2048), _diff_lstm(2048, 512),
    _add_vec_vec(4 << 20), _vec_exp(8 << 20), _vec_mul(8 << 20), _diag_packed(4096), _copy_elements(256 * K1, 48, 0), _copy_elements(K1 * K1, 8, 1),
    # --- sweeps: five blocks over one problem
    *[_knn(2, 2, 1024, 2048, 8, b, True) for b in (64, 128, 256, 512, 1024)],
    *[_knn(0, 2, 1024, 1024, 8, b, True) for b in (32, 64, 128, 256, 512)],
    *[_rasterize(1, 64, 1024, 8, b, True) for b in (32, 64, 128, 256, 512)],
    *[_distance("point_face", 1024, 1024, b, True) for b in (64, 128, 256, 512, 1024)],
    *[_pair_array("edge", 2048, 2048, b, True) for b in (32, 64, 128, 256, 512)],
    *[_sample_pdf(2048, 96, 192, b, True) for b in (32, 64, 128, 256, 512)],
    *[_add_vec_vec(2 << 20, b, True) for b in (64, 128, 256, 512, 1024)],
]


PREREG13 = PreregSet("prereg13", PREREG13_DIR, SUITES, LAUNCHES)


def prereg13_cases() -> list[Case]:
    """The thirteenth pre-registered set's launches as cases (set `prereg13`)."""
    return PREREG13.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG13.write_registry()}")
