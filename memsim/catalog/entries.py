"""The catalog's entries and groups, and the seed measurements expressed as catalog launches."""
from __future__ import annotations

from functools import partial

from pydantic import BaseModel

from ..launch import LaunchSpec
from . import layouts as L
from .kernel import CatalogKernel

FLOATS = ("float32", "float64")


def _matrix(name: str, kernel: str, summary: str, expect, unroll: int = 1,
            square_grid: bool = False) -> CatalogKernel:
    return CatalogKernel(name, "001", summary, kernel, "transpose.cu",
                         partial(L.plan_matrix, unroll=unroll, square_grid=square_grid), expect)


_TRANSPOSES = [
    _matrix("copy_row", "k_copyRow", "copy by rows: the upper bound (coalesced loads and stores)",
            L.copy_reference),
    _matrix("copy_col", "k_copyCol", "copy by columns: the lower bound (strided loads and stores)",
            L.copy_reference),
    _matrix("transpose_naive_row", "k_naiveRow", "naive transpose: load rows, store columns",
            L.transpose_row_reference),
    _matrix("transpose_naive_col", "k_naiveCol", "naive transpose: load columns, store rows",
            L.transpose_col_reference),
    _matrix("transpose_unroll4_row", "k_naiveRowUnroll4",
            "transpose by rows, 4 elements per thread (grid.x = nx/(block.x*4))",
            L.transpose_row_reference, unroll=4),
    _matrix("transpose_unroll4_col", "k_naiveColUnroll4",
            "transpose by columns, 4 elements per thread (grid.x = nx/(block.x*4))",
            L.transpose_col_reference, unroll=4),
    _matrix("transpose_diagonal_row", "k_naiveRowDiagonal",
            "transpose by rows, blocks in diagonal order (square grid)",
            L.transpose_row_reference, square_grid=True),
    _matrix("transpose_diagonal_col", "k_naiveColDiagonal",
            "transpose by columns, blocks in diagonal order (square grid)",
            L.transpose_col_reference, square_grid=True),
]

_TILES = [
    CatalogKernel("transpose_smem", "004", "square transpose through a shared tile[TILE][TILE]: "
                  "bank conflicts on the column read (seed counts are float64)",
                  "k_smemTile", "tile.cu", L.plan_tile, L.tile_reference),
    CatalogKernel("transpose_smem_pad", "004", "square transpose, tile[TILE][TILE+1]: "
                  "padding removes the bank conflicts",
                  "k_smemTilePad", "tile.cu", L.plan_tile, L.tile_reference),
    CatalogKernel("transpose_smem_rect", "000", "book transposeSmem, 32x16 block, tile[BDIMY][BDIMX], "
                  "rectangular ny x nx", "k_transposeSmem", "tile_rect.cu", L.plan_tile_rect,
                  L.tile_rect_reference, nx=1024, ny=2048, block=(32, 16, 1)),
    CatalogKernel("transpose_smem_rect_pad", "000", "book transposeSmem with tile[BDIMY][BDIMX+1]",
                  "k_transposeSmemPad", "tile_rect.cu", L.plan_tile_rect, L.tile_rect_reference,
                  nx=1024, ny=2048, block=(32, 16, 1)),
]

_OTHERS = [
    # Summing in the kernel's order keeps float results exact; rtol is a margin, not a necessity.
    CatalogKernel("row_sums", "003", "one thread per row sums ds x ds: strided, uncoalesced loads",
                  "k_row_sums", "sums.cu", L.plan_sums, L.row_sums_reference,
                  nx=16384, ny=16384, block=(256, 1, 1), rtol=1e-5),
    CatalogKernel("col_sums", "003", "one thread per column sums ds x ds: coalesced loads",
                  "k_col_sums", "sums.cu", L.plan_sums, L.col_sums_reference,
                  nx=16384, ny=16384, block=(256, 1, 1), rtol=1e-5),
    CatalogKernel("add_aligned", "002", "z[n] = x[n] + y[n]: each warp reads 128 aligned bytes",
                  "k_add1", "add.cu", L.plan_vector_add, L.vector_add_reference(0),
                  nx=4096, ny=4096, block=(32, 1, 1)),
    CatalogKernel("add_misaligned", "002", "z[n+1] = x[n+1] + y[n+1]: one element off, 5 sectors "
                  "per request instead of 4", "k_add2", "add.cu", L.plan_vector_add,
                  L.vector_add_reference(1), nx=4096, ny=4096, block=(32, 1, 1)),
    CatalogKernel("add2d_strided", "002", "matrix add, cd[tidx*WIDTH+tidy]: neighbours a row apart",
                  "k_addVec", "add2d.cu", partial(L.plan_matrix_add, rows_by_x=True),
                  L.matrix_add_reference, nx=1024, ny=1024, dtypes=("int32",) + FLOATS),
    CatalogKernel("add2d_coalesced", "002", "matrix add, cd[tidy*WIDTH+tidx]: coalesced",
                  "k_addVec1", "add2d.cu", partial(L.plan_matrix_add, rows_by_x=False),
                  L.matrix_add_reference, nx=1024, ny=1024, dtypes=("int32",) + FLOATS),
    # FMA contraction and a different summation order than numpy's: float results differ a little.
    CatalogKernel("matmul_naive", "", "C = A*B, n x n, one thread per element, operands from global",
                  "k_matmulNaive", "matmul.cu", partial(L.plan_matmul, tiled=False),
                  L.matmul_reference, nx=1024, ny=1024, rtol=1e-4),
    CatalogKernel("matmul_smem", "", "C = A*B, n x n, classic 32x32 shared-memory tiled SGEMM",
                  "k_matmulSmem", "matmul.cu", partial(L.plan_matmul, tiled=True),
                  L.matmul_reference, nx=1024, ny=1024, rtol=1e-4),
]

