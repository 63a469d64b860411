"""The sixth pre-registered set (`validate run --cases prereg6`): public GPU kernels from a
repository this project had never used, copied into validate/prereg6/*.cu, whose launches were
fixed, and recorded on the H100 into a sealed folder, before any prediction of them was committed.
Held out of every fit (validate.families), like the first five sets; built with the same
machinery (validate.prereg_cases.PreregSet). Change no launch once it is registered.

Source (each file's header comment: repository, files, commit, licence and every edit; no kernel
body is changed; licence text in validate/prereg6/LICENSES.md; kernels left out, and why:
validate/prereg6/STATUS.md): LLNL/RAJAPerf (BSD-3-Clause), the RAJA Performance Suite's Base_CUDA
kernels of its stream, basic, lcals (Livermore loops) and apps groups: STREAM's four, DAXPY (and
its atomic form), element-wise initialisers and quadratics, eight-array copies, a shared-tile
matrix product of doubles, nested 3D initialisation, Livermore's difference
predictor, equation of state, first difference, hydro fragments 1D and 2D, Planckian,
tridiagonal elimination, the pressure and energy kernels of a hydro code, a 16-tap FIR filter,
hexahedron volumes, a 2D divergence, the LTIMES transport product, and the zonal and nodal
accumulations and 27-point matrix-vector product of a 3D mesh. One file a RAJAPerf kernel: the
kernels and the #define'd bodies they expand, with RAJAPerf's types written in (raja_*.cu). All
data are doubles (RAJAPerf's default Real_type) and the sizes are 64-bit (Index_type).

RAJAPerf's kernels take their block size as a template parameter (`add<256>`), a launch's block
being that size (its default, 256, unless a row says otherwise; 2D and 3D kernels at the shapes
its host code derives from 256). Mesh kernels index through a list of zones (`real_zones`) into
arrays that RAJAPerf points into one node array at eight or 27 offsets; a launch cannot alias
buffers, so here each pointer is its own buffer of the zone count and the zone list is `arange`
(contiguous zones) or `permutation` (a scattered order).

Every launch is in bounds and deterministic: each kernel's bounds check covers the grid, arrays
read at i + offset are allocated to the largest offset, and the two kernels with atomics
(daxpy_atomic, nodal_accumulation_3d) add to each address once (distinct zones, separate buffers).
Sweeps (tag `sweep:<kernel>`, names `<kernel>_b<block>_<size>`): the kernels that index with
blockDim rather than their template parameter (daxpy_atomic, the zonal and nodal accumulations,
matvec_3d), instantiated at 1024 (their launch bound) and launched at five block sizes over one
problem, the grid following the block.
"""
from __future__ import annotations

from pathlib import Path

from .case import Case
from .prereg_cases import PreregSet, _cdiv, _sweep

PREREG6_DIR = Path(__file__).parent / "prereg6"
SUITES = {"raja_": "LLNL/RAJAPerf"}
K32, K64, K128, K256, K512, M1, M2, M4, M8 = 1 << 15, 1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 21, 1 << 22, 1 << 23
BLOCKS_1D = [(32,), (64,), (128,), (256,), (1024,)]
D = "float64"


def _d(count: int, init: str = "random") -> str:
    return f"{D}[{count}]:{init}"


def _r(value: float) -> str:
    return f"{D}:{value}"


def _n(value: int) -> str:
    """An Index_type (64-bit) by value."""
    return f"int64:{value}"


def _zones(count: int, order: str) -> str:
    return f"int64[{count}]:{order}"


def _one(name: str, file: str, kernel: str, n: int, args: list[str], tags: list[str], block: int = 256) -> tuple:
    """A 1D launch of a kernel templated on its block size: one thread an element of n."""
    return (name, file, f"{kernel}<{block}>", _cdiv(n, block), block, args, tags)


def _zonal(n: int, order: str) -> list[str]:
    """(vol, x0..x7, real_zones, ibegin, iend): vol[i] = mean of x0..x7 at each listed zone."""
    return [_d(n, "zeros"), *[_d(n) for _ in range(8)], _zones(n, order), _n(0), _n(n)]


def _nodal(n: int, order: str) -> list[str]:
    """(vol, x0..x7, real_zones, ibegin, iend): x0..x7 at each listed zone += vol / 8 (atomics)."""
    return [_d(n), *[_d(n, "zeros") for _ in range(8)], _zones(n, order), _n(0), _n(n)]


def _matvec(n: int, order: str) -> list[str]:
    """(b, 27 x pointers, 27 matrix diagonals, real_zones, ibegin, iend): b = A x, 27 points."""
    return [_d(n, "zeros"), *[_d(n) for _ in range(54)], _zones(n, order), _n(0), _n(n)]


