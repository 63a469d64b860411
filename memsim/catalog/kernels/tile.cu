// Seed 004: transpose of a square m x m matrix through a TILE x TILE shared-memory tile,
// without and with one column of padding. The catalog prepends `typedef <element type> T;`
// and `#define TILE <block edge>`; launch with a TILE x TILE block.
#ifndef TILE
#define TILE 32
#endif
extern "C" __global__ void k_smemTile(const T* a, T* c, int m) {
  int tileX = blockIdx.x * blockDim.x, tileY = blockIdx.y * blockDim.y;
  int row = threadIdx.y, col = threadIdx.x;
  __shared__ T sub[TILE][TILE];
  sub[row][col] = a[(tileY + row) * m + (tileX + col)];
  __syncthreads();
  c[(tileX + row) * m + (tileY + col)] = sub[col][row];
}
// The padding shifts each tile row by one bank, so reading a tile column is conflict-free.
extern "C" __global__ void k_smemTilePad(const T* a, T* c, int m) {
  int tileX = blockIdx.x * blockDim.x, tileY = blockIdx.y * blockDim.y;
  int row = threadIdx.y, col = threadIdx.x;
  __shared__ T sub[TILE][TILE + 1];
  sub[row][col] = a[(tileY + row) * m + (tileX + col)];
  __syncthreads();
  c[(tileX + row) * m + (tileY + col)] = sub[col][row];
}