ENTRIES: dict[str, CatalogKernel] = {k.name: k for k in _TRANSPOSES + _TILES + _OTHERS}

GROUPS: dict[str, list[str]] = {
    "copy": ["copy_row", "copy_col"],
    "transpose_naive": ["transpose_naive_row", "transpose_naive_col"],
    "transpose_unroll4": ["transpose_unroll4_row", "transpose_unroll4_col"],
    "transpose_diagonal": ["transpose_diagonal_row", "transpose_diagonal_col"],
    "transpose_tile": ["transpose_smem", "transpose_smem_pad"],
    "transpose_tile_rect": ["transpose_smem_rect", "transpose_smem_rect_pad"],
    "transpose_ladder": ["copy_row", "copy_col", "transpose_naive_row", "transpose_naive_col",
                         "transpose_unroll4_row", "transpose_unroll4_col", "transpose_diagonal_row",
                         "transpose_diagonal_col", "transpose_smem", "transpose_smem_pad"],
    "sums": ["row_sums", "col_sums"],
    "vector_add": ["add_aligned", "add_misaligned"],
    "matrix_add": ["add2d_strided", "add2d_coalesced"],
    "matmul": ["matmul_naive", "matmul_smem"],
}


class SeedCase(BaseModel):
    """One launch of the H100 seed measurements (h100-seed-kernels.json) as a catalog launch."""

    case: str
    entry: str
    params: dict = {}

    def launch(self) -> LaunchSpec:
        return ENTRIES[self.entry].launch(**self.params)


def _seed(case: str, entry: str, nx: int, ny: int, block: str, dtype: str = "float32") -> SeedCase:
    return SeedCase(case=case, entry=entry, params=dict(nx=nx, ny=ny, block=block, dtype=dtype))


SEED_CASES: list[SeedCase] = [
    _seed("s001_copyRow", "copy_row", 4096, 4096, "32,32"),
    _seed("s001_copyCol", "copy_col", 4096, 4096, "32,32"),
    _seed("s001_naiveRow", "transpose_naive_row", 4096, 4096, "32,32"),
    _seed("s001_naiveCol", "transpose_naive_col", 4096, 4096, "32,32"),
    _seed("s001_naiveRowDiagonal", "transpose_diagonal_row", 4096, 4096, "32,32"),
    _seed("s001_naiveColDiagonal", "transpose_diagonal_col", 4096, 4096, "32,32"),
    _seed("s001_naiveRowUnroll4", "transpose_unroll4_row", 4096, 4096, "32,32"),
    _seed("s001_naiveColUnroll4", "transpose_unroll4_col", 4096, 4096, "32,32"),
    _seed("s001_naiveCol_b32x16", "transpose_naive_col", 4096, 4096, "32,16"),
    _seed("s001_naiveCol_b32x8", "transpose_naive_col", 4096, 4096, "32,8"),
    _seed("s001_naiveCol_b64x16", "transpose_naive_col", 4096, 4096, "64,16"),
    _seed("s001_naiveCol_b64x8", "transpose_naive_col", 4096, 4096, "64,8"),
    _seed("s001_naiveCol_b128x8", "transpose_naive_col", 4096, 4096, "128,8"),
    _seed("s000_naiveRow_b16", "transpose_naive_row", 1024, 2048, "16,16"),
    _seed("s000_naiveCol_b16", "transpose_naive_col", 1024, 2048, "16,16"),
    _seed("s000_transposeSmem", "transpose_smem_rect", 1024, 2048, "32,16"),
    _seed("s000_transposeSmemPad", "transpose_smem_rect_pad", 1024, 2048, "32,16"),
    _seed("s004_smemTile", "transpose_smem", 4096, 4096, "32,32"),
    _seed("s004_smemTilePad", "transpose_smem_pad", 4096, 4096, "32,32"),
    _seed("s003_row_sums", "row_sums", 16384, 16384, "256"),
    _seed("s003_col_sums", "col_sums", 16384, 16384, "256"),
    _seed("s002_add1", "add_aligned", 4096, 4096, "32"),
    _seed("s002_add2", "add_misaligned", 4096, 4096, "32"),
    _seed("s002_addVec", "add2d_strided", 1024, 1024, "32,32", "int32"),
    _seed("s002_addVec1", "add2d_coalesced", 1024, 1024, "32,32", "int32"),
]