def _energy(k: int, n: int) -> list[str]:
    """The args of energycalc<k> over n zones (delvc of -1, 0 and 1: both branches taken)."""
    delvc, arr, out = _d(n, "randint(-1,2)"), _d(n), _d(n, "zeros")
    return {1: [out, arr, delvc, arr, arr, arr, _n(n)],
            2: [delvc, out, arr, arr, arr, arr, arr, arr, arr, _r(1.0), _n(n)],
            3: [arr, delvc, arr, arr, arr, arr, _n(n)],
            4: [arr, arr, _r(1e-7), _r(-1e15), _n(n)],
            5: [delvc, *[arr for _ in range(10)], arr, _r(1.0), _r(1e-7), _r(-1e15), _n(n)],
            6: [delvc, *[arr for _ in range(5)], out, arr, arr, _r(1.0), _r(1e-7), _n(n)]}[k]


STREAM = ["streaming", "elementwise", "double"]
HYDRO = ["elementwise", "double", "hydro"]
MESH = ["mesh", "gather", "double", "indirect"]
LAUNCHES: list[tuple] = [
    # --- stream: STREAM's four over doubles (3 x 32 MiB at 4M: past the L2; 256K: L2-resident)
    _one("raja_add_4M", "raja_add.cu", "add", M4, [_d(M4, "zeros"), _d(M4), _d(M4), _n(M4)], STREAM),
    _one("raja_add_256K", "raja_add.cu", "add", K256, [_d(K256, "zeros"), _d(K256), _d(K256), _n(K256)],
         [*STREAM, "l2-resident"]),
    _one("raja_copy_4M", "raja_copy.cu", "copy", M4, [_d(M4, "zeros"), _d(M4), _n(M4)], STREAM),
    _one("raja_copy_64K", "raja_copy.cu", "copy", K64, [_d(K64, "zeros"), _d(K64), _n(K64)], [*STREAM, "small"]),
    _one("raja_mul_4M", "raja_mul.cu", "mul", M4, [_d(M4, "zeros"), _d(M4), _r(3.0), _n(M4)], STREAM),
    _one("raja_triad_4M", "raja_triad.cu", "triad", M4, [_d(M4, "zeros"), _d(M4), _d(M4), _r(3.0), _n(M4)], STREAM),
    _one("raja_triad_1M", "raja_triad.cu", "triad", M1, [_d(M1, "zeros"), _d(M1), _d(M1), _r(3.0), _n(M1)], STREAM),
    _one("raja_triad_8M", "raja_triad.cu", "triad", M8, [_d(M8, "zeros"), _d(M8), _d(M8), _r(3.0), _n(M8)],
         [*STREAM, "large"]),
    _one("raja_triad_t128_4M", "raja_triad.cu", "triad", M4, [_d(M4, "zeros"), _d(M4), _d(M4), _r(3.0), _n(M4)],
         STREAM, block=128),
    _one("raja_triad_t1024_4M", "raja_triad.cu", "triad", M4, [_d(M4, "zeros"), _d(M4), _d(M4), _r(3.0), _n(M4)],
         STREAM, block=1024),
    # --- basic
    _one("raja_daxpy_4M", "raja_daxpy.cu", "daxpy", M4, [_d(M4), _d(M4), _r(2.5), _n(M4)], ["axpy", *STREAM]),
    _one("raja_daxpy_512K", "raja_daxpy.cu", "daxpy", K512, [_d(K512), _d(K512), _r(2.5), _n(K512)],
         ["axpy", *STREAM, "l2-resident"]),
    _one("raja_init3_2M", "raja_init3.cu", "init3", M2, [*[_d(M2, "zeros") for _ in range(3)], _d(M2), _d(M2), _n(M2)],
         [*STREAM, "multi-store"]),
    _one("raja_muladdsub_1M", "raja_muladdsub.cu", "muladdsub", M1,
         [*[_d(M1, "zeros") for _ in range(3)], _d(M1), _d(M1), _n(M1)], [*STREAM, "multi-store"]),
    _one("raja_ifquad_1M", "raja_if_quad.cu", "ifquad", M1, [_d(M1, "zeros"), _d(M1, "zeros"), _d(M1), _d(M1), _d(M1),
                                                             _n(M1)], ["elementwise", "double", "divergence", "sqrt"]),
    _one("raja_copy8_512K", "raja_copy8.cu", "copy8", K512, [*[_d(K512, "zeros") for _ in range(8)],
                                                             *[_d(K512) for _ in range(8)], _n(K512)],
         [*STREAM, "many-arrays"]),
    ("raja_mat_mat_shared_t16_256", "raja_mat_mat_shared.cu", "mat_mat_shared<16>", (16, 16), (16, 16),
     [_n(256), _d(256 * 256, "zeros"), _d(256 * 256), _d(256 * 256)], ["gemm", "shared", "tile", "double", "syncthreads"]),
    ("raja_mat_mat_shared_t16_500", "raja_mat_mat_shared.cu", "mat_mat_shared<16>", (32, 32), (16, 16),
     [_n(500), _d(500 * 500, "zeros"), _d(500 * 500), _d(500 * 500)],
     ["gemm", "shared", "tile", "double", "syncthreads", "partial"]),
    ("raja_mat_mat_shared_t32_512", "raja_mat_mat_shared.cu", "mat_mat_shared<32>", (16, 16), (32, 32),
     [_n(512), _d(512 * 512, "zeros"), _d(512 * 512), _d(512 * 512)], ["gemm", "shared", "tile", "double", "syncthreads"]),
    # ni x nj x nk = 256 x 256 x 64 doubles (32 MiB), block (32, 8) a plane, one plane a grid z
    ("raja_nested_init_256x256x64", "raja_nested_init.cu", "nested_init<32, 8, 1>", (8, 32, 64), (32, 8, 1),
     [_d(256 * 256 * 64, "zeros"), _n(256), _n(256), _n(64)], ["init", "3d", "double", "store-only"]),
    # --- lcals: Livermore loops
    _one("raja_diff_predict_512K", "raja_diff_predict.cu", "diff_predict", K512,
         [_d(14 * K512), _d(5 * K512), _n(K512), _n(K512)], ["elementwise", "double", "strided-arrays", "in-place"]),
    _one("raja_eos_2M", "raja_eos.cu", "eos", M2, [_d(M2, "zeros"), _d(M2), _d(M2), _d(M2 + 7), _r(0.5), _r(0.25),
                                                   _r(0.125), _n(M2)], ["stencil", "1d", "double"]),
    _one("raja_first_diff_4M", "raja_first_diff.cu", "first_diff", M4, [_d(M4, "zeros"), _d(M4 + 1), _n(M4)],
         ["stencil", "1d", "double", "streaming"]),
    _one("raja_hydro_1d_2M", "raja_hydro_1d.cu", "hydro_1d", M2, [_d(M2, "zeros"), _d(M2), _d(M2 + 12), _r(0.5),
                                                                  _r(0.25), _r(0.125), _n(M2)], ["stencil", "1d", "double"]),
    _one("raja_planckian_1M", "raja_planckian.cu", "planckian", M1,
         [_d(M1), _d(M1, "zeros"), _d(M1), _d(M1, "randint(1,4)"), _d(M1, "zeros"), _n(M1)],
         ["elementwise", "double", "exp", "divide"]),
    _one("raja_tridiag_elim_4M", "raja_tridiag_elim.cu", "tridiag_elim", M4,
         [_d(M4, "zeros"), _d(M4), _d(M4), _d(M4), _n(M4)], ["stencil", "1d", "double", "streaming"]),
    # hydro 2D over jn x kn doubles (8 MiB an array at 1024^2), the host's block (32, 8) for 256
    *[(f"raja_hydro_2d{k}_{n}", "raja_hydro_2d.cu", f"hydro_2d{k}<32, 8>", (_cdiv(n - 2, 32), _cdiv(n - 2, 8)), (32, 8),
       args, ["stencil", "2d", "double", "hydro", *(["large"] if n > 1024 else [])])
      for k, n, args in [
          (1, 1024, [_d(M1, "zeros"), _d(M1, "zeros"), _d(M1), _d(M1), _d(M1), _d(M1, "randint(1,4)"), _n(1024), _n(1024)]),
          (2, 1024, [_d(M1), _d(M1), _d(M1), _d(M1), _d(M1), _d(M1), _r(0.0041), _n(1024), _n(1024)]),
          (3, 1024, [_d(M1, "zeros"), _d(M1, "zeros"), _d(M1), _d(M1), _d(M1), _d(M1), _r(0.0037), _n(1024), _n(1024)]),
          (2, 2048, [_d(M4), _d(M4), _d(M4), _d(M4), _d(M4), _d(M4), _r(0.0041), _n(2048), _n(2048)])]],
    # --- apps: a hydro code's pressure and energy kernels (LULESH-like), 1M-2M zones
    _one("raja_pressurecalc1_2M", "raja_pressure.cu", "pressurecalc1", M2, [_d(M2, "zeros"), _d(M2), _r(0.3), _n(M2)],
         HYDRO),
    _one("raja_pressurecalc2_2M", "raja_pressure.cu", "pressurecalc2", M2,
         [_d(M2, "zeros"), _d(M2), _d(M2), _d(M2), _r(0.05), _r(0.9), _r(0.1), _n(M2)], [*HYDRO, "divergence"]),
    *[_one(f"raja_energycalc{k}_1M", "raja_energy.cu", f"energycalc{k}", M1, _energy(k, M1),
           [*HYDRO, *(["divergence", "sqrt"] if k in (2, 5, 6) else [])]) for k in range(1, 7)],
    _one("raja_fir_4M", "raja_fir.cu", "fir", M4, [_d(M4, "zeros"), _d(M4 + 16), _d(16, "randint(-1,4)"), _n(16), _n(M4)],
         ["convolution", "1d", "double", "loop"]),
    _one("raja_fir_256K", "raja_fir.cu", "fir", K256,
         [_d(K256, "zeros"), _d(K256 + 16), _d(16, "randint(-1,4)"), _n(16), _n(K256)],
         ["convolution", "1d", "double", "loop", "l2-resident"]),
    _one("raja_vol3d_512K", "raja_vol3d.cu", "vol3d", K512,
         [_d(K512, "zeros"), *[_d(K512) for _ in range(24)], _r(1.0 / 12.0), _n(0), _n(K512)],
         ["mesh", "double", "many-arrays", "compute"]),
    *[_one(f"raja_deldotvec2d_{order}_512K", "raja_del_dot_vec_2d.cu", "deldotvec2d", K512,
           [_d(K512, "zeros"), *[_d(K512) for _ in range(16)], _zones(K512, order), _r(0.5), _r(1e-20), _n(K512)],
           [*MESH, "2d", "divide", *(["scattered"] if order == "permutation" else [])])
      for order in ("arange", "permutation")],
    # LTIMES: phi(m,g,z) += ell(m,d) psi(d,g,z), d = 64 moments, m = 25, g = 32, z zones; the host's
    # block for 256 is (32, 4, 2)
    *[(f"raja_ltimes_noview_z{z}", "raja_ltimes_noview.cu", "ltimes_noview<32, 4, 2>", (1, 8, z // 2), (32, 4, 2),
       [_d(25 * 32 * z, "zeros"), _d(25 * 64), _d(64 * 32 * z), _n(64), _n(25), _n(32), _n(z)],
       ["transport", "3d", "double", "loop", "partial"]) for z in (64, 256)],
    # --- sweeps: the kernels indexed by blockDim, instantiated at their launch bound (1024)
    *_sweep("raja_daxpy_atomic", "raja_daxpy_atomic.cu", "daxpy_atomic<1024>", BLOCKS_1D, lambda b: _cdiv(M1, b[0]),
            [_d(M1), _d(M1), _r(2.5), _n(M1)], ["axpy", "atomics", "double", "streaming"], "1M"),
    *_sweep("raja_zonal_acc", "raja_zonal_accumulation_3d.cu", "zonal_accumulation_3d<1024>", BLOCKS_1D,
            lambda b: _cdiv(M1, b[0]), _zonal(M1, "arange"), [*MESH, "many-arrays"], "1M"),
    *_sweep("raja_zonal_acc_perm", "raja_zonal_accumulation_3d.cu", "zonal_accumulation_3d<1024>", BLOCKS_1D,
            lambda b: _cdiv(K512, b[0]), _zonal(K512, "permutation"), [*MESH, "many-arrays", "scattered"], "512K"),
    *_sweep("raja_nodal_acc", "raja_nodal_accumulation_3d.cu", "nodal_accumulation_3d<1024>", BLOCKS_1D,
            lambda b: _cdiv(K128, b[0]), _nodal(K128, "arange"), [*MESH, "atomics", "many-arrays"], "128K"),
    *_sweep("raja_nodal_acc_perm", "raja_nodal_accumulation_3d.cu", "nodal_accumulation_3d<1024>", BLOCKS_1D,
            lambda b: _cdiv(K32, b[0]), _nodal(K32, "permutation"),
            [*MESH, "atomics", "many-arrays", "scattered", "small"], "32K"),
    *_sweep("raja_matvec_3d", "raja_matvec_3d_stencil.cu", "matvec_3d<1024>", BLOCKS_1D, lambda b: _cdiv(K256, b[0]),
            _matvec(K256, "arange"), [*MESH, "stencil", "3d", "many-arrays"], "256K"),
]

PREREG6 = PreregSet("prereg6", PREREG6_DIR, SUITES, LAUNCHES)


def prereg6_cases() -> list[Case]:
    """The sixth pre-registered set's launches as cases (set `prereg6`)."""
    return PREREG6.cases()


if __name__ == "__main__":
    print(f"wrote {PREREG6.write_registry()}")
